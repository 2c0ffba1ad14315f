"""The graphs read-only queries run over, as Arrow tables ready for a worker's in-memory database.

Two shapes, both a moment of the log that cannot change after that moment:

- the **believed graph** at T (valid at V): the versions believed then, each as it was believed
  (transaction period still open, closing fields null), open ends null, with the entities they
  join and the episodes received by T. A user's Cypher runs over it unchanged.
- the **log as of T**: every version recorded by T, as it stood at T (a later closing not yet
  there), the writes made by T and the episodes received by T, stored as the store stores them
  (open ends as the far-future sentinel). Named queries, which write their own temporal
  conditions, run over it.

In both, a supporting episode linked after T is not there.

Internal: what :meth:`graphmem.Store.cypher` and ``Store.query`` run on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Generic, TypeVar

from ..core.as_known import arrow_closing_as_known
from ..core.tables import by_name
from ..core.times import to_engine
from ..engine import Engine
from ..models import Entity, Episode, Version
from ..read.questions import Unseen
from .sandbox import Projection

if TYPE_CHECKING:
    pass

__all__ = ["MomentCache", "believed_graph", "log_until"]

#: The believed graph's tables, in load order (the facts' ends before the facts).
BELIEVED_DDL = tuple(by_name(name).ddl(whole=True) for name in ("Entity", "Episode", "Fact"))
#: The log's tables, in load order.
LOG_DDL = tuple(by_name(name).ddl(whole=True) for name in ("Entity", "Episode", "Decision", "Fact"))


def believed_graph(versions: list[Version], entities: list[Entity], episodes: list[Episode]) -> Projection:
    """The believed graph made of ``versions`` (as believed at its moment, so still open in
    transaction time), their ``entities`` and the ``episodes`` received by then; open ends null."""
    return Projection(BELIEVED_DDL, {
        "Entity": by_name("Entity").arrow(sorted(entities, key=lambda e: e.id)),
        "Episode": by_name("Episode").arrow(episodes),
        "Fact": by_name("Fact").arrow(versions, open_as_null=True, whole=True),
    })


def log_until(engine: Engine, at: datetime, unseen: Unseen) -> Projection:
    """The log as it stood at ``at``: versions recorded by then (a later closing hidden), writes
    made by then, episodes received by then, and none of the links in ``unseen``."""
    import pyarrow as pa  # here: only a query as of a date loads Arrow

    texts = pa.list_(pa.string())
    moment = {"at": to_engine(at)}
    facts = engine.arrow("store/log_facts_until", moment)
    episodes = facts.column("episodes").to_pylist()
    if unseen.episodes or unseen.links:
        episodes = [unseen.visible(vid, ids or []) for vid, ids in zip(facts.column("id").to_pylist(), episodes)]
    columns = {c.name: facts.column(c.name) for c in by_name("Fact").whole_columns}
    columns.update(arrow_closing_as_known(facts, at), episodes=pa.array(episodes, texts))  # a later closing hidden
    fact = pa.table(columns)
    ends = {}
    for side, name, kind in (("from", "subject_name", "subject_kind"), ("to", "object_name", "object_kind")):
        for key, shown, sort in zip(*(facts.column(c).to_pylist() for c in (side, name, kind))):
            ends[key] = (shown, sort)
    entity = by_name("Entity").arrow([Entity(id=k, name=n, kind=kind) for k, (n, kind) in sorted(ends.items())])
    return Projection(LOG_DDL, {
        "Entity": entity,
        "Episode": engine.arrow("store/log_episodes_until", moment),
        "Decision": engine.arrow("store/log_decisions_until", moment),
        "Fact": fact,
    })


_V = TypeVar("_V")


@dataclass
class MomentCache(Generic[_V]):
    """What was built for one store's moments (snapshots, log projections), kept until its next write.

    Moments whose answers hold the same content share one entry (``content`` names it; by default
    each moment is its own); the least recently used beyond ``size`` are released. Any write moves
    the store's latest write time, which releases everything built before it, so a purge leaves no
    copy of what it removed behind the next query. Owned by the Store (:mod:`graphmem._caches`).
    """

    size: int
    release: Callable[[_V], None]
    latest: datetime | None = None
    kept: OrderedDict[Hashable, _V] = field(default_factory=OrderedDict)
    moments: dict[Hashable, Hashable] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def get(self, moment: Hashable, latest: datetime | None, build: Callable[[], _V],
            content: Callable[[_V], Hashable] | None = None) -> _V:
        """The entry for ``moment`` of a store whose latest write is ``latest``, built on first use
        (hold the engine's lock: one consistent read)."""
        with self._lock:
            if self.latest != latest:
                self._release_all()
                self.latest = latest
            known = self.moments.get(moment)
            found = None if known is None else self.kept.get(known)
            if found is None:
                fresh = build()
                key = content(fresh) if content is not None else moment
                found = self.kept.setdefault(key, fresh)
                self.moments[moment] = key
            self.kept.move_to_end(self.moments[moment])
            while len(self.kept) > self.size:
                self.release(self.kept.popitem(last=False)[1])
            self.moments = {m: k for m, k in self.moments.items() if k in self.kept}
            return found

    def clear(self) -> None:
        """Release everything (the store closed, or its files were rewritten)."""
        with self._lock:
            self._release_all()

    def _release_all(self) -> None:
        for entry in self.kept.values():
            self.release(entry)
        self.kept.clear()
        self.moments.clear()
