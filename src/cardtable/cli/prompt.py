"""Reading the player's lines in the terminal: `Prompter` (prompt_toolkit with completion on a
terminal, plain lines from a pipe, a time limit for Kombio's snap window with a countdown) and
`LineReader` (lines from a descriptor with a timeout)."""

from __future__ import annotations

import os
import select
import sys
import time


class LineReader:
    """Lines from a file descriptor with an optional timeout (select(); works on terminals and
    pipes). Reads the descriptor itself, so no line waits unseen in a Python buffer while
    select() waits for more."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = b""
        self.eof = False

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line without its newline; None when `timeout` seconds pass first.
        Raises EOFError at the end of input."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf and not self.eof:
            if deadline is not None:
                left = max(0.0, deadline - time.monotonic())    # 0: only what is there
                if not select.select([self.fd], [], [], left)[0]:
                    return None
            chunk = os.read(self.fd, 4096)
            if chunk:
                self.buf += chunk
            else:
                self.eof = True
        if b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
        elif self.buf:
            line, self.buf = self.buf, b""
        else:
            raise EOFError
        return line.decode("utf-8", errors="replace").rstrip("\r")


def _stdin_fd() -> int | None:
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):    # e.g. a StringIO in tests
        return None


def fit_prompt(prompt: str, width: int | None = None) -> str:
    """A prompt wider than the terminal is wrapped between words: every line but the last is
    printed now, the last one is returned as the prompt (the terminal would otherwise break it
    in the middle of a word, German's long words most of all)."""
    import shutil
    import textwrap

    width = width or shutil.get_terminal_size((80, 24)).columns
    if len(prompt) < width or "\n" in prompt:
        return prompt
    lines = []
    for part in prompt.rstrip().split(" · "):      # "key: what · key: what": whole items first
        if lines and len(lines[-1]) + 3 + len(part) < width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    if any(len(x) >= width for x in lines):
        lines = textwrap.wrap(prompt, width - 1, break_on_hyphens=False)
    if len(lines) < 2:
        return prompt
    sys.stdout.write("\n".join(lines[:-1]) + "\n")
    return lines[-1] + (" " if prompt.endswith(" ") else "")


class Prompter:
    """Reads one line: prompt_toolkit with tab completion on a terminal, else a plain line
    (so input can be piped). `ask_timed` reads with a time limit (Kombio's snap window).
    Raises EOFError at the end of input."""

    def __init__(self, tty: bool | None = None):
        self.tty = sys.stdin.isatty() and sys.stdout.isatty() if tty is None else tty
        self._session = None
        self._reader: LineReader | None = None
        self._reader_fd: int | None = None

    def _line_reader(self) -> LineReader | None:
        fd = _stdin_fd()
        if fd is None:
            return None
        if self._reader is None or self._reader_fd != fd:
            self._reader, self._reader_fd = LineReader(fd), fd
        return self._reader

    def _plain(self, prompt: str, timeout: float | None = None) -> str | None:
        reader = self._line_reader()
        if reader is None:                        # no descriptor: no timeout possible
            try:
                return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                raise
        sys.stdout.write(prompt)
        sys.stdout.flush()
        try:
            line = reader.readline(timeout)
        except EOFError:
            sys.stdout.write("\n")
            raise
        if line is None:                          # timeout
            sys.stdout.write("\n")
            sys.stdout.flush()
            if os.isatty(reader.fd):
                try:
                    import termios

                    termios.tcflush(reader.fd, termios.TCIFLUSH)   # drop a half-typed line
                except (ImportError, OSError):
                    pass
        return line

    def stale(self) -> list[str]:
        """On a terminal: the lines typed before now (read and dropped: answers meant for a
        prompt that has gone, e.g. a snap window that closed). Elsewhere (a pipe): none."""
        reader = self._line_reader()
        if reader is None or not os.isatty(reader.fd):
            return []
        lines = []
        while True:
            try:
                line = reader.readline(0)
            except EOFError:
                break
            if line is None:
                break
            lines.append(line)
        return [x for x in lines if x.strip()]

    def ask_timed(self, prompt: str, seconds: float, countdown=None,
                  quick: str | None = None) -> str | None:
        """One line, or None if none came within `seconds`. On a terminal with `countdown`
        (seconds left -> prompt): the prompt shows the time left as it runs, and Space on an
        empty line answers `quick` at once."""
        if self.tty and countdown is not None:
            return self._countdown(seconds, countdown, quick)
        line = self._plain(prompt, max(seconds, 0.0))
        if line is not None and not sys.stdin.isatty():
            sys.stdout.write(line + "\n")
        return line

    def _countdown(self, seconds: float, countdown, quick: str | None) -> str | None:
        """prompt_toolkit with a prompt redrawn four times a second and an end at the
        deadline (an unfinished line is dropped: the window is over)."""
        import asyncio

        from prompt_toolkit import PromptSession
        from prompt_toolkit.application.current import get_app
        from prompt_toolkit.filters import Condition
        from prompt_toolkit.key_binding import KeyBindings

        end = time.monotonic() + max(seconds, 0.0)
        keys = KeyBindings()
        if quick:
            @keys.add(" ", filter=Condition(lambda: not get_app().current_buffer.text))
            def _quick(event) -> None:
                event.app.exit(result=quick)

        def at_deadline() -> None:
            app = get_app()

            def stop() -> None:
                if app.is_running and not app.future.done():
                    app.exit(result=None)

            asyncio.get_running_loop().call_later(max(0.0, end - time.monotonic()), stop)

        session = PromptSession(reserve_space_for_menu=0)
        return session.prompt(lambda: countdown(max(0.0, end - time.monotonic())),
                              refresh_interval=0.25, key_bindings=keys, pre_run=at_deadline)

    def ask_line(self, prompt: str) -> str:
        """A plain line (no editing or completion): a pause such as 'Enter: next round'.
        What was typed ahead is read as typed."""
        line = self._plain(fit_prompt(prompt))
        if not sys.stdin.isatty():
            sys.stdout.write(line + "\n")
        return line

    def ask(self, prompt: str, words: list[str] | None = None) -> str:
        prompt = fit_prompt(prompt)
        if self.tty:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter

            if self._session is None:            # no blank lines kept for a completion menu
                self._session = PromptSession(reserve_space_for_menu=0)
            completer = WordCompleter(words, sentence=True, ignore_case=True) if words else None
            return self._session.prompt(prompt, completer=completer)   # Ctrl-C: interrupt
        line = self._plain(prompt)
        if not sys.stdin.isatty():
            sys.stdout.write(line + "\n")    # echo: a piped session reads like a typed one
        return line
