"""Interval algebra over half-open periods, and the status of a version.

Plain functions over plain values: no database here. ``None`` as an end means
open ("until further notice") and compares as +infinity.

Internal: the store's interval rules; a version's ``status`` field carries what they decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import NamedTuple, Protocol, TypeVar

__all__ = ["Period", "Periods", "end_of_day", "held_order", "status", "status_at", "subtract",
           "union", "version_number"]


class Period(NamedTuple):
    """A half-open period ``[start, end)``; ``end`` None is open."""

    start: datetime
    end: datetime | None = None

    def contains(self, moment: datetime) -> bool:
        """True when ``start <= moment < end``."""
        return self.start <= moment and (self.end is None or moment < self.end)

    def overlaps(self, other: Period) -> bool:
        """True when the two periods share at least one moment."""
        return before(self.start, other.end) and before(other.start, self.end)

    def covers(self, other: Period) -> bool:
        """True when every moment of ``other`` lies in this period."""
        ends_later = self.end is None or (other.end is not None and other.end <= self.end)
        return self.start <= other.start and ends_later

    def is_empty(self) -> bool:
        """True when the period holds no moment."""
        return not before(self.start, self.end)


def before(moment: datetime, end: datetime | None) -> bool:
    """``moment < end`` with an open end as +infinity."""
    return end is None or moment < end


def latest_end(a: datetime | None, b: datetime | None) -> datetime | None:
    """The later of two ends, open being the latest."""
    if a is None or b is None:
        return None
    return max(a, b)


def earliest_end(a: datetime | None, b: datetime | None) -> datetime | None:
    """The earlier of two ends, open being the latest."""
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def union(a: Period, b: Period) -> Period:
    """The smallest period covering both (meaningful when they overlap or touch)."""
    return Period(min(a.start, b.start), latest_end(a.end, b.end))


def subtract(whole: Period, cut: Period) -> list[Period]:
    """The pieces of ``whole`` left and right of ``cut`` (zero, one or two periods)."""
    pieces = []
    if whole.start < cut.start:
        pieces.append(Period(whole.start, earliest_end(whole.end, cut.start)))
    if cut.end is not None and before(cut.end, whole.end):
        pieces.append(Period(max(whole.start, cut.end), whole.end))
    return [p for p in pieces if not p.is_empty()]


def end_of_day(moment: datetime, tz: tzinfo) -> datetime:
    """The next local midnight after ``moment`` in zone ``tz``, as aware UTC (DST-correct: a local
    day may last 23 or 25 hours). An event given no end lasts until then."""
    local = moment.astimezone(tz)
    midnight = datetime.combine(local.date() + timedelta(days=1), time(), tzinfo=tz)
    return midnight.astimezone(UTC)


class _Held(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def period(self) -> Period: ...


_H = TypeVar("_H", bound=_Held)


def held_order(held: Iterable[_H]) -> list[_H]:
    """Believed versions (anything with ``id`` and ``period``) in one fixed order: valid start, then
    version number. The gate's plan depends on the order of its input (which piece gets which id),
    and engines return a subject's edges in storage order, which differs between them."""
    return sorted(held, key=lambda h: (h.period.start, version_number(h.id)))


def version_number(version_id: str) -> int:
    """The number in a version id ("v12" -> 12)."""
    return int(version_id[1:]) if version_id[1:].isdigit() else 0


class Periods(Protocol):
    """Anything with a version's two periods and retraction reason (a stored version, a row)."""

    @property
    def valid_from(self) -> datetime: ...
    @property
    def valid_to(self) -> datetime | None: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def superseded_at(self) -> datetime | None: ...
    @property
    def reason(self) -> str | None: ...


def status_at(version: Periods, as_of: datetime, valid_at: datetime | None = None) -> str:
    """The status of a stored version seen from transaction time ``as_of`` and valid time ``valid_at``.

    ``version`` is anything with ``valid_from``, ``valid_to``, ``recorded_at``,
    ``superseded_at`` and ``reason`` (the retraction reason, set only on retraction).
    A version not yet recorded at ``as_of`` has no status there; this returns "upcoming"
    for it only if asked, so callers should filter by :func:`graphmem.core.as_known.believed` or closure first.
    """
    return status(version.valid_from, version.valid_to, version.superseded_at, version.reason,
                  as_of, valid_at)


def status(valid_from: datetime, valid_to: datetime | None, superseded_at: datetime | None,
           reason: str | None, as_of: datetime, valid_at: datetime | None = None) -> str:
    """:func:`status_at` over the four fields it reads."""
    valid_at = as_of if valid_at is None else valid_at
    if superseded_at is not None and superseded_at <= as_of:
        return "retracted" if reason else "superseded"
    if valid_at < valid_from:
        return "upcoming"
    if valid_to is not None and valid_to <= valid_at:
        return "ended"
    return "current"
