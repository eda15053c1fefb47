"""The compiled rollouts' shared warm-up (rl/batch/warm.py), on stand-in modules: nothing is
answered before the warm-up process has succeeded, a failed warm-up or a module that cannot
be imported is given up for good, a forked child starts its own warm-up, and the warm-up's
own work refuses a rollout that could not be played. The games' searches test it with their
real rollouts (tests/kombio/test_fast_rollout.py, tests/abluxxen/test_fast_rollout.py)."""

from __future__ import annotations

import json
import sys

import pytest

from cardtable.rl.batch.warm import Compiled, warm


def _compiled(monkeypatch, module: str, attr: str, code: str) -> Compiled:
    """A `Compiled` whose warm-up is the Python snippet `code`."""
    c = Compiled(module, attr)
    monkeypatch.setattr(c, "command", lambda: [sys.executable, "-c", code])
    return c


def test_the_function_once_the_warm_up_has_succeeded(monkeypatch, tmp_path):
    gate = tmp_path / "gate"
    c = _compiled(monkeypatch, "json", "dumps",
                  f"import os, time\nwhile not os.path.exists({str(gate)!r}):\n"
                  "    time.sleep(0.01)")
    assert c() is None and c.warming[1].poll() is None      # started, not done: None
    first = c.warming[1]
    gate.touch()
    assert c(wait=True) is json.dumps
    assert c.warming[1] is first and c() is json.dumps      # one warm-up, loaded once


@pytest.mark.parametrize("module,attr,code", [
    ("json", "dumps", "raise SystemExit(3)"),               # the warm-up failed
    ("cardtable_no_such_module", "playout", "pass"),        # nothing to import
    ("json", "no_such_function", "pass"),
])
def test_a_failed_warm_up_is_given_up_for_good(monkeypatch, module, attr, code):
    c = _compiled(monkeypatch, module, attr, code)
    assert c(wait=True) is None
    assert c.loaded is False
    monkeypatch.setattr(c, "command", lambda: pytest.fail("started again"))
    assert c(wait=True) is None


def test_a_forked_child_starts_its_own_warm_up(monkeypatch):
    c = _compiled(monkeypatch, "json", "dumps", "pass")
    c(wait=True)
    parent = c.warming[1]
    c.loaded = None
    c.warming = (c.warming[0] + 1, parent)                  # as a fork sees its parent's
    assert c(wait=True) is json.dumps
    assert c.warming[1] is not parent


def test_the_warm_up_process_refuses_a_rollout_it_could_not_play(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    played = []
    warm(tmp_path, lambda: played.append(1) or True)
    assert played and list(tmp_path.rglob("warm.lock"))
    with pytest.raises(SystemExit, match="could not play"):
        warm(tmp_path, lambda: False)
