"""The words the terminal prints for people: seats counted from 1 (the record and the notation
keep their own numbering), names the terminal made up ("Player 1") in the reader's language,
rule sets by their display names, a Kombio target sentence that reads well, and help without
Typer's type column ("<bool>")."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from cardtable.bots import act, make_bot
from cardtable.core.errors import IllegalDecision
from cardtable.core.record import load_record, new_game


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    """A finished Abluxxen duel played in English without --name (its seat is "Player 1")."""
    from cardtable.cli.main import main
    import contextlib
    import sys

    path = tmp_path_factory.mktemp("words") / "duel.json"
    old = sys.stdin
    sys.stdin = io.StringIO("1\n" * 600)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["play", "abluxxen", "--variant", "duel", "--seed", "3", "--lang", "en",
                         "--save", str(path)]) == 0
    finally:
        sys.stdin = old
    assert json.loads(path.read_text())["seats"][0] == {"name": "Player 1"}
    return path


def test_german_replay_names_the_rule_set_and_the_seats_in_german(run, duel):
    out = run("replay", duel, "--no-pause", "--lang", "de").stdout
    head = out.splitlines()[0]
    assert head.startswith("Wiedergabe: Abluxxen, Duell (2 Spieler), 2 Spieler"), head
    assert "abluxxen duel" not in out and "Player 1" not in out
    assert "Spieler 1 (Platz 1), Ben (Platz 2" in out


def test_german_review_does_not_say_player(run, duel):
    out = run("review", duel, "--lang", "de", "--budget", "4", "--seat", "0").stdout
    assert "Spieler 1 (Platz 1)" in out and "Player" not in out


def test_a_refusal_names_the_seat_from_1():
    state = new_game("abluxxen", players=3, seed=1)
    assert state.to_move == 0
    with pytest.raises(IllegalDecision) as err:
        state.copy().apply("take")
    assert "expected from seat 1" in err.value.words("en")
    assert "Platz 1" in err.value.words("de")
    assert err.value.params["seat"] == 0                  # the engine's code keeps seat 0


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["review"], ["hint"]])
def test_help_shows_no_type_column(run, command):
    proc = run(*command, "--help")
    assert proc.returncode == 0 and "--help" in proc.stdout
    assert "<bool>" not in proc.stdout


def _finished_kombio():
    state = new_game("kombio", players=2, seed=2)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    while not state.over:
        state.apply(act(bots[state.to_move], state))
    return load_record(state.record())


@pytest.mark.parametrize("lang,you,other", [
    ("de", "Du hast das Ziel von {} Punkten erreicht", "{} hat das Ziel von {} Punkten erreicht"),
    ("en", "You have reached the target of {} points", "{} has reached the target of {} points")])
def test_the_kombio_target_sentence_reads_well(lang, you, other):
    from cardtable.kombio import ui

    state = _finished_kombio()
    view = state.view(None)
    totals = view["totals"]
    reached = [s for s in range(2) if totals[s] >= view["target"]]
    target = view["target"]
    assert len(reached) == 1
    me = {"de": "Du", "en": "You"}[lang]
    for names in ([me, "Ben"], ["Ann", "Ben"]):
        who = names[reached[0]]
        words = you.format(target) if who == me else other.format(who, target)
        console = Console(file=io.StringIO(), width=200)
        console.print(ui.summary(view, names, lang))
        out = console.file.getvalue()
        assert words in out, out
        assert "Das Ziel" not in out and "is reached by" not in out


def test_replay_and_review_number_actions_alike(run, duel):
    """Both count from 1 for people: the replay's first action is "1.", and a move review marks
    as N is the replay's line N (the record's actions[N-1])."""
    rec = json.loads(duel.read_text())
    out = run("replay", duel, "--no-pause", "--lang", "en").stdout
    steps = [line for line in out.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert steps[0].lstrip().startswith("1. ")
    numbers = [int(line.split(".")[0]) for line in steps]
    assert numbers[-1] == len(rec["actions"]) and 0 not in numbers
    review = json.loads(run("review", duel, "--json", "--budget", "4", "--seat", "0").stdout)
    marked = [d for s in review["seats"] for d in s["decisions"] if d["marked"]]
    table = run("review", duel, "--budget", "4", "--seat", "0").stdout
    for d in marked[:3]:                      # the table's move = the replay's number
        assert f"{d['index'] + 1} " in table
        line = next(x for x in steps if int(x.split(".")[0]) == d["index"] + 1)
        assert line


def test_decisions_are_listed_for_people_by_value():
    """`legal_by_value` lists "play 2" before "play 10"; `legal()` keeps the text order the
    views' `legal` is specified with (docs/notation.md)."""
    from cardtable.core.game import by_value

    state = new_game("abluxxen", players=3, seed=5)
    bot = make_bot("random", seed=1)
    while not {"play 2", "play 10"} <= set(state.legal()):
        state.apply(act(bot, state))
    people = state.legal_by_value()
    assert people.index("play 2") < people.index("play 10")
    assert state.legal() == sorted(people) and state.legal().index("play 10") < \
        state.legal().index("play 2")
    assert by_value(["swap 1.2 1.10", "swap 1.2 1.9", "draw pool 3+13+X", "draw pool 12"]) == \
        ["draw pool 3+13+X", "draw pool 12", "swap 1.2 1.9", "swap 1.2 1.10"]
