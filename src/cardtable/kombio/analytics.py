"""Kombio's part of the variant analytics (sim/analytics.py says what is measured and
how; sim/analytics_report.py writes the report): one game's figures (`play`), a configuration's
summary (`summarize`), the report's section (`report`) and charts (`charts`). Named by the
game's declaration (`GameInfo.analytics`)."""

from __future__ import annotations

import statistics
from typing import Any

from cardtable.bots.base import act
from cardtable.sim.analytics import (Config, make_bots, dist, mean_ci, seat_stats, share_ci, slope_ci,
                                     derive_seed)
from cardtable.sim.analytics_report import (ci, lengths_text, mean_text, num, pct, md_table,
                                            integer_ticks)

#: how the start seat moves, said in the report's opening paragraph
START = "Kombio: the first round; the start then moves clockwise, KO-4"


# -- one game ------------------------------------------------------------------------------------
def play(cfg: Config, seed: int, index: int) -> dict[str, Any]:
    """One game. Keys: w winners, s totals, d decisions, sr/sw snaps right/wrong (the winning
    claim of a window, KO-8), sc claims (every `snap`), r rounds: per round [turns, caller or
    -1, turn of the call (0-based) or -1, the caller's round score or 0, success 1/0 (the
    caller's sum strictly lowest, KO-15), 1 if a grid was emptied (KO-13)]."""
    state = cfg.new_state(derive_seed(seed, "analyze", cfg.label, index))
    bots = make_bots(cfg, seed, index)
    n = cfg.players
    d = sr = sw = sc = 0
    rounds: list[list[int]] = []
    turns = 0
    call_turn = -1
    round_no = 1
    claims = 0

    def close_round(view) -> None:
        last = view["last_round"]
        caller = last["caller"]
        sums = last["sums"]
        emptied = int(any(all(c is None for c in g) for g in last["grids"]))
        if caller is None:
            rounds.append([turns, -1, -1, 0, 0, emptied])
        else:
            ok = int(all(sums[caller] < sums[s] for s in range(n) if s != caller))
            rounds.append([turns, caller, call_turn, last["scores"][caller], ok, emptied])

    while not state.over:
        phase = state.awaiting
        if phase == "turn":
            view = state.view(None)
            if view["round"] != round_no:
                close_round(view)
                round_no, turns, call_turn = view["round"], 0, -1
        decision = act(bots[state.to_move], state)
        kind = decision.kind
        if phase == "turn":
            if kind == "kombio":
                call_turn = turns
            turns += 1
        elif kind == "snap":
            claims += 1
            sc += 1
        state.apply(decision)
        d += 1
        if phase == "snap" and state.awaiting != "snap" and claims:
            snap = state.view(None)["snap"]
            if snap is not None and snap["right"]:
                sr += 1
            else:
                sw += 1
            claims = 0
    close_round(state.view(None))
    return {"w": state.winners(), "s": state.scores(), "d": d, "sr": sr, "sw": sw, "sc": sc,
            "r": rounds}


# -- a configuration's summary -------------------------------------------------------------------
def summarize(cfg: Config, games: list[dict]) -> dict[str, Any]:
    rounds = [r for g in games for r in g["r"]]
    called = [r for r in rounds if r[1] >= 0]
    n = cfg.players
    by_circuit: dict[int, list[list[int]]] = {}
    for r in called:
        by_circuit.setdefault(min(r[2] // n, 5), []).append(r)
    calls = []
    for c in sorted(by_circuit):
        rs = by_circuit[c]
        calls.append({"circuit": c + 1, "last": c == 5, "rounds": len(rs),
                      "share_of_calls": len(rs) / len(called),
                      "caller_score": mean_ci([r[3] for r in rs]),
                      "success": share_ci(sum(r[4] for r in rs), len(rs))})
    windows = sum(g["sr"] + g["sw"] for g in games)
    return {
        "rounds_per_game": dist([len(g["r"]) for g in games]),
        "turns_per_round": dist([r[0] for r in rounds]),
        "rounds": len(rounds),
        "called": share_ci(len(called), len(rounds)),
        "emptied": share_ci(sum(r[5] for r in rounds), len(rounds)),
        "call_success": share_ci(sum(r[4] for r in called), len(called)),
        "calls": calls,
        "snaps_right": share_ci(sum(g["sr"] for g in games), windows) if windows else None,
        "snaps_right_per_round": sum(g["sr"] for g in games) / len(rounds),
        "snaps_wrong_per_round": sum(g["sw"] for g in games) / len(rounds),
        "claims_per_round": sum(g["sc"] for g in games) / len(rounds),
    }



# -- the report ----------------------------------------------------------------------------------
def report(ko: list[dict]) -> list[str]:
    """The report's section of this game (Markdown lines) from its configurations' summaries."""
    lines: list[str] = []
    lines += ["## Kombio", "", "### Start seat, rounds and how rounds end", ""]
    rows = []
    for s in ko:
        seats = " / ".join(pct(x["rate"]) for x in s["seats"])
        t = s["turns_per_round"]
        rows.append([s["label"], f"{s['games']:,}", seats, lengths_text(s),
                     num(s["rounds_per_game"]["mean"]),
                     f"{num(t['mean'])} ({t['p10']}–{t['median']}–{t['p90']})",
                     ci(s["called"]), ci(s["emptied"]), ci(s["call_success"])])
    lines += md_table(["configuration", "games", "win share per seat (0 starts round 1)",
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
                         pct(c["share_of_calls"]),
                         mean_text(sc),
                         ci(c["success"])])
    lines += md_table(["configuration", "circuit", "share of calls", "caller's round score",
                     "success"], rows)
    lines += ["### Snaps", ""]
    rows = [[s["label"], num(s["claims_per_round"], 2), num(s["snaps_right_per_round"], 2),
             num(s["snaps_wrong_per_round"], 2), ci(s["snaps_right"])] for s in ko]
    lines += md_table(["configuration", "snap claims per round", "right snaps per round",
                     "wrong snaps per round", "right share of carried-out snaps (KO-8)"],
                    rows)
    return lines


def charts(ko: list[dict], plt, save) -> None:
    """This game's charts: `save(fig, name)` writes each."""
    if ko:
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
        for s in ko:
            cs = [c for c in s["calls"] if c["rounds"] >= 100]
            ax.plot([c["circuit"] for c in cs], [c["caller_score"]["mean"] for c in cs], "o-",
                    ms=3, label=s["label"])
        ax.set_xlabel("circuit of the round in which Kombio was called (6 = 6 or later)")
        ax.set_ylabel("caller's round score (lower is better)")
        integer_ticks(ax.xaxis)
        ax.set_title("Kombio: when to call", fontsize=10)
        ax.legend(fontsize=8, loc="best")
        save(fig, "kombio-calls.png")
