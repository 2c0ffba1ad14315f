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
"""

from __future__ import annotations

import functools
import re
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cypher import Rows, check_parameters, moments, parameters_in
from .cypher_guard import ensure_read_only
from .errors import EngineError, InvalidInput, NotFound
from .projection import log_until
from .queries import QUERIES, queries_dir
from .reads import unseen_at
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, Projection, sandbox_for
from .sandbox import forget as forget_projection
from .timeutil import to_engine

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "AUTOMATIC", "TYPES", "NamedQuery", "Param", "convert", "cypher_params", "find", "named_params",
    "named_queries", "run_named", "split_params",
]

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


def convert(store: Store, name: str, kind: str, value: Any) -> Any:
    """A parameter value of type ``kind`` as the engine takes it (text from the command line is parsed)."""
    if kind not in TYPES:
        raise InvalidInput(f"unknown parameter type {kind!r} for {name}; use one of: {', '.join(TYPES)}")
    if kind == "time":
        return to_engine(store.time(value))
    if kind == "entity":
        if not isinstance(value, str):
            raise InvalidInput(f"parameter {name} names an entity: give its name or id")
        return store.entity(value).id
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


def run_named(store: Store, name: str, params: dict | None = None, as_of=None, valid_at=None, *,
              timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB) -> Rows:
    """Run the named query ``name`` over the log as of ``as_of`` with the user's ``params`` (strings
    are converted), in a worker process with a time and a memory limit (see :mod:`graphmem.sandbox`)."""
    query = find(name)
    given = dict(params or {})
    unknown = sorted(given.keys() - {p.name for p in query.params})
    if unknown:
        accepted = ", ".join(p.name for p in query.params) or "none"
        raise InvalidInput(f"{query.name} takes no parameter {unknown[0]!r} (it takes: {accepted})")
    bound = {}
    for param in query.params:
        value = given.get(param.name, param.default)
        if value is None:
            raise InvalidInput(f"{query.name} needs --param {param.name}=VALUE ({param.meaning})")
        bound[param.name] = convert(store, param.name, param.type, value)
    t, v = moments(store, as_of, valid_at)
    automatic = {"as_of": to_engine(t), "valid_at": to_engine(v if v is not None else t),
                 "all_valid": v is None}
    bound.update({k: automatic[k] for k in query.automatic})
    text = ensure_read_only(query.text, store.engine)
    check_parameters(text, bound)
    projection = _log_as_of(store, t)
    try:
        columns, rows = sandbox_for(store.engine).run(projection, text, bound, timeout=timeout, memory_mb=memory_mb)
    except InvalidInput as exc:  # the query is ours: the engine refusing it is not the user's doing
        raise EngineError(str(exc)) from exc
    return Rows(columns, [dict(zip(columns, row, strict=True)) for row in rows])


@dataclass
class _Logs:
    """One store's log projections by moment, valid until its next write."""

    latest: object = None
    by_moment: dict = field(default_factory=dict)

    def clear(self) -> None:
        for projection in self.by_moment.values():
            forget_projection(projection.id)
        self.by_moment.clear()


_logs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_logs_lock = threading.Lock()
#: Log projections kept per store.
LOGS_KEPT = 2


def forget_logs(engine) -> None:
    """Drop the log projections of the store behind ``engine`` (on close)."""
    with _logs_lock:
        logs = _logs.pop(engine, None)
    if logs is not None:
        logs.clear()


def _log_as_of(store: Store, at) -> Projection:
    """The store's log as it stood at ``at`` (cached until the next write)."""
    engine = store._db
    with engine.lock:  # one consistent read: a write holds this lock for its whole transaction
        latest = store.latest_write()
        moment = min(at, latest) if latest is not None else at
        with _logs_lock:
            logs = _logs.setdefault(engine, _Logs())
            if logs.latest != latest:
                logs.clear()
                logs.latest = latest
            found = logs.by_moment.pop(moment, None)
            if found is None:
                found = log_until(engine, at, unseen_at(engine, at))
            logs.by_moment[moment] = found  # most recent last
            while len(logs.by_moment) > LOGS_KEPT:
                forget_projection(logs.by_moment.pop(next(iter(logs.by_moment))).id)
            return found


_TIME_NAME = re.compile(r"(_at|_of|_from|_to)$|^t\d+$")


def split_params(pairs) -> dict[str, tuple[str | None, str]]:
    """``NAME[:TYPE]=VALUE`` texts (from ``--param``) as {name: (type or None, value)}."""
    found: dict[str, tuple[str | None, str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        name, _, kind = key.strip().partition(":")
        if not sep or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise InvalidInput(f"--param takes NAME=VALUE (or NAME:TYPE=VALUE), not {pair!r}")
        if name in found:
            raise InvalidInput(f"--param {name} is given twice")
        found[name] = (kind.strip() or None, value)
    return found


def cypher_params(store: Store, pairs) -> dict[str, Any]:
    """``--param`` texts as values for a user's Cypher query.

    A value is text unless its name carries a type (``limit:int=5``, types as for named
    queries) or looks like a time: names ending in ``_at``, ``_of``, ``_from`` or ``_to``, and
    ``t1``, ``t2``, ... are read as times in the store's zone (``entity`` gives the entity's id).
    """
    values: dict[str, Any] = {}
    for name, (kind, text) in split_params(pairs).items():
        kind = kind or ("time" if _TIME_NAME.search(name) else "text")
        values[name] = store.time(text) if kind == "time" else convert(store, name, kind, text)
    return values


def named_params(pairs) -> dict[str, str]:
    """``--param NAME=VALUE`` texts for a named query (which declares its own types)."""
    found = split_params(pairs)
    for name, (kind, _) in found.items():
        if kind is not None:
            raise InvalidInput(f"named queries declare their parameters' types: write --param {name}=VALUE")
    return {name: text for name, (_, text) in found.items()}
