"""Kombio (Game Factory 2022 edition, 2-6 players). See `state.py` for the rules engine and
RULES.md (KO-1..KO-16) for the clauses.

    from cardtable.kombio import new_game
    s = new_game(players=4, seed=7)
    s.legal()            # ['draw', 'kombio', ...]
    s.apply("draw")
"""

from __future__ import annotations

import copy as _copy

from cardtable.core.errors import ConfigError, RecordError
from cardtable.kombio.setup import check_deal, check_deals
from cardtable.kombio.state import OPTION_NAMES, RULES_VERSION, RULES_VERSIONS, KombioState

__all__ = ["KombioState", "OPTION_NAMES", "RULES_VERSION", "RULES_VERSIONS", "new_game", "from_record"]

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def _int(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{what} must be a whole number, not {value!r}")
    return value


def _options(options) -> dict:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ConfigError('"options" must be an object of rule options')
    out = {}
    for key, value in options.items():
        if key not in OPTION_NAMES:
            raise ConfigError(f"unknown Kombio option {key!r} (known: {', '.join(OPTION_NAMES)})")
        if key == "max_turns" and value is not None:
            value = _int(value, "option max_turns")
            if value < 1:
                raise ConfigError(f"option max_turns must be at least 1, not {value}")
            out[key] = value
    return out


def new_game(players: int = 4, seed: int = 0, start: int = 0, target: int = 100,
             deal: dict | None = None, deals: list | None = None, options: dict | None = None,
             variant: str | None = None, rules_version: str | None = None, **extra) -> KombioState:
    """A new game of Kombio. `deal` fixes cards of the first round, `deals` of each round in
    turn (NOTATION.md; either may be partial; rounds without a deal are shuffled from `seed`).
    `target` ends the game (KO-4, KO-16); `start` is the first round's start seat."""
    if extra:
        raise ConfigError(f"unknown setting {sorted(extra)[0]!r} for Kombio")
    if rules_version is not None and rules_version not in RULES_VERSIONS:   # NOTATION.md
        raise ConfigError(f"Kombio rules version {rules_version!r} is not known here (known: "
                          f"{', '.join(RULES_VERSIONS)})")
    if variant not in (None, "basic"):
        raise ConfigError(f"Kombio has no variant {variant!r}")
    players = _int(players, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:                      # KO title: 2-6 players
        raise ConfigError(f"Kombio is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    seed = _int(seed, "seed")
    start = _int(start, "start seat")
    if not 0 <= start < players:
        raise ConfigError(f"start seat {start} does not exist (seats 0..{players - 1})")
    target = _int(target, "target")
    if target < 1:
        raise ConfigError(f"the target must be at least 1, not {target}")
    opts = _options(options)
    if deal is not None and deals is not None:
        raise ConfigError('give either "deal" (the first round) or "deals" (one per round)')
    if deals is not None:
        checked = check_deals(deals, players)
        deals = _copy.deepcopy(deals)
    elif deal is not None:
        checked = [check_deal(deal, players)]
        deal = _copy.deepcopy(deal)
    else:
        checked = []
    return KombioState(players, seed, start, target, checked, deal, deals, opts)


def from_record(rec: dict) -> KombioState:
    """The initial state of a record (its actions are applied by core.load_record)."""
    try:
        return new_game(players=rec.get("players", 4), seed=rec.get("seed", 0),
                        start=rec.get("start", 0), target=rec.get("target", 100),
                        deal=rec.get("deal"), deals=rec.get("deals"),
                        options=rec.get("options"), variant=rec.get("variant"))
    except ConfigError as e:
        raise RecordError(str(e)) from None
