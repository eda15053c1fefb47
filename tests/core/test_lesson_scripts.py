"""Every lesson of every game (core/lesson.py): its script is legal from its prepared deal,
every step is the learner's decision, offers a real choice, names a clause of docs/rules.md
and has its words in both catalogs; other decisions are refused at each step; the others'
seats follow the script (bots.lesson.LessonBot) and the free game runs to its end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.bots import act
from cardtable.bots.lesson import LessonBot
from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.lesson import CLAUSE, Step, lesson, lessons
from cardtable.i18n import LANGS, catalog

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
ALL = lessons()
IDS = [x.id for x in ALL]


def test_every_game_and_the_duel_have_a_lesson():
    assert {"abluxxen.basic", "abluxxen.duel", "kombio.basic"} <= set(IDS)
    for g in registry.games():                 # the house's games; a plugin's are optional
        if g.engine.startswith("cardtable."):
            assert lessons(g.name), f"{g.name} declares no lesson"
    with pytest.raises(ConfigError):
        lesson("abluxxen.nope")


@pytest.mark.parametrize("les", ALL, ids=IDS)
def test_the_script_is_legal_and_every_step_is_the_learners_choice(les):
    st = les.new_state()
    assert les.steps, "a lesson without steps"
    for i, item in enumerate(les.script):
        text = item.decision if isinstance(item, Step) else item
        assert not st.over, f"the game ended before decision {i}"
        legal = [d.text for d in st.legal_decisions()]
        assert st.parse(text).text in legal, f"{les.id} #{i}: {text!r} is not legal ({legal})"
        if isinstance(item, Step):
            assert st.to_move == les.seat, f"{les.id} #{i}: a step for seat {st.to_move}"
            assert len(legal) > 1, f"{les.id} #{i}: a step without a choice (AB-21)"
            assert les.step_at(st.history)[1] is item
            assert CLAUSE.match(item.clause) and f"**{item.clause}**" in RULES, item.clause
            for lang in LANGS:
                for part in ("do", "done"):
                    key = f"learn.{item.key}.{part}"
                    assert key in catalog(lang), f"{key} missing in {lang}"
            # every other legal decision is refused with this step, the step's own is not
            others = [d for d in legal if d != st.parse(text).text]
            assert all(les.refuses(st, d) is item for d in others)
            assert les.refuses(st, text) is None
        else:
            assert st.to_move != les.seat, f"{les.id} #{i}: the learner's decision is no step"
            assert les.step_at(st.history) is None
        st.apply(text)
        assert les.done_step(st.history) == (
            (next(k for k, (j, _) in enumerate(les.steps) if j == i), item)
            if isinstance(item, Step) else None)
    assert not st.over, "the free game must have something left to play"
    assert les.free(st.history) and les.step_at(st.history) is None


@pytest.mark.parametrize("les", ALL, ids=IDS)
def test_the_others_follow_the_script_then_the_free_game_ends(les):
    """The learner takes the steps; every other seat is a LessonBot, asked as the front ends
    ask (a determinization of its view); after the script the learner plays easy too."""
    st = les.new_state()
    bots = {s: LessonBot(les, seed=s) for s in range(les.players) if s != les.seat}
    me = LessonBot(les, seed=99)          # off the script: an easy bot for the learner
    steps = dict(les.steps)
    for _ in range(3000):
        if st.over:
            break
        n = len(st.history)
        if st.to_move == les.seat:
            text = steps[n].decision if n in steps and les.on_script(st.history) else act(me, st).text
        else:
            text = act(bots[st.to_move], st).text
            if n < len(les.script):
                assert text == les.decisions[n], f"{les.id} #{n}: the bot left the script"
        st.apply(text)
    assert st.over, f"{les.id}: the free game did not end"
    assert tuple(st.history[:len(les.script)]) == les.decisions


def test_a_window_seat_after_the_learner_stays_silent_while_the_learner_snaps():
    """Kombio's server asks a window's seats at once, on copies where the seats before are
    silent (core.game Window.ask): a scripted seat after the learner answers silence even
    where the learner's scripted answer is a snap."""
    les = lesson("kombio.basic")
    st = les.new_state()
    snap = next(i for i, s in les.steps if s.decision.startswith("snap"))
    for text in les.decisions[:snap]:
        st.apply(text)
    w = st.window()
    assert w is not None
    for seat in w.seats:
        if seat != les.seat:
            asked = w.ask(st, seat)
            assert act(LessonBot(les), asked).text == w.silence


def test_lessons_json_names_steps_with_their_decisions():
    for les in ALL:
        js = les.to_json()
        assert js["id"] == les.id and len(js["steps"]) == len(les.steps)
        for s, (i, step) in zip(js["steps"], les.steps):
            assert s["at"] == i and s["decision"]["text"] == step.decision
            assert s["clause"] == step.clause and re.match(r"^[\w.]+$", s["key"])
