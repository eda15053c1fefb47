"""Abluxxen's codec for the research front ends (rl/codec.py says what a codec is).

## Abluxxen actions (653 ids, the same for every rule set and player count)

    id          decision
    0..623      play: value v 1..13, k 1..8 cards of v, j 0..5 jokers:
                id = (v-1)*48 + (k-1)*6 + j          ("play 7 7 X" = v 7, k 2, j 1)
    624..628    play jokers alone: 624 + j - 1, j 1..5   ("play X X" = 625)
    629..640    shadow v, v 1..12: 628 + v            (duel, DU-4)
    641..646    take, leave, keep, discard, pass, draw deck
    647..652    draw pool POSITION 0..5: the pool item at that position of the view's `pool`
                list (a single card, or a duel group). Equal items are one decision
                (NOTATION.md: pool cards are named by content), so only the FIRST position
                holding an item is in the mask; later equal positions are masked out.

## Abluxxen observation (319 floats, the seat's own view; seats relative to the viewer)

    offset  size  content
    0       180   5 seat blocks of 36 (block r = the seat r places after the viewer; blocks
                  past the player count are zero):
                    +0 present, +1 hand size/13, +2 display layers/10, +3 display cards/13,
                    +4..+17 top layer value one-hot (1..13, 14 = jokers alone), +18 its size/8,
                    +19..+32 second layer one-hot, +33 its size/8, +34 active, +35 to move
    180     14    own hand: count of 1..13 /8, jokers /5
    194     84    pool: 6 positions × 14 card counts (1..13, joker)
    278     2     deck/109, discard pile/109
    280     12    duel shadow display: count of 1..12 /8 (zero outside the duel)
    292     20    pending abluxxed cards: +0 present, +1..+5 victim one-hot (relative),
                  +6..+19 card counts (1..13, joker)
    312     1     draws owed / 13
    313     6     awaiting one-hot: play, shadow, take, keep, draw, optional_draw
"""

from __future__ import annotations

import numpy as np

from cardtable.core.game import Decision, GameState

# -- Abluxxen ---------------------------------------------------------------------------------
AB_PLAY_JOKERS = 624
AB_SHADOW = 628            # + v, v 1..12
AB_SIMPLE = ("take", "leave", "keep", "discard", "pass", "draw deck")
AB_SIMPLE0 = 641
AB_POOL = 647
AB_ACTIONS = 653
AB_SEATS = 5
AB_SEAT_BLOCK = 36
AB_PHASES = ("play", "shadow", "take", "keep", "draw", "optional_draw")


def _ab_play_text(v: int, k: int, j: int) -> str:
    return "play " + " ".join([str(v)] * k + ["X"] * j)


def _ab_fixed() -> dict[str, int]:
    ids: dict[str, int] = {}
    for v in range(1, 14):
        for k in range(1, 9):
            for j in range(6):
                ids[_ab_play_text(v, k, j)] = (v - 1) * 48 + (k - 1) * 6 + j
    for j in range(1, 6):
        ids[_ab_play_text(14, 0, j)] = AB_PLAY_JOKERS + j - 1     # "play X X"
    for v in range(1, 13):
        ids[f"shadow {v}"] = AB_SHADOW + v
    for i, t in enumerate(AB_SIMPLE):
        ids[t] = AB_SIMPLE0 + i
    return ids


def _card_index(c) -> int:
    """JSON card (1..13 or "X") -> 0..13."""
    return 13 if c == "X" else c - 1


class AbluxxenCodec:
    game = "abluxxen"
    num_actions = AB_ACTIONS
    obs_size = 319

    def __init__(self, players: int, **settings):
        # the same ids and layout for every rule set: no settings (max_cards, target: Kombio's)
        self.players = players
        self.ids = _ab_fixed()
        self.names = {i: t for t, i in self.ids.items()}
        high = np.ones(self.obs_size, np.float32)
        for r in range(AB_SEATS):
            b = r * AB_SEAT_BLOCK
            high[b + 1] = high[b + 3] = 109 / 13
            high[b + 2] = 10.9
            high[b + 18] = high[b + 33] = 13 / 8
        high[194:278] = 8
        high[292 + 6:312] = 8
        high[312] = 1
        self.obs_high = high
        self.obs_low = np.zeros(self.obs_size, np.float32)

    def reward_range(self) -> tuple[float, float]:
        """The range of a seat's final "score" reward (AB-17: at most the 109 cards)."""
        return -109.0, 109.0

    def describe(self, action: int) -> str:
        if AB_POOL <= action < AB_ACTIONS:
            return f"draw pool position {action - AB_POOL}"
        return self.names[action]

    def legal(self, state: GameState, view: dict) -> dict[int, Decision]:
        ids = self.ids
        out: dict[int, Decision] = {}
        pool = None
        for d in state.legal_decisions():
            i = ids.get(d.text)
            if i is None:                      # draw pool ITEM: its first position
                if pool is None:
                    pool = {}
                    for pos, item in enumerate(view["pool"]):
                        pool.setdefault("draw pool " + "+".join(str(c) for c in item), pos)
                i = AB_POOL + pool[d.text]
            out[i] = d
        return out

    def encode(self, view: dict) -> np.ndarray:
        o = [0.0] * self.obs_size          # a list, filled, then one array: cheaper than numpy
        n = view["players"]
        me = view["seat"]
        sizes = view["hand_counts"]
        displays = view["displays"]
        active, to_move = view["active"], view["to_move"]
        for s in range(n):
            r = (s - me) % n
            b = r * AB_SEAT_BLOCK
            o[b] = 1.0
            o[b + 1] = sizes[s] / 13
            disp = displays[s]
            o[b + 2] = len(disp) / 10
            o[b + 3] = sum(len(layer) for layer in disp) / 13
            for depth, off in ((1, 4), (2, 19)):
                if len(disp) >= depth:
                    layer = disp[-depth]
                    o[b + off + _card_index(layer[0])] = 1.0   # sorted: jokers last
                    o[b + off + 14] = len(layer) / 8
            o[b + 34] = float(s == active)
            o[b + 35] = float(s == to_move)
        for c in view["hands"][me]:
            o[180 + _card_index(c)] += 0.2 if c == "X" else 0.125     # counts /8, jokers /5
        for pos, item in enumerate(view["pool"]):
            for c in item:
                o[194 + pos * 14 + _card_index(c)] += 1
        o[278] = view["deck"] / 109
        o[279] = view["discard"] / 109
        if view["shadow"]:
            for stack in view["shadow"]:
                o[280 + stack[0] - 1] = len(stack) / 8
        pending = view["pending"]
        if pending:
            o[292] = 1.0
            o[293 + (pending["victim"] - me) % n] = 1.0
            for c in pending["cards"]:
                o[298 + _card_index(c)] += 1
        o[312] = view["owed"] / 13
        if view["awaiting"] is not None:
            o[313 + AB_PHASES.index(view["awaiting"])] = 1.0
        return np.array(o, np.float32)
