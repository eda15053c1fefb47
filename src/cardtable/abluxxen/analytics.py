"""Abluxxen's part of the variant analytics (sim/analytics.py says what is measured and
how; sim/analytics_report.py writes the report): one game's figures (`play`), a configuration's
summary (`summarize`), the report's section (`report`) and charts (`charts`). Named by the
game's declaration (`GameInfo.analytics`)."""

from __future__ import annotations

import statistics
from typing import Any

from cardtable.bots.base import act
from cardtable.sim.analytics import (Config, make_bots, dist, mean_ci, seat_stats, share_ci, slope_ci,
                                     derive_seed)
from cardtable.sim.analytics_report import (ci, lengths_text, num, pct, md_table, distinct_colours,
                                            integer_ticks, legend_outside)


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
    pairs.append(("DU-6 shadow_blocks_draw on vs off", ("duel", 2, (("shadow_blocks_draw", True),)),
                  ("duel", 2, (("shadow_blocks_draw", False),))))
    rows = []
    for name, a, b in pairs:
        if a not in by or b not in by:
            continue
        sa, sb = by[a], by[b]
        rows.append([name, f"{a[1]}p",
                     f"{num(sa['decisions']['mean'])} vs {num(sb['decisions']['mean'])}",
                     f"{pct(sa['abluxx_turns']['rate'])} vs {pct(sb['abluxx_turns']['rate'])}",
                     f"{pct(sa['ended_by_hand']['rate'])} vs {pct(sb['ended_by_hand']['rate'])}",
                     f"{pct(sa['seats'][0]['rate'])} vs {pct(sb['seats'][0]['rate'])}",
                     f"{pct(sa['ties']['rate'])} vs {pct(sb['ties']['rate'])}"])
    if not rows:
        return ["(needs both configurations of a pair)", ""]
    return md_table(["option", "players", "decisions per game", "turns that abluxx",
                   "ended by an emptied hand", "start seat wins", "ties"], rows)


# -- one game ------------------------------------------------------------------------------------
def play(cfg: Config, seed: int, index: int) -> dict[str, Any]:
    """One game. Keys: w winners, s scores, d decisions, t turns (sets played), e how it ended
    ('hand' AB-7, 'supply' AB-14), a abluxxes (displays abluxxed), at turns that abluxxed,
    sh shadowluxxes (DU-4), ot/op optional draws taken/declined (AB-15), j jokers per seat in
    the starting hand."""
    state = cfg.new_state(derive_seed(seed, "analyze", cfg.label, index))
    bots = make_bots(cfg, seed, index)
    start = state.view(None)
    jokers = [h.count("X") for h in start["hands"]]
    d = t = ab = at = sh = ot = op = 0
    hit = False
    while not state.over:
        phase = state.awaiting
        decision = act(bots[state.to_move], state)
        kind = decision.kind
        if kind == "play":
            t += 1
            if hit:
                at += 1
            hit = False
        elif kind == "take" or kind == "leave":
            ab += 1
            hit = True
        elif kind == "shadow":
            sh += 1
        elif phase == "optional_draw":
            if kind == "pass":
                op += 1
            else:
                ot += 1
        state.apply(decision)
        d += 1
    if hit:
        at += 1
    end = state.view(None)
    return {"w": state.winners(), "s": state.scores(), "d": d, "t": t, "e": end["ended_by"],
            "a": ab, "at": at, "sh": sh, "ot": ot, "op": op, "j": jokers}


# -- a configuration's summary -------------------------------------------------------------------
def summarize(cfg: Config, games: list[dict]) -> dict[str, Any]:
    n = len(games)
    turns = sum(g["t"] for g in games)
    joker_rows: dict[int, list[tuple[float, int]]] = {}
    xs, ys = [], []
    for g in games:
        for s, j in enumerate(g["j"]):
            win = 1 / len(g["w"]) if s in g["w"] else 0.0
            joker_rows.setdefault(j, []).append((win, g["s"][s]))
            xs.append(j)
            ys.append(g["s"][s])
    jokers = []
    for j in sorted(joker_rows):
        rows = joker_rows[j]
        jokers.append({"jokers": j, **share_ci(sum(w for w, _ in rows), len(rows)),
                       "mean_score": statistics.fmean(sc for _, sc in rows)})
    optional = sum(g["ot"] + g["op"] for g in games)
    return {
        "turns": dist([g["t"] for g in games]),
        "ended_by_hand": share_ci(sum(g["e"] == "hand" for g in games), n),
        "ties": share_ci(sum(len(g["w"]) > 1 for g in games), n),
        "abluxx_turns": share_ci(sum(g["at"] for g in games), turns),
        "abluxxes_per_turn": sum(g["a"] for g in games) / turns if turns else 0.0,
        "shadow_per_turn": sum(g["sh"] for g in games) / turns if turns else 0.0,
        "optional_taken": share_ci(sum(g["ot"] for g in games), optional) if optional else None,
        "jokers": jokers,
        "joker_slope": slope_ci(xs, ys),
    }


# -- the report ----------------------------------------------------------------------------------
def report(ab: list[dict]) -> list[str]:
    """The report's section of this game (Markdown lines) from its configurations' summaries."""
    lines: list[str] = []
    lines += ["## Abluxxen", "", "### Start seat, length and endings", ""]
    rows = []
    for s in ab:
        seats = " / ".join(pct(x["rate"]) for x in s["seats"])
        first = s["seats"][0]
        rows.append([s["label"], f"{s['games']:,}", seats,
                     f"{pct(first['low'])}–{pct(first['high'])}",
                     lengths_text(s), num(s["turns"]["mean"]), ci(s["ended_by_hand"]),
                     ci(s["ties"])])
    lines += md_table(["configuration", "games", "win share per seat (0 starts)",
                     "seat 0: 95%", "decisions (p10–median–p90)", "turns",
                     "ended by an emptied hand (AB-7)", "shared win (a tie after the tie-break)"], rows)
    lines += ["Games that do not end by an emptied hand end when deck and pool are used up "
              "(AB-14). Fair share: 1/players.", "", "### Abluxxes", ""]
    rows = []
    for s in ab:
        rows.append([s["label"], ci(s["abluxx_turns"]), num(s["abluxxes_per_turn"], 3),
                     num(s["shadow_per_turn"], 3) if s["variant"] == "duel" else "–",
                     ci(s["optional_taken"])])
    lines += md_table(["configuration", "turns that abluxx", "abluxxes per turn",
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
        cells = [f"{pct(by[j]['rate'])}" if j in by and by[j]["n"] >= 100 else "–"
                 for j in range(4)]
        sl = s["joker_slope"]
        rows.append([s["label"], *cells,
                     f"{sl['slope']:+.2f} ({sl['low']:+.2f}…{sl['high']:+.2f})" if sl
                     else "–"])
    lines += md_table(["configuration", "0 jokers", "1", "2", "3",
                     "points per joker"], rows)
    return lines


def charts(ab: list[dict], plt, save) -> None:
    """This game's charts: `save(fig, name)` writes each."""
    if ab:
        fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(ab) + 2), 4), dpi=100)
        xs = range(len(ab))
        ax.bar([x - 0.2 for x in xs], [s["abluxx_turns"]["rate"] for s in ab], 0.4,
               label="turns that abluxx")
        ax.bar([x + 0.2 for x in xs], [s["ended_by_hand"]["rate"] for s in ab], 0.4,
               label="games ended by an emptied hand (AB-7)")
        ax.set_xticks(list(xs), [s["label"] for s in ab], rotation=60, ha="right", fontsize=7)
        ax.set_ylim(0, 1)
        legend_outside(ax, fontsize=8)
        ax.set_title("Abluxxes and endings", fontsize=10)
        save(fig, "abluxx.png")

    jok = [s for s in ab if s["variant"] != "duel"]
    if jok:
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
        styles = ["-", "--", ":", "-."]          # by player count, colours all distinct
        for s, colour in zip(jok, distinct_colours(len(jok))):
            pts = [(j["jokers"], j["rate"] * s["players"]) for j in s["jokers"] if j["n"] >= 200]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, color=colour,
                    ls=styles[s["players"] % len(styles)], label=s["label"])
        integer_ticks(ax.xaxis)
        ax.axhline(1, color="grey", ls="--", lw=1)
        ax.set_xlabel("jokers in the starting hand")
        ax.set_ylabel("win share × players (1 = fair)")
        ax.set_title("The value of a joker", fontsize=10)
        legend_outside(ax, fontsize=7)
        save(fig, "jokers.png")
