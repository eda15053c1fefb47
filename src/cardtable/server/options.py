"""The server's settings as a table, declared once.

`OPTIONS` is the table of the server's settings, declared once: each entry's name is a field of
`Settings` (or a setting `build` turns into fields), its type, help text and checks. Both entry
points (`cardtable serve`, `python -m cardtable.server`) and `cardtable doctor` make their
command-line options from it, and `load` reads every setting from the command line
(`--port 8080`), the environment (`CARDTABLE_PORT=8080`) and a TOML file (`--config FILE` or
`CARDTABLE_CONFIG`: `port = 8080`), the first of them that gives it, else the default.
docs/deploy.md ("Configuration") lists the table; a test checks that it says the same.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from cardtable.server.config import (DatabaseURL, Settings, read_metrics_token,
                                     read_password_file, secret_settings)
from cardtable.server.guard.security import Limits


# -- the settings table: one declaration for flags, environment and file -----------------------
#: the environment variable that names the configuration file (instead of `--config FILE`)
CONFIG_ENV = "CARDTABLE_CONFIG"
#: the prefix of every setting's environment variable: CARDTABLE_<NAME>
ENV_PREFIX = "CARDTABLE_"
#: a `default` that is the field's own default in `Settings`
FROM_SETTINGS: Any = object()


class SettingError(ValueError):
    """A setting that cannot be used; its message is one line that names the setting and where
    it came from (`--port`, `CARDTABLE_PORT`, `FILE line 3`)."""


@dataclass(frozen=True)
class Option:
    """One setting of the server. `name` is a field of `Settings` unless `field` is False
    (`build` reads those: secret files, the limits); on the command line `--name-with-dashes`,
    in the environment `CARDTABLE_NAME` (or `env`), in the file `name = value`.
    `kind` is str, int, float or bool (a flag `--name` / `--no-name`); `many`: a list of
    `NAME=VALUE` items, the option repeated. `check(value)` says what is wrong with a value,
    or returns None; `shown` is the default in words where it is not a constant."""

    name: str
    kind: type
    help: str
    check: Callable[[Any], str | None] | None = None
    default: Any = FROM_SETTINGS
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    env: str | None = None
    field: bool = True
    many: bool = False
    hidden: bool = False
    shown: str | None = None
    #: the name on the command line and in the environment where it is not the field's
    #: (`db_pool_size` for the field `pool_size`)
    called: str | None = None

    @property
    def flag(self) -> str:
        return "--" + (self.called or self.name).replace("_", "-")

    @property
    def env_var(self) -> str:
        return self.env or ENV_PREFIX + (self.called or self.name).upper()

    def default_value(self) -> Any:
        """The value when no source gives one (None: `Settings`' own default factory)."""
        if self.default is not FROM_SETTINGS:
            return self.default
        f = {f.name: f for f in fields(Settings)}[self.name]
        return None if f.default is MISSING else f.default

    def default_words(self) -> str:
        if self.shown is not None:
            return self.shown
        v = self.default_value()
        if v is None or v == "" or v == ():
            return "none"
        if isinstance(v, bool):
            return "on" if v else "off"
        return str(v)


def _at_least(low: float, words: str | None = None) -> Callable[[Any], str | None]:
    def check(v):
        return None if v >= low else f"must be {words or f'{low:g} or more'}, not {v:g}"
    return check


def _more_than_0(v) -> str | None:
    return None if v > 0 else f"must be more than 0, not {v:g}"


def _port(v: int) -> str | None:
    return None if 0 <= v <= 65535 else f"must be 0..65535, not {v}"


def _bot(v: str) -> str | None:
    from cardtable.bots import bot_names

    names = bot_names()
    return None if v in names else f"unknown bot {v!r} (known: {', '.join(names)})"


def _proxies(v: str) -> str | None:
    from cardtable.server.guard.connections import TrustedProxies

    try:
        TrustedProxies(v)
    except ValueError as e:
        return str(e).removeprefix("--trusted-proxies: ")
    return None


def _budget(v: int) -> str | None:
    return None if v == 0 or v >= 2 else f"must be 0 (the most) or 2 or more, not {v}"


def _site_url(v: str) -> str | None:
    from urllib.parse import urlsplit

    u = urlsplit(v.strip())
    if v and (u.scheme not in ("https", "http") or not u.netloc or u.query or u.fragment):
        return f"{v!r} is not a site address like https://cards.example.org"
    return None


def _database(v: str) -> str | None:
    try:
        DatabaseURL(v)
    except ValueError as e:
        return str(e)
    except Exception as e:                         # SQLAlchemy's URL parser: ArgumentError
        return f"{v!r} is not a database URL ({e})"
    return None


#: the server's settings, in the order `--help` and docs/deploy.md list them. To add one: a
#: field of `Settings` and one entry here; both entry points, `cardtable doctor`, the
#: environment and the file take it from here.
OPTIONS: tuple[Option, ...] = (
    Option("host", str, "address to listen on", metavar="ADDR"),
    Option("port", int, "port to listen on (0: any free port, printed at start)", _port,
           metavar="N"),
    Option("database", str, "SQLite file or postgresql://user@host/db; never with a password "
           "on the command line (use the password file, the environment or the config file)",
           _database, metavar="URL", env="CARDTABLE_DATABASE_URL"),
    Option("database_password_file", str, "PostgreSQL: the password, the first line of FILE "
           "(systemd: LoadCredential=)", default=None, metavar="FILE", field=False),
    Option("address_secret_file", str, "the secret keys of the address hashes the database "
           "keeps, one a line, the current first (default: a key kept in the database)",
           default=None, metavar="FILE", field=False),
    Option("bot_delay", float, "seconds before a bot's decision is applied", _at_least(0),
           metavar="S"),
    Option("standin", str, "bot that plays for a player who is away", _bot, metavar="BOT"),
    Option("round_break", float, "a game played in rounds: longest wait for the players' "
           "ready after a round (0: none)", _at_least(0), metavar="S"),
    Option("round_pause", float, "a game played in rounds: the pause after a round when no "
           "player is connected", _at_least(0), metavar="S"),
    Option("rate", float, "messages per second per connection", _more_than_0, metavar="N"),
    Option("burst", int, "message burst per connection", _at_least(1), metavar="N"),
    Option("chat_rate", float, "chat messages per second per seat (per spectator)",
           _more_than_0, metavar="N"),
    Option("chat_burst", int, "chat message burst per seat (per spectator)", _at_least(1),
           metavar="N"),
    Option("client_limits", str, "the limits per client address; off: for tests and "
           "benchmarks whose clients all come from one address", default="on",
           choices=("on", "off"), field=False),
    Option("limit", str, "one limit per client address or in all (security.Limits: "
           "http_rate, ws_rate, connections, tables, all_tables, ...); repeat it; in the "
           "environment comma-separated, in the file a table [limit]", default=(),
           metavar="NAME=VALUE", field=False, many=True),
    Option("public_seats_per_address", int, "seats the people behind one address may hold "
           "at one public table (0: no limit)", _at_least(0, "0 (no limit) or more"),
           metavar="N"),
    Option("bot_workers", int, "worker processes for searching bots (0: threads)",
           _at_least(0), metavar="N", shown="the CPU cores less one, 1 to 4"),
    Option("trusted_proxies", str, "proxies whose X-Forwarded-For and X-Forwarded-Proto are "
           "believed: addresses or networks, comma-separated (*: any)", _proxies,
           metavar="ADDRS"),
    Option("head_timeout", float, "seconds a request head may take (0: no limit)",
           _at_least(0, "0 (no limit) or more"), metavar="S"),
    Option("keep_alive", float, "seconds an idle keep-alive connection stays open",
           _more_than_0, metavar="S"),
    Option("max_connections", int, "open connections in all (0: no limit)",
           _at_least(0, "0 (no limit) or more"), metavar="N"),
    Option("connections_per_address", int, "open connections per address or IPv6 /64, "
           "trusted proxies apart (0: no limit)", _at_least(0, "0 (no limit) or more"),
           metavar="N"),
    Option("waiting_ttl", float, "seconds before a table nobody joined expires", _at_least(0),
           metavar="S"),
    Option("idle_ttl", float, "seconds before a game nobody plays expires", _at_least(0),
           metavar="S"),
    Option("turn_ttl", float, "seconds before a turn-based game where no player moved "
           "expires", _at_least(0), metavar="S"),
    Option("unseen_ttl", float, "seconds before a table at which a seat was taken and "
           "nobody ever connected expires (0: never)", _at_least(0), metavar="S"),
    Option("sweep_interval", float, "seconds between two sweeps of expired tables",
           _more_than_0, metavar="S"),
    Option("public_turn_seconds", float, "a public table's turn timer if none is set",
           _more_than_0, metavar="S"),
    Option("allowed_origins", str, "origins besides the server's own whose pages may use the "
           "session cookie (comma-separated, e.g. https://cards.example.org)",
           metavar="ORIGINS"),
    Option("instance", str, "a label of this process in logs and /api/health",
           metavar="NAME", shown="random"),
    Option("api_docs", bool, "serve the interactive API docs /docs and /redoc (scripts from "
           "a CDN: for development only)"),
    Option("push_contact", str, "the operator's contact in Web Push's VAPID token: mailto: "
           "or https:", metavar="URL"),
    Option("push_allow_local", bool, "Web Push to local addresses (tests only)", hidden=True),
    Option("coach_budget", int, "the coach's play-outs when a request names none (0: the "
           "most)", _budget, metavar="N"),
    Option("review_budget", int, "a review's play-outs per decision when a request names "
           "none (0: the most)", _budget, metavar="N"),
    Option("processes", int, "PostgreSQL: server processes sharing the database, checked "
           "against its max_connections at start (docs/deploy.md, Database connections)",
           _at_least(1), metavar="N"),
    Option("pool_size", int, "PostgreSQL: connections kept for reads and lobby changes",
           _at_least(1), metavar="N", called="db_pool_size"),
    Option("max_overflow", int, "PostgreSQL: more of them in a burst", _at_least(0),
           metavar="N", called="db_max_overflow"),
    Option("decision_pool", int, "PostgreSQL: connections of the decisions", _at_least(1),
           metavar="N", called="db_decision_pool"),
    Option("db_idle_seconds", float, "PostgreSQL: close a pool connection idle this long (0: "
           "never)", _at_least(0), metavar="S"),
    Option("drain_seconds", float, "on SIGTERM, the longest a process takes to shut down: "
           "its clients told to reconnect, the messages being handled answered, its tables "
           "given up", _at_least(0), metavar="S"),
    Option("smtp_host", str, "the SMTP server e-mail goes through (none: no e-mail, no "
           "password reset by e-mail; docs/deploy.md, E-mail)", metavar="HOST"),
    Option("smtp_port", int, "its port (587 for STARTTLS, 465 for implicit TLS)", _port,
           metavar="N"),
    Option("smtp_security", str, "starttls, tls (implicit TLS) or none (a relay on this "
           "machine only)", choices=("starttls", "tls", "none")),
    Option("smtp_user", str, "the SMTP user (none: no log-in)", metavar="USER"),
    Option("smtp_password_file", str, "the SMTP password, the first line of FILE (never on "
           "the command line)", default=None, metavar="FILE", field=False),
    Option("mail_from", str, "the sender address of the e-mails", metavar="ADDR"),
    Option("site_url", str, "the site's address the e-mails link to (e.g. "
           "https://cards.example.org)", _site_url, metavar="URL"),
    Option("log_format", str, "the log lines on stderr: text, or json (one object a line, for "
           "log shippers)", choices=("text", "json")),
    Option("log_level", str, "the lowest level logged", choices=("debug", "info", "warning",
                                                                 "error")),
    Option("metrics_token_file", str, "a bearer token for GET /metrics from anywhere, the "
           "first line of FILE (without it only direct requests from loopback or a trusted "
           "proxy's own address are answered)", default=None, metavar="FILE", field=False),
)

OPTION = {o.name: o for o in OPTIONS}


@dataclass
class Loaded:
    """What `load` found: the settings, where each setting given came from (`--port`,
    `CARDTABLE_PORT`, `FILE line 3`), the config file (None: none), warnings (one line each)
    for the entry points to print, and the values given."""

    settings: Settings
    origins: dict[str, str]
    config_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    #: the checked values of the settings given (name -> value), fields of Settings or not
    values: dict[str, Any] = field(default_factory=dict)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _convert(opt: Option, raw: Any) -> Any:
    """`raw` (a string from the command line or environment, or a TOML value) as `opt`'s
    kind; ValueError with the problem in words."""
    if isinstance(raw, str):
        text = raw.strip()
        if opt.kind is bool:
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise ValueError(f"{raw!r} is not on or off (true/false, yes/no, 1/0)")
        if opt.kind is int:
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{raw!r} is not a whole number") from None
        if opt.kind is float:
            try:
                v = float(text)
            except ValueError:
                raise ValueError(f"{raw!r} is not a number") from None
            if v != v or v in (float("inf"), float("-inf")):
                raise ValueError(f"{raw!r} is not a finite number")
            return v
        return raw
    # a TOML value: its own type
    if opt.kind is bool and isinstance(raw, bool):
        return raw
    if opt.kind is int and isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if opt.kind is float and isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return _convert(opt, str(raw))
    want = {bool: "true or false", int: "a whole number", float: "a number",
            str: "a string in quotes"}[opt.kind]
    raise ValueError(f"{raw!r} is not {want}")


def _value(opt: Option, raw: Any, origin: str,
           more: Callable[[Any], str | None] | None = None) -> Any:
    """`raw` converted and checked (by `opt.check`, then `more`); SettingError naming
    `origin`."""
    try:
        v = _convert(opt, raw)
    except ValueError as e:
        raise SettingError(f"{origin}: {e}") from None
    if opt.choices and v not in opt.choices:
        raise SettingError(f"{origin}: {v!r} is not one of {', '.join(opt.choices)}")
    for check in (opt.check, more):
        problem = check(v) if check is not None else None
        if problem:
            raise SettingError(f"{origin}: {problem}")
    return v


def _line_of(text: str, key: str) -> int | None:
    """The line (1-based) of the file `text` that sets `key` (or opens the table `[key]`)."""
    pat = re.compile(r"^\s*(?:\[\s*)?[\"']?" + re.escape(key) + r"[\"']?\s*(?:=|\])")
    for i, line in enumerate(text.splitlines(), 1):
        if pat.match(line):
            return i
    return None


def read_config_file(path: str) -> tuple[dict[str, tuple[Any, str]], str]:
    """The settings of the TOML file `path`: name -> (value, origin "FILE line N"), and the
    file's text. SettingError for a file that cannot be read or parsed, or an unknown key."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
        text = data.decode("utf-8")
        table = tomllib.loads(text)
    except OSError as e:
        raise SettingError(f"cannot read the config file {path!r}: "
                           f"{e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SettingError(f"the config file {path!r} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise SettingError(f"the config file {path!r} is not TOML: {e}") from None
    out: dict[str, tuple[Any, str]] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        line = _line_of(text, key)
        origin = f"{path} line {line}" if line else path
        opt = OPTION.get(name)
        if opt is None or name == "config":
            raise SettingError(f"{origin}: unknown setting {key!r} (docs/deploy.md, "
                               "Configuration, lists them)")
        if opt.many:
            if isinstance(value, dict):
                value = [f"{k}={v}" for k, v in value.items()]
            elif isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise SettingError(f"{origin}: {key} is a table of NAME = number")
        elif isinstance(value, (dict, list)):
            raise SettingError(f"{origin}: {key} takes one value, not a table or a list")
        out[name] = (value, origin)
    return out, text


def file_mode_problem(path: str, has_secret: bool) -> tuple[str, str, dict] | None:
    """('FAIL' or 'WARN', catalog key, its parameters) if the config file's mode is unsafe:
    every user of the machine may change it, or read the database password it holds. None if
    it is safe (or cannot be read: reading it reports that)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    params = {"path": path, "mode": f"{stat.S_IMODE(mode):04o}"}
    if mode & stat.S_IWOTH:
        return ("FAIL", "doctor.config_writable", params)
    if has_secret and mode & stat.S_IROTH:
        return ("WARN", "doctor.config_readable", params)
    return None


def has_password(url: str) -> bool:
    from sqlalchemy.engine import make_url

    try:
        return "://" in url and make_url(url.strip()).password is not None
    except Exception:
        return False


def load(flags: Mapping[str, Any], environ: Mapping[str, str] | None = None,
         config: str | None = None,
         checks: Mapping[str, Callable[[Any], str | None]] | None = None) -> Loaded:
    """The settings from the command line's `flags` (name -> the value given: a string, a
    bool for a flag, a list for `many`; settings not given are left out), the environment and
    the config file (`config`, else $CARDTABLE_CONFIG), in that order of precedence, then the
    defaults. SettingError (one line, naming the setting and its source) for a bad value; a
    password in the `--database` flag is refused (every user of the machine sees it in `ps`).
    `checks`: more checks by setting name, those of the rooms above this module
    (`cardtable.server.load_settings` passes them: the entry points use that)."""
    env = os.environ if environ is None else environ
    chosen: dict[str, tuple[Any, str]] = {}
    many: dict[str, list[tuple[str, str]]] = {}
    config_origin = "--config"
    if config is None and env.get(CONFIG_ENV):
        config, config_origin = env[CONFIG_ENV], CONFIG_ENV
    if config:
        try:
            from_file, _ = read_config_file(config)
        except SettingError as e:
            raise SettingError(f"{config_origin}: {e}") from None
        for name, (raw, origin) in from_file.items():
            if OPTION[name].many:
                many.setdefault(name, []).extend((item, origin) for item in raw)
            else:
                chosen[name] = (raw, origin)
    for opt in OPTIONS:
        raw = env.get(opt.env_var)
        if raw is None or raw == "":
            continue
        if opt.many:
            many.setdefault(opt.name, []).extend(
                (item.strip(), opt.env_var) for item in raw.split(",") if item.strip())
        else:
            chosen[opt.name] = (raw, opt.env_var)
    for name, raw in flags.items():
        opt = OPTION.get(name)
        if opt is None:
            raise SettingError(f"unknown setting {name!r}")
        if raw is None:
            continue
        if opt.many:
            many.setdefault(name, []).extend((str(item), opt.flag) for item in raw)
        else:
            chosen[name] = (raw, opt.flag)
    if "database" in chosen:
        raw, origin = chosen["database"]
        if origin == OPTION["database"].flag and isinstance(raw, str) and has_password(raw):
            raise SettingError(
                "--database: the URL holds a password, which every user of this machine can "
                "read in the process list: give the password in a file "
                "(--database-password-file, $CARDTABLE_DATABASE_PASSWORD_FILE), or the whole "
                "URL in $CARDTABLE_DATABASE_URL or the config file (docs/deploy.md)")

    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for name, (raw, origin) in chosen.items():
        values[name] = _value(OPTION[name], raw, origin, (checks or {}).get(name))
        origins[name] = origin
    for name, items in many.items():
        origins[name] = ", ".join(dict.fromkeys(o for _, o in items))
    settings, warnings = build(values, many, origins)
    if config:
        problem = file_mode_problem(config, has_password(str(values.get("database", ""))))
        if problem is not None:
            from cardtable.i18n import t

            warnings.append(t("en", problem[1], **problem[2]))
    return Loaded(settings, origins, config, warnings, values)


def _limits(items: list[tuple[str, str]], off: bool):
    limits = Limits.off() if off else Limits()
    kinds = {f.name: f.type for f in fields(Limits)}
    for item, origin in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            raise SettingError(f"{origin}: limit {item!r} is not NAME=VALUE")
        if name not in kinds:
            raise SettingError(f"{origin}: unknown limit {name!r} (known: {', '.join(kinds)})")
        try:
            number = float(value) if "float" in str(kinds[name]) else int(value)
        except ValueError:
            raise SettingError(f"{origin}: limit {name}: {value!r} is not a number") from None
        if not 0 <= number < float("inf"):
            raise SettingError(f"{origin}: limit {name}: {value!r} must be a number of 0 or "
                               "more (0: no limit)")
        setattr(limits, name, number)
    return limits


def build(values: dict[str, Any], many: dict[str, list[tuple[str, str]]] | None = None,
          origins: dict[str, str] | None = None) -> tuple[Settings, list[str]]:
    """`Settings` from checked setting values (name -> value; absent: the default) and the
    `many` items (name -> [(item, origin)]): the secret files read, the limits made, the
    database URL checked. SettingError naming the source; the warnings, one line each."""
    many = many or {}
    origins = origins or {}
    kw = {name: v for name, v in values.items() if OPTION[name].field}
    off = values.get("client_limits", "on") == "off"
    kw["limits"] = _limits(many.get("limit", []), off)
    if off:
        kw["connections_per_address"] = 0
        kw["public_seats_per_person"] = 0
        kw["public_seats_per_address"] = 0
    for name, args in (("database_password_file", (values.get("database_password_file"), None)),
                       ("address_secret_file", (None, values.get("address_secret_file")))):
        try:
            kw.update(secret_settings(*args))
        except ValueError as e:
            raise SettingError(f"{origins.get(name, OPTION[name].flag)}: {e}") from None
    if values.get("smtp_password_file"):
        try:
            kw["smtp_password"] = read_password_file(values["smtp_password_file"])
        except ValueError as e:
            raise SettingError(f"{origins.get('smtp_password_file', '--smtp-password-file')}: "
                               f"{str(e).replace('database', 'SMTP')}") from None
    if values.get("metrics_token_file"):
        try:
            kw["metrics_token"] = read_metrics_token(values["metrics_token_file"])
        except ValueError as e:
            raise SettingError(f"{origins.get('metrics_token_file', '--metrics-token-file')}: "
                               f"{e}") from None
    settings = Settings(**kw)
    try:
        settings.url()
    except ValueError as e:
        where = origins.get("database_password_file") if "given twice" in str(e) or \
            "password file" in str(e) else origins.get("database")
        raise SettingError(f"{where or '--database'}: {e}") from None
    return settings, []


def help_text(opt: Option) -> str:
    """An option's help line: what it sets, its default and its environment variable."""
    return f"{opt.help} (default: {opt.default_words()}; ${opt.env_var})"


CONFIG_HELP = (f"a TOML file of settings (name = value; ${CONFIG_ENV}); the command line "
               "and the environment override it")


def argument_parser(prog: str, description: str):
    """An argparse parser of every setting in `OPTIONS` and `--config`; a setting not given is
    absent from the namespace (`given`), so that the environment and the file can give it.
    Its usage errors are one line and exit status 2."""
    import argparse
    import sys

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            sys.stderr.write(f"error: {message}\n")
            raise SystemExit(2)

    p = Parser(prog=prog, description=description, argument_default=argparse.SUPPRESS)
    p.add_argument("--config", metavar="FILE", help=CONFIG_HELP)
    for opt in OPTIONS:
        kw: dict[str, Any] = {"help": argparse.SUPPRESS if opt.hidden else help_text(opt)}
        if opt.kind is bool:
            kw["action"] = argparse.BooleanOptionalAction
        else:
            kw["metavar"] = opt.metavar or "|".join(opt.choices) or None
            if opt.many:
                kw["action"] = "append"
        p.add_argument(opt.flag, dest=opt.name, **kw)
    return p


def given(namespace) -> tuple[dict[str, Any], str | None]:
    """The settings an argparse namespace of `argument_parser` holds, and its `--config`."""
    got = dict(vars(namespace))
    return got, got.pop("config", None)


def markdown_table() -> str:
    """The settings as the Markdown table of docs/deploy.md ("Configuration"; a test checks
    that the page holds exactly this)."""
    rows = ["| setting (file) | command line | environment | default | what |",
            "| --- | --- | --- | --- | --- |"]
    for opt in OPTIONS:
        if opt.hidden:
            continue
        value = (f" {opt.metavar}" if opt.metavar and opt.kind is not bool else
                 f" {'/'.join(opt.choices)}" if opt.choices else "")
        flag = f"`{opt.flag}/--no-{opt.flag[2:]}`" if opt.kind is bool else f"`{opt.flag}{value}`"
        rows.append(f"| `{opt.name}` | {flag} | `{opt.env_var}` | {opt.default_words()} | "
                    f"{opt.help.replace('|', '/')} |")
    return "\n".join(rows) + "\n"
