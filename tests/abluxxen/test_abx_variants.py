"""Advanced (AB-19), expert (AB-20) and the classic no-draw rule (CL-2)."""

from __future__ import annotations

import pytest

from abx_helpers import X, assert_refused, game, make_deal, run

POOL = [2, 3, 4, 5, 6, 7]
DECK = [8, 9, 10]


def two_sets(variant, victim_set, attacker_set, players=3):
    """Seat 0 lays `victim_set`, seat 1 answers with `attacker_set`."""
    victim = [X if t == "X" else int(t) for t in victim_set.split()]
    attacker = [X if t == "X" else int(t) for t in attacker_set.split()]
    deal = make_deal([victim, attacker], pool=POOL, deck=DECK, players=players,
                     avoid=(1, 12, 13, X))
    s = game(variant, players, seed=0, deal=deal)
    s.apply("play " + victim_set)
    if s.awaiting == "optional_draw":
        s.apply("pass")
    s.apply("play " + attacker_set)
    s.check_invariants()
    return s


def abluxxed(s):
    p = s.view(None)["pending"]
    return p is not None and p["victim"] == 0


# -- AB-19 / CL-2: no draw without an abluxx -------------------------------------------------
@pytest.mark.parametrize("variant", ["advanced", "expert", "classic"])
def test_no_draw_after_turn_without_abluxx(variant):  # AB-19 CL-2 AB-20
    s = two_sets(variant, "2", "2 2")
    v = s.view(None)
    assert v["pending"] is None
    assert v["awaiting"] == "play" and v["active"] == 2 and v["to_move"] == 2
    assert v["hands"][1] and len(v["hands"][1]) == 11
    assert_refused(s, "pass")
    assert_refused(s, "draw deck")
    assert_refused(s, "draw pool 2")


def test_basic_allows_the_draw_advanced_does_not():  # AB-19 AB-15
    basic = two_sets("basic", "2", "2 2")
    assert basic.awaiting == "optional_draw" and basic.to_move == 1
    adv = two_sets("advanced", "2", "2 2")
    assert adv.awaiting == "play" and adv.to_move == 2


@pytest.mark.parametrize("variant", ["advanced", "classic"])
def test_advanced_otherwise_like_basic(variant):  # AB-19 CL-2
    s = two_sets(variant, "3 3", "4 4")
    assert abluxxed(s)
    run(s, ["take", "draw deck", "draw pool 2"])
    v = s.view(None)
    assert v["active"] == 2 and v["awaiting"] == "play"
    assert v["pool"] == [[3], [4], [5], [6], [7], [9]]


# -- AB-20: expert -- 1s abluxx 13s and lone jokers ------------------------------------------
EXPERT_CASES = [
    # victim, attacker, abluxxed in expert
    ("13", "1", True),
    ("13 13", "1 1", True),
    ("X", "1", True),
    ("X X", "1 1", True),
    ("13 X", "1 1", True),        # interpretation: 13 X is a layer of value 13
    ("13 13", "1 X", True),       # interpretation: 1 X is a set of 1s
    ("X X", "1 X", True),
    ("13 13 X", "1 1 X", True),
    ("13", "1 1", False),         # other size
    ("13 13", "1", False),
    ("X X", "1", False),
    ("12", "1", False),           # only 13s and lone jokers
    ("12 12", "1 1", False),
    ("12 X", "1 X", False),
    ("1", "1", False),            # equal
    ("X X", "13 13", False),      # lone jokers: still only 1s beat them
    ("X", "X", False),
]


@pytest.mark.parametrize("victim,attacker,expected", EXPERT_CASES)
def test_expert_ones_beat_13s_and_lone_jokers(victim, attacker, expected):  # AB-20
    s = two_sets("expert", victim, attacker)
    assert abluxxed(s) is expected
    if expected:
        cards = sorted([X if t == "X" else int(t) for t in victim.split()],
                       key=lambda c: 14 if c == X else c)
        assert s.view(None)["pending"]["cards"] == cards
        assert s.view(None)["displays"][0] == []


@pytest.mark.parametrize("variant", ["basic", "advanced", "classic"])
@pytest.mark.parametrize("victim,attacker", [("13", "1"), ("X X", "1 1"), ("13 X", "1 X")])
def test_ones_rule_only_in_expert(variant, victim, attacker):  # AB-20 AB-9
    s = two_sets(variant, victim, attacker)
    assert not abluxxed(s)


@pytest.mark.parametrize("victim,attacker", [("1", "2"), ("1 1", "2 2"), ("1 1", "13 13"),
                                             ("1 X", "2 2"), ("1", "X")])
def test_expert_ones_still_abluxxed_by_higher(victim, attacker):  # AB-20
    s = two_sets("expert", victim, attacker)
    assert abluxxed(s)


def test_expert_is_advanced_plus_ones():  # AB-20 AB-19
    s = two_sets("expert", "5", "5 5")
    assert s.awaiting == "play" and s.to_move == 2     # no optional draw (as advanced)


def test_expert_ones_in_a_full_turn():  # AB-20 AB-10 AB-11
    # four players: seat 0 lays X X, seat 1 13 13, seat 2 9 9; seat 3 plays 1 1:
    # it abluxxes seat 0 and seat 1, not seat 2.
    deal = make_deal([[X, X], [13, 13], [9, 9], [1, 1]], pool=POOL, deck=DECK,
                     avoid=(1, 9, 13, X))
    s = game("expert", 4, seed=0, deal=deal)
    run(s, ["play X X", "play 13 13", "play 9 9", "play 1 1"])
    assert s.view(None)["pending"] == {"victim": 0, "cards": [X, X]}
    run(s, ["take", "draw deck", "draw deck"])
    assert s.view(None)["pending"] == {"victim": 1, "cards": [13, 13]}
    run(s, ["leave", "keep"])
    v = s.view(None)
    assert v["displays"] == [[], [], [[9, 9]], [[1, 1]]]
    assert v["hands"][3].count(X) == 2 and v["hands"][1].count(13) == 2
    assert v["active"] == 0
