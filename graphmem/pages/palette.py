"""Colours and the small text formats shared by every page.

Internal: the pictures (:mod:`visualize`) and the explorer colour their pages from here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, tzinfo
from functools import cache
from typing import Any, overload
from zoneinfo import ZoneInfo, available_timezones

from ..core.times import is_utc_name

__all__ = ["CLOSED_STATUSES", "STATUS_COLOURS", "epoch_ms", "kind_colour", "kind_legend", "palette_css", "period",
           "shown_in", "status_colour", "status_legend", "when", "zone_name"]

#: Edge and bar colour for each status, with a short meaning for the legend.
STATUS_COLOURS: dict[str, tuple[str, str]] = {
    "current": ("#2e7d32", "believed, valid at that time"),
    "upcoming": ("#1565c0", "believed, starts after that time"),
    "ended": ("#8d6e63", "believed, over by that time"),
    "superseded": ("#ef6c00", "replaced by a later write"),
    "retracted": ("#c62828", "withdrawn as never true"),
    "pending": ("#7b1fa2", "awaiting review"),
    "rejected": ("#616161", "rejected in review"),
}
#: Statuses drawn dashed: the store no longer believes them.
CLOSED_STATUSES = frozenset({"superseded", "retracted", "rejected"})

KIND_COLOURS: dict[str, str] = {
    "person": "#5c6bc0",
    "place": "#26a69a",
    "organisation": "#ffa726",
    "organization": "#ffa726",
    "thing": "#d4a373",
    "value": "#bdbdbd",
    "literal": "#bdbdbd",
    "role": "#8d6e63",
    "animal": "#ec407a",
    "entity": "#90a4ae",
}
_SPARE_COLOURS = ["#ab47bc", "#ec407a", "#29b6f6", "#9ccc65", "#ffca28", "#78909c", "#d4e157"]


def status_colour(status: str | None) -> str:
    """The colour for a status (grey when unknown)."""
    return STATUS_COLOURS.get(status or "", ("#9e9e9e", ""))[0]


def kind_colour(kind: str) -> str:
    """A stable colour for an entity kind: a fixed one for common kinds, else hashed."""
    if kind in KIND_COLOURS:
        return KIND_COLOURS[kind]
    digest = hashlib.sha256(kind.encode()).digest()
    return _SPARE_COLOURS[digest[0] % len(_SPARE_COLOURS)]


def status_legend(statuses: Iterable[str | None]) -> list[dict[str, Any]]:
    """Legend rows for the given statuses, in the canonical order."""
    wanted = set(statuses)
    return [
        {"name": name, "colour": colour, "meaning": meaning, "dashed": name in CLOSED_STATUSES}
        for name, (colour, meaning) in STATUS_COLOURS.items()
        if name in wanted
    ]


def kind_legend(kinds: Iterable[str]) -> list[dict[str, str]]:
    """Legend rows for the given entity kinds, sorted by name."""
    return [{"name": kind, "colour": kind_colour(kind)} for kind in sorted(set(kinds))]


#: The zone a page being drawn shows its times in, and its name (UTC unless :func:`shown_in` says otherwise).
_ZONE: ContextVar[tuple[tzinfo, str]] = ContextVar("graphmem_page_zone", default=(UTC, "UTC"))


@contextmanager
def shown_in(zone: tzinfo, name: str) -> Iterator[None]:
    """Draw the pages made inside in ``zone`` (called ``name``): a store's pictures show its own zone, as its command
    line and explorer do (a new user's: a Europe/London store's pictures said "14:31Z"). A name a browser may not
    know is shown as the zone it names ("posix/Asia/Tokyo": Asia/Tokyo), or as UTC ("localtime", "Factory"), so the
    page's script and its text agree (a reviewer's)."""
    shown = page_zone(name)
    if shown != name:
        zone = UTC if shown == "UTC" else ZoneInfo(shown)
    token = _ZONE.set((zone, shown))
    try:
        yield
    finally:
        _ZONE.reset(token)


def page_zone(name: str) -> str:
    """The IANA name a page's script is given for the zone called ``name``: itself, without a "posix/" or "right/"
    prefix; "UTC" for UTC however written, and for a name outside the IANA list."""
    plain = name.strip().removeprefix("posix/").removeprefix("right/")
    if is_utc_name(plain):
        return "UTC"
    return plain if plain in _iana() else "UTC"


@cache
def _iana() -> frozenset[str]:
    """The zone names of the IANA list, without those of this machine alone ("localtime") or of none ("Factory")."""
    return frozenset(available_timezones()) - {"localtime", "Factory"}


def zone_name() -> str:
    """The name of the zone pages drawn now show their times in ("UTC", "Europe/London")."""
    return _ZONE.get()[1]


def when(moment: datetime | None, open_text: str = "open") -> str:
    """A time for people: the date alone at midnight, else date and minute; in UTC with a Z, in another zone by its
    clock (the page says which zone: :func:`zone_name`)."""
    if moment is None:
        return open_text
    zone, name = _ZONE.get()
    moment = moment.astimezone(zone)
    if (moment.hour, moment.minute, moment.second, moment.microsecond) == (0, 0, 0, 0):
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%Y-%m-%d %H:%M") + ("Z" if name == "UTC" else "")


def period(start: datetime, end: datetime | None) -> str:
    """A half-open period as text, e.g. '2020-01-01 → 2026-10-15' or '2026-10-15 → open'."""
    return f"{when(start)} → {when(end)}"


def palette_css(kinds: list[str]) -> str:
    """CSS classes carrying each status colour and each kind's colour (``kind-1`` ... in order).

    Generated rather than written as style attributes, which the page's content policy forbids.
    """
    rules = [f".status-{name}{{--colour:{colour}}}"
             for name, (colour, _) in STATUS_COLOURS.items()]
    rules += [f".kind-{index}{{--colour:{kind_colour(kind)}}}"
              for index, kind in enumerate(kinds, 1)]
    return "\n".join(rules)


@overload
def epoch_ms(moment: datetime) -> int: ...
@overload
def epoch_ms(moment: None) -> None: ...
def epoch_ms(moment: datetime | None) -> int | None:
    """A time as milliseconds since 1970 (what the pages' scripts take); None stays None."""
    return None if moment is None else round(moment.timestamp() * 1000)
