"""How a verb is said (tense, negation, hedges, "used to") and the time phrase that goes with
it, and from those what it states: assert, end or nothing, and for which period.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo

from dateutil.relativedelta import relativedelta

from ..core.tense import FUTURE_AUXILIARY
from ..core.times import zone
from ..when import OutOfRange, TimeSpan, find_times
from ._facts import ExtractedFact, FactOp
from ._objects import FIRST_WORD
from ._verbs import Verb

__all__ = ["BE", "GOT", "HEDGE_AFTER", "HEDGE_AUX", "HEDGE_BEFORE", "Located", "Reading", "decide", "lasted_since",
           "locate",
           "WORD_END", "WORD_START", "period", "read_verb", "said_with", "time_alone", "verb_form", "with_period"]

_A = "['’]"


def said_with(text: str, phrase: str, *, before: re.Pattern[str] | None = None, after: re.Pattern[str] | None = None,
              ignore_case: bool = False) -> bool:
    """Whether ``text`` says ``phrase`` (a fact's object, a name) somewhere with what ``before`` finds ending right
    before it (a pattern ending in ``\\Z``, searched in the 200 characters up to the phrase) and what ``after``
    matches right after it.
    The same answer as one search of ``before + re.escape(phrase) + after``, without compiling a pattern for each
    phrase: the extractor's long patterns cost 1-2 ms to compile, once per fact, more than reading the message."""
    flags = re.IGNORECASE if ignore_case else 0
    for m in re.finditer(f"(?=({re.escape(phrase)}))", text, flags):  # every start, overlapping ones too
        if (before is None or before.search(text, max(0, m.start() - _BEFORE_REACH), m.start())) and (
                after is None or after.match(text, m.end(1))):
            return True
    return False


#: How far before a phrase :func:`said_with` looks for what ``before`` finds (a bound that keeps a message said
#: with the phrase many times linear: "Jo " ten thousand times).
_BEFORE_REACH = 200
#: Where a word starts, for :func:`said_with`'s ``before`` (``\\b`` before a phrase that opens with a letter).
WORD_START = re.compile(r"(?:^|\W)\Z")
#: Where a word ends, for :func:`said_with`'s ``after``.
WORD_END = re.compile(r"\b")


HEDGE_AUX = re.compile(
    rf"{_A}d\b|\b(?:would|could|might|should|may|must|can|probably|maybe|perhaps|almost|nearly|"
    r"supposed|have\s+to|has\s+to|had\s+to|need|needs|want|wants|wanted|hope|hoping|plan|plans|"
    r"planning|thinking|considering|trying|tried|decided|wanna|wish)\b", re.IGNORECASE)
_FUTURE_AUX = re.compile(FUTURE_AUXILIARY, re.IGNORECASE)
_NEGATION = re.compile(rf"n{_A}t\b|\b(?:not|never|cannot)\b", re.IGNORECASE)
_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)
_USED_TO = re.compile(r"\bused\s+to\b", re.IGNORECASE)
_PERFECT = re.compile(rf"{_A}ve\b|^ve\b|\b(?:have|has|had)\b|\b(?:haven|hasn|hadn){_A}t\b", re.IGNORECASE)
BE = re.compile(rf"{_A}(?:m|re|s)\b|^m\b|\b(?:am|is|are|was|were|be|been|being)\b", re.IGNORECASE)
_BE_PAST = re.compile(r"\b(?:was|were)\b", re.IGNORECASE)
GOT = re.compile(r"\b(?:got|gotten|get|getting)\b", re.IGNORECASE)
_ANYMORE = re.compile(r"\b(?:any\s*more|any\s+longer|no\s+more)\b", re.IGNORECASE)
HEDGE_BEFORE = re.compile(
    r"\b(?:if|whether|unless|what\s+if|in\s+case|maybe|perhaps|probably|hopefully|i\s+think|"
    r"i\s+guess|i\s+wish|not\s+sure|i\s+doubt|thinking\s+(?:of|about)|imagine|someday|one\s+day|when|"
    r"whenever|once|until|till|til|unless|next\s+time|in\s+case|can\s+(?:i|we)|let['’]?s|why\s+not|"
    r"apparently|supposedly|allegedly|heard|hear|pretend|pretending|as\s+if|as\s+though|dreaming|dreamt|dreamed|"
    r"(?:i|we|he|she|they|you|u)\s+(?:kind\s+of|sort\s+of|kinda|sorta))\b",
    re.IGNORECASE)
HEDGE_AFTER = re.compile(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|maybe|probably|perhaps|who\s+knows|or\s+not|"
    r"hopefully|someday|one\s+day|eventually|at\s+some\s+point|apparently|supposedly|i\s+heard|i\s+hear)\b",
    re.IGNORECASE)
_IRREGULAR_PAST = frozenset(
    "went got left quit took met had flew ran became began made spent came saw drove fell bought "
    "found gave broke split grew taught did was were been gotten lost sold brought caught hung "
    "sat stood told thought felt kept heard held fought won wrote rode swam ate drank sang slept "
    "woke wore threw knew drew blew rang sank chose froze spoke stole rose shook led fed fled "
    "paid laid said sent lent built dealt meant".split())



# --- times ----------------------------------------------------------------------------------

_SPAN_WORDS = re.compile(r"^(?:from|between)\b|\s(?:to|until|till|through|thru|and)\s|[-–—]",
                         re.IGNORECASE)
_IGNORED_BEFORE_SPAN = re.compile(r"\b(?:until|till|before|after|by|up\s+to)\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class Located:
    begin: int
    finish: int
    span: TimeSpan | OutOfRange


def _explicit(span: TimeSpan) -> bool:
    """A written span with two ends ("from 2015 to 2018"), not a vague one (the holidays)."""
    return span.granularity == "range" and bool(_SPAN_WORDS.search(span.text))


def locate(sentence: str, spans: list[TimeSpan | OutOfRange]) -> list[Located]:
    located: list[Located] = []
    cursor = 0
    for span in spans:
        begin = sentence.find(span.text, cursor)
        if begin < 0:
            continue
        cursor = begin + len(span.text)
        if not _IGNORED_BEFORE_SPAN.search(sentence, 0, begin):
            located.append(Located(begin, cursor, span))
    return located


# --- deciding what a verb states ------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    """How a verb is said: from its auxiliaries, its own form and the words around it."""

    hedged: bool
    future: bool
    negated: bool
    ending: bool
    used_to: bool
    perfect: bool
    past: bool
    be: bool
    #: "was" or "were" before a form in -ing ("we were moving to Glasgow in august"): a move or a start under way or
    #: meant then, not one said to have happened (a state is: "I was living in Leeds"; an event too: "I was staying
    #: in Paris last week").
    progressive: bool = False


def verb_form(word: str) -> str:
    word = word.lower()
    if word.endswith("ing"):
        return "ing"
    if word in _IRREGULAR_PAST or word.endswith("ed"):
        return "past"
    return "present"


def read_verb(verb: Verb, aux: str, head: str, after: str) -> Reading:
    negated = bool(_NEGATION.search(aux))
    first = FIRST_WORD.match(head.strip())
    form = verb_form(first.group()) if first and not verb.needs_be else "present"
    if verb.done:
        form = "past"
    be_past = bool(_BE_PAST.search(aux))
    # "Anna's started pottery", "he's joined a choir": 's before a past form is "has" (not "she's married")
    has = form == "past" and not verb.done and not verb.be_state and re.search(rf"{_A}s$", aux.strip()) is not None
    if form == "past" and not verb.done and BE.search(aux) and not be_past and not GOT.search(aux) and not has:
        form = "present"  # "I'm married to", "I'm enrolled at": a state now
    return Reading(
        hedged=bool(HEDGE_AUX.search(aux)),
        future=bool(_FUTURE_AUX.search(aux)),
        negated=negated,
        ending=bool(_NO_LONGER.search(aux)) or (negated and bool(_ANYMORE.search(after))),
        used_to=bool(_USED_TO.search(aux)),
        perfect=(bool(_PERFECT.search(aux)) or has) and not be_past,
        past=form == "past" or be_past or bool(re.search(rf"\bdid\b|didn{_A}t", aux, re.I)),
        be=bool(BE.search(aux)),
        progressive=be_past and form == "ing",
    )


def _upcoming(span: TimeSpan | None, reference: datetime) -> bool:
    return span is not None and (span.end or span.start) > reference


def decide(verb: Verb, kind: str, r: Reading, span: TimeSpan | None,
            reference: datetime) -> tuple[FactOp, str] | None:
    """(op, predicate) for a verb read as ``r``, or None when it states nothing."""
    stops: FactOp = "end" if kind == "stop" else "assert"
    if r.hedged or r.future or (_upcoming(span, reference) and not r.past):
        return None  # a plan, a wish: not a fact (the chat says later whether it happened)
    if r.progressive and kind in ("start", "stop"):
        return None  # "we were moving to Glasgow in august", "I was joining the choir": under way or meant, not done
        # (an event was: "I was staying in Paris last week")
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


def period(op: FactOp, kind: str, r: Reading,
            span: TimeSpan | None) -> tuple[datetime | None, datetime | None]:
    """(valid_from, valid_to) for a decided fact and the time phrase that goes with it."""
    if span is None:
        return None, None
    if op == "end":
        return None, span.start
    if kind == "event" or _explicit(span) or (kind == "state" and r.past and not r.perfect):
        return span.start, span.end
    return span.start, None



_EVENT_PREDICATES = frozenset(("traveled_to", "met", "attended", "graduated_from"))

_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30}
_COUNT = r"(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)"
#: How long a state has held, said right after its object and ending its clause: " Leeds for 3 years now",
#: " yoga for two years", " Tesco, 5 years now" (the object: at most four words, no pronoun or link among them).
_LASTED = re.compile(
    r"(?i)^\s*(?P<object>(?:[\w'’.&-]+\s+){0,3}?[\w'’.&-]+)\s*"
    rf"(?:\s+for\s+(?:the\s+(?:last|past)\s+)?{_COUNT}\s+(?P<unit>years?|yrs?|months?)|"
    rf",?\s*[-–]?\s*{_COUNT.replace('<n>', '<n2>')}\s+(?P<unit2>years?|yrs?|months?)(?=\s+now\b)|"
    rf"\s+{_COUNT.replace('<n>', '<n3>')}\s+(?P<unit3>years?|yrs?|months?))"
    r"(?:\s+(?:now|already|so\s+far))?\s*(?:[.!,;:)]|$|(?:and|lol|haha|tbh|honestly)\b(?!\s+(?:a\s+half|a\s+bit|"
    r"half|mo|several|about|around|almost|nearly|like|over|\d|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|a\s+few|some|months?|weeks?|days?)\b))")
#: Words that make the length another person's or another thing's, or the object more than a name: "who",
#: "my husband", "before that".
_NOT_AN_OBJECT = re.compile(r"(?i)\b(?:who|which|where|that|than|before|after|since|with|my|his|her|their|our|your|"
                            r"he|she|they|we|you|i|it|and|or|but|been|known|off|sick|single|married|engaged|on|"
                            r"contract|notice|for|now|\d+|twenty|thirty|forty|fifty|sixty)\b|\d")
#: In the rest of the sentence: the stretch is over, not one, or someone else's belief ("then moved to York",
#: "in total", "on and off", "but I'm at Asda now").
_NOT_SINCE = re.compile(r"(?i)\b(?:then|but|in\s+total|out\s+of|in\s+the\s+past|stints?|on\s+and\s+off|"
                        r"altogether|until|till|anymore|any\s+more|moved|left|quit|now\s+(?:i|i['’]?m|im|we|"
                        r"we['’]re))\b")
#: Before the verb, in its clause: a past perfect, a condition or a time to come, someone's belief.
_NOT_NOW = re.compile(r"(?i)\b(?:had|i['’]d|after|once|when|until|if|unless|by|thinks?|says?|said|reckons?|"
                      r"claims?|feels?\s+like)\b")


def lasted_since(after: str, before: str, reference: datetime, tz: tzinfo | str) -> datetime | None:
    """When a state said in the perfect began, from how long the words right after its object say it has
    held: "I've lived in Leeds for 3 years now" (said in 2024: from 2021), "i've been at Tesco for 6 months",
    "I've been at Farfetch 3 years" (a new user's: no "for" after a perfect),
    "i live in Leeds, 5 years now"; the start of the year or month that many before the message, in the
    extractor's time zone (an approximation at the unit's granularity). ``after``: the sentence from the verb
    on; ``before``: its clause up to the verb. None where no such length ends the clause right after the object,
    where it is vague ("a few years", "over ten years", "a year and a half", "25 years" in words), another's
    ("my husband for 10 years", "who I've known for 10 years"), over or not one stretch ("for 3 years, then
    moved to York", "on and off"), weeks (a stay as often: "at the Hilton for a week"), or the clause is a past
    perfect, a condition or a belief ("I had been…", "after I've been…", "Tom thinks I've…")."""
    m = _LASTED.match(after)
    if m is None or _NOT_AN_OBJECT.search(m["object"]) or _NOT_SINCE.search(after[m.end():]) \
            or _NOT_NOW.search(before):
        return None
    said = (m["n"] or m["n2"] or m["n3"]).lower()
    n = _COUNTS[said] if said in _COUNTS else int(said)
    unit = (m["unit"] or m["unit2"] or m["unit3"]).lower()
    local_zone = zone(tz)
    local = reference.astimezone(local_zone)
    months = local.year * 12 + local.month - 1 - (12 * n if unit.startswith("y") else n)
    if months < 12:
        return None
    year, month = divmod(months, 12)
    start = datetime(year, 1 if unit.startswith("y") else month + 1, 1, tzinfo=local_zone)
    return start.astimezone(reference.tzinfo or local_zone)


def time_alone(sentence: str, reference: datetime, day_first: bool, tz: tzinfo | str) -> TimeSpan | None:
    """The period of a sentence that is only a time phrase ("last weekend."), else None."""
    words = re.sub(r"[^\w\s]", " ", sentence).split()
    if not words or len(words) > 4 or re.search(r"(?i)days\b|\b\w+day\s+(?:mornings|evenings|nights|afternoons)\b",
                                                 sentence):
        return None  # "On Wednesday mornings.": a habit's days, not a date
    spans = [s for s in find_times(sentence, reference, day_first=day_first, tz=tz) if isinstance(s, TimeSpan)]
    if len(spans) != 1 or len(re.sub(r"[^\w\s]", " ", spans[0].text).split()) < len(words) - 1:
        return None
    return spans[0] if spans[0].start <= reference else None


#: A sentence that is only when a job or a course begins: "start in april", "i start 1 june", "starting monday!",
#: "first day is the 3rd" (what follows: :func:`start_alone`).
_START_ALONE = re.compile(r"(?i)^\W*(?:(?:and|so)\s+)?(?:(?:i\s+)?(?:start|starting|begin|beginning)|(?:my\s+)?first\s+"
                          r"day\s+(?:is|will\s+be|['’]s))\s+(?P<when>.*\w)\W*$")  # (greedy, then back to a
# letter: a lazy phrase tried the end at every character, quadratic in a long sentence, a reviewer's)
_SAID_PAST = re.compile(r"(?i)\b(?:\d{4}|last|ago|yesterday|earlier)\b")


def start_alone(sentence: str, reference: datetime, day_first: bool, tz: tzinfo | str) -> datetime | None:
    """When a sentence that is only a start's time says it begins ("start in april", said of the job the
    sentence before got: "i got a job at Monzo!!!! start in april"), else None: the sentence is the verb and
    the time alone ("starting tomorrow night shifts" is a shift's). A start is to come: a time named with no
    year that has passed is next year's ("start 9th january" said in March, "in the autumn", "after
    christmas"), a day of the month passed next month's ("first day is the 3rd", said on the 12th), a day of the
    week passed next week's ("starting monday", said on a Tuesday).
    """
    m = _START_ALONE.match(sentence)
    if m is None:
        return None
    when = m["when"]
    words = re.sub(r"[^\w\s]", " ", when).lower().split()
    weekday = _WEEKDAY_ALONE.fullmatch(when.strip())
    spans = [s for s in find_times("on " + weekday["day"] if weekday else when, reference, day_first=day_first, tz=tz)
             if isinstance(s, TimeSpan)]  # "starting monday": the time grammar reads a weekday alone nowhere else
    if not words or len(words) > 4 or len(spans) != 1:
        return None
    timed = re.sub(r"[^\w\s]", " ", spans[0].text).lower().split()
    if not weekday and set(words) - set(timed) - _BESIDE_A_TIME:
        return None  # "starting tomorrow night shifts", "start exams tomorrow": a shift's or an exam's start
    start = spans[0].start
    if spans[0].end is not None and spans[0].end <= reference and not _SAID_PAST.search(when):
        if weekday:
            return _later(start, tz, relativedelta(days=7))  # "start on friday", said on a Tuesday: the Friday
            # to come
        if re.fullmatch(r"(?i)(?:on\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?", when.strip()):
            return _later(start, tz, relativedelta(months=1))  # "first day is the 3rd", said on the 12th: next
            # month's
        return _later(start, tz, relativedelta(years=1))  # "start 9th january", "in the autumn", "after christmas":
        # the next
    return start


def _later(start: datetime, tz: tzinfo | str, step: relativedelta) -> datetime:
    """``start`` moved on by ``step`` on the zone's calendar: the same wall time, a week, a month or a year on, in UTC
    (a week on from a Monday's midnight across a change of the clocks is the next Monday's midnight: a reviewer's)."""
    local = zone(tz)
    return ((start.astimezone(local).replace(tzinfo=None) + step).replace(tzinfo=local)).astimezone(start.tzinfo)


#: A start's time that is a day of the week alone: "monday", "on friday!!", "this monday" (:func:`start_alone`).
_WEEKDAY_ALONE = re.compile(r"(?i)(?:on\s+|this\s+(?:coming\s+)?)?"
                            r"(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\W*")
#: Words a start's time may carry besides the phrase itself: "start in april", "starting on the 3rd".
_BESIDE_A_TIME = frozenset("in on at the from of".split())


def with_period(fact: ExtractedFact, span: TimeSpan) -> ExtractedFact:
    """A fact with the period a time phrase said just after it gives."""
    if fact.op == "end":
        return fact.model_copy(update={"valid_to": span.start})
    if fact.predicate in _EVENT_PREDICATES:
        return fact.model_copy(update={"valid_from": span.start, "valid_to": span.end})
    return fact.model_copy(update={"valid_from": span.start})

