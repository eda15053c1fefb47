"""A turn: playing (AB-5..AB-7), abluxxing (AB-8..AB-12), the optional draw (AB-15), the next
player (AB-16), explicit decisions (AB-21) and refused decisions."""

from __future__ import annotations

from itertools import product

import pytest

from abx_helpers import X, assert_refused, game, make_deal, run, snap, sort_cards, top
from cardtable import IllegalDecision

POOL = [1, 4, 6, 8, 10, 12]
DECK = [2, 3, 5, 7, 9, 11, 13]


def scenario(hands, variant="basic", players=None, start=0, pool=POOL, deck=DECK, seed=0,
             **kw):
    deal = make_deal(hands, pool=pool, deck=deck, players=players, **kw)
    s = game(variant, players or len(hands), seed=seed, start=start, deal=deal)
    s.check_invariants()
    return s


# -- AB-5: what may be played ----------------------------------------------------------------
def expected_plays(hand):
    nums = {c: hand.count(c) for c in set(hand) if c != X}
    j = hand.count(X)
    out = set()
    for v, n in nums.items():
        for k, jj in product(range(1, n + 1), range(0, j + 1)):
            out.add("play " + " ".join([str(v)] * k + ["X"] * jj))
    for jj in range(1, j + 1):
        out.add("play " + " ".join(["X"] * jj))
    return out


@pytest.mark.parametrize("hand", [
    [1, 1, 2, X, X, 5, 5, 5, 9, 9, 9, 9, 13],
    [7] * 8 + [X] * 5,
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    [X, X, X, 3, 3, 3, 4, 4, 4, 4, 6, 6, 6],
])
def test_legal_plays_are_all_sets_of_one_number_with_jokers(hand):  # AB-5
    s = scenario([hand], players=3, deck=[], avoid=())
    assert set(s.legal()) == expected_plays(hand)
    assert s.legal() == sorted(s.legal())
    assert [d.text for d in s.legal_decisions()] and \
        {d.text for d in s.legal_decisions()} == set(s.legal())


def test_play_token_order_does_not_matter():  # AB-5
    s = scenario([[1, 1, 2, X, X, 5, 5, 5, 9, 9, 9, 9, 13]], players=3)
    s.apply("play X 5 X 5")
    v = s.view(None)
    assert v["displays"][0] == [[5, 5, X, X]]
    assert v["hands"][0] == [1, 1, 2, 5, 9, 9, 9, 9, 13]


def test_jokers_alone_and_jokers_with_numbers():  # AB-5
    s = scenario([[X, X, 3, 3], [4, 4]], players=3)
    run(s, ["play X X", "pass"])
    assert s.view(None)["displays"][0] == [[X, X]]
    # jokers with numbers take the value of the numbers: 3 X is a pair of 3s, lower than 4 4
    s2 = scenario([[X, 3, 3], [4, 4, 4]], players=3)
    run(s2, ["play 3 3 X", "pass", "play 4 4 4"])
    assert s2.awaiting == "take" and s2.view(None)["pending"]["cards"] == [3, 3, X]


@pytest.mark.parametrize("text,words", [
    ("play 1 2", ["one number"]),         # two numbers in one set
    ("play 3", ["3"]),                    # a card not held
    ("play 1 1 1", ["1"]),                # more 1s than held
    ("play X X X", ["joker"]),            # more jokers than held
    ("play", ["which"]),
    ("play 14", ["card"]),
    ("play 0", ["card"]),
    ("take", ["play"]),
    ("leave", []),
    ("keep", []),
    ("discard", []),
    ("draw deck", []),
    ("draw pool 4", []),
    ("pass", []),
    ("shadow 3", []),
    ("frobnicate", ["unknown"]),
    ("", []),
])
def test_refused_plays_leave_state_unchanged(text, words):  # AB-5 AB-21
    s = scenario([[1, 1, 2, X, X, 5, 5, 5, 9, 9, 9, 9, 13]], players=3)
    assert_refused(s, text, *words)
    # the state still works
    s.apply("play 1")
    s.check_invariants()


# -- AB-6: layers ----------------------------------------------------------------------------
def test_played_sets_become_layers_only_top_exposed():  # AB-6
    s = scenario([[2, 2, 9], [12, 5, 5], [11]], players=3, avoid=(2, 5, 9, 11, 12))
    run(s, ["play 2 2", "pass", "play 12", "pass", "play 11", "pass", "play 9", "pass"])
    v = s.view(None)
    assert v["displays"][0] == [[2, 2], [9]]
    assert top(v, 0) == [9]
    # seat 1 plays 5 5: the 2 2 under seat 0's 9 is not exposed, so nothing is abluxxed
    s.apply("play 5 5")
    v = s.view(None)
    assert v["awaiting"] == "optional_draw" and v["pending"] is None
    assert v["displays"][0] == [[2, 2], [9]]
    assert v["displays"][1] == [[12], [5, 5]]


# -- AB-7: an empty hand ends the game at once -----------------------------------------------
def emptied_hand_game(variant="basic"):
    s = scenario([[2] * 7 + [9] * 6, [1] * 7, [13]], players=3, variant=variant,
                 avoid=(1, 2, 9, 13))
    steps = ["play 9 9 9 9 9 9", "play 1 1 1 1 1 1 1", "play 13"]
    for d in steps:
        s.apply(d)
        if s.awaiting == "optional_draw":
            s.apply("pass")
    return s


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert", "classic"])
def test_emptied_hand_ends_game_without_abluxxing(variant):  # AB-7 AB-17 CL-3
    s = emptied_hand_game(variant)
    assert top(s.view(None), 1) == [1] * 7
    s.apply("play 2 2 2 2 2 2 2")   # the last seven cards: they would abluxx seat 1's 1s
    s.check_invariants()
    v = s.view(None)
    assert s.over and v["over"] and s.ended_by == "hand"
    assert v["to_move"] is None and v["awaiting"] is None and v["legal"] == []
    assert v["pending"] is None
    assert v["displays"][1] == [[1] * 7]               # not abluxxed
    assert v["hands"][0] == []
    assert s.scores() == [13, 7 - 6, 1 - 12]          # AB-17: display +1, hand -1
    assert v["scores"] == s.scores() and s.winners() == [0]
    assert_refused(s, "play 13", "over")


# -- AB-8: whom to compare with --------------------------------------------------------------
def test_compare_clockwise_from_left_neighbour_skipping_empty_displays():  # AB-8 AB-10
    s = scenario([[], [3], [2], [13]], players=4, start=1, avoid=(13, 3, 2))
    run(s, ["play 3", "pass", "play 2", "pass"])
    s.apply("play 13")
    v = s.view(None)
    # seat 3's left neighbour is seat 0 (empty display: skipped), then seat 1, then seat 2
    assert v["pending"] == {"victim": 1, "cards": [3]}
    assert v["displays"][2] == [[2]]              # not yet compared
    run(s, ["leave", "keep"])
    assert s.view(None)["pending"] == {"victim": 2, "cards": [2]}
    run(s, ["leave", "keep"])
    v = s.view(None)
    assert v["active"] == 0 and v["awaiting"] == "play"
    assert v["displays"] == [[], [], [], [[13]]]


def test_compare_order_wraps_around():  # AB-8
    # seat 2 of 4 plays: the order is 3, 0, 1
    s = scenario([[3], [2], [12], [4]], players=4, start=3, avoid=(12, 4, 3, 2))
    run(s, ["play 4", "pass", "play 3", "pass", "play 2", "pass"])
    s.apply("play 12")
    order = []
    while s.awaiting == "take":
        order.append(s.view(None)["pending"]["victim"])
        run(s, ["leave", "keep"])
    assert order == [3, 0, 1]
    assert s.view(None)["active"] == 3


def test_abluxxing_needs_same_size_and_strictly_higher_value():  # AB-8 AB-9
    # tops: seat 1: 7 7 (higher), seat 2: 6 6 (equal), seat 3: 5 (lower, other size),
    # seat 4: 4 4 (lower, same size). Seat 0 plays 6 6: only seat 4 is abluxxed.
    s = scenario([[6, 6], [7, 7], [6, 6], [5], [4, 4]], players=5, start=1,
                 avoid=(4, 5, 6, 7))
    run(s, ["play 7 7", "pass", "play 6 6", "pass", "play 5", "pass", "play 4 4", "pass"])
    s.apply("play 6 6")
    v = s.view(None)
    assert v["pending"] == {"victim": 4, "cards": [4, 4]}
    run(s, ["leave", "keep"])
    v = s.view(None)
    assert v["displays"][1:4] == [[[7, 7]], [[6, 6]], [[5]]]
    assert v["active"] == 1 and v["awaiting"] == "play"


def test_abluxxing_is_not_optional():  # AB-8
    s = scenario([[3], [9]], players=3, avoid=(3, 9))
    run(s, ["play 3", "pass"])
    s.apply("play 9")
    assert s.awaiting == "take" and s.to_move == 1
    assert s.legal() == ["leave", "take"]          # no way to decline the abluxx
    assert_refused(s, "pass")
    assert_refused(s, "play 9")


def test_jokers_with_numbers_abluxx():  # AB-8 AB-5
    # "5 X" is a pair of 5s: it abluxxes 4 4
    s = scenario([[4, 4], [5, X]], players=3, avoid=(4, 5, X))
    run(s, ["play 4 4", "pass"])
    s.apply("play 5 X")
    assert s.view(None)["pending"] == {"victim": 0, "cards": [4, 4]}


def test_two_jokers_abluxx_two_13s():  # AB-8 AB-5
    s = scenario([[13, 13], [X, X]], players=3, avoid=(13, X))
    run(s, ["play 13 13", "pass"])
    s.apply("play X X")
    assert s.view(None)["pending"] == {"victim": 0, "cards": [13, 13]}


# -- AB-9: lone jokers and equal values ------------------------------------------------------
@pytest.mark.parametrize("variant", ["basic", "advanced"])
@pytest.mark.parametrize("answer", ["play X X", "play 13 13", "play 1 1", "play 13 X"])
def test_lone_jokers_are_never_abluxxed(variant, answer):  # AB-9
    s = scenario([[X, X, 2], [X, X, X, 13, 13, 1, 1]], players=3, variant=variant,
                 avoid=(X, 13, 1))
    s.apply("play X X")
    if s.awaiting == "optional_draw":
        s.apply("pass")
    s.apply(answer)
    v = s.view(None)
    assert v["pending"] is None and v["displays"][0] == [[X, X]]
    assert v["awaiting"] in ("optional_draw", "play")


def test_equal_value_is_not_abluxxed():  # AB-9
    s = scenario([[6, 6, X], [6, 6, 6]], players=3, avoid=(6, X))
    run(s, ["play 6 6 X", "pass"])
    s.apply("play 6 6 6")
    assert s.view(None)["pending"] is None and s.awaiting == "optional_draw"


# -- AB-10: once per opponent, fully resolved, with the set just played ----------------------
def test_newly_exposed_layer_not_checked_again_but_open_to_later_players():  # AB-10 AB-11
    s = scenario([[4, 4, 4, 5], [2, 3], [1, 1, 9]], players=3, start=1,
                 avoid=(1, 2, 3, 4, 5, 9))
    run(s, ["play 2", "pass", "play 1 1", "pass", "play 4 4 4", "pass", "play 3", "pass"])
    assert s.view(None)["displays"][1] == [[2], [3]]
    s.apply("play 9")                 # seat 2 abluxxes seat 1's 3 ...
    assert s.view(None)["pending"] == {"victim": 1, "cards": [3]}
    run(s, ["take", "draw deck"])
    v = s.view(None)
    # ... and the exposed 2 is not checked again this turn: the turn is over
    assert v["displays"][1] == [[2]]
    assert v["active"] == 0 and v["awaiting"] == "play"
    # seat 0 (a later player, before seat 1's next turn) abluxxes the exposed 2
    s.apply("play 5")
    v = s.view(None)
    assert v["pending"] == {"victim": 1, "cards": [2]}
    run(s, ["leave", "discard", "draw deck"])
    v = s.view(None)
    # seat 2's top is the single 9: not lower than 5
    assert v["displays"][2] == [[1, 1], [9]]
    assert v["active"] == 1 and v["displays"][1] == []


def test_comparison_uses_only_the_set_just_played():  # AB-10
    s = scenario([[9, 9, 2], [8, 8], [1]], players=3, avoid=(1, 2, 8, 9))
    run(s, ["play 9 9", "pass", "play 8 8", "pass", "play 1", "pass"])
    s.apply("play 2")   # 9 9 under the 2 does not abluxx seat 1's 8 8
    v = s.view(None)
    assert v["pending"] == {"victim": 2, "cards": [1]}
    run(s, ["take", "draw deck"])
    v = s.view(None)
    assert v["displays"][1] == [[8, 8]]
    assert v["active"] == 1


def test_each_abluxx_resolved_before_next_opponent():  # AB-10 AB-11 AB-12
    s = scenario([[2], [1], [10, 10]], players=3, start=0, avoid=(1, 2, 10))
    run(s, ["play 2", "pass", "play 1", "pass"])
    s.apply("play 10")
    assert s.view(None)["pending"] == {"victim": 0, "cards": [2]}
    s.apply("leave")
    s.apply("discard")
    v = s.view(None)
    # seat 0 draws its card before seat 1 is even compared
    assert v["to_move"] == 0 and v["awaiting"] == "draw" and v["owed"] == 1
    assert v["displays"][1] == [[1]] and v["discard"] == 1
    s.apply("draw pool 12")
    v = s.view(None)
    assert v["pending"] == {"victim": 1, "cards": [1]} and v["to_move"] == 2


# -- AB-11: take, leave, keep, discard -------------------------------------------------------
def abluxx_position(**kw):
    s = scenario([[3, 3, 3], [6, 6, 6]], players=3, avoid=(3, 6), **kw)
    run(s, ["play 3 3 3", "pass"])
    s.apply("play 6 6 6")
    return s


def test_abluxxed_layer_leaves_display_at_once():  # AB-11
    s = abluxx_position()
    v = s.view(None)
    assert v["displays"][0] == [] and v["pending"] == {"victim": 0, "cards": [3, 3, 3]}
    assert v["to_move"] == 1 and v["active"] == 1


def test_take_victim_draws_as_many():  # AB-11 AB-12
    s = abluxx_position()
    hand1 = s.view(None)["hands"][1]
    hand0 = s.view(None)["hands"][0]
    s.apply("take")
    v = s.view(None)
    assert v["hands"][1] == sort_cards(hand1 + [3, 3, 3])
    assert v["to_move"] == 0 and v["owed"] == 3 and v["awaiting"] == "draw"
    run(s, ["draw pool 1", "draw deck", "draw pool 12"])
    v = s.view(None)
    assert v["hands"][0] == sort_cards(hand0 + [1, 2, 12])
    assert v["pool"] == [[4], [6], [8], [10], [3], [5]]      # refilled in deck order
    assert v["discard"] == 0 and v["active"] == 2 and v["awaiting"] == "play"


def test_leave_keep_returns_cards_without_drawing():  # AB-11
    s = abluxx_position()
    hand0 = s.view(None)["hands"][0]
    s.apply("leave")
    v = s.view(None)
    assert v["to_move"] == 0 and v["awaiting"] == "keep" and v["legal"] == ["discard", "keep"]
    deck = v["deck"]
    s.apply("keep")
    v = s.view(None)
    assert v["hands"][0] == sort_cards(hand0 + [3, 3, 3])
    assert v["deck"] == deck and v["pool"] == [[c] for c in POOL] and v["discard"] == 0
    assert v["displays"][0] == []
    assert v["active"] == 2 and v["awaiting"] == "play"      # AB-15 does not apply


def test_leave_discard_draws_as_many():  # AB-11 AB-12
    s = abluxx_position()
    hand0 = s.view(None)["hands"][0]
    run(s, ["leave", "discard"])
    v = s.view(None)
    assert v["discard"] == 3 and v["owed"] == 3 and v["to_move"] == 0
    run(s, ["draw deck", "draw deck", "draw deck"])
    v = s.view(None)
    assert v["hands"][0] == sort_cards(hand0 + [2, 3, 5])
    assert v["pool"] == [[c] for c in POOL]
    assert v["active"] == 2
    s.check_invariants()


def test_victim_cannot_answer_for_attacker():  # AB-11 AB-21
    s = abluxx_position()
    assert_refused(s, "keep", "take")
    assert_refused(s, "discard")
    assert_refused(s, "draw deck")
    s.apply("leave")
    assert_refused(s, "take", "keep")
    assert_refused(s, "leave")


# -- AB-12: drawing --------------------------------------------------------------------------
def test_each_card_drawn_from_pool_or_deck_refill_after_all():  # AB-12
    s = abluxx_position()
    run(s, ["take"])
    v = s.view(None)
    assert set(v["legal"]) == {"draw deck"} | {f"draw pool {c}" for c in POOL}
    s.apply("draw pool 4")
    v = s.view(None)
    assert v["pool"] == [[1], [6], [8], [10], [12]] and v["owed"] == 2
    assert "draw pool 4" not in v["legal"]
    s.apply("draw pool 6")
    assert s.view(None)["pool"] == [[1], [8], [10], [12]]
    s.apply("draw pool 8")
    assert s.view(None)["pool"] == [[1], [10], [12], [2], [3], [5]]


def test_draw_of_missing_pool_card_refused():  # AB-12
    s = abluxx_position()
    s.apply("take")
    assert_refused(s, "draw pool 13", "pool")
    assert_refused(s, "draw pool 3+13")
    assert_refused(s, "pass")
    assert_refused(s, "play 3")


def test_equal_pool_cards_are_one_decision():  # AB-12
    s = scenario([[3], [6]], players=3, pool=[7, 7, 7, 1, 1, 2], avoid=(3, 6))
    run(s, ["play 3", "pass", "play 6", "take"])
    assert s.legal() == ["draw deck", "draw pool 1", "draw pool 2", "draw pool 7"]
    s.apply("draw pool 7")
    assert s.view(None)["pool"] == [[7], [7], [1], [1], [2], [2]]


# -- AB-15: the optional draw ----------------------------------------------------------------
@pytest.mark.parametrize("played", ["play 9", "play 9 9", "play 9 9 9 X"])
def test_optional_draw_one_card_whatever_the_size(played):  # AB-15
    s = scenario([[9, 9, 9, X]], players=3, avoid=(9, X))
    s.apply(played)
    v = s.view(None)
    assert v["awaiting"] == "optional_draw" and v["to_move"] == 0
    assert set(v["legal"]) == {"pass", "draw deck"} | {f"draw pool {c}" for c in POOL}
    hand = v["hands"][0]
    s.apply("draw pool 10")
    v = s.view(None)
    assert v["hands"][0] == sort_cards(hand + [10])
    assert v["pool"] == [[1], [4], [6], [8], [12], [2]]        # refilled
    assert v["active"] == 1 and v["awaiting"] == "play"       # exactly one card


def test_optional_draw_from_deck_or_pass():  # AB-15
    s = scenario([[9]], players=3, avoid=(9,))
    s.apply("play 9")
    hand = s.view(None)["hands"][0]
    t = s.copy()
    s.apply("draw deck")
    assert s.view(None)["hands"][0] == sort_cards(hand + [2])
    t.apply("pass")
    v = t.view(None)
    assert v["hands"][0] == hand and v["deck"] == s.view(None)["deck"] + 1
    assert v["active"] == 1


def test_no_optional_draw_after_an_abluxx_left_and_kept():  # AB-15
    s = abluxx_position()
    run(s, ["leave", "keep"])
    assert s.view(None)["active"] == 2 and s.awaiting == "play"


# -- AB-16: next player ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_turn_passes_to_left_neighbour(players):  # AB-16
    s = game("basic", players, seed=4, start=players - 1)
    order = []
    for _ in range(2 * players):
        order.append(s.view(None)["active"])
        # play the lowest-ranked single, answer everything with the first legal decision
        active = s.view(None)["active"]
        s.apply(s.legal_decisions()[0])
        while not s.over and s.view(None)["active"] == active:
            s.apply(s.legal_decisions()[0])
    assert order == [(players - 1 + i) % players for i in range(2 * players)]


# -- AB-21: every decision is waited for -----------------------------------------------------
def test_single_legal_decisions_are_waited_for():  # AB-21
    s = scenario([[3], [6]], players=3, pool=[7, 7, 7, 7, 7, 7], avoid=(3, 6, 7))
    run(s, ["play 3", "pass", "play 6", "take"])
    # only two different things to draw, but nothing is done automatically
    assert s.awaiting == "draw" and s.to_move == 0
    assert s.legal() == ["draw deck", "draw pool 7"]
    v = snap(s)
    assert snap(s) == v   # nothing happens by itself
    s.apply("draw pool 7")
    assert s.history == ["play 3", "pass", "play 6", "take", "draw pool 7"]

def test_record_holds_every_decision():  # AB-21
    s = abluxx_position()
    run(s, ["leave", "keep"])
    assert s.record()["actions"] == ["play 3 3 3", "pass", "play 6 6 6", "leave", "keep"]


def test_refused_decision_raises_illegal_decision_with_reason():  # AB-21
    s = abluxx_position()
    before = snap(s)
    with pytest.raises(IllegalDecision) as info:
        s.apply("play 6")
    assert info.value.reason and info.value.decision == "play 6"
    assert "take" in info.value.reason or "leave" in info.value.reason
    assert snap(s) == before
