"""The interactive API docs (Swagger UI at /docs, ReDoc at /redoc): off unless the operator
asks for them (`--api-docs`, Settings.api_docs).

Both load their scripts and styles from a CDN (jsDelivr) and start with inline code, so their
pages need a Content-Security-Policy that allows both; on the origin where the players' seat
tokens live (localStorage), a script from a third party could read every token. That is fine
on a developer's own server, not on a public one: by default neither page exists (`404`), and
no response of the server allows inline code or another origin's scripts. The OpenAPI
description itself (`/openapi.json`) is always served: any OpenAPI viewer can read it.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse

#: the policy of the two docs pages only (every other response keeps security.CSP)
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
            "worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'")


def add_api_docs(app: FastAPI) -> None:
    """Serve /docs and /redoc (FastAPI's pages) with their own policy (`DOCS_CSP`)."""
    title = f"{app.title} API"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url=app.openapi_url, title=title)
        page.headers["content-security-policy"] = DOCS_CSP
        return page

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        page = get_redoc_html(openapi_url=app.openapi_url, title=title)
        page.headers["content-security-policy"] = DOCS_CSP
        return page
