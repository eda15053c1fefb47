"""The cardtable game server: a lobby over HTTP and the games over WebSocket.

    cardtable serve [--host 127.0.0.1] [--port 8000] [--database URL]
    python -m cardtable.server ...             (the same, without the cardtable CLI)

Modules: config (settings, database URLs), db (schema, Store), migrate + migrations/ (Alembic),
protocol (pydantic message models), views (public view, events in words), runtime (tables:
the decision path, the broadcast), driver (bots, timers, snap windows, LISTEN/NOTIFY), ws (the
WebSocket endpoint), app (FastAPI: lobby routes, lifespan). docs/protocol.md describes the
protocol, docs/deploy.md running it (several processes, a load balancer).
"""

from cardtable.server.config import DatabaseURL, Settings

__all__ = ["DatabaseURL", "Settings", "create_app", "main", "run"]


def create_app(settings: Settings | None = None, clock=None):
    """The app; `clock`: the game's time (server/clock.py; default real time)."""
    from cardtable.server.app import create_app as _create

    return _create(settings, clock)


def run(settings: Settings) -> None:
    from cardtable.server.app import run as _run

    _run(settings)


def main(argv: list[str] | None = None) -> int:
    """`python -m cardtable.server`: the same options as `cardtable serve`."""
    import argparse
    import os

    from cardtable.server.config import (ADDRESS_SECRET_FILE_ENV, DATABASE_ENV,
                                         PASSWORD_FILE_ENV, secret_settings)

    d = Settings()
    p = argparse.ArgumentParser(prog="python -m cardtable.server",
                                description="Run the cardtable game server.")
    p.add_argument("--host", default=d.host)
    p.add_argument("--port", type=int, default=d.port)
    p.add_argument("--database", default=os.environ.get(DATABASE_ENV) or d.database,
                   help=f"SQLite file (default cardtable.db) or postgresql://... (default: "
                        f"${DATABASE_ENV} if set; a URL on the command line shows in ps)")
    p.add_argument("--database-password-file", metavar="FILE",
                   default=os.environ.get(PASSWORD_FILE_ENV) or None,
                   help=f"PostgreSQL: read the password from the first line of FILE, not "
                        f"from the URL (default: ${PASSWORD_FILE_ENV} if set)")
    p.add_argument("--address-secret-file", metavar="FILE",
                   default=os.environ.get(ADDRESS_SECRET_FILE_ENV) or None,
                   help="the secret keys of the address hashes the database keeps, one a "
                        "line, the current first (default: $" + ADDRESS_SECRET_FILE_ENV +
                        " if set, else a key kept in the database; docs/deploy.md)")
    p.add_argument("--bot-delay", type=float, default=d.bot_delay,
                   help="seconds before a bot's decision is applied (default %(default)s)")
    p.add_argument("--standin", default=d.standin,
                   help="bot that plays for an away player (default %(default)s)")
    p.add_argument("--round-break", type=float, default=d.round_break,
                   help="a game played in rounds: longest wait for the players' ready after "
                        "a round, 0: none (default %(default)s)")
    p.add_argument("--round-pause", type=float, default=d.round_pause,
                   help="a game played in rounds: the pause after a round when no player is "
                        "connected (default %(default)s)")
    p.add_argument("--rate", type=float, default=d.rate,
                   help="messages per second per connection (default %(default)s)")
    p.add_argument("--burst", type=int, default=d.burst, help="message burst per connection")
    p.add_argument("--chat-rate", type=float, default=d.chat_rate,
                   help="chat messages per second per seat (per spectator)")
    p.add_argument("--chat-burst", type=int, default=d.chat_burst,
                   help="chat message burst per seat (per spectator)")
    p.add_argument("--client-limits", choices=("on", "off"), default="on",
                   help="the limits per client address (docs/deploy.md); off: for tests and "
                        "benchmarks whose clients all come from one address")
    p.add_argument("--public-seats-per-address", type=int, default=d.public_seats_per_address,
                   help="seats the people behind one address may hold at one public table "
                        "(one each; 0: no limit; default %(default)s)")
    p.add_argument("--bot-workers", type=int, default=d.bot_workers,
                   help="worker processes for searching bots (0: threads, default %(default)s)")
    p.add_argument("--trusted-proxies", default=d.trusted_proxies,
                   help="addresses and networks (comma-separated; *: any) whose "
                        "X-Forwarded-For is believed (default: none)")
    p.add_argument("--head-timeout", type=float, default=d.head_timeout,
                   help="seconds a request head may take; then the connection is closed "
                        "(0: no limit; default %(default)s)")
    p.add_argument("--keep-alive", type=float, default=d.keep_alive,
                   help="seconds an idle keep-alive connection stays open (default %(default)s)")
    p.add_argument("--max-connections", type=int, default=d.max_connections,
                   help="open connections in all (0: no limit; default %(default)s)")
    p.add_argument("--connections-per-address", type=int, default=d.connections_per_address,
                   help="open connections per address or IPv6 /64, trusted proxies apart "
                        "(0: no limit; off with --client-limits off; default %(default)s)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help="set one limit per client address or in all (security.Limits: "
                        "http_rate, ws_rate, connections, misses_per_minute, tables, "
                        "all_tables, all_new_tables_per_minute, ...)")
    for name, what in (("waiting_ttl", "seconds before a table nobody joined expires"),
                       ("idle_ttl", "seconds before a game nobody plays expires"),
                       ("turn_ttl", "seconds before a turn-based game where no player moved "
                                    "expires"),
                       ("unseen_ttl", "seconds before a table at which a seat was taken "
                                      "and nobody ever connected expires (0: never)"),
                       ("sweep_interval", "seconds between two sweeps of expired tables"),
                       ("public_turn_seconds", "a public table's turn timer if none is set")):
        p.add_argument("--" + name.replace("_", "-"), type=float, default=getattr(d, name),
                       help=what + " (default %(default)s)")
    p.add_argument("--allowed-origins", default=d.allowed_origins,
                   help="origins besides the server's own whose pages may use the session "
                        "cookie (comma-separated, e.g. https://cards.example.org; "
                        "docs/deploy.md, Accounts)")
    p.add_argument("--instance", default=None, help="a label of this process (/api/health)")
    p.add_argument("--api-docs", action="store_true",
                   help="serve the interactive API docs /docs and /redoc (they load scripts "
                        "from a CDN: for development, not a public server)")
    p.add_argument("--push-contact", default=d.push_contact,
                   help="the operator's contact in Web Push's VAPID token, mailto: or https: "
                        "(default %(default)s)")
    p.add_argument("--push-allow-local", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--coach-budget", type=int, default=d.coach_budget,
                   help="the coach's play-outs when a request names none (0: the expert "
                        "level's own, the most; default %(default)s)")
    p.add_argument("--review-budget", type=int, default=d.review_budget,
                   help="a review's play-outs per decision when a request names none (0: "
                        "the most, docs/review.md; default %(default)s)")
    # PostgreSQL connections per process and processes of the deployment (store/budget.py)
    p.add_argument("--db-pool-size", type=int, default=d.pool_size, metavar="N",
                   help="PostgreSQL: connections kept for reads and lobby changes "
                        "(default %(default)s)")
    p.add_argument("--db-max-overflow", type=int, default=d.max_overflow, metavar="N",
                   help="PostgreSQL: more of them in a burst (default %(default)s)")
    p.add_argument("--db-decision-pool", type=int, default=d.decision_pool, metavar="N",
                   help="PostgreSQL: connections of the decisions (default %(default)s)")
    p.add_argument("--db-idle-seconds", type=float, default=d.db_idle_seconds, metavar="S",
                   help="PostgreSQL: close a pool connection idle this long (0: never; "
                        "default %(default)s)")
    p.add_argument("--processes", type=int, default=d.processes, metavar="N",
                   help="PostgreSQL: server processes sharing the database, checked against "
                        "its max_connections at start (default %(default)s)")
    a = p.parse_args(argv)
    from cardtable.server.store.budget import check_numbers

    why = check_numbers(a.db_pool_size, a.db_max_overflow, a.db_decision_pool,
                        a.db_idle_seconds, a.processes)
    if why:
        p.error(why)
    if a.public_seats_per_address < 0:
        p.error("--public-seats-per-address must be 0 (no limit) or more")
    for name in ("head_timeout", "max_connections", "connections_per_address"):
        if getattr(a, name) < 0:
            p.error(f"--{name.replace('_', '-')} must be 0 (no limit) or more")
    if a.chat_rate <= 0 or a.chat_burst < 1:
        p.error("--chat-rate must be more than 0 and --chat-burst 1 or more")
    from cardtable.server.talk.push import contact_ok

    if not contact_ok(a.push_contact):
        p.error("--push-contact must be a mailto: address or an https: URL")

    from cardtable.server.people.origin import parse_allowed

    try:
        parse_allowed(a.allowed_origins)
    except ValueError as e:
        p.error(f"--allowed-origins: {e}")
    if a.coach_budget < 0 or a.review_budget < 0 or 1 in (a.coach_budget, a.review_budget):
        p.error("--coach-budget and --review-budget are 0 (the most) or 2 or more")
    if a.keep_alive <= 0:
        p.error("--keep-alive must be more than 0")
    try:
        secret = secret_settings(a.database_password_file, a.address_secret_file)
        Settings(database=a.database, **secret).url()
    except ValueError as e:
        p.error(str(e))
    from dataclasses import fields

    from cardtable.server.guard.security import Limits

    limits = Limits() if a.client_limits == "on" else Limits.off()
    kinds = {f.name: f.type for f in fields(Limits)}
    for item in a.limit:
        name, _, value = item.partition("=")
        if name not in kinds:
            p.error(f"--limit: unknown limit {name!r} (known: {', '.join(kinds)})")
        try:
            number = float(value) if "float" in str(kinds[name]) else int(value)
        except ValueError:
            p.error(f"--limit {name}: {value!r} is not a number")
        if not 0 <= number < float("inf"):
            p.error(f"--limit {name}: {value!r} must be a number of 0 or more (0: no limit)")
        setattr(limits, name, number)
    extra = {"instance": a.instance} if a.instance else {}
    run(Settings(database=a.database, host=a.host, port=a.port, bot_delay=a.bot_delay,
                 standin=a.standin, rate=a.rate, burst=a.burst, limits=limits,
                 chat_rate=a.chat_rate, chat_burst=a.chat_burst,
                 round_break=max(0.0, a.round_break), round_pause=max(0.0, a.round_pause),
                 bot_workers=a.bot_workers, trusted_proxies=a.trusted_proxies,
                 head_timeout=a.head_timeout, keep_alive=a.keep_alive,
                 max_connections=a.max_connections,
                 connections_per_address=(a.connections_per_address
                                          if a.client_limits == "on" else 0),
                 public_seats_per_person=1 if a.client_limits == "on" else 0,
                 public_seats_per_address=(a.public_seats_per_address
                                           if a.client_limits == "on" else 0),
                 waiting_ttl=a.waiting_ttl, idle_ttl=a.idle_ttl, turn_ttl=a.turn_ttl,
                 unseen_ttl=a.unseen_ttl,
                 sweep_interval=a.sweep_interval, public_turn_seconds=a.public_turn_seconds,
                 api_docs=a.api_docs, push_contact=a.push_contact,
                 push_allow_local=a.push_allow_local, allowed_origins=a.allowed_origins,
                 coach_budget=a.coach_budget, review_budget=a.review_budget,
                 pool_size=a.db_pool_size, max_overflow=a.db_max_overflow,
                 decision_pool=a.db_decision_pool, db_idle_seconds=a.db_idle_seconds,
                 processes=a.processes, **secret, **extra))
    return 0
