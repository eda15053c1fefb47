"""The end of a terminal game that is not simply over: quitting without --save (say so, offer
to save) and "play again" after a game (the same settings, a new deal)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from cardtable.cli.i18n import t
from cardtable.cli.play_args import check_save
from cardtable.cli.prompt import Prompter
from cardtable.core.errors import ConfigError


#: answers that accept an offer (`offer_save`)
YES_WORDS = {"y", "yes", "j", "ja"}


def offer_save(console: Console, prompter: Prompter, lang: str, default: Path) -> Path | None:
    """A game quit without --save: say it is not kept and, at a terminal, offer to save it
    ("y" saves to `default`, a file name to that file; Enter or "n" throws it away). The path
    to save to, or None."""
    from cardtable.cli.main import say_line

    if not prompter.tty:
        say_line(console, t(lang, "cli.not_saved"), "yellow")
        return None
    while True:
        try:
            answer = prompter.ask_line(t(lang, "cli.offer_save", path=str(default))).strip()
        except EOFError:
            answer = ""
        if not answer or answer.lower() in {"n", "no", "nein"}:
            say_line(console, t(lang, "cli.not_saved"), "yellow")
            return None
        path = default if answer.lower() in YES_WORDS else Path(answer).expanduser()
        try:
            check_save(path, lang)
        except ConfigError as e:
            say_line(console, str(e), "red")
            continue
        return path


def ask_again(prompter: Prompter, lang: str) -> bool:
    """Ask whether to play again with the same settings (Enter: no)."""
    try:
        answer = prompter.ask_line(t(lang, "cli.again"))
    except EOFError:
        return False
    return answer.strip().lower() in YES_WORDS


def again_path(save: Path | None) -> Path | None:
    """Where the next game of "play again" is saved: FILE-2 after FILE, FILE-3 after FILE-2."""
    if save is None:
        return None
    stem, _, n = save.stem.rpartition("-")
    if stem and n.isdigit():
        return save.with_name(f"{stem}-{int(n) + 1}{save.suffix}")
    return save.with_name(f"{save.stem}-2{save.suffix}")
