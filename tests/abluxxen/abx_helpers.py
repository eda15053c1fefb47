"""Helpers for the Abluxxen scenario tests (not a test module).

Scenarios are built only through the public engine API: a (mostly complete) `deal` fixes the
cards, then the earlier turns are played through the engine to reach a position.
"""

from __future__ import annotations

import json
from collections import Counter

from cardtable import IllegalDecision, new_game

X = "X"
HAND = 13
VALUES = list(range(1, 14)) + [X]
COPIES = Counter({v: 8 for v in range(1, 14)})
COPIES[X] = 5

#: the order in which filler cards are handed out (one of each value per round)
FILLER_ORDER = [11, 10, 9, 8, 12, 4, 6, 2, 1, 3, 5, 7, 13, X]


def _key(c):
    return 14 if c == X else c


def sort_cards(cards):
    """Cards as the view shows them: numbers ascending, jokers last."""
    return sorted(cards, key=_key)


def leftover(*card_lists):
    """The multiset of cards not used by the given lists (groups in lists are flattened)."""
    used = Counter()
    for lst in card_lists:
        for c in lst:
            if isinstance(c, list):
                used.update(c)
            else:
                used[c] += 1
    left = COPIES.copy()
    left.subtract(used)
    assert all(n >= 0 for n in left.values()), f"deal uses too many cards: {left}"
    return left


def make_deal(hands, pool=(), deck=(), shadow=None, players=None, order=FILLER_ORDER,
              avoid=()):
    """A deal whose hands are completed to 13 cards with filler cards (taken round-robin in
    `order`, never a value in `avoid`) so that every hand is fixed. The pool is used as given
    (give all 6 items for full control); `deck` lists the top of the deck."""
    players = players or len(hands)
    hands = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    extra = [] if shadow is None else list(shadow)
    left = leftover(*hands, list(pool), list(deck), extra)
    cycle = [v for v in order if v not in avoid]
    for h in hands:
        i = stalls = 0
        while len(h) < HAND:
            v = cycle[i % len(cycle)]
            i += 1
            if left[v] > 0:
                left[v] -= 1
                h.append(v)
                stalls = 0
            else:
                stalls += 1
                if stalls > len(cycle):
                    raise AssertionError("not enough filler cards")
    deal = {"hands": hands, "pool": list(pool), "deck": list(deck)}
    if shadow is not None:
        deal["shadow"] = list(shadow)
    return deal


def snap(state):
    """Everything observable about a state (to show that a refused decision changed nothing)."""
    return json.dumps({"view": state.view(None), "history": list(state.history),
                       "to_move": state.to_move, "awaiting": state.awaiting,
                       "over": state.over}, sort_keys=True)


def run(state, decisions, check=True):
    """Apply decisions one by one, checking card conservation after each."""
    for d in decisions:
        state.apply(d)
        if check:
            state.check_invariants()
    return state


def top(view, seat):
    """The top layer of a seat's display in a view, or None."""
    d = view["displays"][seat]
    return d[-1] if d else None


def supply(state):
    """Cards left to draw: the deck plus the cards in the pool."""
    v = state.view(None)
    return v["deck"] + sum(len(item) for item in v["pool"])


def assert_refused(state, decision, *words):
    """`decision` raises IllegalDecision, its reason mentions `words`, nothing changes."""
    before = snap(state)
    try:
        state.apply(decision)
    except IllegalDecision as e:
        assert e.reason, "an IllegalDecision needs a reason"
        assert str(e.reason).strip()
        for w in words:
            assert w.lower() in e.reason.lower(), (w, e.reason)
        assert snap(state) == before, "a refused decision changed the state"
        state.check_invariants()
        return e
    raise AssertionError(f"{decision!r} was accepted")


def _free_singles(state, seat, reserved):
    hand = state.view(None)["hands"][seat]
    counts = Counter(hand)
    for c, n in Counter(reserved.get(seat, ())).items():
        counts[c] -= n
    return [c for c in sort_cards(counts) if counts[c] > 0]


def burn(state, target_supply, stop_seat=None, reserved=None, max_steps=5000):
    """Play on with single cards until the supply (deck + pool) is down to `target_supply`
    and (if given) `stop_seat` is to play. Cards in `reserved` ({seat: [cards]}) are never
    played. While the supply is above the target, abluxxed cards are taken and drawn for
    (one card per draw: only single cards are played) and optional draws are made; at the
    target, abluxxed cards are left and kept and optional draws passed, so the supply stays."""
    reserved = reserved or {}
    for _ in range(max_steps):
        assert not state.over, "the game ended while burning the supply"
        sup = supply(state)
        assert sup >= target_supply, "overshot the supply target"
        phase = state.awaiting
        seat = state.to_move
        if phase == "play" and sup == target_supply and (stop_seat is None or seat == stop_seat):
            return state
        if phase == "play":
            singles = _free_singles(state, seat, reserved)
            assert singles, f"seat {seat} has only reserved cards left"
            choice = None
            if sup > target_supply:      # prefer a play that abluxxes (its victim draws)
                for c in singles:
                    t = state.copy()
                    t.apply(f"play {c}")
                    if t.awaiting == "take":
                        choice = c
                        break
            if choice is None:
                choice = singles[0]
            state.apply(f"play {choice}")
        elif phase == "take":
            state.apply("take" if sup > target_supply else "leave")
        elif phase == "keep":
            state.apply("keep")
        elif phase == "shadow":
            state.apply(state.legal()[0])
        elif phase == "draw":
            state.apply("draw deck" if "draw deck" in state.legal() else state.legal()[0])
        elif phase == "optional_draw":
            if sup > target_supply:
                state.apply("draw deck" if "draw deck" in state.legal() else state.legal()[0])
            else:
                state.apply("pass")
        else:  # pragma: no cover
            raise AssertionError(phase)
        state.check_invariants()
    raise AssertionError("burn did not reach its target")


def finish_randomly(state, max_steps=20000):
    """Play a game to its end with the first legal decision each time."""
    for _ in range(max_steps):
        if state.over:
            return state
        state.apply(state.legal_decisions()[0])
    raise AssertionError("game did not end")


def game(variant="basic", players=4, **kw):
    return new_game("abluxxen", variant=variant, players=players, **kw)


def only_fives_twice(options=None):
    """A duel where seat 0 holds 7 7 and, in the shadow display, only the 5s (three of them)
    lie more than once: `play 7 7` shadowluxxes two 5s with `shadow_partial` on (DU-4's
    default) and nothing with the whole-stack reading."""
    deal = make_deal([[X, X, 7, 7], [X, X]], pool=[1, 2, 3, 10, 11, 12], deck=[4, 6, 8, 9],
                     shadow=[1, 2, 3, 4, 5, 5, 5, 6, 8, 9, 10, 11, 12], avoid=(5, 7, X))
    return game("duel", 2, seed=0, deal=deal, options=options)
