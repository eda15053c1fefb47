"""Migration 0012 (one seat per account and table, provisional ratings) on SQLite and
PostgreSQL: a database of the revision before where an account holds two seats of one table and
two accounts played a rated game upgrades in place: the account keeps its first seat only,
and the ratings' opponents are filled in from the rating history."""

from __future__ import annotations

import sys
from pathlib import Path

import sqlalchemy as sa
from alembic import command

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from test_ratings import play_out, rated_table

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade


def _downgrade(url: DatabaseURL, revision: str) -> None:
    engine = sa.create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, revision)
            conn.commit()
    finally:
        engine.dispose()


def test_the_revision_before_keeps_one_seat_per_account_and_counts_opponents(database):
    with app_client(database, round_break=0) as web:
        _, mia = web.sign_up("Mia")
        _, max_ = web.sign_up("Max")
        rated = rated_table(web, mia).json()["table"]["code"]
        assert web.call("POST", f"/api/tables/{rated}/join", max_, json={"name": "x"},
                        headers={"X-Cardtable-Client": "f" * 32}).status_code == 200
        play_out(web, rated)
        r = web.call("POST", "/api/tables", mia, json={
            "game": "kombio", "players": 2, "target": 1, "public": False, "name": "Mia",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        two = r.json()["table"]["code"]
        assert web.call("POST", f"/api/tables/{two}/join", json={"name": "Gast"}) \
            .status_code == 200
    url = DatabaseURL(database)
    _downgrade(url, "0011")                     # the revision before 0012 (later ones go too)
    engine = sa.create_engine(url.sync_url)
    try:
        with engine.begin() as conn:
            assert "rating_opponents" not in sa.inspect(conn).get_table_names()
            # the state the old claim route could leave: Mia holds both seats of a table
            conn.execute(sa.text(
                "UPDATE seats SET account_id = (SELECT id FROM accounts WHERE name = 'Mia') "
                "WHERE table_id = (SELECT id FROM game_tables WHERE code = :c)"), {"c": two})
        upgrade(url)
        with engine.connect() as conn:
            held = conn.execute(sa.text(
                "SELECT s.seat, a.name FROM seats s LEFT JOIN accounts a ON a.id = s.account_id "
                "WHERE s.table_id = (SELECT id FROM game_tables WHERE code = :c) ORDER BY s.seat"),
                {"c": two}).all()
            assert [tuple(r) for r in held] == [(0, "Mia"), (1, None)]
            got = conn.execute(sa.text(
                "SELECT a.name, r.opponents FROM ratings r JOIN accounts a ON "
                "a.id = r.account_id ORDER BY a.name")).all()
            assert [tuple(r) for r in got] == [("Max", 1), ("Mia", 1)]
    finally:
        engine.dispose()
    with app_client(database, round_break=0) as web:
        (r,) = web.call("GET", "/api/players/Mia").json()["ratings"]
        assert r["opponents"] == 1 and r["provisional"] is True
        games = web.call("GET", "/api/me/games", web.log_in("Mia")[1]).json()
        assert sum(g["code"] == two for g in games) == 1
