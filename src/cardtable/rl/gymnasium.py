"""Gymnasium environments: one learning seat, every other seat played by a cardtable bot.

    import gymnasium, cardtable.rl                 # importing cardtable.rl registers the ids
    env = gymnasium.make("cardtable/Abluxxen-v0", variant="basic", players=4,
                         opponents=["easy", "medium", "random"])
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

`cardtable/Abluxxen-v0` and `cardtable/Kombio-v0` take the configuration of rl/common.py
(`variant`, `players`, `options`; Kombio `target`, `max_cards`; `reward` "score" or "win"),
`opponents` (a bot name or level per other seat, in seat order after the learner, or one name
for all; default "random"; cardtable.bots), `seat` (the learner's seat; default None: a seat
drawn at every reset, so a policy learns every position) and `max_length` (the learner's steps
in an episode, default 5000: a game still going after its `max_length`-th step is truncated,
`truncated=True`, `terminated=False`, with the reward `truncated_reward`, the worst a finished
game can give: "score" Abluxxen -109, Kombio -(target + 500), "win" 0; rl/common.py).

Observation: the learner's tensor (rl/codec.py, from its own view only); action: a
`Discrete(num_actions)` id. `info` holds `action_mask` (int8, 1 = legal), the learner's JSON
view (`view`: a read-only mapping, rl/common.py `View`; `.data` is the dict) and `seat`;
`action_masks()` returns the mask too (sb3-contrib's MaskablePPO).
Gymnasium's own vector API works, sync and async:
`gymnasium.make_vec("cardtable/Kombio-v0", num_envs=8, vectorization_mode="async", players=4)`
(then `infos["action_mask"]` is (num_envs, num_actions) and `infos["view"][i]` env i's view).
An action outside the mask ends the episode at once with `illegal_reward` (default -1) and
`info["illegal_action"] = True`. Bots act through `cardtable.bots.act`: they see only their own
seat's knowledge. The reward is 0 until the game ends, then the learner's final reward.
"""

from __future__ import annotations

import copy
import random
from functools import partial
from typing import Any

import numpy as np

from cardtable.rl import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.bots.base import act, make_bot
from cardtable.core.errors import ConfigError
from cardtable.core.registry import games
from cardtable.rl.codec import make_codec
from cardtable.rl.common import (MAX_LENGTH, View, check_max_length, env_name, make_config,
                                 render_ansi, rewards, truncated_reward)


class CardtableEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str | None = None, variant: str | None = None,
                 players: int | None = None, opponents: list[str] | str | None = None,
                 seat: int | None = None, target: int = 100, options: dict | None = None,
                 max_cards: int = 12, reward: str = "score", illegal_reward: float = -1.0,
                 render_mode: str | None = None, max_length: int = MAX_LENGTH):
        self.config = make_config(game, variant, players, target, options, max_cards, reward)
        self.max_length = check_max_length(max_length)
        self.truncated_reward = truncated_reward(self.config)
        n = self.config.players
        if opponents is None:
            opponents = ["random"]
        if isinstance(opponents, str):
            opponents = [opponents]
        opponents = [str(o).strip().lower() for o in opponents]
        if len(opponents) == 1:
            opponents = opponents * (n - 1)
        if len(opponents) != n - 1:
            raise ConfigError(f"{n} players need {n - 1} opponents (or one for all), "
                              f"not {len(opponents)}")
        for name in opponents:
            make_bot(name, 0)                                  # unknown bot: ConfigError
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ConfigError(f"seat must be 0..{n - 1} or None, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"unknown render_mode {render_mode!r} (ansi or None)")
        self.opponents = opponents
        self.fixed_seat = seat
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.codec = make_codec(self.config.game, n, max_cards=max_cards, target=target)
        self.observation_space = spaces.Box(self.codec.obs_low, self.codec.obs_high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self._rng = random.Random()
        self.state = None
        self.seat = 0
        self._legal: dict[int, Any] = {}
        self._view: dict | None = None
        self._bots: list = []

    # -- episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.config.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(n)
        self.state = self.config.new_state(self._rng.getrandbits(62))
        self.steps = 0                                     # the learner's steps this episode
        others = [s for s in range(n) if s != self.seat]
        others.sort(key=lambda s: (s - self.seat) % n)     # seat order after the learner
        self._bots = [None] * n
        for s, name in zip(others, self.opponents):
            self._bots[s] = make_bot(name, self._rng.getrandbits(62))
        self._play_bots()
        return self._obs(), self._info()

    def _play_bots(self) -> None:
        st = self.state
        while not st.over and st.to_move != self.seat:
            st.apply(act(self._bots[st.to_move], st))
        if st.over:
            self._view, self._legal = st.view(self.seat), {}
        else:
            self._view = st.view(self.seat)
            self._legal = self.codec.legal(st, self._view)

    def step(self, action):
        self.steps += 1
        decision = self._legal.get(int(action))
        if decision is None:
            info = self._info()
            info["view"] = View(copy.deepcopy(self._view))  # never the object returned before
            info["illegal_action"] = True
            return self._obs(), self.illegal_reward, True, False, info
        self.state.apply(decision)
        self._play_bots()
        done = self.state.over
        reward = rewards(self.config, self.state)[self.seat] if done else 0.0
        cut = not done and self.steps >= self.max_length
        if cut:                                 # max_length: truncated (rl/common.py)
            reward, self._legal = self.truncated_reward, {}
        return self._obs(), reward, done, cut, self._info()

    # -- observing ----------------------------------------------------------------------------
    def _obs(self) -> np.ndarray:
        return self.codec.encode(self._view)

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.codec.num_actions, np.int8)
        if self._legal:
            mask[list(self._legal)] = 1
        return mask

    def _info(self) -> dict:
        return {"action_mask": self.action_masks(), "view": View(self._view), "seat": self.seat}

    def legal_texts(self) -> dict[int, str]:
        return {i: d.text for i, d in self._legal.items()}

    def render(self):
        if self.render_mode == "ansi":
            return render_ansi(self.state, self.seat)
        return None


def env_id(game: str) -> str:
    """The Gymnasium id of a registered game: `cardtable/<Name>-v0` (env_name)."""
    return f"cardtable/{env_name(game)}-v0"


def register() -> None:
    """Register `cardtable/<Name>-v0` for every registered game with a codec, e.g.
    `cardtable/Abluxxen-v0` and `cardtable/Kombio-v0`, and `cardtable/<Name>Batch-v0` for
    every game with a batched simulator (idempotent; call it again after registering a game).
    A Batch id is for `gymnasium.make_vec`: by default (`vectorization_mode=None` or
    "vector_entry_point") the batched vector environment (rl/batch/vector.py); "sync" and
    "async" vectorize its single-game equivalent, `CardtableEnv` with random opponents (the
    id's `entry_point`), with Gymnasium's own SyncVectorEnv / AsyncVectorEnv."""
    for g in games():
        name = env_id(g.name)
        if g.codec and name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=partial(CardtableEnv, game=g.name),
                               disable_env_checker=False)
        batch = f"cardtable/{env_name(g.name)}Batch-v0"            # rl/batch/vector.py
        if g.batch and batch not in gymnasium.registry:
            gymnasium.register(id=batch, entry_point=partial(CardtableEnv, game=g.name),
                               vector_entry_point=partial(_batch_vector, g.name),
                               disable_env_checker=False)


def _batch_vector(game: str, **kwargs):
    """The batched vector environment (imported on use: it needs numba)."""
    from cardtable.rl.batch.vector import BatchVectorEnv

    return BatchVectorEnv(game, **kwargs)
