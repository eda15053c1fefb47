"""CL-5 (revised 2026-11-26): one classic game is a whole game and the default
(`new_game("classic")`); a match is optional and asked for. This module is that match: several
games in a row, the start seat moving one seat clockwise each game, scores summed. The match
ends once every player has started, once or several times each, so the number of games is a
multiple of the player count (by default the player count: everybody starts once); any other
number is refused before anything is dealt. The highest total wins; tied totals all win (an
interpretation, by analogy with CL-4)."""

from __future__ import annotations

from cardtable.abluxxen import new_game
from cardtable.abluxxen.state import AbluxxenState
from cardtable.core.errors import ConfigError


def check_rounds(rounds, players: int) -> None:
    """CL-5: a match ends once every player has started, so its number of games is a positive
    multiple of the player count."""
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1 or rounds % players:
        raise ConfigError(
            f"a classic match of {players} players has a multiple of {players} games "
            f"({', '.join(str(players * k) for k in (1, 2, 3))}, ...), so that every player "
            f"starts equally often (CL-5); not {rounds!r}")


class Match:
    def __init__(self, players: int, rounds: int | None = None, seed: int = 0, start: int = 0,
                 variant: str = "classic", options: dict | None = None):
        if not isinstance(players, int) or isinstance(players, bool) or players < 1:
            raise ConfigError(f"players must be a positive whole number, not {players!r}")
        if rounds is None:
            rounds = players
        check_rounds(rounds, players)
        self.players = players
        self.rounds = rounds
        self.seed = seed
        self.start = start
        self.variant = variant
        self.options = options
        self.games: list[AbluxxenState] = []
        self.next_game()

    @property
    def current(self) -> AbluxxenState:
        return self.games[-1]

    def next_game(self) -> AbluxxenState:
        """Start the next game (after the current one is over)."""
        if self.games and not self.current.over:
            raise ConfigError("the current game is not over yet")
        if len(self.games) >= self.rounds:
            raise ConfigError("the match is over")
        n = len(self.games)
        game = new_game(self.variant, players=self.players, seed=self.seed + n,
                        start=(self.start + n) % self.players, options=self.options)
        self.games.append(game)
        return game

    @property
    def totals(self) -> list[int]:
        """Summed scores of the finished games."""
        return [sum(col) for col in zip(*self.score_table())] or [0] * self.players

    @property
    def over(self) -> bool:
        return len(self.games) == self.rounds and self.current.over

    def winners(self) -> list[int] | None:
        if not self.over:
            return None
        best = max(self.totals)
        return [s for s in range(self.players) if self.totals[s] == best]

    def score_table(self) -> list[list[int]]:
        """One row per finished game, per-seat scores."""
        return [g.scores() for g in self.games if g.over]
