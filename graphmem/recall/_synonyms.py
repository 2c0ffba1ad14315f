"""Words that point at predicates: "job" means works_at, "home" means lives_in, "hobby" means likes.

A synonym is a phrase of one or more words and the predicate it names. The built-in list covers
the predicates every store knows and a few common ones; a store adds its own (kept in the store
as a setting and exported with the log). Phrases are compared word by word after folding and
stemming, stop words included, so "work for" matches "works for" and "worked for".

Internal: manage synonyms with ``Store.add_synonym``, ``remove_synonym`` and ``synonyms``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

from ..errors import InvalidInput
from ._text import stem, tokens

__all__ = ["SETTING", "SynonymHit", "Table", "add", "decode", "encode", "find", "merged", "remove",
           "table_of"]

#: The store setting that holds a store's own synonyms (a JSON object: phrase -> [predicates]).
SETTING = "recall:synonyms"
MAX_PHRASE_WORDS = 6

#: Built-in synonyms, by predicate.
BUILTIN: dict[str, tuple[str, ...]] = {
    "lives_in": ("live", "living", "home", "house", "flat", "apartment", "city", "town", "hometown", "based",
                 "move", "moved", "relocate", "reside", "resident", "address", "stay"),
    "works_at": ("work", "working", "job", "employer", "employed", "employ", "company", "firm", "office",
                 "hired", "joined", "work for", "colleague", "boss", "workplace", "start date"),
    "works_as": ("job", "role", "position", "title", "profession", "occupation", "career", "for a living"),
    "studies_at": ("study", "student", "university", "uni", "college", "school", "course", "degree",
                   "master", "masters", "phd", "class", "lessons", "enrolled"),
    "graduated_from": ("graduate", "graduation", "degree", "diploma", "alumni", "study"),
    "married_to": ("married", "marry", "marriage", "husband", "wife", "spouse", "wedding", "wed",
                   "wedding date"),  # (a wedding's date, not a date: the longest phrase is read)
    "dating": ("dating", "date", "girlfriend", "boyfriend", "partner", "seeing", "go out with",
               "going out with", "relationship", "couple", "together"),
    "knows": ("know", "friend", "acquaintance"),
    "likes": ("like", "love", "enjoy", "hobby", "hobbies", "into", "fan", "favourite", "favorite", "passion",
              "interest", "keen on", "take up", "took up", "taken up", "picked up", "support", "supporter"),
    "dislikes": ("dislike", "hate", "can't stand", "cannot stand", "detest", "loathe"),
    "traveled_to": ("travel", "trip", "holiday", "vacation", "journey", "tour", "went", "go", "been",
                    "abroad", "flew"),
    "visited": ("visit", "came to", "come to", "stayed with"),
    "met": ("meet", "met", "meeting"),
    "is_called": ("name", "named", "called", "nickname"),
    "status": ("status", "state", "stage"),
    "has_pet": ("pet", "dog", "cat", "puppy", "kitten", "horse", "animal"),
    "plays": ("play", "instrument", "sport", "band"),
    "owns": ("own", "owns", "bought", "buy", "car", "bike", "possession"),
    "does": ("hobby", "hobbies", "activity", "sport", "play", "practise", "practice", "take up", "took up",
             "taken up", "pastime", "spare time"),
    "member_of": ("member", "join", "joined", "club", "team", "choir", "church", "group", "gym"),
    "attended": ("attend", "attended", "went to", "wedding", "concert", "gig", "festival", "event", "party"),
    "sibling_of": ("sibling", "brother", "sister"),
    "parent_of": ("parent", "mother", "mum", "mom", "father", "dad", "child", "children", "kid", "son",
                  "daughter", "baby"),
}

#: A synonym table: phrase (as stems) -> the predicates it names.
Table = dict[tuple[str, ...], frozenset[str]]


class SynonymHit(NamedTuple):
    """A phrase of the query that names predicates: which words (token positions) and which predicates."""

    phrase: str
    predicates: frozenset[str]
    first: int
    last: int  # exclusive


def phrase_key(phrase: str) -> tuple[str, ...]:
    """A phrase as compared: the stems of its words, stop words kept."""
    return tuple(stem(t.word) for t in tokens(phrase))


def _clean(phrase: str) -> str:
    if not isinstance(phrase, str):
        raise InvalidInput("a synonym is text, e.g. 'employer'")
    words = [t.word for t in tokens(phrase)]
    if not words:
        raise InvalidInput(f"synonym {phrase!r} has no words (letters or digits)")
    if len(words) > MAX_PHRASE_WORDS:
        raise InvalidInput(f"a synonym is at most {MAX_PHRASE_WORDS} words, not {len(words)}")
    return " ".join(words)


def decode(value: str | None) -> dict[str, list[str]]:
    """A store's own synonyms from its setting (phrase -> predicates)."""
    if not value:
        return {}
    try:
        data = json.loads(value)
    except json.JSONDecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    own: dict[str, set[str]] = {}
    for k, v in data.items():  # each phrase as words are read now: "café", kept before accents were folded, is "cafe"
        if isinstance(v, list) and (clean := _cleaned(str(k))):
            own.setdefault(clean, set()).update(str(p) for p in v)
    return {k: sorted(v) for k, v in own.items()}


def _cleaned(phrase: str) -> str | None:
    """:func:`_clean`, or None for a phrase it refuses (a setting's own, written by another version)."""
    try:
        return _clean(phrase)
    except InvalidInput:
        return None


def encode(own: Mapping[str, Iterable[str]]) -> str:
    """A store's own synonyms as the setting's text (sorted, so equal tables give equal text)."""
    return json.dumps({k: sorted(set(v)) for k, v in sorted(own.items()) if v}, ensure_ascii=False,
                      sort_keys=True)


def add(own: Mapping[str, Iterable[str]], phrase: str, predicate: str) -> dict[str, list[str]]:
    """``own`` with ``phrase`` naming ``predicate`` too (the predicate's name is checked by the caller)."""
    clean = _clean(phrase)
    updated = {k: sorted(set(v)) for k, v in own.items()}
    updated[clean] = sorted({*updated.get(clean, []), predicate})
    return updated


def remove(own: Mapping[str, Iterable[str]], phrase: str, predicate: str | None = None) -> dict[str, list[str]]:
    """``own`` without ``phrase`` (for ``predicate`` only, when given). Built-in synonyms stay."""
    clean = _clean(phrase)
    updated = {k: sorted(set(v)) for k, v in own.items()}
    if clean not in updated or (predicate is not None and predicate not in updated[clean]):
        what = f"{clean!r} for {predicate}" if predicate else repr(clean)
        raise InvalidInput(f"this store has no synonym {what}; built-in synonyms cannot be removed")
    updated[clean] = [p for p in updated[clean] if predicate is not None and p != predicate]
    return {k: v for k, v in updated.items() if v}


def merged(own: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Every synonym, phrase → predicates: the built-in ones and a store's ``own``."""
    found: dict[str, set[str]] = {}
    for predicate, phrases in BUILTIN.items():
        for phrase in phrases:
            found.setdefault(phrase, set()).add(predicate)
    for phrase, predicates in own.items():
        found.setdefault(phrase, set()).update(predicates)
    return {phrase: sorted(preds) for phrase, preds in sorted(found.items())}


def table(own: Mapping[str, Iterable[str]] | None = None) -> Table:
    """The built-in synonyms merged with a store's own."""
    merged: dict[tuple[str, ...], set[str]] = {}
    for predicate, phrases in BUILTIN.items():
        for phrase in phrases:
            merged.setdefault(phrase_key(phrase), set()).add(predicate)
    for phrase, predicates in (own or {}).items():
        key = phrase_key(phrase)
        if key:
            merged.setdefault(key, set()).update(predicates)
    return {key: frozenset(value) for key, value in merged.items()}


@lru_cache(maxsize=16)
def table_of(setting: str | None) -> Table:
    """The table for a store whose synonyms setting is ``setting`` (cached by its text)."""
    return table(decode(setting))


#: Words the stems make one with a noun of a phrase, which a phrase of more words does not mean: "dating" of "date".
_GERUNDS = frozenset(("dating",))


def find(stems: list[str], words: list[str], synonyms: Table) -> list[SynonymHit]:
    """The synonym phrases in a text given as its stems (and folded words, for display): at each
    position the longest phrase that matches, without overlaps."""
    longest = max((len(k) for k in synonyms), default=0)
    hits, i = [], 0
    while i < len(stems):
        for size in range(min(longest, len(stems) - i), 0, -1):
            predicates = synonyms.get(tuple(stems[i:i + size]))
            if predicates and size > 1 and not _GERUNDS.isdisjoint(words[i:i + size]):
                continue  # "start dating" is no "start date" (a new user's: a job's start answered it)
            if predicates:
                hits.append(SynonymHit(" ".join(words[i:i + size]), predicates, i, i + size))
                i += size
                break
        else:
            i += 1
    return hits
