"""Batched playouts on many cores or machines, through Ray (as tournaments run:
sim/tournament.py's `ray_connect`).

    from cardtable.rl.batch.distributed import playouts
    out = playouts("abluxxen", range(1_000_000), address="auto", variant="basic", players=4)

The seeds are cut into chunks; each Ray task builds the game's batched simulator (compiled
kernels come from the on-disk cache of rl/batch/jit.py once one process on the machine has
compiled them) and plays its chunk with `playouts`. The answer is the same dict as a single
simulator's `playouts` over all the seeds, in seed order, whatever the number of workers:
game i is seed i's game on every machine.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from cardtable.rl.batch import make_batch
from cardtable.sim.tournament import ray_connect

KEYS = ("scores", "winners", "decisions")


def _chunk(game: str, config: dict, seeds: list[int]) -> dict:
    return make_batch(game, 1, **config).playouts(seeds)


def playouts(game: str, seeds: Iterable[int], address: str = "local", chunk: int = 20_000,
             **config) -> dict[str, np.ndarray]:
    """Random legal playouts of `game` (configuration as `make_batch`), one per seed, on the
    Ray cluster at `address` ("local", "auto" or host:port; ConfigError if none answers)."""
    seeds = [int(s) for s in seeds]
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    make_batch(game, 1, **config)              # a bad configuration fails here, not remotely
    ray, owned = ray_connect(address)
    try:
        task = ray.remote(_chunk)
        refs = [task.remote(game, config, seeds[i:i + chunk])
                for i in range(0, len(seeds), chunk)]
        parts = ray.get(refs)                  # in submission order: seed order
    finally:
        if owned:
            ray.shutdown()
    if not parts:
        empty = make_batch(game, 1, **config).playouts([])
        return {k: empty[k] for k in KEYS}
    return {k: np.concatenate([p[k] for p in parts]) for k in KEYS}
