"""The "Play now" queue in the database (docs/api.md "Play now"): its rows, the limits and
the pairing itself; http/queue.py has the routes and the matcher task that makes the tables.

An entry is one row of `queue_entries`, so it is the same in every server process and
survives a restart. Its owner (an account, `a:<id>`, or a guest, `g:<seats.client>`) has
one entry at a time. The entry's ticket is a secret the owner got when joining; only its
SHA-256 is kept, and it becomes the seat's token hash at the table the entry is paired to,
so no token is ever stored or sent by the server after the join.

Pairing (`pairings`): entries of the same game, pace and rated-ness, whose rule sets agree
(equal, or either "any"), go to one table of the rule set's smallest size (at least two).
A rated entry is paired only within a rating window that widens while it waits:
`WINDOW_BASE + WINDOW_GROWTH` rating points a second, the wider of the two entries' (the
one who waited longer lets the newcomer in). Casual entries pair first come, first served.
A casual entry whose `bot_wait` has passed gets a table with bots in the other seats; a
rated one never does. Two accounts of which one blocks the other are never paired.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.core import registry
from cardtable.server.people.accounts import Op
from cardtable.server.people.ratings import conservative

#: rating points of the window at once, and what it widens a second of waiting
WINDOW_BASE, WINDOW_GROWTH = 3.0, 0.5
#: an entry whose owner has not polled for this long is dropped (seconds)
STALE_SECONDS = 60.0
#: entries waiting at once from one address group (people behind one NAT share it)
PER_ADDRESS = 8
#: the longest bot wait one may ask for (seconds)
MAX_BOT_WAIT = 600

COLUMNS = ("id", "owner", "addr", "client", "account_id", "name", "game", "variant",
           "rated", "pace", "bot_wait", "rating", "since", "seen_at", "table_code", "seat",
           "ticket_hash")


@dataclass
class Pairing:
    """A table to make: its game, rule set, seats (the entries in seat order, then
    `bots` bot seats)."""
    game: str
    variant: str | None
    entries: list[dict]
    bots: int


def table_of(game: str, variant: str | None) -> tuple[str | None, int]:
    """The rule set and seats of a queue's table: the rule set's smallest table, at least
    two; "any" (None) is the rule set with the smallest table (the first of them). A game
    with one rule set names none."""
    g = registry.info(game)
    if len(g.variants) == 1:
        return None, max(2, g.variants[0].min_players)
    v = g.variant(variant) if variant else min(g.variants, key=lambda v: v.min_players)
    return v.name, max(2, v.min_players)


def window(entry: dict, now: float) -> float:
    return WINDOW_BASE + WINDOW_GROWTH * max(0.0, now - entry["since"])


def _fits(a: dict, b: dict, now: float, blocked: frozenset = frozenset()) -> bool:
    if (a["game"], a["pace"], bool(a["rated"])) != (b["game"], b["pace"], bool(b["rated"])):
        return False
    if a["variant"] and b["variant"] and a["variant"] != b["variant"]:
        return False
    if a["owner"] == b["owner"] or (a["account_id"] and a["account_id"] == b["account_id"]):
        return False
    if a["account_id"] and b["account_id"] and \
            frozenset((a["account_id"], b["account_id"])) in blocked:
        return False
    if a["rated"]:
        return abs(a["rating"] - b["rating"]) <= max(window(a, now), window(b, now))
    return True


def pairings(entries: list[dict], now: float, blocked: frozenset = frozenset()
             ) -> list[Pairing]:
    """The tables to make of the waiting `entries` now: the longest waiting first, each
    with the compatible entries nearest in rating; a casual entry alone past its bot wait
    with bots. Two accounts of which one blocks the other (`blocked`: their ids as
    frozensets, `blocks_among`) never sit at one table."""
    waiting = sorted((e for e in entries if e["table_code"] is None),
                     key=lambda e: (e["since"], e["id"]))
    taken: set[int] = set()
    out = []
    for e in waiting:
        if e["id"] in taken:
            continue
        group = [e]
        variant = e["variant"]
        for o in sorted((o for o in waiting if o["id"] not in taken and o is not e),
                        key=lambda o: (abs(o["rating"] - e["rating"]), o["since"])):
            if all(_fits(x, o, now, blocked) for x in group) and \
                    (not variant or not o["variant"] or o["variant"] == variant):
                group.append(o)
                variant = variant or o["variant"]
                if len(group) == table_of(e["game"], variant)[1]:
                    break
        variant, size = table_of(e["game"], variant)
        if len(group) == size:
            out.append(Pairing(e["game"], variant, group, 0))
        elif not e["rated"] and e["bot_wait"] is not None and \
                now - e["since"] >= e["bot_wait"]:
            group = [x for x in group if x is e or (x["bot_wait"] is not None and
                                                    now - x["since"] >= x["bot_wait"])]
            out.append(Pairing(e["game"], variant, group, size - len(group)))
        else:
            continue
        taken.update(x["id"] for x in group)
    return out


# -- the rows (accounts.read / accounts.write operations) -------------------------------------
def _select(where: str) -> str:
    return f"SELECT {', '.join(COLUMNS)} FROM queue_entries WHERE {where}"


def _rows(rows) -> list[dict]:
    return [dict(zip(COLUMNS, r)) for r in rows]


def rating_of(account_id: int, game: str) -> Op:
    """The account's shown rating in `game` (a newcomer's: 0)."""
    rows = yield ("SELECT mu, sigma FROM ratings WHERE game = :g AND player = :p",
                  {"g": game, "p": f"a:{account_id}"})
    return conservative(rows[0][0], rows[0][1]) if rows else 0.0


def join(values: dict) -> Op:
    """Add the entry `values` (COLUMNS but id): "ok"; "held" if its owner has an entry
    waiting already (a paired one is replaced); "address" if its address group has
    PER_ADDRESS entries waiting."""
    rows = yield (_select("owner = :o"), {"o": values["owner"]})
    if rows and _rows(rows)[0]["table_code"] is None:
        return "held"
    yield ("DELETE FROM queue_entries WHERE owner = :o", {"o": values["owner"]})
    n = yield ("SELECT count(*) FROM queue_entries WHERE addr = :a AND table_code IS NULL",
               {"a": values["addr"]})
    if n[0][0] >= PER_ADDRESS:
        return "address"
    cols = [c for c in COLUMNS if c != "id"]
    yield (f"INSERT INTO queue_entries ({', '.join(cols)}) VALUES "
           f"({', '.join(':' + c for c in cols)})", {c: values.get(c) for c in cols})
    return "ok"


def seen(ticket_hash: str, now: float) -> Op:
    """The entry of this ticket (None: none), its owner seen now."""
    yield ("UPDATE queue_entries SET seen_at = :t WHERE ticket_hash = :h",
           {"t": now, "h": ticket_hash})
    rows = yield (_select("ticket_hash = :h"), {"h": ticket_hash})
    return _rows(rows)[0] if rows else None


def leave(ticket_hash: str) -> Op:
    rows = yield (_select("ticket_hash = :h"), {"h": ticket_hash})
    yield ("DELETE FROM queue_entries WHERE ticket_hash = :h", {"h": ticket_hash})
    return bool(rows)


def counts() -> Op:
    """{game: entries waiting}."""
    rows = yield ("SELECT game, count(*) FROM queue_entries WHERE table_code IS NULL "
                  "GROUP BY game", {})
    return {g: n for g, n in rows}


def sweep_and_read(now: float) -> Op:
    """Drop the entries whose owner has not polled for STALE_SECONDS; the rest."""
    yield ("DELETE FROM queue_entries WHERE seen_at < :t", {"t": now - STALE_SECONDS})
    return _rows((yield (_select("1 = 1"), {})))


def blocks_among(account_ids: list[int]) -> Op:
    """The pairs of these accounts of which one blocks the other (mod/moderation.py, blocks),
    each as the frozenset of the two ids."""
    ids = sorted({i for i in account_ids if i is not None})
    if len(ids) < 2:
        return frozenset()
    names = [f"i{k}" for k in range(len(ids))]
    marks, params = ", ".join(":" + n for n in names), dict(zip(names, ids))
    rows = yield (f"SELECT blocker_id, blocked_id FROM blocks WHERE blocker_id IN ({marks}) "
                  f"AND blocked_id IN ({marks})", params)
    return frozenset(frozenset(r) for r in rows)


def seated(entry_id: int, code: str, seat: int) -> Op:
    """The entry paired: at `code`, seat `seat` (False: it was left meanwhile)."""
    yield ("UPDATE queue_entries SET table_code = :c, seat = :s WHERE id = :i AND "
           "table_code IS NULL", {"c": code, "s": seat, "i": entry_id})
    rows = yield ("SELECT table_code FROM queue_entries WHERE id = :i", {"i": entry_id})
    return bool(rows) and rows[0][0] == code
