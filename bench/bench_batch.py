"""Batched simulator benchmark (make bench-batch; make bench runs it after bench_engine.py).

One run on one core (pinned), side by side:
  * agent steps/s with observations and masks, Abluxxen basic 4p: the batched simulator
    (`step`: every decision is one agent step, each returning the next seat's observation and
    mask; random legal actions from `sample_actions`; finished games dealt anew), its Gymnasium
    vector environment (learner steps; three random opponents inside, then three compiled
    `easy` and `medium` opponents: abluxxen/batch/policies.py), and today's PettingZoo
    AEC layer (bench_engine.py's loop) for the ratio (issue 35's target: >= 100,000/s);
  * random playouts, decisions/s: the simulator's compiled playouts against OpenSpiel's C++
    crazy_eights (bench_engine.py's loop; target: >= 2x) and the raw engine;
  * the same batched figures with 2 processes, each pinned to its own core (the sum);
  * Kombio 4p: the batched simulator's steps beside its AEC layer, its vector environment's
    learner steps against three random, then three compiled `easy` and `medium` opponents
    (kombio/batch/policies.py), and its playouts beside the same crazy_eights figure and the
    raw engine.

A decision/agent step is one `apply`; random agents pick uniformly among the legal actions.
Each row is bounded by CPU time: a warm-up call (numba's compilation, cached on disk, caches,
first allocations; not measured), then calls of the same loop until the measuring process has
used at least `--cpu-seconds` (default 2) CPU seconds; the row prints the CPU seconds measured,
the count per CPU second and, beside it, per wall-clock second (the same on an idle machine; on a
busy one the wall clock also counts the time other programs had the core). A row measured over
a fraction of a CPU second is noise (a warm-up's first calls once read 767 steps/CPU s where
9,031 was right), hence the bound.

The anchor of the playout ratios is OpenSpiel's C++ crazy_eights stepped from Python through
pyspiel (bench_engine.py's loop): every decision is a Python call into C++, and each of its
many chance nodes (the deal, card by card) is drawn in Python from `chance_outcomes()`, a costly
draw that is not counted as a decision. So "x C++" compares with C++ game logic driven from
Python, not with C++ alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing as mp
import os
import platform
import sys
import time

import numpy as np

from bench_engine import pin_one_core, run_cardtable, run_openspiel, run_pettingzoo

GAME = dict(variant="basic", players=4)
KOMBIO = dict(players=4)
BATCH = 1024


def run_batch_steps(seconds: float, games: int = BATCH,
                    game: str = "abluxxen") -> tuple[int, int, float]:
    """(agent steps, finished games, seconds) through the batch's step (AbluxxenBatch or
    KombioBatch)."""
    from cardtable.rl.batch import make_batch
    sim = make_batch(game, games, **(GAME if game == "abluxxen" else KOMBIO))
    sim.reset(seed=0)
    sim.step(np.maximum(sim.sample_actions(), 0))            # warm-up
    sim.reset(seed=0)
    nxt = games
    steps = done_games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            a = sim.sample_actions()
            obs, mask, rewards, done = sim.step(np.maximum(a, 0))
            steps += int((a >= 0).sum())
            if done.any():
                idx = np.flatnonzero(done)
                sim.reset(seed=nxt, games=idx)
                nxt += len(idx)
                done_games += len(idx)
    return steps, done_games, time.perf_counter() - t0


def run_vector_env(seconds: float, envs: int = BATCH, opponents: str = "random",
                   game: str = "abluxxen") -> tuple[int, int, float]:
    """(learner steps, episodes, seconds) through BatchVectorEnv (3 opponents of the compiled
    level `opponents`)."""
    from cardtable.rl.batch.vector import BatchVectorEnv
    env = BatchVectorEnv(game, envs, opponents=opponents,
                         **(GAME if game == "abluxxen" else KOMBIO))
    env.reset(seed=0)
    env.step(env.sample_actions())                            # warm-up
    steps = episodes = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            obs, rewards, terminated, truncated, infos = env.step(env.sample_actions())
            steps += envs
            episodes += int(terminated.sum())
    return steps, episodes, time.perf_counter() - t0


def run_playouts(seconds: float, chunk: int = 2000, seed0: int = 0,
                 game: str = "abluxxen") -> tuple[int, int, float]:
    """(decisions, games, seconds) of the compiled random playouts."""
    from cardtable.rl.batch import make_batch
    sim = make_batch(game, 1, **(GAME if game == "abluxxen" else KOMBIO))
    sim.playouts(range(10))                                   # warm-up
    decisions = games = 0
    seed = seed0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        out = sim.playouts(range(seed, seed + chunk))
        seed += chunk
        decisions += int(out["decisions"].sum())
        games += chunk
    return decisions, games, time.perf_counter() - t0


WARMUP = 0.2               # wall seconds of a row's warm-up call (not measured)


def timed(cpu: float, fn, *args, **kwargs) -> tuple[int, int, float, float]:
    """A row bounded by CPU time: `fn(*args, seconds=..., **kwargs)` (a loop of that many wall
    seconds returning (count, games, wall seconds)) once as a warm-up, then as long as it takes
    this process to use at least `cpu` CPU seconds (one call on an idle core; on a busy one
    more, each as long as the CPU share seen so far says is missing); (count, games, wall
    seconds, CPU seconds) of the measured calls."""
    fn(*args, seconds=WARMUP, **kwargs)
    count = games = 0
    t0, c0 = time.perf_counter(), time.process_time()
    used = 0.0
    while used < cpu:
        wall = time.perf_counter() - t0
        share = used / wall if used > 0 and wall > 0 else 1.0
        n, g, _ = fn(*args, seconds=max(0.05, (cpu - used) / max(share, 0.05)), **kwargs)
        count += n
        games += g
        used = time.process_time() - c0
    return count, games, time.perf_counter() - t0, used


def _worker(args):
    kind, seconds, cpu = args
    try:
        os.sched_setaffinity(0, {cpu})
    except (AttributeError, OSError):
        pass
    if kind == "steps":
        return timed(seconds, run_batch_steps)
    return timed(seconds, run_playouts, seed0=cpu * 10**9)


def _cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


CPUS = _cpus()              # before the main process pins itself to one


def two_processes(kind: str, seconds: float) -> tuple[int, int, float, float] | None:
    """The sum over 2 processes, each pinned to its own core (None with fewer than 2 cores)."""
    cpus = CPUS
    if len(cpus) < 2:
        return None
    with mp.get_context("fork").Pool(2) as pool:
        parts = pool.map(_worker, [(kind, seconds, cpus[0]), (kind, seconds, cpus[1])])
    wall = max(p[2] for p in parts)
    # CPU seconds such that count / cpu is the sum of the two processes' rates per CPU second
    rate = sum(p[0] / p[3] for p in parts)
    return sum(p[0] for p in parts), sum(p[1] for p in parts), wall, \
        sum(p[0] for p in parts) / rate


def on_ray(address: str, seconds: float) -> tuple[int, int, float, float]:
    """(decisions, games, seconds, CPU seconds of the cluster's tasks ~ wall x its CPUs) of
    batched playouts spread over the Ray cluster: rounds of one chunk per CPU until `seconds`
    have passed (the cluster's start and each worker's first load are not counted)."""
    from cardtable.rl.batch.distributed import playouts
    from cardtable.sim.tournament import ray_connect
    ray, owned = ray_connect(address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        chunk = 4000
        playouts("abluxxen", range(cpus * 100), address=address, chunk=100, **GAME)  # warm-up
        decisions = games = 0
        seed = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            out = playouts("abluxxen", range(seed, seed + cpus * chunk), address=address,
                           chunk=chunk, **GAME)
            seed += cpus * chunk
            decisions += int(out["decisions"].sum())
            games += cpus * chunk
        wall = time.perf_counter() - t0
    finally:
        if owned:
            ray.shutdown()
    return decisions, games, wall, wall * cpus


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cpu-seconds", "--seconds", dest="cpu", type=float, default=2.0,
                    help="CPU seconds each row measures at least, after its warm-up "
                         "(default 2)")
    ap.add_argument("--ray", metavar="ADDRESS", default=None,
                    help="also a line of batched playouts on this Ray cluster (local, auto or "
                         "host:port; rl/batch/distributed.py)")
    args = ap.parse_args()
    for need in ("numba", "pettingzoo", "pyspiel"):
        if importlib.util.find_spec(need) is None:
            print(f"{need} is not installed: run `make bench`, which installs it",
                  file=sys.stderr)
            return 2
    # compile (or load numba's cache) and import everything before any timing (the CPU column
    # counts a whole call), and before the processes fork, so that they inherit it all
    import cardtable.rl.openspiel  # noqa: F401
    import cardtable.rl.pettingzoo  # noqa: F401
    run_batch_steps(0.2)
    run_vector_env(0.2)
    run_vector_env(0.2, opponents="easy")
    run_vector_env(0.2, opponents="medium")
    run_playouts(0.2)
    run_batch_steps(0.2, game="kombio")
    for level in ("random", "easy", "medium"):
        run_vector_env(0.2, opponents=level, game="kombio")
    run_playouts(0.2, game="kombio")
    print(f"python {platform.python_version()} on {platform.machine()}, {len(CPUS)} cores; the "
          f"1-process lines {pin_one_core()}; load average {os.getloadavg()[0]:.1f}")
    s = args.cpu
    rows = [("agent steps with obs + masks, abluxxen basic 4p", None, None)]
    aec = timed(s, run_pettingzoo, "abluxxen", **GAME)
    rows.append(("  PettingZoo AEC (today's layer)", aec, None))
    rows.append(("  batched simulator step", timed(s, run_batch_steps), aec))
    rows.append(("  batched Gymnasium VectorEnv (learner)", timed(s, run_vector_env), aec))
    for level in ("easy", "medium"):
        rows.append((f"  ... with 3 {level} opponents (compiled)",
                     timed(s, run_vector_env, opponents=level), aec))
    pairs = two_processes("steps", s)
    if pairs:
        rows.append(("  batched simulator step, 2 processes", pairs, aec))
    rows.append(("random playouts, decisions", None, None))
    c8 = timed(s, run_openspiel, "crazy_eights")
    rows.append(("  openspiel crazy_eights 5p (C++ via pyspiel)", c8, None))
    rows.append(("  cardtable engine, abluxxen basic 4p", timed(s, run_cardtable, "abluxxen", **GAME),
                 c8))
    rows.append(("  batched playouts, abluxxen basic 4p", timed(s, run_playouts), c8))
    pairs = two_processes("playouts", s)
    if pairs:
        rows.append(("  batched playouts, 2 processes", pairs, c8))
    if args.ray:
        rows.append((f"  batched playouts on Ray ({args.ray})", on_ray(args.ray, s), c8))
    rows.append(("kombio 4p: agent steps with obs + masks", None, None))
    kaec = timed(s, run_pettingzoo, "kombio", **KOMBIO)
    rows.append(("  PettingZoo AEC (today's layer)", kaec, None))
    rows.append(("  batched simulator step", timed(s, run_batch_steps, game="kombio"), kaec))
    rows.append(("  batched Gymnasium VectorEnv (learner)",
                  timed(s, run_vector_env, game="kombio"), kaec))
    for level in ("easy", "medium"):
        rows.append((f"  ... with 3 {level} opponents (compiled)",
                     timed(s, run_vector_env, opponents=level, game="kombio"), kaec))
    rows.append(("kombio 4p: random playouts, decisions", None, None))
    rows.append(("  cardtable engine, kombio 4p", timed(s, run_cardtable, "kombio", **KOMBIO),
                 c8))
    rows.append(("  batched playouts, kombio 4p", timed(s, run_playouts, game="kombio"), c8))
    print(f"{'':46} {'per second':>11} {'ratio':>13} {'per CPU s':>11} {'ratio':>7} "
          f"{'games/s':>8} {'CPU s':>6}")
    for name, r, ref in rows:
        if r is None:
            print(name)
            continue
        rate, cpu_rate = r[0] / r[2], r[0] / r[3]
        ratio = cpu_ratio = ""
        if ref is not None:
            ratio = f"{rate / (ref[0] / ref[2]):7.2f}x {'C++' if ref is c8 else 'AEC'}"
            cpu_ratio = f"{cpu_rate / (ref[0] / ref[3]):6.2f}x"
        print(f"{name:46} {rate:11,.0f} {ratio:>13} {cpu_rate:11,.0f} {cpu_ratio:>7} "
              f"{r[1] / r[2]:8,.1f} {r[3]:6.1f}")
    print(f"""
agent steps: every decision of a game is one step (the learner's only for the VectorEnv).
ratios: to the PettingZoo AEC layer, and "x C++" to OpenSpiel's crazy_eights in this run: C++
game logic stepped from Python through pyspiel, with its chance draws (the deal, card by card)
made in Python from chance_outcomes() and not counted as decisions: a costly anchor, not C++
alone. per CPU s: the same counts over the CPU time the process spent (what a busy machine's
wall clock hides). CPU s: the CPU seconds measured after each row's warm-up (at least
--cpu-seconds {s:g}; 2 processes: per process; Ray: wall x the cluster's CPUs).""")
    return 0


if __name__ == "__main__":
    sys.exit(main())
