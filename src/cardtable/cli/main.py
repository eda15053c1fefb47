"""The `cardtable` command: `play` (a game against bots in the terminal); the other commands
are registered from their own modules (COMMAND_MODULES: replay_cmd.py, stats_cmd.py, ...).

The loop here drives the `GameState` protocol only (core.game); everything game-specific —
the table picture, the "why" line, log lines, the end screen — comes from the game's UI module
(games.py documents the interface). `main()` turns every CardtableError and usage error into a
one-line message and exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import secrets
import sys
import time
from functools import partial
from pathlib import Path
from typing import Optional

import typer
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from cardtable import __version__
from cardtable.bots import act, bot_names, make_bot
from cardtable.cli import history
from cardtable.cli.coach import coach_in_game, is_hint
from cardtable.cli.game_end import again_path, ask_again, offer_save
from cardtable.cli.usage import lang_of, usage_words
from cardtable.cli.games import ui_module
from cardtable.cli.play_args import check_save, resumed, rule_options, save_path
from cardtable.cli.prompt import LineReader, Prompter  # noqa: F401  (LineReader: tests)
from cardtable.cli.i18n import LANGS, check_lang, default_lang, seat_name, t
from cardtable.i18n import level
from cardtable.core.errors import CardtableError, ConfigError, IllegalDecision
from cardtable.core.game import GameState
from cardtable.core.record import SEAT_NAME_MAX, load_record, save_record

#: names of the bots, given to the other seats in seat order
BOT_NAMES = ["Ben", "Caro", "Lisa", "Niko", "Louis"]
#: a menu of more decisions is not listed one by one (Kombio's swaps: up to 121)
MENU_MAX = 24
#: seconds to wait after a bot's decision in a terminal game (--bot-pause), so a person follows
BOT_PAUSE = 1.0
QUIT_WORDS = {"quit", "exit", "q", "ende"}
UNDO_WORDS = {"undo", "zurück", "zurueck"}
#: what Game.ask returns for "undo": take back the human's last decision
UNDO = "\x00undo"
HELP_WORDS = {"help", "?", "h", "hilfe"}

_L = default_lang()   # language of the --help texts

#: plain help (rich_markup_mode=None): the rich panels print a type column, "<bool>" beside
#: every flag
app = typer.Typer(add_completion=False, help=t(_L, "ko.app"), pretty_exceptions_enable=False,
                  rich_markup_mode=None)
_console = partial(Console, highlight=False)


def say_line(console: Console, text: str, style: str = "") -> None:
    """One message line. In a terminal rich wraps it between words (80 columns stay readable);
    piped, a line stays whole, so logs stay greppable."""
    console.print(Text(text, style=style), soft_wrap=not console.is_terminal)


def _version(value: bool) -> None:
    if value:
        typer.echo(t(_L, "cli.version", version=__version__))
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", help=t(_L, "help.version"),
                                       is_eager=True, callback=_version)) -> None:
    pass


# -- play ---------------------------------------------------------------------------------------
def _bots_for(spec: str, seat: int, players: int, seed: int, lang: str) -> dict:
    kinds = [b.strip().lower() for b in spec.split(",") if b.strip()]
    others = [s for s in range(players) if s != seat]
    if len(kinds) == 1:
        kinds = kinds * len(others)
    if len(kinds) != len(others):
        raise ConfigError(t(lang, "cli.err_bots_count", n=len(others), k=len(kinds)))
    return {s: make_bot(kind, seed=seed * 100 + s + 1) for s, kind in zip(others, kinds)}


def _reason(state: GameState, text: str, lang: str = "en") -> str | None:
    """None if `text` is legal now, else the one-line reason it is not, in `lang`."""
    try:
        d = state.parse(text)
    except IllegalDecision as e:
        return e.words(lang)
    if state.is_legal(d):
        return None
    try:
        state.copy().apply(d)
    except IllegalDecision as e:
        return e.words(lang)
    return None


class Game:
    """One player at `seat` against bots; prints the table, log lines, and asks for decisions.
    `session` may provide the optional hooks `timed`, `present` and `observe` (games.py)."""

    def __init__(self, ui, seat, bots, names, lang, console, prompter, auto, session=None,
                 bot_pause: float = 0.0):
        self.ui, self.seat, self.bots, self.names = ui, seat, bots, names
        self.lang, self.console, self.prompter, self.auto = lang, console, prompter, auto
        self.bot_pause = bot_pause
        self.timed = getattr(session, "timed", None)
        self.stale_note = getattr(session, "stale_note", None)
        self.interlude = getattr(session, "interlude", None)
        self._present = getattr(session, "present", None)
        self.observe = getattr(session, "observe", None)
        self.describe = getattr(session, "describe", None) or ui.describe
        self.session = session
        self.forced_key = getattr(ui, "FORCED_KEY", "cli.forced")
        #: the coach's last search ((actions, budget), options): `hint all` shows it again
        self.coach_cache = None

    def present(self, view, prompt: bool):
        return self._present(view, self.seat, prompt) if self._present else view

    def say(self, text: str, style: str = "") -> None:
        say_line(self.console, text, style)

    def menu(self, legal: list[str]) -> bool:
        """The legal decisions, numbered; a long list (a swap: up to 121) in one line instead,
        so the board stays on an 80×24 screen (piped output has no screen: all numbered).
        True if the menu shown is numbered (only then does a bare number choose from it)."""
        screen = self.prompter is None or self.prompter.tty
        if len(legal) > MENU_MAX and screen:
            self.say(t(self.lang, "cli.menu_long", n=len(legal),
                       examples=", ".join(legal[i] for i in (0, len(legal) // 2, -1))),
                     "bold")
            return False
        self.say(t(self.lang, "cli.menu"), "bold")
        self.console.print(Columns([Text(f"{i}) {d}") for i, d in enumerate(legal, 1)],
                                   padding=(0, 3)))
        return True

    def ask(self, state: GameState) -> str | None:
        """The human's decision (legal notation text), or None to quit."""
        lang, ui = self.lang, self.ui
        raw = state.view(self.seat)
        view = self.present(raw, True)
        legal = [d.text for d in state.legal_decisions()]  # the game's natural order
        why = ui.why(view, self.seat, self.names, lang)
        if self.auto and len(legal) == 1:                                # AB-21
            self.say(why, "bold")
            self.say(t(lang, self.forced_key, decision=legal[0]), "dim")
            return legal[0]
        timed = self.timed(raw, self.seat) if self.timed else None
        self.console.print(ui.render(view, self.seat, self.names, lang))
        self.say(why, "bold")
        numbered = self.menu(legal)
        deadline = time.monotonic() + timed.seconds if timed else None
        if timed and self.stale_note:     # typed before this window opened: not for it
            for old in self.prompter.stale():
                self.say(self.stale_note(raw, " ".join(old.split())), "red")
        while True:
            try:
                if timed:                             # e.g. Kombio's snap window (KO-10)
                    line = self.prompter.ask_timed(timed.prompt, deadline - time.monotonic(),
                                                   timed.countdown, timed.quick)
                    if line is None:
                        self.say(timed.timeout_note, "dim")
                        return timed.default
                    if not line.strip():
                        return timed.default
                else:
                    line = self.prompter.ask(t(lang, "cli.prompt"), legal + ["help", "quit"])
            except EOFError:
                return None
            line = " ".join(line.split())
            low = line.lower()
            if not line:
                self.say(t(lang, "cli.empty_input"))
                continue
            if low in QUIT_WORDS:
                return None
            if low in UNDO_WORDS and not timed:
                return UNDO
            if low in HELP_WORDS:
                self.say(t(lang, "cli.help", game_help=ui.help_text(lang) + "\n"
                           + t(lang, "coach.cli_help")))
                self.menu(legal)
                continue
            if is_hint(low) and not timed:          # the coach (cli/coach.py)
                coach_in_game(self, state, line)
                continue
            if line.isdigit():
                i = int(line)
                if not numbered:                      # no numbered menu on the screen
                    self.say(t(lang, "cli.no_numbers", n=len(legal)), "red")
                    continue
                if 1 <= i <= len(legal):
                    return legal[i - 1]
                self.say(t(lang, "cli.bad_number", n=i, max=len(legal)), "red")
                continue
            reason = _reason(state, line, lang)
            if reason is None:
                return state.parse(line).text
            self.say(t(lang, "cli.illegal", reason=reason), "red")

    def undo(self, state: GameState) -> GameState:
        """The game as it was just before the human's last decision (bots' decisions after it
        are taken back too; they decide again). A game against bots is never rated, so this
        changes nobody's rating. Said and unchanged when there is nothing to take back."""
        rec = state.record()
        probe = load_record(rec, upto=0)
        mine = None
        for i, action in enumerate(rec["actions"]):
            if probe.to_move == self.seat:
                mine = i
            probe.apply(action)
        session = self.session
        if mine is None or not getattr(session, "undoable", False):   # a match: not here
            self.say(t(self.lang, "cli.undo_none"), "red")
            return state
        earlier = load_record(rec, upto=mine)
        session.state = earlier
        memory = getattr(session, "memory", None)
        if memory is not None:                     # --memory: what was seen is forgotten
            memory.entries.clear()
        self.say(t(self.lang, "cli.undone", after=len(rec["actions"]) - mine - 1), "bold")
        return earlier

    def run(self, state: GameState) -> bool:
        """Play `state` to its end. False if the human quit."""
        while not state.over:
            s = state.to_move
            if s == self.seat:
                text = self.ask(state)
                if text is None:
                    return False
                if text == UNDO:
                    state = self.undo(state)
                    continue
            else:
                text = act(self.bots[s], state).text
            before = state.view(self.seat)
            shown_before = self.present(before, False)
            state.apply(text)                       # also forced decisions: the record holds them
            after = state.view(self.seat)
            if self.observe:
                self.observe(before, text, after, s, self.seat)
            line = self.describe(shown_before, text, self.present(after, False),
                                 s, self.seat, self.names, self.lang)
            shown = self.interlude(before, after, self.seat, self.names, self.lang) \
                if self.interlude else None
            if line:                                # empty: nothing the viewer may see yet
                self.say(line, "bold" if s == self.seat else "")
                if s != self.seat and self.bot_pause > 0 and shown is None:
                    time.sleep(self.bot_pause)      # pacing: a person can follow the bots
            if shown is not None:                   # e.g. a Kombio round's revealed grids
                self.console.print(shown)           # and the words that explain them
            if shown is not None and self.prompter.tty:
                # a pause to read the round (the last one too: the result comes after it)
                try:
                    answer = self.prompter.ask_line(
                        t(self.lang, "cli.to_result" if state.over else "cli.next_round"))
                except EOFError:
                    answer = ""
                if answer.strip().lower() in QUIT_WORDS and not state.over:
                    return False
        return True


def run_play(game: str, variant, players, seat, bots, seed, lang, save, rounds, start,
             auto=True, console: Console | None = None, prompter: Prompter | None = None,
             bot_pause: float | None = None, name: str | None = None,
             resume: Path | None = None, **game_options) -> int:
    asked_lang = lang
    lang = check_lang(lang)
    given = dict(game_options)                 # as given, for "play again"
    if name is not None:
        name = " ".join(name.split())
        if not name or len(name) > SEAT_NAME_MAX or not name.isprintable():
            raise ConfigError(t(lang, "cli.err_name", max=SEAT_NAME_MAX))
    save = None if save is None else Path(save)
    check_save(save, lang)
    console = console or _console()
    ui = ui_module(game, lang)
    if game_options.get("options") and resume is None:       # --option NAME=VALUE ...
        game_options["options"] = rule_options(game, variant, game_options["options"], lang)
    extra = {k: v for k, v in game_options.items() if v is not None and v is not False}
    accepted = inspect.signature(ui.new_session).parameters
    for key in extra:
        if key not in accepted:
            raise ConfigError(t(lang, "ko.err_not_for", option="--" + key.replace("_", "-"),
                                game=game))
    recorded = None
    if resume is not None:
        state, recorded = resumed(Path(resume), game, lang, {
            "--variant": variant, "--players": players, "--rounds": rounds, "--seed": seed,
            "--target": game_options.get("target"), "--option": game_options.get("options") or None})
        extra.pop("target", None)
        humans = [i for i, x in enumerate(recorded or []) if "bot" not in x]
        if len(humans) == 1:                   # the record says which seat was the person's
            seat = humans[0]
            played_in = history.lang_of(Path(resume))
            if asked_lang is None and played_in in LANGS:   # the language it was played in
                lang = played_in
        seed = state.seed
        session = ui.resume_session(state, lang=lang, **extra)
        if save is None:
            save = Path(resume)                # played on: the same file, brought up to date
    else:
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        session = ui.new_session(variant=variant, players=players, seed=seed, start=start,
                                 rounds=rounds, lang=lang, **extra)
    n = session.players
    if not 0 <= seat < n:
        raise ConfigError(t(lang, "cli.err_seat", seat=seat, max=n - 1))
    if recorded:                               # the bots it was played with, where recorded
        kinds = [recorded[s].get("bot") or bots for s in range(n) if s != seat]
        bots = ",".join(k for k in kinds)
    bot_map = _bots_for(bots, seat, n, seed, lang)
    names, labels = [], []
    base = getattr(ui, "SEAT_BASE", 1)          # the seat numbers people read (games.py)
    others = iter(BOT_NAMES)
    for s in range(n):
        if s == seat:
            names.append(t(lang, "cli.you"))
            labels.append(t(lang, "cli.player_seat", name=names[-1], seat=s + base))
        else:
            names.append(seat_name(recorded[s]["name"], s, lang) if recorded else next(others))
            labels.append(t(lang, "cli.bot_seat", name=names[-1], seat=s + base,
                            kind=level(lang, bot_map[s].level or bot_map[s].name)))
    prompter = prompter or Prompter()
    if bot_pause is None:
        bot_pause = BOT_PAUSE if prompter.tty else 0.0
    if not 0 <= bot_pause <= 60:
        raise ConfigError(t(lang, "cli.err_bot_pause", n=f"{bot_pause:g}"))
    say_line(console, t(lang, "cli.seed", seed=seed), "bold")
    if resume is not None:
        say_line(console, t(lang, "cli.resumed", path=str(resume), n=len(session.state.history)),
                 "bold")
    say_line(console, t(lang, "cli.players", players=", ".join(labels)))
    g = Game(ui, seat, bot_map, names, lang, console, prompter, auto, session, bot_pause)
    # who played each seat, for the record (NOTATION.md `seats`): the human by --name (else
    # "Player N" as players count), the bots by their names and levels
    mine = name or (recorded[seat]["name"] if recorded else t(lang, "seat.player", n=seat + 1))
    seats = [{"name": mine} if s == seat else
             {"name": names[s], "bot": bot_map[s].level or bot_map[s].name} for s in range(n)]

    def save_current(quitting: bool = False) -> None:
        nonlocal save
        if save is None and quitting:          # quit without --save: say so, offer to save
            save = offer_save(console, prompter, lang, Path(f"{game}-{seed}.json"))
        if save is not None:
            path = save_path(save, session)
            try:
                save_record(session.state, path, seats=seats)
            except OSError as e:     # the folder went away during the game
                raise ConfigError(t(lang, "cli.err_save_failed", path=str(path),
                                    why=e.strerror or str(e))) from None
            history.remember_lang(path, lang)
            say_line(console, t(lang, "cli.saved", path=str(path)), "dim")

    def remember(state: GameState) -> None:     # the local history (`cardtable stats`)
        path = history.history_path()
        try:
            history.append(history.entry(state, seat, [bot_map[s].level or bot_map[s].name
                                                       for s in bot_map]), path)
        except OSError as e:
            say_line(console, t(lang, "cli.err_history", path=str(path),
                                why=e.strerror or str(e)), "yellow")

    try:
        rc = play_session(session, g, ui, seat, names, lang, console, prompter,
                          save_current, remember)
    except KeyboardInterrupt:                 # Ctrl-C: the record is kept, exit status 130
        console.print()
        save_current()
        say_line(console, t(lang, "cli.quit"))
        return 130
    if rc == 0 and resume is None and session.state.over and prompter.tty \
            and ask_again(prompter, lang):
        # the same settings, a new deal; a --save FILE goes on as FILE-2, FILE-3, ...
        return run_play(game, variant, players, seat, bots, None, lang, again_path(save),
                        rounds, start, auto, console, prompter, bot_pause, name, None,
                        **given)
    return rc


def play_session(session, g, ui, seat, names, lang, console, prompter, save_current,
                 game_over=None) -> int:
    """The games of a session, one after another (a CL-5 match: several). `save_current(
    quitting=False)` saves the record; `game_over(state)` is told each game played to its end."""
    while True:
        state = session.state
        if session.rounds > 1:
            starter = state.view(None).get("to_move")
            console.rule(t(lang, "cli.game_of", i=session.index + 1, n=session.rounds,
                           name=names[starter] if starter is not None else "?"))
        finished = g.run(state)
        state = session.state                 # an undo may have replaced it
        if not finished:
            save_current(quitting=True)
            say_line(console, t(lang, "cli.quit"))
            return 0
        if getattr(session, "final_board", True):  # Kombio: the last round's grids were shown
            console.print(ui.render(state.view(None), seat, names, lang))
        console.print(ui.summary(state.view(None), names, lang))
        save_current()
        if game_over is not None:
            game_over(state)
        table = session.table(names, lang)
        if table is not None:
            console.print(table)
        if session.index + 1 >= session.rounds:
            break
        if prompter.tty:
            try:
                answer = prompter.ask(t(lang, "cli.continue"))
            except EOFError:
                answer = "quit"
            if answer.strip().lower() in QUIT_WORDS:
                save_current(quitting=True)
                say_line(console, t(lang, "cli.quit"))
                return 0
        session.next_game()
    result = session.result(names, lang)
    if result is not None:
        console.print(result)
    return 0


@app.command("play", help=t(_L, "help.play"))
def play_cmd(
    game: str = typer.Argument(..., help=t(_L, "ko.help.game")),
    variant: Optional[str] = typer.Option(None, "--variant", help=t(_L, "help.variant")),
    players: Optional[int] = typer.Option(None, "--players", help=t(_L, "help.players")),
    seat: int = typer.Option(0, "--seat", help=t(_L, "help.seat")),
    bots: str = typer.Option("greedy", "--bots", help=t(_L, "help.bots", names=", ".join(bot_names()))),
    seed: Optional[int] = typer.Option(None, "--seed", help=t(_L, "help.seed")),
    lang: Optional[str] = typer.Option(None, "--lang", help=t(_L, "help.lang")),
    save: Optional[Path] = typer.Option(None, "--save", metavar="FILE", help=t(_L, "help.save")),
    rounds: Optional[int] = typer.Option(None, "--rounds", help=t(_L, "help.rounds")),
    start: int = typer.Option(0, "--start", help=t(_L, "help.start")),
    auto: bool = typer.Option(True, "--auto-forced/--confirm-forced", help=t(_L, "help.auto")),
    bot_pause: Optional[float] = typer.Option(None, "--bot-pause", metavar="S",
                                              help=t(_L, "help.bot_pause")),
    target: Optional[int] = typer.Option(None, "--target", help=t(_L, "ko.opt.target")),
    memory: bool = typer.Option(False, "--memory", help=t(_L, "ko.opt.memory")),
    memory_seconds: Optional[float] = typer.Option(None, "--memory-seconds", metavar="S",
                                                   help=t(_L, "ko.opt.memory_seconds")),
    snap_seconds: Optional[float] = typer.Option(None, "--snap-seconds", metavar="S",
                                                 help=t(_L, "ko.opt.snap_seconds")),
    name: Optional[str] = typer.Option(None, "--name", help=t(_L, "help.name")),
    resume: Optional[Path] = typer.Option(None, "--resume", metavar="FILE",
                                          help=t(_L, "help.resume")),
    option: Optional[list[str]] = typer.Option(None, "--option", metavar="NAME=VALUE",
                                               help=t(_L, "help.option")),
) -> None:
    raise typer.Exit(run_play(game, variant, players, seat, bots, seed, lang, save, rounds,
                              start, auto, bot_pause=bot_pause, name=name, resume=resume,
                              target=target, options=option,
                              memory=memory, memory_seconds=memory_seconds,
                              snap_seconds=snap_seconds))


# -- entry point --------------------------------------------------------------------------------
def _error(msg: str, lang: str | None = None) -> None:
    line = " ".join(str(msg).split())
    sys.stderr.write(t(lang or default_lang(), "cli.error", msg=line) + "\n")
    sys.stderr.flush()


# Commands of the other parts: each module has `register(app)`.
COMMAND_MODULES = ("replay_cmd", "tournament_cmd", "hint_cmd", "serve_cmd", "analyze_cmd", "review_cmd",
                   "learn_cmd", "stats_cmd", "doctor_cmd", "db_cmd", "admin_cmd")
#: the commands of the game server, and the modules they need: the extra `server` (pip install
#: 'cardtable[server]'; `make run` installs it). Without them these commands say so.
SERVER_COMMANDS = {"serve_cmd": ("serve",), "doctor_cmd": ("doctor",),
                   "db_cmd": ("backup", "restore", "migrate"), "admin_cmd": ("admin",)}
SERVER_STACK = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "icu")


def server_installed() -> bool:
    """Is the extra `server` installed (its modules found, none imported)?"""
    return all(importlib.util.find_spec(m) is not None for m in SERVER_STACK)


def _no_server(name: str) -> None:
    @app.command(name, help=t(default_lang(), "cli.no_server_help"),
                 context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def command(ctx: typer.Context) -> None:
        _error(t(default_lang(), "cli.no_server"))
        raise typer.Exit(2)


for _name in COMMAND_MODULES:
    if _name in SERVER_COMMANDS and not server_installed():
        for _command in SERVER_COMMANDS[_name]:
            _no_server(_command)
        continue
    importlib.import_module(f"cardtable.cli.{_name}").register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the app; CardtableError and usage errors: one line on stderr, exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        args = ["--help"]
    command = typer.main.get_command(app)
    lang = lang_of(args)
    try:
        rv = command.main(args=args, prog_name="cardtable", standalone_mode=False)
    except CardtableError as e:
        _error(e.words(lang), lang)
        return 2
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        return 130
    except KeyboardInterrupt:
        return 130
    except typer.TyperException as e:         # usage errors: bad option values, ...
        _error(usage_words(e, lang, args), lang)
        return 2
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":
    sys.exit(main())
