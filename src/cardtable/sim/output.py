"""Files and tables of a tournament: games.csv, records/, charts, summary.json, rich tables.

    out/games.csv          one row per game and seat (stats.CSV_COLUMNS)
    out/records/game-NNNNNN.json   every game's record (NOTATION.md), with --records
    out/winrates.png       win rate per entry with its 95 % interval (dashed: the fair 1/n)
    out/scores.png         score distribution per entry (box plots)
    out/seats.png          win rate per seat position (seat advantage)
    out/summary.json       configuration, statistics (stats.py) and the ratings ladder
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.table import Table

from cardtable.core.errors import ConfigError
from cardtable.sim.stats import CSV_COLUMNS, game_rows


def _mkdir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create the output folder {str(path)!r}: {e.strerror}") from None
    return path


def write_csv(result, out: Path) -> Path:
    path = _mkdir(out) / "games.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for row in game_rows(result):
            w.writerow({**row, "win_share": f"{row['win_share']:.6g}"})
    return path


def read_csv(path: str | Path) -> list[dict[str, Any]]:
    """games.csv back as rows with numbers converted (the input of stats.stats_from_rows)."""
    ints = {"game", "deal", "rotation", "deal_seed", "seat", "bot_seed", "score", "winner",
            "decisions"}
    floats = {"win_share", "time_s"}
    rows = []
    with Path(path).open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append({k: int(v) if k in ints else float(v) if k in floats else v
                         for k, v in r.items()})
    return rows


def write_records(result, out: Path) -> list[Path]:
    folder = _mkdir(out / "records")
    for old in folder.glob("game-*.json"):      # records of an earlier run would mislead
        old.unlink()
    paths = []
    for g in result.games:
        if g.record is None:
            continue
        p = folder / f"game-{g.index:06d}.json"
        p.write_text(json.dumps(g.record, indent=1) + "\n", encoding="utf-8")
        paths.append(p)
    return paths


def write_summary(result, stats: dict, out: Path, ladder: list[dict] | None = None) -> Path:
    cfg, plan = result.config, result.plan
    summary = {
        "game": plan.game,
        "ladder": plan.ladder,
        "options": dict(plan.options),
        "bots": [{"entry": e.label, "bot": e.key, "name": e.name, "params": dict(e.params)}
                 for e in plan.entries],
        "seed": plan.seed,
        "deals": plan.deals,
        "duplicate": plan.duplicate,
        "rotations": plan.rotations,
        "total_games": plan.total,
        "jobs": cfg.jobs,
        "backend": result.backend,
        "elapsed_s": result.elapsed,
        "stats": stats,
    }
    if ladder is not None:
        summary["ratings"] = ladder
    path = _mkdir(out) / "summary.json"
    path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return path


# -- charts -------------------------------------------------------------------------------------
def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ConfigError("charts need matplotlib: pip install matplotlib "
                          "(or give --no-charts)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_charts(result, stats: dict, out: Path) -> list[Path]:
    plt = pyplot()
    out = _mkdir(out)
    paths = []
    title = f"{result.plan.ladder}, {stats['players']} players, {stats['games']} games"
    fair = stats["fair_win_rate"]

    def bars(items, label_key, fname, heading):
        labels = [str(i[label_key]) for i in items]
        rates = [i["win_rate"] for i in items]
        err = [[max(0.0, r - i["win_low"]) for r, i in zip(rates, items)],
               [max(0.0, i["win_high"] - r) for r, i in zip(rates, items)]]
        fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(items) + 2), 4), dpi=100)
        ax.bar(labels, rates, yerr=err, capsize=6, color="#4c72b0")
        ax.axhline(fair, linestyle="--", color="grey", linewidth=1, label=f"fair 1/{stats['players']}")
        ax.set_ylim(0, min(1.12, max([i["win_high"] for i in items] + [fair]) * 1.15 + 0.04))
        ax.set_ylabel("win rate (95% Wilson interval)")
        ax.set_title(f"{heading}\n{title}", fontsize=10)
        ax.legend(loc="upper right", fontsize=8)
        for x, (r, i) in enumerate(zip(rates, items)):
            ax.text(x, i["win_high"] + 0.01, f"{r:.1%}", ha="center", va="bottom", fontsize=8)
        fig.tight_layout()
        p = out / fname
        fig.savefig(p, format="png")
        plt.close(fig)
        paths.append(p)

    bars(stats["entries"], "entry", "winrates.png", "Win rate per bot")
    bars([{**s, "seat": f"seat {s['seat']}"} for s in stats["seats"]], "seat", "seats.png",
         "Win rate per seat (seat 0 starts)")

    scores: dict[str, list[int]] = {e["entry"]: [] for e in stats["entries"]}
    for g in result.games:
        for seat, e in enumerate(g.entries):
            scores[result.plan.entries[e].label].append(g.scores[seat])
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(scores) + 2), 4), dpi=100)
    ax.boxplot(list(scores.values()), showmeans=True)
    ax.set_xticks(range(1, len(scores) + 1), list(scores))
    direction = "lower is better" if stats["lower_is_better"] else "higher is better"
    ax.set_ylabel(f"final score ({direction})")
    ax.set_title(f"Score distribution per bot\n{title}", fontsize=10)
    fig.tight_layout()
    p = out / "scores.png"
    fig.savefig(p, format="png")
    plt.close(fig)
    paths.append(p)
    return paths


# -- tables -------------------------------------------------------------------------------------
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(lo: float, hi: float) -> str:
    return f"{100 * lo:.1f}–{100 * hi:.1f}%"


def num(x: float | None, digits: int = 2, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def stats_tables(stats: dict, title: str = "") -> list[Table]:
    """Rich tables: per entry, per bot (when a bot has several entries), per seat."""
    better = "lower" if stats["lower_is_better"] else "higher"
    tables = []

    def bot_table(items, key, heading):
        t = Table(title=heading, title_justify="left")
        t.add_column(key.capitalize(), no_wrap=True)
        if key == "entry":
            t.add_column("Bot", no_wrap=True)
        for col in ("Games", "Wins", "Win rate", "95% CI", "Mean score", "Diff to table",
                    "Median ms", "p99 ms"):
            t.add_column(col, justify="right", no_wrap=True)
        for i in items:
            row = [str(i[key])]
            if key == "entry":
                row.append(i["bot"])
            row += [str(i["games"]), num(i["wins"], 2), pct(i["win_rate"]),
                    interval(i["win_low"], i["win_high"]), num(i["mean_score"]),
                    num(i["mean_diff"], signed=True), _ms(i.get("time_median_ms")),
                    _ms(i.get("time_p99_ms"))]
            t.add_row(*row)
        return t

    tables.append(bot_table(stats["entries"], "entry",
                            f"{title} — {stats['games']} games, scores: {better} is better"
                            if title else f"{stats['games']} games, scores: {better} is better"))
    if len(stats["bots"]) < len(stats["entries"]):
        tables.append(bot_table(stats["bots"], "bot", "Per bot (all its seats)"))
    t = Table(title="Seat advantage (any bot; seat 0 starts)", title_justify="left")
    for col in ("Seat", "Games", "Wins", "Win rate", "95% CI", "Mean score"):
        t.add_column(col, justify="right", no_wrap=True)
    for s in stats["seats"]:
        t.add_row(str(s["seat"]), str(s["games"]), num(s["wins"], 2), pct(s["win_rate"]),
                  interval(s["win_low"], s["win_high"]), num(s["mean_score"]))
    tables.append(t)
    return tables


def ladder_table(rows: list[dict], ladder: str) -> Table:
    t = Table(title=f"Ratings: {ladder}", title_justify="left",
              caption="OpenSkill Plackett-Luce; ordinal = mu - 3 sigma", caption_justify="left")
    for col, just in (("#", "right"), ("Bot", "left"), ("Ordinal", "right"), ("Mu", "right"),
                      ("Sigma", "right"), ("Games", "right")):
        t.add_column(col, justify=just, no_wrap=True)
    for i, r in enumerate(rows, 1):
        t.add_row(str(i), r["bot"], num(r["ordinal"]), num(r["mu"]), num(r["sigma"]),
                  str(r["games"]))
    return t


def fit(table: Table, width: int) -> list[Table]:
    """`table` as one or more tables no wider than `width` columns of a terminal: where it is
    wider, its columns are split into several tables, each repeating the first column (the
    row's name), so no figure is ever cut to "…". A column too wide on its own still gets a
    table of its own (rich may then wrap it)."""
    cols = table.columns
    cells = [[str(c) for c in col._cells] for col in cols]

    def col_width(i: int) -> int:                # content plus padding and one border
        return max([cell_len(str(cols[i].header))] + [cell_len(c) for c in cells[i]]) + 3

    if sum(col_width(i) for i in range(len(cols))) + 1 <= width or len(cols) < 3:
        return [table]
    groups: list[list[int]] = []
    key = col_width(0)
    current: list[int] = []
    used = 1 + key
    for i in range(1, len(cols)):
        if current and used + col_width(i) > width:
            groups.append(current)
            current, used = [], 1 + key
        current.append(i)
        used += col_width(i)
    groups.append(current)
    out = []
    for n, group in enumerate(groups):
        part = Table(title=(f"{table.title} ({n + 1}/{len(groups)})" if table.title else None),
                     title_justify=table.title_justify,
                     caption=table.caption if n == len(groups) - 1 else None,
                     caption_justify=table.caption_justify)
        for i in (0, *group):
            part.add_column(cols[i].header, justify=cols[i].justify, no_wrap=True)
        for r in range(table.row_count):
            part.add_row(*(cells[i][r] for i in (0, *group)))
        out.append(part)
    return out

