"""The database password never shows in `ps`: the server takes the database URL from the
environment (CARDTABLE_DATABASE_URL) or its password from a file (--database-password-file,
CARDTABLE_DATABASE_PASSWORD_FILE), and neither the server's command line nor its workers'
carry it. Both entry points: `python -m cardtable.server` and `cardtable serve`.

The test cluster (scripts/ensure-postgres.sh) trusts loopback connections, so the password is
not checked there: the unit tests below check that it reaches the connection URLs."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from helpers import GUARD, HOST, ROOT, STARTED, database_url, free_port

from cardtable.server.config import DatabaseURL, Settings, read_password_file


def _tree(pid: int) -> list[int]:
    """`pid` and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _cmdlines(pid: int) -> list[str]:
    lines = []
    for p in _tree(pid):
        try:
            lines.append(Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            pass
    return lines


def _start(args: list[str], env: dict, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    out = open(log, "ab")
    proc = subprocess.Popen([sys.executable, *args, "--host", HOST, "--port", str(port)],
                            stdout=out, stderr=subprocess.STDOUT, cwd=str(ROOT),
                            env=dict(os.environ, PYTHONUNBUFFERED="1", **env))
    out.close()
    STARTED.append(proc)
    base = f"http://{HOST}:{port}"
    deadline = time.monotonic() + GUARD
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(base + "/api/health", timeout=1, trust_env=False).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


@pytest.mark.parametrize("entry", [["-m", "cardtable.server", "--bot-workers", "1"],
                                   ["-m", "cardtable.cli.main", "serve"]])
@pytest.mark.parametrize("way", ["environment", "password file"])
def test_the_password_is_not_on_any_command_line(request, tmp_path, entry, way):
    url = database_url("postgresql", request, tmp_path)            # postgresql://cardtable@...
    password = "pw-" + secrets.token_hex(12)
    if way == "environment":
        env = {"CARDTABLE_DATABASE_URL": url.replace("cardtable@", f"cardtable:{password}@", 1)}
        args = entry
    else:
        pwfile = tmp_path / "db-password"
        pwfile.write_text(password + "\n")
        pwfile.chmod(0o600)
        env = {}
        args = entry + ["--database", url, "--database-password-file", str(pwfile)]
    log = tmp_path / "server.log"
    proc, base = _start(args, env, log)
    try:
        health = httpx.get(base + "/api/health", timeout=GUARD, trust_env=False).json()
        assert health["database"] == "postgresql"             # the URL came through
        r = httpx.post(base + "/api/tables", json={"game": "kombio", "players": 2},
                       timeout=GUARD, trust_env=False)
        assert r.status_code == 201, r.text
        lines = _cmdlines(proc.pid)
        assert lines and all(password not in line for line in lines), lines
    finally:
        proc.terminate()
        proc.wait(30)
    text = log.read_text()
    assert password not in text and "Traceback" not in text, text
    assert "cardtable server on" in text


def test_the_password_file_reaches_the_connection_urls(tmp_path):
    f = tmp_path / "pw"
    f.write_text("s3cret:@/ word\nsecond line ignored\n")
    assert read_password_file(str(f)) == "s3cret:@/ word"
    url = Settings(database="postgresql://cardtable@db:5432/ct",
                   database_password=read_password_file(str(f))).url()
    assert url.sync_url.password == "s3cret:@/ word"
    assert "s3cret" in url.libpq() and "s3cret" not in url.display()
    assert "s3cret" not in repr(Settings(database_password="s3cret"))
    with pytest.raises(ValueError, match="given twice"):
        DatabaseURL("postgresql://cardtable:pw@db/ct", "other")
    with pytest.raises(ValueError, match="for PostgreSQL"):
        DatabaseURL(str(tmp_path / "a.db"), "pw")
    f.write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        read_password_file(str(f))
    with pytest.raises(ValueError, match="cannot read"):
        read_password_file(str(tmp_path / "missing"))


@pytest.mark.parametrize("entry", [["-m", "cardtable.server"], ["-m", "cardtable.cli.main",
                                                                 "serve"]])
def test_a_bad_password_file_is_one_line_and_exit_status_2(tmp_path, entry):
    proc = subprocess.run([sys.executable, *entry, "--database", "postgresql://u@127.0.0.1:1/x",
                           "--database-password-file", str(tmp_path / "missing")],
                          capture_output=True, text=True, cwd=str(ROOT), timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "cannot read the database password file" in proc.stderr
    assert "Traceback" not in proc.stderr
