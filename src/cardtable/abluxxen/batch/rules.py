"""Abluxxen's rules for the batched simulator, compiled with numba: one game is one row of a
2-D int16 array (the layout below), and every function here reads and writes one such row `g`.

The rules follow the engine (abluxxen/state.py and setup.py) step by step, with the same
clause ids (RULES.md: AB-*, DU-*, CL-*); tests/rl/test_batch_abluxxen.py replays seeded random
games through both and compares every mask, observation, reward and score. Action ids and the
observation are the codec's (abluxxen/codec.py documents both).

Rules `R` (an int64 array, one per batch): players, optional_draw (AB-15), ones_beat_top
(AB-20), duel (DU-1..DU-7), shadow_partial (DU-4), tiebreak_fewer_hand (AB-18, CL-4),
shadow_blocks_draw (DU-6).

A display layer is one int: value v (1..13, 14 = jokers alone) + 16 * numbers k + 256 * jokers
j (the engine's sorted tuple `(v,)*k + (X,)*j`). A pool item is up to 14 cards, bottom first.
The deck is a stack, top card last (the engine's list; `pop` draws).
"""

from __future__ import annotations

import numpy as np
from cardtable.rl.batch.jit import njit

from cardtable.rl.batch.rng import mt_seed, mt_shuffle

# -- the row layout ---------------------------------------------------------------------------
SEATS = 5
JOKER = 14
HAND = 0                    # 5 x 15 counts per card (index 1..13, 14 = joker)
SIZE = 75                   # 5 hand sizes
DN = 80                     # 5 display layer counts
DC = 85                     # 5 display card counts
POOL_LEN = 90               # 6 pool item lengths (0 = no item)
POOL_N = 96                 # pool items
DECK_N = 97
DISCARD_N = 98
SHADOW = 99                 # 15 counts (1..12), duel
SHADOW_SIZE = 114
ACTIVE = 115
PHASE = 116                 # 0..5 as the codec's AB_PHASES, -1 over
TO_MOVE = 117               # -1 over
PV = 118                    # pending victim (-1 none)
PCODE = 119                 # pending layer
OWED = 120
AFTER = 121                 # after the draws: 0 check the next victim, 1 end the turn
CHECK = 122
ABLUXXED = 123
CUR_V = 124
CUR_SIZE = 125
OVER = 126
ENDED = 127                 # 0 not over, 1 hand (AB-7), 2 supply (AB-14)
LAST = 128                  # the seat that made the last decision (-1 none yet)
SCORES = 129                # 5 final scores
WIN = 134                   # 5 winner flags
POOL = 139                  # 6 x 14 cards
ITEM = 14
DECK = 223                  # 109 cards, top last
LAYERS = 332                # 5 x 110 layers, bottom first
MAXL = 110
DECISIONS = LAYERS + SEATS * MAXL   # decisions applied so far (the engine's len(history))
KNOWN = DECISIONS + 1       # 5 x 15: the engine's `known` (hand cards every player saw go in)
DISC = KNOWN + SEATS * 15   # 15 counts per card of the discard pile
ROW = DISC + 15

PLAY, SHADOWP, TAKE, KEEP, DRAW, OPTIONAL = 0, 1, 2, 3, 4, 5
# action ids (abluxxen/codec.py)
A_JOKERS = 624
A_SHADOW = 628
A_TAKE, A_LEAVE, A_KEEP, A_DISCARD, A_PASS, A_DECK = 641, 642, 643, 644, 645, 646
A_POOL = 647
ACTIONS = 653
OBS = 319
COPIES = np.array([0] + [8] * 13 + [5], np.int64)       # AB-1: 109 cards

# rules
R_N, R_OPTIONAL, R_ONES, R_DUEL, R_PARTIAL, R_TIEBREAK, R_SHADOW_BLOCKS = 0, 1, 2, 3, 4, 5, 6


# -- set-up -----------------------------------------------------------------------------------
@njit
def place_on_pool(g, card):
    """DU-2: a 13 or joker turned up for the shadow display goes on the lowest uncovered single
    pool card (bottom number, jokers highest; ties: earliest position); with no single card
    left, on the lowest group; into an empty pool as a single card."""
    best = -1
    best_key = 0
    for i in range(g[POOL_N]):
        key = (1 if g[POOL_LEN + i] > 1 else 0) * 1000 + g[POOL + i * ITEM] * 10 + i
        if best < 0 or key < best_key:
            best = i
            best_key = key
    if best < 0:
        g[POOL] = card
        g[POOL_LEN] = 1
        g[POOL_N] = 1
    else:
        g[POOL + best * ITEM + g[POOL_LEN + best]] = card
        g[POOL_LEN + best] += 1


@njit
def fill_shadow(g):
    """DU-1/DU-2, DU-7: turn up deck cards until the shadow holds 13 cards; 13s and jokers go
    to the pool instead."""
    while g[SHADOW_SIZE] < 13 and g[DECK_N] > 0:
        g[DECK_N] -= 1
        c = g[DECK + g[DECK_N]]
        if c >= 13:
            place_on_pool(g, c)
        else:
            g[SHADOW + c] += 1
            g[SHADOW_SIZE] += 1


@njit
def deal(g, R, seed, mt, cards):
    """AB-3, DU-1, DU-2: the engine's set-up of `random.Random(seed)` (setup.py `deal` with no
    deal spec): the cards sorted, shuffled, 13 to each hand (the duel's 2 jokers each first),
    6 to the pool, the duel's shadow display turned up, the rest the deck. Seat 0 starts
    (AB-4, CL-1). `mt` and `cards` are scratch arrays (rng.MT_WORDS, 109)."""
    n = R[R_N]
    duel = R[R_DUEL] != 0
    g[:] = 0
    used_jokers = 2 * n if duel else 0                              # DU-1
    m = 0
    for c in range(1, 15):
        copies = COPIES[c] - (used_jokers if c == JOKER else 0)
        for _ in range(copies):
            cards[m] = c
            m += 1
    mt_seed(mt, seed)
    mt_shuffle(mt, cards, m)
    p = 0
    for s in range(n):
        h = HAND + s * 15
        size = 0
        if duel:
            g[h + JOKER] = 2
            size = 2
        while size < 13:
            g[h + cards[p]] += 1
            p += 1
            size += 1
        g[SIZE + s] = 13
    for i in range(6):
        g[POOL + i * ITEM] = cards[p]
        g[POOL_LEN + i] = 1
        p += 1
    g[POOL_N] = 6
    # the rest, top card last: the next shuffled card is the top
    rest = m - p
    for q in range(rest):
        g[DECK + q] = cards[m - 1 - q]
    g[DECK_N] = rest
    if duel:
        fill_shadow(g)                                              # DU-1, DU-2
    g[ACTIVE] = 0
    g[TO_MOVE] = 0
    g[PHASE] = PLAY
    g[PV] = -1
    g[LAST] = -1


# -- legal decisions --------------------------------------------------------------------------
@njit
def shadow_ok(g, R, v):
    """DU-4: a set of cur_size cards and value cur_value can shadowluxx number v: v is lower
    than the set's value and lies exactly cur_size times (shadow_partial: at least)."""
    if v < 1 or v >= min(g[CUR_V], 13):
        return False
    c = g[SHADOW + v]
    size = g[CUR_SIZE]
    return c == size or (R[R_PARTIAL] != 0 and c > size)


@njit
def has_shadow_option(g, R):
    for v in range(1, 13):
        if shadow_ok(g, R, v):
            return True
    return False


@njit
def first_item(g, pos):
    """Whether pool position `pos` holds the first copy of its item (equal items are one
    decision; the codec masks the first position only)."""
    ln = g[POOL_LEN + pos]
    for q in range(pos):
        if g[POOL_LEN + q] == ln:
            same = True
            for c in range(ln):
                if g[POOL + q * ITEM + c] != g[POOL + pos * ITEM + c]:
                    same = False
                    break
            if same:
                return False
    return True


@njit
def legal_actions(g, R, out):
    """The legal action ids of the seat to move into `out`; returns how many (0 when over)."""
    phase = g[PHASE]
    m = 0
    if phase == PLAY:                                   # AB-5: k>=1 of a number + j jokers
        h = HAND + g[TO_MOVE] * 15
        jokers = g[h + JOKER]
        for v in range(1, 14):
            for k in range(1, g[h + v] + 1):
                for j in range(jokers + 1):
                    out[m] = (v - 1) * 48 + (k - 1) * 6 + j
                    m += 1
        for j in range(1, jokers + 1):                  # jokers alone
            out[m] = A_JOKERS + j - 1
            m += 1
    elif phase == SHADOWP:                              # DU-4
        for v in range(1, 13):
            if shadow_ok(g, R, v):
                out[m] = A_SHADOW + v
                m += 1
    elif phase == TAKE:                                 # AB-11
        out[0] = A_TAKE
        out[1] = A_LEAVE
        m = 2
    elif phase == KEEP:
        out[0] = A_KEEP
        out[1] = A_DISCARD
        m = 2
    elif phase == DRAW or phase == OPTIONAL:            # AB-12, AB-15: pool item or deck
        if g[DECK_N] > 0:
            out[m] = A_DECK
            m += 1
        for pos in range(g[POOL_N]):
            if first_item(g, pos):
                out[m] = A_POOL + pos
                m += 1
        if phase == OPTIONAL:
            out[m] = A_PASS
            m += 1
    return m


@njit
def is_legal(g, R, a):
    """Whether action id `a` is legal for the seat to move (without listing them all)."""
    phase = g[PHASE]
    if a < 0 or a >= ACTIONS or phase < 0:
        return False
    if phase == PLAY:
        h = HAND + g[TO_MOVE] * 15
        if a < A_JOKERS:
            v = a // 48 + 1
            k = (a % 48) // 6 + 1
            j = a % 6
            return g[h + v] >= k and g[h + JOKER] >= j
        if a <= A_JOKERS + 4:
            return g[h + JOKER] >= a - A_JOKERS + 1
        return False
    if phase == SHADOWP:
        return A_SHADOW < a < A_TAKE and shadow_ok(g, R, a - A_SHADOW)
    if phase == TAKE:
        return a == A_TAKE or a == A_LEAVE
    if phase == KEEP:
        return a == A_KEEP or a == A_DISCARD
    if a == A_DECK:
        return g[DECK_N] > 0
    if a == A_PASS:
        return phase == OPTIONAL
    if a >= A_POOL:
        pos = a - A_POOL
        return pos < g[POOL_N] and first_item(g, pos)
    return False


# -- applying ---------------------------------------------------------------------------------
@njit
def end_game(g, R, why):
    """AB-17, AB-18, CL-4: the score is display cards minus hand cards; ties go to fewer hand
    cards (tiebreak_fewer_hand; off: all tied players win)."""
    n = R[R_N]
    g[OVER] = 1
    g[ENDED] = why
    g[PHASE] = -1
    g[TO_MOVE] = -1
    best = -10000
    for s in range(n):
        sc = g[DC + s] - g[SIZE + s]
        g[SCORES + s] = sc
        if sc > best:
            best = sc
    tied = 0
    fewest = 10000
    for s in range(n):
        if g[SCORES + s] == best:
            tied += 1
            fewest = min(fewest, g[SIZE + s])
    for s in range(n):
        win = g[SCORES + s] == best
        if win and R[R_TIEBREAK] != 0 and tied > 1:
            win = g[SIZE + s] == fewest
        g[WIN + s] = 1 if win else 0


@njit
def end_turn(g, R):                                                 # AB-16
    g[ACTIVE] = (g[ACTIVE] + 1) % R[R_N]
    g[TO_MOVE] = g[ACTIVE]
    g[PHASE] = PLAY
    g[OWED] = 0


@njit
def next_victim(g, R):
    """AB-8, AB-9, AB-10, AB-20: once around the table from the left neighbour; the first
    display whose top layer has the set's size and a lower value (or, with ones_beat_top, a set
    of 1s against 13s or lone jokers) is abluxxed (AB-11). Nobody: AB-15's optional draw (if
    the rule set has it and nobody was abluxxed this turn, DU-6), else the turn ends."""
    n = R[R_N]
    a = g[ACTIVE]
    v = g[CUR_V]
    size = g[CUR_SIZE]
    ones = R[R_ONES] != 0 and v == 1
    while g[CHECK] < n:
        s = (a + g[CHECK]) % n
        g[CHECK] += 1
        d = g[DN + s]
        if d == 0:
            continue
        code = g[LAYERS + s * MAXL + d - 1]
        tv = code & 15
        tsize = ((code >> 4) & 15) + (code >> 8)
        if tsize == size and (tv < v or (ones and tv >= 13)):
            g[DN + s] = d - 1                                       # AB-11
            g[DC + s] -= tsize
            g[PV] = s
            g[PCODE] = code
            g[ABLUXXED] = 1
            g[PHASE] = TAKE
            g[TO_MOVE] = a
            return
    if g[ABLUXXED] == 0 and R[R_OPTIONAL] != 0:                     # AB-15, DU-6
        g[PHASE] = OPTIONAL
        g[TO_MOVE] = a
        g[AFTER] = 1
        return
    end_turn(g, R)


@njit
def add_layer(g, seat, code):
    """The cards of a layer into a hand, seen by everybody (`known`)."""
    h = HAND + seat * 15
    kn = KNOWN + seat * 15
    k = (code >> 4) & 15
    j = code >> 8
    if k:
        g[h + (code & 15)] += k
        g[kn + (code & 15)] += k
    g[h + JOKER] += j
    g[kn + JOKER] += j
    g[SIZE + seat] += k + j


@njit
def owe(g, seat, n):
    g[PHASE] = DRAW
    g[TO_MOVE] = seat
    g[OWED] = n
    g[AFTER] = 0


@njit
def apply(g, R, a):
    """Apply the legal action id `a` of the seat to move (the caller checks legality)."""
    s = g[TO_MOVE]
    g[LAST] = s
    if g[DECISIONS] < 32767:                            # (int16; the bots look below 400)
        g[DECISIONS] += 1
    phase = g[PHASE]
    if phase == PLAY:                                   # AB-5, AB-6, AB-7: play a set
        if a < A_JOKERS:
            v = a // 48 + 1
            k = (a % 48) // 6 + 1
            j = a % 6
        else:
            v = JOKER
            k = 0
            j = a - A_JOKERS + 1
        h = HAND + s * 15
        if k:
            g[h + v] -= k
        g[h + JOKER] -= j
        g[SIZE + s] -= k + j
        kn = KNOWN + s * 15
        if k:
            g[kn + v] = max(0, g[kn + v] - k)
        if j:
            g[kn + JOKER] = max(0, g[kn + JOKER] - j)
        g[LAYERS + s * MAXL + g[DN + s]] = v + 16 * k + 256 * j    # AB-6
        g[DN + s] += 1
        g[DC + s] += k + j
        if g[SIZE + s] == 0:                                        # AB-7
            end_game(g, R, 1)
            return
        g[CUR_V] = v
        g[CUR_SIZE] = k + j
        g[ABLUXXED] = 0
        g[CHECK] = 1
        if R[R_DUEL] != 0 and has_shadow_option(g, R):             # DU-4
            g[PHASE] = SHADOWP
            return
        next_victim(g, R)
    elif phase == SHADOWP:                              # DU-4: shadowluxxing
        v = a - A_SHADOW
        n = g[CUR_SIZE]
        g[SHADOW + v] -= n
        g[SHADOW_SIZE] -= n
        g[HAND + s * 15 + v] += n
        g[SIZE + s] += n
        g[KNOWN + s * 15 + v] += n
        if R[R_SHADOW_BLOCKS] != 0:                                 # DU-6 (former reading)
            g[ABLUXXED] = 1
        if g[DECK_N] > 0:                                           # DU-7
            fill_shadow(g)
        next_victim(g, R)                                           # DU-5
    elif phase == TAKE:                                 # AB-11: the attacker decides
        if a == A_TAKE:
            code = g[PCODE]
            victim = g[PV]
            add_layer(g, g[ACTIVE], code)
            g[PV] = -1
            owe(g, victim, ((code >> 4) & 15) + (code >> 8))          # the victim draws
        else:                                           # leave: the victim decides
            g[PHASE] = KEEP
            g[TO_MOVE] = g[PV]
    elif phase == KEEP:
        code = g[PCODE]
        victim = g[PV]
        g[PV] = -1
        if a == A_KEEP:
            add_layer(g, victim, code)
            next_victim(g, R)
        else:
            g[DISCARD_N] += ((code >> 4) & 15) + (code >> 8)
            if (code >> 4) & 15:
                g[DISC + (code & 15)] += (code >> 4) & 15
            g[DISC + JOKER] += code >> 8
            owe(g, victim, ((code >> 4) & 15) + (code >> 8))
    elif a == A_PASS:                                   # AB-15: no draw
        end_turn(g, R)
    else:                                               # AB-12, AB-13, AB-14, AB-15, DU-3
        h = HAND + s * 15
        if a == A_DECK:
            g[DECK_N] -= 1
            g[h + g[DECK + g[DECK_N]]] += 1
            g[SIZE + s] += 1
        else:
            pos = a - A_POOL
            ln = g[POOL_LEN + pos]
            for c in range(ln):
                g[h + g[POOL + pos * ITEM + c]] += 1
                g[KNOWN + s * 15 + g[POOL + pos * ITEM + c]] += 1
            g[SIZE + s] += ln
            last = g[POOL_N] - 1                        # the items after it move up
            for q in range(pos, last):
                g[POOL_LEN + q] = g[POOL_LEN + q + 1]
                for c in range(g[POOL_LEN + q]):
                    g[POOL + q * ITEM + c] = g[POOL + (q + 1) * ITEM + c]
            g[POOL_LEN + last] = 0
            g[POOL_N] = last
        if phase == OPTIONAL:
            g[OWED] = 1
        g[OWED] -= 1
        if g[DECK_N] == 0 and g[POOL_N] == 0:                       # AB-14, CL-3
            g[OWED] = 0
            end_game(g, R, 2)
            return
        if g[OWED] > 0:
            g[PHASE] = DRAW
            return
        while g[POOL_N] < 6 and g[DECK_N] > 0:                      # AB-12: refill
            g[DECK_N] -= 1
            q = g[POOL_N]
            g[POOL + q * ITEM] = g[DECK + g[DECK_N]]
            g[POOL_LEN + q] = 1
            g[POOL_N] = q + 1
        if g[AFTER] == 1:
            end_turn(g, R)
        else:
            next_victim(g, R)


# -- observing --------------------------------------------------------------------------------
@njit
def encode(g, R, me, o):
    """The codec's observation (abluxxen/codec.py `encode`) of seat `me` into `o` (319)."""
    n = R[R_N]
    o[:] = 0.0
    over = g[OVER] != 0
    for s in range(n):
        b = ((s - me) % n) * 36
        o[b] = 1.0
        o[b + 1] = g[SIZE + s] / 13
        d = g[DN + s]
        o[b + 2] = d / 10
        o[b + 3] = g[DC + s] / 13
        for depth in range(1, 3):
            if d >= depth:
                code = g[LAYERS + s * MAXL + d - depth]
                off = 4 if depth == 1 else 19
                o[b + off + (code & 15) - 1] = 1.0
                o[b + off + 14] = (((code >> 4) & 15) + (code >> 8)) / 8
        if not over:
            o[b + 34] = 1.0 if s == g[ACTIVE] else 0.0
            o[b + 35] = 1.0 if s == g[TO_MOVE] else 0.0
    h = HAND + me * 15
    for c in range(1, 14):
        o[180 + c - 1] = g[h + c] * 0.125
    o[193] = _joker_share(g[h + JOKER])
    for pos in range(g[POOL_N]):
        for c in range(g[POOL_LEN + pos]):
            o[194 + pos * 14 + g[POOL + pos * ITEM + c] - 1] += 1.0
    o[278] = g[DECK_N] / 109
    o[279] = g[DISCARD_N] / 109
    if R[R_DUEL] != 0:
        for v in range(1, 13):
            if g[SHADOW + v]:
                o[280 + v - 1] = g[SHADOW + v] / 8
    if g[PV] >= 0:
        code = g[PCODE]
        o[292] = 1.0
        o[293 + (g[PV] - me) % n] = 1.0
        k = (code >> 4) & 15
        if k:
            o[298 + (code & 15) - 1] = k
        if code >> 8:
            o[298 + 13] += code >> 8
    if g[PHASE] == DRAW:
        o[312] = g[OWED] / 13
    if g[PHASE] >= 0:
        o[313 + g[PHASE]] = 1.0


@njit
def _joker_share(j):
    """The codec's sum of 0.2 per joker, added one by one as it does (so equal to the bit)."""
    x = 0.0
    for _ in range(j):
        x += 0.2
    return x
