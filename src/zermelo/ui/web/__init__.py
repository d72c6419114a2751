"""The browser front end: ``zermelo serve``.

One Starlette application serves the page (plain HTML, CSS and JavaScript under ``static/``, no
build step) and the JSON API of :mod:`zermelo.ui.web.api`. :func:`create_app` builds it;
:func:`serve` runs it with uvicorn on a loopback address.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import sys
import threading
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from types import FrameType

import anyio
import anyio.to_thread
import h11
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from zermelo.core.errors import ZermeloError
from zermelo.ui.web import learn, review
from zermelo.ui.web.api import Api, Lanes, error_response, load_game
from zermelo.ui.web.messages import best_language
from zermelo.ui.web.openapi import openapi

__all__ = ["STATIC_DIR", "allowed_host_names", "create_app", "serve", "server_config"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_log = logging.getLogger("zermelo.web")

Endpoint = Callable[[Request], Awaitable[Response]]

_SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}
_RAW_SECURITY_HEADERS = [
    (name.lower().encode("latin-1"), value.encode("latin-1"))
    for name, value in _SECURITY_HEADERS.items()
]
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
HEADER_SECONDS = 5.0
"""Longest time a client may take to send a request's headers."""
MAX_HEADER_BYTES = 16 * 1024
"""Largest request head (request line and headers) accepted, in bytes."""
MAX_CONNECTIONS = 1024
"""Open connections the server holds at once, from all clients together."""
PER_CLIENT_CONNECTIONS = 32
"""Open connections one client address may hold at once (a browser opens six)."""
SWITCH_INTERVAL = 0.001
"""Seconds a thread of the server holds the interpreter lock before handing it on."""


def host_name(value: str) -> str:
    """The host of a ``Host`` header without its port, lower case (``[::1]`` keeps brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_host_names(host: str = "127.0.0.1", extra: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` names a server bound to ``host`` answers: the loopback names, ``host``
    itself and ``extra`` (``--allowed-host``)."""
    names = {*LOCAL_HOSTS, host_name(host), *(host_name(name) for name in extra)}
    if ":" in host and not host.startswith("["):
        names.add(f"[{host.lower()}]")
    names.discard("")
    return frozenset(names)


class Guard:
    """ASGI middleware in front of everything: refuse a ``Host`` that is not this server's
    (DNS rebinding), and put the security headers on every answer, static files and errors
    included, with a ``Server-Timing`` header saying how long the server took (``app;dur=`` in
    milliseconds, from the request's arrival to the answer's first byte). No CORS header is ever sent, so browsers keep other sites' pages from reading
    answers, and POSTs need ``application/json``, which a page of another site cannot send
    without asking first."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = time.monotonic()

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() not in _GUARDED_NAMES
                ]
                spent = f"app;dur={(time.monotonic() - started) * 1000:.1f}".encode()
                headers += [*_RAW_SECURITY_HEADERS, (b"server-timing", spent)]
                message = {**message, "headers": headers}
            await send(message)

        host = _header(scope, b"host")
        if host is None or host_name(host) not in self.hosts:
            shown = "none" if host is None else repr(host[:60])
            response = JSONResponse(
                {
                    "error": {
                        "type": "HostError",
                        "message": f"host {shown} is not this server: expected one of "
                        f"{', '.join(sorted(self.hosts))} (zermelo serve --allowed-host NAME)",
                    }
                },
                status_code=400,
            )
            await response(scope, receive, send_guarded)
            return
        try:
            await self.app(scope, receive, send_guarded)
        except ClientDisconnect:
            _log.warning("%s %s: the client went away mid-request", scope["method"], scope["path"])


class StopWhenGone:
    """ASGI middleware that cancels a request's work when its client goes away: once the body
    is read, it waits for the connection to close before the answer is sent, and then cancels
    the endpoint, which stops the search it waits for (see
    :meth:`zermelo.ui.web.lanes.SearchPool.call`). A client that leaves so leaves no search
    running behind it, and many of them cannot fill the search queue for everyone else."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body_read = anyio.Event()
        answered = False

        async def receive_body() -> Message:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_read.set()
            return message

        async def send_answer(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered = True
            await send(message)

        async with anyio.create_task_group() as group:

            async def watch() -> None:
                await body_read.wait()
                while True:
                    # After the body, the server's receive() returns only when the client has
                    # gone or the answer is complete.
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        break
                if not answered:
                    _log.warning(
                        "%s %s: the client left; its work was stopped",
                        scope["method"],
                        scope["path"],
                    )
                    group.cancel_scope.cancel()

            group.start_soon(watch)
            await self.app(scope, receive_body, send_answer)
            group.cancel_scope.cancel()


_GUARDED_NAMES = frozenset(name for name, _ in _RAW_SECURITY_HEADERS) | {
    b"access-control-allow-origin",
    b"access-control-allow-credentials",
}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _guarded(endpoint: Endpoint) -> Endpoint:
    """Turn zermelo's errors into 4xx JSON answers, and anything unexpected into a plain 500."""

    async def run(request: Request) -> Response:
        try:
            return await endpoint(request)
        except ZermeloError as error:
            language = best_language(
                request.query_params.get("lang"), request.headers.get("accept-language")
            )
            return error_response(error, language)
        except ClientDisconnect:
            _log.warning(
                "%s %s: the client went away mid-request", request.method, request.url.path
            )
            return Response(status_code=400)
        except Exception:
            _log.exception("unexpected error in %s", request.url.path)
            return JSONResponse(
                {"error": {"type": "InternalError", "message": "unexpected server error"}},
                status_code=500,
            )

    return run


def _page(name: str) -> Endpoint:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / name, media_type="text/html")

    return page


async def _openapi(request: Request) -> Response:
    return JSONResponse(openapi())


def _load_fast_lane(api: Api) -> None:
    """Import and build what the fast lane answers from (every game, the opening books of the
    games' own web engines), so that no request pays for it."""
    from zermelo.solvers.kernels import preparing
    from zermelo.ui.web.adapters import adapter_for, available_games

    api.games_json()
    for name in available_games():
        preparing(name)  # loads the kernels' modules, which the answer's note reads the cache of
        engine = adapter_for(name).engine
        if engine is not None and engine.book_values is not None:
            engine.book_values(load_game({"game": name}).state)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette, api: Api, warm_up: bool) -> AsyncIterator[None]:
    """Load the fast lane's tables and start the search processes before the first request (a
    request's budget should not pay for them); with ``warm_up`` warm the games' own engines up
    too (the Connect Four solver takes seconds, in the background). Stop every process when the
    server stops."""
    from zermelo.ui.web.adapters import web_engines

    lanes = api.lanes
    engines = web_engines()
    await anyio.to_thread.run_sync(_load_fast_lane, api)
    await anyio.to_thread.run_sync(lanes.search.warm_up)
    if warm_up:
        for engine in engines:
            if engine.warm_up is not None:
                threading.Thread(target=engine.warm_up, name="zermelo-warm-up", daemon=True).start()
    try:
        yield
    finally:
        lanes.search.stop()
        for engine in engines:
            if engine.stop is not None:
                engine.stop()


def create_app(
    *,
    lanes: Lanes | None = None,
    warm_up: bool = False,
    host: str = "127.0.0.1",
    allowed_hosts: Iterable[str] = (),
    games: Sequence[str] = (),
) -> Starlette:
    """The web application: the page at ``/``, the API docs at ``/api``, the API under ``/api/``.

    Requests must name this server in their ``Host`` header: the loopback names, ``host`` or one
    of ``allowed_hosts``. ``warm_up`` starts the search processes and loads the Connect Four
    solver at startup, so that the first moves do not pay for it (``zermelo serve`` does; tests
    do not need to). ``games`` adds games that no list holds to the page's list
    (``openspiel:breakthrough``); they are checked here, so that a bad name stops the server
    before it starts."""
    from zermelo.ui.web.adapters import available_games

    available_games(games)
    lanes = lanes or Lanes()
    api = Api(lanes, games)
    routes: list[BaseRoute] = [
        Route("/", _page("index.html")),
        Route("/api", _page("api.html")),
        Route("/api/openapi.json", _openapi),
        Route("/api/games", _guarded(api.games)),
        Route("/api/messages", _guarded(api.messages)),
        Route("/api/state", _guarded(api.state), methods=["POST"]),
        Route("/api/import", _guarded(api.import_), methods=["POST"]),
        Route("/api/play", _guarded(api.play), methods=["POST"]),
        Route("/api/analyze", _guarded(api.analyze), methods=["POST"]),
        Route("/api/tree", _guarded(api.tree), methods=["POST"]),
        *learn.routes(_guarded, _page, lanes.fast),
        Route("/api/review", _guarded(review.endpoint(api)), methods=["POST"]),  # type: ignore[arg-type]
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lambda app: _lifespan(app, api, warm_up))

    async def not_found(request: Request, exc: Exception) -> Response:
        status, detail = 404, "not found"
        if isinstance(exc, HTTPException):
            status, detail = exc.status_code, exc.detail
        return JSONResponse(
            {"error": {"type": "HTTPError", "message": f"{request.url.path[:200]}: {detail}"}},
            status_code=status,
        )

    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    app.add_middleware(StopWhenGone)
    app.add_middleware(Guard, hosts=allowed_host_names(host, allowed_hosts))
    app.state.lanes = lanes
    return app


class _GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the limits a public-facing server needs:

    * a deadline for each request's headers: a client that trickles them is disconnected after
      :data:`HEADER_SECONDS` (request bodies have theirs in :func:`zermelo.ui.web.api.read_json`);
    * at most :data:`MAX_HEADER_BYTES` of request line and headers, counted on the complete head
      (h11's own limit only counts a head that is still arriving, so a 40 KB head read in one
      piece would pass it): a larger one is a 431;
    * at most :data:`PER_CLIENT_CONNECTIONS` open connections from one address, so that one
      client holding many slow connections cannot take the server's whole
      :data:`MAX_CONNECTIONS` from everyone else: past it a connection is answered 503 and
      closed.
    """

    _header_timer: asyncio.TimerHandle | None = None
    _peer: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()
        peer = self.client[0] if self.client else None
        if peer is None:
            return
        counts = _PEERS.setdefault(self.server_state, collections.Counter())
        if counts[peer] >= PER_CLIENT_CONNECTIONS:
            _log.warning("refused a connection: %s already has %d open", peer, counts[peer])
            self._refuse(
                503,
                "BusyError",
                f"too many connections from {peer}: at most {PER_CLIENT_CONNECTIONS} at once",
            )
            return
        counts[peer] += 1
        self._peer = peer
        next_event = self.conn.next_event

        def checked_next_event() -> h11.Event | type[h11.NEED_DATA] | type[h11.PAUSED]:
            try:
                event = next_event()
            except h11.RemoteProtocolError as error:
                if error.error_status_hint != 431:  # h11's limit, for a head still arriving
                    raise
                event = None
            if event is None or (
                isinstance(event, h11.Request) and _head_size(event) > MAX_HEADER_BYTES
            ):
                self._refuse(
                    431,
                    "HeaderError",
                    f"request headers are larger than {MAX_HEADER_BYTES} bytes",
                )
                return h11.PAUSED
            return event

        self.conn.next_event = checked_next_event  # type: ignore[method-assign]

    def _refuse(self, status: int, kind: str, message: str) -> None:
        """Answer ``status`` with one JSON error line and close the connection."""
        self._cancel_header_timer()
        body = json.dumps({"error": {"type": kind, "message": message}}).encode()
        reason = {431: b"Request Header Fields Too Large", 503: b"Service Unavailable"}[status]
        head = [
            b"HTTP/1.1 %d %s" % (status, reason),
            b"content-type: application/json",
            b"content-length: %d" % len(body),
            b"connection: close",
            *(b"%s: %s" % pair for pair in _RAW_SECURITY_HEADERS),
        ]
        if status == 503:
            head.append(b"retry-after: 1")
        if not self.transport.is_closing():
            self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
            self.transport.close()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        # Every state past IDLE means the head has arrived: SEND_BODY, DONE, or MUST_CLOSE for a
        # request that said ``Connection: close`` (as Python's urllib always does).
        if self.conn.their_state is not h11.IDLE:
            self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        if self._peer is not None:
            counts = _PEERS.get(self.server_state)
            if counts is not None:
                counts[self._peer] -= 1
                if counts[self._peer] <= 0:
                    del counts[self._peer]
            self._peer = None
        super().connection_lost(exc)


_PEERS: weakref.WeakKeyDictionary[ServerState, collections.Counter[str]] = (
    weakref.WeakKeyDictionary()
)
"""Open connections per client address, for each running server."""


def _head_size(event: h11.Request) -> int:
    """The bytes of a request's head as a client writes it: the request line and each header as
    ``name: value``, each line ending in CRLF, and the blank line."""
    line = len(event.method) + len(event.target) + len(b"HTTP/") + len(event.http_version) + 4
    fields = sum(len(name) + len(value) + 4 for name, value in event.headers.raw_items())
    return line + fields + 2


class _Server(uvicorn.Server):
    """Stops the search processes as soon as the signal to stop arrives, so that no request
    waits for a search and the server is gone within a second or two."""

    def __init__(self, config: uvicorn.Config, lanes: Lanes) -> None:
        super().__init__(config)
        self.lanes = lanes

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        from zermelo.ui.web.adapters import web_engines

        self.lanes.search.kill_now()
        for engine in web_engines():
            if engine.kill_now is not None:
                engine.kill_now()
        super().handle_exit(sig, frame)


def server_config(
    app: Starlette, host: str, port: int, *, log_level: str = "warning"
) -> uvicorn.Config:
    """uvicorn's settings for zermelo: the guarded protocol, small header limits, short
    keep-alive and a one-second graceful stop."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=_GuardedH11,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=1,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        limit_concurrency=MAX_CONNECTIONS,
        server_header=False,
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    allowed_hosts: Iterable[str] = (),
    log_level: str = "warning",
    games: Sequence[str] = (),
) -> None:
    """Run the application with uvicorn until interrupted; ``games`` as in :func:`create_app`."""
    # The lanes' threads and the event loop share one interpreter lock; handing it over every
    # millisecond (Python's default is 5) keeps a request on its clock from waiting long behind
    # a thread that is drawing or checking other requests.
    sys.setswitchinterval(SWITCH_INTERVAL)
    lanes = Lanes()
    app = create_app(lanes=lanes, warm_up=True, host=host, allowed_hosts=allowed_hosts, games=games)
    _Server(server_config(app, host, port, log_level=log_level), lanes).run()
