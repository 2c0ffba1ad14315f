"""Reading a question: the entities it names, the predicates its words point at, its time, its tense.

``parse`` turns text into a :class:`Plan` of weighted terms for the ranking (see
:mod:`graphmem.recall._rank`), with nothing looked up in a database: the entities come from the
index, names are compared with the store's own key function, and time phrases are resolved by a
function the caller passes (the same resolver as ``graphmem when``).

- **Entities** named in the question (the longest run of words whose key is an entity's) become
  anchors: their facts come first. "I", "me", "my", "we", "our" name the speaker, when known.
- **Relations** of an anchor ("Priya's husband", "my sister", "your mum", "the wife of Ivan") also
  anchor the entities they lead to, as believed at the question's moment: through the relation
  facts first (:mod:`._kin`), else through the older relation predicates the synonyms name.
- **Synonyms** ("job", "home", "hobby", "work for") point at predicates; every other word that is
  not a stop word is matched by its stem.
- **Time**: the first time phrase ("in 2023", "last year", "since March") becomes a valid-time
  filter; "before/after/since/until <someone> <verb>" ("before she moved") becomes one too, at the
  start of that person's latest change of the predicate the verb points at; one that names what
  the event was with ("before he moved to Lisbon", "before Terrence") is timed from that fact
  (:mod:`._event`).
- **Tense**: "did/was/used to/before" asks about the past, "now/currently/these days" about the
  present, "will/next/going to" about the future; it breaks near-ties between current and ended
  facts.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.alias_evidence import english_counts
from ..core.entity_kinds import PERSON, ROLES
from ._event import event
from ._index import INF, RecallIndex, micros
from ._kin import kin
from ._plan import FIRST_PERSON, MAX_NAME_WORDS, Anchor, Key, Period, Plan, Term, group_of, key_of
from ._synonyms import SynonymHit, Table, find
from ._text import SAYING, Token, is_stop, stem, term, tokens

if TYPE_CHECKING:
    from ..when import TimeSpan

__all__ = ["FIRST_PERSON", "I_ASKED", "Anchor", "Period", "Plan", "Term", "parse"]

_POSSESSIVE_AFTER = frozenset({"s"})  # "Priya's" is "priya" + "s"
#: The speaker's, before a relation: "my sister", "our kids" (not "I" of "where do I live": a verb follows).
_MY = frozenset({"my", "our"})
_PAST = frozenset({"did", "was", "were", "used", "before", "previously", "formerly", "ago", "had", "last",
                   "earlier", "former", "ex", "originally", "first", "back"})
_PRESENT = frozenset({"now", "currently", "current", "these", "nowadays", "today", "moment", "still", "present",
                      "does", "do", "is", "are", "am"})
#: Predicates that relate people: "Dad", "my sister", "Priya's husband" lead through them.
RELATIONS = frozenset({"parent_of", "sibling_of", "married_to", "dating", "knows"})
OWNER_WEIGHT = 0.5  # the weight left to "Priya" in "Priya's husband", once it led to the husband
_FUTURE = frozenset({"will", "next", "going", "upcoming", "plan", "planning", "soon", "future"})
_EVENT = re.compile(
    r"\b(?i:(before|after|since|until|till))\s+(?:(?P<pronoun>(?i:he|she|they|i|we))\b|(?P<name>[^\W\d_][\w'’.&-]*))"
    r"\s+(?:(?i:got|had|has|have|was|were)\s+)?(?P<verb>[^\W\d_]+)"
)


#: Finds the time phrases of a question: text -> spans with .text, .start and .end (aware; end may be None).
Resolver = Callable[[str], Sequence["TimeSpan"]]


def parse(text: str, index: RecallIndex, synonyms: Table, key: Key, t: int,
          resolve: Resolver | None = None, speaker: str | None = None, listener: str | None = None) -> Plan:
    """Read ``text`` as a question asked at transaction time ``t`` (microseconds); ``speaker`` is
    who asks ("I", "my"), ``listener`` the other participant ("your")."""
    plan = Plan(text)
    words = tokens(text)
    used = [False] * len(words)
    times = list(resolve(text)) if resolve is not None else []
    # "who was lena's boyfriend in october 2025": the relation valid then, not now
    window = (micros(times[0].start), micros(times[0].end) if times[0].end else INF) if len(times) == 1 else None
    owners = kin(text, words, used, index, key, t, plan, speaker, listener, window)
    places = [(where, where + len(span.text)) for span in times if (where := text.find(span.text)) >= 0]
    plan.period = event(text, words, used, index, synonyms, key, t, speaker, plan, places)
    if plan.period is None and not plan.unresolved:
        plan.period = (_event_period(text, words, used, index, synonyms, key, t, speaker)
                       or _time_period(text, words, used, times))
    plan.tense = _tense(words)
    if outcome := _HOW_IT_WENT.search(text):  # "how did the half marathon go": how it turned out, not a trip
        _mark(words, used, outcome.start("go"), outcome.end("go"))
    _anchors(text, words, used, index, key, speaker, plan, t)
    plan.strangers = _strangers(text, words, used)
    if speaker and not any(a.said.casefold() in FIRST_PERSON for a in plan.anchors) and any(
            not used[i] and w.word in I_ASKED for i, w in enumerate(words)):
        plan.strangers.append(speaker)  # "where do I work", asked by someone no fact is about yet: no fact answers
    _other_names(index, plan, t)
    rest = [i for i, u in enumerate(used) if not u]
    stems = [stem(words[i].word) for i in rest]
    plan.synonyms = [hit._replace(first=rest[hit.first], last=rest[hit.last - 1] + 1)
                     for hit in find(stems, [words[i].word for i in rest], synonyms)]
    led, relations = _relations(text, words, index, t, plan, key, speaker)
    owners |= led
    spent = {i for hit in relations for i in range(hit.first, hit.last)}
    terms: dict[str, Term] = {}
    for hit in plan.synonyms:  # (a phrase that led to someone scores its predicate too, but for a relation's: "my
        if hit not in relations or not hit.predicates & RELATIONS:  # job" finds the job, "my sister" the sister)
            for predicate in sorted(hit.predicates):
                terms.setdefault(f"p:{predicate}", Term(f"p:{predicate}", 1.0, hit.phrase))
    for i in rest:
        word = words[i].word
        if i not in spent and not is_stop(word) and word not in SAYING:  # "what did I say about pottery": not a fact
            terms.setdefault(term(word), Term(term(word), 1.0, word))  # whose sentence says "I said hi" (a new user's)
    for anchor in plan.anchors:
        weight = OWNER_WEIGHT if anchor.entity_id in owners else 1.0
        terms.setdefault(f"e:{anchor.entity_id}", Term(f"e:{anchor.entity_id}", weight, anchor.said))
    if plan.nearest is not None:  # the kind of fact asked for, when only the event's verb named it
        for predicate in sorted(plan.nearest.predicates):
            terms.setdefault(f"p:{predicate}", Term(f"p:{predicate}", 1.0, predicate))
    plan.terms = list(terms.values())
    return plan


#: A question of how something turned out, its "go" last: "how did the half marathon go?", "how's the new job going".
_HOW_IT_WENT = re.compile(r"(?i)^\W*how(?:\s+(?:did|does|do|is|was|were|are|has|have)|['’]s|s)\b.*\b"
                          r"(?P<go>go|going|gone|went)\W*$")


def _mark(words: list[Token], used: list[bool], start: int, end: int) -> None:
    for i, token in enumerate(words):
        if token.start >= start and token.end <= end:
            used[i] = True


#: "after" or "before" right before a question's time phrase: the window is what comes after it, or before it (not
#: "look after", "named after": a reviewer's "whose kids did I look after last week").
_SIDE = re.compile(r"(?i)(?<!\blook\s)(?<!\blooks\s)(?<!\blooked\s)(?<!\blooking\s)(?<!\bnamed\s)(?<!\bran\s)"
                   r"(?<!\brun\s)(?<!\brunning\s)\b(?P<side>after|before)\s*$")


def _time_period(text: str, words: list[Token], used: list[bool], times: Sequence[TimeSpan]) -> Period | None:
    """The window of the question's first time phrase; from it on, or up to its end, where the question says after or
    before it ("how many colonies did I have after the winter of 2042": the winter and what followed, not the winter
    alone; what is told of a state after a month is often told in that month)."""
    for span in times:
        where = text.find(span.text)
        if where < 0:
            continue
        _mark(words, used, where, where + len(span.text))
        start, end = micros(span.start), micros(span.end) if span.end else INF
        if side := _SIDE.search(text, 0, where):
            _mark(words, used, side.start(), side.end())
            phrase = f"{side['side'].lower()} {span.text}"
            return Period(start, INF, phrase, within=(start, end)) if side["side"].lower() == "after" else Period(
                -INF, end, phrase, within=(start, end))
        return Period(start, micros(span.end), span.text)
    return None


def _event_period(text: str, words: list[Token], used: list[bool], index: RecallIndex, synonyms: Table, key: Key,
                  t: int,
                  speaker: str | None) -> Period | None:
    """"before she moved", "after Jonas graduated": the start of that person's latest change."""
    for match in _EVENT.finditer(text):
        predicates = synonyms.get((stem(match.group("verb").casefold()),))
        if not predicates:
            continue
        pronoun = (match.group("pronoun") or "").casefold()
        if match.group("name"):
            candidates = [key_of(key, match.group("name"))]
        elif pronoun in ("i", "we"):
            candidates = [key_of(key, speaker)] if speaker else []
        else:  # he, she, they: the people the question names before it, in order
            candidates = [key_of(key, text[w.start:w.end]) for w in words
                          if w.start < match.start() and not is_stop(w.word)]
        for entity_id in candidates:
            if entity_id not in index.entities:
                continue
            starts = [index.docs[i].valid_from for i in index.believed_docs(entity_id, t)
                      if index.docs[i].subject_id == entity_id and index.docs[i].predicate in predicates]
            past = [s for s in starts if s <= t]
            if not starts:
                continue
            moment = max(past) if past else min(starts)
            _mark(words, used, match.start(), match.end())
            word = match.group(1).casefold()
            if word == "before" or word in ("until", "till"):
                return Period(-INF, moment, match.group())
            return Period(moment, INF, match.group())
    return None


def _tense(words: list[Token]) -> str | None:
    said = {w.word for w in words}
    if said & _FUTURE:
        return "future"
    if said & _PRESENT:
        return "present"
    if said & _PAST:
        return "past"
    return None


def _anchors(text: str, words: list[Token], used: list[bool], index: RecallIndex, key: Key, speaker: str | None,
             plan: Plan, t: int) -> None:
    i = 0
    while i < len(words):
        if used[i]:
            i += 1
            continue
        found = None
        for size in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
            span = range(i, i + size)
            if any(used[j] for j in span) or all(is_stop(words[j].word) for j in span):
                continue
            said = text[words[i].start:words[i + size - 1].end]
            entity_id = key_of(key, said)
            entity = index.entities.get(entity_id) if entity_id else None
            if entity_id and entity is not None and entity[1] != "literal" and index.has_believed(entity_id, t):
                found = (size, Anchor(entity_id, entity[0], said))
                break
        if found is None and text[words[i].start].isupper() and not is_stop(words[i].word) and (
                named := [e for e in index.by_first_name.get(words[i].word, ()) if _a_person(index, e, t)]) and \
                len(named) == 1 and key_of(key, words[i].word) not in index.entities:
            found = (1, Anchor(named[0], index.entities[named[0]][0], words[i].word))  # "where does Kevin live": the
            # one person of the store whose full name opens with it, Kevin Kamau (a new user's family chat); not
            # "what is new with Tom" of New York, nor "where does Ana work" of a Work Camp (a reviewer's)
        if found is None and speaker and words[i].word in FIRST_PERSON:
            entity_id = key_of(key, speaker)
            if entity_id in index.entities and index.has_believed(entity_id, t):
                found = (1, Anchor(entity_id, index.entities[entity_id][0], words[i].word))
        if found is None:
            i += 1
            continue
        size, anchor = found
        for j in range(i, i + size):
            used[j] = True
            plan.spans[j] = anchor
        if anchor.entity_id not in {a.entity_id for a in plan.anchors}:
            plan.anchors.append(anchor)
        i += size


def _a_person(index: RecallIndex, entity_id: str, t: int) -> bool:
    """Whether a fact believed at ``t`` makes the entity a person: the subject of a predicate said of people (lives_in,
    works_at, a relation…), or the object of one whose object is a person."""
    return any((doc.subject_id == entity_id and ROLES.get(doc.predicate, (None, None))[0] == PERSON) or (
        doc.object_id == entity_id and ROLES.get(doc.predicate, (None, None))[1] == PERSON)
        for doc in (index.docs[i] for i in index.believed_docs(entity_id, t)))


#: The speaker as the one a question is about ("where do I work", "my dog", "where do we live"), not only the one told
#: ("remind me", "tell us").
I_ASKED = frozenset({"i", "my", "mine", "myself", "we", "our", "ours", "ourselves"})
#: Capitalised words of a question that are no names: months, days, holidays' words, pronouns.
_NOT_STRANGERS = frozenset("""i january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday christmas easter eve new year years halloween thanksgiving
valentine valentine's mum mom dad mama papa grandma granny grandpa nan nana""".split())


def _strangers(text: str, words: list[Token], used: list[bool]) -> list[str]:
    """The words of the question written as names (a capital, not a sentence's first word, no word of English as
    common as "dog" or "live") that name no entity: "where does Tom work", Tom unknown (a new user's: Carmen's own job
    came first; a reviewer's "what is the Dog called", "Where do I work? Remind me")."""
    capitals = [words[i].word for i in range(1, len(words)) if not used[i] and text[words[i].start].isupper()
                and not text[words[i].start:words[i].end].isupper() and not is_stop(words[i].word)
                and words[i].word not in _NOT_STRANGERS and not _OPENS.search(text, 0, words[i].start)]
    if not capitals:
        return []
    counts = english_counts()  # (read once a process, 0.1 s, and only for a question with a capital in it)
    return [word for word in capitals if counts.get(word, 0) < _COMMON]


#: How often a word of English must be written (in the spelling corpus) to be taken for a word, not a name: "dog"
#: 164,131 times, "cat" 62,433; "mark" 50,334, "tom" 6,969.
_COMMON = 60_000
#: A sentence's end right before a word: its capital says nothing.
_OPENS = re.compile(r"[.!?:;]\s*$")


def _other_names(index: RecallIndex, plan: Plan, t: int) -> None:
    """Anchor each named entity's other names too (its aliases believed at ``t``, walked alias by
    alias): a question about "Mel" is about "Melanie" once the two are believed one."""
    anchored = {a.entity_id for a in plan.anchors}
    for anchor in list(plan.anchors):
        for other in group_of(index, anchor.entity_id, t, anchored)[1:]:
            plan.anchors.append(Anchor(other, index.entities.get(other, (other, ""))[0], anchor.said))


def _relations(text: str, words: list[Token], index: RecallIndex, t: int, plan: Plan, key: Key,
               speaker: str | None) -> tuple[set[str], list[SynonymHit]]:
    """"Priya's husband", "my sister", "the wife of Ivan", "Dad": anchor whom the relation leads to.

    Returns the entities that led somewhere (their weight is lowered) and the synonym phrases used
    as relations (their words have done their work)."""
    owners: set[str] = set()
    relations: list[SynonymHit] = []
    by_position = plan.spans
    for hit in plan.synonyms:
        owner = None
        before = hit.first - 1
        if before >= 0 and words[before].word in _POSSESSIVE_AFTER and before - 1 in by_position:
            owner = by_position[before - 1]
        elif before >= 0 and before in by_position and words[before].word in _MY:
            owner = by_position[before]
        elif hit.last + 1 < len(words) and words[hit.last].word == "of" and hit.last + 1 in by_position:
            owner = by_position[hit.last + 1]
        elif speaker and hit.predicates & RELATIONS and text[words[hit.first].start].isupper() and hit.first > 0:
            owner = _speaker(index, key, speaker, t)  # "Dad", "Mum": the speaker's
        if owner is None:
            continue
        led = False
        for i in index.believed_docs(owner.entity_id, t):
            doc = index.docs[i]
            if doc.predicate not in hit.predicates:
                continue
            other = doc.object_id if doc.subject_id == owner.entity_id else doc.subject_id
            if other == owner.entity_id:
                continue
            led = True
            if other not in {a.entity_id for a in plan.anchors}:
                name = index.entities.get(other, (other, "entity"))[0]
                plan.anchors.append(Anchor(other, name, hit.phrase, via=owner.name))
        if led:
            owners.add(owner.entity_id)
            relations.append(hit)
            if owner.entity_id not in {a.entity_id for a in plan.anchors}:
                plan.anchors.append(owner)
        elif hit.predicates & RELATIONS and not any(a.via for a in plan.anchors) and not any(
                a.entity_id == owner.entity_id for at, a in by_position.items() if at != before):
            # "where does my brother live", no brother known: the question is not about its owner (a new user's:
            # the speaker's own home came first); nobody it leads to, the relation's word is searched as a word. Not
            # where another word names the owner too: "where do I work? my sister asked" (a reviewer's)
            plan.anchors[:] = [a for a in plan.anchors if a.entity_id != owner.entity_id]
    return owners, relations


def _speaker(index: RecallIndex, key: Key, speaker: str, t: int) -> Anchor | None:
    entity_id = key_of(key, speaker)
    if entity_id not in index.entities or not index.has_believed(entity_id, t):
        return None
    return Anchor(entity_id, index.entities[entity_id][0], speaker)
