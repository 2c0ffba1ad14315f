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
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from ..core.aliases import AliasGroups
from ..core.as_known import arrow_closing_as_known
from ..core.tables import Column, by_name
from ..core.times import to_engine
from ..engine import Engine
from ..models import Entity, Episode, Version
from ..read import aliases
from ..read.questions import Unseen
from .sandbox import Projection

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MomentCache", "believed_graph", "log_until"]

#: A query's entities: one node per entity, or per group of names believed one (its aliases),
#: keyed by the group's entity seen first, with every name it goes by in ``names``.
NODES = replace(by_name("Entity"), columns=(*by_name("Entity").columns, Column("names", "STRING[]")))
#: A query's facts: each with the names its ends were stated under (an alias's node shows them all).
EDGES = replace(by_name("Fact"), columns=(*by_name("Fact").columns, Column("subject_name", field="subject"),
                                          Column("object_name", field="object")))
#: The believed graph's tables, in load order (the facts' ends before the facts).
BELIEVED_DDL = (NODES.ddl(whole=True), by_name("Episode").ddl(whole=True), EDGES.ddl(whole=True))
#: The log's tables, in load order.
LOG_DDL = (NODES.ddl(whole=True), *(by_name(name).ddl(whole=True) for name in ("Episode", "Decision")),
           EDGES.ddl(whole=True))


class _Node(NamedTuple):
    id: str
    name: str
    kind: str
    names: list[str]


def _nodes(entities: list[Entity], groups: AliasGroups) -> pa.Table:
    """One node per entity, an entity's aliases folded into the group's first entity."""
    by_id = {e.id: e for e in entities}
    nodes = []
    for entity in sorted(entities, key=lambda e: e.id):
        lead = groups.lead(entity.id)
        if lead != entity.id:
            continue  # folded into its group's node
        members = [by_id[m] for m in groups.of(entity.id) if m in by_id]
        nodes.append(_Node(entity.id, entity.name, entity.kind, [m.name for m in members]))
    return NODES.arrow(nodes)


def _folded(facts: pa.Table, groups: AliasGroups) -> pa.Table:
    """``facts`` with each end an alias moved to its group's node (the rest of the row as stated)."""
    if not groups:
        return facts
    import pyarrow as pa

    for end in ("from", "to"):
        index = facts.schema.get_field_index(end)
        moved = pa.array([groups.lead(e) for e in facts.column(end).to_pylist()], pa.string())
        facts = facts.set_column(index, end, moved)
    return facts


def believed_graph(versions: list[Version], entities: list[Entity], episodes: list[Episode],
                   groups: AliasGroups | None = None) -> Projection:
    """The believed graph made of ``versions`` (as believed at its moment, so still open in
    transaction time), their ``entities`` and the ``episodes`` received by then; open ends null.
    The names ``groups`` holds as one are one node (see :data:`NODES`); ``entities`` must hold
    every entity of those groups."""
    groups = groups or AliasGroups()
    return Projection(BELIEVED_DDL, {
        "Entity": _nodes(entities, groups),
        "Episode": by_name("Episode").arrow(episodes),
        "Fact": _folded(EDGES.arrow(versions, open_as_null=True, whole=True), groups),
    })


def log_until(engine: Engine, at: datetime, unseen: Unseen) -> Projection:
    """The log as it stood at ``at``: versions recorded by then (a later closing hidden), writes
    made by then, episodes received by then, and none of the links in ``unseen``; the names
    believed one at ``at`` (aliases, any valid time) one node."""
    import pyarrow as pa  # here: only a query as of a date loads Arrow

    texts = pa.list_(pa.string())
    moment = {"at": to_engine(at)}
    facts = engine.arrow("store/log_facts_until", moment)
    episodes = facts.column("episodes").to_pylist()
    if unseen.episodes or unseen.links:
        episodes = [unseen.visible(vid, ids or []) for vid, ids in zip(facts.column("id").to_pylist(), episodes)]
    columns = {c.name: facts.column(c.name) for c in by_name("Fact").whole_columns}
    columns.update(arrow_closing_as_known(facts, at), episodes=pa.array(episodes, texts))  # a later closing hidden
    columns.update(subject_name=facts.column("subject_name"), object_name=facts.column("object_name"))
    fact = pa.table(columns)
    ends = {}
    for side, name, kind in (("from", "subject_name", "subject_kind"), ("to", "object_name", "object_kind")):
        for key, shown, sort in zip(*(facts.column(c).to_pylist() for c in (side, name, kind))):
            ends[key] = (shown, sort)
    groups = aliases.groups_at(engine, at, None)  # each alias is a version recorded by then: its ends are here
    named = [Entity(id=k, name=n, kind=kind) for k, (n, kind) in ends.items()]
    return Projection(LOG_DDL, {
        "Entity": _nodes(named, groups),
        "Episode": engine.arrow("store/log_episodes_until", moment),
        "Decision": engine.arrow("store/log_decisions_until", moment),
        "Fact": _folded(fact, groups),
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
