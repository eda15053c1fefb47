"""The Abluxxen UI module (why / describe / summary wording); the catalog: tests/i18n/test_i18n.py."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from cardtable.bots import act, make_bot
from cardtable.abluxxen import ui as ui
from cardtable.abluxxen import narration as words
from cardtable.cli import games
from cardtable.cli.i18n import default_lang, t
from cardtable.core import new_game

NAMES = ["You", "Ben", "Caro", "Lisa"]


def test_default_lang_from_locale():
    assert default_lang({"LANG": "de_DE.UTF-8"}) == "de"
    assert default_lang({"LC_ALL": "de_AT.UTF-8", "LANG": "en_US.UTF-8"}) == "de"
    assert default_lang({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}) == "en"
    assert default_lang({}) == "en"


def test_ui_module_interface():
    mod = games.ui_module("abluxxen")
    for name in ("new_session", "render", "why", "describe", "summary", "help_text"):
        assert callable(getattr(mod, name))
    assert mod.GAME == "abluxxen"


def test_set_wording():
    assert words.fmt_set([12, 12]) == "2×12"
    assert words.fmt_set([12, "X", 12]) == "3×12 (12 12 X)"
    assert words.fmt_set(["X", "X"]) == "2×X"
    assert words.fmt_set([7]) == "7"
    assert words.fmt_item([3, 13, "X"]) == "3+13+X"


def _states(variant="basic", players=4, seeds=range(1, 6)):
    """Every state (with the decision taken in it) of a few random-bot games."""
    for seed in seeds:
        state = new_game("abluxxen", variant=variant, players=players, seed=seed)
        bots = [make_bot("random", seed * 7 + s) for s in range(players)]
        while not state.over:
            d = act(bots[state.to_move], state)
            yield state, d.text
            state.apply(d)


# AB-11
def test_why_abluxxed_victim_and_attacker():
    seen = 0
    for state, _ in _states():
        if state.awaiting != "take":
            continue
        attacker, victim = state.to_move, state.view()["pending"]["victim"]
        cards = state.view()["pending"]["cards"]
        played = state.view()["displays"][attacker][-1]
        names = ["P0", "P1", "P2", "P3"]
        names[victim] = "You"
        line = ui.why(state.view(victim), victim, names, "en")
        assert line.startswith(f"{names[attacker]} abluxxes you: "
                               f"{names[attacker]}'s {words.fmt_set(played)} beat your "
                               f"{words.fmt_set(cards)}.")
        names = ["P0", "P1", "P2", "P3"]
        names[attacker] = "You"
        line = ui.why(state.view(attacker), attacker, names, "en")
        assert line.startswith(f"You abluxx {names[victim]}: your {words.fmt_set(played)} beat")
        seen += 1
        if seen > 5:
            break
    assert seen


# AB-12, AB-15
def test_why_draws_and_optional_draw():
    owed = optional = 0
    for state, _ in _states():
        s = state.to_move
        v = state.view(s)
        names = ["P0", "P1", "P2", "P3"]
        names[s] = "You"
        if state.awaiting == "draw":
            n = v["owed"]
            text = ui.why(v, s, names, "en")
            assert text.startswith(f"You owe {n} more draw{'s' if n > 1 else ''}")
            plain = ["P0", "P1", "P2", "P3"]
            assert ui.why(state.view((s + 1) % 4), (s + 1) % 4, plain, "en").startswith(
                f"P{s} owes {n} more draw")
            owed += 1
        elif state.awaiting == "optional_draw":
            assert ui.why(v, s, names, "en").startswith(
                "You abluxxed nobody: draw one card or pass (AB-15).")
            optional += 1
    assert owed and optional


# AB-12
def test_describe_never_shows_anothers_deck_card():
    checked = 0
    for state, text in _states(seeds=range(1, 3)):
        if text != "draw deck":
            continue
        actor = state.to_move
        other = (actor + 1) % 4
        after = state.copy()
        after.apply(text)
        names = ["P0", "P1", "P2", "P3"]
        hidden = ui.describe(state.view(other), text, after.view(other), actor, other, names,
                             "en")
        assert hidden == f"P{actor} draws from the deck"
        own = ui.describe(state.view(actor), text, after.view(actor), actor, actor, names, "en")
        assert re.fullmatch(r"You draw (\d+|X) from the deck", own)
        full = ui.describe(state.view(None), text, after.view(None), actor, None, names, "en")
        assert re.fullmatch(rf"P{actor} draws (\d+|X) from the deck", full)
        checked += 1
    assert checked


def test_describe_every_decision_kind_both_languages():
    kinds = set()
    for state, text in _states(variant="duel", players=2, seeds=range(1, 4)):
        after = state.copy()
        after.apply(text)
        for lang in ("en", "de"):
            for viewer in (None, 0, 1):
                line = ui.describe(state.view(viewer), text, after.view(viewer),
                                   state.to_move, viewer, ["You", "Ben"], lang)
                assert line and ":" not in line.split()[0]     # never the raw fallback
        kinds.add(text.split()[0])
    assert {"play", "draw", "take", "leave", "shadow"} <= kinds


# AB-17, AB-18
def test_summary_renders():
    for state, _ in _states(seeds=range(1, 2)):
        pass
    final = state
    final_view = final.view(None)
    console = Console(width=100, record=True)
    console.print(ui.summary(final_view, NAMES, "en"))
    text = console.export_text()
    assert "Result" in text and "Score" in text
    for s in range(4):
        assert str(final_view["scores"][s]) in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_render_shows_everything(lang):
    state = new_game("abluxxen", variant="duel", players=2, seed=3)
    console = Console(width=100, record=True)
    console.print(ui.render(state.view(0), 0, ["You", "Ben"], lang))
    text = console.export_text()
    assert t(lang, "ab.pool") in text and t(lang, "ab.shadow") in text
    assert t(lang, "ab.your_hand") in text and "Ben" in text


def _duel_fives():
    """Seat 0 holds 7 7; the shadow display has three 5s and no other number twice."""
    return new_game("abluxxen", variant="duel", players=2, seed=0,
                    deal={"hands": [["X", "X", 7, 7], []],
                          "shadow": [1, 2, 3, 4, 5, 5, 5, 6, 8, 9, 10, 11, 12]})


@pytest.mark.parametrize("lang", ["en", "de"])
def test_partial_shadowluxx_in_words(lang):  # DU-4
    state = _duel_fives()
    state.apply("play 7 7")
    why = ui.why(state.view(0), 0, ["You", "Ben"], lang)
    assert why == t(lang, "ab.why.shadow.you", set="2×7", size=2, value=7)
    before = {viewer: state.view(viewer) for viewer in (0, 1)}
    state.apply("shadow 5")
    for viewer, key in ((0, "ab.log.shadow.you"), (1, "ab.log.shadow")):
        line = ui.describe(before[viewer], "shadow 5", state.view(viewer), 0, viewer,
                           ["You", "Ben"], lang)
        assert line == (t(lang, key, name="You", set="2×5")
                        + t(lang, "ab.log.shadow_rest", rest="1×5", n=1)), line
