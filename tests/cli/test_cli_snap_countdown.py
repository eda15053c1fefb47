"""The terminal's snap window (issue 31): the prompt counts the seconds down as they run, Space
on an empty line snaps the card the window offers at once, a typed line is read as typed, and
the window closes by itself at its deadline. Driven through prompt_toolkit's own pipe input
(the keys a player presses), the prompt read back at each redraw."""

from __future__ import annotations

import math
import threading

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cardtable.cli.prompt import Prompter


def _window(seconds, keys_when, quick="snap 0.3"):
    """Run one countdown prompt; `keys_when(shown)` is asked at every redraw with the list of
    seconds shown so far and returns the keys to press then (or None)."""
    shown: list[int] = []
    sent = threading.Event()
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        def countdown(left: float) -> str:
            shown.append(math.ceil(left))
            keys = None if sent.is_set() else keys_when(shown)
            if keys is not None:
                sent.set()
                pipe.send_text(keys)
            return f"Snap · {math.ceil(left)} s> "

        answer = Prompter(tty=True)._countdown(seconds, countdown, quick)
    return answer, shown


def test_the_seconds_left_count_down_and_space_snaps_at_once():
    # Space only once the prompt has shown two different numbers of seconds: it counts down
    answer, shown = _window(600, lambda s: " " if len(set(s)) >= 2 else None)
    assert answer == "snap 0.3"
    assert shown[0] == 600 and min(shown) < 600
    assert shown == sorted(shown, reverse=True)             # never counts up


def test_a_typed_answer_is_read_as_typed_and_space_inside_it_is_a_space():
    answer, _ = _window(600, lambda s: "snap 0.1\r")
    assert answer == "snap 0.1"


def test_without_a_quick_snap_space_is_only_a_space():
    answer, _ = _window(600, lambda s: " pass\r", quick=None)
    assert answer == " pass"


def test_the_window_closes_by_itself_at_its_deadline():
    answer, shown = _window(0.3, lambda s: None)
    assert answer is None and shown


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_countdown_words_name_the_key_in_each_language(lang):
    from cardtable.cli.i18n import t

    text = t(lang, "ko.timed.countdown", top=5, left=3, example="snap 0.1",
             quick=t(lang, "ko.timed.quick", decision="snap 0.3"))
    assert "3" in text and "snap 0.3" in text
    assert ("Leertaste" if lang == "de" else "Space") in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_space_offers_the_card_the_player_can_see_is_the_top_cards_twin(lang):
    """Seat 0 knows its 0.3 is a 5 (KO-2) and discards a drawn 5: the window's one-key snap is
    `snap 0.3`, and nothing when the player knows no twin of the top card."""
    from cardtable.kombio.ui import KombioSession
    from cardtable.kombio import new_game

    def deal_game(grids, deck, seed):
        return new_game(players=2, seed=seed, deal={"grids": grids, "deck": deck})

    state = deal_game([[1, 2, 5, 9], [3, 4, 6, 8]], deck=[5, 11, 12], seed=1)
    state.apply("draw")
    state.apply("discard")
    session = KombioSession(state, lang, 5.0, None)
    timed = session.timed(state.view(0) | {"legal": state.legal()}, 0)
    assert timed.quick == "snap 0.3"
    other = deal_game([[1, 2, 7, 9], [3, 4, 6, 8]], deck=[5, 11, 12], seed=1)
    other.apply("draw")
    other.apply("discard")
    timed = KombioSession(other, lang, 5.0, None).timed(other.view(0) | {"legal": other.legal()}, 0)
    assert timed.quick is None
