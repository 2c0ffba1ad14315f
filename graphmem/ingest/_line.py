"""Reading a chat as LINE exports it: "Export chat history" (Send chat history, the .txt).

The file opens with ``[LINE] Chat history with Kiko`` and ``Saved on: 11/29/2026, 22:41``; each day opens with a
line of its date (``Sun, 1/11/2026`` in English, ``2026/01/11(Sun)`` or ``2026.01.11 Sunday`` on other phones);
each message is ``20:02<TAB>Kiko Abellana<TAB>text`` (the clock may be in 12 hours, ``8:02 PM`` or ``PM 8:02``), a
text of several lines written between double quotes (a quote inside doubled). A line with a clock and no writer is the
app's own ("Kiko unsent a message."), and so are stickers, photos and calls (``[Sticker]``, ``[Photo]``, ``☎ Call
time 14:32``): left out. Which order a date's day and month are in is read from the file, as for WhatsApp's.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

__all__ = ["Said", "cleaned", "day_of", "is_day", "is_line", "moment", "said", "skipped"]

#: The file's first line: "[LINE] Chat history with Kiko", "[LINE] Chat with Kiko".
_HEADER = re.compile(r"^\ufeff?\[LINE\]\s+\S", re.IGNORECASE)
#: A day's line: "Sun, 1/11/2026" (month first in English; a day after the 12th says it is the other way),
#: "2026/01/11(Sun)", "2026.01.11 Sunday".
_DAY_WRITTEN = re.compile(r"^(?:[A-Za-z]{3,9},?\s+)?(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})"
                          r"(?:\s*\([A-Za-z]{2,9}\))?\s*$")
_DAY_YEAR_FIRST = re.compile(r"^(?P<y>\d{4})[/.\-](?P<m>\d{1,2})[/.\-](?P<d>\d{1,2})"
                             r"(?:\s*\([^)]{1,12}\)|\s+[A-Za-z]{3,9})?\s*$")
#: A message's first line: its clock, then the writer and the text, tab apart ("20:02\tKiko\thi", "8:02 PM\tKiko\thi").
_SAID = re.compile(r"^(?:(?P<half1>[AaPp][Mm])\s*)?(?P<hour>\d{1,2}):(?P<minute>\d{2})(?:\s*(?P<half2>[AaPp][Mm]))?"
                   r"\t(?P<rest>.*)$")
#: What holds no text of its writer's: a sticker, a photo, a call, an unsent message.
_NO_TEXT = re.compile(r"^\s*(?:\[(?:sticker|animated sticker|photo|photos|video|file|voice message|album|location|"
                      r"contact|gift|note|poll|event|gif|audio|スタンプ|写真|動画|ファイル|ボイスメッセージ|アルバム|"
                      r"位置情報|連絡先|ภาพ|สติกเกอร์|วิดีโอ|사진|스티커|동영상)\](?:\s.*)?|☎.*|\(emoji\)|"
                      r"unsent a message\.?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Said:
    """A message's first line: when on its day, who, and the text it opens with."""

    hour: int
    minute: int
    writer: str
    text: str


def is_line(first: str) -> bool:
    """Whether a file whose first line is ``first`` is LINE's export."""
    return _HEADER.match(first.strip("\r\n")) is not None


def is_day(line: str) -> bool:
    """Whether ``line`` is a day's line (its date read or not)."""
    return _DAY_YEAR_FIRST.match(line) is not None or _DAY_WRITTEN.match(line) is not None


def day_of(line: str, day_first: bool) -> tuple[date, bool | None] | None:
    """The day a day's line opens, and what it says of the file's order (True day first, False month first, None
    either), or None for a line that is no day's; ValueError for a date no calendar has ("2/30/2026")."""
    if m := _DAY_YEAR_FIRST.match(line):
        return date(int(m["y"]), int(m["m"]), int(m["d"])), None
    if m := _DAY_WRITTEN.match(line):
        a, b = int(m["a"]), int(m["b"])
        order = True if a > 12 >= b else False if b > 12 >= a else None
        first = day_first if order is None else order
        day, month = (a, b) if first else (b, a)
        return date(int(m["y"]), month, day), order
    return None


def said(line: str) -> Said | None:
    """The line as a message's first, or None (a line that goes on the one before, or a day's)."""
    m = _SAID.match(line)
    if m is None:
        return None
    hour, minute = int(m["hour"]), int(m["minute"])
    if half := m["half1"] or m["half2"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half[0] in "Pp" else 0)
    if hour > 23 or minute > 59:
        return None
    writer, tab, text = m["rest"].partition("\t")
    return Said(hour, minute, writer.strip() if tab else "", text if tab else m["rest"])


def skipped(text: str) -> bool:
    """Whether a message holds no text of its writer's (a sticker, a photo, a call)."""
    return _NO_TEXT.match(text) is not None


def cleaned(text: str) -> str:
    """A message's text as written: one of several lines without the quotes around it (a quote inside undoubled)."""
    text = text.rstrip("\r\n")
    if "\n" in text and len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        return text[1:-1].replace('""', '"')
    return text


def moment(day: date, opened: Said) -> datetime:
    """When a message was written (naive: in the chat's own zone)."""
    return datetime(day.year, day.month, day.day, opened.hour, opened.minute)
