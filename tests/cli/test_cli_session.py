"""The frame of a terminal game around the games themselves: quitting without --save says the
game is not kept and, at a terminal, offers to save it."""

from __future__ import annotations

import json

from pty_session import PtySession

from cardtable.core import load_record


def test_quit_without_save_says_the_game_is_not_kept(run):
    for lang, words in (("C.UTF-8", "The game is not saved"),
                        ("de_DE.UTF-8", "Die Partie ist nicht gespeichert")):
        proc = run("play", "abluxxen", "--seed", "4", input="quit\n", lang=lang)
        assert proc.returncode == 0, proc.stderr
        assert words in proc.stdout


def test_quit_at_a_terminal_offers_to_save(tmp_path):
    target = tmp_path / "kept.json"
    s = PtySession("play", "abluxxen", "--seed", "4")
    try:
        s.expect_prompt(r"Your decision>")
        s.send("1\r")
        s.expect_prompt(r"Your decision>")
        s.send("quit\r")
        s.expect_prompt(r"Save this game to abluxxen-4\.json\? \[y/N, or a file name\]")
        s.send(f"{target}\r")
        s.expect(r"Record saved to")
        assert s.proc.wait(timeout=60) == 0
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
    rec = json.loads(target.read_text())
    assert rec["seed"] == 4 and load_record(rec).history       # the game as it stood


def test_quit_at_a_terminal_and_decline(tmp_path):
    s = PtySession("play", "abluxxen", "--seed", "4", lang="de_DE.UTF-8")
    try:
        s.expect_prompt(r"Deine Entscheidung>")
        s.send("quit\r")
        s.expect_prompt(r"Diese Partie in abluxxen-4\.json speichern\? \[j/N, oder ein Dateiname\]")
        s.send("\r")
        s.expect(r"Die Partie ist nicht gespeichert")
        assert s.proc.wait(timeout=60) == 0
    finally:
        if s.proc.poll() is None:
            s.proc.kill()


def test_resume_keeps_the_language_and_says_it_resumed(run, tmp_path):
    save = tmp_path / "g.json"
    proc = run("play", "abluxxen", "--seed", "4", "--lang", "de", "--save", save,
               input="1\nquit\n")
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(save.read_text())
    assert rec["seats"][0] == {"name": rec["seats"][0]["name"]}     # NOTATION.md: a name only
    done = len(rec["actions"])
    proc = run("play", "abluxxen", "--resume", save, input="quit\n")    # the locale: English
    assert proc.returncode == 0, proc.stderr
    assert f"{save} fortgesetzt nach {done} Zug" in proc.stdout
    assert "Deine Entscheidung>" in proc.stdout and "Your decision" not in proc.stdout
    proc = run("play", "abluxxen", "--resume", save, "--lang", "en", input="quit\n")
    assert f"Resumed {save} after {done} action" in proc.stdout      # --lang overrides it
