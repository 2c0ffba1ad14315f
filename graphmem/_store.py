"""The Store: graphmem's one way in.

Internal: import Store from :mod:`graphmem`.
"""

from __future__ import annotations

import atexit
import os
import re
import shlex
import time
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ._caches import shared_by
from .core import entity_kinds, records
from .core.aliases import ALIAS
from .core.collector import collector_paused
from .core.names import (
    check_predicate,
    check_predicate_kind,
    entity_key,
    refuse_predicate_kind_change,
    speaker_key,
    spelled_pattern,
    spelling_probes,
    unaccented,
)
from .core.tables import TABLES
from .core.times import ALL, TICK, UTC, TimeLike, iso, parse_time, same_zone, stored, too_far_ahead, zone
from .engine import (
    ENGINES,
    FORMAT,
    MARKER_FILE,
    Engine,
    acquire,
    choose_engine,
    directory_held,
    owner_pid,
    release,
    stores_made_here,
)
from .errors import (
    Conflict,
    ImportFailed,
    InvalidInput,
    InvalidTime,
    LookAlikeName,
    NotFound,
    StoreLocked,
    TimeWentBackwards,
)
from .log.backup import BackupInfo, backup, compact, compacting, finish_pending, restore, restore_into
from .log.jsonl import export_log, finish_import, import_log
from .models import (
    DEFAULT_PREDICATES,
    AliasGroup,
    AliasSuggestion,
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
    Violation,
    WhyAnswer,
)
from .query import cypher
from .query import named_queries as named
from .query.cypher import Rows
from .query.sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from .read import aliases as read_aliases
from .read import audit, questions
from .write import remember, review
from .write.migrations import layout_is_current, migrate, refuse_old_layout, upgrade
from .write.remember import Remembered
from .write.transaction import Transaction

if TYPE_CHECKING:  # imported when needed: the explorer is a front end; networkx (~20 MB) is
    import networkx as nx  # imported when a snapshot is asked for
    import pyarrow as pa

    from .explorer.app import Explorer
    from .holding.holder import Holder
    from .recall._embed import Embedder
    from .recall._messages import MessageIndex
    from .recall._models import Answer, Embedded
    from .recall._synonyms import Table as SynonymTable

__all__ = ["BackupInfo", "DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "Remembered", "Rows", "Store"]

#: How long opening a store waits for a process that has it for a moment (a one-off command), in seconds.
WAIT = 5.0
#: Messages from which Store.remember_many reads and stores in bulk: a bulk statement costs a
#: few milliseconds more to plan than a row's (kuzu: one message took 94 ms in bulk, 14 ms row
#: by row), and a row's cost is paid per row.
_BULK = 16
#: The facts of a message given to :meth:`Store.remember_many`, handed back with those refused.
F = TypeVar("F", bound=review.ProposedFact)


def _as_the_holder_keeps_it(remote: Any, asked: dict[str, Any]) -> None:
    """Refuse to be a client of a held store with settings the holder does not keep: another zone (as opening the
    store itself refuses it), or a clock of its own (the holder's clock times every write)."""
    try:
        _refuse_other_zone(asked.get("timezone"), remote.tz_name)
        if asked.get("clock") is not None:
            raise InvalidInput(f"store {remote.path} is held by process {remote.holder['pid']}, whose clock times "
                               "every write; a clock of this call's cannot be used (close that process, or leave out "
                               "clock)")
    except InvalidInput:
        remote.close()
        raise


def _refuse_other_zone(given: str | None, held: str) -> None:
    """Refuse a zone ``given`` for a store that reads naive times in ``held``, unless it is that zone by any name."""
    if given and given != held and not same_zone(zone(given), zone(held)):
        raise InvalidInput(f"this store reads naive times in {held}, not {given}; omit the time zone or use a new "
                           "store")


#: What :meth:`Store.proposals` may be asked for.
_PROPOSAL_STATES = ("pending", "approved", "rejected", "all")


class _NothingApproved(Exception):
    """Every proposal of an approval was refused: the write is undone, so it takes no transaction time."""


def made_meanwhile(directory: Path) -> bool:
    """Whether the files in ``directory`` are a store another process is making: its marker comes last, under the
    directory's lock, which is waited for here (a while: then the files are read as they are)."""
    with directory_held(directory):
        return Store.exists(directory)


@contextmanager
def ours_alone(directory: Path) -> Iterator[bool]:
    """Hold ``directory``'s lock (no process opens or makes the store meanwhile) and say whether what it holds is this
    process's alone to remove: no store another process made, and open in no other process."""
    with directory_held(directory) as held:
        theirs = Store.exists(directory) and directory.resolve() not in stores_made_here
        yield held and not theirs and owner_pid(directory) in (None, os.getpid())


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

    _engine: Engine | None  # None once closed
    _holder: Holder | None  # the server of this store to other processes, while this Store holds it

    def __new__(cls, path: str | Path | None = None, *, engine: str | None = None, hold: bool | str = True,
                wait: float | None = None, **_: Any) -> Store:
        """A store open in this process, or a client of the process that holds it (see :meth:`__init__`)."""
        from .holding.remote import client_for

        if _.get("timezone") is not None:
            zone(_["timezone"])  # a zone no one has is refused before a store is made (a developer's "NZ/Dunedin" left
            # a store in UTC behind, which then refused the right zone)
        store = super().__new__(cls)
        store._engine = None
        if path is None or str(path) == ":memory:":
            return store
        directory = Path(path).absolute()  # a holder runs clients' commands in their directories
        if not Store.exists(directory):
            if not _.get("create", True):
                return store  # (__init__ says there is none)
            try:  # made here, or by another process a moment before (its marker is written under the directory's
                store._engine = acquire(choose_engine(engine, directory), directory)  # lock, as the files are)
                return store
            except StoreLocked:
                pass  # made by another process meanwhile, which has it: waited for as any store is (a new user's
                # three ingests into one new store at once)
        deadline = time.monotonic() + (WAIT if wait is None else wait)
        while True:
            remote = client_for(directory, engine)
            if remote is not None:
                _as_the_holder_keeps_it(remote, _)
                # should the holder go, the client opens the store as this call asked (or finds the next holder)
                remote.open_again = partial(Store, directory, engine=remote.engine, hold=hold, wait=wait, **_)
                remote.kind = "python" if hold is True else str(hold or "python")
                return remote  # type: ignore[return-value]  # a Store as far as its callers can tell
            try:
                store._engine = acquire(choose_engine(engine, directory), directory)
                return store
            except StoreLocked as exc:
                if time.monotonic() >= deadline:  # (a new user's: an 18 s ingest refused every query meanwhile)
                    raise StoreLocked(f"{exc}; a command that does not serve it (an ingest, an import) keeps it until "
                                      f"it ends: try again then, or keep the store open with `graphmem serve` so "
                                      f"commands share it") from exc
                time.sleep(0.05)  # a one-off command has it for a moment, or a holder is starting

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        engine: str | None = None,
        timezone: str | None = None,
        clock: Callable[[], datetime] | None = None,
        embedder: Embedder | None = None,
        allow_future: bool = False,
        hold: bool | str = True,
        wait: float | None = None,
        create: bool = True,
    ):
        # Absolute: a holder runs its clients' command lines in their directories (os.chdir, for
        # the whole process), so a relative path would name another store meanwhile.
        self.path = None if path is None or str(path) == ":memory:" else Path(path).absolute()
        #: Accept transaction times more than a day past the wall clock (``recorded_at``, a
        #: replay's reference times, an imported log's): off, a write or import giving one is
        #: refused, since the store could take no write before that time again.
        self.allow_future = allow_future
        if not create and self.path is not None and self._engine is None and not Store.exists(self.path):
            raise NotFound(f"no graphmem store at {self.path} (create=False: Store(path) makes one by default)")
        if self._engine is None:  # not opened by __new__ (a new store, or one in memory)
            self._engine = acquire(choose_engine(engine, self.path), self.path)
        self._shared = shared_by(self._engine)
        self._holder = None
        self._clock = clock or (lambda: datetime.now(UTC))
        #: Whether this handle committed a write (the command line keeps a store it created once it did, whatever
        #: stops the command after: a Ctrl-C after an ingest's summary removed a store of 443 messages).
        self.wrote = False
        self.embedder = embedder  # semantic search, when an embeddings endpoint is configured
        try:
            self._setup(timezone)
            finish_pending(self._db)  # a purge whose file rewrite a crash interrupted
            finish_import(self._db)  # an import whose settings a crash kept from being written
            self._shared.forget()
            self._purged_messages_at_open()  # a purge whose message file a crash left behind
            if hold and self.path is not None:
                self._hold("python" if hold is True else hold)
        except BaseException:
            self.close()
            raise
        if self.path is not None:
            self._opened_by = os.getpid()  # a forked child exiting must not close its parent's store
            _open_here.add(self)

    def _hold(self, kind: str) -> None:
        """Serve this store to other processes (unless this process already does)."""
        from .holding.holder import Holder, held_here

        assert self.path is not None
        if held_here(self.path) is None:
            try:
                self._holder = Holder(self, self.path, kind)
            except OSError as exc:  # no socket can be made here: the store works, unshared
                warnings.warn(f"store {self.path} cannot be served to other processes ({exc}); they will "
                              "find it in use", RuntimeWarning, stacklevel=3)

    def _setup(self, timezone: str | None) -> None:
        held = self._db.table_names()
        if self._db.format < FORMAT:  # a store marked in this release's layout is not asked again
            refuse_old_layout(self._db, self.path, held)  # before anything is written to it
        for table in TABLES:
            if table.name not in held:
                self._db.run(f"schema/{table.name}")
        settings = self._meta()
        if "timezone" not in settings:
            zone(timezone or "UTC")
            self._db.run("store/meta_set", {"key": "timezone", "value": timezone or "UTC"})
        else:
            _refuse_other_zone(timezone, settings["timezone"])
        self.tz_name = timezone or settings.get("timezone", "UTC")
        self.tz = zone(self.tz_name)
        migrate(self._db, settings, self._write, self.kind_of)
        self._shared.forget()  # the migrations may have written settings
        self._db.mark_current()

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
        if self._holder is not None:
            self._holder.stop()
            self._holder = None
        if self._engine is not None:
            if self._engine.users == 1:  # the last Store on this path here: drop what they shared
                self._shared.snapshots.clear()
                self._shared.logs.clear()
                self._shared.recall = None
                if self._shared.messages is not None:
                    self._shared.messages.close()
                    self._shared.messages = None
            release(self._engine, keep_log=True)  # a small write-ahead log is replayed at the next open
            self._engine = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = self.path or ":memory:"
        return f"Store({str(where)!r}, engine={self._engine.name if self._engine else None!r})"

    def _meta(self) -> dict[str, str]:
        """The store's settings and counters (read once; every write that changes them says so)."""
        db = self._db
        with db.lock:  # read and kept in one step: no write can land between the two
            if self._shared.settings is None:
                self._shared.settings = dict(db.run("store/meta_all"))
            return dict(self._shared.settings)

    def time(self, value: TimeLike) -> datetime:
        """Read a user's time as aware UTC: ISO 8601 or a date (naive read in this store's zone),
        ``now``, or a phrase like "yesterday" or "2 weeks ago" read against now in this zone."""
        from .when import read_time  # the phrase grammar (~8 ms to load) only when a time is read

        return read_time(value, self.tz, self.now)

    def _time_or_none(self, value: TimeLike | None) -> datetime | None:
        return None if value is None else self.time(value)

    def now(self) -> datetime:
        """The store clock's current time (never before the latest write)."""
        now = self._clock()
        latest = self.latest_write()
        return now if latest is None or now > latest else latest

    def latest_write(self) -> datetime | None:
        """The transaction time of the latest write, or None for an empty log."""
        value = self._meta().get("last_write")
        return parse_time(value) if value else None

    def first_write(self) -> datetime | None:
        """The transaction time of the first write, or None for an empty log."""
        rows = self._db.run("store/decision_first")
        return stored(rows[0][0]) if rows and rows[0][0] is not None else None

    def first_fact(self) -> tuple[datetime, datetime | None] | None:
        """When the store first believed a fact (the transaction time of the first write that made a version), and,
        where that write approved a proposal, when the proposal was made (else None); None while no write made one.
        A fact approved from review is believed from its approval on: replayed messages approved months later leave
        the months between believing nothing."""
        rows = self._db.run("store/decision_first_fact")
        if not rows:
            return None
        at, proposed = rows[0]
        return stored(at), None if proposed is None else stored(proposed)

    # -- predicates and configuration (not log writes) ---------------------------------

    def predicates(self, *, in_use: bool = False) -> dict[str, PredicateKind]:
        """Every known predicate and its kind: the shipped defaults plus declarations; with ``in_use``, every
        predicate a version uses too (one never declared is ``many``: "sister_of", a typo's "wroks_at")."""
        db = self._db
        with db.lock:  # read and kept in one step (see _meta)
            if self._shared.predicates is None:
                declared = {name: check_predicate_kind(kind) for name, kind in questions.declared(db).items()}
                self._shared.predicates = {**DEFAULT_PREDICATES, **declared}
            known = dict(self._shared.predicates)
            if in_use:
                known = {**dict.fromkeys(questions.predicates_used(db), "many"), **known}
            return known

    def kind_of(self, predicate: str) -> PredicateKind:
        """The kind of a predicate; an undeclared one is 'many'."""
        return self.predicates().get(check_predicate(predicate), "many")

    def declare(self, predicate: str, kind: PredicateKind) -> None:
        """Declare a predicate's kind. Refused when versions already use it under another kind."""
        check_predicate(predicate)
        check_predicate_kind(kind)
        with self._db.lock:
            in_use = questions.predicate_in_use(self._db, predicate)
            refuse_predicate_kind_change(predicate, self.kind_of(predicate), kind, in_use)
            self._db.run("store/predicate_set", {"name": predicate, "kind": kind})
            self._shared.forget()

    def review_skips(self) -> list[str]:
        """Episode sources whose proposals skip review (manual entries by default)."""
        value = self._meta().get("review_skip", "manual")
        return [s for s in value.split(",") if s]

    def set_review_skips(self, sources: list[str]) -> None:
        """Choose which sources' proposals are written without review."""
        cleaned = [s.strip() for s in sources if s.strip()]
        if any("," in s for s in cleaned):
            raise InvalidInput("a source name cannot contain a comma")
        with self._db.lock:
            self._db.run("store/meta_set", {"key": "review_skip", "value": ",".join(cleaned)})
            self._shared.forget()

    # -- writes -------------------------------------------------------------------------

    @contextmanager
    def _write(self, recorded_at: TimeLike | None = None, *, bulk: bool = False) -> Iterator[Transaction]:
        """One atomic write at a strictly later transaction time (stored in bulk with ``bulk``)."""
        explicit = self._time_or_none(recorded_at)
        if explicit is not None:
            self._refuse_future(explicit)
        with self._db.lock:
            with self._db.transaction() as engine:
                meta = self._meta()
                previous = meta.get("last_write")
                latest = parse_time(previous) if previous else None
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
                txn = Transaction(engine, meta, at, self.tz)
                try:
                    yield txn
                    if created := txn.writes.rows.get("Entity"):  # told before anything is stored, so
                        self._tell_look_alikes(engine, previous, iso(txn.at), created)  # an error refuses it
                    txn.finish(bulk=bulk)
                finally:  # the write saved new settings (its time, the counters), or was undone
                    self._shared.settings = None
                    if txn.aliases_declared:  # its first alias declared alias_of
                        self._shared.predicates = None
            self.wrote = True
            if self._shared.recall is not None:  # committed: the search index follows
                self._shared.recall.written(previous, txn.meta, txn.decisions, txn.linked_versions)
        if self.embedder is not None:  # after the commit, outside the lock: a failure keeps the write
            from .recall._vectors import written

            try:
                versions, episodes = written(self._db, self.embedder.model, txn.decisions)
                self._embed(versions, episodes)
            except Exception as exc:  # the write has committed: it stands, whatever happens here
                warnings.warn(f"{exc}; the write is kept; run `graphmem embed` to add the missing vectors",
                              RuntimeWarning, stacklevel=3)

    def _tell_look_alikes(self, engine: Engine, previous: str | None, latest: str,
                          created: list[dict[str, Any]]) -> None:
        """Warn (:class:`LookAlikeName`) of each entity a write creates whose name looks like
        another entity's; called before the write stores anything, so a warning made an error
        refuses it. The skeletons of the store's names are read once and kept in step with its
        writes; read again when the latest write is not the one they last saw (another process
        wrote, or a write they saw was refused)."""
        from .core.lookalike import Skeletons, look_alike_warning

        shared, new = self._shared, {row["id"]: row for row in created}
        if shared.skeletons is None or shared.skeletons_at != previous:
            shared.skeletons = Skeletons((i, n) for i, n in engine.run("store/entity_names"))
        shared.skeletons_at = latest

        def entity(entity_id: str) -> Entity | None:  # one this write makes, or a stored one (not if purged)
            if entity_id in new:
                return Entity(**new[entity_id])
            return records.entity(rows[0]) if (rows := engine.run("store/entity_get", {"id": entity_id})) else None

        for entity_id, row in new.items():
            alike = [e for other in sorted(shared.skeletons.add(entity_id, row["name"])) if (e := entity(other))]
            if alike:
                warnings.warn(LookAlikeName(look_alike_warning(row["name"], alike)), stacklevel=5)

    def _said_by_now(self, reference: datetime | None) -> None:
        """Refuse a message said more than a day past the wall clock, unless the store allows it: its facts would
        hold from then on and end what holds now (a year typed wrong)."""
        now = None if reference is None or self.allow_future else too_far_ahead(reference)
        if now is not None:
            raise InvalidTime(f"a message said at {iso(reference)} is more than a day past the wall clock "
                              f"({iso(now)}): a message is said by now; allow a future time explicitly "
                              "(allow_future=True) if it is meant")

    def _refuse_future(self, at: datetime) -> None:
        now = None if self.allow_future else too_far_ahead(at)
        if now is not None:
            raise InvalidTime(f"transaction time {iso(at)} is more than a day past the wall clock ({iso(now)}); "
                              "the store could take no write before it again; allow a future transaction time "
                              "explicitly (--allow-future, allow_future=True) if it is meant")

    def _embed(self, versions: list[str], episodes: list[str],
               progress: Callable[[int, int], None] | None = None) -> None:
        if self.embedder is None:
            return
        from .recall._vectors import embed_ids

        ids, vectors = embed_ids(self._db, self.embedder, versions, episodes, progress)
        if self._shared.recall is not None:
            self._shared.recall.embedded(self.embedder.model, ids, vectors)

    def embed(self, progress: Callable[[int, int], None] | None = None) -> Embedded:
        """Make the vectors semantic search needs for every version and episode that has none yet
        (from this embedder's model); ``progress(done, total)`` is called after each batch."""
        from .recall._models import Embedded

        if self.embedder is None:
            raise InvalidInput("no embeddings endpoint; set GRAPHMEM_EMBED_BASE_URL (e.g. http://localhost:8000/v1) "
                               "and GRAPHMEM_EMBED_MODEL, or pass Store(..., embedder=Embedder(url, model))")
        from .recall._vectors import missing

        with self._db.lock:
            versions, episodes = missing(self._db, self.embedder.model)
        self._embed(versions, episodes, progress)
        return Embedded(model=self.embedder.model, versions=len(versions), episodes=len(episodes))

    def add(
        self,
        subject: str,
        predicate: str,
        obj: str,
        *,
        valid_from: TimeLike | None = None,
        valid_to: TimeLike | None = None,
        episode: str | None = None,
        quote: str | Said | None = None,
        recorded_at: TimeLike | None = None,
    ) -> Decision:
        """Assert ``subject -[predicate]-> obj`` over a valid period (default: from the episode's time, or now)."""
        kind = self.kind_of(predicate)
        start, end = self._time_or_none(valid_from), self._time_or_none(valid_to)
        with self._write(recorded_at) as txn:
            return txn.assert_fact(kind, subject, predicate, obj, start, end, txn.source(episode, quote))

    def add_many(self, facts: Iterable[Assertion | tuple[Any, ...]], *,
                 recorded_at: TimeLike | None = None) -> list[Decision]:
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
        prepared = [(kinds.get(check_predicate(i.predicate), "many"), i, self._time_or_none(i.valid_from),
                     self._time_or_none(i.valid_to)) for i in items]
        # the collector held off: a batch builds tens of thousands of objects and no cycles, and
        # a full collection in it rescans every object of the process (~25 ms at 1M versions)
        with collector_paused(), self._write(recorded_at, bulk=True) as txn:
            txn.prefetch((n for i in items for n in (i.subject, i.object)),
                         ((i.subject, i.predicate, start) for _, i, start, _ in prepared))
            return [txn.assert_fact(kind, i.subject, i.predicate, i.object, start, end, txn.source(i.episode, None))
                    for kind, i, start, end in prepared]

    def segment(self, subject: str, predicate: str, obj: str, *, valid_from: TimeLike, valid_to: TimeLike,
                episode: str | None = None, quote: str | Said | None = None,
                recorded_at: TimeLike | None = None) -> Decision:
        """State ``obj`` for a closed past period, cutting the covering history around it."""
        kind = self.kind_of(predicate)
        start, end = self.time(valid_from), self.time(valid_to)
        with self._write(recorded_at) as txn:
            return txn.segment_fact(kind, subject, predicate, obj, start, end, txn.source(episode, quote))

    def end(self, subject: str, predicate: str, obj: str | None = None, *, at: TimeLike | None = None,
            episode: str | None = None, quote: str | Said | None = None,
            recorded_at: TimeLike | None = None) -> Decision:
        """The world changed: close what held at ``at`` (default: the episode's time, or now)."""
        kind = self.kind_of(predicate)
        moment = self._time_or_none(at)
        try:
            with self._write(recorded_at) as txn:
                return txn.end_fact(kind, subject, predicate, obj, moment, txn.source(episode, quote))
        except Conflict as exc:
            unknown = [name for name in (subject, obj) if name is not None and self._entity_or_none(name) is None]
            if unknown:  # (a name no entity has: the store holds nothing of it to end)
                raise Conflict(f"{exc}{self._near_names(unknown[0])}") from None  # "Tom Bradlee": "did you mean
                # 'Tom Bradley'?" (a new user's typo got no hint on a write, where reads give one)
            raise

    def retract(self, version_id: str, *, reason: str, episode: str | None = None,
                quote: str | Said | None = None, recorded_at: TimeLike | None = None) -> Decision:
        """We were wrong: withdraw a believed version as never true, keeping it and the reason."""
        reason = _required_reason(reason)
        with self._write(recorded_at) as txn:
            return txn.retract_version(version_id, reason, txn.source(episode, quote))

    def correct(self, version_id: str, obj: str | None = None, *, reason: str, valid_from: TimeLike | None = None,
                valid_to: TimeLike | None = None, episode: str | None = None, quote: str | Said | None = None,
                recorded_at: TimeLike | None = None) -> Decision:
        """Retract a version and assert the right value for the same period, in one write; or, with
        ``valid_from`` and/or ``valid_to``, the value (``obj``, default the version's own) for the period they
        give, keeping the version's other end ("no wait, it was Tuesday"). ``valid_to="open"``: no end."""
        reason = _required_reason(reason)
        open_end = isinstance(valid_to, str) and valid_to.strip().lower() == "open"
        start, end = self._time_or_none(valid_from), None if open_end else self._time_or_none(valid_to)
        with self._write(recorded_at) as txn:
            return txn.correct_version(version_id, obj, reason, self.kind_of, txn.source(episode, quote), start, end,
                                       open_end)

    def add_episode(self, text: str, *, kind: str = "manual", actor: str | None = None,
                    reference_time: TimeLike | None = None, recorded_at: TimeLike | None = None) -> Episode:
        """Record a piece of source material (its reference time defaults to now)."""
        reference = self._time_or_none(reference_time)
        with self._write(recorded_at) as txn:
            episode = txn.add_episode(text, kind, actor, reference)
            txn.log("EPISODE", episode=episode.id)
            return episode

    def remember(self, text: str, facts: Iterable[review.ProposedFact] = (), *, kind: str = "chat",
                 actor: str | None = None, reference_time: TimeLike | None = None, source: str | None = None,
                 approve: bool = False, recorded_at: TimeLike | None = None) -> tuple[Episode, list[Proposal]]:
        """Record an episode and propose the facts drawn from it, in one atomic write.

        ``facts`` are objects with ``op, subject, predicate, object, valid_from, valid_to, quote``
        (e.g. :class:`graphmem.extract_rules.ExtractedFact`). They wait for review unless
        ``approve`` is set or their source (default: the episode kind) skips review; a fact its
        extractor marked unsure (``sure`` False) waits with ``approve`` too. Should the gate refuse
        an approved fact ("last day at Acme" where nothing at Acme is held), the episode is recorded
        all the same: each fact is then written on its own, a refused one staying pending with the gate's
        reason (:attr:`Proposal.reason`), from a source that skips review too, so that the answer holds a
        proposal for every fact, in order. A fact that cannot be proposed at all (an unknown op, no object) is
        refused with the message, as before.
        """
        reference = self._time_or_none(reference_time)
        self._said_by_now(reference)
        said = Said.model_construct(text=text, kind=kind, actor=actor, reference_time=reference)  # checked as stored
        with self._write(recorded_at) as txn:  # (at a given time, the writes after the first a tick apart)
            clock = self._clock if recorded_at is None else (lambda: txn.at)
            [found] = remember.record(txn, [(said, reference, list(facts))], approve=approve, replay=False,
                                      skips=self.review_skips(), kind_of=self.kind_of, clock=clock, bulk=False,
                                      tz=self.tz, source=source or kind, keep_refused=True)
        return found.episode, found.proposals

    def remember_many(self, messages: Iterable[tuple[Said, Iterable[F]]], *, approve: bool = False,
                      replay: bool = False) -> list[Remembered[F]]:
        """Record many episodes, each with the facts drawn from it proposed, stored together.

        ``messages`` are ``(said, facts)`` pairs: a :class:`Said` and facts as :meth:`remember`
        takes them. Each message is a write of its own in the log, as one :meth:`remember` call:
        at the write time (a tick after the write before), or with ``replay`` at its reference
        time (a tick after the write before, when that is not later). All of them are stored in
        one engine transaction, so all of them land or none; for many messages, what the gate
        reads for them is fetched at once, and what they write is stored in bulk.

        A fact its extractor marked unsure (``sure`` False) waits for review even with ``approve``.
        Should the gate refuse a fact of a message (approved with ``approve``, or from a source
        that skips review), the message is recorded all the same and each fact written on its
        own: a refused one stays pending, or is not proposed when its source skips review. Each
        message's answer is ``(episode, proposals, refused)``, ``refused`` holding ``(fact,
        reason)`` pairs.
        """
        items = [(said, self._time_or_none(said.reference_time), list(facts)) for said, facts in messages]
        for _, reference, _ in items:
            self._said_by_now(reference)
        if not items:
            return []
        if replay:  # each reference time is a transaction time: none may be far ahead
            for _, reference, _ in items:
                if reference is not None:
                    self._refuse_future(reference)
        skips = self.review_skips()
        bulk = len(items) >= _BULK
        with self._db.lock:  # the latest write read and the write made in one step
            first = remember.first_write_time(items[0][1], self.latest_write(), replay=replay, clock=self._clock)
            with self._write(first, bulk=bulk) as txn:
                return remember.record(txn, items, approve=approve, replay=replay, skips=skips,
                                       kind_of=self.kind_of, clock=self._clock, bulk=bulk, tz=self.tz)

    # -- review queue ----------------------------------------------------------------------

    def propose(self, subject: str, predicate: str, obj: str | None = None, *,
                op: Literal["assert", "end"] = "assert",
                valid_from: TimeLike | None = None, valid_to: TimeLike | None = None, episode: str | None = None,
                quote: str | None = None, source: str = "manual", recorded_at: TimeLike | None = None) -> Proposal:
        """Queue a fact for review; sources configured to skip review are written at once."""
        fact = Proposal(id="", op=op, subject=subject, predicate=predicate, object=obj,
                        valid_from=self._time_or_none(valid_from), valid_to=self._time_or_none(valid_to),
                        quote=quote, proposed_at=datetime.now(UTC))
        with self._write(recorded_at) as txn:
            if episode:
                txn.episode(episode)
            return review.queue(txn, fact, episode, source, source in self.review_skips(), self.kind_of)

    def proposals(self, state: str | None = "pending") -> list[Proposal]:
        """The review queue: pending proposals (or those in ``state``: pending, approved or rejected; None or
        "all" for all)."""
        if state is not None and state not in _PROPOSAL_STATES:
            raise InvalidInput(f"no proposal state {state!r}; give one of {', '.join(_PROPOSAL_STATES)} (or None)")
        found = questions.proposals(self._db)
        return [p for p in found if state in (None, "all") or p.state == state]

    def _proposal(self, proposal_id: str) -> Proposal:
        """A pending proposal by id (read alone: approving one does not read the whole queue)."""
        rows = self._db.run("store/proposal_get", {"id": proposal_id})
        if not rows:
            raise NotFound(f"no proposal {proposal_id!r}; see `graphmem review list`")
        proposal = records.proposal(rows[0])
        if proposal.state != "pending":
            raise Conflict(f"proposal {proposal_id} is already {proposal.state}")
        return proposal

    def _said_at(self, episode_id: str | None) -> datetime | None:
        """When the episode ``episode_id`` was said (its reference time), None without one or where none is stored."""
        try:
            return None if episode_id is None else self.episode(episode_id).reference_time
        except NotFound:
            return None

    def _pending(self, proposal_ids: list[str]) -> list[Proposal]:
        """The pending proposals named, each once, in order; "P10" and "10" name p10."""
        named = ["p" + i.strip().lstrip("pP") if isinstance(i, str) and re.fullmatch(r"\s*[pP]?\d+\s*", i) else i
                 for i in proposal_ids]
        return [self._proposal(pid) for pid in dict.fromkeys(named)]

    def approve(self, proposal_ids: list[str], *, recorded_at: TimeLike | None = None) -> list[Decision]:
        """Write pending proposals through the gate at approval time (one atomic call: a proposal the
        gate refuses approves none, and the error names it)."""
        pending = self._pending(proposal_ids)
        with self._write(recorded_at) as txn:
            decisions = []
            for p in pending:
                try:
                    decisions.append(review.approve(txn, p, self.kind_of(p.predicate)))
                except (InvalidInput, NotFound, Conflict) as exc:
                    what = " ".join(part for part in (p.op, p.subject, p.predicate, p.object) if part)
                    held = ""
                    if p.op == "end" and p.object and "the store holds no" in str(exc):
                        # "I quit padel", never said begun: what the end says is that it held until then (a new
                        # user's: the proposal could be neither approved nor turned into what it meant)
                        said = iso((p.valid_to or p.valid_from or self._said_at(p.episode) or p.proposed_at
                                    ).replace(microsecond=0))  # (when the message said it, not when approved)
                        source = f" --episode {shlex.quote(p.episode)}" if p.episode else ""
                        held = (f"; to record that it held until then: `graphmem add --from WHEN --to {said}{source} "
                                f"-- {shlex.quote(p.subject)} {p.predicate} {shlex.quote(p.object)}` (with this "
                                "store's --store), then reject it")
                    raise type(exc)(f"proposal {p.id} ({what}): {exc}; nothing was approved (reject it, or "
                                    f"approve the others by id){held}") from exc
            return decisions

    def approve_what_holds(self, proposal_ids: list[str], *, recorded_at: TimeLike | None = None
                           ) -> tuple[list[Decision], list[tuple[Proposal, str]]]:
        """Approve those of the proposals the gate takes, in their order, in one atomic write; those it refuses
        stay pending and are answered with why (``review approve --all``: every refusal at once, in one pass).
        A proposal that only an earlier refused one would have made possible is refused too."""
        pending = self._pending(proposal_ids)
        refused: list[tuple[Proposal, str]] = []
        try:
            with self._write(recorded_at) as txn:
                decisions = []
                for p in pending:
                    try:
                        with txn.attempt():  # a refusal undoes this one approval only
                            decisions.append(review.approve(txn, p, self.kind_of(p.predicate)))
                    except (InvalidInput, NotFound, Conflict) as exc:
                        refused.append((p, str(exc)))
                if not decisions:
                    raise _NothingApproved
                return decisions, refused
        except _NothingApproved:
            return [], refused

    def reject(self, proposal_ids: list[str], *, reason: str, recorded_at: TimeLike | None = None) -> list[Decision]:
        """Reject pending proposals, keeping them with the reason."""
        reason = _required_reason(reason)
        pending = self._pending(proposal_ids)
        with self._write(recorded_at) as txn:
            return [review.reject(txn, p, reason) for p in pending]

    # -- purge ---------------------------------------------------------------------------------

    def purge(self, target: Literal["entity", "episode", "version"], target_id: str, *,
              recorded_at: TimeLike | None = None) -> Tombstone:
        """Hard-delete an entity, an episode or a version, leaving a content-free tombstone.

        The store's files are then rewritten (see :mod:`graphmem.log.backup`), so the removed text
        is in none of them: this costs about an export and an import of the whole store.
        """
        from .write.purge import purge

        if target not in ("entity", "episode", "version"):
            raise InvalidInput(f"purge takes entity, episode or version, not {target!r}")
        try:
            with compacting(self._db), self._write(recorded_at) as txn:
                tombstone = purge(txn, target, target_id)
            self._purge_messages()
            return tombstone
        finally:  # the files were rewritten: nothing read before can be kept
            self._shared.forget()
            self._shared.snapshots.clear()
            self._shared.logs.clear()

    def _purged_messages_at_open(self) -> None:
        """A kill between a purge's commit and its message file's leaves purged words in the file: the file
        follows the store at once when its tombstone counter is behind the store's, not at the next search."""
        from .recall._file import FILE, purged_since

        directory = self._db.directory
        if directory is not None and (directory / FILE).exists() and purged_since(directory / FILE, self._meta()):
            self._purge_messages()

    def _purge_messages(self) -> None:
        """Take what a purge removed out of the message index's file now, not at the next search."""
        from .recall._file import FILE

        directory = self._db.directory
        if self._shared.messages is not None or (directory is not None and (directory / FILE).exists()):
            with self._db.lock:
                self._message_index().sync(self._db, self._meta(), self.tz)

    def backup(self, dest: str | Path) -> BackupInfo:
        """Copy the store into a new directory ``dest``, as one consistent moment of its log."""
        return backup(self._db, dest)

    def restore(self, src: str | Path) -> BackupInfo:
        """Replace everything in this store with the backup in ``src``."""
        try:
            return restore(self._db, src, self.tz_name)
        finally:
            self._shared.forget()
            self._shared.snapshots.clear()
            self._shared.logs.clear()

    #: The embedded engines a store can use.
    ENGINES = ENGINES

    @property
    def made_here(self) -> bool:
        """Whether this process made the store (rather than opened one another process made, or that existed)."""
        return self.path is not None and self.path.resolve() in stores_made_here

    @staticmethod
    def exists(path: str | Path) -> bool:
        """True when ``path`` holds a store (made by ``Store(path)`` or ``graphmem init``)."""
        return (Path(path) / MARKER_FILE).exists()

    @staticmethod
    def restore_new(path: str | Path, src: str | Path) -> BackupInfo:
        """Create a new store at ``path`` (a new directory) from the backup in ``src``."""
        return restore_into(path, src)

    @staticmethod
    def migrate(path: str | Path, *, engine: str | None = None, backup_to: str | Path | None = None,
                progress: Callable[[str, int, int], None] | None = None) -> BackupInfo | None:
        """Convert a store written by an older release into this release's layout; return the
        backup taken first (None when the store needed no conversion: nothing is written then).

        The backup goes to ``backup_to`` (a new directory; default: beside the store, named
        ``<store>.before-migrate-<time>``). The store must not be open in another process. The
        conversion rewrites the store's files and swaps them in with one rename: a kill at any
        moment leaves the old store (the half-made files are discarded at the next open) or the
        converted one. ``progress(phase, done, total)`` hears how far it is.
        """
        directory = Path(path).absolute()
        if not Store.exists(directory):
            raise NotFound(f"no graphmem store at {directory}")
        report = progress or (lambda phase, done, total: None)
        db = acquire(choose_engine(engine, directory), directory)
        try:
            if layout_is_current(db):
                return None
            if backup_to is None:
                stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
                backup_to = directory.with_name(f"{directory.name}.before-migrate-{stamp}")
            report("backing up", 0, 1)
            info = backup(db, backup_to)
            upgrade(db, progress)
        finally:
            release(db)
        Store(directory, engine=engine, hold=False).close()  # the in-place steps, on the new layout
        return info

    def compact(self) -> None:
        """Rewrite the store's files, dropping the bytes of deleted rows (purge does this itself)."""
        compact(self._db)

    def checkpoint(self) -> None:
        """Write the engine's log of recent changes into the database file now."""
        self._db.run_text("CHECKPOINT", {})

    def most_changed(self, limit: int = 10) -> list[tuple[str, str, int]]:
        """The (subject id, predicate, number of versions) written most often, most first."""
        return audit.most_changed(self._db, limit)

    def most_believed(self, limit: int = 10, as_of: TimeLike | None = None) -> list[tuple[Entity, int]]:
        """The entities that the most facts believed at ``as_of`` (default now; at any valid time) are about, as
        their subject (alias facts not counted), with how many, most first: whom a memory is mostly about (the
        explorer opens on the first). Objects are not counted: a city many people visited is not what it is about."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInput("limit is a whole number from 1 to 1000")
        return audit.most_believed(self._db, self.moments(as_of)[0], limit)

    def believed_counts(self, moments: Iterable[TimeLike]) -> list[tuple[datetime, int]]:
        """How many versions were believed and valid at each moment (as of it, valid at it)."""
        return audit.believed_counts(self._db, [self.time(m) for m in moments])

    # -- queries ---------------------------------------------------------------------------------

    def moments(self, as_of: TimeLike | None = None,
                valid_at: TimeLike | None = None) -> tuple[datetime, datetime | None]:
        """The transaction and valid times a question asks about, as every query reads them:
        ``as_of`` defaults to now, ``valid_at`` to ``as_of``; ``valid_at="all"`` is None (any valid time)."""
        t = self.now() if as_of is None else self.time(as_of)
        if isinstance(valid_at, str) and valid_at.strip().lower() == ALL:
            return t, None
        return t, (t if valid_at is None else self.time(valid_at))

    def beliefs(self, as_of: TimeLike | None = None, valid_at: TimeLike | None = None, *,
                about: str | None = None) -> list[Version]:
        """What the store believed at ``as_of`` (default now), valid at ``valid_at``.

        ``valid_at`` defaults to ``as_of``; "all" gives every valid time. With ``about`` (an
        entity's name or id), only the facts with that entity as subject or object; an entity
        the store does not know is NotFound.
        """
        moments = self.moments(as_of, valid_at)
        names = None if about is None else self._names_of(self.entity(about).id, *moments)
        return questions.beliefs(self._db, *moments, names)

    def beliefs_arrow(self, as_of: TimeLike | None = None, valid_at: TimeLike | None = None, *,
                      about: str | None = None) -> pa.Table:
        """What :meth:`beliefs` answers, as a pyarrow Table: one row per version, one column per
        field of :class:`Version` in its order (times UTC, open ends null, ``status`` as seen from
        ``as_of`` and ``valid_at``). Built column by column, no Python object per row: for large
        answers, for DuckDB, pandas or Polars (``Version(**row)`` makes a model of a row on demand).
        """
        moments = self.moments(as_of, valid_at)
        names = None if about is None else self._names_of(self.entity(about).id, *moments)
        return questions.beliefs_arrow(self._db, *moments, names)

    def snapshot(self, as_of: TimeLike | None = None, valid_at: TimeLike | None = None) -> nx.MultiDiGraph:
        """The beliefs as a networkx MultiDiGraph (nodes: entity ids; edges keyed by version id)."""
        return questions.snapshot(self._db, *self.moments(as_of, valid_at))

    def entity(self, name_or_id: str) -> Entity:
        """An entity by id or name, or NotFound."""
        found = self._entity_or_none(name_or_id)
        if found is None:
            raise NotFound(f"no entity named {name_or_id!r}" + self._near_names(name_or_id))
        return found

    def _entity_or_none(self, name_or_id: str) -> Entity | None:
        """An entity by id or name, or None (no names close to it looked for: a question, not an error to explain)."""
        for candidate in dict.fromkeys((entity_key(name_or_id), name_or_id)):
            rows = self._db.run("store/entity_get", {"id": candidate})
            if rows:
                return records.entity(rows[0])
        return None

    def _spelled_without_accents(self, name: str) -> str | None:
        """The one entity's name ``name`` is, typed without its accents ("Siobhan" for "Siobhán", on a keyboard with
        none: a new user's), or None (none, or more than one)."""
        key = entity_key(name)
        if len(key) < 3 or unaccented(key) != key:
            return None
        found = {e.name for e in self.spelled_like(key, whole=True, limit=2)}
        return next(iter(found)) if len(found) == 1 else None

    def _near_names(self, name: str) -> str:
        """"; did you mean 'Priya'?" for a name like a known one ("Pryia"), else nothing (:meth:`near_names`)."""
        near = self.near_names(name)
        more = f" (and {len(near) - 3} more)" if len(near) > 3 else ""
        return f"; did you mean {' or '.join(repr(n) for n in near[:3])}{more}?" if near else ""

    def near_names(self, name: str) -> list[str]:
        """The names of entities ``name`` may be a typo of ("Priya" for "Pryia"), or one word of ("Rebecca Hall" for
        "Rebecca"), closest first: among the entities whose names share its first two letters (a new user's typo got
        no hint where a predicate's did); [] for none, and for a name of fewer than three letters."""
        import difflib

        key = entity_key(name)
        if len(key) < 3:
            return []
        plain = unaccented(key)
        probes = spelling_probes(key) | {plain[-2:]}  # "pirya" finds "Priya" by "ya": letters swapped
        rows = [row for probe in sorted(probes)  # "emile" finds "Émile" by its last letters too
                for row in self._db.run("store/entity_find", {"text": probe, "limit": 500})]
        names = {e.id: e.name for e in map(records.entity, rows)}  # keyed as names compare
        # the closest spellings first ("Rebeca"; of as many words), then the names of which it is one whole word
        # ("Rebecca Hall"), in order
        alike = [k for k in names if len(k.split()) == len(key.split())]  # "Zoë" for "Zoe" first: the same
        # letters with other accents
        near = list(dict.fromkeys([k for k in names if unaccented(k) == plain]
                                  + difflib.get_close_matches(key, alike, 3, cutoff=0.75)
                                  + sorted((k for k in names if plain in unaccented(k).split()),
                                           key=lambda k: names[k].casefold())))  # "Ines" of "Inês Moreira"
        if not near:  # two letters swapped can leave no probe in common ("olso", "iad"): the names of its first
            # letter, those starting with it first, by a closer reading of short ones (a reviewer's)
            rows = self._db.run("store/entity_find", {"text": plain[:1], "limit": 2000})
            names = {e.id: e.name for e in map(records.entity, rows)}
            starting = [k for k in names if k.startswith(key[:1]) and len(k.split()) == len(key.split())]
            near = difflib.get_close_matches(key, starting, 3, cutoff=0.75 if len(key) > 4 else 0.65)
        return [names[k] for k in near]

    def entities(self) -> list[Entity]:
        """Every entity."""
        return questions.entities(self._db)

    def same_words(self, name: str) -> list[Entity]:
        """The entities, other than the one named ``name``, whose names have its words with other accents, case or
        order ("Jose Alvarez" and "Álvarez José" of "José Álvarez"): separate entities, which a purge of one leaves
        (the command line names them after purging; alias or purge them too if they are the same person). See
        :meth:`look_alikes` for names alike in other scripts."""
        key = entity_key(name)
        words = sorted(unaccented(key).split())
        return sorted((e for e in self.entities() if e.id != key and sorted(unaccented(e.id).split()) == words),
                      key=lambda e: e.name.casefold())

    def find_entities(self, text: str, limit: int = 20) -> list[Entity]:
        """Entities whose name contains ``text`` (any case), names starting with it first; typed without accents, it
        finds, after those, the names that hold it with theirs ("ines" finds "Inês Moreira", on a keyboard with none:
        a new user's; :meth:`spelled_like`)."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInput("limit is a whole number from 1 to 1000")
        key = entity_key(text)
        found = [records.entity(r) for r in self._db.run("store/entity_find", {"text": key, "limit": limit})]
        if len(found) < limit and len(key) >= 2 and unaccented(key) == key:
            seen = {e.id for e in found}
            found += [e for e in self.spelled_like(key, limit=limit) if e.id not in seen]
        return found[:limit]

    def spelled_like(self, name: str, *, whole: bool = False, limit: int = 20) -> list[Entity]:
        """Entities whose name holds ``name`` (is it, with ``whole``) with any accents on its letters, or none ("ines"
        and "Inês Moreira", "Zoë" and "Zoe"), names starting with it first."""
        pattern = re.compile(spelled_pattern(entity_key(name)))
        matches = pattern.fullmatch if whole else pattern.search
        # (matched here: the engines' regexp_matches compiles the pattern again at each row, 3 s for 20,000 names)
        ids = sorted((row[0] for row in self._db.run("store/entity_ids", {}) if matches(row[0])),
                     key=lambda i: (not pattern.match(i), len(i), i))
        return [records.entity(row) for i in ids[:limit] for row in self._db.run("store/entity_get", {"id": i})]

    def neighbourhood(self, focus: str, depth: int = 1, as_of: TimeLike | None = None,
                      valid_at: TimeLike | None = None,
                      predicates: list[str] | None = None, limit: int | None = None) -> Neighbourhood:
        """The entities within ``depth`` hops of ``focus`` and the facts between them, as believed
        at ``as_of`` (default now) and valid at ``valid_at`` (default ``as_of``; "all": any time).

        Facts are reached through the focused entity's edges, hop by hop, never by scanning
        every edge; ``predicates`` keeps only facts of those predicates; ``limit`` caps the
        entities (nearest first; ``truncated`` says when some were left out). Entities carry
        their kind as every view shows it (see :mod:`graphmem.core.entity_kinds`). The focus's
        other names believed then (its aliases) are focused with it, at no hops; ``groups`` gives each
        entity shown that has other names then its group's leading entity, and the names of one entity
        share its kind.
        """
        from .read.neighbourhood import MAX_DEPTH, neighbourhood

        if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
            raise InvalidInput(f"depth is a whole number of hops from 0 to {MAX_DEPTH}")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise InvalidInput("limit is a whole number of entities, at least 1")
        wanted = sorted({check_predicate(p) for p in predicates}) if predicates else None
        found, moments = self.entity(focus), self.moments(as_of, valid_at)
        also = tuple(self.entity(e) for e in self._names_of(found.id, *moments) if e != found.id)  # its aliases
        return neighbourhood(self._db, found, depth, *moments, wanted, limit, also, self._any_alias())

    # -- who is who: aliases ------------------------------------------------------------

    def _any_alias(self) -> bool:
        """Whether the store ever held an alias: the first alias written (or imported) declares
        ``alias_of``, so a store without one pays nothing to look for aliases."""
        return ALIAS in self.predicates()

    def _names_of(self, entity_id: str, as_of: datetime, valid_at: datetime | None) -> tuple[str, ...]:
        """The entities believed at ``as_of`` (valid at ``valid_at``; None: any) to be ``entity_id``."""
        if not self._any_alias():
            return (entity_id,)
        return read_aliases.group_of(self._db, entity_id, as_of, valid_at)

    def knows_speaker(self, name: str) -> bool:
        """Whether ``name`` is someone the store has heard of as a speaker could be: an entity by that name, or
        the actor of a message. A search's ``speaker`` that is neither (a typo) would make "I" mean nobody."""
        if self._entity_or_none(name) is not None:
            return True
        return bool(self._db.run("store/episode_by_actor", {"name": name.strip(), "actor": name.strip().lower()}))

    def heard_anything(self) -> bool:
        """Whether the store holds any episode (a message, a tool call, a manual entry)."""
        return bool(self._db.run("store/episode_any", {}))

    def episodes_said(self, text: str, kind: str) -> list[Episode]:
        """The episodes of ``kind`` holding exactly ``text``, oldest id first (a message told again is found)."""
        return [records.episode(row) for row in self._db.run("store/episode_said", {"kind": kind, "text": text})]

    def names_of(self, entity: str, as_of: TimeLike | None = None,
                 valid_at: TimeLike | None = "all") -> list[Entity]:
        """Every entity believed at ``as_of`` (default now) to be ``entity`` (its aliases), the one
        seen first (the group's leader) first; just the entity itself when it has no alias."""
        found = self.entity(entity)
        names = self._names_of(found.id, *self.moments(as_of, valid_at))
        return [found if e == found.id else self.entity(e) for e in names]

    def alias(self, name: str, of: str, *, valid_from: TimeLike | None = None, valid_to: TimeLike | None = None,
              episode: str | None = None, quote: str | Said | None = None,
              recorded_at: TimeLike | None = None) -> Decision:
        """Say that ``name`` and ``of`` name one entity: the fact ``name -[alias_of]-> of``.

        Ended with :meth:`end_alias` (either way round) and retracted like any fact; refused (Conflict,
        nothing written) for an entity and itself, a person and a place, or two entities a believed
        fact links as two (see :mod:`graphmem.core.aliases`).
        """
        return self.add(name, ALIAS, of, valid_from=valid_from, valid_to=valid_to, episode=episode, quote=quote,
                        recorded_at=recorded_at)

    def end_alias(self, name: str, of: str, *, at: TimeLike | None = None, episode: str | None = None,
                  quote: str | Said | None = None, recorded_at: TimeLike | None = None) -> list[Decision]:
        """``name`` no longer names ``of`` from ``at`` on (default: the episode's time, or now): the alias facts
        between them ended, whichever way round each was said (``name alias_of of``, ``of alias_of name``: one
        entity either way), in one write. Conflict when neither holds then (why, of the way that was said)."""
        moment = self._time_or_none(at)
        with self._write(recorded_at) as txn:
            source = txn.source(episode, quote)
            ended, refused = [], []
            for subject, obj in ((name, of), (of, name)):
                try:
                    with txn.attempt():
                        ended.append(txn.end_fact(self.kind_of(ALIAS), subject, ALIAS, obj, moment, source,
                                                  other_names=False))  # (not "Mrs H"'s other alias, a new user's)
                except Conflict as exc:
                    refused.append(exc)
            if not ended:  # the way round that was said knows why ("v1 is valid from …"); the other holds nothing
                if not self._aliases_between(name, of) and None not in (self._entity_or_none(name),
                                                                         self._entity_or_none(of)):
                    raise Conflict(f"nothing to end: no alias fact joins {name} and {of} themselves (they may be one "
                                   f"through other names: graphmem alias list shows which alias facts join them)")
                raise self._alias_starts_later(name, of, moment) or self._alias_ended(name, of, moment) or next(
                    (e for e in refused if "the store holds no" not in str(e)), refused[0])
            return ended

    def _aliases_between(self, name: str, of: str) -> list[Version]:
        """The alias facts believed now between ``name`` and ``of``, either way round, at any valid time (none where
        either is no entity): what :meth:`_alias_ended` and :meth:`_alias_starts_later` explain a refusal by."""
        ends = (self._entity_or_none(name), self._entity_or_none(of))
        if ends[0] is None or ends[1] is None:
            return []
        ids = {ends[0].id, ends[1].id}
        return [v for v in questions.beliefs(self._db, self.now(), None, ids)
                if v.predicate == ALIAS and {v.subject_id, v.object_id} == ids]

    def _alias_ended(self, name: str, of: str, at: datetime | None) -> Conflict | None:
        """Why an alias cannot end at ``at`` when it already has: when it ended (a new user's: "nothing to end: no
        believed version is valid at …" said nothing of that); else None."""
        ended = [v for v in self._aliases_between(name, of)
                 if v.valid_to is not None and (at is None or v.valid_to <= at)]
        if not ended:
            return None
        v = max(ended, key=lambda v: v.valid_to or v.valid_from)
        return Conflict(f"nothing to end: {v.id} ({v.subject} alias_of {v.object}) already ended at {iso(v.valid_to)}")

    def _alias_starts_later(self, name: str, of: str, at: datetime | None) -> Conflict | None:
        """Why an alias cannot end at ``at``, when it was recorded as starting later (``alias add`` without
        ``--from`` starts it when it is added; its start is read by nothing else), with the command that gives it
        its real span; else None."""
        if at is None:
            return None
        later = [v for v in self._aliases_between(name, of) if v.valid_from > at]
        if not later:
            return None
        v = later[0]
        return Conflict(f"nothing to end at {iso(at)}: {v.id} ({v.subject} alias_of {v.object}) is valid from "
                        f"{iso(v.valid_from)} (an alias added without --from starts when it is added; nothing reads "
                        f"its start but this); give it its real span instead: graphmem correct {v.id} --from START "
                        f"--to {iso(at)} --reason \"...\"")

    def aliases(self, as_of: TimeLike | None = None, valid_at: TimeLike | None = "all") -> list[AliasGroup]:
        """The names believed one at ``as_of`` (default now; valid at ``valid_at``, default any
        valid time): one group per entity that has aliases, with the alias facts that join it."""
        as_of_time, valid_time = self.moments(as_of, valid_at)
        if not self._any_alias():
            return []
        facts, groups = read_aliases.believed(self._db, as_of_time, valid_time)
        everyone = {e for members in groups.members.values() for e in members}
        stored = {e: self.entity(e) for e in everyone}
        # the kind views show: every name's facts believed then, read in one statement (one per member was 4-5 times
        # slower on a store of 3,000 groups: a reviewer's)
        kinds = entity_kinds.effective_kinds(questions.beliefs(self._db, as_of_time, None, everyone),
                                             {e: x.kind for e, x in stored.items()}, dict(groups.leader))
        found = []
        for leader, members in groups.members.items():
            entities = [stored[e].model_copy(update={"kind": kinds.get(e, stored[e].kind)}) for e in members]
            joining = [v for v in facts if v.subject_id in members]
            found.append(AliasGroup(id=leader, name=entities[0].name, entities=entities, versions=joining))
        return sorted(found, key=lambda g: g.name.casefold())

    def alias_clashes(self, as_of: TimeLike | None = None) -> list[tuple[Version, Version]]:
        """Facts of a ``one`` predicate believed at ``as_of`` (default now) under two names of one
        entity that hold at once with other values ("Mel lives_in Paris", "Melanie lives_in
        Berlin"): for review; nothing is closed for them."""
        from .core.aliases import clashes

        if not self._any_alias():
            return []
        as_of_time = self.moments(as_of)[0]
        groups = read_aliases.groups_at(self._db, as_of_time, None)
        return clashes(self.beliefs(as_of_time, "all"), groups, self.predicates())

    def kind(self, entity: str) -> str:
        """An entity's kind as views show it: the one set with :meth:`set_kind`, else inferred
        from the predicates of every fact it takes part in (see :mod:`graphmem.core.entity_kinds`), under every name
        it goes by now (its aliases: "Nandini" is a person where "Nandu" is)."""
        found = self.entity(entity)
        group = self.names_of(found.id)  # the names of one entity share its kind, as every view shows it
        versions = entity_kinds.kept_as_said({v.id: v for e in group for v in self.versions(e.id)}.values())
        same = {e.id: group[0].id for e in group} if len(group) > 1 else None
        return entity_kinds.effective_kinds(versions, {e.id: e.kind for e in group}, same)[found.id]

    def set_kind(self, entity: str, kind: str) -> Entity:
        """Say what an entity is (person, place, organisation, ...; "auto" to infer it again).

        Configuration, not a log write: the kind is kept with the entity (and in exports) and
        every view colours the entity by it.
        """
        found = self.entity(entity)
        chosen = entity_kinds.check_entity_kind(kind)
        stored = entity_kinds.kind_from_name(found.name) if chosen == entity_kinds.AUTO else chosen
        with self._db.lock:
            self._db.run("store/entity_kind_set", {"id": found.id, "kind": stored})
            self._shared.snapshots.clear()  # projections for Cypher as of a date hold the old kind
        return found.model_copy(update={"kind": stored})

    def history(self, subject: str, predicate: str) -> list[Version]:
        """Every version of (subject, predicate) ever written, newest first, status as seen now;
        under every name the subject is believed now to go by (its aliases)."""
        check_predicate(predicate)
        now = self.now()
        if not self._any_alias():  # read by the key the name has: no statement to find the entity first
            found = questions.history(self._db, (entity_key(subject),), predicate, now)
            if found:  # else the entity may go by the name as given, or not exist (NotFound)
                return found
        return questions.history(self._db, self._names_of(self.entity(subject).id, now, None), predicate, now)

    def timeline(self, entity: str, as_of: TimeLike | None = None) -> list[Version]:
        """An entity's facts (as subject or object) as believed at ``as_of``, in valid-time order;
        under every name it was believed then to go by (its aliases)."""
        as_of_time = self.moments(as_of)[0]
        return questions.timeline(self._db, self._names_of(self.entity(entity).id, as_of_time, None), as_of_time)

    def versions(self, entity: str | None = None) -> list[Version]:
        """Every version ever written (or those touching ``entity``), status as seen now."""
        now = self.now()
        if entity is None:
            found = questions.every_version(self._db)
        else:
            found = questions.entity_versions(self._db, self.entity(entity).id)
        return questions.newest_first([questions.with_status(v, now) for v in found])

    def version(self, version_id: str) -> Version:
        """One version by id, status as seen now, or NotFound."""
        found = questions.version(self._db, version_id)
        if found is None:
            raise NotFound(f"no version {version_id!r}")
        return questions.with_status(found, self.now())

    def diff(self, t1: TimeLike, t2: TimeLike) -> list[Change]:
        """What started and stopped being believed after ``t1`` up to ``t2``, and why."""
        start, end = self.time(t1), self.time(t2)
        if end < start:
            raise InvalidInput(f"diff asks from an earlier time to a later one: T1 {iso(start)} is after "
                               f"T2 {iso(end)}; swap them")
        return questions.diff(self._db, start, end)

    def why(self, subject: str, predicate: str, *, valid_at: TimeLike, as_of: TimeLike,
            vs: TimeLike | None = None) -> WhyAnswer:
        """The answer for (subject, predicate) at ``valid_at`` as of two times, and the writes between; each
        answer under every name the subject was believed then to go by (its aliases)."""
        check_predicate(predicate)
        ent = self.entity(subject)
        first, second, valid = self.time(as_of), self.moments(vs)[0], self.time(valid_at)
        names = (self._names_of(ent.id, first, valid), self._names_of(ent.id, second, valid))
        return questions.why(self._db, names, ent.name, predicate, valid, first, second)

    def decisions(self, after: TimeLike | None = None, until: TimeLike | None = None) -> list[Decision]:
        """The write log, oldest first (only the writes after ``after`` up to ``until``, when given)."""
        return questions.decisions(self._db, self._time_or_none(after), self._time_or_none(until))

    def links(self) -> list[Link]:
        """Episodes linked to versions after they were written (a NOOP citing a new episode), oldest first."""
        return questions.links(self._db)

    def write_times(self) -> list[datetime]:
        """When each write that changed belief happened, oldest first (what a slider steps through)."""
        return [stored(row[0]) for row in self._db.run("store/decision_times")]

    def tombstones(self) -> list[Tombstone]:
        """Records of purges, oldest first."""
        return questions.tombstones(self._db)

    def episodes(self, ids: list[str] | None = None, *, about: str | None = None,
                 by: str | None = None) -> list[Episode]:
        """Episodes (by id, or those supporting facts about an entity, under every name it is
        believed now to go by; or those ``by`` a speaker, compared as --speaker is: case, accents and runs of spaces
        aside, under every name the speaker is believed now to go by), oldest first."""
        if about is not None:
            names = self._names_of(self.entity(about).id, self.now(), None)
            linked = {e for name in names for v in questions.entity_versions(self._db, name) for e in v.episodes}
            ids = sorted(linked if ids is None else linked & set(ids))
        found = questions.episodes(self._db, ids)
        if by is None:
            return found
        who = {speaker_key(by)}
        try:  # every name the speaker is believed now to go by (a new user's: "Baba", an alias of Joseph Kamau)
            who |= {speaker_key(e.name) for e in self.names_of(by, valid_at=None)}
        except NotFound:
            pass
        return [e for e in found if e.actor is not None and speaker_key(e.actor) in who]

    def episode(self, episode_id: str) -> Episode:
        """One episode by id, or NotFound."""
        rows = self._db.run("store/episode_get_one", {"id": episode_id})
        if not rows:
            raise NotFound(f"no episode {episode_id!r}; list them with `graphmem episodes`")
        return records.episode(rows[0])

    def episodes_of(self, version_id: str) -> list[Episode]:
        """The episodes that support a version."""
        return questions.episodes(self._db, self.version(version_id).episodes)

    def versions_of(self, episode_id: str) -> list[Version]:
        """The versions an episode supports."""
        self.episode(episode_id)
        now = self.now()
        rows = self._db.run("store/episode_versions", {"episode": episode_id})
        return questions.newest_first([questions.with_status(records.version(r), now) for r in rows])

    def cypher(self, query: str, params: dict[str, Any] | None = None, as_of: TimeLike | None = None,
               valid_at: TimeLike | None = None, *,
               timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
        """Run a read-only Cypher query over the graph as believed at ``as_of`` and valid at ``valid_at``.

        ``as_of`` defaults to now, ``valid_at`` to ``as_of`` ("all": every valid time). Values go in
        only as ``params`` (naive times read in the store's zone); ``$as_of`` and ``$valid_at`` are
        bound to the two moments when the query names them. Returns a list of dicts (column →
        value) with a ``.columns`` list. The query runs in a separate process: past ``timeout``
        seconds (None: no limit) or ``memory_mb`` it is stopped and QueryFailed raised; a crash
        of the engine is a QueryFailed too. Other threads never wait behind it.
        """
        t, v = self.moments(as_of, valid_at)
        text, bound = cypher.prepare(query, params, t, v, self.engine, self.tz)
        with self._db.lock:  # one consistent read: a write holds the lock for its whole transaction
            snapshot = cypher.snapshot_at(self._shared.snapshots, self._db, t, v, self.latest_write())
        return cypher.answer(snapshot.projection(), text, bound, self.engine, timeout=timeout, memory_mb=memory_mb)

    def query(self, name: str, params: dict[str, Any] | None = None, as_of: TimeLike | None = None,
              valid_at: TimeLike | None = None, *,
              timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
        """Run the named query ``queries/NAME.cypher`` (see :meth:`named_queries`) over the log as of
        ``as_of``, with ``params`` of its declared types (text is converted); rows as dicts. Runs
        apart, with limits, as :meth:`cypher` does."""
        found = named.find(name)
        t, v = self.moments(as_of, valid_at)
        bound = named.bind(found, dict(params or {}), t, v, self.time,
                           lambda n: self._names_of(self.entity(n).id, t, None)[0])  # its node: see cypher
        return named.run(self._db, self._shared.logs, found, bound, t, self.latest_write(), timeout=timeout,
                         memory_mb=memory_mb)

    def parameter(self, name: str, kind: str, value: Any) -> Any:
        """A query parameter's value of type ``kind`` (text, int, float, time, entity) as a query
        takes it: text is converted, a time read in this store's zone, an entity named by its id."""
        return named.convert(name, kind, value, self.time, lambda n: self.entity(n).id)

    @staticmethod
    def named_queries() -> list[named.NamedQuery]:
        """The named queries every store can run (``queries/*.cypher``): name, description, parameters."""
        return list(named.named_queries().values())

    def search(self, text: str, as_of: TimeLike | None = None, valid_at: TimeLike | None = "all",
               after: TimeLike | None = None, before: TimeLike | None = None, *, limit: int | None = 10,
               speaker: str | None = None, semantic: bool = True, messages: bool = True) -> list[Answer]:
        """The facts and messages that best answer ``text``, as believed at ``as_of``, best first.

        Two kinds of answer come back ranked together: :class:`~graphmem.recall.Hit` (a fact) and,
        with ``messages`` (the default), :class:`~graphmem.recall.MessageHit` (a message received
        by ``as_of``: who said it, when, the times its phrases name, the turns around it). Each
        names the episodes it cites (``answer.episodes``).

        Any word may match (by its stem), synonyms point at predicates ("job" → works_at), entities
        the question names bring their facts forward, and a time phrase ("in 2023", "before she
        moved") filters valid time. ``valid_at`` keeps facts valid then ("all": any time, the
        default); ``after``/``before`` keep facts whose valid period reaches past ``after`` and
        starts before ``before``. A ``speaker`` the store has never heard of (no entity by that name, no
        message said by it) is refused (``InvalidInput``): a typo would make "I" mean nobody. Asked
        with no ``as_of`` of a store whose last message is more than a year old (a chat replayed), a
        time phrase whose window is wholly past and begins after that message ("in april", asked in
        December 2026 of a chat whose last message is of October 2025) is read against that message
        instead, and the answers' ``time`` says so. A question of what the store itself believed then, with no
        ``as_of`` ("what did you believe about my job in August"), is answered as believed at the end of its time
        phrase (or now, when that is later).
        "I", "me", "my" mean ``speaker``. With an embedder (and
        ``semantic``), the question is also compared by meaning and the two rankings fused. Each
        :class:`Hit` carries the version as believed at ``as_of``, its score and what matched; at
        most ``limit`` (None: all).
        """
        from .recall import _text as recall_text
        from .recall._live import LiveIndex, asked_without_then, believed_then, says_your

        if not isinstance(text, str) or not recall_text.tokens(text):
            raise InvalidInput("search needs at least one word (letters or digits), e.g. graphmem search Berlin")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise InvalidInput(f"limit must be a whole number of 1 or more, got {limit!r}")
        asked_then = believed_then(text, self.now(), self.tz) if as_of is None else None
        t, valid = self.moments(as_of if asked_then is None else asked_then, valid_at)
        if asked_then is not None:
            text = asked_without_then(text, self.now(), self.tz)  # its time is the believing's, not the facts'
            # (what was believed then, whenever it held: a plan too)
        low, high = self._time_or_none(after), self._time_or_none(before)
        if low is not None and high is not None and high <= low:
            raise InvalidInput(f"before ({iso(high)}) must be later than after ({iso(low)})")
        if speaker is not None and speaker.strip().casefold() != "user" and not self.knows_speaker(speaker):
            speaker = self._spelled_without_accents(speaker) or speaker  # "Siobhan" for "Siobhán"
        if speaker is not None and speaker.strip().casefold() != "user" and not self.knows_speaker(speaker) and (
                self.heard_anything() or self._db.run("store/entity_any", {})):  # "user", ingest's and MCP's default,
            # may be no one yet; nor is anyone in a store that knows nothing, where an assistant may ask before it
            # remembers
            raise InvalidInput(f"unknown speaker {speaker!r}: no entity has that name and no message was said by it"
                               + self._near_names(speaker))
        events = frozenset(p for p, kind in self.predicates().items() if kind == "event")
        with self._db.lock:
            if self._shared.recall is None:
                self._shared.recall = LiveIndex(self._db, entity_key)
            return self._shared.recall.search(
                self._meta(), text, as_of=t, valid_at=valid, after=low, before=high,
                limit=limit, synonyms=self._synonyms(), tz=self.tz, speaker=speaker, events=events,
                embedder=self.embedder if semantic else None, chat_time=as_of is None and asked_then is None,
                messages=self._message_index() if messages else None,
                # without messages as answers, still who "your" means ("where does your mum live", asked by Bex)
                participants=self._message_index() if not messages and speaker and says_your(text) else None)

    def _message_index(self) -> MessageIndex:
        """The message index beside the store, opened once per process (hold the engine's lock)."""
        from .recall._messages import MessageIndex

        if self._shared.messages is None:
            self._shared.messages = MessageIndex(self._db.directory)
        return self._shared.messages

    # -- synonyms (a setting, exported with the log) -----------------------------------------------------

    def synonyms(self) -> dict[str, list[str]]:
        """Every synonym search knows, phrase → predicates: the built-in ones and this store's own."""
        from .recall import _synonyms as recall_synonyms

        return recall_synonyms.merged(self.own_synonyms())

    def own_synonyms(self) -> dict[str, list[str]]:
        """The synonyms this store added, phrase → predicates."""
        from .recall import _synonyms as recall_synonyms

        return recall_synonyms.decode(self._meta().get(recall_synonyms.SETTING))

    def add_synonym(self, words: str, predicate: str) -> None:
        """Let ``words`` (one or more) name ``predicate`` in searches of this store (not a log write)."""
        from .recall import _synonyms as recall_synonyms

        check_predicate(predicate)
        with self._db.lock:
            own = recall_synonyms.add(self.own_synonyms(), words, predicate)
            self._db.run("store/meta_set", {"key": recall_synonyms.SETTING, "value": recall_synonyms.encode(own)})
            self._shared.forget()

    def remove_synonym(self, words: str, predicate: str | None = None) -> None:
        """Forget a synonym this store added (for ``predicate`` only, when given)."""
        from .recall import _synonyms as recall_synonyms

        if predicate is not None:
            check_predicate(predicate)
        with self._db.lock:
            own = recall_synonyms.remove(self.own_synonyms(), words, predicate)
            self._db.run("store/meta_set", {"key": recall_synonyms.SETTING, "value": recall_synonyms.encode(own)})
            self._shared.forget()

    def _synonyms(self) -> SynonymTable:
        from .recall import _synonyms as recall_synonyms

        return recall_synonyms.table_of(self._meta().get(recall_synonyms.SETTING))

    def explore(self, port: int = 8765, host: str = "127.0.0.1", open_browser: bool = True, *,
                token: bool = True, timeout: float = 15.0) -> Explorer:
        """Serve the explorer (a read-only web app) for this store from this process.

        Returns once it answers, with a handle: ``.url`` (with the random token this launch
        requires; ``token=False``: none), ``.stop()``, ``.wait()``. It runs on a background
        thread, so a notebook or an app keeps working (and writing) meanwhile; what it writes
        shows in the explorer on refresh. An API request gets ``timeout`` seconds (then a 503).
        Needs ``pip install 'graphmem[explore]'``.
        """
        from .explorer import start

        return start(self, host=host, port=port, open_browser=open_browser, token=token, timeout=timeout,
                     engine=self._db)

    def check(self) -> list[Violation]:
        """Verify the invariants; return the violations found (empty when sound)."""
        from .core.invariants import check, check_index

        edges = [(vid, subject) for vid, subject in self._db.run("store/fact_keys")]
        bodies = [(vid, subject) for vid, subject in self._db.run("store/fact_body_keys")]
        return check(self.versions(), self.decisions(), self.episodes(), self.tombstones(), self.predicates(),
                     self.links(), self.proposals(None), self.entities()) + check_index(edges, bodies)

    def alias_suggestions(self, *, min_score: float = 0.5, limit: int | None = None) -> list[AliasSuggestion]:
        """Pairs of names that may be one entity, strongest first, each with its reasons and the
        episodes that show them: candidates for review, never merged (``propose`` them as
        ``alias_of`` to queue them). Read from every episode's text and speaker and the entity
        names; pairs already one (a believed ``alias_of``) or already queued are left out."""
        from .read.alias_suggestions import alias_suggestions

        if not 0 < min_score <= 1:
            raise InvalidInput("min_score is a number above 0 and at most 1")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise InvalidInput("limit is a whole number of at least 1")
        return alias_suggestions(self._db, self.now(), min_score=min_score, limit=limit)

    def look_alikes(self) -> list[list[Entity]]:
        """The groups of two or more entities whose names look alike (Unicode's confusables,
        UTS #39) though they are other entities, such as "Ivan" and "Ivаn" with a Cyrillic а."""
        from .core.lookalike import look_alike_groups

        return look_alike_groups(self.entities())

    def export(self, path: str | Path, progress: Callable[[int], None] | None = None, *,
               format: Literal["jsonl", "parquet"] = "jsonl") -> int:
        """Write the whole log as JSON Lines (``format="jsonl"``, one file) or as a directory of
        Parquet files (``format="parquet"``); return the number of records."""
        if format == "parquet":
            from .log.parquet import export_parquet

            return export_parquet(self._db, self.engine, self.tz_name, Path(path), progress)
        if format != "jsonl":
            raise InvalidInput(f"export writes jsonl or parquet, not {format!r}")
        return export_log(self._db, Path(path), progress)

    @staticmethod
    def log_zone(path: str | Path) -> str | None:
        """The zone an exported log reads naive times in, from its header alone (a JSON Lines
        file's first line, a Parquet log's header file): the zone to make a store in before
        importing it. None where there is no readable header (the import then says what is wrong)."""
        from .core.json_lines import lines, loads, open_regular
        from .log.parquet import read_header

        path = Path(path)
        try:
            if path.is_dir():
                return str(read_header(path)["timezone"])  # checked there: a string
            with open_regular(path) as handle:  # never a device or a FIFO; one line at most MAX_LINE
                header = loads(next((line for _, line in lines(handle, path) if line.strip()), b"{}"))
        except (ImportFailed, OSError, ValueError):
            return None
        if not isinstance(header, dict) or header.get("type") != "graphmem":
            return None
        zone = header.get("timezone", "UTC")
        return zone if isinstance(zone, str) else None

    def import_log(self, path: str | Path, progress: Callable[[int], None] | None = None, *,
                   on_bad_line: Callable[[str], None] | None = None, large: bool = False) -> int:
        """Restore an exported log into this store, atomically; return the number of records.

        A directory is read as a Parquet log, a file as JSON Lines. With ``on_bad_line`` (a
        function taking a message; JSON Lines only), unreadable lines are skipped and reported
        to it, and the rest is imported only if it is still a sound log. A log is held in memory
        while it is checked, so one over 96 MiB (JSON Lines; or decoding to that, Parquet) is
        imported only with ``large``.
        """
        from .log.parquet import import_parquet, is_parquet_log

        parquet = is_parquet_log(Path(path))
        if parquet and on_bad_line is not None:
            raise InvalidInput("skipping bad lines is for JSON Lines logs; a Parquet log is imported whole")
        try:
            if parquet:
                count = import_parquet(self._db, self.path, Path(path), zone=self.tz_name, progress=progress,
                                       allow_future=self.allow_future, large=large)
            else:
                count = import_log(self._db, Path(path), self.tz_name, progress, on_bad_line,
                                   allow_future=self.allow_future, large=large)
            with self._db.lock:  # a log written elsewhere may hold aliases it never declared
                if ALIAS not in questions.declared(self._db) and read_aliases.any_alias(self._db):
                    self._db.run("store/predicate_set", {"name": ALIAS, "kind": "many"})
            return count
        finally:  # it wrote settings and predicates (or reopened the files on a failure)
            self._shared.forget()


def _required_reason(reason: str | None) -> str:
    if not reason or not str(reason).strip():
        raise InvalidInput("a reason is required")
    return str(reason).strip()


#: The stores on disk this process has open, closed when it exits normally (:func:`_close_left_open`).
_open_here: weakref.WeakSet[Store] = weakref.WeakSet()
#: How long a program's exit waits for a thread's query to end before leaving its store unclosed.
_EXIT_WAIT = 2.0


@atexit.register
def _close_left_open() -> None:
    """Close every store a program left open as it exits: its socket and owner files go (a copy of
    the directory then holds no socket, which ``cp -r`` and ``shutil.copytree`` refuse) and its log
    is checkpointed as at a close. A killed process still leaves them: the next one to open the
    store finds them stale and replaces them."""
    for store in list(_open_here):
        engine = store._engine
        if engine is None or store._opened_by != os.getpid():
            continue  # closed already, or opened by the process this one was forked from: not ours
        if not engine.lock.acquire(timeout=_EXIT_WAIT):
            continue  # a thread still runs a query on it: left as a kill leaves it (found stale next time)
        try:
            store.close()
        except Exception as exc:  # exiting anyway: say what was left, never raise at exit
            warnings.warn(f"store {store.path} could not be closed at exit: {exc}", RuntimeWarning, stacklevel=1)
        finally:
            engine.lock.release()
