"""Kombio's settings as one options object, like Abluxxen's `Rules`: the target that ends the
game (KO-4, KO-16) and the engine option `max_turns` (not a rule: it ends a round without a
Kombio call after that many turns; off by default)."""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.core.errors import ConfigError
from cardtable.kombio.state import OPTION_NAMES

MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 6, 4


def whole_number(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{what} must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class Rules:
    #: KO-16: the game ends after the round in which a total reaches it
    target: int = 100
    #: engine option: a round without a Kombio call ends after this many turns (None: never)
    max_turns: int | None = None

    def options(self) -> dict:
        """The record's "options" given on top of the defaults (only those set)."""
        return {} if self.max_turns is None else {"max_turns": self.max_turns}


def make_rules(target=100, options=None) -> Rules:
    """Check `target` and `options` (ConfigError with a one-line reason)."""
    target = whole_number(target, "target")
    if target < 1:
        raise ConfigError(f"the target must be at least 1, not {target}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ConfigError('"options" must be an object of rule options')
    max_turns = None
    for key, value in options.items():
        if key not in OPTION_NAMES:
            raise ConfigError(f"unknown Kombio option {key!r} (known: {', '.join(OPTION_NAMES)})")
        if key == "max_turns" and value is not None:
            value = whole_number(value, "option max_turns")
            if value < 1:
                raise ConfigError(f"option max_turns must be at least 1, not {value}")
            max_turns = value
    return Rules(target=target, max_turns=max_turns)
