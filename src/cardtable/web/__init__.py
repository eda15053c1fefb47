"""The browser client: plain ES modules and CSS in `static/`, served by `cardtable serve`
(no build step). `mount(app)` adds the pages and the static files to the server's FastAPI app:

    /                 the lobby               /t/{code}         a table (player or spectator)
    /replay/{code}    the replay viewer        /rules/{game}     the rules page of a game
    /players/{name}   a player's profile       /leaderboard/{game} a game's leaderboard
    /reset            a new password (the link of a reset e-mail, its token after #token=)
    /verify-email     an e-mail address confirmed (the link of the message, #token=)
    /mod              the moderators' queue of reports (players are told it is not theirs)
    /static/...       modules, styles, images
    /games/{game}/... the browser files of a game of its own package (GameInfo.web)
    /i18n/{lang}.json the message catalog (en, de; cardtable.i18n), shared with the terminal

(The HTTP API the pages call, /api/..., replays too, is the server's: cardtable.server.)

Every page is the same `static/index.html`; `static/js/app.js` routes on the path. A page
address that does not exist (not under /api, /ws or /static) gets that page too, with status
404: the browser shows "page not found" in the site's own frame, not a JSON error.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable import i18n
from cardtable.core import registry
from cardtable.i18n import LANGS

STATIC = Path(__file__).parent / "static"
CATALOGS = Path(i18n.__file__).parent          # en.json, de.json
PAGES = ("/", "/t/{code}", "/replay/{code}", "/rules/{game}", "/players/{name}",
         "/leaderboard/{game}", "/reset", "/verify-email", "/mod")


class _Static(StaticFiles):
    """Static files that browsers revalidate (ETag) on every load, so that an upgraded server
    never runs with yesterday's modules."""

    def file_response(self, *args, **kwargs):
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def mount(app: FastAPI) -> None:
    app.mount("/static", _Static(directory=STATIC), name="static")
    for g in registry.games():          # a game of its own package: its browser files
        if g.web:
            app.mount(f"/games/{g.name}", _Static(directory=str(resources.files(g.web))),
                      name=f"game-{g.name}")

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalog(lang: str) -> Response:
        """The message catalog of `lang` (cardtable.i18n), the browser's texts, with the words
        every registered game brings (GameInfo.catalog, `game.<name>`)."""
        if lang not in LANGS:
            raise StarletteHTTPException(404)
        registry.games()                    # every game's words joined (core/registry.py)
        return Response(json.dumps(i18n.catalog(lang), ensure_ascii=False),
                        media_type="application/json", headers={"Cache-Control": "no-cache"})

    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @app.exception_handler(StarletteHTTPException)
    async def not_found_page(request: Request, exc: StarletteHTTPException):
        path = request.url.path
        if (exc.status_code == 404 and request.method in ("GET", "HEAD")
                and not path.startswith(("/api/", "/ws/", "/static/", "/i18n/", "/games/"))):
            return FileResponse(STATIC / "index.html", status_code=404,
                                headers={"Cache-Control": "no-cache"})
        return await http_exception_handler(request, exc)
