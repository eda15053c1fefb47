"""Kombio's rules for the batched simulator (UNFINISHED, not declared in the registry and not
exported: only the first round's deal is here; rl/batch/abluxxen_rules.py is the model).

A game is one row of a 2-D int16 array (layout below), as for Abluxxen; each seat's private
knowledge (KO-2, KO-11: a bit per card id 0..69) is two uint64 words in an array of its own.
Cards are ids 0..69 ordered by value (kombio/cards.py: `VALUE[id]`), so a card's value is
`value_of(id)`.

Done: the layout and KO-2's deal of round 1 from the engine's seed (kombio/setup.py `deal`:
ids shuffled with Python's generator, 4 to each grid slot by slot, the rest the deck, top card
last; each seat knows its slots 3 and 4), checked against the engine by
tests/rl/test_batch_kombio.py. Not done: turns (KO-5, KO-6 actions), the snap window (KO-8..KO-10
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
DECK = DRAWN + 1            # 70 card ids, top last
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
    g[:] = -1
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
