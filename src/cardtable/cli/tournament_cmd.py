"""`cardtable tournament` (bot-vs-bot games in parallel, statistics, charts, ratings) and
`cardtable ratings` (the OpenSkill ladder). `register(app)` adds both commands to a Typer app.

    cardtable tournament --game abluxxen --variant basic --bots ismcts,greedy,greedy,greedy \\
        --games 2000 --duplicate --jobs 8 --seed 1 --bot-param ismcts.iterations=200
    cardtable ratings

Bad arguments raise core.errors.ConfigError (main() prints one line, exit status 2).
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.text import Text

from cardtable.cli.games import game_names, setting_help, variants_help
from cardtable.core import registry
from cardtable.core.errors import ConfigError


def _console() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = max(console.width, 140)    # piped: keep each table row on one line
    return console


def _print_table(console: Console, table) -> None:
    """A table readable at the console's width: split into parts, never cut to "…"."""
    from cardtable.sim.output import fit

    for part in fit(table, console.width):
        console.print(part)


def parse_bot_params(items: list[str] | None) -> dict[str, dict[str, Any]]:
    """["ismcts.iterations=200", "greedy#2.x=1"] -> {"ismcts": {"iterations": 200}, ...}.
    Values are read as JSON (numbers, true/false, null), else kept as text."""
    out: dict[str, dict[str, Any]] = {}
    for item in items or []:
        target, dot, rest = item.partition(".")
        key, eq, value = rest.partition("=")
        target, key, value = target.strip().lower(), key.strip(), value.strip()
        if not dot or not eq or not target or not key or not key.isidentifier() or not value:
            raise ConfigError(f"bad --bot-param {item!r}: expected BOT.SETTING=VALUE "
                              "(e.g. ismcts.iterations=200)")
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        if isinstance(parsed, (list, dict)):
            parsed = value
        out.setdefault(target, {})[key] = parsed
    return out


def run_tournament_cmd(*, game: str, variant: str | None, bots: str, games: int,
                       duplicate: bool, jobs: int | None, seed: int | None, out: Path,
                       records: bool, ray: str | None, bot_param: list[str] | None,
                       players: int | None, target: int | None, ratings: Path | None,
                       no_ratings: bool = False, charts: bool = True,
                       progress: bool | None = None, console: Console | None = None) -> int:
    from cardtable.sim import output, ratings as rt
    from cardtable.sim.stats import compute_stats
    from cardtable.sim.tournament import (TournamentConfig, default_jobs, make_plan,
                                          run_tournament)

    console = console or _console()
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    config = TournamentConfig(
        game=game, bots=[b for b in (s.strip() for s in bots.split(","))],
        games=games, variant=variant, players=players, target=target, duplicate=duplicate,
        seed=seed, jobs=default_jobs() if jobs is None else jobs, ray=ray or None,
        records=records, bot_params=parse_bot_params(bot_param))
    plan = make_plan(config)                      # every ConfigError before any work
    ratings_path = None if no_ratings else (ratings or rt.default_path())
    data = rt.load(ratings_path) if ratings_path is not None else None
    if progress is None:
        progress = sys.stderr.isatty()
    where = f"Ray ({ray})" if ray else (f"{config.jobs} processes" if config.jobs > 1 else "1 process")
    games_text = (f"{plan.deals} deals × {plan.rotations} seat rotations = {plan.total} games"
                  if plan.duplicate else f"{plan.total} games")
    console.print(Text(f"Tournament {plan.ladder}: {', '.join(e.label for e in plan.entries)}; "
                       f"{games_text}; seed {seed}; {where}", style="bold"), soft_wrap=True)

    result = run_tournament(config, progress=progress)
    stats = compute_stats(result)

    out = Path(out)
    written = [output.write_csv(result, out)]
    if records:
        written.append(out / "records")
        output.write_records(result, out)
    if charts:
        written.extend(output.write_charts(result, stats, out))
    ladder = None
    if data is not None:
        rt.update_from_result(data, result)
        rt.save(data, ratings_path)
        ladder = rt.ladder_rows(data, plan.ladder)
    written.append(output.write_summary(result, stats, out, ladder))

    for table in output.stats_tables(stats, title=plan.ladder):
        _print_table(console, table)
    if ladder is not None:
        _print_table(console, output.ladder_table(ladder, plan.ladder))
        console.print(Text(f"Ratings updated: {ratings_path}", style="dim"), soft_wrap=True)
    rate = result.elapsed and len(result.games) / result.elapsed
    console.print(Text(f"{len(result.games)} games in {result.elapsed:.1f} s "
                       f"({rate:.1f} games/s, {result.backend})", style="dim"), soft_wrap=True)
    console.print(Text("Wrote: " + ", ".join(str(p) for p in written), style="dim"),
                  soft_wrap=True)
    return 0


def run_ratings_cmd(ratings: Path | None, ladder: str | None,
                    console: Console | None = None) -> int:
    from cardtable.sim import output, ratings as rt

    console = console or _console()
    path = ratings or rt.default_path()
    data = rt.load(path)
    ladders = sorted(data["ladders"])
    if ladder is not None:
        if ladder not in data["ladders"]:
            raise ConfigError(f"no ladder {ladder!r} in {str(path)!r} "
                              f"(ladders: {', '.join(ladders) or 'none'})")
        ladders = [ladder]
    if not ladders:
        console.print(Text(f"No ratings yet in {path}: run `cardtable tournament` first."),
                      soft_wrap=True)
        return 0
    for name in ladders:
        _print_table(console, output.ladder_table(rt.ladder_rows(data, name), name))
    return 0


def register(app: typer.Typer) -> None:
    """Add the `tournament` and `ratings` commands to `app`."""
    first = registry.games()[0]                  # the default game

    @app.command("tournament", help="Play many bot-vs-bot games in parallel: statistics, "
                 "charts, games.csv, records and rating updates.")
    def tournament_cmd(
        bots: str = typer.Option(..., "--bots", help="Bot per seat, comma-separated "
                                 "(e.g. ismcts,greedy,greedy,greedy)."),
        game: str = typer.Option(first.name, "--game", help=game_names() + "."),
        variant: Optional[str] = typer.Option(None, "--variant", help=variants_help() + "."),
        games: int = typer.Option(100, "--games", help="Number of deals (with --duplicate "
                                  "each deal is played once per seat rotation)."),
        duplicate: bool = typer.Option(False, "--duplicate", help="Play every deal once per "
                                       "seat rotation, so every bot gets every hand."),
        jobs: Optional[int] = typer.Option(None, "--jobs", help="Worker processes "
                                           "(default: the number of CPUs)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Tournament seed (default: "
                                           "random, printed)."),
        out: Path = typer.Option(Path("tournament-out"), "--out", metavar="DIR",
                                 help="Output folder."),
        records: bool = typer.Option(False, "--records", help="Save every game's record in "
                                     "DIR/records/."),
        ray: Optional[str] = typer.Option(None, "--ray", metavar="auto|local|ADDRESS",
                                          help="Run the games as Ray tasks on a cluster."),
        bot_param: Optional[List[str]] = typer.Option(None, "--bot-param",
                                                      metavar="BOT.SETTING=VALUE",
                                                      help="A bot setting, e.g. "
                                                      "ismcts.iterations=200 (repeatable; "
                                                      "BOT may be an entry like greedy#2)."),
        players: Optional[int] = typer.Option(None, "--players", help="Number of players "
                                              "(must match --bots)."),
        target: Optional[int] = typer.Option(None, "--target", help=setting_help(
                                             "target", "points that end the game.")),
        ratings: Optional[Path] = typer.Option(None, "--ratings", metavar="FILE",
                                               help="Ratings file (default: ratings.json in "
                                                    "the user data folder, e.g. "
                                                    "~/.local/share/cardtable)."),
        no_ratings: bool = typer.Option(False, "--no-ratings", help="Do not update ratings."),
        charts: bool = typer.Option(True, "--charts/--no-charts", help="Write PNG charts."),
        progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                                help="Progress bar (default: on a terminal)."),
    ) -> None:
        raise typer.Exit(run_tournament_cmd(
            game=game, variant=variant, bots=bots, games=games, duplicate=duplicate, jobs=jobs,
            seed=seed, out=out, records=records, ray=ray, bot_param=bot_param,
            players=players, target=target, ratings=ratings, no_ratings=no_ratings,
            charts=charts, progress=progress))

    @app.command("ratings", help="Show the OpenSkill rating ladder of the bots.")
    def ratings_cmd(
        ratings: Optional[Path] = typer.Option(None, "--ratings", metavar="FILE",
                                               help="Ratings file (default: ratings.json in "
                                                    "the user data folder, e.g. "
                                                    "~/.local/share/cardtable)."),
        ladder: Optional[str] = typer.Option(None, "--ladder", metavar="GAME[/VARIANT]",
                                             help=f"Only this ladder (e.g. {first.name}/{first.default_variant})."),
    ) -> None:
        raise typer.Exit(run_ratings_cmd(ratings, ladder))
