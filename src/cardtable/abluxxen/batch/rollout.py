"""The policy-rollout search's rollouts (bots/pimc.py) on the compiled Abluxxen simulator: one
full engine state (a determinization, abluxxen/state.py) loaded into one simulator row
(`load`), then every seat plays the compiled `heuristic` (policies.py `decide`: the Python
`heuristic(state, rng)` the search's rollouts call, decision for decision, on one generator
shared by the seats as the search's `Rng(seed)`) until the game ends or the seat to move has
changed `stop_turns` times (the search's turn cap: `circles` times around the table, counted
by heuristics.py `turn_key`), and the rollout is scored for one seat as the search scores it:
a finished game by `bots.ismcts.outcome`, a stopped one by the learned evaluation
(bots/value.py: the network of the state's `value_family` over heuristics.py `features`) or,
without it, by heuristics.py `evaluate`.

The rollout and the features run compiled; the scoring of its last state runs here in Python
with the same operations as the search's, and the learned evaluation's network is the search's
own (`nets`: bots/value.py `load` for the game, handed in by the search), given the same floats
as its features, so a compiled rollout's (win, reward) is the Python rollout's to the last bit.
tests/abluxxen/test_fast_rollout.py compares a loaded state stepped here with the engine, the
features with `features`, and these rollouts with the Python ones.

`playout(state, seat, seed, h0, score_weight, stop_turns, nets)` is the whole thing for one
rollout (`h0` unused: Abluxxen has no horizon; `nets(family)` the network of a family or None,
`nets` None for the hand-made `evaluate`); it answers None (the caller plays the rollout in
Python) for a state the simulator does not hold (more seats than its rows have, a pool item or
a display past its slots), a learned network whose inputs are not `features`, or a rollout
still going after `LIMIT` decisions (none does: a guard, as the compiled loop cannot be
interrupted). Each thread has rows of its own (`rollers`).
"""

from __future__ import annotations

import math

import numpy as np

from cardtable.abluxxen.batch.policies import decide
from cardtable.abluxxen.batch.rules import (
    ABLUXXED, ACTIONS, ACTIVE, AFTER, CHECK, CUR_SIZE, CUR_V, DC, DECISIONS, DECK, DECK_N,
    DISC, DISCARD_N, DN, ENDED, HAND, ITEM, JOKER, KNOWN, LAST, LAYERS, MAXL, OVER, OWED,
    PCODE, PHASE, POOL, POOL_LEN, POOL_N, PV, R_DUEL, R_N, R_ONES, R_OPTIONAL, R_TIEBREAK, ROW,
    SCORES, SEATS, SHADOW, SHADOW_SIZE, SIZE, TO_MOVE, WIN, apply)
from cardtable.abluxxen.state import PHASES
from cardtable.rl.batch.jit import njit
from cardtable.rl.batch.rng import MT_WORDS, mt_seed
from cardtable.rl.batch.warm import LIMIT, PerThread

_PHASE = {p: i for i, p in enumerate(PHASES)}          # the codec's AB_PHASES, the same order
#: the inputs of the learned evaluation per seat (heuristics.py `features`)
FEATURES = 22
_ENDED = {"hand": 1, "supply": 2}
#: the largest int16 (the row's decision counter stops there; the heuristic reads it below 400)
_I16 = 32767


def layer_code(layer: tuple) -> int:
    """rules.py's int of a display layer (a sorted tuple: numbers first, jokers last)."""
    j = layer.count(JOKER)
    v = layer[0]
    return v + 256 * j if v == JOKER else v + 16 * (len(layer) - j) + 256 * j


def rules_of(state) -> np.ndarray:
    """The rule array `R` of rules.py for `state`'s players and rules (policies.py's levels
    after them are not read by the rollouts)."""
    r = state.rules
    return np.array([state.players, r.optional_draw, r.ones_beat_top, r.duel, r.shadow_partial,
                     r.tiebreak_fewer_hand, r.shadow_blocks_draw] + [0] * SEATS, np.int64)


def load(state, g) -> bool:
    """Write the engine state `state` into row `g`. False (and the row is not to be used) if
    the simulator cannot hold it."""
    n = state.players
    if n > SEATS or len(state.pool) > 6 or any(len(it) > ITEM for it in state.pool) or any(
            len(d) > MAXL for d in state.displays) or len(state.deck) > 109:
        return False
    g[:] = 0
    for s in range(n):
        g[HAND + s * 15:HAND + s * 15 + 15] = state.hands[s]
        g[KNOWN + s * 15:KNOWN + s * 15 + 15] = state.known[s]
        g[SIZE + s] = state.sizes[s]
        disp = state.displays[s]
        g[DN + s] = len(disp)
        g[DC + s] = sum(len(layer) for layer in disp)
        for i, layer in enumerate(disp):
            g[LAYERS + s * MAXL + i] = layer_code(layer)
    g[POOL_N] = len(state.pool)
    for i, item in enumerate(state.pool):
        g[POOL_LEN + i] = len(item)
        g[POOL + i * ITEM:POOL + i * ITEM + len(item)] = item
    deck = state.deck
    g[DECK_N] = len(deck)
    g[DECK:DECK + len(deck)] = deck
    g[DISCARD_N] = len(state.discard)
    for c in state.discard:
        g[DISC + c] += 1
    if state.shadow is not None:
        for c in range(1, 13):
            g[SHADOW + c] = state.shadow[c]
        g[SHADOW_SIZE] = state.shadow_size
    g[ACTIVE] = state.active
    over = state.over
    g[PHASE] = -1 if over else _PHASE[state.phase]
    g[TO_MOVE] = -1 if over else state._to_move
    pending = state.pending
    g[PV] = -1 if pending is None else pending[0]
    g[PCODE] = 0 if pending is None else layer_code(pending[1])
    g[OWED] = state.owed
    g[AFTER] = 1 if state.after_draw == "end" else 0
    g[CHECK] = state.check
    g[ABLUXXED] = 1 if state.abluxxed else 0
    g[CUR_V] = state.cur_value
    g[CUR_SIZE] = state.cur_size
    g[OVER] = 1 if over else 0
    g[ENDED] = _ENDED.get(state.ended_by, 0)
    g[LAST] = -1
    if over:
        g[SCORES:SCORES + n] = state.scores()
        for s in state.winners():
            g[WIN + s] = 1
    g[DECISIONS] = min(len(state.history), _I16)
    return True


@njit
def features(g, R, out):
    """heuristics.py `features` of row `g` into out (players x FEATURES), float for float."""
    n = R[R_N]
    rest = g[DECK_N] + g[POOL_N]
    total = 0
    for s in range(n):
        total += g[SIZE + s]
    mean_hand = total / n
    active = g[ACTIVE]
    shadow = g[SHADOW_SIZE] if R[R_DUEL] != 0 else 0
    for s in range(n):
        h = HAND + s * 15
        distinct = 0
        maxg = 0
        pairs = 0
        for v in range(1, 14):
            c = g[h + v]
            if c:
                distinct += 1
                maxg = max(maxg, c)
                pairs += c - 1
        high = 0
        for v in range(10, 14):
            high += g[h + v]
        d = g[DN + s]
        top_len = 0
        top_v = 0
        if d:
            code = g[LAYERS + s * MAXL + d - 1]
            top_len = ((code >> 4) & 15) + (code >> 8)
            top_v = min(code & 15, 13)
        score = g[DC + s] - g[SIZE + s]
        best_other = -100000
        for o in range(n):
            if o != s:
                best_other = max(best_other, g[DC + o] - g[SIZE + o])
        pos = (s - active + n) % n
        size = g[SIZE + s]
        row = out[s]
        row[0] = score / 10.0
        row[1] = (score - best_other) / 10.0
        row[2] = g[DC + s] / 10.0
        row[3] = size / 10.0
        row[4] = g[h + JOKER] / 2.0
        row[5] = distinct / 5.0
        row[6] = maxg / 3.0
        row[7] = pairs / 5.0
        row[8] = high / 5.0
        row[9] = top_len / 3.0
        row[10] = top_v / 13.0
        row[11] = 1.0 if size == 1 else 0.0
        row[12] = 1.0 if pos == 0 else 0.0
        row[13] = 1.0 if pos == 1 else 0.0
        row[14] = 1.0 if pos == n - 1 else 0.0
        row[15] = rest / 40.0
        row[16] = mean_hand / 10.0
        row[17] = n / 5.0
        row[18] = 1.0 if R[R_OPTIONAL] != 0 else 0.0
        row[19] = 1.0 if R[R_ONES] != 0 else 0.0
        row[20] = 1.0 if R[R_TIEBREAK] != 0 else 0.0
        row[21] = shadow / 20.0


@njit
def roll(g, R, mt, seed, stop_turns, buf, limit):
    """From row `g` every seat plays policies.py `decide` on the generator of `seed` (one for
    all seats) until the game ends or the seat whose turn it is has changed `stop_turns` times
    (-1: no cap); returns the decisions played, -1 past `limit` of them (module docstring)."""
    rs = np.zeros(1, np.uint64)
    mt_seed(mt, np.uint64(seed))
    key = g[ACTIVE]
    turns = 0
    d = 0
    while g[OVER] == 0:
        if g[ACTIVE] != key:
            key = g[ACTIVE]
            turns += 1
            if stop_turns >= 0 and turns >= stop_turns:
                break
        if d >= limit:
            return -1
        apply(g, R, decide(g, R, rs, 0, mt, buf))
        d += 1
    return d


# -- scoring: ismcts.py `outcome`, heuristics.py `evaluate` ---------------------------------------
def outcome(row: list[int], n: int, seat: int, sw: float) -> tuple[float, float]:
    """bots.ismcts `outcome(state, sw)` of the finished row (as a list) for `seat`."""
    winners = [s for s in range(n) if row[WIN + s]]
    win = [0.0] * n
    if winners:
        share = 1.0 / len(winners)
        for s in winners:
            win[s] = share
    if not sw or not winners:
        return win[seat], win[seat]
    scores = row[SCORES:SCORES + n]
    lo, hi = min(scores), max(scores)
    top = scores[winners[0]]
    if hi == lo or (top != hi and top != lo):
        return win[seat], win[seat]
    span = float(hi - lo)
    norm = (scores[seat] - lo) / span if top == hi else (hi - scores[seat]) / span
    return win[seat], (1.0 - sw) * win[seat] + sw * norm


def evaluate(row: list[int], n: int, seat: int) -> float:
    """heuristics.py `evaluate(state)[seat]` of the row (as a list), not over."""
    sizes = row[SIZE:SIZE + n]
    rest = row[DECK_N] + row[POOL_N] + sum(sizes) / n
    lam = math.exp(-rest / 3.0)
    temp = 1.5 + 0.08 * rest
    proj = [row[DC + s] - lam * sizes[s] + 1.5 * row[HAND + s * 15 + JOKER] for s in range(n)]
    top = max(proj)
    e = [math.exp((p - top) / temp) for p in proj]
    z = sum(e)
    return [x / z for x in e][seat]


class Roller:
    """One row and its scratch for the rollouts of one player count."""

    def __init__(self, players: int):
        self.g = np.zeros(ROW, np.int16)
        self.mt = np.zeros(MT_WORDS, np.uint64)
        self.buf = np.zeros(ACTIONS, np.int64)
        self.feats = np.zeros((players, FEATURES), np.float64)
        self.R: dict = {}

    def playout(self, state, seat: int, seed: int, score_weight: float,
                stop_turns: int | None, nets):
        """(win, reward) of `seat` after the rollout from `state` (module docstring), None
        if the simulator cannot play it."""
        from cardtable.abluxxen.heuristics import value_family

        net = nets(value_family(state)) if nets else None
        if net is not None and net.w1.shape[0] != FEATURES:
            return None
        if not load(state, self.g):
            return None
        R = self.R.get(state.rules)
        if R is None:
            R = self.R[state.rules] = rules_of(state)
        if roll(self.g, R, self.mt, seed, -1 if stop_turns is None else int(stop_turns),
                self.buf, LIMIT) < 0:
            return None
        n = state.players
        row = self.g[:POOL].tolist()            # the counts the scoring reads (all before POOL)
        if row[OVER]:
            return outcome(row, n, seat, score_weight)
        if net is None:
            w = evaluate(row, n, seat)
        else:
            features(self.g, R, self.feats)
            w = net(self.feats)[seat]
        return w, w


#: this thread's row per player count (rl/batch/warm.py `PerThread`)
rollers = PerThread(Roller)


def playout(state, seat: int, seed: int, h0, score_weight: float,
            stop_turns: int | None = None, nets=None):
    """`Roller.playout` with a row kept per thread and player count (module docstring)."""
    n = state.players
    if n > SEATS:
        return None
    return rollers(n).playout(state, seat, seed, score_weight, stop_turns, nets)


def _warm() -> bool:
    """One rollout of a new game (rl/batch/warm.py `warm`: compiles this module into numba's
    cache, or loads it from there)."""
    from cardtable.abluxxen import new_game

    st = new_game(players=4, seed=1)
    r = Roller(4)
    ok = r.playout(st, 0, 1, 0.1, 4, None) is not None
    features(r.g, rules_of(st), r.feats)          # the learned evaluation's inputs as well
    return ok


if __name__ == "__main__":          # the warm-up process (abluxxen/batch/__init__.py `COMPILED`)
    from pathlib import Path

    from cardtable.rl.batch.warm import warm

    warm(Path(__file__).parent, _warm)
