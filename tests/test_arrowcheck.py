"""The invariants checked over Arrow columns give the verdicts `check` gives over models.

A sound log (every record type; and a generated history) is damaged at random, one field of one
record at a time or a record dropped, and both checks run on the same records: they must find the
same broken rules on the same records (the overlap sweep may stop reporting pairs after the first
broken one, so for that rule only its presence is compared).
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.core import columnar_invariants as arrowcheck
from graphmem.core.columnar_invariants import PAIRWISE, violations
from graphmem.core.invariants import check
from graphmem.log.jsonl import MODELS
from graphmem.log.parquet import FILES, schema_of
from graphmem.models import DEFAULT_PREDICATES
from tests.conftest import Clock
from tests.test_parquetlog import full_store

pytestmark = pytest.mark.engine_free


def records_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[list[dict]]:
    """The JSON records of a store holding every record type, and of a generated history."""
    from benchmarks.generate import generate, write_log

    base = tmp_path_factory.mktemp("arrowcheck")
    with full_store(Clock()) as store:
        store.export(base / "full.jsonl")
    write_log(generate(300, seed=5), base / "gen.jsonl")
    return [records_of(base / "full.jsonl"), records_of(base / "gen.jsonl")]


def both(records: list[dict], limit: int = PAIRWISE) -> tuple[set, set]:
    """The (rule, record) found by `check` on models and by `violations` on Arrow tables (keys
    holding more than ``limit`` versions swept, the others checked pair by pair)."""
    models: dict[str, list] = {kind: [] for kind in MODELS}
    declared = {}
    for r in records:
        kind = r["type"]
        if kind == "predicate":
            declared[r["name"]] = r["kind"]
        elif kind in MODELS:
            models[kind].append(MODELS[kind].model_validate({k: v for k, v in r.items() if k != "type"}))
    predicates = {**DEFAULT_PREDICATES, **declared}
    decisions = sorted(models["decision"], key=lambda d: d.at)
    by_models = check(models["version"], decisions, models["episode"], models["tombstone"], predicates,
                      models["link"], models["proposal"], models["entity"])
    tables = {kind: pa.Table.from_pylist([{f: getattr(m, f) for f in schema_of(kind).names} for m in models[kind]],
                                         schema=schema_of(kind)) for kind in MODELS}
    tables["predicate"] = pa.Table.from_pylist([{"name": k, "kind": v} for k, v in declared.items()],
                                               schema=schema_of("predicate"))
    try:
        arrowcheck.PAIRWISE = limit
        by_columns = violations({kind: tables[kind] for kind in FILES}, predicates)
    finally:
        arrowcheck.PAIRWISE = PAIRWISE
    return ({(v.rule, v.record) for v in by_models}, {(v.rule, v.record) for v in by_columns})


def same_verdict(records: list[dict], limit: int) -> None:
    by_models, by_columns = both(records, limit)
    assert {r for r in by_models if r[0] != "one-value"} == {r for r in by_columns if r[0] != "one-value"}
    assert any(r[0] == "one-value" for r in by_models) == any(r[0] == "one-value" for r in by_columns)


def test_a_sound_log_is_sound_both_ways(logs):
    for sound in logs:
        assert both(sound) == (set(), set())


def test_keys_past_the_pairwise_limit_are_swept(logs):
    """A key holding more versions than PAIRWISE goes through the sweep: an overlap there is found."""
    sound = logs[1]
    counts: dict = {}
    for r in sound:
        if r["type"] == "version" and DEFAULT_PREDICATES.get(r["predicate"]) == "one":
            counts[(r["subject_id"], r["predicate"])] = counts.get((r["subject_id"], r["predicate"]), 0) + 1
    assert max(counts.values()) > 8 >= min(counts.values())
    busiest = max(counts, key=counts.get)
    believed = [r for r in sound if r["type"] == "version" and (r["subject_id"], r["predicate"]) == busiest
                and r["superseded_at"] is None]
    edited = [dict(r, valid_to=None) if r is believed[0] else r for r in sound]
    by_models, by_columns = both(edited, limit=8)  # the busiest key is swept, the others paired
    assert any(rule == "one-value" for rule, _ in by_models) and any(rule == "one-value" for rule, _ in by_columns)


@pytest.mark.parametrize("limit", [2, PAIRWISE])
@pytest.mark.parametrize("shift", [0, 1])
def test_a_version_never_believed_overlaps_nothing(logs, limit, shift):
    """Closed when (or before) it was recorded, a version was never believed: its transaction
    period is broken, but it clashes with no other version, whether the key is paired or swept.
    (The sweep once kept such a version believed for ever: its closing came before its start.)"""
    records = [dict(r) for r in logs[0]]
    first = next(r for r in records if r["type"] == "version" and r["superseded_by"] and r["predicate"] == "lives_in")
    first["recorded_at"] = (json_time(first["superseded_at"]) + timedelta(seconds=shift)).isoformat().replace(
        "+00:00", "Z")
    by_models, by_columns = both(records, limit)
    assert by_models == by_columns
    assert ("transaction-period", f"version {first['id']}") in by_models
    assert not any(rule == "one-value" for rule, _ in by_models)


FIELDS = st.sampled_from(["id", "created_by", "closed_by", "recorded_at", "superseded_at", "valid_from", "valid_to",
                          "supersedes", "superseded_by", "episodes", "episode", "at", "created", "closed", "version",
                          "subject_id", "predicate", "reason", "op", "name", "kind"])


def damaged(sound: list[dict], index: int, field: str, pick: int, shift: int, drop: bool) -> list[dict]:
    records = [dict(r) for r in sound]
    target = records[index % len(records)]
    if drop:
        del records[index % len(records)]
        return records
    if field not in target or target["type"] in ("meta", "predicate"):
        return records
    donors = [r[field] for r in sound if field in r and r.get("type") == target["type"]]
    value = donors[pick % len(donors)]
    if field == "id":  # a new id: a duplicate is refused before the invariants are checked
        value = target["id"].rstrip("0123456789") + str(900_000 + pick)
    if field in ("recorded_at", "superseded_at", "valid_from", "valid_to", "at") and value is not None:
        value = (json_time(value) + timedelta(seconds=shift)).isoformat().replace("+00:00", "Z")
    if field == "predicate":
        value = ["likes", "lives_in", "status", "mood"][pick % 4]
    if field == "name":  # an entity's: another's name, another case, NUL, an invisible one
        value = [value, str(value).upper(), f"{value}\x00", "\u200b", "x" * 1001][pick % 5]
    if field == "kind":  # an entity's or an episode's: a valid one, markup, an ESC sequence, auto
        value = [value, "<script>", "chat\x1b[2J", "auto"][pick % 4]
    if field == "op" and target["type"] == "decision":
        value = ["ADD", "MERGE", "NOOP", "UPDATE"][pick % 4]
    target[field] = value
    return records


def json_time(text: str):
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.sampled_from([2, PAIRWISE]), which=st.integers(0, 1), index=st.integers(0, 10_000), field=FIELDS,
       pick=st.integers(0, 10_000),
       shift=st.sampled_from([-86400, -1, 0, 1, 86400 * 400]), drop=st.booleans())
def test_damaged_logs_get_the_same_verdict_both_ways(logs, limit, which, index, field, pick, shift, drop):
    same_verdict(damaged(logs[which], index, field, pick, shift, drop), limit)
