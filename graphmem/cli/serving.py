"""`graphmem serve` and `graphmem status`, and running a client's command line in the holder.

Internal: commands registered on :data:`graphmem.cli.main`; :func:`forwarded` is what a holder
runs for a command line a client sends it (:mod:`graphmem.holding`).
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from . import json_option, main, open_store, output

__all__ = ["forwarded"]


class _Captured(io.TextIOWrapper):
    """What a forwarded command prints, held for its client, with the client's terminal's answer to isatty."""

    def __init__(self, tty: bool):
        super().__init__(io.BytesIO(), encoding="utf-8", errors="surrogateescape", write_through=True)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty

    def value(self) -> bytes:
        self.flush()
        buffer = self.buffer
        assert isinstance(buffer, io.BytesIO)
        return buffer.getvalue()


class _Switch:
    """sys.stdout or sys.stderr of a holder: a thread running a client's command writes to that
    client's capture, every other thread to the real stream."""

    def __init__(self, real: Any, name: str):
        self.real, self.name = real, name

    def _target(self) -> Any:
        return getattr(_streams, self.name, None) or self.real

    def write(self, text: str) -> int:
        return self._target().write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


_streams = threading.local()
_installed = threading.Lock()


def _install() -> None:
    with _installed:
        if not isinstance(sys.stdout, _Switch):
            sys.stdout = _Switch(sys.stdout, "stdout")
        if not isinstance(sys.stderr, _Switch):
            sys.stderr = _Switch(sys.stderr, "stderr")


@contextmanager
def _as_the_client(cwd: str, env: dict[str, str]) -> Iterator[None]:
    """In the client's directory, with its settings (GRAPHMEM_*, COLUMNS, NO_COLOR, ...)."""
    here = os.getcwd()
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def forwarded(argv: list[str], cwd: str, env: dict[str, str], ttys: tuple[bool, bool]) -> tuple[bytes, bytes, int]:
    """Run a client's command line here, as if typed in its directory: what it printed on stdout
    and stderr, and its exit status. The holder runs one at a time."""
    _install()
    out, err = _Captured(ttys[0]), _Captured(ttys[1])
    _streams.stdout, _streams.stderr = out, err
    code = 0
    try:
        with _as_the_client(cwd, env):
            main.main(args=argv, prog_name="graphmem")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        _streams.stdout = _streams.stderr = None
    return out.value(), err.value(), code


@main.command("serve")
@click.pass_context
def serve(ctx):
    """Hold the store and serve it to every other graphmem process until Ctrl-C.

    While it runs, every command on this store (the CLI, the explorer, `graphmem mcp`, a Python
    Store) is served by this process: nobody finds the store in use, and writes from all of them
    are taken one at a time. The socket is graphmem.sock in the store's directory, for this user
    only. `graphmem status` says who holds a store.

    \b
    Example:
      graphmem --store mine serve
    """
    # Ctrl-C (SIGINT) stops it, also when it was started where SIGINT is ignored (a shell
    # script's background job), and so does SIGTERM.
    stop = threading.Event()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    store = open_store(ctx, hold="serve")
    holder = getattr(store, "_holder", None)
    if holder is None:  # another process holds it (this one is its client), or this one already serves it
        held = getattr(store, "holder", {"pid": os.getpid(), "kind": "serve"})
        raise click.ClickException(f"store {store.path} is already held by process {held['pid']} ({held['kind']}); "
                                   "`graphmem status` says more")
    output.plain(f"serving {store.path} on {holder.path} (process {os.getpid()}); Ctrl-C stops")
    sys.stdout.flush()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    output.plain("stopped")


@main.command("status")
@json_option
@click.pass_context
def status(ctx, as_json):
    """Say whether a process holds the store, which, since when, and how many clients it serves."""
    from pathlib import Path

    from ..holding import wire

    directory: Path = ctx.obj["dir"]
    sock = wire.connect(wire.socket_path(directory)) if directory.exists() else None
    info: dict[str, Any] | None = None
    if sock is not None:
        try:
            _, info = wire.ask(sock, ("status",))
        except (wire.HolderGone, OSError):
            info = None
        finally:
            sock.close()
    user = wire.open_unserved(directory) if info is None and directory.exists() else None  # a command has it open
    if as_json:
        output.dump_json([{"store": str(directory), "held": info is not None, **(info or {}),
                           **({"open_in": user} if user is not None else {})}])
        return
    if info is None and user is not None:
        output.plain(f"{directory}: not held by a server, but open right now in process {user} (a command "
                     "using it for itself: another command waits a few seconds for it, then says the store is in "
                     "use; run it when that process is done)")
        return
    if info is None:
        output.plain(f"{directory}: not held (a command opens it for itself)")
        return
    output.plain(f"{directory}: held by process {info['pid']} ({info['kind']}, graphmem {info['version']}, "
               f"{info['engine']}) since {info['since']}; {info['clients'] - 1} other client(s) connected; "
               f"socket {info['socket']}")
