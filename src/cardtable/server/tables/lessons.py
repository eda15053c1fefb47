"""A lesson's table (docs/learn.md): the bot of a seat that follows the script
(`lesson_bot`, driver.py), the decision a step does not ask for refused (`check_step`,
runtime.py), the window's length while the script runs (`guided_seconds`), what the learner's
state message says of the steps (`lesson_info`, table_views.py) and a lesson table's rematch
(`rematch_of`). The lessons themselves are the games' declarations (core/lesson.py); the
routes that list and start them are http/learn.py's.
"""

from __future__ import annotations

from cardtable.bots.base import Bot
from cardtable.core.game import GameState
from cardtable.core.lesson import lesson
from cardtable.server.tables.table_base import ProtocolError


def lesson_bot(lesson_id: str | None, bot: Bot) -> Bot:
    """The bot of a lesson table's seat: the script first, then `bot` (driver.py)."""
    if not lesson_id:
        return bot
    from cardtable.bots.lesson import LessonBot

    return LessonBot(lesson(lesson_id), seed=0, fallback=bot)


def rematch_of(settings: dict, base: dict) -> tuple[dict, dict]:
    """The settings and base record of a table's rematch: a lesson's is a free game, the same
    players and bots on a shuffled deal (no lesson, no fixed deal); any other table's as is."""
    if not settings.get("lesson"):
        return settings, base
    cfg = {k: v for k, v in settings.items() if k not in ("lesson", "guided_seconds")}
    return cfg, {k: v for k, v in base.items() if k not in ("deal", "deals")}


def guided_seconds(settings: dict, state: GameState) -> float | None:
    """A lesson table's window length while the game follows the lesson's script (a newcomer
    reads the step before snapping); None after it (the game's own) and at other tables."""
    lesson_id, seconds = settings.get("lesson"), settings.get("guided_seconds")
    if not (lesson_id and seconds) or not lesson(lesson_id).on_script(state.history):
        return None
    return float(seconds)


def check_step(lesson_id: str | None, state: GameState, seat: int, text: str) -> None:
    """ProtocolError `lesson_step` when a player's decision is one the rules allow but the
    lesson's step does not ask for (runtime.py, before anything changes). In a window the
    seat is asked as a window asks it (core.game Window.ask)."""
    if not lesson_id:
        return
    les = lesson(lesson_id)
    w = state.window()
    asked = w.ask(state, seat) if w is not None and seat in w.seats else state
    step = les.refuses(asked, text)
    if step is not None:
        raise ProtocolError("lesson_step", "this step of the lesson asks for another "
                                           f"decision ({step.clause})",
                            params={"key": step.key, "clause": step.clause})


def lesson_info(lesson_id: str | None, state: GameState, viewer: int | None,
                asking: bool) -> dict | None:
    """A lesson table's `lesson` in the state message of the learner's seat (docs/protocol.md):
    the step due now (`asking`: the viewer has decisions to make), the last step done, and
    whether the guided part is over (`free`) or the game left it (`left`). None elsewhere."""
    if not lesson_id:
        return None
    les = lesson(lesson_id)
    if viewer != les.seat:
        return None
    history = tuple(state.history)
    n, script = len(history), les.decisions
    m = min(n, len(script))
    on = history[:m] == script[:m]
    step = None
    if asking and on:
        w = state.window()
        asked = w.ask(state, viewer) if w is not None and viewer in w.seats else state
        at = les.step_at(asked.history)
        if at is not None and asked.to_move == viewer:
            k, s = at
            step = {"n": k, "key": s.key, "clause": s.clause,
                    "decision": asked.decision_json(s.decision)}
    done = None
    if on and n <= len(script) + les.players:       # said until the others have played on
        past = [(k, s) for k, (i, s) in enumerate(les.steps) if i < n]
        if past:
            done = {"n": past[-1][0], "key": past[-1][1].key, "clause": past[-1][1].clause}
    return {"id": les.id, "steps": len(les.steps), "step": step, "done": done,
            "free": on and n >= len(script), "left": not on}
