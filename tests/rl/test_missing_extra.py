"""Importing a research front end without the rl extra (issue 35): the error names the missing
module and the extra to install, not a bare ModuleNotFoundError."""

from __future__ import annotations

import importlib
import sys

import pytest


@pytest.mark.parametrize("front,dep", [
    ("cardtable.rl.gymnasium", "gymnasium"),
    ("cardtable.rl.pettingzoo", "pettingzoo"),
    ("cardtable.rl.pettingzoo", "gymnasium"),
    ("cardtable.rl.openspiel", "pyspiel"),
    ("cardtable.rl.batch", "numba"),
    ("cardtable.rl.batch.vector", "gymnasium"),
    ("cardtable.rl.batch.parallel", "pettingzoo"),
])
def test_missing_extra_says_what_to_install(monkeypatch, front, dep):
    monkeypatch.setitem(sys.modules, dep, None)            # as if it were not installed
    monkeypatch.delitem(sys.modules, front, raising=False)
    with pytest.raises(ModuleNotFoundError) as err:
        importlib.import_module(front)
    assert err.value.name == dep
    message = str(err.value)
    assert repr(dep) in message and "pip install 'cardtable[rl]'" in message
