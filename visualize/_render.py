"""Write pages for a store: each wrapper reads from the store, builds a page, saves it.

Everything is read through public :class:`graphmem.Store` methods; nothing here writes.

Internal: import the ``render_*`` functions from :mod:`visualize`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Concatenate, ParamSpec

from graphmem.core.entity_kinds import effective_kinds
from graphmem.core.json_lines import private_beside
from graphmem.core.times import TimeLike
from graphmem.models import Entity, Episode, Version
from graphmem.pages.palette import shown_in, when

from ._evolution import evolution_html
from ._focus import ever_neighbourhood
from ._snapshot import snapshot_html
from ._timeline import timeline_html

if TYPE_CHECKING:
    from graphmem import Store

__all__ = ["render_evolution", "render_snapshot", "render_timeline"]

_P = ParamSpec("_P")


def _in_its_zone(draw: Callable[Concatenate[Store, _P], Path]) -> Callable[Concatenate[Store, _P], Path]:
    """Draw a store's page with its times in the store's zone, as its command line and explorer show them."""
    @wraps(draw)
    def drawn(store: Store, *args: _P.args, **kwargs: _P.kwargs) -> Path:
        with shown_in(store.tz, store.tz_name):
            return draw(store, *args, **kwargs)
    return drawn


def _save(path: str | os.PathLike[str], html: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        tmp, out = private_beside(path)  # a page is whole or absent: written aside, then renamed; its user's
        with out:  # alone (0600), as an export is: it shows the store's facts
            out.write(html)
        tmp.replace(path)
    except OSError as exc:  # named by the path asked for, not the one written aside
        with contextlib.suppress(OSError):
            if tmp is not None:
                tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    return path


def _episodes(store: Store, cited: Iterable[str | None]) -> dict[str, Episode]:
    ids = sorted({i for i in cited if i})
    return {e.id: e for e in store.episodes(ids)} if ids else {}


def _time(store: Store, value: TimeLike | None) -> datetime:
    """A user's time as the store reads it (its zone for naive times), or the store's now."""
    return store.now() if value is None else store.time(value)


def _is_all(value: object) -> bool:
    return isinstance(value, str) and value.strip().lower() == "all"


def _with_kinds(versions: list[Version], entities: list[Entity],
                same: dict[str, str] | None = None) -> dict[str, Entity]:
    """Entities keyed by id, each with the kind every view shows (set, else inferred; ``same``: the names of one entity,
    which share its kind)."""
    kinds = effective_kinds(versions, {e.id: e.kind for e in entities}, same)
    return {e.id: e.model_copy(update={"kind": kinds[e.id]}) for e in entities}


@_in_its_zone
def render_snapshot(store: Store, path: str | os.PathLike[str], *, as_of: TimeLike | None = None,
                    valid_at: TimeLike | None = None, focus: str | None = None,
                    depth: int = 1, predicates: list[str] | None = None,
                    limit: int | None = None) -> Path:
    """Write the graph as believed at ``as_of`` and valid at ``valid_at`` (both default now), the names of one
    entity (its aliases believed then) drawn as one node.

    With ``focus``, only the neighbourhood of that entity within ``depth`` hops
    (:meth:`graphmem.Store.neighbourhood`); ``predicates`` keeps only facts of those predicates.
    """
    as_of_time = _time(store, as_of)
    valid_time = "at any time" if _is_all(valid_at) else (
        as_of_time if valid_at is None else _time(store, valid_at))
    groups = store.aliases(as_of=as_of, valid_at=valid_at)
    same = {e.id: group.id for group in groups for e in group.entities}
    focus_entity, note = None, ""
    if focus is not None:
        found = store.neighbourhood(focus, depth=depth, as_of=as_of, valid_at=valid_at,
                                    predicates=predicates, limit=limit)
        versions, entities, focus_entity = found.versions, {e.id: e for e in found.entities}, found.focus
        if found.truncated:
            note = f"the {len(found.entities)} nearest entities shown"
        for group in groups:  # a node is labelled with every name of its group, those out of view too
            if any(e.id in entities for e in group.entities):
                kind = next(entities[e.id].kind for e in group.entities if e.id in entities)
                entities |= {e.id: e.model_copy(update={"kind": kind}) for e in group.entities if e.id not in entities}
    else:
        versions = store.beliefs(as_of=as_of, valid_at=valid_at)
        if predicates:
            versions = [v for v in versions if v.predicate in set(predicates)]
        entities = _with_kinds(versions, store.entities(), same)
    html = snapshot_html(
        versions, entities, _episodes(store, (i for v in versions for i in v.episodes)),
        title=f"Around {focus_entity.name}" if focus_entity else "Knowledge graph",
        as_of=as_of_time, valid_at=valid_time, focus=focus_entity, depth=depth, note=note, same=same,
    )
    return _save(path, html)


@_in_its_zone
def render_evolution(store: Store, path: str | os.PathLike[str], *, focus: str | None = None, depth: int = 1,
                     since: TimeLike | None = None, until: TimeLike | None = None,
                     predicates: list[str] | None = None) -> Path:
    """Write the belief-evolution page: a slider over the writes that changed belief.

    With ``focus``, only the versions of the entities within ``depth - 1`` hops of it over
    every version ever written (so every entity drawn is within ``depth`` hops); ``since`` and
    ``until`` keep the writes after ``since`` up to ``until`` (the page starts from what was
    believed at ``since``); ``predicates`` keeps only facts of those predicates.
    """
    low = None if since is None else _time(store, since)
    high = None if until is None else _time(store, until)
    if focus is not None:
        versions = ever_neighbourhood(store, focus, depth)
    else:
        versions = store.versions()
    if predicates:
        versions = [v for v in versions if v.predicate in set(predicates)]
    ids = {v.id for v in versions}
    decisions = [d for d in store.decisions()
                 if (low is None or d.at > low) and (high is None or d.at <= high)
                 and (ids & set(d.created + d.closed) or (d.op == "PURGE" and focus is None))]
    start = [] if low is None else [v.id for v in versions if v.recorded_at <= low
                                    and (v.superseded_at is None or low < v.superseded_at)]
    shown = set(start) | {i for d in decisions for i in d.created + d.closed}
    versions = [v for v in versions if v.id in shown]
    entity_ids = {e for v in versions for e in (v.subject_id, v.object_id)}
    entities = _with_kinds(versions, [e for e in store.entities() if e.id in entity_ids])
    cited = [i for v in versions for i in v.episodes] + [d.episode for d in decisions]
    parts = []
    if focus is not None:
        parts.append(f"around {store.entity(focus).name}, within {depth} hop{'s' if depth != 1 else ''}")
    if low or high:
        parts.append(f"writes {'after ' + when(low) if low else ''}"
                     f"{' and ' if low and high else ''}{'up to ' + when(high) if high else ''}")
    html = evolution_html(versions, decisions, entities, _episodes(store, cited), start=start,
                          subtitle=", ".join(parts))
    return _save(path, html)


@_in_its_zone
def render_timeline(store: Store, entity: str, path: str | os.PathLike[str], *, as_of: TimeLike | None = None) -> Path:
    """Write the timeline of one entity (by name or id), opened at ``as_of`` (default now), under every
    name it was believed at ``as_of`` to go by (its aliases)."""
    found = store.entity(entity)
    aliases = tuple(e for e in store.names_of(found.id, as_of=as_of) if e.id != found.id)
    versions = list({v.id: v for e in (found, *aliases) for v in store.versions(e.id)}.values())
    html = timeline_html(found, versions, _episodes(store, (i for v in versions for i in v.episodes)),
                         as_of=_time(store, as_of), now=store.now(), aliases=aliases)
    return _save(path, html)
