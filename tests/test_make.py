"""The Makefile: `make run` installs what running needs, `make test` adds the test extras
(read from what make would run, `make -n`, in a fresh copy with no environment yet)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _plan(target: str, tmp_path: Path) -> list[str]:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    proc = subprocess.run(["make", "-n", "-C", str(tmp_path), target], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if "pip install" in line]


def _extras(lines: list[str]) -> set[str]:
    found = set()
    for line in lines:
        for group in re.findall(r"-e '?\.\[([^\]]*)\]", line):
            found.update(x.strip() for x in group.split(","))
    return found


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("target", ["run", "play"])
def test_run_installs_no_test_extras(target, tmp_path):
    lines = _plan(target, tmp_path)
    assert any(re.search(r"install --quiet -e \.$", x) for x in lines), lines
    assert _extras(lines) == set(), lines


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_test_installs_the_dev_extras(tmp_path):
    assert "dev" in _extras(_plan("test", tmp_path))
