"""Evaluate a policy against opponents on duplicate deals with the batched simulator.

    from cardtable.rl.evaluate import evaluate
    result = evaluate(my_policy, game="abluxxen", opponents="medium", games=500, seed=0,
                      variant="basic", players=4)
    print(result.share, result.low, result.high)       # win share and its 95% interval

`policy` is a callable `f(obs, mask) -> actions` over NumPy arrays (rows: the games where the
learner is to move), as `BatchVectorEnv` gives them. Each of `games` deals (env i of
`BatchVectorEnv.reset(seed=seed)`, the same deal whatever the learner's seat) is played once
with the policy in every seat, the other seats played by `opponents` (anything
`BatchVectorEnv(opponents=...)` takes: a compiled level, a list per seat, a frozen policy or an
`OpponentPool`), so the luck of the deal falls alike on every seat. The win share counts a
shared win as 1/k for each of its k winners (as `cardtable tournament` does); the interval is
the Wilson score interval of cardtable.sim.stats (the tournament's), z = 1.96, over all games x
seats episodes. An illegal action of the policy or an episode cut at `max_length` counts as no
win (`illegal`, `truncated` say how many).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from cardtable.core.errors import ConfigError
from cardtable.sim.stats import wilson


@dataclass
class Evaluation:
    """The result of `evaluate`: `share` of the wins (the policy's), its 95% Wilson interval
    `low`..`high`, `episodes` (games x seats), per-seat shares `by_seat`, and how many episodes
    ended by an illegal action or were truncated."""
    share: float
    low: float
    high: float
    episodes: int
    by_seat: list[float] = field(default_factory=list)
    illegal: int = 0
    truncated: int = 0


def evaluate(policy: Callable[[np.ndarray, np.ndarray], Any], game: str | None = None,
             opponents: Any = "medium", games: int = 100, seed: int = 0,
             **config: Any) -> Evaluation:
    """`policy` against `opponents` on `games` duplicate deals from `seed` (see the module
    docstring); `config`: the configuration (variant, players, options; Kombio's target,
    max_cards), and `max_length`. ConfigError for bad arguments."""
    from cardtable.rl.batch.vector import BatchVectorEnv

    if not callable(policy):
        raise ConfigError(f"policy must be a callable f(obs, mask) -> actions, not {policy!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"games must be a whole number >= 1, not {games!r}")
    if "reward" in config:
        raise ConfigError("evaluate counts wins (reward='win'); it takes no reward")
    first = BatchVectorEnv(game, games, seat=0, opponents=opponents, illegal_reward=0.0,
                           reward="win", **config)
    shares, illegal, truncated = [], 0, 0
    for seat in range(first.sim.players):
        env = first if seat == 0 else BatchVectorEnv(
            game, games, seat=seat, opponents=opponents, illegal_reward=0.0, reward="win",
            **config)
        result, bad, cut = _play_once(env, policy, seed)
        shares.append(result)
        illegal += bad
        truncated += cut
    wins = np.concatenate(shares)
    low, high = wilson(float(wins.sum()), len(wins))
    return Evaluation(share=float(wins.mean()), low=low, high=high, episodes=len(wins),
                      by_seat=[float(s.mean()) for s in shares], illegal=illegal,
                      truncated=truncated)


def _play_once(env, policy, seed: int) -> tuple[np.ndarray, int, int]:
    """Every env's first episode from `reset(seed=seed)`: the policy's final reward per env,
    and how many ended by an illegal action or a cut."""
    n = env.num_envs
    obs, infos = env.reset(seed=seed)
    reward = np.zeros(n)
    live = np.ones(n, np.bool_)
    illegal = truncated = 0
    while live.any():
        actions = np.zeros(n, np.int64)
        rows = np.flatnonzero(live)
        actions[rows] = np.asarray(policy(obs[rows], infos["action_mask"][rows]))
        obs, r, term, trunc, infos = env.step(actions)
        ended = live & (term | trunc)
        reward[ended & term] = r[ended & term]
        if "illegal_action" in infos:
            illegal += int((ended & infos["illegal_action"]).sum())
        truncated += int((ended & trunc).sum())
        live &= ~ended
    return reward, illegal, truncated
