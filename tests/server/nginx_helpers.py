"""Debian's nginx (scripts/ensure-nginx.sh) in front of server processes, configured with the
files the repository ships: deploy/nginx/cardtable.conf (the site) inside the main and events
context of deploy/nginx/nginx.conf. Only what is this test's is changed: the upstream's
addresses (each keeps the file's parameters), the listening address, the TLS certificate (a
self-signed one for 127.0.0.1, made here), the paths of logs, pid and temporary files, and
`proxy_bind` (nginx connects to the servers from 127.0.0.2, which they trust as the proxy,
so the tests' own checks from 127.0.0.1 do not pass for the proxy). nginx runs as the
current user (the `user` line and the system's module and conf.d includes are left out)."""

from __future__ import annotations

import re
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest

from helpers import GUARD, HOST, ROOT, free_port

NGINX = "/usr/sbin/nginx"
SITE = ROOT / "deploy" / "nginx" / "cardtable.conf"
MAIN = ROOT / "deploy" / "nginx" / "nginx.conf"
PROXY = "127.0.0.2"


def ensure_nginx() -> None:
    if subprocess.run(["sh", str(ROOT / "scripts" / "ensure-nginx.sh")]).returncode != 0:
        pytest.fail("scripts/ensure-nginx.sh could not install nginx")


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A certificate and key for 127.0.0.1 (valid a day), made with openssl."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=IP:{HOST}",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def tls_context(cert: Path) -> ssl.SSLContext:
    """A client's TLS context that trusts `cert` (and nothing else)."""
    return ssl.create_default_context(cafile=str(cert))


def site_conf(text: str, upstreams: list[int], port: int, tmp: Path, cert: Path,
              key: Path) -> str:
    """The site file `text` with the test's upstream ports, listening port, certificate and
    access log."""
    m = re.search(r"^upstream cardtable \{\n(.*?)^\}", text, re.S | re.M)
    assert m, "no upstream block"
    body = m.group(1)
    servers = re.findall(r"^( *)server \S+( [^;]*)?;\n", body, re.M)
    assert len(servers) >= 2, body
    indent, params = servers[0]
    lines = "".join(f"{indent}server {HOST}:{p}{params};\n" for p in upstreams)
    new_body = re.sub(r"^ *server \S+( [^;]*)?;\n", "", body, flags=re.M)
    new_body = re.sub(r"^( *hash [^\n]*\n)", lambda h: h.group(1) + lines, new_body, flags=re.M)
    assert lines in new_body, new_body
    text = text[:m.start(1)] + new_body + text[m.end(1):]
    text, n = re.subn(r"listen \S+( ssl)?;", lambda l: f"listen {HOST}:{port}{l.group(1) or ''};",
                      text)
    assert n == 1, text
    text, n = re.subn(r"ssl_certificate \S+;", f"ssl_certificate {cert};", text)
    assert n == 1, text
    text, n = re.subn(r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};", text)
    assert n == 1, text
    text, n = re.subn(r"access_log /\S+ ", f"access_log {tmp}/cardtable.access.log ", text)
    assert n == 1, text
    return text


def main_conf(text: str, tmp: Path, site: Path) -> str:
    """The main configuration `text` (nginx.conf) with the test's paths, including `site`."""
    temp = " ".join(f"{k}_temp_path {tmp}/{k};"
                    for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    subs = [(r"^user [^;]*;\n", ""),
            (r"^pid [^;]*;", f"pid {tmp}/nginx.pid;"),
            (r"^error_log [^;]*;", f"error_log {tmp}/error.log;"),
            (r"^include /etc/nginx/modules-enabled/[^;]*;\n", ""),
            (r"^( *)include /etc/nginx/conf.d/[^;]*;\n", ""),
            (r"^( *)access_log [^;]*;", rf"\1access_log {tmp}/default.access.log;"),
            (r"^( *)include /etc/nginx/sites-enabled/[^;]*;",
             rf"\1proxy_bind {PROXY};\n\1{temp}\n\1include {site};")]
    for pattern, repl in subs:
        text, n = re.subn(pattern, repl, text, flags=re.M)
        assert n == 1, (pattern, text)
    return text


def directive(text: str, name: str) -> str:
    """The value of the first `name ...;` directive of a configuration."""
    m = re.search(rf"^\s*{name} ([^;]*);", text, re.M)
    assert m, name
    return m.group(1)


class Nginx:
    """nginx with the shipped files, in front of servers on `upstreams` (ports), listening
    with TLS on HOST:port."""

    def __init__(self, tmp: Path, upstreams: list[int]):
        self.tmp = tmp
        self.port = free_port()
        self.cert, self.key = self_signed(tmp)
        self.site = tmp / "cardtable.conf"
        self.site.write_text(site_conf(SITE.read_text(), upstreams, self.port, tmp, self.cert,
                                       self.key))
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(main_conf(MAIN.read_text(), tmp, self.site))
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"https://{HOST}:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"wss://{HOST}:{self.port}"

    def tls(self) -> ssl.SSLContext:
        return tls_context(self.cert)

    def start(self) -> Nginx:
        self.proc = subprocess.Popen([NGINX, "-p", str(self.tmp), "-e", str(self.tmp / "error.log"),
                                      "-c", str(self.conf), "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + GUARD
        while True:
            assert self.proc.poll() is None, f"nginx exited: {self.proc.stderr.read().decode()}"
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return self
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        shutil.rmtree(self.tmp / "proxy", ignore_errors=True)

    def error_log(self) -> str:
        p = self.tmp / "error.log"
        return p.read_text(errors="replace") if p.exists() else ""


async def private_duel(http) -> tuple[str, list[str]]:
    """A private duel made through the proxy with `http` (an httpx.AsyncClient on it) and its
    two players joined: its code and their seat tokens."""
    r = await http.post("/api/tables", json={"game": "abluxxen", "variant": "duel",
                                             "public": False})
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    tokens = []
    for name in ("Ann", "Bob"):
        r = await http.post(f"/api/tables/{code}/join", json={"name": name})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return code, tokens
