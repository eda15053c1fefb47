"""`cardtable replay FILE`: a recorded game step by step in words (or its final state as JSON,
`--json`, the replay contract of docs/notation.md), as everybody or as one seat (`--as`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from cardtable.cli.games import ui_module
from cardtable.cli.i18n import check_lang, default_lang, seat_name, t
from cardtable.cli.play_args import check_seat, load_checked
from cardtable.cli.prompt import Prompter
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.record import read_record, record_seats, replay_notes
from cardtable.i18n import level, rule_set


def run_replay(file: str, as_json: bool, seat: int | None, pause: bool | None, lang) -> int:
    from cardtable.cli.main import QUIT_WORDS, say_line   # the terminal's frame

    lang = check_lang(lang)
    source = Path(file)
    if as_json:
        state = load_checked(source, lang)
        check_seat(seat, state, lang)
        sys.stdout.write(json.dumps(state.view(seat)) + "\n")
        return 0
    try:
        rec = read_record(source)
    except CardtableError:
        raise
    except Exception as e:
        raise RecordError(t(lang, "cli.err_record", msg=f"{type(e).__name__}: {e}")) from None
    load_checked(rec, lang)                           # the whole record first: errors before any output
    ui = ui_module(rec["game"], lang)
    state = load_checked(rec, lang, upto=0)
    check_seat(seat, state, lang)
    console = Console(highlight=False)
    seats = record_seats(rec, state.players)         # who played (NOTATION.md), if recorded
    names = [seat_name(seats[s]["name"] if seats else None, s, lang)
             for s in range(state.players)]
    actions = rec.get("actions", [])
    variant = state.view(None).get("variant") or ""
    say_line(console, t(lang, "cli.replay_head", game=rule_set(lang, rec["game"], variant),
                    players=state.players, seed=rec.get("seed", 0), n=len(actions)), "bold")
    base = getattr(ui, "SEAT_BASE", 1)          # the seat numbers people read (games.py)
    say_line(console, t(lang, "cli.players", players=", ".join(
        t(lang, "cli.bot_seat", name=names[s], seat=s + base, kind=level(lang, seats[s]["bot"]))
        if seats and seats[s].get("bot") else t(lang, "cli.player_seat", name=names[s],
                                                seat=s + base)
        for s in range(state.players))))
    if seat is not None:
        say_line(console, t(lang, "cli.replay_as", name=names[seat], seat=seat + base))
    for code, params in replay_notes(rec):          # e.g. played under an older reading
        say_line(console, t(lang, code, **params), "yellow")
    if pause is None:
        pause = sys.stdout.isatty() and sys.stdin.isatty()
    skip = 0                                   # actions still to show without a pause
    prompter = Prompter()
    for i, action in enumerate(actions):
        before = state.view(seat)
        actor = state.to_move
        state.apply(action)
        text = state.history[-1]
        line = ui.describe(before, text, state.view(seat), actor, seat, names, lang)
        if line:                     # empty: hidden from `seat` (another's snap answer, KO-10)
            line = line.replace("\n", "\n     ")        # further lines under the first one
            # numbered from 1 for people, as `review` numbers them (the record counts from 0)
            say_line(console, t(lang, "cli.replay_step", i=f"{i + 1:>3}", line=line))
        if skip:
            skip -= 1
        elif pause and i + 1 < len(actions):
            console.print(ui.render(state.view(seat), seat, names, lang))   # where it stands
            try:
                answer = prompter.ask_line(t(lang, "cli.replay_pause")).strip().lower()
            except EOFError:
                answer = "c"
            if answer in QUIT_WORDS:
                say_line(console, t(lang, "cli.replay_stopped"))
                return 0
            if answer in ("c", "all", "alle"):    # on to the end without pauses
                pause = False
            elif answer.isdigit() and int(answer) > 1:
                skip = int(answer) - 1
    console.rule(t(lang, "cli.replay_final"))
    console.print(ui.render(state.view(seat), seat, names, lang))
    if state.over:
        console.print(ui.summary(state.view(None), names, lang))
    else:
        say_line(console, ui.why(state.view(seat), seat, names, lang), "bold")
        say_line(console, t(lang, "cli.replay_unfinished"), "dim")
    return 0


def register(app: typer.Typer) -> None:
    """Add the `replay` command to `app`."""
    _L = default_lang()

    @app.command("replay", help=t(_L, "help.replay"))
    def replay_cmd(
        file: str = typer.Argument(..., metavar="FILE", help=t(_L, "help.file")),
        as_json: bool = typer.Option(False, "--json", help=t(_L, "help.json")),
        seat: Optional[int] = typer.Option(None, "--as", metavar="SEAT", help=t(_L, "help.as")),
        pause: Optional[bool] = typer.Option(None, "--pause/--no-pause", help=t(_L, "help.pause")),
        lang: Optional[str] = typer.Option(None, "--lang", help=t(_L, "help.lang")),
    ) -> None:
        raise typer.Exit(run_replay(file, as_json, seat, pause, lang))
