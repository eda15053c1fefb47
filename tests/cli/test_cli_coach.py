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
    """The decisions of the coach's table, in its order
    (rows `[*]N │ decision │ % (lo–hi) │ n │ [uncertain]`)."""
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*\*?(\d+)\s*│\s*(.+?)\s*│\s*(\d+ ?% \(\d+–\d+\)|—)\s*│\s*(\d+)"
                     r"\s*│\s*(\w*)\s*$", line)
        if m and m.group(2) in legal:
            rows.append(m.group(2))
    return rows


@pytest.mark.parametrize("lang,word,head", [("C.UTF-8", "hint", "win chance"),
                                            ("de_DE.UTF-8", "tipp", "Gewinnchance")])
def test_hint_during_play_ranks_as_the_hint_engine(run, tmp_path, lang, word, head):
    save = tmp_path / "game.json"
    proc = run("play", "abluxxen", "--seed", "3", "--bots", "random", "--save", save,
               input=f"{word} all 30\n{word} 1\nquit\n", lang=lang)
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


def _position(game: str, players: int, seed: int, options: int):
    """A real position of `game` with at least `options` legal decisions (random play)."""
    from cardtable.bots import act, make_bot

    state = new_game(game, players=players, seed=seed)
    bot = make_bot("random", seed=seed)
    while len(state.legal_decisions()) < options:
        state.apply(act(bot, state).text)
    return state


@pytest.mark.parametrize("lang,uncertain", [("en", "uncertain"), ("de", "unsicher")])
@pytest.mark.parametrize("game,players,seed,options", [("abluxxen", 3, 1, 20),
                                                       ("kombio", 2, 11, 100)])
def test_hint_fits_80_by_24(lang, uncertain, game, players, seed, options):
    """The coach's table of a real position (25+ options in Abluxxen, 100+ in a Kombio swap)
    fits 80 columns and 12 rows: the best few, the level's own choice, a note how to see all;
    a row searched far less than the best-sampled one says it is uncertain. `hint all` lists
    every option."""
    state = _position(game, players, seed, options)
    console = Console(file=io.StringIO(), width=80)
    game_ = SimpleNamespace(seat=state.to_move, bots={s: object() for s in range(players)},
                            lang=lang, console=console,
                            say=lambda text, style="": console.print(text, style=style))
    coach_in_game(game_, state, "hint")
    out = console.file.getvalue()
    lines = out.rstrip("\n").splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines), out
    assert len(lines) <= 12, out
    legal = {d.text for d in state.legal_decisions()}
    options = hint(state, seat=state.to_move, seed=len(state.history))
    rows = _rows(out, legal)
    ranked = [o["decision"] for o in options]
    choice = next(o["decision"] for o in options if o["level_choice"])
    assert rows[:5] == ranked[:5] and choice in rows and len(rows) <= 6
    assert ("hint all" in out) and str(len(options)) in out
    most = max(o["visits"] for o in options)
    for line in lines:
        for o in options[:5]:
            if re.match(rf"\s*\*?\d+\s*│\s*{re.escape(o['decision'])}\s*│", line):
                assert (uncertain in line) == (o["visits"] * 4 < most
                                               or o["visits"] < 10), line
    for word in " ".join(lines).split():          # notes wrap between words, not inside one
        assert word in out.replace("\n", " ").split()
    console.file.truncate(0)
    console.file.seek(0)
    coach_in_game(game_, state, "hint all")         # the same search, every option
    assert _rows(console.file.getvalue(), legal) == ranked


def test_hint_shows_an_uncertain_top_row():
    """The case that misleads: an option ranked above the level's choice on far fewer
    play-outs (27 against 350 here) says "uncertain"."""
    state = _position("abluxxen", 3, 1, 20)
    options = hint(state, seat=state.to_move, seed=len(state.history))
    assert options[0]["visits"] * 4 < max(o["visits"] for o in options)   # the case is real
    console = Console(file=io.StringIO(), width=80)
    game_ = SimpleNamespace(seat=state.to_move, bots={s: object() for s in range(3)},
                            lang="en", console=console, say=lambda text, style="": None)
    coach_in_game(game_, state, "hint")
    first = next(line for line in console.file.getvalue().splitlines()
                 if re.match(r"\s*\*?1\s*│", line))
    assert first.rstrip().endswith("uncertain")


def test_hint_draws_no_empty_note_column():
    """Without an uncertain row the table has no fifth column: its rule would end in a stray
    stroke past the last header."""
    from cardtable.cli.hint_cmd import print_options

    options = [{"decision": d, "win_chance": w, "visits": 90, "level_choice": d == "draw"}
               for d, w in (("draw", 0.4), ("kombio", 0.3))]
    console = Console(file=io.StringIO(), width=80)
    print_options(console, options, "en")
    rule = next(line for line in console.file.getvalue().splitlines() if "╇" in line)
    assert rule.count("╇") == 3, rule
    options[1]["visits"] = 5                    # an uncertain row brings the column back
    console = Console(file=io.StringIO(), width=80)
    print_options(console, options, "en")
    out = console.file.getvalue()
    assert "uncertain" in out and next(x for x in out.splitlines() if "╇" in x).count("╇") == 4
