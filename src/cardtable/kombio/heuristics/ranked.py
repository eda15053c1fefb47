"""The policy-rollout search's hooks (bots/pimc.py): `ranked` candidates, `turn_key`, and the
default settings `PIMC`."""

from __future__ import annotations

from cardtable.core.game import Decision
from cardtable.core.rng import Rng
from cardtable.kombio.heuristics.heuristic import KCtx, heuristic
from cardtable.kombio.heuristics.search import candidates

# ---------------------------------------------------------------------------------------------
# hooks of the policy-rollout search (bots/pimc.py): ranked, turn_key (and horizon, determinize)
# ---------------------------------------------------------------------------------------------

#: default settings of the search in Kombio (bots/pimc.py): rollouts run to the round's end,
#: over the heuristic's four best candidates (the width); the anchor keeps the heuristic's
#: choice unless another candidate beats it by 2 standard errors on the same samples. A Kombio
#: round is so noisy that without it the search picked candidates on luck: hard vs 3 medium won
#: 25.0% of 96 paired deals without the anchor and the belief (`bench/kombio_paired.py`; mean
#: total 10.4 above medium's on the same deals), 26.0% without the anchor in `make bench-bots`,
#: and 39.6% with it (8.7 below; docs/bots.md)
PIMC = {"width": 4, "circles": None, "anchor": 2.0}


def turn_key(state):
    """Changes exactly when a turn starts (the search counts turns with it)."""
    return (state.round_no, state.turn_no)


def ranked(state, rng: Rng) -> list[Decision]:
    """The decisions worth searching (`candidates`), best first: the heuristic's choice, then
    the others by `_order` (what the seat knows); a single one (a snap window in which the
    seat knows no card equal to the top card: pass) is played without a search."""
    cands = candidates(state)
    if len(cands) == 1:
        return cands
    first = heuristic(state, rng)
    ctx = KCtx(state, state.to_move)
    key = _order(ctx)
    return [first] + sorted((d for d in cands if d != first), key=key)


#: where the alternatives to the heuristic's choice stand in `ranked` (lower first): the
#: option that changes nothing (draw, discard, skip, keep, pass) is always compared, then a
#: Kombio call, then the moves by their estimated gain
_TIER = {"draw": 0, "discard": 0, "skip": 0, "keep": 0, "pass": 0, "kombio": 1}


def _order(ctx: KCtx):
    """The sort key of `ranked`'s alternatives for the seat of `ctx`: tier (`_TIER`, moves 2),
    then the estimated gain, highest first (a slot is worth its badness: replacing, taking
    into or giving away the worst card gains most; a swap or a double peek gains my card's
    badness less the other card's estimate; a single swap after a 13 gains by the same
    measure; looks keep `candidates`' order)."""
    me = ctx.me
    bad = ctx.badness
    other = ctx.opp_est
    state = ctx.state

    def gain(d: Decision) -> float:
        a = d.args
        if d.kind in ("take", "replace", "give"):
            return bad.get(a[0], 0.0)
        if len(a) == 4:                                   # swap / peek of two cards
            (p1, s1), (p2, s2) = a[:2], a[2:]
            if p2 == me:
                p1, s1, p2, s2 = p2, s2, p1, s1
            if p1 != me or p2 == me:
                return -99.0
            return bad.get(s1, 0.0) - other.get((p2, s2), ctx.E)
        if d.kind == "swap" and len(a) == 2:              # a single swap after a 13
            (p, s), = state.peeked
            if a[0] == me:
                return bad.get(a[1], 0.0)
            mine = state.card_seen(me, p, s) if p == me else None
            return (mine if mine is not None else ctx.E) - other.get(a, ctx.E)
        return 0.0

    def key(d: Decision):
        return (_TIER.get(d.kind, 2), -gain(d))
    return key
