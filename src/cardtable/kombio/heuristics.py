"""Kombio heuristics for the bots (`cardtable.bots`): `greedy(state, rng)` for the GreedyBot,
`heuristic(state, rng)` for the HeuristicBot, and for the searches (`bots.pimc`, `bots.ismcts`,
game hooks): `evaluate(state)`, `candidates(state)`, `rollout(state, random_)`, `horizon(state)`,
`bounds(state)` (how high each card can be, read from the round's public events),
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
"""

from __future__ import annotations

import math
from functools import cached_property

from cardtable.core.game import Decision
from cardtable.core.rng import Rng
from cardtable.kombio import cards as C
from cardtable.kombio.cards import VALUE
from cardtable.kombio.state import DISCARDED, EMPTIED, LOOKED, REPLACED, SWAPPED, TOOK

KOMBIO_BASE = 5
TAKE_MAX = 5


def _expected(state, me: int) -> float:
    """Average value of the cards `me` has not seen (KO-1 card counting)."""
    seen = state.seen(me)
    vals = [VALUE[c] for c in range(C.N_CARDS) if not (seen >> c) & 1]
    return sum(vals) / len(vals) if vals else 5.0


def _own(state, me: int) -> list[tuple[int, int | None]]:
    return [(s, state.card_seen(me, me, s)) for s, c in enumerate(state.grids[me], 1) if c >= 0]


def _worst(own, E: float, rng: Rng) -> tuple[int, float]:
    """The own slot with the highest badness (seen value, or E if unseen); ties at random."""
    best = max((v if v is not None else E) for _, v in own)
    slots = [s for s, v in own if (v if v is not None else E) == best]
    return slots[rng.below(len(slots))], best


def _others(state, me: int) -> list[tuple[int, int, int | None]]:
    """(P, S, seen value or None) for every card of another player that may be touched."""
    out = []
    n = state.players
    for k in range(1, n):                       # the next seat first
        p = (me + k) % n
        if p == state.taboo:
            continue
        for s, c in enumerate(state.grids[p], 1):
            if c >= 0:
                out.append((p, s, state.card_seen(me, p, s)))
    return out


def _pick(items, rng: Rng):
    return items[rng.below(len(items))] if items else None


def greedy(state, rng: Rng) -> Decision:
    me = state.to_move
    legal = state.legal_decisions()
    d = _choose(state, me, rng)
    if d is not None and d in legal:
        return d
    return legal[rng.below(len(legal))]


def _choose(state, me: int, rng: Rng) -> Decision | None:
    phase = state.awaiting
    if phase == "snap":
        return _snap(state, me, rng)
    E = _expected(state, me)
    own = _own(state, me)
    if phase == "turn":
        est = sum(v if v is not None else E for _, v in own)
        if state.caller is None and est <= KOMBIO_BASE + state.turn_no // state.players:
            return C.KOMBIO
        if state.discard and not state.top_snapped:
            top = VALUE[state.discard[-1]]
            slot, bad = _worst(own, E, rng)
            if top <= TAKE_MAX and top <= bad - 2:
                return C.TAKE[slot]
        return C.DRAW
    if phase == "drawn":
        v = VALUE[state.drawn]
        slot, bad = _worst(own, E, rng)
        if v < bad and (v < C.ACTION_MIN or bad - v >= 3):
            return C.REPLACE[slot]
        return C.DISCARD
    if phase == "action":
        return _action(state, me, own, E, rng)
    if phase == "action_swap":
        return _action_swap(state, me, own, E, rng)
    if phase == "give":
        return C.GIVE[_worst(own, E, rng)[0]]
    if phase == "hand_over":
        value = state.snap_info[3]              # the turned-up card, seen by everyone
        return C.HAND_OVER if value >= 5 else C.PENALTY
    return None


def _snap(state, me: int, rng: Rng) -> Decision:
    top = VALUE[state.discard[-1]]
    mine = [s for s, v in _own(state, me) if v == top and v > 0]
    if mine:
        return C.SNAP[me][_pick(mine, rng)]
    theirs = [(p, s) for p, s, v in _others(state, me) if v == top]
    if theirs:
        p, s = _pick(theirs, rng)
        return C.SNAP[p][s]
    return C.PASS


def _action(state, me, own, E, rng) -> Decision:
    act = state.act
    others = _others(state, me)
    unseen_own = [s for s, v in own if v is None]
    unseen_other = [(p, s) for p, s, v in others if v is None]
    seen_other = sorted(((v, p, s) for p, s, v in others if v is not None))
    if act <= 8:
        s = _pick(unseen_own, rng)
        return C.PEEK[me][s] if s else C.SKIP
    if act <= 10:
        if not unseen_other:
            return C.SKIP
        first = unseen_other[0][0]              # the next seat first
        p, s = _pick([x for x in unseen_other if x[0] == first], rng)
        return C.PEEK[p][s]
    known_own = [(v, s) for s, v in own if v is not None]
    if act <= 12:
        if not known_own:
            return C.SKIP
        hv, hs = max(known_own)
        if hv >= 7 and seen_other and seen_other[0][0] <= hv - 3:
            _, p, s = seen_other[0]
            return C.pair("swap", me, hs, p, s)
        if hv >= 9 and unseen_other:
            p, s = _pick(unseen_other, rng)
            return C.pair("swap", me, hs, p, s)
        return C.SKIP
    if act == 13:
        if unseen_own:
            return C.PEEK[me][_pick(unseen_own, rng)]
        if unseen_other:
            p, s = _pick(unseen_other, rng)
            return C.PEEK[p][s]
        return C.SKIP
    # 14: the worst own card and another player's lowest seen (else an unseen) card
    slot, _ = _worst(own, E, rng)
    if seen_other:
        _, p, s = seen_other[0]
    elif unseen_other:
        p, s = _pick(unseen_other, rng)
    else:
        return C.SKIP
    return C.pair("peek", me, slot, p, s)


def _action_swap(state, me, own, E, rng) -> Decision:
    peeked = state.peeked
    if state.act == 14:
        (p1, s1), (p2, s2) = peeked
        if p1 == p2:
            return C.KEEP
        if p2 == me:
            p1, s1, p2, s2 = p2, s2, p1, s1
        v_own = state.card_seen(me, p1, s1)
        v_other = state.card_seen(me, p2, s2)
        if p1 == me and v_own is not None and v_other is not None and v_other < v_own:
            return C.SWAP
        return C.KEEP
    (p, s), = peeked
    v = state.card_seen(me, p, s)
    if v is None:
        return C.KEEP
    others = _others(state, me)
    if p == me:
        if v >= 8:
            seen_other = sorted((w, q, t) for q, t, w in others if w is not None)
            if seen_other and seen_other[0][0] < v:
                _, q, t = seen_other[0]
                return C.SWAP1[q][t]
            unseen_other = [(q, t) for q, t, w in others if w is None]
            if unseen_other:
                q, t = _pick(unseen_other, rng)
                return C.SWAP1[q][t]
        return C.KEEP
    slot, bad = _worst(own, E, rng)
    if v <= bad - 3:
        return C.SWAP1[me][slot]
    return C.KEEP



# ---------------------------------------------------------------------------------------------
# heuristic
# ---------------------------------------------------------------------------------------------

P = {
    "know": 0.7,        # bonus for replacing an own card never seen (the new card is known)
    "delta": 3.0,       # an opponent's card it has seen (I have not) is E - delta
    "improve": 2.5,     # expected gain of each opponent's last turn after a call
    "call_p": 0.65,     # call when the estimated chance to be alone lowest reaches this
    "var_known": 16.0,  # variance of an opponent's card only it has seen
    "call_decay": 0.04, # ... less this per turn and player played in the round
    "call_floor": 0.25, # ... but never less than this
    "peek_own": 1.5,    # value of looking at an own unseen card
    "peek_other": 0.4,  # value of looking at another player's card
    "hurt": 0.3,        # weight of raising another player's sum (against my own)
    "hurt2": 1.0,       # ... in a 2-player game (zero-sum: as much as my own)
    "swap_min": 1.0,    # smallest worthwhile estimated gain of a swap
    "take_margin": 0.0, # take the discard if its gain beats the draw's expected gain by this
    "snap_own_min": 1,  # snap an own card of at least this value
    "long": 30,         # turns per player after which a call is forced (rounds must end)
}


def _card_counting(seen: int) -> tuple[dict[int, int], int, float]:
    """(unseen values -> copies, unseen cards, their mean E) for a bit set of seen card ids
    (KO-1 card counting)."""
    counts: dict[int, int] = {}
    total = 0
    vsum = 0
    unseen = ~seen
    for v, mask in _VALUE_MASKS:                # ids are grouped by value, lowest first
        k = (mask & unseen).bit_count()
        if k:
            counts[v] = k
            total += k
            vsum += k * v
    E = vsum / total if total else 5.0
    return counts, total, E


#: (value, bit set of the card ids of that value), lowest value first
_VALUE_MASKS = tuple((v, sum(1 << c for c in range(C.N_CARDS) if VALUE[c] == v))
                     for v in sorted(set(VALUE)))
#: value -> bit set of the card ids of that value
_VALUE_MASK = dict(_VALUE_MASKS)


#: `_card_counting` by seen set (a pure function; searches ask for the same sets again and
#: again), cleared when it grows large. Callers never change the returned dict.
_COUNTING: dict[int, tuple] = {}


def _counting(seen: int) -> tuple[dict[int, int], int, float]:
    got = _COUNTING.get(seen)
    if got is None:
        if len(_COUNTING) > 20_000:
            _COUNTING.clear()
        got = _COUNTING[seen] = _card_counting(seen)
    return got


class _KCtx:
    """What seat `me` knows, digested once per decision (never an unseen card's value). The
    other players' cards (`opp`, `est`, `unk`, `unk_known`) are read on first use: a drawn
    plain card, a give or an own snap needs only the seat's own cards."""

    def __init__(self, state, me: int):
        self.state = state
        self.me = me
        n = self.n = state.players
        self.hurt = P["hurt"] if n > 2 else P["hurt2"]
        seen = self.seen = state.seen(me)
        self.unseen, self.total, E = _counting(seen)
        self.E = E
        self._var = None
        self._best_swap = None
        self._opp = None                          # `_scan`'s result, once asked for
        self.acts = None                          # _action_values, once asked for
        self.called = state.caller is not None
        self.own = [(s, VALUE[c] if (seen >> c) & 1 else None)
                    for s, c in enumerate(state.grids[me], 1) if c >= 0]

    # the other players' cards, read by `_scan` on first use
    opp = property(lambda self: self._others()[0],
                   doc="Other players' cards that may be touched: (p, s, value seen by me or "
                       "None, p knows).")
    est = property(lambda self: self._others()[1],
                   doc="Per other player, the estimated sum of its grid.")
    unk = property(lambda self: self._others()[2],
                   doc="Per other player, its cards that nobody has seen as far as I know.")
    unk_known = property(lambda self: self._others()[3],
                         doc="Per other player, its cards that only it has seen.")

    def _others(self) -> tuple:
        if self._opp is None:
            self._opp = self._scan()
        return self._opp

    def _scan(self) -> tuple:
        """(opp, est, unk, unk_known): see the properties."""
        state, me, n, E, seen = self.state, self.me, self.n, self.E, self.seen
        opp = []
        est_of, unk_of, unk_known_of = {}, {}, {}
        e_known = E - P["delta"]
        taboo = state.taboo
        grids = state.grids
        known = state.known
        value = VALUE
        for k in range(1, n):
            p = (me + k) % n
            kn = known[p]
            est = 0.0
            unk = 0
            unk_known = 0
            touch = p != taboo
            for s, c in enumerate(grids[p], 1):
                if c < 0:
                    continue
                knows = bool((kn >> c) & 1)
                if (seen >> c) & 1:
                    v = value[c]
                    est += v
                else:
                    v = None
                    if knows:
                        unk_known += 1
                        est += e_known
                    else:
                        unk += 1
                        est += E
                if touch:
                    opp.append((p, s, v, knows))
            est_of[p] = est
            unk_of[p] = unk
            unk_known_of[p] = unk_known
        return opp, est_of, unk_of, unk_known_of

    @property
    def var(self) -> float:
        """The variance of the unseen values (computed when a call is weighed)."""
        if self._var is None:
            E, total = self.E, self.total
            self._var = (sum(k * (v - E) ** 2 for v, k in self.unseen.items()) / total) \
                if total else 16.0
        return self._var

    @cached_property
    def badness(self) -> dict[int, float]:
        """{S: how much my card in slot S hurts}: its value, or E (+ the knowledge bonus) if
        unseen; in `own`'s order."""
        eb = self.E + P["know"]
        return {s: eb if v is None else v for s, v in self.own}

    def worst(self, rng: Rng) -> tuple[int, float]:
        bads = self.badness
        best = max(bads.values())
        slots = [s for s, b in bads.items() if b == best]
        return slots[rng.below(len(slots))], best

    def my_est(self) -> float:
        return sum(v if v is not None else self.E for _, v in self.own)

    def opp_value(self, v, knows: bool) -> float:
        return v if v is not None else (self.E - P["delta"] if knows else self.E)

    @cached_property
    def opp_est(self) -> dict[tuple[int, int], float]:
        """{(P, S): `opp_value` of that card} for the cards of `opp`, in `opp`'s order."""
        return {(p, s): self.opp_value(w, knows) for p, s, w, knows in self.opp}

    def call_chance(self) -> float:
        """Estimated chance that my sum is alone the lowest after the others' last turns."""
        mine = self.my_est()
        unk_me = sum(1 for _, v in self.own if v is None)
        p = 1.0
        for o, est in self.est.items():
            if not self.state.counts[o]:
                continue
            gap = est - P["improve"] - mine - 0.5
            sd = math.sqrt(self.var * (unk_me + self.unk[o])
                           + P["var_known"] * self.unk_known[o] + 1.0)
            p *= _phi(gap / sd)
        return p

    def best_swap(self) -> tuple[float, int, int, int]:
        """The best swap of an own card with another player's: (gain, my slot, P, S)."""
        if self._best_swap is None:
            self._best_swap = self._find_best_swap()
        return self._best_swap

    def _find_best_swap(self) -> tuple[float, int, int, int]:
        best = (0.0, 0, -1, 0)
        E = self.E
        weight = 1.0 + self.hurt
        theirs = self.opp_est.items()
        for s, v in self.own:
            mine = v if v is not None else E
            for (p, t), x in theirs:
                gain = (mine - x) * weight
                if gain > best[0]:
                    best = (gain, s, p, t)
        return best


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _action_value(ctx: _KCtx, act: int) -> float:
    """Estimated worth of using the action of a discarded card of value `act` (KO-6)."""
    return _action_values(ctx)[act]


def _action_values(ctx: _KCtx) -> dict[int, float]:
    """`_action_value` of every action card (7 to 14), worked out once per decision: 7/8 look
    at an own unseen card, 9/10 at another's, 11/12 the best swap if worth `swap_min`, 13 the
    better of a look and that swap, 14 the same plus 0.5."""
    if ctx.acts is None:
        peek = P["peek_own"] if not ctx.called and any(v is None for _, v in ctx.own) else 0.0
        other = P["peek_other"] if not ctx.called and any(
            w is None for _, _, w, _ in ctx.opp) else 0.0
        swap = ctx.best_swap()[0]
        used = swap if swap >= P["swap_min"] else 0.0
        both = max(swap, peek)
        ctx.acts = {7: peek, 8: peek, 9: other, 10: other, 11: used, 12: used,
                    13: both, 14: both + 0.5}
    return ctx.acts


def _draw_gain(ctx: _KCtx, bad: float) -> float:
    """Expected gain of drawing: replace the worst card, use an action, or discard."""
    if not ctx.total:
        return 0.0
    acts = _action_values(ctx)
    g = 0.0
    for v, k in ctx.unseen.items():
        best = max(0.0, bad - v, acts.get(v, 0.0))
        g += k * best
    return g / ctx.total


def heuristic(state, rng: Rng) -> Decision:
    me = state.to_move
    phase = state.phase
    if phase == "snap" and not _snap_candidates(state, me):
        return C.PASS                        # the common case (pass is always legal there)
    if phase == "drawn":                     # replace an own card or discard: always legal
        return _h_choose(state, me, rng)
    legal = state.legal_decisions()
    if len(legal) == 1:
        return legal[0]
    d = _h_choose(state, me, rng)
    if d is not None and d in legal:
        return d
    return legal[rng.below(len(legal))]


def _h_choose(state, me: int, rng: Rng) -> Decision | None:
    """The heuristic's decision (None: no rule applies); in a snap window `heuristic` has
    already found a card `me` could snap."""
    phase = state.awaiting
    ctx = _KCtx(state, me)
    if phase == "snap":
        return _h_snap(state, ctx, rng)
    if phase == "turn":
        if not ctx.called:
            bar = max(P["call_floor"], P["call_p"] - P["call_decay"] * state.turn_no / ctx.n)
            if ctx.call_chance() >= bar:
                return C.KOMBIO
            if state.turn_no >= P["long"] * ctx.n:
                return C.KOMBIO
        slot, bad = ctx.worst(rng)
        draw_gain = _draw_gain(ctx, bad) if (state.deck or len(state.discard) > 1) else -99.0
        if state.discard and not state.top_snapped:
            top = VALUE[state.discard[-1]]
            if bad - top > draw_gain + P["take_margin"]:
                return C.TAKE[slot]
        return C.DRAW
    if phase == "drawn":
        x = VALUE[state.drawn]
        slot, bad = ctx.worst(rng)
        replace = bad - x
        use = _action_value(ctx, x) if x >= C.ACTION_MIN else 0.0
        if replace > 0 and replace >= use:
            return C.REPLACE[slot]
        return C.DISCARD
    if phase == "action":
        return _h_action(state, ctx, rng)
    if phase == "action_swap":
        return _h_action_swap(state, ctx, rng)
    if phase == "give":
        return C.GIVE[ctx.worst(rng)[0]]
    if phase == "hand_over":
        return C.HAND_OVER if state.snap_info[3] > 0 else C.PENALTY
    return None


def _snap_candidates(state, me: int) -> bool:
    """Is some card `me` has seen (and may snap) equal to the top discard card?"""
    m = state.seen(me) & _VALUE_MASK[VALUE[state.discard[-1]]]
    tb = state.taboo
    for p, g in enumerate(state.grids):
        if p == tb:
            continue
        for c in g:
            if c >= 0 and (m >> c) & 1:
                return True
    return False


def _h_snap(state, ctx: _KCtx, rng: Rng) -> Decision:
    """KO-8: snap only a card known to equal the top card."""
    top = VALUE[state.discard[-1]]
    me = ctx.me
    mine = [s for s, v in ctx.own if v == top and v >= P["snap_own_min"]]
    if mine:
        return C.SNAP[me][mine[rng.below(len(mine))]]
    _, bad = ctx.worst(rng)
    best, pick = 0.0, None
    for p, s, w, _ in ctx.opp:
        if w == top:
            val = bad - ctx.hurt * (top - bad)
            if val > best:
                best, pick = val, (p, s)
    if pick is not None:
        return C.SNAP[pick[0]][pick[1]]
    return C.PASS


def _target(ctx: _KCtx, exclude=None):
    """Another player's card most worth having: the lowest estimated value."""
    best, pick = None, None
    for p, s, w, knows in ctx.opp:
        if (p, s) == exclude:
            continue
        val = ctx.opp_value(w, knows)
        if best is None or val < best:
            best, pick = val, (p, s)
    return best, pick


def _h_action(state, ctx: _KCtx, rng: Rng) -> Decision:
    act = state.act
    me = ctx.me
    unseen_own = [s for s, v in ctx.own if v is None]
    if act <= 8:
        if unseen_own and not ctx.called:
            return C.PEEK[me][unseen_own[rng.below(len(unseen_own))]]
        return C.SKIP
    if act <= 10:
        if ctx.called:
            return C.SKIP
        # the card of the most dangerous player (lowest estimate), one it has seen first
        cands = [(ctx.est[p], not knows, rng.below(1000), p, s)
                 for p, s, w, knows in ctx.opp if w is None]
        if not cands:
            return C.SKIP
        _, _, _, p, s = min(cands)
        return C.PEEK[p][s]
    if act <= 12:
        gain, s, p, t = ctx.best_swap()
        if gain >= P["swap_min"]:
            return C.pair("swap", me, s, p, t)
        return C.SKIP
    slot, _ = ctx.worst(rng)
    if act == 13:
        known_high = max((v for _, v in ctx.own if v is not None), default=None)
        _, pick = _target(ctx)
        if unseen_own and not ctx.called and (known_high is None or known_high < 9):
            return C.PEEK[me][unseen_own[rng.below(len(unseen_own))]]
        if pick is not None:
            return C.PEEK[pick[0]][pick[1]]
        if unseen_own:
            return C.PEEK[me][unseen_own[rng.below(len(unseen_own))]]
        return C.SKIP
    # 14: look at my worst card and the best-looking card of another player
    _, pick = _target(ctx)
    if pick is None:
        return C.SKIP
    return C.pair("peek", me, slot, pick[0], pick[1])


def _mine_and_other(state, me: int):
    """After the double peek of the 14 (KO-6): ((me, my slot), (other, its slot)) when one of
    the two peeked cards is `me`'s and the other another player's, else None (no swap helps)."""
    (p1, s1), (p2, s2) = state.peeked
    if p2 == me and p1 != me:
        return (p2, s2), (p1, s1)
    if p1 == me and p2 != me:
        return (p1, s1), (p2, s2)
    return None


def _h_action_swap(state, ctx: _KCtx, rng: Rng) -> Decision:
    me = ctx.me
    if state.act == 14:
        pair = _mine_and_other(state, me)
        if pair is None:
            return C.KEEP
        a, b = (state.card_seen(me, p, s) for p, s in pair)
        return C.SWAP if a is not None and b is not None and b < a else C.KEEP
    (p, s), = state.peeked
    v = state.card_seen(me, p, s)
    if v is None:
        return C.KEEP
    if p == me:
        val, pick = _target(ctx)
        if pick is not None and (v - val) * (1.0 + ctx.hurt) >= P["swap_min"] + 1.0:
            return C.SWAP1[pick[0]][pick[1]]
        return C.KEEP
    slot, bad = ctx.worst(rng)
    if (bad - v) * (1.0 + ctx.hurt) >= P["swap_min"]:
        return C.SWAP1[me][slot]
    return C.KEEP


# ---------------------------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------------------------

def evaluate(state) -> list[float]:
    """Per seat, an estimated chance to win (each in [0, 1], together 1) of a full state, finished
    or not; it reads the whole state (search calls it on determinizations). A finished game
    gives its k winners 1/k each and the others 0 (KO-16). Otherwise each seat's projected
    total is its total plus the current round: after a call the round scored now by KO-15,
    before a call half the current grid sum (grids still improve), nothing for a fresh deal
    nobody has played yet (where a search stops at the end of a round: the new grids are
    alike for every seat); the values are a softmax of minus the projected totals at a
    temperature 4 + 1.7 * sqrt(points left before the leader of the projection reaches the
    target). Constants fitted by maximum likelihood to the
    winners of 240 greedy/heuristic games (2-6 players)."""
    n = state.players
    if state.over:
        w = state.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)]
    sums = [sum(VALUE[c] for c in g if c >= 0) for g in state.grids]
    caller = state.caller
    if caller is None and state.turn_no == 0 and not state.discard:
        rs = [0.0] * n                 # a fresh deal nobody has played: alike for every seat
    elif caller is None:
        rs = [0.5 * x for x in sums]
    else:
        rs = [float(x) for x in sums]
        cs = sums[caller]
        if all(cs < sums[t] for t in range(n) if t != caller):            # KO-15
            rs = [x + 10.0 if t != caller and state.counts[t] else x for t, x in enumerate(rs)]
        else:
            rs[caller] += 15.0
    proj = [state.totals[s] + rs[s] for s in range(n)]
    rest = max(0.0, state.target - max(proj))
    temp = 4.0 + 1.7 * math.sqrt(rest)
    low = min(proj)
    e = [math.exp((low - p) / temp) for p in proj]
    z = sum(e)
    return [x / z for x in e]


# ---------------------------------------------------------------------------------------------
# search hooks (cardtable.bots.ismcts): candidates, rollout, horizon, ISMCTS defaults
# ---------------------------------------------------------------------------------------------

#: ISMCTS settings for Kombio when the bot is not given them (see `bots.ismcts`, docs/bots.md):
#: the rollout policy, pruning by `candidates`, the round as horizon, the belief sampler, and a
#: flat search (a tree node after `draw` would have to serve every drawn card: strategy fusion)
ISMCTS = {"rollout": "policy", "prune": True, "horizon": True, "belief": True, "tree_depth": 1}

_MEAN = sum(VALUE) / len(VALUE)     # 6.3: a card nobody has seen, for the fast rollout policy


#: belief: a card another player has seen (and `seat` has not) is drawn as the lowest of
#: 1 + min(turns that player has played in the round, BELIEF_MAX) uniform cards (players keep
#: the low cards they know: in greedy and heuristic games such a card averages 5.1 in the first
#: circuit of a round, 3.5 in the second, 2.9 in the third, 2.5 later, against 5.9 for a card
#: nobody has seen)
BELIEF_MAX = 2


# The belief with `events=True` (a PIMC setting, no level's) also reads the round's events
# (`state.plog`): a player's draws and takes show what it keeps. Players are taken to play like
# the heuristic: a drawn card is kept in place of the worst card (the highest known, or an
# unseen one, worth about 7 to them), so the kept card is lower than the card it replaced and
# the player's other known cards are no higher than that one; a drawn plain card thrown away
# is no lower than any card its player knows. A card with such a bound is drawn uniformly
# from the unseen cards within it (if the deck holds none, it keeps the card it was dealt in
# the sample).

#: a card kept in place of one its owner never saw: at most 6 (the heuristic keeps a 7 there
#: only when the cards it has not seen average above 6.3: 56 of 480,000 bounds checked in
#: games of medium bots, 2-6 players, none with 2, 4 or 5)
_BLIND_KEEP = 6
_BLIND_WORST = 7       # ... and the owner's known cards: at most 7
_NONE = 99             # a card its owner knows, no bound yet
_UNIT = 1.0 / (1 << 53)
_bounds_cache: tuple = (None, None)     # (the plog it was computed from, its bounds)


def bounds(state) -> dict[tuple[int, int], int]:
    """(player, slot index) -> the highest value the card there can have by the round's public
    events (`_NONE` for a card its owner knows without a bound); public, so alike for every
    seat. Slots without an entry: a card its owner has not seen (as far as events tell)."""
    global _bounds_cache
    log = state.plog
    cached_log, cached = _bounds_cache           # one tuple: read and replaced as a whole
    if cached_log is log and log is not None:
        return cached
    events = []
    h = log
    while h is not None:
        h, e = h
        events.append(e)
    events.reverse()
    ub = {}                                         # slot -> [highest value, who saw it]
    for p in range(state.players):                  # KO-2: the owner saw slots 3 and 4
        ub[(p, 2)] = [_NONE, p]
        ub[(p, 3)] = [_NONE, p]

    def cap(p, top):                                # the cards p has seen in its grid
        for key, v in ub.items():
            if key[0] == p and v[1] == p and v[0] > top:
                v[0] = top

    for e in events:
        kind = e[0]
        if kind == REPLACED or kind == TOOK:
            _, p, i, x, knew = e
            ub.pop((p, i), None)
            cap(p, x if knew else _BLIND_WORST)
            if kind == REPLACED:
                ub[(p, i)] = [x - 1 if knew else _BLIND_KEEP, p]
        elif kind == DISCARDED:
            _, p, x = e
            if x < C.ACTION_MIN:
                cap(p, x)
        elif kind == SWAPPED:
            _, p1, i1, p2, i2 = e
            a, b = ub.pop((p1, i1), None), ub.pop((p2, i2), None)
            if b is not None:
                ub[(p1, i1)] = b
            if a is not None:
                ub[(p2, i2)] = a
        elif kind == LOOKED:
            v = ub.get((e[1], e[2]))
            if v is None:
                ub[(e[1], e[2])] = [_NONE, e[1]]
            else:
                v[1] = e[1]
        elif kind == EMPTIED:
            ub.pop((e[1], e[2]), None)
        else:                                       # GAVE
            _, w, i, p, j = e
            v = ub.pop((w, i), None)
            if v is not None:
                ub[(p, j)] = v
    ub = {k: v[0] for k, v in ub.items()}
    _bounds_cache = (log, ub)
    return ub


def determinize(state, seat: int, seed: int, events: bool = False, trust: float = 1.0):
    """A determinization for `seat` (`state.determinize`) that models what the others keep:
    with `events`, every card `seat` has not seen that has a bound by `bounds` is drawn within
    it (each bound is kept with probability `trust`, since players who do not play like the
    heuristic break them: bench/kombio_bounds.py); then every other card of another player
    that its owner has seen and `seat` has not is exchanged with up to `BELIEF_MAX` random
    deck cards in turn, each time when the deck card is lower (see BELIEF_MAX). A function of
    the view of `seat` and the seed, like `state.determinize` (the events are public)."""
    d = state.determinize(seat, seed)
    deck = d.deck
    nd = len(deck)
    if not nd or not BELIEF_MAX:
        return d
    seen = d.known[seat] | d.public
    n = d.players
    turns = d.turn_no
    start = d.round_start
    x = seed & 0xFFFFFFFFFFFF | 1
    known = d.known
    done = 0
    if events:
        for (p, i), top in bounds(state).items():
            if top >= _NONE:
                continue
            g = d.grids[p]
            c = g[i]
            if c < 0 or (seen >> c) & 1:
                continue
            if trust < 1.0:                         # this sample ignores the bound
                x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                if (x >> 11) * _UNIT >= trust:
                    continue
            done |= 1 << c
            m = 1 if VALUE[c] <= top else 0         # reservoir: the card dealt counts (-1)
            pick = -1
            for j, e in enumerate(deck):
                if VALUE[e] <= top:
                    m += 1
                    x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                    if (x >> 33) % m == 0:
                        pick = j
            if pick < 0:
                continue
            e = _trade(deck, pick, g, i, known)
            done = (done & ~(1 << c)) | 1 << e
    for p in range(n):
        if p == seat:
            continue
        played = (turns - (p - start) % n + n - 1) // n
        k = min(played, BELIEF_MAX)
        if k <= 0:
            continue
        kp = known[p]
        g = d.grids[p]
        for i, c in enumerate(g):
            if c < 0 or (seen >> c) & 1 or not (kp >> c) & 1 or (done >> c) & 1:
                continue
            for _ in range(k):
                x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                j = (x >> 33) % nd
                if VALUE[deck[j]] < VALUE[c]:
                    c = _trade(deck, j, g, i, known)
    return d


def _trade(deck, j, g, i, known) -> int:
    """Exchange deck card j with grid card i (a sample's re-deal; who knew a card knows the
    one now in its place) and return the new grid card."""
    c, e = g[i], deck[j]
    deck[j] = c
    g[i] = e
    bc, be = 1 << c, 1 << e
    for t in range(len(known)):
        if known[t] & bc:
            known[t] = (known[t] & ~bc) | be
    return e


def horizon(state):
    """Search horizon key: the round (a rollout is evaluated once the round is over)."""
    return state.round_no


def _badness(state, me: int):
    """(worst slot, its badness, own estimated sum, first own unseen slot) with the fast
    estimate: a seen card is its value, an unseen one `_MEAN`."""
    seen = state.known[me] | state.public
    worst, wslot, est, unseen = -99.0, 0, 0.0, 0
    for i, c in enumerate(state.grids[me], 1):
        if c < 0:
            continue
        if (seen >> c) & 1:
            v = VALUE[c]
        else:
            v = _MEAN
            if not unseen:
                unseen = i
        est += v
        if v > worst:
            worst, wslot = v, i
    return wslot, worst, est, unseen


def _touchable(state, me: int):
    """(P, S, card id) of every card of another player that may be looked at or swapped."""
    tb = state.taboo
    out = []
    n = state.players
    for k in range(1, n):
        p = (me + k) % n
        if p == tb:
            continue
        for i, c in enumerate(state.grids[p], 1):
            if c >= 0:
                out.append((p, i, c))
    return out


def rollout(state, random_) -> Decision:
    """A cheap greedy-like policy for search rollouts (every seat), about as fast as the
    engine: `random_()` gives floats in [0, 1). It reads the knowledge of the seat to move
    (its own seen cards, by identity) but, to stay cheap, estimates every unseen card at the
    mean card value. Snap: only an own card it has seen equal to the top card (value above 0);
    turn: call when the estimated sum is at most 5 + turns per player, take the top card if it is
    at most 5 and 2 below the worst own card, else draw; drawn: replace the worst card if lower
    and plain (or 3 lower), else discard; actions: 7/8 and 13 look at an own unseen card, 11/12
    swap a known own 9+ with a random other card, 14 looks at the worst own card and a random
    other card and swaps if the other is lower, 9/10 skip; 13 swap: an own peeked 8+ goes to a
    random other card; give the worst card; hand over a snapped card of 5 or more."""
    ph = state.phase
    me = state._to_move
    if ph == "snap":
        top = VALUE[state.discard[-1]]
        if top > 0:
            seen = state.known[me] | state.public
            for i, c in enumerate(state.grids[me], 1):
                if c >= 0 and VALUE[c] == top and (seen >> c) & 1:
                    return C.SNAP[me][i]
        return C.PASS
    if ph == "turn":
        wslot, worst, est, _ = _badness(state, me)
        if state.caller is None and est <= KOMBIO_BASE + state.turn_no // state.players:
            return C.KOMBIO
        if state.discard and not state.top_snapped:
            top = VALUE[state.discard[-1]]
            if top <= TAKE_MAX and top <= worst - 2:
                return C.TAKE[wslot]
        if state.deck or len(state.discard) > 1:
            return C.DRAW
    elif ph == "drawn":
        wslot, worst, _, _ = _badness(state, me)
        v = VALUE[state.drawn]
        if v < worst and (v < C.ACTION_MIN or worst - v >= 3):
            return C.REPLACE[wslot]
        return C.DISCARD
    elif ph == "action":
        act = state.act
        if act <= 8 or act == 13:
            unseen = _badness(state, me)[3]
            return C.PEEK[me][unseen] if unseen else C.SKIP
        if act <= 10:
            return C.SKIP
        wslot, worst, _, _ = _badness(state, me)
        others = _touchable(state, me)
        if not others or not wslot:
            return C.SKIP
        p, s, _ = others[int(random_() * len(others))]
        if act <= 12:
            return C.pair("swap", me, wslot, p, s) if worst >= 9 else C.SKIP
        return C.pair("peek", me, wslot, p, s)
    elif ph == "action_swap":
        if state.act == 14:
            pair = _mine_and_other(state, me)
            if pair is None:
                return C.KEEP
            a, b = (VALUE[state.grids[p][s - 1]] for p, s in pair)
            return C.SWAP if b < a else C.KEEP
        (p, s), = state.peeked
        if p == me and VALUE[state.grids[p][s - 1]] >= 8:
            others = _touchable(state, me)
            if others:
                q, t, _ = others[int(random_() * len(others))]
                return C.SWAP1[q][t]
        return C.KEEP
    elif ph == "give":
        return C.GIVE[_badness(state, me)[0]]
    elif ph == "hand_over":
        return C.HAND_OVER if state.snap_info[3] >= 5 else C.PENALTY
    legal = state.legal_decisions()
    return legal[int(random_() * len(legal))]


def _targets(state, me: int, seen: int):
    """Per other player (not taboo), the cards worth touching: the lowest card `me` has seen,
    and the first card `me` has not seen that its owner has seen and the first one nobody
    has (they are alike to `me`)."""
    out = []
    n = state.players
    tb = state.taboo
    for k in range(1, n):
        p = (me + k) % n
        if p == tb:
            continue
        kn = state.known[p]
        low = None
        first_kn = first_unk = None
        for i, c in enumerate(state.grids[p], 1):
            if c < 0:
                continue
            if (seen >> c) & 1:
                if low is None or VALUE[c] < low[0]:
                    low = (VALUE[c], i)
            elif (kn >> c) & 1:
                if first_kn is None:
                    first_kn = i
            elif first_unk is None:
                first_unk = i
        if low is not None:
            out.append((p, low[1]))
        if first_kn is not None:
            out.append((p, first_kn))
        if first_unk is not None:
            out.append((p, first_unk))
    return out


def _worst_own(state, me: int, seen: int, k: int = 2) -> list[int]:
    """The `k` own slots with the highest badness (a seen value, else the mean card)."""
    own = [((VALUE[c] if (seen >> c) & 1 else _MEAN), -i, i)
           for i, c in enumerate(state.grids[me], 1) if c >= 0]
    own.sort(reverse=True)
    return [i for _, _, i in own[:k]]


def candidates(state) -> list[Decision]:
    """The decisions worth searching (a subset of the legal ones, for search pruning), read
    from what the seat to move knows: a snap only on a card it has seen equal to the top card
    (a guess is right about one time in twelve and costs a card), own peeks only on unseen
    cards; a peek at another's card only the first unseen card per player (unseen cards of a
    player are alike); swaps only between the two worst own cards and each other player's
    `_targets`; the rest unpruned. Always at least one decision."""
    ph = state.phase
    me = state._to_move
    if ph == "snap":
        top = VALUE[state.discard[-1]]
        seen = state.known[me] | state.public
        out = [C.PASS]
        tb = state.taboo
        for p, g in enumerate(state.grids):
            if p == tb:
                continue
            row = C.SNAP[p]
            for i, c in enumerate(g, 1):
                if c >= 0 and (seen >> c) & 1 and VALUE[c] == top:
                    out.append(row[i])
        return out
    if ph == "action":
        act = state.act
        seen = state.known[me] | state.public
        if act <= 8:
            out = [C.PEEK[me][i] for i, c in enumerate(state.grids[me], 1)
                   if c >= 0 and not (seen >> c) & 1]
        elif act <= 10:
            out = []
            for p, s in _targets(state, me, seen):
                c = state.grids[p][s - 1]
                if not (seen >> c) & 1:
                    out.append(C.PEEK[p][s])
        elif act == 13:
            out = [C.PEEK[me][i] for i, c in enumerate(state.grids[me], 1)
                   if c >= 0 and not (seen >> c) & 1 and me != state.taboo]
            out += [C.PEEK[p][s] for p, s in _targets(state, me, seen)]
        else:
            kind = "swap" if act <= 12 else "peek"
            targets = _targets(state, me, seen)
            out = [C.pair(kind, me, i, p, s) for i in _worst_own(state, me, seen)
                   for p, s in targets] if me != state.taboo else []
        out.append(C.SKIP)
        return out
    if ph == "action_swap" and state.act == 13:
        seen = state.known[me] | state.public
        (p, s), = state.peeked
        if p == me:
            out = [C.SWAP1[q][t] for q, t in _targets(state, me, seen)]
        else:
            out = [C.SWAP1[me][i] for i in _worst_own(state, me, seen)
                   if me != state.taboo]
        out.append(C.KEEP)
        return out
    return state.legal_decisions()


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
    ctx = _KCtx(state, state.to_move)
    key = _order(ctx)
    return [first] + sorted((d for d in cands if d != first), key=key)


#: where the alternatives to the heuristic's choice stand in `ranked` (lower first): the
#: option that changes nothing (draw, discard, skip, keep, pass) is always compared, then a
#: Kombio call, then the moves by their estimated gain
_TIER = {"draw": 0, "discard": 0, "skip": 0, "keep": 0, "pass": 0, "kombio": 1}


def _order(ctx: _KCtx):
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
