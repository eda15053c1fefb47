"""Kombio's guided first game (core/lesson.py): two players, a fixed deal, and a first round
in which the learner (seat 0, who starts) draws and replaces, passes in a snap window, uses
a 7 to peek, snaps a card they know, and calls Kombio. The game then goes on freely to 40
points. The steps' words are the catalog's ``learn.<key>.do`` / ``.done``."""

from __future__ import annotations

from cardtable.core.lesson import Lesson, Step

PASS = "pass"

BASIC = Lesson(
    game="kombio", name="basic", seat=0,
    setup={"players": 2, "seed": 34, "start": 0, "target": 40,
           "deal": {"grids": [[9, 11, 5, 2], [6, 8, 1, 12]], "deck": [1, 7, 7, 5, 0, 4, 3]}},
    script=(
        Step("draw", "ko.draw", "KO-5"),
        Step("replace 1", "ko.replace", "KO-5"),
        Step(PASS, "ko.pass", "KO-10"), PASS,                # the snap window: you, then Ben
        "draw", "discard", "peek 1.1",                       # Ben uses a 7 on his own card
        PASS, Step(PASS, "ko.pass_again", "KO-10"),
        Step("draw", "ko.draw_action", "KO-5"),
        Step("discard", "ko.discard", "KO-6"),
        Step("peek 0.2", "ko.peek", "KO-6"),
        Step(PASS, "ko.pass_again", "KO-10"), PASS,
        "draw", "discard",                                   # Ben throws a 5 away
        PASS, Step("snap 0.3", "ko.snap", "KO-8"),
        Step("draw", "ko.draw_low", "KO-5"),
        Step("replace 2", "ko.replace_known", "KO-5"),
        Step(PASS, "ko.pass_again", "KO-10"), PASS,
        "draw", "discard",                                   # Ben throws a 4 away
        PASS, Step(PASS, "ko.pass_again", "KO-10"),
        Step("kombio", "ko.kombio", "KO-12"),
        "draw", "discard",                                   # Ben's last turn
        PASS, Step(PASS, "ko.pass_last", "KO-15"),
    ),
    # a newcomer reads the step before snapping: a long snap window while the lesson guides
    # on the server (the terminal waits without a limit then); the free game has the usual
    table={"snap_seconds": 60.0},
)

LESSONS = (BASIC,)
