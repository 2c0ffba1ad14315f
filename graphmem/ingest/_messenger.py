"""Reading a chat as Facebook Messenger (or Instagram) exports it: "Download your information", JSON.

A conversation is ``message_1.json`` (a long one goes on in ``message_2.json``, …): ``{"participants":
[{"name"}, …], "messages": [...], "title", "thread_path", …}``, its messages newest first, each ``{"sender_name",
"timestamp_ms", "content"?, "photos"?, "share"?, "reactions"?, "call_duration"?, "is_unsent"?, …}``. That
export writes every character beyond ASCII as the bytes of its UTF-8, one ``\\u00XX`` each ("InÃªs" for
"Inês"): each text is read back as the UTF-8 it was. The newer export of end-to-end encrypted chats writes
``{"participants": [names], "threadName", "messages": [{"senderName", "timestamp", "text", "isUnsent", "media",
"reactions", "type"}]}`` in plain UTF-8.

Each message becomes a user message of its writer, said at its time in milliseconds (UTC); left out are the app's
own records (calls, "You sent an attachment.", joining and leaving a group), unsent messages and those with no text (a
photo, a sticker). A reaction is no message.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from ..core.names import has_visible

__all__ = ["PART", "as_message", "names", "nickname", "repaired", "sets_nickname", "textless", "written_by"]


def _old(record: Any) -> bool:
    return isinstance(record, dict) and "timestamp_ms" in record and "role" not in record  # a writer missing: refused


def _new(record: Any) -> bool:
    return isinstance(record, dict) and "senderName" in record and "timestamp" in record and "role" not in record


def written_by(record: Any) -> bool:
    """Whether ``record`` is a message of Messenger's JSON export (either kind), not one of graphmem's own."""
    return _old(record) or _new(record)


def repaired(text: str) -> str:
    """A text of the older export as it was written: its characters, each one byte of UTF-8 ("InÃªs"), read back
    as UTF-8 ("Inês"); a text that is not such bytes (already read, or plain Latin-1 like "café") as it is."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


#: What the app writes in a writer's name ("Duarte called you.", "You sent an attachment."): the writer's name or
#: "You", then one of these (English only: other languages' are kept, as messages that state nothing).
_APP_MADE = re.compile(
    r"\s(?:sent\s+(?:an?\s+)?(?:attachment|photo|photos|video|gif|sticker|voice\s+message|audio\s+clip|link|location)|"
    r"unsent\s+a\s+message|missed\s+(?:your|a|the)\s+(?:video\s+)?call|called\s+you|"
    r"started\s+(?:a|sharing)\s+(?:video\s+)?(?:call|chat)|(?:set|changed|cleared)\s+(?:the|your|their|his|her)\s+"
    r"(?:own\s+)?nickname(?:\s+for\s+[^?!,]{1,80}?)?(?:\s+to\s+[^?!,]{1,80}?)?|set\s+the\s+(?:emoji|theme)|"
    r"changed\s+the\s+(?:group\s+photo|theme|chat\s+theme|emoji)|named\s+the\s+"
    r"group|added\s+.{1,80}\s+to\s+the\s+group|removed\s+.{1,80}\s+from\s+the\s+group|left\s+the\s+group|"
    r"joined\s+the\s+(?:group|call|video\s+chat)|reacted\s+.{1,12}\s+to\s+(?:your|a|their|his|her)\s+message)\.?\s*$",
    re.IGNORECASE | re.DOTALL)
#: The app's lines that name no one: Instagram's and Messenger's notices.
_NOTICE = re.compile(
    r"^\s*(?:you\s+missed\s+a\s+(?:video\s+)?call\s+from\s+.{1,80}|the\s+(?:video\s+)?call\s+ended\.?|liked\s+a\s+"
    r"message|reacted\s+.{1,12}\s+to\s+(?:your|a)\s+message|mentioned\s+you\s+in\s+(?:their|his|her)\s+story|"
    r"video\s+chat\s+ended|missed\s+(?:video|audio)\s+chat|you\s+are\s+now\s+connected\s+on\s+messenger|"
    r"(?:you\s+)?replied\s+to\s+(?:your|their|his|her)\s+story)\.?\s*$", re.IGNORECASE | re.DOTALL)


def _app_made(text: str, writer: str) -> bool:
    """Whether ``text`` is a line the app wrote: a notice, or its writer (by name, or "You") doing what the app records
    ("Duarte called you."; not "My brother sent a photo.", nor "Maria called you." written by Ana: an attacker's)."""
    if _NOTICE.match(text):
        return True
    name = writer.strip().casefold()
    for who in dict.fromkeys(("you", name, name.split()[0] if name else "")):  # "Duarte called you.", by Duarte Moreira
        if who and text.lstrip().casefold().startswith(who) and _APP_MADE.match(text.lstrip(), len(who)):
            return True
    return False


#: One file of a long chat: message_1.json is its newest part, message_2.json the part before, ….
PART = re.compile(r"message_(\d+)\.json")
#: A nickname the app records as set: "Tomás Ferreira set your nickname to Bia.", "You set the nickname for Tomás
#: Ferreira to Tomi.", "Ana set her own nickname to Nana." (English only).
_NICKNAME = re.compile(r"(?P<by>.{1,80}?)\s+set\s+(?:(?P<your>your)\s+nickname|(?:his|her|their)\s+own\s+"
                       r"nickname|the\s+nickname\s+for\s+(?P<for>[^?!,]{1,80}?))\s+to\s+(?P<nick>[^?!,]{1,80}?)\.?\s*$",
                       re.DOTALL)


def sets_nickname(record: Any) -> bool:
    """Whether ``record`` is the app's line of a nickname set (see :func:`nickname`)."""
    return written_by(record) and _NICKNAME.match(_text(record).strip()) is not None


def nickname(record: Any, participants: list[str] | tuple[str, ...] | None) -> tuple[str, str] | None:
    """Whose nickname a record of the app's says was set, and to what, as (name, nickname): "You set the nickname for
    Tomás Ferreira to Tomi." gives ("Tomás Ferreira", "Tomi"); "Tomás Ferreira set your nickname to Bia." gives the
    other participant of a chat of two and "Bia". None for any other record, or where whose it is is not known."""
    if not written_by(record) or not (m := _NICKNAME.match(_text(record).strip())):
        return None
    writer, by, nick = _writer(record), m["by"].strip(), m["nick"].strip()
    if not has_visible(nick) or len(nick) > 40:
        return None
    if m["for"]:
        whose = writer if m["for"].strip().casefold() == "you" else m["for"].strip()
    elif m["your"]:
        others = [p for p in participants or () if p.casefold() != by.casefold()]
        if by.casefold() == "you" or len(others) != 1:
            return None  # "You set your nickname": whose is "you", the file's owner, not named
        whose = others[0]
    else:
        whose = writer if by.casefold() == "you" else by
    return (whose, nick) if has_visible(whose) and whose.casefold() != "you" else None


def _text(record: dict[str, Any]) -> str:
    text = record.get("content") if _old(record) else record.get("text")
    if not isinstance(text, str):
        return ""
    return repaired(text) if _old(record) else text


def textless(record: Any) -> bool:
    """Whether a Messenger record holds no text of its writer's: unsent, a call, a photo or sticker with no words,
    or a line the app wrote in its writer's name ("Duarte called you.", "You sent an attachment.")."""
    if not written_by(record):
        return False
    if record.get("is_unsent") is True or record.get("isUnsent") is True or "call_duration" in record:
        return True
    if str(record.get("type", "")).lower() in ("call", "subscribe", "unsubscribe"):
        return True
    text = _text(record)
    return not has_visible(text) or _app_made(text, _writer(record))


def _writer(record: dict[str, Any]) -> str:
    writer = record.get("sender_name") if _old(record) else record.get("senderName")
    return (repaired(writer) if _old(record) else writer) if isinstance(writer, str) else ""


def as_message(record: dict[str, Any]) -> dict[str, Any]:
    """A Messenger message as graphmem's own: a user message of its writer, said at its time in milliseconds (UTC).
    A time that is not a whole number of milliseconds is left as written, and refused as any bad chat time is."""
    field = "timestamp_ms" if _old(record) else "timestamp"
    stamp = record.get(field)
    said = f"{stamp!r} ({field}: milliseconds since 1970)"  # what no chat time reads: refused, naming the field
    if isinstance(stamp, int) and not isinstance(stamp, bool) and 10**8 <= stamp < 10**11:
        said = f"{stamp!r} ({field}: seconds, it seems, where Messenger writes milliseconds since 1970)"
    if isinstance(stamp, float) and stamp.is_integer():
        stamp = int(stamp)
    if isinstance(stamp, int) and not isinstance(stamp, bool) and stamp >= 10**11:  # (10**11 ms: March 1973; fewer
        try:  # are seconds, or no time: refused rather than read as January 1970)
            said = datetime.fromtimestamp(stamp / 1000, UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, ValueError, OSError):
            pass  # out of any clock's reach
    writer = _writer(record)
    return {"role": "user", "content": _text(record), "chat_time": said, "actor": writer if has_visible(writer) else ""}


def names(value: Any) -> list[str] | None:
    """The participants' names of a Messenger file (``[{"name": …}]`` in the older export, repaired; names in the
    newer), or None when ``value`` is neither."""
    if isinstance(value, list) and value and all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in value):
        return [repaired(p["name"]) for p in value]
    if isinstance(value, list) and value and all(isinstance(p, str) for p in value):
        return list(value)
    return None
