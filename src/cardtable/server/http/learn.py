"""The lessons on the game server (docs/learn.md, docs/api.md "Lessons"): a guided
first game is an ordinary private table of the lesson's prepared deal, the learner in the
lesson's seat and the lesson's easy bots in the others, marked with the lesson's id (the
table's `lesson`). Its bots follow the script (bots.lesson.LessonBot, via lessons.py's `lesson_bot`), a
player's decision that a step does not ask for is refused (lessons.py, runtime.py), and
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

from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.lesson import Lesson, lesson, lessons
from cardtable.server import protocol as P
from cardtable.server.errors import bad
from cardtable.server.games import table_config
from cardtable.server.http.tables import make_table

router = APIRouter(tags=["lessons"])

LessonPath = Annotated[str, Path(pattern=r"^[a-z0-9_]{1,32}\.[a-z0-9_]{1,32}$", max_length=65,
                                 description="the lesson's id: game.rule set")]


class StartLesson(P.Body):
    name: P.Name = Field(..., description="the learner's name at the table")


def _lesson(lesson_id: str) -> Lesson:
    try:
        return lesson(lesson_id)
    except ConfigError:
        raise bad("no such lesson", 404, "lesson", lesson=lesson_id) from None


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
    return await make_table(create, request, cfg, base, rows)
