"""Decisions as JSON (docs/notation.md "Decisions as JSON", issue 30): for every legal decision
in seeded random games of every configuration of both games, `decision_json` gives the
notation's text, the kind the engine's parser reads, and arguments that describe the same
decision: the notation rebuilt from kind and arguments alone (below, written from the docs, not
from the engines) is the text again. Clients read these instead of parsing the notation."""

from __future__ import annotations

import json
import random

import pytest

from cardtable import new_game
from cardtable.core.game import Decision, GameState

from test_properties import ABLUXXEN, KOMBIO

GAMES_PER_CONFIG = 4


def ab_card(c) -> str:
    assert c == "X" or (type(c) is int and 1 <= c <= 13), c
    return str(c)


def ab_text(kind: str, args: dict, seat: int) -> str:
    """Abluxxen's notation from a decision's JSON (cards as in views)."""
    if kind == "play":
        assert set(args) == {"cards"} and args["cards"]
        return "play " + " ".join(ab_card(c) for c in args["cards"])
    if kind == "shadow":
        assert set(args) == {"value"} and type(args["value"]) is int
        return f"shadow {args['value']}"
    if kind == "draw":
        if args["from"] == "deck":
            assert args == {"from": "deck"}
            return "draw deck"
        assert set(args) == {"from", "cards"} and args["from"] == "pool" and args["cards"]
        return "draw pool " + "+".join(ab_card(c) for c in args["cards"])
    assert args == {}, (kind, args)
    return kind


def ko_text(kind: str, args: dict, seat: int) -> str:
    """Kombio's notation from a decision's JSON: positions as {seat, slot}; an own-slot
    decision names the deciding seat's card."""
    cards = args["cards"]
    assert all(set(c) == {"seat", "slot"} and type(c["seat"]) is int and type(c["slot"]) is int
               and c["slot"] >= 1 for c in cards), cards
    if "slot" in args:
        assert set(args) == {"slot", "cards"} and cards == [{"seat": seat, "slot": args["slot"]}]
        return f"{kind} {args['slot']}"
    assert set(args) == {"cards"}
    return " ".join([kind] + [f"{c['seat']}.{c['slot']}" for c in cards])


def check_all_legal(state: GameState, rebuild, kinds: dict) -> None:
    seat = state.to_move
    legal = state.legal_decisions()
    for d in legal:
        j = state.decision_json(d.text, seat)
        assert set(j) == {"text", "kind", "args"}
        assert j["text"] == d.text
        assert j["kind"] == state.parse(d.text).kind == d.kind
        assert json.loads(json.dumps(j)) == j, "not plain JSON"
        assert rebuild(j["kind"], j["args"], seat) == d.text, j
        # the same from the Decision, and for the seat to move by default
        assert state.decision_json(d) == j
        kinds[j["kind"]] = kinds.get(j["kind"], 0) + 1
    # two legal decisions never look alike (kind and args tell them apart)
    keys = {json.dumps([j["kind"], j["args"]], sort_keys=True)
            for j in (state.decision_json(d) for d in legal)}
    assert len(keys) == len(legal)


def walk(state: GameState, seed: int, rebuild, kinds: dict) -> None:
    rnd = random.Random(seed)
    while not state.over:
        check_all_legal(state, rebuild, kinds)
        # a kind at random, then a decision of it: every kind comes up (Kombio's actions, not
        # only the many `replace S`); a Kombio call now and then only, so rounds run long
        by_kind: dict[str, list] = {}
        for d in state.legal_decisions():
            by_kind.setdefault(d.kind, []).append(d)
        if len(by_kind) > 1 and rnd.random() < 0.97:
            by_kind.pop("kombio", None)
        choice = by_kind[rnd.choice(sorted(by_kind))]
        state.apply(choice[rnd.randrange(len(choice))])


@pytest.mark.parametrize("variant,players,options", ABLUXXEN)
def test_abluxxen_decisions_as_json(variant, players, options):
    kinds: dict[str, int] = {}
    for g in range(GAMES_PER_CONFIG):
        seed = 31 * players + g
        walk(new_game("abluxxen", variant=variant, players=players, seed=seed,
                      start=seed % players, options=options), seed, ab_text, kinds)
    assert {"play", "draw"} <= set(kinds), kinds
    if variant == "duel":
        assert "shadow" in kinds


@pytest.mark.parametrize("players,target", KOMBIO)
def test_kombio_decisions_as_json(players, target):
    kinds: dict[str, int] = {}
    for g in range(GAMES_PER_CONFIG):
        seed = 53 * players + target + g
        walk(new_game("kombio", players=players, seed=seed, start=seed % players,
                      target=target), seed, ko_text, kinds)
    assert {"draw", "replace", "take", "peek", "swap", "snap", "pass"} <= set(kinds), kinds


def test_the_examples_of_the_docs():
    ab = new_game("abluxxen", seed=1)
    assert ab.decision_json("play 7 7 X") == {"text": "play 7 7 X", "kind": "play",
                                              "args": {"cards": [7, 7, "X"]}}
    assert ab.decision_json("play  x x") == {"text": "play X X", "kind": "play",
                                             "args": {"cards": ["X", "X"]}}
    assert ab.decision_json("shadow 5")["args"] == {"value": 5}
    assert ab.decision_json("draw deck")["args"] == {"from": "deck"}
    assert ab.decision_json("draw pool 3+13+X")["args"] == {"from": "pool",
                                                             "cards": [3, 13, "X"]}
    assert ab.decision_json("take") == {"text": "take", "kind": "take", "args": {}}
    ko = new_game("kombio", players=3, seed=1)
    assert ko.decision_json("replace 2", 1) == {
        "text": "replace 2", "kind": "replace",
        "args": {"slot": 2, "cards": [{"seat": 1, "slot": 2}]}}
    # a pair is given lower position first, as its canonical text
    assert ko.decision_json("swap 2.1 0.4", 0) == {
        "text": "swap 0.4 2.1", "kind": "swap",
        "args": {"cards": [{"seat": 0, "slot": 4}, {"seat": 2, "slot": 1}]}}
    assert ko.decision_json("snap 1.3", 2)["args"] == {"cards": [{"seat": 1, "slot": 3}]}
    assert ko.decision_json("hand-over", 0) == {"text": "hand-over", "kind": "hand-over",
                                                "args": {"cards": []}}


def test_the_default_of_a_game_that_names_no_arguments():
    class Bare(GameState):       # only what decision_json needs of the protocol
        legal_decisions = apply = view = copy = determinize = scores = winners = record = \
            history = check_invariants = None
        _to_move = 0

        def parse(self, text):
            return Decision(text.split()[0], tuple(int(x) for x in text.split()[1:]), text)

    s = Bare()
    assert s.decision_json("go") == {"text": "go", "kind": "go", "args": {}}
    assert s.decision_json("go 1 2") == {"text": "go 1 2", "kind": "go",
                                         "args": {"values": [1, 2]}}


def test_a_bad_text_is_refused_as_the_engine_refuses_it():
    from cardtable.core.errors import IllegalDecision

    for game, bad in (("abluxxen", "play 1 2"), ("kombio", "swap 1.1 1.1")):
        with pytest.raises(IllegalDecision):
            new_game(game).decision_json(bad)
