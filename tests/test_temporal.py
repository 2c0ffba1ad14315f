"""Interval algebra and status: pure functions, checked exhaustively on small integer-like times."""

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.temporal import Period, before, status_at, subtract, union
from graphmem.timeutil import UTC

pytestmark = pytest.mark.engine_free

BASE = datetime(2026, 1, 1, tzinfo=UTC)


def d(n):
    return None if n is None else BASE + timedelta(days=n)


def moments(period):
    """The whole days inside a period (open ends stop at day 100, past every closed end)."""
    end = 100 if period.end is None else (period.end - BASE).days
    return {n for n in range((period.start - BASE).days, end)}


periods = st.builds(
    lambda a, length: Period(d(a), None if length is None else d(a + length)),
    st.integers(0, 20), st.none() | st.integers(1, 10),
)


@given(periods, periods)
def test_overlap_means_a_shared_moment(a, b):
    assert a.overlaps(b) == bool(moments(a) & moments(b))


@given(periods, periods)
def test_subtract_leaves_exactly_the_moments_outside_the_cut(whole, cut):
    pieces = subtract(whole, cut)
    assert set().union(*(moments(p) for p in pieces)) == moments(whole) - moments(cut)
    assert all(not p.is_empty() for p in pieces)
    assert len(pieces) <= 2


@given(periods, periods)
def test_covers_and_union(a, b):
    assert a.covers(b) == (moments(b) <= moments(a))
    if a.overlaps(b):
        assert moments(union(a, b)) == moments(a) | moments(b)


def test_open_end_is_infinite():
    assert before(d(10_000), None)
    assert Period(d(0)).contains(d(10_000))
    assert not Period(d(0), d(1)).contains(d(1))  # half-open


def version(vf, vt=None, rec=0, sup=None, reason=None):
    return SimpleNamespace(valid_from=d(vf), valid_to=d(vt), recorded_at=d(rec), superseded_at=d(sup), reason=reason)


@pytest.mark.parametrize("v, as_of, valid_at, expected", [
    (version(0), 5, 5, "current"),
    (version(0, 3), 5, 5, "ended"),
    (version(0, 3), 5, 2, "current"),
    (version(8), 5, 5, "upcoming"),
    (version(0, sup=4), 5, 5, "superseded"),
    (version(0, sup=4), 3, 3, "current"),
    (version(0, sup=4, reason="typo"), 5, 5, "retracted"),
    (version(0, sup=4, reason="typo"), 3, None, "current"),
])
def test_status(v, as_of, valid_at, expected):
    assert status_at(v, d(as_of), d(valid_at)) == expected
