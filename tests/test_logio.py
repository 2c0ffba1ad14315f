"""The bulk import's shortcuts give exactly what the plain per-value code gave.

`import_log` checks only the time and integer fields of a record, converts whole columns of
times in Arrow, and pauses the garbage collector while it works: each is pinned here against
the straightforward version it replaced.
"""

from __future__ import annotations

import gc
import json
from datetime import datetime, timedelta, timezone

import pyarrow as pa
import pytest

from graphmem import ImportFailed, Store
from graphmem.core.tables import TABLES, Column
from graphmem.core.times import MAX_TIME, MIN_TIME, UTC, in_range, to_engine
from graphmem.log import jsonl as logio
from graphmem.models import Decision, Entity, Episode, Link, Proposal, Tombstone, Version
from tests.conftest import ENGINE
from tests.test_bad_input import small_log

T = datetime(2026, 1, 1, tzinfo=UTC)
#: One record of each kind with every field set, so each field shows the type of value it holds.
SAMPLES = {
    "entity": Entity(id="a", name="A", kind="person"),
    "episode": Episode(id="ep1", kind="chat", text="t", actor="me", reference_time=T, received_at=T),
    "decision": Decision(id="d1", op="ADD", at=T, created=["v1"], closed=["v2"], episode="ep1",
                         reason="r", proposal="p1"),
    "version": Version(id="v1", subject="A", predicate="likes", object="B", valid_from=T, valid_to=T,
                       recorded_at=T, superseded_at=T, status="current", episodes=["ep1"],
                       subject_id="a", object_id="b", supersedes=["v0"], superseded_by=["v2"],
                       created_by="d1", closed_by="d2", reason="r"),
    "proposal": Proposal(id="p1", op="end", subject="A", predicate="likes", object="B", valid_from=T,
                         valid_to=T, episode="ep1", quote="q", source="chat", proposed_at=T,
                         state="approved", decided_at=T, reason="r", decision="d1"),
    "tombstone": Tombstone(id="t1", target="entity", at=T, versions=["v1"], episodes=["ep1"],
                           entities=1, proposals=2),
    "link": Link(version="v1", episode="ep2", at=T),
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_the_range_checked_fields_are_all_the_time_and_integer_fields(kind):
    sample = SAMPLES[kind]
    assert set(type(sample).model_fields) == set(logio.MODELS[kind].model_fields)
    assert all(value is not None for _, value in sample), "set every field of the sample"
    expected = tuple((name, isinstance(value, datetime)) for name, value in sample
                     if isinstance(value, (datetime, int)))
    assert logio.RANGE_CHECKED[kind] == expected


def test_the_quick_range_test_agrees_with_the_exact_one():
    zones = [timezone(timedelta(hours=h, minutes=m)) for h, m in ((-23, -59), (-5, 0), (0, 0), (5, 30), (23, 59))]
    moments = [datetime(1, 1, 1), datetime(1, 1, 2), datetime(1, 1, 2, 23, 59), datetime(1, 12, 31, 23, 59),
               datetime(2, 1, 1), datetime(2, 1, 1, 0, 30), datetime(2026, 6, 1), datetime(9997, 12, 31, 23, 59),
               datetime(9998, 1, 1), datetime(9998, 12, 31, 23, 59, 59, 999999), datetime(9999, 1, 1),
               datetime(9999, 1, 1, 12)]
    for moment in moments:
        for zone in zones:
            value = moment.replace(tzinfo=zone)
            assert in_range(value) == (MIN_TIME <= value < MAX_TIME), value


def test_time_columns_hold_what_to_engine_gives():
    values = [T, datetime(2020, 5, 6, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30))),
              datetime(1, 1, 2, 3, tzinfo=timezone(timedelta(hours=-2))), None,
              datetime(9998, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)]
    open_end = Column("valid_to", "TIMESTAMP", open_end=True)
    assert open_end.to_arrow(values).equals(pa.array([to_engine(v) for v in values], pa.timestamp("us")))
    assert Column("at", "TIMESTAMP").to_arrow(values).equals(
        pa.array([None if v is None else to_engine(v) for v in values], pa.timestamp("us")))
    assert open_end.to_arrow([]).equals(pa.array([], pa.timestamp("us")))


def test_tables_read_every_column_from_its_field():
    found = {kind: [SAMPLES[kind]] * 2 for kind in logio.MODELS}
    tables = logio._tables(found)
    for table in TABLES:
        if table.record is None:
            continue
        rows = tables[table.name]
        assert rows.column_names == [c.name for c in table.every_column] and rows.num_rows == 2
        for column in table.every_column:
            value = getattr(SAMPLES[table.record], column.source)
            if isinstance(value, datetime):
                value = to_engine(value)
            assert rows.column(column.name).to_pylist() == [value, value], (table.name, column.name)
    empty = logio._tables({kind: [] for kind in logio.MODELS})
    assert all(t.num_rows == 0 for t in empty.values())
    assert [t.schema for t in empty.values()] == [t.schema for t in tables.values()]


def test_every_table_is_declared_once_and_the_store_has_exactly_those_columns(store):
    """The DDL, the Arrow schemas and the stored rows all come from graphmem.core.tables."""
    for table in TABLES:
        info = store._db.run_text(f"CALL table_info('{table.name}') RETURN name, type", {})
        assert [(name, kind) for name, kind in info] == [(c.name, c.type) for c in table.stored], table.name
        assert table.arrow_schema().names == [c.name for c in table.every_column]


def shifted(line: str, zone: timezone) -> str:
    """A log line with each of its record's times written in ``zone`` instead of UTC."""
    record = json.loads(line)
    if record["type"] not in logio.MODELS:
        return line
    for key, value in record.items():
        if isinstance(value, str) and value.endswith("Z") and value[:4].isdigit():
            record[key] = datetime.fromisoformat(value).astimezone(zone).isoformat()
    return json.dumps(record)


def test_times_written_with_an_offset_are_stored_as_their_utc_moment(tmp_path):
    lines = small_log(tmp_path / "good.jsonl")
    zone = timezone(-timedelta(hours=9, minutes=30))
    moved = [shifted(line, zone) for line in lines]
    assert moved != lines
    (tmp_path / "moved.jsonl").write_text("\n".join(moved) + "\n", encoding="utf-8")
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(tmp_path / "moved.jsonl")
        assert store.check() == []
        store.export(tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_text(encoding="utf-8").splitlines()[1:] == lines[1:]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_it_was(tmp_path, enabled):
    lines = small_log(tmp_path / "good.jsonl")
    (tmp_path / "bad.jsonl").write_text("\n".join([*lines, "{oops"]) + "\n", encoding="utf-8")
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with Store(":memory:", engine=ENGINE) as store:
            store.import_log(tmp_path / "good.jsonl")
            assert gc.isenabled() == enabled
            with pytest.raises(ImportFailed):
                store.import_log(tmp_path / "bad.jsonl")
            assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_log_that_changes_the_kind_of_a_predicate_in_use_is_refused_whole(tmp_path):
    from graphmem import Store
    from graphmem.errors import ImportFailed
    from tests.conftest import ENGINE

    log = tmp_path / "log.jsonl"  # a log of settings only: any record's id would clash first
    log.write_text(json.dumps({"type": "graphmem", "format": 1, "engine": ENGINE, "timezone": "UTC"}) + "\n"
                   + json.dumps({"type": "predicate", "name": "mentors", "kind": "one"}) + "\n")
    with Store(tmp_path / "target", engine=ENGINE) as target:
        target.add("Cleo", "mentors", "Dan", recorded_at="2023-01-01")  # used as 'many' here
        before = target.versions()
        with pytest.raises(ImportFailed, match=r"declares mentors as 'one', but mentors is already used "
                                               r"as 'many'.*nothing was written"):
            target.import_log(log)
        assert target.versions() == before and target.kind_of("mentors") == "many"
        assert not (target.path / "import.pending").exists()
