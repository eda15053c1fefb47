"""What a viewer of a table sees: its view, its legal decisions, the state, welcome and event
messages, and the history page by page. A mixin of `TableRuntime`."""

from __future__ import annotations

import asyncio
import logging

from cardtable.core.game import GameState
from cardtable.core.record import load_record
from cardtable.server.tables.lessons import lesson_info
from cardtable.narration import web_why
from cardtable.server.tables import views as V
from cardtable.server.protocol import PROTOCOL_VERSION
from cardtable.server.tables.table_base import CHECKPOINT, Step

log = logging.getLogger("cardtable.server")


class TableViews:
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
        """The decisions `seat` may send now, as notation texts (sorted)."""
        return self._legal(seat)[0]

    def decisions_for(self, seat: int | None) -> list[dict]:
        """The same decisions as JSON (`GameState.decision_json`, in the same order), so no
        client parses the notation."""
        return self._legal(seat)[1]

    def _legal(self, seat: int | None) -> tuple[list[str], list[dict]]:
        if seat is None or self.status != "playing" or self.state.over or self.round_break():
            return [], []
        key = (self.n, seat)
        entry = self._lcache.get(key)
        if entry is None:
            if len(self._lcache) > 16:
                self._lcache = {k: x for k, x in self._lcache.items() if k[0] == self.n}
            if self.window() is not None:
                lg = self.window_state(seat).legal() if seat in self.window_order() else []
            else:
                lg = self.state.legal() if self.state.to_move == seat else []
            entry = (lg, [self.state.decision_json(text, seat) for text in lg])
            self._lcache[key] = entry
        if entry[0] and self.window() is not None and seat in self.answers():
            return [], []
        return entry

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

    def state_msg(self, viewer: int | None, lang: str = "en") -> dict:
        window = None
        w = self.window() if self.status == "playing" and not self.round_break() else None
        if w is not None:
            order = self.window_order()
            mine = self.answers().get(viewer) if viewer is not None else None
            window = {"deadline": self.deadline, "eligible": viewer in order,
                      "answered": (self.claims().get(viewer, w.silence) if mine else None),
                      "seats": order}
        legal, decisions = self._legal(viewer)
        return {
            "type": "state", "table": self.code, "index": self.n, "status": self.status,
            "seat": viewer, "view": self.view_for(viewer), "legal": legal,
            "decisions": decisions,
            "your_turn": bool(legal), "waiting_for": self.waiting_for(viewer),
            "deadline": self.deadline if self.status == "playing" else None,
            "window": window,
            "away": bool(viewer is not None and self.seats[viewer]["away"]),
            "seats": self.seat_info(), "rematch": self.rematch,
            "server_time": self.hub.clock.now(),
            "round_break": self.break_info(),
            "pace": self.pace_info(),
            "why": self.why_for(viewer, lang, window, legal),
            "lesson": lesson_info(self.settings.get("lesson"), self.state, viewer, bool(legal)),
        }

    def why_for(self, viewer: int | None, lang: str, window: dict | None,
                legal: list[str]) -> str:
        """The "whose turn and why" line of the state message in `lang`, from the viewer's
        own view (a spectator's: the public view), its window part and whether it may decide
        (narration, `web_why`: a few microseconds, no cache); empty while the table waits for
        its players."""
        if self.status == "waiting":
            return ""
        try:
            return web_why(self.game, self.view_for(viewer), viewer, self.names[lang], lang,
                           window, bool(legal))
        except Exception as e:  # noqa: BLE001 -- never fail a state message over wording
            log.warning("why of %s for seat %s: %s: %s", self.game, viewer, type(e).__name__, e)
            return ""

    def welcome_msg(self, viewer: int | None, lang: str) -> dict:
        return {"type": "welcome", "protocol": PROTOCOL_VERSION, "table": self.code,
                "game": self.game, "seat": viewer,
                "role": "spectator" if viewer is None else "player",
                "name": self.names[lang][viewer] if viewer is not None else None,
                "lang": lang, "server_time": self.hub.clock.now()}

    def event_msg(self, step: Step, viewer: int | None, lang: str,
                  names: list[str] | None = None) -> dict | None:
        if viewer not in step.before:
            return None
        text = V.describe(self.game, step.before[viewer], step.text, step.after[viewer],
                          step.seat, viewer, names or self.names[lang], lang)
        return {"type": "event", "index": step.index, "seat": step.seat, "decision": step.text,
                "move": step.move,
                "by": step.by, "text": text}


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
            msg = self.event_msg(Step(i, seat, history[i], by, before, after,
                                      st.decision_json(history[i], seat)), viewer, lang,
                                 names)
            if msg:
                out.append(msg)
            before = after
        return out
