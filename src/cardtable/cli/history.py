"""The local history of terminal games: one JSON line per finished game of `cardtable play`,
appended to `history.jsonl` in the user data folder (platformdirs: ~/.local/share/cardtable on
Linux, ~/Library/Application Support/cardtable on macOS, %LOCALAPPDATA%\\cardtable on Windows;
`CARDTABLE_DATA` overrides the folder, as for the ratings). `cardtable stats` reads it.

    {"game": "abluxxen", "variant": "basic", "players": 4, "seed": 7, "seat": 0,
     "level": "medium", "won": true, "at": "2026-11-29T14:40:00+00:00"}

`level` is the level of the bots played against (their common level, else their levels joined
by "+", "easy+hard"); `won` is true for a win shared with others too. Entries the reader does
not understand are skipped: the file is the user's, not a record of the game.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

FILE = "history.jsonl"
#: the language each saved game was played in (`--resume` plays on in it): the record has no
#: place for it (NOTATION.md's `seats` holds a name and a bot), so the terminal keeps it here
LANGS_FILE = "languages.json"
#: the saved games whose language is kept (the most recent)
LANGS_KEPT = 500


def data_folder() -> Path:
    """`CARDTABLE_DATA`, else the user data folder."""
    folder = os.environ.get("CARDTABLE_DATA")
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_path("cardtable", appauthor=False)
    return Path(folder)


def history_path() -> Path:
    """The history file: `CARDTABLE_DATA`/history.jsonl, else in the user data folder."""
    return data_folder() / FILE


def _langs() -> dict:
    try:
        data = json.loads((data_folder() / LANGS_FILE).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def remember_lang(record: Path, lang: str) -> None:
    """Keep that the game saved in `record` was played in `lang` (quietly nothing if the data
    folder cannot be written: the game is saved all the same)."""
    langs = _langs()
    langs.pop(str(record.resolve()), None)
    langs[str(record.resolve())] = lang
    keep = dict(list(langs.items())[-LANGS_KEPT:])
    try:
        folder = data_folder()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LANGS_FILE).write_text(json.dumps(keep), encoding="utf-8")
    except OSError:
        pass


def lang_of(record: Path) -> str | None:
    """The language the game saved in `record` was played in, if this terminal kept it."""
    found = _langs().get(str(record.resolve()))
    return found if isinstance(found, str) else None


def versus(levels: Iterable[str]) -> str:
    """The level played against: the bots' common level, else their levels joined by "+"."""
    found = sorted(set(levels))
    return "+".join(found) if found else "-"


def entry(state, seat: int, levels: Iterable[str]) -> dict:
    """The history entry of the finished game `state`, played by the person at `seat` against
    bots of `levels`."""
    view = state.view(None)
    return {"game": state.game, "variant": view.get("variant"), "players": state.players,
            "seed": state.seed, "seat": seat, "level": versus(levels),
            "won": seat in (view.get("winners") or []),
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def append(item: dict, path: Path | None = None) -> Path:
    """Add `item` as one line to the history (the folder is made if missing). OSError if it
    cannot be written."""
    path = path or history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(item) + "\n")
    return path


def read(path: Path | None = None) -> list[dict]:
    """The entries of the history (none if there is no file yet)."""
    path = path or history_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and isinstance(item.get("game"), str) and \
                isinstance(item.get("won"), bool):
            out.append(item)
    return out
