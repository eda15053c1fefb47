"""Abluxxen in the terminal: the table picture, the "why" line, log lines and the end screen.

Implements the UI module interface documented in `cardtable.cli.games`. Everything here reads
only views (`AbluxxenState.view(seat)`, NOTATION.md "The state as JSON"), so what a line says
can never go beyond what its viewer may see.
"""

from __future__ import annotations

from collections import Counter

from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.abluxxen import new_game
from cardtable.abluxxen.match import Match, check_rounds
from cardtable.abluxxen.rules import DEFAULT_PLAYERS, make_rules
from cardtable.cli.games import SingleGame
from cardtable.cli.i18n import t
from cardtable.core.errors import ConfigError
from cardtable.i18n import join
from cardtable.abluxxen.narration import (JOKER, card, describe, end_reason, fmt_item, fmt_stack,
                                          hand_count, tie_break, why)

__all__ = ["describe", "help_text", "new_session", "render", "resume_session", "summary",
           "tie_break", "why"]

GAME = "abluxxen"

# -- sessions -------------------------------------------------------------------------------------
class MatchSession:
    """CL-5: a classic match (abluxxen.match.Match) as a session of several games."""

    def __init__(self, match: Match):
        self.match = match
        self.players = match.players
        self.rounds = match.rounds

    @property
    def index(self) -> int:
        return len(self.match.games) - 1

    @property
    def state(self):
        return self.match.current

    def next_game(self):
        if len(self.match.games) >= self.match.rounds:
            return None
        return self.match.next_game()

    def table(self, names, lang):
        tab = Table(title=t(lang, "ab.match.title"), box=box.SIMPLE_HEAVY)
        tab.add_column("")
        for s in range(self.players):
            tab.add_column(names[s], justify="right")
        for i, row in enumerate(self.match.score_table()):
            tab.add_row(t(lang, "ab.match.game", i=i + 1), *(str(x) for x in row))
        tab.add_row(Text(t(lang, "ab.match.total"), style="bold"),
                    *(Text(str(x), style="bold") for x in self.match.totals))
        return tab

    def result(self, names, lang):
        winners = self.match.winners()
        if winners is None:
            return None
        text = t(lang, "ab.match.winners", n=len(winners), names=join([names[s] for s in winners], lang))
        return Text(t(lang, "ab.match.result", n=len(self.match.score_table()), winners=text),
                    style="bold")


def resume_session(state, lang="en"):
    """A saved game, played on from where its record ends."""
    return SingleGame(state)


def new_session(*, variant=None, players=None, seed=0, start=0, rounds=None, lang="en",
                options=None):
    """One game; for `classic` with `rounds`, a CL-5 match of that many games (a multiple of
    the player count). CL-5 (revised 2026-11-26): one game is a whole game and the default; a
    match is asked for."""
    variant = variant or "basic"
    make_rules(variant)                                    # ConfigError: unknown variant
    if start is None:
        start = 0
    if variant != "classic" and rounds is not None:
        raise ConfigError(t(lang, "ab.err_rounds"))
    if rounds is None:                                     # CL-5: one game is a whole game
        return SingleGame(new_game(variant, players=players, seed=seed, start=start,
                                   options=options))
    if players is None:
        players = DEFAULT_PLAYERS[variant]
    new_game(variant, players=players, seed=seed, start=start,    # validates players, start
             options=options)                                     # and options
    try:
        check_rounds(rounds, players)                              # CL-5
    except ConfigError:
        raise ConfigError(t(lang, "ab.err_rounds_multiple", rounds=rounds, n=players,
                            examples=f"{players}, {2 * players}, {3 * players}")) from None
    return MatchSession(Match(players, rounds=rounds, seed=seed, start=start, variant=variant,
                              options=options))


# -- the table ---------------------------------------------------------------------------------
def hand_text(cards, lang: str) -> Text:
    """A hand grouped by number, jokers apart: '2 2   5 5 5   7  |  jokers: X X'."""
    text = Text()
    if not cards:
        text.append(t(lang, "ab.no_cards"), style="dim")
        return text
    groups = Counter(c for c in cards if c != JOKER)
    first = True
    for v in sorted(groups):
        if not first:
            text.append("   ")
        text.append(" ".join([str(v)] * groups[v]), style="bold")
        first = False
    jokers = sum(1 for c in cards if c == JOKER)
    if jokers:
        if not first:
            text.append("   |   ")
        text.append(f"{t(lang, 'ab.jokers')}: ")
        text.append(" ".join([JOKER] * jokers), style="bold magenta")
    return text


def display_text(layers, lang: str):
    """Layers bottom to top; the exposed top layer marked »…«. Each layer is one piece: a
    narrow column breaks between layers, never inside one ("[10 10" / "10]")."""
    if not layers:
        return Text(t(lang, "ab.empty"), style="dim")
    parts = []
    for i, layer in enumerate(layers):
        body = " ".join(card(c) for c in layer)
        if i == len(layers) - 1:
            parts.append(Text(f"»{body}«", style="bold reverse"))
        else:
            parts.append(Text(f"[{body}]", style="dim"))
    return Columns(parts, padding=(0, 2))


# -- the UI module interface ----------------------------------------------------------------------
def render(view, seat, names, lang):
    """The table as `seat` sees it (None: every hand shown)."""
    n = view["players"]
    to_move = view.get("to_move")
    active = view.get("active")
    tab = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
    tab.add_column("", width=1)
    tab.add_column(t(lang, "ab.col.player"))
    tab.add_column(t(lang, "ab.col.hand"), justify="right")
    tab.add_column(t(lang, "ab.col.display"))
    for s in range(n):
        mark = "▶" if s == to_move else ("•" if s == active else "")
        who = Text(names[s], style="bold" if s == seat else "")
        tab.add_row(mark, who, str(hand_count(view, s)), display_text(view["displays"][s], lang))
    parts = [tab]
    pool = Text()
    pool.append(f"{t(lang, 'ab.pool')}: ", style="bold")
    if view["pool"]:
        pool.append("   ".join(fmt_item(item) for item in view["pool"]))
    else:
        pool.append(t(lang, "ab.empty"), style="dim")
    parts.append(pool)
    if view.get("shadow") is not None:
        sh = Text()
        sh.append(f"{t(lang, 'ab.shadow')}: ", style="bold")
        sh.append("   ".join(fmt_stack(st) for st in view["shadow"]) or t(lang, "ab.empty"))
        parts.append(sh)
    parts.append(Text(t(lang, "ab.supply", deck=view["deck"], discard=view["discard"])))
    if not view.get("over"):                    # AB-17 as it stands: display +1, hand -1 a card
        now = " · ".join(f"{names[p]} {sum(len(x) for x in view['displays'][p]) - hand_count(view, p):+d}"
                         for p in range(n))
        parts.append(Text(t(lang, "ab.score_line", list=now), style="dim"))
    for s in range(n):
        h = view["hands"][s]
        if isinstance(h, list) and (seat is None or s == seat):
            label = t(lang, "ab.your_hand") if s == seat else t(lang, "ab.hand_of", name=names[s])
            line = Text()
            line.append(f"{label}: ", style="bold")
            line.append_text(hand_text(h, lang))
            parts.append(line)
    variant = t(lang, f"ab.variant.{view['variant']}")
    return Panel(Group(*parts), title=t(lang, "ab.title", variant=variant), title_align="left")


def summary(view, names, lang):
    """Scores (+1 per display card, -1 per hand card, AB-17), winners, tie-break, end reason."""
    n = view["players"]
    scores = view.get("scores") or [0] * n
    winners = view.get("winners") or []
    tab = Table(title=t(lang, "ab.sum.title"), box=box.SIMPLE_HEAVY)
    tab.add_column(t(lang, "ab.col.player"))
    tab.add_column(t(lang, "ab.sum.display"), justify="right")
    tab.add_column(t(lang, "ab.sum.hand"), justify="right")
    tab.add_column(t(lang, "ab.sum.score"), justify="right")
    tab.add_column("")
    for s in range(n):
        disp = sum(len(layer) for layer in view["displays"][s])
        won = s in winners
        tab.add_row(Text(names[s], style="bold" if won else ""), str(disp),
                    str(hand_count(view, s)), Text(str(scores[s]), style="bold" if won else ""),
                    Text(f"★ {t(lang, 'ab.sum.winner')}" if won else "", style="bold green"))
    classic = view.get("variant") == "classic"
    why_end, seat = end_reason(view)
    if why_end == "hand":
        clause = "CL-3" if classic else "AB-7"
        key = "ab.sum.end_hand.you" if names[seat] == t(lang, "cli.you") else "ab.sum.end_hand"
        end_line = t(lang, key, name=names[seat], clause=clause)
    else:
        end_line = t(lang, "ab.sum.end_supply", clause="CL-3" if classic else "AB-14")
    lines = [tab, Text(end_line)]
    tb = tie_break(view)
    if tb:
        best = max(scores)
        seats = [s for s in range(n) if scores[s] == best]
        if tb == "fewer_hand":
            tied = join([t(lang, "ab.sum.with_hand", name=names[s], n=hand_count(view, s))
                          for s in seats], lang)
        else:
            tied = join([names[s] for s in seats], lang)
        key = {"fewer_hand": "ab.sum.tie_fewer", "still": "ab.sum.tie_still",
               "shared": "ab.sum.tie_shared"}[tb]
        lines.append(Text(t(lang, key, score=best, tied=tied)))
    lines.append(Text(t(lang, "ab.sum.winners", n=len(winners), names=join([names[s] for s in winners], lang)), style="bold"))
    return Group(*lines)


def help_text(lang) -> str:
    return t(lang, "ab.help")
