"""`cardtable replay`: the replay contract of NOTATION.md, and replay in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardtable.bots import act, make_bot
from cardtable.abluxxen import RULES_VERSION
from cardtable.core import load_record, new_game, save_record
from cardtable.core.record import ReplayError


def _played(variant: str, players: int, seed: int, stop: int | None = None):
    """A game of random bots (to the end, or `stop` actions)."""
    state = new_game("abluxxen", variant=variant, players=players, seed=seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    while not state.over and (stop is None or len(state.history) < stop):
        state.apply(act(bots[state.to_move], state))
    return state


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    d = tmp_path_factory.mktemp("records")
    out = {}
    for name, variant, players, seed, stop in [("basic_over", "basic", 4, 11, None),
                                                ("basic_mid", "basic", 3, 12, 40),
                                                ("duel_mid", "duel", 2, 13, 30)]:
        state = _played(variant, players, seed, stop)
        path = d / f"{name}.json"
        save_record(state, path)
        out[name] = (path, state)
    return out


# -- the replay contract -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["basic_over", "basic_mid", "duel_mid"])
def test_json_full_view_is_state_view(cli, records, name):
    path, state = records[name]
    proc = cli("replay", path, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.count("\n") == 1
    assert proc.stdout == json.dumps(state.view(None)) + "\n"
    assert json.loads(proc.stdout) == load_record(path).view(None)


def test_json_as_seat_views(run, records):
    path, state = records["basic_mid"]
    for seat in range(state.players):
        proc = run("replay", path, "--json", "--as", seat)
        assert proc.returncode == 0, proc.stderr
        view = json.loads(proc.stdout)
        assert view == state.view(seat)
        for s, hand in enumerate(view["hands"]):        # other hands are counts only
            assert isinstance(hand, list) == (s == seat)
        assert isinstance(view["deck"], int)


def test_json_duel_as_seat(run, records):
    path, state = records["duel_mid"]
    proc = run("replay", path, "--json", "--as", "1")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == state.view(1)
    assert json.loads(proc.stdout)["shadow"] is not None            # DU-1


def test_illegal_action_exit_2_nothing_on_stdout(cli, records, tmp_path):
    path, state = records["basic_mid"]
    rec = json.loads(path.read_text())
    good = rec["actions"][:7]
    rec["actions"] = good + ["play 13 13 13 13 13 13 13 13", "pass"]
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(rec))
    proc = cli("replay", bad, "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "7" in proc.stderr and "play 13 13 13 13 13 13 13 13" in proc.stderr
    assert "action 7" in proc.stderr
    # the words mode refuses the same way
    proc = cli("replay", bad, "--no-pause")
    assert proc.returncode == 2 and proc.stdout == "" and "action 7" in proc.stderr


def test_action_after_the_end_is_illegal(run, records, tmp_path):
    path, state = records["basic_over"]
    rec = json.loads(path.read_text())
    rec["actions"].append("pass")
    bad = tmp_path / "after_end.json"
    bad.write_text(json.dumps(rec))
    proc = run("replay", bad, "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"action {len(rec['actions']) - 1}" in proc.stderr


def test_old_duel_record_gets_a_hint_exit_2(run, cli, usage_error, tmp_path):  # DU-4
    """A duel record made before shadow_partial became the default (it names no option) fails
    where a shadow decision is now awaited: exit 2, one line that says how to replay it."""
    rec = {"game": "abluxxen", "variant": "duel", "players": 2, "seed": 0,
           "deal": {"hands": [["X", "X", 7, 7], []],
                    "shadow": [1, 2, 3, 4, 5, 5, 5, 6, 8, 9, 10, 11, 12]},
           "actions": ["play 7 7", "pass"]}     # the three 5s: no stack of two back then
    path = tmp_path / "old_duel.json"
    path.write_text(json.dumps(rec))
    proc = run("replay", path, "--json")
    usage_error(proc)
    assert "action 1" in proc.stderr and '"options": {"shadow_partial": false}' in proc.stderr
    rec["options"] = {"shadow_partial": False}
    path.write_text(json.dumps(rec))
    proc = cli("replay", path, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["options"]["shadow_partial"] is False


MALFORMED = {
    "bad_json": '{"game": "abluxxen", "actions": [',
    "not_object": "[1, 2, 3]",
    "no_game": '{"variant": "basic"}',
    "unknown_game": '{"game": "chess", "actions": []}',
    "unknown_variant": '{"game": "abluxxen", "variant": "turbo", "players": 4}',
    "wrong_player_count": '{"game": "abluxxen", "variant": "basic", "players": 7}',
    "duel_player_count": '{"game": "abluxxen", "variant": "duel", "players": 3}',
    "impossible_deal": '{"game": "abluxxen", "players": 3, "deal": {"hands": [[5,5,5,5,5], [5,5,5,5,5]]}}',
    "hand_too_big": '{"game": "abluxxen", "players": 3, "deal": {"hands": [[1,1,1,1,2,2,2,2,3,3,3,3,4,4]]}}',
    "bad_card": '{"game": "abluxxen", "players": 3, "deal": {"pool": [0]}}',
    "bad_deal_shape": '{"game": "abluxxen", "players": 3, "deal": [1, 2]}',
    "bad_actions": '{"game": "abluxxen", "players": 3, "actions": "play 5"}',
    "bad_seed": '{"game": "abluxxen", "players": 3, "seed": "seven"}',
    "unknown_option": '{"game": "abluxxen", "players": 3, "options": {"turbo": true}}',
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_record_exit_2_one_line(run, usage_error, tmp_path, kind):
    path = tmp_path / f"{kind}.json"
    path.write_text(MALFORMED[kind])
    usage_error(run("replay", path, "--json"))
    usage_error(run("replay", path, "--no-pause"))


def test_malformed_record_console_script(cli, usage_error, tmp_path):
    for kind in ("bad_json", "unknown_game", "wrong_player_count", "impossible_deal"):
        path = tmp_path / f"{kind}.json"
        path.write_text(MALFORMED[kind])
        usage_error(cli("replay", path, "--json"))


def test_missing_file_and_bad_seat(run, usage_error, records, tmp_path):
    usage_error(run("replay", tmp_path / "nope.json", "--json"))
    path, _ = records["basic_mid"]
    usage_error(run("replay", path, "--json", "--as", "3"))        # seats 0..2
    usage_error(run("replay", path, "--json", "--as", "-1"))
    usage_error(run("replay", path, "--json", "--as", "x"))


# -- replay in words -----------------------------------------------------------------------------
def test_words_full_information(run, records):
    path, state = records["basic_over"]
    proc = run("replay", path)                      # not a TTY: no pause
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    steps = [ln for ln in out.splitlines() if ln[:3].strip().isdigit() and ln[3:5] == ". "]
    assert len(steps) == len(state.history)
    assert "Player 1 plays" in out
    assert "Result" in out and ("Winner: " in out or "Winners: " in out)
    # full information: deck draws name the card
    deck_lines = [ln for ln in steps if "from the deck" in ln]
    assert deck_lines and all("draws from the deck" not in ln for ln in deck_lines)


def test_words_as_seat_hides_other_deck_draws(run, records):
    path, state = records["basic_over"]
    proc = run("replay", path, "--as", "1", "--no-pause")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    others = [ln for ln in lines if re.search(r"Player \d draws .*deck", ln)]
    mine = [ln for ln in lines if "You draw" in ln and "deck" in ln]
    assert others and all(re.search(r"Player \d draws from the deck$", ln) for ln in others)
    assert mine and all(re.search(r"You draw (\d+|X) from the deck$", ln) for ln in mine)
    assert "Seen by Player 2 (seat 2)" in proc.stdout


def test_words_unfinished_record(run, records):
    path, state = records["basic_mid"]
    proc = run("replay", path, "--no-pause")
    assert proc.returncode == 0
    assert "The record ends before the game is over." in proc.stdout


def test_words_german(run, records):
    path, _ = records["basic_over"]
    proc = run("replay", path, "--lang", "de")
    assert proc.returncode == 0
    assert "Spieler 1 spielt" in proc.stdout and "Ergebnis" in proc.stdout


# AB-18
def test_tie_broken_by_fewer_hand_cards(run, data_dir):
    proc = run("replay", data_dir / "tie_ab18_fewer_hand.json")
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "Tie at 18 points (Player 1 with 8 hand cards and Player 3 with 7 hand cards)" in out
    assert "the fewer hand cards decide (AB-18)" in out
    assert "Winner: Player 3" in out
    assert "deck and the pool were used up (AB-14)" in out


# AB-18
def test_tie_with_equal_hand_cards_all_win(run, data_dir):
    proc = run("replay", data_dir / "tie_ab18_still_tied.json")
    out = " ".join(proc.stdout.split())
    assert "with equal hand cards: all of them win (AB-18)" in out
    assert "Winners: Player 1 and Player 2" in out


# CL-4, CL-3
def test_classic_tie_is_shared(run, data_dir):
    proc = run("replay", data_dir / "tie_cl4_shared.json")
    out = " ".join(proc.stdout.split())
    assert "ties are not broken, all of them win (CL-4)" in out
    assert "Winners: Player 2 and Player 3" in out
    assert "Player 3 played the last hand card (CL-3)" in out
    proc = run("replay", data_dir / "tie_cl4_shared.json", "--json")
    view = json.loads(proc.stdout)
    assert view["winners"] == [1, 2] and view["over"]


# -- who played each seat (NOTATION.md `seats`, issue 31) ----------------------------------------
@pytest.mark.parametrize("lang,words", [("C.UTF-8", ("Players: Ann Lee (seat 1), Ben (seat 2, "
                                                     "medium bot)", "Ann Lee plays")),
                                        ("de_DE.UTF-8", ("Spieler: Ann Lee (Platz 1), Ben "
                                                         "(Platz 2, Bot: mittel)",
                                                         "Ann Lee spielt"))])
def test_a_saved_game_replays_with_the_names_played_with(run, tmp_path, lang, words):
    save = tmp_path / "g.json"
    proc = run("play", "abluxxen", "--variant", "duel", "--bots", "medium", "--seed", "3",
               "--name", "Ann Lee", "--save", save, input="1\n" * 600)
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(save.read_text())
    assert rec["seats"] == [{"name": "Ann Lee"}, {"name": "Ben", "bot": "medium"}]
    proc = run("replay", save, "--no-pause", lang=lang)
    assert proc.returncode == 0, proc.stderr
    assert words[0] in proc.stdout and words[1] in proc.stdout
    assert "Seat 0" not in proc.stdout and "Platz 0 " not in proc.stdout


def test_a_record_without_seats_counts_players_from_1(run, records):
    path, _ = records["basic_over"]
    rec = json.loads(Path(path).read_text())
    assert "seats" not in rec
    proc = run("replay", path, "--no-pause")
    assert "Players: Player 1 (seat 1), Player 2 (seat 2)" in proc.stdout


@pytest.mark.parametrize("seats,words", [
    ("Ann", '"seats" must be a list of objects'),
    ([{"name": "Ann"}], '"seats" names 1 seats, the game has 4'),
    ([{"name": ""}] * 4, 'seat 0 of "seats" needs a "name"'),
    ([{"name": "A"}, {"name": "B", "bot": 7}, {"name": "C"}, {"name": "D"}], '"bot" names a bot'),
])
def test_bad_seats_are_refused_before_anything_is_shown(run, usage_error, tmp_path, records,
                                                        seats, words):
    path, _ = records["basic_over"]
    rec = json.loads(Path(path).read_text())
    rec["seats"] = seats
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    proc = run("replay", bad, "--no-pause")
    usage_error(proc)
    assert words in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, "Ann\x07"])
def test_a_bad_name_is_refused_before_the_deal(run, usage_error, name):
    proc = run("play", "abluxxen", "--name", name, input="quit\n")
    usage_error(proc)
    assert "--name needs 1 to 64 printable characters" in proc.stderr


@pytest.mark.parametrize("lang", ["C.UTF-8", "de_DE.UTF-8"])
def test_replay_of_an_unknown_rules_version_exits_2_with_one_line(run, tmp_path, lang):
    """NOTATION.md `rules_version`: a record of rules this version does not know is refused
    with one line and exit status 2, not replayed under other rules."""
    from cardtable import new_game

    rec = new_game("kombio", players=2, seed=1).record()
    rec["rules_version"] = "2099-01-01"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    for extra in ([], ["--json"]):
        proc = run("replay", path, *extra, lang=lang)
        assert proc.returncode == 2, proc.stderr
        assert "2099-01-01" in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and not proc.stdout
        assert ("Regeln" if lang.startswith("de") else "rules") in proc.stderr


@pytest.mark.parametrize("lang,words", [("en", "Played under the rules of 2026-11-26"),
                                        ("de", "Gespielt nach den Regeln vom 2026-11-26")])
def test_replay_says_a_record_plays_under_its_versions_reading(run, tmp_path, lang, words):
    """DU-6 before its revision: a record of rules version 2026-11-26 that does not name
    `shadow_blocks_draw` replays with the draw withheld after a shadowluxx, and says so."""
    state = new_game("abluxxen", variant="duel", players=2, seed=13,
                     options={"shadow_blocks_draw": True})
    bots = [make_bot("random", s) for s in range(2)]
    while len(state.history) < 40:
        state.apply(act(bots[state.to_move], state))
    rec = state.record() | {"rules_version": "2026-11-26"}
    del rec["options"]["shadow_blocks_draw"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(rec))
    proc = run("replay", path, "--no-pause", "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    assert words in proc.stdout and "DU-6" in proc.stdout
    again = run("replay", path, "--json")
    assert json.loads(again.stdout) == json.loads(json.dumps(state.view(None)))
    with pytest.raises(ReplayError):               # the record depends on that reading
        load_record(rec | {"rules_version": RULES_VERSION})
    current = tmp_path / "new.json"
    current.write_text(json.dumps(state.record()))          # names the option: no note
    assert words not in run("replay", current, "--no-pause", "--lang", lang).stdout

@pytest.mark.parametrize("lang, words", [("C.UTF-8", "at most 512 KiB"),
                                         ("de_DE.UTF-8", "höchstens 512 KiB")])
def test_replay_of_a_record_over_the_cap_exits_2_with_one_line(run, tmp_path, lang, words):
    """A record file over core.record.MAX_RECORD_BYTES (the server's replay body cap) is
    refused by its size, in words and as JSON: one line, exit status 2, nothing replayed."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(56 * 1024 * 1024)          # 56 MB, sparse: the size says it all
    for extra in ([], ["--json"]):
        proc = run("replay", path, *extra, lang=lang)
        assert proc.returncode == 2, proc.stderr
        assert words in proc.stderr and "57344 KiB" in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and not proc.stdout
