"""Hints: what the strongest bot (ismcts) would decide for the seat to move, knowing only what
that seat knows.

    from cardtable.bots.hint import hint
    for option in hint(state, iterations=2000):
        print(option["decision"], option["visits"], option["win_chance"])

The state is first determinized for the seat (`state.determinize(seat, seed)`, exactly as
`bots.act` shows a bot its seat's knowledge), so the hint never depends on cards the seat has
not seen. The search is `ISMCTSBot(seed, ...).search(...)`: for the same seed and budget (an
iteration budget) the hint's first option is the decision `act(ISMCTSBot(seed, ...), state)`
would take (when there is more than one legal decision). At least one iteration per legal
option is run, so every option has been tried and has a win chance.
"""

from __future__ import annotations

from cardtable.bots.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from cardtable.core.game import GameState


def hint(state: GameState, seat: int | None = None, iterations: int | None = None,
         seconds: float | None = None, seed: int = 0, **params) -> list[dict]:
    """Every legal decision of `state.to_move`, best first, as
    {"decision": text, "visits": n, "win_chance": float in [0, 1]}.

    `win_chance` is the search's estimate of the seat's winning share (1/k for a k-way shared
    win) after that decision. Ordered as the bot chooses: by visits, then mean search reward
    (win share blended with the score term), then the game's order of legal decisions.
    `seat` defaults to (and must be) the seat to move. Budget: `iterations` and/or `seconds`
    (neither: 1000 iterations); `params` go to `ISMCTSBot` (exploration, rollout_depth,
    score_weight).

    Raises ValueError if the game is over or the seat is not the one to move (ConfigError for
    a bad budget or bot parameter)."""
    if state.over or state.to_move is None:
        raise ValueError("the game is over: there is no decision to hint")
    to_move = state.to_move
    if seat is None:
        seat = to_move
    if seat != to_move:
        raise ValueError(f"it is seat {to_move}'s decision, not seat {seat}'s")
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    bot = ISMCTSBot(seed, iterations=iterations, seconds=seconds, **params)
    obs = state.determinize(seat, seed=bot.rng.below(2 ** 62))    # as bots.act does
    legal = obs.legal_decisions()
    stats = bot.search(obs, min_iterations=len(legal))
    options = []
    for i, d in enumerate(legal):
        s = stats[d.text]
        win = s["win_chance"]
        options.append({"decision": d.text, "visits": s["visits"],
                        "win_chance": min(1.0, max(0.0, win if win is not None else 0.0)),
                        "_key": (-s["visits"], -(s["reward"] or 0.0), i)})
    options.sort(key=lambda o: o["_key"])
    for o in options:
        del o["_key"]
    return options
