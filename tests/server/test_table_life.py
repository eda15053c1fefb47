"""What the server adds around the games for the players at a table (docs/protocol.md):
Kombio's round break (the next round waits for the players' `ready`, or a pause, or its time
limit), presence (`online` per seat), the token sent in an `auth` message instead of the URL,
and the waiting room (the host turns free seats into bots and back, or cancels the table)."""

from __future__ import annotations

import asyncio
import json
import pytest
import websockets
from helpers import Client, ServerProc
from helpers import run_async as run


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("life")
    s = ServerProc(str(tmp / "life.db"), log_dir=tmp,
                   args=("--round-break", "30", "--round-pause", "0.3")).start()
    yield s
    s.stop()


def kombio_with_ann(srv, **extra) -> tuple[str, str]:
    out = srv.create(game="kombio", players=2, target=500, name="Ann",
                     seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}], **extra)
    return out["table"]["code"], out["join"]["token"]


async def play_until_break(c: Client) -> dict:
    """Ann calls Kombio at her first turn and passes every snap window: the round ends after
    the bot's one more turn (KO-12); returns the first state of the break."""
    done: set = set()
    while True:
        st = await c.wait_for(lambda m: m["type"] == "state" and (
            m.get("round_break") or (m["legal"] and (m["index"], bool(m["window"])) not in done)),
            timeout=20, start=max(0, len(c.messages) - 1))
        if st.get("round_break"):
            return st
        done.add((st["index"], bool(st["window"])))
        legal = st["legal"]
        text = "kombio" if "kombio" in legal else "pass" if "pass" in legal else legal[0]
        await c.send({"type": "decide", "decision": text, "index": st["index"]})


def test_kombio_round_break_waits_for_ready(srv):
    """KO-15: after a round everybody sees its summary; the next round's decisions wait until
    the connected player is ready, and bots do not play meanwhile."""
    async def main():
        code, token = kombio_with_ann(srv)
        ann = await Client(srv.ws_base, code, token).connect()
        spec = await Client(srv.ws_base, code).connect()          # a spectator: never waited for
        st = await play_until_break(ann)
        view = st["view"]
        assert view["round"] == 2 and view["last_round"]["round"] == 1
        assert st["legal"] == [] and not st["your_turn"]
        assert st["round_break"]["waiting"] == [0] and st["round_break"]["ready"] == []
        assert st["waiting_for"] == [0]
        assert st["round_break"]["until"] > st["server_time"] + 20     # the 30 s limit
        # nobody decides during the break: the new round's first decision is refused
        err = await ann.reply({"type": "decide", "decision": "draw", "index": st["index"]},
                              kinds=("error", "ack"))
        assert err["type"] == "error" and err["code"] == "round_break"
        sp = await spec.wait_for(lambda m: m["type"] == "state" and m.get("round_break"))
        assert sp["round_break"]["waiting"] == [0]
        err = await spec.reply({"type": "ready"}, kinds=("error",))
        assert err["code"] == "not_seated"
        index = st["index"]
        assert srv.get(f"/api/tables/{code}").json()["actions"] == index
        # ready: the break ends at once and the round goes on
        n = len(ann.messages)
        await ann.send({"type": "ready"})
        after = await ann.wait_for(lambda m: m["type"] == "state" and not m.get("round_break"),
                                   start=n)
        assert after["index"] == index
        await ann.wait_for(lambda m: m["type"] == "state" and (m["index"] > index or m["legal"]),
                           start=n)
        await ann.close()
        await spec.close()
    run(main())


def test_round_break_ends_by_itself(tmp_path):
    """The break has a time limit (a player who never says ready cannot stall the table); with
    nobody connected (bots, spectators) it is a short pause."""
    srv = ServerProc(str(tmp_path / "b.db"), log_dir=tmp_path,
                     args=("--round-break", "1", "--round-pause", "0.2")).start()
    try:
        async def main():
            code, token = kombio_with_ann(srv)
            ann = await Client(srv.ws_base, code, token).connect()
            st = await play_until_break(ann)
            n = len(ann.messages)
            end = await ann.wait_for(lambda m: m["type"] == "state" and not m.get("round_break"),
                                     timeout=15, start=n)
            assert end["server_time"] >= st["round_break"]["until"] - 0.05
            await ann.close()
            # four bots and a spectator: after the first round a short pause, then round 2
            out = srv.create(game="kombio", players=4, target=1000,
                             seats=[{"kind": "bot", "bot": "easy"}] * 4)
            code = out["table"]["code"]
            spec = await Client(srv.ws_base, code, since=0).connect()
            brk = await spec.wait_for(lambda m: m["type"] == "state" and m.get("round_break"),
                                      timeout=600)
            assert brk["round_break"]["waiting"] == [] and brk["view"]["round"] == 2
            assert brk["round_break"]["until"] <= brk["server_time"] + 0.25     # the pause
            on = await spec.wait_for(lambda m: m["type"] == "state" and m["index"] > brk["index"],
                                     timeout=600)
            assert on["view"]["round"] == 2
            await spec.close()
        run(main())
    finally:
        srv.stop()


def test_presence_and_auth_message(srv):
    """`online` per seat follows the connections; a connection with ?auth=1 takes its seat
    with its first message, and anything else first is refused."""
    async def main():
        out = srv.create(game="abluxxen", players=3, name="Ann",
                         seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
        code, ann_token = out["table"]["code"], out["join"]["token"]
        bob_token = srv.join(code, "Bob")["token"]
        url = f"{srv.ws_base}/ws/{code}?auth=1"
        ann = await websockets.connect(url, proxy=None)
        await ann.send(json.dumps({"type": "auth", "token": ann_token}))
        welcome = json.loads(await ann.recv())
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["role"] == "player"

        async def seats_seen(ws, pred):
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "state" and pred({s["seat"]: s["online"] for s in m["seats"]}):
                    return m

        await seats_seen(ann, lambda on: on[0] and not on[1] and not on[2])
        bob = await websockets.connect(url, proxy=None)
        await bob.send(json.dumps({"type": "auth", "token": bob_token}))
        await seats_seen(ann, lambda on: on[0] and on[1])
        await bob.close()
        await seats_seen(ann, lambda on: on[0] and not on[1])
        await ann.close()
        # a first message that is not auth, and a wrong token
        for first, code_ in (({"type": "ping"}, 4400), ({"type": "auth", "token": "x" * 40}, 4401)):
            ws = await websockets.connect(url, proxy=None)
            await ws.send(json.dumps(first))
            err = json.loads(await ws.recv())
            assert err["type"] == "error"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == code_
    run(main())


def test_waiting_room_host_turns_seats_into_bots_and_cancels(srv):
    """Before the game the host (the creator) may let a bot take a free seat (the game starts
    once none is free) or cancel the table; nobody else may."""
    async def main():
        out = srv.create(game="kombio", players=3, name="Ann", memory=True,
                         seats=[{"kind": "human"}] * 3)
        table = out["table"]
        assert table["host"] == 0 and table["memory"] is True and table["status"] == "waiting"
        code = table["code"]
        bob = srv.join(code, "Bob")
        ann = await Client(srv.ws_base, code, out["join"]["token"]).connect()
        bobc = await Client(srv.ws_base, code, bob["token"]).connect()
        err = await bobc.reply({"type": "seat", "seat": 2, "kind": "bot", "bot": "easy"},
                               kinds=("error",))
        assert err["code"] == "not_host"
        err = await ann.reply({"type": "seat", "seat": 1, "kind": "bot", "bot": "easy"},
                              kinds=("error",))
        assert err["code"] == "bad_seat"                     # Bob sits there
        err = await ann.reply({"type": "seat", "seat": 2, "kind": "bot", "bot": "expert"},
                              kinds=("error",))
        assert err["code"] == "bad_message"                  # a searching bot: not here
        # the last free seat to a bot: the game starts
        await ann.send({"type": "seat", "seat": 2, "kind": "bot", "bot": "easy"})
        st = await bobc.wait_for(lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "bot")
        assert st["status"] == "playing"
        assert srv.get(f"/api/tables/{code}").json()["seats"][2]["bot"] == "easy"
        await ann.close()
        await bobc.close()
        # a second table, cancelled by its host: everybody is told, the table is gone
        out = srv.create(game="abluxxen", players=3, name="Cy", seats=[{"kind": "human"}] * 3)
        code = out["table"]["code"]
        cy = await Client(srv.ws_base, code, out["join"]["token"]).connect()
        spec = await Client(srv.ws_base, code).connect()
        await cy.send({"type": "seat", "seat": 1, "kind": "bot", "bot": "medium"})
        await cy.wait_for(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "bot")
        await cy.send({"type": "seat", "seat": 1, "kind": "human"})
        st = await cy.wait_for(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "human")
        assert st["status"] == "waiting" and not st["seats"][1]["joined"]
        await cy.send({"type": "cancel"})
        gone = await spec.wait_for(lambda m: m["type"] == "cancelled")
        assert gone["table"] == code
        await cy.wait_for(lambda m: m["type"] == "cancelled")
        assert srv.get(f"/api/tables/{code}").status_code == 404
        await cy.close()
        await spec.close()
    run(main())


def test_lobby_lists_running_tables(srv):
    """A public game being played is listed to watch (it waits for Ann, who never moves)."""
    out = srv.create(game="abluxxen", players=3, name="Ann",
                     seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 2)
    code = out["table"]["code"]
    assert out["table"]["status"] == "playing"
    running = srv.get("/api/tables?status=playing&limit=200").json()
    waiting = srv.get("/api/tables?limit=200").json()
    assert code in [t["code"] for t in running]
    assert code not in [t["code"] for t in waiting]
    assert all(t["status"] == "playing" for t in running)
    assert srv.get("/api/tables?status=over").status_code == 422


def test_unknown_page_is_a_page(srv):
    r = srv.get("/no/such/page")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    r = srv.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
