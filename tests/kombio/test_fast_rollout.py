"""The policy-rollout search's compiled rollouts (kombio/batch/rollout.py) against the engine:
a determinization loaded into a simulator row and stepped with the engine's decisions stays
the engine's state (row, knowledge, generator) step for step; a compiled rollout scores what
the Python rollout scores; and the search decides with them as with Python rollouts. Positions
are from seeded games of the heuristic at 2-6 players: a few dozen in `make test`, more in
`make test-full` (tests/sizes.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sizes import sample

from cardtable import new_game
from cardtable.bots import make_bot
from cardtable.bots.ismcts import outcome
from cardtable.core.rng import Rng
from cardtable.kombio import heuristics as H
from cardtable.kombio.batch import rollout as RO
from cardtable.kombio.batch import rules as L
from cardtable.kombio.batch.play import apply
from cardtable.kombio.codec import KombioCodec
from cardtable.rl.batch.rng import MT_WORDS

POSITIONS = sample(150, 30)


@pytest.fixture(autouse=True, scope="module")
def _compiled_ready():
    """The compiled playout loaded in this process (its warm-up waited for)."""
    from cardtable.kombio.heuristics import search as S

    assert S.compiled_playout(wait=True) is not None


def _position(seed: int):
    """A state of a seeded heuristic game at 2-6 players, some decisions in (not over)."""
    n = 2 + seed % 5
    st = new_game("kombio", players=n, seed=seed)
    rng = Rng(seed)
    for _ in range(random.Random(seed).randrange(3, 250)):
        if st.over:
            return _position(seed + 1000)
        st.apply(H.heuristic(st, rng))
    return st if not st.over else _position(seed + 1000)


def _row(st):
    g = np.zeros(L.ROW, np.int16)
    kn = np.zeros((L.SEATS + 1, 2), np.uint64)
    mt = np.zeros(MT_WORDS, np.uint64)
    assert RO.load(st, g, kn, mt)
    return g, kn, mt


def _state_of(g):
    """The row without what is not state: the seat that moved last, the cards past the
    deck's and the pile's sizes, the claims past their count."""
    g = g.copy()
    g[L.LAST] = -1
    g[L.DECK + g[L.DECK_N]:L.DECK + L.CARDS] = 0
    g[L.DISCARD + g[L.DISCARD_N]:L.DISCARD + L.CARDS] = 0
    g[L.CLAIMS + 3 * g[L.CLAIMS_N]:L.CLAIMS + 18] = 0
    return g


def test_a_loaded_determinization_steps_as_the_engine():
    kinds = set()
    for seed in range(POSITIONS):
        st = _position(seed)
        n = st.players
        d = H.determinize(st, st.to_move, seed * 7 + 1)
        codec = KombioCodec(n)
        R = L.params(n, codec.K, codec.target)
        g, kn, mt = _row(d)
        cards = np.zeros(L.CARDS, np.int16)
        pick = random.Random(seed)
        rng = Rng(seed)
        for step in range(40):
            if d.over:
                break
            legal = codec.legal(d, d.view(d.to_move))
            if pick.random() < 0.5:
                a = pick.choice(sorted(legal))
            else:
                text = H.heuristic(d, rng).text
                a = next(k for k, v in legal.items() if v.text == text)
            kinds.add(legal[a].kind)
            d.apply(legal[a])
            apply(g, kn, R, mt, cards, a)
            g2, kn2, mt2 = _row(d)
            where = (seed, step, legal[a].text)
            assert np.array_equal(_state_of(g), _state_of(g2)), where
            assert np.array_equal(kn, kn2), where
            assert np.array_equal(mt, mt2), where
    assert {"draw", "replace", "discard", "snap", "pass"} <= kinds


def _python_rollout(d, seat, seed, h0, sw):
    """bots/pimc.py's Python rollout (heuristic for every seat on Rng(seed) to the horizon)."""
    rng = Rng(seed)
    while not d.over and H.horizon(d) == h0:
        d.apply(H.heuristic(d, rng))
    if d.over:
        w, v = outcome(d, sw)
        return w[seat], v[seat]
    w = H.evaluate(d)[seat]
    return w, w


def test_compiled_rollouts_score_as_the_python_rollouts():
    finished = 0
    for seed in range(POSITIONS):
        st = _position(seed)
        seat = st.to_move
        pick = random.Random(seed)
        for _ in range(2):
            s = pick.getrandbits(62)
            base = H.determinize(st, seat, s)
            h0 = H.horizon(base)
            for m in base.legal_decisions()[:3]:
                d = base.copy()
                d.apply(m)
                fast = H.playout(d.copy(), seat, s, h0, 0.1)
                slow = _python_rollout(d, seat, s, h0, 0.1)
                assert fast == slow, (seed, m.text)
                finished += d.over
    assert finished           # some rollouts end the game (outcome), the others evaluate


def test_the_search_decides_with_compiled_rollouts_as_with_python_ones(monkeypatch):
    positions = [_position(seed) for seed in range(sample(12, 4))]

    def searched(compiled=True):
        out = []
        for st in positions:
            bot = make_bot("pimc", seed=3, iterations=24, compiled=compiled)
            cands = H.ranked(st, Rng(1))[:4]
            if len(cands) > 1:
                out.append((bot.search(st, cands), bot.best.text))
        return out

    fast = searched()
    calls = []
    hook = H.playout
    monkeypatch.setattr(H, "playout", lambda *a: calls.append(0) or hook(*a))
    assert searched(compiled=None) == fast and 0 in calls     # on by default
    calls.clear()
    real = H.playout
    monkeypatch.setattr(H, "playout", lambda *a: calls.append(1) or real(*a))
    assert searched() == fast and calls          # the hook is what the search uses
    monkeypatch.setattr(H, "playout", None)
    assert searched() == fast
    monkeypatch.setattr(H, "playout", lambda *a: calls.append(2) or real(*a))
    assert searched(compiled=False) == fast and 2 not in calls   # off unless asked for


def test_states_the_simulator_cannot_hold_are_played_in_python():
    st = new_game("kombio", players=3, seed=4, options={"max_turns": 30})
    assert H.playout(st.copy(), 0, 5, st.round_no, 0.1) is None
    bot = make_bot("pimc", seed=1, iterations=8, compiled=True)
    bot.search(st, H.ranked(st, Rng(1))[:2])     # falls back to the Python rollout
    assert bot.last_iterations == 8


def test_without_the_simulator_installed_the_search_rolls_out_in_python(monkeypatch):
    import sys

    from cardtable.kombio.batch import COMPILED
    from cardtable.kombio.heuristics import search as S

    monkeypatch.setattr(COMPILED, "loaded", None)
    monkeypatch.setitem(sys.modules, "cardtable.kombio.batch.rollout", None)   # not importable
    st = _position(2)
    assert S.playout(st.copy(), 0, 5, st.round_no, 0.1) is None
    bot = make_bot("pimc", seed=1, iterations=8, compiled=True)
    bot.search(st, H.ranked(st, Rng(1))[:2])
    assert bot.last_iterations == 8


def _gated(monkeypatch, tmp_path, code: str):
    """This process's compiled playout not loaded, its warm-up the program `code` (a Python
    snippet with GATE, a file path, and os defined)."""
    import sys

    from cardtable.kombio.batch import COMPILED
    from cardtable.kombio.heuristics import search as S

    gate = tmp_path / "gate"
    monkeypatch.setattr(COMPILED, "loaded", None)
    monkeypatch.setattr(COMPILED, "warming", None)
    monkeypatch.setattr(COMPILED, "command", lambda: [
        sys.executable, "-c", f"import os, sys, time\nGATE = {str(gate)!r}\n{code}"])
    return S, COMPILED, gate


def _decisions(positions, **kw):
    out = []
    for st in positions:
        bot = make_bot("pimc", seed=3, iterations=24, **kw)
        out.append((bot.search(st, H.ranked(st, Rng(1))[:4]), bot.best.text))
    return out


def test_a_search_does_not_wait_for_the_compiler(monkeypatch, tmp_path):
    """While the warm-up process compiles, the searches roll out in Python (the same
    decisions); once it has succeeded, the compiled rollouts are loaded and used."""
    S, W, gate = _gated(monkeypatch, tmp_path,
                     "while not os.path.exists(GATE):\n    time.sleep(0.01)")
    used = []
    real = RO.playout
    monkeypatch.setattr(RO, "playout", lambda *a: used.append(1) or real(*a))
    positions = [_position(seed) for seed in range(3)]
    python = _decisions(positions, compiled=False)
    assert _decisions(positions) == python        # compiled on, the compiler not done
    assert not used and W.warming[1].poll() is None   # one warm-up, still running
    first = W.warming[1]
    gate.touch()
    assert S.compiled_playout(wait=True) is not None
    assert W.warming[1] is first                  # started once
    assert _decisions(positions) == python and used


def test_a_failed_warm_up_leaves_the_python_rollouts(monkeypatch, tmp_path):
    S, W, _ = _gated(monkeypatch, tmp_path, "sys.exit(3)")
    assert S.compiled_playout(wait=True) is None
    st = _position(2)
    assert S.playout(st.copy(), 0, 5, st.round_no, 0.1) is None
    assert W.loaded is False                      # not tried again
    bot = make_bot("pimc", seed=1, iterations=8)
    bot.search(st, H.ranked(st, Rng(1))[:2])
    assert bot.last_iterations == 8
