"""Bot-vs-bot simulation: tournaments (`tournament.py`), their statistics (`stats.py`), output
files and charts (`output.py`) and the OpenSkill rating ladder (`ratings.py`).

    from cardtable.sim import TournamentConfig, run_tournament, compute_stats
    cfg = TournamentConfig(game="abluxxen", bots=["greedy", "random", "random", "random"],
                           games=100, seed=1)
    result = run_tournament(cfg)          # one GameResult per game, sorted by game index
    stats = compute_stats(result)

The command-line front end is `cardtable tournament` / `cardtable ratings`
(cli/tournament_cmd.py).
"""

from __future__ import annotations

from cardtable.sim.stats import compute_stats, wilson
from cardtable.sim.tournament import (
    GameFailed,
    GameResult,
    TournamentConfig,
    TournamentResult,
    derive_seed,
    game_plan,
    play_game,
    run_tournament,
)

__all__ = [
    "GameFailed", "GameResult", "TournamentConfig", "TournamentResult", "compute_stats",
    "derive_seed", "game_plan", "play_game", "run_tournament", "wilson",
]
