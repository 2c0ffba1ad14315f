"""Which names are one entity at a moment: the aliases believed then, read from the store.

The rules are :mod:`graphmem.core.aliases`; this module reads what they need. An alias joins two
names at a read's moment when it was believed at ``as_of`` and, for a read at one valid moment,
its valid time had not ended by then (``valid_at`` None: every alias believed at ``as_of``).

Internal: the Store's reads and alias writes use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..core import records
from ..core.aliases import ALIAS, AliasGroups, alias_groups
from ..core.times import OPEN_END, to_engine
from ..engine import Engine
from ..models import Version
from . import questions

__all__ = ["any_alias", "believed", "declared", "group_of", "groups_among", "groups_at", "links_between"]


def declared(engine: Engine) -> bool:
    """Whether the store ever held an alias: the first one written or imported declares ``alias_of``."""
    return any(name == ALIAS for name, _ in engine.run("store/predicate_all"))


def any_alias(engine: Engine) -> bool:
    """Whether any alias was ever written (no read needs to look for aliases otherwise)."""
    return bool(engine.run("store/predicate_in_use", {"name": ALIAS})[0][0])


def _holds(valid_to: datetime | None, valid_at: datetime | None) -> bool:
    return valid_at is None or valid_to is None or valid_to == OPEN_END or valid_to > to_engine(valid_at)


def first_seen(engine: Engine, ids: Iterable[str]) -> dict[str, datetime]:
    """When each entity's first version was recorded (entities with none left out)."""
    found = {}
    for entity in ids:
        rows = engine.run("store/entity_first_seen", {"id": entity})
        if rows and rows[0][0] is not None:
            found[entity] = rows[0][0]
    return found


def _grouped(engine: Engine, pairs: list[tuple[str, str]]) -> AliasGroups:
    if not pairs:
        return AliasGroups()
    return alias_groups(pairs, first_seen(engine, {e for pair in pairs for e in pair}))


def groups_at(engine: Engine, as_of: datetime, valid_at: datetime | None) -> AliasGroups:
    """Every group of names believed one at ``as_of`` (and valid at ``valid_at``; None: any); a
    store that never held an alias (the first declares ``alias_of``) is not read for them."""
    if not declared(engine):
        return AliasGroups()
    rows = engine.run("store/alias_believed", {"predicate": ALIAS, "as_of": to_engine(as_of)})
    return _grouped(engine, [(s, o) for s, o, valid_to in rows if _holds(valid_to, valid_at)])


def believed(engine: Engine, as_of: datetime, valid_at: datetime | None) -> tuple[list[Version], AliasGroups]:
    """The alias facts that join names at that moment, each as believed at ``as_of``, and the
    groups they make (what :func:`groups_at` answers, with the facts behind it)."""
    if not declared(engine):
        return [], AliasGroups()
    rows = engine.run("store/alias_versions", {"predicate": ALIAS, "as_of": to_engine(as_of)})
    rows = [row for row in rows if _holds(row[4]["valid_to"], valid_at)]
    unseen = questions.unseen_at(engine, as_of)
    found = [questions.as_believed_at(records.version(row), as_of, valid_at, unseen)
             for row in questions.with_bodies(engine, rows)]
    return found, _grouped(engine, [(v.subject_id, v.object_id) for v in found])


def group_of(engine: Engine, entity_id: str, as_of: datetime, valid_at: datetime | None,
             leaving_out: str | None = None) -> tuple[str, ...]:
    """``entity_id``'s group at that moment, its leader first (just the entity when it has no
    alias): walked alias by alias from the entity, never by reading every alias. ``leaving_out``: an
    alias version not counted (one being corrected)."""
    seen, pairs, todo = {entity_id}, [], [entity_id]
    while todo:
        entity = todo.pop()
        for other, valid_to, version in engine.run("store/alias_around",
                                                   {"id": entity, "predicate": ALIAS, "as_of": to_engine(as_of)}):
            if not _holds(valid_to, valid_at) or version == leaving_out:
                continue
            pairs.append((entity, other))
            if other not in seen:
                seen.add(other)
                todo.append(other)
    if not pairs:
        return (entity_id,)
    return alias_groups(pairs, first_seen(engine, seen)).of(entity_id)


def groups_among(engine: Engine, ids: Iterable[str], as_of: datetime, valid_at: datetime | None) -> AliasGroups:
    """The groups at that moment of the entities ``ids`` (each led by its entity seen first, as :func:`group_of`
    leads one): walked out from them, a batch of entities at a time, never by reading every alias. Members the walk
    finds beyond ``ids`` are in the groups too."""
    seen = set(ids)
    todo, pairs = sorted(seen), []
    while todo:
        rows = engine.run("store/alias_among", {"ids": todo, "predicate": ALIAS, "as_of": to_engine(as_of)})
        todo = []
        for entity, other, valid_to in rows:
            if not _holds(valid_to, valid_at):
                continue
            pairs.append((entity, other))
            if other not in seen:
                seen.add(other)
                todo.append(other)
        todo.sort()
    return _grouped(engine, pairs)


def links_between(engine: Engine, left: Iterable[str], right: Iterable[str]) -> list[tuple[str, str, str]]:
    """The believed facts other than aliases between an entity of ``left`` and one of ``right``."""
    others = sorted(set(right))
    found: list[tuple[str, str, str]] = []
    for entity in sorted(set(left)):
        for direction in ("store/links_out", "store/links_in"):
            found += [(s, p, o) for s, p, o in engine.run(
                direction, {"id": entity, "others": others, "predicate": ALIAS, "open": OPEN_END})]
    return found
