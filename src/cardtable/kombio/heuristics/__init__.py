"""Kombio heuristics for the bots (`cardtable.bots`): `greedy(state, rng)` for the GreedyBot,
`heuristic(state, rng)` for the HeuristicBot, and for the searches (`bots.pimc`, `bots.ismcts`,
game hooks): `evaluate(state)`, `candidates(state)`, `rollout(state, random_)`, `horizon(state)`,
`bounds(state)` (how high each card can be, read from the round's public events),
`playout(state, seat, seed, h0, score_weight, stop_turns, nets)` (the policy-rollout search's
rollout, compiled: to the round's end, scored by `evaluate`; None for a turn cap or a learned
evaluation),
`determinize(state, seat, seed, events)` and the default settings `ISMCTS` and `PIMC`.

The bot sees a determinization of the state for its seat, so everything it has not seen is a
guess. The rules below therefore read **only** what `state.to_move` may know: the cards it has
seen and can follow (its own KO-2 peek, its drawn card, action peeks, every card that went face
up: `KombioState.card_seen`), the counts, the top discard card, the caller, the phase, and the
result of the last snap window. An unseen card is valued at `E`, the average of the cards the
seat has not seen (card counting over the 70-card set, KO-1). The "badness" of an own card is
its value if seen, else `E`.

Rules, by decision point:
- turn: call **Kombio** if nobody has called and the estimated own sum (seen values + E per
  unseen card) is at most `5 + turns played this round // players` (the bar rises, so a round
  always ends); else **take** the top discard card if it may be taken, is at most 5 and is at
  least 2 lower than the worst own card (into that slot); else **draw**.
- drawn: **replace** the worst own card if the drawn card is lower and either plain (<= 6) or
  at least 3 lower; else **discard** (an action card then gives its action).
- action 7/8: look at an own unseen card (else skip). 9/10: look at an unseen card of another
  player, the next seat first (else skip). 11/12: swap the worst own card (a known 7 or more)
  with the lowest seen card of another player if that is at least 3 lower, else, if it is a
  known 9 or more, with a random unseen card of another player; else skip. 13: look at an own
  unseen card, else at another's unseen card. Then swap: an own peeked card of 8 or more goes to
  the lowest seen other card (if lower) or a random unseen other card; another's peeked card
  at least 3 below the worst own card is swapped into that slot; else keep. 14: look at the worst
  own card and another player's lowest seen (else an unseen) card, then swap if the other
  card is lower.
- snap: snap a card it has seen whose value equals the top card: an own card first (if its
  value is above 0), else another player's (the snapper then gives away its worst card); never
  a guess. Else pass.
- give: give the worst own card.  hand_over: hand the snapped card over if it is 5 or more
  (rid of a high card), else give a penalty card.
Ties are broken with `rng`. If a rule's choice were not legal, a random legal decision is taken.

`heuristic(state, rng)`, the HeuristicBot (constants in `P`, tuned in games against greedy and
against itself). It reads the same knowledge as greedy, and in addition *which* cards the
others have seen (`known[p]` of a slot: public, since everybody sees who looks at or takes what;
never the value). Card counting: the unseen multiset is the 70 cards (KO-1) minus every card the
seat has seen; E is its mean and V its variance. Estimates: an own unseen card is E; another
player's card I have not seen is E, or E - 3 if that player has seen it (players keep the low
cards they know). The "badness" of an own card is its value if seen, else E + 0.7 (replacing an
unseen card also turns it into a known one).
- turn: call **Kombio** (KO-12) when the estimated chance to be alone lowest after the others'
  last turns reaches a bar: per opponent Phi((their estimate - 2.5 - my estimate - 0.5) / sd),
  sd from V per unseen card (mine and theirs), multiplied over the opponents (KO-15: a tie
  costs +15). The bar is 0.65, lowered by 0.04 per turn and player in the round, never below
  0.25 (rounds end also when every player is cautious); after 30 turns per player it calls.
  Else **take** the top discard card into the worst slot if its gain (badness - value) beats
  the expected gain of a draw: over the unseen multiset, the best of replacing the worst card,
  using the card's action (below) or nothing. Else **draw**.
- drawn: **replace** the worst card if that gains something and at least as much as the
  drawn card's action would; else **discard** (an action card then gives its action).
- action values: 7/8 look at an own unseen card (1.5, while nobody has called); 9/10 look at
  another's unseen card (0.4, likewise); 11/12 the best swap of an own card with another
  player's: (my estimate - theirs) x 1.3 (their sum rises too; x 2 with 2 players), used from
  1.0; 13 the better of a peek and that swap; 14 that plus 0.5.
- action 7/8: look at an own unseen card. 9/10: look at an unseen card of the player with the
  lowest estimate (the one who may call), one that player has seen first. 11/12: that best
  swap, if worth 1.0. 13: look at an own unseen card unless a known own card is 9 or more,
  else at the other card with the lowest estimate; then swap: an own peeked card goes to that
  card if it gains 2.0 (with the weight above), another's peeked card comes into the worst
  slot if it gains 1.0. 14: look at the worst own card and the other card with the lowest
  estimate; swap if the other is lower.
- snap: only a card it has seen whose value equals the top card (never a guess): an own card
  of value 1 or more first (a grid emptied that way ends the round at 0, KO-13); else another's
  card if my worst card (given in return) outweighs the card's help to its owner
  (badness - 0.3 x (value - badness) > 0). Else pass.
- give: the worst own card. hand_over: hand the snapped card over if its value is above 0.


The package, one module a bot: `greedy` (the GreedyBot), `heuristic` (the HeuristicBot, its
card counting and estimates), `search` (the searches' hooks: evaluate, the belief, horizon,
rollout, candidates; ISMCTS defaults) and `ranked` (the policy-rollout search's hooks; PIMC
defaults). The bots (`cardtable.bots`) read the hooks from this module only: `HOOKS` lists
them, each optional for a game.
"""

from __future__ import annotations

from cardtable.kombio.heuristics.greedy import KOMBIO_BASE, TAKE_MAX, greedy
from cardtable.kombio.heuristics.heuristic import P, heuristic
from cardtable.kombio.heuristics.ranked import PIMC, ranked, turn_key
from cardtable.kombio.heuristics.search import (BLIND_KEEP, NONE, BELIEF_MAX, ISMCTS, bounds,
                                                candidates, determinize, evaluate, horizon,
                                                playout, rollout)

#: the hooks a game's heuristics module may give the bots (bots/hooks.py reads them)
HOOKS = ("greedy", "heuristic", "evaluate", "candidates", "rollout", "horizon", "determinize",
         "bounds", "ranked", "turn_key", "playout", "ISMCTS", "PIMC")

__all__ = [*HOOKS, "BELIEF_MAX", "KOMBIO_BASE", "P", "TAKE_MAX", "BLIND_KEEP", "NONE"]
