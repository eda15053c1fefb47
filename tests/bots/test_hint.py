"""Hints (`cardtable.bots.hint`: the expert level's search) and the `cardtable hint` command
(`cardtable.cli.hint_cmd`)."""

from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest
import typer
from typer.testing import CliRunner

from cardtable import new_game
from random_games import finished, walk as advanced
from cardtable.bots import act, make_bot
from cardtable.bots.hint import MIN_VISITS, hint
from cardtable.cli.hint_cmd import HintError, register
from cardtable.core import CardtableError, save_record
from cardtable.core.rng import Rng


@pytest.mark.parametrize("game,opts", [("abluxxen", {"players": 4}),
                                       ("abluxxen", {"variant": "duel"}),
                                       ("kombio", {"players": 3})])
def test_hint_options(game, opts):
    for seed in range(3):
        g = advanced(game, opts, seed, 5 + 9 * seed)
        if g.over:
            continue
        before = g.view(None)
        options = hint(g, iterations=60, seed=seed)
        assert g.view(None) == before                    # the state is not touched
        assert sorted(o["decision"] for o in options) == g.legal()
        for o in options:
            assert set(o) == {"decision", "visits", "win_chance", "level_choice"}
            assert 0.0 <= o["win_chance"] <= 1.0 and o["visits"] >= 1
        # ranked by the estimate, not by rollouts: the well-sampled options first, each
        # group by win chance
        few = [o["visits"] < MIN_VISITS for o in options]
        assert few == sorted(few)
        for group in (False, True):
            wins = [o["win_chance"] for o in options if (o["visits"] < MIN_VISITS) == group]
            assert wins == sorted(wins, reverse=True)
        # exactly one option is flagged: what the expert level itself decides with the same
        # seed and budget
        mine = [o["decision"] for o in options if o["level_choice"]]
        assert mine == [act(make_bot("expert", seed, iterations=60), g).text]


def test_hint_ranks_by_estimate_not_by_rollouts():
    """Where the search gave an option more rollouts than a better-estimated one, or the
    level keeps its own decision on a lower estimate (Kombio's anchor), the ranking follows
    the estimate (before, the level's decision came first and the rest by rollouts)."""
    above_with_fewer = level_not_first = 0
    for seed in range(8):
        g = advanced("kombio", {"players": 3}, seed, 5 + 9 * seed)
        if g.over:
            continue
        options = hint(g, iterations=60, seed=seed)
        sampled = [o for o in options if o["visits"] >= MIN_VISITS]
        for hi, lo in zip(sampled, sampled[1:]):
            assert hi["win_chance"] >= lo["win_chance"]
            above_with_fewer += hi["visits"] < lo["visits"]
        level_not_first += not options[0]["level_choice"]
    assert above_with_fewer and level_not_first


def test_hint_tries_every_option_even_on_a_small_budget():
    g = advanced("kombio", {"players": 4}, 2, 0)
    options = hint(g, iterations=1, seed=0)
    assert len(options) == len(g.legal_decisions()) >= 2
    assert all(o["visits"] == 1 for o in options)


def test_hint_forced_decision_has_a_win_chance():
    g = new_game("abluxxen", players=4, seed=1)
    rng = Rng(0)
    while len(g.legal_decisions()) != 1:
        legal = g.legal_decisions()
        g.apply(legal[rng.below(len(legal))])
    (only,) = hint(g, iterations=10)
    assert only["visits"] == 10 and 0.0 <= only["win_chance"] <= 1.0


def test_hint_uses_only_the_seats_knowledge():
    for seed in range(4):
        g = advanced("abluxxen", {"players": 4}, seed, 3 + 5 * seed)
        seat = g.to_move
        other = g.determinize(seat, seed=1000 + seed)
        assert other.view(seat) == g.view(seat)
        assert hint(g, iterations=40, seed=3) == hint(other, iterations=40, seed=3)


def test_hint_errors():
    over = finished("abluxxen", {"players": 3}, 1)
    with pytest.raises(ValueError, match="over"):
        hint(over)
    g = new_game("kombio", players=3, seed=1)
    with pytest.raises(ValueError, match="seat"):
        hint(g, seat=(g.to_move + 1) % 3)
    assert hint(g, seat=g.to_move, iterations=5)


# -- the command ---------------------------------------------------------------------------------
def make_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:  # a group, so the command is called as `hint FILE`, as in cardtable
        pass

    register(app)
    return app


@pytest.fixture
def record(tmp_path):
    """A finished 4-player Abluxxen game saved as a record; returns (path, state)."""
    g = finished("abluxxen", {"players": 4}, 5)
    path = tmp_path / "game.json"
    save_record(g, path)
    return path, g


def test_cli_json(record):
    path, g = record
    upto = 12
    result = CliRunner().invoke(make_app(), ["hint", str(path), "--upto", str(upto),
                                             "--iterations", "30", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    state = new_game("abluxxen", players=4, seed=5).apply_all(g.history[:upto])
    assert out["game"] == "abluxxen" and out["actions"] == upto
    assert out["seat"] == state.to_move and out["awaiting"] == state.awaiting
    assert out["budget"] == {"iterations": 30} and out["seed"] == 4
    assert out["level"] == "expert"
    assert out["options"] == hint(state, iterations=30, seed=4)


def test_cli_table(record):
    path, g = record
    result = CliRunner().invoke(make_app(), ["hint", str(path), "--upto", "3",
                                             "--iterations", "20"])
    assert result.exit_code == 0, result.output
    state = new_game("abluxxen", players=4, seed=5).apply_all(g.history[:3])
    best = hint(state, iterations=20)[0]["decision"]
    assert f"seat {state.to_move + 1} to decide" in result.stdout   # people count from 1
    assert best in result.stdout and "win chance" in result.stdout


def test_cli_seconds(record):
    path, _ = record
    result = CliRunner().invoke(make_app(), ["hint", str(path), "--upto", "0",
                                             "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["budget"] == {"seconds": 0.05} and out["actions"] == 0 and out["options"]


def invoke(args):
    """Run the command as the cardtable entry point does (standalone_mode=False): returns the
    exception it raised, or None."""
    command = typer.main.get_command(make_app())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            command.main(args=args, prog_name="cardtable", standalone_mode=False)
        except typer.Exit:
            return None
        except Exception as e:  # noqa: BLE001 - the test inspects it
            return e
    return None


@pytest.mark.parametrize("args,kind", [
    (["--iterations", "5", "--seconds", "1"], typer.BadParameter),
    (["--iterations", "0"], typer.BadParameter),
    (["--seconds", "0"], typer.BadParameter),
    (["--upto", "-1"], typer.BadParameter),
    (["--iterations", "many"], typer.BadParameter),
    (["--level", "medium"], typer.BadParameter),                  # medium does not search
    ([], HintError),                                       # the whole record: the game is over
])
def test_cli_errors(record, args, kind):
    path, _ = record
    e = invoke(["hint", str(path)] + args)
    assert isinstance(e, kind), e
    if kind is HintError:
        assert isinstance(e, CardtableError) and "over" in str(e)


def test_cli_record_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"game": "abluxxen", "players": 4, "seed": 1,
                                   "actions": ["take"]}), encoding="utf-8")
    for path in (bad, illegal, tmp_path / "missing.json"):
        assert isinstance(invoke(["hint", str(path)]), CardtableError)


def test_cli_error_exit_through_main(record, monkeypatch):
    """Through the real entry point: one line on stderr, exit status 2, no traceback."""
    from cardtable.cli import main as main_mod

    monkeypatch.setattr(main_mod, "app", make_app())
    path, _ = record
    for args in (["hint", str(path)], ["hint", str(path), "--iterations", "3", "--seconds", "1"]):
        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main_mod.main(args)
        assert code == 2, (out.getvalue(), err.getvalue())
        assert out.getvalue() == "" and "Traceback" not in err.getvalue()
        assert len(err.getvalue().strip().splitlines()) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main_mod.main(["hint", str(path), "--upto", "7", "--iterations", "10", "--json"])
    assert code == 0 and json.loads(out.getvalue())["actions"] == 7


def test_cli_default_budget_is_the_levels(record):
    path, g = record
    result = CliRunner().invoke(make_app(), ["hint", str(path), "--upto", "2", "--json",
                                             "--level", "hard"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["level"] == "hard"
    assert out["budget"] == {"iterations": make_bot("hard").iterations}


def test_cli_speaks_german(record):
    path, g = record
    result = CliRunner().invoke(make_app(), ["hint", str(path), "--upto", "3",
                                             "--iterations", "20", "--lang", "de"])
    assert result.exit_code == 0, result.output
    state = new_game("abluxxen", players=4, seed=5).apply_all(g.history[:3])
    assert f"Platz {state.to_move + 1} entscheidet" in result.stdout
    assert "Gewinnchance" in result.stdout and "Stufe Experte" in result.stdout
    assert "win chance" not in result.stdout and "to decide" not in result.stdout
    # the level's own decision is starred
    mine = next(o["decision"] for o in hint(state, iterations=20) if o["level_choice"])
    assert any(line.split("│")[0].strip().startswith("*") and mine in line
               for line in result.stdout.splitlines())
    e = invoke(["hint", str(path), "--lang", "de"])        # the game is over there
    assert isinstance(e, HintError) and "vorbei" in str(e)
    e = invoke(["hint", str(path), "--lang", "de", "--iterations", "0"])
    assert isinstance(e, typer.BadParameter) and "nicht 0" in str(e)
