"""The searches' hooks (`bots.ismcts`, `bots.pimc`): `evaluate`, the belief (`bounds`,
`determinize`), `horizon`, the compiled rollout `playout` (bots/pimc.py), the fast `rollout`
policy and the pruning `candidates`; the default settings `ISMCTS`."""

from __future__ import annotations

import math

from cardtable.core.game import Decision
from cardtable.kombio import cards as C
from cardtable.kombio.cards import VALUE
from cardtable.kombio.state import DISCARDED, EMPTIED, LOOKED, REPLACED, SWAPPED, TOOK
from cardtable.kombio.heuristics.greedy import KOMBIO_BASE, TAKE_MAX
from cardtable.kombio.heuristics.heuristic import mine_and_other

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
BLIND_KEEP = 6
_BLIND_WORST = 7       # ... and the owner's known cards: at most 7
NONE = 99             # a card its owner knows, no bound yet
_UNIT = 1.0 / (1 << 53)
_bounds_cache: tuple = (None, None)     # (the plog it was computed from, its bounds)


def bounds(state) -> dict[tuple[int, int], int]:
    """(player, slot index) -> the highest value the card there can have by the round's public
    events (`NONE` for a card its owner knows without a bound); public, so alike for every
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
        ub[(p, 2)] = [NONE, p]
        ub[(p, 3)] = [NONE, p]

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
                ub[(p, i)] = [x - 1 if knew else BLIND_KEEP, p]
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
                ub[(e[1], e[2])] = [NONE, e[1]]
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
            if top >= NONE:
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


def playout(state, seat: int, seed: int, h0: int, score_weight: float,
            stop_turns: int | None = None, nets=None):
    """The policy-rollout search's rollout (bots/pimc.py) from `state` (a determinization of
    `seat`'s view, a candidate applied), played on the compiled simulator: `heuristic` for every
    seat on `Rng(seed)` until the round is no longer `h0` or the game ends, scored for `seat`
    (`evaluate`, or `outcome` of a finished game); (win, reward). None (the search rolls out in
    Python: the same play, slower) for a rollout it does not play (a turn cap `stop_turns`, a
    learned evaluation `nets`: Kombio has none), where the simulator cannot hold the state, where it
    is not installed (numba comes with the `rl` extra), or while it is not ready yet
    (`compiled_playout`)."""
    if stop_turns is not None or nets is not None:
        return None
    fn = compiled_playout()
    return None if fn is None else fn(state, seat, seed, h0, score_weight)


def compiled_playout(wait: bool = False):
    """The compiled playout (kombio/batch/rollout.py) once it is ready in this process, else
    None: kombio/batch/__init__.py's `COMPILED` (rl/batch/warm.py: the first call starts a
    separate process that compiles it into numba's cache or finds it there, and a later call
    imports it once that process has succeeded, so no decision waits for the compiler). With
    `wait`, waits for that process (tests, benchmarks). None for good where numba is missing
    or the warm-up failed."""
    ready = _ready()
    return ready(wait) if ready else None


def _ready():
    """kombio/batch's `COMPILED` (imported on first use), False without numba."""
    global _READY
    if _READY is None:
        try:
            from cardtable.kombio.batch import COMPILED
        except ImportError:
            COMPILED = False
        _READY = COMPILED
    return _READY


#: the compiled playout's readiness (kombio/batch/__init__.py `COMPILED`) once imported;
#: False where the simulator is not installed
_READY = None


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
            pair = mine_and_other(state, me)
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
