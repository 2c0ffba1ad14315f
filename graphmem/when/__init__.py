"""Time phrases in English chat, each resolved to a half-open period with its granularity.

Every phrase is read against a *reference time* (a message's chat time, never the clock), and
calendar arithmetic happens in the store's zone; results are aware UTC. The one entry point for
a single phrase is :func:`resolve_phrase` ("yesterday", "2 weeks ago", "last summer" against a
reference and a zone); :func:`resolve_times` finds every phrase in a sentence.

Conventions:

- Weeks start on Monday; a weekend is Saturday 00:00 to Monday 00:00. ``last week`` is the
  previous calendar week, ``N weeks ago`` that calendar week, ``a couple of weeks ago`` two,
  ``a few`` three; ``N days ago`` is that day, ``N months ago`` that month, ``N years ago`` that
  year; ``N hours ago`` is an instant. ``in a few days`` is the day three days ahead.
- ``the week before last`` is two weeks back; ``last weekend`` the one before this week's,
  ``two weekends ago`` the one before the week before last.
- Seasons are meteorological (northern): spring March-May, summer June-August, autumn/fall
  September-November, winter December-February (winter 2024 runs to March 2025). ``last
  summer`` is the most recent summer that has ended, ``this summer`` the one of the reference's
  year (the current one, for a winter under way), ``next summer`` the first not yet begun.
- ``over the holidays`` is 24 December to 2 January; ``earlier this year`` is 1 January to the
  start of the reference's day; quarters ``Q1`` to ``Q4``; decades ``the 90s``, ``the 2010s``.
- A name without a year (``in March``, ``on Friday``, ``the 14th``, ``in the spring``,
  ``over the holidays``, ``March 14th``) means the most recent one that has begun when its clause
  is in the past tense, the next one not yet over when it speaks of the future ("I'm flying to
  Rome on Friday"). ``last October`` is the most recent October that has ended; ``next
  October`` the first that has not begun.
- ``since A`` has no end; ``from A to B`` / ``between A and B`` runs from A's start to B's end.
- A bare number is never a date: a year needs ``in``/``since``/``during``/``of``/``from`` before
  it, a month name alone ``in``/``of``/``since``/``during``/``last``/``this``/``next`` (so "May I
  ask" is not a date).

Granularities: ``instant`` (a time of day; the period lasts one minute, or one second when
seconds are written), ``day``, ``weekend``, ``week``, ``month``, ``season``, ``quarter``,
``year``, ``decade`` and ``range`` (an explicit span, and spans that are no calendar unit: the
holidays, "earlier this year"). An open period (``since 2019``) keeps the granularity of its
start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, tzinfo

from ..core.times import UTC, TimeLike, iso, parse_time, zone
from ..errors import InvalidTime
from ..models import Model
from ._calendar import HOLIDAYS, Granularity

__all__ = ["HOLIDAY_NAMES", "Granularity", "OutOfRange", "TimeSpan", "day_place", "find_times", "parse_chat_time",
           "read_time", "resolve_phrase", "resolve_times"]

#: The holidays the time phrases know by name ("christmas", "easter", "new year's eve").
HOLIDAY_NAMES: frozenset[str] = frozenset(HOLIDAYS)

#: Why a time phrase that names a period outside years 1 to 9998 is not used.
OUT_OF_RANGE = "outside the supported years (1 to 9998)"


class TimeSpan(Model):
    """One time expression found in text and the period ``[start, end)`` it names."""

    text: str
    start: datetime
    end: datetime | None
    granularity: Granularity

    def as_json(self) -> dict[str, str | None]:
        """The span as plain JSON: text, ``from`` and ``to`` as ISO 8601 UTC, granularity."""
        return {
            "text": self.text,
            "from": iso(self.start),
            "to": iso(self.end),
            "granularity": self.granularity,
        }


class OutOfRange(Model):
    """A time phrase found in text whose period lies outside the years the store can hold."""

    text: str
    problem: str = OUT_OF_RANGE

    def as_json(self) -> dict[str, str | None]:
        """As :meth:`TimeSpan.as_json`, with no period and the problem said."""
        return {"text": self.text, "from": None, "to": None, "granularity": None, "problem": self.problem}


def _reference(reference: datetime, tz: tzinfo) -> datetime:
    return parse_time(reference, tz).astimezone(tz).replace(tzinfo=None)


def resolve_times(
    text: str, reference: datetime, *, day_first: bool = False, tz: tzinfo | str = UTC, looking_back: bool = False
) -> list[TimeSpan]:
    """Find the time expressions in ``text`` and resolve each against ``reference``.

    ``reference`` is aware (a naive one is read in ``tz``); calendar arithmetic happens in ``tz``
    (a tzinfo or a zone name) and the spans are in UTC, in order of appearance. Numeric dates
    like 05/08/2023 are month first unless ``day_first``. Phrases naming a period outside years
    1 to 9998 are left out (:func:`find_times` reports them).
    """
    return [found for found in find_times(text, reference, day_first=day_first, tz=tz, looking_back=looking_back)
            if isinstance(found, TimeSpan)]


def find_times(
    text: str, reference: datetime, *, day_first: bool = False, tz: tzinfo | str = UTC, looking_back: bool = False
) -> list[TimeSpan | OutOfRange]:
    """Like :func:`resolve_times`, with the phrases outside the supported years reported as
    :class:`OutOfRange` in their place ("2030 years ago", "in 12000"), not dropped. ``looking_back``: a date or
    month with no verb is the most recent one (as a time typed alone is read), not the nearest."""
    tz = zone(tz)
    refused: list[tuple[int, int]] = []
    from ._scan import find  # the grammar: imported when a text is scanned (reading ISO times never needs it)

    hits = find(text, _reference(reference, tz), day_first=day_first, refused=refused, looking_back=looking_back)
    found: list[tuple[int, TimeSpan | OutOfRange]] = [
        (begin, OutOfRange(text=text[begin:finish])) for begin, finish in refused]
    for hit in hits:
        start, end, granularity, _ = hit.period
        phrase = text[hit.begin:hit.finish]
        try:
            found.append((hit.begin, TimeSpan(
                text=phrase,
                start=parse_time(start, tz),
                end=None if end is None else parse_time(end, tz),
                granularity=granularity,
            )))
        except InvalidTime:  # a date the calendar has, but the store cannot hold (year 9999)
            found.append((hit.begin, OutOfRange(text=phrase)))
    return [item for _, item in sorted(found, key=lambda pair: pair[0])]


_ISO_LIKE = re.compile(r"^[+-]?\d{4,}-\d")
#: A date with its month or day in one digit, as people type it ("2026-3-15", a new user's): ISO 8601 once padded.
_UNPADDED = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?=$|[T\s,])")


def read_time(value: TimeLike, tz: tzinfo, now: Callable[[], datetime]) -> datetime:
    """A time as a user gives one, as aware UTC: a datetime or date (naive read in ``tz``), ISO 8601
    text, ``now``, or a phrase such as "yesterday", "last tuesday", "2 weeks ago" or "last
    summer", resolved against ``now()`` in ``tz`` (the start of the period it names).

    This is the one grammar of times every front end accepts (the store reads them with it).
    """
    if not isinstance(value, str):
        return parse_time(value, tz)
    text = value.strip()
    if text.lower() == "now":
        return now()
    text = _UNPADDED.sub(lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", text, count=1)
    if _ISO_LIKE.match(text):  # a date written out: its own errors (out of range, no such day) stand
        return _iso_or_dated(text, value, tz)
    try:
        return parse_time(text, tz)
    except InvalidTime:
        pass
    if _NUMERIC_DATE.search(text):  # each date of numbers alone written as ISO first: "13/02/2024 10:00"
        text = _NUMERIC_DATE.sub(lambda numeric: _numeric_date(value, numeric), text)
        if _ISO_LIKE.match(text):
            return _iso_or_dated(text, value, tz)
    try:
        return resolve_phrase(text, now(), tz=tz).start
    except InvalidTime:
        raise InvalidTime(f"cannot read {value!r} as a time; use ISO 8601 like 2026-10-15 or 2026-10-15T09:30:00Z, "
                          "or a phrase like 'yesterday', 'last tuesday' or '2 weeks ago'") from None


def _iso_or_dated(text: str, value: TimeLike, tz: tzinfo) -> datetime:
    """A time that opens with an ISO 8601 date: as ISO 8601, the date followed by its time of day said another way
    ("2024-02-13, 10:00", "2024-02-13 at 9:30 am") written as ISO first; the ISO reading's own errors (out of range,
    no such day or hour) stand, naming what the user wrote."""
    if (dated := _DATE_THEN_TIME.match(text)) is not None:
        hour, minute = int(dated["hour"]), int(dated["minute"] or 0)
        half = (dated["half"] or dated["half2"] or "").lower()
        if half and 1 <= hour <= 12:
            hour = hour % 12 + (12 if half.startswith("p") else 0)
        elif half:
            hour = 99  # "13pm": no hour of the clock, refused below
        text = f"{dated['date']}T{hour:02d}:{minute:02d}"
    try:
        return parse_time(text, tz)
    except InvalidTime as exc:
        raise InvalidTime(str(exc).replace(repr(text), repr(value))) from None


#: An ISO date, then a time of day after a comma or "at", or a space: "2024-02-13, 10:00", "2024-02-13 9:30 am".
_DATE_THEN_TIME = re.compile(r"^(?P<date>[+-]?\d{4,}-\d{2}-\d{2})(?:\s*,\s*|\s+at\s+|\s+)(?P<hour>\d{1,2})"
                             r"(?::(?P<minute>\d{2})\s*(?P<half>[ap]\.?m\.?)?|\s*(?P<half2>[ap]\.?m\.?))$",
                             re.IGNORECASE)


#: A date of numbers alone, day and month in either order: "01/02/2024", "13.02.24", "2/13/2024", "15-03-2025" (with
#: dashes, only before a year of four digits: a new user's, refused where slashes were read).
_NUMERIC_DATE = re.compile(r"(?<![\w/.-])(?P<a>\d{1,2})(?P<sep>[/.]|-(?=\d{1,2}-\d{4}))(?P<b>\d{1,2})(?P=sep)"
                           r"(?P<year>\d{4}|\d{2})"
                           r"(?![\w/.-]|[.:]\d)")


def _numeric_date(value: str, numeric: re.Match[str]) -> str:
    """A date of numbers alone in ``value`` as ISO 8601: read where only one order of day and month makes a date
    ("13/02/2024" is 13 February, "2/13/2024" 13 February, "05/05/2024" 5 May); refused where both do, saying what
    to write ("01/02/2024": 1 February or 2 January?), rather than guessing one way for half the world. A year of
    two digits is 1969-2068, as ``strptime`` reads one."""
    a, b, year = int(numeric["a"]), int(numeric["b"]), int(numeric["year"])
    if len(numeric["year"]) == 2:
        year += 2000 if year < 69 else 1900
    if a != b and 1 <= a <= 12 and 1 <= b <= 12:  # (each order a day of the year)
        day_first, month_first = date(year, b, a), date(year, a, b)
        raise InvalidTime(f"{value!r}: {numeric.group()!r} could be {day_first.day} {day_first:%B} "
                          f"{day_first.year:04d} or {month_first.day} {month_first:%B} {month_first.year:04d}; write "
                          f"it as {day_first.isoformat()} or {month_first.isoformat()}")
    day, month = (a, b) if a > 12 or a == b else (b, a)
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        raise InvalidTime(f"cannot read {value!r} as a time: {numeric.group()!r} is no day of the calendar; use "
                          "ISO 8601 like 2026-10-15") from None


#: Words that may open a phrase without being part of the period ("in March", "on Friday").
_LEAD = re.compile(r"^(?:in|on|at|during|over)\s+", re.IGNORECASE)


def resolve_phrase(
    phrase: str, reference: datetime, *, tz: tzinfo | str = UTC, day_first: bool = False
) -> TimeSpan:
    """Resolve one time phrase (its whole text) against ``reference``, in zone ``tz``.

    The phrase alone is read: "yesterday", "2 weeks ago", "last summer", "since March",
    "from May to July", "2025-03-14". Without a verb to give it a tense, a bare name ("Friday",
    "in March") means the most recent one. Returns the period in UTC with its granularity;
    raises InvalidTime, with what to write instead, when the text is not exactly one phrase.
    """
    text = phrase.strip() if isinstance(phrase, str) else ""
    spans: list[TimeSpan] = []
    # A month or weekday alone ("March", "Friday") reads as "in March", "on Friday".
    for candidate in (text, f"in {text}", f"on {text}") if text else ():
        found = resolve_times(candidate, reference, day_first=day_first, tz=tz, looking_back=True)
        if len(found) == 1 and _LEAD.sub("", candidate) in (found[0].text, _LEAD.sub("", found[0].text)):
            return found[0].model_copy(update={"text": text})
        spans = spans or found
    if not spans:
        problem = "is not a time phrase graphmem knows"
    elif len(spans) > 1:
        problem = "holds more than one time phrase (" + ", ".join(repr(s.text) for s in spans) + ")"
    else:
        problem = f"has words around the time phrase {spans[0].text!r}"
    raise InvalidTime(f"{phrase!r} {problem}; write one phrase such as 'yesterday', "
                      "'2 weeks ago', 'last summer', 'since March' or an ISO 8601 date")


_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d(?![\d-])")
_PROBE_DEFAULTS = (datetime(2000, 1, 1), datetime(2001, 2, 2))


#: A date of numbers anywhere in a chat time, "/", "." or "-" between them (spaces too): "25/03/2024", "Mon 03-04-24
#: 10:30", "10:30 25 / 03 / 2024"; not an ISO date (its year comes first).
_CHAT_NUMERIC_DATE = re.compile(r"(?<![\w/.-])(\d{1,2})\s*([/.-])\s*(\d{1,2})\s*\2\s*(?:\d{4}|\d{2})(?!\d|[/.-]\d)")


def day_place(text: str) -> str | None:
    """Where a numeric date in ``text`` must have its day, when its numbers say so: "first" for "25/03/2024" (no 25th
    month), "second" for "03/25/2024"; "either" for "03/04/2024" (read one way or the other); None for no such date
    (an ISO date, a date in words). A reader that takes every date of a file one way reads its "either" dates
    wrongly where the file's others say the other way."""
    m = _CHAT_NUMERIC_DATE.search(text)
    if m is None:
        return None
    first, second = int(m[1]), int(m[3])
    if m[2] == ".":  # with dots the day comes first ("05.02.2026", read so whatever the order asked for), unless the
        # numbers say otherwise ("03.25.2024"): a file of both is refused as one of slashes both ways is (a reviewer's)
        return "second" if second > 12 >= first >= 1 else "first" if 1 <= first <= 31 and 1 <= second <= 12 else None
    if first > 12 >= second >= 1:
        return "first"
    if second > 12 >= first >= 1:
        return "second"
    return "either" if 1 <= first <= 12 and 1 <= second <= 12 and first != second else None


def parse_chat_time(text: str, *, day_first: bool = False, tz: tzinfo | str = UTC) -> datetime:
    """Read a whole chat timestamp (ISO 8601, '2025-09-12 08:00:00', '1:56 pm on 8 May, 2023').

    The text must name a full date (year, month and day); a missing clock time means midnight.
    Naive times are read in ``tz``. Returns an aware UTC datetime; raises InvalidTime otherwise.
    """
    from dateutil import parser as dateparser  # here: only reading a chat time needs it

    tz = zone(tz)
    problem = (f"cannot read {text!r} as a chat time; use ISO 8601 like 2025-09-12T08:00:00Z "
               "or a full date like '1:56 pm on 8 May, 2023'")
    if not isinstance(text, str) or not any(ch.isdigit() for ch in text):
        raise InvalidTime(problem)
    raw = text.strip()
    if _ISO_DATE.match(raw):  # isoparse alone would take "2023" as 1 January 2023
        try:
            return parse_time(dateparser.isoparse(raw), tz)
        except (ValueError, OverflowError):
            pass
    try:
        # Parsed twice with different defaults: any field the text leaves out shows up as a
        # difference, so "8 May" (no year) or "May 2023" (no day) is refused, not guessed.
        dotted = (m := _CHAT_NUMERIC_DATE.search(raw)) is not None and m[2] == "."  # "05.02.2026": 5 February, as
        # everywhere dates are written with dots (and as `graphmem when` reads it; a new user's)
        first, second = (dateparser.parse(raw, dayfirst=day_first or dotted, default=default)
                         for default in _PROBE_DEFAULTS)
    except (ValueError, OverflowError) as exc:
        raise InvalidTime(problem) from exc
    if first != second:
        raise InvalidTime(f"{problem} (the year, month or day is missing)")
    return parse_time(first, tz)
