"""Whole-graph reads in bulk: beliefs and snapshots fetched as Arrow columns.

The row-at-a-time path (a Python dict per edge from the engine, a validated
pydantic model per row, a copy per status) costs several times the engine's own
query on large answers. Here the engine hands back Arrow columns, the as-of
masking, ordering and statuses are computed per column, and each Version is
built from values whose types are already right. Answers equal
``reads.beliefs`` / ``reads.snapshot`` exactly (tests/test_benchmarks.py checks).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import networkx as nx
import pyarrow as pa
import pyarrow.compute as pc

from .models import Version
from .queries import QUERIES
from .timeutil import OPEN_END, UTC, to_engine

if TYPE_CHECKING:
    from .engine import Engine
    from .store import Store

FIELDS = tuple(Version.model_fields)
_FIELD_SET = frozenset(FIELDS)
_new = object.__new__
_set = object.__setattr__


def construct(values: dict) -> Version:
    """A Version from values already of the right types (what ``model_construct`` does, without
    its per-field default handling): no validation, so only for values read from the store."""
    version = _new(Version)
    _set(version, "__dict__", values)
    _set(version, "__pydantic_fields_set__", _FIELD_SET)
    _set(version, "__pydantic_extra__", None)
    _set(version, "__pydantic_private__", None)
    return version


def table(engine: Engine, name: str, params: dict) -> pa.Table:
    """Run a named query and fetch its answer as one Arrow table."""
    return engine.arrow(QUERIES[name], params)


def fetch(store: Store, as_of=None, valid_at=None) -> tuple[pa.Table, datetime, datetime | None]:
    """The believed versions as an Arrow table sorted as ``Store.beliefs`` sorts them."""
    t = store._as_of(as_of)
    v = store._valid_at(valid_at, t)
    if v is None:
        found = table(store._db, "store/beliefs_all_valid_table", {"as_of": to_engine(t)})
    else:
        found = table(store._db, "store/beliefs_at_table", {"as_of": to_engine(t), "valid_at": to_engine(v)})
    order = pc.sort_indices(found, sort_keys=[
        ("subject", "ascending"), ("predicate", "ascending"), ("valid_from", "ascending"),
        ("object", "ascending"), ("id", "ascending"),
    ])
    return found.take(order), t, v


def _times(column: pa.ChunkedArray, open_end: bool) -> list:
    """Naive engine times as aware UTC; the open-end sentinel as None."""
    if open_end:
        column = pc.if_else(pc.greater_equal(column, pa.scalar(OPEN_END, column.type)),
                            pa.nulls(len(column), column.type), column)
    return [None if x is None else x.replace(tzinfo=UTC) for x in column.to_pylist()]


def _values(found: pa.Table, as_of: datetime, valid_at: datetime | None) -> list[dict]:
    """One dict per version in Version's field order, closings after ``as_of`` hidden."""
    col = {name: found.column(name).to_pylist() for name in (
        "id", "subject", "predicate", "object", "episodes", "subject_id", "object_id",
        "supersedes", "superseded_by", "created_by", "closed_by", "reason")}
    at = as_of if valid_at is None else valid_at
    rows = []
    for (vid, subject, predicate, obj, start, end, recorded, superseded, episodes, subject_id,
         object_id, supersedes, superseded_by, created_by, closed_by, reason) in zip(
            col["id"], col["subject"], col["predicate"], col["object"],
            _times(found.column("valid_from"), False), _times(found.column("valid_to"), True),
            _times(found.column("recorded_at"), False), _times(found.column("superseded_at"), True),
            col["episodes"], col["subject_id"], col["object_id"], col["supersedes"],
            col["superseded_by"], col["created_by"], col["closed_by"], col["reason"]):
        if superseded is not None and superseded > as_of:  # not yet closed as of then
            superseded, superseded_by, closed_by, reason = None, [], None, None
        if superseded is not None:
            status = "retracted" if reason else "superseded"
        elif at < start:
            status = "upcoming"
        elif end is not None and end <= at:
            status = "ended"
        else:
            status = "current"
        rows.append({
            "id": vid, "subject": subject, "predicate": predicate, "object": obj,
            "valid_from": start, "valid_to": end, "recorded_at": recorded, "superseded_at": superseded,
            "status": status, "episodes": episodes or [], "subject_id": subject_id,
            "object_id": object_id, "supersedes": supersedes or [], "superseded_by": superseded_by or [],
            "created_by": created_by or "", "closed_by": closed_by, "reason": reason,
        })
    return rows


def beliefs(store: Store, as_of=None, valid_at=None) -> list[Version]:
    """What ``Store.beliefs`` returns, built in bulk."""
    found, t, v = fetch(store, as_of, valid_at)
    return [construct(values) for values in _values(found, t, v)]


def snapshot(store: Store, as_of=None, valid_at=None) -> nx.MultiDiGraph:
    """What ``Store.snapshot`` returns (nodes with name and kind, edges keyed by version id
    with every field of the version as an attribute), built in bulk."""
    found, t, v = fetch(store, as_of, valid_at)
    rows = _values(found, t, v)
    graph = nx.MultiDiGraph()
    names = {}
    for side in ("subject", "object"):
        for node, name, kind in zip(found.column(f"{side}_id").to_pylist(), found.column(side).to_pylist(),
                                    found.column(f"{side}_kind").to_pylist()):
            names[node] = (name, kind)
    order = list(dict.fromkeys(n for r in rows for n in (r["subject_id"], r["object_id"])))
    graph.add_nodes_from((n, {"name": names[n][0], "kind": names[n][1]}) for n in order)
    graph.add_edges_from((r["subject_id"], r["object_id"], r["id"], r) for r in rows)
    return graph
