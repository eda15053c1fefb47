"""Bot strength benchmark (make bench-bots): duplicate-deal tournaments through the public
tournament API, and decision times per difficulty level; writes docs/strength.md.

    python bench/bench_bots.py [--deals N] [--seconds S | --iterations N] [--jobs J] [--out F]

Every matchup plays each deal once per seat rotation, so every bot gets every hand. Each game
runs in one worker process (one core); `--jobs` runs games side by side.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from cardtable.sim.stats import compute_stats
from cardtable.sim.tournament import TournamentConfig, run_tournament


def matchups(args) -> list[dict]:
    return [
        dict(title="Abluxxen basic, 4 players: ismcts vs 3 greedy", target="ismcts wins >= 45% "
             "(fair share 25%; moonshot 55%)", game="abluxxen", variant="basic",
             bots=["ismcts", "greedy", "greedy", "greedy"], focus="ismcts"),
        dict(title="Abluxxen duel: ismcts vs greedy", target="ismcts wins >= 65%",
             game="abluxxen", variant="duel", bots=["ismcts", "greedy"], focus="ismcts"),
        dict(title="Kombio, 4 players: ismcts vs 3 greedy", target="ismcts: lower mean total "
             "than greedy, wins >= 40%", game="kombio", bots=["ismcts", "greedy", "greedy", "greedy"],
             focus="ismcts"),
        dict(title="Abluxxen basic, 4 players: heuristic vs 3 greedy", target="heuristic beats "
             "greedy significantly (interval above 25%)", game="abluxxen", variant="basic",
             bots=["heuristic", "greedy", "greedy", "greedy"], focus="heuristic"),
        dict(title="Kombio, 4 players: heuristic vs 3 greedy", target="heuristic beats greedy "
             "significantly (interval above 25%)", game="kombio",
             bots=["heuristic", "greedy", "greedy", "greedy"], focus="heuristic"),
    ]


def budget(args) -> dict:
    return {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds}


def run(m: dict, args) -> tuple[dict, float]:
    cfg = TournamentConfig(game=m["game"], variant=m.get("variant"), bots=m["bots"],
                           games=args.deals, duplicate=True, seed=args.seed, jobs=args.jobs,
                           bot_params={"ismcts": budget(args)} if "ismcts" in m["bots"] else {})
    t0 = time.perf_counter()
    result = run_tournament(cfg, progress=sys.stderr.isatty())
    return compute_stats(result), time.perf_counter() - t0


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=25, help="deals per matchup (x rotations)")
    ap.add_argument("--seconds", type=float, default=1.0, help="ismcts budget per decision")
    ap.add_argument("--iterations", type=int, default=None, help="ismcts budget (instead)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", default=None, help="run only matchups whose title has this text")
    ap.add_argument("--out", default="docs/strength.md")
    args = ap.parse_args()
    command = "python bench/bench_bots.py " + shlex.join(sys.argv[1:])
    lines = ["# Bot strength", "",
             f"Made by `{command}` (`make bench-bots ARGS=...`) on "
             f"{time.strftime('%Y-%m-%d')}; ismcts budget: "
             + (f"{args.iterations} iterations" if args.iterations else f"{args.seconds} s")
             + " per decision, one core per game. Duplicate deals: each deal is played once "
             "per seat rotation. Win rates count a shared win as 1/k; intervals are 95% Wilson.",
             ""]
    for m in matchups(args):
        if args.only and args.only.lower() not in m["title"].lower():
            continue
        stats, elapsed = run(m, args)
        lines += [f"## {m['title']}", "", f"Target: {m['target']}. {stats['games']} games "
                  f"({stats['deals']} deals), {elapsed / 60:.1f} min.", "",
                  "| bot | games | win rate | 95% interval | mean score | diff to table "
                  "| median ms | p99 ms |", "|---|---|---|---|---|---|---|---|"]
        for b in stats["bots"]:
            lines.append(
                f"| {b['bot']} | {b['games']} | {pct(b['win_rate'])} | {pct(b['win_low'])}–"
                f"{pct(b['win_high'])} | {b['mean_score']:.2f} | {b['mean_diff']:+.2f} | "
                f"{b.get('time_median_ms') or 0:.1f} | {b.get('time_p99_ms') or 0:.1f} |")
        lines.append("")
        print("\n".join(lines[-(len(stats['bots']) + 5):]), flush=True)
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
