"""Kombio (Game Factory 2022) — the rules engine.

Rules: see RULES.md (KO-1..KO-16); each rule is implemented in one place below, named by its
clause id.

Decision points (`awaiting`), each with exactly one deciding seat (`to_move`):
  turn         the active player: KO-5            draw | take S | kombio
  drawn        the drawer: KO-5.1                 replace S | discard
  action       the drawer, after discarding a drawn action card: KO-6
               7/8: peek P.S (own)   9/10: peek P.S (another's)   11/12: swap P.S P.S
               13: peek P.S          14: peek P.S P.S              always: skip
  action_swap  second step of 13/14: KO-6         13: swap P.S | keep     14: swap | keep
  snap         the snap window, KO-8..KO-10: each eligible seat in turn   pass | snap P.S
  give         the snapper, after a right snap on another's card (KO-8)   give S
  hand_over    the owner, after a wrong snap on their card (KO-8)         hand-over | penalty
Every decision point waits for its decision, also when only one is legal.

Order of a turn (the timing choices, KO-10):
  1. `turn`; a Kombio call ends the turn at once: no snap window (KO-10, KO-12).
  2. after `draw`: `drawn`; after `discard` of a drawn action card: `action` (and `action_swap`).
     The action is used *before* the snap window opens, so "if somebody snaps onto the card you
     just discarded, you may still use its action" (KO-10) holds trivially: the action is always
     complete when anybody may snap. The snapped card never gives an action (KO-6).
  3. the snap window opens on the turn's new top discard card (after `replace`, `take`, a
     plain `discard`, or the complete action). Eligible are all seats except, with 3+ players,
     a Kombio caller (KO-12); they answer one after another in seat order from the active
     player (the active player included). An answer is hidden from the other seats until the
     window closes (their views show how many answered, never what). At the close, one of the
     claims wins, drawn with the game's Rng when there are several (KO-10); the others lapse.
     The winning claim is carried out (KO-8), possibly with a follow-up decision: `give` or
     `hand_over`. Only one snap per top card (KO-9): one window per turn.
  4. the round ends at once if a grid is empty (KO-13, checked once the snap is fully carried
     out, i.e. after `give`); else after a call when every other player had one more turn
     (KO-12); else the next seat clockwise has the turn. A seat with no legal turn decision is
     skipped (KO-14). The skip is implemented but cannot arise in play: before a call `kombio`
     is legal; with an empty deck and a discard pile of one card (no draw) that card may always
     be taken, because the pile is cut to one card only by a reshuffle, in a draw (which then
     adds a card) or for a penalty (which follows a wrong snap, so the top card is no snap).
  5. a round ends with scoring (KO-15); unless a total reached the target (KO-16) the next
     round is dealt at once, its start seat one seat clockwise (KO-4).

Termination: before a call `kombio` is always legal, so uniformly random players end every round
with probability 1 (a call ends the round within one circuit). Players who never call could
play a round forever; the engine option `max_turns` (off by default; not a rule) ends a round
with no call after that many turns, scored as a round without a caller.

Representation (chosen for cheap copies and fast legal-move generation):
  grids[p]     card ids per slot (index = slot - 1), -1 for an empty slot (KO-3)
  counts[p]    cards in grid p
  deck         card ids, top card last;  discard: card ids, top card last
  drawn        the drawn card not yet placed (-1 if none)
  known[p]     bit set of the card ids seat p has seen privately (KO-2 peek, its drawn card,
               action peeks); public: bit set of the ids everybody has seen (discarded cards,
               turned-up snapped cards, KO-15 reveal). Knowledge is by identity, so it follows a
               card wherever it moves (swaps, gives, hand-overs: KO-11); seeing which slots were
               swapped is implied. A reshuffle (KO-14) makes the reshuffled cards unknown again.
  claims       the snap window's claims so far: (seat, P, S) — hidden from other seats
  hist         the decisions taken, as cons cells (previous, text): copies share them
  plog         the round's public events as cons cells (previous, event), for the bots'
               beliefs (`kombio.heuristics`): what every player saw happen to the grids, with
               the values made public by it (slots 0-based):
                 (REPLACED, p, i, value of the replaced card, 1 if p had seen it else 0)
                 (DISCARDED, p, value)     p discarded the card it drew
                 (TOOK, p, i, value of the replaced card, 1 if p had seen it else 0)
                                           p took the top discard card into slot i
                 (SWAPPED, p1, i1, p2, i2)
                 (LOOKED, p, i)            p looked at its own slot i (KO-6 7/8, 13, 14)
                 (EMPTIED, p, i)           a snapped or handed-over card left slot i
                 (GAVE, w, i, p, j)        w gave its slot i into p's emptied slot j
  rng          shared by copies until one needs randomness (copy-on-write, see `rng`)

View keys beyond NOTATION.md: `seat` (the viewer), `round_start`, `counts` (cards per grid),
`top_snapped` (KO-9), `turns_left` (after a call), `action` (the action card in use),
`peeked` (the slots looked at in a 13/14 awaiting its swap: public, the values are not),
`window` (while snapping: `order`, `answered`, and `answers` — in a seat's view only its own),
`snap` (the result of the last closed window: winner, card, value, right, every claim),
`target`, `scores` (the totals once over).
"""

from __future__ import annotations

from typing import Any

from cardtable.core.errors import IllegalDecision, check_seat, refuse
from cardtable.core.game import Decision, GameState, Window
from cardtable.core.rng import Rng
from cardtable.kombio import cards as C
from cardtable.kombio.cards import (
    DISCARD, DRAW, GIVE, HAND_OVER, KEEP, KOMBIO, PASS, PEEK, PENALTY, REPLACE, SKIP, SNAP,
    SWAP, SWAP1, TAKE, VALUE, pair,
)
from cardtable.kombio.setup import Deal, deal

#: Engine options (not rules): `max_turns` ends a round without a Kombio call after that many
#: turns (a safeguard against players who never call; default off).
OPTION_NAMES = ("max_turns",)
#: the version of the rules (RULES.md revision) this engine plays; a record says which it was
#: played under (NOTATION.md `rules_version`), and a record of a version not listed here is
#: refused rather than replayed under other rules
RULES_VERSION = "2026-11-26"
RULES_VERSIONS = (RULES_VERSION,)

PHASES = ("turn", "drawn", "action", "action_swap", "snap", "give", "hand_over")

#: the kinds of the public events in `plog` (module docstring)
REPLACED, DISCARDED, TOOK, SWAPPED, LOOKED, EMPTIED, GAVE = range(7)

_TEXTS = C._TEXT
_ORDERS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _window_order(n: int, active: int, excluded: int) -> tuple[int, ...]:
    """KO-10: eligible seats in seat order from the active player."""
    key = (n, active, excluded)
    order = _ORDERS.get(key)
    if order is None:
        order = tuple(s for s in ((active + i) % n for i in range(n)) if s != excluded)
        _ORDERS[key] = order
    return order


def _bits(ids) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


class KombioState(GameState):
    game = "kombio"

    __slots__ = (
        "players", "seed", "start", "target", "deals", "deal_raw", "deals_raw", "options",
        "max_turns", "_rng",
        "round_no", "round_start", "grids", "counts", "deck", "discard", "drawn", "top_snapped",
        "known", "public", "caller", "taboo", "turns_left", "turn_no",
        "active", "phase", "_to_move", "act", "peeked",
        "win_order", "win_idx", "claims", "snap_info", "victim", "snapper",
        "round_scores", "totals", "hist", "_over", "_winners", "last_round", "plog",
    )

    def __init__(self, players: int, seed: int, start: int, target: int,
                 deals: list[Deal | None], deal_raw=None, deals_raw=None,
                 options: dict | None = None):
        self.players = players
        self.seed = seed
        self.start = start
        self.target = target
        self.deals = deals
        self.deal_raw = deal_raw
        self.deals_raw = deals_raw
        self.options = dict(options or {})
        self.max_turns = self.options.get("max_turns") or 0
        self._rng = Rng(seed)
        self.round_no = 0
        self.round_scores: list[list[int]] = []
        self.last_round: dict | None = None   # KO-15: the last finished round, as revealed
        self.totals = [0] * players
        self.hist = None                      # history as cons cells (prev, text): O(1) copy
        self._over = False
        self._winners = None
        self._new_round()

    # -- KO-2, KO-4: a round -------------------------------------------------------------------
    def _new_round(self) -> None:
        self.round_no += 1
        n = self.players
        r = self.round_no
        self.round_start = (self.start + r - 1) % n                    # KO-4 interpretation
        spec = self.deals[r - 1] if r - 1 < len(self.deals) else None
        grids, deck = deal(n, self.rng, spec)                          # KO-2
        self.grids = grids
        self.counts = [len(g) for g in grids]
        self.deck = deck
        self.discard: list[int] = []
        self.drawn = -1
        self.top_snapped = False
        self.known = [(1 << g[2]) | (1 << g[3]) for g in grids]        # KO-2: own slots 3, 4
        self.public = 0
        self.caller: int | None = None
        self.taboo = -1
        self.turns_left = 0
        self.turn_no = 0
        self.act = 0
        self.peeked: tuple = ()
        self.win_order: tuple = ()
        self.win_idx = 0
        self.claims: tuple = ()
        self.snap_info = None
        self.victim = None
        self.snapper = -1
        self.plog = None
        self.active = self.round_start
        self.phase: str | None = "turn"
        self._to_move: int | None = self.active

    @property
    def rng(self) -> Rng:
        """The game's one generator (KO-2 deals, KO-10 snap draws, KO-14 reshuffles)."""
        return self._rng

    # -- protocol: history (to_move, awaiting, over: core.GameState) --------------------------
    @property
    def history(self) -> list[str]:
        out = []
        h = self.hist
        while h is not None:
            h, t = h
            out.append(t)
        out.reverse()
        return out

    # -- simultaneous decisions and rounds (core/game.py) --------------------------------------
    def window(self) -> Window | None:
        """KO-8..KO-10: the open snap window: the eligible seats that have not answered yet, in
        seat order from the active player; a seat's silence is a pass."""
        if self.phase != "snap":
            return None
        return Window(self.win_order[self.win_idx:], PASS.text, "snap")

    def round(self) -> int:
        """KO-4: the round being played (the last one once the game is over)."""
        return self.round_no

    # -- legal decisions -----------------------------------------------------------------------
    def legal_decisions(self) -> list[Decision]:
        phase = self.phase
        if phase == "snap":                                            # KO-8, KO-12
            out = [PASS]
            tb = self.taboo
            for p, g in enumerate(self.grids):
                if p != tb:
                    row = SNAP[p]
                    out += [row[i] for i, c in enumerate(g, 1) if c >= 0]
            return out
        if phase == "turn":                                            # KO-5
            g = self.grids[self.active]
            out = [DRAW] if (self.deck or len(self.discard) > 1) else []
            if self.discard and not self.top_snapped:
                out += [TAKE[i] for i, c in enumerate(g, 1) if c >= 0]
            if self.caller is None:
                out.append(KOMBIO)
            return out
        if phase == "drawn":
            out = [REPLACE[i] for i, c in enumerate(self.grids[self.active], 1) if c >= 0]
            out.append(DISCARD)
            return out
        if phase == "action":
            return self._action_options()
        if phase == "action_swap":
            if self.act == 13:
                a = self.peeked[0]
                out = [SWAP1[p][s] for p, s in self._positions() if (p, s) != a]
                out.append(KEEP)
                return out
            return [SWAP, KEEP]
        if phase == "give":
            return [GIVE[i] for i, c in enumerate(self.grids[self._to_move], 1) if c >= 0]
        if phase == "hand_over":
            return [HAND_OVER, PENALTY]
        return []

    def _positions(self) -> list[tuple[int, int]]:
        """Every card that may be looked at or swapped: occupied, not taboo (KO-7, KO-12)."""
        tb = self.taboo
        return [(p, i) for p, g in enumerate(self.grids) if p != tb
                for i, c in enumerate(g, 1) if c >= 0]

    def _action_options(self) -> list[Decision]:                      # KO-6
        act = self.act
        a = self.active
        if act <= 8:
            row = PEEK[a]
            out = [row[i] for i, c in enumerate(self.grids[a], 1) if c >= 0]
        elif act <= 10:
            out = [PEEK[p][s] for p, s in self._positions() if p != a]
        elif act == 13:
            out = [PEEK[p][s] for p, s in self._positions()]
        else:
            kind = "swap" if act <= 12 else "peek"
            pos = self._positions()
            out = [pair(kind, p1, s1, p2, s2)
                   for i, (p1, s1) in enumerate(pos) for p2, s2 in pos[i + 1:]]
        out.append(SKIP)
        return out

    def legal(self) -> list[str]:
        return sorted(d.text for d in self.legal_decisions())

    def is_legal(self, decision) -> bool:
        try:
            d = C.parse(decision)
        except IllegalDecision:
            return False
        return d in self.legal_decisions()

    # -- applying ------------------------------------------------------------------------------
    def parse(self, text) -> Decision:
        return C.parse(text)

    def decision_args(self, decision: Decision, seat: int | None) -> dict[str, Any]:
        return C.decision_args(decision, seat)

    def apply(self, decision) -> None:
        if decision.__class__ is Decision and _TEXTS.get(decision.text) is decision:
            d = decision
        else:
            d = C.parse(decision)
        phase = self.phase
        kind = d.kind
        if phase is None:
            raise refuse(d.text, "over")
        if phase == "snap":
            if kind == "pass":
                self._answer(None)
            elif kind == "snap":
                self._answer(d)
            else:
                raise self._expecting(d)
        elif phase == "turn":
            if kind == "draw":
                self._draw(d)
            elif kind == "take":
                self._take(d)
            elif kind == "kombio":
                self._kombio(d)
            else:
                raise self._expecting(d)
        elif phase == "drawn":
            if kind == "replace":
                self._replace(d)
            elif kind == "discard":
                self._discard_drawn()
            else:
                raise self._expecting(d)
        elif phase == "action":
            self._action(d)
        elif phase == "action_swap":
            self._action_swap(d)
        elif phase == "give":
            if kind != "give":
                raise self._expecting(d)
            self._give(d)
        else:  # hand_over
            if kind == "hand-over":
                self._hand_over()
            elif kind == "penalty":
                self._penalty_choice()
            else:
                raise self._expecting(d)
        self.hist = (self.hist, d.text)

    def _expecting(self, d: Decision) -> IllegalDecision:
        """The refusal of a decision of the wrong kind: what the phase expects instead."""
        act = self.act
        kind = ("own" if act <= 8 else "other_card" if act <= 10 else "swap" if act <= 12
                else "one" if act == 13 else "two")
        return refuse(d.text, "ko.expect." + self.phase, seat=self._to_move, act=act,
                      kind=kind)

    # checks that refuse before anything changes
    def _own_slot(self, d: Decision, s: int) -> int:
        g = self.grids[self._to_move]
        if s > len(g) or g[s - 1] < 0:
            raise refuse(d.text, "ko.no_card", slot=s, slots=self._slots_text(self._to_move))
        return s - 1

    def _slots_text(self, p: int) -> str:
        slots = [str(i) for i, c in enumerate(self.grids[p], 1) if c >= 0]
        return ", ".join(slots) if slots else "—"

    def _check_pos(self, d: Decision, p: int, s: int) -> int:
        """A card on the table that may be looked at, swapped or snapped (KO-7, KO-12)."""
        if p >= self.players:
            raise refuse(d.text, "ko.no_seat", seat=p, max=self.players - 1)
        g = self.grids[p]
        if s > len(g):
            raise refuse(d.text, "ko.no_slot", seat=p, slot=s, max=len(g))
        c = g[s - 1]
        if c < 0:
            raise refuse(d.text, "ko.empty_slot", pos=f"{p}.{s}")
        if p == self.taboo:
            raise refuse(d.text, "ko.taboo", seat=p)
        return c

    # KO-5.1: draw from the deck
    def _draw(self, d: Decision) -> None:
        if not self.deck:
            if len(self.discard) <= 1:
                raise refuse(d.text, "ko.deck_empty")
            self._reshuffle()                                          # KO-14
        c = self.deck.pop()
        self.drawn = c
        self.known[self.active] |= 1 << c
        self.phase = "drawn"

    def _replace(self, d: Decision) -> None:
        i = self._own_slot(d, d.args[0])
        g = self.grids[self.active]
        old = g[i]
        a = self.active
        self.plog = (self.plog, (REPLACED, a, i, VALUE[old], (self.known[a] >> old) & 1))
        g[i] = self.drawn
        self.drawn = -1
        self._to_discard(old)              # KO-6: a card replaced out of a grid gives no action
        self._open_window()

    def _discard_drawn(self) -> None:
        c = self.drawn
        self.drawn = -1
        self._to_discard(c)
        v = VALUE[c]
        self.plog = (self.plog, (DISCARDED, self.active, v))
        if v >= C.ACTION_MIN:                                          # KO-5.1, KO-6
            self.act = v
            self.phase = "action"
        else:
            self._open_window()

    # KO-5.2: take the top discard card
    def _take(self, d: Decision) -> None:
        if not self.discard:
            raise refuse(d.text, "ko.pile_empty")
        if self.top_snapped:
            raise refuse(d.text, "ko.snapped_top")
        i = self._own_slot(d, d.args[0])
        g = self.grids[self.active]
        c = self.discard.pop()
        old = g[i]
        a = self.active
        self.plog = (self.plog, (TOOK, a, i, VALUE[old], (self.known[a] >> old) & 1))
        g[i] = c
        self._to_discard(old)
        self._open_window()

    # KO-5.3, KO-12: call Kombio
    def _kombio(self, d: Decision) -> None:
        if self.caller is not None:
            raise refuse(d.text, "ko.called", seat=self.caller)
        a = self.active
        self.caller = a
        if self.players > 2:
            self.taboo = a
        self.turns_left = self.players - 1
        self.turn_no += 1
        self._advance()                                # no snap window after a call (KO-10)

    # KO-6: actions
    def _action(self, d: Decision) -> None:
        kind = d.kind
        act = self.act
        a = self.active
        args = d.args
        if kind == "skip":
            self._open_window()
            return
        if kind == "peek" and len(args) == 2:
            p, s = args
            if act in (11, 12):
                raise refuse(d.text, "ko.swap_blind", act=act)
            if act == 14:
                raise refuse(d.text, "ko.peek_two")
            if act <= 8 and p != a:
                raise refuse(d.text, "ko.peek_own", act=act)
            if 9 <= act <= 10 and p == a:
                raise refuse(d.text, "ko.peek_other", act=act)
            c = self._check_pos(d, p, s)
            self.known[a] |= 1 << c
            if p == a:
                self.plog = (self.plog, (LOOKED, a, s - 1))
            if act == 13:
                self.peeked = ((p, s),)
                self.phase = "action_swap"
            else:
                self._open_window()
            return
        if kind == "peek" and len(args) == 4 and act == 14:
            c1 = self._check_pos(d, args[0], args[1])
            c2 = self._check_pos(d, args[2], args[3])
            self.known[a] |= (1 << c1) | (1 << c2)
            for p, s in ((args[0], args[1]), (args[2], args[3])):
                if p == a:
                    self.plog = (self.plog, (LOOKED, a, s - 1))
            self.peeked = ((args[0], args[1]), (args[2], args[3]))
            self.phase = "action_swap"
            return
        if kind == "swap" and len(args) == 4 and act in (11, 12):
            self._check_pos(d, args[0], args[1])
            self._check_pos(d, args[2], args[3])
            self._swap(*args)
            self._open_window()
            return
        raise self._expecting(d)

    def _action_swap(self, d: Decision) -> None:
        kind = d.kind
        if kind == "keep":
            self._open_window()
            return
        if kind == "swap":
            args = d.args
            if self.act == 13 and len(args) == 2:
                p, s = args
                if (p, s) == self.peeked[0]:
                    raise refuse(d.text, "ko.swap_other")
                self._check_pos(d, p, s)
                (q, t), = self.peeked
                self._swap(q, t, p, s)
                self._open_window()
                return
            if self.act == 14 and not args:
                (p1, s1), (p2, s2) = self.peeked
                self._swap(p1, s1, p2, s2)
                self._open_window()
                return
        raise self._expecting(d)

    def _swap(self, p1: int, s1: int, p2: int, s2: int) -> None:       # KO-7, KO-11
        g1 = self.grids[p1]
        g2 = self.grids[p2]
        g1[s1 - 1], g2[s2 - 1] = g2[s2 - 1], g1[s1 - 1]
        self.plog = (self.plog, (SWAPPED, p1, s1 - 1, p2, s2 - 1))

    def _to_discard(self, c: int) -> None:
        self.discard.append(c)
        self.public |= 1 << c                                          # face up: seen by all
        self.top_snapped = False

    # KO-14: reshuffle the discard pile except its top card
    def _reshuffle(self) -> None:
        d = self.discard
        cards = d[:-1]
        self.discard = d[-1:]
        self.rng.shuffle(cards)
        self.deck = cards
        keep = ~_bits(cards)
        self.public &= keep
        self.known = [k & keep for k in self.known]

    # KO-8..KO-10: the snap window
    def _open_window(self) -> None:
        self.act = 0
        self.peeked = ()
        order = _window_order(self.players, self.active, self.taboo)
        self.win_order = order
        self.win_idx = 0
        self.claims = ()
        self.phase = "snap"
        self._to_move = order[0]

    def _answer(self, d: Decision | None) -> None:
        if d is not None:
            p, s = d.args
            self._check_pos(d, p, s)
            self.claims = self.claims + ((self._to_move, p, s),)
        self.win_idx += 1
        if self.win_idx < len(self.win_order):
            self._to_move = self.win_order[self.win_idx]
            return
        self._close_window()

    def _close_window(self) -> None:
        claims = self.claims
        self.win_order = ()
        self.win_idx = 0
        self.claims = ()
        if not claims:
            self.snap_info = None
            self._turn_done()
            return
        n = len(claims)
        w, p, s = claims[0] if n == 1 else claims[self.rng.below(n)]  # KO-10: who was first
        g = self.grids[p]
        c = g[s - 1]
        self.public |= 1 << c                                          # KO-8, KO-11: turned up
        right = VALUE[c] == VALUE[self.discard[-1]]
        self.snap_info = (w, p, s, VALUE[c], right, claims)
        if right:
            g[s - 1] = -1
            self.counts[p] -= 1
            self.plog = (self.plog, (EMPTIED, p, s - 1))
            self.discard.append(c)
            self.top_snapped = True                                    # KO-9
            if p != w:
                self.victim = (p, s)
                self.phase = "give"
                self._to_move = w
                return
        elif p != w:
            self.victim = (p, s)
            self.snapper = w
            self.phase = "hand_over"
            self._to_move = p
            return
        else:
            self._penalty(w)
        self._turn_done()

    # KO-8: right snap on another's card: the snapper gives a card into the emptied slot
    def _give(self, d: Decision) -> None:
        i = self._own_slot(d, d.args[0])
        w = self._to_move
        g = self.grids[w]
        c = g[i]
        g[i] = -1
        self.counts[w] -= 1
        p, s = self.victim
        self.grids[p][s - 1] = c                                       # KO-11: emptied slot
        self.plog = (self.plog, (GAVE, w, i, p, s - 1))
        self.counts[p] += 1
        self.victim = None
        self._turn_done()

    # KO-8: wrong snap on another's card: the owner chooses
    def _hand_over(self) -> None:
        p, s = self.victim
        g = self.grids[p]
        c = g[s - 1]
        g[s - 1] = -1
        self.counts[p] -= 1
        self.plog = (self.plog, (EMPTIED, p, s - 1))
        self._add_card(self.snapper, c)                                # KO-11: next new slot
        self.victim = None
        self.snapper = -1
        self._turn_done()

    def _penalty_choice(self) -> None:
        self._penalty(self.snapper)
        self.victim = None
        self.snapper = -1
        self._turn_done()

    def _penalty(self, w: int) -> None:
        """KO-8 penalty card, unseen, into the next new slot; KO-14 if the deck is empty."""
        if not self.deck:
            if len(self.discard) <= 1:
                return
            self._reshuffle()
        self._add_card(w, self.deck.pop())

    def _add_card(self, w: int, c: int) -> None:
        g = self.grids[w]
        g.append(c)                                                    # KO-3: a new slot
        self.counts[w] += 1
        if len(g) > C.slots_covered:
            C.ensure_slots(len(g))

    # -- turns and rounds ----------------------------------------------------------------------
    def _turn_done(self) -> None:
        if 0 in self.counts:                                           # KO-13
            self._end_round()
            return
        self.turn_no += 1
        if self.caller is not None:
            self.turns_left -= 1                                       # KO-12
        self._advance()

    def _advance(self) -> None:
        n = self.players
        while True:
            if self.caller is not None:
                if self.turns_left <= 0:                               # KO-12
                    self._end_round()
                    return
            elif self.max_turns and self.turn_no >= self.max_turns:    # engine option
                self._end_round()
                return
            a = (self.active + 1) % n
            self.active = a
            if (self.caller is None or self.deck or len(self.discard) > 1
                    or (self.discard and not self.top_snapped)):
                self.phase = "turn"
                self._to_move = a
                return
            self.turn_no += 1                                          # KO-14: skipped
            self.turns_left -= 1

    def _end_round(self) -> None:
        """KO-15 scoring, KO-16 the end of the game, else the next round (KO-4)."""
        n = self.players
        grids = self.grids
        sums = [sum(VALUE[c] for c in g if c >= 0) for g in grids]   # no cards: 0
        scores = sums[:]
        caller = self.caller
        if caller is not None:
            cs = sums[caller]
            if all(cs < sums[t] for t in range(n) if t != caller):
                for t in range(n):
                    if t != caller and self.counts[t]:
                        scores[t] += 10
            else:
                scores[caller] += 15       # also a 2-player caller who snapped its grid empty
        self.round_scores.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        for g in grids:                                                # KO-15: reveal
            self.public |= _bits(c for c in g if c >= 0)
        self.last_round = {"round": self.round_no, "caller": caller, "sums": sums,
                           "scores": scores,
                           "grids": [[VALUE[c] if c >= 0 else None for c in g] for g in grids]}
        if max(self.totals) >= self.target:                            # KO-16
            best = min(self.totals)
            tied = [s for s in range(n) if self.totals[s] == best]
            if len(tied) > 1:
                low = min(scores[s] for s in tied)
                tied = [s for s in tied if scores[s] == low]
            self._winners = tied
            self._over = True
            self.phase = None
            self._to_move = None
            self.claims = ()
            return
        self._new_round()

    # -- outcome -------------------------------------------------------------------------------
    def scores(self):
        return list(self.totals) if self._over else None

    def winners(self):
        return list(self._winners) if self._winners is not None else None

    # -- copies --------------------------------------------------------------------------------
    def copy(self) -> "KombioState":
        new = object.__new__(KombioState)
        new.players = self.players
        new.seed = self.seed
        new.start = self.start
        new.target = self.target
        new.deals = self.deals
        new.deal_raw = self.deal_raw
        new.deals_raw = self.deals_raw
        new.options = self.options
        new.max_turns = self.max_turns
        new._rng = self._rng.copy()                    # copy-on-write (core.rng)
        new.round_no = self.round_no
        new.round_start = self.round_start
        new.grids = [g[:] for g in self.grids]
        new.counts = self.counts[:]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.drawn = self.drawn
        new.top_snapped = self.top_snapped
        new.known = self.known[:]
        new.public = self.public
        new.caller = self.caller
        new.taboo = self.taboo
        new.turns_left = self.turns_left
        new.turn_no = self.turn_no
        new.active = self.active
        new.phase = self.phase
        new._to_move = self._to_move
        new.act = self.act
        new.peeked = self.peeked
        new.win_order = self.win_order
        new.win_idx = self.win_idx
        new.claims = self.claims
        new.snap_info = self.snap_info
        new.victim = self.victim
        new.snapper = self.snapper
        new.round_scores = self.round_scores[:]        # rows are never changed once appended
        new.last_round = self.last_round               # never changed once made
        new.totals = self.totals[:]
        new.hist = self.hist
        new.plog = self.plog
        new._over = self._over
        new._winners = self._winners
        return new

    # -- information ---------------------------------------------------------------------------
    def seen(self, seat: int) -> int:
        """Bit set of the card ids `seat` has seen and can follow (KO-2, KO-6, KO-11)."""
        return self.known[seat] | self.public

    def card_seen(self, seat: int, p: int, s: int) -> int | None:
        """The value at P.S if `seat` has seen that card, else None (also for empty slots)."""
        g = self.grids[p]
        if s > len(g):
            return None
        c = g[s - 1]
        if c < 0 or not ((self.known[seat] | self.public) >> c) & 1:
            return None
        return VALUE[c]

    def determinize(self, seat: int, seed: int | None = None) -> "KombioState":
        """Re-deal every card `seat` has not seen: its own and the others' unseen grid cards,
        somebody else's drawn card and the deck order. Cards move by identity, so who knows
        which slot is kept (another seat's knowledge is moved to the new card in that slot).
        The other seats' answers in an open snap window are unknown to `seat`: they become
        passes. The copy gets a new generator (future shuffles and snap draws)."""
        check_seat(seat, self.players)
        new = self.copy()
        seen = self.known[seat] | self.public
        places: list[tuple[int, int]] = []
        old: list[int] = []
        for p, g in enumerate(self.grids):
            for i, c in enumerate(g):
                if c >= 0 and not (seen >> c) & 1:
                    places.append((p, i))
                    old.append(c)
        drawn_hidden = self.drawn >= 0 and not (seen >> self.drawn) & 1
        if drawn_hidden:
            old.append(self.drawn)
        hidden = old + self.deck
        if seed is None:
            seed = self._rng.copy().below(2**62)
        rng = Rng(seed)
        perm = sorted(hidden)  # a function of the view only: same view + seed, same sample
        rng.shuffle(perm)
        for k, (p, i) in enumerate(places):
            new.grids[p][i] = perm[k]
        k = len(places)
        if drawn_hidden:
            new.drawn = perm[k]
            k += 1
        new.deck = perm[k:]
        hmask = _bits(old)
        for t in range(self.players):
            kt = self.known[t]
            if t != seat and kt & hmask:
                m = kt & ~hmask
                for j, c in enumerate(old):
                    if (kt >> c) & 1:
                        m |= 1 << perm[j]
                new.known[t] = m
        if self.claims:
            new.claims = tuple(c for c in self.claims if c[0] == seat)
        new._rng = rng
        return new

    def view(self, seat: int | None = None) -> dict[str, Any]:
        n = self.players
        if seat is not None:
            check_seat(seat, self.players)
        if seat is None:
            grids = [[VALUE[c] if c >= 0 else None for c in g] for g in self.grids]
        else:
            seen = self.known[seat] | self.public
            grids = [[(VALUE[c] if (seen >> c) & 1 else "?") if c >= 0 else None for c in g]
                     for g in self.grids]
        drawn = (VALUE[self.drawn] if self.drawn >= 0 and (seat is None or seat == self.active)
                 else None)
        window = None
        if self.phase == "snap":
            snaps = {w: (p, s) for w, p, s in self.claims}
            answers = []
            for t in self.win_order[:self.win_idx]:
                if seat is None or t == seat:                          # KO-10: hidden
                    ps = snaps.get(t)
                    answers.append({"seat": t, "decision":
                                    f"snap {ps[0]}.{ps[1]}" if ps else "pass"})
            window = {"order": list(self.win_order), "answered": self.win_idx,
                      "answers": answers}
        snap = None
        if self.snap_info is not None:
            w, p, s, v, right, claims = self.snap_info
            snap = {"seat": w, "card": f"{p}.{s}", "value": v, "right": right,
                    "claims": [{"seat": t, "card": f"{q}.{r}"} for t, q, r in claims]}
        over = self._over
        return {
            "game": "kombio",
            "players": n,
            "seat": seat,
            "round": self.round_no,
            "round_start": self.round_start,
            "active": None if over else self.active,
            "to_move": self._to_move,
            "awaiting": self.phase,
            "grids": grids,
            "counts": self.counts[:],
            "drawn": drawn,
            "deck": len(self.deck),
            "discard": len(self.discard),
            "top": VALUE[self.discard[-1]] if self.discard else None,
            "top_snapped": self.top_snapped,
            "caller": self.caller,
            "turns_left": self.turns_left if self.caller is not None and not over else None,
            "action": self.act if self.phase in ("action", "action_swap") else None,
            "peeked": [f"{p}.{s}" for p, s in self.peeked],
            "window": window,
            "snap": snap,
            "round_scores": [r[:] for r in self.round_scores],
            "last_round": None if self.last_round is None else {
                **self.last_round, "sums": self.last_round["sums"][:],
                "scores": self.last_round["scores"][:],
                "grids": [g[:] for g in self.last_round["grids"]]},
            "totals": self.totals[:],
            "target": self.target,
            "legal": self.legal() if (seat is None or seat == self._to_move) else [],
            "over": over,
            "scores": self.scores(),
            "winners": self.winners(),
        }

    # -- records -------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "game": "kombio",
            "rules_version": RULES_VERSION,
            "players": self.players,
            "seed": self.seed,
            "start": self.start,
            "target": self.target,
        }
        # every option with its value (off: null), so the record replays under any defaults
        rec["options"] = {name: self.options.get(name) for name in OPTION_NAMES}
        if self.deal_raw is not None:
            rec["deal"] = self.deal_raw
        if self.deals_raw is not None:
            rec["deals"] = self.deals_raw
        rec["actions"] = self.history
        return rec

    def check_invariants(self) -> None:
        n = self.players
        ids: list[int] = []
        for p, g in enumerate(self.grids):
            occ = [c for c in g if c >= 0]
            assert len(occ) == self.counts[p], f"card count of seat {p} out of step"
            assert len(g) <= C.slots_covered, "decision tables do not cover a grid"
            ids += occ
        ids += self.deck
        ids += self.discard
        if self.drawn >= 0:
            ids.append(self.drawn)
        assert sorted(ids) == list(range(C.N_CARDS)), "card conservation broken (KO-1)"
        deck = _bits(self.deck)
        assert not self.public & deck, "a deck card is public"
        assert all(not k & deck for k in self.known), "a deck card is known"
        assert _bits(self.discard) & ~self.public == 0, "a discard card is not public"
        if self.drawn >= 0:
            assert self.phase == "drawn"
            assert (self.known[self.active] >> self.drawn) & 1, "the drawer did not see it"
            assert not (self.public >> self.drawn) & 1, "the drawn card is public"
        else:
            assert self.phase != "drawn"
        assert not self.top_snapped or self.discard
        assert len(self.round_scores) == self.round_no - (0 if self._over else 1)
        assert self.totals == [sum(r[s] for r in self.round_scores) for s in range(n)]
        if self.caller is not None:
            assert 0 <= self.turns_left <= n - 1
            assert self.taboo == (self.caller if n > 2 else -1)
        else:
            assert self.taboo == -1
        if self._over:
            assert self.phase is None and self._to_move is None and self._winners
            assert max(self.totals) >= self.target
            return
        assert self.phase in PHASES and 0 <= self._to_move < n
        assert max(self.totals) < self.target
        if self.phase != "give":                                       # KO-13
            assert all(self.counts), "an empty grid but the round goes on"
        if self.phase in ("turn", "drawn", "action", "action_swap"):
            assert self._to_move == self.active
        if self.phase == "snap":
            assert self._to_move == self.win_order[self.win_idx]
            assert self.taboo not in self.win_order
            answered = self.win_order[:self.win_idx]
            assert all(c[0] in answered for c in self.claims)
        else:
            assert not self.claims
        if self.phase in ("action", "action_swap"):
            assert self.act >= C.ACTION_MIN and VALUE[self.discard[-1]] == self.act
        if self.phase in ("give", "hand_over"):
            p, s = self.victim
            assert (self.grids[p][s - 1] < 0) == (self.phase == "give")
