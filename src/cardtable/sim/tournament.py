"""Tournaments: many bot-vs-bot games, in parallel, reproducible from one seed.

Every game is fully determined by (tournament seed, game index):

* the deal seed is `derive_seed(seed, "deal", deal)` — the game engine shuffles from it;
* the bot of each seat is `derive_seed(seed, "bot", game, seat)`-seeded and freshly made;
* without `duplicate`, game i is deal i and the bots sit as listed (`bots[s]` at seat s);
* with `duplicate`, each deal is played once per seat rotation (n rotations for n players):
  game index = deal * n + rotation, and in rotation r entry e sits at seat (e + r) % n, so
  every entry plays every seat of every deal (the start seat is seat 0 in every game).

Because no game depends on another, the order and the process in which games run do not
matter: `run_tournament` sorts the results by game index, so `jobs=1`, `jobs=N` and Ray give
identical results (timings aside) for the same seed — as long as the bots themselves are
deterministic (a bot limited by `seconds=` is not).

Games run in-process (`jobs=1`), in a `ProcessPoolExecutor` (`jobs>1`, chunks of games per
task) or as Ray remote tasks (`ray="auto"`, `"local"` or a cluster address; chunks again).
Ray is imported only then. On a remote cluster every node needs this same `cardtable`
installed.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from cardtable.bots.base import act, bot_class, bot_key, make_bot
from cardtable.core.errors import ConfigError
from cardtable.core.record import new_game
from cardtable.core.registry import games as registered, info


class GameFailed(RuntimeError):
    """A game of the tournament raised (a bot bug, an engine bug). Carries the game index and
    the worker's traceback text (picklable: only a message)."""


# -- configuration ------------------------------------------------------------------------------
@dataclass
class TournamentConfig:
    """What to play. `bots` gives the bot name per seat; `bot_params` maps a bot name (every
    entry of that bot) or an entry label ("greedy#2") to constructor settings."""

    game: str = field(default_factory=lambda: registered()[0].name)   # default: the first game
    bots: list[str] = field(default_factory=list)
    games: int = 100                      # deals; with `duplicate` each is played n times
    variant: str | None = None
    players: int | None = None
    target: int | None = None
    duplicate: bool = False
    seed: int = 0
    jobs: int = 1
    ray: str | None = None                # None: no Ray; "auto", "local" or a cluster address
    records: bool = False                 # keep every game's record in the results
    bot_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    chunk_size: int | None = None         # games per task (None: chosen from jobs and games)


@dataclass(frozen=True)
class Entry:
    """One seat entry of the bots list: `label` is unique ("greedy#1"), `key` names the bot
    with its settings ("ismcts(iterations=200)") — stats per bot and ratings use `key`."""

    index: int
    label: str
    name: str
    params: tuple[tuple[str, Any], ...]
    key: str

    def make(self, seed: int):
        return make_bot(self.name, seed, **dict(self.params))


@dataclass(frozen=True)
class Plan:
    """A checked configuration, as sent to the workers."""

    game: str
    options: tuple[tuple[str, Any], ...]   # new_game options besides seed
    players: int
    entries: tuple[Entry, ...]
    deals: int
    duplicate: bool
    seed: int
    records: bool
    lower_is_better: bool
    ladder: str                            # ratings ladder name: "abluxxen/basic", "kombio"

    @property
    def rotations(self) -> int:
        return self.players if self.duplicate else 1

    @property
    def total(self) -> int:
        return self.deals * self.rotations


@dataclass
class GameResult:
    """One finished game. Lists are per seat."""

    index: int
    deal: int
    rotation: int
    deal_seed: int
    entries: list[int]                 # entry index seated at each seat
    bot_seeds: list[int]
    scores: list[int]
    winners: list[int]
    decisions: list[int]               # decisions taken by each seat
    times: list[list[float]]           # seconds spent in act() per decision, per seat
    record: dict | None = None

    @property
    def seconds(self) -> list[float]:
        return [sum(t) for t in self.times]


@dataclass
class TournamentResult:
    plan: Plan
    config: TournamentConfig
    games: list[GameResult]            # sorted by game index
    elapsed: float                     # wall-clock seconds
    backend: str                       # "inline", "processes:N", "ray"


# -- seeds ------------------------------------------------------------------------------------
def derive_seed(seed: int, *parts: Any) -> int:
    """A 62-bit seed from the tournament seed and a path of parts (stable everywhere)."""
    text = "cardtable-tournament/" + "/".join(str(p) for p in (seed, *parts))
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << 62) - 1)


# -- checking the configuration -----------------------------------------------------------------
def _entries(config: TournamentConfig) -> tuple[Entry, ...]:
    names = [str(b).strip().lower() for b in config.bots]
    if not names or any(not n for n in names):
        raise ConfigError("give the bots as a comma-separated list, one per seat "
                          "(e.g. --bots greedy,random,random,random)")
    for n in names:
        try:
            bot_class(n)
        except ConfigError:
            raise
        except ImportError as e:
            raise ConfigError(f"bot {n!r} is not available in this version ({e})") from None
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        labels.append(n if counts[n] == 1 else f"{n}#{seen[n]}")
    known = set(names) | set(labels)
    for target in config.bot_params:
        if target not in known:
            raise ConfigError(f"--bot-param for {target!r}, which is not in the table "
                              f"(bots: {', '.join(labels)})")
    entries = []
    for i, (n, label) in enumerate(zip(names, labels)):
        params = dict(config.bot_params.get(n, {}))
        if label != n:
            params.update(config.bot_params.get(label, {}))
        items = tuple(sorted(params.items()))
        key = bot_key(n, dict(items))
        entry = Entry(i, label, n, items, key)
        try:
            entry.make(0)                     # bad settings fail here, not in a worker
        except ConfigError:
            raise
        except (TypeError, ValueError) as e:
            raise ConfigError(f"bad settings for bot {label!r}: {e}") from None
        entries.append(entry)
    return tuple(entries)


def make_plan(config: TournamentConfig) -> Plan:
    """Check `config` (ConfigError for anything wrong) and resolve it into a Plan."""
    game = str(config.game).strip().lower()
    decl = info(game)                         # unknown game: ConfigError
    if not isinstance(config.games, int) or config.games < 1:
        raise ConfigError(f"the number of games must be at least 1, not {config.games}")
    if not isinstance(config.jobs, int) or config.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {config.jobs}")
    if config.chunk_size is not None and config.chunk_size < 1:
        raise ConfigError(f"the chunk size must be at least 1, not {config.chunk_size}")
    if not isinstance(config.seed, int):
        raise ConfigError(f"the seed must be a whole number, not {config.seed!r}")
    entries = _entries(config)
    n = len(entries)
    if config.players is not None and config.players != n:
        raise ConfigError(f"{config.players} players need {config.players} bots, "
                          f"but --bots lists {n}")
    options: dict[str, Any] = {"players": n}
    if config.variant is not None:
        options["variant"] = config.variant
    if config.target is not None:
        options["target"] = config.target
    state = new_game(game, seed=0, **options)          # bad variant/players/target: ConfigError
    variant = state.view(None).get("variant") if len(decl.variants) > 1 else None
    ladder = f"{game}/{variant}" if variant else game
    return Plan(game=game, options=tuple(sorted(options.items())), players=n,
                entries=entries, deals=config.games, duplicate=bool(config.duplicate),
                seed=config.seed, records=bool(config.records),
                lower_is_better=decl.lower_is_better, ladder=ladder)


# -- one game -----------------------------------------------------------------------------------
def game_plan(plan: Plan, index: int) -> tuple[int, int, int, list[int], list[int]]:
    """(deal, rotation, deal seed, entry index per seat, bot seed per seat) of game `index`."""
    n, rot = plan.players, plan.rotations
    deal, rotation = divmod(index, rot)
    seating = [(s - rotation) % n for s in range(n)]
    deal_seed = derive_seed(plan.seed, "deal", deal)
    bot_seeds = [derive_seed(plan.seed, "bot", index, s) for s in range(n)]
    return deal, rotation, deal_seed, seating, bot_seeds


def play_game(plan: Plan, index: int) -> GameResult:
    """Play game `index` of the plan to its end."""
    deal, rotation, deal_seed, seating, bot_seeds = game_plan(plan, index)
    state = new_game(plan.game, seed=deal_seed, **dict(plan.options))
    bots = [plan.entries[e].make(bot_seeds[s]) for s, e in enumerate(seating)]
    times: list[list[float]] = [[] for _ in range(plan.players)]
    clock = time.perf_counter
    while not state.over:
        seat = state.to_move
        t0 = clock()
        decision = act(bots[seat], state)
        times[seat].append(clock() - t0)
        state.apply(decision)
    return GameResult(
        index=index, deal=deal, rotation=rotation, deal_seed=deal_seed, entries=seating,
        bot_seeds=bot_seeds, scores=list(state.scores()), winners=sorted(state.winners()),
        decisions=[len(t) for t in times], times=times,
        record=state.record() if plan.records else None)


def run_chunk(plan: Plan, indices: list[int]) -> list[GameResult]:
    """Play a batch of games (the unit of work of a worker process or a Ray task)."""
    out = []
    for i in indices:
        try:
            out.append(play_game(plan, i))
        except Exception as e:
            raise GameFailed(f"game {i} failed: {type(e).__name__}: {e}\n"
                             f"{traceback.format_exc()}") from None
    return out


# -- the whole tournament -----------------------------------------------------------------------
Progress = Callable[[int, int], None]      # (games done, games in all)


def _chunks(total: int, workers: int, size: int | None) -> list[list[int]]:
    if size is None:
        size = max(1, min(50, math.ceil(total / (workers * 8))))
    return [list(range(a, min(a + size, total))) for a in range(0, total, size)]


def _inline(plan: Plan, chunks, progress: Progress) -> Iterable[list[GameResult]]:
    done = 0
    for c in chunks:
        res = run_chunk(plan, c)
        done += len(res)
        progress(done, plan.total)
        yield res


def _pool(plan: Plan, chunks, jobs: int, progress: Progress) -> Iterable[list[GameResult]]:
    import multiprocessing

    # spawn: safe whatever threads the parent runs (Ray, rich's refresh thread, ...)
    ctx = multiprocessing.get_context("spawn")
    done = 0
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=ctx) as ex:
        pending = {ex.submit(run_chunk, plan, c) for c in chunks}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    res = f.result()
                    done += len(res)
                    progress(done, plan.total)
                    yield res
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """For a HOST:PORT address: fail fast (ConfigError) if nothing listens there — Ray itself
    would retry for many minutes."""
    import socket

    host, sep, port = address.rpartition(":")
    if address.startswith("ray://") or not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ConfigError(f"no Ray cluster answers at {address!r}: {e}") from None


def ray_connect(address: str):
    """Import Ray and connect to `address` ("local", "auto" or a cluster address) unless
    already connected; returns (the ray module, True if this call connected: shut it down
    after use). ConfigError when Ray is missing or does not answer."""
    try:
        import ray
    except ImportError:
        raise ConfigError("--ray needs the ray package: pip install 'cardtable[ray]'") from None
    if ray.is_initialized():
        return ray, False
    try:
        if address == "local":
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            if address != "auto":
                _check_reachable(address)
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, ValueError) as e:
        raise ConfigError(f"cannot connect to Ray at {address!r}: {e}") from None
    return ray, True


def _ray(plan: Plan, chunks_for, address: str, progress: Progress) -> Iterable[list[GameResult]]:
    ray, owned = ray_connect(address)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        remote_chunk = ray.remote(run_chunk)
        plan_ref = ray.put(plan)
        pending = [remote_chunk.remote(plan_ref, c) for c in chunks_for(cpus)]
        done = 0
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for res in ray.get(finished):
                    done += len(res)
                    progress(done, plan.total)
                    yield res
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
    finally:
        if owned:
            ray.shutdown()


def run_tournament(config: TournamentConfig, progress: Progress | bool | None = None
                   ) -> TournamentResult:
    """Play the tournament `config` describes; results sorted by game index.

    `progress`: a callable(done, total), True for a rich progress bar with ETA on stderr, or
    None/False for nothing. Raises ConfigError for a bad configuration, GameFailed if a game
    raised."""
    plan = make_plan(config)
    bar = None
    if progress is True:
        bar = _ProgressBar(plan)
        callback: Progress = bar.update
    elif callable(progress):
        callback = progress
    else:
        callback = lambda done, total: None  # noqa: E731
    t0 = time.perf_counter()
    results: list[GameResult] = []
    try:
        if bar is not None:
            bar.start()
        if config.ray:
            backend = "ray"
            batches = _ray(plan, lambda cpus: _chunks(plan.total, cpus, config.chunk_size),
                           config.ray, callback)
        elif config.jobs > 1 and plan.total > 1:
            chunks = _chunks(plan.total, config.jobs, config.chunk_size)
            backend = f"processes:{min(config.jobs, len(chunks))}"
            batches = _pool(plan, chunks, config.jobs, callback)
        else:
            backend = "inline"
            batches = _inline(plan, _chunks(plan.total, 1, config.chunk_size), callback)
        for batch in batches:
            results.extend(batch)
    finally:
        if bar is not None:
            bar.stop()
    results.sort(key=lambda g: g.index)
    assert [g.index for g in results] == list(range(plan.total)), "lost games"
    return TournamentResult(plan=plan, config=config, games=results,
                            elapsed=time.perf_counter() - t0, backend=backend)


class _ProgressBar:
    """A rich progress bar with ETA on stderr."""

    def __init__(self, plan: Plan):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                   TextColumn, TimeElapsedColumn, TimeRemainingColumn)

        self.progress = RichProgress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("games"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task(f"{plan.game} tournament", total=plan.total)

    def start(self) -> None:
        self.progress.start()

    def stop(self) -> None:
        self.progress.stop()

    def update(self, done: int, total: int) -> None:
        self.progress.update(self.task, completed=done, total=total)


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)
