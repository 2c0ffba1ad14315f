"""Ranking facts for a question: BM25 over each fact and its sentences, anchored on entities.

Facts about the entities the question names come first, then facts about their one-hop
neighbours, then the rest. Within each tier, a fact's score is the sum, over the question's
terms, of the term's weight times its inverse document frequency times how well the fact holds
it: BM25's saturated term frequency in the fact's own words (subject, predicate, object), or, at
``SENTENCE_WEIGHT``, in the best of its supporting sentences. Entities the question names are
terms too (``e:ENTITY``), held by every fact about them; facts about their neighbours get
``NEIGHBOUR_WEIGHT`` of that. Predicates named through synonyms are ``p:PREDICATE`` terms. The
question's tense scales the score a little by the fact's status (current facts for "where
does", ended ones for "where did"). Ties go to status (current, upcoming, ended), then to the
most recent occurrence. A question asking "before/after <event>" puts first, among the named
entities' facts, those of the asked kind nearest the event on the asked side (:mod:`._event`). A question of a
time and nothing a fact holds ("what happened in March 2025") answers with the facts that began or ended then.

Statistics as of T come from what was recorded by T, so an answer as of T never changes after T.
With a limit, the named entities' facts are scored first (a few dozen for a person), and often fill
it; otherwise terms are visited from the most to the least telling and the search stops once the
terms left could not lift an unseen fact into the top (MaxScore), so a question over a large store
scores a few hundred facts, not every fact that shares a common word.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ._embed import fuse
from ._index import INF, Doc, RecallIndex
from ._plan import Plan

__all__ = ["Scored", "rank"]

K1 = 1.2
B = 0.75
AVERAGE_FIELDS = 4.0
AVERAGE_SENTENCE = 14.0
SENTENCE_WEIGHT = 0.6
NEIGHBOUR_WEIGHT = 0.5
#: Score factors by status, per tense of the question (None: no tense said).
STATUS_FACTOR = {
    None: {"current": 1.0, "upcoming": 0.95, "ended": 0.95},
    "present": {"current": 1.0, "upcoming": 0.9, "ended": 0.85},
    "past": {"current": 0.9, "upcoming": 0.85, "ended": 1.0},
    "future": {"current": 0.9, "upcoming": 1.0, "ended": 0.85},
}
_GROUP = {"current": 0, "upcoming": 1, "ended": 2}


@dataclass
class Scored:
    """One fact (an index document) with its score and what of the question it matched."""

    doc: int
    score: float
    status: str
    matched: list[str] = field(default_factory=list)  # term keys
    sentence: int | None = None  # the episode whose sentence matched best
    anchor: str | None = None  # for a fact about an anchor's neighbour: the anchor's name
    via: str | None = None  # and the neighbour's
    semantic: float | None = None  # cosine similarity with the question, when semantic ranking took part


#: The words by which a question names its speaker.
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})


def _saturation(tf: int, length: int, average: float) -> float:
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))


def _idf(frequency: int, size: int) -> float:
    return math.log(1 + (size - frequency + 0.5) / (frequency + 0.5))


class _Ranker:
    def __init__(self, index: RecallIndex, plan: Plan, t: int, valid_at: int | None, low: int, high: int,
                 events: frozenset[str]):
        self.index, self.plan, self.t = index, plan, t
        self.valid_at, self.low, self.high, self.events = valid_at, low, high, events
        size = max(index.size(t), 1)
        self.terms = []  # (key, weight, idf, is_word)
        for term in plan.terms:
            frequency = index.frequency(term.key, t)
            if frequency:
                self.terms.append((term.key, term.weight, _idf(frequency, size), term.is_word))
        self.factor = STATUS_FACTOR.get(plan.tense, STATUS_FACTOR[None])
        self.neighbours: dict[str, str] = {}  # neighbour id -> the anchor's name
        self.neighbour_idf = 0.0
        anchors = self.anchors = {a.entity_id for a in plan.anchors}
        #: The anchors only "I", "my", "our" name (the speaker), and whether the question has words besides names.
        self.pronoun_anchors = {a.entity_id for a in plan.anchors if a.said.strip().lower() in _FIRST_PERSON} - {
            a.entity_id for a in plan.anchors if a.said.strip().lower() not in _FIRST_PERSON}
        self.has_words = any(is_word for *_, is_word in self.terms)
        for anchor in plan.anchors:
            idf = next((idf for key, _, idf, _ in self.terms if key == f"e:{anchor.entity_id}"), 0.0)
            self.neighbour_idf = max(self.neighbour_idf, idf)
            for other in index.neighbours(anchor.entity_id, t):
                if other not in anchors:
                    self.neighbours.setdefault(other, anchor.name)

    def status(self, doc: Doc) -> str | None:
        """The fact's status at t, or None when it is not believed then or outside the filters."""
        if not doc.believed(self.t):
            return None
        if self.valid_at is not None and not (doc.valid_from <= self.valid_at < doc.valid_to):
            return None
        if not (doc.valid_from < self.high and doc.valid_to > self.low):
            return None
        moment = self.t if self.valid_at is None else self.valid_at
        if moment < doc.valid_from:
            return "upcoming"
        return "ended" if doc.valid_to <= moment else "current"

    def score(self, i: int) -> Scored | None:
        index = self.index
        doc = index.docs[i]
        status = self.status(doc)
        if status is None:
            return None
        sentences = doc.sentences(self.t)
        total, matched, best, best_count = 0.0, [], None, 0
        counts: dict[int, int] = {}
        for key, weight, idf, is_word in self.terms:
            tf = doc.fields.get(key)
            # a fact is about an entity or of a predicate, or not: no length to weigh that by
            part = (_saturation(tf, doc.length, AVERAGE_FIELDS) if is_word else 1.0) if tf else 0.0
            if is_word:
                for j in sentences:
                    episode = index.episodes[j]
                    tf = episode.terms.get(key)
                    if tf:
                        counts[j] = counts.get(j, 0) + 1
                        part = max(part, SENTENCE_WEIGHT * _saturation(tf, episode.length, AVERAGE_SENTENCE))
            if part:
                total += weight * idf * part
                matched.append(key)
        for j, count in counts.items():
            if count > best_count:
                best, best_count = j, count
        anchor = via = None
        if self.neighbours and not any(key.startswith("e:") for key in matched):
            other = doc.subject_id if doc.subject_id in self.neighbours else doc.object_id
            anchor = self.neighbours.get(other)
            if anchor is not None:
                via = index.entities.get(other, (other, ""))[0]
                total += NEIGHBOUR_WEIGHT * self.neighbour_idf
        if not total:
            return None
        if best is None and sentences:
            best = sentences[0]
        return Scored(i, total * self.factor[status], status, matched, best, anchor, via)

    def tier(self, item: Scored) -> int:
        """0 for a fact about a named entity, 1 for one about a neighbour of one, 2 for the rest; a fact about the
        speaker only as "I", "my", "our" say them, matching no other word of a question that has some, is of the rest
        ("who is our flour supplier" put every fact of the speaker's above the supplier's: a developer's)."""
        doc = self.index.docs[item.doc]
        if named := self.anchors & {doc.subject_id, doc.object_id}:
            if named <= self.pronoun_anchors and self.has_words and all(key.startswith("e:") for key in item.matched):
                return 2
            return 0
        return 1 if doc.subject_id in self.neighbours or doc.object_id in self.neighbours else 2

    def bounds(self) -> list[tuple[float, str, float]]:
        """(upper bound of a term's contribution, term key or the neighbour marker) per term."""
        found = [(weight * idf * (K1 + 1), key, idf) for key, weight, idf, _ in self.terms]
        if self.neighbours:
            found.append((NEIGHBOUR_WEIGHT * self.neighbour_idf * (K1 + 1), "", 0.0))
        return sorted(found, reverse=True)

    def candidates(self, key: str) -> list[int]:
        index = self.index
        if not key:  # the anchors' neighbours
            found = []
            for other in self.neighbours:
                found.extend(index.doc_postings(f"e:{other}", self.t))
            return found
        found = list(index.doc_postings(key, self.t))
        if ":" not in key:  # the facts a sentence supports (the link's time is checked when scoring)
            for j in index.sentence_postings(key, self.t):
                found.extend(index.episodes[j].docs)
        return found

    def nearest(self, item: Scored) -> tuple[int, int]:
        """(0, distance) for a fact that answers "before/after <event>", nearest first; (1, 0) else."""
        nearest = self.plan.nearest
        if nearest is None:
            return (1, 0)
        doc = self.index.docs[item.doc]
        distance = nearest.distance(doc.subject_id, doc.object_id, doc.predicate, doc.valid_from, doc.valid_to,
                                    item.doc)
        return (1, 0) if distance is None else (0, distance)

    def order(self, item: Scored) -> tuple[tuple[int, int], float, int, int, int, str]:
        doc = self.index.docs[item.doc]
        occurrence = doc.valid_from
        if item.status == "ended" and doc.predicate not in self.events and doc.valid_to != INF:
            occurrence = doc.valid_to
        return (self.nearest(item), -item.score, _GROUP[item.status], -occurrence, -doc.valid_from, doc.id)


def rank(index: RecallIndex, plan: Plan, t: int, *, valid_at: int | None = None, low: int = -INF,
         high: int = INF, limit: int | None = 10, events: frozenset[str] = frozenset(),
         similarity: dict[int, float] | None = None, depth: int = 50) -> list[Scored]:
    """The facts believed at ``t`` (valid at ``valid_at``, overlapping ``[low, high)`` and the
    plan's period) that match the plan, best first; at most ``limit`` (None: all).

    Facts about the entities the question names come first, then facts about their one-hop
    neighbours, then the rest; relevance orders each tier. With ``similarity`` (a fact's cosine
    similarity with the question, by document), the keyword ranking's first ``depth`` facts and
    the ``depth`` most similar facts are fused by reciprocal rank fusion: the fused value is the
    score, and orders each tier.
    """
    if plan.period is not None:
        low, high = max(low, plan.period.start), min(high, plan.period.end)
    ranker = _Ranker(index, plan, t, valid_at, low, high, events)
    if similarity is None:
        return _keywords(ranker, limit)
    keyword = _keywords(ranker, None if limit is None else max(limit, depth))
    allowed = [i for i in similarity if ranker.status(index.docs[i]) is not None]
    semantic = sorted(allowed, key=lambda i: (-similarity[i], index.docs[i].id))[:depth if limit else None]
    fused = fuse([[(s.doc, s.score) for s in keyword], [(i, similarity[i]) for i in semantic]])
    place = {s.doc: position for position, s in enumerate(keyword)}
    found = []
    for i, value in fused.items():
        item = keyword[place[i]] if i in place else ranker.score(i)
        if item is None:  # similar in meaning, no word in common
            doc = index.docs[i]
            sentences = doc.sentences(t)
            status = ranker.status(doc)
            assert status is not None  # only facts believed and within the filters are fused
            item = Scored(i, 0.0, status, [], sentences[0] if sentences else None)
        item.score, item.semantic = value, similarity.get(i)
        found.append(item)
    # the named entities' facts still come first, then their neighbours': meaning reorders within
    found.sort(key=lambda s: (ranker.tier(s), ranker.nearest(s), -s.score, place.get(s.doc, len(place)),
                              index.docs[s.doc].id))
    return found if limit is None else found[:limit]


def _keywords(ranker: _Ranker, limit: int | None) -> list[Scored]:
    index, plan, t = ranker.index, ranker.plan, ranker.t
    low, high = ranker.low, ranker.high
    if ranker.valid_at is not None:  # valid at one moment: the period [V, V]
        low, high = max(low, ranker.valid_at), min(high, ranker.valid_at + 1)
    seen: set[int] = set()
    tiers: list[list[Scored]] = [[], [], []]

    def visit(candidates: Iterable[int], tier: int) -> None:
        # a fact comes once however often it is a candidate (by its own words and by a sentence
        # of its, or as the fact between two neighbours): one entry for it in the ranking
        fresh = [i for i in dict.fromkeys(candidates) if i not in seen]
        seen.update(fresh)
        for i in index.passing(fresh, t, low, high):  # in bulk: most candidates of a common term fail
            scored = ranker.score(i)
            if scored is not None:
                tiers[ranker.tier(scored) if tier == 0 else tier].append(scored)  # (an anchor's own, or of the rest)

    def enough() -> bool:  # (before the words are visited: what is of the rest then waits for them)
        return limit is not None and len(tiers[0]) + len(tiers[1]) >= limit

    for anchor in plan.anchors:
        visit(index.doc_postings(f"e:{anchor.entity_id}", t), 0)
    if ranker.neighbours and not enough():
        visit(ranker.candidates(""), 1)
    if not enough():
        wanted = None if limit is None else limit - len(tiers[0]) - len(tiers[1])
        bounds = [b for b in ranker.bounds() if b[1]]  # the neighbours were visited above
        for position, (_, key, _) in enumerate(bounds):
            visit(ranker.candidates(key), 2)
            if wanted is not None and len(tiers[2]) >= wanted:
                rest = sum(bound for bound, _, _ in bounds[position + 1:])
                kth = sorted((s.score for s in tiers[2]), reverse=True)[wanted - 1]
                if rest < kth:
                    break
    found = []
    for tier in tiers:
        tier.sort(key=ranker.order)
        found.extend(tier)
    if not found and plan.period is not None and not plan.anchors:
        found = _happened(ranker)
    return found if limit is None else found[:limit]


def _happened(ranker: _Ranker) -> list[Scored]:
    """A question of a time and nothing a fact holds ("what happened in March 2025", a new user's, answered with
    nothing): the facts that began or ended in its window, a change rather than a state that lasted through it, in
    the ranking's order (the latest first). One pass over the index's facts, for such questions only (about 7 ms
    per 100,000 facts)."""
    assert ranker.plan.period is not None
    start, end = ranker.plan.period.start, ranker.plan.period.end
    found = []
    for i, doc in enumerate(ranker.index.docs):
        if not (start <= doc.valid_from < end or start <= doc.valid_to < end):
            continue
        status = ranker.status(doc)
        if status is not None:
            sentences = doc.sentences(ranker.t)
            found.append(Scored(i, 1.0, status, [], sentences[0] if sentences else None))
    found.sort(key=ranker.order)
    return found
