"""One change of a table, the same idiom for every change (a decision, a seat, a window's
end, a round break's, a timer): `async with self.change() as ch:` takes the runtime's asyncio
lock, opens the table's transaction (db.Store.locked), catches up with what other processes
committed, and gives the body a `Change`. The body validates and says what it changes (through
`ch`); nothing is written, taken over or published if it raises. After the commit the runtime
takes the change over (its state, seats and row), publishes it once to this process's clients,
wakes the driver, and, the lock released, tells the hub (`Hub.after_change`).

A body that writes nothing (it returns early: nothing to do) publishes nothing.

A change that lost a race with another process raises `Conflict` at the commit; a context
manager cannot run its body again, so the methods run the body inside `_retrying`, which catches
up and runs it anew, validated against the new position. A mixin of `TableRuntime`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from cardtable.core.game import GameState
from cardtable.server.store.db import Conflict
from cardtable.server.people.ratings import on_game_end as game_end
from cardtable.server.tables.table_base import ProtocolError, Step

log = logging.getLogger("cardtable.server")


class Change:
    """What one change does, collected by its body inside `TableRuntime.change()`."""

    def __init__(self, rt, tx):
        self.tx = tx                                        # the table's transaction (tx.py)
        self._rt = rt
        self.seat_changes: dict[int, dict[str, Any]] = {}
        self.trial: GameState | None = None                 # the state after `steps`
        self.steps: list[Step] = []
        self._committed: list[Callable[[], None]] = []

    def seats_after(self) -> list[dict]:
        """The runtime's seats with this change's seat changes."""
        return [dict(s, **self.seat_changes.get(s["seat"], {})) for s in self._rt.seats]

    async def update_seat(self, seat: int, **values) -> None:
        """Change a seat's row; the runtime's seat follows at the commit."""
        await self.tx.update_seat(seat, **values)
        self.seat_changes.setdefault(seat, {}).update(values)

    async def append(self, trial: GameState, steps: list[Step]) -> None:
        """Append the actions `steps` (played on `trial`, a copy of the runtime's state, see
        `_play`) at the next action indices; at the commit `trial` becomes the state."""
        await self.tx.append(self._rt.n, [(s.seat, s.text, s.by) for s in steps])
        self.trial, self.steps = trial, steps

    def on_commit(self, fn: Callable[[], None]) -> None:
        """Call `fn` after the runtime took the change over, before it is published (the
        decision's acknowledgement goes to its sender before the broadcast)."""
        self._committed.append(fn)


class TableChanges:
    @asynccontextmanager
    async def change(self, *, lock_row: bool = False) -> AsyncIterator[Change]:
        """One change of this table (see the module docstring). `lock_row`: PostgreSQL locks
        the row for the whole transaction instead of validating optimistically against the
        row this process last saw (a join: other processes wait instead of conflicting)."""
        async with self.lock:
            known = None if lock_row else self.row
            try:
                async with self.hub.store.locked(self.id, known) as tx:
                    await self.sync_tx(tx)
                    ch = Change(self, tx)
                    yield ch
                    await game_end(self, ch)    # the result, and the ratings if rated
                    if tx.notify:               # whose move it is now ("my games", turns.py)
                        waiting = self._waiting_after(ch)
                        if waiting != tx.row.get("waiting_for"):
                            tx.set(waiting_for=waiting)
                        # the version the commit writes: its NOTIFY is this process's own
                        self.committing = tx.row["version"] + 1
            finally:
                self.committing = None
            if not tx.notify:                   # nothing written: nothing to take over
                return
            self._take_over(ch)
        self.hub.after_change(self)

    def _take_over(self, ch: Change) -> None:
        """A committed change becomes the runtime's: its state, seats and row; then it is
        published to this process's clients and the driver looks again."""
        tx, steps = ch.tx, ch.steps
        if steps:
            self.state = ch.trial
            self.n += len(steps)
            self.log.extend((s.seat, s.by) for s in steps)
            self._seed_views(steps)
        if tx.changed("settings"):
            self.settings = tx.row["settings"]
        self.set_meta(tx.row, ch.seats_after() if ch.seat_changes else None)
        for fn in ch._committed:
            fn()
        self.publish(steps)                     # no steps: the new state only
        self.bump()

    async def _retrying(self, fn):
        """Run a change; if another process changed the table first (Conflict), catch up
        and run it again: it is validated anew against the new position."""
        for attempt in range(8):
            try:
                return await fn()
            except Conflict:
                if attempt >= 2:
                    log.warning("table #%d: repeated conflicts", self.id)
                await self.refresh()
        raise ProtocolError("conflict", "the table is busy: try again")
