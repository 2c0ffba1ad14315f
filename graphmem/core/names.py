"""Names: how entities are keyed and which predicate names and kinds are valid.

A leaf module of plain rules, with no store in sight: the write path, import, the extractors
and every front end check names here, so each rule exists once.

One visible name is one entity. An entity's id (its *key*) is its name after Unicode NFKC
normalisation, with invisible format characters (zero-width spaces and joiners) removed, case
folded, and runs of whitespace collapsed to one space: "José" typed composed or decomposed,
"Ｉｖａｎ" in full-width letters and "ivan" all meet. A name with nothing visible
left is refused, and so is one holding a bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE
and its kin): those reorder how the text is shown, so "\\u202enavI" would be shown as "Ivan".
Names that look alike in other scripts ("Ivаn" with a Cyrillic а) are other entities; a write
that creates one is told (:mod:`graphmem.lookalike`).

Internal: the rules :class:`graphmem.Store` applies to every name it is given.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal, cast, get_args

from ..errors import InvalidInput, InvalidPredicate

__all__ = ["BIDI_CONTROLS", "CONTROL", "PREDICATE_KINDS", "PREDICATE_NAME", "PURGED", "PredicateKind", "check_label",
           "check_predicate", "check_predicate_kind", "clipped", "display_name", "entity_key", "entity_problem",
           "has_visible", "lone_surrogate", "redact", "refuse_lone_surrogate", "refuse_predicate_kind_change",
           "spelled_pattern", "spelling_probes", "unaccented", "without_accents"]

#: How a predicate's values live together: ``one`` at a time, ``many`` at once, or each an ``event``.
PredicateKind = Literal["one", "many", "event"]
#: The predicate kinds, in the order they are listed to users.
PREDICATE_KINDS: tuple[str, ...] = get_args(PredicateKind)
PREDICATE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
MAX_NAME = 1000
#: What a purge writes in recorded text where the purged name stood.
PURGED = "[purged]"

_SPACES = re.compile(r"\s+")
#: The control characters (Unicode category Cc: C0, DEL and C1), refused in names and labels.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Characters that draw nothing although Unicode files them as letters (Hangul and braille fillers).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})
#: The bidirectional controls (embeddings, overrides, isolates, marks): they change the order in
#: which the characters around them are shown, so a name holding one is shown as another name.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


#: Unicode's default-ignorable code points that are not format characters (Cf): variation
#: selectors, the combining grapheme joiner, Hangul fillers, Mongolian free variation selectors...
#: They draw nothing, so "Ivan" followed by one is shown as "Ivan", and is keyed as "Ivan".
_IGNORABLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
                        "\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def _without_format(text: str) -> str:
    """``text`` without NUL, invisible format characters (category Cf: U+200B, U+200D, U+FEFF...)
    and the other characters Unicode says to ignore when shown (variation selectors, U+034F...)."""
    if text.isascii():  # no ASCII character is a format character or ignorable
        return text.replace("\x00", "")
    return _IGNORABLE.sub("", "".join(ch for ch in text if ch != "\x00" and unicodedata.category(ch) != "Cf"))


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds half of a UTF-16 pair alone ("\ud800"): no text, nothing a file or an engine stores."""
    return not text.isascii() and any(unicodedata.category(ch) == "Cs" for ch in text)


def refuse_lone_surrogate(value: object, what: str) -> None:
    """Refuse ``value`` (``what`` it is, for the message) when it is text holding a lone surrogate
    (:func:`lone_surrogate`); anything else passes."""
    if isinstance(value, str) and lone_surrogate(value):
        raise InvalidInput(f"{what} cannot hold a lone surrogate (half of a UTF-16 pair, not text): {value[:80]!r}")


def has_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character that is no space, control or invisible format character
    ("\u200b" alone shows nothing)."""
    return _visible(_without_format(text))


def _visible(text: str) -> bool:
    return any(unicodedata.category(ch) not in _INVISIBLE_CATEGORIES and ch not in _BLANK_LETTERS
               for ch in text)


#: Invisible characters that join or break nothing a name needs (zero-width space, word joiner, byte order mark, soft
#: hyphen): left out of a name as shown. The zero-width joiner and non-joiner stay: an emoji's family and a Persian
#: or Indic word are written with them.
_UNSEEN = str.maketrans(dict.fromkeys(map(ord, "\x00\u200b\u2060\ufeff\u00ad")))


def clipped(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis ending what was cut (a name or an excerpt in a
    message: a contact's name of 300 KB, a date of 5,000 digits)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def display_name(name: str) -> str:
    """A name as shown: as typed, without NUL or the invisible characters no name needs (:data:`_UNSEEN`: "Jo\u200b"
    is shown "Jo"; a new user's), whitespace collapsed."""
    if not isinstance(name, str):
        raise InvalidInput(f"an entity name must be text, got {type(name).__name__}")
    return _SPACES.sub(" ", name.translate(_UNSEEN)).strip()


def entity_key(name: str) -> str:
    """The id an entity named ``name`` has: NFKC, format characters dropped, case folded, single-spaced.

    Refuses a name with nothing visible (empty, spaces, zero-width characters), one holding a
    bidirectional control (:data:`BIDI_CONTROLS`) or a control character (:data:`CONTROL`), and one
    over ``MAX_NAME`` characters.
    """
    if not isinstance(name, str):
        raise InvalidInput(f"an entity name must be text, got {type(name).__name__}")
    if type(name) is not str or len(name) > _REMEMBERED_UP_TO:
        # not remembered: a subclass of str may not hash (or hash as it likes), and the cache
        # would keep a long text whole
        return _entity_key.__wrapped__(name)
    return _entity_key(name)


#: The longest text :func:`entity_key` remembers: a name's key is at most MAX_NAME characters,
#: but the text may be longer (spaces, zero-width characters), and each remembered text is kept.
_REMEMBERED_UP_TO = 4 * MAX_NAME


@lru_cache(maxsize=1 << 16)
def _entity_key(name: str) -> str:
    """:func:`entity_key` of a text, remembered: a batch write asks it several times a row (a
    sixth of a 1,000-assert batch's CPU at 1M versions before it was)."""
    shown = display_name(name)
    controls = sorted(BIDI_CONTROLS.intersection(shown))
    if controls:
        named = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch)}" for ch in controls)
        raise InvalidInput(f"an entity name cannot hold bidirectional controls, which change how it is shown: "
                           f"{name!r} has {named}; remove them")
    if not _visible(shown):
        raise InvalidInput(f"an entity name cannot be empty or invisible: {name!r} has no visible character")
    if _control(shown):
        raise InvalidInput(f"an entity name cannot hold control characters: {shown!r}")
    refuse_lone_surrogate(shown, "an entity name")
    key = _SPACES.sub(" ", _fold(shown)).strip()
    if len(key) > MAX_NAME:
        raise InvalidInput(f"an entity name is limited to {MAX_NAME} characters")
    return key


def entity_problem(entity_id: str, name: str) -> str | None:
    """What is wrong with a stored entity (``entity_id``, ``name``), or None: its name must be one
    a write stores (:func:`display_name`, refused by nothing in :func:`entity_key`) and its id
    that name's key, so one visible name stays one entity (what import and `check` hold)."""
    try:
        key = entity_key(name)
    except InvalidInput as exc:
        return str(exc)
    if display_name(name) != name:
        return f"the name {name!r} is not as a write stores it ({display_name(name)!r})"
    if key != entity_id:
        return f"the name {name!r} has the id {key!r}, not {entity_id!r}"
    return None


def _control(text: str) -> bool:
    """True when ``text`` holds a control character (category Cc: NUL, ESC, DEL, C1 codes...)."""
    return CONTROL.search(text) is not None


def check_label(value: str, what: str) -> str:
    """A short label stored with a record (an episode's kind) as given, refused when it holds a
    control character (an ESC sequence would drive the terminal that shows it)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text, got {type(value).__name__}")
    if _control(value):
        raise InvalidInput(f"{what} cannot hold control characters: {value!r}")
    refuse_lone_surrogate(value, what)
    return value


#: Letters with no accent to drop that are written as plain ones where a keyboard lacks them: "Fikrət" and
#: "Fikret", "Kırıkkale" and "Kirikkale", "Søren" and "Soren", "Łukasz" and "Lukasz", "Þórir" and "Thorir".
_PLAIN_LETTERS = str.maketrans({"ə": "e", "ı": "i", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae",
                                "œ": "oe", "ß": "ss"})


def unaccented(text: str) -> str:
    """Lower case without accents: "Ciarán" and "ciaran", "Mérida" and "merida", "Fikrət" and "fikret" are one
    spelling to compare."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_PLAIN_LETTERS)
    return unicodedata.normalize("NFC", plain)


@lru_cache(maxsize=1)
def _accented() -> dict[str, str]:
    """Each plain letter a-z and the lower-case letters of the Latin blocks that are it with an accent ("e": "èéê…")."""
    forms: dict[str, str] = {}
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        letter = chr(code)
        base = unaccented(letter)
        if letter == letter.casefold() and len(base) == 1 and "a" <= base <= "z" and base != letter:
            forms[base] = forms.get(base, "") + letter
    return forms


def spelled_pattern(key: str) -> str:
    """A regular expression for ``key`` (an entity key) written with any accents on its letters or none: "ines" matches
    "inês", "zoë" matches "zoe" and "zoé". Unanchored."""
    plain, forms, out = unaccented(key), _accented(), []
    for letter in plain if len(plain) == len(key) else key:  # (a letter that is two plain ones, "ß", kept as it is)
        base = unaccented(letter)
        if len(base) == 1 and base in forms:
            out.append(f"[{base}{forms[base]}]")
        else:
            out.append(re.escape(letter))
    return "".join(out)


def _fold(text: str) -> str:
    """``text`` as names are compared: NFKC, case folded, format characters dropped."""
    return _without_format(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()))


def without_accents(text: str) -> str:
    """Folded ``text`` with the accents of its Latin, Greek and Cyrillic letters taken off (:func:`unaccented`, a
    letter at a time: "zoë" -> "zoe", "łódź" -> "lodz", "þór" -> "thor", a combining accent left over -> nothing);
    other scripts' marks stay, for they make their letters. Names are compared so by purge and by search."""
    if text.isascii():
        return text
    return "".join(unaccented(ch) if ord(ch) < 0x530 or 0x1E00 <= ord(ch) < 0x2000 else ch
                   for ch in unicodedata.normalize("NFC", text))


def speaker_key(name: str) -> str:
    """A speaker's name as ``--speaker``, ``--user`` and ``episodes --by`` compare it: case, accents and runs of spaces
    aside ("Siobhán  Keane" is "siobhan keane")."""
    return " ".join(without_accents(name).casefold().split())


def spelling_probes(name: str) -> set[str]:
    """Parts of ``name`` by which a name spelt with other accents is found among names holding them: its first two
    letters, as typed and plain, and its last plain ones ("emile" finds "Émile" by "ile", "zoë" finds "Zoe" by
    "zo"); compare what they find by :func:`unaccented`."""
    key, plain = entity_key(name), unaccented(name)
    return {key[:2], plain[:2], plain[-3:] if len(plain) > 3 else plain[1:]}


def redact(text: str, keys: Iterable[str], marker: str = PURGED) -> str:
    """``text`` with each whole-word occurrence of a name whose key is in ``keys`` replaced by ``marker``.

    Words are compared as names are (:func:`entity_key`): "IVAN", "Ｉｖａｎ" and "I\u200bvan" are all
    the name "Ivan", and "Ivan  Petrov" across a line break is "Ivan Petrov"; "Ivanka" is not "Ivan". A Latin,
    Greek or Cyrillic letter is compared without its accents: purging "Zoë" leaves no "zoe" (a new user's find).
    """
    wanted = sorted({without_accents(k) for k in keys if k}, key=len, reverse=True)
    if not wanted or not any(k in without_accents(_SPACES.sub(" ", _fold(text))) for k in wanted):
        return text
    # compare character by character (a base with its combining marks), remembering where each
    # folded character came from, so a match is replaced in the text as it was written
    clusters: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if clusters and unicodedata.category(ch).startswith("M"):
            clusters[-1] = (clusters[-1][0], i + 1)
        else:
            clusters.append((i, i + 1))
    folded: list[str] = []
    owner: list[int] = []
    for n, (start, end) in enumerate(clusters):
        part = without_accents(_fold(text[start:end]))
        if part.isspace():
            part = "" if folded and folded[-1] == " " else " "
        folded.extend(part)
        owner.extend([n] * len(part))
    words = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, wanted)) + r")(?!\w)")
    pieces, done = [], 0
    for match in words.finditer("".join(folded)):
        start, end = clusters[owner[match.start()]][0], clusters[owner[match.end() - 1]][1]
        pieces += [text[done:start], marker]
        done = end
    return "".join(pieces) + text[done:]


def check_predicate(name: str) -> str:
    """A predicate name as given, refused unless it is lowercase words joined by underscores."""
    if not isinstance(name, str) or not PREDICATE_NAME.match(name):
        words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name.strip()) if isinstance(name, str) else ""  # "LivesIn":
        joined = "_".join(re.split(r"[\s_-]+", words.lower())) if words else ""  # lives_in (a developer's)
        meant = f"; did you mean {joined!r}?" if joined != name and PREDICATE_NAME.match(joined) else ""
        raise InvalidPredicate(
            f"predicate {name!r} is not a valid name; use lowercase letters, digits and "
            f"underscores, starting with a letter (e.g. lives_in){meant}"
        )
    return name


def refuse_predicate_kind_change(predicate: str, current: str, kind: str, in_use: bool) -> None:
    """Refuse a new kind for a predicate that versions already use under another: its versions
    were written by another kind's rules."""
    if current != kind and in_use:
        raise InvalidPredicate(f"{predicate} is already used as {current!r}; its kind cannot change now (its versions "
                               f"were written by that kind's rules): a kind is declared before a predicate's first "
                               f"fact, so write these facts under a new predicate declared {kind!r}")


def check_predicate_kind(kind: str) -> PredicateKind:
    """A predicate kind as given, refused unless it is one of :data:`PREDICATE_KINDS`."""
    if kind not in PREDICATE_KINDS:
        raise InvalidPredicate(f"unknown predicate kind {kind!r}; "
                               f"choose {', '.join(PREDICATE_KINDS[:-1])} or {PREDICATE_KINDS[-1]}")
    return cast(PredicateKind, kind)
