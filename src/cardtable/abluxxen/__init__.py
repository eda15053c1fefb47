"""Abluxxen (Linko!): the AMIGO 2022 rules (basic, advanced, expert, duel) and the Ravensburger
classic edition. See `state.py` for the rules engine and RULES.md for the clauses."""

from __future__ import annotations

from cardtable.abluxxen.rules import (DEFAULT_PLAYERS, RULES_VERSION, RULES_VERSIONS, VARIANTS,
                                      Rules, make_rules, option_names, options_of)
from cardtable.abluxxen.state import AbluxxenState
from cardtable.core.errors import ConfigError, RecordError, coded
from cardtable.core.registry import GameInfo, Option, Variant, check_rules_version

__all__ = ["GAME", "AbluxxenState", "RULES_VERSION", "RULES_VERSIONS", "Rules", "VARIANTS", "new_game", "from_record", "replay_hint",
           "replay_notes"]


def _int(value, what: str, error=ConfigError) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise error(f"{what} must be a whole number, not {value!r}")
    return value


def new_game(variant: str = "basic", players: int | None = None, seed: int = 0,
             start: int = 0, deal: dict | None = None, options: dict | None = None,
             rules_version: str | None = None, **extra) -> AbluxxenState:
    """A new game. `deal` fixes cards (NOTATION.md, may be partial); `options` overrides rule
    options of the variant (see rules.OPTION_NAMES)."""
    if extra:
        raise ConfigError(f"unknown setting {sorted(extra)[0]!r} for Abluxxen")
    if rules_version is not None:                                           # NOTATION.md
        check_rules_version(GAME.name, rules_version)
    rules = make_rules(variant, options)
    if players is None:
        players = DEFAULT_PLAYERS[variant]
    players = _int(players, "players")
    if not rules.min_players <= players <= rules.max_players:               # AB-2, CL-1
        span = (f"{rules.min_players}" if rules.min_players == rules.max_players
                else f"{rules.min_players}-{rules.max_players}")
        raise coded(ConfigError, "cfg.players_variant", game="Abluxxen", variant=variant,
                    span=span, players=players)
    seed = _int(seed, "seed")
    start = _int(start, "start seat")
    if not 0 <= start < players:
        raise ConfigError(f"start seat {start} does not exist (seats 0..{players - 1})")
    return AbluxxenState(players, variant, rules, seed, start, deal)


#: What a record of an older rules version (NOTATION.md `rules_version`) played differently:
#: the rule options it does not name take these values, the reading of its time.
LEGACY_OPTIONS: dict[str, dict[str, bool]] = {
    "2026-11-26": {"shadow_blocks_draw": True},     # DU-6 before its revision of 2026-11-28
}


def _legacy(rec: dict) -> dict[str, bool]:
    """The options of `LEGACY_OPTIONS` that apply to `rec` and that it does not name itself."""
    old = LEGACY_OPTIONS.get(rec.get("rules_version"), {})
    named = rec.get("options") if isinstance(rec.get("options"), dict) else {}
    variant = rec.get("variant", "basic")
    have = option_names(VARIANTS[variant]) if variant in VARIANTS else ()
    return {k: v for k, v in old.items() if k in have and k not in named}


def record_options(rec: dict) -> dict | None:
    """The rule options a record was played under: its own `options`, and for a record of an
    older rules version the reading of that time for those it does not name."""
    legacy = _legacy(rec)
    if not legacy or not isinstance(rec.get("options", {}), dict):
        return rec.get("options")            # nothing to add (make_rules refuses a non-object)
    return dict(rec.get("options") or {}, **legacy)


def replay_notes(rec: dict) -> list[tuple[str, dict]]:
    """What a replay says about a record before its actions (catalog codes and parameters): a
    record of an older rules version replays with the reading of its time."""
    return [(f"ab.note.legacy.{name}", {"version": rec["rules_version"]}) for name in _legacy(rec)]


def from_record(rec: dict) -> AbluxxenState:
    """The initial state of a record (its actions are applied by core.load_record)."""
    variant = rec.get("variant", "basic")
    players = rec.get("players")
    try:
        return new_game(variant=variant, players=players, seed=rec.get("seed", 0),
                        start=rec.get("start", 0), deal=rec.get("deal"),
                        options=record_options(rec))
    except ConfigError as e:
        raise RecordError(str(e)) from None


#: The day the duel's default reading of DU-4 changed (shadow_partial on).
SHADOW_PARTIAL_SINCE = "2026-11-24"


def replay_hint(rec: dict, state: AbluxxenState) -> str | None:
    """Why an action of a record may be illegal: a duel record that does not name the option
    `shadow_partial` gets today's default (on: any set of shadow cards may be taken, DU-4). A
    record made before the default changed offers no shadow decision where the engine now awaits
    one, so it fails right there; it replays as it was played with the option named off."""
    opts = rec.get("options")
    named = isinstance(opts, dict) and "shadow_partial" in opts
    if state.rules.duel and state.awaiting == "shadow" and not named:
        return ("this duel record does not name the rule option shadow_partial, on by default "
                f"since {SHADOW_PARTIAL_SINCE} (DU-4): a record made before then replays with "
                '"options": {"shadow_partial": false}')
    return None


#: the one declaration of Abluxxen the house reads (core/registry.py)
GAME = GameInfo(
    name="abluxxen",
    title="Abluxxen",
    engine=__name__,
    clauses=("AB", "DU", "CL"),
    variants=tuple(Variant(name, r.min_players, r.max_players, DEFAULT_PLAYERS[name],
                           defaults=tuple(options_of(r).items()))
                   for name, r in VARIANTS.items()),
    rules_version=RULES_VERSION,
    rules_versions=RULES_VERSIONS,
    options=(
        Option("optional_draw", bool, True, "AB-15: a player who abluxxed nobody may draw one "
               "card (off in advanced, expert and classic)", clause="AB-15"),
        Option("ones_beat_top", bool, False, "AB-20: a set of 1s abluxxes a top layer of 13s "
               "(on in expert)", clause="AB-20"),
        Option("shadow_partial", bool, True, "DU-4: any set of shadow cards may be abluxxed, a "
               "larger stack taken in part", variants=("duel",), clause="DU-4"),
        Option("shadow_blocks_draw", bool, False, "DU-6, the reading before 2026-11-28: a "
               "shadowluxx counts as abluxxing, so no AB-15 draw follows it", variants=("duel",), clause="DU-6"),
        Option("tiebreak_fewer_hand", bool, True, "AB-18: ties go to fewer hand cards (off in "
               "classic, CL-4)", clause="AB-18"),
    ),
    lower_is_better=False,
    ui="cardtable.abluxxen.ui",
    narration="cardtable.abluxxen.narration",
    heuristics="cardtable.abluxxen.heuristics",
    values="cardtable.abluxxen.values",
    policies="cardtable.abluxxen.policies",
    codec="cardtable.abluxxen.codec:AbluxxenCodec",
    batch="cardtable.abluxxen.batch.env:AbluxxenBatch",
    analytics="cardtable.abluxxen.analytics",
    web="cardtable.abluxxen.web",
    catalog="cardtable.abluxxen",
    bots=(("ppo", "cardtable.rl.policy:PolicyBot"),       # the trained policy (make train)
          ("learned", "cardtable.rl.policy:LearnedBot")),  # imitation (make train-learned)
    bot_checks=(("ppo", "cardtable.bots.trained:ppo_plays"),
                ("learned", "cardtable.bots.trained:learned_plays")),
    probes=("play", "draw", "draw pool", "play 0", "play 99", "play 1 2", "draw pool 14",
            "shadow 13", "play X X X X X X", "draw pool 1+1"),
    lessons="cardtable.abluxxen.lessons:LESSONS",
)
