"""BatchVectorEnv with frozen policies and pools as opponents (rl/batch/pool.py): a policy's
decisions are the ones applied, an illegal one is refused naming its seat, a pool draws its
members per game from the seeded generator."""

from __future__ import annotations

import numpy as np
import pytest
from policy_fns import TWO_PLAYERS as CONFIGS, counting_pool, hashed, lowest

from cardtable.core.errors import ConfigError
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.pool import OpponentPool
from cardtable.rl.batch.vector import BatchVectorEnv


@pytest.mark.parametrize("kw", CONFIGS, ids=lambda kw: kw["game"])
def test_policy_opponent_plays_the_games(kw):
    """Learner and opponent both play `hashed`: each env's first episode is the simulator's
    game of that seed played so at every seat, score for score."""
    seen = []

    def opponent(obs, mask):
        assert obs.shape[0] == mask.shape[0] > 0 and (mask.sum(axis=1) > 0).all()
        seen.append(len(obs))
        return hashed(obs, mask)

    n = 6
    env = BatchVectorEnv(num_envs=n, seat=0, opponents=opponent, **kw)
    obs, infos = env.reset(seed=11)
    final = np.full(n, np.nan)
    for _ in range(3000):
        obs, rewards, terminated, truncated, infos = env.step(hashed(obs, infos["action_mask"]))
        first = terminated & np.isnan(final)
        final[first] = rewards[first]
        if not np.isnan(final).any():
            break
    assert seen and not np.isnan(final).any()

    kw = dict(kw)
    sim = make_batch(kw.pop("game"), n, **kw)
    sim.reset(seed=11)
    while not sim.over.all():
        live = ~sim.over
        actions = np.zeros(n, np.int64)
        actions[live] = hashed(sim.observe()[live], sim.masks()[live])
        sim.step(actions)
    assert (final == sim.final_rewards()[:, 0]).all()


def test_an_illegal_opponent_action_names_the_seat():
    def bad(obs, mask):
        return np.full(len(obs), -3)

    env = BatchVectorEnv("abluxxen", 4, seat=0, variant="duel", players=2,
                         opponents=[lowest, bad])
    obs, infos = env.reset(seed=1)
    with pytest.raises(ValueError, match="opponent policy bad at seat 1 chose the illegal "
                                         "action -3 in game"):
        for _ in range(50):
            obs, *_, infos = env.step(lowest(obs, infos["action_mask"]))


def _run(seed, steps=120):
    """A pool of two policies (each counting its calls) and "random"; the envs' learners
    sample. Returns (calls per member, every observation, every reward)."""
    calls = {"a": 0, "b": 0}
    pool = counting_pool(calls)
    env = BatchVectorEnv("abluxxen", 8, variant="duel", players=2, opponents=pool)
    obs, infos = env.reset(seed=seed)
    trail, rewards = [obs], []
    for _ in range(steps):
        obs, r, terminated, truncated, infos = env.step(env.sample_actions())
        trail.append(obs)
        rewards.append(r)
    return calls, np.array(trail), np.array(rewards)


def test_a_pool_draws_every_member_and_reproduces():
    calls, trail, rewards = _run(5)
    assert calls["a"] > 0 and calls["b"] > 0
    again = _run(5)
    assert again[0] == calls and (again[1] == trail).all() and (again[2] == rewards).all()
    assert not np.array_equal(_run(6)[1], trail)


def test_members_added_later_play_from_the_next_deals():
    calls = []
    pool = OpponentPool(["random"])
    env = BatchVectorEnv("abluxxen", 4, variant="duel", players=2, opponents=pool)
    obs, infos = env.reset(seed=2)
    pool.add(lambda obs, mask: calls.append(len(obs)) or lowest(obs, mask))
    for _ in range(2000):
        obs, *_, infos = env.step(env.sample_actions())
        if calls:
            break
    assert calls


@pytest.mark.parametrize("opponents, words", [
    (OpponentPool(), "pool is empty"),
    (["hard", lowest], "'hard' is not a level"),
    ([lowest, 3], "3 is neither a level name nor a callable"),
    ([lowest], "a list of 2"),
])
def test_bad_opponents_are_refused(opponents, words):
    with pytest.raises(ConfigError, match=words):
        BatchVectorEnv("abluxxen", 2, variant="duel", players=2, opponents=opponents)


def test_a_pool_holds_levels_and_callables_only():
    with pytest.raises(ConfigError, match="level names and callables"):
        OpponentPool(["easy", 7])
