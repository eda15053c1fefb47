"""Registers the toy game (toygame/__init__.py) through the same declaration the built-in
games use, with its refusal messages in the catalogs, for the tests of this folder only."""

from __future__ import annotations

import pytest

import toygame
from cardtable.core import registry
from cardtable.i18n import catalog


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    for lang, messages in toygame.MESSAGES.items():
        for key, text in messages.items():
            monkeypatch.setitem(catalog(lang), key, text)
    registry.register(toygame.GAME)
    yield toygame.GAME
    registry.unregister(toygame.NAME)
