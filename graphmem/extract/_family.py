"""Who is whose what: family and other relations read from chat ("my sister Anna", "your mum").

A relation is stated about the one it is relative to: "my" and "our" are the speaker, "your" the
other participant. Each becomes a fact **PERSON WORD_of OF** in the words of
:mod:`graphmem.core.relations`: "my sister Anna" said by Maya is ``Anna sister_of Maya``; "my
mom" is ``Maya's mother mother_of Maya`` (an entity named for the relation, until a name is
learnt); the parent is always the subject of ``mother_of``. Casual words are mapped to the
vocabulary, each keeping its sex (mum → mother, hubby → husband, bf → boyfriend, bestie → friend,
"mother in law" → in_law).

Precision first. A word after the relation is a name only when it is capitalised and no common
word, or typed in lowercase, is no common English word and is followed by what a name is
followed by (a verb, the end of the clause): "my sister is free", "my mom says" name no one.
Questions ("is your sister coming?") and hedged or hypothetical clauses ("if my sister comes",
"when my mom visits") state nothing, nor does "his"/"her" (whose is not told) or a plural left
unnamed ("my kids": a group, no entity).

A named relative said where one was recorded unnamed before ("my sister" then "my sister anna")
is that one: ``Anna alias_of Maya's sister``, for the words that mean one person at a time
(mother, father, a partner, boss, sister, brother), and only while no other of them is known.
The memory of what was recorded lives in the :class:`FamilyMemory` of one extractor, for the
messages of one conversation read in order.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.alias_evidence import english_counts, plain_english
from ..core.aliases import ALIAS
from ..core.relations import predicate_of
from ._facts import ExtractedFact
from ._lexicon import LANGUAGES, NOT_NAMES, is_place
from ._names import CASELESS, LOWER, MARKS, UPPER, is_given_name, is_known_name
from ._reading import HEDGE_BEFORE

__all__ = ["QUOTED", "FamilyMemory", "WORDS", "addressed_as", "placeholder"]

_A = "['’]"

#: What each casual word is in the vocabulary.
WORDS: dict[str, str] = {}
for _word, _said in {
    "mother": "mother mom mum mama mamma momma mommy mummy amma ammi",
    "father": "father dad daddy papa",
    "parent": "parent",
    "sister": "sister sis",
    "brother": "brother bro",
    "sibling": "sibling",
    "husband": "husband hubby hubs",
    "wife": "wife wifey",
    "partner": "partner",
    "boyfriend": "boyfriend bf fiance fiancé",
    "girlfriend": "girlfriend gf fiancee fiancée",
    "ex": "ex ex-husband ex-wife ex-boyfriend ex-girlfriend ex-partner",
    "son": "son",
    "daughter": "daughter",
    "child": "child kid",
    "grandmother": "grandmother grandma granny nana nan gran",
    "grandfather": "grandfather grandpa grandad granddad gramps",
    "grandchild": "grandchild grandkid grandson granddaughter",
    "aunt": "aunt auntie aunty",
    "uncle": "uncle",
    "cousin": "cousin",
    "niece": "niece",
    "nephew": "nephew",
    "in_law": ("mother-in-law father-in-law sister-in-law brother-in-law son-in-law daughter-in-law "
               "in-law mil fil sil bil"),
    "friend": "friend bestie bff pal buddy",
    "coworker": "coworker co-worker colleague workmate",
    "boss": "boss manager supervisor",
    "roommate": "roommate roomie flatmate housemate",
    "neighbour": "neighbour neighbor",
}.items():
    for _w in _said.split():
        WORDS[_w] = _word
#: Plurals that may be followed by names ("my kids leo and sofia"): the word of each one named.
_PLURALS = {"kids": "child", "children": "child", "sons": "son", "daughters": "daughter",
            "sisters": "sister", "brothers": "brother", "cousins": "cousin", "friends": "friend",
            "parents": "parent", "grandkids": "grandchild", "grandchildren": "grandchild"}
#: Words that mean one person at a time: an unnamed one recorded before is the one named later.
_ONE_AT_A_TIME = frozenset({"mother", "father", "husband", "wife", "partner", "boyfriend", "girlfriend",
                            "boss", "sister", "brother"})
#: Words of which one has one at most: "my mum" is the mother named before.
_ONLY_ONE = frozenset({"mother", "father"})
#: Words too wide for an entity of their own when unnamed ("my friend": which one?).
_NO_PLACEHOLDER = frozenset({"friend", "coworker", "neighbour", "ex", "child", "parent", "sibling"})
#: Before the relation word: "my best friend", "our little sister". Others ("my old boss", "my
#: late father", "my future husband") say something else, and the phrase is not read.
_ADJECTIVES = "best|older|younger|little|big|baby|twin|eldest|oldest|youngest|dear|new|lovely|favourite|favorite"

_IN_LAW = r"(?:mother|father|sister|brother|son|daughter)[\s-]+in[\s-]+law|in[\s-]+law"
_WORD_RE = (rf"(?P<word>{_IN_LAW}|best\s+friend|"
            + "|".join(sorted((re.escape(w) for w in (*WORDS, *_PLURALS) if "in-law" not in w),
                              key=len, reverse=True)) + ")")
_OWNER = r"(?P<owner>my|our|your|ur|yr|his|her)"
#: "my sister", "your little brother", "my mother in law", "our kids".
_RELATION = re.compile(rf"(?<![\w'’-]){_OWNER}\s+(?:(?:{_ADJECTIVES})\s+)?{_WORD_RE}(?![\w-])", re.IGNORECASE)
#: The speaker has more than one: "I have two sisters", "i've got 3 brothers".
_SEVERAL = re.compile(r"\b(?:(?:i|we)(?:\s+have|['’]ve|\s+have\s+got|['’]ve\s+got|\s+got)|my|our)\s+"
                      r"(?:two|three|four|five|[2-9])\s+(?:(?:older|younger|little|big)\s+)?"
                      r"(?P<word>sisters|brothers)\b", re.IGNORECASE)
#: "Tommy's wife Bríd", "Kojo's daughter Akosua": someone named, then a relative of theirs named.
_THEIRS = re.compile(rf"(?<![\w'’-])(?P<owner>(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_]+){_A}s\s+(?:(?:{_ADJECTIVES})\s+)?"
                     rf"{_WORD_RE}\s+(?P<name>(?-i:[A-ZÀ-ÖØ-Þ])[^\W\d_'’-]+)(?![\w'’-])", re.IGNORECASE)
#: Words said of a company's as often as of a person's ("Google's partner", "Acme's boss").
_NOT_THEIRS = frozenset({"partner", "boss", "coworker", "neighbour"})
#: "Anna, my sister" (a name, a comma, the relation, the end of the clause).
_NAME_FIRST = re.compile(r"(?P<name>[\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s*,\s*$")
_FILLERS = "and|but|so|btw|oh|yeah|yes|ok|okay|lol|well"
#: "Anna is my sister", "anna's my sister": the name opening the clause.
_NAME_IS = re.compile(rf"(?:^|[,;:]\s*|\b(?:{_FILLERS})\s+)(?P<name>(?!(?:{_FILLERS})\b)[\w'’-]+"
                      rf"(?:\s+(?-i:[A-Z])[\w'’-]+)?)"  # (a surname in capitals: not "yes marcus")
                      rf"(?:\s+is|{_A}s)\s+(?:(?:also|still|actually|literally|now)\s+)?$", re.IGNORECASE)
#: " is Ciaran.": a name written with a capital, all the clause says after "is" (not "is free", "is Irish").
_IS_NAME = re.compile(r"\s+is\s+(?P<name>(?-i:[A-Z])[^\W\d_]+(?:[-'’][^\W\d_]+)?(?:\s+(?-i:[A-Z])[^\W\d_]+)?)"
                      r"\s*(?:[.!;]|$)")
#: "'s name is Anna", " is called Anna".
_CALLED = re.compile(rf"^(?:{_A}s\s+name\s+is|{_A}s\s+called|\s+is\s+called|\s+is\s+named|{_A}s\s+name{_A}s)\s+",
                     re.IGNORECASE)
#: Mom and Dad by themselves, opening a clause with their verb: the speaker's ("mum's doing lunch").
_BARE_PARENT = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|but|so|btw|also|then|plus|oh|lol|ok|okay|anyway|honestly|well)\s+)"
    r"(?P<word>mom|mum|mama|momma|mommy|mummy|dad|daddy)(?=(?:['’]s|\s+(?P<next>[a-z'’]+)))", re.IGNORECASE)

#: "kat and i split up", "Sam and I broke up": the name is the speaker's ex from then on.
_BREAKUP = re.compile(rf"(?<![\w'’-])(?P<name>[{UPPER}{LOWER}][{LOWER}'’-]+)\s+(?:and|&)\s+(?:I|i)\s+"
                      rf"(?:have\s+|{_A}ve\s+|just\s+|finally\s+)*"
                      r"(?:broke\s+up|broken\s+up|split\s+up|split|called\s+it\s+(?:off|quits))\b")
#: Words that are no name, typed in lowercase after a relation word.
_FUNCTION = frozenset("""
a an the my our your ur yr his her their its this that these those there here who whom whose which what
when where why how and or but so if then than as at in on to for of from with without by about into onto
over under up down out off near after before since until till while because though tho although
i me you u we us he him she they them it is isn't was wasn't are aren't were weren't be been being am
has hasn't had hadn't have haven't do does doesn't did didn't done will won't would wouldn't can can't
could couldn't should shouldn't might must may shall gonna wanna gotta let lets let's not no yes yeah yep
nope ok okay lol lmao haha hahaha omg btw tbh idk imo ily rn tho ugh oh ah wow yay hey hi hello bye
just still also really actually literally finally always never ever even only too again already now
today tonight tomorrow yesterday soon later earlier once twice sometimes usually often basically totally
probably maybe perhaps definitely honestly seriously apparently clearly obviously anyway anyways
all both each every some any many much more most less few lot lots very so such quite pretty kinda
sorta super like well back home away together alone too either neither else instead
one two three four five six seven eight nine ten first second last next new old other another same
good great bad fine ok free busy sick ill tired happy sad mad angry upset proud sweet nice lovely
cute funny weird crazy amazing awesome terrible horrible best worst better worse big little small
young older younger right wrong sure glad sorry late early done gone dead alive pregnant married single
engaged divorced retired home here there everyone everybody someone somebody anyone nobody nothing
something everything thing things stuff guy guys girl girls man woman people person kid kids family
name house place car dog cat phone birthday wedding party christmas thanksgiving easter
""".split())
#: Verbs people say of a relative, in the forms that follow "my mom": none is a name.
_VERB_BASES = """
say tell think know want love like hate make take give get go come see look call text ring phone send
bring buy pay move live work stay visit leave drive fly meet help need try ask keep let put find feel
seem sound cook bake clean watch play run walk talk chat cry laugh yell scream shout sleep eat drink
start stop finish quit join marry date dump break split fight argue worry freak panic insist refuse
agree decide plan hope wish wait miss lose win sell rent own use read write sing dance teach learn
study graduate retire die pass turn grow raise adopt host throw hug kiss hold show tell remind
mention complain brag swear promise forget remember notice check care mind matter happen reckon
""".split()


def _forms(base: str) -> set[str]:
    forms = {base, base + "s", base + "es", base + "ed", base + "d", base + "ing"}
    if base.endswith("y"):
        forms |= {base[:-1] + "ied", base[:-1] + "ies"}
    return forms


_VERBS = frozenset(form for base in _VERB_BASES for form in _forms(base)) | frozenset("""
said told thought knew made took gave got gotten went came saw bought paid met felt found kept left
brought sent sold lost won wrote sang ran drove flew ate drank slept fought taught grew threw held
forgot broke split quit put let read began begun become became hit set
""".split())
#: What follows a lowercase name ("my cousin lucas is", "my sister mel texted"): a verb, an
#: auxiliary, the end of the clause.
_AFTER_NAME = re.compile(
    rf"^\s*(?:$|[.,!?;:)…]|{_A}s\b|and\b|from\b|who\b|is\b|was\b|are\b|were\b|have\b|has\b|had\b|will\b|would\b|can\b|could\b|"
    rf"did\b|does\b|just\b|finally\b|still\b|also\b|always\b|never\b|really\b|literally\b|actually\b|"
    rf"[a-z]+(?:ed|s)\b|said\b|told\b|got\b|made\b|came\b|went\b|took\b|gave\b|lol\b|haha\b|btw\b|[^\w\s])",
    re.IGNORECASE)
#: After a plain English word read as a lowercase name, a verb that makes it one: "my sister grace lives in leeds".
_VERB_AFTER_NAME = re.compile(
    r"^\s+(?:is|was|has|had|will|would|can|could|did|does|just|finally|still|also|always|never|really|"
    r"[a-z]+(?:ed|s)|said|told|got|made|came|went|took|gave)\b(?!\s*[.!?]*\s*$)")
_NAME_WORD = re.compile(r"[A-Za-z][a-z'’-]*")


#: Adds a fact: ``add(subject, predicate, object)``.
_Add = Callable[[str, str, str], None]


def placeholder(owner: str, said: str) -> str:
    """The name of an unnamed relative: "Maya's mother", "Hannah's mother-in-law"."""
    return f"{owner}'s {said}"


#: Words in double quotes (at most a few hundred characters: a scan that stays linear in a message).
QUOTED = re.compile(r"[\"“]([^\"”]{1,300})[\"”]")
#: What, said just before words in quotes, makes them someone else's, or a name ("her mum is already calling me "our
#: son"": no son of the speaker's, a new user's; "my mum said "your sister…""); not the speaker's own ('I wrote "my
#: son Leo" on the form', '"My brother Tom got engaged" is the text I woke up to': a reviewer's).
_QUOTING_ANOTHER = re.compile(r"(?:\b(?:call\w*|nam\w*|refer\w*\s+to)\s+(?:me|him|her|us|them|you|u)(?:\s+as)?|"
                              r"(?<!\bi\s)\b(?:said|says|goes|went|texted|wrote|asked|replied|yelled|shouted|like)"
                              r")\s*[,:]?\s*$", re.IGNORECASE)


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether ``at`` falls inside one of ``spans`` (in order, not overlapping)."""
    i = bisect_right(spans, (at, float("inf"))) - 1  # the last span starting at or before ``at``
    return i >= 0 and spans[i][0] < at < spans[i][1]


@dataclass
class FamilyMemory:
    """What one extractor has recorded so far of each speaker's relatives: the unnamed ones by
    word, and the names learnt for each word."""

    unnamed: dict[tuple[str, str], str] = field(default_factory=dict)
    named: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    partners: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, name key) → word
    spelled: dict[str, str] = field(default_factory=dict)  # a relative's name (lower case) → as first written
    several: set[tuple[str, str]] = field(default_factory=set)  # (owner, word) said in the plural: more than one

    def stands_for(self, owner: str, relative: str) -> str | None:
        """Whom ``relative`` ("my brother", "our mum") means as a verb's subject said by ``owner``: the unnamed
        relative's stand-in ("Sam's brother") while no name is known for the word, one of the words that mean one
        person at a time (mother, sister, boss, ...); None for another ("my friend", "my cousin", "my kids": which
        one?) or once a name was given for the word (which of them the words mean is not said)."""
        m = _RELATION.fullmatch(relative.strip())
        if m is None:
            return None
        said = _as_said(m["word"])
        if said in _PLURALS:
            return None
        word = _relation(said)
        if word not in _ONE_AT_A_TIME:  # (an in-law is none: its words are not keyed as these are)
            return None
        key = (owner.lower(), word)
        if names := self.named.get(key):  # "my mum Carmen", then "my mum moved to Vigo": Carmen; a sister named
            return self.spelled.get(next(iter(names))) if len(names) == 1 and word in _ONLY_ONE else None  # may
            # have a sister unnamed
        return self.unnamed.get(key) or placeholder(owner, word)

    def only_named(self, owner: str, relative: str) -> str | None:
        """The one sister or brother named so far, where :meth:`stands_for` leaves "my sister" unsure ("my sister
        Niamh", then "wait actually my sister lives in Leeds, not York": Niamh, probably: she may have another), or
        None: said with a word that may tell another ("my little sister"), of one who has said they have several
        ("my sisters are both nurses"), or of a partner or a boss, who may be a new one (a reviewer's)."""
        m = _RELATION.fullmatch(relative.strip())
        if m is None or (said := _as_said(m["word"])) in _PLURALS or len(relative.split()) != 2:
            return None
        word = _relation(said)
        names = self.named.get((owner.lower(), word), set())
        if word not in ("sister", "brother") or (owner.lower(), word) in self.several or len(names) != 1:
            return None
        return self.spelled.get(next(iter(names)))

    def names_given(self) -> frozenset[str]:
        """Every name (lower case) the chat has given a relative so far: "my sister bex" gives "bex"."""
        return frozenset(name for names in self.named.values() for name in names)

    def read(self, sentence: str, speaker: str, other: str | None,
             broken: frozenset[str] = frozenset(), topic: str | None = None) -> list[ExtractedFact]:
        """The relation facts of one sentence (a question or a hedged one has none); ``broken``:
        the partners (lowercase) whose breakup with the speaker the caller reads itself."""
        if sentence.rstrip("'\"”’)").endswith("?"):
            return []
        facts: list[ExtractedFact] = []
        seen: set[tuple[str, str, str]] = set()

        def add(subject: str, predicate: str, obj: str) -> None:
            if (subject.lower(), predicate, obj.lower()) not in seen:
                seen.add((subject.lower(), predicate, obj.lower()))
                facts.append(ExtractedFact(subject=subject, predicate=predicate, object=obj, quote=sentence))

        for m in _SEVERAL.finditer(sentence):  # "I have two sisters": "my sister" is no one named so far
            self.several.add((speaker.lower(), m["word"].lower()[:-1]))
        quoted = [(q.start(), q.end()) for q in QUOTED.finditer(sentence)
                  if _QUOTING_ANOTHER.search(sentence, max(0, q.start() - 40), q.start())]
        for m in _RELATION.finditer(sentence):
            if _hedged(sentence, m.start()) or _inside(quoted, m.start()):
                continue
            owner_word = m["owner"].lower()
            owner = speaker if owner_word in ("my", "our") else topic if owner_word in ("his", "her") else other
            if owner is None:
                continue  # ("his", "her" are the one person the talk is about, ``topic``, or no one)
            said = _as_said(m["word"])
            plural = said in _PLURALS
            word = _relation(said)
            if plural:
                self.several.add((owner.lower(), word))  # "my sisters are both nurses": which one is not said after
            after = sentence[m.end():]
            names = self._names_after(after, plural)
            if owner_word not in ("my", "our") and len(names) == 1 and re.match(
                    rf"\s*,?\s*{re.escape(names[0])}(?:{_A}s)?\s*[.!,;:)]*\s*$", after, re.IGNORECASE):
                names = []  # "she's your mum han": the one spoken to, not a name of the mother
            if not names and not plural:
                before = _NAME_FIRST.search(sentence, max(0, m.start() - _CLAUSE_REACH), m.start())
                rest_ok = re.match(r"\s*(?:[.,!;:]|$)", after)
                if before and rest_ok and _name(before["name"]) and not is_place(before["name"]):  # not "what
                    # about montreal, your mum, soph" (a5)
                    names = [before["name"]]
                elif (opened := _NAME_IS.search(sentence, max(0, m.start() - _CLAUSE_REACH), m.start())) and \
                        _name(opened["name"]) \
                        and not re.match(rf"\s*{_A}s\b", after) and not re.match(r"\s+(?:in\s+law)\b", after):
                    names = [opened["name"]]
            if not names and _YOU_TEASED.search(sentence, max(0, m.start() - _CLAUSE_REACH), m.start()) and \
                    not re.match(r"['’]s\b", after):
                continue
            if names:
                for name in names:
                    self._named(name, word, said, owner, add)
            elif owner_word in ("his", "her"):
                continue  # "her husband", no name: too little to name anyone for
            elif not plural and word not in _NO_PLACEHOLDER and not re.match(r"\s*,\s*(?:and|or)\b", after) and not (
                    _TO_YOU.search(sentence, max(0, m.start() - _CLAUSE_REACH), m.start())
                    and re.match(r"\s*(?:now|too|forever|always)?\s*(?:$|[^\w\s'’])", after)):
                self._unnamed(word, said, owner, add)  # (not "proud of you my daughter", "thank you my son", "you are
                # our son now": the one spoken to, whom a group's "you" does not name; a new user's family chat)
        for m in _THEIRS.finditer(sentence):  # named relatives of someone named, never an unnamed one
            said = _as_said(m["word"])
            if said in _PLURALS or "law" in said or said in _NOT_THEIRS or _hedged(sentence, m.start()) \
                    or not _name(m["owner"]) or is_place(m["owner"]) \
                    or not _name(m["name"]) or m["owner"].lower() in (m["name"].lower(), speaker.lower()):
                continue
            self._named(m["name"], _relation(said), said, m["owner"], add)
        for m in _BREAKUP.finditer(sentence):
            if _name(m["name"]) and not _hedged(sentence, m.start()) and m["name"].lower() != speaker.lower() \
                    and m["name"].lower() not in broken:
                facts.extend(f for f in self.broke_up(speaker, m["name"], sentence)
                             if (f.subject.lower(), f.predicate, (f.object or "").lower()) not in seen)
        for m in _BARE_PARENT.finditer(sentence):
            nxt = (m["next"] or "").lower()
            if m["next"] is not None and nxt not in _VERBS and not nxt.endswith(("ed", "s")) and nxt not in (
                    "is", "was", "has", "had", "will", "would", "can", "could", "did", "does", "just",
                    "still", "always", "never", "also", "really", "finally", "loved", "thinks"):
                continue
            if _hedged(sentence, m.start("word")):
                continue
            word = WORDS[m["word"].lower()]
            self._unnamed(word, word, speaker, add)
        return facts

    def _names_after(self, after: str, plural: bool) -> list[str]:
        """The name(s) said right after the relation word, or none."""
        called = _CALLED.match(after)
        if called:
            name = _name_at(" " + after[called.end():], strict=False)
            return [name] if name else []
        if (named := _IS_NAME.match(after)) and _name(named["name"]) and "-" not in named["name"] and (
                first := named["name"].split()[0]).lower() not in LANGUAGES and (
                is_known_name(first) or is_given_name(first.lower())):
            return [named["name"]]  # "My mother is Maureen.", "My manager is Helen Byrne." (a new user's, from another
            # assistant's memories; a name the name data knows: a reviewer's "My dad is Hindu", "My husband is Kiwi",
            # "my mum is Grace-ful" were names when any word not of English was; "My partner is Ciaran." waits)
        if re.match(rf"{_A}s\b", after) or re.match(r"\s+(?:in\s+law)\b", after):
            return []  # "my sister's boyfriend": someone else
        rest = re.sub(r"^\s*,\s*", " ", after) if re.match(r"\s*,\s*[A-Z]", after) else after
        first = _name_at(rest, strict=False)
        if first is None:
            return []
        if not plural:
            return [first]
        names = [first]
        tail = rest[rest.find(first) + len(first):]
        while (joined := re.match(r"\s*(?:,|,?\s+and|&)(?=\s)", tail)) and (
                nxt := _name_at(tail[joined.end():], strict=False)):
            names.append(nxt)
            tail = tail[joined.end():]
            tail = tail[tail.find(nxt) + len(nxt):]
        return names if len(names) > 1 or re.match(r"\s*(?:[.,!;:]|$)", tail) else []

    def _named(self, name: str, word: str, said: str, owner: str, add: _Add) -> None:
        if name.lower() == owner.lower():
            return
        add(name, predicate_of(word), owner)
        key = (owner.lower(), said if word == "in_law" else word)
        known = self.named.setdefault(key, set())
        if name.lower() not in known and not known and key in self.unnamed and word in _ONE_AT_A_TIME:
            add(name, ALIAS, self.unnamed[key])  # "my sister" then "my sister anna": one person
        known.add(name.lower())
        self.spelled.setdefault(name.lower(), name)
        if word in ("boyfriend", "girlfriend", "partner", "husband", "wife"):
            self.partners[(owner.lower(), name.lower())] = word

    def _unnamed(self, word: str, said: str, owner: str, add: _Add) -> None:
        key = (owner.lower(), said if word == "in_law" else word)
        if self.named.get(key) and word in _ONE_AT_A_TIME:
            return  # "my sister" once a name is known for her: nothing new
        entity = self.unnamed.setdefault(key, placeholder(owner, said if word == "in_law" else word))
        add(entity, predicate_of(word), owner)

    def broke_up(self, speaker: str, partner: str, quote: str) -> list[ExtractedFact]:
        """"Sam and I broke up": Sam is the speaker's ex, and a partner word recorded for Sam ends."""
        facts = [ExtractedFact(subject=partner, predicate=predicate_of("ex"), object=speaker, quote=quote)]
        if (word := self.partners.pop((speaker.lower(), partner.lower()), None)) is not None:
            facts.append(ExtractedFact(op="end", subject=partner, predicate=predicate_of(word), object=speaker,
                                       quote=quote))
        return facts


def _as_said(word: str) -> str:
    """A relation word as matched, its spacing made one: "mother in law" -> "mother-in-law"."""
    return re.sub(r"[\s-]+", "-", word.lower()) if "law" in word.lower() else re.sub(r"\s+", " ", word.lower())


def _relation(said: str) -> str:
    """The relation a word (:func:`_as_said`) names: "sis" -> sister, "kids" -> child, "best friend" -> friend."""
    return _PLURALS[said] if said in _PLURALS else "friend" if said == "best friend" else \
        "in_law" if "law" in said else WORDS[said]


#: How far back from a relation word its clause is read for a hedge or a name ("if", "Anna is").
_CLAUSE_REACH = 200


#: Words that make what follows them in a clause supposed, not said: "if my sister", "imagine my mum".
_SUPPOSED = re.compile(r"\b(?:imagine|pretend|suppose|hypothetically|wish|would|wouldn['’]t|if)\b", re.IGNORECASE)
#: "who are you and what did you do with my cousin": the one spoken to, teased (a new user's), where the relative is the
#: whole of what "you" did something with (not "my sister Anna", "my sister's car").
_YOU_TEASED = re.compile(r"\bwhat(?:\s+(?:did|have|has|ha)|['’]d)\s+(?:you|u)\s+(?:do|done)\s+with\s+$", re.IGNORECASE)


def _hedged(sentence: str, at: int) -> bool:
    """A hedge or a hypothetical before ``at`` in its clause: "if my sister", "when my mom" (the
    clause read back at most :data:`_CLAUSE_REACH` characters, so a long message costs linear time)."""
    start = max(max(sentence.rfind(c, 0, at) for c in ",;:") + 1, at - _CLAUSE_REACH)
    return bool(HEDGE_BEFORE.search(sentence, start, at) or _SUPPOSED.search(sentence, start, at))


def _name(text: str) -> bool:
    """Whether ``text`` (a word or two) can be someone's name."""
    words = text.split()
    if not words or len(words) > 2:
        return False
    first = words[0]
    if first.lower() in NOT_NAMES or first.lower() in _FUNCTION or first.lower() in _VERBS \
            or first.lower() in WORDS or first.lower() in _PLURALS:
        return False
    # letters of any script ("Bríd"), no capital inside ("McX") and no digit ("Bob99")
    return bool(re.fullmatch(rf"[^\W\d_](?:(?![A-Z])[^\W\d_]|[{MARKS}'’-])*", first)) and len(first) > 1


@lru_cache(maxsize=4096)
def named_in_lowercase(word: str) -> bool:
    """Whether a lowercase ``word`` after a relation word ("my brother sizwe moved") is taken for a name: a name
    the data knows ("elisa", "grace", "clement"), or a word of four letters or more that is no word here, no plain
    English word and no chat spelling of one (:func:`misspelt`: "alredy", "stil", "yaar"); "my sister really",
    "my mum obvs" name no one."""
    return _lowercase_name(word) and (is_known_name(word) or len(word) >= 4 and not plain_english(word))


def _lowercase_name(word: str) -> bool:
    """Whether a lowercase word can be a name at all: no word here, no -ing, and no noun's ending nor chat
    spelling (:func:`misspelt`) unless the name data knows it ("clement")."""
    return _name(word) and not word.endswith("ing") and (
        is_known_name(word) or not (_NOUN_ENDS.search(word) or misspelt(word)))


@lru_cache(maxsize=4096)
def misspelt(word: str) -> bool:
    """Whether a lowercase ``word`` is chat shorthand ("obvs", "aswell") or a plain English word with a letter left
    out or mistyped ("alredy", "stil", "yaar"); not a name with a letter more than a word ("sizwe", "tunde")."""
    if word in _SHORTHAND:
        return True
    if len(word) < 4:
        return False  # too short to tell from a name by its letters: "bex", "jay", "kat" (shorthand is listed)
    counts, letters = english_counts(), "abcdefghijklmnopqrstuvwxyz"
    if counts.get(word, 0) >= _PLAIN_NEAR:
        return False  # a word of its own ("grace"), which the callers weigh themselves
    near = {word[:i] + c + word[i + 1:] for i in range(len(word)) for c in letters} | {  # a letter mistyped
        word[:i] + c + word[i:] for i in range(len(word) + 1) for c in letters}  # a letter left out
    return any(counts.get(w, 0) >= _PLAIN_NEAR for w in near - {word})


#: How often (the English word list's count) a word one letter from a lowercase name must be for the name to be
#: read as its misspelling ("alredy" of "already"); names one letter from a rare word ("maarten", "marten") stand.
_PLAIN_NEAR = 3000


#: Chat shorthand of four letters or more, no one's name: "my brother obvs works at google".
_SHORTHAND = frozenset("""
obvs obvi probs prob defo deffo tbf tbh ngl nvm smh bruh yall yaaa yass lowkey highkey srsly rlly legit
basically lit omfg lmfao rofl ikr idek tmrw tmr tomo thnx thanx pls plz plss istg fyi btwn bday hmmm
aswell alot abit incase atleast infact ofcourse everytime eachother nvr tho dey
""".split())


#: Adverbs without -ly that come between a relative and the verb: "my brother almost moved".
_ADVERBS = frozenset("almost often sometimes seldom somehow anyway already maybe perhaps".split())
#: Endings of English nouns that no given name has: "my roommate situation", "my mum's appointment".
_NOUN_ENDS = re.compile(r"(?:tion|sion|ment|ness|ship|ism|ology|ful)$")


def _name_at(rest: str, *, strict: bool) -> str | None:
    """The name opening ``rest``: a capitalised name (with a surname), or a lowercase word that is
    no common word and is followed as a name is."""
    m = re.match(rf"\s+([{UPPER}{CASELESS}](?:[^\W\d_]|[{MARKS}'’-])+(?:\s+[{UPPER}](?:[^\W\d_]|[{MARKS}'’-])+)?)",
                 rest)
    if m and not re.fullmatch(r"[A-Z]+", m.group(1)):
        name = re.sub(rf"{_A}s$", "", m.group(1))
        parts = name.split()
        if len(parts) == 2 and not _name(parts[1]):
            name = parts[0]
        return name if _name(name) else None
    if strict:
        return None
    m = re.match(r"\s+([a-z][a-z'’-]+)", rest)
    if not m:
        return None
    word = m.group(1)
    base = re.sub(rf"{_A}s$", "", word)
    if not _lowercase_name(base) or ((base.endswith("ly") or base in _ADVERBS) and plain_english(base)
                                     and not is_known_name(base)):
        return None  # "my brother almost moved", "… supposedly …": an adverb, no name (a reviewer's; "grace" is one)
    after = rest[m.end():] if base == word else "'s"
    if base == word and plain_english(base) and not is_known_name(base):
        return base if _VERB_AFTER_NAME.match(after) else None  # "my sister grace lives in leeds"; not "my mother
        # fell" (b63), "tell your mom congratulations from the turkish girl" (b31): a word of English, no name
    return base if _AFTER_NAME.match(after) or base != word else None


#: What one calls a parent or a grandparent to their face, and the relation it names (not "ma", "da", "pa": words of
#: other languages and of anyone; not "sis", "bro": said to friends as often).
_TO_FACE = {**{w: "mother" for w in ("mum", "mom", "mam", "mammy", "mummy", "mommy", "momma", "mamá", "maman", "amma",
                                     "ammi")},
           **{w: "father" for w in ("dad", "papa", "papá", "abba", "abbu")},
           **{w: "grandmother" for w in ("nana", "nanna", "gran", "granny", "grandma", "nani", "dadi")},
           **{w: "grandfather" for w in ("grandpa", "grandad", "granddad", "gramps")}}
_TO_FACE_WORD = "|".join(sorted(_TO_FACE, key=len, reverse=True))
#: The word said to the other, after a greeting or thanks that opens the message, and nothing but marks after it ("Hi
#: Mam it's Darragh", "love you mum xx", "thanks dad!"); not "hi mum's friend", "thanks mum and dad" (both, or
#: someone's), "happy birthday amma stína" (to another, named after it), "sorry, grandad" (a word put right: h12), nor
#: a list ("vanna, vania, mom, mama").
_ADDRESSED = re.compile(
    rf"(?i)^\W*(?:hi|hey|hiya|hello|morning|good\s+morning|night|goodnight|night\s+night|love\s+you|luv\s+u|love\s+u|"
    rf"thanks|thank\s+you|thank\s+u|ty|miss\s+you|miss\s+u|happy\s+birthday)\s*,?\s+(?P<word>{_TO_FACE_WORD})"
    rf"(?=\s*(?:[^\w\s'’]|xx*\b|it['’]?s\b|$))")


#: A word said in jest, to a partner, or as someone else's: "thanks mum 🙄", "Thanks Dad! 😂", "thanks mum (jk)",
#: "love you mum xx (said Tom)", "Thanks Dad, love Tom" (an attacker's; "mama" and "daddy" are left out for partners).
_TEASED = re.compile(r"[🙄😂🤣😘😏😜😉💋]|\b(?:jk|lol|lmao|haha\w*|kidding|joking|said|says|from|"
                     r"love\s+(?-i:[A-Z])\w+)\b|\bi\s+mean\b|[-–]\s*(?-i:[A-Z])\w+\s*$", re.IGNORECASE)


#: What opens a relation word said to the one spoken to: "proud of you my daughter", "thank you, my son", "well done
#: my dear daughter!!", "you are our son now".
_TO_YOU = re.compile(r"(?i)(?:\b(?:thank|love|miss|bless|luv|proud\s+of|see)\s+(?:you|u|ya)|\bwell\s+done|\bcongrat\w*|"
                     r"\bthanks|\bwelcome|\b(?:you|u)\s+are|\byou['’]re|\bur)\s*,?\s*$")


def addressed_as(message: str, speaker: str, other: str | None) -> list[tuple[str, str, str]]:
    """The relation the speaker names by calling the other person of a two-person chat a parent's or grandparent's
    word (:data:`_ADDRESSED`): ("Siobhán", "mother_of", "Darragh") for Darragh's "Hi Mam it's Darragh" to Siobhán (a new
    user's); none where no other person is known, or the words tease (:data:`_TEASED`). The caller proposes it for
    review: a mother is called so to her face, and so, in jest, is anyone."""
    if other is None or other.casefold() == speaker.casefold() or _TEASED.search(message):
        return []
    said = _ADDRESSED.match(message)
    return [] if said is None else [(other, predicate_of(_TO_FACE[said["word"].lower()]), speaker)]
