"""Abluxxen heuristics for the `greedy` bot. The bot sees a determinization for its seat, and
these rules read only what that seat knows: its hand, every display, the pool, the counts.

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
- shadow: the stack with the highest number.
"""

from __future__ import annotations

from cardtable.abluxxen import cards as C
from cardtable.abluxxen.cards import JOKER
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
