"""Cards and decision notation for Abluxxen (NOTATION.md).

Internally a card is an int: 1..13 for numbers, 14 (`JOKER`) for a joker; in JSON and text a
joker is "X". A set of jokers played alone has the value 14 (AB-5). Decisions are interned:
every distinct decision exists once as a `Decision`, so legal-move lists cost no allocation.

Structured arguments (`Decision.args`):
  play:   (value, numbers, jokers)  value 14 with numbers 0 for jokers alone
  shadow: (number,)
  draw:   ("deck",) or ("pool", item)  item = tuple of cards, bottom first
  take, leave, keep, discard, pass: ()

As JSON for clients (`decision_args`, docs/notation.md "Decisions as JSON"), cards as in views:
  play:   {"cards": [7, 7, "X"]}       shadow: {"value": 5}
  draw:   {"from": "deck"} or {"from": "pool", "cards": [3, 13, "X"]}  (the item, bottom first)
  take, leave, keep, discard, pass: {}
"""

from __future__ import annotations

from cardtable.core.errors import RecordError, refuse
from cardtable.core.game import Decision, notation_number

JOKER = 14
COPIES = [0] + [8] * 13 + [5]  # AB-1: how many of each card (index = card): 109 cards


def card_text(c: int) -> str:
    return "X" if c == JOKER else str(c)


def card_json(c: int):
    return "X" if c == JOKER else c


def card_from_json(x, where: str) -> int:
    if x == "X" and isinstance(x, str):
        return JOKER
    if isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 13:
        return x
    raise RecordError(f"{where}: {x!r} is not an Abluxxen card (1..13 or \"X\")")


def sort_cards(cards) -> list[int]:
    return sorted(cards)  # jokers (14) last


def cards_json(cards) -> list:
    return [card_json(c) for c in sorted(cards)]


# -- interned decisions -----------------------------------------------------------------------
TAKE = Decision("take", (), "take")
LEAVE = Decision("leave", (), "leave")
KEEP = Decision("keep", (), "keep")
DISCARD = Decision("discard", (), "discard")
PASS = Decision("pass", (), "pass")
DRAW_DECK = Decision("draw", ("deck",), "draw deck")

_TEXT: dict[str, Decision] = {d.text: d for d in (TAKE, LEAVE, KEEP, DISCARD, PASS, DRAW_DECK)}

#: PLAY[v][k][j]: v 1..13 with k numbers and j jokers; PLAY[14][0][j]: j jokers alone.
PLAY: list[list[list[Decision | None]]] = [[[None] * 6 for _ in range(9)] for _ in range(15)]
for _v in range(1, 15):
    for _k in (range(1, 9) if _v < JOKER else (0,)):
        for _j in range(0, 6):
            if _k + _j == 0:
                continue
            _text = "play " + " ".join([str(_v)] * _k + ["X"] * _j)
            _d = Decision("play", (_v, _k, _j), _text)
            PLAY[_v][_k][_j] = _d
            _TEXT[_text] = _d

SHADOW = [None] + [Decision("shadow", (v,), f"shadow {v}") for v in range(1, 14)]
for _d in SHADOW[1:]:
    _TEXT[_d.text] = _d

_POOL: dict[tuple, Decision] = {}


def draw_pool(item: tuple) -> Decision:
    d = _POOL.get(item)
    if d is None:
        d = Decision("draw", ("pool", item), "draw pool " + "+".join(card_text(c) for c in item))
        _POOL[item] = d
    return d


def decision_args(d: Decision) -> dict:
    """The named arguments of `d` as JSON (see the module docstring)."""
    if d.kind == "play":
        v, k, j = d.args
        return {"cards": [v] * k + ["X"] * j}
    if d.kind == "shadow":
        return {"value": d.args[0]}
    if d.kind == "draw":
        if d.args[0] == "deck":
            return {"from": "deck"}
        return {"from": "pool", "cards": [card_json(c) for c in d.args[1]]}
    return {}


def _card_token(tok: str, text: str) -> int:
    if tok in ("X", "x"):
        return JOKER
    n = notation_number(tok)
    if n is not None and 1 <= n <= 13:
        return n
    raise refuse(text, "ab.not_card", token=tok)


def parse(text) -> Decision:
    """Notation text -> Decision (syntax only; legality is the state's business)."""
    if isinstance(text, Decision):
        return text
    if not isinstance(text, str):
        raise refuse(str(text), "not_text")
    norm = " ".join(text.split())
    d = _TEXT.get(norm)
    if d is not None:
        return d
    words = norm.split(" ")
    head = words[0].lower() if words and words[0] else ""
    if not norm:
        raise refuse(text, "empty")
    if head == "play":
        if len(words) == 1:
            raise refuse(text, "ab.play_what")
        cards = [_card_token(t, text) for t in words[1:]]
        numbers = {c for c in cards if c != JOKER}
        if len(numbers) > 1:
            raise refuse(text, "ab.mixed", numbers=", ".join(str(n) for n in sorted(numbers)))
        j = cards.count(JOKER)
        k = len(cards) - j
        v = numbers.pop() if numbers else JOKER
        if k > 8 or j > 5:
            raise refuse(text, "ab.too_many")
        return PLAY[v][k][j]
    if head == "shadow":
        n = notation_number(words[1]) if len(words) == 2 else None
        if n is None or not 1 <= n <= 12:
            raise refuse(text, "ab.shadow_syntax")
        return SHADOW[n]
    if head == "draw":
        if len(words) == 2 and words[1].lower() == "deck":
            return DRAW_DECK
        if len(words) == 3 and words[1].lower() == "pool":
            item = tuple(_card_token(t, text) for t in words[2].split("+"))
            return draw_pool(item)
        raise refuse(text, "ab.draw_syntax")
    if head in _TEXT and len(words) > 1:
        raise refuse(text, "no_args", word=head)
    if norm.lower() in _TEXT:
        return _TEXT[norm.lower()]
    raise refuse(text, "ab.unknown")
