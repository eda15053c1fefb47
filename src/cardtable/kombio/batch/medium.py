"""The `medium` level compiled for the batched Kombio simulator (numba): Kombio's `heuristic`
(kombio/heuristics/heuristic.py), with its card counting, estimates and call chance, the floats
computed in the same order (C's pow and erf, as Python's), its draws (ties of the worst card, a
look at an own card, the `below(1000)` of each candidate card for a look at another's) in the
same order, and no draw where it makes none (a snap window without a card it could snap, a
single legal decision). kombio/batch/policies.py says how the levels are checked.

It reads what greedy reads and, per card of another player, whether its owner has seen it
(that seat's knowledge bit; the determinization keeps who knows which slot), the deck's size
and the grids' counts: none of it changes with the determinization. Its sums are Python 3.11's
`sum` (a double added in order); Python 3.12's `sum` of floats compensates its rounding, so
there the call chance may differ in the last bit.
"""

from __future__ import annotations

import math

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.play import (
    ACTION, ACTION_SWAP, A_DISCARD, A_DRAW, A_HAND_OVER, A_KEEP, A_KOMBIO, A_PASS, A_PENALTY,
    A_SKIP, DRAWN_P, GIVE, HAND_OVER, SNAP_P, TURN, legal_actions)
from cardtable.kombio.batch.rules import (
    ACT, CALLER, CARDS, COUNTS, DECK_N, DISCARD, DISCARD_N, DRAWN, GRIDS, LENS, PEEKED, PHASE, R_N,
    SEATS, SLOTS, TABOO, TOP_SNAPPED, TO_MOVE, TURN_NO, VICTIM_P, VICTIM_S, seen, value_of)
from cardtable.kombio.batch.easy import (
    ACTION_MIN, NONE, VALUES_N, act_draw, below, card_seen, one_id, own_id, pair_id,
    pick_own_unseen, snap_own, swap_after_14, worst)

#: heuristic.py's P (tests/rl/test_batch_policies.py checks that they are equal)
KNOW = 0.7
DELTA = 3.0
IMPROVE = 2.5
CALL_P = 0.65
VAR_KNOWN = 16.0
CALL_DECAY = 0.04
CALL_FLOOR = 0.25
PEEK_OWN = 1.5
PEEK_OTHER = 0.4
HURT = 0.3
HURT2 = 1.0
SWAP_MIN = 1.0
TAKE_MARGIN = 0.0
LONG = 30

# -- medium: kombio/heuristics/heuristic.py ---------------------------------------------------
@njit
def square(x):
    """Python's `x ** 2` (C's pow; LLVM would make a constant exponent 2.0 x * x, which
    differs from pow in the last bit for some x)."""
    return math.pow(x, 2.0 + 0.0 * x)


@njit
def counting(kn, me, cnt):
    """heuristic.py `_card_counting` of `me`'s seen cards: cnt[v + 1] the unseen copies of
    value v; returns (unseen cards, their mean E, their variance as KCtx.var)."""
    cnt[:] = 0
    for c in range(CARDS):
        if not seen(kn, me, c):
            cnt[value_of(c) + 1] += 1
    total = 0
    vsum = 0
    for j in range(VALUES_N):
        total += cnt[j]
        vsum += cnt[j] * (j - 1)
    E = vsum / total if total else 5.0
    if not total:
        return total, E, 16.0
    var = 0.0
    for j in range(VALUES_N):
        if cnt[j]:
            var += cnt[j] * square((j - 1) - E)
    return total, E, var / total


@njit
def scan(g, kn, R, me, E, op, os, ov, ok, est, unk, unkk):
    """KCtx._scan: (seat, slot, value seen by me or NONE, 1 if its owner has seen it) of every
    card of another player that may be touched, the next seat first (returns how many), and
    per other seat its estimated sum (`est`), its cards nobody has seen as far as `me` knows
    (`unk`) and those only its owner has seen (`unkk`)."""
    n = R[R_N]
    e_known = E - DELTA
    m = 0
    for k in range(1, n):
        p = (me + k) % n
        e = 0.0
        u = 0
        uk = 0
        touch = p != g[TABOO]
        for slot in range(g[LENS + p]):
            c = g[GRIDS + p * SLOTS + slot]
            if c < 0:
                continue
            knows = (kn[p, c >> 6] >> np.uint64(c & 63)) & np.uint64(1)
            if seen(kn, me, c):
                v = value_of(c)
                e += v
            else:
                v = NONE
                if knows:
                    uk += 1
                    e += e_known
                else:
                    u += 1
                    e += E
            if touch:
                op[m] = p
                os[m] = slot
                ov[m] = v
                ok[m] = 1 if knows else 0
                m += 1
        est[p] = e
        unk[p] = u
        unkk[p] = uk
    return m


@njit
def opp_value(E, ov, ok, j):
    """KCtx.opp_value of the j-th card of `scan`."""
    if ov[j] != NONE:
        return float(ov[j])
    return E - DELTA if ok[j] else E


@njit
def best_swap(g, kn, me, E, hurt, ov, ok, m):
    """KCtx._find_best_swap: (gain, own slot, index of the other card or -1)."""
    best = 0.0
    bs = 0
    bj = -1
    weight = 1.0 + hurt
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] < 0:
            continue
        v = card_seen(g, kn, me, me, slot)
        mine = float(v) if v != NONE else E
        for j in range(m):
            gain = (mine - opp_value(E, ov, ok, j)) * weight
            if gain > best:
                best = gain
                bs = slot
                bj = j
    return best, bs, bj


@njit
def action_values(g, kn, me, E, hurt, ov, ok, m, acts):
    """heuristic.py `_action_values` into acts[7..14] (the worth of each action card, KO-6);
    acts[..6] are 0.0."""
    called = g[CALLER] >= 0
    peek = PEEK_OWN if not called and own_unseen(g, kn, me) else 0.0
    other = False
    for j in range(m):
        if ov[j] == NONE:
            other = True
    swap = best_swap(g, kn, me, E, hurt, ov, ok, m)[0]
    used = swap if swap >= SWAP_MIN else 0.0
    both = max(swap, peek)
    acts[:] = 0.0
    acts[7] = acts[8] = peek
    acts[9] = acts[10] = PEEK_OTHER if not called and other else 0.0
    acts[11] = acts[12] = used
    acts[13] = both
    acts[14] = both + 0.5


@njit
def own_unseen(g, kn, me):
    """How many own cards `me` has not seen."""
    k = 0
    for slot in range(g[LENS + me]):
        if g[GRIDS + me * SLOTS + slot] >= 0 and card_seen(g, kn, me, me, slot) == NONE:
            k += 1
    return k


@njit
def target(E, ov, ok, m):
    """heuristic.py `_target`: the index of the other card with the lowest `opp_value` (the
    first of equal ones; -1 if none) and that value."""
    best = 0.0
    pick = -1
    for j in range(m):
        val = opp_value(E, ov, ok, j)
        if pick < 0 or val < best:
            best = val
            pick = j
    return pick, best


@njit
def _phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@njit
def _h_choose(g, kn, R, rs, i, mt, op, os, ov, ok, cnt, est, unk, unkk, acts):
    """heuristic.py `_h_choose` as a codec id (-1: none, or one the codec cannot name)."""
    me = g[TO_MOVE]
    n = R[R_N]
    phase = g[PHASE]
    hurt = HURT if n > 2 else HURT2
    called = g[CALLER] >= 0
    total, E, var = counting(kn, me, cnt)
    eb = E + KNOW                                   # KCtx.badness of an unseen own card
    m = scan(g, kn, R, me, E, op, os, ov, ok, est, unk, unkk)
    if phase == SNAP_P:
        top = value_of(g[DISCARD + g[DISCARD_N] - 1])
        d = snap_own(g, kn, R, me, top, rs, i, mt)
        if d != -2:
            return d
        bad = worst(g, kn, me, eb, rs, i, mt)[1]
        best = 0.0
        pick = -1
        for j in range(m):
            if ov[j] == top:
                val = bad - hurt * (top - bad)
                if val > best:
                    best = val
                    pick = j
        if pick >= 0:
            return one_id(g, R, me, op[pick], os[pick], 1)
        return A_PASS
    if phase == TURN:
        if not called:
            mine = 0.0
            unk_me = 0
            for slot in range(g[LENS + me]):
                if g[GRIDS + me * SLOTS + slot] >= 0:
                    v = card_seen(g, kn, me, me, slot)
                    if v != NONE:
                        mine += v
                    else:
                        mine += E
                        unk_me += 1
            chance = 1.0
            for k in range(1, n):
                o = (me + k) % n
                if g[COUNTS + o] == 0:
                    continue
                gap = est[o] - IMPROVE - mine - 0.5
                sd = math.sqrt(var * (unk_me + unk[o]) + VAR_KNOWN * unkk[o] + 1.0)
                chance *= _phi(gap / sd)
            bar = max(CALL_FLOOR, CALL_P - CALL_DECAY * g[TURN_NO] / n)
            if chance >= bar:
                return A_KOMBIO
            if g[TURN_NO] >= LONG * n:
                return A_KOMBIO
        slot, bad = worst(g, kn, me, eb, rs, i, mt)
        if g[DECK_N] > 0 or g[DISCARD_N] > 1:
            draw_gain = 0.0                                    # _draw_gain
            if total:
                action_values(g, kn, me, E, hurt, ov, ok, m, acts)
                for j in range(VALUES_N):
                    if cnt[j]:
                        v = j - 1
                        draw_gain += cnt[j] * max(0.0, bad - v, acts[v] if v >= 0 else 0.0)
                draw_gain = draw_gain / total
        else:
            draw_gain = -99.0
        if g[DISCARD_N] > 0 and g[TOP_SNAPPED] == 0:
            top = value_of(g[DISCARD + g[DISCARD_N] - 1])
            if bad - top > draw_gain + TAKE_MARGIN:
                return own_id(g, R, me, slot, 1)
        return A_DRAW
    if phase == DRAWN_P:
        x = value_of(g[DRAWN])
        slot, bad = worst(g, kn, me, eb, rs, i, mt)
        replace = bad - x
        use = 0.0
        if x >= ACTION_MIN:
            action_values(g, kn, me, E, hurt, ov, ok, m, acts)
            use = acts[x]
        if replace > 0 and replace >= use:
            return own_id(g, R, me, slot, 0)
        return A_DISCARD
    if phase == ACTION:
        act = g[ACT]
        unseen = own_unseen(g, kn, me)
        if act <= 8:
            if unseen and not called:
                return one_id(g, R, me, me, pick_own_unseen(g, kn, me, rs, i, mt), 0)
            return A_SKIP
        if act <= 10:
            if called:
                return A_SKIP
            # min over (est of the owner, not known to it, a draw, seat, slot)
            bj = -1
            bd = 0
            for j in range(m):
                if ov[j] != NONE:
                    continue
                d = below(rs, i, mt, 1000)
                if bj < 0:
                    better = True
                else:
                    a = est[op[j]]
                    b = est[op[bj]]
                    if a != b:
                        better = a < b
                    elif ok[j] != ok[bj]:
                        better = ok[j] > ok[bj]
                    elif d != bd:
                        better = d < bd
                    else:
                        better = (op[j], os[j]) < (op[bj], os[bj])
                if better:
                    bj = j
                    bd = d
            if bj < 0:
                return A_SKIP
            return one_id(g, R, me, op[bj], os[bj], 0)
        if act <= 12:
            gain, s, j = best_swap(g, kn, me, E, hurt, ov, ok, m)
            if gain >= SWAP_MIN:
                return pair_id(g, R, me, me, s, op[j], os[j], True)
            return A_SKIP
        slot = worst(g, kn, me, eb, rs, i, mt)[0]
        pick = target(E, ov, ok, m)[0]
        if act == 13:
            high = NONE
            for s in range(g[LENS + me]):
                if g[GRIDS + me * SLOTS + s] >= 0:
                    high = max(high, card_seen(g, kn, me, me, s))
            if unseen and not called and (high == NONE or high < 9):
                return one_id(g, R, me, me, pick_own_unseen(g, kn, me, rs, i, mt), 0)
            if pick >= 0:
                return one_id(g, R, me, op[pick], os[pick], 0)
            if unseen:
                return one_id(g, R, me, me, pick_own_unseen(g, kn, me, rs, i, mt), 0)
            return A_SKIP
        if pick < 0:                                                    # 14
            return A_SKIP
        return pair_id(g, R, me, me, slot, op[pick], os[pick], False)
    if phase == ACTION_SWAP:
        if g[ACT] == 14:
            return swap_after_14(g, kn, me)
        p = g[PEEKED]
        v = card_seen(g, kn, me, p, g[PEEKED + 1])
        if v == NONE:
            return A_KEEP
        if p == me:
            pick, val = target(E, ov, ok, m)
            if pick >= 0 and (v - val) * (1.0 + hurt) >= SWAP_MIN + 1.0:
                return one_id(g, R, me, op[pick], os[pick], 2)
            return A_KEEP
        slot, bad = worst(g, kn, me, eb, rs, i, mt)
        if (bad - v) * (1.0 + hurt) >= SWAP_MIN:
            return one_id(g, R, me, me, slot, 2)
        return A_KEEP
    if phase == GIVE:
        return own_id(g, R, me, worst(g, kn, me, eb, rs, i, mt)[0], 2)
    if phase == HAND_OVER:
        c = g[GRIDS + g[VICTIM_P] * SLOTS + g[VICTIM_S]]
        return A_HAND_OVER if value_of(c) > 0 else A_PENALTY
    return -1


@njit
def snap_candidates(g, kn, R, me):
    """heuristic.py `_snap_candidates`: has `me` seen a card (not in the taboo grid) of the top
    discard card's value?"""
    top = value_of(g[DISCARD + g[DISCARD_N] - 1])
    for p in range(R[R_N]):
        if p == g[TABOO]:
            continue
        for slot in range(g[LENS + p]):
            c = g[GRIDS + p * SLOTS + slot]
            if c >= 0 and value_of(c) == top and seen(kn, me, c):
                return True
    return False


@njit
def heuristic(g, kn, R, rs, i, mt, buf, op, os, ov):
    """The `medium` level (kombio/heuristics/heuristic.py) for the seat to move, with
    greedy's scratch: `bots.act`'s draw, then `decide`."""
    act_draw(mt)
    return decide(g, kn, R, rs, i, mt, buf, op, os, ov)


@njit
def decide(g, kn, R, rs, i, mt, buf, op, os, ov):
    """heuristic.py's `heuristic(state, rng)` itself (no `bots.act` draw before it): the
    decision the policy-rollout search's rollouts make for every seat."""
    if g[PHASE] == SNAP_P and not snap_candidates(g, kn, R, g[TO_MOVE]):
        return A_PASS
    ok = np.empty(SEATS * SLOTS, np.int64)
    cnt = np.empty(VALUES_N, np.int64)
    est = np.zeros(SEATS, np.float64)
    unk = np.zeros(SEATS, np.int64)
    unkk = np.zeros(SEATS, np.int64)
    m = legal_actions(g, R, buf)
    if m == 1 and g[PHASE] != DRAWN_P:
        return buf[0]
    acts = np.empty(15, np.float64)
    d = _h_choose(g, kn, R, rs, i, mt, op, os, ov, ok, cnt, est, unk, unkk, acts)
    for q in range(m):
        if buf[q] == d:
            return d
    return buf[below(rs, i, mt, m)]
