"""Engine rows to models: the one place that knows each query's column order."""

from __future__ import annotations

from .models import Decision, Entity, Episode, Link, Proposal, Tombstone, Version
from .timeutil import from_engine

_new = object.__new__
_set = object.__setattr__
_VERSION_FIELDS = frozenset(Version.model_fields)


def construct_version(values: dict) -> Version:
    """A Version from every field's value, already of the right type (``model_construct``
    without its per-field default handling): no validation, so only for values read from the
    store by a query that returns each field typed (``reads.beliefs``)."""
    version = _new(Version)
    _set(version, "__dict__", values)
    _set(version, "__pydantic_fields_set__", set(_VERSION_FIELDS))
    _set(version, "__pydantic_extra__", None)
    _set(version, "__pydantic_private__", None)
    return version


def version(row: list) -> Version:
    """A row ``s.id, s.name, o.id, o.name, f`` as a Version (status not set)."""
    subject_id, subject, object_id, obj, f = row
    return Version(
        id=f["id"],
        subject=subject,
        predicate=f["predicate"],
        object=obj,
        valid_from=from_engine(f["valid_from"]),
        valid_to=from_engine(f["valid_to"]),
        recorded_at=from_engine(f["recorded_at"]),
        superseded_at=from_engine(f["superseded_at"]),
        episodes=list(f["episodes"] or []),
        subject_id=subject_id,
        object_id=object_id,
        supersedes=list(f["supersedes"] or []),
        superseded_by=list(f["superseded_by"] or []),
        created_by=f["created_by"] or "",
        closed_by=f["closed_by"],
        reason=f["reason"],
    )


def entity(row: list) -> Entity:
    """A row ``id, name, kind`` as an Entity."""
    return Entity(id=row[0], name=row[1], kind=row[2])


def episode(row: list) -> Episode:
    """A row ``id, kind, text, actor, reference_time, received_at`` as an Episode."""
    return Episode(
        id=row[0], kind=row[1], text=row[2], actor=row[3],
        reference_time=from_engine(row[4]), received_at=from_engine(row[5]),
    )


def decision(row: list) -> Decision:
    """A row of the write log as a Decision."""
    return Decision(
        id=row[0], op=row[1], at=from_engine(row[2]), created=list(row[3] or []),
        closed=list(row[4] or []), episode=row[5], reason=row[6], proposal=row[7],
    )


def proposal(row: list) -> Proposal:
    """A row of the review queue as a Proposal."""
    return Proposal(
        id=row[0], op=row[1], subject=row[2], predicate=row[3], object=row[4],
        valid_from=from_engine(row[5]), valid_to=from_engine(row[6]), episode=row[7],
        quote=row[8], source=row[9], proposed_at=from_engine(row[10]), state=row[11],
        decided_at=from_engine(row[12]), reason=row[13], decision=row[14],
    )


def link(row: list) -> Link:
    """A row ``version, episode, at`` as a Link."""
    return Link(version=row[0], episode=row[1], at=from_engine(row[2]))


def tombstone(row: list) -> Tombstone:
    """A purge record as a Tombstone."""
    return Tombstone(
        id=row[0], target=row[1], at=from_engine(row[2]), versions=list(row[3] or []),
        episodes=list(row[4] or []), entities=row[5] or 0, proposals=row[6] or 0,
    )
