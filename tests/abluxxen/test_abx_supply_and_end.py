"""The supply running out (AB-13, AB-14, CL-3), scoring (AB-17) and winners (AB-18, CL-4).

The deck cannot be made small by a deal (every card is dealt somewhere), so these positions are
reached by playing on with single cards until the supply (deck + pool) is down to a target
(`abx_helpers.burn`); the cards a finale needs are reserved in the hands meanwhile."""

from __future__ import annotations

import pytest

from abx_helpers import X, assert_refused, burn, game, make_deal, run, sort_cards, supply

SEVEN_5S = "play 5 5 5 5 5 5 5"
SIX_6S_X = "play 6 6 6 6 6 6 X"
RESERVED = {0: [6] * 6 + [X], 1: [5] * 7}
VARIANTS = ["basic", "advanced", "expert", "classic"]


def quiet_turn(s):
    """The active player plays a single card and the turn is finished without any draw."""
    active = s.view(None)["active"]
    res = RESERVED.get(active, [])
    hand = list(s.view(None)["hands"][active])
    for c in res:
        hand.remove(c)
    s.apply(f"play {sort_cards(hand)[0]}")
    while not s.over and s.view(None)["active"] == active:
        phase = s.awaiting
        s.apply({"take": "leave", "keep": "keep", "optional_draw": "pass"}[phase])
    s.check_invariants()


def finale(variant, target, seed=0):
    """Seat 1 lays seven 5s, seats 2 and 3 play quietly, seat 0 abluxxes the 5s with
    6 6 6 6 6 6 X and takes them: seat 1 owes 7 cards with `target` cards left to draw."""
    deal = make_deal([[6] * 6 + [X], [5] * 7], players=4)
    s = game(variant, 4, seed=seed, deal=deal)
    burn(s, target, stop_seat=1, reserved=RESERVED)
    s.apply(SEVEN_5S)
    if s.awaiting == "optional_draw":
        s.apply("pass")
    quiet_turn(s)
    quiet_turn(s)
    assert s.view(None)["active"] == 0 and supply(s) == target
    s.apply(SIX_6S_X)
    v = s.view(None)
    assert v["pending"] == {"victim": 1, "cards": [5] * 7}
    s.apply("take")
    assert s.view(None)["owed"] == 7 and s.to_move == 1
    return s


@pytest.mark.parametrize("variant", VARIANTS)
def test_pool_emptied_mid_drawing_then_last_deck_card_ends_game(variant):  # AB-14 CL-3 AB-21
    s = finale(variant, 7)
    v = s.view(None)
    assert v["deck"] == 1 and len(v["pool"]) == 6
    hand = len(v["hands"][1])
    for i in range(6):                  # the pool first ...
        pool_draw = [d for d in s.legal() if d.startswith("draw pool")][0]
        s.apply(pool_draw)
        s.check_invariants()
        assert not s.over
    v = s.view(None)
    # the pool is empty and is not refilled in the middle of a drawing; one card left
    assert v["pool"] == [] and v["deck"] == 1 and v["owed"] == 1
    assert v["awaiting"] == "draw" and v["to_move"] == 1
    assert v["legal"] == ["draw deck"]           # a single choice is still waited for
    s.apply("draw deck")                         # ... then the last deck card: game over
    s.check_invariants()
    v = s.view(None)
    assert s.over and s.ended_by == "supply"
    assert v["deck"] == 0 and v["pool"] == [] and len(v["hands"][1]) == hand + 7
    assert v["awaiting"] is None and v["to_move"] is None and v["legal"] == []
    assert s.scores() is not None and s.winners()


@pytest.mark.parametrize("variant", VARIANTS)
def test_deck_first_then_pool_ends_with_last_pool_card(variant):  # AB-14 AB-13 CL-3
    s = finale(variant, 7)
    s.apply("draw deck")
    v = s.view(None)
    assert v["deck"] == 0 and len(v["pool"]) == 6 and v["owed"] == 6 and not s.over
    assert "draw deck" not in v["legal"]
    for _ in range(5):
        s.apply([d for d in s.legal() if d.startswith("draw pool")][0])
        assert not s.over
    assert len(s.view(None)["pool"]) == 1
    s.apply(s.legal()[0])
    assert s.over and s.ended_by == "supply"


@pytest.mark.parametrize("variant", VARIANTS)
def test_draws_still_owed_are_forfeited(variant):  # AB-14 CL-3 AB-13
    s = finale(variant, 6)
    v = s.view(None)
    assert v["deck"] == 0 and len(v["pool"]) == 6 and v["owed"] == 7
    hand = len(v["hands"][1])
    for i in range(6):
        assert not s.over
        assert "draw deck" not in s.legal()
        s.apply(s.legal()[0])
    s.check_invariants()
    v = s.view(None)
    assert s.over and s.ended_by == "supply"
    assert len(v["hands"][1]) == hand + 6        # the seventh card is never drawn
    assert v["owed"] == 0
    # seat 2 and 3 are not compared any more: the game ended at once
    assert all(len(layer) == 1 for seat in (2, 3) for layer in v["displays"][seat])


def test_empty_deck_pool_not_refilled():  # AB-13
    s = game("basic", 4, seed=1)
    burn(s, 6)
    v = s.view(None)
    assert v["deck"] == 0 and len(v["pool"]) == 6
    active = v["active"]
    # a play that abluxxes nobody, then the optional draw from the pool
    for d in s.legal():
        t = s.copy()
        t.apply(d)
        if t.awaiting == "optional_draw":
            break
    s.apply(d)
    assert "draw deck" not in s.legal()
    assert_refused(s, "draw deck", "deck")
    s.apply([x for x in s.legal() if x.startswith("draw pool")][0])
    s.check_invariants()
    v = s.view(None)
    assert len(v["pool"]) == 5 and v["deck"] == 0 and not s.over
    assert v["active"] == (active + 1) % 4


def test_deck_empty_taking_last_pool_card_in_optional_draw_ends_game():  # AB-14 AB-15
    s = game("basic", 4, seed=2)
    burn(s, 1)
    v = s.view(None)
    assert v["deck"] == 0 and len(v["pool"]) == 1
    for d in s.legal():
        t = s.copy()
        t.apply(d)
        if t.awaiting == "optional_draw":
            break
    s.apply(d)
    last = [x for x in s.legal() if x.startswith("draw pool")]
    assert len(last) == 1 and "pass" in s.legal()
    t = s.copy()
    t.apply("pass")                       # passing keeps the game going
    assert not t.over
    s.apply(last[0])
    s.check_invariants()
    assert s.over and s.ended_by == "supply" and s.view(None)["pool"] == []


def test_classic_game_ends_when_supply_used_up_mid_drawing():  # CL-3
    reserved = {0: [9, 9], 1: [2, 2]}
    deal = make_deal([[9, 9], [2, 2]], players=4, avoid=(2, 9))
    s = game("classic", 4, seed=4, deal=deal)
    burn(s, 1, stop_seat=1, reserved=reserved)
    s.apply("play 2 2")
    assert s.view(None)["active"] == 2          # classic: no draw (CL-2)
    for _ in range(2):
        active = s.view(None)["active"]
        hand = list(s.view(None)["hands"][active])
        s.apply(f"play {sort_cards(hand)[0]}")
        while s.view(None)["active"] == active:
            s.apply({"take": "leave", "keep": "keep"}[s.awaiting])
    s.apply("play 9 9")
    assert s.view(None)["pending"] == {"victim": 1, "cards": [2, 2]}
    s.apply("take")
    hand = len(s.view(None)["hands"][1])
    assert s.view(None)["owed"] == 2
    s.apply(s.legal()[0])                        # the last pool card (deck empty)
    v = s.view(None)
    assert s.over and s.ended_by == "supply" and len(v["hands"][1]) == hand + 1


# -- AB-17, AB-18, CL-4 ----------------------------------------------------------------------
def run_passing(s, decisions):
    """Apply decisions; after a play that abluxxed nobody, pass on the optional draw."""
    for d in decisions:
        s.apply(d)
        s.check_invariants()
        if s.awaiting == "optional_draw" and not d.startswith("draw"):
            s.apply("pass")
    return s


def tie_on_hand_count(variant, options=None):
    """Seat 0 ends on 14 display cards and 1 hand card, seat 1 on 13 and 0: both score 13."""
    deal = make_deal([
        [10] * 7 + [3, 3, 1, 1, X, 12],
        [7] * 5 + [8] * 4 + [9] * 4,
        [1, 1, 13],
    ], deck=[2, 4], avoid=(1, 3, 7, 8, 9, 10, 12, X))
    s = game(variant, 3, seed=0, deal=deal, options=options)
    run_passing(s, [
        "play 10 10 10 10 10 10 10",   # seat 0
        "play 7 7 7 7 7",              # seat 1
        "play 1 1",                    # seat 2
        "play 3 3",                    # seat 0 abluxxes seat 2's 1 1 and takes them
        "take", "draw deck", "draw deck",
        "play 8 8 8 8",                # seat 1
        "play 13",                     # seat 2
        "play 1 1 1 1 X",              # seat 0: one card (12) left
        "play 9 9 9 9",                # seat 1: hand empty, game over (AB-7)
    ])
    assert s.over and s.ended_by == "hand"
    v = s.view(None)
    assert v["hands"][0] == [12] and v["hands"][1] == []
    return s


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert", "classic"])
def test_scores_count_cards_not_numbers(variant):  # AB-17
    s = tie_on_hand_count(variant)
    v = s.view(None)
    assert s.scores() == [14 - 1, 13 - 0, 1 - 12] == v["scores"]
    for seat in range(3):
        assert s.scores()[seat] == sum(len(l) for l in v["displays"][seat]) - len(v["hands"][seat])


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert"])
def test_tie_goes_to_fewer_hand_cards(variant):  # AB-18
    s = tie_on_hand_count(variant)
    assert s.winners() == [1] == s.view(None)["winners"]
    assert s.tiebreak() == "fewer_hand"


def test_classic_tie_is_not_broken():  # CL-4 AB-18
    s = tie_on_hand_count("classic")
    assert s.scores()[:2] == [13, 13]
    assert s.winners() == [0, 1] == s.view(None)["winners"]
    assert s.tiebreak() == "shared"


def test_tiebreak_option_switches_the_rule():  # CL-4 AB-18
    assert tie_on_hand_count("classic", {"tiebreak_fewer_hand": True}).winners() == [1]
    assert tie_on_hand_count("basic", {"tiebreak_fewer_hand": False}).winners() == [0, 1]


def test_still_tied_all_win():  # AB-18 AB-17
    deal = make_deal([
        [13] * 4 + [12] * 4 + [10] * 4 + [9],
        [13] * 4 + [11] * 4 + [10] * 4 + [8],
        [12] * 4 + [11] * 3 + [9] * 3 + [8] * 3,
    ], deck=[9, 8, 9, 8, 1, 2])
    s = game("basic", 3, seed=0, deal=deal)
    run(s, [
        "play 13 13 13 13", "draw deck", "play 13 13 13 13", "draw deck",
        "play 12 12 12 12", "pass",
        "play 12 12 12 12", "draw deck", "play 11 11 11 11", "draw deck",
        "play 11 11 11", "pass",
        "play 10 10 10 10", "draw deck", "play 10 10 10 10", "draw deck",
        "play 9 9 9", "pass",
        "play 9 9 9", "pass", "play 8 8 8", "pass",
        "play 8 8 8",
    ])
    v = s.view(None)
    assert s.over and s.ended_by == "hand"
    assert v["hands"] == [[1], [2], []]
    assert s.scores() == [14, 14, 13]
    assert s.winners() == [0, 1] and s.tiebreak() == "shared"


def test_single_top_score_wins():  # AB-18
    s = tie_on_hand_count("basic")
    assert max(s.scores()) == 13
    # the ender of a game without ties
    t = game("basic", 3, seed=0, deal=make_deal([[2] * 7 + [9] * 6, [1] * 7, [13]],
                                                avoid=(1, 2, 9, 13)))
    run_passing(t, ["play 9 9 9 9 9 9", "play 1 1 1 1 1 1 1", "play 13", "play 2 2 2 2 2 2 2"])
    assert t.winners() == [0] and t.tiebreak() is None
