"""`cardtable analyze`: variant analytics from many bot games per configuration
(cardtable.sim.analytics), a Markdown report with PNG charts. `register(app)` adds the command.

    cardtable analyze --game all --bots greedy --games 100000 --jobs 2 --out analytics/
    cardtable analyze --game abluxxen --variant duel --games 20000 --ray local

Bad arguments raise core.errors.ConfigError (main() prints one line, exit status 2).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.text import Text

from cardtable.cli.games import game_names, variants_help
from cardtable.core.errors import ConfigError


def _ints(text: str | None, what: str) -> list[int] | None:
    if not text:
        return None
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"{what} must be comma-separated whole numbers, not {text!r}") from None


def run_analyze_cmd(*, game: str, variant: str | None, players: str | None, bots: str,
                    games: int, jobs: int | None, seed: int, out: Path, ray: str | None,
                    resume: bool, charts: bool, report: Path | None,
                    progress: bool | None = None, command: str = "",
                    report_only: bool = False, note: str = "") -> int:
    from cardtable.sim import analytics as an
    from cardtable.sim.analytics_report import write_report
    from cardtable.sim.tournament import default_jobs

    console = Console(highlight=False, stderr=False)
    if games < 1:
        raise ConfigError(f"--games must be at least 1, not {games}")
    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    names = an.check_bots(bots.split(","))
    variants = [v.strip() for v in variant.split(",")] if variant else None
    configs = an.default_configs(game.strip().lower(), names, variants,
                                 _ints(players, "--players"))
    run = an.AnalyzeRun(configs=configs, games=games, seed=seed,
                        jobs=default_jobs() if jobs is None else jobs, ray=ray or None,
                        out=Path(out), resume=resume, charts=charts, command=command)
    try:
        run.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"cannot create the output folder {str(out)!r}: {e.strerror}") from None
    if report_only:
        run.summaries = an.saved_summaries(run.out, configs)
        if not run.summaries:
            raise ConfigError(f"no saved configuration in {str(out)!r}/configs to report on")
        path = write_report(run.summaries, run.out, "", charts=charts, note=note)
        if report is not None:
            _publish(run.summaries, run.out, Path(report), "", charts, note)
            path = Path(report)
        console.print(Text(f"Report of {len(run.summaries)} configurations: {path}"),
                      soft_wrap=True)
        return 0
    if progress is None:
        progress = sys.stderr.isatty()
    console.print(Text(f"Analyze: {len(configs)} configurations × {games:,} games, bots "
                       f"{', '.join(names)}, seed {seed}, "
                       + (f"Ray ({ray})" if ray else f"{run.jobs} processes"), style="bold"),
                  soft_wrap=True)

    def tick(cfg, done, total):
        if progress and (done == total or done % 1000 < 200):
            sys.stderr.write(f"\r{cfg.label}: {done:,}/{total:,} games ")
            sys.stderr.flush()

    def after(r):
        s = r.summaries[-1]
        console.print(Text(f"{s['label']}: {s['games']:,} games, {s['cpu_seconds']:.0f} s CPU",
                           style="dim"), soft_wrap=True)
        write_report(r.summaries, r.out, command, charts=False)

    an.run_analysis(run, progress=tick, after_config=after)
    path = write_report(run.summaries, run.out, command, charts=charts, note=note)
    if report is not None:
        _publish(run.summaries, run.out, Path(report), command, charts, note)
        path = Path(report)
    console.print(Text(f"Report: {path}", style="dim"), soft_wrap=True)
    return 0


def _publish(summaries, out: Path, report: Path, command: str, charts: bool,
             note: str = "") -> None:
    """Write the Markdown to `report` with its charts in a folder beside it (docs/analytics/)."""
    import shutil

    from cardtable.sim.analytics_report import markdown, write_charts

    folder = report.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    names = write_charts(summaries, folder) if charts else []
    text = markdown(summaries, command, [f"{folder.name}/{n}" for n in names], note)
    report.write_text(text, encoding="utf-8")
    shutil.copy(report, out / "report.md") if report.resolve() != (out / "report.md").resolve() \
        else None


def register(app: typer.Typer) -> None:
    @app.command("analyze", help="Variant analytics: many bot games per rule set and player "
                 "count (start seat, length, endings and each game's own figures: abluxxes, "
                 "rule options, jokers; rounds, calls, snaps), a Markdown report with charts.")
    def analyze_cmd(
        game: str = typer.Option("all", "--game", help=game_names(more=("all",)) + "."),
        variant: Optional[str] = typer.Option(None, "--variant", help=variants_help(
                                              "rule sets") + ", comma-separated (default: all)."),
        players: Optional[str] = typer.Option(None, "--players", help="Player counts, "
                                              "comma-separated (default: all)."),
        bots: str = typer.Option("greedy", "--bots", help="One bot or level for every seat, "
                                 "or one per seat, comma-separated."),
        games: int = typer.Option(10000, "--games", help="Games per configuration."),
        jobs: Optional[int] = typer.Option(None, "--jobs", help="Worker processes "
                                           "(default: the number of CPUs)."),
        seed: int = typer.Option(1, "--seed", help="Seed of every deal and bot."),
        out: Path = typer.Option(Path("analytics-out"), "--out", metavar="DIR",
                                 help="Output folder (report.md, charts, configs/*.json)."),
        ray: Optional[str] = typer.Option(None, "--ray", metavar="auto|local|ADDRESS",
                                          help="Run the games as Ray tasks."),
        resume: bool = typer.Option(False, "--resume", help="Keep configurations already "
                                    "finished in DIR/configs with the same games, seed, bots."),
        charts: bool = typer.Option(True, "--charts/--no-charts", help="Write PNG charts."),
        report: Optional[Path] = typer.Option(None, "--report", metavar="FILE.md",
                                              help="Also publish the report here, its charts "
                                              "in a folder of the same name (docs/analytics.md)."),
        progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                                help="Progress on stderr (default: on a "
                                                "terminal)."),
        report_only: bool = typer.Option(False, "--report-only", help="Play nothing: rebuild "
                                         "the report from DIR/configs (runs of several "
                                         "commands together)."),
        note: str = typer.Option("", "--note", help="A paragraph for the report (e.g. why "
                                 "these bots and game counts)."),
    ) -> None:
        command = "cardtable " + " ".join(shlex.quote(a) for a in sys.argv[1:]) \
            if sys.argv and sys.argv[0].endswith("cardtable") else ""
        raise typer.Exit(run_analyze_cmd(
            game=game, variant=variant, players=players, bots=bots, games=games, jobs=jobs,
            seed=seed, out=out, ray=ray, resume=resume, charts=charts, report=report,
            progress=progress, command=command, report_only=report_only, note=note))
