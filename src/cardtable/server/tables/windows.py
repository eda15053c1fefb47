"""A table's windows of simultaneous decisions (`GameState.window()`, core/game.py): who may
still answer, the answers kept, an answer taken or kept pending, a window closed at its
deadline. A mixin of `TableRuntime`.

Live, the first answer that is not silence closes the window (the first to arrive). At a
turn-based pace (pace.py), for a game whose engine settles several claims itself (its
declaration's `windows_collect`, e.g. Kombio's KO-10 draw), every answer is kept pending,
hidden from the others (`snap.claims`), until every seat of the window has answered or its
time (the move time) is over; then all of them are applied in the window's order and the
engine decides between the claims by its rules (docs/rules.md, "turn-based tables")."""

from __future__ import annotations

from cardtable.core.errors import IllegalDecision
from cardtable.core.game import GameState, Window
from cardtable.server.store.schema import BY_TIMEOUT
from cardtable.server.tables.table_base import ProtocolError


class Windows:
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
        """Pending answers of the open window: seat -> who answered (live: all are silent)."""
        if not self.snap or self.snap.get("n") != self.n:
            return {}
        return {int(k): v for k, v in self.snap.get("answers", {}).items()}

    def claims(self) -> dict[int, str]:
        """Pending answers that are not silence (a turn-based table that collects): seat ->
        its decision. Nobody else sees them."""
        if not self.snap or self.snap.get("n") != self.n:
            return {}
        return {int(k): v for k, v in self.snap.get("claims", {}).items()}

    def _pending(self, answers: dict[int, str], claims: dict[int, str]) -> dict:
        out = {"n": self.n, "answers": {str(k): v for k, v in answers.items()}}
        if claims:
            out["claims"] = {str(k): v for k, v in claims.items()}
        return out

    def window_state(self, seat: int) -> GameState:
        """A copy of the state where `seat` answers the open window (`Window.ask`: earlier
        seats are silent, since the first answer that is not silence closes the window)."""
        w = self.window()
        return w.ask(self.state, seat) if w is not None else self.state.copy()


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
        if self.collects():                     # turn-based: every answer kept until all in
            answers[seat] = by
            claims = self.claims()
            if canonical != w.silence:
                claims[seat] = canonical
            if len(answers) < len(order):
                return [], self._pending(answers, claims)
            return [(s, claims.get(s, w.silence), answers[s]) for s in order], None
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
        async with self.change() as ch:
            w = self.window()
            if (self.n != expected or self.status != "playing" or w is None
                    or self.deadline is None or self.hub.clock.now() < self.deadline - 0.01):
                return False
            answers, claims = self.answers(), self.claims()
            items = [(s, claims.get(s, w.silence), answers.get(s, BY_TIMEOUT))
                     for s in self.window_order()]
            trial = self.state.copy()
            steps = self._play(trial, self.n, items, self._viewers())
            await ch.append(trial, steps)
            n, now = self.n + len(steps), self.hub.clock.now()
            ch.tx.set(**self._with_break(self.state, trial,
                                         self.next_meta(trial, n, self.seats, now), n, now))
        return True
