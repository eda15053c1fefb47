"""The guided first game in a real browser (issue 34): a newcomer on a phone (375x740, touch,
German) opens the lobby, starts "Learn to play" for a game, follows every step of the lesson
by clicking what the step panel asks (the panel never covers the decision: the buttons of the
decision are on the screen beside it), is refused in German when trying something else first,
and then plays the free game to its end by clicking legal decisions. Screenshots of the lobby
and a step at 375x740 and 1366x657, de and en, go to the artifacts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from cardtable.core.lesson import lesson
from cardtable.i18n import t
from pages import as_shown
from policy import AbluxxenPlayer, KombioPlayer, board, click_hand_card, play_to_end

PHONE = {"width": 375, "height": 740}
LAPTOP = {"width": 1366, "height": 657}

def wait_step(page: Page, k: int) -> None:
    """Until the panel shows step k and the decision is this player's."""
    page.wait_for_function(
        """(k) => { const p = document.getElementById('learn-step');
          return !!p && p.dataset.step === String(k) && !!document.querySelector('#turn-badge.turn-you'); }""",
        arg=k)


def on_screen(page: Page, selector: str) -> bool:
    """The element is inside the window and not covered at its centre (the step panel lies in
    the board's flow, never over the decision)."""
    return page.evaluate("""(sel) => { const e = document.querySelector(sel);
      if (!e) return false; e.scrollIntoView({block: 'nearest'});
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!hit && (e === hit || e.contains(hit)); }""", selector)


def do(page: Page, decision: dict, me: int) -> None:
    """Make `decision` (JSON, as the step gives it) by clicking, as a person would."""
    kind, args, text = decision["kind"], decision["args"], decision["text"]
    if kind == "play":                              # hand cards of these numbers, then play
        picked: set[str] = set()
        for v in args["cards"]:
            cards = page.eval_on_selector_all(
                ".hand button.card", "bs => bs.map(b => [b.dataset.idx, b.dataset.value])")
            idx = next(i for i, val in cards if val == str(v) and i not in picked)
            picked.add(idx)
            click_hand_card(page, idx)
        assert on_screen(page, "#play-btn")
        page.click("#play-btn")
        return
    direct = page.locator(f'#board [data-decision="{text}"]')
    if direct.count():
        direct.first.click()
        return
    ids = {"draw": "#ko-draw", "discard": "#ko-discard", "pass": "#ko-pass", "kombio": "#ko-kombio"}
    if kind in ids and page.locator(ids[kind]).count():
        assert on_screen(page, ids[kind])
        page.click(ids[kind])
        return
    if kind in ("replace", "peek", "snap"):         # a card of a grid: click it
        c = args["cards"][0]
        page.click(f'#board button.can-pick[data-slot="{c["seat"]}.{c["slot"]}"]')
        return
    raise AssertionError(f"no way to click {decision}")


@pytest.mark.parametrize("lid", ["abluxxen.basic", "kombio.basic", "abluxxen.duel"])
def test_a_newcomer_learns_to_play_on_a_phone_in_german(new_page, artifacts, lid):
    les = lesson(lid)
    page = new_page("de", PHONE["width"], PHONE["height"], phone=True)
    page.goto("/")
    page.wait_for_selector("#learn-panel .learn-btn")
    assert page.locator("#learn-h").inner_text() == t("de", "learn.title")
    page.click(f"#learn-{lid.replace('.', '-')}")
    page.wait_for_url("**/t/*")
    steps = les.steps
    for k, (_, step) in enumerate(steps):
        wait_step(page, k)
        panel = page.locator("#learn-step")
        assert as_shown(t("de", f"learn.{step.key}.do"), "de") in panel.inner_text()
        link = panel.locator("a.clause-ref")
        assert link.get_attribute("href") == f"/rules/{les.game}#{step.clause}"
        if k == 0:
            page.screenshot(path=str(artifacts / f"learn-{lid}-step-375x740-de.png"))
            # something else than the step asks: refused in German, nothing sent
            index = board(page)["index"]
            if les.game == "abluxxen":
                other = next(v for v in ("2", "3", "4") if page.locator(
                    f'.hand button.card[data-value="{v}"]').count())
                click_hand_card(page, page.locator(
                    f'.hand button.card[data-value="{other}"]').first.get_attribute("data-idx"))
                page.click("#play-btn")
            else:
                page.click("#ko-kombio")
            page.wait_for_selector("#learn-refused")
            assert page.locator("#learn-refused").inner_text() == as_shown(t(
                "de", "learn.refuse", step=t("de", f"learn.{step.key}.do")), "de")
            assert board(page)["index"] == index
        do(page, _step_decision(les, k), les.seat)
    # the last step's words, then the free game
    page.wait_for_selector("#learn-free, #learn-over, #learn-wait")
    player = AbluxxenPlayer(page, seed=2) if les.game == "abluxxen" else \
        KombioPlayer(page, seed=2, call_after=1, snap_rate=0.0)
    try:
        play_to_end(page, player)
    finally:
        page.screenshot(path=str(artifacts / f"learn-{lid}-end-375x740-de.png"))
    page.wait_for_selector("#learn-over")
    assert page.locator("#learn-over").inner_text() == t("de", "learn.over")
    page.screenshot(path=str(artifacts / f"learn-{lid}-over-375x740-de.png"))


def _step_decision(les, k: int) -> dict:
    return les.steps_json()[k]["decision"]


@pytest.mark.parametrize("lang,size", [
    pytest.param("de", PHONE, id="375x740-de"), pytest.param("en", LAPTOP, id="1366x657-en"),
    pytest.param("en", PHONE, id="375x740-en", marks=pytest.mark.full),    # the crossed pairs:
    pytest.param("de", LAPTOP, id="1366x657-de", marks=pytest.mark.full)])  # `make test-full`
def test_screenshots_of_the_lobby_and_a_step(new_page, artifacts, lang, size):
    page = new_page(lang, size["width"], size["height"], phone=size is PHONE)
    page.goto("/")
    page.wait_for_selector("#learn-panel .learn-btn")
    tag = f"{size['width']}x{size['height']}-{lang}"
    page.screenshot(path=str(artifacts / f"learn-lobby-{tag}.png"))
    # a lesson's step count runs on after its title's last line (a German title wraps on a
    # phone), not in a column beside its first one
    apart = page.evaluate("""() => [...document.querySelectorAll('#learn-panel .learn-btn')].filter((b) => {
        const r = document.createRange(); r.selectNodeContents(b.firstChild);
        const lines = [...r.getClientRects()], count = b.querySelector('span').getClientRects()[0];
        return count.top < lines[lines.length - 1].top - 1; }).map((b) => b.id)""")
    assert not apart, apart
    page.click("#learn-kombio-basic")
    wait_step(page, 0)
    assert on_screen(page, "#ko-draw") and on_screen(page, "#learn-do")
    page.screenshot(path=str(artifacts / f"learn-kombio-step-{tag}.png"))
    # the step's rule link is words ("Read the rule") in the step's type, not an id's monospace
    fonts = page.evaluate("""() => [document.querySelector('#learn-do'),
        document.querySelector('#learn-step .clause-ref')].map((e) => getComputedStyle(e).fontFamily)""")
    assert fonts[0] == fonts[1], fonts
    do(page, lesson("kombio.basic").steps_json()[0]["decision"], 0)
    wait_step(page, 1)
    page.screenshot(path=str(artifacts / f"learn-kombio-step2-{tag}.png"))
