"""Find time expressions in text: match the grammar, settle overlaps, combine neighbours.

Combining reads what stands between matches: ``since`` opens a period, ``from A to B`` joins two,
``the Sunday before`` reads against the date after it, and a clock time next to a day makes an
instant. The tense of the clause a phrase stands in decides which occurrence a bare name means
("on Friday", "in March", "in the spring"): the most recent one in a past clause, the next one
in a future clause.

Internal: resolve phrases with :mod:`graphmem.when`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import partial

from dateutil.relativedelta import relativedelta

from ..core.tense import FUTURE_AUXILIARY, WE_RE_TYPED
from ._calendar import Period, Tense, span
from ._grammar import MONTH, RULES, TO, WEEKDAYS, Context, Rule

__all__ = ["find"]


@dataclass(frozen=True)
class Hit:
    """A period found at ``text[begin:finish]``."""

    begin: int
    finish: int
    period: Period
    anchored: Callable[[date], Period | None] | None = None  # "the Sunday before": read against a day


# --- tense ----------------------------------------------------------------------------------

_CLAUSE_BREAK = re.compile(r"(?<![.!?;:])[.!?;:]+(?:\s|$)|\n|\b(?:and|but|so|because|though|although|while|"
                           r"whereas|whereas|then)\b", re.IGNORECASE)
#: A comma and a new subject after it.
_COMMA_SUBJECT = re.compile(r",\s*(?=(?:i|we|he|she|they|you|u)(?P<short>['’](?:m|s|re|ll|ve|d))?\s)", re.IGNORECASE)
_FUTURE = re.compile(
    FUTURE_AUXILIARY + r"|\b(?:won['’]t|plan(?:ning)?\s+to|"
    r"intend(?:ing)?\s+to|hop(?:e|ing)\s+to|want\s+to|wanna|would\s+like\s+to|can['’]t\s+wait|"
    r"looking\s+forward|upcoming|soon|next|tomorrow|(?:should|might)\s+be|(?-i:may|might)\s+(?:well\s+)?"
    r"(?!(?:have|['’]ve|of|sound|sounds|seem|seems|look|looks|know|remember|recall|notice|guess|imagine|recognise|"
    r"recognize)\b|be\s+(?:wrong|right|true|crazy|silly|a\s+bit)\b)[a-z]+)\b", re.IGNORECASE)
#: "be" in the present: beside a past verb ("i'm booked up until…", "we're closed till…"), the
#: clause's tense is not said.
_BEING = re.compile(r"['’](?:m|re)\b|\b(?:am|is|are|im)\b", re.IGNORECASE)
#: A suggestion, read after the past verbs ("can we push the trip to mid june", "let's do late summer";
#: not "can you believe what happened in march").
_SUGGESTED = re.compile(r"\b(?:let['’]s|(?:can|could|shall|should)\s+(?:we|i|u|you)|"
                        r"(?:we|i|u|you)\s+(?:should|could)\s+(?!have\b|['’]ve\b|of\b)\w+)\b", re.IGNORECASE)
#: A reminder or an invitation, with no past verb in its clause, is of what is to come: "please remember the lotu this
#: Sunday", "don't forget the hui this Saturday", "save the date" (read as the Sunday gone by: a new user's).
_REMINDED = re.compile(r"\b(?:please\s+remember|remember\s+to|don['’]?t\s+forget|dont\s+forget|do\s+not\s+forget|"
                       r"not\s+to\s+forget|save\s+the\s+date|reminder|see\s+(?:you|u|yous|everyone)|join\s+us|"
                       r"be\s+there)\b", re.IGNORECASE)  # (not "remember Rotorua in March?": a memory, a reviewer's)
_IRREGULAR_PAST = (
    "ate awoke became began bent bit bled blew bought brought broke built burnt caught chose came "
    "cost crept dealt did drank drew drove dug fed felt fell fled flew forgot fought found froze "
    "gave got went grew had heard held hid hit hung hurt kept knew laid led leapt left lent lit "
    "lost made meant met paid put quit ran rang read rode rose said sang sank sat saw sent set shook "
    "shot shut slept slid sold spent split spoke spun stood stole stuck struck swam swept swore "
    "taught thought threw told took tore understood was were woke won wore wrote")
_PAST = re.compile(
    rf"\b(?:{'|'.join(_IRREGULAR_PAST.split())}|let(?!['’]?s\b)|didn['’]t|wasn['’]t|"
    r"weren['’]t|hadn['’]t|"
    r"used\s+to|ago|yesterday|(?:may|might|must|could|should|would)\s+(?:have|['’]ve))\b|['’]d\s+\w+ed\b|"
    r"\b(?!(?:need|seed|feed|bed|red|shed|speed|breed|bleed|indeed|embed|proceed|succeed|exceed|"
    r"hundred|naked|sacred|wicked|weed|reed|deed|greed|tired|excited|married|engaged|bored|"
    r"interested|based|scared|supposed|used)\b)[a-z]{2,}ed\b", re.IGNORECASE)
_PRESENT = re.compile(
    r"['’](?:m|re)\b|\b(?:am|is|are|have|has|start|starts|begin|begins|leave|leaves|arrive|"
    r"arrives|come|comes|fly|flies|move|moves|get|gets|meet|meets|see|sees|head|heads|go|goes|"
    r"end|ends|open|opens|close|closes|expire|expires|finish|finishes|land|lands|depart|departs|"
    r"run|runs|happen|happens|kick|kicks|due|return|returns|launch|launches|collect|collects|pick|picks|fetch|"
    r"fetches|drive|drives|visit|visits|travel|travels|sign|signs)\b|"
    r"\b\w+ing\b", re.IGNORECASE)


_WE_RE_TYPED = re.compile(WE_RE_TYPED, re.IGNORECASE)
#: A thing moved to a new time, which is to come: "I moved my flight to Dec 23", "they pushed the wedding back to
#: June", "got rescheduled to the 14th" (a new user's: read as past, the flight home was a year before it was said).
#: Read in the words just before a time phrase (:data:`_MOVED_REACH`), ending at it: only that time is to come.
_MOVED_TO_A_TIME = re.compile(r"\b(?:moved|changed|rebooked|re-booked|pushed|postponed|bumped|rescheduled|delayed|"
                              r"switched|brought)\b(?:\s+(?!to\b)[\w'’-]+){0,4}?(?:\s+(?:back|forward|up))?\s+"
                              r"(?:to|till|until)\s+(?:the\s+)?$|\bbooked\b(?:\s+(?!for\b)[\w'’-]+){0,4}?\s+for\s+(?:the\s+)?$",
                              re.IGNORECASE)
#: How far before a time phrase such words, and a timetable's verb, are looked for.
_MOVED_REACH = 60
#: A timetable's verb in the present just before a time, which is to come whatever the clause's tense: "booked the bus
#: to Mendoza, leaves 13 august" (a new user's: read as last August, after "booked"), "the course starts on the 3rd".
_SCHEDULED_AT = re.compile(r"\b(?:leaves|departs|arrives|lands|sails|starts|begins|opens|kicks\s+off|flies(?:\s+out)?)"
                           r"\s+(?:on\s+|at\s+)?(?:the\s+)?$", re.IGNORECASE)

_SINCE_BEFORE = re.compile(r"\b(?:since|ever\s+since)\s+(?:the\s+)?$", re.IGNORECASE)
#: How far before a phrase "since" is looked for ("ever since the ", spaces doubled).
_SINCE_REACH = 40


def clause_reader(text: str, hits: list[tuple[int, int]]) -> Callable[[int], tuple[Tense, bool]]:
    """A function ``at -> (tense, stated)``: the tense of the clause around index ``at``, and
    whether its words state one (False: a clause with no verb, read as past).

    The words of time phrases themselves (``hits``) are masked, so "last" in "last week" does
    not make its clause past. A clause with a future marker (will, going to, 'll, next, ...) is
    future; else one with a past verb is past; else a suggestion ("can we", "let's") or a verb
    in the present (a present progressive, "I start on Monday") speaks of arrangements, so
    future; a clause with no verb is past, unstated.
    """
    masked = list(text)
    for begin, finish in hits:
        masked[begin:finish] = " " * (finish - begin)
    plain = "".join(masked)
    breaks = [0] + [m.end() for m in _CLAUSE_BREAK.finditer(plain)] + [len(plain)]
    # a comma before a new subject ends a clause that has a verb of its own ("i got the job at the RUH, i start
    # on the 22nd"), not a fronted time ("In March, we're going…")
    for comma in _COMMA_SUBJECT.finditer(plain):
        before = breaks[bisect_right(breaks, comma.start()) - 1]
        following = [b for b in breaks if b > comma.end()]
        _, _, after = plain[comma.end():min(following, default=len(plain))].strip().partition(" ")  # past the subject
        if comma["short"] and comma["short"][1:].lower() != "ll" and not any(
                p.search(after) for p in (_PAST, _PRESENT, _FUTURE)):
            continue  # "she's free on Saturday", "she's 30 in March": no verb of its own, the tense before it (a
            # contraction opens a clause only with a verb: "got a new job btw, she's teaching … from September")
        if _PAST.search(plain, before, comma.start()) or _PRESENT.search(plain, before, comma.start()):
            breaks.append(comma.end())
    breaks.sort()

    def own(begin: int, end: int) -> tuple[Tense, bool]:
        clause = plain[begin:end]
        if _WE_RE_TYPED.match(clause) and "?" not in clause:
            return "past", False  # "were getting married in september": "we're" or a past, not said: the nearest
        if _FUTURE.search(clause):
            return "future", True
        if _PAST.search(clause):
            # a past verb and a present one ("i'm booked up until…", "was thinking i come up…"): unsaid
            return "past", not (_BEING.search(clause) or _SUGGESTED.search(clause))
        if _SUGGESTED.search(clause) or _PRESENT.search(clause) or _REMINDED.search(clause):
            return "future", True
        return "past", False

    # each clause read once (a clause with no verb could take the tense of the one before, "did you
    # move? end of march?": measured, it turned 60 phrases of the dev chats, many the wrong way)
    read = [own(begin, end) for begin, end in zip(breaks, breaks[1:] + [len(plain)])]

    def tense(at: int) -> tuple[Tense, bool]:
        # "since" looked for just before: many phrases in one long clause were each read against it
        # from the text's start ("in june in june …", 8,000 characters: quadratic, seconds)
        if _SINCE_BEFORE.search(text, max(0, at - _SINCE_REACH), at):
            return "past", True  # "since March" looks back
        near = max(0, at - _MOVED_REACH)
        if _MOVED_TO_A_TIME.search(text, near, at) or _SCHEDULED_AT.search(text, near, at):
            return "future", True  # "I moved my flight to Dec 23": the time it was moved to (not "on Monday" before);
            # "booked the bus, leaves 13 august"
        return read[bisect_right(breaks, at) - 1]

    return tense


# --- scanning -------------------------------------------------------------------------------

def _candidates(text: str) -> list[tuple[re.Match[str], Rule]]:
    found = [(m, rule) for rule in RULES for m in rule.pattern.finditer(text)]
    found.sort(key=lambda item: (item[0].start() - item[0].end(), item[0].start()))
    chosen: list[tuple[re.Match[str], Rule]] = []
    starts: list[int] = []  # the matches taken, apart, in order of where they start
    ends: list[int] = []
    for m, rule in found:
        at = bisect_right(starts, m.start())  # the one taken just before may run into it, the one after begin in it
        if (at and ends[at - 1] > m.start()) or (at < len(starts) and starts[at] < m.end()):
            continue
        starts.insert(at, m.start())
        ends.insert(at, m.end())
        chosen.append((m, rule))
    return chosen


def _past_the_calendar(exc: Exception) -> bool:
    """True when a period could not be made because its year lies outside the calendar ("2030
    years ago" is year -4), not because the date does not exist (31 February)."""
    return isinstance(exc, OverflowError) or "year" in str(exc) and "out of range" in str(exc)


def scan(text: str, now: datetime, day_first: bool,
         refused: list[tuple[int, int]] | None = None, looking_back: bool = False) -> list[Hit]:
    """Base expressions in ``text``: the longest match wins an overlap; in order of appearance.

    Expressions whose period falls outside the calendar are not hits; their places are added
    to ``refused`` when it is given.
    """
    chosen = _candidates(text)
    ctx = Context(now, day_first, clause_reader(text, [(m.start(), m.end()) for m, _ in chosen]), looking_back)
    hits: list[Hit] = []
    for m, rule in chosen:
        try:
            period = rule.resolve(m, ctx)
        except (ValueError, OverflowError) as exc:
            if refused is not None and _past_the_calendar(exc):
                refused.append((m.start(), m.end()))
            continue  # 31 February 2023 is no date at all, and must not shrink to February 2023
        if period is not None:
            anchored = partial(rule.anchored, m) if rule.anchored else None
            hits.append(Hit(m.start(), m.end(), period, anchored))
    return sorted(hits, key=lambda hit: hit.begin)


# --- combining ------------------------------------------------------------------------------

def attach_anchors(hits: list[Hit], text: str) -> list[Hit]:
    """``the Sunday before`` + ``25 May 2023`` reads the weekday against that date."""
    out: list[Hit] = []
    for hit in hits:
        prev = out[-1] if out else None
        if (prev and prev.anchored and hit.period.granularity == "day"
                and text[prev.finish:hit.begin].isspace()):
            period = prev.anchored(hit.period.start.date())
            if period is not None:
                out[-1] = Hit(prev.begin, hit.finish, period)
                continue
        out.append(hit)
    return out


#: A day of the month with no month of its own: "the 22nd".
_BARE_DAY = re.compile(r"(?:(?:on\s+)?(?P<wd>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+(?:the\s+)?|the\s+)"
                       r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)", re.IGNORECASE)
_SHORT_WEEKDAYS = [name[:3] for name in WEEKDAYS]
#: A month named in words, in a phrase before it: "14th aug", "January", "dec 8".
_NAMED_MONTH = re.compile(rf"\b(?:{MONTH})", re.IGNORECASE)


def attach_month_days(hits: list[Hit], text: str, *, now: datetime) -> list[Hit]:
    """``dec 8 to the 22nd``, ``14th aug. back on the 22nd``: a day of the month with no month of its own, later
    than the day of a date named just before it with its month and no year, is read in that date's month (not a
    month alone, "in january we went skiing. i'm free the 20th"; not a day before it, "my bday is 14 march. rent
    due the 1st"; not a date of another year, "born 3rd june 1990. party on the 22nd?"; not to the other side of
    ``now`` than the day's own reading, "paid rent on aug 3. next one is due the 28th")."""
    out: list[Hit] = []
    for hit in hits:
        bare = _BARE_DAY.fullmatch(text, hit.begin, hit.finish)
        named = out[-1] if out else None
        if bare and named and hit.period.granularity == "day" and named.period.granularity == "day" \
                and named.period.floating and _NAMED_MONTH.search(text, named.begin, named.finish) \
                and named.period.start.day < int(bare["day"]) and hit.begin - named.finish <= _MONTH_DAY_REACH:
            try:
                day = named.period.start.replace(day=int(bare["day"]))
            except ValueError:  # "feb 10 … the 30th": no such day in that month
                day = None
            if day is not None and (day.weekday() == _SHORT_WEEKDAYS.index(bare["wd"].lower()) if bare["wd"] else
                                    (day >= now) == (hit.period.start >= now)):
                hit = Hit(hit.begin, hit.finish, Period(day, day + timedelta(days=1), "day"))  # ("wednesday 12th
                # august, back monday 24th": the Monday that is the 24th of August, wherever now is; a new user's)
        out.append(hit)
    return out


#: How far (in characters) after a date a bare day is read in its month.
_MONTH_DAY_REACH = 40


_CLOCK = (r"(?P<h>[0-2]?\d)(?::(?P<mi>[0-5]\d)(?::(?P<s>[0-5]\d))?)?"
          r"(?:\s*(?P<ap>[ap]\.?m\b\.?))?")
_CLOCK_BEFORE = re.compile(rf"(?<![\w:.]){_CLOCK}(?:\s*,\s*|\s+on\s+|\s+)$", re.IGNORECASE)
_CLOCK_AFTER = re.compile(rf"(?:\s*,\s*|\s+)(?:at\s+)?{_CLOCK}(?![\w:])", re.IGNORECASE)


def _clock_time(m: re.Match[str], day: datetime) -> Period | None:
    """The instant a clock match names on ``day``; None if it is a bare number or impossible."""
    hour, minute, ap = int(m["h"]), int(m["mi"] or 0), (m["ap"] or "").lower()
    if not (m["mi"] or ap) or hour > (12 if ap else 23) or (ap and hour == 0):
        return None
    if ap:
        hour = hour % 12 + (12 if ap.startswith("p") else 0)
    moment = day + timedelta(hours=hour, minutes=minute, seconds=int(m["s"] or 0))
    step = timedelta(seconds=1) if m["s"] else timedelta(minutes=1)
    return Period(moment, moment + step, "instant")


def attach_clock(hits: list[Hit], text: str) -> list[Hit]:
    """``1:56 pm on 8 May, 2023`` or ``yesterday at 3pm``: a day plus a clock time is an instant."""
    out: list[Hit] = []
    for hit in hits:
        if hit.period.granularity == "day":
            floor = out[-1].finish if out else 0
            before = _CLOCK_BEFORE.search(text, floor, hit.begin)
            if before and (period := _clock_time(before, hit.period.start)):
                hit = Hit(before.start(), hit.finish, period)
            elif (after := _CLOCK_AFTER.match(text, hit.finish)) and (
                    period := _clock_time(after, hit.period.start)):
                hit = Hit(hit.begin, after.end(), period)
        out.append(hit)
    return out


_SINCE = re.compile(r"\b(?:ever\s+)?since\s+$", re.IGNORECASE)


def attach_since(hits: list[Hit], text: str) -> list[Hit]:
    """``since 2019`` is open: from the start of 2019, with no end (granularity of 2019)."""
    out: list[Hit] = []
    for hit in hits:
        floor = out[-1].finish if out else 0
        since = _SINCE.search(text, floor, hit.begin)
        if since and hit.period.end is not None:
            hit = Hit(since.start(), hit.finish, hit.period._replace(end=None))
        out.append(hit)
    return out


_FROM = re.compile(r"\b(?P<lead>from|between)\s+$", re.IGNORECASE)
_RANGE_TO = re.compile(TO, re.IGNORECASE)
_RANGE_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


def attach_ranges(hits: list[Hit], text: str) -> list[Hit]:
    """``from A to B`` / ``between A and B`` is one range from A's start to B's end."""
    out: list[Hit] = []
    for hit in hits:
        prev = out[-1] if out else None
        if prev is not None:
            floor = out[-2].finish if len(out) > 1 else 0
            lead = _FROM.search(text, floor, prev.begin)
            joiner = _RANGE_AND if lead and lead["lead"].lower() == "between" else _RANGE_TO
            if lead and joiner.fullmatch(text, prev.finish, hit.begin):
                last = hit.period
                if last.floating and last.start < prev.period.start:  # "from May 1 to June 3"
                    last = Period(last.start + relativedelta(years=1),
                                  None if last.end is None else last.end + relativedelta(years=1),
                                  last.granularity)
                period = span(prev.period, last)
                if period is not None:
                    out[-1] = Hit(lead.start(), hit.finish, period)
                    continue
        out.append(hit)
    return out


#: Every expression holds a digit or one of these words: text without any has none to find.
_TRIGGER = re.compile(
    r"\d|\b(?:yesterday|today|tonight|tomorrow|morning|afternoon|evening|night|ago|back|last|"
    r"next|this|past|since|earlier|later|weeks?|weekends?|months?|years?|decades?|days?|hours?|"
    r"minutes?|quarters?|fortnight|from\s+now|holidays|christmas|easter|halloween|thanksgiving|valentine|new\s+year|"
    r"independence|boxing|spring|summer|autumn|fall|winter|the\s+\w+ies|first|second|third|fourth|"
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|"
    r"july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|a\s+few|couple)\b", re.IGNORECASE)


def find(text: str, now: datetime, *, day_first: bool = False,
         refused: list[tuple[int, int]] | None = None, looking_back: bool = False) -> list[Hit]:
    """Every time expression of ``text`` read at ``now`` (naive, in the store's zone); those
    outside the calendar go to ``refused`` (their places) when it is given. ``looking_back``: a phrase
    typed alone, whose date or month with no verb is the most recent one."""
    if not _TRIGGER.search(text):
        return []
    hits = scan(text, now, day_first, refused, looking_back)
    for combine in (attach_anchors, partial(attach_month_days, now=now), attach_clock, attach_since, attach_ranges):
        hits = combine(hits, text)
    kept: list[Hit] = []  # a clock attached may reach into the next phrase ("05/08/2023 1:56 week ago"): one of them
    for hit in hits:
        if kept and hit.begin < kept[-1].finish:
            continue
        kept.append(hit)
    return kept
