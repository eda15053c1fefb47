"""Turn-based tables (pace.py): the move time, the reminder, the timeout's consequence and the
seats whose move it is. A mixin of `TableRuntime`; the server names no game here (a game's
windows are collected when its declaration says `windows_collect`, core/registry.py)."""

from __future__ import annotations

from cardtable.core import registry
from cardtable.server.tables import pace as PACE
from cardtable.server.tables.table_base import ProtocolError, log


class TurnPace:
    def turn_based(self) -> bool:
        return PACE.is_turn(self.settings)

    def move_time(self) -> float:
        return PACE.move_seconds(self.settings)

    def collects(self) -> bool:
        """A turn-based table of a game whose engine settles several claims of one window:
        every answer is kept until all answered or the time is over (windows.py)."""
        if not self.turn_based():
            return False
        try:
            return registry.info(self.game).windows_collect
        except Exception:                       # noqa: BLE001 -- a game no longer registered
            return False

    def pace_info(self) -> dict | None:
        """The pace as the state message and the lobby show it (None: live)."""
        if not self.turn_based():
            return None
        return {"pace": "turn", "move_seconds": self.move_time(),
                "on_timeout": self.settings.get("on_timeout") or "bot_move",
                "remind_at": self.reminder_at(sent_too=True),
                "reminded": self.row.get("reminded") == self.n}

    def reminded_seats(self) -> list[int]:
        """The human seats (not played by a bot) whose move it is now."""
        return [s for s in PACE.waiting_seats(self.row.get("waiting_for"))
                if 0 <= s < self.players and self.seats[s]["kind"] == "human"
                and not self.is_auto(s)]

    def reminder_at(self, sent_too: bool = False) -> float | None:
        """When this move's reminder is due (None: a live table, no deadline, a round break,
        already sent unless `sent_too`)."""
        if (not self.turn_based() or self.status != "playing" or self.deadline is None
                or self.round_break() is not None):
            return None
        if not sent_too and self.row.get("reminded") == self.n:
            return None
        return PACE.remind_at(self.deadline, self.move_time())

    async def remind(self, expected: int) -> bool:
        """The driver: the reminder of move `expected` is due. It is marked in the row (one
        reminder a move, in all processes), then sent in the page (`reminder` to the seat's
        connections) and by Web Push (the seat's subscriptions, push.py)."""
        return await self._retrying(lambda: self._remind(expected))

    async def _remind(self, expected: int) -> bool:
        sent: list[int] = []
        async with self.change() as ch:
            due = self.reminder_at()
            if self.n != expected or due is None or self.hub.clock.now() < due:
                return False
            ch.tx.set(reminded=self.n)
            seats = self.reminded_seats()

            def tell() -> None:
                sent.extend(seats)
                for c in list(self.conns):
                    if c.seat in seats:
                        c.send({"type": "reminder", "table": self.code, "seat": c.seat,
                                "index": self.n, "deadline": self.deadline})
            ch.on_commit(tell)
        if sent and self.hub.push is not None:
            try:
                self.hub.push.remind(self, sent)
            except Exception:                   # noqa: BLE001 -- the table never waits for it
                log.exception("table #%d: reminder push", self.id)
        return True

    async def _time_out(self, ch, seat: int) -> None:
        """A human seat's move time ran out (inside `_decide`, BY_TIMEOUT). Live: the seat is
        away (the stand-in plays until the player returns). Turn-based: `bot_move` changes
        nothing (the stand-in makes this move only), `drop` gives the seat to the stand-in bot
        for the rest of the game (its token no longer holds it)."""
        if not self.turn_based():
            await ch.update_seat(seat, away=True)
        elif (self.settings.get("on_timeout") or "bot_move") == "drop":
            await self._hand_to_bot(ch, seat)

    async def _hand_to_bot(self, ch, seat: int) -> None:
        """The seat's player is out for the rest of the game (dropped, or left): the stand-in
        bot takes the seat, its token no longer holds it, and its connections watch from now
        on (runtime `set_meta`). The seat keeps its account: a rated game counts it as the
        account's loss (ratings.left_seats)."""
        await ch.update_seat(seat, kind="bot", bot=self.hub.settings.standin,
                             token_hash=None, away=False)

    async def leave(self, seat: int) -> None:
        """The player leaves the game being played (the `leave` message): a bot plays the seat
        to the end; at a rated table the game counts as the player's loss."""
        await self._retrying(lambda: self._leave(seat))

    async def _leave(self, seat: int) -> None:
        async with self.change() as ch:
            if self.status != "playing" or self.state.over:
                raise ProtocolError("not_playing", "only a game being played can be left "
                                                   "(before the start: close the page)")
            if self.seats[seat]["kind"] != "human":
                return
            await self._hand_to_bot(ch, seat)

    def _waiting_after(self, ch) -> str | None:
        """`game_tables.waiting_for` after the change `ch`: the human seats whose move it is."""
        row = ch.tx.row
        state = ch.trial if ch.trial is not None else self.state
        if row["status"] != "playing" or state.over:
            return None
        snap, n = row.get("snap"), row["n_actions"]
        if snap and snap.get("n") == n and "break" in snap:
            return None
        w = state.window()
        if w is not None:
            answered = (snap or {}).get("answers", {}) if (snap or {}).get("n") == n else {}
            seats = [s for s in w.seats if str(s) not in answered]
        else:
            seats = [state.to_move]
        after = ch.seats_after()
        return PACE.waiting_column([s for s in seats if after[s]["kind"] == "human"])
