"""The core protocol shared by every game: state, decisions, errors, records, randomness."""

from cardtable.core.errors import (
    CardtableError,
    ConfigError,
    IllegalDecision,
    RecordError,
    SeatError,
)
from cardtable.core.game import Decision, GameState, Window
from cardtable.core.record import (
    GAMES,
    ReplayError,
    game_module,
    load_record,
    new_game,
    read_record,
    save_record,
)
from cardtable.core.rng import Rng

__all__ = [
    "CardtableError", "ConfigError", "IllegalDecision", "RecordError", "ReplayError", "SeatError",
    "Decision", "GameState", "Window", "GAMES", "game_module", "load_record", "new_game",
    "read_record", "save_record", "Rng",
]
