"""An inverted index over every fact version ever written and every episode, kept in memory.

Each version is a document of terms: the stems of its subject's, predicate's and object's words,
plus ``p:PREDICATE`` and ``e:ENTITY`` for its predicate and its two entities. Each episode is a
document of the stems of its text; a version's sentences are its supporting episodes. The index
holds every version with its transaction period and every episode with its receipt time, so a
question as of any moment is answered from it: a version counts at T when it was believed at T,
an episode when it was received by T.

Statistics as of T use only what was recorded by T (versions recorded by T, episodes received by
T): postings are kept in recording order, so a count as of T is a binary search, and a later write
never changes an earlier moment's statistics. Versions are added in recording order (each write is
later than the one before); anything else needs a rebuild.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..core.as_known import believed
from ..core.tables import by_name
from ..core.times import UTC
from ._text import name_terms, predicate_words, terms, tokens

if TYPE_CHECKING:
    from ..models import Version

__all__ = ["Doc", "INF", "Links", "OutOfOrder", "RecallIndex", "micros", "moment"]

#: An open end: later than any time (microseconds since the epoch, as every time here).
INF = 2 ** 62
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(value: datetime | None) -> int:
    """An aware time as whole microseconds since the epoch (exact); an open end (None) as INF."""
    if value is None:
        return INF
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def moment(value: int) -> datetime | None:
    """:func:`micros` back to an aware UTC time (INF: None)."""
    return None if value >= INF else _EPOCH + timedelta(microseconds=value)


class OutOfOrder(Exception):
    """A version or episode arrived earlier than one already indexed: the index must be rebuilt."""


@dataclass(slots=True)
class Doc:
    """One version as the index keeps it: its terms, and every field of the version (times in
    microseconds), so an answer is built without reading the store."""

    id: str
    subject_id: str
    object_id: str
    predicate: str
    valid_from: int
    valid_to: int
    recorded_at: int
    superseded_at: int
    fields: dict[str, int]
    length: int
    links: Links
    episodes: list[int] = field(default_factory=list)  # its supporting episodes (index positions)
    linked: list[int] = field(default_factory=list)  # when each was linked to it

    def believed(self, t: int) -> bool:
        return believed(self.recorded_at, self.superseded_at, t)

    def sentences(self, t: int) -> list[int]:
        """The supporting episodes linked to it by ``t``: an answer as of ``t`` shows only those."""
        return [j for j, at in zip(self.episodes, self.linked) if at <= t]

    @property
    def retracted(self) -> bool:
        return self.links.reason is not None


@dataclass(slots=True)
class Links:
    """What a version says about the writes around it: what it replaced and what replaced it."""

    supersedes: tuple[str, ...] = ()
    created_by: str = ""
    superseded_by: tuple[str, ...] = ()
    closed_by: str | None = None
    reason: str | None = None
    more: tuple[tuple[str, Any], ...] = ()  # any other stored field (:data:`MORE`), by name


#: The fields of a stored Fact the index does not hold for itself: carried along to the answers, so
#: a column declared in :mod:`graphmem.core.tables` reaches a search hit with nothing changed here.
MORE = tuple(c.source for c in by_name("Fact").columns if c.source not in {
    "id", "predicate", "valid_from", "valid_to", "recorded_at", "superseded_at", "episodes", "supersedes",
    "superseded_by", "created_by", "closed_by", "reason"})


@dataclass(slots=True)
class EpisodeDoc:
    """One episode as the index keeps it."""

    id: str
    received_at: int
    text: str
    terms: dict[str, int]
    length: int
    docs: list[int] = field(default_factory=list)


class RecallIndex:
    """Postings of terms to versions and episodes, with what each version needs for ranking."""

    def __init__(self) -> None:
        self.docs: list[Doc] = []
        self.doc_of: dict[str, int] = {}
        self.episodes: list[EpisodeDoc] = []
        self.episode_of: dict[str, int] = {}
        self.postings: dict[str, list[int]] = {}
        self.episode_postings: dict[str, list[int]] = {}
        self.entities: dict[str, tuple[str, str]] = {}  # id -> (name, kind)
        self.by_first_name: dict[str, set[str]] = {}  # a name's first word, of names of two or three -> their ids
        self._recorded: list[int] = []
        self._received: list[int] = []
        # the other times of each version too, as plain lists: filters read them in bulk
        self.superseded: list[int] = []
        self.valid_from: list[int] = []
        self.valid_to: list[int] = []

    # -- building ----------------------------------------------------------------------------------

    def add_entity(self, entity_id: str, name: str, kind: str = "entity") -> None:
        self.entities[entity_id] = (name, kind)
        words = name.split()
        if kind != "literal" and 2 <= len(words) <= 3 and all(w[:1].isupper() and w.isalpha() for w in words) and (
                first := tokens(words[0])):
            self.by_first_name.setdefault(first[0].word, set()).add(entity_id)  # "Kevin Kamau" by "Kevin"

    def add_episode(self, episode_id: str, text: str, received_at: int, words: list[str] | None = None) -> None:
        """Index an episode received at ``received_at`` (microseconds; no earlier than the last
        one indexed); known ids are skipped. ``words``: its text's :func:`terms`, when already read."""
        if episode_id in self.episode_of:
            return
        at = received_at
        if self._received and at < self._received[-1]:
            raise OutOfOrder(f"episode {episode_id} was received before the last indexed one")
        counted = Counter(terms(text) if words is None else words)
        index = len(self.episodes)
        self.episodes.append(EpisodeDoc(episode_id, at, text, dict(counted), sum(counted.values())))
        self.episode_of[episode_id] = index
        self._received.append(at)
        for term in counted:
            self.episode_postings.setdefault(term, []).append(index)

    def add_version(self, v: Version, linked_at: dict[str, int] | None = None) -> None:
        """Index a version (a :class:`graphmem.models.Version`), or update the one already indexed
        with the only things that change: its closing and its supporting episodes (each linked at
        ``linked_at[episode]``, or when the episode was received)."""
        self.add_fact(v.id, v.subject_id, v.subject, v.object_id, v.object, v.predicate, micros(v.valid_from),
                      micros(v.valid_to), micros(v.recorded_at), micros(v.superseded_at), v.episodes,
                      Links(tuple(v.supersedes), v.created_by, tuple(v.superseded_by), v.closed_by, v.reason,
                            tuple((name, getattr(v, name)) for name in MORE)), linked_at)

    def add_fact(self, version_id: str, subject_id: str, subject: str, object_id: str, obj: str, predicate: str,
                 valid_from: int, valid_to: int, recorded_at: int, superseded_at: int, episodes: Iterable[str],
                 links: Links, linked_at: dict[str, int] | None = None) -> None:
        """:meth:`add_version` over plain values (times in microseconds, open ends INF)."""
        known = self.doc_of.get(version_id)
        if known is not None:
            doc = self.docs[known]
            doc.superseded_at, doc.links = superseded_at, links
            self.superseded[known] = superseded_at
            self._link(known, episodes, linked_at)
            return
        if self._recorded and recorded_at < self._recorded[-1]:
            raise OutOfOrder(f"version {version_id} was recorded before the last indexed one")
        for entity_id, name in ((subject_id, subject), (object_id, obj)):
            self.entities.setdefault(entity_id, (name, "entity"))
        words = name_terms(subject) + predicate_words(predicate) + name_terms(obj)
        counted: dict[str, int] = {}
        for term in words:
            counted[term] = counted.get(term, 0) + 1
        length = len(words)
        counted[f"p:{predicate}"] = 1
        counted[f"e:{subject_id}"] = 1
        counted[f"e:{object_id}"] = 1
        index = len(self.docs)
        self.docs.append(Doc(version_id, subject_id, object_id, predicate, valid_from, valid_to, recorded_at,
                             superseded_at, counted, max(length, 1), links))
        self.doc_of[version_id] = index
        self._recorded.append(recorded_at)
        self.superseded.append(superseded_at)
        self.valid_from.append(valid_from)
        self.valid_to.append(valid_to)
        for term in counted:
            self.postings.setdefault(term, []).append(index)
        self._link(index, episodes, linked_at)

    def _link(self, index: int, episode_ids: Iterable[str], linked_at: dict[str, int] | None) -> None:
        doc = self.docs[index]
        for episode_id in episode_ids:
            position = self.episode_of.get(episode_id)
            if position is not None and position not in doc.episodes:
                doc.episodes.append(position)
                # A link made by a later write is seen from that write (the caller passes its time);
                # one a store made before link times were kept holds counts from the receipt.
                at = (linked_at or {}).get(episode_id, self.episodes[position].received_at)
                doc.linked.append(at)
                self.episodes[position].docs.append(index)

    # -- statistics as of a moment -----------------------------------------------------------------------

    def size(self, t: int) -> int:
        """Documents (versions and episodes) recorded by ``t``."""
        return bisect_right(self._recorded, t) + bisect_right(self._received, t)

    def doc_postings(self, term: str, t: int) -> list[int]:
        """The versions holding ``term`` that were recorded by ``t`` (a prefix of the postings)."""
        found = self.postings.get(term)
        if not found:
            return []
        recorded = self._recorded
        return found[:bisect_right(found, t, key=recorded.__getitem__)]

    def sentence_postings(self, term: str, t: int) -> list[int]:
        """The episodes whose text holds ``term`` that were received by ``t``."""
        found = self.episode_postings.get(term)
        if not found:
            return []
        received = self._received
        return found[:bisect_right(found, t, key=received.__getitem__)]

    def frequency(self, term: str, t: int) -> int:
        """How many documents recorded by ``t`` hold ``term`` (versions and episodes)."""
        found, sentences = self.postings.get(term), self.episode_postings.get(term)
        count = bisect_right(found, t, key=self._recorded.__getitem__) if found else 0
        if sentences:
            count += bisect_right(sentences, t, key=self._received.__getitem__)
        return count

    def passing(self, candidates: Iterable[int], t: int, low: int = -INF, high: int = INF) -> list[int]:
        """The candidates believed at ``t`` whose valid period overlaps ``[low, high)``."""
        recorded, superseded, starts, ends = self._recorded, self.superseded, self.valid_from, self.valid_to
        if low <= -INF and high >= INF:
            return [i for i in candidates if recorded[i] <= t < superseded[i]]
        return [i for i in candidates if recorded[i] <= t < superseded[i] and starts[i] < high and ends[i] > low]

    def believed_docs(self, entity_id: str, t: int) -> list[int]:
        """The versions touching an entity that were believed at ``t``."""
        return [i for i in self.doc_postings(f"e:{entity_id}", t) if self.docs[i].believed(t)]

    def has_believed(self, entity_id: str, t: int) -> bool:
        """True when some version touching the entity was believed at ``t``."""
        docs = self.docs
        return any(docs[i].believed(t) for i in reversed(self.doc_postings(f"e:{entity_id}", t)))

    def neighbours(self, entity_id: str, t: int) -> set[str]:
        """The entities one believed fact away from ``entity_id`` at ``t``."""
        found = set()
        for i in self.believed_docs(entity_id, t):
            doc = self.docs[i]
            found.add(doc.object_id if doc.subject_id == entity_id else doc.subject_id)
        found.discard(entity_id)
        return found

    def __len__(self) -> int:
        return len(self.docs)
