"""Audit questions over the whole log, answered by the engine in one aggregate each.

Internal: the store's audit questions; ask them through :class:`graphmem.Store`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..core.aliases import ALIAS
from ..core.times import to_engine
from ..engine import Engine
from ..models import Entity

__all__ = ["believed_counts", "most_believed", "most_changed"]


def most_changed(engine: Engine, limit: int = 10) -> list[tuple[str, str, int]]:
    """The (subject id, predicate, versions) of the keys written most often, most first."""
    rows = engine.run("store/audit_most_changed", {"limit": int(limit)})
    return [(s, p, int(n)) for s, p, n in rows]


def believed_counts(engine: Engine, moments: Iterable[datetime]) -> list[tuple[datetime, int]]:
    """How many versions were believed and valid at each moment (as of it, valid at it)."""
    return [(at, engine.run("store/audit_believed_count", {"at": to_engine(at)})[0][0]) for at in moments]


def most_believed(engine: Engine, as_of: datetime, limit: int = 10) -> list[tuple[Entity, int]]:
    """The entities that the most facts believed at ``as_of`` (any valid time) are about, as their subject (alias
    facts not counted), with how many, most first (ties: by id)."""
    rows = engine.run("store/audit_most_believed", {"as_of": to_engine(as_of), "alias": ALIAS, "limit": int(limit)})
    return [(Entity(id=i, name=name, kind=kind), int(n)) for i, name, kind, n in rows]
