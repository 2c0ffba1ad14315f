"""Cypher as of a date: a user's read-only query over the graph as believed at T and valid at V.

The query is not rewritten. The versions believed at T (and valid at V) are projected into a
throwaway in-memory database of the store's own engine, with the store's Entity, Episode and
Fact schema, and the guarded query runs there unchanged: multi-hop patterns, variable-length
paths, aggregations and subqueries see only that graph, so none of them can reach a version
the store did not believe at T. Projections are cached by their content, so repeated questions
about the same moment cost one fetch and no rebuild.

In a projection, every fact is shown as it was believed at T: its transaction period is still
open (``superseded_at``, ``superseded_by``, ``closed_by`` and ``reason`` are null), its episodes
are those received by T, and open ends are null (``f.valid_to IS NULL`` means open). The nodes
are the subjects and objects of the projected facts, plus the episodes received by T.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any

from . import reads, records
from .cypher_guard import ensure_read_only, tokenize
from .engine import Engine
from .errors import InvalidInput
from .models import Entity, Episode, Version
from .projection import believed_graph
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, Projection, sandbox_for
from .sandbox import forget as forget_projection
from .timeutil import UTC, from_engine, to_engine

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "Rows", "Snapshot", "cypher", "execute", "forget", "jsonable", "moments", "normalise", "parameters_in",
    "snapshot_of",
]

ALL = "all"
#: Snapshots kept per store.
CACHE_SIZE = 4


class Rows(list):
    """Query results: a list of dicts (column → value) that also knows its column order."""

    def __init__(self, columns: list[str], rows: list[dict]):
        super().__init__(rows)
        self.columns = list(columns)


# -- what a moment of belief holds ------------------------------------------------------------


@dataclass
class Snapshot:
    """The versions, entities and episodes of the graph as believed at ``as_of``, valid at ``valid_at``."""

    as_of: datetime
    valid_at: datetime | None
    versions: list[Version]
    entities: dict[str, Entity]
    episodes: list[Episode]
    key: tuple = ()
    _projection: Projection | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    extras: dict = field(default_factory=dict, repr=False)

    def projection(self) -> Projection:
        """The snapshot as tables for a query's worker, built on first use."""
        with self._lock:
            if self._projection is None:
                self._projection = believed_graph(self.versions, list(self.entities.values()), self.episodes)
            return self._projection

    def close(self) -> None:
        """Drop what was built from this snapshot (its copies in the query workers included)."""
        with self._lock:
            for extra in self.extras.values():
                close = getattr(extra, "close", None)
                if close:
                    close()
            self.extras.clear()
            if self._projection is not None:
                forget_projection(self._projection.id)
                self._projection = None


def _received_by(episodes: list[Episode], as_of: datetime) -> list[Episode]:
    return [e for e in episodes if e.received_at <= as_of]


def _fetch(store: Store, as_of: datetime, valid_at: datetime | None, latest: datetime | None) -> Snapshot:
    engine = store._db
    episodes = _received_by(reads.episodes(engine), as_of)
    episode_ids = {e.id for e in episodes}
    versions = reads.beliefs(engine, as_of, valid_at)  # links to later episodes already hidden
    ends = {v.subject_id for v in versions} | {v.object_id for v in versions}
    entities = {
        e.id: e for e in (records.entity(r) for r in engine.run("store/entity_all")) if e.id in ends
    }
    key = (latest, frozenset((v.id, tuple(v.episodes)) for v in versions), frozenset(episode_ids))
    return Snapshot(as_of, valid_at, versions, entities, episodes, key)


# -- the cache ------------------------------------------------------------------------------------


@dataclass
class _Cache:
    """One store's snapshots by content, and which moments they answer."""

    latest: datetime | None = None
    snapshots: OrderedDict = field(default_factory=OrderedDict)
    moments: dict = field(default_factory=dict)

    def clear(self) -> None:
        for snapshot in self.snapshots.values():
            snapshot.close()
        self.snapshots.clear()
        self.moments.clear()


_caches: weakref.WeakKeyDictionary[Engine, _Cache] = weakref.WeakKeyDictionary()
_cache_lock = threading.Lock()


def snapshot_of(store: Store, as_of: datetime, valid_at: datetime | None) -> Snapshot:
    """The (cached) snapshot of ``store`` at transaction time ``as_of`` and valid time ``valid_at``.

    Moments that believe the same versions and episodes share one snapshot; a moment asked
    again, or any moment after the latest write, is answered without reading the store. Any
    write moves the store's latest write time, which drops every snapshot taken before it (so
    a purge leaves no copy of what it removed behind the next query).
    """
    with store._db.lock:  # one consistent read: a write holds this lock for its whole transaction
        latest = store.latest_write()
        moment = (min(as_of, latest) if latest is not None else as_of, valid_at)
        with _cache_lock:
            cache = _caches.setdefault(store._db, _Cache())
            if cache.latest != latest:
                cache.clear()
                cache.latest = latest
            found = cache.snapshots.get(cache.moments.get(moment))
            if found is None:
                fresh = _fetch(store, as_of, valid_at, latest)
                found = cache.snapshots.setdefault(fresh.key, fresh)
                cache.moments[moment] = found.key
            cache.snapshots.move_to_end(found.key)
            while len(cache.snapshots) > CACHE_SIZE:
                cache.snapshots.popitem(last=False)[1].close()
            cache.moments = {m: k for m, k in cache.moments.items() if k in cache.snapshots}
            return found


def forget(engine: Engine) -> None:
    """Drop every cached snapshot of the store behind ``engine`` (call on close and after purge)."""
    with _cache_lock:
        cache = _caches.pop(engine, None)
    if cache is not None:
        cache.clear()


# -- running a query ----------------------------------------------------------------------------


def parameters_in(query: str) -> set[str]:
    """The ``$parameters`` a query names (outside strings, quoted names and comments)."""
    tokens = [t for t in tokenize(query) if t.kind not in ("space", "comment")]
    return {
        tokens[i + 1].text for i, t in enumerate(tokens[:-1])
        if t.text == "$" and tokens[i + 1].kind == "word" and tokens[i + 1].start == t.start + 1
    }


def bind(value: Any, tz=UTC) -> Any:
    """A user's parameter value as the engine takes it (times as naive UTC, read in ``tz``)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=tz)
        return to_engine(value)
    if isinstance(value, (list, tuple)):
        return [bind(v, tz) for v in value]
    if isinstance(value, dict):
        return {k: bind(v, tz) for k, v in value.items()}
    return value


def execute(engine: Engine, text: str, params: dict, failure=InvalidInput) -> tuple[list[str], list[list]]:
    """Run query text on ``engine``; return its column names and rows.

    An engine error becomes ``failure`` (the user's query was wrong: InvalidInput by default).
    """
    try:
        return engine.run_with_columns(text, params)
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise failure(f"the query failed: {first}") from exc


def check_parameters(query: str, params: dict) -> None:
    """Every ``$name`` in the query must be given, and nothing else (kuzu misreads both)."""
    wanted = parameters_in(query)
    missing = sorted(wanted - params.keys())
    extra = sorted(params.keys() - wanted)
    if missing:
        raise InvalidInput(
            f"the query uses ${missing[0]} but no value was given; pass it as a parameter "
            f"(--param {missing[0]}=VALUE)"
        )
    if extra:
        raise InvalidInput(f"parameter {extra[0]!r} is not used by the query; remove it")


def moments(store: Store, as_of, valid_at) -> tuple[datetime, datetime | None]:
    """The transaction and valid times asked for: as_of defaults to now, valid_at to as_of ("all": None)."""
    t = store.now() if as_of is None else store.time(as_of)
    if isinstance(valid_at, str) and valid_at.strip().lower() == ALL:
        return t, None
    return t, (t if valid_at is None else store.time(valid_at))


def cypher(store: Store, query: str, params: dict | None = None, as_of=None, valid_at=None, *,
           timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
    """Run a user's read-only Cypher over the graph as believed at ``as_of`` and valid at ``valid_at``.

    ``as_of`` defaults to now and ``valid_at`` to ``as_of``; ``valid_at="all"`` keeps every valid
    time believed at ``as_of``. Values go in only as ``params``; every ``$name`` the query uses
    must be given. ``$as_of`` and ``$valid_at`` are bound to the two moments when the query names
    them and the caller does not. Rows come back as dicts, times as aware UTC, open ends as None,
    nodes and facts as dicts of their properties with ``_label`` (facts add ``_src``/``_dst``,
    their endpoints' ids), paths as ``{"_nodes": [...], "_rels": [...]}``.

    The query runs in a separate worker process (see :mod:`graphmem.sandbox`), stopped after
    ``timeout`` seconds or past ``memory_mb`` of memory (QueryFailed); while it runs, the store's
    other threads read and write as usual.
    """
    text = ensure_read_only(query, store.engine)
    params = dict(params or {})
    t, v = moments(store, as_of, valid_at)
    wanted = parameters_in(text)
    if "as_of" in wanted and "as_of" not in params:
        params["as_of"] = t
    if "valid_at" in wanted and "valid_at" not in params:
        params["valid_at"] = v if v is not None else t
    check_parameters(text, params)
    bound = {k: bind(val, store.tz) for k, val in params.items()}
    projection = snapshot_of(store, t, v).projection()
    columns, rows = sandbox_for(store.engine).run(projection, text, bound, timeout=timeout, memory_mb=memory_mb)
    return Rows(columns, [dict(zip(columns, row, strict=True)) for row in rows])


# -- values as the user sees them -------------------------------------------------------------------

_INTERNAL = {"_id", "_label", "_src", "_dst", "_nodes", "_rels"}


def _internal(value: dict) -> dict:
    """The engine's internal keys of a node/rel/path dict, lower-cased (ladybug upper-cases them)."""
    return {k.lower(): v for k, v in value.items() if k.lower() in _INTERNAL}


def _is_internal_id(value) -> bool:
    return isinstance(value, dict) and set(value) == {"offset", "table"}


def normalise(value: Any, node_key=None) -> Any:
    """An engine value as graphmem returns it: identical on both engines, times aware UTC.

    Nodes and rels lose the engine's internal ids (meaningless outside one database) and keep
    ``_label``; a rel's endpoints become ``_src``/``_dst`` ids when ``node_key`` can name them;
    properties a node does not have (an unlabelled variable's other tables) are dropped.
    """
    if isinstance(value, datetime):
        return from_engine(value) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, list):
        return [normalise(v, node_key) for v in value]
    if isinstance(value, dict):
        inner = _internal(value)
        if "_nodes" in inner and "_rels" in inner:
            return {"_nodes": normalise(inner["_nodes"], node_key),
                    "_rels": normalise(inner["_rels"], node_key)}
        if "_label" in inner and _is_internal_id(inner.get("_id")):
            found = {"_label": inner["_label"]}
            if "_src" in inner:
                for end in ("_src", "_dst"):
                    key = node_key(inner[end]) if node_key else None
                    if key is not None:
                        found[end] = key
            props = {k: normalise(v, node_key) for k, v in value.items() if k.lower() not in _INTERNAL}
            own = _PROPERTIES.get(inner["_label"])
            if own is not None:
                props = {k: v for k, v in props.items() if k in own}
            return {**found, **props}
        return {k: normalise(v, node_key) for k, v in value.items()}
    return value


def _load_properties() -> dict[str, frozenset[str]]:
    """Each table's property names, read from the schema files (for unlabelled variables)."""
    from .queries import QUERIES

    found = {}
    for name, text in QUERIES.items():
        if not name.startswith("schema/"):
            continue
        head, _, rest = text.partition("(")
        label = head.split()[-1]
        columns = []
        for part in rest.rsplit(")", 1)[0].split(","):
            words = part.split()
            if words and words[0] not in ("FROM", "TO"):
                columns.append(words[0])
        found[label] = frozenset(columns)
    return found


_PROPERTIES = _load_properties()


def jsonable(value: Any) -> Any:
    """A normalised value as JSON-ready data (times ISO 8601 with Z, dates ISO, others str)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)

