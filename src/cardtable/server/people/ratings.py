"""Human ratings (docs/ratings.md): OpenSkill's Plackett-Luce model, one rating per
player and game, updated once when a rated game ends, in the transaction that records its end.

Who is rated: every seat of a rated table (game_tables.rated): an account's seat as the
account ("a:<id>"), a bot's as its bot level or name ("b:medium"), so a bot level has one
rating per game, stored as a player's is. A human seat whose account was deleted during the
game plays as a newcomer and is not stored.

The ranks: winners first (rank 1, shared), then the others by score in the game's score
sense (the registry's `lower_is_better`: no game is named here), equal scores sharing a rank
(sim/ratings.py `ranks`, as `cardtable ratings` ranks bots). A player who left the game
counts as a loss: a human seat that is away when the game ends (its turn timer ran out and it
did not come back; a bot finished for it), and an account's seat that a bot took over (the
player sent `leave`, or a turn-based table dropped them: `left_seats`), is ranked last, below
every other seat, leavers sharing that rank; its account is rated, not the bot.

A player who left before making a move of their own is rated alone: a loss against everybody,
while the game is not rated for the others against them (they are rated among themselves if
at least two different players remain: `rated_seats`), so an account that sits down and
leaves at once hands nobody a win. A rating is provisional until it has `ESTABLISHED_GAMES`
rated games against `ESTABLISHED_OPPONENTS` different players (`rating_opponents`,
`ratings.opponents`); the leaderboard lists established ratings only (http/rating.py).

Rule sets share the game's rating: a rule set changes the deal or the scoring, not what is
being learnt (reading the table, counting cards), and one rating per game keeps enough games
in each rating for it to mean something. The history keeps every game's table, so a rating
per rule set could be computed later from it.

A moderator may annul a finished rated game (mod/moderation.py `annul_game`): it stays in the
records, and `recompute_without` rates the games it touched again as if it had not been played.

Every operation is a generator of (sql, params) in plain SQL understood by SQLite and
PostgreSQL (accounts.py's idiom), run by tx.Tx.also in the table's transaction.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator
from typing import Any

from cardtable.server.store.schema import BY_PLAYER
from cardtable.sim.ratings import ranks as score_ranks

Op = Generator[tuple[str, dict], list, Any]

#: OpenSkill's defaults (a newcomer): mu 25, sigma 25/3, so a newcomer's shown rating is 0
MU, SIGMA = 25.0, 25.0 / 3.0
#: a rating is provisional (not on the leaderboard) until it has this many rated games
#: against at least this many different players (docs/ratings.md says why these)
ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS = 5, 3


def established(games: int, opponents: int) -> bool:
    """Whether a rating with `games` rated games against `opponents` different players is
    established (listed on the leaderboard), not provisional."""
    return games >= ESTABLISHED_GAMES and opponents >= ESTABLISHED_OPPONENTS


def conservative(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: mu - 3 sigma (the skill the player has with about
    99.9 % certainty; it starts at 0 and grows as games make the model surer)."""
    return mu - 3 * sigma


def player_key(seat: dict) -> str | None:
    """The rated player of a seat row: "a:<account id>" (also a seat a bot took over from
    its account: the player left, `left_seats`), "b:<bot>", or None (a human seat without
    an account: a deleted one's)."""
    if seat.get("account_id") is not None:
        return f"a:{seat['account_id']}"
    if seat["kind"] == "bot":
        return f"b:{seat['bot'] or 'medium'}"
    return None


def left_seats(seat_rows: list[dict]) -> set[int]:
    """The seats whose player left the game: a human seat away at the end, or an account's
    seat a bot took over for the rest of the game (dropped at a turn-based table, or left)."""
    return {i for i, s in enumerate(seat_rows)
            if (s["kind"] == "human" and s.get("away"))
            or (s["kind"] == "bot" and s.get("account_id") is not None)}


def ranks(scores: list[int], winners: list[int], lower_is_better: bool,
          left: set[int]) -> list[int]:
    """Rank per seat (1 = best): by result, then every seat in `left` last (shared)."""
    base = score_ranks(scores, winners, lower_is_better)
    stay = [r for i, r in enumerate(base) if i not in left]
    # the stayers' ranks renumbered densely, the leavers after them
    order = sorted(set(stay))
    out = [order.index(r) + 1 if i not in left else 0 for i, r in enumerate(base)]
    last = len(order) + 1
    return [last if i in left else r for i, r in enumerate(out)]


def rate(current: list[tuple[float, float]], seat_ranks: list[int]
         ) -> list[tuple[float, float]]:
    """(mu, sigma) per seat after one game, from (mu, sigma) per seat before it."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    rated = model.rate(teams, ranks=seat_ranks)
    return [(t[0].mu, t[0].sigma) for t in rated]


def sql_marks(prefix: str, values: list) -> tuple[str, dict]:
    names = [f"{prefix}{i}" for i in range(len(values))]
    return ", ".join(":" + n for n in names), dict(zip(names, values))


def rated_seats(left: set[int], moved: set[int] | None, keys: list[str | None]
                ) -> tuple[set[int], set[int]]:
    """(rated, early): the seats a finished game rates, and those of them that left before
    their player's first own move (`left` minus `moved`; None: every seat moved).

    An early seat is rated against everybody: a loss. The game is not rated for the others
    against it: they are rated among themselves if at least two different players remain
    (a bot level in two seats is one player; a deleted account's seat is a player of its
    own), else not at all. So a player who leaves at once (a throwaway account) gives
    nobody anything."""
    everyone = set(range(len(keys)))
    early = set() if moved is None else {i for i in left if i not in moved}
    rest = everyone - early
    if early and len({keys[i] or f"seat {i}" for i in rest}) < 2:
        return early, early
    return everyone, early


def game_end(table_id: int, game: str, seat_rows: list[dict], scores: list[int],
             winners: list[int], lower_is_better: bool, postgres: bool,
             moved: set[int] | None = None) -> Op:
    """Rate the finished game of table `table_id` (its seats: seat, kind, bot, away; their
    accounts are read here, in the transaction; `moved`: the seats whose player made a move
    of their own, None: all): every rated player's rating moves once (a bot level in several
    seats: the mean of its seats' new ratings; `rated_seats` says who is rated against whom),
    its distinct opponents are counted (`rating_opponents`, `ratings.opponents`: a rating
    is provisional until `established`), and every rated seat gets a history row. Returns
    the history as dicts (for the tests)."""
    now = time.time()
    rows = yield ("SELECT seat, account_id FROM seats WHERE table_id = :t", {"t": table_id})
    account_of = {r[0]: r[1] for r in rows}
    seat_rows = [dict(s, account_id=account_of.get(s["seat"])) for s in seat_rows]
    keys = [player_key(s) for s in seat_rows]
    left = left_seats(seat_rows)
    seat_ranks = ranks(scores, winners, lower_is_better, left)
    rated, early = rated_seats(left, moved, keys)
    # whom each rated seat is rated against: an early leaver everybody, the others each other
    against = {i: {j for j in range(len(keys)) if j != i and (i in early or j not in early)}
               for i in rated}
    stored = sorted({keys[i] for i in rated if keys[i] is not None})
    for k in stored:
        yield ("INSERT INTO ratings (game, player, account_id, bot, mu, sigma, games, wins, "
               "opponents, updated_at) VALUES (:g, :p, :a, :b, :mu, :s, 0, 0, 0, :t) "
               "ON CONFLICT (game, player) DO NOTHING",
               {"g": game, "p": k, "a": _account(k), "b": k[2:] if k.startswith("b:") else None,
                "mu": MU, "s": SIGMA, "t": now})
    cur: dict[str, tuple[float, float]] = {}
    if stored:
        marks, params = sql_marks("p", stored)
        rows = yield (f"SELECT player, mu, sigma FROM ratings WHERE game = :g AND player IN "
                      f"({marks}) ORDER BY player" + (" FOR UPDATE" if postgres else ""),
                      dict(params, g=game))
        cur = {r[0]: (r[1], r[2]) for r in rows}
    before = [cur.get(k, (MU, SIGMA)) if k else (MU, SIGMA) for k in keys]
    after = rate(before, seat_ranks)
    rest = sorted(rated - early)
    if early and rest:  # rated among themselves: the seats that left at once do not count
        for i, a in zip(rest, rate([before[i] for i in rest], [seat_ranks[i] for i in rest])):
            after[i] = a
    by_player: dict[str, list[tuple[int, tuple[float, float]]]] = {}
    for i in sorted(rated):
        if keys[i] is not None:
            by_player.setdefault(keys[i], []).append((i, after[i]))
    history = []
    for k, items in by_player.items():
        mu = sum(a[0] for _, a in items) / len(items)
        sigma = sum(a[1] for _, a in items) / len(items)
        won = any(seat_ranks[i] == 1 and i not in left for i, _ in items)
        opponents = sorted({keys[j] for i, _ in items for j in against[i]
                            if keys[j] is not None and keys[j] != k})
        for o in opponents:
            yield ("INSERT INTO rating_opponents (game, player, opponent, account_id) VALUES "
                   "(:g, :p, :o, :a) ON CONFLICT (game, player, opponent) DO NOTHING",
                   {"g": game, "p": k, "o": o, "a": _account(k)})
        yield ("UPDATE ratings SET mu = :mu, sigma = :s, games = games + 1, wins = wins + :w, "
               "opponents = (SELECT count(*) FROM rating_opponents o WHERE o.game = :g AND "
               "o.player = :p), updated_at = :t WHERE game = :g AND player = :p",
               {"mu": mu, "s": sigma, "w": int(won), "t": now, "g": game, "p": k})
        for i, _ in items:
            row = {"table_id": table_id, "game": game, "player": k,
                   "account_id": _account(k), "seat": i,
                   "rank": seat_ranks[i], "left_game": i in left, "mu_before": cur[k][0],
                   "sigma_before": cur[k][1], "mu_after": mu, "sigma_after": sigma, "at": now,
                   "early": i in early}
            yield ("INSERT INTO rating_history (table_id, game, player, account_id, seat, "
                   "rank, left_game, mu_before, sigma_before, mu_after, sigma_after, at, "
                   "early) VALUES (:table_id, :game, :player, :account_id, :seat, :rank, "
                   ":left_game, :mu_before, :sigma_before, :mu_after, :sigma_after, :at, "
                   ":early)", row)
            history.append(row)
    return history


def _account(player: str) -> int | None:
    return int(player[2:]) if player.startswith("a:") else None


async def on_game_end(rt, ch) -> None:
    """Called by every change of a table before it commits (change.py): a change that ends
    the game records its result on the row (`result`: scores and winners, read by the
    profiles) and, at a rated table, rates it in the same transaction."""
    tx = ch.tx
    if not (tx.changed("status") and tx.row.get("status") == "over") \
            or rt.status == "over":
        return
    state = ch.trial if ch.trial is not None else rt.state
    if not state.over:
        return
    scores, winners = list(state.scores()), sorted(state.winners())
    tx.set(result={"scores": scores, "winners": winners})
    if not tx.row.get("rated"):
        return
    from cardtable.core import registry

    lower = registry.info(rt.game).lower_is_better
    seats = [{k: s[k] for k in ("seat", "kind", "bot", "away")} for s in ch.seats_after()]
    postgres = rt.hub.store.url.is_postgres
    # the seats whose player made a move of their own (the stand-in's and the timer's are not)
    moved = {seat for seat, by in rt.log if by == BY_PLAYER} \
        | {s.seat for s in ch.steps if s.by == BY_PLAYER}
    await tx.also(lambda: game_end(rt.id, rt.game, seats, scores, winners, lower, postgres,
                                   moved))


def recompute_without(table_id: int, game: str, lower_is_better: bool, postgres: bool) -> Op:
    """Recompute the ratings that the rated game of table `table_id` touched, as if it had not
    been played (the table is already marked annulled, game_tables.annulled_at): its players'
    ratings from before it, then every later counted game of `game` in order that involves a
    player whose rating changed (so also the opponents they met later, and theirs), each
    rated as it was (the seats' stored ranks; a seat that left at once rated alone, as
    `rated_seats`; a seat without a history row, a deleted account's, as a newcomer ranked by
    the game's result). Their history rows get the new ratings before and after; their
    ratings rows the new rating, games, wins and distinct opponents (so provisional status and
    the leaderboard follow). Returns the players whose rating was recomputed."""
    if postgres:   # one recompute of a game at a time, and no game of it ends meanwhile
        yield ("SELECT player FROM ratings WHERE game = :g ORDER BY player FOR UPDATE",
               {"g": game})
    rows = yield ("SELECT h.id, h.table_id, h.player, h.seat, h.rank, h.left_game, h.early, "
                  "h.mu_before, h.sigma_before, t.annulled_at, t.result FROM rating_history h "
                  "JOIN game_tables t ON t.id = h.table_id WHERE h.game = :g AND h.id >= "
                  "(SELECT min(id) FROM rating_history WHERE table_id = :t) ORDER BY h.id",
                  {"g": game, "t": table_id})
    tables: dict[int, list] = {}
    for r in rows:
        tables.setdefault(r[1], []).append(r)
    state: dict[str, tuple[float, float]] = {}
    for r in tables.get(table_id, []):
        state.setdefault(r[2], (r[7], r[8]))
    for tid, hist in tables.items():
        if tid == table_id or hist[0][9] is not None or not any(h[2] in state for h in hist):
            continue
        for h in hist:
            state.setdefault(h[2], (h[7], h[8]))
        seat_rows = yield ("SELECT seat, kind, bot, account_id FROM seats WHERE table_id = :t "
                           "ORDER BY seat", {"t": tid})
        n = max([s[0] for s in seat_rows] + [h[3] for h in hist]) + 1
        by_seat = {h[3]: h for h in hist}
        result = hist[0][10]
        result = json.loads(result) if isinstance(result, str) else (result or {})
        left = {s for s, h in by_seat.items() if h[5]}
        base = ranks(result.get("scores") or [0] * n, result.get("winners") or [], 
                     lower_is_better, left) if len(result.get("scores") or []) == n \
            else [1] * n
        seat_ranks = [by_seat[i][4] if i in by_seat else base[i] for i in range(n)]
        before = [state[by_seat[i][2]] if i in by_seat else (MU, SIGMA) for i in range(n)]
        early = {i for i, h in by_seat.items() if h[6]}
        after = rate(before, seat_ranks)
        rest = sorted(i for i in by_seat if i not in early)
        if early and rest:
            for i, a in zip(rest, rate([before[i] for i in rest], [seat_ranks[i] for i in rest])):
                after[i] = a
        items: dict[str, list[int]] = {}
        for i in sorted(by_seat):
            items.setdefault(by_seat[i][2], []).append(i)
        for k, seats_of in items.items():
            new = (sum(after[i][0] for i in seats_of) / len(seats_of),
                   sum(after[i][1] for i in seats_of) / len(seats_of))
            for i in seats_of:
                yield ("UPDATE rating_history SET mu_before = :mb, sigma_before = :sb, "
                       "mu_after = :ma, sigma_after = :sa WHERE id = :i",
                       {"mb": state[k][0], "sb": state[k][1], "ma": new[0], "sa": new[1],
                        "i": by_seat[i][0]})
            state[k] = new
    yield from _recount(game, sorted(state), state)
    return sorted(state)


def _recount(game: str, players: list[str], state: dict[str, tuple[float, float]]) -> Op:
    """Set the ratings rows of `players` in `game` to `state` and their games, wins and
    opponents (rating_opponents) to what their counted (not annulled) games give."""
    if not players:
        return
    marks, params = sql_marks("p", players)
    rows = yield (f"SELECT h.table_id, h.player, h.seat, h.rank, h.left_game, h.early "
                  f"FROM rating_history h JOIN game_tables t ON t.id = h.table_id "
                  f"WHERE h.game = :g AND t.annulled_at IS NULL AND h.table_id IN "
                  f"(SELECT table_id FROM rating_history WHERE game = :g AND player IN "
                  f"({marks}))", dict(params, g=game))
    tables: dict[int, list] = {}
    for r in rows:
        tables.setdefault(r[0], []).append(r)
    seats_of: dict[int, list] = {}
    if tables:
        tmarks, tparams = sql_marks("t", sorted(tables))
        for r in (yield (f"SELECT table_id, seat, kind, bot, account_id FROM seats WHERE "
                         f"table_id IN ({tmarks})", tparams)):
            seats_of.setdefault(r[0], []).append(r)
    games = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    opponents: dict[str, set[str]] = {p: set() for p in players}
    for tid, hist in tables.items():
        early = {h[2] for h in hist if h[5]}
        keys = {s[1]: player_key({"kind": s[2], "bot": s[3], "account_id": s[4]})
                for s in seats_of.get(tid, [])}
        for p in players:
            mine = [h for h in hist if h[1] == p]
            if not mine:
                continue
            games[p] += 1
            wins[p] += any(h[3] == 1 and not h[4] for h in mine)
            for h in mine:
                opponents[p] |= {k for s, k in keys.items() if k is not None and k != p
                                 and s != h[2] and (h[5] or s not in early)}
    yield (f"DELETE FROM rating_opponents WHERE game = :g AND player IN ({marks})",
           dict(params, g=game))
    for p in players:
        for o in sorted(opponents[p]):
            yield ("INSERT INTO rating_opponents (game, player, opponent, account_id) VALUES "
                   "(:g, :p, :o, :a)", {"g": game, "p": p, "o": o, "a": _account(p)})
        yield ("UPDATE ratings SET mu = :mu, sigma = :s, games = :n, wins = :w, "
               "opponents = :o, updated_at = :t WHERE game = :g AND player = :p",
               {"mu": state[p][0], "s": state[p][1], "n": games[p], "w": wins[p],
                "o": len(opponents[p]), "t": time.time(), "g": game, "p": p})
