"""Carrying out one write: the gate's plans gathered into a write set, then stored at once.

Internal: writes are made through :class:`graphmem.Store`.

The gate (:mod:`graphmem.core.gate`) decides; a :class:`Transaction` answers what the gate reads
(the believed versions of a subject's predicate, which entities and episodes exist) from the
store and from what the write itself has planned so far, and gathers what each decision stores
into a :class:`WriteSet`. When the write is finished, the set is applied inside the engine
transaction: one statement per row for an ordinary write, or one ``LOAD FROM`` statement per
table for many rows (``bulk``: :meth:`graphmem.Store.add_many`). Both give the same log.

Why bulk loads read Arrow tables (measured at 1M versions, both engines): an ``UNWIND`` over a
list of dicts pays for converting every dict and, on kuzu, plans ``MATCH (s {id: r.x})`` as a
scan of every entity per row; ``COPY`` into a non-empty edge table costs seconds at commit and
must never be rolled back. ``LOAD FROM`` an Arrow table with the keys matched in separate
``MATCH`` clauses creates 10,000 edges in ~0.2 s and closes 10,000 in ~0.5 s. But a statement
that finds edges from a loaded table of subjects walks every edge of the store, and one key at
a time costs a query each: a batch reads and closes its keys from its subjects' places in the
Entity table instead (``offset(id(s)) IN $places``), which both engines answer by reading only
those entities' edges (a cost that grows with the batch, not the store).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core import records
from ..core.aliases import ALIAS, SETTLED_KINDS, alias_groups, alias_problem
from ..core.entity_kinds import effective_kinds, kept_as_said, kind_from_name
from ..core.gate import Held, Plan, plan_assert, plan_correct, plan_end, plan_segment
from ..core.names import check_label, display_name, entity_key, has_visible, refuse_lone_surrogate
from ..core.relations import inverse, relation_of
from ..core.tables import Column, arrow_schema, by_name
from ..core.temporal import Period, held_order
from ..core.times import OPEN_END, TICK, UTC, from_engine, in_range, iso, optional_time, stored, to_engine
from ..engine import Engine
from ..engine.statements import QUERIES
from ..errors import Conflict, GraphmemError, InvalidInput, InvalidTime, NotFound, TimeWentBackwards
from ..models import Decision, Episode, Link, Op, Proposal, Said, Tombstone, Version
from ..read import aliases, questions

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["Transaction", "WriteSet", "refuse_out_of_range", "row_of"]

#: One row of an engine table (or of a statement's parameters): column -> engine value.
Row = dict[str, Any]


@dataclass
class WriteSet:
    """What one write stores: new rows per table, closings and new episode lists of stored
    versions, decided proposals. Versions created by the write are kept as rows until it is
    applied, so a later decision of the same write can still close or link them."""

    rows: dict[str, list[Row]] = field(default_factory=dict)  # table -> rows (column -> engine value)
    versions: dict[str, Row] = field(default_factory=dict)  # new version id -> Fact row
    closes: dict[str, Row] = field(default_factory=dict)  # stored version id -> its closing
    relinks: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # id -> (subject, episodes)
    decided: dict[str, Row] = field(default_factory=dict)  # stored pending proposal id -> decision

    def add(self, table: str, row: Row) -> None:
        self.rows.setdefault(table, []).append(row)

    def apply(self, engine: Engine, *, bulk: bool) -> None:
        """Store everything, one statement per row, or one per table (``bulk``)."""
        facts = list(self.versions.values())
        bodies = [{**row, "subject": row["from"]} for row in facts]
        closes = list(self.closes.values())
        relinks = [{"subject": s, "version": vid, "linked": eps} for vid, (s, eps) in self.relinks.items()]
        if bulk:
            rows = [{"subject": c["subject"], "version": c["id"], "closed_at": c["at"],
                     "replaced_by": c["superseded_by"], "closing_decision": c["decision"],
                     "retract_reason": c["reason"]} for c in closes]
            closed: list[Any] = []
            if rows:  # the edges found from their subjects' places, the bodies by key at once
                closed = [edge for edge, in engine.run("store/close_at_places", {
                    "places": _places(engine, {row["subject"] for row in rows}),
                    "predicates": sorted({c["predicate"] for c in closes}),
                    "ids": [row["version"] for row in rows], "ats": [row["closed_at"] for row in rows],
                    "open": OPEN_END})]
                if len(closed) == len(rows):
                    closed = _load(engine, "store/batch_close_bodies", _CLOSE_ROWS, rows)
            if len(closed) != len(rows):
                raise Conflict("some versions are no longer believed; nothing was written")
        else:
            for row in closes:
                params = {key: value for key, value in row.items() if key != "predicate"}
                if len(engine.run("store/fact_close", {**params, "open": OPEN_END})) != 1:
                    raise Conflict(f"version {row['id']} is no longer believed; nothing was written")
        if bulk and relinks:
            _load(engine, "store/batch_set_episodes", _RELINK_ROWS, relinks)
        elif not bulk:
            for row in relinks:
                engine.run("store/fact_set_episodes", {"subject": row["subject"], "id": row["version"],
                                                      "episodes": row["linked"]})
        for table in _ORDER:
            found = facts if table == "Fact" else bodies if table == "FactBody" else self.rows.get(table, [])
            if not found:
                continue
            if bulk:
                (count,), = engine.run_text(_INSERT_ROWS[table], {"rows": by_name(table).rows(found)})
                if count != len(found):
                    raise Conflict(f"a row of {table} names something missing; nothing was written")
            else:
                columns = [c.name for c in by_name(table).every_column]
                for row in found:
                    engine.run(f"insert/{table}", {name: row[name] for name in columns})
        for proposal_id, row in self.decided.items():
            if not engine.run("store/proposal_decide", {"id": proposal_id, **row}):
                raise Conflict(f"proposal {proposal_id} is not pending")


#: Tables in the order their rows are stored (an edge's ends before it).
_ORDER = ("Entity", "Episode", "Decision", "Proposal", "Fact", "FactBody", "Link", "Tombstone")
_INSERT_ROWS = {table: by_name(table).insert_rows() for table in _ORDER}
#: The columns of the rows a bulk statement loads (name, column type as in :mod:`graphmem.core.tables`).
_CLOSE_ROWS = (("subject", "STRING"), ("version", "STRING"), ("closed_at", "TIMESTAMP"),
               ("replaced_by", "STRING[]"), ("closing_decision", "STRING"), ("retract_reason", "STRING"))
_RELINK_ROWS = (("subject", "STRING"), ("version", "STRING"), ("linked", "STRING[]"))
_CANDIDATES = (("candidate", "STRING"),)
_VERSIONS = (("version", "STRING"),)
#: Bounds on a stored valid end that leave nothing out: before every end, and after the open one.
_EARLIEST_END = datetime(1, 1, 1)
_PAST_OPEN_END = OPEN_END + TICK


def _places(engine: Engine, entity_ids: Iterable[str]) -> list[int]:
    """The places in the Entity table of these entities (one key lookup each), by which a batch
    reads and closes only their edges (``offset(id(s)) IN $places``)."""
    return [place for place, in engine.run("store/entity_places", {"ids": sorted(entity_ids)})]


def _load(engine: Engine, query: str, columns: tuple[tuple[str, str], ...], rows: list[Row],
          **params: object) -> list[list[Any]]:
    """Run a ``LOAD FROM $rows`` query (as text: kuzu cannot prepare a scan of a parameter whose
    type it does not know yet) over ``rows`` as an Arrow table of ``columns``."""
    import pyarrow as pa  # here: a write of one fact never loads Arrow

    return engine.run_text(QUERIES[query], {"rows": pa.Table.from_pylist(rows, schema=arrow_schema(columns)),
                                            **params})


class Transaction:
    """One write in progress: its transaction time, id counters, what it has planned so far, and
    what it read of the store (each entity, episode and believed (subject, predicate) read once).

    The gate reads only the believed versions a decision can touch: those whose valid period
    ends at or after the earliest valid time it looks at (see :meth:`believed`), so a key with a
    long past costs a write what its recent past holds, not every value it ever had.
    """

    def __init__(self, engine: Engine, meta: dict[str, str], at: datetime, tz: tzinfo = UTC):
        self.engine = engine
        self.tz = tz  # the store's zone: naive times, and where an event's day ends
        self.meta = meta
        self.at = at
        self.decisions: list[Decision] = []
        self.writes = WriteSet()
        self.linked_versions: set[str] = set()  # versions this write linked to a further episode
        self._changed: set[str] = set()
        self._entities: dict[str, bool] = {}  # id -> exists
        self._held: dict[tuple[str, str], list[Held]] = {}
        self._since: dict[tuple[str, str], datetime | None] = {}  # key -> earliest end read (None: all)
        self._fresh = False  # a write was begun and has no decision yet
        self._undo: _Undo | None = None  # what the attempt under way changed (see attempt)
        self._episodes: dict[str, Episode] = {}
        self._queued: dict[str, Row] = {}  # proposals queued by this write, by id
        self.aliases_declared = False  # this write declared alias_of (see assert_fact)

    def run(self, query: str, /, **params: object) -> list[list[Any]]:
        """Run a named query inside this write, now (purge's deletes; lookups)."""
        return self.engine.run(query, params)

    def next_id(self, prefix: str) -> str:
        """The next id of a sequence: v1, v2, ... for versions; ep, d, p, t for the others."""
        number = int(self.meta.get(f"seq:{prefix}", "0")) + 1
        self.meta[f"seq:{prefix}"] = str(number)
        self._changed.add(f"seq:{prefix}")
        return f"{prefix}{number}"

    @property
    def next_at(self) -> datetime:
        """The transaction time the next decision of this write gets: each a tick after the last."""
        return self.at + TICK if self.decisions and not self._fresh else self.at

    def begin(self, at: datetime) -> None:
        """Go on with another write inside this one, at transaction time ``at``.

        Its decisions are logged from ``at`` on, exactly as in a write of its own, and stored
        with the others when this one finishes: several writes, each at its own time, kept or
        lost together (:meth:`graphmem.Store.remember_many`).
        """
        if self.decisions and at <= self.decisions[-1].at:
            raise TimeWentBackwards(f"transaction time {iso(at)} is not after the write before, at "
                                    f"{iso(self.decisions[-1].at)}; transaction time only moves forward")
        self.at, self._fresh = at, True

    @contextmanager
    def attempt(self) -> Iterator[None]:
        """Plan part of this write that may be refused: when it raises, everything it planned is
        undone (what it read of the store is kept) and the write goes on as it was before it.

        This lets one transaction hold many writes, each refused or carried out on its own
        (:meth:`graphmem.Store.remember_many`). Attempts do not nest.
        """
        if self._undo is not None:
            raise RuntimeError("internal: attempts do not nest")
        self._undo = _Undo(self)
        try:
            yield
        except BaseException:
            self._undo.restore(self)
            raise
        finally:
            self._undo = None

    def finish(self, *, bulk: bool = False) -> None:
        """Store the write set, then the latest write time and the id counters with it."""
        if not in_range(self.at):
            raise InvalidTime(
                f"this write would be recorded at {iso(self.at)}, past the supported range (years 1 to "
                "9998): the store's latest write is at its end, so no later write fits; nothing was written")
        self.writes.apply(self.engine, bulk=bulk)
        self.meta["last_write"] = iso(self.at)
        for key in sorted(self._changed | {"last_write"}):
            self.run("store/meta_set", key=key, value=self.meta[key])

    # -- what the gate reads ------------------------------------------------------------------------

    def prefetch(self, names: Iterable[str], keys: Iterable[tuple[str, str, datetime | None]]) -> None:
        """Read at once whether entities named ``names`` exist, and for each ``(subject name,
        predicate, since)`` in ``keys`` the believed versions that end at or after ``since`` (all of
        them for None): a write of many facts reads the store twice, not twice per fact."""
        candidates = sorted({c for n in names for c in (n, entity_key(n))} - self._entities.keys())
        if candidates:
            named: list[Row] = [{"candidate": c} for c in candidates]
            found = {row[0] for row in _load(self.engine, "store/batch_entities", _CANDIDATES, named)}
            self._entities.update({c: c in found for c in candidates})
        wanted: dict[tuple[str, str], datetime | None] = {}
        for name, predicate, since in keys:
            subject = self.find_entity(name)
            if subject is None:  # a subject this write makes: nothing is believed of it (read one key at a time,
                try:  # 520 facts of new subjects took 1.5 s of 2.6 in queries that found nothing)
                    made = (entity_key(name), predicate)
                except GraphmemError:
                    continue  # (a name no entity may have: refused where it is written, as before)
                self._held.setdefault(made, [])
                self._since.setdefault(made, None)
                continue
            if (subject, predicate) in self._held:
                continue
            key = (subject, predicate)
            wanted[key] = _earlier(wanted[key], since) if key in wanted else since
        if not wanted:
            return
        fetched: dict[tuple[str, str], list[Held]] = {key: [] for key in wanted}
        believed = self._believed_at_places({key: _end_bound(since, _EARLIEST_END) for key, since in wanted.items()})
        for subject, predicate, *row in believed:
            fetched[(subject, predicate)].append(_held(row))
        for key, held in fetched.items():
            self._held[key], self._since[key] = held, wanted[key]

    def _believed_at_places(self, ends_from: dict[tuple[str, str], datetime]) -> list[list[Any]]:
        """The believed versions of each (subject, predicate) of ``ends_from`` whose valid end is at
        or after its bound, and their episodes, read from the subjects' own edges: their places in
        the Entity table by key, then the believed edges at those places (both engines read only
        those entities' edges: a cost that grows with the batch, ~0.1 CPU-s for 1,000 subjects at
        1M versions, where the one statement walked every edge and one key at a time cost a query
        each), then their bodies in one ``LOAD FROM`` (ladybug looks each up by key; kuzu scans them).
        The engine leaves out what ends before the earliest bound (most of a subject's past, which
        cost Python more to receive than to drop); each key's own bound is applied here."""
        places = _places(self.engine, {s for s, _ in ends_from})
        edges = [edge for edge in self.run("store/believed_at_places", places=places, open=OPEN_END,
                                           predicates=sorted({p for _, p in ends_from}),
                                           since=min(ends_from.values()))
                 if (edge[0], edge[1]) in ends_from and edge[5] >= ends_from[(edge[0], edge[1])]]
        if not edges:
            return []
        episodes = dict(_load(self.engine, "store/batch_bodies", _VERSIONS, [{"version": e[2]} for e in edges]))
        return [[*edge, episodes[edge[2]]] for edge in edges]

    def believed(self, subject_id: str, predicate: str, since: datetime | None = None) -> list[Held]:
        """The believed versions of (subject, predicate) as this write leaves them so far, in one
        fixed order (so the same writes give the same version ids on both engines).

        With ``since``, only those whose valid period ends at or after it: every version a decision
        about valid times from ``since`` on can close, merge, link or end at (the planners of
        :mod:`graphmem.core.gate` look at nothing that ended before the period they are given).
        """
        key = (subject_id, predicate)
        if key not in self._held:
            self._held[key], self._since[key] = self._fetch(subject_id, predicate, since, None), since
        elif (known := self._since[key]) is not None and (since is None or since < known):
            # what ends between the new bound and the one read before: nothing this write touched
            self._held[key].extend(self._fetch(subject_id, predicate, since, known))
            self._since[key] = since
        held = self._held[key]
        if since is not None:
            held = [h for h in held if h.period.end is None or h.period.end >= since]
        return held_order(held)

    def _fetch(self, subject_id: str, predicate: str, since: datetime | None,
               until: datetime | None) -> list[Held]:
        """The stored believed versions of a key whose valid end is in ``[since, until)``."""
        rows = self.run("store/fact_believed", subject=subject_id, predicate=predicate, open=OPEN_END,
                        since=_end_bound(since, _EARLIEST_END), until=_end_bound(until, _PAST_OPEN_END))
        if not rows:
            return []
        found = questions.bodies(self.engine, [row[0] for row in rows])  # each body by its key
        return [_held([*row, found[row[0]]["episodes"]]) for row in rows]

    def _read(self, subject_id: str, predicate: str) -> list[Held]:
        """What this write holds of a key (read whole from the store if it was never read)."""
        if (subject_id, predicate) not in self._held:
            self.believed(subject_id, predicate)
        return self._held[(subject_id, predicate)]

    def find_entity(self, name_or_id: str) -> str | None:
        """The id of an existing entity named (or identified) ``name_or_id``."""
        for candidate in dict.fromkeys((entity_key(name_or_id), name_or_id)):
            if self._entity_exists(candidate):
                return candidate
        return None

    def _entity_exists(self, entity_id: str) -> bool:
        if entity_id not in self._entities:
            self._entities[entity_id] = bool(self.run("store/entity_get", id=entity_id))
        return self._entities[entity_id]

    def name_of(self, entity_id: str) -> str:
        """An entity's name, this write's own entities included (not yet in the engine: the words of an error do
        not depend on which transaction wrote the entity, nor an ingest's log on how many messages share one); its
        id where none is known."""
        for row in self.writes.rows.get("Entity", []):
            if row["id"] == entity_id:
                return str(row["name"])
        return e.name if (e := questions.entity(self.engine, entity_id)) is not None else entity_id

    def ensure_entity(self, name: str, kind: str | None = None) -> str:
        """The id of the entity named ``name``, created on first use."""
        found = self.find_entity(name)
        if found is not None:
            return found
        key, display = entity_key(name), display_name(name)
        self.create_entity(key, display, kind or kind_from_name(display))
        return key

    def create_entity(self, entity_id: str, name: str, kind: str) -> None:
        """Create an entity with this id (``ensure_entity`` keys it by its name)."""
        if self._undo is not None:
            self._undo.keep(self._entities, entity_id, "entities")
        self.writes.add("Entity", {"id": entity_id, "name": name, "kind": kind})
        self._entities[entity_id] = True

    def episode(self, episode_id: str) -> Episode:
        """An existing episode (or one this write recorded), or NotFound."""
        if episode_id not in self._episodes:
            rows = self.run("store/episode_get_one", id=episode_id)
            if not rows:
                raise NotFound(f"no episode {episode_id!r}; list them with `graphmem episodes`")
            self._episodes[episode_id] = records.episode(rows[0])
        return self._episodes[episode_id]

    def version(self, version_id: str) -> Version:
        """A stored version by id, or NotFound."""
        found = questions.version(self.engine, version_id)
        if found is None:
            raise NotFound(f"no version {version_id!r}; see `graphmem history SUBJECT PREDICATE`")
        return found

    # -- the writes, through the gate -----------------------------------------------------------------

    def source(self, episode: str | None, quote: str | Said | None) -> Episode | None:
        """A write's supporting episode: an existing one, or one recorded in this write from ``quote``."""
        if episode and quote:
            raise InvalidInput("give either an episode id or a quote, not both")
        if quote is not None:
            said = Said(text=quote) if isinstance(quote, str) else quote
            return self.add_episode(said.text, said.kind, said.actor, optional_time(said.reference_time, self.tz))
        return self.episode(episode) if episode else None

    def assert_fact(self, kind: str, subject: str, predicate: str, obj: str, start: datetime | None,
                    end: datetime | None, source: Episode | None, proposal: str | None = None) -> Decision:
        """Assert ``subject -[predicate]-> obj`` over ``[start, end)`` (default start: the source's
        time, or this decision's)."""
        start = start or (source.reference_time if source else self.next_at)
        subject_id, object_id = self.ensure_entity(subject), self.ensure_entity(obj)
        if predicate == ALIAS:
            self.refuse_alias(subject_id, object_id)
            if not self.aliases_declared:  # the store now holds aliases: reads look for them
                self.run("store/predicate_set", name=ALIAS, kind="many")
                self.aliases_declared = True
        plan = plan_assert(kind, self.believed(subject_id, predicate, start), object_id, start, end,
                           source.id if source else None, self.tz)
        return self.carry_out(plan, subject_id, predicate, episode=source.id if source else None, proposal=proposal)

    def refuse_alias(self, subject_id: str, object_id: str, replacing: str | None = None) -> None:
        """Refuse an alias the rules of :mod:`graphmem.core.aliases` refuse, as the store believes
        now (aliases this write asserted before included; ``replacing``, an alias being corrected, left
        out), with why."""
        pending = [(row["from"], row["to"]) for row in self.writes.versions.values()  # joined earlier in this write
                   if row["predicate"] == ALIAS and row.get("superseded_at") in (None, OPEN_END)]
        stored = [(end, e) for end in (subject_id, object_id)
                  for e in aliases.group_of(self.engine, end, self.at, None, leaving_out=replacing)]
        groups = alias_groups(stored + pending, {})
        left, right = set(groups.of(subject_id)), set(groups.of(object_id))
        members = left | right
        versions = kept_as_said(v for e in members for v in questions.entity_versions(self.engine, e))
        made = {row["id"]: row for row in self.writes.rows.get("Entity", [])}  # by this write
        known = {e: made.get(e) or (records.entity(rows[0]).model_dump() if (rows := self.run("store/entity_get", id=e))
                                   else None) for e in members}
        kinds = {e: row["kind"] for e, row in known.items() if row}
        names = {e: row["name"] for e, row in known.items() if row}
        held: dict[str, set[str]] = {}
        for v in versions:  # the relations each is believed to be of someone: "Mum" is no name of a mother, and
            if (word := relation_of(v.predicate)) is None or v.superseded_at is not None:  # "Dad" none of one whose
                continue  # child says so ("Jess daughter_of Bob": Bob is Jess's parent)
            if v.subject_id in members:
                held.setdefault(v.subject_id, set()).add(word)
            if v.object_id in members and (turned := inverse(word)) is not None:
                held.setdefault(v.object_id, set()).add(turned)
        @cache  # (asked of each member whose kind is unsettled, and again by alias_problem of a relation word)
        def signs(entity: str) -> bool:  # whether a message is signed with the entity's name, this write's own too
            name = names.get(entity, entity).strip()
            return any((row.get("actor") or "").strip().lower() == name.lower()
                       for row in self.writes.rows.get("Episode", [])) or bool(
                self.run("store/episode_by_actor", name=name, actor=name.lower()))

        shown = effective_kinds(versions, kinds)
        for entity in members:  # one who writes messages is a person, whatever the facts have said of them yet (a new
            if shown.get(entity) not in SETTLED_KINDS and signs(entity):  # user's flatmate, a speaker of 51 messages
                shown[entity] = "person"  # and no fact, was joined to "Chapel Allerton", a place)
        problem = alias_problem(subject_id, object_id, groups, shown, names,
                                aliases.links_between(self.engine, left, right), held, signs)
        if problem:
            raise Conflict(f"not an alias: {problem}; nothing was written")

    def end_fact(self, kind: str, subject: str, predicate: str, obj: str | None, moment: datetime | None,
                 source: Episode | None, proposal: str | None = None, *, other_names: bool = True) -> Decision:
        """Close what held at ``moment`` (default: the source's time, or this decision's); where nothing named so
        holds, what holds under the names' other names (``other_names``: not for an alias itself, which joins two
        names and no others)."""
        moment = moment or (source.reference_time if source else self.next_at)
        subject_id = self.find_entity(subject)
        object_id = self.find_entity(obj) if obj is not None else None
        if subject_id is None or (obj is not None and object_id is None):
            raise Conflict(f"nothing to end: the store holds no {subject} {predicate} {obj or ''}".rstrip())
        believed = self.believed(subject_id, predicate, moment)
        if other_names and not any((object_id is None or h.object == object_id) and h.period.contains(moment)
                                   for h in believed) and (self.aliases_declared or aliases.declared(self.engine)):
            subject_id, object_id, believed = self._by_other_names(subject_id, predicate, object_id, believed, moment)
        try:
            plan = plan_end(kind, believed, object_id, moment, source.id if source else None)
        except Conflict as exc:  # the values by their names, not their keys ("v4 (Funes)", not "(funes)")
            message = str(exc)
            for held in believed:
                message = message.replace(f"{held.id} ({held.object})", f"{held.id} ({self.name_of(held.object)})")
            raise Conflict(message) from None
        return self.carry_out(plan, subject_id, predicate, episode=source.id if source else None, proposal=proposal)

    def _by_other_names(self, subject_id: str, predicate: str, object_id: str | None, believed: list[Held],
                        moment: datetime) -> tuple[str, str | None, list[Held]]:
        """Where nothing named so holds at ``moment``, what holds under other names of the subject and the
        object (their aliases as believed now, valid at ``moment``), as every read treats them as one: "end Sam
        owns fiesta" ends `Sam owns ford fiesta` once "fiesta" is an alias of it, "end Mel lives_in Paris" ends
        `Melanie lives_in Paris`. Only one name of the subject and one of the object may hold it: where more do,
        the end is refused, saying which."""
        objects = set(aliases.group_of(self.engine, object_id, self.at, moment)) if object_id is not None else None
        found = []
        for subject in aliases.group_of(self.engine, subject_id, self.at, moment):
            held = believed if subject == subject_id else self.believed(subject, predicate, moment)
            values = {h.object for h in held if (objects is None or h.object in objects) and h.period.contains(moment)}
            if values:
                found.append((subject, values, held))
        if len(found) > 1 or (found and object_id is not None and len(found[0][1]) != 1):
            holding = "; ".join(f"{self.name_of(subject)} {predicate} {', '.join(sorted(map(self.name_of, values)))}"
                                for subject, values, _ in found)
            raise Conflict(f"nothing to end under the names given, and under their other names more than one holds "
                           f"at {iso(moment)} ({holding}): end it under the name it holds")
        if not found:
            return subject_id, object_id, believed
        subject, values, held = found[0]
        return subject, (next(iter(values)) if object_id is not None else None), held

    def segment_fact(self, kind: str, subject: str, predicate: str, obj: str, start: datetime, end: datetime,
                     source: Episode | None) -> Decision:
        """State ``obj`` for the closed past period ``[start, end)``, cutting the history around it."""
        subject_id, object_id = self.ensure_entity(subject), self.ensure_entity(obj)
        plan = plan_segment(kind, self.believed(subject_id, predicate, start), object_id, start, end,
                            source.id if source else None)
        return self.carry_out(plan, subject_id, predicate, episode=source.id if source else None)

    def retract_version(self, version_id: str, reason: str, source: Episode | None) -> Decision:
        """Withdraw a believed version as never true, keeping it and the reason."""
        wrong = self.believed_version(version_id)
        return self.carry_out(Plan("RETRACT", close=(wrong.id,)), wrong.subject_id, wrong.predicate, reason=reason,
                              retracted=(wrong.id,), episode=source.id if source else None)

    def correct_version(self, version_id: str, obj: str | None, reason: str, kind_of: Callable[[str], str],
                        source: Episode | None, valid_from: datetime | None = None, valid_to: datetime | None = None,
                        open_end: bool = False) -> Decision:
        """Retract a believed version and assert ``obj`` (None: its own value) over exactly its valid period, or
        over the period ``valid_from`` and ``valid_to`` (or ``open_end``) give, each end defaulting to the
        version's own; an event moved by its start alone keeps its length ("it was Tuesday", not Tuesday to
        Thursday)."""
        wrong = self.believed_version(version_id)
        period = None
        if valid_from is not None or valid_to is not None or open_end:
            start = wrong.valid_from if valid_from is None else valid_from
            end = None if open_end else wrong.valid_to if valid_to is None else valid_to
            if valid_to is None and not open_end and wrong.valid_to is not None and kind_of(wrong.predicate) == "event":
                end = start + (wrong.valid_to - wrong.valid_from)
            period = Period(start, end)
        if obj is None and wrong.object is None:
            raise InvalidInput(f"version {version_id} has no value to give again; name the right one")
        object_id = self.ensure_entity(wrong.object if obj is None else obj)
        if wrong.predicate == ALIAS and object_id != wrong.object_id:  # the alias rules hold for a corrected alias
            self.refuse_alias(wrong.subject_id, object_id, replacing=wrong.id)  # as if the wrong one were gone
        held = Held(wrong.id, wrong.object_id, Period(wrong.valid_from, wrong.valid_to), tuple(wrong.episodes))
        since = wrong.valid_from if period is None else min(wrong.valid_from, period.start)
        believed = self.believed(wrong.subject_id, wrong.predicate, since)
        plan = plan_correct(kind_of(wrong.predicate), believed, held, object_id, source.id if source else None,
                            period)
        return self.carry_out(plan, wrong.subject_id, wrong.predicate, reason=reason, retracted=(wrong.id,),
                              episode=source.id if source else None)

    def believed_version(self, version_id: str) -> Version:
        """A stored version that is still believed, or Conflict naming what closed it."""
        version = self.version(version_id)
        if version.superseded_at is not None:
            state = "retracted" if version.reason else "superseded"
            by = f" by {', '.join(version.superseded_by)}: correct the one that holds what is wrong" \
                if version.superseded_by else ""  # (an integrator's: it named none)
            raise Conflict(f"version {version_id} is already {state} (at {iso(version.superseded_at)}){by}")
        return version

    # -- what the write stores ----------------------------------------------------------------------

    def add_episode(self, text: str, kind: str, actor: str | None, reference_time: datetime | None) -> Episode:
        """Record an immutable episode received now."""
        if not isinstance(text, str) or not has_visible(text):
            raise InvalidInput("an episode needs some text (a visible character)")
        refuse_lone_surrogate(text, "an episode's text")
        refuse_lone_surrogate(actor, "an episode's speaker")
        kind = check_label(kind or "manual", "an episode's kind")
        actor = actor.strip() or None if isinstance(actor, str) else actor  # "Priya " is Priya, as ingest reads it
        episode = Episode(
            id=self.next_id("ep"), kind=kind, text=text, actor=actor,
            reference_time=reference_time or self.next_at, received_at=self.next_at,
        )
        self.writes.add("Episode", row_of("Episode", episode))
        self._episodes[episode.id] = episode
        return episode

    def carry_out(
        self,
        plan: Plan,
        subject_id: str,
        predicate: str,
        *,
        episode: str | None = None,
        reason: str | None = None,
        retracted: tuple[str, ...] = (),
        proposal: str | None = None,
        owners: dict[str, str] | None = None,
    ) -> Decision:
        """Store what the gate decided and log it as one decision.

        Closed versions belong to ``subject_id`` unless ``owners`` names another subject for them
        (a merge closes a version of the merged entity and restates it about the survivor).
        """
        refuse_out_of_range(plan)
        self.at = self.next_at
        decision_id = self.next_id("d")
        created = [(self.next_id("v"), new) for new in plan.create]
        at = to_engine(self.at)
        for closed_id in plan.close:
            owner = (owners or {}).get(closed_id, subject_id)
            held = self._read(owner, predicate)  # read once, so what it closes stays closed for it
            self._touch_held(owner, predicate)
            if all(h.id != closed_id for h in held):
                raise Conflict(f"version {closed_id} is no longer believed; nothing was written")
            held[:] = [h for h in held if h.id != closed_id]
            closing = {"superseded_at": at, "closed_by": decision_id,
                       "superseded_by": [vid for vid, new in created if closed_id in new.supersedes],
                       "reason": reason if closed_id in retracted else None}
            if closed_id in self.writes.versions:  # written by this write: closed before it is stored
                self._touch_version(closed_id)
                self.writes.versions[closed_id].update(closing)
            else:
                self.writes.closes[closed_id] = {
                    "subject": owner, "id": closed_id, "at": at, "superseded_by": closing["superseded_by"],
                    "decision": decision_id, "reason": closing["reason"], "predicate": predicate}
        held = self._read(subject_id, predicate)
        self._touch_held(subject_id, predicate)
        for version_id, new in created:
            self.writes.versions[version_id] = new_row(
                "Fact", Version, {"from": subject_id, "to": new.object, "id": version_id, "predicate": predicate,
                                  "valid_from": to_engine(new.period.start), "valid_to": to_engine(new.period.end),
                                  "recorded_at": at, "episodes": list(new.episodes),
                                  "supersedes": list(new.supersedes), "created_by": decision_id})
            held.append(Held(version_id, new.object, new.period, tuple(new.episodes)))
        if episode is not None:  # a NOOP citing an episode links it to what holds
            for version_id in plan.link:
                self.link(subject_id, predicate, version_id, episode)
        return self._decision(plan.op, decision_id, created=[vid for vid, _ in created],
                              closed=list(plan.close), episode=episode, reason=reason, proposal=proposal)

    def link(self, subject_id: str, predicate: str, version_id: str, episode: str) -> None:
        """Link one more supporting episode to a believed version, recording when: at this write's
        latest decision (the one that cited it)."""
        key = (subject_id, predicate)
        if all(h.id != version_id for h in self._read(subject_id, predicate)):
            raise Conflict(f"version {version_id} is no longer believed; nothing was written")
        self._touch_held(subject_id, predicate)
        self._held[key] = [h._replace(episodes=h.episodes + (episode,)) if h.id == version_id else h
                           for h in self._held[key]]
        if version_id in self.writes.versions:
            self._touch_version(version_id)
            self.writes.versions[version_id]["episodes"].append(episode)
        else:
            current = next(h.episodes for h in self._held[key] if h.id == version_id)
            if self._undo is not None:
                self._undo.keep(self.writes.relinks, version_id, "relinks")
            self.writes.relinks[version_id] = (subject_id, list(current))
        link = Link.model_construct(version=version_id, episode=episode, at=self.at)  # this write's own values
        self.writes.add("Link", row_of("Link", link))
        self.linked_versions.add(version_id)

    def log(self, op: Op, *, episode: str | None = None, reason: str | None = None,
            proposal: str | None = None) -> Decision:
        """Append one decision that writes no version (EPISODE, PROPOSE, REJECT, PURGE)."""
        self.at = self.next_at
        return self._decision(op, self.next_id("d"), episode=episode, reason=reason, proposal=proposal)

    def _decision(self, op: Op, decision_id: str, *, created: Iterable[str] = (), closed: Iterable[str] = (),
                  episode: str | None = None, reason: str | None = None, proposal: str | None = None) -> Decision:
        # made by this write from its own values: not validated (building the first validator
        # cost a command-line write 20-30 ms)
        decision = records.construct(Decision, {"id": decision_id, "op": op, "at": self.at, "created": list(created),
                                                "closed": list(closed), "episode": episode, "reason": reason,
                                                "proposal": proposal})
        self._fresh = False
        self.writes.add("Decision", row_of("Decision", decision))
        self.decisions.append(decision)
        return decision

    def queue(self, proposal: Proposal) -> None:
        """Store a pending proposal (its ``reason``, if any: why it waits)."""
        row = row_of("Proposal", proposal.model_copy(update={"state": "pending", "decided_at": None,
                                                          "decision": None}))
        self.writes.add("Proposal", row)
        self._queued[proposal.id] = row

    def waits_because(self, proposal_id: str, reason: str) -> None:
        """Say why a proposal this write queued stays pending (the gate refused it on approval)."""
        self._queued[proposal_id]["reason"] = reason

    def decide(self, proposal_id: str, state: str, reason: str | None, decision: str | None) -> None:
        """Mark a pending proposal approved or rejected."""
        update = {"state": state, "at": to_engine(self.at), "reason": reason, "decision": decision}
        queued = self._queued.get(proposal_id)
        if queued is not None:
            if queued["state"] != "pending":
                raise Conflict(f"proposal {proposal_id} is not pending")
            if self._undo is not None:
                self._undo.keep(self._queued, proposal_id, "queued")
            queued.update(state=state, decided_at=update["at"], reason=reason, decision=decision)
        elif proposal_id in self.writes.decided:
            raise Conflict(f"proposal {proposal_id} is not pending")
        else:
            self.writes.decided[proposal_id] = update

    def _touch_held(self, subject_id: str, predicate: str) -> None:
        """Keep what this write holds of a key as it was, before the attempt under way changes it."""
        if self._undo is not None:
            key = (subject_id, predicate)
            if key not in self._undo.held:
                self._undo.held[key] = (list(self._held[key]), self._since.get(key))

    def _touch_version(self, version_id: str) -> None:
        """Keep a version this write created as it was, before the attempt under way changes it."""
        if self._undo is not None:
            self._undo.keep(self.writes.versions, version_id, "versions")

    def tombstone(self, tombstone: Tombstone) -> None:
        """Store the record of a purge."""
        self.writes.add("Tombstone", row_of("Tombstone", tombstone))


_MISSING = object()


class _Undo:
    """How to put a :class:`Transaction` back as it was when an attempt began.

    Counters and times are copied; what is only added to (rows, decisions, new versions, ...) is
    cut back to its length; what is changed in place is copied when first changed.
    """

    def __init__(self, txn: Transaction):
        self.meta, self.changed = dict(txn.meta), set(txn._changed)
        self.at, self.fresh, self.decisions = txn.at, txn._fresh, len(txn.decisions)
        self.rows = {table: len(rows) for table, rows in txn.writes.rows.items()}
        self.sizes = {name: len(found) for name, found in self._grown(txn).items()}
        self.held: dict[tuple[str, str], tuple[list[Held], datetime | None]] = {}
        self.kept: dict[str, dict[str, Any]] = {"entities": {}, "relinks": {}, "versions": {}, "queued": {}}

    @staticmethod
    def _grown(txn: Transaction) -> dict[str, dict[str, Any]]:
        """What a write only adds keys to (its episodes read are kept as well, or read again)."""
        writes = txn.writes
        return {"versions": writes.versions, "closes": writes.closes, "decided": writes.decided,
                "episodes": txn._episodes, "queued": txn._queued}

    def keep(self, found: dict[str, Any], key: str, name: str) -> None:
        """Copy ``found[key]`` (or note that it is missing) before its first change."""
        kept = self.kept[name]
        if key not in kept:
            value = found.get(key, _MISSING)
            kept[key] = dict(value, **{k: list(v) for k, v in value.items() if isinstance(v, list)}) \
                if isinstance(value, dict) else value

    def restore(self, txn: Transaction) -> None:
        txn.meta.clear()
        txn.meta.update(self.meta)
        txn._changed, txn.at, txn._fresh = self.changed, self.at, self.fresh
        del txn.decisions[self.decisions:]
        for table, rows in txn.writes.rows.items():
            del rows[self.rows.get(table, 0):]
        in_place: tuple[tuple[str, dict[str, Any]], ...] = (
            ("entities", txn._entities), ("relinks", txn.writes.relinks), ("versions", txn.writes.versions),
            ("queued", txn._queued))
        for name, found in in_place:
            for key, value in self.kept[name].items():
                if value is _MISSING:
                    found.pop(key, None)
                elif isinstance(value, dict) and isinstance(found.get(key), dict):
                    found[key].clear()  # in place: a queued proposal's row is also among the rows
                    found[key].update(value)
                else:
                    found[key] = value
        for name, found in self._grown(txn).items():
            while len(found) > self.sizes[name]:
                found.popitem()
        for pair, (held, since) in self.held.items():
            txn._held[pair], txn._since[pair] = held, since


def _held(row: list[Any]) -> Held:
    """A believed-version row ``id, object id, valid_from, valid_to, episodes`` as the gate sees it."""
    vid, obj, start, end, episodes = row
    return Held(vid, obj, Period(stored(start), from_engine(end)), tuple(episodes or ()))


def _earlier(a: datetime | None, b: datetime | None) -> datetime | None:
    """The earlier of two bounds, None (no bound) being the earliest."""
    return None if a is None or b is None else min(a, b)


def _end_bound(moment: datetime | None, default: datetime) -> datetime:
    """A bound on valid ends as the engine compares it (``default`` when there is none)."""
    return default if moment is None else to_engine(moment)


def new_row(table: str, model: type[BaseModel], values: Row) -> Row:
    """A new row of ``table``: ``values`` (one per column), and every other declared column at the
    default of the model field it holds (so a column added to the declaration and the model is
    stored as written)."""
    row = dict(values)
    for column in _left_out(table, frozenset(values)):
        row[column.name] = _engine_value(column, records.default_of(model, column.source))
    return row


@cache
def _left_out(table: str, given: frozenset[str]) -> tuple[Column, ...]:
    """The columns of ``table`` a new row's ``given`` values leave to their defaults."""
    return tuple(column for column in by_name(table).whole_columns if column.name not in given)


def row_of(table: str, record: BaseModel) -> Row:
    """A record's fields as one row of ``table``, in the values the engine stores."""
    return {column.name: _engine_value(column, getattr(record, column.source))
            for column in by_name(table).every_column}


def _engine_value(column: Column, value: Any) -> Any:
    """A field's value as the engine stores it in ``column`` (times naive UTC, an open end far ahead)."""
    if column.type == "TIMESTAMP":
        return to_engine(value) if value is not None or column.open_end else None
    return value


def refuse_out_of_range(plan: Plan) -> None:
    """Refuse a plan whose versions would end past the supported range (a derived end: an event
    given no end lasts to the end of its day)."""
    for new in plan.create:
        if new.period.end is not None and not in_range(new.period.end):
            raise InvalidTime(
                f"the fact would be valid until {iso(new.period.end)}, past the supported range "
                "(years 1 to 9998); give an earlier end; nothing was written")
