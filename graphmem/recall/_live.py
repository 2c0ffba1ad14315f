"""The recall index of one open store, kept in step with the store's writes.

This is the seam between :class:`graphmem.Store` and the pure recall modules. It receives the
store's engine and key function; the store tells it, after each committed write, what the write
touched (:meth:`LiveIndex.written`), and passes its settings when it searches, so the index is
brought up to date incrementally: the versions a write created, closed or linked to an episode are
fetched by id, and the episodes it recorded. It is built from the whole store on first use, and
again only when the store changed in a way a delta cannot describe: a purge, a restore, a store
reopened under it, or writes it was not told of that it cannot follow from the write log.

Internal: part of :class:`graphmem.Store`.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, tzinfo

from ..core import records
from ..core.aliases import ALIAS
from ..core.entity_kinds import PERSON, ROLES, kind_from_name
from ..core.times import TICK, from_engine
from ..engine import Engine
from ..extract import EVENTS
from ..models import Decision, Version
from ..read import questions
from ..when import resolve_times
from . import _answers
from ._embed import Embedder, EmbeddingFailed
from ._index import INF, MORE, Doc, Links, OutOfOrder, RecallIndex, micros, moment
from ._messages import MessageIndex, column_micros
from ._models import Answer, Hit, Matched, Resolved, SynonymUsed
from ._plan import group_of
from ._query import FIRST_PERSON, Plan, parse
from ._rank import Scored, rank
from ._synonyms import Table
from ._vectors import VectorSet

__all__ = ["LiveIndex", "says_your"]

#: A marker in the engine's cache, made once per cache: a new one means the engine's cache was
#: cleared (a write undone, or the engine reopened by a purge, restore or compaction).
#: Changes held for the next search before a rebuild is cheaper.
MAX_PENDING = 50_000
#: Up to this many versions (or episodes) are fetched one by one by key; more, in bulk.
FEW = 32
_CHUNK = 2_000
#: How many messages a search without a limit returns at most.
MESSAGES = 1_000


#: What identifies a state of the store's log: its latest write and the id counters of versions,
#: episodes and tombstones (each None before the first).
Fingerprint = tuple[str | None, str | None, str | None, str | None]


def fingerprint(meta: Mapping[str, str]) -> Fingerprint:
    """What identifies a state of the store's log: the latest write and the id counters."""
    return meta.get("last_write"), meta.get("seq:v"), meta.get("seq:ep"), meta.get("seq:t")


class LiveIndex:
    """A :class:`RecallIndex` over one store's engine, with the changes it has yet to apply."""

    def __init__(self, engine: Engine, key: Callable[[str], str]):
        self.engine = engine
        self.key = key
        self.index: RecallIndex | None = None
        self.state: Fingerprint | None = None
        self.epoch: int | None = None  # the engine's generation the index was read from
        self.versions: set[str] = set()  # to fetch and apply
        self.episodes: set[str] = set()
        self.vectors: dict[str, VectorSet] = {}  # by model, loaded on the first semantic search
        self.builds = 0  # how many times the index was built from the whole store

    # -- told by the store --------------------------------------------------------------------------

    def written(self, previous: str | None, meta: Mapping[str, str], decisions: Iterable[Decision],
                linked: Iterable[str]) -> None:
        """A write committed (the store's latest write was ``previous`` before it; its settings
        are ``meta`` after): remember what it touched, to apply at the next search."""
        if self.index is None:
            return
        decisions = list(decisions)
        if self.state is None or self.state[0] != previous or any(d.op == "PURGE" for d in decisions):
            self.index = None  # writes we were not told of, or content removed: build again
            return
        self._remember(decisions, linked)
        self.state = fingerprint(meta)

    def _remember(self, decisions: Iterable[Decision], linked: Iterable[str]) -> None:
        for decision in decisions:
            self.versions.update(decision.created)
            self.versions.update(decision.closed)
            if decision.episode:
                self.episodes.add(decision.episode)
        self.versions.update(linked)
        if len(self.versions) + len(self.episodes) > MAX_PENDING:
            self.index = None

    def forget(self) -> None:
        """Drop the index (it is built again on the next search)."""
        self.index = None
        self.versions.clear()
        self.episodes.clear()
        self.vectors.clear()

    def embedded(self, model: str, ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        """Vectors were stored for these versions or episodes."""
        if model in self.vectors:
            self.vectors[model].add(ids, vectors)

    # -- brought up to date --------------------------------------------------------------------------

    def current(self, meta: Mapping[str, str], messages: MessageIndex | None = None) -> RecallIndex:
        """The index, up to date with the store whose settings are ``meta`` (hold the engine's lock);
        a ``messages`` index up to date with it lends a build the words of the episodes it holds."""
        state = fingerprint(meta)
        epoch = self.engine.generation
        reopened = epoch != self.epoch
        if self.index is not None and state != self.state:
            self._catch_up(state, reopened)
        index = self.index
        if index is None or (reopened and state != self.state):
            index = self._build(state, messages)
        try:
            self._apply(index)
        except OutOfOrder:
            index = self._build(state, messages)
        self.epoch = epoch
        return index

    def _catch_up(self, state: Fingerprint, reopened: bool) -> None:
        """Follow writes made without telling us (another Store on this engine, an import)."""
        known = self.state
        since = known[0] if known else None
        latest = state[0]
        if reopened or known is None or since is None or latest is None or state[3] != known[3]:
            self.index = None
            return
        after = datetime.fromisoformat(since.replace("Z", "+00:00"))
        decisions = questions.decisions(self.engine, after=after)
        if any(d.op == "PURGE" for d in decisions) or latest < since:
            self.index = None
            return
        linked: set[str] = set()
        for decision in decisions:
            if decision.op == "NOOP" and decision.episode:
                rows = self.engine.run("store/episode_versions", {"episode": decision.episode})
                linked.update(records.version(r).id for r in rows)
        self._remember(decisions, linked)
        self.state = state

    def _apply(self, index: RecallIndex) -> None:
        new_episodes = sorted(e for e in self.episodes if e not in index.episode_of)
        if len(new_episodes) <= FEW:  # by key: a bulk query scans the table
            found_episodes = [records.episode(r) for e in new_episodes
                              for r in self.engine.run("store/episode_get_one", {"id": e})]
        else:
            found_episodes = questions.episodes(self.engine, new_episodes)
        for episode in sorted(found_episodes, key=lambda e: (e.received_at, _number(e.id))):
            index.add_episode(episode.id, episode.text, micros(episode.received_at))
        ids = sorted(self.versions, key=_number)
        found: list[Version] = []
        if len(ids) <= FEW:
            found = [v for v in (questions.version(self.engine, i) for i in ids) if v is not None]
        for start in range(0, len(ids) if len(ids) > FEW else 0, _CHUNK):
            rows = self.engine.run("store/fact_by_ids", {"ids": ids[start:start + _CHUNK]})
            found.extend(records.version(r) for r in rows)
        for version in sorted(found, key=lambda v: (v.recorded_at, _number(v.id))):
            for entity_id, name in ((version.subject_id, version.subject), (version.object_id, version.object)):
                if entity_id not in index.entities:
                    index.add_entity(entity_id, name, kind_from_name(name))
            index.add_version(version, {episode: micros(from_engine(at)) for episode, at in
                                        self.engine.run("store/link_of", {"version": version.id})})
        self.versions.clear()
        self.episodes.clear()

    def _build(self, state: Fingerprint, messages: MessageIndex | None = None) -> RecallIndex:
        """Index every version and episode of the store (kept as the index, and returned). The
        words of an episode the message index holds with the same text are taken from it, not
        read again from the text (~50 us a message: 25 s for 500k)."""
        index = RecallIndex()
        for entity_id, name, kind in self.engine.run("store/entity_all"):
            index.add_entity(entity_id, name, kind)
        episodes = self.engine.arrow("recall/episodes_all")
        received = column_micros(episodes.column("received_at"))
        ids = episodes.column("id").to_pylist()
        texts = episodes.column("text").to_pylist()
        known = messages.own_words() if messages is not None else {}
        for i in sorted(range(len(ids)), key=lambda i: (received[i], _number(ids[i]))):
            held = known.get(ids[i])
            if held is not None and held[0] == texts[i]:
                index.add_episode(ids[i], texts[i], received[i], held[1])
            else:
                index.add_episode(ids[i], texts[i], received[i])
        facts = self.engine.arrow("recall/facts_all")
        rows = list(zip(
            *(facts.column(name).to_pylist() for name in ("id", "subject_id", "subject", "object_id", "object",
                                                           "predicate")),
            *(column_micros(facts.column(name)) for name in ("valid_from", "valid_to", "recorded_at", "superseded_at")),
            *(facts.column(name).to_pylist() for name in ("episodes", "supersedes", "created_by", "superseded_by",
                                                           "closed_by", "reason")),
            zip(*(facts.column(name).to_pylist() for name in MORE)) if MORE else [()] * facts.num_rows,
        ))
        rows.sort(key=lambda r: (r[8], _number(r[0])))  # recording order
        linked: dict[str, dict[str, int]] = {}  # version -> episode -> when a later write linked it
        for link in questions.links(self.engine):
            linked.setdefault(link.version, {})[link.episode] = micros(link.at)
        for (vid, sid, subject, oid, obj, predicate, start, end, recorded, superseded, episodes, supersedes,
             created_by, superseded_by, closed_by, reason, more) in rows:
            index.add_fact(vid, sid, subject, oid, obj, predicate, start, end, recorded, superseded, episodes or (),
                           Links(tuple(supersedes or ()), created_by or "", tuple(superseded_by or ()), closed_by,
                                 reason, tuple(zip(MORE, more))), linked.get(vid))
        self.index, self.state = index, state
        self.versions.clear()
        self.episodes.clear()
        self.vectors.clear()  # a purge or restore may have removed some
        self.builds += 1
        return index


    # -- searching ------------------------------------------------------------------------------------

    def search(self, meta: Mapping[str, str], text: str, *, as_of: datetime, valid_at: datetime | None = None,
               after: datetime | None = None, before: datetime | None = None, limit: int | None = 10,
               synonyms: Table, tz: tzinfo, speaker: str | None = None, events: frozenset[str] = frozenset(),
               embedder: Embedder | None = None, messages: MessageIndex | None = None,
               participants: MessageIndex | None = None, chat_time: bool = False) -> list[Answer]:
        """The facts believed at ``as_of`` that best answer ``text``, best first (see :mod:`graphmem.recall`);
        with ``messages``, the messages received by then too, ranked together (:mod:`._answers`). Without them,
        ``participants`` (the same index) tells only who "your" means: the other person of the chat then.

        With an ``embedder``, the question's vector is compared with the stored ones and that
        ranking fused with the keyword ranking; if the endpoint fails, keywords alone answer.

        With ``chat_time`` (a question asked with no moment of its own) of a store whose last message was said more
        than :data:`QUIET` before ``as_of`` (a chat replayed), a time phrase whose window, read against ``as_of``, is
        wholly past and begins after that message ("in april", asked in December 2026 of a chat whose last message is
        of October 2025) is read against just after that message instead (:meth:`_asked_after`). A store talked to
        lately keeps its phrases' present: "december", "this month", "today" (a reviewer's).
        """
        query = None
        if embedder is not None:
            try:  # before taking the lock: the endpoint may be slow
                query = embedder.embed([text])[0]
            except EmbeddingFailed as exc:
                warnings.warn(f"{exc}; answering with keywords alone", RuntimeWarning, stacklevel=3)
        with self.engine.lock:  # no write lands between bringing the index up to date and reading it
            told = messages if messages is not None else participants
            if told is not None:
                told.sync(self.engine, meta, tz)
            index = self.current(meta, messages)
            t = micros(as_of)
            listener = _listener(told, text, speaker, t, self.key)
            plan = parse(text, index, synonyms, self.key, t, lambda q: resolve_times(q, as_of, tz=tz), speaker,
                         listener)
            low, high = (plan.period.within or (plan.period.start, plan.period.end)) if plan.period else (0, 0)
            if chat_time and told is not None and plan.period is not None and not plan.period.event and \
                    high <= t and (last := told.last_said(t)) is not None and low > last and t - last > QUIET:
                # (an "after" or "before" window by the phrase it widened: a reviewer's "after last june")
                plan = self._asked_after(text, index, synonyms, t, speaker, listener, tz, last) or plan
            resolved = _resolved(index, plan)
            answering = frozenset(r.fact for _, r in resolved if r.kind == "relation" and r.fact
                                  and _answers.asks_who(text, r.phrase))  # "who is nadia's boss": that fact first
            similarity = (None if query is None or embedder is None
                          else self._similarity(index, embedder.model, query, t))
            # each list read deeper than asked, so the first answers of a search are those of a longer one (a "when"
            # question orders its first WHEN_REACH answers; a message a fact cites is not listed twice; a who
            # question's answering fact comes first; an alias fact goes after the others: with facts alone too, where
            # "--limit 3" listed an alias fact that "--limit 6" put fifth, a new user's)
            pool = limit if limit is None else 2 * max(limit, _answers.WHEN_REACH) + 5
            names = _answers.asks_names(text)
            while True:
                scored = rank(index, plan, t, valid_at=None if valid_at is None else micros(valid_at),
                              low=-INF if after is None else micros(after),
                              high=INF if before is None else micros(before), limit=pool, events=events,
                              similarity=similarity)
                facts = self._hits(index, plan, scored, as_of, valid_at, resolved)
                others = sum(1 for h in facts if h.version.predicate != ALIAS)
                if names or pool is None or limit is None or len(scored) < pool or others >= limit + 5:
                    break
                pool *= 4  # alias facts filled the list: read deeper, so the answers before them are all there (a
                # name of sixteen aliases gave "--limit 1" an alias fact: a reviewer's)
            if not names:  # an alias fact leads to the person asked of; it answers no other
                facts = [h for h in facts if h.version.predicate != ALIAS] + [
                    h for h in facts if h.version.predicate == ALIAS]
            if messages is None:
                first: list[Answer] = [h for h in facts if h.version.id in answering]
                found = first + [h for h in facts if h.version.id not in answering]
                return found if limit is None else found[:limit]
            # a name the question says and the others its entity goes by then: "what did Baba say" finds what
            # Joseph Kamau said, Baba an alias of his (a new user's)
            groups = {a.entity_id: group_of(index, a.entity_id, t) for a in plan.anchors}
            also = [index.entities[e][0] for a in plan.anchors if a.via is None
                    for e in groups[a.entity_id][1:] if e in index.entities]
            said = _answers.messages(messages, plan, t, speaker, pool or MESSAGES, [r for _, r in resolved],
                                     synonyms, also)
            only = _answers.only_names(text, plan)  # "what do you know about Tama": no predicate asked
            return _answers.fuse(facts, said, when=_answers.asks_when(text), limit=limit, unresolved=plan.unresolved,
                                 answering=answering, names=names, anchored=_answers.names_someone(text, plan),
                                 asked=frozenset() if only else frozenset(
                                     p for hit in plan.synonyms for p in hit.predicates),
                                 anchors=frozenset() if _answers.possessive(text) else frozenset(
                                     name for group in groups.values() for name in group),
                                 only_named=only)

    def _asked_after(self, text: str, index: RecallIndex, synonyms: Table, t: int, speaker: str | None,
                     listener: str | None, tz: tzinfo, last: int) -> Plan | None:
        """The question's plan with its time phrases read against just after the last message (said at ``last``):
        the window they gave against the question's moment began after everything the store was told, as "in
        april" does, asked in December 2026, of a chat replayed whose last message is of October 2025 (a new
        user's). The window's text says so. None where the window still begins after it ("in July 2023")."""
        after = moment(last + 1) or datetime.max.replace(tzinfo=tz)  # a message's time is never open
        plan = parse(text, index, synonyms, self.key, t, lambda q: resolve_times(q, after, tz=tz), speaker, listener)
        if plan.period is None or plan.period.event or plan.period.start > last:
            return None
        said = after.astimezone(tz).date().isoformat()
        plan.period = replace(plan.period, against=f"the last message, said {said}")
        return plan

    def _similarity(self, index: RecallIndex, model: str, query: Sequence[float], t: int) -> dict[int, float]:
        """Each version's similarity with the question: its own vector's, or its best sentence's."""
        if model not in self.vectors:
            self.vectors[model] = VectorSet.load(self.engine, model)
        found: dict[int, float] = {}
        for vector_id, value in self.vectors[model].similarities(query).items():
            docs: Iterable[int] = ()
            if vector_id in index.doc_of:
                docs = (index.doc_of[vector_id],)
            elif vector_id in index.episode_of:
                position = index.episode_of[vector_id]
                docs = [i for i in index.episodes[position].docs if position in index.docs[i].sentences(t)]
            for i in docs:
                if value > found.get(i, -2.0):
                    found[i] = value
        return found

    def _hits(self, index: RecallIndex, plan: Plan, scored: list[Scored], as_of: datetime,
              valid_at: datetime | None, resolved: Sequence[tuple[str | None, Resolved]] = ()) -> list[Hit]:
        """The hits, built from the index alone: each version as believed at ``as_of``; each says
        the event phrases ``resolved`` and the relation phrases that led to its people."""
        labels = {term.key: term.label for term in plan.terms}
        anchors = {a.entity_id: a for a in plan.anchors}
        time = _answers.time_filter(plan.period)
        t = micros(as_of)
        # each person a relation phrase led to, under every name they go by then ("my girlfriend" led to Melanie:
        # Mel's facts say so too)
        names = {person: frozenset(group_of(index, person, t)) for person, _ in resolved if person is not None}
        hits = []
        for item in scored:
            doc = index.docs[item.doc]
            later = frozenset((doc.id, index.episodes[j].id) for j, at in zip(doc.episodes, doc.linked) if at > t)
            version = questions.as_believed_at(_version(index, doc), as_of, valid_at, questions.Unseen(links=later))
            named = [anchors[k[2:]] for k in item.matched if k.startswith("e:") and k[2:] in anchors]
            anchor, via = item.anchor, item.via
            also: list[str] = []  # the question's names of the fact's other end: "deloitte" of "when did priya
            # start at deloitte" is a word the fact holds, not only an anchor
            if named:
                first = min(named, key=lambda a: a.via is not None)
                anchor, via = (first.via, first.name) if first.via else (first.name, None)
                also = [a.said for a in named if a is not first and a.via is None and a.said
                        and a.said.lower() not in FIRST_PERSON and ROLES.get(version.predicate, (None, None)) != (
                            PERSON, PERSON) and index.entities.get(a.entity_id, ("", ""))[1] != PERSON]
                # (not "me" of "what did ana tell me", nor a second person: "did tom meet ana" asks what was said)
            used = [SynonymUsed(phrase=h.phrase, predicate=version.predicate) for h in plan.synonyms
                    if version.predicate in h.predicates and f"p:{version.predicate}" in item.matched
                    and not _another_event(h.phrase, version)]
            episode = None if item.sentence is None else index.episodes[item.sentence]
            hits.append(Hit(version=version, score=round(item.score, 4), matched=Matched(
                words=[labels[k] for k in item.matched if ":" not in k] + also, anchor=anchor, via=via,
                synonyms=used, time=time, episode=None if episode is None else episode.id,
                sentence=None if episode is None else episode.text,
                semantic=None if item.semantic is None else round(item.semantic, 4),
                resolved=[r for person, r in resolved if person is None
                          or not names[person].isdisjoint((doc.subject_id, doc.object_id))],
            )))
        return hits


_YOUR = re.compile(r"(?i)\byour\b")


#: The events a word of the question names by their kind ("whens the wedding"): `attended` is asked, but only of such
#: an event ("Lose attended funeral" was the first answer: a new user's family chat).
_EVENT_KINDS = {"wedding": ("wedding",), "concert": ("concert", "gig", "show"), "gig": ("gig", "concert", "show"),
                "festival": ("festival", "fest", "fair", "fiesta", "carnival"),
                "party": ("party", "birthday", "bday", "21st", "30th", "40th", "50th", "bbq", "barbecue", "braai",
                          "ceilidh", "gala", "ball", "prom")}  # (a reviewer's: a show is a gig, a bbq a party)
#: The words that name a kind of event in a fact's object (the extractor's, and a church's service): one of them, of
#: another kind, makes it another event.
_EVENT_WORDS = EVENTS | {"service"}


def _another_event(phrase: str, version: Version) -> bool:
    """Whether a synonym phrase names a kind of event the fact's event is plainly not ("wedding" of `attended funeral`;
    not of `attended Kiri's 21st` for "party", nor `Six60 concert` for "gig": a reviewer's)."""
    kinds = _EVENT_KINDS.get(phrase.lower().removesuffix("s"))
    if kinds is None or version.predicate != "attended":
        return False
    words = set(re.findall(r"[a-z0-9]+", (version.object or "").lower()))
    words |= {w.removesuffix("s") for w in words}
    return not words & set(kinds) and bool(words & _EVENT_WORDS)


def says_your(text: str) -> bool:
    """Whether a question says "your": whom it means is the other person of the chat (read from its messages)."""
    return _YOUR.search(text) is not None


#: A question about what the memory itself believed: "what did you believe about my job in August", "what did u
#: think my address was in March", "what had you got for Maya in 2025".
_ASKS_BELIEVED = re.compile(r"(?i)\b(?:did|had|would)\s+(?:you|u)\s+(?:believe|think|have\s+down|have\s+on\s+record|"
                            r"know\s+about|remember)\b|\bwhat\s+was\s+(?:believed|remembered|on\s+record)\b")


def asked_without_then(text: str, now: datetime, tz: tzinfo) -> str:
    """A question that asks what was believed then (one :func:`believed_then` reads a moment of) without its time
    phrase: that names the believing, not when the facts held ("what did you believe on 1 september about the
    rarotonga trip", a trip planned for November, found nothing of it: a developer's)."""
    from ..when import TimeSpan, find_times

    spans = [s for s in find_times(text, now, tz=tz) if isinstance(s, TimeSpan)]
    at = text.find(spans[0].text) if len(spans) == 1 else -1
    return text if at < 0 else f"{text[:at]} {text[at + len(spans[0].text):]}"


def believed_then(text: str, now: datetime, tz: tzinfo) -> datetime | None:
    """The moment a question asks what was believed at, as the product promises to answer ("what did you believe about
    me in March"): the last moment of its time phrase's window, or now when the window reaches past it; None when the
    question asks no such thing or names no time."""
    if _ASKS_BELIEVED.search(text) is None:
        return None
    from ..when import TimeSpan, find_times

    spans = [s for s in find_times(text, now, tz=tz) if isinstance(s, TimeSpan)]
    if len(spans) != 1:
        return None  # none, or two ("in March about May"): which is the believing is not said
    end = spans[0].end or now
    return min(end - TICK, now)


#: How long (µs) a store's chat must have been silent before a question's time phrase is read against its last
#: message: a year, past which "in april" cannot mean an April the chat went on through.
QUIET = 365 * 24 * 3600 * 1_000_000


def _listener(messages: MessageIndex | None, text: str, speaker: str | None, t: int,
              key: Callable[[str], str]) -> str | None:
    """Who "your" means: the one other person of the conversation going on at ``t``, when the
    question says "your", the speaker is known and exactly one other person spoke lately."""
    if messages is None or not speaker or not says_your(text):
        return None
    try:
        me = key(speaker)
        others = [name for name in messages.speakers(t) if key(name) != me]
    except Exception:  # a name the store's key function refuses: no listener known
        return None
    return others[0] if len(others) == 1 else None


def _resolved(index: RecallIndex, plan: Plan) -> list[tuple[str | None, Resolved]]:
    """What the question's phrases were resolved to, as answers report it: for a relation, with
    the person it led to (only that person's facts report it); for an event, with None (all do)."""
    found: list[tuple[str | None, Resolved]] = []
    for r in plan.resolved:
        doc = None if r.doc is None else index.docs[r.doc]
        entity = None if r.entity_id is None else index.entities.get(r.entity_id, (r.entity_id, ""))[0]
        statement = None if doc is None else (f"{index.entities[doc.subject_id][0]} {doc.predicate} "
                                              f"{index.entities[doc.object_id][0]}")
        found.append((r.entity_id if r.kind == "relation" else None, Resolved(
            kind="relation" if r.kind == "relation" else "event", phrase=r.phrase, entity=entity,
            fact=None if doc is None else doc.id, statement=statement,
            at=None if r.edge is None else moment(r.edge))))
    return found


def _version(index: RecallIndex, doc: Doc) -> Version:
    """A stored version, from what the index keeps of it."""
    links = doc.links
    return records.construct_version({
        "id": doc.id, "subject": index.entities[doc.subject_id][0], "predicate": doc.predicate,
        "object": index.entities[doc.object_id][0], "valid_from": moment(doc.valid_from),
        "valid_to": moment(doc.valid_to), "recorded_at": moment(doc.recorded_at),
        "superseded_at": moment(doc.superseded_at), "status": None,
        "episodes": [index.episodes[j].id for j in doc.episodes], "subject_id": doc.subject_id,
        "object_id": doc.object_id, "supersedes": list(links.supersedes), "superseded_by": list(links.superseded_by),
        "created_by": links.created_by, "closed_by": links.closed_by, "reason": links.reason, **dict(links.more),
    })


def _number(identifier: str) -> int:
    digits = identifier.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits.isdigit() else 0
