"""Kombio's rules for the batched simulator (UNFINISHED, not declared in the registry and not
exported: only the first round's deal is here; rl/batch/abluxxen_rules.py is the model).

A game is one row of a 2-D int16 array (layout below), as for Abluxxen; each seat's private
knowledge (KO-2, KO-11: a bit per card id 0..69) is two uint64 words in an array of its own
(known: (SEATS + 1) x 2 per game; row SEATS is what everybody has seen).
Cards are ids 0..69 ordered by value (kombio/cards.py: `VALUE[id]`), so a card's value is
`value_of(id)`.

Done: the layout, KO-2's deal of round 1 from the engine's seed (kombio/setup.py `deal`:
ids shuffled with Python's generator, 4 to each grid slot by slot, the rest the deck, top card
last; each seat knows its slots 3 and 4), and the codec's observation (`encode`, every field of
rl/kombio_codec.py); tests/rl/test_batch_kombio.py checks both against the engine and the codec
at the start of round 1 (where most fields are still zero). Not done: turns (KO-5, KO-6 actions), the snap window (KO-8..KO-10
with its random draw among claims), calls and the end of a round (KO-12, KO-13, KO-15), reshuffles
(KO-14), later rounds (KO-4, KO-16), the codec's observation and action ids (rl/kombio_codec.py).
"""

from __future__ import annotations

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.rl.batch.rng import mt_seed, mt_shuffle

SEATS = 6
CARDS = 70
SLOTS = 24                  # slots per grid: 4 dealt (KO-2), more from penalty cards (KO-8)
GRIDS = 0                   # 6 x 24 card ids (-1 = empty slot, KO-3)
COUNTS = GRIDS + SEATS * SLOTS          # 6 cards per grid
DECK_N = COUNTS + SEATS
DISCARD_N = DECK_N + 1
ROUND_START = DISCARD_N + 1
ACTIVE = ROUND_START + 1
TO_MOVE = ACTIVE + 1
DRAWN = TO_MOVE + 1         # the drawn card not yet placed (-1)
PHASE = DRAWN + 1           # 0..6 as the codec's KO_PHASES, -1 over
CALLER = PHASE + 1          # the Kombio caller (-1 none, KO-12)
TURNS_LEFT = CALLER + 1
ACT = TURNS_LEFT + 1        # the action card in use (7..14, KO-6)
TOP_SNAPPED = ACT + 1       # KO-9
ANSWERED = TOP_SNAPPED + 1  # the snap window's answers so far
SNAP = ANSWERED + 1         # the last closed window: 0 none, 1 a right snap, 2 a wrong one
OVER = SNAP + 1
PEEKED = OVER + 1           # up to 2 (seat, slot index) of a pending 13/14, -1 none
TOTALS = PEEKED + 4         # 6 game totals (KO-15)
DECK = TOTALS + SEATS       # 70 card ids, top last
DISCARD = DECK + CARDS      # 70 card ids, top last
ROW = DISCARD + CARDS

#: KO-1: copies per value -1..14 (index v + 1); ids are in value order
COPIES = np.array([3 if v <= 0 else 2 if v >= 13 else 5 for v in range(-1, 15)], np.int64)
FIRST_ID = np.concatenate([[0], np.cumsum(COPIES)]).astype(np.int64)


@njit
def value_of(card):
    """The value (-1..14) of card id 0..69."""
    v = 0
    while FIRST_ID[v + 1] <= card:
        v += 1
    return v - 1


@njit
def deal_round(g, known, players, start, seed, mt, cards):
    """KO-2, KO-4 (round 1): the engine's deal of `random.Random(seed)`: ids 0..69 shuffled,
    4 to each grid (seat by seat, slot by slot), the rest the deck (the next shuffled card on
    top); each seat knows its slots 3 and 4. `known`: (seats x 2) uint64 of this game."""
    g[:] = 0
    g[GRIDS:GRIDS + SEATS * SLOTS] = -1
    known[:, :] = 0
    for c in range(CARDS):
        cards[c] = c
    mt_seed(mt, seed)
    mt_shuffle(mt, cards, CARDS)
    p = 0
    for s in range(players):
        for slot in range(4):
            g[GRIDS + s * SLOTS + slot] = cards[p]
            p += 1
        g[COUNTS + s] = 4
        for slot in (2, 3):                                             # KO-2: own slots 3, 4
            c = g[GRIDS + s * SLOTS + slot]
            known[s, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    rest = CARDS - p
    for q in range(rest):
        g[DECK + q] = cards[CARDS - 1 - q]
    g[DECK_N] = rest
    g[DISCARD_N] = 0
    g[ROUND_START] = start
    g[ACTIVE] = start
    g[TO_MOVE] = start
    g[DRAWN] = -1
    g[PHASE] = 0
    g[CALLER] = -1
    g[PEEKED:PEEKED + 4] = -1


@njit
def _seen(known, me, card):
    word = card >> 6
    bit = np.uint64(1) << np.uint64(card & 63)
    return ((known[me, word] | known[SEATS, word]) & bit) != 0


@njit
def encode(g, known, n, K, target, me, o):
    """The codec's observation (rl/kombio_codec.py `encode`) of seat `me` into `o`."""
    o[:] = 0.0
    over = g[OVER] != 0
    for p in range(n):
        r = (p - me) % n
        c = 0
        for slot in range(SLOTS):
            card = g[GRIDS + p * SLOTS + slot]
            if card < 0:
                continue
            if c < K:
                b = (r * K + c) * 18
                if _seen(known, me, card):
                    o[b + value_of(card) + 2] = 1.0
                else:
                    o[b] = 1.0
                for q in range(2):
                    if g[PEEKED + 2 * q] == p and g[PEEKED + 2 * q + 1] == slot:
                        o[b + 17] = 1.0
            c += 1
    seat0 = n * K * 18
    for p in range(n):
        b = seat0 + ((p - me) % n) * 6
        o[b] = g[COUNTS + p] / K
        o[b + 1] = 1.0 if p == g[CALLER] else 0.0
        o[b + 2] = 1.0 if (p == g[ACTIVE] and not over) else 0.0
        o[b + 3] = 1.0 if p == g[TO_MOVE] else 0.0
        o[b + 4] = 1.0 if p == g[ROUND_START] else 0.0
        o[b + 5] = max(g[TOTALS + p], -target) / target
    rest = seat0 + n * 6
    if g[DRAWN] >= 0 and me == g[ACTIVE]:
        o[rest + value_of(g[DRAWN]) + 1] = 1.0
    if g[DISCARD_N] > 0:
        o[rest + 16 + value_of(g[DISCARD + g[DISCARD_N] - 1]) + 1] = 1.0
    o[rest + 32] = 1.0 if g[TOP_SNAPPED] else 0.0
    o[rest + 33] = g[DECK_N] / 70
    o[rest + 34] = g[DISCARD_N] / 70
    phase = g[PHASE]
    if phase >= 0:
        o[rest + 35 + phase] = 1.0
    if phase == 2 or phase == 3:                    # action, action_swap
        o[rest + 42 + g[ACT] - 7] = 1.0
    if g[CALLER] >= 0 and not over:
        o[rest + 50] = g[TURNS_LEFT] / n
    if phase == 4:                                  # snap
        o[rest + 51] = g[ANSWERED] / n
    if g[SNAP] > 0:
        o[rest + 52 + g[SNAP] - 1] = 1.0
