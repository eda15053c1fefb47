"""What the three research front ends share: checking a configuration, creating its games,
rewards, and the terminal picture of a view.

A configuration is `game` ("abluxxen" or "kombio"), `variant` (Abluxxen rule set; `options`
may override rule options, e.g. {"shadow_partial": True}), `players`, Kombio's `target` and
the codec's `max_cards` (rl/codec.py). `reward` is "score" (Abluxxen: the seat's final score,
AB-17; Kombio: minus its final total, since the lowest total wins, KO-16; so higher is always
better) or "win" (the seat's share of the win: 1/k for each of k winners, else 0).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState
from cardtable.core.record import new_game
from cardtable.rl.codec import make_codec

REWARDS = ("score", "win")


@dataclass(frozen=True)
class GameConfig:
    game: str = "abluxxen"
    variant: str | None = None
    players: int | None = None
    target: int = 100
    options: tuple = ()
    max_cards: int = 12
    reward: str = "score"

    def engine_options(self) -> dict[str, Any]:
        if self.game == "kombio":
            return {"players": self.players, "target": self.target}
        return {"variant": self.variant, "players": self.players,
                "options": dict(self.options) or None}

    def new_state(self, seed: int) -> GameState:
        return new_game(self.game, seed=seed, **self.engine_options())

    @property
    def label(self) -> str:
        """"abluxxen-duel+shadow_partial-2p", "kombio-4p" (the analytics' names, with -)."""
        from cardtable.sim.analytics import Config

        return Config(self.game, self.players, (), self.variant, self.options).label \
            .replace("/", "-")


def make_config(game: str = "abluxxen", variant: str | None = None, players: int | None = None,
                target: int = 100, options: dict | None = None, max_cards: int = 12,
                reward: str = "score") -> GameConfig:
    """Check a configuration (ConfigError with a one-line reason) and fill in defaults."""
    game = str(game).strip().lower()
    if game not in ("abluxxen", "kombio"):
        raise ConfigError(f"unknown game {game!r} (abluxxen or kombio)")
    if reward not in REWARDS:
        raise ConfigError(f"unknown reward {reward!r} (score or win)")
    if game == "kombio":
        if variant not in (None, "basic"):
            raise ConfigError(f"Kombio has no variant {variant!r}")
        if options:
            raise ConfigError("Kombio has no rule options here")
        players = 4 if players is None else players
        variant = None
    else:
        variant = variant or "basic"
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
    return [float(-x if cfg.game == "kombio" else x) for x in sc]


def render_ansi(state: GameState, seat: int | None, width: int = 110) -> str:
    """The terminal front end's picture of `state` as `seat` sees it (None: every card),
    as text with ANSI colours."""
    from rich.console import Console

    from cardtable.cli.games import ui_module

    ui = ui_module(state.game)
    names = [f"Seat {s}" for s in range(state.players)]
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=True, color_system="standard")
    view = state.view(seat)
    console.print(ui.render(view, seat, names, "en"))
    if not state.over:
        console.print(ui.why(view, seat, names, "en"))
    return buf.getvalue()
