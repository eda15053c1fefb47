"""`GET /metrics`: this process's metrics in Prometheus's text format (observe/metrics.py;
docs/deploy.md, "Seeing it: metrics, logs, health").

Not public: the figures say how busy the site is and which errors it sends. Answered to
- a request with `Authorization: Bearer <token>`, the token of `--metrics-token-file`, from
  any address; or
- without a token, a direct request (no `X-Forwarded-For` or `Forwarded` header: it did not
  come through a proxy) from a loopback address or a trusted proxy's own address
  (`--trusted-proxies`, not `*`): Prometheus on the same machine, or on the balancer's.
Anything else gets 403 `metrics_forbidden` (a request through nginx always has
X-Forwarded-For: the site's players never see the metrics, even without the `deny` of the
nginx block)."""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request, Response

from cardtable.server.errors import ApiError
from cardtable.server.guard.connections import TrustedProxies, host_ip
from cardtable.server.observe.metrics import CONTENT_TYPE

router = APIRouter()

#: headers a proxy adds: a request with one came through a proxy, not from its peer itself
PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")


def _loopback(host: str) -> bool:
    ip = host_ip(host)
    return ip is not None and ip.is_loopback


def allowed(request: Request) -> bool:
    """May this request read the metrics? (see the module docstring)"""
    settings = request.app.state.settings
    token = settings.metrics_token
    auth = request.headers.get("authorization", "")
    if token and auth[:7].lower() == "bearer " and hmac.compare_digest(
            auth[7:].strip().encode(), token.encode()):
        return True
    if any(h in request.headers for h in PROXY_HEADERS) or request.client is None:
        return False
    host = request.client.host
    if _loopback(host):
        return True
    trusted = TrustedProxies(settings.trusted_proxies)
    return not trusted.any and host in trusted


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The metrics (Prometheus text format 0.0.4)."""
    if not allowed(request):
        raise ApiError(403, "the metrics are for the operator: from this machine, or with "
                            "the bearer token of --metrics-token-file", "metrics_forbidden")
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE)
