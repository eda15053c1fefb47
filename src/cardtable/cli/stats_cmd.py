"""`cardtable stats [FILE...]`: one's own games in numbers: games and wins per rule set and
bot level, from the local history of terminal games (cli/history.py) or from saved records.

    cardtable stats                   # the history `cardtable play` keeps
    cardtable stats games/*.json      # saved records (the seat without a bot is the person's)
    cardtable stats --json

A record counts if it is finished and names exactly one person's seat (`seats`, written by
`cardtable play --save`); others are skipped and counted in a note. An unreadable record is
an error (one line, exit status 2). `register(app)` adds the command to a Typer app.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardtable.cli import history
from cardtable.cli.i18n import check_lang, default_lang, t
from cardtable.cli.play_args import load_checked
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.record import read_record, record_seats
from cardtable.i18n import level as level_word, rule_set


def from_records(files: list[str], lang: str) -> tuple[list[dict], int]:
    """History entries of the records `files`, and how many were skipped."""
    entries, skipped = [], 0
    for file in files:
        try:
            rec = read_record(file)
        except CardtableError:
            raise
        except Exception as e:  # noqa: BLE001 - one line, exit 2
            raise RecordError(t(lang, "cli.err_record", msg=f"{type(e).__name__}: {e}")) from None
        state = load_checked(rec, lang)
        seats = record_seats(rec, state.players) or []
        people = [s for s, x in enumerate(seats) if "bot" not in x]
        if not state.over or len(people) != 1:
            skipped += 1
            continue
        entries.append(history.entry(state, people[0],
                                     [x["bot"] for x in seats if "bot" in x]))
    return entries, skipped


def tally(entries: list[dict]) -> list[dict]:
    """Games and wins per (game, variant, level), in that order."""
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for e in entries:
        key = (e["game"], e.get("variant") or "", str(e.get("level") or "-"))
        counts[key][0] += 1
        counts[key][1] += bool(e["won"])
    return [{"game": g, "variant": v or None, "level": lv, "games": n, "wins": w}
            for (g, v, lv), (n, w) in sorted(counts.items())]


def _level(lang: str, text: str) -> str:
    return "+".join(level_word(lang, x) for x in text.split("+"))


def run_stats(files: list[str] | None = None, lang: str | None = None, as_json: bool = False,
              console: Console | None = None) -> int:
    lang = check_lang(lang)
    if files:
        entries, skipped = from_records(files, lang)
        source = t(lang, "stats.from_records", n=len(files))
    else:
        entries, skipped = history.read(), 0
        source = t(lang, "stats.from_history", path=str(history.history_path()))
    rows = tally(entries)
    if as_json:
        sys.stdout.write(json.dumps({"games": len(entries), "skipped": skipped,
                                     "rows": rows}) + "\n")
        return 0
    console = console or Console(highlight=False)
    console.print(Text(source, style="dim"))
    if not entries:
        console.print(t(lang, "stats.none"))
    else:
        table = Table(show_edge=False, pad_edge=False)
        for key, right in (("stats.col_game", False), ("stats.col_level", False),
                           ("stats.col_games", True), ("stats.col_wins", True),
                           ("stats.col_rate", True)):
            table.add_column(t(lang, key), justify="right" if right else "left")
        for r in rows:
            table.add_row(rule_set(lang, r["game"], r["variant"]), _level(lang, r["level"]),
                          str(r["games"]), str(r["wins"]), f"{100 * r['wins'] / r['games']:.0f}%")
        wins = sum(r["wins"] for r in rows)
        table.add_row(Text(t(lang, "stats.total"), style="bold"), "", str(len(entries)),
                      str(wins), f"{100 * wins / len(entries):.0f}%", end_section=True)
        console.print(table)
    if skipped:
        console.print(Text(t(lang, "stats.skipped", n=skipped), style="dim"))
    return 0


def register(app: typer.Typer) -> None:
    """Add the `stats` command to `app`."""
    lang = default_lang()

    @app.command("stats", help=t(lang, "help.stats"))
    def stats_cmd(
        files: Optional[List[str]] = typer.Argument(None, metavar="[FILE]...",
                                                    help=t(lang, "help.stats_files")),
        lang_: Optional[str] = typer.Option(None, "--lang", help=t(lang, "help.lang")),
        as_json: bool = typer.Option(False, "--json", help=t(lang, "help.stats_json")),
    ) -> None:
        raise typer.Exit(run_stats(files or None, lang_, as_json))
