"""Opponents that are not compiled into the batched simulator: frozen policies (callables
`f(obs, mask) -> actions` over NumPy arrays, e.g. a snapshot of a learner) and pools of them,
for `BatchVectorEnv(opponents=...)` (rl/batch/vector.py) and the PettingZoo parallel batch
(`BatchParallelEnv`, `parallel_env`: rl/batch/parallel.py, with `agent_seats`).

    from cardtable.rl.batch.pool import OpponentPool
    pool = OpponentPool(["easy"])               # levels and callables
    pool.add(snapshot_of(learner))              # a frozen policy joins the pool
    envs = BatchVectorEnv("abluxxen", 64, variant="basic", players=4, opponents=pool)

A pool's member is drawn per game at each reset, from the environment's generator (seeded by
`reset(seed=...)`), and plays every seat of that game but the learner's; members added to the
pool (`add`) take part from the next deals on. `LearnerDriver` runs
such an environment: compiled levels still move inside the compiled loop (`play_bots`); where a
policy's seat is to move, it returns to Python, gives the policy the observations and masks of
all the games where that seat is to move at once (rows of `obs` and `mask`, as the learner gets
them), applies the answers and repeats, until every game is at its learner's seat or over.
`advance` and `move` do that for any lineup of seats (the parallel env's too).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterable

import numpy as np

from cardtable.core.errors import ConfigError
from cardtable.rl.batch.common import bot_levels, cut_episodes, seeds_of
from cardtable.rl.common import truncated_reward

Policy = Callable[[np.ndarray, np.ndarray], Any]


class OpponentPool:
    """An ordered collection of opponents (level names the simulator has compiled, or
    callables `f(obs, mask) -> actions`); one is drawn per game at each reset."""

    def __init__(self, members: Iterable = ()):
        self.members: list = []
        for m in members:
            self.add(m)

    def add(self, member) -> None:
        """Add a level name or a callable policy (a frozen snapshot: the pool keeps the
        object, so snapshot the weights, not a reference to a learner still training)."""
        if not (isinstance(member, str) or callable(member)):
            raise ConfigError(f"an opponent pool holds level names and callables "
                              f"f(obs, mask) -> actions, not {member!r}")
        self.members.append(member)

    def __len__(self) -> int:
        return len(self.members)

    def __iter__(self):
        return iter(self.members)

    def __repr__(self) -> str:
        return f"OpponentPool({self.members!r})"


def is_compiled_only(opponents) -> bool:
    """True when `opponents` is what the simulator plays by itself: a level name, or a list
    or tuple of level names (one per seat)."""
    if isinstance(opponents, str):
        return True
    return isinstance(opponents, (list, tuple)) and all(isinstance(o, str) for o in opponents)


def _name(entry) -> str:
    return entry if isinstance(entry, str) else getattr(entry, "__name__", repr(entry))


class LearnerDriver:
    """The learner loop of `BatchVectorEnv` when some opponent is a callable or a pool (see
    the module docstring): `reset` and `step` answer as the simulator's `learner_reset` and
    `learner_step` do. `opponents`: a callable for every seat, a list of one entry per seat
    (levels and callables; the learner's entry unused), or an `OpponentPool`. ConfigError for
    anything else or a level the simulator has not compiled."""

    def __init__(self, sim, opponents):
        self.sim = sim
        n = sim.players
        if isinstance(opponents, OpponentPool):
            if len(opponents) == 0:
                raise ConfigError("opponents: the opponent pool is empty")
            members = [[m] * n for m in opponents]
            self.pool = True
        elif callable(opponents):
            members = [[opponents] * n]
            self.pool = False
        elif isinstance(opponents, (list, tuple)) and len(opponents) == n:
            members = [list(opponents)]
            self.pool = False
        else:
            raise ConfigError(f"opponents must be a level name, a callable f(obs, mask) -> "
                              f"actions, a list of {n} (one per seat) or an OpponentPool, "
                              f"not {opponents!r}")
        self._pool = opponents if self.pool else None
        self.members = self._checked(members)
        self.rng = self.sample_rng = np.random.default_rng()

    def _checked(self, members: list) -> list:
        return check_lineups(self.sim, members)

    # -- episodes ---------------------------------------------------------------------------
    def reset(self, seed, fixed: int | None, max_length: int, illegal_reward: float = -1.0):
        sim, m = self.sim, self.sim.num_games
        seeds = seeds_of(seed, m)                 # game i: the engine's deal of seeds[i]
        self.rng = np.random.default_rng([int(s) for s in seeds]) if seed is not None \
            else np.random.default_rng()
        self.sample_rng = np.random.default_rng([int(s) ^ 0x5DEECE66D for s in seeds]) \
            if seed is not None else np.random.default_rng()     # sample_actions' own
        self.fixed = fixed
        self.max_length = max_length
        self.learner = np.zeros(m, np.int64)
        self.member = np.zeros(m, np.int64)
        self.autoreset = np.zeros(m, np.bool_)
        self.steps = np.zeros(m, np.int64)
        self.truncated = np.zeros(m, np.bool_)
        self.cut_reward = truncated_reward(sim.config)
        self._deal(np.arange(m), seeds)
        return self._view() + (self.learner.copy(),)

    def _deal(self, idx: np.ndarray, seeds: np.ndarray) -> None:
        """Deal `idx` anew, draw their learner seats and pool members, and play the
        opponents up to each learner's first decision."""
        self.sim.reset(seeds, games=idx)
        n = self.sim.players
        if self.pool and len(self._pool) != len(self.members):     # members added since
            self.members = self._checked([[m] * n for m in self._pool])
        self.learner[idx] = self.fixed if self.fixed is not None \
            else self.rng.integers(0, n, size=len(idx))
        self.member[idx] = self.rng.integers(0, len(self.members), size=len(idx))
        self._advance(idx)

    def step(self, actions, illegal_reward: float):
        sim, m = self.sim, self.sim.num_games
        a = np.asarray(actions)
        if a.shape != (m,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {m} whole numbers (one per env), not an array "
                             f"of shape {a.shape} and type {a.dtype}")
        a = a.astype(np.int64)
        reward = np.zeros(m, np.float32)
        terminated = np.zeros(m, np.bool_)
        illegal = np.zeros(m, np.bool_)
        fresh = self.autoreset.copy()
        live = np.flatnonzero(~fresh)
        mask = sim.masks()
        ok = (a[live] >= 0) & (a[live] < sim.num_actions)
        ok[ok] = mask[live[ok], a[live[ok]]] != 0
        bad = live[~ok]
        illegal[bad] = True
        terminated[bad] = True
        reward[bad] = illegal_reward
        play = live[ok]
        if len(play):
            with subset(sim, play) as sub:
                sub.step(a[play])
            self._advance(play)
            done = play[sim.over[play]]
            terminated[done] = True
            reward[done] = sim.final_rewards()[done, self.learner[done]]
        new = np.flatnonzero(fresh)
        if len(new):
            self._deal(new, self.rng.integers(0, 2**62, size=len(new), dtype=np.uint64))
        self.autoreset = terminated.copy()
        obs, mask = self._view()
        self.truncated = cut_episodes(self.steps, fresh, terminated, reward, mask,
                                      self.autoreset, self.max_length, self.cut_reward)
        return obs, mask, reward, terminated, illegal, self.learner.copy()

    def _view(self):
        """Every learner's observation and mask (zeros where its game is over)."""
        obs = self.sim.observe(self.learner)
        mask = self.sim.masks()
        mask[self.sim.to_move != self.learner] = 0
        return obs, mask

    # -- the opponents ---------------------------------------------------------------------------
    def _advance(self, idx: np.ndarray) -> None:
        """Move the opponents of games `idx` until each is at its learner's seat or over."""
        advance(self.sim, idx, self.learner * len(self.members) + self.member, self._lineup)

    def _lineup(self, key: int) -> list:
        """The seats of the games of `key` (learner seat x members + member): the member's,
        None at the learner's."""
        learner, member = divmod(int(key), len(self.members))
        seats = list(self.members[member])
        seats[learner] = None
        return seats


def check_lineups(sim, lineups: list, agents: bool = False) -> list:
    """`lineups` (lists of one entry per seat: a level name or a callable f(obs, mask) ->
    actions; with `agents`, also None for a seat the caller plays) as given, or ConfigError for
    another entry or a level the simulator `sim` has not compiled."""
    for seats in lineups:
        bad = [s for s in seats if not (isinstance(s, str) or callable(s)
                                        or (agents and s is None))]
        if bad:
            raise ConfigError(f"opponents: {bad[0]!r} is neither a level name nor a "
                              "callable f(obs, mask) -> actions"
                              + (" nor None (an agent's seat)" if agents else ""))
        names = [s for s in seats if isinstance(s, str)]
        if names and getattr(sim, "set_bots", None) is None:
            raise ConfigError(f"opponents: the batched simulator of {sim.game} has no "
                              f"compiled bots (level {names[0]!r}); use callables")
        bot_levels(names, len(names), dict.fromkeys(getattr(sim, "levels", ()), 0), sim.game)
    return lineups


def advance(sim, idx: np.ndarray, keys: np.ndarray, lineup: Callable[[int], list]) -> None:
    """Move the opponents of the games `idx` of `sim` until each is at a seat the caller plays
    or over. `keys` (one per game of `sim`) names each game's lineup, `lineup(key)` is it: one
    entry per seat, a level name (moves inside the simulator), a callable f(obs, mask) ->
    actions, or None (a seat the caller plays). Games of one lineup move together (`move`)."""
    while True:
        idx = idx[sim.to_move[idx] >= 0]
        groups = []
        for key in np.unique(keys[idx]):
            seats = lineup(int(key))
            theirs = np.array([e is not None for e in seats])
            games = idx[keys[idx] == key]
            games = games[theirs[sim.to_move[games]]]
            if len(games):
                groups.append((games, seats))
        if not groups:
            return
        for games, seats in groups:
            move(sim, games, seats)


def move(sim, games: np.ndarray, seats: list) -> None:
    """The games `games` share their opponents (`seats`, one entry per seat as in `advance`):
    the compiled seats move inside the simulator, then every game whose mover is a policy's
    seat gets one decision of it (ValueError naming the policy for an illegal one)."""
    bots = [e if isinstance(e, str) else None for e in seats]
    if any(b is not None for b in bots):
        before = sim.R.copy()
        sim.set_bots(bots)
        try:
            with subset(sim, games) as sub:
                sub.play_bots()
        finally:
            sim.R[:] = before
    to_move = sim.to_move[games]
    for s in np.unique(to_move):
        if s < 0 or seats[s] is None:
            continue
        at = games[to_move == s]
        policy = seats[s]
        with subset(sim, at) as sub:
            obs = sub.observe(np.full(len(at), s, np.int64))
            mask = sub.masks()
            a = np.asarray(policy(obs, mask))
            if a.shape != (len(at),) or a.dtype.kind not in "iu":
                raise ValueError(f"opponent policy {_name(policy)} at seat {s} must return "
                                 f"{len(at)} whole numbers (one per game given), not an "
                                 f"array of shape {a.shape} and type {a.dtype}")
            a = a.astype(np.int64)
            inside = (a >= 0) & (a < sim.num_actions)
            legal = np.zeros(len(at), np.bool_)
            legal[inside] = mask[np.flatnonzero(inside), a[inside]] != 0
            if not legal.all():
                t = int(np.flatnonzero(~legal)[0])
                raise ValueError(f"opponent policy {_name(policy)} at seat {s} chose the "
                                 f"illegal action {int(a[t])} in game {int(at[t])}; legal: "
                                 f"{np.flatnonzero(mask[t]).tolist()}")
            sub.step(a)


@contextmanager
def subset(sim, games: np.ndarray):
    """The simulator `sim` narrowed to the games `games` (its per-game arrays: every array
    attribute with one row per game, taken in and written back), so that its own methods
    (`step`, `play_bots`, `observe`, `masks`) act on those games only."""
    m = sim.num_games
    names = [k for k, v in vars(sim).items()
             if k != "R" and isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == m]
    full = {k: getattr(sim, k) for k in names}
    try:
        for k in names:
            setattr(sim, k, full[k][games])
        sim.num_games = len(games)
        yield sim
        for k in names:
            full[k][games] = getattr(sim, k)
    finally:
        for k in names:
            setattr(sim, k, full[k])
        sim.num_games = m
