"""Shared test helper: seeded random play-outs through the public protocol."""

from __future__ import annotations

from cardtable import new_game
from cardtable.core.rng import Rng


def finished(game, opts, seed):
    """A game played to the end with uniformly random legal decisions."""
    g = new_game(game, seed=seed, **opts)
    rng = Rng(seed)
    while not g.over:
        legal = g.legal_decisions()
        g.apply(legal[rng.below(len(legal))])
    return g


def walk(game, opts, seed, steps):
    """A state `steps` uniformly random decisions into a game, then past forced decisions."""
    g = new_game(game, seed=seed, **opts)
    rng = Rng(seed)
    for _ in range(steps):
        if g.over:
            break
        legal = g.legal_decisions()
        g.apply(legal[rng.below(len(legal))])
    while not g.over and len(g.legal_decisions()) == 1:
        g.apply(g.legal_decisions()[0])
    return g
