"""`cardtable serve`: the game server (lobby over HTTP, games over WebSocket; docs/protocol.md,
docs/deploy.md). `register(app)` adds the command to a Typer app.

    cardtable serve                                   # http://127.0.0.1:8000, ./cardtable.db
    cardtable serve --config /etc/cardtable/cardtable.toml
    cardtable serve --host 0.0.0.0 --port 8080 --database postgresql://user@db/cardtable \
        --database-password-file /run/secrets/db-password --address-secret-file /etc/cardtable/address.keys
    CARDTABLE_DATABASE_URL=postgresql://user:pw@db/cardtable cardtable serve

Its options are the server's settings (server/config.py OPTIONS), the same as
`python -m cardtable.server`'s; each also comes from the environment (CARDTABLE_<NAME>) or the
config file. A password in `--database` is refused: `ps` shows it to every user of the machine.

The database is migrated (Alembic) at start; games being played go on where they were.
Bad settings raise ConfigError (the `cardtable` entry point prints one line, exit status 2).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any, List, Optional

import typer

from cardtable.core.errors import ConfigError


def load_settings(flags: dict[str, Any], config: str | None = None):
    """options.load, its SettingError as ConfigError; the warnings printed to stderr."""
    from cardtable.server import load_settings as load
    from cardtable.server.options import SettingError

    try:
        loaded = load(flags, config=config)
    except SettingError as e:
        raise ConfigError(str(e)) from None
    for line in loaded.warnings:
        print(f"warning: {line}", file=sys.stderr)
    return loaded


def serve(flags: dict[str, Any], config: str | None = None) -> int:
    """Run the server with the settings of `flags`, the environment and the config file."""
    from cardtable.server.app import listen, run

    settings = load_settings(flags, config).settings
    sock = listen(settings)           # a busy port: one line, exit 2, before the start line
    run(settings, sock)
    return 0


def run_serve(host: str, port: int, database: str, bot_delay: float, standin: str,
              **others: Any) -> int:
    """`serve` with some settings as Python values (tests)."""
    flags = dict(host=host, port=port, database=database, bot_delay=bot_delay,
                 standin=standin, **others)
    return serve({k: v if isinstance(v, (bool, list)) else str(v)
                  for k, v in flags.items() if v is not None})


def settings_parameters() -> list[inspect.Parameter]:
    """A Typer option for each setting of options.OPTIONS and `--config` (all default None:
    not given, so that the environment and the file can give it)."""
    from cardtable.server.options import CONFIG_HELP, OPTIONS, help_text

    params = [inspect.Parameter("config", inspect.Parameter.KEYWORD_ONLY,
                                annotation=Optional[str],
                                default=typer.Option(None, "--config", metavar="FILE",
                                                     help=CONFIG_HELP))]
    for opt in OPTIONS:
        if opt.kind is bool:
            kind: Any = Optional[bool]
            names = [f"{opt.flag}/--no-{opt.flag[2:]}"]
        elif opt.many:
            kind, names = Optional[List[str]], [opt.flag]
        else:
            kind, names = Optional[str], [opt.flag]
        metavar = None if opt.kind is bool else (opt.metavar or "|".join(opt.choices) or None)
        params.append(inspect.Parameter(
            opt.name, inspect.Parameter.KEYWORD_ONLY, annotation=kind,
            default=typer.Option(None, *names, metavar=metavar, help=help_text(opt),
                                 hidden=opt.hidden, show_default=False)))
    return params


def settings_command(app: typer.Typer, name: str, help: str,
                     action: Callable[..., int], extra: list[inspect.Parameter] = ()) -> None:
    """Register the command `name`, whose options are the server's settings (and `extra`):
    `action(flags, config, **extra)` runs it, `flags` holding the settings given."""
    params = settings_parameters() + list(extra)
    extra_names = {p.name for p in extra}

    def command(**kw: Any) -> None:
        config = kw.pop("config", None)
        more = {k: kw.pop(k) for k in list(kw) if k in extra_names}
        flags = {k: v for k, v in kw.items() if v is not None and v != []}
        raise typer.Exit(action(flags, config, **more))

    command.__signature__ = inspect.Signature(params)
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__name__ = name
    app.command(name, help=help)(command)


def register(app: typer.Typer) -> None:
    settings_command(app, "serve", "Run the game server: lobby over HTTP, games over "
                     "WebSocket.", serve)
