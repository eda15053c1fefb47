"""GET /api/games gives the games' declarations (core/registry.py) as JSON, and the server reads
them instead of naming games (issue 30): a game registered before the app is made is offered,
validated and set up like the built-in ones, with no line of the server naming it."""

from __future__ import annotations

import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from cardtable.core import registry
from cardtable.server import Settings, create_app
from cardtable.server.protocol import DEFAULT_SNAP_SECONDS
from cardtable.server.guard.security import Limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # tests/: the toy game

import toygame  # noqa: E402


@contextmanager
def lobby():
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/games.db", announce=False, limits=Limits.off(),
            bot_workers=0))) as client:
        yield client


def _option(o: registry.Option) -> dict:
    return {"name": o.name, "type": o.type.__name__, "default": o.default, "doc": o.doc,
            "variants": None if o.variants is None else list(o.variants),
            "min": o.min, "max": o.max,
            "choices": None if o.choices is None else list(o.choices),
            "label": o.label, "clause": o.clause}


def expected(g: registry.GameInfo) -> dict:
    """The declaration of `g` as the JSON should hold it, read field by field."""
    return {
        "name": g.name, "game": g.name, "title": g.title, "rules_version": g.rules_version,
        "rules_versions": list(g.rules_versions), "lower_is_better": g.lower_is_better,
        "browser": f"/games/{g.name}/{g.name}.js" if g.web else g.browser,
        "default_variant": g.variants[0].name,
        "variants": [v.name for v in g.variants],
        "players": {v.name: [v.min_players, v.max_players] for v in g.variants},
        "options": [o.name for o in g.options],
        "rule_sets": [{"name": v.name, "min_players": v.min_players,
                       "max_players": v.max_players, "default_players": v.default_players,
                       "options": {o.name: dict(v.defaults).get(o.name, o.default)
                                   for o in g.options
                                   if o.variants is None or v.name in o.variants}}
                      for v in g.variants],
        "rule_options": [_option(o) for o in g.options],
        "settings": [_option(o) for o in g.settings],
        "table_settings": [_option(o) for o in g.table_settings],
    }


def test_the_games_json_is_the_registry():
    with lobby() as c:
        out = c.get("/api/games").json()
    assert [g["name"] for g in out] == [g.name for g in registry.games()]
    for got, g in zip(out, registry.games()):
        assert {k: got[k] for k in expected(g)} == expected(g)
        assert got["defaults"] == {r["name"]: r["options"] for r in got["rule_sets"]}
        assert got["levels"] == ["easy", "medium", "hard", "expert"]
        assert "random" in got["bots"] and not set(got["levels"]) & set(got["bots"])
    # what the lobby offered before the declarations: unchanged
    ab = next(g for g in out if not g["lower_is_better"])
    assert ab["players"]["duel"] == [2, 2] and ab["defaults"]["expert"]["ones_beat_top"] is True
    assert "shadow_partial" in ab["defaults"]["duel"] and \
        "shadow_partial" not in ab["defaults"]["basic"]
    ko = next(g for g in out if g["table_settings"])
    snap = next(o for o in ko["table_settings"] if o["name"] == "snap_seconds")
    assert snap["default"] == DEFAULT_SNAP_SECONDS          # the server's default for old tables
    assert ko["settings"][0]["name"] == "target" and ko["settings"][0]["default"] == 100


def test_a_registered_game_is_offered_and_set_up_by_the_server():
    """The toy game, registered before the app is made: listed with its declaration, a table
    of it is created with the declared defaults (one rule set: no variant; two players), and
    the settings it does not declare are refused or left out as for the built-in games."""
    registry.register(toygame.GAME)
    try:
        with lobby() as c:
            out = {g["name"]: g for g in c.get("/api/games").json()}
            assert toygame.NAME in out
            assert {k: out[toygame.NAME][k] for k in expected(toygame.GAME)} == \
                expected(toygame.GAME)
            r = c.post("/api/tables", json={"game": toygame.NAME, "name": "Ann",
                                            "snap_seconds": 3, "memory": True})
            assert r.status_code == 201, r.text
            t = r.json()["table"]
            assert (t["game"], t["variant"], t["players"], t["target"], t["snap_seconds"],
                    t["memory"]) == (toygame.NAME, None, 2, None, None, False)
            assert c.get(f"/api/tables?game={toygame.NAME}").json()[0]["code"] == t["code"]
            for body, error, field in (({"players": 3}, "bad_players", "players"),
                                       ({"target": 50}, "settings", "target"),
                                       ({"variant": "duel"}, "settings", None)):
                r = c.post("/api/tables", json=dict(body, game=toygame.NAME))
                assert (r.status_code, r.json()["error"]) == (422, error), r.text
                assert r.json()["params"].get("field") == field
    finally:
        registry.unregister(toygame.NAME)


def test_an_unknown_game_is_refused_where_a_game_is_named():
    with lobby() as c:
        r = c.post("/api/tables", json={"game": toygame.NAME, "name": "Ann"})
        assert (r.status_code, r.json()["error"], r.json()["params"]) == \
            (422, "invalid", {"field": "game"}), r.text
        r = c.get(f"/api/tables?game={toygame.NAME}")
        assert (r.status_code, r.json()["error"], r.json()["params"]) == \
            (422, "invalid", {"field": "game"}), r.text
        r = c.post("/api/replay", json={"record": {"game": toygame.NAME}})
        assert (r.status_code, r.json()["error"], r.json()["params"]) == \
            (422, "invalid", {"field": "game"}), r.text
        assert c.get("/api/tables?game=kombio").status_code == 200


#: a fresh interpreter: a game titled "Higher or Lower" (the toy, retitled, with its codec) is
#: registered, then every game's table is created and the games are listed; the research API
#: must not have been imported on the way
_TITLED = """
import dataclasses, json, sys, tempfile
from fastapi.testclient import TestClient
import toygame
from cardtable.core import registry
from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits
registry.register(dataclasses.replace(toygame.GAME, title="Higher or Lower"))
with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
        database=f"{d}/games.db", announce=False, limits=Limits.off(), bot_workers=0))) as c:
    codes = [c.post("/api/tables", json={"game": g.name, "name": "Ann"}).status_code
             for g in registry.games()]
    listed = c.get("/api/games").status_code
    ppo = [g["name"] for g in c.get("/api/games").json() if "ppo" in g["bots"]]
print(json.dumps({"codes": codes, "listed": listed, "ppo": ppo,
                  "rl": sorted(m for m in sys.modules if m.startswith("cardtable.rl"))}))
"""


def test_a_title_with_spaces_breaks_no_table_and_the_server_imports_no_research_api():
    """The Gymnasium id was made of the title and the server imported the research API when it
    listed the bots, so a game titled "Higher or Lower" made every POST /api/tables a 500. Now
    every game's table is created, the trained bots are still offered where they play, and
    `cardtable.rl` is not imported by the server at all."""
    import json
    import os
    import subprocess

    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests.parent / "src"), str(tests)])}
    proc = subprocess.run([sys.executable, "-c", _TITLED], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["codes"] == [201] * len(out["codes"]) and len(out["codes"]) >= 3
    assert out["listed"] == 200
    assert out["rl"] == [] and "abluxxen" in out["ppo"]
