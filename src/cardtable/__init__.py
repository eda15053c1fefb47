"""cardtable: rule-exact engines, bots and tools for Abluxxen (Linko!) and Kombio."""

from cardtable.core import (
    CardtableError,
    ConfigError,
    Decision,
    GameState,
    IllegalDecision,
    RecordError,
    SeatError,
    load_record,
    new_game,
)

__all__ = [
    "CardtableError",
    "ConfigError",
    "Decision",
    "GameState",
    "IllegalDecision",
    "RecordError",
    "SeatError",
    "load_record",
    "new_game",
]
__version__ = "0.1.0"
