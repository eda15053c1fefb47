"""What a client may see: seat views, the public (spectator) view, and events in words.

A seat gets exactly `state.view(seat)` (NOTATION.md). A spectator gets the *public view*: the
part every seat's view has in common (`merge_views`). A value survives only where all seats see
the same; where they differ, the least informative form wins: a hidden Kombio card ("?"),
`null`, or a count where one seat sees its own cards and the others a number (Abluxxen hands).
So a spectator never learns anything that any player does not know, and the function needs no
game-specific code; `public_view` also blanks the keys that are per seat by nature (`seat`,
`legal`).

Events in words come from the terminal front end's `describe()` (cardtable.cli), which builds a
line from the viewer's own views before and after a decision, so it cannot say more than the
viewer may see (another player's deck draw is "draws from the deck", without the card). For a
spectator the public views are given and the viewer is None.
"""

from __future__ import annotations

import importlib
from typing import Any

from cardtable.core.game import GameState
from cardtable.i18n import t

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
_UI: dict[str, Any] = {}


def _ui(game: str):
    mod = _UI.get(game)
    if mod is None:
        mod = importlib.import_module(f"cardtable.narration.{game}")
        _UI[game] = mod
    return mod


def describe(game: str, before: dict, decision: str, after: dict, actor: int,
             viewer: int | None, names: list[str], lang: str, every_step: bool = False) -> str:
    """One event in words for `viewer` (None: a spectator, given public views). Kombio's
    words name cards as the browser shows them ("your card 3", not the notation's 0.3), and a
    snap window's answers come as one line with its result (narration.kombio.describe's `web`).

    `every_step` (the replay viewer, one line per decision): a snap-window answer that the
    table leaves to the window's result line gets a line of its own, the answer itself where
    the viewer may see it (their own answer; everything in the full view, viewer None) and
    else only that the seat answered (KO-10: hidden until the window closes)."""
    try:
        extra = {"web": True} if game == "kombio" else {}
        line = _ui(game).describe(before, decision, after, actor, viewer, names, lang, **extra)
        if every_step and game == "kombio":
            line = _with_answer(line, before, decision, after, actor, viewer, names, lang)
    except Exception:                    # never fail a broadcast over wording
        line = ""
    if not line:
        return ""
    return line


def _with_answer(line: str, before: dict, decision: str, after: dict, actor: int,
                 viewer: int | None, names: list[str], lang: str) -> str:
    """`line` with the snap-window answer of `actor` in front: alone while the window is open;
    before the window's result when the answer closed it and the result does not already say
    it (a pass, or a snap that was not the first), where the viewer may see the answer."""
    if not line:
        return _answer(decision, actor, viewer, names, lang)
    kind = decision.split()[0] if decision.split() else ""
    if kind not in ("pass", "snap") or before.get("awaiting") != "snap":
        return line
    if viewer is not None and viewer != actor:
        return line
    snap = after.get("snap") or {}
    if kind == "snap" and snap.get("seat") == actor:
        return line
    return _answer(decision, actor, viewer, names, lang) + "\n" + line


def _answer(decision: str, actor: int, viewer: int | None, names: list[str], lang: str) -> str:
    """A Kombio snap-window answer in words (the terminal narration's catalog keys)."""
    words = decision.split()
    if not words or words[0] not in ("pass", "snap"):
        return ""
    if viewer is not None and viewer != actor:
        return t(lang, "ko.log.answered", name=names[actor])
    ui = _ui("kombio")
    key = "ko.log." + words[0] + (".you" if viewer is not None else "")
    if words[0] == "pass":
        return t(lang, key, name=names[actor])
    p, s = (int(x) for x in words[1].split("."))
    card = ui.card_words(p, s, actor, viewer, names, lang, True)
    return t(lang, key, name=names[actor], card=card)


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
