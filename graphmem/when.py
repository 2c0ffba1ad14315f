"""Find time expressions in English text and resolve each to a half-open period.

Every expression is read against a *reference time* (a message's chat time, never the clock).
Calendar arithmetic happens in the store's zone and results are aware UTC. Conventions:

- Weeks start on Monday. ``last week`` is the previous calendar week, ``this week`` the current one.
- ``N days ago`` is that day, ``N weeks ago`` that calendar week, ``N months ago`` that calendar
  month, ``N years ago`` that calendar year; ``N hours ago`` is an instant.
- A date or month without a year is the most recent one not in the future (``in March``,
  ``May 8th``, ``from October 1 to 14``); ``last October`` is the most recent October strictly
  before the reference month; ``next October`` the first one strictly after it.
- ``last Sunday`` / ``the Sunday before [date]`` is the Sunday strictly before the reference day
  (or the given date); ``next Sunday`` / ``the Sunday after [date]`` the one strictly after.
- Granularity ``instant`` (a time of day; the period lasts one minute, or one second when seconds
  are written), ``day``, ``week``, ``month``, ``year``, ``range`` (``from A to B``, a weekend) and
  ``open`` (``since A``: no end).
- A bare number is never a date: a year needs ``in``/``since``/``during``/``of`` before it, a month
  name alone needs ``in``/``of``/``since``/``during``/``last``/``this``/``next`` (so "May I ask"
  is not a date).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from functools import partial
from typing import Literal, NamedTuple

from dateutil import parser as dateparser
from dateutil.relativedelta import relativedelta

from .errors import InvalidTime
from .models import Model
from .timeutil import UTC, iso, parse_time, zone

__all__ = ["Granularity", "TimeSpan", "parse_chat_time", "resolve_times"]

Granularity = Literal["instant", "day", "week", "month", "year", "range", "open"]


class TimeSpan(Model):
    """One time expression found in text and the period ``[start, end)`` it names."""

    text: str
    start: datetime
    end: datetime | None
    granularity: Granularity

    def as_json(self) -> dict:
        """The span as plain JSON: text, ``from`` and ``to`` as ISO 8601 UTC, granularity."""
        return {
            "text": self.text,
            "from": iso(self.start),
            "to": iso(self.end),
            "granularity": self.granularity,
        }


class _Period(NamedTuple):
    start: datetime  # naive = wall clock in the store's zone; aware when the text gave an offset
    end: datetime | None
    granularity: Granularity
    floating: bool = False  # the year was inferred, not written


@dataclass(frozen=True)
class _Context:
    now: datetime  # the reference as naive wall-clock time in the store's zone
    day_first: bool

    @property
    def today(self) -> date:
        return self.now.date()


@dataclass(frozen=True)
class _Hit:
    begin: int
    finish: int
    period: _Period
    anchored: Callable[[date], _Period | None] | None = None


# --- calendar units -------------------------------------------------------------------------

def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def _day(day: date) -> _Period:
    start = _midnight(day)
    return _Period(start, start + timedelta(days=1), "day")


def _week(day: date) -> _Period:
    monday = _midnight(day - timedelta(days=day.weekday()))
    return _Period(monday, monday + timedelta(days=7), "week")


def _weekend(day: date) -> _Period:
    saturday = _week(day).start + timedelta(days=5)
    return _Period(saturday, saturday + timedelta(days=2), "range")


def _month(year: int, month: int) -> _Period:
    start = datetime(year, month, 1)
    return _Period(start, start + relativedelta(months=1), "month")


def _year(year: int) -> _Period:
    return _Period(datetime(year, 1, 1), datetime(year + 1, 1, 1), "year")


def _span(first: _Period, last: _Period) -> _Period | None:
    if last.end is None or last.end <= first.start:
        return None
    return _Period(first.start, last.end, "range")


def _shift(unit: str, today: date, n: int) -> _Period:
    """The calendar ``unit`` (day, week, weekend, month, year) ``n`` units from ``today``."""
    if unit == "day":
        return _day(today + timedelta(days=n))
    if unit in ("week", "weekend"):
        moved = today + timedelta(weeks=n)
        return _week(moved) if unit == "week" else _weekend(moved)
    if unit == "month":
        first = date(today.year, today.month, 1) + relativedelta(months=n)
        return _month(first.year, first.month)
    return _year(today.year + n)


def _recent_date(month: int, day: int, today: date) -> date | None:
    """The most recent ``month``/``day`` not after ``today`` (29 February looks back to a leap year)."""
    for year in range(today.year, today.year - 9, -1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= today:
            return candidate
    return None


def _recent_month_year(month: int, today: date, *, strict: bool = False) -> int:
    """The year of the most recent ``month`` not after (``strict``: before) today's month."""
    if month < today.month or (month == today.month and not strict):
        return today.year
    return today.year - 1


def _weekday_from(day: date, weekday: int, direction: int) -> _Period:
    """The day named ``weekday`` strictly before (direction -1) or after (+1) ``day``."""
    if direction < 0:
        delta = (day.weekday() - weekday) % 7 or 7
        return _day(day - timedelta(days=delta))
    delta = (weekday - day.weekday()) % 7 or 7
    return _day(day + timedelta(days=delta))


# --- vocabulary -----------------------------------------------------------------------------

_MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december"]
_MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                        "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
_MONTHS = {name: n for n, name in enumerate(_MONTH_NAMES, start=1)} | _MONTH_ABBREVIATIONS
_FULL_MONTH = "|".join(_MONTH_NAMES)
_SHORT_MONTH = "|".join(_MONTH_ABBREVIATIONS)
#: A month name; abbreviations ("Oct", "Sept.") only where a day or year follows or precedes.
_MONTH = rf"(?:(?:{_FULL_MONTH})\b|(?:{_SHORT_MONTH})\b\.?)"
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY = "|".join(_WEEKDAYS)
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "a couple of": 2, "couple of": 2,
}
_NUMBER = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
_DAY_NUM = r"(?<![\d:.,/])(?P<day>[0-3]?\d)" + _ORD
_YEAR_NUM = r"(?P<year>[12]\d{3})(?![\d]|[.,]\d)"
_OPT_YEAR = rf"(?:,?\s+{_YEAR_NUM})?"
_TO = r"\s*(?:to|until|till|through|thru|-|–|—)\s*"
_RANGE_LEAD = r"(?:(?:from|between)\s+)?"


def _month_number(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")]


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


# --- resolvers: one per pattern, (match, context) -> period or None -------------------------

def _iso(m: re.Match, ctx: _Context) -> _Period | None:
    if not m.group("clock"):
        return _day(date(int(m["y"]), int(m["m"]), int(m["d"])))
    moment = dateparser.isoparse(m.group(0).upper().replace(" ", "T"))
    step = timedelta(seconds=1) if m.group("sec") else timedelta(minutes=1)
    return _Period(moment, moment + step, "instant")


def _numeric(m: re.Match, ctx: _Context) -> _Period | None:
    first, second, year = int(m["a"]), int(m["b"]), int(m["y"])
    if len(m["y"]) == 2:  # '23 is 2023 unless that is over ten years ahead of the reference
        year += 2000 if 2000 + year <= ctx.today.year + 10 else 1900
    month, day = (second, first) if ctx.day_first else (first, second)
    return _day(date(year, month, day))


def _calendar_date(m: re.Match, ctx: _Context) -> _Period | None:
    month, day = _month_number(m["month"]), int(m["day"])
    if m["year"]:
        return _day(date(int(m["year"]), month, day))
    found = _recent_date(month, day, ctx.today)
    return _day(found)._replace(floating=True) if found else None


def _month_year(m: re.Match, ctx: _Context) -> _Period | None:
    return _month(int(m["year"]), _month_number(m["month"]))


def _bare_month(m: re.Match, ctx: _Context) -> _Period | None:
    month = _month_number(m["month"])
    return _month(_recent_month_year(month, ctx.today), month)._replace(floating=True)


def _relative_month(m: re.Match, ctx: _Context) -> _Period | None:
    month, rel = _month_number(m["month"]), m["rel"].lower()
    if rel == "last":
        return _month(_recent_month_year(month, ctx.today, strict=True), month)
    if rel == "next":
        return _month(ctx.today.year + (month <= ctx.today.month), month)
    return _month(ctx.today.year, month)


def _relative_unit(m: re.Match, ctx: _Context) -> _Period | None:
    step = {"last": -1, "this": 0, "next": 1}[m["rel"].lower()]
    return _shift(m["unit"].lower(), ctx.today, step)


_DAY_OFFSETS = {"the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
                "last night": -1, "tomorrow": 1}  # today, tonight, this morning, ...: 0


def _named_day(m: re.Match, ctx: _Context) -> _Period | None:
    words = " ".join(m.group(0).lower().split())
    offset = next((n for start, n in _DAY_OFFSETS.items() if words.startswith(start)), 0)
    return _day(ctx.today + timedelta(days=offset))


def _ago(m: re.Match, ctx: _Context) -> _Period | None:
    n, unit = _count(m["n"]), m["unit"].lower()
    if unit in ("minute", "hour"):
        moment = ctx.now.replace(second=0, microsecond=0) - timedelta(**{unit + "s": n})
        return _Period(moment, moment + timedelta(minutes=1), "instant")
    return _shift(unit, ctx.today, -n)


def _relative_weekday(m: re.Match, ctx: _Context) -> _Period | None:
    direction = -1 if m["rel"].lower() == "last" else 1
    return _weekday_from(ctx.today, _WEEKDAYS.index(m["wd"].lower()), direction)


def _weekday_around(m: re.Match, day: date) -> _Period | None:
    direction = -1 if m["dir"].lower() == "before" else 1
    return _weekday_from(day, _WEEKDAYS.index(m["wd"].lower()), direction)


def _year_alone(m: re.Match, ctx: _Context) -> _Period | None:
    return _year(int(m["year"]))


def _year_range(m: re.Match, ctx: _Context) -> _Period | None:
    return _span(_year(int(m["y1"])), _year(int(m["y2"])))


def _day_range(m: re.Match, ctx: _Context) -> _Period | None:
    month, first, last = _month_number(m["month"]), int(m["d1"]), int(m["d2"])
    if m["year"]:
        start = date(int(m["year"]), month, first)
    else:
        start = _recent_date(month, first, ctx.today)
        if start is None:
            return None
    return _span(_day(start), _day(date(start.year, month, last)))


def _month_range(m: re.Match, ctx: _Context) -> _Period | None:
    first, last = _month_number(m["m1"]), _month_number(m["m2"])
    if m["year"]:
        end_year = int(m["year"])
        start_year = end_year - (first > last)
    else:
        start_year = _recent_month_year(first, ctx.today)
        end_year = start_year + (first > last)
    return _span(_month(start_year, first), _month(end_year, last))


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern
    resolve: Callable[[re.Match, _Context], _Period | None]
    anchored: Callable[[re.Match, date], _Period | None] | None = None


def _rule(regex: str, resolve, anchored=None) -> _Rule:
    return _Rule(re.compile(regex, re.IGNORECASE), resolve, anchored)


_AFTER_WORD = r"(?:(?<=\bin )|(?<=\bof )|(?<=\bsince )|(?<=\bduring )|(?<=\buntil )|(?<=\btill ))"

#: Every base expression. Overlaps are settled longest first, so order does not matter.
_RULES: list[_Rule] = [
    _rule(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)(?:[T ](?P<clock>\d\d:\d\d(?P<sec>:\d\d"
          r"(?:\.\d+)?)?)(?:Z|[+-]\d\d:?\d\d)?)?(?![\w:-])", _iso),
    _rule(r"(?<![\d/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])", _numeric),
    _rule(rf"{_DAY_NUM}\s+(?:of\s+)?(?P<month>{_MONTH}){_OPT_YEAR}", _calendar_date),
    _rule(rf"\b(?P<month>{_MONTH})\s+{_DAY_NUM}\b{_OPT_YEAR}", _calendar_date),
    _rule(rf"\b(?P<month>{_MONTH}),?\s+(?:of\s+)?{_YEAR_NUM}", _month_year),
    _rule(rf"{_AFTER_WORD}(?P<month>{_FULL_MONTH})\b", _bare_month),
    _rule(rf"\b(?P<rel>last|this|next)\s+(?P<month>{_FULL_MONTH})\b", _relative_month),
    _rule(r"\b(?P<rel>last|this|next)\s+(?P<unit>weekend|week|month|year)\b(?:['’]s\b)?",
          _relative_unit),
    _rule(r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|today|tonight"
          r"|(?:yesterday|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?"
          r"|last\s+night|this\s+(?:morning|afternoon|evening))\b", _named_day),
    _rule(rf"\b(?P<n>\d{{1,4}}|{_NUMBER})\s+(?P<unit>minute|hour|day|week|month|year)s?\s+ago\b",
          _ago),
    _rule(rf"\b(?P<rel>last|next)\s+(?P<wd>{_WEEKDAY})\b", _relative_weekday),
    _rule(rf"\bthe\s+(?P<wd>{_WEEKDAY})\s+(?P<dir>before|after)\b",
          lambda m, ctx: _weekday_around(m, ctx.today), _weekday_around),
    _rule(rf"{_AFTER_WORD}{_YEAR_NUM}", _year_alone),
    _rule(rf"\b(?:from|between)\s+(?P<y1>[12]\d{{3}})(?:{_TO}|\s+and\s+)(?P<y2>[12]\d{{3}})\b",
          _year_range),
    _rule(rf"\b{_RANGE_LEAD}(?P<month>{_MONTH})\s+(?P<d1>[0-3]?\d){_ORD}{_TO}(?P<d2>[0-3]?\d)"
          rf"{_ORD}\b{_OPT_YEAR}", _day_range),
    _rule(rf"\b{_RANGE_LEAD}(?P<d1>[0-3]?\d){_ORD}{_TO}(?P<d2>[0-3]?\d){_ORD}\s+(?:of\s+)?"
          rf"(?P<month>{_MONTH}){_OPT_YEAR}", _day_range),
    _rule(rf"\b(?:from|between)\s+(?P<m1>{_FULL_MONTH})(?:{_TO}|\s+and\s+)(?P<m2>{_FULL_MONTH})\b"
          rf"{_OPT_YEAR}", _month_range),
]


# --- scanning and combining -----------------------------------------------------------------

def _scan(text: str, ctx: _Context) -> list[_Hit]:
    """Base expressions in ``text``: the longest match wins an overlap; in order of appearance."""
    found = [(m, rule) for rule in _RULES for m in rule.pattern.finditer(text)]
    found.sort(key=lambda item: (item[0].start() - item[0].end(), item[0].start()))
    hits: list[_Hit] = []
    blocked: list[tuple[int, int]] = []
    for m, rule in found:
        taken = blocked + [(hit.begin, hit.finish) for hit in hits]
        if any(m.start() < finish and begin < m.end() for begin, finish in taken):
            continue
        try:
            period = rule.resolve(m, ctx)
        except (ValueError, OverflowError):
            # 31 February 2023 is no date at all, so it must not shrink to "February 2023".
            blocked.append((m.start(), m.end()))
            continue
        if period is not None:
            anchored = partial(rule.anchored, m) if rule.anchored else None
            hits.append(_Hit(m.start(), m.end(), period, anchored))
    return sorted(hits, key=lambda hit: hit.begin)


def _attach_anchors(hits: list[_Hit], text: str) -> list[_Hit]:
    """``the Sunday before`` + ``25 May 2023`` reads the weekday against that date."""
    out: list[_Hit] = []
    for hit in hits:
        prev = out[-1] if out else None
        if (prev and prev.anchored and hit.period.granularity == "day"
                and text[prev.finish:hit.begin].isspace()):
            period = prev.anchored(hit.period.start.date())
            if period is not None:
                out[-1] = _Hit(prev.begin, hit.finish, period)
                continue
        out.append(hit)
    return out


_CLOCK = (r"(?P<h>[0-2]?\d)(?::(?P<mi>[0-5]\d)(?::(?P<s>[0-5]\d))?)?"
          r"(?:\s*(?P<ap>[ap]\.?m\b\.?))?")
_CLOCK_BEFORE = re.compile(rf"(?<![\w:.]){_CLOCK}(?:\s*,\s*|\s+on\s+|\s+)$", re.IGNORECASE)
_CLOCK_AFTER = re.compile(rf"(?:\s*,\s*|\s+)(?:at\s+)?{_CLOCK}(?![\w:])", re.IGNORECASE)


def _clock_time(m: re.Match, day: datetime) -> _Period | None:
    """The instant a clock match names on ``day``; None if it is a bare number or impossible."""
    hour, minute, ap = int(m["h"]), int(m["mi"] or 0), (m["ap"] or "").lower()
    if not (m["mi"] or ap) or hour > (12 if ap else 23) or (ap and hour == 0):
        return None
    if ap:
        hour = hour % 12 + (12 if ap.startswith("p") else 0)
    moment = day + timedelta(hours=hour, minutes=minute, seconds=int(m["s"] or 0))
    step = timedelta(seconds=1) if m["s"] else timedelta(minutes=1)
    return _Period(moment, moment + step, "instant")


def _attach_clock(hits: list[_Hit], text: str) -> list[_Hit]:
    """``1:56 pm on 8 May, 2023`` or ``yesterday at 3pm``: a day plus a clock time is an instant."""
    out: list[_Hit] = []
    for hit in hits:
        if hit.period.granularity == "day":
            floor = out[-1].finish if out else 0
            before = _CLOCK_BEFORE.search(text, floor, hit.begin)
            if before and (period := _clock_time(before, hit.period.start)):
                hit = _Hit(before.start(), hit.finish, period)
            elif (after := _CLOCK_AFTER.match(text, hit.finish)) and (
                    period := _clock_time(after, hit.period.start)):
                hit = _Hit(hit.begin, after.end(), period)
        out.append(hit)
    return out


_SINCE = re.compile(r"\b(?:ever\s+)?since\s+$", re.IGNORECASE)


def _attach_since(hits: list[_Hit], text: str) -> list[_Hit]:
    """``since 2019`` is open: from the start of 2019 with no end."""
    out: list[_Hit] = []
    for hit in hits:
        floor = out[-1].finish if out else 0
        since = _SINCE.search(text, floor, hit.begin)
        if since and hit.period.end is not None:
            hit = _Hit(since.start(), hit.finish, _Period(hit.period.start, None, "open"))
        out.append(hit)
    return out


_FROM = re.compile(r"\b(?P<lead>from|between)\s+$", re.IGNORECASE)
_RANGE_TO = re.compile(_TO, re.IGNORECASE)
_RANGE_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


def _attach_ranges(hits: list[_Hit], text: str) -> list[_Hit]:
    """``from A to B`` / ``between A and B`` is one range from A's start to B's end."""
    out: list[_Hit] = []
    for hit in hits:
        prev = out[-1] if out else None
        if prev is not None:
            floor = out[-2].finish if len(out) > 1 else 0
            lead = _FROM.search(text, floor, prev.begin)
            joiner = _RANGE_AND if lead and lead["lead"].lower() == "between" else _RANGE_TO
            if lead and joiner.fullmatch(text, prev.finish, hit.begin):
                last = hit.period
                if last.floating and last.start < prev.period.start:  # "from May 1 to June 3"
                    last = _Period(last.start + relativedelta(years=1),
                                   last.end + relativedelta(years=1), last.granularity)
                period = _span(prev.period, last)
                if period is not None:
                    out[-1] = _Hit(lead.start(), hit.finish, period)
                    continue
        out.append(hit)
    return out


def _reference(reference: datetime, tz: tzinfo) -> datetime:
    return parse_time(reference, tz).astimezone(tz).replace(tzinfo=None)


def _zone(tz) -> tzinfo:
    return zone(tz) if isinstance(tz, str) else tz


def resolve_times(
    text: str, reference: datetime, *, day_first: bool = False, tz=UTC
) -> list[TimeSpan]:
    """Find the time expressions in ``text`` and resolve each against ``reference``.

    ``reference`` is aware (a naive one is read in ``tz``); calendar arithmetic happens in ``tz``
    (a tzinfo or a zone name) and the spans are in UTC, in order of appearance. Numeric dates
    like 05/08/2023 are month first unless ``day_first``.
    """
    tz = _zone(tz)
    ctx = _Context(_reference(reference, tz), day_first)
    hits = _scan(text, ctx)
    for combine in (_attach_anchors, _attach_clock, _attach_since, _attach_ranges):
        hits = combine(hits, text)
    spans = []
    for hit in hits:
        start, end, granularity, _ = hit.period
        try:
            spans.append(TimeSpan(
                text=text[hit.begin:hit.finish],
                start=parse_time(start, tz),
                end=None if end is None else parse_time(end, tz),
                granularity=granularity,
            ))
        except InvalidTime:  # outside the supported years: not a time we can keep
            continue
    return spans


_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d(?![\d-])")
_PROBE_DEFAULTS = (datetime(2000, 1, 1), datetime(2001, 2, 2))


def parse_chat_time(text: str, *, day_first: bool = False, tz=UTC) -> datetime:
    """Read a whole chat timestamp (ISO 8601, '2025-09-12 08:00:00', '1:56 pm on 8 May, 2023').

    The text must name a full date (year, month and day); a missing clock time means midnight.
    Naive times are read in ``tz``. Returns an aware UTC datetime; raises InvalidTime otherwise.
    """
    tz = _zone(tz)
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
        first, second = (dateparser.parse(raw, dayfirst=day_first, default=default)
                         for default in _PROBE_DEFAULTS)
    except (ValueError, OverflowError) as exc:
        raise InvalidTime(problem) from exc
    if first != second:
        raise InvalidTime(f"{problem} (the year, month or day is missing)")
    return parse_time(first, tz)
