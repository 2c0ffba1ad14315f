"""A valid-time axis: the visible range and tick marks at round dates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
#: Tick spacings from fine to coarse, as (unit, count, approximate days).
STEPS = [("day", 1, 1), ("day", 7, 7), ("month", 1, 30.4), ("month", 3, 91.3),
         ("month", 6, 182.6), ("year", 1, 365.25), ("year", 2, 730.5), ("year", 5, 1826),
         ("year", 10, 3652), ("year", 25, 9131), ("year", 50, 18262), ("year", 100, 36525),
         ("year", 250, 91312), ("year", 500, 182625), ("year", 1000, 365250)]
MAX_TICKS = 9


def axis_range(moments: list[datetime]) -> tuple[datetime, datetime]:
    """A padded range covering every moment (a month either side of a single moment)."""
    low, high = min(moments), max(moments)
    if high - low < timedelta(days=2):
        return low - timedelta(days=30), high + timedelta(days=30)
    pad = (high - low) * 0.04
    low = low - pad if low - datetime.min.replace(tzinfo=UTC) > pad else low
    high = high + pad if datetime(9998, 1, 1, tzinfo=UTC) - high > pad else high
    return low, high


def _first(unit: str, count: int, low: datetime) -> datetime:
    """The first round tick at or after ``low``."""
    if unit == "year":
        year = low.year + (-low.year % count)
        tick = datetime(year, 1, 1, tzinfo=UTC)
        return tick if tick >= low else datetime(year + count, 1, 1, tzinfo=UTC)
    if unit == "month":
        month = low.month - 1 + (-(low.month - 1) % count)
        tick = datetime(low.year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
        return tick if tick >= low else _add(tick, unit, count)
    tick = datetime(low.year, low.month, low.day, tzinfo=UTC)
    if count == 7:
        tick += timedelta(days=-tick.weekday() % 7)
    return tick if tick >= low else tick + timedelta(days=count)


def _add(tick: datetime, unit: str, count: int) -> datetime:
    if unit == "year":
        return tick.replace(year=tick.year + count)
    if unit == "month":
        month = tick.month - 1 + count
        return tick.replace(year=tick.year + month // 12, month=month % 12 + 1)
    return tick + timedelta(days=count)


def _label(tick: datetime, unit: str) -> str:
    if unit == "year":
        return str(tick.year)
    if unit == "month":
        return f"{MONTHS[tick.month - 1]} {tick.year}"
    return tick.strftime("%Y-%m-%d")


def ticks(low: datetime, high: datetime) -> list[tuple[datetime, str]]:
    """Round dates between ``low`` and ``high``, at most about ``MAX_TICKS`` of them."""
    days = (high - low).total_seconds() / 86400
    unit, count, _ = next((s for s in STEPS if days / s[2] <= MAX_TICKS), STEPS[-1])
    result = []
    tick = _first(unit, count, low)
    while tick <= high and len(result) <= MAX_TICKS * 2:
        result.append((tick, _label(tick, unit)))
        try:
            tick = _add(tick, unit, count)
        except (ValueError, OverflowError):
            break
    return result
