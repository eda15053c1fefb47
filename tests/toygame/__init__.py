"""A toy third game, for tests only: two players, each is dealt one card of a seeded ten-card
deck (1..10) and decides in turn "keep" or "swap" (the card goes face up to the discard pile,
the deck's top card replaces it); the higher card wins, a tie is a win for both.

It implements the core protocol (core/game.py) and declares itself like the built-in games
(`GAME`, core/registry.py) with a small codec, so tests can show it runs through the generic
property tester and the research wrappers without a line of rl, sim or cli naming it.
`conftest.py` registers it (and its refusal messages) for the tests of this folder.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardtable.core.errors import ConfigError, IllegalDecision, RecordError, check_seat
from cardtable.core.game import Decision, GameState
from cardtable.core.registry import GameInfo, Variant
from cardtable.core.rng import Rng

NAME = "twocard"
RULES_VERSION = "2026-11-26"
CARDS = tuple(range(1, 11))
WORDS = ("keep", "swap")
#: the refusal messages of the toy (catalog keys err.<code>), added by conftest.py
MESSAGES = {"en": {"err.toy.word": 'unknown decision "{word}" (keep or swap)'},
            "de": {"err.toy.word": 'unbekannte Entscheidung „{word}“ (keep oder swap)'}}


class TwoCardState(GameState):
    game = NAME

    def __init__(self, seed: int = 0, start: int = 0):
        self.players = 2
        self.seed = seed
        self.start = start
        deck = list(CARDS)
        Rng(seed).shuffle(deck)
        self.cards = [deck.pop(), deck.pop()]
        self.deck = deck                 # the top is the last
        self.discard: list[int] = []
        self.swapped: list[bool | None] = [None, None]
        self._history: list[str] = []
        self._to_move: int | None = start
        self.phase: str | None = "choose"
        self._over = False

    # decisions
    def legal_decisions(self) -> list[Decision]:
        if self._over:
            return []
        return [Decision(w, (), w) for w in WORDS]

    def parse(self, text: str) -> Decision:
        if not isinstance(text, str):
            raise IllegalDecision(repr(text), code="not_text")
        words = text.split()
        if not words:
            raise IllegalDecision(text, code="empty")
        if words[0] not in WORDS:
            raise IllegalDecision(text, code="toy.word", params={"word": words[0]})
        if len(words) > 1:
            raise IllegalDecision(text, code="no_args", params={"word": words[0]})
        return Decision(words[0], (), words[0])

    def apply(self, decision: Decision | str) -> None:
        d = decision if isinstance(decision, Decision) else self.parse(decision)
        if self._over:
            raise IllegalDecision(d.text, code="over")
        if d.text not in WORDS:
            raise IllegalDecision(d.text, code="toy.word", params={"word": d.kind})
        seat = self._to_move
        if d.text == "swap":
            self.discard.append(self.cards[seat])
            self.cards[seat] = self.deck.pop()
        self.swapped[seat] = d.text == "swap"
        self._history.append(d.text)
        if None in self.swapped:
            self._to_move = 1 - seat
        else:
            self._to_move, self.phase, self._over = None, None, True

    # information
    def view(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None:
            check_seat(seat, 2)
        shown = [c if seat is None or s == seat or self._over else "?"
                 for s, c in enumerate(self.cards)]
        return {"game": NAME, "players": 2, "seat": seat, "cards": shown,
                "deck": len(self.deck) if seat is not None else list(self.deck),
                "discard": list(self.discard), "swapped": list(self.swapped),
                "to_move": self._to_move, "awaiting": self.phase,
                "legal": self.legal() if seat is None or seat == self._to_move else [],
                "scores": self.scores(), "winners": self.winners()}

    def copy(self) -> "TwoCardState":
        new = TwoCardState.__new__(TwoCardState)
        new.__dict__ = {k: (list(v) if isinstance(v, list) else v)
                        for k, v in self.__dict__.items()}
        return new

    def determinize(self, seat: int, seed: int | None = None) -> "TwoCardState":
        check_seat(seat, 2)
        new = self.copy()
        other = 1 - seat
        hidden = list(new.deck) + ([] if self._over else [new.cards[other]])
        Rng(seed).shuffle(hidden)
        if not self._over:
            new.cards[other] = hidden.pop()
        new.deck = hidden
        return new

    # outcome
    def scores(self) -> list[int] | None:
        return list(self.cards) if self._over else None

    def winners(self) -> list[int] | None:
        if not self._over:
            return None
        return [s for s in (0, 1) if self.cards[s] == max(self.cards)]

    # records
    def record(self) -> dict[str, Any]:
        return {"game": NAME, "players": 2, "seed": self.seed, "start": self.start,
                "rules_version": RULES_VERSION, "actions": list(self._history)}

    @property
    def history(self) -> list[str]:
        return list(self._history)

    def check_invariants(self) -> None:
        assert sorted(self.cards + self.deck + self.discard) == list(CARDS)
        assert len(self.discard) == sum(1 for x in self.swapped if x)


def new_game(players: int = 2, seed: int = 0, start: int = 0, variant: str | None = None,
             options: dict | None = None, **extra) -> TwoCardState:
    if extra:
        raise ConfigError(f"unknown setting {sorted(extra)[0]!r} for the toy")
    if variant not in (None, "basic") or options:
        raise ConfigError("the toy has no variants and no options")
    if players != 2:
        raise ConfigError(f"the toy is for 2 players, not {players}")
    if start not in (0, 1):
        raise ConfigError(f"start seat {start} does not exist (seats 0..1)")
    return TwoCardState(seed, start)


def from_record(rec: dict) -> TwoCardState:
    try:
        return new_game(players=rec.get("players", 2), seed=rec.get("seed", 0),
                        start=rec.get("start", 0))
    except ConfigError as e:
        raise RecordError(str(e)) from None


class TwoCardCodec:
    """Actions: 0 keep, 1 swap. Observation (26, from the seat's view only): own card one-hot
    (10), the other's card one-hot once shown at the end (10), swapped flags of me and of the
    other (2), discard pile size /2, to move, deck size /8, over."""

    num_actions = 2
    obs_size = 26

    def __init__(self, players: int, **settings):
        self.players = players
        self.obs_low = np.zeros(self.obs_size, np.float32)
        self.obs_high = np.ones(self.obs_size, np.float32)

    def reward_range(self) -> tuple[float, float]:
        return 1.0, 10.0

    def describe(self, action: int) -> str:
        return WORDS[action]

    def legal(self, state: GameState, view: dict) -> dict[int, Decision]:
        return {WORDS.index(d.text): d for d in state.legal_decisions()}

    def encode(self, view: dict) -> np.ndarray:
        o = np.zeros(self.obs_size, np.float32)
        me = view["seat"]
        for s, c in enumerate(view["cards"]):
            if c != "?":
                o[(0 if s == me else 10) + c - 1] = 1
        o[20] = float(bool(view["swapped"][me]))
        o[21] = float(bool(view["swapped"][1 - me]))
        o[22] = len(view["discard"]) / 2
        o[23] = float(view["to_move"] == me)
        o[24] = view["deck"] / 8
        o[25] = float(view["awaiting"] is None)
        return o


GAME = GameInfo(
    name=NAME,
    title="Twocard",
    engine=__name__,
    variants=(Variant("basic", 2, 2, 2),),
    rules_version=RULES_VERSION,
    rules_versions=(RULES_VERSION,),
    codec=f"{__name__}:TwoCardCodec",
    probes=("keep 1", "swap swap", "Keep"),
)
