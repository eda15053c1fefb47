"""The report of `cardtable analyze`: Markdown tables and PNG charts from the configuration
summaries of `sim.analytics` (see there for what each figure means).

    report.md            every table below, with the command, bots and games per configuration
    seats.png            win share per seat (seat 0 starts) per configuration, 95% intervals
    lengths.png          decisions per game (10th, 50th, 90th percentile) per configuration
    abluxx.png           Abluxxen: share of turns that abluxx, games ended by an emptied hand
    jokers.png           Abluxxen: win share by jokers in the starting hand
    kombio-calls.png     Kombio: the caller's round score by the circuit of the call
"""

from __future__ import annotations

from pathlib import Path

from cardtable.sim.output import _pyplot

OPTION_CLAUSES = {"optional_draw": "AB-15", "ones_beat_top": "AB-20",
                  "shadow_partial": "DU-4"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(s: dict | None) -> str:
    if not s:
        return "–"
    return f"{_pct(s['rate'])} ({_pct(s['low'])}–{_pct(s['high'])})"


def _num(x: float, d: int = 1) -> str:
    return f"{x:.{d}f}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]


def _lengths(s: dict) -> str:
    d = s["decisions"]
    return f"{_num(d['mean'])} ({d['p10']}–{d['median']}–{d['p90']})"


def markdown(summaries: list[dict], command: str, charts: list[str], note: str = "") -> str:
    ab = [s for s in summaries if s["game"] == "abluxxen"]
    ko = [s for s in summaries if s["game"] == "kombio"]
    bots = sorted({b for s in summaries for b in s["bots"]})
    cpu = sum(s["cpu_seconds"] for s in summaries)
    commands = list(dict.fromkeys(c for c in [s.get("command") for s in summaries] + [command]
                                  if c))
    lines = ["# Variant analytics", "",
             "Made by " + " and ".join(f"`{c}`" for c in commands) if commands else "", "",
             f"Bots: {', '.join(bots)} in every seat; games per configuration: "
             + "; ".join(f"{g}: {n}" for g, n in _games_by_family(summaries)) + f"; CPU time "
             f"{cpu / 3600:.2f} h in all. Seat 0 starts (Kombio: the first round; the start "
             "then moves clockwise, KO-4). Intervals are 95% (Wilson for shares, normal for "
             "means and slopes). A bot measures its own play as much as the rules: the figures "
             "say how these rules play *with these bots*. In a configuration's name, "
             "`+option` is a rule option set on and `-option` set off (the duel's DU-4 "
             "`shadow_partial` is set explicitly both ways).", ""]
    if note:
        lines += [note, ""]
    if ab:
        lines += ["## Abluxxen", "", "### Start seat, length and endings", ""]
        rows = []
        for s in ab:
            seats = " / ".join(_pct(x["rate"]) for x in s["seats"])
            first = s["seats"][0]
            rows.append([s["label"], f"{s['games']:,}", seats,
                         f"{_pct(first['low'])}–{_pct(first['high'])}",
                         _lengths(s), _num(s["turns"]["mean"]), _ci(s["ended_by_hand"]),
                         _ci(s["ties"])])
        lines += _table(["configuration", "games", "win share per seat (0 starts)",
                         "seat 0: 95%", "decisions (p10–median–p90)", "turns",
                         "ended by an emptied hand (AB-7)", "shared win (a tie after the tie-break)"], rows)
        lines += ["Games that do not end by an emptied hand end when deck and pool are used up "
                  "(AB-14). Fair share: 1/players.", "", "### Abluxxes", ""]
        rows = []
        for s in ab:
            rows.append([s["label"], _ci(s["abluxx_turns"]), _num(s["abluxxes_per_turn"], 3),
                         _num(s["shadow_per_turn"], 3) if s["variant"] == "duel" else "–",
                         _ci(s["optional_taken"])])
        lines += _table(["configuration", "turns that abluxx", "abluxxes per turn",
                         "shadowluxxes per turn (DU-4)",
                         "optional draws taken (AB-15)"], rows)
        lines += ["Intervals of shares of turns (and of draws) treat the turns as independent; "
                  "turns of one game are not, so these intervals are narrower than the truth. "
                  "Those of the games (seats, endings) are exact.", ""]
        lines += ["### What each rule option changes", ""] + _option_rows(ab)
        lines += ["### The value of a joker", "",
                  "Win share and final score of a seat by the number of jokers in its starting "
                  "hand; the slope is the least-squares change of the final score per joker. "
                  "(The duel deals every hand 2 jokers, DU-1, so it has no spread to measure.)",
                  ""]
        rows = []
        for s in ab:
            if s["variant"] == "duel":
                continue
            by = {j["jokers"]: j for j in s["jokers"]}
            cells = [f"{_pct(by[j]['rate'])}" if j in by and by[j]["n"] >= 100 else "–"
                     for j in range(4)]
            sl = s["joker_slope"]
            rows.append([s["label"], *cells,
                         f"{sl['slope']:+.2f} ({sl['low']:+.2f}…{sl['high']:+.2f})" if sl
                         else "–"])
        lines += _table(["configuration", "0 jokers", "1", "2", "3",
                         "points per joker"], rows)
    if ko:
        lines += ["## Kombio", "", "### Start seat, rounds and how rounds end", ""]
        rows = []
        for s in ko:
            seats = " / ".join(_pct(x["rate"]) for x in s["seats"])
            t = s["turns_per_round"]
            rows.append([s["label"], f"{s['games']:,}", seats, _lengths(s),
                         _num(s["rounds_per_game"]["mean"]),
                         f"{_num(t['mean'])} ({t['p10']}–{t['median']}–{t['p90']})",
                         _ci(s["called"]), _ci(s["emptied"]), _ci(s["call_success"])])
        lines += _table(["configuration", "games", "win share per seat (0 starts round 1)",
                         "decisions (p10–median–p90)", "rounds", "turns per round",
                         "rounds ended by a call (KO-12)", "a grid emptied (KO-13)",
                         "calls that succeed (KO-15)"], rows)
        lines += ["Shares of rounds and calls count the rounds as independent (the rounds of "
                  "one game are not quite), so their intervals are a little narrow.", "",
                  "### Scores by when Kombio was called", "",
                  "The caller's round score (sum, +15 when not strictly lowest, KO-15) and the "
                  "share of successful calls by the circuit of the round in which the call came "
                  "(circuit 1 = the first turn of every player).", ""]
        rows = []
        for s in ko:
            for c in s["calls"]:
                sc = c["caller_score"]
                rows.append([s["label"], f"{c['circuit']}{'+' if c['last'] else ''}",
                             _pct(c["share_of_calls"]),
                             f"{_num(sc['mean'], 2)} ({_num(sc['low'], 2)}–{_num(sc['high'], 2)})",
                             _ci(c["success"])])
        lines += _table(["configuration", "circuit", "share of calls", "caller's round score",
                         "success"], rows)
        lines += ["### Snaps", ""]
        rows = [[s["label"], _num(s["claims_per_round"], 2), _num(s["snaps_right_per_round"], 2),
                 _num(s["snaps_wrong_per_round"], 2), _ci(s["snaps_right"])] for s in ko]
        lines += _table(["configuration", "snap claims per round", "right snaps per round",
                         "wrong snaps per round", "right share of carried-out snaps (KO-8)"],
                        rows)
    if charts:
        lines += ["## Charts", ""] + [f"![{c}]({c})" for c in charts] + [""]
    return "\n".join(lines)


def _games_by_family(summaries: list[dict]) -> list[tuple[str, str]]:
    out: dict[str, set] = {}
    for s in summaries:
        out.setdefault(s["game"].capitalize(), set()).add(s["games"])
    return [(g, " / ".join(f"{n:,}" for n in sorted(ns))) for g, ns in out.items()]


def _option_rows(ab: list[dict]) -> list[str]:
    """Pairs of configurations that differ in one rule option, same player count."""
    by = {(s["variant"], s["players"], tuple(sorted(s["options"].items()))): s for s in ab}
    pairs = []
    for n in (3, 4, 5):
        pairs.append(("AB-15 optional draw (basic) vs none (advanced)", ("basic", n, ()),
                      ("advanced", n, ())))
        pairs.append(("AB-20 1s beat 13s and jokers (expert) vs not (advanced)",
                      ("expert", n, ()), ("advanced", n, ())))
    pairs.append(("DU-4 shadow_partial on vs off", ("duel", 2, (("shadow_partial", True),)),
                  ("duel", 2, (("shadow_partial", False),))))
    rows = []
    for name, a, b in pairs:
        if a not in by or b not in by:
            continue
        sa, sb = by[a], by[b]
        rows.append([name, f"{a[1]}p",
                     f"{_num(sa['decisions']['mean'])} vs {_num(sb['decisions']['mean'])}",
                     f"{_pct(sa['abluxx_turns']['rate'])} vs {_pct(sb['abluxx_turns']['rate'])}",
                     f"{_pct(sa['ended_by_hand']['rate'])} vs {_pct(sb['ended_by_hand']['rate'])}",
                     f"{_pct(sa['seats'][0]['rate'])} vs {_pct(sb['seats'][0]['rate'])}",
                     f"{_pct(sa['ties']['rate'])} vs {_pct(sb['ties']['rate'])}"])
    if not rows:
        return ["(needs both configurations of a pair)", ""]
    return _table(["option", "players", "decisions per game", "turns that abluxx",
                   "ended by an emptied hand", "start seat wins", "ties"], rows)


def write_charts(summaries: list[dict], out: Path) -> list[str]:
    plt = _pyplot()
    names = []

    def save(fig, name):
        fig.tight_layout()
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
                        yerr=[[y - lo], [hi - y]], fmt="o", ms=3,
                        color=plt.cm.viridis(x["seat"] / 5))
    ax.axhline(1, color="grey", ls="--", lw=1)
    for k in range(max(s["players"] for s in summaries)):
        ax.plot([], [], "o", ms=4, color=plt.cm.viridis(k / 5),
                label="seat 0 (starts)" if k == 0 else f"seat {k}")
    ax.legend(fontsize=7, ncol=6, loc="upper left")
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
    ax.set_ylabel("decisions per game (10th–90th percentile, median)")
    ax.set_title("Game length", fontsize=10)
    save(fig, "lengths.png")

    ab = [s for s in summaries if s["game"] == "abluxxen"]
    if ab:
        fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(ab) + 2), 4), dpi=100)
        xs = range(len(ab))
        ax.bar([x - 0.2 for x in xs], [s["abluxx_turns"]["rate"] for s in ab], 0.4,
               label="turns that abluxx")
        ax.bar([x + 0.2 for x in xs], [s["ended_by_hand"]["rate"] for s in ab], 0.4,
               label="games ended by an emptied hand (AB-7)")
        ax.set_xticks(list(xs), [s["label"] for s in ab], rotation=60, ha="right", fontsize=7)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
        ax.set_title("Abluxxes and endings", fontsize=10)
        save(fig, "abluxx.png")

    jok = [s for s in ab if s["variant"] != "duel"]
    if jok:
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
        for s in jok:
            pts = [(j["jokers"], j["rate"] * s["players"]) for j in s["jokers"] if j["n"] >= 200]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", ms=3, label=s["label"])
        ax.axhline(1, color="grey", ls="--", lw=1)
        ax.set_xlabel("jokers in the starting hand")
        ax.set_ylabel("win share × players (1 = fair)")
        ax.set_title("The value of a joker", fontsize=10)
        ax.legend(fontsize=6, ncol=2)
        save(fig, "jokers.png")

    ko = [s for s in summaries if s["game"] == "kombio"]
    if ko:
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
        for s in ko:
            cs = [c for c in s["calls"] if c["rounds"] >= 100]
            ax.plot([c["circuit"] for c in cs], [c["caller_score"]["mean"] for c in cs], "o-",
                    ms=3, label=s["label"])
        ax.set_xlabel("circuit of the round in which Kombio was called (6 = 6 or later)")
        ax.set_ylabel("caller's round score (lower is better)")
        ax.set_title("Kombio: when to call", fontsize=10)
        ax.legend(fontsize=8)
        save(fig, "kombio-calls.png")
    return names


def write_report(summaries: list[dict], out: Path, command: str, charts: bool = True,
                 md_name: str = "report.md", note: str = "") -> Path:
    out.mkdir(parents=True, exist_ok=True)
    names = write_charts(summaries, out) if charts else []
    path = out / md_name
    path.write_text(markdown(summaries, command, names, note), encoding="utf-8")
    return path
