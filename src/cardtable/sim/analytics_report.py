"""The report of `cardtable analyze`: Markdown tables and PNG charts from the configuration
summaries of `sim.analytics` (see there for what each figure means).

    report.md            every table below, with the command, bots and games per configuration
    seats.png            win share per seat (seat 0 starts) per configuration, 95% intervals
    lengths.png          decisions per game (10th, 50th, 90th percentile) per configuration
    and each game's own (its analytics module's `charts`), e.g.
    abluxx.png           Abluxxen: share of turns that abluxx, games ended by an emptied hand
    jokers.png           Abluxxen: win share by jokers in the starting hand
    kombio-calls.png     Kombio: the caller's round score by the circuit of the call
"""

from __future__ import annotations

from pathlib import Path

from cardtable.core.registry import games, info
from cardtable.sim.output import pyplot


def _by_game(summaries: list[dict]) -> list[tuple[object, list[dict]]]:
    """(the game's analytics module, its summaries) per game with summaries, in the registry's
    order."""
    out = []
    for g in games():
        mine = [s for s in summaries if s["game"] == g.name]
        if mine and g.analytics:
            out.append((g.module("analytics"), mine))
    return out

def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(s: dict | None) -> str:
    if not s or s.get("n", 1) == 0:
        return "–"
    return f"{pct(s['rate'])} ({pct(s['low'])}–{pct(s['high'])})"


def num(x: float, d: int = 1) -> str:
    return f"{x:.{d}f}"


def mean_text(s: dict, d: int = 2) -> str:
    """A mean with its 95% interval; from fewer than two samples no interval, just n."""
    if s.get("n", 2) < 2:
        return "–" if not s.get("n") else f"{num(s['mean'], d)} (n=1)"
    return f"{num(s['mean'], d)} ({num(s['low'], d)}–{num(s['high'], d)})"


def legend_outside(ax, **kw) -> None:
    """The legend right of the axes, so it never covers data (the figure grows to hold it:
    save() lays figures out with the constrained layout)."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, **kw)


def integer_ticks(axis) -> None:
    """Only whole numbers on an axis of counts (jokers, circuits)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def distinct_colours(n: int) -> list:
    """n colours no two alike (tab20 holds 20; beyond that a continuous map)."""
    import matplotlib

    if n <= 20:
        cmap = matplotlib.colormaps["tab20"]
        order = list(range(0, 20, 2)) + list(range(1, 20, 2))   # strong hues first
        return [cmap(order[i]) for i in range(n)]
    return [matplotlib.colormaps["turbo"](i / (n - 1)) for i in range(n)]


def md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]


def lengths_text(s: dict) -> str:
    d = s["decisions"]
    return f"{num(d['mean'])} ({d['p10']}–{d['median']}–{d['p90']})"


def markdown(summaries: list[dict], command: str, charts: list[str], note: str = "") -> str:
    bots = sorted({b for s in summaries for b in s["bots"]})
    cpu = sum(s["cpu_seconds"] for s in summaries)
    commands = list(dict.fromkeys(c for c in [s.get("command") for s in summaries] + [command]
                                  if c))
    lines = ["# Variant analytics", "",
             "Made by " + " and ".join(f"`{c}`" for c in commands) if commands else "", "",
             f"Bots: {', '.join(bots)} in every seat; games per configuration: "
             + "; ".join(f"{g}: {n}" for g, n in _games_by_family(summaries)) + f"; CPU time "
             f"{cpu / 3600:.2f} h in all. Seat 0 starts"
             + "".join(f" ({m.START})" for m in _start_notes())
             + ". Intervals are 95% (Wilson for shares, normal for means and slopes). A bot measures its own play as much as the rules: the figures "
             "say how these rules play *with these bots*. In a configuration's name, "
             "`+option` is a rule option set on and `-option` set off (the duel's DU-4 "
             "`shadow_partial` is set explicitly both ways).", ""]
    if note:
        lines += [note, ""]
    for module, mine in _by_game(summaries):
        lines += module.report(mine)
    if charts:
        lines += ["## Charts", ""] + [f"![{c}]({c})" for c in charts] + [""]
    return "\n".join(lines)


def _start_notes() -> list:
    """The analytics modules that say how their game's start seat moves (`START`)."""
    return [m for m in (g.module("analytics") for g in games() if g.analytics)
            if getattr(m, "START", None)]


def _games_by_family(summaries: list[dict]) -> list[tuple[str, str]]:
    out: dict[str, set] = {}
    for s in summaries:
        out.setdefault(info(s["game"]).title, set()).add(s["games"])
    return [(g, " / ".join(f"{n:,}" for n in sorted(ns))) for g, ns in out.items()]


def write_charts(summaries: list[dict], out: Path) -> list[str]:
    plt = pyplot()
    names = []

    def save(fig, name):
        fig.set_layout_engine("constrained")    # labels and outside legends inside the figure
        fig.savefig(out / name, format="png")
        plt.close(fig)
        names.append(name)

    labels = [s["label"] for s in summaries]
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(labels) + 2), 4.5), dpi=100)
    for i, s in enumerate(summaries):
        for x in s["seats"]:
            y = x["rate"] * s["players"]     # 1 = a fair share
            lo, hi = x["low"] * s["players"], x["high"] * s["players"]
            ax.errorbar(i + (x["seat"] - (s["players"] - 1) / 2) * 0.12, y,
                        yerr=[[max(0.0, y - lo)], [max(0.0, hi - y)]], fmt="o", ms=3,
                        color=plt.cm.viridis(x["seat"] / 5))
    ax.axhline(1, color="grey", ls="--", lw=1)
    for k in range(max(s["players"] for s in summaries)):
        ax.plot([], [], "o", ms=4, color=plt.cm.viridis(k / 5),
                label="seat 0 (starts)" if k == 0 else f"seat {k}")
    legend_outside(ax, fontsize=7)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("win share × players (1 = fair)")
    ax.set_title("Win share per seat; seats left to right from the start seat (95%)",
                 fontsize=10)
    save(fig, "seats.png")

    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(labels) + 2), 4), dpi=100)
    for i, s in enumerate(summaries):
        d = s["decisions"]
        ax.vlines(i, d["p10"], d["p90"], color="#4c72b0", lw=3)
        ax.plot(i, d["median"], "o", color="black", ms=4)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("decisions per game")
    ax.set_title("Game length: 10th–90th percentile (bar) and median (dot)", fontsize=10)
    save(fig, "lengths.png")

    for module, mine in _by_game(summaries):
        module.charts(mine, plt, save)
    return names


def write_report(summaries: list[dict], out: Path, command: str, charts: bool = True,
                 md_name: str = "report.md", note: str = "") -> Path:
    out.mkdir(parents=True, exist_ok=True)
    names = write_charts(summaries, out) if charts else []
    path = out / md_name
    path.write_text(markdown(summaries, command, names, note), encoding="utf-8")
    return path
