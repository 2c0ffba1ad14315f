"""Queries over the stored log: beliefs, history, timeline, diff, why.

Functions here fetch through named queries and compute statuses with the pure
functions of :mod:`graphmem.core.temporal`; they never write.

Internal: ask these questions through :class:`graphmem.Store`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from functools import wraps
from itertools import chain
from typing import TYPE_CHECKING, Any, Concatenate, Literal, NamedTuple, ParamSpec, TypeVar

from ..core import as_known, records
from ..core.aliases import ALIAS
from ..core.as_known import CLOSING, arrow_closing_as_known, closing_known
from ..core.collector import collector_paused
from ..core.tables import by_name
from ..core.temporal import Period, status_at
from ..core.times import OPEN_END, to_engine
from ..engine import Engine
from ..engine.statements import UNREAD_WHEN_BELIEVED
from ..errors import EngineError
from ..models import CHANGE_OF_OP, Change, Decision, Entity, Episode, Link, Proposal, Tombstone, Version, WhyAnswer
from .body_cache import cache_of

if TYPE_CHECKING:
    import networkx as nx
    import pyarrow as pa

__all__ = ["Unseen", "as_believed_at", "beliefs", "beliefs_arrow", "consistent", "decisions", "declared", "diff",
           "entities", "entity", "entity_versions", "episodes", "every_version", "history", "layout_is_current",
           "links", "newest_first", "predicate_in_use", "proposals", "settings", "snapshot", "timeline", "tombstones",
           "unseen_at", "version", "why", "with_bodies", "bodies", "with_status"]

_from_iso = datetime.fromisoformat
_FACT = by_name("Fact")
_VERSION_FIELDS = tuple(Version.model_fields)


def with_status(version: Version, as_of: datetime, valid_at: datetime | None = None) -> Version:
    """The version with its status as seen from ``as_of`` (and ``valid_at``)."""
    return version.model_copy(update={"status": status_at(version, as_of, valid_at)})


class Unseen(NamedTuple):
    """What was not yet linked at some transaction time: episodes received later (a store made
    before link times were kept counts its links from the episode's receipt), and the
    (version, episode) links made later."""

    episodes: frozenset[str] = frozenset()
    links: frozenset[tuple[str, str]] = frozenset()

    def hides(self, version_id: str, episode: str) -> bool:
        """True when the link of ``episode`` to ``version_id`` was not yet made."""
        return episode in self.episodes or (version_id, episode) in self.links

    def visible(self, version_id: str, episodes: list[str]) -> list[str]:
        """The episodes of a version that were linked by then."""
        if not self.episodes and not self.links:
            return episodes
        return [e for e in episodes if not self.hides(version_id, e)]


NOTHING_UNSEEN = Unseen()


def as_believed_at(version: Version, as_of: datetime, valid_at: datetime | None = None,
                   unseen: Unseen = NOTHING_UNSEEN) -> Version:
    """The version as the store held it at ``as_of``: a later closing is not yet known there,
    nor a link to a supporting episode made later (see :func:`unseen_at`; linking is the one
    update a version gets besides its closing)."""
    update: dict[str, Any] = {"status": status_at(version, as_of, valid_at)}
    if not closing_known(version.superseded_at, as_of):
        update.update(CLOSING)
    episodes = unseen.visible(version.id, version.episodes)
    if len(episodes) != len(version.episodes):
        update["episodes"] = episodes
    return version.model_copy(update=update)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def consistent(read: Callable[Concatenate[Engine, _P], _R]) -> Callable[Concatenate[Engine, _P], _R]:
    """A read of several statements as one moment of the log. A write holds ``engine.lock`` for
    its whole transaction; holding it here too keeps a write (in another thread) from landing
    between the statements: without it, a link written between reading the links made after
    ``as_of`` and reading the versions would show in an answer about a time before it."""

    @wraps(read)
    def at_one_moment(engine: Engine, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with engine.lock:
            return read(engine, *args, **kwargs)

    return at_one_moment


def unseen_at(engine: Engine, at: datetime) -> Unseen:
    """The links not yet made at ``at``: to episodes received later, and links recorded later."""
    moment = {"at": to_engine(at)}
    return Unseen(
        frozenset(row[0] for row in engine.run("store/episode_received_after", moment)),
        frozenset((row[0], row[1]) for row in engine.run("store/link_after", moment)),
    )


def _versions(engine: Engine, query: str, **params: Any) -> list[Version]:
    """The versions a query of ``s.id, s.name, o.id, o.name, {{edge_columns f}}`` rows finds,
    with their bodies."""
    rows = [[*row[:4], dict(zip(_EDGE_COLUMNS, row[4:], strict=True))] for row in engine.run(query, params)]
    return [records.version(row) for row in with_bodies(engine, rows)]


#: What ``{{edge_columns f}}`` returns, in its order.
_EDGE_COLUMNS = tuple(c.name for c in _FACT.stored)


def with_bodies(engine: Engine, rows: list[list[Any]], edge: int = 4) -> list[list[Any]]:
    """Rows holding a fact's edge at index ``edge``, each with the edge's body (the columns kept
    apart in FactBody, by name) inserted right after it (see :func:`bodies`)."""
    if not rows:
        return rows
    found = bodies(engine, [row[edge]["id"] for row in rows])
    return [[*row[:edge + 1], found[row[edge]["id"]], *row[edge + 1:]] for row in rows]


#: kuzu: up to this many versions, their bodies are read one primary-key lookup each (kuzu
#: answers a list of keys by scanning every body). Past it, see :data:`SCAN_PER_LOOKUP`.
ONE_BY_ONE = 64
#: kuzu: a scan of every body costs about as much as one key lookup per this many bodies
#: (measured at 1M versions: ~0.3 s a scan, ~0.2-0.3 ms a lookup), so more keys than
#: ``bodies // SCAN_PER_LOOKUP`` (and more than :data:`ONE_BY_ONE`) are read with one scan.
SCAN_PER_LOOKUP = 1000


def bodies(engine: Engine, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The bodies (FactBody's properties) of the versions ``ids``, by id: those read lately from
    the cache (:mod:`graphmem.read.body_cache`), the rest in one statement where the engine looks
    a list of keys up by index (ladybug), else one key lookup each unless a scan of every body
    costs less (kuzu, many keys in a small store)."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return {}
    with engine.lock:
        cache = cache_of(engine)
        if not cache.usable(engine):
            return _read_bodies(engine, ids)
        found, missing = cache.get(ids)
        if missing:
            read = _read_bodies(engine, missing)
            cache.put(read)
            found.update(read)
        return found


def _read_bodies(engine: Engine, ids: list[str]) -> dict[str, dict[str, Any]]:
    if engine.keys_by_index or (len(ids) > ONE_BY_ONE and len(ids) * SCAN_PER_LOOKUP
                                > engine.run("store/fact_body_count")[0][0]):
        return {row[0]: _body(row[1:]) for row in engine.run("store/fact_bodies", {"ids": ids})}
    return {i: _body(engine.run("store/fact_body", {"id": i})[0]) for i in ids}


def _body(values: list[Any]) -> dict[str, Any]:
    """A body read as its columns (``{{body_columns b}}``: a node costs kuzu more to return)."""
    return dict(zip(_FACT.apart, values, strict=True))


def _held_columns(engine: Engine, table: str) -> list[str]:
    return [row[1] for row in engine.run_text(f"CALL table_info('{table}') RETURN *", {})]


def layout_is_current(engine: Engine, held: set[str] | None = None) -> bool:
    """True when the store holds its facts as this release lays them out (a new, empty
    database does too); False for a store written in an older layout, whose Fact edges carry
    the columns this release keeps apart in FactBody. (A column added to the edge later is added
    in place, by an ordinary numbered migration.) ``held``: the tables the database holds, when
    the caller has read them."""
    if "Fact" not in (engine.table_names() if held is None else held):
        return True
    return not set(_held_columns(engine, "Fact")) & set(by_name("Fact").apart)


@consistent
def version(engine: Engine, version_id: str) -> Version | None:
    """One stored version by id (status not set), or None: a key lookup, then its subject's edges."""
    found = engine.run("store/version_subject", {"id": version_id})  # its subject and its body
    if not found:
        return None
    subject, *body = found[0]
    rows = engine.run("store/fact_get", {"subject": subject, "id": version_id})
    return records.version([*rows[0][:5], _body(body), *rows[0][5:]]) if rows else None


@consistent
def beliefs(engine: Engine, as_of: datetime, valid_at: datetime | None,
            about: Collection[str] | None = None) -> list[Version]:
    """Versions believed at ``as_of`` and valid at ``valid_at`` (None: any valid time),
    ordered by subject, predicate, valid start, object and id; with ``about`` (entity ids: one
    entity's names), only those with one of them as subject or object."""
    found = _believed_table(engine, as_of, valid_at, about)
    unseen = unseen_at(engine, as_of)
    with collector_paused():  # the lists and dicts of every row, then the models
        values = _rows(_believed_columns(found, as_of, valid_at, unseen))
        return [records.construct_version(v) for v in values]


@consistent
def beliefs_arrow(engine: Engine, as_of: datetime, valid_at: datetime | None,
                  about: Collection[str] | None = None) -> pa.Table:
    """What :func:`beliefs` answers, as an Arrow table: one row per version, one column per
    field of :class:`~graphmem.models.Version` in its order (times UTC, open ends null, the
    status as seen from ``as_of`` and ``valid_at``), built column by column."""
    import pyarrow as pa

    found = _believed_table(engine, as_of, valid_at, about)
    return pa.table(_believed_arrow(found, as_of, valid_at, unseen_at(engine, as_of)))


def _believed_arrow(found: pa.Table, as_of: datetime, valid_at: datetime | None,
                    unseen: Unseen) -> dict[str, Any]:
    """Each Version field as an Arrow column, in the model's order, as the store held the rows of
    ``found`` at ``as_of`` (what ``as_believed_at`` does per version: a closing recorded after
    ``as_of``, and the links in ``unseen``, are not yet known there): times UTC with open ends
    null, a null list or text as the field's empty value, the status as seen from ``as_of``
    and ``valid_at``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    known = arrow_closing_as_known(found, as_of)
    naive, utc = pa.timestamp("us"), pa.timestamp("us", tz="UTC")
    columns: dict[str, Any] = {name: found.column(name) for name in ("subject", "object", "subject_id", "object_id")}
    for declared in _FACT.columns:  # every stored column, as declared (a new one comes along)
        values = known.get(declared.name, found.column(declared.name))
        if declared.type == "TIMESTAMP":
            values = values.cast(naive)
            if declared.open_end:
                is_open = pc.greater_equal(values, pa.scalar(OPEN_END, naive))
                values = pc.if_else(is_open, pa.scalar(None, naive), values)
            values = values.cast(utc)
        elif (default := records.default_of(Version, declared.source)) is not None:
            values = pc.if_else(pc.is_null(values), pa.scalar(default, values.type), values)
        columns[declared.source] = values
    columns["status"] = _statuses(columns, as_of, valid_at)
    columns["episodes"] = _visible(columns["id"], columns["episodes"], unseen)
    return {name: columns[name] for name in _VERSION_FIELDS}


def _visible(ids: pa.ChunkedArray, lists: pa.ChunkedArray, unseen: Unseen) -> pa.Array:
    """Each row's episodes without those not yet linked (see :class:`Unseen`), over whole
    columns: the links are matched as ``version NUL episode`` keys, and each list is cut by
    the running count of the episodes kept."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not unseen.episodes and not unseen.links:
        return lists
    lists, ids = (x.combine_chunks() if isinstance(x, pa.ChunkedArray) else x for x in (lists, ids))
    flat, parents = pc.list_flatten(lists), pc.list_parent_indices(lists)
    hidden = pc.is_in(flat, value_set=pa.array(sorted(unseen.episodes), pa.string()))
    if unseen.links:
        keys = pc.binary_join_element_wise(pc.take(ids, parents), flat, "\0")
        made_later = pa.array(sorted(f"{v}\0{e}" for v, e in unseen.links), pa.string())
        hidden = pc.or_(hidden, pc.is_in(keys, value_set=made_later))
    kept = pc.invert(hidden)
    before = pa.concat_arrays([pa.array([0], pa.int64()), pc.cumulative_sum(kept.cast(pa.int64()))])
    offsets = pc.subtract(lists.offsets.cast(pa.int64()), lists.offsets[0].cast(pa.int64()))
    return pa.ListArray.from_arrays(pc.take(before, offsets).cast(pa.int32()), flat.filter(kept))


def _about(found: pa.Table, about: Collection[str] | None) -> pa.Table:
    """The rows of ``found`` with one of the entities ``about`` as subject or object (None: all)."""
    if about is None:
        return found
    import pyarrow as pa
    import pyarrow.compute as pc

    wanted = pa.array(sorted(about), pa.string())
    return found.filter(pc.or_(pc.is_in(found.column("subject_id"), value_set=wanted),
                               pc.is_in(found.column("object_id"), value_set=wanted)))


def _statuses(columns: dict[str, Any], as_of: datetime, valid_at: datetime | None) -> pa.ChunkedArray:
    """:func:`graphmem.core.temporal.status` over whole columns (times UTC, open ends null)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    utc = pa.timestamp("us", tz="UTC")
    at, valid = pa.scalar(as_of, utc), pa.scalar(valid_at or as_of, utc)
    closed = pc.fill_null(pc.less_equal(columns["superseded_at"], at), False)
    retracted = pc.and_(closed, pc.fill_null(pc.greater(pc.utf8_length(columns["reason"]), 0), False))
    ended = pc.fill_null(pc.less_equal(columns["valid_to"], valid), False)
    conditions = [x.combine_chunks() if isinstance(x, pa.ChunkedArray) else x
                  for x in (retracted, closed, pc.less(valid, columns["valid_from"]), ended)]
    return pc.case_when(pa.StructArray.from_arrays(conditions, names=["r", "c", "u", "e"]),
                        "retracted", "superseded", "upcoming", "ended", "current")


@consistent
def snapshot(engine: Engine, as_of: datetime, valid_at: datetime | None) -> nx.MultiDiGraph:
    """The beliefs as a MultiDiGraph: entities as nodes (with name and kind), versions as
    edges keyed by version id with every field of the version as an attribute."""
    import networkx as nx  # here: importing it costs ~20 MB of memory that most commands never use

    found = _believed_table(engine, as_of, valid_at)
    unseen = unseen_at(engine, as_of)
    graph = nx.MultiDiGraph()
    with collector_paused():
        columns = _believed_columns(found, as_of, valid_at, unseen)
        kinds = {side: found.column(f"{side}_kind").to_pylist() for side in ("subject", "object")}
        _fill(graph, columns, kinds, _rows(columns))
    return graph


def _fill(graph: nx.MultiDiGraph, columns: dict[str, list[Any]], kinds: dict[str, list[Any]],
          rows: list[dict[str, Any]]) -> None:
    """Put the believed versions into an empty ``graph`` as ``add_nodes_from`` and
    ``add_edges_from`` would, without their copy of every edge's attributes (twice).

    The structure is networkx's own for a MultiDiGraph (its factories are all ``dict``): each
    node an attribute dict in ``_node`` and an empty neighbour dict in ``_succ`` and ``_pred``,
    in the order the edges first name them (subject, then object); each edge's attribute dict
    (its row) in ``_succ[u][v][key]``, the same key dict as ``_pred[v][u]``; a key met again
    updates its dict. ``tests/test_snapshot.py`` holds the graph equal to networkx's build.
    """
    subject_ids, object_ids = columns["subject_id"], columns["object_id"]
    ends: dict[str, tuple[str, str]] = {}
    for side, ids in (("subject", subject_ids), ("object", object_ids)):
        ends.update(zip(ids, zip(columns[side], kinds[side])))
    succ, pred, node = graph._succ, graph._pred, graph._node
    for entity in dict.fromkeys(chain.from_iterable(zip(subject_ids, object_ids))):
        name, kind = ends[entity]
        node[entity] = {"name": name, "kind": kind}
        succ[entity] = {}
        pred[entity] = {}
    for u, v, key, attributes in zip(subject_ids, object_ids, columns["id"], rows):
        out = succ[u]
        keys = out.get(v)
        if keys is None:
            out[v] = pred[v][u] = {key: attributes}
        elif key in keys:  # not in a sound store: version ids are unique
            keys[key].update(attributes)
        else:
            keys[key] = attributes


# Whole-graph reads fetch Arrow columns: a dict per edge from the engine and a validated model
# per row cost several times the engine's own query on large answers (BENCHMARKS.md).


#: The order of an answer about what was believed (beliefs, snapshots, focused views).
BELIEF_ORDER = ("subject", "predicate", "valid_from", "object", "id")


def belief_order(version: Version) -> tuple:
    """A version's place in an answer about what was believed (see :data:`BELIEF_ORDER`)."""
    return tuple(getattr(version, name) for name in BELIEF_ORDER)


def _believed_table(engine: Engine, as_of: datetime, valid_at: datetime | None,
                    about: Collection[str] | None = None) -> pa.Table:
    """The believed versions, one column per field, in the order ``beliefs`` returns them; with
    ``about``, only those with one of those entities as subject or object."""
    if valid_at is None:
        found = engine.arrow("store/beliefs_all_valid", {"as_of": to_engine(as_of)})
    else:
        found = engine.arrow("store/beliefs_at", {"as_of": to_engine(as_of), "valid_at": to_engine(valid_at)})
    return _in_belief_order(_about(_named_ends(engine, _unread_as_null(found)), about))


def _in_belief_order(found: pa.Table) -> pa.Table:
    """``found`` sorted in :data:`BELIEF_ORDER`, on whole numbers where it can: each end's name by
    its rank among the entities' names (``subject_rank``, ``object_rank``: :func:`_named_ends`),
    the predicate by its rank among the answer's predicates. Ranks keep the texts' order (Arrow
    compares them byte by byte either way, and ranks them densely: equal names rank equal, the
    next keys decide); at 1M versions it sorts the 164,833 beliefs in a fifth of the time the
    texts take (0.03 CPU-s against 0.12)."""
    import pyarrow as pa  # here, as in the others below: reads of a few rows never load Arrow
    import pyarrow.compute as pc

    predicates = found.column("predicate").combine_chunks().dictionary_encode()
    keys = {"subject": found.column("subject_rank"),
            "predicate": pc.take(pc.rank(predicates.dictionary, tiebreaker="dense"), predicates.indices),
            "valid_from": found.column("valid_from"), "object": found.column("object_rank"), "id": found.column("id")}
    order = pc.sort_indices(pa.table({name: keys[name] for name in BELIEF_ORDER}),
                            sort_keys=[(name, "ascending") for name in BELIEF_ORDER])
    return found.take(order)


def _unread_as_null(found: pa.Table) -> pa.Table:
    """A beliefs statement's answer with the columns it left unread (:data:`UNREAD_WHEN_BELIEVED`)
    as nulls of their declared types: :func:`arrow_closing_as_known` then reads them as open, as
    every believed version's closing is at the question's moment."""
    import pyarrow as pa

    for column in _FACT.columns:
        if column.name in UNREAD_WHEN_BELIEVED:
            found = found.append_column(pa.field(column.name, column.arrow), pa.nulls(found.num_rows, column.arrow))
    return found


def _named_ends(engine: Engine, found: pa.Table) -> pa.Table:
    """``found`` with each end's place in the Entity table (``subject_at``, ``object_at``)
    replaced by its id, name and kind, gathered from one read of every entity: at 1M versions
    that costs a tenth of projecting the six texts on every row of the answer; and by the rank
    of its name among every entity's (``subject_rank``, ``object_rank``: :func:`_in_belief_order`)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ends = engine.arrow("store/entity_columns")
    ends = ends.append_column("rank", pc.rank(ends.column("name"), tiebreaker="dense"))
    columns: dict[str, Any] = {}
    for side in ("subject", "object"):
        named = ends.take(pc.index_in(found.column(f"{side}_at"), value_set=ends.column("at")))
        if named.column("id").null_count:  # an edge's end is always an entity: never a silent None
            raise EngineError(f"internal: a fact's {side} is missing from the Entity table")
        columns.update({f"{side}_id": named.column("id"), side: named.column("name"),
                        f"{side}_kind": named.column("kind"), f"{side}_rank": named.column("rank")})
    rest = [name for name in found.column_names if name not in ("subject_at", "object_at")]
    return pa.table({**columns, **{name: found.column(name) for name in rest}})


def _times(column: pa.ChunkedArray) -> list[Any]:
    """A UTC time column as aware datetimes (None where null). Through text: Arrow writes a
    naive time as '2020-01-01 00:00:00.000001', a 'Z' is appended, and ``fromisoformat`` reads
    it back exactly: about 8x faster than Arrow's own conversion to datetime objects (and 3x
    faster than casting the zoned column to text)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pc.binary_join_element_wise(column.cast(pa.timestamp("us")).cast(pa.string()), "Z", "")
    return [None if x is None else _from_iso(x) for x in text.to_pylist()]


def _believed_columns(found: pa.Table, as_of: datetime, valid_at: datetime | None,
                      unseen: Unseen) -> dict[str, list[Any]]:
    """Each Version field's values by row (:func:`_believed_arrow`'s columns as Python values:
    times through text, about 8x faster than Arrow's own conversion to datetimes)."""
    import pyarrow as pa

    columns = _believed_arrow(found, as_of, valid_at, unseen)
    return {name: _times(values) if pa.types.is_timestamp(values.type) else values.to_pylist()
            for name, values in columns.items()}


def _rows(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """One dict per row of :func:`_believed_columns`, its keys in the model's field order (as
    validation keeps them)."""
    if tuple(columns) != _VERSION_FIELDS:
        raise EngineError(f"internal: the columns of a belief are not the Version's fields: {list(columns)}")
    return _version_dicts(*columns.values())


def _dicts_of(fields: tuple[str, ...]) -> Callable[..., list[dict[str, Any]]]:
    """A function of one list per field that makes one dict per row, written out as a dict
    display (``{'id': a0, 'subject': a1, …} for a0, a1, … in zip(…)``): at 1M versions it
    builds the 164,833 rows of the beliefs in 0.14-0.15 CPU-s, where ``dict(zip(fields, row))``
    takes 0.21 (``benchmarks/asof_reads.py``). The field names are the model's own identifiers."""
    if not fields or not all(name.isidentifier() for name in fields):
        raise ValueError(f"not identifiers: {fields}")
    columns, values = (", ".join(f"{x}{i}" for i in range(len(fields))) for x in "ca")
    pairs = ", ".join(f"{name!r}: a{i}" for i, name in enumerate(fields))
    source = f"lambda {columns}: [{{{pairs}}} for {values}, in zip({columns})]"  # (one field: "for a0, in")
    return eval(source, {"zip": zip})  # noqa: S307  # our own field names only (checked above)


_version_dicts = _dicts_of(_VERSION_FIELDS)


def newest_first(versions: list[Version]) -> list[Version]:
    """Versions ordered newest write first, then latest valid start first."""
    return sorted(versions, key=lambda v: (v.recorded_at, v.valid_from, v.id), reverse=True)


def history(engine: Engine, subject_ids: Collection[str], predicate: str, now: datetime) -> list[Version]:
    """Every version of (subject, predicate) for each of ``subject_ids`` (one entity's names),
    newest first, status as seen from now."""
    found = [v for subject in subject_ids
             for v in _versions(engine, "store/history", subject=subject, predicate=predicate)]
    return newest_first([with_status(v, now) for v in found])


def entity_versions(engine: Engine, entity_id: str) -> list[Version]:
    """Every version ever written with the entity as subject or object."""
    return [records.version(row) for row in with_bodies(engine, engine.run("store/entity_facts", {"id": entity_id}))]


@consistent
def timeline(engine: Engine, entity_ids: Collection[str], as_of: datetime) -> list[Version]:
    """The facts of the entities ``entity_ids`` (one entity's names) believed at ``as_of``, in
    valid-time order (a fact between two of them once)."""
    unseen = unseen_at(engine, as_of)
    versions = {v.id: v for entity in entity_ids
                for v in _versions(engine, "store/entity_facts_believed", id=entity, as_of=to_engine(as_of))}
    found = [as_believed_at(v, as_of, unseen=unseen) for v in versions.values()]
    return sorted(found, key=lambda v: (v.valid_from, v.predicate, v.id))


def settings(engine: Engine) -> dict[str, str]:
    """The store's settings and counters (time zone, latest write, id sequences, ...)."""
    return dict(engine.run("store/meta_all"))


def declared(engine: Engine) -> dict[str, str]:
    """The predicates declared in the store, and their kinds."""
    return dict(engine.run("store/predicate_all"))


def entities(engine: Engine) -> list[Entity]:
    """Every entity, by id."""
    return [records.entity(r) for r in engine.run("store/entity_all")]


def entity(engine: Engine, entity_id: str) -> Entity | None:
    """The entity keyed ``entity_id``, or None."""
    rows = engine.run("store/entity_get", {"id": entity_id})
    return records.entity(rows[0]) if rows else None


def every_version(engine: Engine) -> list[Version]:
    """Every version ever written (status not set), in storage order."""
    return [records.version(row) for row in engine.run("store/fact_all")]  # bodies joined: a whole scan


def predicate_in_use(engine: Engine, predicate: str) -> bool:
    """True when some version uses ``predicate``."""
    return bool(engine.run("store/predicate_in_use", {"name": predicate})[0][0])


def predicates_used(engine: Engine) -> list[str]:
    """Every predicate some version uses, in order (a scan of the edges)."""
    return [row[0] for row in engine.run("store/predicate_used")]


def proposals(engine: Engine) -> list[Proposal]:
    """The review queue, every state, oldest first."""
    return [records.proposal(r) for r in engine.run("store/proposal_all")]


def tombstones(engine: Engine) -> list[Tombstone]:
    """Records of purges, oldest first."""
    return [records.tombstone(r) for r in engine.run("store/tombstone_all")]


def links(engine: Engine) -> list[Link]:
    """Episodes linked to versions after they were written, oldest first."""
    return [records.link(r) for r in engine.run("store/link_all")]


def episodes(engine: Engine, ids: list[str] | None = None) -> list[Episode]:
    """Episodes by id (all of them when ``ids`` is None), oldest reference time first."""
    if ids is None:
        rows = engine.run("store/episode_all")
    else:
        rows = engine.run("store/episode_get", {"ids": list(ids)})
    found = [records.episode(r) for r in rows]
    return sorted(found, key=lambda e: (e.reference_time, e.id))


def decisions(engine: Engine, after: datetime | None = None, until: datetime | None = None) -> list[Decision]:
    """The write log (optionally the writes with after < at <= until), oldest first."""
    if after is None and until is None:
        rows = engine.run("store/decision_all")
    else:
        rows = engine.run(
            "store/decision_between",
            {"after": to_engine(after or datetime.min), "until": to_engine(until)},
        )
    return [records.decision(r) for r in rows]


@consistent
def diff(engine: Engine, t1: datetime, t2: datetime) -> list[Change]:
    """What started and stopped being believed between two transaction times, and why."""
    writes = decisions(engine, t1, t2)
    ids = sorted({vid for d in writes for vid in d.created + d.closed})
    by_id = {v.id: v for v in map(records.version, engine.run("store/fact_by_ids", {"ids": ids}))} if ids else {}
    unseen = unseen_at(engine, t2)
    changes = []
    for d in writes:
        if d.op == "PURGE":
            changes.append(Change(change="purged", believed="removed", at=d.at, decision=d.id,
                                  reason=d.reason))
            continue
        change = CHANGE_OF_OP.get(d.op)
        if change is None:
            continue
        stopped_started: tuple[tuple[Literal["stopped", "started"], list[str]], ...] = (
            ("stopped", d.closed), ("started", d.created))
        for believed, vids in stopped_started:
            for vid in vids:
                if vid in by_id:
                    changes.append(Change(
                        change=change, believed=believed, at=d.at, decision=d.id,
                        version=as_believed_at(by_id[vid], t2, unseen=unseen), reason=d.reason,
                    ))
    return changes


def _in_order(versions: list[Version]) -> list[Version]:
    return sorted(versions, key=lambda v: (v.valid_from, v.recorded_at, v.id))


@consistent
def why(engine: Engine, names: tuple[Collection[str], Collection[str]], subject: str, predicate: str,
        valid_at: datetime, as_of: datetime, vs: datetime) -> WhyAnswer:
    """The (subject, predicate) answer at ``valid_at`` as of two times, and what changed it; ``names`` are the
    subject's entities (its aliases) as believed at each of the two times."""
    members = dict.fromkeys((*names[0], *names[1]))  # in order: the answers do not depend on a set's order
    every = [v for subject_id in members
             for v in _versions(engine, "store/history", subject=subject_id, predicate=predicate)]
    joining = {v.id for subject_id in members if len(members) > 1
               for v in _versions(engine, "store/history", subject=subject_id, predicate=ALIAS)
               if v.object_id in members}  # an alias written between the two times changes the answer too

    def answer(t: datetime, ids: Collection[str]) -> list[Version]:
        unseen = unseen_at(engine, t)
        return [
            as_believed_at(v, t, valid_at, unseen) for v in every
            if v.subject_id in ids and as_known.believed(v.recorded_at, v.superseded_at, t)
            and Period(v.valid_from, v.valid_to).contains(valid_at)
        ]

    ids = {v.id for v in every if Period(v.valid_from, v.valid_to).contains(valid_at)} | joining  # (not a write of
    # another valid time: "Rosario from June" changes nothing of March, a new user's)
    low, high = sorted((as_of, vs))
    writes = [d for d in decisions(engine, low, high) if ids & set(d.created + d.closed)]
    episode_ids = {d.episode for d in writes if d.episode}
    made = {d.id for d in writes}
    linked = unseen_at(engine, high)  # the sources as known at the later time: no later link
    episode_ids |= {e for v in every if v.created_by in made for e in linked.visible(v.id, v.episodes)}
    return WhyAnswer(
        subject=subject, predicate=predicate, valid_at=valid_at, as_of=as_of, vs=vs,
        before=_in_order(answer(as_of, names[0])), after=_in_order(answer(vs, names[1])), decisions=writes,
        episodes=episodes(engine, sorted(episode_ids)) if episode_ids else [],
    )
