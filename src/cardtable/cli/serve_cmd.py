"""`cardtable serve`: the game server (lobby over HTTP, games over WebSocket; docs/protocol.md,
docs/deploy.md). `register(app)` adds the command to a Typer app.

    cardtable serve                                   # http://127.0.0.1:8000, ./cardtable.db
    cardtable serve --host 0.0.0.0 --port 8080 --database postgresql://user@db/cardtable \
        --database-password-file /run/secrets/db-password --address-secret-file /etc/cardtable/address.keys
    CARDTABLE_DATABASE_URL=postgresql://user:pw@db/cardtable cardtable serve

A password in `--database` shows in `ps` to every user of the machine: give it in a file, or the
whole URL in the environment (docs/deploy.md).

The database is migrated (Alembic) at start; games being played go on where they were.
Bad options raise ConfigError (the `cardtable` entry point prints one line, exit status 2).
"""

from __future__ import annotations

import typer

from cardtable.core.errors import ConfigError


def run_serve(host: str, port: int, database: str, bot_delay: float, standin: str,
              api_docs: bool = False, trusted_proxies: str = "", max_connections: int = 800,
              connections_per_address: int = 64,
              push_contact: str = "mailto:cardtable@localhost",
              database_password_file: str | None = None,
              address_secret_file: str | None = None, db: dict | None = None) -> int:
    from cardtable.bots import bot_names
    from cardtable.server import Settings
    from cardtable.server.app import listen, run

    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0..65535, not {port}")
    if bot_delay < 0:
        raise ConfigError("--bot-delay must not be negative")
    if standin not in bot_names():
        raise ConfigError(f"unknown bot {standin!r} (known: {', '.join(bot_names())})")
    if max_connections < 0 or connections_per_address < 0:
        raise ConfigError("--max-connections and --connections-per-address must be 0 "
                          "(no limit) or more")
    from cardtable.server.config import secret_settings
    from cardtable.server.talk.push import contact_ok

    if not contact_ok(push_contact):
        raise ConfigError("--push-contact must be a mailto: address or an https: URL")
    from cardtable.server.store.budget import check_numbers

    db = db or {}                 # the PostgreSQL connections (store/budget.py): Settings names
    why = check_numbers(db.get("pool_size", 1), db.get("max_overflow", 0),
                        db.get("decision_pool", 1), db.get("db_idle_seconds", 0),
                        db.get("processes", 1))
    if why:
        raise ConfigError(why)
    settings = Settings(database=database, host=host, port=port, bot_delay=bot_delay,
                        standin=standin, api_docs=api_docs, trusted_proxies=trusted_proxies,
                        max_connections=max_connections,
                        connections_per_address=connections_per_address,
                        push_contact=push_contact, **db)
    try:
        for name, value in secret_settings(database_password_file, address_secret_file).items():
            setattr(settings, name, value)
        settings.url()
        from cardtable.server.guard.connections import TrustedProxies

        TrustedProxies(trusted_proxies)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    sock = listen(settings)           # a busy port: one line, exit 2, before the start line
    run(settings, sock)
    return 0


def register(app: typer.Typer) -> None:
    @app.command("serve", help="Run the game server: lobby over HTTP, games over WebSocket.")
    def serve_cmd(
        host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
        port: int = typer.Option(8000, "--port", help="port to listen on"),
        database: str = typer.Option("cardtable.db", "--database", metavar="URL",
                                     envvar="CARDTABLE_DATABASE_URL",
                                     help="SQLite file or postgresql://user@host/db (a "
                                          "password here shows in ps: use the environment "
                                          "or --database-password-file)"),
        database_password_file: str = typer.Option(
            None, "--database-password-file", metavar="FILE",
            envvar="CARDTABLE_DATABASE_PASSWORD_FILE",
            help="PostgreSQL: the password, the first line of FILE"),
        address_secret_file: str = typer.Option(
            None, "--address-secret-file", metavar="FILE",
            envvar="CARDTABLE_ADDRESS_SECRET_FILE",
            help="the secret keys of the address hashes the database keeps, one a line, the "
                 "current first (default: a key kept in the database; docs/deploy.md)"),
        bot_delay: float = typer.Option(0.5, "--bot-delay", metavar="S",
                                        help="seconds before a bot's decision is applied"),
        standin: str = typer.Option("medium", "--standin", metavar="BOT",
                                    help="bot that plays for a player who is away"),
        api_docs: bool = typer.Option(False, "--api-docs",
                                      help="serve the interactive API docs /docs and /redoc "
                                           "(scripts from a CDN: for development only)"),
        trusted_proxies: str = typer.Option(
            "", "--trusted-proxies", metavar="ADDRS",
            help="proxies whose X-Forwarded-For is believed: addresses or networks, "
                 "comma-separated (default: none; docs/deploy.md)"),
        max_connections: int = typer.Option(800, "--max-connections", metavar="N",
                                             help="open connections in all (0: no limit)"),
        connections_per_address: int = typer.Option(
            64, "--connections-per-address", metavar="N",
            help="open connections per address or IPv6 /64 (0: no limit)"),
        push_contact: str = typer.Option(
            "mailto:cardtable@localhost", "--push-contact", metavar="URL",
            help="the operator's contact in Web Push's VAPID token: mailto: or https: "
                 "(docs/deploy.md)"),
        db_pool_size: int = typer.Option(10, "--db-pool-size", metavar="N",
                                         help="PostgreSQL: connections kept for reads and "
                                              "lobby changes"),
        db_max_overflow: int = typer.Option(10, "--db-max-overflow", metavar="N",
                                            help="PostgreSQL: more of them in a burst"),
        db_decision_pool: int = typer.Option(10, "--db-decision-pool", metavar="N",
                                             help="PostgreSQL: connections of the decisions"),
        db_idle_seconds: float = typer.Option(60.0, "--db-idle-seconds", metavar="S",
                                              help="PostgreSQL: close a pool connection idle "
                                                   "this long (0: never)"),
        processes: int = typer.Option(1, "--processes", metavar="N",
                                      help="PostgreSQL: server processes sharing the "
                                           "database, checked against its max_connections"),
    ) -> None:
        db = {"pool_size": db_pool_size, "max_overflow": db_max_overflow,
              "decision_pool": db_decision_pool, "db_idle_seconds": db_idle_seconds,
              "processes": processes}
        raise typer.Exit(run_serve(host, port, database, bot_delay, standin, api_docs,
                                   trusted_proxies, max_connections, connections_per_address,
                                   push_contact, database_password_file, address_secret_file,
                                   db))
