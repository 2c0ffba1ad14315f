"""Relation phrases of a question: "my sister", "your mum", "Maya's sister", "the wife of Ivan".

A phrase of a relation word (:mod:`graphmem.core.relations`: "sister", and the everyday words for
them: "mum", "mom", "kids", "flatmate", "mother in law") belongs to someone: the speaker for
"my"/"our" (or "Mum", "Dad" used as a name), the other participant of the chat for "your",
the entity named for "Maya's" or "of Maya". It is resolved through the relation facts believed
at the question's moment: ``X sister_of Maya`` makes X Maya's sister, and ``Maya sister_of X``
makes X Maya's sibling (what turns around is what :func:`~graphmem.core.relations.inverse` says
is certain); a wider word covers narrower ones ("sibling" finds sisters and brothers). The same
words from another speaker mean another person: nothing is remembered between questions.

Several people may match (two sisters): each is anchored, each answer says which. Relations
valid at the question's moment are preferred; when none is, those that ended are used.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

from ..core.relations import EVERYDAY, covers, inverse, relation_of
from ._index import RecallIndex
from ._plan import Anchor, Key, Plan, Resolution, group_of, key_of, name_at, name_ending
from ._text import Token

__all__ = ["KIN", "kin"]

#: A phrase (folded words) -> the relation word it asks for.
KIN: dict[tuple[str, ...], str] = {tuple(phrase.split()): word for word, phrases in EVERYDAY.items()
                                   for phrase in phrases}
_LONGEST = max(len(k) for k in KIN)
_MINE = frozenset({"my", "our"})
_YOURS = frozenset({"your"})
#: Words that are also said as a name for the speaker's own: "Mum said…", "ask Dad".
_AS_NAME = frozenset({"mother", "father", "grandmother", "grandfather"})
_APOSTROPHES = ("'", "’")


def kin(text: str, words: list[Token], used: list[bool], index: RecallIndex, key: Key, t: int, plan: Plan,
        speaker: str | None, listener: str | None, window: tuple[int, int] | None = None) -> set[str]:
    """Resolve the question's relation phrases (see the module's docstring): anchor the people
    they lead to, mark their words used, record each resolution in the plan. Returns the owners
    (the people whose relation led somewhere; their weight is lowered). ``window``: the valid time the
    question names, whose relations are meant (else those valid at ``t``)."""
    owners: set[str] = set()
    i = 0
    while i < len(words):
        found = _phrase(words, used, i)
        if found is None:
            i += 1
            continue
        end, word = found
        owner = _owner(text, words, used, i, end, word, index, key, t, speaker, listener)
        if owner is None:
            i = end
            continue
        owner_id, first, last = owner
        led = _lead(index, owner_id, word, t, window)
        if not led:
            i = end
            continue
        said = text[words[min(first, i)].start:words[max(last, end) - 1].end]
        owner_name = index.entities[owner_id][0]
        known = {a.entity_id for a in plan.anchors}
        if owner_id not in known:
            owner_said = text[words[first].start:words[last - 1].end] if last > first else owner_name
            plan.anchors.append(Anchor(owner_id, owner_name, owner_said))
        for person, doc in led:
            if person not in {a.entity_id for a in plan.anchors}:
                plan.anchors.append(Anchor(person, index.entities.get(person, (person, ""))[0], said, via=owner_name))
            plan.resolved.append(Resolution("relation", said, person, doc))
        for j in (*range(first, last), *range(i, end)):
            used[j] = True
        owners.add(owner_id)
        i = max(end, last)
    return owners


def _phrase(words: list[Token], used: list[bool], i: int) -> tuple[int, str] | None:
    for size in range(min(_LONGEST, len(words) - i), 0, -1):
        if any(used[j] for j in range(i, i + size)):
            continue
        word = KIN.get(tuple(w.word for w in words[i:i + size]))
        if word is not None:
            return i + size, word
    return None


def _owner(text: str, words: list[Token], used: list[bool], i: int, end: int, word: str, index: RecallIndex,
           key: Key, t: int, speaker: str | None, listener: str | None) -> tuple[str, int, int] | None:
    """Whose relation the phrase at ``[i, end)`` asks for: (entity id, its words' span)."""
    before = words[i - 1].word if i > 0 else None
    if before in _MINE or before in _YOURS:
        person = speaker if before in _MINE else listener
        entity_id = key_of(key, person)
        if entity_id in index.entities and index.has_believed(entity_id, t):
            return entity_id, i - 1, i
        return None
    if before == "s" and i >= 2 and text[words[i - 2].end:words[i - 1].start] in _APOSTROPHES and not used[i - 2]:
        named = name_ending(text, words, i - 2, index, key, t)
        if named is not None and not any(used[j] for j in range(named[0], i - 1)):
            return named[1], named[0], i
    if end + 1 < len(words) and words[end].word == "of" and not used[end + 1]:
        named = name_at(text, words, end + 1, len(words), index, key, t)
        if named is not None and not any(used[j] for j in range(end + 1, named[0])):
            return named[1], end, named[0]
    spoken = text[words[i].start:words[end - 1].end]
    if speaker and word in _AS_NAME and end == i + 1 and spoken[:1].isupper() and i > 0 and (
            name_at(text, words, i, end, index, key, t) is None):  # "Mum", unless someone is called that
        entity_id = key_of(key, speaker)
        if entity_id in index.entities and index.has_believed(entity_id, t):
            return entity_id, i, i
    return None


def _lead(index: RecallIndex, owner: str, asked: str, t: int,
          window: tuple[int, int] | None = None) -> list[tuple[str, int]]:
    """The people who are ``owner``'s ``asked`` by the relation facts believed at ``t``, each with
    the fact that says so; those valid at ``t`` (in ``window``, when the question names a time) if any, else
    every one."""
    found: dict[str, tuple[bool, int]] = {}
    names = group_of(index, owner, t)  # "coco's boyfriend": said of Chloe, coco's other name
    for i in dict.fromkeys(i for name in names for i in index.believed_docs(name, t)):
        doc = index.docs[i]
        word = relation_of(doc.predicate)
        if word is None:
            continue
        if doc.object_id in names and covers(asked, word):
            person = doc.subject_id  # PERSON is WORD of OWNER
        elif doc.subject_id in names and (turned := inverse(word)) is not None and covers(asked, turned):
            person = doc.object_id  # OWNER is WORD of PERSON: PERSON is owner's inverse(WORD)
        else:
            continue
        if person in names:
            continue
        valid = (doc.valid_from < window[1] and window[0] < doc.valid_to) if window else (
            doc.valid_from <= t < doc.valid_to)
        held = found.get(person)
        if held is None or (valid and not held[0]):
            found[person] = (valid, i)
    if any(valid for valid, _ in found.values()):
        found = {p: v for p, v in found.items() if v[0]}
    return [(person, doc) for person, (_, doc) in found.items()]
