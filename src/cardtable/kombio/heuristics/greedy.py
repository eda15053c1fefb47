"""The GreedyBot's rules (`greedy(state, rng)`): see the package docstring."""

from __future__ import annotations

from cardtable.core.game import Decision
from cardtable.core.rng import Rng
from cardtable.kombio import cards as C
from cardtable.kombio.cards import VALUE

KOMBIO_BASE = 5
TAKE_MAX = 5


def _expected(state, me: int) -> float:
    """Average value of the cards `me` has not seen (KO-1 card counting)."""
    seen = state.seen(me)
    vals = [VALUE[c] for c in range(C.N_CARDS) if not (seen >> c) & 1]
    return sum(vals) / len(vals) if vals else 5.0


def _own(state, me: int) -> list[tuple[int, int | None]]:
    return [(s, state.card_seen(me, me, s)) for s, c in enumerate(state.grids[me], 1) if c >= 0]


def _worst(own, E: float, rng: Rng) -> tuple[int, float]:
    """The own slot with the highest badness (seen value, or E if unseen); ties at random."""
    best = max((v if v is not None else E) for _, v in own)
    slots = [s for s, v in own if (v if v is not None else E) == best]
    return slots[rng.below(len(slots))], best


def _others(state, me: int) -> list[tuple[int, int, int | None]]:
    """(P, S, seen value or None) for every card of another player that may be touched."""
    out = []
    n = state.players
    for k in range(1, n):                       # the next seat first
        p = (me + k) % n
        if p == state.taboo:
            continue
        for s, c in enumerate(state.grids[p], 1):
            if c >= 0:
                out.append((p, s, state.card_seen(me, p, s)))
    return out


def _pick(items, rng: Rng):
    return items[rng.below(len(items))] if items else None


def greedy(state, rng: Rng) -> Decision:
    me = state.to_move
    legal = state.legal_decisions()
    d = _choose(state, me, rng)
    if d is not None and d in legal:
        return d
    return legal[rng.below(len(legal))]


def _choose(state, me: int, rng: Rng) -> Decision | None:
    phase = state.awaiting
    if phase == "snap":
        return _snap(state, me, rng)
    E = _expected(state, me)
    own = _own(state, me)
    if phase == "turn":
        est = sum(v if v is not None else E for _, v in own)
        if state.caller is None and est <= KOMBIO_BASE + state.turn_no // state.players:
            return C.KOMBIO
        if state.discard and not state.top_snapped:
            top = VALUE[state.discard[-1]]
            slot, bad = _worst(own, E, rng)
            if top <= TAKE_MAX and top <= bad - 2:
                return C.TAKE[slot]
        return C.DRAW
    if phase == "drawn":
        v = VALUE[state.drawn]
        slot, bad = _worst(own, E, rng)
        if v < bad and (v < C.ACTION_MIN or bad - v >= 3):
            return C.REPLACE[slot]
        return C.DISCARD
    if phase == "action":
        return _action(state, me, own, E, rng)
    if phase == "action_swap":
        return _action_swap(state, me, own, E, rng)
    if phase == "give":
        return C.GIVE[_worst(own, E, rng)[0]]
    if phase == "hand_over":
        value = state.snap_info[3]              # the turned-up card, seen by everyone
        return C.HAND_OVER if value >= 5 else C.PENALTY
    return None


def _snap(state, me: int, rng: Rng) -> Decision:
    top = VALUE[state.discard[-1]]
    mine = [s for s, v in _own(state, me) if v == top and v > 0]
    if mine:
        return C.SNAP[me][_pick(mine, rng)]
    theirs = [(p, s) for p, s, v in _others(state, me) if v == top]
    if theirs:
        p, s = _pick(theirs, rng)
        return C.SNAP[p][s]
    return C.PASS


def _action(state, me, own, E, rng) -> Decision:
    act = state.act
    others = _others(state, me)
    unseen_own = [s for s, v in own if v is None]
    unseen_other = [(p, s) for p, s, v in others if v is None]
    seen_other = sorted(((v, p, s) for p, s, v in others if v is not None))
    if act <= 8:
        s = _pick(unseen_own, rng)
        return C.PEEK[me][s] if s else C.SKIP
    if act <= 10:
        if not unseen_other:
            return C.SKIP
        first = unseen_other[0][0]              # the next seat first
        p, s = _pick([x for x in unseen_other if x[0] == first], rng)
        return C.PEEK[p][s]
    known_own = [(v, s) for s, v in own if v is not None]
    if act <= 12:
        if not known_own:
            return C.SKIP
        hv, hs = max(known_own)
        if hv >= 7 and seen_other and seen_other[0][0] <= hv - 3:
            _, p, s = seen_other[0]
            return C.pair("swap", me, hs, p, s)
        if hv >= 9 and unseen_other:
            p, s = _pick(unseen_other, rng)
            return C.pair("swap", me, hs, p, s)
        return C.SKIP
    if act == 13:
        if unseen_own:
            return C.PEEK[me][_pick(unseen_own, rng)]
        if unseen_other:
            p, s = _pick(unseen_other, rng)
            return C.PEEK[p][s]
        return C.SKIP
    # 14: the worst own card and another player's lowest seen (else an unseen) card
    slot, _ = _worst(own, E, rng)
    if seen_other:
        _, p, s = seen_other[0]
    elif unseen_other:
        p, s = _pick(unseen_other, rng)
    else:
        return C.SKIP
    return C.pair("peek", me, slot, p, s)


def _action_swap(state, me, own, E, rng) -> Decision:
    peeked = state.peeked
    if state.act == 14:
        (p1, s1), (p2, s2) = peeked
        if p1 == p2:
            return C.KEEP
        if p2 == me:
            p1, s1, p2, s2 = p2, s2, p1, s1
        v_own = state.card_seen(me, p1, s1)
        v_other = state.card_seen(me, p2, s2)
        if p1 == me and v_own is not None and v_other is not None and v_other < v_own:
            return C.SWAP
        return C.KEEP
    (p, s), = peeked
    v = state.card_seen(me, p, s)
    if v is None:
        return C.KEEP
    others = _others(state, me)
    if p == me:
        if v >= 8:
            seen_other = sorted((w, q, t) for q, t, w in others if w is not None)
            if seen_other and seen_other[0][0] < v:
                _, q, t = seen_other[0]
                return C.SWAP1[q][t]
            unseen_other = [(q, t) for q, t, w in others if w is None]
            if unseen_other:
                q, t = _pick(unseen_other, rng)
                return C.SWAP1[q][t]
        return C.KEEP
    slot, bad = _worst(own, E, rng)
    if v <= bad - 3:
        return C.SWAP1[me][slot]
    return C.KEEP
