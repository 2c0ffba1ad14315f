"""Names of one entity: the ``alias_of`` facts, the groups they make, and which alias is refused.

``Mel -[alias_of]-> Melanie`` says that "Mel" and "Melanie" name one entity. It is a fact like any
other (asserted, ended and retracted, with its episode), so which names are one is itself believed
at a moment: every read groups the entities by the aliases believed at its moment, and nothing
stored is rewritten. The rules, as pure functions:

- **Symmetric and transitive.** The direction an alias was said in does not matter; Mel ~ Melanie
  and Melanie ~ Mel Ortiz make one group of three.
- **One name leads.** A group is shown under its earliest entity: the one whose first version was
  recorded first (ties: the smaller id). Its id is the group's id wherever one node stands for the
  group (Cypher as of a date); every fact still shows the name it was stated under.
- **Valid time.** An alias names the entity from before it was said: its valid start is not
  consulted. Ending it (a valid end) stops it joining the names at valid moments from that end on;
  a read over every valid time uses every alias believed at its moment.
- **Refused.** An entity is not an alias of itself; a value (a number, a date) is no one's name, nor
  is whose relative someone is ("my sister", "your mum": another person to each speaker, found
  through relation facts), nor a relation word alone as a name of an unnamed relative's stand-in
  ("mum" of "Jess's mother"); two entities of different settled kinds (a person and a place) are not one; and two groups
  that a believed fact links as two (Mel ``sister_of`` Maya) are not joined: one person cannot
  be their own sister.

Internal: the Store's alias writes and every read use these; users see ``alias_of`` facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .relations import is_stand_in, predicate_of, relative_word

__all__ = ["ALIAS", "NAMING", "AliasGroups", "alias_groups", "alias_problem", "clashes"]

#: The predicate that says two names are one entity.
ALIAS = "alias_of"
#: Predicates that give their subject a name ("Owen is_called Oz"): a believed one says the two are one, never two.
NAMING = frozenset({"is_called"})
#: Kinds that say what an entity is; two different ones are never one entity.
SETTLED_KINDS = frozenset({"person", "place", "organisation"})


@dataclass(frozen=True)
class AliasGroups:
    """Entities grouped by the aliases believed at one moment: only groups of two or more are kept."""

    #: Each grouped entity's group id (the group's leading entity).
    leader: dict[str, str] = field(default_factory=dict)
    #: Each group's entities, the leader first, then by first appearance.
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def lead(self, entity_id: str) -> str:
        """The id of the group ``entity_id`` is in (itself when it has no alias)."""
        return self.leader.get(entity_id, entity_id)

    def of(self, entity_id: str) -> tuple[str, ...]:
        """Every entity of ``entity_id``'s group, the leader first (just itself when it has no alias)."""
        return self.members.get(self.lead(entity_id), (entity_id,))

    def __bool__(self) -> bool:
        return bool(self.members)


def alias_groups(pairs: Iterable[tuple[str, str]], first_seen: Mapping[str, datetime]) -> AliasGroups:
    """The groups the alias ``pairs`` (entity ids, either order) make, each led by the entity seen
    first (``first_seen``: the recording time of each entity's first version; ties and entities
    not in it: the smaller id)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    grouped: dict[str, list[str]] = {}
    for entity in parent:
        grouped.setdefault(root(entity), []).append(entity)
    leader: dict[str, str] = {}
    members: dict[str, tuple[str, ...]] = {}
    for group in grouped.values():
        if len(group) < 2:
            continue
        ordered = sorted(group, key=lambda e: (first_seen.get(e) is None, first_seen.get(e) or datetime.min, e))
        members[ordered[0]] = tuple(ordered)
        leader.update((e, ordered[0]) for e in ordered)
    return AliasGroups(leader, members)


def alias_problem(subject: str, obj: str, groups: AliasGroups, kinds: Mapping[str, str],
                  names: Mapping[str, str], links: Iterable[tuple[str, str, str]],
                  relations: Mapping[str, Iterable[str]] | None = None,
                  signs: Callable[[str], bool] | None = None) -> str | None:
    """Why asserting ``subject alias_of obj`` (entity ids) must be refused, or None.

    ``groups`` are the aliases believed now, ``kinds`` each entity's kind as views show it, ``names``
    each entity's name, and ``links`` the believed facts ``(subject, predicate, object)`` other than
    aliases between the two groups' entities: each keeps the two apart, but one naming its subject
    (:data:`NAMING`: "Owen is_called Oz"); ``relations``: the relation words each entity is believed
    to be of someone ("mother" of Ann, `Ann mother_of Jess`), which make "Mum" whose relative she is; ``signs``,
    whether an entity's name signs messages, asked only of a relation word: a name a chat gives its writer is theirs
    ("Mum", a phone's contact in a family group chat, is one person to every reader of it): one word, joined to one
    relative's stand-in at most ("Dad" is not both "Maya's father" and "Sam's father").
    """
    def name(entity: str) -> str:
        return names.get(entity, entity)

    if subject == obj:
        return f"{name(subject)} is already {name(obj)}: an entity is not an alias of itself"
    for entity in (subject, obj):
        if kinds.get(entity) == "literal":
            return f"{name(entity)} is a value, not a name"
    left, right = set(groups.of(subject)), set(groups.of(obj))
    held = relations or {}
    one_stand_in = sum(is_stand_in(name(e)) for e in left | right) <= 1  # "Mum" of one stand-in, not of "Maya's
    # father" and "Sam's father" both (a reviewer's)
    for mine, theirs in ((left, right), (right, left)):  # every name each side goes by (a reviewer's: "Mum" of Ann,
        for entity in sorted(mine):  # once Ann is another name of "Jess's mother")
            for other in sorted(theirs):
                if (word := relative_word(name(entity), name(other), held.get(other, ()))) is not None:
                    if signs is not None and one_stand_in and len(name(entity).split()) == 1 and signs(entity):
                        break  # a writer's own name, no relation word of theirs
                    said = word.replace("_", "-")
                    return (f"{name(entity)} is a word for a relation ({said}), another person to each speaker, not a "
                            f"name: record whose it is instead ({_a(predicate_of(word))} fact), and \"my {said}\" "
                            "asked by them is found through it")
    if left & right:
        return None  # already one: saying it again adds evidence, not a join
    for a in sorted(left):
        for b in sorted(right):
            ka, kb = kinds.get(a), kinds.get(b)
            if ka in SETTLED_KINDS and kb in SETTLED_KINDS and ka != kb:
                return (f"{name(a)} is {_a(ka)} and {name(b)} {_a(kb)}: they cannot be one entity "
                        f"(set the right kind first if one is wrong)")
    for s, predicate, o in links:
        if predicate not in NAMING and ((s in left and o in right) or (s in right and o in left)):
            return (f"{name(s)} {predicate} {name(o)} is believed, so they are two: "
                    f"end or retract that fact first if they are one")
    return None


def _a(kind: str) -> str:
    """A kind with its article: "a place", "an organisation"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def clashes(versions: Iterable[Any], groups: AliasGroups, kinds: Mapping[str, str]) -> list[tuple[Any, Any]]:
    """The pairs of believed ``versions`` of a ``one`` predicate (``kinds``: predicate -> kind)
    stated under two names of one group whose valid periods overlap and whose objects are not one:
    "Mel lives_in Paris" beside "Melanie lives_in Berlin". Nothing is closed for them: they are for
    a person to review. ``versions`` are anything with a Version's ids, predicate and valid times.
    """
    by_key: dict[tuple[str, str], list[Any]] = {}
    for v in versions:
        if kinds.get(v.predicate) == "one" and v.subject_id in groups.leader:
            by_key.setdefault((groups.lead(v.subject_id), v.predicate), []).append(v)
    found = []
    for held in by_key.values():
        held.sort(key=lambda v: v.id)
        for i, a in enumerate(held):
            for b in held[i + 1:]:
                if a.subject_id == b.subject_id or groups.lead(a.object_id) == groups.lead(b.object_id):
                    continue
                overlap = (a.valid_to is None or b.valid_from < a.valid_to) and (
                    b.valid_to is None or a.valid_from < b.valid_to)
                if overlap:
                    found.append((a, b))
    return found
