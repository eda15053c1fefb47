"""Higher or Lower in words, for every front end (cardtable.narration's module protocol): whose
guess it is, one line per guess, read from the viewer's views only and worded through the
catalogs (this package's en.json and de.json, joined to the house's when the game registers)."""

from __future__ import annotations

from cardtable.i18n import t


def _who(seat, viewer, names) -> dict:
    """The catalog's parameters naming `seat` to `viewer`: "you" or the seat's name."""
    return {"you": "yes" if seat == viewer else "no", "who": names[seat]}


def why(view, seat, names, lang) -> str:
    """Whose guess it is, for the viewer `seat`."""
    if view["to_move"] is None:
        return t(lang, "hl.over")
    return t(lang, "hl.why", **_who(view["to_move"], seat, names), up=view["up"],
             n=view["turns"] * view["players"] - view["guesses"])


def web_why(view, seat, names, lang, window=None, legal_any=False) -> str:
    """The browser's "whose turn and why" line: the terminal's."""
    return why(view, seat, names, lang)


def describe(before, decision, after, actor, viewer, names, lang) -> str:
    """One guess and the card it turned (both public), for `viewer`."""
    last = after.get("last") or {}
    card, was = last.get("card"), last.get("was")
    right = (card > was and decision == "higher") or (card < was and decision == "lower") or \
        (card == was and after.get("equal_scores"))
    return t(lang, "hl.line", **_who(actor, viewer, names), guess=decision, was=was,
             card=card, right="yes" if right else "no")


def tie_break(view) -> str | None:
    """None: the points decide; ties are shared (HL-4)."""
    return None


def web_line(before, decision, after, actor, viewer, names, lang, every_step: bool = False
             ) -> str:
    """One guess in the game server's words (the terminal's line)."""
    return describe(before, decision, after, actor, viewer, names, lang)
