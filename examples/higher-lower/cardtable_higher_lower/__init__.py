"""Higher or Lower, a card game for cardtable: guess whether the next card is higher or lower
than the face-up one (the rules: state.py). The package is a game plugin: its declaration
`GAME` is named by the entry point `higher_lower` of the group `cardtable.games` (its
pyproject.toml), so cardtable finds it once it is installed; everything of the game is here
(docs/adding-a-game.md in cardtable)."""

from __future__ import annotations

from cardtable.core.registry import GameInfo, Option, Variant

from cardtable_higher_lower.state import (DEFAULT_PLAYERS, MAX_PLAYERS, MAX_TURNS, MIN_PLAYERS,
                                          NAME, RULES_VERSION, TURNS, HigherLowerState,
                                          from_record, new_game)

__all__ = ["GAME", "HigherLowerState", "new_game", "from_record"]

#: the one declaration of the game the house reads (cardtable.core.registry)
GAME = GameInfo(
    name=NAME,
    title="Higher or Lower",
    engine="cardtable_higher_lower",
    variants=(Variant("basic", MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS),),
    rules_version=RULES_VERSION,
    rules_versions=(RULES_VERSION,),
    options=(Option("equal_scores", bool, False, "HL-3: an equal card scores the guesser too",
                    clause="HL-3"),),
    settings=(Option("turns", int, TURNS, "HL-4: the guesses of each player", min=1,
                     max=MAX_TURNS, label="hl.turns"),),
    ui="cardtable_higher_lower.ui",
    heuristics="cardtable_higher_lower.heuristics",
    narration="cardtable_higher_lower.narration",
    catalog="cardtable_higher_lower",
    web="cardtable_higher_lower.web",
    probes=("higher 1", "Higher", "lower lower", "up"),
)
