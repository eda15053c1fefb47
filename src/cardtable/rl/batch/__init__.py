"""Batched simulators: many games of one configuration stepped in one call, with observations,
legal-action masks and rewards as NumPy arrays, the codec's action ids and observation layout
(rl/codec.py), and the engine's rules compiled with numba (docs/research.md says why numba).

    from cardtable.rl.batch import make_batch
    sim = make_batch("abluxxen", 1024, variant="basic", players=4)

A game declares its simulator in its registry entry (`GameInfo.batch`, core/registry.py);
`make_batch(game, num_games, **config)` builds it (the configuration of rl/common.py:
variant, players, options, reward). On top: a Gymnasium vector environment and a PettingZoo
parallel environment (rl/batch/vector.py).
"""

from __future__ import annotations

from cardtable.rl import missing_extra

try:
    import numba  # noqa: F401  (the simulators' compiler)
    import numpy  # noqa: F401
except ModuleNotFoundError as e:               # without the rl extra: say what to install
    raise missing_extra(e) from None

from cardtable.core.errors import ConfigError
from cardtable.core.registry import games, info


def batched_games() -> list[str]:
    """The games that declare a batched simulator."""
    return [g.name for g in games() if g.batch]


def make_batch(game: str, num_games: int, **config):
    """The batched simulator of `game` for `num_games` games (ConfigError for a game without
    one, or a bad configuration)."""
    cls = info(game).load("batch")
    if cls is None:
        raise ConfigError(f"{info(game).title} has no batched simulator yet "
                          f"(games with one: {', '.join(batched_games())})")
    return cls(num_games, **config)
