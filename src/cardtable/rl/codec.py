"""Fixed action ids and observation tensors for both games, read from the core protocol only:
a seat's view (`state.view(seat)`, NOTATION.md) and the legal decisions' notation texts. Every
research front end (PettingZoo, Gymnasium, OpenSpiel) uses the same codec, so an action id and a
tensor mean the same in all three.

`make_codec(game, players, **options)` returns an `AbluxxenCodec` or a `KombioCodec`:

    codec.num_actions               size of the fixed discrete action space
    codec.obs_size                  length of the observation tensor
    codec.obs_low, codec.obs_high   per-entry bounds (every entry is in [low, high]; low is 0
                                    except Kombio's totals, which can be below 0: KO-15)
    codec.legal(state, view)        {action id: Decision} for the seat to move; `view` is that
                                    seat's view (used to name pool positions / grid cards)
    codec.encode(view)              the observation tensor (float32) of the view's seat
    codec.describe(action)          a readable name of an action id (not a decision text:
                                    pool positions and Kombio cards depend on the state)

Each id maps to exactly one legal decision text when it is in the mask, and (within the Kombio
card cap below) the mask holds every legal decision: tests/rl/test_codec.py checks both at every
step of random games for every configuration.

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

from typing import Any

import numpy as np

from cardtable.core.errors import ConfigError
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

    def __init__(self, players: int):
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


# -- Kombio -----------------------------------------------------------------------------------
KO_SIMPLE = ("draw", "discard", "kombio", "skip", "keep", "swap", "pass", "hand-over", "penalty")
KO_PHASES = ("turn", "drawn", "action", "action_swap", "snap", "give", "hand_over")
KO_SLOT_KINDS = ("replace", "take", "give")
KO_POS_KINDS = ("peek", "snap", "swap")


class KombioCodec:
    game = "kombio"

    def __init__(self, players: int, max_cards: int = 12, target: int = 100):
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

    def _parse(self, text: str) -> tuple:
        p = self._parsed.get(text)
        if p is None:
            words = text.split(" ")
            args = []
            for w in words[1:]:
                if "." in w:
                    seat, slot = w.split(".")
                    args.append((int(seat), int(slot)))
                else:
                    args.append(int(w))
            p = (words[0], tuple(args))
            self._parsed[text] = p
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
            kind, args = self._parse(d.text)
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


def make_codec(game: str, players: int, **options: Any):
    if game == "abluxxen":
        return AbluxxenCodec(players)
    if game == "kombio":
        return KombioCodec(players, options.get("max_cards", 12), options.get("target", 100))
    raise ConfigError(f"unknown game {game!r} (abluxxen or kombio)")
