"""The fact bodies read lately, kept per engine until the store may have changed.

A version's body (its FactBody row) is read by key after its edge, and kuzu spends ~0.1 ms on
each key: as much as the edges of a whole history. The explorer reads the same bodies again
and again (a person's neighbourhood, then their timeline, then the versions clicked), and so do
repeated histories. A body is not immutable (a closing, a link, a purge or a redaction rewrites
it), so what is kept here is good only while :attr:`graphmem.engine.Engine.changes` stays what
it was when it was read: every statement that may write, every transaction ended and every
reopen moves it, and no other process writes while this one holds the files. Reads inside a
write's transaction neither use nor fill it (they see what the write has not committed).

Internal: used by :func:`graphmem.read.questions.bodies`.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ..engine import Engine

__all__ = ["KEPT", "BodyCache", "cache_of"]

#: At most this many bodies are kept per engine (~10-20 MB): the oldest read go first.
KEPT = 20_000


class BodyCache:
    """Bodies by version id, as read while the engine's ``changes`` was ``changes``."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.changes: int | None = None
        self.found: dict[str, dict[str, Any]] = {}

    def usable(self, engine: Engine) -> bool:
        """Whether the engine can be read through the cache now (not inside a write); forgets
        everything kept if the store may have changed since. The caller holds ``engine.lock``."""
        if engine.in_transaction:
            return False
        if self.changes != engine.changes:
            self.found.clear()
            self.changes = engine.changes
        return True

    def get(self, ids: list[str]) -> tuple[dict[str, dict[str, Any]], list[str]]:
        """The bodies kept for ``ids`` (each a copy), and the ids not kept."""
        found, missing = {}, []
        for i in ids:
            body = self.found.get(i)
            if body is None:
                missing.append(i)
            else:
                found[i] = _copy(body)
        return found, missing

    def put(self, bodies: dict[str, dict[str, Any]]) -> None:
        """Keep ``bodies`` (copies), dropping the oldest kept beyond :attr:`kept`."""
        for i, body in bodies.items():
            self.found[i] = _copy(body)
        excess = len(self.found) - self.kept
        if excess > 0:
            for i in list(self.found)[:excess]:
                del self.found[i]


def _copy(body: dict[str, Any]) -> dict[str, Any]:  # its lists too: what a reader is given is its own
    return {name: list(value) if isinstance(value, list) else value for name, value in body.items()}


_caches: weakref.WeakKeyDictionary[Engine, BodyCache] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def cache_of(engine: Engine) -> BodyCache:
    """The engine's body cache (made on first use)."""
    with _caches_lock:
        return _caches.setdefault(engine, BodyCache())
