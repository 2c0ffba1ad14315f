"""The invariants checked over Arrow columns give the verdicts `check` gives over models.

A sound log (every record type; and a generated history) is damaged at random, one field of one
record at a time or a record dropped, and both checks run on the same records: they must find the
same broken rules on the same records (the overlap sweep may stop reporting pairs after the first
broken one, so for that rule only its presence is compared).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem.core import columnar_invariants as arrowcheck
from graphmem.core.columnar_invariants import PAIRWISE, violations
from graphmem.core.invariants import check
from graphmem.core.invariants import overlaps as check_overlaps
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
        made = {kind: arrowcheck.IdIndex(tables[kind].column("id")) for kind in ("version", "decision", "episode")}
        assert violations({kind: tables[kind] for kind in FILES}, predicates, made) == by_columns  # the import's
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


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.sampled_from([2, PAIRWISE]), which=st.integers(0, 1), index=st.integers(0, 10_000), field=FIELDS,
       pick=st.integers(0, 10_000),
       shift=st.sampled_from([-86400, -1, 0, 1, 86400 * 400]), drop=st.booleans())
@example(limit=2, which=0, index=202, field="at", pick=294, shift=-86400, drop=False)  # two writes at one time,
def test_damaged_logs_get_the_same_verdict_both_ways(logs, limit, which, index, field, pick, shift, drop):  # a link
    same_verdict(damaged(logs[which], index, field, pick, shift, drop), limit)


# -- one value at a time, decided per key by arrays ------------------------------------------------

HOUR = timedelta(hours=1)
START = json_time("2026-01-01T00:00:00Z")


@st.composite
def histories(draw, proper: bool) -> list[dict]:
    """Versions of one ``one`` predicate over three keys, every time on an hourly grid (so
    periods meet exactly, end to start, often), open ends included, the keys' rows interleaved
    in any order. Unless ``proper``, a valid period may be empty or inverted."""
    rows = []
    for n in range(draw(st.integers(2, 40))):
        valid_from = draw(st.integers(0, 8))
        if proper:
            valid_to = draw(st.none() | st.integers(valid_from + 1, 10))
        else:
            valid_to = draw(st.none() | st.integers(0, 10))
        rows.append({"id": f"v{n + 1}", "subject_id": draw(st.sampled_from(["ann", "bob", "cy"])),
                     "predicate": "lives_in", "valid_from": START + valid_from * HOUR,
                     "valid_to": None if valid_to is None else START + valid_to * HOUR,
                     "recorded_at": START + draw(st.integers(0, 8)) * HOUR,
                     "superseded_at": draw(st.none() | st.integers(0, 10).map(lambda h: START + h * HOUR))})
    return draw(st.permutations(rows))


def clashing(rows: list[dict]) -> set[str]:
    """The subjects holding two versions believed at once with overlapping valid periods: every
    pair compared."""
    def believed(r):
        return r["superseded_at"] is None or r["recorded_at"] < r["superseded_at"]

    def before(start, end):  # start < end, an open end after everything
        return end is None or start < end

    found = set()
    for a in rows:
        for b in rows:
            if a["id"] < b["id"] and a["subject_id"] == b["subject_id"] and believed(a) and believed(b) \
                    and before(a["recorded_at"], b["superseded_at"]) and before(b["recorded_at"], a["superseded_at"]) \
                    and before(a["valid_from"], b["valid_to"]) and before(b["valid_from"], a["valid_to"]):
                found.add(a["subject_id"])
    return found


@contextmanager
def limits(**values: int) -> Iterator[None]:
    """The columnar check's limits set to ``values`` for a while."""
    saved = {name: getattr(arrowcheck, name) for name in values}
    for name, value in values.items():
        setattr(arrowcheck, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(arrowcheck, name, value)


def versions_table(rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema_of("version"))


@settings(max_examples=100, deadline=None)
@given(rows=histories(proper=False), busy=st.sampled_from([1, 4, 10**6]))
def test_the_keys_cleared_by_snapshots_hold_no_overlap(rows, busy):
    """Every key holding an overlap is left for the exact check; with no key too busy to
    snapshot, only those and keys with an empty or inverted valid period are."""
    table = versions_table(rows)
    keys = arrowcheck._key_numbers(table)
    with limits(SNAPSHOT_ROWS=busy):
        left = {table.column("subject_id")[i].as_py()
                for i in np.flatnonzero(np.isin(keys, arrowcheck._clashing_keys(table, keys)))}
    assert clashing(rows) <= left
    if busy == 10**6:
        improper = {r["subject_id"] for r in rows if r["valid_to"] is not None and r["valid_to"] <= r["valid_from"]}
        assert left <= clashing(rows) | improper


@settings(max_examples=100, deadline=None)
@given(rows=histories(proper=True), limit=st.sampled_from([2, PAIRWISE]), busy=st.sampled_from([1, 4, 10**6]))
def test_one_value_finds_each_key_that_overlaps_and_no_other(rows, limit, busy):
    """At exact boundaries (a period ending when the next starts, a closing at another's
    recording), open ends, many versions a key (swept past ``limit``, or too busy to snapshot),
    keys in any order: the keys reported are exactly those where two versions overlap, as `check`
    reports them."""
    with limits(PAIRWISE=limit, SNAPSHOT_ROWS=busy):
        found = arrowcheck._one_value(versions_table(rows), {"lives_in": "one"})
    assert {v.detail.split(" ")[0] for v in found} == clashing(rows)
    held = [SimpleNamespace(**r) for r in rows]
    assert {v.detail.split(" ")[0] for v in check_overlaps(held, {"lives_in": "one"})} == clashing(rows)


def test_a_version_closed_when_another_is_recorded_does_not_overlap_it():
    """[recorded, superseded) is half-open: the version closed at 1h and the one recorded at 1h
    are never believed together; a microsecond later they are."""
    first = {"id": "v1", "subject_id": "ann", "predicate": "lives_in", "valid_from": START, "valid_to": None,
             "recorded_at": START, "superseded_at": START + HOUR}
    second = dict(first, id="v2", recorded_at=START + HOUR, superseded_at=None)
    assert arrowcheck._one_value(versions_table([first, second]), {"lives_in": "one"}) == []
    late = dict(first, superseded_at=START + HOUR + timedelta(microseconds=1))
    found = arrowcheck._one_value(versions_table([second, late]), {"lives_in": "one"})
    assert [v.detail for v in found] == ["ann lives_in: v1 and v2 overlap, both believed at 2026-01-01 01:00:00+00:00"]


# -- ids as numbers --------------------------------------------------------------------------------

ODD_REFERENCES = ["v0", "v01", "v007", "v0x1F", "v0X5F5E100", "v+1", "v-1", "v 1", "v1 ", "V1", "v", "d1", "v1x",
                  "v0x1", "vv1", "v１", "", "v99999999999999999999", "v9223372036854775808", None]


@settings(max_examples=200, deadline=None)
@given(numbers=st.lists(st.integers(1, 10**19) | st.sampled_from([10**18 - 1, 10**18]) | st.integers(1, 50),
                        max_size=30, unique=True),
       far=st.booleans(), odd=st.lists(st.text(max_size=4), max_size=3),
       picks=st.lists(st.integers(0, 100), max_size=40), twice=st.booleans())
def test_ids_are_found_by_number_as_by_text(numbers, far, odd, picks, twice):
    """The row each reference names, and which ids repeat, as hashing the text finds them:
    ids of the store's form (read as numbers, by an array, or by a sorted search when they lie
    far apart), or any other (hashed); references of any form (0x1F and 007 are no ids)."""
    ids = [f"v{n}" for n in dict.fromkeys(numbers + ([31, 7, 100_000_000] if far else []))] + odd
    if twice and ids:
        ids.append(ids[0])
    column = pa.chunked_array([pa.array(ids, pa.string())])
    references = [ids[p % len(ids)] for p in picks if ids] + ODD_REFERENCES + [f"v{n + 1}" for n in numbers]
    index = arrowcheck.IdIndex(column)
    if len(set(ids)) == len(ids):  # an id's row is its only row
        expected = pc.fill_null(pc.index_in(pa.array(references, pa.string()), value_set=column), -1).to_pylist()
        assert index.of(pa.array(references, pa.string()))[0].tolist() == expected
    assert index.repeated().tolist() == [ids.count(i) > 1 for i in ids]
