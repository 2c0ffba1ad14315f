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

from datetime import datetime
from typing import TYPE_CHECKING

from .engine import Engine
from .models import Entity, Episode, Version
from .reads import Unseen
from .sandbox import Projection
from .tables import by_name
from .timeutil import OPEN_END, to_engine

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["believed_graph", "log_until"]

#: The believed graph's tables, in load order (the facts' ends before the facts).
BELIEVED_DDL = tuple(by_name(name).ddl() for name in ("Entity", "Episode", "Fact"))
#: The log's tables, in load order.
LOG_DDL = tuple(by_name(name).ddl() for name in ("Entity", "Episode", "Decision", "Fact"))


def believed_graph(versions: list[Version], entities: list[Entity], episodes: list[Episode]) -> Projection:
    """The believed graph made of ``versions`` (as believed at its moment, so still open in
    transaction time), their ``entities`` and the ``episodes`` received by then; open ends null."""
    return Projection(BELIEVED_DDL, {
        "Entity": by_name("Entity").arrow(sorted(entities, key=lambda e: e.id)),
        "Episode": by_name("Episode").arrow(episodes),
        "Fact": by_name("Fact").arrow(versions, open_as_null=True),
    })


def log_until(engine: Engine, at: datetime, unseen: Unseen) -> Projection:
    """The log as it stood at ``at``: versions recorded by then (a later closing hidden), writes
    made by then, episodes received by then, and none of the links in ``unseen``."""
    import pyarrow as pa  # here: only a query as of a date loads Arrow
    import pyarrow.compute as pc

    time, texts = pa.timestamp("us"), pa.list_(pa.string())
    moment = {"at": to_engine(at)}
    facts = engine.arrow("store/log_facts_until", moment)
    later = pc.fill_null(pc.greater(facts.column("superseded_at"), pa.scalar(to_engine(at), time)), False)

    def hidden(name: str, value: pa.Scalar) -> pa.ChunkedArray:
        return pc.if_else(later, value, facts.column(name))

    episodes = facts.column("episodes").to_pylist()
    if unseen.episodes or unseen.links:
        episodes = [unseen.visible(vid, ids or []) for vid, ids in zip(facts.column("id").to_pylist(), episodes)]
    columns = {c.name: facts.column(c.name) for c in by_name("Fact").every_column}
    columns.update(
        superseded_at=hidden("superseded_at", pa.scalar(OPEN_END, time)),
        superseded_by=hidden("superseded_by", pa.scalar([], texts)),
        closed_by=hidden("closed_by", pa.scalar(None, pa.string())),
        reason=hidden("reason", pa.scalar(None, pa.string())),
        episodes=pa.array(episodes, texts),
    )
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
