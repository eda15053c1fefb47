"""`hint` typed during a terminal game (issue 34, cli/coach.py): the coach ranks the options of the
decision at hand exactly as bots/hint.py does for that state and seat, in English and German, and
changes nothing; `hint N` with a bad N is refused; a game with another person refuses it."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

import pytest
from rich.console import Console

from cardtable.bots.hint import hint
from cardtable.cli.coach import coach_in_game
from cardtable.core import load_record
from cardtable.core.record import new_game


def _rows(out: str, legal: set[str]) -> list[str]:
    """The decisions of the coach's table, in its order (rows `[*]N │ decision │ n │ %`)."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*\*?(\d+)\s*│\s*(.+?)\s*│\s*(\d+)\s*│\s*(\d+\.\d%|—)\s*$", line)
        if m and m.group(2) in legal:
            rows.append(m.group(2))
    return rows


@pytest.mark.parametrize("lang,word,head", [("C.UTF-8", "hint", "win chance"),
                                            ("de_DE.UTF-8", "tipp", "Gewinnchance")])
def test_hint_during_play_ranks_as_the_hint_engine(run, tmp_path, lang, word, head):
    save = tmp_path / "game.json"
    proc = run("play", "abluxxen", "--seed", "3", "--bots", "random", "--save", save,
               input=f"{word} 30\n{word} 1\nquit\n", lang=lang)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    state = load_record(save)                   # quit at the first prompt: the state asked about
    assert not state.over and state.to_move == 0
    legal = {d.text for d in state.legal_decisions()}
    expect = [o["decision"] for o in hint(state, seat=0, iterations=30,
                                          seed=len(state.history))]
    assert head in out
    assert _rows(out, legal) == expect          # every option, ranked as the engine ranks them
    assert re.search(r"hint N: .*(from 2 to|von 2 bis) 20000", out)           # `hint 1`


def test_hint_is_refused_when_another_seat_is_a_person():
    state = new_game("abluxxen", players=3, seed=1)
    said = []
    game = SimpleNamespace(seat=0, bots={1: object()}, lang="en",
                           say=lambda text, style="": said.append(text),
                           console=Console(file=io.StringIO()))
    coach_in_game(game, state, "hint")
    assert said == ["The coach is off: another seat of this game is a person's."]
