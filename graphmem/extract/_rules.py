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
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, tzinfo

from ..core.alias_evidence import COMMON_WORDS, plain_english
from ..core.names import unaccented
from ..core.places import is_wide
from ..core.tense import FUTURE_AUXILIARY, WE_RE_TYPED
from ..core.times import UTC
from ..errors import InvalidInput
from ..when import OUT_OF_RANGE, OutOfRange, TimeSpan, find_times
from ._answers import still_there
from ._chat import (
    GONE,
    activity_of_group,
    arrived,
    asked_home,
    begun_elsewhere,
    being_taught,
    breed_beside,
    clean_taste,
    companions,
    couples,
    employer_confirmed,
    everyday_object,
    group_named,
    group_named_unread,
    here_now,
    home_named,
    how_often_alone,
    job_begun,
    job_called_off,
    job_got_unnamed,
    job_to_come,
    learning_unknown,
    lowercase_school,
    move_called_off,
    move_done,
    move_fragment,
    move_home,
    move_planned,
    move_told,
    moved_in_new,
    moved_there,
    named_by_one,
    not_for_me,
    of_the_other,
    one_does,
    only_staying,
    only_visiting,
    pet_meant,
    pet_taken_in,
    proposed,
    resident_of,
    resolve_pronoun,
    retired_from,
    settled,
    sold_thing,
    something_new,
    told_as_visit,
    told_trip,
)
from ._cues import (
    AT_HOME,
    DIED,
    GONE_FOR_GOOD,
    JUST_BACK,
    LEFT_FOR_GOOD,
    NEW_CLAUSE,
    PLACE_ENDS,
    SHARED,
    TOO,
    is_person,
)
from ._facts import Context, ExtractedFact, FactOp, MessageResult, Turn
from ._family import QUOTED, FamilyMemory, addressed_as
from ._family import WORDS as FAMILY_WORDS
from ._lexicon import (
    ACTIVITIES,
    ACTIVITY_PAIRS,
    BREEDS,
    EMOJI,
    EVENTS,
    GROUPS,
    LANGUAGES,
    LESSONS,
    NAMED_EVENTS,
    NOT_NAMES,
    PETS,
    POSSESSIONS,
    RELATION_ADJECTIVES,
    RELATIONS,
    STUDENT_NOUNS,
    WORKPLACE_PAIRS,
    WORKPLACES,
    is_place,
    is_town,
    looks_educational,
    looks_organisational,
)
from ._names import is_given_name, is_known_name, is_name_written
from ._objects import (
    JOB_PHRASE,
    JOB_WORD,
    PRONOUNS,
    STUDY_PHRASE,
    called_name,
    lowercase_name,
    named_kind,
    people,
    place_name,
    proper_name,
    things,
    workplace,
)
from ._pets import PetMemory
from ._reading import (
    BE,
    GOT,
    HEDGE_AFTER,
    HEDGE_AUX,
    HEDGE_BEFORE,
    WORD_END,
    WORD_START,
    Located,
    Reading,
    decide,
    lasted_since,
    locate,
    period,
    read_verb,
    said_with,
    start_alone,
    time_alone,
    verb_form,
    with_period,
)
from ._sentences import split_sentences
from ._subjects import (
    JOINED,
    NAMED_MID_SENTENCE,
    OPENER,
    SUBJECTLESS,
    THEIR_CLAUSE,
    THEIR_REACH,
    Subject,
    clauses,
    find_subject,
    names_anyone,
    one_person_named,
    pair_named,
    relative_subject,
)
from ._vehicles import got_vehicle, got_when, not_real, vehicle_bought, vehicle_described, vehicle_name
from ._verbs import CALLED_OFF, GREETED_FROM, Verb, verbs_for

__all__ = ["UNSURE", "RuleExtractor"]

_A = "['’]"


def _route(verb: Verb, name: str) -> str:
    """The predicate a verb whose object decides ("moved to", "left", "at") states about it. A town only
    GeoNames knows is a place after "moved to", not after "left" ("I left Toyota", "I left Georgetown"), and not
    where the name reads like a school or a firm."""
    left = verb.head.pattern.startswith(r"\b(?:(?:left")
    town = is_place(name) or (not left and is_town(name) and not looks_educational(name)
                              and not looks_organisational(name))
    if verb.predicate == "lives_in" and not town:
        if looks_educational(name):
            return "studies_at"
        if left or looks_organisational(name) or not verb.kind == "start":
            return "works_at"
    return verb.predicate


_FIRST_PERSON = re.compile(r"\b(?:I|my|me|we|our)\b")
#: The longest time one is said to be somewhere for a trip ("this month"; not "this year").
_A_MONTH = timedelta(days=31)
#: Before "my"/"our", a greeting or a wish sent to people called by a pet's or a thing's word: "happy new year to all
#: my chickens", "love to all of my babies" (not "I fed the scraps to all my chickens").
_TO_ALL = re.compile(r"^\W*(?:happy|merry|love|lots\s+of\s+love|big\s+love|hugs|hi|hello|hey|good\s+(?:morning|night)|"
                     r"night\s+night|morning|shout\s*out|thanks|thank\s+you|cheers|congrats|congratulations|best\s+wishes|"
                     r"greetings|welcome)\b.*\bto\s+all\s+(?:of\s+)?\Z", re.IGNORECASE)


def _unquoted(text: str) -> str:
    """``text`` without the words it quotes from someone: four or more, "I", "my" or "we" among them
    ('"I love my cat" 😂'); a nickname in quotes ('calls him "the new guy"') is shorter and stays."""
    return QUOTED.sub(lambda m: "…" if len(m[1].split()) >= 4 and _FIRST_PERSON.search(m[1]) else m[0], text)
#: Someone left unnamed, who "she" may be ("my sister", "her boss", "a guy from work").
_UNNAMED = re.compile(r"\b(?:my|our|his|her|their|your|a|this|that)\s+(?:[\w-]+\s+)?(?:sister|brother|mum|mom|dad|"
                      r"mother|father|boss|friend|cousin|aunt|uncle|neighbou?r|wife|husband|girlfriend|boyfriend|"
                      r"partner|daughter|son|guy|girl|woman|man|lady|kid|baby|teacher|doctor|manager)\b",
                      re.IGNORECASE)
#: What follows "Im" written for "I'm" (not someone called Im): an article, a verb in -ing, a state; and "Ive" for
#: "I've": a past participle.
_AS_IM = re.compile(r"\s*(?:a|an|the|\w+ing|at|in|from|with|still|now|so|not|back|married|engaged|based|done|into|"
                    r"officially|finally|also|just|currently)\b", re.IGNORECASE)
_AS_IVE = re.compile(r"\s*(?:\w+ed|been|got|gotten|had|left|quit|taken|begun|done|seen|met|known|joined|started|"
                     r"just|finally|also|officially)\b", re.IGNORECASE)
#: Longer than this between two messages of a chat, and they are two sittings.
SITTING = timedelta(hours=6)


def _pronoun_kinds(text: str) -> set[str]:
    """Which of "he" and "she" a text says of someone ("his" is he, "her" she); none, no one."""
    return {"she" if word.lower() in ("she", "her") else "he" for word in re.findall(
        r"\b(?:he|she|him|her|his)\b", text, re.IGNORECASE)}


def _opened_by(sentence: str, speaker: str) -> str | None:
    """The person other than the speaker whom ``sentence`` opens with as its subject ("he" and
    "she" too), or None."""
    if he := re.match(r"\W*(he|she)\b", sentence, re.IGNORECASE):
        return he[1]  # "He still works for the ESB."
    m = OPENER.match(sentence)
    name = m["name"] if m else None
    if name is None or name.lower() == speaker.lower() or not is_name_written(name):
        return None  # a given name, not "Work was mad."
    return name


#: A question with no question mark: "and did Mirela call you Dorel 😂", "so does Tom still work there".
#: (An auxiliary, then someone: "did a 10k today" and "do yoga at 6" are statements; "did I tell you I
#: moved", "have I told you", "so do I" tell news or agree; "Have Fun tonight" wishes.)
_ASKED = re.compile(r"^\W*(?:(?i:and|so|but|wait|ok|okay|oh|also|btw|hang\s+on)\W+)*(?:(?i:did|do|does|didn['’]t|"
                    r"don['’]t|doesn['’]t|have|has|haven['’]t|hasn['’]t)\s+(?i:you|u|he|she|they|we|your|ur|his|her|"
                    r"their)\b(?!\s+(?i:tell|told|mention|hear|heard)\b)|(?i:did|does|didn['’]t|doesn['’]t|has|hasn['’]t)"
                    r"\s+[A-Z][a-z]+\s+(?!(?i:and|&)\b)[a-z])")
#: Nouns after a people's word that make it one ("the Japanese people", "a French couple"), no one's name.
_PEOPLE_OF = re.compile(r"\s+(?:people|guys?|girls?|boys?|couples?|famil(?:y|ies)|students?|tourists?|lad(?:y|ies)|"
                        r"m[ae]n|wom[ae]n|kids?|friends?|colleagues?|folks?|crowd|group|team|lot)\b", re.IGNORECASE)
#: A firm's sites and parts, no employer of their own: "the Lagos office" (of Deloitte), "the Leeds branch".
_FIRM_SITES = frozenset("office offices branch branches store shop depot site headquarters hq".split())
#: A question asked after a colon or a comma, with no question mark, up to the next mark: "3 questions: does she pray,
#: does she cook" (what comes before and after it stands: "lol ok, do u want pizza, btw i got the job at Ocado").
_ASKED_AFTER = re.compile(r"[:;,]\s*(?:did|do|does|didn['’]t|don['’]t|doesn['’]t)\s+(?:you|u|he|she|they|we)\b"
                          r"(?!\s+(?:tell|told|mention|hear|heard|know|remember)\b)[^,;:.!?\n]*", re.IGNORECASE)
#: A question asked after a statement, set off by a comma: "…, did Paolo tell you?", "…, you know?",
#: "…, remember?" (the statement before it stands; not "…, right?", which asks whether it does).
_QUESTION_TAG = re.compile(r",\s*(?:did\s+(?:\w+\s+){1,2}tell\s+(?:you|u)|(?:do\s+)?you\s+know|remember)"
                           r"\s*\?+[\s'\"”’)]*$", re.IGNORECASE)


def _someones(name: str) -> bool:
    """A name in the possessive, someone's home or shop ("Jo's", "Tesco's"); not a saint's, which
    names a hospital, a church or a school ("St Luke's", "Saint Mary's")."""
    return name.endswith(("'s", "’s")) and not re.match(r"(?:St\.?|Saint)\s", name)


def _own_name(fact: ExtractedFact) -> bool:
    """A name someone goes by that is the name they are known by already ("hi i'm orla" by Orla, "everyone
    calls me Orla"): nothing to record. (Said by a speaker the chat names otherwise, "user", it is kept.)"""
    return fact.predicate == "is_called" and fact.object is not None and \
        unaccented(fact.object).casefold() == unaccented(fact.subject).casefold()


def _same(a: ExtractedFact, b: ExtractedFact) -> bool:
    return (a.op, a.subject, a.predicate, a.object) == (b.op, b.subject, b.predicate, b.object)


def _key(fact: ExtractedFact) -> tuple[object, ...]:
    """Everything a fact says, as one value (equal keys, equal facts), op, subject, predicate and object first: a
    message's facts are told apart through a set, not by comparing each with each (7 s for 3,000 facts)."""
    return (fact.op, fact.subject, fact.predicate, fact.object, fact.valid_from, fact.valid_to, fact.quote, fact.sure)


#: A sentence that is only a role or a description, between a job got and its start: "medical records admin.", "3rd
#: grade, sami language class." (a few words, none a person's, a verb's or a possession's).
_ROLE_ALONE = re.compile(r"(?i)\W*(?!.*\b(?:i|me|my|we|our|you|your|he|him|his|she|her|they|them|their|it|its|is|are|"
                         r"was|were|am|be|got|get|gets|has|have|had|do|does|did|too|also|haha|lol)\b)(?!.*['’]s\b)"
                         r"(?!.*\w(?:ed|ing)\b)[\w&/-]+(?:[\s,]+[\w&/-]+){0,5}\W*")
#: Being somewhere to come or maybe: "I'll be in London for that baby if I have to swim" (h86), "could be in Leeds".
_WILL_BE = re.compile(FUTURE_AUXILIARY + r"|\b(?:would|could|might|should|may|must)\b", re.IGNORECASE)
#: How recent a start told by "since" may be and the thing be only under way: "been cooking since yesterday".
_ONLY_UNDER_WAY = timedelta(days=2)
_SINCE = re.compile(r"\bbeen\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+ing\s+(?:[\w'’-]+\s+){0,3}?since\b", re.IGNORECASE)


def _under_way(facts: list[ExtractedFact], reference: datetime) -> list[ExtractedFact]:
    """``facts`` without a pastime begun a day or two before by "been …ing since": "my mother has been cooking since
    yesterday" (h82), "ive been painting since this morning" tell what is being done, no pastime (not "I've
    been running since March", nor "started pottery yesterday", a start, nor "took up running yesterday since the
    gym's closed", a reviewer's: "since" for "because")."""
    return [f for f in facts if not (f.predicate == "does" and f.op == "assert" and f.valid_from is not None
                                     and reference - f.valid_from <= _ONLY_UNDER_WAY and _SINCE.search(f.quote))]


#: A question asked after a comma, of the other person, once something is told: "I hate mushrooms, what can I use
#: instead in a risotto?" (a new user's assistant chat: the question took the whole sentence's fact with it).
_ASKED_AFTER_COMMA = re.compile(r",\s*(?=(?:what|how|can|could|would|should|do|does|any|which|where|who|will|is|are|"
                                r"got)\b(?!\s+(?:that|it|this)\s+(?:right|correct|true|ok|so)\b|\s+i\b)[^,]*\?\W*$)",
                                re.IGNORECASE)  # (not "I live in Berlin, is that right?", "…, do I?": checking it)
_TOLD_FIRST = re.compile(r"^\W*(?:i|i['’]m|i['’]ve|my|we|we['’]re|we['’]ve|our)\b", re.IGNORECASE)


def _told_then_asked(sentence: str) -> list[str]:
    """A sentence that tells something of the speaker's, then asks after a comma (see :data:`_ASKED_AFTER_COMMA`), as
    the two it is; any other sentence as it is."""
    if not sentence.rstrip().endswith("?") or not _TOLD_FIRST.match(sentence):
        return [sentence]
    m = _ASKED_AFTER_COMMA.search(sentence)
    if m is None or "?" in sentence[:m.start()]:
        return [sentence]
    return [sentence[:m.start()], sentence[m.end():]]


#: Facts of one occasion, told once more fully in the same message (not tastes: "i love jazz and acid jazz" is two).
_ONE_OCCASION = frozenset(("attended", "traveled_to"))


def _fullest(facts: list[ExtractedFact], text: str, reference: datetime) -> list[ExtractedFact]:
    """One fact where a message tells it twice, once more fully: "the party was good" after the turn
    before named the harvest party gives ``attended harvest party``, not that and ``attended party``
    besides (the object's words the end of another's, the same op, subject, predicate and period); and
    "back from whitby. we went to Whitby last weekend" one trip, the dated one."""
    # each fuller object's endings, by op, subject and predicate, with the periods said for them: a message telling
    # thousands of facts is read in time linear in their words (comparing each with each took 7 s for 2,222)
    endings: dict[tuple[str, str, str, tuple[str, ...]], set[tuple[datetime | None, datetime | None]]] = {}
    for full in facts:
        if full.predicate in _ONE_OCCASION:
            more = tuple((full.object or "").lower().split())
            for start in range(1, len(more)):
                endings.setdefault((full.op, full.subject, full.predicate, more[start:]), set()).add(
                    (full.valid_from, full.valid_to))

    def within(short: ExtractedFact) -> bool:
        words = tuple((short.object or "").lower().split())
        periods = endings.get((short.op, short.subject, short.predicate, words), set()) if words else set()
        return bool(periods) and ((short.valid_from, short.valid_to) == (None, None)
                                  or (short.valid_from, short.valid_to) in periods)

    def same(fact: ExtractedFact) -> tuple[str, str, str, str]:
        return fact.op, fact.subject, fact.predicate, unaccented(fact.object or "").casefold()
    # "back from whitby. we went to Whitby last weekend": one trip, the dated one, if lately and not told as another
    # ("we're back from Paris!! first time since we went to paris in 2018", "went to Rome. … last year too")
    dated = {} if _ANOTHER_TIME.search(text) else {
        same(f): f for f in facts if f.predicate in _ONE_OCCASION and f.valid_from is not None
        and reference - _LATELY <= f.valid_from <= reference}
    told = {same(f): f.object for f in facts if f.valid_from is None and f.valid_to is None and same(f) in dated}
    kept = []
    for f in facts:
        if f.predicate in _ONE_OCCASION and (within(f) or (f.valid_from is None and f.valid_to is None and
                                                           same(f) in dated)):
            continue
        if f.predicate in _ONE_OCCASION and (spelt := told.get(same(f))) and spelt != f.object and (
                spelt != unaccented(spelt) or spelt[:1].isupper()):
            f = f.model_copy(update={"object": spelt})  # "back from Kraków! went to krakow last week": as written
        kept.append(f)
    return kept


#: How recent a dated trip must be to be the one an undated mention of the same place tells ("back from whitby").
_LATELY = timedelta(days=21)
#: Words that tell of another time at the same place: "too", "again", "first time since", "as well".
_ANOTHER_TIME = re.compile(r"(?i)\b(?:too|also|again|as\s+well|first\s+time|before|every|each|since|when\s+i\s+was)\b")


# --- the extractor --------------------------------------------------------------------------

_STAY = Verb(re.compile(r"in\s+"), "traveled_to", "event", "place", done=True)
_EVERYDAY_KINDS = frozenset(("pet", "possession", "activity", "group", "event", "habit", "lesson", "race"))

#: An object that is some thing, not a job ("my keys", "the house", "smoking").
_THING_AFTER = re.compile(r"\s*(?:(?:my|the|a|an|our|his|her|their|some|it|that|this|them)\b|"
                          r"[a-z]+ing\b)", re.IGNORECASE)
#: The longest sentence the rules read, in characters: chat sentences run to a few hundred (180 at
#: most in every labelled chat here); a longer run without a full stop is pasted text or a log, and
#: reading it would cost time that grows with the square of its length (each verb looks back to the
#: sentence's start).
LONGEST_SENTENCE = 1_000
#: The most verb phrases one sentence may offer: each is matched against the whole sentence, so a
#: sentence of a thousand characters made of "my my my…" or "we went to we went to…" cost a third
#: of a second (a 50 KB message of them, tens of seconds). Every labelled chat here offers 17 at
#: most; a sentence that offers more is a list or pasted text, and is not read.
MOST_PHRASES = 24
#: Ends that name nothing ended: "quit" alone may be a job, a team, a game or smoking, "ended it" a
#: call or a plan (on chats nobody tuned on such ends were never the job or partner the reader meant).
_UNSAID_END = re.compile(r"(?:quit|quitting|quits|ended\s+it)", re.IGNORECASE)
_ABOUT_WORK = re.compile(r"\b(?:job|work|working|boss|shifts?|office|manager|career)\b", re.IGNORECASE)
#: Before "calls me": it is not stated ("don't call me…", "you can call me…", "I'll call you…").
_NOT_STATED = re.compile(
    rf"n{_A}t\s*$|\b(?:not|never|nobody|no\s*-?\s*one|can|could|should|would|will|might|may|gonna)\s*$|{_A}(?:ll|d)\s*$"
    r"|\b(?:teach|teaching|taught|want|wants|wanted|try|trying|tried)\s+(?:\w+\s+){0,2}to\s*$",
    re.IGNORECASE)
#: Work verbs after which a place of work named by its kind is an employer ("started at the library").
_WE_RE_TYPED = re.compile(WE_RE_TYPED, re.IGNORECASE)
_WORK_WORD = re.compile(r"\b(?:work|works|worked|working|job|hired|employed|started|start|starting|teach|teaches|"
                        r"volunteer|volunteers|volunteering|intern|interning)\b", re.IGNORECASE)
#: Where one starts that is no place of work: a school, a time of day.
_NOT_A_WORKPLACE = frozenset("uni university universiti college school gym am pm noon midnight top bottom beginning "
                             "end home dawn dusk square page one zero beach physio therapy slimming lessons lesson "
                             "wage loss line bar level base rate price".split()) | frozenset(  # nor a meal, a time
    "breakfast brunch lunch lunchtime dinner supper tea teatime sunrise sunset daybreak morning afternoon evening "
    "night half start two three four five six seven eight nine ten eleven twelve".split())  # or the hour
# ("Started at six today", "Started at lunch today": a reviewer's)
#: "started at": where a job begun is said, and then its day ("started at spokes on wednesday", d5).
_STARTED_AT = re.compile(r"(?:started|starting|began)\s+at", re.IGNORECASE)
_DAY_WORD = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
#: A place of work in lower case after "started at", up to the day it was begun: "orca on the 7th", "the port
#: authority on sunday", "maison delorme on the 12th" (not "9 on monday", "the gym on monday": a time, a pastime).
_STARTED_ON_A_DAY = re.compile(
    r"\b(?i:started|starting|began)\s+at\s+(?:(?:the|a\s+new|a|an)\s+)?"
    r"(?P<name>[a-z][\w'’&.-]*(?:\s+[a-z][\w'’&.-]*){0,3}?)(?=\s+(?:on\s+(?:the\s+)?"
    rf"(?:{_DAY_WORD}|\d{{1,2}}(?:st|nd|rd|th)?\b)|in\s+(?:january|february|march|april|may|june|july|august|"
    rf"september|october|november|december)|(?:this|last)\s+week|yesterday|today|{_DAY_WORD})\b)")
#: A verb phrase ending in its preposition ("stopped working at"): the place of work after it is no employer's name.
_HEAD_PREPOSITION = re.compile(r"\b(?:at|for|from|with|by)\s*$", re.IGNORECASE)
#: After the place of work one quit: nothing more of the noun or of leaving it for the day ("i quit the bakery
#: in May", "quit the cafe to go freelance"; not "the pub quiz", "the bank holiday plans", "the pub early").
_QUIT_ENDS = re.compile(r"\s*(?:$|[.!,;:)]|(?:to|after|in|on|last|yesterday|today|this|finally|lol|haha|omg|tho|"
                        r"though|btw|because|cos|coz|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)", re.IGNORECASE)
#: When a last day was, said before it: "yesterday was my last day at Klucz", "and friday was my last
#: shift at the depot" (on first reads three arrivals said it so, and no rule read one: the words
#: before "my" name no one, and "my" says whose day it was).
_WHEN_WAS = re.compile(r"^\W*(?:(?:and|so|also|oh|well|but|ok|okay|update|news)\W+)*(?:yesterday|today|last\s+night|"
                       r"(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|the\s+\d{1,2}(?:st|nd|rd|th)?|"
                       r"\d{1,2}(?:st|nd|rd|th))"
                       r"\s+was\s*$", re.IGNORECASE)
#: Where a name after a verb stops: the end of the clause, a time, "when", "because", a new subject…
_NAME_STOPS = (r"(?=\s*(?:$|[.!,;:()?]|\s(?:on|last|yesterday|today|this|in|at|after|before|when|because|cos|coz|"
               r"lol|haha|omg|tho|though|btw|for|with|through|via|from|by|and|but|so|too|now|a|an|the|i|we|it|going|"
               r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b))")
#: After a country, region or state, the town in it: "in Spain, in Málaga", "to Italy, to Cremona".
_TOWN_AFTER = re.compile(r",\s*(?:in|to)\s+(?P<rest>.*)", re.IGNORECASE | re.DOTALL)
#: After that town, more places: a list, not a town in its country ("to France, to Rome, to Berlin").
_MORE_PLACES = re.compile(r"\s*(?:,\s*(?:in|to|and)\s|and\s)", re.IGNORECASE)
#: After a name, a word that makes it an activity's, not a place: "home from derby practice", "back from bath training".
_SESSION_AFTER = re.compile(r"\s+(?:practice|training|rehearsal|session|match|shift)\b", re.IGNORECASE)
#: How long ago a day an event is told by may be, to be the event's: "last weekend", "on saturday".
_EVENT_LATELY = timedelta(days=35)
#: After a place one came home from, a visit's length or occasion: "home from Oregon for a week", "home from zagreb
#: for easter", "flying home from denver for xmas", "home from London for the wedding": where one lives, come home for
#: a while, not a trip taken there (not "for lunch", "for real", "for a week now", "for the first time in weeks": a
#: reviewer's).
_HOME_FOR = re.compile(r"\s+for\s+(?:(?:a|an|one|two|three|four|a\s+few|a\s+couple\s+of|the)\s+(?:few\s+)?"
                       r"(?:days?|weeks?|months?|weekend|summer|winter|holidays?|hols|break|term|wedding|funeral|"
                       r"christening|visit)|easter|christmas|xmas|thanksgiving|diwali|eid|new\s+year|the\s+\w+\s+holidays)"
                       r"\b(?!\s+(?:now|ago|already))", re.IGNORECASE)
#: A membership held or ended, named with the word: "i cancelled my crux membership", "I cancelled my
#: virgin active membership btw" (five arrivals); "got a proper membership at monk now", "i have a
#: membership at the studio now" (three).
_MEMBERSHIP_ENDED = re.compile(
    r"\b(?:cancelled|canceled|quit|ended|stopped)\s+(?:my|our)\s+"
    r"(?P<what>[^\W\d][\w'’&-]*(?:\s+[^\W\d][\w'’&-]*){0,2}?)\s+membership\b", re.IGNORECASE)
_MEMBERSHIP_HELD = re.compile(
    r"\b(?:got|bought|have|has)\s+(?:a|an|my|our)\s+(?:[\w-]+\s+)?membership\s+(?:at|to|for)\s+(?:the\s+)?"
    r"(?P<what>[^\W\d][\w'’&-]*(?:\s+[^\W\d][\w'’&-]*){0,3}?)" + _NAME_STOPS, re.IGNORECASE)
#: Leaving something named after the verb, done: "quit the puffins", "packed in the choir", "gave up
#: croquet" (the name up to where the clause goes on: a time, "when", "because"…). Not "left" ("just
#: left tesco": for the day) nor "cancelled" ("cancelled pottery this week"), nor "quitting" (a plan).
#: What is left, after the verb: up to four words, to where a name stops.
_LEFT_WHAT = r"\s+(?:the\s+|my\s+|our\s+)?(?P<what>[^\W\d][\w'’&-]*(?:\s+[^\W\d][\w'’&-]*){0,3}?)" + _NAME_STOPS
_LEFT_SOMETHING = re.compile(r"\b(?:quit|packed\s+in|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?)" + _LEFT_WHAT,
                             re.IGNORECASE)
#: Leaving something told by other words, the thing alone after them and the clause ended there ("i stopped
#: bokator. officially", "I'm done with kilikiti", "no more freediving for me 😔", "I give up paddleboarding"); not
#: "done with choir practice, heading home", "done with choir for the week", "no more pottery on Tuesdays", "I stopped
#: at pottery", "no more pottery for Tom" (a reviewer's: one sitting, a break, someone else's, a place).
_LEFT_PLAINLY = re.compile(
    r"\b(?:stopped|(?<=\bi\s)give\s+up|no\s+more|dropped\s+out\s+of|retired\s+from|said\s+goodbye\s+to|finished\s+with|"
    r"(?:i['’]?m\s+|i\s+am\s+)?(?:(?:so|officially|totally|properly)\s+)?done\s+with)\s+(?:the\s+|my\s+|our\s+)?"
    r"(?!(?:at|by|in|on|for|to|off|over|with|it|that|this)\b)(?P<what>[^\W\d][\w'’&-]*(?:\s+[^\W\d][\w'’&-]*){0,3}?)"
    r"(?=\s*(?:for\s+good|forever|for\s+me|now)?\s*(?:officially|to\s+be\s+honest|tbh|btw|lol|haha)?\s*"
    r"(?:$|[.!,;…]|[😢😭💔🥲😔🫡]))", re.IGNORECASE)
#: A thing of the speaker's said over by its name alone, opening its sentence: "pottery is finished, the term ended",
#: "crochet is dead to me" (what is said must be the thing told or some of its words, less a word of how it was done,
#: see :data:`_THE_THING_OF`; not "the pottery is finished! glazed it today", an object, nor "choir is over for the
#: summer", "pottery was over early today": a break, a sitting).
_THE_THING_OF = frozenset("app lessons lesson classes class course streak".split())
_HELD_OVER = re.compile(r"(?:^|[.!?]\s+)\W*(?:(?:and|also|oh|so|ok|btw)\W+)*(?!(?:the|my|our|his|her|their|your|a|an|"
                        r"this|that|it)\b)(?P<what>[^\W\d][\w'’&-]*(?:\s+[^\W\d]"
                        r"[\w'’&-]*){0,2}?)(?:\s+(?:is|was)|['’]s)\s+(?:officially\s+)?(?:finished|dead|retired)"
                        r"(?=\s*(?:for\s+good|to\s+me|for\s+me)?\s*(?:$|[.!,;…]))", re.IGNORECASE)
#: "I left Acme", "i've left deloitte": a name the chat told before as the speaker's job, group or school (the rest
#: as :data:`_LEFT_SOMETHING`; a place is read as a move by the verb table, never here).
_LEFT_HELD = re.compile(r"\bleft" + _LEFT_WHAT, re.IGNORECASE)
#: What makes leaving a job's or a group's end, not the building's for the day: the perfect ("I've left",
#: "finally left"), "for good", where one went instead ("to join", "for Asda"), a month or longer ("in March",
#: "last year"), or a job's word ("my notice", "last day", "resigned", "new job").
_LEFT_FOR_GOOD = re.compile(
    r"(?i)(?:\b(?:i['’]?ve|i\s+have|have|has|finally|officially|just\s+officially)\s+left\b|\bfor\s+good\b|"
    r"\bleft\s+[^.!?]{1,40}?\b(?:to\s+(?:join|go\s+freelance|start|work)|for\s+(?:a\s+new\s+job|[A-Z][\w&'’-]+))|"
    r"\bleft\s+[^.!?]{1,40}?\b(?:in|last|back\s+in)\s+(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december|spring|summer|autumn|fall|winter|\d{4}|year|month)\b|"
    r"\b(?:notice|resign(?:ed)?|last\s+(?:day|shift)|new\s+job|redundan\w*|laid\s+off)\b)")
#: Others than the speaker alone just before the verb: "we left", "Tom and I left", "they've left".
_OTHERS_BEFORE = re.compile(r"(?i)\b(?:we|they|he|she|and\s+i|&\s+i)(?:['’](?:ve|d|re))?(?:\s+(?:have|had|just|"
                            r"finally|actually|also|officially|already|then|both|all))*\s*$")
#: The speaker as the subject of the verb that follows: "i", "we", "i've just", "we finally"…
_SPEAKER_JUST_BEFORE = re.compile(
    r"(?:^|[^\w'’])(?:i|we)(?:['’](?:ve|d))?(?:\s+(?:have|had|just|finally|actually|also|officially|already|"
    r"totally|then|both))*\s*$", re.IGNORECASE)
#: Not done, or not yet: "i didnt quit", "i never cancelled", "gonna get a membership", "i used to have".
_NOT_DONE = re.compile(r"n['’]?t\b|\b(?:not|never|no\s+longer|gonna|going\s+to|will|shall|used\s+to|"
                       r"next|soon|tomorrow|tmrw|till|until|before|jk|kidding|i\s+wish)\b|['’]ll\b", re.IGNORECASE)
#: What follows the words of a clause: from its first mark that is no word, space or apostrophe.
_CLAUSE_WORDS = re.compile(r"[^\w\s'’-].*", re.DOTALL)
#: A thing got for someone else: "a membership at the spa for my mum".
_FOR_SOMEONE = re.compile(r"\s+for\s+(?:my|her|his|our|their|the|a)\s", re.IGNORECASE)
#: What one can leave and a later "quit X" may end: groups, jobs, schools, pastimes.
_LEAVABLE = frozenset(("member_of", "works_at", "studies_at", "does"))
#: A time said as the start of what holds from now on: "from today", "as of today", "starting tonight".
_FROM_NOW = re.compile(r"(?i)\b(?:from|as\s+of|starting|since)\s+(?:today|tonight|this\s+morning)\s*$")
#: A question of what someone does or where they work: "what does elvin do again?", "where does he work now", "what do
#: you do".
_ASKED_JOB = re.compile(r"(?i)\b(?:what|where)\s+(?:does|do)\s+(?P<who>[\w-]+)\s+(?:do|work)\b(?:\s+(?:again|now|"
                        r"these\s+days|for\s+(?:a\s+)?(?:work|living)))?\s*\?")
#: The speaker's news of a job got, before a sentence naming it: "I got the job on the ferry!!", "I GOT IT".
_GOT_THE_JOB = re.compile(r"(?i)\b(?:i|we)\s+(?:just\s+|finally\s+)?got\s+(?:the|a|my)\s+(?:new\s+)?job\b|"
                          r"\bI\s+GOT\s+IT\b|\bgot\s+the\s+job\b")
#: A job got and not taken, or not real: "… but turned it down", "lol jk".
_NOT_TAKEN = re.compile(r"(?i)\b(?:turned\s+(?:it\s+)?down|declined|said\s+no|jk|joking|kidding|as\s+if|imagine|"
                        r"in\s+my\s+dreams?|not\s+me)\b")
#: Titles before a person's name: "a carer for Mrs Byrne".
_TITLES = frozenset(("mr", "mrs", "ms", "miss", "dr", "mx"))
#: A message that answers its own "guess who": a raised hand, "Me!" said alone, "(me)", "ME", "this girl", "yours
#: truly" (not any "me": "guess who moved to Leeds, Tom told me" was the speaker's move).
_SELF_TOLD = re.compile(r"🙋|✋|🤚|(?:^|[.!?…]\s*)me\s*(?:[!.]|$)|\(me\)|(?-i:\bME\b)|"
                        r"\bthis\s+(?:girl|guy|one|lady)\b|\byours\s+truly\b", re.IGNORECASE | re.MULTILINE)
_NOT_ME = re.compile(r"(?i)\bnot\s+me\b")
#: A turn asking for words to be written or told again: "what should I text your mam?", "what did Tom say?", "read me
#: the last message" (what follows is someone's words, not the speaker's to the other: an attacker's).
_RELAYED = re.compile(r"(?i)\bwhat\s+(?:should|do|did|would|shall)\s+(?:i|we|he|she|they|\w+)\s+(?:text|say|write|put|"
                      r"send|tell)|\bread\s+(?:me|it|out)\b|\bwhat\s+does\s+(?:it|the\s+\w+)\s+say\b")
#: Notice given at a job: "handed in my notice at harbourline".
_NOTICE = re.compile(r"(?i)\bnotice\b")
#: A notice that is a home's or a membership's (an attacker's): "we move out in june", "cancelling my membership".
_HOME_NOTICE = re.compile(r"(?i)\b(?:move|moving|moved)\s+out\b|\b(?:lease|tenancy|landlord|letting|flat|apartment|"
                          r"rent|membership|gym)\b")
#: How many such things a speaker's memory keeps (the newest).
_HELD_KEPT = 40


def _one_held(what: str, said: frozenset[str], held: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The one thing ``held`` (predicate, object) whose name holds every word ``said`` of ``what``, and is no group
    named by what it is for only (:func:`_modifier_only`); None where none fits, or two."""
    fits = {(predicate, obj) for predicate, obj in held if said and said <= _words_of(obj)
            and not _modifier_only(what, obj)}
    return fits.pop() if len(fits) == 1 else None


def _modifier_only(said: str, held: str) -> bool:
    """Whether ``said`` names only what a held group is for, not the group: "quit the book" of a
    "book club" (stopped reading it), "quit running" of a "running club"."""
    last = held.lower().split()[-1]
    return last in GROUPS and last not in said.lower().split()


def _told_in_full(said: str, told: Sequence[str]) -> str | None:
    """The one name of ``told`` whose words are more than, and all of, ``said``'s ("fiesta" of "ford fiesta",
    "Arcadia" of "Clínica Arcadia"); None where two fit, or none."""
    words = _words_of(said)
    fits = {name for name in told if words and words < _words_of(name)}
    return fits.pop() if len(fits) == 1 else None


def _vehicle_told(kind: str, said: str, told: Sequence[str]) -> str | None:
    """The one vehicle of ``told`` named by its make or model that "my car" ends (``said``: "sold my car today",
    after "I bought a car. 2013 Fiat Uno, white": a new user's, the car stayed owned); None where two are, or none,
    or the words say another car or a thing of one ("my old car", "my car stereo": a reviewer's)."""
    if kind.lower() not in ("car", "auto") or any(name.lower() in _OTHER_VEHICLES for name in told) or not \
            _MY_CAR.search(said):
        return None  # (a van, a motorbike by its model is no car: "i bought a van!! … Mazda Bongo", then "sold my
        # motorbike", a dev chat's)
    fits = {name for name in told if vehicle_name(name) is not None}
    return fits.pop() if len(fits) == 1 else None


#: "my car" itself: no adjective before it, no noun after it ("my old car", "my car stereo", "my car's tyres").
_MY_CAR = re.compile(r"(?i)\b(?:my|the|our)\s+(?:car|auto)\b(?!['’]s)(?=\s*(?:$|[^\w\s]|(?:today|yesterday|last|on|"
                     r"this|to|for|at|lol|haha|finally|and|but|so|off|already|in|after|before|now|yay)\b))")
#: Vehicles told by their kind that are no car: with one of them owned, "my car" may be it.
_OTHER_VEHICLES = frozenset("van truck pickup ute bakkie motorbike motorcycle moto scooter moped campervan camper "
                            "bus tractor".split())


def _words_of(name: str) -> frozenset[str]:
    """A name's words, lower case, without articles and possessives: "the Pickie Puffins" -> pickie, puffins."""
    return frozenset(w for w in re.findall(r"[^\W\d][\w'’&-]*", unaccented(name).lower())
                     if w not in ("the", "a", "an", "my", "our", "his", "her", "their", "club", "team", "group"))


#: What the rules read too unreliably, in a chat between two people, to write unseen: tastes and
#: possessions, whose words there are as often praise, jokes or someone else's things ("love that
#: jacket", "i love drama", "he carried my bike up"). Chosen on small samples (1 `likes` in 4 and 7
#: `owns` in 12 right on chats nobody had tuned on); on the eight fresh chats scored since, holding
#: them back lifted precision by 0.7 points only (docs/ingest.md). There they are proposed with
#: ``sure`` False and wait for review even with ``--approve``; told to an assistant (no other
#: participant), "I like apples" is written as before. (Since the twelfth session, a possession bought or sold
#: outright is written: see :data:`_TRADED`.)
UNSURE = frozenset(("likes", "dislikes", "owns"))
#: A possession bought or sold outright, its thing named right after the verb: "i bought a cargo bike", "I
#: have sold the car", "sold my old keyboard": written as other facts are. (Of such reads, 4 of 4 bought and
#: 7 of 8 sold were right on chats nobody had tuned on, each scored by the code of its arrival; on dev, 48
#: of 55, the wrong ones mostly the thing named as the annotator did not: "sold my car! the old Clio".) What
#: one has, gets or is given ("I have a dress", "got me a garmin") still waits for review.
_TRADED = (r"(?<!wish\si\s)(?<!wish\swe\s)\b(?:(?:bought|purchased)\s+(?:(?:a|an)\s+)?|(?:sold|scrapped|got\s+rid\s+of)"
           r"\s+)(?:(?:the|my|our|his|her|their|old|new|used|second[\s-]hand|little|big|white|black|red|blue|green|"
           r"silver|grey|gray)\s+)*")
#: After the thing bought, what makes it something else's or someone else's: an accessory ("a bike lock", "a
#: laptop bag"), a gift or a purchase for work ("a car for my son", "a tv for the office"). (Sold is said only
#: with "the", "my" and the like: "i sold a house today" is a sale at work.) From a reviewer's attack.
_TRADED_AFTER = (r"(?!\s+(?:case|cover|bag|lock|seat|strap|stand|charger|rack|insurance|polish|mount|sleeve|protector|"
                 r"box|stool|lessons?|tickets?)\b)(?!\s+for\s+(?:(?:my|his|her|their|our)\s+(?!self\b|own\b)\w+|him|"
                 r"her|you|them|mum|mom|dad|(?:the\s+)?(?:kids?|baby)|(?-i:[A-Z])\w*|\w+['’]s|"
                 r"(?:the\s+)?(?:office|company|work))\b)")
_TRADED_BEFORE = re.compile(f"(?:{_TRADED})\\Z", re.IGNORECASE)
_TRADED_THEN = re.compile(r"(?![\w'’-])" + _TRADED_AFTER, re.IGNORECASE)
#: A purchase going back: "bought the boots but they're going back", "bought a dress, returning it tho".
_RETURNED = re.compile(r"\b(?:return(?:ing|ed)?|going\s+back|sen[dt]\s+(?:it|them)\s+back|refund)\b", re.IGNORECASE)


#: A site named after a town, right after its name ("Sumiyoshi shrine", "Kenting beach", "Nokia arena", "alamo
#: drafthouse"), or an outing's purpose after it ("for dinner", "for milk", "for a kettle").
_SITES = (r"shrine|temple|airport|station|hospital|museum|beach|park|market|mall|church|mosque|cathedral|castle|zoo|"
          r"stadium|arena|university|uni|college|school|lake|falls|bridge|harbou?r|port|cent(?:re|er)|festival|fair|"
          r"restaurant|hotel|bar|pub|club|cinema|theat(?:re|er)|drafthouse|shop|store|place|dealership|garage|branch|"
          r"bank|house|side|flat|bay|office|gym|trafford|palace|towers|court|circus|village|gardens|outlet|abbey|hall|"
          r"springs")
_SITE = (r"(?:\s+(?!(?:with|and|for|on|in|at|to|from|by|the|a|an|my|our|last|this|next|yesterday|today)\b)[\w'’-]+)?"
         r"\s+(?:" + _SITES + r")\b|"
         r"\s+(?:(?:on\s+\w+|yesterday|today|tonight|last\s+night)\s+)?for\s+(?:(?:a|an|the|our|my|some)\s+)?"
         r"(?:dinner|lunch|breakfast|brunch|drinks?|coffee|tea|afternoon\s+tea|dim\s+sum|pizza|tacos|sushi|milk|"
         r"groceries|shopping|jeans|shoes|clothes|date\s+night|meal|pint|beers?|cocktails|dessert|match|game|help|"
         r"advice|second\s+opinion|undergrad|uni|college|school|law\s+school|grad\s+school|degree|masters?)\b|"
         r"\s+(?:about|and\s+(?:asked|told|said|she|he))\b|"
         # an errand's thing or a service: "for a kettle", "for a service", "for new tyres" (not "for her 80th",
         # "for the perahera": an occasion)
         r"\s+for\s+(?:(?:a|an|some|new|more)\s+[\w'’-]+|[a-z]+s\b)|"
         r",?\s+(?:studied|graduated|class\s+of)\b")
#: Words that may follow a town's name in lower case without making it a longer name ("went to tainan on thursday",
#: "back from imperia since saturday"); any other word ("alton towers", "hampton court") may be the rest of a site's.
_AFTER_A_TOWN = frozenset("""
on in at to from for with without and or but so then when after before during over until till since by via back
again too now rn lol haha omg was is were it its it's the a an my our this that last next every yesterday today
tonight tomorrow yday monday tuesday wednesday thursday friday saturday sunday weekend week month year all alone
together twice once early late just finally recently because cause cos bc tho though like w
""".split())
_SITE_AFTER = re.compile(_SITE, re.IGNORECASE)
_TO_SEE = re.compile(r"\b(?:see|visit|visiting|over\s+to)\s+\Z", re.IGNORECASE)
#: The last word of an object that is a site, not a town: "Villa Park", "Mandalay Bay".
_SITE_WORD = re.compile(r"\b(?:" + _SITES + r")\Z", re.IGNORECASE)
#: A stay counted in nights, days or weeks right after where: "went to Diani for three nights".
_STAYED = (r"\s+for\s+(?:a|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}|a\s+few|a\s+couple\s+of)\s+"
           r"(?:nights?|days?|weeks?)\b")
_STAYED_AFTER = re.compile(_STAYED)


def _for_review(fact: ExtractedFact, why: str) -> ExtractedFact:
    """``fact`` proposed unsure: it waits for review even when the message is approved, ``why`` said to the
    reviewer (the first reason found is kept)."""
    return fact.model_copy(update={"sure": False, "doubt": fact.doubt or why})


#: Clothes: bought, not a possession worth remembering as a rule ("I bought the dress!", "new boots").
_CLOTHES = frozenset("hat coat jacket dress suit shoes boots trainers".split())


def _traded(fact: ExtractedFact) -> bool:
    """Whether ``fact`` is a possession its sentence says was bought or sold, the thing named right after
    the verb (see :data:`_TRADED`)."""
    quote = fact.quote or ""
    if fact.predicate != "owns" or not fact.object or _RETURNED.search(quote) or fact.object.split()[-1].lower() in \
            _CLOTHES:
        return False  # a dress or boots bought: seldom a possession the annotators keep (1 of 4 on dev)
    return said_with(quote, fact.object, before=_TRADED_BEFORE, after=_TRADED_THEN, ignore_case=True) or (
        vehicle_name(fact.object) is not None and any(said_with(quote, kind, before=_TRADED_BEFORE, after=_TRADED_THEN,
                                                                ignore_case=True) for kind in _VEHICLE_KINDS))
    # (a model named after the kind bought: "I bought a car. 2019 Skoda Octavia", see _model_named)


#: A greeting from where one writes: "greetings from olomouc", "Hello from Skye!", "hola from santiago".
_GREETING = re.compile(r"(?:^|[.!]\s)\W*" + GREETED_FROM + r"\s", re.IGNORECASE)


def _greeted(fact: ExtractedFact, message: str, two_people: bool) -> bool:
    """Whether ``fact`` is a trip told only by a greeting from the place, in a chat between two people, and
    the message does not tell it as a visit ("hello from Brno, here for a conference"): as often the move
    there as a trip ("greetings from olomouc" a week after moving), so it waits for review. (On dev such
    greetings were written right 9 times and wrong 4, each wrong one the move.)"""
    return two_people and fact.predicate == "traveled_to" and fact.op == "assert" and \
        _GREETING.search(fact.quote or "") is not None and not told_as_visit(message)


#: A thing of a kind, told by its kind's word alone: "i have a dog", "bought a car", "the wedding was lovely",
#: "joined a club". In a chat between two people such facts were right far less often than those naming the thing
#: ("got a greyhound", "bought a Hilux", "Morsy Orłowo"): of what --approve wrote on the 64 dev chats, 122 of 161
#: (0.76) against 531 of 569 (0.93), and on the four chats no rule had been tuned on (h45-h48) 5 of 11 against 23
#: of 26: a comparison ("like my cat"), a joke, a thing told again, or the wrong noun ("from a shepherd"). Such a
#: start waits for review. An end ("sold the car") is written: the gate closes the fact where the store holds it
#: and holds the end back where it does not. A breed ("a lurcher"), two words ("guinea pig", "quiz night": right 7
#: of 7), a word written with a capital (a name: "The Office"), an activity ("does swimming", a kind by nature)
#: and a pet got or adopted (16 of 17 right on dev, 2 of 2 on the untuned chats) are written as before
#: (docs/ingest.md).
_KIND_WORDS = {"has_pet": PETS - BREEDS, "owns": POSSESSIONS, "attended": EVENTS, "member_of": GROUPS,
               "works_at": WORKPLACES}


#: After a sentence naming a pet alone, a later one saying it died: "… the orange one. he died on thursday", "she
#: passed away last night" (see :data:`DIED`).
_DIED_LATER = re.compile(r"\W*(?:he|she|it)\s+" + DIED, re.IGNORECASE)
#: Words that take a death back or make it a joke: "he died. nah jk", "he died?? no wait".
_NOT_DEAD = re.compile(r"(?i)\?|\b(?:jk|just\s+kidding|kidding|no\s+wait|nah|lol|lmao|haha\w*)\b|[😂🤣]")
#: Between the two, at most a few words describing the pet, naming no one else: "the orange one."
_ABOUT_IT = re.compile(r"(?i)(?!.*\b(?:my|our|and|with|his|her|their|i|we|you)\b)\W*(?-i:[a-z])[\w'’-]*"
                       r"(?:\s+[\w'’-]+){0,3}\W*")
#: A pet got or adopted: "i got a dog!", "we adopted two kittens" (an acquisition, as a purchase is for a possession).
_PET_GOT = re.compile(r"\b(?:got|adopted)\b", re.IGNORECASE)


_CAPITALS_BEFORE = re.compile(r"(?<![\w'’])[A-Z]+\W+\Z")
_CAPITALS_AFTER = re.compile(r"\b\W+[A-Z]{2,}\b")


#: The kinds' words of a vehicle.
_VEHICLE_KINDS = frozenset("car van motorbike motorcycle truck ute campervan scooter moped".split())


def _model_named(facts: list[ExtractedFact], message: str) -> list[ExtractedFact]:
    """A vehicle bought and told by its kind's word, then by its make and model described by year or colour, is that
    model ("i bought a truck! 2016 Toyota Hilux, grey", "I bought a car. a 2019 Skoda Octavia": a new user's; the
    annotators of the dev chats recorded the model each time); so it is named, and written, as a bought thing is."""
    model = None
    for i, fact in enumerate(facts):
        if fact.predicate == "owns" and fact.op == "assert" and (fact.object or "").lower() in _VEHICLE_KINDS:
            model = model or vehicle_described(message)
            if model:
                facts = [*facts[:i], fact.model_copy(update={"object": model}), *facts[i + 1:]]
    return facts


def _shouted_up_to(fact: ExtractedFact) -> bool:
    """Whether ``fact``'s sentence is written in capitals from its start to its object: "I GOT A CAT her name is
    Biscuit" (not "we finally bought a TV", "ok my news, I HAVE A DOG")."""
    quote, obj = fact.quote or "", fact.object or ""
    at = quote.find(obj)
    return at > 0 and not any(ch.islower() for ch in quote[:at + len(obj)])


def _only_a_kind(fact: ExtractedFact) -> bool:
    """Whether ``fact`` starts a thing told only by its kind's word, in lower case or in a sentence shouted: "dog",
    "car", "wedding", "club", "office", "I HAVE A DOG TOO" (not "we bought a TV": a word in capitals among others
    in lower case is a name; a pet got or adopted aside)."""
    kinds = _KIND_WORDS.get(fact.predicate)
    quote = fact.quote or ""
    shouted = fact.object is not None and (  # a word beside it in capitals too
        said_with(quote, fact.object, before=_CAPITALS_BEFORE, after=WORD_END)
        or said_with(quote, fact.object, before=WORD_START, after=_CAPITALS_AFTER))
    if not (fact.op == "assert" and kinds and fact.object and (fact.object == fact.object.lower() or shouted)
            and fact.object.strip().lower() in kinds):
        return False
    return not (fact.predicate == "has_pet" and _PET_GOT.search(quote) or fact.predicate == "attended" and (
        fact.valid_from is not None and _went_to_event(fact.object, quote)) or fact.predicate == "member_of" and (
        fact.object.strip().lower() not in _VAGUE_GROUPS and said_with(quote, fact.object, before=_JOINED_BEFORE,
                                                                       after=_JOINED_AFTER, ignore_case=True)))


#: "joined a", "have joined the", "i've joined a": a group joined, its kind's word right after.
_JOINED_BEFORE = re.compile(r"\bjoined\s+(?:a|an|the)\s+\Z", re.IGNORECASE)
#: After the group's word, none that makes it another thing or names it in words not read: "a band of volunteers", "a
#: band called the lemons" (a reviewer's).
_JOINED_AFTER = re.compile(r"\b(?!\s+(?:of|called|named)\b)")
#: The kinds' words that say too little of which group it was ("I joined a club last month and didn't tell you"):
#: joined, they still wait for review. (A choir or a band joined was right 9 of 9 on dev, two clubs wrong of three.)
_VAGUE_GROUPS = frozenset("club clubs group groups team class community circle meetup crew squad".split())


def _went_to_event(event: str, quote: str) -> bool:
    """Whether the speaker says they went to the event their words date, by its kind's word alone: "i went to a
    wedding yesterday", "I was at the funeral on Thursday" (not "went to a funeral home", "Leo went to a party
    yesterday", "I went to a wedding once, and yesterday…", "i was at a wedding yesterday, i was the
    photographer": a place, someone else, another time, a job)."""
    return bool(re.search(_WENT_TO + re.escape(event) + _EVENT_ENDS, quote, re.IGNORECASE)) \
        and not _NOT_ATTENDED.search(quote)


#: "I went to a", "we were at the big", "went to an" opening the sentence: the event's word follows.
_WENT_TO = (r"(?:\b(?:i|we)\s+(?:also\s+|finally\s+|all\s+)?(?:went\s+to|was\s+at|were\s+at)|"
            r"^\W*(?:(?:and|also|so)\s+)?went\s+to)\s+(?:a|an|the|his|her|their|our|my)\s+(?:[\w'’-]+\s+){0,2}?")
#: After the event's word: a mark, the end, or a word that opens what follows a noun ("yesterday", "on", "with"),
#: never another noun ("funeral home", "concert hall", "game reserve").
_EVENT_ENDS = (r"(?=\s*(?:[^\w\s]|$)|\s+(?:yesterday|today|tonight|last|on|this|with|in|at|for|and|but|earlier|"
               r"over|all|together)\b)")
#: What makes a dated event no outing of one's own: another time ("once", "ages ago"), a joke or a denial, a job there.
_NOT_ATTENDED = re.compile(r"(?i)\b(?:once|ages\s+ago|years\s+ago|when\s+i\s+was|jk|didn['’]?t|thinks?\s+i|"
                           r"photographer|photographing|cater(?:ed|ing)|dj|djing|working|worked|security|refereeing|"
                           r"reffing|played\s+(?:our|my|a)\s+set|set\s+up|doing\s+the|i\s+was\s+in\s+it|organi[sz]ed)\b")


def _typed_town(fact: ExtractedFact) -> bool:
    """Whether ``fact`` puts a home at a town only GeoNames knows, typed in lower case ("moved to santander", the
    bank; "drove up from argos", the shop): as often an app, a shop or a bank as a town, so it waits for review (a
    trip to one, "i went to tainan on thursday", is written; a job at one, "31 years at toyota", is a firm's)."""
    town = fact.object
    return fact.predicate == "lives_in" and town is not None and town != "" and town == town.lower() \
        and not is_place(town) and is_town(town)


#: A correction of what was said: "i was wrong, I live in Fisherton not Funes", "no wait, it's Tuesday".
_CORRECTING = re.compile(r"(?i)\b(?:i\s+was\s+wrong|no\s+wait|wait\s+no|my\s+bad|correction)(?=\s*[,.:;!-]|\s*$)|"
                         r"\bsorry,?\s+i\s+meant\b")  # (said, then a stop: not "no wait at the bus stop", "i was
# wrong to worry", "correction officer": a reviewer's)


def _unsure(fact: ExtractedFact, two_people: bool, reference: datetime, correcting: bool) -> str | None:
    """Whether a fact of a message waits for review whoever read it: in a chat between two people,
    tastes and possessions not bought or sold outright (praise and plans read as them), a trip to a name no list
    knows (an outing to a venue or an event read as one) and a thing told by its kind's word alone
    (:func:`_only_a_kind`); anywhere, a start or an end still to come ("first day at
    Harbour Pharmacy tomorrow", "last day at hatch is the 15th": a plan), an end that names no one ("we broke
    up" with no partner told before: whom?) and what a message told as a correction tells ("i was wrong, I live in
    Fisherton not Funes", "i was wrong. I live in …": what it corrects is to be retracted, not ended). Why, in a
    reviewer's words, or None (``correcting``: whether the message says so, asked once a message: of each of 3,000
    facts, 17 s)."""
    if fact.op == "end" and not fact.object:
        return "an end that names nothing: what ended is not said"
    if correcting:
        return "said as a correction of something said before: retract what it corrects, if it is a fact"  # (a new
        # user's "i was wrong, I live in Fisherton not Funes lol" made a three-minute home in Funes)
    if two_people:
        if fact.predicate in UNSURE and not _traded(fact):
            return "a taste or a thing had, in a chat: as often praise, a plan or a joke"
        if _unknown_trip(fact):
            return "a trip to a name no place list knows: as often a venue or an outing"
        if _only_a_kind(fact):
            return "told by its kind's word alone: as often a comparison, a joke or told again"
        if fact.predicate == "is_called" and fact.object and named_by_one(fact.quote, fact.object):
            return "a nickname one person uses"
        if _typed_town(fact):
            return "a home at a town typed in lower case: as often an app, a shop or a bank"
    when = fact.valid_from if fact.op == "assert" else fact.valid_to
    return "it begins or ends after the message: a plan" if when is not None and when > reference else None


#: A job or a school got, not one held: "got a job at", "landed", "was offered", "took the job", "got into" (a start
#: told after it is the job's; after "i work at" it is a shift's or a holiday's: a reviewer's).
_GOT_PLACE = re.compile(r"(?i)\b(?:got|landed|offered|took|accepted|hired|signed|new\s+job)\b")
#: Wishing someone luck or well: "good luck today nads!!", "break a leg", "you got this", "smash it".
_WISHING = re.compile(r"(?i)\b(?:good\s+luck|best\s+of\s+luck|break\s+a\s+leg|you\s*(?:['’]ve|\s+have)?\s*got\s+this|"
                      r"smash\s+it|knock\s+(?:em|them)\s+dead|hope\s+(?:it|today|the\s+first\s+day)\s+goes|"
                      r"fingers\s+crossed\s+for\s+(?:you|u))\b")
#: A word of the speaker's own: "I", "my", "me".
_OWN = re.compile(r"(?i)\b(?:i|i['’]m|im|i['’]ve|my|me|mine)\b")


def _wished_to_another(fact: ExtractedFact, text: str, speaker: str) -> bool:
    """Whether ``fact``, the speaker's job or school begun by a sentence with no word of their own, is the other
    person's, wished luck in the same message ("good luck today nads!! first day at arup 💪": a new user's)."""
    return fact.subject == speaker and fact.op == "assert" and fact.predicate in ("works_at", "studies_at") and \
        bool(_WISHING.search(text)) and not _OWN.search(fact.quote) and not _WISHED_ME.search(text) and not \
        _TOLD_DONE.search(fact.quote)


#: Luck wished to the speaker, or back: "wish me luck", "good luck to me lol", "good luck to you too".
_WISHED_ME = re.compile(r"(?i)\bwish\s+me\b|\bluck\s+to\s+me\b|\btoo\b")
#: A first day told as gone by: one's own ("good luck with the interview! first day at tesco went ok btw").
_TOLD_DONE = re.compile(r"(?i)\b(?:went|was|were|did|survived|done)\b")


#: Signing up for a class or a course: "i signed up for a pottery class", "enrolled in the winemaking course".
_SIGNING_UP = re.compile(r"\b(?:signed\s+up\s+(?:for|to)|enrolled\s+(?:in|on))\b", re.IGNORECASE)
#: Said beside it, the class has begun: "It's started already and I'm terrible", "first class was great".
_UNDER_WAY = re.compile(r"\b(?:(?<!n['’]t\s)(?<!nt\s)(?<!not\s)(?<!not\syet\s)(?:started|begun|began)|"
                        r"first\s+(?:class|lesson|session|night|week)\s+(?:was|is\s+done)|"
                        r"already\s+(?:been|done|went|burned|burnt)|so\s+far|lov(?:ing|ed?)\s+it|went(?!\s+to\s+sign)|"
                        r"did\s+it|\d+\s+weeks?\s+in|weeks?\s+\d+|been\s+(?:once|twice|\d+\s+times))\b",
                        re.IGNORECASE)


#: The last word of a group that is a class one attends, not a club one joins: "a kintsugi class", "the course".
_CLASSES = frozenset("class classes course courses lessons workshop workshops".split())


def _signed_up(fact: ExtractedFact, message: str) -> bool:
    """Whether ``fact`` is a hobby read from signing up for its class, which has not begun as far as the
    message says ("i signed up for a pottery class. wheel throwing, 8 weeks, wednesday nights", "I signed up
    for a kintsugi class! every other saturday from march": the hobby, or the class when the hobby's word is
    none the lists know): a plan, for review. (On first reads such a sign-up was never the hobby an annotator
    recorded: 3 of 3, in three arrivals, and a fourth in a later one; the annotators record it when the class is
    under way: said begun, gone to, N weeks in. A date alone does not say it: "starts in may", said in April, is
    read as last May as often.) Signing up for a club is joining it."""
    return (fact.predicate == "does" or fact.predicate == "member_of" and (fact.object or " ").split()[-1].lower()
            in _CLASSES) and fact.op == "assert" and bool(_SIGNING_UP.search(fact.quote)) and not \
        _UNDER_WAY.search(message)


#: How long after a trip told with no time of its own the same trip told again is that trip ("im in lisbon!!", then
#: "back from lisbon" six days on), not another.
TRIP_AGAIN = timedelta(days=21)
#: How much earlier a start told again may be and still be the start first told, roughly ("4 months now" of 5 May).
START_AGAIN = timedelta(days=45)
#: What holds from a start a chat may tell twice.
_STARTED_STATES = frozenset({"works_at", "lives_in", "studies_at", "dating", "married_to", "member_of", "does"})
#: Words that tell a trip is another one: "again", "second trip", "another weekend in".
_ANOTHER_TRIP = re.compile(r"(?i)\b(?:(?:another|second|third|2nd|3rd)\s+(?:trip|time|visit|weekend|holiday|week)|"
                           r"(?:trip|visit)\s+(?:again|number\s+\w+)|(?:in|to)\s+[\w'’-]+\s+again|"
                           r"(?:went|flew|drove|back|off|headed)\s+(?:back\s+)?again)\b")
#: A word of two letters or more.
_LETTERS = re.compile(r"[^\W\d_]{2,}")


def unshouted(text: str) -> str:
    """``text`` with each sentence written wholly in capitals, three words of letters at least, in lower case ("I GOT
    THE JOB AT NORTHWIND", "WE ADOPTED A DOG": a new user's), for the rules read capitals as names; the same
    length, so a quote is found again in the words as written (:func:`as_written`). A capital word among lower-case
    ones ("we bought a TV") is kept."""
    out = text
    for sentence in split_sentences(text):
        words = _LETTERS.findall(sentence)
        if len(words) >= 3 and all(w.isupper() for w in words) and len(lowered := re.sub(
                r"[^\W\d_]+", _unshouted_word, sentence)) == len(sentence):
            out = out.replace(sentence, lowered)
    return out


def _unshouted_word(m: re.Match[str]) -> str:
    """A shouted word in lower case where it is a plain or common word of English; else a name, capitalised ("I MET
    TOM": Tom, "MOVED TO LEEDS", "AT TESLA": Tesla), or an acronym of three letters at most, kept ("INTO MIT")."""
    word, key = m[0], m[0].lower()
    if len(key) > 1 and (is_name_written(word.title()) and key not in _COMMON or is_place(key)):
        return word.title()
    if len(key) == 1 or key in _COMMON or plain_english(key) or key in _KIND_NOUNS:
        return key  # "AT A CAFE", "A KITTEN": a kind's word, no name (a reviewer's)
    return word if len(key) <= 3 or not re.search("[aeiouy]", key) else word.title()  # "MIT", "KPMG"; "Tesla"


#: The words the rules read as a thing's kind: a shouted one is that word, not a name.
_KIND_NOUNS = PETS | WORKPLACES | GROUPS | EVENTS  # (not possessions: a car's make is one, "TESLA")


def as_written(quote: str, read: str, written: str) -> str:
    """The words of ``quote``, a part of ``read`` (:func:`unshouted`), as ``written`` has them."""
    at = read.find(quote)
    return written[at:at + len(quote)] if at >= 0 and len(read) == len(written) else quote


#: Seeing someone, then their name alone: "i'm seeing someone. gonzalo. he's a geologist", "ive been seeing someone.
#: his name is femi", "I have girlfriend now. her name is Aino" (at a sentence's start, none of the words one would
#: say to someone else: "i told her, i'm …").
_SEEING_SOMEONE = re.compile(r"(?i)(?:^|[.!?…]\s*|\b(?:and|so|ok|okay|well|also|btw|yeah|omg|actually)\s+)"
                             r"(?:(?:i['’]?m|i\s+am|im|i['’]?ve\s+been|ive\s+been|i\s+have\s+been)\s+(?:seeing|dating)\s+"
                             r"(?:someone|somebody|(?:a|this)\s+(?:guy|girl|man|woman))(?:\s+new)?(?:\s+(?:for|since)\s+"
                             r"(?:[\w-]+\s+){0,2}?[\w-]+)?|(?P<have>(?:i\s+have|i['’]?ve\s+got|i\s+got)\s+(?:an?\s+)?"
                             r"(?:new\s+)?(?:girlfriend|boyfriend|gf|bf)(?:\s+now)?))"
                             r"\s*(?:[.!,…" + EMOJI + r"]\s*)+(?P<called>(?:and\s+)?(?:(?:her|his|their)\s+name"
                             r"(?:['’]s|\s+is)|(?:she|he)(?:['’]s|\s+is)\s+called)\s+)?"
                             r"(?P<name>[\w'’-]+)(?:[.!,…]+\s*[\w'’-]+)??\s*(?:(?:[.!,…" + EMOJI + r"]\s*)+(?:$|"
                             r"(?P<then>(?:he|she)(?:['’]s|\s+is)\s+an?\s|(?:he|she)\s+(?:does|works|teaches|makes|"
                             r"runs)\b|since\b))|$)")
#: How many messages later the speaker's own next one may still name whom they said they are seeing.
_SEEING_REACH = 4
#: A message ending on someone unnamed one is seeing, whose name the speaker's next message may give.
_SEEING_LAST = re.compile(r"(?i)(?:^|[.!?]\s*|\b(?:so|ok|okay|and|also|btw|omg|well)\s+)(?:i['’]?m|im|i\s+am|"
                          r"i['’]?ve\s+been|ive\s+been)\s+(?:seeing|dating)\s+(?:someone|somebody)(?:\s+new)?\W*$")
#: Words that are nobody's name: the extractor's and the alias reader's common words ("wait", "man", "work").
_COMMON = NOT_NAMES | COMMON_WORDS
#: How an English word other than a name often ends: "casually", "married", "older", "irrelevant", "secretive".
_WORDISH = re.compile(r"(?:ly|ed|er|ing|ous|ful|ic|al|ive|ant|ent|able|ible|ish|est|ness|less)$")
#: Words said alone after "i'm seeing someone." that name no one ("Finally.", "Yep.", "Hinge.").
_NO_ONE = frozenset("""finally again yes yeah yep no nope nah sorry lol haha crazy honestly seriously officially
properly kinda sorta maybe someone somebody early nice new well anyway ok okay omg actually really secretly guess
surprise shocking shocker kidding jk allegedly apparently professionally weekly monthly therapist counsellor counselor
doctor tall tinder hinge bumble grindr
""".split())
#: Words that make "i'm seeing someone" someone else's words or a joke: "i told her, …", "jk", "he doesn't exist".
_SAID_OTHERWISE = re.compile(r"(?i)\b(?:say|said|(?<!n['’]t\s)(?<!nt\s)(?<!never\s)(?:tell|told)|texted|lie|lied|"
                             r"lying|pretend\w*|excuse|made\s+up|kidding|jk|jok\w+|imaginary|not\s+real|"
                             r"doesn['’]?t\s+(?:exist|know)|horoscope|plastic)\b")
#: A child told right after the name: "her name is Aino. she's my niece, born tuesday".
_CHILD = re.compile(r"(?i)\b(?:baby|born|niece|nephew|daughter|son|grandson|granddaughter)\b")
#: Words of treatment, in the message or the turn before: "seeing someone" is a professional ("Kofi. he's a physio").
_TREATED = re.compile(r"(?i)\b(?:therap\w+|counsel\w+|psych\w+|physio\w*|specialist|doctor|dr|gp|chiro\w*|osteo\w*|"
                      r"grief|coping|cope|knee|pain|injur\w*|surgery)\b")


def _seeing_named(text: str, previous: str | None, other: str | None) -> str | None:
    """The one the speaker says they are seeing, named on its own right after (:data:`_SEEING_SOMEONE`):
    a word not :data:`_NO_ONE`, neither a pet's nor a thing's, nor where the message or the turn before
    speaks of treatment (:data:`_TREATED`), nor where the message gives someone else's words or a joke
    (:data:`_SAID_OTHERWISE`) or the name is a child's (:data:`_CHILD`); a name the nickname data knows, or a word
    no common word's ending marks that "he's a …" (or "since") follows or "her name is" gives capitalised."""
    m = _SEEING_SOMEONE.search(text)
    if m is None or (name := m["name"]).lower() in _NO_ONE or not is_person(name) or _SAID_OTHERWISE.search(
            text) or _TREATED.search(text + " " + (previous or "")) or name.lower() == (other or "").lower():
        return None
    near = " ".join(split_sentences(text[m.start("name"):])[:2])  # the name and what is said of it
    after = {w.lower() for w in re.findall(r"[\w'’-]+", text[m.start("name"):])}
    asked = {w.lower() for w in re.findall(r"[\w'’-]+", previous or "")}
    if after & (PETS | POSSESSIONS) or asked & POSSESSIONS or _CHILD.search(near):
        return None  # "his name is Biscuit. he's a puppy", "her name is tesla. she's a car"; asked of a scooter;
        # "her name is Aino. she's my niece, born tuesday"
    if m["have"] and not m["called"]:
        return None  # "i have a new boyfriend!! Netflix.": a joke as often as not; "… her name is Aino" is someone
    if is_name_written(name):
        return name
    if name.lower() in _COMMON or _WORDISH.search(name.lower()) or not (m["then"] or (
            m["called"] and name[:1].isupper())):
        return None  # "online. he's in canada", "her name is irrelevant.": a word, no name
    return name


#: The speaker and someone told a couple now, no one named: "we're seeing each other. properly", "ok ok we're kinda
#: seeing each other", "he's my boyfriend now" (dev's misses: the one the other asked of, "tell me about Ewan!!",
#: named in the turn before; not "we're together", as often in one place: "we're together now, waiting for the
#: doctor", a reviewer's).
_COUPLE_NOW = re.compile(
    r"(?i)(?:^|[.!?…]\s*|\b(?:ok|okay|yes|yeah|fine|so|and|well|lol|haha)\W+)(?:we(?:['’]re|\s+are)\s+"
    r"(?:(?:officially|finally|kinda|kind\s+of|sort\s+of|properly|now)\s+)*(?:seeing\s+each\s+other|dating|"
    r"courting|official|a\s+couple|an\s+item|a\s+thing)|(?:he['’]s|she['’]s|he\s+is|she\s+is)\s+(?:(?:officially|"
    r"finally|kinda|now)\s+)*my\s+(?:boyfriend|girlfriend|bf|gf|partner))(?=\s*(?:now|again|properly)?\s*"
    r"(?:$|[.!,;…]|[^\w\s?]))")
#: The other's turn asking of one person by name: "tell me about Ewan!!", "are you and leah a thing?", "who is Linas",
#: "how's Theo", "and??? Linas???".
_ASKED_OF_ONE = re.compile(r"(?i)\b(?:you\s+and|about|who\s+is|who['’]?s|how['’]?s|how\s+is)\s+"
                           r"(?P<name>[^\W\d_][\w'’-]*)(?=\s*(?:$|[.!?,…]|a\s+thing|then))|"
                           r"^\W*(?:and\W+)?(?P<alone>[^\W\d_][\w'’-]*)\W*$")


def _couple_asked(text: str, previous: str | None, speaker: str, other: str | None) -> str | None:
    """The one the speaker says they are a couple with now (:data:`_COUPLE_NOW`), named in the other's turn before
    (:data:`_ASKED_OF_ONE`) and in no other way: a name, not the speaker's or the other's, none in the message itself;
    nothing for a question, a hedge, a denial, or words that make "we" no couple (:data:`_NOT_A_COUPLE`)."""
    if previous is None or other is None or (m := _COUPLE_NOW.search(text)) is None or text.rstrip().endswith("?") or \
            _NOT_A_COUPLE.search(text) or HEDGE_BEFORE.search(text) or re.search(
                r"(?i)\b(?:not|never|n['’]t)\b", text[:m.end()]) or names_anyone(text):
        return None
    asked = {a["name"] or a["alone"] for a in _ASKED_OF_ONE.finditer(previous) if not (a["alone"] or "").isupper()}
    # ("BRO???", "YESSSSS", "EZE": a shout, or the speaker called, no one asked of)
    names = {n for n in asked if n.lower() not in (speaker.lower(), (other or "").lower()) and n.lower() not in _COMMON
             and n.lower() not in _NO_ONE and not is_place(n)
             and (is_name_written(n) or is_given_name(n.lower()) or n[:1].isupper() and not plain_english(n.lower()))}
    return names.pop() if len(names) == 1 and len(asked) == 1 else None


#: Words that make "X and I ... we" no couple: a band or friends ("me and Tom started a band. we broke up"), each
#: with someone else ("we both got married", "we broke up with our partners"), a joke ("jk we never dated"), a baby
#: or a pet named ("her name is Chloe. we got married last year too").
_NOT_A_COUPLE = re.compile(r"(?i)\b(?:we\s+both|both\s+of\s+us|band|(?:as|just)\s+(?:friends|mates)|friendship|"
                           r"besties|as\s+a\s+group|jk|kidding|never\s+dated|not\s+(?:together|dating)|baby|born|puppy|kitten|dog|cat|nanny)\b")
def _plain_word(name: str, known: set[str]) -> bool:
    """Whether ``name`` is one plain word of English no name list knows and the chat has not given anyone: "Soup
    is a good sign. … Then we married" marries no Soup (h66); "Will", "Oscar" once named, "Tom" stay names."""
    return name.isalpha() and plain_english(name.lower()) and not is_known_name(name) and name.lower() not in known


#: A reciprocal verb's own object after it: "we broke up with our partners", "we got married to brothers".
_OWN_OBJECT = re.compile(r"(?i)\s*(?:with|to|from)\s+(?:our|their|my|his|her|other|different|(?!this\b)\w{3,}s\b)")
#: What one calls a partner, not a name: "Babe and I".
_ENDEARMENTS = frozenset("babe baby hun honey love darling sweetheart bae hubby wifey work".split())
#: A sentence that opens with someone's name given: "his name is seojun, hes in my study group."
_NAME_GIVEN = re.compile(r"(?i)\W*(?:her|his)\s+name(?:['’]s|\s+is)\s")
#: A sentence that is only the speaker and someone, its verb in the next: "Birita and I...".
_WE_TWO = re.compile(r"(?i)\W*(?:[\w'’-]+\s+and\s+(?:i|me)|me\s+and\s+[\w'’-]+)\W*")


#: That an event never happened, said of it: "it was cancelled", "the wedding got postponed".
_CALLED_OFF_SAID = (r"(?:(?:it|that|the\s+(?:whole\s+thing|" + "|".join(sorted(EVENTS, key=len, reverse=True))
                    + r"))\s+"
                    r"(?:was|were|got|had\s+been|has\s+been)\s+(?:(?:all|just|sadly|actually)\s+)?"
                    rf"(?:{CALLED_OFF})|(?:they|the\s+[\w'’-]+)\s+(?:(?:{CALLED_OFF})\s+it|called\s+it\s+off))\b"
                    r"(?![^.!?]*\b(?:half\s*way|halfway|part\s*way|last\s+(?:year|time)|but\s+(?:finally\s+)?"
                    r"happened)\b)")
#: Right after an event's sentence: "went to Leeds for the festival. it was cancelled", "… the wedding. but it got
#: postponed".
_CALLED_OFF_AFTER = re.compile(r"\s*(?:[.!…]+\s*)?(?:but\s+|and\s+|then\s+|lol\s+)?" + _CALLED_OFF_SAID, re.IGNORECASE)
#: Later in the event's own sentence, a clause of its own: "went to the wedding but it was cancelled", "went to the
#: gig, it got postponed".
_CALLED_OFF_LATER = re.compile(r"(?:,|;|\s-|\b(?:but|and|then|lol|so))\s*" + _CALLED_OFF_SAID, re.IGNORECASE)


#: An event the speaker saw from afar: "the wedding was insane. i watched like 4 hours of ramzi's video call".
_FROM_AFAR = re.compile(r"(?:^|[.!?,;]\s*|\b(?:i|we)\s+)(?:watched|saw|followed|caught)\b[^.!?]{0,60}?\b"
                        r"(?:(?P<call>video\s*-?calls?|facetime|zoom|skype|live\s*-?stream|stream)|on\s+(?:the\s+)?"
                        r"(?:tv|telly|youtube|insta(?:gram)?|tiktok|facebook|fb)|from\s+the\s+(?:pub|bar|sofa|couch|"
                        r"hospital))\b[^.!?]{0,40}", re.IGNORECASE)
#: The speaker says they were not there: "my cousin filmed it all for me since i couldn't go".
_NOT_GONE = re.compile(r"(?i)\b(?:i|we)\s+(?:couldn['’]?t|could\s+not|didn['’]?t|can['’]?t|cant)\s+(?:go|make\s+it)"
                       r"(?=\s*(?:$|[.!,;)…]|lol|haha|so\b|but\b|because\b|bc\b|cos\b|in\s+the\s+end\b|after\s+all\b))")


#: How often one does a thing: "every morning", "3 times a week", "mostly", "most days".
_HOW_OFTEN = re.compile(r"(?i)\b(?:every|each|mostly|usually|always|daily|weekly|most\s+(?:days|mornings|evenings|"
                        r"nights|weekends)|(?:\d+|two|three|four|five|once|twice)\s+(?:times\s+)?(?:a|per)\s+"
                        r"(?:day|week|month))\b")


#: The turn before asks of a habit: "what do you do for fun?", "how do you relax?".
_ASKED_HABIT = re.compile(r"(?i)\bwhat\s+do\s+(?:you|u)\s+do\b|\bhow\s+do\s+(?:you|u)\b|\bfor\s+fun\b|"
                          r"\bhobb(?:y|ies)\b|\bany\s+sports?\b")


#: The turn before asks what someone else is doing: "what's your brother up to?", "what's jess doing in prague?".
_ASKED_OF_ANOTHER = re.compile(r"(?i)\b(?:what['’]?s|what\s+is|what\s+are|hows|how['’]?s|how\s+is|what\s+does)\s+"
                               r"(?!(?:you|u|ya|it|that|this|everything|everyone|everybody|life|work|things|we|people|"
                               r"the\s+(?:family|kids|fam|gang|crew|lot))\b)(?:(?:your|ur|the)\s+)?[\w'’-]+\s+"
                               r"(?:doing|up\s+to|do)\b")


#: The turn before is a short question whether someone else did a thing: "did pappa help", "did Tom come?" (a past
#: answer with no subject, "drove up from bodø with the trailer", is then theirs, not surely the speaker's); not
#: "how did your weekend go?", "did some shopping. u?", "did laundry all day lol" (see :meth:`_asked_did`).
_ASKED_DID_ANOTHER = re.compile(r"^\W*did\s+(?:(?:the|your|ur)\s+(?=(?:kids|boys|girls|parents|family|"
                                r"children|grandparents|[\w'’-]+\s+(?!and\b)[a-z])))?(?P<who>[\w'’-]+)\s+(?!and\b)"
                                r"[a-z][\w'’-]*(?:\s+[\w'’-]+){0,8}\W*$", re.IGNORECASE)
#: Words for a parent or a grandparent in other languages, said like a name ("did pappa help"), and for several
#: relatives ("did the kids enjoy it?").
_KIN_ELSEWHERE = frozenset("pappa papa mamma mama baba oma opa nonna nonno abuela abuelo tata kids children parents "
                           "boys girls family grandparents folks".split())
#: Words after "did" that ask of the other speaker, of a thing, or of no one: "did you go?", "did it work?".
_NOT_ASKED_OF = frozenset("you u ya it that this we i they everyone everybody anyone anybody some any the your ur my "
                          "a an".split())


#: Words that undo a pastime or a membership, in its sentence or the next: "i started learning arabic but gave up
#: after a week", "… when i was 6. forgot all of it", "jk. as if", "said no one ever", "is on my bucket list", "if i
#: actually did it", "… but i never open the app" (not "then i stopped eating meat": another thing stopped).
_UNDONE = re.compile(r"(?i)\b(?:(?:but|and\s+then|then)\s+(?:i\s+)?(?:gave\s+(?:it\s+)?up|stopped|quit|"
                     r"dropped(?:\s+it)?)"
                     r"(?=\s*(?:$|[.!,;]|after\b|lol|haha|when\b|because\b|bc\b|cos\b|it\b))|forgot\s+(?:it\s+)?all|"
                     r"forgot\s+all\s+of\s+it|jk(?=\s*(?:$|[.!,]|lol|haha))|just\s+kidding|said\s+no\s+one\s+ever|"
                     r"(?:^|[.!?]\s*)as\s+if\s*[.!]*\s*$|bucket\s+list|if\s+i\s+(?:actually|ever)|"
                     r"for\s+like\s+(?:\d+|five|ten|two)\s+minutes|never\s+open)\b", re.MULTILINE)
#: In the fact's own sentence only: a time long gone ("i started learning bulgarian when i was 6").
_LONG_AGO = re.compile(r"(?i)\bwhen\s+i\s+(?:was|lived)\b")


def _undone(fact: ExtractedFact, message: str) -> bool:
    """Whether ``fact`` begins a pastime or a membership its own sentence or the next undoes (:data:`_UNDONE`)."""
    if fact.op != "assert" or fact.predicate not in ("does", "member_of") or (at := message.find(fact.quote)) < 0:
        return False
    rest = split_sentences(message[at:])
    return any(_UNDONE.search(sentence) for sentence in rest[:2]) or bool(rest and _LONG_AGO.search(rest[0]))


#: Being there, said in the event's own sentence or beside what was watched: "went to the gig. we watched the support
#: act on youtube before", "i watched the livestream of the king's speech there".
_THERE = re.compile(r"(?i)\b(?:went|go|gone|been|was\s+at|were\s+at|attended|danced|dancing|there|"
                    r"(?:before|after|afterwards)(?=\s*(?:$|[.!,;]|lol|haha))|at\s+the\s+(?:hotel|pub|bar))\b")


def _called_off(fact: ExtractedFact, message: str) -> bool:
    """Whether ``fact`` attends an event its own sentence, after the event, or the message's next
    words say did not happen (see :data:`_CALLED_OFF_LATER`, :data:`_CALLED_OFF_AFTER`), or, where its
    sentence says no going there (:data:`_THERE`), one the message says the speaker watched from afar
    (:data:`_FROM_AFAR`) or could not go to (:data:`_NOT_GONE`)."""
    if fact.predicate != "attended" or fact.op != "assert" or (at := message.find(fact.quote)) < 0:
        return False
    watched = rf"(?i)\b(?:it|that|the\s+whole\s+thing|{re.escape(((fact.object or '').split() or ['it'])[-1])})\b"
    if (afar := _FROM_AFAR.search(message)) and not _THERE.search(fact.quote) and not _THERE.search(
            afar.group()) and (afar["call"] or re.search(watched, afar.group())):
        return True  # a call or a stream of it, or the event itself on a screen (not "the match on tv" later)
    if _NOT_GONE.search(message) and not _THERE.search(fact.quote):
        return True
    said = fact.quote.lower().find((fact.object or "").lower())
    if said >= 0 and _CALLED_OFF_LATER.search(fact.quote, said + len(fact.object or "")):
        return True
    return _CALLED_OFF_AFTER.match(message, at + len(fact.quote)) is not None


#: Someone met, named in lower case where the words say a name: "a guy called kieran", "farid's whole family".
_MET_LOWER = re.compile(r"\s*(?:(?:a|this|some|one)\s+(?:guy|girl|man|woman|lady|bloke|fella|lad|person|someone|"
                        r"boy|chap|dude)\s+(?:called|named|named\s+as)\s+(?P<name>[\w-]{2,})\b(?!['’])"
                        r"(?:\s+(?P<surname>[a-z][\w-]+)\b(?!['’]))?|"
                        r"(?P<name2>[\w-]{2,})['’]s\s+(?:whole\s+|entire\s+)?(?P<kin>family|parents|kids|children|"
                        r"mum|mom|dad|mother|father|sister|brother|grandma|grandmother|nan|granny))\b", re.IGNORECASE)


#: Countries written by their letters that the place lists do not hold: "went to the US", "the DR", "the BVI".
_COUNTRY_LETTERS = frozenset("US DR DRC BVI USVI PNG KSA CAR".split())


#: Words before "'s family" that are no one's name: titles, and the short words for one's own ("hubby's family").
_NOT_MET = frozenset("""mr mrs ms miss dr doc prof sir hubby wifey bf gf bff bae fiance fiancee fiancé fiancée
mum mom mam dad da ma pa nan nana gran granny grandma grandpa sis bro""".split())


#: Being somewhere said as the time of something else, or counted down to: "… to babysit them while I'm in kampala",
#: "7 weeks and im in são paulo" (not "I'm in Lisbon!").
_SOME_TIME_THERE = re.compile(r"(?i)(?:\b(?:while|when|whenever|once|until|till|before|after|if)\s+|\b\d+\s+(?:days?|"
                              r"weeks?|months?|sleeps?)\s+(?:and|till|until|til)\s+)(?:i['’]?m|im|i\s+am|we['’]re|we\s+are)"
                              r"\s*$")


#: A newcomer told before "calling her": a birth, a baby, a puppy or a kitten, whom the name is for.
_NEWCOMER = re.compile(r"(?i)\b(?:bab(?:y|ies)|born|newborn|gave\s+birth|puppy|pup|kitten|foal)\b")


#: A clause that likens, right before its subject: "cried like I moved to Australia", "feels like we live here",
#: "it's not like I work at Google", "that's like my truck"; not a filler "like" ("omg so like i moved to berlin").
_LIKENED = re.compile(r"(?i)\b(?:cried|cry|cries|crying|acted|acts|act|acting|"
                      r"treat(?:s|ed|ing)?\s+(?:me|us|him|her|them)|looks?|looked|feels?|felt|sounds?|sounded|"
                      r"seems?|seemed|reacted|not|that['’]?s|thats|it['’]?s|its|was|is)\s+like\s+$")


#: Words that make being somewhere work: "my first week there", "night shifts", "my last day", "onboarding".
_JOB_CUE = re.compile(r"(?i)\b(?:(?:my|our|his|her)\s+(?:first|last|final)\s+(?:day|shift|week)|night\s+shifts?|"
                      r"(?:my|his|her)\s+shifts?|(?:new|my|this)\s+job|onboarding|laid\s+off|(?:my|his|her)\s+notice|"
                      r"colleagues?|(?:work|working|worked)\s+there|(?:i['’]?m|i\s+am)\s+an?\s+[\w-]+\s+there)\b")


#: A length of time said up to now: "5 years now" (with "i live in Leeds", no perfect needed).
_NOW_SAID = re.compile(r"(?i)\b(?:years?|yrs?|months?)\s+now\b")


def _kept_since(reading: Reading, span: object, reference: datetime, between: str, after: str) -> bool:
    """Whether a time phrase after a pastime said in the perfect is when it began: "I've been doing yoga
    since March" (a period open at its end, begun before the message, named by its month, season or year),
    not a plan ("I'm playing tennis tomorrow"), a session or a trip ("chess since Saturday at the
    tournament"), a change in it ("more tennis since March", "yoga with a new teacher since March") or a
    pastime the sentence goes on to end ("… since March but I stopped last week"). ``between``: the words
    from the verb to the phrase; ``after``: the rest of the sentence."""
    return reading.perfect and not (reading.negated or reading.ending) and isinstance(span, TimeSpan) \
        and span.end is None and span.start <= reference and span.text.lower().startswith("since") \
        and span.granularity in ("month", "season", "quarter", "year", "decade") \
        and len(between.split()) <= 3 and not _SINCE_CHANGED.search(between) and not _SINCE_ENDED.search(after)


#: Words between a pastime and its "since" that make the time another thing's: "more tennis", "with a new teacher".
_SINCE_CHANGED = re.compile(r"(?i)\b(?:more|less|again|with|for|at|in|on|the\s+(?:cooking|cleaning|walking|washing))\b")
#: The rest of the clause ends or doubts it: "… but I stopped", "until the op", "wait no".
_SINCE_ENDED = re.compile(r"(?i)\b(?:but|until|till|stopped|quit|gave\s+up|though|tho|well|wait|actually|except)\b")


def _visit_long(span: object) -> bool:
    """Whether a time phrase names a stretch no visit fills: not an instant, a day, a weekend or a
    week ("we were at the Christkindlmarkt on the weekend" is an outing, never a job)."""
    return not (isinstance(span, TimeSpan) and span.granularity in ("instant", "day", "weekend", "week"))


def _goes_on(town: str, quote: str) -> bool:
    """Whether a town typed in lower case is followed by a word that may be the rest of a longer name ("alton
    towers", "hampton court", "cabot circus"): not a word of :data:`_AFTER_A_TOWN` ("tainan on thursday")."""
    if town != town.lower():
        return False
    m = re.search(re.escape(town) + r"\s+([a-z][\w'’]*)", quote)
    return m is not None and m.group(1) not in _AFTER_A_TOWN


def _unknown_trip(fact: ExtractedFact) -> bool:
    """A trip to a name the gazetteer does not know: "we went to Supercrawl", "went to the MCG",
    "we went to Osheaga" name a festival, a ground, an event as often as a town ("went to Ballina"),
    and the rules cannot tell which. Proposed for review, never written unseen."""
    if fact.predicate != "traveled_to" or fact.op != "assert" or not fact.object:
        return False
    if said_with(fact.quote, fact.object, after=_STAYED_AFTER):
        return False  # "went to Diani for three nights": a stay of nights or weeks is somewhere
    if not is_place(fact.object) and (said_with(fact.quote, fact.object, after=_SITE_AFTER, ignore_case=True)
                                      or said_with(fact.quote, fact.object, before=_TO_SEE, ignore_case=True)
                                      or _SITE_WORD.search(fact.object) or _goes_on(fact.object, fact.quote)):
        return True  # "went to Sumiyoshi shrine": a shrine, wherever it is; "went to see Hassan": someone, as often;
        # "went to Sakura for dinner": a restaurant; a town only the long list knows
    return not all(is_town(part) or is_town(re.sub(r"\s+city$", "", part, flags=re.IGNORECASE))
                   for part in re.split(r"\s*,\s*|\s+and\s+", fact.object) if part)


#: How long a move said to come is waited for: "greetings from valencia" a year after "i'm moving to
#: valencia" is no longer read as the move.
_PLAN_LASTS = timedelta(days=365)
#: How long a job said got is waited for: a start told later than this is not read as that job's.
_JOB_WAITED = timedelta(days=183)
#: A move done, to where: "moved to", "relocated back to" (a plan, "moving to", names a place no more surely).
_MOVED_TO = re.compile(r"\b(?:moved|relocated)\s+(?:back\s+)?to\s*$", re.IGNORECASE)
#: An address or a link opening what follows a verb: "to https://…", "to gmail.com", "to @maya" (no place).
_LINKISH = re.compile(r"\s*[^\W\d_][\w'’&-]*(?:[:/@]|\.[^\W_])")
#: Words typed short that a lower-case place after "moved to" is not.
_TYPED_SHORT = frozenset(("ur", "yr", "ya", "yer", "thy", "tha", "da", "de", "ze", "dis", "dat", "nxt", "sm", "smth"))
#: What one goes to or comes back from, typed in lower case where a town may go, that is no town: chains ("went to
#: lidl", "tescos"), routine places and duties ("back from uni", "physio", "nightshift"), holidays ("back from xmas"),
#: faith and family occasions ("jummah", "nikah"), food outings and apps ("yum cha", "tiktok"), and words for home,
#: work or school in other languages ("ghar", "boulot"): a reviewer's attack on the thirty-ninth session's reading.
_CHAINS = frozenset("""
lidl aldi tesco asda ikea costco kmart walmart target maccas maccies mcdonalds nandos starbucks starbs sainsburys
morrisons waitrose primark boots spar coles woolies woolworths greggs pret spoons wetherspoons kfc costa timmies dominos
chipotle kroger mercadona carrefour jollibee currys argos aldis subway hooters denny's dennys
""".split())
_TYPED_NO_TOWN = _CHAINS | frozenset("""
uni univ college sch skool wrk werk physio docs doctors dentist dentists gp vet vets chemo dialysis daycare kindy
kindergarten creche nursery hospice rehab res halls hostel hostels nightshift dayshift earlies lates shift gym
xmas crimbo christmas nye hols vacay halfterm cny bday birthday freshers eid diwali holi hanukkah easter thanksgiving
jummah gurdwara shul synagogue mosque masjid iftar suhoor nikah mehndi sangeet madrasa madrassa quran kumon tuition
mass sunday-school
yum cha braai hotpot ramen boba pres predrinks brunch dinner lunch bbq
youtube tiktok insta instagram snapchat discord whatsapp netflix settings bed
ghar arbeit escuela trabajo boulot colegio schule palengke kampung mamak casa maison
baka deda nonna nonno oma opa abuela abuelo lola lolo yiayia papou babcia dziadek nani nana dadi dada bibi babu
""".split())
#: Words of a venue's or a street's name, typed in lower case where a town may go: "went to piazza della loggia",
#: "arena méxico", "carnaby st".
_VENUES = frozenset("piazza plaza praça praca square market mercado park parque arena stadium estadio mall st rd ave "
                    "street road avenue lane".split())
#: A word of chat that ends a place typed in lower case, no part of it: "went to hakuba w jess", "back from svalbard
#: tmrw", "tbh", laughter.
_CHAT_END = re.compile(r"w|wi|w/|yday|ytd|tbh|ngl|fr|innit|tonite|wknd|tmrw|tmr|tmoz|rn|asap|idk|btw|imo|x+|"
                       r"(?:ha)+h?|(?:he)+h?|lo+l+|lmf?ao+|omg+|xd|pls|plz")
#: A town said after what one went to, which is then something there: "in trogir", "at arena méxico".
_SITE_IN = re.compile(r"(?:\s+(?:last|this|on)\s+\w+)?\s*,?\s+(?:in|at)\s+(?:the\s+)?(?P<where>[^\W\d_][\w'’-]*)")
#: Nouns a word typed before names what it is of: "quran school", "trivia night", "kevs work".
_NOUN_AFTER = re.compile(r"\s+(?:school|class|classes|work|night|practice|session|shift|club|lesson|lessons)\b")


#: A greeting from somewhere: as often from home as from a trip, and a place typed in lower case after it is left.
_GREETED = re.compile(GREETED_FROM, re.IGNORECASE)
#: A home's word in a verb's words: where a place typed in lower case may be where one lives ("our flat in woodlands";
#: not "i live in trackies", "drove down from uni").
_HOME_WORD = re.compile(r"(?i)\b(?:flat|house|place|apartment|home|room|studio|condo|(?:moved|moving)\s+in\s+with)\b")
#: What a phone capitalises by itself: a sentence's first letter, and "I" ("I'm", "I'll").
_BY_ITSELF = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))\W*[A-Z]|\bI(?=\b|['’])|[:;=]-?[DPO]\b|\bXD\b")


def _uncapitalised(text: str) -> str:
    """``text`` in lower case where its only capitals are those a phone writes by itself (a sentence's first letter,
    "I", an emoticon's ":D"): "We just got back from svalbard" is typed in lower case; "We went to daylesford with
    Mia" is not."""
    return text.lower() if not any(ch.isupper() for ch in _BY_ITSELF.sub("", text)) else text


def _typed_where(typed: str, rest: str, people: Sequence[str] = ()) -> str | None:
    """The place a lower-case run after a trip's words may name (:func:`_typed_place`), cut at a word of chat; None
    for what is no town (:data:`_TYPED_NO_TOWN`, a pastime, a language, a group, an event, kin, a venue or street),
    a name before a noun of what it is ("quran school"), or someone's home typed without its apostrophe ("priyas",
    "nonnas", "urs"; ``people``: the chat's speakers)."""
    words = typed.split()
    cut = next((n for n, w in enumerate(words) if _CHAT_END.fullmatch(w)), len(words))
    place = _typed_place(" ".join(words[:cut]))
    if place is None:
        return None
    parts = place.split()
    first = parts[0]
    if is_town(place):
        return place
    if any(w in _TYPED_NO_TOWN or w.rstrip("s") in _TYPED_NO_TOWN or w in _VENUES for w in parts) or \
            place in ACTIVITY_PAIRS or first in ACTIVITIES or first in LANGUAGES or first in GROUPS or \
            first in EVENTS or first in FAMILY_WORDS or first in RELATIONS or is_given_name(first):
        return None
    lower = rest.lower()
    if (at := lower.find(place)) >= 0 and (_NOUN_AFTER.match(lower, at + len(place)) or (
            (there := _SITE_IN.match(rest, at + len(place))) and not is_wide(there["where"]) and (
                there["where"][0].isupper() or is_town(there["where"].lower())))):
        return None  # "went to baka in trogir", "vinitaly last week, in verona": someone or something there
    own = {p.lower().split()[0] for p in people if p}
    if len(parts) == 1 and place.endswith("s") and (
            is_known_name(place[:-1]) or place[:-1] in FAMILY_WORDS or place[:-1] in RELATIONS
            or place[:-1] in own or place in ("urs", "yours", "mine", "theirs", "ours")):
        return None
    return place


#: A day or a month, one or many, typed in lower case: no place ("moved to thursdays").
_WHEN_WORD = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|may|june|july|"
                        r"august|september|october|november|december|(?:week|fort)night(?:s|ly)?")


#: Words that open a phrase after a place: "i moved to karosta last year", "to karosta in may with my mum".
_PHRASE_OPENERS = frozenset("""
last this next in on at with and for from yesterday today tonight now because cos so but after before when since
about around just finally already again too lol haha omg
""".split())


def _typed_place(typed: str) -> str | None:
    """The place a lower-case run after "moved to" may name: its words up to the first plain English one, of letters
    (a hyphen between), no day or month, no one's ("nan's", "mums"), short; None otherwise."""
    typed_words = typed.split()
    cut = next((n for n, w in enumerate(typed_words) if plain_english(w)), len(typed_words))
    if cut < len(typed_words) and typed_words[cut] not in _PHRASE_OPENERS:
        return None  # "oat milk", "ikea furniture": a plain noun after it makes it another noun's word
    words = typed_words[:cut]
    place = " ".join(words)
    if not words or len(place) < 3 or len(place) > 30 or place in _TYPED_SHORT or any(
            not re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)*", w) or _WHEN_WORD.fullmatch(w) for w in words) or (
            words[-1].endswith("s") and (words[-1][:-1] in FAMILY_WORDS or words[-1][:-1] in RELATIONS)):
        return None
    return place
#: How often, right after a habit's verb: "every evening", "most mornings", "twice a week", "on sundays" (not "every
#: errand", "twice as fast"); narrower than :data:`_HOW_OFTEN`, which a verb alone may have anywhere beside it.
_HOW_OFTEN_AFTER = re.compile(
    r"[\s.,!]*(?:now\s+|still\s+|again\s+|a\s+lot\s+)?(?:(?:every|most|each)\s+(?:single\s+|other\s+)?(?:day|morning|"
    r"evening|night|afternoon|week|weekend|month|year|summer|winter|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?|"
    r"(?:once|twice|three\s+times|\d+\s*(?:x|times))\s+(?:a|per|each|every)\s+(?:day|week|month|year)|daily|weekly|"
    r"regularly|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days|(?:at|on)\s+(?:the\s+)?weekends?|before\s+work|"
    r"after\s+work|in\s+the\s+(?:mornings|evenings))\b", re.IGNORECASE)
#: Work, not a pastime, right after how often: "I fish every day for work".
_FOR_WORK = re.compile(r"[^.!?]{0,12}?\bfor\s+(?:work|a\s+living|my\s+job|money)\b", re.IGNORECASE)
#: How many messages a word said as where someone is stays no one "he" or "she" may mean.
PLACE_MEMORY = 4
#: A capitalised word said as where someone is ("in Pile", "moved to Sinazongwe"), not whose ("in Ana's car").
_WHERE = re.compile(r"\b(?<!trust\s)(?<!believe\s)(?<!see\s)(?<!saw\s)(?<!faith\s)(?<!interested\s)(?<!myself\s)"
                    r"(?<!yourself\s)(?<!herself\s)(?<!himself\s)(?i:in|near|(?:moved|moving|move)\s+(?:back\s+)?to)\s+"
                    r"([A-Z][\w-]+)\b(?!['’])")
#: What a couple is: a breakup with no one named ends the one of these told last.
_COUPLED = frozenset(("dating", "married_to"))
#: A determiner right before a day's name, which then names a thing: "the Easter parade", "our Christmas party".
_NAMING = re.compile(r"\b(?:the|a|an|our|my|his|her|their|this\s+year['’]s|last\s+year['’]s)\s+$", re.IGNORECASE)
_NAMED_THING = re.compile(r"\s+(?!(?:before|after|of|last|just|when|that|and|or|i|we|he|she|they|you|u|to|in|at|on|"
                          r"weekend|week|break|hols|holidays?|bank|eve|day|morning|night|time|season|period|"
                          r"vacation|vac|term|rush|trip)\b)[\w'’]", re.IGNORECASE)
#: Verbs whose lowercase object is as likely a hobby as an employer ("i joined yoga").
_NO_LOWERCASE = ("join", "start", "began", "begin", "got", "get", "landed", "found", "hired",
                 "go", "enrolled", "taking", "take", "doing", "do", "study", "studi", "quit")


@dataclass
class _Found:
    at: int
    facts: list[ExtractedFact]
    mention: bool = False  # "sold my car": the mention of "my car" says no more than the verb


#: The speaker said as a subject ("I", "I'm", "we"): a clause of someone else's after it is said inside
#: the speaker's own ("I know they're busy and joined a gym").
_SPEAKER_SUBJECT = re.compile(r"(?<![\w'’])(?:i|we)(?:['’](?:m|ve|d|ll|re))?(?![\w'’])", re.IGNORECASE)
#: Where someone works, studies, lives or belongs: in a message about "he" or "she" with no "I", a
#: clause that leaves its subject out may be theirs ("Got a job at WestJet. He starts in February.").
_PLACED = frozenset(("works_at", "studies_at", "lives_in", "member_of"))
_ABOUT_THEM = re.compile(r"(?:^|[.!?;,:]\s*)(?:he|she)(?:['’]s|\s+(?:is|was|has|had|\w+s)\b)", re.IGNORECASE)
#: The speaker said anywhere, as a subject or not: "I", "I'm", "me", "my", "our".
_MINE = re.compile(r"(?<![\w'’])(?:i|me|my|mine|we|us|our)(?:['’](?:m|ve|d|ll|re))?(?![\w'’])", re.IGNORECASE)
#: Words after "her" that make it whose, not whom: "I met her friend Tom", "her best friend Anna".
_WHOSE_WORDS = RELATIONS | FAMILY_WORDS.keys() | RELATION_ADJECTIVES

#: Adds a fact: ``add(subject, predicate, object[, op, valid_from, valid_to])``.
_Add = Callable[..., None]


class RuleExtractor:
    """Extract facts with regular expressions and word lists; no network, no model."""

    name = "rules"

    def __init__(self, *, day_first: bool = False, tz: tzinfo | str = UTC) -> None:
        self.day_first = day_first
        self.tz = tz
        #: The relatives recorded so far, for the messages of one conversation read in order.
        self.family = FamilyMemory()
        #: The pets named so far, per speaker ("our cat Miso"), whose death ends them later.
        self.pets = PetMemory()
        #: Per pair of participants (one chat), the names it has written capitalised inside a
        #: sentence, in lower case: "kwesi" is someone once "Kwesi" was seen, though no list of
        #: names knows it.
        self.names: dict[frozenset[str], set[str]] = {}
        #: Per pair of participants, the capitalised words it has said as where someone is, in lower case:
        #: "she sells for the weavers in Pile" - "Pile?" - "she lives in Montecristi": she is not Pile.
        self.places: dict[frozenset[str], dict[str, int]] = {}
        #: Per pair of participants, how many messages have been read (for how recently a word was a place).
        self._read: dict[frozenset[str], int] = {}
        # where in its chat each speaker last said they are seeing someone unnamed (its messages read by then)
        self._seeing: dict[tuple[frozenset[str], str], int] = {}
        #: Per pair of participants, the one person the last messages spoke of, carried through turns
        #: that name no one and say "he" or "she" ("Esi?" - "yes. she's funny" - "she works at UCC").
        self._topics: dict[frozenset[str], str | None] = {}
        #: Per pair of participants, when the last message was said: a topic does not outlive a
        #: pause longer than :data:`SITTING` (another sitting, another talk).
        self._said_at: dict[frozenset[str], datetime] = {}
        #: Per pair of participants, where each speaker said they are moving (speaker -> place).
        self._moves: dict[frozenset[str], dict[str, tuple[str, datetime]]] = {}
        #: Per pair of participants, where each speaker last greeted the other from ("greetings from Mandeville").
        self._greeted: dict[frozenset[str], dict[str, tuple[str, datetime]]] = {}
        #: Per pair of participants, when each speaker last said they got a job without naming it ("I GOT THE JOB").
        self._unnamed_jobs: dict[frozenset[str], dict[str, datetime]] = {}
        #: Per pair of participants, where each speaker said they got a job not yet begun (speaker -> employer).
        self._jobs: dict[frozenset[str], dict[str, tuple[str, datetime]]] = {}
        #: Per pair of participants, the trips each one was told with no time of their own: (who, place) -> when.
        self._trips: dict[frozenset[str], dict[tuple[str, str], datetime]] = {}
        self._starts: dict[frozenset[str], dict[tuple[str, str, str], datetime]] = {}
        #: Per pair of participants, each speaker's partner as last told: (speaker, predicate) -> name.
        self._partners: dict[frozenset[str], dict[tuple[str, str], str]] = {}
        #: Per pair of participants, the groups, jobs, schools and pastimes each speaker was last told to
        #: have, newest last: speaker -> [(predicate, object)] (see :meth:`_quit_known`).
        self._held: dict[frozenset[str], dict[str, list[tuple[str, str]]]] = {}
        #: Per pair of participants and speaker, the things and pets they told they have (the newest), by name.
        self._owned: dict[frozenset[str], dict[str, list[tuple[str, str]]]] = {}

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
        if reference_time.tzinfo is None or reference_time.utcoffset() is None:
            raise InvalidInput("reference_time must carry its time zone (an aware datetime), e.g. 2024-05-08T10:00:00Z")
        text = unicodedata.normalize("NFC", text)  # "E\u0301lodie", as some keyboards send it, is "Élodie"
        read = unshouted(text)
        if read != text:  # "WE ADOPTED A DOG. her name is biscuit": the shouted sentence read as if typed in lower case
            result = self._extract_result(read, reference_time, speaker, other, previous)
            return MessageResult(facts=[f.model_copy(update={"quote": as_written(f.quote, read, text)})
                                        for f in result.facts], note=result.note)
        return self._extract_result(text, reference_time, speaker, other, previous)

    def _extract_result(self, text: str, reference_time: datetime, speaker: str, other: str | None,
                        previous: Turn | None) -> MessageResult:
        self._other = other
        self._previous = previous
        self._speaker = speaker.strip()
        self._asked_of_another = bool(previous is not None and previous.speaker != self._speaker
                                      and _ASKED_OF_ANOTHER.search(previous.text))
        self._asked_did_another = previous is not None and previous.speaker != self._speaker \
            and self._asked_did(previous.text)
        facts: list[ExtractedFact] = []
        keys: set[tuple[object, ...]] = set()  # the facts' keys (:func:`_key`), and their first four (:func:`_same`)
        firsts: set[tuple[object, ...]] = set()
        self._unused: list[str] = []
        self._timeless: list[ExtractedFact] = []  # facts whose time no phrase gives ("moved in together")
        self._last_named: str | None = None
        if (last_said := self._said_at.get(self._chat())) is not None and abs(reference_time - last_said) > SITTING:
            self._topics[self._chat()] = None  # a new sitting: "she" is no one of the last
        self._said_at[self._chat()] = reference_time
        self._only_named = self._one_person_named(text, previous)
        self._only_named = self._only_named or self._carried(text, previous)
        self._message = text
        self._lower_case: dict[bool, bool] = {}  # whether the message is typed in lower case (:meth:`_in_lower_case`)
        self._riddle = bool(_SELF_TOLD.search(text)) and not _NOT_ME.search(text)  # "guess who … 🙋‍♀️": the speaker
        self._message_kinds: set[str] | None = None  # which of he and she the message says (:meth:`_relations`)
        self._about_them = bool(_ABOUT_THEM.search(text)) and not _MINE.search(text)  # "… He starts in February."
        self._staying = only_staying(text)  # "we're in Rome now!! back Sunday": no home
        last: list[ExtractedFact] = []
        got: list[ExtractedFact] = []  # the facts of the last sentence that told any, for a start told after them
        kept: list[ExtractedFact] = []  # ``got`` once kept over a sentence of a role, kept no further
        mine: list[ExtractedFact] = []  # the speaker's facts of the sentence before, for "Isa too."
        self._opener: str | None = None  # who the sentence before opened with ("kwesi left btw.")
        said: dict[str, str] = {}  # each sentence as read (quoted words, the one addressed, left out) -> as written
        sentences = [part for sentence in split_sentences(text) for part in _told_then_asked(sentence)]
        self._offset = 0  # where the sentence read starts in the message
        for first, written in enumerate(sentences):
            sentence = self._as_read(written, first == 0)
            said[sentence] = written
            self._offset = max(text.find(written, self._offset), self._offset)
            self._written = written
            self._first = first == 0
            self._before = sentences[first - 1] if first else ""  # the sentence before, and the one after
            self._next = sentences[first + 1:first + 4]  # the sentences after it, as far as a pet's death is looked for
            self._after = self._next[0] if self._next else ""
            self._subjects: list[Subject] = []
            found = self._sentence(sentence, reference_time, speaker.strip())
            self._opener = _opened_by(sentence, self._speaker)
            mine_alone = bool(re.match(r"(?i)\W*(?:(?:and|so)\s+)?i\b", sentence))  # "I start": the speaker's
            begun = [f for f in got if f.op == "assert" and f.predicate in ("works_at", "studies_at") and
                     _GOT_PLACE.search(f.quote) and (f.subject == self._speaker or not mine_alone)]
            if not found and begun and (start := start_alone(sentence, reference_time, self.day_first, self.tz)):
                facts = [f.model_copy(update={"valid_from": start}) if f in begun else f for f in facts]
                keys, firsts = {_key(f) for f in facts}, {_key(f)[:4] for f in facts}  # "got a job at Monzo!!!! start
                last = got = []  # in april": from April (a plan, for review, when that is still to come)
                continue
            if not found and last and (dated := time_alone(sentence, reference_time, self.day_first, self.tz)):
                facts = [with_period(f, dated) if f in last else f for f in facts]  # "we broke up. last weekend."
                keys, firsts = {_key(f) for f in facts}, {_key(f)[:4] for f in facts}
                last = []
                continue
            if not found and mine and (also := TOO.fullmatch(sentence)) and is_person(also["name"]):
                found = [f.model_copy(update={"subject": also["name"]}) for f in mine]  # "I joined. Isa too."
            mine = [f for f in found if f.subject == self._speaker and f.predicate in SHARED]
            last = [f for f in found if f.valid_from is None and f.valid_to is None and f not in self._timeless]
            got = last if found else got if got and got is not kept and len(sentence) <= 80 and _ROLE_ALONE.fullmatch(
                sentence) else []  # "i got the job at Kenepuru!! medical records admin. start 2 march" (the role,
            # one sentence; not "my diet too haha. starting monday", "Lily got into Otago. start 2 march": a reviewer's)
            kept = got if not found else []
            related = [] if _ASKED.match(sentence) else self._relations(sentence, found)  # "does she still think
            # I'm your boyfriend": no boyfriend of the other's (a new user's)
            found = _named_relative(_ex_named(found + related, self._speaker))
            for fact in found:
                key = _key(fact)
                if key not in keys and not (fact.valid_from is None and fact.valid_to is None and key[:4] in firsts):
                    facts.append(fact)  # "i got a cat. … its very much MY cat": one fact
                    keys.add(key)
                    firsts.add(key[:4])
        asked = previous is None or previous.speaker != self._speaker
        before = previous.text if previous and asked else None  # "how was Lisbon?" - "unreal!!"; "still at Acme?"
        own = previous.text if previous and not asked else None  # the speaker's own turn before
        for who, predicate, obj in [(self._speaker, *told) for told in told_trip(text, before, own)] + (still_there(
                text, before, self._speaker, self._other) if asked else []):
            told = ExtractedFact(subject=who, predicate=predicate, object=obj, quote=text)
            if predicate in ("attended", "traveled_to") and len(spans := self._gone_by(text, reference_time)) == 1 \
                    and spans[0].granularity in ("day", "weekend", "week") and spans[0].end is not None and \
                    reference_time - spans[0].start <= _EVENT_LATELY:
                told = with_period(told, spans[0])  # "Nico's wedding was last weekend in reno": that weekend (not "she
                # was 94, born in 1931", "we've been going every year since 2015": a reviewer's)
            if not any(_same(told, f) for f in facts):
                facts.append(told)
        if (retired := retired_from(text)) and not any(
                f.predicate == "works_at" and f.op == "end" and f.object for f in facts):  # "retired in june. 31
            facts = [f for f in facts if not (f.predicate == "works_at" and f.op == "end")]  # years at polsteam"
            facts.append(self._retired(text, *retired, reference_time))
        seen = self._seeing.pop((self._chat(), speaker), None)
        named = _seeing_named(text, before, self._other) or (
            seen is not None and self._read.get(self._chat(), 0) - seen <= _SEEING_REACH and _seeing_named(
                "I'm seeing someone. " + text, None, self._other)) or _couple_asked(text, before, self._speaker,
                                                                                    self._other)
        # (a new user's "I'm seeing someone", "WHO", then "his name is Hugo. he's an architect": the name in a message
        # of its own, the speaker's next)
        if _SEEING_LAST.search(text) and not _TREATED.search(text):  # (not "my anxiety, so I'm seeing someone")
            self._seeing[(self._chat(), speaker)] = self._read.get(self._chat(), 0)
        if named and not any(f.predicate == "dating" for f in facts):
            facts.append(ExtractedFact(subject=self._speaker, predicate="dating", object=named, quote=text))
        new = something_new(text)
        if not any(f.predicate == "does" and f.subject == self._speaker for f in facts) and (
                unknown := learning_unknown(text)) is not None and new is None:
            facts.append(_for_review(ExtractedFact(subject=self._speaker, predicate="does", object=unknown, quote=text),
                                     "a thing learnt or played that no list knows: as often no pastime"))
        if (pastime := new or being_taught(text) or how_often_alone(text)) is not None and not any(
                f.predicate == "does" and f.subject == self._speaker for f in facts):
            facts.append(ExtractedFact(subject=self._speaker, predicate="does", object=pastime, quote=text,
                                       valid_from=self._first_gone_by(text, reference_time)))  # "I started something
            # new. roller skating"
        facts = _fullest([self._group_named(f, text) for f in facts if not _own_name(f)], text, reference_time)
        facts = _under_way(facts, reference_time)
        facts = self._partner_known(facts, text)
        facts = self._quit_known(facts, text, reference_time)
        facts = self._moved_as_planned(facts, text, reference_time, before)
        facts = self._begun_as_planned(facts, text, reference_time)
        if (kind := pet_taken_in(text)) is not None and not any(f.predicate == "has_pet" for f in facts):
            facts.append(ExtractedFact(subject=self._speaker, predicate="has_pet", object=kind, quote=text,
                                       valid_from=self._first_gone_by(text, reference_time)))  # "We adopted Lola
            # today!!! 🐕" (a new user's)
        self.pets.learn(self._speaker, self._other, text)
        self._learn(text)
        facts = [f.model_copy(update={"quote": said[f.quote]}) if f.quote in said else f for f in facts]  # verbatim
        facts = [f.model_copy(update={"object": f.object.lower()}) if f.object and f.object.isupper() and len(
            f.object) > 1 and f.object.lower() in _KIND_WORDS.get(f.predicate, ()) and _shouted_up_to(f) else f
                 for f in _model_named(facts, text)]  # "I GOT A CAT", shouted: a cat (a new user's); "a TV" stays
        correcting = _CORRECTING.search(text) is not None
        facts = [_for_review(f, why) if (why := _unsure(f, other is not None, reference_time, correcting) or (
            _signed_up(f, text) and "signed up for a class not yet begun: a plan") or (
            _greeted(f, text, other is not None) and "a trip told only by a greeting from the place: as often the "
                                                     "move there")) else f
                 for f in facts]
        facts = [f for f in self._vehicles(facts, text, before, reference_time)
                 if not (_called_off(f, text) or _undone(f, text) or _wished_to_another(f, text, self._speaker))]
        facts = self._owned_as_told(facts)  # after the review's reasons, which read the words as said
        facts = self._trip_told_again(facts, reference_time, text)
        facts = self._start_told_again(facts, reference_time)
        note = None
        if self._unused:
            phrases = ", ".join(repr(p) for p in dict.fromkeys(self._unused))
            note = f"not proposed: a fact dated {phrases}, {OUT_OF_RANGE}"
        return MessageResult(facts=facts, note=note)

    def _trip_told_again(self, facts: list[ExtractedFact], said: datetime, text: str) -> list[ExtractedFact]:
        """``facts`` without a trip that has no time of its own told within :data:`TRIP_AGAIN` after the same one was
        written ("im in lisbon!!", then "back from lisbon" six days on, made two trips to Lisbon: a new user's); the
        trips written are remembered, from the first telling (a trip told again and again stays one)."""
        told = self._trips.setdefault(self._chat(), {})
        kept = []
        for fact in facts:
            if fact.predicate == "traveled_to" and fact.op == "assert" and fact.object and fact.valid_from is None \
                    and fact.valid_to is None:
                key = (fact.subject, unaccented(fact.object).casefold())
                last = told.get(key)
                if last is not None and timedelta(0) <= said - last <= TRIP_AGAIN and not _ANOTHER_TRIP.search(
                        text):  # "just landed in rome! second trip this month haha": another (a reviewer's)
                    continue
                if fact.sure:  # a trip held for review ("hola from lanzarote!!") may never be written
                    told[key] = said
            kept.append(fact)
        return kept

    def _start_told_again(self, facts: list[ExtractedFact], said: datetime) -> list[ExtractedFact]:
        """``facts`` with a start told again a little earlier than the one first written kept as first written: "first
        day at McGills done" on 5 May, then "been at McGills 4 months now" in September (a month's start, 1 May) moved
        the job back to before it began (the store joins the two periods: a new user's). Within
        :data:`START_AGAIN`, a later telling is taken as the same start told roughly; further off, as a correction."""
        told = self._starts.setdefault(self._chat(), {})
        kept = []
        for fact in facts:
            if fact.op == "assert" and fact.sure and fact.object and fact.predicate in _STARTED_STATES:
                key = (fact.subject.casefold(), fact.predicate, unaccented(fact.object).casefold())
                first = told.setdefault(key, fact.valid_from or said)  # (no start of its own: from when it was said)
                if fact.valid_from is not None and fact.valid_from < first <= fact.valid_from + START_AGAIN:
                    fact = fact.model_copy(update={"valid_from": first})
            kept.append(fact)
        return kept

    @staticmethod
    def _group_named(fact: ExtractedFact, text: str) -> ExtractedFact:
        """A membership of a group the message names after its noun: "i joined a running club lol,
        Triana Runners" is a membership of Triana Runners; where the message names it in a way not read
        (:func:`group_named_unread`), the membership of the noun waits for review."""
        if fact.predicate != "member_of" or not fact.object:
            return fact
        if name := group_named(text, fact.object):
            return fact.model_copy(update={"object": name})
        if fact.op != "end" and group_named_unread(text, fact.object):
            return _for_review(fact, "the group's name is told in words not read")  # "joined a futsal team!! … the
            # team is called fc naniwa": by its name
        return fact

    def _vehicles(self, facts: list[ExtractedFact], text: str, previous: str | None,
                  at_time: datetime) -> list[ExtractedFact]:
        """A vehicle's make and model told in a description of its own, with the speaker telling they got it
        ("A Toyota Vitz, silver, 2014. … I picked it up on thursday": bought, so written), where the message
        tells no possession otherwise, the other person's turn before (``previous``) asking of no one else's car.
        (After its kind, "I sold my car! the old Clio", the kind stays the
        object: on the dev chats the annotators recorded the kind 6 times, the model 3.)"""
        if not any(f.predicate == "owns" for f in facts) and (got := got_vehicle(text, previous)) is not None:
            at = 0
            for sentence in split_sentences(text):
                at = max(text.find(sentence, at), at)
                if at >= got:
                    break  # the description before the words that say it was got
                if not sentence.rstrip().endswith("?") and (model := vehicle_bought(text, at)):
                    bought = got_when(text)
                    since = self._first_gone_by(bought, at_time) if bought is not None else None
                    return facts + [ExtractedFact(subject=self._speaker, predicate="owns", object=model,
                                                  valid_from=since, quote=text)]  # "… bought it last saturday"
        return facts

    def _partner_known(self, facts: list[ExtractedFact], text: str) -> list[ExtractedFact]:
        """In a chat between two people, a breakup told with no one named ("so we broke up. last weekend")
        ends the speaker's partner of this chat, the one named when the couple was told (not where the
        message names someone: "we split up, me and Dan"); and what this message tells of partners is kept."""
        if self._other is None:
            return facts
        known = self._partners.setdefault(self._chat(), {})
        done = []
        for fact in facts:
            if fact.predicate in _COUPLED and fact.subject == self._speaker:
                key = (fact.subject.lower(), fact.predicate)
                if fact.op == "end" and fact.object is None and key in known and not names_anyone(text):
                    fact = fact.model_copy(update={"object": known[key]})
                if fact.op == "end":
                    known.pop(key, None)
                elif fact.object:
                    known[key] = fact.object
            done.append(fact)
        return done

    def _quit_known(self, facts: list[ExtractedFact], text: str, at: datetime) -> list[ExtractedFact]:
        """What the speaker says of their memberships and of leaving things:

        - a membership named with the word: "i cancelled my crux membership" ends being a member of
          Crux, "got a proper membership at monk now" begins it;
        - leaving something by a name the rules cannot place ("quit the puffins", "I've packed in the
          choir", "gave up croquet") ends the one group, job, school or pastime of the speaker's that this
          chat told before under that name ("joined the Pickie Puffins", "Parade Croquet Club"): "quit"
          alone may end a job, a team or a habit, and what was told says which. Nothing when the message
          ends something already, names no such thing, or the name fits none or two (see
          :data:`_LEFT_SOMETHING` and :meth:`_own_statement` for what is not read). (On first reads such
          ends were missed in seven arrivals, and the rules could not read one of them.)"""
        held = self._held.setdefault(self._chat(), {}).setdefault(self._speaker.lower(), [])
        facts = self._held_as_told(facts, held)
        told = {(f.predicate, (f.object or "").lower()) for f in facts}
        if not any(f.op == "end" and f.subject == self._speaker for f in facts):
            for sentence in split_sentences(text):
                found = self._membership(sentence, at, told) or self._left_known(sentence, at, held)
                if found is not None:
                    facts = [*facts, found]
                    break
        for fact in facts:
            if fact.subject == self._speaker and fact.predicate in _LEAVABLE and fact.object:
                held[:] = [h for h in held if h != (fact.predicate, fact.object)]
                if fact.op == "assert":
                    held.append((fact.predicate, fact.object))
        del held[:-_HELD_KEPT]
        return facts

    def _held_as_told(self, facts: list[ExtractedFact], held: list[tuple[str, str]]) -> list[ExtractedFact]:
        """A job of the speaker's said by fewer words than when it was told or got ("I got the job at Clínica
        Arcadia", then "First day at Arcadia done"; "my notice at Fisioterapia Delicias", then "Last day at Delicias
        today") is the one told, by its told name, so that the start is no change of job and the end finds it (a new
        user's: "Arcadia" replaced "Clínica Arcadia"); nothing changes where two fit, or none. A job told again
        by the notice given there is no news."""
        planned = self._jobs.get(self._chat(), {}).get(self._speaker.lower())
        jobs = [o for p, o in held if p == "works_at"] + ([planned[0]] if planned else [])
        done = []
        for fact in facts:
            if fact.subject == self._speaker and fact.predicate == "works_at" and (job := fact.object):
                if (told := _told_in_full(job, jobs)) is not None:
                    fact = fact.model_copy(update={"object": told})
                if fact.op == "assert" and _NOTICE.search(fact.quote) and ((fact.object or "").lower() in {
                        o.lower() for o in jobs} or _HOME_NOTICE.search(fact.quote)):
                    continue  # told again, or a flat's or a gym's notice ("… at Foxtons, we move out in june")
            done.append(fact)
        return done

    def _owned_as_told(self, facts: list[ExtractedFact]) -> list[ExtractedFact]:
        """An end of a thing or a pet of the speaker's said by fewer words than when it was told ("bought a ford
        fiesta today", then "sold the fiesta today") ends the one told with all those words, by its told name, so
        that the end finds it (a new user's trial: the end was refused, and the car stayed owned); nothing
        changes where two fit, or none."""
        owned = self._owned.setdefault(self._chat(), {}).setdefault(self._speaker.lower(), [])
        done = []
        for fact in facts:
            if fact.subject == self._speaker and fact.predicate in ("owns", "has_pet") and (thing := fact.object):
                if fact.op == "end" and (fact.predicate, thing.lower()) not in {(p, o.lower()) for p, o in owned}:
                    if (told := _told_in_full(thing, [o for p, o in owned if p == fact.predicate])) is not None:
                        thing = told
                        fact = fact.model_copy(update={"object": thing})
                    elif (told := _vehicle_told(thing, fact.quote, [o for p, o in owned if p == fact.predicate])):
                        thing = told  # for review: which car is "my car" the words do not say (a reviewer's)
                        fact = fact.model_copy(update={"object": thing, "sure": False, "doubt": (
                            f"the car owned told by its kind's word, taken for {told}, the one owned by its model")})
                owned[:] = [h for h in owned if (h[0], h[1].lower()) != (fact.predicate, thing.lower())]
                if fact.op == "assert":
                    owned.append((fact.predicate, thing))
            done.append(fact)
        del owned[:-_HELD_KEPT]
        return done

    def _own_statement(self, sentence: str, at: int) -> bool:
        """Whether the words up to ``at`` state something the speaker did: no question, no hedge, no
        negation or plan, and the verb's subject "I"/"we" just before it, or no one ("also quit the
        bandits"; not "my manager quit tesco", "i cant believe tom quit the puffins")."""
        before = sentence[:at]
        return not sentence.rstrip().endswith("?") and not HEDGE_BEFORE.search(before) and not \
            HEDGE_AUX.search(before) and not _NOT_DONE.search(sentence) and bool(
                _SPEAKER_JUST_BEFORE.search(before) or SUBJECTLESS.match(before))

    def _dated_end(self, rest: str, at: datetime) -> tuple[bool, datetime | None]:
        """Whether the words ``rest`` leave the end said done, and when it was (None: undated); not
        done where they name a time still to come or out of reach: no fact then."""
        rest = _CLAUSE_WORDS.sub("", rest)  # the clause's own words ("on wednesday 😢 games are at 7")
        spans = find_times(rest, at, day_first=self.day_first, tz=self.tz)
        if any(not isinstance(s, TimeSpan) or s.start > at for s in spans):
            return False, None
        first = spans[0] if spans else None
        return True, first.start if isinstance(first, TimeSpan) else None

    def _membership(self, sentence: str, at: datetime, told: set[tuple[str, str]]) -> ExtractedFact | None:
        said: tuple[tuple[re.Pattern[str], FactOp], ...] = ((_MEMBERSHIP_ENDED, "end"), (_MEMBERSHIP_HELD, "assert"))
        for pattern, op in said:
            if (m := pattern.search(sentence)) and self._own_statement(sentence, m.start()) and \
                    ("member_of", m["what"].lower()) not in told and not _FOR_SOMEONE.match(sentence, m.end()):
                done, when = self._dated_end(sentence[m.end():], at)
                if not done:
                    return None
                return ExtractedFact(subject=self._speaker, predicate="member_of", object=m["what"], op=op,
                                     valid_to=when if op == "end" else None, quote=sentence)
        return None

    def _left_known(self, sentence: str, at: datetime, held: list[tuple[str, str]]) -> ExtractedFact | None:
        if (over := _HELD_OVER.search(sentence)) is not None and (found := self._over_known(sentence, over, at, held)):
            return found
        if (plainly := _LEFT_PLAINLY.search(sentence)) is not None and self._own_statement(sentence, plainly.start()) \
                and (one := _one_held(plainly["what"], _words_of(plainly["what"]), held)) is not None:
            # (the thing itself, nothing more: "choir practice" is no choir)
            return ExtractedFact(subject=self._speaker, predicate=one[0], object=one[1], op="end", quote=sentence)
        left = _LEFT_SOMETHING.search(sentence)
        by_leaving = left is None
        if by_leaving and ((left := _LEFT_HELD.search(sentence)) is None or not _LEFT_FOR_GOOD.search(sentence)
                           or _OTHERS_BEFORE.search(sentence[:left.start()])):
            return None  # "I left Acme at 8 and got the bus", "left tesco with a headache", "we left acme at 10":
            # the building, for the day, as often; a job's end only as one says for good
        if left is None or not self._own_statement(sentence, left.start()):
            return None
        said = _words_of(left["what"])
        fits = {(predicate, obj) for predicate, obj in held
                if said and (words := _words_of(obj)) and (said <= words or (words <= said and not by_leaving))
                and not _modifier_only(left["what"], obj) and (predicate != "does" or not by_leaving)}
        if len(fits) != 1:
            return None
        predicate, obj = fits.pop()
        done, when = self._dated_end(sentence[left.end("what"):], at)
        if not done:
            return None
        return ExtractedFact(subject=self._speaker, predicate=predicate, object=obj, op="end", valid_to=when,
                             quote=sentence)

    def _over_known(self, sentence: str, over: re.Match[str], at: datetime,
                    held: list[tuple[str, str]]) -> ExtractedFact | None:
        """The end of the one pastime or group of the speaker's that ``over`` says is over by its name (see
        :data:`_HELD_OVER`), stated plainly: no question, hedge or negation."""
        if sentence.rstrip().endswith("?") or HEDGE_BEFORE.search(sentence, 0, over.start()) or _NOT_DONE.search(
                sentence):
            return None
        one = _one_held(over["what"], _words_of(over["what"]) - _THE_THING_OF,
                        [(p, o) for p, o in held if p in ("does", "member_of")])
        if one is None:
            return None
        predicate, obj = one
        done, when = self._dated_end(sentence[over.end():], at)
        return ExtractedFact(subject=self._speaker, predicate=predicate, object=obj, op="end", valid_to=when,
                             quote=sentence) if done else None

    def _moved_as_planned(self, facts: list[ExtractedFact], text: str, at: datetime,
                          previous: str | None) -> list[ExtractedFact]:
        """In a chat between two people, a trip of the speaker's to the place they said they were moving
        to, told as an arrival, may be the move: "i'm moving to valencia in september", then "greetings
        from valencia!!!" or "we're in mérida!! surrounded by boxes" (not "i went to London and we
        talked", not "hi from valencia, here for three days to look at flats"); so may one whose message
        tells the move ("Greetings from Mumbles! Moved in on Thursday": a trip written unseen before, two
        arrivals). Both the home and the trip wait for review: a visit before the move reads the same. A
        plan lasts a year, and ends when it is called off ("the move is off") or a home is told. (On first
        reads such trips were wrong every time: 4 of 4, in three arrivals.) In a group's chat too, each speaker's
        own plan ("We're moving to Brisbane end of June", then "Landed in Brisbane!": a twenty-fifth new user's family
        group, where the move was believed a day's trip)."""
        planned, who, place = self._standing(self._moves, at, move_called_off(text), _PLAN_LASTS)
        greeted, _, there = self._standing(self._greeted, at, False, SITTING)
        greeting: bool | None = None  # whether the message greets from a place it does not only visit (read once)
        done = []
        for fact in facts:
            if fact.subject == self._speaker and fact.predicate == "traveled_to" and fact.object and (greeting := (
                    _GREETING.search(text) is not None and not only_visiting(text)) if greeting is None else greeting):
                greeted[who] = (fact.object, at)  # "greetings from Mandeville": where a move then told was to
            if fact.subject == self._speaker and fact.op == "assert" and fact.object and fact.predicate == \
                    "traveled_to" and (place is not None and unaccented(fact.object) == unaccented(place)
                                       and arrived(fact.quote, text) or move_told(fact.quote, text)):
                arrival = "an arrival where a move was told: the move, or a trip"
                done.append(_for_review(fact.model_copy(update={"predicate": "lives_in", "valid_from": None,
                                                                 "valid_to": None}), arrival))
                fact = _for_review(fact, arrival)
            if fact.predicate == "lives_in" and fact.subject == self._speaker:
                planned.pop(who, None)  # the move told: no plan left
            done.append(fact)
        if not any(f.predicate == "lives_in" for f in done):
            # "moved on the 10th, a tiny flat in belleville": the move and the home it names; or "i'm moving to
            # delfshaven in june", then "moved in yesterday": the move made, to the place planned
            moved = move_done(text, previous) or moved_in_new(text)
            home = move_home(text) if moved else None
            if home is None and place is not None and who in planned and (moved or moved_there(text, place)):
                home = place  # "moved in yesterday"; "Moved!!! I'm officially in Actur", the place planned named
            if home is None and moved and not only_visiting(text) and self._other is not None:  # (between two people:
                # in a group's chat the home asked of may be another's, a reviewer's "how's the new flat, Mere?")
                # "greetings from Mandeville 🌄" - "YOU MOVED!" - "we moved last saturday"; "how's the new flat in
                # Gdynia?" - "moved in on the 1st!": the place the speaker greeted from this sitting, or the one the
                # other asked of; none where the two differ (an attacker's: a greeting from a visit, then "how's the
                # new flat in Leeds?"), nor where the message tells a visit, or a move somewhere else
                asked = asked_home(self._previous.text) if self._previous is not None and \
                    self._previous.speaker != self._speaker else None
                home = there if asked is None else asked if there is None or unaccented(there) == unaccented(asked) \
                    else None
                home = home or here_now(text)  # "We are in Qamsar! We moved on Tuesday 🏡" (h72), "greetings from
                # Otaru! We moved last Wednesday" (d20): where the message says the speaker is, the move told
            if home is None:
                home = home_named(text) or resident_of(text) or move_fragment(text)
                # "officially a Phibsborough resident"; "i moved!! last weekend. to concón."
            if home is not None:
                planned.pop(who, None)
                done.append(ExtractedFact(subject=self._speaker, predicate="lives_in", object=home,
                                          valid_from=self._first_gone_by(text, at), quote=text))
        if (plan := move_planned(text)) is not None:
            planned[who] = (plan, at)
        return done

    def _standing(self, plans: dict[frozenset[str], dict[str, tuple[str, datetime]]], at: datetime, off: bool,
                  lasts: timedelta) -> tuple[dict[str, tuple[str, datetime]], str, str | None]:
        """This chat's plans of one kind, the speaker's key in them, and the speaker's plan still standing at ``at``
        (none once called off, ``off``, or older than ``lasts``, and then forgotten)."""
        planned = plans.setdefault(self._chat(), {})
        who = self._speaker.lower()
        what, since = planned.get(who, (None, at))
        if what is not None and (off or at - since > lasts):
            planned.pop(who, None)
            what = None
        return planned, who, what

    def _begun_as_planned(self, facts: list[ExtractedFact], text: str, at: datetime) -> list[ExtractedFact]:
        """In a chat between two people, a start the speaker tells with no employer is at the job they said they got:
        "I got the job at Shopify!! start in march", then "started monday. it's grand so far" (works at Shopify
        from that Monday). A job waits :data:`_JOB_WAITED` and ends when it is called off ("I turned it down") or a
        job of the speaker's is told begun or held by its name (not the old job's last day). In a group's chat too."""
        planned, who, employer = self._standing(self._jobs, at, job_called_off(text), _JOB_WAITED)
        if any(f.subject == self._speaker and f.predicate == "works_at" and f.object and (
                f.op == "assert" or employer is not None and f.object.lower() == employer.lower()) for f in facts):
            planned.pop(who, None)  # a job told by its name: the plan is done, or another, or it was quit ("I quit
            # Google"; not the old job's last day)
        elif employer is not None and job_begun(text, employer) and not begun_elsewhere(text, employer):
            planned.pop(who, None)
            facts = [*facts, ExtractedFact(subject=self._speaker, predicate="works_at", object=employer,
                                           valid_from=self._first_gone_by(text, at), quote=text)]
        if (got := job_to_come(text)) is not None:
            planned[who] = (got, at)
        elif self._previous is not None and self._previous.speaker != self._speaker and (
                since := self._unnamed_jobs.get(self._chat(), {}).get(who)) is not None and at - since <= SITTING and (
                named := employer_confirmed(text, self._previous.text)) is not None:
            planned[who] = (named, at)  # "I GOT THE JOB" - "Bial??" - "Bial!!! … I start on the 1st of September"
        if job_got_unnamed(text):
            self._unnamed_jobs.setdefault(self._chat(), {})[who] = at
        return facts

    def _first_gone_by(self, words: str, reference: datetime) -> datetime | None:
        """The start of the first time ``words`` give that is not to come (when a move or a retirement was)."""
        spans = self._gone_by(words, reference)
        return spans[0].start if spans else None

    def _gone_by(self, words: str, reference: datetime) -> list[TimeSpan]:
        """The times ``words`` give that are not to come."""
        return [s for s in find_times(words, reference, day_first=self.day_first, tz=self.tz)
                if isinstance(s, TimeSpan) and s.start <= reference]

    def _retired(self, text: str, where: str, when: str, reference: datetime) -> ExtractedFact:
        """The speaker's end of working at ``where``, dated by ``when`` (the words after "retired")."""
        return ExtractedFact(subject=self._speaker, predicate="works_at", object=where, op="end",
                             valid_to=self._first_gone_by(when, reference), quote=text)

    def _relations(self, sentence: str, found: list[ExtractedFact]) -> list[ExtractedFact]:
        """Who is whose what in ``sentence`` ("my sister Anna"), and the ex a breakup makes."""
        ended = [f for f in found if f.op == "end" and f.predicate == "dating" and f.subject == self._speaker
                 and f.object]
        told = frozenset(f.object.lower() for f in ended if f.object)
        if self._message_kinds is None:  # once a message, not once a sentence (3,000 sentences: seconds)
            self._message_kinds = _pronoun_kinds(self._message)
        topic = self._topics.get(self._chat()) if len(self._message_kinds) == 1 else None  # "how's Priya?"
        facts = self.family.read(sentence, self._speaker, self._other, told, topic)  # - "her husband Raj …": hers
        if self._first:  # once a message
            relayed = self._previous is not None and _RELAYED.search(self._previous.text)
            facts += [ExtractedFact(subject=s, predicate=p, object=o, quote=self._message, sure=False,
                                    doubt="a parent's word said to the other, as it is in jest to anyone")
                      for s, p, o in ([] if relayed else addressed_as(self._message, self._speaker, self._other))]
        facts += couples(facts)
        for fact in ended:
            if fact.object:
                facts += [f.model_copy(update={"valid_from": fact.valid_to} if f.op == "assert" else
                                       {"valid_to": fact.valid_to})
                          for f in self.family.broke_up(self._speaker, fact.object, sentence)]
        return facts

    def _sentence(self, sentence: str, reference: datetime, speaker: str) -> list[ExtractedFact]:
        if len(sentence) > LONGEST_SENTENCE:
            return []
        if _ASKED.match(sentence):
            return []  # "and did Mirela call you Dorel in front of everyone 😂": asked, with no question mark
        if not sentence.rstrip("'\"”’)").endswith("?"):  # (one with a question mark is read below, as before)
            sentence = _ASKED_AFTER.sub("", sentence)
        if sentence.rstrip("'\"”’)").endswith("?"):
            tag = _QUESTION_TAG.search(sentence)
            if tag is None:
                return []
            sentence = sentence[:tag.start()]  # "I'm a nurse at St. Luke's, did Paolo tell you?": a statement
        spans = [s for s in locate(sentence, find_times(sentence, reference, day_first=self.day_first, tz=self.tz))
                 if not _NAMING.search(sentence, 0, s.begin) or not _NAMED_THING.match(sentence, s.finish)]
        # not "the Easter parade", "the Christmas party": a day naming an event, not when it was
        parts = clauses(sentence)
        found: list[_Found] = []
        claimed: list[tuple[int, int]] = []
        # Left to right, so a verb joined by "and" can take the subject of the one before it;
        # where two phrases start together, the one listed first in VERBS is tried first.
        candidates = sorted(((m, n, verb) for n, verb in verbs_for(sentence)  # those that may begin here
                             for m in verb.head.finditer(sentence)),
                            key=lambda item: (item[0].start(), item[1]))
        if len(candidates) > MOST_PHRASES:
            return []
        for m, _, verb in candidates:
            if not verb.alongside and any(m.start() < end and begin < m.end() for begin, end in claimed):
                continue
            at = m.end() if verb.free else m.start()
            clause = next((c for c in parts if c[0] <= at <= c[1]), None)
            if clause is None:
                continue  # "my and I": the phrase ends inside the words between two clauses
            self._when_was = False
            facts = self._match(verb, m, sentence, clause, spans, speaker, reference)
            if self._when_was:
                facts = [f for f in facts if f.object]  # "yesterday was my last day at the hospital": whose?
            if facts:
                if not verb.alongside:
                    claimed.append((m.start(), m.end()))
                # for review: whose the verb is, the speaker's or the clause before's (``_review``), a verb
                # read as often of something else, and a membership only mentioned ("from my hiking club")
                why = self._review or (verb.unsure and "a verb read as often of something else") or (
                    verb.mention and verb.predicate == "member_of" and "a membership only mentioned") or (
                    verb.obj == "habit" and not self._how_often(sentence[m.end():]) and "a habit told without how "
                                                                                        "often")
                if why:
                    facts = [_for_review(f, why) for f in facts]
                found.append(_Found(m.start(), facts, verb.mention))
        if self._other is not None:
            found += [_Found(len(sentence), [ExtractedFact(
                subject=self._other, predicate=predicate, object=obj, quote=sentence)])
                for predicate, obj in of_the_other(sentence)]  # "thanks for coming to my birthday"
        if (gone := self.pets.died(speaker, self._other, sentence)) is not None:
            kind, at = gone
            when = next((s.span for s in spans if s.begin >= at and isinstance(s.span, TimeSpan)), None)
            found.append(_Found(at, [ExtractedFact(op="end", subject=speaker, predicate="has_pet", object=kind,
                                                   valid_to=when.start if when else None, quote=sentence)]))
        found += [_Found(len(sentence), [ExtractedFact(
            subject=speaker, predicate=predicate, object=obj, quote=sentence, sure=predicate != "member_of",
            doubt=None if predicate != "member_of" else "a group only mentioned")])
            for predicate, obj in one_does(sentence)]  # "pottery is going great"; "choir practice at 11": for review
        for who, place, after, years in settled(sentence, self._staying):  # "Paddy and Dana are in NYC now, since May"
            since = next((s.span for s in spans if after <= s.begin <= after + 20 and isinstance(s.span, TimeSpan)
                          and s.span.start <= reference and "since" in sentence[after:s.finish]), None)
            found += [_Found(len(sentence), [ExtractedFact(subject=name, predicate="lives_in", object=place,
                                                           valid_from=since.start if since else None,
                                                           quote=sentence, sure=years, doubt=None if years else
                                                           "where someone is now or still: a home or a stay")])
                      for name in self._named(who, speaker)]  # "now", "still": a home or a stay, for review
        if (proposer := proposed(sentence)) is not None and proposer not in (speaker, self._other):
            found.append(_Found(0, [ExtractedFact(subject=speaker, predicate="dating", object=proposer,
                                                  quote=sentence)]))  # "DEV PROPOSED"
        if (disliked := not_for_me(sentence)) is not None:
            found.append(_Found(len(sentence), [ExtractedFact(
                subject=speaker, predicate="dislikes", object=disliked, quote=sentence)]))
        facts = [fact for item in sorted(found, key=lambda f: f.at) for fact in item.facts]
        told = {(f.predicate, f.object) for item in found if not item.mention for f in item.facts}
        return [f for item in sorted(found, key=lambda f: f.at) if not (item.mention and any(
            (f.predicate, f.object) in told for f in item.facts)) for f in item.facts] if told else facts

    def _match(self, verb: Verb, m: re.Match[str], sentence: str, clause: tuple[int, int],
               spans: list[Located], speaker: str, reference: datetime) -> list[ExtractedFact]:
        begin, end = clause
        prefix = sentence[begin:m.start()]
        subject: Subject | None
        maybe: str | None = None  # why the subject found is not sure, if it is not
        if verb.free and verb.predicate == "is_called":
            subject = self._called(m, prefix, speaker)
            self._imperative = bool(SUBJECTLESS.match(prefix))
        elif verb.free and verb.predicate == "works_at" and not SUBJECTLESS.match(prefix):
            return []  # "I left my job at the bank": "my job at" opens no clause here, the verb before says it
        elif verb.free and verb.answer:
            subject = self._asked_about(speaker, m.start())
            if subject is None:
                return []  # "what does he do?" - "engineer at Azersu": whose job is not said
        elif verb.free:
            subject = Subject((speaker,), None, False, "", m.start())
        elif verb.predicate == "works_at" and verb.kind == "stop" and m.group()[:3].lower() == "my " and \
                _WHEN_WAS.match(prefix):
            if _NOT_DONE.search(sentence):
                return []  # "yesterday was my last day at Lidl before xmas", "… at Bondi 😭 flying home tmrw"
            self._when_was = True
            subject = Subject((speaker,), None, False, "", m.start())  # "yesterday was my last day at Klucz"
        else:
            subject = find_subject(prefix, begin, speaker, self._last_named or self._only_named,
                                   self.family.names_given(), riddle=self._riddle)
            if subject is not None and subject.names in (("Im",), ("Ive",)) and (
                    _AS_IM if subject.names[0] == "Im" else _AS_IVE).match(m.group()):
                # "Im a welder at Hyundai", "Im working at LG" (a new user's), "Ive moved to Leeds": I'm, I've; not
                # "Im lives in Busan", "Im moved to Seoul" (someone called Im: an attacker's)
                subject = Subject((speaker,), None, False, "m" if subject.names[0] == "Im" else "ve", subject.begin)
            if subject is None and (relative := relative_subject(prefix)) is not None and (
                    stand_in := self.family.stands_for(speaker, relative[0])) is not None:
                subject = Subject((stand_in,), None, False, relative[1], begin + relative[2])  # "my brother moved
                # to London on Sunday": his, the stand-in for him while no name is known
            elif subject is None and relative is not None and (
                    probably := self.family.only_named(speaker, relative[0])) is not None:
                subject = Subject((probably,), None, False, relative[1], begin + relative[2])
                maybe = f"{relative[0].strip()!r} is {probably}, the one named so, unless there is another"
            coordinated = JOINED.search(sentence, 0, m.start())
            if coordinated and self._subjects and (subject is None or (
                    subject.names == (speaker,) and SUBJECTLESS.match(prefix))):
                subject = self._subjects[-1]  # "Ana lives in Rome and works at FAO"
            elif coordinated and (subject is None or (subject.names == (speaker,) and SUBJECTLESS.match(prefix))) \
                    and (opener := OPENER.match(sentence)) and opener["name"][:1].isupper() \
                    and is_person(opener["name"]) and opener["name"].lower() not in ("he", "she", "i"):
                subject = Subject((opener["name"],), None, False, "", begin)  # "Danka is 67 and married to Ivan"
        self._review: str | None = maybe  # "wait actually my sister lives in Leeds": Niamh, for review (a new user's)
        if subject is not None and not subject.said and subject.names == (speaker,) and (
                someone := THEIR_CLAUSE.search(sentence, max(0, m.start() - THEIR_REACH), m.start())):
            # "she's made friends and joined a bowls club": she joined, not the speaker
            named = self._last_named or self._only_named
            if _SPEAKER_SUBJECT.search(re.split(r"[.!?;:]", sentence[:someone.start("who")])[-1]):
                self._review = "whose it is is not sure: the speaker's, or someone's named before"  # "I went to
                # see how she's doing and then joined a gym": the speaker, maybe
            elif someone["who"].lower() == "they" or named is None:
                return []
            else:
                subject = Subject((named,), None, False, "", someone.start("who"))
        if subject is not None and not subject.said and subject.names == (speaker,) and self._asked_of_another and \
                self._first and re.search(r"(?:ing|s)$", m.group().split()[0], re.IGNORECASE):
            return []  # "what's your brother up to?" - "learning czech lol": his, not the speaker's
        if subject is None or ((self._opener or (self._asked_did_another and self._first)) and not subject.said
                               and subject.names == (speaker,) and verb_form(m.group().split()[0]) == "past"):
            return []  # "kwesi left btw. drove to Calgary": Kwesi drove, maybe; not surely the speaker; "did pappa
            # help?" - "drove up from bodø with the trailer": pappa did
        if verb.predicate == "is_called" and subject.plural:
            return []  # "we're called "the quizzy rascals"": a team's name, nobody's nickname
        if not subject.said and subject.names == (speaker,) and verb.predicate in _PLACED and self._about_them:
            self._review = "the message goes on about someone else: it may be theirs"  # "Got a job at WestJet,
            # some analyst thing. He starts in February.": his job, maybe
        if HEDGE_BEFORE.search(sentence, begin, subject.begin) or HEDGE_AFTER.search(
                sentence, m.end(), end) or HEDGE_BEFORE.search(prefix):
            return []
        if _LIKENED.search(sentence, begin, subject.begin):
            return []  # "my mother cried like I moved to Australia": a likeness, not a move
        if verb.predicate in ("traveled_to", "lives_in") and _SOME_TIME_THERE.search(sentence, 0, m.start()):
            return []  # "… while I'm in kampala", "7 weeks and im in são paulo": a time to come, or beside another
        if verb.needs_be and not BE.search(subject.aux):
            return []  # "at least", "in the end": no "I'm" said, no fact
        if not subject.said and not subject.aux.strip() and re.match(r"(?i)married\s+to\b", m.group()):
            return []  # "THAT one. married to Ola now": whoever was asked about, not surely the speaker
        if subject.bare and not subject.aux.strip() and verb_form(m.group().split()[0]) == "present" \
                and not m.group().split()[0].lower().endswith("s"):
            return []  # "Sounds like a plan", "Looks like rain": no name, a verb without its subject
        if verb.obj == "habit" and re.search(r"(?i)\b(?:have|has|had|got)\s*$", subject.aux + " " + prefix):
            return []  # "I have fish!", "we have fish now": a noun, not the habit "fish"
        if verb.obj == "habit" and not subject.said and (m.group().lower().endswith("s") or not (
                _HOW_OFTEN.search(sentence + " " + self._after) or (
                    self._previous and _ASKED_HABIT.search(self._previous.text)))):
            return []  # "Knit. Dance. Maybe move to Nólsoy" (asked what he will do): a verb alone names no habit
            # unless it says how often ("Swim. every morning at 6") or answers a question of habits
        if subject.bare and verb.obj == "habit" and not self._a_name(subject.names[0]):
            return []  # "Big skies.": a word that opens a sentence, not surely someone
        if not subject.said and not verb.free and re.fullmatch(r"(?i)(?:lives|works|loves|likes|has|plays|does|"
                                                              r"goes|studies|owns|hates|enjoys|runs)",
                                                              m.group().split()[0]):
            return []  # "lives in Leeds, she's a vet": about someone else, not the speaker
        if verb.free and HEDGE_AUX.search(sentence, begin, m.start()):
            return []  # "I can tell you my cat is blue"
        if verb.obj == "thing" and (not subject.said or (not verb.needs_be and BE.search(subject.aux))):
            return []  # "love the colours!", "like I said", "I was like": no taste stated
        self._subjects.append(subject)
        if subject.names[0] != speaker and len(subject.names) == 1 and not subject.partner:
            self._last_named = subject.names[0]
        own = {"we"} if subject.plural else {"i"} if subject.names == (speaker,) else {"he", "she"}
        after = [s for s in spans if s.begin >= m.end() and s.begin < end and not any(
            c.group(1).lower() not in own for c in NEW_CLAUSE.finditer(sentence, m.end(), s.begin))]
        # not "she's a nurse at the BRI, we matched a week ago": that time is the other clause's
        inside = [s for s in spans if s.begin < m.end() and s.finish > m.start()]
        before = [s for s in spans if begin <= s.begin and s.finish <= m.start()]
        nearest = after or inside or before[-1:]
        located = nearest[0] if nearest else None
        span = None if located is None else located.span
        if isinstance(span, OutOfRange):
            self._unused.append(span.text)  # when it happened is out of reach: state nothing
            return []
        if span is not None and located is not None and span.end is not None and span.start <= reference < span.end \
                and _FROM_NOW.search(sentence, 0, located.finish):
            span = span.model_copy(update={"end": None})  # "I'm head chef at Brasa from today": begun, not a plan (a
            # new user's); "I'm working at Tesco tonight", a day's stay, is still none (a reviewer's)
        spans = [s for s in spans if isinstance(s.span, TimeSpan)]
        rest_end = after[0].begin if after else end
        rest = sentence[m.end():rest_end]
        kind = "state" if verb.be_state and BE.search(subject.aux) and not GOT.search(
            subject.aux + m.group()) else verb.kind
        reading = read_verb(verb, subject.aux, m.group(), sentence[m.end():end])
        if verb.needs_be and verb.predicate == "lives_in" and not m.group().lower().startswith(
                "based") and (reading.past and not reading.perfect or span is not None and (
                    span.end is not None and not reading.perfect)) \
                and not (reading.negated or reading.ending or reading.used_to):
            verb, kind = _STAY, "event"  # "I was in Chicago last week"
            if not (reading.past or reading.perfect) and (
                    here := self._here(subject, sentence, m, end, span, reference)) is not None:
                return here  # "I'm in Berlin this week"
        elif verb.needs_be and verb.predicate == "lives_in" and not m.group().lower().startswith(
                "based") and not (reading.negated or reading.ending or reading.used_to):
            return [] if reading.perfect else self._here(subject, sentence, m, end, span, reference) or []
            # "I'm in the B&B", "when I'm in Boston": where one is, not where one lives; "we're in Lisbon!!": a trip
        if verb.obj in _EVERYDAY_KINDS:
            if kind == "state" and reading.past and not (reading.used_to or reading.perfect or reading.ending):
                return []  # "I had a dog", "I played tennis": no state now
            if kind == "state" and (verb.mention or reading.be or m.group().lower().strip().endswith("ing")):
                kept = located is not None and _kept_since(reading, span, reference, rest, sentence[located.finish:])
                if span is not None and not verb.mention and not kept:
                    return []  # "I'm playing tennis tomorrow": a plan
                if not kept:
                    span = None
        if verb.obj == "thing" and kind == "state" and reading.past and not (
                reading.used_to or reading.ending or reading.negated or reading.perfect):
            return []  # "I loved the film": a reaction, not a lasting taste
        if verb.needs_be and verb.predicate == "works_at" and m.group().strip().lower() == "at" and not (
                looks_educational(proper_name(sentence[m.end():end]) or "")) and not (
                reading.perfect or reading.ending or reading.used_to or reading.negated
                or (reading.past and span and (_visit_long(span) or self._job_told(sentence)))
                or (isinstance(span, TimeSpan) and span.granularity in ("month", "season", "quarter", "year"))
                or re.search(r"\b(?:now|still|currently)\b", subject.aux + " " + sentence[m.end():end])):
            return []  # "I'm at Starbucks", "we were at the Oktoberfest last week": where one was; "I'm still
            # at Acme", "I was at Acme from 2015 to 2018": a job
        if verb.pair and verb.kind == "stop" and verb.predicate == "lives_in" and not (
                reading.perfect or (span is not None and span.granularity in ("month", "season", "year", "decade"))
                or LEFT_FOR_GOOD.search(sentence, m.end(), end) or JOB_PHRASE.match(sentence[m.end():end].strip())
                or looks_organisational(proper_name(sentence[m.end():end]) or "")):
            return []  # "we left Paris this morning": a trip's end as often as a move; a move is dated in months
        decided = decide(verb, kind, reading, span, reference)
        if decided is None:
            return []
        op, predicate = decided
        valid_from, valid_to = (None, None) if verb.timeless else period(op, kind, reading, span)
        if op == "assert" and kind == "state" and span is None and not verb.timeless and not (
                reading.negated or reading.ending or reading.used_to or reading.past and not reading.perfect) and (
                reading.perfect or _NOW_SAID.search(sentence, m.end())) and "engaged" not in m.group().lower():
            valid_from = lasted_since(sentence[m.end():], sentence[begin:m.start()] + " " + subject.aux, reference,
                                      self.tz)  # "I've lived in Leeds for 3 years now"
        if predicate == "attended" and span is None and JUST_BACK.search(sentence, begin, m.end()):
            day = reference.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
            valid_from, valid_to = day, day + timedelta(days=1)  # "just got back from Alf's nativity": today
        made = []

        def add(subj: str, pred: str, obj: str | None, o: FactOp = op, vf: datetime | None = valid_from,
                vt: datetime | None = valid_to) -> None:
            made.append(ExtractedFact(op=o, subject=subj, predicate=pred, object=obj,
                                      valid_from=vf, valid_to=vt, quote=sentence))
            if verb.timeless:
                self._timeless.append(made[-1])

        couple = verb.reciprocal and subject.plural and not subject.partner and not people(rest) and not (
            _NOT_A_COUPLE.search(sentence) or _OWN_OBJECT.match(rest))
        dating = predicate == "dating" and op == "assert"
        pair = (pair_named(sentence, dating) or (pair_named(self._before, dating) if _WE_TWO.fullmatch(
            self._before) or (dating and _NAME_GIVEN.match(self._before)) else None)) if couple else None
        if couple and pair and self._someone(pair) and pair not in (speaker, self._other):
            subject = replace(subject, partner=pair)  # "Birita and I... we are seeing each other"
        elif couple and self._only_named and not _plain_word(self._only_named, self._names()):
            subject = replace(subject, partner=self._only_named)  # "and Hannah?" - "we called it a day"
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
        if verb.mention and _TO_ALL.search(sentence, 0, m.start()):
            return []  # "love to all my chickens xx": whom the message is for, not what the speaker has
        objects = self._objects(verb, m.group(), rest, predicate)
        if objects is None:
            return []
        if op == "assert" and objects == [None]:
            return []  # "I'm working": nothing to assert
        if verb.predicate == "has_pet" and verb.kind == "stop" and m.group().lower().startswith("lost") and objects[0]:
            noun = objects[0].split()[-1]
            if not GONE_FOR_GOOD.fullmatch(rest[rest.lower().find(noun.lower()) + len(noun):]):
                return []  # "lost my dog in the park for an hour": not gone for good
        if verb.mention and verb.predicate == "has_pet" and objects[0]:
            said = sentence.find(objects[0].split()[-1], m.end())
            if GONE.match(sentence, said + len(objects[0].split()[-1])):
                when = next((s.span for s in spans if s.begin >= said and isinstance(s.span, TimeSpan)), None)
                op, valid_from, valid_to = "end", None, (when.start if when else None)  # "our cat died"
            elif (later := self._died_later(sentence, objects[0])) is not None:  # "my betta fish!! … he died on
                when = next((s.span for s in locate(later, find_times(  # thursday": for review (whose "he"?)
                    later, reference, day_first=self.day_first, tz=self.tz)) if isinstance(s.span, TimeSpan)), None)
                op, valid_from, valid_to = "end", None, (when.start if when else None)
                self._review = "a death told in a later sentence: whose it is is not sure"
        for subj in subject.names:
            for obj in objects:
                if predicate == "member_of" and obj and obj.split()[-1].lower() in LESSONS and (
                        done := activity_of_group(obj)):
                    add(subj, "does", done, op, valid_from, valid_to)  # "my pottery class": one does pottery
                    continue
                add(subj, _route(verb, obj) if obj and verb.obj == "where" else
                    self._refine(verb, m.group(), obj, predicate), obj, op, valid_from, valid_to)
        if predicate in ("attended", "traveled_to") and op == "assert" and objects[0]:
            for name in companions(sentence[m.end():end], subject.names + (speaker, self._other or speaker),
                                   given=predicate == "traveled_to"):
                add(name, predicate, objects[0], op, valid_from, valid_to)  # "…on Thursday with Isa"
        return made

    def _died_later(self, sentence: str, pet: str) -> str | None:
        """Where ``sentence`` names a pet of one's own and nothing else ("my betta fish!!", "our old cat 😭"), the
        sentence right after it (or after a few words describing it: "the orange one.") if that one says it died
        ("he died on thursday"), not taken back or laughed at ("he died. nah jk"); else None."""
        if not re.fullmatch(rf"\W*(?:oh\s+)?(?:my|our)\s+(?:[\w'’-]+\s+){{0,2}}?{re.escape(pet)}[\W_]*", sentence,
                            re.IGNORECASE):
            return None  # not "my dog is old", "my dog ate my airpods"
        for n, later in enumerate(self._next):
            if _DIED_LATER.match(later):
                after = self._next[n + 1] if n + 1 < len(self._next) else ""
                return None if _NOT_DEAD.search(later + " " + after) else later
            if n or not _ABOUT_IT.fullmatch(later):
                return None
        return None

    def _job_told(self, sentence: str) -> bool:
        """Whether a sentence that puts one at a place for a day or a week says it is work there ("I was at
        Acme last week, my first week there", "was at the office yesterday till 11pm, this job is killing
        me"): then the job is proposed for review, not written unseen, nor dropped as an outing."""
        if _JOB_CUE.search(sentence):
            self._review = "a stay somewhere the sentence tells as work: a job, maybe"
            return True
        return False

    def _here(self, subject: Subject, sentence: str, m: re.Match[str], end: int, span: TimeSpan | OutOfRange | None,
              reference: datetime) -> list[ExtractedFact] | None:
        """"we're in Lisbon!!", "I'm in Berlin this week": a known place one is in now, said in the present (not
        "I'll be in London for that baby"), is a trip (one says "I live in", "still in", "now in" of home); None
        otherwise, and None where the time said is longer than a month ("we're in Boston this year, Aoife's family's
        turn": a new user's Christmas to come, or a home; no trip of a year)."""
        place = place_name(sentence[m.end():end])
        if place is None or not is_town(place) or not PLACE_ENDS.match(sentence, m.end() + sentence[m.end():].find(
                place) + len(place)) or not BE.search(subject.aux) or _WILL_BE.search(subject.aux) or \
                AT_HOME.search(sentence) or (
                isinstance(span, TimeSpan) and (span.start > reference or (
                    span.end is not None and span.end - span.start > _A_MONTH))):
            return None
        when = span if isinstance(span, TimeSpan) else None
        # of someone else, undated ("Amaka is in Leeds"), it is as often where they live: for review
        sure = when is not None or self._speaker in subject.names
        doubt = None if sure else "someone else in a place, undated: as often where they live"
        return [ExtractedFact(subject=name, predicate="traveled_to", object=place, quote=sentence, sure=sure,
                              doubt=doubt, valid_from=when.start if when else None,
                              valid_to=when.end if when else None)
                for name in subject.names]

    def _asked_did(self, text: str) -> bool:
        """Whether ``text`` asks only whether someone else did a thing: "did pappa help", "did Tom come?", "did your
        mum like it?" is not (the speaker's mum, maybe: a relative's word needs no "your")."""
        for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):  # "oh nice! did pappa help?", "did Tom come?? lol"
            m = _ASKED_DID_ANOTHER.match(sentence)
            if m is None or re.search(r"\band\s+(?:you|u|ya)\b", m.group(), re.IGNORECASE):
                continue  # "did Tom and you go?": asked of the speaker too
            who = m["who"].lower()
            if (who in FAMILY_WORDS or who in _KIN_ELSEWHERE) or (
                    who not in _NOT_ASKED_OF and not is_place(who) and is_name_written(m["who"])):
                return True  # not "did Paris go well?"
        return False

    def _person_said(self, thing: str) -> bool:
        """Whether a liked thing is someone of the chat ("ailsa made a cake" - "I love Ailsa."): a
        lone name that is a participant's or said in the turn before; a taste is of things."""
        if len(thing.split()) != 1 or not thing[0].isupper() or is_place(thing):
            return False
        before = re.findall(r"[\w'’-]+", self._previous.text.lower()) if self._previous else []
        return thing.lower() in before or thing in (self._speaker, self._other)

    def _how_often(self, rest: str) -> bool:
        """Whether a habit's verb is followed, in its sentence or the next, by how often, as a pastime is told ("i
        knit. every evening", "I run most mornings"), and not as work ("I fish every day for work"), or answers the
        other's question of pastimes ("what do you do for fun?" - "I paint"). Told otherwise ("I cook, I clean", "then
        we paint", "Did I dance"), half of those on the chats' dev set were no pastime."""
        if self._previous is not None and self._previous.speaker != self._speaker and _ASKED_HABIT.search(
                self._previous.text):
            return True  # "what do you do for fun?" - "I paint"
        often = _HOW_OFTEN_AFTER.match(f"{rest} {self._after}")
        return often is not None and not _FOR_WORK.match(often.string, often.end())

    def _recent_places(self) -> set[str]:
        """The words the chat said as where someone is in its last few messages (:data:`PLACE_MEMORY`): "Pile?"
        right after "the weavers in Pile" is the place; "Chelsea?" a month after "grew up near Chelsea" may be her."""
        read = self._read.get(self._chat(), 0)
        return {w for w, at in self.places.get(self._chat(), {}).items() if read - at < PLACE_MEMORY}

    def _one_person_named(self, text: str, previous: Turn | None) -> str | None:
        """The one person the message or the turn before names, whom "he"/"she" or the other of
        "we" may mean; None when none is named, or two could be meant."""
        return one_person_named(text, previous.text if previous is not None else None, self._speaker, self._other,
                                known=self._names(), places=self._recent_places())

    def _chat(self) -> frozenset[str]:
        return frozenset((self._speaker, self._other or ""))

    def _names(self) -> set[str]:
        return self.names.setdefault(self._chat(), set())

    def _as_read(self, sentence: str, first: bool) -> str:
        """A sentence as the rules read it: without the words it quotes from someone ('"I love my
        cat" 😂'), and, opening the message, without the other participant it addresses ("Maureen,
        Katka moved to Brno"); nothing of one that opens on "were" before a form in -ing, no subject said ("were
        living in leeds now" is "we're", "were living in leeds till 2021" is the past: nothing tells which)."""
        sentence = _unquoted(sentence)
        if first and self._other and (called := re.match(rf"\s*{re.escape(self._other)}\s*[,!:]\s+", sentence,
                                                          re.IGNORECASE)):
            sentence = sentence[called.end():]
        if _WE_RE_TYPED.match(sentence):  # "were living in leeds …": "we're" typed, or a past with its subject
            bounds = clauses(sentence)  # unsaid; either may be meant: that clause gives nothing, the next ones do
            if len(bounds) > 1:
                return sentence[bounds[1][0]:]
            comma = sentence.find(",")  # "were having a baby, my brother Tom lives in Oslo"
            return sentence[comma + 1:].lstrip() if comma >= 0 else ""
        return sentence

    def _typed_there(self, head: str, rest: str, predicate: str) -> str | None:
        """The place typed in lower case after a trip's words, or a home's (:func:`_typed_where`), in a message whose
        only capitals a phone wrote; none after a greeting (as often from home), "see" or "visit" (someone), a home
        without a home's word ("i live in trackies"), or a link."""
        if _GREETED.search(head) or re.search(r"(?i)\b(?:see|visit|visiting)\s*$", head) or not (
                predicate == "traveled_to" or _HOME_WORD.search(head)) or _LINKISH.match(rest):
            return None
        typed = lowercase_name(rest, self._in_lower_case(by_phone=True))
        if typed is None:
            return None
        at = self._at(rest)
        return _typed_where(typed, self._message[at:] if at >= 0 else rest, (self._speaker, self._other or ""))

    def _in_lower_case(self, by_phone: bool = False) -> bool:
        """Whether the message is typed in lower case (``by_phone``: but for the capitals a phone writes by itself,
        :func:`_uncapitalised`), read once a message: read per sentence, a long message was quadratic (a reviewer's:
        38,000 characters of "Visited Nana Jean." took 10.7 s)."""
        if by_phone not in self._lower_case:
            text = _uncapitalised(self._message) if by_phone else self._message
            self._lower_case[by_phone] = not any(ch.isupper() for ch in text)
        return self._lower_case[by_phone]

    def _at(self, rest: str) -> int:
        """Where a verb's ``rest`` stands in the message: in the sentence being read (its last place there, for
        the rest runs to its clause's end), else the first place after that sentence's start; -1 if nowhere."""
        inside = self._written.rfind(rest)
        return self._offset + inside if inside >= 0 else self._message.find(rest, self._offset)

    def _someone(self, word: str) -> bool:
        """Whether ``word`` may be someone said with the speaker ("Birita and I", "his name is seojun"): a name
        (:meth:`_a_name`), or a word no pronoun, relation, pet name or common word's ending stands for (not "Babe and
        I", "Work and I")."""
        key = word.lower()
        return self._a_name(word) or (is_person(word) and key not in _COMMON and key not in RELATIONS
                                      and key not in _ENDEARMENTS and not _WORDISH.search(key))

    def _a_name(self, word: str) -> bool:
        """Whether a capitalised word is surely someone's name: a given name, a participant's, or one
        the chat has written capitalised inside a sentence."""
        return is_name_written(word) or word.lower() in self._names() or word in (self._speaker, self._other)

    def _carried(self, text: str, previous: Turn | None) -> str | None:
        """The person of the last messages, in a chat between two people, when this message and the
        turn before name no one and say the same one of "he" and "she"; None otherwise."""
        if self._other is None or previous is None:
            return None
        said = (text, previous.text)
        kinds = {frozenset(_pronoun_kinds(s)) for s in said}
        if len(kinds) == 1 and len(next(iter(kinds))) == 1 and not any(
                names_anyone(s) or _UNNAMED.search(s) for s in said):
            return self._topics.get(self._chat())
        return None

    def _learn(self, text: str) -> None:
        """What this message tells of names and of whom the talk is about, for the next ones."""
        pets = self.pets.names.get(self._chat(), {})
        names = self._names()
        names.update(w.lower() for w in NAMED_MID_SENTENCE.findall(text)
                     if is_person(w) and w.lower() not in FAMILY_WORDS and w.lower() not in pets)
        names.difference_update(pets)  # "our dog Biscuit": a pet, though written as a name
        read = self._read[self._chat()] = self._read.get(self._chat(), 0) + 1
        self.places.setdefault(self._chat(), {}).update((w.lower(), read) for w in _WHERE.findall(text))
        if self._only_named is not None and re.fullmatch(r"[\w'’-]+(?:\s[\w'’-]+)?", self._only_named):
            self._topics[self._chat()] = self._only_named
        elif names_anyone(text) or _UNNAMED.search(text) or not _pronoun_kinds(text):
            self._topics[self._chat()] = None  # someone else, or talk of no one

    def _named(self, who: str, speaker: str) -> list[str]:
        """The people the words ``who`` name: the speaker for "I"/"we", the one person named before for
        "he"/"she", each of "Paddy and Dana"; none for "they" or a word that is nobody's name."""
        if who.lower() in ("i", "we"):
            return [speaker]
        if who.lower() in ("he", "she"):
            named = self._last_named or self._only_named
            return [named] if named else []
        names = re.split(r"\s+(?:and|&)\s+", who)
        return names if all(is_person(name) for name in names) else []

    def _called(self, m: re.Match[str], prefix: str, speaker: str) -> Subject | None:
        """Who "call me", "calls you", "calls him" names: the speaker, the other participant, or
        the one person named; None when it cannot be told or is not stated ("don't call me…")."""
        who = m.group().split()[-1].lower()
        if _NOT_STATED.search(prefix) or (who in ("him", "her") and SUBJECTLESS.match(prefix)):
            return None  # "don't call me…"; "call her La Tormenta": a name offered for someone, not theirs
        if who in ("him", "her") and (_NEWCOMER.search(self._message, 0, self._offset) or _NEWCOMER.search(
                m.string, 0, m.start())):
            return None  # "Stuart has just rung. Kirsty had a baby girl… They are calling her Isla.": the baby's
            # name, not the last one named's (a new user's)
        name = speaker if who == "me" or who not in ("you", "u", "him", "her") else (
            self._other if who in ("you", "u") else self._last_named or self._only_named)
        return Subject((name,), None, False, "", m.start()) if name else None

    def _refine(self, verb: Verb, head: str, obj: str | None, predicate: str) -> str:
        """Noun phrases that decide between working and studying ("a sophomore at"), and between
        a trip and an event ("greetings from the Galway Arts Festival": attended)."""
        if predicate == "traveled_to" and obj is not None and len(obj.split()) > 1 and \
                obj.split()[-1].lower() in NAMED_EVENTS:
            return "attended"
        if predicate == "traveled_to" and obj is not None and len(obj.split()) > 1 and obj.split()[-1] == "Day" \
                and all(w[:1].isupper() for w in obj.split()):
            self._review = self._review or "a named day one went to: as often a place's or a venue's name"
            return "attended"  # "went to the National Wine Day": a day of events (not "Happy Days", a diner)
        if predicate == "studies_at" and re.search(r"(?i)\bpost-?docs?\b", head):
            return "works_at"  # "doing a postdoc at the University of Galway": a job at a university
        if predicate == "works_at" and obj is not None:
            words = set(head.lower().replace("’", "'").split())
            if words & STUDENT_NOUNS and not words & {"job", "position", "role"}:  # ("a job as a senior nurse at")
                return "studies_at"
            if "job" not in words and (looks_educational(obj) and ("start" in head.lower() or head.strip() == "at")
                                        and "work" not in head.lower()):
                return "studies_at"
        return predicate

    def _asked_about(self, speaker: str, at: int) -> Subject | None:
        """Whom a fragment answers for (see ``Verb.answer``): the one the other's turn before asked what they do or
        where they work ("what does elvin do again?": Elvin), the speaker when it asked "you" or asked nothing so;
        None for someone it names by "he" or "she" only."""
        before = self._previous.text if self._previous is not None and self._previous.speaker != speaker else ""
        asked = _ASKED_JOB.search(before)
        if asked is not None and asked["who"].lower() in ("you", "u", "ya"):
            return Subject((speaker,), None, False, "", at)
        if asked is not None:
            who = asked["who"]
            if who.lower() in PRONOUNS or who.lower() in NOT_NAMES:
                return None
            return Subject((who[:1].upper() + who[1:] if who.islower() else who,), None, False, "", at)
        if _GOT_THE_JOB.search(self._message, 0, self._offset) and not _NOT_TAKEN.search(self._message):
            return Subject((speaker,), None, False, "", at)  # "I got the job on the ferry!! deckhand with …"
        return None  # "His brother? deckhand with …", "Interview tomorrow!! Deckhand with …" (an attacker's)

    def _objects(self, verb: Verb, head: str, rest: str,
                 predicate: str) -> Sequence[str | None] | None:
        """The object(s) after the verb; [None] for a bare end; None when nothing fits."""
        kind = verb.obj
        if kind in _EVERYDAY_KINDS:
            found = everyday_object(kind, head, rest, verb.mention)
            if found is None and kind == "pet" and verb.kind == "start":
                found = pet_meant(rest, self._message, self._previous.text if self._previous else None)
            if found and kind == "pet" and (at := self._at(rest)) >= 0:
                found = breed_beside(found, self._message[at:]) or found  # "a dog!!! retired racing greyhound"
            if found is None and kind == "possession" and not verb.mention and (vehicle := vehicle_name(
                    rest.lstrip(), article=("the", "my", "our") if verb.kind == "stop" else ("a", "an", "the"))) and \
                    not not_real(self._message):
                found = vehicle[0]  # "bought a white fiat doblo", "sold the clio yesterday"
            if found is None and kind == "possession" and verb.kind == "stop" and not verb.mention:
                at = self._at(rest)
                found = sold_thing(rest, self._message[:at] if at >= 0 else self._message,
                                   self._previous.text if self._previous else None)
            return [found] if found else None
        if kind == "thing":
            if verb.predicate == "likes" and re.match(
                    r"\s*(?:the|your|ur|that|this|those|these|his|her|their|my|our)\b", rest, re.IGNORECASE):
                return None  # "love the colours", "love your dress": a reaction to something there
            if re.match(r"\s*(?:your|ur|that|this|those|these)\b", rest, re.IGNORECASE):
                return None
            liked = [thing for thing in things(rest) if clean_taste(thing) and not self._person_said(thing)]
            if not liked and self._previous is not None and self._previous.speaker != self._speaker:
                resolved = resolve_pronoun(rest, self._previous.text)
                liked = [resolved] if resolved else []
            return liked or None
        if kind == "name":
            name = called_name(rest, strict=head.split()[-1].lower() in ("him", "her", "you", "u") or (
                head.lower().startswith("call ") and self._imperative))  # "call me later": a request
            return [name] if name else None
        if kind == "person":
            if (pronoun := re.match(r"\s*(her|him|them|you|u|it)\b(?:\s+([\w'’-]+))?", rest, re.IGNORECASE)) and not (
                    pronoun[1].lower() == "her" and pronoun[2] and pronoun[2].lower() in _WHOSE_WORDS):
                return None  # "I met her in Tredu": someone said before, not Tredu (but "her friend Tom" is Tom)
            if verb.predicate == "met" and (lower := _MET_LOWER.match(rest)) and (who := lower["name"] or lower[
                    "name2"]).islower() and not plain_english(who) and who not in NOT_NAMES and who not in _NOT_MET:
                # "met a guy called kieran", "met farid's whole family" (a new user's); a name written with a capital
                # is the people reader's ("Maria Lopez", "Mr Smith": a reviewer's)
                if (surname := lower["surname"]) and not plain_english(surname) and surname not in NOT_NAMES:
                    who = f"{who} {surname}"
                who = " ".join(w[:1].upper() + w[1:] for w in who.split())
                return [f"{who}'s {lower['kin'].lower()}" if lower["kin"] else who]
            named = [n for n in people(rest) if not _PEOPLE_OF.match(rest, rest.find(n) + len(n))
                     or n.lower() not in LANGUAGES]  # "the Japanese people from…": a people (but "met Danish")
            name = named[0] if len(named) == 1 else None
            if len(named) > 1:
                return named
            if name and " " not in name and re.match(rf"\s*the\s+{re.escape(name)}\b", rest, re.IGNORECASE) and (
                    name.isupper() or plain_english(name.lower())):
                return None  # "i'm dating the BEST bread" (h67), "dating the Baker": a word said loud or a role
        elif kind == "place":
            name = place_name(rest)
            if name and is_wide(name) and (at := rest.find(name)) >= 0 and (
                    town := _TOWN_AFTER.match(rest, at + len(name))) and (inner := place_name(town["rest"])) \
                    and is_place(inner) and not is_wide(inner) and not _MORE_PLACES.match(
                        town["rest"], town["rest"].find(inner) + len(inner)):
                name = inner  # "we were in Spain, in Málaga, once": a known town the country was said for (not
                # "in Italy, in Hospital for 3 days", "to Germany, to Oktoberfest", a list: "to France, to Rome,
                # to Berlin")
            if name and predicate == "traveled_to" and len(name.split()) == 1 and not is_place(
                    name) and head.lower().startswith("visit") and not rest.lstrip().startswith(
                    ("the ", "The ")):
                name = None  # "I visited Tom": someone, not somewhere
            if name and predicate == "traveled_to" and name.isupper() and " " not in name and not is_place(name) \
                    and name not in _COUNTRY_LETTERS and re.match(rf"\s*the\s+{re.escape(name)}\b", rest,
                                                                    re.IGNORECASE):
                name = None  # "went to the GP", "the ATM": a doctor, a machine; not "the US", "the UAE" (a new user's)
            if name and verb.free and not is_place(name) and (
                    name.split()[0].lower() in RELATIONS or name.split()[0].lower() in FAMILY_WORDS):
                name = None  # "hi from Gran": someone, not somewhere
            if name is None and (name := self._typed_there(head, rest, predicate)):
                # "we just got back from svalbard", "4 days in imsouane": a place typed in lower case, for review (as
                # often a shop, a class or someone: "went to lidl", "back from futsal", "going to marta's")
                self._review = self._review or "a place typed in lower case: as often a shop, a class or someone"
        elif kind == "where":
            name = place_name(rest) or proper_name(rest)
            if name and _someones(name):
                return None  # "left Tesco's with nothing": a shop, or someone's home
        else:
            name = proper_name(rest)
            if name and _someones(name):
                return None  # "we're at Jo's": someone's home, no employer
            if name and predicate == "works_at" and re.search(r"(?i)\b(?:with|for)\s*$", head) and \
                    (is_given_name(name.split()[0].lower()) or name.split()[0].rstrip(".").lower() in _TITLES) and \
                    len(name.split()) <= 2 and not looks_organisational(name):
                return None  # "I'm a welder with Sam", "a carer for Tom": a person, no employer (an attacker's)
            if name and (kind_of := named_kind(rest, name)):
                workplace_named = kind_of.split()[-1] in WORKPLACES or kind_of in WORKPLACE_PAIRS
                if verb.unsure and not workplace_named:
                    return None  # "joined the Wayanad bird atlas", "the Kerala police force": a thing of theirs
                if is_place(name):  # "at the Leeds food bank": the bank, not Leeds; "the Lagos office": unnamed
                    return [f"{name} {kind_of}"] if workplace_named and kind_of.split()[-1] not in _FIRM_SITES else None
                # else a firm and a part or a site of it: "the Amazon warehouse", "the Hilton front desk": the firm
            got = head.lower().startswith(_NO_LOWERCASE)
            if name is None and (not got or JOB_WORD.search(head)) \
                    and head.strip().lower() != "at" and not head.lower().rstrip().endswith("with"):  # not "i work
                # with kids"; "got a job at northcoders" is a job (a new user's), "got into yoga" none
                # not "im at theos parents": where one is, said in lowercase, is no employer
                name = lowercase_name(rest, self._in_lower_case())  # "i left acme"
                if name and got and plain_english(name.split()[0]):
                    name = None  # "i got a job at last!!", "at once", "at age 15": words, no employer (a reviewer's)
            if name is None and predicate == "works_at" and verb.kind != "stop" and _WORK_WORD.search(head):
                name = workplace(rest)  # "I work at a bakery", "started at the library"
            if name is None and predicate == "works_at" and verb.kind == "start" and _STARTED_AT.search(head) and (
                    started := _STARTED_ON_A_DAY.search(self._written)) and re.sub(
                    r"\s+(?:on|in)\s*$", "", rest.strip().lower()).endswith(started["name"]) and \
                    started["name"].split()[0] not in _COMMON and not set(started["name"].split()) & (
                        GROUPS | ACTIVITIES | _NOT_A_WORKPLACE) and not looks_educational(started["name"]):
                name = started["name"]  # "started at spokes on wednesday", "at the port authority on sunday" (9 of
                # the dev chats' 10 such a job; "universiti malaya last week lol engineering" a school)
            if name is None and predicate == "studies_at":
                name = lowercase_school(rest)  # "doing medicine at glasgow uni"
            if name and predicate == "studies_at" and head.lower().startswith(("go", "do")) \
                    and not looks_educational(name):
                name = None  # "doing a shift at Tesco": no school
        if name and predicate == "traveled_to" and name.casefold() in _CHAINS:
            return None  # "then I went to Costco to buy her a microwave": a shop, written with its capital (not a
            # town a word of another list is: "Eid in Norway", "Casa", a reviewer's)
        if name and kind in ("place", "where") and (at := rest.lower().find(name.lower())) >= 0 and (
                _SESSION_AFTER.match(rest, at + len(name)) or (
                re.search(r"(?i)\bhome\s+(?:from|fae)\s*$", head) and _HOME_FOR.match(rest, at + len(name)))):
            return None  # "just got home from derby practice": roller derby, not Derby; "Leilani came home from
            # Oregon for a week": where she lives, not a trip
        if name:
            return [name]
        if predicate == "studies_at" and verb.kind == "stop":
            return [None] if STUDY_PHRASE.match(rest.strip()) else None
        if verb.kind == "stop" and JOB_WORD.search(head):
            return [None]  # "I quit my job at the call center"
        if predicate == "works_at" and verb.kind == "stop" and (place := workplace(rest)) is not None \
                and (said := re.match(rf"\s*the\s+(?:[\w'’-]+\s+){{0,2}}?{re.escape(place)}", rest, re.IGNORECASE)) \
                and _QUIT_ENDS.match(rest, said.end()) and not _HEAD_PREPOSITION.search(head):
            return [place]  # chat names the place of work by its kind: "i quit the bakery" ends working there
        if predicate == "works_at" and verb.kind == "stop" and not JOB_PHRASE.match(rest.strip()) and re.match(
                r"\s*(?!(?:lol|haha|omg|today|yesterday|finally|and|but|so|too|it|again|tho|though)\b)[a-z]", rest):
            return None  # "i quit twitter", "i quit sugar": something given up, not surely a job
        if verb.bare or (verb.kind == "stop" and JOB_PHRASE.match(rest.strip())):
            if verb.kind == "stop" and not JOB_PHRASE.match(rest.strip()) and _THING_AFTER.match(
                    rest) and verb.predicate != "married_to":
                return None  # "I left my keys": not a job
            if _UNSAID_END.fullmatch(head.strip()) and not (
                    self._previous is not None and _ABOUT_WORK.search(self._previous.text) and predicate == "works_at"):
                return None  # "i quit lol", "I ended it": a team, a game, a call; a job only when work was asked about
            return [None]
        return None

    def _pair(self, verb: Verb, m: re.Match[str], sentence: str, rest: str, end: int, subject: Subject,
              op: FactOp, reading: Reading, span: TimeSpan | None, add: _Add) -> None:
        """"moved from A to B", "moved to B from A", "left A for B", or one side alone."""
        text = sentence[m.end():end]
        head = m.group().lower()
        first = place_name(text) if verb.predicate == "lives_in" else None
        first = first or proper_name(text)
        if first is None:
            if "from" not in head:
                self._single(verb, rest, subject, add, head)
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
        elif "from" in head and verb.predicate == "lives_in" and is_town(first):
            for subj in subject.names:  # "i moved from london 3 years ago": London is left, not a home begun
                add(subj, "lives_in", first, "end", None, when_from)
            return
        else:
            self._single(verb, rest, subject, add, head)
            return
        predicate = "lives_in" if is_place(old) or is_place(new) else "works_at"  # not "from Nokia to Samsung"
        for subj in subject.names:
            add(subj, predicate, old, "end", None, when_from)
            if op != "end" or "for" in (link.group() if link else ""):
                add(subj, predicate, new, "assert", when_from, None)

    def _single(self, verb: Verb, rest: str, subject: Subject, add: _Add, head: str = "") -> None:
        obj = place_name(rest) or (proper_name(rest) if verb.obj == "where" else None)
        if obj is not None and not is_place(obj) and is_town(obj) and head.lower().startswith(("left", "leav")):
            self._review = "a town only GeoNames knows, after \"left\": as often a firm"  # "I left Bodrum"
        if obj is None and _MOVED_TO.search(head) and (typed := lowercase_name(rest, self._in_lower_case())) and \
                not _LINKISH.match(rest):  # not "moved to https://…", "to gmail.com"
            obj = _typed_place(typed)
            # "i moved to karosta last year": a place typed in lower case, for review: as often an app, a shop, a
            # diet or a day ("moved to whatsapp", "to lidl", "to keto", "to thursdays"), which no list tells apart
            self._review = self._review or (obj is not None and "a place typed in lower case after a move: as "
                                                                 "often an app, a shop or a diet") or None
        if obj is None:
            if verb.kind == "stop" and JOB_PHRASE.match(rest.strip()):
                for subj in subject.names:
                    add(subj, "works_at", None)
            return
        for subj in subject.names:
            add(subj, _route(verb, obj), obj)


def _ex_named(found: list[ExtractedFact], speaker: str) -> list[ExtractedFact]:
    """A breakup whose partner the sentence names as the speaker's ex ("kat and i split up": the
    ex is kat) ends dating kat, not some partner left unnamed."""
    exes = {f.subject for f in found if f.predicate == "ex_of" and f.object == speaker and f.op == "assert"}
    if len(exes) != 1:
        return found
    ex = next(iter(exes))
    return [f.model_copy(update={"object": ex}) if f.op == "end" and f.predicate == "dating"
            and f.subject == speaker and f.object is None else f for f in found]


def _named_relative(found: list[ExtractedFact]) -> list[ExtractedFact]:
    """"My boss is called Marta": Marta is the speaker's boss (the relation names her), so no one named for the
    relation ("Carmen's boss") is called Marta besides (a new user's: a second person drawn beside her)."""
    related = {(f.subject.lower(), (f.object or "").lower()) for f in found if f.op == "assert" and f.object
               and f.predicate != "is_called"}
    return [f for f in found if not (f.predicate == "is_called" and f.op == "assert" and f.object and "'s " in f.subject
                                     and any(name == f.object.lower() and f.subject.lower().startswith(owner + "'s ")
                                             for name, owner in related))]

