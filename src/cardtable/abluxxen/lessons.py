"""Abluxxen's guided first games (core/lesson.py): the basic rules with three players and
the duel. Each is a fixed deal and a script; the learner is seat 0 and starts. The steps'
words are the catalog's ``learn.<key>.do`` / ``.done`` (src/cardtable/i18n)."""

from __future__ import annotations

from cardtable.core.lesson import Lesson, Step

BASIC = Lesson(
    game="abluxxen", name="basic", seat=0,
    setup={"variant": "basic", "players": 3, "seed": 34, "start": 0, "deal": {
        "hands": [[7, 7, 7, 9, 9, "X", 2, 3, 4, 6, 8, 12, 13],
                  [5, 5, 12, 1, 1, 2, 3, 4, 6, 8, 11, 11, 13],
                  [10, 10, 3, 3, 3, 4, 6, 8, 11, 12, 1, 2, 13]],
        "pool": [11, 1, 2, 6, 8, 12]}},
    script=(
        Step("play 7 7 7", "ab.basic.play", "AB-5"),
        Step("draw pool 11", "ab.basic.draw", "AB-15"),
        "play 5 5", "pass",                       # Ben
        "play 3 3 3", "pass",                     # Caro
        Step("play 9 9", "ab.basic.abluxx", "AB-8"),
        Step("take", "ab.basic.take", "AB-11"),
        "draw deck", "draw deck",                 # Ben draws what he lost
        "play 12", "pass",                        # Ben
        "play 10 10", "leave",                    # Caro abluxxes you and leaves your 9s
        Step("discard", "ab.basic.discard", "AB-11"),
        Step("draw pool 12", "ab.basic.owed", "AB-12"),
        Step("draw deck", "ab.basic.deck", "AB-12"),
    ),
)

DUEL = Lesson(
    game="abluxxen", name="duel", seat=0,
    setup={"variant": "duel", "players": 2, "seed": 34, "start": 0, "deal": {
        "hands": [[8, 8, 1, 3, 7, 7, 7, 10, 11, 12, 12], [9, 9, 1, 2, 3, 6, 10, 11, 12, 4, 5]],
        "pool": [[8, 13], 1, 2, 6, 10, 3],
        "shadow": [5, 5, 5, 2, 2, 3, 4, 4, 6, 6, 9, 10, 11]}},
    script=(
        Step("play 8 8", "ab.duel.play", "DU-4"),
        Step("shadow 5", "ab.duel.shadow", "DU-4"),
        Step("draw pool 10", "ab.duel.draw", "DU-6"),   # a shadowluxx keeps the AB-15 draw
        "play 9 9", "shadow 6", "take",          # Ben shadowluxxes, then abluxxes your 8s
        Step("draw pool 8+13", "ab.duel.group", "DU-3"),
        Step("draw deck", "ab.duel.deck", "AB-12"),
        Step("play 12 12", "ab.duel.abluxx", "DU-5"),
        Step("shadow 3", "ab.duel.shadow_again", "DU-4"),
        Step("take", "ab.duel.take", "AB-11"),
    ),
)

LESSONS = (BASIC, DUEL)
