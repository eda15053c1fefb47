"""Bad input over the WebSocket and HTTP, on SQLite and PostgreSQL: random JSON, wrong types,
unknown message types, huge messages, out-of-turn and illegal decisions, stale indices,
forged tokens, floods. The server stays up, the offending client gets an `error`, nobody
else hears of it, and the game (its record) does not change."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import assert_clean_log, ServerProc
from sizes import FULL, sample
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

# this module's server accepts many messages per second (the fuzzer is quick); the flood
# test uses a connection to another server with the usual limits (test_flood_is_rate_limited)
FAST = ("--rate", "100000", "--burst", "100000", "--bot-delay", "1")


@pytest.fixture(scope="module")
def server(database, logs):
    srv = ServerProc(database, log_dir=logs, args=FAST).start()
    yield srv
    srv.stop()
    assert_clean_log(logs)


class Sync:
    """A synchronous WebSocket client (websockets.sync), loopback only."""

    def __init__(self, url: str):
        self.ws = connect(url, proxy=None, compression=None, max_size=None,
                          open_timeout=60).__enter__()
        self.inbox: list[dict] = []

    def recv(self, timeout: float = 60.0) -> dict:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.inbox.append(msg)
        return msg

    def drain(self, quiet: float = 0.05) -> list[dict]:
        out = []
        while True:
            try:
                out.append(self.recv(quiet))
            except TimeoutError:
                return out

    def until(self, pred, timeout: float = 60.0) -> dict:
        end = time.time() + timeout
        while True:
            m = self.recv(max(0.01, end - time.time()))
            if pred(m):
                return m

    def ask(self, payload, kinds=("error", "ack", "pong", "state")) -> dict:
        self.ws.send(payload)
        return self.until(lambda m: m["type"] in kinds)

    def state(self) -> dict:
        self.ws.send(json.dumps({"type": "sync"}))
        return self.until(lambda m: m["type"] == "state")

    def close(self) -> None:
        self.ws.close()


@pytest.fixture(scope="module")
def table(server):
    """A duel between two connected clients, a few decisions in; and a spectator."""
    out = server.create(game="abluxxen", variant="duel")
    code = out["table"]["code"]
    j = [server.join(code, "Ann"), server.join(code, "Bob")]
    cl = [Sync(f"{server.ws_base}/ws/{code}?token={j[i]['token']}") for i in (0, 1)]
    spec = Sync(f"{server.ws_base}/ws/{code}")
    rng = random.Random(7)
    made = []                                   # (seat, index, decision) acknowledged
    for _ in range(6):
        for c in cl:
            c.drain()
        st = [c.state() for c in cl]
        mover = next(i for i in (0, 1) if st[i]["legal"])
        ack = cl[mover].ask(json.dumps({"type": "decide", "index": st[mover]["index"],
                                        "decision": rng.choice(st[mover]["legal"])}),
                            kinds=("ack", "error"))
        assert ack["type"] == "ack", ack
        made.append((mover, st[mover]["index"], ack["decision"]))
    for c in cl + [spec]:
        c.drain()
    yield {"code": code, "tokens": [x["token"] for x in j], "clients": cl, "spec": spec,
           "server": server, "made": made}
    for c in cl + [spec]:
        c.close()


def snapshot(t) -> tuple:
    """What must not change: the index and every seat's and the spectator's view."""
    return tuple((s["index"], json.dumps(s["view"], sort_keys=True))
                 for s in (t["clients"][0].state(), t["clients"][1].state(), t["spec"].state()))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=10), kids,
                                                              max_size=5),
    max_leaves=20)
TYPES = ["decide", "auth", "back", "sync", "ping", "hello", "", "DECIDE", None, 1]
typed = st.builds(
    lambda t, extra: dict(extra, type=t) if t is not None else extra,
    st.sampled_from(TYPES),
    st.dictionaries(st.sampled_from(["decision", "index", "id", "token", "since", "x", "type"]),
                    json_values, max_size=4))
decides = st.builds(
    lambda d, i, ident: {"type": "decide", "decision": d, "index": i, "id": ident},
    st.text(max_size=80) | st.sampled_from(["play 13 13 13 13 13", "draw pool 99", "take",
                                            "shadow 14", "play", "PLAY X X X X", "pass"]),
    st.none() | st.integers(min_value=-5, max_value=10**12),
    st.none() | st.integers() | st.text(max_size=70))
payloads = (json_values.map(json.dumps) | typed.map(json.dumps) | decides.map(json.dumps)
            | st.text(max_size=200) | st.binary(max_size=200))


def _expect_refused(t, cl: Sync, payload) -> None:
    reply = cl.ask(payload)
    if reply["type"] == "error":
        return
    if reply["type"] == "ack" and reply.get("again"):
        return                  # a decision already made, sent again: acknowledged, not played
    # a well-formed harmless message (ping, sync, back) may get its normal answer
    assert reply["type"] in ("pong", "state"), reply
    msg = json.loads(payload)
    assert msg.get("type") in ("ping", "sync", "back"), (payload, reply)


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(payload=payloads, who=st.integers(min_value=0, max_value=2))
def _fuzz(t, payload, who):
    cl = [t["clients"][0], t["clients"][1], t["spec"]][who]
    if isinstance(payload, str):
        try:
            msg = json.loads(payload)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("type") == "decide" and \
                isinstance(msg.get("decision"), str):
            legal = cl.state()["legal"]
            if " ".join(msg["decision"].split()) in legal:
                return                                   # a legal decision would be played
    _expect_refused(t, cl, payload)


def test_fuzz_messages_change_nothing(table):
    before = snapshot(table)
    _fuzz(table)
    assert snapshot(table) == before
    assert table["server"].alive()
    # every message got exactly one answer, to its sender only: nothing is left over
    for c in table["clients"] + [table["spec"]]:
        assert not [m for m in c.drain() if m["type"] == "error"]


def test_out_of_turn_illegal_stale_spectator(table):
    before = snapshot(table)
    a, b = table["clients"]
    sa = a.state()
    mover, other = (a, b) if sa["legal"] else (b, a)
    st_m = mover.state()
    legal = st_m["legal"]
    # out of turn: the other seat sends the mover's legal decision
    err = other.ask(json.dumps({"type": "decide", "decision": legal[0]}))
    assert err["type"] == "error" and err["code"] == "not_your_turn"
    # illegal
    err = mover.ask(json.dumps({"type": "decide", "decision": "play 13 13 13 13 13 13 13",
                                "id": "x1"}))
    assert err["code"] == "illegal" and err["id"] == "x1"
    # the engine's refusal as a code and its params (each front end words it, issue 14)
    assert err["reason_code"] == "ab.hold" and err["params"]["want"] == 7 \
        or err["reason_code"].startswith("ab.expect."), err     # not the seat's play phase
    from cardtable.i18n import t
    assert err["message"] == t("en", "err." + err["reason_code"], **err["params"])
    err = mover.ask(json.dumps({"type": "decide", "decision": "fly away"}))
    assert err["code"] == "illegal" and err["reason_code"] == "ab.unknown"
    assert err["params"] == {}
    # stale: made for an earlier position
    err = mover.ask(json.dumps({"type": "decide", "decision": legal[0],
                                "index": st_m["index"] - 1}))
    assert err["code"] == "stale"
    # a spectator has no seat
    err = table["spec"].ask(json.dumps({"type": "decide", "decision": legal[0]}))
    assert err["code"] == "not_seated"
    err = table["spec"].ask(json.dumps({"type": "back"}))
    assert err["code"] == "not_seated"
    assert snapshot(table) == before


def test_a_decision_sent_again_is_acknowledged_again(table):
    """A client that lost its connection before the answer sends its decision again with the
    index it was made at: the seat's own decision there is acknowledged again (`again`) and
    played no second time; another text there, or another seat, is stale."""
    before = snapshot(table)
    counted = _decision_counts(table["server"])
    seat, index, text = table["made"][-1]
    me, other = table["clients"][seat], table["clients"][1 - seat]
    ack = me.ask(json.dumps({"type": "decide", "decision": text, "index": index, "id": 5}))
    assert ack == {"type": "ack", "id": 5, "index": index + 1, "decision": text,
                   "pending": False, "again": True}
    assert me.ask(json.dumps({"type": "decide", "decision": text + " 13", "index": index})
                  )["code"] == "stale"
    assert other.ask(json.dumps({"type": "decide", "decision": text, "index": index})
                     )["code"] == "stale"
    assert snapshot(table) == before
    again, decisions = _decision_counts(table["server"])
    assert (again, decisions) == (counted[0] + 1, counted[1])    # counted apart, not played


def _decision_counts(server) -> tuple[float, float]:
    """(decisions acknowledged again, decisions by players) of the server's /metrics, read by
    Prometheus's own parser."""
    from prometheus_client.parser import text_string_to_metric_families

    samples = {(s.name, s.labels.get("by")): s.value for f in
               text_string_to_metric_families(server.get("/metrics").text) for s in f.samples}
    return (samples[("cardtable_decisions_again_total", None)],
            samples[("cardtable_decisions_total", "player")])


def test_size_limits(table):
    before = snapshot(table)
    a = table["clients"][0]
    err = a.ask(json.dumps({"type": "decide", "decision": "x" * 10_000}))
    assert err["code"] == "too_large"
    # the limit counts bytes, not characters: 3,000 two-byte letters are 6,000 bytes
    err = a.ask(json.dumps({"type": "decide", "decision": "é" * 3000}, ensure_ascii=False))
    assert err["code"] == "too_large"
    err = a.ask("[" * 3000 + "]" * 3000)
    assert err["code"] == "too_large"
    err = a.ask("[" * 1500 + "]" * 1500)
    assert err["code"] == "bad_message"
    # beyond the transport's frame limit the connection is closed; the server stays up
    server = table["server"]
    big = Sync(f"{server.ws_base}/ws/{table['code']}")
    big.drain()
    with pytest.raises(Exception):        # the server closes the connection (1009)
        big.ws.send("y" * (2 << 20))
        for _ in range(5):
            big.recv(5)
    assert server.alive() and server.get("/api/health").status_code == 200
    assert snapshot(table) == before


def test_forged_and_foreign_tokens(table):
    server = table["server"]
    before = snapshot(table)
    other = server.create(game="kombio", players=2)
    foreign = server.join(other["table"]["code"], "Eve")["token"]
    for token in ("forged", "A" * 43, foreign, table["tokens"][0] + "x"):
        c = Sync(f"{server.ws_base}/ws/{table['code']}?token={token}")
        m = c.recv()
        assert m["type"] == "error" and m["code"] == "bad_token"
        with pytest.raises(Exception):
            c.recv(5)                                            # closed (4401)
        assert c.ws.close_code == 4401
    # `auth` with a forged or foreign token: an error, the connection stays a spectator
    s = Sync(f"{server.ws_base}/ws/{table['code']}")
    s.drain()
    for token in ("forged", foreign):
        err = s.ask(json.dumps({"type": "auth", "token": token}))
        assert err["code"] == "bad_token"
    assert s.state()["seat"] is None
    # a table that does not exist
    c = Sync(f"{server.ws_base}/ws/NOSUCH99")
    assert c.recv()["code"] == "not_found"
    s.close()
    assert snapshot(table) == before


def test_flood_is_rate_limited(database, logs):
    """A client that floods gets `rate_limited` errors beyond its token bucket (the usual
    limits: 20 messages a second, bursts of 40); nothing else changes, the other player hears
    nothing of it, and the connection works again once the bucket has refilled."""
    srv = ServerProc(database, log_dir=logs, args=("--rate", "20", "--burst", "40")).start()
    try:
        code = srv.create(game="abluxxen", variant="duel")["table"]["code"]
        j = [srv.join(code, "Ann"), srv.join(code, "Bob")]
        ann, bob = (Sync(f"{srv.ws_base}/ws/{code}?token={x['token']}") for x in j)
        ann.drain(0.3)
        bob.drain(0.3)
        seen = lambda: [(st["index"], st["view"]) for st in (ann.state(), bob.state())]  # noqa: E731
        before = seen()
        flood = [json.dumps({"type": "ping", "id": i}) if i % 2 else
                 json.dumps({"type": "decide", "decision": "play 13 13 13 13 13", "id": i})
                 for i in range(300)]
        t0 = time.monotonic()
        for payload in flood:
            ann.ws.send(payload)
        replies = [ann.recv() for _ in flood]                 # one answer per message
        elapsed = time.monotonic() - t0
        limited = [m for m in replies if m["type"] == "error" and m["code"] == "rate_limited"]
        served = [m for m in replies if m not in limited]
        assert len(limited) >= 300 - 40 - 20 * elapsed - 1, (len(limited), elapsed)
        assert len(served) <= 40 + 20 * elapsed + 1
        # what got through was answered as usual: pongs, and refusals of the illegal decision
        assert {m["type"] for m in served} <= {"pong", "error"}
        assert {m["code"] for m in served if m["type"] == "error"} <= {"illegal", "not_your_turn"}
        assert bob.drain(0.3) == []                           # nobody else hears of it
        # the bucket refills: a ping is answered again (asked until it is, with a hang guard)
        deadline = time.monotonic() + 60
        while (reply := ann.ask(json.dumps({"type": "ping", "id": "after"})))["type"] != "pong":
            assert reply["code"] == "rate_limited" and time.monotonic() < deadline, reply
        assert seen() == before
        assert srv.alive()
        ann.close()
        bob.close()
    finally:
        srv.stop()


def test_game_goes_on_after_the_abuse(table):
    """After all that, the two clients finish the game and the record replays."""
    from cardtable.core.record import load_record

    a, b = table["clients"]
    rng = random.Random(11)
    for _ in range(2000):
        sa, sb = a.state(), b.state()
        if sa["status"] == "over":
            break
        mover = a if sa["legal"] else b
        st_m = sa if sa["legal"] else sb
        if not st_m["legal"]:
            time.sleep(0.01)
            continue
        ack = mover.ask(json.dumps({"type": "decide", "index": st_m["index"],
                                    "decision": rng.choice(st_m["legal"])}),
                        kinds=("ack", "error"))
        assert ack["type"] == "ack", ack
    rec = table["server"].record(table["code"])
    assert load_record(rec).over
    assert table["server"].alive()


def test_http_api_fuzz_no_server_errors(server, tmp_path):
    """schemathesis against /openapi.json: no request makes the server answer 5xx. `make test`
    runs its example and fuzzing phases (5 examples an operation); `make test-full` adds the
    coverage phase (every parameter's boundary values) and stateful sequences, 10 examples."""
    st_bin = str(Path(sys.executable).parent / "st")     # schemathesis: a dev dependency
    assert Path(st_bin).exists(), "schemathesis's `st` is missing from the environment"
    cmd = [st_bin, "run", f"{server.base}/openapi.json", "--checks", "not_a_server_error",
           "--max-examples", str(sample(10, 5)), "--seed", "1", "--workers", "1", "--no-color",
           "--generation-database", "none",
           "--phases", "examples,coverage,fuzzing,stateful" if FULL else "examples,fuzzing",
           "--request-timeout", "10"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, cwd=tmp_path,
                          env={"PATH": str(Path(sys.executable).parent), "HOME": str(tmp_path),
                               "NO_PROXY": "*", "SCHEMATHESIS_TELEMETRY": "false"})
    out = proc.stdout + proc.stderr
    assert "not_a_server_error" not in out.split("SUMMARY")[-1] or proc.returncode == 0, out
    assert proc.returncode == 0, out[-6000:]
    assert server.alive()
