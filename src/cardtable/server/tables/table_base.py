"""What a table's parts share: `Step` (an applied action and
the views around it), `ProtocolError`, the decision-time `Stats`, and the message encoder."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field

import orjson

from cardtable.core.errors import IllegalDecision


log = logging.getLogger("cardtable.server")

MAX_DECISION = 64
#: a table keeps a copy of its state every CHECKPOINT actions (made when a client catches up
#: on the history): a page of history is replayed from the nearest one, not from the start
CHECKPOINT = 500


class ProtocolError(Exception):
    """A refused message: goes to the offending client only; nothing changed."""

    def __init__(self, code: str, message: str, reason_code: str | None = None,
                 params: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason_code = reason_code      # "illegal": the engine's IllegalDecision.code
        self.params = params                # ... and its params (the catalog's err.<code>)

    @classmethod
    def illegal(cls, e: IllegalDecision) -> "ProtocolError":
        return cls("illegal", e.reason, e.code, e.params)


@dataclass
class Step:
    """One applied action, with the views the local viewers had before and after it."""
    index: int
    seat: int
    text: str
    by: str
    before: dict
    after: dict
    move: dict            # the decision as JSON (`GameState.decision_json`), once for every viewer


@dataclass
class Stats:
    """Server-side latency: decision message received -> broadcast handed to every client."""
    decisions: int = 0
    latencies: list = field(default_factory=list)
    started: float = field(default_factory=time.time)

    def add(self, seconds: float) -> None:
        self.decisions += 1
        if len(self.latencies) >= 200_000:
            del self.latencies[:100_000]
        self.latencies.append(seconds)

    def summary(self, since: int = 0) -> dict:
        """Percentiles over the decisions after the first `since` (e.g. a bench's warm-up)."""
        recent = max(0, self.decisions - max(0, since))
        lat = sorted(self.latencies[len(self.latencies) - min(recent, len(self.latencies)):])

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 3)

        return {"decisions": self.decisions, "samples": len(lat), "p50_ms": pct(0.50),
                "p90_ms": pct(0.90), "p99_ms": pct(0.99),
                "uptime_s": round(time.time() - self.started, 1)}


def norm(text: str) -> str:
    return " ".join(text.split())


def seat_info_of(seat_rows: list[dict]) -> list[dict]:
    """The seats as clients see them (protocol SeatInfo): no tokens, `joined` for bots too."""
    return [{"seat": s["seat"], "kind": s["kind"], "bot": s["bot"], "name": s["name"],
             "joined": s["kind"] == "bot" or s["joined_at"] is not None,
             "away": bool(s["away"])} for s in seat_rows]




def log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())


class Shared(dict):
    """A message the broadcast hands to several clients (the same view: a seat's tabs, the
    spectators): `dumps` encodes it once and keeps the text. Not to be changed once sent."""

    __slots__ = ("text",)


def dumps(msg: dict) -> str:
    """A message as compact JSON text (orjson); a `Shared` one is encoded only the first
    time."""
    if type(msg) is Shared:
        text = getattr(msg, "text", None)
        if text is None:
            text = msg.text = _encode(msg)
        return text
    return _encode(msg)


def _encode(msg: dict) -> str:
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:       # e.g. a client's message id beyond 64 bits, echoed in an error
        return json.dumps(msg, separators=(",", ":"))
