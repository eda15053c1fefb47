"""Paired Kombio experiment for the search levels (docs/bots.md, "Why Kombio's search has an
anchor"): one bot against three `medium` bots, 4 players, and beside every such game the same
deal played by four `medium` bots with the same bot seeds, so each game has its own baseline.

    python bench/kombio_paired.py BOT [--params JSON] [--deals N] [--jobs J]
                                  [--cheat | --reveal own|others]

Deal d seats the bot at seat d % 4. It prints the bot's win share (a shared win counts 1/k)
beside medium's at the same seats of the same deals, the paired difference, and the difference
of the final totals (lower is better, KO-16), each with a 95% normal interval, and the bot's CPU
seconds per game. `--cheat` is a diagnosis only, never a level: the search is given the true
grids (only the deck order stays hidden) instead of determinizations drawn from its view, which
shows how much of the gap between the search and a perfect model lies in the belief.
`--reveal own` (or `others`), a diagnosis too: every sample of the search has the true cards in
the seat's own grid (or in the others' grids) and the rest drawn from its belief as usual, while
who knows which card stays as in the game; it splits that gap between the seat's own unseen
cards (only looking can tell) and the others' (where a better model of them could help).

Results that set Kombio's search defaults (96 deals each, 2026-11-24):

| bot | win (medium at the same seats) | total vs medium's |
|---|---|---|
| hard, no belief (`{"belief": false, "anchor": 0}`) | 25.0% (26.0%) | +10.4 ± 7.1 |
| hard, no anchor (`{"anchor": 0}`) | 26.0% in `make bench-bots` (tournament) | +6.0 |
| hard, cheating (`--cheat --params '{"anchor": 0}'`) | 65.6% (26.0%) | -8.9 ± 5.8 |
| hard (anchor 2, the default) | 39.6% (26.0%) | -8.7 ± 6.6 |
| hard, no anchor, paired (`--params '{"anchor": 0}'`) | 22.9% (26.0%) | +2.0 ± 7.1 |
| hard, no anchor, own grid true (`--reveal own`) | 38.5% (26.0%) | -3.5 ± 6.7 |
| hard, no anchor, others' grids true (`--reveal others`) | 56.2% (26.0%) | -4.7 ± 6.1 |
| hard, no anchor, reading the events (`{"anchor": 0, "events": true}`) | 28.1% (26.0%) | +3.5 ± 7.1 |
| hard reading the events (`{"events": true}`) | 42.7% (26.0%) | -6.9 ± 6.4 |

So most of what the belief misses lies in the others' grids (22.9% → 56.2%, against 38.5% for
the seat's own cards): a better model of what the others hold is where Kombio's search can gain.
Reading what the others kept this round (`events`) gave +5.2 and +3.1 points
on the same deals (22.9% → 28.1%, 39.6% → 42.7%): in the right direction, within the noise of
96 deals. (The others' grids also hold cards nobody has seen, which no belief can know.)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cardtable import new_game
from cardtable.bots import act, make_bot
from cardtable.core.rng import Rng
import cardtable.kombio.heuristics as H


def _cheat(state, seat, seed, events=False):
    """The true grids, a re-shuffled deck (diagnosis only)."""
    d = state.copy()
    r = Rng(seed)
    deck = sorted(d.deck)
    r.shuffle(deck)
    d.deck = deck
    d._rng = r
    return d


_BELIEF = H.determinize


def _revealing(which: str):
    """A determinizer that puts the true cards back into `which` grids ("own" or "others") of
    each sample drawn from the belief. Who knows which slot stays as in the view (a card put
    back trades places, and every player's knowledge bits, with the card it replaces), so the
    seat's own play in the rollouts is no better informed than in the game."""
    def det(state, seat, seed, events=False):
        d = _BELIEF(state, seat, seed, events=events)
        for p, g in enumerate(state.grids):
            if (p == seat) != (which == "own"):
                continue
            for i, c in enumerate(g):
                e = d.grids[p][i]
                if c < 0 or e == c:
                    continue
                if d.drawn == c:
                    d.drawn = e
                elif c in d.deck:
                    d.deck[d.deck.index(c)] = e        # a diagnosis: a list scan is fine
                else:
                    q, j = next((q, j) for q, h in enumerate(d.grids) for j, x in enumerate(h)
                                if x == c)
                    d.grids[q][j] = e
                d.grids[p][i] = c
                bc, be = 1 << c, 1 << e
                for t in range(d.players):
                    k = d.known[t]
                    d.known[t] = (k & ~(bc | be)) | (be if k & bc else 0) | (bc if k & be else 0)
        return d
    return det


def play(bot: str, params: dict, cheat, deal: int, test: bool) -> tuple:
    if cheat == "all":
        H.determinize = _cheat
    elif cheat:
        H.determinize = _revealing(cheat)
    state = new_game("kombio", players=4, seed=1000003 * (deal + 1))
    seat = deal % 4
    bots = [make_bot(bot, 7 * deal + s, **params) if test and s == seat
            else make_bot("medium", 7 * deal + s) for s in range(4)]
    cpu = 0.0
    while not state.over:
        s = state.to_move
        if test and s == seat:
            t0 = time.process_time()
            d = bots[s].choose(state.copy()) if cheat else act(bots[s], state)
            cpu += time.process_time() - t0
        else:
            d = act(bots[s], state)
        state.apply(d)
    w = state.winners()
    return (1.0 / len(w) if seat in w else 0.0), state.scores()[seat], cpu


def pair(args: tuple) -> tuple:
    bot, params, cheat, deal = args
    return play(bot, params, cheat, deal, True), play(bot, params, cheat, deal, False)


def _ci(xs: list[float], sign: str = "+") -> str:
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
    return f"{m:{sign}.3f} ± {1.96 * math.sqrt(v / len(xs)):.3f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bot")
    ap.add_argument("--params", default="{}", help="bot settings as a JSON object")
    ap.add_argument("--deals", type=int, default=96)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cheat", action="store_const", const="all", default=None)
    ap.add_argument("--reveal", choices=("own", "others"), default=None)
    a = ap.parse_args()
    if a.cheat and a.reveal:
        ap.error("--cheat and --reveal exclude each other")
    cheat = a.cheat or a.reveal
    try:
        params = json.loads(a.params)
        make_bot(a.bot, 0, **params)
    except Exception as e:                       # noqa: BLE001 - a usage error, said plainly
        print(f"kombio_paired: {e}", file=sys.stderr)
        return 2
    if a.deals < 2 or a.jobs < 1:
        print("kombio_paired: --deals must be at least 2 and --jobs at least 1", file=sys.stderr)
        return 2
    work = [(a.bot, params, cheat, d) for d in range(a.deals)]
    with ProcessPoolExecutor(a.jobs) as ex:
        res = list(ex.map(pair, work))
    how = {"all": " (cheating)", "own": " (own grid revealed)",
           "others": " (others' grids revealed)"}
    print(f"{a.bot} {params}{how.get(cheat, '')}, {len(res)} deals:")
    print(f"  win share: bot {_ci([t[0] for t, _ in res], '')}, "
          f"medium {_ci([b[0] for _, b in res], '')}, "
          f"difference {_ci([t[0] - b[0] for t, b in res])}")
    print(f"  final total minus medium's at the same seat: {_ci([t[1] - b[1] for t, b in res])}")
    print(f"  bot CPU per game: {sum(t[2] for t, _ in res) / len(res):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
