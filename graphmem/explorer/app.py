"""The explorer's web app: Starlette routes over a store, served by uvicorn on a thread.

Everything the page loads comes from this server: its own page and script, the scripts and
stylesheet it shares with the pictures (:mod:`graphmem.pages`), and vis-network from the files
the installed pyvis ships. A Content-Security-Policy header forbids anything else (no CDN, no
inline code). Only GET is routed: the explorer never writes.

A request is answered only when it is addressed to this explorer (its ``Host`` is one of the
explorer's own names), comes from no other site (an ``Origin``, when sent, is the explorer's
own) and carries the explorer's token (see :class:`Guard`). Each answer has a deadline, work a
client abandoned is dropped, and answers that grow with the store take turns so that cheap ones
are not queued behind them (see :class:`Budget`).

Internal: see :mod:`graphmem.explorer`.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
import math
import os
import secrets
import socket
import tempfile
import threading
import time
import webbrowser
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qsl

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import GraphmemError
from ..pages import shared_asset_path, vis_network_dir
from ..pages.palette import palette_css
from .api import Handler, ReadStore, answer, handlers

__all__ = ["DEFAULT_TIMEOUT", "Explorer", "start"]

HERE = Path(__file__).parent
POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
    "img-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
])
HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
#: Seconds an API request may take, its wait for a turn included, unless the explorer is told otherwise.
DEFAULT_TIMEOUT = 15.0
#: Endpoints whose work grows with the store (the hops of a graph, a diff, a search), each in its
#: lane: in a lane one runs at a time and the others wait for their turn, so the cheap endpoints
#: are never queued behind them, and a search never behind a queue of graphs.
LANES = {"/api/graph": "graph", "/api/changes": "changes", "/api/search": "search"}
#: How often a waiting request looks whether its client has left (seconds).
POLL = 0.05
#: The pause between two expensive answers (seconds), in which other readers and writers go first.
GAP = 0.05
#: Paths served without the token: files that hold nothing from the store.
PUBLIC = ("/static/", "/favicon.ico")


def static_files() -> dict[str, Path]:
    """Every file the page may load, by the name it is served under (nothing else is)."""
    vis = vis_network_dir()
    return {
        "explorer.js": HERE / "static" / "explorer.js",
        "search.js": HERE / "static" / "search.js",
        "explorer.css": HERE / "static" / "explorer.css",
        "common.js": shared_asset_path("common.js"),
        "graph.js": shared_asset_path("graph.js"),
        "timeline.js": shared_asset_path("timeline.js"),
        "style.css": shared_asset_path("style.css"),
        "vis-network.min.js": vis / "vis-network.min.js",
        "vis-network.css": vis / "vis-network.css",
    }


def _json(status: int, body: object) -> Response:
    return Response(json.dumps(body, ensure_ascii=False), status_code=status,
                    media_type="application/json", headers=HEADERS)


class Interruptible(Protocol):
    """What the explorer asks of the store's engine: hold it for one answer, interrupt its query."""

    @property
    def lock(self) -> AbstractContextManager[Any]: ...

    def interrupt(self) -> None: ...


class Work:
    """One answer, computed on a worker thread. It holds the engine for the whole answer (one
    consistent read), so whatever query runs meanwhile is its own and may be interrupted when
    the request is given up; given up before it starts, it never starts."""

    def __init__(self, engine: Interruptible | None, started: Callable[[], None]):
        self.engine, self._started = engine, started
        self.dropped = threading.Event()
        self.submitted = False  # handed to a worker thread (set and read on the event loop)
        self._state = threading.Lock()
        self._running = False

    def run(self, handler: Handler, store: ReadStore, params: dict[str, list[str]]) -> tuple[int, object]:
        with self.engine.lock if self.engine is not None else nullcontext():
            with self._state:
                if self.dropped.is_set():
                    return 503, {"error": "dropped"}
                self._running = True
            self._started()
            try:
                return answer(handler, store, params)
            finally:
                with self._state:
                    self._running = False

    def drop(self) -> None:
        """Give the answer up: it does not start, or the query it runs stops."""
        self.dropped.set()
        with self._state:
            if self._running and self.engine is not None:
                self.engine.interrupt()


class Budget:
    """Each API request's budget: a deadline (its wait for a turn included), its work dropped
    when its client leaves, and one expensive answer at a time in each lane (see LANES)."""

    def __init__(self, store: ReadStore, engine: Interruptible | None, timeout: float):
        self.store, self.engine, self.timeout = store, engine, timeout
        self._turns: dict[str, asyncio.Semaphore] = {}
        self._stopping: set[asyncio.Future] = set()
        self.requests = 0  # API requests admitted and not finished
        self.expensive = 0  # expensive ones among them (one computing, the others waiting)
        self.started = 0  # answers that began computing
        self.dropped = 0  # requests given up (deadline passed, or the client left)

    def _count_start(self) -> None:
        self.started += 1

    async def answer(self, request: Request, handler: Handler, params: dict[str, list[str]],
                     lane: str | None) -> tuple[int, object]:
        work = Work(self.engine, self._count_start)
        task = asyncio.ensure_future(self._compute(work, handler, params, lane))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while (left := deadline - loop.time()) > 0:
            done, _ = await asyncio.wait({task}, timeout=min(left, POLL))
            if done:
                return task.result()
            if await request.is_disconnected():
                break
        self.dropped += 1
        work.drop()  # now, before the answer goes out: whatever happens next, it does not start
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # nobody reads it now
        if work.submitted:
            stopping = asyncio.ensure_future(self._stop(work, task))
            self._stopping.add(stopping)  # the loop keeps only a weak reference to a task
            stopping.add_done_callback(self._stopping.discard)
        else:  # still waiting for its turn: it leaves the queue
            task.cancel()
        return 503, {"error": f"the explorer gave up on this request after {self.timeout:g} s; ask for "
                              "less (a smaller depth or limit, a shorter time span) or start the explorer "
                              "with a longer --timeout"}

    async def _compute(self, work: Work, handler: Handler, params: dict[str, list[str]],
                       lane: str | None) -> tuple[int, object]:
        self.requests += 1
        try:
            if lane is None:
                work.submitted = True
                return await run_in_threadpool(work.run, handler, self.store, params)
            turn = self._turns.setdefault(lane, asyncio.Semaphore(1))
            self.expensive += 1
            try:
                async with turn:  # released only when the worker thread is done
                    work.submitted = True
                    try:
                        return await run_in_threadpool(work.run, handler, self.store, params)
                    finally:  # a pause before the next: a writer taking the store a few times in a
                        await asyncio.sleep(GAP)  # row (an MCP add) gets it first, not after the next
            finally:
                self.expensive -= 1
        finally:
            self.requests -= 1

    @staticmethod
    async def _stop(work: Work, task: asyncio.Future) -> None:
        """Interrupt the work's queries until it ends (a query it starts later is stopped too)."""
        while not task.done():
            work.drop()
            await asyncio.sleep(POLL / 2)


def _hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values this explorer answers: its own address and the loopback names."""
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    names = {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}
    return frozenset({f"{n}:{port}" for n in names} | (names if port == 80 else set()))


class Guard:
    """Let through only requests for this explorer, from its own page, that carry its token.

    - ``Host`` must be one of the explorer's own names (a web page reaching loopback through
      DNS rebinding sends its own domain);
    - an ``Origin``, when the browser sends one, must be the explorer's own;
    - the token (random for each launch) comes in the address opened or printed (``/?token=…``: the
      page keeps it in its own origin's storage, which no other port can read, takes it out of the
      address and sends it with each request), as a ``token`` query parameter, or as
      ``Authorization: Bearer …``; never as a cookie, which a browser sends to every port of the host.
      The page and the files that hold nothing from the store (the scripts, the stylesheets) need no
      token.

    Anything else is a 403 with one JSON line and no data. No CORS header is ever sent.
    """

    def __init__(self, app: ASGIApp, host: str, port: int, token: str | None):
        self.app, self.token = app, token
        self.hosts = _hosts(host, port)
        self.origins = frozenset(f"http://{h}" for h in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if headers.get("host", "").strip().lower() not in self.hosts:
            return await _refuse(send, "this explorer answers only requests addressed to it (Host "
                                       + ", ".join(sorted(self.hosts)) + ")")
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower() not in self.origins:
            return await _refuse(send, "this explorer answers only its own page, not another site")
        if self.token is None or scope["path"].startswith(PUBLIC):
            return await self.app(scope, receive, send)
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == "token"]
        if given:
            if len(given) != 1 or not self._matches(given[0]):
                return await _refuse(send, "wrong token; open the address the explorer printed")
            return await self.app(scope, receive, send)  # the page keeps it in its own storage (not a cookie)
        if scope["path"] == "/":
            return await self.app(scope, receive, send)  # the page holds nothing of the store; its scripts send the
            # token they were opened with as a header (a cookie went to every port of 127.0.0.1: an attacker's)
        bearer = headers.get("authorization", "")
        bearer = bearer[7:].strip() if bearer[:7].lower() == "bearer " else ""
        if bearer and self._matches(bearer):
            return await self.app(scope, receive, send)
        await _refuse(send, "this explorer needs its token: open the address it printed "
                            "(http://.../?token=...); see docs/explorer.md")

    def _matches(self, given: str) -> bool:
        assert self.token is not None
        return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), self.token.encode())


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    common = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
    await send({"type": "http.response.start", "status": status,
                "headers": common + headers + [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _refuse(send: Send, message: str) -> None:
    await _send(send, 403, json.dumps({"error": message}).encode(), [(b"content-type", b"application/json")])


def build_app(store: ReadStore, *, host: str = "127.0.0.1", port: int = 8765, token: str | None = None,
              engine: Interruptible | None = None, timeout: float = DEFAULT_TIMEOUT) -> tuple[Guard, Budget]:
    """The explorer for ``store``: the page, its files and the JSON API (GET only), behind its
    guard; and the budget its API requests run under."""
    files = static_files()
    endpoints = handlers()
    budget = Budget(store, engine, timeout)

    async def page(request: Request) -> Response:
        return FileResponse(HERE / "static" / "explorer.html", headers=HEADERS)

    palette = palette_css([])

    async def static(request: Request) -> Response:
        if request.path_params["name"] == "palette.css":  # the status colours, from the pages' palette
            return Response(palette, media_type="text/css", headers=HEADERS)
        path = files.get(request.path_params["name"])
        if path is None:
            return _json(404, {"error": f"no file {request.path_params['name']!r}"})
        return FileResponse(path, headers=HEADERS)

    def api(path: str, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            params: dict[str, list[str]] = {}
            for key, value in request.query_params.multi_items():
                if key != "token":  # the guard's, checked there
                    params.setdefault(key, []).append(value)
            status, body = await budget.answer(request, handler, params, LANES.get(path))
            return _json(status, body)
        return endpoint

    async def missing(request: Request) -> Response:
        return _json(404, {"error": f"no endpoint {request.url.path}; see docs/explorer.md"})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204, headers=HEADERS)

    routes = [Route("/", page), Route("/favicon.ico", no_icon), Route("/static/{name}", static)]
    routes += [Route(path, api(path, handler)) for path, handler in endpoints.items()]
    routes.append(Route("/api/{rest:path}", missing))
    return Guard(Starlette(routes=routes), host, port, token), budget


class Explorer:
    """A running explorer: its address (``url`` carries the token), and a way to stop it (or
    wait for Ctrl-C)."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, host: str, port: int,
                 token: str | None, budget: Budget):
        self._server, self._thread, self._budget = server, thread, budget
        self.host, self.port, self.token = host, port, token
        shown = f"[{host}]" if ":" in host else host
        self.address = f"http://{shown}:{port}/"
        self.url = self.address + (f"?token={token}" if token else "")
        self._opener: Path | None = None

    @property
    def pending(self) -> int:
        """Expensive API requests admitted and not finished (one computing, the rest waiting)."""
        return self._budget.expensive

    @property
    def requests(self) -> int:
        """API requests admitted and not finished, expensive or not."""
        return self._budget.requests

    @property
    def started(self) -> int:
        """API answers that began computing since the explorer started."""
        return self._budget.started

    @property
    def dropped(self) -> int:
        """API requests given up (their deadline passed, or their client left)."""
        return self._budget.dropped

    def open_browser(self) -> None:
        """Open the explorer in a browser, through a file only this user can read: the token
        is never on a command line that another user can list."""
        if self.token is None:
            webbrowser.open(self.url)
            return
        handle, name = tempfile.mkstemp(prefix="graphmem-explorer-", suffix=".html")  # mode 0600
        with os.fdopen(handle, "w", encoding="utf-8") as page:
            link = html.escape(self.url)
            page.write(f'<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={link}">'
                       f'<title>graphmem explorer</title><p><a href="{link}">Open the graphmem explorer</a>\n')
        self._opener = Path(name)
        webbrowser.open(self._opener.as_uri())

    def stop(self) -> None:
        """Stop serving and wait for the server's thread to finish."""
        self._server.should_exit = True
        self._thread.join(10)
        if self._opener is not None:
            self._opener.unlink(missing_ok=True)

    def wait(self) -> None:
        """Serve until interrupted (Ctrl-C), then stop."""
        try:
            while self._thread.is_alive():
                self._thread.join(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def __enter__(self) -> Explorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"Explorer({self.address!r})"  # never the token


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket, or one clear error (a port in use, a host that is not here)."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise GraphmemError(f"port must be a number from 0 to 65535, not {port!r}")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # proto named: asyncio sets TCP_NODELAY only on sockets that say IPPROTO_TCP, and without
        # it a response's body waits ~40 ms behind its headers on a kept-alive connection
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as exc:
        raise GraphmemError(f"cannot serve the explorer on {host}:{port}: {exc.strerror or exc}; "
                            "choose another port (or host)") from None
    sock.set_inheritable(True)
    return sock


def start(store: ReadStore, *, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True,
          token: bool = True, timeout: float = DEFAULT_TIMEOUT, engine: Interruptible | None = None) -> Explorer:
    """Serve the explorer for ``store`` on a background thread; return once it answers.

    ``token``: require a random token made for this launch (in ``.url``); ``timeout``: seconds an
    API request may take; ``engine``: the store's engine, held for each answer and interrupted
    when a request is given up."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < math.inf:
        raise GraphmemError(f"the explorer's timeout is a number of seconds above 0, not {timeout!r}")
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    secret = secrets.token_urlsafe(32) if token else None
    app, budget = build_app(store, host=host, port=port, token=secret, engine=engine, timeout=float(timeout))
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2)  # (no limit_concurrency: uvicorn counts idle
    # connections, so 64 sockets sending nothing shut the page out for good: a reviewer's)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="graphmem-explorer", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise GraphmemError(f"the explorer did not start on {host}:{port}")
        time.sleep(0.02)
    explorer = Explorer(server, thread, host, port, secret, budget)
    if open_browser:
        explorer.open_browser()
    return explorer
