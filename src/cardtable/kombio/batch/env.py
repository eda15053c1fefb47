"""The batched Kombio simulator: many games stepped in one call, observations, legal-action
masks and rewards as NumPy arrays, with the codec's action ids and observation layout
(kombio/codec.py), at 2-6 players. The same interface as abluxxen/batch/env.py's
AbluxxenBatch (reset, step, observe, masks, sample_actions, scores, winners, final_rewards,
playouts); game i of `reset(seed=s)` is the engine's `new_game("kombio", seed=s + i)`, and
every random draw (KO-2 deals, KO-10 snap draws, KO-14 reshuffles) is the engine's.
The rules run compiled (numba; kombio/batch/rules.py, kombio/batch/play.py); tests/rl/test_batch_kombio.py
replays seeded random games through both and compares every step.
"""

from __future__ import annotations

import numpy as np

from cardtable.core.errors import ConfigError
from cardtable.kombio.batch import kernels as KK
from cardtable.kombio.batch import policies as P
from cardtable.kombio.batch import rules as L
from cardtable.rl.batch.common import (BotPlayouts, bot_levels, count_of, cut_episodes,
                                       game_numbers, seat_codes, seeds_of)
from cardtable.rl.batch.rng import MT_WORDS
from cardtable.rl.common import MAX_LENGTH, check_max_length, make_config, truncated_reward
from cardtable.kombio.codec import KombioCodec

GAME = KombioCodec.game
#: the largest target the simulator takes: totals (int16) stay below 2**15 past it (KO-16)
MAX_TARGET = 20_000


class KombioBatch:
    """`num_games` games of one configuration (rl/common.py `make_config`: players, target,
    the codec's max_cards, reward; the engine option max_turns is not simulated and refused).
    `target` is the game's end (KO-16: a total reaching it ends the game) and the observation's
    scale; `max_cards` the codec's card cap, which sets the action ids and observation size."""

    game = GAME
    #: the bot levels compiled into the simulator (policies.py), for `opponents`
    levels = tuple(P.LEVELS)

    def __init__(self, num_games: int, variant: str | None = None, players: int | None = None,
                 options: dict | None = None, reward: str = "score", target: int = 100,
                 max_cards: int = 12):
        self.num_games = count_of(num_games)
        if options:
            raise ConfigError("the batched Kombio simulator plays without engine options "
                              f"(not {sorted(options)[0]!r})")
        self.config = make_config(GAME, variant, players, target=target, max_cards=max_cards,
                                  reward=reward)
        if self.config.target > MAX_TARGET:
            raise ConfigError(f"target: the batched Kombio simulator keeps totals in 16 bits, "
                              f"so its target is at most {MAX_TARGET}, not {self.config.target}")
        self.players = self.config.players
        self.codec = KombioCodec(self.players, max_cards=max_cards, target=self.config.target)
        self.num_actions = self.codec.num_actions
        self.obs_size = self.codec.obs_size
        self.R = L.params(self.players, self.codec.K, self.codec.target)
        self.R = np.concatenate([self.R, np.full(L.SEATS, P.RANDOM, np.int64)])  # the bots
        self.rng = np.zeros(self.num_games, np.uint64)  # the compiled bots' generators
        n = self.num_games
        self.state = np.zeros((n, L.ROW), np.int16)
        self.state[:, L.OVER] = 1
        self.state[:, L.TO_MOVE] = -1
        self.known = np.zeros((n, L.SEATS + 1, 2), np.uint64)
        self.mt = np.zeros((n, MT_WORDS), np.uint64)
        self.sample_rng = np.zeros(n, np.uint64)
        self.seat = np.zeros(n, np.int64)

    def reset(self, seed=None, games=None):
        idx = np.arange(self.num_games) if games is None else self._games(games)
        seeds = seeds_of(seed, len(idx))
        self.sample_rng[idx] = seeds ^ np.uint64(0x5DEECE66D)
        self.rng[idx] = seeds * np.uint64(0x2545F4914F6CDD1D) + np.uint64(0x632BE59BD9B4E019)
        obs = np.empty((len(idx), self.obs_size), np.float32)
        mask = np.empty((len(idx), self.num_actions), np.int8)
        KK.k_reset(self.state, self.known, self.mt, self.R, idx, seeds, 0, obs, mask, self.seat)
        return obs, mask

    def _games(self, games) -> np.ndarray:
        return game_numbers(games, self.num_games)

    def step(self, actions):
        a = np.asarray(actions)
        if a.shape != (self.num_games,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_games} whole numbers (one per game), "
                             f"not an array of shape {a.shape} and type {a.dtype}")
        a = a.astype(np.int64)
        bad = KK.k_first_illegal(self.state, self.R, a, self.num_actions)
        if bad >= 0:
            x = int(a[bad])
            name = self.codec.describe(x) if 0 <= x < self.num_actions else "no action id"
            raise ValueError(f"game {bad}: action {x} ({name}) is not legal for seat "
                             f"{int(self.state[bad, L.TO_MOVE])}")
        obs = np.empty((self.num_games, self.obs_size), np.float32)
        mask = np.empty((self.num_games, self.num_actions), np.int8)
        ended = np.empty(self.num_games, np.bool_)
        KK.k_step(self.state, self.known, self.mt, self.R, a, obs, mask, self.seat, ended)
        if self.state[:, L.ERR].any():
            raise RuntimeError("a Kombio grid outgrew the simulator's slots")
        return obs, mask, self.final_rewards() * ended[:, None], self.over

    def observe(self, seats=None):
        if seats is None:
            seats = self.seat
        s = np.broadcast_to(np.asarray(seats), (self.num_games,))
        if s.dtype.kind not in "iu" or (s < 0).any() or (s >= self.players).any():
            raise ValueError(f"seats are 0..{self.players - 1}")
        obs = np.empty((self.num_games, self.obs_size), np.float32)
        KK.k_observe(self.state, self.known, self.R, s.astype(np.int64), obs)
        return obs

    def masks(self):
        mask = np.empty((self.num_games, self.num_actions), np.int8)
        KK.k_masks(self.state, self.R, mask)
        return mask

    def sample_actions(self):
        out = np.empty(self.num_games, np.int64)
        KK.k_sample(self.state, self.R, self.sample_rng, out, self.num_actions)
        return out

    def abandon(self, games) -> None:
        """End the listed games without a result (PettingZoo's TerminateIllegalWrapper
        convention, as AbluxxenBatch.abandon): over, no scores, no winners."""
        idx = self._games(games)
        self.state[idx, L.OVER] = 1
        self.state[idx, L.ABANDONED] = 1
        self.state[idx, L.PHASE] = -1
        self.state[idx, L.TO_MOVE] = -1
        self.state[idx, L.WIN:L.WIN + L.SEATS] = 0

    # -- compiled bots (policies.py; as AbluxxenBatch) ---------------------------------------
    def set_opponents(self, opponents="random") -> None:
        """As AbluxxenBatch.set_opponents."""
        codes = bot_levels(opponents, self.players, P.LEVELS, GAME)
        self.R[P.R_BOTS:P.R_BOTS + self.players] = codes

    def set_bots(self, bots) -> None:
        """As AbluxxenBatch.set_bots."""
        self.R[P.R_BOTS:P.R_BOTS + self.players] = seat_codes(bots, self.players, P.LEVELS,
                                                              GAME, P.AGENT)

    def play_bots(self) -> np.ndarray:
        """As AbluxxenBatch.play_bots."""
        ended = np.empty(self.num_games, np.bool_)
        P.k_play_bots(self.state, self.known, self.mt, self.R, self.rng, self.num_actions,
                      ended)
        return ended

    def bot_playouts(self, seeds, bots="easy", bot_seeds=None, trace: int = 0):
        """As AbluxxenBatch.bot_playouts ("scores": the final totals)."""
        b = BotPlayouts(self, seeds, bots, bot_seeds, trace, P.LEVELS, P.R_BOTS, MT_WORDS)
        P.k_bot_playouts(b.R, b.seeds, b.chosen, b.sample, b.mts, self.num_actions, b.scores,
                         b.wins, b.decisions, b.actions)
        return b.result()

    # -- one learner against random players (the Gymnasium vector environment) -------------
    def learner_reset(self, seed=None, seat: int | None = None,
                      max_length: int = MAX_LENGTH):
        """As AbluxxenBatch.learner_reset: new games with one learning seat each and random
        legal opponents, who move up to the learner's first decision."""
        self._fixed = -1 if seat is None else int(seat)
        seeds = seeds_of(seed, self.num_games)
        self.rng[:] = seeds * np.uint64(0x2545F4914F6CDD1D) + np.uint64(0x632BE59BD9B4E019)
        self.sample_rng[:] = seeds ^ np.uint64(0x5DEECE66D)
        self._autoreset = np.zeros(self.num_games, np.bool_)
        self._max_length = check_max_length(max_length)      # rl/common.py
        self._steps = np.zeros(self.num_games, np.int64)
        self.truncated = np.zeros(self.num_games, np.bool_)
        self._cut_reward = truncated_reward(self.config)
        obs = np.empty((self.num_games, self.obs_size), np.float32)
        mask = np.empty((self.num_games, self.num_actions), np.int8)
        KK.k_vec_reset(self.state, self.known, self.mt, self.R, self.seat, self._fixed,
                       self.rng, obs, mask)
        return obs, mask, self.seat.copy()

    def learner_step(self, actions, illegal_reward: float = -1.0):
        """As AbluxxenBatch.learner_step (next-step autoreset; an illegal action ends that
        episode with `illegal_reward`; an episode past `max_length` learner steps is
        truncated: `self.truncated`)."""
        if not hasattr(self, "_autoreset"):
            raise RuntimeError("call learner_reset before learner_step")
        a = np.asarray(actions)
        if a.shape != (self.num_games,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_games} whole numbers (one per game), "
                             f"not an array of shape {a.shape} and type {a.dtype}")
        n = self.num_games
        obs = np.empty((n, self.obs_size), np.float32)
        mask = np.empty((n, self.num_actions), np.int8)
        reward = np.empty(n, np.float32)
        terminated = np.empty(n, np.bool_)
        illegal = np.empty(n, np.bool_)
        fresh = self._autoreset.copy()
        KK.k_vec_step(self.state, self.known, self.mt, self.R, a.astype(np.int64), self.seat,
                      self._fixed, self.rng, int(self.config.reward == "win"),
                      np.float32(illegal_reward), self._autoreset, obs, mask, reward,
                      terminated, illegal)
        self.truncated = cut_episodes(self._steps, fresh, terminated, reward, mask,
                                      self._autoreset, self._max_length,
                                      self._cut_reward)
        return obs, mask, reward, terminated, illegal, self.seat.copy()

    @property
    def to_move(self):
        return self.state[:, L.TO_MOVE].astype(np.int64)

    @property
    def over(self):
        return self.state[:, L.OVER] != 0

    @property
    def scores(self):
        """Final totals (KO-16), games x players (0 where not over)."""
        t = self.state[:, L.TOTALS:L.TOTALS + self.players].astype(np.int64)
        return t * (self.over & (self.state[:, L.ABANDONED] == 0))[:, None]

    @property
    def winners(self):
        return (self.state[:, L.WIN:L.WIN + self.players] != 0) & self.over[:, None]

    def final_rewards(self):
        """Every seat's final reward (rl/common.py): minus its total ("score", the lowest
        total wins) or its share of the win ("win"); 0 where not over."""
        if self.config.reward == "score":
            return -self.scores.astype(np.float32)
        w = self.winners.astype(np.float32)
        return w / np.maximum(w.sum(axis=1, keepdims=True), 1)

    def playouts(self, seeds):
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
            seeds = [int(seeds)]
        values = list(seeds)
        s = seeds_of(values, len(values))
        m = len(s)
        totals = np.zeros((m, self.players), np.int64)
        wins = np.zeros((m, self.players), np.int64)
        decisions = np.zeros(m, np.int64)
        KK.k_playouts(self.R, s, s ^ np.uint64(0x5DEECE66D), self.num_actions, totals, wins,
                      decisions)
        return {"scores": totals, "winners": wins != 0, "decisions": decisions}
