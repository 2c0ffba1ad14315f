"""Write pages for a store: each wrapper reads from the store, builds a page, saves it."""

from __future__ import annotations

from pathlib import Path

from .evolution import evolution_html
from .snapshot import snapshot_html
from .timeline import timeline_html


def _save(path, html: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
    return path


def _episodes(store, ids) -> dict:
    ids = sorted({i for i in ids if i})
    return {e.id: e for e in store.episodes(ids)} if ids else {}


def _time(store, value):
    """A user's time as the store reads it (its zone for naive times), or the store's now."""
    return store.now() if value is None else store.time(value)


def render_snapshot(store, path, *, as_of=None, valid_at=None) -> Path:
    """Write the graph as believed at ``as_of`` and valid at ``valid_at`` (both default now)."""
    versions = store.beliefs(as_of=as_of, valid_at=valid_at)
    as_of_time = _time(store, as_of)
    if isinstance(valid_at, str) and valid_at.strip().lower() == "all":
        valid_time = "at any time"
    else:
        valid_time = as_of_time if valid_at is None else _time(store, valid_at)
    html = snapshot_html(
        versions,
        {e.id: e for e in store.entities()},
        _episodes(store, (i for v in versions for i in v.episodes)),
        title="Knowledge graph",
        as_of=as_of_time,
        valid_at=valid_time,
    )
    return _save(path, html)


def render_evolution(store, path) -> Path:
    """Write the belief-evolution page: a slider over every write that changed belief."""
    versions = store.versions()
    decisions = store.decisions()
    ids = [i for v in versions for i in v.episodes] + [d.episode for d in decisions]
    html = evolution_html(versions, decisions, {e.id: e for e in store.entities()},
                          _episodes(store, ids))
    return _save(path, html)


def render_timeline(store, entity: str, path, *, as_of=None) -> Path:
    """Write the timeline of one entity (by name or id) as believed at ``as_of``."""
    found = store.entity(entity)
    versions = store.versions(found.id)
    html = timeline_html(found, versions, _episodes(store, (i for v in versions for i in v.episodes)),
                         as_of=_time(store, as_of))
    return _save(path, html)
