"""Rule options and the five Abluxxen rule sets (variants) as bundles of them.

A variant is never a copy of the game: it is a `Rules` value read by the one engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardtable.core.errors import ConfigError, coded

#: the version of the rules (RULES.md revision) this engine plays; a record says which it was
#: played under (NOTATION.md `rules_version`), and a record of a version not listed here is
#: refused rather than replayed under other rules
RULES_VERSION = "2026-11-28"
#: every version this engine replays, newest first; `legacy_options` says what an older one
#: played differently
RULES_VERSIONS = (RULES_VERSION, "2026-11-26")


@dataclass(frozen=True)
class Rules:
    min_players: int = 3
    max_players: int = 5
    #: AB-15: a player who abluxxed nobody may draw one card (off in AB-19, CL-2).
    optional_draw: bool = True
    #: AB-20: a set of 1s abluxxes a top layer of 13s or of lone jokers of the same size.
    ones_beat_top: bool = False
    #: DU-1..DU-7: duel set-up, shadow display, pool groups.
    duel: bool = False
    #: DU-4 (duel only): any set of shadow cards may be abluxxed, so a larger stack is taken in
    #: part (as many cards as the set has); off: a stack is taken whole (the former reading).
    shadow_partial: bool = False
    #: DU-6 (duel only): a shadowluxx counts as abluxxing, so no AB-15 draw follows it (the
    #: former reading, before 2026-11-28); off: only abluxxing the opponent withholds the draw.
    shadow_blocks_draw: bool = False
    #: AB-18: ties go to fewer hand cards (off in CL-4: all tied players win).
    tiebreak_fewer_hand: bool = True


VARIANTS: dict[str, Rules] = {
    "basic": Rules(),                                                  # AB-1..AB-18
    "advanced": Rules(optional_draw=False),                            # AB-19
    "expert": Rules(optional_draw=False, ones_beat_top=True),          # AB-20
    "duel": Rules(min_players=2, max_players=2, duel=True,
                  shadow_partial=True),                                # DU-1..DU-7
    "classic": Rules(min_players=2, max_players=5, optional_draw=False,
                     tiebreak_fewer_hand=False),                       # CL-1..CL-4
}

#: Options a user may set on top of a variant.
OPTION_NAMES = ("optional_draw", "ones_beat_top", "shadow_partial", "shadow_blocks_draw",
                "tiebreak_fewer_hand")

#: Options that apply only to some variants (the others refuse them).
DUEL_ONLY = ("shadow_partial", "shadow_blocks_draw")

DEFAULT_PLAYERS = {"basic": 4, "advanced": 4, "expert": 4, "duel": 2, "classic": 4}


def make_rules(variant: str = "basic", options: dict | None = None) -> Rules:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise coded(ConfigError, "cfg.unknown_variant", game="Abluxxen", variant=repr(variant),
                    known=", ".join(VARIANTS))
    rules = VARIANTS[variant]
    if options:
        if not isinstance(options, dict):
            raise ConfigError('"options" must be an object of rule options')
        for key, value in options.items():
            if key not in OPTION_NAMES:
                raise ConfigError(
                    f"unknown rule option {key!r} (known: {', '.join(OPTION_NAMES)})")
            if not isinstance(value, bool):
                raise ConfigError(f"rule option {key!r} must be true or false")
            if key in DUEL_ONLY and not rules.duel:
                raise ConfigError(f"rule option {key!r} applies to the duel only")
        rules = replace(rules, **options)
    return rules


def option_names(rules: Rules) -> tuple[str, ...]:
    """The rule options a game with these rules has (the duel's own only in the duel)."""
    return tuple(o for o in OPTION_NAMES if rules.duel or o not in DUEL_ONLY)


def options_of(rules: Rules) -> dict:
    """Every rule option of the game with its value: what a record writes, so that it replays
    the same whatever the defaults of a later version are."""
    return {o: getattr(rules, o) for o in option_names(rules)}
