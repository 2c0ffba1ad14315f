"""Audit questions over the whole log, answered by the engine in one aggregate each."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from .timeutil import to_engine

if TYPE_CHECKING:
    from .store import Store


def most_changed(store: Store, limit: int = 10) -> list[tuple[str, str, int]]:
    """The (subject id, predicate, versions) of the keys written most often, most first."""
    rows = store._db.run("store/audit_most_changed", {"limit": int(limit)})
    return [(s, p, int(n)) for s, p, n in rows]


def believed_counts(store: Store, moments: Iterable) -> list[tuple[datetime, int]]:
    """How many versions were believed and valid at each moment (as of it, valid at it)."""
    found = []
    for moment in moments:
        at = store.time(moment)
        found.append((at, store._db.run("store/audit_believed_count", {"at": to_engine(at)})[0][0]))
    return found
