"""PettingZoo's parallel interface on the batched simulator: every seat an agent, all of them
observed at every step.

    from cardtable.rl.batch.parallel import BatchParallelEnv, parallel_env
    env = parallel_env("abluxxen", variant="duel", players=2)     # one game: a ParallelEnv
    obs, infos = env.reset(seed=3)
    while env.agents:
        actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, terminations, truncations, infos = env.step(actions)

A card game is turn-based, so a step applies the action of the one agent to move (the one with
a non-zero `action_mask`; AB-21) and ignores the others' (pass anything, e.g. 0): PettingZoo's
"parallel-ish" reading of an AEC game (its `turn_based_aec_to_parallel` does the same). Agents
are "player_0" .. "player_{n-1}" (seats); observations {"observation", "action_mask"} are the
codec's, each from that seat's own view; rewards are 0 until the game ends, then every seat's
final reward, and every agent terminates; a game still going after `max_length` player actions
(default 5000) is cut: every agent truncated (not terminated) with `truncated_reward`, the worst
reward a finished game can give (rl/common.py). An action outside the mover's mask ends its game
with `illegal_reward` (default -1) for the mover and 0 for the others, as PettingZoo's
TerminateIllegalWrapper does for the AEC environments. `parallel_env` is a `pettingzoo.ParallelEnv` of one
game (PettingZoo's `parallel_api_test` and `parallel_seed_test` pass on it).

`opponents` (both classes; default None: every seat an agent) is what the vector env takes
(rl/batch/vector.py, rl/batch/pool.py) with the parallel env's own seats: a list of one entry
per seat, where None marks an agent's seat and an entry is a bot level the simulator has
compiled (`sim.levels`, e.g. "random", "easy": a game's batch/policies.py) or a frozen policy,
a callable `f(obs, mask) -> actions`; or one level, one callable or an `OpponentPool` for every
seat but `agent_seats` (e.g. `opponents=OpponentPool(["easy", snapshot]), agent_seats=[0]`),
where one pool member is drawn per game at each deal, from the env's generator (seeded by
`reset(seed=...)`, so a seed replays the same games), and plays every seat that is not an
agent's; members added to the pool take part from the next deals. Only the agents' seats are
agents (their names keep the seat number). Compiled levels move inside the simulator between
the agents' moves; where a policy's seat is to move, the env asks the policy for all the
games where that seat is to move at once (rows of obs and mask, as the vector env gives them)
and repeats until every game is at an agent's seat or over (an illegal answer raises
ValueError naming the policy and its seat). The opponents' moves do not count towards
`max_length`. ConfigError for a list of the wrong length, no agent's seat, an entry that is
neither a level, a callable nor None, a level the simulator has not compiled, or a level,
callable or pool without `agent_seats`.

`BatchParallelEnv(game, num_games, ...)` is the same for many games at once, each value an
array over the games (observations (games x obs_size), masks, rewards, terminations), with
next-step autoreset: a game that ended at the previous step is dealt anew (its actions ignored);
the agents stay.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.rl import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.core.errors import ConfigError
from cardtable.rl.batch import make_batch
from cardtable.rl.batch.common import seeds_of
from cardtable.rl.batch.pool import OpponentPool, advance, check_lineups
from cardtable.rl.common import MAX_LENGTH, check_max_length, default_game, truncated_reward


class _Agents:
    """Agents, spaces and the per-seat observations shared by both classes."""

    def _setup(self, game: str | None, num_games: int, config: dict, max_length: int,
               opponents=None, agent_seats=None) -> None:
        self.sim = make_batch(default_game() if game is None else game, num_games, **config)
        self.max_length = check_max_length(max_length)
        self.truncated_reward = truncated_reward(self.sim.config)
        self._steps = np.zeros(self.sim.num_games, np.int64)    # player actions per game
        codec = self.sim.codec
        self.opponents = None if opponents is None else \
            list(opponents) if isinstance(opponents, (list, tuple)) else opponents
        agents, self._lineups, self._pool = _lineups(self.sim, opponents, agent_seats)
        self._mode = None                       # every seat an agent
        if self._lineups is not None and self._pool is None \
                and not any(callable(e) for e in self._lineups[0]):
            self._mode = "compiled"             # levels inside the simulator (play_bots)
            self.sim.set_bots(self._lineups[0])
        elif self._lineups is not None:
            self._mode = "python"               # policies or a pool (rl/batch/pool.py)
        self._member = np.zeros(self.sim.num_games, np.int64)   # each game's lineup
        self.possible_agents = [f"player_{s}" for s in agents]
        self._seat_of = {a: int(a.rsplit("_", 1)[1]) for a in self.possible_agents}
        self.agents: list[str] = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(codec.obs_low, codec.obs_high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(codec.num_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(codec.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _observe_all(self, mask: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
        """Every seat's observation; the mask for the seat to move, zeros for the others."""
        to_move = self.sim.to_move
        out = {}
        for agent, s in self._seat_of.items():
            mine = (to_move == s)[:, None]
            out[agent] = {"observation": self.sim.observe(s),
                          "action_mask": np.where(mine, mask, 0).astype(np.int8)}
        return out

    def _actions(self, actions: dict) -> np.ndarray:
        """The action of the agent to move in each game (others ignored; -1 where that agent
        gave none)."""
        to_move = self.sim.to_move
        out = np.full(self.sim.num_games, -1, np.int64)
        for agent, s in self._seat_of.items():
            if agent in actions:
                a = np.broadcast_to(np.asarray(actions[agent]), (self.sim.num_games,))
                out = np.where(to_move == s, a, out)
        return out

    def _apply(self, acts: np.ndarray):
        """Step the games; an action outside the mover's mask (or none) ends its game with
        `illegal_reward` for the mover and 0 for the others (PettingZoo's
        TerminateIllegalWrapper convention); a game still going after `max_length` player
        actions (the agents'; the opponents' moves are not counted) is
        cut: abandoned, every seat `truncated_reward`, its mask empty (rl/common.py).
        Returns (mask, rewards, done, cut)."""
        sim = self.sim
        live = ~sim.over
        self._steps[live] += 1
        legal = np.zeros(sim.num_games, np.bool_)
        ok = live & (acts >= 0) & (acts < sim.num_actions)
        legal[ok] = self._mask[np.flatnonzero(ok), acts[ok]] != 0
        bad = np.flatnonzero(live & ~legal)
        movers = sim.to_move[bad]
        if len(bad):
            sim.abandon(bad)
        _, mask, rewards, done = sim.step(np.where(legal, acts, 0))
        rewards[bad] = 0.0
        rewards[bad, movers] = self.illegal_reward
        if self._mode == "compiled":            # the bots move up to an agent's turn
            ended = sim.play_bots()
            rewards[ended] = sim.final_rewards()[ended]
            mask, done = sim.masks(), sim.over.copy()
        elif self._mode == "python":            # the opponents move up to an agent's turn
            live = np.flatnonzero(~sim.over)
            advance(sim, live, self._member, self._lineups.__getitem__)
            ended = live[sim.over[live]]
            rewards[ended] = sim.final_rewards()[ended]
            mask, done = sim.masks(), sim.over.copy()
        cut = ~done & (self._steps >= self.max_length)
        if cut.any():
            sim.abandon(np.flatnonzero(cut))
            rewards[cut] = self.truncated_reward
            mask[cut] = 0
        return mask, rewards, done, cut

    def _deal(self, seed, rng: np.random.Generator, games=None):
        """Deal (all games or `games`), draw each dealt game's pool member from `rng`, then let
        the opponents move up to an agent's turn; the masks of the dealt games."""
        mask = self.sim.reset(seed=seed, games=games)[1]
        if self._mode is None:
            return mask
        idx = np.arange(self.sim.num_games) if games is None else np.asarray(games, np.int64)
        if self._mode == "compiled":
            self.sim.play_bots()
        else:
            if self._pool is not None:
                if len(self._pool) != len(self._lineups):        # members added since
                    self._lineups = _pool_lineups(self.sim, self._pool, self._agent_seats())
                self._member[idx] = rng.integers(0, len(self._lineups), size=len(idx))
            advance(self.sim, idx, self._member, self._lineups.__getitem__)
        every = self.sim.masks()
        return every if games is None else every[games]

    def _agent_seats(self) -> list[int]:
        return sorted(self._seat_of.values())


def _lineups(sim, opponents, agent_seats):
    """(the agents' seats, the opponents' lineups or None, the pool or None) of `opponents`
    and `agent_seats` (see the module docstring); ConfigError for anything else."""
    n = sim.players
    if opponents is None:
        if agent_seats is not None:
            raise ConfigError("agent_seats: without opponents every seat is an agent's; give "
                              "opponents= (a level, a callable or an OpponentPool) too")
        return list(range(n)), None, None
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n:
            raise ConfigError(f"opponents must be a list of {n} entries (one per seat: a "
                              "level, a callable f(obs, mask) -> actions, or None for an "
                              f"agent's seat), not {opponents!r}")
        if agent_seats is not None:
            raise ConfigError("agent_seats: a list of opponents marks the agents' seats "
                              "itself (None); give one or the other")
        lineup = check_lineups(sim, [list(opponents)], agents=True)[0]
        agents = [s for s, e in enumerate(lineup) if e is None]
        if not agents:
            raise ConfigError("opponents: at least one seat must be an agent's (None)")
        return agents, [lineup], None
    if not (isinstance(opponents, (str, OpponentPool)) or callable(opponents)):
        raise ConfigError(f"opponents must be None, a list of {n} (one per seat), a level "
                          "name, a callable f(obs, mask) -> actions or an OpponentPool, "
                          f"not {opponents!r}")
    seats = _checked_seats(agent_seats, n, opponents)
    if isinstance(opponents, OpponentPool):
        if len(opponents) == 0:
            raise ConfigError("opponents: the opponent pool is empty")
        return seats, _pool_lineups(sim, opponents, seats), opponents
    lineup = [None if s in seats else opponents for s in range(n)]
    return seats, check_lineups(sim, [lineup], agents=True), None


def _checked_seats(agent_seats, n: int, opponents) -> list[int]:
    """`agent_seats` as a sorted list of distinct seats 0..n-1, some but not all, else
    ConfigError."""
    if agent_seats is None:
        raise ConfigError(f"opponents={opponents!r} plays the seats that are not the agents': "
                          "name the agents' seats with agent_seats=[...]")
    seats = list(agent_seats) if isinstance(agent_seats, (list, tuple)) else None
    if seats is None or not seats or any(
            isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < n
            for s in seats) or len(set(seats)) != len(seats):
        raise ConfigError(f"agent_seats must be a list of distinct seats 0..{n - 1}, not "
                          f"{agent_seats!r}")
    if len(seats) == n:
        raise ConfigError(f"agent_seats: all {n} seats are agents'; the opponents would "
                          "play none (leave opponents None for that)")
    return sorted(int(s) for s in seats)


def _pool_lineups(sim, pool: OpponentPool, agents: list[int]) -> list[list]:
    """One lineup per member of `pool`: the member at every seat but the agents'."""
    return check_lineups(sim, [[None if s in agents else m for s in range(sim.players)]
                               for m in pool], agents=True)


class parallel_env(_Agents, ParallelEnv):
    """One game as a `pettingzoo.ParallelEnv` (see the module docstring)."""

    metadata = {"render_modes": [], "name": "cardtable_batch_v0", "is_parallelizable": True}

    def __init__(self, game: str | None = None, seed: int | None = None,
                 illegal_reward: float = -1.0, max_length: int = MAX_LENGTH,
                 opponents: Any = None, agent_seats: list[int] | None = None,
                 **config: Any):
        self._setup(game, 1, config, max_length, opponents, agent_seats)
        self.illegal_reward = float(illegal_reward)
        self.metadata = {**self.metadata, "name": f"cardtable_{self.sim.config.label}_batch_v0"}
        self._rng = np.random.default_rng(seed)
        self.render_mode = None

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        mask = self._deal([int(self._rng.integers(0, 2**62))], self._rng)
        self._mask = mask
        self._steps[:] = 0
        self.agents = self.possible_agents[:]
        return self._unbatch(self._observe_all(mask)), {a: {} for a in self.agents}

    def step(self, actions: dict):
        agents = self.agents
        if not agents:
            raise RuntimeError("the game is over: call reset")
        mask, rewards, done, cut = self._apply(self._actions(actions))
        self._mask = mask
        obs = self._unbatch(self._observe_all(mask))
        over = bool(done[0]) or bool(cut[0])
        rew = {a: float(rewards[0, self._seat_of[a]]) for a in agents}
        terms = {a: bool(done[0]) for a in agents}
        truncs = {a: bool(cut[0]) for a in agents}
        infos = {a: {} for a in agents}
        if over:
            self.agents = []
        return ({a: obs[a] for a in agents}, rew, terms, truncs, infos)

    @staticmethod
    def _unbatch(obs: dict) -> dict:
        return {a: {k: v[0] for k, v in o.items()} for a, o in obs.items()}

    def state(self):
        raise NotImplementedError("a card game's global state is every hidden card: observe "
                                  "the seats (the engine's full view is not an observation)")

    def close(self) -> None:
        pass


class BatchParallelEnv(_Agents):
    """`num_games` games with PettingZoo's parallel interface over arrays (see the module
    docstring). Not a `ParallelEnv` subclass: its values are arrays over the games."""

    metadata = {"render_modes": [], "name": "cardtable_batch_v0", "is_parallelizable": True,
                "autoreset": "next-step"}

    def __init__(self, game: str | None = None, num_games: int = 1,
                 illegal_reward: float = -1.0, max_length: int = MAX_LENGTH,
                 opponents: Any = None, agent_seats: list[int] | None = None,
                 **config: Any):
        self._setup(game, num_games, config, max_length, opponents, agent_seats)
        self.illegal_reward = float(illegal_reward)
        self.num_games = self.sim.num_games
        self._restart = np.zeros(self.num_games, np.bool_)
        self._next_seed = 0

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Deal every game: game i from `seed + i` (the engine's game of that seed); later
        games continue from seed + num_games (None: random seeds)."""
        self._draws = np.random.default_rng(      # the pool's members: seeded as the deals
            None if seed is None else [int(s) for s in seeds_of(seed, self.num_games)])
        mask = self._deal(seed, self._draws)
        self._mask = mask
        self._next_seed = None if seed is None else int(seed) + self.num_games
        self._restart[:] = False
        self._steps[:] = 0
        self.agents = self.possible_agents[:]
        return self._observe_all(mask), {a: {} for a in self.agents}

    def step(self, actions: dict):
        if not self.agents:
            raise RuntimeError("call reset before step")
        restart = np.flatnonzero(self._restart)
        mask, rewards, done, cut = self._apply(self._actions(actions))
        if len(restart):
            seeds = None
            if self._next_seed is not None:
                seeds = self._next_seed
                self._next_seed += len(restart)
            mask[restart] = self._deal(seeds, self._draws, restart)
            rewards[restart] = 0
            self._steps[restart] = 0
            done = self.sim.over & ~cut
        self._restart = done | cut
        self._mask = mask
        obs = self._observe_all(mask)
        rew = {a: rewards[:, s] for a, s in self._seat_of.items()}
        terms = {a: done.copy() for a in self.agents}
        truncs = {a: cut.copy() for a in self.agents}
        return obs, rew, terms, truncs, {a: {} for a in self.agents}

    def sample_actions(self) -> dict[str, np.ndarray]:
        """A random legal action per game for the agent to move (0 for the others)."""
        a = np.maximum(self.sim.sample_actions(), 0)
        to_move = self.sim.to_move
        return {agent: np.where(to_move == s, a, 0) for agent, s in self._seat_of.items()}
