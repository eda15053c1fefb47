"""Kombio's codec for the research front ends (rl/codec.py says what a codec is).

## Kombio actions (seat numbers are relative: r = seat - deciding seat mod players)

Cards on the table are named by (relative seat r, card index c): c is the card's rank among
the OCCUPIED slots of that grid in slot order (0 = its first card), so emptied slots take no
ids. K = `max_cards` (default 12) cards per grid are addressable; with P = players × K
positions, pos = r*K + c:

    0..8                draw, discard, kombio, skip, keep, swap (second step of 14), pass,
                        hand-over, penalty
    9 + c               replace (own card c)        9 + K + c     take (own card c)
    9 + 2K + c          give (own card c)
    9 + 3K + pos        peek pos                    9 + 3K + P + pos   snap pos
    9 + 3K + 2P + pos   swap pos (second step of 13)
    9 + 3K + 3P + i     peek pair i  (i indexes the unordered pairs pos1 < pos2, row by row)
    9 + 3K + 3P + Q + i swap pair i  (Q = P(P-1)/2)

Beyond the cap: a grid can grow past K cards (penalty cards, KO-8). Its cards past the K-th are
then neither in the observation nor addressable; the mask holds the legal decisions that name
only addressable cards, and is never empty (pass, skip, keep, discard, draw and the first cards
stay). Its `count` entry still shows the grid's true size.

## Kombio observation (seat blocks relative to the viewer, n = players)

    offset        size      content
    0             n*K*18    per seat r, per card c: +0 unseen ("?"), +1..+16 value one-hot
                            (-1..14) when the viewer has seen it, +17 peeked (13/14 pending);
                            all zero where the grid has no c-th card
    n*K*18        n*6       per seat: cards/K, caller, active, to move, round start,
                            total/target (below 0 after a negative round, KO-15; encoded
                            down to -1)
    ...           16        drawn card one-hot (-1..14), only in the drawer's own view
    ...           17        top discard card one-hot (-1..14), top already snapped (KO-9)
    ...           2         deck/70, discard pile/70
    ...           7         awaiting one-hot: turn, drawn, action, action_swap, snap, give,
                            hand_over
    ...           8         action card in use one-hot (7..14)
    ...           2         turns left after a call / players, snap answers so far / players
    ...           2         last closed snap window: a right snap, a wrong snap
"""

from __future__ import annotations

import numpy as np

from cardtable.core.errors import ConfigError
from cardtable.core.game import Decision, GameState

# -- Kombio -----------------------------------------------------------------------------------
KO_SIMPLE = ("draw", "discard", "kombio", "skip", "keep", "swap", "pass", "hand-over", "penalty")
KO_PHASES = ("turn", "drawn", "action", "action_swap", "snap", "give", "hand_over")
KO_SLOT_KINDS = ("replace", "take", "give")
KO_POS_KINDS = ("peek", "snap", "swap")


class KombioCodec:
    game = "kombio"
    #: the codec's own settings with their defaults (the research front ends' parameters)
    SETTINGS = {"max_cards": 12}

    def __init__(self, players: int, max_cards: int = 12, target: int = 100, **settings):
        if not isinstance(max_cards, int) or not 4 <= max_cards <= 64:
            raise ConfigError(f"max_cards must be a whole number 4..64, not {max_cards!r}")
        self.players = n = players
        self.K = K = max_cards
        self.target = target
        self.P = P = n * K
        self.Q = Q = P * (P - 1) // 2
        self.base_slot = 9
        self.base_pos = 9 + 3 * K
        self.base_pair = self.base_pos + 3 * P
        self.num_actions = self.base_pair + 2 * Q
        # pair index of (a, b), a < b: row a starts at a*P - a*(a+1)/2
        self._row = [a * P - a * (a + 1) // 2 for a in range(P)]
        self.grid_size = n * K * 18
        self.seat0 = self.grid_size
        rest = self.seat0 + n * 6
        self.o_drawn = rest
        self.o_top = rest + 16
        self.o_deck = rest + 33
        self.o_phase = rest + 35
        self.o_act = rest + 42
        self.o_turns = rest + 50
        self.o_snap = rest + 52
        self.obs_size = rest + 54
        high = np.ones(self.obs_size, np.float32)
        low = np.zeros(self.obs_size, np.float32)
        for r in range(n):
            high[self.seat0 + r * 6] = 70 / K
            high[self.seat0 + r * 6 + 5] = 1 + 470 / target
            # KO-15: a lone lowest caller scores their sum, down to -3 (three -1 cards), so a
            # total can fall below 0, round after round; it is encoded down to -target
            low[self.seat0 + r * 6 + 5] = -1
        self.obs_high = high
        self.obs_low = low
        self._parsed: dict[str, tuple] = {}

    def reward_range(self) -> tuple[float, float]:
        """The range of a seat's final "score" reward (minus its total, KO-16)."""
        return -(self.target + 500.0), 100.0

    # ids
    def pair_id(self, kind: str, a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        i = self._row[a] + (b - a - 1)
        return self.base_pair + (0 if kind == "peek" else self.Q) + i

    def describe(self, action: int) -> str:
        K, P = self.K, self.P
        if action < 9:
            return KO_SIMPLE[action]
        if action < self.base_pos:
            k, c = divmod(action - 9, K)
            return f"{KO_SLOT_KINDS[k]} own card {c}"
        if action < self.base_pair:
            k, pos = divmod(action - self.base_pos, P)
            return f"{KO_POS_KINDS[k]} seat +{pos // K} card {pos % K}"
        i = action - self.base_pair
        kind = "peek" if i < self.Q else "swap"
        i %= self.Q
        for a in range(P):
            if i < self._row[a] + (P - a - 1):
                b = a + 1 + i - self._row[a]
                return f"{kind} seat +{a // K} card {a % K} and seat +{b // K} card {b % K}"
        raise ValueError(f"no action {action}")

    def _parse(self, d: Decision) -> tuple:
        """(kind, args) of a legal decision, from the engine's own reading of it (`Decision.kind`
        and `.args`, kombio/cards.py): an own slot as an int, a table card as (seat, slot)."""
        p = self._parsed.get(d.text)
        if p is None:
            a = d.args
            if d.kind in KO_SLOT_KINDS:
                args = (a[0],)
            else:
                args = tuple((a[i], a[i + 1]) for i in range(0, len(a), 2))
            p = (d.kind, args)
            self._parsed[d.text] = p
        return p

    def legal(self, state: GameState, view: dict) -> dict[int, Decision]:
        n, K, P = self.players, self.K, self.P
        me = state.to_move
        rank: list[dict[int, int]] = []
        for g in view["grids"]:
            rk: dict[int, int] = {}
            for slot, v in enumerate(g, 1):
                if v is not None:
                    rk[slot] = len(rk)
            rank.append(rk)
        out: dict[int, Decision] = {}
        for d in state.legal_decisions():
            kind, args = self._parse(d)
            if not args:
                out[KO_SIMPLE.index(kind)] = d
            elif isinstance(args[0], int):                  # replace / take / give S
                c = rank[me][args[0]]
                if c < K:
                    out[self.base_slot + KO_SLOT_KINDS.index(kind) * K + c] = d
            else:
                pos = []
                for p, s in args:
                    c = rank[p][s]
                    if c >= K:
                        break
                    pos.append(((p - me) % n) * K + c)
                else:
                    if len(pos) == 1:
                        out[self.base_pos + KO_POS_KINDS.index(kind) * P + pos[0]] = d
                    else:
                        out[self.pair_id(kind, pos[0], pos[1])] = d
        return out

    def encode(self, view: dict) -> np.ndarray:
        n, K = self.players, self.K
        o = [0.0] * self.obs_size
        me = view["seat"]
        peeked = set()
        for t in view["peeked"]:
            p, s = t.split(".")
            peeked.add((int(p), int(s)))
        for p, g in enumerate(view["grids"]):
            r = (p - me) % n
            c = 0
            for slot, v in enumerate(g, 1):
                if v is None:
                    continue
                if c < K:
                    b = (r * K + c) * 18
                    o[b + (0 if v == "?" else v + 2)] = 1
                    if (p, slot) in peeked:
                        o[b + 17] = 1
                c += 1
        caller, active, to_move = view["caller"], view["active"], view["to_move"]
        for p in range(n):
            b = self.seat0 + ((p - me) % n) * 6
            o[b] = view["counts"][p] / K
            o[b + 1] = float(p == caller)
            o[b + 2] = float(p == active)
            o[b + 3] = float(p == to_move)
            o[b + 4] = float(p == view["round_start"])
            o[b + 5] = max(view["totals"][p], -self.target) / self.target
        if view["drawn"] is not None:
            o[self.o_drawn + view["drawn"] + 1] = 1
        if view["top"] is not None:
            o[self.o_top + view["top"] + 1] = 1
        o[self.o_top + 16] = float(bool(view["top_snapped"]))
        o[self.o_deck] = view["deck"] / 70
        o[self.o_deck + 1] = view["discard"] / 70
        if view["awaiting"] is not None:
            o[self.o_phase + KO_PHASES.index(view["awaiting"])] = 1
        if view["action"] is not None:
            o[self.o_act + view["action"] - 7] = 1
        if view["turns_left"] is not None:
            o[self.o_turns] = view["turns_left"] / n
        if view["window"] is not None:
            o[self.o_turns + 1] = view["window"]["answered"] / n
        snap = view["snap"]
        if snap is not None:
            o[self.o_snap + (0 if snap["right"] else 1)] = 1
        return np.array(o, np.float32)
