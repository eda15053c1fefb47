"""Engine benchmark (make bench): random play through the public API on one core.

Plays random games of 4-player basic Abluxxen (and Kombio, when present) and random UNO games
with RLCard in the same run, and prints decisions/s, games/s and the ratio to RLCard UNO.
A decision = one `apply` (cardtable) or one `env.step` (RLCard): each random agent picks
uniformly among the legal actions it is given.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import sys
import time


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return f"pinned to CPU {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):
        return "not pinned"


def run_cardtable(game: str, seconds: float, **options) -> tuple[int, int, float]:
    from cardtable import new_game
    rnd = random.Random(1)
    decisions = games = 0
    seed = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        s = new_game(game, seed=seed, **options)
        seed += 1
        legal_decisions, apply = s.legal_decisions, s.apply
        while not s.over:
            legal = legal_decisions()
            apply(legal[rnd.randrange(len(legal))])
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


def run_rlcard_uno(seconds: float) -> tuple[int, int, float]:
    import rlcard
    env = rlcard.make("uno", config={"seed": 1})
    rnd = random.Random(1)
    decisions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rnd.randrange(len(legal))])
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0, help="time per engine (default 10)")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {pin_one_core()}")
    rows = []
    d, g, t = run_cardtable("abluxxen", args.seconds, variant="basic", players=4)
    rows.append(("cardtable abluxxen basic 4p", d, g, t))
    if importlib.util.find_spec("cardtable.kombio") is not None:
        d, g, t = run_cardtable("kombio", args.seconds, players=4)
        rows.append(("cardtable kombio 4p", d, g, t))
    if importlib.util.find_spec("rlcard") is None:
        print("rlcard is not installed: run `make bench`, which installs it", file=sys.stderr)
        return 2
    d, g, t = run_rlcard_uno(args.seconds)
    rows.append(("rlcard uno 2p (reference)", d, g, t))
    uno = rows[-1][1] / rows[-1][3]
    print(f"{'engine':32} {'decisions/s':>12} {'games/s':>10} {'dec/game':>9} {'vs UNO':>7}")
    for name, d, g, t in rows:
        print(f"{name:32} {d / t:12,.0f} {g / t:10,.1f} {d / max(g, 1):9.1f} {d / t / uno:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
