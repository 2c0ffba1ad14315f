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

Internal: run queries with :meth:`graphmem.Store.cypher`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from ..core.aliases import AliasGroups
from ..core.times import UTC, to_engine
from ..engine import Engine
from ..errors import InvalidInput
from ..models import Entity, Episode, Version
from ..read import aliases, questions
from .guard import ensure_read_only, tokenize
from .projection import MomentCache, believed_graph
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, Projection, sandbox_for
from .sandbox import forget as forget_projection

__all__ = ["Rows", "Snapshot", "answer", "check_parameters", "parameters_in", "prepare"]

#: Snapshots kept per store.
CACHE_SIZE = 4


class Rows(list[dict[str, Any]]):
    """Query results: a list of dicts (column → value) that also knows its column order."""

    def __init__(self, columns: list[str], rows: list[dict[str, Any]]) -> None:
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
    key: tuple[Any, ...] = ()  # what it holds: the latest write, (version, its episodes), episodes
    groups: AliasGroups = field(default_factory=AliasGroups)  # the names believed one then (one node each)
    _projection: Projection | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    extras: dict[str, Any] = field(default_factory=dict, repr=False)

    def projection(self) -> Projection:
        """The snapshot as tables for a query's worker, built on first use."""
        with self._lock:
            if self._projection is None:
                self._projection = believed_graph(self.versions, list(self.entities.values()), self.episodes,
                                                  self.groups)
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


def _fetch(engine: Engine, as_of: datetime, valid_at: datetime | None, latest: datetime | None) -> Snapshot:
    episodes = [e for e in questions.episodes(engine) if e.received_at <= as_of]
    versions = questions.beliefs(engine, as_of, valid_at)  # links made later already hidden
    groups = aliases.groups_at(engine, as_of, valid_at)
    ends = {v.subject_id for v in versions} | {v.object_id for v in versions} | set(groups.leader)
    entities = {e.id: e for e in questions.entities(engine) if e.id in ends}
    key = (latest, frozenset((v.id, tuple(v.episodes)) for v in versions), frozenset(e.id for e in episodes),
           frozenset(groups.leader.items()))
    return Snapshot(as_of, valid_at, versions, entities, episodes, key, groups)


# -- the cache ------------------------------------------------------------------------------------


def snapshot_cache() -> MomentCache[Snapshot]:
    """One store's snapshots by content, and which moments they answer: moments that believe the same
    versions and episodes share one snapshot; a moment asked again, or any moment after the latest
    write, is answered without reading the store."""
    return MomentCache(CACHE_SIZE, Snapshot.close)


def snapshot_at(cache: MomentCache[Snapshot], engine: Engine, as_of: datetime, valid_at: datetime | None,
                latest: datetime | None) -> Snapshot:
    """The snapshot at ``as_of`` and ``valid_at`` of the store behind ``engine``, whose latest write is
    ``latest`` (hold the engine's lock: one consistent read)."""
    moment = (min(as_of, latest) if latest is not None else as_of, valid_at)
    return cache.get(moment, latest, lambda: _fetch(engine, as_of, valid_at, latest), lambda s: s.key)


# -- running a query ----------------------------------------------------------------------------


def parameters_in(query: str) -> set[str]:
    """The ``$parameters`` a query names (outside strings, quoted names and comments)."""
    tokens = [t for t in tokenize(query) if t.kind not in ("space", "comment")]
    return {
        tokens[i + 1].text for i, t in enumerate(tokens[:-1])
        if t.text == "$" and tokens[i + 1].kind == "word" and tokens[i + 1].start == t.start + 1
    }


def bind(value: Any, tz: tzinfo = UTC) -> Any:
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


def check_parameters(query: str, params: dict[str, Any]) -> None:
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


def prepare(query: str, params: dict[str, Any] | None, as_of: datetime, valid_at: datetime | None, engine: str,
            tz: tzinfo = UTC) -> tuple[str, dict[str, Any]]:
    """A user's query and parameters ready to run: guarded (read-only, and no shape ``engine``
    answers wrongly), every ``$name`` given (``$as_of`` and ``$valid_at`` bound to the moments
    when the query names them and the caller does not), values bound (naive times read in ``tz``)."""
    text = ensure_read_only(query, engine)
    params = dict(params or {})
    wanted = parameters_in(text)
    if "as_of" in wanted and "as_of" not in params:
        params["as_of"] = as_of
    if "valid_at" in wanted and "valid_at" not in params:
        params["valid_at"] = valid_at if valid_at is not None else as_of
    check_parameters(text, params)
    return text, {k: bind(val, tz) for k, val in params.items()}


def answer(projection: Projection, text: str, bound: dict[str, Any], engine: str, *,
           timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
    """Run a prepared query over ``projection`` in a worker process of ``engine`` (see
    :mod:`graphmem.query.sandbox`): rows as dicts, times aware UTC, open ends None, nodes and facts as
    dicts of their properties with ``_label`` (facts add ``_src``/``_dst``, their endpoints' ids),
    paths as ``{"_nodes": [...], "_rels": [...]}``."""
    columns, rows = sandbox_for(engine).run(projection, text, bound, timeout=timeout, memory_mb=memory_mb)
    return Rows(columns, [dict(zip(columns, row, strict=True)) for row in rows])
