"""Every time a write gives or derives stays in the supported range, so every store exports and imports."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem import Store
from graphmem.core.invariants import check
from graphmem.core.times import UTC
from graphmem.errors import InvalidTime
from graphmem.models import Decision, Version
from tests.conftest import ENGINE

LAST = "9998-12-31T23:59:59.999999Z"


def test_no_write_fits_after_one_at_the_last_moment(store, tmp_path):
    store.allow_future = True  # the last moment is far past the wall clock
    store.add("a", "likes", "b", recorded_at=LAST)
    for write in (lambda: store.add("a", "likes", "c"), lambda: store.end("a", "likes", "b"),
                  lambda: store.add_episode("later"), lambda: store.purge("entity", "a")):
        with pytest.raises(InvalidTime, match="past the supported range"):
            write()
    assert [v.object for v in store.beliefs()] == ["b"]
    assert store.check() == []
    log = tmp_path / "log.jsonl"
    store.export(log)
    with Store(":memory:", engine=ENGINE, allow_future=True) as copy:
        copy.import_log(log)
        assert copy.beliefs() == store.beliefs()


def test_an_event_whose_day_ends_past_the_range_is_refused(store, tmp_path):
    with pytest.raises(InvalidTime, match="valid until 9999-01-01"):
        store.add("a", "traveled_to", "Oslo", valid_from="9998-12-31T12:00:00Z")
    with pytest.raises(InvalidTime):
        store.add_many([("a", "traveled_to", "Oslo", "9998-12-31T12:00:00Z")])
    assert store.decisions() == [] and store.check() == []
    store.add("a", "traveled_to", "Oslo", valid_from="9998-12-30T12:00:00Z")
    log = tmp_path / "log.jsonl"
    store.export(log)
    with Store(":memory:", engine=ENGINE) as copy:
        copy.import_log(log)
        assert copy.check() == []


def test_check_flags_times_outside_the_range():
    at = datetime(2026, 1, 1, tzinfo=UTC)
    beyond = datetime(9999, 1, 2, tzinfo=UTC)
    version = Version(id="v1", subject="a", predicate="traveled_to", object="b", valid_from=at,
                      valid_to=beyond, recorded_at=at, created_by="d1", subject_id="a", object_id="b")
    (problem,) = check([version], [Decision(id="d1", op="ADD", at=at, created=["v1"])], [], [], {})
    assert problem.rule == "time-range" and problem.record == "version v1"
