"""Set-up (AB-1..AB-4, CL-1), configuration errors and impossible deals."""

from __future__ import annotations

from collections import Counter

import pytest

from abx_helpers import COPIES, VALUES, X, game, leftover, make_deal, snap
from cardtable import ConfigError, RecordError, load_record, new_game


def all_cards(view):
    """The cards visible in a full view (hands, displays, pool)."""
    c = Counter()
    for h in view["hands"]:
        c.update(h)
    for d in view["displays"]:
        for layer in d:
            c.update(layer)
    for item in view["pool"]:
        c.update(item)
    if view["shadow"]:
        for stack in view["shadow"]:
            c.update(stack)
    return c


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deck_has_109_cards(players):  # AB-1
    s = game("basic", players, seed=11)
    s.check_invariants()
    v = s.view(None)
    seen = all_cards(v)
    assert sum(seen.values()) + v["deck"] + v["discard"] == 109
    for card, n in seen.items():
        assert n <= COPIES[card]


def test_deck_composition_eight_of_each_number_five_jokers():  # AB-1
    # a deal may use every card the deck has, but not one more
    ok = make_deal([[1] * 8 + [X] * 5], players=4)
    game("basic", 4, deal=ok).check_invariants()
    with pytest.raises(RecordError):
        game("basic", 4, deal={"hands": [[7] * 8, [7]]})
    with pytest.raises(RecordError):
        game("basic", 4, deal={"hands": [[X] * 5], "pool": [X]})


def test_a_deal_of_every_card_is_possible():  # AB-1 AB-3
    deal = make_deal([[1, 2], [3], [], []], pool=[4, 5, 6, 7, 8, 9])
    rest = leftover(*deal["hands"], deal["pool"])
    deck = [c for c in VALUES for _ in range(rest[c])]
    assert len(deck) == 109 - 4 * 13 - 6
    deal["deck"] = deck
    s = game("basic", 4, deal=deal)
    s.check_invariants()
    assert s.view(None)["deck"] == 51
    deal["deck"] = deck + [1]
    with pytest.raises(RecordError):
        game("basic", 4, deal=deal)


@pytest.mark.parametrize("variant,players,ok", [
    ("basic", 2, False), ("basic", 3, True), ("basic", 5, True), ("basic", 6, False),
    ("advanced", 2, False), ("advanced", 3, True), ("advanced", 5, True), ("advanced", 6, False),
    ("expert", 2, False), ("expert", 3, True), ("expert", 5, True), ("expert", 6, False),
    ("duel", 1, False), ("duel", 2, True), ("duel", 3, False),
])
def test_player_counts(variant, players, ok):  # AB-2
    if ok:
        assert game(variant, players).players == players
    else:
        with pytest.raises(ConfigError):
            game(variant, players)


@pytest.mark.parametrize("players,ok", [(1, False), (2, True), (3, True), (4, True),
                                        (5, True), (6, False)])
def test_classic_player_counts(players, ok):  # CL-1 AB-2
    if ok:
        s = game("classic", players)
        v = s.view(None)
        # no duel set-up in the classic game: 13 cards each, no jokers dealt first, no shadow
        assert v["shadow"] is None
        assert all(len(h) == 13 for h in v["hands"])
        assert len(v["pool"]) == 6 and all(len(item) == 1 for item in v["pool"])
    else:
        with pytest.raises(ConfigError):
            game("classic", players)


def test_classic_two_players_is_not_the_duel():  # CL-1
    s = game("classic", 2, seed=3)
    v = s.view(None)
    assert v["shadow"] is None
    assert v["deck"] == 109 - 26 - 6
    s.apply(s.legal()[0])
    assert s.awaiting != "shadow"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup(players):  # AB-3
    s = game("basic", players, seed=2)
    v = s.view(None)
    assert [len(h) for h in v["hands"]] == [13] * players
    assert len(v["pool"]) == 6 and all(len(item) == 1 for item in v["pool"])
    assert v["deck"] == 109 - 13 * players - 6
    assert v["discard"] == 0
    assert v["displays"] == [[] for _ in range(players)]
    assert v["shadow"] is None and v["pending"] is None
    assert v["awaiting"] == "play" and not v["over"]
    assert v["scores"] is None and v["winners"] is None


def test_setup_is_seeded():  # AB-3
    a = game("basic", 4, seed=42).view(None)
    b = game("basic", 4, seed=42).view(None)
    c = game("basic", 4, seed=43).view(None)
    assert a == b
    assert a["hands"] != c["hands"] or a["pool"] != c["pool"]


def test_partial_deal_fills_from_the_shuffle():  # AB-3
    s = game("basic", 4, seed=9, deal={"hands": [[1, 2, 3]], "pool": [13], "deck": [5, 6]})
    s.check_invariants()
    v = s.view(None)
    assert all(len(h) == 13 for h in v["hands"])
    assert all(c in v["hands"][0] for c in (1, 2, 3))
    assert v["pool"][0] == [13] and len(v["pool"]) == 6
    # the listed deck cards lie on top: the first player draws the 5
    s.apply("play 1")
    assert s.awaiting == "optional_draw"
    s.apply("draw deck")
    assert Counter(s.view(None)["hands"][0]) - Counter(v["hands"][0]) == Counter([5])


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_start_seat(start):  # AB-4
    s = game("basic", 4, seed=1, start=start)
    assert s.to_move == start and s.view(None)["active"] == start


def test_start_seat_default_and_range():  # AB-4
    assert game("basic", 4).to_move == 0
    for bad in (4, -1, 9):
        with pytest.raises(ConfigError):
            game("basic", 4, start=bad)


def test_start_seat_classic():  # CL-1
    for start in range(3):
        assert game("classic", 3, start=start).to_move == start


@pytest.mark.parametrize("kwargs", [
    {"variant": "turbo"},
    {"variant": "basic", "players": 6},
    {"variant": "basic", "players": "4"},
    {"variant": "classic", "players": 1},
    {"variant": "duel", "players": 4},
    {"variant": "basic", "options": {"no_such_option": True}},
    {"variant": "basic", "options": {"optional_draw": "yes"}},
    {"variant": "basic", "options": {"shadow_partial": True}},   # a duel option
    {"variant": "basic", "start": 7},
    {"variant": "basic", "colour": "red"},
])
def test_bad_configuration_raises_config_error(kwargs):  # AB-2 AB-4
    with pytest.raises(ConfigError):
        new_game("abluxxen", **kwargs)


@pytest.mark.parametrize("variant,players,deal", [
    # a card used more often than the deck has it
    ("basic", 4, {"hands": [[5] * 5], "pool": [5, 5], "deck": [5, 5]}),
    ("basic", 4, {"hands": [[X, X, X], [X, X]], "deck": [X]}),
    # a hand over 13 cards
    ("basic", 4, {"hands": [[1] * 7 + [2] * 7]}),
    # a pool over 6 items
    ("basic", 4, {"pool": [1, 2, 3, 4, 5, 6, 7]}),
    # a shadow display holding a 13 or a joker, or over 13 cards
    ("duel", 2, {"shadow": [1, 2, 13]}),
    ("duel", 2, {"shadow": [1, X]}),
    ("duel", 2, {"shadow": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]}),
    # a shadow display or pool groups outside the duel
    ("basic", 4, {"shadow": [1, 2, 3]}),
    ("classic", 2, {"shadow": [1]}),
    ("basic", 4, {"pool": [[3, 13]]}),
    ("classic", 3, {"pool": [1, [2, X]]}),
    # not cards at all
    ("basic", 4, {"hands": [[0]]}),
    ("basic", 4, {"hands": [[14]]}),
    ("basic", 4, {"pool": ["Y"]}),
    # more hands than players
    ("basic", 3, {"hands": [[1], [2], [3], [4]]}),
    # a duel hand with no joker left for it (DU-1: 2 jokers each)
    ("duel", 2, {"pool": [X, X], "shadow": [], "deck": [X, X]}),
])
def test_impossible_deals_raise_record_error(variant, players, deal):  # AB-1 AB-3 DU-1 DU-2
    with pytest.raises(RecordError):
        game(variant, players, deal=deal)
    rec = {"game": "abluxxen", "variant": variant, "players": players, "deal": deal,
           "actions": []}
    with pytest.raises(RecordError):
        load_record(rec)


def test_record_with_bad_configuration_is_record_error():  # AB-2
    with pytest.raises(RecordError):
        load_record({"game": "abluxxen", "variant": "basic", "players": 7, "actions": []})
    with pytest.raises(RecordError):
        load_record({"game": "abluxxen", "variant": "speedy", "players": 4, "actions": []})


def test_record_round_trip():  # AB-3 AB-21
    s = game("basic", 4, seed=8, start=2)
    for _ in range(25):
        s.apply(s.legal_decisions()[0])
    again = load_record(s.record())
    assert snap(again) == snap(s)


def test_replay_of_illegal_action_is_replay_error():  # AB-21
    from cardtable.core import ReplayError
    deal = make_deal([[3, 3, 3], [6, 6, 6]], players=3, pool=[1, 2, 4, 5, 7, 8], deck=[9])
    rec = {"game": "abluxxen", "variant": "basic", "players": 3, "seed": 0, "deal": deal,
           "actions": ["play 3 3 3", "pass", "play 6 6 6", "keep"]}
    with pytest.raises(ReplayError) as info:
        load_record(rec)
    assert info.value.index == 3 and info.value.action == "keep" and info.value.reason
    rec["actions"][3] = "take"
    s = load_record(rec)
    assert s.to_move == 0 and s.view(None)["owed"] == 3
    assert load_record(rec, upto=2).to_move == 1
