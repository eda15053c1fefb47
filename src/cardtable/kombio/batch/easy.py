"""The `easy` level compiled for the batched Kombio simulator (numba), and the helpers the
levels share (kombio/batch/policies.py says how the levels are checked): Kombio's `greedy`
(kombio/heuristics/greedy.py), rule for rule, its ties broken by the same draws in the same
order. It reads only what its seat has seen (its knowledge bits and the public ones), the
counts, the top discard card, the caller and the round's turn count, so the determinization the
Python bot is shown changes none of its choices.
"""

from __future__ import annotations

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.play import (
    ACTION, ACTION_SWAP, A_DISCARD, A_DRAW, A_HAND_OVER, A_KEEP, A_KOMBIO, A_PENALTY, A_SKIP,
    A_SWAP, DRAWN_P, GIVE, HAND_OVER, SNAP_P, TURN, legal_actions, pair_index)
from cardtable.kombio.batch.rules import (
    ACT, CALLER, CARDS, DISCARD, DISCARD_N, DRAWN, GRIDS, LENS, PEEKED, PHASE, R_BASE_PAIR,
    R_BASE_POS, R_K, R_N, R_P, R_Q, SLOTS, TABOO, TOP_SNAPPED, TO_MOVE, TURN_NO, VICTIM_P, VICTIM_S,
    seen, value_of)
from cardtable.rl.batch.rng import mt_below, mt_below_2_62, split_below

NONE = -100                 # an unseen card's value
KOMBIO_BASE = 5             # greedy.py
TAKE_MAX = 5
ACTION_MIN = 7              # KO-1
SNAP_OWN_MIN = 1
VALUES_N = 16               # card values -1..14 (KO-1)


@njit
def below(rs, i, mt, n):
    """As abluxxen/batch/policies.py `below`."""
    if mt.shape[0] > 0:
        return mt_below(mt, n)
    return split_below(rs, i, n)


@njit
def act_draw(mt):
    """`bots.act`'s `bot.rng.below(2**62)`, as abluxxen/batch/policies.py `act_draw`."""
    if mt.shape[0] > 0:
        mt_below_2_62(mt)


@njit
def card_seen(g, kn, me, p, slot):
    """The value at grid p's slot if `me` has seen that card, else NONE."""
    if slot < 0 or slot >= g[LENS + p]:
        return NONE
    c = g[GRIDS + p * SLOTS + slot]
    if c < 0 or not seen(kn, me, c):
        return NONE
    return value_of(c)


@njit
def expected(kn, me):
    """greedy.py `_expected`: the mean value of the cards `me` has not seen (KO-1)."""
    total = 0
    count = 0
    for c in range(CARDS):
        if not seen(kn, me, c):
            total += value_of(c)
            count += 1
    return total / count if count else 5.0


@njit
def pos_of(g, R, me, p, slot):
    """The codec's position id (relative seat, rank among the grid's cards) of grid p's slot
    from `me`'s view; -1 past max_cards."""
    n = R[R_N]
    K = R[R_K]
    c = 0
    for q in range(slot):
        if g[GRIDS + p * SLOTS + q] >= 0:
            c += 1
    if c >= K:
        return -1
    return ((p - me) % n) * K + c


@njit
def own_id(g, R, me, slot, base):
    """9 + base * K + rank: replace (0), take (1), give (2) of an own card (-1 past K)."""
    pos = pos_of(g, R, me, me, slot)
    return -1 if pos < 0 else 9 + base * R[R_K] + pos % R[R_K]


@njit
def pair_id(g, R, me, p1, s1, p2, s2, swap):
    a = pos_of(g, R, me, p1, s1)
    b = pos_of(g, R, me, p2, s2)
    if a < 0 or b < 0:
        return -1
    return R[R_BASE_PAIR] + (R[R_Q] if swap else 0) + pair_index(R[R_P], a, b)


@njit
def one_id(g, R, me, p, slot, k):
    """base_pos + k * P + pos: peek (0), snap (1), swap (2) one card (-1 past K)."""
    pos = pos_of(g, R, me, p, slot)
    return -1 if pos < 0 else R[R_BASE_POS] + k * R[R_P] + pos


@njit
def worst(g, kn, me, E, rs, i, mt):
    """greedy.py `_worst`: (slot, badness) of the own card with the highest badness (seen
    value, else E); ties by a draw among them in slot order."""
    best = -1e300
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0:
            v = card_seen(g, kn, me, me, slot)
            best = max(best, float(v) if v != NONE else E)
    ties = 0
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0:
            v = card_seen(g, kn, me, me, slot)
            if (float(v) if v != NONE else E) == best:
                ties += 1
    pick = below(rs, i, mt, ties)
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0:
            v = card_seen(g, kn, me, me, slot)
            if (float(v) if v != NONE else E) == best:
                if pick == 0:
                    return slot, best
                pick -= 1
    return -1, best


@njit
def others(g, kn, R, me, op, os, ov):
    """greedy.py `_others`: (seat, slot, seen value or NONE) of every card of another player
    that may be touched, the next seat first; returns how many."""
    n = R[R_N]
    m = 0
    for k in range(1, n):
        p = (me + k) % n
        if p == g[TABOO]:
            continue
        for slot in range(g[LENS + p]):
            if g[GRIDS + p * SLOTS + slot] >= 0:
                op[m] = p
                os[m] = slot
                ov[m] = card_seen(g, kn, me, p, slot)
                m += 1
    return m


@njit
def lowest_seen(op, os, ov, m):
    """The index of the lowest (value, seat, slot) among the seen cards of `others`; -1."""
    best = -1
    for j in range(m):
        if ov[j] == NONE:
            continue
        if best < 0 or (ov[j], op[j], os[j]) < (ov[best], op[best], os[best]):
            best = j
    return best


@njit
def pick_unseen(op, ov, m, seat, rs, i, mt):
    """A draw among the unseen cards of `others` (of grid `seat` only if >= 0); -1 if none."""
    k = 0
    for j in range(m):
        if ov[j] == NONE and (seat < 0 or op[j] == seat):
            k += 1
    if k == 0:
        return -1
    pick = below(rs, i, mt, k)
    for j in range(m):
        if ov[j] == NONE and (seat < 0 or op[j] == seat):
            if pick == 0:
                return j
            pick -= 1
    return -1


@njit
def pick_own_unseen(g, kn, me, rs, i, mt):
    k = 0
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0 and card_seen(g, kn, me, me, slot) == NONE:
            k += 1
    if k == 0:
        return -1
    pick = below(rs, i, mt, k)
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0 and card_seen(g, kn, me, me, slot) == NONE:
            if pick == 0:
                return slot
            pick -= 1
    return -1


@njit
def snap_own(g, kn, R, me, top, rs, i, mt):
    """The snap of an own card `me` has seen of value `top` (at least 1: SNAP_OWN_MIN, as
    greedy's "above 0"), drawn among them in slot order, as greedy.py and heuristic.py; -2 if
    there is none (no draw then)."""
    k = 0
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0:
            v = card_seen(g, kn, me, me, slot)
            if v == top and v >= SNAP_OWN_MIN:
                k += 1
    if k == 0:
        return -2
    pick = below(rs, i, mt, k)
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0:
            v = card_seen(g, kn, me, me, slot)
            if v == top and v >= SNAP_OWN_MIN:
                if pick == 0:
                    return one_id(g, R, me, me, slot, 1)
                pick -= 1
    return -2


@njit
def swap_after_14(g, kn, me):
    """After the double look of a 14 (KO-6), as greedy.py and heuristic.py
    (`mine_and_other`): swap when one card is `me`'s and the other another player's, both
    seen, the other lower; else keep."""
    p1 = g[PEEKED]
    s1 = g[PEEKED + 1]
    p2 = g[PEEKED + 2]
    s2 = g[PEEKED + 3]
    if p1 == p2:
        return A_KEEP
    if p2 == me:
        p1, s1, p2, s2 = p2, s2, p1, s1
    v_own = card_seen(g, kn, me, p1, s1)
    v_other = card_seen(g, kn, me, p2, s2)
    if p1 == me and v_own != NONE and v_other != NONE and v_other < v_own:
        return A_SWAP
    return A_KEEP


@njit
def _choose(g, kn, R, rs, i, mt, op, os, ov):
    """greedy.py `_choose` as a codec id (-1: none, or one the codec cannot name)."""
    me = g[TO_MOVE]
    n = R[R_N]
    phase = g[PHASE]
    if phase == SNAP_P:
        top = value_of(g[DISCARD + g[DISCARD_N] - 1])
        d = snap_own(g, kn, R, me, top, rs, i, mt)
        if d != -2:
            return d
        m = others(g, kn, R, me, op, os, ov)
        k = 0
        for j in range(m):
            if ov[j] == top:
                k += 1
        if k:
            pick = below(rs, i, mt, k)
            for j in range(m):
                if ov[j] == top:
                    if pick == 0:
                        return one_id(g, R, me, op[j], os[j], 1)
                    pick -= 1
        return 6                                                        # pass
    E = expected(kn, me)
    if phase == TURN:
        est = 0.0
        for slot in range(g[LENS + me]):
            if g[GRIDS + me * SLOTS + slot] >= 0:
                v = card_seen(g, kn, me, me, slot)
                est += float(v) if v != NONE else E
        if g[CALLER] < 0 and est <= KOMBIO_BASE + g[TURN_NO] // n:
            return A_KOMBIO
        if g[DISCARD_N] > 0 and g[TOP_SNAPPED] == 0:
            top = value_of(g[DISCARD + g[DISCARD_N] - 1])
            slot, bad = worst(g, kn, me, E, rs, i, mt)
            if top <= TAKE_MAX and top <= bad - 2:
                return own_id(g, R, me, slot, 1)
        return A_DRAW
    if phase == DRAWN_P:
        v = value_of(g[DRAWN])
        slot, bad = worst(g, kn, me, E, rs, i, mt)
        if v < bad and (v < ACTION_MIN or bad - v >= 3):
            return own_id(g, R, me, slot, 0)
        return A_DISCARD
    if phase == ACTION:
        act = g[ACT]
        m = others(g, kn, R, me, op, os, ov)
        if act <= 8:
            slot = pick_own_unseen(g, kn, me, rs, i, mt)
            return one_id(g, R, me, me, slot, 0) if slot >= 0 else A_SKIP
        if act <= 10:
            first = -1
            for j in range(m):
                if ov[j] == NONE:
                    first = op[j]
                    break
            if first < 0:
                return A_SKIP
            j = pick_unseen(op, ov, m, first, rs, i, mt)
            return one_id(g, R, me, op[j], os[j], 0)
        lo = lowest_seen(op, os, ov, m)
        if act <= 12:
            hv = NONE
            hs = -1
            for slot in range(g[LENS + me]):            # max((v, s)): ties, the last slot
                if g[GRIDS + me * SLOTS + slot] >= 0:
                    v = card_seen(g, kn, me, me, slot)
                    if v != NONE and v >= hv:
                        hv = v
                        hs = slot
            if hs < 0:
                return A_SKIP
            if hv >= 7 and lo >= 0 and ov[lo] <= hv - 3:
                return pair_id(g, R, me, me, hs, op[lo], os[lo], True)
            if hv >= 9:
                j = pick_unseen(op, ov, m, -1, rs, i, mt)
                if j >= 0:
                    return pair_id(g, R, me, me, hs, op[j], os[j], True)
            return A_SKIP
        if act == 13:
            slot = pick_own_unseen(g, kn, me, rs, i, mt)
            if slot >= 0:
                return one_id(g, R, me, me, slot, 0)
            j = pick_unseen(op, ov, m, -1, rs, i, mt)
            if j >= 0:
                return one_id(g, R, me, op[j], os[j], 0)
            return A_SKIP
        slot, bad = worst(g, kn, me, E, rs, i, mt)                     # 14
        if lo >= 0:
            j = lo
        else:
            j = pick_unseen(op, ov, m, -1, rs, i, mt)
            if j < 0:
                return A_SKIP
        return pair_id(g, R, me, me, slot, op[j], os[j], False)
    if phase == ACTION_SWAP:
        if g[ACT] == 14:
            return swap_after_14(g, kn, me)
        p = g[PEEKED]
        s = g[PEEKED + 1]
        v = card_seen(g, kn, me, p, s)
        if v == NONE:
            return A_KEEP
        m = others(g, kn, R, me, op, os, ov)
        if p == me:
            if v >= 8:
                lo = lowest_seen(op, os, ov, m)
                if lo >= 0 and ov[lo] < v:
                    return one_id(g, R, me, op[lo], os[lo], 2)
                j = pick_unseen(op, ov, m, -1, rs, i, mt)
                if j >= 0:
                    return one_id(g, R, me, op[j], os[j], 2)
            return A_KEEP
        slot, bad = worst(g, kn, me, E, rs, i, mt)
        if v <= bad - 3:
            return one_id(g, R, me, me, slot, 2)
        return A_KEEP
    if phase == GIVE:
        slot, bad = worst(g, kn, me, E, rs, i, mt)
        return own_id(g, R, me, slot, 2)
    if phase == HAND_OVER:
        c = g[GRIDS + g[VICTIM_P] * SLOTS + g[VICTIM_S]]
        return A_HAND_OVER if value_of(c) >= 5 else A_PENALTY
    return -1


@njit
def greedy(g, kn, R, rs, i, mt, buf, op, os, ov):
    """The `easy` level (kombio/heuristics/greedy.py) for the seat to move; `buf` (the
    codec's action count) and op/os/ov (rules.SEATS * rules.SLOTS) are scratch."""
    act_draw(mt)
    d = _choose(g, kn, R, rs, i, mt, op, os, ov)
    m = legal_actions(g, R, buf)
    for q in range(m):
        if buf[q] == d:
            return d
    return buf[below(rs, i, mt, m)]
