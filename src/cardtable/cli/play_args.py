"""What `cardtable play` and `cardtable replay` take from the command line and check before a
game starts: the rule options of `--option`, the `--save` path, the record of `--resume`, a
record to replay and the seat it is seen as. Every refusal is a ConfigError or RecordError in
the player's language (one line, exit status 2)."""

from __future__ import annotations

import os
from pathlib import Path

from cardtable.cli.i18n import check_lang, t
from cardtable.core import registry
from cardtable.core.errors import CardtableError, ConfigError, RecordError
from cardtable.core.game import GameState
from cardtable.core.record import load_record, read_record, record_seats


def load_checked(source, lang: str, upto: int | None = None) -> GameState:
    """core.load_record, with any unforeseen failure of a malformed record as a RecordError."""
    try:
        return load_record(source, upto=upto)
    except CardtableError:
        raise
    except Exception as e:  # a record the engine did not foresee: still one line, exit 2
        raise RecordError(t(lang, "cli.err_record", msg=f"{type(e).__name__}: {e}")) from None


def check_seat(seat: int | None, state: GameState, lang: str) -> None:
    """Refuse an `--as SEAT` the game does not have (ConfigError: exit 2)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ConfigError(t(lang, "cli.err_as", seat=seat, players=state.players,
                            max=state.players - 1))


def check_save(save: Path | None, lang: str) -> None:
    """Refuse a --save path that cannot be written, before the deal (ConfigError: exit 2)."""
    if save is None:
        return
    if save.is_dir():
        raise ConfigError(t(lang, "cli.err_save_dir", path=str(save)))
    folder = save.parent
    if not folder.is_dir():
        raise ConfigError(t(lang, "cli.err_save_parent", path=str(save), folder=str(folder)))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(t(lang, "cli.err_save_write", path=str(save), folder=str(folder)))


def save_path(save: Path, session) -> Path:
    if session.rounds > 1:
        return save.with_name(f"{save.stem}-{session.index + 1}{save.suffix}")
    return save


def resumed(resume: Path, game: str, lang: str, given: dict):
    """The state and recorded seats of a saved game to play on (`--resume FILE`)."""
    for option, value in given.items():     # the record fixes the game's settings
        if value is not None:
            raise ConfigError(t(lang, "cli.err_resume_option", option=option))
    rec = read_record(resume)
    if rec["game"] != game:
        raise ConfigError(t(lang, "cli.err_resume_game", path=str(resume), game=rec["game"],
                            asked=game))
    state = load_checked(rec, lang)
    if state.over:
        raise ConfigError(t(lang, "cli.err_resume_over", path=str(resume)))
    return state, record_seats(rec, state.players)


#: the words `--option NAME=VALUE` takes for a yes/no rule option
_TRUE, _FALSE = ("true", "on", "yes", "1"), ("false", "off", "no", "0")


def rule_options(game: str, variant: str | None, given: list[str] | None,
                 lang: str | None = None) -> dict | None:
    """The rule options of `--option NAME=VALUE` (repeatable), checked against the game's
    declaration (core/registry.py): ConfigError for a malformed one, one the rule set lacks or
    a value not of its type (yes/no, a whole number). None when none is given."""
    if not given:
        return None
    lang = check_lang(lang)
    decl = registry.info(game)
    have = {o.name: o for o in decl.options_of(variant)}
    known = ", ".join(have) or "—"
    out: dict = {}
    for item in given:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not sep or not name:
            raise ConfigError(t(lang, "cli.err_option_form", item=item))
        if name not in have:
            raise ConfigError(t(lang, "cli.err_option_unknown", name=name, game=decl.title,
                                variant=decl.variant(variant).name, known=known))
        if have[name].type is bool and value in _TRUE + _FALSE:
            out[name] = value in _TRUE
        elif have[name].type is int and value.lstrip("-").isdigit():
            out[name] = int(value)
        else:
            raise ConfigError(t(lang, "cli.err_option_value", name=name, value=value,
                                kind="bool" if have[name].type is bool else "int"))
    return out
