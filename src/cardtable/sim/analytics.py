"""Variant analytics (`cardtable analyze`): many bot games per configuration, measured through
the core protocol only (decision texts, `awaiting`, views), summarised per rule set and player
count.

A configuration is a game, a rule set (Abluxxen variant plus explicit rule options) and a
player count, played by one bot per seat. Every game is determined by (seed, configuration
label, game index): the deal seed is `derive_seed(seed, "analyze", label, i)` and the bot of
seat s is seeded with `derive_seed(seed, "analyze-bot", label, i, s)`; seat 0 always starts
(Kombio: starts the first round, KO-4 then rotates), so "seat k" means "k seats after the
start seat". Games run in chunks on worker processes (`jobs`) or as Ray tasks (`ray`), and
the result does not depend on which.

Per game the collector keeps a small dict (the `play` of the module a game's declaration names
as its `analytics`, e.g. abluxxen/analytics.py, documents the keys);
`summarize` turns a configuration's games into the figures of the report:

Abluxxen: win share per seat (95% Wilson intervals), decisions and turns (plays) per game, how
games end (AB-7 an emptied hand, AB-14 deck and pool used up), ties, the share of turns whose
set abluxxes at least one display (AB-8..AB-11) and abluxxes per turn, shadowluxxes (DU-4),
optional draws taken or declined (AB-15), and the value of a joker: win share and final score
by the number of jokers in a seat's starting hand, with the least-squares slope (points per
joker) and its 95% interval.

Kombio: rounds per game and turns per round, how rounds end (a Kombio call, KO-12, or an
emptied grid, KO-13), the caller's round score and success (KO-15: strictly lowest sum) by the
circuit of the round in which Kombio was called, snaps right and wrong (KO-8) per round, and the
seat win shares.

`write_report` writes Markdown and PNG charts (`report.md`, `*.png`) and keeps each
configuration's summary as JSON under `configs/`, so an interrupted run resumes where it
stopped (`resume=True`) and the report can be rebuilt from the saved summaries.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from cardtable.bots.base import act, make_bot
from cardtable.core.errors import ConfigError
from cardtable.core.record import new_game
from cardtable.core.registry import games, info
from cardtable.sim.stats import Z95, wilson
from cardtable.sim.tournament import derive_seed, ray_connect

# -- configurations ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """One configuration: `bots` has one bot name (or level) per seat."""

    game: str
    players: int
    bots: tuple[str, ...]
    variant: str | None = None
    options: tuple[tuple[str, bool], ...] = ()

    @property
    def label(self) -> str:
        """"game/variant+option/Np" ("abluxxen/duel+shadow_partial/2p"); a game with one rule
        set leaves the variant out ("kombio/4p")."""
        if len(info(self.game).variants) == 1:
            return f"{self.game}/{self.players}p"
        opts = "".join(f"+{k}" if v else f"-{k}" for k, v in self.options)
        return f"{self.game}/{self.variant}{opts}/{self.players}p"

    def new_state(self, seed: int):
        return new_game(self.game, variant=self.variant, players=self.players, seed=seed,
                        options=dict(self.options) or None)


def analysed() -> list[str]:
    """The games with analytics (their declaration names an `analytics` module)."""
    return [g.name for g in games() if g.analytics]


def default_configs(game: str, bots: list[str], variants: list[str] | None = None,
                    players: list[int] | None = None) -> list[Config]:
    """Every rule set and player count of `game` (a game with analytics, or "all"). Each rule
    option that only some variants have (the duel's DU-4 `shadow_partial`, DU-6
    `shadow_blocks_draw`) is played off and on there, set explicitly, one at a time."""
    names = analysed()
    if game not in names + ["all"]:
        raise ConfigError(f"unknown game {game!r} ({', '.join(names)} or all)")
    out: list[Config] = []
    for decl in (info(n) for n in (names if game == "all" else [game])):
        if len(decl.variants) == 1:
            if variants and game != "all":
                raise ConfigError(f"{decl.title} has no variants: leave out --variant")
            chosen = [None]
        else:
            chosen = variants or list(decl.variant_names)
        for v in chosen:
            if v is not None and v not in decl.variant_names:
                raise ConfigError(f"unknown {decl.title} variant {v!r} "
                                  f"(known: {', '.join(decl.variant_names)})")
            own = [o.name for o in decl.options if o.variants and v in o.variants]
            opts_list = [((o, on),) for o in own for on in (False, True)] or [()]
            for n in decl.player_counts(v):
                if players and n not in players:
                    continue
                for opts in opts_list:
                    out.append(Config(decl.name, n, _seat_bots(bots, n), v, opts))
    if not out:
        raise ConfigError("no configuration matches --variant/--players")
    return out


def _seat_bots(bots: list[str], n: int) -> tuple[str, ...]:
    if len(bots) == 1:
        return tuple(bots) * n
    if len(bots) != n:
        raise ConfigError(f"--bots lists {len(bots)} bots; give one for every seat or one for "
                          f"all ({n} players)")
    return tuple(bots)


def check_bots(bots: list[str]) -> list[str]:
    names = [b.strip().lower() for b in bots]
    if not names or not all(names):
        raise ConfigError("give the bots as a comma-separated list (e.g. --bots greedy)")
    for n in names:
        make_bot(n, 0)          # unknown name or level: ConfigError
    return names


# -- one game ------------------------------------------------------------------------------------
def make_bots(cfg: Config, seed: int, index: int) -> list:
    return [make_bot(b, derive_seed(seed, "analyze-bot", cfg.label, index, s))
            for s, b in enumerate(cfg.bots)]


def run_chunk(cfg: Config, seed: int, indices: list[int]) -> tuple[list[dict[str, Any]], float]:
    """Play a batch of games (the unit of work of a worker process or a Ray task); returns
    the games and the CPU seconds they took."""
    play = info(cfg.game).module("analytics").play
    t0 = time.process_time()
    games = [play(cfg, seed, i) for i in indices]
    return games, time.process_time() - t0


# -- running -------------------------------------------------------------------------------------
Progress = Callable[[int, int], None]


def run_config(cfg: Config, games: int, seed: int, jobs: int = 1, ray: str | None = None,
               progress: Progress | None = None, chunk: int = 200
               ) -> tuple[list[dict[str, Any]], float]:
    """Play `games` games of `cfg`; the results in game-index order and the CPU seconds."""
    chunks = [list(range(a, min(a + chunk, games))) for a in range(0, games, chunk)]
    progress = progress or (lambda done, total: None)
    parts: dict[int, list] = {}
    done = 0
    cpu = 0.0
    if ray:
        batches = _ray_batches(cfg, seed, chunks, ray)
    elif jobs > 1 and len(chunks) > 1:
        batches = _pool_batches(cfg, seed, chunks, jobs)
    else:
        batches = ((c[0], run_chunk(cfg, seed, c)) for c in chunks)
    for first, (res, seconds) in batches:
        parts[first] = res
        cpu += seconds
        done += len(res)
        progress(done, games)
    return [g for first in sorted(parts) for g in parts[first]], cpu


def _pool_batches(cfg, seed, chunks, jobs) -> Iterable[tuple[int, list]]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=ctx) as ex:
        pending = {ex.submit(run_chunk, cfg, seed, c): c[0] for c in chunks}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    first = pending.pop(f)
                    yield first, f.result()
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def _ray_batches(cfg, seed, chunks, address) -> Iterable[tuple[int, list]]:
    ray, owned = ray_connect(address)
    try:
        task = ray.remote(run_chunk)
        refs = {task.remote(cfg, seed, c): c[0] for c in chunks}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                yield refs[r], ray.get(r)
    finally:
        if owned:
            ray.shutdown()


# -- statistics ----------------------------------------------------------------------------------
def share_ci(successes: float, n: int) -> dict[str, float]:
    lo, hi = wilson(successes, n)
    return {"rate": successes / n if n else 0.0, "low": lo, "high": hi, "n": n}


def dist(values: list[float]) -> dict[str, float]:
    vs = sorted(values)
    if not vs:
        return {"mean": 0.0, "sd": 0.0, "p10": 0, "median": 0, "p90": 0, "min": 0, "max": 0}
    q = lambda p: vs[min(len(vs) - 1, int(p * len(vs)))]  # noqa: E731
    return {"mean": statistics.fmean(vs), "sd": statistics.pstdev(vs), "p10": q(0.1),
            "median": q(0.5), "p90": q(0.9), "min": vs[0], "max": vs[-1]}


def mean_ci(values: list[float]) -> dict[str, float]:
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    m = statistics.fmean(values)
    half = Z95 * statistics.pstdev(values) / math.sqrt(n) if n > 1 else 0.0
    return {"mean": m, "low": m - half, "high": m + half, "n": n}


def slope_ci(xs: list[float], ys: list[float]) -> dict[str, float] | None:
    """Least-squares slope of ys on xs with its 95% interval (normal approximation)."""
    n = len(xs)
    if n < 3:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    rss = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    se = math.sqrt(rss / (n - 2) / sxx)
    return {"slope": b, "low": b - Z95 * se, "high": b + Z95 * se}


def seat_stats(games: list[dict], players: int) -> list[dict]:
    out = []
    for s in range(players):
        wins = sum(1 / len(g["w"]) for g in games if s in g["w"])
        out.append({"seat": s, **share_ci(wins, len(games)),
                    "mean_score": statistics.fmean(g["s"][s] for g in games)})
    return out


def summarize(cfg: Config, games: list[dict], seconds: float) -> dict[str, Any]:
    n = len(games)
    base = {"label": cfg.label, "game": cfg.game, "variant": cfg.variant, "players": cfg.players,
            "options": dict(cfg.options), "bots": list(cfg.bots), "games": n,
            "cpu_seconds": seconds, "seats": seat_stats(games, cfg.players),
            "decisions": dist([g["d"] for g in games])}
    return {**base, **info(cfg.game).module("analytics").summarize(cfg, games)}


# -- the whole run -------------------------------------------------------------------------------
@dataclass
class AnalyzeRun:
    configs: list[Config]
    games: int
    seed: int = 1
    jobs: int = 1
    ray: str | None = None
    out: Path = Path("analytics-out")
    resume: bool = False
    charts: bool = True
    command: str = ""
    summaries: list[dict] = field(default_factory=list)


def _config_path(out: Path, cfg: Config) -> Path:
    return out / "configs" / (cfg.label.replace("/", "_") + ".json")


def saved_summaries(out: Path, configs: list[Config]) -> list[dict]:
    """The summaries saved under DIR/configs for `configs` (in their order; missing ones are
    left out)."""
    found = []
    for cfg in configs:
        path = _config_path(out, cfg)
        if path.exists():
            found.append(json.loads(path.read_text(encoding="utf-8")))
    return found


def run_analysis(run: AnalyzeRun, progress: Callable[[Config, int, int], None] | None = None,
                 after_config: Callable[[AnalyzeRun], None] | None = None) -> list[dict]:
    """Play and summarise every configuration; each summary is saved as soon as it is done
    (and `after_config` called, e.g. to rewrite the report), so a long run can be resumed."""
    for cfg in run.configs:
        path = _config_path(run.out, cfg)
        if run.resume and path.exists():
            saved = json.loads(path.read_text(encoding="utf-8"))
            if saved.get("games") == run.games and saved.get("seed") == run.seed \
                    and saved.get("bots") == list(cfg.bots):
                run.summaries.append(saved)
                continue
        w0 = time.perf_counter()
        cb = (lambda done, total, c=cfg: progress(c, done, total)) if progress else None
        games, cpu = run_config(cfg, run.games, run.seed, run.jobs, run.ray, cb)
        wall = time.perf_counter() - w0
        summary = summarize(cfg, games, cpu)
        summary["seed"] = run.seed
        summary["wall_seconds"] = wall
        summary["command"] = run.command
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        run.summaries.append(summary)
        if after_config:
            after_config(run)
    return run.summaries
