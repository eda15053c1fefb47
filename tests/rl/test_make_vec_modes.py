"""`gymnasium.make_vec` of a Batch id in each vectorization mode: "vector_entry_point" (the
default) is the batched vector environment, "sync" and "async" Gymnasium's own vectors of the
single-game environment with random opponents; each builds and steps with the same spaces."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import cardtable.rl  # noqa: F401  (registers the ids)
from cardtable.rl.batch.vector import BatchVectorEnv

MODES = {None: BatchVectorEnv, "vector_entry_point": BatchVectorEnv, "sync": SyncVectorEnv,
         "async": AsyncVectorEnv}


@pytest.mark.parametrize("mode", list(MODES), ids=str)
@pytest.mark.parametrize("game, kw", [("Abluxxen", {"variant": "duel", "players": 2}),
                                      ("Kombio", {"players": 3, "target": 40})])
def test_each_mode_builds_and_steps(mode, game, kw):
    extra = {} if mode is None else {"vectorization_mode": mode}
    envs = gymnasium.make_vec(f"cardtable/{game}Batch-v0", num_envs=2, **extra, **kw)
    try:
        assert isinstance(envs, MODES[mode])
        single = gymnasium.make(f"cardtable/{game}-v0", **kw)
        assert envs.single_action_space == single.action_space
        assert envs.single_observation_space == single.observation_space
        obs, infos = envs.reset(seed=4)
        assert obs.shape == (2, single.observation_space.shape[0])
        for _ in range(3):
            mask = infos["action_mask"]
            assert mask.shape == (2, single.action_space.n) and (mask.sum(axis=1) > 0).all()
            actions = np.array([np.flatnonzero(m)[0] for m in mask])
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert envs.observation_space.contains(obs.astype(np.float32))
    finally:
        envs.close()
