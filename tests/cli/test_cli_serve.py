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


def test_ctrl_c_stops_the_server_quietly_with_status_0(tmp_path):
    """SIGINT (Ctrl-C, also what `make run` passes on) shuts the server down as SIGTERM does:
    exit status 0, no traceback, so `make run` ends without "Error 130"."""
    import signal

    proc = subprocess.Popen(command() + ["serve", "--port", "0", "--database",
                                          str(tmp_path / "a.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()            # waits for the start line (or the exit)
        assert line.startswith("cardtable server on "), (line, proc.poll())
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
