"""`cardtable doctor`: one line a check (OK / WARN / FAIL), the fix in the line, exit status 0
when nothing failed and 1 when a check failed, in both languages (the catalogs' `doctor.*`).
Each test runs the command in this process (`run`), on a database made for it."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from cardtable.i18n import t
from cardtable.server.store.migrate import head, upgrade

ROOT = Path(__file__).resolve().parents[2]


def _lines(out: str) -> dict[str, str]:
    """status per check name (the line's first two fields) -> the whole line."""
    return {line.split(":", 1)[0]: line for line in out.splitlines() if ":" in line}


def _status(out: str, lang: str, check: str) -> str:
    name = t(lang, "doctor.c." + check)
    lines = [line for line in out.splitlines()
             if line.split(":", 1)[0].split(None, 1)[1:] == [name]]
    assert lines, (check, out)
    return lines[-1].split()[0]


@pytest.fixture
def env(monkeypatch, tmp_path):
    """No CARDTABLE_* setting of the caller's environment leaks into a test."""
    for k in list(os.environ):
        if k.startswith("CARDTABLE_") and k not in ("CARDTABLE_FULL",):
            monkeypatch.delenv(k)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_fresh_sqlite_deployment_is_all_ok(run, env, lang):
    db = env / "c.db"
    upgrade(str(db))
    keys = env / "address.keys"
    keys.write_text("k" * 32 + "\n")
    config = env / "cardtable.toml"
    config.write_text(f'database = "{db}"\ntrusted_proxies = "127.0.0.1"\n'
                      'push_contact = "mailto:ops@example.org"\n'
                      f'address_secret_file = "{keys}"\n')
    config.chmod(0o640)
    r = run("doctor", "--config", config, "--lang", lang)
    assert r.returncode == 0, r.stdout + r.stderr
    assert all(line.startswith("OK ") for line in r.stdout.splitlines()[:-1]), r.stdout
    assert r.stdout.splitlines()[-1] == t(lang, "doctor.all_ok")
    assert t(lang, "doctor.mig_ok", rev=head()).split("(")[0] in r.stdout
    for check in ("settings", "config", "database", "migrations", "budget", "push", "proxies",
                  "cookies", "secret", "mail"):
        assert _status(r.stdout, lang, check) == "OK", (check, r.stdout)


def test_defaults_warn_of_what_a_public_server_needs(run, env):
    r = run("doctor", "--lang", "en")              # no file: ./cardtable.db is not made
    assert r.returncode == 0, r.stdout
    assert not (env / "cardtable.db").exists()
    assert _status(r.stdout, "en", "cookies") == "WARN"
    assert "__Host-cardtable_session" in r.stdout and "trusted_proxies" in r.stdout
    assert _status(r.stdout, "en", "push") == "WARN"        # the default contact


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_database_behind_on_migrations_fails_with_the_fix(run, env, lang):
    db = env / "old.db"
    upgrade(str(db), "0011")
    r = run("doctor", "--database", db, "--lang", lang)
    assert r.returncode == 1, r.stdout
    assert _status(r.stdout, lang, "migrations") == "FAIL"
    assert t(lang, "doctor.mig_behind", have="0011", head=head()) in r.stdout
    assert "cardtable migrate" in r.stdout
    assert r.stdout.splitlines()[-1] == t(lang, "doctor.summary", fail=1,
                                          warn=r.stdout.count("\nWARN ")
                                          + r.stdout.startswith("WARN "))


def test_a_database_of_a_newer_release_fails(run, env):
    import sqlite3

    db = env / "new.db"
    upgrade(str(db))
    with sqlite3.connect(db) as c:
        c.execute("UPDATE cardtable_alembic_version SET version_num = '0099'")
    r = run("doctor", "--database", db)
    assert r.returncode == 1 and "0099" in r.stdout, r.stdout
    assert _status(r.stdout, "en", "migrations") == "FAIL"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bad_database_url_fails_clearly(run, env, lang):
    r = run("doctor", "--database", "mysql://h/db", "--lang", lang)
    assert r.returncode == 1, r.stdout
    assert _status(r.stdout, lang, "settings") == "FAIL"
    assert "--database: unsupported database 'mysql'" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    r = run("doctor", "--database", "postgresql://nobody@127.0.0.1:1/x", "--lang", lang)
    assert r.returncode == 1, r.stdout
    line = [x for x in r.stdout.splitlines() if x.startswith("FAIL")]
    assert len(line) == 1 and "127.0.0.1:1" in line[0], r.stdout
    assert line[0].startswith(f"FAIL {t(lang, 'doctor.c.database')}: ")
    assert _status(r.stdout, lang, "settings") == "OK"


def test_a_config_file_anyone_may_change_fails(run, env):
    config = env / "c.toml"
    config.write_text(f'database = "{env / "c.db"}"\n')
    config.chmod(0o666)
    r = run("doctor", "--config", config)
    assert r.returncode == 1 and _status(r.stdout, "en", "config") == "FAIL", r.stdout
    assert f"chmod o-w {config}" in r.stdout


@pytest.fixture(scope="module")
def pg_url():
    """A throwaway PostgreSQL cluster (scripts/ensure-postgres.sh: max_connections 300)."""
    cluster = tempfile.mkdtemp(prefix="cardtable-pg-", dir="/tmp")
    env = dict(os.environ, CARDTABLE_PG_DIR=cluster, CARDTABLE_PG_FAST="1")
    script = str(ROOT / "scripts" / "ensure-postgres.sh")
    proc = subprocess.run(["bash", script], env=env, capture_output=True, text=True,
                          timeout=600)
    try:
        assert proc.returncode == 0, proc.stderr
        yield proc.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", script, "--stop", cluster], timeout=120)


def test_postgresql_budget_and_address_key(run, env, pg_url):

    r = run("doctor", "--database", pg_url, "--trusted-proxies", "127.0.0.1")
    assert _status(r.stdout, "en", "database") == "OK", r.stdout
    assert _status(r.stdout, "en", "migrations") == "OK"               # new: made at start
    assert _status(r.stdout, "en", "secret") == "WARN"                 # kept in the database
    budget = [x for x in r.stdout.splitlines() if x.startswith("OK   connection budget")]
    assert budget and "max_connections 300" in budget[0], r.stdout
    upgrade(pg_url)
    r = run("doctor", "--database", pg_url, "--processes", "20")      # 20 × 32 + 1 > 300
    assert r.returncode == 1
    assert _status(r.stdout, "en", "budget") == "FAIL"
    assert "raise max_connections in postgresql.conf to at least" in r.stdout
    assert _status(r.stdout, "en", "migrations") == "OK"


def test_on_an_80_column_terminal_the_lines_wrap_between_words(monkeypatch):
    """A terminal gets each check wrapped at its width, the rest indented under the text; a pipe
    gets the one line (what grep and the tests above read)."""
    import os
    import sys

    from cardtable.cli.doctor_cmd import shown

    line = ("WARN Cookies: keinem Proxy wird vertraut, also erfährt der Server nie, dass eine "
            "Anfrage über TLS kam: das Sitzungs-Cookie ist das einfache cardtable_session, "
            "nicht das sichere __Host-cardtable_session")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    assert shown(line) == line
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("shutil.get_terminal_size", lambda *a: os.terminal_size((80, 24)))
    rows = shown(line).split("\n")
    assert len(rows) > 1 and all(len(r) < 80 for r in rows)
    assert all(r.startswith("     ") for r in rows[1:])
    assert " ".join(r.strip() for r in rows) == line


@pytest.mark.parametrize("given, status, words", [
    ({}, "OK", "smtp_host"),
    ({"CARDTABLE_SMTP_HOST": "smtp.example.org"}, "WARN", "mail_from, site_url"),
    ({"CARDTABLE_SMTP_HOST": "smtp.example.org", "CARDTABLE_MAIL_FROM": "a@example.org",
      "CARDTABLE_SITE_URL": "https://cards.example.org", "CARDTABLE_SMTP_SECURITY": "none"},
     "WARN", "unencrypted"),
    ({"CARDTABLE_SMTP_HOST": "smtp.example.org", "CARDTABLE_MAIL_FROM": "a@example.org",
      "CARDTABLE_SITE_URL": "https://cards.example.org"}, "OK", "smtp.example.org:587"),
])
def test_the_e_mail_settings_are_checked(run, env, monkeypatch, given, status, words):
    for k, v in given.items():
        monkeypatch.setenv(k, v)
    r = run("doctor", "--lang", "en")
    assert _status(r.stdout, "en", "mail") == status, r.stdout
    assert words in _lines(r.stdout)["%-4s e-mail" % status], r.stdout
