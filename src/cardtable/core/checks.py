"""The generic property checker every game is run through (tests/core/test_properties.py).

`playout(make, seed, ...)` plays one seeded random game through the public protocol only and
checks, step by step:
- the game's invariants (card conservation, ...) via `check_invariants()`;
- `legal()` is the sorted text of `legal_decisions()`, and each text parses to its decision;
- every listed decision applies (on a copy); decisions that are not listed are refused with
  IllegalDecision and leave the state unchanged;
- a copy evolves exactly like the original and is independent of it;
- simultaneous decisions (`window()`): an open window's seats are distinct seats of the game,
  the first is `to_move`; its silence is legal for each of them in its turn (`Window.ask`,
  on a copy); every answer of its first seat leaves the window of the remaining seats (same
  silence and kind) until the last; no window once over;
- rounds (`round()`): None all game long, or a number from 1 that never goes down;
- information: for a seat, a determinization looks the same from that seat
  (view(determinize(s), s) == view(s)), so the seat's view cannot depend on anything hidden;
  the hidden parts are really re-dealt (checked over the game), and the game's own `no_leak`
  hook inspects the view's shape;
- at the end: the game's `check_result` hook (scores and winners by the rules), and the record
  replays (after a JSON round trip) to the same state.
"""

from __future__ import annotations

import json
import random
from typing import Callable

from cardtable.core.errors import IllegalDecision
from cardtable.core.game import GameState, Window
from cardtable.core.record import load_record
from cardtable.core.registry import games

#: texts no game takes; every game's declared `probes` (near-misses of its own notation) are
#: added, so each game is also tried with the others' words
NONSENSE = ["", "   ", "fly away", "\x00"]


def garbage() -> list[str]:
    """The refusal probes: NONSENSE and every registered game's `probes`, once each."""
    out = list(NONSENSE)
    for g in games():
        out += [p for p in g.probes if p not in out]
    return out


def check_refusal(e: IllegalDecision) -> None:
    """An engine's refusal has a stable code whose catalog message (err.<code>) exists in every
    language and takes exactly its params (plain numbers and strings, for the server's JSON)."""
    from cardtable.i18n import LANGS, catalog, placeholders, t

    assert e.code != "illegal", f"a refusal without a code: {e.reason}"
    assert all(type(v) in (int, str) for v in e.params.values()), e.params
    for lang in LANGS:
        msg = catalog(lang).get("err." + e.code)
        assert msg is not None, f"err.{e.code} is missing in {lang}.json"
        assert placeholders(msg) <= set(e.params), (e.code, e.params)
        assert t(lang, "err." + e.code, **e.params)
    assert e.reason == t("en", "err." + e.code, **e.params)


def check_window(state: GameState, w: Window | None, texts: list[str], deep: bool) -> None:
    """The open window `w` of `state` (whose legal texts are `texts`) keeps the protocol
    (core/game.py); with `deep`, every seat of it is asked on a copy."""
    if w is None:
        return
    assert isinstance(w, Window), f"window() gave {w!r}"
    assert isinstance(w.seats, tuple) and w.seats, f"a window without seats: {w}"
    assert len(set(w.seats)) == len(w.seats), f"a seat twice in the window: {w}"
    assert all(type(s) is int and 0 <= s < state.players for s in w.seats), w
    assert w.seats[0] == state.to_move, f"the window's first seat is not to move: {w}"
    assert isinstance(w.kind, str) and w.kind, f"a window without a kind: {w}"
    assert w.silence in texts, f"silence {w.silence!r} is not legal for seat {w.seats[0]}"
    if deep:
        before = state.view(None)
        for i, s in enumerate(w.seats):
            c = w.ask(state, s)
            assert c.to_move == s, f"seat {s} is not asked after the silence of {w.seats[:i]}"
            assert w.silence in c.legal(), f"silence is not legal for seat {s}"
            assert c.window() == Window(w.seats[i:], w.silence, w.kind), (c.window(), w)
        assert state.view(None) == before, "asking a window's seat changed the state"


def check_window_step(w: Window | None, after: Window | None) -> None:
    """An answer of the first seat of window `w` left `after`: the remaining seats' window.
    The last seat's answer closes the window (a new one may open at once, e.g. the next
    round's: the next step checks it as any window)."""
    if w is not None and len(w.seats) > 1:
        assert after == Window(w.seats[1:], w.silence, w.kind), (w, after)


def check_round(before: int | None, after: int | None, first: bool) -> None:
    """`round()` is None all game long, or a number from 1 that never goes down."""
    if first:
        assert after is None or (type(after) is int and after >= 1), f"round {after!r}"
        return
    if before is None:
        assert after is None, f"round() was None, then {after!r}"
    else:
        assert type(after) is int and after >= before, f"round {before} -> {after!r}"


class Stats:
    def __init__(self):
        self.games = 0
        self.decisions = 0
        self.refusals = 0
        self.determinizations = 0
        self.hidden_changed = 0
        self.window_answers = 0


def playout(make: Callable[[int], GameState], seed: int, *, stats: Stats,
            no_leak: Callable[[GameState, dict, int], None],
            check_result: Callable[[GameState], None],
            seen_texts: set[str], deep_every: int = 7, max_steps: int = 100_000) -> GameState:
    rnd = random.Random(seed)
    probes = garbage()
    state = make(seed)
    twin = state.copy()
    steps = 0
    rnd_no = state.round()
    check_round(None, rnd_no, first=True)
    while not state.over:
        steps += 1
        assert steps <= max_steps, "the game does not end"
        state.check_invariants()
        legal = state.legal_decisions()
        assert legal, f"no legal decision while {state.awaiting}"
        texts = state.legal()
        assert texts == sorted(d.text for d in legal)
        assert len(set(texts)) == len(texts), "a decision is listed twice"
        seat = state.to_move
        assert seat is not None and 0 <= seat < state.players
        deep = steps % deep_every == 1
        window = state.window()
        check_window(state, window, texts, deep)
        if deep:
            before = state.view(None)
            for d in legal:
                assert state.parse(d.text) == d
                c = state.copy()
                c.apply(d)
                c.check_invariants()
            assert state.view(None) == before, "applying to a copy changed the original"
            # refusals: texts legal elsewhere, and garbage
            pool = rnd.sample(sorted(seen_texts), min(12, len(seen_texts))) + rnd.sample(probes, 4)
            legal_set = set(texts)
            for text in pool:
                if " ".join(text.split()) in legal_set:
                    continue
                try:
                    state.apply(text)
                except IllegalDecision as e:
                    assert e.reason, "an IllegalDecision without a reason"
                    check_refusal(e)
                    stats.refusals += 1
                else:
                    raise AssertionError(f"{text!r} was applied but is not legal: {texts}")
                assert state.view(None) == before, f"refused {text!r} changed the state"
            # information
            for s in {seat, rnd.randrange(state.players)}:
                mine = state.view(s)
                no_leak(state, mine, s)
                det = state.determinize(s, seed=rnd.randrange(2**32))
                det.check_invariants()
                assert det.view(s) == mine, f"seat {s}'s view depends on hidden cards"
                stats.determinizations += 1
                if det.view(None) != before:
                    stats.hidden_changed += 1
        seen_texts.update(texts)
        d = legal[rnd.randrange(len(legal))]
        if rnd.random() < 0.5:
            d = d.text  # exercise the text path too
        state.apply(d)
        twin.apply(d)
        stats.decisions += 1
        if window is not None:
            stats.window_answers += 1
        check_window_step(window, state.window())
        now = state.round()
        check_round(rnd_no, now, first=False)
        rnd_no = now
        if deep:
            assert twin.view(None) == state.view(None), "a copy diverged"
    state.check_invariants()
    assert state.legal_decisions() == [] and state.to_move is None and state.awaiting is None
    assert state.window() is None, "a window is open after the end"
    check_result(state)
    rec = json.loads(json.dumps(state.record()))
    again = load_record(rec)
    assert again.view(None) == state.view(None), "the record does not replay to the same state"
    stats.games += 1
    return state
