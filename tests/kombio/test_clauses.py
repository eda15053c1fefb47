"""Scenario tests for the Kombio clauses KO-1..KO-16 (RULES.md), each on a fixed deal.
Every test names the clause it checks: `grep -r KO-8 tests/` finds them."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.core.errors import RecordError
from cardtable.kombio import new_game
from cardtable.kombio.cards import VALUE

from .helpers import deal_game, grid, play, refused, window

# -- KO-1: the cards ---------------------------------------------------------------------------


def test_ko1_seventy_cards_with_the_printed_counts():  # KO-1
    s = new_game(players=4, seed=3)
    ids = [c for g in s.grids for c in g] + s.deck + s.discard
    counts = Counter(VALUE[c] for c in ids)
    assert len(ids) == 70
    assert counts == Counter({-1: 3, 0: 3, **{v: 5 for v in range(1, 13)}, 13: 2, 14: 2})
    assert sum(n for v, n in counts.items() if v <= 6) == 36     # plain cards
    assert sum(n for v, n in counts.items() if v >= 7) == 34     # action cards


def test_ko1_only_7_to_14_are_action_cards():  # KO-1, KO-5.1
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2]], deck=[6, 7])
    play(s, "draw", "discard")
    assert s.awaiting == "snap"                                   # a 6 has no action
    window(s)
    play(s, "draw", "discard")
    assert s.awaiting == "action" and s.view()["action"] == 7


def test_ko1_a_deal_cannot_use_a_card_more_often_than_the_set_has_it():  # KO-1
    with pytest.raises(RecordError, match="more 13s"):
        deal_game([[13, 13, 1, 1], [2, 2, 2, 2]], deck=[13])
    with pytest.raises(RecordError, match="more -1s"):
        deal_game([[-1, -1, -1, -1], [2, 2, 2, 2]])


# -- KO-2: set-up ------------------------------------------------------------------------------


def test_ko2_grids_of_four_and_each_player_sees_own_slots_3_and_4():  # KO-2
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], deck=[0, -1])
    v = s.view(None)
    assert v["grids"] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert v["deck"] == 70 - 12 and v["discard"] == 0 and v["top"] is None
    assert grid(s, 0, 0) == ["?", "?", 3, 4]
    assert grid(s, 1, 0) == ["?", "?", "?", "?"]
    assert grid(s, 1, 1) == ["?", "?", 7, 8]
    assert grid(s, 2, 2) == ["?", "?", 11, 12]
    play(s, "draw")                                               # deck listed top first
    assert s.view(0)["drawn"] == 0


def test_ko2_without_a_deal_the_cards_are_shuffled_from_the_seed():  # KO-2
    a, b, c = new_game(seed=5), new_game(seed=5), new_game(seed=6)
    assert a.view(None) == b.view(None)
    assert a.grids != c.grids or a.deck != c.deck


# -- KO-3: slots -------------------------------------------------------------------------------


def test_ko3_slots_keep_their_place_new_cards_take_new_slots():  # KO-3
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[2, 3, 10, 4])
    play(s, "draw", "discard")                                    # seat 0 discards a 2
    window(s, s0="snap 0.2")                                      # right, own: slot 2 empties
    assert grid(s, 0) == [1, None, 3, 4]
    play(s, "draw", "discard")                                    # seat 1 discards a 3
    window(s, s1="snap 1.1")                                      # wrong, own: penalty card
    assert grid(s, 1) == [5, 6, 7, 8, 10]                         # ... in the new slot 5
    refused(s, "take 2", "no card in slot 2")                    # an empty slot stays empty
    play(s, "draw")
    refused(s, "replace 2", "no card in slot 2")
    play(s, "discard")                                            # a 4
    window(s, s0="snap 1.1")                                      # wrong, another's card
    play(s, "hand-over")
    assert grid(s, 0) == [1, None, 3, 4, 5]                       # slot 5, not the empty slot 2
    assert grid(s, 1) == [None, 6, 7, 8, 10]


# -- KO-4: rounds and the start seat -----------------------------------------------------------


def call_round(s):
    """The active player calls Kombio; everybody else draws and discards; nobody snaps."""
    r = s.round_no
    play(s, "kombio")
    while s.round_no == r and not s.over:
        if s.awaiting == "turn":
            play(s, "draw", "discard")
        elif s.awaiting == "action":
            play(s, "skip")
        else:
            window(s)


def test_ko4_start_seat_is_a_parameter_and_moves_clockwise_each_round():  # KO-4
    s = new_game(players=3, seed=1, start=2, target=1000)
    assert s.active == 2 and s.to_move == 2 and s.view()["round_start"] == 2 and s.round_no == 1
    call_round(s)
    assert s.round_no == 2 and s.active == 0 and s.view()["round_start"] == 0
    assert len(s.round_scores) == 1 and not s.over                # dealt automatically
    assert s.counts == [4, 4, 4] and s.view()["discard"] == 0
    call_round(s)
    assert s.round_no == 3 and s.active == 1


def test_ko4_rounds_go_on_until_a_total_reaches_the_target():  # KO-4, KO-16
    s = new_game(players=2, seed=4, target=1000)
    while s.round_no < 4:
        call_round(s)
    assert not s.over and max(s.totals) < 1000


# -- KO-5: a turn ------------------------------------------------------------------------------


def test_ko5_the_three_turn_options():  # KO-5
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[9, 1])
    assert s.legal() == ["draw", "kombio"]                        # nothing to take yet
    refused(s, "take 1", "discard pile is empty")
    play(s, "draw", "replace 1")
    window(s)
    assert s.legal() == ["draw", "kombio", "take 1", "take 2", "take 3", "take 4"]


def test_ko5_1_draw_and_replace_puts_the_old_card_face_up():  # KO-5.1
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[9])
    play(s, "draw")
    assert s.awaiting == "drawn" and s.view(0)["drawn"] == 9 and s.view(1)["drawn"] is None
    assert s.legal() == ["discard", "replace 1", "replace 2", "replace 3", "replace 4"]
    play(s, "replace 3")
    assert s.view(1)["top"] == 3                                  # face up for everyone
    assert grid(s, 0, 0) == ["?", "?", 9, 4]                      # the drawer knows it
    assert grid(s, 0, 1) == ["?", "?", "?", "?"]
    assert s.awaiting == "snap"                                   # a replaced 3: no action


def test_ko5_1_a_discarded_action_card_may_be_used():  # KO-5.1, KO-6
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[9])
    play(s, "draw", "discard")
    assert s.awaiting == "action" and s.to_move == 0
    assert s.legal() == ["peek 1.1", "peek 1.2", "peek 1.3", "peek 1.4", "skip"]


def test_ko5_2_take_the_top_discard_card():  # KO-5.2
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[0])
    play(s, "draw", "discard")
    window(s)
    play(s, "take 2")                                             # seat 1 takes the 0
    assert grid(s, 1) == [5, 0, 7, 8] and s.view()["top"] == 6
    assert grid(s, 1, 0) == ["?", 0, "?", "?"]                     # it was face up: all know it
    assert s.awaiting == "snap"


def test_ko5_3_kombio_whatever_the_size_of_the_grid():  # KO-5.3
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[4, 2])
    play(s, "draw", "discard")
    window(s, s0="snap 0.4")                                      # right: 3 cards left
    play(s, "draw", "discard")
    window(s, s1="snap 1.1")                                      # wrong: 5 cards
    assert "kombio" in s.legal()
    play(s, "kombio")
    assert s.caller == 0


# -- KO-6: actions -----------------------------------------------------------------------------

GRIDS = [[1, 2, 3, 4], [5, 6, -1, 0]]


def test_ko6_7_and_8_look_at_an_own_card():  # KO-6
    for a in (7, 8):
        s = deal_game(GRIDS, deck=[a])
        play(s, "draw", "discard")
        assert s.legal() == ["peek 0.1", "peek 0.2", "peek 0.3", "peek 0.4", "skip"]
        refused(s, "peek 1.1", "own cards")
        play(s, "peek 0.1")
        assert grid(s, 0, 0) == [1, "?", 3, 4] and grid(s, 0, 1) == ["?"] * 4
        assert s.awaiting == "snap"


def test_ko6_9_and_10_look_at_another_players_card():  # KO-6
    for a in (9, 10):
        s = deal_game(GRIDS, deck=[a])
        play(s, "draw", "discard")
        refused(s, "peek 0.1", "another player")
        play(s, "peek 1.2")
        assert grid(s, 1, 0) == ["?", 6, "?", "?"]
        assert s.view(None)["peeked"] == []                       # the action is complete


def test_ko6_11_and_12_swap_two_cards_without_looking():  # KO-6, KO-11
    for a in (11, 12):
        s = deal_game(GRIDS, deck=[a])
        play(s, "draw", "discard")
        legal = s.legal()
        assert "swap 0.1 1.1" in legal and "swap 0.3 0.4" in legal and "skip" in legal
        refused(s, "peek 0.1", "swap")
        play(s, "swap 0.3 1.1")                                   # own known 3 <-> unseen 5
        assert grid(s, 0) == [1, 2, 5, 4] and grid(s, 1) == [3, 6, -1, 0]
        assert grid(s, 0, 0) == ["?", "?", "?", 4]                # swapped blind
        assert grid(s, 1, 0) == [3, "?", "?", "?"]                # knowledge follows the 3


def test_ko6_13_look_at_one_card_then_swap_it_or_keep():  # KO-6
    s = deal_game(GRIDS, deck=[13])
    play(s, "draw", "discard", "peek 1.4")
    assert s.awaiting == "action_swap" and s.view()["peeked"] == ["1.4"]
    legal = s.legal()
    assert "keep" in legal and "swap 0.1" in legal and "swap 1.4" not in legal
    refused(s, "swap 1.4", "another card")
    refused(s, "swap", "swap P.S")
    play(s, "swap 0.2")
    assert grid(s, 0) == [1, 0, 3, 4] and grid(s, 1) == [5, 6, -1, 2]
    assert grid(s, 0, 0) == ["?", 0, 3, 4]                        # the peeked 0 moved to 0.2
    assert grid(s, 1, 0) == ["?", "?", "?", "?"]                  # the other card: unseen
    s = deal_game(GRIDS, deck=[13])
    play(s, "draw", "discard", "peek 0.1", "keep")
    assert grid(s, 0) == [1, 2, 3, 4] and s.awaiting == "snap"


def test_ko6_14_look_at_two_cards_then_swap_them_or_keep():  # KO-6
    s = deal_game(GRIDS, deck=[14])
    play(s, "draw", "discard")
    refused(s, "peek 0.1", "two cards")
    play(s, "peek 1.3 0.1")                                       # either order
    assert s.history[-1] == "peek 0.1 1.3"
    assert s.legal() == ["keep", "swap"]
    assert grid(s, 1, 0) == ["?", "?", -1, "?"] and grid(s, 0, 0) == [1, "?", 3, 4]
    play(s, "swap")
    assert grid(s, 0) == [-1, 2, 3, 4] and grid(s, 1) == [5, 6, 1, 0]
    assert grid(s, 0, 0) == [-1, "?", 3, 4] and grid(s, 1, 0) == ["?", "?", 1, "?"]


def test_ko6_the_action_may_be_skipped():  # KO-6
    s = deal_game(GRIDS, deck=[11])
    play(s, "draw", "discard", "skip")
    assert s.awaiting == "snap" and s.view(None)["grids"] == GRIDS


def test_ko6_a_card_replaced_out_of_a_grid_never_gives_an_action():  # KO-6
    s = deal_game([[12, 2, 3, 4], [5, 6, 7, 8]], deck=[1])
    play(s, "draw", "replace 1")
    assert s.view()["top"] == 12 and s.awaiting == "snap"
    window(s)
    play(s, "take 1")                                             # takes the 12
    assert s.view()["top"] == 5 and s.awaiting == "snap"


# -- KO-7: empty slots; swaps ------------------------------------------------------------------


def test_ko7_empty_slots_cannot_be_looked_at_or_swapped():  # KO-7
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[4, 1, 14])
    play(s, "draw", "discard")
    window(s, s0="snap 0.4")                                      # 0.4 is empty now
    play(s, "draw", "discard")
    window(s)
    play(s, "draw", "discard")                                    # seat 0: a 14
    assert not any("0.4" in t for t in s.legal())
    refused(s, "peek 0.4 1.1", "empty")
    refused(s, "peek 0.9 1.1", "no slot 9")
    refused(s, "peek 7.1 1.1", "no seat 7")


def test_ko7_both_cards_of_a_swap_may_be_in_one_grid_and_the_pair_is_listed_once():  # KO-7
    s = deal_game(GRIDS, deck=[11])
    play(s, "draw", "discard")
    legal = s.legal()
    assert "swap 0.1 0.2" in legal and "swap 0.2 0.1" not in legal
    assert len(legal) == len(set(legal)) == 8 * 7 // 2 + 1
    play(s, "swap 0.4 0.1")                                       # accepted in either order
    assert s.history[-1] == "swap 0.1 0.4"
    assert grid(s, 0) == [4, 2, 3, 1]
    assert grid(s, 0, 0) == [4, "?", 3, "?"]                      # knowledge follows the 4


# -- KO-8: the four outcomes of a snap ---------------------------------------------------------


def test_ko8_right_own_card_goes_to_the_discard_pile():  # KO-8
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[3])
    play(s, "draw", "discard")
    window(s, s0="snap 0.3")
    assert grid(s, 0) == [1, 2, None, 4] and s.counts[0] == 3
    v = s.view(1)
    assert v["top"] == 3 and v["discard"] == 2 and v["top_snapped"]
    assert v["snap"] == {"seat": 0, "card": "0.3", "value": 3, "right": True,
                         "claims": [{"seat": 0, "card": "0.3"}]}
    assert s.awaiting == "turn" and s.active == 1


def test_ko8_right_another_players_card_then_the_snapper_gives_a_card():  # KO-8, KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[6])
    play(s, "draw", "discard")
    window(s, s0="snap 1.2")
    assert grid(s, 1) == [5, None, 7, 8]
    assert s.awaiting == "give" and s.to_move == 0
    assert s.legal() == ["give 1", "give 2", "give 3", "give 4"]
    refused(s, "give 7", "no card in slot 7")
    refused(s, "pass", "give S")
    play(s, "give 3")
    assert grid(s, 0) == [1, 2, None, 4] and grid(s, 1) == [5, 3, 7, 8]   # the emptied slot
    assert s.counts == [3, 4]
    assert grid(s, 1, 0) == ["?", 3, "?", "?"]                    # the giver knew the 3
    assert grid(s, 1, 1) == ["?", "?", 7, 8]                      # face down for the owner
    assert s.awaiting == "turn" and s.active == 1


def test_ko8_wrong_own_card_stays_and_the_snapper_takes_a_penalty_card():  # KO-8, KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[6, 9])
    play(s, "draw", "discard")
    window(s, s0="snap 0.1")                                      # the 1 is not a 6
    assert grid(s, 0) == [1, 2, 3, 4, 9] and s.counts[0] == 5
    assert grid(s, 0, 1) == [1, "?", "?", "?", "?"]               # turned up: everybody saw it
    assert grid(s, 0, 0) == [1, "?", 3, 4, "?"]                   # the penalty card: unseen
    assert s.view()["top"] == 6 and not s.top_snapped and s.view()["snap"]["right"] is False


def test_ko8_wrong_another_players_card_the_owner_chooses():  # KO-8, KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[6, 9])
    play(s, "draw", "discard")
    window(s, s0="snap 1.1")
    assert s.awaiting == "hand_over" and s.to_move == 1
    assert s.legal() == ["hand-over", "penalty"]
    play(s, "hand-over")
    assert grid(s, 0) == [1, 2, 3, 4, 5] and grid(s, 1) == [None, 6, 7, 8]
    assert grid(s, 0, 1)[4] == 5                                  # it was turned up
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[6, 9])
    play(s, "draw", "discard")
    window(s, s0="snap 1.1")
    play(s, "penalty")
    assert grid(s, 0) == [1, 2, 3, 4, 9] and grid(s, 1) == [5, 6, 7, 8]
    assert s.counts == [5, 4] and s.awaiting == "turn" and s.active == 1


def test_ko8_any_player_may_snap_out_of_turn():  # KO-8
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [6, 1, 1, 1]], deck=[6])
    play(s, "draw", "discard")
    window(s, s2="snap 2.1")
    assert grid(s, 2) == [None, 1, 1, 1] and s.active == 1


# -- KO-9: one snap per top card ---------------------------------------------------------------


def test_ko9_a_snapped_card_cannot_be_taken_nor_snapped_on():  # KO-9, KO-5.2
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[3])
    play(s, "draw", "discard")
    window(s, s0="snap 0.3")
    assert s.legal() == ["draw", "kombio"]                        # no take
    refused(s, "take 1", "snap", "KO-9")
    refused(s, "snap 1.1", "'draw', 'take S' or 'kombio'")        # no window until a new top


def test_ko9_several_snaps_only_one_is_carried_out():  # KO-9, KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 3, 8], [3, 9, 9, 9]], deck=[3])
    play(s, "draw", "discard")
    window(s, s0="snap 0.3", s1="snap 1.3", s2="snap 2.1")
    info = s.view()["snap"]
    assert len(info["claims"]) == 3 and info["right"]
    assert s.counts.count(3) == 1 and s.counts.count(4) == 2      # only the winner's card went
    assert s.view()["discard"] == 2 and s.awaiting == "turn"


def test_ko9_one_window_per_turn_even_if_nobody_snaps():  # KO-9, KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[3])
    play(s, "draw", "discard")
    assert window(s) == [0, 1]
    assert s.awaiting == "turn" and s.active == 1 and s.legal()[-1] == "take 4"


# -- KO-10: the snap window --------------------------------------------------------------------


def test_ko10_every_eligible_player_answers_in_seat_order_from_the_active_player():  # KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9], [1, 1, 1, 1]], deck=[5, 5, 5])
    play(s, "draw", "discard")
    assert window(s) == [0, 1, 2, 3]                              # the active player included
    play(s, "draw", "discard")
    assert window(s) == [1, 2, 3, 0]
    play(s, "draw", "discard")
    assert s.legal()[:3] == ["pass", "snap 0.1", "snap 0.2"]
    assert window(s) == [2, 3, 0, 1]


def test_ko10_answers_are_hidden_until_the_window_closes():  # KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], deck=[5])
    play(s, "draw", "discard", "pass", "snap 1.1")
    assert s.to_move == 2
    seen_by_2 = s.view(2)["window"]
    assert seen_by_2 == {"order": [0, 1, 2], "answered": 2, "answers": []}
    assert s.view(1)["window"]["answers"] == [{"seat": 1, "decision": "snap 1.1"}]
    assert s.view(0)["window"]["answers"] == [{"seat": 0, "decision": "pass"}]
    assert s.view(None)["window"]["answers"] == [{"seat": 0, "decision": "pass"},
                                                 {"seat": 1, "decision": "snap 1.1"}]
    assert s.view(2)["grids"] == s.determinize(2, seed=1).view(2)["grids"]
    # the determinization for seat 2 cannot hold seat 1's claim
    assert s.determinize(2, seed=1).claims == ()
    play(s, "pass")
    assert s.view(2)["snap"]["claims"] == [{"seat": 1, "card": "1.1"}]   # public once closed


def test_ko10_several_snaps_the_winner_is_drawn_with_the_seed():  # KO-10
    winners = {}
    for seed in range(40):
        s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], deck=[5], seed=seed)
        play(s, "draw", "discard")
        window(s, s0="snap 1.1", s1="snap 1.1", s2="snap 1.1")
        winners[seed] = s.view()["snap"]["seat"]
        again = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], deck=[5], seed=seed)
        play(again, *s.history)
        assert again.view(None) == s.view(None)                   # reproducible
    assert set(winners.values()) == {0, 1, 2}                     # every claimant can win


def test_ko10_the_action_is_used_before_the_window_opens():  # KO-10, KO-6
    # "If somebody snaps onto the card you just discarded, you may still use its action":
    # the window opens only after the action, so the discarder's action is never lost.
    s = deal_game([[1, 2, 3, 4], [9, 6, 7, 8]], deck=[9])
    play(s, "draw", "discard")
    assert s.awaiting == "action"
    play(s, "peek 1.1")
    assert s.awaiting == "snap"
    window(s, s1="snap 1.1")                                      # seat 1 snaps its own 9
    assert s.view()["top"] == 9 and s.awaiting == "turn" and s.active == 1   # no 2nd action


def test_ko10_rulebook_example_emma_snaps_her_13_paul_is_too_late():  # KO-10, KO-9, KO-6
    # Emma (seat 0) draws a 13, discards it and uses its action: she looks at one of her own
    # cards, a 13 too, and snaps it. Paul (seat 1) is too late. (The 2022 set has only two 13s,
    # so Paul's remembered "13" is a 12 here; being too late, his claim is never checked.)
    grids = [[13, 5, 2, 3], [12, 6, 4, 1]]
    s = deal_game(grids, deck=[13])
    play(s, "draw")
    assert s.view(0)["drawn"] == 13
    play(s, "discard", "peek 0.1")
    assert grid(s, 0, 0) == [13, "?", 2, 3]
    play(s, "keep")
    window(s, s0="snap 0.1")                                      # Paul does not make it
    assert grid(s, 0) == [None, 5, 2, 3] and s.view()["top"] == 13 and s.top_snapped
    assert s.to_move == 1 and s.legal() == ["draw", "kombio"]    # nothing more on that 13
    refused(s, "snap 1.1", "expected")
    # Both slap; the seeded draw says who was first. With seed 1 Emma wins: Paul's claim
    # lapses, his card is not even turned up and he gets no penalty card.
    seeds = []
    for seed in range(20):
        s = deal_game(grids, deck=[13], seed=seed)
        play(s, "draw", "discard", "peek 0.1", "keep")
        window(s, s0="snap 0.1", s1="snap 1.1")
        if s.view()["snap"]["seat"] == 0:
            seeds.append(seed)
            assert grid(s, 0) == [None, 5, 2, 3] and grid(s, 1) == [12, 6, 4, 1]
            assert grid(s, 1, 0) == ["?", "?", "?", "?"]
            assert s.view()["snap"]["claims"] == [{"seat": 0, "card": "0.1"},
                                                  {"seat": 1, "card": "1.1"}]
        else:
            assert grid(s, 1)[:4] == [12, 6, 4, 1] and len(grid(s, 1)) == 5   # Paul: penalty
    assert seeds and len(seeds) < 20


# -- KO-11: knowledge --------------------------------------------------------------------------


def test_ko11_knowledge_follows_the_card():  # KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 1, 1]], deck=[11, 9])
    play(s, "draw", "discard", "swap 0.3 2.3")                    # seat 0 moves its known 3
    assert grid(s, 2, 0) == ["?", "?", 3, "?"]                    # seat 0 follows its 3
    assert grid(s, 0, 2) == ["?", "?", 1, "?"]                    # seat 2 follows its 1
    assert grid(s, 2, 2) == ["?", "?", "?", 1]
    assert grid(s, 0, 1) == ["?"] * 4 and grid(s, 2, 1) == ["?"] * 4
    window(s)
    play(s, "draw", "discard", "skip")                            # seat 1: a 9
    window(s, s1="snap 2.1")                                      # right: seat 2's 9
    play(s, "give 3")                                             # seat 1 gives its known 7
    assert grid(s, 2)[0] == 7 and grid(s, 2, 1)[0] == 7           # the giver follows it
    assert grid(s, 2, 2)[0] == "?" and grid(s, 2, 0)[0] == "?"    # given face down


def test_ko11_turned_up_cards_are_seen_by_everyone():  # KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 1, 1]], deck=[5])
    play(s, "draw", "discard")
    window(s, s2="snap 1.2")                                      # wrong: the 6 is turned up
    play(s, "penalty")
    for seat in range(3):
        assert grid(s, 1, seat)[1] == 6
    assert grid(s, 2) == [9, 9, 1, 1, s.view(None)["grids"][2][4]]
    assert all(grid(s, 2, seat)[4] == "?" for seat in range(3))   # penalty card: unseen


# -- KO-12: Kombio -----------------------------------------------------------------------------


def test_ko12_everybody_else_has_exactly_one_more_turn():  # KO-12
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], deck=[5, 6], start=0)
    play(s, "draw", "discard")
    window(s)
    play(s, "kombio")                                             # seat 1 calls
    assert s.caller == 1 and s.view()["turns_left"] == 2 and s.active == 2
    assert "kombio" not in s.legal()                              # at most one call
    refused(s, "kombio", "already called")
    play(s, "draw", "discard")
    assert window(s) == [2, 0]                                    # the caller cannot snap
    assert s.active == 0 and s.view()["turns_left"] == 1
    play(s, "take 1")
    window(s)
    assert s.round_no == 2 and len(s.round_scores) == 1           # round over


def test_ko12_the_callers_cards_are_taboo():  # KO-12
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], deck=[14, 2, 11])
    play(s, "kombio")
    play(s, "draw", "discard")                                    # seat 1: a 14
    assert not any(" 0." in t for t in s.legal())
    refused(s, "peek 0.1 1.1", "taboo")
    play(s, "skip")
    refused(s, "snap 0.1", "taboo", "KO-12")
    assert s.legal() == ["pass", "snap 1.1", "snap 1.2", "snap 1.3", "snap 1.4",
                         "snap 2.1", "snap 2.2", "snap 2.3", "snap 2.4"]
    window(s)
    play(s, "draw", "discard")                                    # seat 2: a 2, window
    assert window(s) == [2, 1]


def test_ko12_two_players_the_callers_cards_are_not_taboo():  # KO-12
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2]], deck=[9, 2])
    play(s, "kombio", "draw", "discard")                          # seat 1: a 9
    assert "peek 0.1" in s.legal()
    play(s, "peek 0.1")
    assert window(s) == [1, 0]                                    # the caller may snap
    assert s.round_no == 2


# -- KO-13: an empty grid ends the round -------------------------------------------------------


def _three_own_snaps():
    """2 players; seat 0 snaps its own 1, 2 and 3 in three turns: one card left, a 9."""
    s = deal_game([[1, 2, 3, 9], [7, 8, 8, 8]], deck=[1, 2, 3, 7])
    for slot in (1, 2, 3):
        play(s, "draw", "discard")
        window(s, s0=f"snap 0.{slot}")
    assert grid(s, 0) == [None, None, None, 9] and s.active == 1
    play(s, "draw", "discard", "skip")                            # seat 1 discards a 7
    return s


def test_ko13_the_round_ends_at_once_when_a_grid_is_empty():  # KO-13, KO-15
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[1, 2, 3, 4])
    for slot in (1, 2, 3, 4):
        play(s, "draw", "discard")
        window(s, s0=f"snap 0.{slot}")
    assert s.round_no == 2 and s.round_scores == [[0, 26]]


def test_ko13_after_a_right_snap_on_anothers_card_the_give_comes_first():  # KO-13, KO-8
    s = _three_own_snaps()
    window(s, s0="snap 1.1")                                      # seat 0's last card is a 9
    assert s.awaiting == "give" and s.round_no == 1 and s.legal() == ["give 4"]
    play(s, "give 4")
    assert s.round_no == 2 and s.round_scores == [[0, 9 + 8 + 8 + 8]]


def test_ko13_handing_over_the_last_card_ends_the_round():  # KO-13, KO-8
    s = _three_own_snaps()
    window(s, s1="snap 0.4")                                      # wrong: a 9 is not a 7
    play(s, "hand-over")
    assert s.round_no == 2 and s.round_scores == [[0, 7 + 8 + 8 + 8 + 9]]


# -- KO-14: an empty deck ----------------------------------------------------------------------


def test_ko14_the_discard_pile_but_its_top_card_is_reshuffled():  # KO-14
    s = new_game(players=2, seed=9)
    while s.deck:
        play(s, "draw", "discard")
        if s.awaiting == "action":
            play(s, "skip")
        window(s)
    assert s.view()["discard"] == 62 and "draw" in s.legal()
    top = s.view()["top"]
    play(s, "draw")
    v = s.view(None)
    assert v["deck"] == 60 and v["discard"] == 1 and v["top"] == top
    # reshuffled cards are face down again: nobody can follow them any more
    assert not s.public & sum(1 << c for c in s.deck)
    again = new_game(players=2, seed=9)
    play(again, *s.history)
    assert again.deck == s.deck                                   # seeded


def test_ko14_no_penalty_card_when_deck_and_pile_are_used_up():  # KO-14
    s = new_game(players=2, seed=2)
    play(s, "draw", "discard")
    if s.awaiting == "action":
        play(s, "skip")
    window(s)

    def wrong_own_snap():
        me = s.active
        top = s.view()["top"]
        g = s.view(None)["grids"][me]
        slot = next(i for i, v in enumerate(g, 1) if v is not None and v != top)
        window(s, **{f"s{me}": f"snap {me}.{slot}"})

    while s.deck:                                                 # each turn: deck - 1
        n = s.counts[s.active]
        play(s, "take 1")
        wrong_own_snap()
        assert s.counts[1 - s.active] == n + 1
    assert s.view()["discard"] == 1 and "draw" not in s.legal()
    refused(s, "draw", "nothing to reshuffle", "KO-14")
    n = s.counts[s.active]
    play(s, "take 1")
    wrong_own_snap()
    assert s.counts[1 - s.active] == n                            # no penalty card


def test_ko14_a_player_with_no_legal_turn_decision_is_skipped():  # KO-14
    # Not reachable in play (a snapped top card always lies on another card, and the pile is
    # cut to one card only by a reshuffle, in a draw or for a penalty after a wrong snap, when
    # the top card may be taken), so the position is built by hand, conserving the cards.
    s = new_game(players=3, seed=1, target=10**6)
    while len(s.deck) > 1:
        s._add_card(2, s.deck.pop())
    c = s.deck.pop()
    s.discard.append(c)
    s.public |= 1 << c
    s.top_snapped = True
    s.check_invariants()
    assert s.legal() == ["kombio"]
    play(s, "kombio")                                             # seats 1 and 2 are skipped
    assert s.round_no == 2 and len(s.round_scores) == 1


# -- KO-15: scoring ----------------------------------------------------------------------------


def _call_at_once(grids, deck):
    """Seat 0 calls at once; the others draw and discard a plain card; nobody snaps."""
    s = deal_game(grids, deck=deck)
    play(s, "kombio")
    for _ in range(len(grids) - 1):
        play(s, "draw", "discard")
        window(s)
    assert s.round_no == 2
    return s.round_scores[0]


def test_ko15_the_caller_alone_lowest_the_others_add_10():  # KO-15
    assert _call_at_once([[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], [5, 6]) == [4, 18, 22]


def test_ko15_the_caller_not_alone_lowest_adds_15():  # KO-15
    assert _call_at_once([[2, 2, 1, 3], [2, 2, 1, 3], [4, 4, 4, 4]], [5, 6]) == [23, 8, 16]
    assert _call_at_once([[9, 9, 9, 9], [2, 2, 2, 2], [3, 3, 3, 3]], [5, 6]) == [51, 8, 12]


def test_ko15_without_a_call_everybody_scores_their_sum_an_empty_grid_0():  # KO-15, KO-13
    s = deal_game([[1, 2, 3, 4], [5, -1, 7, 14]], deck=[1, 2, 3, 4])
    for slot in (1, 2, 3, 4):
        play(s, "draw", "discard")
        window(s, s0=f"snap 0.{slot}")
    assert s.round_scores == [[0, 25]]


def test_ko15_a_player_with_no_cards_scores_0_not_10():  # KO-15 interpretation, KO-13
    s = deal_game([[-1, -1, -1, 0], [1, 2, 3, 4], [5, 6, 5, 6]], deck=[1, 2, 3, 4])
    for slot in (1, 2, 3):                                        # seat 1 snaps 3 own cards
        play(s, "draw", "discard")
        window(s, s1=f"snap 1.{slot}")
    assert s.active == 0
    play(s, "kombio", "draw", "discard")                          # seat 1 discards a 4
    window(s, s1="snap 1.4")                                      # its last card
    assert s.round_no == 2                                        # at once: seat 2 no turn
    assert s.round_scores == [[-3, 0, 22 + 10]]


# -- KO-16: the end of the game ----------------------------------------------------------------


def test_ko16_lowest_total_wins_ties_go_to_the_lower_last_round_score():  # KO-16
    deals = [{"grids": [[-1, 1, 0, 0], [1, 2, 3, 4]], "deck": [5]},
             {"grids": [[3, 4, 4, 4], [-1, 2, 2, 2]], "deck": [6]}]
    s = new_game(players=2, deals=deals, target=25)
    play(s, "kombio", "draw", "discard")
    window(s)
    assert s.round_scores == [[0, 20]] and not s.over
    play(s, "kombio", "draw", "discard")                          # round 2: seat 1 starts
    window(s)
    assert s.round_scores == [[0, 20], [25, 5]] and s.totals == [25, 25]
    assert s.over and s.winners() == [1] and s.scores() == [25, 25]
    v = s.view(0)
    assert v["to_move"] is None and v["awaiting"] is None and v["legal"] == []
    assert v["grids"] == s.view(None)["grids"]                    # KO-15: all revealed
    assert v["winners"] == [1]


def test_ko16_still_tied_all_of_them_win():  # KO-16 interpretation
    s = deal_game([[1, 1, 1, 1], [2, 2, 0, 0], [5, 5, 5, 5]], deck=[6], target=1,
                  options={"max_turns": 1})
    play(s, "draw", "discard")
    window(s)
    assert s.round_scores == [[4, 4, 20]] and s.over and s.winners() == [0, 1]


def test_ko16_the_game_ends_only_after_the_round():  # KO-16
    s = new_game(players=3, seed=8, target=30)
    while not s.over:
        call_round(s)
        assert (max(s.totals) >= 30) == s.over
    assert s.legal_decisions() == [] and s.to_move is None
