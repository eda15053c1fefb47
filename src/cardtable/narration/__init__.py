"""The games in words, for every front end: the terminal (`cli`), the game server's log and
the replay viewer. One module per game (`narration.<game>`), each with

    why(view, seat, names, lang) -> str            whose decision it is and why
    describe(before, decision, after, actor, viewer, names, lang, ...) -> str
                                                   one decision as a log line for `viewer`
    tie_break(view) -> str | None                  how the end was decided
    web_line(before, decision, after, actor, viewer, names, lang, every_step=False) -> str
                                                   the game server's words for a decision
                                                   (its table log; `every_step`: the replay
                                                   viewer's line for each decision)

They read views only (what the viewer may see) and word everything through the catalogs
(`cardtable.i18n`). The terminal's pictures (rich) stay in `cli.<game>_ui`.
"""

from __future__ import annotations

import importlib


def narrator(game: str):
    """The narration module of `game`."""
    return importlib.import_module(f"cardtable.narration.{game}")
