"""PettingZoo AEC environments for every Abluxxen rule set and Kombio.

    from cardtable.rl.pettingzoo import env
    e = env(game="abluxxen", variant="duel", players=2, seed=7)   # game: default the first
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are "player_0" .. "player_{n-1}" (engine seats 0..n-1; seat 0 starts). The agent to act
is the engine's `to_move` (AB-21: also an attacker deciding take/leave, a victim deciding
keep/discard; Kombio: each seat of a snap window in turn, its answer hidden from the others
until the window closes).

Observation of an agent: {"observation": float32 tensor, "action_mask": int8 vector}, made from
that seat's view only (`state.view(seat)`). The mask of an agent that is not to act is all
zeros. `infos[agent]` of the agent to act holds its JSON view (`"view"`, NOTATION.md) with its
legal decision texts. The ids and the tensor, in short (rl/codec.py has every offset):

Abluxxen actions (653, every rule set and player count):
    0..623    play v (1..13) with k (1..8) cards of v and j (0..5) jokers: (v-1)*48 + (k-1)*6 + j
    624..628  play j jokers alone (j 1..5)         629..640  shadow v (v 1..12, DU-4)
    641..646  take, leave, keep, discard, pass, draw deck
    647..652  draw pool position 0..5 (the first position of equal items only)
Abluxxen observation (319): 5 seat blocks of 36 from the viewer on (hand size, display layers
    and cards, top two layers one-hot with sizes, active, to move), own hand counts (14),
    pool (6 x 14 counts), deck and discard sizes, duel shadow counts (12), pending abluxxed
    cards with the victim (20), draws owed, awaiting one-hot (6).
Kombio actions (players n, K = max_cards cards per grid, P = n*K positions; a card is
    (seat relative to the decider, rank among that grid's occupied slots)):
    0..8 draw, discard, kombio, skip, keep, swap, pass, hand-over, penalty; then replace, take,
    give own card c (3 x K); peek, snap, swap position (3 x P); peek pair, swap pair
    (2 x P(P-1)/2).
Kombio observation: per seat and card (n x K x 18: unseen, value one-hot -1..14, peeked), per
    seat (n x 6: cards, caller, active, to move, round start, total/target), drawn card, top
    discard card and whether it was snapped, deck and discard sizes, awaiting, action card,
    turns left, snap answers so far, the last snap's result.

Rewards: 0 until the game ends, then the final reward of every seat (`reward="score"`: Abluxxen
final score, Kombio minus the final total; `reward="win"`: the share of the win), and every
agent is terminated. A game still going after `max_length` player actions (default 5000) is cut:
every agent is truncated (not terminated) with `truncated_reward`, the worst reward a finished
game can give ("score": Abluxxen -109, Kombio -(target + 500); "win": 0; rl/common.py). `env(...)` wraps the raw environment in PettingZoo's usual wrappers:
an illegal action ends the game with `illegal_reward` (-1) for its agent
(TerminateIllegalWrapper), actions are checked against the space, calls in order.

Seeding: `seed` (constructor) seeds the environment's generator; `reset(seed=s)` re-seeds it.
Each game's deal seed is drawn from that generator and never shown to an agent.
`render_mode="ansi"`: `render()` returns the terminal front end's picture of the table, seen by
`render_seat` (default None: every card — for people watching, never hand it to an agent);
`render_mode="human"` prints that picture to stdout after every reset and step (and on
`render()`), as PettingZoo's classic environments do.
The engine's game state is `env.unwrapped.game`; `state()` is PettingZoo's global-state method,
which this environment does not provide (it raises NotImplementedError, PettingZoo's answer
for an environment without `state_space`): a card game's global state is every hidden card.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardtable.rl import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.rl.codec import make_codec
from cardtable.rl.common import (MAX_LENGTH, check_max_length, make_config, render_ansi,
                                 rewards, truncated_reward)


class raw_env(AECEnv):
    """The environment without wrappers (see the module docstring; `env()` wraps it)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1, "name": "cardtable_v0",
                "is_parallelizable": False}

    def __init__(self, game: str | None = None, variant: str | None = None,
                 players: int | None = None, seed: int | None = None, target: int = 100,
                 options: dict | None = None, max_cards: int = 12, reward: str = "score",
                 render_mode: str | None = None, render_seat: int | None = None,
                 max_length: int = MAX_LENGTH):
        super().__init__()
        self.config = make_config(game, variant, players, target, options, max_cards, reward)
        self.max_length = check_max_length(max_length)
        self.truncated_reward = truncated_reward(self.config)
        if render_mode not in (None, "ansi", "human"):
            from cardtable.core.errors import ConfigError
            raise ConfigError(f"unknown render_mode {render_mode!r} (ansi, human or None)")
        self.render_mode = render_mode
        self.render_seat = render_seat
        n = self.config.players
        self.codec = make_codec(self.config.game, n, max_cards=max_cards, target=target)
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.codec.obs_low, self.codec.obs_high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.codec.num_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(self.codec.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {**self.metadata, "name": f"cardtable_{self.config.label}_v0"}
        self._rng = random.Random(seed)
        self.game = None                  # the engine's GameState (not `state`: PettingZoo's method)
        self.steps = 0
        self._legal: dict[int, Any] = {}
        self._view: dict | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = self.config.new_state(self._rng.getrandbits(62))
        self.steps = 0                    # player actions so far (max_length cuts the game)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self._next()
        if self.render_mode == "human":
            self.render()

    def _next(self) -> None:
        """Point at the seat to move and prepare its view, legal ids and info."""
        st = self.game
        self.infos = {a: {} for a in self.agents}
        if st.over or self.cut:
            self._view, self._legal = None, {}
            return
        seat = st.to_move
        self.agent_selection = self.possible_agents[seat]
        self._view = st.view(seat)
        self._legal = self.codec.legal(st, self._view)
        self.infos[self.agent_selection] = {"view": self._view}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self._legal.get(int(action))
        if decision is None:
            raise ValueError(f"action {action} ({self.codec.describe(int(action))}) is not "
                             f"legal for {agent}; legal: {sorted(self._legal)}")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(decision)
        self.steps += 1
        if self.game.over:
            final = rewards(self.config, self.game)
            for a in self.agents:
                self.rewards[a] = final[self.agent_seat[a]]
                self.terminations[a] = True
        elif self.cut:                              # max_length: truncated (rl/common.py)
            for a in self.agents:
                self.rewards[a] = self.truncated_reward
                self.truncations[a] = True
        self._next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- observing ----------------------------------------------------------------------------
    def observe(self, agent):
        seat = self.agent_seat[agent]
        st = self.game
        mask = np.zeros(self.codec.num_actions, np.int8)
        if not st.over and not self.cut and seat == st.to_move:
            view = self._view
            mask[list(self._legal)] = 1
        else:
            view = st.view(seat)
        return {"observation": self.codec.encode(view), "action_mask": mask}

    @property
    def cut(self) -> bool:
        """The game reached max_length without ending (truncated)."""
        return self.steps >= self.max_length and not self.game.over

    def view(self, agent) -> dict:
        """The JSON view (NOTATION.md) of `agent`'s seat: what it may know, nothing more."""
        return self.game.view(self.agent_seat[agent])

    def legal_texts(self) -> dict[int, str]:
        """{action id: decision text} of the agent to act (empty when the game is over)."""
        return {i: d.text for i, d in self._legal.items()}

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without render_mode: env(render_mode='ansi')")
            return None
        text = render_ansi(self.game, self.render_seat)
        if self.render_mode == "human":                 # PettingZoo's classic envs: print it
            print(text, end="", flush=True)
            return None
        return text

    def close(self) -> None:
        pass


def env(illegal_reward: float = -1.0, **kwargs) -> AECEnv:
    """The wrapped environment (PettingZoo's conventions for classic games)."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
