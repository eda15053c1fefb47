"""The registry of games the terminal front end can play, and the interface of a UI module.

`main.py` knows nothing about any game: it drives the `GameState` protocol (core.game) and
leaves every game-specific text and picture to the game's UI module, found here by name.

A UI module (e.g. `cardtable.abluxxen.ui`) provides:

    GAME: str
        The game name (as in records, core.registry).

    new_session(*, variant, players, seed, start, rounds, lang) -> Session
        The games to play for `cardtable play GAME`: one game, or a series (a CL-5 match).
        Arguments are the command-line values, None when not given. Raises
        core.errors.ConfigError for bad values (unknown variant, player count out of range...).
        Options of one game only (Kombio: target, memory, memory_seconds, snap_seconds) are
        passed as further keywords when given; main.py refuses them for a game whose
        new_session does not take them.

    render(view, seat, names, lang) -> rich renderable
        The table as `seat` sees it (`view` = state.view(seat); seat None = everything).

    why(view, seat, names, lang) -> str
        Whose decision it is and why, in words, for the viewer `seat`
        (e.g. "Ben abluxxes you: Ben's 2×12 beat your 2×9 ...").

    describe(before_view, decision_text, after_view, actor_seat, viewer_seat, names, lang) -> str
        One log line in words for a decision just applied. Built only from the viewer's views
        before and after it (viewer_seat None = full information), so it never reveals what
        the viewer may not see (a deck card drawn by somebody else).

    summary(final_full_view, names, lang) -> rich renderable
        The end of a game: scores, winners, the tie-break applied and why the game ended.

    help_text(lang) -> str
        The game's decisions, for the `help` command.

`names` is a list with one display name per seat; `lang` is "en" or "de" (i18n.py).

A Session (see `SingleGame` for the plain case) has:
    players: int        rounds: int (games in all)        index: int (0-based, current game)
    state: GameState    the game being played
    next_game() -> GameState | None   start the next game once the current one is over;
                                      None when the session is over
    table(names, lang) -> renderable | None    the running score table (None: one game)
    result(names, lang) -> renderable | None   the final result of a series (None: one game)

Optional, used by main.py when a session has them (Kombio):
    timed(view, seat) -> Timed | None
        A decision of the human with a time limit (Kombio's snap window): read with that
        timeout; no answer in time, or an empty line, is `Timed.default`.
    present(view, seat, prompt) -> view
        The view to show the human instead of `view` (Kombio's --memory hides cards seen a
        while ago); `prompt` is True when it is shown at a decision prompt.
    observe(before, decision_text, after, actor, seat) -> None
        Told every decision applied (views of the human's seat), e.g. to follow moved cards.

A UI module may also set FORCED_KEY: the i18n key of the note for an automatically confirmed
single choice (default "cli.forced"), and SEAT_BASE: the number people read for seat 0 (default
1: seats are counted from 1 for people, the record and the notation count from 0; a game whose
decisions people type name seats by their notation number, Kombio's `P.S`, sets 0 so that the
words and the board agree with what is typed).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable, NamedTuple

from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState


def game_names(sep: str = " or ", more: tuple[str, ...] = ()) -> str:
    """The registered games for a help text: "abluxxen or kombio" (`more` joins the list)."""
    names = [g.name for g in registry.games()] + list(more)
    return ", ".join(names[:-1]) + sep + names[-1] if len(names) > 1 else "".join(names)


def variants_help(what: str = "variant") -> str:
    """"Abluxxen variant: basic, advanced, ..." for every game with several rule sets."""
    return "; ".join(f"{g.title} {what}: {', '.join(g.variant_names)}"
                     for g in registry.games() if len(g.variants) > 1)


def setting_help(name: str, text: str) -> str:
    """"Kombio: points that end the game." for the games that have the setting `name`."""
    owners = [g.title for g in registry.games() if g.setting(name) is not None]
    return f"{', '.join(owners)}: {text}"


def ui_games() -> tuple[str, ...]:
    """The games that have a terminal front end (their declaration names a `ui` module)."""
    return tuple(g.name for g in registry.games() if g.ui)


def ui_module(game: str, lang: str | None = None) -> ModuleType:
    """The UI module of `game` (its declaration's `ui`). ConfigError (exit 2, worded in `lang`,
    default: the locale's) for an unknown or not yet built game."""
    from cardtable.cli.i18n import default_lang, t

    lang = lang or default_lang()
    if game not in ui_games():
        raise ConfigError(t(lang, "cli.err_unknown_game", game=repr(game),
                            known=", ".join(sorted(ui_games()))))
    decl = registry.info(game)
    ui_name, engine_name = decl.ui, decl.engine
    for name in (engine_name, ui_name):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name and (name == e.name or name.startswith(e.name + ".")):
                raise ConfigError(t(lang, "cli.err_unavailable", game=repr(game), module=name)) from None
            raise
    return importlib.import_module(ui_name)


def seat_number(game: str, seat: int) -> int:
    """The number people read for `seat` (0-based as in the record) in `game`'s terminal
    words: seat + the UI module's SEAT_BASE (default 1)."""
    try:
        base = getattr(ui_module(game), "SEAT_BASE", 1)
    except ConfigError:
        base = 1
    return seat + base


class Timed(NamedTuple):
    """A timed decision (see `timed` above)."""

    seconds: float          # the time limit
    default: str            # the decision taken on timeout or an empty line
    prompt: str             # the prompt text
    timeout_note: str       # said when the time ran out
    #: on a terminal: the prompt with the seconds left (redrawn as they run out)
    countdown: Callable[[float], str] | None = None
    #: on a terminal: the decision one key (Space, on an empty line) makes, if any
    quick: str | None = None


class SingleGame:
    """A session of exactly one game."""

    rounds = 1
    index = 0
    #: `undo` may replace `state` with an earlier one (a series of games may not)
    undoable = True

    def __init__(self, state: GameState):
        self.state = state
        self.players = state.players

    def next_game(self) -> GameState | None:
        return None

    def table(self, names, lang):
        return None

    def result(self, names, lang):
        return None
