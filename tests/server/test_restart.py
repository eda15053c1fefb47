"""kill -9 of the server in the middle of games, a restart on the same database: every game goes
on exactly where it was (nothing lost, nothing doubled), clients reconnect with their tokens,
bots play again. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random

import pytest
from helpers import assert_clean_log, Client, Replay, ServerProc, check_messages, event_log, play, run_async


@pytest.mark.parametrize("game", ["kombio", "abluxxen"])
def test_kill9_and_resume(database, logs, game):
    async def main():
        srv = ServerProc(database, log_dir=logs).start()
        if game == "kombio":
            out = srv.create(game="kombio", players=3, target=40, snap_seconds=0.4, seats=[
                {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        else:
            out = srv.create(game="abluxxen", variant="basic", players=3, seats=[
                {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        code = out["table"]["code"]
        tokens = [srv.join(code, "Ann")["token"], srv.join(code, "Bob")["token"]]
        cl = [await Client(srv.ws_base, code, tokens[i], since=0).connect() for i in (0, 1)]
        spec = await Client(srv.ws_base, code, since=0).connect()

        def far():
            st = cl[0].last_state()
            return st is not None and st["index"] >= 30

        await asyncio.gather(play(cl[0], game, random.Random(1), stop=far, call_after=60),
                             play(cl[1], game, random.Random(2), stop=far, call_after=60))
        # a decision in flight, then kill -9 while bots and clients are busy
        st = cl[1].last_state()
        if st["legal"]:
            await cl[1].send({"type": "decide", "decision": st["legal"][0], "index": st["index"]})
        srv.kill9()
        for c in cl + [spec]:
            await c.close()
        seen: dict = {}
        for c in cl + [spec]:
            for i, d in event_log(c).items():
                assert seen.setdefault(i, d) == d
        assert len(seen) >= 20
        acks = [m for c in cl for m in c.messages if m["type"] == "ack" and not m["pending"]]

        srv2 = ServerProc(database, port=srv.port, log_dir=logs).start()
        try:
            cl2 = [await Client(srv2.ws_base, code, tokens[i], since=0).connect()
                   for i in (0, 1)]
            spec2 = await Client(srv2.ws_base, code, since=0).connect()
            w = await cl2[0].wait_for(lambda m: m["type"] == "welcome")
            assert w["seat"] == 0 and w["name"] == "Ann"
            first = await cl2[0].wait_for(lambda m: m["type"] == "state")
            assert first["index"] >= max(seen) + 1                  # nothing lost
            await asyncio.gather(play(cl2[0], game, random.Random(3), timeout=600),
                                 play(cl2[1], game, random.Random(4), timeout=600))
            await spec2.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
            rec = srv2.record(code)
            rp = Replay(rec)
            assert rp.states[-1].over
            # the record is identical up to the kill, and holds every acknowledged decision
            assert all(rec["actions"][i] == d for i, d in seen.items())
            for ack in acks:
                assert ack["decision"] in rec["actions"][:ack["index"]]
            # the reconnected clients got the whole game again, in order, and only their part
            assert event_log(spec2) == dict(enumerate(rec["actions"]))
            seats = srv2.get(f"/api/tables/{code}").json()["seats"]
            for c, seat in ((cl[0], 0), (cl[1], 1), (spec, None), (cl2[0], 0), (cl2[1], 1),
                            (spec2, None)):
                check_messages(c, seat, rp, seats)
            for c in cl2 + [spec2]:
                await c.close()
        finally:
            srv2.stop()
        assert_clean_log(logs)

    run_async(main())
