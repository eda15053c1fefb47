"""A game is a plugin: the example game of docs/adding-a-game.md, `examples/higher-lower`, is
installed as its own package (pip, into a folder of its own, so the project's environment is
not touched) and found through its entry point in the group `cardtable.games`; it plays in the
terminal (`cardtable play`), on the game server (a table created and played over the HTTP API
and the WebSocket) and through the generic checks every game passes, with no file outside its
folder naming it. The steps are the page's "Check it" section."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.core import registry

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "higher-lower"
NAME = "higher_lower"


@pytest.fixture(scope="module")
def target(tmp_path_factory) -> Path:
    """The example installed by pip into a folder of its own (its wheel built from its
    pyproject.toml): the package and its .dist-info with the entry point."""
    where = tmp_path_factory.mktemp("plugin")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--disable-pip-version-check", "--target", str(where), str(EXAMPLE)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert list(where.glob("cardtable_higher_lower-*.dist-info/entry_points.txt"))
    return where


@pytest.fixture
def installed(target, monkeypatch):
    """The installed folder on sys.path and the registry looking again: the game is found
    through its entry point (nothing registers it by hand). Dropped afterwards."""
    monkeypatch.syspath_prepend(str(target))
    try:
        yield registry.discover()
    finally:
        registry.unregister(NAME)
        for mod in [m for m in sys.modules if m.startswith("cardtable_higher_lower")]:
            del sys.modules[mod]


def _env(target: Path) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(target)]),
            "LANG": "C.UTF-8"}


def test_the_installed_game_is_found_through_its_entry_point(installed):
    names = [g.name for g in installed]
    assert names[:2] == ["abluxxen", "kombio"] and names[-1] == NAME
    g = registry.info(NAME)
    assert g.title == "Higher or Lower" and g.engine == "cardtable_higher_lower"
    from cardtable.i18n import t

    assert t("de", f"game.{NAME}") == "Höher oder Tiefer"        # its own catalog, joined


def _no_leak(state, view, seat):
    """A seat sees the deck's size, never its order."""
    assert isinstance(view["deck"], int)


def _result(state):
    """HL-4: the most points win."""
    points = state.view()["points"]
    assert state.winners() == [s for s in range(state.players) if points[s] == max(points)]


def test_it_passes_the_checks_every_game_passes(installed):
    """The generic property checker (core/checks.py), random games through the protocol:
    refusals, copies, determinizations, the record's replay."""
    from cardtable.core.checks import Stats, playout
    from cardtable.core.record import new_game

    stats, seen = Stats(), set()
    for seed in range(60):
        playout(lambda s: new_game(NAME, players=2 + s % 3, seed=s, start=s % 2,
                                   turns=1 + s % 5), seed, stats=stats, no_leak=_no_leak,
                check_result=_result, seen_texts=seen, deep_every=2)
    assert stats.games == 60 and stats.refusals > 60
    assert stats.hidden_changed > 0


def test_a_tournament_of_bots_plays_it(installed):
    from cardtable.sim.tournament import TournamentConfig, run_tournament

    res = run_tournament(TournamentConfig(game=NAME, bots=["greedy", "ismcts", "random"],
                                          games=6, seed=1, jobs=1,
                                          bot_params={"ismcts": {"iterations": 20}}))
    assert len(res.games) == 6 and res.plan.lower_is_better is False


def test_it_plays_in_the_terminal(target, tmp_path):
    """`cardtable play higher_lower` in a fresh process that finds the game by itself."""
    save = tmp_path / "game.json"
    proc = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "play", NAME, "--seed",
                           "3", "--bots", "random", "--bot-pause", "0", "--save", str(save)],
                          input="higher\n" * 4 + "quit\n", capture_output=True, text=True,
                          env=_env(target), cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "Face up:" in proc.stdout and "Won:" in proc.stdout
    out = subprocess.run([sys.executable, "-c", "import sys; from cardtable.core.record import "
                          "load_record; s = load_record(sys.argv[1]); print(s.over, s.history)",
                          str(save)], capture_output=True, text=True, env=_env(target))
    assert out.stdout.startswith("True ['higher', "), out.stderr


def test_it_plays_on_the_game_server(installed, tmp_path):
    """Offered by GET /api/games with its declared setting; a table with its setting and a
    bot, played to the end over the WebSocket; a bad value of its setting is refused naming
    it; and every game's table is still created."""
    from fastapi.testclient import TestClient

    from cardtable.server import Settings, create_app
    from cardtable.server.guard.security import Limits

    app = create_app(Settings(database=f"{tmp_path}/plugin.db", announce=False,
                              limits=Limits.off(), bot_workers=0))
    with TestClient(app) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()}
        assert games[NAME]["title"] == "Higher or Lower"
        assert [o["name"] for o in games[NAME]["settings"]] == ["turns"]
        assert "greedy" in games[NAME]["bots"]
        r = c.post("/api/tables", json={"game": NAME, "name": "Ann", "turns": 11})
        assert (r.status_code, r.json()["error"], r.json()["params"]["field"]) == \
            (422, "invalid", "turns"), r.text
        for g in games:
            assert c.post("/api/tables", json={"game": g, "name": "Ann"}).status_code == 201
        r = c.post("/api/tables", json={"game": NAME, "name": "Ann", "turns": 2,
                                        "options": {"equal_scores": True},
                                        "seats": [{"kind": "human"},
                                                  {"kind": "bot", "bot": "easy"}]})
        assert r.status_code == 201, r.text
        code, token = r.json()["table"]["code"], r.json()["join"]["token"]
        rng = random.Random(5)
        with c.websocket_connect(f"/ws/{code}?token={token}") as ws:
            while True:
                m = ws.receive_json()
                assert m["type"] != "error", m
                if m["type"] != "state":
                    continue
                if m["status"] == "over":
                    break
                if m["your_turn"]:
                    assert "higher or lower" in m["why"]
                    ws.send_json({"type": "decide", "index": m["index"],
                                  "decision": rng.choice(m["legal"])})
        rec = c.get(f"/api/tables/{code}/record").json()
        assert rec["game"] == NAME and rec["turns"] == 2 and len(rec["actions"]) == 4
        assert rec["options"] == {"equal_scores": True}


def test_no_file_outside_its_folder_names_it():
    """Nothing of cardtable itself (its code, browser client, catalogs, build and scripts)
    names the game: it plays with no edit outside its folder. (The docs and tests that
    describe the plugin contract use it as their example.)"""
    hits = subprocess.run(["git", "grep", "--untracked", "-l", "-i", "-e", NAME,
                           "-e", "higher or lower", "--", "src", "pyproject.toml", "Makefile",
                           "scripts"],
                          cwd=ROOT, capture_output=True, text=True)
    assert hits.returncode in (0, 1), hits.stderr
    assert hits.stdout.split() == []
