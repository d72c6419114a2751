"""The browser front end: ``zermelo serve``.

One Starlette application serves the page (plain HTML, CSS and JavaScript under ``static/``, no
build step) and the JSON API of :mod:`zermelo.ui.web.api`. :func:`create_app` builds it;
:func:`serve` runs it with uvicorn on a loopback address.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from zermelo.core.errors import ZermeloError
from zermelo.ui.web.api import Api, SearchGate, error_response
from zermelo.ui.web.openapi import openapi

__all__ = ["STATIC_DIR", "create_app", "serve"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_log = logging.getLogger("zermelo.web")

Endpoint = Callable[[Request], Awaitable[Response]]

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}


def _guarded(endpoint: Endpoint) -> Endpoint:
    """Turn zermelo's errors into 4xx JSON answers, and anything unexpected into a plain 500."""

    async def run(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ZermeloError as error:
            return error_response(error)
        except Exception:
            _log.exception("unexpected error in %s", request.url.path)
            return JSONResponse(
                {"error": {"type": "InternalError", "message": "unexpected server error"}},
                status_code=500,
            )

    return run


def _page(name: str) -> Endpoint:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / name, media_type="text/html", headers=_SECURITY_HEADERS)

    return page


async def _openapi(request: Request) -> Response:
    return JSONResponse(openapi())


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette, warm_up: bool) -> AsyncIterator[None]:
    """Start the solver's worker early when asked (its compiled code takes seconds to load), and
    stop it when the server stops."""
    from zermelo.ui.web.adapters import available_games
    from zermelo.ui.web.solvers import connect4_worker, warm_up_connect4

    if warm_up and "connect4" in available_games():
        threading.Thread(target=warm_up_connect4, name="zermelo-warm-up", daemon=True).start()
    try:
        yield
    finally:
        connect4_worker().stop()


def create_app(
    *, gate: SearchGate | None = None, warm_up: bool = False, games: Sequence[str] = ()
) -> Starlette:
    """The web application: the page at ``/``, the API docs at ``/api``, the API under ``/api/``.

    ``warm_up`` loads the Connect Four solver in its worker process at startup, so that the first
    hard move does not pay for it (``zermelo serve`` does; tests do not need to). ``games`` adds
    games without a board of their own to the page's list (``openspiel:breakthrough``); they are
    checked here, so that a bad name stops the server before it starts."""
    from zermelo.ui.web.adapters import available_games

    available_games(games)
    api = Api(gate, games)
    routes: list[Any] = [
        Route("/", _page("index.html")),
        Route("/api", _page("api.html")),
        Route("/api/openapi.json", _openapi),
        Route("/api/games", _guarded(api.games)),
        Route("/api/messages", _guarded(api.messages)),
        Route("/api/state", _guarded(api.state), methods=["POST"]),
        Route("/api/play", _guarded(api.play), methods=["POST"]),
        Route("/api/analyze", _guarded(api.analyze), methods=["POST"]),
        Route("/api/tree", _guarded(api.tree), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lambda app: _lifespan(app, warm_up))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        return JSONResponse(
            {"error": {"type": "HTTPError", "message": f"{request.url.path}: {detail}"}},
            status_code=status,
        )

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log_level: str = "warning",
    games: Sequence[str] = (),
) -> None:
    """Run the application with uvicorn until interrupted; ``games`` as in :func:`create_app`."""
    import uvicorn

    app = create_app(warm_up=True, games=games)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
