"""Issue 30: a third game needs no line in rl, sim or cli. The toy (toygame/__init__.py) is
registered through the same declaration as the built-in games (conftest.py) and runs through
the ONE generic property tester (core/checks.py), records, the tournament, and the research
wrappers: PettingZoo's api_test, Gymnasium's check_env and OpenSpiel's random simulation."""

from __future__ import annotations

import json

import pytest

import toygame
from cardtable.core import registry
from cardtable.core.checks import Stats, playout
from cardtable.core.errors import ConfigError
from cardtable.core.record import GAMES, load_record, new_game, read_record


def _no_leak(state, view, seat):
    other = 1 - seat
    assert view["cards"][seat] == state.cards[seat]
    assert view["cards"][other] == ("?" if not state.over else state.cards[other])
    assert isinstance(view["deck"], int)          # the deck's order is hidden


def _result(state):
    v = state.view(None)
    assert v["scores"] == v["cards"]
    assert v["winners"] == [s for s in (0, 1) if v["cards"][s] == max(v["cards"])]


def test_the_toy_is_a_registered_game():
    assert toygame.NAME in registry.names() and toygame.NAME in GAMES
    assert registry.info(toygame.NAME) is toygame.GAME
    s = new_game(toygame.NAME, seed=3)
    assert s.legal() == ["keep", "swap"]


def test_the_toys_decisions_as_json_are_the_default():
    """A game that names no arguments gets the protocol's default (core/game.py
    decision_json): text and kind, no arguments."""
    s = new_game(toygame.NAME, seed=3)
    assert [s.decision_json(d) for d in s.legal()] == [
        {"text": "keep", "kind": "keep", "args": {}}, {"text": "swap", "kind": "swap", "args": {}}]


def test_the_toy_is_unknown_once_unregistered(toy_registered):
    registry.unregister(toygame.NAME)
    with pytest.raises(ConfigError, match="unknown game 'twocard'"):
        new_game(toygame.NAME, seed=3)
    registry.register(toy_registered)


def test_the_generic_property_tester_plays_the_toy():
    stats = Stats()
    seen: set[str] = set()
    for seed in range(200):
        playout(lambda sd: new_game(toygame.NAME, seed=sd, start=sd % 2), seed, stats=stats,
                no_leak=_no_leak, check_result=_result, seen_texts=seen, deep_every=2)
    assert stats.games == 200 and stats.refusals > 100
    assert stats.hidden_changed > 0.5 * stats.determinizations


def test_a_toy_record_replays_and_its_rules_version_is_checked():
    s = new_game(toygame.NAME, seed=5)
    s.apply("swap")
    s.apply("keep")
    rec = json.loads(json.dumps(s.record()))
    assert load_record(rec).view(None) == s.view(None)
    from cardtable.core.errors import RecordError

    with pytest.raises(RecordError, match="Twocard rules of 1999-01-01"):
        read_record({**rec, "rules_version": "1999-01-01"})


def test_a_tournament_of_the_toy():
    from cardtable.sim.tournament import TournamentConfig, run_tournament

    res = run_tournament(TournamentConfig(game=toygame.NAME, bots=["random", "ismcts"],
                                          games=6, seed=1, jobs=1,
                                          bot_params={"ismcts": {"iterations": 20}}))
    assert len(res.games) == 6 and res.plan.lower_is_better is False
    assert res.plan.ladder == toygame.NAME


def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from cardtable.rl.pettingzoo import env

    api_test(env(game=toygame.NAME, seed=1), num_cycles=30)


def test_gymnasium_check_env():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from cardtable.rl.gymnasium import CardtableEnv, env_id, register

    check_env(CardtableEnv(game=toygame.NAME, opponents="random"))
    register()
    e = gymnasium.make(env_id(toygame.NAME))
    obs, info = e.reset(seed=2)
    assert obs.shape == (toygame.TwoCardCodec.obs_size,) and info["action_mask"].sum() == 2


def test_openspiel_random_simulation():
    pyspiel = pytest.importorskip("pyspiel")
    from cardtable.rl import openspiel

    openspiel.register()
    game = pyspiel.load_game(f"python_cardtable_{toygame.NAME}", {"deals": 64})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
