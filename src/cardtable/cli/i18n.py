"""The terminal's texts: the shared message catalog (cardtable.i18n, en.json / de.json).

Kept as the terminal's import point: `t(lang, key, **params)`, `default_lang()`,
`check_lang()`. Every text lives in the catalog; nothing is worded here. `check_lang` lives
here, not in the catalog package: it raises core's ConfigError, and the catalog is below core
(core words its errors from it), so it imports nothing of core.
"""

from cardtable.core.errors import ConfigError
from cardtable.i18n import LANGS, default_lang, join, t

__all__ = ["LANGS", "check_lang", "default_lang", "join", "seat_name", "t"]


def seat_name(name: str | None, seat: int, lang: str) -> str:
    """The name of `seat` (0-based) in a record, for people reading `lang`: a name the terminal
    made up ("Player 2", "Spieler 2", in any language) in `lang`, any other name as it is."""
    made_up = {t(other, "seat.player", n=seat + 1) for other in LANGS}
    if not name or name in made_up:
        return t(lang, "seat.player", n=seat + 1)
    return name


def check_lang(lang: str | None) -> str:
    """The language to use: `lang` if given (de/en), else from the locale."""
    if lang is None:
        return default_lang()
    low = lang.lower()
    if low not in LANGS:
        raise ConfigError(t(default_lang(), "cli.err_lang", lang=repr(lang)))
    return low
