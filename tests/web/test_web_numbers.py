"""Numbers in the page's language: the client's one helper (i18n.js formatNumber and
formatPercent, Intl.NumberFormat) writes "71,1" and "71,1 %" in German and "71.1" and "71.1%"
in English, with a real minus sign; the ratings, the coach's win chances and the review's
figures are written by it (a static check: no module of the client or of a built-in game
prints a decimal by itself)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "cardtable"
#: the client's modules and the built-in games' own
MODULES = sorted([*(SRC / "web" / "static" / "js").glob("*.js"), *SRC.glob("*/web/*.js")])

FORMATS = """async () => { const m = await import('/static/js/i18n.js');
  return [m.formatNumber(71.1, 1), m.formatNumber(-3.25, 1), m.formatNumber(1234.5, 1),
          m.formatPercent(0.711), m.formatPercent(0.5, 0)]; }"""


@pytest.mark.parametrize("lang,want", [
    ("de", ["71,1", "−3,3", "1.234,5", "71,1\u00a0%", "50\u00a0%"]),
    ("en", ["71.1", "−3.3", "1,234.5", "71.1%", "50%"])])
def test_numbers_are_written_in_the_pages_language(new_page, lang, want):
    page = new_page(lang, 375, 740, phone=True)
    page.goto("/")
    page.wait_for_selector("#learn-panel")
    assert page.evaluate(FORMATS) == want


def test_no_module_prints_a_decimal_by_itself():
    bad = [f"{p.name}: {m.group(0)}" for p in MODULES if p.name != "i18n.js"
           for m in re.finditer(r"\.toFixed\(|\.toLocaleString\(|Intl\.NumberFormat", p.read_text())]
    assert not bad, bad
