"""Named queries: documented, parameterised Cypher in ``queries/NAME.cypher`` that users run by name.

Each file at the top of ``queries/`` opens with ``//`` lines: the first says what it answers,
then one ``// param: NAME (TYPE, default VALUE) — meaning`` line per parameter the user gives
(type and default optional). Types: ``text`` (the default), ``int``, ``float``, ``time`` (read
in the store's zone), ``entity`` (a name or id, resolved to the entity's id; unknown ones are
refused).

Three parameters are bound automatically when a query names them: ``$as_of`` (the transaction
time, default now), ``$valid_at`` (the valid time, default ``$as_of``) and ``$all_valid`` (true
with ``valid_at="all"``, when ``$valid_at`` falls back to ``$as_of``). The queries run against
the store itself, through the read-only guard, so they see the whole log: each one writes its own
temporal conditions. Open ends come back as None and times as aware UTC.

Internal: run named queries with :meth:`graphmem.Store.query`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..core.times import to_engine
from ..engine import Engine
from ..engine.statements import QUERIES, queries_dir
from ..errors import EngineError, InvalidInput, NotFound
from ..read.questions import unseen_at
from .cypher import Rows, answer, check_parameters, parameters_in
from .guard import ensure_read_only
from .projection import MomentCache, log_until
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, Projection
from .sandbox import forget as forget_projection

__all__ = ["NamedQuery", "log_cache", "bind", "convert", "find", "named_queries", "run"]

#: Parameters bound from as_of / valid_at rather than given by the user.
AUTOMATIC = frozenset({"as_of", "valid_at", "all_valid"})
TYPES = ("text", "int", "float", "time", "entity")
_PARAM = re.compile(
    r"^param:\s*(?P<name>[A-Za-z_]\w*)\s*(?:\((?P<type>\w+)(?:\s*,\s*default\s+(?P<default>[^)]*))?\))?"
    r"\s*(?:—|--?)\s*(?P<meaning>.*)$"
)


@dataclass(frozen=True)
class Param:
    """A parameter a named query takes from its user."""

    name: str
    type: str = "text"
    default: str | None = None
    meaning: str = ""


@dataclass(frozen=True)
class NamedQuery:
    """A documented query from ``queries/NAME.cypher``."""

    name: str
    description: str
    params: tuple[Param, ...]
    text: str

    @property
    def automatic(self) -> list[str]:
        """The automatic parameters (as_of, valid_at, all_valid) this query uses."""
        return sorted(parameters_in(self.text) & AUTOMATIC)


def _parse(name: str, source: str) -> NamedQuery:
    comments = []
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        comments.append(stripped[2:].strip())
    if not comments or not comments[0]:
        raise ValueError(f"queries/{name}.cypher must open with a // line saying what it answers")
    params = []
    for comment in comments[1:]:
        if not comment.startswith("param:"):
            continue
        found = _PARAM.match(comment)
        if found is None or (found["type"] or "text") not in TYPES or found["name"] in AUTOMATIC:
            raise ValueError(f"queries/{name}.cypher: cannot read parameter line {comment!r}")
        params.append(Param(found["name"], found["type"] or "text",
                            found["default"].strip() if found["default"] else None, found["meaning"]))
    text = QUERIES[name]
    declared = {p.name for p in params}
    used = parameters_in(text) - AUTOMATIC
    if declared != used:
        raise ValueError(f"queries/{name}.cypher declares {sorted(declared)} but uses {sorted(used)}")
    return NamedQuery(name, comments[0], tuple(params), text)


@functools.cache
def named_queries() -> dict[str, NamedQuery]:
    """Every user-facing named query (the files at the top of queries/), by name; read once."""
    root = queries_dir()
    return {
        name: _parse(name, (root / f"{name}.cypher").read_text(encoding="utf-8"))
        for name in sorted(QUERIES) if "/" not in name
    }


def find(name: str) -> NamedQuery:
    """A named query by name (``-`` and ``_`` are interchangeable), or NotFound listing them."""
    known = named_queries()
    found = known.get(name.replace("-", "_"))
    if found is None:
        raise NotFound(f"no named query {name!r}; known: {', '.join(known)} (see graphmem query --list)")
    return found


def convert(name: str, kind: str, value: Any, read_time: Callable[[Any], datetime],
            entity_id: Callable[[str], str]) -> Any:
    """A parameter value of type ``kind`` as the engine takes it (text from the command line is
    parsed): times through ``read_time``, entities (a name or id) through ``entity_id``."""
    if kind not in TYPES:
        raise InvalidInput(f"unknown parameter type {kind!r} for {name}; use one of: {', '.join(TYPES)}")
    if kind == "time":
        return to_engine(read_time(value))
    if kind == "entity":
        if not isinstance(value, str):
            raise InvalidInput(f"parameter {name} names an entity: give its name or id")
        return entity_id(value)
    if kind == "int" and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise InvalidInput(f"parameter {name} must be a whole number, not {value!r}") from None
    if kind == "float" and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise InvalidInput(f"parameter {name} must be a number, not {value!r}") from None
    return value


def bind(query: NamedQuery, given: dict[str, Any], as_of: datetime, valid_at: datetime | None,
         read_time: Callable[[Any], datetime], entity_id: Callable[[str], str]) -> dict[str, Any]:
    """The values ``query`` runs with: the user's ``given`` parameters (or their defaults),
    converted to their declared types, and the automatic ones it names ($as_of, $valid_at,
    $all_valid) from the two moments (``valid_at`` None: every valid time)."""
    unknown = sorted(given.keys() - {p.name for p in query.params})
    if unknown:
        accepted = ", ".join(p.name for p in query.params) or "none"
        raise InvalidInput(f"{query.name} takes no parameter {unknown[0]!r} (it takes: {accepted})")
    bound = {}
    for param in query.params:
        value = given.get(param.name, param.default)
        if value is None:
            raise InvalidInput(f"{query.name} needs --param {param.name}=VALUE ({param.meaning})")
        bound[param.name] = convert(param.name, param.type, value, read_time, entity_id)
    automatic = {"as_of": to_engine(as_of), "valid_at": to_engine(valid_at if valid_at is not None else as_of),
                 "all_valid": valid_at is None}
    bound.update({k: automatic[k] for k in query.automatic})
    return bound


def run(engine: Engine, logs: MomentCache[Projection], query: NamedQuery, bound: dict[str, Any], as_of: datetime,
        latest: datetime | None, *, timeout: float | None = DEFAULT_TIMEOUT,
        memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
    """Run ``query`` with its ``bound`` values over the log as it stood at ``as_of``, in a worker
    process with a time and a memory limit (see :mod:`graphmem.query.sandbox`)."""
    text = ensure_read_only(query.text, engine.name)
    check_parameters(text, bound)
    with engine.lock:  # one consistent read: a write holds this lock for its whole transaction
        projection = log_at(logs, engine, as_of, latest)
    try:
        return answer(projection, text, bound, engine.name, timeout=timeout, memory_mb=memory_mb)
    except InvalidInput as exc:  # the query is ours: the engine refusing it is not the user's doing
        raise EngineError(str(exc)) from exc


def log_cache() -> MomentCache[Projection]:
    """One store's log projections by moment, valid until its next write (owned by the Store)."""
    return MomentCache(LOGS_KEPT, lambda projection: forget_projection(projection.id))


def log_at(cache: MomentCache[Projection], engine: Engine, at: datetime, latest: datetime | None) -> Projection:
    """The log of the store behind ``engine`` as it stood at ``at`` (hold the engine's lock)."""
    moment = min(at, latest) if latest is not None else at
    return cache.get(moment, latest, lambda: log_until(engine, at, unseen_at(engine, at)))


#: Log projections kept per store.
LOGS_KEPT = 2
