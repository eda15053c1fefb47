"""`cardtable tournament` / `cardtable ratings` (cardtable.sim): statistics checked by hand
against games.csv, duplicate deals, parallel and Ray runs identical to the serial one, records
that replay, charts, ratings, Kombio, and configuration errors."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli.tournament_cmd import parse_bot_params, register
from cardtable.core import ConfigError, load_record
from cardtable.sim import TournamentConfig, game_plan, run_tournament, wilson
from cardtable.sim.output import read_csv
from cardtable.sim.ratings import ranks
from cardtable.sim.stats import TIMING_COLUMNS
from cardtable.sim.tournament import make_plan

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def invoke(*args):
    """Run the CLI in-process; returns the click Result (exceptions kept in .exception)."""
    return CliRunner().invoke(_app(), [str(a) for a in args])


def tournament(tmp: Path, *args, name: str = "out"):
    out = tmp / name
    res = invoke("tournament", "--out", out, "--ratings", tmp / f"{name}-ratings.json",
                 "--no-progress", *args)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    assert res.exit_code == 0, res.output
    return res, out


def csv_without_timing(out: Path) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING_COLUMNS}
            for r in read_csv(out / "games.csv")]


def by_game(rows: list[dict]) -> dict[int, list[dict]]:
    games: dict[int, list[dict]] = {}
    for r in rows:
        games.setdefault(r["game"], []).append(r)
    return games


def table_row(output: str, label: str) -> list[str]:
    """The cells of the first printed table row whose first cell is `label`."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells and cells[0] == label:
            return cells
    raise AssertionError(f"no table row {label!r} in:\n{output}")


# -- statistics by hand -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def abx_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("abx")
    res, out = tournament(tmp, "--game", "abluxxen", "--variant", "basic",
                          "--bots", "greedy,random,greedy,random", "--games", "14",
                          "--seed", "5", "--jobs", "1", "--records")
    return res, out, tmp


def test_summary_and_printed_figures_equal_a_hand_computation_from_the_csv(abx_run):
    res, out, _ = abx_run
    rows = read_csv(out / "games.csv")
    summary = json.loads((out / "summary.json").read_text())
    stats = summary["stats"]
    games = by_game(rows)
    assert len(games) == 14 and stats["games"] == 14 and stats["players"] == 4
    assert stats["lower_is_better"] is False

    # hand computation: shared wins (1/k per winner), own score minus the mean of the others
    wins, n, score_sum, diff_sum = {}, {}, {}, {}
    seat_wins, seat_n = [0.0] * 4, [0] * 4
    for g, rs in games.items():
        assert [r["seat"] for r in rs] == [0, 1, 2, 3]
        k = sum(r["winner"] for r in rs)
        assert k >= 1
        total = sum(r["score"] for r in rs)
        for r in rs:
            share = r["winner"] / k
            assert r["win_share"] == pytest.approx(share, abs=1e-6)
            e = r["entry"]
            wins[e] = wins.get(e, 0.0) + share
            n[e] = n.get(e, 0) + 1
            score_sum[e] = score_sum.get(e, 0) + r["score"]
            diff_sum[e] = diff_sum.get(e, 0.0) + r["score"] - (total - r["score"]) / 3
            seat_wins[r["seat"]] += share
            seat_n[r["seat"]] += 1
    assert sum(wins.values()) == pytest.approx(14)
    labels = ["greedy#1", "random#1", "greedy#2", "random#2"]
    assert [e["entry"] for e in stats["entries"]] == labels
    for e in stats["entries"]:
        label = e["entry"]
        rate = wins[label] / n[label]
        assert e["games"] == n[label] == 14
        assert e["win_rate"] == pytest.approx(rate)
        # the Wilson interval, written out
        z = 1.959963984540054
        c = (rate + z * z / 28) / (1 + z * z / 14)
        h = z * math.sqrt(rate * (1 - rate) / 14 + z * z / (4 * 14 * 14)) / (1 + z * z / 14)
        assert (e["win_low"], e["win_high"]) == pytest.approx((max(0, c - h), min(1, c + h)))
        assert e["mean_score"] == pytest.approx(score_sum[label] / 14)
        assert e["mean_diff"] == pytest.approx(diff_sum[label] / 14)
        assert e["time_median_ms"] is not None and e["time_p99_ms"] >= e["time_median_ms"]
        cells = table_row(res.output, label)            # the printed table says the same
        assert cells[4] == f"{100 * rate:.1f}%"
        assert cells[5] == f"{100 * e['win_low']:.1f}–{100 * e['win_high']:.1f}%"
        assert cells[6] == f"{score_sum[label] / 14:.2f}"
        assert cells[7] == f"{diff_sum[label] / 14:+.2f}"
    for s in stats["seats"]:
        rate = seat_wins[s["seat"]] / seat_n[s["seat"]]
        assert s["win_rate"] == pytest.approx(rate)
        cells = table_row(res.output, str(s["seat"]))
        assert cells[3] == f"{100 * rate:.1f}%"
    # per bot name: both greedy entries together, under the one name of that bot ("easy")
    bots = {b["bot"]: b for b in stats["bots"]}
    assert set(bots) == {"easy", "random"}
    assert bots["easy"]["games"] == 28
    assert bots["easy"]["win_rate"] == pytest.approx((wins["greedy#1"] + wins["greedy#2"]) / 28)
    assert bots["easy"]["mean_score"] == pytest.approx(
        (score_sum["greedy#1"] + score_sum["greedy#2"]) / 28)
    assert table_row(res.output, "easy")[3] == f"{100 * bots['easy']['win_rate']:.1f}%"


def test_records_replay_to_the_csv_scores(abx_run):
    _, out, _ = abx_run
    games = by_game(read_csv(out / "games.csv"))
    files = sorted((out / "records").glob("game-*.json"))
    assert len(files) == len(games) == 14
    for g, rs in games.items():
        state = load_record(out / "records" / f"game-{g:06d}.json")
        assert state.over
        assert state.scores() == [r["score"] for r in rs]
        assert sorted(state.winners()) == [r["seat"] for r in rs if r["winner"]]
        assert sum(r["decisions"] for r in rs) == len(state.history)


def test_charts_are_valid_pngs(abx_run):
    _, out, _ = abx_run
    import matplotlib.image as mpimg

    for name in ("winrates.png", "scores.png", "seats.png"):
        data = (out / name).read_bytes()
        assert data.startswith(PNG_MAGIC), name
        img = mpimg.imread(out / name)
        assert img.shape[0] > 100 and img.shape[1] > 100


def test_ratings_file_and_ladder(abx_run, tmp_path):
    _, _, tmp = abx_run
    path = tmp / "out-ratings.json"
    data = json.loads(path.read_text())
    ladder = data["ladders"]["abluxxen/basic"]
    assert set(ladder) == {"easy", "random"}
    assert all(v["games"] == 14 for v in ladder.values())
    res = invoke("ratings", "--ratings", path)
    assert res.exit_code == 0, res.output
    order = sorted(ladder, key=lambda k: -(ladder[k]["mu"] - 3 * ladder[k]["sigma"]))
    first, second = table_row(res.output, "1"), table_row(res.output, "2")
    assert [first[1], second[1]] == order
    top = ladder[order[0]]
    assert first[2:] == [f"{top['mu'] - 3 * top['sigma']:.2f}", f"{top['mu']:.2f}",
                         f"{top['sigma']:.2f}", "14"]
    summary = json.loads((abx_run[1] / "summary.json").read_text())
    assert [r["bot"] for r in summary["ratings"]] == order
    # no file yet: a friendly line, exit 0
    res = invoke("ratings", "--ratings", tmp_path / "none.json")
    assert res.exit_code == 0 and "No ratings yet" in res.output


def test_rank_order_for_ratings():
    assert ranks([10, 5, 5, 1], [0], lower_is_better=False) == [1, 2, 2, 3]
    assert ranks([10, 5, 5, 1], [3], lower_is_better=True) == [3, 2, 2, 1]
    assert ranks([7, 7, 3], [0, 1], lower_is_better=False) == [1, 1, 2]


def test_wilson_interval():
    assert wilson(0, 10)[0] == 0.0
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert wilson(0, 0) == (0.0, 1.0)


# -- duplicate ----------------------------------------------------------------------------------
def test_duplicate_gives_every_bot_every_hand(tmp_path):
    _, out = tournament(tmp_path, "--bots", "greedy,random,random", "--games", "3",
                        "--duplicate", "--seed", "11", "--jobs", "1", "--records")
    rows = read_csv(out / "games.csv")
    games = by_game(rows)
    assert len(games) == 9                                   # 3 deals x 3 rotations
    deals: dict[int, list[list[dict]]] = {}
    for g, rs in games.items():
        assert g == rs[0]["deal"] * 3 + rs[0]["rotation"]
        deals.setdefault(rs[0]["deal"], []).append(rs)
    assert sorted(deals) == [0, 1, 2]
    seeds = set()
    for deal, plays in deals.items():
        assert sorted(p[0]["rotation"] for p in plays) == [0, 1, 2]
        deal_seeds = {r["deal_seed"] for p in plays for r in p}
        assert len(deal_seeds) == 1
        seeds |= deal_seeds
        seated = {(r["entry"], r["seat"]) for p in plays for r in p}
        assert seated == {(e, s) for e in ("greedy", "random#1", "random#2") for s in range(3)}
        # the same cards were dealt in every rotation
        starts = [load_record(out / "records" / f"game-{p[0]['game']:06d}.json", upto=0)
                  .view(None)["hands"] for p in plays]
        assert all(h == starts[0] for h in starts)
    assert len(seeds) == 3                                   # different deals
    summary = json.loads((out / "summary.json").read_text())
    assert summary["total_games"] == 9 and summary["rotations"] == 3
    assert all(e["games"] == 9 for e in summary["stats"]["entries"])


# -- parallel runs: identical results -----------------------------------------------------------
def test_jobs_2_gives_the_results_of_jobs_1(tmp_path):
    args = ("--bots", "greedy,random,random,greedy", "--games", "10", "--duplicate",
            "--seed", "21")
    _, one = tournament(tmp_path, *args, "--jobs", "1", name="one")
    res, two = tournament(tmp_path, *args, "--jobs", "2", name="two")
    assert "processes:2" in res.output
    assert csv_without_timing(one) == csv_without_timing(two)
    assert len(csv_without_timing(one)) == 40 * 4
    assert (tmp_path / "one-ratings.json").read_text() == (tmp_path / "two-ratings.json").read_text()
    s1 = json.loads((one / "summary.json").read_text())["stats"]
    s2 = json.loads((two / "summary.json").read_text())["stats"]
    for a, b in zip(s1["entries"], s2["entries"]):
        assert {k: v for k, v in a.items() if "time" not in k} == \
               {k: v for k, v in b.items() if "time" not in k}


def test_run_tournament_is_a_pure_function_of_the_seed():
    cfg = TournamentConfig(game="abluxxen", bots=["random"] * 3, games=4, seed=3, jobs=1,
                           records=True)
    calls = []
    a = run_tournament(cfg, progress=lambda done, total: calls.append((done, total)))
    b = run_tournament(TournamentConfig(**{**cfg.__dict__, "chunk_size": 3}))
    assert calls[-1] == (4, 4)
    key = lambda r: [(g.index, g.deal_seed, g.bot_seeds, g.scores, g.winners, g.record)  # noqa
                     for g in r.games]
    assert key(a) == key(b)
    c = run_tournament(TournamentConfig(**{**cfg.__dict__, "seed": 4}))
    assert key(a) != key(c)
    plan = make_plan(cfg)
    assert game_plan(plan, 2) == game_plan(plan, 2)
    assert game_plan(plan, 2)[2] == a.games[2].deal_seed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ray_cluster(monkeypatch):
    """A one-node Ray cluster on the loopback interface, started with `ray start --head` in
    its own process group, and killed (that group only) at the end."""
    # Ray on the loopback only: this switch makes every Ray process (the cluster's and this
    # driver's) use 127.0.0.1 instead of the machine's network address. It is read when ray is
    # imported, so set it first (and patch it, should ray have been imported already).
    env = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0",
           "RAY_AUTH_MODE": "disabled"}     # a private cluster: no token in ~/.ray needed
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    import ray  # noqa: F401  (installed with the dev extra; a missing ray must fail the test)
    from ray._private import ray_constants

    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False, raising=False)
    temp = tempfile.mkdtemp(prefix="ct-ray-")         # short: Ray's socket paths must fit
    port = _free_port()
    ray_bin = Path(sys.executable).parent / "ray"
    cmd = [str(ray_bin), "start", "--head", f"--port={port}", "--num-cpus=2",
           "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}",
           f"--ray-client-server-port={_free_port()}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, **env}, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, output
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        if ray.is_initialized():
            ray.shutdown()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + 10    # the group's time to end, then SIGKILL
            while time.monotonic() < deadline:
                try:
                    os.killpg(proc.pid, 0)          # is any of the group still there?
                except ProcessLookupError:
                    break
                time.sleep(0.05)
        # the daemons `ray start` spawned may have left its process group: stop them by name
        subprocess.run([str(ray_bin), "stop", "--force"], env={**os.environ, **env},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                       check=False)
        subprocess.run(["rm", "-rf", temp], check=False)


def test_ray_gives_the_results_of_jobs_1(tmp_path, ray_cluster):
    args = ("--bots", "greedy,random,random", "--games", "8", "--duplicate", "--seed", "8",
            "--records")
    _, one = tournament(tmp_path, *args, "--jobs", "1", name="one")
    res, viaray = tournament(tmp_path, *args, "--ray", ray_cluster, name="ray")
    assert "ray" in json.loads((viaray / "summary.json").read_text())["backend"]
    assert csv_without_timing(one) == csv_without_timing(viaray)
    for f in sorted((one / "records").glob("*.json")):
        assert f.read_text() == (viaray / "records" / f.name).read_text()
    assert (tmp_path / "one-ratings.json").read_text() == (tmp_path / "ray-ratings.json").read_text()
    import ray

    assert not ray.is_initialized()                  # the tournament disconnected again
    # `cardtable analyze --ray` (issue 16) plays the same games on the same cluster
    from cardtable.sim import analytics as an
    cfg = an.default_configs("kombio", ["random"], None, [3])[0]
    serial, _ = an.run_config(cfg, 6, seed=4, chunk=2)
    remote, _ = an.run_config(cfg, 6, seed=4, ray=ray_cluster, chunk=2)
    assert serial == remote and not ray.is_initialized()
    # the batched simulator's playouts (issue 35) on the same cluster: the same games as one
    # local simulator, in seed order, whatever the chunks
    from cardtable.rl.batch import make_batch
    from cardtable.rl.batch.distributed import playouts
    local = make_batch("abluxxen", 1, variant="duel", players=2).playouts(range(50, 95))
    spread = playouts("abluxxen", range(50, 95), address=ray_cluster, chunk=10,
                      variant="duel", players=2)
    for k in ("scores", "winners", "decisions"):
        assert np.array_equal(local[k], spread[k]), k
    assert local["decisions"].min() > 0 and not ray.is_initialized()


def test_ray_address_without_a_cluster_is_a_config_error(tmp_path):
    import ray  # noqa: F401  (installed with the dev extra; a missing ray must fail the test)
    res = invoke("tournament", "--out", tmp_path / "o", "--ratings", tmp_path / "r.json",
                 "--no-progress", "--bots", "random,random,random", "--games", "1",
                 "--ray", f"127.0.0.1:{_free_port()}")
    assert isinstance(res.exception, ConfigError) and "no Ray cluster" in str(res.exception)


# -- Kombio -------------------------------------------------------------------------------------
def test_kombio_tournament(tmp_path):
    res, out = tournament(tmp_path, "--game", "kombio", "--bots", "greedy,random,random",
                          "--target", "40", "--games", "4", "--duplicate", "--seed", "2",
                          "--jobs", "1", "--records")
    rows = read_csv(out / "games.csv")
    games = by_game(rows)
    assert len(games) == 12
    for g, rs in games.items():
        best = min(r["score"] for r in rs)                 # KO-16: the lowest total wins
        assert all(r["score"] == best for r in rs if r["winner"])
        state = load_record(out / "records" / f"game-{g:06d}.json")
        assert state.scores() == [r["score"] for r in rs]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["stats"]["lower_is_better"] is True and summary["ladder"] == "kombio"
    assert "lower is better" in res.output
    entries = {e["entry"]: e for e in summary["stats"]["entries"]}
    hand = sum(r["score"] for r in rows if r["entry"] == "greedy") / 12
    assert entries["greedy"]["mean_score"] == pytest.approx(hand)
    data = json.loads((tmp_path / "out-ratings.json").read_text())
    assert set(data["ladders"]["kombio"]) == {"easy", "random"}


# -- errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--game", "chess", "--bots", "random,random"], "unknown game"),
    (["--bots", "random,nobot,random"], "unknown bot"),
    (["--bots", "random,random,random", "--players", "4"], "4 players"),
    (["--bots", "random,random"], "3-5 players"),
    (["--bots", "random,random,random", "--games", "0"], "at least 1"),
    (["--bots", "random,random,random", "--jobs", "0"], "--jobs"),
    (["--bots", "random,random,random", "--bot-param", "random.depth"], "BOT.SETTING=VALUE"),
    (["--bots", "random,random,random", "--bot-param", "greedy.x=1"], "not in the table"),
    (["--bots", "random,random,random", "--bot-param", "random.depth=3"], "bad settings"),
    (["--bots", "random,random,random", "--variant", "nope"], "nope"),
    (["--bots", "random,random,random", "--target", "50"], "target"),
    (["--game", "kombio", "--bots", "random", "--games", "1"], "2-6 players"),
    (["--bots", ",random,random"], "comma-separated"),
])
def test_bad_arguments_raise_config_error(tmp_path, args, words):
    games = [] if "--games" in args else ["--games", "2"]
    res = invoke("tournament", "--out", tmp_path / "o", "--ratings", tmp_path / "r.json",
                 "--no-progress", *games, *args)
    assert isinstance(res.exception, ConfigError), (res.exception, res.output)
    assert words in str(res.exception)
    assert not (tmp_path / "o").exists() and not (tmp_path / "r.json").exists()


def test_bad_ratings_file_is_a_config_error(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text("[1, 2]")
    res = invoke("ratings", "--ratings", bad)
    assert isinstance(res.exception, ConfigError)


def test_bot_param_parsing():
    assert parse_bot_params(["ismcts.iterations=200", "ismcts.c=1.5", "greedy#2.mode=fast",
                             "x.flag=true"]) == {
        "ismcts": {"iterations": 200, "c": 1.5}, "greedy#2": {"mode": "fast"},
        "x": {"flag": True}}
    with pytest.raises(ConfigError):
        parse_bot_params(["ismcts=3"])


def test_bot_params_reach_the_bot(tmp_path):
    _, out = tournament(tmp_path, "--variant", "duel", "--bots", "ismcts,greedy", "--games",
                        "1", "--seed", "1", "--jobs", "1", "--bot-param",
                        "ismcts.iterations=5")
    rows = read_csv(out / "games.csv")
    assert rows[0]["bot"] == "ismcts(iterations=5)" and rows[1]["bot"] == "easy"


# -- one name per bot, the user data folder, 80 columns (issue 31) -------------------------------
@pytest.mark.parametrize("name,params,key", [
    ("heuristic", {}, "medium"), ("medium", {}, "medium"), ("greedy", {}, "easy"),
    ("easy", {}, "easy"), ("pimc", {"iterations": 80, "width": 4}, "hard"), ("hard", {}, "hard"),
    ("hard", {"iterations": 200}, "pimc(iterations=200,width=4)"), ("random", {}, "random"),
    ("ismcts", {"iterations": 50}, "ismcts(iterations=50)")])
def test_one_name_per_bot(name, params, key):
    from cardtable.bots.base import bot_key

    assert bot_key(name, params) == key


def test_heuristic_and_medium_share_one_rating(tmp_path):
    res, out = tournament(tmp_path, "--bots", "heuristic,medium,greedy,easy", "--games", "4",
                          "--seed", "2", "--jobs", "1", "--no-charts")
    ladder = json.loads((tmp_path / "out-ratings.json").read_text())["ladders"]["abluxxen/basic"]
    assert set(ladder) == {"medium", "easy"}
    assert ladder["medium"]["games"] == 4 and ladder["easy"]["games"] == 4


def test_an_old_ratings_file_is_read_under_one_name_per_bot(tmp_path):
    from cardtable.sim import ratings as rt

    old = {"format": "cardtable-ratings", "version": 1, "model": "PlackettLuce", "ladders": {
        "kombio": {"heuristic": {"mu": 30.0, "sigma": 2.0, "games": 40},
                   "medium": {"mu": 26.0, "sigma": 3.0, "games": 12},
                   "pimc(iterations=80,width=4)": {"mu": 31.0, "sigma": 2.5, "games": 9},
                   "ismcts(iterations=50)": {"mu": 20.0, "sigma": 4.0, "games": 3}}}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    ladder = rt.load(path)["ladders"]["kombio"]
    assert ladder == {"medium": old["ladders"]["kombio"]["heuristic"],   # more games kept
                      "hard": old["ladders"]["kombio"]["pimc(iterations=80,width=4)"],
                      "ismcts(iterations=50)": old["ladders"]["kombio"]["ismcts(iterations=50)"]}


def test_ratings_go_to_the_user_data_folder(tmp_path, monkeypatch):
    """Not one shared ~/.cardtable: the platform's user data folder (platformdirs), or
    CARDTABLE_DATA; the old file is still read until the new one is written."""
    import platformdirs

    from cardtable.sim import ratings as rt

    monkeypatch.delenv("CARDTABLE_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert rt.default_path() == platformdirs.user_data_path("cardtable", appauthor=False) \
        / "ratings.json"
    assert rt.default_path() == tmp_path / "data" / "cardtable" / "ratings.json"
    monkeypatch.setattr(rt, "LEGACY_PATH", tmp_path / ".cardtable" / "ratings.json")
    rt.LEGACY_PATH.parent.mkdir()
    rt.LEGACY_PATH.write_text(json.dumps({"format": "cardtable-ratings", "ladders": {
        "kombio": {"greedy": {"mu": 25.0, "sigma": 8.0, "games": 1}}}}))
    assert rt.load(rt.default_path())["ladders"] == {"kombio": {"easy": {
        "mu": 25.0, "sigma": 8.0, "games": 1}}}
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "mine"))
    assert rt.default_path() == tmp_path / "mine" / "ratings.json"

