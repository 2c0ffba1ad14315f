"""Interval algebra and status: pure functions, checked exhaustively on small integer-like times."""

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.core.temporal import Period, before, status_at, subtract, union
from graphmem.core.times import UTC

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


# -- reading times: the store's own form is read without dateutil, exactly as dateutil reads it --

_DIGITS = st.sampled_from("0123456789١٢")  # Arabic-Indic digits are not the store's form


def _same_as_dateutil(text):
    from dateutil.parser import isoparse

    from graphmem.core.times import parse_time
    from graphmem.errors import InvalidTime

    try:
        expected = isoparse(text)
    except (ValueError, OverflowError):
        with pytest.raises(InvalidTime):
            parse_time(text)
        return
    try:
        got = parse_time(text)
    except InvalidTime:  # only where the time itself is out of range, whoever reads it
        with pytest.raises(InvalidTime):
            parse_time(expected)
        return
    assert got == (expected if expected.tzinfo else expected.replace(tzinfo=UTC)).astimezone(UTC)


_FRACTIONS = st.sampled_from(["", ".1", ".123456", ".1234567"])
_OFFSETS = st.sampled_from(["Z", "+00:00", "+05:30", "-11:00", "+24:00", ""])


@given(st.datetimes(), _FRACTIONS, _OFFSETS, st.sampled_from("T "))
def test_the_stores_time_form_reads_as_dateutil_reads_it(moment, fraction, offset, sep):
    m = moment
    _same_as_dateutil(f"{m.year:04d}-{m.month:02d}-{m.day:02d}{sep}{m.hour:02d}:{m.minute:02d}:{m.second:02d}"
                      f"{fraction}{offset}")


@pytest.mark.parametrize("text", [
    "2026-01-01T24:00:00Z", "2026-01-01T24:00:00.5Z", "2026-01-01T10:00:00+00:60", "2026-01-01T10:00:00+05:99",
    "2026-01-01T10:00:00-23:60", "2026-01-01T10:00:00+24:00", "2026-01-01T23:59:60Z", "2026-01-01T10:60:00Z",
    "0000-01-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-01-01T10:00:00-00:00", "9999-12-31T23:59:59Z",
])
def test_edge_times_read_as_dateutil_reads_them(text):
    _same_as_dateutil(text)


@given(st.lists(_DIGITS, min_size=18, max_size=18), _FRACTIONS, st.sampled_from("Z+-"))
def test_a_near_miss_of_the_stores_form_reads_as_dateutil_reads_it(digits, fraction, sign):
    d = "".join(digits)
    offset = "Z" if sign == "Z" else f"{sign}{d[14:16]}:{d[16:18]}"
    _same_as_dateutil(f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}{fraction}{offset}")
