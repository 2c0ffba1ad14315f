"""An entity's facts on a valid-time axis: one bar per version, believed ones above the rest.

The page draws the axis itself (inline SVG, no timeline library) from the versions sent once:
zoom and pan on valid time (wheel, drag, reset), a minimum bar width so every version shows,
labels packed in lanes so they never overlap (cut short with a tooltip when very long), and
an as-of control that steps through the writes about the entity. At each as-of time the
believed versions sit on top of each predicate's group and the versions no longer believed
beneath them, newest first, so reading down a group walks back through transaction time.

Internal: import :func:`timeline_html` from :mod:`visualize`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.core.aliases import ALIAS
from graphmem.models import Entity, Episode, Version
from graphmem.pages.palette import STATUS_COLOURS, epoch_ms, palette_css, status_legend, when

from ._details import compact_details, episode_card
from ._page import render

__all__ = ["timeline_html"]


def _outgoing(names: tuple[Entity, ...], version: Version) -> bool:
    return any(version.subject_id == entity.id or (not version.subject_id and version.subject == entity.name)
               for entity in names)


def bar_record(names: tuple[Entity, ...], version: Version) -> dict[str, Any]:
    """What the page needs to draw one version on the timeline of an entity (its ``names``: it and its aliases)."""
    outgoing = _outgoing(names, version)
    other = version.object if outgoing else version.subject
    if version.predicate == ALIAS and names:  # the name an alias gives, not the entity's own (a new user's: two rows of
        other = version.object if version.subject == names[0].name else version.subject  # "Tomás Ferreira")
    return {
        "id": version.id, "predicate": version.predicate, "incoming": not outgoing,
        "other": other,
        "subject": version.subject, "object": version.object,
        "valid_from": epoch_ms(version.valid_from), "valid_to": epoch_ms(version.valid_to),
        "recorded_at": epoch_ms(version.recorded_at), "superseded_at": epoch_ms(version.superseded_at),
        "retracted": bool(version.reason),
    }


def write_times(versions: list[Version], now: datetime) -> list[int]:
    """The transaction times at which what was believed about the entity changed."""
    moments = {v.recorded_at for v in versions} | {v.superseded_at for v in versions
                                                   if v.superseded_at is not None}
    return sorted(epoch_ms(m) for m in moments if m <= now)


def timeline_data(entity: Entity, versions: list[Version], episodes: dict[str, Episode], *,
                  as_of: datetime, now: datetime | None = None, aliases: tuple[Entity, ...] = ()) -> dict[str, Any]:
    """The page's data: every version of the entity (and of its ``aliases``) once, its writes, the opening
    as-of time."""
    now = max(now or as_of, as_of)
    cited = sorted({e for v in versions for e in v.episodes})
    names = (entity, *aliases)
    return {
        "entity": {"id": entity.id, "name": entity.name},
        "as_of": epoch_ms(as_of), "now": epoch_ms(now),
        "versions": [bar_record(names, v) for v in sorted(versions, key=lambda v: (v.valid_from, v.id))],
        "facts": {v.id: compact_details(v) for v in versions},
        "episodes": {e: episode_card(episodes[e]) for e in cited if e in episodes},
        "writes": write_times(versions, now),
    }


def timeline_html(
    entity: Entity,
    versions: list[Version],
    episodes: dict[str, Episode],
    *,
    as_of: datetime,
    now: datetime | None = None,
    title: str | None = None,
    aliases: tuple[Entity, ...] = (),
) -> str:
    """A page laying out an entity's fact versions on valid time, opened as believed at as_of.

    ``versions`` is every version that ever touched the entity (or one of its ``aliases``, the other
    names it went by at as_of); the as-of control moves through the writes about it, up to ``now``
    (default ``as_of``). Versions recorded after the chosen as-of time are left out there (not yet
    known then).
    """
    data = timeline_data(entity, versions, episodes, as_of=as_of, now=now, aliases=aliases)
    if aliases and title is None:
        title = f"Timeline of {entity.name} (also {', '.join(a.name for a in aliases)})"
    known = sum(1 for v in versions if v.recorded_at <= as_of)
    subtitle = (f"opened as believed at {when(as_of)} · valid time runs left to right · {known} "
                f"version{'' if known == 1 else 's'}")
    if known < len(versions):
        subtitle += f" ({len(versions) - known} recorded later)"
    return render(
        "timeline.html",
        title=title or f"Timeline of {entity.name}",
        subtitle=subtitle,
        data=data,
        scripts=["timeline.js", "timeline_page.js"],
        css=palette_css([]),
        empty=not versions,
        writes=len(data["writes"]),
        statuses=status_legend(name for name in STATUS_COLOURS if name not in ("pending", "rejected")),
    )
