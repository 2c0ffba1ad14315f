"""Queries over the stored log: beliefs, history, timeline, diff, why.

Functions here fetch through named queries and compute statuses with the pure
functions of :mod:`graphmem.temporal`; they never write.
"""

from __future__ import annotations

from datetime import datetime

import networkx as nx

from . import records
from .engine import Engine
from .models import Change, Decision, Episode, Version, WhyAnswer
from .temporal import Period, believed_at, status_at
from .timeutil import to_engine

_CHANGE_OF_OP = {
    "ADD": "added", "UPDATE": "updated", "END": "ended", "RETRACT": "retracted",
    "CORRECT": "corrected", "SEGMENT": "segmented",
}


def with_status(version: Version, as_of: datetime, valid_at: datetime | None = None) -> Version:
    """The version with its status as seen from ``as_of`` (and ``valid_at``)."""
    return version.model_copy(update={"status": status_at(version, as_of, valid_at)})


def as_believed_at(version: Version, as_of: datetime, valid_at: datetime | None = None) -> Version:
    """The version as the store held it at ``as_of``: a later closing is not yet known there.

    Only supporting episodes linked later stay visible (linking is the one update a version gets).
    """
    update: dict = {"status": status_at(version, as_of, valid_at)}
    if version.superseded_at is not None and version.superseded_at > as_of:
        update.update(superseded_at=None, superseded_by=[], closed_by=None, reason=None)
    return version.model_copy(update=update)


def _versions(engine: Engine, query: str, **params) -> list[Version]:
    return [records.version(row) for row in engine.run(query, params)]


def beliefs(engine: Engine, as_of: datetime, valid_at: datetime | None) -> list[Version]:
    """Versions believed at ``as_of`` and valid at ``valid_at`` (None: any valid time)."""
    if valid_at is None:
        found = _versions(engine, "store/beliefs_all_valid", as_of=to_engine(as_of))
    else:
        found = _versions(
            engine, "store/beliefs_at", as_of=to_engine(as_of), valid_at=to_engine(valid_at)
        )
    found = [as_believed_at(v, as_of, valid_at) for v in found]
    return sorted(found, key=lambda v: (v.subject, v.predicate, v.valid_from, v.object, v.id))


def snapshot(versions: list[Version]) -> nx.MultiDiGraph:
    """Versions as a MultiDiGraph: entities as nodes, versions as edges keyed by version id."""
    graph = nx.MultiDiGraph()
    for v in versions:
        graph.add_node(v.subject_id, name=v.subject)
        graph.add_node(v.object_id, name=v.object)
        graph.add_edge(v.subject_id, v.object_id, key=v.id, **v.model_dump())
    return graph


def newest_first(versions: list[Version]) -> list[Version]:
    """Versions ordered newest write first, then latest valid start first."""
    return sorted(versions, key=lambda v: (v.recorded_at, v.valid_from, v.id), reverse=True)


def history(engine: Engine, subject_id: str, predicate: str, now: datetime) -> list[Version]:
    """Every version of (subject, predicate), newest first, status as seen from now."""
    found = _versions(engine, "store/history", subject=subject_id, predicate=predicate)
    return newest_first([with_status(v, now) for v in found])


def entity_versions(engine: Engine, entity_id: str) -> list[Version]:
    """Every version ever written with the entity as subject or object."""
    return _versions(engine, "store/entity_facts", id=entity_id)


def timeline(engine: Engine, entity_id: str, as_of: datetime) -> list[Version]:
    """The entity's facts believed at ``as_of``, in valid-time order."""
    found = [
        as_believed_at(v, as_of)
        for v in entity_versions(engine, entity_id)
        if believed_at(v.recorded_at, v.superseded_at, as_of)
    ]
    return sorted(found, key=lambda v: (v.valid_from, v.predicate, v.id))


def episodes(engine: Engine, ids: list[str] | None = None) -> list[Episode]:
    """Episodes by id (all of them when ``ids`` is None), oldest reference time first."""
    if ids is None:
        rows = engine.run("store/episode_all")
    else:
        rows = engine.run("store/episode_get", {"ids": list(ids)})
    found = [records.episode(r) for r in rows]
    return sorted(found, key=lambda e: (e.reference_time, e.id))


def decisions(engine: Engine, after: datetime | None = None, until: datetime | None = None) -> list[Decision]:
    """The write log (optionally the writes with after < at <= until), oldest first."""
    if after is None and until is None:
        rows = engine.run("store/decision_all")
    else:
        rows = engine.run(
            "store/decision_between",
            {"after": to_engine(after or datetime.min), "until": to_engine(until)},
        )
    return [records.decision(r) for r in rows]


def diff(engine: Engine, t1: datetime, t2: datetime) -> list[Change]:
    """What started and stopped being believed between two transaction times, and why."""
    writes = decisions(engine, t1, t2)
    ids = sorted({vid for d in writes for vid in d.created + d.closed})
    by_id = {v.id: v for v in _versions(engine, "store/fact_by_ids", ids=ids)} if ids else {}
    changes = []
    for d in writes:
        if d.op == "PURGE":
            changes.append(Change(change="purged", believed="removed", at=d.at, decision=d.id,
                                  reason=d.reason))
            continue
        change = _CHANGE_OF_OP.get(d.op)
        if change is None:
            continue
        for believed, vids in (("stopped", d.closed), ("started", d.created)):
            for vid in vids:
                if vid in by_id:
                    changes.append(Change(
                        change=change, believed=believed, at=d.at, decision=d.id,
                        version=as_believed_at(by_id[vid], t2), reason=d.reason,
                    ))
    return changes


def why(engine: Engine, subject_id: str, subject: str, predicate: str,
        valid_at: datetime, as_of: datetime, vs: datetime) -> WhyAnswer:
    """The (subject, predicate) answer at ``valid_at`` as of two times, and what changed it."""
    every = _versions(engine, "store/history", subject=subject_id, predicate=predicate)

    def answer(t: datetime) -> list[Version]:
        return [
            as_believed_at(v, t, valid_at) for v in every
            if believed_at(v.recorded_at, v.superseded_at, t)
            and Period(v.valid_from, v.valid_to).contains(valid_at)
        ]

    ids = {v.id for v in every}
    low, high = sorted((as_of, vs))
    writes = [d for d in decisions(engine, low, high) if ids & set(d.created + d.closed)]
    episode_ids = {d.episode for d in writes if d.episode}
    episode_ids |= {e for v in every if v.created_by in {d.id for d in writes} for e in v.episodes}
    return WhyAnswer(
        subject=subject, predicate=predicate, valid_at=valid_at, as_of=as_of, vs=vs,
        before=answer(as_of), after=answer(vs), decisions=writes,
        episodes=episodes(engine, sorted(episode_ids)) if episode_ids else [],
    )
