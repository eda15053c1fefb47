"""Unit tests of the server's parts that need no running server: the public view, the token
bucket, the message models, database URLs, the migrations, the `serve` command."""

from __future__ import annotations

import json
import random

import pytest
import typer
from pydantic import ValidationError
from typer.testing import CliRunner

from cardtable.core.errors import ConfigError
from cardtable.core.record import new_game
from cardtable.server.config import DatabaseURL
from cardtable.server.protocol import Auth, Decide, Ping, Sync, parse_client
from cardtable.server.views import merge_views, public_view
from cardtable.server.ws import TokenBucket


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, path + (i,))
    else:
        yield path, obj


def _get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


GAMES = [("abluxxen", {"variant": "basic", "players": 4}),
         ("abluxxen", {"variant": "duel", "players": 2}),
         ("abluxxen", {"variant": "classic", "players": 3}),
         ("kombio", {"players": 3, "target": 30}),
         ("kombio", {"players": 2, "target": 20})]


@pytest.mark.parametrize("game,opts", GAMES)
def test_public_view_shows_only_what_every_seat_sees(game, opts):
    rng = random.Random(3)
    st = new_game(game, seed=5, **opts)
    steps = 0
    while not st.over and steps < 400:
        views = [st.view(s) for s in range(st.players)]
        pv = public_view(st)
        assert pv["seat"] is None and pv["legal"] == []
        for path, value in _leaves(pv):
            if path in (("seat",),) or value in ("?", None):
                continue
            for v in views:
                try:
                    seen = _get(v, path)
                except (KeyError, IndexError, TypeError):
                    pytest.fail(f"{path} is in the public view but not in a seat's view")
                if isinstance(seen, list):              # a seat's own hand, shown as a count
                    assert path[0] == "hands" and value == len(seen), (path, value)
                else:
                    assert seen == value, (path, value, seen)
        if game == "abluxxen":
            assert pv["hands"] == pv["hand_counts"]
        else:
            assert pv["drawn"] is None
        st.apply(rng.choice(st.legal()))
        steps += 1


def test_merge_views_rules():
    assert merge_views([[1, 2], 2, 2]) == 2                 # own cards vs a count
    assert merge_views([5, "?", 5]) == "?"
    assert merge_views([7, None]) is None
    assert merge_views([{"a": [1, "?"]}, {"a": [1, 3]}]) == {"a": [1, "?"]}
    assert merge_views([[{"seat": 0}], []]) == []
    assert merge_views([True, 1]) is None                   # no bool/int confusion


def test_token_bucket():
    now = [0.0]
    b = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert b.take() and not b.take()
    now[0] += 100
    assert sum(b.take() for _ in range(10)) == 3


def test_client_messages():
    assert isinstance(parse_client('{"type":"decide","decision":"play 7 7","index":3}'), Decide)
    assert isinstance(parse_client('{"type":"ping","id":"a"}'), Ping)
    assert isinstance(parse_client('{"type":"sync","since":0}'), Sync)
    assert isinstance(parse_client(b'{"type":"auth","token":"t"}'), Auth)
    for bad in ('{"type":"decide","decision":"x","index":"3"}',     # strict: no coercion
                '{"type":"decide","decision":"x","index":true}',
                '{"type":"decide","decision":"x","extra":1}',        # no unknown keys
                '{"type":"decide","decision":""}',
                '{"type":"decide","decision":"' + "x" * 65 + '"}',
                '{"type":"decide"}', '{"type":"nope"}', '{"decision":"x"}', '[]', '"ping"',
                'not json', '{"type":"sync","since":-1}', '{"type":"ping","id":[1]}'):
        with pytest.raises(ValidationError):
            parse_client(bad)


def test_database_urls(tmp_path):
    u = DatabaseURL(str(tmp_path / "x.db"))
    assert u.kind == "sqlite" and not u.is_postgres
    assert u.async_url.drivername == "sqlite+aiosqlite"
    assert DatabaseURL("sqlite:///rel.db").sync_url.database.startswith("/")
    p = DatabaseURL("postgres://u:secret@127.0.0.1:5/db")
    assert p.is_postgres and p.sync_url.drivername == "postgresql+psycopg"
    assert p.libpq() == "postgresql://u:secret@127.0.0.1:5/db"
    assert "secret" not in p.display()
    for bad in ("sqlite:///:memory:", "mysql://h/db"):
        with pytest.raises(ValueError):
            DatabaseURL(bad)


def test_migrations_match_the_models_and_are_idempotent(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    from cardtable.server.db import metadata
    from cardtable.server.migrate import upgrade

    db = tmp_path / "m.db"
    upgrade(str(db))
    upgrade(str(db))                                       # a second start changes nothing
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table":
                                                     "cardtable_alembic_version"})
        diff = compare_metadata(ctx, metadata)
        assert diff == [], diff
        assert conn.exec_driver_sql("SELECT version_num FROM cardtable_alembic_version") \
            .scalar() == "0001"
    engine.dispose()


def test_serve_command_registers():
    from cardtable.cli import serve_cmd

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        pass

    serve_cmd.register(app)
    res = CliRunner().invoke(app, ["serve", "--help"])
    assert res.exit_code == 0 and "--database" in res.output and "--port" in res.output
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 70000, "x.db", 0.5, "medium")
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 8000, "mysql://h/db", 0.5, "medium")
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 8000, "x.db", 0.5, "nobody")


def test_server_models_describe_what_the_server_sends():
    from cardtable.server.protocol import server_message

    server_message.validate_python({"type": "error", "code": "x", "message": "y", "id": None})
    with pytest.raises(ValidationError):
        server_message.validate_python({"type": "event", "index": 1})
    json.dumps(server_message.json_schema())                   # documented schema exists
