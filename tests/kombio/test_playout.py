"""Seeded random play-outs over 2..6 players (KO-1..KO-16 as a whole).

Two random policies: uniform over the legal decisions (short rounds: `kombio` is often
picked), and a "long" one that rarely calls, mostly draws and mostly passes in snap windows, so
rounds run long enough for reshuffles (KO-14), grown grids (KO-3) and emptied grids (KO-13).
After every step: the invariants (card conservation, knowledge), every legal decision applies
on a copy (and the original is untouched), the seat to move sees the same view in a
determinization, and at the end the record replays to the same state."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardtable.core import load_record
from cardtable.kombio import new_game

GAMES = 36          # per player count (x 5 counts = 180 games)


def _choose(state, legal, rnd: random.Random, long: bool):
    if long:
        if state.awaiting == "turn":
            r = rnd.random()
            if legal[-1].text == "kombio" and r < 0.02:
                return legal[-1]
            if legal[0].text == "draw" and r < 0.7:
                return legal[0]
            legal = [d for d in legal if d.text != "kombio"] or legal
        elif state.awaiting == "snap" and rnd.random() < 0.9:
            return legal[0]                                       # pass
    return legal[rnd.randrange(len(legal))]


def play_out(players: int, seed: int, stats: Counter) -> None:
    rnd = random.Random(seed)
    long = seed % 2 == 1
    s = new_game(players=players, seed=seed, start=seed % players, target=60 if long else 100)
    steps = 0
    while not s.over:
        steps += 1
        assert steps < 20_000, "the game does not end"
        s.check_invariants()
        legal = s.legal_decisions()
        texts = s.legal()
        assert legal and texts == sorted(d.text for d in legal) and len(set(texts)) == len(texts)
        seat = s.to_move
        before = s.view(None)
        for d in legal:                                           # every legal decision applies
            c = s.copy()
            c.apply(d)
            if steps % 5 == 0:
                c.check_invariants()
        assert s.view(None) == before, "applying to a copy changed the original"
        det = s.determinize(seat, seed=rnd.randrange(2**32))
        assert det.view(seat) == s.view(seat), "the view depends on hidden cards"
        if steps % 5 == 0:
            det.check_invariants()
        stats[s.awaiting] += 1
        if s.awaiting == "turn" and not s.deck:
            stats["deck empty at a turn"] += 1
        d = _choose(s, legal, rnd, long)
        s.apply(d if rnd.random() < 0.5 else d.text)
        if 0 in s.counts and not s.over:                          # only while a give is owed
            assert s.awaiting == "give"
    s.check_invariants()
    assert s.legal_decisions() == [] and s.to_move is None and s.awaiting is None
    assert max(s.totals) >= s.target and s.winners()
    stats["rounds"] += s.round_no
    rec = json.loads(json.dumps(s.record()))
    assert load_record(rec).view(None) == s.view(None), "the record does not replay"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts(players):  # KO-1..KO-16
    stats: Counter = Counter()
    for g in range(GAMES):
        play_out(players, 100 * players + g, stats)
    # the play-outs reached every decision point and the rarer situations
    for phase in ("turn", "drawn", "action", "action_swap", "snap", "give", "hand_over"):
        assert stats[phase] > 0, phase
    assert stats["deck empty at a turn"] > 0 and stats["rounds"] > GAMES
