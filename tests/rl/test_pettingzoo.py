"""PettingZoo AEC environments (issue 16): PettingZoo's api_test, seed_test and a pickle round
trip for every configuration; rewards by option; the illegal-action wrapper; ansi rendering."""

from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardtable.core import ConfigError
from cardtable.rl.pettingzoo import env, raw_env


def _play(e, rnd, steps=None):
    n = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rnd.choice(list(legal))))
        n += 1
        if steps is not None and n >= steps:
            return n
    return n


def test_api_and_seed(config):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # dict observations: PettingZoo's classic style
        api_test(env(seed=1, **config), num_cycles=60)
        seed_test(lambda: env(**config), num_cycles=60)


def test_pickle_round_trip(config):
    e = env(seed=4, **config)
    e.reset()
    _play(e, random.Random(0), steps=25)
    twin = pickle.loads(pickle.dumps(e))
    r1, r2 = random.Random(7), random.Random(7)
    for _ in range(40):
        if not e.agents:
            break
        assert e.agent_selection == twin.agent_selection
        o1, o2 = e.last()[0], twin.last()[0]
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        if e.terminations[e.agent_selection]:
            e.step(None)
            twin.step(None)
            continue
        legal = list(np.flatnonzero(o1["action_mask"]))
        e.step(int(r1.choice(legal)))
        twin.step(int(r2.choice(legal)))


@pytest.mark.parametrize("reward", ["score", "win"])
@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_final_rewards(game, reward):
    e = raw_env(game=game, players=3, seed=11, reward=reward, target=60)
    e.reset()
    rnd = random.Random(3)
    total = {a: 0.0 for a in e.possible_agents}
    while not e.game.over:
        e.step(rnd.choice(sorted(e.legal_texts())))
        for a in e.possible_agents:
            total[a] += e.rewards[a]
    state = e.game
    got = [total[a] for a in e.possible_agents]
    if reward == "win":
        w = state.winners()
        assert got == [1 / len(w) if s in w else 0.0 for s in range(3)]
    else:
        sign = -1 if game == "kombio" else 1
        assert got == [sign * x for x in state.scores()]
    assert all(e.terminations.values())


def test_illegal_action_ends_the_game_for_its_agent():
    e = env(game="abluxxen", players=3, seed=2)
    e.reset()
    obs = e.last()[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert e.rewards[agent] == -1 and all(e.terminations.values())


def test_mask_and_info_of_the_agent_to_act():
    e = raw_env(game="kombio", players=4, seed=3)
    e.reset()
    agent = e.agent_selection
    view = e.infos[agent]["view"]
    assert view["seat"] == e.agent_seat[agent] and view["legal"]
    assert sorted(e.legal_texts().values()) == view["legal"]
    for other in e.possible_agents:
        if other != agent:
            assert e.infos[other] == {}
            assert not e.observe(other)["action_mask"].any()


def test_render_ansi_shows_the_table():
    e = raw_env(game="abluxxen", players=3, seed=2, render_mode="ansi", render_seat=1)
    e.reset()
    text = e.render()
    assert isinstance(text, str) and "\x1b[" in text and "Abluxxen" in text


def test_bad_arguments():
    with pytest.raises(ConfigError):
        raw_env(game="abluxxen", variant="duel", players=4)
    with pytest.raises(ConfigError):
        raw_env(game="abluxxen", render_mode="rgb_array")


def test_render_human_prints_the_table(capsys):
    """Issue 35: PettingZoo's convention: render_mode="human" prints the picture (after reset,
    after every step and on render()) and render() returns None."""
    e = env(game="abluxxen", players=3, seed=2, render_mode="human", render_seat=1)
    e.reset()
    first = capsys.readouterr().out
    assert "Abluxxen" in first and "\x1b[" in first
    agent = e.agent_selection
    e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    assert "Abluxxen" in capsys.readouterr().out
    assert e.render() is None and "Abluxxen" in capsys.readouterr().out


def test_state_is_pettingzoos_method():
    """Issue 35: the engine state is `unwrapped.game`; `state` is PettingZoo's global-state
    method again, which this env does not provide (NotImplementedError, not TypeError)."""
    e = env(game="kombio", players=3, seed=1)
    e.reset()
    assert e.unwrapped.game.players == 3 and not e.unwrapped.game.over
    assert callable(e.unwrapped.state)
    with pytest.raises(NotImplementedError):
        e.unwrapped.state()
    with pytest.raises(NotImplementedError):
        e.state()
