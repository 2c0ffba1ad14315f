"""Plain-text tables that fit a terminal: column widths, wrapping, and truncation with an ellipsis.

Pure functions over strings (no terminal, no styling library): :func:`table` lays rows out in a
given number of columns. Each column says how it may give up width: ``keep`` (ids, short
values: never narrowed), ``parts`` (a cell given as parts, e.g. the two ends of a period or the
date and clock of a time: a narrow column puts as many whole parts on a line as fit, never
breaking one), ``wrap`` (text broken onto more lines) or ``cut`` (each line truncated with
``…``). Columns marked ``optional`` are left out, from the last, when the table cannot fit
otherwise, and so are columns marked ``beneath``, whose values then go on a line of their own
beneath each row (``name: value``). A table first tries to fit with every header whole and no
essential ``cut`` column cut, leaving out (or moving beneath) what it must for that; then with
headers whole; then with headers cut too. An optional column is never shown while an essential
column's text is cut, nor an empty one while any column is narrowed. When even the narrowest
widths do not fit, each row is shown as a record (one ``name  value`` line per column, values
wrapped), which fits any width. Widths are counted in terminal cells: East Asian wide characters
take two, combining marks none; control characters are shown escaped, never sent to the terminal.

Internal: the command line's tables.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

__all__ = ["Column", "Layout", "clean", "cut", "table", "text_width", "wrap"]

Fit = Literal["keep", "parts", "wrap", "cut"]
ELLIPSIS = "…"
GAP = "  "
RULE = "─"
DETAIL_LINES = 6  # lines of one detail (a long source text) before the rest is cut with …


@dataclass(frozen=True)
class Column:
    """One column: its header, how it gives up width, the narrowest it may get, and whether the
    table may leave it out (``optional``) or print its values beneath each row (``beneath``)
    when it cannot fit otherwise."""

    name: str
    fit: Fit = "cut"
    least: int = 6
    optional: bool = False
    most_lines: int | None = None  # for ``wrap``: lines kept before the rest is cut with …
    beneath: bool = False


@dataclass(frozen=True)
class Layout:
    """The lines of a laid-out table, and the optional columns it had to leave out."""

    lines: list[str]
    left_out: list[str]


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=4096)
def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


@lru_cache(maxsize=16384)  # a table asks for the same cells' widths several times over
def text_width(text: str) -> int:
    """How many terminal cells ``text`` takes on one line."""
    if text.isascii():
        return len(text)
    return len(text) + sum(_char_width(ch) - 1 for ch in _NON_ASCII.findall(text))


def clean(text: str) -> str:
    """Text safe to print: control characters (other than line breaks) shown as ``\\xNN`` escapes,
    so stored text can never move the cursor or recolour the terminal."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == "\n" or ch.isprintable() or ch == " " or unicodedata.category(ch) not in ("Cc", "Cs"):
            out.append(ch)
        else:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
    return "".join(out)


def _take(text: str, width: int) -> str:
    """The longest start of ``text`` that fits in ``width`` cells (at least one character)."""
    used = 0
    for n, ch in enumerate(text):
        used += _char_width(ch)
        if used > width:
            return text[:max(n, 1)]
    return text


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its end replaced by ``…`` when it is longer."""
    if text_width(text) <= width:
        return text
    return (_take(text, width - 1) if width > 1 else "") + ELLIPSIS


def wrap(text: str, width: int, most_lines: int | None = None) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells: at spaces where it can, inside a
    word longer than a line where it must. With ``most_lines``, the lines after that many are
    left out and the last kept one ends with ``…``."""
    width = max(width, 1)
    if most_lines is not None:  # a long text is not wrapped in full only to be cut
        text = text[:(most_lines + 1) * width * 2]
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in paragraph.split(" "):
            size = text_width(word)
            if line and used + 1 + size <= width:
                line, used = f"{line} {word}", used + 1 + size
                continue
            if line:
                lines.append(line)
            while size > width:
                head = _take(word, width)
                lines.append(head)
                word = word[len(head):]
                size = text_width(word)
            line, used = word, size
        lines.append(line)
        if most_lines is not None and len(lines) > most_lines:
            break
    if most_lines is not None and len(lines) > most_lines:
        lines = [*lines[:most_lines - 1], cut(lines[most_lines - 1] + " " + ELLIPSIS, width)]
    return lines


def _cell_lines(value: str | Sequence[str], column: Column, width: int) -> list[str]:
    if column.fit == "parts":  # as many whole parts on a line as fit, a part never broken
        lines: list[str] = []
        for part in [value] if isinstance(value, str) else value:
            if lines and text_width(lines[-1]) + 1 + text_width(part) <= width:
                lines[-1] += " " + part
            else:
                lines.append(part)
        return [cut(line, width) for line in lines] or [""]
    text = value if isinstance(value, str) else " ".join(value)
    if "\n" not in text and text_width(text) <= width and not (column.fit == "wrap" and text.startswith(" ")):
        return [text]  # most cells: one line that fits (wrapping would drop leading spaces)
    if column.fit == "wrap":
        return wrap(text, width, column.most_lines)
    return [cut(line, width) for line in text.split("\n")]


def _natural(value: str | Sequence[str], column: Column) -> tuple[int, int]:
    """The widest a cell wants to be, and the narrowest it can be without losing its shape."""
    if column.fit == "parts" and not isinstance(value, str):
        parts = list(value)
        return text_width(" ".join(parts)), max((text_width(p) for p in parts), default=0)
    text = value if isinstance(value, str) else " ".join(value)
    widest = max((text_width(line) for line in text.split("\n")), default=0)
    return widest, widest if column.fit == "keep" else min(widest, column.least)


def _fit(wants: list[int], floors: list[int], room: int) -> list[int] | None:
    """Widths no wider than ``wants`` and no narrower than ``floors`` that sum to at most ``room``:
    the widest columns give up width first. None when even the floors do not fit."""
    if sum(floors) > room:
        return None
    if sum(wants) <= room:
        return list(wants)
    low, high = 0, max(wants)
    while low < high:  # the largest cap c such that the columns capped at c (not below their floor) fit
        cap = (low + high + 1) // 2
        if sum(max(f, min(w, cap)) for w, f in zip(wants, floors)) <= room:
            low = cap
        else:
            high = cap - 1
    widths = [max(f, min(w, low)) for w, f in zip(wants, floors)]
    spare = room - sum(widths)
    for i, w in enumerate(wants):  # hand out what is left, leftmost first
        if spare <= 0:
            break
        extra = min(spare, w - widths[i])
        widths[i] += extra
        spare -= extra
    return widths


def table(columns: Sequence[Column], rows: Sequence[Sequence[str | Sequence[str]]], width: int, *,
          details: Sequence[Sequence[str]] | None = None, header: bool = True) -> Layout:
    """Lay ``rows`` out under ``columns`` in at most ``width`` cells per line (where the columns'
    narrowest widths allow). ``details`` gives each row lines printed beneath it across the whole
    width, indented (a fact's source sentences, say); rows are then ruled apart. ``header=False``
    leaves out the line of column names and its rule."""
    columns = list(columns)
    rows = [[clean(v) if isinstance(v, str) else [clean(p) for p in v] for v in row] for row in rows]
    named = [text_width(c.name) for c in columns]
    wants, floors = [], []
    for i, column in enumerate(columns):
        sizes = [_natural(row[i], column) for row in rows]
        wants.append(max([named[i], *(s[0] for s in sizes)]))
        floors.append(max([min(named[i], column.least), *(s[1] for s in sizes)]))
    essential = [c.fit == "cut" and not c.optional for c in columns]  # text that narrowing loses
    blank = [bool(rows) and not any(_joined(row[i]) for row in rows) for i in range(len(columns))]
    headed = [max(f, n) for f, n in zip(floors, named)]
    whole = [w if e else h for e, w, h in zip(essential, wants, headed)]
    # the first layout that fits: the strictest floors first, each with as few columns left out or moved as it can
    for least in dict.fromkeys(map(tuple, (whole, headed, floors))):
        for keep, under in _steps(columns, blank):
            widths = _fit([wants[i] for i in keep], [least[i] for i in keep], width - len(GAP) * (len(keep) - 1))
            if widths is None:
                continue
            cut_short = any(essential[i] and w < wants[i] for i, w in zip(keep, widths))
            if cut_short and any(columns[i].optional for i in keep):
                continue  # an optional column takes no width an essential one's text needs
            if any(w < wants[i] for i, w in zip(keep, widths)) and any(columns[i].optional and blank[i] for i in keep):
                continue  # nor does an empty optional column take width another one wants
            return _laid(columns, rows, width, keep, under, widths, details, header)
    # too narrow for any table: one record per row, a line per column (all of them)
    return Layout(_records(columns, rows, width, details), [])


def _steps(columns: Sequence[Column], blank: list[bool]) -> list[tuple[list[int], list[int]]]:
    """The columns shown and those moved beneath, in the order a table tries them: all shown, then
    the optional ones left out (the empty ones first, each from the last), then the ``beneath`` ones
    moved from the last."""
    keep, under = list(range(len(columns))), list[int]()
    steps: list[tuple[list[int], list[int]]] = [(list(keep), [])]
    optional = [i for i, c in enumerate(columns) if c.optional]
    for i in [*reversed([i for i in optional if blank[i]]), *reversed([i for i in optional if not blank[i]])]:
        if len(keep) > 1:  # a table keeps at least one column
            keep.remove(i)
            steps.append((list(keep), []))
    for i in reversed([i for i, c in enumerate(columns) if c.beneath and not c.optional]):
        if len(keep) > 1:
            keep.remove(i)
            under.insert(0, i)
            steps.append((list(keep), list(under)))
    return steps


def _laid(columns: list[Column], rows: Sequence[Sequence[str | Sequence[str]]], width: int, keep: list[int],
          under: list[int], widths: list[int], details: Sequence[Sequence[str]] | None, header: bool) -> Layout:
    """The table itself: the shown columns at ``widths``, the ``under`` ones beneath each row."""
    shown = [columns[i] for i in keep]
    total = sum(widths) + len(GAP) * (len(keep) - 1)
    laid = [[_cell_lines(row[i], columns[i], w) for i, w in zip(keep, widths)] for row in rows]
    beneath = [[f"{columns[i].name}: {_joined(row[i])}" for i in under if _joined(row[i])] for row in rows]
    ruled = bool(details) or any(beneath) or any(len(cell) > 1 for cells in laid for cell in cells)
    lines = [_join([cut(c.name, w) for c, w in zip(shown, widths)], widths),
             _join([RULE * w for w in widths], widths)] if header else []
    for n, cells in enumerate(laid):
        if ruled and (n or not header):
            lines.append(RULE * min(total, width))
        for k in range(max(len(c) for c in cells)):
            lines.append(_join([c[k] if k < len(c) else "" for c in cells], widths))
        pad = " " * (4 if width >= 24 else 1)
        for detail in [*beneath[n], *(details[n] if details else ())]:
            lines.extend(pad + line for line in wrap(clean(detail), max(width - len(pad), 1), DETAIL_LINES))
    left_out = [c.name for i, c in enumerate(columns) if i not in keep and i not in under]
    return Layout([line.rstrip() for line in lines], left_out)


def _joined(value: str | Sequence[str]) -> str:
    return value if isinstance(value, str) else " ".join(value)


def _records(columns: Sequence[Column], rows: Sequence[Sequence[str | Sequence[str]]], width: int,
             details: Sequence[Sequence[str]] | None) -> list[str]:
    """Rows as records for a terminal too narrow for their table: ``name  value`` lines, the
    values wrapped under themselves (ids and other ``keep`` values stay whole)."""
    label = min(max(text_width(c.name) for c in columns), max(width // 3, 1))
    room = max(width - label - len(GAP), 1)
    lines: list[str] = []
    for n, row in enumerate(rows):
        lines.append(RULE * width)
        for column, value in zip(columns, row):
            text = _joined(value)
            if column.fit == "cut":
                parts = [cut(line, room) for line in text.split("\n")]
            else:
                parts = wrap(text, room, column.most_lines)
            for k, part in enumerate(parts):
                name = cut(column.name, label) if k == 0 else ""
                lines.append(f"{name}{' ' * (label - text_width(name))}{GAP}{part}".rstrip())
        for detail in (details[n] if details else ()):
            lines.extend("  " + line for line in wrap(clean(detail), max(width - 2, 1), DETAIL_LINES))
    return lines


def _join(cells: list[str], widths: list[int]) -> str:
    return GAP.join(cell + " " * (w - text_width(cell)) for cell, w in zip(cells, widths))
