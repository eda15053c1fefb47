"""Every step of every lesson in view on a phone (375x740, touch; German in `make test`, English
too in `make test-full`): when a step asks for a
decision, the step's words, the cards it talks about (the hand cards to play, the pool's card
to take, the shadow display, the pending cards, the grid's card) and the decision's controls
lie inside the window without the player scrolling, and nothing covers them (the sticky own
area of a phone once covered the pool and the shadow display); so do the first decisions of the
free game after the steps. One page per lesson, driven by clicking; a screenshot of each step
goes to the artifacts."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from policy import AbluxxenPlayer, KombioPlayer, wait_moved, wait_my_turn
from test_learn_journey import PHONE, do, wait_step
from test_table_layout import NOT_IN_VIEW, SETTLED

from cardtable.core.lesson import lesson

#: in the free game after the steps: the panel's words and everything the decision acts on
FREE = ["#learn-free", "#board [data-decision]:not([data-decision=''])", "#board .can-pick",
        "#action-bar button:not([disabled])", ".hand button.card"]
#: the learner's decisions of the free game checked (the start of it: the rest is the same game)
FREE_CHECKED = 6

#: cards a step's words name beyond its decision's own (its key -> selectors)
TALKS_ABOUT = {
    "ab.basic.abluxx": [".opps .layer-top .card"],
    "ab.duel.play": ["[data-region=shadow]"],
    "ab.duel.abluxx": ["[data-region=shadow]"],
}


def step_selectors(decision: dict, key: str) -> list[str]:
    """The step's words, its decision's controls and the cards the step talks about."""
    kind, args, text = decision["kind"], decision["args"], decision["text"]
    sels = ["#learn-do"] + TALKS_ABOUT.get(key, [])
    if kind == "play":
        sels += [f'.hand button.card[data-value="{v}"]' for v in set(args["cards"])] + ["#play-btn"]
    elif kind == "draw" and args.get("from") == "pool":
        sels += [f'#board [data-decision="{text}"]']
    elif kind == "draw" and args.get("from") == "deck":
        sels += ["#draw-deck-btn"]
    elif kind == "take":
        sels += ["#take-btn", ".seat-panel .pending .card"]
    elif kind == "discard":                              # Abluxxen's pending cards, Kombio's drawn one
        sels += ["#discard-btn, #ko-discard", ".my-area .pending .card, [data-region=drawn]"]
    elif kind == "shadow":
        sels += [f'.shadow-btn[data-decision="{text}"], #board .shadow-stack[data-decision="{text}"]']
    elif kind == "draw":                                 # Kombio: the deck
        sels += ["#ko-draw"]
    elif kind in ("replace", "peek", "snap"):
        sels += [f'#board button.can-pick[data-slot="{c["seat"]}.{c["slot"]}"]' for c in args["cards"]]
    elif kind == "pass":
        sels += ["#ko-pass"]
    elif kind == "kombio":
        sels += ["#ko-kombio"]
    return sels


LESSONS = ["abluxxen.basic", "abluxxen.duel", "kombio.basic"]


@pytest.mark.parametrize("lid,lang", [(lid, "de") for lid in LESSONS] + [   # English: test-full
    pytest.param(lid, "en", marks=pytest.mark.full) for lid in LESSONS])
def test_every_lesson_step_in_view_on_a_phone(new_page, artifacts, lid, lang):
    les = lesson(lid)
    page = new_page(lang, PHONE["width"], PHONE["height"], phone=True)
    page.goto("/")
    page.click(f"#learn-{lid.replace('.', '-')}")
    page.wait_for_url("**/t/*")
    failures = []
    opened = False
    for k, step in enumerate(les.steps_json()):
        wait_step(page, k)
        page.wait_for_function(SETTLED)
        sels = step_selectors(step["decision"], step["key"])
        res = page.evaluate(NOT_IN_VIEW, sels)
        found = page.evaluate("(ss) => ss.filter((s) => !document.querySelector(s))", sels)
        if res["out"] or found:
            failures.append((k, step["key"], res["out"], found and f"missing: {found}"))
            page.screenshot(path=str(artifacts / f"learn-view-{lid}-{k}-375x740-{lang}-FAILED.png"))
        else:
            page.screenshot(path=str(artifacts / f"learn-view-{lid}-{k}-375x740-{lang}.png"))
        more = page.locator("#learn-more")
        if not opened and more.is_visible():      # the done words open and close again
            opened = True
            more.click()
            expect(more).to_have_attribute("aria-expanded", "true")
            assert page.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1", page.locator("#learn-done").element_handle())
            more.click()
            expect(more).to_have_attribute("aria-expanded", "false")
        do(page, step["decision"], les.seat)
    assert opened or lid == "kombio.basic", "no step done had words longer than a line"
    player = AbluxxenPlayer(page, seed=2) if les.game == "abluxxen" else \
        KombioPlayer(page, seed=2, call_after=1, snap_rate=0.0)
    for k in range(FREE_CHECKED):
        st = wait_my_turn(page, timeout=180.0)
        if st["status"] == "over" or page.locator("#ready-btn").count():
            break
        page.wait_for_function(SETTLED)
        res = page.evaluate(NOT_IN_VIEW, FREE)
        if res["out"]:
            failures.append(("free", k, res["out"]))
            page.screenshot(path=str(artifacts / f"learn-view-{lid}-free{k}-375x740-{lang}-FAILED.png"))
        player.act()
        wait_moved(page, st["index"])
    assert not failures, "\n".join(map(str, failures))
