"""Generic property test: thousands of seeded random play-outs of every game, rule set and
player count through the public protocol (cardtable.core.checks.playout)."""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.core.checks import Stats, playout

# -- Abluxxen hooks --------------------------------------------------------------------------


def abluxxen_no_leak(state, view, seat):
    # other hands are counts only; the deck is a count; legal only for the seat to move
    for s, h in enumerate(view["hands"]):
        if s == seat:
            assert isinstance(h, list) and len(h) == state.sizes[s]
        else:
            assert isinstance(h, int) and not isinstance(h, bool)
    assert isinstance(view["deck"], int) and isinstance(view["discard"], int)
    if state.to_move != seat:
        assert view["legal"] == []


def abluxxen_result(state):  # AB-17, AB-18, CL-4
    v = state.view(None)
    scores = [sum(len(layer) for layer in v["displays"][s]) - len(v["hands"][s])
              for s in range(state.players)]
    assert v["scores"] == scores
    best = max(scores)
    tied = [s for s in range(state.players) if scores[s] == best]
    if state.rules.tiebreak_fewer_hand:
        fewest = min(len(v["hands"][s]) for s in tied)
        tied = [s for s in tied if len(v["hands"][s]) == fewest]
    assert v["winners"] == tied
    # AB-7 / AB-14: the game ended because a hand is empty or deck and pool are used up
    assert any(len(h) == 0 for h in v["hands"]) or (v["deck"] == 0 and v["pool"] == [])


ABLUXXEN = [("basic", n) for n in (3, 4, 5)] + [("advanced", n) for n in (3, 4, 5)] + \
    [("expert", n) for n in (3, 4, 5)] + [("duel", 2)] + [("classic", n) for n in (2, 3, 4, 5)]

GAMES_PER_CONFIG = 160  # 14 configurations -> 2240 games


@pytest.mark.parametrize("variant,players", ABLUXXEN)
def test_abluxxen_random_playouts(variant, players):  # AB-1..AB-21, DU-1..DU-7, CL-1..CL-4
    stats = Stats()
    seen: set[str] = set()
    base = 1000 * players + len(variant)

    def make(seed):
        return new_game("abluxxen", variant=variant, players=players, seed=seed,
                        start=seed % players)

    for g in range(GAMES_PER_CONFIG):
        playout(make, base + g, stats=stats, no_leak=abluxxen_no_leak,
                check_result=abluxxen_result, seen_texts=seen)
    assert stats.games == GAMES_PER_CONFIG
    assert stats.refusals > 100
    # the determinizations really re-dealt hidden cards (else the view check proves nothing)
    assert stats.hidden_changed > 0.5 * stats.determinizations
