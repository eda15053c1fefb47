"""Tables in a server process: the authoritative decision path and the broadcast.

One concern a module: `hub.py` (the tables held in memory), `change.py` (one change of a
table: lock, transaction, catching up, publishing), `windows.py` (windows of simultaneous
decisions), `breaks.py` (round breaks), `table_views.py` (what each viewer sees, the messages,
the history) and `table_base.py` (what they share); `TableRuntime` here joins
them with the waiting room, the decision path, catching up and the connections.

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
import logging
from collections.abc import Callable
from typing import Any, Protocol


from cardtable.core.errors import CardtableError, IllegalDecision, refuse
from cardtable.core.game import GameState
from cardtable.core.record import load_record
from cardtable.server.tables.lessons import check_step, guided_seconds
from cardtable.server.tables import views as V
from cardtable.server.tables.pace import RESTART_GRACE
from cardtable.server.protocol import DEFAULT_SNAP_SECONDS

from cardtable.server.tables.breaks import RoundBreaks
from cardtable.server.tables.change import TableChanges
from cardtable.server.store.schema import BY_BOT, BY_PLAYER, BY_STANDIN, BY_TIMEOUT
from cardtable.server.tables.table_base import (
    MAX_DECISION, ProtocolError, Shared, Step,
    norm, seat_info_of,
)
from cardtable.server.tables.table_views import TableViews
from cardtable.server.tables.turns import TurnPace
from cardtable.server.tables.windows import Windows

from cardtable.server.clock import Clock
from cardtable.server.config import Settings
from cardtable.server.store.db import Store

log = logging.getLogger("cardtable.server")

class TableHost(Protocol):
    """What a table needs of the place that holds it (hub.py's `Hub` is one): the hub sits
    above the tables it makes."""
    store: Store
    settings: Settings
    clock: Clock
    rts: dict[int, Any]         # the tables held, by id
    push: Any                   # push.Pusher, or None: "your move" alerts (turns.py)
    metrics: Any                # observe.metrics.Metrics: decisions and their latency

    def after_change(self, rt: Any) -> None: ...


class TableRuntime(TableChanges, Windows, TableViews, RoundBreaks, TurnPace):
    def __init__(self, hub: TableHost, row: dict, seat_rows: list[dict], state: GameState,
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
        #: "cancelled" or "expired" once the table is deleted: a client that arrives later
        #: (its connection was being checked meanwhile) is told so instead of attached
        self.gone: str | None = None
        #: the version a change of this process is committing (change.py), else None: a
        #: NOTIFY of another version is another process's commit (Hub.notified)
        self.committing: int | None = None
        #: action index -> the state after that many actions, every CHECKPOINT actions (read
        #: and extended by history_page's worker threads; never changed once stored)
        self._checkpoints: dict[int, GameState] = {}
        self.tick = 0                                      # bumped by every change
        self._changed = asyncio.Event()
        self._vcache: dict = {}
        self._lcache: dict = {}
        self._wcache: Any = None
        self._online: tuple | None = None
        self.set_meta(row, seat_rows)

    # -- metadata ---------------------------------------------------------------------------------
    def set_meta(self, row: dict, seat_rows: list[dict] | None) -> None:
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
            for conn in getattr(self, "conns", ()):     # a seat a bot took: its people watch
                if conn.seat is not None and self.seats[conn.seat]["kind"] != "human":
                    conn.seat = None
        self._seat_info = seat_info_of(self.seats)

    def window_seconds(self) -> float:
        """How long a window of simultaneous decisions is open (the table setting
        `snap_seconds`, a name of the wire protocol; a turn-based table: the move time; a
        lesson's own while it guides)."""
        if self.turn_based():
            return self.move_time()
        guided = guided_seconds(self.settings, self.state)
        return guided or float(self.settings.get("snap_seconds") or DEFAULT_SNAP_SECONDS)

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
        await self.hub.clock.wait(self._changed, timeout)

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
        async with self.change() as ch:
            if self.status != "waiting":
                raise ProtocolError("not_waiting", "the game has started: its seats are set")
            if not 0 <= seat < self.players or seat == self.host():
                raise ProtocolError("bad_seat", "that seat cannot be changed")
            if self.seats[seat]["kind"] == "human" and self.seats[seat]["joined_at"]:
                raise ProtocolError("bad_seat", "a player sits there")
            await ch.update_seat(seat, kind=kind, bot=(bot or "medium") if kind == "bot" else None)
            seats_after = ch.seats_after()
            ch.tx.set(settings=dict(self.settings, seats=[
                {"kind": s["kind"], "bot": s["bot"]} for s in seats_after]))
            if all(s["kind"] == "bot" or s["joined_at"] is not None for s in seats_after):
                meta = self.next_meta(self.state, self.n, seats_after, self.hub.clock.now())
                ch.tx.set(status="playing", **meta)

    async def cancel(self) -> None:
        """The host cancels the table before the game: it is deleted; its clients are told
        (`cancelled`) and disconnected."""
        async with self.lock:
            if self.status != "waiting" or not await self.hub.store.delete_waiting_table(self.id):
                raise ProtocolError("not_waiting", "the game has started: it cannot be cancelled")
            if self.hub.rts.get(self.id) is self:
                del self.hub.rts[self.id]
            self.gone = "cancelled"
            for c in list(self.conns):
                self.tell_gone(c)

    def tell_gone(self, conn) -> None:
        """Tell a client of a deleted table (`gone`) and close its connection."""
        if self.gone == "cancelled":
            conn.send({"type": "cancelled", "table": self.code})
            conn.send_close(4404)
        else:
            conn.error("expired", "this table was abandoned and has been closed")
            conn.send_close(4410)

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
            text = state.history[-1]
            steps.append(Step(start + i, seat, text, by, before, after,
                              state.decision_json(text, seat)))
            before = after
        return steps

    def publish(self, steps: list[Step], only_state: bool = False) -> None:
        """Send events and new states to this process's clients. Each message is made (and
        encoded, `Shared`) once per distinct viewer and language, whatever the number of
        connections that see it."""
        events: dict = {}
        states: dict = {}
        for conn in list(self.conns):
            key = (conn.seat, conn.lang)
            if not only_state:
                msgs = events.get(key)
                if msgs is None:
                    msgs = events[key] = [
                        Shared(m) for m in (self.event_msg(st, conn.seat, conn.lang)
                                            for st in steps) if m]
                for msg in msgs:
                    conn.send(msg)
            msg = states.get(key)
            if msg is None:
                msg = states[key] = Shared(self.state_msg(conn.seat, conn.lang))
            conn.send_state(msg)

    def next_meta(self, state: GameState, n: int, seats: list[dict], now: float) -> dict:
        """Status, deadline and window after the position `state` (n actions)."""
        if state.over:
            return {"status": "over", "deadline": None, "snap": None}
        if state.window() is not None:
            return {"snap": {"n": n, "answers": {}},
                    "deadline": now + self.window_seconds()}
        turn = self.move_time() if self.turn_based() else self.settings.get("turn_seconds")
        seat = state.to_move
        if turn and seats[seat]["kind"] == "human":
            return {"snap": None, "deadline": now + float(turn)}
        return {"snap": None, "deadline": None}

    # -- catching up ------------------------------------------------------------------------------------
    async def sync_tx(self, tx) -> None:
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
                log.exception("table #%d: stored actions do not replay", self.id)
                raise
            self.n += len(rows)
            self.log.extend((s, b) for _, s, _, b in rows)
            self._seed_views(steps)
        self.set_meta(row, seat_rows)
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
        self.set_meta(row, seat_rows)
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
        with self.hub.metrics.deciding(by) as outcome:  # counted, timed up to the broadcast
            ack = await self._retrying(lambda: self._decide(seat, text, by, expected,
                                                            on_commit))
            outcome["again"] = bool(ack.get("again"))
            return ack

    def _made_already(self, seat: int, text: str, by: str, index: int) -> dict | None:
        """The acknowledgement, again, of a player's decision sent a second time with the
        `index` it was made at (a client that lost its connection before the first answer
        sends it again, docs/protocol.md): the seat's own action at `index` with this text.
        Anything else at an earlier index is stale."""
        if by != BY_PLAYER or not 0 <= index < self.n or self.log[index] != (seat, BY_PLAYER):
            return None
        if self.state.history[index] != text:
            return None
        return {"type": "ack", "index": index + 1, "decision": text, "pending": False,
                "again": True}

    async def _decide(self, seat, text, by, expected, on_commit) -> dict:
        async with self.change() as ch:
            if self.status == "waiting":
                raise ProtocolError("not_started", "the table waits for players to join")
            if self.status == "over" or self.state.over:
                raise ProtocolError("game_over", "the game is over")
            if expected is not None and expected != self.n:
                again = self._made_already(seat, text, by, expected)
                if again is None:
                    raise ProtocolError("stale", f"the game has moved on: the state is at "
                                                 f"index {self.n}, not {expected}")
                log.info("table %d: seat %d sent its decision at index %d again: "
                         "acknowledged again", self.id, seat, expected)
                if on_commit is not None:
                    on_commit(again)
                return again                    # nothing written: nothing published
            if not 0 <= seat < self.players:
                raise ProtocolError("not_seated", "no such seat")
            if self.round_break():
                raise ProtocolError("round_break", "the round's summary is being shown: "
                                                   "the next round starts after it (ready)")
            now = self.hub.clock.now()
            if by == BY_PLAYER and self.seats[seat]["kind"] != "human":
                raise ProtocolError("not_seated", "a bot plays this seat now")
            if by == BY_PLAYER:                 # a lesson's step refuses other decisions
                check_step(self.settings.get("lesson"), self.state, seat, text)
            if by == BY_PLAYER and self.seats[seat]["away"]:
                await ch.update_seat(seat, away=False)
            if by == BY_PLAYER:
                ch.tx.set(moved_at=now)          # a player moved (turn-based expiry, pace.py)
            if by == BY_TIMEOUT:
                if self.deadline is None or now < self.deadline - 0.01:
                    raise ProtocolError("stale", "the timer has not run out")
                if self.seats[seat]["kind"] == "human":
                    await self._time_out(ch, seat)
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
            if items:
                trial = self.state.copy()
                try:
                    steps = self._play(trial, self.n, items, self._viewers())
                except IllegalDecision as e:
                    raise ProtocolError.illegal(e) from None
                await ch.append(trial, steps)
                n = self.n + len(steps)
                ch.tx.set(**self._with_break(self.state, trial, self.next_meta(
                    trial, n, ch.seats_after(), now), n, now))
            else:
                ch.tx.set(snap=pending)
            ack: dict = {}

            def acknowledge() -> None:          # committed: the runtime is at the new state
                mine = [s.text for s in ch.steps if s.seat == seat]
                w = self.window()
                ack.update({"type": "ack", "index": self.n,
                            "decision": mine[-1] if mine else (w.silence if w is not None
                                                               else None),
                            "pending": not ch.steps})
                if on_commit is not None:
                    on_commit(ack)
            ch.on_commit(acknowledge)
        return ack

    async def set_away(self, seat: int, away: bool) -> None:
        """A player is back (or, for the tests, away)."""
        await self._retrying(lambda: self._set_away(seat, away))

    async def _set_away(self, seat: int, away: bool) -> None:
        async with self.change() as ch:
            if bool(self.seats[seat]["away"]) == away:
                return
            await ch.update_seat(seat, away=away)
            turn = self.settings.get("turn_seconds")
            if (not away and turn and self.status == "playing" and not self.state.over
                    and self.window() is None and self.state.to_move == seat):
                ch.tx.set(deadline=self.hub.clock.now() + float(turn))  # a full timer on return

    async def reset_deadline(self) -> None:
        """After a restart (or a takeover): give the seat(s) to move their full time again."""
        await self._retrying(self._reset_deadline)

    async def _reset_deadline(self) -> None:
        async with self.change() as ch:
            if self.status != "playing" or self.state.over:
                return
            now = self.hub.clock.now()
            if self.turn_based() and self.deadline is not None:
                # a turn-based table keeps its stored deadline over a restart; one that passed
                # while nobody drove the table is moved to a short grace after now (pace.py)
                if self.deadline < now:
                    ch.tx.set(deadline=now + RESTART_GRACE)
                return
            b = self.round_break()
            if b is not None:                    # the break again in full, its readies kept
                ch.tx.set(snap=dict(b, **{"break": now}),
                          deadline=now + self.hub.settings.round_break)
            else:
                meta = self.next_meta(self.state, self.n, self.seats, now)
                meta.pop("snap", None)           # keep the answers given so far
                ch.tx.set(**meta)

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

    def record(self) -> dict:
        return dict(self.base, actions=list(self.state.history))
