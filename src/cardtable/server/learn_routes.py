"""The lessons on the game server (docs/learn.md, docs/api.md "Lessons"): a guided
first game is an ordinary private table of the lesson's prepared deal, the learner in the
lesson's seat and the lesson's easy bots in the others, marked with the lesson's id (the
table's `lesson`). Its bots follow the script (bots.lesson.LessonBot, via `lesson_bot`), a
player's decision that a step does not ask for is refused (`check_step`, runtime.py), and
the steps are served as codes (GET /api/lessons/{id}) for the browser to word.

    GET  /api/lessons          every lesson (id, game, rule set, players, its steps' count)
    GET  /api/lessons/{id}     one lesson with its steps (where each is due, the decision as
                               JSON, the catalog key of its words, the clause)
    POST /api/lessons/{id}     {"name": ...}: a new lesson table, joined in the learner's
                               seat (as POST /api/tables with a name: the same quotas)

Nothing here names a game: the lessons are the games' declarations (core/lesson.py).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import Field

from cardtable.bots.base import Bot
from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState
from cardtable.core.lesson import Lesson, lesson, lessons
from cardtable.server import protocol as P
from cardtable.server.errors import bad
from cardtable.server.games import table_config
from cardtable.server.table_base import ProtocolError

router = APIRouter(tags=["lessons"])

LessonPath = Annotated[str, Path(pattern=r"^[a-z0-9_]{1,32}\.[a-z0-9_]{1,32}$", max_length=65,
                                 description="the lesson's id: game.rule set")]


class StartLesson(P._Body):
    name: P.Name = Field(..., description="the learner's name at the table")


def _lesson(lesson_id: str) -> Lesson:
    try:
        return lesson(lesson_id)
    except ConfigError:
        raise bad("no such lesson", 404, "lesson", lesson=lesson_id) from None


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


@router.get("/api/lessons")
async def list_lessons() -> list[dict]:
    """Every lesson of this server's games: id, game, rule set (`name`), the learner's seat,
    players, and the number of steps."""
    return [{"id": x.id, "game": x.game, "name": x.name, "seat": x.seat,
             "players": x.players, "steps": len(x.steps)} for x in lessons()]


@router.get("/api/lessons/{lesson_id}")
async def get_lesson(lesson_id: LessonPath) -> dict:
    """One lesson and its steps, as codes: `at` (the index in the game's actions where the
    step is due), `seat`, `decision` (JSON, as a state's `decisions`), `key` (the words:
    the catalog's learn.<key>.do and learn.<key>.done) and `clause` (docs/rules.md);
    `guided`: the number of scripted actions, after which the game is free."""
    return _lesson(lesson_id).to_json()


@router.post("/api/lessons/{lesson_id}", response_model=P.CreateOut, status_code=201)
async def start_lesson(lesson_id: LessonPath, req: StartLesson, request: Request
                       ) -> P.CreateOut:
    """A new private table of the lesson: its prepared deal, the learner (`name`) seated in
    the lesson's seat, easy bots that follow the lesson's script in the others. The same
    quotas as any new table (POST /api/tables)."""
    les = _lesson(lesson_id)
    seats = [P.SeatSpec(kind="human") if s == les.seat else P.SeatSpec(kind="bot", bot=les.bots)
             for s in range(les.players)]
    create = P.CreateTable(game=les.game, variant=les.setup.get("variant"),
                           players=les.players, seats=seats, public=False, name=req.name,
                           game_settings={o.name: les.setup[o.name] for o in
                                          registry.info(les.game).settings
                                          if les.setup.get(o.name) is not None})
    cfg, _, rows = table_config(create)
    cfg["guided_seconds"] = les.table.get("snap_seconds")   # the windows while it guides
    base = les.new_state().record()
    base.pop("actions", None)
    cfg["lesson"] = les.id
    cfg["host"] = les.seat
    return await request.app.state.make_table(create, request, cfg, base, rows)
