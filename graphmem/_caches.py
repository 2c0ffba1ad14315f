"""What every Store on one path shares in a process besides its engine.

Internal: part of :class:`graphmem.Store`.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .core.names import PredicateKind
from .engine import Engine
from .query.cypher import Snapshot, snapshot_cache
from .query.named_queries import log_cache
from .query.projection import MomentCache
from .query.sandbox import Projection

if TYPE_CHECKING:  # the search index is imported when a store first searches
    from .core.lookalike import Skeletons
    from .recall._live import LiveIndex
    from .recall._messages import MessageIndex

__all__ = ["Shared", "shared_by"]


@dataclass
class Shared:
    """What every Store on one path shares in this process besides its engine: the settings and
    predicates read once, and the snapshots queries are answered from. Kept here, by the Store,
    and dropped or refreshed explicitly by whatever changes them."""

    settings: dict[str, str] | None = None
    predicates: dict[str, PredicateKind] | None = None
    snapshots: MomentCache[Snapshot] = field(default_factory=snapshot_cache)
    logs: MomentCache[Projection] = field(default_factory=log_cache)
    recall: LiveIndex | None = None  # the search index, built on the first search
    messages: MessageIndex | None = None  # the message index's file, opened on the first search
    skeletons: Skeletons | None = None  # the look-alike index of entity names, built on the first new entity
    skeletons_at: str | None = None  # the latest write the look-alike index has seen

    def forget(self) -> None:
        """Read settings and predicates again on next use (after a write that changed them)."""
        self.settings = self.predicates = None


_shared: weakref.WeakKeyDictionary[Engine, Shared] = weakref.WeakKeyDictionary()
_shared_lock = threading.Lock()


def shared_by(engine: Engine) -> Shared:
    with _shared_lock:
        return _shared.setdefault(engine, Shared())
