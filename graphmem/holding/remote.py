"""A store another process holds, used as if it were open here.

``Store(path)`` returns a :class:`RemoteStore` when a holder serves ``path`` (and this process
does not have it open itself). Every public Store method is sent to the holder and answers with
what the holder's store returned or raised: the same types (a snapshot is a networkx graph, a
search a list of hits), the same errors. Paths given to it (export, backup, import) are made
absolute here first, so they are the caller's paths, not the holder's; callbacks (progress)
stay here and are not called. :meth:`explore` serves the explorer from this process, reading
through the holder. When the holder goes while a call waits for its answer (killed, or
stopped), that call raises one :class:`EngineError`; the next call reaches the next holder, or,
when none serves the store, opens it here (and holds it, as the Store asked).

Internal: :class:`graphmem.Store` returns one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import EngineError, StoreLocked
from . import wire
from .holder import NotRun, callable_by_clients, held_here

__all__ = ["PATHS", "RemoteStore", "client_for"]

#: The Store methods whose first argument is a path, by that argument's name.
PATHS = {"export": "path", "import_log": "path", "backup": "dest", "restore": "src"}


def client_for(directory: Path, engine: str | None) -> RemoteStore | None:
    """A client of the holder serving ``directory``, or None when no holder does (or this process
    holds it: it shares its own open store)."""
    if held_here(directory) is not None or _open_here(directory):
        return None
    sock = wire.connect(wire.socket_path(directory))
    if sock is None:
        return None
    from .. import __version__

    try:
        status, info = wire.hello(sock, __version__)
    except wire.Silent as exc:
        sock.close()
        raise StoreLocked(f"the process holding store {directory} {exc}") from None
    except (wire.HolderGone, OSError):
        sock.close()
        return None  # it stopped as we arrived: open the store ourselves
    if status != "ok":
        sock.close()
        raise StoreLocked(info)
    if engine is not None and engine != info["engine"]:
        sock.close()
        raise EngineError(f"store {directory} is held by process {info['pid']} with {info['engine']}, "
                          f"not {engine}; omit the engine or use {info['engine']}")
    return RemoteStore(directory, sock, info)


def _open_here(directory: Path) -> bool:
    from ..engine import is_open_here

    return is_open_here(directory)


class RemoteStore:
    """A client of the process holding a store (see the module's docstring)."""

    def __init__(self, directory: Path, sock: Any, info: dict[str, Any]):
        from ..core.times import zone

        self.path = directory
        self.holder = info  # who holds: pid, kind, since, version, engine, timezone, socket
        self.tz_name = info["timezone"]
        self.tz = zone(self.tz_name)
        self.allow_future = False
        self.embedder = None
        self._sock = sock
        self._lock = threading.RLock()  # one call at a time on the socket, its reopening included
        self._closed = False
        self._local: Any = None  # the store opened here once the holder has gone (see _call)
        #: Opens the store as the Store call that made this client asked (another client, or the store itself).
        self.open_again: Callable[[], Any] | None = None
        self.kind = "python"  # what this process would hold it as

    @property
    def engine(self) -> str:
        """The holder's engine: 'kuzu' or 'ladybug'."""
        return str(self.holder["engine"])

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or name not in self.holder.get("methods", ()):
            raise AttributeError(name)
        return lambda *args, **kwargs: self._call(name, args, kwargs)

    def _call(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._closed:
            raise EngineError("this store is closed")
        named = PATHS.get(method)
        args = tuple(_here(a) if i == 0 and named else a for i, a in enumerate(args) if not callable(a))
        kwargs = {k: _here(v) if k == named else v for k, v in kwargs.items() if not callable(v)}
        sent = ("call", method, list(args), kwargs)
        with self._lock:
            for attempt in (1, 2):
                if self._sock is not None and wire.closed_by_peer(self._sock):
                    self._drop()  # the holder went between calls, nothing asked of it: this call goes to the next
                if self._sock is None and self._local is None:
                    self._reopen()
                if self._local is not None:
                    return getattr(self._local, method)(*args, **kwargs)
                try:
                    status, value = wire.ask(self._sock, sent)
                except (wire.HolderGone, OSError):
                    self._drop()
                    raise EngineError(
                        f"the process holding store {self.path} (process {self.holder['pid']}) stopped before "
                        f"answering {method}; whether it was done is unknown: look, then try again "
                        "(the next call reaches a new holder, or opens the store here)") from None
                except BaseException:
                    self._drop()  # interrupted between asking and the answer: a later call must not read this one's
                    raise
                if status == "error" and isinstance(value, NotRun) and attempt == 1:
                    self._drop()  # the holder was stopping and did not make the call: make it with the next
                    continue
                if status == "error":
                    raise value
                return value
        raise AssertionError("unreachable")  # pragma: no cover

    def _drop(self) -> None:
        """Leave the connection to a holder that has gone (or that this process stopped listening to)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _reopen(self) -> None:
        """After the holder has gone: a client of the next holder, or the store opened here
        (and held, as a Store is) when there is none."""
        with self._lock:
            if self._sock is not None or self._local is not None:
                return
            if self.open_again is None:
                raise EngineError(f"the process holding store {self.path} has gone; open the store again")
            store = self.open_again()
            if isinstance(store, RemoteStore):
                self._sock, self.holder = store._sock, store.holder
                store._sock = None
            else:
                self._local = store
                self.holder = {**self.holder, "pid": os.getpid(), "kind": self.kind,
                               "methods": sorted(callable_by_clients(store))}

    def explore(self, port: int = 8765, host: str = "127.0.0.1", open_browser: bool = True, *,
                token: bool = True, timeout: float = 15.0) -> Any:
        """Serve the explorer from this process, reading through the holder."""
        from ..explorer import start

        return start(self, host=host, port=port, open_browser=open_browser, token=token, timeout=timeout)

    def close(self) -> None:
        """Leave the holder (the store stays open there)."""
        self._closed = True
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._local is not None:
            self._local.close()
            self._local = None

    def __enter__(self) -> RemoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<graphmem store {self.path} held by process {self.holder['pid']} ({self.holder['kind']})>"


def _here(value: Any) -> Any:
    """A path made absolute in this process's directory (the caller's, not the holder's)."""
    if isinstance(value, (str, Path)):
        return Path(os.path.abspath(value))
    return value
