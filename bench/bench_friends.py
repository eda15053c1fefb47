"""How long a friend request takes for a name that declined and for a name nobody has
(issue 32: the answer must not tell them apart): 200 requests each, alternating, against an
app in this process on a fresh SQLite file; medians and 90th percentiles.

    PYTHONPATH=src python bench/bench_friends.py
"""
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from accounts_helpers import app_client
from cardtable.server.people.friends import FriendLimits
with tempfile.TemporaryDirectory() as d, app_client(f"{d}/m.db") as web:
    web.app.state.friends.limits = FriendLimits(request_burst=10**6)
    _, fay = web.sign_up("Fay"); _, eve = web.sign_up("Eve")
    web.call("POST", "/api/friends/requests", fay, json={"name": "Eve"})
    rid = web.call("GET", "/api/friends", eve).json()["incoming"][0]["id"]
    web.call("POST", f"/api/friends/requests/{rid}/decline", eve)
    times = {"Eve": [], "Nobody": []}
    for i in range(200):
        for name in ("Eve", "Nobody") if i % 2 else ("Nobody", "Eve"):
            t0 = time.perf_counter()
            r = web.call("POST", "/api/friends/requests", fay, json={"name": name})
            times[name].append(time.perf_counter() - t0)
            assert r.status_code == 202
    for k, v in times.items():
        print(k, "median %.2f ms" % (1000 * statistics.median(v)), "p90 %.2f ms" % (1000 * statistics.quantiles(v, n=10)[8]))
