"""Issue 30: simultaneous decisions are a protocol concept (core/game.py `Window`, `round()`).
A toy race (race.py) with its own words is checked by the generic property tester, and played
through the server's runtime, whose window and round-break logic must hold no game's word: the
toy's silence is "keep", its window a "race", neither Kombio's "pass" nor "snap"."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

import toygame
from cardtable.core import registry
from cardtable.core.checks import Stats, check_window, playout
from cardtable.core.game import Window
from cardtable.core.record import new_game

from . import race


@pytest.fixture(autouse=True)
def race_registered():
    registry.register(race.GAME)
    yield race.GAME
    registry.unregister(race.NAME)


def _no_leak(state, view, seat):
    assert view["cards"][1 - seat] == ("?" if not state.over else state.cards[1 - seat])


def _result(state):
    v = state.view(None)
    assert v["winners"] == [s for s in (0, 1) if v["cards"][s] == max(v["cards"])]


def test_the_property_tester_checks_the_race_windows_and_rounds():
    stats = Stats()
    seen: set[str] = set()
    for seed in range(100):
        end = playout(lambda sd: new_game(race.NAME, seed=sd, start=sd % 2), seed, stats=stats,
                      no_leak=_no_leak, check_result=_result, seen_texts=seen, deep_every=2)
        assert end.round() == race.ROUNDS
    assert stats.games == 100 and stats.window_answers == stats.decisions == 400


def test_the_toy_without_windows_has_none_and_no_rounds():
    s = new_game(toygame.NAME, seed=1)
    assert s.window() is None and s.round() is None
    s.apply("swap")
    assert s.window() is None and s.round() is None


class _BadSilence(race.RaceState):
    def window(self):
        w = super().window()
        return None if w is None else Window(w.seats, "fold", w.kind)


class _StaleSeats(race.RaceState):
    def window(self):
        return None if self._over else Window((self._to_move, 1 - self._to_move), "keep", "race")


class _OtherSeat(race.RaceState):
    def window(self):
        w = super().window()
        return None if w is None else Window(w.seats[::-1], w.silence, w.kind)


@pytest.mark.parametrize("cls,words", [(_BadSilence, "silence 'fold' is not legal"),
                                       (_StaleSeats, "Window"),
                                       (_OtherSeat, "first seat is not to move")])
def test_the_property_tester_sees_a_broken_window(cls, words):
    """The checks are not blind: a window whose silence is no legal decision, one that does not
    shrink as its seats answer, one whose first seat is not to move, are all caught."""
    with pytest.raises(AssertionError, match=words):
        playout(lambda sd: cls(sd, 0), 1, stats=Stats(), no_leak=_no_leak,
                check_result=_result, seen_texts=set(), deep_every=1)


def test_check_window_asks_every_seat_on_a_copy():
    s = race.RaceState(seed=4, start=1)
    w = s.window()
    assert w == Window((1, 0), "keep", "race")
    check_window(s, w, s.legal(), deep=True)
    asked = w.ask(s, 0)
    assert asked.to_move == 0 and asked.history == ["keep"] and s.history == []


# -- the server's runtime plays the race by the protocol only ---------------------------------
def _run(coro):
    with ThreadPoolExecutor(1) as pool:          # a loop of its own, whatever ran before
        return pool.submit(asyncio.run, coro).result()


async def _table(tmp_path, **settings):
    from cardtable.server.config import DatabaseURL, Settings
    from cardtable.server.store.db import Store
    from cardtable.server.store.migrate import upgrade
    from cardtable.server.tables.hub import Hub

    url = DatabaseURL(str(tmp_path / "race.db"))
    upgrade(url)
    store = Store(url)
    rec = race.new_game(seed=3, start=0).record()
    values = {"code": "RACE", "game": race.NAME, "settings": {"snap_seconds": 30},
              "base": {k: v for k, v in rec.items() if k != "actions"}, "public": False,
              "status": "playing", "deadline": None, "snap": None, "rematch_code": None}
    rows = [{"seat": s, "kind": "human", "bot": None, "name": None, "token_hash": None,
             "away": False, "joined_at": None} for s in range(2)]
    tid = await store.create_table(values, rows)
    hub = Hub(store, Settings(database=str(url), **settings))
    return store, hub, await hub.runtime(tid)


def test_the_runtime_runs_a_window_and_a_round_break_of_a_game_it_does_not_know(tmp_path):
    from cardtable.server.tables.table_base import ProtocolError

    async def main():
        store, hub, rt = await _table(tmp_path, round_break=30.0, round_pause=0.0)
        # the window is open for both seats at once: seat 1 answers before seat 0
        assert rt.window_order() == [0, 1]
        assert rt.legal_for(1) == ["keep", "swap"] and rt.waiting_for(None) == [0, 1]
        assert rt.deadline is None or rt.deadline > 0
        ack = await rt.decide(1, "keep")
        assert ack["pending"] and ack["decision"] == "keep" and rt.n == 0    # kept pending
        assert rt.state_msg(1)["window"] == {"deadline": rt.deadline, "eligible": True,
                                             "answered": "keep", "seats": [0, 1]}
        assert rt.legal_for(1) == [] and rt.legal_for(0) == ["keep", "swap"]
        # the decisions as JSON go with them (the protocol's default for a game without args)
        assert rt.state_msg(1)["decisions"] == []
        assert rt.state_msg(0)["decisions"] == [{"text": w, "kind": w, "args": {}}
                                                for w in ("keep", "swap")]
        with pytest.raises(ProtocolError) as e:
            await rt.decide(1, "swap")
        assert e.value.code == "already_answered" and "race window" in e.value.message
        # seat 0's claim closes the window: its swap, seat 1's silence, in the window's order
        ack = await rt.decide(0, "swap")
        assert not ack["pending"] and rt.n == 2 and rt.state.history == ["swap", "keep"]
        assert [by for _, by in rt.log] == ["player", "player"]
        # the round changed in that action: a round break holds round 2 back
        assert rt.state.round() == 2 and rt.round_break() is not None
        assert rt.legal_for(0) == [] and rt.state_msg(0)["window"] is None
        with pytest.raises(ProtocolError) as e:
            await rt.decide(0, "keep")
        assert e.value.code == "round_break"
        assert await rt.end_break(rt.n)                  # nobody is here: a pause of 0 s
        # round 2's window: both silent closes it, and the game is over
        assert rt.round_break() is None and rt.window_order() == [0, 1]
        assert rt.state_msg(0)["window"]["deadline"] == rt.deadline      # the window's clock
        assert (await rt.decide(0, "keep"))["pending"]
        assert not (await rt.decide(1, "keep"))["pending"]
        assert rt.state.over and rt.status == "over"
        assert rt.state.history == ["swap", "keep", "keep", "keep"]
        hub.release(rt)
        await store.close()

    _run(main())
