"""`cardtable play kombio` and `cardtable replay` of Kombio records: whole games with piped
input, the timed snap window, --memory, languages, errors, the replay contract."""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time

import pytest

from cardtable.core import load_record
from cardtable.kombio import state as kstate
from cardtable.kombio.cards import VALUE

from pty_command import command as _command

ONES = "1\n" * 3000            # always the first menu entry: draw, replace 1, pass, ...
NAMES = ["You", "Ben", "Caro", "Lisa", "Niko", "Louis"]
#: a seat's head in the round's revealed grids (the terminal's interlude): sum, score, total
ROW = re.compile(r"(\S+) · sum (-?\d+) → (-?\d+) · total (-?\d+)")
CELL = re.compile(r"(\d)\.(\d+) +(-?\d+|\?|—)")


def _spy_sums(monkeypatch) -> list[list[int]]:
    """The real card sums of every round (KO-15), recorded by the engine as it scores."""
    sums: list[list[int]] = []
    orig = kstate.KombioState._end_round

    def spy(self):
        sums.append([sum(VALUE[c] for c in g if c >= 0) for g in self.grids])
        return orig(self)

    monkeypatch.setattr(kstate.KombioState, "_end_round", spy)
    return sums


def _check_rounds(out: str, state, names, sums):
    """Every round's lines: sum, the KO-15 extra, score and total per player, and the rule in
    words, match the record."""
    view = state.view(None)
    rows = ROW.findall(out)
    n = view["players"]
    assert len(rows) == n * len(view["round_scores"])
    totals = [0] * n
    for r, scores in enumerate(view["round_scores"]):
        for s in range(n):
            name, sm, score, total = rows[r * n + s]
            totals[s] += scores[s]
            assert name == names[s]
            assert (int(sm), int(score), int(total)) == (sums[r][s], scores[s], totals[s])
            assert int(score) - int(sm) in (0, 10, 15)             # KO-15's extras
    flat = " ".join(out.split())
    # KO-15: one explanation per round
    rules = re.findall(r"(Nobody called Kombio: everybody scores the sum of their cards|"
                       r"called Kombio and alone had the lowest sum|"
                       r"called Kombio but did not alone have the lowest sum) ", flat)
    assert len(rules) == len(view["round_scores"])
    for r, rule in enumerate(rules):
        extras = {int(score) - int(sm) for _, sm, score, _ in rows[r * n:(r + 1) * n]} - {0}
        if rule.startswith("called Kombio and alone"):
            assert extras <= {10}
        elif rule.startswith("called Kombio but"):
            assert extras == {15}
        else:
            assert not extras


# KO-4, KO-15, KO-16
def test_whole_two_player_game_piped_console_script(cli, tmp_path, monkeypatch):
    """The real console script, fed '1' (the first menu entry; in a snap window: pass) until
    the game ends; a target of 80 takes a few rounds."""
    save = tmp_path / "k2.json"
    proc = cli("play", "kombio", "--players", "2", "--seed", "1", "--target", "80",
               "--snap-seconds", "0.2", "--save", save, input=ONES)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = proc.stdout
    assert out.startswith("Seed 1 (play this deal again with --seed 1)")
    assert "Players: You (seat 0), Ben (seat 1, greedy bot)" in out
    assert "Your turn: draw or call Kombio (KO-5)." in out
    assert "0.2 s to snap: `snap 0.1` or Enter to pass> 1" in out
    assert re.search(r"^You draw an? -?\d+$", out, re.M)
    assert re.search(r"^Ben draws a card and looks at it$", out, re.M)
    assert not re.search(r"^Ben draws an? -?\d+", out, re.M)           # never Ben's card
    assert "Round 2: Ben starts (KO-4)." in out                          # KO-4
    sums = _spy_sums(monkeypatch)
    state = load_record(save)
    assert state.over and len(state.round_scores) >= 2
    _check_rounds(out, state, NAMES[:2], sums)
    view = state.view(None)
    reached = [NAMES[s] for s in range(2) if view["totals"][s] >= 80]
    who = "You have" if reached == ["You"] else \
        f"{' and '.join(reached)} {'has' if len(reached) == 1 else 'have'}"
    assert (f"{who} reached the target of 80 points: the game is over "
            "(KO-16).") in out
    assert "Result" in out
    winners = " and ".join(NAMES[s] for s in view["winners"])
    assert re.search(rf"^Winners?: {winners}$", out, re.M)
    assert f"Record saved to {save}" in out
    # the replay contract: --json is the final state, view(None)
    replay = cli("replay", save, "--json")
    assert replay.returncode == 0 and replay.stderr == ""
    assert replay.stdout == json.dumps(view) + "\n"
    assert json.loads(replay.stdout) == load_record(save).view(None)


def _drive(args, timeouts: int, limit: float = 600):
    """Run the console script and answer like a player: '1' at a decision prompt, an empty
    line (pass) at a snap window, except the first `timeouts` windows, left to time out.
    `limit`: only a guard against a hung program (a whole game takes seconds; a busy machine
    may take many times as long, and that is no failure)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="C.UTF-8", COLUMNS="100", PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(_command() + [str(a) for a in args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    chunks: list[bytes] = []
    ready = threading.Event()

    def reader():
        while True:
            c = os.read(proc.stdout.fileno(), 65536)
            if not c:
                break
            chunks.append(c)
            ready.set()
        ready.set()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    start = time.monotonic()
    seen = 0
    windows = 0
    while proc.poll() is None and time.monotonic() - start < limit:
        ready.wait(0.05)
        ready.clear()
        out = b"".join(chunks)
        if len(out) == seen:
            continue
        seen = len(out)
        if out.endswith(b"Your decision> "):
            proc.stdin.write(b"1\n")
            proc.stdin.flush()
        elif out.endswith(b"or Enter to pass> "):
            windows += 1
            if windows > timeouts:
                proc.stdin.write(b"\n")
                proc.stdin.flush()
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    th.join(5)
    err = proc.stderr.read().decode()
    return proc.returncode, b"".join(chunks).decode("utf-8"), err


# KO-8..KO-10: the snap window is read with a time limit, on a pipe too
def test_four_player_game_with_timed_snap_windows(tmp_path, monkeypatch):
    save = tmp_path / "k4.json"
    t0 = time.monotonic()
    code, out, err = _drive(["play", "kombio", "--players", "4", "--seed", "5", "--target", "40",
                             "--snap-seconds", "0.3", "--bots", "greedy,random,greedy",
                             "--save", save], timeouts=2)
    assert code == 0, err
    assert "Traceback" not in err
    assert out.count("No snap in time: pass.") == 2                     # timed out: a pass
    assert time.monotonic() - t0 >= 0.6
    assert "Players: You (seat 0), Ben (seat 1, greedy bot), Caro (seat 2, random bot), " \
           "Lisa (seat 3, greedy bot)" in out
    # Enter in a snap window passes at once
    assert re.search(r"0\.3 s to snap: `snap \d\.\d+` or Enter to pass> \nYou pass\n", out)
    sums = _spy_sums(monkeypatch)
    state = load_record(save)
    assert state.over
    _check_rounds(out, state, NAMES[:4], sums)
    assert re.search(r"^Round 1 is over: (a grid is empty \(KO-13\)|every other player had one "
                     r"more turn after the Kombio call \(KO-12\))\.$", out, re.M)
    for m in re.finditer(r"^(\w+) calls? Kombio! .*$", out, re.M):                 # KO-12
        assert m.group(0).endswith("cards are taboo now")
    winners = " and ".join(", ".join(NAMES[s] for s in state.winners()).rsplit(", ", 1))
    assert re.search(rf"^Winners?: {winners}$", out, re.M)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Records of bot games: one over, one in the middle of a round."""
    from cardtable.bots import act, make_bot
    from cardtable.core import new_game, save_record

    d = tmp_path_factory.mktemp("kombio_records")
    out = {}
    for name, players, seed, stop in [("over", 3, 11, None), ("mid", 4, 12, 60)]:
        state = new_game("kombio", players=players, seed=seed, target=50)
        bots = [make_bot("greedy", seed * 10 + s) for s in range(players)]
        while not state.over and (stop is None or len(state.history) < stop):
            state.apply(act(bots[state.to_move], state))
        path = d / f"{name}.json"
        save_record(state, path)
        out[name] = (path, state)
    return out


def test_replay_json_and_as_seat(cli, run, records):
    path, state = records["mid"]
    proc = cli("replay", path, "--json")
    assert proc.returncode == 0 and proc.stdout == json.dumps(state.view(None)) + "\n"
    for seat in range(state.players):
        proc = run("replay", path, "--json", "--as", seat)
        assert proc.returncode == 0, proc.stderr
        view = json.loads(proc.stdout)
        assert view == state.view(seat)


# KO-2, KO-6, KO-11: a seat's view holds a card value only if that seat has seen the card
def test_as_seat_views_never_show_unseen_cards(run, records, tmp_path):
    path, _ = records["over"]
    rec = json.loads(path.read_text())
    checked = 0
    for k in range(5, len(rec["actions"]), max(1, len(rec["actions"]) // 6)):
        part = dict(rec, actions=rec["actions"][:k])
        p = tmp_path / f"part{k}.json"
        p.write_text(json.dumps(part))
        state = load_record(p)
        for seat in range(state.players):
            view = json.loads(run("replay", p, "--json", "--as", seat).stdout)
            for q, g in enumerate(view["grids"]):
                for s, v in enumerate(g, 1):
                    seen = state.card_seen(seat, q, s)
                    if v is None:
                        assert state.grids[q][s - 1] < 0
                    elif v == "?":
                        assert seen is None
                    else:
                        assert v == seen
            assert view["drawn"] is None or state.active == seat
            assert view["legal"] == ([] if state.to_move != seat else state.legal())
            # the words replay as that seat shows the same grid cells
            out = run("replay", p, "--as", seat, "--no-pause").stdout
            final = out[out.rindex("Final state"):]
            cells = {(int(a), int(b)): c for a, b, c in CELL.findall(final)}
            for q, g in enumerate(view["grids"]):
                for s, v in enumerate(g, 1):
                    assert cells[(q, s)] == ("—" if v is None else str(v))
            checked += 1
    assert checked >= 12


def test_words_replay(run, records):
    path, state = records["over"]
    proc = run("replay", path)                              # not a TTY: no pause
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith(f"Replay: Kombio, 3 players, seed 11, {len(state.history)} actions")
    steps = re.findall(r"^\s*(\d+)\. ", out, re.M)
    assert len(steps) == len(state.history)                 # full information: every action
    assert re.search(r"^\s*\d+\. Player \d draws an? -?\d+$", out, re.M)
    assert re.search(r"^\s*\d+\. Player \d passes$", out, re.M)
    assert "Round 1 is over" in out and "Result" in out
    assert re.search(r"^Winners?: Player \d", out, re.M)
    # as a seat: others' draws and snap answers stay hidden
    proc = run("replay", path, "--as", "1", "--no-pause")
    out = proc.stdout
    assert "Seen by Player 2 (seat 1)" in out
    assert re.search(r"^\s*\d+\. You draw an? -?\d+$", out, re.M)
    assert re.search(r"^\s*\d+\. Player [13] draws a card and looks at it$", out, re.M)
    assert not re.search(r"Player [13] draws an? -?\d+", out)
    assert not re.search(r"^\s*\d+\. Player [13] (passes|snaps \S+)$", out, re.M)  # KO-10
    proc = run("replay", path, "--lang", "de")
    assert "Runde 1 ist vorbei" in proc.stdout and "Ergebnis" in proc.stdout


def test_words_replay_unfinished(run, records):
    path, _ = records["mid"]
    proc = run("replay", path, "--no-pause")
    assert proc.returncode == 0
    assert "The record ends before the game is over." in proc.stdout


# -- KO-15, KO-16 with fixed deals ----------------------------------------------------------------
ALONE = {"game": "kombio", "players": 2, "seed": 1,
         "deal": {"grids": [[0, 0, 0, 1], [5, 5, 5, 5]], "deck": [3]},
         "actions": ["kombio", "draw", "discard", "pass", "pass"]}
FAILED = dict(ALONE, deal={"grids": [[5, 5, 5, 5], [0, 0, 0, 1]], "deck": [3]})
TIE_LAST = {"game": "kombio", "players": 3, "seed": 1, "target": 20,
            "deals": [{"grids": [[0, 0, 0, 1], [1, 1, 1, 2], [2, 2, 3, -1]], "deck": [3, 4]},
                      {"grids": [[1, 1, 1, 1], [0, 0, -1, 1], [6, 6, 6, 6]], "deck": [3, 4]}],
            "actions": ["kombio"] + ["draw", "discard", "pass", "pass"] * 2
            + ["kombio"] + ["draw", "discard", "pass", "pass"] * 2}
TIE_STILL = {"game": "kombio", "players": 3, "seed": 1, "start": 2, "target": 10,
             "deal": {"grids": [[1, 2, 3, 4], [4, 3, 2, 1], [3, 3, 3, 4]], "deck": [5, 6]},
             "actions": ["kombio"] + ["draw", "discard", "pass", "pass"] * 2}


def _replay_words(run, tmp_path, rec, *args):
    p = tmp_path / "rec.json"
    p.write_text(json.dumps(rec))
    proc = run("replay", p, "--no-pause", *args)
    assert proc.returncode == 0, proc.stderr
    return " ".join(proc.stdout.split())


# KO-15
def test_caller_alone_lowest_others_add_10(run, tmp_path):
    out = _replay_words(run, tmp_path, ALONE)
    assert "Player 1: sum 1 = 1 (total 1) Player 2: sum 20 +10 = 30 (total 30)" in out
    assert ("Player 1 called Kombio and alone had the lowest sum (1): Player 1 scores 1, everybody "
            "else adds +10 (KO-15).") in out
    assert "every other player had one more turn after the Kombio call (KO-12)" in out
    assert "Round 2: Player 2 starts (KO-4)." in out
    out = _replay_words(run, tmp_path, ALONE, "--as", "0")
    assert ("You called Kombio and alone had the lowest sum (1): you score 1, everybody else "
            "adds +10 (KO-15).") in out


# KO-15
def test_caller_not_alone_lowest_adds_15(run, tmp_path):
    out = _replay_words(run, tmp_path, FAILED)
    assert "Player 1: sum 20 +15 = 35 (total 35) Player 2: sum 1 = 1 (total 1)" in out
    assert ("Player 1 called Kombio but did not alone have the lowest sum (20; lowest of the "
            "others: 1): Player 1 adds +15, the others score their sums (KO-15).") in out
    out = _replay_words(run, tmp_path, FAILED, "--lang", "de")
    assert "Spieler 1 hat Kombio gerufen, aber nicht allein die niedrigste Summe" in out
    assert "Spieler 1 bekommt +15 dazu" in out


# KO-16
def test_tie_broken_by_the_last_round(run, tmp_path):
    out = _replay_words(run, tmp_path, TIE_LAST)
    assert ("Tie at 15 (Player 1 with 14 in the last round and Player 2 with 0 in the last round): "
            "the lowest score in the last round decides (KO-16).") in out
    assert "Winner: Player 2" in out
    assert "Player 3 has reached the target of 20 points: the game is over (KO-16)." in out
    assert "Player 2's cards are taboo now" in out                     # KO-12, 3 players


# KO-16
def test_tie_also_in_the_last_round_all_win(run, tmp_path):
    out = _replay_words(run, tmp_path, TIE_STILL)
    assert "Tie at 10 (Player 1 and Player 2), also in the last round (10): all of them win (KO-16)." \
        in out
    assert "Winners: Player 1 and Player 2" in out
    assert "Player 3: sum 13 +15 = 28 (total 28)" in out                 # KO-15: a tie is no win


# -- --memory ------------------------------------------------------------------------------------
def test_memory_hides_known_cards_after_the_time():
    """The KO-2 cards (slots 3 and 4) are shown at the first prompt, hidden at the next one
    after --memory-seconds."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="C.UTF-8", COLUMNS="100", PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(_command() + ["play", "kombio", "--players", "2", "--seed", "3",
                                          "--memory", "--memory-seconds", "0.4"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)

    def until_prompt() -> str:
        buf = b""
        while not buf.endswith(b"Your decision> "):
            c = os.read(proc.stdout.fileno(), 65536)
            if not c:
                break
            buf += c
        return buf.decode()

    try:
        first = until_prompt()
        time.sleep(0.6)
        proc.stdin.write(b"1\n")                     # draw
        proc.stdin.flush()
        second = until_prompt()
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert re.search(r"0\.3 +-?\d+ +0\.4 +-?\d+", first)
    assert "Memory mode: a card you saw is shown for 0.4 s" in " ".join(first.split())
    assert re.search(r"0\.3 +\? +0\.4 +\?", second)
    assert "Your cards: you know 0 of 4" in second
    assert re.search(r"Your drawn card: -?\d+", second)                # the drawn card stays


def test_memory_in_help(cli):
    proc = cli("play", "--help")
    assert "--memory" in proc.stdout and "--snap-seconds" in proc.stdout
    assert "--target" in proc.stdout


# -- input, languages, errors -------------------------------------------------------------------
def test_illegal_input_gives_a_reason_and_asks_again(run, tmp_path):
    save = tmp_path / "quit.json"
    answers = ["take 1", "replace 9", "frobnicate", "0", "help", "1", "1", "snap 9.9",
               "snap 0.7", "", "quit"]
    proc = run("play", "kombio", "--players", "3", "--seed", "4", "--save", save,
               input="\n".join(answers) + "\n")
    assert proc.returncode == 0
    out = proc.stdout
    assert "Not allowed: the discard pile is empty (KO-5.2)" in out
    assert "Not allowed: there is no seat 9 (seats 0..2)" in out
    assert "Not allowed: seat 0 has no slot 7 (slots 1..4)" in out
    assert "There is no choice 0 (choose 1..2)" in out
    assert "Kombio decisions (a card on the table is P.S" in out         # help
    assert re.search(r"to pass> \nYou pass$", out, re.M)                 # Enter: pass
    assert "Game ended by you." in out
    assert load_record(save).history[:3] == ["draw", "replace 1", "pass"]


def test_seat_and_german(run):
    proc = run("play", "kombio", "--players", "3", "--seat", "1", "--seed", "2", "--target", "30",
               "--lang", "de", input=ONES)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Spieler: Ben (Platz 0, Bot: gierig), Du (Platz 1), Caro (Platz 2, Bot: gierig)" in out
    assert "Du bist dran: ziehe eine Karte" in out and "Klopfen auf die" in out
    assert "s zum Klopfen: `snap " in out and "Deine Entscheidung> " in out
    assert "Runde 1 ist vorbei" in out and "Ergebnis" in out
    assert re.search(r"^Es gewinnt|^Es gewinnen", out, re.M)
    assert "Ben zieht eine Karte und schaut sie an" in out
    assert "Your decision" not in out and "Result" not in out and "Snap window" not in out


BAD_ARGS = [
    ["--players", "7"],
    ["--players", "1"],
    ["--target", "0"],
    ["--bots", "clever"],
    ["--bots", "random,greedy"],             # 4 players: 1 or 3 names
    ["--seat", "4"],
    ["--snap-seconds", "0"],
    ["--snap-seconds", "x"],
    ["--memory-seconds", "-1"],
    ["--variant", "duel"],
    ["--rounds", "2"],
    ["--lang", "fr"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=lambda a: " ".join(a))
def test_bad_arguments_exit_2(run, usage_error, args):
    usage_error(run("play", "kombio", *args, input="quit\n"))


def test_bad_arguments_console_script(cli, usage_error):
    for args in (["--players", "7"], ["--target", "0"], ["--bots", "clever"]):
        proc = cli("play", "kombio", *args)
        usage_error(proc)
    proc = cli("play", "kombio", "--players", "7", "--lang", "de")
    usage_error(proc)
    assert "Kombio ist für 2 bis 6 Spieler, nicht für 7" in proc.stderr
    # Kombio's options are refused for Abluxxen
    proc = cli("play", "abluxxen", "--target", "30")
    usage_error(proc)
    assert "--target is an option of Kombio" in proc.stderr
