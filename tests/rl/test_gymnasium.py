"""Gymnasium environments (issue 16): registered on `import cardtable.rl`, Gymnasium's
check_env for every configuration, bots in the other seats, the mask in `info`, rewards."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardtable.rl  # noqa: F401  (registers the ids)
from cardtable.core import ConfigError
from cardtable.rl.gymnasium import CardtableEnv, env_id


def test_check_env(config):
    env = CardtableEnv(opponents="random", **config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)


@pytest.mark.parametrize("env_id,kw", [
    ("cardtable/Abluxxen-v0", dict(variant="basic", players=4,
                                   opponents=["easy", "medium", "random"])),
    ("cardtable/Kombio-v0", dict(players=3, opponents="easy", target=40)),
])
def test_a_game_against_bots(env_id, kw):
    env = gymnasium.make(env_id, **kw)
    obs, info = env.reset(seed=3)
    env.action_space.seed(3)                 # the sampled actions too: the same game every run
    seat = info["seat"]
    steps = 0
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask, env.unwrapped.action_masks())
        assert info["view"]["to_move"] == seat and info["view"]["seat"] == seat
        legal = info["view"]["legal"]
        decoded = [env.unwrapped._legal[i].text for i in np.flatnonzero(mask)]
        assert set(decoded) <= set(legal) and len(set(decoded)) == len(decoded) > 0
        if env_id.endswith("Abluxxen-v0") or all(
                sum(c is not None for c in g) <= env.unwrapped.codec.K
                for g in env.unwrapped.state.grids):
            assert mask.sum() == len(legal)      # every decision addressable (docs: the cap)
        action = env.action_space.sample(mask)
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated:
            break
        assert reward == 0
    state = env.unwrapped.state
    assert state.over and not truncated
    expected = state.scores()[seat] * (-1 if env_id.endswith("Kombio-v0") else 1)
    assert reward == expected
    assert not info["action_mask"].any()


def test_fixed_seat_and_opponents_in_seat_order():
    env = CardtableEnv(game="abluxxen", players=4, seat=2, opponents=["easy", "random", "hard"])
    env.reset(seed=1)
    assert env.seat == 2
    names = [None if b is None else b.name for b in env._bots]
    assert names == ["random", "pimc", None, "greedy"]        # hard is a pimc search


def test_illegal_action_ends_the_episode():
    env = CardtableEnv(game="abluxxen", players=3)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == -1 and info["illegal_action"]


def test_bad_arguments():
    for kw in (dict(players=4, opponents=["easy", "easy"]), dict(opponents="nobot"),
               dict(players=3, seat=3), dict(variant="nope")):
        with pytest.raises(ConfigError):
            CardtableEnv(game="abluxxen", **kw)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec(config, mode):
    """Gymnasium's own vector API (issue 35), every configuration: the view in `info` is kept
    whole per sub-environment, and episodes end and reset themselves (next-step autoreset)."""
    kw = {k: v for k, v in config.items() if k != "game"}
    envs = gymnasium.make_vec(env_id(config["game"]), num_envs=2, vectorization_mode=mode, **kw)
    try:
        obs, infos = envs.reset(seed=4)
        n = envs.single_action_space.n
        ended = np.zeros(2, bool)
        for _ in range(5000):
            assert obs.shape == (2, *envs.single_observation_space.shape)
            assert infos["action_mask"].shape == (2, n)
            for i in range(2):
                view = infos["view"][i]
                assert view["seat"] == infos["seat"][i]
                if infos["action_mask"][i].any():
                    assert view["to_move"] == view["seat"]
            actions = np.array([np.flatnonzero(m)[0] if m.any() else 0
                                for m in infos["action_mask"]])
            was_ended = ended.copy()
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            ended |= terminated
            if was_ended.all():                      # every env has ended and reset once
                break
        assert was_ended.all()
    finally:
        envs.close()
