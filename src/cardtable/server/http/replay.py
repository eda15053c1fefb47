"""`POST /api/replay`: the views of a game record, step by step (the replay viewer).

The browser's replay page fetches a finished game's record (`GET /api/tables/{code}/record`)
and posts it here with the seat whose view it wants:

    POST /api/replay
    {"record": {...NOTATION.md record...}, "seat": 2 | null, "names": ["Ann", ...]?,
     "from": 0?, "count": 1000?}

    200 {"game", "variant", "players", "seat", "names", "names_by_lang", "actions", "over",
         "scores", "winners", "from", "steps": [Step, ...]}
    Step = {"index": i, "seat": who decided (null for step 0), "decision": the action's text
            (null for step 0), "move": the action as JSON ({"text", "kind", "args"},
            docs/notation.md "Decisions as JSON"; null for step 0), "text": {"en": ..., "de":
            ...}, "view": the view after i actions, "why": {"en": ..., "de": ...} whose
            decision it is then and why, from `view`}

- `seat` null is the **full view**: the engine's own `view(None)` (NOTATION.md, "seen by nobody
  in particular": every hand, grid card and pending card shown; the deck as a count). A seat
  number gives exactly `view(seat)` after each action (`cardtable replay --as SEAT`): other
  hands as counts, unseen Kombio cards as "?".
- Step i is the state after i actions: step 0 before the first action, step i after action
  i-1, which step i's `seat` took (the engine's `to_move` before it); a record has
  `len(actions) + 1` steps. One answer holds the steps `from` .. `from + count - 1` (at most
  `MAX_PAGE`, default all up to that; fewer at the end): a game of any length is replayed page
  by page (the engine replays the actions before `from` without views, which is quick).
- `text`: the action in words in English and German, built from the chosen viewer's views only
  (the same words the table's event log uses, server/tables/views.py `describe`, with the seats'
  names, counted from 1); a Kombio snap-window answer, which the table words only in the
  window's result, gets its own line: the answer where the viewer saw it, else only that the
  seat answered.
- `scores`/`winners`: the engine's final scores (Abluxxen points, Kombio totals) and winning
  seats; null if the record stops before the end (any record is accepted: it is the client's
  own data).
- `names` (optional, one per seat, 1-40 characters): used in the words; default "Seat N" /
  "Platz N" with seats counted from 1, as everywhere a player reads them.

The posted body is read once, in a worker thread (security.strict_json, then the pydantic
models, then the replay and the answer's JSON): a big record never holds up the event loop,
which the server's guard leaves it to (Guard.own_json). A record has at most `MAX_ACTIONS`
actions (finished games of this server have their own route without that cap, GET
/api/tables/{code}/replay), and each client address has its own budget of posted replays
(security.Limits.replays_per_minute, apart from the HTTP budget).

Errors (never a 5xx): `413` a body over `MAX_BODY` bytes (the server's guard), `429`
`{"error": "replay_limited"}` with Retry-After when the address's replay budget is spent,
`400` a body that is not JSON (`bad_json`); `422` a malformed body (`invalid`, the validation
list in `detail`), a record of more than `MAX_ACTIONS` actions (`record_too_long`), or a record
the engine refuses:
`{"detail": "...", "error": "bad_record"}` (RecordError: unknown game or variant, impossible
deal, ...), `{"detail": "...", "error": "illegal_action", "index": i, "action": "...",
"reason": "..."}` (ReplayError: action i is illegal where it stands), `{"detail": "...",
"error": "bad_seat"}` (seat or names do not fit the player count).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import weakref
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from cardtable.core import registry
from cardtable.core.errors import CardtableError
from cardtable.core.record import ReplayError, load_record
from cardtable.i18n import LANGS, t
from cardtable.narration import web_why
from cardtable.server.guard import security
from cardtable.server.guard.security import MAX_REPLAY_BODY, client_addr
from cardtable.server.tables.views import describe

log = logging.getLogger("cardtable.server.replay")

#: the largest request body (bytes; enforced by the server's guard), the most actions a record
#: may have, and the most steps one answer holds. MAX_ACTIONS: a Kombio game of 6 players to
#: the highest target the lobby allows (1,000 points) played at random, Kombio called rarely
#: (1 in 60 chances), took 5,543 actions (65 KB); 20,000 leaves a margin of 3.6 (240 KB).
#: Games of this server are replayed by GET /api/tables/{code}/replay, whatever their length.
MAX_BODY = MAX_REPLAY_BODY
MAX_ACTIONS = 20_000
MAX_PAGE = 1000
MAX_SEATS = 8
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


router = APIRouter()

Action = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


def _known_game(name: str) -> str:
    """A game the house knows (core/registry.py), looked up when the record comes."""
    if name not in registry.names():
        raise ValueError(f"unknown game {name[:32]!r} (known: {', '.join(registry.names())})")
    return name


class Record(BaseModel):
    """A game record (NOTATION.md). Only the outer shape is checked here; the engine checks
    the rest (variant, players, deal, every action). Other keys are passed on unchanged."""

    model_config = ConfigDict(extra="allow", strict=True)

    game: Annotated[str, StringConstraints(max_length=32), AfterValidator(_known_game)]
    actions: Annotated[list[Action], Field(max_length=MAX_ACTIONS)] = []


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    record: Record
    #: whose view: a seat number, or null for the full view
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS)] | None = None
    #: display names, one per seat (optional)
    names: Annotated[list[Name], Field(min_length=1, max_length=MAX_SEATS)] | None = None
    #: the first step of the answer, and how many steps (a page)
    from_: Annotated[int, Field(ge=0, le=MAX_ACTIONS, alias="from")] = 0
    count: Annotated[int, Field(ge=1, le=MAX_PAGE)] = MAX_PAGE


class ReplayStep(BaseModel):
    index: int
    seat: int | None
    decision: str | None
    #: the decision as JSON (GameState.decision_json: text, kind, args), null at step 0
    move: dict[str, Any] | None = None
    text: dict[str, str]
    view: dict[str, Any]
    #: whose decision it is and why at this step, in both languages, from `view`
    why: dict[str, str]


class ReplayResponse(BaseModel):
    game: str
    variant: str | None
    players: int
    seat: int | None
    names: list[str]
    names_by_lang: dict[str, list[str]]     # the seat names in each language (en, de)
    actions: int
    over: bool
    scores: list[int] | None
    winners: list[int] | None
    from_: int = Field(alias="from")
    steps: list[ReplayStep]


class _Refused(Exception):
    def __init__(self, body: dict, status: int = 422):
        self.body = body
        self.status = status


def _names(given: list[str] | dict | None, players: int) -> dict[str, list[str]]:
    if isinstance(given, dict):                 # per language (a table's seat names)
        return {lang: list(given[lang]) for lang in LANGS}
    if given is None:
        return {lang: [t(lang, "seat.name", n=s + 1) for s in range(players)] for lang in LANGS}
    return {lang: list(given) for lang in LANGS}


def build_replay(record: dict, seat: int | None, names: list[str] | dict | None,
                 first: int = 0, count: int = MAX_PAGE) -> dict:
    """The replay of `record` for `seat` (None: the full view): steps `first` .. `first +
    count - 1`. Every action is checked, also those after the page. `names`: one per seat, or
    {"en": [...], "de": [...]}. Raises _Refused."""
    actions = record.get("actions", [])
    try:
        state = load_record(dict(record, actions=[]))
    except CardtableError as e:
        raise _Refused({"detail": str(e), "error": "bad_record"}) from None
    players = state.players
    if seat is not None and seat >= players:
        raise _Refused({"detail": f"seat {seat} is not in this game (seats 0..{players - 1})",
                        "error": "bad_seat"})
    if isinstance(names, list) and len(names) != players:
        raise _Refused({"detail": f"names: {len(names)} given for {players} seats",
                        "error": "bad_seat"})
    if first > len(actions):
        raise _Refused({"detail": f"from: the record has steps 0..{len(actions)}",
                        "error": "bad_page"})
    words = _names(names, players)
    game = state.game
    last = first + count - 1                     # the page's last step
    view = state.view(seat) if first == 0 else None
    steps = [] if first else [{"index": 0, "seat": None, "decision": None, "move": None,
                               "text": {"en": "", "de": ""}, "view": view}]
    for i, action in enumerate(actions):
        if state.over:
            raise _Refused(_illegal(ReplayError(i, action, "the game is already over")))
        actor = state.to_move
        in_page = first <= i + 1 <= last
        if in_page and view is None:
            view = state.view(seat)
        try:
            state.apply(action)
        except CardtableError as e:
            raise _Refused(_illegal(ReplayError(i, action, getattr(e, "reason", str(e))))) from None
        if not in_page:
            continue
        after = state.view(seat)
        text = {lang: describe(game, view, action, after, actor, seat, words[lang], lang,
                               every_step=True) for lang in LANGS}
        done = state.history[-1] if state.history else action
        steps.append({"index": i + 1, "seat": actor, "decision": done,
                      "move": state.decision_json(done, actor),
                      "text": text, "view": after})
        view = after
    for step in steps:                         # the browser's "why" line, from the step's view
        step["why"] = {lang: web_why(game, step["view"], seat, words[lang], lang)
                       for lang in LANGS}
    return {"game": game, "variant": state.view(None).get("variant"),
            "players": players, "seat": seat,
            "names": names if isinstance(names, list) else words["en"],
            "names_by_lang": words, "actions": len(actions),
            "over": state.over, "scores": state.scores(), "winners": state.winners(),
            "from": first, "steps": steps}


def _illegal(e: ReplayError) -> dict:
    return {"detail": str(e), "error": "illegal_action", "index": e.index, "action": e.action,
            "reason": e.reason}


def _safe_build(record: dict, seat: int | None, names: list[str] | dict | None,
                first: int = 0, count: int = MAX_PAGE) -> dict:
    try:
        return build_replay(record, seat, names, first, count)
    except _Refused:
        raise
    except RecursionError:
        raise _Refused({"detail": "the record is nested too deeply", "error": "bad_record"}) from None
    except Exception as e:  # noqa: BLE001 -- the engine choked on a shape it does not check: the input's fault
        log.warning("replay: unexpected %s on a posted record: %s", type(e).__name__, e)
        raise _Refused({"detail": f"malformed record ({type(e).__name__}: {e})"[:300],
                        "error": "bad_record"}) from None


def _inline_schema(model) -> dict:
    """`model`'s JSON schema with its definitions inlined (the route reads its body itself, so
    OpenAPI learns the body's shape from this)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})

    def inline(x):
        if isinstance(x, dict):
            ref = x.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(defs[ref.rsplit("/", 1)[1]])
            return {k: inline(v) for k, v in x.items()}
        if isinstance(x, list):
            return [inline(v) for v in x]
        return x
    return inline(schema)


def _json(out: dict) -> bytes:
    """The answer as JSON bytes (as JSONResponse renders it), made in the worker thread."""
    return json.dumps(out, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def parse_request(body: bytes) -> ReplayRequest:
    """(A worker thread.) The posted body, read once: strict JSON (security.strict_json), the
    record's length, then the pydantic models. Raises _Refused."""
    if not body:
        raise _Refused({"detail": "the body must be a JSON object with a record",
                        "error": "invalid", "params": {"field": "record"}})
    try:
        raw = security.strict_json(body)
    except security.BadJSON as e:
        raise _Refused({"detail": f"bad JSON body: {e}", "error": "bad_json"}, 400) from None
    record = raw.get("record") if isinstance(raw, dict) else None
    actions = record.get("actions") if isinstance(record, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise _Refused({"detail": f"a posted record has at most {MAX_ACTIONS} actions (this one "
                                  f"{len(actions)}); games of this server: GET "
                                  "/api/tables/{code}/replay",
                        "error": "record_too_long", "params": {"most": MAX_ACTIONS}})
    try:
        return ReplayRequest.model_validate(raw)
    except ValidationError as e:
        errs = e.errors(include_url=False, include_input=False, include_context=False)[:10]
        detail = [{"loc": [x if isinstance(x, int) else str(x)[:64] for x in err["loc"]][:8],
                   "msg": str(err.get("msg", "invalid"))[:200], "type": err.get("type", "")}
                  for err in errs]
        field = next((x for x in reversed(errs[0]["loc"]) if isinstance(x, str)), "") \
            if errs else ""
        raise _Refused({"detail": detail, "error": "invalid",
                        "params": {"field": field[:64]}}) from None


def _posted(body: bytes) -> bytes:
    """(A worker thread.) POST /api/replay from its body to its answer. Raises _Refused."""
    req = parse_request(body)
    return _json(_safe_build(req.record.model_dump(), req.seat, req.names, req.from_,
                             req.count))


@router.post(
    "/api/replay",
    response_model=ReplayResponse,
    tags=["replay"],
    summary="The views of a game record, step by step",
    openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
        "schema": _inline_schema(ReplayRequest)}}}},
    responses={400: {"description": "a body that is not JSON (bad_json)"},
               413: {"description": "body over 512 KiB"},
               422: {"description": "malformed body, record or action (detail says which); "
                                    "record_too_long: more than 20,000 actions"},
               429: {"description": "the address's replay budget is spent (replay_limited, "
                                    "Retry-After)"}},
)
async def replay(request: Request) -> Response:
    """Replays `record` and returns the view of `seat` (null: the full view) after every
    action, with each action's seat and text. See the module docstring."""
    clients = getattr(request.app.state, "clients", None)
    if clients is not None:
        wait = clients.replay_ok(client_addr(request.scope))
        if wait:
            secs = math.ceil(wait)
            return _error({"detail": f"too many replays from your address: try again in "
                                     f"{secs} s", "error": "replay_limited",
                           "params": {"seconds": secs}}, 429, {"Retry-After": str(secs)})
    body = await request.body()
    try:
        async with _loop_slots():
            out = await asyncio.to_thread(_posted, body)
    except _Refused as r:
        return _error(r.body, r.status)
    return Response(out, media_type="application/json")


def _error(body: dict, status: int, headers: dict | None = None) -> Response:
    return Response(json.dumps(dict({"params": {}}, **body)), status_code=status,
                    headers=headers, media_type="application/json")


async def replay_page(record: dict, seat: int | None, names, first: int = 0,
                      count: int = MAX_PAGE) -> Response:
    """A page of a replay (build_replay) in a worker thread, at most REPLAY_SLOTS at once;
    422 with the reason if the record is refused. (Also the server's
    GET /api/tables/{code}/replay: a finished table's own record, which never travels through
    a browser, whose numbers cannot hold its 128-bit seed.)"""
    try:
        async with _loop_slots():
            out = await asyncio.to_thread(lambda: _json(_safe_build(record, seat, names, first,
                                                                    count)))
    except _Refused as r:
        return _error(r.body, r.status)
    return Response(out, media_type="application/json")
