"""Which names may be one entity: candidate pairs and the evidence for each, from what was said.

``alias suggest`` proposes, it never merges: each pair comes with the reasons a reviewer can
check. The rules are pure functions over messages (text, speaker, id) and the store's entity
names; what counts as evidence:

- **which words are names**: words used where names go (the subject of "says", after "how's"
  or "hey", beside "and", after a title or relation word), never a word the chat puts after
  "the" or "my" a third of the time ("my life", "the court"); where a writer capitalises names,
  a word they write in lower case is not one and a word they capitalise is; accents folded;
- **the names themselves**: a nickname or diminutive of a name (the ``nicknames`` data: Peggy
  and Margaret, Jim and James), a short form of two plain names (Mel of Melanie, Edi of
  Edinburgh, Philly of Philadelphia), a name with and without a surname or a title (Dan and Dan
  Whitaker, Sue and Auntie Sue; a title before a surname only weakly: families share them), a
  name with an initial (Dr K), an acronym or abbreviation (TfL and Transport for London, JP and
  Jean-Philippe, pgh and Pittsburgh), one spelling and another (St Mary's and St. Mary's), a
  stretched greeting (rosaaa);
- **how the chat uses them**: a slip corrected at once ("melany. melanie.") or in the writer's
  next message ("mieka ..." then "mieke sorry"), both names given
  to one person ("the staff call her margaret but ... call her peggy", "the bristol one is
  called marcus"), the same relation word before both ("my cousin lucas", "cousin luke"), a
  short form of a speaker's name used only by the other speaker ("han", "ol").

Precision comes first, so evidence *against* a pair removes it:

- names set against each other in one message ("dan your boss or danny your brother", "kat
  with no h ... kath with an h");
- a name said to be some other relation of the same person ("my boss dan", "my brother
  danny"), and a speaker naming someone else (Hannah writing "sue" is not talking about
  herself; "your mum susan" is not the person addressed);
- a name the chat says stands for two ("two toms", "the other tom", "different sams", "sam from
  work", "my sam", "our shay", "max's sophie" beside a bare "sophie"), and a name slipped for
  another person and corrected ("tell bob hi" / "ROB. tell ROB hi") that is also used
  elsewhere: such a name is no one's alias.

Pairs are then joined greedily, strongest first, into groups that no evidence against splits;
every pair inside a group is suggested (a pair joined only through others says so).

Internal: :mod:`graphmem.read.alias_suggestions` gathers the store's messages and names for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

__all__ = ["Message", "Pair", "candidates", "suggest"]


@dataclass(frozen=True)
class Message:
    """One message: its episode id, who said it, and its text."""

    id: str
    speaker: str | None
    text: str


@dataclass(frozen=True)
class Pair:
    """Two names that may be one entity, the strength of the evidence, why, and where it shows."""

    a: str
    b: str
    score: float
    reasons: tuple[str, ...]
    episodes: tuple[str, ...]


# -- words -----------------------------------------------------------------------------------

#: Words that are never a name on their own: function words, auxiliaries, the commonest verbs,
#: adverbs and texting shorthand (lower case).
_FUNCTION = frozenset("""
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
through thru till to too toward towards under until up upon us very via was wasn't we we'd we'll we're
we've were weren't what what's whatever when where where's whether which while who who's whoever whole
whom whose why will with within without won't would wouldn't yeah yes yet you you'd you'll you're
you've your yours yourself yourselves
said says say saying told tell tells telling made make makes making came come comes coming went go goes
going gone took take takes taking gave give gives giving got get knew know knows thought think thinks
saw see sees seen seeing left leave leaves found find finds felt feel feels kept keep keeps put puts
ran run runs sent send sends met meet meets lost lose loses won win wins bought buy buys brought bring
brings began begin begins heard hear hears held hold holds stood stand read wrote write writes sat sit
told asked ask asks called call calls want wants wanted need needs needed love loves loved hate hates
like likes liked work works worked miss misses missed guess hope hopes let lets moved move moves
lol omg btw tbh idk imo irl brb ttyl fyi asap dm pm am rn ngl smh lmao lmfao rofl haha hahaha hehe ugh
hmm wow yay nah yep nope ooh aw aww oops ah eh um uh hey hi hello bye thanks thank sorry congrats wait
today tonight tomorrow yesterday week weeks month months year years day days time times morning night
new old big little good bad great best better worse worst last next first second third real sure right
man men guy guys kid kids bet car cat dog bed bus job lot bit way end top fun run set sit eat ate cry try
win pay bad sad mad hot cold home house room door work school shop park city town road street
""".split())

#: Words that make the next word a name of someone: "auntie sue", "mrs fletcher", "st mary's".
_TITLES = frozenset("""
auntie aunt aunty uncle mrs mr ms mx dr prof sir dame st saint fr tia tio tita tito grandma
grandpa granny grandad granddad
""".split())

#: Titles that go before a surname, which a family shares: "mr fraser" is not every Fraser.
_SURNAME_TITLES = frozenset("mrs mr ms mx dr prof".split())

#: Letters that are words on their own ("i", "a", "u" for you): no one's initial.
_LETTER_WORDS = frozenset("a i u o x y".split())

#: Words after which a name is a place: "in porto", "from madrid".
_PLACE_PREPOSITIONS = frozenset("in from to at near visit visiting leaving".split())

#: Words before a noun that make it a common noun, not a name ("the bank", "a barista").
_DETERMINERS = frozenset("a an the this these those some any every each another".split())

#: Possessive pronouns: like a determiner, they mark a common noun ("my life", "her name").
_POSSESSIVES = frozenset("my your his her our their its".split())

#: Verbs whose subject is a person: "rory says", "mieke texted".
_SAYING = frozenset("""
says said asks asked tells told texts texted rang rings phoned messaged replied replies calls called laughed
cried thinks thought knows knew loves loved hates hated misses missed wants wanted sends sent
""".split())

#: Words that stand beside names as often as beside other words: "leo and sofi", "tell sofi", "love edi".
_BESIDE_NAMES = frozenset("and with tell has is was goodbye love loves miss misses".split())

#: Words that open a message spoken to someone by name: "hey cal", "oh ol".
_GREETINGS = frozenset("hey hi hello oh dear morning night bye thanks".split())

#: Words joining the words of an organisation's or place's name, skipped by acronyms.
_CONNECTORS = frozenset("of for the and de la du des del di da".split())

#: Head nouns that end a place's or organisation's name: "oakwood house", "didsbury road primary".
_HEADS = frozenset("""
road street lane avenue house hall primary school academy college university uni hospital clinic
centre center museum park station rail bank club church library gallery theatre theater airport
""".split())

#: Relation words as chats say them, and the relation each is (``core/relations.py``'s words).
_RELATION_WORDS = {
    "mum": "mother", "mom": "mother", "mother": "mother", "mama": "mother", "ma": "mother",
    "dad": "father", "father": "father", "papa": "father",
    "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "husband": "husband", "wife": "wife", "partner": "partner", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "fiance": "boyfriend", "fiancee": "girlfriend", "ex": "ex",
    "son": "son", "daughter": "daughter", "cousin": "cousin", "niece": "niece", "nephew": "nephew",
    "aunt": "aunt", "auntie": "aunt", "uncle": "uncle", "boss": "boss", "manager": "boss",
    "roommate": "roommate", "flatmate": "roommate", "neighbour": "neighbour", "neighbor": "neighbour",
    "coworker": "coworker", "colleague": "coworker", "friend": "friend",
    "grandmother": "grandmother", "grandma": "grandmother", "gran": "grandmother", "nana": "grandmother",
    "grandfather": "grandfather", "grandpa": "grandfather",
}
#: Grandparents' relation words that chats use as names ("gran's 90th", "nana out-danced everyone").
_GRAND_NAMES = frozenset("gran nana nan nanna granny grandma grandpa grandad granddad".split())
#: Relation words that may name one person at once (a boyfriend who becomes a husband).
_COMPATIBLE = [frozenset({"boyfriend", "girlfriend", "partner", "husband", "wife", "ex"}),
               frozenset({"friend", "coworker", "roommate", "neighbour"})]

_Pairing = Callable[[str, str], tuple[str, str]]  # two names in the order a pair keeps them
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*\.?|[^\w\s]", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_DOTTED = frozenset("st mr mrs ms dr fr".split())  # titles written with a dot: "st. mary's"
_CLOSING = frozenset(("$", ".", ",", "!", "?"))  # what may follow a name someone is called by


@dataclass(frozen=True)
class _Token:
    text: str  # as written, a title's dot removed
    key: str  # lower case, a possessive removed
    whole: str  # lower case, a possessive kept ("mary's" of "st mary's")
    message: int
    index: int
    end: str  # the punctuation right after it ("" for a word), "$" at the end of the message


def _tokens(number: int, text: str) -> list[_Token]:
    raw = _WORD.findall(text)
    found: list[_Token] = []
    for i, word in enumerate(raw):
        if not word[0].isalnum():
            continue
        after = raw[i + 1] if i + 1 < len(raw) else "$"
        clean = word[:-1] if word.endswith(".") and word[:-1].lower() not in _DOTTED else word
        end = "." if clean != word else (after if not after[0].isalnum() else "")
        lower = _fold(clean).rstrip(".")
        found.append(_Token(clean, _POSSESSIVE.sub("", lower), lower.replace("’", "'"),
                            number, len(found), end))
    return found


def _joined(words: Sequence[_Token]) -> str:
    """The key of a name of several words: a possessive kept inside ("children's hospital") and
    dropped at the end."""
    return " ".join([w.whole for w in words[:-1]] + [words[-1].key])


def _fold(text: str) -> str:
    """Lower case without accents: "Ciarán" and "ciaran" are one spelling to compare."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def _key(name: str) -> str:
    """A name compared: lower case without accents, dots and a final possessive dropped, spaces
    collapsed."""
    return " ".join(_POSSESSIVE.sub("", w) for w in _fold(name).replace(".", " ").split())


@cache
def _nicknames() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Each name's nicknames and canonical names (both ways), and every name the data knows."""
    from nicknames import NickNamer

    namer = NickNamer()
    related: dict[str, set[str]] = defaultdict(set)
    for canonical, nicks in namer.nickname_lookup.items():
        for nick in nicks:
            related[canonical].add(nick)
            related[nick].add(canonical)
    return {k: frozenset(v) for k, v in related.items()}, frozenset(related)


def _diminutive_base(word: str) -> str:
    """``philly`` -> ``phil``, ``robbie`` -> ``rob``, ``danny`` -> ``dan``: a pet form's stem."""
    for ending in ("ie", "y", "ey"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            if stem[-1] in "aeiou":
                return word  # "shay" is no pet form of a "sha-" name
            if len(stem) >= 4 and stem[-1] == stem[-2]:
                stem = stem[:-1]
            if stem.endswith("l") and stem[-2:-1] == "l":
                stem = stem[:-1]
            return stem
    return word


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (short strings)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _stretched(word: str) -> str:
    """A stretched word back to its letters: ``rosaaa`` -> ``rosa``."""
    return re.sub(r"(.)\1{2,}", r"\1", word)


# -- the chat read once ----------------------------------------------------------------------


@dataclass
class _Chat:
    messages: Sequence[Message]
    tokens: list[list[_Token]]
    speakers: dict[str, str]  # speaker key -> as written
    mentions: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)  # key -> (message, start, stop)
    surface: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    sure: set[str] = field(default_factory=set)  # words the chat plainly uses as names
    named: set[str] = field(default_factory=set)  # words the chat uses where names go, never as a common noun
    acronyms: set[str] = field(default_factory=set)  # short names written as acronyms
    order: dict[str, int] = field(default_factory=dict)  # episode id -> its place in the chat

    def add(self, key: str, message: int, start: int, stop: int, text: str) -> None:
        spots = self.mentions.setdefault(key, [])
        if (message, start, stop) not in spots:
            spots.append((message, start, stop))
        self.surface[key][text] += 1

    def speaker(self, message: int) -> str | None:
        who = self.messages[message].speaker
        return _fold(who) if who else None

    def in_order(self, ids: Iterable[str]) -> list[str]:
        """Episode ids in the order of the messages."""
        return sorted(ids, key=lambda e: (self.order.get(e, len(self.order)), e))

    def others(self, message: int) -> list[str]:
        """The speakers of the chat other than this message's: whom "you" means."""
        me = self.speaker(message)
        return [s for s in self.speakers if s != me]


def _read(messages: Sequence[Message], known: Iterable[str]) -> _Chat:
    tokens = [_tokens(i, m.text) for i, m in enumerate(messages)]
    speakers = {_fold(m.speaker): m.speaker for m in messages if m.speaker}
    chat = _Chat(messages, tokens, speakers, order={m.id: i for i, m in enumerate(messages)})
    counts: Counter[str] = Counter(t.key for ts in tokens for t in ts)
    after_determiner: Counter[str] = Counter(
        t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if prev.key in _DETERMINERS)
    # a word the chat puts after "the" or "my" a third of the time is a common noun ("my life", "the court")
    determined: Counter[str] = Counter(
        t.key for ts in tokens for prev, t in zip(ts, ts[1:]) if prev.key in _DETERMINERS | _POSSESSIVES)
    nick_related, nick_names = _nicknames()
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
            if not all(p.isalpha() and len(p) > 1 and p not in _FUNCTION for p in parts):
                return False
            return any(p in nick_names or p[:1].isupper() for p in surfaces[key] | set(parts)) or all(
                counts[p] and not common_noun(p) for p in parts)
        if key in _FUNCTION or key in _TITLES or verb_form(key) or len(key) < 2 or not key.isalpha():
            return False
        if key in _RELATION_WORDS and key not in _GRAND_NAMES:
            return False  # "my mum" is a relation, not a name; "gran" and "nana" are both
        return after_determiner[key] * 2 < counts[key]

    known_keys = {_key(k) for k in known} | set(speakers)
    given = {n for n in nick_names if not common_noun(n)} | set(speakers)
    capitalisers = _capitalisers(chat, given)

    capitalised = {t.key for ts in tokens for t in ts if t.text[:1].isupper()}

    def lowered(message: int, token: _Token) -> bool:
        """A word in lower case from a writer who capitalises names: not a name there (opening a
        message, only when the chat never writes it with a capital)."""
        return chat.speaker(message) in capitalisers and token.text[:1].islower() and token.key not in known_keys \
            and (token.index > 0 or token.key not in capitalised)

    sure = set(given) | known_keys | {
        t.key for ts in tokens for prev, t in zip(ts, ts[1:])
        if not prev.end and (prev.key in _PLACE_PREPOSITIONS or prev.key in _RELATION_WORDS or prev.key in _TITLES)}
    sure |= {t.key for m, ts in enumerate(tokens) if chat.speaker(m) in capitalisers for t in ts[1:]
             if t.text[:1].isupper() and not t.text.isupper() and t.key not in _FUNCTION and t.key not in _TITLES}
    sure |= {key for key in _in_name_slots(tokens) if name_like(key) and not common_noun(key)}
    named = sure | {key for key in _in_name_slots(tokens, loosely=True) if name_like(key) and not common_noun(key)}
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
                    t.key in _TITLES or t.key in named) and not (j + 2 < len(ts) and not nxt.end and (
                    ts[j + 2].key == "and" or ts[j + 2].key in sure)):  # not "galway v mayo"
                chat.add(f"{t.key} {nxt.key}", i, j, j + 2, f"{t.text} {nxt.text}")  # an initial: "dr k", "sophie m"
            elif t.key in _TITLES and name_like(nxt.key):
                key = f"{t.key} {nxt.whole}" if t.key in ("st", "saint") else f"{t.key} {nxt.key}"
                chat.add(key, i, j, j + 2, f"{t.text} {nxt.text if t.key in ('st', 'saint') else nxt.key}")
            elif _first_name(t.key, given, known_keys, counts) and name_like(t.key) and nxt.key not in modified \
                    and not lowered(i, nxt) \
                    and not common_noun(nxt.key) \
                    and _surname(nxt, bigram_ends[(t.key, nxt.key)], after[j + 1], given, counts):
                chat.add(f"{t.key} {nxt.key}", i, j, j + 2, f"{t.text} {_POSSESSIVE.sub('', nxt.text)}")
            if name_like(t.key) and nxt.key in _HEADS and (t.key in sure or t.text[:1].isupper()):
                stop = j + 2
                while stop < len(ts) and ts[stop - 1].end == "" and ts[stop].key in _HEADS:
                    stop += 1
                for k in range(j + 2, stop + 1):
                    words = ts[j:k]
                    chat.add(_joined(words), i, j, k, " ".join(w.text for w in words))
        for quoted in re.finditer(r"[\"“]([^\"”]{2,40})[\"”]", messages[i].text):
            inner = quoted.group(1).strip()
            if 1 <= len(inner.split()) <= 4 and re.search(r"\bcall(?:s|ed|ing)?\s+(?:him|her|them)\s*$",
                                                          messages[i].text[:quoted.start()].lower()):
                chat.add(_key(inner), i, -1, -1, inner)
    _acronyms(chat, name_like)
    chat.sure = sure
    chat.named = named
    _shorter_spellings(chat)
    # a single word only ever seen inside a longer name is not a name alone ("patel" of "sam patel")
    spans = {(m, s, e) for key, spots in chat.mentions.items() if " " in key for m, s, e in spots}
    for key in [k for k in chat.mentions if " " not in k and k not in known_keys]:
        alone = [(m, s, e) for m, s, e in chat.mentions[key]
                 if not any(m == m2 and s2 <= s and e <= e2 for m2, s2, e2 in spans)]
        if not alone:
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
        if len(ts) == 1 and ts[0].end in _CLOSING:
            found.add(ts[0].key)
        for j, t in enumerate(ts):
            prev = ts[j - 1] if j else None
            nxt = ts[j + 1] if j + 1 < len(ts) else None
            if nxt is not None and not t.end and nxt.key in _SAYING and (prev is None or prev.key not in _DETERMINERS):
                found.add(t.key)
            if prev is not None and not prev.end and (prev.whole in ("how's", "hows") or (
                    j == 1 and prev.key in _GREETINGS)):
                found.add(t.key)
    return found


def _capitalisers(chat: _Chat, given: Iterable[str]) -> set[str]:
    """The speakers who write names with a capital: most of the words they use that the
    nickname data knows as given names (or that are a speaker's name), past a message's first
    word, are mostly written with one (counted once a word, so a common word the data also lists
    weighs no more than a name). In their messages a word in lower case is not a name; a chat
    typed all in lower case has none."""
    given = set(given) - _FUNCTION
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


#: Endings that make another word of a word ("person" and "personal"), not a longer name.
_SUFFIXES = frozenset("s es ed ing er ers al ally ment ments ly ful ness ish y ies ity ous ive ic ical tion "
                      "ular gs ance ence able ible".split())


def _first_name(key: str, given: Iterable[str], known: Iterable[str], used: Iterable[str]) -> bool:
    """Whether a word may open a full name: a first name the nickname data or the store knows, or
    a longer form of one the chat uses ("bethany" of "beth"); never a relation word ("mum han")."""
    if key in _RELATION_WORDS or key in _TITLES or _stretched(key) != key:
        return False
    return key in given or key in known or any(
        len(g) >= 4 and len(key) > len(g) and g in given and g in used for g in (key[:4], key[:5]))


#: Words before a common noun ("big news", "other news"): a word after one is no surname.
_MODIFIERS = frozenset("other big little less more new old good bad great fun no".split())

_AFTER_NAME = frozenset("is was has had being been called said says would will can could".split())


def _surname(word: _Token, ends: set[str], following: str, given: frozenset[str] | set[str],
             counts: Counter[str]) -> bool:
    """Whether ``word`` after a first name is a surname: not a common word or a first name, and
    the two words stand as a name somewhere: before punctuation or a verb ("sam patel.", "dan
    whitaker has"), or the word is a name alone elsewhere too ("keller")."""
    key = word.key
    if key in _FUNCTION or key in given or not key.isalpha() or len(key) < 3 or key.endswith("ly") or (
            len(key) > 5 and key.endswith(("ed", "ing"))):
        return False
    if word.text.isupper() and len(word.text) > 1:  # shouted: "DAN QUIT"
        return bool(ends - {""}) and counts[key] > 1
    return bool(ends - {""}) or following in _AFTER_NAME or counts[key] >= 3


def _shorter_spellings(chat: _Chat) -> None:
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


def _acronyms(chat: _Chat, name_like: Callable[[str], bool]) -> None:
    """Spell-outs of short names: the words whose initials an acronym is ("tfl": "transport for
    london"), with at most one letter left over ("nyc": "new york"). Two letters are an acronym
    too, but spelt out only by names found otherwise."""
    shorts = [k for k in list(chat.mentions) if " " not in k and 2 <= len(k) <= 5 and (
        not re.search(r"[aeiou]", k) or any(s.isupper() and len(s) > 1 for s in chat.surface[k]))]
    chat.acronyms = set(shorts)
    for short in shorts:
        if len(short) < 3:
            continue  # two letters begin too many pairs of words: only a name found otherwise ("jp": "jean-philippe")
        for i, ts in enumerate(chat.tokens):
            for j in range(len(ts)):
                if ts[j].key[0] != short[0] or ts[j].key == short or ts[j].key in _CONNECTORS:
                    continue
                letters, k = "", j
                while k < len(ts) and len(letters) < len(short):
                    word = ts[k]
                    if word.key in _CONNECTORS and letters and short[len(letters)] != word.key[0]:
                        k += 1
                        continue
                    letters += word.key[0]
                    k += 1
                    if word.end:
                        break
                if k - j < 2 or ts[k - 1].key in _CONNECTORS or not name_like(ts[k - 1].key) or any(
                        w.key in _FUNCTION and w.key not in _CONNECTORS and w.key != "new" for w in ts[j:k]):
                    continue  # "she finally" spells "sf" but is no name ("new" starts many a place's)
                if letters == short or (len(letters) >= 2 and short.startswith(letters)
                                        and len(short) == len(letters) + 1 and ts[k - 1].end != ""):
                    if letters != short and sum(1 for ms in chat.tokens for a, b in zip(ms, ms[1:])
                                                if a.key == ts[j].key and b.key == ts[j + 1].key) < 2:
                        continue  # a spell-out short of a letter must be a name the chat uses again
                    words = ts[j:k]
                    chat.add(_joined(words), i, j, k, " ".join(w.text for w in words))


# -- evidence ---------------------------------------------------------------------------------


@dataclass
class _Evidence:
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    episodes: set[str] = field(default_factory=set)

    def add(self, weight: float, reason: str, episodes: Iterable[str] = ()) -> None:
        if reason not in self.reasons:
            self.score += weight
            self.reasons.append(reason)
        self.episodes.update(episodes)


def _lexical(a: str, b: str, nick: dict[str, frozenset[str]], chat: _Chat) -> tuple[float, str] | None:
    """What the two names' letters say (a shorter or equal first), or None. A short form needs
    the longer word to be plainly a name ("part" is not a short form of "particular")."""
    wa, wb = a.split(), b.split()
    if a.replace(" ", "") == b.replace(" ", "") or _stretched(a) == b or _stretched(b) == a:
        return 0.9, f"{b} is {a} spelt another way"
    if len(wa) == 1 and len(wb) == 1 and "-" in b and "-" not in a:
        parts = b.split("-")
        if a in chat.acronyms and a == "".join(p[0] for p in parts):
            return 0.8, f"{a} is the initials of {b}"
        if a == parts[0] and a in chat.named:
            return 0.6, f"{b} is {a} with more of the name"
        return None
    if len(wa) == 1 and len(wb) == 1:
        if b in nick.get(a, ()):
            return 0.7, f"{a} is a nickname of {b}" if len(a) <= len(b) else f"{b} is a nickname of {a}"
        base = _diminutive_base(a)
        if b.startswith(a) and _prefix_of_two(a, chat, nick):
            return None  # "nik" of nikhil or of nikita: a short form of two names is neither's
        if b not in chat.sure or not (a in chat.sure or a in chat.named):
            # not both plainly names ("well" and "wellington", "super" and "supervisor"): a spelling
            # only, for a correction to confirm ("melany. melanie.")
            if (a in chat.sure or b in chat.sure) and min(len(a), len(b)) >= 5 and a[:4] == b[:4] and (
                    _edits(a, b) == 1 or (base != a and _diminutive_base(b) == base)):
                return 0.4, f"{a} and {b} are one name spelt two ways"
            return None
        if len(a) >= 3 and b.startswith(a) and len(b) > len(a) and b[len(a):] not in _SUFFIXES:
            return 0.6, f"{a} is a short form of {b}"
        if base != a and len(base) >= 3 and b.startswith(base) and len(b) > len(base) + 2:
            return 0.6, f"{a} is a pet form of {b}"
        if base != a and len(base) >= 3 and _diminutive_base(b) == base:
            return 0.5, f"{a} and {b} are pet forms of one name"
        if not re.search(r"[aeiou]", a) and 3 <= len(a) <= 4 and len(b) >= 2 * len(a) and b[0] == a[0] \
                and b[-1] == a[-1] and re.fullmatch(".*".join(a), b):
            return 0.7, f"{a} abbreviates {b}"
        if min(len(a), len(b)) >= 5 and a[:4] == b[:4] and _edits(a, b) == 1:
            return 0.5 if a in chat.sure else 0.4, f"{a} and {b} differ by one letter"
        return None
    if len(wa) == 1 and len(wb) >= 2:
        initials = "".join(w[0] for w in wb)
        content = "".join(w[0] for w in wb if w not in _CONNECTORS)
        if a in chat.acronyms and (a in (initials, content) or (
                len(a) == len(content) + 1 and a.startswith(content))):
            return 0.8 if len(a) > 2 else 0.4, f"{a} is the initials of {b}"  # two letters: many a name's
        if wb[0] in _TITLES and wb[1:] == [a]:
            if wb[0] in _SURNAME_TITLES:  # "mrs brennan" and "brennan": a family shares its surname
                return 0.4, f"{b} is {a} with a title"
            return 0.8, f"{b} is {a} with a title"
        if wb[0] == a:
            return 0.6, f"{b} is {a} with more of the name"
        if len(wb) == 2 and wb[-1] == a and wb[0] not in _TITLES | _FUNCTION and a not in _HEADS:
            return 0.6, f"{a} is the surname of {b}"
        if wb[0] in _TITLES and len(wb) == 2 and b.split()[1] != a and wb[1] in nick.get(a, ()):
            return 0.5, f"{b} is {wb[1]}, a nickname of {a}, with a title"
        return None
    if len(wa) == len(wb) >= 2 and wa[:-1] == wb[:-1] and len(wa[-1]) == 1 and wb[-1].startswith(wa[-1]) \
            and len(wb[-1]) > 2:
        return 0.7, f"{a} is {b} with an initial"  # "dr k" and "dr kowalczyk", "sophie m" and "sophie mcleod"
    if len(wa) >= 2 and len(wb) > len(wa) and wb[: len(wa)] == wa:
        return 0.6, f"{b} is {a} with more of the name"
    return None


def _prefix_of_two(short: str, chat: _Chat, nick: dict[str, frozenset[str]]) -> bool:
    """Whether the chat uses two names of one word that ``short`` begins and that part at once
    after it without being one name (each other's nickname or pet form, one a longer spelling of
    the other): "nik" of nikhil and of nikita, not "mel" of melanie and melany."""
    longer = [n for n in chat.mentions if " " not in n and n != short and n.startswith(short)
              and n[len(short):] not in _SUFFIXES]

    def one(x: str, y: str) -> bool:
        bx, by = _diminutive_base(x), _diminutive_base(y)
        return x in nick.get(y, ()) or x[len(short)] == y[len(short)] or y.startswith(bx) or x.startswith(by)

    return any(not one(x, y) for i, x in enumerate(longer) for y in longer[i + 1:])


def candidates(messages: Sequence[Message], known: Iterable[str] = ()) -> list[str]:
    """Every name the rules consider: the words and phrases of the ``messages`` used as names,
    and the store's entity names ``known``, as the chat writes them."""
    chat = _read(messages, list(known))
    return sorted({_shown(chat, key) for key in chat.mentions}, key=str.lower)


def suggest(messages: Sequence[Message], known: Iterable[str] = (), *, threshold: float = 0.5) -> list[Pair]:
    """The pairs of names the ``messages`` (and the store's entity names, ``known``) give evidence
    for, strongest first (see the module's docstring)."""
    known = list(known)
    chat = _read(messages, known)
    nick, _ = _nicknames()
    names = sorted(chat.mentions)
    ambiguous = _ambiguous(chat)
    against = _against(chat)
    evidence: dict[tuple[str, str], _Evidence] = defaultdict(_Evidence)

    def pair(x: str, y: str) -> tuple[str, str]:
        return (x, y) if (len(x), x) <= (len(y), y) else (y, x)

    def where(key: str) -> list[str]:
        return chat.in_order({messages[m].id for m, _, _ in chat.mentions.get(key, [])})

    for a, b in _comparable(names, nick, pair):
        found = _lexical(a, b, nick, chat)
        if found is None and len(a) == len(b):
            found = _lexical(b, a, nick, chat)
        if found:
            evidence[(a, b)].add(found[0], found[1], where(a)[:2] + where(b)[:2])
    _usage(chat, evidence, pair)
    _corrected(chat, evidence, pair)
    _addressed(chat, evidence, pair)
    for a, b in list(evidence):
        if (a, b) in against or a in ambiguous or b in ambiguous:
            del evidence[(a, b)]
    return _grouped(chat, evidence, against, ambiguous, threshold)


def _comparable(names: list[str], nick: dict[str, frozenset[str]], pair: _Pairing) -> list[tuple[str, str]]:
    """The pairs of names any rule could join: those sharing the first letter of a word (short
    forms, surnames, titles, acronyms, spellings) and nicknames; not every pair of a long chat."""
    by_letter: dict[str, list[str]] = defaultdict(list)
    for name in names:
        for letter in {w[0] for w in name.split()}:
            by_letter[letter].append(name)
    known = set(names)
    found = {pair(x, y) for group in by_letter.values() for i, x in enumerate(group) for y in group[i + 1:] if x != y}
    found |= {pair(x, y) for x in names for y in nick.get(x, ()) if y in known and x != y}
    return sorted(found)


def _usage(chat: _Chat, evidence: dict[tuple[str, str], _Evidence], pair: _Pairing) -> None:
    """Evidence from how names are used: corrections, naming, the same relation word, a speaker's
    short name used by the other speaker."""
    messages = chat.messages
    in_message: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for key, spots in chat.mentions.items():
        for m, start, stop in spots:
            in_message[m].append((key, start, stop))
    for m, found in in_message.items():
        text = messages[m].text.lower()
        for a, sa, ea in found:
            for b, sb, eb in found:
                if a >= b:
                    continue
                both = pair(a, b)
                if both not in evidence:
                    continue
                first, second = ((a, sa, ea), (b, sb, eb)) if sa < sb else ((b, sb, eb), (a, sa, ea))
                if first[2] == second[1] and chat.tokens[m][first[2] - 1].end in (".", ","):
                    evidence[both].add(0.4, f"“{first[0]}” corrected to “{second[0]}” at once", [messages[m].id])
                elif re.search(r"\bcall(?:s|ed)?\s+(?:him|her)\b", text) and first[2] <= second[1]:
                    evidence[both].add(0.3, "both given as one person's name in one message", [messages[m].id])
        for quoted in re.finditer(r"\b([a-z][a-z ]{1,40}?)\s+(?:is|was)\s+called\s+([a-z]+)", text):
            x, y = _key(quoted.group(1)), _key(quoted.group(2))
            for name in chat.mentions:
                if x.endswith(name) and " " in name and y in chat.mentions:
                    evidence[pair(name, y)].add(0.7, f"“{quoted.group(0)}”", [messages[m].id])
    relation_of: dict[str, set[str]] = defaultdict(set)
    for ts in chat.tokens:
        for j, t in enumerate(ts[1:], 1):
            if ts[j - 1].key in _RELATION_WORDS and not ts[j - 1].end and t.key in chat.mentions:
                relation_of[t.key].add(ts[j - 1].key)
    for (a, b), ev in evidence.items():
        shared = relation_of[a] & relation_of[b]
        if shared:
            ev.add(0.3, f"both called {sorted(shared)[0]}")
    for speaker in chat.speakers:
        for (a, b), ev in evidence.items():
            if speaker not in (a, b) or " " in a:
                continue
            short = a if b == speaker else b
            users = {chat.speaker(m) for m, _, _ in chat.mentions.get(short, [])}
            if users and speaker not in users and short != speaker and speaker.startswith(short[:2]):
                ev.add(0.3, f"{short} is used for {chat.speakers[speaker]} only by the other speaker")


def _corrected(chat: _Chat, evidence: dict[tuple[str, str], _Evidence], pair: _Pairing) -> None:
    """A name put right by the one who wrote it, opening their next message: "zee says mieka ..."
    then "mieke sorry", "eefa" then "i mean aoife", "ELLIE" then "sorry eilidh". The name put
    right is the one of the message before spelt most like the new one."""
    names_in: dict[int, set[str]] = defaultdict(set)
    for key, spots in chat.mentions.items():
        for m, start, _ in spots:
            if start >= 0 and " " not in key:
                names_in[m].add(key)
    for m in range(1, len(chat.messages)):
        ts = chat.tokens[m]
        if chat.speaker(m) != chat.speaker(m - 1) or not ts:
            continue
        opening = [t.key for t in ts[:3]]
        if opening[:2] == ["i", "mean"] and len(ts) > 2:
            new = ts[2]
        elif opening[0] == "sorry" and len(ts) > 1:
            new = ts[1]
        elif ts[0].end == "*" or (len(ts) > 1 and ts[1].key == "sorry" and ts[0].end in ("", ".", ",")):
            new = ts[0]
        else:
            continue
        if new.key not in names_in[m]:
            continue
        before = sorted(names_in[m - 1] - {new.key}, key=lambda x: (_edits(x, new.key), x))
        if not before or (len(before) > 1 and _edits(before[0], new.key) > len(new.key) // 2):
            continue
        evidence[pair(before[0], new.key)].add(0.6, f"“{before[0]}” put right as “{new.key}”",
                                               [chat.messages[m - 1].id, chat.messages[m].id])


def _addressed(chat: _Chat, evidence: dict[tuple[str, str], _Evidence], pair: _Pairing) -> None:
    """A short form of a speaker's name that only the other speaker uses, to address them ("oh
    ol.", "han i wouldn't miss it")."""
    for speaker in chat.speakers:
        for short, spots in chat.mentions.items():
            if " " in short or short == speaker or not speaker.startswith(short) or len(short) < 2:
                continue
            users = {chat.speaker(m) for m, _, _ in spots}
            if not users or speaker in users:
                continue
            called = [chat.messages[m].id for m, s, _ in spots if s == 0 or chat.tokens[m][s].end in _CLOSING
                      or chat.tokens[m][s - 1].key in ("oh", "hey", "hi", "hello", "dear")]
            if called:
                evidence[pair(short, speaker)].add(0.6, f"the other speaker calls {chat.speakers[speaker]} {short}",
                                                   called[:3])


def _ambiguous(chat: _Chat) -> set[str]:
    """Names the chat says stand for two: "two toms", "the other tom", "different sams", "my sam"
    beside "your sam", "sam from work", and a name slipped for another person and corrected."""
    found: set[str] = set()
    possessed: dict[str, set[str]] = defaultdict(set)
    for ts in chat.tokens:
        for j, t in enumerate(ts):
            prev = ts[j - 1].key if j else ""
            nxt = ts[j + 1].key if j + 1 < len(ts) else ""
            singular = t.key[:-1] if t.key.endswith("s") else ""
            if singular in chat.mentions and prev in ("two", "different", "both", "three", "many"):
                found.add(singular)
            if t.key in chat.mentions and prev in ("other", "another") and j >= 1:
                found.add(t.key)
            if t.key in chat.mentions and j and not ts[j - 1].end and (
                    prev in ("my", "your", "our") or (ts[j - 1].whole != prev and prev in chat.mentions)):
                possessed[t.key].add(ts[j - 1].whole)  # "our shay", "max's sophie": there is another
            if t.key in chat.mentions and nxt == "from" and j + 2 < len(ts) and \
                    ts[j + 2].key in ("work", "school", "uni", "college", "church", "the"):
                found.add(t.key)
    found |= {name for name, owners in possessed.items() if owners and any(
        spot for spot in chat.mentions[name] if not _qualified(chat, spot))}
    # a slip corrected: X in one message, the same speaker's (or the other's) next message opens with Y
    for m in range(1, len(chat.tokens)):
        ts = chat.tokens[m]
        if not ts or ts[0].key not in chat.mentions:
            continue
        y = ts[0].key
        if len(chat.mentions[y]) < 2:
            continue
        before = {t.key for t in chat.tokens[m - 1]} & set(chat.mentions)
        for x in before:
            if x != y and (_edits(x, y) <= 1 or x in _nicknames()[0].get(y, ())) and len(chat.mentions[x]) >= 3:
                later = [s for s in chat.mentions[x] if abs(s[0] - m) > 1]
                if later and (ts[0].end in (".", "$") or ts[0].text.isupper()):
                    found.add(x)
    return found


def _qualified(chat: _Chat, spot: tuple[int, int, int]) -> bool:
    """Whether a mention is qualified by whose it is ("my sam", "max's sophie")."""
    m, start, _ = spot
    if start < 1:
        return False
    prev = chat.tokens[m][start - 1]
    return not prev.end and (prev.key in ("my", "your", "our") or (
        prev.whole != prev.key and prev.key in chat.mentions))


def _against(chat: _Chat) -> set[tuple[str, str]]:
    """Pairs the chat sets apart: two names set against each other in one message, two relation
    words for one person, a speaker naming someone else."""
    apart: set[tuple[str, str]] = set()

    def add(x: str, y: str) -> None:
        apart.add((x, y) if (len(x), x) <= (len(y), y) else (y, x))

    in_message: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for key, spots in chat.mentions.items():
        for m, start, stop in spots:
            if start >= 0:
                in_message[m].append((key, start, stop))
    for m, found in in_message.items():
        text = chat.messages[m].text.lower()
        if re.search(r"\bcall(?:s|ed)?\s+(?:him|her)\b|\bcalled\b|\bname", text):
            continue
        ts = chat.tokens[m]
        for a, sa, ea in found:
            for b, sb, eb in found:
                if a < b and (ea <= sb or eb <= sa) and not (a in b.split() or b in a.split()):
                    first_end = min(ea, eb) - 1
                    if ts[first_end].end in (".", ",") and abs(sa - sb) <= 2:
                        continue  # "melany. melanie": a correction, not two people
                    if any(t.end in (".", "!", "?") for t in ts[first_end:max(sa, sb)]):
                        continue  # two sentences may name one thing twice: "... to london. tfl have me ..."
                    add(a, b)
    relations: dict[str, set[tuple[str, str]]] = defaultdict(set)  # name -> (relation, whose)
    for m, ts in enumerate(chat.tokens):
        me = chat.speaker(m)
        for j, t in enumerate(ts):
            if t.key not in chat.mentions or t.end == "$":
                continue  # a name closing a message may be the one spoken to: "she's your mum han"
            for k in (j - 1, j - 2):
                if k >= 1 and ts[k].key in _RELATION_WORDS and ts[k - 1].key in ("my", "your"):
                    whose = me if ts[k - 1].key == "my" else ",".join(chat.others(m))
                    if whose:
                        relations[t.key].add((_RELATION_WORDS[ts[k].key], whose))
                    break
            if j + 2 < len(ts) and t.end in ("", ",") and ts[j + 1].key in ("my", "your") \
                    and ts[j + 2].key in _RELATION_WORDS:
                whose = me if ts[j + 1].key == "my" else ",".join(chat.others(m))
                if whose:
                    relations[t.key].add((_RELATION_WORDS[ts[j + 2].key], whose))
    people = list(relations)
    for x in people:
        for y in people:
            if x < y:
                for rx, wx in relations[x]:
                    for ry, wy in relations[y]:
                        if wx == wy and rx != ry and not any({rx, ry} <= c for c in _COMPATIBLE):
                            add(x, y)
    for name, rels in relations.items():
        for _, whose in rels:
            if whose in chat.mentions:
                add(name, whose)
    for speaker in chat.speakers:
        for key, spots in chat.mentions.items():
            if key != speaker and any(chat.speaker(m) == speaker for m, s, _ in spots if s >= 0):
                add(speaker, key)
    return apart


def _grouped(chat: _Chat, evidence: dict[tuple[str, str], _Evidence], against: set[tuple[str, str]],
             ambiguous: set[str], threshold: float) -> list[Pair]:
    """Join the pairs strongest first into groups nothing sets apart; every pair in a group."""
    group: dict[str, int] = {}
    members: dict[int, set[str]] = {}

    def apart(xs: set[str], ys: set[str]) -> bool:
        return any(((x, y) if (len(x), x) <= (len(y), y) else (y, x)) in against for x in xs for y in ys)

    ranked = sorted(((ev.score + _closeness(a, b), a, b) for (a, b), ev in evidence.items() if ev.score >= threshold),
                    reverse=True)
    for _, a, b in ranked:
        ga, gb = group.get(a), group.get(b)
        xs = members[ga] if ga is not None else {a}
        ys = members[gb] if gb is not None else {b}
        if xs is ys or apart(xs, ys):
            continue
        new = len(members)
        members[new] = xs | ys
        for name in members[new]:
            group[name] = new
    found: list[Pair] = []
    seen: set[frozenset[str]] = set()
    for gid in {group[n] for n in group}:
        names = sorted(members[gid])
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                key = (a, b) if (len(a), a) <= (len(b), b) else (b, a)
                if frozenset(key) in seen:
                    continue
                seen.add(frozenset(key))
                ev = evidence.get(key)
                if ev is not None and ev.score >= threshold:
                    found.append(Pair(_shown(chat, key[0]), _shown(chat, key[1]), round(min(ev.score, 1.0), 2),
                                      tuple(ev.reasons), tuple(chat.in_order(ev.episodes))))
                else:
                    via = [_shown(chat, n) for n in names if n not in key]
                    found.append(Pair(_shown(chat, key[0]), _shown(chat, key[1]), 0.5,
                                      (f"one entity through {', '.join(via)}",),
                                      tuple(chat.in_order({e for n in key for e in _episodes_of(evidence, n)})[:4])))
    for name, surfaces in chat.surface.items():
        distinct = list({s.lower(): s for s in surfaces}.values())
        if len(distinct) < 2 or name not in chat.mentions or name in ambiguous:
            continue
        spots = tuple(chat.in_order({chat.messages[m].id for m, _, _ in chat.mentions[name]})[:4])
        for i, x in enumerate(distinct):
            for y in distinct[i + 1:]:
                found.append(Pair(x, y, 0.9, (f"{x} and {y} are one name spelt two ways",), spots))
    found.sort(key=lambda p: (-p.score, p.a.lower(), p.b.lower()))
    return found


def _episodes_of(evidence: dict[tuple[str, str], _Evidence], name: str) -> set[str]:
    return {e for (a, b), ev in evidence.items() if name in (a, b) for e in ev.episodes}


def _closeness(a: str, b: str) -> float:
    """A tie-break between pairs of equal evidence: how much of the longer name the shorter
    spells (kath and kathleen before kat and kathleen)."""
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return 0.1 * common / max(len(a), len(b))


def _shown(chat: _Chat, key: str) -> str:
    """A name as the chat writes it: a speaker's as given, else the most common spelling not
    shouted in capitals (its key when only the store has it)."""
    if key in chat.speakers:
        return chat.speakers[key]
    surface = chat.surface.get(key)
    if not surface:
        return key
    quiet = [(n, s) for s, n in surface.items() if not (s.isupper() and len(s) > 1)]
    return max(quiet)[1] if quiet else surface.most_common(1)[0][0]
