"""The command line as a player meets it: --save is checked before the deal, Ctrl-C
keeps the record and exits 130 in `play` as in `replay`, `--bots` help names every bot, the
text replay can skip ahead, and a German player reads no English (the refusals included)."""

from __future__ import annotations

import json

import pytest

from cardtable.bots import bot_names
from cardtable.core.record import load_record
from pty_session import PtySession


@pytest.mark.parametrize("lang", ["C.UTF-8", "de_DE.UTF-8"])
def test_save_into_a_missing_folder_or_a_directory_is_refused_before_the_deal(cli, tmp_path,
                                                                              usage_error, lang):
    for bad in (tmp_path / "no" / "such" / "game.json", tmp_path):
        proc = cli("play", "abluxxen", "--seed", "1", "--save", bad, input="quit\n", lang=lang)
        usage_error(proc)                         # one line, exit 2, nothing of a deal
        assert str(bad) in proc.stderr
    assert not (tmp_path / "no").exists()


def test_play_help_lists_every_bot(cli):
    proc = cli("play", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for name in bot_names():
        assert name in text, name


def test_ctrl_c_in_play_keeps_the_record_and_exits_130(tmp_path):
    save = tmp_path / "g.json"
    s = PtySession("play", "abluxxen", "--seed", "4", "--save", save)
    try:
        s.expect(r"Your decision>")
        s.send("1\r")
        s.expect(r"You play")
        s.expect(r"Your decision>")
        s.interrupt()
        assert s.wait() == 130
        assert "Record saved to" in s.text and "Traceback" not in s.text
        assert load_record(save).history           # the decisions so far are kept
    finally:
        s.close()


@pytest.fixture
def record(cli, tmp_path):
    """A finished game's record (random bots)."""
    rec = tmp_path / "r.json"
    assert cli("play", "abluxxen", "--seed", "2", "--bots", "random", "--save", rec,
               input="1\n" * 400).returncode == 0
    return rec


def test_ctrl_c_in_replay_exits_130(record):
    s = PtySession("replay", record)
    try:
        s.expect(r"Enter: next action.*>")
        assert s.interrupt_until_exit() == 130
        assert "Traceback" not in s.text
    finally:
        s.close()


def test_text_replay_skips_ahead_and_runs_to_the_end(record):
    n = len(json.loads(record.read_text())["actions"])
    s = PtySession("replay", record)
    try:
        m = s.expect(r"  1\. [^\n]*\n((?:[^\n]*\n)*?)[^\n]*N actions on[^\n]*>")  # how to skip
        assert "Deck: " in m.group(1)                    # the board after the first action
        s.send("5\r")                                     # actions are numbered from 1
        m = s.expect(r"  6\. [^\n]*\n((?:[^\n]*\n)*?)[^\n]*N actions on[^\n]*>")  # then a pause
        assert "Deck: " in m.group(1)
        assert "  5. " in s.text and "  7. " not in s.text
        s.send("c\r")                                     # on to the end
        assert s.wait() == 0
        assert f"{n:>3}. " in s.text                # no further pause: it ended by itself
    finally:
        s.close()


def test_german_refusal_is_german(run):
    proc = run("play", "abluxxen", "--seed", "3", "--lang", "de", input="99\nplay 99\nquit\n")
    assert proc.returncode == 0
    assert "Nicht erlaubt: „99“ ist keine Karte (1..13 oder X)" in proc.stdout
    assert "is not a card" not in proc.stdout


def test_hint_shows_no_win_chance_for_options_searched_too_rarely(cli, tmp_path):
    from cardtable.cli.hint_cmd import MIN_VISITS

    rec = tmp_path / "h.json"
    assert cli("play", "abluxxen", "--seed", "3", "--save", rec, input="1\nquit\n").returncode == 0
    proc = cli("hint", rec, "--iterations", "80")
    assert proc.returncode == 0, proc.stderr
    rows = [[c.strip() for c in line.split("│")] for line in proc.stdout.splitlines()
            if line.strip()[:1].isdigit()]
    assert rows
    for row in rows:
        visits, chance = int(row[3]), row[2]            # # │ decision │ chance │ play-outs
        assert (chance == "—") == (visits < MIN_VISITS), row
    assert any(int(r[3]) < MIN_VISITS for r in rows) and "too few for an estimate" in proc.stdout
    assert any(int(r[3]) >= MIN_VISITS for r in rows)
