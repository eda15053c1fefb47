"""Game records (NOTATION.md): load, validate, replay; the registry of games."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Iterator

from cardtable.core import registry
from cardtable.core.errors import (CardtableError, ConfigError, IllegalDecision, RecordError,
                                    coded)
from cardtable.core.game import GameState


class _Engines(Mapping):
    """game name -> engine module name, read from the registry (core/registry.py) on use."""

    def __getitem__(self, name: str) -> str:
        if name not in registry.names():
            raise KeyError(name)
        return registry.info(name).engine

    def __iter__(self) -> Iterator[str]:
        return iter(registry.names())

    def __len__(self) -> int:
        return len(registry.names())


#: game name -> module implementing `new_game(**options)` and `from_record(record)` (and, if it
#: wants, `replay_hint(record, state)`: a sentence added to the reason of an illegal action, and
#: `replay_notes(record)`: what a replay says first, as catalog codes with parameters).
#: A view of the registry kept for the server (the games are declared in their packages).
GAMES: Mapping[str, str] = _Engines()


def game_module(name: str):
    """The engine module of game `name` (ConfigError for an unknown one)."""
    return registry.info(name).module("engine")


def new_game(game: str, **options) -> GameState:
    """Create a game by its name: `new_game(name, variant=..., players=2, seed=7)`."""
    return game_module(game).new_game(**options)


class ReplayError(CardtableError):
    """An action of a record is illegal where it stands."""

    def __init__(self, index: int, action: Any, reason: str):
        self.index = index
        self.action = action
        self.reason = reason
        super().__init__(f"action {index} ({action!r}) is illegal: {reason}")


#: the largest record (bytes of JSON) `read_record` reads from a file, a text or bytes, and the
#: largest body the server's replay API takes (server/security.MAX_REPLAY_BODY is this one):
#: about 12 bytes an action (14 as save_record indents it), so a record of 20,000 actions (the
#: most the replay API replays) is about 280 KB; a record is read whole into memory and parsed
#: (a 56 MB one took 602 MB)
MAX_RECORD_BYTES = 512 * 1024


def _too_big(size: int) -> RecordError:
    kib = -(-size // 1024)
    return RecordError(f"the record has {kib} KiB: a record may have at most "
                       f"{MAX_RECORD_BYTES // 1024} KiB", code="record.too_big",
                       params={"size": kib, "most": MAX_RECORD_BYTES // 1024})


def _read_file(path: Path) -> str:
    """The text of record file `path`, refused (RecordError) if it has more than
    MAX_RECORD_BYTES: by its size before anything is read, and by what it gives (a pipe or a
    file that grows has no size to trust)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                raise _too_big(size)
            data = f.read(MAX_RECORD_BYTES + 1)
            if len(data) > MAX_RECORD_BYTES:
                raise _too_big(max(size, len(data)))
    except OSError as e:
        code = {errno.ENOENT: "record.missing", errno.EACCES: "record.denied",
                errno.EISDIR: "record.folder"}.get(e.errno, "record.unreadable")
        raise coded(RecordError, code, path=repr(str(path)), why=e.strerror) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"record file {str(path)!r} is not UTF-8 text") from None


def read_record(source: str | Path | dict) -> dict:
    """Parse a record from a dict, a JSON text (str or UTF-8 bytes) or a file path; check its
    outer shape. Anything else is a RecordError, and so is a file, text or bytes of more than
    MAX_RECORD_BYTES (checked before the file is read or the text parsed; a dict is taken as
    it is)."""
    if isinstance(source, dict):
        rec = source
    elif isinstance(source, (bytes, bytearray)):
        if len(source) > MAX_RECORD_BYTES:
            raise _too_big(len(source))
        try:
            return read_record(bytes(source).decode("utf-8"))
        except UnicodeDecodeError:
            raise RecordError("a record's bytes are not UTF-8 text") from None
    elif not isinstance(source, (str, Path)):
        raise RecordError("a record is a dict, a JSON text or a file path, not "
                          f"{type(source).__name__}")
    else:
        if isinstance(source, str) and len(source) > MAX_RECORD_BYTES // 4:  # maybe too big
            size = len(source) if len(source) > MAX_RECORD_BYTES else \
                len(source.encode("utf-8", "surrogatepass"))
            if size > MAX_RECORD_BYTES:
                raise _too_big(size)
        if isinstance(source, Path) or source.lstrip()[:1] not in ("{", "["):
            text = _read_file(Path(source))
        else:
            text = source
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as e:
            raise coded(RecordError, "record.json", line=e.lineno, col=e.colno) from None
    if not isinstance(rec, dict):
        raise RecordError("a record must be a JSON object")
    game = rec.get("game")
    if not isinstance(game, str):
        raise RecordError(f'the record has no "game" ({" or ".join(registry.names())})')
    if game not in registry.names():
        raise coded(RecordError, "cfg.unknown_game", name=repr(game),
                    known=", ".join(sorted(registry.names())))
    actions = rec.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError('"actions" must be a list of decision texts')
    _check_seats(rec.get("seats"))
    if "rules_version" in rec:                      # optional (NOTATION.md)
        registry.check_rules_version(game, rec["rules_version"])
    return rec


#: the longest seat name a record may carry
SEAT_NAME_MAX = 64


def _check_seats(seats: Any) -> None:
    """`seats` (optional): one object per seat, {"name": ...} or {"name": ..., "bot": ...}."""
    if seats is None:
        return
    if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
        raise RecordError('"seats" must be a list of objects, one per seat, e.g. '
                          '[{"name": "Ann"}, {"name": "Bot 2", "bot": "expert"}]')
    for i, x in enumerate(seats):
        name = x.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > SEAT_NAME_MAX:
            raise RecordError(f'seat {i} of "seats" needs a "name" of 1 to {SEAT_NAME_MAX} '
                              "characters")
        if "bot" in x and (not isinstance(x["bot"], str) or not x["bot"].strip()):
            raise RecordError(f'seat {i} of "seats": "bot" names a bot or level, e.g. "expert"')


def record_seats(rec: dict, players: int) -> list[dict] | None:
    """The `seats` of a record read by `read_record`, checked against the player count
    (RecordError if there are not `players` of them); None if the record has none."""
    seats = rec.get("seats")
    if seats is None:
        return None
    if len(seats) != players:
        raise RecordError(f'"seats" names {len(seats)} seats, the game has {players}')
    return [dict(x) for x in seats]


def load_record(source: str | Path | dict, upto: int | None = None) -> GameState:
    """Build the state a record describes (its deal, then its actions, or the first `upto`).

    Raises RecordError for a malformed record and ReplayError for an illegal action."""
    rec = read_record(source)
    module = game_module(rec["game"])
    try:
        state = module.from_record(rec)
    except ConfigError as e:
        raise RecordError(str(e)) from None
    record_seats(rec, state.players)
    actions = rec.get("actions", [])
    if upto is not None:
        actions = actions[:upto]
    for i, action in enumerate(actions):
        if state.over:
            raise ReplayError(i, action, "the game is already over")
        try:
            state.apply(action)
        except IllegalDecision as e:
            hint = getattr(module, "replay_hint", None)     # a game's advice, e.g. on old records
            extra = hint(rec, state) if hint else None
            raise ReplayError(i, action, f"{e.reason}; {extra}" if extra else e.reason) from None
    return state


def replay_notes(rec: dict) -> list[tuple[str, dict]]:
    """What a replay of the checked record `rec` should say before its actions, as catalog codes
    with parameters: the game's `replay_notes(record)` if it has one (e.g. a record of an older
    rules version replays with the reading of its time)."""
    notes = getattr(game_module(rec["game"]), "replay_notes", None)
    return list(notes(rec)) if notes else []


def save_record(state: GameState, path: str | Path, seats: list[dict] | None = None) -> None:
    """Write the record of `state`, with `seats` (who played each seat, NOTATION.md) if
    given."""
    rec = state.record()
    if seats is not None:
        _check_seats(seats)
        rec["seats"] = record_seats({"seats": seats}, state.players)
    Path(path).write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
