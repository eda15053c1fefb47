"""The batched Abluxxen simulator: many games stepped in one call, observations, legal-action
masks and rewards as NumPy arrays, with the codec's action ids and observation layout
(abluxxen/codec.py). Every rule set and player count the game declares.

    from cardtable.rl.batch import make_batch
    sim = make_batch("abluxxen", 1024, variant="basic", players=4)
    obs, mask = sim.reset(seed=0)       # game i is the engine's game of seed 0 + i
    while not sim.over.all():
        obs, mask, rewards, done = sim.step(sim.sample_actions())

`obs[i]` is the observation of `sim.seat[i]`: the seat to move in game i (`sim.to_move[i]`),
or in a game that is over the seat that made its last decision; `mask[i]` (int8) the legal ids
of the seat to move (zeros when over). `rewards` (games x players, float32) holds every seat's
final reward in the games that ended with this step (rl/common.py: "score" or "win"); `done` is
True for every game that is over. Games that are over ignore their action until `reset`
(`reset(seed, games=[...])` deals chosen games anew). An illegal action raises ValueError
before any game changes. The rules run compiled (numba; abluxxen/batch/rules.py) and follow the
engine clause by clause; tests/rl/test_batch_abluxxen.py replays seeded games through both.
"""

from __future__ import annotations

import numpy as np

from cardtable.abluxxen.codec import AbluxxenCodec
from cardtable.abluxxen.batch import kernels as K
from cardtable.abluxxen.batch import policies as P
from cardtable.abluxxen.batch import rules as L
from cardtable.rl.batch.common import (BotPlayouts, bot_levels, count_of, cut_episodes,
                                       game_numbers, seat_codes, seeds_of)
from cardtable.rl.common import MAX_LENGTH, check_max_length, make_config, truncated_reward

GAME = AbluxxenCodec.game


def rules_of(config) -> np.ndarray:
    """The rule array `R` of abluxxen/batch/rules.py for a configuration (rl/common.py), then
    every seat's compiled policy (policies.py R_BOTS; all random)."""
    rules = config.new_state(0).rules                # the engine's reading of variant + options
    return np.array([config.players, rules.optional_draw, rules.ones_beat_top, rules.duel,
                     rules.shadow_partial, rules.tiebreak_fewer_hand, rules.shadow_blocks_draw]
                    + [P.RANDOM] * L.SEATS, np.int64)


class AbluxxenBatch:
    """`num_games` games of one configuration (rl/common.py `make_config`: variant, players,
    options, reward); see the module docstring."""

    game = GAME
    #: the bot levels compiled into the simulator (policies.py), for `opponents`
    levels = tuple(P.LEVELS)

    def __init__(self, num_games: int, variant: str | None = None, players: int | None = None,
                 options: dict | None = None, reward: str = "score"):
        self.num_games = count_of(num_games)
        self.config = make_config(GAME, variant, players, options=options, reward=reward)
        self.players = self.config.players
        self.codec = AbluxxenCodec(self.players)
        self.num_actions = self.codec.num_actions
        self.obs_size = self.codec.obs_size
        self.R = rules_of(self.config)
        n = self.num_games
        self.state = np.zeros((n, L.ROW), np.int16)
        self.state[:, L.OVER] = 1                       # no game until reset
        self.state[:, L.TO_MOVE] = -1
        self.rng = np.zeros(n, np.uint64)               # the random opponents' generators
        self.sample_rng = np.zeros(n, np.uint64)        # sample_actions' generators
        self.seat = np.zeros(n, np.int64)
        self.seeds = np.zeros(n, np.uint64)

    # -- episodes ---------------------------------------------------------------------------
    def reset(self, seed=None, games=None) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game (or the games listed in `games`) anew; game t of the list gets the
        t-th seed (`seeds_of`): the engine's game of that seed (`new_game(..., seed=s)`),
        card for card. Also seeds `sample_actions`. Returns (obs, mask) of the dealt games
        (row t: game t of the list; every game without `games`)."""
        idx = np.arange(self.num_games) if games is None else self._games(games)
        seeds = seeds_of(seed, len(idx))
        self.seeds[idx] = seeds
        self.sample_rng[idx] = seeds ^ np.uint64(0x5DEECE66D)
        self.rng[idx] = seeds * np.uint64(0x2545F4914F6CDD1D) + np.uint64(0x632BE59BD9B4E019)
        obs = np.empty((len(idx), self.obs_size), np.float32)
        mask = np.empty((len(idx), self.num_actions), np.int8)
        K.k_reset(self.state, self.R, idx, seeds, obs, mask, self.seat)
        return obs, mask

    def _games(self, games) -> np.ndarray:
        return game_numbers(games, self.num_games)

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision in every game that is not over (see the module docstring); returns
        (obs, mask, rewards, done)."""
        actions = self._actions(actions)
        bad = K.k_first_illegal(self.state, self.R, actions)
        if bad >= 0:
            a = int(actions[bad])
            name = self.codec.describe(a) if 0 <= a < self.num_actions else "no action id"
            legal = np.flatnonzero(self.masks()[bad]).tolist()
            raise ValueError(f"game {bad}: action {a} ({name}) is not legal for seat "
                             f"{int(self.state[bad, L.TO_MOVE])}; legal: {legal}")
        obs = np.empty((self.num_games, self.obs_size), np.float32)
        mask = np.empty((self.num_games, self.num_actions), np.int8)
        ended = np.empty(self.num_games, np.bool_)
        K.k_step(self.state, self.R, actions, obs, mask, self.seat, ended)
        return obs, mask, self.final_rewards() * ended[:, None], self.over

    def abandon(self, games) -> None:
        """End the listed games without a result (a front end's answer to an illegal action:
        PettingZoo's TerminateIllegalWrapper convention): over, no scores, no winners."""
        idx = self._games(games)
        self.state[idx, L.OVER] = 1
        self.state[idx, L.ENDED] = 3
        self.state[idx, L.PHASE] = -1
        self.state[idx, L.TO_MOVE] = -1
        self.state[idx, L.SCORES:L.SCORES + L.SEATS] = 0
        self.state[idx, L.WIN:L.WIN + L.SEATS] = 0

    def _actions(self, actions) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_games,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_games} whole numbers (one per game), "
                             f"not an array of shape {a.shape} and type {a.dtype}")
        return a.astype(np.int64)

    # -- observing --------------------------------------------------------------------------
    def observe(self, seats=None) -> np.ndarray:
        """The observation of `seats` (one seat per game, or one seat for all; default
        `self.seat`) as (games x obs_size) float32: any seat's, e.g. every seat's at the end."""
        if seats is None:
            seats = self.seat
        s = np.broadcast_to(np.asarray(seats), (self.num_games,))
        if s.dtype.kind not in "iu" or (s < 0).any() or (s >= self.players).any():
            raise ValueError(f"seats are 0..{self.players - 1}")
        obs = np.empty((self.num_games, self.obs_size), np.float32)
        K.k_observe(self.state, self.R, s.astype(np.int64), obs)
        return obs

    def masks(self) -> np.ndarray:
        """The legal ids of the seat to move of every game (int8; zeros when over)."""
        mask = np.empty((self.num_games, self.num_actions), np.int8)
        K.k_masks(self.state, self.R, mask)
        return mask

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (-1 where over), from generators of
        their own (seeded by `reset` and `learner_reset`; the opponents' are apart, so
        sampling changes no game)."""
        out = np.empty(self.num_games, np.int64)
        K.k_sample(self.state, self.R, self.sample_rng, out)
        return out

    @property
    def to_move(self) -> np.ndarray:
        """The seat to move of every game (-1 where over)."""
        return self.state[:, L.TO_MOVE].astype(np.int64)

    @property
    def over(self) -> np.ndarray:
        return self.state[:, L.OVER] != 0

    @property
    def scores(self) -> np.ndarray:
        """Final scores (AB-17), games x players (0 where not over)."""
        return self.state[:, L.SCORES:L.SCORES + self.players].astype(np.int64)

    @property
    def winners(self) -> np.ndarray:
        """Winner flags (AB-18, CL-4), games x players (False where not over)."""
        return self.state[:, L.WIN:L.WIN + self.players] != 0

    def final_rewards(self) -> np.ndarray:
        """Every seat's final reward (rl/common.py: "score" or "win"), 0 where not over."""
        if self.config.reward == "score":
            return self.scores.astype(np.float32)
        w = self.winners.astype(np.float32)
        return w / np.maximum(w.sum(axis=1, keepdims=True), 1)

    # -- one learner against compiled players (the Gymnasium vector environment) -----------
    def set_opponents(self, opponents="random") -> None:
        """The policy of the seats the learner does not play: a level of `levels` for every
        seat, or a list of one per seat (rl/batch/common.py `bot_levels`; ConfigError for
        another). Takes effect at once, also in games under way."""
        codes = bot_levels(opponents, self.players, P.LEVELS, GAME)
        self.R[P.R_BOTS:P.R_BOTS + self.players] = codes

    def set_bots(self, bots) -> None:
        """Seats played inside the simulator by `play_bots`: a list of one entry per seat, a
        level of `levels` or None for a seat the caller plays (rl/batch/common.py `seat_codes`;
        ConfigError otherwise)."""
        self.R[P.R_BOTS:P.R_BOTS + self.players] = seat_codes(bots, self.players, P.LEVELS,
                                                              GAME, P.AGENT)

    def play_bots(self) -> np.ndarray:
        """The seats `set_bots` gave a level move (their random numbers from each game's own
        generator, seeded by `reset`) until a seat without one is to move or the game ends;
        returns the games that ended so."""
        ended = np.empty(self.num_games, np.bool_)
        P.k_play_bots(self.state, self.R, self.rng, ended)
        return ended

    def learner_reset(self, seed=None, seat: int | None = None,
                      max_length: int = MAX_LENGTH):
        """New games with one learning seat each (`seat`, or None: drawn per game) and random
        legal opponents, all from game i's generator (seeded from the t-th of `seeds_of`);
        the opponents move up to the learner's first decision. Returns (obs, mask, seats):
        the learner's observation and mask. Later games come from the same generators;
        `max_length` bounds each episode's learner steps (learner_step)."""
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
        K.k_vec_reset(self.state, self.R, self.seat, self._fixed, self.rng, obs, mask)
        return obs, mask, self.seat.copy()

    def learner_step(self, actions, illegal_reward: float = -1.0):
        """The learners' actions, then the opponents' up to each learner's next decision, with
        next-step autoreset (a game that ended at the previous step starts anew and ignores its
        action). An action outside the mask ends that episode with `illegal_reward`, its game
        unchanged. An episode still going after `max_length` learner steps (learner_reset) is
        truncated, as in the single-game environment: reward rl/common.py's
        `truncated_reward`, an empty mask, `self.truncated` True, a new game at the next step.
        Returns (obs, mask, reward, terminated, illegal, seats)."""
        if not hasattr(self, "_autoreset"):
            raise RuntimeError("call learner_reset before learner_step")
        actions = self._actions(actions)
        n = self.num_games
        obs = np.empty((n, self.obs_size), np.float32)
        mask = np.empty((n, self.num_actions), np.int8)
        reward = np.empty(n, np.float32)
        terminated = np.empty(n, np.bool_)
        illegal = np.empty(n, np.bool_)
        fresh = self._autoreset.copy()
        K.k_vec_step(self.state, self.R, actions, self.seat, self._fixed, self.rng,
                     int(self.config.reward == "win"), np.float32(illegal_reward),
                     self._autoreset, obs, mask, reward, terminated, illegal)
        self.truncated = cut_episodes(self._steps, fresh, terminated, reward, mask,
                                      self._autoreset, self._max_length,
                                      self._cut_reward)
        return obs, mask, reward, terminated, illegal, self.seat.copy()

    # -- whole games ------------------------------------------------------------------------
    def bot_playouts(self, seeds, bots="easy", bot_seeds=None,
                     trace: int = 0) -> dict[str, np.ndarray]:
        """Whole games of compiled bots (`bots`: a level of `levels`, or one per seat), one per
        seed, compiled end to end: {"scores", "winners", "decisions"} and, with `trace` > 0,
        "actions" (games x trace: each game's first `trace` action ids, -1 after its end).
        With `bot_seeds` (games x players whole numbers) seat s of game t draws its random
        numbers as the engine's `make_bot(level, seed=bot_seeds[t][s])` does, so game t is
        the engine's game of those bots decision for decision (policies.py); without, from a
        fast generator per game. The batch's own games and opponents are untouched."""
        b = BotPlayouts(self, seeds, bots, bot_seeds, trace, P.LEVELS, P.R_BOTS, K.MT_WORDS)
        P.k_bot_playouts(b.R, b.seeds, b.chosen, b.sample, b.mts, b.scores, b.wins,
                         b.decisions, b.actions)
        return b.result()

    def playouts(self, seeds) -> dict[str, np.ndarray]:
        """Whole games of random legal play, one per seed (of any number; `seeds_of` reads an
        int as one seed), compiled end to end: {"scores", "winners", "decisions"}. The batch's
        own games are untouched."""
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
            seeds = [int(seeds)]
        values = list(seeds)
        seeds = seeds_of(values, len(values))
        m = len(seeds)
        scores = np.zeros((m, self.players), np.int64)
        wins = np.zeros((m, self.players), np.int64)
        decisions = np.zeros(m, np.int64)
        K.k_playouts(self.R, seeds, seeds ^ np.uint64(0x5DEECE66D), scores, wins, decisions)
        return {"scores": scores, "winners": wins != 0, "decisions": decisions}
