"""`cardtable analyze` (issue 16): figures checked by hand against the games, the same result
with worker processes, resuming, the report and its charts, and bad arguments (exit 2)."""

from __future__ import annotations

import json

import pytest

from cardtable.core.registry import info
from cardtable.cli.main import main
from cardtable.sim import analytics as an
from cardtable.sim.analytics_report import markdown

PNG = b"\x89PNG\r\n\x1a\n"


def test_abluxxen_figures_match_the_games():
    cfg = an.default_configs("abluxxen", ["random"], ["basic"], [3])[0]
    games, cpu = an.run_config(cfg, 30, seed=2)
    s = an.summarize(cfg, games, cpu)
    assert s["games"] == 30 and len(s["seats"]) == 3
    assert abs(sum(x["rate"] for x in s["seats"]) - 1) < 1e-9          # shares of a win
    assert s["ended_by_hand"]["rate"] == sum(g["e"] == "hand" for g in games) / 30  # AB-7
    turns = sum(g["t"] for g in games)
    assert s["abluxx_turns"]["rate"] == sum(g["at"] for g in games) / turns
    assert sum(j["n"] for j in s["jokers"]) == 90
    # replaying a game from its seeds gives the same figures
    assert info(cfg.game).module("analytics").play(cfg, 2, 7) == games[7]


def test_kombio_rounds_and_snaps():
    cfg = an.default_configs("kombio", ["greedy"], None, [2])[0]
    games, cpu = an.run_config(cfg, 4, seed=1)
    s = an.summarize(cfg, games, cpu)
    rounds = [r for g in games for r in g["r"]]
    assert s["rounds"] == len(rounds) > 4
    assert s["called"]["rate"] == sum(r[1] >= 0 for r in rounds) / len(rounds)   # KO-12
    for r in rounds:
        if r[1] >= 0:
            assert 0 <= r[2] < r[0]             # the call came in one of the round's turns
    assert sum(c["rounds"] for c in s["calls"]) == sum(r[1] >= 0 for r in rounds)


def test_processes_give_the_same_games():
    cfg = an.default_configs("abluxxen", ["random"], ["duel"], None)[1]
    serial, _ = an.run_config(cfg, 24, seed=5, chunk=5)
    parallel, _ = an.run_config(cfg, 24, seed=5, jobs=2, chunk=5)
    assert serial == parallel
    assert cfg.options == (("shadow_partial", True),)                      # DU-4, explicit


def test_command_writes_report_resumes_and_publishes(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["analyze", "--game", "abluxxen", "--variant", "duel,classic", "--players", "2",
            "--games", "6", "--jobs", "1", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    saved = sorted(p.name for p in (out / "configs").glob("*.json"))
    assert len(saved) == 5            # the duel: DU-4's and DU-6's options off and on; classic
    assert (out / "seats.png").read_bytes()[:8] == PNG
    first = json.loads((out / "configs" / saved[0]).read_text())
    assert main(args + ["--resume"]) == 0                                  # nothing replayed
    assert json.loads((out / "configs" / saved[0]).read_text()) == first
    report = tmp_path / "docs" / "analytics.md"
    assert main(["analyze", "--report-only", "--game", "abluxxen", "--out", str(out),
                 "--report", str(report)]) == 0
    text = report.read_text()
    assert "abluxxen/classic/2p" in text and "DU-4 shadow_partial on vs off" in text
    assert "DU-6 shadow_blocks_draw on vs off" in text
    assert (tmp_path / "docs" / "analytics" / "lengths.png").exists()


@pytest.mark.parametrize("args", [["--games", "0"], ["--bots", "nobot"], ["--game", "uno"],
                                  ["--variant", "nope"], ["--players", "x"],
                                  ["--game", "kombio", "--variant", "basic"],
                                  ["--bots", "greedy,greedy"], ["--jobs", "0"]])
def test_bad_arguments_exit_2(args, tmp_path, capsys):
    assert main(["analyze", "--out", str(tmp_path), "--games", "1", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cardtable: error:") and "Traceback" not in err[0]


def test_markdown_without_options_pairs():
    text = markdown([], "cardtable analyze", [])
    assert text.startswith("# Variant analytics")

