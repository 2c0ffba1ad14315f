"""The `graphmem` command: a client of the store's holder when there is one, else the command line.

When a process holds the store a command names (``--store``, ``GRAPHMEM_STORE``, or the
default), the command line is sent to it and run there, as typed in this directory with this
terminal's settings; what it printed and its exit status come back. This path imports nothing
of graphmem but its errors and the socket's framing, so a command answered by a holder costs
little more than starting Python. Stopped meanwhile (Ctrl-C, SIGTERM), the client leaves the holder, says in one
line what becomes of the command there, and exits 130 or 143 (the holder sees the connection close: see
:mod:`graphmem.holding.holder`). Without a holder (or for the commands that run here: serve,
mcp, explore, status, demo, eval, when, and help), the command line runs in this process.

Internal: the console script.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["DEFAULT_STORE", "HERE", "MARKER_FILE", "forward", "main"]

#: Commands that always run in this process (they hold a store, make their own, or need none).
HERE = frozenset({"serve", "mcp", "explore", "status", "demo", "eval", "when", "init"})
_VALUED = frozenset({"--store", "--engine"})
#: graphmem.cli.DEFAULT_STORE and MARKER_FILE, without importing the command line (a test keeps them equal).
DEFAULT_STORE = "graphmem-store"
MARKER_FILE = "graphmem.json"
#: The settings of this process a forwarded command sees.
_SETTINGS = ("COLUMNS", "LINES", "NO_COLOR", "TERM", "TZ")
#: What a holder does with a command whose client has gone, where it is not run to its end (`_left`).
_STOPPED = {
    "ingest": "stops the ingest after the transaction it is writing (each message written is whole and kept); run "
              "the same command again to write the rest (messages recorded are skipped)",
    "import-memories": "stops the import after the transaction it is writing (each memory written is whole and "
                       "kept; running it again imports every line again: look with `graphmem episodes` first)",
}


def _command(argv: list[str]) -> tuple[str | None, str]:
    """The command an argument list names and the store it names (before the command)."""
    store = os.environ.get("GRAPHMEM_STORE") or DEFAULT_STORE
    given = iter(argv)
    for arg in given:
        if arg in ("-h", "--help", "--version"):
            return None, store
        if arg == "--store":
            store = next(given, store)
        elif arg.startswith("--store="):
            store = arg.split("=", 1)[1]
        elif arg in _VALUED:
            next(given, None)
        elif not arg.startswith("-"):
            return arg, store
    return None, store


def forward(argv: list[str]) -> tuple[bytes, bytes, int] | None:
    """Run ``argv`` in the holder of the store it names: (stdout, stderr, status), or None when
    no holder serves that store (or the command runs here)."""
    command, store = _command(argv)
    if command is None or command in HERE or "--help" in argv or "-h" in argv:
        return None
    directory = Path(store)
    if not (directory / MARKER_FILE).exists():
        return None
    from . import __version__
    from .holding import wire

    stopped: list[int] = []  # the signal that stopped this client
    pid, sent = None, False  # the holder's process, once it said; whether the command was (or was being) sent
    try:
        with _stoppable(stopped):
            try:
                sock = wire.connect(wire.socket_path(directory))
            except wire.Refused as exc:
                return b"", f"error: {exc}\n".encode(), 1
            if sock is None:
                return None
            env = {k: v for k, v in os.environ.items() if k.startswith("GRAPHMEM_") or k in _SETTINGS}
            if sys.stdout.isatty() and "COLUMNS" not in env:
                import shutil

                env["COLUMNS"] = str(shutil.get_terminal_size().columns)
            try:
                with sock:  # (closed however this ends: a holder running the command sees its client go)
                    try:
                        status, info = wire.hello(sock, __version__)
                    except wire.Silent as exc:
                        return b"", f"error: the process holding store {store} {exc}\n".encode(), 1
                    if status != "ok":
                        return b"", f"error: {info}\n".encode(), 1
                    pid, sent = info["pid"], True
                    with _said_while_waiting(f"waiting for process {pid}, which holds store {store} and runs one "
                                             "command at a time…\n"):
                        status, answer = wire.ask(sock, ("cli", argv, os.getcwd(), env,
                                                         (sys.stdout.isatty(), sys.stderr.isatty())))
            except (wire.HolderGone, OSError):
                return b"", (f"error: the process holding store {store} stopped before answering; whether the "
                             "command was done is unknown: look, then run it again\n").encode(), 1
    except KeyboardInterrupt:
        number = stopped[0] if stopped else signal.SIGINT
        return b"", f"error: interrupted; {_left(command, store, pid, sent)}\n".encode(), 128 + number
    if status != "ok":
        return b"", f"error: {answer}\n".encode(), 1
    return answer


#: How long a command forwarded to a holder waits for its answer before a terminal is told it waits.
WAITED = 2.0


@contextmanager
def _said_while_waiting(note: str) -> Iterator[None]:
    """Say ``note`` on stderr, a terminal, once the block has run :data:`WAITED` seconds (a new user's search waited
    77 s behind an assistant's ingest in silence; its answer, when it comes, is the command's own output)."""
    if not sys.stderr.isatty():
        yield
        return
    import threading

    timer = threading.Timer(WAITED, lambda: (sys.stderr.write(note), sys.stderr.flush()))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@contextmanager
def _stoppable(stopped: list[int]) -> Iterator[None]:
    """SIGTERM (a service manager, `kill`) stops the client inside the block as Ctrl-C does, as a KeyboardInterrupt;
    ``stopped`` gets the signal that came (where either is ignored, it stays ignored)."""
    def stop(number: int, _: object) -> None:
        stopped.append(number)
        raise KeyboardInterrupt

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    taken = [s for s, h in handlers.items() if h in (signal.default_int_handler, signal.SIG_DFL)]
    for s in taken:
        signal.signal(s, stop)
    try:
        yield
    finally:
        for s in taken:
            signal.signal(s, handlers[s])


def _left(command: str, store: str, pid: int | None, sent: bool) -> str:
    """What becomes of a command in the holder once its client has gone."""
    who = f"process {pid}, which holds store {store}," if pid else f"the process holding store {store}"
    if not sent:
        return f"the command was not sent to {who.rstrip(',')}: it was not run"
    return f"{who} " + _STOPPED.get(command, "runs the command to its end, or not at all if it was still waiting its "
                                             "turn: look before running it again")


def main() -> None:
    """The console script: forward to a holder, or run the command line here."""
    argv = sys.argv[1:]
    answer = forward(argv)
    if answer is None:
        from .cli import main as command_line

        command_line(prog_name="graphmem")
        return
    out, err, code = answer
    try:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.stderr.buffer.write(err)
    sys.stderr.flush()
    sys.exit(code)
