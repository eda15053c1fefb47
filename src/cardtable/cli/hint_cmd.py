"""`cardtable hint FILE`: what the strongest difficulty level (`expert`) would decide at a point
of a recorded game, for the seat to move and with only that seat's knowledge
(`cardtable.bots.hint`).

    cardtable hint game.json                      # at the end of the record
    cardtable hint game.json --upto 12            # after the first 12 actions
    cardtable hint game.json --seconds 2 --json   # wall-clock budget, JSON on stdout

The table lists every legal decision, best first, with its search rollouts and estimated win
chance. The budget is the level's own (expert: about a second) unless `--iterations` or
`--seconds` is given. `--json` prints one object:
    {"game": ..., "seat": seat to move, "awaiting": ..., "actions": actions applied,
     "level": "expert", "budget": {"iterations": n} or {"seconds": s}, "seed": n,
     "options": [{"decision": text, "visits": n, "win_chance": float}, ...]}

Errors (unreadable or malformed record, an illegal action in it, a finished game, bad options)
are CardtableError subclasses or typer.BadParameter: the `cardtable` entry point prints them as
one line and exits with status 2. `register(app)` adds the command to a Typer app.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardtable.bots.base import LEVELS, make_bot
from cardtable.bots.hint import HINT_LEVEL, hint
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import GameState
from cardtable.core.record import load_record


#: the table shows a win chance only for options searched at least this often (one or two
#: play-outs say nothing); --json gives every estimate with its visits
MIN_VISITS = 10


class HintError(CardtableError):
    """No hint possible at that point of the record (the game is over there)."""


def _load(file: str, upto: int | None) -> GameState:
    try:
        return load_record(Path(file), upto=upto)
    except CardtableError:
        raise
    except Exception as e:  # a record the engine did not foresee: still one line, exit 2
        raise RecordError(f"malformed record {file!r}: {type(e).__name__}: {e}") from None


def run_hint(file: str, upto: int | None = None, iterations: int | None = None,
             seconds: float | None = None, seed: int = 0, as_json: bool = False,
             console: Console | None = None, level: str = HINT_LEVEL) -> int:
    if iterations is not None and seconds is not None:
        raise typer.BadParameter("give --iterations or --seconds, not both")
    if upto is not None and upto < 0:
        raise typer.BadParameter(f"--upto must be 0 or more, not {upto}")
    if iterations is not None and iterations < 1:
        raise typer.BadParameter(f"--iterations must be 1 or more, not {iterations}")
    if seconds is not None and not seconds > 0:
        raise typer.BadParameter(f"--seconds must be more than 0, not {seconds}")
    searching = [name for name in LEVELS if make_bot(name).searches]
    if level not in searching:
        raise typer.BadParameter(f"--level must be a level that searches "
                                 f"({', '.join(searching)}), not {level!r}")
    if iterations is None and seconds is None:
        iterations = make_bot(level).iterations         # the level's own budget
    state = _load(file, upto)
    done = len(state.history)
    if state.over:
        raise HintError(f"the game in {file!r} is over after {done} actions: nothing to hint "
                        "(use --upto N for an earlier point)")
    seat = state.to_move
    options = hint(state, iterations=iterations, seconds=seconds, seed=seed, level=level)
    budget = {"iterations": iterations} if iterations is not None else {"seconds": seconds}
    if as_json:
        out = {"game": state.game, "seat": seat, "awaiting": state.awaiting, "actions": done,
               "level": level, "budget": budget, "seed": seed, "options": options}
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    console = console or Console(highlight=False)
    how = (f"{iterations} rollouts" if iterations is not None else f"{seconds:g} s")
    console.print(Text(f"{state.game}: seat {seat} to decide ({state.awaiting}) after {done} "
                       f"actions; {level} level, {how}, seed {seed}", style="bold"),
                  soft_wrap=True)
    table = Table(show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("decision")
    table.add_column("rollouts", justify="right")
    table.add_column("win chance", justify="right")
    for i, o in enumerate(options, 1):
        chance = f"{100 * o['win_chance']:.1f}%" if o["visits"] >= MIN_VISITS else "—"
        table.add_row(str(i), o["decision"], str(o["visits"]), chance,
                      style="bold" if i == 1 else "")
    console.print(table)
    if any(o["visits"] < MIN_VISITS for o in options):
        console.print(Text(f"—: fewer than {MIN_VISITS} visits, too few for an estimate "
                           "(more --iterations or --seconds give one)", style="dim"),
                      soft_wrap=True)
    return 0


def register(app: typer.Typer) -> None:
    """Add the `hint` command to `app`."""

    @app.command("hint", help="What the expert level would decide at a point of a recorded "
                              "game, for the seat to move, knowing only what that seat knows.")
    def hint_cmd(
        file: str = typer.Argument(..., metavar="FILE", help="A game record (JSON)."),
        upto: Optional[int] = typer.Option(None, "--upto", metavar="N",
                                           help="Only the first N actions of the record."),
        iterations: Optional[int] = typer.Option(
            None, "--iterations", metavar="N",
            help="Search rollouts (default: the level's own budget)."),
        seconds: Optional[float] = typer.Option(None, "--seconds", metavar="S",
                                                help="Search time in seconds instead."),
        level: str = typer.Option(HINT_LEVEL, "--level", help="The level that searches: "
                                  "expert (the strongest) or hard."),
        seed: int = typer.Option(0, "--seed", help="Seed of the search."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    ) -> None:
        raise typer.Exit(run_hint(file, upto, iterations, seconds, seed, as_json, level=level))
