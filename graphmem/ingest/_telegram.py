"""Reading a chat as Telegram Desktop exports it: "Export chat history", machine-readable (``result.json``).

Its messages are ``{"id", "type": "message", "date", "date_unixtime", "from", "text", …}``: each becomes a user
message of its writer, said at ``date_unixtime`` (UTC), its text put together from the pieces Telegram keeps; the
app's own records (``"type": "service"``) and messages with no text (a sticker, a photo with no caption) are left out.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..core.names import has_visible

__all__ = ["as_message", "textless", "written_by_telegram"]


def written_by_telegram(record: Any) -> bool:
    """Whether ``record`` is a message of Telegram Desktop's JSON export ("Export chat history", machine-readable:
    ``{"id", "type": "message", "date", "date_unixtime", "from", "text", …}``), not one of graphmem's own."""
    return isinstance(record, dict) and record.get("type") in ("message", "service") and "role" not in record \
        and "date" in record and "text" in record


def _text(record: dict[str, Any]) -> str:
    """A Telegram message's text: a string, or a list of strings and pieces ({"type": "bold", "text": …})."""
    text = record.get("text")
    if isinstance(text, list):
        return "".join(part if isinstance(part, str) else str(part.get("text", "")) if isinstance(part, dict) else ""
                       for part in text)
    return text if isinstance(text, str) else ""


def textless(record: Any) -> bool:
    """Whether a Telegram record holds no text of its writer's: the app's own ("service": joined, pinned, a call),
    a sticker, a photo or a voice message with no caption."""
    return written_by_telegram(record) and (record.get("type") != "message" or not has_visible(_text(record)))


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
    writer = record.get("from")
    return {"role": "user", "content": _text(record), "chat_time": said,
            "actor": writer if isinstance(writer, str) and has_visible(writer) else None,
            "id": str(record["id"]) if isinstance(record.get("id"), (int, str)) else None}
