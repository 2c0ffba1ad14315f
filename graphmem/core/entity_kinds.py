"""Entity kinds: what a node is (person, place, organisation, ...), set by the user or inferred.

One rule, used by every view: a kind the user set (``Store.set_kind``) wins; otherwise the kind
is inferred from the predicates of the facts the entity takes part in (the object of
``lives_in`` is a place, of ``works_at`` an organisation, the subject of ``likes`` a person);
otherwise it is the kind the store gave it when it was created (``literal`` for numbers and
dates, ``entity`` for the rest). Pure functions: no database in sight.

Internal: read kinds with :meth:`graphmem.Store.kind_of`, set them with ``Store.set_kind``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol

from ..errors import InvalidInput
from ..models import Version
from .relations import RELATION_PREDICATES

__all__ = ["AUTO", "check_entity_kind", "effective_kinds", "kept_as_said", "kind_from_name", "stored_kind_problem"]

#: Kinds the store gives on creation; a user's kind or an inferred one replaces them.
AUTOMATIC = frozenset({"entity", "literal"})
#: Said to ``set_kind`` to forget a user's kind and infer again.
AUTO = "auto"
KIND_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_LITERAL = re.compile(r"^[-+]?\d+([.,]\d+)?$|^\d{4}-\d{2}(-\d{2})?")

PERSON, PLACE, ORGANISATION, THING, VALUE = "person", "place", "organisation", "thing", "value"

#: For each predicate, the kind it implies for its subject and for its object (None: nothing).
ROLES: dict[str, tuple[str | None, str | None]] = {
    "lives_in": (PERSON, PLACE),
    "born_in": (PERSON, PLACE),
    "moved_to": (PERSON, PLACE),
    "traveled_to": (PERSON, PLACE),
    "travelled_to": (PERSON, PLACE),
    "visited": (PERSON, PLACE),
    "works_at": (PERSON, ORGANISATION),
    "works_for": (PERSON, ORGANISATION),
    "studies_at": (PERSON, ORGANISATION),
    "graduated_from": (PERSON, ORGANISATION),
    "member_of": (PERSON, ORGANISATION),
    "married_to": (PERSON, PERSON),
    "knows": (PERSON, PERSON),
    "met": (PERSON, PERSON),
    "friend_of": (PERSON, PERSON),
    "sibling_of": (PERSON, PERSON),
    "parent_of": (PERSON, PERSON),
    "child_of": (PERSON, PERSON),
    "dates": (PERSON, PERSON),
    "dating": (PERSON, PERSON),
    "works_as": (PERSON, "role"),
    "plays": (PERSON, THING),
    "has_pet": (PERSON, "animal"),
    "owns": (PERSON, THING),
    "does": (PERSON, THING),
    "attended": (PERSON, THING),
    "likes": (PERSON, THING),
    "dislikes": (PERSON, THING),
    "is_called": (None, VALUE),
    "status": (None, VALUE),
    "located_in": (PLACE, PLACE),
}
#: Who is whose what ("Anna sister_of Maya"): a relation is between two people.
ROLES.update({predicate: (PERSON, PERSON) for predicate in RELATION_PREDICATES.values()})
#: Tie-break order when two kinds have the same number of votes.
ORDER = (PERSON, ORGANISATION, PLACE, THING, VALUE, "role", "animal")


def check_entity_kind(kind: str) -> str:
    """A kind name as given (lowercase, trimmed), or InvalidInput."""
    cleaned = kind.strip().lower() if isinstance(kind, str) else ""
    if not KIND_NAME.match(cleaned):
        raise InvalidInput(
            f"kind {kind!r} is not a valid name; use one lowercase word of at most 32 letters, "
            "digits, '-' or '_' (e.g. person, place, organisation), or 'auto' to infer it"
        )
    return cleaned


def kind_from_name(name: str) -> str:
    """The kind a new entity is stored with, from its name alone: 'literal' for numbers and dates,
    'entity' otherwise (what it is beyond that is inferred when read: :func:`effective_kinds`)."""
    return "literal" if _LITERAL.match(name.strip()) else "entity"


def stored_kind_problem(kind: str) -> str | None:
    """What is wrong with an entity's stored kind, or None: one that ``check_entity_kind`` gives (never
    ``auto``, which ``set_kind`` replaces by the kind the store would give)."""
    if not isinstance(kind, str) or not KIND_NAME.match(kind) or kind == AUTO:
        return f"the kind {kind!r} is not a valid kind (one lowercase word of at most 32 letters, digits, '-' or '_')"
    return None


def votes(roles: Iterable[tuple[str, str]]) -> Counter[str]:
    """Kind votes from (predicate, role) pairs, role 'subject' or 'object'."""
    found: Counter[str] = Counter()
    for predicate, role in roles:
        implied = ROLES.get(predicate, (None, None))[0 if role == "subject" else 1]
        if implied:
            found[implied] += 1
    return found


def choose(stored: str, counted: Counter[str]) -> str:
    """The kind shown for an entity: the user's, else the most voted, else the stored one
    (a literal, a number or a date, stays a literal whatever it is the object of)."""
    if stored != "entity" or not counted:
        return stored
    best = max(counted.values())
    return next(kind for kind in ORDER + tuple(sorted(counted)) if counted.get(kind) == best)


class Edge(Protocol):
    """What kinds are inferred from: a fact's endpoints and predicate (a stored version, say)."""

    @property
    def subject_id(self) -> str: ...
    @property
    def object_id(self) -> str: ...
    @property
    def predicate(self) -> str: ...


def kept_as_said(versions: Iterable[Version]) -> list[Version]:
    """``versions`` but those retracted: a mistake taken back says nothing of what an entity is ("Visited Nana
    Jean." read as a trip, then retracted, left her a place, and an alias of "Jean" was refused: a new user's);
    one superseded by a change still does (it was once believed), unless every version that superseded it was
    retracted in turn (a fact ended, then its ended version retracted: the whole of it taken back, a reviewer's)."""
    versions = list(versions)
    dropped = {v.id for v in versions if v.superseded_at is not None and v.reason}
    changed = bool(dropped)
    while changed:  # back along each chain: a version all of whose successors were taken back is taken back
        changed = False
        for v in versions:
            if v.id not in dropped and v.superseded_at is not None and v.superseded_by and \
                    set(v.superseded_by) <= dropped:
                dropped.add(v.id)
                changed = True
    return [v for v in versions if v.id not in dropped]


def effective_kinds(versions: Iterable[Edge], stored: dict[str, str],
                    same: Mapping[str, str] | None = None) -> dict[str, str]:
    """The kind of every entity in ``stored`` (id → stored kind), inferred from ``versions``.

    ``versions`` are any objects with ``subject_id``, ``object_id`` and ``predicate``: the
    facts a view shows, so a kind is inferred from what the reader sees. ``same``: the names of
    one entity (an alias's id → its group's leading id), which take one kind: the facts of every
    name vote, and a kind set by hand on one of them wins (the leading name's first). So Tom,
    "tommy" and "Sam's brother" are one person, though "tommy" alone says nothing of it.
    """
    one = same or {}
    roles: dict[str, list[tuple[str, str]]] = {}
    for version in versions:
        roles.setdefault(one.get(version.subject_id, version.subject_id), []).append((version.predicate, "subject"))
        roles.setdefault(one.get(version.object_id, version.object_id), []).append((version.predicate, "object"))
    group_kind: dict[str, str] = {}
    for entity_id, kind in stored.items():
        group, kind = one.get(entity_id, entity_id), kind or "entity"
        set_by_hand = kind not in AUTOMATIC
        if group not in group_kind or (set_by_hand and (group_kind[group] in AUTOMATIC or entity_id == group)):
            group_kind[group] = kind
    return {entity_id: choose(group_kind[group], votes(roles.get(group, ())))
            for entity_id, group in ((e, one.get(e, e)) for e in stored)}
