"""Fixed action ids and observation tensors for both games, read from the core protocol only:
a seat's view (`state.view(seat)`, NOTATION.md) and the legal decisions' notation texts. Every
research front end (PettingZoo, Gymnasium, OpenSpiel) uses the same codec, so an action id and a
tensor mean the same in all three.

`make_codec(game, players, **options)` returns the codec the game declares (`GameInfo.codec`,
core/registry.py: a class taking `(players, **options)`; `abluxxen/codec.py`,
`kombio/codec.py`, whose docstrings give their layouts):

    codec.num_actions               size of the fixed discrete action space
    codec.obs_size                  length of the observation tensor
    codec.obs_low, codec.obs_high   per-entry bounds (every entry is in [low, high]; low is 0
                                    except Kombio's totals, which can be below 0: KO-15)
    codec.legal(state, view)        {action id: Decision} for the seat to move; `view` is that
                                    seat's view (used to name pool positions / grid cards)
    codec.encode(view)              the observation tensor (float32) of the view's seat
    codec.describe(action)          a readable name of an action id (not a decision text:
                                    pool positions and Kombio cards depend on the state)
    codec.reward_range()            (low, high) of a seat's final "score" reward (OpenSpiel)
    Codec.SETTINGS                  optional: the codec's own settings and their defaults
                                    (Kombio's max_cards), OpenSpiel parameters

Each id maps to exactly one legal decision text when it is in the mask, and (within the Kombio
card cap below) the mask holds every legal decision: tests/rl/test_codec.py checks both at every
step of random games for every configuration.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.errors import ConfigError
from cardtable.core.registry import games, info


def make_codec(game: str, players: int, **options: Any):
    """The codec of `game` (its declaration's `codec`) for `players` seats; `options` are the
    codec's settings (e.g. max_cards, target), each codec taking the ones it knows."""
    cls = info(game).load("codec")
    if cls is None:
        raise ConfigError(f"{info(game).title} has no codec for the research front ends")
    return cls(players, **options)


def __getattr__(name: str):
    """The per-game names this module held before they moved beside their codec (tests and
    saved notebooks import them from here)."""
    for g in games():
        mod = g.module("codec")
        if mod is not None and hasattr(mod, name):
            return getattr(mod, name)
    raise AttributeError(name)
