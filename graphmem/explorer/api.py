"""The explorer's JSON API as plain functions: parse the query string, call the Store, shape.

No web framework here: each handler takes a store and the request's parameters (name → list
of values) and returns ``(status, body)``. Answers are the CLI's ``--json`` for the same
question (the JSON shapes of :mod:`graphmem.core.json_shapes`, as the CLI prints them). Nothing writes.

Internal: see :mod:`graphmem.explorer`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol, overload

from ..core import json_shapes as output
from ..core.relations import shown_name
from ..core.times import TimeLike, iso
from ..errors import GraphmemError, InvalidInput, NotFound
from ..models import Change, Entity, Episode, Neighbourhood, Version
from ..pages.palette import CLOSED_STATUSES, STATUS_COLOURS, kind_colour
from ..recall import Answer

#: Entities a focused graph may hold unless the request asks for fewer (or more, up to MAX).
__all__ = ["answer", "handlers"]

DEFAULT_LIMIT, MAX_LIMIT = 300, 2000
#: Write times sent for the as-of slider, at most (evenly sampled beyond).
MAX_TIMES = 2000
#: Facts a search answers with unless the request asks for fewer or more (the CLI's default).
SEARCH_LIMIT, MAX_SEARCH_LIMIT = 10, 100


class BadRequest(InvalidInput):
    """A request whose parameters are wrong (HTTP 400)."""


class ReadStore(Protocol):
    """What the explorer asks of a :class:`graphmem.Store` (it reads, and never writes)."""

    tz_name: str  # the zone the store reads naive times in, and the page shows times in

    def neighbourhood(self, focus: str, depth: int = ..., as_of: TimeLike | None = ...,
                      valid_at: TimeLike | None = ..., predicates: list[str] | None = ...,
                      limit: int | None = ...) -> Neighbourhood: ...
    def timeline(self, entity: str, as_of: TimeLike | None = ...) -> list[Version]: ...
    def diff(self, t1: TimeLike, t2: TimeLike) -> list[Change]: ...
    def entity(self, name_or_id: str) -> Entity: ...
    def find_entities(self, text: str, limit: int = ...) -> list[Entity]: ...
    def version(self, version_id: str) -> Version: ...
    def versions_of(self, episode_id: str) -> list[Version]: ...
    def episode(self, episode_id: str) -> Episode: ...
    def episodes(self, ids: list[str] | None = ...) -> list[Episode]: ...
    def episodes_of(self, version_id: str) -> list[Episode]: ...
    def search(self, text: str, as_of: TimeLike | None = ..., *, limit: int | None = ...,
               speaker: str | None = ...) -> list[Answer]: ...
    def knows_speaker(self, name: str) -> bool: ...
    def most_believed(self, limit: int = ..., as_of: TimeLike | None = ...) -> list[tuple[Entity, int]]: ...
    def latest_write(self) -> datetime | None: ...
    def write_times(self) -> list[datetime]: ...
    def now(self) -> datetime: ...


#: A request's query parameters: each name with its values, in order.
Params = dict[str, list[str]]
#: An endpoint: the store and the request's parameters in, the JSON body out.
Handler = Callable[[ReadStore, Params], Any]


@overload
def _one(params: Params, name: str, required: Literal[True]) -> str: ...
@overload
def _one(params: Params, name: str, required: bool = ...) -> str | None: ...
def _one(params: Params, name: str, required: bool = False) -> str | None:
    values = params.get(name) or []
    if len(values) > 1:
        raise BadRequest(f"give {name} once, not {len(values)} times")
    value = values[0].strip() if values else None
    if required and not value:
        raise BadRequest(f"{name} is required")
    return value or None


def _number(params: Params, name: str, default: int, low: int, high: int) -> int:
    value = _one(params, name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, not {value!r}") from None
    if not low <= number <= high:
        raise BadRequest(f"{name} must be between {low} and {high}, not {number}")
    return number


def _only(params: Params, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}; this endpoint takes "
                         + ", ".join(allowed))


def graph(store: ReadStore, params: Params) -> dict[str, Any]:
    """``/api/graph``: the focused neighbourhood, edges in the ``--json`` shape (plus node ids)."""
    _only(params, ("focus", "depth", "as_of", "valid_at", "predicate", "limit"))
    found = store.neighbourhood(
        _one(params, "focus", required=True), depth=_number(params, "depth", 1, 0, 6),
        as_of=_one(params, "as_of"), valid_at=_one(params, "valid_at"),
        predicates=params.get("predicate") or None,
        limit=_number(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT),
    )
    return {
        "focus": found.focus.model_dump(mode="json"),
        "depth": found.depth,
        "as_of": iso(found.as_of),
        "valid_at": iso(found.valid_at) if found.valid_at else "all",
        "truncated": found.truncated,
        "aliases": [e.name for e in found.entities if found.distance[e.id] == 0 and e.id != found.focus.id],
        "nodes": [{**e.model_dump(mode="json"), "distance": found.distance[e.id]}
                  | ({"group": found.groups[e.id].id} if e.id in found.groups else {}) for e in found.entities],
        "groups": {lead.id: _shown_name(lead, found) for lead in found.groups.values()},
        "names": {lead.id: found.names[lead.id] for lead in found.groups.values() if lead.id in found.names},
        "edges": [output.version_record(v, ("subject_id", "object_id")) for v in found.versions],
        "kinds": {kind: kind_colour(kind) for kind in sorted({e.kind for e in found.entities})},
        "statuses": {name: colour for name, (colour, _) in STATUS_COLOURS.items()},
        "dashed": sorted(CLOSED_STATUSES),
    }


def _shown_name(lead: Entity, found: Neighbourhood) -> str:
    """The name a group is drawn by: its lead's (the name seen first), unless that is an unnamed relative's stand-in
    and another name of the group is shown ("Tom (also Sam's brother, tommy)", not "Sam's brother (also Tom, …)")."""
    return shown_name(found.names.get(lead.id) or [lead.name, *(
        e.name for e in found.entities if e.id in found.groups and found.groups[e.id].id == lead.id)])


def timeline(store: ReadStore, params: Params) -> list[dict[str, Any]]:
    """``/api/timeline``: as `graphmem timeline ENTITY --as-of T --json`."""
    _only(params, ("entity", "as_of"))
    found = store.timeline(_one(params, "entity", required=True), as_of=_one(params, "as_of"))
    return [output.version_record(v) for v in found]


def changes(store: ReadStore, params: Params) -> list[dict[str, Any]]:
    """``/api/changes``: as `graphmem diff T1 T2 --json`, optionally only about ``focus``."""
    _only(params, ("since", "until", "focus"))
    since, until = _one(params, "since", required=True), _one(params, "until", required=True)
    focus = _one(params, "focus")
    found = store.diff(since, until)
    if focus is not None:
        entity = store.entity(focus).id
        found = [c for c in found if c.version is not None
                 and entity in (c.version.subject_id, c.version.object_id)]
    return [output.change_record(c) for c in found]


def episode(store: ReadStore, params: Params) -> list[dict[str, Any]]:
    """``/api/episode``: as `graphmem episode ID --json`."""
    _only(params, ("id",))
    episode_id = _one(params, "id", required=True)
    return [output.episode_record(store.episode(episode_id), store.versions_of(episode_id))]


def version(store: ReadStore, params: Params) -> list[dict[str, Any]]:
    """``/api/version``: as `graphmem show ID --json`."""
    _only(params, ("id",))
    version_id = _one(params, "id", required=True)
    return [output.shown_record(store.version(version_id), store.episodes_of(version_id))]


def search(store: ReadStore, params: Params) -> list[dict[str, Any]]:
    """``/api/search``: as `graphmem search TEXT --as-of T --limit N [--speaker NAME] --json`, best first."""
    _only(params, ("q", "as_of", "limit", "speaker"))
    hits = store.search(_one(params, "q", required=True), as_of=_one(params, "as_of"),  # an unknown speaker refused
                        limit=_number(params, "limit", SEARCH_LIMIT, 1, MAX_SEARCH_LIMIT),
                        speaker=_one(params, "speaker"))
    ids = output.cited_ids(h.version for h in hits if h.kind == "fact")
    episodes = {e.id: e for e in store.episodes(ids)} if ids else {}
    return [output.answer_record(h, episodes) for h in hits]


def entities(store: ReadStore, params: Params) -> list[dict[str, str]]:
    """``/api/entities``: entities whose name contains ``q``, for the search box."""
    _only(params, ("q", "limit"))
    found = store.find_entities(_one(params, "q", required=True), _number(params, "limit", 12, 1, 100))
    return [{"id": e.id, "name": e.name} for e in found]


class Writes:
    """``/api/writes``: the store's write times for the as-of slider, remade only after a write."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: object = object()
        self._body: dict[str, Any] = {}

    def __call__(self, store: ReadStore, params: Params) -> dict[str, Any]:
        _only(params, ())
        latest = store.latest_write()
        with self._lock:
            if latest != self._key:
                times = store.write_times()
                count, sampled = len(times), len(times) > MAX_TIMES
                if sampled:
                    step = (len(times) - 1) / (MAX_TIMES - 1)
                    times = [times[round(i * step)] for i in range(MAX_TIMES)]
                self._body = {"count": count, "sampled": sampled, "times": [iso(t) for t in times],
                              "start": _start(store)}
                self._key = latest
            return {**self._body, "now": iso(store.now()), "zone": store.tz_name}


def _start(store: ReadStore) -> dict[str, Any] | None:
    """Where a page given no focus opens: the entity the most facts believed now are about (its name and how many)."""
    busiest = store.most_believed(1)
    return {"name": busiest[0][0].name, "facts": busiest[0][1]} if busiest else None


def handlers() -> dict[str, Handler]:
    """Every endpoint by path (a fresh write-time cache per explorer)."""
    return {"/api/graph": graph, "/api/timeline": timeline, "/api/changes": changes,
            "/api/episode": episode, "/api/version": version, "/api/search": search,
            "/api/entities": entities, "/api/writes": Writes()}


def answer(handler: Handler, store: ReadStore, params: Params) -> tuple[int, object]:
    """Run one handler: 200 and its body, 404 for what does not exist, 400 for bad parameters, and 500 with
    the engine's first line when the engine fails (it ran out of memory on a huge walk: the page says so, where a
    bare "Internal Server Error" was no JSON for it to read)."""
    try:
        return 200, handler(store, params)
    except NotFound as exc:
        return 404, {"error": str(exc)}
    except GraphmemError as exc:
        return 400, {"error": str(exc)}
    except RuntimeError as exc:  # the engine's own errors (kuzu and ladybug raise RuntimeError)
        said = (str(exc).strip().splitlines() or ["no message"])[0][:300]
        return 500, {"error": f"the engine could not answer this request ({said}); ask for less (a smaller depth "
                              "or limit, a shorter time span)"}
