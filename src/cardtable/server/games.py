"""The games as the server offers them, read from their declarations (core/registry.py): a new
table's settings (`table_config`, POST /api/tables) and the list of the games with what a
client needs to offer them (`games_out`, GET /api/games). No game is named here: a game
registered before the request is offered like the built-in ones."""

from __future__ import annotations

import secrets
from typing import Any, Literal

from pydantic import BaseModel

from cardtable.bots import LEVELS, bot_names
from cardtable.core import registry
from cardtable.core.errors import CardtableError
from cardtable.core.record import new_game
from cardtable.server import protocol as P
from cardtable.server.config import Settings
from cardtable.server.errors import bad as _bad
from cardtable.server.tables.pace import DEFAULT_MOVE
from cardtable.server.guard.security import secret_seed


# -- GET /api/games: the bodies ----------------------------------------------------------------
class OptionInfo(BaseModel):
    """A setting a game declares (core/registry.py `Option`)."""
    name: str
    #: the JSON type of its value: "bool", "int" or "float" (an int option may also be null)
    type: Literal["bool", "int", "float", "str"]
    default: Any
    doc: str
    #: the rule sets that have it (null: every one)
    variants: list[str] | None = None
    #: a number's bounds (null: none); the lobby's choices (null: a number or tick box); the
    #: catalog key of its label (null: `doc`); the rule clause it changes ("AB-15")
    min: float | None = None
    max: float | None = None
    choices: list[Any] | None = None
    label: str | None = None
    clause: str | None = None


class VariantInfo(BaseModel):
    """A rule set of a game (core/registry.py `Variant`)."""
    name: str
    min_players: int
    max_players: int
    default_players: int
    #: each rule option this rule set has, with its value here
    options: dict[str, Any]


class GameInfo(BaseModel):
    """GET /api/games: a game's declaration (core/registry.py), and the bots that play it."""
    game: str
    variants: list[str]
    players: dict[str, list[int]]
    options: list[str]
    #: per variant, the rule options it allows and their values in that variant
    defaults: dict[str, dict[str, Any]] = {}
    bots: list[str]
    levels: list[str]
    # -- the declaration itself (core/registry.py GameInfo) --
    name: str
    title: str
    rules_version: str
    rules_versions: list[str]
    #: the score sense: the lowest score wins
    lower_is_better: bool
    browser: str | None            # the address of the game's browser module, if it has one
    default_variant: str
    #: the rule sets, the default first, with their players and option values
    rule_sets: list[VariantInfo]
    rule_options: list[OptionInfo]
    #: settings of a new game beyond the rule options (a target score)
    settings: list[OptionInfo]
    #: settings of a table the engine does not see (a snap window's length, memory mode)
    table_settings: list[OptionInfo]
    clauses: list[str] = []        # the prefixes of its rule clauses' ids ("AB" of AB-14)


def table_config(req: P.CreateTable, server: Settings | None = None
                 ) -> tuple[dict, dict, list[dict]]:
    """(settings, base record, seat rows) of a new table; ApiError 422 if bad. `server`:
    the server's settings (a public table's default turn timer)."""
    game = req.game
    g = registry.info(game)
    if req.variant is not None and req.variant not in g.variant_names:
        raise _bad(f"{g.title} has no variants" if len(g.variants) == 1 else
                   f"{g.title} has no rule set {req.variant!r}", 422, "settings")
    # a game with one rule set names none (its tables and records have no variant)
    variant = (req.variant or g.default_variant) if len(g.variants) > 1 else None
    players = req.players or g.variant(variant).default_players
    opts: dict = {"variant": variant} if variant is not None else {}
    opts["players"] = players
    given = _given_settings(req, g)
    for o in g.settings:
        opts[o.name] = given.get(o.name, o.default)
    if req.options:
        opts["options"] = dict(req.options)
    seed = secret_seed()                  # the deal can't be computed from what a seat sees
    start = secrets.randbelow(players)
    try:
        state = new_game(game, seed=seed, start=start, **opts)
    except CardtableError as e:
        raise _bad(str(e), 422, "settings") from None
    except (TypeError, ValueError) as e:
        raise _bad(f"bad settings: {e}", 422, "settings") from None
    base = state.record()
    base.pop("actions", None)
    specs = req.seats or [P.SeatSpec(kind="human") for _ in range(players)]
    if len(specs) != players:
        raise _bad(f"seats: {len(specs)} given for {players} players", 422, "settings")
    rows = []
    known = set(bot_names(game, players))
    for i, spec in enumerate(specs):
        if spec.kind == "bot":
            bot = spec.bot or "medium"            # as given: " HARD " is no bot's name
            if bot not in known:
                if bot in bot_names():
                    raise _bad(f"the bot {bot!r} does not play {game} with {players} players "
                               f"(bots that do: {', '.join(sorted(known))})", 422, "bot",
                               bot=bot, field="bot")
                raise _bad(f"unknown bot {bot!r} (known: {', '.join(sorted(known))})", 422,
                           "bot", bot=bot[:32], field="bot")
            rows.append({"seat": i, "kind": "bot", "bot": bot, "name": None, "token_hash": None,
                         "away": False, "joined_at": None, "client": None})
        else:
            if spec.bot:
                raise _bad("a human seat has no bot", 422, "settings")
            rows.append({"seat": i, "kind": "human", "bot": None, "name": None,
                         "token_hash": None, "away": False, "joined_at": None, "client": None})
    turn = req.turn_seconds
    if req.pace == "turn":
        if turn is not None:
            raise _bad("a turn-based table has a time per move (move_seconds), no turn timer",
                       422, "settings")
    elif req.move_seconds is not None or req.on_timeout is not None:
        raise _bad("move_seconds and on_timeout are for a turn-based table (pace: turn)", 422,
                   "settings")
    elif turn is None and req.public and server is not None and server.public_turn_seconds:
        turn = server.public_turn_seconds       # nobody can stall a public table for ever
    settings = {"game": game, "variant": variant, "players": players,
                "options": dict(req.options or {}), "public": req.public,
                "turn_seconds": turn,
                # the game's declared settings and table settings, each under its name
                **{o.name: opts[o.name] for o in g.settings},
                **{o.name: given.get(o.name, o.default) for o in g.table_settings},
                "host": next((r["seat"] for r in rows if r["kind"] == "human"), None),
                "seats": [{"kind": r["kind"], "bot": r["bot"]} for r in rows]}
    if req.pace == "turn":                      # server/tables/pace.py
        settings.update(pace="turn", move_seconds=float(req.move_seconds or DEFAULT_MOVE),
                        on_timeout=req.on_timeout or "bot_move")
    return settings, base, rows


def _given_settings(req: P.CreateTable, g: registry.GameInfo) -> dict:
    """The game's declared settings and table settings the request gives (null: the default,
    left out), each checked against its declaration: its type (strictly: no "5" for 5, no
    true for 1) and bounds; ApiError 422 with the declared error and the name as `field`, and
    `settings` for a setting the game does not have. Another game's table setting (a client
    that sends every table setting it knows) is left out, as the engine never sees one."""
    declared = {o.name: o for o in (*g.settings, *g.table_settings)}
    others = {o.name for x in registry.games() for o in x.table_settings}
    out = {}
    for name, value in (req.game_settings or {}).items():
        o = declared.get(name)
        if o is None and name in others:
            continue
        if o is None:
            raise _bad(f"{name} is not a setting of {g.title}", 422, "settings",
                       field=str(name)[:32])
        if value is None:
            continue
        out[name] = _checked(o, value)
    return out


def _checked(o: registry.Option, value):
    """`value` as setting `o` takes it, or ApiError 422 (o.error, field o.name)."""
    def bad():
        bounds = ("" if o.min is None and o.max is None else
                  f" from {o.min} to {o.max}" if o.min is not None and o.max is not None else
                  f" of at least {o.min}" if o.min is not None else f" of at most {o.max}")
        return _bad(f"{o.name} must be a {o.type.__name__}{bounds}", 422, o.error,
                    field=o.name)
    if isinstance(value, bool) != (o.type is bool):
        raise bad()
    if o.type is bool:
        return value
    if o.type is int and not isinstance(value, int):
        raise bad()
    if o.type is float:
        if not isinstance(value, (int, float)) or value != value:
            raise bad()
        value = float(value)
    if o.type is str and not isinstance(value, str):
        raise bad()
    if (o.min is not None and value < o.min) or (o.max is not None and value > o.max):
        raise bad()
    if o.choices is not None and o.type is str and value not in o.choices:
        raise bad()
    return value


def _option(o: registry.Option) -> OptionInfo:
    return OptionInfo(name=o.name, type=o.type.__name__, default=o.default, doc=o.doc,
                        variants=None if o.variants is None else list(o.variants),
                        min=o.min, max=o.max,
                        choices=None if o.choices is None else list(o.choices),
                        label=o.label, clause=o.clause)


def game_out(g: registry.GameInfo) -> GameInfo:
    """A game's declaration as GET /api/games gives it, with the bots that play it."""
    names = g.variant_names
    return GameInfo(
        game=g.name, variants=list(names),
        players={v.name: [v.min_players, v.max_players] for v in g.variants},
        options=[o.name for o in g.options],
        defaults={v: g.option_defaults(v) for v in names},
        bots=[b for b in bot_names(g.name) if b not in LEVELS], levels=list(LEVELS),
        name=g.name, title=g.title, rules_version=g.rules_version,
        rules_versions=list(g.rules_versions), lower_is_better=g.lower_is_better,
        browser=f"/games/{g.name}/{g.name}.js" if g.web else g.browser,   # web/__init__.py
        default_variant=g.default_variant,
        rule_sets=[VariantInfo(name=v.name, min_players=v.min_players,
                                 max_players=v.max_players, default_players=v.default_players,
                                 options=g.option_defaults(v.name)) for v in g.variants],
        rule_options=[_option(o) for o in g.options],
        settings=[_option(o) for o in g.settings],
        table_settings=[_option(o) for o in g.table_settings],
        clauses=list(g.clauses) or sorted({o.clause.split("-")[0] for o in g.options
                                           if o.clause and "-" in o.clause}))


def games_out() -> list[GameInfo]:
    """GET /api/games: every game the house knows, the built-ins first."""
    return [game_out(g) for g in registry.games()]
