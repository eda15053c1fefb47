"""Human ratings (issue 32; docs/ratings.md): the rating update (winner up, loser down, a
leaver ranked last, bots rated), rated tables (only accounts sit there), the profile and the
leaderboard routes, on SQLite and PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client

from cardtable.server.people import ratings as R
from cardtable.server.tables.table_base import ProtocolError


# -- the update -----------------------------------------------------------------------------------
def test_ranks_by_score_sense_and_leavers_last():
    # higher is better: seat 1 won; seat 2 left although its score was the best
    assert R.ranks([5, 9, 12], [1], False, set()) == [3, 1, 2]
    assert R.ranks([5, 9, 12], [1], False, {2}) == [2, 1, 3]
    # lower is better (Kombio's sense), a tie shares a rank
    assert R.ranks([10, 3, 10], [1], True, set()) == [2, 1, 2]
    # a winner who left is last all the same; two leavers share the last rank
    assert R.ranks([1, 2, 3], [0], True, {0}) == [3, 1, 2]
    assert R.ranks([1, 2, 3], [0], True, {0, 2}) == [2, 1, 2]


def test_winner_up_loser_down_and_sigma_shrinks():
    (w_mu, w_s), (l_mu, l_s) = R.rate([(R.MU, R.SIGMA), (R.MU, R.SIGMA)], [1, 2])
    assert w_mu > R.MU > l_mu
    assert w_s < R.SIGMA and l_s < R.SIGMA
    assert R.conservative(w_mu, w_s) > R.conservative(l_mu, l_s)


def _drive(op, answers):
    """Run a ratings operation against canned rows (a list per statement that reads)."""
    sent = []
    rows = None
    try:
        while True:
            sql, params = op.send(rows)
            sent.append((sql, params))
            rows = answers.pop(0) if sql.lstrip().startswith("SELECT") else []
    except StopIteration as stop:
        return stop.value, sent


def test_a_leaver_loses_and_a_bot_level_is_rated_as_a_player():
    seats = [{"seat": 0, "kind": "human", "bot": None, "away": True},
             {"seat": 1, "kind": "bot", "bot": "easy", "away": False}]
    op = R.game_end(7, "kombio", seats, scores=[3, 40], winners=[0], lower_is_better=True,
                    postgres=False)
    history, sent = _drive(op, [[(0, 42), (1, None)],
                                [("a:42", R.MU, R.SIGMA), ("b:easy", R.MU, R.SIGMA)]])
    by = {h["player"]: h for h in history}
    assert set(by) == {"a:42", "b:easy"}
    assert by["a:42"]["left_game"] and by["a:42"]["rank"] == 2       # won on score, left
    assert by["a:42"]["mu_after"] < R.MU < by["b:easy"]["mu_after"]
    assert by["b:easy"]["rank"] == 1
    updates = [p for s, p in sent if s.startswith("UPDATE ratings")]
    assert {p["p"]: p["w"] for p in updates} == {"a:42": 0, "b:easy": 1}


# -- the server ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def web(database):
    with app_client(database, round_break=0) as w:
        yield w


def rated_table(web, sess, seats=None, public=True, **body):
    body = {"game": "kombio", "players": 2, "target": 1, "public": public, "name": "x",
            "rated": True, "seats": seats or [{"kind": "human"}, {"kind": "human"}], **body}
    return web.call("POST", "/api/tables", sess, json=body)


def play_out(web, code: str, away: tuple[int, ...] = (), moves_first: int = 0):
    """Play the table to its end in the app's loop: the seats in `away` make `moves_first`
    decisions of their own, then are marked away (a bot plays for them: they left), the other
    humans play as the medium bot would."""
    from cardtable.bots.base import act, make_bot

    hub = web.app.state.accounts.hub()
    player = make_bot("medium", seed=5)

    async def run():
        rt = await hub.runtime_by_code(code)
        made = dict.fromkeys(away, 0)

        async def decide(s, text):
            await rt.decide(s, text)
            if s in made:
                made[s] += 1

        try:
            while rt.status != "over":
                for s in away:
                    if made[s] >= moves_first and not rt.seats[s]["away"]:
                        await rt.set_away(s, True)
                tick = rt.tick
                w = rt.window()
                try:
                    if w is not None:
                        for s in rt.window_order():
                            if not rt.is_auto(s) and s not in rt.answers():
                                await decide(s, w.silence)
                    elif not rt.is_auto(rt.state.to_move):
                        await decide(rt.state.to_move, act(player, rt.state).text)
                except ProtocolError:
                    pass
                if rt.tick == tick and rt.status != "over":
                    await rt.wait_change(tick, 1.0)          # the bots' turn: the driver
        finally:
            hub.release(rt)
    web.client.portal.call(run)


def test_a_rated_table_needs_a_logged_in_host_who_sits(web):
    r = rated_table(web, None)
    assert r.status_code == 401 and r.json()["error"] == "rated_login"
    _, s = web.sign_up("Hosta")
    r = rated_table(web, s, name=None)
    assert r.status_code == 422 and r.json()["error"] == "rated_host_seat"
    r = rated_table(web, s, name="Someone Else")
    assert r.status_code == 201, r.text
    t = r.json()["table"]
    assert t["rated"] is True and t["turn_seconds"]          # a timer: nobody stalls it
    assert r.json()["join"]["name"] == "Hosta"               # the account's name at the table
    # an unrated table says so
    assert web.guest_table("Gast")[0]
    assert web.call("GET", f"/api/tables/{web.guest_table('Gast2')[0]}").json()["rated"] is False


def test_a_guest_cannot_sit_at_a_rated_table_and_nothing_changes(web):
    _, s = web.sign_up("Wirtin")
    code = rated_table(web, s).json()["table"]["code"]
    before = web.call("GET", f"/api/tables/{code}").json()
    r = web.call("POST", f"/api/tables/{code}/join", json={"name": "Gast"})
    assert r.status_code == 401 and r.json()["error"] == "rated_login"
    r = web.call("POST", "/api/join", json={"table": f"/t/{code}", "name": "Gast"})
    assert r.status_code == 401 and r.json()["error"] == "rated_login"
    assert web.call("GET", f"/api/tables/{code}").json() == before
    # the host's account cannot take the second seat too
    r = web.call("POST", f"/api/tables/{code}/join", s, json={"name": "Zweitname"})
    assert r.status_code == 409 and r.json()["error"] == "rated_seat_held"


def test_two_accounts_play_a_rated_game_and_both_ratings_move(web):
    _, a = web.sign_up("Ratna")
    _, b = web.sign_up("Rolf")
    code = rated_table(web, a).json()["table"]["code"]
    r = web.call("POST", "/api/join", b, json={"table": f"/t/{code}", "name": "whatever"},
                 headers={"X-Cardtable-Client": "b" * 32})       # another browser
    assert r.status_code == 200 and r.json()["name"] == "Rolf", r.text
    assert web.call("GET", "/api/leaderboard/kombio?provisional=true").json()["total"] == 0
    play_out(web, code)
    rec = web.call("GET", f"/api/tables/{code}/record").json()
    assert rec["actions"]
    pa = web.call("GET", "/api/players/ratna").json()            # any case finds it
    pb = web.call("GET", "/api/players/Rolf", a).json()
    (ra,), (rb,) = pa["ratings"], pb["ratings"]
    assert ra["games"] == rb["games"] == 1 and ra["game"] == "kombio"
    won_a = pa["recent"][0]["won"]
    assert won_a is not None and pb["recent"][0]["won"] is (not won_a)
    winner, loser = (ra, rb) if won_a else (rb, ra)
    assert winner["mu"] > R.MU > loser["mu"]
    assert winner["wins"] == 1 and loser["wins"] == 0
    for p in (pa, pb):
        (h,) = p["ratings"][0]["history"]
        assert h["code"] == code and h["left"] is False
        assert p["recent"][0]["replay"] == f"/replay/{code}" and p["recent"][0]["rated"]
        assert p["games"] == [{"game": "kombio", "variant": None, "played": 1,
                               "won": int(p["recent"][0]["won"])}]
    # one game: provisional, listed apart from the leaderboard, and flagged
    assert ra["provisional"] and rb["provisional"] and ra["opponents"] == 1
    board = web.call("GET", "/api/leaderboard/kombio?provisional=true").json()
    assert board["provisional"] is True and board["established"] == {
        "games": R.ESTABLISHED_GAMES, "opponents": R.ESTABLISHED_OPPONENTS}
    assert [(x["name"], x["kind"], x["provisional"]) for x in board["rows"]] == [
        (n, "account", True) for n in (["Ratna", "Rolf"] if won_a else ["Rolf", "Ratna"])]
    assert board["rows"][0]["rating"] == pytest.approx(winner["mu"] - 3 * winner["sigma"])
    # the leaderboard lists established ratings only
    assert web.call("GET", "/api/leaderboard/kombio").json()["total"] == 0


def test_leaving_counts_as_a_loss_and_the_bot_is_rated(web):
    _, s = web.sign_up("Lena")
    code = rated_table(web, s, seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}]) \
        .json()["table"]["code"]
    play_out(web, code, away=(0,), moves_first=1)  # Lena moves, leaves: a bot finishes
    p = web.call("GET", "/api/players/Lena").json()
    (r,) = p["ratings"]
    assert r["mu"] < R.MU and r["history"][0]["left"] is True and r["wins"] == 0
    board = web.call("GET", "/api/leaderboard/kombio?provisional=true&limit=200").json()
    bots = [x for x in board["rows"] if x["kind"] == "bot"]
    assert [x["name"] for x in bots] == ["easy"] and bots[0]["mu"] > R.MU


def test_a_bot_beaten_shows_on_the_profile_and_private_codes_stay_private(web):
    _, s = web.sign_up("Bruno")
    wins = 0
    for _ in range(10):                 # Bruno plays as the medium bot: he wins most games
        code = rated_table(web, s, public=False, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "random"}]).json()["table"]["code"]
        play_out(web, code)
        wins += web.call("GET", "/api/players/Bruno", s).json()["recent"][0]["won"]
        if wins:
            break
    assert wins, "Bruno never beat the random bot"
    own = web.call("GET", "/api/players/Bruno", s).json()
    assert own["bots_beaten"] == [{"game": "kombio", "bot": "random", "times": 1}]
    assert own["recent"][0]["code"] == code and own["recent"][0]["replay"]
    other = web.call("GET", "/api/players/Bruno").json()           # anybody else
    assert other["recent"][0]["code"] is None and other["recent"][0]["replay"] is None
    assert all(h["code"] is None for h in other["ratings"][0]["history"])
    assert other["bots_beaten"] == own["bots_beaten"]


def test_unrated_games_move_no_rating_but_count_as_played(web):
    _, s = web.sign_up("Ute")
    r = web.call("POST", "/api/tables", s, json={
        "game": "kombio", "players": 2, "target": 1, "public": True, "name": "Ute",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
    code = r.json()["table"]["code"]
    play_out(web, code)
    p = web.call("GET", "/api/players/Ute").json()
    assert p["ratings"] == [] and p["games"][0]["played"] == 1
    assert p["recent"][0]["rated"] is False and p["recent"][0]["code"] == code


def test_unknown_and_deleted_players_and_unknown_games_are_404(web):
    r = web.call("GET", "/api/players/Niemand")
    assert r.status_code == 404 and r.json() == {"detail": "no player of that name",
                                                 "error": "no_player", "params": {}}
    for bad in ("x" * 200, "%20", "a\u200bb"):
        assert web.call("GET", f"/api/players/{bad}").json() == r.json()
    _, s = web.sign_up("Gone")
    assert web.call("GET", "/api/players/Gone").status_code == 200
    assert web.call("DELETE", "/api/me", s, json={"password": "correct horse battery"}) \
        .status_code == 204
    assert web.call("GET", "/api/players/Gone").json() == r.json()
    r = web.call("GET", "/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"] == "no_game"
    assert web.call("GET", "/api/leaderboard/kombio?min_games=0").status_code == 422
    assert web.call("GET", "/api/leaderboard/kombio?limit=1000").status_code == 422


def test_routes_are_in_the_openapi_schema(web):
    paths = web.call("GET", "/openapi.json").json()["paths"]
    assert "get" in paths["/api/players/{name}"]
    assert "get" in paths["/api/leaderboard/{game}"]
    props = web.call("GET", "/openapi.json").json()["components"]["schemas"]["CreateTable"]
    assert "rated" in props["properties"]


def test_a_deleted_accounts_rating_leaves_the_board_and_the_others_history_stays(web):
    _, a = web.sign_up("Delia")
    _, b = web.sign_up("Dieter")
    code = rated_table(web, a).json()["table"]["code"]
    assert web.call("POST", f"/api/tables/{code}/join", b, json={"name": "D"},
                    headers={"X-Cardtable-Client": "d" * 32}).status_code == 200
    play_out(web, code)
    names = lambda: {x["name"] for x in web.call(                       # noqa: E731
        "GET", "/api/leaderboard/kombio?provisional=true&limit=200").json()["rows"]}
    assert {"Delia", "Dieter"} <= names()
    assert web.call("DELETE", "/api/me", a, json={"password": "correct horse battery"}) \
        .status_code == 204
    assert "Delia" not in names() and "Dieter" in names()
    p = web.call("GET", "/api/players/Dieter").json()
    assert len(p["ratings"][0]["history"]) == 1
    assert p["recent"][0]["names"][0] == "Seat 1"          # the deleted player, neutrally


def test_the_leave_message_hands_the_seat_to_a_bot_and_counts_as_a_loss(web):
    """A player leaves a rated game by the `leave` message: the connection watches from then
    on (its seat is a bot's: a decision is refused, the state has no seat and no hand), the
    token no longer holds the seat, the bot plays it to the end, and the rating counts the
    game as the account's loss (its history says it left); a spectator cannot leave."""
    from starlette.websockets import WebSocketDisconnect

    _, s = web.sign_up("Ludwig")
    made = rated_table(web, s, seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}]).json()
    code, token = made["table"]["code"], made["join"]["token"]
    c = web.client
    with c.websocket_connect(f"/ws/{code}") as spectator:
        spectator.send_json({"type": "leave", "id": 1})
        while (m := spectator.receive_json())["type"] != "error":
            pass
        assert (m["code"], m["id"]) == ("not_seated", 1)
    with c.websocket_connect(f"/ws/{code}?token={token}") as ws:
        while (m := ws.receive_json())["type"] != "state":
            pass
        assert m["seat"] == 0 and m["view"]["seat"] == 0
        ws.send_json({"type": "leave", "id": 2})
        while not ((m := ws.receive_json())["type"] == "state" and m["seat"] is None):
            assert m["type"] != "error", m
        assert m["view"].get("seat") is None                  # the public view: no hand
        assert m["seats"][0]["kind"] == "bot"
        ws.send_json({"type": "decide", "decision": "draw", "id": 3})
        while (m := ws.receive_json())["type"] != "error":
            pass
        assert (m["code"], m["id"]) == ("not_seated", 3)
    with pytest.raises(WebSocketDisconnect) as e:              # the token holds no seat now
        with c.websocket_connect(f"/ws/{code}?token={token}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            ws.receive_json()
    assert e.value.code == 4401
    play_out(web, code)                                         # the bots finish the game
    (r,) = web.call("GET", "/api/players/Ludwig").json()["ratings"]
    assert r["games"] == 1 and r["wins"] == 0 and r["mu"] < R.MU
    assert r["history"][0]["left"] is True


# -- provisional ratings and leavers who never moved --------------------------------------------
def test_a_seat_that_left_before_moving_is_rated_alone():
    # two players: the leaver who never moved loses, the other is not rated at all
    assert R.rated_seats({1}, {0}, ["a:1", "a:2"]) == ({1}, {1})
    # it moved once: the game counts for both
    assert R.rated_seats({1}, {0, 1}, ["a:1", "a:2"]) == ({0, 1}, set())
    # three players: the two who stayed are rated between themselves
    assert R.rated_seats({2}, {0, 1}, ["a:1", "b:easy", "a:3"]) == ({0, 1, 2}, {2})
    # a bot level in both other seats is one player: nobody to be rated against
    assert R.rated_seats({0}, {1, 2}, ["a:1", "b:easy", "b:easy"]) == ({0}, {0})
    seats = [{"seat": 0, "kind": "human", "bot": None, "away": False},
             {"seat": 1, "kind": "human", "bot": None, "away": False},
             {"seat": 2, "kind": "bot", "bot": "easy", "away": False}]
    op = R.game_end(7, "kombio", seats, scores=[3, 40, 20], winners=[0],
                    lower_is_better=True, postgres=False, moved={0})
    history, sent = _drive(op, [[(0, 1), (1, 2)], [
        ("a:1", R.MU, R.SIGMA), ("a:2", R.MU, R.SIGMA), ("b:easy", R.MU, R.SIGMA)]])
    # seat 1 did not leave (it is human, not away): all three are rated, as before
    assert {h["player"] for h in history} == {"a:1", "a:2", "b:easy"}
    seats[1] = dict(seats[1], away=True)                    # seat 1 left without a move
    op = R.game_end(7, "kombio", seats, scores=[3, 40, 20], winners=[0],
                    lower_is_better=True, postgres=False, moved={0})
    history, sent = _drive(op, [[(0, 1), (1, 2)], [
        ("a:1", R.MU, R.SIGMA), ("a:2", R.MU, R.SIGMA), ("b:easy", R.MU, R.SIGMA)]])
    by = {h["player"]: h for h in history}
    assert by["a:2"]["left_game"] and by["a:2"]["mu_after"] < R.MU
    # a:1 and the bot are rated as a two-player game of theirs, the leaver not counted
    (w, _), (l, _) = R.rate([(R.MU, R.SIGMA), (R.MU, R.SIGMA)], [1, 2])
    assert by["a:1"]["mu_after"] == pytest.approx(w)
    assert by["b:easy"]["mu_after"] == pytest.approx(l)
    opponents = {(p["p"], p["o"]) for s, p in sent if "rating_opponents (" in s}
    assert opponents == {("a:1", "b:easy"), ("b:easy", "a:1"), ("a:2", "a:1"),
                         ("a:2", "b:easy")}


def test_throwaway_accounts_that_leave_at_once_farm_nothing(web):
    """Six rated games against six new accounts that leave before their first move: the
    farmer's rating never moves (no rating, on no list); each throwaway has its loss."""
    _, farmer = web.sign_up("Farmer")
    for i in range(6):
        _, throwaway = web.sign_up(f"Throwaway {i}")
        code = rated_table(web, farmer).json()["table"]["code"]
        r = web.call("POST", f"/api/tables/{code}/join", throwaway, json={"name": "t"},
                     headers={"X-Cardtable-Client": f"{i:032x}"})
        assert r.status_code == 200, r.text
        play_out(web, code, away=(1,))
        (lost,) = web.call("GET", f"/api/players/Throwaway {i}").json()["ratings"]
        assert lost["games"] == 1 and lost["mu"] < R.MU and lost["history"][0]["left"]
    p = web.call("GET", "/api/players/Farmer").json()
    assert p["ratings"] == [] and p["games"][0]["played"] == 6
    for provisional in ("false", "true"):
        rows = web.call("GET", f"/api/leaderboard/kombio?provisional={provisional}"
                               "&limit=200").json()["rows"]
        assert "Farmer" not in {x["name"] for x in rows}


def test_a_rating_is_provisional_until_enough_games_against_enough_players(web):
    """Five games against two bot levels: still provisional (two different opponents); a
    sixth against a third level: established, on the leaderboard, no longer on the list of
    provisional ones. The bot levels, with one opponent each, stay provisional."""
    _, s = web.sign_up("Petra")

    def play(bot):
        code = rated_table(web, s, seats=[{"kind": "human"}, {"kind": "bot", "bot": bot}]) \
            .json()["table"]["code"]
        play_out(web, code)
        (r,) = web.call("GET", "/api/players/Petra").json()["ratings"]
        return r

    def listed(provisional):
        return {x["name"]: x for x in web.call(
            "GET", f"/api/leaderboard/kombio?provisional={provisional}&limit=200"
        ).json()["rows"]}

    for bot in ("random", "easy", "random", "easy"):
        r = play(bot)
    assert r["provisional"] and r["games"] == 4 and r["opponents"] == 2
    r = play("random")
    assert r["provisional"] and r["games"] == R.ESTABLISHED_GAMES and r["opponents"] == 2
    assert "Petra" in listed("true") and "Petra" not in listed("false")
    r = play("medium")
    assert not r["provisional"] and r["games"] == 6 and r["opponents"] == 3
    board = listed("false")
    assert board["Petra"]["provisional"] is False and board["Petra"]["opponents"] == 3
    assert "Petra" not in listed("true")
    assert board["Petra"]["rating"] == pytest.approx(r["rating"])
