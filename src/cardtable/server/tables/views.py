"""What a client may see: seat views, the public (spectator) view, and events in words.

A seat gets exactly `state.view(seat)` (NOTATION.md). A spectator gets the *public view*: the
part every seat's view has in common (`merge_views`). A value survives only where all seats see
the same; where they differ, the least informative form wins: a hidden Kombio card ("?"),
`null`, or a count where one seat sees its own cards and the others a number (Abluxxen hands).
So a spectator never learns anything that any player does not know, and the function needs no
game-specific code; `public_view` also blanks the keys that are per seat by nature (`seat`,
`legal`).

Events in words come from the game's narration (`cardtable.narration.<game>.web_line`), which
builds a line from the viewer's own views before and after a decision, so it cannot say more
than the viewer may see (another player's deck draw is "draws from the deck", without the
card). For a spectator the public views are given and the viewer is None.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.game import GameState
from cardtable.i18n import t
from cardtable.narration import narrator

HIDDEN = "?"


def merge_views(views: list[Any]) -> Any:
    """The common part of several seats' views (see the module docstring)."""
    first = views[0]
    if all(v == first for v in views[1:]) and all(type(v) is type(first) for v in views[1:]):
        return first
    if all(isinstance(v, dict) for v in views):
        keys = first.keys()
        if all(v.keys() == keys for v in views[1:]):
            return {k: merge_views([v[k] for v in views]) for k in keys}
        return None
    if all(isinstance(v, list) for v in views) and len({len(v) for v in views}) == 1:
        return [merge_views(list(col)) for col in zip(*views)]
    scalars = [v for v in views if not isinstance(v, (list, dict))]
    if any(isinstance(v, str) and v == HIDDEN for v in scalars):
        return HIDDEN
    if any(v is None for v in scalars):
        return None
    if scalars and all(type(s) is type(scalars[0]) and s == scalars[0] for s in scalars):
        return scalars[0]                  # e.g. a hand count where one seat sees the cards
    if all(isinstance(v, list) for v in views):
        return []
    return None


def public_view(state: GameState, seat_views: dict[int, dict] | None = None) -> dict:
    """The spectators' view of `state` (never more than every seat may see)."""
    views = [seat_views[s] if seat_views and s in seat_views else state.view(s)
             for s in range(state.players)]
    pv = merge_views(views)
    pv["seat"] = None
    pv["legal"] = []
    return pv


# -- words ----------------------------------------------------------------------------------------
def describe(game: str, before: dict, decision: str, after: dict, actor: int,
             viewer: int | None, names: list[str], lang: str, every_step: bool = False) -> str:
    """One event in words for `viewer` (None: a spectator, given public views): the game's
    narration (`narration.<game>.web_line`), which words cards as the browser shows them.
    `every_step`: the replay viewer's line for each decision (a game that words some decisions
    only together, in the table's log, gives each its own line there)."""
    try:
        line = narrator(game).web_line(before, decision, after, actor, viewer, names, lang,
                                       every_step=every_step)
    except Exception:                    # never fail a broadcast over wording
        line = ""
    return line or ""


def seat_names(seat_rows: list[dict], lang: str = "en") -> list[str]:
    """Display names in `lang`, with seats counted as players count them (from 1): the
    player's name, 'Bot 3' for a bot in the third seat, 'Seat 3' / 'Platz 3' for a free one
    (the catalog's seat.bot, seat.name). The browser names the seats the same way (seats.js)."""
    out = []
    for r in seat_rows:
        if r["kind"] == "bot":
            out.append(t(lang, "seat.bot", n=r["seat"] + 1))
        elif r.get("name"):
            out.append(r["name"])
        else:
            out.append(t(lang, "seat.name", n=r["seat"] + 1))
    return out
