"""The rule-based bots' Higher or Lower (cardtable.bots.hooks): guess the side with more
cards left that the bot has not seen turned (its view only)."""

from __future__ import annotations

from cardtable.core.game import Decision

from cardtable_higher_lower.state import CARDS

HOOKS = ("greedy", "heuristic")


def _odds(state) -> Decision:
    view = state.view(state.to_move)
    seen = [view["first"]] + list(view["turned"])
    left = list(CARDS)
    for c in seen:
        if c in left:
            left.remove(c)
    higher = sum(1 for c in left if c > view["up"])
    lower = sum(1 for c in left if c < view["up"])
    word = "higher" if higher >= lower else "lower"
    return Decision(word, (), word)


def greedy(state, rng) -> Decision:
    return _odds(state)


def heuristic(state, rng) -> Decision:
    return _odds(state)
