"""Engine benchmark (make bench): random play through the public API on one core.

Plays random games of 4-player basic Abluxxen and 4-player Kombio through the raw engine and
through each research API layer (cardtable.rl: PettingZoo, Gymnasium, OpenSpiel), random UNO
games with RLCard and random games of OpenSpiel's C++ crazy_eights (when the open_spiel wheel
has it) in the same run, and prints decisions/s, games/s, the ratio to RLCard UNO and what each
layer costs per decision on top of the raw engine.

A decision = one `apply` (cardtable), one `env.step` (PettingZoo, RLCard), one
`state.apply_action` (OpenSpiel) — each random agent picks uniformly among the legal actions
it is given (the mask for the RL layers). Gymnasium counts every decision of the game: the
learner's steps and its three `random` bot opponents (`bots.act`, which hands each bot a
determinization of its seat's knowledge). OpenSpiel's chance node (the deal number) is drawn
directly, not from the 65,536-entry `chance_outcomes()` list.
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


def run_pettingzoo(game: str, seconds: float, **options) -> tuple[int, int, float]:
    import numpy as np
    from cardtable.rl.pettingzoo import env as make_env
    rnd = random.Random(1)
    e = make_env(game=game, seed=1, **options)
    decisions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        e.reset()
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rnd.randrange(len(legal))]))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - t0


def run_gymnasium(game: str, seconds: float, **options) -> tuple[int, int, float]:
    import gymnasium
    import numpy as np
    import cardtable.rl  # noqa: F401  (registers the ids)
    rnd = random.Random(1)
    env = gymnasium.make(f"cardtable/{game.capitalize()}-v0", opponents="random", **options)
    decisions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    seed = 0
    while time.perf_counter() < deadline:
        _, info = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[rnd.randrange(len(legal))]))
        decisions += len(env.unwrapped.state.history)
        games += 1
    return decisions, games, time.perf_counter() - t0


def run_openspiel(name: str, seconds: float, params: dict | None = None
                  ) -> tuple[int, int, float]:
    import pyspiel
    if name.startswith("python_cardtable"):
        import cardtable.rl.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(name, params or {})
    rnd = random.Random(1)
    decisions = games = 0
    deals = game.max_chance_outcomes()
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if name.startswith("python_cardtable"):
                    state.apply_action(rnd.randrange(deals))
                else:
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rnd.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
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
    for need in ("rlcard", "pettingzoo", "gymnasium", "pyspiel"):
        if importlib.util.find_spec(need) is None:
            print(f"{need} is not installed: run `make bench`, which installs it",
                  file=sys.stderr)
            return 2
    rows = []      # (name, decisions, games, seconds, raw row name or None)
    configs = [("abluxxen", "abluxxen basic 4p", dict(variant="basic", players=4),
                {"variant": "basic", "players": 4}),
               ("kombio", "kombio 4p", dict(players=4), {"players": 4})]
    for game, label, opts, params in configs:
        raw = f"cardtable {label}"
        rows.append((raw, *run_cardtable(game, args.seconds, **opts), None))
        rows.append((f"  via PettingZoo AEC", *run_pettingzoo(game, args.seconds, **opts), raw))
        rows.append((f"  via Gymnasium (+3 bots)", *run_gymnasium(game, args.seconds, **opts),
                     raw))
        rows.append((f"  via OpenSpiel (Python game)",
                     *run_openspiel(f"python_cardtable_{game}", args.seconds, params), raw))
    rows.append(("rlcard uno 2p (reference)", *run_rlcard_uno(args.seconds), None))
    uno = rows[-1][1] / rows[-1][3]
    try:
        import pyspiel
        pyspiel.load_game("crazy_eights")
        rows.append(("openspiel crazy_eights 5p (C++)",
                     *run_openspiel("crazy_eights", args.seconds), None))
    except Exception as e:  # the wheel may be built without it
        print(f"(OpenSpiel crazy_eights not available: {e})", file=sys.stderr)
    print(f"{'engine / layer':34} {'decisions/s':>12} {'games/s':>10} {'dec/game':>9} "
          f"{'vs UNO':>7} {'us/dec':>8} {'layer cost':>11}")
    per = {name: t / d for name, d, g, t, _ in rows if not name.startswith(" ")}
    for name, d, g, t, raw in rows:
        us = t / d * 1e6
        cost = f"{us - per[raw] * 1e6:+9.1f}us" if raw else ""
        print(f"{name:34} {d / t:12,.0f} {g / t:10,.1f} {d / max(g, 1):9.1f} "
              f"{d / t / uno:6.2f}x {us:8.2f} {cost:>11}")
    print("\nwhere a layer's time goes, per decision (us; the codec's parts, on states of random "
          "games):")
    print(f"{'game':22} {'view(seat)':>11} {'encode':>8} {'mask':>8}")
    for game, label, opts, _ in configs:
        v, e, m = codec_parts(game, opts)
        print(f"{label:22} {v:11.1f} {e:8.1f} {m:8.1f}")
    return 0


def codec_parts(game: str, opts: dict, states: int = 3000) -> tuple[float, float, float]:
    """Mean microseconds of the seat view, the tensor and the legal-id map (rl/codec.py)."""
    from cardtable import new_game
    from cardtable.rl.codec import make_codec
    rnd = random.Random(2)
    sample = []
    seed = 0
    while len(sample) < states:
        s = new_game(game, seed=seed, **opts)
        seed += 1
        while not s.over and len(sample) < states:
            if rnd.random() < 0.2:
                sample.append(s.copy())
            legal = s.legal_decisions()
            s.apply(legal[rnd.randrange(len(legal))])
    codec = make_codec(game, sample[0].players)
    clock = time.perf_counter
    t0 = clock()
    views = [s.view(s.to_move) for s in sample]
    t1 = clock()
    for v in views:
        codec.encode(v)
    t2 = clock()
    for s, v in zip(sample, views):
        codec.legal(s, v)
    t3 = clock()
    n = len(sample) / 1e6
    return (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n


if __name__ == "__main__":
    sys.exit(main())
