"""`cardtable serve` as a user runs it: `--port 0` announces the port it really got, and a
busy port is one line and exit status 2, without the start line (issue 14)."""

from __future__ import annotations

import re
import subprocess
import urllib.request

from pty_command import command


def test_port_0_announces_the_real_port_and_a_busy_port_is_one_error(tmp_path, cli,
                                                                     usage_error):
    proc = subprocess.Popen(command() + ["serve", "--port", "0", "--database",
                                          str(tmp_path / "a.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()            # waits for the start line (or the exit)
        m = re.match(r"cardtable server on http://127\.0\.0\.1:(\d+) ", line)
        assert m, (line, proc.poll())
        port = int(m.group(1))
        assert port != 0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=60) as r:
            assert r.status == 200
        busy = cli("serve", "--port", port, "--database", tmp_path / "b.db")
        usage_error(busy)
        assert "cannot listen on 127.0.0.1:" in busy.stderr
        assert not (tmp_path / "b.db").exists()          # nothing started
    finally:
        proc.terminate()
        proc.wait(timeout=60)
