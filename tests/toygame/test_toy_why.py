"""The state message's "why" line for a game the house has no words for (issue 30): the toy
race has no narration module, so its line is empty, and a narration that fails never breaks
a state message (the line is then empty too, as an event's words are)."""

from __future__ import annotations

import pytest

from cardtable import narration
from cardtable.core import registry

from . import race
from .test_toy_window import _run, _table


@pytest.fixture(autouse=True)
def race_registered():
    registry.register(race.GAME)
    yield race.GAME
    registry.unregister(race.NAME)


def test_a_game_without_words_gets_an_empty_why(tmp_path, monkeypatch):
    async def main():
        store, hub, rt = await _table(tmp_path)
        for viewer in (0, 1, None):
            for lang in ("en", "de"):
                assert rt.state_msg(viewer, lang)["why"] == ""
        # a narration that raises: the state message is still sent, with an empty line
        calls = []

        def broken(game, *args, **kw):
            calls.append(game)
            raise KeyError("to_move")

        monkeypatch.setattr("cardtable.server.tables.table_views.web_why", broken)
        msg = rt.state_msg(0, "de")
        assert calls == [race.NAME] and msg["why"] == "" and msg["legal"] == ["keep", "swap"]
        hub.release(rt)
        await store.close()

    assert narration.web_why(race.NAME, {}, 0, ["A", "B"], "en") == ""
    _run(main())
