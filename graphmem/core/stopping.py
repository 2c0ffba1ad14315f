"""Work stopped because whoever asked for it has gone, where stopping leaves nothing half-done.

A command a holder runs for a client (:mod:`graphmem.holding`) runs on one of the holder's
threads, where no signal of the client's reaches it. When the client goes (Ctrl-C, SIGTERM, its
terminal closed), the holder sets the command's event; the work looks at it where a Ctrl-C would
be taken safely (an ingest between transactions: :func:`graphmem.ingest._writing.write_all`) and
stops there as a Ctrl-C stops it, with a :class:`KeyboardInterrupt`.

Internal: the holder sets the event, the ingest looks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Abandoned", "stop_here", "stopped_when"]

_asked = threading.local()


class Abandoned(KeyboardInterrupt):
    """Whoever asked for the work has gone: it stops as a Ctrl-C stops it."""


@contextmanager
def stopped_when(gone: threading.Event) -> Iterator[None]:
    """Inside the block, on this thread, :func:`stop_here` stops the work once ``gone`` is set."""
    before = getattr(_asked, "gone", None)
    _asked.gone = gone
    try:
        yield
    finally:
        _asked.gone = before


def stop_here() -> None:
    """A safe point: raise :class:`Abandoned` if whoever asked for this thread's work has gone."""
    gone = getattr(_asked, "gone", None)
    if gone is not None and gone.is_set():
        raise Abandoned("whoever asked for this work has gone")
