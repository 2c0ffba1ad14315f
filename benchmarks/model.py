"""The pure-Python model: every workload query answered from the log's records alone.

It reads the same JSON Lines log every system loads and answers with plain loops
over plain tuples, so it shares no code path with graphmem's reads or any peer's
query. Answers of every system are turned into the canonical forms defined here
and compared to the model's before anything is timed.

A version is canonically ``(id, subject_id, predicate, object_id, valid_from,
valid_to, recorded_at, superseded_at)`` with times as integer microseconds since
1970 UTC and open ends as None.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EPOCH_NAIVE = datetime(1970, 1, 1)
MICRO = timedelta(microseconds=1)
OPEN_YEAR = 9999
CHANGE_OF_OP = {"ADD": "added", "UPDATE": "updated", "END": "ended", "RETRACT": "retracted",
                "CORRECT": "corrected", "SEGMENT": "segmented"}


def micros(value) -> int | None:
    """A time (aware or naive-UTC datetime, ISO text, or µs) as integer µs; open ends as None."""
    if value is None:
        return None
    if isinstance(value, int):
        return None if value >= OPEN_MICROS else value
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.year == OPEN_YEAR:
        return None
    if value.tzinfo is None:
        return (value - EPOCH_NAIVE) // MICRO
    return (value - EPOCH) // MICRO


OPEN_MICROS = (datetime(OPEN_YEAR, 1, 1) - EPOCH_NAIVE) // MICRO


def from_micros(value: int | None) -> datetime | None:
    """Integer µs as aware UTC (None stays None)."""
    return None if value is None else EPOCH + value * MICRO


def read_log(path: Path) -> dict[str, list[dict]]:
    """The log's records grouped by type, as plain dicts (no validation: the peers' reader)."""
    found: dict[str, list[dict]] = {}
    with Path(path).open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            found.setdefault(record.pop("type"), []).append(record)
    return found


def version_tuple(v: dict) -> tuple:
    """A version record of the log as the canonical tuple."""
    return (v["id"], v["subject_id"], v["predicate"], v["object_id"], micros(v["valid_from"]),
            micros(v["valid_to"]), micros(v["recorded_at"]), micros(v["superseded_at"]))


def digest(answer) -> str:
    """A short fingerprint of a canonical answer."""
    return hashlib.sha256(repr(answer).encode()).hexdigest()[:16]


def _inf(value):
    return float("inf") if value is None else value


class Model:
    """Answers every workload query from the log's versions and decisions."""

    def __init__(self, records: dict[str, list[dict]]):
        self.versions = [version_tuple(v) for v in records.get("version", [])]
        self.supersedes = {v["id"]: list(v["supersedes"]) for v in records.get("version", [])}
        self.decisions = [
            (d["id"], d["op"], micros(d["at"]), list(d["created"]), list(d["closed"]))
            for d in records.get("decision", [])
        ]
        self.names = {e["id"]: (e["name"], e["kind"]) for e in records.get("entity", [])}
        self.by_id = {v[0]: v for v in self.versions}

    def beliefs(self, as_of: int, valid_at: int | None) -> list[tuple]:
        return canon_versions(
            believed(v) for v in self.versions
            if v[6] <= as_of < _inf(v[7])
            and (valid_at is None or v[4] <= valid_at < _inf(v[5]))
        )

    def snapshot(self, as_of: int, valid_at: int) -> tuple:
        versions = self.beliefs(as_of, valid_at)
        nodes = {n for v in versions for n in (v[1], v[3])}
        return canon_graph(nodes, versions)

    def history(self, subject: str, predicate: str) -> list[tuple]:
        found = [v for v in self.versions if v[1] == subject and v[2] == predicate]
        return newest_first(found)

    def preceding(self, version_id: str) -> list[tuple]:
        return canon_versions(self.by_id[i] for i in self.supersedes[version_id] if i in self.by_id)

    def most_changed(self, limit: int) -> list[tuple]:
        counts = Counter((v[1], v[2]) for v in self.versions)
        return canon_ranking(counts.items(), limit)

    def diff(self, after: int, until: int) -> list[tuple]:
        rows = []
        for decision_id, op, at, created, closed in self.decisions:
            if not after < at <= until or op not in CHANGE_OF_OP:
                continue
            rows += [(decision_id, CHANGE_OF_OP[op], "stopped", vid) for vid in closed if vid in self.by_id]
            rows += [(decision_id, CHANGE_OF_OP[op], "started", vid) for vid in created if vid in self.by_id]
        return canon_diff(rows)

    def per_month(self, months: list[int]) -> list[tuple]:
        return [
            (m, sum(1 for v in self.versions if v[6] <= m < _inf(v[7]) and v[4] <= m < _inf(v[5])))
            for m in months
        ]


# -- canonical forms: every system's answer is put through these ---------------------------------


def believed(version: tuple) -> tuple:
    """A version as an as-of answer shows it: without its closing (not yet known then)."""
    return version[:7]


def canon_versions(versions) -> list[tuple]:
    """Versions as a sorted list of canonical tuples (order-free answers)."""
    return sorted(versions)


def newest_first(versions) -> list[tuple]:
    """Versions in history order: newest write first, then latest valid start, then id."""
    return sorted(versions, key=lambda v: (v[6], v[4], v[0]), reverse=True)


def canon_graph(nodes, edges) -> tuple:
    """A snapshot graph as (sorted node ids, sorted edge tuples)."""
    return (sorted(nodes), sorted(edges))


def canon_ranking(counts, limit: int) -> list[tuple]:
    """The top ``limit`` (subject, predicate, count), most first, ties by key."""
    ranked = sorted(((s, p, int(n)) for (s, p), n in counts), key=lambda r: (-r[2], r[0], r[1]))
    return ranked[:limit]


def canon_diff(rows) -> list[tuple]:
    """Diff rows (decision, change, believed, version) in a fixed order."""
    return sorted(rows, key=lambda r: (int(r[0][1:]), r[2] != "stopped", r[3]))
