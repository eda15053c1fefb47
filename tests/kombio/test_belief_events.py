"""The round's public events (`state.plog`) and the belief that reads them
(`kombio.heuristics.bounds`, `determinize(..., events=True)`, the search's `events` setting)."""

from __future__ import annotations

import pytest

from cardtable.bots import act, make_bot
from cardtable.kombio import heuristics as KH
from cardtable.kombio import new_game
from cardtable.kombio.cards import VALUE

from .helpers import deal_game, play, window


def test_a_kept_card_is_bounded_by_the_card_it_replaced_and_the_bound_follows_the_card():
    s = deal_game([[5, 6, 9, 2], [7, 8, 10, 3], [4, 4, 1, 1]], deck=[3, 4, 11, 0, 0, 0])
    assert KH.bounds(s) == {(p, i): KH.NONE for p in range(3) for i in (2, 3)}   # KO-2
    play(s, "draw", "replace 3")          # seat 0 keeps the 3 in place of its 9 (it saw the 9)
    window(s)
    b = KH.bounds(s)
    assert b[(0, 2)] == 8                 # lower than the 9 it replaced
    assert b[(0, 3)] == 9                 # its other seen card: no higher than the 9
    assert b[(1, 2)] == KH.NONE and (0, 0) not in b
    play(s, "draw", "discard")            # seat 1 throws away a drawn plain 4
    window(s)
    b = KH.bounds(s)
    assert b[(1, 2)] == b[(1, 3)] == 4    # so no card it knows is higher than 4
    assert b[(0, 2)] == 8                 # another seat's discard says nothing about seat 0
    play(s, "draw", "discard", "swap 0.3 1.1")   # seat 2 uses an 11 (KO-6): the cards move
    window(s)
    b = KH.bounds(s)
    assert b[(1, 0)] == 8 and (0, 2) not in b
    # the events are public: the bounds of any seat's determinization are the same
    for seat in range(3):
        assert KH.bounds(s.determinize(seat, seed=seat + 5)) == b


def _medium_states(players, seed):
    s = new_game(players=players, seed=seed)
    bots = [make_bot("medium", seed=seed * 10 + i) for i in range(players)]
    while not s.over:
        s.apply(act(bots[s.to_move], s))
        if not s.over:
            yield s


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_bounds_hold_in_games_of_the_heuristic_and_samples_keep_them(players):
    """Against players who play like the heuristic, the bounds hold for the true cards (but
    for a rare 7 kept in place of a card its owner never saw, bound 6: the heuristic does that
    when its unseen cards average above 6.3); a sample drawn with `events` keeps the bounds on
    the cards the seat has not seen (but where the deck holds no unseen card within one: 85 of
    20,022 at 6 players, none with fewer), is a valid state with the seat's view, and is a
    function of the view and the seed."""
    bounded = sampled = outside = 0
    missed = []
    for seed in range(2):
        for k, s in enumerate(_medium_states(players, seed)):
            b = KH.bounds(s)
            for (p, i), top in b.items():
                c = s.grids[p][i]
                assert c >= 0
                if top < KH.NONE:
                    bounded += 1
                    if VALUE[c] > top:
                        missed.append((top, VALUE[c]))
            if k % 5:
                continue
            seat = s.to_move
            d = KH.determinize(s, seat, 99, events=True)
            other = KH.determinize(s.determinize(seat, seed=k), seat, 99, events=True)
            assert d.grids == other.grids and d.deck == other.deck and d.known == other.known
            d.check_invariants()
            assert d.view(seat) == s.view(seat)
            seen = s.known[seat] | s.public
            for (p, i), top in b.items():
                if top < KH.NONE and not (seen >> s.grids[p][i]) & 1:
                    sampled += 1
                    outside += VALUE[d.grids[p][i]] > top
    assert bounded > 100 and sampled > 10
    assert set(missed) <= {(KH.BLIND_KEEP, 7)} and len(missed) <= bounded / 1000, missed
    assert outside <= sampled / 100     # the deck had no unseen card within the bound


def test_without_events_the_belief_is_unchanged_and_the_setting_turns_them_on():
    s = deal_game([[5, 6, 9, 2], [7, 8, 10, 3]], deck=[3, 4, 11, 0, 0, 0])
    play(s, "draw", "replace 3")
    window(s)
    a = KH.determinize(s, 1, 7)
    b = KH.determinize(s, 1, 7, events=False)
    assert a.grids == b.grids and a.deck == b.deck
    assert make_bot("pimc", events=True).settings("kombio")["events"] is True
    assert make_bot("expert", events=True).settings("kombio")["events"] is True
    # the levels do not read them (with them expert did not beat hard: docs/bots.md)
    assert make_bot("expert").settings("kombio")["events"] is False
    assert make_bot("hard").settings("kombio")["events"] is False
    for seed in range(40):                      # seat 0's kept card: never above the 9's bound
        assert VALUE[KH.determinize(s, 1, seed, events=True).grids[0][2]] <= 8


def test_trust_lets_a_share_of_samples_ignore_a_bound_and_one_keeps_them_all():
    """With `trust` below 1 each bound is kept in a sample with that chance (hard players and
    people break the heuristic's bounds: bench/kombio_bounds.py); `trust` 1 is `events` as it
    was, seed for seed. Either way a sample is a function of the view and the seed."""
    s = deal_game([[5, 6, 9, 2], [7, 8, 10, 3]], deck=[3, 4, 11, 0, 0, 0])
    play(s, "draw", "replace 3")
    window(s)
    seeds = range(300)

    def above(**kw):              # samples where seat 0's kept card breaks its bound (8)
        return sum(VALUE[KH.determinize(s, 1, seed, **kw).grids[0][2]] > 8 for seed in seeds)

    for seed in range(40):
        a = KH.determinize(s, 1, seed, events=True)
        b = KH.determinize(s, 1, seed, events=True, trust=1.0)
        assert a.grids == b.grids and a.deck == b.deck and a.known == b.known
    half = above(events=True, trust=0.5)
    loose = above(events=False)
    assert above(events=True) == 0
    assert 0 < half < loose       # some samples break it, fewer than with no bound at all
    c = KH.determinize(s, 1, 5, events=True, trust=0.5)
    d = KH.determinize(s.determinize(1, seed=3), 1, 5, events=True, trust=0.5)
    assert c.grids == d.grids and c.deck == d.deck
    c.check_invariants()
    assert c.view(1) == s.view(1)


def test_the_search_passes_trust_to_the_belief(monkeypatch):
    s = deal_game([[5, 6, 9, 2], [7, 8, 10, 3]], deck=[3, 4, 11, 0, 0, 0])
    play(s, "draw", "replace 3")
    window(s)
    seen = []
    real = KH.determinize

    def spy(state, seat, seed, **kw):
        seen.append(kw)
        return real(state, seat, seed, **kw)

    monkeypatch.setattr(KH, "determinize", spy)
    bot = make_bot("pimc", seed=1, iterations=8, events=True, trust=0.8)
    assert bot.settings("kombio")["trust"] == 0.8
    bot.search(s, s.legal_decisions()[:2])
    assert seen and all(kw == {"events": True, "trust": 0.8} for kw in seen)
    seen.clear()
    make_bot("pimc", seed=1, iterations=8, events=True).search(s, s.legal_decisions()[:2])
    assert seen and all(kw == {"events": True} for kw in seen)
    assert make_bot("expert").settings("kombio")["trust"] == 1.0
