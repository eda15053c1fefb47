"""OpenSpiel games: `import cardtable.rl.openspiel` registers `python_cardtable_abluxxen` and
`python_cardtable_kombio` with pyspiel.

    import pyspiel, cardtable.rl.openspiel
    game = pyspiel.load_game("python_cardtable_abluxxen", {"variant": "duel", "players": 2})
    state = game.new_initial_state()          # a chance node: the deal
    state.apply_action(1234)                  # deal number 1234 of game.max_chance_outcomes()
    state.legal_actions(), state.observation_string(), state.information_state_tensor()

Parameters (all optional): `players`; Abluxxen `variant` (basic, advanced, expert, duel,
classic) and `options` (rule options as text, e.g. "shadow_partial:true", several joined by ";"; the
older "shadow_partial=true" is accepted and stored in the first form, since `=` and `,` are
OpenSpiel's own separators in a game's string); Kombio `target`
(100) and `max_cards` (12, the codec's card cap); both `reward` ("win": each of k winners gets
1/k, constant sum 1; "score": Abluxxen final score, Kombio minus the final total, general sum),
`deals` (65536) and `seed` (0).

## Chance

The engines draw every random event (the deal, Kombio's later deals, KO-10 snap draws and KO-14
reshuffles) from one seeded generator inside the game state. The OpenSpiel game makes that
explicit with ONE chance node at the root: chance picks one of `deals` equally likely outcomes
i, and the engine game is created with the seed derived from (`seed`, i). Everything after it is
a deterministic function of i and the players' actions, so a game replays from its history
([i, a1, a2, ...]) on every machine: it is the extensive-form game "one of `deals` possible
shuffles of the whole game's randomness, unknown to every player". No player observes i: every
observation and information state comes from the seat's view (rl/codec.py), which is invariant
under re-dealing what the seat cannot see (tests/rl/test_no_leak.py).

## Information state, observation

- observation string: the seat's JSON view (NOTATION.md); observation tensor: the codec's
  tensor (rl/codec.py documents the layout).
- information state string: perfect recall. It is `seat P | recall DIGEST | <observation>`,
  where DIGEST is a running BLAKE2 hash of every player action (actor and action id: every
  decision is public, NOTATION.md names no hidden card; chance's deal is not hashed) and every
  observation string the seat has had since the deal (one per action), so two histories share
  it exactly when the seat saw the same sequence of actions and observations. (Before 2026-11-27
  only the observations were hashed: a public action that left no trace in the view, such as
  which card a Kombio player peeked at, was forgotten.)
  Hashes are kept once a state (or its ancestor) has been asked for one; the first request
  replays the history.
- information state tensor: perfect recall, in three parts (`dict` of the perfect-recall
  observer holds them by name):
  `observation` (the observation tensor, obs_size entries), `history` (the last
  HISTORY = 64 player actions, newest first; each is the actor's seat counted from the
  observing seat, one-hot over the players, then the action id in binary, ceil(log2(number of
  actions)) bits; all zero before the game has that many actions; every decision is public
  (NOTATION.md names no hidden card), so the actions of others are no leak) and `recall` (the 80
  bits of a BLAKE2 hash of the recall digest above). The first two give learners the position and its recent
  history as features; the digest separates what a window cannot: two histories that differ
  only far back, or only in what the seat saw privately (a card drawn from the deck, a Kombio
  peek). So two different information states get different tensors (a shared tensor needs a
  BLAKE2 collision of 80 bits); tests/rl/test_openspiel.py checks it on sampled games.
- `resample_from_infostate(player, sampler)` (ISMCTS): the engine's `determinize(player)` with
  a seed drawn from the sampler, so every hidden card is re-dealt consistently with the seat's
  view. The sampled state keeps the original's `history()`: use it for search only.

## Game length

The rules bound no game's length (Abluxxen sets can be taken back and forth, a Kombio round
lasts until someone calls Kombio), and OpenSpiel wants a bound. The parameter `max_length`
(default MAX_LENGTH = 5000 player actions) is one: a game that reaches it without ending is
terminal, like a time limit in Gymnasium. With reward "score" every seat then gets the worst
reward a finished game can give (the codec's lower bound: Abluxxen -109, Kombio -(target +
500); rl/common.py `truncated_reward`), so stalling never pays. With reward "win" the game is
constant-sum (every terminal state shares 1), so a cut game stays a draw (1/n each): for
self-play that must not learn to stall, use reward "score" or a `max_length` no game reaches. It is a research setting, not a rule: the engines, the server and the bots never cut
a game. In 5,000 random-play games of every configuration the longest took 717 actions (Kombio, 6
players, target 100) (see
docs/research.md), so the default never cuts a game played by the rules' own pace; raise it for
long Kombio targets. `max_game_length()` is `max_length`; the one chance node comes before.

Decision points, action ids and the card cap: rl/codec.py. `action_to_string` gives the
notation text (NOTATION.md) of a legal action, else the id's description.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from cardtable.rl import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.core.errors import ConfigError
from cardtable.core.registry import games, info
from cardtable.rl.codec import make_codec
from cardtable.rl.common import MAX_LENGTH, env_name, make_config, rewards, truncated_reward

DEALS = 1 << 16
HISTORY = 64            # player actions in the information-state tensor's history window
RECALL_BITS = 80        # the recall digest's bits in the information-state tensor


def deal_seed(seed: int, outcome: int) -> int:
    """The engine seed of chance outcome `outcome` (stable on every machine)."""
    digest = hashlib.blake2b(f"cardtable-openspiel/{seed}/{outcome}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") & ((1 << 62) - 1)


def _parse_options(text: str) -> dict:
    """Rule options from their text: `NAME:true|false` joined by `;` (the form a game's string
    carries; `=` and `,` are OpenSpiel's own separators in `load_game(str(game))`), or the
    older `NAME=true|false` joined by `,`, still accepted and turned into the first form."""
    out = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        key, sep, value = part.replace("=", ":").partition(":")
        if not sep or value.strip().lower() not in ("true", "false"):
            raise ConfigError(f"options: expected NAME:true|false, not {part!r}")
        out[key.strip()] = value.strip().lower() == "true"
    return out


def options_text(options: dict) -> str:
    """The canonical text of rule options, e.g. "shadow_partial:true" ("" for none)."""
    return ";".join(f"{k}:{str(bool(v)).lower()}" for k, v in sorted(options.items()))


def _params(game: str) -> dict:
    """The OpenSpiel parameters of a registered game, read from its declaration: players, the
    variant and rule options of a game that has them (options as text), its settings (e.g.
    Kombio's target), its codec's settings (e.g. max_cards), and reward, deals, seed."""
    decl = info(game)
    out: dict = {}
    if len(decl.variants) > 1:
        out["variant"] = decl.default_variant
    out["players"] = decl.variant().default_players
    if len(decl.variants) > 1 and decl.options:
        out["options"] = ""
    for o in decl.settings:
        out[o.name] = o.default
    codec = decl.load("codec")
    out.update(getattr(codec, "SETTINGS", {}))
    return {**out, "reward": "win", "deals": DEALS, "seed": 0, "max_length": MAX_LENGTH}


def _game_type(game: str) -> pyspiel.GameType:
    decl = info(game)
    return pyspiel.GameType(
        short_name=f"python_cardtable_{game}",
        long_name=f"cardtable {decl.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # the default reward "win" is constant-sum (1 shared by the winners); a game loaded with
        # reward "score" says GENERAL_SUM (CardtableGame), so a loaded game's type always
        # matches its GameInfo.utility_sum
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=decl.max_players,
        min_num_players=decl.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(game))


#: game name -> its OpenSpiel game type (filled by `register`)
_TYPES: dict[str, pyspiel.GameType] = {}


class CardtableGame(pyspiel.Game):
    """A cardtable game in OpenSpiel (see the module docstring)."""

    GAME = ""

    def __init__(self, params=None):
        params = dict(params or {})
        if "options" in params:                 # one canonical text: the game's string reloads
            params["options"] = options_text(_parse_options(params["options"]))
        setup = _Setup(self.GAME, params)
        config = setup.config
        if config.reward == "win":
            lo, hi, total = 0.0, 1.0, 1.0
        else:                                 # the final reward's range, from the codec
            lo, hi = setup.codec.reward_range()
            total = None
        game_info = pyspiel.GameInfo(
            num_distinct_actions=setup.codec.num_actions, max_chance_outcomes=setup.deals,
            num_players=config.players, min_utility=lo, max_utility=hi, utility_sum=total,
            max_game_length=setup.max_length)
        game_type = _TYPES[self.GAME]
        if total is None:
            game_type = pyspiel.GameType(**{**_type_kwargs(game_type),
                                            "utility": pyspiel.GameType.Utility.GENERAL_SUM})
        super().__init__(game_type, game_info, params)
        _SETUPS[str(self)] = setup

    def new_initial_state(self):
        return CardtableState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return CardtableObserver(setup_of(self), perfect)


def _type_kwargs(t: pyspiel.GameType) -> dict:
    return {k: getattr(t, k) for k in (
        "short_name", "long_name", "dynamics", "chance_mode", "information", "utility",
        "reward_model", "max_num_players", "min_num_players",
        "provides_information_state_string", "provides_information_state_tensor",
        "provides_observation_string", "provides_observation_tensor",
        "parameter_specification")}


class _Setup:
    """A game's checked configuration, codec, number of deals and seed. Kept by the game's
    string (`_SETUPS`): pyspiel may hand a state a game object without its Python attributes,
    so states and observers look their setup up here."""

    def __init__(self, game: str, params: dict):
        p = {**_TYPES[game].parameter_specification, **params}
        self.config = make_config(game, p.get("variant"), p["players"], p.get("target", 100),
                                  options=_parse_options(p.get("options", "")),
                                  max_cards=p.get("max_cards", 12), reward=p["reward"])
        self.deals = int(p["deals"])
        if self.deals < 1:
            raise ConfigError(f"deals must be at least 1, not {self.deals}")
        self.seed = int(p["seed"])
        self.max_length = int(p["max_length"])
        if self.max_length < 1:
            raise ConfigError(f"max_length must be at least 1, not {self.max_length}")
        self.codec = make_codec(game, self.config.players, max_cards=self.config.max_cards,
                                target=self.config.target)
        self.players = self.config.players
        self.truncated_reward = truncated_reward(self.config)


_SETUPS: dict[str, _Setup] = {}


def setup_of(game) -> _Setup:
    key = str(game)
    setup = _SETUPS.get(key)
    if setup is None:
        short = game.get_type().short_name.removeprefix("python_cardtable_")
        setup = _SETUPS[key] = _Setup(short, dict(game.get_parameters()))
    return setup


class _Engine:
    """The Python side of a state: the engine game, the legal ids of the seat to move and the
    recall digests. Its own `__deepcopy__` makes `State.clone()` an engine `copy()`."""

    __slots__ = ("engine", "legal", "chains", "steps")

    def __init__(self, engine=None, chains=None, steps=0):
        self.engine = engine
        self.legal = None
        self.chains = chains
        self.steps = steps              # player actions so far (max_length cuts the game)

    def __deepcopy__(self, memo):
        return _Engine(None if self.engine is None else self.engine.copy(), self.chains,
                       self.steps)


class CardtableState(pyspiel.State):
    def __init__(self, game: CardtableGame):
        super().__init__(game)
        self._game = setup_of(game)
        self._e = _Engine()

    # -- whose turn ---------------------------------------------------------------------------
    def current_player(self):
        eng = self._e.engine
        if eng is None:
            return pyspiel.PlayerId.CHANCE
        if eng.over or self._cut():
            return pyspiel.PlayerId.TERMINAL
        return eng.to_move

    def _cut(self) -> bool:
        """Reached max_length without ending: terminal (module docstring)."""
        return self._e.steps >= self._game.max_length

    def is_terminal(self):
        eng = self._e.engine
        return eng is not None and (eng.over or self._cut())

    def chance_outcomes(self):
        p = 1.0 / self._game.deals
        return [(i, p) for i in range(self._game.deals)]

    def _legal_map(self) -> dict:
        e = self._e
        if e.legal is None:
            eng = e.engine
            e.legal = self._game.codec.legal(eng, eng.view(eng.to_move))
        return e.legal

    def _legal_actions(self, player):
        if self.is_terminal() or player != self.current_player():
            return []
        return sorted(self._legal_map())

    # -- acting -------------------------------------------------------------------------------
    def _apply_action(self, action):
        e = self._e
        g = self._game
        if e.engine is None:
            if not 0 <= action < g.deals:
                raise ValueError(f"no chance outcome {action} (0..{g.deals - 1})")
            e.engine = g.config.new_state(deal_seed(g.seed, action))
            move = ""                       # no seat sees chance's outcome
        else:
            decision = self._legal_map().get(action)
            if decision is None:
                raise ValueError(f"action {action} is not legal here")
            move = f"{e.engine.to_move}:{action}"     # decisions are public (NOTATION.md)
            e.engine.apply(decision)
            e.steps += 1
        e.legal = None
        if e.chains is not None:
            e.chains = _step_chains(e.chains, e.engine, move)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if self._e.engine is not None and not self.is_terminal() \
                and player == self._e.engine.to_move:
            d = self._legal_map().get(action)
            if d is not None:
                return d.text
        return self._game.codec.describe(action)

    def returns(self):
        eng = self._e.engine
        n = self._game.players
        if eng is None or not self.is_terminal():
            return [0.0] * n
        if not eng.over:                              # cut at max_length (module docstring)
            if self._game.config.reward == "win":
                return [1.0 / n] * n                  # constant-sum: a draw
            return [self._game.truncated_reward] * n
        return rewards(self._game.config, eng)

    def __str__(self):
        eng = self._e.engine
        return "chance: the deal" if eng is None else eng.to_json(None)

    # -- information --------------------------------------------------------------------------
    def view(self, player: int) -> dict:
        return self._e.engine.view(player)

    def recall(self, player: int) -> str:
        e = self._e
        if e.chains is None:
            replay = self.get_game().new_initial_state()
            replay._e.chains = tuple([""] * self._game.players)
            for a in self.history():
                replay._apply_action(a)
            e.chains = replay._e.chains
        return e.chains[player]

    def resample_from_infostate(self, player_id, probability_sampler):
        seed = int(probability_sampler() * (1 << 53))
        new = self.clone()
        new._e.engine = self._e.engine.determinize(player_id, seed=seed)
        new._e.legal = None
        if self._e.chains is not None:
            mine = self._e.chains[player_id]
            new._e.chains = tuple(c if s == player_id else f"{mine}:resampled:{s}"
                                  for s, c in enumerate(self._e.chains))
        return new


def _obs_string(engine, player: int) -> str:
    return json.dumps(engine.view(player), separators=(",", ":"))


def _step_chains(chains: tuple, engine, move: str) -> tuple:
    """Every seat's recall digest after one action: the action taken (a player's decision is
    public; chance's outcome is not: `move` is "") and what the seat now sees."""
    out = []
    for p, c in enumerate(chains):
        h = hashlib.blake2b(digest_size=10)
        h.update(c.encode())
        h.update(move.encode())
        h.update(_obs_string(engine, p).encode())
        out.append(h.hexdigest())
    return tuple(out)


class CardtableObserver:
    """OpenSpiel's Python observer: `tensor`/`dict` and `string_from` (module docstring)."""

    def __init__(self, game: _Setup, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        obs = game.codec.obs_size
        self.bits = max(1, (game.codec.num_actions - 1).bit_length())
        self.step = game.players + self.bits
        hist = HISTORY * self.step if perfect_recall else 0
        rec = RECALL_BITS if perfect_recall else 0
        self.tensor = np.zeros(obs + hist + rec, np.float32)
        self.dict = {"observation": self.tensor[:obs]}
        if perfect_recall:
            self.dict["history"] = self.tensor[obs:obs + hist].reshape(HISTORY, self.step)
            self.dict["recall"] = self.tensor[obs + hist:]

    def set_from(self, state: CardtableState, player: int):
        eng = state._e.engine
        self.tensor.fill(0)
        if eng is None:
            return
        self.dict["observation"][:] = self.game.codec.encode(eng.view(player))
        if not self.perfect_recall:
            return
        n = self.game.players
        hist = self.dict["history"]
        moves = [pa for pa in state.full_history()[1:]][-HISTORY:]
        for row, pa in zip(hist, reversed(moves)):
            row[(pa.player - player) % n] = 1.0
            a = pa.action
            for b in range(self.bits):
                row[n + b] = (a >> b) & 1
        digest = int.from_bytes(hashlib.blake2b(state.recall(player).encode(),
                                                digest_size=RECALL_BITS // 8).digest(), "big")
        rec = self.dict["recall"]
        for b in range(RECALL_BITS):
            rec[b] = (digest >> b) & 1

    def string_from(self, state: CardtableState, player: int):
        eng = state._e.engine
        if eng is None:
            return f"seat {player} | before the deal"
        obs = _obs_string(eng, player)
        if not self.perfect_recall:
            return obs
        return f"seat {player} | recall {state.recall(player)} | {obs}"


def register() -> None:
    """Register `python_cardtable_<name>` for every registered game with a codec (idempotent;
    call it again after registering a game)."""
    for g in games():
        if g.codec and g.name not in _TYPES:
            _TYPES[g.name] = _game_type(g.name)
            cls = type(f"{env_name(g.name)}Game", (CardtableGame,), {"GAME": g.name})
            globals()[cls.__name__] = cls
            pyspiel.register_game(_TYPES[g.name], cls)


register()
