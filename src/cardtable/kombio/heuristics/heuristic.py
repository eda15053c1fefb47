"""The HeuristicBot (`heuristic(state, rng)`): card counting, the estimates of every card and the
rules by decision point (constants in `P`); see the package docstring."""

from __future__ import annotations

import math
from functools import cached_property

from cardtable.core.game import Decision
from cardtable.core.rng import Rng
from cardtable.kombio import cards as C
from cardtable.kombio.cards import VALUE

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


class KCtx:
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


def _action_value(ctx: KCtx, act: int) -> float:
    """Estimated worth of using the action of a discarded card of value `act` (KO-6)."""
    return _action_values(ctx)[act]


def _action_values(ctx: KCtx) -> dict[int, float]:
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


def _draw_gain(ctx: KCtx, bad: float) -> float:
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
    ctx = KCtx(state, me)
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


def _h_snap(state, ctx: KCtx, rng: Rng) -> Decision:
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


def _target(ctx: KCtx, exclude=None):
    """Another player's card most worth having: the lowest estimated value."""
    best, pick = None, None
    for p, s, w, knows in ctx.opp:
        if (p, s) == exclude:
            continue
        val = ctx.opp_value(w, knows)
        if best is None or val < best:
            best, pick = val, (p, s)
    return best, pick


def _h_action(state, ctx: KCtx, rng: Rng) -> Decision:
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


def mine_and_other(state, me: int):
    """After the double peek of the 14 (KO-6): ((me, my slot), (other, its slot)) when one of
    the two peeked cards is `me`'s and the other another player's, else None (no swap helps)."""
    (p1, s1), (p2, s2) = state.peeked
    if p2 == me and p1 != me:
        return (p2, s2), (p1, s1)
    if p1 == me and p2 != me:
        return (p1, s1), (p2, s2)
    return None


def _h_action_swap(state, ctx: KCtx, rng: Rng) -> Decision:
    me = ctx.me
    if state.act == 14:
        pair = mine_and_other(state, me)
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
