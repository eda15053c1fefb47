"""Abluxxen heuristics for the `greedy` and `heuristic` bots, and `evaluate` for search.

A bot sees a determinization for its seat, and the bots' rules read only what that seat knows:
its hand, every display, the pool, the discard pile, the counts, the public `known` cards.

greedy:
- play: score every legal set: +2 per card it gets out of the hand, +2 per card it abluxxes
  (same size, higher value), a risk of being abluxxed itself (smaller for high values), -0.8
  per joker spent (jokers are flexible); emptying the hand ends the game and is preferred when
  it wins or ties; the best score is played (ties broken at random).
- take: take the cards if at least one of them matches a number in hand (or is a joker) and
  the supply (deck + pool) is not nearly used up; otherwise leave them.
- keep/discard: keep two or more cards, or one that matches the hand, three times in four;
  otherwise discard and draw fresh. (Always keeping can make a table cycle for ever: a kept
  layer returns no card to the supply. Past 400 decisions greedy always discards.)
- draw: the pool card (or duel group) that best completes a set in hand (jokers best), else
  the deck; the AB-15 optional draw is taken only when the pool offers such a match.
- shadow: the highest number on offer (DU-4).

heuristic (the `heuristic` bot; constants in `P`, tuned in games against greedy):
- card counting: the cards the seat cannot see are the 109 (AB-1) minus its hand, every
  display, the pool, the discard pile, the shadow display, a pending layer and the cards known
  to be in another hand (`known`, a public lower bound). Each opponent's unknown hand cards are
  modelled as draws from them (binomial per number, numbers independent).
- safety of a set (value v, size k): per opponent the chance that it holds a set that abluxxes
  it (AB-8, AB-9, AB-20: k cards of a higher number with jokers, k jokers, expert 1s against
  13s and lone jokers); the chance to lose the layer before my next turn combines all opponents.
- play: score every legal set: +2 per card out of the hand; per abluxxed layer +2 per card
  (halved when the victim is not, within 2 points, the best of the others) and +1 per card of
  it that matches the hand (it will be taken); minus 4 x 2 points per card x the chance to
  lose the layer (losing a layer costs its points and hands the attacker a turn); -1 per joker
  spent; -0.7 per card of the number left behind when a group is split. Emptying the hand
  (AB-7) is played when it wins or ties (with an empty hand the tie-break favours me) and
  avoided otherwise; leaving exactly one card (next turn's play must end the game) gets +6 when
  I would then lead, -6 when not (unless the AB-15 draw can add a card). Duel: a set that must
  shadowluxx (DU-4) costs 1 per card that comes into the hand, +1 back per card if an option
  matches the hand. Ties are broken with rng.
- take: take abluxxed cards that fit the hand (a joker counts twice, a number in hand once);
  else leave them.
- keep/discard: keep a layer of two or more cards or one that matches the hand (3 times in 4,
  as greedy, so tables cannot cycle; past 400 decisions always discard); else discard and draw.
- draw: the pool item that best fits the hand (jokers, then the numbers I hold most, higher
  numbers first), else the deck. AB-15 optional draw: only such a fitting pool item (a blind
  deck card costs a point more often than it helps); but with one card left while not leading,
  any card rather than a forced losing end.
- shadow: a number on offer that is in the hand, else the highest.
Tried and measured worse against greedy (so left out): stopping to take, to draw or to save
jokers in an end game (small supply or small hands), optional draws from the deck, playing
cheap singles on purpose to fish pool cards.

evaluate(state): see the function.

The policy-rollout search's hooks (bots/pimc.py) are at the end: `ranked`, `turn_key`,
`features` and `value_family` (its learned evaluation), and `playout`, its rollout compiled
(abluxxen/batch/rollout.py).
"""

from __future__ import annotations

import math

from cardtable.abluxxen import cards as C
from cardtable.abluxxen.cards import JOKER
from cardtable.abluxxen.state import shadow_options
from cardtable.core.game import Decision
from cardtable.core.rng import Rng

ENDGAME_SUPPLY = 8
LONG_GAME = 400


def _supply(state) -> int:
    return len(state.deck) + len(state.pool)


def _beats(state, v: int, size: int, top: tuple) -> bool:
    return len(top) == size and (top[0] < v or (
        state.rules.ones_beat_top and v == 1 and top[0] >= 13))


def play_score(state, d: Decision) -> float:
    v, k, j = d.args
    size = k + j
    me = state.to_move
    score = 2.0 * size - 0.8 * j
    for s in range(state.players):
        if s != me and state.displays[s] and _beats(state, v, size, state.displays[s][-1]):
            score += 2.0 * len(state.displays[s][-1])
    if v < JOKER or state.rules.ones_beat_top:
        score -= 0.5 * size * (13 - min(v, 13)) / 13
    if state.sizes[me] == size:  # AB-7: the game ends now; worth it only when we lead
        mine = sum(len(layer) for layer in state.displays[me]) + size
        best_other = max(sum(len(layer) for layer in state.displays[s]) - state.sizes[s]
                         for s in range(state.players) if s != me)
        score += 100.0 if mine >= best_other else -100.0
    return score


def _match(hand: list[int], item: tuple) -> float:
    return sum(3.0 if c == JOKER else float(hand[c]) for c in item)


def _best_pool(state) -> tuple[float, Decision | None]:
    hand = state.hands[state.to_move]
    best, best_d = 0.0, None
    for item in state.pool:
        m = _match(hand, item)
        if m > best:
            best, best_d = m, C.draw_pool(item)
    return best, best_d


def greedy(state, rng: Rng) -> Decision:
    phase = state.awaiting
    legal = state.legal_decisions()
    if len(legal) == 1:
        return legal[0]
    me = state.to_move
    hand = state.hands[me]
    if phase == "play":
        scored = [(play_score(state, d), i) for i, d in enumerate(legal)]
        top = max(s for s, _ in scored)
        choices = [legal[i] for s, i in scored if s == top]
        return choices[rng.below(len(choices))]
    if phase == "take":
        cards = state.pending[1]
        useful = any(c == JOKER or hand[c] for c in cards)
        return C.TAKE if useful and _supply(state) > ENDGAME_SUPPLY else C.LEAVE
    if phase == "keep":
        cards = state.pending[1]
        wanted = len(cards) >= 2 or any(c == JOKER or hand[c] for c in cards)
        # Keeping moves no card to the supply, so tables that always keep can cycle for ever
        # (without AB-15 nothing else shrinks the supply): keep only 3 times in 4, and never
        # in a game that has already run long.
        if wanted and rng.below(4) and len(state.history) < LONG_GAME:
            return C.KEEP
        return C.DISCARD
    if phase == "draw":
        m, d = _best_pool(state)
        if d is not None:
            return d
        return C.DRAW_DECK if state.deck else legal[0]
    if phase == "optional_draw":
        m, d = _best_pool(state)
        if d is not None and m >= 2 and _supply(state) > ENDGAME_SUPPLY:
            return d
        return C.PASS
    if phase == "shadow":
        return max(legal, key=lambda d: d.args[0])
    return legal[0]



# ---------------------------------------------------------------------------------------------
# heuristic
# ---------------------------------------------------------------------------------------------

def _unseen(state, me: int) -> list[int]:
    """Per card, how many copies `me` cannot see: AB-1 copies minus its own hand, every
    display, the pool, the discard pile, the shadow display, the pending layer, and the cards
    known to be in another hand. They lie in the deck or in the other hands' unknown part."""
    u = C.COPIES[:]
    hand = state.hands[me]
    for c in range(1, 15):
        u[c] -= hand[c]
    for disp in state.displays:
        for layer in disp:
            for c in layer:
                u[c] -= 1
    for item in state.pool:
        for c in item:
            u[c] -= 1
    for c in state.discard:
        u[c] -= 1
    if state.shadow is not None:
        sh = state.shadow
        for c in range(1, 13):
            u[c] -= sh[c]
    if state.pending is not None:
        for c in state.pending[1]:
            u[c] -= 1
    for o in range(state.players):
        if o != me:
            k = state.known[o]
            for c in range(1, 15):
                u[c] -= k[c]
    return u


MAXT = 14           # largest set size the threat tables cover (8 numbers + 5 jokers + 1)


def _binom_cum(h: int, p: float) -> list[float]:
    """cum[i] = P(X <= i) for X ~ Binomial(h, p), i = 0..h."""
    if h <= 0 or p <= 0.0:
        return [1.0] * (h + 1)
    if p >= 1.0:
        return [0.0] * h + [1.0]
    q = 1.0 - p
    x = q ** h
    r = p / q
    cum = [0.0] * (h + 1)
    acc = 0.0
    for i in range(h + 1):
        if i:
            x *= r * (h - i + 1) / i
        acc += x
        cum[i] = acc
    return cum


def _less_row(h: int, uw: int, total: int, base: int) -> list[float]:
    """row[t] = P(base + X < t), X ~ Binomial(h, uw / total), t = 0..MAXT."""
    cum = _binom_cum(h, uw / total if total > 0 else 0.0)
    row = [0.0] * (MAXT + 1)
    for t in range(1, MAXT + 1):
        i = t - base - 1
        row[t] = 0.0 if i < 0 else (1.0 if i >= h else cum[i])
    return row


#: `_less_row` results by their arguments (a pure function; searches ask for the same rows
#: again and again), cleared when it grows large
_ROWS: dict[tuple[int, int, int, int], list[float]] = {}


class _Threat:
    """How likely opponent `o` holds a set that abluxxes a layer (value v, size k): its known
    cards plus, for its unknown cards, a draw from the cards `me` cannot see (binomial
    approximation, numbers treated as independent)."""

    __slots__ = ("cache", "expert", "less", "pj", "suffix")

    def __init__(self, state, o: int, u: list[int], total: int):
        known = state.known[o]
        h = max(0, state.sizes[o] - sum(known))
        self.expert = state.rules.ones_beat_top
        less = [None] * 15                  # less[w][t] = P(count of w < t), t = 0..MAXT
        rows = _ROWS
        if len(rows) > 50_000:
            rows.clear()
        for w in range(1, 15):
            key = (h, u[w], total, known[w])
            row = rows.get(key)
            if row is None:
                row = rows[key] = _less_row(h, u[w], total, known[w])
            less[w] = row
        jrow = less[JOKER]
        self.pj = [jrow[j + 1] - jrow[j] for j in range(6)]   # P(jokers == j)
        self.less = less
        self.cache = {}
        self.suffix = {}

    def _suffix(self, t: int) -> list[float]:
        """s[v] = P(no number above v, up to 13, lies t times): the product of less[w][t] over
        w = v+1..13 (s[13] = 1), built once per t."""
        s = self.suffix.get(t)
        if s is None:
            less = self.less
            s = [1.0] * 14
            f = 1.0
            for w in range(13, 0, -1):
                s[w] = f
                f *= less[w][t]
            s[0] = f
            self.suffix[t] = s
        return s

    def beats(self, v: int, k: int) -> float:
        key = (v, k)
        got = self.cache.get(key)
        if got is not None:
            return got
        if k > MAXT - 1:
            self.cache[key] = 0.0
            return 0.0
        vv = min(v, 13)
        ones = self.expert and v >= 13
        less1 = self.less[1]
        fail = 0.0
        for j, pj in enumerate(self.pj):
            if pj <= 0.0:
                continue
            t = k - j
            if t <= 0 and v < JOKER:
                continue                     # jokers alone (value 14) beat it
            t = max(t, 1)
            f = pj * self._suffix(t)[vv]
            if ones:
                f *= less1[t]
            fail += f
        q = max(0.0, min(1.0, 1.0 - fail))
        self.cache[key] = q
        return q


class _Ctx:
    """What the seat to move knows, digested once per decision."""

    def __init__(self, state):
        self.state = state
        me = self.me = state.to_move
        n = state.players
        self.hand = state.hands[me]
        self.score = [sum(len(layer) for layer in state.displays[s]) - state.sizes[s]
                      for s in range(n)]
        self.others = [(me + i) % n for i in range(1, n)]
        self.best_other = max(self.score[o] for o in self.others)
        self._threats = None

    @property
    def threats(self) -> list[_Threat]:
        if self._threats is None:
            u = _unseen(self.state, self.me)
            total = sum(u[1:15])
            self._threats = [_Threat(self.state, o, u, total) for o in self.others]
        return self._threats

    def p_lost(self, v: int, k: int) -> float:
        """Chance that a layer (v, k) on top of my display is abluxxed before my next turn."""
        keep = 1.0
        for t in self.threats:
            keep *= 1.0 - P["alpha"] * t.beats(v, k)
        return 1.0 - keep

    def weight(self, o: int) -> float:
        """How much hurting opponent o helps me win: most when o leads the others."""
        return 1.0 if self.score[o] >= self.best_other - 2 else P["w_trail"]


#: The heuristic's constants (tuned against greedy; see the module docstring).
P = {
    "alpha": 1.0,         # chance that an opponent who can abluxx my layer does it
    "risk": 4.0,          # weight of the expected loss of a layer (2 points per card)
    "hit": 1.0,           # weight of an abluxx (the victim loses 2 points per card)
    "w_trail": 0.5,       # ... against an opponent who is not (nearly) the best of the others
    "take_bonus": 1.0,    # value per abluxxed card that matches the hand (to be taken)
    "joker": 1.0,         # cost of a joker spent
    "split": 0.7,         # cost per number card left behind when a group is played in part
    "one_left": 6.0,      # leaving one card: a forced end next turn (bonus if leading)
    "shadow": 1.0,        # duel: cost per card a forced shadowluxx brings into the hand (DU-4)
    "shadow_match": 1.0,  # ... less this when a shadow option matches the hand
    "take_min": 1.0,      # take abluxxed cards when their match count reaches this
    "keep_min": 2,        # keep an abluxxed layer of at least this many cards (or matching)
    "keep_rand": 25,      # ... but discard it anyway this many times in 100
    "od_min": 1.0,        # AB-15 draw when the best pool item's match value reaches this
}


def _match_value(hand: list[int], item: tuple) -> float:
    """How well a pool item fits the hand: 2 per joker, per number card its count in hand
    (at most 3) plus a little for a high number; 0 for a number not in hand."""
    return sum(2.0 if c == JOKER else (min(hand[c], 3) + c / 13.0) if hand[c] else 0.0
               for c in item)


def _play_value(ctx: _Ctx, d: Decision) -> float:
    st = ctx.state
    me = ctx.me
    v, k, j = d.args
    size = k + j
    hand = ctx.hand
    if st.sizes[me] == size:                                   # AB-7: this ends the game
        mine = ctx.score[me] + 2 * size
        if mine > ctx.best_other:
            return 1e6
        if mine == ctx.best_other:                             # AB-18: my hand is empty
            return 1e5
        return -1e6 + size
    val = 2.0 * size
    hit = False
    for o in ctx.others:                                       # AB-8: the abluxxes it makes
        disp = st.displays[o]
        if disp and _beats(st, v, size, disp[-1]):
            hit = True
            top = disp[-1]
            val += P["hit"] * 2.0 * len(top) * ctx.weight(o)
            val += P["take_bonus"] * sum(1 for c in top if c == JOKER or hand[c])
    if st.rules.duel and st.shadow is not None:               # DU-4: a forced shadowluxx
        opts = shadow_options(st.shadow, v, size, st.rules.shadow_partial)
        if opts:
            hit = hit or st.rules.shadow_blocks_draw                  # DU-6
            val -= P["shadow"] * size
            if any(hand[w] for w in opts):
                val += P["shadow_match"] * size
    if st.sizes[me] - size == 1:                   # AB-7 next turn: the last card ends it
        if ctx.score[me] + 2 * size + 2 > ctx.best_other:
            val += P["one_left"]
        elif not (st.rules.optional_draw and not hit):         # AB-15 could save me
            val -= P["one_left"]
    val -= P["risk"] * 2.0 * size * ctx.p_lost(v, size)
    val -= P["joker"] * j
    if v != JOKER and hand[v] > k:
        val -= P["split"] * (hand[v] - k)
    return val


def heuristic(state, rng: Rng) -> Decision:
    """The `heuristic` bot's decision for `state.to_move` (rules: the module docstring)."""
    legal = state.legal_decisions()
    if len(legal) == 1:
        return legal[0]
    ctx = _Ctx(state)
    me = ctx.me
    phase = state.awaiting
    hand = ctx.hand
    if phase == "play":
        scored = [(_play_value(ctx, d), i) for i, d in enumerate(legal)]
        top = max(s for s, _ in scored)
        choices = [legal[i] for s, i in scored if s >= top - 1e-9]
        return choices[rng.below(len(choices))]
    if phase == "take":
        cards = state.pending[1]
        use = sum(2.0 if c == JOKER else float(hand[c] > 0) for c in cards)
        return C.TAKE if use >= P["take_min"] else C.LEAVE
    if phase == "keep":
        cards = state.pending[1]
        if len(state.history) >= LONG_GAME:
            return C.DISCARD
        if len(cards) >= P["keep_min"] or any(c == JOKER or hand[c] for c in cards):
            return C.KEEP if rng.below(100) >= P["keep_rand"] else C.DISCARD
        return C.DISCARD
    if phase in ("draw", "optional_draw"):
        best, best_d = 0.0, None
        for d in legal:
            if d.kind == "draw" and d.args[0] == "pool":
                m = _match_value(hand, d.args[1])
                if m > best:
                    best, best_d = m, d
        if phase == "optional_draw":
            if state.sizes[me] == 1 and ctx.score[me] + 2 <= ctx.best_other:
                return best_d or (C.DRAW_DECK if state.deck else legal[0])
            return best_d if best_d is not None and best >= P["od_min"] else C.PASS
        if best_d is not None:
            return best_d
        return C.DRAW_DECK if state.deck else legal[0]
    if phase == "shadow":
        return max(legal, key=lambda d: (hand[d.args[0]] > 0, d.args[0]))
    return legal[0]


# ---------------------------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------------------------

def evaluate(state) -> list[float]:
    """Per seat, an estimated chance to win (each in [0, 1], together 1) of a full state, finished
    or not; it reads the whole state (search calls it on determinizations). A finished game
    gives its k winners 1/k each and the others 0 (AB-18, CL-4). Otherwise a softmax of the
    projected scores: display cards - lam * hand cards + 1.5 per joker in hand, where hand
    cards count the less the more the game has still to run (lam = exp(-rest / 3), rest = deck
    + pool + mean hand size), at a temperature 1.5 + 0.08 * rest. The constants were fitted by
    maximum likelihood to the winners of 400 greedy/heuristic games (3-5 players, every rule
    set but the duel)."""
    n = state.players
    if state.over:
        w = state.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)]
    rest = len(state.deck) + len(state.pool) + sum(state.sizes) / n
    lam = math.exp(-rest / 3.0)
    temp = 1.5 + 0.08 * rest
    proj = [sum(len(layer) for layer in state.displays[s]) - lam * state.sizes[s]
            + 1.5 * state.hands[s][JOKER] for s in range(n)]
    top = max(proj)
    e = [math.exp((p - top) / temp) for p in proj]
    z = sum(e)
    return [x / z for x in e]


# ---------------------------------------------------------------------------------------------
# hooks of the policy-rollout search (bots/pimc.py): ranked, turn_key, features, value_family,
# the compiled rollout playout
# ---------------------------------------------------------------------------------------------

#: default settings of the search in Abluxxen (bots/pimc.py)
PIMC = {"width": 8, "circles": 1}


def turn_key(state):
    """Changes exactly when a turn starts (the search counts turns with it)."""
    return state.active


def ranked(state, rng: Rng) -> list[Decision]:
    """The decisions worth searching, best first, read from what the seat to move knows:
    plays by the heuristic's value (`_play_value`), without a play that empties the hand and
    loses (AB-7) unless nothing else is legal; a play that ends the game with a win (or an
    AB-18 tie won on the empty hand) alone. Other decision points: the heuristic's choice,
    then the others in legal order."""
    legal = state.legal_decisions()
    if len(legal) == 1:
        return legal
    if state.awaiting == "play":
        ctx = _Ctx(state)
        scored = sorted((-_play_value(ctx, d), i) for i, d in enumerate(legal))
        if scored[0][0] <= -1e5:                                 # AB-7: this wins the game
            return [legal[scored[0][1]]]
        out = [legal[i] for v, i in scored if v < 1e5]
        return out or [legal[scored[0][1]]]
    first = heuristic(state, rng)
    return [first] + [d for d in legal if d != first]


def features(state) -> list[list[float]]:
    """Per seat, the inputs of the learned evaluation (bots/value.py) of a full state at the
    start of a turn: own figures, figures relative to the best other seat, the seat's place in
    the turn order from the active player, and the progress of the game."""
    n = state.players
    sizes = state.sizes
    rest = len(state.deck) + len(state.pool)
    mean_hand = sum(sizes) / n
    disp = [sum(len(layer) for layer in d) for d in state.displays]
    score = [disp[s] - sizes[s] for s in range(n)]
    rules = state.rules
    active = state.active
    g = [rest / 40.0, mean_hand / 10.0, n / 5.0, float(rules.optional_draw),
         float(rules.ones_beat_top), float(rules.tiebreak_fewer_hand),
         (state.shadow_size if state.shadow is not None else 0) / 20.0]
    out = []
    for s in range(n):
        h = state.hands[s]
        groups = [h[v] for v in range(1, 14) if h[v]]
        distinct = len(groups)
        maxg = max(groups, default=0)
        pairs = sum(c - 1 for c in groups)
        high = sum(h[v] for v in range(10, 14))
        d = state.displays[s]
        top = d[-1] if d else None
        best_other = max(score[o] for o in range(n) if o != s)
        pos = (s - active) % n
        row = [score[s] / 10.0, (score[s] - best_other) / 10.0, disp[s] / 10.0,
               sizes[s] / 10.0, h[JOKER] / 2.0, distinct / 5.0, maxg / 3.0, pairs / 5.0,
               high / 5.0, (len(top) if top else 0) / 3.0, (min(top[0], 13) if top else 0) / 13.0,
               float(sizes[s] == 1), float(pos == 0), float(pos == 1), float(pos == n - 1)]
        out.append(row + g)
    return out


def value_family(state) -> str:
    """The learned evaluation's family of a state (bots/value.py): the duel or the rest."""
    return "abluxxen-duel" if state.rules.duel else "abluxxen-multi"


def playout(state, seat: int, seed: int, h0, score_weight: float,
            stop_turns: int | None = None, nets=None):
    """The policy-rollout search's rollout (bots/pimc.py) from `state` (a determinization of
    `seat`'s view, a candidate applied), played on the compiled simulator
    (abluxxen/batch/rollout.py): `heuristic` for every seat on `Rng(seed)` until the game ends
    or the turn has changed `stop_turns` times (`turn_key`), scored for `seat` (`outcome` of a
    finished game, else the learned evaluation's network `nets(value_family(state))` when
    `nets` is given and has one, else `evaluate`); (win,
    reward), the Python rollout's to the last bit. None (the search rolls out in Python: the
    same play, slower) where the simulator cannot hold the state, where it is not installed
    (numba comes with the `rl` extra), or while it is not ready yet (`compiled_playout`)."""
    fn = compiled_playout()
    return None if fn is None else fn(state, seat, seed, h0, score_weight, stop_turns, nets)


def compiled_playout(wait: bool = False):
    """The compiled playout once it is ready in this process, else None: abluxxen/batch's
    `COMPILED` (rl/batch/warm.py: the first call starts a separate process that compiles it
    into numba's cache or finds it there, a later call imports it once that process has
    succeeded, so no decision waits for the compiler). With `wait`, waits for that process
    (tests, benchmarks). None for good where numba is missing or the warm-up failed."""
    global _READY
    if _READY is None:
        try:
            from cardtable.abluxxen.batch import COMPILED
        except ImportError:
            COMPILED = False
        _READY = COMPILED
    return _READY(wait) if _READY else None


#: the compiled playout's readiness (abluxxen/batch/__init__.py `COMPILED`) once imported;
#: False where the simulator is not installed
_READY = None
