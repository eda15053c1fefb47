"""`cardtable review FILE`: the review of a finished game (`cardtable.bots.review`,
docs/review.md): for each human seat (or `--seat N`), the decisions that cost the most and an
accuracy figure, judged from that seat's view only.

    cardtable review game.json                     # every human seat, a table per seat
    cardtable review game.json --seat 2 --lang de
    cardtable review game.json --json --budget 80 --seed 3

The table lists the marked decisions: the move (the action's number in the record, from 1),
the decision chosen, the best one, and the loss in points of win chance with its 95%
interval. `--json` prints the review object of docs/review.md (every reviewed decision with
its options). A progress bar runs on standard error while the review runs in a terminal.

Errors (an unreadable or malformed record, an unfinished game, a seat not in the game, a bad
budget) are CardtableErrors worded in the chosen language: `cardtable` prints one line and
exits with status 2. `register(app)` adds the command to a Typer app.
"""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from cardtable.bots.review import ReviewError, budget_for, review
from cardtable.cli.games import seat_number
from cardtable.cli.i18n import check_lang, default_lang, seat_name, t
from cardtable.i18n import rule_set
from cardtable.core.errors import CardtableError, ConfigError, RecordError
from cardtable.core.record import ReplayError, read_record


def _pts(x: float | None) -> str:
    """A win-chance difference (0..1) as signed points, e.g. +12.3."""
    return "?" if x is None else f"{100 * x:+.1f}"


def run_review(file: str, seat: int | None = None, as_json: bool = False,
               lang: str | None = None, seed: int = 0, budget: int | None = None,
               console: Console | None = None, progress: bool | None = None) -> int:
    lang = check_lang(lang)
    if budget is not None and budget < 2:
        raise ConfigError(t(lang, "review.err_budget", n=budget))
    try:
        rec = read_record(file)
    except RecordError as e:
        raise ConfigError(e.words(lang)) from None
    except CardtableError:
        raise
    except Exception as e:  # noqa: BLE001 - a record the engine did not foresee: one line
        raise ConfigError(t(lang, "cli.err_record", msg=f"{type(e).__name__}: {e}")) from None
    rollouts = budget if budget is not None else budget_for(rec["game"])
    if progress is None:
        progress = sys.stderr.isatty()
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   console=Console(stderr=True), transient=True, disable=not progress)
    task = bar.add_task(t(lang, "review.progress"), total=None)
    try:
        with bar:
            out = review(rec, seats=None if seat is None else [seat], rollouts=rollouts,
                         seed=seed, progress=lambda d, n: bar.update(task, completed=d, total=n))
    except ReviewError as e:
        raise ConfigError(t(lang, "review.err_" + e.code.split(".")[-1], **e.params)) from None
    except ReplayError as e:
        raise ConfigError(t(lang, "cli.err_record", msg=str(e))) from None
    except RecordError as e:
        raise ConfigError(e.words(lang)) from None
    except CardtableError:
        raise
    except Exception as e:  # noqa: BLE001 - as above
        raise ConfigError(t(lang, "cli.err_record", msg=f"{type(e).__name__}: {e}")) from None
    if as_json:
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    console = console or Console(highlight=False)
    console.print(Text(t(lang, "review.head", game=rule_set(lang, out["game"], rec.get("variant")), n=out["actions"],
                         rollouts=rollouts, seed=seed), style="bold"), soft_wrap=True)
    for s in out["seats"]:
        name = seat_name(s["name"], s["seat"], lang)
        console.print()
        if s["accuracy"] is None:
            console.print(Text(t(lang, "review.seat_none", name=name,
                                 seat=seat_number(out["game"], s["seat"])),
                               style="bold"))
            continue
        console.print(Text(t(lang, "review.seat", name=name,
                             seat=seat_number(out["game"], s["seat"]),
                             accuracy=f"{s['accuracy']:.1f}", n=s["reviewed"],
                             marked=len(s["marked"])), style="bold"))
        rows = [d for d in s["decisions"] if d["marked"]]
        if not rows:
            console.print(t(lang, "review.clean"))
            continue
        table = Table(show_edge=False, pad_edge=False)
        table.add_column(t(lang, "review.col_move"), justify="right")
        table.add_column(t(lang, "review.col_chosen"), overflow="fold")
        table.add_column(t(lang, "review.col_best"), overflow="fold")
        table.add_column(t(lang, "review.col_loss"), justify="right")
        table.add_column(t(lang, "review.col_interval"), justify="right")
        for d in rows:
            low, high = d["interval"]
            table.add_row(str(d["index"] + 1), d["chosen"], d["best"], _pts(d["loss"]),
                          f"{_pts(low)} … {_pts(high)}")
        console.print(table)
    console.print()
    console.print(Text(t(lang, "review.legend", mark=_pts(out['mark'])), style="dim"))
    return 0


def register(app: typer.Typer) -> None:
    """Add the `review` command to `app`."""
    lang = default_lang()

    @app.command("review", help=t(lang, "help.review"))
    def review_cmd(
        file: str = typer.Argument(..., metavar="FILE", help=t(lang, "help.file")),
        seat: Optional[int] = typer.Option(None, "--seat", metavar="N",
                                           help=t(lang, "help.review_seat")),
        as_json: bool = typer.Option(False, "--json", help=t(lang, "help.review_json")),
        lang_: Optional[str] = typer.Option(None, "--lang", help=t(lang, "help.lang")),
        seed: int = typer.Option(0, "--seed", help=t(lang, "help.review_seed")),
        budget: Optional[int] = typer.Option(None, "--budget", metavar="N",
                                             help=t(lang, "help.review_budget")),
    ) -> None:
        raise typer.Exit(run_review(file, seat, as_json, lang_, seed, budget))
