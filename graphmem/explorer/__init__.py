"""The explorer: a local, read-only web app over a store (a front end, like the CLI and MCP).

It takes the store as an argument and calls only its public methods; Starlette and uvicorn
are imported only when an explorer starts, so other commands never pay for them.

Internal: start it with ``graphmem explore`` or ``Store.explore``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.extras import needs_extra

if TYPE_CHECKING:
    from .api import ReadStore
    from .app import Explorer, Interruptible

__all__ = ["start"]

def start(store: ReadStore, *, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True,
          token: bool = True, timeout: float = 15.0, engine: Interruptible | None = None) -> Explorer:
    """Serve the explorer for ``store`` on a background thread and return its handle
    (``.url`` with its token, ``.stop()``, ``.wait()``); changes made to the store meanwhile
    show on refresh."""
    with needs_extra("explore", "the explorer"):
        from .app import start as start_app
    return start_app(store, host=host, port=port, open_browser=open_browser, token=token, timeout=timeout,
                     engine=engine)
