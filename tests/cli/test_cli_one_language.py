"""No text of the other language reaches a player (issue 14): whole games played in the
terminal, as a player types (piped), in German show no sentence of the English catalog, and in
English none of the German one. The sentences are the catalog's own literal parts."""

from __future__ import annotations

import pytest

from cardtable.i18n import foreign_words


@pytest.fixture(scope="module")
def english():
    return foreign_words("en", "de")


@pytest.fixture(scope="module")
def german():
    return foreign_words("de", "en")


def _check(out: str, foreign: set[str]):
    hits = sorted(f for f in foreign if f in out)
    assert not hits, hits[:10]


GAMES = [["kombio", "--players", "3", "--target", "30", "--snap-seconds", "600"],
         ["kombio", "--players", "2", "--target", "30", "--snap-seconds", "600", "--memory"],
         ["abluxxen", "--players", "4"], ["abluxxen", "--variant", "duel"],
         ["abluxxen", "--variant", "classic", "--players", "3", "--rounds", "3"]]


@pytest.mark.parametrize("args", GAMES)
def test_a_whole_german_game_has_no_english(cli, english, german, args, tmp_path):
    save = tmp_path / "g.json"
    proc = cli("play", *args, "--seed", "11", "--lang", "de", "--save", save,
               input="foo\nhelp\n" + "1\n" * 3000, lang="de_DE.UTF-8", timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "Ergebnis" in proc.stdout or "Serie" in proc.stdout
    _check(proc.stdout + proc.stderr, english)
    replay = cli("replay", save if "classic" not in args else save.with_name("g-1.json"),
                 "--no-pause", lang="de_DE.UTF-8")
    assert replay.returncode == 0 and "Endstand" in replay.stdout
    _check(replay.stdout, english)


@pytest.mark.parametrize("args", GAMES[:1] + GAMES[2:4])
def test_a_whole_english_game_has_no_german(cli, german, args):
    proc = cli("play", *args, "--seed", "11", "--lang", "en", input="foo\nhelp\n" + "1\n" * 3000,
               lang="de_DE.UTF-8", timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "Result" in proc.stdout
    _check(proc.stdout + proc.stderr, german)


def test_the_fragments_are_many(english, german):
    assert len(english) > 300 and len(german) > 300
