"""Table talk (issue 33, server/talk/chat.py, docs/protocol.md "Table talk"): the players' chat
between seats, the spectators' chat that no seat gets during the game (both in the finished
game's chat), quick reactions, the limits (length, control characters, rates per seat and per
spectator), text kept as text, the host's switch, the log a reconnecting client gets, and the
chat across two processes on one PostgreSQL. Run on SQLite and PostgreSQL."""

from __future__ import annotations

import random

import pytest
from helpers import Client, ServerProc, assert_clean_log, database_url, play
from helpers import run_async as run

#: the budget of chat messages in these tests: 3 at once, then (practically) none: one token
#: comes back every 1000 s, so the limit is reached by count, not by timing
BURST = 3


@pytest.fixture(scope="module")
def srv(database, logs):
    s = ServerProc(database, log_dir=logs,
                   args=("--chat-rate", "0.001", "--chat-burst", str(BURST))).start()
    yield s
    s.stop()
    assert_clean_log(logs)


def two_players(srv) -> tuple[str, str, str]:
    """A duel table of Ann (host, seat 0) and Bob (seat 1): its code and their tokens."""
    out = srv.create(game="abluxxen", variant="duel", name="Ann")
    code = out["table"]["code"]
    bob = srv.join(code, "Bob")
    return code, out["join"]["token"], bob["token"]


def chats(c: Client, channel: str | None = None) -> list[dict]:
    """The chat rows a client got, live and in its chat_log, once each, in order."""
    rows = {}
    for m in c.messages:
        for r in m["messages"] if m["type"] == "chat_log" else [m] if m["type"] == "chat" else []:
            rows[r["seq"]] = r
    return [r for _, r in sorted(rows.items()) if channel is None or r["channel"] == channel]


async def said(c: Client, text: str, start: int = 0) -> dict:
    return await c.wait_for(lambda m: m["type"] == "chat" and m["text"] == text, start=start)


async def refused(c: Client, msg: dict) -> dict:
    return await c.reply(msg, kinds=("error",))


async def joined(*clients: Client) -> None:
    """Wait until the server has taken each client in: its chat_log comes after it is attached
    to the table, so every row stored from then on reaches it live (not only in a chat_log)."""
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "chat_log")


def test_chat_between_two_seats(srv):
    """Ann's message reaches Bob (and a spectator) with her seat, name, a sequence number and
    the time; Bob's reaction reaches Ann; a client that connects later gets both in its
    chat_log."""
    async def main():
        code, ta, tb = two_players(srv)
        ann = await Client(srv.ws_base, code, ta).connect()
        bob = await Client(srv.ws_base, code, tb).connect()
        spec = await Client(srv.ws_base, code).connect()
        for c in (ann, bob, spec):
            await c.wait_for(lambda m: m["type"] == "chat_log")
        await ann.send({"type": "chat", "channel": "table", "text": "Hallo Bob, viel Glück!"})
        got = await said(bob, "Hallo Bob, viel Glück!")
        assert (got["channel"], got["seat"], got["name"], got["kind"]) == ("table", 0, "Ann", "text")
        assert got["spectator"] is None and got["seq"] > 0 and got["at"] > 0
        await said(spec, "Hallo Bob, viel Glück!")                # spectators read the table
        await bob.send({"type": "react", "channel": "table", "code": "gg"})
        r = await ann.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "react")
        assert (r["seat"], r["name"], r["text"]) == (1, "Bob", "gg") and r["seq"] > got["seq"]
        late = await Client(srv.ws_base, code, tb).connect()       # Bob's second device
        log = await late.wait_for(lambda m: m["type"] == "chat_log")
        assert [(x["seat"], x["kind"], x["text"]) for x in log["messages"]] == [
            (0, "text", "Hallo Bob, viel Glück!"), (1, "react", "gg")]
        assert log["off"] is False and log["spectator"] is None
        for c in (ann, bob, spec, late):
            await c.close()
    run(main())


def test_spectator_chat_does_not_reach_the_seats(srv):
    """The spectators talk among themselves; no seat gets a word of it during the game (live
    or in a chat_log); nobody posts in the other channel; a game played to its end (Ann and a
    bot) has both channels in its chat, and no line of the bot."""
    async def main():
        out = srv.create(game="abluxxen", variant="duel", name="Ann",
                         seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        code, ta = out["table"]["code"], out["join"]["token"]
        ann = await Client(srv.ws_base, code, ta).connect()
        s1 = await Client(srv.ws_base, code).connect()
        s2 = await Client(srv.ws_base, code).connect()
        l1 = await s1.wait_for(lambda m: m["type"] == "chat_log")
        l2 = await s2.wait_for(lambda m: m["type"] == "chat_log")
        assert l1["spectator"] != l2["spectator"] and None not in (l1["spectator"], l2["spectator"])
        await s1.send({"type": "chat", "channel": "spectators", "text": "Ann has two sevens"})
        got = await said(s2, "Ann has two sevens")
        assert (got["channel"], got["seat"], got["spectator"]) == ("spectators", None, l1["spectator"])
        err = await refused(s1, {"type": "chat", "channel": "table", "text": "psst, Ann"})
        assert err["code"] == "wrong_channel"
        err = await refused(s1, {"type": "react", "channel": "table", "code": "wow"})
        assert err["code"] == "wrong_channel"
        err = await refused(ann, {"type": "chat", "channel": "spectators", "text": "hi all"})
        assert err["code"] == "wrong_channel"
        # a marker after the spectators' line: once Ann has it, she would have had theirs
        await ann.send({"type": "chat", "channel": "table", "text": "my marker"})
        await said(ann, "my marker")
        assert [r["text"] for r in chats(ann)] == ["my marker"]
        again = await Client(srv.ws_base, code, ta).connect()
        log = await again.wait_for(lambda m: m["type"] == "chat_log")
        assert [r["text"] for r in log["messages"]] == ["my marker"]
        assert srv.get(f"/api/tables/{code}/chat").status_code == 409    # not during the game
        await play(again, "abluxxen", random.Random(3))       # a fresh client: no errors
        await again.close()
        r = srv.get(f"/api/tables/{code}/chat")
        assert r.status_code == 200, r.text
        rows = r.json()["messages"]
        assert [(x["channel"], x["text"]) for x in rows] == [
            ("spectators", "Ann has two sevens"), ("table", "my marker")]
        assert all(x["seat"] != 1 for x in rows)                     # bots do not chat
        # after the end a player's chat_log holds both
        last = await Client(srv.ws_base, code, ta).connect()
        log = await last.wait_for(lambda m: m["type"] == "chat_log")
        assert [x["text"] for x in log["messages"]] == ["Ann has two sevens", "my marker"]
        for c in (ann, s1, s2, last):
            await c.close()
    run(main())


def test_rate_limits_per_seat_and_per_spectator(srv):
    """A seat has BURST messages at once, shared by its connections; beyond that its messages
    are refused (chat_rate_limited) and reach nobody, while the other seat still talks. A
    spectator has BURST of its own; the spectators behind one address 2 * BURST together."""
    async def main():
        code, ta, tb = two_players(srv)
        ann = await Client(srv.ws_base, code, ta).connect()
        ann2 = await Client(srv.ws_base, code, ta).connect()        # Ann's second tab
        bob = await Client(srv.ws_base, code, tb).connect()
        await joined(ann, ann2, bob)
        for i in range(BURST - 1):
            await ann.send({"type": "chat", "channel": "table", "text": f"a{i}"})
            await said(bob, f"a{i}")
        await ann2.send({"type": "react", "channel": "table", "code": "wow"})
        await bob.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "react")
        for c, msg in ((ann, {"type": "chat", "channel": "table", "text": "one more"}),
                       (ann2, {"type": "react", "channel": "table", "code": "oops"})):
            err = await refused(c, msg)
            assert err["code"] == "chat_rate_limited" and "at most 3" in err["message"]
        await bob.send({"type": "chat", "channel": "table", "text": "Bob's own budget"})
        await said(ann, "Bob's own budget")
        await said(bob, "Bob's own budget")
        assert [r["text"] for r in chats(bob)] == ["a0", "a1", "wow", "Bob's own budget"]
        specs = [await Client(srv.ws_base, code).connect() for _ in range(3)]
        for k, s in enumerate(specs[:2]):
            for i in range(BURST):
                await s.send({"type": "chat", "channel": "spectators", "text": f"s{k}.{i}"})
                await said(s, f"s{k}.{i}")
            err = await refused(s, {"type": "chat", "channel": "spectators", "text": "more"})
            assert err["code"] == "chat_rate_limited"
        # the third spectator on the same address: the address's budget is used up
        err = await refused(specs[2], {"type": "chat", "channel": "spectators", "text": "me?"})
        assert err["code"] == "chat_rate_limited"
        assert not any(r["text"] in ("more", "me?", "one more") for r in chats(specs[2]))
        for c in (ann, ann2, bob, *specs):
            await c.close()
    run(main())


def test_text_only_and_bad_input(srv):
    """HTML is kept as the characters typed (the browser shows it as text); control and bidi
    characters go, line breaks become spaces; too long, empty, unknown channels and reaction
    codes, and huge messages are refused with their own errors and store nothing."""
    async def main():
        code, ta, tb = two_players(srv)
        ann = await Client(srv.ws_base, code, ta).connect()
        bob = await Client(srv.ws_base, code, tb).connect()
        await joined(ann, bob)
        html = '<b>hi</b><img src=x onerror="alert(1)"> https://example.org/?a=1&b=2'
        await ann.send({"type": "chat", "channel": "table", "text": html})
        assert (await said(bob, html))["text"] == html
        await ann.send({"type": "chat", "channel": "table",
                        "text": "a\u0000b\u202ec\r\nd\t e \u200b👩\u200d👩\u200d👧"})
        await said(bob, "abc d e 👩\u200d👩\u200d👧")
        for msg, code_ in (
                ({"type": "chat", "channel": "table", "text": "x" * 301}, "chat_too_long"),
                ({"type": "chat", "channel": "table", "text": " \n\u0007 "}, "chat_empty"),
                ({"type": "chat", "channel": "all", "text": "hi"}, "bad_message"),
                ({"type": "chat", "channel": "table", "text": "y" * 1201}, "bad_message"),
                ({"type": "chat", "channel": "table", "text": "z" * 5000}, "too_large"),
                ({"type": "chat", "channel": "table", "text": 5}, "bad_message"),
                ({"type": "chat", "channel": "table", "text": "hi", "html": True}, "bad_message"),
                ({"type": "react", "channel": "table", "code": "<b>"}, "bad_message"),
                ({"type": "chat_mode", "off": "yes"}, "bad_message")):
            err = await refused(ann, msg)
            assert err["code"] == code_, (msg, err)
        await ann.send({"type": "chat", "channel": "table", "text": "x" * 300})    # the limit
        await said(bob, "x" * 300)
        assert len(chats(bob)) == 3
        for c in (ann, bob):
            await c.close()
    run(main())


def test_host_turns_chat_off(srv):
    """Only the host switches the chat; while it is off nobody's text or reaction is taken
    (players and spectators), a client that connects learns it in its chat_log; on again,
    talk goes on. Each switch is a row of the chat."""
    async def main():
        code, ta, tb = two_players(srv)
        ann = await Client(srv.ws_base, code, ta).connect()
        bob = await Client(srv.ws_base, code, tb).connect()
        spec = await Client(srv.ws_base, code).connect()
        for c in (bob, spec):
            err = await refused(c, {"type": "chat_mode", "off": True})
            assert err["code"] == "not_host"
        await ann.send({"type": "chat_mode", "off": True})
        for c in (ann, bob, spec):
            m = await c.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "off")
            assert m["seat"] == 0 and m["text"] is None
        for c, msg in ((bob, {"type": "chat", "channel": "table", "text": "hello?"}),
                       (bob, {"type": "react", "channel": "table", "code": "hello"}),
                       (ann, {"type": "chat", "channel": "table", "text": "me neither"}),
                       (spec, {"type": "chat", "channel": "spectators", "text": "us?"})):
            assert (await refused(c, msg))["code"] == "chat_off"
        late = await Client(srv.ws_base, code).connect()
        assert (await late.wait_for(lambda m: m["type"] == "chat_log"))["off"] is True
        await ann.send({"type": "chat_mode", "off": False})
        await bob.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "on")
        await bob.send({"type": "chat", "channel": "table", "text": "back on"})
        await said(ann, "back on")
        assert [r["kind"] for r in chats(ann)] == ["off", "on", "text"]
        for c in (ann, bob, spec, late):
            await c.close()
    run(main())


def test_chat_across_two_processes(request, tmp_path, logs):
    """PostgreSQL, two server processes: Ann's words through one reach Bob on the other
    (NOTIFY), and the host's switch holds on both."""
    url = database_url("postgresql", request, tmp_path)

    async def main():
        a_srv = ServerProc(url, log_dir=logs).start()
        b_srv = ServerProc(url, log_dir=logs).start()
        try:
            code, ta, tb = two_players(a_srv)
            ann = await Client(a_srv.ws_base, code, ta).connect()
            bob = await Client(b_srv.ws_base, code, tb).connect()
            await bob.wait_for(lambda m: m["type"] == "chat_log")
            await ann.send({"type": "chat", "channel": "table", "text": "from process A"})
            got = await said(bob, "from process A")
            assert got["name"] == "Ann"
            await bob.send({"type": "react", "channel": "table", "code": "thanks"})
            await ann.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "react")
            await ann.send({"type": "chat_mode", "off": True})
            await bob.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "off")
            err = await refused(bob, {"type": "chat", "channel": "table", "text": "B?"})
            assert err["code"] == "chat_off"
            assert len([m for m in bob.messages if m["type"] == "chat"]) == 3   # once each
            await ann.close()
            await bob.close()
        finally:
            a_srv.stop()
            b_srv.stop()
        assert_clean_log(logs)
    run(main())
