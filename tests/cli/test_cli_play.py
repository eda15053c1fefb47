"""`cardtable play abluxxen`: whole games with piped input, errors, saving, languages."""

from __future__ import annotations

import json
import re

import pytest

from cardtable.core import load_record

ONES = "1\n" * 4000          # always the first menu entry: enough for any game
NAMES = ["You", "Ben", "Caro", "Lisa", "Niko"]


def _summary_rows(out: str, names) -> dict:
    """name -> (display cards, hand cards, score) from the end screen's table."""
    tail = out[out.rindex("Result"):] if "Result" in out else out[out.rindex("Ergebnis"):]
    rows = {}
    for line in tail.splitlines():
        m = re.match(r"\s*(\S+)\s+(\d+)\s+(\d+)\s+(-?\d+)", line)
        if m and m.group(1) in names:
            rows[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return rows


def test_whole_game_piped_console_script(cli, tmp_path):
    """The real console script, fed '1' (first menu entry) until the game ends."""
    save = tmp_path / "game.json"
    proc = cli("play", "abluxxen", "--seed", "3", "--bots", "random", "--save", save, input=ONES)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = proc.stdout
    assert out.startswith("Seed 3 (play this deal again with --seed 3)")
    assert "Your decision> 1" in out
    assert "Legal decisions" in out and "Your hand:" in out and "Pool:" in out
    assert "Result" in out and re.search(r"^Winners?: ", out, re.M)
    assert re.search(r"The game ended because .*\((AB-7|AB-14)\)", " ".join(out.split()))
    # --save: the record replays to the same final state as the end screen shows
    state = load_record(save)
    assert state.over
    view = state.view(None)
    rows = _summary_rows(out, NAMES[:4])
    assert len(rows) == 4
    for s, name in enumerate(NAMES[:4]):
        disp = sum(len(layer) for layer in view["displays"][s])
        assert rows[name] == (disp, len(view["hands"][s]), view["scores"][s])
    winners = " and ".join(", ".join(NAMES[s] for s in view["winners"]).rsplit(", ", 1))
    assert re.search(rf"^Winners?: {winners}$", out, re.M)
    replay = cli("replay", save, "--json")
    assert json.loads(replay.stdout) == view


def test_log_lines_in_words(run):
    proc = run("play", "abluxxen", "--seed", "3", "--bots", "random", input=ONES)
    out = proc.stdout
    assert re.search(r"^(Ben|Caro|Lisa) plays \S+", out, re.M)
    assert re.search(r"^You play \S+", out, re.M)
    # the human's own deck draws show the card, the bots' never do
    assert re.search(r"^You draw (\d+|X) from the deck$", out, re.M)
    assert not re.search(r"^(Ben|Caro|Lisa) draws (\d+|X) from the deck", out, re.M)
    assert re.search(r"^(Ben|Caro|Lisa) draws from the deck$", out, re.M)
    assert re.search(r"^Players: You \(seat 1\), Ben \(seat 2, random bot\)", out, re.M)


def test_illegal_input_gives_reason_and_asks_again(run, tmp_path):
    save = tmp_path / "quit.json"
    answers = ["play 7 8", "take", "draw pool 99", "0", "9999", "nonsense", "", "help", "quit"]
    proc = run("play", "abluxxen", "--seed", "3", "--bots", "random", "--save", save,
               input="\n".join(answers) + "\n")
    assert proc.returncode == 0
    out = proc.stdout
    assert out.count("Your decision> ") == len(answers)
    assert "Not allowed: a set is cards of one number (plus jokers); these have 7, 8" in out
    assert len(re.findall(r"^Not allowed: ", out, re.M)) == 4
    assert "There is no choice 0 (choose 1.." in out
    assert "There is no choice 9999" in out
    assert "Abluxxen decisions: play 7 7 X" in out            # help
    assert "Game ended by you." in out
    assert load_record(save).history == []                   # nothing illegal was applied


def test_quit_saves_a_replayable_record(run, tmp_path):
    save = tmp_path / "partial.json"
    proc = run("play", "abluxxen", "--seed", "8", "--bots", "greedy", "--save", save,
               input="1\n1\n1\n1\nquit\n")
    assert proc.returncode == 0
    assert f"Record saved to {save}" in proc.stdout
    rec = json.loads(save.read_text())
    assert rec["game"] == "abluxxen" and rec["seed"] == 8 and rec["players"] == 4
    state = load_record(save)
    assert not state.over and len(state.history) >= 4
    assert state.to_move == 0                                # waiting for the human again


def test_eof_quits_cleanly(run):
    proc = run("play", "abluxxen", "--seed", "2", input="")
    assert proc.returncode == 0
    assert "Game ended by you." in proc.stdout


def test_seed_is_printed_when_not_given(run):
    proc = run("play", "abluxxen", input="quit\n")
    m = re.search(r"^Seed (\d+) \(play this deal again with --seed \1\)", proc.stdout, re.M)
    assert m and proc.returncode == 0


# AB-4
def test_start_seat(run):
    proc = run("play", "abluxxen", "--seed", "2", "--start", "2", "--bots", "random",
               input="quit\n")
    first = re.search(r"^(You|Ben|Caro|Lisa) (plays?|draws?|pass) ", proc.stdout, re.M)
    assert first and first.group(1) == "Caro"


def test_german(run):
    proc = run("play", "abluxxen", "--seed", "3", "--bots", "random", "--lang", "de", input=ONES)
    out = proc.stdout
    assert proc.returncode == 0
    assert "Startwert 3" in out and "Deine Entscheidung> " in out and "Deine Hand:" in out
    assert "Erlaubte Entscheidungen" in out and "Vorrat:" in out and "Ergebnis" in out
    assert re.search(r"^Es gewinnt|^Es gewinnen", out, re.M)
    assert "Your decision" not in out and "Result" not in out


def test_german_from_locale(run):
    proc = run("play", "abluxxen", "--seed", "3", input="quit\n", lang="de_DE.UTF-8")
    assert "Du (Platz 1)" in proc.stdout and "Partie von dir beendet." in proc.stdout
    proc = run("play", "abluxxen", "--seed", "3", "--lang", "en", input="quit\n",
               lang="de_DE.UTF-8")
    assert "You (seat 1)" in proc.stdout


# DU-1, DU-2, DU-4, AB-21
def test_duel_plays_to_the_end_and_forced_decisions_are_recorded(run, tmp_path):
    forced_seen = False
    for seed in (4, 1, 2, 3, 5, 6, 7, 8):
        save = tmp_path / f"duel{seed}.json"
        proc = run("play", "abluxxen", "--variant", "duel", "--seed", seed, "--save", save,
                   input=ONES)
        out = proc.stdout
        assert proc.returncode == 0
        assert "Abluxxen · duel" in out and "Shadow display:" in out
        assert "Result" in out and "Ben (seat 2, greedy bot)" in out
        state = load_record(save)
        assert state.over and state.players == 2
        forced = re.findall(r"^Only one choice: (.+) \(confirmed automatically, AB-21\)$", out,
                            re.M)
        for decision in forced:                    # auto-confirmed, yet in the record
            assert decision in state.history
        if forced:
            forced_seen = True
            break
    assert forced_seen


# CL-5, CL-3
def test_classic_match_four_rounds_two_players(run, tmp_path):
    save = tmp_path / "match.json"
    proc = run("play", "abluxxen", "--variant", "classic", "--players", "2", "--rounds", "4",
               "--seed", "4", "--bots", "random", "--save", save, input=ONES)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Game 1 of 4, start player: You" in out
    assert "Game 2 of 4, start player: Ben" in out          # the start moves clockwise
    assert "Game 3 of 4, start player: You" in out          # everybody starts twice
    assert "Game 4 of 4, start player: Ben" in out
    assert out.count("Match (CL-5)") == 4                    # the running scores after each game
    assert re.search(r"Match over after 4 games\. Match winners?( \(tie, CL-4\))?: ", out)
    games = [load_record(tmp_path / f"match-{i}.json") for i in (1, 2, 3, 4)]
    assert all(g.over for g in games) and [g.start for g in games] == [0, 1, 0, 1]
    totals = [sum(g.scores()[s] for g in games) for s in range(2)]
    total_line = next(ln for ln in out.splitlines()[::-1] if ln.strip().startswith("Total"))
    assert [int(x) for x in total_line.split()[1:]] == totals
    assert "(CL-3)" in out


@pytest.mark.parametrize("lang,words", [("C.UTF-8", "a classic match of 3 players has a "
                                                    "multiple of 3 games"),
                                        ("de_DE.UTF-8", "Vielfaches von 3 Spielen")])
def test_classic_match_rounds_not_a_multiple_refused(run, usage_error, tmp_path, lang,
                                                     words):  # CL-5
    save = tmp_path / "match.json"
    proc = run("play", "abluxxen", "--variant", "classic", "--players", "3", "--rounds", "4",
               "--save", save, input=ONES, lang=lang)
    usage_error(proc)
    assert words in proc.stderr and "CL-5" in proc.stderr and "3, 6, 9" in proc.stderr
    assert not list(tmp_path.iterdir())                      # nothing was played or saved


def test_classic_default_is_one_game(run, tmp_path):          # CL-5 (revised 2026-11-26)
    """One game is a whole game: without --rounds the classic edition deals one game, shows no
    match table, and its highest score wins (CL-4)."""
    save = tmp_path / "one.json"
    proc = run("play", "abluxxen", "--variant", "classic", "--players", "2", "--seed", "1",
               "--bots", "random", "--save", save, input=ONES)
    assert proc.returncode == 0, proc.stderr
    assert "Game 1 of" not in proc.stdout and "Match (CL-5)" not in proc.stdout
    assert "Match over" not in proc.stdout
    game = load_record(save)
    assert game.over and game.variant == "classic"
    assert not list(tmp_path.glob("one-*.json"))             # no numbered match files


BAD_ARGS = [
    ["--variant", "turbo"],
    ["--players", "9"],
    ["--players", "2"],                      # AB-2: basic is 3-5
    ["--players", "x"],
    ["--variant", "duel", "--players", "3"],
    ["--bots", "clever"],
    ["--bots", "random,greedy"],             # 4 players: 1 or 3 names
    ["--seat", "4"],
    ["--seat", "-1"],
    ["--lang", "fr"],
    ["--rounds", "2"],                       # only classic
    ["--variant", "classic", "--rounds", "0"],
    ["--variant", "classic", "--rounds", "5"],             # CL-5: 4 players, a multiple of 4
    ["--variant", "classic", "--players", "2", "--rounds", "-2"],
    ["--start", "7"],
    ["--variant", "classic", "--start", "5"],
    ["--frobnicate"],
    ["--option", "shadow_blocks_draw=true"],               # the duel's own option
    ["--variant", "duel", "--option", "shadow_blocks_draw"],
    ["--variant", "duel", "--option", "shadow_blocks_draw=maybe"],
    ["--option", "nope=true"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=lambda a: " ".join(a))
def test_bad_arguments_exit_2(run, usage_error, args):
    usage_error(run("play", "abluxxen", *args, input="quit\n"))


def test_bad_arguments_console_script(cli, usage_error):
    usage_error(cli("play", "abluxxen", "--variant", "turbo"))
    usage_error(cli("play", "abluxxen", "--players", "9"))
    usage_error(cli("play", "chess"))
    usage_error(cli("play"))
    usage_error(cli("frobnicate"))


def test_version_and_help(cli):
    proc = cli("--version")
    assert proc.returncode == 0 and re.match(r"cardtable \d+\.\d+", proc.stdout)
    proc = cli("--help")
    assert proc.returncode == 0 and "play" in proc.stdout and "replay" in proc.stdout


# -- undo, resume, the live score (issue 31) -----------------------------------------------------
def _my_decisions(rec: dict, seat: int = 0) -> int:
    state = load_record(dict(rec, actions=[]))
    mine = 0
    for a in rec["actions"]:
        mine += state.to_move == seat
        state.apply(a)
    return mine


@pytest.mark.parametrize("lang,words", [("C.UTF-8", "Taken back: your last decision"),
                                        ("de_DE.UTF-8", "Zurückgenommen: deine letzte")])
def test_undo_takes_back_my_last_decision(run, tmp_path, lang, words):
    save = tmp_path / "u.json"
    proc = run("play", "abluxxen", "--seed", "4", "--bots", "medium", "--save", save,
               input="1\n1\nundo\nquit\n", lang=lang)
    assert proc.returncode == 0, proc.stderr
    assert words in proc.stdout
    rec = json.loads(save.read_text())
    assert _my_decisions(rec) == 1                     # the second one was taken back
    state = load_record(rec)
    assert state.to_move == 0                          # and it is my decision again
    proc = run("play", "abluxxen", "--seed", "4", "--save", tmp_path / "v.json",
               input="undo\nquit\n", lang=lang)        # nothing to take back yet
    assert "Nothing to take back" in proc.stdout or "nichts zurückzunehmen" in proc.stdout


def test_resume_plays_on_with_the_recorded_seats_and_bots(run, tmp_path):
    save = tmp_path / "r.json"
    proc = run("play", "kombio", "--players", "3", "--seed", "6", "--bots", "hard,easy",
               "--name", "Ann", "--save", save, input="1\nquit\n")
    assert proc.returncode == 0, proc.stderr
    first = json.loads(save.read_text())
    proc = run("play", "kombio", "--resume", save, input="1\n1\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Ben (seat 1, hard bot), Caro (seat 2, easy bot)" in proc.stdout
    second = json.loads(save.read_text())              # saved back to the same file
    assert second["actions"][:len(first["actions"])] == first["actions"]
    assert _my_decisions(second) > _my_decisions(first)
    assert second["seats"] == first["seats"] and second["seed"] == first["seed"]
    assert load_record(second).history == second["actions"]


@pytest.mark.parametrize("extra,words", [
    (["--variant", "duel"], "--variant cannot be given with --resume"),
    (["--seed", "3"], "--seed cannot be given with --resume"),
])
def test_resume_refuses_settings_the_record_fixes(run, usage_error, tmp_path, extra, words):
    save = tmp_path / "r.json"
    run("play", "abluxxen", "--seed", "4", "--save", save, input="quit\n")
    proc = run("play", "abluxxen", "--resume", save, *extra, input="quit\n")
    usage_error(proc)
    assert words in proc.stderr


def test_resume_refuses_a_finished_game_another_game_and_a_broken_file(run, usage_error,
                                                                     tmp_path):
    done = tmp_path / "done.json"
    run("play", "abluxxen", "--variant", "duel", "--seed", "4", "--save", done,
        input="1\n" * 800)
    assert load_record(done).over
    proc = run("play", "abluxxen", "--resume", done, input="quit\n")
    usage_error(proc)
    assert "is over: nothing to play on" in proc.stderr
    proc = run("play", "kombio", "--resume", done, input="quit\n")
    usage_error(proc)
    assert "holds a game of abluxxen, not of kombio" in proc.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    proc = run("play", "abluxxen", "--resume", broken, input="quit\n")
    usage_error(proc)
    assert json.loads(done.read_text())                  # nothing was overwritten


@pytest.mark.parametrize("lang,words", [("C.UTF-8", "Score now (AB-17): You -13 · Ben -13"),
                                        ("de_DE.UTF-8", "Punkte jetzt (AB-17): Du -13 · Ben -13")])
def test_a_live_score_line_follows_ab17(run, lang, words):
    proc = run("play", "abluxxen", "--seed", "4", input="quit\n", lang=lang)
    assert words in proc.stdout


@pytest.mark.parametrize("value,blocks", [("true", True), ("off", False)])
def test_rule_options_from_the_command_line(run, tmp_path, value, blocks):  # DU-6
    save = tmp_path / "duel.json"
    proc = run("play", "abluxxen", "--variant", "duel", "--seed", 3, "--save", save,
               "--option", f"shadow_blocks_draw={value}", "--option", "shadow_partial=on",
               input="quit\n")
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(save.read_text())
    assert rec["options"]["shadow_blocks_draw"] is blocks and rec["options"]["shadow_partial"]
    assert load_record(save).rules.shadow_blocks_draw is blocks


def test_a_rule_option_the_game_lacks_is_named_in_the_players_language(run, usage_error):
    proc = run("play", "abluxxen", "--option", "shadow_blocks_draw=true", "--lang", "de",
               input="quit\n")
    usage_error(proc)
    assert "keine Regeloption shadow_blocks_draw" in proc.stderr
    assert "optional_draw" in proc.stderr                  # what it has instead
