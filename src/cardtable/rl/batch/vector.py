"""A Gymnasium vector environment on the batched simulator: one learning seat per game, the
other seats compiled players inside the compiled loop (`opponents`: "random" legal players by
default, or a bot level the simulator has compiled, e.g. Abluxxen's "easy"; one for every
seat or a list of one per seat), so a whole vector of games steps in one call. `opponents` may
also be a frozen policy, a callable `f(obs, mask) -> actions`, in the list or for every seat,
or an `OpponentPool` of levels and callables, one drawn per game at each reset from the env's
generator (rl/batch/pool.py: the env then returns to Python where a policy is to move and asks
it for all those games at once).

    from cardtable.rl.batch.vector import BatchVectorEnv
    envs = BatchVectorEnv("abluxxen", num_envs=256, variant="basic", players=4)
    obs, infos = envs.reset(seed=0)        # obs (256, 319); infos["action_mask"] (256, 653)
    while True:
        actions = my_policy(obs, infos["action_mask"])
        obs, rewards, terminated, truncated, infos = envs.step(actions)

It is a `gymnasium.vector.VectorEnv` with next-step autoreset (`metadata["autoreset_mode"]`,
Gymnasium's default): after an episode ends, the env's next `step` ignores its action and
starts a new game (reward 0). The observation, action space, mask (`infos["action_mask"]`, int8)
and rewards are those of the single-game environment `cardtable/<Game>-v0` with
`opponents="random"` (rl/gymnasium.py): the learner's seat is `seat` or, by default, drawn at
every reset (`infos["seat"]`); the reward is 0 until the game ends, then the learner's final
reward (`reward` "score" or "win"); an action outside the mask ends the episode with
`illegal_reward` and `infos["illegal_action"]`; an episode still going after `max_length` learner
steps (default 5000) is truncated with the single env's `truncated_reward` (rl/common.py). `reset(seed=s)` seeds env i from s + i (a list
seeds each env), so a seed replays the same games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.rl import missing_extra

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.core.errors import ConfigError
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.common import set_opponents
from cardtable.rl.batch.pool import (LearnerDriver, OpponentPool,  # noqa: F401
                                     is_compiled_only)
from cardtable.rl.common import MAX_LENGTH, check_max_length


class BatchVectorEnv(VectorEnv):
    """`num_envs` games of one configuration (rl/common.py: variant, players, options,
    reward), one learner seat each, compiled opponents (`opponents`: a level of
    `sim.levels` or one per seat; ConfigError for another); see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str | None = None, num_envs: int = 1, seat: int | None = None,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 max_length: int = MAX_LENGTH, opponents: Any = "random",
                 **config: Any):
        from cardtable.rl.common import default_game

        if render_mode is not None:
            raise ConfigError(f"render_mode {render_mode!r}: the batched environment does not "
                              "render (the single-game environments do)")
        self.sim = make_batch(default_game() if game is None else game, num_envs, **config)
        n = self.sim.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise ConfigError(f"seat must be 0..{n - 1} or None, not {seat!r}")
        self.fixed_seat = seat
        if is_compiled_only(opponents):
            self.opponents = set_opponents(self.sim, opponents)
            self._driver = None
        else:                                   # policies or a pool (rl/batch/pool.py)
            self._driver = LearnerDriver(self.sim, opponents)
            self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.max_length = check_max_length(max_length)
        self.render_mode = None
        self.num_envs = self.sim.num_games
        codec = self.sim.codec
        self.single_observation_space = spaces.Box(codec.obs_low, codec.obs_high,
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(codec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask = np.zeros((self.num_envs, codec.num_actions), np.int8)
        self._started = False

    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        if self._driver is None:
            obs, mask, seats = self.sim.learner_reset(seed, self.fixed_seat, self.max_length)
        else:
            obs, mask, seats = self._driver.reset(seed, self.fixed_seat, self.max_length)
        self._mask = mask
        self._started = True
        return obs, self._infos(mask, seats, None)

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset before step")
        if self._driver is None:
            obs, mask, reward, terminated, illegal, seats = self.sim.learner_step(
                actions, self.illegal_reward)
            truncated = self.sim.truncated.copy()       # max_length (learner_step)
        else:
            obs, mask, reward, terminated, illegal, seats = self._driver.step(
                actions, self.illegal_reward)
            truncated = self._driver.truncated.copy()
        self._mask = mask
        return obs, reward.astype(np.float64), terminated, truncated, \
            self._infos(mask, seats, illegal)

    def _infos(self, mask, seats, illegal) -> dict:
        """Gymnasium's vector infos: each key an array over the envs, "_key" where it is set."""
        every = np.ones(self.num_envs, np.bool_)
        infos = {"action_mask": mask, "_action_mask": every, "seat": seats, "_seat": every}
        if illegal is not None and illegal.any():
            infos["illegal_action"] = illegal
            infos["_illegal_action"] = illegal.copy()
        return infos

    def action_masks(self) -> np.ndarray:
        """The current masks (num_envs x num_actions, int8), as in `infos["action_mask"]`."""
        return self._mask.copy()

    def sample_actions(self) -> np.ndarray:
        """A random legal action per env (0 where the episode has just ended)."""
        if self._driver is not None:                # games may wait at an opponent's seat
            return _sample(self._mask, self._driver.sample_rng)
        return np.maximum(self.sim.sample_actions(), 0)


def _sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random id among each row's legal ones (0 for an empty row)."""
    noise = rng.random(mask.shape) * (mask != 0)
    return noise.argmax(axis=1).astype(np.int64)


def make_vector_env(game: str | None = None, num_envs: int = 1, **kwargs) -> BatchVectorEnv:
    """`BatchVectorEnv(game, num_envs, **kwargs)` (Gymnasium's `make_vec` style name)."""
    return BatchVectorEnv(game, num_envs, **kwargs)

