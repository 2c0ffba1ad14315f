"""An offline, rule-based extractor of facts from English chat messages.

Each sentence is searched for the verb phrases of :mod:`graphmem.extract._verbs`. For each one
found, the words before it give the subject (I, we, "my sister Ana", "Tom and I", a name that
opens the clause, or none in "Moved to Lisbon!") and the auxiliaries (tense, negation,
"used to", "no longer", hedges); the words after it give the object; the nearest time phrase
of the same clause, resolved by :func:`graphmem.when.resolve_times` against the message's time,
gives the period. First person is the speaker; named others are facts about them.

Precision comes first: questions, conditionals ("if I move"), hedges ("I might", "thinking of",
"I think"), wishes and plans without a time ("I'll visit Rome someday") state nothing; a plan
with an explicit time to come ("I'm moving to Vienna next month") states an upcoming fact.

Internal: import :class:`RuleExtractor` from :mod:`graphmem.extract`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from ..core.tense import FUTURE_AUXILIARY
from ..core.times import UTC
from ..errors import InvalidInput
from ..when import OUT_OF_RANGE, OutOfRange, TimeSpan, find_times
from ._chat import GONE, clean_taste, everyday_object, resolve_pronoun
from ._facts import Context, ExtractedFact, FactOp, MessageResult, Turn
from ._lexicon import (
    NOT_NAMES,
    RELATION_ADJECTIVES,
    RELATIONS,
    STUDENT_NOUNS,
    is_place,
    looks_educational,
    looks_organisational,
)
from ._objects import (
    FIRST_WORD,
    JOB_PHRASE,
    JOB_WORD,
    STUDY_PHRASE,
    called_name,
    lowercase_name,
    people,
    place_name,
    proper_name,
    things,
)
from ._sentences import split_sentences
from ._verbs import VERBS, Verb

__all__ = ["RuleExtractor"]

_A = "['’]"

# --- clauses --------------------------------------------------------------------------------

_PAST_VERB = (r"(?:\w+ed|went|got|left|quit|took|met|had|flew|ran|became|began|made|spent|"
              r"came|saw|drove|fell|bought|found|gave|broke|split)")
_BREAK = re.compile(
    rf";|:\s|\s[-–—]\s|,?\s+(?:but|so|because|though|although|while|whereas|plus)\s+"
    rf"|,?\s+(?:before|after)\s+(?=\w+ing\b)"
    rf"|,?\s+and\s+(?=(?:I|i|we|my|our|now|then|he|she|they|also|"
    rf"{_PAST_VERB})\b)", re.IGNORECASE)


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """(begin, end) of each clause; "Tom and I moved" is not split before "I"."""
    bounds, begin = [], 0
    for brk in _BREAK.finditer(sentence):
        if brk.group().strip(" ,").lower() == "and" and _SUBJECT_ONLY.fullmatch(
                sentence, begin, brk.start()):
            continue
        bounds.append((begin, brk.start()))
        begin = brk.end()
    bounds.append((begin, len(sentence)))
    return bounds


# --- subjects and auxiliaries ---------------------------------------------------------------

_AUX_WORDS = (
    rf"am|is|are|was|were|be|been|being|have|has|had|will|shall|do|does|did|not|never|no\s+longer|"
    rf"don{_A}t|doesn{_A}t|didn{_A}t|won{_A}t|haven{_A}t|hasn{_A}t|hadn{_A}t|wasn{_A}t|isn{_A}t|"
    rf"aren{_A}t|weren{_A}t|ain{_A}t|just|recently|finally|now|still|currently|also|really|"
    r"actually|already|eventually|officially|even|absolutely|truly|totally|genuinely|definitely|"
    r"always|usually|then|later|once|originally|first|got|gotten|get|getting|kind\s+of|sort\s+of|"
    r"sometimes|mostly|happily|honestly|basically|both|all|literally|seriously|ever|since|"
    r"would|could|might|should|may|must|can|cannot|gonna|going\s+to|about\s+to|used\s+to|"
    rf"wouldn{_A}t|couldn{_A}t|can{_A}t|shouldn{_A}t|probably|maybe|perhaps|almost|nearly|"
    r"supposed\s+to|have\s+to|has\s+to|had\s+to|need\s+to|needs\s+to|want\s+to|wants\s+to|"
    r"wanted\s+to|hope\s+to|hoping\s+to|plan\s+to|plans\s+to|planning\s+(?:on|to)|thinking\s+"
    r"(?:of|about)|considering|trying\s+to|tried\s+to|decided\s+to|wanna|wish|officially|"
    r"back|newly|happily|secretly|already|soon|still")
_AUX = rf"(?P<aux>(?:\s+(?i:{_AUX_WORDS})\b|{_A}(?i:m|re|s|ve|d|ll)\b|(?<=\bi)(?:m|ve)\b)*)"
_WORD = r"[A-Z][\w-]*(?:['’](?!s\b)\w+)*"  # O'Brien, but not the 's of "Sara's living"
_NAME = rf"(?:(?!I\b|I['’]){_WORD}\.?(?:\s+(?!I\b|I['’]){_WORD})?)"
_NAMES = rf"{_NAME}(?:(?:\s*,\s*|\s+and\s+){_NAME})*"
_REL = (rf"(?:[Mm]y|[Oo]ur)\s+(?:(?:{'|'.join(sorted(RELATION_ADJECTIVES))})\s+)?"
        rf"(?:{'|'.join(sorted(map(re.escape, RELATIONS), key=len, reverse=True))})")
_SUBJECT = re.compile(
    rf"(?:^|(?<=[\s,;:(“\"]))(?:(?P<first>I|i|[Ww]e|(?:[Mm]y|[Oo]ur)\s+(?:whole\s+)?family)"
    rf"|(?P<mixed>{_REL}(?:\s+(?P<mixed_names>{_NAMES}))?\s+and\s+I)"
    rf"|(?P<named>{_REL}\s+(?P<rel_names>{_NAMES}))"
    rf"|(?P<pair>(?P<pair_name>{_NAME}|(?-i:[a-z][a-z'’-]+))\s+and\s+(?:I|i)\b)"
    rf"|(?P<me>[Mm]e\s+and\s+(?P<me_name>{_NAME}))"
    rf"|(?P<who>(?P<who_name>{_NAME}),\s+who)"
    rf"|(?P<titled>(?:[Mm]y\s+)?(?:Grandpa|Grandma|Granny|Grandad|Nana|Uncle|Aunt|Auntie|Cousin)"
    rf"\s+(?P<titled_name>{_NAME}))"
    rf"|(?P<appos1>(?P<appos1_name>{_NAME}),\s+{_REL},)"
    rf"|(?P<appos2>{_REL},\s+(?P<appos2_name>{_NAME}),)"
    rf"|(?P<pronoun>[Hh]e|[Ss]he)"
    rf"|(?P<bare>{_NAMES})){_AUX}\s*$")
_INTERJECTION = (r"(?:just|finally|lol|so|also|oh|recently|ugh|haha|omg|well|anyway|btw|"
                 r"guess\s+what|actually|and|update|news|big\s+news|yay|welp|fyi|ok|okay|"
                 r"honestly|hey|hi|hello|wow|yes|yeah|sadly|luckily|apparently|today|officially)")
_SUBJECTLESS = re.compile(rf"^(?:\W*{_INTERJECTION}\b)*\W*?{_AUX}\s*$", re.IGNORECASE)
_LEAD_ONLY = re.compile(rf"^(?:\W*{_INTERJECTION}\b)*[\W]*$", re.IGNORECASE)
_SUBJECT_ONLY = re.compile(rf"\s*(?:(?:{_INTERJECTION})\W*)*(?:{_REL}\s+)?(?:{_NAMES})?\s*",
                           re.IGNORECASE)

#: A verb phrase joined to the one before it, sharing its subject.
_AND = re.compile(r"(?:,\s*|\s+)(?:and|then|&|before|after)\s+(?:(?:just|also|then|now|later|recently|finally)"
                  r"\s+)*$", re.IGNORECASE)
_HEDGE_AUX = re.compile(
    rf"{_A}d\b|\b(?:would|could|might|should|may|must|can|probably|maybe|perhaps|almost|nearly|"
    r"supposed|have\s+to|has\s+to|had\s+to|need|needs|want|wants|wanted|hope|hoping|plan|plans|"
    r"planning|thinking|considering|trying|tried|decided|wanna|wish)\b", re.IGNORECASE)
_FUTURE_AUX = re.compile(FUTURE_AUXILIARY, re.IGNORECASE)
_NEGATION = re.compile(rf"n{_A}t\b|\b(?:not|never|cannot)\b", re.IGNORECASE)
_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)
_USED_TO = re.compile(r"\bused\s+to\b", re.IGNORECASE)
_PERFECT = re.compile(rf"{_A}ve\b|^ve\b|\b(?:have|has|had)\b|\b(?:haven|hasn|hadn){_A}t\b", re.IGNORECASE)
_BE = re.compile(rf"{_A}(?:m|re|s)\b|^m\b|\b(?:am|is|are|was|were|be|been|being)\b", re.IGNORECASE)
_BE_PAST = re.compile(r"\b(?:was|were)\b", re.IGNORECASE)
_GOT = re.compile(r"\b(?:got|gotten|get|getting)\b", re.IGNORECASE)
_ANYMORE = re.compile(r"\b(?:any\s*more|any\s+longer|no\s+more)\b", re.IGNORECASE)
_HEDGE_BEFORE = re.compile(
    r"\b(?:if|whether|unless|what\s+if|in\s+case|maybe|perhaps|probably|hopefully|i\s+think|"
    r"i\s+guess|i\s+wish|not\s+sure|i\s+doubt|thinking\s+(?:of|about)|imagine|someday|one\s+day|when|"
    r"whenever|once|until|till|til|unless|next\s+time|in\s+case|can\s+(?:i|we)|let['’]?s|why\s+not)\b",
    re.IGNORECASE)
_HEDGE_AFTER = re.compile(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|maybe|probably|perhaps|who\s+knows|or\s+not|"
    r"hopefully|someday|one\s+day|eventually|at\s+some\s+point)\b", re.IGNORECASE)
_IRREGULAR_PAST = frozenset(
    "went got left quit took met had flew ran became began made spent came saw drove fell bought "
    "found gave broke split grew taught did was were been gotten lost sold brought caught hung "
    "sat stood told thought felt kept heard held fought won wrote rode swam ate drank sang slept "
    "woke wore threw knew drew blew rang sank chose froze spoke stole rose shook led fed fled "
    "paid laid said sent lent built dealt meant".split())


@dataclass(frozen=True)
class _Subject:
    names: tuple[str, ...]  # the speaker or named people
    partner: str | None  # "Tom and I": the other one, object of a reciprocal verb
    partner_unnamed: bool  # "my boyfriend and I"
    aux: str
    begin: int
    said: bool = True  # named in the words ("I", "my sister Ana"), not left unsaid ("Moved to Rome")
    bare: bool = False  # a lone capitalised word taken for a name ("Tom moved", "Sounds like")


def _is_name(text: str) -> bool:
    return all(word.lower().strip(".") not in NOT_NAMES for word in text.split())


def _split_names(text: str) -> list[str]:
    return [name.strip() for name in re.split(r"\s*,\s*|\s+and\s+", text) if name.strip()]


def _subject(prefix: str, offset: int, speaker: str, last_named: str | None) -> _Subject | None:
    """Who the verb after ``prefix`` (the clause up to the verb) is about, or None."""
    m = _SUBJECT.search(prefix)
    found = _named_subject(m, prefix, offset, speaker, last_named) if m else None
    if found is None and (bare := _SUBJECTLESS.match(" " + prefix)):
        return _Subject((speaker,), None, False, bare["aux"] or "", offset, said=False)
    return found


def _named_subject(m: re.Match[str], prefix: str, offset: int, speaker: str,
                   last_named: str | None) -> _Subject | None:
    aux, lead = m["aux"] or "", prefix[:m.start()]
    if m["first"]:
        return _Subject((speaker,), None, False, aux, offset + m.start())
    if m["mixed"]:
        others = _split_names(m["mixed_names"]) if m["mixed_names"] else []
        if not all(map(_is_name, others)):
            return None
        return _Subject((speaker, *others), others[0] if len(others) == 1 else None, not others,
                        aux, offset + m.start())
    if m["named"]:
        names = _split_names(m["rel_names"])
        return _Subject(tuple(names), None, False, aux, offset + m.start()) \
            if all(map(_is_name, names)) else None
    if m["pair"] or m["me"]:
        name = m["pair_name"] or m["me_name"]
        return _Subject((speaker, name), name, False, aux, offset + m.start()) \
            if _is_name(name) else None
    for group in ("who", "titled", "appos1", "appos2"):
        if m[group]:
            name = m[f"{group}_name"]
            return _Subject((name,), None, False, aux, offset + m.start()) \
                if _is_name(name) else None
    if m["pronoun"]:
        return _Subject((last_named,), None, False, aux, offset + m.start()) if last_named else None
    names = _split_names(m["bare"])
    if not _LEAD_ONLY.match(lead) or not all(map(_is_name, names)):
        return None
    return _Subject(tuple(names), None, False, aux, offset + m.start(), bare=len(names) == 1)


# --- times ----------------------------------------------------------------------------------

_SPAN_WORDS = re.compile(r"^(?:from|between)\b|\s(?:to|until|till|through|thru|and)\s|[-–—]",
                         re.IGNORECASE)
_IGNORED_BEFORE_SPAN = re.compile(r"\b(?:until|till|before|after|by|up\s+to)\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class _Located:
    begin: int
    finish: int
    span: TimeSpan | OutOfRange


def _explicit(span: TimeSpan) -> bool:
    """A written span with two ends ("from 2015 to 2018"), not a vague one (the holidays)."""
    return span.granularity == "range" and bool(_SPAN_WORDS.search(span.text))


def _locate(sentence: str, spans: list[TimeSpan | OutOfRange]) -> list[_Located]:
    located: list[_Located] = []
    cursor = 0
    for span in spans:
        begin = sentence.find(span.text, cursor)
        if begin < 0:
            continue
        cursor = begin + len(span.text)
        if not _IGNORED_BEFORE_SPAN.search(sentence, 0, begin):
            located.append(_Located(begin, cursor, span))
    return located


# --- deciding what a verb states ------------------------------------------------------------

@dataclass(frozen=True)
class _Reading:
    """How a verb is said: from its auxiliaries, its own form and the words around it."""

    hedged: bool
    future: bool
    negated: bool
    ending: bool
    used_to: bool
    perfect: bool
    past: bool
    be: bool


def _form(word: str) -> str:
    word = word.lower()
    if word.endswith("ing"):
        return "ing"
    if word in _IRREGULAR_PAST or word.endswith("ed"):
        return "past"
    return "present"


def _reading(verb: Verb, aux: str, head: str, after: str) -> _Reading:
    negated = bool(_NEGATION.search(aux))
    first = FIRST_WORD.match(head.strip())
    form = _form(first.group()) if first and not verb.needs_be else "present"
    if verb.done:
        form = "past"
    be_past = bool(_BE_PAST.search(aux))
    if form == "past" and not verb.done and _BE.search(aux) and not be_past and not _GOT.search(aux):
        form = "present"  # "I'm married to", "I'm enrolled at": a state now
    return _Reading(
        hedged=bool(_HEDGE_AUX.search(aux)),
        future=bool(_FUTURE_AUX.search(aux)),
        negated=negated,
        ending=bool(_NO_LONGER.search(aux)) or (negated and bool(_ANYMORE.search(after))),
        used_to=bool(_USED_TO.search(aux)),
        perfect=bool(_PERFECT.search(aux)) and not be_past,
        past=form == "past" or be_past or bool(re.search(rf"\bdid\b|didn{_A}t", aux, re.I)),
        be=bool(_BE.search(aux)),
    )


def _upcoming(span: TimeSpan | None, reference: datetime) -> bool:
    return span is not None and (span.end or span.start) > reference


def _decide(verb: Verb, kind: str, r: _Reading, span: TimeSpan | None,
            reference: datetime) -> tuple[FactOp, str] | None:
    """(op, predicate) for a verb read as ``r``, or None when it states nothing."""
    stops: FactOp = "end" if kind == "stop" else "assert"
    if r.hedged or r.future or (_upcoming(span, reference) and not r.past):
        return None  # a plan, a wish: not a fact (the chat says later whether it happened)
    if r.used_to:
        return ("end", verb.predicate) if kind == "state" and not r.negated else None
    if r.ending:
        return ("end", verb.predicate) if kind == "state" else None
    if r.negated:
        if kind == "state" and r.perfect and span and span.end is None:
            return "end", verb.predicate  # "I haven't lived in Cairo since 2020"
        return ("assert", verb.negated) if verb.negated and kind == "state" else None
    if r.past and not r.perfect:
        if kind == "state":
            return ("assert", verb.predicate) if span and span.end is not None else (
                "end", verb.predicate)
        return stops, verb.predicate
    if r.perfect or kind == "state":
        return stops, verb.predicate
    return None


def _period(op: FactOp, kind: str, r: _Reading,
            span: TimeSpan | None) -> tuple[datetime | None, datetime | None]:
    """(valid_from, valid_to) for a decided fact and the time phrase that goes with it."""
    if span is None:
        return None, None
    if op == "end":
        return None, span.start
    if kind == "event" or _explicit(span) or (kind == "state" and r.past and not r.perfect):
        return span.start, span.end
    return span.start, None


def _route(verb: Verb, name: str) -> str:
    """The predicate a verb whose object decides ("moved to", "left", "at") states about it."""
    if verb.predicate == "lives_in" and not is_place(name):
        if looks_educational(name):
            return "studies_at"
        if verb.head.pattern.startswith(r"\b(?:(?:left") or looks_organisational(name) \
                or not verb.kind == "start":
            return "works_at"
    return verb.predicate


_EVENT_PREDICATES = frozenset(("traveled_to", "met", "attended", "graduated_from"))


def _time_alone(sentence: str, reference: datetime, day_first: bool, tz: tzinfo | str) -> TimeSpan | None:
    """The period of a sentence that is only a time phrase ("last weekend."), else None."""
    words = re.sub(r"[^\w\s]", " ", sentence).split()
    if not words or len(words) > 4:
        return None
    spans = [s for s in find_times(sentence, reference, day_first=day_first, tz=tz) if isinstance(s, TimeSpan)]
    if len(spans) != 1 or len(re.sub(r"[^\w\s]", " ", spans[0].text).split()) < len(words) - 1:
        return None
    return spans[0] if spans[0].start <= reference else None


def _dated(fact: ExtractedFact, span: TimeSpan) -> ExtractedFact:
    """A fact with the period a time phrase said just after it gives."""
    if fact.op == "end":
        return fact.model_copy(update={"valid_to": span.start})
    if fact.predicate in _EVENT_PREDICATES:
        return fact.model_copy(update={"valid_from": span.start, "valid_to": span.end})
    return fact.model_copy(update={"valid_from": span.start})


# --- the extractor --------------------------------------------------------------------------

_STAY = Verb(re.compile(r"in\s+"), "traveled_to", "event", "place", done=True)
_EVERYDAY_KINDS = frozenset(("pet", "possession", "activity", "group", "event", "habit"))


#: An object that is some thing, not a job ("my keys", "the house", "smoking").
_THING_AFTER = re.compile(r"\s*(?:(?:my|the|a|an|our|his|her|their|some|it|that|this|them)\b|"
                          r"[a-z]+ing\b)", re.IGNORECASE)
#: Verbs whose lowercase object is as likely a hobby as an employer ("i joined yoga").
_NO_LOWERCASE = ("join", "start", "began", "begin", "got", "get", "landed", "found", "hired",
                 "go", "enrolled", "taking", "take", "doing", "do", "study", "studi")


@dataclass
class _Found:
    at: int
    facts: list[ExtractedFact]
    mention: bool = False  # "sold my car": the mention of "my car" says no more than the verb


#: Adds a fact: ``add(subject, predicate, object[, op, valid_from, valid_to])``.
_Add = Callable[..., None]


class RuleExtractor:
    """Extract facts with regular expressions and word lists; no network, no model."""

    name = "rules"

    def __init__(self, *, day_first: bool = False, tz: tzinfo | str = UTC) -> None:
        self.day_first = day_first
        self.tz = tz

    def extract(
        self, text: str, *, reference_time: datetime, speaker: str = "user", other: str | None = None,
        previous: Turn | None = None,
    ) -> list[ExtractedFact]:
        """The facts stated in ``text``, with time phrases resolved against ``reference_time``.

        ``other``: the other participant of a two-person chat; ``previous``: the turn before,
        whose words may say what "it" or "that" stands for."""
        return self.extract_result(text, reference_time=reference_time, speaker=speaker, other=other,
                                   previous=previous).facts

    def extract_many(self, messages: Sequence[tuple[str, datetime, str]], *,
                     context: Sequence[Context] | None = None) -> list[MessageResult]:
        """Each message's result, in order (``messages`` are ``(text, reference_time, speaker)``;
        ``context``, one ``(other, previous)`` per message)."""
        contexts = context if context is not None else [(None, None)] * len(messages)
        return [self.extract_result(text, reference_time=at, speaker=who, other=other, previous=before)
                for (text, at, who), (other, before) in zip(messages, contexts, strict=True)]

    def extract_result(self, text: str, *, reference_time: datetime, speaker: str = "user",
                       other: str | None = None, previous: Turn | None = None) -> MessageResult:
        """The facts of ``text``, and a note naming any time phrase left unused because the
        period it names lies outside the supported years (its fact is not proposed)."""
        if not speaker or not speaker.strip():
            raise InvalidInput("speaker must be a non-empty name, e.g. 'user'")
        self._other = other
        self._previous = previous
        self._speaker = speaker.strip()
        facts: list[ExtractedFact] = []
        self._unused: list[str] = []
        self._last_named: str | None = None
        self._message = text
        last: list[ExtractedFact] = []
        for sentence in split_sentences(text):
            self._subjects: list[_Subject] = []
            found = self._sentence(sentence, reference_time, speaker.strip())
            if not found and last and (dated := _time_alone(sentence, reference_time, self.day_first, self.tz)):
                facts = [_dated(f, dated) if f in last else f for f in facts]  # "we broke up. last weekend."
                last = []
                continue
            last = [f for f in found if f.valid_from is None and f.valid_to is None]
            for fact in found:
                if fact not in facts:
                    facts.append(fact)
        note = None
        if self._unused:
            phrases = ", ".join(repr(p) for p in dict.fromkeys(self._unused))
            note = f"not proposed: a fact dated {phrases}, {OUT_OF_RANGE}"
        return MessageResult(facts=facts, note=note)

    def _sentence(self, sentence: str, reference: datetime, speaker: str) -> list[ExtractedFact]:
        if sentence.rstrip("'\"”’)").endswith("?"):
            return []
        spans = _locate(sentence, find_times(
            sentence, reference, day_first=self.day_first, tz=self.tz))
        clauses = _clauses(sentence)
        found: list[_Found] = []
        claimed: list[tuple[int, int]] = []
        # Left to right, so a verb joined by "and" can take the subject of the one before it;
        # where two phrases start together, the one listed first in VERBS is tried first.
        candidates = sorted(((m, n, verb) for n, verb in enumerate(VERBS)
                             for m in verb.head.finditer(sentence)),
                            key=lambda item: (item[0].start(), item[1]))
        for m, _, verb in candidates:
            if any(m.start() < end and begin < m.end() for begin, end in claimed):
                continue
            at = m.end() if verb.free else m.start()
            clause = next((c for c in clauses if c[0] <= at <= c[1]), None)
            if clause is None:
                continue  # "my and I": the phrase ends inside the words between two clauses
            facts = self._match(verb, m, sentence, clause, spans, speaker, reference)
            if facts:
                claimed.append((m.start(), m.end()))
                found.append(_Found(m.start(), facts, verb.mention))
        facts = [fact for item in sorted(found, key=lambda f: f.at) for fact in item.facts]
        told = {(f.predicate, f.object) for item in found if not item.mention for f in item.facts}
        return [f for item in sorted(found, key=lambda f: f.at) if not (item.mention and any(
            (f.predicate, f.object) in told for f in item.facts)) for f in item.facts] if told else facts

    def _match(self, verb: Verb, m: re.Match[str], sentence: str, clause: tuple[int, int],
               spans: list[_Located], speaker: str, reference: datetime) -> list[ExtractedFact]:
        begin, end = clause
        prefix = sentence[begin:m.start()]
        subject: _Subject | None
        if verb.free:
            subject = _Subject((speaker,), None, False, "", m.start())
        else:
            subject = _subject(prefix, begin, speaker, self._last_named)
            coordinated = _AND.search(sentence, 0, m.start())
            if coordinated and self._subjects and (subject is None or (
                    subject.names == (speaker,) and _SUBJECTLESS.match(prefix))):
                subject = self._subjects[-1]  # "Ana lives in Rome and works at FAO"
        if subject is None:
            return []
        if _HEDGE_BEFORE.search(sentence, begin, subject.begin) or _HEDGE_AFTER.search(
                sentence, m.end(), end) or _HEDGE_BEFORE.search(prefix):
            return []
        if verb.needs_be and not _BE.search(subject.aux):
            return []  # "at least", "in the end": no "I'm" said, no fact
        if subject.bare and not subject.aux.strip() and _form(m.group().split()[0]) == "present" \
                and not m.group().split()[0].lower().endswith("s"):
            return []  # "Sounds like a plan", "Looks like rain": no name, a verb without its subject
        if not subject.said and not verb.free and re.fullmatch(r"(?i)(?:lives|works|loves|likes|has|plays|does|"
                                                              r"goes|studies|owns|hates|enjoys|runs)",
                                                              m.group().split()[0]):
            return []  # "lives in Leeds, she's a vet": about someone else, not the speaker
        if verb.free and _HEDGE_AUX.search(sentence, begin, m.start()):
            return []  # "I can tell you my cat is blue"
        if verb.obj == "thing" and (not subject.said or (not verb.needs_be and _BE.search(subject.aux))):
            return []  # "love the colours!", "like I said", "I was like": no taste stated
        self._subjects.append(subject)
        if subject.names[0] != speaker and len(subject.names) == 1 and not subject.partner:
            self._last_named = subject.names[0]
        after = [s for s in spans if s.begin >= m.end() and s.begin < end]
        inside = [s for s in spans if s.begin < m.end() and s.finish > m.start()]
        before = [s for s in spans if begin <= s.begin and s.finish <= m.start()]
        nearest = after or inside or before[-1:]
        located = nearest[0] if nearest else None
        span = None if located is None else located.span
        if isinstance(span, OutOfRange):
            self._unused.append(span.text)  # when it happened is out of reach: state nothing
            return []
        spans = [s for s in spans if isinstance(s.span, TimeSpan)]
        rest_end = after[0].begin if after else end
        rest = sentence[m.end():rest_end]
        kind = "state" if verb.be_state and _BE.search(subject.aux) and not _GOT.search(
            subject.aux + m.group()) else verb.kind
        reading = _reading(verb, subject.aux, m.group(), sentence[m.end():end])
        if verb.needs_be and verb.predicate == "lives_in" and not m.group().lower().startswith(
                "based") and (reading.past and not reading.perfect or span is not None and (
                    span.end is not None and not reading.perfect)) \
                and not (reading.negated or reading.ending or reading.used_to):
            verb, kind = _STAY, "event"  # "I was in Chicago last week"
        elif verb.needs_be and verb.predicate == "lives_in" and not m.group().lower().startswith(
                "based") and not (reading.negated or reading.ending or reading.used_to):
            return []  # "I'm in the B&B", "when I'm in Boston": where one is, not where one lives
        if verb.obj in _EVERYDAY_KINDS:
            if kind == "state" and reading.past and not (reading.used_to or reading.perfect or reading.ending):
                return []  # "I had a dog", "I played tennis": no state now
            if kind == "state" and (verb.mention or reading.be or m.group().lower().strip().endswith("ing")):
                if span is not None and not verb.mention:
                    return []  # "I'm playing tennis tomorrow": a plan
                span = None
        if verb.obj == "thing" and kind == "state" and reading.past and not (
                reading.used_to or reading.ending or reading.negated or reading.perfect):
            return []  # "I loved the film": a reaction, not a lasting taste
        decided = _decide(verb, kind, reading, span, reference)
        if decided is None:
            return []
        op, predicate = decided
        valid_from, valid_to = _period(op, kind, reading, span)
        made = []

        def add(subj: str, pred: str, obj: str | None, o: FactOp = op, vf: datetime | None = valid_from,
                vt: datetime | None = valid_to) -> None:
            made.append(ExtractedFact(op=o, subject=subj, predicate=pred, object=obj,
                                      valid_from=vf, valid_to=vt, quote=sentence))

        if verb.reciprocal and (subject.partner or subject.partner_unnamed or len(
                subject.names) > 1 and subject.names[0] != speaker):
            partner = subject.partner or (subject.names[1] if len(subject.names) > 1 else None)
            first = subject.names[0]
            if partner is None and not verb.bare:
                return []
            add(first, predicate, partner)
            return made
        if verb.pair:
            self._pair(verb, m, sentence, rest, end, subject, op, reading, span, add)
            return made
        objects = self._objects(verb, m.group(), rest, predicate)
        if objects is None:
            return []
        if op == "assert" and objects == [None]:
            return []  # "I'm working": nothing to assert
        if verb.mention and verb.predicate == "has_pet" and objects[0]:
            said = sentence.find(objects[0].split()[-1], m.end())
            if GONE.match(sentence, said + len(objects[0].split()[-1])):
                when = next((s.span for s in spans if s.begin >= said and isinstance(s.span, TimeSpan)), None)
                op, valid_from, valid_to = "end", None, (when.start if when else None)  # "our cat died"
        for subj in subject.names:
            for obj in objects:
                add(subj, _route(verb, obj) if obj and verb.obj == "where" else
                    self._refine(verb, m.group(), obj, predicate), obj, op, valid_from, valid_to)
        return made

    def _refine(self, verb: Verb, head: str, obj: str | None, predicate: str) -> str:
        """Noun phrases that decide between working and studying ("a sophomore at")."""
        if predicate == "works_at" and obj is not None:
            words = set(head.lower().replace("’", "'").split())
            if words & STUDENT_NOUNS or (looks_educational(obj) and "start" in head.lower()
                                        and "work" not in head.lower()):
                return "studies_at"
        return predicate

    def _objects(self, verb: Verb, head: str, rest: str,
                 predicate: str) -> Sequence[str | None] | None:
        """The object(s) after the verb; [None] for a bare end; None when nothing fits."""
        kind = verb.obj
        if kind in _EVERYDAY_KINDS:
            found = everyday_object(kind, head, rest, verb.mention)
            return [found] if found else None
        if kind == "thing":
            if verb.predicate == "likes" and re.match(
                    r"\s*(?:the|your|ur|that|this|those|these|his|her|their|my|our)\b", rest, re.IGNORECASE):
                return None  # "love the colours", "love your dress": a reaction to something there
            if re.match(r"\s*(?:your|ur|that|this|those|these)\b", rest, re.IGNORECASE):
                return None
            liked = [thing for thing in things(rest) if clean_taste(thing)]
            if not liked and self._previous is not None and self._previous.speaker != self._speaker:
                resolved = resolve_pronoun(rest, self._previous.text)
                liked = [resolved] if resolved else []
            return liked or None
        if kind == "name":
            name = called_name(rest)
            return [name] if name else None
        if kind == "person":
            named = people(rest)
            name = named[0] if len(named) == 1 else None
            if len(named) > 1:
                return named
        elif kind == "place":
            name = place_name(rest)
            if name and predicate == "traveled_to" and len(name.split()) == 1 and not is_place(
                    name) and head.lower().startswith("visit") and not rest.lstrip().startswith(
                    ("the ", "The ")):
                name = None  # "I visited Tom": someone, not somewhere
        elif kind == "where":
            name = place_name(rest) or proper_name(rest)
        else:
            name = proper_name(rest)
            if name and name.endswith(("'s", "’s")):
                return None  # "we're at Jo's": someone's home, no employer
            if name is None and not head.lower().startswith(_NO_LOWERCASE):
                name = lowercase_name(rest, self._message)  # "i quit netflix"
            if name and predicate == "studies_at" and head.lower().startswith("go") \
                    and not looks_educational(name):
                name = None
        if name:
            return [name]
        if predicate == "studies_at" and verb.kind == "stop":
            return [None] if STUDY_PHRASE.match(rest.strip()) else None
        if verb.kind == "stop" and JOB_WORD.search(head):
            return [None]  # "I quit my job at the call center"
        if verb.bare or (verb.kind == "stop" and JOB_PHRASE.match(rest.strip())):
            if verb.kind == "stop" and not JOB_PHRASE.match(rest.strip()) and _THING_AFTER.match(
                    rest) and verb.predicate != "married_to":
                return None  # "I left my keys": not a job
            return [None]
        return None

    def _pair(self, verb: Verb, m: re.Match[str], sentence: str, rest: str, end: int, subject: _Subject,
              op: FactOp, reading: _Reading, span: TimeSpan | None, add: _Add) -> None:
        """"moved from A to B", "moved to B from A", "left A for B", or one side alone."""
        text = sentence[m.end():end]
        head = m.group().lower()
        first = place_name(text) if verb.predicate == "lives_in" else None
        first = first or proper_name(text)
        if first is None:
            if "from" not in head:
                self._single(verb, rest, subject, add)
            return
        tail = text[text.find(first) + len(first):]
        link = re.match(r"\s*(?:,\s*)?(?:(?:back\s+)?to|for|from)\s+", tail, re.IGNORECASE)
        second = (place_name(tail[link.end():]) or proper_name(tail[link.end():])) if link else None
        when_from, when_to = (span.start, None) if span else (None, None)
        if "from" in head and second:  # moved from A to B
            old, new = first, second
        elif link and second and link.group().strip().lower() == "from":  # moved to B from A
            old, new = second, first
        elif link and second and head.startswith(("left", "leav")) and "for" in link.group():
            old, new = first, second  # left A for B
        else:
            self._single(verb, rest, subject, add)
            return
        predicate = "lives_in" if is_place(old) or is_place(new) else "works_at"
        for subj in subject.names:
            add(subj, predicate, old, "end", None, when_from)
            if op != "end" or "for" in (link.group() if link else ""):
                add(subj, predicate, new, "assert", when_from, None)

    def _single(self, verb: Verb, rest: str, subject: _Subject, add: _Add) -> None:
        obj = place_name(rest) or (proper_name(rest) if verb.obj == "where" else None)
        if obj is None:
            if verb.kind == "stop" and JOB_PHRASE.match(rest.strip()):
                for subj in subject.names:
                    add(subj, "works_at", None)
            return
        for subj in subject.names:
            add(subj, _route(verb, obj), obj)
