"""A second toy, for tests only: the two-card toy (toygame/__init__.py) played as a race of
simultaneous decisions in two rounds. In each round both seats answer in one window (core/game.py
`Window`, kind "race"): "swap" is a claim, a seat's silence means "keep"; the engine takes the
answers in seat order from the start seat. After the first round both may answer again (round 2;
a card once swapped may be swapped again); then the higher card wins.

Its words ("race", "keep", "swap") are none of Kombio's ("snap", "pass"): a server that plays it
through `window()` and `round()` holds no game's word (test_toy_window.py).
"""

from __future__ import annotations

from typing import Any

import toygame
from cardtable.core.errors import ConfigError, RecordError
from cardtable.core.game import Window
from cardtable.core.registry import GameInfo, Variant

NAME = "cardrace"
ROUNDS = 2


class RaceState(toygame.TwoCardState):
    game = NAME

    def __init__(self, seed: int = 0, start: int = 0):
        super().__init__(seed, start)
        self.round_no = 1

    def window(self) -> Window | None:
        if self._over:
            return None
        me = self._to_move
        rest = (1 - me,) if self.swapped[1 - me] is None else ()
        return Window((me,) + rest, "keep", "race")

    def round(self) -> int:
        return self.round_no

    def apply(self, decision) -> None:
        super().apply(decision)
        if self._over and self.round_no < ROUNDS:         # the next round, dealt at once
            self.round_no += 1
            self.swapped = [None, None]
            self._to_move, self.phase, self._over = self.start, "choose", False

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return dict(super().view(seat), game=NAME, round=self.round_no)

    def copy(self) -> "RaceState":
        new = RaceState.__new__(RaceState)
        new.__dict__ = {k: (list(v) if isinstance(v, list) else v)
                        for k, v in self.__dict__.items()}
        return new

    def record(self) -> dict[str, Any]:
        return dict(super().record(), game=NAME)

    def check_invariants(self) -> None:
        assert sorted(self.cards + self.deck + self.discard) == list(toygame.CARDS)


def new_game(players: int = 2, seed: int = 0, start: int = 0, variant: str | None = None,
             options: dict | None = None, **extra) -> RaceState:
    toygame.new_game(players, seed, start, variant, options, **extra)      # the same checks
    return RaceState(seed, start)


def from_record(rec: dict) -> RaceState:
    try:
        return new_game(players=rec.get("players", 2), seed=rec.get("seed", 0),
                        start=rec.get("start", 0))
    except ConfigError as e:
        raise RecordError(str(e)) from None


GAME = GameInfo(
    name=NAME,
    title="Cardrace",
    engine=__name__,
    variants=(Variant("basic", 2, 2, 2),),
    rules_version=toygame.RULES_VERSION,
    rules_versions=(toygame.RULES_VERSION,),
    probes=("keep 1", "swap swap", "Keep"),
)
