"""Tables in a server process: the authoritative decision path and the broadcast.

`Hub` holds a `TableRuntime` for every table this process serves (it has clients there or
drives it, driver.py). A runtime keeps the game state at action `n`, rebuilt from the table's
record with `load_record` and advanced by every committed decision, whoever committed it.

The decision path (`TableRuntime.decide`), the same for players, bots and timers:
  1. the runtime's asyncio lock (one decision at a time in this process), then a database
     transaction that locks the table row (db.Store.locked: other processes wait there);
  2. catch up with decisions other processes committed meanwhile (they are broadcast first);
  3. check the decision against the engine on a copy of the state: the seat must be the one to
     move (or, in a window of simultaneous decisions, a seat of it that has not answered yet),
     the decision legal; otherwise a ProtocolError goes back to the sender and nothing changes;
  4. append it (and, for a window, the answers it implies) at the next action indices,
     set the next deadline, commit (PostgreSQL: NOTIFY at commit);
  5. only then acknowledge it to the sender and broadcast it to this process's clients (each
     gets an event in words and its new state); other processes learn it from the NOTIFY and
     broadcast to theirs (`refresh`).

Windows of simultaneous decisions in wall time (core/game.py `Window`; e.g. Kombio's snap
window, KO-8..KO-10, networked): the window opens with the decision after which the engine's
`window()` is not None; every seat of it may answer at once. A silent answer (the window's
`silence`, Kombio's `pass`) is kept as a pending answer (table column `snap`, seen by nobody
else) until the window closes; the first other answer that reaches the server (Kombio's
`snap P.S`) closes it at once: the server applies, in the window's order, `silence` for every
other seat and that answer for its seat, so the engine sees exactly one claim and the "first"
of KO-10 is the first to arrive. A window also closes when every seat of it was silent, or at
its deadline (seats that did not answer are silent). The server knows no game's words here:
only `window()` and `round()` of the core protocol.

Round breaks: an engine may deal the next round in the same action that ends a round (its
`round()` changes, e.g. Kombio's), so the server holds the new round back: with the decision
that ends a round a break opens (table column `snap`: {"n", "break": its start, "ready":
[seats]}, `deadline`: its latest end; no window is shown during it). Nobody decides during
it; it ends when every player connected here (and not away) sent `ready`, after `round_pause`
seconds when no player is connected (bots, spectators), and at the latest after `round_break`
seconds (an idle player cannot stall the table). Then the first turn's timer starts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson

from cardtable.core.errors import CardtableError, IllegalDecision, refuse
from cardtable.core.game import GameState, Window
from cardtable.core.record import load_record
from cardtable.server import views as V
from cardtable.server.db import Conflict
from cardtable.server.protocol import DEFAULT_SNAP_SECONDS, PROTOCOL_VERSION

log = logging.getLogger("cardtable.server")

#: `by` of an action: who made it
BY_PLAYER, BY_BOT, BY_STANDIN, BY_TIMEOUT = "player", "bot", "standin", "timeout"
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


class TableRuntime:
    def __init__(self, hub: Hub, row: dict, seat_rows: list[dict], state: GameState,
                 log_rows: list[tuple[int, str]]):
        self.hub = hub
        self.id: int = row["id"]
        self.code: str = row["code"]
        self.game: str = row["game"]
        self.base: dict = row["base"]
        self.settings: dict = row["settings"]
        self.players: int = state.players
        self.state = state
        self.n: int = row["n_actions"]
        self.log: list[tuple[int, str]] = log_rows        # (seat, by) per action
        self.lock = asyncio.Lock()
        self.conns: set = set()
        self.driven = False
        self.pins = 0                   # callers of Hub.runtime that have not released it yet
        #: action index -> the state after that many actions, every CHECKPOINT actions (read
        #: and extended by history_page's worker threads; never changed once stored)
        self._checkpoints: dict[int, GameState] = {}
        self.tick = 0                                      # bumped by every change
        self._changed = asyncio.Event()
        self._vcache: dict = {}
        self._lcache: dict = {}
        self._wcache: Any = None
        self._online: tuple | None = None
        self._set_meta(row, seat_rows)

    # -- metadata ---------------------------------------------------------------------------------
    def _set_meta(self, row: dict, seat_rows: list[dict] | None) -> None:
        self.row = dict(row)                    # the table row as last committed
        self.status: str = row["status"]
        self.version: int = row["version"]
        self.deadline: float | None = row["deadline"]
        self.snap: dict | None = row["snap"]
        self.rematch: str | None = row["rematch_code"]
        self.public: bool = row["public"]
        if seat_rows is not None:
            self.seats = [{k: r[k] for k in ("seat", "kind", "bot", "name", "away", "joined_at")}
                          for r in seat_rows]
            self.names = {lang: V.seat_names(self.seats, lang) for lang in ("en", "de")}
        self._seat_info = seat_info_of(self.seats)

    def window_seconds(self) -> float:
        """How long a window of simultaneous decisions is open (the table setting
        `snap_seconds`, a name of the wire protocol)."""
        return float(self.settings.get("snap_seconds") or DEFAULT_SNAP_SECONDS)

    def seat_info(self) -> list[dict]:
        """The seats as clients see them, with `online`: a human seat's player has a
        connection to this table in this process (see docs/protocol.md on several processes)."""
        here = frozenset(c.seat for c in self.conns if c.seat is not None)
        cached = self._online
        if cached is None or cached[0] is not self._seat_info or cached[1] != here:
            info = [dict(s, online=s["kind"] == "human" and s["seat"] in here)
                    for s in self._seat_info]
            self._online = cached = (self._seat_info, here, info)
        return cached[2]

    def is_auto(self, seat: int) -> bool:
        """True if a bot decides for `seat` now: a bot seat, or a human who is away."""
        s = self.seats[seat]
        return s["kind"] == "bot" or bool(s["away"])

    def bump(self) -> None:
        """Wake whoever waits for a change (the driver)."""
        self.tick += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_change(self, tick: int, timeout: float | None) -> None:
        """Wait until something changed after `tick` (see `self.tick`) or `timeout` passed."""
        if self.tick != tick or (timeout is not None and timeout <= 0):
            return
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            pass

    # -- windows of simultaneous decisions ------------------------------------------------------
    def window(self) -> Window | None:
        """The open window of the state at action `n` (the engine's `window()`), or None."""
        if self._wcache is None or self._wcache[0] != self.n:
            w = self.state.window()
            self._wcache = (self.n, w, list(w.seats) if w is not None else [])
        return self._wcache[1]

    def window_order(self) -> list[int]:
        """The seats of the open window, in the engine's order ([] if none)."""
        self.window()
        return self._wcache[2]

    def answers(self) -> dict[int, str]:
        """Pending answers of the open window: seat -> who answered (all are silent)."""
        if not self.snap or self.snap.get("n") != self.n:
            return {}
        return {int(k): v for k, v in self.snap.get("answers", {}).items()}

    def window_state(self, seat: int) -> GameState:
        """A copy of the state where `seat` answers the open window (`Window.ask`: earlier
        seats are silent, since the first answer that is not silence closes the window)."""
        w = self.window()
        return w.ask(self.state, seat) if w is not None else self.state.copy()

    # -- what a viewer sees ---------------------------------------------------------------------
    def view_for(self, viewer: int | None) -> dict:
        key = (self.n, viewer)
        v = self._vcache.get(key)
        if v is None:
            if len(self._vcache) > 16:
                self._vcache = {k: x for k, x in self._vcache.items() if k[0] == self.n}
            v = self.state.view(viewer) if viewer is not None else V.public_view(self.state)
            self._vcache[key] = v
        return v

    def _seed_views(self, steps: list[Step]) -> None:
        """The views after the last step are the current ones: no need to compute them
        again for the state messages."""
        if steps:
            self._vcache = {(self.n, v): view for v, view in steps[-1].after.items()}

    def legal_for(self, seat: int | None) -> list[str]:
        if seat is None or self.status != "playing" or self.state.over or self.round_break():
            return []
        key = (self.n, seat)
        lg = self._lcache.get(key)
        if lg is None:
            if len(self._lcache) > 16:
                self._lcache = {k: x for k, x in self._lcache.items() if k[0] == self.n}
            if self.window() is not None:
                lg = self.window_state(seat).legal() if seat in self.window_order() else []
            else:
                lg = self.state.legal() if self.state.to_move == seat else []
            self._lcache[key] = lg
        if lg and self.window() is not None and seat in self.answers():
            return []
        return lg

    def waiting_for(self, viewer: int | None) -> list[int]:
        if self.status != "playing" or self.state.over:
            return []
        if self.round_break():
            return self.break_waiting()
        if self.window() is not None:
            order = self.window_order()
            ans = self.answers()
            return [s for s in order if not (s == viewer and s in ans)]
        return [self.state.to_move]

    def state_msg(self, viewer: int | None) -> dict:
        window = None
        w = self.window() if self.status == "playing" and not self.round_break() else None
        if w is not None:
            order = self.window_order()
            mine = self.answers().get(viewer) if viewer is not None else None
            window = {"deadline": self.deadline, "eligible": viewer in order,
                      "answered": w.silence if mine else None, "seats": order}
        legal = self.legal_for(viewer)
        return {
            "type": "state", "table": self.code, "index": self.n, "status": self.status,
            "seat": viewer, "view": self.view_for(viewer), "legal": legal,
            "your_turn": bool(legal), "waiting_for": self.waiting_for(viewer),
            "deadline": self.deadline if self.status == "playing" else None,
            "window": window,
            "away": bool(viewer is not None and self.seats[viewer]["away"]),
            "seats": self.seat_info(), "rematch": self.rematch,
            "server_time": time.time(),
            "round_break": self.break_info(),
        }

    def welcome_msg(self, viewer: int | None, lang: str) -> dict:
        return {"type": "welcome", "protocol": PROTOCOL_VERSION, "table": self.code,
                "game": self.game, "seat": viewer,
                "role": "spectator" if viewer is None else "player",
                "name": self.names[lang][viewer] if viewer is not None else None,
                "lang": lang, "server_time": time.time()}

    def event_msg(self, step: Step, viewer: int | None, lang: str,
                  names: list[str] | None = None) -> dict | None:
        if viewer not in step.before:
            return None
        text = V.describe(self.game, step.before[viewer], step.text, step.after[viewer],
                          step.seat, viewer, names or self.names[lang], lang)
        return {"type": "event", "index": step.index, "seat": step.seat, "decision": step.text,
                "by": step.by, "text": text}

    # -- the waiting room ---------------------------------------------------------------------------
    def host(self) -> int | None:
        """The host's seat: the creator's (the first human seat of tables made before hosts)."""
        h = self.settings.get("host")
        if h is None:
            h = next((s["seat"] for s in self.seats if s["kind"] == "human"), None)
        return h

    async def set_seat(self, seat: int, kind: str, bot: str | None) -> None:
        """The host makes a free seat a bot's (or a bot's seat free again) before the game;
        once no seat is free the game starts."""
        await self._retrying(lambda: self._set_seat(seat, kind, bot))

    async def _set_seat(self, seat: int, kind: str, bot: str | None) -> None:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                if self.status != "waiting":
                    raise ProtocolError("not_waiting", "the game has started: its seats are set")
                if not 0 <= seat < self.players or seat == self.host():
                    raise ProtocolError("bad_seat", "that seat cannot be changed")
                if self.seats[seat]["kind"] == "human" and self.seats[seat]["joined_at"]:
                    raise ProtocolError("bad_seat", "a player sits there")
                values = {"kind": kind, "bot": (bot or "medium") if kind == "bot" else None}
                await tx.update_seat(seat, **values)
                seats_after = [dict(s) for s in self.seats]
                seats_after[seat].update(values)
                tx.set(settings=dict(self.settings, seats=[
                    {"kind": s["kind"], "bot": s["bot"]} for s in seats_after]))
                if all(s["kind"] == "bot" or s["joined_at"] is not None for s in seats_after):
                    meta = self._next_meta(self.state, self.n, seats_after, time.time())
                    tx.set(status="playing", **meta)
            self.settings = tx.row["settings"]
            self._set_meta(tx.row, seats_after)
            self.publish([], only_state=True)
            self.bump()
        self.hub.after_change(self)

    async def cancel(self) -> None:
        """The host cancels the table before the game: it is deleted; its clients are told
        (`cancelled`) and disconnected."""
        async with self.lock:
            if self.status != "waiting" or not await self.hub.store.delete_waiting_table(self.id):
                raise ProtocolError("not_waiting", "the game has started: it cannot be cancelled")
            if self.hub.rts.get(self.id) is self:
                del self.hub.rts[self.id]
            for c in list(self.conns):
                c.send({"type": "cancelled", "table": self.code})
                c.send_close(4404)

    # -- round breaks ------------------------------------------------------------------------------
    def round_break(self) -> dict | None:
        """The open round break ({"n", "break": start, "ready"}), or None."""
        b = self.snap
        if b and "break" in b and b.get("n") == self.n and self.status == "playing":
            return b
        return None

    def _players_here(self) -> set[int]:
        """Human seats whose player is connected here and not away (a stand-in plays)."""
        here = {c.seat for c in self.conns if c.seat is not None}
        return {s["seat"] for s in self.seats
                if s["kind"] == "human" and not s["away"] and s["seat"] in here}

    def break_waiting(self) -> list[int]:
        b = self.round_break()
        if b is None:
            return []
        return sorted(self._players_here() - set(b["ready"]))

    def break_end(self) -> float | None:
        """When the open break ends: at once when every player here is ready, after the pause
        when nobody is here, else at its deadline."""
        b = self.round_break()
        if b is None:
            return None
        here = self._players_here()
        if not here:
            return min(b["break"] + self.hub.settings.round_pause, self.deadline or b["break"])
        if here <= set(b["ready"]):
            return b["break"]
        return self.deadline

    def break_info(self) -> dict | None:
        b = self.round_break()
        if b is None:
            return None
        return {"until": self.break_end(), "ready": list(b["ready"]),
                "waiting": self.break_waiting()}

    def _with_break(self, before: GameState, after: GameState, meta: dict, n: int,
                    now: float) -> dict:
        """`meta` (see _next_meta) with a round break if the actions that lead from `before` to
        `after` ended a round and dealt the next one."""
        limit = self.hub.settings.round_break
        if limit <= 0 or after.over or after.round() == before.round():
            return meta
        return dict(meta, snap={"n": n, "break": now, "ready": []}, deadline=now + limit)

    async def ready(self, seat: int) -> None:
        """A player has seen the round's summary (the `ready` message)."""
        await self._retrying(lambda: self._ready(seat))

    async def _ready(self, seat: int) -> None:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                b = self.round_break()
                if b is None:
                    raise ProtocolError("stale", "no round break is open")
                if seat in b["ready"]:
                    return
                b = dict(b, ready=sorted(b["ready"] + [seat]))
                if self._players_here() <= set(b["ready"]):
                    tx.set(**self._next_meta(self.state, self.n, self.seats, time.time()))
                else:
                    tx.set(snap=b)
            self._set_meta(tx.row, None)
            self.publish([], only_state=True)
            self.bump()
        self.hub.after_change(self)

    async def end_break(self, expected: int) -> bool:
        """The break's time is over (the driver): the next round starts."""
        return await self._retrying(lambda: self._end_break(expected))

    async def _end_break(self, expected: int) -> bool:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                end = self.break_end()
                if self.n != expected or end is None or time.time() < end - 0.01:
                    return False
                tx.set(**self._next_meta(self.state, self.n, self.seats, time.time()))
            self._set_meta(tx.row, None)
            self.publish([], only_state=True)
            self.bump()
        self.hub.after_change(self)
        return True

    # -- applying actions -----------------------------------------------------------------------------
    def _viewers(self) -> set:
        return {c.seat for c in self.conns}

    def _views(self, state: GameState, viewers: set) -> dict:
        if not viewers:
            return {}
        if None in viewers:
            seat_views = {s: state.view(s) for s in range(state.players)}
            out = {v: seat_views[v] for v in viewers if v is not None}
            out[None] = V.public_view(state, seat_views)
            return out
        return {v: state.view(v) for v in viewers}

    def _play(self, state: GameState, start: int, items: list[tuple[int, str, str]],
              viewers: set) -> list[Step]:
        """Apply (seat, text, by) items to `state` in place; IllegalDecision if one is not
        legal (or not the seat's): `state` is then partly advanced; use a copy."""
        steps = []
        if start == self.n:                     # `state` is (a copy of) the current state
            before = {v: self.view_for(v) for v in viewers}
        else:
            before = self._views(state, viewers)
        for i, (seat, text, by) in enumerate(items):
            if state.to_move != seat:
                raise refuse(text, "not_your_turn", seat=state.to_move, other=seat)
            state.apply(text)
            after = self._views(state, viewers)
            steps.append(Step(start + i, seat, state.history[-1], by, before, after))
            before = after
        return steps

    def publish(self, steps: list[Step], only_state: bool = False) -> None:
        """Send events and new states to this process's clients."""
        cache: dict = {}
        for conn in list(self.conns):
            if not only_state:
                for st in steps:
                    key = (st.index, conn.seat, conn.lang)
                    msg = cache.get(key)
                    if msg is None:
                        msg = self.event_msg(st, conn.seat, conn.lang)
                        cache[key] = msg or {}
                    if msg:
                        conn.send(msg)
            conn.send_state(self.state_msg(conn.seat))

    def _next_meta(self, state: GameState, n: int, seats: list[dict], now: float) -> dict:
        """Status, deadline and window after the position `state` (n actions)."""
        if state.over:
            return {"status": "over", "deadline": None, "snap": None}
        if state.window() is not None:
            return {"snap": {"n": n, "answers": {}},
                    "deadline": now + self.window_seconds()}
        turn = self.settings.get("turn_seconds")
        seat = state.to_move
        if turn and seats[seat]["kind"] == "human":
            return {"snap": None, "deadline": now + float(turn)}
        return {"snap": None, "deadline": None}

    # -- catching up ------------------------------------------------------------------------------------
    async def _sync_tx(self, tx) -> None:
        """Inside a locked transaction: take over what other processes committed."""
        row = tx.row
        if row["version"] == self.version and row["n_actions"] == self.n:
            return
        seat_rows = await tx.seats()
        rows = await tx.actions_since(self.n) if row["n_actions"] > self.n else []
        self._absorb(row, seat_rows, rows)

    def _absorb(self, row: dict, seat_rows: list[dict] | None, rows: list) -> None:
        old_rematch = self.rematch
        steps: list[Step] = []
        if rows:
            if rows[0][0] != self.n:
                raise RuntimeError(f"table {self.code}: actions from {rows[0][0]}, expected {self.n}")
            try:
                steps = self._play(self.state, self.n, [(s, t, b) for _, s, t, b in rows],
                                   self._viewers())
            except (IllegalDecision, CardtableError):
                log.exception("table %s: stored actions do not replay", self.code)
                raise
            self.n += len(rows)
            self.log.extend((s, b) for _, s, _, b in rows)
            self._seed_views(steps)
        self._set_meta(row, seat_rows)
        self.publish(steps)
        if self.rematch and self.rematch != old_rematch:
            for c in list(self.conns):
                c.send({"type": "rematch", "table": self.rematch})
        self.bump()

    async def refresh(self, version: int | None = None) -> None:
        """Read what changed in the database (another process's commit, an HTTP change)."""
        if version is not None and version <= self.version:
            return
        async with self.lock:
            if version is not None and version <= self.version:
                return
            row, seat_rows, rows = await self.hub.store.load(self.id, since=self.n)
            if row is None or (row["version"] == self.version and row["n_actions"] == self.n):
                return
            try:
                self._absorb(row, seat_rows, rows)
            except Exception:
                await self._reload()

    async def _reload(self) -> None:
        row, seat_rows, rows = await self.hub.store.load(self.id)
        rec = dict(self.base, actions=[t for _, _, t, _ in rows])
        self.state = load_record(rec)
        self.n = len(rows)
        self.log = [(s, b) for _, s, _, b in rows]
        self._set_meta(row, seat_rows)
        self.publish([], only_state=True)
        self.bump()

    # -- the decision path ---------------------------------------------------------------------------
    async def decide(self, seat: int, text: str, *, by: str = BY_PLAYER,
                     expected: int | None = None,
                     on_commit: Callable[[dict], None] | None = None) -> dict:
        """Apply `seat`'s decision (see the module docstring). Returns the ack message;
        raises ProtocolError (nothing changed)."""
        text = norm(text)
        if not text or len(text) > MAX_DECISION:
            raise ProtocolError("bad_decision", "a decision is 1 to 64 characters of notation")
        return await self._retrying(lambda: self._decide(seat, text, by, expected, on_commit))

    async def _retrying(self, fn):
        """Run a change; if another process changed the table first (Conflict), catch up
        and run it again: it is validated anew against the new position."""
        for attempt in range(8):
            try:
                return await fn()
            except Conflict:
                if attempt >= 2:
                    log.warning("table %s: repeated conflicts", self.code)
                await self.refresh()
        raise ProtocolError("conflict", "the table is busy: try again")

    async def _decide(self, seat, text, by, expected, on_commit) -> dict:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                if self.status == "waiting":
                    raise ProtocolError("not_started", "the table waits for players to join")
                if self.status == "over" or self.state.over:
                    raise ProtocolError("game_over", "the game is over")
                if expected is not None and expected != self.n:
                    raise ProtocolError("stale", f"the game has moved on: the state is at index "
                                                 f"{self.n}, not {expected}")
                if not 0 <= seat < self.players:
                    raise ProtocolError("not_seated", "no such seat")
                if self.round_break():
                    raise ProtocolError("round_break", "the round's summary is being shown: "
                                                       "the next round starts after it (ready)")
                now = time.time()
                seat_changes: dict[int, dict] = {}
                if by == BY_PLAYER and self.seats[seat]["away"]:
                    seat_changes[seat] = {"away": False}
                if by == BY_TIMEOUT:
                    if self.deadline is None or now < self.deadline - 0.01:
                        raise ProtocolError("stale", "the timer has not run out")
                    if self.seats[seat]["kind"] == "human":
                        seat_changes[seat] = {"away": True}
                if by in (BY_BOT, BY_STANDIN) and not self.is_auto(seat):
                    raise ProtocolError("stale", "the seat's player is back")
                pending: dict | None = None
                if self.window() is not None:
                    items, pending = self._window_answer(seat, text, by)
                else:
                    if self.state.to_move != seat:
                        raise ProtocolError(
                            "not_your_turn", f"it is not your turn: waiting for seat "
                                             f"{self.state.to_move} ({self.state.awaiting})")
                    items = [(seat, text, by)]
                trial = self.state
                steps: list[Step] = []
                seats_after = [dict(s, **seat_changes.get(s["seat"], {})) for s in self.seats]
                if items:
                    trial = self.state.copy()
                    try:
                        steps = self._play(trial, self.n, items, self._viewers())
                    except IllegalDecision as e:
                        raise ProtocolError.illegal(e) from None
                    await tx.append(self.n, [(s.seat, s.text, s.by) for s in steps])
                    n = self.n + len(steps)
                    tx.set(**self._with_break(self.state, trial,
                                              self._next_meta(trial, n, seats_after, now), n, now))
                else:
                    tx.set(snap=pending)
                for s, values in seat_changes.items():
                    await tx.update_seat(s, **values)
            # committed
            if steps:
                self.state = trial
                self.n += len(steps)
                self.log.extend((s.seat, s.by) for s in steps)
                self._seed_views(steps)
            for s, values in seat_changes.items():
                self.seats[s].update(values)
            self._set_meta(tx.row, None)
            mine = [s.text for s in steps if s.seat == seat]
            w = self.window()
            ack = {"type": "ack", "index": self.n,
                   "decision": mine[-1] if mine else (w.silence if w is not None else None),
                   "pending": not steps}
            if on_commit is not None:
                on_commit(ack)
            self.publish(steps)
            self.bump()
        self.hub.after_change(self)
        return ack

    def _window_answer(self, seat: int, text: str, by: str):
        """A seat's answer in the open window: (items to apply now, pending answers)."""
        w = self.window()
        order = self.window_order()
        answers = self.answers()
        if seat not in order:
            raise ProtocolError("not_your_turn", f"you may not answer this {w.kind} window")
        if seat in answers:
            raise ProtocolError("already_answered",
                                f"you have already answered this {w.kind} window")
        if by == BY_TIMEOUT:
            raise ProtocolError("stale", "a window's timeout closes the window")
        c = self.window_state(seat)
        try:
            d = c.parse(text)
            c.apply(d)
        except IllegalDecision as e:
            raise ProtocolError.illegal(e) from None
        canonical = c.history[-1]
        if canonical == w.silence:
            answers[seat] = by
            if len(answers) < len(order):
                return [], {"n": self.n, "answers": {str(k): v for k, v in answers.items()}}
            return [(s, w.silence, answers[s]) for s in order], None
        # the first answer that is not silence: it is the window's only claim (KO-10, networked)
        return [(s, canonical if s == seat else w.silence,
                 by if s == seat else answers.get(s, BY_TIMEOUT)) for s in order], None

    async def close_window(self, expected: int) -> bool:
        """The window's deadline has passed: every seat that did not answer is silent."""
        return await self._retrying(lambda: self._close_window(expected))

    async def _close_window(self, expected: int) -> bool:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                w = self.window()
                if (self.n != expected or self.status != "playing" or w is None
                        or self.deadline is None or time.time() < self.deadline - 0.01):
                    return False
                answers = self.answers()
                items = [(s, w.silence, answers.get(s, BY_TIMEOUT)) for s in self.window_order()]
                trial = self.state.copy()
                steps = self._play(trial, self.n, items, self._viewers())
                await tx.append(self.n, [(s.seat, s.text, s.by) for s in steps])
                n, now = self.n + len(steps), time.time()
                tx.set(**self._with_break(self.state, trial,
                                          self._next_meta(trial, n, self.seats, now), n, now))
            self.state = trial
            self.n += len(steps)
            self.log.extend((s.seat, s.by) for s in steps)
            self._seed_views(steps)
            self._set_meta(tx.row, None)
            self.publish(steps)
            self.bump()
        self.hub.after_change(self)
        return True

    async def set_away(self, seat: int, away: bool) -> None:
        """A player is back (or, for the tests, away)."""
        await self._retrying(lambda: self._set_away(seat, away))

    async def _set_away(self, seat: int, away: bool) -> None:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                if bool(self.seats[seat]["away"]) == away:
                    return
                await tx.update_seat(seat, away=away)
                turn = self.settings.get("turn_seconds")
                if (not away and turn and self.status == "playing" and not self.state.over
                        and self.window() is None and self.state.to_move == seat):
                    tx.set(deadline=time.time() + float(turn))     # a full timer on return
            self.seats[seat]["away"] = away
            self._set_meta(tx.row, None)
            self.publish([], only_state=True)
            self.bump()
        self.hub.after_change(self)

    async def reset_deadline(self) -> None:
        """After a restart (or a takeover): give the seat(s) to move their full time again."""
        await self._retrying(self._reset_deadline)

    async def _reset_deadline(self) -> None:
        async with self.lock:
            async with self.hub.store.locked(self.id, self.row) as tx:
                await self._sync_tx(tx)
                if self.status != "playing" or self.state.over:
                    return
                now = time.time()
                b = self.round_break()
                if b is not None:                    # the break again in full, its readies kept
                    tx.set(snap=dict(b, **{"break": now}),
                           deadline=now + self.hub.settings.round_break)
                else:
                    meta = self._next_meta(self.state, self.n, self.seats, now)
                    meta.pop("snap", None)           # keep the answers given so far
                    tx.set(**meta)
            self._set_meta(tx.row, None)
            self.publish([], only_state=True)
            self.bump()
        self.hub.after_change(self)

    # -- connections ----------------------------------------------------------------------------------
    def attach(self, conn) -> None:
        first = not self.conns
        self.conns.add(conn)
        if first:                   # a table of bots only is driven while watched (driver.py)
            self.hub.after_change(self)

    def detach(self, conn) -> None:
        self.conns.discard(conn)
        if conn.seat is not None:
            self.presence_changed()
        elif not self.conns:
            self.bump()             # the driver looks again: nobody may be watching any more

    def presence_changed(self) -> None:
        """A seat's player connected or left: everybody's seats show it (`online`), and the
        driver looks again (a round break waits for the players who are here)."""
        self.publish([], only_state=True)
        self.bump()

    async def history_page(self, viewer: int | None, lang: str, start: int,
                           end: int) -> list[dict]:
        """The events of actions `start` to `end` (not included) for a client that
        (re)connects or syncs, from the viewer's own views only; built in a worker thread, so
        a long game's history never holds up the event loop. Only actions already applied
        (`end <= n`) are asked for."""
        end = min(end, self.n)
        if start >= end:
            return []
        history, log, names = self.state.history, self.log, self.names[lang]
        return await asyncio.to_thread(self._events, viewer, lang, start, end, history, log,
                                       names)

    def _state_at(self, index: int, history: list[str]) -> GameState:
        """A new state after the first `index` actions, from the nearest checkpoint (stores
        the checkpoints passed on the way)."""
        cps = self._checkpoints
        k = max((c for c in cps if c <= index), default=0)
        st = cps[k].copy() if k else load_record(dict(self.base, actions=[]))
        for i in range(k, index):
            st.apply(history[i])
            if (i + 1) % CHECKPOINT == 0 and (i + 1) not in cps:
                cps[i + 1] = st.copy()
        return st

    def _events(self, viewer, lang, start, end, history, log, names) -> list[dict]:
        """(A worker thread.) See `history_page`."""
        st = self._state_at(start, history)
        viewers = {viewer}
        before = self._views(st, viewers)
        out = []
        for i in range(start, end):
            seat, by = log[i]
            st.apply(history[i])
            after = self._views(st, viewers)
            if (i + 1) % CHECKPOINT == 0 and (i + 1) not in self._checkpoints:
                self._checkpoints[i + 1] = st.copy()
            msg = self.event_msg(Step(i, seat, history[i], by, before, after), viewer, lang,
                                 names)
            if msg:
                out.append(msg)
            before = after
        return out

    def record(self) -> dict:
        return dict(self.base, actions=list(self.state.history))


class Hub:
    """The runtimes of this process (loaded on demand, dropped when unused)."""

    def __init__(self, store, settings):
        self.store = store
        self.settings = settings
        self.rts: dict[int, TableRuntime] = {}
        self._loading: dict[int, asyncio.Future] = {}
        self.stats = Stats()
        self.on_change: Callable[[TableRuntime], None] | None = None
        self.on_expired: Callable[[int], None] | None = None
        self.clients = None                # security.ClientLimits (set by the app)

    async def runtime(self, table_id: int) -> TableRuntime | None:
        """The table's runtime, loaded if need be, and pinned: it stays this process's one
        runtime of the table until the caller calls `release` (once per call of this)."""
        while True:
            rt = self.rts.get(table_id)
            if rt is None:
                fut = self._loading.get(table_id)
                if fut is None:
                    rt = await self._load(table_id)
                else:
                    rt = await asyncio.shield(fut)
                    if rt is not None and self.rts.get(table_id) is not rt:
                        continue                  # released by its loader before we got it
            if rt is not None:
                rt.pins += 1
            return rt

    async def _load(self, table_id: int) -> TableRuntime | None:
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row, seat_rows, rows = await self.store.load(table_id)
            if row is None:
                rt = None
            else:
                rec = dict(row["base"], actions=[t for _, _, t, _ in rows])
                state = await asyncio.to_thread(load_record, rec)
                rt = TableRuntime(self, row, seat_rows, state, [(s, b) for _, s, _, b in rows])
                self.rts[table_id] = rt
            fut.set_result(rt)
            return rt
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()                        # mark retrieved
            raise
        finally:
            self._loading.pop(table_id, None)

    async def runtime_by_code(self, code: str) -> TableRuntime | None:
        """The runtime of the table `code`, pinned as by `runtime` (the caller releases it)."""
        for rt in self.rts.values():
            if rt.code == code:
                # pinned here too: unpinned, its caller's release could drop it while others
                # use it, and the next request load a second runtime of the table (two locks:
                # their changes raced, a join's lost the race as a 500)
                rt.pins += 1
                return rt
        row = await self.store.table_by_code(code)
        if row is None:
            return None
        return await self.runtime(row["id"])

    @asynccontextmanager
    async def held(self, table_id: int) -> AsyncIterator[TableRuntime | None]:
        """`runtime(table_id)`, released at the end of the block."""
        rt = await self.runtime(table_id)
        try:
            yield rt
        finally:
            if rt is not None:
                self.release(rt)

    def release(self, rt: TableRuntime) -> None:
        """Unpin a runtime `runtime` gave; it is dropped when nobody holds it any more."""
        rt.pins -= 1
        if rt.pins <= 0 and not rt.conns and not rt.driven and self.rts.get(rt.id) is rt:
            del self.rts[rt.id]

    def notified(self, table_id: int, version: int | None) -> None:
        """A NOTIFY from the database (any process's commit)."""
        rt = self.rts.get(table_id)
        if rt is not None and (version is None or version > rt.version):
            task = asyncio.ensure_future(rt.refresh(version))
            task.add_done_callback(_log_failure)

    def expired(self, table_id: int) -> None:
        """The table was deleted (driver.Sweeper): its clients are told and disconnected."""
        rt = self.rts.pop(table_id, None)
        if self.on_expired is not None:
            self.on_expired(table_id)
        if rt is None:
            return
        for c in list(rt.conns):
            c.error("expired", "this table was abandoned and has been closed")
            c.send_close(4410)

    def after_change(self, rt: TableRuntime) -> None:
        if self.on_change is not None:
            self.on_change(rt)


def _log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())


def dumps(msg: dict) -> str:
    """A message as compact JSON text (orjson: the broadcast serialises every message once per
    client, the largest share of the decision path after the engine's views)."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:       # e.g. a client's message id beyond 64 bits, echoed in an error
        return json.dumps(msg, separators=(",", ":"))
