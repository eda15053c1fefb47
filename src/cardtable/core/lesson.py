"""Lessons: a guided first game. A game declares its lessons in its own package
(`GameInfo.lessons` names the module, which exports `LESSONS`); every front end reads them
here and names no game.

A lesson is a prepared deal (the engine's own `new_game` settings: seed, start seat and a
fixed deal) and a script: every decision of the guided part in order, the other seats' as
plain notation texts and the learner's as `Step`s. A step teaches one rule by doing it: the
front end says what to do (the catalog's ``learn.<key>.do``), names the clause of
docs/rules.md, waits for that decision, refuses any other one with a friendly word
(``learn.refuse``), and then explains what happened (``learn.<key>.done``). The others' seats
follow the script (`bots.lesson.LessonBot`) while the game is on it. After the last scripted
decision the game goes on freely against easy bots to its end: the free game.

The engines speak in codes (catalog keys, clause ids, notation); front ends word them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState

#: a clause id of docs/rules.md (AB-5, DU-4, KO-12)
CLAUSE = re.compile(r"^[A-Z]{2}-\d{1,2}$")


@dataclass(frozen=True)
class Step:
    """One decision of the learner: the notation text asked for, the catalog stem of its
    words (``learn.<key>.do`` / ``learn.<key>.done``) and the clause it teaches."""

    decision: str
    key: str
    clause: str


@dataclass(frozen=True)
class Lesson:
    """A guided first game of `game` under the rule set `name` (see the module docstring)."""

    game: str
    name: str
    #: the learner's seat
    seat: int
    #: `new_game` settings: variant, players, seed, start, deal/deals, target, options
    setup: dict[str, Any]
    #: the guided part: every decision in order; the learner's are Steps
    script: tuple[str | Step, ...]
    #: the server's table while the lesson guides: snap_seconds, the length of its windows
    table: dict[str, Any] = field(default_factory=dict)
    #: the level of the bots in the free game (bots.base.LEVELS)
    bots: str = "easy"

    @property
    def id(self) -> str:
        return f"{self.game}.{self.name}"

    @property
    def players(self) -> int:
        return int(self.setup["players"])

    @property
    def decisions(self) -> tuple[str, ...]:
        return tuple(x.decision if isinstance(x, Step) else x for x in self.script)

    @property
    def steps(self) -> tuple[tuple[int, Step], ...]:
        """(index in the game's history where the learner decides, the step), in order."""
        return tuple((i, x) for i, x in enumerate(self.script) if isinstance(x, Step))

    def new_state(self) -> GameState:
        from cardtable.core.record import new_game

        return new_game(self.game, **self.setup)

    def on_script(self, history: Sequence[str]) -> bool:
        """True while the game has followed the script (and the script is not done)."""
        n = len(history)
        return n < len(self.script) and tuple(history) == self.decisions[:n]

    def step_at(self, history: Sequence[str]) -> tuple[int, Step] | None:
        """(its number from 0, the step) when the next decision is a step of the script."""
        if not self.on_script(history):
            return None
        for k, (i, step) in enumerate(self.steps):
            if i == len(history):
                return k, step
        return None

    def done_step(self, history: Sequence[str]) -> tuple[int, Step] | None:
        """(its number, the step) when the last decision taken was a step of the script."""
        n = len(history)
        if n == 0 or tuple(history) != self.decisions[:n]:
            return None
        for k, (i, step) in enumerate(self.steps):
            if i == n - 1:
                return k, step
        return None

    def refuses(self, state: GameState, text: str) -> Step | None:
        """The step that a decision `text` of the learner does not follow (None: it may be
        taken). Only a decision the rules allow is refused here; an illegal one is the
        engine's to refuse."""
        at = self.step_at(state.history)
        if at is None or state.to_move != self.seat:
            return None
        try:
            d = state.parse(text)
        except Exception:   # noqa: BLE001 - not notation: the engine's refusal says why
            return None
        step = at[1]
        return None if d.text == step.decision or not state.is_legal(d) else step

    def free(self, history: Sequence[str]) -> bool:
        """True once the guided part is over (the script done, or left)."""
        return not self.on_script(history)

    def steps_json(self) -> list[dict[str, Any]]:
        """The steps as JSON for clients: where each is due, the decision (JSON, as the
        state's `decisions`), its catalog stem and clause."""
        st = self.new_state()
        out = []
        for i, x in enumerate(self.script):
            if isinstance(x, Step):
                out.append({"at": i, "seat": self.seat, "decision": st.decision_json(x.decision),
                            "key": x.key, "clause": x.clause})
            st.apply(x.decision if isinstance(x, Step) else x)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "name": self.name, "seat": self.seat,
                "players": self.players, "guided": len(self.script), "bots": self.bots,
                "steps": self.steps_json()}


def lessons(game: str | None = None) -> tuple[Lesson, ...]:
    """The lessons of `game` (None: of every game), as the games declare them."""
    out: list[Lesson] = []
    for g in registry.games():
        if (game is None or g.name == game) and g.lessons:
            out.extend(g.load("lessons"))
    return tuple(out)


def lesson(lesson_id: str) -> Lesson:
    """The lesson `game.name` (ConfigError for one there is not)."""
    for x in lessons():
        if x.id == lesson_id:
            return x
    raise ConfigError(f"no lesson {lesson_id!r} (known: {', '.join(x.id for x in lessons())})")
