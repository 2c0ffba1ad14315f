"""Reading chat files and memory files: their formats, chat times, and streaming.

A chat file is read once to check every message, keeping only where each one is and when it
was said (:class:`MessageFile`); the messages are read again from the file whenever they are
used, so a long conversation is never held in memory whole. JSON Lines are read line by line;
a file that is one JSON document (a list of messages, or ``{"user_id", "messages"}``) is read
as text and its messages decoded one at a time; a chat exported from a phone (WhatsApp's text,
:mod:`._export`) is read a message (its first line and those that go on it) at a time.

Internal: import what it offers from :mod:`graphmem.ingest`.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime, timedelta, tzinfo
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, Literal, overload

from ..core.json_lines import LONE_SURROGATE, MAX_LINE, lines, loads, open_regular
from ..core.names import clipped, has_visible, speaker_key
from ..core.times import UTC, parse_time, zone
from ..errors import ImportFailed, InvalidInput
from ..models import Model
from ..when import day_place, parse_chat_time
from . import _export
from . import _line as line_app
from . import _messenger as messenger
from . import _sms as sms
from . import _telegram as telegram

__all__ = ["Message", "MessageFile", "read_memories", "read_messages", "reference_time"]


class Message(Model):
    """One chat message read from a file, with where it was found."""

    where: str  # "FILE:LINE", for messages about it
    role: str
    content: str
    chat_time: datetime
    id: str | None = None
    actor: str | None = None
    user: str | None = None  # the conversation's user (its user_id), when the file names one

    @property
    def speaker(self) -> str:
        """Whom a user message's first person means: its actor, else the user, else 'user'."""
        return self.actor or self.user or "user"

    @property
    def episode_actor(self) -> str:
        """Who produced the message: the speaker for user messages, the role for an assistant's (search marks what an
        assistant said by it: a new user's bot, named in "actor", was shown as a person), else the actor or role."""
        return self.speaker if self.role == "user" else "assistant" if self.role == "assistant" else (
            self.actor or self.role)


def reference_time(text: str, *, day_first: bool = False, tz: tzinfo | str = UTC) -> datetime:
    """Read a reference time given by a user: 'now', ISO 8601 or a chat time like '8 May 2023'."""
    if isinstance(text, str) and text.strip().lower() == "now":
        return datetime.now(UTC)
    return parse_chat_time(text, day_first=day_first, tz=tz)


# --- one message ----------------------------------------------------------------------------------

@overload
def _text_field(record: dict[str, Any], key: str, where: str, *, required: Literal[True]) -> str: ...
@overload
def _text_field(record: dict[str, Any], key: str, where: str, *, required: Literal[False]) -> str | None: ...
def _text_field(record: dict[str, Any], key: str, where: str, *, required: bool) -> str | None:
    value = record.get(key)
    if value is None and not required:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and key == "id":
        return str(value)
    if not isinstance(value, str) or not has_visible(value):  # (zero-width spaces alone show nothing either)
        problem = "is missing" if value is None else "must be non-empty text"
        raise ImportFailed(f"{where}: {key!r} {problem}")
    if (half := LONE_SURROGATE.search(value)) is not None:  # JSON's "\ud800" alone: no character, and no store can keep
        raise ImportFailed(f"{where}: {key!r} holds half a character (\\u{ord(half[0]):04x}, a lone surrogate), "
                           "no text; fix the file's writer")  # it (an attacker's: found only at write time, half
    return value  # the file written)


def _too_much(exc: RecursionError | ValueError, path: Path) -> Exception:
    """A JSON document nested too deeply or holding a number of too many digits, as one line naming the file; any
    other ValueError as it was (a bug, not the file's)."""
    if isinstance(exc, RecursionError) or "nested too deeply" in str(exc):
        return ImportFailed(f"{path}: not valid JSON (nested too deeply)")
    if "digits" in str(exc):
        return ImportFailed(f"{path}: not valid JSON (a number of more digits than can be read: {exc})")
    return exc



#: Keys other chat exports use for a message's fields: what each may be instead.
_OTHER_KEYS = {"content": ("text", "message", "body", "msg", "content_text"),
               "chat_time": ("timestamp", "time", "date", "datetime", "created_at", "sent_at", "ts"),
               "actor": ("speaker", "author", "sender", "from", "name", "user")}


def _missing(keys: list[str], record: dict[str, Any]) -> str:
    """One line naming every field a message lacks, and the keys it has that could be them."""
    said = f"{', '.join(repr(k) for k in keys)} {'is' if len(keys) == 1 else 'are'} missing"
    renames = [f"{other!r} to {key!r}" for key, others in _OTHER_KEYS.items() if key in keys or key == "actor"
               for other in others if other in record and key not in record]
    hint = f"; rename {', '.join(renames)}" if renames else ""
    if len(keys) == 3 and (listed := next((key for key, value in record.items() if isinstance(value, list) and value
                                           and all(isinstance(item, dict) for item in value)), None)):
        return f"{said}: a document of one object holds its messages under \"messages\", not {listed!r}"
    if "role" in keys:
        hint += "; give each message \"role\": \"user\" (or \"assistant\"), the speaker's name in \"actor\""
    return f"{said} (each message needs role, content and chat_time{hint})"


def _own(record: Any) -> Any:
    """A record as graphmem's own message: a Telegram or Messenger one converted (see :mod:`._telegram`,
    :mod:`._messenger`), None for one holding no text of its writer's (the app's own, a sticker); any other as it is."""
    for app in (telegram, messenger):
        if app.written_by(record):
            return None if app.textless(record) else app.as_message(record)
    return record


def _message(record: Any, where: str, *, day_first: bool, tz: tzinfo | str, user: str | None,
             chat_time: datetime | None = None) -> Message:
    """A checked message (``chat_time``: already read from it, when it was checked before)."""
    record = _own(record)  # (read again from the file, a Telegram record is as it was written)
    if not isinstance(record, dict):
        raise ImportFailed(f"{where}: expected a JSON object with role, content and chat_time, "
                           f"got {type(record).__name__}")
    if missing := [key for key in ("role", "content", "chat_time") if record.get(key) is None]:
        raise ImportFailed(f"{where}: {_missing(missing, record)}")
    role = _text_field(record, "role", where, required=True).strip().lower()
    content = _text_field(record, "content", where, required=True)
    if chat_time is None:
        raw_time = record.get("chat_time")
        if not isinstance(raw_time, str):
            problem = "is missing" if raw_time is None else "must be text such as 2025-09-12T08:00:00Z"
            raise ImportFailed(f"{where}: 'chat_time' {problem}")
        try:
            chat_time = parse_chat_time(raw_time, day_first=day_first, tz=tz)
        except InvalidInput as exc:
            raise ImportFailed(f"{where}: {exc}") from exc
    actor = _text_field(record, "actor", where, required=False)
    return Message(where=where, role=role, content=content, chat_time=chat_time,
                   id=_text_field(record, "id", where, required=False),
                   actor=actor.strip() if actor else None, user=user)


# --- JSON documents ---------------------------------------------------------------------------------

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")
_BOM = b"\xef\xbb\xbf"


class _Broken(Exception):
    """The text is not one well-formed JSON document (json.loads says exactly why)."""


def _skip(text: str, pos: int) -> int:
    space = _SPACE.match(text, pos)
    assert space is not None  # \s* matches anywhere
    return space.end()


def _expect(text: str, pos: int, chars: str) -> str:
    if pos >= len(text) or text[pos] not in chars:
        raise _Broken
    return text[pos]


def _array_items(text: str, pos: int) -> tuple[list[int], int]:
    """Where each item of the JSON array at ``text[pos]`` starts, and where the array ends.

    Each item is decoded to find its end and then dropped: only one is held at a time.
    """
    starts: list[int] = []
    pos = _skip(text, pos + 1)
    if pos < len(text) and text[pos] == "]":
        return starts, pos + 1
    while True:
        _, end = _DECODER.raw_decode(text, pos)
        starts.append(pos)
        pos = _skip(text, end)
        if _expect(text, pos, ",]") == "]":
            return starts, pos + 1
        pos = _skip(text, pos + 1)


def _document(text: str) -> tuple[str, Any, int, list[int] | None]:
    """Walk a one-document file: ("list", None, 0, item starts) for a JSON list; ("messages",
    (user_id, (participants, their line) or None), offset, item starts or None when not a list)
    for an object with "messages";
    ("other", ...) for any other document. Raises _Broken (or JSONDecodeError) when the text is
    not one well-formed document."""
    pos = _skip(text, 0)
    if pos < len(text) and text[pos] == "[":
        starts, end = _array_items(text, pos)
        found: tuple[str, Any, int, list[int] | None] = ("list", None, pos, starts)
    elif pos < len(text) and text[pos] == "{":
        found, owner, end = ("other", None, pos, None), None, _skip(text, pos + 1)
        named: tuple[Any, int] | None = None
        while text[end:end + 1] != "}":
            name, end = _DECODER.raw_decode(text, end)
            if not isinstance(name, str):
                raise _Broken
            pos = _skip(text, end)
            _expect(text, pos, ":")
            pos = _skip(text, pos + 1)
            if name == "messages" and text[pos:pos + 1] == "[":
                starts, end = _array_items(text, pos)
                found = ("messages", None, pos, starts)  # like json.loads, the last duplicate wins
            else:
                value, end = _DECODER.raw_decode(text, pos)
                if name == "messages":
                    found = ("messages", None, pos, None)
                elif name == "user_id":
                    owner = value
                elif name == "participants":
                    named = (value, text.count("\n", 0, pos) + 1)
            end = _skip(text, end)
            if _expect(text, end, ",}") == ",":
                end = _skip(text, end + 1)
                if text[end:end + 1] == "}":
                    raise _Broken  # a trailing comma
        end += 1
        found = (found[0], (owner, named), found[2], found[3])
    else:
        _, end = _DECODER.raw_decode(text, pos)
        found = ("other", None, pos, None)
    if text[_skip(text, end):]:
        raise _Broken
    return found


def _whole_json(text: str, path: Path) -> None:
    """Explain why ``text`` is not one JSON document: raise ImportFailed naming the line, or
    return when it is JSON Lines after all (checked line by line)."""
    try:
        json.loads(text.rstrip())  # a document cut short is placed at its last line's end, not past it
    except json.JSONDecodeError as exc:
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            json.loads(first)
            return  # one value per line: JSON Lines
        except json.JSONDecodeError:
            if exc.msg == "Extra data":
                return
        raise ImportFailed(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}, column {exc.colno})") from exc


# --- a file of messages -----------------------------------------------------------------------------

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LONE_CR = re.compile(rb"\r(?!\n)")


def _micros(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(microseconds=1)


def _stamp(path: Path) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_size, found.st_mtime_ns


def _lines(source: BinaryIO, path: Path) -> Iterator[tuple[int, bytes]]:
    """Each line of a binary file from where ``source`` stands, with the byte offset it starts at (a lone CR ends a
    line too); no line longer than :data:`graphmem.core.json_lines.MAX_LINE` is held."""
    offset = source.tell()
    for _, raw in lines(source, path):
        if offset == 0 and raw.startswith(_BOM):
            raw, offset = raw[len(_BOM):], len(_BOM)
        if b"\r" in raw.rstrip(b"\r\n"):
            at = 0
            for part in _LONE_CR.split(raw):
                yield offset + at, part
                at += len(part) + 1
        else:
            yield offset, raw
        offset += len(raw)


def _text_lines(source: BinaryIO, path: Path) -> Iterator[tuple[int, int, str, int]]:
    """(offset, line number from where ``source`` stands, text, bytes it takes with its end) of each line (see
    :func:`_lines`)."""
    for number, (offset, raw) in enumerate(_lines(source, path), 1):
        yield offset, number, _decoded(raw, offset, path).rstrip("\r\n"), len(raw) + 1


def _decoded(raw: bytes, offset: int, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path} is not UTF-8 text ({exc.reason} at byte {offset + exc.start})") from exc


class MessageFile(Sequence[Message]):
    """The messages of a chat file, all checked, read again from the file when they are used.

    Made by :func:`read_messages`, which reads the file once and keeps, per message, only where
    it is and its chat time. Iterating or indexing gives messages in file order;
    :meth:`in_chat_time_order` in chat-time order (a stable sort). Should the file change after
    it was checked, reading it again raises ImportFailed.

    ``participants``: the two people of a two-person chat (whom "I" and "you" mean in each
    other's messages), when known: as given, else the file's ``participants`` field, else the
    two actors of its user messages when there are exactly two; else None.
    """

    def __init__(self, path: Path, *, day_first: bool, tz: tzinfo | str, user: str | None, document: bool,
                 export: Callable[[BinaryIO, int, Path], dict[str, str]] | None = None):
        self.path, self.user = path, user
        self._export = export  # a phone's export: how a message is read again from where it starts
        self.participants: tuple[str, str] | None = None
        self.told = False  # whether the file named its participants (a group's file names more than two)
        self._actors: set[str] = set()
        self.as_user = 0  # user messages whose speaker is the user given (``user``): none, and it named no one
        self.zoneless = False  # a phone's export whose clock says no zone (WhatsApp's, LINE's): read in ``tz``
        self.clock: timedelta | None = None  # how far the clock of the computer that exported it stood from UTC
        self._user_key = speaker_key(user) if user is not None else None
        self._read: dict[str, Any] = {"day_first": day_first, "tz": tz}
        self._document = document  # one JSON document (offsets in its text), else JSON Lines (bytes)
        self._offsets, self._lines, self._times = array("q"), array("q"), array("q")
        self._stamp = _stamp(path)
        self._day_places: dict[str, str] = {}  # where a numeric date's day was seen first: place -> message
        self._named = False  # whether a user message names its speaker
        self._nameless: tuple[int, str | None] = (0, None)  # user messages naming no speaker (nor the file its
        # user): how many, and where the first is
        self._nicknamed: list[Any] = []  # Messenger's records of a nickname set (see :attr:`nicknames`)
        self.app_lines = 0  # Messenger's records of no writer's text (photos, calls, the app's own lines)

    @property
    def either_way(self) -> str | None:
        """Where a numeric chat time either order of day and month reads ("03/04/2026") was first seen, when every
        numeric date of the file reads either way (read in the order asked for, month first by default); else None."""
        places = self._day_places
        return places["either"] if "either" in places and "first" not in places and "second" not in places else None

    def some_speakers(self) -> list[str]:
        """The speakers of the file's first user messages, up to four, in alphabetical order."""
        return sorted(self._actors)

    def speaker_like(self, name: str) -> str | None:
        """Of :meth:`some_speakers`, the one ``name`` may mean, compared as ``user`` is (case, accents and spaces
        aside): one whose name starts with it as a word ("Siobhan" of "Siobhán Keane"), else the closest spelling."""
        typed = speaker_key(name)
        folded = {speaker_key(speaker): speaker for speaker in self.some_speakers()}
        near = next((speaker for key, speaker in folded.items() if key.startswith(typed + " ")), None)
        if near is None and (close := difflib.get_close_matches(typed, folded, n=1, cutoff=0.6)):
            near = folded[close[0]]
        return near

    def saw(self, record: Any) -> None:
        """Note what a record as the app wrote it tells of the file: the clock it was exported on (Telegram's), a
        nickname set in the app (Messenger's, with the participants when they are known)."""
        if self.clock is None:
            self.clock = telegram.clock_offset(record)
        if messenger.sets_nickname(record):
            self._nicknamed.append(record)
        if messenger.textless(record):  # (of Messenger's records only)
            self.app_lines += 1

    @property
    def nicknames(self) -> list[tuple[str, str]]:
        """Each (whose name, nickname) a Messenger file says was set in the app, once, in the file's order: "You set
        the nickname for Tomás Ferreira to Tomi."; "your" is the other of the file's two participants."""
        found = [messenger.nickname(record, self.participants) for record in self._nicknamed]
        return list(dict.fromkeys(pair for pair in found if pair is not None))

    @property
    def nameless_among_named(self) -> tuple[int, str | None]:
        """How many user messages name no speaker, read as said by 'user', and where the first is, in a file whose
        other user messages name theirs (a new user's log: one line without "actor" made a person of its own); else
        (0, None)."""
        return self._nameless if self._named else (0, None)

    def _add(self, offset: int, line: int, message: Message) -> None:
        if message.role == "user" and message.actor:
            self._named = True
        elif message.role == "user" and not message.user:
            count, first = self._nameless
            self._nameless = (count + 1, first or message.where)
        if message.role == "user" and len(self._actors) < 4:  # (two are a chat's participants; four, more than three)
            self._actors.add(message.speaker)
        if message.role == "user" and self.user is not None and speaker_key(message.speaker) == self._user_key:
            self.as_user += 1
        self._offsets.append(offset)
        self._lines.append(line)
        self._times.append(_micros(message.chat_time))

    def _one_order(self, text: Any, where: str) -> None:
        """Refuse a file whose numeric dates would be read wrongly: one whose dates put the day where it is not read
        ("25/03/2024" read month first) and that also has a date either order reads ("03/04/2024", then read the
        wrong way without a word), or one that writes dates both ways; naming the lines. A file of dates only one
        order makes (a lone "25/03/2024") is read right, and kept."""
        place = day_place(text) if isinstance(text, str) else None
        if place is None or place in self._day_places:
            return
        self._day_places[place] = f"{where} ({text.strip()!r})"
        seen, read = self._day_places, "first" if self._read["day_first"] else "second"
        other = "second" if read == "first" else "first"
        if "first" in seen and "second" in seen:
            day, month = seen["first"], seen["second"]
            raise ImportFailed(f"{self.path}: chat times write dates both ways: {day} has the day first, {month} the "
                               "month first; write the file's dates one way (ISO 8601, 2024-03-25T10:00:00Z, is never "
                               "ambiguous)")
        if other in seen and "either" in seen:
            how = ("read month first (pass --day-first, day_first=True, to read this file day first)"
                   if read == "second" else "read day first (--day-first; leave it out to read this file month first)")
            raise ImportFailed(f"{self.path}: {seen[other]} has the {'day' if other == 'first' else 'month'} first, so "
                               f"{seen['either']} would be {how}")

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> list[Message]: ...

    def __getitem__(self, index: int | slice) -> Message | list[Message]:
        positions = range(len(self))[index]
        with self._reader() as read:
            return [read(i) for i in positions] if isinstance(positions, range) else read(positions)

    def __iter__(self) -> Iterator[Message]:
        with self._reader() as read:
            for i in range(len(self)):
                yield read(i)

    def in_chat_time_order(self) -> Iterator[Message]:
        """The messages by chat time; those said at the same time in file order."""
        order = sorted(range(len(self)), key=self._times.__getitem__)
        with self._reader() as read:
            for i in order:
                yield read(i)

    @contextmanager
    def _reader(self) -> Iterator[Callable[[int], Message]]:
        try:
            changed = _stamp(self.path) != self._stamp
        except OSError as exc:
            raise ImportFailed(f"cannot read {self.path}: {exc.strerror or exc}") from exc
        if changed:
            raise ImportFailed(f"{self.path} changed after it was checked; read it again")
        if self._export is not None:
            read_again = self._export
            with open_regular(self.path) as source:
                yield lambda i: self._message(read_again(source, self._offsets[i], self.path), i)
            return
        if self._document:
            text = self.path.read_text(encoding="utf-8-sig")
            yield lambda i: self._message(_DECODER.raw_decode(text, self._offsets[i])[0], i)
            return
        with open_regular(self.path) as source:
            def read(i: int) -> Message:
                source.seek(self._offsets[i])
                raw = _LONE_CR.split(source.readline(), maxsplit=1)[0]
                return self._message(loads(_decoded(raw, self._offsets[i], self.path)), i)

            yield read

    def _message(self, record: Any, i: int) -> Message:
        return _message(record, f"{self.path}:{self._lines[i]}", user=self.user, **self._read,
                        chat_time=_EPOCH + timedelta(microseconds=self._times[i]))


def _named(value: Any, text: str, starts: list[int] | None) -> Any:
    """A file's ``participants`` field as the names to check: Messenger's, read as names (``[{"name": …}]``), and none
    for a group's (more than two: no one "you" means); any other as it is, checked as graphmem's own."""
    first = _DECODER.raw_decode(text, starts[0])[0] if starts else None
    people = messenger.names(value) if first is None or messenger.written_by(first) else None  # (no message: its
    # participants as Messenger writes them still read, a new user's empty file refused for its participants)
    return value if people is None else people if len(people) == 2 else None


def _participants(value: Any, where: str) -> tuple[str, str]:
    """Two different non-empty names, from a list or from text "A,B"."""
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ImportFailed(f"{where}: 'participants' must be two names, like [\"Maya\", \"Sam\"]")
    cleaned = tuple(n.strip() for n in names)
    if len(cleaned) != 2 or not all(cleaned) or cleaned[0].casefold() == cleaned[1].casefold():
        raise ImportFailed(f"{where}: 'participants' must be two different names, got {value!r}")
    return cleaned[0], cleaned[1]


def read_messages(path: str | Path, *, day_first: bool = False, tz: tzinfo | str = UTC,
                  user: str | None = None, participants: str | Sequence[str] | None = None) -> MessageFile:
    """Check a file of chat messages and say where each one is; raise ImportFailed naming the
    first bad line.

    The file is JSON Lines (one ``{"role", "content", "chat_time", "id"?, "actor"?}`` per line),
    a JSON list of such objects, or ``{"user_id": ..., "messages": [...]}``. Chat times are
    ISO 8601 or full dates like '1:56 pm on 8 May, 2023' (naive ones read in ``tz``). ``user``
    names the speaker of user messages that give no actor (default: the file's user_id).
    ``participants`` names the two people of a two-person chat ("A,B" or two names) where the
    file cannot say (a ``participants`` field of the JSON object form, or the two actors of its
    user messages). The answer is a sequence of :class:`Message` read again from the file when used.
    """
    path = Path(path)
    user = user.strip() or None if isinstance(user, str) else user  # "Sam " is Sam, as an episode's actor is kept
    read = {"day_first": day_first, "tz": tz}
    if path.is_dir():
        raise ImportFailed(_a_folder(path))
    try:
        if (head := _head(path)) is not None and (kind := archive(head)):
            raise ImportFailed(f"{path} is {kind} archive, not a chat; unpack it and pass the chat file inside "
                               f"({_CHAT_FILES})")
        if head is not None and (card := _card(head)):
            raise ImportFailed(f"{path} is {card}, not a chat; pass the chat file ({_CHAT_FILES})")
        if head is not None and sms.is_sms(head):  # (its participants name a contact, maybe with a
            return _scan_sms(path, read, user, participants, head)  # comma in the name: read there)
        given = None if participants is None else _participants(
            list(participants) if not isinstance(participants, str) else participants, "participants")
        found = _scan(path, read, user)
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not len(found) and found.app_lines:
        some = f"{found.app_lines} messages hold" if found.app_lines > 1 else "one message holds"
        raise ImportFailed(f"{path}: a Messenger export whose {some} no text of a writer's (photos, stickers, calls, "
                           "the app's own lines): nothing to record")
    if not len(found) and found.told:
        raise ImportFailed(f"{path}: its \"messages\" list is empty: nothing to record")
    if not len(found):
        raise ImportFailed(f"{path}: no messages found; expected JSON Lines of "
                           '{"role", "content", "chat_time"} or {"user_id", "messages": [...]}')
    if given is not None:
        found.participants = given
    elif found.participants is None and not found.told and len(found._actors) == 2:
        first, second = sorted(found._actors)
        found.participants = (first, second)
    return found


#: The chat files of the exports read, as a message names them.
_CHAT_FILES = ("Instagram's and Messenger's messages/inbox/NAME/message_1.json, Telegram's result.json, WhatsApp's "
               "or LINE's .txt, an SMS backup's .xml, JSON Lines")
#: How many chat files a folder's message names, and how many of its entries are looked at for them.
_NAMED_IN_FOLDER, _LOOKED_AT = 3, 20_000
#: The names the exports read give a chat's file: Messenger's and Instagram's, Telegram's, WhatsApp's, LINE's, SMS
#: Backup & Restore's, and JSON Lines.
_CHAT_FILE = re.compile(r"message_\d+\.json|result\.json|WhatsApp Chat.*\.txt|_chat\.txt|\[LINE\].*\.txt|"
                        r"sms-.*\.xml|.*\.jsonl", re.IGNORECASE)


def _a_folder(path: Path) -> str:
    """What to say of a folder given as a chat file: the chat files in it that a look at its first entries finds,
    by the names the exports give them (an export unpacked: "your_instagram_activity/messages/inbox/duarte_123/
    message_1.json", a new user's), not every text file (a README)."""
    found: list[str] = []
    looked = 0
    for folder, folders, files in os.walk(path):
        folders.sort()
        looked += len(files) + len(folders)
        found += [str(Path(folder) / name) for name in sorted(files, key=_oldest_first) if _CHAT_FILE.fullmatch(name)]
        if looked >= _LOOKED_AT or len(found) >= _NAMED_IN_FOLDER:
            break
    some = f"; chat files in it: {', '.join(found[:_NAMED_IN_FOLDER])}" if found else ""
    parts = [Path(name).parent for name in found if messenger.PART.fullmatch(Path(name).name)]
    if any(parts.count(folder) > 1 for folder in parts):  # (one chat's parts, not three chats' message_1.json)
        some += " (Messenger numbers one chat's files newest first: ingest the highest number first)"
    return f"{path} is a folder, not a chat; pass one chat file ({_CHAT_FILES}){some}"


def _oldest_first(name: str) -> tuple[int, int, str]:
    """A folder's files in the order to ingest them: Messenger's parts the highest number first, then by name."""
    part = messenger.PART.fullmatch(name)
    return (0, -int(part[1]), name) if part else (1, 0, name)


#: The first bytes of the archives a chat comes in, and their names.
_ARCHIVES = {b"PK\x03\x04": "a zip", b"PK\x05\x06": "a zip", b"PK\x07\x08": "a zip", b"\x1f\x8b": "a gzip",
             b"BZh": "a bzip2", b"\xfd7zXZ\x00": "an xz", b"7z\xbc\xaf\x27\x1c": "a 7z"}


#: The first line of the cards a chat app shares beside a chat (a contact, an invitation), and their names.
_CARDS = {b"BEGIN:VCARD": "a contact card (vCard)", b"BEGIN:VCALENDAR": "a calendar file (iCalendar)"}


def _card(head: bytes) -> str | None:
    """The kind of card a file opening with ``head`` is ("a contact card (vCard)"), or None."""
    opening = head.lstrip(b"\xef\xbb\xbf \t\r\n").upper()
    return next((kind for first, kind in _CARDS.items() if opening.startswith(first)), None)


def archive(head: bytes) -> str | None:
    """The kind of archive a file opening with ``head`` (its first 512 bytes or more) is ("a zip"), or None."""
    if head[257:262] == b"ustar":
        return "a tar"
    return next((kind for magic, kind in _ARCHIVES.items() if head.startswith(magic)), None)


def _head(path: Path) -> bytes | None:
    """The first bytes of a file (enough to tell an XML file by), or None for an empty one."""
    with open_regular(path) as source:
        return source.read(512) or None


def _scan(path: Path, read: dict[str, Any], user: str | None) -> MessageFile:
    """Read the file once, checking every message."""
    with open_regular(path) as source:
        rest = _lines(source, path)
        first = next(((n, o, r) for n, (o, r) in enumerate(rest, 1) if r.strip()), None)
        if first is None:
            return MessageFile(path, user=user, document=False, **read)
        if _export.is_export(_decoded(first[2], first[1], path)):
            return _scan_export(path, read, user)
        if line_app.is_line(_decoded(first[2], first[1], path)):
            return _scan_line(path, read, user)
        spread = False  # a document over several lines
        try:
            loads(_decoded(first[2], first[1], path))
            alone = all(not r.strip() for _, r in rest)
        except json.JSONDecodeError:
            alone = spread = True  # perhaps a document over several lines
        except ValueError as exc:  # nested too deeply, a number of more digits than Python reads (an attacker's)
            raise ImportFailed(f"{path}:{first[0]}: not valid JSON ({exc})") from None
    if alone:
        text = _decoded(path.read_bytes(), 0, path).removeprefix("\ufeff")
        try:
            shape, owner, at, starts = _document(text)
        except (_Broken, json.JSONDecodeError):
            _whole_json(text, path)  # raises for a broken document
            shape = "lines"
        except (RecursionError, ValueError) as exc:  # a document nested too deeply, a number of too many digits
            raise _too_much(exc, path) from None  # (a reviewer's)
        if shape == "other" and spread:  # (an attacker's: Telegram's whole-account export was "not valid JSON")
            raise ImportFailed(f"{path}: one JSON document with no \"messages\" list; give a list of messages, an "
                               "object with \"messages\", JSON Lines, or one chat's Telegram export (the result.json "
                               "of \"Export chat history\", not the whole account's)")
        if shape in ("list", "messages"):
            owner, named = owner if shape == "messages" else (None, None)
            try:
                found = _scan_document(path, text, read, user, shape, owner, at, starts)
            except (RecursionError, ValueError) as exc:
                raise _too_much(exc, path) from None
            if named is not None:
                found.told = True  # (a group's: no one, not the two of its people who spoke)
                if (people := _named(named[0], text, starts)) is not None:
                    found.participants = _participants(people, f"{path}:{named[1]}")
            return found
    found = MessageFile(path, user=user, document=False, **read)
    seen: dict[str, int] = {}
    with open_regular(path) as source:
        number = 0
        for offset, raw in _lines(source, path):
            number += 1
            if not raw.strip():
                continue
            try:
                record = loads(_decoded(raw, offset, path).rstrip("\r\n"))  # an error placed on its own line
            except json.JSONDecodeError as exc:
                raise ImportFailed(f"{path}:{number}: not valid JSON ({exc.msg}, column {exc.colno})") from exc
            except ValueError as exc:  # nested too deeply, a number of more digits than Python reads
                raise ImportFailed(f"{path}:{number}: not valid JSON ({exc})") from None
            found.saw(record)
            if (record := _own(record)) is None:
                continue  # a Telegram record, one per line: the app's own, a sticker
            _check(found, offset, number, _message(record, f"{path}:{number}", user=user, **read), seen, record)
    return found


def _scan_document(path: Path, text: str, read: dict[str, Any], user: str | None, shape: str, owner: Any,
                   at: int, starts: list[int] | None) -> MessageFile:
    if shape == "messages":
        if owner is not None and (not isinstance(owner, str | int) or not str(owner).strip()):
            raise ImportFailed(f"{path}:1: 'user_id' must be non-empty text")
        if starts is None:
            raise ImportFailed(f"{path}:{text.count(chr(10), 0, at) + 1}: 'messages' must be a list")
        user = user or (str(owner).strip() if owner is not None else None)
    assert starts is not None  # a list's item starts are always found
    found = MessageFile(path, user=user, document=True, **read)
    seen: dict[str, int] = {}
    line, counted = 1, 0
    for start in starts:
        line, counted = line + text.count("\n", counted, start), start
        record = _DECODER.raw_decode(text, start)[0]
        found.saw(record)
        if (record := _own(record)) is None:
            continue  # the app's own line, a sticker, a photo with no caption
        _check(found, start, line, _message(record, f"{path}:{line}", user=user, **read), seen, record)
    return found


def _message_lines(source: BinaryIO, path: Path) -> Iterator[tuple[int, int, str, _export.Opening | None]]:
    """(offset, line number, text, its opening) of each line from where ``source`` stands, one message at a time: the
    first line of each (its opening read, see :func:`._export.opening`) and those that go on it (None); a message
    longer than :data:`MAX_LINE` bytes is refused (no more is held)."""
    start, size = None, 0
    for offset, number, text, length in _text_lines(source, path):
        if (opened := _export.opening(text)) is not None:
            start, size = number, 0
        size += length
        if start is not None and size > MAX_LINE:
            raise ImportFailed(f"{path}:{start}: a message longer than {MAX_LINE:,} bytes")
        yield offset, number, text, opened


def _exported(source: BinaryIO, offset: int, path: Path) -> dict[str, str]:
    """The message of a phone's export that starts at ``offset``, as a record (its time is known already)."""
    source.seek(offset)
    said: tuple[str, str] | None = None
    parts: list[str] = []
    for _, _, text, opened in _message_lines(source, path):
        if said is None:
            said = _export.body(opened.rest) if opened else None
            if said is None:
                raise ImportFailed(f"{path} changed after it was checked; read it again")
            parts.append(said[1])
        elif opened is not None:
            break
        else:
            parts.append(text)
    assert said is not None
    return {"role": "user", "actor": said[0], "content": _export.cleaned("\n".join(parts)), "chat_time": ""}


def _moment(naive: datetime, tz: tzinfo, before: datetime | None) -> datetime:
    """When a phone's clock time was, in ``tz``, the message before it said at ``before``: in the hour the clocks go
    back, the pass that keeps the messages in order (the second, once the first has gone by); in the hour they skip,
    no earlier than the message before (an attacker's: both reordered a chat)."""
    first, second = parse_time(naive, tz), parse_time(naive.replace(fold=1), tz)
    if first == second or before is None:
        return first
    if first.astimezone(tz).replace(tzinfo=None) != naive:  # no such time: the hour skipped
        return max(before, min(first, second))
    later = [m for m in sorted((first, second)) if m >= before]
    return later[0] if later else before


def _export_messages(path: Path) -> Iterator[tuple[int, int, _export.Opening, str]]:
    """(offset, line, opening, writer) of each message of a phone's export that holds text of its writer's (the app's
    own lines and messages with no text left out), read from the file a message at a time."""
    with open_regular(path) as source:
        start: tuple[int, int, _export.Opening] | None = None
        parts: list[str] = []
        for offset, number, text, opened in _message_lines(source, path):
            if opened is not None:
                if (kept := _kept(start, parts)) is not None:
                    yield kept
                start, parts = (offset, number, opened), []
            elif start is not None:
                parts.append(text)
        if (kept := _kept(start, parts)) is not None:
            yield kept


def _kept(start: tuple[int, int, _export.Opening] | None, parts: list[str]
          ) -> tuple[int, int, _export.Opening, str] | None:
    """The message begun at ``start`` with the lines ``parts`` going on it, with its writer, if it holds their text."""
    if start is None or (said := _export.body(start[2].rest)) is None:
        return None
    text = _export.cleaned("\n".join([said[1], *parts]))
    return None if _export.skipped(text) or not has_visible(text) else (*start, said[0])


def _dates_order(path: Path, dates: Iterable[tuple[int, bool | None | str]],
                 default: bool) -> tuple[bool, int | None]:
    """Whether a phone's export writes its dates day first, from each date's (line, order it shows: True day first,
    False month first, None either, "" nothing: a year first, or a day that is its month's number); ``default``
    where none shows one, and then the first line whose date reads either way (else None). An export that writes
    both is refused, naming a line of each."""
    orders: dict[bool, int] = {}
    either = None
    for number, order in dates:
        if isinstance(order, bool):
            orders.setdefault(order, number)
        elif order is None and either is None:
            either = number
    if len(orders) == 2:
        raise ImportFailed(f"{path}: the export writes dates both ways: line {orders[True]} has the day first, line "
                           f"{orders[False]} the month first")
    return next(iter(orders), default), either if not orders else None


def _scan_export(path: Path, read: dict[str, Any], user: str | None) -> MessageFile:
    """Read a phone's export (see :mod:`._export`): where each message starts, who wrote it and when. The dates' order
    is the file's: a day after the 12th says it (a file that writes both is refused); where none says it,
    ``day_first``. Read twice, the order first: one pass that kept every message until the order was known held 2.5 GB
    for an export of 310 MB."""
    day_first, either = _dates_order(path, ((number, "" if opened.year_first or opened.first == opened.second else
                                             opened.order()) for _, number, opened, _ in _export_messages(path)),
                                     read["day_first"])
    found = MessageFile(path, user=user, document=False, export=_exported, **read)
    found.zoneless = True
    if either is not None:
        found._day_places["either"] = f"{path}:{either}"  # every date reads either way: read as asked (a new user's)
    tz, before = zone(read["tz"]), None
    for offset, number, opened, writer in _export_messages(path):
        try:
            moment = _moment(opened.moment(day_first), tz, before)
        except ValueError as exc:
            raise ImportFailed(f"{path}:{number}: no such date ({exc})") from None
        before = moment
        found._add(offset, number, Message(where=f"{path}:{number}", role="user", content="-", chat_time=moment,
                                           actor=writer, user=user))  # (its text is read when used)
    return found


def _quote_runs(text: str) -> list[int]:
    """The lengths of the runs of double quotes in ``text``."""
    return [len(run) for run in _QUOTES.findall(text)]


_QUOTES = re.compile(r'"+')


def _opens_quote(first: str) -> bool:
    """Whether a LINE message's first line opens a text of several lines: LINE quotes only those, doubling each quote
    inside, so it starts with a quote and every quote after it is doubled ("\"Aiko is 9 na" yes; "\"Dune\" was so good",
    a one-line text that starts with a quote, no: an attacker's)."""
    return first.startswith('"') and len(first) > 1 and all(n % 2 == 0 for n in _quote_runs(first[1:]))


def _closes_quote(line: str) -> bool:
    """Whether a line inside a quoted LINE text closes it: it ends on an odd run of quotes (a doubled one is text)."""
    stripped = line.rstrip('"')
    return len(line) > len(stripped) and (len(line) - len(stripped)) % 2 == 1


def _line_message(source: BinaryIO, path: Path) -> Iterator[tuple[int, int, line_app.Said, str]]:
    """Each message of LINE's export from where ``source`` stands: (offset, line, its first line read, its whole text);
    a message longer than :data:`MAX_LINE` bytes is refused. A quoted text of several lines runs to the line that
    closes it (read once: linear), or to a line that opens a message of someone's (a quote typed and never closed,
    '"hello', is then one line)."""
    start: tuple[int, int, line_app.Said] | None = None
    parts: list[str] = []
    size, quoted = 0, False
    for offset, number, text, length in _text_lines(source, path):
        if start is not None and quoted and not ((again := line_app.said(text)) is not None and again.writer):
            parts.append(text)
            size += length
            if size > MAX_LINE:
                raise ImportFailed(f"{path}:{start[1]}: a message longer than {MAX_LINE:,} bytes")
            quoted = not _closes_quote(text)
            continue
        if start is not None:
            yield *start, "\n".join(parts)
            start = None
        if (opened := line_app.said(text)) is not None:
            start, parts, size = (offset, number, opened), [opened.text], length
            quoted = _opens_quote(opened.text)
        elif line_app.is_day(text):
            yield offset, number, line_app.Said(-1, -1, "", ""), text  # a day's line
    if start is not None:
        yield *start, "\n".join(parts)


def _exported_line(source: BinaryIO, offset: int, path: Path) -> dict[str, str]:
    """The message of LINE's export that starts at ``offset``, as a record (its time is known already)."""
    source.seek(offset)
    for _, _, opened, text in _line_message(source, path):
        if opened.hour < 0 or not opened.writer:
            break
        return {"role": "user", "actor": opened.writer, "content": line_app.cleaned(text), "chat_time": ""}
    raise ImportFailed(f"{path} changed after it was checked; read it again")


def _sms_texts(path: Path) -> Iterator[sms.Said]:
    """Each text of a backup of Android texts (see :mod:`._sms`) received or sent, not of a group, holding words."""
    with open_regular(path) as source:
        try:
            for said in sms.messages(source):
                if said.kept and has_visible(said.text):
                    yield said
        except sms.Broken as exc:
            raise ImportFailed(f"{path}:{exc.line}: {exc.why}" if exc.line else f"{path}: {exc.why}") from None


def _exported_sms(source: BinaryIO, offset: int, path: Path, *, owner: str, contact: str,
                  of: dict[tuple[str | None, str], str], key: str, digests: dict[int, int]) -> dict[str, str]:
    """The text of a backup whose element starts at ``offset``, as a record (its time is known already); refused when it
    is no longer the text checked there (the file changed, its size and time kept: an attacker's, who rewrote the
    texts in place while they were written, so facts read from the old ones were linked to the new)."""
    source.seek(offset)
    try:
        said = next(sms.messages(source, offset, one=True), None)
    except sms.Broken:
        said = None
    if said is None or not said.kept or of.get(sms.contact_key(said)[:2]) != key or _digest(said) != digests.get(
            offset):
        raise ImportFailed(f"{path} changed after it was checked; read it again")
    return {"role": "user", "actor": owner if said.sent else contact, "content": said.text, "chat_time": ""}


#: How much of a contact's name a message lists (a name of 300 KB: an attacker's).
_LISTED = 60


def _digest(said: sms.Said) -> int:
    """What a text of a backup holds (its words, time, sender and contact), as a number to compare when it is read
    again."""
    return zlib.crc32("\x00".join((said.text, sms.moment(said), str(said.sent), *map(str, sms.contact_key(said))))
                      .encode("utf-8", "surrogatepass"))


def _splits(participants: str | Sequence[str]) -> list[tuple[str, str]]:
    """The ways ``participants`` names two people: "Me,Smith, John" is Me and "Smith, John", or "Me,Smith" and
    "John" (a contact's name may hold a comma: an attacker's)."""
    if not isinstance(participants, str):
        names = [str(n) for n in participants]
        return [(names[0].strip(), names[1].strip())] if len(names) == 2 else []
    return [(participants[:i].strip(), participants[i + 1:].strip()) for i, ch in enumerate(participants) if ch == ","]


def _scan_sms(path: Path, read: dict[str, Any], user: str | None, participants: str | Sequence[str] | None,
              head: bytes) -> MessageFile:
    """Read a backup of Android texts (see :mod:`._sms`): one conversation of it, the contact's, the owner of the phone
    writing the texts sent. Read twice: the conversations first (one backup holds all of them: the one read is the
    only one, or the one ``participants`` names beside you), then its texts."""
    if (encoding := sms.declared_encoding(head)) not in (None, "utf-8", "utf8"):
        raise ImportFailed(f"{path}: the backup says its encoding is {encoding}; only UTF-8 (as SMS Backup & Restore "
                           "writes it) is read")
    tallies: dict[tuple[str | None, str], int] = {}
    shown: dict[tuple[str | None, str], str] = {}
    sent: set[tuple[str | None, str]] = set()
    for said in _sms_texts(path):
        name, address, as_shown = sms.contact_key(said)
        tallies[(name, address)] = tallies.get((name, address), 0) + 1
        shown.setdefault((name, address), as_shown)
        if said.sent:
            sent.add((name, address))
    if not tallies:
        raise ImportFailed(f"{path}: an SMS backup with no text received or sent")
    of, display, known = sms.conversations(tallies, shown)
    counts: dict[str, int] = {}
    for pair, count in tallies.items():
        counts[of[pair]] = counts.get(of[pair], 0) + count
    by_size = sorted(counts, key=lambda k: -counts[k])
    listed = ", ".join(f"{clipped(display[k], _LISTED)}: {counts[k]} text{'s' if counts[k] > 1 else ''}"
                       for k in by_size[:6])
    listed += ", …" if len(counts) > 6 else ""
    owner = user
    if participants is not None:
        chosen = {(k, b) for you, who in _splits(participants) if you and who for a, b in ((you, who), (who, you))
                  for k in counts if sms.names_one(a, known[k])}  # (a contact, and you)
        if len(chosen) != 1:
            problem = "names no contact of it" if not chosen else "names more than one of its contacts"
            given = participants if isinstance(participants, str) else ",".join(participants)
            raise ImportFailed(f"{path}: --participants {given} {problem}: give your own name and one contact's, of "
                               f"{listed}")
        (key, owner), = chosen
    elif len(counts) == 1:
        key = by_size[0]
    else:
        example = shlex.quote(f"{user or 'Me'},{clipped(display[by_size[0]], _LISTED)}")
        raise ImportFailed(f"{path}: an SMS backup of {len(counts)} conversations ({listed}); choose one with "
                           f"--participants YOU,CONTACT (such as --participants {example})")
    if owner is None and any(of[pair] == key for pair in sent):
        example = shlex.quote(f"YOU,{clipped(display[key], _LISTED)}")
        raise ImportFailed(f"{path}: an SMS backup does not name its phone's owner, who wrote the texts sent: give "
                           f"your name with --user NAME (or --participants {example})")
    owner = owner or "user"
    if sms.folded(owner) == sms.folded(display[key]):
        raise ImportFailed(f"{path}: the phone's owner and the contact are both called {owner!r}: give your own name")
    digests: dict[int, int] = {}
    found = MessageFile(path, user=user, document=False, export=partial(
        _exported_sms, owner=owner, contact=display[key], of=of, key=key, digests=digests), **read)
    seen: dict[str, int] = {}
    for said in _sms_texts(path):
        if of.get(sms.contact_key(said)[:2]) != key:
            continue
        digests[said.offset] = _digest(said)
        record = {"role": "user", "actor": owner if said.sent else display[key], "content": "-",
                  "chat_time": sms.moment(said)}  # (its text is read when used)
        _check(found, said.offset, said.line, _message(record, f"{path}:{said.line}", user=user, **read), seen, record)
    if not len(found):
        raise ImportFailed(f"{path} changed after it was checked; read it again")
    found.participants, found.told = (owner, display[key]), True
    return found


def _scan_line(path: Path, read: dict[str, Any], user: str | None) -> MessageFile:
    """Read LINE's export (see :mod:`._line`): where each message starts, who wrote it and when; the app's own lines,
    stickers, photos and calls left out. The dates' order is the file's (a day after the 12th says it; a file that
    writes both is refused); where none says it, ``day_first``. Read twice, the days first: one pass that kept every
    message until the order was known held 1.8 GB for a file of 250 MB (two: 134 MB, ~15 % more time)."""
    with open_regular(path) as source:
        day_first, _ = _dates_order(path, ((number, _day(path, number, text, False)[1])
                                           for _, number, opened, text in _line_message(source, path)
                                           if opened.hour < 0), read["day_first"])  # (LINE's year first: no note)
    found = MessageFile(path, user=user, document=False, export=_exported_line, **read)
    found.zoneless = True
    tz, before, day = zone(read["tz"]), None, None
    with open_regular(path) as source:
        for offset, number, opened, text in _line_message(source, path):
            if opened.hour < 0:
                day = _day(path, number, text, day_first)[0]
                continue
            content = line_app.cleaned(text)
            if not opened.writer or line_app.skipped(content) or not has_visible(content):
                continue  # the app's own line ("Kiko unsent a message."), a sticker, a photo, a call
            if day is None:
                raise ImportFailed(f"{path}:{number}: a message before any day's line (such as \"Sun, 1/11/2026\")")
            try:
                moment = _moment(line_app.moment(day, opened), tz, before)
            except ValueError as exc:
                raise ImportFailed(f"{path}:{number}: no such date ({exc})") from None
            before = moment
            found._add(offset, number, Message(where=f"{path}:{number}", role="user", content="-", chat_time=moment,
                                               actor=opened.writer, user=user))  # (its text is read when used)
    if not len(found):
        raise ImportFailed(f"{path}: LINE's export, but no message read: each is a clock, a name and the text, tab "
                           "apart (20:02<TAB>Kiko<TAB>hi, or 8:02 PM); an app in another language may write its clock "
                           "otherwise (午後8:02): export it with the app in English")
    return found


def _day(path: Path, number: int, text: str, day_first: bool) -> tuple[date, bool | None]:
    """A day's line read (see :func:`._line.day_of`), a date no calendar has refused naming its line."""
    try:
        read = line_app.day_of(text, day_first)
    except ValueError as exc:
        raise ImportFailed(f"{path}:{number}: no such date ({exc})") from None
    assert read is not None  # (a day's line, as _line_message found it)
    return read


def _check(found: MessageFile, offset: int, line: int, message: Message, seen: dict[str, int],
           record: dict[str, Any]) -> None:
    """Keep a checked message's place, refusing an id used before, and a file whose numeric dates this one shows
    would be read wrongly (:meth:`MessageFile._one_order`)."""
    found._one_order(record["chat_time"], message.where)
    if message.id is not None:
        if message.id in seen:
            raise ImportFailed(f"{message.where}: message id {message.id!r} is already used "
                               f"at {found.path}:{seen[message.id]}")
        seen[message.id] = line
    found._add(offset, line, message)


# --- memories -----------------------------------------------------------------------------------------

_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d{1,3}[.)])\s+")


def read_memories(path: str | Path) -> list[str]:
    """Read remembered lines as an assistant displays them: one per line, or a JSON list of strings.

    Blank lines are skipped and list markers ("- ", "• ", "3. ") removed.
    """
    path = Path(path)
    try:
        with open_regular(path) as handle:
            data = handle.read()
        if kind := archive(data[:512]):
            raise ImportFailed(f"{path} is {kind} archive, not remembered lines; unpack it and pass the file inside")
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportFailed(f"{path}:{exc.lineno}: not a valid JSON list ({exc.msg}, "
                               f"column {exc.colno})") from exc
        starts, _ = _array_items(text, _skip(text, 0))
        for start, item in zip(starts, items):
            if not isinstance(item, str):
                raise ImportFailed(f"{path}:{text.count(chr(10), 0, start) + 1}: expected a remembered "
                                   f"line as text, got {type(item).__name__}")
        raw = items
    else:
        raw = text.splitlines()
    memories = [line for line in (_BULLET.sub("", item, count=1).strip() for item in raw) if has_visible(line)]
    if not memories:
        raise ImportFailed(f"{path}: no memories found; give one remembered line per line, "
                           "or a JSON list of strings")
    return memories
