"""Reinforcement fine-tuning of a trained policy (make train-strong): proximal policy
optimisation (PPO, Schulman et al. 2017) with the action mask, on the batched simulator
(rl/batch/vector.py) against opponents compiled into it (`--opponents`, default `medium`), from
the weights of an imitation run (rl/imitate.py), within a CPU-time budget; then the learning
curve (PNG), its numbers (JSON) and the policy file the bot `learned` plays (rl/policy.py).

    python -m cardtable.rl.imitate --cpu-minutes 10 --opponents medium --out out/bc.npz
    python -m cardtable.rl.finetune --init out/bc.npz --cpu-minutes 50
    cardtable tournament --game abluxxen --variant basic --bots learned,medium,medium,medium \\
        --duplicate --games 1000 --no-ratings

Imitation gives a policy close to its teacher; playing against the teacher's level it wins
about its fair share. PPO then improves it on the outcome itself: every iteration plays
`--horizon` decisions in each of `--envs` games (the learner at a random seat, actions sampled
from the masked softmax), scores every decision by the game's end (generalised advantage
estimation over a value network of its own, first fitted with the policy held still for
`--value-warmup` iterations), and takes `--epochs` passes of clipped policy-gradient steps
over them. Every `--eval-every` iterations the policy as the bot plays it (the legal action of
highest logit) plays `--eval-games` fixed games (the same seeds each time) against the same
opponents: the curve. The policy kept is the last one.

Honesty: the learner sees its seat's tensor only (the batched simulator's observation is the
codec's tensor of `state.view(seat)`, tests/rl/test_batch_*.py) and acts through the mask; the
opponents are the compiled levels, decision for decision the Python bots
(tests/rl/test_batch_policies.py). The budget is this process's CPU time (torch on one thread,
the simulator included), the closing evaluation and export inside it: an iteration starts only
if the longest one so far and an evaluation still fit. Needs torch (the train extra): without it, a one-line error and exit
status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from cardtable.rl.budget import CpuBudget
from cardtable.rl.imitate import DOCS
from cardtable.sim.stats import wilson
from cardtable.rl.plots import figure, save, write_log
from cardtable.rl.policy import MlpPolicy, new_policy_file
from cardtable.rl.train import need


def to_torch(policy: MlpPolicy):
    """The policy's network as a torch module (ReLU layers, the raw tensor as input)."""
    import torch
    import torch.nn as nn

    if policy.meta.get("activation") != "relu":
        raise ValueError("fine-tuning takes a ReLU policy (rl/imitate.py writes one)")
    mods = []
    for w, b in policy.layers:
        lin = nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(np.asarray(w, np.float32)))
            lin.bias.copy_(torch.from_numpy(np.asarray(b, np.float32)))
        mods += [lin, nn.ReLU()]
    w, b = policy.action
    out = nn.Linear(w.shape[1], w.shape[0])
    with torch.no_grad():
        out.weight.copy_(torch.from_numpy(np.asarray(w, np.float32)))
        out.bias.copy_(torch.from_numpy(np.asarray(b, np.float32)))
    return nn.Sequential(*mods, out)


def to_numpy(net, meta: dict) -> MlpPolicy:
    """The numpy policy of the torch module `to_torch` made (and PPO changed)."""
    import torch.nn as nn

    lin = [m for m in net if isinstance(m, nn.Linear)]
    arr = [(m.weight.detach().numpy().astype(np.float32),
            m.bias.detach().numpy().astype(np.float32)) for m in lin]
    return MlpPolicy(arr[:-1], arr[-1], meta)


def masked(logits, mask):
    """Logits with the illegal actions removed (a row with no legal action, the ignored step
    after a game's end, keeps action 0)."""
    import torch

    m = mask.clone()
    m[~m.any(1), 0] = True
    return logits.masked_fill(~m, -1e9)


def greedy_wins(net, env, games: int, seed: int) -> tuple[float, int]:
    """The win share of the policy played greedily (as the bot plays) in the first game of
    each of the env's `games` rows, reset with `seed` (the same games every time)."""
    import torch

    obs, infos = env.reset(seed=seed)
    finished = np.zeros(games, bool)
    wins = 0.0
    while not finished.all():
        with torch.no_grad():
            lg = masked(net(torch.from_numpy(obs)), torch.from_numpy(infos["action_mask"] > 0))
        obs, r, term, trunc, infos = env.step(lg.argmax(1).numpy())
        end = (term | trunc) & ~finished
        wins += float(r[end].sum())
        finished |= term | trunc
    return wins, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--init", type=Path, required=True,
                    help="the policy file to start from (rl/imitate.py's, ReLU)")
    ap.add_argument("--cpu-minutes", type=float, default=50.0,
                    help="CPU time of the whole process: its start, playing, evaluating, training, "
                         "the files (default 50)")
    ap.add_argument("--opponents", default="medium",
                    help="a level compiled into the simulator (default medium)")
    ap.add_argument("--envs", type=int, default=512, help="games played at once")
    ap.add_argument("--horizon", type=int, default=32, help="decisions per game an iteration")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=1e-4, help="the policy's learning rate")
    ap.add_argument("--value-lr", type=float, default=1e-3)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--entropy", type=float, default=0.003)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--value-warmup", type=int, default=10,
                    help="first iterations that fit the value network only")
    ap.add_argument("--eval-every", type=int, default=25)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--reward", choices=("win", "score"), default="score",
                    help="what a game pays the learner in training (rl/common.py; the curve "
                         "always counts wins)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None,
                    help="policy file (default: the game's own, learned-VARIANT-Np.npz)")
    ap.add_argument("--curve", type=Path, default=None,
                    help="learning curve (default docs/training-strong-GAME-curve.png)")
    ap.add_argument("--log", type=Path, default=None,
                    help="its numbers (default docs/training-strong-GAME-log.json)")
    args = ap.parse_args(argv)
    for name in ("cpu_minutes", "envs", "horizon", "epochs", "minibatch", "eval_every",
                 "eval_games"):
        if getattr(args, name) <= 0:
            sys.stderr.write(f"cardtable: error: --{name.replace('_', '-')} must be positive\n")
            return 2
    from cardtable.core.errors import ConfigError

    try:
        init = MlpPolicy.load(args.init)
    except ConfigError as e:
        sys.stderr.write(f"cardtable: error: {e}\n")
        return 2
    meta0 = init.meta
    game, variant, players = meta0.get("game"), meta0.get("variant"), meta0.get("players")
    try:
        out = args.out or new_policy_file("learned", game, variant, players)
    except ConfigError as e:
        sys.stderr.write(f"cardtable: error: {e} (--out FILE)\n")
        return 2
    args.curve = args.curve or DOCS / f"training-strong-{game}-curve.png"
    args.log = args.log or DOCS / f"training-strong-{game}-log.json"
    need("torch", what="torch", target="train-strong")
    import torch
    import torch.nn as nn

    from cardtable.rl.batch.vector import BatchVectorEnv

    try:
        env = BatchVectorEnv(game, num_envs=args.envs, variant=variant, players=players,
                             opponents=args.opponents, reward=args.reward)
        ev = BatchVectorEnv(game, num_envs=args.eval_games, variant=variant, players=players,
                            opponents=args.opponents, reward="win")
        actor = to_torch(init)
    except (ConfigError, ValueError) as e:
        sys.stderr.write(f"cardtable: error: {e}\n")
        return 2
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    obs_size = env.single_observation_space.shape[0]
    critic = nn.Sequential(nn.Linear(obs_size, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                           nn.Linear(256, 1))
    pi_opt = torch.optim.Adam(actor.parameters(), lr=args.lr)
    v_opt = torch.optim.Adam(critic.parameters(), lr=args.value_lr)
    budget = CpuBudget.whole_process(args.cpu_minutes * 60)
    cpu = budget.spent

    meta = dict(meta0, algorithm="DAgger imitation, then PPO against the compiled "
                f"{args.opponents} level (rl/finetune.py)", opponents=args.opponents,
                finetune={k: (str(v) if isinstance(v, Path) else v)
                          for k, v in vars(args).items() if k not in ("curve", "log", "out")})
    curve: list[dict] = []

    def evaluate(it: int, samples: int, games: int) -> None:
        w, n = greedy_wins(actor, ev, args.eval_games, seed=10_000_000)
        lo, hi = wilson(w, n)
        curve.append({"iteration": it, "cpu_seconds": round(cpu(), 1), "samples": samples,
                      "games": games, "win_share": w / n, "win_low": lo, "win_high": hi})
        print(f"iteration {it}: greedy win share {w / n:.1%} ({lo:.1%}-{hi:.1%}) of {n} games, "
              f"{samples:,} decisions trained on, {games:,} games played, {cpu():.0f} s CPU",
              flush=True)

    obs, infos = env.reset(seed=args.seed)
    mask = infos["action_mask"] > 0
    pending = np.zeros(args.envs, bool)        # the next step only resets that game
    mean = std = None
    it, samples, games = 0, 0, 0
    e0 = cpu()
    evaluate(0, 0, 0)
    # an iteration starts only if the longest one so far (with its evaluation) and the closing
    # evaluation still fit; two (the value network's first fit and a policy step) whatever the
    # budget
    budget.reserve(cpu() - e0)
    budget.restart_stretch()
    T, N = args.horizon, args.envs
    while not budget.over() or it < 2:
        O = np.zeros((T, N, obs_size), np.float32)
        M = np.zeros((T, N, mask.shape[1]), bool)
        A = np.zeros((T, N), np.int64)
        LP = np.zeros((T, N), np.float32)
        V = np.zeros((T + 1, N), np.float32)
        R = np.zeros((T, N), np.float32)
        D = np.zeros((T, N), bool)
        ok = np.zeros((T, N), bool)
        if mean is None:
            mean, std = obs.mean(0), obs.std(0) + 1e-3
            tm, ts = torch.from_numpy(mean), torch.from_numpy(std)
        for t in range(T):
            x = torch.from_numpy(obs)
            with torch.no_grad():
                lg = masked(actor(x), torch.from_numpy(mask))
                dist = torch.distributions.Categorical(logits=lg)
                a = dist.sample()
                V[t] = critic((x - tm) / ts).squeeze(1).numpy()
            O[t], M[t], A[t], LP[t] = obs, mask, a.numpy(), dist.log_prob(a).numpy()
            ok[t] = ~pending
            obs, r, term, trunc, infos = env.step(A[t])
            mask = infos["action_mask"] > 0
            R[t], D[t] = r, term | trunc
            games += int(D[t].sum())
            pending = D[t].copy()
        with torch.no_grad():
            V[T] = critic((torch.from_numpy(obs) - tm) / ts).squeeze(1).numpy()
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in range(T - 1, -1, -1):
            nxt = np.where(D[t], 0.0, V[t + 1])
            delta = R[t] + args.gamma * nxt - V[t]
            last = np.where(D[t], delta, delta + args.gamma * args.lam * last)
            last = np.where(ok[t], last, 0.0)
            adv[t] = last
        ret = adv + V[:T]
        idx = np.flatnonzero(ok.reshape(-1))
        o = torch.from_numpy(O.reshape(T * N, -1)[idx])
        m = torch.from_numpy(M.reshape(T * N, -1)[idx])
        a = torch.from_numpy(A.reshape(-1)[idx])
        lp = torch.from_numpy(LP.reshape(-1)[idx])
        ad = adv.reshape(-1)[idx]
        ad = torch.from_numpy((ad - ad.mean()) / (ad.std() + 1e-8))
        rt = torch.from_numpy(ret.reshape(-1)[idx])
        on = (o - tm) / ts
        warm = it < args.value_warmup
        rng = np.random.default_rng(args.seed + it)
        for _ in range(args.epochs):
            for mb in np.array_split(rng.permutation(len(idx)),
                                     max(1, len(idx) // args.minibatch)):
                mb = torch.from_numpy(mb)
                v_loss = ((critic(on[mb]).squeeze(1) - rt[mb]) ** 2).mean()
                v_opt.zero_grad()
                v_loss.backward()
                v_opt.step()
                if warm:
                    continue
                dist = torch.distributions.Categorical(logits=masked(actor(o[mb]), m[mb]))
                ratio = torch.exp(dist.log_prob(a[mb]) - lp[mb])
                pg = -torch.min(ratio * ad[mb],
                                ratio.clamp(1 - args.clip, 1 + args.clip) * ad[mb]).mean()
                loss = pg - args.entropy * dist.entropy().mean()
                pi_opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
                pi_opt.step()
        samples += len(idx)
        it += 1
        if it % args.eval_every == 0:
            evaluate(it, samples, games)
    evaluate(it, samples, games)
    meta.update(cpu_seconds=round(cpu()), iterations=it, decisions=samples, games=games)
    policy = to_numpy(actor, meta)
    policy.save(out)
    print(f"trained {it} iterations on {samples:,} decisions of {games:,} games in "
          f"{cpu():.0f} s CPU; policy: {out}")
    _curve(curve, args, meta)
    write_log(args.log, {"meta": meta, "curve": curve})
    return 0


def _curve(curve: list[dict], args, meta: dict) -> None:
    plt, fig, ax = figure(figsize=(7, 4), dpi=100)
    x = [c["cpu_seconds"] / 60 for c in curve]
    y = [c["win_share"] for c in curve]
    ax.errorbar(x, y, yerr=[[v - c["win_low"] for v, c in zip(y, curve)],
                            [c["win_high"] - v for v, c in zip(y, curve)]],
                color="#4c72b0", marker="o", ms=3, capsize=2, label="greedy policy (95%)")
    ax.axhline(1 / meta["players"], color="grey", ls="--", lw=1,
               label=f"fair 1/{meta['players']}")
    ax.set_xlabel("CPU minutes of fine-tuning")
    ax.set_ylabel(f"win share vs {meta['players'] - 1}× {args.opponents}")
    ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"PPO from imitation, {meta['game']} {meta.get('variant')} "
                 f"{meta['players']}p: {meta['cpu_seconds']} s CPU", fontsize=10)
    save(plt, fig, args.curve)


if __name__ == "__main__":
    sys.exit(main())
