"""What natural chat needs of the rules extractor: which liked things are facts, the objects of
everyday facts (pets, possessions, activities, groups, events, classes, races), pronouns read
from the turn before ("do you like jazz?" - "I love it"; "a greyhound!! i adopted her"), and the
facts said without a verb of their own: a partner named ("my girlfriend Priya"), companions
("…with Isa"), thanks and congratulations about the other participant, "DEV PROPOSED",
"pottery is going great", "choir practice at 11".

People chatting say "love the colours!" of the other's photo, "like I said", "sounds like a
plan", "love u". A taste is a fact only when said by "I"/"we" of a bare noun phrase ("I love
jazz", "we really like hiking"): not of something pointed at ("the", "your", "that"), not of a
pronoun left unresolved, not of a clause ("likes is awesome").

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.alias_evidence import COMMON_WORDS, plain_english
from ..core.relations import predicate_of, relation_of
from ._cues import DIED
from ._facts import ExtractedFact
from ._family import placeholder
from ._lexicon import (
    ACTIVITIES,
    ACTIVITY_PAIRS,
    BREED_PAIRS,
    BREEDS,
    CAT_BREEDS,
    EMOJI,
    EVENT_PAIRS,
    EVENTS,
    GROUP_PAIRS,
    GROUPS,
    HABIT_VERBS,
    LANGUAGES,
    LESSONS,
    NOT_NAMES,
    OWNED_BY_MENTION,
    PET_PAIRS,
    PETS,
    PLACES,
    POSSESSIONS,
    RACES,
    RELATION_ADJECTIVES,
    RELATIONS,
    RETIREES,
    is_place,
    is_town,
    looks_organisational,
)
from ._names import is_known_name, is_name_written
from ._objects import PRONOUNS, everyday, people, proper_name
from ._reading import HEDGE_BEFORE
from ._verbs import GREETED_FROM, HOME_WORDS, NOT_HOME_NOW

_A = "['’]"

__all__ = ["GONE", "activity_of_group", "arrived", "asked_home", "begun_elsewhere", "being_taught", "breed_beside",
           "clean_taste", "companions", "couples", "employer_confirmed", "everyday_object", "group_named", "home_named",
           "how_often_alone", "job_begun", "job_called_off", "job_got_unnamed", "job_to_come", "learning_unknown",
           "here_now", "lowercase_school", "move_called_off", "move_done", "move_planned", "move_told", "moved_in_new",
           "moved_there", "named_by_one", "not_for_me", "of_the_other", "one_does", "only_visiting", "pet_meant",
           "pet_taken_in", "proposed", "resident_of", "resolve_pronoun", "sold_thing", "told_as_visit", "told_trip"]

#: After a pet's noun: it died ("our cat passed away last week", "my dog, he died on monday").
GONE = re.compile(r"\s*(?:[A-Z][\w'’-]*\s+|,\s*(?:he|she|it)\s+)?" + DIED, re.IGNORECASE)
_NOUNS = {"pet": PETS, "possession": POSSESSIONS, "activity": ACTIVITIES, "group": GROUPS, "event": EVENTS,
          "lesson": LESSONS, "race": RACES}
_PAIRS = {"pet": PET_PAIRS, "event": EVENT_PAIRS, "group": GROUP_PAIRS, "activity": ACTIVITY_PAIRS}
#: "my climbing gym membership": the group it is a membership of.
_MEMBERSHIP = re.compile(rf"\b({'|'.join(sorted(GROUPS))})\s+membership\b", re.IGNORECASE)
#: Words that make a phrase a clause, not a thing ("likes is awesome", "dislikes that's why").
_VERBISH = frozenset("""
is was are were be been am 's 're 'm isn't wasn't do does did don't didn't have has had can could
will would should might must shall gonna wanna i we you u he she they it me him her us them
that's it's thats its i'm im ive i've you're
""".split())
#: Gerunds that need their own object ("likes making", "likes holding them").
_TRANSITIVE = frozenset("""
making doing having getting taking seeing being going trying finding giving keeping putting
bringing holding using spending watching hearing knowing telling saying buying sending showing
eating drinking
""".split())
_HABIT_AFTER = re.compile(
    r"^\s*(?:$|[.!,;)]|every\b|most\b|on\s+\w+days\b|on\s+(?:weekends|the\s+weekend)|at\s+(?:the\s+)?weekends?\b|a\s+lot\b|"
    r"regularly\b|daily\b|weekly\b|twice\b|three\s+times\b|competitively\b|for\s+fun\b|in\s+my\s+spare\s+time\b|"
    r"now\b|these\s+days\b|too\b|as\s+well\b|lol\b|haha\b|x+\b|before\s+work\b|after\s+work\b|in\s+the\s+mornings?\b|"
    r"again\b|lately\b|recently\b)",
    re.IGNORECASE)


#: After "I have yoga": a time or the end, nothing that makes it a thing ("a yoga mat", "on tv").
#: Past participles without "-ed": after "have" they make it an auxiliary ("I have taken up pottery").
_PARTICIPLES = frozenset("taken begun done gotten been gone given made become written ridden seen found kept".split())
_HAVE_AFTER = re.compile(r"\s*(?:$|[.!,;)]|(?:later|tonight|tomorrow|today|now|again|too|lol|haha|x+|practice|"
                         r"training|class|at\s+\d|on\s+\w+days|every|twice|with)\b)", re.IGNORECASE)


#: Words that open no taste's name: pronouns ("they're my favourite bird"), "the", "this".
_NO_TASTE_LEAD = PRONOUNS | frozenset("i we they he she the this that those".split())


def clean_taste(obj: str) -> bool:
    """Whether a liked thing is a clean noun phrase of a lasting taste (not "the colours",
    "is awesome", "making", "u")."""
    words = [w.lower().replace("’", "'") for w in obj.split()]
    lead = re.sub(r"'(?:re|s|m|ll|d|ve)$", "", words[0]) if words else ""  # not "they're my favourite bird"
    if not words or len(words) > 4 or lead in _NO_TASTE_LEAD:
        return False
    if any(w in _VERBISH or w.strip(".,!?") in _VERBISH for w in words):
        return False
    if len(words) == 1 and words[0] in _TRANSITIVE:
        return False
    return all(re.fullmatch(r"[\w'&-]+", w) for w in words) and any(ch.isalpha() for ch in obj)


#: A breed's word that is as often another thing, and the noun after it that makes it that thing: "my lab report",
#: "lab partner", "my boxer shorts", "shepherd's pie".
_NOT_THE_ANIMAL = re.compile(r"\s*(?:(?:a|an|the|my|our|your|his|her|their)\s+)?(?:lab|boxer|shepherd|bengal)"
                             r"(?:['’]s)?\s+(?:report|reports|partner|partners|coat|coats|results?|work|tech|techs|meeting|session|"
                             r"class|classes|book|notebook|safety|manager|assistant|shorts|briefs|pie)\b",
                             re.IGNORECASE)


#: The house's work done for others, after "doing the": no pastime.
_CHORE = re.compile(r"\s*the\s+(?:cooking|cleaning|washing(?:\s+up)?|ironing|shopping|hoovering|vacuuming|dusting|"
                    r"laundry|dishes|tidying|driving|school\s+run)\b", re.IGNORECASE)


def everyday_object(kind: str, head: str, rest: str, mention: bool) -> str | None:
    """The object of an everyday fact: the noun phrase after the verb, or for a habit the verb's
    own activity ("I run most mornings" -> running)."""
    if kind == "habit":
        verb = head.strip().lower()
        base = verb if verb in HABIT_VERBS else verb[:-2] if verb[:-2] in HABIT_VERBS and verb.endswith(
            "es") else verb[:-1]
        return HABIT_VERBS.get(base) if _HABIT_AFTER.match(rest) else None
    if mention and (before := _BEFORE_NOW.match(rest)) and not (
            kind == "pet" and before.group().strip().lower() == "old") and not (
            kind == "pet" and _FAVOURITE_HAD.match(rest)):
        return None  # "more than my first car", "my old bike": one had it, maybe no longer ("our old spaniel" is aged)
    if kind == "pet" and _MANY.match(rest):
        return None  # "we have many birds": wild ones around, not pets
    if kind == "pet" and _NOT_THE_ANIMAL.match(rest):
        return None  # "my lab report", "my boxer shorts": a word of school or clothes, not the dog
    if kind == "group":
        rest = _MEMBERSHIP.sub(r"\1", rest, count=1)
    found = everyday(rest, _NOUNS[kind], _PAIRS.get(kind, frozenset()))
    if kind == "group" and found is None and (club := _NAMED_CLUB.match(rest)) and \
            club["head"].lower() in _CLUB_HEADS and club["name"].split()[0].lower() not in NOT_NAMES and \
            not _EMPLOYED.search(rest):
        return club["name"]  # "I joined Meanwood Valley Runners." (a new user's: an employer, for review)
    if kind == "possession" and head.split()[0].lower() in ("have", "has") and not re.match(
            r"\s*(?:a|an|two|three|four|\d+|my|our|another|loads\s+of|lots\s+of)\b", rest, re.IGNORECASE):
        return None  # "i have the sofa to myself", "i have guitar at 5": for now, a lesson; not owned
    if kind == "race" and not re.match(r"\s*(?:the|a|an|my|our|his|her|their|(?-i:[A-Z]))", rest, re.IGNORECASE):
        return None  # "ran 10k this morning": a distance, not a race
    if kind == "lesson":
        return lessons_of(found) if found else None  # "signed up for a pottery class" -> pottery
    if found is None:
        return learnt(rest) if kind == "activity" and head.strip().lower() == "learning" else None
    words = found.split()
    if kind == "event" and len(words) > 2 and words[0].lower() in RELATIONS and words[1][:1].isupper():
        words = words[1:]  # "my niece Orla's wedding": Orla's wedding
        found = " ".join(words)
    if kind == "activity" and any(w.lower().endswith(("ing", "ed")) or w.lower() in _PARTICIPLES for w in words[:-1]):
        return None  # "stopped liking football": a taste, not a hobby; "have started sourdough", "have taken up
        # pottery": another verb's (its own phrase reads it)
    if kind == "activity" and head.split()[0].lower() in ("have", "has") and (
            re.match(r"\s*(?:a|an|the|some|my|our)\b", rest, re.IGNORECASE) or not _HAVE_AFTER.match(
                rest[rest.lower().find(words[-1].lower()) + len(words[-1]):])):
        return None  # "I have line dancing", "i have yoga later"; not "a yoga mat", "football on tv", "cooking to do"
    if kind == "activity" and head.split()[0].lower() in ("do", "does", "doing", "did") and _CHORE.match(rest):
        return None  # "Graham's doing the cooking" (h86), "I do the cooking and he does the washing up": a chore (not
        # "still doing the swimming though!", d9)
    if kind == "activity" and head.strip().lower() in ("been", "back") and not (
            words[-1].lower().endswith("ing") and _HABIT_AFTER.match(rest[rest.find(words[-1]) + len(words[-1]):]
                                                                      .replace("loads", "a lot"))):
        return None  # "I've been running a lot", "im back climbing"; not "been running late"
    if kind != "event" and any((re.search(r"['’]s$", w) or _SOMEONES.fullmatch(w)) and not (
            _WHO_FOR.fullmatch(w) and not (kind in ("pet", "possession") and _PARENTS.fullmatch(w)))
            for w in words[:-1]):
        return None  # "my mum's dog", "my neighbours dog", "my mothers chickens": someone else's (not "a women's
        # choir", "a women's bike": who it is for; a mothers' group is for mothers, their chickens are theirs)
    if mention and next((w.lower() for w in words[:-1] if w.lower() not in RELATION_ADJECTIVES), None) in RELATIONS:
        return None  # "my sister Bo hates dogs", "my best friend got a car": the relative's, if anyone's
    if mention and kind == "possession" and words[-1].lower() not in OWNED_BY_MENTION:
        return None  # "my house", "my flat": where one lives, not surely owned
    if kind == "group" and len(words) == 1 and words[0].lower() in _VAGUE_GROUPS and (
            mention or words[0].lower() not in ("committee", "union")):
        return None  # "Priya on my team", "joined a new team at work": the people one works with, not a club
    return named_after(found, rest) if kind == "group" else found


#: What names a group after its noun: "of" and capitalised words ("the Association of Bakers", "the Choir of St.
#: Mary's"), or, after a Romance language's noun, "de", "del", "di"… and the words after it ("la asociacion de
#: comerciantes del cerro").
_NAMED_AFTER = re.compile(r"\s+(?:(?P<of>of)|(?P<de>de|del|de\s+la|de\s+los|de\s+las|des|du|della|dei|di|da|do|dos|"
                          r"das))\s+", re.IGNORECASE)
#: Group nouns of a Romance language, after which "de …" names the group.
_ROMANCE_GROUPS = frozenset("asociación asociacion associação associacao associazione cofradía cofradia hermandad "
                            "círculo circulo".split())
#: Words that end such a name: "… de comerciantes yesterday", "… de la ciudad and i love it".
_NAME_ENDS = frozenset("yesterday today tonight tomorrow last this next on in at and but so lol haha now because with "
                       "for to the a an i we it btw too as since after before when".split())


def named_after(found: str, rest: str) -> str:
    """``found``, a group's noun phrase opening ``rest``, with the name that follows its noun: "Association of
    Bakers" (capitalised words after "of", up to where the clause goes on), "asociacion de comerciantes del cerro"
    (after a Romance noun, any words after "de", up to a word of English that ends it); ``found`` as it is otherwise
    ("a team of five", "the club of Spanish speakers", "the running club do you want to come": a reviewer's)."""
    head = found.split()[-1]
    at = rest.lower().find(head.lower())
    m = _NAMED_AFTER.match(rest, at + len(head)) if at >= 0 else None
    if m is None or (m["de"] and head.lower() not in _ROMANCE_GROUPS):
        return found
    words: list[str] = []
    tail = rest[m.end():]
    for word in re.finditer(r"[^\W\d_][\w'’-]*(?:\.(?=\s+[A-Z]))?|[^\w\s]|\s{2,}", tail):
        w = word.group()
        if not w[0].isalnum() or w.lower() in _NAME_ENDS or len(words) == 5:
            break
        if m["of"] and not w[:1].isupper() and w.lower() not in ("the", "and"):
            return found  # a capitalised word, then one in small letters: "club of Spanish speakers"
        words.append(w)
    while words and words[-1].lower() in ("de", "del", "la", "los", "las", "y", "e", "the", "and", "of"):
        words.pop()
    return f"{found}{rest[at + len(head):m.end()]}{' '.join(words)}" if words else found


#: A pastime learnt by its verb: "learning to sail", "learning to weave!!".
_LEARNT = re.compile(r"\s*to\s+(?P<verb>[a-z]+)(?=\s*(?:$|[.!,;:)?]|now\b|since\b|every\b|on\s+\w+days\b|from\b|"
                     r"with\b|at\b|again\b|too\b|properly\b|lol\b|haha\b))")
#: Verbs one learns to do, beyond the habits'.
_LEARNT_VERBS = HABIT_VERBS | {"weave": "weaving", "kayak": "kayaking"}


def learnt(rest: str) -> str | None:
    """The pastime of a verb learnt, which no list of activities names as said: "learning to sail" -> sailing (not
    "learning to drive", a licence, nor "learning to be patient"). A thing learnt that no list knows ("the morin
    khuur", "the whatsapp", "hiragana") is left: of the chats' dev set, half of those were no pastime."""
    m = _LEARNT.match(rest)
    return _LEARNT_VERBS.get(m["verb"]) if m else None


#: A kind of people a group or a thing is for, not an owner: "a women's choir", "the mens team".
_WHO_FOR = re.compile(r"(?i)(?:wo)?men['’]?s|ladies['’]?|girls['’]|boys['’]|children['’]?s|kids['’]|"
                      r"veterans['’]?|seniors['’]|mums['’]|mothers['’]?|dads['’]|fathers['’]?|parents['’]")
#: A number past counting: "many birds", "loads of cats".
_MANY = re.compile(r"\s*(?:so\s+|too\s+)?(?:many|lots|loads|tons|hundreds|a\s+lot)\b", re.IGNORECASE)
#: A person's word with the apostrophe left out ("my neighbours dog", "my sisters cat").
_SOMEONES = re.compile(r"(?i:(?:neighbour|neighbor|mum|mom|mother|dad|father|sister|brother|friend|mate|parent|"
                       r"grandparent|cousin|nan|nana|gran|granny|grandma|grandmother|grandad|granddad|grandpa|"
                       r"grandfather|aunt|auntie|uncle|niece|nephew|son|daughter|boyfriend|girlfriend|partner|husband|"
                       r"wife|ex|in-?law|flatmate|roommate|housemate|classmate|teammate|colleague|coworker|boss|"
                       r"landlord|landlady|bestie|bf|gf)s)")
#: Of the words of whom a thing is for, those that are someone's without the apostrophe: "a mothers' group" is for
#: mothers, "my mothers chickens" are hers.
_PARENTS = re.compile(r"(?i)(?:mums|moms|mothers|dads|fathers|parents)['’]?")
#: Groups that, named alone in passing ("my team", "our group"), may be the people one works
#: or studies with rather than a club one joined.
_VAGUE_GROUPS = frozenset("team group crew squad circle community union committee class".split())


#: A favourite one of those one has, named or said to be one's own: "my fave cat Mittens is sick again", "my fave
#: hamster is the one i have" (not "my favourite dog is Snoopy").
_FAVOURITE_HAD = re.compile(r"(?i)\s*fav\w*\s+[\w-]+\s+(?:(?-i:[A-Z])|is\s+(?:mine|my\s+own|the\s+one\s+(?:i|we)\s+"
                            r"(?:have|got)))")
#: After "my"/"our": a thing of before, or not yet ("my first car", "my old dog", "my dream house"); or a kind one
#: likes best, none had ("they're my favourite bird").
_BEFORE_NOW = re.compile(r"\s*(?:first|old|previous|former|last|late|ex|dream|next|future|fav\w*)\b",
                         re.IGNORECASE)


#: A group's own name, capitalised, of up to five words ("Las Olas", "the Blackrock Bluetits", "Poultry
#: Association of Nigeria").
_GROUP_NAME = (r"(?P<the>the\s+)?(?P<name>(?-i:[A-Z])[\w'’&-]*(?:\s+(?:(?:of|de|du|la|del|the)\s+)?"
               r"(?-i:[A-Z])[\w'’&-]*){0,4})")
#: Filler that may stand between a group's noun and its name, each word whole (so that a failed match
#: is given up at once, not tried in every split of "xxxx" or "lol  lol").
_FILLER = r"(?:lol|haha+|lmao|btw|omg|ok|x+)(?!\w)[^\w]*"
#: Right after a group's noun, its name set beside it: "a surf group! Las Olas, all women", "a running club
#: lol, Triana Runners, and", "the quiz team. the Quizlings.", "a gym! the PureGym in Levenshulme", "the running
#: group 😔 Envigado Runners." (an emoji stands where a stop would).
_GROUP_BESIDE = re.compile(r"^(?:\s*[!.,:;(—–" + EMOJI + r"-]+\s*|\s+)(?:" + _FILLER + r")*" + _GROUP_NAME
                           + r"(?=\s*(?:$|[,.!;:()]|\s(?:in|at|on|near|by)\s))", re.IGNORECASE)
#: What may come between a group's noun and "it's called": a day, a word of filler, an emoji or a comma
#: ("a bouldering gym on monday 😅 its called Blok", "the swim group properly, they're called …"); not
#: another noun ("a running club and got a puppy, it's called Biscuit").
_GAP = (r"(?:\s+(?:on|last|this|every)\s+\w+|\s+(?:lol|haha+|lmao|btw|too|now|properly|already)(?!\w)"
        r"|\s*[^\w\s]+(?![^\w\s]))*")
#: The group's name given by "called"/"named": "a choir called Voces", "its called Blok".
_GROUP_CALLED = re.compile(r"^(?:\s+|" + _GAP + r"\s*\b(?:it|its|it['’]s|it\s+is|they['’]re|they\s+are)\s+)"
                           r"(?:called|named)\s+" + _GROUP_NAME, re.IGNORECASE)
#: Titles before a person's name: "Mrs Folake Bankole" is someone, not the group.
_TITLES = frozenset("mr mrs ms miss dr doctor father pastor sister brother auntie aunty aunt uncle chief sir".split())
#: A name given with a doubt: "its called Bergen Havpadling or something".
_UNSURE_NAME = re.compile(r"\s*(?:or\s+(?:something|smth|whatever)|i\s+think)\b", re.IGNORECASE)
#: Words that make a capitalised run beside a group's noun something else: a time ("Every Tuesday",
#: "Happy Monday"), a greeting or an interjection ("OMG", "Thank God").
_NOT_A_GROUP = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march april
may june july august september october november december today tonight tomorrow yesterday weekend morning night
every each next last this that happy merry thank thanks cheers omg lol lmao haha ok okay wow yay ugh btw yes
yeah no nope god""".split())


#: "calls me", "call him", "calling you": a name someone uses for someone.
_CALLS = re.compile(r"\b(?P<verb>call|calls|calling|called)\s+(?:me|him|her|you|u)\b", re.IGNORECASE)
#: Words for many people that take a verb in the singular, in a clause before "calls": "everyone calls me
#: Jay", "the horn section calls me Bussi".
_MANY_AS_ONE = r"every(?:one|body)|no(?:body|\s+one|-one)|section|team|family|crew|office|class|town|village|club"
_MANY_CALLS = re.compile(rf"\b(?:{_MANY_AS_ONE})\b", re.IGNORECASE)
#: Before "call": those, other words for many ("they call me tiny", "guys on the CB call me …"), or a plural
#: noun ("my old pupils call me …"; not "Marcus").
_MANY_CALL = re.compile(rf"\b(?:{_MANY_AS_ONE}|they|people|all|guys|folks|whole|kids|twins|ladies|boys|girls|lads)\b"
                        r"|\b(?-i:[a-z])\w{2,}s\s*$", re.IGNORECASE)
_CALLER_ENDS = re.compile(r"[.!?;:]|,\s|\b(?:but|and|so|because|cos)\b", re.IGNORECASE)
_CALLER_TAIL = re.compile(r"\b(?:still|now|already|always|just|even|also|all|are|were|have|has|used\s+to|keep|"
                          r"kept)\s*$", re.IGNORECASE)
#: Words that ask, before an unsaid caller: "please just call me Jay" is the speaker's own name for themselves.
_ASKING = re.compile(r"\b(?:please|pls|plz|just|you\s+can|u\s+can|can\s+you|could\s+you|simply)\b", re.IGNORECASE)


def named_by_one(sentence: str, name: str) -> bool:
    """Whether ``sentence`` tells ``name`` as what one person calls someone ("he calls me "Mrs H"", "my
    boss … calls me "la petite montréalaise"", "Marta is calling you Viking"), not what many do
    ("everyone calls me Jay", "they call me tiny") or what the speaker asks to be called ("call me
    Jay"). The caller is the clause before the "call" that ``name`` follows. Read on chats nobody had
    tuned on, a name one person uses was a nickname a careful reader records about 4 times in 10; one
    many use, 8 in 10."""
    said = re.compile(rf"\s*[\"'“‘]?(?:the\s+)?{re.escape(name)}(?![\w'’])", re.IGNORECASE)
    for m in _CALLS.finditer(sentence):
        if not said.match(sentence, m.end()):
            continue
        caller = _CALLER_TAIL.sub("", _CALLER_ENDS.split(sentence[:m.start()])[-1].strip()).strip()
        if not re.search(r"[^\W\d_]", _ASKING.sub("", caller)):
            # "call me Jay", "please just call me Jay": the speaker's own; "… is 94 and calls me X": the one
            # the clause before is about
            return m["verb"].lower() != "call"
        many = _MANY_CALLS if m["verb"].lower() == "calls" else _MANY_CALL
        return many.search(caller) is None
    return False


#: Where a message's sentences part, for the move readers that read one sentence at a time (each read once: linear).
_SENTENCES = re.compile(r"(?<=[.!?\n])\s*")
#: A place as a move's plan or its arrival names it: a known place in any case, or a capitalised name.
_MOVE_PLACE = r"(?P<place>[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]*){0,2})"
#: The speaker, as the subject of their own plan.
_I = r"\b(?:i['’]?m|i\s+am|we['’]re|we\s+are|i['’]ll\s+be|we['’]ll\s+be|i|we|im|i['’]ve|we['’]ve|ive)\s+"
#: The speaker's own move still to come: "I'm moving to Valencia in January", "we're relocating to Perth",
#: "ok i decided. valencia. moving in january" (not "Tom is moving to Leeds").
_MOVING = re.compile(
    _I + r"(?:(?:finally|officially|actually|really|definitely|now|just)\s+)?(?:moving|relocating)\s+(?:back\s+)?"
    r"to\s+" + _MOVE_PLACE + r"|(?<![\w'’-])" + _MOVE_PLACE.replace("place", "before")
    + r"[.!,]+\s+(?:i['’]?m\s+|we['’]re\s+)?moving\s+(?:in|on|next|this|at|end|early|late|after)\b", re.IGNORECASE)
#: A home or a job the speaker found there, which a move follows: "we found a house in mérida!", "I've been
#: offered a job in Sydney" (not "my parents found a house in mérida").
_SETTLING = re.compile(_I + r"(?:just\s+|finally\s+)?(?:been\s+)?(?:found|got|bought|offered|accepted|signed\s+for)\s+"
                       r"(?:us\s+|me\s+)?(?:a|an|the|our|my)\s+(?:new\s+)?(?:house|flat|apartment|place|home|job|"
                       r"position|post)\s+in\s+" + _MOVE_PLACE.replace("place", "there"), re.IGNORECASE)
#: A lease signed for a home there: "I signed the contract!! a flat in Matosinhos, 2 rooms" (a new user's), "we signed
#: the lease for a house in Leith" (not "I signed the contract for my sister's flat in Leith").
_SIGNED = re.compile(_I + r"(?:just\s+|finally\s+|officially\s+)?signed\s+(?:the|a|our|my)\s+(?:contract|lease|"
                     r"rental\s+agreement|tenancy(?:\s+agreement)?)\b\W{0,4}(?:for\s+)?(?:a|an|the|our)\s+(?:new\s+)?"
                     r"(?:house|flat|apartment|place|home|studio)\s+in\s+" + _MOVE_PLACE.replace("place", "signed"),
                     re.IGNORECASE)
#: A home told by its bedrooms and its place, as one found is: "2 bed in Ancoats, 8th floor" (after "WE GOT ONE": a new
#: user's), "a 3-bedroom house in Leith!"; a plan only: a move told later makes it the home.
_ROOMS_IN = re.compile(r"^\W*(?:(?:a|an|the|our|my)\s+)?(?:\d|one|two|three|four)[\s-]?(?:bed(?:room)?s?|br)\b"
                       r"(?:\s+(?:flat|house|apartment|place|home|unit|terrace))?\s+in\s+"
                       + _MOVE_PLACE.replace("place", "rooms"), re.IGNORECASE)
#: What makes a sentence no plan of the speaker's: a question, a supposition, a denial, someone's words.
_NOT_A_PLAN = re.compile(r"\?|\b(?:if|would|should|could|might|maybe|perhaps|thinking|considering|wish|hope|not|never|"
                         r"turned\s+(?:it\s+)?down|said|says|told\s+me|asked)\b|n['’]t\b", re.IGNORECASE)
#: A move called off: "the move is off", "we're not moving after all", "staying in madrid".
_CALLED_OFF = re.compile(r"\b(?:move|moving)\b[^.!?]{0,80}?\b(?:off|cancell?ed|canceled|fell\s+through|"
                         r"not\s+happening)\b|"
                         r"\bnot\s+moving\b|\bstaying\s+(?:in|here|put)\b", re.IGNORECASE)
#: Arriving somewhere, as a first message from there says it: "greetings from valencia!!!", "we're in
#: mérida!! surrounded by boxes", "landed!! made it to manchester" (not "i went to London and we talked").
_ARRIVED = re.compile(r"^\W*(?:hello|hi|hey|hiya|greetings|hola|ciao|bonjour|aloha|howdy|g['’]day)\b|"
                      r"\b(?:we['’]re|i['’]m|im|we\s+are|i\s+am)\s+(?:finally\s+|officially\s+|here\s+|now\s+)*in\b|"
                      r"\b(?:landed|arrived|made\s+it)\b", re.IGNORECASE)
#: A visit, said with the arrival: "greetings from valencia! here for three days to look at flats".
_VISITING = re.compile(r"\b(?:here\s+for|to\s+(?:sign|look|see|visit|check)|checking|house[\s-]?hunting|"
                       r"flat[\s-]?hunting|for\s+work|business)\b", re.IGNORECASE)


#: A move told in the message of an arrival: "Greetings from Mumbles! Moved in on Thursday", "Greetings
#: from Lavington! I am in the new house two weeks now", "… we moved last Wednesday".
_MOVE_TOLD = re.compile(r"\b(?:moved(?:\s+in)?|new\s+(?:house|flat|apartment|place|home)|unpack(?:ing|ed)|"
                        r"surrounded\s+by\s+boxes)\b", re.IGNORECASE)


def move_told(sentence: str, message: str) -> bool:
    """Whether ``sentence`` tells of arriving where it is said from (see :data:`_ARRIVED`) and the
    ``message`` tells the move (see :data:`_MOVE_TOLD`): then a stay or a visit the message also
    mentions ("in the new house two weeks now", "the neighbours came out to look") is no reason to doubt it."""
    return _ARRIVED.search(sentence) is not None and _MOVE_TOLD.search(message) is not None


def arrived(sentence: str, message: str) -> bool:
    """Whether ``sentence`` tells of arriving where it is said from (see :data:`_ARRIVED`), and the
    ``message`` does not tell a visit or a stay ("hi from valencia, just here for a few days to sign
    the lease, back home sunday", "landed in Sydney for a conference!")."""
    return _ARRIVED.search(sentence) is not None and not only_staying(message) and not _VISITING.search(message)


#: A move done, told with no place, by the speaker or with no subject at a sentence's start, and nothing after
#: "moved" but a time or the end: "we moved!!! on the 1st", "moved in yesterday", "all moved.", "Moved!" (not "moved
#: to Leeds", "moved a meeting", "moved teams", "Moved by that film", "moved in 2019", "Jake just moved in",
#: "have you moved yet?", "we moved twice as a kid").
_MOVED = re.compile(r"(?:^\W*(?:(?:ok|okay|so|and|yes|yep|yeah|well|update|news)\W+)*|\b(?:we|i)(?:['’]ve|\s+have)?\s+)"
                    r"(?:(?:finally|officially|just|all|now)\s+)?moved(?:\s+in)?(?=\s*(?:$|[.!,;)❤💙📦🏠🎉]|(?:on\s+(?:the\s+)?\d+(?:st|nd|rd|th)?|"
                    r"on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:last|this)\s+(?:week|weekend|month|"
                    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|yesterday|today|at\s+last|finally|lol|haha|omg|btw)\b))",
                    re.IGNORECASE)
#: Words that take it back, say the place was another or the move something else's: "jk still packing", "but not
#: to leeds", "moved yesterday. to a hotel", "all moved. office is nice", "ok moved, your turn".
_TAKEN_BACK = re.compile(r"\b(?:jk|joking|kidding|not|never|ended\s+up\s+in|instead|temporar\w*|for\s+a\s+bit|hotel|"
                         r"office|desk|turn|date|meeting)\b|n['’]t\b|\bmoved\W+to\s|(?:^|[.!?]\s*)to\s", re.IGNORECASE)
#: What says the move was of a home: moving in, all moved, a day, or the home's words.
_HOME_TOLD = re.compile(r"\bmoved\s+in\b|\ball\s+moved\b|\bmoved\W+(?:on\s+)?(?:the\s+\d|\d|(?:last|this)\s|yesterday|"
                        r"today|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|\b(?:flat|house|apartment|home|new\s+place|boxes|unpack\w*|"
                        r"keys|landlord|neighbou?rs)\b|📦", re.IGNORECASE)  # "moved!!!!! 📦📦📦": boxes
#: The turn before asks of moving something: "did u move the car?", "did you move the meeting".
_MOVE_WHAT = re.compile(r"\bmove(?:d)?\s+(?:the|my|your|ur|it|that|this)\b", re.IGNORECASE)


def move_done(message: str, previous: str | None = None) -> bool:
    """Whether ``message`` tells of a move the speaker has made with no place named (see :data:`_MOVED`), in a
    sentence that is no question, plan or supposition, said as the move of a home (see :data:`_HOME_TOLD`); not
    when the message takes it back (see :data:`_TAKEN_BACK`) or answers a question about moving something."""
    if _TAKEN_BACK.search(message) or not _HOME_TOLD.search(message) or (previous and _MOVE_WHAT.search(previous)):
        return False
    return any(_MOVED.search(sentence) and not _NOT_A_PLAN.search(sentence)
               for sentence in _SENTENCES.split(message))  # each sentence read once: linear


#: A home named where a move is told, as the new one, and the place it is in: a home said alone ("moved on the 10th, a
#: tiny flat in belleville"), moved into or lived in ("i'm in a small flat in Khan-Uul"), or found, got or rented
#: ("Mila's parents found us a flat in Kapana"), or new, opening a sentence ("MOVED. new flat in chapel allerton", a new
#: user's). Not "the house in Leeds" or "his flat in Leeds" (sold, left, someone
#: else's), nor a home the rest of the sentence makes another's, a past one, one to come or one wished for.
_HOME_IN = re.compile(r"(?:(?:^|[.!?,;:]\s*|\b(?:into|in)\s+)(?:a|an|my\s+new|our\s+new)|(?:^|[.!?,;:]\s*)new|"
                      r"\b(?:found|got|rented|bought)\s+(?:us\s+|me\s+)?(?:a|an))\s+" + HOME_WORDS + r"\s+in\s+"
                      + _MOVE_PLACE + NOT_HOME_NOW + r"(?![^.!?\n]*\b(?:before|left|sold|selling|market|next|"
                      r"would|should|could|miss|still|was|were)\b)", re.IGNORECASE)
#: What makes a home said in a sentence no new one of the speaker's: a look, a wish, a question.
_NOT_THE_HOME = re.compile(r"\?|\b(?:looking|look|looked|viewing|viewed|saw|see|wish|if|maybe|might)\b", re.IGNORECASE)
#: Someone else said before the home, whose it may be, unless it was found for the speaker ("found us a flat").
_THEIRS_BEFORE = re.compile(r"\b(?:his|her|their|parents|brother|sister|mum|mom|dad|friend)\b(?![^.!?\n]*\b(?:us|me)\s+"
                            r"(?:a|an)\s)", re.IGNORECASE)


def move_home(message: str) -> str | None:
    """The place of the one home a message names as the new one (see :data:`_HOME_IN`), read where it tells a move
    the speaker made with no place after "moved" (:func:`move_done`, which the caller asks): "i moved!! saturday.
    i'm in a small flat in Khan-Uul"; None where it names none, or two, or the place is no known town and has no
    capital."""
    places = set()
    for sentence in _SENTENCES.split(message):
        for m in _HOME_IN.finditer(sentence):
            if not _NOT_THE_HOME.search(sentence, 0, m.start("place")) and not _THEIRS_BEFORE.search(
                    sentence, 0, m.start("place")):
                places.add(m["place"].strip())
    if len(places) != 1:
        return None
    place = places.pop()
    return place if is_town(place) or (place[:1].isupper() and place.lower() not in NOT_NAMES) else None


#: A sentence that is only where a move told beside it was to: "to concón." after "i moved!! last weekend.", or a
#: place then what the new home is like ("Zaisan, 9th floor, balcony facing the mountain" after "moved on the 1st!").
_TO_ONLY = re.compile(r"\W*to\s+" + _MOVE_PLACE + r"\s*(?:[.!,]|$)(?P<described>)", re.IGNORECASE)
_PLACE_ONLY = re.compile(_MOVE_PLACE + r"\s*(?:[.!]*\s*$|(?P<described>,(?=[^.!?]*\b(?:floor|flat|apartment|house|"
                         r"balcony|room|rooms|near|district|quarter|neighbou?rhood|centre|center|tiny|small|big|view|"
                         r"sea|beach|garden)\b)))", re.IGNORECASE)
#: The rest of such a sentence, what makes it no home: a visit, a hotel, a workplace, someone else's.
_NOT_THE_MOVE = re.compile(r"\b(?:for|hotel|hostel|airbnb|office|work|his|her|their|parents?|visit\w*|trip|until|"
                           r"till)\b", re.IGNORECASE)


def move_fragment(message: str) -> str | None:
    """The place a move the speaker made (see :func:`move_done`) was to, said in a sentence of its own that is only
    that place: "ok. i moved!! last weekend. to concón. a tiny wooden cabin", "moved on the 1st! Zaisan, 9th floor" (a
    reviewer's finds on dev: the move told, the place a fragment); None where two places are, or the place is no
    known town and no capitalised name that is no word of English or given name ("Tom, you have to come")."""
    if only_visiting(message):
        return None  # "we moved last week. to Paris. for the weekend lol"
    places, rest = set(), []
    for sentence in _SENTENCES.split(message):
        m = _TO_ONLY.match(sentence) or _PLACE_ONLY.match(sentence)
        place = m["place"].strip() if m else ""
        if m is None or _NOT_THE_MOVE.search(sentence) or not _a_place(place, described=m["described"] is not None):
            rest.append(sentence)  # ("ok.", "Tom, you have to come", "Nice.", "Lmao.", "Netflix.": no town)
            continue
        places.add(place)
    return places.pop() if len(places) == 1 and move_done(" ".join(rest)) else None


def _a_place(words: str, described: bool) -> bool:
    """Whether ``words`` may name a place alone: a town GeoNames knows that is no word of English ("concón", "Leeds";
    not "Nice", "Reading"); where what the home is like follows it ("Zaisan, 9th floor"), also capitalised words none
    of which is a word of English or a given name."""
    if "'" in words or "’" in words or words.lower() in NOT_NAMES:
        return False  # "to Sam's."
    if is_town(words) and not plain_english(words.lower()):
        return True
    return described and all(w[:1].isupper() and not is_name_written(w) and not plain_english(w.lower())
                             for w in words.split())


#: The other's words asking after the speaker's new home in a place: "how's the new flat in Gdynia?", "you're in
#: jinja!! how is it".
_ASKED_HOME = re.compile(r"\bnew\s+(?:flat|place|house|apartment|home|room|pad)\s+in\s+" + _MOVE_PLACE +
                         r"\s*(?:$|[!?.,]|\s+(?:now|yet|already|finally|how)\b)", re.IGNORECASE)
#: A message telling a stay, not a home: a visit ("here for a conference", "just for the weekend"), an airport, a move
#: that fell through or went elsewhere ("moved in last week somewhere else", "the flat back home").
_ONLY_VISITING = re.compile(r"\b(?:here\s+for|just\s+for|only\s+for|for\s+(?:a|the)\s+(?:conference|weekend|week|"
                            r"wedding|work|meeting)|conference|airport|flight|hotel|hostel|holiday|vacation|trip|"
                            r"visit(?:ing)?|back\s+home|somewhere\s+else|fell\s+through|not\s+moving)\b|✈",
                            re.IGNORECASE)


def only_visiting(message: str) -> bool:
    """Whether ``message`` tells a stay rather than a home (see :data:`_ONLY_VISITING`)."""
    return _ONLY_VISITING.search(message) is not None


def asked_home(previous: str) -> str | None:
    """The place the other asked after the speaker's new home in (see :data:`_ASKED_HOME`: "how's the new flat in
    Gdynia?"; not "you're in Rome!!", as often a visit), when one place is, a known town or a capitalised name no word
    of English: the answer "moved in on the 1st!" is the move there."""
    places = {m["place"].strip() for m in _ASKED_HOME.finditer(previous)}
    if len(places) != 1:
        return None
    place = places.pop()
    return place if is_town(place) or (place[:1].isupper() and place.lower() not in NOT_NAMES) else None


#: A home moved into, named by its place: "we moved into the benoni house", "Moved into the Strathdale unit on the
#: 3rd" (not "the nice house", "the Edwardian house": a town GeoNames knows, or a capitalised name no word of English).
_HOME_NAMED = re.compile(r"\bmoved\s+into\s+the\s+(?P<place>[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]*)?)\s+"
                         r"(?:house|flat|apartment|unit|home|cottage)\b", re.IGNORECASE)
#: Words that end a place's name after a name of its own: "Titahi Bay", "Bondi Beach", "Notting Hill".
_PLACE_ENDS = frozenset("bay beach hill hills park heights valley point village green town grove bridge creek falls "
                        "harbour harbor island lake springs vale wood woods bank".split())
#: A home's style or maker, no place: "the Edwardian house", "the Barratt house" (and any word in -ian: "Victorian").
_HOME_STYLES = frozenset("tudor regency riverside barratt persimmon airbnb council".split())
#: What may come before a move of the speaker's own in its sentence: nothing, news said, "we", "I", an adverb (not
#: "my sister moved into the Leeds flat", "Tom and Ana moved…").
_OWN_MOVER = re.compile(r"\W*(?:(?:oh|ok|okay|so|and|also|well|yay|update|news|our\s+news|big\s+news|btw)\W+)*"
                        r"(?:(?:we|i)(?:['’]ve|\s+have)?\s+)?(?:(?:just|finally|officially|all)\s+)?$", re.IGNORECASE)
#: A home for a while, or one left since: "the Paris apartment for a month", "moved out last year", "airbnb".
_NOT_A_HOME = re.compile(r"(?i)\b(?:for\s+(?:a|the|two|three|\d+)\s+(?:night|week|month|summer)s?|holiday|vacation|"
                         r"honeymoon|airbnb|away|moved\s+out|left|sold)\b")
#: A move into a new home told with no place: "moved into the new flat on wednesday!!" (the speaker's: no one else
#: before it; "my sister just moved into the new flat" is hers).
_NEW_HOME_MOVED = re.compile(r"(?:^\W*|\b(?:we|i)(?:['’]ve|\s+have)?\s+)(?:(?:just|finally|officially)\s+)?moved\s+"
                             r"into\s+(?:the|our|my)\s+new\s+(?:house|flat|apartment|place|home)\b", re.IGNORECASE)


def home_named(message: str) -> str | None:
    """The place of a home the speaker moved into, named by its place (see :data:`_HOME_NAMED`): a town GeoNames
    knows, written with a capital unless no word of English ("benoni", not "nice"), or a capitalised name no word of
    English or given name ("Strathdale"); None for someone else's move, a question, a plan, a stay or one left."""
    if _NOT_A_HOME.search(message):
        return None
    for sentence in _SENTENCES.split(message):
        m = _HOME_NAMED.search(sentence)
        if m is None or _NOT_A_PLAN.search(sentence) or not _OWN_MOVER.match(sentence[:m.start()]):
            continue
        place, words = m["place"], m["place"].split()
        if (is_town(place) and (place[:1].isupper() or not plain_english(place.lower()))) or (
                all(w[:1].isupper() for w in words) and place.lower() not in NOT_NAMES and not any(
                is_name_written(w) or (plain_english(w.lower()) and not (n and w.lower() in _PLACE_ENDS))
                or w.lower() in _HOME_STYLES or w.lower().endswith("ian") for n, w in enumerate(words))):
            return place  # (a place's word after its own name: "the Titahi Bay house", a new user's)
    return None


def moved_there(message: str, place: str) -> bool:
    """Whether ``message`` tells of a move the speaker made (see :data:`_MOVED`) and names ``place``, the one they
    said they were moving to: "Moved!!! I'm officially in Actur" (a new user's: no home's word said, the place is)."""
    return _whole(place, message) is not None and not _TAKEN_BACK.search(message) and any(
        _MOVED.search(s) and not _NOT_A_PLAN.search(s) for s in _SENTENCES.split(message))


#: The speaker told a resident of a place: "officially a Phibsborough resident", "I'm now a Leeds resident" (a new
#: user's).
_RESIDENT = re.compile(r"(?:^\W*|\b(?:i['’]?m|i\s+am|we['’]re|we\s+are)\s+)(?:(?:now|officially|finally|proudly)\s+)*"
                       r"(?:a|an)\s+(?P<place>(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)\s+residents?\b",
                       re.IGNORECASE)


def resident_of(message: str) -> str | None:
    """The place the speaker says they are a resident of, in a sentence that is no question, plan or denial."""
    for sentence in _SENTENCES.split(message):
        if (m := _RESIDENT.search(sentence)) and not _NOT_A_PLAN.search(sentence) and m["place"].lower() not in \
                NOT_NAMES:
            return m["place"]
    return None


def moved_in_new(message: str) -> bool:
    """Whether ``message`` tells of the speaker moving into a new home, with no place (see
    :data:`_NEW_HOME_MOVED`)."""
    return any(_NEW_HOME_MOVED.search(s) and not _NOT_A_PLAN.search(s) and not _TAKEN_BACK.search(s)
               for s in _SENTENCES.split(message))


#: Days and months, as a name is written: no word of an employer's name after "of" ("Nike van Monday": a reviewer's).
_DAYS_AND_MONTHS = ("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|"
                    "July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
#: An employer as a job's plan names it: a capitalised name of up to four words ("Cable Andino", "RBC"), joined by
#: a word of the kind names keep in lower case ("Hospital da Luz", "Bank of Ireland": a new user's).
_EMPLOYER = (r"(?P<org>(?-i:[A-Z])[\w'’&-]*(?:\s+(?:(?:&|(?-i:da|das|de|del|della|des|di|do|dos|du|of|van|von))\s+"
             r"(?!(?-i:[A-Z]{2,}|I|You|We|They|He|She|It|Course|" + _DAYS_AND_MONTHS + r")\b))?"
             r"(?-i:[A-Z])[\w'’&-]*){0,3})")
#: The speaker's own job still to begin: "I got the job at Shopify!! start in march", "I was offered the position
#: at Cable Andino", "they gave me the job at Polar Austral", "I start at RBC on the 3rd", "Butantan offered me the
#: job", "to Cable Andino!!! I start on 1 november" (answering "To Cable Andino?").
_JOB_TO_COME = re.compile(
    r"\b(?:(?:i|i['’]ve|ive|i\s+have)\s+(?:just\s+|finally\s+)?(?:got|landed|accepted|took|been\s+offered)|"
    r"(?:i\s+was|i\s+got|i['’]ve\s+been|ive\s+been)\s+offered|(?:offered|gave|given)\s+me)\s+"
    r"(?:a|an|the)\s+(?:new\s+|full[\s-]time\s+|part[\s-]time\s+)?(?:job|position|role|post|internship|offer)\s+"
    r"(?:at|with|from)\s+" + _EMPLOYER + "|" + _I + r"(?:(?:going\s+to|gonna)\s+)?(?:start|starting|begin|beginning)\s+"
    r"(?:work(?:ing)?\s+)?(?:at|with)\s+" + _EMPLOYER.replace("org", "begins") + "|(?:^|(?<=[.!?]\\s))"
    + _EMPLOYER.replace("org", "offers") + r"\s+(?:just\s+|finally\s+)?offered\s+me\s+(?:a|an|the)\s+(?:job|position|"
    r"role|post|contract)\b", re.IGNORECASE)
#: A job's employer said alone in answer, then its start: "to Cable Andino!!! I start on 1 november".
_JOB_ANSWERED = re.compile(r"^\W*(?:to|at|with)\s+" + _EMPLOYER + r"\W+(?=.*\bi\s+(?:start|begin)\s+(?:on|in|the|"
                           r"next|\d))", re.IGNORECASE | re.DOTALL)
#: A job called off: "turned it down", "the offer fell through", "they withdrew the offer".
_JOB_OFF = re.compile(r"\b(?:turned\s+(?:it|them|the\s+\w+)\s+down|turning\s+(?:it|them)\s+down|declined|rejected|"
                      r"(?:offer|job|it)\s+(?:fell\s+through|was\s+withdrawn|got\s+pulled)|withdrew|rescinded|"
                      r"(?:i|we)\s+said\s+no|counter-?offer|staying\s+(?:at|with|put)|not\s+(?:taking|going)\b|"
                      r"(?:didn['’]?t|won['’]?t|not)\s+take\s+(?:it|the\s+job))\b", re.IGNORECASE)
#: A start that is no job's: a child's, a class's, a course's, a gym's, one named at a place of its own ("first week
#: done at the gym", "Leo starts school… first day went great, he loved his teacher": an attacker's).
_NOT_A_JOB_START = re.compile(r"\b(?:school|teacher|class|classes|course|lesson|lessons|term|semester|uni|gym|pilates|"
                              r"yoga|volunteer\w*|holidays?|vacation|diet|kids?|son|daughter|baby)\b", re.IGNORECASE)
#: In the sentence of the start: someone else's, or a place of its own.
_ANOTHERS_START = re.compile(r"\b(?:he|she|they|his|her)\b|\b(?:started|began|first\s+(?:day|week|shift))\b"
                             r"[^.!?]*?\b(?:at|with|for|as)\s", re.IGNORECASE)
#: A start told by the speaker with no employer named: "started monday", "and monday i started!!", "first day was
#: friday!!!", "started on the 1st", "first week done" (not "started running", "started a course", "she started").
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_JOB_BEGUN = re.compile(
    r"(?:^\W*(?:(?:ok|okay|so|and|yes|yep|yeah|well|update|news)\W+)*|\bi\s+|\b" + _DAY + r"\s+i\s+)"
    r"(?:finally\s+|officially\s+|just\s+)?(?:started|began)(?=\s*(?:$|[.!,;)]|(?:on\s+(?:the\s+)?\d+(?:st|nd|rd|th)?|"
    r"on\s+" + _DAY + r"|(?:last|this)\s+(?:week|month|" + _DAY + r")|" + _DAY
    + r"|yesterday|today|lol|haha|omg|btw)\b))|"
    r"(?:^\W*|\b(?:my|and|so)\s+)first\s+(?:day|shift|week)\s+(?:was\s+(?:yesterday|today|" + _DAY + r"|on\b|good|"
    r"great|fine|ok|okay|amazing|intense|long|crazy|exhausting)|went\b|done\b|over\b|today\b|yesterday\b)|"
    # "first 2 weeks at Bial are done" (a new user's)
    r"(?:^\W*(?:(?:ok|okay|so|and|anyway|also|btw|well|update|news)\W+)*|\b(?:my|the)\s+)first\s+"
    r"(?:\d|two|three|four|couple\s+of|few)\s+(?:days|shifts|weeks)"
    r"(?:\s+at\s+[\w'’&-]+(?:\s+[\w'’&-]+){0,2})?\s+(?:are|were)\s+(?:done|over)\b",
    re.IGNORECASE)


def job_to_come(message: str) -> str | None:
    """The employer of a job the speaker says they got or will start, in a sentence of theirs that is no question,
    supposition, denial or report (see :data:`_JOB_TO_COME`, :data:`_NOT_A_PLAN`): "I got the job at Shopify!!
    start in march" (Shopify); None for "if I got the job at Shopify", "did you get the job at Shopify?"."""
    if (m := _JOB_ANSWERED.match(message)) and _employer(m["org"]):
        return m["org"].strip()
    for sentence in _SENTENCES.split(message):
        if (m := _JOB_TO_COME.search(sentence)) and not _NOT_A_PLAN.search(sentence):
            org = next(found for found in m.group("org", "begins", "offers") if found).strip()
            if _employer(org) and not (m["offers"] and " " not in org and not org.isupper()
                                       and not looks_organisational(org)):
                return org  # (one word that offered the job is as often the boss: "Javier offered me the job")
    return None


def _employer(name: str) -> bool:
    """Whether ``name`` may be an employer: no place, no word that is no name, no one's given name ("Javier offered me
    the job"), no relative ("to Grandma!!!") and no role ("The Manager"): an attacker's."""
    first = name.split()[0].lower()
    return not (name.lower() in NOT_NAMES or is_place(name) or first in ("the", "my", "our", "a", "an", "his", "her")
                or first in RELATIONS or (len(name.split()) == 1 and is_known_name(name)))


#: A job the speaker got, its employer not named: "I GOT THE JOB 🧪", "i got the job!!!!!" (not "got the job at X").
_JOB_GOT_UNNAMED = re.compile(rf"(?:^\W*|\b(?:i|we)\s+(?:just\s+|finally\s+)?)got\s+the\s+job\s*"
                              rf"(?=$|[!.,;:)]|[{EMOJI}])", re.IGNORECASE)  # the words end there: not "got the job
# done", "got the job interview"
#: The other's turn asking which employer, by name: "NO WAYYY. Bial??", "ALSTOM??".
_ASKED_WHICH = re.compile(r"(?:^|[.!,]\s*)(?P<org>[\w'’&-]+(?:\s+[\w'’&-]+){0,2})\s*\?+\W*$")


def job_got_unnamed(message: str) -> bool:
    """Whether ``message`` tells the speaker got the job with no employer named (see :data:`_JOB_GOT_UNNAMED`), in no
    question or supposition."""
    return any(_JOB_GOT_UNNAMED.search(s) and not _NOT_A_PLAN.search(s) for s in _SENTENCES.split(message))


def employer_confirmed(message: str, previous: str) -> str | None:
    """The employer the other asked of by name ("Bial??") that ``message`` opens by saying back ("Bial!!! they called
    me on monday. I start on the 1st of September", a new user's; "alstom!! commissioning technician, start 12 april",
    d16), telling a start: after a job got and not named, it is that job's employer."""
    asked = _ASKED_WHICH.search(previous)
    if asked is None:
        return None
    org = asked["org"].strip()
    said = re.match(rf"\W*{re.escape(org)}\s*!", message, re.IGNORECASE)
    rest = message[said.end():] if said else ""
    if said is None or not re.search(r"(?:^|[.!,]\s*|\bi\s+)(?:start|starting|begin|beginning)\s+(?:on|in|the|next|"
                                     r"this|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d)", rest,
                                     re.IGNORECASE) or _NOT_A_PLAN.search(rest) or _JOB_OFF.search(message) or \
            re.search(r"\b(?:he|she|they)(?:['’]ll|\s+will|\s+is|['’]s|\s+are|['’]re)?\s+(?:start|begin)", rest,
                      re.IGNORECASE) or all(
                plain_english(w) for w in org.lower().split()):
        return None  # not a start told, a question, a denial, a job turned down, someone else's start, or words of
        # English said back ("Remote!!", "Part time!!": an attacker's)
    spelt = [message[said.start():said.end()].strip(" \t\n!").strip(), org]  # as typed in mixed case, else title case
    name = next((n for n in spelt if not n.isupper() and not n.islower()), org.title())
    return name if _employer(name) else None


def job_called_off(message: str) -> bool:
    """Whether ``message`` calls a job off ("I turned it down", "the offer fell through")."""
    return _JOB_OFF.search(message) is not None


#: "first 2 weeks at Bial are done": where the weeks were spent, which must be the job's.
_FIRST_WEEKS_AT = re.compile(r"\bfirst\s+(?:\d|two|three|four|couple\s+of|few)\s+(?:days|shifts|weeks)\s+at\s+"
                             r"(?P<at>[\w'’&-]+(?:\s+[\w'’&-]+){0,2}?)\s+(?:are|were)\b", re.IGNORECASE)


def begun_elsewhere(message: str, employer: str) -> bool:
    """Whether the days ``message`` tells begun were spent somewhere other than at ``employer`` ("first 3 days at
    Disneyland were over so fast", "first two weeks at home are done": an attacker's)."""
    return any(not _the_employer(m["at"], employer) for m in _FIRST_WEEKS_AT.finditer(message))


def job_begun(message: str, employer: str | None = None) -> bool:
    """Whether ``message`` tells the speaker's start at a job, with no employer, as gone by (see :data:`_JOB_BEGUN`):
    "started monday. it's grand so far", "first day was friday!!!"; not in a question, a supposition or a denial.
    The ``employer`` of a job to come may be said by a word of its name: "first day at the hospital done" (Hospital
    da Luz; a new user's)."""
    if employer is not None:
        message = _FIRST_AT.sub(lambda m: m[1] if _the_employer(m["at"], employer) else m[0], message)
    return not _NOT_A_JOB_START.search(message) and any(
        _JOB_BEGUN.search(s) and not _NOT_A_PLAN.search(s) and not _ANOTHERS_START.search(s)
        for s in _SENTENCES.split(_AS_I_SAID.sub("", message)))


#: "first day at the hospital", "first week at work": the days begun and where.
_FIRST_AT = re.compile(r"(\bfirst\s+(?:day|shift|week))\s+at\s+(?P<at>(?:the\s+)?(?:new\s+)?[\w'’&-]+)", re.IGNORECASE)
#: Where a job is, said without its name: "at work", "at the new job", "at the office".
_THE_JOB = frozenset("work job office".split())  # (not "the new place": a home as often)
#: A place of the days begun said in a word: "work", "the hospital", "the new office".
_ONE_PLACE_WORD = re.compile(r"(?:(?P<the>the)\s+)?(?:new\s+)?(?P<word>[\w'’&-]+)", re.IGNORECASE)


def _the_employer(at: str, employer: str) -> bool:
    """Whether ``at`` is ``employer`` by its name, by a word of its name after "the" ("the hospital": Hospital da
    Luz) or by a word any job is ("work", "the office")."""
    if at.casefold() == employer.casefold():
        return True
    m = _ONE_PLACE_WORD.fullmatch(at.strip())
    word = m["word"].casefold() if m else ""
    return word in _THE_JOB or bool(m and m["the"] and len(word) > 3 and word in employer.casefold().split())


#: "as I said", "like i said": the speaker's own words recalled, no one else's reported.
_AS_I_SAID = re.compile(r"\b(?:as|like)\s+i\s+said\b\W*", re.IGNORECASE)


def move_called_off(message: str) -> bool:
    """Whether ``message`` calls a move off ("the move is off, we're staying in madrid")."""
    return _CALLED_OFF.search(message) is not None


#: Where a message says the speaker is, opening a sentence: "greetings from Otaru!", "We are in Qamsar!" (a name
#: written with a capital).
_HERE_NOW = re.compile(r"(?:^|(?<=[.!?,])\s*)(?:" + GREETED_FROM + r"|(?:we|i)(?:['’]re|['’]m|\s+are|\s+am)\s+"
                       r"(?:now\s+|finally\s+|officially\s+)?in)\s+(?P<place>(?-i:[A-Z])[\w'’-]+"
                       r"(?:\s+(?-i:[A-Z])[\w'’-]+){0,2})", re.IGNORECASE)


def here_now(message: str) -> str | None:
    """The place a message says the speaker is at, greeting from it or being in it ("greetings from Otaru!", "We are
    in Qamsar!"): a name written with a capital, no word of another kind ("We are in Love")."""
    m = _HERE_NOW.search(message)
    if m is None or (first := m["place"].split()[0].lower()) in NOT_NAMES | COMMON_WORDS:
        return None
    return m["place"] if is_town(m["place"]) or not plain_english(first) else None  # (not "We're in Shock", "in
    # Hospital", "in Limbo": a reviewer's)


def move_planned(message: str) -> str | None:
    """The place the speaker says they are moving to, in a sentence of theirs that plans it ("i'm moving
    to valencia in september") or tells a home or a job they found there ("we found a house in
    mérida!"), not asked, supposed, denied or reported ("should i move to valencia?", "if i got a job
    in Sydney", "Ana said: i'm moving…"): a place list knows it, or it is written with a capital."""
    for m in [*_MOVING.finditer(message), *_SETTLING.finditer(message), *_ROOMS_IN.finditer(message),
              *_SIGNED.finditer(message)]:
        opens = max(message.rfind(end, 0, m.start()) for end in ".!?\n") + 1
        closes = min((i for i in (message.find(end, m.end()) for end in ".!?\n") if i >= 0), default=len(message))
        if _NOT_A_PLAN.search(message[opens:closes + 1]):
            continue
        if m.lastgroup == "before" and not re.search(r"\b(?:i|my|we|our)\b", message[:m.start()], re.IGNORECASE):
            continue  # "Ana decided. Valencia. Moving in January": whose move, the words do not say
        place = m[m.lastgroup or "place"].strip()  # the one place group that matched
        if is_town(place) or (place[:1].isupper() and place.lower() not in NOT_NAMES):
            return place
    return None


def _whole(phrase: str, text: str) -> re.Match[str] | None:
    """Where ``text`` first says ``phrase`` whole, no word joined to it on either side (any case)."""
    return re.search(rf"(?<![\w'’-]){re.escape(phrase)}(?![\w'’-])", text, re.IGNORECASE)


def _after_group(message: str, group: str) -> str | None:
    """What the message says after a group it calls by its noun ("running club", lower case, a noun of
    :data:`GROUPS` last); None for a group named otherwise or not said."""
    if not group.islower() or group.split()[-1] not in GROUPS:
        return None
    at = _whole(group, message)
    return None if at is None else message[at.end():]


#: The words of its amateur members that end a club's own name: "Meanwood Valley Runners", "Leeds City Harriers".
_CLUB_HEADS = frozenset("""runners harriers striders joggers ramblers walkers hikers cyclists wheelers swimmers singers
chorus""".split())
#: Words that end a group's own name ("Envigado Runners", "Grådyb FC", "the Blackrock Bluetits" aside).
_GROUP_HEADS = GROUPS | _CLUB_HEADS | frozenset("""runner harrier fc afc rfc cc hc bc ladies united rovers athletic
athletics riders players divers""".split())


#: A club's own name, capitalised, ending in a word of its amateur members (:data:`_CLUB_HEADS`; not "riders" nor
#: "players": a delivery job, a team one works with; not a football club's letters, "FC", "Rovers", "Athletic", nor
#: "CC", a county council: as often an employer, a reviewer's).
_NAMED_CLUB = re.compile(r"\s*(?:the\s+)?(?P<name>(?-i:[A-ZÀ-Þ])[\w'’&-]*(?:\s+(?-i:[A-ZÀ-Þ])[\w'’&-]*){0,3}"
                         r"\s+(?P<head>(?-i:[A-ZÀ-Þ])[\w'’-]*))(?=\s*$|[,.!?;:)]|\s+(?-i:(?![A-ZÀ-Þ])))", re.IGNORECASE)
#: Words after a club's name that make the joining a job: "I joined Leeds Harriers as head coach", "as their sound
#: engineer, a paid job" (a reviewer's).
_EMPLOYED = re.compile(r"\bas\s+(?:a|an|the|their|its|our|head|assistant|chief|lead|senior|junior)\b|\b(?:job|jobs|"
                       r"hired|paid|salary|employed|staff|contract)\b", re.IGNORECASE)


def group_named(message: str, group: str) -> str | None:
    """The name the message gives a group it first calls by its noun: "i joined a running club lol,
    Triana Runners" -> "Triana Runners"; "a choir called Voces" -> "Voces". None when the group's noun
    is not said, or what stands beside it is a person, a place or a day ("a choir. Anna says…")."""
    if (after := _after_group(message, group)) is None:
        return None
    m = _GROUP_BESIDE.match(after) or _GROUP_CALLED.match(after)
    if m is None:
        return None
    name = m["name"]
    words = [w.lower().rstrip(".") for w in name.split()]
    if m.re is _GROUP_BESIDE and not m["the"] and len(words) < 2:
        return None  # "I joined a gym. Sore", "a surf group. Bondi!": one word alone is anything
    if m.re is _GROUP_BESIDE and re.match(rf"\s*[{EMOJI}]", after) and words[-1] not in _GROUP_HEADS and \
            re.sub(r"['’]s$", "", words[-1]) not in _GROUP_HEADS:
        return None  # after an emoji, a reaction as often as a name: "😤 Too Much Drama.", "🎸 The Rolling Stones."
    if words[0] in NOT_NAMES or words[0] in _TITLES or any(w in _NOT_A_GROUP for w in words) or is_place(name) or (
            len(words) == 1 and is_known_name(name)) or _UNSURE_NAME.match(after, m.end()):
        return None  # "At the Legion", "Mrs Folake Bankole", "Every Tuesday", "called Bergen Havpadling or something"
    return name


#: A capitalised name (or a quoted one) set off by commas, or ending the sentence, after the group's noun: "a
#: walking group in February, Caminhantes da Foz, we walk", "the football club here, Grådyb FC, the old boys
#: team", "a women's climbing group, wednesdays, "Klifurkonur"."
_SET_OFF_NAME = re.compile(r",\s+(?:(?P<name>[A-ZÀ-Þ][\w'’-]*(?:\s+(?:[A-ZÀ-Þ][\w'’-]*|da|de|do|dos|das|del|la|le|of|"
                           r"the))*)|[\"“](?P<quoted>[^\"”\n]{2,40})[\"”])\s*(?:[,.!]|$)")


def _named_later(noun: str) -> re.Pattern[str]:
    """The message's own group named by its noun: "the team is called fc naniwa", "our choir's called Voces",
    "the team is Atlas Stars" (two capitalised words at least: "the team is Irish" is no name)."""
    return re.compile(rf"\b(?:the|our)\s+{re.escape(noun)}(?:\s+(?:is|was)|['’]s)\s+(?:(?:called|named)\b|"
                      r"(?-i:[A-ZÀ-Þ][\w'’-]*\s+[A-ZÀ-Þ]))", re.IGNORECASE)


#: A later sentence of the message opening on a capitalised name that ends in a group's word: "… the Coloane Trail
#: Crew, mostly expats".
_NAMED_SENTENCE = re.compile(r"(?:^|[.!?]\s+)(?:the\s+)?(?-i:[A-Z])[\w'’&-]*(?:\s+(?-i:[A-Z])[\w'’&-]*){0,3}?"
                             r"\s+(?P<head>(?-i:[A-Z])[\w'’-]+)(?=\s*(?:$|[,.!;:]))", re.IGNORECASE)


def group_named_unread(message: str, group: str) -> bool:
    """Whether the message gives a group it first calls by its noun (as :func:`group_named` reads one) a
    name :func:`group_named` does not read: further on, by its noun ("i joined a futsal team!! … the team
    is called fc naniwa", "the team is Atlas Stars"), or set off by commas after it, capitalised or in
    quotes ("a walking group in February, Caminhantes da Foz, we walk …"). A membership of the noun then
    waits for review: the annotators record such a group by its name (on the dev chats 5 of 5 such
    memberships written by the noun were wrong, in four arrivals). Not a quote elsewhere (a song, a book,
    someone's words), not "it's called" (a dog, an app, a session), not another group's name ("my mum's
    choir is called …")."""
    if (after := _after_group(message, group)) is None:
        return False
    if _named_later(group.split()[-1]).search(after) or _lower_case_name(after):
        return True
    if any(m["head"].lower() in _GROUP_HEADS | _VAGUE_GROUPS for m in _NAMED_SENTENCE.finditer(after)):
        return True  # "a running group. trail running, in the Coloane hills. the Coloane Trail Crew, mostly expats"
    sentence = re.split(r"(?<=[.!?])\s", after, maxsplit=1)[0]
    for m in _SET_OFF_NAME.finditer(sentence):
        if m["quoted"]:
            return True
        words = m["name"].split()
        if words[0].lower() not in _NOT_A_GROUP and words[0].lower() not in _TITLES and not (
                len(words) == 1 and is_known_name(words[0])) and not is_place(m["name"]):
            return True
    return False


#: Right after a group's noun, a few words set off by a stop or a comma and ending there (or at "on", "in"…): "a
#: dive club! red sea divers. we go out …", "the football team. kautokeino il.", "a walrus club, morsy orłowo.",
#: "the sailing club here! the cholpon-ata yacht club."
_SET_OFF_WORDS = re.compile(r"^(?:\s+(?:here|there))?\s*[!.,:;]+\s*(?P<words>(?:the\s+)?[^\W\d_][\w'’-]*"
                            r"(?:\s+[\w'’-]+){0,3}?)\s*(?:$|[.!,;:]|\s(?:on|in|at|near|by)\s)")


def _lower_case_name(after: str) -> bool:
    """Whether what follows a group's noun is its name in lower case, as people type it ("red sea divers",
    "kautokeino il", "crux collective"): a few words set off by a stop or a comma, ending in a group's word
    ("divers", "harriers", "club") or holding a word that is no plain English word ("kautokeino"), and none of the
    words a reaction or a description is made of: a pronoun, a number, a word of grammar ("wish me luck", "loving
    it", "as goalie", "five a side", "couch to 5k"). (On the dev chats, 5 memberships written by the noun where
    such a name followed were wrong, in five chats; the annotators record the name.)"""
    if (m := _SET_OFF_WORDS.match(after)) is None:
        return False
    words = [w.lower().strip("'’") for w in m["words"].split()]
    words = words[1:] if words[0] == "the" and len(words) > 1 else words
    if any(w in PRONOUNS or w in COMMON_WORDS or w in _NOT_A_GROUP or w.rstrip("s") in _NOT_A_GROUP or
           any(ch.isdigit() for ch in w) or w in _REACTIONS for w in words) or words[0] in _TITLES or (
            len(words) == 1 and is_known_name(words[0])) or is_place(" ".join(words)):
        return False
    if words[-1] in ACTIVITIES or words[-1].endswith("ing") or words[-1] in ("dance", "dances", "country"):
        return False  # what the group does: "k-pop cover dance", "folk dancing", "cross country"
    return words[-1] in _GROUP_HEADS or not all(plain_english(w) for w in words)


#: Words of a reaction or a description after news: "lol", "ouch", "mostly grannies".
_REACTIONS = frozenset("lol haha hahaha lmao omg ouch yay wow ugh oops yikes mostly mainly all lots loads full "
                       "bunch".split())


def activity_of_group(group: str) -> str | None:
    """The activity a club or team is for ("running club" -> running), when its words name one."""
    words = [w.lower() for w in group.split()[:-1]]
    words = [HABIT_VERBS.get(w, w) if i == len(words) - 1 else w for i, w in enumerate(words)]  # "surf lessons"
    found = [w for i, w in enumerate(words) if w in ACTIVITIES and (w not in LANGUAGES or i == len(words) - 1)]
    return found[-1] if len(found) == 1 else None  # a language only right before the group's noun: not "thai massage"


#: Words before "lessons" or "classes" that say when, where or how they are, not what: "evening classes", "my first
#: lessons", "online classes".
_LESSONS_HOW = frozenset(
    "evening evenings night morning afternoon weekend weekly daily online zoom private group extra first new more "
    "last next summer winter spring autumn fall adult adults beginner beginners beginner's beginners' free few some "
    "all these those the my our his her their your school college uni university class course night-school "
    "life hard weekday weekdays trial taster intensive refresher crash toddler baby babies kids children teen "
    "teenage in-person catch-up".split())
#: How an adjective often ends ("prenatal", "remedial", "intensive", "introductory"): no pastime of its own.
_ADJECTIVE_ENDS = ("al", "ive", "ory", "ly", "ed", "ing")


def lessons_of(found: str) -> str | None:
    """What lessons or classes no list of activities knows are of, when one word names it: "kaqchikel classes" ->
    kaqchikel, "lyra lessons", "driving lessons" (as the chats' annotators record them); not "evening classes", "my
    first lessons", a name ("Anna's classes"), a course ("a barista course": studies) nor a class named by a word of
    English ("a computer class": as often a group joined, so the annotators)."""
    if (activity := activity_of_group(found)) is not None:
        return activity  # "a pottery class" -> pottery
    words = found.split()
    first = words[0].lower()
    if len(words) != 2 or first in _LESSONS_HOW or first in NOT_NAMES or not re.fullmatch(r"[^\W\d_][\w-]*", first) \
            or (first.endswith(_ADJECTIVE_ENDS) and first != "driving") or (
            words[0][:1].isupper() and first not in LANGUAGES and is_known_name(words[0])):
        return None  # ("saturday lessons", "prenatal classes", "refresher lessons": when or how, not what)
    if words[1].lower().startswith("course") or not words[1].lower().startswith("lesson") and plain_english(
            words[0].lower()):
        return None  # "a barista course", "the safety course", "a computer class": a thing studied, or a group
    return words[0]


_REALISED = re.compile(r"\b(?:decided|realised|realized|learned|learnt|found\s+out|know\s+now)\s+(?:that\s+)?")
#: "running is not for me", "I've decided camping isn't my thing": a distaste.
_NOT_FOR_ME = re.compile(
    rf"(?:^\W*(?:(?:anyway|honestly|ok|okay|so|well|yeah|lol|turns\s+out)\W+)*|[,;:]\s*|{_REALISED.pattern})(?P<obj>[\w'’-]+(?:\s+[\w'’-]+){{0,2}}?)\s+"
    rf"(?:isn{_A}t|wasn{_A}t|(?:is|was|{_A}s)\s+(?:just\s+|really\s+|definitely\s+)?not)\s+(?:really\s+)?"
    rf"(?:for\s+me|my\s+thing|my\s+cup\s+of\s+tea)\b", re.IGNORECASE)


def not_for_me(sentence: str) -> str | None:
    """What a sentence says the speaker finds is not for them ("running is not for me" ->
    running); None when it is hedged ("I think golf isn't for me") or is no clean noun phrase."""
    m = _NOT_FOR_ME.search(sentence)
    if m is None or HEDGE_BEFORE.search(sentence, 0, m.start("obj")):
        return None
    obj = _REALISED.split(m["obj"])[-1]
    return obj if clean_taste(obj) and obj.split()[0].lower() not in ("a", "an") else None


_IT = re.compile(r"^\s*(?:it|that|them|those|this)\b(?=\s*(?:$|[.!,;]|so\s+much|a\s+lot|too|tbh|lol|haha))",
                 re.IGNORECASE)
_ASKED = re.compile(
    r"\b(?:do|did|have|would|are|were)\s+(?:you|u|ya)\s+(?:ever\s+)?(?:\w+\s+)?(?:like|love|enjoy|tried|try|into|"
    r"play|do|been\s+to|watch|listen\s+to|read)\s+(?P<obj>[\w'’ &-]+?)\s*\?", re.IGNORECASE)


def resolve_pronoun(rest: str, previous: str | None) -> str | None:
    """The thing "it"/"that" at the start of ``rest`` stands for, when the turn before asked
    about exactly one ("do you like jazz?" - "I love it") ; None otherwise."""
    if previous is None or not _IT.match(rest):
        return None
    asked = list(_ASKED.finditer(previous))
    if len(asked) != 1:
        return None
    obj = asked[0]["obj"].strip()
    return obj if clean_taste(obj) else None


_THANKS = r"(?:thanks|thank\s+(?:you|u)|ty|thx)\s+(?:so\s+much\s+|again\s+)?for\s+"
#: "thank you for coming up for my birthday": the other participant was at the event.
_CAME = re.compile(_THANKS + r"coming\s+(?:(?:up|down|over|along|back|all\s+the\s+way(?:\s+(?:up|down|over))?)\s+)?"
                   r"(?:to|for)\s+(?=(?:my|our|the)\s)", re.IGNORECASE)
#: "congrats on the new puppy!": the other participant has it now.
_CONGRATS = re.compile(r"\b(?:congrats|congratulations|congrats\s+again)\s+on\s+(?=(?:the|your|ur)\s)", re.IGNORECASE)


def of_the_other(sentence: str) -> list[tuple[str, str]]:
    """(predicate, object) the speaker's thanks or congratulations state about the other
    participant: "thanks for coming to my birthday" (attended birthday), "congrats on the new
    puppy!!" (has_pet puppy). Nothing for a question or a plan ("congrats on the job, when
    do you start?" still says the job is theirs; "thanks for coming tomorrow" names no event)."""
    if (came := _CAME.search(sentence)) and (event := everyday(sentence[came.end():], EVENTS, EVENT_PAIRS)):
        return [("attended", event)]
    if congrats := _CONGRATS.search(sentence):
        rest = re.sub(r"^(?:your|ur)\s", "", sentence[congrats.end():], flags=re.IGNORECASE)
        for predicate, nouns, pairs in (("has_pet", PETS, PET_PAIRS), ("owns", POSSESSIONS, frozenset())):
            if found := everyday(rest, nouns, pairs):
                return [(predicate, found)]
        job = re.match(r"(?:the\s+)?(?:new\s+)?(?:job|role|position)\s+(?:at|with)\s+", rest, re.IGNORECASE)
        if job and (employer := proper_name(rest[job.end():])) and not employer.endswith(("'s", "’s")):
            return [("works_at", employer)]  # "congrats on the new job at Acme!"
    return []


#: "got her on friday", "adopted him from the shelter": the pronoun is the pet, not "got her a present".
_PET_PRONOUN = re.compile(r"^\s*(?:him|her|them)\b(?:\s+up\b)?"
                          r"(?=\s*(?:$|[.!,;)]|home|from|back|at\b|in\b|lol|haha|x+\b))",
                          re.IGNORECASE)
_PET_WORD = re.compile(r"[\w'’-]+")
_GENERIC_PETS = frozenset("dog dogs puppy puppies pup doggo cat cats kitten kittens kitty".split())
#: Before an animal's word, where it came from, not what it is: "i got him from a shepherd in orgosolo", "from the
#: local shepherd" (but see :data:`_PLACE_OF_ANIMALS`).
_CAME_FROM = re.compile(r"\bfrom\s+(?:(?:a|an|the|some|this|that|my|our|his|her|their)\s+)?(?:[\w'’-]+\s+)?\Z",
                        re.IGNORECASE)
#: After an animal's word in a "from" phrase, a place that keeps such animals: the word says what the pet is ("from a
#: greyhound rescue", "the dog shelter", "a pug breeder": a reviewer's).
_PLACE_OF_ANIMALS = re.compile(r"\s+(?:rescues?|shelters?|breeders?|trust|sanctuary|farm|home|foster|protection|"
                               r"centre|center|charity|lady|people|litter)\b", re.IGNORECASE)


#: The words for a cat among :data:`_GENERIC_PETS`.
_CATS = frozenset(word for word in _GENERIC_PETS if word.startswith(("cat", "kitt")))
#: After a breed, a noun that makes it something else's: "the greyhound bus", "greyhound racing".
_BREED_OF = re.compile(r"\s+(?:bus|buses|coach|racing|race|races|track|stadium|station|movie|film|show|shows|"
                       r"breeder|breeders|owner|owners|people|club|t-?shirt|shirt|mug|calendar|poster)\b",
                       re.IGNORECASE)
#: What may open the clause that tells a pet's breed: "a", "she's a", "came home with a", "retired racing"; not
#: "wanted a", "not a", "the … across the road", "took the" (a bus), "our cat is a" (another animal).
_BREED_LEAD = re.compile(r"(?:(?:she|he|it)(?:['’]?s|\s+is)\s+|(?:(?:i|we)\s+)?(?:came\s+home\s+with|brought\s+home|"
                         r"adopted|got|picked)\s+)?(?:(?:a|an)\s+)?(?:(?:little|tiny|old|young|retired|racing|rescue|"
                         r"mini|miniature|big|huge|fluffy|black|white|brown|ginger|grey|gray|golden|border|french|german|"
                         r"english|cocker|springer|jack|russell|cross|lil)\s+){0,3}", re.IGNORECASE)
#: In the breed's sentence, a wish, a plan, a doubt or a denial: "maybe a beagle next year", "wanted a dachshund".
_NOT_GOT = re.compile(r"\b(?:maybe|wanted|want|wish|(?-i:hope|hoping)|thinking|would|might|next|not|no|never|"
                      r"instead|allergic|fostering)\b", re.IGNORECASE)  # (not "Hope Rescue", a shelter)


def breed_beside(pet: str, rest: str) -> str | None:
    """The breed the message names after a pet it first calls by its kind: "i adopted a dog on wednesday!!!
    retired racing greyhound, her name is Mewa" -> greyhound; "I've got a dog. A rescue. … came home with a
    lurcher" -> lurcher; "a dog on saturday, she's a greyhound". The annotators record the breed where both
    are told (7 of 7 on the dev chats, six arrivals). The breed opens its own clause, after an article, a few
    words that describe a dog or a cat, "she's" or "came home with" (:data:`_BREED_LEAD`), and is of the kind
    (no dog's breed for a cat); None where another animal is named first, or the breed's sentence wishes, plans,
    doubts, denies or asks (an attacker's: "our cat is a siamese", "wanted a dachshund", "took the greyhound
    bus", "the pug across the road", "maybe a beagle next year")."""
    if pet.lower() not in _GENERIC_PETS:
        return None
    if (at := _whole(pet, rest)) is None:
        return None
    is_cat = pet.lower() in _CATS
    after = rest[at.end():at.end() + 200]
    lowered = after.lower()
    for m in _PET_WORD.finditer(after):
        said = m.group().lower()
        pair = next((p for p in BREED_PAIRS if lowered.startswith(p, max(0, m.end() - len(p)))), None)
        if pair is None and (said not in PETS or (said in _GENERIC_PETS and (said in _CATS) == is_cat)):
            if said.rstrip("s") in BREEDS:
                return None  # "labradors are the best": the breed said of all of them
            continue  # "a dog. a rescue dog", said again
        breed = pair or said
        if breed not in BREEDS and breed not in BREED_PAIRS or (breed.replace(" ", "-") in CAT_BREEDS) != is_cat:
            return None  # "a dog and a hamster", "a dog! our cat is …": another animal
        start = m.end() - len(breed)
        clause = re.split(rf"[.!?,;:()\n—–{EMOJI}-]|\band\b", after[:start])[-1]
        sentence = re.split(r"(?<=[.!?])\s", after[:start])[-1] + after[start:].split(".")[0]
        if _BREED_LEAD.fullmatch(clause.strip() + " " if clause.strip() else "") is None or _NOT_GOT.search(
                sentence) or _BREED_OF.match(after, m.end()) or re.match(r"[^.!]*\?", after[m.end():]):
            return None  # "wanted a dachshund", "took the greyhound bus", "a dog. do you like labradors?"
        return breed
    return None


def pet_meant(rest: str, said: str, previous: str | None) -> str | None:
    """The pet "him"/"her" stands for in "I adopted her last saturday": the one kind of animal
    named in the message or the turn before ("its a DOG. a greyhound!!" -> greyhound, the breed
    over the kind), not where it came from ("from a shepherd"); None when none or two are named, or the
    pronoun is someone given something."""
    if not _PET_PRONOUN.match(rest):
        return None
    named: set[str] = set()
    for text in (said, previous or ""):
        for m in _PET_WORD.finditer(text):
            word = m.group()
            if word[0].isupper() and not word.isupper() and m.start() > 0 and text[m.start() - 2:m.start()].strip() \
                    not in ("", ".", "!", "?"):
                continue  # "the Cats Protection": a name, not an animal
            if _CAME_FROM.search(text[:m.start()]) and not _PLACE_OF_ANIMALS.match(text, m.end()):
                continue  # "got him from a shepherd": who gave it
            if word.lower() in PETS:
                named.add(word.lower())
    specific = named - _GENERIC_PETS
    if len(specific) == 1:
        return next(iter(specific))
    return next(iter(named)) if len(named) == 1 else None


#: A partner word of the family vocabulary, and the fact of the couple it states.
_COUPLES = {predicate_of(word): couple for word, couple in (
    ("boyfriend", "dating"), ("girlfriend", "dating"), ("partner", "dating"), ("husband", "married_to"),
    ("wife", "married_to"))}


_WITH = re.compile(r"\bwith\s+(?:my\s+(?:[\w'’-]+\s+)?(?:friend|mate|pal|buddy|sister|brother|cousin|"
                   r"girlfriend|boyfriend|partner|wife|husband)\s+)?(?=[A-Z])")


#: A day or a month, no companion's name ("with Monday"), or said after one ("with Ana on Monday").
_DAYS = re.compile(r"\b(?:" + _DAYS_AND_MONTHS + r")\b")
#: Words written with a capital after "with" that are no one: "went to the concert with Work".
_NO_COMPANIONS = frozenset("work school uni college class church everyone everybody friends family mates people "
                           "them us".split())
_DAY_AFTER = re.compile(r"\s+(?:on|in|at|this|last|next)\s+(?:" + _DAYS_AND_MONTHS + r")\b.*$")


def companions(after: str, known: tuple[str, ...], given: bool = False) -> list[str]:
    """The people named after "with" in the rest of a clause ("went to the Games with Isa"),
    who were there too; not places or organisations, nor those already its subject, nor a word or a day ("with Work",
    "with Mark on Monday"); with ``given``, only a given name the names data knows (after a trip: "flew to Rome with
    Ryanair")."""
    m = _WITH.search(after)
    if m is None or re.match(r"\s*\S+\s+in\s+mind\b", after[m.end():], re.IGNORECASE):
        return []  # "with Tom in mind"
    found = [_DAY_AFTER.sub("", name) for name in people(after[m.end():])]  # "with Ana on Monday": Ana
    return [name for name in found if name and not is_place(name) and name not in known
            and not re.search(r"['’](?:s\b|\s|$)", name)  # "with Aino's brother", "Chris' dad": someone unnamed
            and all(w[:1].isupper() for w in name.split()) and not _DAYS.search(name)  # not "with Monday"
            and (is_known_name(name.split()[0]) if given else name.casefold() not in NOT_NAMES | _NO_COMPANIONS)]


def couples(relations: list[ExtractedFact]) -> list[ExtractedFact]:
    """"my girlfriend Priya", "Ailsa is my girlfriend": the speaker is dating Priya; "your wife
    Jo": the other participant is married to Jo. Only for a partner named, never for an entity
    held for one unnamed ("Maya's wife")."""
    return [ExtractedFact(subject=f.object, predicate=_COUPLES[f.predicate], object=f.subject, quote=f.quote)
            for f in relations if f.op == "assert" and f.predicate in _COUPLES and f.object
            and f.subject != placeholder(f.object, relation_of(f.predicate) or "")]


_SCHOOL = re.compile(r"\s*(?:the\s+)?([a-z][\w'’-]*\s+(?:uni|university|college)|"
                     r"(?:uni|university)\s+of\s+[a-z][\w'’-]*)\b")


def lowercase_school(rest: str) -> str | None:
    """A school typed in lowercase, known by its word ("glasgow uni", "university of leeds")."""
    m = _SCHOOL.match(rest)
    return m.group(1) if m and m.group(1).split()[0] not in ("a", "my", "your", "our", "his", "her") else None


#: "DEV PROPOSED", "Tom proposed last night!!": a name opening the sentence, nothing proposed after it.
_PROPOSED = re.compile(r"^\W*(?:omg\W+|so\W+|guess\s+what\W+)?(?P<name>[A-Z][\w'’-]*)\s+(?:just\s+|finally\s+)?"
                       r"(?i:proposed)(?:\s+to\s+me)?(?=\s*(?:$|[.!,]|last\b|yesterday\b|today\b|tonight\b|this\b|on\b|"
                       r"lol\b|omg\b|😭|🥹|💍))", re.IGNORECASE)


def proposed(sentence: str) -> str | None:
    """Who proposed to the speaker ("DEV PROPOSED", "Tom proposed last night!!"): the speaker is
    with them; None for "Tom proposed a toast", "he proposed", a question."""
    m = _PROPOSED.match(sentence)
    if m is None or not m["name"][0].isupper() or m["name"].lower() in NOT_NAMES or m["name"].lower() in PRONOUNS:
        return None
    return m["name"].capitalize() if m["name"].isupper() and len(m["name"]) > 1 else m["name"]


_ACTIVITY = "|".join(sorted((re.escape(a) for a in ACTIVITIES), key=len, reverse=True))
_GROUP = "|".join(sorted((re.escape(g) for g in GROUPS), key=len, reverse=True))
#: "pottery is going great", "my running's going well": how one's own activity goes.
_GOING = re.compile(rf"^\W*(?:(?:also|and|oh|so|ok|anyway|update)\W+)*(?:my\s+)?(?P<activity>{_ACTIVITY})"
                    r"(?:\s+is|['’]s)\s+going\s+(?:really\s+|so\s+|pretty\s+)?(?:great|well|good|ok|okay|fine|brilliantly|amazing)\b",
                    re.IGNORECASE)
#: "choir practice at 11", "band rehearsal tonight": one's group meets; "football practice": one plays.
_PRACTICE = re.compile(rf"(?:^|[.!,;]\s*|\b(?:my|our|have|got|at|to|from)\s+)(?P<what>{_GROUP}|{_ACTIVITY})\s+"
                       r"(?:practice|practise|rehearsal|training)\b", re.IGNORECASE)


_WHO = r"(?P<who>i|we|he|she|(?-i:[A-Z])[\w'’-]+(?:\s+(?:and|&)\s+(?-i:[A-Z])[\w'’-]+)?)"
_PLACE_WORDS = r"(?P<place>(?-i:[A-Za-z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+){0,2})"
#: Where someone is now settled, said with "now", "still", "these days", "since" or a stay of years:
#: "lucas is in lisbon now", "Siobhán is in Dublin still", "she's been in Oguaa 10 years".
_SETTLED = re.compile(
    rf"(?:^|[.!;,]\s*|\b(?:and|but|so|oh|btw|well|anyway|yeah|yes)\s+){_WHO}"
    rf"(?:(?:{_A}(?:m|s|re)|\s+(?:am|is|are))\s+(?:(?:still|now|all|finally|happily)\s+)*"
    rf"(?:(?P<been>been\s+)|(?:settled|living|based)\s+)?|(?:{_A}ve|{_A}s|\s+have|\s+has)\s+(?P<lived>been\s+))"
    rf"in\s+{_PLACE_WORDS}"
    rf"(?:,?\s+(?:still|now|these\s+days|for\s+good|since)\b"
    rf"|(?(been)|(?(lived)|(?!)))\s+(?:for\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|many|"
    rf"a\s+few)\s+years\b)",
    re.IGNORECASE)
#: What makes being somewhere a stay, not a home: "I'm in Paris now for the conference", "still, the
#: flight got cancelled", "since Monday", "back Sunday".
_ONLY_STAYING = re.compile(
    r"\b(?:for\s+(?:the|a|an|two|three|four|five|\d+|few|couple|this|that)\b(?!(?:\s+\w+)?\s+years\b)|until|till|til|back\s+(?:on\s+)?"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|back\s+(?:home\s+)?(?:tomorrow|next|on|in|at)|flying|flight|"
    r"trip|holiday|hols|vacation|conference|visiting|visit|cancelled|canceled|delayed|traffic|hotel|airport|"
    r"since\s+(?:this\s+morning|yesterday|last\s+night|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d+\s*(?:am|pm))|"
    r"days?|nights?|weeks?|weekend)\b", re.IGNORECASE)
#: Capitalised words after "in" that name no town: where one is, works or feels.
_NOT_PLACES = frozenset("hospital bed year grade class school uni college work town love charge trouble labour "
                        "labor recovery rehab quarantine isolation prison jail pain heaven hell shock bits tears "
                        "finance sales accounts reception marketing hr it admin zoom teams slack".split())


def told_as_visit(message: str) -> bool:
    """Whether ``message`` tells a visit or a stay where it is written from ("here for a conference", "to look
    at flats", "we're in Rome now!! back Sunday"), not a home."""
    return _VISITING.search(message) is not None or only_staying(message)


def only_staying(message: str) -> bool:
    """Whether a message tells a stay somewhere, not a home ("we're in Rome now!! back Sunday")."""
    return bool(_ONLY_STAYING.search(message))


def settled(sentence: str, staying: bool) -> list[tuple[str, str, int, bool]]:
    """Who is said to live where now, by the words naming them ("I", "she", "Paddy and Dana"), the
    place, where the words after it begin (for "since …"), and whether a stay of years says so (else
    "now" or "still" may yet be a trip: for review): "Paddy and Dana are in New York now" ->
    [("Paddy and Dana", "New York", 30, False)]. A place the gazetteer knows, or a capitalised name that
    is no organisation's and no word of the list above; nothing where the message the sentence is
    from tells a stay (``staying``, from :func:`only_staying`: "now for the conference", "still, the
    flight got cancelled", "we're in Rome now!! back Sunday"), or in reported speech ("Tom just
    texted: I'm in Leeds now")."""
    if staying:
        return []
    out = []
    for m in _SETTLED.finditer(sentence):
        place = m["place"]
        named = place[:1].isupper() and not place.isupper() and not looks_organisational(place) \
            and place.split()[0].lower() not in NOT_NAMES | _NOT_PLACES
        if not (is_town(place) or named) or HEDGE_BEFORE.search(sentence, 0, m.start("who")):
            continue
        out.append((m["who"], place, m.end("place"), bool(m["been"] or m["lived"])))
    return out


#: The kind of pet an emoji draws (those kept at home: a snake, a tortoise or a horse drawn is as often a joke, an
#: attacker's "We adopted Python at work 🐍").
_PET_EMOJI = {"🐕": "dog", "🐶": "dog", "🦮": "dog", "🐩": "dog", "🐈": "cat", "🐱": "cat", "🐇": "rabbit",
              "🐰": "rabbit", "🐹": "hamster"}
#: A pet taken in by its name alone: "We adopted Lola today!!!", "finally brought Pickle home" (the kind an emoji says);
#: not "adopted Scrum at work", "rescued Pablo from that awful date".
_TAKEN_IN = re.compile(r"(?:^\W*|\b(?:we|i|I)\s+(?:just\s+|finally\s+|officially\s+)?)(?:adopted|rescued|brought\s+"
                       r"home)\s+(?P<name>(?-i:[A-Z])[a-z]+)(?:\s+home)?\b(?!\s+(?-i:[A-Z]))(?!\s+(?:at|from|for|to|"
                       r"into|with|in|on)\b)", re.IGNORECASE)


#: A pet introduced by its name and its emoji: "meet Bran 🐶 hes a collie" (a new user's), "meet paxta 🐱", "meet the
#: new family member: Pisco 🐶" (not "meet Tom at the park 🐶", "meet me at 5").
_MET = re.compile(rf"^\W*(?:meet|say\s+(?:hi|hello)\s+to)\s+(?:(?:the\s+)?new\s+(?:family\s+member|baby|addition|"
                  rf"member\s+of\s+the\s+family)\s*[:,-]?\s*)?(?P<name>[A-Za-z][a-z]+)\s*(?=[{''.join(_PET_EMOJI)}])",
                  re.IGNORECASE)


def pet_taken_in(message: str) -> str | None:
    """The kind of the pet the speaker took in by its name, when the emoji in the message draw one kind: "We adopted
    Lola today!!! 🐕" (a dog); None without such an emoji ("we adopted Maria" is a child, maybe), or in a question or
    a supposition."""
    kinds = {kind for emoji, kind in _PET_EMOJI.items() if emoji in message}
    if len(kinds) != 1:
        return None
    for sentence in _SENTENCES.split(message):
        m = _TAKEN_IN.search(sentence) or _MET.match(sentence)
        if m is not None and not _NOT_A_PLAN.search(sentence) and m["name"].lower() not in NOT_NAMES | {"me", "us"}:
            return kinds.pop()
    return None


def one_does(sentence: str) -> list[tuple[str, str]]:
    """(predicate, object) the speaker's own activity or group says of them: "pottery is going
    great" (does pottery), "choir practice at 11" (member_of choir), "football training tonight"
    (does football); nothing for "your pottery", "Tom's band practice", a question."""
    if m := _GOING.match(sentence):
        return [("does", m["activity"].lower())]
    if (m := _PRACTICE.search(sentence)) and not re.search(r"(?i)\b(?:your|ur|his|her|their|[a-z]+['’]s)\s*$",
                                                          sentence[:m.start("what")]):
        what = m["what"].lower()
        return [("member_of", what) if what in GROUPS else ("does", what)]
    return []


#: "sold the Corolla", "sold my Vespa": a thing known by its (model's) name.
_SOLD_NAMED = re.compile(r"\s*(?:the|my|our)\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
#: After the name or "it": nothing more of the thing ("sold the Corolla to a lad", "sold it last week");
#: not "sold the Post Office on the idea" (won over: nothing owned).
_SOLD_ENDS = re.compile(r"\s*(?:$|[.!,;:)]|(?:to|for|last|yesterday|today|on(?!\s+(?:the\s+idea|it|that|this)\b)|"
                        r"in|this|finally|lol|haha|tho|btw|\w+day)\b)", re.IGNORECASE)
_SOLD_IT = re.compile(r"\s*it\b")
#: Before a thing of the speaker's: in her own message ("my van kept breaking down so I sold it"), and in
#: the turn before, said to her ("is the car still on ebay?"); not "my mum bought a new car" (someone else's).
_DETERMINER = re.compile(r"\b(?:a|an|the|my|our)\s", re.IGNORECASE)
_DETERMINER_TO = re.compile(r"\b(?:the|your|ur)\s", re.IGNORECASE)
#: "what did you do with the piano": the turn before asks what became of one thing.
_DONE_WITH = re.compile(r"\b(?:you|u|ya)\s+(?:(?:end|ended)\s+up\s+)?(?:do|doing|done)\s+with\s+(?:the|your|ur)\s+"
                        r"([\w'’-]+)\s*[?!.]*\s*$",
                        re.IGNORECASE)


def sold_thing(rest: str, said: str, previous: str | None) -> str | None:
    """What "sold the Corolla" or "sold it" got rid of, beyond a possession's own noun: a thing
    named by its capitalised name after "the"/"my", or for "it" the one possession the message
    says before the verb (``said``: not "… sold it and bought a van") or else the turn before
    names ("my van kept breaking down so I sold it"), or the thing the
    turn before asks about ("what did you do with the piano?"); None otherwise. Selling is a
    general cue of chat that one owned what is sold."""
    if named := _SOLD_NAMED.match(rest):
        name = proper_name(rest[named.end():])
        if name is None or len(name.split()) > 2 or is_place(name) or name.lower() in NOT_NAMES or not _SOLD_ENDS.match(
                rest, named.end() + len(name)):
            return None
        return name
    if not _SOLD_IT.match(rest) or not _SOLD_ENDS.match(rest, _SOLD_IT.match(rest).end()):  # type: ignore[union-attr]
        return None
    for owned in (_owned(said, False), _owned(previous or "", True)):
        if len(owned) == 1:
            return next(iter(owned))
        if owned:
            return None  # two things could be meant
    asked = _DONE_WITH.search(previous or "")
    return asked.group(1) if asked and asked.group(1).lower() not in PRONOUNS else None


@lru_cache(maxsize=64)
def _owned(text: str, to_speaker: bool) -> frozenset[str]:
    """The possessions ``text`` names as the speaker's (``to_speaker``: as the listener's), read once
    per message however many times it says "sold it"."""
    determiner = _DETERMINER_TO if to_speaker else _DETERMINER
    return frozenset(found.lower() for m in determiner.finditer(text)
                     if (found := everyday(text[m.start():], POSSESSIONS)) is not None)


#: How a trip went, said of the place ("Lisbon was unreal", "rome was so hot."): words of a
#: visitor's verdict, not of a place one lives in on a given day ("London was mad today").
_VERDICT = (r"(?:amazing|unreal|class|brilliant|incredible|gorgeous|beautiful|lovely|stunning|good|great|fab|"
            r"fabulous|fantastic|wonderful|glorious|magic|magical|wild|epic|perfect|fun|carnage|hot|cold|freezing|"
            r"boiling|heaving|packed|heaven|heavenly|bliss|awesome|cool|mint|ace|immense|superb|sick|"
            r"a\s+(?:dream|blast|vibe|hoot|riot))")
#: The verdict ends the sentence, or only fillers follow it: not "Rome was perfect for them", "Paris was
#: amazing apparently", "Spain was so good to me", "Paris was cold in the film" (no trip of the speaker's).
_PLACE_WAS = re.compile(r"^\W*(?:(?:ok|okay|and|so|oh|well|anyway|also|btw|honestly|omg|ah|yeah|yes)\W+)*"
                        r"(?P<the>the\s+)?(?P<place>[\w'’.-]+(?:[ ][\w'’.-]+){0,3}?)\s+was\s+(?:(?:so|really|just|"
                        rf"absolutely|honestly|pretty|properly|genuinely|actually|too|such)\s+)*{_VERDICT}\b"
                        r"(?:\W*(?:too|tho|though|honestly|lol|haha|omg|mate|man|again|x+)\b)*\W*$", re.IGNORECASE)
#: A run of the marks a place's name may hold and a filler may be ("'", ".", "-"): no verdict on a
#: place is tried on it (the pattern was quadratic in a sentence of quote marks).
_MARK_RUN = re.compile(r"['’.-]{40}")
#: Known places whose names are as often a word or someone's name ("the turkey was so good", "Georgia
#: was amazing, she sang all night", "how was reading?"): no trip is told of them by a verdict alone.
_NOT_ONLY_PLACES = frozenset("""
turkey china chile jordan georgia florence nice reading bath split derby charlotte savannah phoenix madison
austin darwin sydney paris hamilton kingston richmond jasper durham cork kent orlando providence columbus
alexandria arlington india sofia lima mali niger cuba panama jamaica virginia carolina washington montana
dallas denver cleveland devon skye rio adelaide brittany siena verona valencia madeira boulder reno aspen
windsor hastings hobart york la sf us uk cal cabo nara goa peru oman malta congo victoria
""".split())


def _visited(the: str | None, place: str) -> bool:
    """Whether ``place`` (after "the" when ``the``) is surely a known place and nothing else."""
    name = f"the {place}" if the else place
    key = " ".join(name.casefold().replace("’", "'").split())
    return (key in PLACES if the else is_place(name)) and key not in _NOT_ONLY_PLACES


#: "I'm back!!", "we're home": the sentence after it tells where from.
_HOME_AGAIN = re.compile(r"(?i)^\W*(?:(?:ok|so|and|well)\W+)*(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+(?:back|home)\W*$")
#: An event told by when it was or how it went, opening the message: "reunion was yesterday. what a
#: day", "gig last night in namba", "the wedding was SO good" (one was there).
_EVENT_TOLD = re.compile(r"^\W*(?:\([^()]{0,80}\)\s*)?(?:(?:ok|okay|and|so|oh|well|anyway|also|btw|honestly|omg|ah|"
                         r"yeah|yes)\W+)*"
                         r"(?P<what>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+(?:(?:last\s+night|yesterday|last\s+weekend|"
                         r"this\s+morning|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|(?:was|were)\s+(?:(?:so|really|"
                         rf"just|absolutely|honestly|pretty|properly|genuinely|actually|such)\s+)*(?:{_VERDICT}|"
                         r"yesterday|last\s+night|last\s+weekend|(?:on\s+)?(?:last\s+)?(?:mon|tues|wednes|thurs|fri|satur|"
                         r"sun)day)\b)", re.IGNORECASE)  # "Madina's wedding was saturday!!" (h51)
#: What an event told so is called: the event's word alone, or after "the", "my", "our" or
#: someone's name ("reunion", "the wedding", "my cousin saras wedding", "Tom's party"); not "ran 10k"
#: (a verb's), "your party" (a compliment).
_EVENT_NAMED = re.compile(r"(?i)(?:(?:the|my|our)\s+(?:[\w'’-]+\s+){0,2}|(?-i:[A-Z])[\w-]*['’]?s\s+(?:[\w'’-]+\s+)?|"
                          r"(?!(?:it|he|she|there|that|what|who|where|here|let|how)['’]s)[a-z][\w-]*['’]s\s+)?"
                          r"[\w'’-]+")  # (a name in small letters owning it: "kev's wedding", d10)
#: Someone else's word for it: "the party was wild apparently".
_HEARSAY = re.compile(r"(?i)\b(?:apparently|supposedly|i\s+heard|they\s+said|he\s+said|she\s+said)\b")
#: "how was Amsterdam?", "How was the concert": the turn before asks how a trip or an event went.
#: (What is asked about runs to the end of its clause, and the words that close a question are taken off after:
#: a lazy group before two optional runs of spaces took minutes on "how was x" and 50,000 spaces.)
_HOW_WAS = re.compile(r"\bhow\s+(?:was|were)\s+(?P<what>[^?.!,]+)", re.IGNORECASE)
_ASK_ENDS = re.compile(r"\s(?:anyway|then|in the end)$", re.IGNORECASE)
#: In the answer: it has not happened, or did not for the one asked ("not yet", "we didn't go").
_NOT_WENT = re.compile(r"\?|\b(?:not\s+yet|(?:didn|couldn|wasn)['’]?t\s+(?:go|make\s+it|happen|able)|could\s+not\s+"
                       r"(?:go|make)|never\s+went|cancel+ed|postponed|"
                       r"called\s+off|haven['’]?t\s+(?:been|gone)|we\s+go\b|going\s+on|next\s+week|tomorrow|wasn['’]?t\s+"
                       r"there|no\s+idea|dunno|ask\s+(?:him|her|them))", re.IGNORECASE)
#: An answer whose first sentence is of someone else alone: "how was the library conference?" - "she came. 4 days. I
#: showed her the real Honolulu" tells of her, not of one's being there (not "he and I had a blast", "she looked
#: stunning, we danced all night": a reviewer's).
_THIRD_TOLD = re.compile(r"\W*(?:she|he)\b(?![^.!?\n]*\b(?:i|we|me|us|my|our|i['’]m|we['’]re)\b)[^.!?\n]*",
                         re.IGNORECASE)
#: Beyond a message's first sentence, what says the speaker was not there, or may not have been: watched it,
#: missed it, saw the pictures, someone else went ("we couldn't go", "on the livestream", "jake went").
_NOT_THERE = re.compile(r"\b(?:(?:couldn['’]?t|could\s+not|can['’]?t|cant|didn['’]?t)\s+(?:go|make)|missed|watch\w*|tv|"
                        r"telly|stream|livestream|pics|photos|news|looked|see|saw|wait|nervous|wear|going|gonna|will|working|"
                        r"(?!(?:i|we)\b)\w+\s+went)\b", re.IGNORECASE)


def told_trip(text: str, previous: str | None, own: str | None = None) -> list[tuple[str, str]]:
    """(predicate, object) a message's verdict says the speaker was at: a known place said to
    have been good ("berlin was SO good": traveled_to), or the known place or the event the turn
    before asks about ("how was Amsterdam?" - "so good!!"; "how was the concert" - "it went
    well"), or an event one of its first three sentences tells by when it was or how it went ("sips
    I'm alive. barely. the wedding yesterday destroyed me"). People chatting answer "how was X" only
    of a trip or an event they were at; nothing when the answer says it has not happened or asks back. Beyond
    the first sentence, or after the speaker's own turn (``own``), the event is read only by a time gone by
    ("yesterday", "last night") or a verdict, and not where the message or that turn says the speaker may not
    have been there (see :data:`_NOT_THERE`)."""
    first, *after = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=2)
    if after and _HOME_AGAIN.match(first):
        first = after[0]  # "I'm back!! Lisbon was a DREAM"
    if not _MARK_RUN.search(first) and not _NOT_WENT.search(first):  # a verdict is tried on no run of marks
        if (m := _PLACE_WAS.match(first)) and _visited(m["the"], m["place"]):
            return [("traveled_to", m["place"])]
    if (asked := _HOW_WAS.search(previous or "")) and not _NOT_WENT.search(text) and not _THIRD_TOLD.match(text):
        said = _ASK_ENDS.sub("", " ".join(asked["what"].split()))
        the = re.match(r"(?i)the\s+", said)
        what = re.sub(r"^(?:your|ur|the)\s+", "", said, flags=re.IGNORECASE)
        if _visited(the and the.group(), what):
            return [("traveled_to", what)]
        if (event := everyday(said, EVENTS, EVENT_PAIRS)) and not re.match(r"(?i)(?:his|her|their)\b", what):
            return [("attended", event)]
    not_there = bool(_NOT_THERE.search(text) or (own and _NOT_THERE.search(own)))
    for i, sentence in enumerate([first, *after][:3]):  # "sips I'm alive. barely. the wedding yesterday destroyed me"
        if _MARK_RUN.search(sentence) or _NOT_WENT.search(sentence):
            continue
        if (i or own) and (not_there or re.search(
                r"\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:game|games|match|race)\b", sentence,
                re.IGNORECASE)):
            continue  # "ugh. the concert on saturday!! cant wait", "…the gig last night was amazing. jake went", a
            # game or a match (as often watched on a screen as attended)
        if (m := _EVENT_TOLD.match(sentence)) and not _HEARSAY.search(sentence) and _EVENT_NAMED.fullmatch(
                m["what"]) and (event := everyday(m["what"], EVENTS, EVENT_PAIRS)) and re.sub(
                r"['’]s\b", "", m["what"].lower()).endswith(re.sub(r"['’]s\b", "", event.lower().split()[-1])):
            return [("attended", event)]  # "reunion was yesterday. what a day", "gig last night in namba"
    return []


#: The speaker retired (or quit): "I retired in September", "retired in june." (no one else's subject before it).
_RETIRED = re.compile(r"(?:^|(?<=[.!?]\s)|\b(?:i|I|i['’]ve|I['’]ve|i\s+have|I\s+have|i['’]m|I['’]m|i\s+am|I\s+am|"
                      r"finally|officially|just)\s+)(?:retired|resigned|quit)\b"
                      rf"(?!\s+(?:{RETIREES})\b)")
#: "31 years at polsteam", "38 years in UHG": where a working life was spent.
_YEARS_AT = re.compile(r"\b(?:\d{1,2}|ten|twenty|thirty|forty|fifty)(?:-[a-z]{3,6})?\s+(?:years?|yrs)\s+"
                       r"(?:at|in|with)\s+"
                       r"(?:the\s+)?(?P<where>[\w'’&-]+(?:\s+(?-i:[A-Z])[\w'’&-]*){0,3})", re.IGNORECASE)
#: A field or a kind of place, not an employer: "38 years in nursing", "30 years in the job".
_NO_EMPLOYER = frozenset("""job jobs work company firm business industry field trade service office school
schools classroom hospital hospitals place team department trenches game sector profession""".split())


def retired_from(text: str) -> tuple[str, str] | None:
    """Where the speaker worked until retiring, when the message says both, and the words of the
    retirement's clause (which may date it): "retired in june. 31 years at polsteam is enough"
    (Polsteam, "retired in june"), "I retired in September, 38 years in UHG is plenty" (UHG);
    None for a field ("40 years in nursing"), a place ("30 years in Leeds") or someone else's
    retirement."""
    if not (retired := _RETIRED.search(text)) or not (m := _YEARS_AT.search(text)):
        return None
    where = m["where"]
    if where.lower() in _NO_EMPLOYER or where.lower().endswith("ing") or is_place(where) \
            or where.lower() in PRONOUNS:
        return None
    return where, re.split(r"[.,;!?]", text[retired.end():], maxsplit=1)[0]


#: News of something begun told first, what it is in the words after: "I started something new. roller skating",
#: "And I have a new hobby. Woodcarving.", "I also started a class! azulejo painting at the junta", "i start a course.
#: woodcarving." (dev's misses: the thing begun a fragment of its own). Only the speaker's, told plainly: nothing
#: before the news but a greeting word or two ("oh and", "also", "ok my news").
_SOMETHING_NEW = re.compile(
    r"^\W*(?:(?:and|also|oh|ok|okay|so|but|well|btw|anyway|news|my|other|i|me|too)\W+){0,4}?"
    r"(?:(?:i(?:['’]ve|\s+have)?|i['’]m|im)\s+)?(?:also\s+|just\s+|finally\s+|actually\s+)?"
    r"(?:(?:started|start|began|took\s+up|picked\s+up|signed\s+up\s+for|doing)\s+(?:something(?:\s+new)?|a\s+(?:new\s+)?"
    r"(?:hobby|class|course|thing))|(?:found|have|got)\s+(?:a\s+)?new\s+(?:hobby|thing)|new\s+hobby)"
    r"(?:\s+(?:too|also|now|as\s+well))?\s*(?:[.!:]+|\s+-+)\s*(?P<what>[^.!?\n,;]+)", re.IGNORECASE)
#: What makes the thing begun someone else's, or says when rather than what: a possessive, "for my son", "yesterday".
_NOT_MINE_BEGUN = re.compile(r"(?i)['’]s\b|\bfor\s+(?:my|our|his|her|the)\b|^\W*(?:yesterday|today|tonight|last|this|"
                             r"next|on)\b")


#: Someone teaching the speaker a pastime, now: "rui is teaching me to surf", "she's teaching me to dive with a tank",
#: "Edwin is teaching me to kayak" (not "taught me to make waakye": once, a dish; nor "teach me to" wished for).
_TAUGHT_NOW = re.compile(r"(?i)(?:\b(?:is|are)|['’](?:s|re))\s+teaching\s+me\s+(?:how\s+)?to\s+"
                         r"(?P<verb>[a-z]+)\b")
#: What makes the teaching no pastime of the speaker's now: no one teaching, later, given up (a reviewer's).
_NOT_TAUGHT = re.compile(r"(?i)\b(?:no\s*one|nobody|not|never|tomorrow|next|soon|quit|stopped|gave\s+up)\b")


def being_taught(message: str) -> str | None:
    """The pastime someone is teaching the speaker (see :data:`_TAUGHT_NOW`), as an activity a list knows ("surf" ->
    surfing, "kayak" -> kayaking, "swim" -> swimming); None for anything else ("to make chacha")."""
    m = _TAUGHT_NOW.search(message)
    verb = m["verb"].lower() if m else ""
    if m is None or "?" in message[m.end():m.end() + 40].split(".")[0] or _NOT_TAUGHT.search(message) or verb in (
            "run", "walk", "drive", "use", "make", "do", "be", "read", "write", "cook"):
        return None  # "teaching me to run the till", "to walk again" (the physio's), "to drive" (a licence)
    for form in (verb + "ing", verb[:-1] + "ing" if verb.endswith("e") else None,
                 verb + verb[-1] + "ing" if re.search(r"[^aeiou][aeiou][bdgmnpt]$", verb) else None):
        if form and (found := everyday(form, ACTIVITIES, ACTIVITY_PAIRS)) is not None:
            return found
    return None


#: The speaker learning or playing what no list knows: "I'm learning the lesiba", "so I'm learning woodturning", "other
#: news, I've been playing the tin whistle" (two words at most, then the sentence's end).
_LEARNING_UNKNOWN = re.compile(r"(?i)(?:^|[.!,;:]\s*|\b(?:also|so|and|now)\s+)(?:i['’]?m|im|i\s+am|i['’]?ve\s+been|"
                               r"i\s+have\s+been|been)\s+(?:learning|playing)\s+(?P<the>the\s+)?"
                               r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*(?=$|[.!,;:)]|\s+(?:now|too|btw|lol|again))")


#: A sentence that is a pastime and how often: "climbing 3 times a week now lol", "running 3 times a week round ormeau
#: park", "swimming every morning helps".
_HOW_OFTEN_ALONE = re.compile(r"(?i)(?:^|[.!]\s+)(?:(?:and|also|still|now)\s+)?(?P<what>[a-z]+ing)\s+(?:(?:\d+|two|"
                              r"three|four|five|once|twice)\s+(?:times\s+)?(?:a|per|every)\s+week|every\s+(?:day|"
                              r"morning|evening|week|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|most\s+"
                              r"(?:days|mornings))\b")
#: Someone else the message may be about: the pastime and how often is theirs then.
_SOMEONE_ELSE = re.compile(r"(?i)\b(?:he|she|they|his|her|their|him|them)\b")


def how_often_alone(message: str) -> str | None:
    """The pastime a sentence names with how often, and nothing else (see :data:`_HOW_OFTEN_ALONE`), in a message about
    no one else; None otherwise."""
    m = _HOW_OFTEN_ALONE.search(message)
    if m is None or _SOMEONE_ELSE.search(message) or "?" in message:
        return None
    return everyday(m["what"], ACTIVITIES, ACTIVITY_PAIRS)


#: Words learnt or played that are no pastime: apps and devices, the ropes, a carnival band's "mas".
_NO_PASTIME = frozenset("""to how with on at a an some more lots whatsapp facebook instagram tiktok zoom excel duolingo
app apps phone tablet computer laptop system ropes basics games game mas""".split())


def learning_unknown(message: str) -> str | None:
    """What the speaker says they are learning or playing that no list knows (see :data:`_LEARNING_UNKNOWN`): the
    caller proposes it for review (half of such things were no pastime on first reads: "the whatsapp", "hiragana")."""
    m = _LEARNING_UNKNOWN.search(message)
    if m is None:
        return None
    words = m["what"].lower().split()
    if any(w in PRONOUNS or w in COMMON_WORDS or w in _VERBISH or w in _NO_PASTIME for w in words):
        return None  # "learning to …" (read as a verb learnt), "playing with the kids", "learning whatsapp", "playing
        # mas" (a carnival band's)
    return m["what"]


def something_new(message: str) -> str | None:
    """The pastime the speaker says they have begun, told as news first and named in the words after (see
    :data:`_SOMETHING_NEW`): an activity a list knows ("roller skating", "azulejo painting"), or one named before
    "classes" or "lessons" ("forró classes!" -> forró, "saz lessons") or a language ("Korean, at the King Sejong
    Institute"); None for anything else ("I started something too. don't laugh", "doing something new. sos
    cagarro": no list knows it)."""
    m = _SOMETHING_NEW.search(message)
    if m is None or message[m.end():].lstrip().startswith("?") or _NOT_MINE_BEGUN.search(m["what"]):
        return None  # "… new! pottery? no, knitting"; "… my daughter's swimming lessons", "piano lessons for my son"
    what = re.sub(r"(?i)^(?:it['’]?s|its|a|an|the|some|learning|doing)\s+", "", m["what"].strip())
    found = everyday(what, ACTIVITIES, ACTIVITY_PAIRS)
    if found is not None:
        return found
    lessons = everyday(what, LESSONS)
    if lessons is not None:
        return lessons_of(lessons)  # "forró classes!", "saz lessons"
    one = re.match(r"[\w'’-]+", what)
    return one.group() if one is not None and one.group().lower() in LANGUAGES and (
        len(what) == one.end() or what[one.end()] in " ,") else None
