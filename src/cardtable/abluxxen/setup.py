"""Set-up (AB-3, DU-1, DU-2) from a seed and an optional, possibly partial, deal (NOTATION.md).

The cards the deal does not place are sorted, shuffled with the game's generator and fill, in
this order: the missing hand cards (seat by seat), the pool, the shadow display (duel, DU-2)
and then the deck after the listed deck cards. With no deal at all this *is* the ordinary
set-up: shuffle, 13 cards each, 6 to the pool (duel: 2 jokers each first, then 11 more, then the
shadow display).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.abluxxen.cards import COPIES, JOKER, card_from_json
from cardtable.abluxxen.rules import Rules
from cardtable.core.errors import RecordError
from cardtable.core.rng import Rng

HAND = 13        # AB-3
POOL = 6         # AB-3, DU-3 (items)
SHADOW = 13      # DU-1
DUEL_JOKERS = 2  # DU-1


@dataclass
class Layout:
    hands: list[list[int]]
    pool: list[tuple]
    shadow: list[int] | None   # counts per number (index = number), duel only
    deck: list[int]            # top card LAST (list.pop draws)


def place_on_pool(pool: list[tuple], card: int) -> None:
    """DU-2: a 13 or joker turned up for the shadow display goes on the lowest uncovered single
    pool card (bottom number, jokers highest; ties: earliest position); with no single card left,
    on the lowest group; into an empty pool as a single card."""
    best = -1
    best_key = None
    for i, item in enumerate(pool):
        key = (len(item) > 1, item[0], i)
        if best_key is None or key < best_key:
            best, best_key = i, key
    if best < 0:
        pool.append((card,))
    else:
        pool[best] = pool[best] + (card,)


def fill_shadow(shadow: list[int], size: int, pool: list[tuple], source: list[int]) -> int:
    """DU-1/DU-2: turn up cards from `source` (top = last) until the shadow holds 13 cards;
    13s and jokers go to the pool instead. Returns the new shadow size."""
    while size < SHADOW and source:
        c = source.pop()
        if c >= 13:
            place_on_pool(pool, c)
        else:
            shadow[c] += 1
            size += 1
    return size


def _cards(lst, where: str) -> list[int]:
    if not isinstance(lst, list):
        raise RecordError(f"{where} must be a list of cards")
    return [card_from_json(x, f"{where}[{i}]") for i, x in enumerate(lst)]


def deal(players: int, rules: Rules, rng: Rng, spec: dict | None) -> Layout:
    spec = spec or {}
    if not isinstance(spec, dict):
        raise RecordError('"deal" must be an object with hands, pool, shadow, deck')
    unknown = set(spec) - {"hands", "pool", "shadow", "deck"}
    if unknown:
        raise RecordError(f"deal: unknown part {sorted(unknown)[0]!r} (hands, pool, shadow, deck)")
    used = [0] * 15

    def use(cards, where):
        for c in cards:
            used[c] += 1
            if used[c] > COPIES[c]:
                name = "joker" if c == JOKER else f"{c}"
                raise RecordError(
                    f"impossible deal: {where} uses more {name}s than the deck has "
                    f"({COPIES[c]})")

    hands_spec = spec.get("hands", [])
    if not isinstance(hands_spec, list):
        raise RecordError("deal.hands must be a list with one card list per seat")
    if len(hands_spec) > players:
        raise RecordError(f"impossible deal: {len(hands_spec)} hands for {players} players")
    hands = []
    for s in range(players):
        h = _cards(hands_spec[s], f"deal.hands[{s}]") if s < len(hands_spec) else []
        if len(h) > HAND:
            raise RecordError(f"impossible deal: hand {s} has {len(h)} cards (at most {HAND})")
        use(h, f"deal.hands[{s}]")
        hands.append(h)

    pool_spec = spec.get("pool", [])
    if not isinstance(pool_spec, list):
        raise RecordError("deal.pool must be a list of cards")
    if len(pool_spec) > POOL:
        raise RecordError(f"impossible deal: the pool has {len(pool_spec)} items (at most {POOL})")
    pool: list[tuple] = []
    for i, x in enumerate(pool_spec):
        if isinstance(x, list):
            if not rules.duel:
                raise RecordError(f"deal.pool[{i}]: groups exist only in the duel")
            group = _cards(x, f"deal.pool[{i}]")
            if not group:
                raise RecordError(f"deal.pool[{i}]: an empty group")
            if any(c < 13 for c in group[1:]):
                raise RecordError(f"deal.pool[{i}]: only 13s and jokers lie on a pool card (DU-2)")
            item = tuple(group)
        else:
            item = (card_from_json(x, f"deal.pool[{i}]"),)
        use(item, "deal.pool")
        pool.append(item)

    shadow = None
    shadow_cards: list[int] = []
    if "shadow" in spec:
        if not rules.duel:
            raise RecordError("deal.shadow: the shadow display exists only in the duel")
        shadow_cards = _cards(spec["shadow"], "deal.shadow")
        if len(shadow_cards) > SHADOW:
            raise RecordError(f"impossible deal: the shadow display has {len(shadow_cards)} "
                              f"cards (at most {SHADOW})")
        if any(c >= 13 for c in shadow_cards):
            raise RecordError("impossible deal: the shadow display cannot hold a 13 or a joker (DU-2)")
        use(shadow_cards, "deal.shadow")

    deck_top = _cards(spec.get("deck", []), "deal.deck")
    use(deck_top, "deal.deck")

    # DU-1: a duel hand gets its 2 jokers first.
    if rules.duel:
        for s, h in enumerate(hands):
            if len(h) < HAND and len(h) + max(0, DUEL_JOKERS - h.count(JOKER)) > HAND:
                raise RecordError(f"impossible deal: hand {s} has no room for its "
                                  f"{DUEL_JOKERS} jokers (DU-1)")
            while h.count(JOKER) < DUEL_JOKERS and len(h) < HAND:
                if used[JOKER] >= COPIES[JOKER]:
                    raise RecordError(f"impossible deal: no joker left to give hand {s} its "
                                      f"{DUEL_JOKERS} jokers (DU-1)")
                used[JOKER] += 1
                h.append(JOKER)

    rest = [c for c in range(1, 15) for _ in range(COPIES[c] - used[c])]
    rng.shuffle(rest)
    rest.reverse()  # draw from the end: rest.pop() takes the first shuffled card
    for h in hands:
        while len(h) < HAND:
            h.append(rest.pop())
    while len(pool) < POOL:
        pool.append((rest.pop(),))
    if rules.duel:
        shadow = [0] * 15
        for c in shadow_cards:
            shadow[c] += 1
        # the shadow is turned up from the shuffled cards, then the rest becomes the deck
        fill_shadow(shadow, len(shadow_cards), pool, rest)
    deck = rest + deck_top[::-1]   # listed deck cards on top, in their order
    return Layout(hands, pool, shadow, deck)
