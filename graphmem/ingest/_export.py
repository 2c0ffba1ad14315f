"""Reading a chat as a phone exports it: WhatsApp's "Export chat" text, from Android or iOS.

Android writes ``14/03/2026, 21:07 - Carmen: text``; iOS ``[14/03/2026, 21:07:15] Carmen: text``;
either may write the date month first or day first, the year in two digits, the clock in 12 hours
("8:14 PM", "8:14 p. m."), with invisible direction marks before a line. A message runs on over the
lines after its first until the next line that opens one. Lines that open no message of a person
(the encryption notice, "Nacho changed his phone number") are left out, and so are messages that hold
no text: media left out of the export, deleted messages, missed calls.

Which order the dates are written in is read from the file: a day after the 12th says it. Where no
date says it, ``day_first`` decides, as for any other file.

Internal: :func:`graphmem.ingest.read_messages` reads such a file (see :mod:`._files`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Opening", "body", "cleaned", "is_export", "opening", "skipped"]

#: Marks some phones put before a line or a name, invisible: left to right, right to left, a BOM.
_MARKS = "\u200e\u200f\ufeff\u202a\u202b\u202c\u2066\u2067\u2068\u2069"
_DATE = r"(?P<a>\d{1,4})[/.\-](?P<b>\d{1,2})[/.\-](?P<c>\d{2,4})\.?"
_CLOCK = (r"(?P<hour>\d{1,2})[:.](?P<minute>\d{2})(?:[:.](?P<second>\d{2}))?"
          r"(?:\s*(?P<half>[AaPp])\.?\s?[Mm]\.?)?")
#: The first line of a message: Android's "14/03/2026, 21:07 - Name: text", iOS's "[14/03/2026, 21:07:15] Name: text".
_OPENING = re.compile(rf"^[{_MARKS}]*\[?{_DATE},?\s+{_CLOCK}(?:\]\s*|\s+[-–]\s+)(?P<rest>.*)$")
#: Who wrote it and what: "Name: text" (a line with no name is the app's own).
_SAID = re.compile(rf"^[{_MARKS}]*(?P<name>[^:\n]{{1,80}}?):\s?(?P<text>.*)$", re.DOTALL)
#: A message that holds no text of its writer's.
_NO_TEXT = re.compile(rf"^[{_MARKS}\s]*(?:<media omitted>|<medien ausgeschlossen>|<multimedia omitido>|"
                      r"<multimedia omessi>|<media omessi>|<fichier omis>|<médias omis>|<mídia oculta>|"
                      r"(?:image|video|audio|sticker|gif|document|contact card) omitted|"
                      r"(?:imagen|video|audio|sticker|documento) omitid[oa]|(?:bild|video|audio) weggelassen|"
                      r"<attached: [^>]*>|<adjunto: [^>]*>|this message was deleted|you deleted this message|"
                      r"se eliminó este mensaje|eliminaste este mensaje|diese nachricht wurde gelöscht|"
                      r"ce message a été supprimé|mensagem apagada|questo messaggio è stato eliminato|"
                      r"(?:missed )?(?:voice|video) call|null|waiting for this message[^\n]*)\s*$", re.IGNORECASE)
#: The app's notice an iPhone's export writes under the contact's name ("Priya: ‎Messages and calls are end-to-end
#: encrypted…"; an Android phone's has no name and is no message at all), in the languages above.
_NOTICE = re.compile(rf"^[{_MARKS}\s]*(?:messages and calls are end-to-end encrypted|messages to this (?:group|chat) "
                     r"are now secured with end-to-end encryption|los mensajes y las llamadas están cifrados de "
                     r"extremo a extremo|nachrichten und anrufe sind ende-zu-ende-verschlüsselt|les messages et les "
                     r"appels sont chiffrés de bout en bout|as mensagens e as chamadas são protegidas com a "
                     r"criptografia de ponta a ponta|i messaggi e le chiamate sono crittografati end-to-end)\.(?:\s|$)",
                     re.IGNORECASE)
#: What an export adds after an edited message's text.
_EDITED = re.compile(rf"\s*[{_MARKS}]*<(?:this message was edited|se editó este mensaje\.?|diese nachricht wurde "
                     r"bearbeitet|ce message a été modifié|mensagem editada|questo messaggio è stato modificato)>\s*$",
                     re.IGNORECASE)
#: The app's own line that holds a colon: "Ana created group "Trip: Lisbon"", "Ben changed the subject to "a: b"".
_APP_LINE = re.compile(r"[\"“”«»]|\b(?:created|changed|added|removed|left|joined|pinned|deleted|turned|reset|made)\b",
                       re.IGNORECASE)


@dataclass(frozen=True)
class Opening:
    """The first line of a message as the export wrote it."""

    first: int  # the date's day and month, in the order written (year first: day, then month)
    second: int
    year: int
    hour: int
    minute: int
    second_of_minute: int
    rest: str  # "Name: text" or the app's own words
    year_first: bool = False  # "2026-03-14": the order is the year's, month then day, whatever the file's

    def moment(self, day_first: bool) -> datetime:
        """When it was written (naive: in the chat's own zone), the date read day first or month first."""
        day, month = (self.first, self.second) if day_first or self.year_first else (self.second, self.first)
        return datetime(self.year, month, day, self.hour, self.minute, self.second_of_minute)

    def order(self) -> bool | None:
        """What this date says of the file's order: True day first ("14/03"), False month first ("03/14"), None
        either ("03/04", or a year written first)."""
        if self.year_first:
            return None
        if self.first > 12 >= self.second:
            return True
        if self.second > 12 >= self.first:
            return False
        return None


def opening(line: str) -> Opening | None:
    """The line as the first of a message, or None for a line that goes on the message before it."""
    m = _OPENING.match(line)
    if m is None:
        return None
    a, b, c = m["a"], m["b"], m["c"]
    year_first = len(a) == 4
    if year_first:  # 2026-03-14, as some locales write it: month, then day
        year, first, second = int(a), int(c), int(b)
    elif len(a) > 2:
        return None
    else:
        first, second, year = int(a), int(b), int(c) + (2000 if len(c) == 2 else 0)
    hour, minute = int(m["hour"]), int(m["minute"])
    if m["half"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m["half"] in "Pp" else 0)
    if hour > 23 or minute > 59 or not 1 <= first <= 31 or not 1 <= second <= 31:
        return None
    return Opening(first, second, year, hour, minute, int(m["second"] or 0), m["rest"], year_first)


def is_export(line: str) -> bool:
    """Whether a file whose first line is ``line`` is a chat export (it opens a message)."""
    return opening(line.rstrip("\r\n")) is not None


def body(rest: str) -> tuple[str, str] | None:
    """The writer and the text of a message's first line after its date ("Carmen: hola" -> ("Carmen", "hola")), or
    None for the app's own line ("Messages and calls are end-to-end encrypted…")."""
    m = _SAID.match(rest)
    name = m["name"].strip(_MARKS + " ") if m else ""
    if not name or (_APP_LINE.search(name) and len(name.split()) >= 2):
        return None  # (a contact's name of two words or more with "created" or a quote in it is the app's line)
    return name, m["text"] if m else ""


def skipped(text: str) -> bool:
    """Whether a message holds no text of its writer's: media left out, a deleted message, a missed call, the app's
    notice of encryption."""
    return _NO_TEXT.match(text) is not None or _NOTICE.match(text) is not None


def cleaned(text: str) -> str:
    """A message's text without what the export added to it ("<This message was edited>")."""
    return _EDITED.sub("", text).strip(_MARKS).rstrip("\r\n")
