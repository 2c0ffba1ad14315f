"""`graphmem mcp`: serve the store to an assistant over MCP (stdio).

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import click

from ..core.extras import needs_extra
from . import main, open_store
from .ingest import day_first_option, extractor_option, timezone_option

__all__ = []

#: How long `graphmem mcp` waits, at launch, for a one-off command that has the store, in seconds.
MCP_WAIT = 120.0
#: How long a stopping server waits for a write under way (a tool call, a client's call) to finish, in seconds.
STOP_WAIT = 5.0


def _say_if_waiting(directory: Path) -> None:
    """Say on stderr, at once, that the store is open in a one-off command this launch will wait for (the client sees
    no answer to its first request meanwhile)."""
    from ..holding.wire import open_unserved

    if (pid := open_unserved(directory)) is not None:
        click.echo(f"graphmem mcp: the store is open in another command (process {pid}); waiting up to "
                   f"{MCP_WAIT:.0f} s for it to finish", err=True)


def _stopper(store, explorer):
    """A signal handler that stops the server at once, in the handler rather than by an exception the transport's
    task groups would wrap or cancel: the explorer stops, the write under way (on another thread) finishes, the store
    closes (its socket and owner files go), and the process leaves, its transport's reader thread still waiting on
    the client's stdin. A write that does not finish in :data:`STOP_WAIT` is left as a kill leaves it: not done."""
    def stop(*_: object) -> None:
        if explorer is not None:
            explorer.stop()
        engine = getattr(store, "_engine", None)  # None: a client of another holder, nothing of its own to close
        if engine is None or engine.lock.acquire(timeout=STOP_WAIT):
            store.close()
        sys.stderr.write("stopped\n")
        sys.stderr.flush()
        os._exit(0)
    return stop

@main.command("mcp")
@extractor_option
@day_first_option
@timezone_option
@click.option("--explore", "explore_port", type=click.IntRange(0, 65535), metavar="PORT",
              help="Also serve the read-only explorer on 127.0.0.1:PORT, from this same process.")
@click.pass_context
def mcp_(ctx, extractor_name, day_first, timezone, explore_port):
    """Serve the store over MCP on stdin/stdout until the client disconnects.

    An assistant starts it with `graphmem --store DIR mcp` (the store is created if missing, reading
    times in --timezone: "yesterday", said at 9 pm in New York, is the day before in New York).
    Facts the remember tool extracts wait for review unless the call approves them or
    `graphmem review skip tool` was set. With --explore PORT a person can watch the memory
    in a browser while the assistant writes (the store is held by this one process; refresh
    the page to see new writes). See docs/mcp.md.
    """
    with needs_extra("mcp", "`graphmem mcp`"):
        from ..mcp.server import serve
    from ..ingest import make_extractor

    # SIGTERM (a client stopping its server, a service manager) or Ctrl-C stops it as a disconnect does: while the
    # store opens, by leaving; once it serves, in the handler itself (see _stopper)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    _say_if_waiting(ctx.obj["dir"])
    try:
        # an assistant starting its session waits out a person's one-off command (a long cypher, an import) rather
        # than starting without its memory
        store = open_store(ctx, create=True, hold="mcp", timezone=timezone, wait=MCP_WAIT)
    except KeyboardInterrupt:
        from ..holding.holder import close_held

        close_held()  # a store opened just before the signal, which open_store never handed back
        click.echo("stopped", err=True)
        sys.exit(0)
    explorer = None
    if explore_port is not None:
        explorer = store.explore(port=explore_port, open_browser=False)
        click.echo(f"graphmem explorer at {explorer.url}", err=True)  # stdout carries the protocol
    stop = _stopper(store, explorer)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        serve(store, make_extractor(extractor_name, day_first=day_first, tz=store.tz))
    finally:
        if explorer is not None:
            explorer.stop()
