"""The server's log lines: one line a record, on standard error, with the time (ISO 8601,
UTC), the level, the logger, the message and, where known, the request's id and the table's
(the database id, never its code). `--log-format text` (the default, for people) or `json`
(one JSON object a line, for log shippers); `--log-level` for cardtable's own loggers (other
libraries log their warnings and errors only: at their info level SQLAlchemy prints queries
with their parameters, uvicorn request lines with their query string).

Nothing a player keeps secret reaches a line: every line is masked as the access log is
(`mask`): a table's code in a path (`/t/-`, `/ws/-`, `/replay/-`, `/api/tables/-/...`,
`/api/me/games/-/...`) and the value of a `token=`, `code=` or `password=` parameter.
"""

from __future__ import annotations

import contextvars
import logging
import re
import sys
from datetime import UTC, datetime

import orjson

#: the id of the HTTP request or WebSocket being served (access.py sets it)
REQUEST: contextvars.ContextVar[str | None] = contextvars.ContextVar("cardtable_request",
                                                                     default=None)
#: the database id of the table being served (ws/endpoint.py sets it for a connection)
TABLE: contextvars.ContextVar[int | None] = contextvars.ContextVar("cardtable_table",
                                                                   default=None)

FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")

#: a path's table code, as the nginx block of docs/deploy.md masks it, and secret parameters
_PAGE = re.compile(r"/(t|replay|ws)/[^\s\"'<>]*")
_PAGE_PATH = re.compile(r"^/(t|replay|ws)/")
_API = re.compile(r"/api/(tables|me/games)/[^/\s\"'?<>]+")
_PARAM = re.compile(r"([?&;](?:token|code|password)=)[^&\s\"'<>]*", re.IGNORECASE)


def mask_path(path: str) -> str:
    """A request path as the access log writes it: the table code of `/t/`, `/replay/` and
    `/ws/` paths as `-` (with anything after it), of `/api/tables/CODE/...` and
    `/api/me/games/CODE/...` as `-` (the rest kept); no query string is ever passed here."""
    if not path.startswith(("/t/", "/replay/", "/ws/", "/api/tables/", "/api/me/games/")):
        return path
    m = _PAGE_PATH.match(path)
    if m:
        return f"/{m.group(1)}/-"
    return _API.sub(lambda m: f"/api/{m.group(1)}/-", path, count=1)


def mask(text: str) -> str:
    """Any text with table codes in paths and secret parameters masked (every log line)."""
    if "/" not in text and "=" not in text:
        return text
    text = _PAGE.sub(lambda m: f"/{m.group(1)}/-", text)
    text = _API.sub(lambda m: f"/api/{m.group(1)}/-", text)
    return _PARAM.sub(lambda m: m.group(1) + "-", text)


def _time(record: logging.LogRecord) -> str:
    t = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
    return t.replace("+00:00", "Z")


class Context(logging.Filter):
    """Puts the request's and the table's id (the contextvars) on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST.get()
        if not hasattr(record, "table_id"):
            record.table_id = TABLE.get()
        return True


class TextFormat(logging.Formatter):
    """`2026-11-29T10:11:58.123Z INFO cardtable.access [req=5f0c... table=12] message`: one
    line (a traceback follows on the same line, its line ends written as `\\n`)."""

    def format(self, record: logging.LogRecord) -> str:
        ctx = " ".join(f"{k}={v}" for k, v in (("req", getattr(record, "request_id", None)),
                                               ("table", getattr(record, "table_id", None)))
                       if v is not None)
        line = record.getMessage()
        if record.exc_info:
            line += " | " + self.formatException(record.exc_info)
        elif record.exc_text:
            line += " | " + record.exc_text
        line = mask(line).replace("\r", "\\r").replace("\n", "\\n")
        return f"{_time(record)} {record.levelname} {record.name} " \
               f"{'[' + ctx + '] ' if ctx else ''}{line}"


class JSONFormat(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id and table_id (when
    known), an access line's fields (method, path, status, duration_ms) and a traceback's
    text (`exc`)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": _time(record), "level": record.levelname, "logger": record.name,
               "message": mask(record.getMessage())}
        for key in ("request_id", "table_id"):
            v = getattr(record, key, None)
            if v is not None:
                out[key] = v
        access = getattr(record, "access", None)
        if isinstance(access, dict):
            out.update(access)
        if record.exc_info:
            out["exc"] = mask(self.formatException(record.exc_info))
        return orjson.dumps(out, default=str).decode()


def level_number(level: str) -> int:
    return logging.getLevelNamesMapping()[level.upper()]


def setup(fmt: str = "text", level: str = "info", stream=None) -> logging.Handler:
    """Log from now on to `stream` (standard error) in `fmt`, cardtable's loggers from `level`
    on, every other library's from its warnings (or `level`, if higher). Returns the
    handler (set on the root logger; an earlier one of ours is replaced)."""
    if fmt not in FORMATS:
        raise ValueError(f"--log-format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if level.lower() not in LEVELS:
        raise ValueError(f"--log-level must be one of {', '.join(LEVELS)}, not {level!r}")
    number = level_number(level)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JSONFormat() if fmt == "json" else TextFormat())
    handler.addFilter(Context())
    handler.cardtable = True                              # type: ignore[attr-defined]
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "cardtable", False):
            root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(max(number, logging.WARNING))
    logging.getLogger("cardtable").setLevel(number)
    return handler


def access_line(log: logging.Logger, method: str, path: str, status: int | None,
                seconds: float) -> None:
    """One access log line: `GET /api/tables/-/join 200 12.3ms` (the path masked, no query
    string). Nothing is done when the access log is off (--log-level warning)."""
    if not log.isEnabledFor(logging.INFO):
        return
    path = mask_path(path)
    ms = round(seconds * 1000, 1)
    log.info("%s %s %s %.1fms", method, path, status if status is not None else "-", ms,
             extra={"access": {"method": method, "path": path, "status": status,
                               "duration_ms": ms}})
