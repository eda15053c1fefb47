"""The local history of terminal games and `cardtable stats`: a finished game is appended to
the history in the user data folder (a temporary one here, conftest.py); `stats` counts games
and wins per rule set and bot level, from the history or from saved records; "play again"
after a game at a terminal starts another with the same settings."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from rich.console import Console

from cardtable.cli import history
from cardtable.core import load_record


def _duel(run, tmp_path, name="duel.json", *extra):
    save = tmp_path / name
    proc = run("play", "abluxxen", "--variant", "duel", "--seed", "3", "--bots", "easy",
               "--save", save, *extra, input="1\n" * 600)
    assert proc.returncode == 0, proc.stderr
    assert load_record(save).over
    return save


def test_the_history_is_in_the_data_folder_given(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "d"))
    assert history.history_path() == tmp_path / "d" / "history.jsonl"
    monkeypatch.delenv("CARDTABLE_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert str(history.history_path()).startswith(str(tmp_path))


def test_a_finished_game_is_counted_by_stats(run, tmp_path):
    assert json.loads(run("stats", "--json").stdout)["games"] == 0
    assert "No finished games yet" in run("stats", "--lang", "en").stdout
    save = _duel(run, tmp_path)
    won = 0 in load_record(save).view(None)["winners"]
    entries = history.read()
    assert len(entries) == 1 and entries[0]["game"] == "abluxxen"
    assert entries[0]["level"] == "easy" and entries[0]["won"] == won
    out = json.loads(run("stats", "--json").stdout)
    assert out["rows"] == [{"game": "abluxxen", "variant": "duel", "level": "easy",
                            "games": 1, "wins": int(won)}]
    de = run("stats", "--lang", "de").stdout
    assert "Abluxxen, Duell (2 Spieler)" in de and "leicht" in de and "Partien" in de
    assert run("stats", save, "--json").stdout == run("stats", "--json").stdout   # alike


def test_stats_of_records_skips_unfinished_ones_and_refuses_broken_ones(run, usage_error,
                                                                       tmp_path):
    save = _duel(run, tmp_path)
    part = tmp_path / "part.json"
    rec = json.loads(save.read_text())
    rec["actions"] = rec["actions"][:5]
    part.write_text(json.dumps(rec))
    out = json.loads(run("stats", save, part, "--json").stdout)
    assert out["games"] == 1 and out["skipped"] == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    usage_error(run("stats", broken, "--lang", "de"))


class _Terminal:
    """A prompter as at a terminal: the first legal decision, `answers` to "play again"."""

    tty = True

    def __init__(self, answers):
        self.answers = list(answers)
        self.asked = []

    def ask(self, prompt, words=None):
        return words[0]                      # the completions: the legal decisions first

    def ask_line(self, prompt):
        self.asked.append(prompt)
        return self.answers.pop(0) if "again" in prompt and self.answers else ""

    def stale(self):
        return []


def test_play_again_starts_a_new_game_with_the_same_settings(tmp_path):
    from cardtable.cli.main import run_play

    terminal = _Terminal(["y", "n"])
    console = Console(file=io.StringIO(), width=100)
    save = tmp_path / "g.json"
    rc = run_play("abluxxen", "duel", None, 0, "easy", 3, "en", save, None, 0,
                  console=console, prompter=terminal, bot_pause=0)
    assert rc == 0
    asked = [p for p in terminal.asked if "Play again with the same settings?" in p]
    assert len(asked) == 2                               # after each game
    first, second = load_record(save), load_record(tmp_path / "g-2.json")
    assert first.over and second.over and first.seed == 3 and second.seed != 3
    assert first.view(None)["variant"] == second.view(None)["variant"] == "duel"
    assert [e["variant"] for e in history.read()] == ["duel", "duel"]
    assert not (tmp_path / "g-3.json").exists()
