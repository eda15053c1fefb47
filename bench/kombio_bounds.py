"""How often the events belief's bounds (`bounds` in kombio/heuristics.py, the search's `events`
setting) hold for the true cards, by the bot that owns the card (docs/bots.md, "Possible deals").

    python bench/kombio_bounds.py [--bots hard,medium,hard,medium] [--games N] [--seed S]

It plays N games of the given bots (2 to 6) and, after every decision, compares every bounded
card with the card really there. A card is counted once per state in which it is bounded, so the
figures are shares of card-states. Prints, for each bot, how many bounds were wrong, and the
commonest (bound, true value) pairs.

Results (2026-11-25, seed 1000):

| command | wrong bounds on the cards of |
|---|---|
| `--bots medium,medium,medium,medium --games 20` | medium: 0 of 321,008 |
| `--games 10` (hard, medium, hard, medium) | hard: 2,104 of 66,718 (3.15%); medium: 310 of 65,378 (0.47%) |
| `--bots hard,hard,hard,hard --games 10` | hard: 4,932 of 100,123 (4.93%) |

The bounds assume that a player keeps a drawn card in place of its worst and throws away only
a card above all it knows, as `medium` does. `hard` leaves that choice when its search favours
another, so on hard players' cards up to one bound in twenty is wrong, often by far (bound 7,
card 11; bound 6, card 10), and the samples never put the true card there. (Medium's wrong
bounds at a table with hard players come from cards that hard players swapped to them.)
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from cardtable.bots import act, make_bot
from cardtable.bots.base import bot_class
from cardtable.core.errors import ConfigError
from cardtable.kombio import heuristics as KH, new_game
from cardtable.kombio.cards import VALUE


def check(names: list[str], games: int, seed: int):
    """(bounded, wrong, kinds): card-states bounded and wrongly bounded per bot name, and the
    (bound, true value) pairs of the wrong ones."""
    bounded, wrong, kinds = Counter(), Counter(), Counter()
    for g in range(games):
        s = new_game(players=len(names), seed=seed + g)
        bots = [make_bot(n, seed=(seed + g) * 10 + i) for i, n in enumerate(names)]
        while not s.over:
            s.apply(act(bots[s.to_move], s))
            if s.over:
                break
            for (p, i), top in KH.bounds(s).items():
                if top < KH._NONE:
                    bounded[names[p]] += 1
                    value = VALUE[s.grids[p][i]]
                    if value > top:
                        wrong[names[p]] += 1
                        kinds[(top, value)] += 1
    return bounded, wrong, kinds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="hard,medium,hard,medium",
                    help="comma-separated bots or levels, 2 to 6")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args(argv)
    names = a.bots.split(",")
    if not 2 <= len(names) <= 6 or a.games < 1:
        ap.error("give 2 to 6 bots and at least one game")
    try:
        for n in set(names):
            if not bot_class(n).plays("kombio", len(names)):
                ap.error(f"{n} does not play Kombio with {len(names)} players")
    except ConfigError as e:
        ap.error(str(e))
    bounded, wrong, kinds = check(names, a.games, a.seed)
    for n in bounded:
        print(f"{n}: {wrong[n]:,} of {bounded[n]:,} bounds wrong ({wrong[n] / bounded[n]:.2%})")
    print("commonest (bound, true value):",
          ", ".join(f"{k}: {c}" for k, c in kinds.most_common(8)) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
