"""`cardtable review` (cli/review_cmd.py, docs/review.md): the table of marked decisions and the
accuracy in both languages, `--json`, one-line errors with exit status 2, and an 80x24
terminal."""

from __future__ import annotations

import json
import re

import pytest

from cardtable.bots import act, make_bot
from cardtable.core.record import load_record
from cardtable.i18n import foreign_words, t
from pty_session import PtySession

#: Kombio, 2 players, one round: seat 1 called Kombio; seat 0 drew a 12 and replaced its known
#: 0 with it (action 2, move 3): a clear mistake (discarding the 12 wins the round)
KOMBIO = {"game": "kombio", "players": 2, "seed": 1, "target": 10, "start": 1,
          "deal": {"grids": [[4, 4, 0, 1], [3, 3, 2, 5]], "deck": [12]},
          "actions": ["kombio", "draw", "replace 3"],
          "seats": [{"name": "Ann"}, {"name": "Ben", "bot": "medium"}]}
ARGS = ["--budget", "80", "--seed", "0"]


def finished(rec: dict) -> dict:
    s = load_record(rec)
    bots = [make_bot("medium", i) for i in range(s.players)]
    while not s.over:
        s.apply(act(bots[s.to_move], s))
    out = s.record()
    out["deal"], out["seats"] = rec["deal"], rec["seats"]
    return out


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "kombio.json"
    path.write_text(json.dumps(finished(KOMBIO)), encoding="utf-8")
    return path


def test_table_in_english(run, record):
    r = run("review", record, *ARGS, "--lang", "en")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Kombio: review of" in out and "80 play-outs a decision" in out
    assert re.search(r"Ann \(seat 0\): accuracy \d+\.\d over 1 decision, 1 marked", out), out
    row = next(line for line in out.splitlines() if "replace 3" in line)
    pts = r"\+\d+\.\d"
    assert re.match(rf"\s*3 │ replace 3\s+│ discard\s+│\s+{pts} │ {pts} … {pts}", row), row
    assert "Ben" not in out                           # a bot seat is not reviewed by default
    assert not (foreign_words("de", "en") & set(out.split()))


def test_table_in_german(run, record):
    r = run("review", record, *ARGS, "--lang", "de")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Auswertung von" in out and "Genauigkeit" in out and "Zug" in out
    assert re.search(r"Ann \(Platz 0\): Genauigkeit \d+\.\d über 1 Entscheidung, 1 markiert",
                     out), out
    for word in ("accuracy", "review of", "Chosen", "Loss", "marked"):
        assert word not in out
    r = run("review", record, *ARGS, "--lang", "de", "--seat", "1")
    assert r.returncode == 0 and "Ben (Platz 1)" in r.stdout


def test_json(run, record):
    r = run("review", record, *ARGS, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["game"] == "kombio" and out["lower_is_better"] is True
    assert out["budget"]["rollouts"] == 80 and out["seed"] == 0
    (seat,) = out["seats"]
    assert seat["seat"] == 0 and seat["name"] == "Ann" and seat["marked"] == [2]
    assert 0 <= seat["accuracy"] < 100
    (d,) = seat["decisions"]
    assert d["index"] == 2 and d["chosen"] == "replace 3" and d["best"] == "discard"
    assert d["marked"] and d["interval"][0] > 0 and d["loss"] > 0
    assert sorted(o["decision"] for o in d["options"]) == \
        ["discard", "replace 1", "replace 2", "replace 3", "replace 4"]
    both = json.loads(run("review", record, *ARGS, "--json", "--seat", "1").stdout)
    assert [s["seat"] for s in both["seats"]] == [1]


@pytest.mark.parametrize("lang,words", [("en", "not over"), ("de", "nicht beendet")])
def test_errors_exit_2_with_one_line(run, record, tmp_path, usage_error, lang, words):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(KOMBIO), encoding="utf-8")
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({**KOMBIO, "actions": ["swap 9.9"]}), encoding="utf-8")
    cases = [([bad], None), ([tmp_path / "missing.json"], None), ([illegal], None),
             ([unfinished], words), ([record, "--seat", "5"], "5"),
             ([record, "--seat", "-1"], "-1"), ([record, "--budget", "1"], "1"),
             ([record, "--lang", "fr"], "fr")]
    for args, text in cases:
        r = run("review", *args) if "--lang" in args else run("review", *args, "--lang", lang)
        usage_error(r)
        if text:
            assert text in r.stderr, r.stderr


def test_the_real_program_exits_2_without_a_traceback(cli, tmp_path, usage_error):
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(KOMBIO), encoding="utf-8")
    r = cli("review", unfinished, "--lang", "de")
    usage_error(r)
    assert "nicht beendet" in r.stderr


@pytest.mark.parametrize("lang", ["en", "de"])
def test_fits_an_80x24_terminal(record, lang):
    s = PtySession("review", record, *ARGS, "--lang", lang, rows=24, cols=80)
    try:
        s.expect(re.escape("docs/review.md)"))
        assert s.wait() == 0
        # what the screen shows line by line: a carriage return starts a line over (the
        # progress bar redraws itself), escape sequences take no room
        raw = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]", "",
                     s.raw.decode("utf-8", errors="replace"))
        lines = [x for x in re.split(r"[\r\n]", raw) if x.strip()]
        assert any("replace 3" in x for x in lines)
        assert t(lang, "review.progress") + " ━" in raw          # the progress bar ran
        assert all(len(x) <= 80 for x in lines), "\n".join(lines)
    finally:
        s.close()
