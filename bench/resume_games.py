"""Play chosen games of a duplicate tournament plan, one JSON line per game appended to a file,
so that a long experiment survives a restart: run it again and it plays only the games the file
lacks. The games are exactly those of `cardtable tournament` with the same bots, seed and
settings (deal d's seed and game i's bot seeds depend on d and i only, not on the plan's size).

    python bench/resume_games.py --game kombio --bots expert,hard,hard,hard --seed 2026 \\
        --first 0 --last 95 --bot-param expert.events=true --out runs/x.jsonl [--jobs 2]
    python bench/resume_games.py --pool runs/x.jsonl [--entry 0]
    python bench/resume_games.py --pool runs/x.jsonl --seed 2026 --row "Kombio, 4 players: hard vs 3 medium"

`--pool` prints the file's figures for one entry (default the first bot): its win share (a
shared win counts 1/k) with the 95% Wilson interval, and the mean final score of that entry and
of the others. With `--row TITLE` the file's games (the first bot one against the others, a
whole number of deals from game 0 on) become that row of the ladder in docs/strength.json, the
figures `make bench-bots` gives for the same games, and docs/strength.md is written again from
it (`--seed` is the plan's, for the row's command; the row's minutes are the games' CPU time over two cores). Usage errors exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from cardtable.core.errors import ConfigError
from cardtable.sim.stats import wilson
from cardtable.sim.tournament import TournamentConfig, make_plan, play_game


def _play(plan, i: int) -> dict:
    g = play_game(plan, i)
    return {"index": g.index, "deal": g.deal, "entries": g.entries, "scores": g.scores,
            "winners": g.winners, "seconds": [round(s, 3) for s in g.seconds]}


def _done(path: Path) -> dict[int, dict]:
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                g = json.loads(line)
                out[g["index"]] = g
    return out


def _figures(games: list[dict], entry: int = 0) -> dict:
    """Win share (a shared win counts 1/k), the others' share per seat, mean scores and CPU
    seconds of `entry` over `games`."""
    n = len(games)
    wins = opp_wins = own = other = cpu = 0.0
    for g in games:
        seat = g["entries"].index(entry)
        k = len(g["scores"]) - 1
        share = 1 / len(g["winners"])
        wins += share if seat in g["winners"] else 0.0
        opp_wins += sum(share for w in g["winners"] if w != seat) / k
        own += g["scores"][seat]
        other += (sum(g["scores"]) - g["scores"][seat]) / k
        cpu += sum(g["seconds"])
    lo, hi = wilson(wins, n)
    return {"games": n, "win_rate": wins / n, "win_low": lo, "win_high": hi,
            "opp_win_rate": opp_wins / n, "mean_focus": own / n, "mean_others": other / n,
            "cpu": cpu}


def pool(path: Path, entry: int = 0) -> str:
    games = list(_done(path).values())
    if not games:
        raise ConfigError(f"{path}: no games")
    f = _figures(games, entry)
    return (f"{path}: entry {entry}: {f['games']} games, win {f['win_rate']:.1%} "
            f"({f['win_low']:.1%}-{f['win_high']:.1%}), "
            f"mean score {f['mean_focus']:.1f} vs the others' {f['mean_others']:.1f}")


def strength_row(path: Path, title: str, seed: int, json_path: Path = Path("docs/strength.json"),
                 md_path: Path = Path("docs/strength.md")) -> str:
    """Put the games of `path` into the ladder row `title` of `json_path` and render `md_path`
    (bench_bots.render); returns the row's line as `--pool` prints it."""
    import bench_bots as B                     # bench/ is on the path when run as a script
    found = [(settings, focus, opp) for section, settings, rows in B.LADDER
             for focus, opp, _, _ in rows
             if B.title(section, focus, opp, settings["players"]) == title]
    if not found:
        raise ConfigError(f"no ladder row {title!r}")
    (settings, focus, opp), = found
    players = settings["players"]
    games = sorted(_done(path).values(), key=lambda g: g["index"])
    n = len(games)
    if not n or n % players or [g["index"] for g in games] != list(range(n)):
        raise ConfigError(f"{path}: need games 0..N-1 of whole deals, not {n} games")
    f = _figures(games)
    deals = n // players
    data = json.loads(json_path.read_text())
    data["ladder"][title] = {
        "game": settings["game"], "players": players, "focus": focus, "opponent": opp,
        "deals": deals, **{k: v for k, v in f.items() if k != "cpu"},
        "minutes": f["cpu"] / 60 / 2,
        "command": B.command(settings, [focus] + [opp] * (players - 1), deals, seed, 2),
        "date": time.strftime("%Y-%m-%d")}
    json_path.write_text(json.dumps(data, indent=1) + "\n")
    md_path.write_text(B.render(data))
    return pool(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="kombio")
    ap.add_argument("--bots")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--last", type=int)
    ap.add_argument("--bot-param", action="append", default=[])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pool", type=Path)
    ap.add_argument("--entry", type=int, default=0)
    ap.add_argument("--row", help="with --pool: make the file's games this ladder row")
    a = ap.parse_args(argv)
    try:
        if a.pool is not None:
            print(pool(a.pool, a.entry) if a.row is None else strength_row(a.pool, a.row, a.seed))
            return 0
        from cardtable.cli.tournament_cmd import parse_bot_params
        if not a.bots or a.out is None or a.last is None:
            raise ConfigError("give --bots, --last and --out (or --pool FILE)")
        if not 0 <= a.first <= a.last or a.jobs < 1:
            raise ConfigError("need 0 <= --first <= --last and --jobs >= 1")
        bots = a.bots.split(",")
        plan = make_plan(TournamentConfig(
            game=a.game, bots=bots, games=a.last // len(bots) + 1, duplicate=True,
            seed=a.seed, bot_params=parse_bot_params(a.bot_param)))
    except (ConfigError, OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    done = _done(a.out)
    todo = [i for i in range(a.first, a.last + 1) if i not in done]
    print(f"{len(todo)} games to play", flush=True)
    with ProcessPoolExecutor(a.jobs) as ex, a.out.open("a") as f:
        for fut in as_completed([ex.submit(_play, plan, i) for i in todo]):
            f.write(json.dumps(fut.result()) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
