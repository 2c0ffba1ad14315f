"""Before or after an event the question names: "before he moved to Lisbon", "after she started at
Acme", "who was Keisha dating before Terrence".

After "before", "until", "after" or "since", a question may name an event by its object: who
(a name; "he", "she", "they" for the people the question named before it; "I", "we" for the
speaker; nobody, in "before Terrence", for the people named before the word), a verb or none,
and the entity it happened with. The event is the fact between that person and that entity
believed at the question's moment (of the predicate the verb points at, else of the kind asked,
else any; the latest, if several), and its valid start is the edge, or its valid end for a verb
of leaving ("after she left Acme"). The question then keeps facts valid before (after) the edge,
and the facts of the asked kind about that person nearest the edge answer first (see
:class:`._plan.Nearest`).

When the question names an event no fact is known for (an entity, or a capitalised name the store
does not know: "before he moved to Madrid"), no window is guessed (not the person's latest move):
the resolution is recorded without a fact, and the search falls back on messages. A phrase that
names nothing ("after the party") or starts with a time phrase ("before March 2020") is left to
the time phrases; "before she moved", with no object, to the person's latest change.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._index import INF, RecallIndex
from ._plan import FIRST_PERSON, Anchor, Key, Nearest, Period, Plan, Resolution, group_of, key_of, name_at
from ._synonyms import Table, find
from ._text import Token, is_stop, stem

__all__ = ["event"]

#: The words that open an event phrase, and whether the window lies before the event.
_SIDE = {"before": True, "until": True, "till": True, "after": False, "since": False}
_PRONOUNS = frozenset({"he", "she", "they", "i", "we"})
_AUXILIARY = frozenset({"got", "get", "had", "has", "have", "was", "were", "did", "first", "finally", "eventually",
                        "just", "then", "officially", "actually"})
#: Verbs of leaving: the event's end is the edge ("after she left Acme", "before they split").
_ENDING = frozenset(stem(w) for w in ("left", "leave", "leaving", "quit", "dumped", "divorced", "ended", "split",
                                      "finished", "stopped", "broke", "lost", "fired", "retired", "resigned"))
_AWAY = frozenset({"out", "away"})  # "moved out of", "moved away from"
_CLAUSE_END = frozenset(",.;:?!()")


def event(text: str, words: list[Token], used: list[bool], index: RecallIndex, synonyms: Table, key: Key, t: int,
          speaker: str | None, plan: Plan, times: Sequence[tuple[int, int]] = ()) -> Period | None:
    """The window of the first event phrase of the question whose object is named (see the
    module's docstring), or None. Records the resolution (and the nearest rule) in ``plan``;
    an event named but unknown is recorded without a fact, and gives no window. A phrase
    whose first word starts a time phrase (``times``: where they stand in the text) is none."""
    for k, token in enumerate(words):
        if used[k] or token.word not in _SIDE or k + 1 >= len(words):
            continue
        if any(start <= words[k + 1].start < stop for start, stop in times):
            continue  # "before March 2020": a time phrase
        end = _clause_end(text, words, k)
        if end > k + 1:
            named, period = _read(text, words, used, k, end, index, synonyms, key, t, speaker, plan)
            if named:
                return period
    return None


def _clause_end(text: str, words: list[Token], k: int) -> int:
    for m in range(k + 1, len(words)):
        if any(ch in _CLAUSE_END for ch in text[words[m - 1].end:words[m].start]):
            return m
    return len(words)


def _read(text: str, words: list[Token], used: list[bool], k: int, end: int, index: RecallIndex, synonyms: Table,
          key: Key, t: int, speaker: str | None, plan: Plan) -> tuple[bool, Period | None]:
    """Whether the phrase at ``[k, end)`` names an event with an object, and its window (None
    for an event named but unknown)."""
    first = k + 1
    who: list[str]
    word = words[first].word
    named = name_at(text, words, first, end, index, key, t)
    if word in _PRONOUNS:
        who = _pronoun(word, text, words, k, index, key, t, speaker, plan)
        rest = first + 1
    elif named is not None and _more(words, named[0], end):  # "before Jamie moved to Glasgow"
        who, rest = [named[1]], named[0]
    else:  # "before Terrence", "before moving to Lisbon": the people named before
        who, rest = _pronoun("they", text, words, k, index, key, t, speaker, plan), first
    while rest < end and words[rest].word in _AUXILIARY:
        rest += 1
    target = None
    at = rest
    while at < end and target is None:
        target = name_at(text, words, at, end, index, key, t)
        if target is None:
            at += 1
    verb = [words[j].word for j in range(rest, at)]
    verb_predicates = frozenset().union(*(h.predicates for h in find([stem(w) for w in verb], verb, synonyms)))
    phrase = text[words[k].start:words[end - 1].end]
    if target is None:
        after_verb = [words[j] for j in range(rest + (1 if verb_predicates else 0), end) if not is_stop(words[j].word)]
        if not any(text[w.start].isupper() for w in after_verb if w.word != "i"):
            return False, None  # nothing named: "before she moved" (the latest change), "after the party"
        _use(used, k, end)
        plan.resolved.append(Resolution("event", phrase, None, None))
        return True, None
    object_id = target[1]
    outside = [j for j in range(len(words)) if not used[j] and not k <= j < end]
    asked = frozenset().union(*(h.predicates for h in find([stem(words[j].word) for j in outside],
                                                           [words[j].word for j in outside], synonyms)))
    chosen = _fact(index, who, object_id, verb_predicates, asked, t)
    ending = any(stem(w) in _ENDING for w in verb) or (bool(verb_predicates) and bool(_AWAY & set(verb)))
    _use(used, k, end)
    if chosen is None or (ending and index.docs[chosen[0]].valid_to >= INF):
        plan.resolved.append(Resolution("event", phrase, object_id, None))
        return True, None
    doc_index, person = chosen
    doc = index.docs[doc_index]
    edge = doc.valid_to if ending else doc.valid_from
    before = _SIDE[words[k].word]
    plan.resolved.append(Resolution("event", phrase, object_id, doc_index, edge))
    names = group_of(index, person, t)
    kinds = frozenset().union(*(_predicates_of(index, name, t) for name in names))
    plan.nearest = Nearest(frozenset(names), asked & kinds or frozenset({doc.predicate}), edge, before, doc_index)
    if person not in {a.entity_id for a in plan.anchors}:
        name = index.entities[person][0]
        plan.anchors.append(Anchor(person, name, name))
    return True, Period(-INF, edge, phrase, event=True) if before else Period(edge, INF, phrase, event=True)


def _more(words: list[Token], start: int, end: int) -> bool:
    """Whether a word that carries weight follows ``start`` in the phrase (a verb after a name)."""
    return any(not is_stop(words[j].word) for j in range(start, end))


def _use(used: list[bool], start: int, end: int) -> None:
    for j in range(start, end):
        used[j] = True


def _pronoun(word: str, text: str, words: list[Token], k: int, index: RecallIndex, key: Key, t: int,
             speaker: str | None, plan: Plan) -> list[str]:
    """Who "he", "she", "they" (the people the question names before word ``k``, in order, then
    the people its relation phrases led to) or "I", "we" (the speaker) are."""
    if word in ("i", "we"):
        entity_id = key_of(key, speaker)
        return [entity_id] if entity_id and entity_id in index.entities else []
    found: list[str] = []
    j = 0
    while j < k:
        named = name_at(text, words, j, k, index, key, t)
        if named is not None:
            found.append(named[1])
            j = named[0]
            continue
        if speaker and words[j].word in FIRST_PERSON:
            entity_id = key_of(key, speaker)
            if entity_id and entity_id in index.entities:
                found.append(entity_id)
        j += 1
    found.extend(r.entity_id for r in plan.resolved if r.kind == "relation" and r.entity_id)
    return list(dict.fromkeys(found))


def _predicates_of(index: RecallIndex, person: str, t: int) -> frozenset[str]:
    return frozenset(index.docs[i].predicate for i in index.believed_docs(person, t))


def _fact(index: RecallIndex, who: list[str], object_id: str, verb: frozenset[str], asked: frozenset[str],
          t: int) -> tuple[int, str] | None:
    """The fact between one of ``who`` (the first that has one) and the object, believed at
    ``t``: of the verb's predicate, else the asked kind, else any; the latest of them."""
    targets = set(group_of(index, object_id, t))  # "NYC" and "New York"
    for person in who:
        if person == object_id:
            continue
        names = group_of(index, person, t)  # "before lenny moved to manchester": said of Lena
        found = [i for name in names for i in index.believed_docs(name, t)
                 if index.docs[i].subject_id in names and index.docs[i].object_id in targets
                 or index.docs[i].object_id in names and index.docs[i].subject_id in targets]
        if found:
            def preference(i: int) -> tuple[bool, bool, bool, int]:
                doc = index.docs[i]
                return doc.predicate in verb, doc.predicate in asked, doc.valid_from <= t, doc.valid_from
            return max(found, key=preference), person
    return None
