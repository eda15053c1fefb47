"""Kombio in the terminal: the table picture, the "why" line, log lines and the end screens.

Implements the UI module interface documented in `cardtable.cli.games`, plus the optional
session hooks (`timed`, `present`, `observe`) that main.py uses for the snap window's time limit
and for `--memory`. Everything here reads only views (`KombioState.view(seat)`, NOTATION.md "The
state as JSON", and the extra keys listed in the state.py docstring), so what a line or picture
says never goes beyond what its viewer may see: a card a seat has not seen is `"?"` in its view.

Cards on the table are named `P.S` (seat P, slot S), exactly as in the notation (KO-2, KO-3).

The words (why, log lines, the end of a round) are `cardtable.kombio.narration`'s, shared with
the server; this module draws the table and runs the session.

The end of a round: the engine deals the next round at once (KO-4), so the view after the
decision that ended a round shows the new round; its `last_round` holds the finished round as
revealed (KO-15): every grid, the sums, the caller and the scores.

`--memory`: as at a real table, a card you saw is shown for a few seconds only. `Memory` tracks,
per slot, when each card value of the viewer's view was first shown at a decision prompt;
after `seconds` it is shown as `?` again (it stays visible at least at the prompt where it first
appeared). Cards that move (swaps, gives, hand-overs) keep their timer; looking at a card again
(`peek`) starts it anew.
"""

from __future__ import annotations

import math

import time

from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.games import SingleGame, Timed
from cardtable.cli.i18n import t
from cardtable.core.errors import ConfigError
from cardtable.i18n import join
from cardtable.kombio import MAX_PLAYERS, MIN_PLAYERS, new_game
from cardtable.kombio.narration import (cards_text, is_known, parse_pos, secs_text, you_key, describe,
                                        round_end, tie_break, why)

__all__ = ["describe", "help_text", "new_session", "render", "resume_session", "revealed",
           "round_end", "summary", "tie_break", "why"]

GAME = "kombio"
FORCED_KEY = "ko.forced"
#: seats are read by their notation number (0, 1, ...): people type them in `P.S`
SEAT_BASE = 0
#: the snap window in the terminal (KO-10). From published measurements of people typing and
#: reacting: a typist's keystrokes come 0.24 s apart on average, about 0.4 s for the slowest
#: tenth (Dhakal et al., "Observations on Typing from 136 Million Keystrokes", CHI 2018), so
#: "snap 0.3" and Enter, nine keys, take about 2.2 s, and 3.6 s for slow typists; seeing the
#: top card and recalling where its twin lies adds a choice reaction of about one second
#: (Hick-Hyman: about 0.2 s + 0.15 s per bit, for the 8 to 24 places of a table). 5 s lets
#: nine typists in ten answer in words; Space (one key) snaps a card the player can see.
#: The browser's tables default to 5 s too (server.protocol.DEFAULT_SNAP_SECONDS).
SNAP_SECONDS = 5.0
MEMORY_SECONDS = 5.0
MAX_SECONDS = 600
COMPACT_LINES = 40


# -- sessions -------------------------------------------------------------------------------------
class Memory:
    """`--memory`: which card values of the viewer's view may still be shown (module docstring).

    `clock` is injectable for tests."""

    def __init__(self, seconds: float, clock=time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.round = None
        self.prompt_no = 0
        self.entries: dict[tuple[int, int], list] = {}   # (p, s) -> [value, time, prompt no]

    def _sync(self, view) -> None:
        if view["round"] != self.round:
            self.entries.clear()
            self.round = view["round"]
        present = set()
        for p, g in enumerate(view["grids"]):
            for s, v in enumerate(g, 1):
                if not is_known(v):
                    continue
                present.add((p, s))
                e = self.entries.get((p, s))
                if e is None or e[0] != v:
                    self.entries[(p, s)] = [v, None, None]
        for key in [k for k in self.entries if k not in present]:
            del self.entries[key]

    def present(self, view, prompt: bool):
        """A copy of `view` with the cards hidden that were shown more than `seconds` ago.
        `prompt`: the view is about to be shown at a decision prompt (starts the timers)."""
        self._sync(view)
        now = self.clock()
        if prompt:
            self.prompt_no += 1
        out = dict(view)
        grids = [list(g) for g in view["grids"]]
        for (p, s), e in self.entries.items():
            if e[1] is None:
                if prompt:
                    e[1], e[2] = now, self.prompt_no
                continue
            if now - e[1] >= self.seconds and not (prompt and e[2] == self.prompt_no):
                grids[p][s - 1] = "?"
        out["grids"] = grids
        out["memory"] = self.seconds
        return out

    def _move(self, a, b) -> None:
        ea, eb = self.entries.pop(a, None), self.entries.pop(b, None)
        if ea is not None:
            self.entries[b] = ea
        if eb is not None:
            self.entries[a] = eb

    def observe(self, before, text, after, actor, seat) -> None:
        """Follow the cards the viewer knows as they move; a new look restarts a timer."""
        if after["round"] != before["round"] or after["over"]:
            self.entries.clear()
            return
        words = text.split()
        kind, args = words[0], words[1:]
        if kind == "peek" and actor == seat:
            for a in args:
                self.entries.pop(parse_pos(a), None)
        elif kind in ("replace", "take") and actor == seat:
            self.entries.pop((seat, int(args[0])), None)
        elif kind == "swap":
            if len(args) == 2:
                self._move(parse_pos(args[0]), parse_pos(args[1]))
            elif len(args) == 1 and before.get("peeked"):
                self._move(parse_pos(before["peeked"][0]), parse_pos(args[0]))
            elif not args and len(before.get("peeked") or []) == 2:
                self._move(parse_pos(before["peeked"][0]), parse_pos(before["peeked"][1]))
        elif kind == "give" and before.get("snap"):
            self._move((actor, int(args[0])), parse_pos(before["snap"]["card"]))
        elif kind == "hand-over" and before.get("snap"):
            w = before["snap"]["seat"]
            self._move(parse_pos(before["snap"]["card"]), (w, len(after["grids"][w])))


class KombioSession(SingleGame):
    """One game of Kombio (its rounds run inside the game, KO-4), with the terminal's timing:
    the snap window's time limit and `--memory`."""

    def __init__(self, state, lang: str, snap_seconds: float, memory_seconds: float | None):
        super().__init__(state)
        self.lang = lang
        self.snap_seconds = snap_seconds
        self.memory = Memory(memory_seconds) if memory_seconds else None

    def timed(self, view, seat):
        """The snap window is timed: no answer within `snap_seconds` is a pass (KO-10)."""
        if view.get("awaiting") != "snap" or view.get("to_move") != seat:
            return None
        snaps = [d for d in view.get("legal", []) if d.startswith("snap ")]
        example = snaps[0] if snaps else "snap P.S"
        top = view.get("top")
        # one key (Space) snaps a card the player can see is a `top`: their own first
        shown = self.present(view, seat, False)
        known = [f"{p}.{i}" for p in [seat] + [q for q in range(view["players"]) if q != seat]
                 for i, v in enumerate(shown["grids"][p], 1) if is_known(v) and v == top]
        quick = next((f"snap {pos}" for pos in known if f"snap {pos}" in snaps), None)
        hint = t(self.lang, "ko.timed.quick", decision=quick) if quick else ""

        def countdown(left: float) -> str:
            return t(self.lang, "ko.timed.countdown", top=top, left=math.ceil(left),
                     example=example, quick=hint)

        return Timed(self.snap_seconds, "pass",
                     t(self.lang, "ko.timed.prompt", secs=secs_text(self.snap_seconds),
                       example=example, top=top),
                     t(self.lang, "ko.timed.timeout"), countdown, quick)

    def stale_note(self, view, line: str) -> str:
        """Said of a line typed before the snap window on view's top card opened."""
        return t(self.lang, "ko.timed.stale", line=line, top=view.get("top"))

    #: the revealed grids of the last round (the interlude) are the final board
    final_board = False

    def describe(self, before, decision, after, actor, viewer, names, lang) -> str:
        """The log line; a round's end is told by the interlude."""
        return describe(before, decision, after, actor, viewer, names, lang, round_words=False)

    def interlude(self, before, after, seat, names, lang):
        """After a round: every grid as revealed with sums and scores (KO-15), then why it
        ended, the scoring rule that applied and the totals: one block, to read before the
        next round (or the result)."""
        if after["round"] == before["round"] and not (after["over"] and not before["over"]):
            return None
        words = Text("\n".join(round_end(before, after, seat, names, lang, brief=True)),
                     style="bold")
        grids = revealed(after, names, lang)
        return words if grids is None else Group(grids, words)

    def present(self, view, seat, prompt: bool):
        if self.memory is None or seat is None:
            return view
        return self.memory.present(view, prompt)

    def observe(self, before, text, after, actor, seat) -> None:
        if self.memory is not None and seat is not None:
            self.memory.observe(before, text, after, actor, seat)


def _seconds(value, option: str, lang: str) -> float:
    if not 0 < value <= MAX_SECONDS:
        raise ConfigError(t(lang, "ko.err_seconds", option=option, n=secs_text(value)))
    return float(value)


def _timing(lang, memory, memory_seconds, snap_seconds) -> tuple[float, float | None]:
    """The snap window's seconds and --memory's seconds (None: no memory mode)."""
    snap = SNAP_SECONDS if snap_seconds is None else _seconds(snap_seconds, "--snap-seconds",
                                                              lang)
    mem = None
    if memory_seconds is not None:
        mem = _seconds(memory_seconds, "--memory-seconds", lang)
    elif memory:
        mem = MEMORY_SECONDS
    return snap, mem


def resume_session(state, lang="en", memory=False, memory_seconds=None, snap_seconds=None):
    """A saved game, played on from where its record ends, with the terminal's timing."""
    return KombioSession(state, lang, *_timing(lang, memory, memory_seconds, snap_seconds))


def new_session(*, variant=None, players=None, seed=0, start=0, rounds=None, lang="en",
                target=None, memory=False, memory_seconds=None, snap_seconds=None, options=None):
    """One game of Kombio: rounds until a total reaches `target` (KO-4, KO-16)."""
    if variant not in (None, "basic"):
        raise ConfigError(t(lang, "ko.err_variant", variant=repr(variant)))
    if rounds is not None:
        raise ConfigError(t(lang, "ko.err_rounds"))
    players = 4 if players is None else players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(t(lang, "ko.err_players", n=players))
    target = 100 if target is None else target
    if target < 1:
        raise ConfigError(t(lang, "ko.err_target", n=target))
    snap, mem = _timing(lang, memory, memory_seconds, snap_seconds)
    state = new_game(players=players, seed=seed, start=start or 0, target=target,
                     options=options)
    return KombioSession(state, lang, snap, mem)


# -- the table ------------------------------------------------------------------------------------
def _cell(p: int, s: int, v, seat) -> Text:
    text = Text(f"{p}.{s} ", style="dim")
    if v is None:
        text.append(" —", style="dim")
    elif v == "?":
        text.append(" ?", style="yellow")
    else:
        text.append(f"{v:>2}", style="bold green" if seat is not None and p == seat else "bold")
    return text


def grid_text(view, p: int, seat) -> Text:
    """A grid by slot, two slots a row (KO-2: 1 2 / 3 4; added slots 5, 6, ... below)."""
    g = view["grids"][p]
    text = Text()
    for i in range(0, len(g), 2):
        if i:
            text.append("\n")
        text.append_text(_cell(p, i + 1, g[i], seat))
        if i + 1 < len(g):
            text.append("   ")
            text.append_text(_cell(p, i + 2, g[i + 1], seat))
    return text


def compact() -> bool:
    """A terminal under 40 lines (an 80×24 one): one line per player, not a panel each."""
    import shutil
    import sys

    return sys.stdout.isatty() and shutil.get_terminal_size().lines < COMPACT_LINES


def _width() -> int:
    import shutil

    return shutil.get_terminal_size().columns


def flow(head: Text, cells: list[Text], width: int | None = None, indent: int = 4) -> Text:
    """`head`, then the cells two spaces apart, broken between cells (never inside one, "5.6"
    on one line and its value on the next) where a line would pass `width` columns; a head
    too long for a cell beside it gets its cells on the lines below."""
    width = width or _width()
    line = head.copy()
    used = head.cell_len
    if used > width:                      # a head wider than the terminal: broken between
        from rich.console import Console  # words, its further lines indented like the cells
        parts = head.wrap(Console(width=width - indent), width - indent)
        line = Text("\n" + " " * indent).join(parts)
        used = indent + parts[-1].cell_len
    for cell in cells:
        if used + 2 + cell.cell_len > width:
            line.append("\n" + " " * indent)
            used = indent
        else:
            line.append("  ")
            used += 2
        line.append_text(cell)
        used += cell.cell_len
    return line


def _seat_line(view, p, seat, names, lang) -> Text:
    """A player on one line, or more where the grid is long: the head, then every slot of
    the grid (the compact board)."""
    mark = "▶ " if p == view.get("to_move") else ("• " if p == view.get("active") else "  ")
    head = Text(mark + t(lang, "ko.head.plain", name=names[p],
                         cards=cards_text(view["counts"][p], lang), total=view["totals"][p]),
                style="bold" if p == seat else "")
    if view.get("caller") == p and not view.get("over"):      # a short mark: the line below
        head.append(t(lang, "ko.head.taboo.short" if view["players"] > 2     # the board says
                          else "ko.head.called.short"), style="magenta")   # the rest (KO-12)
    head.append(" ")
    return flow(head, [_cell(p, s, v, seat) for s, v in enumerate(view["grids"][p], 1)])


def render(view, seat, names, lang, small: bool | None = None):
    """The table as `seat` sees it (seat None: every card shown). `small`: the compact board
    for an 80×24 terminal (default: when the terminal is that small)."""
    small = compact() if small is None else small
    n = view["players"]
    to_move, active = view.get("to_move"), view.get("active")
    caller = view.get("caller")
    panels = []
    for p in range(n):
        mark = "▶ " if p == to_move else ("• " if p == active else "")
        key = "ko.head.plain" if names[p] == t(lang, "seat.name", n=p) else "ko.head"
        head = Text(mark + t(lang, key, name=names[p], seat=p,
                             cards=cards_text(view["counts"][p], lang), total=view["totals"][p]),
                    style="bold" if p == seat else "")
        if caller == p and not view.get("over"):
            head.append(t(lang, "ko.head.taboo" if n > 2 else "ko.head.called"), style="magenta")
        panels.append(Panel(Group(head, grid_text(view, p, seat)), expand=False,
                            box=box.ROUNDED, border_style="bold" if p == seat else "dim"))
    if small:
        parts = [_seat_line(view, p, seat, names, lang) for p in range(n)]
    else:
        parts = [Columns(panels, padding=(0, 1))]
    if view["top"] is None:
        pile = Text(t(lang, "ko.pile.empty"))
    else:
        pile = Text(t(lang, "ko.pile", top=view["top"], cards=cards_text(view["discard"], lang)))
        if view.get("top_snapped"):
            pile.append(t(lang, "ko.pile.snapped"), style="dim")
    pile.append("   ·   " + t(lang, "ko.deck", cards=cards_text(view["deck"], lang)))
    parts.append(pile)
    if view.get("drawn") is not None and active is not None:
        key = "ko.drawn.you" if seat is not None and active == seat else "ko.drawn.of"
        parts.append(Text(t(lang, key, card=view["drawn"], name=names[active]), style="bold"))
    if seat is not None:
        parts.extend(_knowledge(view, seat, lang))
    if caller is not None and view.get("turns_left") is not None and not view.get("over"):
        k = view["turns_left"]
        key = you_key("ko.turns_left", caller, seat)
        parts.append(Text(t(lang, key, name=names[caller], n=k), style="magenta"))
    if view.get("window") and view.get("top") is not None:
        w = view["window"]
        parts.append(Text(t(lang, "ko.window", top=view["top"], k=w["answered"],
                            n=len(w["order"])), style="dim"))
    if not small:                                   # the compact board has them in its lines
        totals = " · ".join(f"{names[p]} {view['totals'][p]}" for p in range(n))
        parts.append(Text(t(lang, "ko.totals", list=totals, target=view["target"])))
    if view.get("memory"):
        parts.append(Text(t(lang, "ko.memory_note", secs=secs_text(view["memory"])), style="dim"))
    title = t(lang, "ko.title.over" if view.get("over") else "ko.title", round=view["round"],
              target=view["target"])
    if small:
        return Group(Text(title + " " + "─" * max(0, 60 - len(title)), style="bold"), *parts)
    return Panel(Group(*parts), title=title, title_align="left")


def revealed(after, names, lang):
    """The finished round's grids, all face up, with each seat's sum, score and total (KO-15)."""
    last = after.get("last_round")
    rows = after.get("round_scores") or []
    if not last or not rows:
        return None
    scores = rows[-1]
    panels = []
    for p, grid in enumerate(last["grids"]):
        head = Text(t(lang, "ko.round.grid_head", name=names[p], sum=last["sums"][p],
                      score=scores[p], total=after["totals"][p]), style="bold")
        panels.append(Panel(Group(head, grid_text({"grids": last["grids"]}, p, None)),
                            expand=False, box=box.ROUNDED))
    title = t(lang, "ko.round.revealed", round=len(rows))
    if compact():
        lines = [flow(Text(t(lang, "ko.round.grid_head", name=names[p], sum=last["sums"][p],
                                score=scores[p], total=after["totals"][p]) + ":", style="bold"),
                      [_cell(p, s, v, None) for s, v in enumerate(grid, 1)])
                 for p, grid in enumerate(last["grids"])]
        return Group(Text(title, style="bold"), *lines)
    return Panel(Columns(panels, padding=(0, 1)), title=title, title_align="left")


def _knowledge(view, seat, lang) -> list[Text]:
    """What the viewer knows: its own cards (how many, which, their sum) and others' cards."""
    own = [(s, v) for s, v in enumerate(view["grids"][seat], 1) if v is not None]
    known = [(s, v) for s, v in own if is_known(v)]
    line = Text(t(lang, "ko.known.own", k=len(known), n=len(own)))
    if known:
        line.append(t(lang, "ko.known.list",
                      cards=", ".join(f"{seat}.{s} = {v}" for s, v in known),
                      sum=sum(v for _, v in known)))
    others = [f"{p}.{s} = {v}" for p, g in enumerate(view["grids"]) if p != seat
              for s, v in enumerate(g, 1) if is_known(v)]
    return [line, Text(t(lang, "ko.known.others",
                         cards=", ".join(others) if others else t(lang, "ko.known.nothing")))]


# -- the end of the game --------------------------------------------------------------------------
def summary(view, names, lang):
    """The end of a game: the score of every round, totals, winners and the KO-16 tie-break."""
    n = view["players"]
    totals = view.get("totals") or [0] * n
    winners = view.get("winners") or []
    rows = view.get("round_scores") or []
    tab = Table(title=t(lang, "ko.sum.title"), box=box.SIMPLE_HEAVY)
    tab.add_column(t(lang, "ko.sum.player"))
    for i in range(len(rows)):
        tab.add_column(t(lang, "ko.sum.round", i=i + 1), justify="right")
    tab.add_column(t(lang, "ko.sum.total"), justify="right")
    tab.add_column("")
    for s in range(n):
        won = s in winners
        tab.add_row(Text(names[s], style="bold" if won else ""),
                    *(str(r[s]) for r in rows),
                    Text(str(totals[s]), style="bold" if won else ""),
                    Text(f"★ {t(lang, 'ko.sum.winner')}" if won else "", style="bold green"))
    target = view.get("target")
    reached = [names[s] for s in range(n) if target is not None and totals[s] >= target]
    lines = [tab, Text(t(lang, "ko.sum.reached", target=target, names=join(reached, lang),
                         n=len(reached),
                         you="alone" if reached == [t(lang, "cli.you")] else "other"))]
    tb = tie_break(view)
    if tb:
        best = min(totals)
        seats = [s for s in range(n) if totals[s] == best]
        last = rows[-1] if rows else [0] * n
        if tb == "last":
            tied = join([t(lang, "ko.sum.with_last", name=names[s], score=last[s])
                          for s in seats], lang)
            lines.append(Text(t(lang, "ko.sum.tie_last", total=best, tied=tied)))
        else:
            lines.append(Text(t(lang, "ko.sum.tie_still", total=best,
                                tied=join([names[s] for s in seats], lang),
                                score=last[seats[0]])))
    key = "ko.sum.winners"
    lines.append(Text(t(lang, key, n=len(winners), names=join([names[s] for s in winners], lang)),
                      style="bold"))
    return Group(*lines)


def help_text(lang) -> str:
    return t(lang, "ko.help")
