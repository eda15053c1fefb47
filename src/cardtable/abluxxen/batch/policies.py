"""The bots' policies compiled for the batched Abluxxen simulator (numba): a level's decision
for the seat to move of one game row `g` (abluxxen/batch/rules.py), the same decision the
Python bot makes in the engine.

Levels (per seat, in the rule array `R` at R_BOTS + seat; 0 for a seat nobody set):
  RANDOM (0): a uniformly random legal action;
  EASY (1): the `easy` level, the `greedy` bot of abluxxen/heuristics.py, rule for rule, with
  its float scores computed in the same order (ties are ties in both);
  MEDIUM (2): the `medium` level, the `heuristic` bot of abluxxen/heuristics.py (card counting
  over the public `known` cards and the discard pile, binomial threats), its floats computed
  in the same order (C's pow as Python's `**`).

Random numbers. The Python bot draws from its own `Rng` (core/rng.py, Python's Mersenne
Twister seeded with the bot's seed): one `below(2**62)` per decision in `bots.act` (the seed of
the determinization it is shown), then greedy's own draws (`below(len(ties))` among the best
plays, `below(4)` before keeping a wanted layer). A policy here draws through `below(rs, i,
mt, n)`: with an empty `mt` from game i's SplitMix64 generator `rs[i]` (cheap: the vector
environment's opponents), with a Mersenne Twister state `mt` (rl/batch/rng.py, seeded like the
bot) from exactly the bot's stream, `act`'s draw included, so that a game of compiled bots is
the engine's game of Python bots decision for decision (`AbluxxenBatch.bot_playouts`;
tests/rl/test_batch_policies.py compares them). Greedy reads only what its seat sees (its hand,
the displays, the pool, the counts, the pending layer, the number of decisions so far), so the
determinization the Python bot is shown changes none of its choices. `decide` is the
`heuristic` function itself (no `act` draw), as the policy-rollout search's rollouts call it
on their own `Rng` (batch/rollout.py).
"""

from __future__ import annotations

import numpy as np
from cardtable.rl.batch.jit import njit

import math

from cardtable.abluxxen.batch.rules import (A_DECK, A_DISCARD, A_JOKERS, A_KEEP, A_LEAVE,
                                               A_PASS, A_POOL, A_SHADOW, A_TAKE, ACTIONS,
                                               COPIES, DC, DECISIONS, DECK_N, DISC, DN, DRAW,
                                               HAND, ITEM, JOKER, KEEP, KNOWN, LAYERS, MAXL,
                                               OPTIONAL, OVER, PCODE, PHASE, PLAY, POOL,
                                               POOL_LEN, POOL_N, R_DUEL, R_N, R_ONES,
                                               R_OPTIONAL, R_PARTIAL, R_SHADOW_BLOCKS, ROW,
                                               SCORES, SHADOW, SHADOWP, SIZE, TAKE, TO_MOVE,
                                               WIN, apply, deal, legal_actions)
from cardtable.rl.batch.rng import MT_WORDS, mt_below, mt_below_2_62, mt_seed, split_below

#: where the rule array holds each seat's level (5 entries; rules.py's R_* come first)
R_BOTS = 7
AGENT = -1                  # a seat the caller plays (the PettingZoo environment's agents)
RANDOM = 0
EASY = 1
MEDIUM = 2
#: level name -> code, the levels compiled here (bots/base.py LEVELS names them)
LEVELS = {"random": RANDOM, "easy": EASY, "medium": MEDIUM}

ENDGAME_SUPPLY = 8          # heuristics.py
LONG_GAME = 400             # heuristics.py


@njit
def below(rs, i, mt, n):
    """A uniform integer in [0, n): from `mt` (Rng.below) if it is a generator state, else
    from game i's SplitMix64 generator."""
    if mt.shape[0] > 0:
        return mt_below(mt, n)
    return split_below(rs, i, n)


@njit
def act_draw(mt):
    """`bots.act`'s `bot.rng.below(2**62)` (the determinization's seed), drawn and dropped
    (a Mersenne Twister stream only; SplitMix64 needs no such step)."""
    if mt.shape[0] > 0:
        mt_below_2_62(mt)


@njit
def _play_args(a):
    if a < A_JOKERS:
        return a // 48 + 1, (a % 48) // 6 + 1, a % 6
    return JOKER, 0, a - A_JOKERS + 1


@njit
def play_score(g, R, a):
    """heuristics.py `play_score`: the greedy score of the play `a`, in the same float
    operations."""
    v, k, j = _play_args(a)
    size = k + j
    me = g[TO_MOVE]
    n = R[R_N]
    score = 2.0 * size - 0.8 * j
    for s in range(n):
        d = g[DN + s]
        if s != me and d > 0:
            code = g[LAYERS + s * MAXL + d - 1]
            tv = code & 15
            tsize = ((code >> 4) & 15) + (code >> 8)
            if tsize == size and (tv < v or (R[R_ONES] != 0 and v == 1 and tv >= 13)):
                score += 2.0 * tsize
    if v < JOKER or R[R_ONES] != 0:
        score -= 0.5 * size * (13 - min(v, 13)) / 13
    if g[SIZE + me] == size:                                # AB-7: only worth it when leading
        mine = g[DC + me] + size
        best_other = -100000
        for s in range(n):
            if s != me:
                best_other = max(best_other, g[DC + s] - g[SIZE + s])
        score += 100.0 if mine >= best_other else -100.0
    return score


@njit
def _useful(g, h, code):
    """A layer holds a joker or a number in the hand at `h`."""
    return (code >> 8) > 0 or (((code >> 4) & 15) > 0 and g[h + (code & 15)] > 0)


@njit
def _best_pool(g, h):
    """heuristics.py `_best_pool`: (match, position) of the first pool item with the best
    match above 0 (-1 for none)."""
    best = 0.0
    pos = -1
    for q in range(g[POOL_N]):
        m = 0.0
        for c in range(g[POOL_LEN + q]):
            card = g[POOL + q * ITEM + c]
            m += 3.0 if card == JOKER else float(g[h + card])
        if m > best:
            best = m
            pos = q
    return best, pos


@njit
def greedy(g, R, rs, i, mt, buf):
    """The `easy` level (heuristics.py `greedy`) for the seat to move of game row `g`; `buf`
    (rules.ACTIONS ints) is scratch."""
    act_draw(mt)
    m = legal_actions(g, R, buf)
    if m == 1:
        return buf[0]
    phase = g[PHASE]
    h = HAND + g[TO_MOVE] * 15
    if phase == PLAY:                   # the best score; ties in legal order, one at random
        top = -1e300
        ties = 0
        for q in range(m):
            sc = play_score(g, R, buf[q])
            if sc > top:
                top = sc
                ties = 1
            elif sc == top:
                ties += 1
        pick = below(rs, i, mt, ties)
        for q in range(m):
            if play_score(g, R, buf[q]) == top:
                if pick == 0:
                    return buf[q]
                pick -= 1
    supply = g[DECK_N] + g[POOL_N]
    if phase == TAKE:
        if _useful(g, h, g[PCODE]) and supply > ENDGAME_SUPPLY:
            return A_TAKE
        return A_LEAVE
    if phase == KEEP:
        code = g[PCODE]
        wanted = ((code >> 4) & 15) + (code >> 8) >= 2 or _useful(g, h, code)
        if wanted and below(rs, i, mt, 4) != 0 and g[DECISIONS] < LONG_GAME:
            return A_KEEP
        return A_DISCARD
    if phase == DRAW:
        best, pos = _best_pool(g, h)
        if pos >= 0:
            return A_POOL + pos
        return A_DECK if g[DECK_N] > 0 else buf[0]
    if phase == OPTIONAL:
        best, pos = _best_pool(g, h)
        if pos >= 0 and best >= 2 and supply > ENDGAME_SUPPLY:
            return A_POOL + pos
        return A_PASS
    if phase == SHADOWP:
        return buf[m - 1]                               # the highest number on offer
    return buf[0]


# -- medium: heuristics.py `heuristic` ---------------------------------------------------------
MAXT = 14                   # heuristics.py: the largest set size the threat tables cover


@njit
def _less(h, uw, total, base, out):
    """heuristics.py `_less_row` into out[0..MAXT]: P(base + X < t), X ~ Binomial(h, uw /
    total), by `_binom_cum`'s operations."""
    p = uw / total if total > 0 else 0.0
    cum = np.ones(MAXT, np.float64)              # cum[i], i < MAXT (a row reads no more)
    if h > 0 and p > 0.0:
        if p >= 1.0:
            for i in range(MAXT):
                cum[i] = 1.0 if i >= h else 0.0
        else:
            q = 1.0 - p
            x = math.pow(q, h)
            r = p / q
            acc = 0.0
            for i in range(min(h + 1, MAXT)):
                if i:
                    x *= r * (h - i + 1) / i
                acc += x
                cum[i] = acc
    out[0] = 0.0
    for t in range(1, MAXT + 1):
        i = t - base - 1
        out[t] = 0.0 if i < 0 else (1.0 if i >= h else cum[i])


@njit
def _threats(g, R, me, less):
    """less[k, w, t] for the k-th opponent (from the left) of `me`: heuristics.py `_Threat`'s
    tables, from the cards `me` cannot see (`_unseen`)."""
    n = R[R_N]
    u = np.zeros(15, np.int64)
    for c in range(1, 15):
        u[c] = COPIES[c] - g[HAND + me * 15 + c] - g[DISC + c]
    for s in range(n):
        for d in range(g[DN + s]):
            code = g[LAYERS + s * MAXL + d]
            u[code & 15] -= (code >> 4) & 15
            u[JOKER] -= code >> 8
        if s != me:
            for c in range(1, 15):
                u[c] -= g[KNOWN + s * 15 + c]
    for q in range(g[POOL_N]):
        for c in range(g[POOL_LEN + q]):
            u[g[POOL + q * ITEM + c]] -= 1
    if R[R_DUEL] != 0:
        for c in range(1, 13):
            u[c] -= g[SHADOW + c]
    total = 0
    for c in range(1, 15):
        total += u[c]
    for k in range(1, n):
        o = (me + k) % n
        kn = KNOWN + o * 15
        sk = 0
        for c in range(1, 15):
            sk += g[kn + c]
        h = max(0, g[SIZE + o] - sk)
        for w in range(1, 15):
            _less(h, u[w], total, g[kn + w], less[k - 1, w])


@njit
def _beats(less, k, R, v, size):
    """heuristics.py `_Threat.beats`: the chance that opponent k can abluxx a layer (v, size)."""
    if size > MAXT - 1:
        return 0.0
    vv = min(v, 13)
    ones = R[R_ONES] != 0 and v >= 13
    fail = 0.0
    for j in range(6):
        pj = less[k, JOKER, j + 1] - less[k, JOKER, j]
        if pj <= 0.0:
            continue
        t = size - j
        if t <= 0 and v < JOKER:
            continue
        t = max(t, 1)
        suffix = 1.0
        for w in range(13, vv, -1):
            suffix *= less[k, w, t]
        f = pj * suffix
        if ones:
            f *= less[k, 1, t]
        fail += f
    return max(0.0, min(1.0, 1.0 - fail))


@njit
def _score_of(g, s):
    return g[DC + s] - g[SIZE + s]


@njit
def _play_value(g, R, a, less, best_other):
    """heuristics.py `_play_value` of the play `a` (constants: its `P`)."""
    v, k, j = _play_args(a)
    size = k + j
    me = g[TO_MOVE]
    n = R[R_N]
    h = HAND + me * 15
    if g[SIZE + me] == size:                                    # AB-7: this ends the game
        mine = _score_of(g, me) + 2 * size
        if mine > best_other:
            return 1e6
        if mine == best_other:
            return 1e5
        return -1e6 + size
    val = 2.0 * size
    hit = False
    for q in range(1, n):
        o = (me + q) % n
        d = g[DN + o]
        if d == 0:
            continue
        code = g[LAYERS + o * MAXL + d - 1]
        tv = code & 15
        tk = (code >> 4) & 15
        tj = code >> 8
        if tk + tj == size and (tv < v or (R[R_ONES] != 0 and v == 1 and tv >= 13)):
            hit = True
            w = 1.0 if _score_of(g, o) >= best_other - 2 else 0.5
            val += 1.0 * 2.0 * (tk + tj) * w
            match = tj
            if tk and g[h + tv] > 0:
                match += tk
            val += 1.0 * match
    if R[R_DUEL] != 0:                                          # DU-4: a forced shadowluxx
        opts = 0
        fits = False
        for w in range(1, min(v, 13)):
            c = g[SHADOW + w]
            if c == size or (R[R_PARTIAL] != 0 and c > size):
                opts += 1
                if g[h + w] > 0:
                    fits = True
        if opts:
            hit = hit or R[R_SHADOW_BLOCKS] != 0
            val -= 1.0 * size
            if fits:
                val += 1.0 * size
    if g[SIZE + me] - size == 1:
        if _score_of(g, me) + 2 * size + 2 > best_other:
            val += 6.0
        elif not (R[R_OPTIONAL] != 0 and not hit):
            val -= 6.0
    keep = 1.0
    for q in range(n - 1):
        keep *= 1.0 - 1.0 * _beats(less, q, R, v, size)
    val -= 4.0 * 2.0 * size * (1.0 - keep)
    val -= 1.0 * j
    if v != JOKER and g[h + v] > k:
        val -= 0.7 * (g[h + v] - k)
    return val


@njit
def _match_value(g, h, q):
    m = 0.0
    for c in range(g[POOL_LEN + q]):
        card = g[POOL + q * ITEM + c]
        if card == JOKER:
            m += 2.0
        elif g[h + card]:
            m += min(g[h + card], 3) + card / 13.0
        else:
            m += 0.0
    return m


@njit
def heuristic(g, R, rs, i, mt, buf):
    """The `medium` level (heuristics.py `heuristic`) for the seat to move of game row `g`:
    `bots.act`'s draw, then `decide`."""
    act_draw(mt)
    return decide(g, R, rs, i, mt, buf)


@njit
def decide(g, R, rs, i, mt, buf):
    """heuristics.py `heuristic(state, rng)` for the seat to move of game row `g`, drawing
    from `mt` as from `rng` (the policy-rollout search's rollouts, batch/rollout.py)."""
    m = legal_actions(g, R, buf)
    if m == 1:
        return buf[0]
    phase = g[PHASE]
    me = g[TO_MOVE]
    n = R[R_N]
    h = HAND + me * 15
    best_other = -100000
    for q in range(1, n):
        best_other = max(best_other, _score_of(g, (me + q) % n))
    if phase == PLAY:
        less = np.zeros((n - 1, 15, MAXT + 1), np.float64)
        _threats(g, R, me, less)
        top = -1e300
        vals = np.empty(m, np.float64)
        for q in range(m):
            vals[q] = _play_value(g, R, buf[q], less, best_other)
            top = max(top, vals[q])
        ties = 0
        for q in range(m):
            if vals[q] >= top - 1e-9:
                ties += 1
        pick = below(rs, i, mt, ties)
        for q in range(m):
            if vals[q] >= top - 1e-9:
                if pick == 0:
                    return buf[q]
                pick -= 1
    if phase == TAKE:
        code = g[PCODE]
        use = 2.0 * (code >> 8)
        if (code >> 4) & 15:
            for _ in range((code >> 4) & 15):
                use += 1.0 if g[h + (code & 15)] > 0 else 0.0
        return A_TAKE if use >= 1.0 else A_LEAVE
    if phase == KEEP:
        if g[DECISIONS] >= LONG_GAME:
            return A_DISCARD
        code = g[PCODE]
        if ((code >> 4) & 15) + (code >> 8) >= 2 or _useful(g, h, code):
            return A_KEEP if below(rs, i, mt, 100) >= 25 else A_DISCARD
        return A_DISCARD
    if phase == DRAW or phase == OPTIONAL:
        best = 0.0
        pos = -1
        for q in range(g[POOL_N]):
            mv = _match_value(g, h, q)
            if mv > best:
                best = mv
                pos = q
        fallback = A_DECK if g[DECK_N] > 0 else buf[0]
        if phase == OPTIONAL:
            if g[SIZE + me] == 1 and _score_of(g, me) + 2 <= best_other:
                return A_POOL + pos if pos >= 0 else fallback
            return A_POOL + pos if pos >= 0 and best >= 1.0 else A_PASS
        return A_POOL + pos if pos >= 0 else fallback
    if phase == SHADOWP:
        for q in range(m - 1, -1, -1):
            if g[h + buf[q] - A_SHADOW] > 0:
                return buf[q]
        return buf[m - 1]
    return buf[0]


@njit
def choose(level, g, R, rs, i, mt, buf):
    """The decision of `level` (RANDOM, EASY) for the seat to move of game row `g`, from game
    i's generator `rs` or the generator state `mt` (see `below`); `buf` is scratch."""
    if level == EASY:
        return greedy(g, R, rs, i, mt, buf)
    if level == MEDIUM:
        return heuristic(g, R, rs, i, mt, buf)
    act_draw(mt)                                        # bots.py RandomBot through `act`
    m = legal_actions(g, R, buf)
    return buf[below(rs, i, mt, m)]


@njit
def k_bot_playouts(R, seeds, bot_seeds, rs, mts, scores, wins, decisions, trace):
    """Whole games, one per seed, every seat played by its level (R[R_BOTS + seat]): per game
    the final scores, the winner flags, the number of decisions and (up to trace's width) the
    action ids in order (-1 after the end). With `mts` one generator state per seat (players x
    rng.MT_WORDS), seat s of game t draws from Python's generator seeded with bot_seeds[t, s],
    as the engine's bot `make_bot(level, seed=bot_seeds[t, s])` does; with `mts` of width 0
    from game t's SplitMix64 `rs[t]`."""
    g = np.zeros(ROW, np.int16)
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(109, np.int16)
    buf = np.zeros(ACTIONS, np.int64)
    n = R[R_N]
    width = trace.shape[1]
    for t in range(seeds.shape[0]):
        deal(g, R, seeds[t], mt, cards)
        if mts.shape[1] > 0:
            for s in range(n):
                mt_seed(mts[s], bot_seeds[t, s])
        d = 0
        while g[OVER] == 0:
            s = g[TO_MOVE]
            a = choose(R[R_BOTS + s], g, R, rs, t, mts[s], buf)
            apply(g, R, a)
            if d < width:
                trace[t, d] = a
            d += 1
        for q in range(d, width):
            trace[t, q] = -1
        decisions[t] = d
        for s in range(n):
            scores[t, s] = g[SCORES + s]
            wins[t, s] = g[WIN + s]


@njit
def k_play_bots(S, R, rng, ended):
    """In every game that is not over, the seats of a compiled level (not AGENT) move until an
    agent's seat is to move or the game is over (ended[i]: it ended so)."""
    buf = np.zeros(ACTIONS, np.int64)
    none = np.zeros(0, np.uint64)
    for i in range(S.shape[0]):
        g = S[i]
        ended[i] = False
        while g[OVER] == 0 and R[R_BOTS + g[TO_MOVE]] != AGENT:
            apply(g, R, choose(R[R_BOTS + g[TO_MOVE]], g, R, rng, i, none, buf))
            ended[i] = g[OVER] != 0
