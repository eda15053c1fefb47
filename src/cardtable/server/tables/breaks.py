"""Round breaks (`GameState.round()`): after a round the next one waits for the players'
`ready`, at most `round_break` seconds. A mixin of `TableRuntime`."""

from __future__ import annotations

from cardtable.core.game import GameState
from cardtable.server.tables.table_base import ProtocolError


class RoundBreaks:
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
        """`meta` (see next_meta) with a round break if the actions that lead from `before` to
        `after` ended a round and dealt the next one."""
        limit = self.hub.settings.round_break
        if limit <= 0 or after.over or after.round() == before.round():
            return meta
        return dict(meta, snap={"n": n, "break": now, "ready": []}, deadline=now + limit)

    async def ready(self, seat: int) -> None:
        """A player has seen the round's summary (the `ready` message)."""
        await self._retrying(lambda: self._ready(seat))

    async def _ready(self, seat: int) -> None:
        async with self.change() as ch:
            b = self.round_break()
            if b is None:
                raise ProtocolError("stale", "no round break is open")
            if seat in b["ready"]:
                return
            b = dict(b, ready=sorted(b["ready"] + [seat]))
            if self._players_here() <= set(b["ready"]):
                ch.tx.set(**self.next_meta(self.state, self.n, self.seats, self.hub.clock.now()))
            else:
                ch.tx.set(snap=b)

    async def end_break(self, expected: int) -> bool:
        """The break's time is over (the driver): the next round starts."""
        return await self._retrying(lambda: self._end_break(expected))

    async def _end_break(self, expected: int) -> bool:
        async with self.change() as ch:
            end = self.break_end()
            if self.n != expected or end is None or self.hub.clock.now() < end - 0.01:
                return False
            ch.tx.set(**self.next_meta(self.state, self.n, self.seats, self.hub.clock.now()))
        return True
