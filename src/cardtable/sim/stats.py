"""Statistics of a tournament.

Definitions (all figures in summary.json and the printed tables follow them):

* **wins** — a game's win is shared: each of its k winners gets 1/k (a shared Abluxxen or
  Kombio victory is not a full win for everybody). So the win rates of all seats of a table
  add up to 1, and a bot of an n-player table that is as strong as the others wins 1/n.
* **win rate** = wins / games, with a 95 % Wilson score interval (z = 1.96; fractional wins
  are used as they are).
* **mean score** — the mean of the game's final scores (`state.scores()`); for Kombio lower is
  better (KO-16), for Abluxxen higher: `lower_is_better` in the summary says which.
* **mean diff** — the mean over games of own score minus the mean of the other seats' scores
  (raw: for Kombio a negative diff is good).
* **seat advantage** — win rate (and mean score) per seat position, whatever bot sat there
  (seat 0 starts every game).
* **decision time** — seconds spent in `bots.act()` per decision, median and 99th percentile
  (nearest rank), per bot.

Groups: per entry ("greedy#1": one entry of the bots list, wherever it sat), per bot (its name
and settings, "greedy" or "ismcts(iterations=200)": all entries of that bot together), per
seat.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Iterable

Z95 = 1.959963984540054

#: columns of games.csv, in order; TIMING_COLUMNS vary from run to run
CSV_COLUMNS = ["game", "deal", "rotation", "deal_seed", "seat", "entry", "bot", "bot_seed",
               "score", "winner", "win_share", "decisions", "time_s"]
TIMING_COLUMNS = ["time_s"]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion successes/n ((0, 1) for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return max(0.0, center - half), min(1.0, center + half)


def percentile(sorted_values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of an ascending list; None if empty."""
    if not sorted_values:
        return None
    k = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(k, len(sorted_values)) - 1]


def game_rows(result) -> list[dict[str, Any]]:
    """One row per game and seat (the rows of games.csv), in game then seat order."""
    plan = result.plan
    rows = []
    for g in result.games:
        share = 1 / len(g.winners) if g.winners else 0.0
        for seat, e in enumerate(g.entries):
            entry = plan.entries[e]
            won = seat in g.winners
            rows.append({
                "game": g.index, "deal": g.deal, "rotation": g.rotation,
                "deal_seed": g.deal_seed, "seat": seat, "entry": entry.label, "bot": entry.key,
                "bot_seed": g.bot_seeds[seat], "score": g.scores[seat], "winner": int(won),
                "win_share": share if won else 0.0, "decisions": g.decisions[seat],
                "time_s": round(sum(g.times[seat]), 6),
            })
    return rows


def _group(rows: list[dict], times: list[float] | None, diffs: list[float]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(r["win_share"] for r in rows)
    scores = [r["score"] for r in rows]
    lo, hi = wilson(wins, n)
    out: dict[str, Any] = {
        "games": n,
        "wins": wins,
        "outright_wins": sum(1 for r in rows if r["winner"] and r["win_share"] == 1.0),
        "win_rate": wins / n if n else 0.0,
        "win_low": lo,
        "win_high": hi,
        "mean_score": statistics.fmean(scores) if scores else 0.0,
        "sd_score": statistics.stdev(scores) if len(scores) > 1 else 0.0,
        "min_score": min(scores) if scores else None,
        "max_score": max(scores) if scores else None,
        "mean_diff": statistics.fmean(diffs) if diffs else 0.0,
        "decisions": sum(r["decisions"] for r in rows),
    }
    if times is not None:
        ts = sorted(times)
        med = statistics.median(ts) if ts else None
        p99 = percentile(ts, 99)
        out["time_median_ms"] = None if med is None else med * 1000
        out["time_p99_ms"] = None if p99 is None else p99 * 1000
        out["time_mean_ms"] = statistics.fmean(ts) * 1000 if ts else None
        out["time_total_s"] = sum(ts)
    return out


def stats_from_rows(rows: list[dict], players: int, lower_is_better: bool,
                    decision_times: dict[tuple[int, int], list[float]] | None = None
                    ) -> dict[str, Any]:
    """The statistics of `rows` (game_rows or games.csv read back with numbers converted).
    `decision_times` maps (game, seat) to the per-decision seconds (timings are left out
    without it)."""
    by_game: dict[int, list[dict]] = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append(r)
    diff: dict[tuple[int, int], float] = {}
    for g, rs in by_game.items():
        total = sum(r["score"] for r in rs)
        k = len(rs)
        for r in rs:
            others = (total - r["score"]) / (k - 1) if k > 1 else 0.0
            diff[(g, r["seat"])] = r["score"] - others

    def collect(key) -> dict[Any, list[dict]]:
        groups: dict[Any, list[dict]] = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        return groups

    def times_of(rs: Iterable[dict]) -> list[float] | None:
        if decision_times is None:
            return None
        out: list[float] = []
        for r in rs:
            out.extend(decision_times.get((r["game"], r["seat"]), ()))
        return out

    def build(groups: dict, name: str, with_times: bool) -> list[dict]:
        out = []
        for key, rs in groups.items():
            item = {name: key}
            if name == "entry":
                item["bot"] = rs[0]["bot"]
                item["seats"] = sorted({r["seat"] for r in rs})
            item.update(_group(rs, times_of(rs) if with_times else None,
                               [diff[(r["game"], r["seat"])] for r in rs]))
            out.append(item)
        return out

    entries = build(collect(lambda r: r["entry"]), "entry", True)
    bots = build(collect(lambda r: r["bot"]), "bot", True)
    seats = sorted(build(collect(lambda r: r["seat"]), "seat", False), key=lambda s: s["seat"])
    return {
        "games": len(by_game),
        "deals": len({r["deal"] for r in rows}),
        "players": players,
        "lower_is_better": lower_is_better,
        "fair_win_rate": 1 / players if players else 0.0,
        "win_counting": "shared: each of a game's k winners gets 1/k of a win",
        "interval": "95% Wilson score interval",
        "entries": entries,
        "bots": bots,
        "seats": seats,
    }


def compute_stats(result) -> dict[str, Any]:
    """The statistics of a TournamentResult (see the module docstring)."""
    times = {(g.index, s): t for g in result.games for s, t in enumerate(g.times)}
    stats = stats_from_rows(game_rows(result), result.plan.players,
                            result.plan.lower_is_better, times)
    order = {e.label: e.index for e in result.plan.entries}
    stats["entries"].sort(key=lambda e: order[e["entry"]])
    return stats
