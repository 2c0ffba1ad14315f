"""Times at the boundary: parse user input, normalise to UTC, and map open ends.

The engines store TIMESTAMP without zone and silently drop an offset, so every
time is converted to naive UTC before it is bound and back to aware UTC after
it is read. Open ends (``valid_to`` / ``superseded_at`` of None) are stored as
a far-future sentinel so time filters need no ``IS NULL OR`` (slow on kuzu).

Internal: the accepted time forms are :data:`graphmem.TimeLike`; :class:`graphmem.Store` reads them.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import overload
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..errors import InvalidTime

__all__ = ["ALL", "FUTURE_SLACK", "MIN_TIME", "OPEN_END", "TICK", "TimeLike", "UTC", "from_engine", "in_range", "iso",
           "is_utc_name", "optional_time", "parse_time", "same_zone", "stored", "to_engine", "too_far_ahead", "zone"]

#: The word for "at any valid time" where a valid time is asked (``valid_at="all"``).
ALL = "all"
#: Stored in place of an open end. Users may not write times at or after it.
OPEN_END = datetime(9999, 12, 31)
#: Earliest and latest time a user may give (the engines misbehave far outside).
MIN_TIME = datetime(1, 1, 2, tzinfo=UTC)
MAX_TIME = datetime(9999, 1, 1, tzinfo=UTC)
TICK = timedelta(microseconds=1)
#: How far past the wall clock a transaction time may be unless a future one is allowed: a store
#: whose latest write is in the future takes no write before that time again.
FUTURE_SLACK = timedelta(days=1)
#: Every form a time may be given in: a datetime (naive: in the store's zone), a date (the start of
#: that day), or text (ISO 8601, "now", or a phrase such as "yesterday" or "2 weeks ago").
TimeLike = datetime | date | str


def zone(name: str | tzinfo) -> tzinfo:
    """Return the tzinfo for a zone name such as 'UTC' or 'Europe/Berlin' (a tzinfo is returned as it is)."""
    if not isinstance(name, str):
        return name
    if name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        near = _zone_like(name)
        hint = f"; did you mean {near!r}?" if near else ""
        raise InvalidTime(f"unknown time zone {name!r}; use an IANA name like 'Europe/Berlin'{hint}") from exc


#: Zones people name by the letters clocks show, which the IANA database does not know (or knows as another zone):
#: where one zone is plainly meant, it; "CST" or "IST" name several and get none.
_ABBREVIATIONS = {"KST": "Asia/Seoul", "JST": "Asia/Tokyo", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore",
                  "PHT": "Asia/Manila", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
                  "EDT": "America/New_York", "CEST": "Europe/Paris", "AEST": "Australia/Sydney",
                  "AEDT": "Australia/Sydney", "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
                  "WIB": "Asia/Jakarta", "SAST": "Africa/Johannesburg", "EAT": "Africa/Nairobi", "WAT": "Africa/Lagos"}


def _zone_like(name: str) -> str | None:
    """The zone a mistyped name most likely meant ("Asia/Seol": "Asia/Seoul"; "KST": "Asia/Seoul"), or None."""
    import difflib
    from zoneinfo import available_timezones

    typed = name.strip()
    if typed.upper() in _ABBREVIATIONS:
        return _ABBREVIATIONS[typed.upper()]
    zones = {z.lower(): z for z in available_timezones() if "/" in z and not z.startswith("Etc/")}  # (Etc/GMT+2 is
    # UTC-2: never offered for a number mistyped)
    key = typed.lower().replace(" ", "_")
    cities = [z for z in zones.values() if z.rsplit("/", 1)[1].lower() == key]
    if len(cities) == 1:
        return cities[0]  # "Seoul"
    near = difflib.get_close_matches(key, list(zones), n=1, cutoff=0.8)
    return zones[near[0]] if near else None


def is_utc_name(name: str) -> bool:
    """Whether a zone called ``name`` is UTC itself, however written ("UTC", "utc", "Etc/UTC", "Zulu")."""
    return name.strip().upper().removeprefix("ETC/") in {"UTC", "UCT", "ZULU", "UNIVERSAL", "Z"}


def same_zone(a: tzinfo, b: tzinfo) -> bool:
    """Whether two zones read every time alike, whatever they are called ("UTC", "Etc/UTC" and "GMT"; "GB" and
    "Europe/London"): the same offset every six hours from 1970 to 2037 (Asia/Gaza and Asia/Jerusalem agree at
    noon each January and July and differ on hundreds of days)."""
    if a == b:
        return True
    moment, last, step = datetime(1970, 1, 1, tzinfo=UTC), datetime(2038, 1, 1, tzinfo=UTC), timedelta(hours=6)
    while moment < last:
        if moment.astimezone(a).utcoffset() != moment.astimezone(b).utcoffset():
            return False
        moment += step
    return True


#: Full ISO 8601 times with seconds and an offset, as :func:`iso` writes them; read alike by the
#: standard library and by dateutil.
#: Only hours 00-23, minutes and seconds 00-59 and offsets up to ±23:59 take this path: the two
#: read 24:00 and an offset's minutes past 59 differently; such text goes to dateutil as before.
_CANONICAL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
                        r"(\.[0-9]{1,6})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])")


def parse_time(value: TimeLike, tz: tzinfo = UTC) -> datetime:
    """Read a user time (datetime, date, ISO 8601 text or 'now') as an aware UTC datetime.

    Naive times and bare dates are read in ``tz``; a bare date is the start of that day.
    """
    if isinstance(value, str):
        text = value.strip()
        if text.lower() == "now":
            return datetime.now(UTC)
        try:
            if _CANONICAL.fullmatch(text):  # the form the store writes: read without loading dateutil
                value = datetime.fromisoformat(text)
            else:
                from dateutil import parser as dateparser  # here: a command given no time never loads it

                value = dateparser.isoparse(text)
        except (ValueError, OverflowError) as exc:
            raise InvalidTime(
                f"cannot read {value!r} as a time; use ISO 8601 like 2026-10-15 or 2026-10-15T09:30:00Z"
            ) from exc
    elif isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if not isinstance(value, datetime):
        raise InvalidTime(f"expected a time, got {type(value).__name__}")
    if value.tzinfo is None:
        value = value.replace(tzinfo=tz)
    try:
        result = value.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        try:
            shown = value.isoformat()
        except (OverflowError, ValueError):  # an offset of a day or more ("+25:00"): no ISO form to show
            shown = f"{value.replace(tzinfo=None).isoformat()} with a UTC offset of 24 hours or more"
        raise InvalidTime(f"time {shown} is out of range") from exc
    if not MIN_TIME <= result < MAX_TIME:
        raise InvalidTime(
            f"time {iso(result)} is out of range; times must fall between 0001-01-02T00:00:00Z and the end "
            "of 9998 (UTC)"
        )
    return result


def too_far_ahead(value: datetime) -> datetime | None:
    """The wall clock's time when ``value`` is more than :data:`FUTURE_SLACK` past it, else None."""
    now = datetime.now(UTC)
    return now if value > now + FUTURE_SLACK else None


def in_range(value: datetime) -> bool:
    """True when an aware time lies where the store can hold it: ``MIN_TIME <= value < MAX_TIME``.

    From its year alone where it can: a zone moves a time by less than a day, so a year from 2
    to 9997 is in range whatever the zone; only near the ends is the (slower) aware comparison
    needed.
    """
    return 2 <= value.year <= 9997 or MIN_TIME <= value < MAX_TIME


def optional_time(value: TimeLike | None, tz: tzinfo = UTC) -> datetime | None:
    """Like :func:`parse_time`, but None stays None."""
    return None if value is None else parse_time(value, tz)


def to_engine(value: datetime | None) -> datetime:
    """Aware UTC time (or None for an open end) as the naive UTC value the engine stores."""
    if value is None:
        return OPEN_END
    if value.tzinfo is not UTC:  # (UTC already: a write's own times, most of what it converts)
        value = value.astimezone(UTC)
    return value.replace(tzinfo=None)


def stored(value: datetime) -> datetime:
    """A naive UTC value read from the engine that is never an open end (a start) as aware UTC."""
    return value.replace(tzinfo=UTC)


def from_engine(value: datetime | None) -> datetime | None:
    """Naive UTC value read from the engine as an aware UTC time (the sentinel as None)."""
    if value is None or value >= OPEN_END:
        return None
    return value.replace(tzinfo=UTC)


@overload
def iso(value: datetime) -> str: ...
@overload
def iso(value: None) -> None: ...
def iso(value: datetime | None) -> str | None:
    """ISO 8601 text in UTC with a 'Z', or None for an open end."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
