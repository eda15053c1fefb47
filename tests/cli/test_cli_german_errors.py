"""With `--lang de` every error of the command line answers in German, whichever part raised
it: the argument parser (unknown option, bad value, missing argument), the engines (player
count, variant, bot, game) and the record reader (missing file, bad JSON)."""

from __future__ import annotations

import pytest

#: words of the English messages these cases gave before they were worded by the catalog
ENGLISH = ("unknown", "cannot", "Invalid", "No such", "bad JSON", "is for", "Missing",
           "Got unexpected", "error:")


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{\n", encoding="utf-8")
    return path


CASES = [
    ["play", "abluxxen", "--players", "9"],
    ["play", "abluxxen", "--bots", "foo"],
    ["play", "nope"],
    ["play", "abluxxen", "--variant", "xx"],
    ["play", "kombio", "--players", "9"],
    ["play", "abluxxen", "--players", "x"],
    ["play", "abluxxen", "--frob"],
    ["play", "abluxxen", "extra"],
    ["play"],
    ["replay", "{missing}"],
    ["replay", "{broken}"],
    ["review", "{missing}"],
    ["hint", "{broken}"],
    ["play", "abluxxen", "--resume", "{missing}"],
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a))
def test_errors_answer_in_german(run, usage_error, tmp_path, broken, args):
    args = [a.format(missing=tmp_path / "none.json", broken=broken) for a in args]
    proc = run(*args, "--lang", "de")            # the locale is English (C.UTF-8)
    usage_error(proc)
    assert proc.stderr.startswith("cardtable: Fehler: "), proc.stderr
    assert not any(word in proc.stderr for word in ENGLISH), proc.stderr


def test_errors_stay_english_without_lang_de(run, usage_error, tmp_path):
    proc = run("replay", tmp_path / "none.json")
    usage_error(proc)
    assert "cannot read record file" in proc.stderr
