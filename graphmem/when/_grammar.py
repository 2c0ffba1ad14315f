"""The time expressions graphmem reads: one pattern and one resolver for each.

A resolver takes the regex match and a :class:`Context` (the reference time and the tense of
the clause the match stands in) and returns a :class:`~graphmem.when._calendar.Period`, or None
when the words name no real period. Overlapping matches are settled longest first by the scanner
(:mod:`graphmem.when._scan`), so the order of :data:`RULES` does not matter.

Internal: resolve phrases with :mod:`graphmem.when`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from dateutil import parser as dateparser
from dateutil.relativedelta import relativedelta

from ._calendar import (
    HOLIDAYS,
    SEASONS,
    Period,
    Tense,
    day_in_year,
    day_period,
    decade,
    ended,
    holidays,
    midnight,
    month,
    nearest,
    nth_weekday,
    occurrence,
    quarter,
    safe_date,
    season,
    shift,
    span,
    weekday_from,
    weekend,
    weekend_of_week,
    year_period,
)


@dataclass(frozen=True)
class Context:
    """What a resolver reads a match against."""

    now: datetime  # the reference as naive wall-clock time in the store's zone
    day_first: bool
    #: The tense of the clause around an index, and whether its words state it (False: no verb gives it).
    clause_at: Callable[[int], tuple[Tense, bool]] = field(default=lambda at: ("past", True))
    #: A time a user types alone ("--as-of 'March 3rd'"): with no verb, the most recent, not the nearest.
    looking_back: bool = False

    @property
    def today(self) -> date:
        return self.now.date()

    def tense(self, m: re.Match[str]) -> Tense:
        return self.clause_at(m.start())[0]

    def stated(self, m: re.Match[str]) -> bool:
        return self.clause_at(m.start())[1]


# --- vocabulary -----------------------------------------------------------------------------

MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december"]
_MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                        "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
_MONTHS = {name: n for n, name in enumerate(MONTH_NAMES, start=1)} | _MONTH_ABBREVIATIONS
_FULL_MONTH = "|".join(MONTH_NAMES)
_SHORT_MONTH = "|".join(_MONTH_ABBREVIATIONS)
#: A month name; abbreviations ("Oct", "Sept.") only where a day or year follows or precedes.
MONTH = rf"(?:(?:{_FULL_MONTH})\b|(?:{_SHORT_MONTH})\b\.?)"
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY = "|".join(WEEKDAYS)
_PART_OF_DAY = r"(?:\s+(?:morning|afternoon|evening|night))?"
_SEASON = "|".join(SEASONS)
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "a couple of": 2, "couple of": 2, "a couple": 2,
    "a few": 3, "few": 3,
}
_NUMBER = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3,
             "4th": 4}
_DECADE_WORDS = {"twenties": 2, "thirties": 3, "forties": 4, "fifties": 5, "sixties": 6,
                 "seventies": 7, "eighties": 8, "nineties": 9}
_ORD = r"(?:st|nd|rd|th)?"
_DAY_NUM = r"(?<![\d:.,/])(?P<day>[0-3]?\d)" + _ORD
YEAR_NUM = r"(?P<year>[12]\d{3})(?![\d]|[.,]\d)"
_OPT_YEAR = rf"(?:,?\s+{YEAR_NUM})?"
TO = r"\s*(?:to|until|till|through|thru|-|–|—)\s*"
_RANGE_LEAD = r"(?:(?:from|between)\s+)?"
_HOLIDAY = "|".join(re.escape(name).replace("'", "['’]").replace(r"\ ", r"\s+")
                    for name in sorted(HOLIDAYS, key=len, reverse=True))


def _after(*words: str) -> str:
    """A lookbehind: the match must follow one of ``words`` and a space."""
    return "(?:" + "|".join(rf"(?<=\b{word} )" for word in words) + ")"


_AFTER_WORD = _after("in", "of", "since", "during", "until", "till", "from", "throughout")


def month_number(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")]


def count(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def _weekday(name: str) -> int:
    return WEEKDAYS.index(name.lower())


# --- resolvers ------------------------------------------------------------------------------

def _iso(m: re.Match[str], ctx: Context) -> Period | None:
    if not m.group("clock"):
        return day_period(date(int(m["y"]), int(m["m"]), int(m["d"])))
    moment = dateparser.isoparse(m.group(0).upper().replace(" ", "T"))
    step = timedelta(seconds=1) if m.group("sec") else timedelta(minutes=1)
    return Period(moment, moment + step, "instant")


def _numeric(m: re.Match[str], ctx: Context) -> Period | None:
    first, second, year = int(m["a"]), int(m["b"]), int(m["y"])
    if len(m["y"]) == 2:  # '23 is 2023 unless that is over ten years ahead of the reference
        year += 2000 if 2000 + year <= ctx.today.year + 10 else 1900
    number, day = (second, first) if ctx.day_first else (first, second)
    return day_period(date(year, number, day))


def _calendar_date(m: re.Match[str], ctx: Context) -> Period | None:
    number, day = month_number(m["month"]), int(m["day"])
    if m["year"]:
        return day_period(date(int(m["year"]), number, day))
    if safe_date(2000, number, day) is None:  # 2000 is a leap year: only impossible days fail
        raise ValueError("no such day")
    make = day_in_year(number, day)
    found = occurrence(make, ctx.now, ctx.tense(m)) if ctx.stated(m) else _unstated(make, ctx, m)
    return found and found._replace(floating=True)


def _ordinal_day(m: re.Match[str], ctx: Context) -> Period | None:
    day, today = int(m["day"]), ctx.today
    if not ctx.stated(m) and not ctx.looking_back:  # "back on the 22nd", no verb: the nearer of the two
        days = [p for p in (_ordinal_day_toward(day, today, -1), _ordinal_day_toward(day, today, 1)) if p]
        return min(days, key=lambda p: abs(p.start.date() - today)) if days else None
    return _ordinal_day_toward(day, today, -1 if ctx.tense(m) == "past" else 1)


#: A day of the week as written before a day of the month: whole or cut short ("sat the 11th").
_WEEKDAY_SHORT = r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun"


def _weekday_ordinal(m: re.Match[str], ctx: Context) -> Period | None:
    """"Saturday the 11th", "on sat 11th": the 11th that is a Saturday, the first to come in a clause about the future,
    the last in one about the past, else the nearest; where none is within two months, the 11th as said alone."""
    day, today = int(m["day"]), ctx.today
    said = m["wd"] or m["whole"] or m["short"]  # a day cut short only after "on" or before "the": not "sat 3rd row"
    weekday = next(n for n, name in enumerate(WEEKDAYS) if name.startswith(said.lower()[:3]))
    found = []
    for n in range(-13, 14):
        month = today.month - 1 + n
        when = safe_date(today.year + month // 12, month % 12 + 1, day)
        if when is not None and when.weekday() == weekday:
            found.append(when)
    if ctx.stated(m):
        found = [d for d in found if (d >= today if ctx.tense(m) == "future" else d <= today)] or found
    nearest = min(found, key=lambda d: abs(d - today)) if found else None
    if nearest is None or abs(nearest - today) > _WEEKDAY_REACH:
        return _ordinal_day(m, ctx)  # "Saturday the 12th" where the 12th is a Sunday: a slip, the 12th as alone
    return day_period(nearest)


#: How far a day of the week named with a day of the month is looked for, either way.
_WEEKDAY_REACH = timedelta(days=62)


def _ordinal_day_toward(day: int, today: date, step: int) -> Period | None:
    """The day of the month numbered ``day`` on or before today (``step`` -1), or on or after it (1)."""
    first = date(today.year, today.month, 1)
    for n in range(0, 13 * step, step):
        candidate = first.replace(year=first.year + (first.month - 1 + n) // 12,
                                  month=(first.month - 1 + n) % 12 + 1)
        found = safe_date(candidate.year, candidate.month, day)
        if found and (found <= today if step < 0 else found >= today):
            return day_period(found)
    return None


#: How far ahead a date or month with no verb to tell its tense is read as to come ("19 february!!", "keys 1
#: december", "amsterdam in june!!" said in October); further ahead, the last one is meant ("February 29", said in
#: May 2026: 2024's, not 2028's).
_AHEAD_AT_MOST = timedelta(days=300)


#: Words before a date with no verb that look back: "throwback 🥹 20 jan", "pics from 2 march", "born 14 march",
#: "back in january", "last seen: 3 nov"; and after it: "from 14 feb till now".
_LOOKS_BACK = re.compile(r"\b(?:back\s+in|born|throwback|tbt|memories|memory|pics?|photos?|pictures?|videos?|"
                         r"last\s+seen|remember|anniversary\s+of)\b[^.!?\n]{0,25}$", re.IGNORECASE)
_LOOKS_BACK_REACH = 40  # characters before the date
_UNTIL_NOW = re.compile(r"\s*(?:till|til|until|up\s+to|to)\s+(?:now|today)\b", re.IGNORECASE)


def _unstated(make: Callable[[int], Period | None], ctx: Context, m: re.Match[str]) -> Period | None:
    """The yearly day or month a clause with no verb means: the nearest one, unless that lies more than
    :data:`_AHEAD_AT_MOST` ahead or the words around it look back (then the last one)."""
    found = None if ctx.looking_back else nearest(make, ctx.now)
    if found is None or found.start > ctx.now + _AHEAD_AT_MOST or _LOOKS_BACK.search(
            m.string, max(0, m.start() - _LOOKS_BACK_REACH), m.start()) or _UNTIL_NOW.match(m.string, m.end()):
        return occurrence(make, ctx.now, "past") or found
    return found


def _month_year(m: re.Match[str], ctx: Context) -> Period | None:
    return month(int(m["year"]), month_number(m["month"]))


def _bare_month(m: re.Match[str], ctx: Context) -> Period | None:
    number = month_number(m["month"])
    make = lambda year: month(year, number)  # noqa: E731
    found = occurrence(make, ctx.now, ctx.tense(m)) if ctx.stated(m) else _unstated(make, ctx, m)
    return found and found._replace(floating=True)


#: What one books or plans for a month, said before "for March" in its sentence (not "book": "the book for March is
#: Dune", a reviewer's).
_BOOKED = re.compile(r"\b(?:booked|bookings?|tickets?|flights?|reservations?|reserved|planned|planning|plans?|trips?|"
                     r"holidays?|vacation|appointments?|scheduled)\b[^.!?\n]{0,40}$", re.IGNORECASE)


def _month_ahead(m: re.Match[str], ctx: Context) -> Period | None:
    """"for March" after a booking or a plan: what one books or plans for, this month or the next of that name,
    whatever the verb's tense ("Booked flights for March" in January is this March); None otherwise ("the rent for
    March was late")."""
    if not _BOOKED.search(m.string, max(0, m.start() - 60), m.start()):
        return None
    number = month_number(m["month"])
    return occurrence(lambda year: month(year, number), ctx.now, "future")


def _relative_month(m: re.Match[str], ctx: Context) -> Period | None:
    number, rel = month_number(m["month"]), m["rel"].lower()
    if rel == "this":
        return month(ctx.today.year, number)
    return occurrence(lambda year: month(year, number), ctx.now,
                      "past" if rel == "last" else "future", strict=True)


def _relative_unit(m: re.Match[str], ctx: Context) -> Period | None:
    rel = " ".join(m["rel"].lower().split())
    step = {"last": -1, "past": -1, "this past": -1, "this": 0, "next": 1}[rel]
    return shift(m["unit"].lower(), ctx.today, step)


def _before_last(m: re.Match[str], ctx: Context) -> Period | None:
    return shift(m["unit"].lower(), ctx.today, -2)


_DAY_OFFSETS = {"the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
                "last night": -1, "tomorrow": 1}  # today, tonight, this morning, ...: 0


def _named_day(m: re.Match[str], ctx: Context) -> Period | None:
    words = " ".join(m.group(0).lower().split())
    offset = next((n for start, n in _DAY_OFFSETS.items() if words.startswith(start)), 0)
    return day_period(ctx.today + timedelta(days=offset))


def _moment(ctx: Context, minutes: int) -> Period:
    moment = ctx.now.replace(second=0, microsecond=0) + timedelta(minutes=minutes)
    return Period(moment, moment + timedelta(minutes=1), "instant")


def _ago(m: re.Match[str], ctx: Context) -> Period | None:
    n, unit = count(m["n"]), m["unit"].lower()
    if unit in ("minute", "hour"):
        return _moment(ctx, -n * (60 if unit == "hour" else 1))
    if unit == "weekend":  # "two weekends ago" on a Wednesday is the weekend before the week before last
        return weekend_of_week(ctx.today, -n - 1)
    if unit == "decade":
        return year_period(ctx.today.year - 10 * n)
    return shift(unit, ctx.today, -n)


def _ahead(m: re.Match[str], ctx: Context) -> Period | None:
    if m.group(0).lower().startswith("in") and ctx.tense(m) == "past":
        return None  # "I ran 5 km in 31 minutes": a duration, not a time
    n, unit = count(m["n"]), m["unit"].lower()
    if unit in ("minute", "hour"):
        return _moment(ctx, n * (60 if unit == "hour" else 1))
    return shift(unit, ctx.today, n)


def _relative_weekday(m: re.Match[str], ctx: Context) -> Period | None:
    rel, weekday = " ".join(m["rel"].lower().split()), _weekday(m["wd"])
    if rel == "this":  # on or before today in a past clause, on or after it in a future one
        if ctx.tense(m) == "past":
            return weekday_from(ctx.today + timedelta(days=1), weekday, -1)
        return weekday_from(ctx.today - timedelta(days=1), weekday, 1)
    if rel == "last":
        return _last_weekday(ctx, weekday)
    return weekday_from(ctx.today, weekday, 1 if rel == "next" else -1)  # "this past saturday": yesterday's too


def _weekday_before_last(m: re.Match[str], ctx: Context) -> Period | None:
    return _last_weekday(ctx, _weekday(m["wd"]), weeks_before=1)


def _last_weekday(ctx: Context, weekday: int, weeks_before: int = 0) -> Period | None:
    """The day "last saturday" names, ``weeks_before`` weeks earlier ("the saturday before last"): the most recent
    before today, but for yesterday's weekday: one who meant yesterday says so; "last saturday", said on a Sunday, is
    the one before (35 of 36 such phrases the dev chats date, in 24 chats, as their writers labelled them)."""
    yesterdays = (ctx.today.weekday() - weekday) % 7 == 1
    return weekday_from(ctx.today - timedelta(days=int(yesterdays), weeks=weeks_before), weekday, -1)


def _on_weekday(m: re.Match[str], ctx: Context) -> Period | None:
    return weekday_from(ctx.today, _weekday(m["wd"]), -1 if ctx.tense(m) == "past" else 1)


#: Before "started monday": the verb opens its clause or follows its doer (not "we get started monday", "needs to be
#: finished friday", "when I've moved monday": a reviewer's).
_DONE_BY = re.compile(r"(?:^|[.!?,;:]\s*|\b(?:i|we|he|she|they|you|u)\s+(?:just\s+|finally\s+|only\s+|officially\s+)?)"
                      r"\w+\s+$", re.IGNORECASE)


#: A thing got or given up, said of it, before the day it was: "bought it tuesday", "picked her up friday".
_GOT_IT = tuple(f"{verb} {it}" for verb in ("bought", "sold") for it in ("it", "her", "him", "them")) + tuple(
    f"got {it}" for it in ("her", "him", "them")) + tuple(f"picked {it} up" for it in ("it", "her", "him", "them"))
# (not "got it": "ok got it monday then" is understood, a reviewer's)
#: Before "sold it monday": words that make the verb no past deed ("should have sold it monday", "I've got her monday
#: and tuesday", "if i sold it monday": a reviewer's).
_NOT_DONE = re.compile(r"(?:\b(?:have|has|had|be|been|being|get|gets|getting|would|should|could|might|must|gonna|"
                       r"shoulda|coulda|woulda|ive|youve|weve|theyve)|['’]ve|\bif\s+(?:\w+\s+)?)\s*"
                       r"(?:(?:just|already|finally)\s+)?(?:bought|sold|got|picked)\s+(?:it|her|him|them)\s+(?:up\s+)?$",
                       re.IGNORECASE)


def _got_on_weekday(m: re.Match[str], ctx: Context) -> Period | None:
    if _NOT_DONE.search(m.string, max(0, m.start() - 50), m.start()):
        return None
    return weekday_from(ctx.today, _weekday(m["wd"]), -1)


def _done_on_weekday(m: re.Match[str], ctx: Context) -> Period | None:
    if not _DONE_BY.search(m.string, max(0, m.start() - 40), m.start()):
        return None
    return weekday_from(ctx.today, _weekday(m["wd"]), -1)


def weekday_around(m: re.Match[str], day: date) -> Period | None:
    """``the Sunday before`` / ``after`` a given day."""
    return weekday_from(day, _weekday(m["wd"]), -1 if m["dir"].lower() == "before" else 1)


def _dotted(m: re.Match[str], ctx: Context) -> Period | None:
    return day_period(date(int(m["y"]), int(m["m"]), int(m["d"])))


def _year_alone(m: re.Match[str], ctx: Context) -> Period | None:
    return year_period(int(m["year"]))


def _year_range(m: re.Match[str], ctx: Context) -> Period | None:
    return span(year_period(int(m["y1"])), year_period(int(m["y2"])))


def _day_range(m: re.Match[str], ctx: Context) -> Period | None:
    number, first, last = month_number(m["month"]), int(m["d1"]), int(m["d2"])

    def make(year: int) -> Period | None:
        start, end = safe_date(year, number, first), safe_date(year, number, last)
        return span(day_period(start), day_period(end)) if start and end else None

    if m["year"]:
        return make(int(m["year"]))
    return occurrence(make, ctx.now, ctx.tense(m))


def _month_range(m: re.Match[str], ctx: Context) -> Period | None:
    first, last = month_number(m["m1"]), month_number(m["m2"])

    def make(year: int) -> Period | None:
        return span(month(year, first), month(year + (first > last), last))

    if m["year"]:
        return make(int(m["year"]) - (first > last))
    return occurrence(make, ctx.now, ctx.tense(m))


def _season_name(m: re.Match[str]) -> str:
    return m["season"].lower()


def _relative_season(m: re.Match[str], ctx: Context) -> Period | None:
    return _season_by(_season_name(m), " ".join(m["rel"].lower().split()), ctx)


def _season_by(name: str, rel: str, ctx: Context) -> Period | None:
    """"last summer", "this spring", "next winter" (``rel``: last, this past, this, next)."""
    make = lambda year: season(name, year)  # noqa: E731
    if rel == "this":
        current = occurrence(make, ctx.now, "past")
        return current if current and not ended(current, ctx.now) else make(ctx.today.year)
    if rel == "next":
        return occurrence(make, ctx.now, "future", strict=True)
    return occurrence(make, ctx.now, "past", strict=True)


def _season_before_last(m: re.Match[str], ctx: Context) -> Period | None:
    name = _season_name(m)
    last = occurrence(lambda year: season(name, year), ctx.now, "past", strict=True)
    return last and season(name, last.start.year - 1)


def _season_year(m: re.Match[str], ctx: Context) -> Period | None:
    return season(_season_name(m), int(m["year"]))


def _bare_season(m: re.Match[str], ctx: Context) -> Period | None:
    name = _season_name(m)
    return occurrence(lambda year: season(name, year), ctx.now, ctx.tense(m))


def _quarter(m: re.Match[str], ctx: Context) -> Period | None:
    groups = m.groupdict()
    number = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
    if m["year"]:
        return quarter(int(m["year"]), number)
    return occurrence(lambda year: quarter(year, number), ctx.now, ctx.tense(m))


def _decade(m: re.Match[str], ctx: Context) -> Period | None:
    if m["full"]:
        return decade(int(m["full"]))
    tens = int(m["short"]) // 10 if m["short"] else _DECADE_WORDS[m["word"].lower()]
    century = ctx.today.year // 100 * 100
    start = century + 10 * tens
    return decade(start if start <= ctx.today.year else start - 100)


def _holiday_name(m: re.Match[str]) -> str:
    name = " ".join(m["holiday"].lower().replace("’", "'").split())
    return "christmas" if name == "christmas day" else name


def _holiday(m: re.Match[str], ctx: Context) -> Period | None:
    make = HOLIDAYS[_holiday_name(m)]
    if m["year"]:
        return make(int(m["year"]))
    rel = (m["rel"] or "").lower()
    if rel == "this":
        return make(ctx.today.year)
    if rel:
        return occurrence(make, ctx.now, "past" if rel == "last" else "future", strict=True)
    # with no verb to say which, the nearest ("the christmas card", said on 5 December: this one, a new user's)
    return occurrence(make, ctx.now, ctx.tense(m)) if ctx.stated(m) else _unstated(make, ctx, m)


def _holidays(m: re.Match[str], ctx: Context) -> Period | None:
    return occurrence(holidays, ctx.now, ctx.tense(m)) if ctx.stated(m) else _unstated(holidays, ctx, m)


def _the_weekend(m: re.Match[str], ctx: Context) -> Period | None:
    current = weekend_of_week(ctx.today)
    if ctx.tense(m) == "future" or current.start <= ctx.now:
        return current
    return weekend_of_week(ctx.today, -1)


def _part_of_unit(m: re.Match[str], ctx: Context) -> Period | None:
    unit, today = m["unit"].lower(), day_period(ctx.today)
    whole = shift(unit, ctx.today, 0)
    if m["side"].lower() == "earlier":
        return Period(whole.start, today.start, "range") if whole.start < today.start else None
    today_end, whole_end = today.end, whole.end
    assert today_end is not None and whole_end is not None  # a day and a calendar unit are closed
    return Period(today_end, whole_end, "range") if today_end < whole_end else None


#: The part of a period a word names, as the days it covers of the period's days (a month, a week) or
#: of its months (a year, a season): "early" / "the start of", "mid" / "the middle of", "late" / "the end of".
_PART_WORDS = {"start": 0, "beginning": 0, "early": 0, "middle": 1, "mid": 1, "end": 2, "late": 2}
_WEEK_PARTS = ((0, 2), (2, 4), (4, 7))  # Monday-Tuesday, Wednesday-Thursday, Friday-Sunday


def part_of(period: Period, part: int) -> Period:
    """The first, middle or last part (``part`` 0, 1, 2) of a month, week, year or season: a
    month's days 1-10, 11-20 and 21 to its end; a week's Monday-Tuesday, Wednesday-Thursday and
    Friday-Sunday; a year's January-April, May-August, September-December; a season's months."""
    start, end = period.start, period.end
    assert end is not None  # a calendar unit is closed
    if period.granularity == "week":
        first, last = _WEEK_PARTS[part]
        bounds = start + timedelta(days=first), start + timedelta(days=last)
    elif period.granularity == "month":
        bounds = (start + timedelta(days=10 * part), end if part == 2 else start + timedelta(days=10 * part + 10))
    else:  # a year (12 months) or a season (3): a third of its months each
        months = (end.year - start.year) * 12 + end.month - start.month
        bounds = (start + relativedelta(months=months * part // 3),
                  start + relativedelta(months=months * (part + 1) // 3))
    return Period(bounds[0], bounds[1], "range", period.floating)


def _part(m: re.Match[str], ctx: Context) -> Period | None:
    """"the end of the month", "early next year", "mid-July", "late summer", "the start of 2025"."""
    words = re.findall(r"[a-z]+", m["part"].lower())
    part = next(_PART_WORDS[w] for w in words if w in _PART_WORDS)
    before = m.string[max(0, m.start() - _LOOK_BACK):m.start()]
    adverb = words[0] in ("late", "early") and (m["rel"] or m["srel"] or "").lower().startswith("this") \
        and not _TIME_GOES_HERE.search(before)
    # "spring came early this year", "i left work early this week", "june is late this year": how something
    # went, not a part of the period: the period alone is read
    if not m["year"] and not m["srel"] and not m["rel"] and (m["season"] or m["unit"]) \
            and words[-1] != "the" and _NOUN_AFTER.match(m.string, m.end()):
        return None  # "mid-year review", "end of summer sale", "early spring flowers": a noun's word
    if (m["month"] or "") == "may" and not m["year"] and "of" not in words and _MAY_AS_VERB.match(m.string, m.end()):
        return None  # "it's late may i call you": the verb, not the month (a capital May is the month)
    if m["month"] or m["season"]:
        if m["year"]:
            whole = (month(int(m["year"]), month_number(m["month"])) if m["month"]
                     else season(m["season"].lower(), int(m["year"])))
            return part_of(whole, part)
        name = m["season"] and m["season"].lower()
        make = ((lambda year: part_of(month(year, month_number(m["month"])), part)) if m["month"]
                else (lambda year: part_of(season(name, year), part)))
        if m["srel"]:  # "the end of last summer", "early next spring": the season as "last summer" reads
            named = _season_by(name, " ".join(m["srel"].lower().split()), ctx)
            return named if adverb or named is None else part_of(named, part)
        found = occurrence(make, ctx.now, ctx.tense(m)) if ctx.stated(m) or ctx.looking_back else nearest(make, ctx.now)
        return found and found._replace(floating=True)
    if m["alone"] or m["of_year"]:
        return part_of(year_period(int(m["alone"] or m["of_year"])), part)
    unit, rel = m["unit"].lower(), " ".join((m["rel"] or "").lower().split())
    step = 2 if m["after"] else {"last": -1, "this past": -1, "next": 1}.get(rel, 0)
    if adverb:
        return shift(unit, ctx.today, step)
    found = part_of(shift(unit, ctx.today, step), part)
    if not rel and not m["after"] and ctx.stated(m):
        # "the end of the month": this one, unless a verb puts it the other side of now ("we moved
        # at the end of the month", said on the 3rd: last month's; "we're redoing the kitchen at the
        # start of the year", said in October: next year's); with no verb, this one
        if ctx.tense(m) == "past" and found.start > ctx.now:
            found = part_of(shift(unit, ctx.today, -1), part)
        elif ctx.tense(m) == "future" and found.end is not None and found.end <= ctx.now:
            found = part_of(shift(unit, ctx.today, 1), part)
    return found


#: Which week or weekend of a month: counted from its start, or back from its end.
_WEEK_ORDINALS = _ORDINALS | {"last": -1, "final": -1}


def _week_of_month(m: re.Match[str], ctx: Context) -> Period | None:
    """"the first weekend of October", "the last week of June": a weekend counted by its Saturday in the
    month, a week as seven days counted from the month's first (or back from its last) day."""
    n, unit, number = _WEEK_ORDINALS[(m["ord"] or m["last"]).lower()], m["unit"].lower(), month_number(m["month"])

    def make(year: int) -> Period:
        first, after = date(year, number, 1), date(year, number, 1) + relativedelta(months=1)
        if unit == "weekend":
            last_day = after - timedelta(days=1)
            return weekend(nth_weekday(year, number, 5, n) if n > 0
                           else last_day - timedelta(days=(last_day.weekday() - 5) % 7))
        start = first + timedelta(weeks=n - 1) if n > 0 else after - timedelta(days=7)
        return Period(midnight(start), midnight(start) + timedelta(days=7), "week")

    if m["year"]:
        return make(int(m["year"]))
    found = occurrence(make, ctx.now, ctx.tense(m)) if ctx.stated(m) else _unstated(make, ctx, m)
    return found and found._replace(floating=True)


def _fortnight(m: re.Match[str], ctx: Context) -> Period | None:
    """"in a fortnight", "a fortnight ago": the calendar week two weeks after or before."""
    if m.group(0).lower().startswith("in") and ctx.tense(m) == "past" and ctx.stated(m):
        return None  # "we did it in a fortnight": how long, not when
    return shift("week", ctx.today, -2 if m.group(0).lower().endswith("ago") else 2)


#: After "early may" / "late may" / "mid may" in lower case: "may" the verb ("late may i call you").
_MAY_AS_VERB = re.compile(r"\s+(?:i|we|you|u|he|she|they|it|be|have|not|need|want|as|well|just|also|never|get|go|"
                          r"come|see|ask)\b", re.IGNORECASE)
#: How far back the words before a part of a period are read.
_LOOK_BACK = 40
#: Where "early"/"late" + "this year" (this week, this summer) names a part of the period: opening the
#: text or a clause, or after a preposition ("in late this year" is rare; "came early this year", "is
#: late this year" say how something went).
_TIME_GOES_HERE = re.compile(
    r"(?:^|[.!?;:,(]|\b(?:in|by|until|till|til|from|for|around|about|since|during|before|after|through|then|and|"
    r"but|so|maybe|probably|hopefully|or))\s*$", re.IGNORECASE)
#: A word after "mid-year", "end of summer": the phrase names a kind of thing ("review", "sale"),
#: unless the word is one a sentence goes on with.
_NOUN_AFTER = re.compile(
    r"\s*-?\s*(?!(?:and|or|but|so|then|i|we|you|u|he|she|they|it|is|was|are|were|will|at|in|on|for|to|this|that|the|"
    r"my|our|his|her|their|lol|haha|maybe|probably|ish|already|now|again|too|yet|right|though|tho|anyway|if|when|"
    r"till|til|until|with|by|before|after|be|i['’]m|we['’]re|im|once|while|because|cause|cos|since|unless|as|just)\b)"
    r"[a-z]", re.IGNORECASE)
_PART = r"(?P<part>(?:the\s+)?(?:very\s+)?(?:start|beginning|middle|end)\s+of\s+(?:the\s+)?)"
_EARLY = r"(?P<part>(?:early|late|mid)(?:\s+|\s*-\s*))"
_OF_WHAT = (rf"(?:(?:(?P<month>{_FULL_MONTH}|{_SHORT_MONTH})|(?:(?P<srel>last|this\s+past|this|next)\s+)?"
            rf"(?P<season>{_SEASON}))\b(?:,?\s+(?:of\s+)?{YEAR_NUM})?"
            rf"|{YEAR_NUM.replace('?P<year>', '?P<alone>')}(?!['’]?s\b|[a-z])"
            r"|(?:(?P<rel>last|this\s+past|this|next)\s+)?(?P<unit>week|month|year)\b"
            r"(?:(?P<after>(?<=week)\s+after\s+next\b)|(?<=year)\s+(?P<of_year>[12]\d{3})\b)?)")


@dataclass(frozen=True)
class Rule:
    """A pattern and how to resolve what it matches (``anchored``: read against a given day)."""

    pattern: re.Pattern[str]
    resolve: Callable[[re.Match[str], Context], Period | None]
    anchored: Callable[[re.Match[str], date], Period | None] | None = None


def _rule(regex: str, resolve: Callable[[re.Match[str], Context], Period | None],
          anchored: Callable[[re.Match[str], date], Period | None] | None = None) -> Rule:
    return Rule(re.compile(regex, re.IGNORECASE), resolve, anchored)


_UNIT = r"(?P<unit>minute|hour|day|weekend|week|month|quarter|year|decade)s?"

#: Every base expression.
RULES: list[Rule] = [
    _rule(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)(?:[T ](?P<clock>\d\d:\d\d(?P<sec>:\d\d"
          r"(?:\.\d+)?)?)(?:Z|[+-]\d\d:?\d\d)?)?(?![\w:-])", _iso),
    _rule(r"(?<![\d/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])", _numeric),
    _rule(r"(?<![\d/.])(?P<y>[12]\d{3})/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])", _dotted),
    _rule(r"(?<![\d/.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>[12]\d{3})(?![\d.])", _dotted),
    _rule(rf"{_DAY_NUM}\s+(?:of\s+)?(?P<month>{MONTH}){_OPT_YEAR}", _calendar_date),
    # a weekday said with the date is part of it: "FRIDAY 12 June" (read as last Friday and 12 June: a new user's),
    # "Friday, June 12", "on Sat 3 May 2025"
    _rule(rf"\b(?:on\s+)?(?:{_WEEKDAY}|{_WEEKDAY_SHORT})\.?,?\s+(?:the\s+)?{_DAY_NUM}\s+(?:of\s+)?(?P<month>{MONTH})"
          rf"{_OPT_YEAR}", _calendar_date),
    _rule(rf"\b(?:on\s+)?(?:{_WEEKDAY}|{_WEEKDAY_SHORT})\.?,?\s+(?P<month>{MONTH})\s+(?:the\s+)?{_DAY_NUM}\b{_OPT_YEAR}",
          _calendar_date),
    _rule(rf"\b(?:the\s+)?{_DAY_NUM}\s+of\s+(?P<month>{MONTH}){_OPT_YEAR}", _calendar_date),
    _rule(rf"\b(?P<month>{MONTH})\s+(?:the\s+)?{_DAY_NUM}\b{_OPT_YEAR}", _calendar_date),
    _rule(rf"(?:\bon\s+(?P<wd>{_WEEKDAY}|{_WEEKDAY_SHORT})|\b(?P<whole>{_WEEKDAY})|\b(?P<short>{_WEEKDAY_SHORT})(?=,?\s+"
          rf"the\s)),?\s+(?:the\s+)?(?P<day>[0-3]?\d)(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{MONTH})\b)",
          _weekday_ordinal),
    _rule(r"\bthe\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)\b(?!\s+(?:of\b|century|centuries|floor|"
          r"time|times|anniversary|birthday|place|row|grade|percent|street|avenue|st\b|ave\b))",
          _ordinal_day),
    _rule(rf"\b(?P<month>{MONTH}),?\s+(?:of\s+)?{YEAR_NUM}", _month_year),
    _rule(rf"{_AFTER_WORD}(?P<month>{_FULL_MONTH})\b", _bare_month),
    # "booked flights to Lisbon for March" (a new user's diary): a month booked or planned for; not a date of it
    # ("booked a table for March 3": its day), nor a month that is as often someone's name ("flowers for June"), nor
    # "the rent for March was late" (a reviewer's: no booking, a month gone by)
    _rule(r"\bfor\s+(?P<month>january|february|march|july|august|september|october|november|december)\b"
          r"(?!\s*(?:the\s+)?\d)", _month_ahead),
    _rule(rf"\b(?P<rel>last|this|next)\s+(?P<month>{_FULL_MONTH})\b", _relative_month),
    _rule(r"\b(?P<rel>last|this\s+past|past|this|next)\s+(?P<unit>weekend|week|month|quarter|"
          r"year)\b(?:['’]s\b)?", _relative_unit),
    _rule(r"\b(?:the\s+)?(?P<unit>weekend|week|month|year)\s+before\s+last\b", _before_last),
    _rule(r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|today|tonight"
          r"|(?:yesterday|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?"
          r"|last\s+night|this\s+(?:morning|afternoon|evening))\b", _named_day),
    _rule(rf"\b(?P<n>\d{{1,4}}|{_NUMBER})\s+{_UNIT}\s+(?:ago|back)\b", _ago),
    _rule(r"\bhalf\s+an\s+hour\s+ago\b", lambda m, ctx: _moment(ctx, -30)),
    _rule(rf"\bin\s+(?P<n>\d{{1,4}}|{_NUMBER})\s+{_UNIT}\b(?!\s+ago\b)", _ahead),
    _rule(rf"\b(?P<n>\d{{1,4}}|{_NUMBER})\s+{_UNIT}\s+from\s+now\b", _ahead),
    _rule(rf"\b(?P<rel>last|next|this\s+past|this)\s+(?P<wd>{_WEEKDAY}){_PART_OF_DAY}\b",
          _relative_weekday),
    _rule(rf"\b(?P<wd>{_WEEKDAY})\s+before\s+last\b", _weekday_before_last),
    _rule(rf"\bon\s+(?P<wd>{_WEEKDAY}){_PART_OF_DAY}\b", _on_weekday),
    _rule(rf"{_after('since', 'until', 'till', 'by', 'is', 'was', 'be', 'from')}(?P<wd>{_WEEKDAY})"
          rf"{_PART_OF_DAY}\b", _on_weekday),
    # right after a verb in the past said by its doer, the day it was done: "started monday", "we moved saturday"
    _rule(rf"{_after('started', 'began', 'moved', 'arrived', 'landed', 'flew', 'quit')}"
          rf"(?P<wd>{_WEEKDAY}){_PART_OF_DAY}\b", _done_on_weekday),
    # and after a thing got or given up, said of it: "sold it monday", "picked him up wednesday", "got her saturday"
    _rule(rf"{_after(*_GOT_IT)}(?P<wd>{_WEEKDAY}){_PART_OF_DAY}\b", _got_on_weekday),
    _rule(rf"\bthe\s+(?P<wd>{_WEEKDAY})\s+(?P<dir>before|after)\b",
          lambda m, ctx: weekday_around(m, ctx.today), weekday_around),
    _rule(rf"{_AFTER_WORD}{YEAR_NUM}", _year_alone),
    _rule(rf"\b(?:from|between)\s+(?P<y1>[12]\d{{3}})(?:{TO}|\s+and\s+)(?P<y2>[12]\d{{3}})\b",
          _year_range),
    _rule(rf"\b{_RANGE_LEAD}(?P<month>{MONTH})\s+(?P<d1>[0-3]?\d){_ORD}{TO}(?P<d2>[0-3]?\d)"
          rf"{_ORD}\b{_OPT_YEAR}", _day_range),
    _rule(rf"\b{_RANGE_LEAD}(?P<d1>[0-3]?\d){_ORD}{TO}(?P<d2>[0-3]?\d){_ORD}\s+(?:of\s+)?"
          rf"(?P<month>{MONTH}){_OPT_YEAR}", _day_range),
    _rule(rf"\b(?:from|between)\s+(?P<m1>{_FULL_MONTH})(?:{TO}|\s+and\s+)(?P<m2>{_FULL_MONTH})\b"
          rf"{_OPT_YEAR}", _month_range),
    _rule(rf"\b(?P<rel>last|this\s+past|past|this|next)\s+(?P<season>{_SEASON})\b",
          _relative_season),
    _rule(rf"\b(?:the\s+)?(?P<season>{_SEASON})\s+(?:of\s+)?{YEAR_NUM}", _season_year),
    _rule(rf"\b(?:the\s+)?(?P<season>{_SEASON})\s+before\s+last\b", _season_before_last),
    _rule(rf"{_after('in', 'during', 'over', 'through', 'throughout', 'since', 'for', 'all', 'that')}"
          rf"(?:the\s+)?(?P<season>{_SEASON})\b(?!\s+(?:of\s+)?[12]\d{{3}})", _bare_season),
    _rule(rf"\bQ(?P<q>[1-4])(?:\s+(?:of\s+)?{YEAR_NUM}|\b)", _quarter),
    _rule(r"\b(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\b"
          rf"(?:\s+of\s+{YEAR_NUM})?", _quarter),
    _rule(r"\bthe\s+(?:(?P<full>(?:1[0-9]|20)\d0)['’]?s|['’]?(?P<short>\d0)['’]?s"
          rf"|(?P<word>{'|'.join(_DECADE_WORDS)}))\b", _decade),
    _rule(rf"\b(?:(?P<rel>last|this|next)\s+)?(?P<holiday>{_HOLIDAY})(?:\s+{YEAR_NUM})?\b",
          _holiday),
    _rule(r"\bthe\s+(?:christmas\s+|winter\s+)?holidays\b", _holidays),
    _rule(rf"{_after('over', 'on', 'at', 'during', 'for', 'spent', 'spend', 'all', 'since')}"
          r"the\s+weekend\b", _the_weekend),
    _rule(r"\b(?P<side>earlier|later)\s+this\s+(?P<unit>week|month|year)\b", _part_of_unit),
    _rule(rf"\b{_PART}{_OF_WHAT}", _part),
    _rule(rf"\b{_EARLY}{_OF_WHAT}", _part),
    _rule(rf"\b(?:(?:the\s+)?(?P<ord>{'|'.join(_ORDINALS)})|the\s+(?P<last>last|final))\s+(?P<unit>weekend|week)\s+"
          rf"(?:of|in)\s+(?P<month>{MONTH}){_OPT_YEAR}", _week_of_month),  # ("last week in april": last week, april)
    _rule(r"\b(?:in\s+a\s+fortnight(?:['’]s\s+time)?|a\s+fortnight\s+ago)\b", _fortnight),
    _rule(r"\bthe\s+(?P<unit>week|weekend)\s+after\s+next\b", lambda m, ctx: shift(m["unit"].lower(), ctx.today, 2)),
]

__all__ = ["Context", "RULES", "Rule", "TO"]
