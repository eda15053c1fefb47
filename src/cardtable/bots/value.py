"""Learned evaluations: a small neural network per game family that estimates each seat's
chance to win from a full state (a determinization), trained by `scripts/train_value.py`
from games of the `heuristic` bot and shipped as JSON weights in the package the game's
declaration names (`GameInfo.values`: `<family>.json`, e.g. cardtable/abluxxen/values/). Only
numpy is needed to use it.

The network scores every seat alike: utility u_s = w2 . tanh(W1 x_s + b1) + b2 for the seat's
features x_s (`cardtable.<game>.heuristics.features(state)`, standardized with the training
set's mean and deviation); the seats' win chances are softmax(u). A state's family is chosen by
`cardtable.<game>.heuristics.value_family(state)`; a family without weights has no learned
evaluation (`value_fn` returns None, the search then uses the game's `evaluate`).

A game's compiled rollouts score their stopped states with these same networks: the search
hands its playout `load` for the game (bots/pimc.py), so the compiled and the Python rollouts
share one evaluation.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Callable

import numpy as np

from cardtable.bots.hooks import hook
from cardtable.core.registry import info


class ValueNet:
    """One trained network (see the module docstring)."""

    def __init__(self, data: dict):
        self.mean = np.asarray(data["mean"], dtype=float)
        self.std = np.asarray(data["std"], dtype=float)
        self.w1 = np.asarray(data["w1"], dtype=float)
        self.b1 = np.asarray(data["b1"], dtype=float)
        self.w2 = np.asarray(data["w2"], dtype=float)
        self.b2 = float(data.get("b2", 0.0))
        self.meta = {k: v for k, v in data.items() if k not in ("mean", "std", "w1", "b1", "w2")}

    def utilities(self, feats) -> np.ndarray:
        x = (np.asarray(feats, dtype=float) - self.mean) / self.std
        return np.tanh(x @ self.w1 + self.b1) @ self.w2 + self.b2

    def __call__(self, feats) -> list[float]:
        u = self.utilities(feats)
        e = np.exp(u - u.max())
        return (e / e.sum()).tolist()


_nets: dict[tuple[str, str], ValueNet | None] = {}


def load(game: str, family: str) -> ValueNet | None:
    """The network of `family` of `game` (cached): `<family>.json` in the package the game
    declares as its `values`; None if none is shipped."""
    key = (game, family)
    if key not in _nets:
        package, net = info(game).values, None
        if package is not None:
            path = resources.files(package).joinpath(f"{family}.json")
            if path.is_file():
                net = ValueNet(json.loads(path.read_text(encoding="utf-8")))
        _nets[key] = net
    return _nets[key]


_fns: dict[str, Callable | None] = {}


def value_fn(game: str) -> Callable | None:
    """evaluate(state) -> per-seat win chances with the learned networks of `game`, falling
    back to the game's hand-made `evaluate` for a family without weights; None if the game has
    no features (cached)."""
    if game not in _fns:
        _fns[game] = _make_value_fn(game)
    return _fns[game]


def _make_value_fn(game: str) -> Callable | None:
    features, family_of = hook(game, "features"), hook(game, "value_family")
    if features is None or family_of is None:
        return None
    fallback = hook(game, "evaluate")

    def evaluate(state) -> list[float]:
        if state.over:
            return fallback(state)
        net = load(game, family_of(state))
        if net is None:
            return fallback(state)
        return net(features(state))

    return evaluate
