"""Kombio's rules for the batched simulator, compiled with numba: the row layout, the deals
(KO-2, KO-4), the knowledge bits and the codec's observation. The turns, the snap window and
the rounds are in kombio/batch/play.py; abluxxen/batch/rules.py is the model.

A game is one row of a 2-D int16 array (layout below); each seat's private knowledge (KO-2,
KO-11: a bit per card id 0..69) is two uint64 words in an array of its own (known: (SEATS + 1)
x 2 per game; row SEATS is what everybody has seen), and the game's own generator (the
engine's `Rng`: KO-2 deals, KO-10 snap draws, KO-14 reshuffles) is a Mersenne Twister state of
MT_WORDS uint64 (rng.py), so every random draw is the engine's.
Cards are ids 0..69 ordered by value (kombio/cards.py: `VALUE[id]`), so a card's value is
`value_of(id)`. Slots are 0-based here (the engine's slot S is index S - 1).

Parameters `R` (int64): players n, K (the codec's max_cards), target, P = n*K, Q = P(P-1)/2,
the codec's base_pos and base_pair.
"""

from __future__ import annotations

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.rl.batch.rng import mt_seed, mt_shuffle

SEATS = 6
CARDS = 70
SLOTS = 96                  # slots per grid: 4 dealt (KO-2), more from penalty cards (KO-8)
GRIDS = 0                   # 6 x SLOTS card ids (-1 = empty slot, KO-3)
LENS = GRIDS + SEATS * SLOTS             # slots in use per grid (the engine's len(grid))
COUNTS = LENS + SEATS                    # cards per grid
DECK_N = COUNTS + SEATS
DISCARD_N = DECK_N + 1
ROUND_START = DISCARD_N + 1
ACTIVE = ROUND_START + 1
TO_MOVE = ACTIVE + 1        # -1 over
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
TABOO = TOTALS + SEATS      # the caller's grid with 3+ players (KO-12), -1 none
CLAIMS_N = TABOO + 1
CLAIMS = CLAIMS_N + 1       # 6 x (seat, grid, slot index) in answer order
VICTIM_P = CLAIMS + 18
VICTIM_S = VICTIM_P + 1
SNAPPER = VICTIM_S + 1
ROUND_NO = SNAPPER + 1
START = ROUND_NO + 1        # the first round's start seat
LAST_SCORES = START + 1     # 6: the last round's scores (KO-16 tie-break)
WIN = LAST_SCORES + SEATS   # 6 winner flags
LAST = WIN + SEATS          # the seat that made the last decision
ERR = LAST + 1              # 1: a grid outgrew SLOTS (the game stops; never seen in play)
ABANDONED = ERR + 1         # 1: ended without a result (`abandon`)
DECK = ABANDONED + 1             # 70 card ids, top last
DISCARD = DECK + CARDS      # 70 card ids, top last
TURN_NO = DISCARD + CARDS   # turns of the round so far (the engine's turn_no; the bots read it)
ROW = TURN_NO + 1

R_N, R_K, R_TARGET, R_P, R_Q, R_BASE_POS, R_BASE_PAIR = range(7)

#: KO-1: copies per value -1..14 (index v + 1); ids are in value order
COPIES = np.array([3 if v <= 0 else 2 if v >= 13 else 5 for v in range(-1, 15)], np.int64)
FIRST_ID = np.concatenate([[0], np.cumsum(COPIES)]).astype(np.int64)
VALUES = np.array([v for v in range(-1, 15) for _ in range(COPIES[v + 1])], np.int64)


def params(players: int, max_cards: int = 12, target: int = 100) -> np.ndarray:
    """The parameter array R (as kombio/codec.py's KombioCodec lays out its ids)."""
    P = players * max_cards
    Q = P * (P - 1) // 2
    base_pos = 9 + 3 * max_cards
    return np.array([players, max_cards, target, P, Q, base_pos, base_pos + 3 * P], np.int64)


@njit
def value_of(card):
    """The value (-1..14) of card id 0..69."""
    return VALUES[card]


# -- knowledge --------------------------------------------------------------------------------
@njit
def know(known, s, card):
    known[s, card >> 6] |= np.uint64(1) << np.uint64(card & 63)


@njit
def forget(known, card):
    """KO-14: a reshuffled card is unknown to everybody again."""
    keep = ~(np.uint64(1) << np.uint64(card & 63))
    for s in range(SEATS + 1):
        known[s, card >> 6] &= keep


@njit
def seen(known, me, card):
    """Has seat `me` seen card id `card` (its own knowledge or everybody's)?"""
    word = card >> 6
    bit = np.uint64(1) << np.uint64(card & 63)
    return ((known[me, word] | known[SEATS, word]) & bit) != 0


# -- KO-2, KO-4: deals ------------------------------------------------------------------------
@njit
def deal_cards(g, known, players, mt, cards):
    """KO-2 from the game's generator (kombio/setup.py `deal` without a fixed deal): ids 0..69
    shuffled, 4 to each grid (seat by seat, slot by slot), the rest the deck (the next
    shuffled card on top); each seat knows its slots 3 and 4; the round's state is fresh."""
    g[GRIDS:GRIDS + SEATS * SLOTS] = -1
    known[:, :] = 0
    for c in range(CARDS):
        cards[c] = c
    mt_shuffle(mt, cards, CARDS)
    p = 0
    for s in range(SEATS):
        g[LENS + s] = 0
        g[COUNTS + s] = 0
    for s in range(players):
        for slot in range(4):
            g[GRIDS + s * SLOTS + slot] = cards[p]
            p += 1
        g[COUNTS + s] = 4
        g[LENS + s] = 4
        for slot in (2, 3):                                             # KO-2: own slots 3, 4
            know(known, s, g[GRIDS + s * SLOTS + slot])
    rest = CARDS - p
    for q in range(rest):
        g[DECK + q] = cards[CARDS - 1 - q]
    g[DECK_N] = rest
    g[DISCARD_N] = 0
    g[DRAWN] = -1
    g[TOP_SNAPPED] = 0
    g[CALLER] = -1
    g[TABOO] = -1
    g[TURNS_LEFT] = 0
    g[TURN_NO] = 0
    g[ACT] = 0
    g[PEEKED:PEEKED + 4] = -1
    g[ANSWERED] = 0
    g[CLAIMS_N] = 0
    g[SNAP] = 0
    g[VICTIM_P] = -1
    g[VICTIM_S] = -1
    g[SNAPPER] = -1


@njit
def new_round(g, known, players, mt, cards):
    """KO-4: the next round, its start seat one clockwise from the last one's."""
    g[ROUND_NO] += 1
    start = (g[START] + g[ROUND_NO] - 1) % players
    deal_cards(g, known, players, mt, cards)
    g[ROUND_START] = start
    g[ACTIVE] = start
    g[TO_MOVE] = start
    g[PHASE] = 0


@njit
def deal_game(g, known, players, start, seed, mt, cards):
    """A new game of `random.Random(seed)` (the engine's `new_game(seed=seed, start=start)`)."""
    g[:] = 0
    mt_seed(mt, seed)
    g[START] = start
    g[ROUND_NO] = 0
    g[LAST] = -1
    new_round(g, known, players, mt, cards)


@njit
def deal_round(g, known, players, start, seed, mt, cards):
    """Round 1 of the engine's game of `seed` with first start seat `start`."""
    deal_game(g, known, players, start, seed, mt, cards)


# -- the codec's observation ------------------------------------------------------------------
@njit
def encode(g, known, n, K, target, me, o):
    """The codec's observation (kombio/codec.py `encode`) of seat `me` into `o`."""
    o[:] = 0.0
    over = g[OVER] != 0
    for p in range(n):
        r = (p - me) % n
        c = 0
        for slot in range(g[LENS + p]):
            card = g[GRIDS + p * SLOTS + slot]
            if card < 0:
                continue
            if c < K:
                b = (r * K + c) * 18
                if seen(known, me, card):
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
    if g[DRAWN] >= 0 and me == g[ACTIVE] and not over:
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
