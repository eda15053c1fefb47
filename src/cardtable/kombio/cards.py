"""Cards and decision notation for Kombio (KO-1, NOTATION.md).

Every card has an **identity**, an id 0..69, so that knowledge can follow a card when it moves
(KO-11). Ids are ordered by value: `VALUE[id]` is the card's value, `FIRST_ID[v + 1]` the first
id of value v. In JSON and text a card is its value, an integer -1..14.

A card on the table is named `P.S` (seat P, slot S >= 1, KO-2, KO-3). Decisions are interned:
every decision exists once as a `Decision`, so legal-move lists cost no allocation. Tables
indexed by slot number are grown on demand (`ensure_slots`); pairs are created on first use.

Structured arguments (`Decision.args`):
  draw, discard, kombio, skip, keep, pass, hand-over, penalty, swap (alone):  ()
  replace, take, give:                 (S,)
  peek, snap, swap with one card:      (P, S)
  peek, swap with two cards:           (P1, S1, P2, S2)  with (P1, S1) < (P2, S2)

As JSON for clients (`decision_args`, docs/notation.md "Decisions as JSON"): every decision has
`cards`, the table cards it names as {"seat": P, "slot": S} in the order of its text (none for
draw, kombio, ...); replace, take and give also have `slot`, and their card is the deciding
seat's own: `replace 2` by seat 1 is {"slot": 2, "cards": [{"seat": 1, "slot": 2}]}.
"""

from __future__ import annotations

from cardtable.core.errors import refuse
from cardtable.core.game import Decision, notation_number

# -- KO-1: the 70 cards ------------------------------------------------------------------------
VALUES = tuple(range(-1, 15))
COPIES = {v: (3 if v <= 0 else 2 if v >= 13 else 5) for v in VALUES}
VALUE: tuple[int, ...] = tuple(v for v in VALUES for _ in range(COPIES[v]))
N_CARDS = len(VALUE)                         # 70
FIRST_ID = [0] * 17                          # index v + 1
_i = 0
for _v in VALUES:
    FIRST_ID[_v + 1] = _i
    _i += COPIES[_v]
FIRST_ID[16] = _i
ACTION_MIN = 7                               # KO-1: 7..14 are action cards
MAX_SEATS = 6

assert N_CARDS == 70 and sum(1 for v in VALUE if v <= 6) == 36


def is_card(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and -1 <= x <= 14


# -- interned decisions ------------------------------------------------------------------------
DRAW = Decision("draw", (), "draw")
DISCARD = Decision("discard", (), "discard")
KOMBIO = Decision("kombio", (), "kombio")
SKIP = Decision("skip", (), "skip")
KEEP = Decision("keep", (), "keep")
SWAP = Decision("swap", (), "swap")
PASS = Decision("pass", (), "pass")
HAND_OVER = Decision("hand-over", (), "hand-over")
PENALTY = Decision("penalty", (), "penalty")

_TEXT: dict[str, Decision] = {d.text: d for d in (
    DRAW, DISCARD, KOMBIO, SKIP, KEEP, SWAP, PASS, HAND_OVER, PENALTY)}
SIMPLE = frozenset(_TEXT)

#: by slot number (index 0 unused)
REPLACE: list = [None]
TAKE: list = [None]
GIVE: list = [None]
#: by seat, then slot number
PEEK: list[list] = [[None] for _ in range(MAX_SEATS)]
SNAP: list[list] = [[None] for _ in range(MAX_SEATS)]
SWAP1: list[list] = [[None] for _ in range(MAX_SEATS)]
_SLOT_TABLES = {"replace": REPLACE, "take": TAKE, "give": GIVE}
_POS_TABLES = {"peek": PEEK, "snap": SNAP, "swap": SWAP1}

#: number of slots the tables cover (slot numbers 1..slots_covered)
slots_covered = 0


def ensure_slots(m: int) -> None:
    """Make the tables cover slot numbers 1..m (grids grow by KO-8 penalty cards)."""
    global slots_covered
    while slots_covered < m:
        s = slots_covered + 1
        for kind, table in _SLOT_TABLES.items():
            d = Decision(kind, (s,), f"{kind} {s}")
            table.append(d)
            _TEXT[d.text] = d
        for kind, table in _POS_TABLES.items():
            for p in range(MAX_SEATS):
                d = Decision(kind, (p, s), f"{kind} {p}.{s}")
                table[p].append(d)
                _TEXT[d.text] = d
        slots_covered = s


ensure_slots(24)

_PAIRS: dict[tuple, Decision] = {}


def pair(kind: str, p1: int, s1: int, p2: int, s2: int) -> Decision:
    """`peek P.S P.S` / `swap P.S P.S`, canonical: the lower position first (seat, then slot)."""
    if (p2, s2) < (p1, s1):
        p1, s1, p2, s2 = p2, s2, p1, s1
    key = (kind, p1, s1, p2, s2)
    d = _PAIRS.get(key)
    if d is None:
        d = Decision(kind, (p1, s1, p2, s2), f"{kind} {p1}.{s1} {p2}.{s2}")
        if p2 < MAX_SEATS and s1 <= 64 and s2 <= 64:   # intern only what a table can hold
            _PAIRS[key] = d
            _TEXT[d.text] = d
    return d


def slot_decision(kind: str, s: int) -> Decision:
    table = _SLOT_TABLES[kind]
    if s < len(table):
        return table[s]
    return Decision(kind, (s,), f"{kind} {s}")


def pos_decision(kind: str, p: int, s: int) -> Decision:
    if p < MAX_SEATS:
        row = _POS_TABLES[kind][p]
        if s < len(row):
            return row[s]
    return Decision(kind, (p, s), f"{kind} {p}.{s}")


def is_ours(d: Decision) -> bool:
    """True if `d` is one of this module's interned decisions."""
    return _TEXT.get(d.text) is d


def decision_args(d: Decision, seat: int | None) -> dict:
    """The named arguments of `d` as JSON, `seat` deciding (see the module docstring)."""
    a = d.args
    if d.kind in _SLOT_TABLES:
        return {"slot": a[0], "cards": [{"seat": seat, "slot": a[0]}]}
    return {"cards": [{"seat": a[i], "slot": a[i + 1]} for i in range(0, len(a), 2)]}


# -- parsing -----------------------------------------------------------------------------------
def _slot(tok: str, text: str) -> int:
    s = notation_number(tok)
    if s is None or s < 1:
        raise refuse(text, "ko.not_slot", token=tok)
    return s


def _pos(tok: str, text: str) -> tuple[int, int]:
    parts = tok.split(".")
    if len(parts) != 2:
        raise refuse(text, "ko.not_pos", token=tok)
    p = notation_number(parts[0])
    if p is None:
        raise refuse(text, "ko.not_seat", token=tok, part=parts[0])
    return p, _slot(parts[1], text)


def parse(text) -> Decision:
    """Notation text -> Decision (syntax only; legality is the state's business)."""
    if isinstance(text, Decision):
        return text if is_ours(text) else parse(text.text)
    if not isinstance(text, str):
        raise refuse(str(text), "not_text")
    norm = " ".join(text.split()).lower()
    d = _TEXT.get(norm)
    if d is not None:
        return d
    if not norm:
        raise refuse(text, "empty")
    words = norm.split(" ")
    head, args = words[0], words[1:]
    if head in ("replace", "take", "give"):
        if len(args) != 1:
            raise refuse(text, "ko.usage." + head)
        return slot_decision(head, _slot(args[0], text))
    if head in ("peek", "snap", "swap"):
        if head == "snap" and len(args) != 1 or not 1 <= len(args) <= 2:
            raise refuse(text, "ko.usage." + head)
        a = _pos(args[0], text)
        if len(args) == 1:
            return pos_decision(head, a[0], a[1])
        b = _pos(args[1], text)
        if a == b:
            raise refuse(text, "ko.same_card", pos=args[0])
        return pair(head, a[0], a[1], b[0], b[1])
    if head in SIMPLE:
        raise refuse(text, "no_args", word=head)
    raise refuse(text, "ko.unknown")
