"""The policy-rollout search's rollouts (bots/pimc.py) on the compiled Kombio simulator: one
full engine state (a determinization, kombio/state.py) loaded into one simulator row (`load`),
then every seat plays the compiled `medium` policy (medium.py `decide`: the Python
`heuristic(state, rng)` the search's rollouts call, decision for decision, on one generator
shared by the seats as the search's `Rng(seed)`) until the search's horizon (the round's end,
kombio/heuristics/search.py `horizon`) or the game's end, and the rollout is scored for one
seat as the search scores it: a finished game by `bots.ismcts.outcome`, else by search.py's
`evaluate` (both compiled here, the floats in the same order). tests/kombio/test_fast_rollout.py
compares a loaded state stepped here with the engine, and these rollouts with the Python ones.

`playout(state, seat, seed, h0, score_weight)` is the whole thing for one rollout; it answers
None (the caller plays the rollout in Python) for a state the simulator does not hold: the
engine option `max_turns`, a grid past the simulator's slots, or a target past 16 bits; and for
a rollout still going after `LIMIT` decisions (none does: a guard, as the compiled loop cannot
be interrupted). Each thread has rows of its own (`rollers`).
"""

from __future__ import annotations

import math

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.medium import decide
from cardtable.kombio.batch.play import apply
from cardtable.kombio.batch.rules import (
    ACT, ACTIVE, ANSWERED, CALLER, CARDS, CLAIMS, CLAIMS_N, COUNTS, DECK, DECK_N, DISCARD,
    DISCARD_N, DRAWN, ERR, GRIDS, LAST, LAST_SCORES, LENS, OVER, PEEKED, PHASE, ROUND_NO,
    ROUND_START, ROW, R_N, R_TARGET, SEATS, SLOTS, SNAP, SNAPPER, START, TABOO, TOP_SNAPPED,
    TO_MOVE, TOTALS, TURN_NO, TURNS_LEFT, VICTIM_P, VICTIM_S, WIN, params, value_of)
from cardtable.rl.batch.rng import MT_WORDS, mt_seed
from cardtable.rl.batch.warm import LIMIT, PerThread
from cardtable.kombio.codec import KombioCodec

PHASES = ("turn", "drawn", "action", "action_swap", "snap", "give", "hand_over")
_PHASE = {p: i for i, p in enumerate(PHASES)}
_M64 = (1 << 64) - 1
#: the largest target the rows hold (int16 totals; env.py MAX_TARGET)
MAX_TARGET = 20_000


def load(state, g, kn, mt) -> bool:
    """Write the engine state `state` into row `g`, its knowledge `kn` ((SEATS + 1) x 2) and
    its generator `mt` (the engine's Mersenne Twister: KO-10 draws, KO-14 reshuffles, deals of
    later rounds). False (and the row is not to be used) if the simulator cannot hold it."""
    n = state.players
    if state.max_turns or state.target > MAX_TARGET or any(len(x) > SLOTS for x in state.grids):
        return False
    g[:] = 0
    g[GRIDS:GRIDS + SEATS * SLOTS] = -1
    for p, grid in enumerate(state.grids):
        b = GRIDS + p * SLOTS
        g[b:b + len(grid)] = grid
        g[LENS + p] = len(grid)
        g[COUNTS + p] = state.counts[p]
    deck, discard = state.deck, state.discard
    g[DECK_N] = len(deck)
    g[DECK:DECK + len(deck)] = deck
    g[DISCARD_N] = len(discard)
    g[DISCARD:DISCARD + len(discard)] = discard
    g[ROUND_START] = state.round_start
    g[ACTIVE] = state.active
    over = state.over
    g[OVER] = 1 if over else 0
    g[TO_MOVE] = -1 if over else state._to_move
    g[DRAWN] = state.drawn
    g[PHASE] = -1 if state.phase is None else _PHASE[state.phase]
    g[CALLER] = -1 if state.caller is None else state.caller
    g[TURNS_LEFT] = state.turns_left
    g[ACT] = state.act
    g[TOP_SNAPPED] = 1 if state.top_snapped else 0
    g[ANSWERED] = state.win_idx
    info = state.snap_info
    g[SNAP] = 0 if info is None else (1 if info[4] else 2)
    g[PEEKED:PEEKED + 4] = -1
    for k, (p, s) in enumerate(state.peeked):
        g[PEEKED + 2 * k] = p
        g[PEEKED + 2 * k + 1] = s - 1
    g[TOTALS:TOTALS + n] = state.totals
    g[TABOO] = state.taboo
    g[CLAIMS_N] = len(state.claims)
    for k, (w, p, s) in enumerate(state.claims):
        g[CLAIMS + 3 * k:CLAIMS + 3 * k + 3] = (w, p, s - 1)
    victim = state.victim
    g[VICTIM_P] = -1 if victim is None else victim[0]
    g[VICTIM_S] = -1 if victim is None else victim[1] - 1
    g[SNAPPER] = state.snapper
    g[ROUND_NO] = state.round_no
    g[START] = state.start
    if state.round_scores:
        g[LAST_SCORES:LAST_SCORES + n] = state.round_scores[-1]
    for s in state.winners() or ():
        g[WIN + s] = 1
    g[LAST] = -1
    g[TURN_NO] = state.turn_no
    kn[:, :] = 0
    for s, bits in enumerate(state.known):
        kn[s, 0] = bits & _M64
        kn[s, 1] = bits >> 64
    kn[SEATS, 0] = state.public & _M64
    kn[SEATS, 1] = state.public >> 64
    words = state.rng._r.getstate()[1]
    mt[:] = words
    return True


# -- scoring: search.py `evaluate`, ismcts.py `outcome` -----------------------------------------
@njit
def evaluate(g, R, seat):
    """search.py `evaluate(state)[seat]` of row `g` (not over)."""
    n = R[R_N]
    sums = np.zeros(SEATS, np.int64)
    for p in range(n):
        for slot in range(g[LENS + p]):
            c = g[GRIDS + p * SLOTS + slot]
            if c >= 0:
                sums[p] += value_of(c)
    caller = g[CALLER]
    rs = np.zeros(SEATS, np.float64)
    if caller < 0 and g[TURN_NO] == 0 and g[DISCARD_N] == 0:
        pass                                    # a fresh deal: alike for every seat
    elif caller < 0:
        for p in range(n):
            rs[p] = 0.5 * sums[p]
    else:
        for p in range(n):
            rs[p] = float(sums[p])
        cs = sums[caller]
        lowest = True
        for t in range(n):
            if t != caller and not cs < sums[t]:
                lowest = False
        if lowest:                                                      # KO-15
            for t in range(n):
                if t != caller and g[COUNTS + t] != 0:
                    rs[t] = rs[t] + 10.0
        else:
            rs[caller] += 15.0
    proj = np.zeros(SEATS, np.float64)
    top = -1e300
    low = 1e300
    for s in range(n):
        proj[s] = g[TOTALS + s] + rs[s]
        top = max(top, proj[s])
        low = min(low, proj[s])
    rest = max(0.0, R[R_TARGET] - top)
    temp = 4.0 + 1.7 * math.sqrt(rest)
    z = 0.0
    mine = 0.0
    for s in range(n):
        e = math.exp((low - proj[s]) / temp)
        z += e
        if s == seat:
            mine = e
    return mine / z


@njit
def outcome(g, R, seat, score_weight, out):
    """bots.ismcts `outcome` of the finished row `g` for `seat`: out = (win share, reward)."""
    n = R[R_N]
    k = 0
    first = -1
    for s in range(n):
        if g[WIN + s]:
            k += 1
            if first < 0:
                first = s
    w = 1.0 / k if k and g[WIN + seat] else 0.0
    out[0] = w
    out[1] = w
    if score_weight == 0.0 or k == 0:
        return
    lo = 10**9
    hi = -10**9
    for s in range(n):
        lo = min(lo, g[TOTALS + s])
        hi = max(hi, g[TOTALS + s])
    top = g[TOTALS + first]
    if hi == lo or (top != hi and top != lo):
        return
    span = float(hi - lo)
    mine = g[TOTALS + seat]
    norm = (mine - lo) / span if top == hi else (hi - mine) / span
    out[1] = (1.0 - score_weight) * w + score_weight * norm


@njit
def roll(g, kn, R, mt, bmt, seed, seat, h0, score_weight, buf, op, os, ov, out, limit):
    """From row `g` every seat plays medium's `decide` on the generator of `seed` (one for all
    seats) until the game ends or the round is no longer `h0`; out = (win, reward) of `seat`.
    Returns the decisions played (-1: a grid outgrew the slots or the rollout went past
    `limit` decisions; out not set)."""
    cards = np.zeros(CARDS, np.int16)
    rs = np.zeros(1, np.uint64)
    mt_seed(bmt, np.uint64(seed))
    d = 0
    while g[OVER] == 0 and g[ROUND_NO] == h0:
        if d >= limit:
            return -1
        a = decide(g, kn, R, rs, 0, bmt, buf, op, os, ov)
        apply(g, kn, R, mt, cards, a)
        d += 1
        if g[ERR]:
            return -1
    if g[OVER]:
        outcome(g, R, seat, score_weight, out)
    else:
        v = evaluate(g, R, seat)
        out[0] = v
        out[1] = v
    return d


class Roller:
    """One row and its scratch for the rollouts of one player count and target."""

    def __init__(self, players: int, target: int):
        codec = KombioCodec(players, target=target)
        self.R = params(players, codec.K, codec.target)
        self.g = np.zeros(ROW, np.int16)
        self.kn = np.zeros((SEATS + 1, 2), np.uint64)
        self.mt = np.zeros(MT_WORDS, np.uint64)
        self.bmt = np.zeros(MT_WORDS, np.uint64)
        self.buf = np.zeros(codec.num_actions, np.int64)
        self.op = np.zeros(SEATS * SLOTS, np.int64)
        self.os = np.zeros(SEATS * SLOTS, np.int64)
        self.ov = np.zeros(SEATS * SLOTS, np.int64)
        self.out = np.zeros(2, np.float64)

    def playout(self, state, seat: int, seed: int, h0: int, score_weight: float):
        """(win, reward) of `seat` after the rollout from `state` (module docstring), None
        if the simulator cannot play it."""
        if not load(state, self.g, self.kn, self.mt):
            return None
        d = roll(self.g, self.kn, self.R, self.mt, self.bmt, seed, seat, h0,
                 float(score_weight), self.buf, self.op, self.os, self.ov, self.out, LIMIT)
        if d < 0:
            return None
        return float(self.out[0]), float(self.out[1])


#: this thread's row per player count and target (rl/batch/warm.py `PerThread`)
rollers = PerThread(Roller)


def playout(state, seat: int, seed: int, h0: int, score_weight: float):
    """`Roller.playout` with a row kept per thread, player count and target."""
    return rollers(state.players, state.target).playout(state, seat, seed, h0, score_weight)


def _warm() -> bool:
    """One rollout of a new game (rl/batch/warm.py `warm`: compiles this module into numba's
    cache, or loads it from there)."""
    from cardtable.kombio import new_game

    st = new_game(players=4, seed=1)
    return playout(st, 0, 1, st.round_no, 0.1) is not None


if __name__ == "__main__":          # the warm-up process (kombio/batch/__init__.py `COMPILED`)
    from pathlib import Path

    from cardtable.rl.batch.warm import warm

    warm(Path(__file__).parent, _warm)
