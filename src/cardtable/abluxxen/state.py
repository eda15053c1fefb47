"""Abluxxen (AMIGO 2022; duel; Ravensburger classic) — the rules engine.

Rules: see RULES.md (AB-*, DU-*, CL-*); each rule is implemented in one place below, named
by its clause id. The variant's `Rules` options switch AB-15, AB-20, the duel (and in it DU-4's
`shadow_partial` and DU-6's `shadow_blocks_draw`) and the tie-break.

Decision points (`awaiting`), each with one deciding seat (`to_move`, AB-21):
  play           the active player plays a set            play 7 7 X | play X X
  shadow         (duel) the active player picks a number  shadow 5
  take           the attacker takes or leaves the cards   take | leave
  keep           the victim keeps or discards them        keep | discard
  draw           the drawer draws one of the owed cards   draw deck | draw pool 8
  optional_draw  AB-15: one card or nothing               draw deck | draw pool 8 | pass

Representation (chosen for cheap copies and fast legal-move generation):
  hands[s]     counts per card (index 1..13, 14 = joker)
  displays[s]  layers bottom to top; a layer is a sorted tuple, so layer[0] is its value
               (14 for jokers alone) and len(layer) its size
  pool         items in position order; an item is a tuple (a single card, or a duel group,
               bottom card first)
  deck         top card last; discard: list of cards; shadow: counts per number
  known[s]     per card, how many of seat s's hand cards every player has seen go in and can
               be sure are still there (a lower bound; used for determinization)
"""

from __future__ import annotations

from typing import Any

from cardtable.abluxxen import cards as C
from cardtable.abluxxen.cards import JOKER, PLAY, SHADOW, cards_json, draw_pool
from cardtable.abluxxen.rules import RULES_VERSION, Rules, options_of
from cardtable.abluxxen.setup import POOL, deal, fill_shadow
from cardtable.core.errors import check_seat, refuse
from cardtable.core.game import Decision, GameState
from cardtable.core.rng import Rng

PHASES = ("play", "shadow", "take", "keep", "draw", "optional_draw")


def shadow_options(shadow: list[int], value: int, size: int, partial: bool) -> list[int]:
    """DU-4: the numbers a set of `size` cards and value `value` can shadowluxx: every number
    lower than the set's that lies at least `size` times (the shadow display has one layer, any
    set of its cards may be abluxxed). `partial` off (the former reading): a stack is taken
    whole, so it must hold exactly `size` cards."""
    return [v for v in range(1, min(value, 13))
            if shadow[v] == size or (partial and shadow[v] > size)]


class AbluxxenState(GameState):
    game = "abluxxen"

    __slots__ = (
        "players", "variant", "rules", "seed", "start", "deal_spec", "rng",
        "hands", "sizes", "known", "displays", "pool", "deck", "discard", "shadow", "shadow_size",
        "active", "phase", "_to_move", "pending", "owed", "after_draw", "check", "abluxxed",
        "cur_value", "cur_size", "history_", "_over", "_scores", "_winners", "_ended_by",
    )

    def __init__(self, players: int, variant: str, rules: Rules, seed: int, start: int,
                 deal_spec: dict | None):
        self.players = players
        self.variant = variant
        self.rules = rules
        self.seed = seed
        self.start = start
        self.deal_spec = deal_spec
        self.rng = Rng(seed)
        lay = deal(players, rules, self.rng, deal_spec)                 # AB-3, DU-1, DU-2
        self.hands = []
        for h in lay.hands:
            counts = [0] * 15
            for c in h:
                counts[c] += 1
            self.hands.append(counts)
        self.sizes = [len(h) for h in lay.hands]
        self.known = [[0] * 15 for _ in range(players)]
        self.displays = [[] for _ in range(players)]
        self.pool = lay.pool
        self.deck = lay.deck
        self.discard: list[int] = []
        self.shadow = lay.shadow
        self.shadow_size = sum(lay.shadow) if lay.shadow is not None else 0
        self.active = start                                              # AB-4, CL-1
        self.phase: str | None = "play"
        self._to_move: int | None = start
        self.pending: tuple[int, tuple] | None = None
        self.owed = 0
        self.after_draw = "check"
        self.check = 0
        self.abluxxed = False
        self.cur_value = 0
        self.cur_size = 0
        self.history_: list[str] = []
        self._over = False
        self._scores = None
        self._winners = None
        self._ended_by = None

    # -- protocol: history (to_move, awaiting, over: core.GameState) -----------------------
    @property
    def history(self):
        return self.history_

    # -- legal decisions --------------------------------------------------------------------
    def legal_decisions(self) -> list[Decision]:
        phase = self.phase
        if phase == "play":
            return self._plays()
        if phase == "take":
            return [C.TAKE, C.LEAVE]
        if phase == "keep":
            return [C.KEEP, C.DISCARD]
        if phase == "draw":
            return self._draws()
        if phase == "optional_draw":
            out = self._draws()
            out.append(C.PASS)
            return out
        if phase == "shadow":
            return [SHADOW[v] for v in self._shadow_options()]
        return []

    def _plays(self) -> list[Decision]:
        """AB-5: any k>=1 cards of one number with any j>=0 jokers, or j>=1 jokers alone."""
        hand = self.hands[self._to_move]
        jokers = hand[JOKER]
        out = []
        for v in range(1, 14):
            c = hand[v]
            if c:
                row = PLAY[v]
                for k in range(1, c + 1):
                    out.extend(row[k][: jokers + 1])
        if jokers:
            out.extend(PLAY[JOKER][0][1: jokers + 1])
        return out

    def _draws(self) -> list[Decision]:
        """AB-12: any pool item (equal items are one decision) or the deck's top card."""
        out = [C.DRAW_DECK] if self.deck else []
        seen = set()
        for item in self.pool:
            if item not in seen:
                seen.add(item)
                out.append(draw_pool(item))
        return out

    def _shadow_options(self) -> list[int]:
        return shadow_options(self.shadow, self.cur_value, self.cur_size,
                              self.rules.shadow_partial)

    # -- applying ---------------------------------------------------------------------------
    def parse(self, text: str) -> Decision:
        return C.parse(text)

    def decision_args(self, decision: Decision, seat: int | None) -> dict[str, Any]:
        return C.decision_args(decision)

    def apply(self, decision) -> None:
        d = decision if isinstance(decision, Decision) else C.parse(decision)
        phase = self.phase
        kind = d.kind
        if phase is None:
            raise refuse(d.text, "over")
        if phase == "play":
            if kind != "play":
                raise self._expecting(d)
            self._play(d)
        elif phase == "take":
            if kind == "take":
                self._take()
            elif kind == "leave":
                self._leave()
            else:
                raise self._expecting(d)
        elif phase == "keep":
            if kind == "keep":
                self._keep()
            elif kind == "discard":
                self._discard()
            else:
                raise self._expecting(d)
        elif phase == "draw" or phase == "optional_draw":
            if kind == "draw":
                self._draw(d)
            elif kind == "pass" and phase == "optional_draw":
                self._end_turn()
            else:
                raise self._expecting(d)
        elif phase == "shadow":
            if kind != "shadow":
                raise self._expecting(d)
            self._shadowluxx(d.args[0])
        self.history_.append(d.text)

    def _expecting(self, d: Decision):
        """The refusal of a decision of the wrong kind: what the phase expects instead."""
        options = ", ".join(self.legal_by_value()) if self.phase == "shadow" else ""  # DU-4
        return refuse(d.text, "ab.expect." + self.phase, seat=self._to_move,
                      player=self._to_move + 1, owed=self.owed,
                      options=options)

    # AB-5, AB-6, AB-7: play a set onto your display
    def _play(self, d: Decision) -> None:
        v, k, j = d.args
        s = self._to_move
        hand = self.hands[s]
        if v != JOKER and hand[v] < k:
            raise refuse(d.text, "ab.hold", have=hand[v], value=v, want=k)
        if hand[JOKER] < j:
            raise refuse(d.text, "ab.hold_jokers", have=hand[JOKER], want=j)
        if v != JOKER:
            hand[v] -= k
        hand[JOKER] -= j
        self.sizes[s] -= k + j
        known = self.known[s]
        if v != JOKER and known[v]:
            known[v] = max(0, known[v] - k)
        if j and known[JOKER]:
            known[JOKER] = max(0, known[JOKER] - j)
        layer = (v,) * k + (JOKER,) * j if v != JOKER else (JOKER,) * j
        self.displays[s].append(layer)                                   # AB-6
        if self.sizes[s] == 0:                                           # AB-7
            self._end("hand")
            return
        self.cur_value = v
        self.cur_size = k + j
        self.abluxxed = False
        self.check = 1
        if self.rules.duel and self._shadow_options():                  # DU-4
            self.phase = "shadow"
            return
        self._next_victim()

    # DU-4: shadowluxxing — as many cards of the chosen number as the set has go into the hand
    def _shadowluxx(self, v: int) -> None:
        options = self._shadow_options()
        if v not in options:
            raise refuse(f"shadow {v}", "ab.shadow_cannot", size=self.cur_size, value=v,
                         partial="yes" if self.rules.shadow_partial else "no",
                         options=", ".join(str(x) for x in options))
        n = self.cur_size
        self.shadow[v] -= n
        self.shadow_size -= n
        s = self._to_move
        self.hands[s][v] += n
        self.known[s][v] += n
        self.sizes[s] += n
        if self.rules.shadow_blocks_draw:                                # DU-6 (former reading)
            self.abluxxed = True
        if self.deck:                                                    # DU-7
            self.shadow_size = fill_shadow(self.shadow, self.shadow_size, self.pool, self.deck)
        self._next_victim()                                              # DU-5

    # AB-8, AB-9, AB-10, AB-20: once around the table from the left neighbour
    def _next_victim(self) -> None:
        n = self.players
        a = self.active
        v = self.cur_value
        size = self.cur_size
        ones = self.rules.ones_beat_top and v == 1
        displays = self.displays
        while self.check < n:
            s = (a + self.check) % n
            self.check += 1
            disp = displays[s]
            if not disp:
                continue
            top = disp[-1]
            if len(top) == size and (top[0] < v or (ones and top[0] >= 13)):
                disp.pop()                                               # AB-11
                self.pending = (s, top)
                self.abluxxed = True
                self.phase = "take"
                self._to_move = a
                return
        if not self.abluxxed and self.rules.optional_draw:              # AB-15, DU-6
            self.phase = "optional_draw"
            self._to_move = a
            self.after_draw = "end"
            return
        self._end_turn()

    # AB-11: the attacker decides
    def _take(self) -> None:
        victim, cards = self.pending
        a = self.active
        hand = self.hands[a]
        known = self.known[a]
        for c in cards:
            hand[c] += 1
            known[c] += 1
        self.sizes[a] += len(cards)
        self.pending = None
        self._owe(victim, len(cards))

    def _leave(self) -> None:
        self.phase = "keep"
        self._to_move = self.pending[0]

    def _keep(self) -> None:
        victim, cards = self.pending
        hand = self.hands[victim]
        known = self.known[victim]
        for c in cards:
            hand[c] += 1
            known[c] += 1
        self.sizes[victim] += len(cards)
        self.pending = None
        self._next_victim()

    def _discard(self) -> None:
        victim, cards = self.pending
        self.discard.extend(cards)
        self.pending = None
        self._owe(victim, len(cards))

    def _owe(self, seat: int, n: int) -> None:
        self.phase = "draw"
        self._to_move = seat
        self.owed = n
        self.after_draw = "check"

    # AB-12, AB-13, AB-14, AB-15, DU-3: one draw
    def _draw(self, d: Decision) -> None:
        s = self._to_move
        if d.args[0] == "deck":
            if not self.deck:
                raise refuse(d.text, "ab.deck_empty")
            c = self.deck.pop()
            self.hands[s][c] += 1
            self.sizes[s] += 1
        else:
            item = d.args[1]
            try:
                self.pool.remove(item)
            except ValueError:
                raise refuse(d.text, "ab.not_in_pool", pool=", ".join(
                    "+".join(C.card_text(c) for c in it) for it in self.pool)) from None
            hand = self.hands[s]
            known = self.known[s]
            for c in item:
                hand[c] += 1
                known[c] += 1
            self.sizes[s] += len(item)
        if self.phase == "optional_draw":
            self.owed = 1
        self.owed -= 1
        if not self.deck and not self.pool:                              # AB-14, CL-3
            self.owed = 0
            self._end("supply")
            return
        if self.owed:
            self.phase = "draw"
            return
        deck = self.deck                                                 # AB-12: refill
        pool = self.pool
        while len(pool) < POOL and deck:
            pool.append((deck.pop(),))
        if self.after_draw == "end":
            self._end_turn()
        else:
            self._next_victim()

    def _end_turn(self) -> None:                                         # AB-16
        self.active = (self.active + 1) % self.players
        self._to_move = self.active
        self.phase = "play"
        self.owed = 0

    # AB-17, AB-18, CL-4
    def _end(self, why: str) -> None:
        self._over = True
        self._ended_by = why
        self.phase = None
        self._to_move = None
        scores = [sum(len(layer) for layer in self.displays[s]) - self.sizes[s]
                  for s in range(self.players)]
        self._scores = scores
        best = max(scores)
        tied = [s for s in range(self.players) if scores[s] == best]
        if self.rules.tiebreak_fewer_hand and len(tied) > 1:
            fewest = min(self.sizes[s] for s in tied)
            tied = [s for s in tied if self.sizes[s] == fewest]
        self._winners = tied

    def scores(self):
        return list(self._scores) if self._scores is not None else None

    def winners(self):
        return list(self._winners) if self._winners is not None else None

    @property
    def ended_by(self) -> str | None:
        """'hand' (AB-7: a hand was emptied) or 'supply' (AB-14: deck and pool used up)."""
        return self._ended_by

    def tiebreak(self) -> str | None:
        """How the winners were found: None (one top score), 'fewer_hand' (AB-18), 'shared'."""
        if self._scores is None:
            return None
        best = max(self._scores)
        tied = [s for s in range(self.players) if self._scores[s] == best]
        if len(tied) == 1:
            return None
        return "fewer_hand" if len(self._winners) < len(tied) else "shared"

    # -- copies -----------------------------------------------------------------------------
    def copy(self) -> "AbluxxenState":
        new = object.__new__(AbluxxenState)
        new.players = self.players
        new.variant = self.variant
        new.rules = self.rules
        new.seed = self.seed
        new.start = self.start
        new.deal_spec = self.deal_spec
        new.rng = self.rng.copy()
        new.hands = [h[:] for h in self.hands]
        new.sizes = self.sizes[:]
        new.known = [k[:] for k in self.known]
        new.displays = [d[:] for d in self.displays]
        new.pool = self.pool[:]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.shadow = self.shadow[:] if self.shadow is not None else None
        new.shadow_size = self.shadow_size
        new.active = self.active
        new.phase = self.phase
        new._to_move = self._to_move
        new.pending = self.pending
        new.owed = self.owed
        new.after_draw = self.after_draw
        new.check = self.check
        new.abluxxed = self.abluxxed
        new.cur_value = self.cur_value
        new.cur_size = self.cur_size
        new.history_ = self.history_[:]
        new._over = self._over
        new._scores = self._scores
        new._winners = self._winners
        new._ended_by = self._ended_by
        return new

    def determinize(self, seat: int, seed: int | None = None) -> "AbluxxenState":
        """Re-deal what `seat` cannot see: the other hands' unknown cards and the deck order.
        Cards every player saw enter a hand (taken, kept, drawn from the pool) and that must
        still be there stay where they are."""
        check_seat(seat, self.players)
        new = self.copy()
        hidden: list[int] = list(self.deck)
        others = [s for s in range(self.players) if s != seat]
        for s in others:
            hand, known = self.hands[s], self.known[s]
            for c in range(1, 15):
                extra = hand[c] - known[c]
                if extra:
                    hidden.extend([c] * extra)
        hidden.sort()
        rng = Rng(seed if seed is not None else self.rng.spawn().below(2**62))
        rng.shuffle(hidden)
        for s in others:
            counts = self.known[s][:]
            for _ in range(self.sizes[s] - sum(counts)):
                counts[hidden.pop()] += 1
            new.hands[s] = counts
        new.deck = hidden
        new.rng = rng
        return new

    # -- views ------------------------------------------------------------------------------
    def hand_cards(self, seat: int) -> list[int]:
        h = self.hands[seat]
        return [c for c in range(1, 15) for _ in range(h[c])]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None:
            check_seat(seat, self.players)
        hands: list = []
        for s in range(self.players):
            if seat is None or s == seat:
                hands.append(cards_json(self.hand_cards(s)))
            else:
                hands.append(self.sizes[s])
        legal = self.legal() if (seat is None or seat == self._to_move) else []
        shadow = None
        if self.shadow is not None:
            shadow = [[v] * self.shadow[v] for v in range(1, 13) if self.shadow[v]]
        return {
            "game": "abluxxen",
            "rules_version": RULES_VERSION,
            "variant": self.variant,
            "options": options_of(self.rules),
            "players": self.players,
            "seat": seat,
            "active": None if self._over else self.active,
            "to_move": self._to_move,
            "awaiting": self.phase,
            "hands": hands,
            "hand_counts": self.sizes[:],
            "displays": [[cards_json(layer) for layer in d] for d in self.displays],
            "pool": [[C.card_json(c) for c in item] for item in self.pool],
            "deck": len(self.deck),
            "discard": len(self.discard),
            "shadow": shadow,
            "pending": ({"victim": self.pending[0], "cards": cards_json(self.pending[1])}
                        if self.pending else None),
            "owed": self.owed if self.phase == "draw" else 0,
            "legal": legal,
            "over": self._over,
            "scores": self.scores(),
            "winners": self.winners(),
            "ended_by": self._ended_by,
        }

    # -- records ----------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "game": "abluxxen",
            "rules_version": RULES_VERSION,
            "variant": self.variant,
            "players": self.players,
            "seed": self.seed,
            "start": self.start,
        }
        rec["options"] = options_of(self.rules)         # every option: replays under any defaults
        if self.deal_spec:
            rec["deal"] = self.deal_spec
        rec["actions"] = list(self.history_)
        return rec

    def check_invariants(self) -> None:
        counts = [0] * 15
        for s in range(self.players):
            h = self.hands[s]
            assert all(x >= 0 for x in h), f"negative hand count at seat {s}"
            assert sum(h) == self.sizes[s], f"hand size of seat {s} out of step"
            assert all(self.known[s][c] <= h[c] for c in range(15)), "known exceeds hand"
            for c in range(15):
                counts[c] += h[c]
            for layer in self.displays[s]:
                assert layer and list(layer) == sorted(layer)
                assert len({c for c in layer if c != JOKER}) <= 1, "mixed layer"
                for c in layer:
                    counts[c] += 1
        for item in self.pool:
            for c in item:
                counts[c] += 1
        for c in self.deck + self.discard:
            counts[c] += 1
        if self.pending:
            for c in self.pending[1]:
                counts[c] += 1
        if self.shadow is not None:
            assert sum(self.shadow) == self.shadow_size
            assert self.shadow[13] == 0 and self.shadow[JOKER] == 0
            for c in range(15):
                counts[c] += self.shadow[c]
        assert counts == C.COPIES, f"card conservation broken: {counts}"
        assert len(self.pool) <= POOL
        if not self._over:
            assert self.deck or self.pool, "deck and pool empty but game not over"
