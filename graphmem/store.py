"""The Store: graphmem's one way in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import networkx as nx

from . import kinds, reads, records
from .backup import BackupInfo, backup, compacting, finish_pending, restore
from .engine import Engine, acquire, choose_engine, release
from .errors import Conflict, InvalidInput, InvalidPredicate, NotFound, TimeWentBackwards
from .gate import Held, Plan, plan_assert, plan_correct, plan_end, plan_segment
from .migrations import migrate
from .models import (
    DEFAULT_PREDICATES,
    Assertion,
    Change,
    Decision,
    Entity,
    Episode,
    Link,
    Neighbourhood,
    PredicateKind,
    Proposal,
    Said,
    Tombstone,
    Version,
    WhyAnswer,
)
from .names import check_kind, check_predicate, entity_key, guess_kind
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from .tables import TABLES
from .temporal import Period
from .timeutil import TICK, UTC, from_engine, iso, optional_time, parse_time, zone
from .writes import Transaction

ALL = "all"


class Store:
    """A bitemporal memory in one embedded graph database directory.

    >>> from graphmem import Store
    >>> store = Store(":memory:")
    >>> store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01",
    ...           recorded_at="2026-01-10").op
    'ADD'
    >>> store.add("Ivan", "lives_in", "Berlin", valid_from="2026-10-15",
    ...           recorded_at="2026-11-01").op
    'UPDATE'
    >>> [v.object for v in store.beliefs(as_of="2026-10-20")]
    ['Prague']
    >>> [v.object for v in store.beliefs(valid_at="2026-10-20")]
    ['Berlin']
    >>> [(v.object, v.status) for v in store.history("Ivan", "lives_in")]
    [('Berlin', 'current'), ('Prague', 'ended'), ('Prague', 'superseded')]
    >>> store.close()
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        engine: str | None = None,
        timezone: str | None = None,
        clock: Callable[[], datetime] | None = None,
    ):
        self.path = None if path is None or str(path) == ":memory:" else Path(path)
        self._engine: Engine | None = acquire(choose_engine(engine, self.path), self.path)
        self._clock = clock or (lambda: datetime.now(UTC))
        try:
            from .logio import finish_import

            self._setup(timezone)
            finish_pending(self)  # a purge whose file rewrite a crash interrupted
            finish_import(self)  # an import whose settings a crash kept from being written
        except BaseException:
            self.close()
            raise

    def _setup(self, timezone: str | None) -> None:
        for table in TABLES:
            self._db.run(f"schema/{table.name}")
        settings = self._meta()
        if "timezone" not in settings:
            zone(timezone or "UTC")
            self._db.run("store/meta_set", {"key": "timezone", "value": timezone or "UTC"})
        elif timezone and timezone != settings["timezone"]:
            raise InvalidInput(
                f"this store reads naive times in {settings['timezone']}, not {timezone}; "
                "omit the time zone or use a new store"
            )
        self.tz_name = timezone or settings.get("timezone", "UTC")
        self.tz = zone(self.tz_name)
        migrate(self._db, settings, self._write, self.kind_of)

    # -- lifecycle ------------------------------------------------------------------

    @property
    def _db(self) -> Engine:
        if self._engine is None:
            raise InvalidInput("this store is closed")
        return self._engine

    @property
    def engine(self) -> str:
        """The engine's name: 'kuzu' or 'ladybug'."""
        return self._db.name

    def close(self) -> None:
        """Release the database; the store cannot be used afterwards."""
        if self._engine is not None:
            from .cypher import forget
            from .named import forget_logs

            forget(self._engine)
            forget_logs(self._engine)
            release(self._engine)
            self._engine = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.path or ":memory:"
        return f"Store({str(where)!r}, engine={self._engine.name if self._engine else None!r})"

    def _meta(self) -> dict[str, str]:
        """The store's settings and counters (cached per store; a Meta write drops the copy)."""
        db = self._db
        with db.lock:  # read and kept in one step: no write can land between the two
            if "meta" not in db.cache:
                db.cache["meta"] = dict(db.run("store/meta_all"))
            return dict(db.cache["meta"])

    def time(self, value) -> datetime:
        """Read a user time in this store's zone as aware UTC."""
        return parse_time(value, self.tz)

    def now(self) -> datetime:
        """The store clock's current time (never before the latest write)."""
        now = self._clock()
        latest = self.latest_write()
        return now if latest is None or now > latest else latest

    def latest_write(self) -> datetime | None:
        """The transaction time of the latest write, or None for an empty log."""
        value = self._meta().get("last_write")
        return parse_time(value) if value else None

    # -- predicates and configuration (not log writes) ---------------------------------

    def predicates(self) -> dict[str, PredicateKind]:
        """Every known predicate and its kind: the shipped defaults plus declarations."""
        db = self._db
        with db.lock:  # read and kept in one step (see _meta)
            if "predicates" not in db.cache:
                declared = {name: kind for name, kind in db.run("store/predicate_all")}
                db.cache["predicates"] = {**DEFAULT_PREDICATES, **declared}
            return dict(db.cache["predicates"])

    def kind_of(self, predicate: str) -> PredicateKind:
        """The kind of a predicate; an undeclared one is 'many'."""
        return self.predicates().get(check_predicate(predicate), "many")

    def declare(self, predicate: str, kind: PredicateKind) -> None:
        """Declare a predicate's kind. Refused when versions already use it under another kind."""
        check_predicate(predicate)
        check_kind(kind)
        with self._db.lock:
            self._refuse_kind_change(predicate, kind)
            self._db.run("store/predicate_set", {"name": predicate, "kind": kind})
            self._db.cache.pop("predicates", None)

    def _refuse_kind_change(self, predicate: str, kind: str) -> None:
        """Refuse a new kind for a predicate that versions already use under another."""
        current = self.kind_of(predicate)
        if current != kind and self._db.run("store/predicate_in_use", {"name": predicate})[0][0]:
            raise InvalidPredicate(f"{predicate} is already used as {current!r}; its kind cannot change now")

    def review_skips(self) -> list[str]:
        """Episode sources whose proposals skip review (manual entries by default)."""
        value = self._meta().get("review_skip", "manual")
        return [s for s in value.split(",") if s]

    def set_review_skips(self, sources: list[str]) -> None:
        """Choose which sources' proposals are written without review."""
        cleaned = [s.strip() for s in sources if s.strip()]
        if any("," in s for s in cleaned):
            raise InvalidInput("a source name cannot contain a comma")
        self._db.run("store/meta_set", {"key": "review_skip", "value": ",".join(cleaned)})

    # -- writes -------------------------------------------------------------------------

    @contextmanager
    def _write(self, recorded_at=None, *, bulk: bool = False) -> Iterator[Transaction]:
        """One atomic write at a strictly later transaction time (stored in bulk with ``bulk``)."""
        explicit = optional_time(recorded_at, self.tz)
        with self._db.transaction() as engine:
            meta = self._meta()
            latest = parse_time(meta["last_write"]) if "last_write" in meta else None
            if explicit is not None:
                if latest is not None and explicit <= latest:
                    raise TimeWentBackwards(
                        f"transaction time {iso(explicit)} is not after the latest write "
                        f"{iso(latest)}; transaction time only moves forward"
                    )
                at = explicit
            else:
                at = self._clock()
                if latest is not None and at <= latest:
                    at = latest + TICK
            txn = Transaction(engine, meta, at)
            yield txn
            txn.finish(bulk=bulk)

    def _episode_for(self, txn: Transaction, episode: str | None, quote: str | Said | None) -> Episode | None:
        """The write's supporting episode: an existing one, or a new one recorded in this write."""
        if episode and quote:
            raise InvalidInput("give either an episode id or a quote, not both")
        if quote is not None:
            said = Said(text=quote) if isinstance(quote, str) else quote
            reference = optional_time(said.reference_time, self.tz)
            return txn.add_episode(said.text, said.kind, said.actor, reference)
        return txn.episode(episode) if episode else None

    def add(
        self,
        subject: str,
        predicate: str,
        obj: str,
        *,
        valid_from=None,
        valid_to=None,
        episode: str | None = None,
        quote: str | Said | None = None,
        recorded_at=None,
    ) -> Decision:
        """Assert ``subject -[predicate]-> obj`` over a valid period (default: from the episode's time, or now)."""
        kind = self.kind_of(predicate)
        start, end = optional_time(valid_from, self.tz), optional_time(valid_to, self.tz)
        with self._write(recorded_at) as txn:
            return self._assert(txn, kind, subject, predicate, obj, start, end, episode, quote)

    def _assert(self, txn, kind, subject, predicate, obj, start, end, episode, quote,
                proposal=None) -> Decision:
        source = self._episode_for(txn, episode, quote)
        start = start or (source.reference_time if source else txn.next_at)
        subject_id = txn.ensure_entity(subject)
        object_id = txn.ensure_entity(obj)
        plan = plan_assert(kind, txn.believed(subject_id, predicate), object_id, start, end,
                           source.id if source else None, self.tz)
        return txn.carry_out(plan, subject_id, predicate, episode=source.id if source else None,
                             proposal=proposal)

    def add_many(self, facts, *, recorded_at=None) -> list[Decision]:
        """Assert many facts in one atomic write, each its own decision one tick after the last.

        ``facts`` are ``(subject, predicate, object[, valid_from[, valid_to[, episode]]])`` tuples
        (or :class:`graphmem.models.Assertion`); the log is the same as one ``add`` per fact, with
        transaction times one tick (1 µs) apart from ``recorded_at`` (default: now). What the gate
        reads is fetched for all of them at once, and what it decides is stored in bulk.
        """
        items = [f if isinstance(f, Assertion) else Assertion(*f) for f in facts]
        if not items:
            return []
        kinds = self.predicates()
        prepared = [(kinds.get(check_predicate(i.predicate), "many"), i, optional_time(i.valid_from, self.tz),
                     optional_time(i.valid_to, self.tz)) for i in items]
        with self._write(recorded_at, bulk=True) as txn:
            txn.prefetch((n for i in items for n in (i.subject, i.object)), (i.predicate for i in items))
            return [self._assert(txn, kind, i.subject, i.predicate, i.object, start, end, i.episode, None)
                    for kind, i, start, end in prepared]

    def segment(self, subject: str, predicate: str, obj: str, *, valid_from, valid_to,
                episode: str | None = None, quote: str | Said | None = None, recorded_at=None) -> Decision:
        """State ``obj`` for a closed past period, cutting the covering history around it."""
        kind = self.kind_of(predicate)
        start, end = self.time(valid_from), self.time(valid_to)
        with self._write(recorded_at) as txn:
            source = self._episode_for(txn, episode, quote)
            subject_id, object_id = txn.ensure_entity(subject), txn.ensure_entity(obj)
            plan = plan_segment(kind, txn.believed(subject_id, predicate), object_id, start, end,
                                source.id if source else None)
            return txn.carry_out(plan, subject_id, predicate, episode=source.id if source else None)

    def end(self, subject: str, predicate: str, obj: str | None = None, *, at=None,
            episode: str | None = None, quote: str | Said | None = None, recorded_at=None) -> Decision:
        """The world changed: close what held at ``at`` (default: the episode's time, or now)."""
        kind = self.kind_of(predicate)
        moment = optional_time(at, self.tz)
        with self._write(recorded_at) as txn:
            return self._end(txn, kind, subject, predicate, obj, moment, episode, quote)

    def _end(self, txn, kind, subject, predicate, obj, moment, episode, quote, proposal=None):
        source = self._episode_for(txn, episode, quote)
        moment = moment or (source.reference_time if source else txn.next_at)
        subject_id = txn.find_entity(subject)
        object_id = txn.find_entity(obj) if obj is not None else None
        if subject_id is None or (obj is not None and object_id is None):
            raise Conflict(f"nothing to end: the store holds no {subject} {predicate} {obj or ''}".rstrip())
        plan = plan_end(kind, txn.believed(subject_id, predicate), object_id, moment,
                        source.id if source else None)
        return txn.carry_out(plan, subject_id, predicate, episode=source.id if source else None,
                             proposal=proposal)

    def retract(self, version_id: str, *, reason: str, episode: str | None = None,
                quote: str | Said | None = None, recorded_at=None) -> Decision:
        """We were wrong: withdraw a believed version as never true, keeping it and the reason."""
        reason = _required_reason(reason)
        with self._write(recorded_at) as txn:
            wrong = self._believed_version(txn, version_id)
            source = self._episode_for(txn, episode, quote)
            return txn.carry_out(Plan("RETRACT", close=(wrong.id,)), wrong.subject_id,
                                 wrong.predicate, reason=reason, retracted=(wrong.id,),
                                 episode=source.id if source else None)

    def correct(self, version_id: str, obj: str, *, reason: str, episode: str | None = None,
                quote: str | Said | None = None, recorded_at=None) -> Decision:
        """Retract a version and assert the right value for the same period, in one write."""
        reason = _required_reason(reason)
        with self._write(recorded_at) as txn:
            wrong = self._believed_version(txn, version_id)
            kind = self.kind_of(wrong.predicate)
            source = self._episode_for(txn, episode, quote)
            object_id = txn.ensure_entity(obj)
            held = Held(wrong.id, wrong.object_id, Period(wrong.valid_from, wrong.valid_to),
                        tuple(wrong.episodes))
            plan = plan_correct(kind, txn.believed(wrong.subject_id, wrong.predicate), held,
                                object_id, source.id if source else None)
            return txn.carry_out(plan, wrong.subject_id, wrong.predicate, reason=reason,
                                 retracted=(wrong.id,), episode=source.id if source else None)

    def _believed_version(self, txn: Transaction, version_id: str) -> Version:
        version = txn.version(version_id)
        if version.superseded_at is not None:
            state = "retracted" if version.reason else "superseded"
            raise Conflict(f"version {version_id} is already {state} (at {iso(version.superseded_at)})")
        return version

    def add_episode(self, text: str, *, kind: str = "manual", actor: str | None = None,
                    reference_time=None, recorded_at=None) -> Episode:
        """Record a piece of source material (its reference time defaults to now)."""
        reference = optional_time(reference_time, self.tz)
        with self._write(recorded_at) as txn:
            episode = txn.add_episode(text, kind, actor, reference)
            txn.log("EPISODE", episode=episode.id)
            return episode

    def remember(self, text: str, facts=(), *, kind: str = "chat", actor: str | None = None,
                 reference_time=None, source: str | None = None, approve: bool = False,
                 recorded_at=None) -> tuple[Episode, list[Proposal]]:
        """Record an episode and propose the facts drawn from it, in one atomic write.

        ``facts`` are objects with ``op, subject, predicate, object, valid_from, valid_to, quote``
        (e.g. :class:`graphmem.extract_rules.ExtractedFact`). They wait for review unless
        ``approve`` is set or their source (default: the episode kind) skips review.
        """
        reference = optional_time(reference_time, self.tz)
        source = source or kind
        with self._write(recorded_at) as txn:
            episode = txn.add_episode(text, kind, actor, reference)
            txn.log("EPISODE", episode=episode.id)
            proposals = [self._queue(txn, fact, episode.id, source, approve) for fact in facts]
        return episode, proposals

    # -- review queue ----------------------------------------------------------------------

    def propose(self, subject: str, predicate: str, obj: str | None = None, *, op: str = "assert",
                valid_from=None, valid_to=None, episode: str | None = None,
                quote: str | Said | None = None, source: str = "manual", recorded_at=None) -> Proposal:
        """Queue a fact for review; sources configured to skip review are written at once."""
        fact = Proposal(id="", op=op, subject=subject, predicate=predicate, object=obj,
                        valid_from=optional_time(valid_from, self.tz), valid_to=optional_time(valid_to, self.tz),
                        quote=quote, proposed_at=datetime.now(UTC))
        with self._write(recorded_at) as txn:
            if episode:
                txn.episode(episode)
            return self._queue(txn, fact, episode, source, False)

    def _queue(self, txn: Transaction, fact, episode: str | None, source: str, approve: bool) -> Proposal:
        """Queue one proposed fact in this write, approving it at once when review is skipped."""
        check_predicate(fact.predicate)
        if fact.op not in ("assert", "end"):
            raise InvalidInput(f"a proposal's op is 'assert' or 'end', not {fact.op!r}")
        if fact.op == "assert" and not fact.object:
            raise InvalidInput("a proposed assertion needs an object")
        entity_key(fact.subject)
        proposal_id = txn.next_id("p")
        logged = txn.log("PROPOSE", proposal=proposal_id, episode=episode)
        proposal = Proposal(
            id=proposal_id, op=fact.op, subject=fact.subject, predicate=fact.predicate,
            object=fact.object, valid_from=_aware(fact.valid_from), valid_to=_aware(fact.valid_to),
            episode=episode, quote=fact.quote, source=source, proposed_at=logged.at,
        )
        txn.queue(proposal)
        if approve or source in self.review_skips():
            decision = self._approve_one(txn, proposal)
            proposal = proposal.model_copy(update={
                "state": "approved", "decided_at": decision.at, "decision": decision.id})
        return proposal

    def proposals(self, state: str | None = "pending") -> list[Proposal]:
        """The review queue: pending proposals (or those in ``state``; None for all)."""
        found = [records.proposal(r) for r in self._db.run("store/proposal_all")]
        return [p for p in found if state is None or p.state == state]

    def _proposal(self, proposal_id: str) -> Proposal:
        for proposal in self.proposals(None):
            if proposal.id == proposal_id:
                if proposal.state != "pending":
                    raise Conflict(f"proposal {proposal_id} is already {proposal.state}")
                return proposal
        raise NotFound(f"no proposal {proposal_id!r}; see `graphmem review list`")

    def _approve_one(self, txn: Transaction, p: Proposal) -> Decision:
        kind = self.kind_of(p.predicate)
        if p.op == "end":  # an end proposal's moment is when the fact stopped: its valid_to
            decision = self._end(txn, kind, p.subject, p.predicate, p.object, p.valid_to or p.valid_from,
                                 p.episode, None, proposal=p.id)
        else:
            decision = self._assert(txn, kind, p.subject, p.predicate, p.object, p.valid_from,
                                    p.valid_to, p.episode, None, proposal=p.id)
        txn.decide(p.id, "approved", None, decision.id)
        return decision

    def approve(self, proposal_ids: list[str], *, recorded_at=None) -> list[Decision]:
        """Write pending proposals through the gate at approval time (one atomic call)."""
        pending = [self._proposal(pid) for pid in dict.fromkeys(proposal_ids)]
        decisions = []
        with self._write(recorded_at) as txn:
            for proposal in pending:
                decisions.append(self._approve_one(txn, proposal))
        return decisions

    def reject(self, proposal_ids: list[str], *, reason: str, recorded_at=None) -> list[Decision]:
        """Reject pending proposals, keeping them with the reason."""
        reason = _required_reason(reason)
        pending = [self._proposal(pid) for pid in dict.fromkeys(proposal_ids)]
        decisions = []
        with self._write(recorded_at) as txn:
            for proposal in pending:
                decision = txn.log("REJECT", proposal=proposal.id, reason=reason)
                txn.decide(proposal.id, "rejected", reason, decision.id)
                decisions.append(decision)
        return decisions

    # -- purge ---------------------------------------------------------------------------------

    def purge(self, target: str, target_id: str, *, recorded_at=None) -> Tombstone:
        """Hard-delete an entity, an episode or a version, leaving a content-free tombstone.

        The store's files are then rewritten (see :mod:`graphmem.backup`), so the removed text
        is in none of them: this costs about an export and an import of the whole store.
        """
        from .purge import purge

        if target not in ("entity", "episode", "version"):
            raise InvalidInput(f"purge takes entity, episode or version, not {target!r}")
        with compacting(self), self._write(recorded_at) as txn:
            return purge(txn, target, target_id)

    def backup(self, dest: str | Path) -> BackupInfo:
        """Copy the store into a new directory ``dest``, as one consistent moment of its log."""
        return backup(self, dest)

    def restore(self, src: str | Path) -> BackupInfo:
        """Replace everything in this store with the backup in ``src``."""
        return restore(self, src)

    # -- queries ---------------------------------------------------------------------------------

    def _as_of(self, as_of) -> datetime:
        return self.now() if as_of is None else self.time(as_of)

    def _valid_at(self, valid_at, as_of: datetime) -> datetime | None:
        if isinstance(valid_at, str) and valid_at.strip().lower() == ALL:
            return None
        return as_of if valid_at is None else self.time(valid_at)

    def beliefs(self, as_of=None, valid_at=None) -> list[Version]:
        """What the store believed at ``as_of`` (default now), valid at ``valid_at``.

        ``valid_at`` defaults to ``as_of``; "all" gives every valid time.
        """
        t = self._as_of(as_of)
        return reads.beliefs(self._db, t, self._valid_at(valid_at, t))

    def snapshot(self, as_of=None, valid_at=None) -> nx.MultiDiGraph:
        """The beliefs as a networkx MultiDiGraph (nodes: entity ids; edges keyed by version id)."""
        t = self._as_of(as_of)
        return reads.snapshot(self._db, t, self._valid_at(valid_at, t))

    def entity(self, name_or_id: str) -> Entity:
        """An entity by id or name, or NotFound."""
        for candidate in dict.fromkeys((entity_key(name_or_id), name_or_id)):
            rows = self._db.run("store/entity_get", {"id": candidate})
            if rows:
                return records.entity(rows[0])
        raise NotFound(f"no entity named {name_or_id!r}")

    def entities(self) -> list[Entity]:
        """Every entity."""
        return [records.entity(r) for r in self._db.run("store/entity_all")]

    def find_entities(self, text: str, limit: int = 20) -> list[Entity]:
        """Entities whose name contains ``text`` (any case), names starting with it first."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInput("limit is a whole number from 1 to 1000")
        rows = self._db.run("store/entity_find", {"text": entity_key(text), "limit": limit})
        return [records.entity(r[:3]) for r in rows]

    def neighbourhood(self, focus: str, depth: int = 1, as_of=None, valid_at=None,
                      predicates: list[str] | None = None, limit: int | None = None) -> Neighbourhood:
        """The entities within ``depth`` hops of ``focus`` and the facts between them, as believed
        at ``as_of`` (default now) and valid at ``valid_at`` (default ``as_of``; "all": any time).

        Facts are reached through the focused entity's edges, hop by hop, never by scanning
        every edge; ``predicates`` keeps only facts of those predicates; ``limit`` caps the
        entities (nearest first; ``truncated`` says when some were left out). Entities carry
        their kind as every view shows it (see :mod:`graphmem.kinds`).
        """
        from .neighbourhood import MAX_DEPTH, neighbourhood

        if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
            raise InvalidInput(f"depth is a whole number of hops from 0 to {MAX_DEPTH}")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise InvalidInput("limit is a whole number of entities, at least 1")
        wanted = sorted({check_predicate(p) for p in predicates}) if predicates else None
        t = self._as_of(as_of)
        valid = self._valid_at(valid_at, t)
        return neighbourhood(self._db, self.entity(focus), depth, t, valid, wanted, limit)

    def kind(self, entity: str) -> str:
        """An entity's kind as views show it: the one set with :meth:`set_kind`, else inferred
        from the predicates of every fact it takes part in (see :mod:`graphmem.kinds`)."""
        found = self.entity(entity)
        return kinds.effective_kinds(self.versions(found.id), {found.id: found.kind})[found.id]

    def set_kind(self, entity: str, kind: str) -> Entity:
        """Say what an entity is (person, place, organisation, ...; "auto" to infer it again).

        Configuration, not a log write: the kind is kept with the entity (and in exports) and
        every view colours the entity by it.
        """
        found = self.entity(entity)
        chosen = kinds.check_kind(kind)
        stored = guess_kind(found.name) if chosen == kinds.AUTO else chosen
        from .cypher import forget

        with self._db.lock:
            self._db.run("store/entity_kind_set", {"id": found.id, "kind": stored})
            forget(self._db)  # projections for Cypher as of a date hold the old kind
        return found.model_copy(update={"kind": stored})

    def history(self, subject: str, predicate: str) -> list[Version]:
        """Every version of (subject, predicate) ever written, newest first, status as seen now."""
        check_predicate(predicate)
        return reads.history(self._db, self.entity(subject).id, predicate, self.now())

    def timeline(self, entity: str, as_of=None) -> list[Version]:
        """An entity's facts (as subject or object) as believed at ``as_of``, in valid-time order."""
        return reads.timeline(self._db, self.entity(entity).id, self._as_of(as_of))

    def versions(self, entity: str | None = None) -> list[Version]:
        """Every version ever written (or those touching ``entity``), status as seen now."""
        now = self.now()
        if entity is None:
            found = [records.version(r) for r in self._db.run("store/fact_all")]
        else:
            found = reads.entity_versions(self._db, self.entity(entity).id)
        return reads.newest_first([reads.with_status(v, now) for v in found])

    def version(self, version_id: str) -> Version:
        """One version by id, status as seen now, or NotFound."""
        found = reads.version(self._db, version_id)
        if found is None:
            raise NotFound(f"no version {version_id!r}")
        return reads.with_status(found, self.now())

    def diff(self, t1, t2) -> list[Change]:
        """What started and stopped being believed after ``t1`` up to ``t2``, and why."""
        return reads.diff(self._db, self.time(t1), self.time(t2))

    def why(self, subject: str, predicate: str, *, valid_at, as_of, vs=None) -> WhyAnswer:
        """The answer for (subject, predicate) at ``valid_at`` as of two times, and the writes between."""
        check_predicate(predicate)
        ent = self.entity(subject)
        return reads.why(self._db, ent.id, ent.name, predicate, self.time(valid_at),
                         self.time(as_of), self._as_of(vs))

    def decisions(self, after=None, until=None) -> list[Decision]:
        """The write log, oldest first (only the writes after ``after`` up to ``until``, when given)."""
        return reads.decisions(self._db, optional_time(after, self.tz), optional_time(until, self.tz))

    def links(self) -> list[Link]:
        """Episodes linked to versions after they were written (a NOOP citing a new episode), oldest first."""
        return [records.link(r) for r in self._db.run("store/link_all")]

    def write_times(self) -> list[datetime]:
        """When each write that changed belief happened, oldest first (what a slider steps through)."""
        return [from_engine(row[0]) for row in self._db.run("store/decision_times")]

    def tombstones(self) -> list[Tombstone]:
        """Records of purges, oldest first."""
        return [records.tombstone(r) for r in self._db.run("store/tombstone_all")]

    def episodes(self, ids: list[str] | None = None, *, about: str | None = None) -> list[Episode]:
        """Episodes (by id, or those supporting facts about an entity), oldest first."""
        if about is not None:
            linked = {e for v in self.versions(about) for e in v.episodes}
            ids = sorted(linked if ids is None else linked & set(ids))
        return reads.episodes(self._db, ids)

    def episode(self, episode_id: str) -> Episode:
        """One episode by id, or NotFound."""
        rows = self._db.run("store/episode_get_one", {"id": episode_id})
        if not rows:
            raise NotFound(f"no episode {episode_id!r}; list them with `graphmem episodes`")
        return records.episode(rows[0])

    def episodes_of(self, version_id: str) -> list[Episode]:
        """The episodes that support a version."""
        return reads.episodes(self._db, self.version(version_id).episodes)

    def versions_of(self, episode_id: str) -> list[Version]:
        """The versions an episode supports."""
        self.episode(episode_id)
        now = self.now()
        rows = self._db.run("store/episode_versions", {"episode": episode_id})
        return reads.newest_first([reads.with_status(records.version(r), now) for r in rows])

    def cypher(self, query: str, params: dict | None = None, as_of=None, valid_at=None, *,
               timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB):
        """Run a read-only Cypher query over the graph as believed at ``as_of`` and valid at ``valid_at``.

        ``as_of`` defaults to now, ``valid_at`` to ``as_of`` ("all": every valid time). Values go in
        only as ``params``. Returns a list of dicts (column → value) with a ``.columns`` list. The
        query runs in a separate process: past ``timeout`` seconds (None: no limit) or ``memory_mb``
        it is stopped and QueryFailed raised; a crash of the engine is a QueryFailed too.
        """
        from .cypher import cypher

        return cypher(self, query, params, as_of=as_of, valid_at=valid_at, timeout=timeout, memory_mb=memory_mb)

    def query(self, name: str, params: dict | None = None, as_of=None, valid_at=None, *,
              timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB):
        """Run the named query ``queries/NAME.cypher`` (see `graphmem query --list`) over the log as
        of ``as_of``; rows as dicts. Runs apart, with limits, as :meth:`cypher` does."""
        from .named import run_named

        return run_named(self, name, params, as_of=as_of, valid_at=valid_at, timeout=timeout, memory_mb=memory_mb)

    def search(self, text: str, as_of=None, valid_at="all", after=None, before=None) -> list[Version]:
        """Facts whose words match ``text``, as believed at ``as_of``, the most recent occurrence first."""
        from .search import search

        return search(self, text, as_of=as_of, valid_at=valid_at, after=after, before=before)

    def explore(self, port: int = 8765, host: str = "127.0.0.1", open_browser: bool = True):
        """Serve the explorer (a read-only web app) for this store from this process.

        Returns once it answers, with a handle: ``.url``, ``.stop()``, ``.wait()``. It runs on
        a background thread, so a notebook or an app keeps working (and writing) meanwhile;
        what it writes shows in the explorer on refresh. Needs ``pip install 'graphmem[explore]'``.
        """
        from .explorer import start

        return start(self, host=host, port=port, open_browser=open_browser)

    def check(self):
        """Verify the invariants; return the violations found (empty when sound)."""
        from .checks import check, check_index

        versions = self.versions()
        keys = [(vid, subject) for vid, subject in self._db.run("store/version_key_all")]
        return check(versions, self.decisions(), self.episodes(), self.tombstones(),
                     self.predicates(), self.links(), self.proposals(None)) + check_index(versions, keys)

    def export(self, path: str | Path, progress=None, *, format: str = "jsonl") -> int:
        """Write the whole log as JSON Lines (``format="jsonl"``, one file) or as a directory of
        Parquet files (``format="parquet"``); return the number of records."""
        if format == "parquet":
            from .parquetlog import export_parquet

            return export_parquet(self._db, self.engine, self.tz_name, Path(path), progress)
        if format != "jsonl":
            raise InvalidInput(f"export writes jsonl or parquet, not {format!r}")
        from .logio import export_log

        return export_log(self, Path(path), progress)

    def import_log(self, path: str | Path, progress=None, *, on_bad_line=None) -> int:
        """Restore an exported log into this store, atomically; return the number of records.

        A directory is read as a Parquet log, a file as JSON Lines. With ``on_bad_line`` (a
        function taking a message; JSON Lines only), unreadable lines are skipped and reported
        to it, and the rest is imported only if it is still a sound log.
        """
        from .parquetlog import import_parquet, is_parquet_log

        if is_parquet_log(Path(path)):
            if on_bad_line is not None:
                raise InvalidInput("skipping bad lines is for JSON Lines logs; a Parquet log is imported whole")
            return import_parquet(self._db, self.path, Path(path), zone=self.tz_name,
                                  refuse_kind_change=self._refuse_kind_change, progress=progress)
        from .logio import import_log

        return import_log(self, Path(path), progress, on_bad_line)


def _aware(value: datetime | None) -> datetime | None:
    """A model's time as aware UTC (naive read as UTC)."""
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _required_reason(reason: str | None) -> str:
    if not reason or not str(reason).strip():
        raise InvalidInput("a reason is required")
    return str(reason).strip()
