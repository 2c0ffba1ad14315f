"""Reading a chat for ``alias suggest``: its words, and which of them are names.

The first part of the evidence :mod:`graphmem.core.alias_evidence` describes, **which words are
names**: words used where names go (the subject of "says", after "how's" or "hey", beside "and",
after a title or relation word), never a word the chat puts after "the" or "my" a third of the
time ("my life", "the court"); where a writer capitalises names, a word they write in lower case
is not one and a word they capitalise is; accents folded. Also here: the word lists the rules
share, the nickname data, and the names the chat spells out (full names, titles, initials,
places and organisations, acronyms' spell-outs), each with where it is said (``Chat``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from .names import unaccented
from .places import is_place

__all__ = ["AFTER_TITLES", "CLOSING", "CONNECTORS", "EUROPEAN_TITLES", "FUNCTION", "GRANDPARENT_TITLES", "HEADS",
           "PLACE_PREPOSITIONS", "RELATION_WORDS", "SAYING", "TITLES", "TITLES_TOO", "Chat", "Message", "name_key",
           "nickname_table", "read_chat", "unstretched"]


@dataclass(frozen=True)
class Message:
    """One message: its episode id, who said it, and its text."""

    id: str
    speaker: str | None
    text: str


# -- words -----------------------------------------------------------------------------------

#: Words that are never a name on their own: function words, auxiliaries, the commonest verbs,
#: adverbs and texting shorthand (lower case).
FUNCTION = frozenset("""
a about above after again against all almost also although always am an and another any anyone anything
anyway are aren't around as at away back bc be because been before being below between both but by can
can't cannot could couldn't did didn't do does doesn't doing don't done down during each either else
enough even ever every everyone everything everywhere few for from further get gets getting got gotta
gonna had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
himself his how how's however i i'd i'll i'm i've if in into is isn't it it's its itself just least
less let let's like many may maybe me might mine more most much must my myself neither never no nobody
none nor not nothing now of off often oh ok okay on once one only or other others our ours ourselves out
over own per please pls quite rather really same shall she she'd she'll she's should shouldn't since so
some somebody someone something sometimes soon still such than that that's the their theirs them
themselves then there there's these they they'd they'll they're they've thing things this those though
through thru till to too toward towards under until up upon us very via was well wasn't we we'd we'll we're
we've were weren't what what's whatever when where where's whether which while who who's whoever whole
dont cant wont didnt doesnt isnt wasnt arent havent hasnt couldnt wouldnt shouldnt im ive youre thats near
shes hes theyre whats wheres theres weve youve theyve youll theyll itll thatll hows whos aint wouldve couldve
whom whose why will with within without won't would wouldn't yeah yes yet you you'd you'll you're anymore tho
lately
you've your yours yourself yourselves
said says say saying told tell tells telling made make makes making came come comes coming went go goes
going gone took take takes taking gave give gives giving got get knew know knows thought think thinks
saw see sees seen seeing left leave leaves found find finds felt feel feels kept keep keeps put puts
ran run runs sent send sends met meet meets lost lose loses won win wins bought buy buys brought bring
brings began begin begins heard hear hears held hold holds stood stand read wrote write writes sat sit
told asked ask asks called call calls want wants wanted need needs needed love loves loved hate hates
like likes liked work works worked miss misses missed guess hope hopes let lets moved move moves
lol omg btw tbh idk imo irl brb ttyl fyi asap dm pm am rn ngl smh lmao lmfao rofl haha hahaha hehe ugh
ha hah heh tbd tba lmk wfh eta
hola ciao salut bonjour hallo las los
hmm wow yay nah yep nope ooh aw aww oops ah eh um uh hey hi hello bye thanks thank sorry congrats wait ay aye ayy
everybody anybody finally actually basically literally honestly seriously obviously probably definitely totally
already anyways
today tonight tomorrow yesterday week weeks month months year years day days time times morning night
new old big little good bad great best better worse worst last next first second third real sure right
man men guy guys kid kids bet car cat dog bed bus job lot bit way end top fun run set sit eat ate cry try
win pay bad sad mad hot cold home house room door work school shop park city town road street
name names
january february march july september october november december
monday tuesday wednesday thursday friday saturday sunday
mondays tuesdays wednesdays thursdays fridays saturdays sundays weekend weekends
christmas xmas easter halloween thanksgiving
""".split())  # months that are no one's given name ("in March", "for March"), as weekdays and holidays
#: Laughter typed any length, in the ways of many languages: "ahahahah", "hehehe", "jajaja", "kkkkk", "xaxa".
_LAUGH = re.compile(r"a?(?:ha|he|hi|ja|je|ka|xa|ah|eh){2,}h?|k{3,}|l+o+l+|lmf?a+o+|rofl")

#: Titles of other languages that go before a surname, as "mrs" does, and "reverend" (written without accents, as
#: names are compared: "señora" is "senora"). Not words of everyday English ("ammo", "rev", "hajj", "imam",
#: "pastor"), nor names ("dona" is Donna's, "sheikh", "mallam").
EUROPEAN_TITLES = frozenset("""monsieur madame mme mlle mademoiselle herr frau senor senora sra srta signor signora
signorina senhor senhora gospodin gospodine gospoda gospodo gospodja reverend""".split())
#: Words that make the next word a name of someone: "auntie sue", "mrs fletcher", "st mary's", "khalti fatima".
TITLES = frozenset("""
auntie aunt aunty uncle mrs mr ms mx dr prof sir dame st saint fr tia tio tita tito kuya manang manong grandma
grandpa granny grandad granddad khalti khala khalto amto hajja haji hajji alhaji ustaz ustadh mzee bwana
""".split()) | EUROPEAN_TITLES
#: Words for a grandparent, of other languages, before a first name: "nonno turi", "vovó nilda", "jeddo boutros".
#: Grandchildren are named for them ("little boutros"), so the name alone is only weakly the same person.
GRANDPARENT_TITLES = frozenset("""
ouma oupa oma nonna nonno abuela abuelo abuelita abuelito vovo yiayia giagia pappou papou baka deda babcia
dziadek tatik papik bebia babuli tutu koro bubu sitti sitto jeddo jiddo afi babu bibi
""".split())
#: Titles and family words of other languages before a first name ("doña gunay", "seu rafa", "tante rima", "oom
#: gerrit", "teta vera", "paron hovsep", "lopen kinley", "khun malee", "mang junior", the grandparents' words), each
#: a name or a word alone as well ("bibi" of Bibiana, "zia" of Ziaur, "dona" of Donatella): a title only before a
#: name. Not "don", "lola", "anna", "ate", "ming", "pan", "amo" ("te amo"), "oga" ("oga don vex"), "aum" (a chant).
TITLES_TOO = frozenset("""
dona seu tante tantie tonton oom tannie onkel zia zio thia theia kyria kyrios teta tetka cika paron tikin batono
kalbatono lopen dasho ibu bapak encik puan makcik pakcik khun whaea mang aling alhaja
""".split()) | GRANDPARENT_TITLES

#: Words after a name that make it someone's, the title said after it (as keys: accents dropped): "riti aunty",
#: "sabina didi", "erzsi néni", "laci bácsi", "fatma teyze", "kenji san", "rohan sir" (not "chan", as often a surname).
AFTER_TITLES = frozenset("""
aunty auntie didi ji bhai bhaiya bacsi neni teyze abla amca hanim bey san kun sama sensei sir madam
agha khanum khanom muellim muallim xanim garu akka chechi chettan eje ustoz
""".split())  # (the second line: "reza agha", "fikrət müəllim", "lakshmi garu", "priya akka", "nurlan eje")

#: Letters that are words on their own ("i", "a", "u" for you): no one's initial.
_LETTER_WORDS = frozenset("a i u o x y".split())

#: Words after which a name is a place: "in porto", "from madrid".
PLACE_PREPOSITIONS = frozenset("in from to at near visit visiting leaving".split())

#: Words before a noun that make it a common noun, not a name ("the bank", "a barista").
_DETERMINERS = frozenset("a an the this these those some any every each another".split())

#: Possessive pronouns: like a determiner, they mark a common noun ("my life", "her name").
_POSSESSIVES = frozenset("my your his her our their its".split())

#: Verbs whose subject is a person: "rory says", "mieke texted".
SAYING = frozenset("""
says said asks asked tells told texts texted rang rings phoned messaged replied replies calls called laughed
cried thinks thought knows knew loves loved hates hated misses missed wants wanted sends sent
""".split())

#: Words that stand beside names as often as beside other words: "leo and sofi", "tell sofi", "love edi".
_BESIDE_NAMES = frozenset("and with tell has is was goodbye love loves miss misses".split())
#: Words one calls anyone ("calls me mate", "a patient called me duck"): no name of theirs, said alone ("Nurse
#: Ratched" is one).
ADDRESS_WORDS = frozenset("""
mate mates buddy bud dude bro sis man love luv hun honey sweetie sweetheart darling dear babe baby
sir madam ma'am ma’am pal doctor nurse teacher professor miss duck pet hen chuck lass lad
""".split())
#: The forms of "call" that give a name after "him", "her" or "me": "everyone calls him rory", "he calls me dato".
CALLING = frozenset("call calls called calling".split())
#: Quotation marks, which may stand between "calls me" and the name.
QUOTES = "\"'“”„«»‘’"

#: Words that open a message spoken to someone by name: "hey cal", "hi ol" (not "oh": "oh well", "oh god").
_GREETINGS = frozenset("hey hi hello dear morning night bye thanks".split())

#: Words joining the words of an organisation's or place's name, skipped by acronyms.
CONNECTORS = frozenset("of for the and de la du des del di da".split())

#: Head nouns that end a place's or organisation's name: "oakwood house", "didsbury road primary".
HEADS = frozenset("""
road street lane avenue house hall primary school academy college university uni hospital clinic
centre center museum park station rail bank club church library gallery theatre theater airport
""".split())

#: Relation words as chats say them, and the relation each is (``core/relations.py``'s words).
RELATION_WORDS = {
    "mum": "mother", "mom": "mother", "mother": "mother", "mama": "mother", "ma": "mother", "mamma": "mother",
    "mam": "mother", "mammy": "mother", "momma": "mother", "mommy": "mother", "mummy": "mother",
    "dad": "father", "father": "father", "papa": "father", "pappa": "father", "daddy": "father",
    "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "husband": "husband", "wife": "wife", "partner": "partner", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "fiance": "boyfriend", "fiancee": "girlfriend", "ex": "ex",
    "bf": "boyfriend", "gf": "girlfriend", "hubby": "husband", "wifey": "wife",
    "son": "son", "daughter": "daughter", "cousin": "cousin", "niece": "niece", "nephew": "nephew",
    "aunt": "aunt", "auntie": "aunt", "uncle": "uncle", "boss": "boss", "manager": "boss",
    "roommate": "roommate", "flatmate": "roommate", "neighbour": "neighbour", "neighbor": "neighbour",
    "coworker": "coworker", "colleague": "coworker", "friend": "friend",
    "grandmother": "grandmother", "grandma": "grandmother", "gran": "grandmother", "nana": "grandmother",
    "grandfather": "grandfather", "grandpa": "grandfather",
}
#: Grandparents' relation words that chats use as names ("gran's 90th", "nana out-danced everyone").
_GRAND_NAMES = frozenset("gran nana nan nanna granny grandma grandpa grandad granddad".split())
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*\.?|[^\w\s]", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_CALLED_THEM = re.compile(r"\bcall(?:s|ed|ing)?\s+(?:him|her|them)\s*")  # before a quoted name
_DOTTED = frozenset("st mr mrs ms dr fr".split())  # titles written with a dot: "st. mary's"
CLOSING = frozenset(("$", ".", ",", "!", "?"))  # what may follow a name someone is called by


@dataclass(frozen=True)
class _Token:
    text: str  # as written, a title's dot removed
    key: str  # lower case, a possessive removed
    whole: str  # lower case, a possessive kept ("mary's" of "st mary's")
    message: int
    index: int
    end: str  # the punctuation right after it ("" for a word), "$" at the end of the message
    quoted: bool = False  # inside quotation marks: someone else's words ("David says, "Hattie, ..."")


#: A double quote right after a digit is an inch mark (6'2"), not a quotation's start.
_INCHES = re.compile(r'(?<=\d)"')
#: Quotation marks: those that open one, and for each closing mark the openers it closes
#: (English “…” and "…", German „…“, French «…»: “ closes only what „ opened).
_OPENS = frozenset(('"', "“", "„", "«"))
_CLOSES = {'"': '"', "”": "“\"", "“": "„", "»": "«"}


#: A name said of several people: "the Okafors", "two Mrs McCanns", "both Mr Joneses" (its word the group).
_FAMILY = re.compile(r"(?i)\b(?:the|two|both|all\s+the)\s+(?:(?:mr|mrs|ms|miss|mister)\.?\s+)?([^\W\d_][\w'’-]*)")
#: The months, whose names are given names too ("june", "april", "august"; "may" a verb besides).
MONTHS = frozenset("january february march april may june july august september october november december".split())
#: Words before a month that say it is one: "in june", "since august", "last may" ("from", "by", "this" do not: "a card
#: from August", "this may be").
_BEFORE_MONTH = frozenset("in since until till last next early mid late during".split())
#: Words before "of" that make a month of what follows: "end of june".
_PART_OF = frozenset("end start beginning middle".split())
_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")
_YEAR = re.compile(r"\d{4}")


def _tokens(number: int, text: str) -> list[_Token]:
    # composed first: "Zoe" and a combining diaeresis is "Zoë", one word, as the store keys it (not "Zoe" and a mark)
    raw = _WORD.findall(_INCHES.sub("″", unicodedata.normalize("NFC", text)))
    found: list[_Token] = []
    opened = ""  # the mark that opened the quotation we are in ("" outside one)
    for i, word in enumerate(raw):
        if not word[0].isalnum():
            if opened and opened in _CLOSES.get(word, ""):
                opened = ""
            elif word in _OPENS:
                opened = word
            continue
        after = raw[i + 1] if i + 1 < len(raw) else "$"
        clean = word[:-1] if word.endswith(".") and word[:-1].lower() not in _DOTTED else word
        end = "." if clean != word else (after if not after[0].isalnum() else "")
        lower = unaccented(clean).rstrip(".")
        found.append(_Token(clean, _POSSESSIVE.sub("", lower), lower.replace("’", "'"),
                            number, len(found), end, bool(opened)))
    return found


def _joined(words: Sequence[_Token]) -> str:
    """The key of a name of several words: a possessive kept inside ("children's hospital") and
    dropped at the end."""
    return " ".join([w.whole for w in words[:-1]] + [words[-1].key])


def name_key(name: str) -> str:
    """A name compared: lower case without accents, dots and a final possessive dropped, spaces
    collapsed."""
    return " ".join(_POSSESSIVE.sub("", w) for w in unaccented(name).replace(".", " ").split())


@cache
def nickname_table() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Each name's nicknames and canonical names (both ways), and every name the data knows."""
    from nicknames import NickNamer

    namer = NickNamer()
    related: dict[str, set[str]] = defaultdict(set)
    for canonical, nicks in namer.nickname_lookup.items():
        for nick in nicks:
            related[canonical].add(nick)
            related[nick].add(canonical)
    return {k: frozenset(v) for k, v in related.items()}, frozenset(related)


#: How many times in the English word list's count (pyspellchecker's, from film subtitles) a word must be seen to be
#: a plain word of English: "book" 176,720, "cried" 23,307, "curry" 4,199; "deinze", "mele", "isla" never.
_PLAIN_ENGLISH = 3000


@cache
def english_counts() -> dict[str, int]:
    """Each English word (lower case) and how often the pyspellchecker list saw it (MIT; loaded once, ~0.15 s)."""
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1).word_frequency.dictionary


def plain_english(word: str) -> bool:
    """Whether ``word`` (lower case) is a plain word of English (:data:`_PLAIN_ENGLISH`): "luck", "stuff"; not
    "kautokeino", "orłowo"."""
    return english_counts().get(word, 0) >= _PLAIN_ENGLISH


@lru_cache(maxsize=1 << 16)
def unstretched(word: str) -> str:
    """A stretched word back to its letters: ``rosaaa`` -> ``rosa`` (kept for the names of a store, each asked
    of once per pair it is in)."""
    return re.sub(r"(.)\1{2,}", r"\1", word)


# -- the chat read once ----------------------------------------------------------------------


@dataclass
class Chat:
    messages: Sequence[Message]
    tokens: list[list[_Token]]
    speakers: dict[str, str]  # speaker key -> as written
    mentions: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)  # key -> (message, start, stop)
    surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    sure: set[str] = field(default_factory=set)  # words the chat plainly uses as names
    named: set[str] = field(default_factory=set)  # words the chat uses where names go, never as a common noun
    acronyms: set[str] = field(default_factory=set)  # short names written as acronyms
    capitalisers: set[str] = field(default_factory=set)  # speakers who write names with a capital
    known: set[str] = field(default_factory=set)  # the store's entity names and the speakers (their keys)
    order: dict[str, int] = field(default_factory=dict)  # episode id -> its place in the chat
    _held: dict[str, tuple[list[tuple[int, int, int]], set[tuple[int, int, int]]]] = field(
        default_factory=dict, repr=False)  # key -> (its mentions' list, the same as a set): add in O(1)

    def add(self, key: str, message: int, start: int, stop: int, text: str) -> None:
        spots = self.mentions.setdefault(key, [])
        held = self._held.get(key)
        if held is None or held[0] is not spots:  # a name dropped and added again: a new list
            held = self._held[key] = (spots, set(spots))
        if (message, start, stop) not in held[1]:
            held[1].add((message, start, stop))
            spots.append((message, start, stop))
        self.surface[key][text] += 1

    def speaker(self, message: int) -> str | None:
        who = self.messages[message].speaker
        return unaccented(who) if who else None

    def in_order(self, ids: Iterable[str]) -> list[str]:
        """Episode ids in the order of the messages."""
        return sorted(ids, key=lambda e: (self.order.get(e, len(self.order)), e))

    @cached_property
    def outside_names(self) -> Counter[str]:
        """How often each word (its key) stands where no name of two words or more covers it: "happy" of
        "tess happy" counted where "happy" stands alone, never the "walsh" of "brendan walsh". Read once
        the names are all found."""
        covered = {(m, i) for key, spots in self.mentions.items() if " " in key for m, start, stop in spots
                   for i in range(start, stop)}
        return Counter(t.key for tokens in self.tokens for t in tokens if (t.message, t.index) not in covered)

    @cached_property
    def plain_words(self) -> set[str]:
        """Names of one word that are plain English words: seen at least :data:`_PLAIN_ENGLISH` times in the
        English list, never written with a capital past a message's first word, known to no name data, no
        speaker's and no acronym of the chat: "book", "cried", "news", "marry" (not "mark", "vic", "Curry" written
        so, "Hope" who speaks). Read once the names are all found."""
        counts, (_, names) = english_counts(), nickname_table()
        capitalised = {t.key for ts in self.tokens for t in ts if t.index > 0 and t.text[:1].isupper()}
        return {key for key in self.mentions if " " not in key and counts.get(key, 0) >= _PLAIN_ENGLISH
                and key not in names and key not in self.speakers and key not in capitalised
                and key not in self.acronyms}

    @cached_property
    def months(self) -> set[str]:
        """The months the chat says as months ("in june", "june 5th", "3 august", "june 2024"): such a word is no one's
        name by its letters ("june" of "junior", "august" of "gus"), though "june" may be someone's elsewhere."""
        found = set()
        for ts in self.tokens:
            for j, t in enumerate(ts):
                if t.key not in MONTHS:
                    continue
                prev = ts[j - 1] if j and not ts[j - 1].end else None
                nxt = ts[j + 1] if j + 1 < len(ts) and not t.end else None
                after = ts[j + 2] if nxt is not None and not nxt.end and j + 2 < len(ts) else None
                day = ts[j - 2].key if j > 1 else ""  # "the 5th of june", "the 5 of june"; not "2 of june's kids"
                part = prev is not None and prev.key == "of" and j > 1 and (day in _PART_OF or (
                    _DAY.fullmatch(day) is not None and (not day.isdigit() or (j > 2 and ts[j - 3].key == "the"))))
                if (prev is not None and (prev.key in _BEFORE_MONTH or part or _DAY.fullmatch(prev.key))) or (
                        nxt is not None and (_YEAR.fullmatch(nxt.key) or (_DAY.fullmatch(nxt.key) and (
                            not nxt.key.isdigit() or after is None or after.key in ("at", "and", "to"))))):
                    found.add(t.key)  # "june 5th", "june 5", "june 5 at 3"; not "I owe August 2 beers"
        return found

    @cached_property
    def written(self) -> dict[str, list[tuple[str, str | None]]]:
        """Each word's key and every time it is written: as written, and by whom (lower-case words too, which
        :attr:`surface` keeps only where they are names). Read once, when first asked."""
        found: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
        for ts in self.tokens:
            for t in ts:
                found[t.key].append((t.text, self.speaker(t.message)))
        return dict(found)

    @cached_property
    def families(self) -> set[str]:
        """The words the chat says as a family, several people of one name: "the Okafors", "two Mrs McCanns", "both
        Mr Joneses" (each word's key)."""
        return {name_key(m.group(1)) for message in self.messages for m in _FAMILY.finditer(message.text)}

    def others(self, message: int) -> list[str]:
        """The speakers of the chat other than this message's: whom "you" means."""
        me = self.speaker(message)
        return [s for s in self.speakers if s != me]


def read_chat(messages: Sequence[Message], known: Iterable[str]) -> Chat:
    tokens = [_tokens(i, m.text) for i, m in enumerate(messages)]
    speakers = {unaccented(m.speaker): m.speaker for m in messages if m.speaker}
    chat = Chat(messages, tokens, speakers, order={m.id: i for i, m in enumerate(messages)})
    counts: Counter[str] = Counter(t.key for ts in tokens for t in ts)
    after_determiner: Counter[str] = Counter(
        t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if prev.key in _DETERMINERS)
    # a word the chat puts after "the" or "my" a third of the time is a common noun ("my life", "the court")
    determined: Counter[str] = Counter(
        t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if prev.key in _DETERMINERS | _POSSESSIVES)
    nick_related, nick_names = nickname_table()
    surfaces: dict[str, set[str]] = defaultdict(set)
    for ts in tokens:
        for t in ts:
            if "-" in t.key:
                surfaces[t.key].update(t.text.split("-"))

    def common_noun(key: str) -> bool:
        return determined[key] * 3 >= counts[key] > 0

    def verb_form(key: str) -> bool:
        return len(key) > 5 and key.endswith(("ed", "ing"))

    def name_like(key: str) -> bool:
        if "-" in key:  # "jean-philippe", "hydro-québec"; not "part-time" or "x-ray"
            parts = key.split("-")
            if not all(p.isalpha() and len(p) > 1 and p not in FUNCTION for p in parts):
                return False
            return any(p in nick_names or p[:1].isupper() for p in surfaces[key] | set(parts)) or all(
                counts[p] and not common_noun(p) for p in parts)
        if key in FUNCTION or key in TITLES or verb_form(key) or len(key) < 2 or not key.isalpha() or _LAUGH.fullmatch(
                key):
            return False
        if key in RELATION_WORDS and key not in _GRAND_NAMES:
            return False  # "my mum" is a relation, not a name; "gran" and "nana" are both
        return after_determiner[key] * 2 < counts[key]

    known_keys = chat.known = {name_key(k) for k in known} | set(speakers)
    given = {n for n in nick_names if not common_noun(n)} | set(speakers)
    capitalisers = chat.capitalisers = _capitalisers(chat, given)

    capitalised = {t.key for ts in tokens for t in ts if t.text[:1].isupper()}

    def lowered(message: int, token: _Token) -> bool:
        """A word in lower case from a writer who capitalises names: not a name there (opening a
        message, only when the chat never writes it with a capital)."""
        return chat.speaker(message) in capitalisers and token.text[:1].islower() and token.key not in known_keys \
            and (token.index > 0 or token.key not in capitalised)

    sure = set(given) | known_keys | {
        t.key for ts in tokens for prev, t in zip(ts, ts[1:])
        if not prev.end and (prev.key in PLACE_PREPOSITIONS or prev.key in RELATION_WORDS or prev.key in TITLES
                             or prev.key in TITLES_TOO)}
    sure |= {t.key for m, ts in enumerate(tokens) if chat.speaker(m) in capitalisers for t in ts[1:]
             if t.text[:1].isupper() and not t.text.isupper() and t.key not in FUNCTION and t.key not in TITLES}
    sure |= {key for key in _in_name_slots(tokens) if name_like(key) and not common_noun(key)}
    # a word given as someone's name is a first name, whatever the nickname data knows: "his name is hemi"
    introduced = {t.key for ts in tokens for a, b, t in zip(ts, ts[1:], ts[2:])
                  if not a.end and not b.end and a.key == "name" and b.key == "is" and name_like(t.key)}
    introduced |= {t.key for ts in tokens for a, t in zip(ts, ts[1:])
                   if not a.end and a.whole in ("name's", "called", "named") and name_like(t.key)}
    named = sure | {key for key in _in_name_slots(tokens, loosely=True) if name_like(key) and not common_noun(key)}
    firsts = given | introduced
    # a word after a subject pronoun is a verb, never a surname: "who drove him in", so not "nikau drove"
    verbs = {t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if not prev.end and prev.key in _SUBJECTS}
    modified = {t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if prev.key in _MODIFIERS}
    bigram_ends: dict[tuple[str, str], set[str]] = defaultdict(set)
    for ts in tokens:
        for t, u in zip(ts, ts[1:]):
            if not t.end:
                bigram_ends[(t.key, u.key)].add(u.end or "")
    for i, ts in enumerate(tokens):
        after = [ts[j + 1].key if j + 1 < len(ts) else "" for j in range(len(ts))]
        for j, t in enumerate(ts):
            if lowered(i, t):
                continue
            if name_like(t.key) or t.key in known_keys:
                chat.add(t.key, i, j, j + 1, _POSSESSIVE.sub("", t.text))
            nxt = ts[j + 1] if j + 1 < len(ts) else None
            if nxt is None or t.end or t.key != t.whole:
                continue  # a name's possessive ends it: "tom's paella"
            if len(nxt.key) == 1 and nxt.key.isalpha() and nxt.key not in _LETTER_WORDS and (
                    t.key in TITLES or t.key in named) and not (j + 2 < len(ts) and not nxt.end and (
                    ts[j + 2].key == "and" or ts[j + 2].key in sure)):  # not "galway v mayo"
                chat.add(f"{t.key} {nxt.key}", i, j, j + 2, f"{t.text} {nxt.text}")  # an initial: "dr k", "sophie m"
            elif nxt.key in AFTER_TITLES and (t.key in sure or t.key in named) and name_like(t.key) \
                    and t.key not in TITLES and not (j + 2 < len(ts) and not nxt.end and ts[j + 2].text[:1].isupper()):
                # (not "Its Apple auntie Nora": there the title is Nora's, said before her name)
                chat.add(f"{t.key} {nxt.key}", i, j, j + 2, f"{t.text} {_POSSESSIVE.sub('', nxt.text)}")
                # "sabina didi", "laci bácsi" ("Pista bácsi's wine": the name without its possessive)
            elif (t.key in TITLES or t.key in TITLES_TOO) and name_like(nxt.key) and nxt.key not in SAYING:
                key = f"{t.key} {nxt.whole}" if t.key in ("st", "saint") else f"{t.key} {nxt.key}"
                name = nxt.text if t.key in ("st", "saint") else _POSSESSIVE.sub("", nxt.text)
                chat.add(key, i, j, j + 2, f"{t.text} {name}")  # as written: "doña Günay", not "doña gunay"
            elif (_first_name(t.key, firsts, known_keys, counts) or _written_whole(t, nxt, sure)) \
                    and name_like(t.key) and nxt.key not in modified \
                    and not lowered(i, nxt) \
                    and not common_noun(nxt.key) \
                    and _surname(nxt, bigram_ends[(t.key, nxt.key)], after[j + 1], given, counts, verbs):
                chat.add(f"{t.key} {nxt.key}", i, j, j + 2, f"{t.text} {_POSSESSIVE.sub('', nxt.text)}")
            if name_like(t.key) and nxt.key in HEADS and (t.key in sure or t.text[:1].isupper()):
                stop = j + 2
                while stop < len(ts) and ts[stop - 1].end == "" and ts[stop].key in HEADS:
                    stop += 1
                for k in range(j + 2, stop + 1):
                    words = ts[j:k]
                    chat.add(_joined(words), i, j, k, " ".join(w.text for w in words))
        # where each "called him" ends, found once: a quotation starting there is the name given (looked
        # for before each quotation, the message's start to it: 5,000 quotations took seconds, quadratic);
        # "İ" is the one character lowering to two, and the second of them stands in for it
        lower_text = messages[i].text.replace("\u0130", "\u0307").lower()
        called = {them.end() for them in _CALLED_THEM.finditer(lower_text)}
        for quoted in re.finditer(r"[\"“]([^\"”]{2,40})[\"”]", messages[i].text):
            inner = quoted.group(1).strip()
            if 1 <= len(inner.split()) <= 4 and quoted.start() in called:
                chat.add(name_key(inner), i, -1, -1, inner)
    # run again below on purpose: removing this first pass (before lone words are dropped) changes results
    _acronyms(chat, name_like)
    chat.sure = sure
    chat.named = named
    _shorter_spellings(chat)
    # a single word only ever seen inside a longer name is not a name alone ("patel" of "sam patel")
    inside = _inside_longer(chat)
    for key in [k for k in chat.mentions if " " not in k and k not in known_keys]:
        if all(inside(spot) for spot in chat.mentions[key]):
            del chat.mentions[key]
    for key in known_keys:
        chat.mentions.setdefault(key, [])
    _acronyms(chat, name_like)
    chat.sure = sure
    chat.named = named
    _shorter_spellings(chat)
    return chat


def _in_name_slots(tokens: list[list[_Token]], *, loosely: bool = False) -> set[str]:
    """Words in the places names take: the subject of a verb of saying or feeling ("rory says"),
    after "how's" ("how's mieke"), after a greeting that opens a message ("hey cal"), or a whole
    message on their own ("rory?"). ``loosely``, places many a word takes too: beside "and",
    after "with" or "tell", before "has" or "is", with a possessive ("sofi's")."""
    found: set[str] = set()
    if loosely:
        for ts in tokens:
            for j, t in enumerate(ts):
                prev = ts[j - 1] if j else None
                nxt = ts[j + 1] if j + 1 < len(ts) else None
                if prev is not None and prev.key in _DETERMINERS | _POSSESSIVES:
                    continue
                if (prev is not None and not prev.end and prev.key in _BESIDE_NAMES) or t.whole != t.key or (
                        nxt is not None and not t.end and nxt.key in _BESIDE_NAMES):
                    found.add(t.key)
        return found
    for ts in tokens:
        if len(ts) == 1 and ts[0].end in CLOSING:
            found.add(ts[0].key)
        for j, t in enumerate(ts):
            prev = ts[j - 1] if j else None
            nxt = ts[j + 1] if j + 1 < len(ts) else None
            if nxt is not None and not t.end and nxt.key in SAYING and (prev is None or prev.key not in _DETERMINERS):
                found.add(t.key)
            if prev is not None and not prev.end and (prev.whole in ("how's", "hows") or (
                    j == 1 and prev.key in _GREETINGS)):
                found.add(t.key)
    return found


def _capitalisers(chat: Chat, given: Iterable[str]) -> set[str]:
    """The speakers who write names with a capital: most of the words they use that the
    nickname data knows as given names (or that are a speaker's name), past a message's first
    word, are mostly written with one (counted once a word, so a common word the data also lists
    weighs no more than a name). In their messages a word in lower case is not a name; a chat
    typed all in lower case has none."""
    given = set(given) - FUNCTION
    seen: dict[str, dict[str, Counter[bool]]] = defaultdict(lambda: defaultdict(Counter))
    for m, ts in enumerate(chat.tokens):
        who = chat.speaker(m)
        if who is None:
            continue
        for t in ts[1:]:
            if t.key in given and not t.text.isupper():
                seen[who][t.key][t.text[:1].isupper()] += 1
    found = set()
    for who, words in seen.items():
        capital = sum(1 for n in words.values() if n[True] > n[False])
        if capital >= 5 and capital >= _CAPITALISED_AT_LEAST * len(words):
            found.add(who)
    return found


#: The share of given names a writer capitalises from which lower case means "not a name".
_CAPITALISED_AT_LEAST = 0.75




def _first_name(key: str, given: Iterable[str], known: Iterable[str], used: Iterable[str]) -> bool:
    """Whether a word may open a full name: a first name the nickname data or the store knows, or
    a longer form of one the chat uses ("bethany" of "beth"); never a relation word ("mum han")."""
    if key in RELATION_WORDS or key in TITLES or unstretched(key) != key:
        return False
    return key in given or key in known or any(
        len(g) >= 4 and len(key) > len(g) and g in given and g in used for g in (key[:4], key[:5]))


#: Words before a common noun ("big news", "other news"): a word after one is no surname.
_MODIFIERS = frozenset("other big little less more new old good bad great fun no".split())

#: Endings of abstract nouns, never of a surname: "tell gwen congratulations" names no one.
_NOUN_ENDINGS = ("tion", "tions", "ment", "ments", "ness")

#: Pronouns a verb follows.
_SUBJECTS = frozenset("i you he she we they who it".split())

_AFTER_NAME = frozenset("is was has had being been called said says would will can could".split())


#: Words that end a place's name, not a person's ("Liberty Village", "Vancouver General").
_PLACE_NOUNS = frozenset("""village city town county beach bay island islands valley heights hill hills general
harbour harbor port square mountain mountains lake river falls""".split())
#: Number words, written capitalised at a sentence's start ("Two Chrises").
_NUMBERS = frozenset("two three four five six seven eight nine ten double triple".split())


def _inside_longer(chat: Chat) -> Callable[[tuple[int, int, int]], bool]:
    """Whether a mention lies inside a mention of a longer name of its message: the tokens each
    longer name covers, kept per message (a test against every longer name was quadratic in a
    message of thousands of names). A quoted mention (no tokens) is inside a quoted longer one."""
    covered: dict[int, set[int]] = defaultdict(set)
    quoted: set[int] = set()
    longer = [(m, s, e) for key, spots in chat.mentions.items() if " " in key for m, s, e in spots]
    for m, s, e in longer:
        if s < 0:
            quoted.add(m)
        else:
            covered[m].update(range(s, e))

    def inside(spot: tuple[int, int, int]) -> bool:
        m, s, e = spot
        if s < 0:
            return m in quoted
        if e - s == 1:
            return s in covered[m]
        return any(m == m2 and s2 <= s and e <= e2 for m2, s2, e2 in longer)  # one token each, all but never

    return inside


def _written_whole(first: _Token, second: _Token, sure: set[str]) -> bool:
    """A full name written as one ("Kweku Darko", "Serwaa Owusu"): two capitalised words, the
    first a word the chat plainly uses as a name, neither a known place ("London Ontario", "Abu
    Dhabi") and the second no word of a building's name ("Vancouver General")."""
    return first.key in sure and first.key != second.key and first.key not in _NUMBERS \
        and second.key not in HEADS | _PLACE_NOUNS and not (
        is_place(first.key) or is_place(second.key) or is_place(f"{first.key} {second.key}")) and all(
        w.text[:1].isupper() and not w.text.isupper() for w in (first, second))


def _surname(word: _Token, ends: set[str], following: str, given: frozenset[str] | set[str],
             counts: Counter[str], verbs: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether ``word`` after a first name is a surname: not a common word or a first name, and
    the two words stand as a name somewhere: before punctuation or a verb ("sam patel.", "dan
    whitaker has"), or the word is a name alone elsewhere too ("keller")."""
    key = word.key
    if key in FUNCTION or key in given or key in verbs or key in SAYING or not key.isalpha() or len(key) < 3 \
            or key.endswith("ly") or (
            len(key) > 5 and key.endswith(("ed", "ing") + _NOUN_ENDINGS)):
        return False
    if word.text.isupper() and len(word.text) > 1:  # shouted: "DAN QUIT"
        return bool(ends - {""}) and counts[key] > 1
    return bool(ends - {""}) or following in _AFTER_NAME or counts[key] >= 3


def _shorter_spellings(chat: Chat) -> None:
    """The first words of a long name used on their own ("children's hospital" of "children's
    hospital of philadelphia")."""
    for name in [k for k in chat.mentions if len(k.split()) >= 3]:
        words = name.split()
        for i, ts in enumerate(chat.tokens):
            for j in range(len(ts) - 1):
                k = j
                while k < len(ts) and k - j < len(words) and words[k - j] in (ts[k].key, ts[k].whole):
                    k += 1
                if 2 <= k - j < len(words):
                    found = ts[j:k]
                    chat.add(_joined(found), i, j, k, " ".join(w.text for w in found))


def _written_as_a_name(chat: Chat, key: str) -> bool:
    """Whether a word is written with a capital and small letters inside a sentence somewhere ("ok Amu, says hi"), not
    only where a phone puts the capital ("Ucd is miles away", opening a message or a sentence)."""
    for m, start, stop in chat.mentions.get(key, ()):
        ts = chat.tokens[m]
        if stop == start + 1 and 0 < start < len(ts) and ts[start].text.istitle() and len(ts[start].text) > 1 \
                and ts[start - 1].end not in (".", "!", "?", "$"):
            return True
    return False


def _acronyms(chat: Chat, name_like: Callable[[str], bool]) -> None:
    """Spell-outs of short names: the words whose initials an acronym is ("tfl": "transport for
    london"), with at most one letter left over ("nyc": "new york"). Two letters are an acronym
    too, but spelt out only by names found otherwise. A word with vowels is one only when written in capitals
    and never as a name is ("AMU!" shouted, "Amu" elsewhere: a name)."""
    shorts = [k for k in list(chat.mentions) if " " not in k and 2 <= len(k) <= 5 and (
        not re.search(r"[aeiou]", k) or (any(s.isupper() and len(s) > 1 for s in chat.surface[k])
                                         and not _written_as_a_name(chat, k) and k not in RELATION_WORDS))]
    # (a relation word shouted is that word: "MAMA!!" is no acronym of "muna ako mag aaral", a new user's)
    chat.acronyms = set(shorts)
    pairs: Counter[tuple[str, str]] | None = None  # each two words in a row, counted once when first asked
    for short in shorts:
        if len(short) < 3:
            continue  # two letters begin too many pairs of words: only a name found otherwise ("jp": "jean-philippe")
        for i, ts in enumerate(chat.tokens):
            for j in range(len(ts)):
                if ts[j].key[0] != short[0] or ts[j].key == short or ts[j].key in CONNECTORS:
                    continue
                letters, k = "", j
                while k < len(ts) and len(letters) < len(short):
                    word = ts[k]
                    if word.key in CONNECTORS and letters and short[len(letters)] != word.key[0]:
                        k += 1
                        continue
                    letters += word.key[0]
                    k += 1
                    if word.end:
                        break
                if k - j < 2 or ts[k - 1].key in CONNECTORS or not name_like(ts[k - 1].key) or any(
                        w.key in FUNCTION and w.key not in CONNECTORS and w.key != "new" for w in ts[j:k]):
                    continue  # "she finally" spells "sf" but is no name ("new" starts many a place's)
                if letters == short or (len(letters) >= 2 and short.startswith(letters)
                                        and len(short) == len(letters) + 1 and ts[k - 1].end != ""):
                    if letters != short:  # a spell-out short of a letter must be a name the chat uses again
                        if pairs is None:  # counted once, not again for each: "NYC. New York. " was quadratic
                            pairs = Counter((a.key, b.key) for ms in chat.tokens for a, b in zip(ms, ms[1:]))
                        if pairs[(ts[j].key, ts[j + 1].key)] < 2:
                            continue
                    words = ts[j:k]
                    chat.add(_joined(words), i, j, k, " ".join(w.text for w in words))
