"""The review's budget and strength check (docs/review.md, issue 34).

    python bench/bench_review.py                      # the time of a review of each game
    python bench/bench_review.py --accuracy --games 20 --rollouts 120

Time (the default): plays one 4-player game per game (medium bots at every seat, which costs
no search; who played changes the review's cost little; seed `--seed`), reviews it for one seat and for all four seats with the default
budget (`review.budget_for`) or `--rollouts`, and prints the CPU seconds of each (process
time: one core), the decisions reviewed and the rollouts per decision. The issue's limits: a
4-player Abluxxen game in under a minute, Kombio in under three.

Accuracy (`--accuracy`): plays `--games` 4-player games per game (`--game` to pick one),
each with one expert seat (rotating over the seats) and three medium seats, reviews every seat
of every game and prints the mean accuracy per level with a 95% interval (a t-free normal
interval over the per-seat accuracies: the expert has one seat a game, medium three), and the
mean difference expert - medium per game (paired by game) with its interval. The expert's
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


def play(game: str, seed: int, expert_seat: int | None, expert_budget: int | None) -> dict:
    g = new_game(game, players=4, seed=seed)
    budget = {} if expert_budget is None else {"iterations": expert_budget}
    bots = [make_bot("expert", seed * 10 + s, **budget) if s == expert_seat
            else make_bot("medium", seed * 10 + s) for s in range(4)]
    while not g.over:
        g.apply(act(bots[g.to_move], g))
    rec = g.record()
    rec["seats"] = [{"name": f"S{s}", "bot": "expert" if s == expert_seat else "medium"}
                    for s in range(4)]
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
        rec = play(game, args.seed, None, None)
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
    for game in args.games_list:
        rollouts = args.rollouts or budget_for(game)
        expert, medium, diffs = [], [], []
        t0 = time.process_time()
        for i in range(args.games):
            seat = i % 4
            rec = play(game, args.seed + i, seat, args.expert_rollouts)
            out = review(rec, seats=[0, 1, 2, 3], rollouts=rollouts, seed=args.seed + i)
            acc = {s["seat"]: s["accuracy"] for s in out["seats"] if s["accuracy"] is not None}
            e = acc.pop(seat)
            expert.append(e)
            medium.extend(acc.values())
            diffs.append(e - sum(acc.values()) / len(acc))
            print(f"  {game} game {i + 1}/{args.games}: expert (seat {seat}) {e:.1f}, medium "
                  + ", ".join(f"{a:.1f}" for a in acc.values()), flush=True)
        (me, he), (mm, hm), (md, hd) = mean_ci(expert), mean_ci(medium), mean_ci(diffs)
        print(f"{game}: {args.games} games, review {rollouts} rollouts/decision, "
              f"{time.process_time() - t0:.0f} s CPU")
        print(f"  expert accuracy {me:.1f} (95% {me - he:.1f}..{me + he:.1f}, n={len(expert)})")
        print(f"  medium accuracy {mm:.1f} (95% {mm - hm:.1f}..{mm + hm:.1f}, n={len(medium)})")
        print(f"  expert - medium per game {md:+.1f} (95% {md - hd:+.1f}..{md + hd:+.1f})",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--accuracy", action="store_true", help="the strength check")
    p.add_argument("--game", choices=GAMES + ("all",), default="all")
    p.add_argument("--games", type=int, default=20, help="games per game (--accuracy)")
    p.add_argument("--rollouts", type=int, default=None, help="review rollouts per decision")
    p.add_argument("--expert-rollouts", type=int, default=None,
                   help="the expert player's rollouts (default: its level's own)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    args.games_list = GAMES if args.game == "all" else (args.game,)
    (accuracy if args.accuracy else timing)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
