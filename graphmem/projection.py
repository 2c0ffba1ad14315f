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
"""

from __future__ import annotations

from datetime import datetime

import pyarrow as pa
import pyarrow.compute as pc

from .engine import Engine
from .models import Entity, Episode, Version
from .queries import QUERIES
from .reads import Unseen
from .sandbox import Projection
from .timeutil import OPEN_END, to_engine

__all__ = ["believed_graph", "log_until"]

#: The believed graph's tables, in load order (the facts' ends before the facts).
BELIEVED_DDL = tuple(QUERIES[name] for name in ("schema/03_entity", "schema/04_episode", "schema/08_fact"))
#: The log's tables, in load order.
LOG_DDL = tuple(QUERIES[name] for name in ("schema/03_entity", "schema/04_episode", "schema/05_decision",
                                           "schema/08_fact"))
_TIME = pa.timestamp("us")
_LIST = pa.list_(pa.string())


def _times(values, *, open_as_null: bool = False) -> pa.Array:
    converted = [None if v is None else to_engine(v) for v in values]
    if open_as_null:
        converted = [None if v is not None and v >= OPEN_END else v for v in converted]
    return pa.array(converted, _TIME)


def _strings(values) -> pa.Array:
    return pa.array(list(values), pa.string())


def _lists(values) -> pa.Array:
    return pa.array([list(v) for v in values], _LIST)


def believed_graph(versions: list[Version], entities: list[Entity], episodes: list[Episode]) -> Projection:
    """The believed graph made of ``versions`` (as believed at its moment), their ``entities`` and
    the ``episodes`` received by then."""
    entities = sorted(entities, key=lambda e: e.id)

    def col(items, name):
        return [getattr(i, name) for i in items]

    nobody = [None] * len(versions)
    return Projection(BELIEVED_DDL, {
        "Entity": pa.table({n: _strings(col(entities, n)) for n in ("id", "name", "kind")}),
        "Episode": pa.table({
            **{n: _strings(col(episodes, n)) for n in ("id", "kind", "text", "actor")},
            "reference_time": _times(col(episodes, "reference_time")),
            "received_at": _times(col(episodes, "received_at")),
        }),
        "Fact": pa.table({
            "from": _strings(col(versions, "subject_id")), "to": _strings(col(versions, "object_id")),
            "id": _strings(col(versions, "id")), "predicate": _strings(col(versions, "predicate")),
            "valid_from": _times(col(versions, "valid_from")),
            "valid_to": _times(col(versions, "valid_to"), open_as_null=True),
            "recorded_at": _times(col(versions, "recorded_at")),
            "superseded_at": _times(nobody),
            "episodes": _lists(col(versions, "episodes")),
            "supersedes": _lists(col(versions, "supersedes")),
            "superseded_by": _lists(col(versions, "superseded_by")),
            "created_by": _strings(col(versions, "created_by")),
            "closed_by": _strings(nobody),
            "reason": _strings(nobody),
        }),
    })


def log_until(engine: Engine, at: datetime, unseen: Unseen) -> Projection:
    """The log as it stood at ``at``: versions recorded by then (a later closing hidden), writes
    made by then, episodes received by then, and none of the links in ``unseen``."""
    moment = {"at": to_engine(at)}
    facts = engine.arrow("store/log_facts_until", moment)
    later = pc.fill_null(pc.greater(facts.column("superseded_at"), pa.scalar(to_engine(at), _TIME)), False)

    def hidden(name: str, value: pa.Scalar) -> pa.ChunkedArray:
        return pc.if_else(later, value, facts.column(name))

    episodes = facts.column("episodes").to_pylist()
    if unseen.episodes or unseen.links:
        episodes = [unseen.visible(vid, ids or []) for vid, ids in zip(facts.column("id").to_pylist(), episodes)]
    fact = pa.table({
        "from": facts.column("from"), "to": facts.column("to"), "id": facts.column("id"),
        "predicate": facts.column("predicate"), "valid_from": facts.column("valid_from"),
        "valid_to": facts.column("valid_to"), "recorded_at": facts.column("recorded_at"),
        "superseded_at": hidden("superseded_at", pa.scalar(OPEN_END, _TIME)),
        "episodes": pa.array(episodes, _LIST), "supersedes": facts.column("supersedes"),
        "superseded_by": hidden("superseded_by", pa.scalar([], _LIST)),
        "created_by": facts.column("created_by"),
        "closed_by": hidden("closed_by", pa.scalar(None, pa.string())),
        "reason": hidden("reason", pa.scalar(None, pa.string())),
    })
    ends = {}
    for side, name, kind in (("from", "subject_name", "subject_kind"), ("to", "object_name", "object_kind")):
        for key, shown, sort in zip(*(facts.column(c).to_pylist() for c in (side, name, kind))):
            ends[key] = (shown, sort)
    keys = sorted(ends)
    entity = pa.table({"id": _strings(keys), "name": _strings(ends[k][0] for k in keys),
                       "kind": _strings(ends[k][1] for k in keys)})
    return Projection(LOG_DDL, {
        "Entity": entity,
        "Episode": engine.arrow("store/log_episodes_until", moment),
        "Decision": engine.arrow("store/log_decisions_until", moment),
        "Fact": fact,
    })
