"""Helpers for the Kombio scenario tests: fixed deals and snap windows."""

from __future__ import annotations

import pytest

from cardtable.core.errors import IllegalDecision
from cardtable.kombio import new_game


def deal_game(grids, deck=(), players=None, **kw):
    """A game whose first round has these grids (slots 1..4) and deck top (top card first)."""
    players = players or len(grids)
    return new_game(players=players, deal={"grids": [list(g) for g in grids], "deck": list(deck)},
                    **kw)


def play(state, *texts):
    """Apply decisions in order, checking the invariants after each."""
    for t in texts:
        state.apply(t)
        state.check_invariants()
    return state


def window(state, **answers):
    """Answer the open snap window: `window(s, s1="snap 0.3")` — seat 1 snaps 0.3, every other
    eligible seat passes. Returns the seats in the order they answered."""
    assert state.awaiting == "snap", state.awaiting
    order = []
    while state.awaiting == "snap" and state.to_move not in order:
        seat = state.to_move
        order.append(seat)
        play(state, answers.pop(f"s{seat}", "pass"))
    assert not answers, f"seats {sorted(answers)} did not get to answer (order {order})"
    return order


def refused(state, text, *words):
    """`text` is refused with a reason containing `words`, and the state is unchanged."""
    before = state.view(None)
    hist = state.history
    with pytest.raises(IllegalDecision) as e:
        state.apply(text)
    for w in words:
        assert w in e.value.reason, e.value.reason
    assert state.view(None) == before
    assert state.history == hist
    return e.value.reason


def grid(state, seat, viewer=None):
    return state.view(viewer)["grids"][seat]
