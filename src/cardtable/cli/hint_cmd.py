"""`cardtable hint FILE`: what the strongest difficulty level (`expert`) would decide at a point
of a recorded game, for the seat to move and with only that seat's knowledge
(`cardtable.bots.hint`).

    cardtable hint game.json                      # at the end of the record
    cardtable hint game.json --upto 12            # after the first 12 actions
    cardtable hint game.json --seconds 2 --json   # wall-clock budget, JSON on stdout

The table lists every legal decision ranked by its estimated win chance (ties: the search's
mean score) with its 95% interval (Wilson), its search play-outs beside it, and "uncertain"
where an option was searched far less than the best-sampled one; `*` marks the level's own decision (not
always the first: bots/hint.py). `--lang de|en` chooses the language of the table and the
errors. The budget is the level's own (expert: about a second) unless `--iterations` or
`--seconds` is given. `--json` prints one object:
    {"game": ..., "seat": seat to move, "awaiting": ..., "actions": actions applied,
     "level": "expert", "budget": {"iterations": n} or {"seconds": s}, "seed": n,
     "options": [{"decision": text, "visits": n, "win_chance": float,
                  "level_choice": bool}, ...]}

Errors (unreadable or malformed record, an illegal action in it, a finished game, bad options)
are CardtableError subclasses or typer.BadParameter: the `cardtable` entry point prints them as
one line and exits with status 2. `register(app)` adds the command to a Typer app.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardtable.bots.base import LEVELS, make_bot
from cardtable.bots.hint import HINT_LEVEL, MIN_VISITS, hint
from cardtable.cli.games import seat_number
from cardtable.cli.i18n import check_lang, t
from cardtable.i18n import level as level_word, rule_set
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import GameState
from cardtable.core.record import load_record




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
             console: Console | None = None, level: str = HINT_LEVEL,
             lang: str | None = None) -> int:
    lang = check_lang(lang)
    if iterations is not None and seconds is not None:
        raise typer.BadParameter(t(lang, "hint.err_both"))
    if upto is not None and upto < 0:
        raise typer.BadParameter(t(lang, "hint.err_min", option="--upto", min=0, value=upto))
    if iterations is not None and iterations < 1:
        raise typer.BadParameter(t(lang, "hint.err_min", option="--iterations", min=1,
                                   value=iterations))
    if seconds is not None and not seconds > 0:
        raise typer.BadParameter(t(lang, "hint.err_seconds", value=seconds))
    searching = [name for name in LEVELS if make_bot(name).searches]
    if level not in searching:
        raise typer.BadParameter(t(lang, "hint.err_level", levels=", ".join(searching),
                                   value=repr(level)))
    if iterations is None and seconds is None:
        iterations = make_bot(level).iterations         # the level's own budget
    state = _load(file, upto)
    done = len(state.history)
    if state.over:
        raise HintError(t(lang, "hint.err_over", file=repr(file), n=done))
    seat = state.to_move
    options = hint(state, iterations=iterations, seconds=seconds, seed=seed, level=level)
    budget = {"iterations": iterations} if iterations is not None else {"seconds": seconds}
    if as_json:
        out = {"game": state.game, "seat": seat, "awaiting": state.awaiting, "actions": done,
               "level": level, "budget": budget, "seed": seed, "options": options}
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    console = console or Console(highlight=False)
    how = (t(lang, "hint.rollouts", n=iterations) if iterations is not None
           else t(lang, "hint.seconds", s=f"{seconds:g}"))
    console.print(Text(t(lang, "hint.head", game=rule_set(lang, state.game,
                                                        state.view(None).get("variant")), seat=seat_number(state.game, seat),
                         awaiting=state.awaiting,
                         n=done, level=level_word(lang, level), budget=how, seed=seed),
                       style="bold"), soft_wrap=True)
    print_options(console, options, lang, level)
    return 0


#: the options the terminal game's `hint` shows (its `hint all` shows every one)
TOP = 5
#: an option searched with fewer than 1/UNCERTAIN of the best-sampled option's play-outs is
#: marked uncertain: its estimate rests on far less than the others'
UNCERTAIN = 4
#: the normal quantile of a two-sided 95% interval
Z95 = 1.96


def interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95%) of a win share `p` estimated from `n` play-outs."""
    if n <= 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def print_options(console: Console, options: list[dict], lang: str,
                  level: str = HINT_LEVEL, few: str = "hint.few", top: int | None = None,
                  more: str | None = None) -> None:
    """`hint`'s table of ranked options (also the terminal game's `hint`, cli/coach.py): rank,
    decision, estimated win chance with its 95% interval, play-outs, and "uncertain" for an
    option searched far less than the best-sampled one. `top`: only the first `top` rows and
    the level's own choice (marked `*`, below them if not among them); `more`: the catalog key
    of the note saying how to see the rest (given `n`, the number of options). The notes are
    wrapped at the console's width, between words."""
    most = max((o["visits"] for o in options), default=0)
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(t(lang, "hint.col_decision"))
    table.add_column(t(lang, "hint.col_win"), justify="right")
    table.add_column(t(lang, "hint.col_rollouts"), justify="right")
    shown = list(enumerate(options, 1))
    if top is not None and len(options) > top:
        shown = shown[:top] + [(i, o) for i, o in shown[top:] if o["level_choice"]]
    rows = []
    for i, o in shown:
        if o["visits"] >= MIN_VISITS:
            lo, hi = interval(o["win_chance"], o["visits"])
            chance = t(lang, "hint.estimate", p=f"{100 * o['win_chance']:.0f}",
                       lo=f"{100 * lo:.0f}", hi=f"{100 * hi:.0f}")
        else:
            chance = "—"
        note = t(lang, "hint.uncertain") if (o["visits"] < MIN_VISITS
                                             or o["visits"] * UNCERTAIN < most) else ""
        mark = "*" if o["level_choice"] else ""
        rows.append((i, [f"{mark}{i}", o["decision"], chance, str(o["visits"]), note]))
    notes_column = any(cells[-1] for _, cells in rows)
    if notes_column:                    # (an empty column would still draw its rule)
        table.add_column("")
    for i, cells in rows:
        table.add_row(*(cells if notes_column else cells[:-1]), style="bold" if i == 1 else "")
    console.print(table)
    notes = [t(lang, "hint.mine", level=level_word(lang, level))]
    if more and len(shown) < len(options):
        notes.append(t(lang, more, n=len(options)))
    console.print(Text("; ".join(notes), style="dim"))
    if any(o["visits"] < MIN_VISITS for _, o in shown):
        console.print(Text(t(lang, few, n=MIN_VISITS), style="dim"))


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
        lang: Optional[str] = typer.Option(None, "--lang", help="Language: de or en "
                                           "(default: from LANG / LC_ALL)."),
    ) -> None:
        raise typer.Exit(run_hint(file, upto, iterations, seconds, seed, as_json, level=level,
                                  lang=lang))
