"""`cardtable learn GAME [--variant V] [--lang de|en]`: the guided first game (core/lesson.py,
docs/learn.md) in the terminal.

The lesson's prepared deal is played with the terminal's own loop (main.Game): before each
step the "why" line carries the step's words and clause; a decision the rules allow but the
step does not ask for is refused with a friendly line (`LessonPrompter`, the session's `vet`); the
log line of a step's decision says what happened. The others' seats follow the script
(bots.lesson.LessonBot) and then play as easy bots: after the last step the game goes on
freely to its end. Nothing here names a game: the lessons come from the games' declarations.
Bad arguments (a game without a terminal front end, a rule set without a lesson, a language
not known) exit 2 with one line (main.main).
"""

from __future__ import annotations

from typing import Optional

import typer
from rich.console import Console
from rich.text import Text

from cardtable.bots.lesson import LessonBot
from cardtable.cli.games import game_names, ui_module
from cardtable.cli.i18n import check_lang, default_lang, t
from cardtable.core.errors import ConfigError
from cardtable.core.lesson import Lesson, lessons
from cardtable.i18n import level

_L = default_lang()


def find_lesson(game: str, variant: str | None, lang: str) -> Lesson:
    ui_module(game)                              # an unknown game: its one-line error first
    found = lessons(game)
    for x in found:
        if variant is None or x.name == variant:
            return x
    raise ConfigError(t(lang, "learn.err_unknown", game=game, variant=variant,
                        known=", ".join(x.id for x in lessons())))


def step_words(lesson: Lesson, k: int, step, lang: str) -> str:
    """'Step 2 of 7 · Rule AB-15: <what to do>'."""
    return (f"{t(lang, 'learn.step', i=k + 1, n=len(lesson.steps))} · "
            f"{t(lang, 'learn.rule', clause=step.clause)}: {t(lang, f'learn.{step.key}.do')}")


class LessonUI:
    """The game's UI module, with the step's words under the "why" line."""

    def __init__(self, ui, session: "LessonSession"):
        self._ui, self._session = ui, session

    def __getattr__(self, name):
        return getattr(self._ui, name)

    def why(self, view, seat, names, lang):
        line = self._ui.why(view, seat, names, lang)
        lesson, state = self._session.lesson, self._session.state
        at = lesson.step_at(state.history)
        if at is not None and state.to_move == seat:
            line += "\n" + step_words(lesson, at[0], at[1], lang)
        return line


class LessonSession:
    """The game's own session (its `resume_session` on the lesson's deal) with the lesson's
    hooks: `vet` refuses what a step does not ask for, `describe` adds what a step did, and
    `timed` gives no time limit while the lesson guides (a snap step waits for its snap)."""

    undoable = False             # the script would not follow an undo

    def __init__(self, inner, lesson: Lesson, ui, lang: str):
        self._inner, self.lesson, self._ui, self.lang = inner, lesson, ui, lang

    def __getattr__(self, name):
        return getattr(self._inner, name)

    @property
    def state(self):
        return self._inner.state

    @state.setter
    def state(self, value):
        self._inner.state = value

    def vet(self, state, text: str) -> str | None:
        step = self.lesson.refuses(state, text)
        return None if step is None else t(self.lang, "learn.refuse",
                                           step=t(self.lang, f"learn.{step.key}.do"))

    def timed(self, view, seat):
        if self.lesson.on_script(self.state.history):
            return None
        inner = getattr(self._inner, "timed", None)
        return inner(view, seat) if inner else None

    def describe(self, before, decision, after, actor, viewer, names, lang) -> str:
        inner = getattr(self._inner, "describe", None) or self._ui.describe
        line = inner(before, decision, after, actor, viewer, names, lang)
        history = self.state.history
        done = self.lesson.done_step(history)
        if done is not None and actor == self.lesson.seat:
            line = (line + "\n" if line else "") + "✓ " + t(lang, f"learn.{done[1].key}.done")
        if len(history) == len(self.lesson.script) and done is not None:
            line += "\n" + t(lang, f"learn.free.{self.lesson.id}")
        return line


class LessonPrompter:
    """The terminal's prompter, with the lesson's `vet`: a line (or the number of a menu entry)
    that the step does not ask for is refused in friendly words and asked again; every other
    line goes on to the game's loop as typed (main.Game.ask checks the rules)."""

    def __init__(self, inner, session: LessonSession, say):
        self._inner, self._session, self._say = inner, session, say

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def ask(self, prompt: str, words: list[str] | None = None) -> str:
        from cardtable.cli.main import MENU_MAX

        while True:
            line = self._inner.ask(prompt, words)
            text = " ".join(line.split())
            legal = (words or [])[:-2]               # the menu: legal + ["help", "quit"]
            numbered = len(legal) <= MENU_MAX or not self._inner.tty
            if text.isdigit() and numbered and 1 <= int(text) <= len(legal):
                text = legal[int(text) - 1]
            refused = self._session.vet(self._session.state, text) if legal else None
            if not refused:
                return line
            self._say(refused)


def run_learn(game: str, variant: str | None = None, lang: str | None = None,
              console: Console | None = None, prompter=None, bot_pause: float | None = None,
              seat_names: list[str] | None = None) -> int:
    from cardtable.cli.main import BOT_NAMES, BOT_PAUSE, Game, Prompter, play_session, say_line

    lang = check_lang(lang)
    if bot_pause is not None and not 0 <= bot_pause <= 60:
        raise ConfigError(t(lang, "cli.err_bot_pause", n=f"{bot_pause:g}"))
    lesson = find_lesson(game, variant, lang)
    ui = ui_module(lesson.game)
    # the game's own session on the lesson's deal (while the lesson guides, `timed` gives
    # no time limit; the free game has the game's usual one)
    inner = ui.resume_session(lesson.new_state(), lang=lang)
    session = LessonSession(inner, lesson, ui, lang)
    console = console or Console(highlight=False)
    prompter = prompter or Prompter()
    if bot_pause is None:
        bot_pause = BOT_PAUSE if prompter.tty else 0.0
    seat = lesson.seat
    bots = {s: LessonBot(lesson, seed=s + 1) for s in range(lesson.players) if s != seat}
    others = iter(seat_names or BOT_NAMES)
    names = [t(lang, "cli.you") if s == seat else next(others) for s in range(lesson.players)]
    labels = [t(lang, "cli.player_seat", name=names[s], seat=s) if s == seat else
              t(lang, "cli.bot_seat", name=names[s], seat=s, kind=level(lang, lesson.bots))
              for s in range(lesson.players)]
    console.rule(f"{t(lang, 'learn.title')}: {t(lang, f'learn.lesson.{lesson.id}')}")
    say_line(console, t(lang, "learn.intro", n=len(lesson.steps)), "bold")
    say_line(console, t(lang, "cli.players", players=", ".join(labels)))
    prompter = LessonPrompter(prompter, session,
                              lambda text: say_line(console, text, "yellow"))
    g = Game(LessonUI(ui, session), seat, bots, names, lang, console, prompter, True, session,
             bot_pause)
    rc = play_session(session, g, ui, seat, names, lang, console, prompter,
                      lambda quitting=False: None)
    if session.state.over:
        console.print(Text(t(lang, "learn.over"), style="bold green"))
    return rc


def register(app: typer.Typer) -> None:
    @app.command("learn", help=t(_L, "help.learn"))
    def learn_cmd(
        game: str = typer.Argument(..., help=t(_L, "help.learn_game", games=game_names())),
        variant: Optional[str] = typer.Option(None, "--variant", help=t(_L, "help.learn_variant")),
        lang: Optional[str] = typer.Option(None, "--lang", help=t(_L, "help.lang")),
        bot_pause: Optional[float] = typer.Option(None, "--bot-pause", metavar="S",
                                                  help=t(_L, "help.bot_pause")),
    ) -> None:
        raise typer.Exit(run_learn(game, variant, lang, bot_pause=bot_pause))
