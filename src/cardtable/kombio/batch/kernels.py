"""Loops over many Kombio games, compiled with numba: reset, step, observe, masks, sampling
and whole random playouts. Each calls the one-game rules of kombio/batch/rules.py / kombio/batch/play.py
on row i of the state array `S` (games x ROW, int16), its knowledge `KN[i]` ((SEATS + 1) x 2
uint64) and its generator `MT[i]` (the engine's Mersenne Twister)."""

from __future__ import annotations

import numpy as np

from cardtable.rl.batch.jit import njit
from cardtable.kombio.batch.play import apply, is_legal, legal_actions
from cardtable.kombio.batch.rules import (CARDS, LAST, OVER, R_K, R_N, R_TARGET, ROW,
                                             SEATS, TO_MOVE, TOTALS, WIN, deal_game, encode)
from cardtable.kombio.batch.policies import opponents
from cardtable.rl.batch.rng import MT_WORDS, split_below, split_next


@njit
def seat_to_show(g):
    s = g[TO_MOVE]
    return s if s >= 0 else max(g[LAST], 0)


@njit
def write_out(g, kn, R, i, seat, obs, mask, buf):
    encode(g, kn, R[R_N], R[R_K], R[R_TARGET], seat, obs[i])
    mask[i, :] = 0
    if g[OVER] == 0:
        m = legal_actions(g, R, buf)
        for q in range(m):
            mask[i, buf[q]] = 1


@njit
def k_reset(S, KN, MT, R, idx, seeds, start, obs, mask, seat):
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(mask.shape[1], np.int64)
    for t in range(idx.shape[0]):
        i = idx[t]
        deal_game(S[i], KN[i], R[R_N], start, seeds[t], MT[i], cards)
        seat[i] = S[i, TO_MOVE]
        write_out(S[i], KN[i], R, t, seat[i], obs, mask, buf)


@njit
def k_first_illegal(S, R, actions, num_actions):
    buf = np.zeros(num_actions, np.int64)
    for i in range(S.shape[0]):
        if S[i, OVER] == 0 and not is_legal(S[i], R, actions[i], buf):
            return i
    return -1


@njit
def k_step(S, KN, MT, R, actions, obs, mask, seat, ended):
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(mask.shape[1], np.int64)
    for i in range(S.shape[0]):
        g = S[i]
        ended[i] = False
        if g[OVER] == 0:
            apply(g, KN[i], R, MT[i], cards, actions[i])
            ended[i] = g[OVER] != 0
        s = seat_to_show(g)
        seat[i] = s
        write_out(g, KN[i], R, i, s, obs, mask, buf)


@njit
def k_observe(S, KN, R, seats, obs):
    for i in range(S.shape[0]):
        encode(S[i], KN[i], R[R_N], R[R_K], R[R_TARGET], seats[i], obs[i])


@njit
def k_masks(S, R, mask):
    buf = np.zeros(mask.shape[1], np.int64)
    for i in range(S.shape[0]):
        mask[i, :] = 0
        if S[i, OVER] == 0:
            m = legal_actions(S[i], R, buf)
            for q in range(m):
                mask[i, buf[q]] = 1


@njit
def k_sample(S, R, rng, out, num_actions):
    buf = np.zeros(num_actions, np.int64)
    for i in range(S.shape[0]):
        out[i] = -1
        if S[i, OVER] == 0:
            m = legal_actions(S[i], R, buf)
            out[i] = buf[split_below(rng, i, m)]


@njit
def k_playouts(R, seeds, rng, num_actions, totals, wins, decisions):
    """Whole games of random legal play, one per seed, in one scratch row."""
    g = np.zeros(ROW, np.int16)
    kn = np.zeros((SEATS + 1, 2), np.uint64)
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(num_actions, np.int64)
    n = R[R_N]
    for t in range(seeds.shape[0]):
        deal_game(g, kn, n, 0, seeds[t], mt, cards)
        d = 0
        while g[OVER] == 0:
            m = legal_actions(g, R, buf)
            apply(g, kn, R, mt, cards, buf[split_below(rng, t, m)])
            d += 1
        decisions[t] = d
        for s in range(n):
            totals[t, s] = g[TOTALS + s]
            wins[t, s] = g[WIN + s]


# -- the vector environment: one learner seat per game, random opponents ----------------------
@njit
def final_reward(g, R, seat, win):
    """Minus the seat's total (KO-16: the lowest wins), or its share of the win."""
    if win == 0:
        return np.float32(-g[TOTALS + seat])
    if g[WIN + seat] == 0:
        return np.float32(0.0)
    k = 0
    for s in range(R[R_N]):
        k += g[WIN + s]
    return np.float32(1.0 / k)


@njit
def _opponents(g, kn, R, mt, cards, i, learner, rng, buf):
    """The opponents (each seat its level, policies.py) move up to the learner's turn."""
    opponents(g, kn, R, mt, cards, i, learner, rng, buf)


@njit
def _new_episode(S, KN, MT, R, i, learner, fixed, rng, cards, buf):
    seed = split_next(rng, i) >> np.uint64(2)
    deal_game(S[i], KN[i], R[R_N], 0, seed, MT[i], cards)
    learner[i] = fixed if fixed >= 0 else split_below(rng, i, R[R_N])
    _opponents(S[i], KN[i], R, MT[i], cards, i, learner[i], rng, buf)


@njit
def k_vec_reset(S, KN, MT, R, learner, fixed, rng, obs, mask):
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(mask.shape[1], np.int64)
    for i in range(S.shape[0]):
        _new_episode(S, KN, MT, R, i, learner, fixed, rng, cards, buf)
        write_out(S[i], KN[i], R, i, learner[i], obs, mask, buf)


@njit
def k_vec_step(S, KN, MT, R, actions, learner, fixed, rng, win, illegal_reward, autoreset,
               obs, mask, reward, terminated, illegal):
    """Next-step autoreset, as abluxxen.batch.kernels.k_vec_step."""
    cards = np.zeros(CARDS, np.int16)
    buf = np.zeros(mask.shape[1], np.int64)
    for i in range(S.shape[0]):
        g = S[i]
        reward[i] = 0.0
        terminated[i] = False
        illegal[i] = False
        if autoreset[i]:
            _new_episode(S, KN, MT, R, i, learner, fixed, rng, cards, buf)
            autoreset[i] = False
        elif not is_legal(g, R, actions[i], buf):
            reward[i] = illegal_reward
            terminated[i] = True
            illegal[i] = True
            autoreset[i] = True
        else:
            apply(g, KN[i], R, MT[i], cards, actions[i])
            _opponents(g, KN[i], R, MT[i], cards, i, learner[i], rng, buf)
            if g[OVER] != 0:
                reward[i] = final_reward(g, R, learner[i], win)
                terminated[i] = True
                autoreset[i] = True
        write_out(g, KN[i], R, i, learner[i], obs, mask, buf)
