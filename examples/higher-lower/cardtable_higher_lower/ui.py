"""Higher or Lower in the terminal (cardtable.cli.games' UI module protocol): the table as a
seat sees it, the words of narration.py, and the end's summary."""

from __future__ import annotations

from rich.text import Text

from cardtable.cli.games import SingleGame
from cardtable.i18n import t

from cardtable_higher_lower.narration import describe, why
from cardtable_higher_lower.state import NAME, new_game

GAME = NAME
__all__ = ["GAME", "describe", "help_text", "new_session", "render", "summary", "why"]


def new_session(*, variant=None, players=None, seed=0, start=0, rounds=None, lang="en",
                options=None):
    """One game (no series)."""
    if rounds is not None:
        from cardtable.core.errors import ConfigError

        raise ConfigError(t(lang, "hl.err_rounds"))
    return SingleGame(new_game(players=players, seed=seed, start=start or 0, variant=variant,
                               options=options))


def render(view, seat, names, lang):
    """The face-up card, the deck's size and everybody's points."""
    out = Text()
    deck = view["deck"] if isinstance(view["deck"], int) else len(view["deck"])
    out.append(t(lang, "hl.table", up=view["up"], deck=deck) + "\n", style="bold")
    for s in range(view["players"]):
        out.append(t(lang, "hl.points", who=names[s], n=view["points"][s]) + "\n")
    return out


def summary(view, names, lang):
    """The points and the winners."""
    out = render(view, None, names, lang)
    out.append(t(lang, "hl.winners", who=", ".join(names[s] for s in view["winners"] or [])))
    return out


def help_text(lang) -> str:
    return t(lang, "hl.help")
