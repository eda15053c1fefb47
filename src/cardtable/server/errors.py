"""The errors of the HTTP API (docs/protocol.md, "Errors"): `{"detail", "error", "params"}`."""

from __future__ import annotations

from fastapi import HTTPException
from fastapi.exceptions import RequestValidationError

from cardtable.server.guard.security import NAME_MAX, BadName


class ApiError(HTTPException):
    """An error of the HTTP API: `detail` in English for API users, `error` a stable code
    and `params` its placeholders, so a client words it in its player's language (the
    browser: catalog key `err.api.<error>`; docs/protocol.md, "Errors")."""

    def __init__(self, status: int, detail: str, error: str, params: dict | None = None,
                 headers: dict | None = None):
        super().__init__(status_code=status, detail=detail, headers=headers)
        self.error = error
        self.params = params or {}


def bad(msg: str, status: int = 422, error: str = "invalid", **params) -> ApiError:
    return ApiError(status, msg, error, params)


def validation_errors(exc: RequestValidationError) -> list[dict]:
    """FastAPI's validation errors without the client's input (never echoed back: it may be
    megabytes, or not even encodable) and without the validators' context."""
    out = []
    for e in exc.errors()[:10]:
        loc = [x if isinstance(x, (int, str)) else str(x) for x in e.get("loc", ())]
        out.append({"loc": [str(x)[:64] if isinstance(x, str) else x for x in loc][:8],
                    "msg": str(e.get("msg", "invalid"))[:200], "type": str(e.get("type", ""))[:64]})
    return out


#: a field of the lobby's requests -> the error code of a validation error there
_FIELD_ERRORS = {"name": "bad_name", "target": "bad_target", "turn_seconds": "bad_timer",
                 "snap_seconds": "bad_snap", "players": "bad_players", "table": "not_a_code"}


def invalid_code(exc: RequestValidationError) -> dict:
    """`error` and `params` of a validation error (docs/protocol.md, "Errors"): the first
    field at fault decides. A name refused by security.clean_name says why (`why`)."""
    errs = exc.errors()
    if not errs:
        return {"error": "invalid", "params": {}}
    e = errs[0]
    loc = [x for x in e.get("loc", ()) if isinstance(x, str) and x not in ("body", "query",
                                                                          "path")]
    field = loc[-1] if loc else ""
    params: dict = {"field": field[:64]}
    cause = (e.get("ctx") or {}).get("error")
    if isinstance(cause, BadName):
        params.update(why=cause.why, **cause.params)
    elif field == "name" and e.get("type") in ("string_too_long", "string_type"):
        params.update(why="long" if e.get("type") == "string_too_long" else "empty",
                      most=NAME_MAX)
    error = _FIELD_ERRORS.get(field, "invalid")
    if len(loc) >= 2 and loc[-2] == "options":           # a rule option's value
        error = "bad_option"
    return {"error": error, "params": params}
