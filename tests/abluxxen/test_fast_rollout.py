"""The policy-rollout search's compiled Abluxxen rollouts (abluxxen/batch/rollout.py) against
the engine: a determinization loaded into a simulator row and stepped with the engine's
decisions stays the engine's state step for step; the compiled features are the engine's
`features`, float for float; a compiled rollout scores what the Python rollout (bots/pimc.py
`_roll`) scores, to the last bit, with the turn cap and without, with the learned evaluation
(both families: the duel and the rest) and with `evaluate`; and the searches (hard, expert)
decide with them as with Python rollouts. Positions are from seeded games of the heuristic in
every variant at 2-5 players: a few dozen in `make test`, more in `make test-full`
(tests/sizes.py)."""

from __future__ import annotations

import functools
import random
import sys

import numpy as np
import pytest
from sizes import sample

from cardtable import new_game
from cardtable.abluxxen import heuristics as H
from cardtable.abluxxen.batch import rollout as RO
from cardtable.abluxxen.batch import rules as L
from cardtable.abluxxen.codec import AbluxxenCodec
from cardtable.bots import make_bot
from cardtable.bots.pimc import _roll
from cardtable.bots.value import ValueNet, load, value_fn
from cardtable.core.rng import Rng

POSITIONS = sample(150, 30)
#: the learned evaluation's networks as the search hands them to the playout
NETS = functools.partial(load, "abluxxen")
VARIANTS = ("basic", "advanced", "expert", "duel", "classic")


@pytest.fixture(autouse=True, scope="module")
def _compiled_ready():
    """The compiled playout loaded in this process (its warm-up waited for)."""
    assert H.compiled_playout(wait=True) is not None


def _position(seed: int):
    """A state of a seeded heuristic game (variant and players by the seed), some decisions in
    (not over)."""
    variant = VARIANTS[seed % 5]
    n = 2 if variant == "duel" else (2 if variant == "classic" else 3) + seed // 5 % 3
    st = new_game("abluxxen", variant=variant, players=n, seed=seed)
    rng = Rng(seed)
    for _ in range(random.Random(seed).randrange(0, 150)):
        if st.over:
            return _position(seed + 1000)
        st.apply(H.heuristic(st, rng))
    return st if not st.over else _position(seed + 1000)


def _row(st):
    g = np.zeros(L.ROW, np.int16)
    assert RO.load(st, g)
    return g


def _state_of(g):
    """The row without what is not state: the seat that moved last, the cards past the deck's
    size, the pool items' lengths and the displays' layers, the pending layer once it is gone."""
    g = g.copy()
    g[L.LAST] = -1
    g[L.DECK + g[L.DECK_N]:L.DECK + 109] = 0
    for i in range(6):
        ln = g[L.POOL_LEN + i] if i < g[L.POOL_N] else 0
        g[L.POOL + i * L.ITEM + ln:L.POOL + (i + 1) * L.ITEM] = 0
    for s in range(L.SEATS):
        g[L.LAYERS + s * L.MAXL + g[L.DN + s]:L.LAYERS + (s + 1) * L.MAXL] = 0
    if g[L.PV] < 0:
        g[L.PCODE] = 0
    return g


def test_a_loaded_determinization_steps_as_the_engine():
    kinds = set()
    for seed in range(POSITIONS):
        st = _position(seed)
        d = st.determinize(st.to_move, seed * 7 + 1)
        codec = AbluxxenCodec(d.players)
        R = RO.rules_of(d)
        g = _row(d)
        pick = random.Random(seed)
        rng = Rng(seed)
        for step in range(60):
            if d.over:
                break
            legal = codec.legal(d, d.view(d.to_move))
            if pick.random() < 0.3:
                a = pick.choice(sorted(legal))
            else:
                text = H.heuristic(d, rng).text
                a = next(k for k, v in legal.items() if v.text == text)
            kinds.add(legal[a].kind)
            d.apply(legal[a])
            L.apply(g, R, a)
            assert np.array_equal(_state_of(g), _state_of(_row(d))), (seed, step, legal[a].text)
    assert {"play", "take", "leave", "keep", "discard", "draw", "shadow"} <= kinds


def test_the_compiled_features_are_the_engines():
    for seed in range(POSITIONS):
        st = _position(seed)
        for d in (st, st.determinize(st.to_move, seed)):
            out = np.zeros((d.players, RO.FEATURES))
            RO.features(_row(d), RO.rules_of(d), out)
            assert out.tolist() == H.features(d), seed


def _both(d, seat, s, stop, learned, sw=0.1):
    """(compiled, Python) rollouts of the same sample."""
    fast = H.playout(d.copy(), seat, s, None, sw, stop, NETS if learned else None)
    evaluate = value_fn("abluxxen") if learned else H.evaluate
    slow = _roll(d.copy(), seat, s, H.heuristic, evaluate, H.turn_key, None, None, stop, sw)
    return fast, slow


def test_compiled_rollouts_score_as_the_python_rollouts():
    finished = stopped = 0
    families = set()
    for seed in range(POSITIONS):
        st = _position(seed)
        seat = st.to_move
        n = st.players
        pick = random.Random(seed)
        for _ in range(2):
            s = pick.getrandbits(62)
            base = st.determinize(seat, s)
            for m in base.legal_decisions()[:3]:
                d = base.copy()
                d.apply(m)
                for stop, learned in ((n, True), (3 * n, True), (n, False), (None, False)):
                    fast, slow = _both(d, seat, s, stop, learned)
                    assert fast == slow, (seed, m.text, stop, learned)
                    done = d.copy()
                    _roll(done, seat, s, H.heuristic, H.evaluate, H.turn_key, None, None,
                          stop, 0.1)
                    finished += done.over
                    stopped += not done.over
                    if learned and not done.over:
                        families.add(H.value_family(d))
    assert finished and stopped         # some rollouts end the game (outcome), others evaluate
    assert families == {"abluxxen-duel", "abluxxen-multi"}


def test_the_outcome_of_a_finished_game_with_every_score_weight():
    for seed in range(sample(40, 10)):
        st = _position(seed)
        d = st.determinize(st.to_move, seed)
        for sw in (0.0, 0.1, 1.0):
            fast, slow = _both(d, st.to_move, seed, None, False, sw)
            assert fast == slow, (seed, sw)


def _searches(positions, level, **kw):
    out = []
    for st in positions:
        bot = make_bot(level, seed=3, **kw)
        cands = H.ranked(st, Rng(1))[:bot.settings("abluxxen")["width"]]
        if len(cands) > 1:
            out.append((bot.search(st, cands), bot.best.text))
    return out


@pytest.mark.parametrize("level,iterations", [("hard", 24), ("expert", 48)])
def test_the_search_decides_with_compiled_rollouts_as_with_python_ones(monkeypatch, level,
                                                                       iterations):
    positions = [_position(seed) for seed in range(sample(15, 5))]
    calls = []
    real = RO.playout
    monkeypatch.setattr(RO, "playout",
                        lambda *a: calls.append((a[0].players, *a[5:])) or real(*a))
    from cardtable.abluxxen.batch import COMPILED

    monkeypatch.setattr(COMPILED, "loaded", RO.playout)
    fast = _searches(positions, level, iterations=iterations)
    # compiled on by default, told the cap (circles 1: a turn of every player) and handed the
    # learned evaluation's networks
    assert fast and calls and all(stop == n and nets("abluxxen-multi") is load(
        "abluxxen", "abluxxen-multi") for n, stop, nets in calls)
    calls.clear()
    assert _searches(positions, level, iterations=iterations, compiled=False) == fast
    assert not calls                                 # off: Python rollouts alone
    assert _searches(positions, level, iterations=iterations, learned=False)
    assert calls and all(nets is None for _, _, nets in calls)
    monkeypatch.setattr(H, "playout", None)          # no hook: the same decisions in Python
    assert _searches(positions, level, iterations=iterations) == fast


def test_learned_and_hand_made_evaluations_decide_alike_compiled_or_not():
    positions = [_position(seed) for seed in range(sample(10, 3))]
    for kw in ({"learned": False}, {"circles": 2}, {"score_weight": 0.5}):
        assert _searches(positions, "hard", iterations=16, **kw) == \
            _searches(positions, "hard", iterations=16, compiled=False, **kw), kw


def test_states_the_simulator_cannot_hold_are_played_in_python():
    from dataclasses import replace

    from cardtable.abluxxen.rules import VARIANTS
    from cardtable.abluxxen.state import AbluxxenState

    six = AbluxxenState(6, "basic", replace(VARIANTS["basic"], max_players=6), 4, 0, None)
    assert H.playout(six.copy(), 0, 5, None, 0.1, 6, NETS) is None      # rows hold 5 seats
    bot = make_bot("pimc", seed=1, iterations=8)
    bot.search(six, H.ranked(six, Rng(1))[:2])           # falls back to the Python rollout
    assert bot.last_iterations == 8
    st = _position(3)
    other = ValueNet({"mean": [0.0] * 3, "std": [1.0] * 3, "w1": [[0.0] * 4] * 3,
                      "b1": [0.0] * 4, "w2": [0.0] * 4})
    assert H.playout(st.copy(), 0, 5, None, 0.1, 4, lambda family: other) is None  # other inputs
    assert H.playout(st.copy(), 0, 5, None, 0.1, 4, None) is not None
    assert H.playout(st.copy(), 0, 5, None, 0.1, 4, NETS) is not None


def test_without_the_simulator_installed_the_search_rolls_out_in_python(monkeypatch):
    from cardtable.abluxxen.batch import COMPILED

    monkeypatch.setattr(COMPILED, "loaded", None)
    monkeypatch.setitem(sys.modules, "cardtable.abluxxen.batch.rollout", None)   # not importable
    st = _position(2)
    assert H.compiled_playout(wait=True) is None
    assert H.playout(st.copy(), 0, 5, None, 0.1, 4, NETS) is None
    bot = make_bot("pimc", seed=1, iterations=8)
    bot.search(st, H.ranked(st, Rng(1))[:2])
    assert bot.last_iterations == 8
