"""POST /api/replay under load (issue 29): the posted body is parsed once and off the event
loop, posted records have a far lower cap than before, and every client address has its own
small budget of posted replays, apart from the HTTP budget.

In-process: the app is driven through httpx's ASGI transport on this thread's event loop, so
the test knows which thread is the loop's."""

from __future__ import annotations

import asyncio
import json
import random
import threading

import httpx
import pytest

from cardtable.core.record import new_game
from cardtable.server import create_app
from cardtable.server.guard import security
from cardtable.server.config import Settings
from cardtable.server.guard.security import Limits
from cardtable.server.http import replay as replay_api


def _record(seed: int = 3) -> dict:
    state = new_game("abluxxen", players=3, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal()))
    return state.record()


def _app(tmp_path, limits: Limits | None = None):
    return create_app(Settings(database=str(tmp_path / "c.db"), announce=False,
                               limits=limits or Limits()))


async def _post_all(app, bodies: list[bytes], addr: str = "203.0.113.7") -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=app, client=(addr, 4711))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        return [await c.post("/api/replay", content=b,
                             headers={"content-type": "application/json"}) for b in bodies]


def test_the_body_is_parsed_once_and_off_the_event_loop(tmp_path, monkeypatch):
    """The body is read by strict_json exactly once per request, in a thread that is not the
    event loop's; nothing parses it on the loop (the guard and FastAPI did, three times)."""
    calls: list[int] = []
    big_on_loop: list[int] = []
    loop_thread: list[int] = []
    real_strict, real_loads = security.strict_json, json.loads

    def strict(data):
        calls.append(threading.get_ident())
        return real_strict(data)

    def loads(s, *a, **kw):
        if loop_thread and threading.get_ident() == loop_thread[0] and len(s) > 2000:
            big_on_loop.append(len(s))
        return real_loads(s, *a, **kw)

    monkeypatch.setattr(security, "strict_json", strict)
    monkeypatch.setattr(json, "loads", loads)
    rec = _record()
    assert len(rec["actions"]) > 100
    body = json.dumps({"record": rec, "seat": 1, "count": 5}).encode()
    app = _app(tmp_path)

    async def main():
        loop_thread.append(threading.get_ident())
        try:
            return await _post_all(app, [body, body])
        finally:
            loop_thread.clear()                  # the test's own reading of the answers

    main_thread = threading.get_ident()                      # asyncio.run's loop runs here
    answers = asyncio.run(main())
    assert [r.status_code for r in answers] == [200, 200], answers[0].text[:300]
    assert [s["index"] for s in answers[0].json()["steps"]] == [0, 1, 2, 3, 4]
    assert len(calls) == 2                                   # once per request
    assert all(t != main_thread for t in calls)              # never on the loop's thread
    assert big_on_loop == []


def test_a_posted_record_has_at_most_20000_actions(tmp_path):
    """The cap of posted records is 20,000 actions (was 200,000) and 512 KiB (was 4 MiB);
    a longer record is refused with its own error before the engine sees it."""
    app = _app(tmp_path)
    long = {"game": "abluxxen", "players": 3, "seed": 1, "actions": ["pass"] * 20_001}
    body = json.dumps({"record": long}).encode()
    assert len(body) < 512 * 1024
    fat = json.dumps({"record": dict(_record(), pad="x" * 600_000)}).encode()
    r, big = asyncio.run(_post_all(app, [body, fat]))
    assert r.status_code == 422, r.text[:300]
    assert r.json()["error"] == "record_too_long" and r.json()["params"] == {"most": 20_000}
    assert big.status_code == 413 and big.json()["error"] == "too_large"
    assert replay_api.MAX_ACTIONS == 20_000


def test_each_address_has_its_own_budget_of_replays(tmp_path):
    """A burst of replays is answered, the next one gets 429 `replay_limited` with
    Retry-After, while the address's other requests and other addresses go on."""
    app = _app(tmp_path, Limits(replays_per_minute=2.0, replay_burst=3))
    body = json.dumps({"record": _record(), "count": 1}).encode()

    async def main():
        mine = await _post_all(app, [body] * 5)
        other = await _post_all(app, [body], addr="198.51.100.9")
        transport = httpx.ASGITransport(app=app, client=("203.0.113.7", 4711))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            lookup = await c.get("/api/replay")        # through the guard's HTTP budget
        return mine, other, lookup

    mine, other, lookup = asyncio.run(main())
    assert [r.status_code for r in mine] == [200, 200, 200, 429, 429]
    refused = mine[3].json()
    assert refused["error"] == "replay_limited" and refused["params"]["seconds"] >= 1
    assert int(mine[3].headers["retry-after"]) == refused["params"]["seconds"] >= 1
    assert [r.status_code for r in other] == [200]
    assert lookup.status_code == 405           # not 429: the HTTP budget is another one


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_new_errors_have_words(lang):
    from cardtable.i18n import t

    assert "30" in t(lang, "err.api.replay_limited", seconds=30)
    assert "20" in t(lang, "err.api.record_too_long", most=20_000)
