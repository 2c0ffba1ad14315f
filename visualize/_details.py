"""What a reader sees about a fact or an entity: plain text rows, rendered by the page as text.

Internal: draw pages with the functions :mod:`visualize` exports.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.models import Entity, Episode, Version
from graphmem.pages.palette import period, when

__all__ = ["as_of_text", "believed_text", "compact_details", "entity_details", "episode_card", "fact_text",
           "source_rows", "version_details"]


def fact_text(version: Version) -> str:
    """The statement itself, e.g. 'Ivan lives_in Prague'."""
    return f"{version.subject} {version.predicate} {version.object}"


def believed_text(version: Version) -> str:
    """The transaction period as text."""
    return f"{when(version.recorded_at)} → {when(version.superseded_at, 'still believed')}"


def source_rows(version: Version, episodes: dict[str, Episode]) -> list[dict[str, Any]]:
    """The supporting episodes of a version (exact text, kind, actor, reference time)."""
    rows = []
    for episode_id in version.episodes:
        episode = episodes.get(episode_id)
        if episode is None:
            rows.append({"text": "", "cite": f"episode {episode_id} (not available)"})
            continue
        cite = f"{episode.kind}, {when(episode.reference_time)}"
        if episode.actor:
            cite = f"{episode.actor} · {cite}"
        rows.append({"text": episode.text, "cite": cite})
    return rows


def version_details(
    version: Version, episodes: dict[str, Episode], status: str | None = None
) -> dict[str, Any]:
    """Heading, label/value rows and sources for one version."""
    status = status or version.status or "unknown"
    rows = [
        ["status", status],
        ["valid", period(version.valid_from, version.valid_to)],
        ["believed", believed_text(version)],
    ]
    if version.reason:
        rows.append(["reason", version.reason])
    rows.append(["version", version.id])
    return {
        "heading": fact_text(version),
        "status": status,
        "rows": rows,
        "sources": source_rows(version, episodes),
    }


def entity_details(entity: Entity, degree: int) -> dict[str, Any]:
    """Heading and rows for one entity node."""
    return {
        "heading": entity.name,
        "status": None,
        "rows": [["kind", entity.kind], ["facts on this page", str(degree)], ["id", entity.id]],
        "sources": [],
    }


def episode_card(episode: Episode) -> dict[str, Any]:
    """One episode as a quoted source: its exact text and who said it when."""
    cite = f"{episode.kind}, {when(episode.reference_time)}"
    if episode.actor:
        cite = f"{episode.actor} · {cite}"
    return {"text": episode.text, "cite": cite}


def compact_details(version: Version) -> dict[str, Any]:
    """Heading, rows (status left for the page to fill in) and episode ids of one version:
    what a page with many steps keeps per version, citing each episode once."""
    rows = [["valid", period(version.valid_from, version.valid_to)],
            ["believed", believed_text(version)]]
    if version.reason:
        rows.append(["reason", version.reason])
    rows.append(["version", version.id])
    return {"heading": fact_text(version), "rows": rows, "episodes": list(version.episodes)}


def as_of_text(as_of: datetime | None, valid_at: datetime | str | None) -> str:
    """The header line naming both times of a snapshot."""
    parts = []
    if as_of is not None:
        parts.append(f"as believed at {when(as_of)}")
    if isinstance(valid_at, str):
        parts.append(f"valid {valid_at}")
    elif valid_at is not None:
        parts.append(f"valid at {when(valid_at)}")
    return ", ".join(parts)
