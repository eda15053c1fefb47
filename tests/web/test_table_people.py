"""The people at a table (issue 13), in a real browser against a live server: presence (one
player sees the other go away and a stand-in bot take the seat), the turn signal (the tab's
title, a sound and a notification when the player allows them), snapping with one click, the
round's summary and its "ready", the seat token that never appears in a URL and a seat link that
asks before it seats anybody, the waiting room (a bot for a free seat, cancelling the table),
the lobby's running games, and axe-core on every page."""

from __future__ import annotations

import json
import time

from a11y import assert_accessible
from helpers import watch_to_the_end
from playwright.sync_api import Page, expect
from policy import AbluxxenPlayer, KombioPlayer, board, click_decision, wait_moved, wait_my_turn
from test_web_games import TABLE_URL, create_table

from cardtable.core.record import load_record

SEAT_KEY = "cardtable.seat.{code}"


def seat_page(new_page, code: str, join: dict, game: str, **kw) -> Page:
    """A browser of its own holding the seat `join` (as after taking it), on the table page."""
    page = new_page(**kw)
    page.goto("/")
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [SEAT_KEY.format(code=code), {"token": join["token"], "seat": join["seat"],
                                                "name": join["name"], "game": game}])
    page.goto(f"/t/{code}")
    page.wait_for_selector("#board .game")
    return page


def test_presence_online_then_offline(new_page, server, artifacts):
    """Bob sees Ann online, then offline when she closes her page (a table without a turn timer,
    so nothing but her leaving changes her seat's presence)."""
    out = server.create(game="abluxxen", players=3, name="Ann",
                        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = out["table"]["code"]
    bob_join = server.join(code, "Bob")
    ann = seat_page(new_page, code, out["join"], "abluxxen")
    bob = seat_page(new_page, code, bob_join, "abluxxen")
    ann_seat = bob.locator('.seat-panel[data-seat="0"]')
    expect(ann_seat.locator('[data-presence="online"]')).to_have_count(1, timeout=60_000)
    expect(ann.locator('.seat-panel[data-seat="1"] [data-presence="online"]')).to_have_count(1, timeout=60_000)
    ann.close()
    expect(ann_seat.locator('[data-presence="offline"]')).to_have_count(1, timeout=60_000)
    expect(ann_seat).to_contain_text("offline", timeout=60_000)
    assert server.get(f"/api/tables/{code}").json()["seats"][0]["away"] is False


def test_presence_away_and_stand_in(new_page, server, artifacts):
    """Ann never comes to her table with a 6-second turn timer: when her timer runs out, a
    stand-in bot takes her seat and Bob sees "away: a bot plays" (whatever her presence was
    before: the timer may run out while her page is still loading on a slow machine)."""
    out = server.create(game="abluxxen", players=3, name="Ann", turn_seconds=6,
                        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = out["table"]["code"]
    bob_join = server.join(code, "Bob")
    bob = seat_page(new_page, code, bob_join, "abluxxen")
    ann_seat = bob.locator('.seat-panel[data-seat="0"]')
    # her timer runs out (6 s) when it is her turn: a bot plays for her from then on; Bob
    # keeps playing his own turns meanwhile
    player = AbluxxenPlayer(bob, seed=3)
    guard = time.time() + 600          # only a guard against a hang
    while not ann_seat.locator('[data-presence="away"]').count() and time.time() < guard:
        if bob.locator("#turn-badge.turn-you").count():
            st = board(bob)
            player.act()
            wait_moved(bob, st["index"])
        else:                          # the others' turns: wait for the next state
            bob.wait_for_function("""(i) => Number(document.getElementById('board').dataset.index) !== i
              || !!document.querySelector('[data-seat="0"] [data-presence="away"]')""", arg=board(bob)["index"], timeout=60000)
    expect(ann_seat.locator('[data-presence="away"]')).to_have_count(1, timeout=60_000)
    expect(ann_seat).to_contain_text("a bot plays", timeout=60_000)
    bob.screenshot(path=str(artifacts / "presence-away.png"))
    assert server.get(f"/api/tables/{code}").json()["seats"][0]["away"] is True


#: a Web Audio stand-in that counts the tones started, and a Notification that records itself
SIGNAL_SPIES = """(() => {
  window.__tones = 0; window.__notes = [];
  class Osc { constructor() { this.frequency = {value: 0}; } connect(x) { return x; } start() { window.__tones++; } stop() {} }
  class Gain { constructor() { this.gain = {setValueAtTime() {}, exponentialRampToValueAtTime() {}}; } connect(x) { return x; } }
  window.AudioContext = class { constructor() { this.currentTime = 0; this.state = 'running'; this.destination = {}; }
    createOscillator() { return new Osc(); } createGain() { return new Gain(); } resume() {} };
  window.Notification = class { constructor(title, o) { window.__notes.push([title, o && o.body]); } close() {} };
  window.Notification.permission = 'granted';
  window.Notification.requestPermission = async () => 'granted';
  document.hasFocus = () => false;          // the player looks at another window
  window.__titles = [];
  const note = () => { if (window.__titles[window.__titles.length - 1] !== document.title) window.__titles.push(document.title); };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(note).observe(document.head, {subtree: true, childList: true, characterData: true});
  });
})();"""


def test_turn_signal_title_sound_and_notification(new_page, server, artifacts):
    page = new_page()
    page.add_init_script(SIGNAL_SPIES)
    create_table(page, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
    page.wait_for_selector("#board .game")
    wait_my_turn(page)
    assert page.title().startswith("▶ Your turn")
    # the player allows a sound and a notification
    page.click("#signals > summary")
    page.check("#pref-sound")
    page.check("#pref-notify")
    tones = page.evaluate("window.__tones")
    assert tones >= 2                                 # the sample tone on switching it on
    assert json.loads(page.evaluate("localStorage.getItem('cardtable.signals')")) == {"sound": True, "notify": True}
    player = AbluxxenPlayer(page, seed=4)
    for _ in range(3):                                # my turn ends; the bots play; mine again
        st = board(page)
        player.act()
        page.wait_for_function("(i) => Number(document.getElementById('board').dataset.index) !== i", arg=st["index"])
        if board(page)["status"] == "over":
            break
        wait_my_turn(page)
    assert page.title().startswith("▶ Your turn")
    titles = page.evaluate("window.__titles")
    # between my turns the title said it was not my turn
    assert any(not x.startswith("▶") for x in titles[1:]) and titles[-1].startswith("▶"), titles
    assert page.evaluate("window.__tones") > tones
    notes = page.evaluate("window.__notes")
    assert notes and notes[0][0] == "Your turn" and "it is your turn" in notes[0][1]


def test_one_click_snap_and_round_summary(new_page, server, artifacts):
    """Kombio: in a snap window one click on a card snaps it (one decision sent); after a
    Kombio call the round's summary shows what the server scored, and Ready starts the next
    round."""
    page = new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    code = create_table(page, "kombio", None, 2, ["easy"], target=500)
    page.wait_for_selector("#board .game .ko-grid")
    player = KombioPlayer(page, seed=9, call_after=99, snap_rate=0)
    snappable = "#board .snap-window button.can-pick[data-slot]"
    slot = None
    for _ in range(60):
        wait_my_turn(page)
        slot = page.evaluate("(s) => document.querySelector(s)?.dataset.slot ?? null", snappable)
        if slot is not None:
            before = len(sent)
            # one click on the card; if the window's timer closed it first (a busy machine),
            # the next window is taken
            if click_decision(page, f'{snappable}[data-slot="{slot}"]'):
                break
            slot = None
            continue
        st = board(page)
        player.act()
        wait_moved(page, st["index"])
    assert slot is not None, "no snap window in 60 of my decisions"
    page.wait_for_function("() => !document.querySelector('#ko-pass')")
    decided = [json.loads(f)["decision"] for f in sent[before:] if '"decide"' in f]
    assert decided == [f"snap {slot}"], decided          # one click, one snap, no second step
    # call Kombio at the next turn: the round ends after the bot's last turn (KO-12)
    for _ in range(60):
        wait_my_turn(page)
        if page.locator("#ready-btn").count():
            break
        if page.locator("#ko-kombio").count():
            page.click("#ko-kombio")
        else:
            st = board(page)
            player.act()
            wait_moved(page, st["index"])
            continue
        page.wait_for_selector("#ready-btn, #turn-badge.turn-you")
    expect(page.locator("#round-summary")).to_be_visible()
    expect(page.locator("#ready-btn")).to_be_in_viewport()
    index = board(page)["index"]
    # the summary's totals (the rounds before plus this one) are the score table's: in round 1
    # its round scores are the totals; on a busy machine a round break can pass unseen, so the
    # summary may be a later round's
    shown = page.eval_on_selector_all("#round-summary .rs-seat", "ss => ss.map(s => Number(s.dataset.total))")
    scores = page.eval_on_selector_all("#round-summary .rs-seat", "ss => ss.map(s => Number(s.dataset.score))")
    totals = page.eval_on_selector_all("#side-score-table tbody td.score", "ts => ts.map(t => Number(t.dataset.score))")
    assert shown == totals and len(scores) == len(totals)
    if page.inner_text("#rs-h").startswith("Round 1 "):
        assert scores == totals
    page.screenshot(path=str(artifacts / "kombio-round-summary-live.png"))
    assert board(page)["index"] == index             # nobody played during the summary
    assert server.get(f"/api/tables/{code}").json()["actions"] == index
    page.click("#ready-btn")
    expect(page.locator("#round-summary")).to_have_count(0)
    assert any(json.loads(f)["type"] == "ready" for f in sent if '"ready"' in f)
    assert server.get(f"/api/tables/{code}").json()["status"] == "playing"


def test_token_never_in_a_url_and_links_ask_first(new_page, server, artifacts):
    ann = new_page()
    urls: list[str] = []
    ann.on("request", lambda r: urls.append(r.url))
    ann.on("websocket", lambda ws: urls.append(ws.url))
    code = create_table(ann, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
    ann.wait_for_selector("#board .game")
    token = json.loads(ann.evaluate(f"localStorage.getItem('cardtable.seat.{code}')"))["token"]
    assert len(token) > 20
    assert any("/ws/" in u for u in urls)
    assert not [u for u in urls if token in u or "token=" in u], urls
    # a crafted link with Ann's token: the visitor is asked first, and the token leaves the URL
    eve = new_page()
    eve_urls: list[str] = []
    eve.on("websocket", lambda ws: eve_urls.append(ws.url))
    eve.goto(f"/t/{code}#token={token}")
    expect(eve.locator("#link-confirm")).to_be_visible()
    assert token not in eve.url
    assert eve_urls == []                                 # nothing connected before she chose
    assert_accessible(eve, "seat link confirmation")
    eve.screenshot(path=str(artifacts / "seat-link-confirm.png"))
    eve.click("#watch-instead")
    eve.wait_for_selector("#board .game")
    expect(eve.locator(".chip-spectator")).to_be_visible()
    assert board(eve)["seat"] == ""
    # the same link again, and this time she takes the seat (it is hers, on another device)
    eve.goto(f"/t/{code}#token={token}")
    eve.click("#take-linked-seat")
    eve.wait_for_function("() => document.getElementById('board') && document.getElementById('board').dataset.seat === '0'")
    assert not [u for u in eve_urls if token in u or "token=" in u], eve_urls


def test_waiting_room_bot_for_a_seat_and_cancel(new_page, server, artifacts):
    ann = new_page()
    code = create_table(ann, "kombio", None, 3, ["human", "human"], name="Ann")
    ann.wait_for_selector("#wait-seats")
    expect(ann.locator('.wait-seat[data-seat="0"] [data-presence="online"]')).to_have_count(1)
    assert_accessible(ann, "waiting room")
    ann.screenshot(path=str(artifacts / "waiting-room.png"))
    # Bob takes seat 2 by the link; Ann lets a bot take seat 3: the game starts
    bob = new_page(width=375, height=740)
    bob.goto(f"/t/{code}")
    bob.fill("#tj-name", "Bob")
    bob.click("#take-seat")
    bob.wait_for_selector("#wait-seats")
    expect(bob.locator("#cancel-table")).to_have_count(0)          # only the host may
    expect(ann.locator('.wait-seat[data-seat="1"]')).to_contain_text("Bob")
    ann.click("#to-bot-2")
    ann.wait_for_selector("#board .game .ko-grid")
    bob.wait_for_selector("#board .game .ko-grid")
    assert server.get(f"/api/tables/{code}").json()["seats"][2]["kind"] == "bot"
    # another table, cancelled by its host; a spectator is told
    code2 = create_table(ann, "abluxxen", "basic", 3, ["human", "human"], name="Ann")
    ann.wait_for_selector("#wait-seats")
    eve = new_page()
    eve.goto(f"/t/{code2}")
    eve.click("#just-watch")
    eve.wait_for_selector("#wait-seats")
    ann.on("dialog", lambda d: d.accept())
    ann.click("#cancel-table")
    expect(eve.locator("#board")).to_contain_text("cancelled")
    expect(ann.locator("#board")).to_contain_text("cancelled")
    assert server.get(f"/api/tables/{code2}").status_code == 404


def test_waiting_room_says_a_bot_level_once(new_page, server):
    """The host's bot seat in the waiting room: its level is said by its menu only (before, a
    "medium" beside the name repeated the menu's "medium"); another player sees the word."""
    out = server.create(game="kombio", players=3, name="Ann",
                        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "medium"}])
    code = out["table"]["code"]
    pages = {}
    for who, join in (("ann", out["join"]), ("bob", None)):
        page = pages[who] = new_page(lang="de")
        page.goto("/")
        if join:
            page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                          [SEAT_KEY.format(code=code), {"token": join["token"], "seat": 0, "name": "Ann", "game": "kombio"}])
        page.goto(f"/t/{code}")
        if not join:
            page.click("#just-watch")
        page.wait_for_selector('.wait-seat[data-seat="2"]')
    bot = pages["ann"].locator('.wait-seat[data-seat="2"]')
    expect(bot.locator("#bot-level-2")).to_have_value("medium")
    expect(bot.locator(".seat-level")).to_have_count(0)
    expect(pages["bob"].locator('.wait-seat[data-seat="2"] .seat-level')).to_have_text("mittel")


def test_lobby_lists_running_games_and_pages_are_accessible(new_page, server, artifacts):
    out = server.create(game="kombio", players=2, name="Cy",
                        seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = out["table"]["code"]
    for lang, size in (("en", (1366, 657)), ("de", (375, 740))):
        page = new_page(lang=lang, width=size[0], height=size[1])
        page.goto("/")
        page.wait_for_selector(f'#running-tables .table-item[data-code="{code}"]')
        assert_accessible(page, f"lobby {lang}")
        page.screenshot(path=str(artifacts / f"lobby-{lang}-{size[0]}.png"), full_page=True)
        for path in ("/rules/abluxxen", "/rules/kombio", "/no/such/page"):
            page.goto(path)
            page.wait_for_selector(".rules-page, .not-found")
            assert_accessible(page, f"{path} {lang}")
            if path == "/rules/abluxxen":            # "(DU-*)" is text, not the start of italics
                assert "(DU-*)" in page.locator(".rules-page").inner_text()
                assert page.locator(".rules-lead p").count() == 2
        page.goto(f"/t/{code}")
        page.wait_for_selector("#board .game")
        assert_accessible(page, f"spectator {lang}")
    page.goto("/no/such/page")
    expect(page.locator(".not-found h1")).to_have_text("Seite nicht gefunden")
    # my own tables, with their state
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [SEAT_KEY.format(code=code), {"token": out["join"]["token"], "seat": 0, "name": "Cy",
                                                "game": "kombio"}])
    page.goto("/")
    expect(page.locator(f'.my-tables .table-item[data-code="{code}"] .chip-status')).to_have_text("läuft")


def test_replay_is_accessible(new_page, server, artifacts):
    out = server.create(game="kombio", players=3, target=30, seats=[{"kind": "bot", "bot": "easy"}] * 3)
    code = out["table"]["code"]
    watch_to_the_end(server.ws_base, code)          # the bots play (while watched)
    page = new_page()
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".replay-controls")
    assert_accessible(page, "replay")
    rounds = load_record(server.record(code)).view(None)["round"]
    assert rounds >= 1
