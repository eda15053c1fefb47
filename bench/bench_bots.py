"""Bot strength benchmark (make bench-bots): the difficulty ladder as duplicate-deal
tournaments through the public tournament API, and the decision times per level; writes
docs/strength.md (and the figures behind it to docs/strength.json).

    python bench/bench_bots.py [--jobs J] [--seed S] [--scale X] [--only TEXT] [--timing-only]
                               [--no-timing] [--timing-games N] [--out docs/strength.md]

The ladder matrix: for Abluxxen basic with 4 players, the Abluxxen duel and Kombio with 4
players, each level against the level below it (one against three at 4 players; duplicate
deals: every deal once per seat rotation, so every bot gets every hand) and expert against
medium. Every row names the `cardtable tournament` command that plays exactly its games (the
same seed gives the same games on every machine: the levels have iteration budgets).

The timing run is separate: each level plays `--timing-games` games at seat 0 against
`medium` at the other seats, one game at a time in this process (one core), and the wall time
of every decision is measured (`bots.act`). Searched decisions are those where the bot ran a
search (more than one sensible option); the others are answered at once.

`--only TEXT` runs the rows whose title contains TEXT (or any of `A|B|...`; with `--timing-only`, the
timing rows "SECTION LEVEL" that match) and keeps the other rows of an earlier
run (from docs/strength.json); `--scale` multiplies the deals (e.g. 0.25 for a quick look).
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from pathlib import Path

from cardtable import new_game
from cardtable.bots import act, make_bot
from cardtable.sim.stats import compute_stats, percentile
from cardtable.sim.tournament import TournamentConfig, run_tournament

#: (section title, tournament settings, [(focus level, opponent level, deals, target)])
LADDER = [
    ("Abluxxen basic, 4 players", {"game": "abluxxen", "variant": "basic", "players": 4}, [
        ("medium", "easy", 100, "above the fair share"),
        ("hard", "medium", 24, "above the fair share"),
        ("expert", "hard", 24, "above the fair share"),
        ("expert", "medium", 24, "at least 45% (moonshot 55%)"),
    ]),
    ("Abluxxen duel", {"game": "abluxxen", "variant": "duel", "players": 2}, [
        ("medium", "easy", 200, "above the fair share"),
        ("hard", "medium", 48, "above the fair share"),
        ("expert", "hard", 200, "above the fair share"),    # 96 games did not decide it
        ("expert", "medium", 48, "at least 65%"),
    ]),
    ("Kombio, 4 players", {"game": "kombio", "variant": None, "players": 4}, [
        ("medium", "easy", 100, "above the fair share"),
        ("hard", "medium", 24, "above the fair share"),
        ("expert", "hard", 24, "above the fair share"),
        # 96 games did not decide 45%
        ("expert", "medium", 48, "at least 45% (moonshot 55%) and a lower mean total"),
    ]),
]
LEVEL_ORDER = ("easy", "medium", "hard", "expert")


def title(section: str, focus: str, opp: str, players: int) -> str:
    many = "" if players == 2 else f"{players - 1} "
    return f"{section}: {focus} vs {many}{opp}"


def command(settings: dict, bots: list[str], deals: int, seed: int, jobs: int) -> str:
    args = ["cardtable", "tournament", "--game", settings["game"]]
    if settings["variant"]:
        args += ["--variant", settings["variant"]]
    args += ["--bots", ",".join(bots), "--games", str(deals), "--duplicate", "--seed",
             str(seed), "--jobs", str(jobs), "--no-ratings", "--no-charts"]
    return shlex.join(args)


def target_met(row: dict) -> bool:
    fair = 1 / row["players"]
    if row["focus"] == "expert" and row["opponent"] == "medium":
        need = 0.65 if row["players"] == 2 else 0.45
        ok = row["win_rate"] >= need
        if row["game"] == "kombio":
            ok = ok and row["mean_focus"] < row["mean_others"]
        return ok and row["win_low"] > fair
    return row["win_low"] > fair


def play_matchup(settings: dict, focus: str, opp: str, deals: int, seed: int,
                 jobs: int) -> dict:
    players = settings["players"]
    bots = [focus] + [opp] * (players - 1)
    cfg = TournamentConfig(game=settings["game"], variant=settings["variant"], bots=bots,
                           games=deals, duplicate=True, seed=seed, jobs=jobs)
    t0 = time.perf_counter()
    result = run_tournament(cfg, progress=sys.stderr.isatty())
    elapsed = time.perf_counter() - t0
    stats = compute_stats(result)
    by_bot = {b["bot"]: b for b in stats["bots"]}
    f, o = by_bot[focus], by_bot[opp]
    return {"game": settings["game"], "players": players, "focus": focus, "opponent": opp,
            "deals": deals, "games": f["games"], "win_rate": f["win_rate"],
            "win_low": f["win_low"], "win_high": f["win_high"],
            "opp_win_rate": o["win_rate"], "mean_focus": f["mean_score"],
            "mean_others": o["mean_score"], "minutes": elapsed / 60,
            "command": command(settings, bots, deals, seed, jobs),
            "date": time.strftime("%Y-%m-%d")}


def timing(settings: dict, level: str, games: int, seed: int) -> dict:
    """Decision times of `level` at seat 0 against medium (one core, this process)."""
    every, searched, cpu = [], [], []
    for i in range(games):
        opts = {"players": settings["players"]}
        if settings["variant"]:
            opts["variant"] = settings["variant"]
        g = new_game(settings["game"], seed=seed * 1000 + i, **opts)
        bots = [make_bot(level, seed=seed + i)] + [make_bot("medium", seed=seed + 100 * s + i)
                                                   for s in range(1, g.players)]
        me = bots[0]
        while not g.over:
            seat = g.to_move
            t0, c0 = time.perf_counter(), time.process_time()
            d = act(bots[seat], g)
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            if seat == 0:
                every.append(dt)
                if not me.searches or getattr(me, "last_iterations", 0):
                    searched.append(dt)
                    cpu.append(dc)
            g.apply(d)

    def summary(xs):
        xs = sorted(xs)
        return {"decisions": len(xs), "median_ms": 1000 * statistics.median(xs) if xs else None,
                "p99_ms": 1000 * percentile(xs, 99) if xs else None,
                "max_ms": 1000 * xs[-1] if xs else None}

    out = {"all": summary(every), "searched": summary(searched), "games": games}
    c = summary(cpu)
    out["searched"].update(cpu_median_ms=c["median_ms"], cpu_p99_ms=c["p99_ms"])
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(data: dict) -> str:
    lines = ["# Bot strength: the difficulty ladder", "",
             "Made by `make bench-bots` (`python bench/bench_bots.py`: every row and the "
             "timing; `--only TEXT` plays the matching rows again and keeps the others; "
             "`--scale X` multiplies the deals). "
             "Duplicate deals: "
             "each deal is played once per seat rotation, so every bot gets every hand. Win "
             "rates count a shared win as 1/k; intervals are 95% Wilson score intervals. Every "
             "row gives the `cardtable tournament` command that plays exactly its games; the "
             "levels have iteration budgets, so the games are the same on every machine and "
             "under any load. How the levels play: docs/bots.md.", ""]
    for section, settings, rows in LADDER:
        players = settings["players"]
        lines += [f"## {section}", "",
                  f"Fair share: {pct(1 / players)}."
                  + (" Kombio's mean totals: lower is better (KO-16)." if settings["game"] ==
                     "kombio" else ""), "",
                  "| matchup | games | win rate | 95% interval | mean score (it / the others) "
                  "| target | met? |", "|---|---|---|---|---|---|---|"]
        cmds = []
        for focus, opp, _, target in rows:
            key = title(section, focus, opp, players)
            r = data["ladder"].get(key)
            if r is None:
                lines.append(f"| {focus} vs {opp} | not run | | | | {target} | |")
                continue
            lines.append(
                f"| {focus} vs {'' if players == 2 else f'{players - 1} × '}{opp} | "
                f"{r['games']} | {pct(r['win_rate'])} | {pct(r['win_low'])}–{pct(r['win_high'])} "
                f"| {r['mean_focus']:.2f} / {r['mean_others']:.2f} | {target} | "
                f"{'yes' if target_met(r) else '**no**'} |")
            cmds.append(f"- {focus} vs {opp} ({r['minutes']:.0f} min with "
                        f"`--jobs`, {r['date']}): `{r['command']}`")
        lines += ["", "Commands:", ""] + cmds + [""]
        if data.get("notes", {}).get(section):
            lines += [data["notes"][section], ""]
    if data.get("timing"):
        t = data["timing"]
        lines += ["## Decision times", "",
                  f"Made by `{t['command']}` on {t['date']}: each level at seat 0 against "
                  f"medium, {t['games']} games per level and game (Kombio: {t['kombio_games']}), "
                  "one game at a time on one core (wall clock of `bots.act`, and its CPU time, "
                  "`time.process_time`, which a busy machine does not stretch; the load average "
                  f"of the machine was {t['load']} before the run). Searched decisions: the bot "
                  "ran a search (more than one sensible option); easy and medium never search, "
                  "so all their decisions count. Targets: expert median ≤ 1 s, p99 ≤ 3 s; hard "
                  "at most a quarter of that.", "",
                  "| game | level | searched decisions | median | p99 | max | median CPU | "
                  "p99 CPU | all decisions | median (all) | p99 (all) |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for key, per in t["rows"].items():
            for level in LEVEL_ORDER:
                x = per.get(level)
                if x is None:
                    continue
                s, a = x["searched"], x["all"]

                def ms(v):
                    return "—" if v is None else (f"{v:.0f} ms" if v >= 10 else f"{v:.1f} ms")

                lines.append(f"| {key} | {level} | {s['decisions']} | {ms(s['median_ms'])} | "
                             f"{ms(s['p99_ms'])} | {ms(s['max_ms'])} | "
                             f"{ms(s.get('cpu_median_ms'))} | {ms(s.get('cpu_p99_ms'))} | "
                             f"{a['decisions']} | "
                             f"{ms(a['median_ms'])} | {ms(a['p99_ms'])} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the deals")
    ap.add_argument("--only", default=None, help="run only rows whose title has this text "
                    "(several texts: A|B)")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--timing-only", action="store_true")
    ap.add_argument("--timing-games", type=int, default=6)
    ap.add_argument("--out", default="docs/strength.md")
    ap.add_argument("--section-note", action="append", default=[], metavar="SECTION=TEXT",
                    help="a paragraph under a section (e.g. why a row was not run); kept")
    args = ap.parse_args()
    out = Path(args.out)
    store = out.with_suffix(".json")
    data = json.loads(store.read_text()) if store.exists() else {}
    data.setdefault("ladder", {})
    for item in args.section_note:
        section, sep, text = item.partition("=")
        if not sep or section not in [x[0] for x in LADDER]:
            ap.error(f"--section-note wants SECTION=TEXT with one of: "
                     f"{', '.join(x[0] for x in LADDER)}")
        data.setdefault("notes", {})[section] = text

    def save():
        store.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        out.write_text(render(data), encoding="utf-8")

    if not args.timing_only:
        for section, settings, rows in LADDER:
            for focus, opp, deals, _ in rows:
                key = title(section, focus, opp, settings["players"])
                if args.only and not any(part.strip().lower() in key.lower()
                                         for part in args.only.split("|")):
                    continue
                n = max(1, round(deals * args.scale))
                r = play_matchup(settings, focus, opp, n, args.seed, args.jobs)
                data["ladder"][key] = r
                print(f"{key}: {r['games']} games, {pct(r['win_rate'])} "
                      f"({pct(r['win_low'])}-{pct(r['win_high'])}), mean {r['mean_focus']:.2f} "
                      f"vs {r['mean_others']:.2f}, {r['minutes']:.1f} min", flush=True)
                save()
    if not args.no_timing and (args.timing_only or not args.only):
        import os

        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        # with --only, only the timing rows "SECTION LEVEL" that match are measured again
        rows: dict[str, dict] = json.loads(json.dumps(data.get("timing", {}).get("rows", {}))) \
            if args.only else {}
        for section, settings, _ in LADDER:
            n = max(1, round(args.timing_games * (0.5 if settings["game"] == "kombio" else 1)))
            for level in LEVEL_ORDER:
                if args.only and not any(part.strip().lower() in f"{section} {level}".lower()
                                         for part in args.only.split("|")):
                    continue
                rows.setdefault(section, {})[level] = timing(settings, level, n, args.seed)
                x = rows[section][level]["searched"]
                print(f"timing {section} {level}: {x}", flush=True)
        data["timing"] = {"rows": rows, "games": args.timing_games,
                          "kombio_games": max(1, round(args.timing_games * 0.5)),
                          "load": load, "date": time.strftime("%Y-%m-%d"),
                          "command": "python bench/bench_bots.py --timing-only "
                                     f"--timing-games {args.timing_games} --seed {args.seed}"}
    save()
    print(f"wrote {out} and {store}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
