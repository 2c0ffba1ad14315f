"""The holder's socket: where it is, who may talk on it, and how a message is framed.

A store held by a long-running process is served on a Unix-domain socket, ``graphmem.sock`` in
the store's directory, created with permissions for its owner only. Where that path is too long
for a socket (about 100 bytes), the socket is ``graphmem-<hash of the store's path>.sock`` in the
user's runtime directory (``$XDG_RUNTIME_DIR``, else ``/tmp/graphmem-<uid>``, made 0700). Both
ends check the other's user with ``SO_PEERCRED`` and refuse any other user. A message is a
pickle of plain values and graphmem's own models, preceded by its length; both ends are the same
user running the same graphmem (checked first), so a pickle carries no privilege the peer lacks.

Nothing here imports the rest of graphmem (nor hashlib or tempfile, unless the store's path is
too long): the command line's client path stays light.

Internal: the holder (:mod:`graphmem.holding.holder`) and its clients use it.
"""

from __future__ import annotations

import os
import pickle
import socket
import struct
from pathlib import Path
from typing import Any

__all__ = ["MAX_PATH", "PROTOCOL", "SOCKET_FILE", "HolderGone", "Refused", "ask", "closed_by_peer", "connect", "hello",
           "open_unserved", "peer_is_me", "receive", "send", "socket_path"]

SOCKET_FILE = "graphmem.sock"
#: The longest path a Unix socket takes here (sun_path holds 108 bytes with its NUL; keep margin).
MAX_PATH = 100
#: The version of the conversation on the socket; a holder and a client of other versions refuse each other.
PROTOCOL = 1
_LENGTH = struct.Struct("!Q")
_CREDENTIALS = struct.Struct("3i")


class HolderGone(Exception):
    """The holder closed the connection before answering (it stopped, or was killed)."""


class Refused(Exception):
    """The peer is not this user, or speaks another version."""


def closed_by_peer(sock: socket.socket) -> bool:
    """Whether a connection asked nothing is unfit for the next question (read at once, without waiting or taking
    anything): closed by the other end, reset, or holding words no question asked for (a holder never speaks
    unasked)."""
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        return True  # an orderly close (nothing to read), or something left unread
    except BlockingIOError:
        return False  # open, and quiet
    except OSError:
        return True  # reset


def socket_path(directory: Path) -> Path:
    """Where the holder of the store in ``directory`` listens."""
    inside = directory.resolve() / SOCKET_FILE
    if len(os.fsencode(inside)) <= MAX_PATH:
        return inside
    import hashlib  # OpenSSL's (~3 ms): only for a store whose path is too long
    import tempfile

    digest = hashlib.sha256(os.fsencode(directory.resolve())).hexdigest()[:24]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    private = Path(tempfile.gettempdir()) / f"graphmem-{os.getuid()}"
    base = Path(runtime) if runtime and Path(runtime).is_dir() else private
    base.mkdir(mode=0o700, exist_ok=True)
    if base.stat().st_uid != os.getuid() or base.stat().st_mode & 0o077:
        raise Refused(f"{base} is not a private directory of this user; cannot place the store's socket there")
    return base / f"graphmem-{digest}.sock"


def peer_is_me(sock: socket.socket) -> bool:
    """True when the process at the other end runs as this user."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size)
    _, uid, _ = _CREDENTIALS.unpack(raw)
    return uid == os.getuid()


#: How long a holder may take to take a connection and to answer its greeting, in seconds.
HELLO_WAIT = 10.0


def connect(path: Path, timeout: float | None = HELLO_WAIT) -> socket.socket | None:
    """A connection to the holder listening at ``path``, or None when none listens there (a
    socket file a killed holder left is removed)."""
    if not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        sock.close()
        _remove_stale(path)
        return None
    except OSError:
        sock.close()
        return None
    if not peer_is_me(sock):
        sock.close()
        raise Refused(f"the socket {path} is served by another user; refusing to talk to it")
    sock.settimeout(None)
    return sock


def _remove_stale(path: Path) -> None:
    """Remove a socket file nobody listens on (a killed holder's), unless a new holder bound it meanwhile."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        path.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        probe.close()


def ask(sock: socket.socket, request: Any) -> Any:
    """Send one request and receive its answer (HolderGone when the holder closes first)."""
    send(sock, request)
    return receive(sock)


class Silent(Exception):
    """The holder took the connection and did not answer the greeting in :data:`HELLO_WAIT` (wedged, stopped, or out
    of file descriptors): the connection is of no further use."""


def hello(sock: socket.socket, version: str) -> tuple[str, Any]:
    """Greet the holder as graphmem ``version``: ("ok", who holds) or ("refused", why in one line); :class:`Silent`
    when no answer comes in :data:`HELLO_WAIT` (every command hung on such a holder: an attacker's and a reviewer's)."""
    sock.settimeout(HELLO_WAIT)
    try:
        return ask(sock, ("hello", PROTOCOL, version))
    except TimeoutError:
        raise Silent(f"does not answer (after {HELLO_WAIT:g} s); it may be out of file descriptors, or stopped: "
                     "try again, or stop it") from None
    finally:
        sock.settimeout(None)


def send(sock: socket.socket, value: Any) -> None:
    """Send one message."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_LENGTH.pack(len(data)) + data)


def receive(sock: socket.socket) -> Any:
    """Receive one message; HolderGone when the peer closed the connection first."""
    (size,) = _LENGTH.unpack(_exactly(sock, _LENGTH.size))
    return pickle.loads(_exactly(sock, size))


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            raise HolderGone("the connection closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def open_unserved(directory: Path) -> int | None:
    """The process that has the store in ``directory`` open without serving it (a one-off command), which opening it
    here waits for; None when there is none (or one serves it: it is then asked)."""
    from ..engine import owner_pid

    pid = owner_pid(directory)
    try:
        served = socket_path(directory).exists()
    except (OSError, Refused):
        return None
    return None if pid is None or served or pid == os.getpid() else pid
