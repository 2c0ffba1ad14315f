"""Reading texts as Android's "SMS Backup & Restore" (SyncTech) saves them: the XML file ``sms-….xml``.

The file is ``<smses count="…">`` holding ``<sms address date type body contact_name …/>`` (``date`` in milliseconds
since 1970, UTC; ``type`` 1 received, 2 sent, others drafts, failed or queued) and ``<mms date msg_box address
contact_name …>`` with ``<parts><part ct text …/></parts>`` (``msg_box`` 1 received, 2 sent; the words are the
``text/plain`` parts; pictures are parts too) and ``<addrs>``. One backup holds every conversation of the phone; a
conversation is the texts that share a contact's name or a number (a contact renamed is one; a number written
nationally, "087 123 4567", is the one international number ending so, "+353871234567", when there is only one). The app
writes a character beyond the Basic Multilingual Plane (most emoji) as two character references, one per UTF-16 half
("&#55357;&#56832;"), which XML does not allow: each pair is read as the character it stands for, one alone as U+FFFD;
both are rewritten at the same length, so a byte of the file keeps its place. A document type (and so any entity
declared in it) is refused: a backup has none.

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

from ..core.json_lines import MAX_LINE
from ..core.names import BIDI_CONTROLS, CONTROL, clipped, has_visible

__all__ = ["CHUNK", "LONGEST", "Broken", "Said", "contact_key", "conversations", "declared_encoding", "folded",
           "is_sms", "messages", "moment", "names_one", "number_key"]

#: How much of the file is read at a time.
CHUNK = 1 << 16
#: The longest element (its start tag and what it holds) read: a backup's longest are pictures sent, kept in the
#: file as base64 (a few MB: carriers cap a picture message); longer ones are refused, so no file holds memory.
LONGEST = 64 << 20
#: The longest text read: as a message of any other export may be (a picture's data aside, which is no text).
LONGEST_TEXT = MAX_LINE
#: How deep elements go (a backup's: smses, mms, parts, part) and how many parts a picture message holds at most,
#: beyond which a file is refused: expat keeps every open element, and a text its parts (an attacker's: 30 MB of
#: elements never closed held 1.3 GB; a picture message of three million parts, 807 MB).
DEEPEST, MOST_PARTS = 8, 1_000

#: How a backup opens: an XML declaration, a comment, or the root itself (after a byte order mark and spaces).
_OPENING = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<(?:\?xml\b|!--|smses\b)")
#: The encoding an XML declaration names, when it names one.
_DECLARED = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*[\"'](?P<name>[\w.:-]+)[\"']")
#: A character reference to a UTF-16 half (decimal or hexadecimal), and a run of such references.
_HALF = rb"&#(?:5[5-7]\d{3}|x[dD][89a-fA-F][0-9a-fA-F]{2});"
_ONE_HALF = re.compile(_HALF)
_HALVES = re.compile(rb"(?:" + _HALF + rb")+")
_LAST_HALF = re.compile(_HALF + rb"\Z")


def is_sms(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) opens an XML file: read as an SMS backup, or refused as other XML."""
    return _OPENING.match(head) is not None


def declared_encoding(head: bytes) -> str | None:
    """The encoding the XML declaration at the start of ``head`` names, lower case, or None."""
    m = _DECLARED.match(head)
    return m["name"].decode("ascii").lower() if m else None


def _code(ref: bytes) -> int:
    body = ref[2:-1]
    return int(body[1:], 16) if body[:1] in (b"x", b"X") else int(body)


def _same_length(code: int, size: int, hexadecimal: bool) -> bytes:
    """A character reference to ``code`` written in exactly ``size`` bytes (leading zeros)."""
    if hexadecimal:
        return b"&#x" + format(code, "X").zfill(size - 4).encode() + b";"
    return b"&#" + str(code).zfill(size - 3).encode() + b";"


def _repair(run: re.Match[bytes]) -> bytes:
    """A run of references to UTF-16 halves (and to characters that look alike, 55000-55295), each pair of a first
    and a second half as the character it stands for, each half alone as U+FFFD, each at the same length."""
    refs = _ONE_HALF.findall(run.group())
    out: list[bytes] = []
    i = 0
    while i < len(refs):
        ref, code = refs[i], _code(refs[i])
        hexadecimal = ref[2:3] in (b"x", b"X")
        if 0xD800 <= code <= 0xDBFF and i + 1 < len(refs) and 0xDC00 <= (low := _code(refs[i + 1])) <= 0xDFFF:
            out.append(_same_length(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), len(ref) + len(refs[i + 1]),
                                    hexadecimal))
            i += 2
            continue
        out.append(_same_length(0xFFFD, len(ref), hexadecimal) if 0xD800 <= code <= 0xDFFF else ref)
        i += 1
    return b"".join(out)


def _chunks(source: BinaryIO, sizes: Iterator[int]) -> Iterator[bytes]:
    """The file from where ``source`` stands, its UTF-16 halves rewritten (see the module's note), read ``next(sizes)``
    bytes at a time; a reference cut by a chunk's end, or a first half whose second may follow, waits for the next."""
    carry = b""
    while block := source.read(next(sizes)):
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
    level = 1 if one else 2  # how deep a text's element is (below the root, or the fragment itself)
    depth = 0
    current: Said | None = None
    rooted = one  # whether the root was seen (read again, there is none)
    event, line = 0, 1  # where the last element began or ended: an element read past LONGEST begins after it

    def begin(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, current, rooted, event, line
        depth += 1
        event, line = parser.CurrentByteIndex, parser.CurrentLineNumber
        if depth > DEEPEST:
            raise Broken(line, f"elements nested more than {DEEPEST} deep (a backup's go four deep)")
        if not rooted:
            if name != "smses":
                raise Broken(line, f"an XML file, but its root is <{name}>, not <smses> (the backup SMS Backup & "
                                   "Restore writes)")
            rooted = True
        elif current is None and depth == level and name in ("sms", "mms"):
            current = Said(start + event, line, name, dict(attrs))
        elif current is not None and current.kind == "mms" and name == "part":
            if len(current.parts) >= MOST_PARTS:
                raise Broken(current.line, f"a picture message of more than {MOST_PARTS:,} parts begins on this line")
            current.parts.append((attrs.get("ct", ""), attrs.get("text", "")))

    def end(name: str) -> None:
        nonlocal depth, current, event, line
        depth -= 1
        event, line = parser.CurrentByteIndex, parser.CurrentLineNumber
        if current is not None and depth == level - 1:
            if len(current.text) > LONGEST_TEXT:
                raise Broken(current.line, f"a text longer than {LONGEST_TEXT:,} characters begins on this line")
            done.append(current)
            current = None

    def doctype(*_: object) -> None:
        raise Broken(parser.CurrentLineNumber, "a document type declaration (a backup has none: entities are not read)")

    parser.StartElementHandler = begin
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype

    def sizes() -> Iterator[int]:
        # an element read again is read a little at a time (most are a few hundred bytes); one that goes on past a
        # read is read in reads twice as long each time (expat reads an unfinished tag again from its start at each
        # read: at one size, a picture of 50 MB took a minute)
        base = 512 if one else CHUNK
        size, seen = base, -1
        while True:
            size, seen = (min(size * 2, LONGEST), seen) if seen == event else (base, event)
            yield size

    fed = 0
    try:
        for chunk in _chunks(source, sizes()):
            parser.Parse(chunk, False)
            fed += len(chunk)
            yield from done
            if one and done:
                return
            done.clear()
            if fed - event > LONGEST:
                raise Broken(line, f"an element longer than {LONGEST:,} bytes begins on or after this line")
            if current is not None and fed - (current.offset - start) > LONGEST:  # (its parts begin and end inside)
                raise Broken(current.line, f"an element longer than {LONGEST:,} bytes begins on this line")
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        if one and done:
            yield from done  # the element read whole; what follows it is no document of its own
            return
        raise Broken(exc.lineno, f"not well-formed XML ({expat.ErrorString(exc.code)}, column {exc.offset + 1})") \
            from None
    yield from done
    if not rooted:
        raise Broken(0, "an XML file with no <smses> (the backup SMS Backup & Restore writes)")


def folded(name: str) -> str:
    """A name compared as typed on any keyboard: case and accents set aside ("Siobhan" is "Siobhán")."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))


def number_key(address: str) -> str | None:
    """A phone number as compared: an international one ("+353 87 123 4567", "00353…") by all its digits, a national
    one ("087 123 4567") by its digits after the trunk 0, marked so (it is the international one ending so, when the
    backup holds only one such); None for an address that is no number ("DPD", a run of 18 digits)."""
    digits = re.sub(r"\D", "", address)
    if not 5 <= len(digits) <= 17:  # (a number has 15 digits at most, after "00"; a longer run is no number)
        return None
    if address.lstrip().startswith("+") or digits.startswith("00"):
        return "+" + digits.lstrip("0")
    return "0" + digits.lstrip("0")


def _same_number(national: str, international: str) -> bool:
    return national.startswith("0") and international.startswith("+") and international.endswith(national[1:])


def contact_key(said: Said) -> tuple[str | None, str, str]:
    """Who a text is with: its contact's name (compared as :func:`folded`), its address as compared (a number's
    :func:`number_key`, else the address folded), and how it is shown (the name, else the address as written)."""
    name = CONTROL.sub(" ", said.attrs.get("contact_name", "")).translate(_BIDI)
    name = " ".join(name.split())  # (a line break or a direction mark in a contact's name: an attacker's)
    named = name if name and name not in ("(Unknown)", "null") and has_visible(name) else None
    address = said.attrs.get("address", "").strip()
    number = number_key(address) or "address:" + folded(address)
    return (folded(named) if named else None), number, named or address or "unknown"


#: What a contact's name may hold that would move text about where it is shown, beside control characters (a line
#: break: :data:`CONTROL`): bidirectional controls.
_BIDI = str.maketrans(dict.fromkeys(map(ord, BIDI_CONTROLS)))


def conversations(tallies: dict[tuple[str | None, str], int], shown: dict[tuple[str | None, str], str]
                  ) -> tuple[dict[tuple[str | None, str], str], dict[str, str], dict[str, set[str]]]:
    """The conversations of a backup: the texts' (name, address) of :func:`contact_key`, with how many texts each has,
    joined where they share a contact's name or a number (a contact renamed, a number written another way: one
    national number is the one international number that ends with it, when the backup holds only one). Gives each
    (name, address) its conversation, each conversation the name it is shown by (its contact's name seen most, else
    its address), and each conversation every name and address it is known by (folded)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: str, b: str) -> None:
        parent[root(a)] = root(b)

    numbers = {number for _, number in tallies}
    for name, number in tallies:
        root(number)
        if name is not None:
            join("name:" + name, number)
    endings: dict[str, list[str]] = {}  # each international number by each of its endings (an attacker's: compared
    for number in (n for n in numbers if n.startswith("+")):  # each national with each, 4,000 numbers took 36 s)
        for size in range(1, len(number)):
            endings.setdefault(number[-size:], []).append(number)
    for national in (n for n in numbers if n.startswith("0")):
        matching = endings.get(national[1:], [])
        if len(matching) == 1:
            join(national, matching[0])
    of = {pair: root(pair[1]) for pair in tallies}
    names: dict[str, dict[str, int]] = {}
    known: dict[str, set[str]] = {}
    for pair, count in tallies.items():
        names.setdefault(of[pair], {})
        if pair[0] is not None:
            names[of[pair]][shown[pair]] = names[of[pair]].get(shown[pair], 0) + count
        known.setdefault(of[pair], set()).update(k for k in (pair[0], pair[1], folded(shown[pair])) if k is not None)
    first: dict[str, str] = {}
    for pair in tallies:
        first.setdefault(of[pair], shown[pair])
    display = {key: max(counted, key=counted.__getitem__) if counted else first[key] for key, counted in names.items()}
    return of, display, known


def names_one(given: str, known: set[str]) -> bool:
    """Whether a name or number ``given`` (of --participants) is one a conversation is known by (see
    :func:`conversations`): its contact's name, accents and case aside, or its number written any way."""
    if folded(given.strip()) in known:
        return True
    number = number_key(given)
    return number is not None and any(number == k or _same_number(number, k) or _same_number(k, number)
                                      for k in known)


def moment(said: Said) -> str:
    """When a text was said, ISO 8601 in UTC, from its ``date`` in milliseconds; a date that is none (or in seconds:
    fewer than 10^11) as written, refused as any bad chat time is."""
    stamp = said.attrs.get("date", "")
    if stamp.isascii() and stamp.isdigit() and len(stamp) < 16 and int(stamp) >= 10**11:  # (not "¹⁷⁶⁷…": an attacker's)
        try:
            return datetime.fromtimestamp(int(stamp) / 1000, UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, ValueError, OSError):
            pass
    return f"{clipped(stamp, 40)!r} (date: milliseconds since 1970)"  # (a date of 5,000 digits: an attacker's)
