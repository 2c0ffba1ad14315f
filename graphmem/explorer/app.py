"""The explorer's web app: Starlette routes over a store, served by uvicorn on a thread.

Everything the page loads comes from this server: its own page and script, the scripts and
stylesheet it shares with the pictures (:mod:`graphmem.pages`), and vis-network from the files
the installed pyvis ships. A Content-Security-Policy header forbids anything else (no CDN, no
inline code). Only GET is routed: the explorer never writes.

Internal: see :mod:`graphmem.explorer`.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import webbrowser
from collections.abc import Awaitable, Callable
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ..errors import GraphmemError
from ..pages import shared_asset_path, vis_network_dir
from ..pages.palette import palette_css
from .api import Handler, ReadStore, answer, handlers

__all__ = ["Explorer", "start"]

HERE = Path(__file__).parent
POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
    "img-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
])
HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


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


def build_app(store: ReadStore) -> Starlette:
    """The explorer for ``store``: the page, its files and the JSON API (GET only)."""
    files = static_files()
    endpoints = handlers()

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

    def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            params: dict[str, list[str]] = {}
            for key, value in request.query_params.multi_items():
                params.setdefault(key, []).append(value)
            status, body = await run_in_threadpool(answer, handler, store, params)
            return _json(status, body)
        return endpoint

    async def missing(request: Request) -> Response:
        return _json(404, {"error": f"no endpoint {request.url.path}; see docs/explorer.md"})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204, headers=HEADERS)

    routes = [Route("/", page), Route("/favicon.ico", no_icon), Route("/static/{name}", static)]
    routes += [Route(path, api(handler)) for path, handler in endpoints.items()]
    routes.append(Route("/api/{rest:path}", missing))
    return Starlette(routes=routes)


class Explorer:
    """A running explorer: its address, and a way to stop it (or wait for Ctrl-C)."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, host: str, port: int):
        self._server, self._thread = server, thread
        self.host, self.port = host, port
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{port}/"

    def stop(self) -> None:
        """Stop serving and wait for the server's thread to finish."""
        self._server.should_exit = True
        self._thread.join(10)

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
        return f"Explorer({self.url!r})"


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
                            "choose another --port (or --host)") from None
    sock.set_inheritable(True)
    return sock


def start(store: ReadStore, *, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True) -> Explorer:
    """Serve the explorer for ``store`` on a background thread; return once it answers."""
    sock = _listen(host, port)
    config = uvicorn.Config(build_app(store), log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2)
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
    explorer = Explorer(server, thread, host, sock.getsockname()[1])
    if open_browser:
        webbrowser.open(explorer.url)
    return explorer
