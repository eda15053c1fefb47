"""Kombio in the terminal as a person plays it (issue 14): bots are paced, each snap window
names its card, an answer typed before a window opened is not taken for it, and a round ends
with every grid revealed and a pause. Driven as a player types, waiting on the screen."""

from __future__ import annotations

import os
import re

import pytest

from cardtable.cli import main as cli_main
from cardtable.cli.main import LineReader, Prompter
from pty_session import PtySession


def test_snap_window_names_its_card_and_a_round_ends_with_the_grids_revealed(tmp_path):
    s = PtySession("play", "kombio", "--players", "2", "--seed", "3", "--target", "500",
                   "--bot-pause", "0", "--snap-seconds", "600", "--bots", "random")
    try:
        windows = 0
        while True:
            m = s.expect_prompt(r"(Your decision>|Snap on the (-?\d+) · \d+ s: `snap \d\.\d`"
                                r"(?:, Space: snap \d\.\d)?, Enter: pass>|Enter: next round>)")
            if m.group(0).startswith("Your decision"):
                s.send("1\r")
            elif m.group(0).startswith("Snap on"):
                windows += 1
                top = m.group(2)
                pile = re.findall(r"Discard pile: top card (-?\d+)", s.text[:m.start()])
                assert pile and pile[-1] == top            # the window is on the pile's top
                s.send("\r")
            else:
                break
        before = s.text[:m.start()]
        assert windows >= 1
        assert "Round 1: every grid revealed" in before
        tail = before[before.rindex("Round 1: every grid revealed"):]
        assert "?" not in tail                             # every card face up
        assert re.search(r"You · sum -?\d+ → -?\d+ · total -?\d+", tail)
        assert re.search(r"Round 1 is over: [^.]*\(KO-1[23]\)", before)   # maybe wrapped
        s.send("quit\r")
        s.expect_prompt(r"Save this game to \S+\? \[y/N, or a file name\]")
        s.send("\r")                                       # not kept
        assert s.wait() == 0
    finally:
        s.close()


def test_lines_typed_before_a_window_opened_are_stale():
    """The terminal keeps what was typed; at a window's start it is read and dropped."""
    master, slave = os.openpty()
    try:
        p = Prompter(tty=False)
        reader = LineReader(slave)
        p._line_reader = lambda: reader
        os.write(master, b"snap 0.1\n\n")
        assert p.stale() == ["snap 0.1"]
        assert p.stale() == []                              # nothing left
        os.write(master, b"pass\n")
        assert reader.readline(600) == "pass"               # later lines are read as usual
    finally:
        os.close(master)
        os.close(slave)


def test_stale_answer_is_refused_in_the_window(run, monkeypatch):
    """Game.ask: a line typed before the window is named and not taken as the answer."""
    monkeypatch.setattr(Prompter, "stale", lambda self: ["snap 0.1"])
    proc = run("play", "kombio", "--players", "2", "--seed", "3", "--target", "20",
               "--snap-seconds", "600", input="1\n" * 300)
    assert proc.returncode == 0, proc.stderr
    notes = re.findall(r"Not taken: “snap 0\.1” was typed before the snap window on the "
                       r"(-?\d+) opened", proc.stdout)
    assert notes
    assert "You snap your 0.1" not in proc.stdout          # never taken as an answer


def test_bots_are_paced_after_each_line(run, monkeypatch):
    slept = []
    monkeypatch.setattr(cli_main.time, "sleep", lambda s: slept.append(s))
    proc = run("play", "abluxxen", "--seed", "3", "--bot-pause", "0.25",
               input="1\n" * 200)
    assert proc.returncode == 0, proc.stderr
    bot_lines = [x for x in proc.stdout.splitlines()
                 if re.match(r"^(Ben|Caro|Lisa) (plays|abluxxes|draws|passes|keeps|discards|"
                             r"shadow)", x)]
    assert slept and set(slept) == {0.25} and len(slept) == len(bot_lines)


@pytest.mark.parametrize("bad", ["-1", "61"])
def test_bot_pause_out_of_range(run, bad):
    proc = run("play", "abluxxen", "--bot-pause", bad)
    assert proc.returncode == 2 and "--bot-pause" in proc.stderr


@pytest.mark.parametrize("lang,words", [
    ("C.UTF-8", dict(decide="Your decision>", window=r"Snap on the -?\d+ · \d+ s: `snap \d\.\d`"
                     r"(?:, Space: snap \d\.\d)?, Enter: pass>", result="Enter: the result>",
                     revealed="Round 1: every grid revealed", over="Round 1 is over")),
    ("de_DE.UTF-8", dict(decide="Deine Entscheidung>", window=r"Klopfen auf die -?\d+ · \d+ s: "
                         r"`snap \d\.\d`(?:, Leertaste: snap \d\.\d)?, Enter: passen>",
                         result="Enter: das Ergebnis>", revealed="Runde 1: alle Karten aufgedeckt",
                         over="Runde 1 ist vorbei"))])
def test_the_last_round_is_explained_on_one_screen_before_the_result(lang, words):
    """Six players at 80x24 (issue 31): the last round ends with its grids revealed once, the
    words that explain it under them, all on one screen, and a pause before the result table
    (it used to scroll away under the final board and the table, the grids shown three
    times)."""
    s = PtySession("play", "kombio", "--players", "6", "--seed", "4", "--target", "1",
                   "--bot-pause", "0", "--snap-seconds", "600", "--bots", "random",
                   rows=24, cols=80, lang=lang)
    try:
        pattern = "|".join(re.escape(w) if k != "window" else w for k, w in words.items()
                           if k in ("decide", "window", "result"))
        while True:
            m = s.expect_prompt(f"({pattern})")
            if m.group(1) == words["decide"]:
                s.send("1\r")
            elif m.group(1) == words["result"]:
                break
            else:
                s.send("\r")
        before = s.text[:m.end()]
        block = before[before.rindex(words["revealed"]):].split("\n")
        assert len(block) <= 24, "\n".join(block)           # one screen, prompt included
        assert all(len(x) <= 80 for x in block), "\n".join(block)
        # a slot never split from its value at a line's end ("5.6" / "4")
        assert not [x for x in block if re.search(r"\b\d\.\d+ *$", x)], "\n".join(block)
        assert words["over"] in "\n".join(block) and "(KO-15)" in "\n".join(block)
        assert before.count(words["revealed"]) == 1
        s.send("\r")
        s.expect_prompt(r"(Play again with the same settings\?|Noch eine Partie mit denselben "
                        r"Einstellungen\?) \[[yj]/N\]")
        s.send("\r")                                       # no: the program ends
        assert s.wait() == 0
        after = s.text[m.end():]
        assert "★" in after                                 # the result table came after
        assert not re.search(r"\b[0-5]\.[1-9]\b", after.split("★")[0])  # no board again
    finally:
        s.close()

