"""Imitation learning (make train-learned): DAgger from the project's own `heuristic` bot (the
level `medium`) into the numpy MLP the bots `ppo` and `learned` play (rl/policy.py), on CPU,
within a CPU-time budget; then the learning curve (PNG), its numbers (JSON) and the policy file.

    python -m cardtable.rl.imitate --cpu-minutes 10
    cardtable tournament --game abluxxen --variant basic --bots learned,greedy,greedy,greedy \
        --duplicate --games 1000 --no-ratings

The learner sits at a random seat of a game (`--game`, `--variant`, `--players`; default
4-player basic Abluxxen) against bots (`--opponents`, default `easy`). Round 0 (behaviour
cloning): the teacher plays the learner's seat. Every later round (DAgger, Ross et al. 2011): the learner plays that seat with its current policy (the legal
action of highest logit, as the bot plays) and the teacher labels every state the learner meets;
the labelled states of all rounds are kept, and the network is trained on them after each round
with the masked cross-entropy (illegal actions' logits removed) of the teacher's action.

Honesty: the learner sees only its seat's tensor (rl/codec.py, encoded from `state.view(seat)`)
and acts through the mask; the teacher labels through `bots.act`, which hands it a
determinization for that seat (every card the seat cannot see re-dealt), so a label cannot
depend on hidden cards (tests/rl/test_learned_bot.py checks it on twin deals).

The budget is the CPU time of this process (playing, labelling and training; torch runs on one
thread), so a busy machine does not shorten the training; the closing export is inside it (the
run stops while the longest stretch between two checks and the export still fit). Needs torch (the train extra): without
it, a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

from cardtable.rl.budget import CpuBudget
from cardtable.rl.plots import figure, save, write_log
from cardtable.rl.policy import MlpPolicy, new_policy_file
from cardtable.rl.train import need
from cardtable.sim.stats import wilson

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _need():
    need("torch", what="torch", target="train-learned")


def teacher_label(teacher, state, codec, legal: dict) -> int:
    """The action id the teacher plays at `state` (its seat to move), through `bots.act`:
    the teacher sees a determinization for that seat only."""
    from cardtable.bots import act

    text = act(teacher, state).text
    for i, d in legal.items():
        if d.text == text:
            return i
    raise AssertionError(f"the teacher played {text!r}, outside the codec's mask")


class Data:
    """The labelled states of all rounds: observations (float16), legal masks (bit-packed),
    the teacher's action ids."""

    def __init__(self, obs_size: int, num_actions: int):
        self.num_actions = num_actions
        self.obs = np.zeros((0, obs_size), np.float16)
        self.masks = np.zeros((0, (num_actions + 7) // 8), np.uint8)
        self.labels = np.zeros(0, np.int64)

    def add(self, obs: list, masks: list, labels: list) -> None:
        if not obs:
            return
        self.obs = np.concatenate([self.obs, np.stack(obs).astype(np.float16)])
        self.masks = np.concatenate([self.masks, np.packbits(np.stack(masks), axis=1)])
        self.labels = np.concatenate([self.labels, np.array(labels, np.int64)])

    def __len__(self) -> int:
        return len(self.labels)

    def standardizer(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean and standard deviation of every entry (1 where it hardly varies)."""
        if not len(self):
            return np.zeros(self.obs.shape[1], np.float32), np.ones(self.obs.shape[1], np.float32)
        x = self.obs.astype(np.float32)
        sd = x.std(0)
        sd[sd < 1e-3] = 1.0
        return x.mean(0), sd

    def batch(self, idx: np.ndarray, mean=0.0, std=1.0):
        mask = np.unpackbits(self.masks[idx], axis=1, count=self.num_actions).astype(bool)
        return (self.obs[idx].astype(np.float32) - mean) / std, mask, self.labels[idx]


def play_round(games: int, cfg, codec, policy: MlpPolicy | None, teacher: str,
               opponents: str, rng: random.Random, data: Data, out_of_time,
               label_others: bool = True) -> dict:
    """Play `games` games with the learner's seat played by `policy` (None: by the teacher),
    label every state of that seat (with `label_others`, the opponents' states too: each
    from its own seat's view) with the teacher, add them to `data`. Returns the learner seat's
    results (games, win share sum, score sum)."""
    from cardtable.bots import act, make_bot

    n = cfg.players
    obs_l, mask_l, lab_l = [], [], []
    played, wins, score = 0, 0.0, 0.0
    for _ in range(games):
        if played and out_of_time():       # a round plays at least one game
            break
        state = cfg.new_state(rng.getrandbits(62))
        seat = rng.randrange(n)
        bots = {s: make_bot(opponents, rng.getrandbits(62)) for s in range(n) if s != seat}
        tbot = make_bot(teacher, rng.getrandbits(62))
        while not state.over:
            s = state.to_move
            if s != seat and not label_others:
                state.apply(act(bots[s], state))
                continue
            view = state.view(s)
            legal = codec.legal(state, view)
            x = codec.encode(view)
            label = teacher_label(tbot, state, codec, legal)
            m = np.zeros(codec.num_actions, bool)
            m[list(legal)] = True
            obs_l.append(x)
            mask_l.append(m)
            lab_l.append(label)
            if s != seat:
                state.apply(act(bots[s], state))
                continue
            if policy is None:
                mine = label
            else:
                ids = sorted(legal)
                mine = ids[int(np.argmax(policy.logits(x)[ids]))]
            state.apply(legal[mine])
        w = state.winners()
        played += 1
        wins += 1 / len(w) if seat in w else 0.0
        score += float(state.scores()[seat])
    data.add(obs_l, mask_l, lab_l)
    return {"games": played, "wins": wins, "score": score}


def make_net(obs_size: int, num_actions: int, hidden: list[int], activation: str = "relu"):
    import torch.nn as nn

    act = nn.ReLU if activation == "relu" else nn.Tanh
    layers, last = [], obs_size
    for h in hidden:
        layers += [nn.Linear(last, h), act()]
        last = h
    layers.append(nn.Linear(last, num_actions))
    return nn.Sequential(*layers)


def export(net, meta: dict, mean: np.ndarray, std: np.ndarray) -> MlpPolicy:
    """The numpy copy of the network (rl/policy.py), which is trained on standardized
    observations (obs - mean) / std: the standardization is folded into the first layer, so
    the bot feeds the codec's tensor as it is."""
    import torch.nn as nn

    lin = [m for m in net if isinstance(m, nn.Linear)]
    arr = [(m.weight.detach().numpy().astype(np.float32),
            m.bias.detach().numpy().astype(np.float32)) for m in lin]
    w, b = arr[0]
    arr[0] = ((w / std).astype(np.float32), (b - (w / std) @ mean).astype(np.float32))
    return MlpPolicy(arr[:-1], arr[-1], meta)


def train_steps(net, opt, data: Data, steps: int, batch: int, rng: np.random.Generator,
                out_of_time, mean, std) -> tuple[float | None, float | None]:
    """`steps` minibatches drawn from all the labelled states; the mean loss and the accuracy
    (argmax of the masked logits = the teacher's action) of the last 50 (None, None: out of time before the first)."""
    import torch
    import torch.nn.functional as F

    losses, accs = [], []
    for _ in range(steps):
        if out_of_time():
            break
        x, m, y = data.batch(rng.integers(0, len(data), batch), mean, std)
        x = x.astype(np.float32)
        x, m, y = torch.from_numpy(x), torch.from_numpy(m), torch.from_numpy(y)
        logits = net(x).masked_fill(~m, -1e9)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        accs.append(float((logits.argmax(1) == y).float().mean()))
    tail = slice(-50, None)
    if not losses:                       # the budget ran out before the first minibatch
        return None, None
    return float(np.mean(losses[tail])), float(np.mean(accs[tail]))


def _check_export(net, policy: MlpPolicy, data: Data, mean, std) -> float:
    """Largest difference between torch's logits and the exported numpy policy's."""
    import torch

    if not len(data):
        return 0.0
    raw = data.obs[:64].astype(np.float32)
    with torch.no_grad():
        ref = net(torch.from_numpy(((raw - mean) / std).astype(np.float32))).numpy()
    return float(np.abs(ref - np.stack([policy.logits(o) for o in raw])).max())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpu-minutes", type=float, default=10.0,
                    help="CPU time of the whole process: its start, playing, labelling, training, "
                         "the files (default 10)")
    ap.add_argument("--teacher", default="heuristic", help="the bot imitated (default heuristic)")
    ap.add_argument("--opponents", default="easy", help="bot or level of the other seats")
    ap.add_argument("--game", default=None, help="a registered game (default: the first)")
    ap.add_argument("--variant", default=None, help="its rule set (default: its first)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hidden", default="256,256", help="hidden layer widths")
    ap.add_argument("--activation", choices=("relu", "tanh"), default="relu")
    ap.add_argument("--first-games", type=int, default=2000,
                    help="games of round 0 (the teacher plays; behaviour cloning)")
    ap.add_argument("--round-games", type=int, default=1500,
                    help="games of each DAgger round (the learner plays)")
    ap.add_argument("--learner-only", action="store_true",
                    help="label only the learner's states (default: the opponents' too)")
    ap.add_argument("--steps", type=int, default=2000, help="minibatches after each round")
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None,
                    help="policy file (.npz; default: the game's own, learned-VARIANT-Np.npz)")
    ap.add_argument("--curve", type=Path, default=None,
                    help="learning curve (PNG; default docs/training-learned-GAME-curve.png)")
    ap.add_argument("--log", type=Path, default=None,
                    help="its numbers (JSON; default docs/training-learned-GAME-log.json)")
    args = ap.parse_args(argv)
    if args.cpu_minutes <= 0:
        sys.stderr.write("cardtable: error: --cpu-minutes must be positive\n")
        return 2
    if args.out is None:                  # the game's own policies package
        from cardtable.core.errors import ConfigError as _Refused

        try:
            args.out = new_policy_file("learned", args.game, args.variant, args.players)
        except _Refused as e:
            sys.stderr.write(f"cardtable: error: {e} (--out FILE)\n")
            return 2
    try:
        hidden = [int(h) for h in args.hidden.split(",")]
        if not hidden or min(hidden) < 1:
            raise ValueError
    except ValueError:
        sys.stderr.write(f"cardtable: error: --hidden must be positive widths like 256,256, "
                         f"not {args.hidden!r}\n")
        return 2
    _need()
    import torch

    from cardtable.bots import make_bot
    from cardtable.core.errors import ConfigError
    from cardtable.rl.codec import make_codec
    from cardtable.rl.common import make_config

    from cardtable.core.registry import info

    try:
        cfg = make_config(args.game, args.variant, args.players)
        args.title = info(cfg.game).title
        args.curve = args.curve or DOCS / f"training-learned-{cfg.game}-curve.png"
        args.log = args.log or DOCS / f"training-learned-{cfg.game}-log.json"
        make_bot(args.teacher, 0)
        make_bot(args.opponents, 0)
    except ConfigError as e:
        sys.stderr.write(f"cardtable: error: {e}\n")
        return 2
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    codec = make_codec(cfg.game, cfg.players)
    budget = CpuBudget.whole_process(args.cpu_minutes * 60)
    out_of_time = budget.over

    rng = random.Random(args.seed)
    nrng = np.random.default_rng(args.seed)
    net = make_net(codec.obs_size, codec.num_actions, hidden, args.activation)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    data = Data(codec.obs_size, codec.num_actions)
    meta = {"game": cfg.game, "variant": cfg.variant or info(cfg.game).default_variant,
            "players": cfg.players,
            "opponents": args.opponents, "teacher": args.teacher,
            "algorithm": "DAgger imitation of the heuristic bot (masked cross-entropy, Adam)",
            "net": hidden, "activation": args.activation, "seed": args.seed, "codec": {}}
    rounds: list[dict] = []
    policy = None
    r = 0
    while r == 0 or not out_of_time():     # round 0 always: the standardizer comes from it
        games = args.first_games if r == 0 else args.round_games
        res = play_round(games, cfg, codec, policy, args.teacher, args.opponents, rng, data,
                         out_of_time, not args.learner_only)
        if r == 0:
            mean, std = data.standardizer()       # fixed after round 0 (the teacher's games)
        loss, acc = train_steps(net, opt, data, args.steps, args.batch, nrng, out_of_time,
                                mean, std)
        t_export = budget.clock()
        policy = export(net, meta, mean, std)
        budget.reserve(2 * (budget.clock() - t_export))   # the closing export and its check
        budget.restart_stretch()
        lo, hi = wilson(res["wins"], res["games"])
        row = {"round": r, "player": "teacher" if r == 0 else "learner",
               "games": res["games"], "states": len(data),
               "win_share": res["wins"] / max(1, res["games"]), "win_low": lo, "win_high": hi,
               "mean_score": res["score"] / max(1, res["games"]), "loss": loss,
               "accuracy": acc, "cpu_seconds": round(budget.spent(), 1)}
        rounds.append(row)
        fit = "not trained (out of time)" if loss is None else \
            f"loss {loss:.3f}, accuracy {acc:.1%}"
        print(f"round {r}: {row['player']} won {row['win_share']:.1%} ({lo:.1%}-{hi:.1%}) of "
              f"{row['games']} games, {len(data):,} states, {fit}, "
              f"{row['cpu_seconds']:.0f} s CPU", flush=True)
        r += 1
    cpu = budget.spent()
    meta.update(rounds=len(rounds), states=len(data), cpu_seconds=round(cpu))
    policy = export(net, meta, mean, std)
    policy.save(args.out)
    diff = _check_export(net, policy, data, mean, std)
    print(f"numpy and torch logits differ by at most {diff:.2e}")
    print(f"trained {len(rounds)} rounds on {len(data):,} labelled states in {cpu:.0f} s CPU; "
          f"policy: {args.out}")
    _curve(rounds, args, meta)
    write_log(args.log, {"meta": meta, "rounds": rounds})
    return 0


def _curve(rounds: list[dict], args, meta: dict) -> None:
    learner = [r for r in rounds if r["player"] == "learner"]
    plt, fig, (a1, a2) = figure(2, 1, figsize=(7, 6), dpi=100, sharex=True)
    x = [r["cpu_seconds"] / 60 for r in learner]
    if learner:
        y = [r["win_share"] for r in learner]
        a1.errorbar(x, y, yerr=[[v - r["win_low"] for v, r in zip(y, learner)],
                                [r["win_high"] - v for v, r in zip(y, learner)]],
                    color="#4c72b0", marker="o", ms=3, capsize=2, label="learner (95% interval)")
    a1.axhline(1 / args.players, color="grey", ls="--", lw=1, label=f"fair 1/{args.players}")
    if rounds and rounds[0]["player"] == "teacher":
        a1.axhline(rounds[0]["win_share"], color="#55a868", ls=":", lw=1,
                   label=f"teacher ({args.teacher})")
    a1.set_ylabel("win share per round")
    a1.legend(fontsize=8, loc="lower right")
    fitted = [r for r in learner if r["accuracy"] is not None]
    a2.plot([r["cpu_seconds"] / 60 for r in fitted], [r["accuracy"] for r in fitted],
            color="#dd8452", marker="o", ms=3)
    a2.set_ylabel("agreement with the teacher")
    a2.set_xlabel("CPU minutes")
    fig.suptitle(f"DAgger from {args.teacher}, {args.title} {meta['variant']} {args.players}p "
                 f"vs 3× {args.opponents}: {meta['cpu_seconds']} s CPU", fontsize=10)
    save(plt, fig, args.curve)


if __name__ == "__main__":
    sys.exit(main())
