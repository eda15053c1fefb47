"""Bots. They see only what their seat may know: `act()` hands a bot a *determinization* of
the state for its seat (hidden cards re-dealt at random), never the real state.

    from cardtable.bots import make_bot, act
    bot = make_bot("greedy", seed=1)
    decision = act(bot, state)          # a Decision for state.to_move
"""

from __future__ import annotations

from cardtable.bots.base import BOTS, LEVELS, Bot, act, bot_names, make_bot

__all__ = ["BOTS", "LEVELS", "Bot", "act", "bot_names", "make_bot"]
