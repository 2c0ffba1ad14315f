"""`graphmem mcp`: serve the store to an assistant over MCP (stdio).

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import os
import signal
import sys

import click

from ..core.extras import needs_extra
from . import main, open_store
from .ingest import day_first_option, extractor_option, timezone_option

__all__ = []

#: How long `graphmem mcp` waits, at launch, for a one-off command that has the store, in seconds.
MCP_WAIT = 120.0

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

    # SIGTERM (a client stopping its server, a service manager) closes the store as a disconnect does: the socket and
    # owner files go, and the log is checkpointed
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        # an assistant starting its session waits out a person's one-off command (a long cypher, an import) rather
        # than starting without its memory
        store = open_store(ctx, create=True, hold="mcp", timezone=timezone, wait=MCP_WAIT)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
        sys.exit(0)  # a store opened meanwhile is closed on the way out
    explorer = None
    if explore_port is not None:
        explorer = store.explore(port=explore_port, open_browser=False)
        click.echo(f"graphmem explorer at {explorer.url}", err=True)  # stdout carries the protocol
    try:
        serve(store, make_extractor(extractor_name, day_first=day_first, tz=store.tz))
    except KeyboardInterrupt:  # SIGTERM or Ctrl-C, the client still connected
        if explorer is not None:
            explorer.stop()
        store.close()
        click.echo("stopped", err=True)
        sys.stderr.flush()
        os._exit(0)  # the transport's reader thread waits on stdin, which the client keeps open: nothing to wait for
    finally:
        if explorer is not None:
            explorer.stop()
