"""The command line's printing: JSON for machines, plain-text tables and lines for people.

The JSON shapes are :mod:`graphmem.core.json_shapes`, shared with the explorer and the MCP
server (re-exported here for the commands). JSON is always UTC (ISO 8601 with ``Z``), the same
for every store. What people read shows times in the zone set by :func:`use_zone` for the
running command (the CLI sets the store's zone, or UTC with ``--utc``): in ISO form in messages
(``2026-11-30T22:55:08Z``, ``2026-11-30T23:55:08+01:00``) and shortened in tables
(``2026-11-30``, ``2026-11-30 23:55``). Tables fit the terminal's width
(:mod:`graphmem.cli.layout`). Nothing here imports a styling library or the models' validation
machinery: printing a table costs milliseconds, not an import of rich.

Internal: the command line's printing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Any

import click

from ..core.json_shapes import (
    HISTORY_EXTRA,
    VERSION_FIELDS,
    answer_record,
    change_record,
    cited_ids,
    episode_record,
    hit_record,
    jsonable,
    shown_record,
    source_records,
    version_record,
)
from ..core.times import is_utc_name
from .layout import Column, clean, table, text_width, wrap

if TYPE_CHECKING:
    from ..models import Episode, Version

__all__ = ["HISTORY_EXTRA", "PIPE_WIDTH", "Progress", "VERSION_FIELDS", "Visible", "answer_record", "change_record",
    "cited_ids",
    "dump_json", "episode_record", "hit_record", "json_text", "jsonable", "period", "period_parts", "plain",
    "print_table", "progress", "say", "short", "short_parts", "shown_record", "source_records", "unescaped",
    "use_zone", "version_record", "versions_table", "visible", "when", "width", "zone_name"]

_ZONE = "graphmem.zone"  # the key of the shown zone in the click context's meta
#: Width of tables when the output is not a terminal and COLUMNS is not set (a file, a pipe).
PIPE_WIDTH = 160

# -- JSON ---------------------------------------------------------------------------------------


def dump_json(items: Iterable) -> None:
    """Print a JSON array (models are dumped with ISO 8601 UTC times)."""
    rows = [item.model_dump(mode="json") if hasattr(item, "model_dump") else item for item in items]
    sys.stdout.write(json_text(rows) + "\n")


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON text (made ready by :func:`jsonable`: NaN and infinities, which JSON has no
    number for, as strings) with no raw control character: json escapes C0 itself; DEL and the C1
    controls (a terminal reads ``\\x9b`` as ESC ``[``) become ``\\u`` escapes here."""
    text = json.dumps(jsonable(value), indent=indent, ensure_ascii=False, allow_nan=False)
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# -- no raw control character on a terminal --------------------------------------------------------

#: Control characters a terminal may act on: C0 but tab and newline, DEL, C1.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_C1 = re.compile(r"[\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline shown as ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class Visible:
    """A text stream that shows control characters visibly (:func:`visible`) and passes
    everything else to the stream it wraps: the command line writes through it, whatever the
    format, so text from a store, a file or an argument never drives the terminal. ``unescaped``
    is the wrapped stream (a progress bar's own escape sequences; a protocol on stdout)."""

    def __init__(self, stream):
        self.unescaped = stream

    def write(self, text: str) -> int:
        self.unescaped.write(visible(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unescaped, name)


def unescaped(stream):
    """The stream a :class:`Visible` wraps (``stream`` itself when it wraps none)."""
    return getattr(stream, "unescaped", stream)


# -- times as people read them ---------------------------------------------------------------


def use_zone(zone: tzinfo, name: str) -> None:
    """Show times to people in ``zone`` (called ``name``) for the rest of the running command (the
    zone is kept on the command's click context, not in this module)."""
    click.get_current_context().meta[_ZONE] = (zone, name)


def _shown() -> tuple[tzinfo, str]:
    context = click.get_current_context(silent=True)
    return context.meta.get(_ZONE, (UTC, "UTC")) if context is not None else (UTC, "UTC")


def zone_name() -> str:
    """The name of the zone times are shown in."""
    return _shown()[1]


def when(value: datetime | None) -> str | None:
    """A time in ISO 8601, in the zone times are shown in (``Z`` for UTC; in another zone its offset, ``+00:00`` too:
    London's winter and summer written alike, not "Z" beside "+01:00"); None stays None."""
    if value is None:
        return None
    zone, name = _shown()
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") and is_utc_name(name) else text



#: A time in UTC as the store's messages write one: "2026-12-05T10:26:39.979664Z".
_UTC_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?Z\b")


def in_zone(message: str) -> str:
    """``message`` with each time written in UTC shown in the zone times are shown in (a store's errors and notes
    name times in UTC; a person in Berlin reads Berlin's)."""
    if _shown()[0] is UTC:
        return message

    def local(m: re.Match[str]) -> str:
        try:
            return when(datetime.fromisoformat(m.group()[:-1] + "+00:00")) or m.group()
        except ValueError:
            return m.group()
    return _UTC_TIME.sub(local, message)


def short(value: datetime | None) -> str:
    """A time shortened for a table cell: the date alone at local midnight, else to the minute
    (seconds when it has them); ``open`` for an open end."""
    if value is None:
        return "open"
    local = value.astimezone(_shown()[0])
    day = local.date().isoformat()  # (strftime's %Y leaves a year before 1000 unpadded: "1-12-12")
    if (local.hour, local.minute, local.second, local.microsecond) == (0, 0, 0, 0):
        return day
    return f"{day} {local:%H:%M}" if local.second == 0 and not local.microsecond else f"{day} {local:%H:%M:%S}"


def short_parts(value: datetime) -> tuple[str, ...]:
    """A time as table parts: the date, and the clock when :func:`short` shows one (a narrow
    column puts the clock under the date, never breaking either)."""
    return tuple(short(value).split(" "))


def period(start: datetime | None, end: datetime | None) -> str:
    """A half-open period as readable text: ``2020-01-01 → 2026-10-15``, ``… → open``."""
    return " ".join(period_parts(start, end))


def period_parts(start: datetime | None, end: datetime | None) -> tuple[str, str]:
    """A period's two ends as table parts (put one under the other in a narrow column)."""
    return (short(start) if start is not None else "…", f"→ {short(end)}")


# -- lines and tables ---------------------------------------------------------------------------


def width() -> int:
    """The width tables fit: COLUMNS when set, else the terminal's, else PIPE_WIDTH."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    if sys.stdout.isatty():
        return shutil.get_terminal_size((80, 24)).columns
    return PIPE_WIDTH


def plain(text: str) -> None:
    """Print a line (control characters escaped: stored text never drives the terminal)."""
    sys.stdout.write(clean(text) + "\n")


def say(text: str, *, indent: int = 0, label: str = "", hang: int = 0) -> None:
    """Print a message wrapped to :func:`width` (a title, a note): prose, not a table. With
    ``indent``, the text starts that many cells in (after ``label``, padded to it) and its lines
    stay under it, the lines after the first ``hang`` cells further in."""
    label = clean(label)
    for n, line in enumerate(wrap(clean(text), max(width() - indent - hang, 1))):
        lead = label + " " * max(indent - text_width(label), 0) if n == 0 else " " * (indent + hang)
        sys.stdout.write(lead + line + "\n")


def print_table(columns: Sequence[Column], rows: Sequence[Sequence], title: str | None = None, *,
                details: Sequence[Sequence[str]] | None = None) -> None:
    """Print rows as a table that fits :func:`width`; say which columns a narrow terminal left out."""
    laid = table(columns, rows, width(), details=details)
    if title:
        say(title)
    sys.stdout.write("\n".join(laid.lines) + "\n")
    if laid.left_out:
        say(f"({', '.join(laid.left_out)} left out to fit {width()} columns; --json has every field)")


def _status(v: Version) -> str:
    status: str = v.status or ""
    if v.status == "retracted" and v.reason:
        status += f" ({v.reason})"
    if v.status in ("retracted", "superseded") and v.superseded_by:
        status += f" → {', '.join(v.superseded_by)}"  # a correction's replacement, as a supersession's
    return status


def _sources(v: Version, episodes: dict[str, Episode]) -> list[str]:
    return [f"{e} {episodes[e].kind}: “{episodes[e].text}”" for e in v.episodes if e in episodes]


def versions_table(versions: list[Version], title: str, episodes: dict[str, Episode] | None = None, *,
                   about: bool = True) -> None:
    """Print versions as a table, essential columns first (id, what, valid period, status), the
    transaction period when there is room; with ``episodes``, each version's source sentences
    beneath it. ``about=False`` leaves out subject and predicate (a history names them once)."""
    if not versions:
        say(f"{title}: nothing")
        return
    columns = [Column("id", "keep"),
               *([Column("subject", least=8), Column("predicate", least=8)] if about else []),
               Column("object", least=8), Column("valid", "parts"), Column("status", "wrap", least=10),
               Column("believed", "parts", optional=True)]
    rows = [[v.id, *([v.subject, v.predicate] if about else []), v.object, period_parts(v.valid_from, v.valid_to),
             _status(v), period_parts(v.recorded_at, v.superseded_at)] for v in versions]
    details = [_sources(v, episodes) for v in versions] if episodes is not None else None
    print_table(columns, rows, f"{title} (times in {zone_name()})", details=details)


class Progress:
    """What long work reports to a progress bar: :meth:`advance` by a count, or :meth:`update` to
    a count of a total, with the phase under way. Silent unless stderr is a terminal."""

    def __init__(self, bar=None, task=None):
        self._bar, self._task = bar, task

    def advance(self, count: int = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, count)

    def update(self, done: int, total: int | None = None, phase: str | None = None) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total,
                             **({"description": phase} if phase else {}))


@contextmanager
def progress(label: str) -> Iterator[Progress]:
    """A transient progress bar on stderr while long work runs (a spinner and the time taken
    until the work reports counts), shown only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield Progress()
        return
    from rich.console import Console
    from rich.progress import Progress as Bar

    bar = Bar(*Bar.get_default_columns(), transient=True, console=Console(file=unescaped(sys.stderr)))
    with bar:
        yield Progress(bar, bar.add_task(label, total=None))
