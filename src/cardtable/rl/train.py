"""Train an agent through the Gymnasium environment (make train): sb3-contrib's MaskablePPO on
CPU within a CPU-time budget, then the learning curve (PNG) and the policy as a numpy file that
the bot `ppo` plays (rl/policy.py).

    python -m cardtable.rl.train --cpu-minutes 14 --opponents easy
    cardtable tournament --game abluxxen --bots ppo,greedy,greedy,greedy --duplicate --games 2000

The learner sits at a random seat of 4-player basic Abluxxen (by default) against three bots
(`--opponents`), sees only its own view (rl/codec.py's tensor), acts through the action mask,
and is rewarded at the end with its final score (AB-17) divided by 10. The budget is CPU time of
this process (the opponents play in it too), so a busy machine does not shorten the training.

Needs the train extra (torch, sb3-contrib): without it, a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from cardtable.rl.plots import figure, save
from cardtable.rl.policy import MlpPolicy, new_policy_file

DOCS = Path(__file__).resolve().parents[3] / "docs"


def need(*modules: str, what: str = "torch and sb3-contrib", target: str = "train") -> None:
    """Exit with status 2 and one line naming the train extra unless `modules` import (the
    training scripts' check: train.py needs torch and sb3-contrib, imitate.py torch)."""
    import importlib

    try:
        for m in modules or ("sb3_contrib", "torch"):
            importlib.import_module(m)
    except ImportError as e:
        sys.stderr.write(f"cardtable: error: training needs {what}: "
                         f"pip install 'cardtable[train]' or make {target} ({e.name} is missing)\n")
        raise SystemExit(2)


def _need():
    need()


def export(model, meta: dict) -> MlpPolicy:
    """The numpy copy of a MaskablePPO MlpPolicy (tanh layers, then the action layer)."""
    import torch

    layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
              for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    act = model.policy.action_net
    return MlpPolicy(layers, (act.weight.detach().numpy().copy(),
                              act.bias.detach().numpy().copy()), meta)


def check_export(model, policy: MlpPolicy, observations: np.ndarray) -> float:
    """Largest difference between torch's and numpy's logits on `observations`."""
    import torch

    with torch.no_grad():
        obs = torch.as_tensor(observations)
        latent = model.policy.mlp_extractor.forward_actor(model.policy.extract_features(
            obs, model.policy.pi_features_extractor))
        ref = model.policy.action_net(latent).numpy()
    mine = np.stack([policy.logits(o) for o in observations])
    return float(np.abs(ref - mine).max())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu-minutes", type=float, default=14.0,
                    help="CPU time of the training (default 14, with evaluation under 15)")
    ap.add_argument("--game", default=None, help="a registered game (default: the first)")
    ap.add_argument("--variant", default=None, help="its rule set (default: its first)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="easy", help="bot or level for the other seats")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None,
                    help="policy file (.npz; default: the game's own, ppo-VARIANT-Np.npz)")
    ap.add_argument("--curve", type=Path, default=DOCS / "training-curve.png")
    ap.add_argument("--log", type=Path, default=DOCS / "training-log.json")
    args = ap.parse_args(argv)
    if args.cpu_minutes <= 0:
        sys.stderr.write("cardtable: error: --cpu-minutes must be positive\n")
        return 2
    if args.out is None:                  # the game's own policies package
        from cardtable.core.errors import ConfigError as _Refused

        try:
            args.out = new_policy_file("ppo", args.game, args.variant, args.players)
        except _Refused as e:
            sys.stderr.write(f"cardtable: error: {e} (--out FILE)\n")
            return 2
    _need()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from cardtable.core.errors import ConfigError
    from cardtable.rl.gymnasium import CardtableEnv

    torch.set_num_threads(1)
    try:
        env = CardtableEnv(game=args.game, variant=args.variant, players=args.players,
                           opponents=args.opponents, reward="score")
    except ConfigError as e:
        sys.stderr.write(f"cardtable: error: {e}\n")
        return 2

    venv = DummyVecEnv([lambda: _ScaleReward(env, 0.1)])
    venv.seed(args.seed)
    episodes: list[tuple[int, float, float]] = []      # (timesteps, score, win share)
    budget = args.cpu_minutes * 60
    t0 = time.process_time()

    class Budget(BaseCallback):
        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if done:
                    view, seat = info["view"], info["seat"]
                    w = view["winners"] or []
                    episodes.append((self.num_timesteps, float(view["scores"][seat]),
                                     1 / len(w) if seat in w else 0.0))
            return time.process_time() - t0 < budget

    model = MaskablePPO("MlpPolicy", venv, learning_rate=3e-4, n_steps=2048, batch_size=256,
                        n_epochs=5, gamma=0.995, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs=dict(net_arch=dict(pi=[128, 128], vf=[128, 128])),
                        seed=args.seed, device="cpu", verbose=0)
    model.learn(total_timesteps=10**9, callback=Budget())
    cpu = time.process_time() - t0
    steps = model.num_timesteps
    meta = {"game": env.config.game, "variant": env.config.variant, "players": args.players,
            "opponents": args.opponents, "algorithm": "MaskablePPO (sb3-contrib)",
            "timesteps": steps, "episodes": len(episodes), "cpu_seconds": round(cpu),
            "net": [128, 128], "seed": args.seed, "codec": {}}
    policy = export(model, meta)
    policy.save(args.out)
    sample = np.stack([env.observation_space.sample() for _ in range(64)])
    diff = check_export(model, policy, sample)
    print(f"trained {steps:,} steps, {len(episodes):,} games in {cpu:.0f} s CPU; "
          f"numpy and torch logits differ by at most {diff:.2e}; policy: {args.out}")
    _curve(episodes, args, meta)
    args.log.write_text(json.dumps({"meta": meta, "episodes": len(episodes),
                                    "curve": _bins(episodes)}, indent=1) + "\n")
    return 0


class _ScaleReward:
    """The environment with its reward scaled (final scores of ±30 -> ±3)."""

    def __new__(cls, env, scale: float):
        import gymnasium

        class Wrapper(gymnasium.RewardWrapper):
            def reward(self, reward):
                return reward * scale

            def action_masks(self):
                return self.env.action_masks()

        return Wrapper(env)


def _bins(episodes, size: int = 1000) -> list[dict]:
    out = []
    for a in range(0, len(episodes) - size + 1, size):
        chunk = episodes[a:a + size]
        out.append({"timesteps": chunk[-1][0], "games": len(chunk),
                    "mean_score": float(np.mean([e[1] for e in chunk])),
                    "win_share": float(np.mean([e[2] for e in chunk]))})
    return out


def _curve(episodes, args, meta) -> None:
    bins = _bins(episodes)
    if not bins:
        return
    x = [b["timesteps"] for b in bins]
    plt, fig, (a1, a2) = figure(2, 1, figsize=(7, 6), dpi=100, sharex=True)
    a1.plot(x, [b["win_share"] for b in bins], color="#4c72b0")
    a1.axhline(1 / args.players, color="grey", ls="--", lw=1, label=f"fair 1/{args.players}")
    a1.set_ylabel("win share (1,000 games)")
    a1.legend(fontsize=8)
    a2.plot(x, [b["mean_score"] for b in bins], color="#dd8452")
    a2.set_ylabel("final score (mean of 1,000 games)")
    a2.set_xlabel("learner decisions (timesteps)")
    from cardtable.core.registry import info

    fig.suptitle(f"MaskablePPO, {info(meta['game']).title} {meta['variant'] or ''} "
                 f"{args.players}p vs 3× {args.opponents}: "
                 f"{meta['cpu_seconds']} s CPU", fontsize=10)
    save(plt, fig, args.curve)


if __name__ == "__main__":
    sys.exit(main())
