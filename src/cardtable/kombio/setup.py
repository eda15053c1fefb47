"""Set-up of a round (KO-2) from the game's generator and an optional, possibly partial, deal
(NOTATION.md).

A deal is `{"grids": [[slot 1, slot 2, slot 3, slot 4], ...one list per seat], "deck": [top
card first, ...]}`; any part may be left out or given only in part. The cards it does not place
are put in id order, shuffled with the game's generator and fill, in this order, the missing grid
cards (seat by seat, slot by slot) and then the deck **after** the listed deck cards. With no
deal at all this *is* the ordinary set-up: shuffle, 4 cards to each grid, the rest is the deck.

Deals are checked when the game is created (`check_deal`), also those of later rounds, so a
malformed record fails at once with a one-line RecordError.
"""

from __future__ import annotations

from cardtable.core.errors import RecordError
from cardtable.core.rng import Rng
from cardtable.kombio.cards import COPIES, FIRST_ID, N_CARDS, is_card

GRID = 4  # KO-2


class Deal:
    """A checked deal: card values per grid (each at most 4) and the listed deck top."""

    __slots__ = ("grids", "deck")

    def __init__(self, grids: list[list[int]], deck: list[int]):
        self.grids = grids
        self.deck = deck


def _cards(lst, where: str) -> list[int]:
    if not isinstance(lst, list):
        raise RecordError(f"{where} must be a list of cards")
    for i, x in enumerate(lst):
        if not is_card(x):
            raise RecordError(f"{where}[{i}]: {x!r} is not a Kombio card (-1..14)")
    return list(lst)


def check_deal(spec, players: int, where: str = "deal") -> Deal | None:
    """Validate one deal (None: an ordinary shuffled round)."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise RecordError(f'"{where}" must be an object with "grids" and "deck"')
    unknown = set(spec) - {"grids", "deck"}
    if unknown:
        raise RecordError(f"{where}: unknown part {sorted(unknown)[0]!r} (grids, deck)")
    grids_spec = spec.get("grids", [])
    if not isinstance(grids_spec, list):
        raise RecordError(f"{where}.grids must be a list with one card list per seat")
    if len(grids_spec) > players:
        raise RecordError(f"impossible deal: {where} has {len(grids_spec)} grids for "
                          f"{players} players")
    used = {v: 0 for v in COPIES}

    def use(cards, part):
        for c in cards:
            used[c] += 1
            if used[c] > COPIES[c]:
                raise RecordError(f"impossible deal: {part} uses more {c}s than the deck has "
                                  f"({COPIES[c]})")

    grids = []
    for s in range(players):
        part = f"{where}.grids[{s}]"
        g = _cards(grids_spec[s], part) if s < len(grids_spec) else []
        if len(g) > GRID:
            raise RecordError(f"impossible deal: {part} has {len(g)} cards (a grid has {GRID})")
        use(g, part)
        grids.append(g)
    deck = _cards(spec.get("deck", []), f"{where}.deck")
    use(deck, f"{where}.deck")
    if len(deck) > N_CARDS - GRID * players:
        raise RecordError(f"impossible deal: {where}.deck lists {len(deck)} cards, but only "
                          f"{N_CARDS - GRID * players} are left after dealing the grids")
    return Deal(grids, deck)


def check_deals(specs, players: int) -> list[Deal | None]:
    if not isinstance(specs, list):
        raise RecordError('"deals" must be a list of deals, one per round')
    return [check_deal(d, players, f"deals[{i}]") for i, d in enumerate(specs)]


def deal(players: int, rng: Rng, spec: Deal | None) -> tuple[list[list[int]], list[int]]:
    """KO-2: the round's grids (card ids, slots 1..4) and deck (card ids, top card LAST)."""
    taken = [False] * N_CARDS
    nxt = FIRST_ID[:]                     # next free id per value (index v + 1)

    def take(v: int) -> int:
        i = nxt[v + 1]
        nxt[v + 1] = i + 1
        taken[i] = True
        return i

    if spec is None:
        grids = [[] for _ in range(players)]
        deck_top: list[int] = []
    else:
        grids = [[take(v) for v in g] for g in spec.grids]
        deck_top = [take(v) for v in spec.deck]
    rest = [i for i in range(N_CARDS) if not taken[i]]
    rng.shuffle(rest)
    rest.reverse()                        # rest.pop() takes the first shuffled card
    for g in grids:
        while len(g) < GRID:
            g.append(rest.pop())
    deck = rest + deck_top[::-1]          # listed deck cards on top, in their order
    return grids, deck
