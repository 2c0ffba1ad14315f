"""Engine rows to models, by the table declarations of :mod:`graphmem.core.tables`.

Queries that read a whole record return ``n.*`` (every column in its declared order), so a
row is mapped here by position; a fact version comes with its endpoints' ids and names.

The values come from the store, written through the models and typed by the table declarations
(times aware UTC, lists as lists), so the models are made without validation
(``model_construct``): validating cost ~25 µs a row (35 ms for a timeline of 1,400 versions,
13 ms without), and the first validation in a process built a validator (20-30 ms).

Internal: the store's row mapping.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Any, TypeVar

from pydantic import BaseModel

from ..models import Decision, Entity, Episode, Link, Proposal, Tombstone, Version
from .tables import Table, by_name

__all__ = ["construct", "construct_version", "decision", "default_of", "entity", "episode", "link", "proposal",
           "tombstone", "version"]

M = TypeVar("M", bound=BaseModel)
_new = object.__new__
_set = object.__setattr__
_VERSION_FIELDS = tuple(Version.model_fields)  # in declared order, as validation keeps them
_FACT = by_name("Fact")


def _fields(table: Table, row: list[Any]) -> dict[str, Any]:
    return {c.source: c.to_field(value) for c, value in zip(table.columns, row, strict=True)}


def default_of(model: type[BaseModel], field: str) -> Any:
    """A model field's default value (a fresh one for a factory), None for a field without one."""
    return _defaults(model)[field]()


def _same(value: Any) -> Any:
    return value


@cache
def _defaults(model: type[BaseModel]) -> dict[str, Callable[[], Any]]:
    """How to make each field's default, worked out once per model (pydantic's own lookup inspects
    the factory's signature at every call: a quarter of a batch write's time)."""
    made: dict[str, Callable[[], Any]] = {}
    for name, info in model.model_fields.items():
        if info.default_factory is not None:
            made[name] = info.default_factory  # type: ignore[assignment]  # our factories take no argument
        else:
            made[name] = partial(_same, None if info.is_required() else info.default)
    return made


@cache
def _every_field(model: type[BaseModel]) -> set[str]:
    """The set of all of a model's field names, one per model, shared by every model :func:`construct`
    makes as the fields it was given (all of them). Never changed: the models are frozen, and
    ``model_copy`` copies the set before adding to it. A set of its own per model cost a fifth of a
    whole-store read's models (165k: 0.13 s) and as much again in the collector's next pass."""
    return set(model.model_fields)


def construct(model: type[M], values: dict[str, Any]) -> M:
    """A model from every field's value, in the order the fields are declared, each already of
    the right type: ``model_construct`` without its per-field default handling, and no validation
    (only for values a write or a query made so)."""
    made = _new(model)
    _set(made, "__dict__", values)
    _set(made, "__pydantic_fields_set__", _every_field(model))
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", None)
    return made


def construct_version(values: dict[str, Any]) -> Version:
    """A Version from every field's value, already of the right type (``model_construct``
    without its per-field default handling): no validation, so only for values read from the
    store by a query that returns each field typed (``questions.beliefs``)."""
    return construct(Version, values)


def version(row: list[Any]) -> Version:
    """A row ``s.id, s.name, o.id, o.name, f, b`` (the fact's edge and its body) as a Version
    (status not set)."""
    subject_id, subject, object_id, obj, f, b = row
    values = {c.source: c.to_field((b if c.name in _FACT.apart else f)[c.name]) for c in _FACT.columns}
    values.update(subject=subject, object=obj, subject_id=subject_id, object_id=object_id, status=None,
                  created_by=values["created_by"] or "")
    return construct_version({name: values[name] for name in _VERSION_FIELDS})


def entity(row: list[Any]) -> Entity:
    """A row of ``e.*`` as an Entity."""
    return Entity.model_construct(**_fields(by_name("Entity"), row))


def episode(row: list[Any]) -> Episode:
    """A row of ``e.*`` as an Episode."""
    return Episode.model_construct(**_fields(by_name("Episode"), row))


def decision(row: list[Any]) -> Decision:
    """A row of ``d.*`` as a Decision."""
    return Decision.model_construct(**_fields(by_name("Decision"), row))


def proposal(row: list[Any]) -> Proposal:
    """A row of ``p.*`` as a Proposal."""
    return Proposal.model_construct(**_fields(by_name("Proposal"), row))


def tombstone(row: list[Any]) -> Tombstone:
    """A row of ``t.*`` as a Tombstone."""
    return Tombstone.model_construct(**_fields(by_name("Tombstone"), row))


def link(row: list[Any]) -> Link:
    """A row of ``l.*`` as a Link (its id is derived from the version and the episode)."""
    fields = _fields(by_name("Link"), row)
    fields.pop("id")
    return Link.model_construct(**fields)
