"""The search's candidates (`kombio.heuristics.ranked`): the heuristic's choice first, then the
alternatives worth comparing with it, so that the `width` the search looks at (4) holds the
option that changes nothing, a Kombio call and the best moves, not the first legal ones."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardtable.bots import act, make_bot
from cardtable.core.rng import Rng
from cardtable.kombio import new_game
from cardtable.kombio.heuristics import candidates, heuristic, ranked

from .helpers import deal_game, play, window

WIDTH = 4          # the search's width in Kombio (heuristics.PIMC)
NULL = {"draw", "discard", "skip", "keep", "pass"}


def texts(state, seed=1):
    return [d.text for d in ranked(state, Rng(seed))]


def test_a_turn_compares_drawing_calling_and_taking_into_the_worst_slot():  # KO-5, KO-12
    # seat 0 throws away a 5; seat 1 (a 12 it has seen in slot 4) may take it, draw or call
    s = deal_game([[1, 2, 3, 4], [6, 7, 8, 12], [5, 5, 5, 5], [6, 6, 6, 6]], deck=[5, 9])
    play(s, "draw", "discard")
    window(s)
    assert s.to_move == 1 and s.awaiting == "turn"
    legal = {d.text for d in s.legal_decisions()}
    assert legal == {"draw", "take 1", "take 2", "take 3", "take 4", "kombio"}
    top = texts(s)[:WIDTH]
    assert top[0] == heuristic(s, Rng(1)).text
    assert {"draw", "kombio", "take 4"} <= set(top)          # the legal order never had kombio
    every = texts(s)
    assert every.index("take 4") < every.index("take 3") < every.index("take 1")  # 12, 8, unseen


def test_after_a_draw_replacing_is_compared_with_discarding():  # KO-5.1
    s = deal_game([[1, 2, 3, 11], [6, 7, 8, 12]], deck=[0])
    play(s, "draw")
    top = texts(s)[:WIDTH]
    assert top[0] == "replace 4"                               # the heuristic keeps the 0
    assert top[1] == "discard"                                 # the legal order had replace 1-3


def test_a_swap_action_compares_skipping_and_the_swaps_that_gain_most():  # KO-6
    # seat 0 knows its 12 in slot 4 and has looked at seat 1's 0 in slot 3 (it took it)
    s = deal_game([[1, 2, 3, 12], [6, 7, 0, 9]], deck=[11, 4])
    play(s, "draw", "discard")
    assert s.awaiting == "action"
    top = texts(s)
    assert top[0] == heuristic(s, Rng(1)).text
    assert "skip" in top[:2] or top[0] == "skip"
    swaps = [t for t in top if t.startswith("swap") and "0.4" in t]
    assert swaps and top.index(swaps[0]) < WIDTH               # the known 12 is swapped first


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), steps=st.integers(0, 120))
@example(seed=540, players=2, steps=2)       # the heuristic peeks a card `candidates` prunes
def test_ranked_orders_the_candidates_and_starts_from_the_heuristic(seed, players, steps):
    """In games of medium bots: `ranked` is the heuristic's choice, then the other candidates
    in a new order; the option that changes nothing comes right after it, a Kombio call no later
    than third, so the search's width always holds both; it reads only the seat's view (the
    same ranking in two determinizations for that seat)."""
    g = new_game(players=players, seed=seed)
    bots = [make_bot("medium", seed=seed + i) for i in range(players)]
    for _ in range(steps):
        if g.over:
            return
        g.apply(act(bots[g.to_move], g))
    if g.over:
        return
    obs = g.determinize(g.to_move, seed=seed)
    got = texts(obs, seed)
    cands = [d.text for d in candidates(obs)]
    assert len(set(got)) == len(got)
    if len(cands) == 1:
        assert got == cands
        return
    # the heuristic's choice first (it may be a decision the pruning of `candidates` leaves
    # out, e.g. a peek at another player's card), then every other candidate
    first = heuristic(obs, Rng(seed)).text
    assert got[0] == first and sorted(got[1:]) == sorted(c for c in cands if c != first)
    rest = got[1:]
    null = [t for t in rest if t in NULL]
    if null:
        assert rest[0] in NULL
    if "kombio" in rest:
        assert got.index("kombio") <= 2
    assert texts(g.determinize(g.to_move, seed=seed + 1), seed) == got
