"""Helpers for the terminal front end tests: run the installed `cardtable` console script."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pty_command import command

DATA = Path(__file__).parent / "data"
_command = command


def run_cli(*args, input: str | None = None, lang: str = "C.UTF-8", timeout: float = 60):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env["LANG"] = lang
    env["COLUMNS"] = "100"
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(_command() + [str(a) for a in args], input=input, text=True,
                          capture_output=True, env=env, timeout=timeout, encoding="utf-8")


@pytest.fixture(autouse=True)
def _data_folder(tmp_path_factory, monkeypatch):
    """The user data folder of every test here (the terminal's game history, ratings) is a
    temporary one: a test never writes into the home folder or the checkout."""
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def cli():
    """cli(*args, input=None, lang="C.UTF-8") -> CompletedProcess: the real console script in
    a subprocess (slow: used for the contract and a few end-to-end checks)."""
    return run_cli


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def run(monkeypatch):
    """run(*args, input=None, lang="C.UTF-8") -> Result: `cardtable.cli.main.main(args)` in this
    process with stdin/stdout/stderr replaced (stdin is not a TTY, as in a pipe)."""
    from cardtable.cli.main import main

    def _run(*args, input: str | None = None, lang: str = "C.UTF-8") -> Result:
        for var in ("LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(var, raising=False)
        monkeypatch.setenv("LANG", lang)
        monkeypatch.setenv("COLUMNS", "100")
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdin", io.StringIO(input or ""))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
        return Result(code, out.getvalue(), err.getvalue())

    return _run


@pytest.fixture
def data_dir() -> Path:
    return DATA


def assert_usage_error(proc) -> None:
    """Exit status 2, one line on stderr, nothing on stdout, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardtable: error: ") or lines[0].startswith("cardtable: Fehler: ")


@pytest.fixture
def usage_error():
    return assert_usage_error
