"""docs/deploy.md's walkthrough, "From an empty machine to two processes", followed as written:
its shell blocks are read from the file (so the page cannot drift from what is tested) and
run with bash, as an ordinary user:

- step 1 (packages, the venv) and step 2 (a role and an empty database, as root): this
  test's own way, the project's venv and a new, empty database in the session's cluster
  (scripts/ensure-postgres.sh);
- step 3 (the settings): this test's values in place of the block's (each of its variables
  is set, and no other);
- step 4 (two processes on the empty database, waited for): as written;
- step 5 (nginx, as root): nginx with the two files step 5 copies (nginx_helpers.py), in
  front of step 3's ports;
- step 6 (the checks through nginx): as written; then a table is made and played on through
  nginx, and both processes drain on SIGTERM and exit 0.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import threading

import httpx

from helpers import GUARD, ROOT, assert_clean_log, database_url, free_port, run_async
from nginx_helpers import Nginx, ensure_nginx, private_duel

SECTION = "## From an empty machine to two processes"


def steps() -> dict[int, str]:
    """The walkthrough's shell blocks by their step number (`# step N: ...`)."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else None]
    out = {}
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        m = re.match(r"# step (\d+):", block)
        assert m, block
        out[int(m.group(1))] = block
    assert sorted(out) == [1, 2, 3, 4, 5, 6], sorted(out)
    return out


def test_the_walkthrough_installs_the_shipped_nginx_files():
    """Step 5 copies exactly the files the nginx tests run, to Debian's places."""
    five = steps()[5]
    assert "cp deploy/nginx/nginx.conf /etc/nginx/nginx.conf" in five
    assert "cp deploy/nginx/cardtable.conf /etc/nginx/sites-available/cardtable" in five
    assert "nginx -t" in five


def test_from_an_empty_database_to_two_processes_behind_nginx(request, tmp_path):
    ensure_nginx()
    blocks = steps()
    db = database_url("postgresql", request, tmp_path)          # step 2: empty
    ports = [free_port(), free_port()]
    password = tmp_path / "db-password"
    password.write_text(secrets.token_hex(24) + "\n")     # (the test cluster trusts)
    nginx = Nginx(tmp_path, ports)
    ours = {"PATH": f"{os.path.dirname(sys.executable)}:$PATH",
            "CARDTABLE_DATABASE_URL": db, "CARDTABLE_DATABASE_PASSWORD_FILE": str(password),
            "PORTS": " ".join(map(str, ports)), "LOGS": str(tmp_path), "SITE": nginx.base}
    names = re.findall(r"^(?:export )?([A-Z_]+)=", blocks[3], re.M)
    assert sorted(names) == sorted(ours), names                 # every setting, no other
    settings = "".join(f"export {k}={shlex.quote(v) if k != 'PATH' else v}\n"
                       for k, v in ours.items())
    env = dict(os.environ, CURL_CA_BUNDLE=str(nginx.cert))
    # step 4 as written; then the shell names its two processes and waits for their ends
    script = ("set -eu\n" + settings + blocks[4] +
              'echo; echo "step 4 done: $(jobs -p | tr "\\n" " ")"\n'
              'for p in $(jobs -p); do s=0; wait "$p" || s=$?; echo "exit $s"; done\n')
    bash = subprocess.Popen(["bash", "-c", script], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)   # its processes: one group to end
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        for line in bash.stdout:
            lines.append(line)
            if line.startswith("step 4 done:"):
                done.set()
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert done.wait(300), "step 4 did not finish"          # a hang guard
        assert lines and lines[-1].startswith("step 4 done:"), lines
        procs = [int(p) for p in lines[-1].split(":")[1].split()]
        assert len(procs) == 2, procs
        nginx.start()                                           # step 5
        check = subprocess.run(["bash", "-c", "set -eu\n" + settings + blocks[6]], cwd=ROOT,
                               env=env, capture_output=True, text=True, timeout=GUARD)
        assert check.returncode == 0, check.stderr
        assert json.loads(check.stdout.splitlines()[0])["ok"] is True, check.stdout
        run_async(_play_a_little(nginx))
        for pid in procs:                                       # the drain: exit 0
            os.kill(pid, signal.SIGTERM)
        assert bash.wait(GUARD) == 0
        reader.join(GUARD)
        assert [x for x in lines if x.startswith("exit")] == ["exit 0\n"] * 2, lines
    finally:
        nginx.stop()
        try:
            os.killpg(bash.pid, signal.SIGKILL)             # whatever step 4 left running
        except ProcessLookupError:
            pass
        bash.wait(GUARD)
    assert_clean_log(tmp_path)


async def _play_a_little(nginx: Nginx) -> None:
    """A table made through nginx, its two players connected through it and one decision."""
    import websockets

    async with httpx.AsyncClient(base_url=nginx.base, verify=nginx.tls(), trust_env=False,
                                 timeout=GUARD) as http:
        code, tokens = await private_duel(http)
    for token in tokens:
        async with websockets.connect(f"{nginx.ws_base}/ws/{code}?token={token}",
                                      ssl=nginx.tls(), proxy=None, open_timeout=GUARD,
                                      max_size=None) as ws:
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "state":
                    break
            if m["legal"]:
                await ws.send(json.dumps({"type": "decide", "id": 1, "index": m["index"],
                                          "decision": m["legal"][0]}))
                while True:
                    m = json.loads(await ws.recv())
                    if m["type"] in ("ack", "error"):
                        assert m["type"] == "ack", m
                        break
