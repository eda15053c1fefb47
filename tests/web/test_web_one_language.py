"""A whole game in the browser in German shows no sentence of the English catalog, and in
English none of the German one (issue 14): the page's text, its labels and titles, from the
lobby to the end screen, and the replay viewer of the finished game."""

from __future__ import annotations

import pytest

from cardtable.i18n import foreign_words
from policy import AbluxxenPlayer, KombioPlayer, play_to_end
from test_web_games import create_table

PAGE_TEXT = """() => document.body.innerText + "\\n" + [...document.querySelectorAll(
  '[aria-label],[title],[placeholder]')].map(e => [e.getAttribute('aria-label'),
  e.getAttribute('title'), e.getAttribute('placeholder')].filter(Boolean).join("\\n")).join("\\n")"""

#: flying cards (dom.js `fly`) that lie on the final score or the last round's summary
STRAY_CARDS = """() => {
  const panels = [...document.querySelectorAll("#result, #round-summary")]
    .map((p) => p.getBoundingClientRect());
  return [...document.querySelectorAll("#fx-layer .fx-ghost")].filter((g) => {
    const r = g.getBoundingClientRect();
    return panels.some((p) => r.right > p.left && r.left < p.right
      && r.bottom > p.top && r.top < p.bottom);
  }).length;
}"""


def _no_foreign(text: str, foreign: set[str]) -> None:
    hits = sorted(f for f in foreign if f in text)
    assert not hits, hits[:10]


@pytest.mark.parametrize("lang,game", [("de", "kombio"), ("de", "abluxxen"), ("en", "kombio")])
def test_a_whole_game_in_one_language(new_page, server, artifacts, lang, game):
    foreign = foreign_words("en" if lang == "de" else "de", lang)
    page = new_page()
    page.goto("/")
    page.click(f"button[data-lang={lang}]")
    page.wait_for_selector("#create-btn")
    _no_foreign(page.evaluate(PAGE_TEXT), foreign)
    if game == "kombio":
        code = create_table(page, "kombio", None, 3, ["easy", "easy"], target=1)
        player = KombioPlayer(page, seed=5, call_after=2)
    else:
        code = create_table(page, "abluxxen", "basic", 3, ["easy", "easy"])
        player = AbluxxenPlayer(page, seed=5)
    seen = []

    def on_turn(acts: int) -> bool:
        seen.append(page.evaluate(PAGE_TEXT))
        return False

    play_to_end(page, player, on_turn=on_turn)
    page.wait_for_selector("#result")
    # no card of an earlier move is still flying across the final score (it flew to where the
    # board was before the score opened above it)
    assert page.evaluate(STRAY_CARDS) == 0
    seen.append(page.evaluate(PAGE_TEXT))
    page.screenshot(path=str(artifacts / f"one-language-{game}-{lang}.png"), full_page=True)
    _no_foreign("\n".join(seen), foreign)
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".replay-controls")
    _no_foreign(page.evaluate(PAGE_TEXT), foreign)
