"""`POST /api/replay`: the views of a game record, step by step (the replay viewer).

The browser's replay page fetches a finished game's record (`GET /api/tables/{code}/record`)
and posts it here with the seat whose view it wants:

    POST /api/replay
    {"record": {...NOTATION.md record...}, "seat": 2 | null, "names": ["Ann", ...]?}

    200 {"game", "variant", "players", "seat", "names", "actions", "over", "scores",
         "winners", "steps": [Step, ...]}
    Step = {"index": i, "seat": who decided (null for step 0), "decision": the action's text
            (null for step 0), "text": {"en": ..., "de": ...}, "view": the view after i actions}

- `seat` null is the **full view**: the engine's own `view(None)` (NOTATION.md, "seen by nobody
  in particular": every hand, grid card and pending card shown; the deck as a count). A seat
  number gives exactly `view(seat)` after each action (`cardtable replay --as SEAT`): other
  hands as counts, unseen Kombio cards as "?".
- `steps[0]` is the state before the first action; `steps[i]` the state after action i-1, which
  `steps[i].seat` took (the engine's `to_move` before it). So there are `len(actions) + 1` steps.
- `text`: the action in words in English and German, built from the chosen viewer's views only
  (the same words the table's event log uses; "" when there is nothing visible to say, e.g.
  another seat's answer in a Kombio snap window before it closes).
- `scores`/`winners`: the engine's final scores (Abluxxen points, Kombio totals) and winning
  seats; null if the record stops before the end (any record is accepted: it is the client's
  own data).
- `names` (optional, one per seat, 1-40 characters): used in the words; default "Seat N" /
  "Platz N".

Errors (never a 5xx): `413` a body over `MAX_BODY` bytes; `422` a malformed body
(FastAPI's validation list in `detail`), or a record the engine refuses:
`{"detail": "...", "error": "bad_record"}` (RecordError: unknown game or variant, impossible
deal, ...), `{"detail": "...", "error": "illegal_action", "index": i, "action": "...",
"reason": "..."}` (ReplayError: action i is illegal where it stands), `{"detail": "...",
"error": "bad_seat"}` (seat or names do not fit the player count).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardtable.core.errors import CardtableError
from cardtable.core.record import ReplayError, load_record
from cardtable.server.views import describe

log = logging.getLogger("cardtable.web.replay")

#: the largest request body (bytes) and the most actions a record may have
MAX_BODY = 2 * 1024 * 1024
MAX_ACTIONS = 5000
MAX_SEATS = 8
LANGS = ("en", "de")
#: at most this many replays are computed at once, each in a worker thread of the default
#: executor, which the bots and table loads share (6 threads on 2 cores): the slot is taken on
#: the event loop before a thread is, so waiting replays hold no thread
REPLAY_SLOTS = 2
_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # event loop -> Semaphore


def _loop_slots() -> asyncio.Semaphore:
    """This event loop's semaphore (an asyncio.Semaphore belongs to one loop)."""
    loop = asyncio.get_running_loop()
    sem = _slots.get(loop)
    if sem is None:
        sem = _slots[loop] = asyncio.Semaphore(REPLAY_SLOTS)
    return sem


class _LimitedBodyRoute(APIRoute):
    """Reads the request body itself, refusing (413) one over MAX_BODY before it is parsed,
    whether or not the client sent a Content-Length."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def limited(request: Request) -> Response:
            too_big = JSONResponse({"detail": f"the body is larger than {MAX_BODY} bytes",
                                    "error": "too_large"}, status_code=413)
            length = request.headers.get("content-length")
            if length is not None:
                try:
                    if int(length) > MAX_BODY:
                        return too_big
                except ValueError:
                    return JSONResponse({"detail": "bad Content-Length"}, status_code=400)
            body = bytearray()
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    return too_big
            request._body = bytes(body)      # Starlette's cache: the handler reads it from here
            return await handler(request)

        return limited


router = APIRouter(route_class=_LimitedBodyRoute)

Action = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class Record(BaseModel):
    """A game record (NOTATION.md). Only the outer shape is checked here; the engine checks
    the rest (variant, players, deal, every action). Other keys are passed on unchanged."""

    model_config = ConfigDict(extra="allow", strict=True)

    game: Literal["abluxxen", "kombio"]
    actions: Annotated[list[Action], Field(max_length=MAX_ACTIONS)] = []


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    record: Record
    #: whose view: a seat number, or null for the full view
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS)] | None = None
    #: display names, one per seat (optional)
    names: Annotated[list[Name], Field(min_length=1, max_length=MAX_SEATS)] | None = None


class ReplayStep(BaseModel):
    index: int
    seat: int | None
    decision: str | None
    text: dict[str, str]
    view: dict[str, Any]


class ReplayResponse(BaseModel):
    game: str
    variant: str | None
    players: int
    seat: int | None
    names: list[str]
    actions: int
    over: bool
    scores: list[int] | None
    winners: list[int] | None
    steps: list[ReplayStep]


class _Refused(Exception):
    def __init__(self, body: dict):
        self.body = body


def _names(given: list[str] | None, players: int) -> dict[str, list[str]]:
    if given is None:
        return {"en": [f"Seat {s}" for s in range(players)],
                "de": [f"Platz {s}" for s in range(players)]}
    return {lang: list(given) for lang in LANGS}


def build_replay(record: dict, seat: int | None, names: list[str] | None) -> dict:
    """The replay of `record` for `seat` (None: the full view). Raises _Refused."""
    actions = record.get("actions", [])
    try:
        state = load_record(dict(record, actions=[]))
    except CardtableError as e:
        raise _Refused({"detail": str(e), "error": "bad_record"}) from None
    players = state.players
    if seat is not None and seat >= players:
        raise _Refused({"detail": f"seat {seat} is not in this game (seats 0..{players - 1})",
                        "error": "bad_seat"})
    if names is not None and len(names) != players:
        raise _Refused({"detail": f"names: {len(names)} given for {players} seats",
                        "error": "bad_seat"})
    words = _names(names, players)
    game = state.game
    view = state.view(seat)
    steps = [{"index": 0, "seat": None, "decision": None, "text": {"en": "", "de": ""},
              "view": view}]
    for i, action in enumerate(actions):
        if state.over:
            raise _Refused(_illegal(ReplayError(i, action, "the game is already over")))
        actor = state.to_move
        try:
            state.apply(action)
        except CardtableError as e:
            raise _Refused(_illegal(ReplayError(i, action, getattr(e, "reason", str(e))))) from None
        after = state.view(seat)
        text = {lang: describe(game, view, action, after, actor, seat, words[lang], lang)
                for lang in LANGS}
        steps.append({"index": i + 1, "seat": actor, "decision": state.history[-1]
                      if state.history else action, "text": text, "view": after})
        view = after
    return {"game": game, "variant": view.get("variant"), "players": players, "seat": seat,
            "names": names if names is not None else words["en"], "actions": len(actions),
            "over": state.over, "scores": state.scores(), "winners": state.winners(),
            "steps": steps}


def _illegal(e: ReplayError) -> dict:
    return {"detail": str(e), "error": "illegal_action", "index": e.index, "action": e.action,
            "reason": e.reason}


def _safe_build(record: dict, seat: int | None, names: list[str] | None) -> dict:
    try:
        return build_replay(record, seat, names)
    except _Refused:
        raise
    except RecursionError:
        raise _Refused({"detail": "the record is nested too deeply", "error": "bad_record"}) from None
    except Exception as e:  # noqa: BLE001 -- the engine choked on a shape it does not check: the input's fault
        log.warning("replay: unexpected %s on a posted record: %s", type(e).__name__, e)
        raise _Refused({"detail": f"malformed record ({type(e).__name__}: {e})"[:300],
                        "error": "bad_record"}) from None


@router.post(
    "/api/replay",
    response_model=ReplayResponse,
    tags=["replay"],
    summary="The views of a game record, step by step",
    responses={413: {"description": "body over 2 MiB"},
               422: {"description": "malformed body, record or action (detail says which)"}},
)
async def replay(req: ReplayRequest) -> JSONResponse:
    """Replays `record` and returns the view of `seat` (null: the full view) after every
    action, with each action's seat and text. See the module docstring."""
    record = req.record.model_dump()
    try:
        async with _loop_slots():
            out = await asyncio.to_thread(_safe_build, record, req.seat, req.names)
    except _Refused as r:
        return JSONResponse(r.body, status_code=422)
    return JSONResponse(out)
