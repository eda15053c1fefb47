"""Server settings and database URLs.

`--database` takes a SQLAlchemy/libpq style URL or a plain file path:

    cardtable.db, ./games/x.db, sqlite:///cardtable.db     embedded SQLite (one process)
    postgresql://user:pw@host:5432/db, postgres://...,
    postgresql+psycopg://...                                PostgreSQL (psycopg 3)

`DatabaseURL` derives the three forms the server needs: the synchronous SQLAlchemy URL (Alembic
migrations), the asynchronous one (the server) and, for PostgreSQL, the libpq URL of the
LISTEN/NOTIFY and advisory-lock connections. Its password may come apart from the URL (a file:
`read_password_file`), so that it never shows in the process's command line (`ps`).

`read_address_secrets` reads the secret keys of the address hashes the database keeps
(security.AddressKeys) from a file.

The table of settings that the entry points read from flags, the environment and a file is
`server/options.py`.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

from cardtable.server.guard.security import MAX_BODY, MAX_REPLAY_BODY, Limits

DEFAULT_DATABASE = "cardtable.db"


#: the environment variables the server's entry points read (docs/deploy.md): the database URL
#: (instead of `--database`, which `ps` shows to every user of the machine), a file holding its
#: password, and a file holding the secret keys of the address hashes
DATABASE_ENV = "CARDTABLE_DATABASE_URL"
PASSWORD_FILE_ENV = "CARDTABLE_DATABASE_PASSWORD_FILE"
ADDRESS_SECRET_FILE_ENV = "CARDTABLE_ADDRESS_SECRET_FILE"
#: a file holding the bearer token of GET /metrics
METRICS_TOKEN_FILE_ENV = "CARDTABLE_METRICS_TOKEN_FILE"

#: the shortest secret key of the address hashes (characters): 16 random characters or more
MIN_SECRET = 16


def read_password_file(path: str) -> str:
    """The database password kept in the file `path`: its first line without the line end
    (ValueError if the file cannot be read or its first line is empty)."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(4097).rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read the database password file {path!r}: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    if not first:
        raise ValueError(f"the database password file {path!r} is empty: its first line is "
                         "the password")
    return first


def read_address_secrets(path: str) -> tuple[bytes, ...]:
    """The secret keys of the address hashes kept in the file `path`, one a line: the first
    makes every new hash, the others (earlier keys during a rotation) still recognise the hashes
    made with them. Blank lines and lines starting with '#' are skipped. ValueError if the
    file cannot be read, holds no key or a key shorter than MIN_SECRET characters."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read(1 << 16).splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read the address secret file {path!r}: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    keys = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not keys:
        raise ValueError(f"the address secret file {path!r} holds no key (one a line, the "
                         "current first; e.g. `openssl rand -hex 32`)")
    short = [i + 1 for i, k in enumerate(keys) if len(k) < MIN_SECRET]
    if short:
        raise ValueError(f"the address secret file {path!r}: key {short[0]} has fewer than "
                         f"{MIN_SECRET} characters (make one with `openssl rand -hex 32`)")
    return tuple(k.encode("utf-8") for k in keys)


#: the shortest bearer token of `GET /metrics` (characters)
MIN_METRICS_TOKEN = 16


def read_metrics_token(path: str) -> str:
    """The bearer token of `GET /metrics` kept in the file `path`: its first line, stripped
    (ValueError if the file cannot be read or the token is shorter than MIN_METRICS_TOKEN)."""
    try:
        with open(path, encoding="utf-8") as f:
            token = f.readline(4097).strip()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read the metrics token file {path!r}: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    if len(token) < MIN_METRICS_TOKEN or not all("!" <= c <= "~" for c in token):
        raise ValueError(f"the metrics token file {path!r}: its first line must be a token of "
                         f"{MIN_METRICS_TOKEN} or more printable ASCII characters, no spaces (e.g. "
                         "`openssl rand -hex 32`)")
    return token


def secret_settings(password_file: str | None, address_secret_file: str | None) -> dict:
    """The Settings fields the secret files give (`database_password`, `address_secrets`; a
    file not given: its field is left out). ValueError for a file that cannot be used."""
    out: dict = {}
    if password_file:
        out["database_password"] = read_password_file(password_file)
    if address_secret_file:
        out["address_secrets"] = read_address_secrets(address_secret_file)
    return out


class DatabaseURL:
    """A parsed `--database` value; `password`, if given, is the PostgreSQL password (not
    allowed together with a password in the URL)."""

    def __init__(self, raw: str, password: str | None = None):
        raw = (raw or DEFAULT_DATABASE).strip()
        if "://" not in raw:                                   # a plain file path: SQLite
            raw = "sqlite:///" + os.path.abspath(raw)
        from sqlalchemy.engine import make_url   # here: the CLI's start imports no SQLAlchemy

        url = make_url(raw)
        backend = url.get_backend_name()
        if backend == "postgres":
            backend = "postgresql"
        if backend not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {backend!r}: use a SQLite file or postgresql://")
        if backend == "sqlite":
            db = url.database or ""
            if db in ("", ":memory:"):
                raise ValueError("an in-memory SQLite database cannot be shared by the server's "
                                 "connections: give a file path")
            url = url.set(drivername="sqlite", database=os.path.abspath(db))
        else:
            url = url.set(drivername="postgresql+psycopg")
            if password is not None:
                if url.password is not None:
                    raise ValueError("the database password is given twice: in the URL and "
                                     "in the password file (give it in the file only)")
                url = url.set(password=password)
        if password is not None and backend == "sqlite":
            raise ValueError("a database password file is for PostgreSQL: a SQLite file has "
                             "no password")
        self.kind: str = backend
        self.sync_url: URL = url
        self.async_url: URL = (url.set(drivername="sqlite+aiosqlite") if backend == "sqlite"
                               else url)

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgresql"

    def libpq(self) -> str:
        """The libpq connection string (PostgreSQL only) for psycopg's own connections: a URL
        whose password is percent-encoded whole (SQLAlchemy leaves a space in it as it is,
        which libpq refuses)."""
        from urllib.parse import quote

        from sqlalchemy.engine import URL  # noqa: F811  (at run time; above for the checker)

        url = self.sync_url.set(drivername="postgresql")
        bare = URL.create("postgresql", username=url.username, host=url.host, port=url.port,
                          database=url.database, query=url.query).render_as_string()
        if url.password is None:
            return bare
        secret = ":" + quote(str(url.password), safe="")
        scheme, rest = bare.split("://", 1)
        if url.username is None:
            return f"{scheme}://{secret}@{rest}"
        user, at, where = rest.partition("@")
        return f"{scheme}://{user}{secret}{at}{where}"

    def display(self) -> str:
        return self.sync_url.render_as_string(hide_password=True)


def default_bot_workers() -> int:
    """The bot pool's default size: the CPU cores this process may use, less one for the
    server itself (which answers the players), at least 1 and at most 4 (each worker is a
    process of its own, with the bots' code and memory; `--bot-workers` sets more)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(4, cores - 1))


@dataclass
class Settings:
    """Everything `cardtable serve` can set; tests and the bench pass their own."""

    database: str = DEFAULT_DATABASE
    #: the PostgreSQL password when it is not in `database` (read from a file or the
    #: environment by the entry points, so that `ps` never shows it)
    database_password: str | None = field(default=None, repr=False)
    #: the secret keys of the address hashes the database keeps (security.AddressKeys; the
    #: first makes new hashes, the others still match: a rotation's grace period); empty: a
    #: random key made at the first start and kept in the database (server_keys)
    address_secrets: tuple[bytes, ...] = field(default=(), repr=False)
    host: str = "127.0.0.1"
    port: int = 8000
    #: seconds a bot waits before its decision is applied (so people can follow the game)
    bot_delay: float = 0.5
    #: the bot that plays for a human seat whose player is away (NOTATION difficulty or name)
    standin: str = "medium"
    #: Kombio: after a round the next one waits until every connected player sent `ready`, at
    #: most `round_break` seconds (0: no break); with no player connected (bots, spectators)
    #: it waits `round_pause` seconds, so that the round's summary can be seen
    round_break: float = 60.0
    round_pause: float = 5.0
    #: largest WebSocket message the protocol accepts in bytes (bigger ones get an error); the
    #: transport closes a connection whose frame exceeds `ws_max_frame` (code 1009)
    max_message: int = 4096
    ws_max_frame: int = 16 * 1024
    #: largest HTTP request body in bytes: the lobby's, and the replay API's (a record)
    max_body: int = MAX_BODY
    max_replay_body: int = MAX_REPLAY_BODY
    #: token bucket per connection: `rate` messages per second, bursts of `burst`
    rate: float = 20.0
    burst: int = 40
    #: table talk (chat.py): characters per message, a seat's (a spectator's) budget of chat
    #: messages (`chat_rate` per second, bursts of `chat_burst`), rows a connecting client gets
    chat_max: int = 300
    chat_rate: float = 0.5
    chat_burst: int = 5
    chat_backlog: int = 50
    #: limits per client address and in all (security.Limits, quotas.py; docs/deploy.md)
    limits: Limits = field(default_factory=Limits)
    #: addresses and networks whose X-Forwarded-For header names the client (a load balancer,
    #: comma-separated; "*": any; "": none, the default: every client is its peer address)
    trusted_proxies: str = ""
    #: raw connections (connections.py): seconds a request head may take from its first byte
    #: (a new connection: from its opening), seconds an idle keep-alive connection stays open,
    #: open connections in all and per address (an IPv6 /64; a trusted proxy counts only in
    #: all); 0: no limit
    head_timeout: float = 10.0
    keep_alive: float = 5.0
    max_connections: int = 800
    connections_per_address: int = 64
    #: a connection that does not read its messages: close it when this many are queued
    send_queue: int = 512
    #: events per page when a client catches up on a game's history (the next page is made
    #: only when the client has read the last one)
    history_page: int = 200
    #: a public table's turn timer when its creator set none (a seat taken and left alone would
    #: stall the table for ever)
    public_turn_seconds: float = 120.0
    #: seats one person may hold at a public table (a person: the browser's client identity,
    #: security.CLIENT_HEADER; a client without one: its address), and seats all the people
    #: behind one address may hold there (volume; docs/deploy.md); 0: no limit
    public_seats_per_person: int = 1
    public_seats_per_address: int = 3
    #: tables nobody joined or played for this long are deleted (finished games are kept)
    waiting_ttl: float = 6 * 3600.0
    idle_ttl: float = 7 * 24 * 3600.0
    #: a turn-based table (pace.py) where no player made a move of their own for this long is
    #: deleted (its timeouts' moves do not count: an abandoned table would go on for ever)
    turn_ttl: float = 30 * 24 * 3600.0
    #: a table at which a seat was taken and no seat's player ever connected (its creator
    #: never showed up) is deleted this long after it was made (0: never; docs/deploy.md)
    unseen_ttl: float = 600.0
    sweep_interval: float = 60.0
    #: worker processes for the bots' thinking (0: threads of the server process, tests only);
    #: by default one core is left to the server (default_bot_workers)
    bot_workers: int = field(default_factory=lambda: default_bot_workers())
    #: PostgreSQL connections of a process (store/budget.py, docs/deploy.md "Database
    #: connections"): the pool of reads and lobby changes (`pool_size` kept open, `max_overflow`
    #: more in a burst), the decisions' pool, plus LISTEN and locks: at most 32 by default;
    #: `processes` of the deployment share the database (checked against max_connections at
    #: start); a pool connection idle for `db_idle_seconds` is closed (0: kept; PostgreSQL 14+)
    pool_size: int = 10
    max_overflow: int = 10
    decision_pool: int = 10
    processes: int = 1
    db_idle_seconds: float = 60.0
    #: garbage collector thresholds set after start-up (app.tune_gc; None: Python's defaults,
    #: no freeze)
    gc_threshold: tuple[int, int, int] | None = (10_000, 10, 10)
    #: how often a PostgreSQL process looks for tables without a driver (seconds)
    claim_interval: float = 1.0
    #: a label of this process in logs and /api/health (random: it names no host or process)
    instance: str = field(default_factory=lambda: secrets.token_hex(4))
    #: print the start line ("cardtable server on http://...") to stdout
    announce: bool = True
    #: serve the interactive API docs /docs and /redoc (Swagger UI, ReDoc: scripts from a CDN
    #: and inline code on this origin, server/http/apidocs.py); off: only /openapi.json
    api_docs: bool = False
    #: Web Push (push.py): the contact the push services see in the VAPID token (`sub`: a
    #: mailto: or https: URL of the operator), subscriptions a seat may keep, and (tests
    #: only) endpoints on http and local addresses
    push_contact: str = "mailto:cardtable@localhost"
    push_per_seat: int = 4
    push_allow_local: bool = False
    #: accounts (sessions.py): days a session lasts after it was last used; origins besides
    #: the request's own whose pages may send state-changing requests with the session
    #: cookie and open WebSockets with it (origin.py; comma-separated, e.g. a proxy that
    #: rewrites the Host header: "https://cards.example.org")
    session_days: float = 30.0
    allowed_origins: str = ""
    #: the coach's rollouts and a review's rollouts per decision when a request names none
    #: (coach.py; 0: the most, the expert level's own and review.budget_for's)
    coach_budget: int = 0
    review_budget: int = 0
    #: the log lines (observe/logs.py): `text` or `json` (one object a line), and the level of
    #: cardtable's own loggers (debug, info: with the access log, warning, error)
    log_format: str = "text"
    log_level: str = "info"
    #: the bearer token that opens `GET /metrics` to any address (read from a file by the
    #: entry points); without it only direct requests from loopback or a trusted proxy's own
    #: address get it (http/metrics.py)
    metrics_token: str | None = field(default=None, repr=False)
    #: e-mail (mail/smtp.py, docs/deploy.md "E-mail"): the SMTP server the messages go
    #: through (no host: no e-mail, and no password reset by e-mail), its port, `starttls`,
    #: `tls` (implicit TLS, port 465) or `none` (a relay on this machine only), the user and
    #: password (read from a file by the entry points), the sender address, and the site's
    #: own address the messages' links point to (never taken from a request's Host header)
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_security: str = "starttls"
    smtp_user: str = ""
    smtp_password: str | None = field(default=None, repr=False)
    mail_from: str = ""
    site_url: str = ""
    #: seconds a process takes at most to shut down on SIGTERM (app.py, drain): clients told
    #: to reconnect, the messages being handled answered, the tables' locks given up, the
    #: requests in flight finished; then it exits (0)
    drain_seconds: float = 10.0

    def url(self) -> DatabaseURL:
        return DatabaseURL(self.database, self.database_password)
