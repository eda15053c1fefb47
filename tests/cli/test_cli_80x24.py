"""Both games at 80×24 (issue 14), in a real pseudo-terminal of that size: the board, the
reason and the menu of a decision fit on the screen, lines break between words, and a menu of
121 Kombio decisions is one line, not 121."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from cardtable.kombio import ui as kombio_ui
from cardtable.cli.main import MENU_MAX, Game
from cardtable.i18n import t
from pty_session import PtySession


def _screen_of_last_prompt(text: str, title: str, prompt: str) -> list[str]:
    """The lines from the last board title to the prompt after it."""
    start = text.rindex(title)
    end = text.index(prompt, start) + len(prompt)
    return text[start:end].split("\n")


@pytest.mark.parametrize("args,title,prompt", [
    (["kombio", "--players", "4"], "Kombio · round 1", "Your decision>"),
    (["kombio", "--players", "6", "--lang", "de"], "Kombio · Runde 1", "Deine Entscheidung>"),
    (["abluxxen", "--players", "5"], "Abluxxen · basic game", "Your decision>"),
    (["abluxxen", "--players", "5", "--lang", "de"], "Abluxxen · Grundspiel",
     "Deine Entscheidung>"),
])
def test_a_decision_fits_an_80x24_terminal(args, title, prompt):
    s = PtySession("play", *args, "--seed", "5", "--bot-pause", "0", rows=24, cols=80)
    try:
        s.expect(re.escape(prompt))
        lines = _screen_of_last_prompt(s.text, title, prompt)
        assert len(lines) <= 24, "\n".join(lines)
        assert all(len(x) <= 80 for x in lines), "\n".join(lines)
        if args[0] == "abluxxen":       # the reason breaks between words, not inside one
            lang = "de" if "de" in args else "en"
            why = t(lang, "ab.why.play.you")
            i = next(k for k, x in enumerate(lines) if x.startswith(why[:12]))
            joined = " ".join(x.strip() for x in lines[i:i + 3])
            assert joined.startswith(why), (joined, why)
            assert len(why) <= 80 or len(lines[i].rstrip()) < len(why)  # broken where needed
        s.send("quit\r")
        s.expect_prompt(r"(Save this game to \S+\? \[y/N, or a file name\]|Diese Partie in \S+ "
                        r"speichern\? \[j/N, oder ein Dateiname\])")   # the offer to save
        s.send("\r")                                       # not kept
        assert s.wait() == 0
    finally:
        s.close()


def test_121_swap_decisions_are_one_line():
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    g = Game(kombio_ui, 0, {}, ["You", "Ben", "Caro", "Lisa"], "en", console, None, True)
    legal = [f"peek {a} {b}" for a in range(11) for b in range(11)]
    assert len(legal) == 121 > MENU_MAX
    g.menu(legal)
    text = out.getvalue()
    assert text.startswith("121 legal decisions: type one (Tab completes it), e.g. ")
    assert len(text.splitlines()) <= 2
    out.truncate(0)
    out.seek(0)
    g.menu(legal[:MENU_MAX])
    assert f"{MENU_MAX}) {legal[MENU_MAX - 1]}" in out.getvalue()


def test_tournament_tables_are_readable_at_80_columns(tmp_path):
    """`cardtable tournament` in an 80x24 pseudo-terminal: no figure or bot name cut to "…",
    no table line wider than the terminal (a long file path is left to the terminal to wrap);
    a table too wide is split into parts that each repeat the row's name (issue 31)."""
    s = PtySession("tournament", "--bots", "pimc,random,heuristic,random", "--games", "4",
                   "--seed", "3", "--jobs", "1", "--no-charts", "--no-progress",
                   "--bot-param", "pimc.iterations=10", "--out", str(tmp_path / "o"),
                   "--ratings", str(tmp_path / "r.json"), rows=24, cols=80)
    try:
        s.expect("Wrote: ")
        assert s.wait() == 0
    finally:
        s.close()
    text = s.text
    assert "…" not in text, text
    table_lines = [x for x in text.split("\n") if set(x) & set("│┃┏└┡")]
    assert len(table_lines) > 30 and all(len(x.rstrip()) <= 80 for x in table_lines), text
    assert "pimc(iterations=10)" in text and "medium" in text      # one name per bot
    # every win-rate interval whole: 4 entries, 3 bots (random in two seats), 4 seats
    assert len(re.findall(r"\d+\.\d–\d+\.\d%", text)) == 4 + 3 + 4, text
    assert "(1/" in text                                        # the wide table was split


class _Typed:
    """A prompter that types the given lines, as a player at a terminal's prompt would."""
    tty = True

    def __init__(self, *lines):
        self.lines = list(lines)

    def ask(self, prompt, words=None):
        return self.lines.pop(0)

    def stale(self):
        return []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bare_number_chooses_only_from_a_numbered_menu(lang):
    """A decision of more than MENU_MAX choices shows no numbered menu, so "1" does not play
    its first choice (issue 31): it is refused with a reason, and the decision typed plays."""
    import random

    from cardtable.core.record import new_game

    rng = random.Random(4)
    for seed in range(200):                         # a position where seat 0 has a long list
        state = new_game("kombio", seed=seed, players=4)
        while not state.over and not (state.to_move == 0 and len(state.legal()) > MENU_MAX):
            state.apply(rng.choice(state.legal()))
        if not state.over:
            break
    legal = [d.text for d in state.legal_decisions()]
    assert len(legal) > MENU_MAX
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    g = Game(kombio_ui, 0, {}, ["You", "Ben", "Caro", "Lisa"], lang, console,
             _Typed("1", legal[-1]), False)
    assert g.ask(state) == legal[-1]
    assert t(lang, "cli.no_numbers", n=len(legal)) in " ".join(out.getvalue().split())
    g = Game(kombio_ui, 0, {}, ["You", "Ben", "Caro", "Lisa"], lang, console,
             _Typed("quit"), False)
    assert g.ask(state) is None


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_display_layer_is_never_split_across_lines(lang):
    """Five long displays in an 80-column table (issue 31: "[10 10" / "10]"): each layer's
    cards stay on one line, the table breaks between layers."""
    from cardtable.abluxxen import ui as abluxxen_ui
    from cardtable.core.record import new_game

    view = new_game("abluxxen", players=5, seed=2).view(0)
    view["displays"] = [[[v] * 4 for v in range(6 + s, 13)] + [[10, 10, "X"]] for s in range(5)]
    out = io.StringIO()
    Console(file=out, width=80, highlight=False).print(
        abluxxen_ui.render(view, 0, ["You", "Ben", "Caro", "Lisa", "Niko"], lang))
    lines = out.getvalue().splitlines()
    assert all(len(x) <= 80 for x in lines)
    for x in lines:
        assert x.count("[") == x.count("]") and x.count("»") == x.count("«"), x
    assert sum("[" in x for x in lines) > 5                  # the displays did wrap


@pytest.mark.parametrize("lang", ["de", "en"])
def test_replay_pause_breaks_between_words(tmp_path, lang):
    """The replay's pause help is longer than 80 columns in German (101 characters): it is
    broken between words into lines that fit, not left to the terminal to cut a word in two
    (issue 31). Played in an 80x24 pseudo-terminal."""
    from cardtable import new_game
    from cardtable.core.record import save_record

    state = new_game("abluxxen", players=3, seed=2)
    for _ in range(6):
        state.apply(state.legal()[0])
    rec = tmp_path / "r.json"
    save_record(state, rec)
    help_text = t(lang, "cli.replay_pause")
    last = help_text.split()[-1]
    s = PtySession("replay", rec, "--lang", lang, "--pause", rows=24, cols=80)
    try:
        s.expect(re.escape(last))
        start = s.text.rindex(help_text.split()[0] + " " + help_text.split()[1])
        shown = s.text[start:].replace("\r", "").split("\n")
        assert all(len(x) < 80 for x in shown), shown
        words = [w for x in shown for w in x.split() if w != "·"]     # every word whole
        assert words == [w for w in help_text.split() if w != "·"], shown
        s.send("q\r")
        assert s.wait() == 0
    finally:
        s.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_row_of_a_player_who_called_fits_80_columns(tmp_path, lang):
    """An online game's record names its players (up to 32 characters); one of them calls
    Kombio at a table of six. Replayed in an 80x24 pseudo-terminal, the caller's row keeps
    within 80 columns, its further lines are indented under it and no card is split from its
    value (issue 31: the caller's row ran past the edge, '(KO-12)' at the start of a line)."""
    from cardtable.core.record import save_record
    from cardtable.kombio import new_game as kombio_game

    name = "Maximilian Müller-Lüdenscheidt"[:32].ljust(32, "x")
    state = kombio_game(players=6, seed=5)
    while not (state.to_move == 1 and "kombio" in state.legal()):
        state.apply(state.legal()[0])
    state.apply("kombio")
    state.apply(state.legal()[0])
    rec = tmp_path / "r.json"
    save_record(state, rec, seats=[{"name": f"P{i}"} for i in range(6)])
    data = json.loads(rec.read_text())
    data["seats"][1]["name"] = name
    rec.write_text(json.dumps(data))
    s = PtySession("replay", rec, "--lang", lang, "--no-pause", rows=24, cols=80)
    try:
        assert s.wait() == 0
        final = s.text[s.text.rindex(t(lang, "cli.replay_final")):].replace("\r", "")
        lines = final.split("\n")
        row = next(i for i, x in enumerate(lines) if name in x)
        assert all(len(x) <= 80 for x in lines), "\n".join(lines)
        assert t(lang, "ko.head.taboo.short").strip() in lines[row], lines[row]
        cells = re.compile(r"\s*(1\.\d+ +\S+ *)+")
        tail = lines[row].split(t(lang, "ko.head.taboo.short").strip(), 1)[1]
        assert tail.strip() == "" or cells.fullmatch(tail), lines[row]
        for x in lines[row + 1:]:
            if not x.startswith("    1."):
                break
            assert cells.fullmatch(x), x
    finally:
        s.close()
