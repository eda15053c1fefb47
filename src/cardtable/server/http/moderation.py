"""Moderation over HTTP (docs/api.md, "Moderation"): reports, and the moderators' routes (reports: list, claim, resolve; bans of accounts; the audit log for admins).
Each report filed and each moderator's action done here is counted in the metrics
(cardtable_reports_total{reason}, cardtable_mod_actions_total{kind}: observe/metrics.py).

What a ban refuses is http/refusals.py; the store side is mod/moderation.py; the same operations run from the terminal as
`cardtable admin` (cli/admin_cmd.py).
"""

from __future__ import annotations

import time
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from cardtable.server.errors import ApiError
from cardtable.server.guard.login_limits import Buckets
from cardtable.server.guard.security import name_keys
from cardtable.server.mod import moderation as M
from cardtable.server.mod import notices as N
from cardtable.server.http.refusals import accounts_store as _store
from cardtable.server.http.refusals import refuse_banned
from cardtable.server.people import accounts as A
from cardtable.server.people.profiles import lines_of as profile_lines
from cardtable.server.protocol import Name
from cardtable.server.talk import chat as talk

Id = Annotated[int, Path(ge=1, le=2**53)]
#: reports one account may file: a burst, then this many a day (each process counts its own)
REPORT_BURST = 5
REPORTS_PER_DAY = 20.0


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ReportIn(Body):
    name: Name = Field(..., description="the reported player's name (as shown)")
    reason: Literal[M.REPORT_REASONS] = Field(..., description="why")   # type: ignore[valid-type]
    note: str = Field("", max_length=500, description="optional words")
    table: str | None = Field(None, pattern=r"^[A-Za-z0-9]{1,32}$",
                              description="the table it happened at")
    move: int | None = Field(None, ge=0, le=100_000, description="the move index (replay)")
    line: int | None = Field(None, ge=1, le=2**53, description="the chat line reported")


class ReportOut(BaseModel):
    id: int
    name: str = Field(..., description="the reported player")
    reason: str
    note: str
    created_at: float
    handled: bool = Field(..., description="a moderator resolved it")
    outcome: str | None = None


class ModReport(ReportOut):
    reporter: str
    evidence: dict
    claimed_by: str | None
    claimed_at: float | None
    resolved_at: float | None
    resolution: str | None
    profile_line: str = Field("", description="the reported player's profile line ('' none)")


class Resolve(Body):
    outcome: Literal[M.OUTCOMES] = Field(...)                            # type: ignore[valid-type]
    note: str = Field(..., min_length=1, max_length=500)


class BanIn(Body):
    name: Name | None = Field(None, description="an account's name")
    seat: str | None = Field(None, pattern=r"^[A-Za-z0-9]{1,32}:[0-9]{1,2}$",
                             description="CODE:N: the browser (or a guest without one, the "
                                         "address) that took this seat")
    line: int | None = Field(None, ge=1, le=2**53, description="a line of table talk (its "
                             "`seq`): its writer, an account or a guest's browser (as mutes)")
    reason: str = Field(..., min_length=1, max_length=500)
    until: str | None = Field(None, max_length=40, description="a suspension's end: 30m, "
                              "12h, 3d, 2w or an ISO 8601 time; none: a ban")


class BanMade(BaseModel):
    id: int
    name: str = Field(..., description="the account's name, or `seat CODE:N`")
    reason: str
    until: float | None


class MuteIn(Body):
    name: Name | None = Field(None, description="an account's name")
    seat: str | None = Field(None, pattern=r"^[A-Za-z0-9]{1,32}:[0-9]{1,2}$",
                             description="CODE:N: the guest who took this seat (as bans)")
    line: int | None = Field(None, ge=1, le=2**53, description="a line of table talk (its "
                             "`seq`): its writer, an account or a guest's browser, at a seat "
                             "or watching")
    reason: str = Field(..., min_length=1, max_length=500)
    until: str = Field(..., min_length=1, max_length=40, description="the mute's end: 30m, "
                       "12h, 3d, 2w or an ISO 8601 time")


class UnmuteIn(Body):
    name: Name | None = Field(None, description="an account's name")
    seat: str | None = Field(None, pattern=r"^[A-Za-z0-9]{1,32}:[0-9]{1,2}$",
                             description="CODE:N: the guest who took this seat")
    line: int | None = Field(None, ge=1, le=2**53, description="a line of table talk: its "
                             "writer (as for a mute)")
    reason: str = Field(..., min_length=1, max_length=500)


class MuteMade(BaseModel):
    id: int
    name: str = Field(..., description="the account's name, or `seat CODE:N`")
    reason: str
    until: float


class WarnIn(Body):
    name: Name | None = Field(None, description="the account to warn")
    line: int | None = Field(None, ge=1, le=2**53, description="a line of table talk: its "
                             "writer's account")
    text: str = Field(..., min_length=1, max_length=500, description="what the player reads")


class WarningOut(BaseModel):
    id: int
    text: str = Field(..., description="a moderator's words")
    at: float


class RemoveLineIn(Body):
    reason: str = Field(..., min_length=1, max_length=500)


class LineRemoved(BaseModel):
    line: int
    table: str = Field(..., description="the table's code")
    name: str = Field(..., description="who wrote it")
    removed: bool = Field(..., description="false: it had been removed already")


def _report_out(r: dict) -> ReportOut:
    return ReportOut(id=r["id"], name=r["target_name"], reason=r["reason"], note=r["note"],
                     created_at=r["created_at"], handled=r["resolved_at"] is not None,
                     outcome=r["outcome"])


def _mod_report(r: dict) -> ModReport:
    return ModReport(**_report_out(r).model_dump(), reporter=r["reporter"],
                     evidence=r["evidence"], claimed_by=r["claimed_by"],
                     claimed_at=r["claimed_at"], resolved_at=r["resolved_at"],
                     resolution=r["resolution"])


def mod_error(e: M.ModError) -> ApiError:
    status = {"no_report": 404, "no_account": 404, "no_line": 404, "report_claimed": 409,
              "name_taken": 409, "no_table": 404, "not_rated": 409,
              "annulled": 409}.get(e.error, 422)
    return ApiError(status, str(e), e.error, e.params)


router = APIRouter(tags=["moderation"])


def counted(request: Request, kind: str) -> None:
    """One moderator's action of this kind done (cardtable_mod_actions_total{kind})."""
    request.app.state.metrics.mod_action(kind)


async def account_of(request: Request) -> dict:
    """The logged-in account (401 otherwise)."""
    account, _ = await request.app.state.accounts.me(request)
    return account


async def staff(request: Request, admin: bool = False) -> dict:
    """The logged-in account if it is a moderator (or, with `admin`, an admin); 403
    `not_moderator` / `not_admin` otherwise."""
    account = await account_of(request)
    role = await A.read(_store(request), M.role_of(account["id"]))
    if role not in ("moderator", "admin"):
        raise ApiError(403, "this is for moderators", "not_moderator")
    if admin and role != "admin":
        raise ApiError(403, "this is for admins", "not_admin")
    return account


# -- reports -----------------------------------------------------------------------------------
def _limits(request: Request) -> Buckets:
    st = request.app.state
    if getattr(st, "report_limits", None) is None:
        st.report_limits = Buckets(REPORTS_PER_DAY / 86400.0, REPORT_BURST, 100_000)
    return st.report_limits


async def _evidence(request: Request, req: ReportIn) -> dict:
    """What a report carries: the table, the move, and the lines of table talk around the
    reported one (the five before it and after it, as stored)."""
    out: dict = {"table": req.table.upper() if req.table else None, "move": req.move,
                 "line": req.line, "lines": []}
    if req.table and req.line is not None:
        rows = await A.read(_store(request), _lines_around(req.table.upper(), req.line))
        out["lines"] = rows
    return out


def _lines_around(code: str, line: int):
    """The table's line `line`, the five before it and the five after, of its channel (a
    spectator's line: `name` None, `spectator` its number, named in the reader's language)."""
    base = ("SELECT c.id, c.seat, c.name, c.kind, c.text, c.at, c.spectator FROM chat c "
            "JOIN game_tables t "
            "ON t.id = c.table_id WHERE t.code = :c AND c.channel = (SELECT channel FROM chat "
            "WHERE id = :l) AND ")
    before = yield (base + "c.id <= :l ORDER BY c.id DESC LIMIT 6", {"c": code, "l": line})
    after = yield (base + "c.id > :l ORDER BY c.id LIMIT 5", {"c": code, "l": line})
    return [dict(zip(("id", "seat", "name", "kind", "text", "at", "spectator"), r))
            for r in before[::-1] + after]


def _line_author(code: str, line: int):
    """The line `line` of table `code`'s talk (either channel): None if the table has no such
    line; else (the account that wrote it: its seat's, or a spectator's session's; None for a
    guest's line, how the line names its writer: the seat's name or `spectator N`)."""
    rows = yield ("SELECT COALESCE(s.account_id, c.account_id), c.seat, c.name, c.spectator "
                  "FROM chat c JOIN game_tables t ON t.id = c.table_id "
                  "LEFT JOIN seats s ON c.seat IS NOT NULL AND s.table_id = c.table_id AND "
                  "s.seat = c.seat WHERE t.code = :c AND c.id = :l",
                  {"c": code, "l": line})
    if not rows:
        return None
    account_id, seat, name, spectator = rows[0]
    return account_id, name if seat is not None and name else f"spectator {spectator}"


async def _line_of(request: Request, req: ReportIn):
    """The reported line's author (`_line_author`), None without a line: 422 `report_line` (a
    line without its table), 404 `no_line`."""
    if req.line is None:
        return None
    if not req.table:
        raise ApiError(422, "a reported line needs its table", "report_line",
                       {"field": "table"})
    found = await A.read(_store(request), _line_author(req.table.upper(), req.line))
    if found is None:
        raise ApiError(404, f"table {req.table.upper()} has no line {req.line}", "no_line",
                       {"line": req.line})
    return found


@router.post("/api/reports", response_model=ReportOut, status_code=201)
async def report(req: ReportIn, request: Request) -> ReportOut:
    """Report a player (or one of their lines of table talk: `table` and `line`) with a
    reason and an optional note. A line written by an account must be the named player's
    (422 `report_not_author`); a guest's line (at a seat or watching) is reported as its
    writer, whatever `name` says (the report names the line's seat, or `spectator N`), and
    a moderator acts on it through the line (`line` of POST /api/mod/mutes, bans,
    warnings). The report carries the lines around the reported one, the table and the
    move. Limited per account (429 `report_limited`); 404 `no_account`, `no_line`; 422
    `report_not_author`, `report_line`."""
    me = await account_of(request)
    await refuse_banned(request, me["id"])
    line = await _line_of(request, req)
    if line is not None and line[0] is None:            # a guest's line: its writer
        target = (None, line[1])
    else:
        target = await A.read(_store(request), M.account_by_keys(name_keys(req.name)))
        if target is None:
            raise ApiError(404, f"no account is named {req.name!r}", "no_account",
                           {"name": req.name})
        if line is not None and line[0] != target[0]:
            raise ApiError(422, f"line {req.line} was not written by {req.name}",
                           "report_not_author", {"field": "line", "name": req.name})
    if target[0] == me["id"]:
        raise ApiError(422, "that is your own name", "report_self")
    wait = _limits(request).take(str(me["id"]))
    if wait:
        seconds = int(wait + 0.999)
        raise ApiError(429, f"too many reports: try again in {seconds} seconds",
                       "report_limited", {"seconds": seconds}, {"Retry-After": str(seconds)})
    evidence = await _evidence(request, req)
    rid = await A.write(_store(request), lambda: M.file_report(
        me["id"], target[0], target[1], req.reason, " ".join(req.note.split()), evidence))
    request.app.state.metrics.reported(req.reason)          # cardtable_reports_total{reason}
    return ReportOut(id=rid, name=target[1], reason=req.reason,
                     note=" ".join(req.note.split()), created_at=time.time(), handled=False)


@router.get("/api/me/reports", response_model=list[ReportOut])
async def my_reports(request: Request) -> list[ReportOut]:
    """My reports, newest first: whether a moderator handled each, and the outcome."""
    me = await account_of(request)
    return [_report_out(r) for r in await A.read(_store(request), M.reports_of(me["id"]))]


# -- moderators ----------------------------------------------------------------------------------
@router.get("/api/mod/reports", response_model=list[ModReport])
async def mod_reports(request: Request, status: str = Query("open", pattern="^(open|all)$"),
                      reason: str | None = Query(None, pattern="^[a-z]{1,16}$")
                      ) -> list[ModReport]:
    """The reports (moderators): open ones oldest first, or all newest first; `reason`
    filters. 403 `not_moderator`."""
    await staff(request)
    rows = await A.read(_store(request), M.report_list(status == "open", reason))
    lines = await A.read(_store(request), profile_lines(sorted({r["target_name"] for r in rows})))
    return [_mod_report(r).model_copy(update={"profile_line": lines.get(r["target_name"], "")})
            for r in rows]


@router.post("/api/mod/reports/{report_id}/claim", response_model=ModReport)
async def mod_claim(report_id: Id, request: Request) -> ModReport:
    """Take a report on (moderators): 409 `report_claimed` if another moderator has."""
    me = await staff(request)
    try:
        out = _mod_report(await A.write(_store(request),
                                        lambda: M.claim_report(me["name"], report_id)))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "claim")
    return out


@router.post("/api/mod/reports/{report_id}/resolve", response_model=ModReport)
async def mod_resolve(report_id: Id, req: Resolve, request: Request) -> ModReport:
    """Close a report with an outcome and a note (moderators); the reporter sees the
    outcome (GET /api/me/reports)."""
    me = await staff(request)
    try:
        out = _mod_report(await A.write(_store(request), lambda: M.resolve_report(
            me["name"], report_id, req.outcome, req.note)))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "resolve")
    return out


@router.post("/api/mod/bans", response_model=BanMade, status_code=201)
async def mod_ban(req: BanIn, request: Request) -> BanMade:
    """Ban an account (`name`), the guest of a seat (`seat`) or the writer of a line of
    table talk (`line`: an account, or a guest's browser at a seat or watching), or suspend
    them with `until` (moderators): their open table connections close at once (code 4403,
    with the reason and until when), a seat being played is left to the stand-in bot. 404
    `no_account` / `no_seat` / `no_line`; 409 `ban_no_identity`; 422 `bad_until`,
    `ban_target` (not exactly one of `name`, `seat` and `line`)."""
    me = await staff(request)
    _one_target(req, "ban_target")
    notify = _store(request).url.is_postgres           # every process cuts (ws/bans.py)
    try:
        until = M.parse_until(req.until) if req.until else None
        if req.name is not None:
            out = await A.write(_store(request), lambda: M.ban_account(
                me["name"], name_keys(req.name), req.name, req.reason, until, notify))
        elif req.line is not None:
            kind, target, shown, name = await _line_target(request, req.line, "ban")
            out = await A.write(_store(request), lambda: M.ban(
                me["name"], kind, target, shown, req.reason, until, notify))
            out["name"] = name
        else:
            code, n = req.seat.upper().split(":")
            person = await A.read(_store(request), M.seat_person(code, int(n)))
            if person is None:
                raise ApiError(404, f"table {code} has no seat {n} taken by a client",
                               "no_seat")
            shown = f"person {person[:8]} (table {code} seat {n})"
            out = await A.write(_store(request), lambda: M.ban(
                me["name"], "person", person, shown, req.reason, until, notify))
            out["name"] = f"seat {code}:{n}"
    except M.ModError as e:
        raise mod_error(e) from None
    await request.app.state.cut_banned(out)            # this process's connections, at once
    counted(request, "ban" if out["until"] is None else "suspend")
    return BanMade(id=out["id"], name=out["name"], reason=out["reason"], until=out["until"])


@router.post("/api/mod/lines/{line}/remove", response_model=LineRemoved)
async def mod_remove_line(line: Id, req: RemoveLineIn, request: Request) -> LineRemoved:
    """Remove a line of table talk (moderators; `line`: its `seq`): players see "removed by
    a moderator" instead of it, at the table (live) and in the replay; the report evidence
    and the audit log keep its text. 404 `no_line`."""
    me = await staff(request)
    store = _store(request)
    try:
        out = await A.write(store, lambda: N.remove_line(me["name"], line, req.reason,
                                                         store.url.is_postgres))
    except M.ModError as e:
        raise mod_error(e) from None
    if out["removed"]:
        talk.removed(request.app.state.hub(), out["table_id"], out["line"])
        counted(request, "remove_line")
    return LineRemoved(line=out["line"], table=out["code"], name=out["name"],
                       removed=out["removed"])


async def _seat_target(request: Request, seat: str) -> tuple[str, str, str]:
    """(the person half of the seat's client, how the audit log names it, `seat CODE:N`);
    404 `no_seat`."""
    code, n = seat.upper().split(":")
    person = await A.read(_store(request), M.seat_person(code, int(n)))
    if person is None:
        raise ApiError(404, f"table {code} has no seat {n} taken by a client", "no_seat")
    return person, f"person {person[:8]} (table {code} seat {n})", f"seat {code}:{n}"


def _one_target(req, error: str = "mute_target") -> None:
    """422 `error` unless the request names exactly one of name, seat and line."""
    given = [getattr(req, f, None) for f in ("name", "seat", "line")]
    if sum(x is not None for x in given) != 1:
        raise ApiError(422, "name one of name, seat and line", error, {"field": "name"})


async def _line_target(request: Request, line: int, action: str = "mute"
                       ) -> tuple[str, str, str, str]:
    """(kind, target, how the audit log names it, how the answer names it) of the writer of
    the chat line `line`; 404 `no_line`, 409 `mute_no_identity` / `ban_no_identity` (a guest
    spectator whose browser gave no identity: the line keeps no address, and a mute by
    address would silence everybody behind it; the operator's `cardtable admin ban
    --address` is what can go by the address group)."""
    found = await A.read(_store(request), N.line_writer(line))
    if found is None:
        raise ApiError(404, f"there is no line {line}", "no_line", {"line": line})
    if found[0] == "none":
        raise ApiError(409, f"this line's writer is a guest whose browser gave no identity: "
                            f"nothing a {action} through the line can hold (only the "
                            "operator's ban can go by the address group)",
                       f"{action}_no_identity", {"line": line})
    return found


@router.post("/api/mod/mutes", response_model=MuteMade, status_code=201)
async def mod_mute(req: MuteIn, request: Request) -> MuteMade:
    """Mute an account (`name`), the guest of a seat (`seat`) or the writer of a line of
    table talk (`line`: an account, or a guest's browser at a seat or watching) in table talk
    until `until` (moderators): their lines are refused (`chat_muted`, saying until when and
    why). 404 `no_account` / `no_seat` / `no_line`; 409 `mute_no_identity`; 422 `bad_until`,
    `mute_target`."""
    me = await staff(request)
    _one_target(req)
    try:
        until = M.parse_until(req.until)
        if req.name is not None:
            out = await A.write(_store(request), lambda: N.mute_account(
                me["name"], name_keys(req.name), req.name, req.reason, until))
        elif req.line is not None:
            kind, target, shown, name = await _line_target(request, req.line)
            out = await A.write(_store(request), lambda: N.mute(
                me["name"], kind, target, shown, req.reason, until))
            out["name"] = name
        else:
            person, shown, name = await _seat_target(request, req.seat)
            out = await A.write(_store(request), lambda: N.mute(
                me["name"], "person", person, shown, req.reason, until))
            out["name"] = name
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "mute")
    return MuteMade(id=out["id"], name=out["name"], reason=out["reason"], until=out["until"])


@router.post("/api/mod/unmutes")
async def mod_unmute(req: UnmuteIn, request: Request) -> dict:
    """Lift the mutes in force of an account (`name`), a seat's guest (`seat`) or a line's
    writer (`line`) (moderators): {"lifted": how many}."""
    me = await staff(request)
    _one_target(req)
    try:
        if req.name is not None:
            n = await A.write(_store(request), lambda: N.unmute_account(
                me["name"], name_keys(req.name), req.name, req.reason))
        elif req.line is not None:
            kind, target, shown, _ = await _line_target(request, req.line)
            n = await A.write(_store(request), lambda: N.unmute(
                me["name"], kind, target, shown, req.reason))
        else:
            person, shown, _ = await _seat_target(request, req.seat)
            n = await A.write(_store(request), lambda: N.unmute(
                me["name"], "person", person, shown, req.reason))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "unmute")
    return {"lifted": n}


@router.post("/api/mod/warnings", status_code=201)
async def mod_warn(req: WarnIn, request: Request) -> dict:
    """Warn an account (`name`, or the writer of a line of table talk: `line`) with a text
    (moderators): it sees the warning (GET /api/me, `warnings`) until it marks it read.
    `201 {"id", "name"}`; 404 `no_account`, `no_line`; 409 `warn_guest` (the line's writer
    is a guest: no account to show a warning to; mute, suspend or ban instead); 422
    `warn_target` (not exactly one of `name` and `line`)."""
    me = await staff(request)
    _one_target(req, "warn_target")
    try:
        if req.name is not None:
            out = await A.write(_store(request), lambda: N.warn(
                me["name"], name_keys(req.name), req.name, req.text))
        else:
            found = await A.read(_store(request), N.line_writer(req.line))
            if found is None:
                raise ApiError(404, f"there is no line {req.line}", "no_line",
                               {"line": req.line})
            if found[0] != "account":
                raise ApiError(409, "this line's writer is a guest: a warning is shown to an "
                                    "account, and a guest has none (mute, suspend or ban "
                                    "instead)", "warn_guest", {"line": req.line})
            out = await A.write(_store(request), lambda: N.warn_account(
                me["name"], int(found[1]), found[2], found[3], req.text))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "warn")
    return out


@router.post("/api/me/warnings/{warning}/read", status_code=204)
async def read_warning(warning: Id, request: Request) -> Response:
    """I have read a moderator's warning: it no longer comes with GET /api/me. 404
    `no_warning` if I have none of that number."""
    me = await account_of(request)
    if not await A.write(_store(request), lambda: N.read_warning(me["id"], warning)):
        raise ApiError(404, "you have no warning of that number", "no_warning")
    return Response(status_code=204)


class AnnulIn(Body):
    reason: str = Field(..., min_length=1, max_length=500, description="why (the audit log)")


class Annulled(BaseModel):
    table: str
    game: str
    recomputed: int = Field(..., description="the ratings recomputed without the game")


@router.post("/api/mod/tables/{code}/annul", response_model=Annulled)
async def mod_annul(code: Annotated[str, Path(pattern=r"^[A-Za-z0-9]{1,32}$")], req: AnnulIn,
                    request: Request) -> Annulled:
    """Annul a finished rated game (moderators): it stays in the records and the replay,
    marked annulled, and the ratings it touched are recomputed without it, with the games
    played after it. 404 `no_table`; 409 `not_rated` (not a finished rated game), `annulled`
    (already: nothing changes)."""
    me = await staff(request)
    store = _store(request)
    try:
        out = await A.write(store, lambda: M.annul_game(me["name"], code, req.reason,
                                                        store.url.is_postgres))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "annul")
    return Annulled(table=out["code"], game=out["game"], recomputed=len(out["players"]))


@router.get("/api/mod/audit")
async def mod_audit(request: Request, limit: int = Query(100, ge=1, le=M.MAX_LIST)
                    ) -> list[dict]:
    """The audit log, newest first (admins; 403 `not_admin`)."""
    await staff(request, admin=True)
    return await A.read(_store(request), M.audit_rows(limit))
