"""Calendar periods as plain values: days, weeks, weekends, months, seasons, quarters, years.

Every function is pure and works on naive wall-clock times in the store's zone. Periods are
half-open ``[start, end)``. Weeks start on Monday; a weekend runs from Saturday 00:00 to Monday
00:00; seasons are meteorological (spring March-May, summer June-August, autumn September-
November, winter December-February, named by the year of its December).

Internal: resolve phrases with :mod:`graphmem.when`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple

from dateutil.easter import easter
from dateutil.relativedelta import relativedelta

__all__ = ["Granularity", "HOLIDAYS", "Period", "SEASONS", "Tense", "day_in_year", "day_period", "decade",
           "ended", "holidays", "month", "nearest", "occurrence", "quarter", "safe_date", "season", "shift", "span",
           "weekday_from", "weekend", "weekend_of_week", "year_period"]

#: How wide a resolved time phrase is: a day, a week, ..., or ``range`` for an explicit span.
Granularity = Literal["instant", "day", "weekend", "week", "month", "season", "quarter", "year",
                      "decade", "range"]
#: Which occurrence of a recurring period a phrase means: the most recent that has started
#: ("past") or the first that has not ended ("future").
Tense = Literal["past", "future"]


class Period(NamedTuple):
    """A half-open period ``[start, end)`` (``end`` None: open) and what kind of period it is."""

    start: datetime  # naive = wall clock in the store's zone; aware when the text gave an offset
    end: datetime | None
    granularity: Granularity
    floating: bool = False  # its year was inferred, not written


def midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def day_period(day: date) -> Period:
    start = midnight(day)
    return Period(start, start + timedelta(days=1), "day")


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week(day: date) -> Period:
    start = midnight(monday(day))
    return Period(start, start + timedelta(days=7), "week")


def weekend(saturday: date) -> Period:
    start = midnight(saturday)
    return Period(start, start + timedelta(days=2), "weekend")


def weekend_of_week(day: date, weeks: int = 0) -> Period:
    """The weekend (Saturday to Monday) of the week ``weeks`` weeks from the week of ``day``."""
    return weekend(monday(day) + timedelta(weeks=weeks, days=5))


def month(year: int, number: int) -> Period:
    start = datetime(year, number, 1)
    return Period(start, start + relativedelta(months=1), "month")


def year_period(year: int) -> Period:
    return Period(datetime(year, 1, 1), datetime(year + 1, 1, 1), "year")


def decade(first_year: int) -> Period:
    return Period(datetime(first_year, 1, 1), datetime(first_year + 10, 1, 1), "decade")


SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def season(name: str, year: int) -> Period:
    """The season ``name`` of ``year`` (winter 2024 runs from December 2024 to March 2025)."""
    start = datetime(year, SEASONS[name], 1)
    return Period(start, start + relativedelta(months=3), "season")


def quarter(year: int, number: int) -> Period:
    start = datetime(year, 3 * number - 2, 1)
    return Period(start, start + relativedelta(months=3), "quarter")


def quarter_of(day: date) -> tuple[int, int]:
    return day.year, (day.month - 1) // 3 + 1


def shift(unit: str, today: date, n: int) -> Period:
    """The calendar ``unit`` (day, week, month, quarter, year) ``n`` units from today's."""
    if unit == "day":
        return day_period(today + timedelta(days=n))
    if unit == "week":
        return week(today + timedelta(weeks=n))
    if unit == "weekend":
        return weekend_of_week(today, n)
    if unit == "month":
        first = date(today.year, today.month, 1) + relativedelta(months=n)
        return month(first.year, first.month)
    if unit == "quarter":
        year, number = quarter_of(today)
        index = year * 4 + number - 1 + n
        return quarter(index // 4, index % 4 + 1)
    return year_period(today.year + n)


def occurrence(make: Callable[[int], Period | None], now: datetime, tense: Tense,
               *, strict: bool = False) -> Period | None:
    """The occurrence of a yearly period (``make(year)``) that a phrase in ``tense`` means.

    past: the most recent that has started by ``now`` (``strict``: that has ended);
    future: the first that has not ended (``strict``: that has not started).
    """
    candidates = _around(make, now)
    if tense == "past":
        fits = [p for p in candidates if (ended(p, now) if strict else p.start <= now)]
        return fits[-1] if fits else None
    fits = [p for p in candidates if (p.start > now if strict else not ended(p, now))]
    return fits[0] if fits else None


def nearest(make: Callable[[int], Period | None], now: datetime) -> Period | None:
    """The occurrence of a yearly period nearest ``now``: the one that holds it, else the one
    whose start or end is closest ("end of July", said in May with no verb: this July's)."""

    def distance(p: Period) -> timedelta:
        if p.start <= now and not ended(p, now):
            return timedelta(0)
        return abs(p.start - now) if p.end is None else min(abs(p.start - now), abs(p.end - now))

    candidates = _around(make, now)
    return min(candidates, key=distance) if candidates else None


def _around(make: Callable[[int], Period | None], now: datetime) -> list[Period]:
    """The occurrences of a yearly period from two years before ``now`` to two after, in order."""
    return [p for year in range(now.year - 2, now.year + 3) if (p := make(year))]


def ended(period: Period, now: datetime) -> bool:
    """True when a period has ended by ``now`` (an open period never has)."""
    return period.end is not None and period.end <= now


def safe_date(year: int, number: int, day: int) -> date | None:
    try:
        return date(year, number, day)
    except ValueError:
        return None


def day_in_year(number: int, day: int) -> Callable[[int], Period | None]:
    """``make(year)`` for a month and day (29 February only in leap years)."""
    return lambda year: day_period(found) if (found := safe_date(year, number, day)) else None


def nth_weekday(year: int, number: int, weekday: int, n: int) -> date:
    first = date(year, number, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


#: Named days, each ``make(year)``.
HOLIDAYS: dict[str, Callable[[int], Period | None]] = {
    "christmas eve": day_in_year(12, 24),
    "christmas": day_in_year(12, 25),
    "boxing day": day_in_year(12, 26),
    "new year's eve": day_in_year(12, 31),
    "new year's day": day_in_year(1, 1),
    "valentine's day": day_in_year(2, 14),
    "halloween": day_in_year(10, 31),
    "independence day": day_in_year(7, 4),
    "thanksgiving": lambda year: day_period(nth_weekday(year, 11, 3, 4)),
    "easter": lambda year: day_period(easter(year)),
    # Good Friday to Easter Monday, the long weekend most who say it mean (a new user's "easter weekend" read as
    # Easter Sunday alone)
    "easter weekend": lambda year: Period(midnight(easter(year) - timedelta(days=2)),
                                          midnight(easter(year) + timedelta(days=2)), "range"),
}


def holidays(year: int) -> Period:
    """The holidays that start in December of ``year``: 24 December to 2 January."""
    return Period(datetime(year, 12, 24), datetime(year + 1, 1, 2), "range")


def weekday_from(day: date, weekday: int, direction: int) -> Period:
    """The day named ``weekday`` strictly before (direction -1) or after (+1) ``day``."""
    if direction < 0:
        return day_period(day - timedelta(days=(day.weekday() - weekday) % 7 or 7))
    return day_period(day + timedelta(days=(weekday - day.weekday()) % 7 or 7))


def span(first: Period, last: Period) -> Period | None:
    """From the start of ``first`` to the end of ``last``, if that is not empty."""
    if last.end is None or last.end <= first.start:
        return None
    return Period(first.start, last.end, "range")
