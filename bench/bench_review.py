"""The review's budget and strength check (docs/review.md, issue 34).

    python bench/bench_review.py                      # the time of a review of each game
    python bench/bench_review.py --accuracy --games 20 --rollouts 120

Time (the default): plays one 4-player game per game (medium bots at every seat, which costs
no search; who played changes the review's cost little; seed `--seed`), reviews it for one seat and for all four seats with the default
budget (`review.budget_for`) or `--rollouts`, and prints the CPU seconds of each (process
time: one core), the decisions reviewed and the rollouts per decision. The issue's limits: a
4-player Abluxxen game in under a minute, Kombio in under three.

Accuracy (`--accuracy`): plays `--games` 4-player games per game (`--game` to pick one),
the seats played by `--levels` (default one expert and three medium), rotated a seat each game,
reviews every seat of every game and prints the mean accuracy per level with a 95% interval (a
t-free normal interval over the per-seat accuracies), and for every two levels the mean
difference of their accuracies per game (paired by game) with its interval. The expert's
rollouts use its own budget unless `--expert-rollouts` is given (the games are its, not the
review's).

Runs on one core; `--jobs` is not offered on purpose (the review's limit is a one-core limit).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from cardtable import new_game  # noqa: E402
from cardtable.bots import act, make_bot  # noqa: E402
from cardtable.bots.review import budget_for, review  # noqa: E402

GAMES = ("abluxxen", "kombio")
LIMITS = {"abluxxen": 60.0, "kombio": 180.0}


def play(game: str, seed: int, levels: list[str], expert_budget: int | None = None) -> dict:
    """One 4-player game, seat s played by the bot `levels[s]` (the expert with
    `expert_budget` rollouts if given); its record, each seat's level in `seats`."""
    g = new_game(game, players=4, seed=seed)
    budget = {} if expert_budget is None else {"iterations": expert_budget}
    bots = [make_bot(lv, seed * 10 + s, **(budget if lv == "expert" else {}))
            for s, lv in enumerate(levels)]
    while not g.over:
        g.apply(act(bots[g.to_move], g))
    rec = g.record()
    rec["seats"] = [{"name": f"S{s}", "bot": lv} for s, lv in enumerate(levels)]
    return rec


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """(mean, half width of the 95% interval)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def timing(args) -> None:
    for game in args.games_list:
        rollouts = args.rollouts or budget_for(game)
        rec = play(game, args.seed, ["medium"] * 4)
        for seats, what in (([0], "one seat"), ([0, 1, 2, 3], "all four seats")):
            t0 = time.process_time()
            out = review(rec, seats=seats, rollouts=rollouts, seed=args.seed)
            dt = time.process_time() - t0
            n = sum(s["reviewed"] for s in out["seats"])
            limit = LIMITS[game]
            print(f"{game:9} {what:15} {len(rec['actions']):5} actions  {n:4} decisions "
                  f"reviewed  {rollouts} rollouts/decision  {dt:6.1f} s CPU  "
                  f"({dt / max(1, n):.2f} s/decision; limit {limit:.0f} s: "
                  f"{'met' if dt < limit else 'NOT met'})", flush=True)


def accuracy(args) -> None:
    levels = args.levels
    names = list(dict.fromkeys(levels))
    for game in args.games_list:
        rollouts = args.rollouts or budget_for(game)
        per: dict[str, list[float]] = {lv: [] for lv in names}
        diffs: dict[tuple[str, str], list[float]] = {
            (a, b): [] for i, a in enumerate(names) for b in names[i + 1:]}
        t0 = time.process_time()
        for i in range(args.games):
            seated = [levels[(s - i) % 4] for s in range(4)]        # rotated each game
            rec = play(game, args.seed + i, seated, args.expert_rollouts)
            out = review(rec, seats=[0, 1, 2, 3], rollouts=rollouts, seed=args.seed + i)
            acc = {s["seat"]: s["accuracy"] for s in out["seats"] if s["accuracy"] is not None}
            mean_of = {}
            for lv in names:
                got = [acc[s] for s in range(4) if seated[s] == lv and s in acc]
                per[lv].extend(got)
                if got:
                    mean_of[lv] = sum(got) / len(got)
            for (a, b), d in diffs.items():
                if a in mean_of and b in mean_of:
                    d.append(mean_of[a] - mean_of[b])
            print(f"  {game} game {i + 1}/{args.games}: "
                  + ", ".join(f"{seated[s]} (seat {s}) {acc[s]:.1f}" for s in sorted(acc)),
                  flush=True)
        print(f"{game}: {args.games} games, review {rollouts} rollouts/decision, "
              f"{time.process_time() - t0:.0f} s CPU")
        for lv in names:
            m, h = mean_ci(per[lv])
            print(f"  {lv} accuracy {m:.1f} (95% {m - h:.1f}..{m + h:.1f}, n={len(per[lv])})")
        for (a, b), d in diffs.items():
            m, h = mean_ci(d)
            print(f"  {a} - {b} per game {m:+.1f} (95% {m - h:+.1f}..{m + h:+.1f}, n={len(d)})",
                  flush=True)


def level_list(text: str) -> list[str]:
    """Four levels, comma-separated (argparse type)."""
    levels = [x.strip() for x in text.split(",")]
    if len(levels) != 4 or not all(levels):
        raise argparse.ArgumentTypeError(f"give four levels, comma-separated, not {text!r}")
    for lv in levels:
        try:
            make_bot(lv, 0)
        except Exception as e:          # an unknown level: the bots' own message
            raise argparse.ArgumentTypeError(str(e)) from None
    return levels


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--accuracy", action="store_true", help="the strength check")
    p.add_argument("--game", choices=GAMES + ("all",), default="all")
    p.add_argument("--games", type=int, default=20, help="games per game (--accuracy)")
    p.add_argument("--rollouts", type=int, default=None, help="review rollouts per decision")
    p.add_argument("--expert-rollouts", type=int, default=None,
                   help="the expert player's rollouts (default: its level's own)")
    p.add_argument("--levels", type=level_list, default=level_list("expert,medium,medium,medium"),
                   help="the four seats' bots, rotated a seat each game (--accuracy)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    args.games_list = GAMES if args.game == "all" else (args.game,)
    (accuracy if args.accuracy else timing)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
