"""Frozen policies `f(obs, mask) -> actions` and the two-player configurations the opponent
tests (the vector env's pools, the parallel env's opponents) play them in."""

from __future__ import annotations

import numpy as np

#: keyword arguments of make_batch / the envs: the duel and two-player Kombio
DUEL = dict(game="abluxxen", variant="duel", players=2)
TWO_PLAYERS = [DUEL, dict(game="kombio", players=2, target=40)]


def lowest(obs, mask):
    """The lowest legal action id of every game."""
    return mask.argmax(axis=1)


def hashed(obs, mask):
    """A legal action id picked by a function of the observation alone (Kombio's lowest
    legal ids never call Kombio, so its games would not end)."""
    k = (obs * 16).astype(np.int64).sum(axis=1)
    legal = [np.flatnonzero(m) for m in mask]
    return np.array([ids[k[i] % len(ids)] if len(ids) else 0 for i, ids in enumerate(legal)],
                    np.int64)


def counting_pool(calls: dict):
    """An OpponentPool of two policies "a" and "b" (each playing `lowest` and counting in
    `calls` the games it was asked for) and the compiled "random"."""
    from cardtable.rl.batch.pool import OpponentPool

    def member(name):
        def play(obs, mask):
            calls[name] += len(obs)
            return lowest(obs, mask)
        return play

    return OpponentPool([member("a"), member("b"), "random"])
