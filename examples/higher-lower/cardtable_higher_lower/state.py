"""The rules of Higher or Lower, on cardtable's game protocol (cardtable.core.game).

HL-1  A deck of 24 cards, 1 to 12 twice, is shuffled from the game's seed; its first card is
      turned face up. 2 to 4 players; the start seat guesses first, then clockwise.
HL-2  The player to move says `higher` or `lower`: will the deck's next card be higher or lower
      than the face-up card? The next card is turned and becomes the face-up card.
HL-3  A right guess scores 1 point. An equal card scores nobody; with the rule option
      `equal_scores` it scores the guesser too.
HL-4  After `turns` guesses each (a game setting, 1 to 10, default 4) the game ends: the most
      points win, a tie is a win for all who share it.

Hidden: the order of the deck (a seat sees how many cards are left, and the cards turned).
"""

from __future__ import annotations

from typing import Any

from cardtable.core.errors import ConfigError, IllegalDecision, RecordError, check_seat
from cardtable.core.game import Decision, GameState
from cardtable.core.registry import check_rules_version
from cardtable.core.rng import Rng

NAME = "higher_lower"
RULES_VERSION = "2026-11-29"
CARDS = tuple(v for v in range(1, 13) for _ in range(2))         # HL-1
WORDS = ("higher", "lower")
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 2
TURNS, MAX_TURNS = 4, 10                                          # HL-4


class HigherLowerState(GameState):
    """A game of Higher or Lower (module docstring)."""

    game = NAME

    def __init__(self, players: int, seed: int, start: int, turns: int, equal_scores: bool):
        self.players = players
        self.seed = seed
        self.start = start
        self.turns = turns
        self.equal_scores = equal_scores
        deck = list(CARDS)
        Rng(seed).shuffle(deck)
        self.up = deck.pop()              # HL-1: the deck's top is its last card
        self.first = self.up              # the card turned up before the first guess
        self.deck = deck
        self.turned: list[int] = []       # the cards turned by guesses, in order
        self.points = [0] * players
        self._history: list[str] = []
        self._to_move: int | None = start
        self.phase: str | None = "guess"
        self._over = False

    # -- decisions ------------------------------------------------------------------------
    def legal_decisions(self) -> list[Decision]:
        return [] if self._over else [Decision(w, (), w) for w in WORDS]

    def parse(self, text: str) -> Decision:
        if not isinstance(text, str):
            raise IllegalDecision(repr(text), code="not_text")
        words = text.split()
        if not words:
            raise IllegalDecision(text, code="empty")
        if words[0] not in WORDS:
            raise IllegalDecision(text, code="hl.word", params={"word": words[0][:20]})
        if len(words) > 1:
            raise IllegalDecision(text, code="no_args", params={"word": words[0]})
        return Decision(words[0], (), words[0])

    def apply(self, decision: Decision | str) -> None:
        d = decision if isinstance(decision, Decision) else self.parse(decision)
        if self._over:
            raise IllegalDecision(d.text, code="over")
        if d.text not in WORDS:
            raise IllegalDecision(d.text, code="hl.word", params={"word": d.kind[:20]})
        seat = self._to_move
        card = self.deck.pop()                                    # HL-2
        if (card > self.up and d.text == "higher") or (card < self.up and d.text == "lower") \
                or (card == self.up and self.equal_scores):       # HL-3
            self.points[seat] += 1
        self.turned.append(card)
        self.up = card
        self._history.append(d.text)
        if len(self._history) == self.turns * self.players:      # HL-4
            self._to_move, self.phase, self._over = None, None, True
        else:
            self._to_move = (seat + 1) % self.players

    # -- information ----------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None:
            check_seat(seat, self.players)
        last = None
        if self._history:
            guesser = (self.start + len(self._history) - 1) % self.players
            before = self.turned[-2] if len(self.turned) > 1 else self.first
            last = {"seat": guesser, "guess": self._history[-1], "was": before,
                    "card": self.turned[-1]}
        return {"game": NAME, "players": self.players, "seat": seat, "up": self.up,
                "first": self.first,
                "deck": len(self.deck) if seat is not None else list(self.deck),
                "turned": list(self.turned), "points": list(self.points),
                "turns": self.turns, "guesses": len(self._history),
                "equal_scores": self.equal_scores, "last": last,
                "to_move": self._to_move, "awaiting": self.phase,
                "legal": self.legal() if seat is None or seat == self._to_move else [],
                "scores": self.scores(), "winners": self.winners()}

    def copy(self) -> "HigherLowerState":
        new = HigherLowerState.__new__(HigherLowerState)
        new.__dict__ = {k: (list(v) if isinstance(v, list) else v)
                        for k, v in self.__dict__.items()}
        return new

    def determinize(self, seat: int, seed: int | None = None) -> "HigherLowerState":
        check_seat(seat, self.players)
        new = self.copy()
        Rng(seed).shuffle(new.deck)                               # the unseen order
        return new

    # -- outcome --------------------------------------------------------------------------
    def scores(self) -> list[int] | None:
        return list(self.points) if self._over else None

    def winners(self) -> list[int] | None:
        if not self._over:
            return None
        return [s for s in range(self.players) if self.points[s] == max(self.points)]

    # -- records --------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return {"game": NAME, "players": self.players, "seed": self.seed, "start": self.start,
                "rules_version": RULES_VERSION, "turns": self.turns,
                "options": {"equal_scores": self.equal_scores},
                "actions": list(self._history)}

    @property
    def history(self) -> list[str]:
        return list(self._history)

    def check_invariants(self) -> None:
        assert sorted(self.deck + self.turned + [self.first]) == sorted(CARDS)
        assert self.up == (self.turned[-1] if self.turned else self.first)
        assert sum(self.points) <= len(self._history)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{what} must be a whole number, not {value!r}")
    return value


def new_game(players: int | None = None, seed: int = 0, start: int = 0, turns: int | None = None,
             variant: str | None = None, options: dict | None = None,
             rules_version: str | None = None, **extra) -> HigherLowerState:
    """A new game (module docstring); ConfigError for a setting it does not have."""
    if extra:
        raise ConfigError(f"unknown setting {sorted(extra)[0]!r} for Higher or Lower")
    if rules_version is not None:
        check_rules_version(NAME, rules_version)
    if variant not in (None, "basic"):
        raise ConfigError(f"Higher or Lower has no variant {variant!r}")
    players = DEFAULT_PLAYERS if players is None else _whole(players, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(f"Higher or Lower is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                          f"not {players}")
    seed, start = _whole(seed, "seed"), _whole(start, "start seat")
    if not 0 <= start < players:
        raise ConfigError(f"start seat {start} does not exist (seats 0..{players - 1})")
    turns = TURNS if turns is None else _whole(turns, "turns")
    if not 1 <= turns <= MAX_TURNS:
        raise ConfigError(f"turns must be 1 to {MAX_TURNS}, not {turns}")
    options = dict(options or {})
    equal = options.pop("equal_scores", False)
    if options:
        raise ConfigError(f"Higher or Lower has no rule option {sorted(options)[0]!r}")
    if not isinstance(equal, bool):
        raise ConfigError(f"equal_scores is true or false, not {equal!r}")
    return HigherLowerState(players, seed, start, turns, equal)


def from_record(rec: dict) -> HigherLowerState:
    """The state a record starts from (its actions are applied by cardtable.core.record)."""
    try:
        return new_game(players=rec.get("players"), seed=rec.get("seed", 0),
                        start=rec.get("start", 0), turns=rec.get("turns"),
                        options=rec.get("options"), rules_version=rec.get("rules_version"))
    except ConfigError as e:
        raise RecordError(str(e)) from None
