"""A client whose connection is still being checked when its table is deleted (the host
cancels it, or the sweeper expires it) is told so and disconnected, as the clients already
there are, instead of being attached to a table no longer kept (it heard nothing after its
welcome: a full run's spectator waited for `cancelled` in vain). The deletion is made to fall
between the runtime's lookup and the attach (the ban check the endpoint awaits between them).
"""

from __future__ import annotations

from starlette.testclient import TestClient

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits
from cardtable.server.ws import endpoint


def test_a_spectator_arriving_while_the_table_is_cancelled_is_told(tmp_path, monkeypatch):
    app = create_app(Settings(database=str(tmp_path / "t.db"), announce=False,
                              limits=Limits.off(), bot_workers=0, sweep_interval=0))
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"game": "abluxxen", "players": 3,
                                                "seats": [{"kind": "human"}] * 3})
        assert made.status_code == 201, made.text
        code = made.json()["table"]["code"]
        checked = endpoint.bans.session_account

        async def cancelled_meanwhile(ws, hub):
            rt = await hub.runtime_by_code(code)
            try:
                await rt.cancel()               # the host cancels while this one is checked
            finally:
                hub.release(rt)
            return await checked(ws, hub)

        monkeypatch.setattr(endpoint.bans, "session_account", cancelled_meanwhile)
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert ws.receive_json() == {"type": "cancelled", "table": code}
            closed = ws.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == 4404
