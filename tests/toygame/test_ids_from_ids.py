"""The research API's ids come from a game's id (`GameInfo.name`), never from its title: a
game titled "Higher or Lower" (spaces, any words people read) still gets valid Gymnasium and
OpenSpiel ids, and registering the environments of every game keeps working."""

from __future__ import annotations

import dataclasses

import pytest

import toygame
from cardtable.core import registry


@pytest.fixture
def titled():
    """The toy under a title with spaces (its id stays `twocard`)."""
    return registry.register(dataclasses.replace(toygame.GAME, title="Higher or Lower"))


def test_the_gymnasium_id_is_made_of_the_game_id(titled):
    gymnasium = pytest.importorskip("gymnasium")
    from cardtable.rl.common import env_name
    from cardtable.rl.gymnasium import env_id, register

    assert env_id(toygame.NAME) == "cardtable/Twocard-v0"
    assert env_name("abluxxen") == "Abluxxen" and env_id("kombio") == "cardtable/Kombio-v0"
    register()                                   # every game's environments, this one too
    assert gymnasium.make(env_id(toygame.NAME)).reset(seed=1)[0].shape == (26,)


def test_the_openspiel_game_is_named_by_the_game_id(titled):
    pyspiel = pytest.importorskip("pyspiel")
    from cardtable.rl import openspiel

    openspiel.register()
    game = pyspiel.load_game(f"python_cardtable_{toygame.NAME}", {"deals": 8})
    assert game.get_type().long_name.endswith("Higher or Lower")


def test_a_word_split_id_is_capitalised_word_by_word(monkeypatch):
    from cardtable.rl.common import env_name

    monkeypatch.setattr("cardtable.rl.common.info",
                        lambda name: dataclasses.replace(toygame.GAME, name=name))
    assert env_name("higher_lower") == "HigherLower" and env_name("x-2y") == "X2y"
