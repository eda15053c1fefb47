"""A scripted table for the layout tests: the real page (app.js and the game modules, served by
the test server) talks to a stand-in for the game server's WebSocket, answered in the test
process by the real engine. A trajectory (a seed and every seat's decisions) is found by
`find_trajectory` so that seat 0, the browser's player, meets every kind of decision; the
stand-in plays the other seats' decisions from it and sends seat 0 exactly the messages the
server would (docs/protocol.md: welcome, state with the view of seat 0 and its legal decisions,
events in words). The test decides for seat 0 by clicking, and the stand-in checks that what
arrives is the trajectory's next decision.

Why a stand-in: the server draws its seeds in secret, so a real table cannot be steered to a
given decision; with the same engine and fixed seeds every kind of decision comes up at every
screen size, in a few seconds. The real server is what the other browser tests play against."""

from __future__ import annotations

import json
import random
import threading
import time

from cardtable.core.record import new_game
from cardtable.narration import web_why
from cardtable.server.tables.views import describe, seat_names

ME = 0


def _ab_policy(st, rng) -> str:
    return rng.choice(st.legal())


def _ko_kind(st) -> str:
    if st.awaiting != "action":
        return st.awaiting
    act = st.view(None)["action"]
    return "action" + {7: "7", 8: "7", 9: "9", 10: "9", 11: "11", 12: "11", 13: "13", 14: "13"}[act]


def _ko_policy(st, rng, n) -> str:
    """Random, with a leaning that brings seat 0 to every decision: it discards drawn action
    cards and uses their actions; right snaps are taken half of the time, wrong ones now and then;
    Kombio is called only late."""
    lg = st.legal()
    v = st.view(None)
    me = st.to_move == ME
    if st.awaiting == "snap":
        snaps = [d for d in lg if d.startswith("snap")]
        right = [d for d in snaps
                 if v["grids"][int(d.split()[1].split(".")[0])][int(d.split(".")[1]) - 1] == v["top"]]
        if right and rng.random() < 0.5:
            return rng.choice(right)
        if snaps and rng.random() < 0.15:
            return rng.choice(snaps)
        return "pass"
    if me and st.awaiting == "drawn" and v["drawn"] >= 7 and "discard" in lg:
        return "discard"
    if me and st.awaiting == "action" and len(lg) > 1:
        return rng.choice([x for x in lg if x != "skip"])
    if "kombio" in lg and len(lg) > 1 and (n < 120 or rng.random() < 0.9):
        return rng.choice([x for x in lg if x != "kombio"])
    return rng.choice(lg)


def _kind(game, st) -> str:
    return _ko_kind(st) if game == "kombio" else st.awaiting


def _play_seed(game: str, opts: dict, seed: int, need: set, limit: int):
    st = new_game(game, seed=seed, start=0, **opts)
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    while not st.over and len(st.history) < limit:
        if st.to_move == ME:
            seen.setdefault(_kind(game, st), len(st.history))
        d = _ab_policy(st, rng) if game == "abluxxen" else _ko_policy(st, rng, len(st.history))
        st.apply(d)
        if need <= set(seen):                # seat 0's decision of the last new kind included
            return list(st.history), seen
    return None, seen


_CACHE: dict = {}


def find_trajectory(game: str, opts: dict, need: set, seeds=range(1000), limit: int = 400):
    """(seed, actions): the first seed whose game brings seat 0 to every kind in `need`; the
    actions stop where the last of them is asked."""
    key = (game, json.dumps(opts, sort_keys=True), tuple(sorted(need)))
    if key not in _CACHE:
        for seed in seeds:
            actions, seen = _play_seed(game, opts, seed, need, limit)
            if actions is not None:
                _CACHE[key] = (seed, actions)
                break
        else:
            raise AssertionError(f"no seed brings seat 0 to every decision of {need}")
    return _CACHE[key]


class ScriptedTable:
    """The stand-in server of one page: replays `actions` (from `find_trajectory`), deciding
    for every seat but seat 0; the page decides for seat 0."""

    def __init__(self, game: str, opts: dict, seed: int, actions: list[str], code: str,
                 lang: str = "en", round_break: bool = False):
        self.game, self.opts, self.seed, self.actions = game, opts, seed, actions
        self.code, self.lang = code, lang
        self.state = new_game(game, seed=seed, start=0, **opts)
        n = self.state.players
        rows = [{"seat": 0, "kind": "human", "bot": None, "name": "Ann", "away": False,
                 "joined_at": 1.0}] + [{"seat": s, "kind": "bot", "bot": "easy", "name": None,
                                        "away": False, "joined_at": None} for s in range(1, n)]
        self.names = seat_names(rows, lang)
        self.seats = [{"seat": r["seat"], "kind": r["kind"], "bot": r["bot"], "name": r["name"],
                       "joined": True, "away": False, "online": r["kind"] == "human"}
                      for r in rows]
        self.round_break = round_break
        self.in_break = False
        self.errors: list[str] = []
        self.ws = None
        self.lock = threading.Lock()

    # -- what the lobby API says about the table ----------------------------------------------
    def table_json(self) -> dict:
        o = self.opts
        return {"code": self.code, "link": f"/t/{self.code}", "ws": f"/ws/{self.code}",
                "game": self.game, "variant": o.get("variant"), "players": self.state.players,
                "seats": self.seats, "free_seats": [], "public": False, "status": "playing",
                "turn_seconds": None, "snap_seconds": 5.0 if self.game == "kombio" else None,
                "target": o.get("target"), "options": {}, "actions": 0, "rematch": None,
                "memory": False, "host": 0}

    # -- the socket ------------------------------------------------------------------------------
    def attach(self, ws) -> None:
        self.ws = ws
        ws.on_message(self.on_message)

    def send(self, msg: dict) -> None:
        self.ws.send(json.dumps(msg))

    def state_msg(self) -> dict:
        st = self.state
        now = time.time()
        mine = not st.over and st.to_move == ME and not self.in_break
        legal = st.legal() if mine else []
        window = None
        if st.awaiting == "snap" and not st.over:
            order = st.view(None)["window"]["order"]
            window = {"deadline": now + 5.0, "eligible": ME in order, "answered": None,
                      "seats": order}
        brk = {"until": now + 60, "ready": [], "waiting": [ME]} if self.in_break else None
        return {"type": "state", "table": self.code, "index": len(st.history),
                "status": "over" if st.over else "playing", "seat": ME, "view": st.view(ME),
                "legal": legal, "your_turn": bool(legal),
                "decisions": [st.decision_json(d, ME) for d in legal],
                "waiting_for": [] if st.over else ([ME] if self.in_break else [st.to_move]),
                "deadline": window["deadline"] if window else None, "window": window,
                "away": False, "seats": self.seats, "rematch": None, "server_time": now,
                "round_break": brk,
                "why": web_why(self.game, st.view(ME), ME, self.names, self.lang, window,
                               bool(legal))}

    def apply(self, text: str, seat: int) -> None:
        st = self.state
        before = st.view(ME)
        rnd = before.get("round")
        st.apply(text)
        after = st.view(ME)
        i = len(st.history) - 1
        self.send({"type": "event", "index": i, "seat": seat, "decision": st.history[-1],
                   "move": st.decision_json(st.history[-1], seat),
                   "by": "player" if seat == ME else "bot",
                   "text": describe(self.game, before, st.history[-1], after, seat, ME,
                                    self.names, self.lang)})
        if self.round_break and rnd is not None and after.get("round") != rnd and not st.over:
            self.in_break = True

    def advance(self) -> None:
        """Play the other seats' decisions of the trajectory up to seat 0's next one."""
        st = self.state
        while (not st.over and not self.in_break and st.to_move != ME
               and len(st.history) < len(self.actions)):
            self.apply(self.actions[len(st.history)], st.to_move)
        self.send(self.state_msg())

    def on_message(self, raw) -> None:
        with self.lock:
            try:
                m = json.loads(raw)
                if m["type"] == "auth":
                    self.send({"type": "welcome", "protocol": 1, "table": self.code,
                               "game": self.game, "seat": ME, "role": "player", "name": "Ann",
                               "lang": self.lang, "server_time": time.time()})
                    self.advance()
                elif m["type"] == "ping":
                    self.send({"type": "pong", "id": m.get("id"), "server_time": time.time()})
                elif m["type"] == "ready":
                    self.in_break = False
                    self.advance()
                elif m["type"] == "decide":
                    i = len(self.state.history)
                    want = self.actions[i] if i < len(self.actions) else None
                    got = self.state.parse(m["decision"])
                    if want is None or got != self.state.parse(want):
                        self.errors.append(f"at {i}: the page sent {m['decision']!r}, the "
                                           f"script has {want!r}")
                        self.send({"type": "error", "code": "illegal", "message": "not scripted",
                                   "id": m.get("id")})
                        return
                    self.apply(m["decision"], ME)
                    self.advance()
                elif m["type"] == "sync":
                    self.send(self.state_msg())
            except Exception as e:                      # a broken stand-in fails the test
                self.errors.append(repr(e))


def to_round_end(opts: dict, seed: int, actions: list[str]) -> list[str]:
    """A Kombio trajectory carried on to the end of the round it stops in: seat 0 calls Kombio
    at its first chance (KO-12), every other decision as `_ko_policy` (late calls); the actions
    stop where the next round is dealt, so the round's summary comes up."""
    st = new_game("kombio", seed=seed, start=0, **opts)
    for a in actions:
        st.apply(a)
    rnd = st.view(None)["round"]
    rng = random.Random(seed + 1)
    while not st.over and st.view(None)["round"] == rnd:
        lg = st.legal()
        if st.to_move == ME and "kombio" in lg:
            d = "kombio"
        elif st.awaiting == "snap":
            d = "pass"
        else:
            d = _ko_policy(st, rng, 0)
        st.apply(d)
    assert not st.over, "the round ended the game"
    return list(st.history)
