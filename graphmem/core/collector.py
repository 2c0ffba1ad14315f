"""Python's cyclic garbage collector held off while many long-lived objects are built.

Building hundreds of thousands of objects that hold no reference cycles (a log's records, the
versions of an answer, a graph's attribute dicts) makes the collector rescan the growing pile
again and again: 2 of 8.5 s importing 100k versions, 30-35 % of turning 165k believed versions
into models (BENCHMARKS.md). Those builds run with it paused.

Internal: used by the reads, the import and batch writes.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]

# The collector is one switch for the whole process: the blocks of every thread count as one
# pause, begun by the first to enter and ended by the last to leave. Without the count, a thread
# reading the switch off (another thread inside) and then switching it off after that one left
# would leave it off for good.
_lock = threading.Lock()
_inside = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off the cyclic collector inside the block; it is switched back on afterwards (even
    on an error) if it was on before the first of the blocks running at once (in any thread)
    began. Reference counting frees objects as usual meanwhile."""
    global _inside, _was_enabled
    with _lock:
        if _inside == 0:
            _was_enabled = gc.isenabled()
        gc.disable()
        _inside += 1
    try:
        yield
    finally:
        with _lock:
            _inside -= 1
            if _inside == 0 and _was_enabled:
                gc.enable()
