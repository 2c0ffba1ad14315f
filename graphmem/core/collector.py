"""Python's cyclic garbage collector held off while many long-lived objects are built.

Building hundreds of thousands of objects that hold no reference cycles (a log's records, the
versions of an answer, a graph's attribute dicts) makes the collector rescan the growing pile
again and again: 2 of 8.5 s importing 100k versions, 30-35 % of turning 165k believed versions
into models (BENCHMARKS.md). Those builds run with it paused.

Internal: used by the reads and the import.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off the cyclic collector inside the block; it is switched back on afterwards (even
    on an error) if it was on before. Reference counting frees objects as usual meanwhile."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
