"""Loops over many Abluxxen games, compiled with numba: reset, step, observe, sample, the
vector environment's learner step and whole random playouts. Each calls the one-game rules of
abluxxen/batch/rules.py on row i of the state array `S` (games x ROW, int16)."""

from __future__ import annotations

import numpy as np
from cardtable.rl.batch.jit import njit

from cardtable.abluxxen.batch.rules import (ACTIONS, LAST, OVER, R_N, ROW, SCORES,
                                               TO_MOVE, WIN, apply, deal, encode, is_legal,
                                               legal_actions)
from cardtable.abluxxen.batch.policies import R_BOTS, choose
from cardtable.rl.batch.rng import MT_WORDS, split_below, split_next


@njit
def seat_to_show(g):
    """The seat whose observation a step returns: the seat to move, or in a game that is over
    the seat that made the last decision."""
    s = g[TO_MOVE]
    return s if s >= 0 else max(g[LAST], 0)


@njit
def write_out(g, R, i, seat, obs, mask, buf):
    """Game i's observation of `seat` and the mask of the seat to move (zeros when over)."""
    encode(g, R, seat, obs[i])
    mask[i, :] = 0
    if g[OVER] == 0:
        m = legal_actions(g, R, buf)
        for q in range(m):
            mask[i, buf[q]] = 1


@njit
def k_reset(S, R, idx, seeds, obs, mask, seat):
    """Deal games idx[t] from seeds[t] and write their first observation and mask to row t."""
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(109, np.int16)
    buf = np.zeros(ACTIONS, np.int64)
    for t in range(idx.shape[0]):
        i = idx[t]
        deal(S[i], R, seeds[t], mt, cards)
        seat[i] = 0
        write_out(S[i], R, t, 0, obs, mask, buf)


@njit
def k_first_illegal(S, R, actions):
    """The first game whose action is illegal (games that are over are skipped), or -1."""
    for i in range(S.shape[0]):
        if S[i, OVER] == 0 and not is_legal(S[i], R, actions[i]):
            return i
    return -1


@njit
def k_step(S, R, actions, obs, mask, seat, ended):
    """Apply actions[i] in every game that is not over; write the next observation and mask;
    ended[i] = the game ended with this step."""
    buf = np.zeros(ACTIONS, np.int64)
    for i in range(S.shape[0]):
        g = S[i]
        ended[i] = False
        if g[OVER] == 0:
            apply(g, R, actions[i])
            ended[i] = g[OVER] != 0
        s = seat_to_show(g)
        seat[i] = s
        write_out(g, R, i, s, obs, mask, buf)


@njit
def k_observe(S, R, seats, obs):
    for i in range(S.shape[0]):
        encode(S[i], R, seats[i], obs[i])


@njit
def k_masks(S, R, mask):
    buf = np.zeros(ACTIONS, np.int64)
    for i in range(S.shape[0]):
        mask[i, :] = 0
        if S[i, OVER] == 0:
            m = legal_actions(S[i], R, buf)
            for q in range(m):
                mask[i, buf[q]] = 1


@njit
def k_sample(S, R, rng, out):
    """A uniformly random legal action per game (-1 in a game that is over)."""
    buf = np.zeros(ACTIONS, np.int64)
    for i in range(S.shape[0]):
        out[i] = -1
        if S[i, OVER] == 0:
            m = legal_actions(S[i], R, buf)
            out[i] = buf[split_below(rng, i, m)]


@njit
def final_reward(g, R, seat, win):
    """AB-17 score, or (win) the seat's share of the win (1/k for each of k winners)."""
    if win == 0:
        return np.float32(g[SCORES + seat])
    if g[WIN + seat] == 0:
        return np.float32(0.0)
    k = 0
    for s in range(R[R_N]):
        k += g[WIN + s]
    return np.float32(1.0 / k)


@njit
def k_playouts(R, seeds, rng, scores, wins, decisions):
    """Whole games of random legal play, one per seed, in one scratch row: per game the final
    scores, the winner flags and the number of decisions."""
    g = np.zeros(ROW, np.int16)
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(109, np.int16)
    buf = np.zeros(ACTIONS, np.int64)
    n = R[R_N]
    for t in range(seeds.shape[0]):
        deal(g, R, seeds[t], mt, cards)
        d = 0
        while g[OVER] == 0:
            m = legal_actions(g, R, buf)
            apply(g, R, buf[split_below(rng, t, m)])
            d += 1
        decisions[t] = d
        for s in range(n):
            scores[t, s] = g[SCORES + s]
            wins[t, s] = g[WIN + s]


# -- the vector environment: one learner seat per game, compiled opponents --------------------
@njit
def _opponents(g, R, i, learner, rng, buf):
    """The opponents play (each seat its level, R[R_BOTS + seat]: policies.py) until the
    learner is to move or the game is over."""
    none = np.zeros(0, np.uint64)
    while g[OVER] == 0 and g[TO_MOVE] != learner:
        apply(g, R, choose(R[R_BOTS + g[TO_MOVE]], g, R, rng, i, none, buf))


@njit
def _new_episode(S, R, i, learner, fixed, rng, mt, cards, buf):
    """A new game for env i: its deal seed (62 bits) and, unless fixed, the learner's seat
    from env i's generator; the opponents move up to the learner's first decision."""
    seed = split_next(rng, i) >> np.uint64(2)
    deal(S[i], R, seed, mt, cards)
    learner[i] = fixed if fixed >= 0 else split_below(rng, i, R[R_N])
    _opponents(S[i], R, i, learner[i], rng, buf)


@njit
def k_vec_reset(S, R, learner, fixed, rng, obs, mask):
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(109, np.int16)
    buf = np.zeros(ACTIONS, np.int64)
    for i in range(S.shape[0]):
        _new_episode(S, R, i, learner, fixed, rng, mt, cards, buf)
        write_out(S[i], R, i, learner[i], obs, mask, buf)


@njit
def k_vec_step(S, R, actions, learner, fixed, rng, win, illegal_reward, autoreset,
               obs, mask, reward, terminated, illegal):
    """Next-step autoreset: an env that ended at the previous step starts a new game (its
    action is ignored); otherwise the learner's action (an illegal one ends the episode with
    `illegal_reward`, the game unchanged) and the opponents' moves up to its next decision."""
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(109, np.int16)
    buf = np.zeros(ACTIONS, np.int64)
    for i in range(S.shape[0]):
        g = S[i]
        reward[i] = 0.0
        terminated[i] = False
        illegal[i] = False
        if autoreset[i]:
            _new_episode(S, R, i, learner, fixed, rng, mt, cards, buf)
            autoreset[i] = False
        elif not is_legal(g, R, actions[i]):
            reward[i] = illegal_reward
            terminated[i] = True
            illegal[i] = True
            autoreset[i] = True
        else:
            apply(g, R, actions[i])
            _opponents(g, R, i, learner[i], rng, buf)
            if g[OVER] != 0:
                reward[i] = final_reward(g, R, learner[i], win)
                terminated[i] = True
                autoreset[i] = True
        write_out(g, R, i, learner[i], obs, mask, buf)
