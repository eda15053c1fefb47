"""Train the learned evaluations of the search bots (`cardtable/bots/value.py`).

    python scripts/train_value.py [--game abluxxen] [--games N] [--seed 1] [--jobs 2]

For every family of the game (Abluxxen: `multi` for 3-5 players in every multi-player rule set,
`duel`), it plays games of the `heuristic` bot (a quarter of the seats `greedy`, for
variety) from fixed seeds, keeps the features (`heuristics.features`) of the states where a
turn starts (where the search cuts its rollouts) and the game's final win shares, and fits
the network by maximum likelihood (softmax over the seats, Adam, full batches per player
count) from a fixed seed. 10% of the games are held out: the script prints the held-out
log-loss of the network beside that of the game's hand-made `evaluate` and of a uniform
guess. The weights go to <family>.json in the package the game declares as its `values`
(src/cardtable/abluxxen/values/).

Everything is a function of the seed: the same command writes the same weights (numpy's
floating point aside).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path

import numpy as np

from cardtable import new_game
from cardtable.core.registry import info
from cardtable.core.rng import Rng

#: family -> [(new_game settings, share of the games)]
FAMILIES = {
    "abluxxen": {
        "multi": [({"variant": "basic", "players": 4}, 0.45),
                  ({"variant": "basic", "players": 3}, 0.1),
                  ({"variant": "basic", "players": 5}, 0.1),
                  ({"variant": "advanced", "players": 4}, 0.1),
                  ({"variant": "expert", "players": 4}, 0.1),
                  ({"variant": "classic", "players": 4}, 0.15)],
        "duel": [({"variant": "duel"}, 1.0)],
    },
}
KEEP = 0.4          # share of the turn starts kept per game
HIDDEN = 16


def play_one(game: str, opts: dict, seed: int) -> list[tuple[list, list, list]]:
    """One game: [(features at a kept turn start, final win shares, the hand-made evaluate
    there)]."""
    mod = info(game).module("heuristics")
    g = new_game(game, seed=seed, **opts)
    rng = Rng(seed)
    pick = Rng(seed ^ 0x5EED)
    policies = [mod.greedy if rng.below(4) == 0 else mod.heuristic for _ in range(g.players)]
    kept = []
    while not g.over:
        if g.awaiting == "play" and pick.below(1000) < KEEP * 1000:    # a turn starts
            kept.append((mod.features(g), mod.evaluate(g)))
        g.apply(policies[g.to_move](g, rng))
    w = g.winners()
    y = [1.0 / len(w) if s in w else 0.0 for s in range(g.players)]
    return [(f, y, e) for f, e in kept]


def _task(args):
    game, opts, seeds = args
    return [(seed, play_one(game, opts, seed)) for seed in seeds]


def generate(game: str, family: str, games: int, seed: int, jobs: int):
    tasks = []
    for ci, (opts, share) in enumerate(FAMILIES[game][family]):
        count = max(1, round(games * share))
        seeds = [seed * 1_000_003 + ci * 100_000 + i for i in range(count)]
        for a in range(0, count, 50):
            tasks.append((game, opts, seeds[a:a + 50]))
    out = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            for res in ex.map(_task, tasks):
                out.extend(res)
    else:
        for t in tasks:
            out.extend(_task(t))
    return out


def batches(samples):
    """Group (features, shares) by player count: {n: (X (B, n, F), Y (B, n))}."""
    by_n: dict[int, tuple[list, list]] = {}
    for f, y, _ in samples:
        xs, ys = by_n.setdefault(len(y), ([], []))
        xs.append(f)
        ys.append(y)
    return {n: (np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
            for n, (xs, ys) in by_n.items()}


def loss_and_grad(params, data, mean, std):
    w1, b1, w2 = params
    total = 0.0
    count = 0
    g1, gb1, g2 = np.zeros_like(w1), np.zeros_like(b1), np.zeros_like(w2)
    for X, Y in data.values():
        Xs = (X - mean) / std
        A = np.tanh(Xs @ w1 + b1)                        # (B, n, H)
        U = A @ w2                                       # (B, n)
        U = U - U.max(axis=1, keepdims=True)
        logp = U - np.log(np.exp(U).sum(axis=1, keepdims=True))
        total += -(Y * logp).sum()
        count += len(X)
        dU = np.exp(logp) - Y                            # (B, n)
        g2 += np.einsum("bnh,bn->h", A, dU)
        dZ = dU[..., None] * w2 * (1 - A * A)            # (B, n, H)
        g1 += np.einsum("bnf,bnh->fh", Xs, dZ)
        gb1 += dZ.sum(axis=(0, 1))
    return total / count, (g1 / count, gb1 / count, g2 / count)


def train(train_data, seed: int, steps: int = 3000, lr: float = 0.01):
    allx = np.concatenate([X.reshape(-1, X.shape[-1]) for X, _ in train_data.values()])
    mean = allx.mean(axis=0)
    std = allx.std(axis=0)
    std[std < 1e-6] = 1.0
    rs = np.random.default_rng(seed)
    f = allx.shape[1]
    params = [rs.normal(0, 1 / math.sqrt(f), (f, HIDDEN)), np.zeros(HIDDEN),
              rs.normal(0, 1 / math.sqrt(HIDDEN), HIDDEN)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        loss, grads = loss_and_grad(params, train_data, mean, std)
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            params[i] = params[i] - lr * (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + eps)
        if t % 500 == 0:
            print(f"    step {t}: train log-loss {loss:.4f}", flush=True)
    return params, mean, std


def log_loss(samples, uniform: bool = False) -> float:
    """Held-out log-loss of the hand-made evaluate kept with each sample (or of 1/n)."""
    total = 0.0
    for _, y, p in samples:
        p = [1.0 / len(y)] * len(y) if uniform else p
        total += -sum(yi * math.log(max(pi, 1e-9)) for yi, pi in zip(y, p))
    return total / len(samples)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--game", default="abluxxen", choices=sorted(FAMILIES))
    ap.add_argument("--games", type=int, default=6000, help="games per family")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--only", default=None, help="train only this family")
    args = ap.parse_args()
    # the package the game declares for its weights, in the source tree this script runs from
    OUT = Path(str(resources.files(info(args.game).values)))
    for family in FAMILIES[args.game]:
        if args.only and family != args.only:
            continue
        t0 = time.time()
        games = generate(args.game, family, args.games, args.seed, args.jobs)
        games.sort(key=lambda x: x[0])
        held = {seed for i, (seed, _) in enumerate(games) if i % 10 == 0}
        tr = [s for seed, ss in games if seed not in held for s in ss]
        te = [s for seed, ss in games if seed in held for s in ss]
        print(f"{args.game}/{family}: {len(games)} games, {len(tr)} training and {len(te)} "
              f"held-out states ({time.time() - t0:.0f} s)", flush=True)
        params, mean, std = train(batches(tr), args.seed, steps=args.steps)
        test_loss, _ = loss_and_grad(params, batches(te), mean, std)
        print(f"  held-out log-loss: network {test_loss:.4f}, hand-made evaluate "
              f"{log_loss(te):.4f}, uniform {log_loss(te, uniform=True):.4f}", flush=True)
        w1, b1, w2 = params
        data = {"family": f"{args.game}/{family}", "features": len(mean), "hidden": HIDDEN,
                "seed": args.seed, "games": len(games), "states": len(tr),
                "held_out_log_loss": round(float(test_loss), 5),
                "command": "python scripts/train_value.py " + " ".join(sys.argv[1:]),
                "mean": mean.tolist(), "std": std.tolist(), "w1": w1.tolist(),
                "b1": b1.tolist(), "w2": w2.tolist()}
        path = OUT / f"{args.game}-{family}.json"
        path.write_text(json.dumps(data) + "\n")
        print(f"  wrote {path} ({time.time() - t0:.0f} s in all)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
