"""The protocol every game implements.

A game is a `GameState`: a sequence of decision points, each with exactly one deciding seat
(`to_move`). Chance (shuffles, tie draws) is resolved inside the state by its own seeded `Rng`,
so a state plus a decision determines the next state.

Simultaneous decisions (boardgame.io's "active players") are a *window*: `window()` names the
seats that may answer now, in the order the rules take their answers, and the decision text
that a seat's silence means. The engine still asks them one after another: `to_move` is
`window().seats[0]`, and every answer of that seat, silent or not, leaves the window of the
remaining seats, until the last one's answer closes it (a new window may open at once, e.g.
the next round's). A seat's view never shows what the others chose until the window closes.

A front end that runs a window in wall time (the server) asks its seats at once, without a
game's word: it asks a seat on a copy where the seats before it are silent (`Window.ask`),
keeps silent answers pending, and the first answer that is not silence (a claim) closes the
window at once: it applies, in the window's order, the claim for its seat and `silence` for
every other. A window also closes when all were silent, or at its deadline (a seat that did
not answer is silent).

Rounds: `round()` numbers the rounds of a game that has them (None for one that has not). An
engine may deal the next round in the same action that ends one; a front end sees that the
round changed and may hold the new round back (the server's round break) so the players can
read the last round's summary.

Decisions exist in two forms: notation text (NOTATION.md, e.g. ``play 7 7 X``) and structured
`Decision` objects (kind + arguments + text). `apply` takes either. Clients that must not read
the notation get a decision as JSON (`decision_json`: text, kind and named arguments; each game
names its arguments, docs/notation.md "Decisions as JSON").
"""

from __future__ import annotations

import re

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable



def value_key(text: str) -> tuple:
    """The sort key of a notation text by value: its runs of digits compared as numbers
    ("play 2 X" < "play 10", "swap 1.2 1.10" after "swap 1.2 1.9")."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", text) if part)


def by_value(texts) -> list[str]:
    """`texts` sorted by `value_key`: the order a list of decisions is shown to people in."""
    return sorted(texts, key=value_key)


class Decision:
    """One decision: `kind` (the notation's first word), `args` (game-specific structured
    arguments) and `text` (canonical notation). Equal and hashed by text."""

    __slots__ = ("kind", "args", "text")

    def __init__(self, kind: str, args: tuple, text: str):
        self.kind = kind
        self.args = args
        self.text = text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Decision):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Decision({self.text!r})"

    def __str__(self) -> str:
        return self.text


def notation_number(tok: str, max_digits: int = 6) -> int | None:
    """A number of the notation: ASCII decimal digits only, at most `max_digits` of them; else
    None. ('²' and '٣' are digits to str.isdigit but not numbers here, and int() of a very long
    digit string raises instead of answering.)"""
    if tok and tok.isascii() and tok.isdigit() and len(tok) <= max_digits:
        return int(tok)
    return None


def _jsonable(x):
    """Tuples (a `Decision`'s arguments) as lists, for JSON."""
    return [_jsonable(v) for v in x] if isinstance(x, (tuple, list)) else x


@dataclass(frozen=True, slots=True)
class Window:
    """An open window of simultaneous decisions (see the module docstring).

    `seats`: the seats that may still answer, in the order the rules take their answers (the
    first is `to_move`); `silence`: the decision text a seat's silence means (legal for each of
    them in its turn); `kind`: a stable code for front ends (the game's word for the window,
    e.g. Kombio's "snap")."""

    seats: tuple[int, ...]
    silence: str
    kind: str

    def ask(self, state: "GameState", seat: int) -> "GameState":
        """A copy of `state` (whose window this is) where `seat` answers: the seats before it
        in the window's order are silent (the first answer that is not silence closes a window
        in wall time, so every answer before it is silence)."""
        c = state.copy()
        for s in self.seats:
            if s == seat:
                break
            c.apply(self.silence)
        return c


class GameState(ABC):
    """Abstract game state. Subclasses: `AbluxxenState`, `KombioState`."""

    game: str = ""
    players: int

    # -- whose decision -------------------------------------------------------------------
    # Subclasses keep these in the attributes `_to_move`, `phase` and `_over`.
    _to_move: int | None
    phase: str | None
    _over: bool

    @property
    def to_move(self) -> int | None:
        """The seat that decides now; None when the game is over."""
        return self._to_move

    @property
    def awaiting(self) -> str | None:
        """The kind of decision awaited (game-specific words, NOTATION.md); None when over."""
        return self.phase

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self._over

    def window(self) -> Window | None:
        """The open window of simultaneous decisions, or None (the default: a game without
        windows, and every state where only `to_move` may decide)."""
        return None

    def round(self) -> int | None:
        """The number of the round being played (1, 2, ...); None for a game without rounds
        (the default)."""
        return None

    # -- decisions ------------------------------------------------------------------------
    @abstractmethod
    def legal_decisions(self) -> list[Decision]:
        """The legal decisions of `to_move`, as structured objects (deterministic order)."""

    def legal(self) -> list[str]:
        """The legal decisions as notation texts, sorted as text (the order of the views'
        `legal`, docs/notation.md: "play 10" before "play 2"); for people: `legal_by_value`."""
        return sorted(d.text for d in self.legal_decisions())

    def legal_by_value(self) -> list[str]:
        """The legal decisions as notation texts in the order people read ("play 2" before
        "play 10"): `by_value`."""
        return by_value(d.text for d in self.legal_decisions())

    @abstractmethod
    def parse(self, text: str) -> Decision:
        """Read notation text into a Decision (syntax only). Raises IllegalDecision."""

    @abstractmethod
    def apply(self, decision: Decision | str) -> None:
        """Apply a decision of `to_move`. An illegal one raises IllegalDecision with the reason
        and leaves the state unchanged."""

    def decision_json(self, decision: Decision | str, seat: int | None = None) -> dict[str, Any]:
        """A decision as JSON for clients that do not read the notation (docs/notation.md,
        "Decisions as JSON"): ``{"text": its notation, "kind": its first word, "args": {named
        arguments}}``. `seat` is the deciding seat (default `to_move`), for notations that name
        a place relative to it (Kombio's own slots). Raises IllegalDecision for bad text."""
        d = self.parse(decision) if isinstance(decision, str) else decision
        return {"text": d.text, "kind": d.kind,
                "args": self.decision_args(d, self.to_move if seat is None else seat)}

    def decision_args(self, decision: Decision, seat: int | None) -> dict[str, Any]:
        """The named arguments of `decision_json` (overridden by each game, which knows its
        notation). The default, for a game that names none: ``{}`` for a decision without
        arguments, else ``{"values": [its arguments]}``."""
        return {"values": _jsonable(decision.args)} if decision.args else {}

    def is_legal(self, decision: Decision | str) -> bool:
        text = decision.text if isinstance(decision, Decision) else " ".join(str(decision).split())
        return any(d.text == text for d in self.legal_decisions())

    # -- information ----------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready dict (NOTATION.md): seat None = full state, else only what
        that seat may know."""

    def to_json(self, seat: int | None = None, **kw) -> str:
        return json.dumps(self.view(seat), **kw)

    @abstractmethod
    def copy(self) -> "GameState":
        """An independent copy (cheap: for search)."""

    @abstractmethod
    def determinize(self, seat: int, seed: int | None = None) -> "GameState":
        """A full state consistent with everything `seat` has seen: hidden cards are re-dealt
        at random (from `seed`) among the places `seat` cannot see."""

    # -- outcome --------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int] | None:
        """Final scores per seat (None until over)."""

    @abstractmethod
    def winners(self) -> list[int] | None:
        """Winning seats (None until over)."""

    # -- records --------------------------------------------------------------------------
    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The game record (NOTATION.md) that reproduces this state."""

    @property
    @abstractmethod
    def history(self) -> list[str]:
        """Texts of the decisions taken so far."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise AssertionError if an invariant (card conservation, ...) is broken."""

    # -- helpers --------------------------------------------------------------------------
    def apply_all(self, decisions: Iterable[Decision | str]) -> "GameState":
        for d in decisions:
            self.apply(d)
        return self
