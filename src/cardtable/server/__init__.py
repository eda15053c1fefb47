"""The cardtable game server: a lobby over HTTP and the games over WebSocket.

    cardtable serve [--host 127.0.0.1] [--port 8000] [--database URL]
    python -m cardtable.server ...             (the same, without the cardtable CLI)

Modules: config (the settings table: command line, environment, TOML file; database URLs), db (schema, Store), migrate + migrations/ (Alembic),
protocol (pydantic message models), views (public view, events in words), runtime (tables:
the decision path, the broadcast), driver (bots, timers, snap windows, LISTEN/NOTIFY), ws (the
WebSocket endpoint), app (FastAPI: lobby routes, lifespan). docs/protocol.md describes the
protocol, docs/deploy.md running it (several processes, a load balancer).
"""

from cardtable.server.config import DatabaseURL, Settings

__all__ = ["DatabaseURL", "Settings", "create_app", "load_settings", "main", "run"]


def setting_checks() -> dict:
    """The checks of settings whose rules live in a room above config.py (the origins: people;
    the push contact: talk), by setting name: each says what is wrong with a value, or None."""
    from cardtable.server.people.origin import parse_allowed
    from cardtable.server.talk.push import contact_ok

    def origins(value: str) -> str | None:
        try:
            parse_allowed(value)
        except ValueError as e:
            return str(e)
        return None

    def contact(value: str) -> str | None:
        return None if contact_ok(value) else "must be a mailto: address or an https: URL"

    return {"allowed_origins": origins, "push_contact": contact}


def load_settings(flags: dict, environ=None, config: str | None = None):
    """options.load with every check (setting_checks): what the entry points and
    `cardtable doctor` read their settings with."""
    from cardtable.server.options import load

    return load(flags, environ, config, checks=setting_checks())


def create_app(settings: Settings | None = None, clock=None):
    """The app; `clock`: the game's time (server/clock.py; default real time)."""
    from cardtable.server.app import create_app as _create

    return _create(settings, clock)


def run(settings: Settings) -> None:
    from cardtable.server.app import run as _run

    _run(settings)


def main(argv: list[str] | None = None) -> int:
    """`python -m cardtable.server`: the same settings as `cardtable serve` (options.OPTIONS:
    command line, environment, config file). A bad setting: one line, exit status 2."""
    import sys

    from cardtable.server.options import SettingError, argument_parser, given

    p = argument_parser("python -m cardtable.server", "Run the cardtable game server.")
    flags, config = given(p.parse_args(argv))
    try:
        loaded = load_settings(flags, config=config)
    except SettingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for line in loaded.warnings:
        print(f"warning: {line}", file=sys.stderr)
    run(loaded.settings)
    return 0
