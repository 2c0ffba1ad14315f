"""What a question asks for, as read: its terms, the entities it names, its window in valid time,
and the phrases it resolved through facts.

Shared by the readers of a question (:mod:`._query`, :mod:`._kin`, :mod:`._event`) and the
ranking; plain data and the one way names in a question are looked up (:func:`name_at`).

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.aliases import ALIAS
from ._index import RecallIndex
from ._synonyms import SynonymHit
from ._text import Token, is_stop

__all__ = ["FIRST_PERSON", "MAX_NAME_WORDS", "Anchor", "Key", "Nearest", "Period", "Plan", "Resolution", "Term",
           "key_of", "name_at", "name_ending"]

MAX_NAME_WORDS = 6
#: The words that name the speaker, when known.
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"})

#: The store's key function: a name as the entity id it means (raises for a name that is none).
Key = Callable[[str], str]


@dataclass(frozen=True)
class Term:
    """One weighted term of a question: a word's stem, ``p:PREDICATE`` or ``e:ENTITY``."""

    key: str
    weight: float
    label: str  # what the question said

    @property
    def is_word(self) -> bool:
        return ":" not in self.key


@dataclass(frozen=True)
class Anchor:
    """An entity the question names (or reaches through a relation, ``via`` the named one)."""

    entity_id: str
    name: str
    said: str
    via: str | None = None


@dataclass(frozen=True)
class Period:
    """The valid-time filter a question's time phrase sets: ``[start, end)`` in microseconds.

    ``event``: set by an event the question names ("before he moved to Lisbon"), whose words
    still look for messages (a time phrase's words do not). ``against``: what the phrase was read
    against where that was not the question's moment; the answers' window says so."""

    start: int
    end: int
    text: str
    event: bool = False
    against: str = ""  # what the phrase was read against, where not the question's moment ("the last message, …")
    within: tuple[int, int] | None = None  # the phrase's own window, where "after" or "before" it widened the period


@dataclass(frozen=True)
class Resolution:
    """A phrase of the question resolved through a fact believed at the question's moment.

    ``relation``: "my sister" means ``entity_id``, by the fact ``doc``. ``event``: "before he
    moved to Lisbon" names the fact ``doc`` (about ``entity_id``, the object named), whose valid
    start (or end) ``edge`` bounds the window; ``doc`` None when no such fact is known (then
    nothing is assumed)."""

    kind: str  # "relation" or "event"
    phrase: str
    entity_id: str | None
    doc: int | None
    edge: int | None = None


@dataclass(frozen=True)
class Nearest:
    """"before/after <event>": the facts of the asked kind about ``people`` nearest ``edge`` on
    the asked side answer first (the event's own fact, ``skip``, is not one of them)."""

    people: frozenset[str]
    predicates: frozenset[str]
    edge: int
    before: bool
    skip: int

    def distance(self, subject_id: str, object_id: str, predicate: str, valid_from: int, valid_to: int,
                 doc: int) -> int | None:
        """How far a fact's valid period lies from the edge on the asked side, or None when it is
        not an answer (another kind, another person, the wrong side, the event itself)."""
        if doc == self.skip or predicate not in self.predicates or not (
                subject_id in self.people or object_id in self.people):
            return None
        if self.before:
            return self.edge - min(valid_to, self.edge) if valid_from < self.edge else None
        return max(valid_from, self.edge) - self.edge if valid_to > self.edge else None


@dataclass
class Plan:
    """What a question asks for, ready to rank."""

    text: str
    terms: list[Term] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    spans: dict[int, Anchor] = field(default_factory=dict)  # token position -> the anchor named there
    synonyms: list[SynonymHit] = field(default_factory=list)
    period: Period | None = None
    tense: str | None = None  # "past", "present", "future"
    resolved: list[Resolution] = field(default_factory=list)
    nearest: Nearest | None = None
    strangers: list[str] = field(default_factory=list)  # names written as names that no entity has ("Tom")

    @property
    def empty(self) -> bool:
        return not self.terms and not self.anchors

    @property
    def unresolved(self) -> bool:
        """True when the question names an event no fact believed then is known for."""
        return any(r.kind == "event" and r.doc is None for r in self.resolved)


def group_of(index: RecallIndex, entity_id: str, t: int, seen: set[str] | None = None) -> list[str]:
    """``entity_id`` and its other names believed at ``t`` (its aliases, walked alias by alias), it first.
    ``seen``: names found already, neither listed nor walked through again (each name found is added to it)."""
    seen = {entity_id} if seen is None else seen
    group, todo = [entity_id], [entity_id]
    while todo:
        entity = todo.pop()
        for i in index.believed_docs(entity, t):
            doc = index.docs[i]
            if doc.predicate == ALIAS:
                other = doc.object_id if doc.subject_id == entity else doc.subject_id
                if other not in seen:
                    seen.add(other)
                    group.append(other)
                    todo.append(other)
    return group


def key_of(key: Key, name: str | None) -> str | None:
    """The entity id ``name`` means, or None for a name the store's key function refuses."""
    if not name:
        return None
    try:
        return key(name)
    except Exception:  # the store's key function refuses it (empty, too long): not a name
        return None


def _entity(text: str, words: list[Token], first: int, last: int, index: RecallIndex, key: Key,
            t: int) -> str | None:
    if all(is_stop(words[j].word) for j in range(first, last)):
        return None
    entity_id = key_of(key, text[words[first].start:words[last - 1].end])
    entity = index.entities.get(entity_id) if entity_id else None
    if entity_id and entity is not None and entity[1] != "literal" and index.has_believed(entity_id, t):
        return entity_id
    return None


def name_at(text: str, words: list[Token], first: int, end: int, index: RecallIndex, key: Key,
            t: int) -> tuple[int, str] | None:
    """The longest run of words from ``first`` (before ``end``) that names an entity believed at
    ``t``: (the position after it, the entity's id), or None."""
    for size in range(min(MAX_NAME_WORDS, end - first), 0, -1):
        found = _entity(text, words, first, first + size, index, key, t)
        if found:
            return first + size, found
    return None


def name_ending(text: str, words: list[Token], last: int, index: RecallIndex, key: Key,
                t: int) -> tuple[int, str] | None:
    """The longest run of words ending at ``last`` (inclusive) that names an entity believed at
    ``t``: (its first position, the entity's id), or None."""
    for size in range(min(MAX_NAME_WORDS, last + 1), 0, -1):
        found = _entity(text, words, last - size + 1, last + 1, index, key, t)
        if found:
            return last - size + 1, found
    return None
