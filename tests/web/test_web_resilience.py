"""A lost connection in a real browser, without a reload: the server process killed (kill -9) and
restarted on the same port and database mid-game, a WebSocket that the far end closes, one that
goes silent (the heartbeat must notice), and the browser going offline and online again. Each
time the table page must say that it is reconnecting (in words, not colour only), take no clicks
meanwhile, reconnect by itself, and the game must go on by clicking (to the end, where the shown
scores are the record's). And a table page left before it has connected opens no socket."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from helpers import ServerProc
from playwright.sync_api import expect
from policy import AbluxxenPlayer, board, play_to_end, wait_my_turn
from test_web_games import create_table, final_view, shown_scores

#: records every connection status the page shows (text of #conn-status), however briefly
WATCH_STATUS = """() => {
  window.__connSeen = [];
  const note = () => { const c = document.getElementById('conn-status');
    if (c && window.__connSeen[window.__connSeen.length - 1] !== c.textContent) window.__connSeen.push(c.textContent); };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def log_indices(page) -> list[int]:
    return page.eval_on_selector_all("#log-list li", "ls => ls.map(l => Number(l.dataset.index))")


def assert_log_whole(page) -> None:
    """Every event once, in order, none missing (the events missed while away were fetched)."""
    idx = log_indices(page)
    assert idx == list(range(len(idx))), idx
    assert len(idx) == board(page)["index"], (len(idx), board(page))


def expect_reconnected(page, timeout: float = 20000) -> None:
    expect(page.locator("#conn-status")).to_have_count(0, timeout=timeout)
    expect(page.locator("#board")).not_to_have_attribute("inert", "", timeout=timeout)
    wait_my_turn(page)


@pytest.fixture
def own_server():
    """A server of this test alone (it gets killed): `box["srv"]` is the live process."""
    tmp = tempfile.mkdtemp(prefix="cardtable-web-kill-")
    box = {"srv": ServerProc(f"{tmp}/web.db", log_dir=Path(tmp)).start(), "db": f"{tmp}/web.db",
           "logs": Path(tmp)}
    yield box
    box["srv"].stop()


def test_server_killed_and_restarted(browser, own_server, artifacts):
    srv = own_server["srv"]
    ctx = browser.new_context(base_url=srv.base, viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(60_000)   # a hang guard, not a speed limit
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(COUNT_SOCKETS)
    try:
        code = create_table(page, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
        page.wait_for_selector("#board .game")
        player = AbluxxenPlayer(page, seed=21)
        done = {"kill": False}

        def on_turn(acts: int) -> bool:
            if acts != 3 or done["kill"]:
                return False
            done["kill"] = True
            before = board(page)
            hand = page.locator(".hand button.card").count()
            page.evaluate(WATCH_STATUS)
            srv.kill9()
            # the page says so in words, dims the board and takes no clicks
            status = page.locator("#conn-status")
            expect(status).to_be_visible()
            expect(status).to_contain_text("reconnecting")
            expect(page.locator("#board")).to_have_attribute("inert", "")
            # a few failed attempts meanwhile: the page tries again (backoff 0.3 s, 0.6 s, ...)
            tried = page.evaluate("() => window.__sockets.length")
            page.wait_for_function("(n) => window.__sockets.length >= n + 2", arg=tried)
            expect(status).to_contain_text("reconnecting")
            page.screenshot(path=str(artifacts / "reconnecting.png"))
            # the same server again: same port, same database
            srv2 = ServerProc(own_server["db"], port=srv.port, log_dir=own_server["logs"]).start()
            own_server["srv"] = srv2
            expect_reconnected(page)
            after = board(page)
            assert after["index"] == before["index"] and after["seat"] == "0"
            assert page.locator(".hand button.card").count() == hand
            assert page.evaluate("window.__connSeen")[0].startswith("⟳")
            assert_log_whole(page)
            return True

        play_to_end(page, player, on_turn=on_turn)
        assert done["kill"]
        page.wait_for_selector("#result")
        view = final_view(own_server["srv"], code)
        scores, winners = shown_scores(page)
        assert scores == view["scores"] and winners == view["winners"]
        assert_log_whole(page)
    finally:
        ctx.close()
    assert not errors, errors


def test_socket_dropped_silent_and_offline(new_page, server):
    page = new_page()
    # a short heartbeat for the test: 1 s of silence -> ping; 1.5 s more without an answer -> dead
    page.add_init_script("window.CARDTABLE_NET = {heartbeat: 1000, timeout: 1500};")
    page.add_init_script(COUNT_SOCKETS)
    routes = []          # every WebSocket of the page, proxied to the server
    silent = set()       # the routes that no longer pass anything on (a dead network path)

    def proxy(ws):
        upstream = ws.connect_to_server()
        routes.append(ws)
        ws.on_message(lambda m: None if ws in silent else upstream.send(m))
        upstream.on_message(lambda m: None if ws in silent else ws.send(m))

    page.route_web_socket("**/ws/**", proxy)
    create_table(page, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
    page.wait_for_selector("#board .game")
    player = AbluxxenPlayer(page, seed=8)
    done = []

    def lost_and_back(text: str) -> None:
        seen = page.evaluate("window.__connSeen")
        assert any(text in s for s in seen), seen
        expect_reconnected(page)
        assert_log_whole(page)

    def on_turn(acts: int) -> bool:
        if acts == 2 and "closed" not in done:
            # the far end closes the socket (a proxy restarting, a server going away)
            done.append("closed")
            page.evaluate(WATCH_STATUS)
            n = len(routes)
            routes[-1].close(code=1012, reason="restart")
            page.wait_for_function("() => window.__connSeen.length > 0")
            lost_and_back("reconnecting")
            assert len(routes) > n                       # a new socket, without a reload
            return True
        if acts == 4 and "silent" not in done:
            # the socket stays open but nothing comes through any more: only the heartbeat
            # can tell, and a new socket must be opened
            done.append("silent")
            page.evaluate(WATCH_STATUS)
            n = len(routes)
            silent.add(routes[-1])
            page.wait_for_function("() => window.__connSeen.length > 0", timeout=10000)
            lost_and_back("reconnecting")
            assert len(routes) > n
            return True
        if acts == 6 and "offline" not in done:
            done.append("offline")
            page.evaluate(WATCH_STATUS)
            page.context.set_offline(True)
            status = page.locator("#conn-status")
            expect(status).to_contain_text("Offline")
            expect(page.locator("#board")).to_have_attribute("inert", "")
            # attempts fail while offline: two of them, and the page still says so
            tried = page.evaluate("() => window.__sockets.length")
            page.wait_for_function("(n) => window.__sockets.length >= n + 2", arg=tried)
            expect(status).to_contain_text("Offline")
            page.context.set_offline(False)
            lost_and_back("Offline")
            return True
        return False

    play_to_end(page, player, on_turn=on_turn)
    assert done == ["closed", "silent", "offline"], done
    page.wait_for_selector("#result")
    code = page.url.rsplit("/", 1)[1]
    view = final_view(server, code)
    scores, winners = shown_scores(page)
    assert scores == view["scores"] and winners == view["winners"]
    assert_log_whole(page)


#: counts the page's WebSockets (`window.__sockets`, every one the page made)
COUNT_SOCKETS = """(() => {
  window.__sockets = [];
  const Native = window.WebSocket;
  window.WebSocket = function (...args) { const ws = new Native(...args); window.__sockets.push(ws); return ws; };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""

#: and holds back the table's lobby data for 1.5 s, so that the user can leave the table page
#: before it would connect; `window.__held` counts the held-back answers handed to the page
SLOW_TABLE_AND_COUNT_SOCKETS = COUNT_SOCKETS + """(() => {
  window.__held = 0;
  const fetch0 = window.fetch.bind(window);
  window.fetch = (url, opts) => /\\/api\\/tables\\/[A-Z0-9]+$/.test(String(url))
    ? new Promise((ok) => setTimeout(ok, 1500)).then(() => fetch0(url, opts))
        .then((r) => { setTimeout(() => { window.__held += 1; }, 0); return r; })
    : fetch0(url, opts);
})();"""


def test_leaving_a_table_page_before_it_connects_opens_no_socket(new_page, server):
    """A table page left while it still loads (its lobby data, its game module) must not
    connect afterwards: such a socket would never be closed and reconnect for ever."""
    ann = new_page()
    code = create_table(ann, "abluxxen", "basic", 3, ["easy", "easy"], name="Ann")
    ann.wait_for_selector("#board .game")
    page = new_page()
    page.add_init_script(SLOW_TABLE_AND_COUNT_SOCKETS)
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.evaluate("(code) => { const a = document.createElement('a'); a.href = '/t/' + code;"
                  " a.dataset.link = ''; a.id = 'to-table'; a.textContent = 'to the table';"
                  " document.body.appendChild(a); }", code)
    page.click("#to-table")                                   # in-page navigation to the table
    page.wait_for_url(f"**/t/{code}")
    page.click("#site-nav a[href='/']")                       # and back, before it loaded
    page.wait_for_selector("#create-btn")
    # the held-back answer comes, and the page (now the lobby) has had its turn to act on it
    page.wait_for_function("() => window.__held >= 1")
    page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))")
    assert page.evaluate("() => window.__sockets.length") == 0
    # the same page, staying: it connects as usual, as a spectator (the counting works)
    page.goto(f"/t/{code}")
    page.wait_for_selector("#board .game", timeout=10000)
    assert page.evaluate("() => window.__sockets.filter((s) => s.readyState === 1).length") == 1
