"""The bots' levels compiled for the batched Kombio simulator (numba), and the loops that play
them: a level's decision for the seat to move of one game (row `g`, knowledge `kn`:
kombio/batch/rules.py), the same decision the Python bot makes in the engine. Levels, the random
numbers and how they are checked are those of abluxxen/batch/policies.py: RANDOM (0) a uniformly
random legal action; EASY (1) the `easy` level, Kombio's `greedy` (easy.py); MEDIUM (2) the
`medium` level, Kombio's `heuristic` (medium.py).

A choice the codec cannot name (a card past the `max_cards`-th of a grid) or that is not
legal falls back, as greedy does, to a random legal decision, here among the codec's ids,
which the codec lists in another order than the engine (so there, and in the RANDOM level,
the same draw picks another decision: rare for greedy and the heuristic, and
tests/rl/test_batch_policies.py's games never meet it).
"""

from __future__ import annotations

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.play import apply, legal_actions
from cardtable.kombio.batch.rules import (
    CARDS, OVER, ROW, R_N, SEATS, SLOTS, TOTALS, TO_MOVE, WIN, deal_game)
from cardtable.rl.batch.rng import MT_WORDS, mt_seed
from cardtable.kombio.batch.easy import act_draw, below, greedy
from cardtable.kombio.batch.medium import heuristic

#: where the parameter array holds each seat's level (6 entries after rules.py's R_*)
R_BOTS = 7
AGENT = -1
RANDOM = 0
EASY = 1
MEDIUM = 2
LEVELS = {"random": RANDOM, "easy": EASY, "medium": MEDIUM}

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
