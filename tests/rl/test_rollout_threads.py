"""The compiled rollouts of both games' searches (abluxxen/batch/rollout.py,
kombio/batch/rollout.py) from several threads at once, as the server's searches run (threads of
their own): every thread has its own rows (rl/batch/warm.py `PerThread`), so each rollout scores
what it scores alone; and a rollout past the guard's `LIMIT` of decisions is answered None, so
the search plays it in Python rather than the compiled loop running on without end."""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
import threading

import pytest

from cardtable import new_game
from cardtable.bots import make_bot
from cardtable.core.rng import Rng
from cardtable.rl.batch.warm import PerThread


def _abluxxen():
    from cardtable.abluxxen import heuristics as H
    from cardtable.abluxxen.batch import rollout as RO

    def position(seed):
        st = new_game("abluxxen", variant="basic", players=3 + seed % 3, seed=seed)
        rng = Rng(seed)
        for _ in range(random.Random(seed).randrange(0, 60)):
            st.apply(H.heuristic(st, rng))
        return st
    return H, RO, H.compiled_playout, position, \
        lambda st, s: RO.playout(st, 0, s, None, 0.1, None, None)


def _kombio():
    from cardtable.kombio import heuristics as H
    from cardtable.kombio.batch import rollout as RO
    from cardtable.kombio.heuristics import search as S

    def position(seed):
        st = new_game("kombio", players=2 + seed % 4, seed=seed)
        rng = Rng(seed)
        for _ in range(random.Random(seed).randrange(3, 40)):
            st.apply(H.heuristic(st, rng))
        return st
    return H, RO, S.compiled_playout, position, \
        lambda st, s: RO.playout(st, 0, s, st.round_no, 0.1)


#: a hang guard, not a time budget
GUARD = 600

GAMES = {"abluxxen": _abluxxen, "kombio": _kombio}


@pytest.fixture(params=sorted(GAMES))
def game(request):
    H, RO, ready, position, roll = GAMES[request.param]()
    assert ready(wait=True) is not None
    positions = [st for st in (position(seed) for seed in range(12)) if not st.over]
    return request.param, H, RO, positions, roll


def _threads_score_as_alone(positions, roll) -> bool:
    """4 threads, each rolling out from every position 30 times: every answer as alone?"""
    alone = [roll(st.copy(), 7 + i) for i, st in enumerate(positions)]
    got: list[list] = [[] for _ in range(4)]

    def work(k: int) -> None:
        for _ in range(30):
            got[k].append([roll(st.copy(), 7 + i) for i, st in enumerate(positions)])

    sys.setswitchinterval(1e-5)          # switch threads often: mid-load, if rows were shared
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return None not in alone and all(rep == alone for k in range(4) for rep in got[k])


def test_rollouts_in_several_threads_score_as_alone(game):
    """In a forked child (rows shared between threads have hung the compiled loop, which
    holds the interpreter's lock: only another process can see that): exit 0 if every
    thread's rollouts scored as alone."""
    _, _, _, positions, roll = game
    child = multiprocessing.get_context("fork").Process(
        target=lambda: os._exit(0 if _threads_score_as_alone(positions, roll) else 1))
    child.start()
    child.join(GUARD)
    if child.exitcode is None:
        child.kill()
        child.join()
        pytest.fail(f"the threads' rollouts still running after {GUARD} s: hung")
    assert child.exitcode == 0, "a thread's rollout scored otherwise than alone"


def test_a_rollout_past_the_limit_is_played_in_python(game, monkeypatch):
    name, H, RO, positions, roll = game
    st = positions[0]
    assert roll(st.copy(), 7) is not None
    monkeypatch.setattr(RO, "LIMIT", 1)
    assert roll(st.copy(), 7) is None

    def searches(**kw):
        out = []
        for p in positions[:3]:
            bot = make_bot("pimc", seed=3, iterations=12, **kw)
            out.append((bot.search(p, H.ranked(p, Rng(1))[:4]), bot.best.text))
        return out
    answers = []
    real = H.playout
    monkeypatch.setattr(H, "playout", lambda *a: answers.append(real(*a)) or answers[-1])
    # the search rolls those out in Python: the decisions of a search without the simulator
    assert searches() == searches(compiled=False), name
    assert answers and all(a is None for a in answers)


def test_per_thread_makes_one_object_per_thread_and_key():
    made = []
    rows = PerThread(lambda *key: made.append(key) or object())
    a, b = rows(3), rows(3)
    assert a is b and rows(4) is not a
    other = []
    t = threading.Thread(target=lambda: other.append(rows(3)))
    t.start()
    t.join()
    assert other[0] is not a and made == [(3,), (4,), (3,)]
