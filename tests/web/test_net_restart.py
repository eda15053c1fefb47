"""The browser's table connection (static/js/net.js) when a server process restarts: after a
`reconnect` message and the close 1012 it connects again to the same URL after a random part
of the message's `delay_ms` (so that a process's clients do not all arrive at once, and
without the backoff of a lost connection); the message is the connection's own, not the
page's. Run in node with a stand-in WebSocket and timers (no browser, no server)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

NET = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web" / "static" / "js" / \
    "net.js"

SCRIPT = """
const sockets = [], timers = [];
globalThis.location = {protocol: "https:", host: "cards.example.org:8443"};
class FakeSocket {
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
}
FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
globalThis.WebSocket = FakeSocket;
globalThis.setTimeout = (fn, ms) => { timers.push({fn, ms}); return timers.length; };
globalThis.clearTimeout = () => {};
globalThis.setInterval = () => 0;
globalThis.clearInterval = () => {};
const { TableConnection } = await import(process.argv[2]);
const out = {};
for (const random of [0.25, 0.9]) {
  Math.random = () => random;
  sockets.length = 0; timers.length = 0;
  const seen = [];
  const c = new TableConnection("ABC", {token: "t", onMessage: (m) => seen.push(m.type)});
  c.connect();
  const first = sockets[0];
  first.readyState = 1; first.onopen();
  first.onmessage({data: JSON.stringify({type: "reconnect", delay_ms: 2000})});
  first.readyState = 3; first.onclose({code: 1012});
  const wait = timers[timers.length - 1];
  wait.fn();
  out[random] = {wait: wait.ms, seen, urls: sockets.map((s) => s.url)};
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node missing")
def test_a_restarting_server_is_rejoined_after_a_random_part_of_its_delay(tmp_path):
    script = tmp_path / "restart.mjs"
    script.write_text(SCRIPT, encoding="utf-8")
    proc = subprocess.run(["node", str(script), NET.as_uri()], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["0.25"]["wait"] == 500 and out["0.9"]["wait"] == 1800, out   # of delay_ms 2000
    for case in out.values():
        assert case["seen"] == [], case                    # not handed to the page
        first, again = case["urls"]
        assert again == first == "wss://cards.example.org:8443/ws/ABC?auth=1&lang=en&since=0"
