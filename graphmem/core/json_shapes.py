"""The JSON shapes every front end answers with: the CLI's ``--json``, the explorer's API, MCP.

Pure functions over models: a version's fields in one order, its sources, a diff's row, a search
hit; times as ISO 8601 in UTC with ``Z``, whatever the store's zone.

Internal: the front ends print and serve these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..models import Change, Episode, Model, Version

__all__ = ["CHANGE_FIELDS", "HISTORY_EXTRA", "VERSION_FIELDS", "answer_record", "change_record", "cited_ids",
           "episode_record", "hit_record", "jsonable", "shown_record", "source_records", "version_record"]

#: What JSON gives for the floats it has no number for.
NOT_A_NUMBER = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
#: The fields of a version, in the order every JSON answer gives them.
VERSION_FIELDS = ("id", "subject", "predicate", "object", "valid_from", "valid_to",
                  "recorded_at", "superseded_at", "status", "episodes")
#: The fields of a diff's row before the version's.
CHANGE_FIELDS = ("change", "believed", "at", "decision", "reason")
#: The fields a history adds: what a version replaced, what replaced it, and why it ended.
HISTORY_EXTRA = ("supersedes", "superseded_by", "reason")


class Hit(Protocol):
    """What a search answer holds (:class:`graphmem.recall.Hit`): the version, its score, what matched."""

    @property
    def version(self) -> Version: ...
    @property
    def score(self) -> float: ...
    @property
    def matched(self) -> Model: ...


def cited_ids(versions: Iterable[Version]) -> list[str]:
    """The ids of the episodes some versions cite, each once, sorted (what to fetch for their sources)."""
    return sorted({e for v in versions for e in v.episodes})


# -- records: what --json prints ---------------------------------------------------------------


def version_record(version: Version, extra: Sequence[str] = ()) -> dict:
    """A version as the JSON object every query command prints."""
    data = version.model_dump(mode="json")
    return {field: data[field] for field in (*VERSION_FIELDS, *extra)}


def change_record(change: Change) -> dict:
    """One row of a diff as `graphmem diff --json` prints it."""
    row = dict(zip(CHANGE_FIELDS, (change.change, change.believed, jsonable(change.at), change.decision,
                                   change.reason)))
    return {**row, **(version_record(change.version) if change.version else {})}


def source_records(version: Version, episodes: dict[str, Episode]) -> list[dict]:
    """The id, kind and exact text of each episode a version cites."""
    return [{"id": e, "kind": episodes[e].kind, "text": episodes[e].text}
            for e in version.episodes if e in episodes]


def hit_record(hit: Hit, episodes: dict[str, Episode]) -> dict:
    """A search hit as `graphmem search --json` prints it: the version's fields, its sources, its
    score and what matched."""
    return {"kind": "fact", **version_record(hit.version), "sources": source_records(hit.version, episodes),
            "score": hit.score, "matched": hit.matched.model_dump(mode="json")}


#: The fields of a message answer, in the order `graphmem search --json` gives them.
MESSAGE_FIELDS = ("kind", "episode", "episode_kind", "speaker", "role", "said_at", "received_at", "text",
                  "times", "before", "after", "score", "words", "time")


def answer_record(answer: Any, episodes: dict[str, Episode]) -> dict:
    """A search answer as `graphmem search --json` prints it: a fact (:func:`hit_record`, with
    ``kind: "fact"``) or a message (``kind: "message"``: its episode, speaker, role, chat time,
    text, the times its phrases name, the turns before and after, score and matched words);
    both carry an ``id`` (a version's, an episode's) and name the episodes they cite in ``episodes``."""
    if answer.kind == "fact":
        return hit_record(answer, episodes)
    data = answer.model_dump(mode="json")
    return {"kind": "message", "id": answer.episode,
            **{field: data[field] for field in MESSAGE_FIELDS if field != "kind"}, "episodes": [answer.episode]}


def shown_record(version: Version, provenance: list[Episode]) -> dict:
    """One version with its episodes, as `graphmem show --json` prints it."""
    return {**version_record(version, HISTORY_EXTRA),
            "provenance": [e.model_dump(mode="json") for e in provenance]}


def episode_record(episode: Episode, versions: list[Version]) -> dict:
    """One episode with the versions it supports, as `graphmem episode --json` prints it."""
    return {**episode.model_dump(mode="json"), "versions": [version_record(v) for v in versions]}


def jsonable(value: Any) -> Any:
    """A normalised value as JSON-ready data (times ISO 8601 with Z, dates ISO, others str; NaN
    and infinities as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return NOT_A_NUMBER[repr(value)]
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
