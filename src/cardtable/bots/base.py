"""The bot protocol: a bot chooses a legal decision for the seat to move, from a state that
holds only that seat's knowledge (a determinization)."""

from __future__ import annotations

import importlib
import math

from cardtable.bots.hooks import hook
from cardtable.core.errors import ConfigError, coded
from cardtable.core.game import Decision, GameState
from cardtable.core.registry import games
from cardtable.core.rng import Rng


class Bot:
    """Base class. Subclasses implement `choose(state)`; `state` is a determinization for
    `state.to_move` (so its hidden parts are guesses, not the truth)."""

    name = "bot"
    level: str | None = None        # the difficulty level it was made for (make_bot), if any
    #: True for bots that search (seconds of CPU a decision): the server runs them in worker
    #: processes (server/tables/botpool.py)
    searches = False

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = Rng(seed)

    @classmethod
    def plays(cls, game: str, players: int | None = None) -> bool:
        """True if the bot can play `game` (at `players` seats): every bot here plays every
        game; a trained policy only the one it learned."""
        return True

    def choose(self, state: GameState) -> Decision:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random among the legal decisions."""

    name = "random"

    def choose(self, state: GameState) -> Decision:
        legal = state.legal_decisions()
        return legal[self.rng.below(len(legal))]


class GreedyBot(Bot):
    """The game's own simple heuristics (the declared `heuristics` module's `greedy`),
    documented there."""

    name = "greedy"

    def choose(self, state: GameState) -> Decision:
        return hook(state.game, "greedy")(state, self.rng)


class HeuristicBot(Bot):
    """The game's stronger rule-based bot (the declared `heuristics` module's `heuristic`),
    documented there."""

    name = "heuristic"

    def choose(self, state: GameState) -> Decision:
        return hook(state.game, "heuristic")(state, self.rng)


def whole(x, low: int) -> bool:
    """Is `x` an integer (not a bool) of at least `low`? (bots' setting checks)"""
    return isinstance(x, int) and not isinstance(x, bool) and x >= low


def number(x, low: float, high: float = math.inf, open_low: bool = False) -> bool:
    """Is `x` a number (not a bool) in [low, high], or (low, high] with `open_low`? (bots'
    setting checks)"""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and (
        low < x if open_low else low <= x) and x <= high


def search_budget(iterations, seconds, default: int) -> int | None:
    """A searching bot's `iterations` after checking both budgets (ConfigError): `default`
    when neither is given, None for a time budget alone."""
    if iterations is not None and not whole(iterations, 1):
        raise ConfigError(f"iterations must be a positive integer, not {iterations!r}")
    if seconds is not None and not number(seconds, 0, open_low=True):
        raise ConfigError(f"seconds must be positive, not {seconds!r}")
    if iterations is None and seconds is None:
        return default
    return iterations


#: bot name -> class, or "module:Class" for bots imported on first use; then the bots a game
#: declares as its own (GameInfo.bots, e.g. Abluxxen's trained policy "ppo", numpy only).
BOTS: dict[str, type[Bot] | str] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "ismcts": "cardtable.bots.ismcts:ISMCTSBot",
    "pimc": "cardtable.bots.pimc:PIMCBot",
}
#: bot name -> "module:function(game, players)" that says whether a declared bot plays, read
#: without importing the bot (GameInfo.bot_checks: a trained policy lives in the research API)
CHECKS: dict[str, str] = {}
for _game in games():
    for _name, _where in _game.bots:
        BOTS.setdefault(_name, _where)
    for _name, _where in _game.bot_checks:
        CHECKS.setdefault(_name, _where)


def _share(level: str) -> dict[str, float]:
    """game -> the share of a searching level's rollouts spent in that game, from the games'
    declarations (GameInfo.search_share); games that spend the whole budget are left out."""
    return {g.name: dict(g.search_share)[level] for g in games()
            if level in dict(g.search_share)}


#: Difficulty levels for the terminal and the browser: a bot and its budget (docs/bots.md).
LEVELS: dict[str, tuple[str, dict]] = {
    "easy": ("greedy", {}),
    "medium": ("heuristic", {}),
    "hard": ("pimc", {"iterations": 80, "width": 4}),
    # A game whose rollouts run long may declare a share of a level's budget
    # (GameInfo.search_share). Kombio's expert searches hard's four candidates with the whole
    # 1200 rollouts since they run compiled (2026-11-30; before, a fifth: 240, which won 49.0%
    # against 3 medium, where 1200 won above 55%: docs/strength.md). Kombio: reading what the
    # others kept (`events`) stays off: with it expert won 29.2% (23.2-36.0%) of 192 games
    # against 3 hard, so "expert beats hard" was not met; its bounds assume medium's play
    # (bench/kombio_bounds.py, docs/bots.md)
    "expert": ("pimc", {"iterations": 1200, "share": _share("expert")}),
}


def bot_names(game: str | None = None, players: int | None = None) -> list[str]:
    """The bot names and levels; with `game` (and `players`), only those that play it."""
    names = list(BOTS) + list(LEVELS)
    if game is None:
        return names
    return [n for n in names if plays(LEVELS[n][0] if n in LEVELS else n, game, players)]


def plays(name: str, game: str, players: int | None = None) -> bool:
    """Does bot `name` play `game` (at `players` seats)? A bot a game declares with a check
    (GameInfo.bot_checks) is not imported to tell."""
    if isinstance(BOTS.get(name), str) and name in CHECKS:
        module, _, attr = CHECKS[name].partition(":")
        return bool(getattr(importlib.import_module(module), attr)(game, players))
    return bot_class(name).plays(game, players)


def bot_class(name: str) -> type[Bot]:
    """The class of a bot or of a difficulty level's bot (ConfigError for an unknown name)."""
    if name in LEVELS:
        name = LEVELS[name][0]
    try:
        cls = BOTS[name]
    except KeyError:
        raise coded(ConfigError, "cfg.unknown_bot", name=repr(name),
                    known=", ".join(bot_names())) from None
    if isinstance(cls, str):
        module, _, attr = cls.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        BOTS[name] = cls
    return cls


def resolve(name: str, params: dict | None = None) -> tuple[str, dict]:
    """The bot and constructor settings that `name` (a bot or a level) with `params` means:
    a level's budget, replaced by a budget given in `params`."""
    params = dict(params or {})
    if name in LEVELS:
        name, preset = LEVELS[name]
        if {"iterations", "seconds"} & set(params):   # a budget given replaces the level's
            preset = {k: v for k, v in preset.items()
                      if k not in ("iterations", "seconds", "share")}
        params = {**preset, **params}
    return name, params


def bot_key(name: str, params: dict | None = None) -> str:
    """One name per bot, whatever it was called: the level's name where the bot and settings
    are a level's ("heuristic" and "medium" are both "medium"), else the bot's name with its
    settings ("pimc(iterations=200)"). Ratings and statistics are kept under this name."""
    bot, settings = resolve(name, params)
    for level in LEVELS:
        if resolve(level) == (bot, settings):
            return level
    if not settings:
        return bot
    return bot + "(" + ",".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
                                for k, v in sorted(settings.items())) + ")"


def make_bot(name: str, seed: int = 0, **params) -> Bot:
    """A bot by name or difficulty level; `params` go to its constructor (e.g. ismcts:
    iterations, seconds) and override a level's budget."""
    level = name if name in LEVELS else None
    name, params = resolve(name, params)
    cls = bot_class(name)
    try:
        bot = cls(seed, **params)
    except TypeError as e:
        raise ConfigError(f"bad settings for bot {name!r}: {e}") from None
    bot.level = level
    return bot


def act(bot: Bot, state: GameState) -> Decision:
    """Ask `bot` for the decision of `state.to_move`, showing it only that seat's knowledge."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    obs = state.determinize(seat, seed=bot.rng.below(2**62))
    return bot.choose(obs)
