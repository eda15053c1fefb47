"""The Kombio UI module (render / why / describe / round and game end, --memory) in-process."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from cardtable.bots import act, make_bot
from cardtable.cli import games
from cardtable.kombio import ui as ui
from cardtable.kombio import narration as words
from cardtable.cli.i18n import t
from cardtable.kombio import new_game

NAMES = ["You", "Ben", "Caro", "Lisa"]
CELL = re.compile(r"(\d)\.(\d+) +(-?\d+|\?|—)")


def _states(players=3, seeds=range(1, 4), target=40, bot="random"):
    """Every state (with the decision taken in it) of a few bot games."""
    for seed in seeds:
        state = new_game(players=players, seed=seed, target=target)
        bots = [make_bot(bot, seed * 7 + s) for s in range(players)]
        while not state.over:
            d = act(bots[state.to_move], state)
            yield state, d.text
            state.apply(d)


def _text(renderable, width=100) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _names(players, seat):
    names = [f"P{s}" for s in range(players)]
    if seat is not None:
        names[seat] = "You"
    return names


def test_ui_module_interface():
    mod = games.ui_module("kombio")
    for name in ("new_session", "render", "why", "describe", "summary", "help_text"):
        assert callable(getattr(mod, name))
    assert mod.GAME == "kombio"
    session = mod.new_session(players=3, seed=1, lang="en", snap_seconds=0.5)
    assert session.players == 3 and session.rounds == 1 and session.state.game == "kombio"
    view = session.state.view(0)
    assert session.timed(view, 0) is None                       # not a snap window
    state = session.state
    state.apply("draw")
    state.apply("replace 1")
    timed = session.timed(state.view(0), 0)                     # KO-10: the window is timed
    assert timed.seconds == 0.5 and timed.default == "pass"
    top = state.view(0)['top']
    assert timed.prompt.startswith(f"Snap window on the {top} · 0.5 s to snap: `snap ")
    assert "Enter to pass" in timed.prompt


# KO-2, KO-11: the picture shows exactly what the seat has seen
def test_render_shows_only_what_the_seat_has_seen():
    checked = 0
    for i, (state, _) in enumerate(_states(players=4, seeds=range(1, 3))):
        if i % 7:
            continue
        for seat in range(4):
            text = _text(ui.render(state.view(seat), seat, _names(4, seat), "en"))
            cells = {(int(p), int(s)): v for p, s, v in CELL.findall(text)}
            for p, g in enumerate(state.grids):
                for s in range(1, len(g) + 1):
                    seen = state.card_seen(seat, p, s)
                    want = "—" if g[s - 1] < 0 else ("?" if seen is None else str(seen))
                    assert cells[(p, s)] == want, (seat, p, s)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("lang", ["en", "de"])
def test_render_parts(lang):
    state = new_game(players=2, seed=3)
    text = _text(ui.render(state.view(0), 0, ["You", "Ben"], lang))
    assert t(lang, "ko.pile.empty") in text
    assert t(lang, "ko.deck", cards=t(lang, "ko.cards", n=62)) in text
    assert "0.1  ?" in text and "1.4  ?" in text
    assert re.search(r"0\.3 +-?\d+", text) and re.search(r"0\.4 +-?\d+", text)   # KO-2


# KO-5, KO-6
def test_why_lines():
    seen = set()
    for state, _ in _states(players=3, seeds=range(1, 6)):
        s = state.to_move
        v = state.view(s)
        other = (s + 1) % 3
        mine = ui.why(v, s, _names(3, s), "en")
        theirs = ui.why(state.view(other), other, _names(3, other), "en")
        aw = state.awaiting
        if aw == "turn" and v["top"] is not None and not v["top_snapped"] and v["caller"] is None:
            assert mine == (f"Your turn: draw, take the {v['top']} from the discard pile into a "
                            "slot or call Kombio (KO-5).")
            seen.add(aw)
        elif aw == "drawn":
            assert theirs == f"P{s} drew a card and looks at it."
            assert mine.startswith(f"You drew {words._acard('en', v['drawn'])}: ")
            seen.add(aw)
        elif aw == "action":
            act_ = v["action"]
            assert mine.startswith(f"Use the {act_}: {words.action_what(act_, 'en')} (`")
            if act_ == 13:
                assert mine.startswith("Use the 13: look at any card")
            seen.add(aw)
        elif aw == "snap":
            assert mine.startswith(f"Snap window on the {v['top']}: if you think")
            assert theirs.startswith(f"Snap window on the {v['top']}: P{s} decides")
            seen.add(aw)
    assert {"turn", "drawn", "action", "snap"} <= seen


# KO-5, KO-10: log lines never say what the viewer has not seen
def test_describe_hides_what_the_viewer_has_not_seen():
    kinds = set()
    for state, text in _states(players=3, seeds=range(1, 4), bot="greedy"):
        actor = state.to_move
        after = state.copy()
        after.apply(text)
        kind = text.split()[0]
        for viewer in range(3):
            if viewer == actor:
                continue
            names = _names(3, viewer)
            line = ui.describe(state.view(viewer), text, after.view(viewer), actor, viewer,
                               names, "en")
            first = line.split("\n")[0]
            if kind == "draw":
                assert line == f"P{actor} draws a card and looks at it"
            elif kind == "replace":
                assert first.startswith(f"P{actor} puts the drawn card into slot {actor}.")
            elif kind == "peek":
                assert ":" not in first and first.startswith(f"P{actor} peeks at ")
            elif kind in ("pass", "snap"):
                # KO-10: another's answer is never shown; only the closed window's result
                assert not re.search(rf"^P{actor} (passes|snaps \S+)$", first)
                if after.awaiting == "snap":
                    assert line == ""
            kinds.add(kind)
        full = ui.describe(state.view(None), text, after.view(None), actor, None,
                           _names(3, None), "en")
        if kind == "draw":
            assert re.fullmatch(rf"P{actor} draws an? -?\d+", full)
        own = ui.describe(state.view(actor), text, after.view(actor), actor, actor,
                          _names(3, actor), "en")
        if kind == "draw":
            assert re.fullmatch(r"You draw an? -?\d+", own)
        if kind == "peek":
            assert re.fullmatch(r"You peek at [^:]+: an? -?\d+|You peek at .+ \(an? -?\d+\) "
                                r"and .+ \(an? -?\d+\)", own)
    assert {"draw", "replace", "peek", "pass", "snap"} <= kinds


def test_describe_every_kind_both_languages():
    kinds = set()
    games_ = [_states(players=2, seeds=range(1, 4), bot="random"),
              _states(players=3, seeds=range(1, 4), bot="greedy")]
    for state, text in (x for g in games_ for x in g):
        after = state.copy()
        after.apply(text)
        for lang in ("en", "de"):
            for viewer in (None, 0, 1):
                line = ui.describe(state.view(viewer), text, after.view(viewer), state.to_move,
                                   viewer, ["You", "Ben", "Caro"], lang)
                if text.split()[0] not in ("pass", "snap") or viewer in (None, state.to_move):
                    assert line
                assert ": " + text not in line                 # never the raw fallback
        kinds.add(text.split()[0])
    assert {"draw", "replace", "discard", "take", "kombio", "peek", "swap", "skip", "pass",
            "snap"} <= kinds


def test_round_end_lines_use_the_revealed_round():  # KO-15
    from cardtable import new_game
    g = new_game("kombio", players=3, seed=5)
    names = ["You", "Ben", "Caro"]
    while True:
        before = g.view(0)
        actor = g.to_move
        g.apply("kombio" if "kombio" in g.legal() else g.legal()[0])
        after = g.view(0)
        if after["round_scores"]:
            break
    last = after["last_round"]
    lines = ui.round_end(before, after, 0, names, "en")
    text = "\n".join(lines)
    for q in range(3):
        cards = " ".join(str(v) for v in last["grids"][q] if v is not None)
        verb = "reveal" if q == 0 else "reveals"            # the viewer: "You reveal"
        assert f"{names[q]} {verb}: {cards}" in text
        assert f"{names[q]}: sum {last['sums'][q]}" in text
    assert last["scores"] == after["round_scores"][0]


# -- --memory --------------------------------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _grid(view, p, s):
    return view["grids"][p][s - 1]


def test_memory_hides_after_the_time_and_a_new_look_shows_again():
    clock = Clock()
    mem = ui.Memory(5, clock)
    state = new_game(players=2, seed=3)
    v = state.view(0)
    a3, a4 = _grid(v, 0, 3), _grid(v, 0, 4)
    shown = mem.present(v, prompt=True)
    assert (_grid(shown, 0, 3), _grid(shown, 0, 4)) == (a3, a4)       # first shown now
    clock.now += 4
    assert _grid(mem.present(v, prompt=True), 0, 3) == a3             # still within 5 s
    clock.now += 2
    hidden = mem.present(v, prompt=True)
    assert _grid(hidden, 0, 3) == "?" and _grid(hidden, 0, 4) == "?"
    assert hidden["memory"] == 5 and v["grids"][0][2] == a3            # the view is not changed
    # shown late, the card is still visible at the first prompt that shows it
    clock.now += 60
    mem2 = ui.Memory(5, clock)
    mem2.present(v, prompt=False)
    clock.now += 60
    assert _grid(mem2.present(v, prompt=True), 0, 3) == a3


def test_memory_follows_swapped_cards_and_restarts_on_peek():
    clock = Clock()
    mem = ui.Memory(5, clock)
    state = new_game(players=2, seed=3,
                     deal={"grids": [[1, 2, 3, 4], [5, 6, 11, 8]], "deck": [7, 11]})
    mem.present(state.view(0), prompt=True)
    clock.now += 10
    for text in ("draw", "discard"):                                 # seat 0: a 7 (KO-6)
        before = state.view(0)
        state.apply(text)
        mem.observe(before, text, state.view(0), 0, 0)
    before = state.view(0)
    state.apply("peek 0.3")                                           # looked at again
    mem.observe(before, "peek 0.3", state.view(0), 0, 0)
    v = mem.present(state.view(0), prompt=True)
    assert _grid(v, 0, 3) == 3 and _grid(v, 0, 4) == "?"
    clock.now += 10
    for text in ("pass", "pass", "draw", "discard"):                  # seat 1 discards an 11
        before = state.view(0)
        state.apply(text)
        mem.observe(before, text, state.view(0), state.to_move, 0)
    before = state.view(0)
    state.apply("swap 0.4 1.1")                                       # KO-7: a known card moves
    mem.observe(before, "swap 0.4 1.1", state.view(0), 1, 0)
    v = mem.present(state.view(0), prompt=True)
    assert state.view(0)["grids"][1][0] == 4                          # the view knows it ...
    assert _grid(v, 1, 1) == "?"                                      # ... memory has lost it


def test_session_memory_options():
    s = ui.new_session(players=2, seed=1, lang="en", memory=True)
    assert s.memory.seconds == ui.MEMORY_SECONDS
    s = ui.new_session(players=2, seed=1, lang="en", memory_seconds=0.5)
    assert s.memory.seconds == 0.5
    assert ui.new_session(players=2, seed=1, lang="en").memory is None


def test_help_text_documents_memory():
    for lang in ("en", "de"):
        assert "--memory" in ui.help_text(lang) and "P.S" in ui.help_text(lang)


def test_flow_keeps_every_line_within_the_width_and_every_cell_whole():
    """Property (issue 31): whatever the head (a name up to 32 characters and a caller's mark,
    wider than the terminal or not) and the cells, `flow` gives lines no wider than the width,
    lines after the first indented, and every cell on one line."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rich.text import Text

    words = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=12)

    @settings(max_examples=200, deadline=None)
    @given(head=st.lists(words, min_size=1, max_size=12),
           cells=st.lists(st.tuples(st.integers(1, 15), st.integers(-1, 14)), max_size=15),
           width=st.integers(24, 100))
    def check(head, cells, width):
        texts = [Text(f"3.{s} {v:>2}") for s, v in cells]
        out = ui.flow(Text(" ".join(head) + " "), texts, width=width).plain
        lines = out.split("\n")
        assert all(len(x.rstrip()) <= width for x in lines), (width, lines)
        assert all(x.startswith("    ") for x in lines[1:]), lines
        for c in texts:
            assert c.plain in out.replace("\n    ", "\n"), (c.plain, lines)

    check()
