"""Hints: what the strongest difficulty level (`expert`, docs/bots.md) would decide for the seat
to move, knowing only what that seat knows, with an estimated win chance for every option.

    from cardtable.bots.hint import hint
    for option in hint(state):                     # expert's own budget
        print(option["decision"], option["visits"], option["win_chance"])

The state is first determinized for the seat (`state.determinize(seat, seed)`, exactly as
`bots.act` shows a bot its seat's knowledge), so the hint never depends on cards the seat has
not seen. Then the level's bot searches as it would in a game (`PIMCBot.choose`): for the same
seed and budget (an iteration budget) the option flagged `level_choice` is the decision
`act(make_bot(level, seed), state)` takes. The options that bot did not search (the heuristic
ranks them below its `width` best, or they make no sense, like a blind Kombio snap) are then
played out too, with a tenth of the budget (at least one rollout each), so every option has
a win chance.

The options are ranked by their estimate, not by their rollouts: win chance, ties by the
search's mean score (the win share blended with the final-score margin, `pimc.score_weight`),
then rollouts. An estimate of fewer than `MIN_VISITS` rollouts says little, so such options
come after the well-sampled ones (ranked among themselves the same way). The level's own
decision is therefore not always first: sequential halving may keep an option on fewer
rollouts, and Kombio's anchor keeps the heuristic's choice unless another option proves
better, so the level may pick an option whose mean is a little lower (docs/bots.md).
"""

from __future__ import annotations

from cardtable.bots.base import LEVELS, make_bot
from cardtable.bots.pimc import PIMCBot
from cardtable.core.errors import ConfigError
from cardtable.core.game import GameState

#: the level hints use: the strongest
HINT_LEVEL = "expert"
#: fewer rollouts than this are too few for an estimate: such options are ranked last (and the
#: terminal shows no win chance for them)
MIN_VISITS = 10


def hint(state: GameState, seat: int | None = None, iterations: int | None = None,
         seconds: float | None = None, seed: int = 0, level: str = HINT_LEVEL) -> list[dict]:
    """Every legal decision of `state.to_move`, best estimate first, as
    {"decision": text, "visits": rollouts, "win_chance": float in [0, 1],
     "level_choice": True for the decision the level itself takes, else False}.

    `win_chance` is the search's estimate of the seat's winning share (1/k for a k-way shared
    win) after that decision. Order: options of at least MIN_VISITS rollouts first, each group
    by win chance, then the search's mean score, then rollouts, then the heuristic's order.
    `seat` defaults to (and must be)
    the seat to move. Budget: the level's own, or `iterations` and/or `seconds` instead.

    Raises ValueError if the game is over or the seat is not the one to move (ConfigError for
    a bad budget or level)."""
    if state.over or state.to_move is None:
        raise ValueError("the game is over: there is no decision to hint")
    to_move = state.to_move
    if seat is None:
        seat = to_move
    if seat != to_move:
        raise ValueError(f"it is seat {to_move}'s decision, not seat {seat}'s")
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    budget = {k: v for k, v in (("iterations", iterations), ("seconds", seconds))
              if v is not None}
    bot = make_bot(level, seed, **budget)
    if not isinstance(bot, PIMCBot):
        raise ConfigError(f"level {level!r} does not search: it gives no hints")
    obs = state.determinize(seat, seed=bot.rng.below(2 ** 62))    # as bots.act does
    legal = obs.legal_decisions()
    best = bot.choose(obs)
    stats = dict(bot.last_stats)
    order = {best.text: -1}
    rest = [d for d in legal if not stats[d.text]["visits"]]
    if rest:
        spent = bot.budget(state.game)              # the level's share in this game
        if len(rest) == len(legal):                 # nothing searched (a forced decision)
            more = spent or len(rest)
        else:
            more = max(len(rest), (spent or 10 * len(rest)) // 10)
        extra = PIMCBot(bot.seed, iterations=more, **{
            k: v for k, v in bot.given.items() if v is not None})
        found = extra.search(obs, rest)
        stats.update({d.text: found[d.text] for d in rest})
        for i, d in enumerate(rest):
            order.setdefault(d.text, len(legal) + i)
    options = []
    for i, d in enumerate(legal):
        s = stats[d.text]
        win = s["win_chance"]
        win = min(1.0, max(0.0, win if win is not None else 0.0))
        options.append({"decision": d.text, "visits": s["visits"], "win_chance": win,
                        "level_choice": d.text == best.text,
                        "_key": (s["visits"] < MIN_VISITS, -win, -(s["reward"] or 0.0),
                                 -s["visits"], order.get(d.text, i))})
    options.sort(key=lambda o: o["_key"])
    for o in options:
        del o["_key"]
    return options
