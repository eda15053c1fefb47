"""The duel (DU-1..DU-7): set-up with jokers and the shadow display, pool groups,
shadowluxxing."""

from __future__ import annotations

from collections import Counter

import pytest

from abx_helpers import (X, assert_refused, finish_randomly, game, make_deal, only_fives_twice,
                         run, sort_cards)
from cardtable.abluxxen.setup import place_on_pool
from cardtable.core.errors import ConfigError

HAND0 = [X, X, 7, 7, 3, 3, 2, 2, 9, 9, 9, 11, 12]
HAND1 = [X, X, 1, 8, 8, 10, 10, 11, 12, 4, 6, 6, 9]
SHADOW = [1, 1, 2, 3, 3, 4, 5, 5, 5, 6, 8, 10, 11]
POOL = [12, 3, 8, 3, 10, 2]
DECK = [13, 4, X, 6, 13, 11, 12, 10, 9]


def duel(options=None, hands=(HAND0, HAND1), shadow=SHADOW, pool=POOL, deck=DECK, seed=0):
    deal = {"hands": [list(h) for h in hands], "shadow": list(shadow), "pool": list(pool),
            "deck": list(deck)}
    s = game("duel", 2, seed=seed, deal=deal, options=options)
    s.check_invariants()
    return s


def stacks(view):
    return {stack[0]: len(stack) for stack in view["shadow"]}


def rank(c):
    return 14 if c == X else c


# -- DU-1: set-up ----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_duel_setup(seed):  # DU-1 AB-3
    s = game("duel", 2, seed=seed)
    s.check_invariants()
    v = s.view(None)
    assert [len(h) for h in v["hands"]] == [13, 13]
    assert all(h.count(X) >= 2 for h in v["hands"])            # two jokers each first
    assert len(v["pool"]) == 6
    shadow = [c for stack in v["shadow"] for c in stack]
    assert len(shadow) == 13 and not any(c in (13, X) for c in shadow)
    # the shadow is a set of stacks, one per number
    assert all(len(set(stack)) == 1 for stack in v["shadow"])
    assert len({stack[0] for stack in v["shadow"]}) == len(v["shadow"])
    in_pool = sum(len(item) for item in v["pool"])
    assert v["deck"] == 109 - 26 - in_pool - 13
    assert v["displays"] == [[], []] and v["discard"] == 0


def test_duel_partial_hands_get_their_jokers_first():  # DU-1
    s = game("duel", 2, seed=3, deal={"hands": [[1, 2, 3], []]})
    v = s.view(None)
    assert v["hands"][0].count(X) >= 2 and all(c in v["hands"][0] for c in (1, 2, 3))
    assert v["hands"][1].count(X) >= 2
    assert len(v["hands"][0]) == 13


def check_setup_groups(pool):
    """DU-2 at set-up: the m cards turned up as 13/joker lie on the m lowest single cards."""
    tops = 0
    for item in pool:
        assert all(c in (13, X) for c in item[1:])
        tops += len(item) - 1
    if tops <= len(pool):
        groups = {i for i, item in enumerate(pool) if len(item) > 1}
        assert all(len(pool[i]) == 2 for i in groups)
        lowest = sorted(range(len(pool)), key=lambda i: (rank(pool[i][0]), i))[:tops]
        assert groups == set(lowest)
    return tops


def test_duel_setup_pool_laid_first_and_groups_on_lowest_singles():  # DU-1 DU-2
    seen = Counter()
    for seed in range(40):
        v = game("duel", 2, seed=seed).view(None)
        seen[min(check_setup_groups(v["pool"]), 2)] += 1
    # the rule was really exercised: games with no, one and several groups
    assert seen[0] and seen[1] and seen[2]


def test_duel_partial_shadow_filled_following_du2():  # DU-2 DU-1
    for seed in range(10):
        s = game("duel", 2, seed=seed, deal={"shadow": [1, 2, 3]})
        v = s.view(None)
        st = stacks(v)
        assert sum(st.values()) == 13 and st[1] >= 1 and st[2] >= 1 and st[3] >= 1
        check_setup_groups(v["pool"])
        s.check_invariants()


def test_duel_given_groups():  # DU-2 DU-3
    s = duel(hands=(HAND1, HAND0), pool=[[3, 13, X], 8, 8, 10, 10, 12], deck=[4, 6])
    v = s.view(None)
    assert v["pool"][0] == [3, 13, X]
    s.apply("play 1")                     # no stack below 1: no abluxx at all
    assert s.awaiting == "optional_draw"
    assert "draw pool 3+13+X" in s.legal()
    hand = v["hands"][0]
    s.apply("draw pool 3+13+X")
    v = s.view(None)
    assert Counter(v["hands"][0]) - Counter(hand) >= Counter([3, 13, X])
    assert len(v["pool"]) == 6


# -- DU-4: shadowluxxing ---------------------------------------------------------------------
WHOLE = {"shadow_partial": False}      # the former reading: a stack is taken whole


def test_shadow_options_any_set_of_a_lower_number():  # DU-4
    s = duel()
    assert stacks(s.view(None)) == {1: 2, 2: 1, 3: 2, 4: 1, 5: 3, 6: 1, 8: 1, 10: 1, 11: 1}
    s.apply("play 7 7")
    v = s.view(None)
    # every lower number lying at least twice: the two 1s, the two 3s and two of the three 5s
    assert v["awaiting"] == "shadow" and v["to_move"] == 0
    assert v["legal"] == ["shadow 1", "shadow 3", "shadow 5"]


@pytest.mark.parametrize("lang,words", [("en", "now seat 1 shadowluxxes"),
                                        ("de", "jetzt schattenluxxt Platz 1")])
def test_a_wrong_decision_in_the_shadow_step_names_this_turns_choices(lang, words):  # DU-4
    """Not a fixed 'shadow 5' example nor a "shadow stack": the numbers this set can take."""
    from cardtable.core.errors import IllegalDecision

    s = duel()
    s.apply("play 7 7")
    with pytest.raises(IllegalDecision) as e:
        s.apply("take")
    text = e.value.words(lang)
    assert words in text and "shadow 1, shadow 3, shadow 5" in text, text
    assert "stack" not in text.lower() and "stapel" not in text.lower()


def test_shadowluxx_two_of_three_fives_one_stays():  # DU-4 DU-2
    """The rulebook's "any set of cards" of the one-layer shadow display: `play 7 7` against
    three 5s takes two of them (`shadow 5`), and one 5 stays."""
    s = duel()
    hand = s.view(None)["hands"][0]
    run(s, ["play 7 7", "shadow 5"])
    s.check_invariants()
    v = s.view(None)
    assert Counter(v["hands"][0]) - Counter(hand) == Counter([5, 5])
    assert v["hands"][0] == sort_cards([c for c in hand if c != 7] + [5, 5])
    # one 5 stays; refilled at once to 13: 13 -> pool (on the 2), 4, X -> pool (on a 3), 6
    assert stacks(v) == {1: 2, 2: 1, 3: 2, 4: 2, 5: 1, 6: 2, 8: 1, 10: 1, 11: 1}
    assert v["pool"] == [[12], [3, X], [8], [3], [10], [2, 13]]
    assert s.record()["options"] == {"optional_draw": True, "ones_beat_top": False,
                                     "shadow_partial": True, "shadow_blocks_draw": False,
                                     "tiebreak_fewer_hand": True}


def test_shadow_partial_on_by_default_in_the_duel():  # DU-4
    assert game("duel", 2).rules.shadow_partial
    assert game("duel", 2, options={"shadow_partial": True}).view(None) == game("duel", 2).view(None)
    assert not game("duel", 2, options=WHOLE).rules.shadow_partial


def test_whole_stack_reading_with_the_option_off():  # DU-4
    s = duel(options=WHOLE)
    s.apply("play 7 7")
    # only the stacks of exactly two: not the three 5s
    assert s.legal() == ["shadow 1", "shadow 3"]
    assert_refused(s, "shadow 5", "5", "exactly 2")
    hand = s.view(None)["hands"][0]
    s.apply("shadow 3")
    v = s.view(None)
    assert Counter(v["hands"][0]) - Counter(hand) == Counter([3, 3])
    assert 3 not in stacks(v) and stacks(v)[5] == 3
    assert s.record()["options"]["shadow_partial"] is False


def test_stack_larger_than_the_set_single_card():  # DU-4
    # a single 7: every lower number in the shadow is an option; a 5 taken leaves two 5s
    s = duel()
    s.apply("play 7")
    assert s.legal() == ["shadow 1", "shadow 2", "shadow 3", "shadow 4", "shadow 5", "shadow 6"]
    hand = s.view(None)["hands"][0]
    s.apply("shadow 5")
    s.check_invariants()
    v = s.view(None)
    assert Counter(v["hands"][0]) - Counter(hand) == Counter([5])
    assert stacks(v)[5] == 2 and sum(stacks(v).values()) == 13
    # the whole-stack reading: only the single cards below 7
    t = duel(options=WHOLE)
    t.apply("play 7")
    assert t.legal() == ["shadow 2", "shadow 4", "shadow 6"]


def test_several_numbers_one_is_chosen():  # DU-4
    s = duel()
    s.apply("play 7 7")
    before = stacks(s.view(None))
    s.apply("shadow 1")                   # one option chosen: the others stay untouched
    v = s.view(None)
    assert s.awaiting == "optional_draw" and s.to_move == 0   # one shadowluxx per turn,
    assert 1 not in stacks(v)                                 # then the draw (DU-6)
    assert all(stacks(v).get(n, 0) >= before[n] for n in (3, 5))
    assert_refused(s, "shadow 3")


def test_shadowluxx_is_compulsory():  # DU-4
    s = duel()
    s.apply("play 7 7")
    assert_refused(s, "pass")
    assert_refused(s, "take")
    assert_refused(s, "play 9")
    assert_refused(s, "shadow 8", "8", "at least 2")    # a single 8
    assert_refused(s, "shadow 2")                       # a single 2
    assert_refused(s, "shadow 13")
    assert s.legal() == ["shadow 1", "shadow 3", "shadow 5"]


def test_equal_number_is_no_option_single_option_waits():  # DU-4 AB-21
    s = duel()
    s.apply("play 3 3")
    # the 3s in the shadow are not lower; only the 1s are an option, and it is waited for
    assert s.awaiting == "shadow" and s.legal() == ["shadow 1"]
    s.apply("shadow 1")
    assert s.view(None)["hands"][0].count(1) == 2


def test_jokers_alone_take_any_number_lying_often_enough():  # DU-4
    s = duel()
    s.apply("play X X")
    assert s.legal() == ["shadow 1", "shadow 3", "shadow 5"]
    s2 = duel()
    s2.apply("play X")
    assert s2.legal() == ["shadow 1", "shadow 10", "shadow 11", "shadow 2", "shadow 3",
                          "shadow 4", "shadow 5", "shadow 6", "shadow 8"]
    s3 = duel(options=WHOLE)
    s3.apply("play X")
    assert s3.legal() == ["shadow 10", "shadow 11", "shadow 2", "shadow 4", "shadow 6",
                          "shadow 8"]


def test_no_shadow_option_no_shadow_step():  # DU-4 DU-6
    s = duel()
    s.apply("play 2 2")       # the only number below 2 lying twice: the 1s
    assert s.legal() == ["shadow 1"]
    t = duel(hands=(HAND1, HAND0))
    t.apply("play 1")         # nothing lower than 1
    v = t.view(None)
    assert v["awaiting"] == "optional_draw" and v["to_move"] == 0
    assert stacks(v) == stacks(duel().view(None))


def test_shadow_partial_exact_stack_still_whole():  # DU-4
    s = duel()
    run(s, ["play 7 7", "shadow 1"])
    v = s.view(None)
    assert 1 not in stacks(v) or stacks(v)[1] == 0
    assert v["hands"][0].count(1) == 2


def test_a_shadowluxx_keeps_the_draw():  # DU-6 DU-4 AB-15
    s = only_fives_twice()
    s.apply("play 7 7")
    assert s.legal() == ["shadow 5"]          # two of the three 5s, nothing else
    s.apply("shadow 5")
    v = s.view(None)
    assert stacks(v)[5] == 1
    # the opponent's display is empty: nobody abluxxed, so AB-15's draw is offered (DU-6)
    assert v["awaiting"] == "optional_draw" and v["to_move"] == 0
    assert "pass" in v["legal"] and "draw deck" in v["legal"]
    # the whole-stack reading has no option here, so the draw of AB-15 is offered as well
    t = only_fives_twice(WHOLE)
    t.apply("play 7 7")
    assert t.awaiting == "optional_draw" and t.to_move == 0
    assert stacks(t.view(None))[5] == 3


def test_shadow_blocks_draw_gives_the_former_reading():  # DU-6 DU-4 AB-15
    s = only_fives_twice({"shadow_blocks_draw": True})
    run(s, ["play 7 7", "shadow 5"])
    v = s.view(None)
    # the shadowluxx counts as abluxxing: no optional draw, the opponent's turn
    assert v["awaiting"] == "play" and v["active"] == 1
    assert s.record()["options"]["shadow_blocks_draw"] is True


@pytest.mark.parametrize("blocks", [False, True])
def test_abluxxing_the_opponent_withholds_the_draw_either_way(blocks):  # DU-6 DU-5 AB-15
    s = duel({"shadow_blocks_draw": blocks})
    # seat 0's shadowluxx: a draw to pass, unless it blocks the draw (the former reading)
    run(s, ["play 7 7", "shadow 3"] + ([] if blocks else ["pass"]) +
        ["play 8 8", "shadow 4", "take", "draw pool 3+X", "draw pool 2+13"])
    v = s.view(None)
    assert v["active"] == 0 and v["awaiting"] == "play"     # seat 1 abluxxed: no draw


def test_shadow_blocks_draw_is_the_duels_only():  # DU-6
    with pytest.raises(ConfigError):
        game("basic", 4, options={"shadow_blocks_draw": True})


# -- DU-5, DU-3, DU-6 ------------------------------------------------------------------------
def test_shadow_first_then_opponent_group_counts_as_one_draw():  # DU-5 DU-3 DU-6 DU-2
    s = duel()
    run(s, ["play 7 7", "shadow 3", "pass"])      # pool [12] [3 X] [8] [3] [10] [2 13]
    s.apply("play 8 8")
    v = s.view(None)
    assert v["awaiting"] == "shadow" and v["legal"] == ["shadow 1", "shadow 4", "shadow 5",
                                                        "shadow 6"]
    assert v["displays"][0] == [[7, 7]] and v["pending"] is None   # opponent not yet checked
    s.apply("shadow 4")
    v = s.view(None)
    # refill: 13 -> pool on the lowest single (the second 3), 11 and 12 -> shadow
    assert v["pool"] == [[12], [3, X], [8], [3, 13], [10], [2, 13]]
    assert stacks(v)[11] == 2 and stacks(v)[12] == 1 and sum(stacks(v).values()) == 13
    # then the opponent: 8 8 beats 7 7
    assert v["pending"] == {"victim": 0, "cards": [7, 7]}
    s.apply("take")
    v = s.view(None)
    assert v["to_move"] == 0 and v["owed"] == 2
    hand = v["hands"][0]
    s.apply("draw pool 3+X")                      # a group is one drawn card (DU-3)
    v = s.view(None)
    assert v["owed"] == 1 and len(v["pool"]) == 5
    s.apply("draw pool 2+13")
    s.check_invariants()
    v = s.view(None)
    assert Counter(v["hands"][0]) - Counter(hand) == Counter([3, X, 2, 13])
    # the pool is refilled to 6 items with single cards (10, 9)
    assert v["pool"] == [[12], [8], [3, 13], [10], [10], [9]]
    # seat 1 abluxxed: no optional draw (DU-6)
    assert v["active"] == 0 and v["awaiting"] == "play"


def test_optional_draw_of_a_group_refill_never_forms_groups():  # DU-3 DU-6 DU-2
    s = duel()
    run(s, ["play 7 7", "shadow 3", "pass"])
    s.apply("play 1")                    # no stack below 1, seat 0's 7 7 other size
    v = s.view(None)
    assert v["awaiting"] == "optional_draw" and v["to_move"] == 1    # DU-6
    assert "draw pool 2+13" in v["legal"] and "draw pool 3+X" in v["legal"]
    hand = v["hands"][1]
    s.apply("draw pool 2+13")            # counts as the one card of AB-15
    s.check_invariants()
    v = s.view(None)
    assert Counter(v["hands"][1]) - Counter(hand) == Counter([2, 13])
    # refilled to 6 items: the 13 from the deck becomes a single pool card
    assert v["pool"] == [[12], [3, X], [8], [3], [10], [13]]
    assert v["active"] == 0 and v["awaiting"] == "play"


# -- DU-2 interpretation: where 13s and jokers go -------------------------------------------
def test_du2_lowest_single_jokers_highest_then_lowest_group():  # DU-2
    hands = [[X, X, 7, 7], [X, X]]
    deal = make_deal(hands, pool=[X, 12, 3, 8, 3, 10], deck=[13] * 7 + [4, 6],
                     shadow=[1, 1, 2, 3, 4, 5, 5, 6, 8, 9, 10, 11, 12], avoid=(13, X, 7))
    s = game("duel", 2, seed=0, deal=deal)
    s.check_invariants()
    run(s, ["play 7 7", "shadow 1"])
    v = s.view(None)
    # six 13s go onto the singles from the lowest up (3 before 3 by position, the joker
    # last: it counts highest); the seventh finds no single and goes onto the lowest group
    assert v["pool"] == [[X, 13], [12, 13], [3, 13, 13], [8, 13], [3, 13], [10, 13]]
    assert stacks(v)[4] == 2 and stacks(v)[6] == 2 and sum(stacks(v).values()) == 13
    s.check_invariants()


def test_du2_ties_on_groups_go_to_earliest():  # DU-2
    hands = [[X, X, 9, 9], [X]]
    pool = [[4, 13], [2, 13], [7, 13], [2, X], [9, 13], [11, 13]]
    deal = make_deal(hands, pool=pool, deck=[13, 13, 5, 6],
                     shadow=[1, 1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 12, 3], avoid=(13, X, 9))
    s = game("duel", 2, seed=0, deal=deal)
    run(s, ["play 9 9", "shadow 1"])
    v = s.view(None)
    assert v["pool"] == [[4, 13], [2, 13, 13, 13], [7, 13], [2, X], [9, 13], [11, 13]]


def test_du2_empty_pool_gets_a_single_card():  # DU-2
    # not reachable in play (the pool is full whenever the shadow is refilled), so the
    # placement function is checked directly
    pool = []
    place_on_pool(pool, 13)
    assert pool == [(13,)]
    pool = [(5,), (2,), (14,)]
    place_on_pool(pool, 14)
    assert pool == [(5,), (2, 14), (14,)]


# -- AB-7 in the duel ------------------------------------------------------------------------
def test_duel_empty_hand_ends_before_shadow():  # DU-4 AB-7
    hands = [[X, X] + [4] * 8 + [6, 6, 6], [X, X, 13]]
    deal = make_deal(hands, pool=[12, 11, 10, 9, 8, 7], deck=[1, 2, 3],
                     shadow=[1, 1, 1, 2, 3, 5, 5, 5, 8, 9, 10, 11, 12], avoid=(4, 6, 13, X))
    s = game("duel", 2, seed=0, deal=deal)
    s.apply("play 4 4 4 4 4 4 4 4 X X")
    assert s.awaiting == "optional_draw"
    s.apply("pass")
    s.apply("play 13")
    while s.view(None)["active"] == 1:
        s.apply(s.legal()[0] if s.awaiting != "optional_draw" else "pass")
    shadow_before = s.view(None)["shadow"]
    s.apply("play 6 6 6")     # the three 5s (and three 1s) would be an option
    v = s.view(None)
    assert s.over and s.ended_by == "hand" and v["shadow"] == shadow_before


# -- DU-7 ------------------------------------------------------------------------------------
def test_shadow_not_refilled_once_deck_is_empty():  # DU-7 AB-13
    s = game("duel", 2, seed=5)
    for _ in range(3000):
        assert not s.over
        v = s.view(None)
        if v["deck"] == 0 and v["awaiting"] == "play":
            break
        phase = s.awaiting
        if phase == "play":
            hand = v["hands"][s.to_move]
            s.apply(f"play {hand[0]}")
        elif phase == "take":
            s.apply("take")
        elif phase == "keep":
            s.apply("keep")
        elif phase == "shadow":
            s.apply(s.legal()[0])
        else:
            s.apply("draw deck" if "draw deck" in s.legal() else
                    ("pass" if phase == "optional_draw" else s.legal()[0]))
        s.check_invariants()
    v = s.view(None)
    assert v["deck"] == 0 and not s.over
    found = None
    for d in s.legal():
        t = s.copy()
        t.apply(d)
        if t.awaiting == "shadow":
            found = d
            break
    assert found, "no shadowluxx possible in this position"
    size_before = sum(stacks(v).values())
    pool_before = v["pool"]
    s.apply(found)
    option = s.legal()[0]
    n = len(found.split()) - 1                  # as many cards as the set played (DU-4)
    s.apply(option)
    s.check_invariants()
    w = s.view(None)
    assert sum(stacks(w).values()) == size_before - n       # not refilled
    assert w["pool"] == pool_before or s.awaiting in ("take", "draw", "keep")


@pytest.mark.parametrize("seed", range(4))
def test_shadow_cards_score_for_nobody(seed):  # DU-7 AB-17
    s = finish_randomly(game("duel", 2, seed=seed))
    v = s.view(None)
    expected = [sum(len(l) for l in v["displays"][p]) - len(v["hands"][p]) for p in (0, 1)]
    assert s.scores() == expected
    s.check_invariants()


def test_opponent_checked_as_usual_without_shadow_option():  # DU-5 DU-6 AB-11
    hands = [[X, X, 4, 4], [X, X, 5, 5]]
    shadow = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12]     # the only stack of two: 12s
    deal = make_deal(hands, pool=[1, 2, 3, 6, 7, 8], deck=[9, 10, 11], shadow=shadow,
                     avoid=(4, 5, X))
    s = game("duel", 2, seed=0, deal=deal)
    s.apply("play 4 4")
    assert s.awaiting == "optional_draw"       # nothing abluxxed: AB-15 applies (DU-6)
    s.apply("pass")
    s.apply("play 5 5")                        # no shadow option; the opponent's 4 4
    v = s.view(None)
    assert v["awaiting"] == "take" and v["pending"] == {"victim": 0, "cards": [4, 4]}
    assert v["legal"] == ["leave", "take"]     # the usual choice (not compulsory taking)
    run(s, ["leave", "discard", "draw deck", "draw pool 1"])
    v = s.view(None)
    assert v["discard"] == 2 and v["active"] == 0 and v["awaiting"] == "play"   # DU-6
    assert sum(stacks(v).values()) == 13
