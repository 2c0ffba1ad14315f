"""Reading a chat as Telegram Desktop exports it: "Export chat history", machine-readable (``result.json``).

Its messages are ``{"id", "type": "message", "date", "date_unixtime", "from", "text", …}``: each becomes a user
message of its writer, said at ``date_unixtime`` (UTC), its text put together from the pieces Telegram keeps; the
app's own records (``"type": "service"``) and messages with no text (a sticker, a photo with no caption) are left out.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any

from ..core.names import has_visible

__all__ = ["as_message", "textless", "written_by"]


def written_by(record: Any) -> bool:
    """Whether ``record`` is a message of Telegram Desktop's JSON export ("Export chat history", machine-readable:
    ``{"id", "type": "message", "date", "date_unixtime", "from", "text", …}``), not one of graphmem's own."""
    return isinstance(record, dict) and record.get("type") in ("message", "service") and "role" not in record \
        and "date" in record and "text" in record


def _text(record: dict[str, Any]) -> str:
    """A Telegram message's text: a string, or a list of strings and pieces ({"type": "bold", "text": …}), pieces
    within pieces read through; a piece of no text (a number, null) is none."""
    return _piece(record.get("text"))


def _piece(value: Any, depth: int = 0) -> str:
    if isinstance(value, str):
        return value
    if depth > 8:
        return ""  # (no export nests pieces deeper; a file that does holds nothing more to read)
    if isinstance(value, list):
        return "".join(_piece(part, depth + 1) for part in value)
    if isinstance(value, dict):
        return _piece(value.get("text"), depth + 1)
    return ""


def textless(record: Any) -> bool:
    """Whether a Telegram record holds no text of its writer's: the app's own ("service": joined, pinned, a call),
    a sticker, a photo or a voice message with no caption."""
    return written_by(record) and (record.get("type") != "message" or not has_visible(_text(record)))


def clock_offset(record: Any) -> timedelta | None:
    """How far the exporting computer's clock ("date", its wall time) stood from UTC ("date_unixtime") at a message,
    to the quarter hour: +9:00 for an export made in Seoul; None where either is missing or unreadable."""
    if not isinstance(record, dict) or not isinstance(record.get("date"), str):
        return None
    unix = str(record.get("date_unixtime", "")).strip()
    if not unix.isdigit() or len(unix) > 12:
        return None
    try:
        wall = datetime.fromisoformat(record["date"])
        utc = datetime.fromtimestamp(int(unix), UTC).replace(tzinfo=None)
    except (OverflowError, ValueError, OSError):
        return None
    if wall.tzinfo is not None:
        return None
    quarters = round((wall - utc).total_seconds() / 900)
    return timedelta(minutes=15 * quarters) if abs(quarters) <= 14 * 4 else None


#: What :func:`_forwarded` puts before a forwarded message's text, read back (a name holding one pair of brackets
#: too, "(forwarded from Shop (Official)) "): what a store recorded before the text said so is that message.
FORWARDED = re.compile(r"^\(forwarded(?: from (?:[^()]|\([^()]*\))*)?\) ")


def _forwarded(record: dict[str, Any]) -> str:
    """What opens a forwarded message's text, so that everywhere it is read (search, an episode, the explorer) it is
    not taken for the forwarder's own words: "(forwarded from DOH Philippines) " (a new user's: a scam text her mother
    forwarded read as hers), "(forwarded) " where Telegram hides who wrote it; "" for a message of one's own."""
    if "forwarded_from" not in record:
        return ""
    origin = record["forwarded_from"]
    name = " ".join("".join(c for c in origin if unicodedata.category(c) != "Cf").split())[:100] \
        if isinstance(origin, str) else ""  # (no format character: "\u200b", a direction turned by "\u202e")
    return f"(forwarded from {name}) " if has_visible(name) else "(forwarded) "


def as_message(record: dict[str, Any]) -> dict[str, Any]:
    """A Telegram message as graphmem's own: a user message of its writer ("from"), said at "date_unixtime" (UTC;
    "date" is the exporting computer's clock, read in the store's zone where it is all there is), its id kept."""
    unix = record.get("date_unixtime")
    said = record.get("date")
    if isinstance(unix, (str, int)) and str(unix).strip().isdigit() and len(str(unix).strip()) <= 12:
        try:
            said = datetime.fromtimestamp(int(str(unix).strip()), UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, ValueError, OSError):
            pass  # out of any clock's reach: "date", as written, is read and judged instead
    writer = next((w for w in (record.get("from"), record.get("from_id")) if isinstance(w, str) and has_visible(w)), "")
    # (no writer is refused, naming the line: never the store's own "I"); a message forwarded is someone else's words:
    # kept, and read for no fact (an attacker's: "I just moved to Tokyo!" forwarded became the forwarder's move)
    return {"role": "forwarded" if "forwarded_from" in record else "user",
            "content": _forwarded(record) + _text(record), "chat_time": said, "actor": writer,
            "id": str(record["id"]) if isinstance(record.get("id"), (int, str)) and not isinstance(record.get("id"),
                                                                                                  bool) else None}
