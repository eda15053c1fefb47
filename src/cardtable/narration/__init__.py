"""The games in words, for every front end: the terminal (`cli`), the game server's log and
the replay viewer. Each game has its own module, the one its declaration names
(`GameInfo.narration`, e.g. `cardtable.abluxxen.narration`), each with

    why(view, seat, names, lang) -> str            whose decision it is and why
    describe(before, decision, after, actor, viewer, names, lang, ...) -> str
                                                   one decision as a log line for `viewer`
    web_why(view, seat, names, lang, window=None, legal_any=False) -> str
                                                   the browser's "whose turn and why" line
                                                   (the server sends it with each state and
                                                   replay step; `web_why` below finds it)
    tie_break(view) -> str | None                  how the end was decided
    web_line(before, decision, after, actor, viewer, names, lang, every_step=False) -> str
                                                   the game server's words for a decision
                                                   (its table log; `every_step`: the replay
                                                   viewer's line for each decision)
    web_option(view, decision, seat, names, lang) -> str
                                                   a decision `seat` may take (the coach's
                                                   options, the review's choices) in the
                                                   table's words, from the seat's view only:
                                                   nothing the decision would reveal
                                                   (`option_words` below finds it)

They read views only (what the viewer may see) and word everything through the catalogs
(`cardtable.i18n`). The terminal's pictures (rich) stay in the game's `ui` module. This package
holds only what every game's words share (`narrator`, `web_why`, `plain_names`).
"""

from __future__ import annotations

import importlib

from cardtable.i18n import t


#: the narration modules imported so far, by module name (the server asks for one with every
#: message it sends: importlib's lookup each time was a visible share of a decision's CPU)
_MODULES: dict[str, object] = {}


def narrator(game: str):
    """The narration module of `game`, the one its declaration names (GameInfo.narration);
    None for a game without one, or a game the house does not know."""
    from cardtable.core.errors import ConfigError
    from cardtable.core.registry import info

    try:
        own = info(game).narration
    except ConfigError:               # an unknown game: no words
        return None
    if own is None:
        return None
    module = _MODULES.get(own)
    if module is None:
        module = _MODULES[own] = importlib.import_module(own)
    return module


def web_why(game: str, view: dict, seat: int | None, names: list[str], lang: str,
            window: dict | None = None, legal_any: bool = False) -> str:
    """The browser's "whose turn and why" line for the viewer `seat` (None: a spectator or the
    replay's full view), from that viewer's own `view` only: its narration's `web_why`. A game
    without one (no narration module, or none of this name) gets "". `window`: the state
    message's snap-window part for this viewer (eligible, answered), `legal_any`: the viewer
    may decide now."""
    words = getattr(narrator(game), "web_why", None)
    return words(view, seat, names, lang, window=window, legal_any=legal_any) if words else ""


def option_words(game: str, view: dict, decision: str, seat: int, names: list[str],
                 lang: str) -> str:
    """A decision `seat` may take at `view` (its own view) in the words of the table's log:
    its narration's `web_option`. "" for a game without one, or a decision it cannot word
    (the browser then shows the notation)."""
    words = getattr(narrator(game), "web_option", None)
    if words is None:
        return ""
    try:
        return words(view, decision, seat, names, lang) or ""
    except Exception:                    # never fail an answer over wording
        return ""


def plain_names(names: list[str], players: int, lang: str) -> list[str]:
    """The seats' names for sentences, as the browser's `plainName` (seats.js): each given
    name, else "Seat N" / "Platz N" (seats counted from 1)."""
    return [names[s] if s < len(names) and names[s] else t(lang, "seat.name", n=s + 1)
            for s in range(players)]


def you_key(key: str, actor, viewer) -> str:
    """The catalog key of an event worded for its viewer: `<key>.you` when the viewer made it."""
    return key + ".you" if viewer is not None and actor == viewer else key
