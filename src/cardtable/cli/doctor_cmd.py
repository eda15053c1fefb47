"""`cardtable doctor`: checks a deployment and says what to fix. It reads the same settings as
`cardtable serve` (server/config.py: command line, environment, config file) and prints one
line a check, `OK`, `WARN` or `FAIL`, in the language of `--lang` (the catalogs' `doctor.*`
texts); exit status 0 when nothing failed, 1 when a check failed.

    cardtable doctor --config /etc/cardtable/cardtable.toml
    CARDTABLE_CONFIG=/etc/cardtable/cardtable.toml cardtable doctor --lang de

Checks: the settings and the config file's mode, the database (reachable, its migrations
against this release's), PostgreSQL's `max_connections` against the processes' connection
budget, the Web Push key, the trusted proxies, the session cookie's TLS name, and the secret
of the address hashes. It changes nothing: a SQLite file that does not exist is not made.
"""

from __future__ import annotations

import inspect
import os
from typing import Any, Optional

import typer

from cardtable.cli.i18n import check_lang, default_lang, t

#: the contact the server names in its VAPID token when none is set (Settings.push_contact)
DEFAULT_CONTACT = "mailto:cardtable@localhost"
#: seconds doctor waits for PostgreSQL to answer a connection
CONNECT_TIMEOUT = 10

OK, WARN, FAIL = "OK", "WARN", "FAIL"


class Report:
    """The lines of a check run, in `lang`."""

    def __init__(self, lang: str):
        self.lang = lang
        self.lines: list[str] = []
        self.counts = {OK: 0, WARN: 0, FAIL: 0}

    def add(self, status: str, check: str, key: str, **params: Any) -> None:
        self.counts[status] += 1
        text = t(self.lang, key, **params)
        self.lines.append(f"{status:<4} {t(self.lang, 'doctor.c.' + check)}: {text}")
        typer.echo(shown(self.lines[-1]))


def shown(line: str) -> str:
    """A line as printed: on a terminal wrapped at its width between words, the lines after the
    first indented under the text (a pipe or a file gets the one line, for grep)."""
    import shutil
    import sys
    import textwrap

    if not sys.stdout.isatty():
        return line
    width = max(40, shutil.get_terminal_size().columns - 1)
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=" " * 5,
                                    break_long_words=False, break_on_hyphens=False))


def _config_check(r: Report, loaded) -> None:
    from cardtable.server.options import file_mode_problem, has_password

    path = loaded.config_file
    if not path:
        r.add(OK, "config", "doctor.config_none")
        return
    problem = file_mode_problem(path, has_password(loaded.settings.database))
    if problem is not None:
        r.add(problem[0], "config", problem[1], **problem[2])
    else:
        r.add(OK, "config", "doctor.config_ok", path=path,
              mode=f"{os.stat(path).st_mode & 0o7777:04o}")


def _revisions():
    """Alembic's view of the scripts: (heads, every known revision)."""
    from alembic.script import ScriptDirectory

    from cardtable.server.store.migrate import alembic_config

    scripts = ScriptDirectory.from_config(alembic_config())
    return set(scripts.get_heads()), {s.revision for s in scripts.walk_revisions()}


def _database_checks(r: Report, settings) -> None:
    """Reachable, migrations, connection budget, VAPID key: all need the database."""
    from sqlalchemy import create_engine, text

    from cardtable.server.store.migrate import VERSION_TABLE

    url = settings.url()
    shown = url.display()
    if not url.is_postgres:
        path = url.sync_url.database
        if not os.path.exists(path):
            folder = os.path.dirname(path) or "."
            if os.path.isdir(folder) and os.access(folder, os.W_OK):
                r.add(OK, "database", "doctor.db_new", path=path)
                r.add(OK, "migrations", "doctor.mig_new")
                r.add(OK, "budget", "doctor.budget_sqlite")
                r.add(OK, "push", "doctor.push_new")
            else:
                r.add(FAIL, "database", "doctor.db_nodir", path=path)
            return
    args = {"connect_timeout": CONNECT_TIMEOUT} if url.is_postgres else {}
    engine = create_engine(url.sync_url, connect_args=args)

    def rows(sql: str) -> list | None:
        """The rows of `sql`, or None if it fails (a table not made yet)."""
        try:
            with engine.connect() as conn:
                return list(conn.execute(text(sql)))
        except Exception:
            return None

    try:
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as e:                      # the driver's error, in its words
            detail = " ".join(str(getattr(e, "orig", None) or e).split())[:300].rstrip(".?")
            r.add(FAIL, "database", "doctor.db_fail", url=shown, error=detail)
            return
        r.add(OK, "database", "doctor.db_ok", url=shown)
        have = {row[0] for row in rows(f"SELECT version_num FROM {VERSION_TABLE}") or ()}
        heads, known = _revisions()
        if not have:
            r.add(OK, "migrations", "doctor.mig_new")
        elif have == heads:
            r.add(OK, "migrations", "doctor.mig_ok", rev=", ".join(sorted(have)))
        elif have <= known:
            r.add(FAIL, "migrations", "doctor.mig_behind", have=", ".join(sorted(have)),
                  head=", ".join(sorted(heads)))
        else:
            r.add(FAIL, "migrations", "doctor.mig_ahead", have=", ".join(sorted(have)),
                  head=", ".join(sorted(heads)))
        if url.is_postgres:
            _budget_check(r, rows, settings)
        else:
            r.add(OK, "budget", "doctor.budget_sqlite")
        _push_check(r, rows("SELECT value FROM server_keys WHERE name = 'vapid'") or [])
    finally:
        engine.dispose()


def _budget_check(r: Report, rows, settings) -> None:
    def setting(name: str) -> int:
        got = rows(f"SHOW {name}")                  # reserved_connections: PostgreSQL 16+
        return int(got[0][0]) if got else 0

    most = setting("max_connections")
    reserved = setting("superuser_reserved_connections") + setting("reserved_connections")
    from cardtable.server.store.budget import MIGRATION, budget as budget_of

    processes = settings.processes
    budget = budget_of(settings).total
    room, need = most - reserved, processes * budget + MIGRATION
    params = dict(processes=processes, budget=budget, need=need, room=room, max=most,
                  reserved=reserved)
    if need <= room:
        r.add(OK, "budget", "doctor.budget_ok", **params)
    else:
        r.add(FAIL, "budget", "doctor.budget_fail", want=need + reserved, **params)


def _push_check(r: Report, found: list) -> None:
    if not found:
        r.add(OK, "push", "doctor.push_new")
        return
    try:
        from py_vapid import Vapid

        Vapid.from_raw(str(found[0][0]).encode("ascii"))
    except Exception as e:
        r.add(FAIL, "push", "doctor.push_bad", error=" ".join(str(e).split())[:200] or
              type(e).__name__)
        return
    r.add(OK, "push", "doctor.push_ok")


def _network_checks(r: Report, settings) -> None:
    import ipaddress

    proxies = settings.trusted_proxies.strip()
    if settings.push_contact == DEFAULT_CONTACT:
        r.add(WARN, "push", "doctor.push_contact", contact=settings.push_contact)
    try:
        loopback = ipaddress.ip_address(settings.host).is_loopback
    except ValueError:
        loopback = settings.host == "localhost"
    items = [p.strip() for p in proxies.split(",") if p.strip()]
    if not items:
        r.add(OK, "proxies", "doctor.proxies_none")
        r.add(WARN, "cookies", "doctor.cookies_plain")
        return
    if "*" in items and not loopback:
        r.add(WARN, "proxies", "doctor.proxies_any", host=settings.host)
    else:
        r.add(OK, "proxies", "doctor.proxies_ok", proxies=", ".join(items))
    r.add(OK, "cookies", "doctor.cookies_ok")


def _secret_check(r: Report, settings, path: str | None) -> None:
    if settings.address_secrets:
        r.add(OK, "secret", "doctor.secret_ok", n=len(settings.address_secrets), path=path)
    elif settings.url().is_postgres:
        r.add(WARN, "secret", "doctor.secret_pg")
    else:
        r.add(OK, "secret", "doctor.secret_db")


def _mail_check(r: Report, settings) -> None:
    """E-mail (docs/deploy.md, "E-mail"): off, half configured, or in the clear to another
    machine. Nothing is sent: the SMTP server is not contacted."""
    import ipaddress

    given = {"smtp_host": settings.smtp_host, "mail_from": settings.mail_from,
             "site_url": settings.site_url}
    missing = [k for k, v in given.items() if not v]
    if len(missing) == len(given):
        r.add(OK, "mail", "doctor.mail_off")
        return
    if missing:
        r.add(WARN, "mail", "doctor.mail_partial", missing=", ".join(missing))
        return
    try:
        local = ipaddress.ip_address(settings.smtp_host).is_loopback
    except ValueError:
        local = settings.smtp_host == "localhost"
    if settings.smtp_security == "none" and not local:
        r.add(WARN, "mail", "doctor.mail_plain", host=settings.smtp_host)
        return
    r.add(OK, "mail", "doctor.mail_ok", host=settings.smtp_host, port=settings.smtp_port,
          security=settings.smtp_security, site=settings.site_url)


def doctor(flags: dict[str, Any], config: str | None = None, lang: str | None = None) -> int:
    """Run the checks with the settings of `flags`, the environment and the config file;
    0 if none failed, else 1."""
    from cardtable.server import load_settings as load
    from cardtable.server.options import SettingError

    lang = check_lang(lang)
    r = Report(lang)
    try:
        loaded = load(flags, config=config)
    except SettingError as e:
        r.add(FAIL, "settings", "doctor.settings_bad", error=str(e))
        return _summary(r)
    r.add(OK, "settings", "doctor.settings_ok")
    _config_check(r, loaded)
    _database_checks(r, loaded.settings)
    _network_checks(r, loaded.settings)
    _secret_check(r, loaded.settings, loaded.values.get("address_secret_file"))
    _mail_check(r, loaded.settings)
    return _summary(r)


def _summary(r: Report) -> int:
    fail, warn = r.counts[FAIL], r.counts[WARN]
    if fail or warn:
        typer.echo(t(r.lang, "doctor.summary", fail=fail, warn=warn))
    else:
        typer.echo(t(r.lang, "doctor.all_ok"))
    return 1 if fail else 0


def register(app: typer.Typer) -> None:
    from cardtable.cli.serve_cmd import settings_command

    lang = inspect.Parameter("lang", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[str],
                             default=typer.Option(None, "--lang",
                                                  help=t(default_lang(), "help.lang")))
    settings_command(app, "doctor", t(default_lang(), "doctor.help"), doctor, [lang])
