"""Kombio's play for the batched simulator, compiled with numba: the legal action ids (the
codec's, kombio/codec.py) and applying one, following the engine (kombio/state.py) clause
by clause: turns (KO-5), actions (KO-6, KO-7, KO-11), the snap window with the engine's seeded
draw among several claims (KO-8..KO-10), calls (KO-12), the end of a round (KO-13, KO-15),
reshuffles (KO-14) and the next round or the end of the game (KO-4, KO-16).

Phases: 0 turn, 1 drawn, 2 action, 3 action_swap, 4 snap, 5 give, 6 hand_over (-1 over).
Actions ids: 0 draw, 1 discard, 2 kombio, 3 skip, 4 keep, 5 swap, 6 pass, 7 hand-over,
8 penalty; 9 + k*K + c replace / take / give own card c; base_pos + k*P + pos peek / snap /
swap pos; base_pair + (0 | Q) + i a peek / swap pair (pos = r*K + c, r the seat relative to
the deciding seat, c the card's rank among the grid's occupied slots).
"""

from __future__ import annotations

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.rules import (
    ACT, ACTIVE, ANSWERED, CALLER, CLAIMS, CLAIMS_N, COUNTS, DECK, DECK_N, DISCARD,
    DISCARD_N, DRAWN, ERR, GRIDS, LAST, LAST_SCORES, LENS, OVER, PEEKED, PHASE, R_BASE_PAIR,
    R_BASE_POS, R_K, R_N, R_P, R_Q, R_TARGET, SEATS, SLOTS, SNAP, SNAPPER, TABOO, TO_MOVE,
    TOP_SNAPPED, TOTALS, TURN_NO, TURNS_LEFT, VICTIM_P, VICTIM_S, WIN, forget, know, new_round,
    value_of,
)
from cardtable.rl.batch.rng import mt_below, mt_shuffle

TURN, DRAWN_P, ACTION, ACTION_SWAP, SNAP_P, GIVE, HAND_OVER = range(7)
A_DRAW, A_DISCARD, A_KOMBIO, A_SKIP, A_KEEP, A_SWAP, A_PASS, A_HAND_OVER, A_PENALTY = range(9)


# -- positions --------------------------------------------------------------------------------
@njit
def nth_slot(g, p, c):
    """The slot index of grid p's c-th card (-1 if it has fewer)."""
    k = 0
    for slot in range(g[LENS + p]):
        if g[GRIDS + p * SLOTS + slot] >= 0:
            if k == c:
                return slot
            k += 1
    return -1


@njit
def positions(g, R, me, excl_taboo, only, skip_seat, pos, ps, pslot):
    """The addressable cards (rank below K) of the grids, as the codec's pos ids relative to
    `me` with their (seat, slot index); without the taboo grid if `excl_taboo`; only grid
    `only` if >= 0; without grid `skip_seat` if >= 0. Returns how many."""
    n = R[R_N]
    K = R[R_K]
    m = 0
    for r in range(n):
        p = (me + r) % n
        if excl_taboo and p == g[TABOO]:
            continue
        if only >= 0 and p != only:
            continue
        if p == skip_seat:
            continue
        c = 0
        for slot in range(g[LENS + p]):
            if g[GRIDS + p * SLOTS + slot] >= 0:
                if c < K:
                    pos[m] = r * K + c
                    ps[m] = p
                    pslot[m] = slot
                    m += 1
                c += 1
    return m


@njit
def pair_index(P, a, b):
    if a > b:
        a, b = b, a
    return a * P - a * (a + 1) // 2 + (b - a - 1)


@njit
def legal_actions(g, R, buf):
    """The legal action ids of the seat to move (the codec's `legal`) into buf; their count."""
    n = R[R_N]
    K = R[R_K]
    P = R[R_P]
    Q = R[R_Q]
    bp = R[R_BASE_POS]
    bq = R[R_BASE_PAIR]
    me = g[TO_MOVE]
    phase = g[PHASE]
    m = 0
    pos = np.empty(SEATS * SLOTS, np.int64)
    ps = np.empty(SEATS * SLOTS, np.int64)
    pslot = np.empty(SEATS * SLOTS, np.int64)
    if phase == SNAP_P:                                                 # KO-8, KO-12
        buf[m] = A_PASS
        m += 1
        k = positions(g, R, me, True, -1, -1, pos, ps, pslot)
        for j in range(k):
            buf[m] = bp + P + pos[j]
            m += 1
    elif phase == TURN:                                                 # KO-5
        if g[DECK_N] > 0 or g[DISCARD_N] > 1:
            buf[m] = A_DRAW
            m += 1
        if g[DISCARD_N] > 0 and g[TOP_SNAPPED] == 0:
            for c in range(min(g[COUNTS + me], K)):
                buf[m] = 9 + K + c
                m += 1
        if g[CALLER] < 0:
            buf[m] = A_KOMBIO
            m += 1
    elif phase == DRAWN_P:
        for c in range(min(g[COUNTS + me], K)):
            buf[m] = 9 + c
            m += 1
        buf[m] = A_DISCARD
        m += 1
    elif phase == ACTION:                                               # KO-6
        act = g[ACT]
        if act <= 8:
            k = positions(g, R, me, True, me, -1, pos, ps, pslot)
        elif act <= 10:
            k = positions(g, R, me, True, -1, me, pos, ps, pslot)
        else:
            k = positions(g, R, me, True, -1, -1, pos, ps, pslot)
        if act <= 10 or act == 13:
            for j in range(k):
                buf[m] = bp + pos[j]
                m += 1
        else:
            off = bq + (0 if act == 14 else Q)
            for i in range(k):
                for j in range(i + 1, k):
                    buf[m] = off + pair_index(P, pos[i], pos[j])
                    m += 1
        buf[m] = A_SKIP
        m += 1
    elif phase == ACTION_SWAP:
        if g[ACT] == 13:
            k = positions(g, R, me, True, -1, -1, pos, ps, pslot)
            for j in range(k):
                if ps[j] == g[PEEKED] and pslot[j] == g[PEEKED + 1]:
                    continue
                buf[m] = bp + 2 * P + pos[j]
                m += 1
        else:
            buf[m] = A_SWAP
            m += 1
        buf[m] = A_KEEP
        m += 1
    elif phase == GIVE:
        for c in range(min(g[COUNTS + me], K)):
            buf[m] = 9 + 2 * K + c
            m += 1
    elif phase == HAND_OVER:
        buf[m] = A_HAND_OVER
        buf[m + 1] = A_PENALTY
        m += 2
    return m


@njit
def is_legal(g, R, action, buf):
    m = legal_actions(g, R, buf)
    for q in range(m):
        if buf[q] == action:
            return True
    return False


# -- moving cards -----------------------------------------------------------------------------
@njit
def cell(p, slot):
    return GRIDS + p * SLOTS + slot


@njit
def to_discard(g, known, c):
    g[DISCARD + g[DISCARD_N]] = c
    g[DISCARD_N] += 1
    know(known, SEATS, c)                                              # face up: seen by all
    g[TOP_SNAPPED] = 0


@njit
def reshuffle(g, known, mt):
    """KO-14: the discard pile but its top card, shuffled, is the new deck."""
    m = g[DISCARD_N] - 1
    top = g[DISCARD + m]
    cards = np.empty(m, np.int64)
    for i in range(m):
        cards[i] = g[DISCARD + i]
    mt_shuffle(mt, cards, m)
    for i in range(m):
        g[DECK + i] = cards[i]
        forget(known, cards[i])
    g[DECK_N] = m
    g[DISCARD] = top
    g[DISCARD_N] = 1


@njit
def pop_deck(g):
    g[DECK_N] -= 1
    return g[DECK + g[DECK_N]]


@njit
def add_card(g, w, c):
    """KO-3, KO-8: a card into the next new slot of grid w. The engine's grid only grows
    (emptied slots stay); a full row is closed up first, which keeps the cards' order, the
    only thing the codec sees of slots (ranks), and no slot index is held at this point
    (no claims, victim, or peeked cards pending)."""
    s = g[LENS + w]
    if s >= SLOTS:
        k = 0
        for j in range(s):
            c0 = g[cell(w, j)]
            if c0 >= 0:
                g[cell(w, k)] = c0
                k += 1
        for j in range(k, s):
            g[cell(w, j)] = -1
        s = k
        if s >= SLOTS:
            g[ERR] = 1
            return
    g[cell(w, s)] = c
    g[LENS + w] = s + 1
    g[COUNTS + w] += 1


@njit
def swap_cards(g, p1, s1, p2, s2):                                      # KO-7, KO-11
    a = g[cell(p1, s1)]
    g[cell(p1, s1)] = g[cell(p2, s2)]
    g[cell(p2, s2)] = a


@njit
def penalty(g, known, mt, w):
    """KO-8 penalty card, unseen, into the next new slot; KO-14 if the deck is empty."""
    if g[DECK_N] == 0:
        if g[DISCARD_N] <= 1:
            return
        reshuffle(g, known, mt)
    add_card(g, w, pop_deck(g))


# -- the snap window --------------------------------------------------------------------------
@njit
def window_seat(g, n, k):
    """The k-th eligible seat of the window: seat order from the active player, without the
    taboo seat (KO-10, KO-12); -1 past the end."""
    j = 0
    for i in range(n):
        s = (g[ACTIVE] + i) % n
        if s == g[TABOO]:
            continue
        if j == k:
            return s
        j += 1
    return -1


@njit
def open_window(g):
    g[ACT] = 0
    g[PEEKED:PEEKED + 4] = -1
    g[ANSWERED] = 0
    g[CLAIMS_N] = 0
    g[PHASE] = SNAP_P
    g[TO_MOVE] = g[ACTIVE]         # the window opens at the active seat, never taboo (KO-12)


@njit
def close_window(g, known, R, mt, cards):
    k = g[CLAIMS_N]
    g[CLAIMS_N] = 0
    g[ANSWERED] = 0
    if k == 0:
        g[SNAP] = 0
        turn_done(g, known, R, mt, cards)
        return
    j = 0 if k == 1 else mt_below(mt, k)                               # KO-10
    w = g[CLAIMS + 3 * j]
    p = g[CLAIMS + 3 * j + 1]
    s = g[CLAIMS + 3 * j + 2]
    c = g[cell(p, s)]
    know(known, SEATS, c)                                              # KO-8, KO-11
    right = value_of(c) == value_of(g[DISCARD + g[DISCARD_N] - 1])
    g[SNAP] = 1 if right else 2
    if right:
        g[cell(p, s)] = -1
        g[COUNTS + p] -= 1
        g[DISCARD + g[DISCARD_N]] = c
        g[DISCARD_N] += 1
        g[TOP_SNAPPED] = 1                                             # KO-9
        if p != w:
            g[VICTIM_P] = p
            g[VICTIM_S] = s
            g[PHASE] = GIVE
            g[TO_MOVE] = w
            return
    elif p != w:
        g[VICTIM_P] = p
        g[VICTIM_S] = s
        g[SNAPPER] = w
        g[PHASE] = HAND_OVER
        g[TO_MOVE] = p
        return
    else:
        penalty(g, known, mt, w)
    turn_done(g, known, R, mt, cards)


# -- turns and rounds -------------------------------------------------------------------------
@njit
def turn_done(g, known, R, mt, cards):
    n = R[R_N]
    for p in range(n):
        if g[COUNTS + p] == 0:                                          # KO-13
            end_round(g, known, R, mt, cards)
            return
    g[TURN_NO] += 1
    if g[CALLER] >= 0:
        g[TURNS_LEFT] -= 1                                              # KO-12
    advance(g, known, R, mt, cards)


@njit
def advance(g, known, R, mt, cards):
    n = R[R_N]
    while True:
        if g[CALLER] >= 0 and g[TURNS_LEFT] <= 0:                      # KO-12
            end_round(g, known, R, mt, cards)
            return
        a = (g[ACTIVE] + 1) % n
        g[ACTIVE] = a
        if (g[CALLER] < 0 or g[DECK_N] > 0 or g[DISCARD_N] > 1
                or (g[DISCARD_N] > 0 and g[TOP_SNAPPED] == 0)):
            g[PHASE] = TURN
            g[TO_MOVE] = a
            return
        g[TURNS_LEFT] -= 1                                              # KO-14: skipped


@njit
def end_round(g, known, R, mt, cards):
    """KO-15 scoring, KO-16 the end of the game, else the next round (KO-4)."""
    n = R[R_N]
    sums = np.zeros(SEATS, np.int64)
    for p in range(n):
        for slot in range(g[LENS + p]):
            c = g[cell(p, slot)]
            if c >= 0:
                sums[p] += value_of(c)
                know(known, SEATS, c)                                  # KO-15: reveal
    scores = sums.copy()
    caller = g[CALLER]
    if caller >= 0:
        lowest = True
        for t in range(n):
            if t != caller and not sums[caller] < sums[t]:
                lowest = False
        if lowest:
            for t in range(n):
                if t != caller and g[COUNTS + t] > 0:
                    scores[t] += 10
        else:
            scores[caller] += 15
    top = -10**9
    for p in range(n):
        g[TOTALS + p] += scores[p]
        g[LAST_SCORES + p] = scores[p]
        top = max(top, g[TOTALS + p])
    if top >= R[R_TARGET]:                                              # KO-16
        best = 10**9
        for p in range(n):
            best = min(best, g[TOTALS + p])
        low = 10**9
        for p in range(n):
            if g[TOTALS + p] == best:
                low = min(low, scores[p])
        for p in range(n):
            g[WIN + p] = 1 if g[TOTALS + p] == best and scores[p] == low else 0
        g[OVER] = 1
        g[PHASE] = -1
        g[TO_MOVE] = -1
        g[CLAIMS_N] = 0
        return
    new_round(g, known, n, mt, cards)


# -- applying an action -----------------------------------------------------------------------
@njit
def apply(g, known, R, mt, cards, action):
    """Apply the legal `action` of the seat to move (is_legal first: nothing is checked)."""
    n = R[R_N]
    K = R[R_K]
    P = R[R_P]
    Q = R[R_Q]
    bp = R[R_BASE_POS]
    bq = R[R_BASE_PAIR]
    me = g[TO_MOVE]
    a = g[ACTIVE]
    g[LAST] = me
    phase = g[PHASE]
    # decode: own slot (replace, take, give) or table cards (seat, slot)
    own = -1
    p1 = s1 = p2 = s2 = -1
    if 9 <= action < bp:
        own = nth_slot(g, me, (action - 9) % K)
    elif bp <= action < bq:
        pos = (action - bp) % P
        p1 = (me + pos // K) % n
        s1 = nth_slot(g, p1, pos % K)
    elif action >= bq:
        i = (action - bq) % Q
        x = 0
        while i >= P - x - 1:
            i -= P - x - 1
            x += 1
        y = x + 1 + i
        p1 = (me + x // K) % n
        s1 = nth_slot(g, p1, x % K)
        p2 = (me + y // K) % n
        s2 = nth_slot(g, p2, y % K)
    if phase == SNAP_P:
        if action != A_PASS:
            k = g[CLAIMS_N]
            g[CLAIMS + 3 * k] = me
            g[CLAIMS + 3 * k + 1] = p1
            g[CLAIMS + 3 * k + 2] = s1
            g[CLAIMS_N] = k + 1
        g[ANSWERED] += 1
        nxt = window_seat(g, n, g[ANSWERED])
        if nxt >= 0:
            g[TO_MOVE] = nxt
        else:
            close_window(g, known, R, mt, cards)
    elif phase == TURN:
        if action == A_DRAW:                                            # KO-5.1
            if g[DECK_N] == 0:
                reshuffle(g, known, mt)                                # KO-14
            c = pop_deck(g)
            g[DRAWN] = c
            know(known, a, c)
            g[PHASE] = DRAWN_P
        elif action == A_KOMBIO:                                        # KO-5.3, KO-12
            g[CALLER] = a
            if n > 2:
                g[TABOO] = a
            g[TURNS_LEFT] = n - 1
            g[TURN_NO] += 1
            advance(g, known, R, mt, cards)
        else:                                                           # KO-5.2: take
            g[DISCARD_N] -= 1
            c = g[DISCARD + g[DISCARD_N]]
            old = g[cell(a, own)]
            g[cell(a, own)] = c
            to_discard(g, known, old)
            open_window(g)
    elif phase == DRAWN_P:
        c = g[DRAWN]
        g[DRAWN] = -1
        if action == A_DISCARD:
            to_discard(g, known, c)
            v = value_of(c)
            if v >= 7:                                                  # KO-5.1, KO-6
                g[ACT] = v
                g[PHASE] = ACTION
            else:
                open_window(g)
        else:                                                           # replace
            old = g[cell(a, own)]
            g[cell(a, own)] = c
            to_discard(g, known, old)
            open_window(g)
    elif phase == ACTION:                                               # KO-6
        if action == A_SKIP:
            open_window(g)
        elif action < bq:                                               # peek one card
            know(known, a, g[cell(p1, s1)])
            if g[ACT] == 13:
                g[PEEKED] = p1
                g[PEEKED + 1] = s1
                g[PHASE] = ACTION_SWAP
            else:
                open_window(g)
        elif action < bq + Q:                                           # 14: peek two
            know(known, a, g[cell(p1, s1)])
            know(known, a, g[cell(p2, s2)])
            # the engine's order: the lower position (seat, slot) first
            if (p2 < p1) or (p2 == p1 and s2 < s1):
                p1, s1, p2, s2 = p2, s2, p1, s1
            g[PEEKED] = p1
            g[PEEKED + 1] = s1
            g[PEEKED + 2] = p2
            g[PEEKED + 3] = s2
            g[PHASE] = ACTION_SWAP
        else:                                                           # 11/12: swap two
            swap_cards(g, p1, s1, p2, s2)
            open_window(g)
    elif phase == ACTION_SWAP:
        if action == A_SWAP:                                            # 14
            swap_cards(g, g[PEEKED], g[PEEKED + 1], g[PEEKED + 2], g[PEEKED + 3])
        elif action != A_KEEP:                                          # 13
            swap_cards(g, g[PEEKED], g[PEEKED + 1], p1, s1)
        open_window(g)
    elif phase == GIVE:                                                 # KO-8
        w = me
        c = g[cell(w, own)]
        g[cell(w, own)] = -1
        g[COUNTS + w] -= 1
        g[cell(g[VICTIM_P], g[VICTIM_S])] = c                          # KO-11: emptied slot
        g[COUNTS + g[VICTIM_P]] += 1
        g[VICTIM_P] = -1
        g[VICTIM_S] = -1
        turn_done(g, known, R, mt, cards)
    elif phase == HAND_OVER:                                            # KO-8
        if action == A_HAND_OVER:
            p = g[VICTIM_P]
            c = g[cell(p, g[VICTIM_S])]
            g[cell(p, g[VICTIM_S])] = -1
            g[COUNTS + p] -= 1
            add_card(g, g[SNAPPER], c)                                  # KO-11: new slot
        else:
            penalty(g, known, mt, g[SNAPPER])
        g[VICTIM_P] = -1
        g[VICTIM_S] = -1
        g[SNAPPER] = -1
        turn_done(g, known, R, mt, cards)
