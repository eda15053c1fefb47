"""Lessons on the game server (server/http/learn.py, docs/api.md "Lessons"): a lesson's
table is private, holds the prepared deal, its bots follow the script, the learner's state
messages carry the step due (with its decision as JSON and its clause) and the step done, a
decision the step does not ask for is refused (`lesson_step`) and changes nothing, and after
the steps the free game runs to its end. Server code names no game: the lessons come from the
games' declarations."""

from __future__ import annotations

import asyncio
import random

import pytest

from cardtable.core.lesson import lessons
from helpers import Client, ServerProc, assert_clean_log, play, run_async

ALL = {x.id: x for x in lessons()}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    d = tmp_path_factory.mktemp("learn")
    s = ServerProc(str(d / "learn.db"), log_dir=d).start()
    yield s
    s.stop()
    assert_clean_log(d)


def test_the_lessons_are_listed_and_described(srv):
    listed = srv.get("/api/lessons").json()
    assert {x["id"] for x in listed} == set(ALL)
    for x in listed:
        les = ALL[x["id"]]
        assert (x["game"], x["name"], x["players"], x["steps"]) == (
            les.game, les.name, les.players, len(les.steps))
        one = srv.get(f"/api/lessons/{x['id']}").json()
        assert [s["decision"]["text"] for s in one["steps"]] == [s.decision for _, s in les.steps]


@pytest.mark.parametrize("path,status", [("/api/lessons/chess.basic", 404),
                                         ("/api/lessons/abluxxen", 422),
                                         ("/api/lessons/ABLUXXEN.basic", 422)])
def test_an_unknown_lesson(srv, path, status):
    r = srv.get(path)
    assert r.status_code == status
    if status == 404:
        assert r.json()["error"] == "lesson"
    r = srv.post(path, {"name": "Ann"})
    assert r.status_code == status
    assert srv.post("/api/lessons/kombio.basic", {"name": ""}).status_code == 422
    assert srv.post("/api/lessons/kombio.basic", {}).status_code == 422


@pytest.mark.parametrize("lid", sorted(ALL))
def test_a_lesson_table_from_the_first_step_to_the_end(srv, lid):
    les = ALL[lid]

    async def main():
        out = srv.post(f"/api/lessons/{lid}", {"name": "Ann"})
        assert out.status_code == 201, out.text
        out = out.json()
        table = out["table"]
        assert table["lesson"] == lid and not table["public"] and table["game"] == les.game
        assert out["join"]["seat"] == les.seat
        me = await Client(srv.ws_base, table["code"], out["join"]["token"], lang="de",
                          since=0).connect()
        taken, refused, acted = [], False, set()
        while True:
            st = await me.wait_for(lambda m: m["type"] == "state" and (
                m["status"] == "over" or (m["legal"] and (m["index"], tuple(m["legal"]))
                                          not in acted) or (m["lesson"] or {}).get("free")),
                start=max(0, len(me.messages) - 1))
            info = st["lesson"]
            assert info is not None and info["id"] == lid and not info["left"], info
            if info["free"] or st["status"] == "over":
                break
            acted.add((st["index"], tuple(st["legal"])))
            step = info["step"]
            assert step is not None, st
            k = len(taken)
            assert step["n"] == k and step["key"] == les.steps[k][1].key
            assert step["clause"] == les.steps[k][1].clause
            if k:
                assert info["done"]["n"] == k - 1
            text = step["decision"]["text"]
            assert text == les.steps[k][1].decision and text in st["legal"]
            if not refused:                       # another legal decision: refused, no change
                other = next(d for d in st["legal"] if d != text)
                err = await me.reply({"type": "decide", "decision": other,
                                      "index": st["index"]}, kinds=("error", "ack"))
                assert err["type"] == "error" and err["code"] == "lesson_step", err
                me.messages.remove(err)           # seen: the free game's player checks errors
                refused = True
            ack = await me.reply({"type": "decide", "decision": text, "index": st["index"]},
                                 kinds=("error", "ack"))
            assert ack["type"] == "ack", ack
            taken.append(text)
        assert taken == [s.decision for _, s in les.steps]
        # the last step done is said until the others have played on; a slow client may get
        # only a later state (the server sends the newest one), which no longer says it
        if info["done"] is not None:
            assert info["done"]["n"] == len(les.steps) - 1
        else:
            assert st["index"] > len(les.script) + les.players, st
        await play(me, les.game, random.Random(3))                 # the free game
        rec = srv.record(table["code"])
        assert rec["actions"][:len(les.script)] == list(les.decisions)
        assert me.last_state()["status"] == "over"
        # the rematch of a lesson is a free game: no lesson, a shuffled deal
        r = srv.post(f"/api/tables/{table['code']}/rematch", {"token": out["join"]["token"]})
        assert r.status_code == 200, r.text
        again = r.json()
        assert again["lesson"] is None and again["code"] != table["code"]
        await me.close()
        new = await Client(srv.ws_base, again["code"], out["join"]["token"], since=0).connect()
        st = await new.wait_for(lambda m: m["type"] == "state")
        assert st["lesson"] is None and st["seat"] == les.seat
        await new.close()

    run_async(asyncio.wait_for(main(), 600))
