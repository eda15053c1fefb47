"""`hint` typed during a game in the terminal (`cardtable play`): the coach.

The terminal game is one person against bots (cli/main.py `Game`: one seat asks, every other
seat has a bot; there is no hot-seat mode), so the coach is on there: `hint` ranks the options
of the decision at hand exactly as `cardtable hint` does (bots/hint.py: the expert level's
estimates from the seat's own view, with their 95% intervals and the rollouts beside them).
So that the table and the board fit an 80x24 screen it shows the best few options (TOP) and the
level's own choice; `hint all` (or `hint more`) shows every option, from the same search when
the position has not changed. `hint N` / `hint all N` spend N rollouts instead of the expert's
own budget. It is refused if any other seat has no bot (a game with
another person: the coach would help one person against another), and in a timed window
(Kombio's snap window: there is no time to think there).
"""

from __future__ import annotations

from cardtable.bots.hint import HINT_LEVEL, hint
from cardtable.cli.hint_cmd import TOP, print_options
from cardtable.cli.i18n import t
from cardtable.core.game import GameState

#: what asks for the coach at the prompt (the first word)
HINT_WORDS = {"hint", "tipp", "coach"}
#: the second word that asks for every option, not only the best few (`hint all`)
ALL_WORDS = {"all", "more", "alle", "mehr"}
#: the most rollouts `hint N` may ask for
MOST = 20_000


def is_hint(line: str) -> bool:
    words = line.lower().split()
    return bool(words) and words[0] in HINT_WORDS


def coach_in_game(game, state: GameState, line: str) -> None:
    """Print the coach's ranking for `game.seat` at `state` (or why not) on `game`'s console.
    `game`: cli/main.py's Game (seat, bots, lang, console)."""
    lang = game.lang
    humans = [s for s in range(state.players) if s != game.seat and s not in game.bots]
    if humans:
        game.say(t(lang, "coach.cli_humans"), "red")
        return
    words = line.split()[1:]
    every = bool(words) and words[0].lower() in ALL_WORDS
    if every:
        words = words[1:]
    budget = None
    if words:
        if len(words) > 1 or not words[0].isdigit() or not 2 <= int(words[0]) <= MOST:
            game.say(t(lang, "coach.cli_budget", most=MOST), "red")
            return
        budget = int(words[0])
    key = (len(state.history), budget)
    cached = getattr(game, "coach_cache", None)
    if cached and cached[0] == key:              # `hint all` after `hint`: the same search
        options = cached[1]
    else:
        game.say(t(lang, "coach.cli_thinking"), "dim")
        options = hint(state, seat=game.seat, iterations=budget, seed=len(state.history))
        game.coach_cache = (key, options)
    print_options(game.console, options, lang, HINT_LEVEL, few="coach.cli_few",
                  top=None if every else TOP, more="coach.cli_more")
