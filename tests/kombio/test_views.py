"""The state as JSON (NOTATION.md), the knowledge model (KO-2, KO-6, KO-11), determinizations
and the decision notation."""

from __future__ import annotations

import json

import pytest

from cardtable.core.errors import IllegalDecision
from cardtable.kombio import new_game
from cardtable.kombio.cards import parse

from .helpers import deal_game, grid, play, refused, window

NOTATION_KEYS = {"game", "players", "round", "active", "to_move", "awaiting", "grids", "drawn",
                 "deck", "discard", "top", "caller", "round_scores", "totals", "legal", "over",
                 "winners"}


def test_view_has_the_notation_keys_and_is_json():  # KO-2
    s = new_game(players=3, seed=1)
    for seat in (None, 0, 1, 2):
        v = s.view(seat)
        assert NOTATION_KEYS <= set(v)
        assert json.loads(json.dumps(v)) == v
    v = s.view(None)
    assert v["game"] == "kombio" and v["round"] == 1 and v["awaiting"] == "turn"
    assert v["caller"] is None and v["round_scores"] == [] and v["totals"] == [0, 0, 0]
    assert v["over"] is False and v["winners"] is None and v["drawn"] is None
    assert v["legal"] == s.legal() == ["draw", "kombio"]
    assert s.view(1)["legal"] == [] and s.view(0)["legal"] == ["draw", "kombio"]
    with pytest.raises(ValueError):
        s.view(3)


def test_drawn_card_only_in_the_drawers_view():  # KO-5.1
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[12])
    play(s, "draw")
    assert s.view(0)["drawn"] == 12 and s.view(None)["drawn"] == 12 and s.view(1)["drawn"] is None
    assert s.view(1)["deck"] == 70 - 8 - 1
    det = s.determinize(1, seed=3)
    assert det.view(1) == s.view(1)
    assert any(s.determinize(1, seed=k).view(None)["drawn"] != 12 for k in range(10))
    assert all(s.determinize(0, seed=k).view(None)["drawn"] == 12 for k in range(10))


def test_determinize_redeals_what_the_seat_has_not_seen():  # KO-2, KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], deck=[13])
    play(s, "draw", "discard", "peek 1.1", "keep")                # seat 0 saw 5 at 1.1
    window(s)
    full = s.view(None)
    ones = set()
    for k in range(30):
        det = s.determinize(0, seed=k)
        det.check_invariants()
        assert det.view(0) == s.view(0)
        g = det.view(None)["grids"]
        assert g[0][2:] == [3, 4] and g[1][0] == 5 and det.view(None)["top"] == 13
        ones.add(g[0][0])
    assert len(ones) > 3                                          # own unseen slots re-dealt
    assert s.view(None) == full                                   # the original is untouched
    # another seat's knowledge stays attached to the slot it saw
    det = s.determinize(0, seed=1)
    assert [x != "?" for x in det.view(1)["grids"][1]] == [x != "?" for x in s.view(1)["grids"][1]]


def test_determinize_checks_the_seat():
    s = new_game()
    with pytest.raises(ValueError):
        s.determinize(4, seed=1)


def test_views_never_show_an_unseen_card():  # KO-2, KO-11
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[14, 3])
    play(s, "draw", "discard", "peek 0.1 1.1", "keep")
    assert grid(s, 0, 0) == [1, "?", 3, 4] and grid(s, 1, 0) == [5, "?", "?", "?"]
    assert grid(s, 0, 1) == ["?"] * 4 and grid(s, 1, 1) == ["?", "?", 7, 8]
    assert s.view(1)["peeked"] == [] and s.view(1)["top"] == 14


def test_peeked_cards_are_public_as_slots_not_values():  # KO-6
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[14])
    play(s, "draw", "discard", "peek 0.1 1.1")
    v = s.view(1)
    assert v["peeked"] == ["0.1", "1.1"] and v["action"] == 14
    assert v["grids"][0][0] == "?" and v["grids"][1][0] == "?"


def test_game_over_views_show_every_grid():  # KO-15
    s = new_game(players=2, seed=3, target=1)
    play(s, "kombio", "draw")
    while not s.over:
        s.apply(s.legal_decisions()[0])
    for seat in (0, 1):
        assert s.view(seat)["grids"] == s.view(None)["grids"]
    assert s.view(0)["scores"] == s.totals and s.view(0)["active"] is None


@pytest.mark.parametrize("text,reason", [
    ("", "empty"), ("   ", "empty"), ("fly away", "unknown decision"),
    ("replace 0", "not a slot"), ("take x", "not a slot"), ("give", "give S"),
    ("peek", "peek P.S"), ("peek 1", "seat.slot"), ("peek a.1", "not a seat"),
    ("peek 1.1 1.1", "two different"), ("snap 1.1 2.2", "snap P.S"), ("swap 1.1 2.2 3.3", "swap"),
    ("kombio now", "no arguments"), ("draw deck", "no arguments"), ("\x00", "unknown"),
    ("peek 1.0", "not a slot"), ("snap ١.١", "seat"),
])
def test_parse_refuses_malformed_text_with_a_reason(text, reason):
    with pytest.raises(IllegalDecision) as e:
        parse(text)
    assert reason in e.value.reason


def test_parse_normalizes():
    assert parse("  Swap   2.1  0.3 ").text == "swap 0.3 2.1"
    assert parse("HAND-OVER").text == "hand-over"
    assert parse("snap 01.3").text == "snap 1.3"
    assert parse("snap 1.99").args == (1, 99)
    assert parse(parse("draw")) is parse("draw")


def test_decisions_of_the_wrong_kind_are_refused_unchanged():
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], deck=[5, 9])
    refused(s, "pass", "'draw', 'take S' or 'kombio'")
    refused(s, "snap 0.1", "expected from seat 0")
    play(s, "draw")
    refused(s, "take 1", "'replace S' or 'discard'")
    refused(s, "replace 9", "no card in slot 9")
    play(s, "discard")
    refused(s, "snap 3.1", "no seat 3")
    refused(s, "snap 0.5", "no slot 5")
    refused(s, "give 1", "pass")
    window(s, s2="snap 1.2")                                      # wrong: seat 1 chooses
    refused(s, "give 1", "'hand-over' or 'penalty'", "expected from seat 1")
    assert s.is_legal("penalty") and not s.is_legal("give 1") and not s.is_legal("nonsense")
