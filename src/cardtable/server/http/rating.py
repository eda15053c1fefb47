"""The HTTP routes of human ratings (docs/api.md "Ratings", docs/ratings.md): a
player's public profile and the leaderboard of a game; and the checks of rated tables that
the lobby's create and join routes make (`rated_host`, `rated_join`; http/tables.py).

A profile is public: anybody may read the games an account played at public tables, its
ratings and its results. Games at private tables are counted, but their codes (a private
table's only secret: its replay and its talk) are shown to the account itself only. An
unknown name and a deleted account's answer the same 404 after the same one query: a
profile tells nothing a name's sign-up would not.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from cardtable.core import registry
from cardtable.server.people import accounts as A
from cardtable.server.errors import ApiError
from cardtable.server.people.ratings import (ESTABLISHED_GAMES, ESTABLISHED_OPPONENTS, conservative,
                                      established)
from cardtable.server.guard.security import name_keys
from cardtable.server.tables.views import seat_names

#: finished games a profile reads (the latest); recent games it lists; history points a rating
MAX_GAMES = 1000
RECENT = 20
HISTORY = 200
#: the leaderboard's default minimum of rated games (a query may ask for 1 to 1000), on top
#: of the rule that it lists established ratings only (ratings.established)
MIN_GAMES = 1
PAGE = 50


# -- rated tables: the checks of POST /api/tables and the joins -------------------------------
async def rated_host(req, cfg: dict, request: Request) -> None:
    """A rated table's host is logged in and takes a seat at once, under the account's
    name; the table gets a turn timer (a player who leaves cannot stall it, and one whose
    timer ran out and who did not come back counts as having left). POST /api/tables
    (http/tables.py)."""
    found = await request.app.state.accounts.current(request)
    if found is None:
        raise ApiError(401, "log in to open a rated table", "rated_login")
    if req.name is None:
        raise ApiError(422, "the host of a rated table takes a seat at once (name)",
                       "rated_host_seat")
    req.name = found[0]["name"]
    if not cfg.get("turn_seconds"):
        cfg["turn_seconds"] = request.app.state.settings.public_turn_seconds or 120.0


async def rated_join(rt, request: Request) -> tuple[str, int]:
    """The account's name and id for its seat at the rated table `rt` (the join writes
    the account with the seat, joining.py); 401 `rated_login` for a guest, 409
    `rated_seat_held` if the account sits there already."""
    found = await request.app.state.accounts.current(request)
    if found is None:
        raise ApiError(401, "this table is rated: log in to sit here (guests may watch)",
                       "rated_login")
    account = found[0]
    held = await A.read(request.app.state.hub().store, _seat_of(rt.id, account["id"]))
    if held:
        raise ApiError(409, "your account holds a seat at this table already",
                       "rated_seat_held")
    return account["name"], account["id"]


def _seat_of(table_id: int, account_id: int) -> A.Op:
    rows = yield ("SELECT seat FROM seats WHERE table_id = :t AND account_id = :a",
                  {"t": table_id, "a": account_id})
    return [r[0] for r in rows]


# -- answers -------------------------------------------------------------------------------------
class GameCount(BaseModel):
    game: str
    variant: str | None
    played: int = Field(..., description="finished games")
    won: int = Field(..., description="of them won (games that ended before ratings came "
                                      "count as played only: their result was not kept)")


class HistoryPoint(BaseModel):
    at: float
    rating: float = Field(..., description="mu - 3 sigma after the game")
    mu: float
    sigma: float
    rank: int = Field(..., description="the place in that game (1: won)")
    left: bool = Field(..., description="counted as a loss: the player left")
    code: str | None = Field(None, description="the table (null: a private one)")
    annulled: bool = Field(False, description="a moderator annulled the game: it no longer "
                                              "counts (the rating shown is from before it)")


class Established(BaseModel):
    games: int = Field(..., description="rated games a rating needs to be established")
    opponents: int = Field(..., description="different opponents it needs")


ESTABLISHED = Established(games=ESTABLISHED_GAMES, opponents=ESTABLISHED_OPPONENTS)


class RatingOut(BaseModel):
    game: str
    rating: float = Field(..., description="the conservative rating mu - 3 sigma")
    mu: float
    sigma: float
    games: int
    wins: int
    opponents: int = Field(..., description="different players rated against")
    provisional: bool = Field(..., description="not yet established: fewer than "
                                               f"{ESTABLISHED_GAMES} rated games or fewer "
                                               f"than {ESTABLISHED_OPPONENTS} different "
                                               "opponents (not on the leaderboard)")
    history: list[HistoryPoint] = Field(..., description="oldest first (the latest 200)")


class RecentGame(BaseModel):
    code: str | None = Field(None, description="the table (null: a private table, shown "
                                               "to others without its code)")
    replay: str | None = None
    game: str
    variant: str | None
    rated: bool
    won: bool | None = Field(None, description="null: not known (ended before ratings)")
    seat: int
    names: list[str]
    at: float
    annulled: bool = Field(False, description="a moderator annulled this rated game")


class BotBeaten(BaseModel):
    game: str
    bot: str
    times: int


class ProfileOut(BaseModel):
    name: str
    created_at: float
    established: Established = Field(..., description="what a rating needs to leave its "
                                                      "provisional state")
    games: list[GameCount]
    ratings: list[RatingOut]
    recent: list[RecentGame]
    bots_beaten: list[BotBeaten]


class LeaderRow(BaseModel):
    rank: int
    kind: str = Field(..., description="account or bot")
    name: str = Field(..., description="the account's name, or the bot's level or name")
    rating: float = Field(..., description="mu - 3 sigma")
    mu: float
    sigma: float
    games: int
    wins: int
    opponents: int = Field(..., description="different players rated against")
    provisional: bool = Field(..., description="a provisional rating (listed only when "
                                               "asked for with `provisional=true`)")


class LeaderboardOut(BaseModel):
    game: str
    min_games: int
    provisional: bool = Field(..., description="false: the established ratings (the "
                                               "leaderboard); true: the provisional ones")
    established: Established
    total: int = Field(..., description="players listed: at least `min_games` rated games, "
                                        "established (or provisional, if asked)")
    offset: int
    limit: int
    rows: list[LeaderRow]


router = APIRouter(tags=["ratings"])

PlayerName = Annotated[str, Path(min_length=1, max_length=256, description="an account's name")]


def _json(v: Any) -> Any:
    return json.loads(v) if isinstance(v, str) else v


def _profile(account_id: int) -> A.Op:
    rows = yield ("SELECT t.id, t.code, t.game, t.settings, t.public, t.rated, t.result, "
                  "t.updated_at, s.seat, t.annulled_at FROM seats s JOIN game_tables t ON t.id = s.table_id "
                  "WHERE s.account_id = :a AND t.status = 'over' "
                  "ORDER BY t.updated_at DESC, t.id DESC LIMIT :n",
                  {"a": account_id, "n": MAX_GAMES})
    games = [dict(zip(("id", "code", "game", "settings", "public", "rated", "result", "at",
                       "seat", "annulled_at"), r)) for r in rows]
    seats: dict[int, list[dict]] = {}
    if games:
        marks, params = A.sql_marks("t", [g["id"] for g in games])
        for r in (yield (f"SELECT table_id, seat, kind, bot, name FROM seats WHERE table_id "
                         f"IN ({marks}) ORDER BY table_id, seat", params)):
            seats.setdefault(r[0], []).append(dict(zip(("seat", "kind", "bot", "name"), r[1:])))
    ratings = yield ("SELECT game, mu, sigma, games, wins, opponents FROM ratings WHERE "
                     "account_id = :a ORDER BY game", {"a": account_id})
    history = yield ("SELECT h.game, h.at, h.mu_after, h.sigma_after, h.rank, h.left_game, "
                     "t.code, t.public, t.annulled_at FROM rating_history h JOIN game_tables t ON "
                     "t.id = h.table_id WHERE h.account_id = :a ORDER BY h.id DESC LIMIT :n",
                     {"a": account_id, "n": HISTORY * 8})
    return games, seats, ratings, history


def profile_out(account: dict, found, own: bool) -> ProfileOut:
    games, seats, ratings, history = found
    counts: dict[tuple[str, str | None], list[int]] = {}
    recent: list[RecentGame] = []
    beaten: dict[tuple[str, str], int] = {}
    for g in games:
        settings, result = _json(g["settings"]) or {}, _json(g["result"])
        variant = settings.get("variant")
        won = None if not result else g["seat"] in result.get("winners", [])
        c = counts.setdefault((g["game"], variant), [0, 0])
        c[0] += 1
        c[1] += bool(won)
        table_seats = seats.get(g["id"], [])
        if won:
            for s in table_seats:
                if s["kind"] == "bot" and s["seat"] not in result["winners"]:
                    key = (g["game"], s["bot"] or "medium")
                    beaten[key] = beaten.get(key, 0) + 1
        if len(recent) < RECENT:
            shown = bool(g["public"]) or own
            recent.append(RecentGame(
                code=g["code"] if shown else None,
                replay=f"/replay/{g['code']}" if shown else None, game=g["game"],
                variant=variant, rated=bool(g["rated"]), won=won, seat=g["seat"],
                names=seat_names(table_seats, "en"), at=g["at"],
                annulled=g["annulled_at"] is not None))
    points: dict[str, list[HistoryPoint]] = {}
    for game, at, mu, sigma, rank, left, code, public, annulled_at in history:
        pts = points.setdefault(game, [])
        if len(pts) < HISTORY:
            pts.append(HistoryPoint(at=at, rating=conservative(mu, sigma), mu=mu, sigma=sigma,
                                    rank=rank, left=bool(left),
                                    code=code if (public or own) else None,
                                    annulled=annulled_at is not None))
    return ProfileOut(
        name=account["name"], created_at=account["created_at"], established=ESTABLISHED,
        games=[GameCount(game=k[0], variant=k[1], played=v[0], won=v[1])
               for k, v in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))],
        ratings=[RatingOut(game=game, rating=conservative(mu, sigma), mu=mu, sigma=sigma,
                           games=n, wins=w, opponents=o, provisional=not established(n, o),
                           history=list(reversed(points.get(game, []))))
                 for game, mu, sigma, n, w, o in ratings],
        recent=recent,
        bots_beaten=[BotBeaten(game=k[0], bot=k[1], times=v)
                     for k, v in sorted(beaten.items(), key=lambda kv: (kv[0], -kv[1]))])


def _no_player() -> ApiError:
    return ApiError(404, "no player of that name", "no_player")


@router.get("/api/players/{name}", response_model=ProfileOut)
async def player(name: PlayerName, request: Request) -> ProfileOut:
    """A player's public profile: finished games played and won per game and rule set, the
    ratings with their history (the conservative rating mu - 3 sigma after each rated game),
    the latest games with their replays (a private table's only to the account itself) and
    the bots beaten. The name is found as sign-up compares names (case, spaces and other
    scripts' lookalikes alike). 404 `no_player` for a name without an account (a deleted
    one's too)."""
    s = request.app.state.accounts
    try:
        keys = name_keys(" ".join(name.split()))
    except Exception:                               # noqa: BLE001 -- no account has it
        keys = ("", "")
    account = await A.read(s.store, A.by_keys(keys))
    if account is None:
        raise _no_player()
    me = await s.current(request)
    own = me is not None and me[0]["id"] == account["id"]
    return profile_out(account, await A.read(s.store, _profile(account["id"])), own)


#: SQL: a rating of `ratings r` is established (ratings.established)
ESTABLISHED_SQL = "(r.games >= :eg AND r.opponents >= :eo)"


def _board(game: str, min_games: int, provisional: bool, offset: int, limit: int) -> A.Op:
    where = (f"r.game = :g AND r.games >= :m AND "
             f"{'NOT ' if provisional else ''}{ESTABLISHED_SQL}")
    params = {"g": game, "m": min_games, "eg": ESTABLISHED_GAMES, "eo": ESTABLISHED_OPPONENTS}
    total = (yield (f"SELECT count(*) FROM ratings r WHERE {where}", params))[0][0]
    rows = yield ("SELECT r.player, r.bot, a.name, r.mu, r.sigma, r.games, r.wins, r.opponents "
                  "FROM ratings r LEFT JOIN accounts a ON a.id = r.account_id WHERE "
                  f"{where} ORDER BY (r.mu - 3 * r.sigma) DESC, r.player LIMIT :n OFFSET :o",
                  dict(params, n=limit, o=offset))
    return total, rows


@router.get("/api/leaderboard/{game}", response_model=LeaderboardOut)
async def leaderboard(request: Request,
                      game: Annotated[str, Path(max_length=32, description="the game")],
                      min_games: Annotated[int, Query(ge=1, le=1000)] = MIN_GAMES,
                      provisional: Annotated[bool, Query(
                          description="list the provisional ratings instead")] = False,
                      offset: Annotated[int, Query(ge=0, le=10**6)] = 0,
                      limit: Annotated[int, Query(ge=1, le=200)] = PAGE) -> LeaderboardOut:
    """The players of a game (accounts and bot levels) with an established rating (at least
    `established.games` rated games against `established.opponents` different players),
    ranked by the conservative rating mu - 3 sigma, those with at least `min_games` rated
    games (default 1), a page of `limit` from `offset`. `provisional=true`: the players whose
    rating is still provisional instead, ranked the same way, apart from the leaderboard.
    404 `no_game` for a game this server does not have."""
    if game not in registry.names():
        raise ApiError(404, "no such game on this server", "no_game", {"game": game[:32]})
    store = request.app.state.accounts.store
    total, rows = await A.read(store, _board(game, min_games, provisional, offset, limit))
    out = []
    for i, (player, bot, name, mu, sigma, n, w, o) in enumerate(rows):
        is_bot = player.startswith("b:")
        out.append(LeaderRow(rank=offset + i + 1, kind="bot" if is_bot else "account",
                             name=bot if is_bot else (name or "?"),
                             rating=conservative(mu, sigma), mu=mu, sigma=sigma, games=n,
                             wins=w, opponents=o, provisional=not established(n, o)))
    return LeaderboardOut(game=game, min_games=min_games, provisional=provisional,
                          established=ESTABLISHED,
                          total=total, offset=offset, limit=limit, rows=out)
