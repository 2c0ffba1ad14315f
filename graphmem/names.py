"""Names: how entities are keyed and which predicate names and kinds are valid.

A leaf module of plain rules, with no store in sight: the write path, import, the extractors
and every front end check names here, so each rule exists once.

One visible name is one entity. An entity's id (its *key*) is its name after Unicode NFKC
normalisation, with invisible format characters (zero-width spaces and joiners, bidi marks)
removed, case folded, and runs of whitespace collapsed to one space: "José" typed composed or
decomposed, "Ｉｖａｎ" in full-width letters and "ivan" all meet. A name with nothing visible
left is refused.

Internal: the rules :class:`graphmem.Store` applies to every name it is given.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, cast, get_args

from .errors import InvalidInput, InvalidPredicate

__all__ = ["CONTROL", "KINDS", "PREDICATE_NAME", "PredicateKind", "check_kind", "check_label", "check_predicate",
           "display_name", "entity_key", "entity_problem", "guess_kind", "refuse_kind_change"]

#: How a predicate's values live together: ``one`` at a time, ``many`` at once, or each an ``event``.
PredicateKind = Literal["one", "many", "event"]
#: The predicate kinds, in the order they are listed to users.
KINDS: tuple[str, ...] = get_args(PredicateKind)
PREDICATE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
MAX_NAME = 1000

_SPACES = re.compile(r"\s+")
#: The control characters (Unicode category Cc: C0, DEL and C1), refused in names and labels.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_LITERAL = re.compile(r"^[-+]?\d+([.,]\d+)?$|^\d{4}-\d{2}(-\d{2})?")
#: Characters that draw nothing although Unicode files them as letters (Hangul and braille fillers).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})


def _without_format(text: str) -> str:
    """``text`` without NUL and invisible format characters (category Cf: U+200B, U+200D, U+FEFF...)."""
    return "".join(ch for ch in text if ch != "\x00" and unicodedata.category(ch) != "Cf")


def _visible(text: str) -> bool:
    return any(unicodedata.category(ch) not in _INVISIBLE_CATEGORIES and ch not in _BLANK_LETTERS
               for ch in text)


def display_name(name: str) -> str:
    """A name as shown: as typed, without NUL, whitespace collapsed."""
    if not isinstance(name, str):
        raise InvalidInput(f"an entity name must be text, got {type(name).__name__}")
    return _SPACES.sub(" ", name.replace("\x00", "")).strip()


def entity_key(name: str) -> str:
    """The id an entity named ``name`` has: NFKC, format characters dropped, case folded, single-spaced.

    Refuses a name with nothing visible (empty, spaces, zero-width characters) and one over
    ``MAX_NAME`` characters.
    """
    shown = display_name(name)
    if not _visible(shown):
        raise InvalidInput(f"an entity name cannot be empty or invisible: {name!r} has no visible character")
    if _control(shown):
        raise InvalidInput(f"an entity name cannot hold control characters: {shown!r}")
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", shown).casefold())
    key = _SPACES.sub(" ", _without_format(folded)).strip()
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
    return value


def guess_kind(name: str) -> str:
    """'literal' for numbers and dates, 'entity' otherwise."""
    return "literal" if _LITERAL.match(name.strip()) else "entity"


def check_predicate(name: str) -> str:
    """A predicate name as given, refused unless it is lowercase words joined by underscores."""
    if not isinstance(name, str) or not PREDICATE_NAME.match(name):
        raise InvalidPredicate(
            f"predicate {name!r} is not a valid name; use lowercase letters, digits and "
            "underscores, starting with a letter (e.g. lives_in)"
        )
    return name


def refuse_kind_change(predicate: str, current: str, kind: str, in_use: bool) -> None:
    """Refuse a new kind for a predicate that versions already use under another: its versions
    were written by another kind's rules."""
    if current != kind and in_use:
        raise InvalidPredicate(f"{predicate} is already used as {current!r}; its kind cannot change now")


def check_kind(kind: str) -> PredicateKind:
    """A predicate kind as given, refused unless it is one of :data:`KINDS`."""
    if kind not in KINDS:
        raise InvalidPredicate(f"unknown predicate kind {kind!r}; choose {', '.join(KINDS[:-1])} or {KINDS[-1]}")
    return cast(PredicateKind, kind)
