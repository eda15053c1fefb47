"""Rolling the schema back (store/migrate.py, `cardtable migrate`; docs/deploy.md, "Backups,
restore and rollback"), on SQLite and PostgreSQL: from empty to head, then down one revision at
a time to the first and up again to head; at every revision the schema is the one an upgrade
from empty to that revision makes, and a game played at head is still there (its table, seats
and actions: their columns exist from the first revision on); back at head the server shows it
and its record replays. A database of a newer release is refused at start with the command to
run. Both databases run in `make test` (a few seconds each)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from helpers import ROOT, database_url
from test_ratings import play_out, rated_table

from cardtable.cli.main import main as cli
from cardtable.core.record import load_record
from cardtable.server.config import DatabaseURL
from cardtable.server.store import migrate as M


def schema(database: str) -> dict:
    """The tables of a database as the migrations shape them: columns (name, type's kind,
    nullable), indexes and foreign keys (a column type's length is left out: revision 0002's
    downgrade keeps the codes' 32 characters)."""
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            insp = sa.inspect(conn)
            out = {}
            for t in sorted(insp.get_table_names()):
                cols = sorted((c["name"], type(c["type"]).__name__.upper(), c["nullable"])
                              for c in insp.get_columns(t))
                idx = sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                             for i in insp.get_indexes(t))
                fks = sorted((tuple(f["constrained_columns"]), f["referred_table"])
                             for f in insp.get_foreign_keys(t))
                out[t] = (cols, idx, fks)
            return out
    finally:
        engine.dispose()


def count(database: str, sql: str, **params):
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql), params).scalar()
    finally:
        engine.dispose()


def play_at_head(database: str) -> tuple[str, list[str], str]:
    """At head: two accounts play a rated game to its end; a guest's game against a bot is
    under way. (the finished table's code, its actions, the running table's code)"""
    with app_client(database, round_break=0) as web:
        _, mia = web.sign_up("Mia")
        _, max_ = web.sign_up("Max")
        code = rated_table(web, mia, public=False).json()["table"]["code"]
        assert web.call("POST", f"/api/tables/{code}/join", max_, json={"name": "x"},
                        headers={"X-Cardtable-Client": "f" * 32}).status_code == 200
        play_out(web, code)
        record = web.call("GET", f"/api/tables/{code}/record").json()
        running, _ = web.guest_table()
    assert count(database, "SELECT count(*) FROM ratings") == 2
    return code, record["actions"], running


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_down_to_every_revision_and_up_again_keeps_the_games(kind, request, tmp_path, capsys):
    order = [r for r, _ in M.revisions()]
    assert order[-1] == M.head() and M.script_heads() == {M.head()}     # one linear chain
    # the schema an upgrade from empty makes at each revision
    (tmp_path / "fresh").mkdir()
    fresh = database_url(kind, request, tmp_path / "fresh")
    expected = {}
    for rev in order:
        M.upgrade(fresh, rev)
        expected[rev] = schema(fresh)
    db = database_url(kind, request, tmp_path)
    assert M.current_and_head(db) == (None, order[-1])
    assert cli(["migrate", "--database", db]) == 0                      # empty -> head
    assert M.current_and_head(db) == (order[-1], order[-1])
    code, actions, running = play_at_head(db)
    assert schema(db) == expected[order[-1]]
    # going down asks for --yes and changes nothing without it
    capsys.readouterr()
    assert cli(["migrate", "--database", db, "--to", order[-2]]) == 2
    assert "--yes" in capsys.readouterr().err
    assert M.current_and_head(db)[0] == order[-1]
    for rev in reversed(order[:-1]):
        assert M.migrate_to(db, rev) == (order[order.index(rev) + 1], rev)
        assert schema(db) == expected[rev], rev
        assert count(db, "SELECT count(*) FROM actions a JOIN game_tables t ON "
                         "t.id = a.table_id WHERE t.code = :c", c=code) == len(actions), rev
        assert count(db, "SELECT count(*) FROM game_tables WHERE code = :c", c=running) == 1
    capsys.readouterr()
    assert cli(["migrate", "--database", db, "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].startswith(f"* {order[0]} ") and listed[-1].endswith("(head)")
    assert sum(line.startswith("*") for line in listed) == 1
    assert cli(["migrate", "--database", db, "--to", "head"]) == 0
    assert schema(db) == expected[order[-1]]
    # the games survived; the accounts did not (revision 0004 made them): seats without one
    with app_client(db, round_break=0) as web:
        rec = web.call("GET", f"/api/tables/{code}/record")
        assert rec.status_code == 200 and rec.json()["actions"] == actions
        assert load_record(rec.json()).over
        assert web.call("GET", f"/api/tables/{running}").status_code == 200
        assert web.call("GET", "/api/players/Mia").status_code == 404


def test_bad_revisions_are_refused(tmp_path, capsys):
    db = str(tmp_path / "c.db")
    for args, word in ((["--to", "0099"], "unknown revision"), (["--to", "base"], "unknown"),
                       (["--list"], "no SQLite database file")):
        assert cli(["migrate", "--database", db, *args]) == 2
        assert word in capsys.readouterr().err
    assert not Path(db).exists()                        # nothing made by a refusal
    mistyped = tmp_path / "my dir?#" / "x.db"            # a path that needs quoting in a URI
    mistyped.parent.mkdir()
    M.upgrade(str(mistyped))
    assert cli(["backup", "--database", str(mistyped), "--to", str(tmp_path / "b.db")]) == 0
    assert M.current_and_head(str(tmp_path / "b.db"))[0] == M.head()


def test_a_newer_schema_is_refused_at_start_with_the_command_to_run(tmp_path):
    db = str(tmp_path / "c.db")
    M.upgrade(db)
    engine = sa.create_engine(DatabaseURL(db).sync_url)
    with engine.begin() as conn:              # as a later release would leave it
        conn.execute(sa.text(f"UPDATE {M.VERSION_TABLE} SET version_num = '0999'"))
    engine.dispose()
    proc = subprocess.run([sys.executable, "-m", "cardtable.server", "--database", db,
                           "--port", "0"], capture_output=True, text=True, cwd=str(ROOT),
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    err = " ".join(proc.stderr.split())
    assert "Traceback" not in proc.stderr
    assert f"`cardtable migrate --database {db} --to {M.head()}`" in err, err
    assert "revision 0999" in err and "newer release" in err
    # the in-process start (and `cardtable migrate`) refuse it the same way
    with pytest.raises(M.NewerSchema, match="cardtable migrate"):
        M.upgrade(db)
    assert cli(["migrate", "--database", db, "--list"]) == 2
