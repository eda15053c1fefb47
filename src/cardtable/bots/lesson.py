"""The others' seats of a lesson (core/lesson.py): they follow the lesson's script while the
game is on it, and play as the lesson's easy bots once it is done or left (the free game)."""

from __future__ import annotations

from cardtable.bots.base import Bot, make_bot
from cardtable.core.game import Decision, GameState
from cardtable.core.lesson import Lesson


class LessonBot(Bot):
    """A scripted seat of `lesson`, then `fallback` (default: a bot of the lesson's level)."""

    name = "lesson"

    def __init__(self, lesson: Lesson, seed: int = 0, fallback: Bot | None = None):
        super().__init__(seed)
        self.lesson = lesson
        self.fallback = fallback or make_bot(lesson.bots, seed=seed)
        self.level = self.fallback.level

    def choose(self, state: GameState) -> Decision:
        history = tuple(state.history)
        script = self.lesson.decisions
        n = len(history)
        if n < len(script) and history == script[:n]:
            return state.parse(script[n])
        window = state.window()
        if window is not None:
            # a window asked on a copy where the seats before this one are silent (core.game
            # Window.ask): on the script up to those silences, a scripted seat stays silent
            k = 0
            while k < min(n, len(script)) and history[k] == script[k]:
                k += 1
            if k < len(script) and all(x == window.silence for x in history[k:]):
                return state.parse(window.silence)
        return self.fallback.choose(state)
