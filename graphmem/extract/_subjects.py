"""Who a verb phrase is about, and where the clauses of a sentence begin and end.

The words before a verb give its subject and auxiliaries: "I", "we", "my sister Ana", "Tom and
I", a name that opens the clause, "she" for the person last named, or none in "Moved to
Lisbon!" (the speaker, unsaid).

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..core.alias_evidence import COMMON_WORDS
from ._family import named_in_lowercase
from ._lexicon import RELATION_ADJECTIVES, RELATIONS, is_place, looks_organisational, names_no_one
from ._names import CASELESS, LOWER, MARKS, UPPER, is_given_name
from ._reading import WORD_END, WORD_START, said_with

__all__ = ["JOINED", "NAMED_MID_SENTENCE", "OPENER", "SUBJECTLESS", "Subject", "clauses", "find_subject",
           "names_anyone", "one_person_named", "pair_named", "people_named"]

_A = "['’]"

# --- clauses --------------------------------------------------------------------------------

_PAST_VERB = (r"(?:\w+ed|went|got|left|quit|took|met|had|flew|ran|became|began|made|spent|"
              r"came|saw|drove|fell|bought|found|gave|broke|split)")
#: Spaces before a joining word, from where they begin only: a match tried inside a long run of
#: spaces would walk the rest of the run each time (quadratic in the run).
_GAP = r"(?:,\s+|(?<![\s,])\s+)"
_BREAK = re.compile(
    rf";|:\s|\s[-–—]\s|{_GAP}(?:but|so|because|though|although|while|whereas|plus)\s+"
    rf"|{_GAP}(?:before|after)\s+(?=\w+ing\b)"
    rf"|{_GAP}and\s+(?=(?:I|i|we|my|our|now|then|he|she|they|also|"
    rf"{_PAST_VERB})\b)", re.IGNORECASE)


def clauses(sentence: str) -> list[tuple[int, int]]:
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
    r"back|newly|happily|secretly|already|soon|still|properly|regularly|religiously")
_AUX = rf"(?P<aux>(?:\s+(?i:{_AUX_WORDS})\b|{_A}(?i:m|re|s|ve|d|ll)\b|(?<=\bi)(?:m|ve)\b)*)"
_WORD = rf"[{UPPER}][\w{MARKS}-]*(?:['’](?!s\b)\w+)*"  # O'Brien, but not the 's of "Sara's living"
_NAME = rf"(?:(?!I\b|I['’]){_WORD}\.?(?:\s+(?!I\b|I['’]){_WORD})?)"
_NAMES = rf"{_NAME}(?:(?:\s*,\s*|\s+and\s+){_NAME})*"
#: A name after a relation word, where a script with no capitals may write it too: "my friend ليلى", "my sister 美玲".
_CALLED = rf"(?:(?!I\b|I['’])[{UPPER}{CASELESS}][\w{MARKS}-]*(?:['’](?!s\b)\w+)*\.?(?:\s+(?!I\b|I['’]){_WORD})?)"
_CALLED_NAMES = rf"{_CALLED}(?:(?:\s*,\s*|\s+and\s+){_CALLED})*"
_REL = (rf"(?:[Mm]y|[Oo]ur)\s+(?:(?:{'|'.join(sorted(RELATION_ADJECTIVES))})\s+)?"
        rf"(?:{'|'.join(sorted(map(re.escape, RELATIONS), key=len, reverse=True))})")
#: Someone else's relative, named after it: "Oti's cousin Njeri lives in Croydon".
_THEIR_REL = (rf"{_WORD}['’]s\s+(?:{'|'.join(sorted(map(re.escape, RELATIONS), key=len, reverse=True))})")
_SUBJECT = re.compile(
    rf"(?:^|(?<=[\s,;:(“\"]))(?:(?P<first>I|i|[Ww]e|(?:[Mm]y|[Oo]ur)\s+(?:whole\s+)?family)"
    rf"|(?P<mixed>{_REL}(?:\s+(?P<mixed_names>{_NAMES}))?\s+and\s+I)"
    rf"|(?P<named>(?:{_REL}|{_THEIR_REL})\s+(?P<rel_names>{_CALLED_NAMES}))"
    rf"|(?P<rel_lower>{_REL}\s+(?P<rel_lower_name>(?-i:[{LOWER}][{LOWER}'’-]+)))"
    rf"|(?P<pair>(?P<pair_name>{_NAME}|(?-i:[{LOWER}][{LOWER}'’-]+))\s+and\s+(?:I|i|me)\b)"  # ("Róisín and me are")
    rf"|(?P<me>[Mm]e\s+and\s+(?P<me_name>{_NAME}|(?-i:[{LOWER}][{LOWER}'’-]+)))"
    rf"|(?P<who>(?P<who_name>{_NAME}),\s+who)"
    rf"|(?P<family>(?P<family_name>{_NAME})\s+and\s+(?:the|her|his|their)\s+(?:kids|children|boys|girls|twins|"
    rf"little\s+ones))"  # "Aroha and the kids moved to Dunedin": Aroha, the children unnamed (a new user's)
    rf"|(?P<titled>(?:[Mm]y\s+)?(?:Grandpa|Grandma|Granny|Grandad|Nana|Uncle|Aunt|Auntie|Cousin)"
    rf"\s+(?P<titled_name>{_NAME}))"
    rf"|(?P<appos1>(?P<appos1_name>{_NAME}),\s+{_REL},)"
    rf"|(?P<appos2>{_REL},\s+(?P<appos2_name>{_NAME}),)"
    rf"|(?P<pronoun>[Hh]e|[Ss]he)"
    rf"|(?P<bare>{_NAMES})"
    rf"|(?P<lower>(?-i:[a-z][a-z'’-]+))){_AUX}\s*$")
_INTERJECTION = (r"(?:just|finally|lol|so|also|oh|recently|ugh|haha|omg|well|anyway|btw|"
                 r"guess\s+what|actually|and|update|news|big\s+news|yay|welp|fyi|ok|okay|"
                 r"honestly|hey|hi|hello|wow|yes|yeah|sadly|luckily|apparently|today|officially|"
                 r"no|nope|sorry|oops|wait|correction|my\s+bad|fun\s+fact|plot\s+twist|random\s+but)")
# "Actually no, Tom works at Asda", "fun fact Tomasz actually moved back to Gdańsk" (new users')
SUBJECTLESS = re.compile(rf"^(?:\W*{_INTERJECTION}\b)*\W*?{_AUX}\s*$", re.IGNORECASE)
_LEAD_ONLY = re.compile(rf"^(?:\W*{_INTERJECTION}\b)*[\W]*$", re.IGNORECASE)
_SUBJECT_ONLY = re.compile(rf"\s*(?:(?:{_INTERJECTION})\W*)*(?:{_REL}\s+)?(?:{_NAMES})?\s*",
                           re.IGNORECASE)

#: A capitalised word inside a sentence (after a lower-case word): a name as the chat writes it.
NAMED_MID_SENTENCE = re.compile(r"(?<=[a-z,]\s)(?-i:[A-Z][a-z]{2,})\b(?!['’]?\s*(?:-|[A-Z]))")


#: A sentence that opens with someone and what they did ("kwesi left btw", "Dani's moving"): the
#: next sentence with no subject of its own may go on about them ("drove to Calgary last week").
OPENER = re.compile(rf"^\W*(?:(?:{_INTERJECTION})\W+)*(?P<name>[A-Za-z][\w-]+)(?:{_A}s\b|\s+(?:is|was|has|had|"
                    rf"{_PAST_VERB})\b)", re.IGNORECASE)


#: A clause ended by a comma: a name after it may open the next ("…, Jo's on the committee").
_AFTER_CLAUSE = re.compile(r"\w[\w'’]*\s*[,;]\s*$")
_IS_OR_HAS = re.compile(rf"(?:{_A}s|\s+(?:is|was|has|had))\b")

#: A verb phrase joined to the one before it, sharing its subject.
JOINED = re.compile(r"(?:,\s*|\s+)(?:and|then|&|before|after)\s+(?:(?:just|also|then|now|later|recently|finally)"
                  r"\s+)*$", re.IGNORECASE)
#: How far back a clause joined by "and" is looked for (see THEIR_CLAUSE): keeps the search linear.
THEIR_REACH = 120
#: A clause of someone else's joined to the verb by "and"/"then", the verb's subject left out:
#: "she's made friends already and joined a bowls club" (she joined, not the speaker).
THEIR_CLAUSE = re.compile(r"(?:^|[.!?,;]\s*|\s)(?P<who>she|he|they)(?:['’](?:s|re|ve|d)|\s+(?:is|was|are|were|has|"
                          r"had|have|\w+ed))\b[^.!?;]*?\s(?:and|then)\s+(?:(?:also|just|then|even)\s+)?$",
                          re.IGNORECASE)


@dataclass(frozen=True)
class Subject:
    names: tuple[str, ...]  # the speaker or named people
    partner: str | None  # "Tom and I": the other one, object of a reciprocal verb
    partner_unnamed: bool  # "my boyfriend and I"
    aux: str
    begin: int
    said: bool = True  # named in the words ("I", "my sister Ana"), not left unsaid ("Moved to Rome")
    bare: bool = False  # a lone capitalised word taken for a name ("Tom moved", "Sounds like")
    plural: bool = False  # "we": the speaker and someone the words may not name


def _is_name(text: str) -> bool:
    return all(not names_no_one(word) and not _INTERJECTION_WORD.fullmatch(word.strip("."))  # not "They'd" (an
               for word in text.split()) and text.strip().lower() not in _FAMILY_ALONE | _PARENT_WORDS | _YOU_ALONE
    # not "Wait, Tom", "Oops, Tom", "Nope Tom" (a reviewer's)


#: What one calls a parent or grandparent, said alone as a subject: the speaker's, no one called so ("Mam and me moved
#: to Leeds": an attacker's).
_PARENT_WORDS = frozenset(("mam", "mum", "mom", "mammy", "mummy", "mommy", "dad", "da", "daddy", "nan", "nana", "gran",
                           "granny", "grandma", "grandpa", "grandad", "ma'am", "maam"))
#: Family words said alone that are no one's name, though a name may begin with them: "Ma lives in Bombay" is the
#: speaker's mother, each speaker's another, not one person called Ma (a new user's); "Ma Li" is a name.
_FAMILY_ALONE = frozenset(("ma", "maa"))
#: "You" as a text writes it, said alone: "U GOT A CAT" names no one called U (a new user's); "Ya Ting" is a name.
_YOU_ALONE = frozenset(("u", "ur", "yu"))


_INTERJECTION_WORD = re.compile(_INTERJECTION, re.IGNORECASE)


def _split_names(text: str) -> list[str]:
    return [name.strip() for name in re.split(r"\s*,\s*|\s+and\s+", text) if name.strip()]


#: An unnamed relative of the speaker's opening the clause, the verb's subject: "my brother moved to London", "btw
#: my mum's living in Leeds now" (not "my brother's friend", "Jo and my brother", "if my brother moves").
_RELATIVE_SUBJECT = re.compile(rf"(?:^|(?<=[\s,;:(“\"]))(?P<relative>{_REL}){_AUX}\s*$")


def relative_subject(prefix: str) -> tuple[str, str, int] | None:
    """The relation words ("my brother") and aux of an unnamed relative that is the subject of the verb after
    ``prefix``, with where they start, when nothing but interjections comes before them; else None."""
    m = _RELATIVE_SUBJECT.search(prefix)
    if m is None or not _LEAD_ONLY.match(prefix[:m.start()]):
        return None
    return m["relative"], m["aux"] or "", m.start()


#: The riddle one tells one's own news by: "guess who quit the book club 🙋‍♀️" (the speaker's only where the message
#: says so, ``riddle``: it is as often gossip, "guess who moved to Leeds... Tom!", an attacker's; not "guess who I met",
#: whose subject is "I", read as any).
_GUESS_WHO = re.compile(rf"^(?:\W*{_INTERJECTION}\b|\W*(?-i:[A-Z])[\w'’-]*\W+)*\W*guess\s+(?P<who>who)(?:{_AUX})?\s*$",
                        re.IGNORECASE)


def find_subject(prefix: str, offset: int, speaker: str, last_named: str | None,
                 known: frozenset[str] = frozenset(), *, riddle: bool = False) -> Subject | None:
    """Who the verb after ``prefix`` (the clause up to the verb) is about, or None; ``known``: the names (lower
    case) the chat has given people so far ("my sister bex": then "bex moved to london" is hers)."""
    if riddle and (guessed := _GUESS_WHO.match(prefix)):  # "guess who quit the book club 🙋‍♀️": the speaker's
        return Subject((speaker,), None, False, guessed["aux"] or "", offset + guessed.start("who"))
    m = _SUBJECT.search(prefix)
    found = _named_subject(m, prefix, offset, speaker, last_named, known) if m else None
    if found is None and (bare := SUBJECTLESS.match(" " + prefix)):
        return Subject((speaker,), None, False, bare["aux"] or "", offset, said=False)
    return found


def _named_subject(m: re.Match[str], prefix: str, offset: int, speaker: str,
                   last_named: str | None, known: frozenset[str] = frozenset()) -> Subject | None:
    aux, lead = m["aux"] or "", prefix[:m.start()]
    if m["first"]:
        return Subject((speaker,), None, False, aux, offset + m.start(), plural=m["first"].lower() == "we")
    if m["mixed"]:
        others = _split_names(m["mixed_names"]) if m["mixed_names"] else []
        if not all(map(_is_name, others)):
            return None
        return Subject((speaker, *others), others[0] if len(others) == 1 else None, not others,
                        aux, offset + m.start())
    if m["named"]:
        names = _split_names(m["rel_names"])
        return Subject(tuple(names), None, False, aux, offset + m.start()) \
            if all(map(_is_name, names)) else None
    if m["rel_lower"]:
        # "my brother sizwe moved to cape town": a name in lower case after the relation word, when it is a
        # given name or no plain English word ("my brother just moved", "my sister really likes…" name no one)
        name = m["rel_lower_name"]
        return Subject((name,), None, False, aux, offset + m.start()) if _is_name(name) and name not in COMMON_WORDS \
            and not name.endswith("ly") and named_in_lowercase(name) else None
    if m["pair"] or m["me"]:
        name = m["pair_name"] or m["me_name"]
        if name.islower() and (not _LEAD_ONLY.match(lead) or not _is_name(name)):
            # "its expensive and i have a dog", "oh and i bought a camera": a lowercase word is a
            # name only opening the clause, and never a word like "oh"
            return Subject((speaker,), None, False, aux, offset + m.start())
        return Subject((speaker, name), name, False, aux, offset + m.start()) \
            if _is_name(name) else None
    for group in ("who", "titled", "appos1", "appos2", "family"):
        if m[group]:
            name = m[f"{group}_name"]
            return Subject((name,), None, False, aux, offset + m.start()) \
                if _is_name(name) else None
    if m["pronoun"]:
        return Subject((last_named,), None, False, aux, offset + m.start()) if last_named else None
    if m["lower"]:
        # "ok: lucas moved again": a known given name written in lower case, opening the clause
        return Subject((m["lower"],), None, False, aux, offset + m.start(), bare=True) \
            if (is_given_name(m["lower"]) or m["lower"] in known) and _LEAD_ONLY.match(lead) else None
    names = _split_names(m["bare"])
    while len(names) > 1 and _INTERJECTION_WORD.fullmatch(names[0].strip(".")):
        names = names[1:]  # "Wait, Tom works at Asda": "Wait," opens it, Tom is the subject
    after_clause = bool(_AFTER_CLAUSE.search(lead)) and len(names) == 1 and bool(_IS_OR_HAS.match(aux))
    if not (_LEAD_ONLY.match(lead) or after_clause) or not all(map(_is_name, names)):
        return None  # "we're doing a street party, Jo's on the committee": a name after a comma, with its verb
    return Subject(tuple(names), None, False, aux, offset + m.start(), bare=len(names) == 1)



#: Someone named in passing, whom a later "he"/"she" may mean: "her name's Lou", "Kofi's a good
#: lad", "Terry the builder's a legend", "Ana is…", "and Hannah?", "what about Lou though?".
def _passing(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:[Hh]er|[Hh]is)\s+name(?:{_A}s|\s+is|\s+was)\s+(?P<called>{_WORD})"
        rf"|(?:^|[.!?,;]\s+|\b(?:and|but|lol|tho|about|how{_A}?s|how\s+is)\s+)(?P<name>{name})"
        rf"(?=(?:\s+the\s+[a-z]+)?{_A}s\s+(?:a|an|the|so|really|very|got|been|not|on|in|at|off|still|such|just|"
        rf"always|never|also|too|back|doing|going|getting|moving|working|living|started|finished|left|great|lovely|nice|"
        rf"amazing|brilliant|fine|good|well|sound)\b"
        rf"|\s+(?:is|was|has|had|does|did)\b|\s*(?:though|tho|then)?\s*\?|,\s+(?:he|she)\b)")


_IN_PASSING = _passing(_NAME)
#: The same in lower case ("how's danny?"), read apart so that "how is" is not taken for a name.
_IN_PASSING_LOWER = _passing(r"(?-i:[a-z][a-z-]+)")
#: Someone close left unnamed ("my sister", "her boss"): "she" may be them.
#: A relation word, maybe after an adjective: "sister", "older brother", "best friend".
_RELATION = (rf"(?:(?:{'|'.join(sorted(RELATION_ADJECTIVES))})\s+)?"
             rf"(?:{'|'.join(sorted(map(re.escape, RELATIONS), key=len, reverse=True))})")
_UNNAMED_RELATION = re.compile(rf"\b(?:my|our|his|her|their)\s+{_RELATION}\b(?!\s+(?-i:[A-Z]))", re.IGNORECASE)


def people_named(text: str, known: frozenset[str] | set[str] = frozenset()) -> set[str] | None:
    """The people a message names in passing, whom "he"/"she" may mean; None when it also
    speaks of someone unnamed ("my sister"), who could be meant as well. ``known``: names the
    chat has written capitalised before, in lower case ("kwesi" once "Kwesi" was seen)."""
    if _UNNAMED_RELATION.search(text):
        return None
    found = set()
    for name in _in_passing(text):
        if name.islower() and not is_given_name(name) and name not in known:
            continue  # "how's danny?": a lower-case word only when it is a known given name
        if _is_name(name) and not is_place(name) and not looks_organisational(name):
            found.add(name)
    return found


def names_anyone(text: str) -> bool:
    """Whether ``text`` puts any word where a name goes ("lupe is moving"), known as a name or not."""
    return any(map(_is_name, _in_passing(text)))


@lru_cache(maxsize=64)
def _in_passing(text: str) -> tuple[str, ...]:
    """The words ``text`` puts where a name goes in passing, capitalised or not (one scan of a
    message however many times its names are asked for)."""
    return tuple(m["called"] or m["name"] for m in [*_IN_PASSING.finditer(text), *_IN_PASSING_LOWER.finditer(text)])


#: Someone of the speaker's named after a relation word: "my friend Tunji is …", "our neighbour Chief Ogunleye
#: has …" (not "his wife Emma": she is someone of the "he" already meant).
#: Before and after a name said as a place: "in Ballina", "that Ballina", "Ballina in Tipp".
_PLACE_WORD = re.compile(r"\b(?:in|to|from|near|that|this)\s+\Z")
_IN_TOWN = re.compile(r"\s+in\s+[A-Z]")
_RELATED_NAME = re.compile(rf"\b(?:[Mm]y|[Oo]ur)\s+{_RELATION}\s+(?P<name>{_NAME})")


#: Someone said together with the speaker ("Birita and I", "me and Tom"), or the one the message gives the name
#: of ("her name is Chloe", "his name is seojun").
_WITH_ME = re.compile(rf"\b(?P<name>{_WORD})\s+and\s+(?:I|me)\b|\b(?i:me)\s+and\s+(?P<after>{_WORD})"
                      rf"|\b(?i:her|his)\s+(?i:name)(?:{_A}s|\s+is)\s+(?P<called>[\w'’-]+)")


def pair_named(text: str, named: bool = True) -> str | None:
    """The one person ``text`` names together with the speaker ("Birita and I... we are seeing each
    other"), or (``named``) whose name it gives ("his name is seojun … we've been dating like 2 weeks"),
    whom the other of "we" means; None when none is, or two are."""
    found = {m["name"] or m["after"] or m["called"] for m in _WITH_ME.finditer(text) if named or not m["called"]}
    return next(iter(found)) if len(found) == 1 else None


def one_person_named(text: str, before: str | None, *not_them: str | None,
                     known: frozenset[str] | set[str] = frozenset(),
                     places: frozenset[str] | set[str] = frozenset()) -> str | None:
    """The one person ``text`` or the turn ``before`` it names (not ``not_them``: the speaker,
    the other participant; nor ``places``, in lower case, words the chat has said as where someone is);
    None when none is named, or two could be meant (someone the message names after a relation word,
    "my friend Tunji", is one who could be meant)."""
    named = people_named(text, known)
    earlier = people_named(before, known) if before is not None else set()
    if named is None or earlier is None:
        return None
    if {m["name"] for m in _RELATED_NAME.finditer(text)} - set(not_them):
        return None  # "My friend Tunji is …. He has …": he may be Tunji, not whom the turn before named
    said = text + " " + (before or "")
    everyone = {n for n in named | earlier if not (  # "not that Ballina! Ballina in Tipp": a place
        said_with(said, n, before=_PLACE_WORD, after=WORD_END)
        or said_with(said, n, before=WORD_START, after=_IN_TOWN))}
    everyone = {n for n in everyone if n.lower() not in places} - set(not_them)
    return next(iter(everyone)) if len(everyone) == 1 else None
