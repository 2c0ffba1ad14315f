"""Reading texts as Android's "SMS Backup & Restore" (SyncTech) saves them: the XML file ``sms-….xml``.

The file is ``<smses count="…">`` holding ``<sms address date type body contact_name …/>`` (``date`` in milliseconds
since 1970, UTC; ``type`` 1 received, 2 sent, others drafts, failed or queued) and ``<mms date msg_box address
contact_name …>`` with ``<parts><part ct text …/></parts>`` (``msg_box`` 1 received, 2 sent; the words are the
``text/plain`` parts; pictures are parts too) and ``<addrs>``. One backup holds every conversation of the phone; a
conversation is a contact (its ``contact_name``, else its number, whatever way it is written: "087 123 4567" and
"+353871234567" are one). The app writes a character beyond the Basic Multilingual Plane (most emoji) as two
character references, one per UTF-16 half ("&#55357;&#56832;"), which XML does not allow: each pair is read as the
character it stands for, one alone as U+FFFD; both are rewritten at the same length, so a byte of the file keeps its
place. A document type (and so any entity declared in it) is refused: a backup has none.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import BinaryIO
from xml.parsers import expat

from ..core.names import has_visible

__all__ = ["CHUNK", "LONGEST", "Broken", "Said", "contact_key", "conversations", "folded", "is_sms", "messages",
           "moment"]

#: How much of the file is read at a time.
CHUNK = 1 << 16
#: The longest element (its start tag and what it holds) read: a backup's longest are pictures sent, kept in the
#: file as base64 (a few MB: carriers cap a picture message); longer ones are refused, so no file holds memory.
LONGEST = 64 << 20

#: The first line of a backup: an XML declaration, or the root itself.
_OPENING = re.compile(r"^\ufeff?\s*<(?:\?xml\b|smses\b)")
#: A character reference to a UTF-16 half (decimal or hexadecimal), and a pair of them.
_HALF = rb"&#(?:5[5-7]\d{3}|x[dD][89a-fA-F][0-9a-fA-F]{2});"
_HALVES = re.compile(rb"(" + _HALF + rb")(" + _HALF + rb")?")
_LAST_HALF = re.compile(_HALF + rb"\Z")


def is_sms(first: str) -> bool:
    """Whether ``first`` (a file's first line) opens an XML file: read as an SMS backup, or refused as other XML."""
    return _OPENING.match(first) is not None


def _code(ref: bytes) -> int:
    body = ref[2:-1]
    return int(body[1:], 16) if body[:1] in (b"x", b"X") else int(body)


def _same_length(code: int, size: int, hexadecimal: bool) -> bytes:
    """A character reference to ``code`` written in exactly ``size`` bytes (leading zeros)."""
    if hexadecimal:
        return b"&#x" + format(code, "X").zfill(size - 4).encode() + b";"
    return b"&#" + str(code).zfill(size - 3).encode() + b";"


def _repair(m: re.Match[bytes]) -> bytes:
    high, low = m.group(1), m.group(2)
    first = _code(high)
    hexadecimal = high[2:3] in (b"x", b"X")
    if low is not None and 0xD800 <= first <= 0xDBFF and 0xDC00 <= (second := _code(low)) <= 0xDFFF:
        code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        return _same_length(code, len(high) + len(low), hexadecimal)
    if not 0xD800 <= first <= 0xDFFF:  # (5xxxx outside the halves: a character as it is)
        return high + (_repair(_HALVES.match(low)) if low is not None else b"")  # type: ignore[arg-type]
    lone = _same_length(0xFFFD, len(high), hexadecimal)
    return lone + (_repair(_HALVES.match(low)) if low is not None else b"")  # type: ignore[arg-type]


def _chunks(source: BinaryIO) -> Iterator[bytes]:
    """The file from where ``source`` stands, its UTF-16 halves rewritten (see the module's note), a chunk at a time;
    a reference cut by a chunk's end waits for the next."""
    carry = b""
    while block := source.read(CHUNK):
        text = carry + block
        cut = len(text)
        if (last := text.rfind(b"&", max(0, cut - 16))) >= 0 and b";" not in text[last:]:
            cut = last  # a reference not yet closed (one is 16 bytes at most)
        if (half := _LAST_HALF.search(text, max(0, cut - 16), cut)) and 0xD800 <= _code(half.group()) <= 0xDBFF:
            cut = half.start()  # a first half, whose second may follow
        text, carry = text[:cut], text[cut:]
        yield _HALVES.sub(_repair, text)
    if carry:
        yield _HALVES.sub(_repair, carry)


class Broken(Exception):
    """What makes a file no backup to read: ``line`` (1-based, or 0 for none) and why."""

    def __init__(self, line: int, why: str):
        super().__init__(why)
        self.line, self.why = line, why


@dataclass
class Said:
    """One text of a backup: where its element starts (a byte offset), its line, and what it holds."""

    offset: int
    line: int
    kind: str  # "sms" or "mms"
    attrs: dict[str, str]
    parts: list[tuple[str, str]] = field(default_factory=list)  # an mms's parts: (content type, text)

    @property
    def sent(self) -> bool:
        return (self.attrs.get("type") if self.kind == "sms" else self.attrs.get("msg_box")) == "2"

    @property
    def kept(self) -> bool:
        """A text received or sent, not a draft, a failure or one still queued; not of a group (an mms to many)."""
        box = self.attrs.get("type") if self.kind == "sms" else self.attrs.get("msg_box")
        return box in ("1", "2") and "~" not in self.attrs.get("address", "")

    @property
    def text(self) -> str:
        if self.kind == "sms":
            body = self.attrs.get("body", "")
            return "" if body == "null" else body
        return "\n".join(text for kind, text in self.parts if kind.lower().startswith("text/plain") and text != "null")


def messages(source: BinaryIO, start: int = 0, *, one: bool = False) -> Iterator[Said]:
    """Each text of a backup from byte ``start`` of ``source`` (which stands there), as its element ends; ``one``: only
    the element that starts there (read again). Raises :class:`Broken` for a file that is no well-formed backup."""
    parser = expat.ParserCreate("UTF-8")
    parser.buffer_text = True
    done: list[Said] = []
    depth = 0
    current: Said | None = None
    seen = {"root": one, "event": 0, "line": 1}

    def begin(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, current
        depth += 1
        seen["event"], seen["line"] = parser.CurrentByteIndex, parser.CurrentLineNumber
        if not seen["root"]:
            if name != "smses":
                raise Broken(parser.CurrentLineNumber, f"an XML file, but its root is <{name}>, not <smses> (the "
                                                       "backup SMS Backup & Restore writes)")
            seen["root"] = True
            return
        if current is None and depth == (1 if one else 2) and name in ("sms", "mms"):
            current = Said(start + parser.CurrentByteIndex, parser.CurrentLineNumber, name, dict(attrs))
        elif current is not None and current.kind == "mms" and name == "part":
            current.parts.append((attrs.get("ct", ""), attrs.get("text", "")))

    def end(name: str) -> None:
        nonlocal depth, current
        depth -= 1
        seen["event"], seen["line"] = parser.CurrentByteIndex, parser.CurrentLineNumber
        if current is not None and depth == (0 if one else 1):
            done.append(current)
            current = None

    def doctype(*_: object) -> None:
        raise Broken(parser.CurrentLineNumber, "a document type declaration (a backup has none: entities are not read)")

    parser.StartElementHandler = begin
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    fed = 0
    try:
        for chunk in _chunks(source):
            parser.Parse(chunk, False)
            fed += len(chunk)
            yield from done
            if one and done:
                return
            done.clear()
            if fed - seen["event"] > LONGEST:
                raise Broken(seen["line"], f"an element longer than {LONGEST:,} bytes begins after this line")
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        if one and done:
            yield from done  # the element read whole; what follows it is no document of its own
            return
        raise Broken(exc.lineno, f"not well-formed XML ({expat.ErrorString(exc.code)}, column {exc.offset + 1})") \
            from None
    yield from done
    if not seen["root"]:
        raise Broken(0, "an XML file with no <smses> (the backup SMS Backup & Restore writes)")


def folded(name: str) -> str:
    """A name compared as typed on any keyboard: case and accents set aside ("Siobhan" is "Siobhán")."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))


def contact_key(said: Said) -> tuple[str | None, str | None, str]:
    """Who a text is with: its contact's name (compared as :func:`folded`), its number (the last nine digits: "087 123
    4567" and "+353871234567" are one), and how it is shown (the name, else the address as written)."""
    name = said.attrs.get("contact_name", "").strip()
    named = name if name and name not in ("(Unknown)", "null") and has_visible(name) else None
    address = said.attrs.get("address", "").strip()
    digits = re.sub(r"\D", "", address)
    number = digits[-9:] if digits else ("address:" + folded(address) if address else None)
    return (folded(named) if named else None), number, named or address or "unknown"


def conversations(keys: dict[tuple[str | None, str | None], str]) -> dict[tuple[str | None, str | None], str]:
    """Each (name, number) of :func:`contact_key` seen, to its conversation: the contact's name, or for a number with
    none the name it has elsewhere in the backup, else the number."""
    named = {number: name for name, number in keys if name is not None and number is not None}
    return {(name, number): name or (named.get(number) if number else None) or f"number:{number}"
            for name, number in keys}


def moment(said: Said) -> str:
    """When a text was said, ISO 8601 in UTC, from its ``date`` in milliseconds; a date that is none (or in seconds:
    fewer than 10^11) as written, refused as any bad chat time is."""
    stamp = said.attrs.get("date", "")
    if stamp.isdigit() and len(stamp) < 16 and int(stamp) >= 10**11:
        try:
            return datetime.fromtimestamp(int(stamp) / 1000, UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, ValueError, OSError):
            pass
    return f"{stamp!r} (date: milliseconds since 1970)"
