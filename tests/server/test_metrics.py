"""`GET /metrics` (server/observe/metrics.py, server/http/metrics.py; docs/deploy.md, "Seeing
it: metrics, logs, health"): a real server's metrics, read with prometheus_client's own
parser, move as the decisions, errors and connections made against it; the bot pool's wait
is timed; the metrics are only for the operator (loopback, or the bearer token)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import tempfile

import pytest

from fastapi.testclient import TestClient
from helpers import Client
from helpers import run_async as run
from prometheus_client.parser import text_string_to_metric_families

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits
from cardtable.server.observe.metrics import Metrics
from cardtable.server.tables.botpool import BotPool


def scrape(srv) -> dict[tuple[str, tuple], float]:
    """Every sample of the server's /metrics: (name, sorted labels) -> value."""
    r = srv.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(r.text) for s in fam.samples}


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def sockets_closed(srv) -> dict:
    """The server's metrics once none of its WebSockets is open any more (a closed client's
    handler ends a moment after the client closed)."""
    while True:
        m = await asyncio.to_thread(scrape, srv)
        if value(m, "cardtable_connections", kind="websocket") == 0:
            return m
        await asyncio.sleep(0.05)


async def next_state(clients, index: int) -> None:
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "state" and m["index"] >= index)


def test_decisions_errors_and_connections_are_counted(server):
    """Two players and a spectator at a private duel: while they are connected the WebSocket
    gauge says 3; every decision acknowledged is one more `cardtable_decisions_total{by=
    "player"}` and one more latency observation; an illegal decision and one out of turn are
    counted by their codes; the table shows among the tables being played."""
    async def main():
        before = await sockets_closed(server)
        out = server.create(game="abluxxen", variant="duel", name="Ann", public=False)
        code = out["table"]["code"]
        tb = server.join(code, "Bob")["token"]
        ann = await Client(server.ws_base, code, out["join"]["token"]).connect()
        bob = await Client(server.ws_base, code, tb).connect()
        spec = await Client(server.ws_base, code).connect()
        players = (ann, bob)
        await next_state((ann, bob, spec), 0)
        acks, errors = 0, {}
        for _ in range(6):
            await next_state(players, acks)
            mover = next(c for c in players if c.last_state()["legal"])
            other = bob if mover is ann else ann
            st = mover.last_state()
            if acks == 2:                       # a decision that is no decision, then one
                for c, text in ((mover, "play 99 99"), (other, st["legal"][0])):  # out of turn
                    e = await c.reply({"type": "decide", "decision": text,
                                       "index": st["index"]}, kinds=("ack", "error"))
                    assert e["type"] == "error", e
                    errors[e["code"]] = errors.get(e["code"], 0) + 1
            a = await mover.reply({"type": "decide", "decision": st["legal"][0],
                                   "index": st["index"]}, kinds=("ack", "error"))
            assert a["type"] == "ack", a
            acks += 1
        await next_state((ann, bob, spec), acks)
        during = await asyncio.to_thread(scrape, server)
        for c in (ann, bob, spec):
            await c.close()
        after = await sockets_closed(server)
        return before, during, after, acks, errors

    before, during, after, acks, errors = run(main())
    assert value(during, "cardtable_connections", kind="websocket") == 3
    assert value(during, "cardtable_connections", kind="http") >= 1       # the scrape itself
    moved = {name: value(during, name, **labels) - value(before, name, **labels)
             for name, labels in (("cardtable_decisions_total", {"by": "player"}),
                                  ("cardtable_decision_seconds_count", {"by": "player"}))}
    assert moved == {"cardtable_decisions_total": acks, "cardtable_decision_seconds_count": acks}
    assert value(during, "cardtable_decision_seconds_sum", by="player") > 0
    assert set(errors) == {"illegal", "not_your_turn"}, errors
    for code, n in errors.items():
        assert value(during, "cardtable_errors_total", code=code) - \
            value(before, "cardtable_errors_total", code=code) == n
    assert value(during, "cardtable_tables", state="playing") >= 1
    assert value(during, "cardtable_http_responses_total", status="201") >= 1   # the create
    assert value(after, "cardtable_connections", kind="websocket") == 0
    for pool in ("main",) + (("decisions",) if "postgresql" in server.database else ()):
        assert ("cardtable_db_pool_in_use", (("pool", pool),)) in after
        assert value(after, "cardtable_db_pool_waiting", pool=pool) == 0


def test_an_unknown_table_counts_as_an_error(server):
    """A WebSocket refused for an unknown code is a `not_found` sent."""
    async def main():
        before = await asyncio.to_thread(scrape, server)
        c = await Client(server.ws_base, "NOSUCHTABLE").connect()
        await c.wait_for(lambda m: m["type"] == "error")
        await c.close()
        return before, await sockets_closed(server)

    before, after = run(main())
    assert value(after, "cardtable_errors_total", code="not_found") - \
        value(before, "cardtable_errors_total", code="not_found") == 1


def test_through_a_proxy_the_metrics_are_refused(server):
    """A request that came through a proxy (X-Forwarded-For) is not the operator's, even from
    loopback: 403 without the token."""
    r = server.get("/metrics", headers={"X-Forwarded-For": "203.0.113.7"})
    assert r.status_code == 403 and r.json()["error"] == "metrics_forbidden"


def test_the_bearer_token_opens_the_metrics_to_any_address():
    """An app whose client is not on loopback (TestClient's "testclient"): 403 without the
    token or with a wrong one, 200 with it. Two apps in one process keep their own
    registries (no clash, no shared counts)."""
    token = "s3cr3t-metrics-token-0123456789"
    with tempfile.TemporaryDirectory() as d:
        apps = [create_app(Settings(database=f"{d}/m{i}.db", announce=False, bot_workers=0,
                                    limits=Limits.off(), metrics_token=token)) for i in (1, 2)]
        with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
            assert one.get("/metrics").status_code == 403
            assert one.get("/metrics", headers={"Authorization": "Bearer wrong-token-0123456789"}
                           ).status_code == 403
            ok = {"Authorization": f"Bearer {token}"}
            assert one.get("/api/tables/NOSUCH").status_code == 404
            first = one.get("/metrics", headers=ok)
            assert first.status_code == 200
            assert 'cardtable_errors_total{code="no_table"} 1.0' in first.text
            assert 'cardtable_errors_total{code="no_table"}' not in \
                two.get("/metrics", headers=ok).text


def test_the_bot_pools_wait_is_timed():
    """A request of the bot pool is observed once, when a worker takes it."""
    async def main():
        pool = BotPool(1)
        pool.metrics = m = Metrics()

        def submit(args):
            f = concurrent.futures.Future()
            f.set_result("pass")
            return f
        pool._submit = submit
        assert await pool.decide("table", "hard", 1, None) == "pass"
        return m

    m = run(main())
    got = {s.name: s.value for fam in text_string_to_metric_families(m.exposition().decode())
           for s in fam.samples}
    assert got["cardtable_bot_wait_seconds_count"] == 1



def test_a_bad_metrics_token_file_is_refused_at_start(tmp_path, capsys):
    """A token file that cannot be read, or whose token is too short, stops the start with
    one line (exit status 2; `cardtable serve`: a ConfigError, which its entry point prints
    as one line with status 2) before anything is started."""
    from cardtable.cli.serve_cmd import run_serve
    from cardtable.core.errors import ConfigError
    from cardtable.server import main

    short = tmp_path / "short.token"
    short.write_text("abc\n")
    for path, says in ((tmp_path / "missing.token", "cannot read the metrics token"),
                       (short, "16 or more printable ASCII characters")):
        assert main(["--database", str(tmp_path / "x.db"), "--metrics-token-file",
                     str(path)]) == 2
        assert says in capsys.readouterr().err
        with pytest.raises(ConfigError, match=says):
            run_serve("127.0.0.1", 0, str(tmp_path / "x.db"), 0.5, "medium",
                      metrics_token_file=str(path))
    assert not (tmp_path / "x.db").exists()


def test_the_database_pool_gauges_see_a_waiting_task(tmp_path):
    """The figures read from SQLAlchemy's pool (its checked-out connections, the tasks queued
    for one) with the SQLAlchemy installed: a pool of one connection, held, and a second
    task that waits for it."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from cardtable.server.observe.metrics import db_pools

    class Store:
        engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", pool_size=1,
                                     max_overflow=0, pool_timeout=None)

    async def main():
        seen = [db_pools(Store)]
        async with Store.engine.connect() as held:
            await held.execute(text("SELECT 1"))
            seen.append(db_pools(Store))

            async def second():
                async with Store.engine.connect() as c:
                    await c.execute(text("SELECT 1"))
            task = asyncio.create_task(second())
            while db_pools(Store)["main"][1] == 0 and not task.done():
                await asyncio.sleep(0.01)
            seen.append(db_pools(Store))
        await task
        seen.append(db_pools(Store))
        await Store.engine.dispose()
        return seen

    seen = run(main())
    assert [s["main"] for s in seen] == [(0, 0), (1, 0), (1, 1), (0, 0)]


def test_reports_and_moderators_actions_are_counted(tmp_path):
    """A report is counted by its reason, each moderator's action by its kind (a suspension
    apart from a ban); a refused action (a player's claim) is not counted. Every reason's and
    kind's series exists from the start."""
    from accounts_helpers import app_client

    from cardtable.cli.main import main
    from cardtable.server.mod.moderation import REPORT_REASONS
    from cardtable.server.observe.metrics import MOD_ACTIONS
    from cardtable.server.observe.metrics import REPORT_REASONS as COUNTED_REASONS

    assert COUNTED_REASONS == REPORT_REASONS
    db = f"{tmp_path}/m.db"
    with app_client(db, client_kw={"client": ("127.0.0.1", 40000)}) as b:
        sess = {n: b.sign_up(n)[1] for n in ("Mod", "Ann", "Ben")}
        assert main(["admin", "role", "Mod", "moderator", "--reason", "t", "--database", db]) == 0
        before = scrape(b.client)
        assert all(("cardtable_reports_total", (("reason", r),)) in before for r in REPORT_REASONS)
        assert all(("cardtable_mod_actions_total", (("kind", k),)) in before for k in MOD_ACTIONS)
        for reason in ("abuse", "abuse", "spam"):
            r = b.call("POST", "/api/reports", sess["Ann"], json={"name": "Ben", "reason": reason})
            assert r.status_code == 201, r.text
        rid = r.json()["id"]
        assert b.call("POST", f"/api/mod/reports/{rid}/claim", sess["Ann"]).status_code == 403
        for path, body in ((f"/api/mod/reports/{rid}/claim", None),
                           ("/api/mod/warnings", {"name": "Ben", "text": "be kind"}),
                           ("/api/mod/mutes", {"name": "Ben", "reason": "spam", "until": "1h"}),
                           ("/api/mod/bans", {"name": "Ben", "reason": "spam", "until": "1d"}),
                           ("/api/mod/bans", {"name": "Ben", "reason": "spam"}),
                           (f"/api/mod/reports/{rid}/resolve",
                            {"outcome": "banned", "note": "spam"})):
            r = b.call("POST", path, sess["Mod"], json=body)
            assert r.status_code in (200, 201), r.text
        after = scrape(b.client)

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert {r: grew("cardtable_reports_total", reason=r) for r in REPORT_REASONS} == \
        {"abuse": 2, "cheating": 0, "spam": 1, "name": 0, "other": 0}
    assert {k: grew("cardtable_mod_actions_total", kind=k) for k in MOD_ACTIONS} == \
        {"claim": 1, "resolve": 1, "remove_line": 0, "mute": 1, "unmute": 0, "warn": 1,
         "suspend": 1, "ban": 1, "announce": 0, "end_announcement": 0, "annul": 0}
