"""The browser client in a real browser (Debian's Chromium, headless, through Playwright) against
a live server: whole games played by clicking, a reload mid-game, two players at one table, a
spectator, the language switch and a phone-sized screen. Screenshots are written to the
artifacts directory (see conftest.py)."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Page, expect

from cardtable.core.record import load_record
from policy import (AbluxxenPlayer, KombioPlayer, board, click_decision, play_to_end, wait_moved,
                    wait_my_turn)

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")


def create_table(page: Page, game: str = "abluxxen", variant: str | None = None,
                 players: int | None = None, seats: list[str] | None = None, name: str = "Ann",
                 target: int | None = None, shot: str | None = None, memory: bool = False) -> str:
    """Create a table through the lobby form; `seats`: for seats 1.. "human" or a bot level."""
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.select_option("#f-game", game)
    if variant:
        page.select_option("#f-variant", variant)
    if players:
        page.select_option("#f-players", str(players))
    for i, s in enumerate(seats or [], start=1):
        if s == "human":
            page.select_option(f"#seat-kind-{i}", "human")
        else:
            page.select_option(f"#seat-kind-{i}", "bot")
            page.select_option(f"#seat-bot-{i}", s)
    if target is not None:
        page.fill("#f-target", str(target))
    if memory:
        page.check("#f-memory")
    page.fill("#f-name", name)
    if shot:
        page.screenshot(path=shot, full_page=True)
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    return TABLE_URL.match(page.url).group(1)


def shown_scores(page: Page) -> tuple[list[int], list[int]]:
    rows = page.eval_on_selector_all(
        "#score-table tbody tr",
        "rs => rs.map(r => [Number(r.dataset.seat), Number(r.querySelector('td.score').dataset.score),"
        " r.classList.contains('is-winner')])")
    rows.sort()
    return [r[1] for r in rows], [r[0] for r in rows if r[2]]


def final_view(server, code: str) -> dict:
    st = load_record(server.record(code))
    assert st.over
    return st.view(None)


def finish_and_check(page: Page, server, code: str, player, artifacts, name: str, on_turn,
                     score_key: str = "scores") -> dict:
    """Click the game to its end; the end screen's scores and winners must be the record's."""
    play_to_end(page, player, on_turn=on_turn)
    page.wait_for_selector("#result")
    # the last cards land: no card flight (Web Animations, dom.js) still running
    page.wait_for_function("() => !document.getAnimations().some(a => a.playState === 'running')")
    page.screenshot(path=str(artifacts / f"{name}-end.png"), full_page=True)
    # the log beside the result stays a window high (it scrolls in itself, the page does not
    # grow with it)
    side, window = page.evaluate("[document.querySelector('.side').getBoundingClientRect().height, innerHeight]")
    assert side <= window, (side, window)
    view = final_view(server, code)
    shown, winners = shown_scores(page)
    assert shown == view[score_key]
    assert winners == view["winners"]
    return view


def test_lobby_and_abluxxen_game_with_reload(new_page, server, artifacts):
    page = new_page()
    page.goto("/")
    expect(page.locator("h1")).to_contain_text("cardtable")
    expect(page.locator("a[href='/rules/abluxxen']").first).to_be_visible()
    code = create_table(page, "abluxxen", "basic", 4, ["easy", "easy", "easy"],
                        shot=str(artifacts / "lobby.png"))
    page.wait_for_selector("#board .game")
    expect(page.locator("#rule-hint")).to_contain_text("SAME NUMBER OF CARDS")
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/abluxxen")
    assert page.locator(".hand button.card").count() == 13 or page.locator(".hand button.card").count() > 0
    player = AbluxxenPlayer(page, seed=11)
    reloaded = {"done": False}

    def on_turn(acts: int) -> bool:
        if acts == 4 and not reloaded["done"]:
            page.screenshot(path=str(artifacts / "abluxxen-table.png"), full_page=True)
            reloaded["done"] = True
            before = page.locator(".hand button.card").count()
            log_before = page.locator("#log-list li").count()
            page.reload()
            page.wait_for_selector("#board .game")
            # the same seat again, its hand, and the whole log so far
            assert board(page)["seat"] == "0"
            assert page.locator(".my-area").count() == 1
            wait_my_turn(page)
            assert page.locator(".hand button.card").count() == before
            assert page.locator("#log-list li").count() >= log_before
            return True
        return False

    view = finish_and_check(page, server, code, player, artifacts, "abluxxen", on_turn)
    assert reloaded["done"]
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/replay/{code}")
    expect(page.locator("#winners")).to_be_visible()
    if len([s for s in view["scores"] if s == max(view["scores"])]) > 1:
        expect(page.locator("#tiebreak")).to_be_visible()


def test_duel_game(new_page, server, artifacts):
    page = new_page()
    code = create_table(page, "abluxxen", "duel", 2, ["easy"])
    page.wait_for_selector("#board .game .shadow")
    assert page.locator(".shadow-stack").count() > 0
    player = AbluxxenPlayer(page, seed=5)
    shot = {"done": False}

    def on_turn(acts: int) -> bool:
        if acts == 2 and not shot["done"]:
            shot["done"] = True
            page.screenshot(path=str(artifacts / "duel-table.png"), full_page=True)
        return False

    finish_and_check(page, server, code, player, artifacts, "duel", on_turn)


RENDER = """async ({view, decisions, sel}) => {
  const m = await import("/games/abluxxen/abluxxen.js");
  let el = document.getElementById("probe");
  if (!el) { el = document.createElement("div"); el.id = "probe"; document.body.prepend(el); }
  window.__decided = null;
  m.renderAbluxxen(el, view, {seat: 0, decisions, ui: {sel}, table: {options: {}},
                              decide: (d) => { window.__decided = d; }, rerender: () => {}});
}"""


def _duel_view(options=None, actions=()):
    """Seat 0 holds 7 7; the shadow display has two 1s, two 3s and three 5s (DU-4). The view
    and seat 0's decisions as the server sends them (text, kind, args)."""
    from cardtable.core import new_game

    st = new_game("abluxxen", variant="duel", players=2, seed=0, options=options,
                  deal={"hands": [["X", "X", 7, 7, 3, 3, 2, 2, 9, 9, 9, 11, 12]],
                        "shadow": [1, 1, 2, 3, 3, 4, 5, 5, 5, 6, 8, 10, 11]})
    for a in actions:
        st.apply(a)
    return st.view(0), [st.decision_json(d, 0) for d in st.legal()]


def test_a_phones_shadow_stacks_show_no_cut_numbers(new_page):
    """On a phone the cards of a shadow stack overlap: a covered card shows no number, so that
    the visible strips of three 12s never read "1 1 12" (the stack's count says how many)."""
    from cardtable.core import new_game

    page = new_page("de", width=375, height=740, phone=True)
    page.goto("/")
    page.wait_for_selector("#create-btn")
    st = new_game("abluxxen", variant="duel", players=2, seed=0,
                  deal={"hands": [["X", "X", 7, 7, 3, 3, 2, 2, 9, 9, 9, 11, 12]],
                        "shadow": [1, 2, 3, 4, 5, 6, 10, 10, 11, 11, 12, 12, 12]})
    page.evaluate(RENDER, {"view": st.view(0), "decisions": [st.decision_json(d, 0) for d in st.legal()],
                           "sel": []})
    cut = page.evaluate("""() => [...document.querySelectorAll('#probe .shadow-stack')].flatMap((stack) => {
        const cards = [...stack.querySelectorAll('.card')];
        return cards.slice(0, -1).filter((c, i) => {
          const n = c.querySelector('.card-num');
          return n && getComputedStyle(n).visibility !== 'hidden'
            && n.getBoundingClientRect().right > cards[i + 1].getBoundingClientRect().left + 0.5;
        }).map((c) => stack.dataset.key); })""")
    assert page.locator("#probe .shadow-stack").count() == 9
    assert not cut, cut


@pytest.mark.parametrize("lang", ["en", "de"])
def test_duel_shadow_preview_and_dialog_offer_part_of_a_stack(new_page, artifacts, lang):  # DU-4
    """With `7 7` selected and three 5s in the shadow display, the preview says the set would
    take two of the 5s, and after playing the dialog offers them; with shadow_partial off
    neither does."""
    page = new_page(lang)
    page.goto("/")
    page.wait_for_selector("#create-btn")
    part = "2× 5 (of 3)" if lang == "en" else "2× 5 (von 3)"
    for options, offered in ((None, True), ({"shadow_partial": False}, False)):
        view, decisions = _duel_view(options)
        sevens = [i for i, c in enumerate(view["hands"][0]) if c == 7]
        page.evaluate(RENDER, {"view": view, "decisions": decisions, "sel": sevens})
        info = page.locator("#probe #sel-info").inner_text()
        assert ("2× 1" in info and "2× 3" in info), info          # the whole stacks of two
        assert (part in info) == offered, info
        # after `play 7 7`: the dialog's options are the engine's, each showing what it takes
        view, decisions = _duel_view(options, ["play 7 7"])
        page.evaluate(RENDER, {"view": view, "decisions": decisions, "sel": []})
        btns = page.locator("#probe #decision-dialog .shadow-btn")
        assert [b.get_attribute("data-decision") for b in btns.all()] == view["legal"]
        if offered:
            five = page.locator('#probe .shadow-btn[data-decision="shadow 5"]')
            assert five.get_attribute("aria-label") == part
            assert five.get_attribute("data-take") == "2" and five.locator(".card").count() == 2
            expect(page.locator("#probe #dlg-text")).to_contain_text("2")
            page.screenshot(path=str(artifacts / f"duel-shadow-dialog-{lang}.png"))
            five.click()
            assert page.evaluate("window.__decided") == "shadow 5"
        else:
            assert view["legal"] == ["shadow 1", "shadow 3"]


def test_kombio_round(new_page, server, artifacts):
    page = new_page()
    code = create_table(page, "kombio", None, 3, ["easy", "easy"], target=1)
    page.wait_for_selector("#board .game .ko-grid")
    # the cards of my grid I know are shown face up: slots 3 and 4 at the start (KO-2); the
    # bots may have moved already (a swap or a snap changes what I know), so the count is
    # checked against my seat's view at the same index, from the record at the end
    index, shown = page.evaluate(
        """() => [Number(document.getElementById('board').dataset.index),
                  document.querySelectorAll('.my-area .ko-grid .card[data-value]').length]""")
    player = KombioPlayer(page, seed=3, call_after=2)
    shot = {"done": False}

    def on_turn(acts: int) -> bool:
        if not shot["done"] and page.locator("#ko-draw").count():
            shot["done"] = True
            page.screenshot(path=str(artifacts / "kombio-table.png"), full_page=True)
        return False

    finish_and_check(page, server, code, player, artifacts, "kombio", on_turn, "totals")
    assert player.turns >= 1
    # at the end every grid is open: the action cards carry their marks (7-10 look, 11-12
    # swap, 13 both, 14 two looks), which the game's module gives the card drawing (cards.js)
    marks = page.evaluate(
        """() => [...document.querySelectorAll('.ko-grid .card[data-value], #board .card[data-value]')]
                 .map((c) => [c.dataset.value, (c.querySelector('.card-action') || {}).textContent || ''])""")
    expect_mark = {7: "◉", 8: "◉", 9: "◉", 10: "◉", 11: "⇄", 12: "⇄", 13: "◉⇄", 14: "◉◉"}
    assert any(int(v) >= 7 for v, _ in marks) and all(m == expect_mark.get(int(v), "") for v, m in marks), marks
    then = load_record(server.record(code), upto=index).view(0)
    known = [v for v in then["grids"][0] if isinstance(v, int)]
    assert shown == len(known)
    if index == 0:
        assert then["grids"][0][2:] == known  # KO-2


def test_two_players_and_a_spectator(new_page, server, artifacts):
    ann = new_page()
    code = create_table(ann, "abluxxen", "basic", 3, ["human", "easy"], name="Ann")
    share = ann.locator("#share-link")
    expect(share).to_have_value(re.compile(f"/t/{code}$"))
    link = share.input_value()
    # Bob opens the link in his own browser, takes the free seat
    bob = new_page()
    bob.goto(link)
    bob.fill("#tj-name", "Bob")
    bob.click("#take-seat")
    bob.wait_for_selector("#board .game")
    ann.wait_for_selector("#board .game")
    assert board(ann)["seat"] == "0" and board(bob)["seat"] == "1"
    # a spectator: hand counts only, never a hand
    eve = new_page(width=375, height=800)
    eve.goto(f"/t/{code}")
    eve.wait_for_selector("#board .game")
    expect(eve.locator(".chip-spectator")).to_be_visible()
    players = [(ann, AbluxxenPlayer(ann, seed=1)), (bob, AbluxxenPlayer(bob, seed=2))]
    acted = [0, 0]
    deadline = time.monotonic() + 300           # a hang guard, not a time budget
    while min(acted) < 3:
        assert time.monotonic() < deadline, acted
        for i, (page, pl) in enumerate(players):
            if page.locator("#turn-badge.turn-you").count() and board(page)["status"] == "playing":
                st = board(page)
                pl.act()
                acted[i] += 1
                page.wait_for_function("(i) => Number(document.getElementById('board').dataset.index) !== i",
                                       arg=st["index"], timeout=10000)
        ann.wait_for_timeout(100)                # a poll's interval: whose turn is it now
    for page, other in ((ann, 1), (bob, 0)):
        # each sees only the own hand: the other's seat panel shows a count
        assert page.locator(".my-area .hand button.card").count() > 0
        assert page.locator(f'.seat-panel[data-seat="{other}"] .seat-hand').count() == 0
        assert page.locator(f'.seat-panel[data-seat="{other}"] .hand-badge').count() == 1
    eve.wait_for_function("() => document.querySelectorAll('#log-list li').length > 3")
    assert eve.locator(".hand, .my-area, .seat-hand, .hand button.card").count() == 0
    assert eve.locator("#action-bar").count() == 0
    eve.screenshot(path=str(artifacts / "spectator-phone.png"), full_page=True)


def test_language_keyboard_and_phone(new_page, server, artifacts):
    page = new_page(width=375, height=812)
    page.goto("/")
    page.click("button[data-lang=de]")
    expect(page.locator("#create-h")).to_have_text("Neuer Tisch")
    assert page.evaluate("localStorage.getItem('cardtable.lang')") == "de"
    create_table(page, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
    page.wait_for_selector("#board .game")
    expect(page.locator("#rule-hint")).to_contain_text("GLEICH VIELE KARTEN")
    wait_my_turn(page)
    # the page fits a phone's width
    assert page.evaluate("document.documentElement.scrollWidth") <= 375 + 1
    page.screenshot(path=str(artifacts / "abluxxen-phone-de.png"), full_page=True)
    # keyboard: focus a hand card, select it with Space, play with P
    if page.locator("#play-btn").count():
        first = page.locator(".hand button.card").first
        first.focus()
        page.keyboard.press("Space")
        expect(page.locator(".hand button.card.is-selected")).to_have_count(1)
        assert page.locator(".hand button.card.is-selected").first.get_attribute("aria-pressed") == "true"
        idx = board(page)["index"]
        page.keyboard.press("p")
        page.wait_for_function("(i) => Number(document.getElementById('board').dataset.index) !== i", arg=idx)
        # the keyboard stays in the table: focus is in the player's own area, not lost to the page
        assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
    # back to English: the table follows, the log is fetched again in English
    page.click("button[data-lang=en]")
    expect(page.locator("#rule-hint")).to_contain_text("SAME NUMBER OF CARDS")
    page.wait_for_function("() => document.querySelectorAll('#log-list li').length > 0")
    # a log entry that wraps goes on under its own first line, not under its number
    page.click("#log-toggle")
    starts = page.evaluate("""() => { const l = document.getElementById('log-list');
        l.style.width = '120px';
        return [...l.querySelectorAll('li')].map((li) => {
          const r = document.createRange();
          r.setStartAfter(li.querySelector('.log-n')); r.setEnd(li, li.childNodes.length);
          const lines = new Map();
          for (const b of r.getClientRects()) if (b.width > 0) {
            const y = Math.round(b.top); lines.set(y, Math.min(lines.get(y) ?? 1e9, b.left)); }
          return [...lines.values()]; }); }""")
    assert any(len(s) > 1 for s in starts), starts           # some entry wraps at this width
    assert all(max(s) - min(s) < 2 for s in starts if s), starts


MY_FACES = """() => [...document.querySelectorAll('.my-area .ko-grid .card')].map(c => ({
  slot: c.dataset.slot, value: c.dataset.value || null, memory: c.classList.contains('is-memory'),
  label: c.getAttribute('aria-label') || c.getAttribute('title') || c.textContent }))"""


def test_kombio_memory_mode(new_page, server, artifacts):
    """Memory mode (the terminal's --memory) is a setting of the table, chosen in the lobby and
    shown to every player: the cards I know turn face down once they have been shown for 5 s,
    not even a screen reader's label tells them, and the known sum is not shown."""
    page = new_page()
    # the page's clock is Playwright's: the 5 s pass when the test says so, not with the
    # machine's speed (a busy machine had not rendered the hidden cards within 9 s of waiting)
    page.clock.install()
    code = create_table(page, "kombio", None, 2, ["easy"], target=1, memory=True)
    assert server.get(f"/api/tables/{code}").json()["memory"] is True
    page.wait_for_selector("#board .game .ko-grid")
    expect(page.locator("#memory-chip")).to_be_visible()
    # the start of my turn: nothing changes on the table until I act (no turn timer)
    for _ in range(20):
        wait_my_turn(page)
        if page.locator("#ko-draw").count():
            break
        click_decision(page, "#ko-pass")  # a snap window first: let it go (or its timer does)
        page.wait_for_function("() => !document.querySelector('#ko-pass')")
    assert page.locator("#ko-draw").count()
    # the cards I know: KO-2's two at the start, fewer if an opponent's swap took one of them
    # (a 13/14 of the bot's in the turns before mine), so counted here, not assumed
    known = {f["slot"] for f in page.evaluate(MY_FACES) if f["value"] is not None or f["memory"]}
    assert known, page.evaluate(MY_FACES)
    page.clock.fast_forward(6000)                    # the time the cards were shown, and a second
    page.wait_for_function(
        "n => document.querySelectorAll('.my-area .ko-grid .card.is-memory').length >= n", arg=len(known))
    faces = page.evaluate(MY_FACES)
    hidden = [f for f in faces if f["memory"]]
    assert {f["slot"] for f in hidden} == known, faces   # every card I know, and only those
    assert all(f["value"] is None for f in faces), faces
    for f in hidden:
        assert f["value"] is None
        assert not re.findall(r"-?\d+", f["label"].split(":")[-1]), f   # not even to a screen reader
    # the known sum would give them away
    expect(page.locator(".my-area .flag", has_text="known sum")).to_have_count(0)
    page.screenshot(path=str(artifacts / "kombio-memory.png"))
    # the other player (a spectator here) sees that the table plays in memory mode
    other = new_page()
    other.goto(f"/t/{code}")
    other.wait_for_selector("#board .game")
    expect(other.locator("#memory-chip")).to_be_visible()


def _option_boxes(page: Page) -> dict:
    return page.eval_on_selector_all("#rule-options input[type=checkbox]",
                                     "bs => Object.fromEntries(bs.map(b => [b.name, b.checked]))")


def _wait_option_boxes(page: Page, want: dict) -> None:
    """Wait until the option boxes show `want` (the form re-renders after a change; a busy
    machine renders later). The hang guard only: a wrong form fails the assert after it."""
    try:
        page.wait_for_function(
            """want => {
                const bs = [...document.querySelectorAll('#rule-options input[type=checkbox]')];
                const got = Object.fromEntries(bs.map(b => [b.name, b.checked]));
                return JSON.stringify(got, Object.keys(got).sort())
                    === JSON.stringify(want, Object.keys(want).sort());
            }""", arg=want, timeout=60_000)
    except Exception:
        pass


def test_lobby_rule_options(new_page, server, artifacts):
    """The create form offers the Abluxxen rule options of NOTATION.md with the variant's defaults
    (and the clause each changes); only options set differently are sent, and the table has them.
    Kombio's target and snap window are sent too."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create-btn")
    expect(page.locator("#rule-options legend")).to_have_text("Rule options")
    defaults = {
        "basic": {"optional_draw": True, "ones_beat_top": False, "tiebreak_fewer_hand": True},
        "advanced": {"optional_draw": False, "ones_beat_top": False, "tiebreak_fewer_hand": True},
        "expert": {"optional_draw": False, "ones_beat_top": True, "tiebreak_fewer_hand": True},
        "duel": {"optional_draw": True, "ones_beat_top": False, "shadow_partial": True,
                 "shadow_blocks_draw": False, "tiebreak_fewer_hand": True},
        "classic": {"optional_draw": False, "ones_beat_top": False, "tiebreak_fewer_hand": False},
    }
    for variant, want in defaults.items():
        page.select_option("#f-variant", variant)
        _wait_option_boxes(page, want)
        assert _option_boxes(page) == want, variant
        assert page.locator("#rule-options .chip-changed").count() == 0
    clauses = page.eval_on_selector_all("#rule-options .clause-ref", "as => as.map(a => a.textContent)")
    assert clauses == ["AB-15", "AB-20", "AB-18"]                     # classic: no shadow option
    # the basic game with 1s beating the top (AB-20), the optional draw touched but left as it was
    page.select_option("#f-variant", "basic")
    page.select_option("#f-players", "3")
    page.check("#opt-ones_beat_top")
    page.uncheck("#opt-optional_draw")
    page.check("#opt-optional_draw")
    expect(page.locator("#rule-options .chip-changed")).to_have_count(1)
    page.fill("#f-name", "Ann")
    page.screenshot(path=str(artifacts / "lobby-options.png"), full_page=True)
    sent = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/tables") else None)
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(page.url).group(1)
    table = server.get(f"/api/tables/{code}").json()
    assert table["variant"] == "basic" and table["options"] == {"ones_beat_top": True}, table
    assert sent and sent[0]["options"] == {"ones_beat_top": True}, sent
    # the duel with the whole-stack reading of DU-4 (shadow_partial off; on is the default) and
    # without the optional draw (AB-15), in German
    page.goto("/")
    page.click("button[data-lang=de]")
    page.select_option("#f-variant", "duel")
    expect(page.locator("#rule-options legend")).to_have_text("Regel-Optionen")
    expect(page.locator("label:has(#opt-shadow_partial)")).to_contain_text("Schattenstapel")
    page.uncheck("#opt-shadow_partial")
    page.uncheck("#opt-optional_draw")
    page.fill("#f-name", "Ann")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(page.url).group(1)
    table = server.get(f"/api/tables/{code}").json()
    assert table["variant"] == "duel"
    assert table["options"] == {"shadow_partial": False, "optional_draw": False}, table
    # unchanged options: none sent
    sent.clear()
    page.goto("/")
    page.select_option("#f-variant", "expert")
    page.select_option("#f-players", "3")
    page.fill("#f-name", "Ann")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    assert sent and "options" not in sent[0], sent
    code = TABLE_URL.match(page.url).group(1)
    assert server.get(f"/api/tables/{code}").json()["options"] == {}
    # Kombio: the target total and the snap window
    page.goto("/")
    page.select_option("#f-game", "kombio")
    assert page.locator("#rule-options").count() == 0
    page.fill("#f-target", "50")
    page.select_option("#f-snap_seconds", "5")
    page.fill("#f-name", "Ann")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(page.url).group(1)
    table = server.get(f"/api/tables/{code}").json()
    assert table["target"] == 50 and table["snap_seconds"] == 5, table


def test_lobby_refresh_redraws_the_lists_only(new_page, server):
    """The lobby refreshes its lists (every 5 s and on Refresh) without redrawing the forms: the
    Create button is not replaced under a click (a click lost that way failed a CI run), and a
    half-typed table code and the chosen settings stay."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#refresh-btn")
    page.select_option("#f-game", "kombio")
    page.fill("#j-code", "ABCD")
    page.evaluate("window.createBtn = document.getElementById('create-btn')")
    r = httpx.post(server.base + "/api/tables", trust_env=False, timeout=10,
                   json={"game": "abluxxen", "players": 3, "name": "Bea"})
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    page.click("#refresh-btn")
    item = page.locator(f'.open-tables .table-item[data-code="{code}"]')
    expect(item).to_contain_text("basic game · 3 players · 2 free")
    assert page.evaluate("window.createBtn.isConnected")          # the same button, still there
    expect(page.locator("#j-code")).to_have_value("ABCD")
    expect(page.locator("#f-game")).to_have_value("kombio")
    page.select_option("#f-players", "3")                          # redraws the create form
    expect(page.locator("#j-code")).to_have_value("ABCD")


def _fits(page: Page, width: int = 375) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


def test_phone_lobby_snap_window_and_duel(new_page, server, artifacts):
    """A phone's width (375 px): the lobby with its rule options, a Kombio table while a snap
    window asks me, and the duel table fit the screen; screenshots of each."""
    page = new_page(width=375, height=812)
    page.goto("/")
    page.wait_for_selector("#rule-options")
    page.select_option("#f-variant", "duel")
    page.uncheck("#opt-shadow_partial")
    _fits(page)
    page.screenshot(path=str(artifacts / "phone-lobby.png"), full_page=True)
    # Kombio: the bot's discard opens a snap window for me (8 s long)
    page.select_option("#f-game", "kombio")
    page.select_option("#f-players", "2")
    page.select_option("#f-snap_seconds", "8")
    page.select_option("#seat-bot-1", "easy")
    page.fill("#f-name", "Ann")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#board .game .ko-grid")
    player = KombioPlayer(page, seed=4, call_after=99, snap_rate=0)
    for _ in range(40):
        wait_my_turn(page)
        if page.locator("#ko-pass").count() and page.locator("#board button.can-pick[data-slot]").count():
            break
        st = board(page)
        player.act()
        wait_moved(page, st["index"])
    # a snap window: every card that may be snapped is a button, the window's time is on the
    # discard pile, and the pass button is in sight
    expect(page.locator("#ko-pass")).to_be_in_viewport()
    expect(page.locator("#window-time")).to_be_visible()
    expect(page.locator("#why")).to_contain_text("snap")
    _fits(page)
    page.screenshot(path=str(artifacts / "phone-kombio-snap.png"), full_page=True)
    page.screenshot(path=str(artifacts / "phone-kombio-snap-viewport.png"))
    # the duel
    code = create_table(page, "abluxxen", "duel", 2, ["easy"])
    page.wait_for_selector("#board .game .shadow")
    wait_my_turn(page)
    _fits(page)
    page.screenshot(path=str(artifacts / "phone-duel.png"), full_page=True)
    assert code
