"""The verb phrases the rules extractor knows, each with the fact it states.

A :class:`Verb` is a pattern for the words from the verb up to where its object starts ("moved
to", "got a job at", "broke up with"), the predicate it states, how it states it, and what kind
of object follows. The subject, auxiliaries and time phrases around it are read by
:mod:`graphmem.extract._rules`, so one entry covers "I moved to", "we've just moved to",
"my sister Ana moved to" and "Moved to".

Kinds:

- ``state``: true while it lasts (live in, work at, like, be married to). Present or perfect
  asserts it; "used to", "no longer", "not ... anymore" and a plain past without a bounded
  period end it; a past with a bounded period ("in 2019", "from 2015 to 2018") asserts that period.
- ``start``: it became true (moved to, joined, started dating): asserts from the time phrase.
- ``stop``: it stopped being true (left, quit, broke up with): ends at the time phrase.
- ``event``: it happened (travelled to, met, graduated from): asserts the period of the time phrase.

A ``start``, ``stop`` or ``event`` said in the present or the future ("I'm moving to Oslo",
"I'll visit Rome") states something only with an explicit time still to come.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A pattern's parse, read once per verb for the prefilter of verbs_for (re's own modules: typeshed
# knows them only by their deprecated names, sre_constants and sre_parse)
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, Literal

from ._lexicon import EMOJI, EVENTS, HABIT_VERBS, LANGUAGES, RELATIONS, RETIREES

__all__ = ["CALLED_OFF", "GREETED_FROM", "VERBS", "Verb", "verbs_for"]

Kind = Literal["state", "start", "stop", "event"]
#: place: a city, country, region (lowercase only if known); org: a company or school;
#: where: a place or an organisation, which decides the predicate; person: someone named;
#: thing: what one likes (lists allowed); name: what one is called; none: no object.
#: pet, possession, activity, group, event: an everyday noun phrase ending in a word of that
#: list (graphmem.extract._lexicon); habit: none, the verb itself names it ("I run" -> running);
#: lesson: a class or course whose words name an activity ("a pottery class" -> pottery); race:
#: a run one takes part in ("the London marathon").
ObjectKind = Literal["place", "org", "where", "person", "thing", "name", "none", "pet", "possession",
                     "activity", "group", "event", "habit", "lesson", "race"]


@dataclass(frozen=True)
class Verb:
    """A verb phrase and the fact it states about the object that follows it."""

    head: re.Pattern[str]
    predicate: str
    kind: Kind
    obj: ObjectKind
    negated: str | None = None  # what "I don't <verb> X" asserts instead (like -> dislikes)
    needs_be: bool = False  # "based in", "into", "a fan of": only after am/is/are/was/been
    bare: bool = False  # may stand without an object ("I got divorced")
    reciprocal: bool = False  # "Tom and I broke up": the other subject is the object
    done: bool = False  # the words say it happened ("I'm back from"): read as past
    be_state: bool = False  # after a form of "be" it is a state ("I'm married to")
    pair: bool = False  # "moved from A to B": ends A, starts B
    free: bool = False  # needs no subject ("call me Bex", "my name is Li")
    mention: bool = False  # "my dog", "our choir": a possession said in passing, no verb
    timeless: bool = False  # the time said is not the fact's ("moved in together last month": dating since before)
    unsure: bool = False  # read as often of something else: proposed for review ("3 weeks in at X": a job, or a stay)
    alongside: bool = False  # claims none of its words: the phrases in them are read too ("drove to alba for the fair")
    answer: bool = False  # a fragment that may answer the turn before: "what does elvin do?" - "engineer at Azersu"
    #: how the words it can begin with begin (their first ``_STARTS`` letters, lower case), or None
    #: where the pattern could begin otherwise: a sentence none of whose words begins so is skipped
    starts: frozenset[str] | None = None


#: How many letters of a word the prefilter compares: enough to tell "adopted" from "and".
_STARTS = 4
_WORD = re.compile(r"[a-z0-9_]+")


def _word_starts(sentence: str) -> set[str]:
    """The first one to ``_STARTS`` letters of every run of ASCII word letters in ``sentence``, lower case:
    a head's match begins such a run (it opens with ``\\b`` and a letter), unless the letter before it
    is a word letter beyond ASCII ("éadopted"), where ``\\b`` fails anyway."""
    return {word[:n] for word in _WORD.findall(sentence.lower()) for n in range(1, _STARTS + 1)}


def _first_letters(items: list[Any], prefix: str, out: set[str]) -> None:
    """Add to ``out`` what a match of ``items`` (a parsed pattern) can begin with: its literal word
    letters, up to ``_STARTS``, lower case, stopping at anything else (a shorter beginning still has to
    be there). Zero-width items (``\\b``, lookarounds) are passed over; a repeat is read once, or skipped
    when it may match nothing."""
    for n, (op, av) in enumerate(items):
        if len(prefix) >= _STARTS:
            break
        if op is sre.LITERAL:
            c = chr(av).lower()
            if not (c.isascii() and (c.isalnum() or c == "_")):
                break
            prefix += c
        elif op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue
        elif op is sre.SUBPATTERN:
            _first_letters(list(av[3]) + items[n + 1:], prefix, out)
            return
        elif op is sre.BRANCH:
            for alternative in av[1]:
                _first_letters(list(alternative) + items[n + 1:], prefix, out)
            return
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, _, repeated = av
            if low == 0:
                _first_letters(items[n + 1:], prefix, out)
            _first_letters(list(repeated), prefix, out)
            return
        else:
            break
    out.add(prefix)


def _parse_read_as_expected() -> bool:
    """Whether this Python's parse of a pattern has the shape :func:`_first_letters` reads (``re._parser``
    is private: where a later version lays it out otherwise, every verb is tried, slower, never wrong)."""
    try:
        return _starts_of(re.compile(r"\b(?:(?:a|an)\s+)?(?:my|our)x+", re.IGNORECASE), checked=False) == frozenset(
            {"a", "an", "myx", "ourx"})
    except Exception:  # noqa: BLE001  # any failure to read the parse: no prefilter
        return False


def _starts_of(pattern: re.Pattern[str], *, checked: bool = True) -> frozenset[str] | None:
    """How the words a match of ``pattern`` begins with can begin; None unless the pattern opens with
    ``\\b`` (so a match begins where a word does) and each way it can begin has a word letter first."""
    if checked and not _PARSE_READ:
        return None
    items = list(sre_parse.parse(pattern.pattern, pattern.flags))
    if not items or items[0] != (sre.AT, sre.AT_BOUNDARY):
        return None
    out: set[str] = set()
    _first_letters(items, "", out)
    return None if "" in out else frozenset(out)


_PARSE_READ = _parse_read_as_expected()


#: A trade or profession, as one says where one does it: "a nurse at VGH", "head chef at Loam", "deckhand with Aran
#: Island Ferries" (a word of the list, not any noun: "a tourist at the museum", "a regular at the pub" work nowhere).
_ROLE = (r"(?:(?:a|an)\s+)?(?:(?:senior|junior|head|chief|deputy|assistant|trainee|student|staff|charge|locum|sous|"
         r"line|dinner|support|lab|research|care|sales|project|office|software|civil|site|shift)\s+)?"
         r"(?:nurse|doctor|engineer|teacher|apprentice|manager|chef|cook|waiter|waitress|barista|bartender|"
         r"cashier|receptionist|accountant|lawyer|solicitor|architect|developer|programmer|designer|"
         r"pharmacist|dentist|hygienist|mechanic|electrician|plumber|carpenter|cleaner|porter|paramedic|"
         r"midwife|surgeon|lecturer|professor|researcher|postdoc|scientist|analyst|consultant|"
         r"administrator|secretary|clerk|technician|supervisor|director|librarian|curator|editor|"
         r"journalist|producer|dispatcher|lady|worker|assistant|intern|trainee|physio|physiotherapist|"
         r"therapist|vet|caretaker|janitor|labourer|laborer|builder|driver|deckhand|skipper|fisherman|"
         r"pilot|steward|stewardess|carer|optician|radiographer|sonographer|physician|registrar|"
         r"manageress|foreman|welder|joiner|baker|butcher|florist|hairdresser|barber)")
#: An employer's name that ends the sentence, capitalised: "Aran Island Ferries", "UHG now!!" (not "the clinic said").
_NAMED_TO_THE_END = (r"(?=\s+(?:the\s+)?(?-i:[A-Z])[\w'’&.-]*(?:\s+(?:of\s+|&\s+|and\s+)?(?-i:[A-Z0-9])[\w'’&.-]*){0,5}"
                     r"\s*(?:now|today|lol)?\s*[^\w\s]*\s*$)")


def _verb(head: str, predicate: str, kind: Kind, obj: ObjectKind, negated: str | None = None,
          **options: bool) -> Verb:
    pattern = re.compile(rf"\b(?:{head})(?:(?<=\s)|(?=\s|$|[,.!]))\s*", re.IGNORECASE)
    return Verb(pattern, predicate, kind, obj, negated, **options, starts=_starts_of(pattern))


_A = "['’]"
_ADV = r"(?:\s+(?:really|so|totally|quite|very|super|pretty|absolutely|completely|seriously))*"
_NAMED = r"(?:(?:a|some|this)\s+(?:guy|girl|woman|man|person|lady|dude)|someone|somebody)\s+" \
         r"(?:named|called)\s+"
_DEGREE = rf"(?:master{_A}?s|masters|phd|ph\.d\.|doctorate|degree|bachelor{_A}?s|mba|undergrad|" \
          r"studies|diploma|course|thesis)"
_TRIP = r"(?:(?:a|an|my|our|the)\s+(?:[\w-]+\s+){0,2}?(?:trip|holiday|vacation|visit|tour)\s+to\s+|" \
        r"(?:a|an|our|my|the|two|three|four|five|ten|few|couple|\d+)\s+(?:of\s+)?(?:[\w-]+\s+){0,2}?" \
        r"(?:days?|nights?|weeks?|weekend|months?)\s+(?:in|on|at)\s+)?"
_PLACE_LEAD = r"(?:(?:my|our|his|her|their)\s+(?:[\w'’-]+\s+){1,3}?(?:in|at)\s+|" \
              r"(?:(?:nana|nanna|granny|grandma|grandpa|grandad|granddad|auntie|aunty|aunt|uncle|tia|tio|tita|tito|" \
              r"tante|tonton)\s+)?" \
              r"(?-i:[A-Z])[\w'’-]+(?:\s+and\s+(?-i:[A-Z])[\w'’-]+)?\s+(?:in|at)\s+(?=(?-i:[A-Z])))?"
_STAY = r"(?:(?:next|this|last|the)\s+(?:week|weekend|month|summer|winter|spring|fall|autumn)\s+in|" \
        r"(?:a|an|the|two|three|four|five|six|seven|ten|few|couple|several|\d+)\s+(?:of\s+)?" \
        r"(?:[\w-]+\s+){0,2}?(?:days?|nights?|weeks?|weekends?|months?|summer|holidays|time)\s+in)"
_MEAL = r"(?:lunch|dinner|breakfast|brunch|coffee|drinks|a\s+drink|a\s+coffee|a\s+beer|beers|tea)"
#: Someone's, where one went: a relative of one's own ("my gran", "our parents") or someone's named by their name
#: ("Elena's parents", "Rhys's place"); then "in" and a place written with a capital: "we went to Elena's parents in
#: Ungheni" is a trip to Ungheni (not "my office in Leeds", "my flat in Leeds": one's own).
_THEIRS_IN = (r"(?:(?:my|our)\s+(?:[\w'’-]+\s+)?(?:" + "|".join(sorted(RELATIONS - {"boss", "manager", "colleague",
                                                                                  "coworker", "co-worker"}, key=len,
                                                                       reverse=True))
              + r")|(?-i:[A-Z])[\w’-]+['’]s(?:\s+(?:parents|family|folks|place|house|flat|home|mum|mom|dad|"
                r"grandparents|farm|village))?)\s+in\s+(?=(?-i:[A-Z]))")

_HABIT = "|".join(sorted({form for verb in HABIT_VERBS for form in (verb, verb + "s", verb + "es")}, key=len,
                         reverse=True))
#: Events said in passing ("the concert was amazing"); not games, matches and races, which
#: are as often watched on a screen as attended ("the game was brutal", "our first game was…").
_EVENT_NOUN = "|".join(sorted(EVENTS - {"game", "games", "match", "race"}, key=len, reverse=True))

#: Events a trip is made for ("drove to alba for the truffle fair"); not a birthday or a game, said of a visit as
#: often as of an event ("went home for my birthday", "came over for the game").
_TRIP_EVENT = "|".join(sorted(EVENTS - {"birthday", "game", "games", "show", "play", "quiz", "supper", "match",
                                        "race", "shower", "ball", "workshop", "ballet", "opera", "party"},
                              key=len, reverse=True)
                       + ["(?!(?:the|a|an|my|our|his|her|their|this|that)\\s)[\\w'’-]+\\s+party"])
#: What may follow the event a trip was made for: the sentence's end, a time, a place, whose it was ("for the
#: fair yesterday", "for the wedding in Ptuj"); not another noun ("for a fair price", "for marathon training").
_EVENT_ENDS = (r"(?=\s*(?:$|[.,!?;:)…\n]|[" + EMOJI + r"]|(?:in|at|on|of|with|over|last|this|"
               r"yesterday|today|and|but|so|lol|haha|omg|x+|\d)\b))")
#: Words that say an event never happened ("it was cancelled", "called off", "postponed", "rained off").
CALLED_OFF = r"cancel+ed|called\s+off|postponed|rained\s+off|scrapped"
#: A trip said off: "… for the truffle fair but it was cancelled".
_CALLED_OFF = rf"(?![^.!?]*\b(?:{CALLED_OFF}|didn['’]?t\s+happen)\b)"

#: Where one goes to buy for an event, not to it ("went to the shop for the party", "to tesco for the bbq").
_SHOP = (r"(?:shops?|stores?|supermarket|mall|pharmacy|chemist|bakery|butcher\w*|off[\s-]licen[cs]e|offy|tesco|aldi|"
         r"lidl|asda|sainsbury\w*|costco|walmart|target|ikea|b&q|homebase|argos|primark|boots|wilko|m&s|h&m|zara)(?!\w)")
#: What one gets for an event ("for the bbq stuff", "for the wedding outfit").
_FOR_IT = (r"(?:stuff|things|food|supplies|decorations|shopping|drinks|cake|outfit|dress|suit|shoes|present|presents|"
           r"gift|gifts|prep|planning|rehearsal)\b")

#: Not what one misses: "now I miss my bike lol", said after selling it (a new user's diary), holds no bike.
_NOT_MISSED = r"(?<!\bmiss\s)(?<!\bmissed\s)(?<!\bmissing\s)(?<!\bmisses\s)"

#: Everyday facts, tried before the verbs they share words with ("joined a choir" before
#: "joined Google", "left the club" before "left Berlin", "went to a gig" before "went to Rome").
_EVERYDAY: list[Verb] = [
    # --- pets: "we adopted a kitten", "I have two cats", "our dog Pickle", "we lost our cat"
    _verb(r"(?:adopted|adopting|adopt|rescued|got|brought\s+home|picked(?:\s+up)?)", "has_pet", "start", "pet"),
    _verb(r"(?:have|has|own|owns)(?:\s+got)?", "has_pet", "state", "pet"),
    _verb(r"(?:lost|rehomed|had\s+to\s+rehome)", "has_pet", "stop", "pet"),
    _verb(_NOT_MISSED + r"(?:my|our)(?=\s)", "has_pet", "state", "pet", free=True, mention=True),
    # --- possessions: "I bought a car", "we have a boat", "sold my bike", "my car broke down"
    # (a home got is as often rented as bought: "GOT THE FLAT. Moving on the 25th", a new user's; "got a flat in
    # Shettleston, council swap", d12)
    _verb(r"(?:bought|purchased|got(?!\s+(?:a|an|the|our|my)\s+(?:new\s+|little\s+|tiny\s+)?(?:(?:flat|apartment|room|"
          r"place|condo)\b|(?:house|home)(?=\s*(?:$|[.,!?;:)]|in\b|on\b|at\b|near\b|by\b|today\b|yesterday\b|"
          r"finally\b|lol\b|omg\b|\d))))|picked\s+up|treated\s+(?:myself|ourselves)\s+to)(?:\s+(?:myself|ourselves))?",
          "owns", "start",
          "possession"),
    _verb(r"(?:have|has|own|owns)(?:\s+got)?", "owns", "state", "possession"),
    _verb(r"(?:got|bought|gave)\s+me", "owns", "start", "possession", free=True, done=True),
    _verb(r"(?:sold|scrapped|got\s+rid\s+of)", "owns", "stop", "possession"),
    # "my car was written off", "our van got stolen" (a new user's)
    _verb(r"(?:my|our)(?=\s+(?:old\s+)?(?:car|van|bike|motorbike|motorcycle|truck|scooter|campervan)\s+(?:was|got|"
          r"has\s+been|is)\s+(?:written\s+off|totall?ed|a\s+write[- ]?off|stolen)\b)", "owns", "stop", "possession",
          free=True, mention=True, done=True),
    _verb(_NOT_MISSED + r"(?:my|our)(?=\s)", "owns", "state", "possession", free=True, mention=True),
    # --- lessons: "I signed up for a pottery class", "I'm taking spanish lessons" (does pottery, spanish)
    _verb(r"(?:joined|signed\s+up\s+(?:for|to)|enrolled\s+(?:in|on)|started|took)", "does", "start", "lesson"),
    _verb(r"(?:taking|take|takes|doing|do|does|go\s+to|goes\s+to|going\s+to)", "does", "state", "lesson"),
    _verb(r"(?:quit|stopped|gave\s+up|dropped|dropped\s+out\s+of)", "does", "stop", "lesson"),  # "i stopped the
    # kaqchikel classes"
    # --- membership: "I joined a choir", "I'm in a book club", "I quit the gym", "our church"
    _verb(r"(?:joined|join|joining|joins|signed\s+up\s+(?:for|to|with|at)|became\s+a\s+member\s+of)",
          "member_of", "start", "group"),
    _verb(r"(?:in|part\s+of|a\s+member\s+of|on)", "member_of", "state", "group", needs_be=True),
    _verb(r"(?:quit|quitting|left|leaving|cancelled|canceled|(?:stopped|gave\s+up)(?:\s+going\s+to)?)"
          r"(?:\s+my\s+membership\s+(?:at|of|with))?", "member_of", "stop", "group"),
    _verb(r"(?:my|our)(?=\s)", "member_of", "state", "group", free=True, mention=True),
    # --- activities: "I play tennis", "I've been doing pottery", "we go climbing", "I run"
    _verb(r"(?:play|plays|playing)", "does", "state", "activity"),
    _verb(r"(?:do|does|doing|practi[sc]e|practi[sc]es|practi[sc]ing)", "does", "state", "activity"),
    _verb(r"(?:go|goes)(?:\s+to)?", "does", "state", "activity"),
    _verb(r"(?:started|took\s+up|taken\s+up|began|picked\s+up|got\s+into|gotten\s+into)", "does", "start",
          "activity"),
    _verb(r"(?:learning|learn|learns)", "does", "state", "activity"),
    _verb(r"(?:study|studies|studying)(?=\s+(?:" + "|".join(sorted(LANGUAGES)) + r")\b(?!\s+(?-i:[A-Z])|\s+(?:"
          r"american|history|literature|studies|law|culture|politics|philosophy|art|arts|cuisine|food|linguistics|"
          r"grammar\s+(?:at|in))\b))", "does", "state", "activity"),  # "I study English", "studying korean so I
    # can…" (h68); not "studying law", a school's, nor "Latin American history" (two reviewers')
    _verb(r"been|back", "does", "state", "activity"),
    _verb(r"(?:started|start|began|begun)\s+(?:going\s+to|doing|playing|learning)|signed\s+up\s+(?:for|to)|enrolled\s+(?:in|on)",
          "does", "start", "activity"),
    _verb(r"have|has", "does", "state", "activity"),
    _verb(r"(?:got|gotten|getting)\s+me\s+into|(?:made|make|makes)\s+me\s+(?:start|take\s+up)|"
          r"(?:dragged|drags|talked|talks)\s+me\s+(?:in)?to", "does", "start", "activity", free=True),
    _verb(r"(?:quit|quitting|stopped|gave\s+up|given\s+up)(?:\s+going\s+to)?", "does", "stop", "activity"),
    # "I told the coach I'm done with basketball. at least for this year", "done with it for good"; not a day's ("done
    # with climbing for today", "done with swimming at 6", "done with running now, showering", "done with running!!
    # ran 10k": an attacker's), nor a part of it ("done with basketball training")
    _verb(r"(?<!\bnot\s)done\s+with(?=\s+[\w'’-]+(?:\s+(?!(?:training|practice|drama|club|team|season|stuff|thing|"
          r"things|lessons?|class(?:es)?|session|today|tonight)\b)[\w'’-]+)?\s*(?:$|\.(?:\s|$)|\s+(?:forever|"
          r"for\s+good|for\s+now|tbh|honestly|completely|officially)\b))",
          "does", "stop", "activity", needs_be=True, done=True),
    # "I run most mornings", "now I knit every evening"; told without how often, as often a chore, work or a
    # moment ("I cook, I clean", "then we paint", "Did I dance"): the rules extractor holds those for review
    _verb(_HABIT, "does", "state", "habit"),
    # --- events: "we went to Jess's wedding", "I was at a gig", "the Coldplay concert was amazing"
    _verb(r"(?:went|been|gone)\s+to|(?:got|came|just)\s+back\s+from|back\s+from|attended|was\s+at|"
          r"were\s+at", "attended", "event", "event", done=True),
    # "we played at a festival in Braslav", "I sang at the 9 o'clock service": one performs at an event one attends
    # (an event named with its article, once: not "we played at weddings for years", "… at the festival every year")
    _verb(r"(?:played|performed|sang|danced|competed|dj['’]?e?d)\s+at(?=\s+(?:a|an|the|my|our|his|her|their|"
          r"(?-i:[A-Z])[\w-]*['’]s)\s)(?![^.!?,;]{0,40}\b(?:every|each|most|for\s+years|usually|always)\b)",
          "attended", "event", "event", done=True),  # ("we played at Sam's wedding", a reviewer's)
    # "drove to alba for the truffle fair yesterday", "went back to turku for jari's retirement party": the trip's
    # reason, an event (its place, if any, is the travel verb's own reading); not an errand ("went to the party
    # shop for the party", "to b&q for a bbq"), nor a trip called off
    _verb(r"(?:went|drove|flew|came|headed|travell?ed)\s+(?:back\s+|down\s+|up\s+|over\s+|home\s+)?(?:to\s+"
          rf"(?!(?:the|a|an|my|our|his|her|their|this|that|{_SHOP}|vote|buy|get|pick|see)\b)[^.!?,;:]{{1,40}}?\s+)?"
          rf"for(?=\s+(?:(?!(?:after|before|with|to|from|and|then)\b)[\w'’-]+\s+){{0,4}}?(?:{_TRIP_EVENT})s?\b"
          rf"(?!\s+{_FOR_IT}){_EVENT_ENDS}){_CALLED_OFF}",
          "attended", "event", "event", done=True, alongside=True),
    # "ran my first marathon on sunday", "did the London 10k": a race is attended by running it
    _verb(r"(?:ran|did|finished|completed)(?!\s+(?:(?:my|a|the|our|his|her)\s+)?(?:(?:first|second|third|last|long|"
          r"easy)\s+)?[\w-]+\s+(?:training|practice|practise|trial)\b)",  # not "did my first 10k training run"
          "attended", "event", "race"),
    # (not "the party was cancelled", "the gig was postponed": it never happened)
    _verb(rf"(?:the|our)(?=(?:\s+[\w'’-]+){{0,2}}?\s+(?:{_EVENT_NOUN})\s+(?:was|were)\b(?!\s+(?:(?:just|all|also|"
          r"sadly|finally)\s+)?(?:cancel+ed|called\s+off|postponed|moved|rescheduled|delayed|sold\s+out|supposed|"
          r"going|gonna|meant|scheduled|planned|booked|on\s+(?:tv|telly|the\s+telly)|rained\s+off)\b))",
          "attended", "event",
          "event", free=True, done=True),
]

#: A home, and up to two words from a short list that describe it ("tiny flat", "two bedroom apartment"). A list
#: of the words allowed, not of those refused: a reviewer's attack found "parents place", "lake house", "second
#: home", "childhood home", "airbnb" and the like written as one's home when any word was allowed but a few.
#: A "place" only one's own or new: "our place in the Champions League", "my place in Oxford is confirmed".
HOME_WORDS = (r"(?:(?:own|tiny|little|small|big|cute|cosy|cozy|shared|rented|current|new|one|two|three|four|\d|"
               r"bed|bedroom|room|studio)[\s-]+){0,2}(?:flat|house|(?<=own\s)place|(?<=new\s)place|apartment|home|"
               r"condo|bungalow|share\s+house)")
#: What the rest of the sentence says to make it no home of now: a past one ("growing up", "back then"), one for
#: a stay ("for the week", "honeymoon", "booked", "airbnb"), one let out ("rented out"), one beside another ("a
#: home in Spain too").
NOT_HOME_NOW = (r"(?![^.!?\n]*\b(?:used\s+to|growing\s+up|back\s+then|as\s+a\s+kid|when\s+i\s+was|"
                 r"for\s+the\s+(?:week|weekend|trip|night|holiday|holidays|summer)|for\s+holidays|honeymoon|booked|"
                 r"rent(?:ing|ed)?\s+(?:it\s+)?out|airbnb)\b|[^.!?\n]*\b(?:too|as\s+well)\s*(?:[,.!?]|$))")

#: A greeting from where one writes, up to its "from": "greetings from olomouc", "Hello from Skye!", "hola all from"
#: (read here as a trip, and by the rules extractor's ``_greeted`` to hold it for review).
GREETED_FROM = (r"(?:hello|hi|hey|hiya|greetings|hola|ciao|bonjour|aloha|howdy|g['’]day)(?:\s+all|\s+everyone)?"
                r"\s+from")

VERBS: list[Verb] = [
    *_EVERYDAY,
    # --- moves: "from A to B" first, so that "moved from Paris to Berlin" is one statement
    _verb(r"(?:moved|moving|move|relocated|relocating|switched|switching)\s+(?:back\s+)?from",
          "lives_in", "start", "where", pair=True),
    _verb(r"(?:moved|moving|move)\s+(?:back\s+|over\s+)?(?:home\s+)?to|(?:relocated|relocating|relocate)\s+"
          r"(?:back\s+)?to", "lives_in", "start", "where", pair=True),
    _verb(r"(?:left|leaving|leave)", "lives_in", "stop", "where", pair=True),
    _verb(r"(?:moved|moving)\s+(?:into|to)\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+){0,2}?"
          r"(?:place|flat|apartment|house|home|condo|studio)\s+in", "lives_in",
          "start", "place"),
    _verb(r"(?:moved|moving)\s+in\s+together\s+in", "lives_in", "start", "place"),
    # "Jess moved back in with her sister in Oakville last Sunday" (d6): where the one moved in with lives
    _verb(r"(?:moved|moving)\s+(?:back\s+)?in\s+with\s+(?:(?:my|our|his|her|their)\s+(?:[\w'’-]+\s+){0,2}?|"
          r"(?-i:[A-Z])[\w'’-]+\s+(?:(?-i:[A-Z])[\w'’-]+\s+)?)in(?!\s+(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|"
          r"lockdown|quarantine|year|freshers|halls|first|second|third|final|uni|college|school)\b)",
          "lives_in", "start", "place"),  # (not "in Sept", "in Lockdown", "in Year 2": a reviewer's)
    _verb(r"(?:^|(?<=\s))(?:my|our)\s+new\s+(?:flat|house|place|apartment|home|condo)\s+in", "lives_in", "state",
          "place", free=True),
    # a home of one's own where it is: "my own place in Cordón now", "our flat in Kempton Park is too small",
    # "me and Lwazi share a house in Kayamandi" ("have a flat in" is taken first by the possession, so "have"
    # reads only "a home", "an apartment", "my own place"); not someone
    # else's ("my parents' house in", "my sisters flat in"), a former one ("my old flat in", "sold our house
    # in", "i miss my flat in"), one let out or for a holiday ("our apartment in Rome for the week"), nor a room
    _verb(r"(?:^|(?<=\s))(?<!sold\s)(?<!sell\s)(?<!selling\s)(?<!left\s)(?<!leave\s)(?<!leaving\s)(?<!of\s)"
          r"(?<!from\s)(?<!miss\s)(?<!kept\s)(?<!renting\s)(?<!out\s)(?<!off\s)(?:my|our)\s+(?:own\s+)?" + HOME_WORDS
          + r"\s+in" + NOT_HOME_NOW, "lives_in", "state", "place", free=True),
    _verb(r"(?:have|has|share|shares)\s+(?:a|an|my\s+own|our\s+own|our|my)\s+" + HOME_WORDS + r"\s+in"
          + NOT_HOME_NOW, "lives_in", "state", "place"),
    _verb(r"(?:moved|moving)\s+out\s+of", "lives_in", "stop", "place"),
    # "i live in a tiny flat in belleville" (renting is not read: "we rent a house in Lisbon every summer", "… to
    # students", "… for my mum": a reviewer's)
    _verb(r"(?:live|lives|lived|living|reside|resides|resided|residing)\s+(?:with\s+(?:my|our|his|"
          r"her|their|a|two|three|some)\s+(?:[\w'’-]+\s+){0,3}?|in\s+(?:a|an|my|our)\s+" + HOME_WORDS + r"\s+)?in",
          "lives_in", "state", "place"),
    # "I live on Inis Mór", "living on Skye": an island, named (not "on Elm Street", "on a boat", "on coffee"; a new
    # user's)
    _verb(r"(?:live|lives|lived|living)\s+on(?=\s+(?-i:[A-Z]))(?!\s+[\w'’-]+(?:\s+[\w'’-]+)?\s+(?:street|st|road|rd|"
          r"avenue|ave|lane|ln|drive|dr|way|close|crescent|terrace|place|boulevard|blvd|row|square|court|ct)\b)",
          "lives_in", "state", "place", unsure=True),  # (for review: "I live on Ramen", capitalised)
    _verb(r"(?:settled|settling)\s+(?:down\s+)?in", "lives_in", "start", "place"),
    _verb(r"based\s+in|(?:now\s+)?in", "lives_in", "state", "place", needs_be=True),
    # "Jo drove down from Leeds", "Tom's coming up from Cardiff": one comes to visit from home; not "back from"
    _verb(r"(?:drove|drive|drives|driving|came|come|comes|coming|flew|fly|flies|flying)\s+(?:up|down|in)\s+"
          r"from", "lives_in", "start", "place", timeless=True),
    # --- work
    _verb(r"(?:work|works|worked|working)(?:\s+(?:remotely|from\s+home|nights|days|weekends|"
          r"part-time|full-time|part\s+time|full\s+time|(?:\d|one|two|three|four|five|six|a\s+few|a\s+couple\s+of)"
          r"\s+(?:days|nights|shifts|mornings|evenings)\s+a\s+week)|\s+as\s+(?:a|an)(?:\s+[\w'’-]+){1,3}?)?"
          r"\s+(?:at|for|with)|"
          r"(?:teach|teaches|taught|teaching|intern|interns|interned|interning|volunteer|"
          r"volunteers|volunteering)\s+at|employed\s+(?:at|by)|"
          # "I've been teaching chemistry at Garcia de Orta" (a subject taught, then where)
          r"(?:teach|teaches|taught|teaching)\s+(?:(?:year\s+\d+|\d+(?:st|nd|rd|th)\s+grade|a-level|gcse|high\s+school)\s+)?"
          r"(?:chemistry|physics|biology|science|maths|math|mathematics|english|history|geography|music|art|drama|"
          r"french|spanish|german|italian|portuguese|latin|pe|economics|philosophy|computing|ict|religion|re)\s+at"
          # not a level taught at ("maths at GCSE and A-level", "at KS3", "at Year 9": an attacker's)
          r"(?!\s+(?:gcse|a-?levels?|as-?levels?|ks\s?\d|key\s+stage|year\s+\d|grade\s+\d|[abc][12]\b|degree|"
          r"university\s+level|primary\s+level|secondary\s+level|(?:a|an|all|every|different|beginner|advanced)\b))",
          "works_at", "state",
          "org"),
    # "she's a nurse at VGH", "I am apprentice at Pirkan Sähkö": a trade or profession at a place of work
    # (a word of the list, not any noun: "a tourist at the museum", "a regular at the pub" work nowhere)
    _verb(_ROLE + r"\s+(?:at|for|with)",
          "works_at", "state", "org", needs_be=True),
    # a sentence that is only the role and where: "I got the job on the ferry!! deckhand with Aran Island Ferries" (a
    # new user's), "Chief pharmacist at UHG now!!" (not "nurse at the clinic said I'm fine", "a nurse at St James's
    # told me": someone else, the subject of what follows)
    _verb(r"^" + _ROLE + r"\s+(?:at|with)" + _NAMED_TO_THE_END, "works_at", "state", "org", free=True, answer=True),
    # "my manager at kestrel", "my boss at the bank": the speaker's own place of work
    _verb(r"(?:my|our)\s+(?:manager|boss|supervisor|line\s+manager|coworker|co-worker|coworkers|co-workers|"
          r"colleague|colleagues)\s+at", "works_at", "state", "org", free=True),
    _verb(r"(?:my\s+)?(?:first\s+(?:day|week|shift)|(?:day|week)\s+(?:[2-9]|two|three|four))\s+(?:at|with)",
          "works_at", "start", "org", done=True),
    # "3 weeks in at Bonorong and I love it" is a job as often as a stay, a trip or a diet ("2 weeks in at
    # Lisbon", "at the Airbnb", "at Whole30"): for review
    _verb(r"(?:[2-9]|two|three|four|five|six)\s+weeks\s+in\s+(?:at|with)", "works_at", "start", "org", done=True,
          unsure=True),
    # "I handed in my notice at Fisioterapia Delicias today": one works there still, until the last day (a new user's)
    # (a start, timeless: no end said, whatever the tense; "my" alone and "at": "our notice to Foxtons" is a flat's)
    _verb(r"(?:handed|hand|handing|gave|give|given|put|putting)\s+(?:in\s+)?my\s+notice(?:\s+in)?\s+at",
          "works_at", "start", "org", timeless=True),
    # "my last day at ECT was tuesday": the job ends (not "gave notice at": it ends later, on its last day)
    _verb(r"(?:my\s+)?last\s+(?:day|shift)\s+(?:at|with)", "works_at", "stop", "org", done=True),
    # ("a job as a deckhand with Aran Island Ferries": a new user's)
    _verb(r"(?:got|get|getting|landed|found)\s+(?:a|an|my|the)\s+(?:new\s+|first\s+|full-time\s+|"
          r"part-time\s+|dream\s+)?(?:job|position|role|internship|offer)(?:\s+as\s+(?:a|an)\s+[a-z-]+(?:\s+[a-z-]+)?)?"
          r"\s+(?:at|with)|"
          r"(?:hired|hire)\s+(?:by|at)|(?:started|start|starting|starts|began|begin)\s+"
          r"(?:working\s+|(?:a|my|the)\s+(?:new\s+)?(?:job|role|position|internship)\s+)?(?:at|with|for)",
          "works_at", "start", "org"),
    # "joined Google" is a job, "joined the Musikkapelle", "joined the Hash!" a band and a running club: of the
    # chats' dev set, none of those written was a job, so what is joined by its name alone waits for review
    _verb(r"(?:joined|join|joining|joins)\s+(?:a|an)\s+(?:new\s+)?(?:company|startup|firm|agency)\s*,",
          "works_at", "start", "org"),
    _verb(r"(?:joined|join|joining|joins)", "works_at", "start", "org", unsure=True),
    _verb(r"at", "works_at", "state", "org", needs_be=True),
    _verb(r"(?:a|an)\s+(?:[\w'’-]+\s+){1,3}?(?:at|for|with)", "works_at", "state", "org",
          needs_be=True),
    _verb(r"(?:quit|quitting|quits|resigned\s+from|resigning\s+from|retired\s+from|retiring\s+"
          r"from)(?:\s+(?:my|the|a)\s+(?:job|position|role|post)(?:\s+(?:at|with))?)?|"
          r"(?:stopped|stop)\s+working\s+(?:at|for)|(?:laid\s+off|let\s+go|fired|sacked)"
          r"(?:\s+(?:from|by|at))?|(?:(?:retired|retiring)" + rf"(?!\s+(?:{RETIREES})\b)"
          r"(?!\s+[\w-]+\s+(?:teacher|lecturer|tutor|professor)s?\b))", "works_at", "stop", "org",
          bare=True),
    _verb(r"working(?=\s+(?:any\s*more|any\s+longer)\b)", "works_at", "state", "org", bare=True),
    _verb(r"(?:love|loves|loving|like|likes|adore|adores|enjoy|enjoys|enjoying|hate|hates)\s+my\s+(?:new\s+)?"
          r"(?:job|role|position|work|internship)\s+(?:at|with)", "works_at", "state", "org"),
    _verb(r"(?:^|(?<=\s))my\s+(?:new\s+)?(?:job|role|position|internship)\s+(?:at|with)", "works_at", "state", "org",
          free=True),
    # --- studies
    _verb(r"(?:study|studies|studied|studying)\s+(?:[\w-]+\s+){0,3}?(?:at|in)|(?:doing|did|"
          r"do|does)\s+(?:my|a|her|his|their)\s+" + _DEGREE + r"(?:\s+in\s+[\w\s]+?)?\s+at|"
          r"(?:taking|take|takes)\s+(?:[\w-]+\s+){0,2}?(?:classes|courses|"
          r"a\s+course|lessons)\s+at|(?:go|goes|going)\s+to", "studies_at", "state", "org"),
    _verb(r"enrolled\s+(?:at|in)(?!\s+(?:the\s+|a\s+|my\s+)?(?:[\w'’-]+\s+){0,3}?(?:medical|health|clinic|surgery|"
          r"practice|doctors?|gp|dentists?|dental)\b)", "studies_at", "start", "org"),  # a start, not a state now past
    # (a new user's "I enrolled at Otago Uni" ended studying there); not a patient's ("enrolled at St Clair Medical")
    _verb(r"(?:doing|does|do)\s+(?:[\w-]+\s+){1,2}?at", "studies_at", "state", "org"),
    _verb(r"(?:started|starting|start|began|begin)\s+(?:my|a|her|his|their)\s+" + _DEGREE +
          r"\s+at", "studies_at", "start", "org"),
    _verb(r"(?:dropped|dropping)\s+out\s+of", "studies_at", "stop", "org", bare=True),
    _verb(r"(?:a|an)\s+(?:[\w'’-]+\s+){0,2}?(?:student|undergrad|undergraduate|postgrad|"
          r"freshman|sophomore|junior|senior|fresher|phd\s+candidate)\s+(?:at|in)",
          "studies_at", "state", "org", needs_be=True),
    _verb(r"graduated\s+from|(?:finished|completed|got|earned|received)\s+(?:my|a|her|his)\s+"
          + _DEGREE + r"\s+(?:at|from)",
          "graduated_from", "event", "org"),
    # --- relationships
    _verb(r"(?:got|get|getting|gets)\s+married(?:\s+to)?|married(?:\s+to)?|marrying|marry",
          "married_to", "start", "person", reciprocal=True, be_state=True),
    _verb(r"(?:got|get|getting|gets)\s+divorced(?:\s+from)?|divorced|divorcing|divorce",
          "married_to", "stop", "person", bare=True, reciprocal=True),
    _verb(r"(?:my|our)\s+divorce(?:\s+(?:from|with))?(?=(?:\s+[A-Z][\w'’-]+)?\s+(?:was|got|is|"
          r"has\s+been|went|came|became)\s+(?:finali[sz]ed|final|through|official))",
          "married_to", "stop", "person", bare=True, free=True, done=True),
    _verb(r"(?:started|start|starting|began)\s+(?:dating|seeing|going\s+out\s+with)|"
          r"(?:got|getting|get)\s+together\s+with", "dating", "start", "person"),
    _verb(r"(?:dating|seeing)\s+(?:someone|somebody|a\s+(?:guy|girl|woman|man))(?:\s+new)?"
          r"(?:\s+(?:too|now|again|as\s+well))?[,;]?\s+"  # "seeing someone new too, his name is Omar"
          r"(?:and\s+)?(?:her|his|their)\s+name(?:\s+is|['’]s)", "dating", "state", "person"),
    _verb(r"(?:dating|seeing|going\s+out\s+with)\s+each\s+other(?!\s+(?:at|on|in|less|more|tomorrow|tonight|next|later|"
          r"soon|every|this|after)\b)|out\s+(?:together\s+)?(?:a\s+few|a\s+couple(?:\s+of)?|"
          r"several|two|three|four|five|six|loads\s+of|\d+)\s+times|on\s+(?:a\s+few|a\s+couple\s+of|several|two|three|"
          r"four|five|six|\d+)\s+dates", "dating", "state", "person", needs_be=True, reciprocal=True),
    _verb(r"(?:dating|date|dates|dated|seeing|sees|going\s+out\s+with|go\s+out\s+with|"
          r"went\s+out\s+with|in\s+a\s+relationship\s+with)(?!\s+each\s+other)(?:\s+" + _NAMED + ")?", "dating",
          "state", "person", reciprocal=True),
    _verb(r"together(?!\s*(?:now|again)?\s*,?\s*(?:\w+ing\b|at\b|in\b|on\b|every\b|all\b|for\s+the\b|with\b))|"
          r"a\s+couple|an\s+item|courting(?=\s*(?:$|[.!,;]|now\b|properly\b))|official(?=\s*(?:$|[.!,;" + EMOJI
          + r"]|now\b))|engaged\s+to|engaged(?!\s+(?:(?:in|with)\b|(?-i:[A-Z][a-z])))",
          "dating",
          "state", "person", needs_be=True,
          reciprocal=True),
    _verb(r"(?:moved|moving)\s+in\s+together(?!\s+in\b)", "dating", "start", "person", bare=True,
          reciprocal=True, timeless=True),
    _verb(r"(?:stopped|stop)\s+(?:dating|seeing)", "dating", "stop", "person"),
    _verb(r"(?:done|over|finished)(?=\s*(?:$|[.!,;]|for\s+good|now|lol|😭|💔))", "dating", "stop", "person",
          reciprocal=True, needs_be=True, done=True),
    _verb(r"(?:got|get|getting)\s+engaged(?:\s+to)?", "dating", "start", "person", reciprocal=True, timeless=True),
    _verb(r"(?:broke|break|breaking|split|splitting)\s+up(?:\s+with)?|(?:dumped|dumping)|called\s+it\s+(?:a\s+day|quits)"
          r"(?:\s+with)?|ended\s+(?:things|it)(?:\s+with)?",
          "dating", "stop", "person", bare=True, reciprocal=True),
    # --- likes
    _verb(r"(?:stopped|stop)\s+(?:liking|loving|enjoying)|(?:lost|losing)\s+interest\s+in",
          "likes", "stop", "thing"),
    _verb(r"(?:like|likes|love|loves|enjoy|enjoys|adore|adores)\s+living\s+in", "lives_in",
          "state", "place"),
    _verb(r"(?:like|likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|adore|adores|adored)"
          r"(?!\s+to\b)", "likes", "state", "thing", negated="dislikes"),
    _verb(rf"(?:gotten|got|getting|get){_ADV}\s+into(?!\s+(?-i:[A-Z]))", "likes", "start", "thing"),
    _verb(rf"{_ADV.replace('*', '?')}\s*into|(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?"
          r"fan\s+of|(?:obsessed|obsessing)\s+(?:with|over)|(?:crazy|mad|passionate)\s+about|"
          r"hooked\s+on", "likes", "state", "thing", needs_be=True, negated="dislikes"),
    _verb(r"(?:a\s+)?(?:big|huge|massive|great|die-hard|diehard|lifelong)\s+"
          r"(?=(?-i:[A-Z])[\w'’&-]*(?:\s+(?-i:[A-Z])[\w'’&-]*){0,2}\s+fan\b)", "likes", "state", "thing",
          needs_be=True),
    _verb(rf"(?:hate|hates|hated|dislike|dislikes|disliked|detest|detests|loathe|loathes|"
          rf"can{_A}t\s+stand|cannot\s+stand|can{_A}t\s+bear)(?!\s+to\b)", "dislikes", "state",
          "thing"),
    # --- trips
    _verb(r"(?:travell?ed|travell?ing|travels?|flew|flying|fly|flies|drove|driving|drive|sailed|"
          r"took\s+(?:a|the)\s+(?:(?:night|early|late|slow|fast)\s+)?(?:train|bus|ferry|flight|boat|coach|plane)|"
          r"(?:rode|cycled|biked|hiked|rowed)(?:\s+(?:all\s+the\s+way|my\s+bike))?|"
          r"headed|heading|head|heads|hopped\s+over)"
          r"(?:\s+(?:out|down|up|over))?\s+to|(?:took|take|taking|made|did|went\s+on|"
          r"going\s+on)\s+(?:a|an|our|my)\s+(?:[\w-]+\s+){0,2}?(?:trip|holiday|vacation|tour)\s+"
          r"to|backpacked\s+(?:through|around|across|in)|(?:toured|touring)", "traveled_to",
          "event", "place"),
    # not "went back to SA", "flew back to London": where one returns is home as often as a trip (a new user's
    # "Zainab flew back to London", where she lives; "went home to osaka" is a trip, below: 4 of 4 on dev)
    _verb(r"(?:went|go|going|goes)\s+(?:over\s+|down\s+|up\s+|out\s+)?to", "traveled_to",
          "event", "place"),
    _verb(r"(?:visited|visiting|visit|visits)\s+" + _PLACE_LEAD, "traveled_to", "event", "place"),
    _verb(r"(?:went|drove|flew|came)\s+(?:over\s+|down\s+|up\s+)?to\s+" + _THEIRS_IN, "traveled_to", "event", "place",
          done=True),
    _verb(r"been\s+to", "traveled_to", "event", "place", done=True),
    _verb(r"(?:landed|arrived)\s+(?:safely\s+)?in", "traveled_to", "event", "place", done=True),
    _verb(r"(?:stayed|staying|stay|stays)\s+(?:over\s+)?(?:with\s+(?:[\w'’-]+\s+){1,3}?)?in|"
          r"(?:went|go|going)\s+(?:camping|hiking|skiing|snowboarding|surfing|backpacking|diving|"
          r"sailing|fishing|climbing|shopping|island\s+hopping)\s+(?:in|at|on|around)",
          "traveled_to", "event", "place"),
    _verb(r"on\s+(?:a|an|my|our)\s+(?:[\w-]+\s+){0,2}?(?:trip|holiday|vacation|tour|break)\s+"
          r"(?:to|in|around)", "traveled_to", "event", "place", needs_be=True, done=True),
    _verb(r"(?:spent|spend|spending)\s+(?:" + _STAY + r"|(?:christmas|thanksgiving|easter|"
          r"new\s+year['’]?s?|the\s+holidays|the\s+summer|the\s+winter|the\s+weekend)\s+in)|"
          r"(?:went|go|going|goes|came|come|coming|headed|heading|flew|flying|drove|driving)\s+"
          r"(?:back\s+|home\s+|over\s+|up\s+|down\s+)?(?:to\s+)?(?:see|visit)\s+" + _PLACE_LEAD
          + r"|had\s+(?:an?\s+)?(?:[\w-]+\s+)?"
          r"(?:time|trip|holiday|vacation|week|weekend)\s+in|"
          r"(?:went|flew|drove|headed|been)\s+home\s+to", "traveled_to", "event", "place",
          done=True),
    # a greeting from somewhere: in a two-person chat, for review unless told as a visit (``_greeted``)
    _verb(r"(?:^|(?<=[.!]\s))" + GREETED_FROM, "traveled_to", "event", "place", free=True, done=True),
    # back from a trip; not "came from Nnewi", "flew in from Abuja" (where one came from: see above)
    _verb(r"(?:(?:got|get|came|come|just|flew|drove|arrived)\s+(?:back|home)|returned(?:\s+home)?)\s+(?:from|fae)\s+"
          + _TRIP + r"|back\s+(?:from|fae)\s+" + _TRIP,  # "fae": Scots "from"
          "traveled_to", "event", "place", done=True),
    # --- meetings
    _verb(r"(?:met|meet|meeting|meets)(?:\s+up)?(?:\s+with)?|(?:ran|run|running|bumped)\s+into|"
          r"(?:caught|catching|catch)\s+up\s+with|(?:had|have|having|grabbed|grab|grabbing)\s+"
          + _MEAL + r"\s+with|(?:hung|hanging|hang)\s+out\s+with", "met", "event", "person"),
    # --- names
    _verb(rf"\bmy\s+name(?:\s+is|{_A}s)|(?:call|calls|calling)\s+(?:me|him|her|you|u)", "is_called", "state", "name",
          free=True),
    # "i go by Kate now"; not how one travels or does a thing ("i go by train", "i go by feel": h73)
    _verb(r"(?:go|goes|going)\s+by(?!\s+(?:train|bus|coach|car|bike|boat|ferry|plane|air|sea|road|rail|taxi|cab|"
          r"tram|metro|subway|tube|foot|courier|post|mail|feel|ear|eye|instinct|the|a|an|my|his|her|their|our|this|"
          r"that|it|then|now|so|fast|quickly|slowly|bicycle|bikes|motorbike|motorcycle|scooter|van|helicopter|"
          r"wheelchair|trains|buses|public|gut|recipe|sight|uber|lyft|ryanair|eurostar|ship|lorry|truck|"
          r"[\w'’-]+['’]s)\b)", "is_called", "state", "name"),
    _verb(rf"(?:^|(?<=[.!]\s))(?:hi|hello|hey|hiya)(?:\s+there|\s+all|\s+everyone)?[\s,!.]+"
          rf"(?:I{_A}m|I\s+am|this\s+is|it{_A}s)", "is_called", "state", "name", free=True),
    _verb(r"(?:called|named)", "is_called", "state", "name", needs_be=True),
]


def _by_start() -> tuple[list[int], dict[str, list[int]]]:
    """The verbs always tried (no ``starts``) and, for each beginning, the verbs it may begin."""
    by_start: dict[str, list[int]] = {}
    for n, verb in enumerate(VERBS):
        for start in verb.starts or ():
            by_start.setdefault(start, []).append(n)
    return [n for n, verb in enumerate(VERBS) if verb.starts is None], by_start


_ANY, _BY_START = _by_start()

#: The only characters beyond ASCII that a case-blind pattern matches to an ASCII letter ("ſ" to "s",
#: Kelvin's "K" to "k", the dotted and dotless i's); tests/test_extract_rules.py checks every code point.
_FOLDS_TO_ASCII = frozenset("\u0130\u0131\u017f\u212a")


def verbs_for(sentence: str) -> list[tuple[int, Verb]]:
    """The verbs (with their place in VERBS) whose head may match ``sentence``, in VERBS's order: a
    verb none of the sentence's words can begin is left out. Letters beyond ASCII ("’", "é", emoji) are
    no word's start a head can begin with; a sentence holding one that a case-blind pattern reads as an
    ASCII letter ("ſ" for "s") gets every verb."""
    if not sentence.isascii() and not _FOLDS_TO_ASCII.isdisjoint(sentence):
        return list(enumerate(VERBS))
    places = set(_ANY)
    for start in _word_starts(sentence):
        places.update(_BY_START.get(start, ()))
    return [(n, VERBS[n]) for n in sorted(places)]
