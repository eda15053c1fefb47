"""`cardtable learn GAME` (cli/learn_cmd.py, docs/learn.md): the guided first game in the
terminal, driven through its input as a person types: each step is said with its clause, a
decision the step does not ask for is refused in friendly words and changes nothing, each
step's decision is explained, and after the steps the free game runs to its end. Bad
arguments exit 2 with one line. In a real 80x24 pseudo-terminal every step's screen fits."""

from __future__ import annotations

import re

import pytest

from cardtable.core.lesson import lessons
from cardtable.i18n import t
from pty_session import PtySession

ALL = {x.id: x for x in lessons()}


def args_of(les) -> list[str]:
    return ["learn", les.game, "--variant", les.name, "--bot-pause", "0"]


def other_choice(les, k: int) -> str:
    """A legal decision at step k that is not the one the step asks for."""
    st = les.new_state()
    at, step = les.steps[k]
    for text in les.decisions[:at]:
        st.apply(text)
    return next(d.text for d in st.legal_decisions() if d.text != step.decision)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("lid", sorted(ALL))
def test_a_lesson_through_its_steps_and_the_free_game_to_the_end(run, lid, lang):
    les = ALL[lid]
    wrong = other_choice(les, 0)
    steps = [s.decision for _, s in les.steps]
    # the first menu entry by its number: refused too where it is not the step's decision
    first = [d.text for d in les.new_state().legal_decisions()][0]
    by_number = first != les.steps[0][1].decision
    lines = ["1"] * by_number + [wrong] + steps + ["1"] * 3000   # free game: the first legal
    r = run(*args_of(les), "--lang", lang, input="\n".join(lines) + "\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert t(lang, f"learn.lesson.{lid}") in out
    refusal = t(lang, "learn.refuse", step=t(lang, f"learn.{les.steps[0][1].key}.do"))
    assert out.count(refusal) == 1 + by_number, out[:3000]
    # the wrong decision changed nothing: step 1 is asked again before step 2 appears
    first = out.index(refusal)
    assert out.index(t(lang, "learn.step", i=2, n=len(les.steps))) > first
    for k, (_, step) in enumerate(les.steps):
        said = (f"{t(lang, 'learn.step', i=k + 1, n=len(les.steps))} · "
                f"{t(lang, 'learn.rule', clause=step.clause)}: {t(lang, f'learn.{step.key}.do')}")
        assert said in out, said
        assert "✓ " + t(lang, f"learn.{step.key}.done") in out
    assert t(lang, f"learn.free.{lid}") in out
    assert t(lang, "learn.over") in out                   # the free game ended
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("args,words", [
    (["learn", "chess"], "chess"),
    (["learn", "kombio", "--variant", "duel"], "kombio duel"),
    (["learn", "abluxxen", "--lang", "fr"], "fr"),
    (["learn"], "game"),
    (["learn", "kombio", "--bot-pause", "-1"], "-1"),
])
def test_bad_arguments_exit_2_with_one_line(cli, usage_error, args, words):
    proc = cli(*args)
    usage_error(proc)
    assert words in proc.stderr


@pytest.mark.parametrize("lid,lang", [("kombio.basic", "de"), ("abluxxen.basic", "en"),
                                       ("abluxxen.duel", "de")])
def test_every_step_fits_an_80x24_terminal(lid, lang):
    les = ALL[lid]
    prompt = t(lang, "cli.prompt").strip()
    s = PtySession(*args_of(les), "--lang", lang, rows=24, cols=80)
    try:
        for k, (_, step) in enumerate(les.steps):
            head = t(lang, "learn.step", i=k + 1, n=len(les.steps))
            s.expect(re.escape(head))
            s.expect_prompt(re.escape(prompt))
            screen = s.text[:s.pos].split("\n")
            # from the board's title line to the prompt: the whole decision on one screen
            top = max(i for i, x in enumerate(screen)
                      if "──" in x and not x.startswith(("╰", "│")))
            shown = screen[top:]
            assert len(shown) <= 24, "\n".join(shown)
            assert all(len(x) <= 80 for x in shown), "\n".join(shown)
            assert any(x.startswith(head) for x in shown)
            s.send(step.decision + "\r")
        s.expect(re.escape(t(lang, f"learn.{les.steps[-1][1].key}.done")[:30]))
        s.expect_prompt(r".*>")
        s.send("quit\r")
        assert s.wait() == 0
    finally:
        s.close()
