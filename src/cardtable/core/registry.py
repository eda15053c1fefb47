"""The games of the house: each game declares itself once, in a `GameInfo` its package exports
as `GAME`, and every other part (records, bots, sim, rl, the terminal, the server) reads that
declaration instead of naming games.

    from cardtable.core.registry import games, info
    info("kombio").lower_is_better          # True
    info("abluxxen").variant("duel").max_players

A game is a plugin: the games are found through the entry-point group `cardtable.games`
(`GROUP`), each entry point naming its declaration (`abluxxen = "cardtable.abluxxen:GAME"` in
pyproject.toml's `[project.entry-points."cardtable.games"]`; a game of its own package does the
same in its own pyproject.toml, docs/adding-a-game.md). The built-in games register that way
too; `BUILTIN` is the fallback that finds them when the package's metadata is not installed
(a source tree run with PYTHONPATH=src). `register(info)` adds a game at run time (tests do).
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from importlib import metadata
from types import ModuleType
from typing import Any

from cardtable.core.errors import ConfigError, RulesVersionError, coded

#: the entry-point group a game registers in: name -> "package:GAME" (a GameInfo)
GROUP = "cardtable.games"
#: the packages of the built-in games, each exporting `GAME = GameInfo(...)` from __init__,
#: registered in GROUP by pyproject.toml; found here too when that metadata is not installed
BUILTIN = ("cardtable.abluxxen", "cardtable.kombio")


@dataclass(frozen=True)
class Option:
    """A setting a player may choose: a rule option (`options` of a record) or a top-level
    game setting (such as a target score)."""

    name: str
    type: type
    default: Any
    doc: str
    #: the variants that have it (None: every variant)
    variants: tuple[str, ...] | None = None
    #: the least and the most a number may be (None: no bound); the game server refuses a
    #: value outside them, or of another type, with `error` and the setting's name as `field`
    min: float | None = None
    max: float | None = None
    #: the lobby's error code of a bad value (a catalog key `err.api.<error>`)
    error: str = "invalid"
    #: a game setting the lobby offers as a choice among these values (None: a number box)
    choices: tuple[Any, ...] | None = None
    #: the catalog key of its label in the lobby (None: the lobby shows `doc`)
    label: str | None = None
    #: the rule clause it changes ("AB-15"), linked from the lobby to the game's rules page
    clause: str | None = None


@dataclass(frozen=True)
class Variant:
    """A rule set of a game, with its player range and default."""

    name: str
    min_players: int
    max_players: int
    default_players: int
    #: this rule set's value of each rule option it has, where it differs from Option.default
    #: (Abluxxen's advanced turns optional_draw off)
    defaults: tuple[tuple[str, Any], ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What the house knows about a game. Module fields are dotted names, imported on use
    (`module("ui")`), so the declaration costs no import and names layers it does not load."""

    name: str                       # the record's "game"
    title: str                      # shown to people
    engine: str                     # module with new_game(**settings), from_record(rec)
    variants: tuple[Variant, ...]   # the default first
    rules_version: str
    rules_versions: tuple[str, ...]
    #: rule options (the record's "options")
    options: tuple[Option, ...] = ()
    #: top-level settings of new_game beyond variant/players/seed/start/options (e.g. target)
    settings: tuple[Option, ...] = ()
    #: settings of a table on the game server that the engine does not see (Kombio's snap
    #: window length and memory mode): the lobby offers them, the server keeps them
    table_settings: tuple[Option, ...] = ()
    #: the lowest score wins (rewards and tournament tables flip their sign)
    lower_is_better: bool = False
    ui: str | None = None           # terminal front end (cli/games.py's UI protocol)
    heuristics: str | None = None   # greedy(state, rng) and heuristic(state, rng)
    codec: str | None = None        # "module:Class" of the rl codec (rl/codec.py)
    batch: str | None = None        # "module:Class" of the batched simulator (rl/batch)
    analytics: str | None = None    # per-game statistics of sim/analytics.py
    browser: str | None = None      # a browser module of the client's own (web/static/js)
    #: the package that holds the game's browser files (the built-in games' too), served at
    #: /games/<name>/: `<name>.js` (its module), `<name>.css`, `rules.<lang>.json` (its rules
    #: page); GET /api/games then gives `browser` as the module's address
    web: str | None = None
    #: the prefixes of its rule clauses' ids ("AB" of AB-14): the browser links a clause id with
    #: one of them to this game's rules page; empty: those of its options' clauses
    clauses: tuple[str, ...] = ()
    #: share of a searching level's rollouts spent in this game (bots.base.LEVELS, per level;
    #: "review": the factor of the review's default budget, bots/review.py, which may exceed 1)
    search_share: tuple[tuple[str, float], ...] = ()
    #: bots only this game has: name -> "module:Class" (e.g. a trained policy)
    bots: tuple[tuple[str, str], ...] = ()
    #: how the lobby learns whether one of those bots plays a game at a player count without
    #: importing it: name -> "module:function(game, players) -> bool" (a trained policy's file
    #: says which game it learned: bots/trained.py); a bot without one is asked itself (plays)
    bot_checks: tuple[tuple[str, str], ...] = ()
    #: texts tried as refusals by the property tester besides its garbage (core/checks.py)
    probes: tuple[str, ...] = ()
    #: the package that holds the weights of its learned evaluations, `<family>.json` for each
    #: family its heuristics' `value_family` names (bots/value.py; scripts/train_value.py
    #: writes them); None: the search uses the game's hand-made `evaluate`
    values: str | None = None
    #: the package that holds the trained policies its `bots` play, a file `<bot>-*.npz` each
    #: (`ppo-basic-4p.npz`: bots/trained.py finds it, the file's `meta` says what it plays)
    policies: str | None = None
    #: "module:LESSONS", the game's guided first games (core/lesson.py)
    lessons: str | None = None
    #: its engine takes every answer of a window of simultaneous decisions and settles several
    #: claims by its own rules (Kombio: KO-10, a seeded draw among the snaps): a turn-based
    #: table then keeps every answer until all have answered or the move time is over
    #: (server/tables/windows.py); a game without it: the first claim closes the window, as live
    windows_collect: bool = False
    #: the game's words (`narration`'s module protocol: why, describe, web_why, web_line, ...);
    #: None: the game has none (its lines are empty)
    narration: str | None = None
    #: the package that holds the game's catalog entries, `en.json` and `de.json` beside its
    #: `__init__`: merged into the house's catalogs when the game is registered (a key the
    #: house has already keeps its text); None: the game's words are in the house's catalogs.
    #: The key `game.<name>` (the game's name in the lobby) defaults to the title.
    catalog: str | None = None

    @property
    def default_variant(self) -> str:
        return self.variants[0].name

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants)

    @property
    def min_players(self) -> int:
        return min(v.min_players for v in self.variants)

    @property
    def max_players(self) -> int:
        return max(v.max_players for v in self.variants)

    def variant(self, name: str | None = None) -> Variant:
        """The variant `name` (None: the default); ConfigError for one the game lacks."""
        name = self.default_variant if name is None else name
        for v in self.variants:
            if v.name == name:
                return v
        raise coded(ConfigError, "cfg.no_variant", game=self.title, variant=repr(name),
                    known=", ".join(self.variant_names))

    def player_counts(self, variant: str | None = None) -> tuple[int, ...]:
        v = self.variant(variant)
        return tuple(range(v.min_players, v.max_players + 1))

    def options_of(self, variant: str | None = None) -> tuple[Option, ...]:
        name = self.variant(variant).name
        return tuple(o for o in self.options if o.variants is None or name in o.variants)

    def option_defaults(self, variant: str | None = None) -> dict[str, Any]:
        """Every rule option of `variant` with its value there (what a new game plays)."""
        own = dict(self.variant(variant).defaults)
        return {o.name: own.get(o.name, o.default) for o in self.options_of(variant)}

    def setting(self, name: str) -> Option | None:
        return next((o for o in self.settings if o.name == name), None)

    def table_setting(self, name: str) -> Option | None:
        return next((o for o in self.table_settings if o.name == name), None)

    def module(self, kind: str = "engine") -> ModuleType | None:
        """The module the declaration names for `kind` (engine, ui, heuristics, analytics), or
        None if the game has none."""
        dotted = getattr(self, kind)
        return None if dotted is None else importlib.import_module(dotted.partition(":")[0])

    def load(self, kind: str):
        """The object a "module:Attr" field names (e.g. the codec class), or None."""
        dotted = getattr(self, kind)
        if dotted is None:
            return None
        mod, _, attr = dotted.partition(":")
        return getattr(importlib.import_module(mod), attr)


_GAMES: dict[str, GameInfo] = {}
_loaded = False


def _load() -> None:
    """Register the games once: the built-ins first (BUILTIN's order), then every other game
    of the entry-point group, by name. A plugin that fails to load, or whose entry point's name
    is not its declaration's name, is left out with a warning saying why; the house still
    runs."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    found = {ep.name: ep for ep in metadata.entry_points(group=GROUP)}
    for package in BUILTIN:
        ep = found.pop(package.rpartition(".")[2], None)
        try:
            register(ep.load() if ep is not None else importlib.import_module(package).GAME)
        except ModuleNotFoundError as e:     # a game not built in this copy
            if not (e.name and package.startswith(e.name)):
                raise
    for name in sorted(found):
        ep = found[name]
        if name in _GAMES:                   # registered at run time already
            continue
        try:
            game = ep.load()
        except Exception as e:               # a broken plugin must not stop the house
            warnings.warn(f"the game {name!r} ({ep.value}) is not loaded: "
                          f"{type(e).__name__}: {e}", stacklevel=2)
            continue
        if not isinstance(game, GameInfo) or game.name != name:
            warnings.warn(f"the game {name!r} ({ep.value}) is not loaded: its entry point must "
                          f"name a GameInfo whose name is {name!r}", stacklevel=2)
            continue
        register(game)


def discover() -> tuple[GameInfo, ...]:
    """Look for games again (a package installed since the first look): the games of the
    entry-point group not yet known are registered; the known ones stay. Returns every game."""
    global _loaded
    _loaded = False
    _load()
    return games()


def register(game: GameInfo) -> GameInfo:
    """Add a game (the built-ins register themselves; tests add toy games)."""
    if not isinstance(game, GameInfo):
        raise TypeError(f"register takes a GameInfo, not {type(game).__name__}")
    _GAMES[game.name] = game
    _add_words(game)
    return game


def _add_words(game: GameInfo) -> None:
    """The game's catalog entries (GameInfo.catalog) joined to the house's, and its name in
    the lobby (`game.<name>`: its title unless a catalog words it)."""
    from importlib import resources

    from cardtable import i18n

    for lang in i18n.LANGS:
        own: dict = {}
        if game.catalog is not None:
            import json

            path = resources.files(game.catalog).joinpath(f"{lang}.json")
            if path.is_file():
                own = json.loads(path.read_text(encoding="utf-8"))
        own.setdefault(f"game.{game.name}", game.title)
        i18n.add(lang, own)


def unregister(name: str) -> None:
    """Remove a game added by `register` (tests)."""
    _GAMES.pop(name, None)


def games() -> tuple[GameInfo, ...]:
    """Every game, the built-ins first in BUILTIN's order, then the others as registered (the
    plugins by name)."""
    _load()
    first = {package.rpartition(".")[2]: i for i, package in enumerate(BUILTIN)}
    return tuple(sorted(_GAMES.values(), key=lambda g: first.get(g.name, len(first))))


def names() -> tuple[str, ...]:
    return tuple(g.name for g in games())


def info(name: str) -> GameInfo:
    """The declaration of game `name`; ConfigError for a game the house does not know."""
    _load()
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise coded(ConfigError, "cfg.unknown_game", name=repr(name),
                    known=", ".join(sorted(_GAMES))) from None


def check_rules_version(name: str, version: Any) -> None:
    """The one check of a `rules_version` (NOTATION.md), for `load_record` and the engines'
    `new_game`: a game played under rules this version of cardtable does not know is refused
    (RulesVersionError, a RecordError and a ConfigError), not played under other rules."""
    game = info(name)
    known = game.rules_versions
    if not isinstance(version, str):
        raise RulesVersionError('"rules_version" must be a text such as '
                                f'"{known[-1] if known else "2026-11-26"}"')
    if version not in known:
        params = {"game": game.title, "version": version, "known": ", ".join(known)}
        from cardtable.i18n import t

        raise RulesVersionError(t("en", "err.record.rules_version", **params),
                                code="record.rules_version", params=params)
