"""The bots' policies compiled for the batched Kombio simulator (numba): a level's decision for
the seat to move of one game (row `g`, knowledge `kn`: kombio/batch/rules.py), the same
decision the Python bot makes in the engine. Levels, the random numbers and how they are
checked are those of abluxxen/batch/policies.py: RANDOM (0) a uniformly random legal action;
EASY (1) the `easy` level, Kombio's `greedy` (kombio/heuristics/greedy.py), rule for rule,
its ties broken by the same draws in the same order; MEDIUM (2) the `medium` level, Kombio's
`heuristic` (kombio/heuristics/heuristic.py): its card counting, estimates and call chance
with the floats computed in the same order (C's pow and erf, as Python's), its draws (ties of
the worst card, a look at an own card, the `below(1000)` of each candidate card for a look at
another's) in the same order, and no draw where it makes none (a snap window without a card
it could snap, a single legal decision).

Greedy reads only what its seat has seen (its knowledge bits and the public ones), the counts,
the top discard card, the caller and the round's turn count, so the determinization the Python
bot is shown changes none of its choices. The heuristic reads that and, per card of another
player, whether its owner has seen it (that seat's knowledge bit; the determinization keeps
who knows which slot), the deck's size and the grids' counts: none of it changes either. Its
sums are Python 3.11's `sum` (a double added in order); Python 3.12's `sum` of floats
compensates its rounding, so there the call chance may differ in the last bit.
A choice the codec cannot name (a card past the `max_cards`-th of a grid) or that is not
legal falls back, as greedy does, to a random legal decision, here among the codec's ids,
which the codec lists in another order than the engine (so there, and in the RANDOM level,
the same draw picks another decision: rare for greedy and the heuristic, and
tests/rl/test_batch_policies.py's games never meet it).
"""

from __future__ import annotations

import math

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.play import (A_DISCARD, A_DRAW, A_HAND_OVER, A_KEEP, A_KOMBIO,
                                            A_PASS, A_PENALTY, A_SKIP, A_SWAP, ACTION,
                                            ACTION_SWAP,
                                            DRAWN_P, GIVE, HAND_OVER, SNAP_P, TURN, apply,
                                            legal_actions, pair_index)
from cardtable.kombio.batch.rules import (ACT, CALLER, CARDS, COUNTS, DECK_N, DISCARD,
                                             DISCARD_N, DRAWN,
                                             GRIDS, LENS, OVER, PEEKED, PHASE, R_BASE_PAIR,
                                             R_BASE_POS, R_K, R_N, R_P, R_Q, ROW, SEATS,
                                             SLOTS, TABOO, TO_MOVE, TOP_SNAPPED, TOTALS,
                                             TURN_NO, VICTIM_P, VICTIM_S, WIN, seen,
                                             deal_game, value_of)
from cardtable.rl.batch.rng import MT_WORDS, mt_below, mt_below_2_62, mt_seed, split_below

#: where the parameter array holds each seat's level (6 entries after rules.py's R_*)
R_BOTS = 7
AGENT = -1
RANDOM = 0
EASY = 1
MEDIUM = 2
LEVELS = {"random": RANDOM, "easy": EASY, "medium": MEDIUM}
NONE = -100                 # an unseen card's value
KOMBIO_BASE = 5             # greedy.py
TAKE_MAX = 5
ACTION_MIN = 7              # KO-1
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
SNAP_OWN_MIN = 1
LONG = 30
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
    greedy's scratch."""
    act_draw(mt)
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


@njit
def choose(level, g, kn, R, rs, i, mt, buf, op, os, ov):
    """The decision of `level` (RANDOM, EASY, MEDIUM) for the seat to move of game row `g`."""
    if level == EASY:
        return greedy(g, kn, R, rs, i, mt, buf, op, os, ov)
    if level == MEDIUM:
        return heuristic(g, kn, R, rs, i, mt, buf, op, os, ov)
    act_draw(mt)
    m = legal_actions(g, R, buf)
    return buf[below(rs, i, mt, m)]


@njit
def k_bot_playouts(R, seeds, bot_seeds, rs, mts, num_actions, totals, wins, decisions,
                   trace):
    """As abluxxen/batch/policies.py `k_bot_playouts`: whole games of the seats' levels
    (R[R_BOTS + seat]), with the bots' own Mersenne Twister streams when `mts` has width
    MT_WORDS (per game the final totals, winner flags, decisions and the first action ids)."""
    g = np.zeros(ROW, np.int16)
    kn = np.zeros((SEATS + 1, 2), np.uint64)
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(num_actions, np.int64)
    op = np.zeros(SEATS * SLOTS, np.int64)
    os = np.zeros(SEATS * SLOTS, np.int64)
    ov = np.zeros(SEATS * SLOTS, np.int64)
    n = R[R_N]
    width = trace.shape[1]
    for t in range(seeds.shape[0]):
        deal_game(g, kn, n, 0, seeds[t], mt, cards)
        if mts.shape[1] > 0:
            for s in range(n):
                mt_seed(mts[s], bot_seeds[t, s])
        d = 0
        while g[OVER] == 0:
            s = g[TO_MOVE]
            a = choose(R[R_BOTS + s], g, kn, R, rs, t, mts[s], buf, op, os, ov)
            apply(g, kn, R, mt, cards, a)
            if d < width:
                trace[t, d] = a
            d += 1
        for q in range(d, width):
            trace[t, q] = -1
        decisions[t] = d
        for s in range(n):
            totals[t, s] = g[TOTALS + s]
            wins[t, s] = g[WIN + s]


@njit
def opponents(g, kn, R, mt, cards, i, learner, rng, buf):
    """The seats but `learner` (or, with learner -1, the seats of a level, not AGENT) move
    by their levels until the learner's (an agent's) turn or the end of the game."""
    none = np.zeros(0, np.uint64)
    op = np.zeros(SEATS * SLOTS, np.int64)
    os = np.zeros(SEATS * SLOTS, np.int64)
    ov = np.zeros(SEATS * SLOTS, np.int64)
    while g[OVER] == 0 and g[TO_MOVE] != learner and R[R_BOTS + g[TO_MOVE]] != AGENT:
        apply(g, kn, R, mt, cards, choose(R[R_BOTS + g[TO_MOVE]], g, kn, R, rng, i, none, buf,
                                          op, os, ov))


@njit
def k_play_bots(S, KN, MT, R, rng, num_actions, ended):
    """As abluxxen/batch/policies.py `k_play_bots`."""
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(num_actions, np.int64)
    for i in range(S.shape[0]):
        ended[i] = False
        if S[i, OVER] == 0:
            opponents(S[i], KN[i], R, MT[i], cards, i, -1, rng, buf)
            ended[i] = S[i, OVER] != 0
