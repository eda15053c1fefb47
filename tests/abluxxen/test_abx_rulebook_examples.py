"""The rulebooks' worked examples, reproduced with fixed deals and played through the engine.

AMIGO 2022 (files 001, 003): Niko, Caro, Louis and Lisa sit clockwise in this order.
  Example with abluxxing: Niko plays three 7s; Caro's top layer has another count; Louis'
  3 3 X is abluxxed and taken, Louis draws two pool cards and one deck card, then refills the
  pool; Lisa's three cards are abluxxed, left, and Lisa keeps them.
  Example without abluxxing (the very next turn): Caro plays a single 13 - equal to Louis' 13,
  so not abluxxed; Lisa's and Niko's top layers have other counts; she draws the joker from the
  pool (AB-15).
Classic (file 004): Andi, Ben, Claudia and Daniel sit clockwise. Examples 1a, 1b, 2a, 2b.
"""

from __future__ import annotations

from abx_helpers import X, game, make_deal, run, snap, sort_cards, top

NIKO, CARO, LOUIS, LISA = 0, 1, 2, 3

AMIGO_HANDS = [
    [12, 7, 7, 7, 3, 3, 1, 1, 2, 4, 8, 10, 11],   # Niko: three 7s, already two 3s
    [9, 9, 5, 5, 13, 1, 2, 4, 8, 10, 11, 12, 6],  # Caro
    [13, 3, 3, X, 1, 2, 4, 8, 10, 11, 12, 6, 9],  # Louis
    [6, 6, 2, 2, 2, 1, 4, 8, 10, 11, 12, 9, 7],   # Lisa
]
AMIGO_POOL = [8, 10, X, 1, 4, 11]
AMIGO_DECK = [5, 1, 12, 9]

# The turns before the examples (Caro starts): they build the displays of the pictures.
AMIGO_PRELUDE = [
    "play 9 9", "pass",      # Caro
    "play 13", "pass",       # Louis: his 13 (under the 3 3 X)
    "play 6 6", "pass",      # Lisa
    "play 12", "pass",       # Niko
    "play 5 5", "pass",      # Caro: two cards, lower than 7
    "play 3 3 X", "pass",    # Louis
    "play 2 2 2", "pass",    # Lisa: three cards, lower than 7
]


def amigo_position():
    s = game("basic", 4, seed=0, start=CARO,
             deal={"hands": AMIGO_HANDS, "pool": AMIGO_POOL, "deck": AMIGO_DECK})
    s.check_invariants()
    return run(s, AMIGO_PRELUDE)


def test_amigo_example_position_before_niko_plays():  # AB-6 AB-16
    s = amigo_position()
    v = s.view(None)
    assert v["active"] == NIKO and v["to_move"] == NIKO and v["awaiting"] == "play"
    assert v["displays"] == [[[12]], [[9, 9], [5, 5]], [[13], [3, 3, X]], [[6, 6], [2, 2, 2]]]
    assert v["pool"] == [[c] for c in AMIGO_POOL]
    assert v["hands"][NIKO].count(3) == 2


def test_amigo_example_with_abluxxing():  # AB-8 AB-10 AB-11 AB-12 AB-16
    s = amigo_position()
    deck_before = s.view(None)["deck"]
    s.apply("play 7 7 7")
    s.check_invariants()
    v = s.view(None)
    # Caro (left neighbour) first: 7 > 5 but two cards vs three: not abluxxed. Louis next:
    # same count, higher value -> abluxxed; his 3 3 X has left his display already (AB-11).
    assert v["displays"][CARO] == [[9, 9], [5, 5]]
    assert v["pending"] == {"victim": LOUIS, "cards": [3, 3, X]}
    assert v["displays"][LOUIS] == [[13]]
    assert v["awaiting"] == "take" and v["to_move"] == NIKO
    assert v["legal"] == ["leave", "take"]
    # Lisa's turn to be checked has not come yet: her display is untouched (AB-10)
    assert v["displays"][LISA] == [[6, 6], [2, 2, 2]]

    s.apply("take")  # Niko takes the 3 3 X: he already holds two 3s
    s.check_invariants()
    v = s.view(None)
    assert v["hands"][NIKO] == [1, 1, 2, 3, 3, 3, 3, 4, 8, 10, 11, X]
    assert v["pending"] is None
    assert v["to_move"] == LOUIS and v["awaiting"] == "draw" and v["owed"] == 3
    assert v["active"] == NIKO

    louis_hand = list(v["hands"][LOUIS])
    # what each seat may see: Louis sees his own hand and his choices, Niko only a count
    lv = s.view(LOUIS)
    assert lv["hands"][LOUIS] == louis_hand and lv["hands"][NIKO] == 12
    assert lv["legal"] == v["legal"] and lv["owed"] == 3
    nv = s.view(NIKO)
    assert nv["hands"][LOUIS] == len(louis_hand) and nv["legal"] == []
    assert nv["displays"] == v["displays"] and nv["pool"] == v["pool"]
    s.apply("draw pool 8")          # two cards from the pool ...
    v = s.view(None)
    assert v["owed"] == 2 and len(v["pool"]) == 5   # ... no refill while drawing (AB-12)
    s.apply("draw pool 10")
    v = s.view(None)
    assert v["owed"] == 1 and len(v["pool"]) == 4 and v["deck"] == deck_before
    s.apply("draw deck")            # ... and one from the deck; then the pool is refilled
    s.check_invariants()
    v = s.view(None)
    assert sorted(v["hands"][LOUIS]) == sorted(louis_hand + [8, 10, 5])
    assert v["pool"] == [[X], [1], [4], [11], [1], [12]]
    assert v["deck"] == deck_before - 3

    # Lisa: same count, higher value -> abluxxed too; Niko leaves the cards, Lisa keeps them.
    assert v["pending"] == {"victim": LISA, "cards": [2, 2, 2]}
    assert v["displays"][LISA] == [[6, 6]]
    assert v["to_move"] == NIKO and v["awaiting"] == "take"
    s.apply("leave")
    v = s.view(None)
    assert v["to_move"] == LISA and v["awaiting"] == "keep" and v["legal"] == ["discard", "keep"]
    lisa_hand = list(v["hands"][LISA])
    s.apply("keep")
    s.check_invariants()
    v = s.view(None)
    assert sorted(v["hands"][LISA]) == sorted(lisa_hand + [2, 2, 2])
    assert v["discard"] == 0 and v["pool"] == [[X], [1], [4], [11], [1], [12]]
    # Niko abluxxed, so no optional draw: Caro (his left neighbour) is next
    assert v["active"] == CARO and v["to_move"] == CARO and v["awaiting"] == "play"
    assert v["displays"] == [[[12], [7, 7, 7]], [[9, 9], [5, 5]], [[13]], [[6, 6]]]


def amigo_after_example_1():
    return run(amigo_position(), ["play 7 7 7", "take", "draw pool 8", "draw pool 10",
                                  "draw deck", "leave", "keep"])


def test_amigo_example_without_abluxxing():  # AB-9 AB-15 AB-16
    s = amigo_after_example_1()
    s.apply("play 13")
    s.check_invariants()
    v = s.view(None)
    # Louis' 13 is equal, not higher; Lisa's 6 6 and Niko's 7 7 7 have other counts
    assert v["displays"][LOUIS] == [[13]]
    assert v["displays"][LISA] == [[6, 6]]
    assert v["displays"][NIKO] == [[12], [7, 7, 7]]
    assert v["displays"][CARO] == [[9, 9], [5, 5], [13]]
    assert v["pending"] is None
    # Caro abluxxed nobody: she may draw one card or end her turn (AB-15)
    assert v["awaiting"] == "optional_draw" and v["to_move"] == CARO
    assert "pass" in v["legal"] and "draw pool X" in v["legal"] and "draw deck" in v["legal"]
    caro_hand = list(v["hands"][CARO])
    deck = v["deck"]
    s.apply("draw pool X")          # she picks the joker
    s.check_invariants()
    v = s.view(None)
    assert v["hands"][CARO] == sort_cards(caro_hand + [X])
    assert v["pool"] == [[1], [4], [11], [1], [12], [9]]   # refilled after the draw
    assert len(v["pool"]) == 6 and v["deck"] == deck - 1   # refilled after the draw
    assert v["active"] == LOUIS and v["to_move"] == LOUIS and v["awaiting"] == "play"


def test_amigo_example_without_abluxxing_pass():  # AB-15
    s = amigo_after_example_1()
    s.apply("play 13")
    before = s.view(None)
    s.apply("pass")
    v = s.view(None)
    assert v["hands"] == before["hands"] and v["pool"] == before["pool"]
    assert v["deck"] == before["deck"]
    assert v["active"] == LOUIS and v["awaiting"] == "play"


# -- classic (Ravensburger) ------------------------------------------------------------------
ANDI, BEN, CLAUDIA, DANIEL = 0, 1, 2, 3


def classic_deal():
    return make_deal([
        [7, 7, 6, 6, 6, X, 12, 12],      # Andi: two 7s, three 6s, a joker, two 12s
        [10, 10, 3, 13],                 # Ben
        [8, 8, 8, 9, 9],                 # Claudia
        [5, 7, 7],                       # Daniel
    ], pool=[1, 2, 4, 11, 1, 2], deck=[4, 11, 1, 2, 4, 11],
        avoid=(6, 7, 12, 13, X))


def classic_game():
    s = game("classic", 4, seed=3, start=ANDI, deal=classic_deal())
    s.check_invariants()
    return s


def test_classic_example_1a_free_choice_of_set():  # AB-5 CL-1
    s = classic_game()
    legal = s.legal()
    # Andi may lay one of his two 7s, or both, or up to three 6s (with or without the joker)
    for d in ("play 7", "play 7 7", "play 6", "play 6 6", "play 6 6 6", "play 6 6 6 X",
              "play 7 7 X", "play X"):
        assert d in legal
    assert "play 7 7 7" not in legal and "play 6 6 6 6" not in legal
    assert "play 6 7" not in legal


CLASSIC_ROUNDS_1_2 = [
    "play 7",           # Andi, round 1: a 7
    "play 10 10",       # Ben
    "play 8 8 8",       # Claudia
    "play 5",           # Daniel: 5 < 7, nobody abluxxed
    "play 6 6 6 X",     # Andi, round 2: three 6s + joker
    "play 3",           # Ben: his 3 (3 < 5)
    "play 9 9",         # Claudia
    "play 7 7",         # Daniel: 7 7 < 9 9
]


def test_classic_example_1b_layers():  # AB-6 CL-2
    s = classic_game()
    for d in CLASSIC_ROUNDS_1_2:
        s.apply(d)
        s.check_invariants()
        # classic: nobody abluxxed, no draw; the turn passes on at once (CL-2)
        assert s.awaiting == "play"
    v = s.view(None)
    assert v["displays"][ANDI] == [[7], [6, 6, 6, X]]
    s.apply("play 12 12")   # round 3: two 12s (example 2a follows from here)
    assert s.view(None)["displays"][ANDI] == [[7], [6, 6, 6, X], [12, 12]]


def test_classic_example_2a_abluxxing():  # AB-8 AB-11 AB-12 CL-2
    s = run(classic_game(), CLASSIC_ROUNDS_1_2)
    v = s.view(None)
    assert top(v, BEN) == [3] and top(v, CLAUDIA) == [9, 9] and top(v, DANIEL) == [7, 7]
    s.apply("play 12 12")
    v = s.view(None)
    # 1: higher than Ben's 3 but not the same count: no abluxx. 2: Claudia's 9s: abluxxed.
    assert v["displays"][BEN] == [[10, 10], [3]]
    assert v["pending"] == {"victim": CLAUDIA, "cards": [9, 9]}
    assert v["displays"][CLAUDIA] == [[8, 8, 8]]
    s.apply("take")                       # Andi takes Claudia's 9s ...
    v = s.view(None)
    assert v["hands"][ANDI].count(9) >= 2
    assert v["to_move"] == CLAUDIA and v["owed"] == 2   # ... Claudia draws two cards
    s.apply("draw deck")
    s.apply("draw pool 1")
    s.check_invariants()
    v = s.view(None)
    assert len(v["pool"]) == 6
    # 3: Daniel's 7s: abluxxed; Andi does not want them, Daniel decides
    assert v["pending"] == {"victim": DANIEL, "cards": [7, 7]}
    assert v["displays"][DANIEL] == [[5]]
    s.apply("leave")
    assert s.to_move == DANIEL and s.legal() == ["discard", "keep"]


def classic_after_2a(daniel="keep"):
    s = run(classic_game(), CLASSIC_ROUNDS_1_2 + ["play 12 12", "take", "draw deck",
                                                   "draw pool 1", "leave"])
    if daniel == "keep":
        s.apply("keep")
    else:
        run(s, ["discard", "draw deck", "draw deck"])
    s.check_invariants()
    return s


def test_classic_example_2a_daniel_keeps_or_discards():  # AB-11 AB-12
    kept = classic_after_2a("keep")
    v = kept.view(None)
    assert v["hands"][DANIEL].count(7) == 2 and v["discard"] == 0
    assert v["active"] == BEN and v["awaiting"] == "play"
    disc = classic_after_2a("discard")
    w = disc.view(None)
    assert w["discard"] == 2 and w["hands"][DANIEL].count(7) == 0
    assert len(w["hands"][DANIEL]) == len(v["hands"][DANIEL])
    assert w["active"] == BEN and w["awaiting"] == "play"


def test_classic_example_2b_newly_exposed_layer():  # AB-11 AB-8
    s = classic_after_2a("keep")
    v = s.view(None)
    assert top(v, DANIEL) == [5] and top(v, CLAUDIA) == [8, 8, 8]
    assert top(v, ANDI) == [12, 12]
    s.apply("play 13")   # Ben's 13 abluxxes Daniel's now exposed 5
    v = s.view(None)
    # Claudia's (8 8 8) and Andi's (12 12): higher number but other count -> untouched
    assert v["displays"][CLAUDIA] == [[8, 8, 8]]
    assert v["displays"][ANDI] == [[7], [6, 6, 6, X], [12, 12]]
    assert v["pending"] == {"victim": DANIEL, "cards": [5]}
    assert v["displays"][DANIEL] == []
    s.apply("take")
    s.apply("draw deck")
    s.check_invariants()
    v = s.view(None)
    assert v["active"] == CLAUDIA and v["awaiting"] == "play"


def test_amigo_record_replays_to_same_view():  # AB-21
    from cardtable import load_record
    s = amigo_after_example_1()
    s.apply("play 13")
    s.apply("draw pool X")
    again = load_record(s.record())
    assert snap(again) == snap(s)
