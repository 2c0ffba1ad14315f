"""An offline, rule-based extractor of first-person facts from English chat messages.

Each sentence is matched against a small table of verb phrases ("I moved to X", "I don't like X
anymore", "my name is X"). First-person statements are about the speaker. Time phrases are
resolved with :func:`graphmem.when.resolve_times` against the message's reference time, never the
clock. A fact without a time phrase has ``valid_from`` None: "from the message's time".

Polarity: "I don't live in Paris" yields nothing; "... anymore" or "no longer" ends the fact;
"I don't like X" is ``dislikes X``. Questions, conditionals ("if I move to ...") and wishes
("I'd love to ...") yield nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from .errors import InvalidInput
from .models import Model
from .timeutil import UTC
from .when import TimeSpan, resolve_times

__all__ = ["ExtractedFact", "Extractor", "RuleExtractor", "split_sentences"]


class ExtractedFact(Model):
    """One fact an extractor found, with the exact sentence it came from."""

    op: Literal["assert", "end"] = "assert"
    subject: str
    predicate: str
    object: str | None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    quote: str


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns a message into proposed facts."""

    name: str

    def extract(
        self, text: str, *, reference_time: datetime, speaker: str = "user"
    ) -> list[ExtractedFact]:
        """The facts stated in ``text``, with times resolved against ``reference_time``."""
        ...


# --- sentences ------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"[.!?]+['\"’”)\]]*(?=\s|$)|\n+")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof st jr sr mt ft vs etc e.g i.e inc ltd co corp no approx dept univ".split()
)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each a verbatim (stripped) substring of it."""
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        word = re.search(r"([\w.]+)$", text[start:end.start()])
        if end.group().startswith(".") and word and len(end.group()) == 1:
            token = word.group(1).lower()
            if token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha() and token != "i"):
                continue  # "Dr. Smith", "J. K. Rowling": not the end of a sentence
        sentences.append(text[start:end.end()].strip())
        start = end.end()
    sentences.append(text[start:].strip())
    return [sentence for sentence in sentences if sentence]


# --- the rule table -------------------------------------------------------------------------

_A = "['’]"
_AUX_WORDS = (
    rf"am|is|are|was|were|have|has|had|will|shall|do|does|did|not|never|no\s+longer|"
    rf"don{_A}t|doesn{_A}t|didn{_A}t|won{_A}t|haven{_A}t|hasn{_A}t|hadn{_A}t|wasn{_A}t|"
    r"just|recently|finally|now|still|currently|also|really|actually|already|been|eventually|"
    r"officially|even|absolutely|truly|totally|genuinely|definitely|always|usually|then|later|"
    r"once|originally|first|got|gotten|kind\s+of|sort\s+of|sometimes|mostly|happily|honestly|"
    r"basically|would|could|might|should|may|must|can|cannot|"
    rf"wouldn{_A}t|couldn{_A}t|can{_A}t|shouldn{_A}t"
)
#: "I", then any auxiliaries and adverbs ("I've just", "I don't", "I no longer").
_I = rf"(?<![\w'’])[Ii](?P<aux>(?:{_A}(?:m|ve|d|ll)\b|\s+(?:{_AUX_WORDS})\b)*)\s+"
_NEGATION = re.compile(rf"n{_A}t\b|\b(?:not|never|cannot)\b", re.IGNORECASE)
_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    rf"{_A}d\b|\b(?:would|could|might|should|may|must|can|wouldn|couldn|shouldn)\b", re.IGNORECASE
)
_PERFECT = re.compile(rf"{_A}ve\b|\b(?:have|has)\b", re.IGNORECASE)
_WAS = re.compile(r"\b(?:was|were)\b", re.IGNORECASE)
_ANYMORE = re.compile(r"\b(?:any\s*more|any\s+longer|no\s+more)\b", re.IGNORECASE)
_CONDITIONAL = re.compile(r"\b(?:if|whether|unless)\b[^,;]*$", re.IGNORECASE)

#: Where a place or organisation name ends.
_NAME_STOP = re.compile(
    r"[,;:!?()\"“”]|\s(?:and|but|or|because|since|when|while|where|which|who|that|so|as|with|"
    r"for|until|till|after|before|from|in|on|at|during|by|last|next|this|ago|any\s*more|any\s+"
    r"longer|no\s+more|now|again|too|yet|though|although|then|recently|yesterday|today|"
    r"tomorrow)\b", re.IGNORECASE)
#: Where a liked thing ends; lists ("apples, pears and plums") are split afterwards.
_THING_STOP = re.compile(
    r"[;:!?()\"“”]|,?\s+(?:and|but|or|so)\s+(?=(?:I|i|my|we|he|she|they|it|you)\b)|\s(?:but|"
    r"because|since|when|while|a\s+lot|very\s+much|so\s+much|too|as\s+well|any\s*more|any\s+"
    r"longer|no\s+more|these\s+days|nowadays|now|either|lately|recently|anyway)\b",
    re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
#: Words that cannot open an object: "I love it here", "I work for myself".
_PRONOUNS = frozenset(
    "it its that this these those there here them him her me you us myself yourself ourselves "
    "something anything everything nothing someone anyone everyone one home".split()
)
_CLOCK = re.compile(r"\d[\d:.]*\s*(?:[ap]\.?m\.?)?", re.IGNORECASE)
_IGNORED_BEFORE_SPAN = re.compile(
    r"\b(?:until|till|before|after|by|up\s+to)\s+$", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r";|,?\s+(?:and|but|so|then)\s+(?=(?:I|i|my)\b)")

_Timing = Literal["from", "to", "period"]


@dataclass(frozen=True)
class _Rule:
    """A verb phrase and the facts it states about the object that follows it."""

    head: re.Pattern
    facts: tuple[tuple[str, Literal["assert", "end"], _Timing], ...]
    past: bool = False  # "lived in": only with a bounded time phrase, which becomes the period
    proper: bool = False  # the object must be capitalised ("went to Paris", not "went to bed")
    things: bool = False  # the object is a (list of) liked things, not a name
    negated: str | None = None  # what "I don't <verb> X" asserts instead (like -> dislikes)
    bare: bool = False  # may stand without an object ("I got divorced")


def _rule(head: str, *facts, **options) -> _Rule:
    return _Rule(re.compile(head, re.IGNORECASE), tuple(facts), **options)


def _first_person(verb: str) -> str:
    return rf"{_I}(?:{verb})\b\s*"


_RULES: list[_Rule] = [
    _rule(r"\bmy\s+name(?:\s+is|['’]s)\s+", ("is_called", "assert", "from")),
    _rule(rf"(?<![\w'’])I(?:{_A}m|\s+am)\s+(?:also\s+)?called\s+", ("is_called", "assert", "from")),
    _rule(r"\b(?:call|calls)\s+me\s+", ("is_called", "assert", "from"), proper=True),
    _rule(_first_person(r"(?:live|lives|living)\s+in"), ("lives_in", "assert", "from")),
    _rule(_first_person(r"(?:lived|stayed)\s+in"), ("lives_in", "assert", "from"), past=True),
    _rule(_first_person(r"(?:moved|move|moving|relocated|relocate|relocating)\s+(?:back\s+)?to"),
          ("lives_in", "assert", "from")),
    _rule(_first_person(r"(?:stopped|stop|quit)\s+working\s+(?:at|for)|resigned\s+from|"
                        r"(?:was|got|been)\s+(?:fired|laid\s+off)\s+(?:from|by|at)|"
                        r"(?:left|leave|leaving|quit|quitting)\s+(?:my\s+(?:job|position|role)"
                        r"\s+(?:at|with)\s+)?"), ("works_at", "end", "to"), proper=True),
    _rule(_first_person(r"(?:work|works|working)\s+(?:at|for)"), ("works_at", "assert", "from")),
    _rule(_first_person(r"worked\s+(?:at|for)"), ("works_at", "assert", "from"), past=True),
    _rule(_first_person(r"(?:started|start|starting|began)\s+(?:working\s+|(?:a|my)\s+(?:new\s+)?"
                        r"job\s+)?(?:at|with|for)|got\s+(?:a\s+)?(?:new\s+)?job\s+(?:at|with)"),
          ("works_at", "assert", "from")),
    _rule(_first_person(r"(?:joined|join|joining)"), ("works_at", "assert", "from"), proper=True),
    _rule(_first_person(r"stopped\s+(?:liking|loving|enjoying)"), ("likes", "end", "to"),
          things=True),
    _rule(_first_person(r"(?:stopped|gave\s+up|quit)(?=\s+\w+ing\b)"), ("likes", "end", "to"),
          things=True),
    _rule(_first_person(r"(?:like|likes|love|loves|enjoy|enjoys|adore|adores)(?!\s+to\b)"),
          ("likes", "assert", "from"), things=True, negated="dislikes"),
    _rule(_first_person(r"(?:hate|hates|dislike|dislikes|detest|detests)(?!\s+to\b)"),
          ("dislikes", "assert", "from"), things=True),
    _rule(_first_person(r"(?:divorced|divorcing)(?:\s+from)?"), ("married_to", "end", "to"),
          bare=True),
    _rule(_first_person(r"(?:married|marrying|marry)(?:\s+to)?"),
          ("married_to", "assert", "from")),
    _rule(_first_person(r"(?:travell?ed|travell?ing|travel|flew|flying|fly|drove|driving|"
                        r"(?:took|made|went\s+on)\s+a\s+trip)\s+to"),
          ("traveled_to", "assert", "period")),
    _rule(_first_person(r"went\s+(?:back\s+)?to|(?:visited|visiting|visit)"),
          ("traveled_to", "assert", "period"), proper=True),
    _rule(_first_person(r"graduated\s+from"),
          ("studies_at", "end", "to"), ("graduated_from", "assert", "period")),
    _rule(_first_person(r"(?:study|studies|studying)\s+(?:[\w-]+\s+){0,3}?at|"
                        r"(?:a\s+)?student\s+at"), ("studies_at", "assert", "from")),
    _rule(_first_person(r"studied\s+(?:[\w-]+\s+){0,3}?at"), ("studies_at", "assert", "from"),
          past=True),
]


# --- objects and times ----------------------------------------------------------------------

def _clean(phrase: str) -> str | None:
    """An object as written, without edge punctuation or a leading "the"; None if it is not one."""
    phrase = phrase.strip().strip(".,;:!?'\"“”’‘()[] ")
    phrase = re.sub(r"^the\s+", "", phrase, flags=re.IGNORECASE)
    phrase = re.sub(r"(?:\s+(?:in|on|at|of|from|since|during|the|to|for|around))+$", "",
                    phrase, flags=re.IGNORECASE).strip()
    words = phrase.split()
    if not words or len(words) > 6 or words[0] in _PRONOUNS or _CLOCK.fullmatch(phrase):
        return None
    return phrase if any(ch.isalpha() for ch in phrase) else None


def _objects(rest: str, rule: _Rule) -> list[str]:
    """The object(s) at the start of ``rest``, the sentence after the verb phrase."""
    stop = (_THING_STOP if rule.things else _NAME_STOP).search(rest)
    phrase = rest[:stop.start()] if stop else rest
    parts = _LIST_SEPARATOR.split(phrase) if rule.things else [phrase]
    objects = [obj for part in parts if (obj := _clean(part))]
    if rule.proper:
        objects = [obj for obj in objects if obj[0].isupper()]
    return objects


@dataclass(frozen=True)
class _Located:
    begin: int
    finish: int
    span: TimeSpan


def _locate(sentence: str, spans: list[TimeSpan]) -> list[_Located]:
    """Give each span (in order of appearance) its position in the sentence."""
    located, cursor = [], 0
    for span in spans:
        begin = sentence.find(span.text, cursor)
        if begin < 0:
            continue
        cursor = begin + len(span.text)
        if not _IGNORED_BEFORE_SPAN.search(sentence, 0, begin):
            located.append(_Located(begin, cursor, span))
    return located


def _clause(sentence: str, at: int) -> tuple[int, int]:
    """The clause of ``sentence`` around index ``at``: split at ';' and ', and I ...'."""
    begin, end = 0, len(sentence)
    for brk in _CLAUSE_BREAK.finditer(sentence):
        if brk.end() <= at:
            begin = brk.end()
        elif brk.start() >= at:
            end = brk.start()
            break
    return begin, end


def _timing(timing: _Timing, span: TimeSpan | None) -> tuple[datetime | None, datetime | None]:
    """(valid_from, valid_to) for a fact from the time phrase that goes with it."""
    if span is None:
        return None, None
    if timing == "to":
        return None, span.start
    if timing == "period" or span.granularity == "range":
        return span.start, span.end
    return span.start, None


def _flip(rule: _Rule, ending: bool) -> tuple | None:
    """The facts a negated statement makes: "no longer"/"anymore" ends a state, "don't" denies it.

    Only states can be ended or denied: a denied event or end ("I didn't quit") says nothing.
    """
    if any(op == "end" or timing == "period" for _, op, timing in rule.facts):
        return None
    if ending:
        return tuple((predicate, "end", "to") for predicate, _, _ in rule.facts)
    if rule.negated:
        return tuple((rule.negated, op, timing) for _, op, timing in rule.facts)
    return None


# --- the extractor --------------------------------------------------------------------------

class RuleExtractor:
    """Extract first-person facts with regular expressions; no network, no model."""

    name = "rules"

    def __init__(self, *, day_first: bool = False, tz=UTC):
        self.day_first = day_first
        self.tz = tz

    def extract(
        self, text: str, *, reference_time: datetime, speaker: str = "user"
    ) -> list[ExtractedFact]:
        """The facts stated in ``text``, with time phrases resolved against ``reference_time``."""
        if not speaker or not speaker.strip():
            raise InvalidInput("speaker must be a non-empty name, e.g. 'user'")
        facts: list[ExtractedFact] = []
        for sentence in split_sentences(text):
            for fact in self._sentence(sentence, reference_time, speaker.strip()):
                if fact not in facts:
                    facts.append(fact)
        return facts

    def _sentence(self, sentence: str, reference: datetime, speaker: str) -> list[ExtractedFact]:
        if sentence.rstrip("'\"”’)").endswith("?"):
            return []
        spans = _locate(sentence, resolve_times(
            sentence, reference, day_first=self.day_first, tz=self.tz))
        found: list[tuple[int, list[ExtractedFact]]] = []
        claimed: list[tuple[int, int]] = []
        for rule in _RULES:  # earlier rules win: "stopped working at" before "stopped X-ing"
            for m in rule.head.finditer(sentence):
                if any(m.start() < end and begin < m.end() for begin, end in claimed):
                    continue
                if stated := self._match(rule, m, sentence, spans, speaker):
                    claimed.append((m.start(), m.end()))
                    found.append((m.start(), stated))
        return [fact for _, stated in sorted(found, key=lambda item: item[0]) for fact in stated]

    def _match(self, rule: _Rule, m: re.Match, sentence: str, spans: list[_Located],
               speaker: str) -> list[ExtractedFact]:
        clause_begin, clause_end = _clause(sentence, m.start())
        if _CONDITIONAL.search(sentence, clause_begin, m.start()):
            return []
        aux = m.groupdict().get("aux") or ""
        if _HYPOTHETICAL.search(aux):
            return []
        after = [s for s in spans if m.end() <= s.begin < clause_end]
        before = [s for s in spans if clause_begin <= s.begin and s.finish <= m.start()]
        chosen = after[0] if after else (before[-1] if before else None)
        rest_end = after[0].begin if after else clause_end
        objects = _objects(sentence[m.end():rest_end], rule)

        span = chosen.span if chosen else None
        negated = bool(_NEGATION.search(aux))
        ending = bool(_NO_LONGER.search(aux)) or (
            negated and bool(_ANYMORE.search(sentence, m.end(), clause_end)))
        facts = _flip(rule, ending) if ending or negated else rule.facts
        if not facts:
            return []
        past = rule.past or (_WAS.search(aux) and all(op == "assert" for _, op, _ in facts))
        if past and not _PERFECT.search(aux):
            if span is None or span.end is None:
                return []  # "I lived in Paris" without a bounded time: when was that?
            facts = tuple((predicate, op, "period") for predicate, op, _ in facts)

        if not objects:
            if not rule.bare:
                return []
            objects = [None]
        out = []
        for obj in objects:
            for predicate, op, timing in facts:
                valid_from, valid_to = _timing(timing, span)
                out.append(ExtractedFact(op=op, subject=speaker, predicate=predicate, object=obj,
                                         valid_from=valid_from, valid_to=valid_to, quote=sentence))
        return out
