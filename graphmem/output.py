"""Printing results: JSON for machines, rich tables for people."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time
from typing import Any

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from .models import Change, Episode, Version
from .timeutil import UTC, iso

VERSION_FIELDS = ("id", "subject", "predicate", "object", "valid_from", "valid_to",
                  "recorded_at", "superseded_at", "status", "episodes")

console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)


def version_record(version: Version, extra: Sequence[str] = ()) -> dict:
    """A version as the JSON object every query command prints."""
    data = version.model_dump(mode="json")
    return {field: data[field] for field in (*VERSION_FIELDS, *extra)}


HISTORY_EXTRA = ("supersedes", "superseded_by", "reason")


def change_record(change: Change) -> dict:
    """One row of a diff as `graphmem diff --json` prints it."""
    return {"change": change.change, "believed": change.believed, "at": iso(change.at),
            "decision": change.decision, "reason": change.reason,
            **(version_record(change.version) if change.version else {})}


def source_records(version: Version, episodes: dict[str, Episode]) -> list[dict]:
    """The id, kind and exact text of each episode a version cites."""
    return [{"id": e, "kind": episodes[e].kind, "text": episodes[e].text}
            for e in version.episodes if e in episodes]


def hit_record(hit, episodes: dict[str, Episode]) -> dict:
    """A search hit as `graphmem search --json` prints it: the version's fields, its sources, its
    score and what matched."""
    return {**version_record(hit.version), "sources": source_records(hit.version, episodes),
            "score": hit.score, "matched": hit.matched.model_dump(mode="json")}


def shown_record(version: Version, provenance: list[Episode]) -> dict:
    """One version with its episodes, as `graphmem show --json` prints it."""
    return {**version_record(version, HISTORY_EXTRA),
            "provenance": [e.model_dump(mode="json") for e in provenance]}


def episode_record(episode: Episode, versions: list[Version]) -> dict:
    """One episode with the versions it supports, as `graphmem episode --json` prints it."""
    return {**episode.model_dump(mode="json"), "versions": [version_record(v) for v in versions]}


def dump_json(items: Iterable) -> None:
    """Print a JSON array (models are dumped with ISO 8601 UTC times)."""
    rows = [item.model_dump(mode="json") if isinstance(item, BaseModel) else item for item in items]
    sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")


def _when(value) -> str:
    text = iso(value.replace(microsecond=0)) if value else None
    if text is None:
        return "…"
    return text[:10] if text.endswith("T00:00:00Z") else text[:16].replace("T", " ")


def period(start, end) -> str:
    """A half-open period as readable text."""
    return f"{_when(start)} → {_when(end) if end else 'open'}"


def versions_table(versions: list[Version], title: str,
                   episodes: dict[str, Episode] | None = None) -> None:
    """Print versions as a table; with ``episodes``, add each one's source text."""
    table = Table(title=title, title_justify="left", show_lines=bool(episodes))
    for column in ("id", "subject", "predicate", "object", "valid", "believed", "status"):
        table.add_column(column, overflow="fold", no_wrap=column in ("valid", "believed"))
    if episodes is not None:
        table.add_column("source", overflow="fold")
    for v in versions:
        row = [v.id, v.subject, v.predicate, v.object, period(v.valid_from, v.valid_to),
               period(v.recorded_at, v.superseded_at), _status(v)]
        if episodes is not None:
            row.append(_source(v, episodes))
        table.add_row(*row, style="dim" if v.status in ("superseded", "retracted") else None)
    if not versions:
        console.print(f"{title}: nothing")
        return
    console.print(table)


def _status(v: Version) -> str:
    status = v.status or ""
    if v.status == "retracted" and v.reason:
        status += f" ({v.reason})"
    elif v.status == "superseded" and v.superseded_by:
        status += f" → {', '.join(v.superseded_by)}"
    return status


def _source(v: Version, episodes: dict[str, Episode]) -> str:
    lines = []
    for eid in v.episodes:
        episode = episodes.get(eid)
        if episode:
            lines.append(f"{eid} {episode.kind}: “{episode.text}”")
    return "\n".join(lines)


def plain(text: str) -> None:
    """Print text without markup interpretation."""
    console.print(text, markup=False)


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
