"""Pages of the browser tests: each in a browser context of its own (one player each); and a
catalog text as the browser shows it (its clause references as links, or left out)."""

from __future__ import annotations

import re
from contextlib import contextmanager

from cardtable.i18n import t

_CLAUSE = r"(?:AB|DU|CL|KO)-\d+(?:\.\d+)?"
#: a clause reference of a catalog text, as web/static/js/seats.js finds it, and the stop after it
_REF = re.compile(rf"(?:\s*\(({_CLAUSE})(?:\.\.{_CLAUSE})?\)|, ({_CLAUSE})(?:\.\.{_CLAUSE})?\))([.:;,]?)")


def plain_text(text: str) -> str:
    """A text without its clause references, as a button or a tooltip shows it (plainText)."""
    return _REF.sub(lambda m: (")" if m[2] else "") + m[3], text)


def as_shown(text: str, lang: str) -> str:
    """A text as a paragraph shows it (withRefs): each clause reference is a link worded
    "rule" / "Regel" after the sentence's stop, as inner_text() reads it."""
    word = t(lang, "rule.short")
    return _REF.sub(lambda m: (")" if m[2] else "") + m[3] + " " + word, text)


class Errors(list):
    """JavaScript errors of the pages of a test (any fails the test)."""


@contextmanager
def page_factory(browser, base_url: str):
    """A factory of pages, each in a browser context of its own (its own localStorage: one
    player), against `base_url`; the contexts are closed at the end and any JavaScript error
    of their pages fails the test. make(lang="en", width=1280, height=900, phone=False)."""
    contexts = []
    errors = Errors()

    def make(lang: str = "en", width: int = 1280, height: int = 900, phone: bool = False):
        ctx = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                  has_touch=phone, is_mobile=phone,
                                  locale="de-DE" if lang == "de" else "en-US")
        ctx.set_default_timeout(60_000)   # a hang guard, not a speed limit
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    try:
        yield make
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, errors
