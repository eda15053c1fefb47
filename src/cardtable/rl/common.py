"""What the three research front ends share: checking a configuration, creating its games,
rewards, and the terminal picture of a view. Everything about a game is read from its
declaration (core/registry.py); nothing here names a game.

A configuration is `game` (a registered game; default the first), `variant` (its rule set,
None for a game with one; `options` may override rule options, e.g. {"shadow_partial": True}),
`players`, `target` (for a game that declares that setting, e.g. Kombio) and the codec's
`max_cards` (rl/codec.py). `reward` is "score" (the seat's final score, its negative where the
lowest score wins, e.g. Kombio's total, KO-16; so higher is always better) or "win" (the seat's
share of the win: 1/k for each of k winners, else 0).

The rules bound no game's length, so every front end takes `max_length` (default MAX_LENGTH) and
cuts a game that reaches it: Gymnasium counts the learner's steps of an episode, PettingZoo and
OpenSpiel every player action. A cut game is truncated, not terminated, and every seat gets
`truncated_reward`: the worst reward a finished game can give ("score": the codec's lower
bound, e.g. Abluxxen -109, Kombio -(target + 500); "win": 0), so stalling never pays more than
finishing (docs/research.md, "Rewards and endings").
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState
from cardtable.core.record import new_game
from cardtable.core.registry import games, info
from cardtable.rl.codec import make_codec

REWARDS = ("score", "win")
#: the default bound of a game's length (see the module docstring); far above every game
#: played at the rules' pace (docs/research.md)
MAX_LENGTH = 5000


@dataclass(frozen=True)
class GameConfig:
    game: str
    variant: str | None = None
    players: int | None = None
    target: int = 100
    options: tuple = ()
    max_cards: int = 12
    reward: str = "score"

    def engine_options(self) -> dict[str, Any]:
        decl = info(self.game)
        out: dict[str, Any] = {"players": self.players}
        if self.variant is not None:
            out["variant"] = self.variant
        if self.options:
            out["options"] = dict(self.options)
        if decl.setting("target") is not None:
            out["target"] = self.target
        return out

    def new_state(self, seed: int) -> GameState:
        return new_game(self.game, seed=seed, **self.engine_options())

    @property
    def label(self) -> str:
        """The analytics' name of the configuration with - for / (e.g. "kombio-4p")."""
        from cardtable.sim.analytics import Config

        return Config(self.game, self.players, (), self.variant, self.options).label \
            .replace("/", "-")


class View(Mapping):
    """A seat's JSON view (NOTATION.md) as a read-only mapping, as the Gymnasium and PettingZoo
    environments put it in `info["view"]`: `view["to_move"]`, `view.get(...)`, `dict(view)`;
    `view.data` is the plain dict (e.g. for `json.dumps`). It is deliberately not a dict:
    Gymnasium's vector environments merge a dict in `info` key by key into arrays, which the
    nested, changing view cannot be; anything else they keep whole, one per sub-environment, in
    an object array (`infos["view"][i]`)."""

    __slots__ = ("data",)

    def __init__(self, data: dict):
        self.data = data

    def __getitem__(self, key):
        return self.data[key]

    def __iter__(self):
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"View({self.data!r})"


def default_game() -> str:
    """The game a front end plays when none is named: the first registered."""
    return games()[0].name


def make_config(game: str | None = None, variant: str | None = None,
                players: int | None = None, target: int = 100, options: dict | None = None,
                max_cards: int = 12, reward: str = "score") -> GameConfig:
    """Check a configuration (ConfigError with a one-line reason) and fill in defaults."""
    game = default_game() if game is None else str(game).strip().lower()
    known = [g.name for g in games() if g.codec]
    if game not in known:
        raise ConfigError(f"unknown game {game!r} ({' or '.join(known)})")
    if reward not in REWARDS:
        raise ConfigError(f"unknown reward {reward!r} (score or win)")
    decl = info(game)
    if len(decl.variants) == 1:
        if variant not in (None, decl.default_variant):
            raise ConfigError(f"{decl.title} has no variant {variant!r}")
        variant = None
        if players is None:
            players = decl.variants[0].default_players
    else:
        variant = variant or decl.default_variant
    if options and not decl.options:
        raise ConfigError(f"{decl.title} has no rule options here")
    cfg = GameConfig(game=game, variant=variant, players=players, target=target,
                     options=tuple(sorted((options or {}).items())), max_cards=max_cards,
                     reward=reward)
    state = cfg.new_state(0)                      # bad variant/players/options: ConfigError
    cfg = GameConfig(game=game, variant=variant, players=state.players, target=target,
                     options=cfg.options, max_cards=max_cards, reward=reward)
    make_codec(game, state.players, max_cards=max_cards, target=target)
    return cfg


def rewards(cfg: GameConfig, state: GameState) -> list[float]:
    """The final reward of every seat (see the module docstring); zeros before the end."""
    if not state.over:
        return [0.0] * state.players
    if cfg.reward == "win":
        w = state.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(state.players)]
    sc = state.scores()
    sign = -1 if info(cfg.game).lower_is_better else 1
    return [float(sign * x) for x in sc]


def check_max_length(value) -> int:
    """`max_length` as a whole number >= 1 (ConfigError naming it otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"max_length must be a whole number >= 1, not {value!r}")
    return int(value)


def truncated_reward(cfg: GameConfig) -> float:
    """Every seat's reward for a game cut at max_length: the worst reward a finished game can
    give ("win": 0, a loss; "score": the codec's lower bound of a final reward), so a cut game
    never pays more than finishing it, whatever the standings."""
    if cfg.reward == "win":
        return 0.0
    codec = make_codec(cfg.game, cfg.players, max_cards=cfg.max_cards, target=cfg.target)
    return float(codec.reward_range()[0])


def render_ansi(state: GameState, seat: int | None, width: int = 110) -> str:
    """The picture of `state` as `seat` sees it (None: every card), as text with ANSI colours:
    drawn by the front-end module the game declares (`GameInfo.ui`, found through the registry,
    so rl imports no front end), or, for a game without one, its JSON view and the legal
    decisions."""
    from rich.console import Console

    ui = info(state.game).module("ui")
    names = [f"Seat {s}" for s in range(state.players)]
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=True, color_system="standard")
    view = state.view(seat)
    if ui is None:
        console.print(json.dumps(view, sort_keys=True), markup=False)
        if not state.over:
            console.print(f"seat {state.to_move} to move: {', '.join(state.legal_by_value())}",
                          markup=False)
        return buf.getvalue()
    console.print(ui.render(view, seat, names, "en"))
    if not state.over:
        console.print(ui.why(view, seat, names, "en"))
    return buf.getvalue()


def env_name(game: str) -> str:
    """The environment name of a registered game, made from its id (`GameInfo.name`), never
    from its title: each word of the id capitalised, joined (`abluxxen` -> `Abluxxen`,
    `two_card` -> `TwoCard`), so any title a game shows people makes a valid id."""
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", info(game).name) if w)
