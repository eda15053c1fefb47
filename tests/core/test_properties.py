"""Generic property test: thousands of seeded random play-outs of every game, rule set and
player count through the public protocol (cardtable.core.checks.playout). `make test` plays a
sample of each configuration's games (tests/sizes.py), `make test-full` all of them."""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.core.checks import Stats, playout
from sizes import sample

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


#: every rule set: the variants at each player count, and the duel's whole-stack reading of
#: DU-4 (the option shadow_partial off; on is the duel's default)
ABLUXXEN = [("basic", n, None) for n in (3, 4, 5)] + [("advanced", n, None) for n in (3, 4, 5)] + \
    [("expert", n, None) for n in (3, 4, 5)] + [("duel", 2, None)] + \
    [("duel", 2, {"shadow_partial": False})] + [("classic", n, None) for n in (2, 3, 4, 5)]

GAMES_PER_CONFIG = sample(160, 24)  # 15 configurations -> 2400 games (360 in `make test`)


@pytest.mark.parametrize("variant,players,options", ABLUXXEN)
def test_abluxxen_random_playouts(variant, players, options):  # AB-1..AB-21, DU-1..DU-7, CL-1..CL-4
    stats = Stats()
    seen: set[str] = set()
    base = 1000 * players + len(variant) + (500 if options else 0)

    def make(seed):
        return new_game("abluxxen", variant=variant, players=players, seed=seed,
                        start=seed % players, options=options)

    for g in range(GAMES_PER_CONFIG):
        playout(make, base + g, stats=stats, no_leak=abluxxen_no_leak,
                check_result=abluxxen_result, seen_texts=seen)
    assert stats.games == GAMES_PER_CONFIG
    assert stats.refusals > 100
    assert stats.window_answers == 0                 # no simultaneous decisions in Abluxxen
    # the determinizations really re-dealt hidden cards (else the view check proves nothing)
    assert stats.hidden_changed > 0.5 * stats.determinizations


# -- Kombio hooks ----------------------------------------------------------------------------


def kombio_no_leak(state, view, seat):
    full = state.view(None)
    for p, grid in enumerate(view["grids"]):
        assert len(grid) == len(full["grids"][p])
        for i, value in enumerate(grid):
            truth = full["grids"][p][i]
            if truth is None:
                assert value is None
            elif value != "?":
                # a value is shown only when the seat has seen that card (KO-2, KO-6, KO-11)
                assert value == truth and state.card_seen(seat, p, i + 1) == truth
            else:
                assert state.card_seen(seat, p, i + 1) is None
    if full["round"] and state.to_move == full["round_start"] and full["awaiting"] == "turn" \
            and full["deck"] + full["discard"] == 70 - 4 * state.players and full["discard"] == 0:
        # first decision of a round: a seat knows exactly its own slots 3 and 4 (KO-2)
        shown = {(p, i + 1) for p, g in enumerate(view["grids"]) for i, v in enumerate(g)
                 if v not in ("?", None)}
        assert shown == {(seat, 3), (seat, 4)}
    if seat != full["to_move"]:
        assert view["legal"] == []
    if full["drawn"] is not None and seat != full["to_move"]:
        assert view["drawn"] is None
    assert isinstance(view["deck"], int)


def kombio_round_scores(sums, counts, caller):  # KO-15
    n = len(sums)
    if caller is None:
        return list(sums)
    if all(sums[caller] < sums[s] for s in range(n) if s != caller):
        return [sums[s] if s == caller or counts[s] == 0 else sums[s] + 10 for s in range(n)]
    return [sums[s] + 15 if s == caller else sums[s] for s in range(n)]


def kombio_result(state):  # KO-15, KO-16
    v = state.view(None)
    n = state.players
    totals = [sum(r[s] for r in v["round_scores"]) for s in range(n)]
    assert v["totals"] == totals
    assert max(totals) >= v["target"]
    assert all(max(sum(r[s] for r in v["round_scores"][:k]) for s in range(n)) < v["target"]
               for k in range(1, len(v["round_scores"])))  # earlier rounds did not end it
    sums = [sum(x for x in g if x is not None) for g in v["grids"]]
    counts = [sum(x is not None for x in g) for g in v["grids"]]
    assert v["round_scores"][-1] == kombio_round_scores(sums, counts, v["caller"])
    low = min(totals)
    tied = [s for s in range(n) if totals[s] == low]
    last = v["round_scores"][-1]
    best_last = min(last[s] for s in tied)
    assert v["winners"] == [s for s in tied if last[s] == best_last]


KOMBIO = [(n, target) for n in range(2, 7) for target in (40, 100)]


@pytest.mark.parametrize("players,target", KOMBIO)
def test_kombio_random_playouts(players, target):  # KO-1..KO-16
    stats = Stats()
    seen: set[str] = set()

    def make(seed):
        return new_game("kombio", players=players, seed=seed, start=seed % players,
                        target=target)

    games = sample(250, 24)  # 10 configurations -> 2500 games (240 in `make test`)
    for g in range(games):
        playout(make, 7000 * players + target + g, stats=stats, no_leak=kombio_no_leak,
                check_result=kombio_result, seen_texts=seen)
    assert stats.games == games and stats.refusals > 100
    # the snap windows were checked as windows (core/checks.py: check_window)
    assert stats.window_answers > stats.games
    assert stats.hidden_changed > 0.5 * stats.determinizations
