"""What every batched simulator checks and makes the same way: the number of games, the game
numbers of a partial reset or step, deal seeds, an episode cut at `max_length`, the opponents'
levels (`bot_levels`, `seat_codes`) and the arrays of a playout of compiled bots (a game's own module, e.g.
abluxxen/batch/env.py, holds its rules' arrays)."""

from __future__ import annotations

import numpy as np

from cardtable.core.errors import ConfigError


def seeds_of(seed, count: int) -> np.ndarray:
    """`count` deal seeds (uint64): seed, seed+1, ... for an int; the values themselves for a
    sequence of `count`; fresh random ones for None. Seeds are whole numbers 0 <= s < 2**64."""
    if seed is None:
        return np.random.default_rng().integers(0, 2**62, size=count, dtype=np.uint64)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = int(seed)
        if not (0 <= seed and seed + count <= 2**64):
            raise ConfigError(f"seed must be a whole number from 0 to 2**64 - {count}, not {seed}")
        return np.array([seed + i for i in range(count)], np.uint64)
    values = list(seed) if not isinstance(seed, (str, bytes, dict)) else None
    if values is None or len(values) != count:
        raise ConfigError(f"seed must be None, a whole number or {count} whole numbers")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < 2**64:
            raise ConfigError(f"seeds are whole numbers from 0 to 2**64 - 1, not {v!r}")
    return np.array([int(v) for v in values], np.uint64)


def count_of(num_games) -> int:
    if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) \
            or num_games < 1:
        raise ConfigError(f"the number of games must be a whole number >= 1, not {num_games!r}")
    return int(num_games)


def game_numbers(games, num_games: int) -> np.ndarray:
    """`games` as distinct game numbers 0..num_games-1 (int64), else ConfigError."""
    idx = np.asarray(games)
    if idx.ndim != 1 or idx.dtype.kind not in "iu" or len(idx) == 0 \
            or (idx < 0).any() or (idx >= num_games).any() \
            or len(np.unique(idx)) != len(idx):
        raise ConfigError(f"games must be distinct game numbers 0..{num_games - 1}")
    return idx.astype(np.int64)


def cut_episodes(steps: np.ndarray, fresh: np.ndarray, terminated: np.ndarray,
                 reward: np.ndarray, mask: np.ndarray, autoreset: np.ndarray,
                 max_length: int, cut_reward: float) -> np.ndarray:
    """After a learner step of the vector environment: count each episode's learner steps
    (`steps`; an env that was dealt anew this step, `fresh`, starts at 0) and truncate the
    episodes that reached `max_length` without ending, as the single-game environment does
    (rl/gymnasium.py): reward `cut_reward`, an empty mask, and a new game at the next step
    (`autoreset`).
    Returns the truncated envs (bool)."""
    steps[fresh] = 0
    steps[~fresh] += 1
    cut = ~fresh & ~terminated & (steps >= max_length)
    reward[cut] = cut_reward
    mask[cut] = 0
    autoreset |= cut
    return cut


def bot_levels(opponents, players: int, levels: dict[str, int], game: str) -> list[int]:
    """The per-seat codes of `opponents`: one level name of `levels` (name -> code, the levels
    a simulator has compiled) for every seat, or a list or tuple of `players` names; a
    ConfigError names the levels available."""
    names = [opponents] * players if isinstance(opponents, str) else opponents
    if not isinstance(names, (list, tuple)) or len(names) != players:
        raise ConfigError(f"opponents must be a level name or a list of {players} (one per "
                          f"seat), not {opponents!r}")
    for name in names:
        if not isinstance(name, str) or name not in levels:
            raise ConfigError(f"opponents: {name!r} is not a level compiled into the batched "
                              f"simulator of {game} (levels: {', '.join(levels)})")
    return [levels[name] for name in names]


def seat_codes(bots, players: int, levels: dict[str, int], game: str, agent: int) -> list[int]:
    """The per-seat codes of a simulator's `set_bots`: `bots` is a list of `players` entries,
    each a level name of `levels` or None for a seat the caller plays (code `agent`); a
    ConfigError otherwise (`bot_levels`' for an unknown level)."""
    if not isinstance(bots, (list, tuple)) or len(bots) != players:
        raise ConfigError(f"opponents must be a list of {players} entries (a level, "
                          f"or None for an agent's seat), not {bots!r}")
    codes = bot_levels(["random" if b is None else b for b in bots], players, levels, game)
    return [agent if b is None else c for b, c in zip(bots, codes)]


def set_opponents(sim, opponents) -> list[str]:
    """Give the simulator `sim` its opponents (a level for every seat or one per seat; its
    `set_opponents`, ConfigError for a level it has not compiled); returns one name per seat.
    A simulator without compiled bots plays random opponents only."""
    if getattr(sim, "set_opponents", None) is None:
        bot_levels(opponents, sim.players, {"random": 0}, sim.game)
    else:
        sim.set_opponents(opponents)
    return [opponents] * sim.players if isinstance(opponents, str) else list(opponents)


class BotPlayouts:
    """What a simulator's `bot_playouts` hands its compiled kernel, made the same way for every
    game: the deal seeds (`seeds`, `sample`: each game's fast generator), a copy of the rules'
    array `R` with the seats' levels (`r_bots`: where they start), the seats' Mersenne Twister
    seeds (`chosen`) and states (`mts`, empty without `bot_seeds`), and the result arrays
    (`scores`, `wins`, `decisions`, `actions`: each game's first `trace` action ids)."""

    def __init__(self, sim, seeds, bots, bot_seeds, trace: int, levels: dict[str, int],
                 r_bots: int, mt_words: int):
        values = [int(seeds)] if isinstance(seeds, (int, np.integer)) \
            and not isinstance(seeds, bool) else list(seeds)
        self.seeds = seeds_of(values, len(values))
        self.sample = self.seeds ^ np.uint64(0x5DEECE66D)
        m, n = len(self.seeds), sim.players
        self.R = sim.R.copy()
        self.R[r_bots:r_bots + n] = bot_levels(bots, n, levels, sim.game)
        if bot_seeds is None:
            self.chosen = np.zeros((m, n), np.uint64)
            self.mts = np.zeros((n, 0), np.uint64)
        else:
            rows = [list(r) for r in bot_seeds]
            if len(rows) != m or any(len(r) != n for r in rows):
                raise ValueError(f"bot_seeds must be {m} rows of {n} seeds (games x players)")
            self.chosen = np.array([seeds_of(r, n) for r in rows], np.uint64).reshape(m, n)
            self.mts = np.zeros((n, mt_words), np.uint64)
        self.trace = max(int(trace), 0)
        self.scores = np.zeros((m, n), np.int64)
        self.wins = np.zeros((m, n), np.int64)
        self.decisions = np.zeros(m, np.int64)
        self.actions = np.zeros((m, self.trace), np.int64)

    def result(self) -> dict[str, np.ndarray]:
        """{"scores", "winners", "decisions"} and, with a trace, "actions"."""
        out = {"scores": self.scores, "winners": self.wins != 0, "decisions": self.decisions}
        if self.trace > 0:
            out["actions"] = self.actions
        return out
