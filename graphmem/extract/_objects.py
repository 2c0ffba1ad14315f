"""Objects of a verb phrase: places, organisations, people, liked things, names.

Each reader takes the words right after a verb phrase and returns the object written there
(without a leading "the"), or nothing when what follows is not one.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

from ..core.alias_evidence import ADDRESS_WORDS
from ..core.relations import EVERYDAY
from ._lexicon import (
    JOB_NOUNS,
    LANGUAGES,
    NOT_NAMES,
    OPINION_WORDS,
    WORKPLACE_PAIRS,
    WORKPLACES,
    is_town,
    looks_educational,
    looks_organisational,
    names_no_one,
)
from ._names import UPPER, is_given_name

__all__ = ["FIRST_WORD", "JOB_PHRASE", "JOB_WORD", "PRONOUNS", "STUDY_PHRASE", "called_name", "everyday",
           "lowercase_name", "named_kind", "people", "place_name", "proper_name", "things", "workplace"]


def _is_name(text: str) -> bool:
    """Whether no word of ``text`` is one that names no one (see :func:`._lexicon.names_no_one`)."""
    return not any(map(names_no_one, text.split()))


_CONNECTOR = r"(?:of|de|da|del|della|di|do|dos|la|le|les|van|von|der|den|du|y|and|&|upon|on|the|for|am|im|sur)"
#: A capitalised name: "Mayo Clinic", "Studio 54", "Institute for Fiscal Studies"; after a connector a
#: capitalised word, not a number ("Hillside for 10 years" is Hillside).
_PROPER = re.compile(
    rf"(?:[{UPPER}0-9][\w'’.&-]*|[{UPPER}]\.)(?:\s+(?:(?:{_CONNECTOR}\s+)+(?!I\b)[{UPPER}][\w'’.&-]*|"
    rf"(?!I\b)[{UPPER}0-9][\w'’.&-]*))*")  # (capitals beyond ASCII: "Scoil Éinne", "Łódź": an attacker's)
_THE = re.compile(r"^(?:the|The)\s+")
#: A number ending a name the words go on to count with: "Leeds 3" of "to Leeds 3 years ago".
_COUNTED_AFTER = re.compile(r"\s+\d+$")
_UNIT_AFTER = re.compile(r"\s+(?:years?|yrs?|months?|weeks?|days?|nights?|hours?|hrs?|minutes?|mins?|times|km|"
                         r"miles?|kg|euros?|pounds?|dollars?|kids|people)\b", re.IGNORECASE)
_CLOCK = re.compile(r"\d[\d:.]*\s*(?:[ap]\.?m\.?)?", re.IGNORECASE)
_NAME_END = re.compile(r"[.,;:!?)]+$")
_PRONOUNS = frozenset(
    "it its that this these those there here them him her me you us myself yourself ourselves "
    "something anything everything nothing someone anyone everyone one home my your his our "
    "their a an to some any all what which whatever stuff things u ya ur yours urs ye thee em "
    "yourselves several few many much every each another other both either neither such "
    "how why when where who whom whose".split())
#: Words that are no object at all: pronouns, determiners that point at something present.
PRONOUNS = _PRONOUNS
_THING_STOP = re.compile(
    r"[;:!?()\"“”]|,?\s+(?:and|but|or|so)\s+(?=(?:I|i|my|we|he|she|they|it|you)\b)|\s(?:but|"
    r"because|since|when|while|with|in|on|at|after|before|during|for|from|a\s+lot|very\s+much|"
    r"so\s+much|too|as\s+well|any\s*more|any\s+longer|no\s+more|these\s+days|nowadays|now|"
    r"either|lately|recently|anyway|though|honestly|like|than|if|more|most|mostly|mainly|especially|"
    r"again|too|these|"
    r"right\s+now|at\s+the\s+moment|at\s+all|tbh|imo|lol|haha|tho|fan|fans|"
    r"this|every|each|all|ever|since|until|whenever)\b", re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", re.IGNORECASE)
_NAMED_LEAD = re.compile(r"^(?:(?:a|some|this)\s+(?:guy|girl|woman|man|person|lady|dude)|"
                         r"someone|somebody)\s+(?:named|called)\s+", re.IGNORECASE)
JOB_PHRASE = re.compile(rf"^(?:(?:my|the|a|our|that)\s+)?(?:[\w-]+\s+)?(?P<noun>{'|'.join(JOB_NOUNS)})\b",
                  re.IGNORECASE)
JOB_WORD = re.compile(rf"\b(?:{'|'.join(JOB_NOUNS)})\b", re.IGNORECASE)
FIRST_WORD = re.compile(r"[\w'’-]+")


#: "I dropped out of college": a school not named, for an end with no object.
STUDY_PHRASE = re.compile(
    r"^(?:(?:my|the|a)\s+)?(?:[\w'’-]+\s+)?(?:college|school|uni|university|grad\s+school|"
    r"program|programme|course|degree|phd|master['’]?s|studies)\b", re.IGNORECASE)
#: "a startup called Nimbus": the name after a description.
_CALLED = re.compile(
    r"^(?:a|an|this|the)\s+(?:[\w-]+\s+){0,2}?(?:company|startup|start-up|firm|agency|bank|school|"
    r"college|university|restaurant|cafe|café|bar|shop|store|studio|lab|nonprofit|charity|"
    r"hospital|clinic|bakery|place|town|city|village|band|team|club)\s+(?:called|named)\s+",
    re.IGNORECASE)
#: Lowercase words that are no company, in text typed all in lowercase ("i left acme").
_COMMON = frozenset(
    "a an the my our your his her their this that it its me you us him them there here home "
    "work school class church bed lunch dinner breakfast night nights noon early late now today "
    "tomorrow yesterday again too so and but or because for with from to in on at by job jobs "
    "part-time full-time remotely everything nothing something all some any one two".split())


#: The lowercase words that follow one, up to the first mark: where a lowercase name may run on.
_RUN = re.compile(r"(?P<words>(?:\s+(?:[a-z][\w'’&-]*|&)(?=[\s.,;:!?)]|$))*)")
#: Words that end a name typed in lowercase: days, times and the verbs after a subject.
_RUN_ENDS = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tonight|morning|is|was|are|were|will|did|does|"
                       r"done|over|finished|complete|completed|do|had|has|have|gave|said|says|\d+\w*")


def lowercase_name(rest: str, typed_lower: bool) -> str | None:
    """In a message typed all in lowercase (``typed_lower``, read once a message by the caller), the word after the
    verb as a name, when it can be."""
    if not typed_lower:
        return None
    m = re.match(r"\s*([a-z][\w'’&-]*)", rest)
    if m is None:
        return None
    word = m.group(1)
    if word in _COMMON or word in JOB_NOUNS or word.endswith("ing") or len(word) < 2:
        return None
    # a name of a few words runs on to the first word that cannot be part of it: "santa maria today",
    # "harlow kemp on tuesday", "lim ong & partners and i"
    words = [word, *_run_on(rest, m.end(), 3)]
    while words[-1] in ("&", "and", "of"):
        words.pop()
    return " ".join(words)


#: A school's noun written in lower case after its capitalised name: "Erasmus uni", "Leeds college".
_SCHOOL_AFTER = re.compile(r"\s+(?:uni|university|college|polytechnic|poly)\b")
#: A word shouted after a name, no part of it ("SP 12 DONE", "Alstom LOL").
_SHOUTED_END = re.compile(r"(?:\s+(?:DONE|LOL|OMG|YAY|TODAY|FINALLY|AGAIN|NOW|ALREADY|HAHA+))+$")


def proper_name(rest: str) -> str | None:
    """The capitalised name that opens ``rest`` ("the Mayo Clinic" -> "Mayo Clinic")."""
    rest = _THE.sub("", _CALLED.sub("", rest.lstrip(" ,")))
    m = _PROPER.match(rest)
    if not m:
        return None
    name = _NAME_END.sub("", m.group()).strip()
    if (counted := _COUNTED_AFTER.search(m.group())) and _UNIT_AFTER.match(rest, m.end()):
        name = m.group()[:counted.start()].strip()  # "moved to Leeds 3 years ago": Leeds, not "Leeds 3"
    if m.group() == name and (school := _SCHOOL_AFTER.match(rest, m.end())):
        name += school.group()  # "started at Erasmus uni": a university, not an employer named Erasmus
    name = re.sub(rf"(?:\s+{_CONNECTOR})+$", "", name)
    name = _SHOUTED_END.sub("", name)  # "first week at SP 12 DONE": SP 12
    if not name or not _is_name(name.split()[0]) or len(name.split()) > 6 or _CLOCK.fullmatch(name):
        return None
    return name


def named_kind(rest: str, name: str) -> str | None:
    """The lowercase nouns a capitalised name after "the" modifies ("the Leeds food bank" -> "food
    bank", "the Wayanad bird atlas" -> "bird atlas"), or None when the name stands alone ("the BBC
    now", "Tesco part-time")."""
    if not re.match(r"\s*(?:the|The)\s", rest) or (at := rest.find(name)) < 0:
        return None
    return " ".join(_run_on(rest, at + len(name), 3)) or None


def _run_on(rest: str, at: int, most: int) -> list[str]:
    """The lowercase words after ``at`` that may go on a name or its noun, at most ``most``, up to the first
    that cannot ("today", "and", "is", a number)."""
    words: list[str] = []
    run = _RUN.match(rest, at)
    for word in run["words"].split() if run else []:
        if len(words) == most or word in _AFTER_NOUN or word in _COMMON or _RUN_ENDS.fullmatch(word):
            break
        words.append(word)
    return words


def _known_place(rest: str) -> str | None:
    """A known place opening ``rest`` in any case ("berlin", "new york"); after "the", only a
    place the list names with it ("the hague", not the "bath" of "in the bath")."""
    words = rest.split()
    for n in range(min(5, len(words)), 0, -1):
        candidate = _NAME_END.sub("", " ".join(words[:n]))
        if is_town(candidate):
            bare = _THE.sub("", candidate)
            return bare if is_town(bare) else candidate  # "netherlands", but "the hague"
    return None


#: A kin word before a name makes it someone, no place: "Visited Nana Jean." (a new user's diary), "Auntie Grace".
_KIN_LEADS = (frozenset(word for kin in ("grandmother", "grandfather", "aunt", "uncle") for word in EVERYDAY[kin]
                        if " " not in word) | frozenset("nanna granny grandad tia tio tita tito tante tonton".split())
               ) - frozenset(("gran", "nan"))
#: (not "gran" nor "nan", which open places as often: "Gran Canaria", "Gran Via", "Nan Madol", a reviewer's)


def place_name(rest: str) -> str | None:
    name = proper_name(rest)
    if name and name.split()[0].lower() in _KIN_LEADS and len(name.split()) > 1 and not is_town(name):
        return None
    if name and not looks_educational(name) and not name.endswith(("'s", "’s")):
        return name
    return _known_place(rest)


_APPOSITION = re.compile(r"^(?:my|our|his|her|their)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+,?\s+(?=[A-Z])")


_OF_SOMEONE = re.compile(r"(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)['’]s\s+[a-z][\w-]+")


def people(rest: str) -> list[str]:
    """The people named at the start of ``rest``: "Tom", "Priya and Dev", "my partner Chris"."""
    rest = _APPOSITION.sub("", _NAMED_LEAD.sub("", rest.lstrip()))
    people = []
    while (name := proper_name(rest)) and not looks_organisational(name):
        if len(name.split()) > 3:
            break
        if (of := _OF_SOMEONE.match(rest, rest.find(name))) and of["name"] in (name, name[:-2]):
            people.append(of[0])  # "met Tom's parents": Tom's parents, not Tom
            break
        for part in re.split(r"\s+(?:and|&)\s+", name):
            people.append(part)
        rest = rest[rest.find(name) + len(name):]
        more = re.match(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?=[A-Z])", rest)
        if not more:
            break
        rest = rest[more.end():]
    if not people and (word := re.match(r"([a-z][a-z'’-]+)\b(?!['’])", rest)) and is_given_name(word[1]):
        people.append(word[1])  # "she finally dumped greg": a known given name in lower case
    return people


def things(rest: str) -> list[str]:
    stop = _THING_STOP.search(rest)
    phrase = rest[:stop.start()] if stop else rest
    out = []
    for part in _LIST_SEPARATOR.split(phrase):
        part = _THE.sub("", part.strip().strip(".,!?'\"“”’‘ ")).strip()
        part = re.sub(r"^(?:the)\s+", "", part, flags=re.IGNORECASE)
        words = part.split()
        if not words or len(words) > 5 or words[0].lower() in _PRONOUNS:
            continue
        if any(ch.isalpha() for ch in part):
            out.append(part)
    return out


_QUOTED = re.compile(r"\s*[\"“‘']\s*(?:the\s+)?([\w'’-]+(?:\s+[\w'’-]+){0,3})\s*[\"”’']", re.IGNORECASE)


def called_name(rest: str, *, strict: bool = False) -> str | None:
    """The name or nickname opening ``rest``: "Bex", "Tel Boy", a quoted "the loud one" (without
    "the"); ``strict``: only a capitalised or quoted one ("calls him lazy" names nobody)."""
    if quoted := _QUOTED.match(rest):
        named = quoted.group(1)
        return None if named.lower() in ADDRESS_WORDS and named in quoted.group().split()[0] else named
    m = re.match(r"\s*([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)" if strict else
                 r"\s*([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]+)?|[a-z][\w'’-]+)", rest)
    if not m:
        return None
    named = m.group(1)
    if named.lower() in NOT_NAMES or named.lower() in _PRONOUNS or named.lower() in ADDRESS_WORDS \
            or named.split()[0].lower() in _AFTER_NOUN:  # "calling me on a saturday", "calling her RIGHT NOW"
        return None
    if named.islower() and len(named) >= 6 and named.endswith("ing"):
        return None  # "she calls me crying": how, not what ("bling" may be a name)
    return named


_LEAD = re.compile(r"^\s*(?:(?:a\s+couple\s+of|a\s+pair\s+of|a\s+few|a\s+(?:little\s+)?bit\s+of|a\s+lot\s+of|"
                   r"lots\s+of|loads\s+of|a|an|the|my|our|his|her|their|two|three|four|five|\d+|some|another)\s+)?",
                   re.IGNORECASE)
_NOUN_WORD = re.compile(r"[\w'’&-]+")
#: Words that may follow an everyday object's noun: the noun phrase ends there.
_AFTER_NOUN = frozenset("""
and but or so which that who called named yesterday today tonight last this next on in at for with not nor
from to because when while since lol haha tho though now again too as well is was are were has had
have i we he she it they you u my our his her their its about after before during by like just
already finally recently this morning evening afternoon weekend back home together every each
later tomorrow soon asap sometime anytime right btw omg lmao rn atm
""".split())
#: Nouns that make the word before them a modifier ("car park", "dog walker", "club night").
_COMPOUND_HEADS = frozenset("""
park parks practice practices seat seats key keys insurance wash boot lesson lessons food bowl bed
walker walkers sitter sitters hair toy toys owner owners friendly shop shops store class classes
session sessions mates kit shoes ride rides trip trips ticket tickets photo photos pics pic video
videos cafe café night nights season member members fees fee membership leader coach captain
pass loan repayments payments mortgage crash accident ring rings pic tour tours venue dress
appointment appointments service repair repairs rental hire charger share journey lights
allergy allergies scratch scratches bite bites litter flap hair fur treats vet vets person people
plant plants party warming hunting viewing viewings prices
fitting fittings call calls show shows screen bill bills contract case battery number business
""".split())
#: Words that make the word before them a modifier only before a noun of a trade ("a cat sitting business",
#: "a dog sitting gig"), not before a place or a time ("a kitten sitting on my lap").
_TRADE_GERUNDS = frozenset("sitting".split())
_TRADES = _COMPOUND_HEADS | frozenset("gig gigs job jobs company work side hustle client clients app money".split())
_NOT_MODIFIER = frozenset("""
of and or to for with is was are were be been i we you u he she it they me him them us this that
these those there here what which who not no never very so too just really also been from in on at
by into onto about some any all my our your ur his her their its the a an
""".split())


def workplace(rest: str) -> str | None:
    """A place of work named by its kind after "the" or "a" ("a coffee shop", "the library"),
    not someone's ("my mum's shop")."""
    if not re.match(r"\s*(?:the|a|an|some)\s", rest, re.IGNORECASE):
        return None
    found = everyday(rest, WORKPLACES, WORKPLACE_PAIRS)
    return None if found is None or re.search(r"['’]s\b", found) else found


def everyday(rest: str, nouns: frozenset[str], pairs: frozenset[str] = frozenset()) -> str | None:
    """The noun phrase opening ``rest`` whose last word is one of ``nouns`` ("a running club",
    "our golden retriever Miso" -> "golden retriever"), without articles, possessives and
    opinion words; None when ``rest`` does not open with one."""
    lead = _LEAD.match(rest)
    text = rest[lead.end() if lead else 0:]
    words: list[str] = []
    pos = 0
    for _ in range(4):
        m = _NOUN_WORD.match(text, pos)
        if not m:
            return None
        word = m.group()
        words.append(word)
        pos = m.end()
        key = word.lower().replace("’", "'")
        pair = " ".join(w.lower() for w in words[-2:])
        after = re.match(r"\s*([\w'’-]+)", text[pos:])
        follows = after.group(1) if after and not text[pos:].lstrip().startswith(tuple(",.!?;:)")) else None
        # a language before a lower-case noun describes it ("learning french swear words", "hungarian folk dancing")
        describes = bool(follows and key in LANGUAGES and follows.lower() not in _AFTER_NOUN and re.fullmatch(
            r"[a-z]+(?:['’]s)?", follows))
        if (key in nouns or (len(words) > 1 and pair in pairs)) and not describes and not (
                follows and (follows.lower() in nouns or pair + " " + follows.lower() in pairs)):
            if follows and follows.lower() in _COMPOUND_HEADS:
                return None  # "a car park", "the band practice": another thing
            if follows and key.endswith("ing") and follows.lower() == "into":
                return None  # "stopped diving into my savings": the verb's other sense
            if follows and follows.lower() in _TRADE_GERUNDS and (trade := re.match(
                    r"\s*[\w'’-]+\s+([\w'’-]+)", text[pos:])) and trade[1].lower() in _TRADES:
                return None  # "a cat sitting business": a trade, no cat
            kept = [w for w in words if w.lower() not in OPINION_WORDS and w.lower() not in ("only", "just")]
            if any(w.lower() in _NOT_MODIFIER for w in kept[:-1]):
                return None
            return " ".join(kept) if kept else None
        if key in _NOT_MODIFIER or not re.match(r"\s+", text[pos:]):
            return None
        pos = re.match(r"\s+", text[pos:]).end() + pos  # type: ignore[union-attr]
    return None
