"""A game cut at `max_length` in every research API: truncated (not terminated), and every seat
gets the worst reward a finished game can give (rl/common.py `truncated_reward`: "score"
Abluxxen -109, Kombio -(target + 500); "win" 0), so stalling never pays more than finishing.
Gymnasium counts the learner's steps, PettingZoo every player action. The batched environments
agree with the single-game ones."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import cardtable.rl  # noqa: F401  (registers the ids)
from cardtable.core.errors import ConfigError
from cardtable.rl.batch.parallel import BatchParallelEnv, parallel_env
from cardtable.rl.batch.vector import BatchVectorEnv
from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.pettingzoo import env as aec_env

# (game, configuration, reward, the documented reward of a cut game)
CASES = [("abluxxen", {"variant": "basic", "players": 3}, "score", -109.0),
         ("kombio", {"players": 3, "target": 60}, "score", -560.0),
         ("kombio", {"players": 2}, "win", 0.0)]
IDS = ["abluxxen-score", "kombio-score", "kombio-win"]
LENGTH = 4


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return np.argmax(mask, axis=-1)


@pytest.mark.parametrize("game, kw, reward, cut", CASES, ids=IDS)
def test_gymnasium_single_env(game, kw, reward, cut):
    env = CardtableEnv(game, reward=reward, max_length=LENGTH, seat=0, **kw)
    _, info = env.reset(seed=3)
    for step in range(1, LENGTH + 1):
        _, r, terminated, truncated, info = env.step(int(_first_legal(info["action_mask"])))
        assert not terminated
        assert truncated == (step == LENGTH)
        assert r == (cut if step == LENGTH else 0.0)
    assert not info["action_mask"].any()
    env.reset(seed=4)                                     # a new episode counts from 0
    assert env.steps == 0


@pytest.mark.parametrize("mode", [None, "sync"], ids=["batched", "sync"])
@pytest.mark.parametrize("game, kw, reward, cut", CASES, ids=IDS)
def test_gymnasium_vector_env(game, kw, reward, cut, mode):
    """The batched vector environment (the Batch id's default) and Gymnasium's own SyncVectorEnv
    of the single env behind the same id truncate alike, then start a new game."""
    extra = {} if mode is None else {"vectorization_mode": mode}
    name = f"cardtable/{game.capitalize()}Batch-v0"
    envs = gymnasium.make_vec(name, num_envs=3, reward=reward, max_length=LENGTH, **extra, **kw)
    _, infos = envs.reset(seed=5)
    for step in range(1, LENGTH + 1):
        _, r, terminated, truncated, infos = envs.step(_first_legal(infos["action_mask"]))
        assert not terminated.any()
        assert truncated.all() == (step == LENGTH) and truncated.any() == (step == LENGTH)
        assert (r == (cut if step == LENGTH else 0.0)).all()
    if mode is None:
        assert isinstance(envs, BatchVectorEnv) and not infos["action_mask"].any()
    _, r, terminated, truncated, infos = envs.step(np.zeros(3, np.int64))   # next-step reset
    assert not truncated.any() and not terminated.any() and (r == 0).all()
    assert infos["action_mask"].any(axis=1).all()
    _, r, terminated, truncated, _ = envs.step(_first_legal(infos["action_mask"]))
    assert not truncated.any()                            # the new episode counts from 0
    envs.close()


@pytest.mark.parametrize("game, kw, reward, cut", CASES, ids=IDS)
def test_pettingzoo_aec(game, kw, reward, cut):
    env = aec_env(game=game, reward=reward, max_length=LENGTH, seed=2, **kw)
    env.reset()
    actions = 0
    ends = {}
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ends[agent] = (terminated, truncated, r)
            env.step(None)
            continue
        assert actions < LENGTH
        env.step(int(_first_legal(obs["action_mask"])))
        actions += 1
    assert actions == LENGTH
    assert ends == {a: (False, True, cut) for a in env.possible_agents}


@pytest.mark.parametrize("game, kw, reward, cut", CASES, ids=IDS)
def test_pettingzoo_parallel(game, kw, reward, cut):
    env = parallel_env(game, seed=1, reward=reward, max_length=LENGTH, **kw)
    obs, _ = env.reset()
    for step in range(1, LENGTH + 1):
        actions = {a: int(_first_legal(o["action_mask"])) for a, o in obs.items()}
        obs, r, terms, truncs, _ = env.step(actions)
        assert not any(terms.values())
        assert set(truncs.values()) == {step == LENGTH}
        assert set(r.values()) == {cut if step == LENGTH else 0.0}
    assert env.agents == []


@pytest.mark.parametrize("game, kw, reward, cut", CASES, ids=IDS)
def test_batched_parallel(game, kw, reward, cut):
    env = BatchParallelEnv(game, 3, reward=reward, max_length=LENGTH, **kw)
    obs, _ = env.reset(seed=8)
    for step in range(1, LENGTH + 2):
        actions = {a: _first_legal(o["action_mask"]) for a, o in obs.items()}
        obs, r, terms, truncs, _ = env.step(actions)
        for a in env.possible_agents:
            assert not terms[a].any()
            assert (truncs[a] == (step == LENGTH)).all()
            assert (r[a] == (cut if step == LENGTH else 0.0)).all()
        if step == LENGTH:
            assert not any(o["action_mask"].any() for o in obs.values())
    assert sum(o["action_mask"].any(axis=1) for o in obs.values()).tolist() == [1, 1, 1]


@pytest.mark.parametrize("bad", [0, -3, 2.5, "5", True])
def test_a_bad_max_length_is_refused(bad):
    for make in (lambda: CardtableEnv("kombio", max_length=bad),
                 lambda: aec_env(game="kombio", max_length=bad),
                 lambda: parallel_env("kombio", max_length=bad),
                 lambda: BatchParallelEnv("kombio", 2, max_length=bad),
                 lambda: BatchVectorEnv("kombio", 2, max_length=bad)):
        with pytest.raises(ConfigError, match="max_length"):
            make()
