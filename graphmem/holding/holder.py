"""The holder: a process that has a store open serves it to the others on the store's socket.

Each connection is served on a thread of its own, one request after another:

- ``("hello", PROTOCOL, version)``: the client's protocol and graphmem version; a holder of
  another refuses. The answer says who holds: process id, kind (serve, mcp, explore, python),
  since when, graphmem's version, the engine and the store's zone.
- ``("call", method, args, kwargs)``: a public :class:`graphmem.Store` method, called on the held
  store; the answer is its value, or the exception it raised, as the caller would have had them.
- ``("cli", argv, cwd, env, ttys)``: a command line, run here as if typed in the client's
  directory with its terminal (:func:`graphmem.cli.forwarded`); the answer is what it printed and
  its exit status. Command lines run one at a time; one still waiting its turn when the holder stops is
  answered that it was not run. Its connection is watched meanwhile: once the client has gone (Ctrl-C,
  SIGTERM), one still waiting is not run, and one running stops where a Ctrl-C would stop it safely (an
  ingest after the transaction it writes: :mod:`graphmem.core.stopping`); others run to their end.
- ``("status",)``: who holds, and how many clients are connected.

Writes from every client go through the one store, so the engine serialises them and
transaction time keeps moving forward. The socket file is removed when the holder stops; one a
killed holder left is found stale and replaced by the next process (:mod:`.wire`).

Internal: :class:`graphmem.Store` starts one for a store it holds.
"""

from __future__ import annotations

import errno
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core.stopping import stopped_when
from . import wire

__all__ = ["LOCAL", "Holder", "callable_by_clients", "held_here"]

#: What accept() raises while the process is out of descriptors or memory for a while: served again after a pause.
_BUSY = frozenset((errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))
#: Store methods that run in the client, never in the holder.
LOCAL = frozenset({"close", "explore"})
#: How often (ms) a command line's connection is looked at for its client's going, while the command runs.
WATCH = 100
_held: dict[str, Holder] = {}
_held_lock = threading.Lock()


def callable_by_clients(store: object) -> frozenset[str]:
    """The public methods of a store a client may have the holder call."""
    return frozenset(name for name in dir(type(store)) if not name.startswith("_") and name not in LOCAL
                     and callable(getattr(type(store), name, None)))


def held_here(directory: Path) -> Holder | None:
    """The holder this process runs for the store in ``directory``, if any."""
    with _held_lock:
        return _held.get(str(directory.resolve()))


def close_held() -> None:
    """Close every store this process holds: a launch stopped (SIGTERM, Ctrl-C) between opening its store and
    serving it, whose store object never reached its caller, leaves no socket or owner file behind."""
    with _held_lock:
        holders = list(_held.values())
    for holder in holders:
        close = getattr(holder.store, "close", None)
        if close is not None:
            close()


class Holder:
    """Serves one open store on its socket until :meth:`stop`."""

    def __init__(self, store: Any, directory: Path, kind: str,
                 run_cli: Callable[[list[str], str, dict[str, str], tuple[bool, bool]], tuple[bytes, bytes, int]]
                 | None = None):
        from .. import __version__

        self.store, self.kind, self.run_cli = store, kind, run_cli or _run_cli
        self.path = wire.socket_path(directory)
        self.info = {"pid": os.getpid(), "kind": kind, "since": datetime.now(UTC).isoformat(),
                     "version": __version__, "protocol": wire.PROTOCOL, "engine": store.engine,
                     "timezone": store.tz_name, "socket": str(self.path)}
        self.methods = callable_by_clients(store)
        self.clients = 0
        self._cli_lock = threading.Lock()
        self._stopping = threading.Event()
        #: Command lines waiting their turn, or told they were not run and not yet sent that answer.
        self._waiting = 0
        self._count_lock = threading.Lock()
        self._listener = self._listen()
        try:  # (a signal now, before the holder is known to anyone, must not leave its socket file behind)
            self._key = str(directory.resolve())
            with _held_lock:
                _held[self._key] = self
            self._thread = threading.Thread(target=self._accept, name=f"graphmem-holder-{directory.name}",
                                            daemon=True)
            self._thread.start()
        except BaseException:
            with _held_lock:
                if _held.get(getattr(self, "_key", "")) is self:
                    del _held[self._key]
            self._listener.close()
            self.path.unlink(missing_ok=True)
            raise

    def _listen(self) -> socket.socket:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if self.path.exists():  # a killed holder's: nobody answers on it (else the store was not ours to open)
            self.path.unlink()
        mask = os.umask(0o177)  # the socket file: read and write for its owner only
        try:
            listener.bind(str(self.path))
        finally:
            os.umask(mask)
        os.chmod(self.path, 0o600)
        listener.listen(64)
        return listener

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError as exc:
                if self._stopping.is_set() or self._listener.fileno() < 0 or exc.errno not in _BUSY:
                    return  # the listener was closed: stopping
                time.sleep(0.1)  # out of descriptors (another user's flood of the explorer's port, in this process):
                continue  # wait for some to close, and serve again (an attacker's: it stopped serving for good)
            if not wire.peer_is_me(conn):
                conn.close()  # another user: no word is exchanged
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        self.clients += 1
        try:
            while not self._stopping.is_set():
                try:
                    request = wire.receive(conn)
                except (wire.HolderGone, OSError, EOFError):
                    return
                except Exception:  # noqa: BLE001  # not a message of graphmem's (an attacker's garbage frame, a
                    return  # traceback on the holder's stderr): that connection is closed, the others are served
                queued = isinstance(request, tuple) and len(request) == 5 and request[0] == "cli"
                if queued:
                    self._count(+1)  # (a malformed one is answered with its error, never queued)
                answer = self._answer(request, conn)
                try:
                    wire.send(conn, answer)
                finally:
                    if queued and answer[0] == "error" and isinstance(answer[1], NotRun):
                        self._count(-1)  # told it was not run (one run left the queue when its turn came)
        except OSError:
            return
        finally:
            self.clients -= 1
            conn.close()

    def _answer(self, request: Any, conn: socket.socket) -> tuple[str, Any]:
        try:
            kind = request[0]
            if kind == "hello":
                _, protocol, version = request
                if protocol != wire.PROTOCOL or version != self.info["version"]:
                    return "refused", (f"the store is held by graphmem {self.info['version']} (process "
                                       f"{self.info['pid']}), this is graphmem {version}: use the same version, "
                                       "or stop that process")
                return "ok", {**self.info, "methods": sorted(self.methods)}
            if kind == "status":
                return "ok", {**self.info, "clients": self.clients}
            if kind == "call":
                _, method, args, kwargs = request
                if self._stopping.is_set():  # not begun: the client makes it with the next holder
                    return "error", NotRun(f"the process holding the store (process {self.info['pid']}) is stopping; "
                                           f"{method} was not called")
                if method not in self.methods:
                    return "error", AttributeError(f"Store has no method a client may call named {method!r}")
                return "ok", getattr(self.store, method)(*args, **kwargs)
            if kind == "cli":
                _, argv, cwd, env, ttys = request
                with _watched(conn) as gone:
                    if not self._turn(gone):  # (gone: nobody reads the answer)
                        return "error", NotRun(
                            f"the process holding the store (process {self.info['pid']}) stopped before running the "
                            "command; it was not run: run it again")
                    try:
                        with stopped_when(gone):
                            return "ok", self.run_cli(argv, cwd, env, ttys)
                    finally:
                        self._cli_lock.release()
            return "error", ValueError(f"unknown request {kind!r}")
        except BaseException as exc:  # the caller gets what it would have had holding the store
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            return "error", _portable(exc)

    def _count(self, change: int) -> None:
        with self._count_lock:
            self._waiting += change

    def _turn(self, gone: threading.Event) -> bool:
        """Wait for this command line's turn; False, the command not run, when the holder stops first or its client
        has ``gone``."""
        while not self._cli_lock.acquire(timeout=0.05):
            if self._stopping.is_set() or gone.is_set():
                return False
        if self._stopping.is_set() or gone.is_set():
            self._cli_lock.release()
            return False
        self._count(-1)  # running: no longer waiting
        return True

    def stop(self) -> None:
        """Stop serving: no new connection is taken, command lines still waiting their turn are told they were not
        run (within a second), and the socket file goes."""
        self._stopping.set()
        deadline = time.monotonic() + 1
        while self._waiting and time.monotonic() < deadline:
            time.sleep(0.02)
        with _held_lock:
            if _held.get(self._key) is self:
                del _held[self._key]
        try:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept (close alone does not)
            except OSError:
                pass
            self._listener.close()
            self._thread.join(timeout=1)
        finally:
            self.path.unlink(missing_ok=True)


@contextmanager
def _watched(conn: socket.socket) -> Iterator[threading.Event]:
    """An event set once the client of a command line has gone (closed its connection: Ctrl-C, SIGTERM, a killed
    terminal) while the block runs; the connection is watched from a thread of its own, which only peeks."""
    gone, done = threading.Event(), threading.Event()

    def watch() -> None:
        poller = select.poll()
        poller.register(conn, select.POLLIN)  # (a close, a reset or words unasked for: a client never speaks now)
        while not done.is_set():
            if poller.poll(WATCH) and not done.is_set() and wire.closed_by_peer(conn):
                gone.set()
                return

    threading.Thread(target=watch, name="graphmem-holder-watch", daemon=True).start()
    try:
        yield gone
    finally:
        done.set()


class NotRun(RuntimeError):
    """A command line that waited its turn while the holder stopped: it was not run."""


def _run_cli(argv: list[str], cwd: str, env: dict[str, str], ttys: tuple[bool, bool]) -> tuple[bytes, bytes, int]:
    """A client's command line, run here (:func:`graphmem.cli.serving.forwarded`)."""
    from ..cli.serving import forwarded

    return forwarded(argv, cwd, env, ttys)


def _portable(exc: BaseException) -> BaseException:
    """The exception if it crosses the socket as itself, else a RuntimeError saying what it was."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
