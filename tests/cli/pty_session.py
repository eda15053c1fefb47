"""The real `cardtable` program in a pseudo-terminal of a given size, driven as a player types:
wait for a text on the screen (never for the clock: the time limit is only a guard against a
hung program), then type."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time

from pty_command import command as _command

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\r")


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pty as its terminal (so Ctrl-C is SIGINT),
    and SIGINT's default disposition, as a shell gives the program it starts. (An ignored
    SIGINT is inherited, and Python then installs no KeyboardInterrupt handler: a test suite
    started as a background job of a shell without job control made Ctrl-C do nothing.)"""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class PtySession:
    def __init__(self, *args, rows: int = 24, cols: int = 80, lang: str = "C.UTF-8",
                 env: dict | None = None):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full = {k: v for k, v in os.environ.items()
                if not k.startswith("LC_") and k not in ("COLUMNS", "LINES")}
        full.update(LANG=lang, TERM="xterm-256color", PYTHONIOENCODING="utf-8",
                    PROMPT_TOOLKIT_NO_CPR="1")     # no cursor position requests to answer
        full.update(env or {})
        self.proc = subprocess.Popen(_command() + [str(a) for a in args], stdin=slave,
                                     stdout=slave, stderr=slave, env=full,
                                     preexec_fn=_controlling_terminal)
        os.close(slave)
        self.raw = b""
        self._text, self._text_of = "", 0
        self.pos = 0                      # end of what `expect` has consumed

    @property
    def text(self) -> str:
        """Everything printed so far, without terminal control sequences."""
        if self._text_of != len(self.raw):
            self._text = ANSI.sub("", self.raw.decode("utf-8", errors="replace"))
            self._text_of = len(self.raw)
        return self._text

    def _read(self, wait: float) -> bool:
        r, _, _ = select.select([self.master], [], [], wait)
        if not r:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:                   # the program ended: EIO on Linux
            chunk = b""
        if not chunk:
            raise EOFError
        self.raw += chunk
        return True

    def expect(self, pattern: str, guard: float = 600) -> re.Match:
        """Wait until `pattern` (a regex) appears after what was matched before."""
        rx = re.compile(pattern)
        end = time.monotonic() + guard
        while True:
            m = rx.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > end:
                raise AssertionError(f"no {pattern!r} within {guard} s; screen:\n"
                                     + self.text[-3000:])
            try:
                self._read(0.2)
            except EOFError:
                m = rx.search(self.text, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                raise AssertionError(f"the program ended before {pattern!r}:\n"
                                     + self.text[-3000:]) from None

    def expect_prompt(self, pattern: str, guard: float = 600) -> re.Match:
        """Wait until the program waits at a prompt matching `pattern`: the prompt is the last
        thing on the screen. (prompt_toolkit redraws a prompt with its answer once it is
        accepted, "Your decision> 1": a plain `expect` takes that for a new prompt and the
        answer is typed twice, the second time to whatever comes next.)"""
        return self.expect(rf"(?:{pattern})[ \t]*\Z", guard)

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def interrupt(self) -> None:
        """Ctrl-C as typed: the terminal sends SIGINT to the foreground program."""
        os.write(self.master, b"\x03")

    def interrupt_until_exit(self, guard: float = 600) -> int:
        """Ctrl-C, and again while the program runs, as a user would; its exit status. A Ctrl-C
        typed while the program switches the terminal between modes can be flushed away by
        the switch (a busy machine makes that window wide), so one keypress may not arrive."""
        end = time.monotonic() + guard
        while self.proc.poll() is None and time.monotonic() < end:
            self.interrupt()
            for _ in range(10):                       # read what it prints for up to ~2 s
                if self.proc.poll() is not None:
                    break
                try:
                    self._read(0.2)
                except EOFError:
                    break
        return self.wait()

    def wait(self, guard: float = 600) -> int:
        end = time.monotonic() + guard
        while self.proc.poll() is None and time.monotonic() < end:
            try:
                self._read(0.2)
            except EOFError:
                break
        code = self.proc.wait(timeout=max(1.0, end - time.monotonic()))
        try:
            while self._read(0):
                pass
        except EOFError:
            pass
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=60)
        os.close(self.master)
