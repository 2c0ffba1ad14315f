"""The evidence for and against a pair of names, over a chat read by :mod:`graphmem.core._alias_chat`.

For a pair, from **the names themselves** (``evidence_from_names``: nicknames, short and pet forms, surnames,
titles, initials, acronyms, spellings) and from **how the chat uses them** (``evidence_from_usage``,
``evidence_corrected``, ``evidence_addressed``); against a pair, the names the chat sets apart (``evidence_against``)
and the names it says stand for two (``ambiguous_names``). :mod:`graphmem.core.alias_evidence`
describes each and joins the pairs into groups.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from itertools import accumulate

from ._alias_chat import (
    ADDRESS_WORDS,
    AFTER_TITLES,
    CALLING,
    CLOSING,
    CONNECTORS,
    EUROPEAN_TITLES,
    FUNCTION,
    GRANDPARENT_TITLES,
    HEADS,
    PLACE_PREPOSITIONS,
    QUOTES,
    RELATION_WORDS,
    SAYING,
    TITLES,
    TITLES_TOO,
    Chat,
    _Token,
    name_key,
    nickname_table,
    plain_english,
    unstretched,
)
from .places import is_place, is_wide

__all__ = ["Evidence", "ambiguous_names", "called_me", "comparable_pairs", "evidence_addressed", "evidence_against",
           "evidence_called", "evidence_called_me", "evidence_corrected", "evidence_from_names", "evidence_from_usage",
           "evidence_self_named", "own_form", "self_named"]

# -- words the rules alone use ---------------------------------------------------------------

#: What a longer form of a name ("Linda" and "Linda Park") or a surname ("Park" and "Linda Park") is worth alone: on
#: first reads (`python -m benchmarks.first_reads --aliases`: each chat read by the code of the day it arrived)
#: such pairs were right 31 times of 128 and 12 of 44, for a first name is many people's; below the default
#: threshold (0.5), so they are suggested with other evidence beside them, or when asked (``--min-score 0.4``).
_WEAK = 0.45
#: Titles that go before a surname, which a family shares: "mr fraser" is not every Fraser.
_SURNAME_TITLES = frozenset("mrs mr ms mx dr prof".split()) | EUROPEAN_TITLES
#: Before a child's name, a parent called after the child ("Mama Chidi", "Baba Tunde").
_PARENT_OF = frozenset("mama papa baba mummy daddy mum mom dad ma pa".split())
#: Relation words that may name one person at once (a boyfriend who becomes a husband).
_COMPATIBLE = [frozenset({"boyfriend", "girlfriend", "partner", "husband", "wife", "ex"}),
               frozenset({"friend", "coworker", "roommate", "neighbour"})]

#: Nouns that make a name a description of someone by it: "the intel guy" is not Intel.
_PERSON_NOUNS = frozenset("guy guys man men woman women one ones lady girl boy kid lot crowd folk folks people".split())

_Pairing = Callable[[str, str], tuple[str, str]]  # two names in the order a pair keeps them

#: Buildings and institutions named for the place they stand in: never that place.
_BUILDINGS = frozenset("airport hospital station clinic museum library gallery theatre theater uni university "
                       "college school".split())
#: Words that end a street's or an area's name: "front" of "front street", "grant" of "grant county"
#: is the word it was named for (or "in front of"), not its short form.
_WAYS = frozenset("street st road rd lane avenue ave drive boulevard highway turnoff county mountain".split())
#: Words that open many a place's name and are none of them alone ("são paulo", "san diego", "port talbot").
_PLACE_OPENERS = frozenset("são sao san santa santo sainte ste st saint los las la el le les new port fort mount lake "
                           "cape costa puerto buenos kuala hong".split())
#: Of those, the ones that are also names ("El" of Eleanor, "Santa", "Costa"): none of a longer name only where that
#: is a known place.
_OPENERS_NAMED = frozenset("el les santa costa".split())
#: Words for a house or a firm before a family's name: "Maison Ravelo", "Casa Pepe" are no one's names.
_HOUSE_WORDS = frozenset("maison casa chez hotel cafe restaurant".split())
#: Words that make another place of a place's name: "east van", "western australia", "new york".
_DIRECTIONS = frozenset("north south east west northern southern eastern western upper lower new".split())

#: Words that stand before a surname but are no first name: titles, function words, words that open places.
_NO_FORENAME = TITLES | TITLES_TOO | FUNCTION | _PLACE_OPENERS | AFTER_TITLES | _HOUSE_WORDS

#: Endings that make another word of a word ("person" and "personal"), not a longer name.
_SUFFIXES = frozenset("s es ed ing er ers al ally ment ments ly ful ness ish y ies ity ous ive ic ical tion "
                      "ular gs ance ence able ible".split())


#: Endings that make a country of its people's word: "kyrgyz-stan", "armen-ia", "thai-land", "bangla-desh".
_COUNTRY_ENDINGS = frozenset("stan istan ia land desh".split())


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


# -- evidence ---------------------------------------------------------------------------------


@dataclass
class Evidence:
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    episodes: set[str] = field(default_factory=set)

    def add(self, weight: float, reason: str, episodes: Iterable[str] = ()) -> None:
        if reason not in self.reasons:
            self.score += weight
            self.reasons.append(reason)
        self.episodes.update(episodes)


def evidence_from_names(a: str, b: str, nick: dict[str, frozenset[str]], chat: Chat) -> tuple[float, str] | None:
    """What the two names' letters say (a shorter or equal first), or None. A short form needs
    the longer word to be plainly a name ("part" is not a short form of "particular")."""
    wa, wb = a.split(), b.split()
    joined = a.replace(" ", "") == b.replace(" ", "")  # the same letters, spaced apart or not ("ako ng", "akong")
    if joined or unstretched(a) == b or unstretched(b) == a:
        if not joined and plain_english(min(a, b, key=len)) and not {a, b} & chat.sure:
            return None  # a word of English stretched: "god" and "GODDDD" (not "sigga", nor "rose" where a name)
        if not joined and max(a, b, key=len) not in chat.known:
            return None  # a name shouted, "SIPHOOOO" of "Sipho": the same name, no other to review (unless the
            # store holds an entity by the stretched name, to be joined)
        spaced = a if " " in a else b
        if joined and not {a, b} & (chat.sure | chat.named) and not any(
                all(w[:1].isupper() for w in s.split()) for s in chat.surface.get(spaced, ())):
            return None  # two words typed as one, neither a name: "ako ng" and "akong" (not "Aït Ouali")
        return 0.9, f"{b} is {a} spelt another way"
    if len(wa) == 1 and len(wb) == 1 and "-" in b and "-" not in a:
        parts = b.split("-")
        if a in chat.acronyms and a == "".join(p[0] for p in parts):
            return 0.8, f"{a} is the initials of {b}"
        if a == parts[0] and a in chat.named and a not in _PLACE_OPENERS:  # not "sainte" of "sainte-croix"
            return _WEAK, f"{b} is {a} with more of the name"
        return None
    if len(wa) == 1 and len(wb) == 1:
        if b == a + "s" or a == b + "s":
            return None  # a plural is the same word, not another name: "tuesday" and "tuesdays"
        if _demonym(a) or _demonym(b):
            return None  # a people's word, no one's name: "vietnamese", "fijian", "samoan" (not of "sam")
        if b in nick.get(a, ()):
            return 0.7, f"{a} is a nickname of {b}" if len(a) <= len(b) else f"{b} is a nickname of {a}"
        if is_place(b) and _skeleton(a, b) and (a in chat.sure or a in chat.named):
            return 0.7, f"{a} abbreviates {b}"  # "in dbn": a known place, typed short (not "talk ltr")
        base = _diminutive_base(a)
        if b.startswith(a) and _prefix_of_two(a, chat, nick):
            return None  # "nik" of nikhil or of nikita: a short form of two names is neither's
        pet = _diminutive_base(b)  # a pet form in -ie or -y of a plain name: "gwennie" of "gwen", "annie" of "anna"
        if not ((b in chat.sure and (a in chat.sure or a in chat.named)) or (
                a in chat.sure and b in chat.named and pet != b and a.startswith(pet))):
            # not both plainly names ("well" and "wellington", "super" and "supervisor"): a spelling
            # only, for a correction to confirm ("melany. melanie.")
            if (a in chat.sure or b in chat.sure) and min(len(a), len(b)) >= 5 and a[:4] == b[:4] and (
                    _edits(a, b) == 1 or (base != a and _diminutive_base(b) == base)):
                return 0.4, f"{a} and {b} are one name spelt two ways"
            return None
        if a.endswith("a") and b in (a + "n", a + "ns"):
            return None  # a people's word is not its place's: "australia" and "australian", "mangarevans"
        if b == a + "a" and len(a) >= 3 and a in chat.sure and not a.endswith("a"):  # not "serwa", "serwaa"
            return None  # a man's name and a woman's: "ioan" and "ioana", "paul" and "paula" (not "kat", "kate")
        if len(a) >= 3 and b.startswith(a) and len(b) > len(a) and b[len(a):] not in _SUFFIXES:
            if is_wide(a) and _said_as_place(chat, a):
                return None  # a country the chat says one is in is no one's short name: "in Chile", "Chileshe"
            if is_wide(b) and b[len(a):] in _COUNTRY_ENDINGS:
                return None  # a country's people or language, not its short form: "kyrgyz", "armen", "thai"
            if b[len(a):] == "ese" and len(a) >= 4:
                return None  # a place's people or language, not a longer name: "timor" and "timorese"
            if pet == a:
                return 0.6, f"{b} is a pet form of {a}"  # "rhysie" of "rhys", not "rhys" a short form of it
            return 0.6, f"{a} is a short form of {b}"
        if _clipped(a, b, chat) and len(a) >= 4 and not _prefix_of_two(a[:-1], chat, nick) and a not in _BABY_WORDS:
            # a stem of three letters at least: "des" is no clipped "dean"; "bubs", a word for any baby, is no
            # clipped "bubba" (a new user's: the dog)
            return 0.6, f"{a} is a clipped form of {b}"
        if base != a and len(base) >= 3 and b.startswith(base) and len(b) > len(base) + 2 \
                and not _prefix_of_two(base, chat, nick):  # "brissie" of brisbane and of bristol: neither's
            return 0.6, f"{a} is a pet form of {b}"
        if base != a and len(base) >= 3 and _diminutive_base(b) == base:
            return 0.5, f"{a} and {b} are pet forms of one name"
        if _skeleton(a, b):  # of two plainly names (a known place is read above)
            return 0.7, f"{a} abbreviates {b}"
        if min(len(a), len(b)) >= 5 and a[:4] == b[:4] and _edits(a, b) == 1 and not _cased_apart(chat, a, b):
            return 0.5 if a in chat.sure else 0.4, f"{a} and {b} differ by one letter"
        return None
    if len(wa) == 1 and len(wb) >= 2:
        initials = "".join(w[0] for w in wb)
        content = "".join(w[0] for w in wb if w not in CONNECTORS)
        if a in chat.acronyms and (a in (initials, content) or (
                len(a) == len(content) + 1 and a.startswith(content) and a[-1] in "chsu")):  # "nyc": its city
            return 0.8 if len(a) > 2 else 0.4, f"{a} is the initials of {b}"  # two letters: many a name's
        if (wb[0] in TITLES or wb[0] in TITLES_TOO) and wb[1:] == [a]:
            if wb[0] in ("st", "saint"):
                return None  # "st john" (an ambulance, a church): named for a saint, not John
            if wb[0] in _SURNAME_TITLES or wb[0] in GRANDPARENT_TITLES:  # "mrs brennan" and "brennan": a family
                return 0.4, f"{b} is {a} with a title"  # shares its surname; "jeddo boutros": and its first names
            return 0.8, f"{b} is {a} with a title"
        if wb[0] == a and len(wb) == 2 and wb[1] in AFTER_TITLES and (
                a in chat.sure or a in chat.named):
            return 0.8, f"{b} is {a} with a title"  # "sabina didi", "erzsi néni": the title said after the name
            # (not "procurement madam": a word of English and a title are someone's job, no form of a name)
        if wb[0] == a and len(wb) == 2 and wb[1] in _BUILDINGS and a not in TITLES and (
                is_place(a) or a in chat.acronyms or _told_as_town(chat, a)):
            return None  # a place or a firm and a building of it: "york hospital", "singapore airport", "stc station",
            # "labasa hospital" where the chat says "in labasa"
        if wb[0] == a and len(wb) == 2 and wb[1] in _WAYS:
            return None  # "front street", "grant county": a street or an area named for a word
        if wb[0] == a and len(wb) == 2 and wb[1] in RELATION_WORDS:
            return None  # "efua sister" (Efua's sister): someone of hers
        if wb[0] == a and a in _PLACE_OPENERS and (a not in _OPENERS_NAMED or is_place(b)):
            return None  # "são" of são paulo, "san" of san cristóbal: a word of a place's name, not it
        if wb[0] == a and wb[-1] not in _PERSON_NOUNS and _name_words(b, 1, chat):
            return _WEAK, f"{b} is {a} with more of the name"
        if len(wb) == 2 and wb[-1] == a and wb[0] in _PARENT_OF:
            return None  # "mama chidi": Chidi's mother, called after her child
        if len(wb) == 2 and wb[-1] == a and wb[0] in _DIRECTIONS:
            return None  # a place and a part of it, or another place: "van" and "east van", "western australia"
        # a surname alone must stand where names go somewhere: "fell" of "dave fell off" is a verb
        if len(wb) == 2 and wb[-1] == a and wb[0] not in _NO_FORENAME and a not in HEADS and a not in AFTER_TITLES and (
                not is_place(a) or wb[0] in nick or _said_alone(chat, wb[0])) and (
                a in chat.sure or a in chat.named or _said_alone(chat, a)) and not _made_plural(chat, a) and \
                not (plain_english(a) and not _name_words(b, 1, chat)) and not (plain_english(a) and all(
                    surface.isupper() for surface in chat.surface.get(b, ()))):
            # (not a word of English after a name, written small after its capital or shouted with it: "Cal forgot.
            # FORGOT.", "CAL FORGOT"; but "Sarah jones", a reviewer's)
            # (not a family's name the chat makes plural: "two Mrs McCanns", "the Okafors")
            # (a place is a surname only after a first name: "kate holland", "tomasz jordan", not "airports
            # fiji"; "port authority" is a port's)
            return _WEAK, f"{a} is the surname of {b}"
        if wb[0] in TITLES and len(wb) == 2 and b.split()[1] != a and wb[1] in nick.get(a, ()):
            return 0.5, f"{b} is {wb[1]}, a nickname of {a}, with a title"
        return None
    if len(wa) == len(wb) >= 2 and wa[:-1] == wb[:-1] and len(wa[-1]) == 1 and wa[-1].isalpha() \
            and wb[-1].startswith(wa[-1]) and len(wb[-1]) > 2:  # (not "city 1" of "city 100")
        return 0.7, f"{a} is {b} with an initial"  # "dr k" and "dr kowalczyk", "sophie m" and "sophie mcleod"
    if len(wa) >= 2 and len(wb) > len(wa) and wb[: len(wa)] == wa and wb[-1] not in _PERSON_NOUNS \
            and _name_words(b, len(wa), chat):
        return _WEAK, f"{b} is {a} with more of the name"
    return None


def _name_words(name: str, kept: int, chat: Chat) -> bool:
    """Whether the words of ``name`` after its first ``kept`` may be more of a name: not where the writer
    capitalises its first word and writes an added word in lower case ("Leeds house", "Martín approves",
    "TUTH pin": a building of Leeds, a verb, a thing), a connector aside ("Casa de Papel"); nor where an
    added word stands twice or more outside any name, never where names go ("tess happy", "thes wedding",
    "june inshallah": a common word after a name), a head noun of a place's or a firm's name aside
    ("oakwood house"); never God ("Teuila God bless")."""
    words = name.split()
    for surface in chat.surface.get(name, ()):
        parts = surface.split()
        if len(parts) == len(words) and parts[0][:1].isupper() and any(
                part[:1].islower() and part.lower() not in CONNECTORS for part in parts[kept:]):
            return False
    return not any(chat.outside_names[word] >= 2 and word not in chat.sure and word not in chat.named
                   and word not in HEADS or word in _INVOKED for word in words[kept:])


#: Words for any baby, no clipped name ("bubs" of "Bubba"): still a name one is called ("Grandma calls me Bub").
_BABY_WORDS = frozenset("bubs bub bubba".split())
#: Who is invoked after a name, and is no more of it: "Thank you Teuila God bless" (a new user's).
_INVOKED = frozenset("god allah godbless inshallah insha'allah mashallah masha'allah alhamdulillah bismillah "
                     "amen".split())


#: Words before "in" that make what follows a town: one lives, was born or has a home there, or a building
#: stands in it ("lives in labasa", "the house in Labasa", "the hospital in Mariehamn").
_HOME_BEFORE_IN = frozenset("lives live living lived born house flat home apartment".split()) | _BUILDINGS
#: Words before "to" that make what follows a town: one moves there ("moved to Nadi").
_MOVE_BEFORE_TO = frozenset("moved moving move moves relocated relocating".split())


def _told_as_town(chat: Chat, name: str) -> bool:
    """Whether the chat says ``name`` alone as a town: where one lives, was born or has a home ("lives in
    labasa", "the house in Labasa"), where a building stands ("the hospital in Mariehamn"), where
    one moves ("moved to Nadi", "suva to labasa"). Then "labasa hospital" or "nadi airport" is a building there,
    not the town; "back in addenbrookes", "flying from heathrow", "drove Ines to Addenbrookes", "got into
    harvard" say no town (an attacker's and a reviewer's: a hospital, an airport or a university is as often
    said "in", "to", "from" itself, and after anyone's name)."""
    for m, start, stop in chat.mentions.get(name, []):
        if start < 2 or stop - start != len(name.split()):
            continue
        ts = chat.tokens[m]
        before, word = ts[start - 1], ts[start - 2]
        if before.end or word.end:
            continue  # a stop or a comma between: "… live. In labasa"
        if (before.key == "in" and word.key in _HOME_BEFORE_IN) or (before.key == "to" and (
                word.key in _MOVE_BEFORE_TO or is_place(word.key))):
            return True  # (… "suva to labasa": from a known town to another)
    return False


def _said_as_place(chat: Chat, name: str) -> bool:
    """Whether the chat says ``name`` alone right after "in" ("neither is in Chile"; not "to" or "from", which a
    person is said after as often: "gave the keys to Devon", "a text from India", a reviewer's)."""
    for m, start, stop in chat.mentions.get(name, []):
        if start >= 1 and stop - start == len(name.split()):
            before = chat.tokens[m][start - 1]
            if not before.end and before.key == "in":
                return True
    return False


#: Endings that make a people's word of a place's name: "fiji-an", "vietnam-ese", "canad-ian", "pakistan-i";
#: "-n" only after an "a" ("samoa-n", "kenya-n"; "malin" is a name, not Mali's).
_DEMONYM_ENDINGS = ("ians", "ian", "ans", "an", "ns", "n", "ese", "i")


def _demonym(word: str) -> bool:
    """Whether ``word`` is the word for a known place's people or language by one of the regular endings
    (:data:`_DEMONYM_ENDINGS`): "samoan", "fijian", "vietnamese", "canadian", "pakistani", "italian" (of Italy); not
    the irregular ones ("maltese", "chinese" are not read), nor "brian", "julian", "malin"."""
    for ending in _DEMONYM_ENDINGS:
        stem = word[:-len(ending)]
        if word.endswith(ending) and len(stem) >= 3 and not is_place(word) and (ending not in ("n", "ns") or (
                stem.endswith("a"))) and (is_place(stem) or (ending.startswith("ian") and (
                is_place(stem + "a") or is_place(stem + "y")))):  # "italian" of Italy, "hungarian" of Hungary
            return True
    return False


def _cased_apart(chat: Chat, a: str, b: str) -> bool:
    """Whether the chat always writes one word in small letters and the other always as a name, one writer at least
    writing both so: a word of the language and a name ("kabyle" and "Kabylie"), not one name spelt two ways (not
    "phillip" typed by one who writes no capitals and "Philip" by another)."""
    said = chat.written

    def apart(small: str, capital: str) -> bool:
        return all(text.islower() for text, _ in said[small]) and all(text[:1].isupper() for text, _ in said[capital]) \
            and bool({who for _, who in said[small]} & {who for _, who in said[capital]})
    return bool(said.get(a) and said.get(b)) and (apart(a, b) or apart(b, a))


def _made_plural(chat: Chat, name: str) -> bool:
    """Whether the chat names several people by ``name`` made plural: "the Okafors", "two Mrs McCanns", "the Joneses"
    (not "Dr Peters", one person)."""
    return name + "s" in chat.families or name + "es" in chat.families


def _skeleton(short: str, name: str) -> bool:
    """Whether ``short`` is ``name`` with its vowels and some consonants dropped, first and last
    letters kept ("dbn" of durban, "mcr" of manchester, "jnr" of junior)."""
    return not re.search(r"[aeiou]", short) and 3 <= len(short) <= 4 and len(name) >= 2 * len(short) \
        and name[0] == short[0] and name[-1] == short[-1] and re.fullmatch(".*".join(map(re.escape, short)), name) \
        is not None


def _clipped(short: str, name: str, chat: Chat) -> bool:
    """Whether ``short`` is the start of ``name`` with -s or -z put on, a pet form English makes
    of many a name ("jules" of juliet, "baz" of barry); not the plural of a name the chat uses."""
    stem = short[:-1]
    return short[-1:] in ("s", "z") and len(stem) >= 2 and name.startswith(stem) and len(name) >= len(stem) + 2 \
        and not name.startswith(short) and stem not in chat.mentions


#: Words after a name that make it the subject: "hughes never decides", "keller says".
_SUBJECT_OF = SAYING | frozenset("is was has had will would can could never always just still also".split())


def _said_alone(chat: Chat, name: str) -> bool:
    """Whether a word stands as a clause of its own, as an answer does ("yeah, lindqvist."), or
    opens a sentence as the subject of what follows ("bob hughes. hughes never decides")."""
    for m, s, _ in chat.mentions.get(name, []):
        ts = chat.tokens[m]
        if s < 0 or (s > 0 and ts[s - 1].end not in CLOSING):
            continue
        if ts[s].end in CLOSING or (not ts[s].end and s + 1 < len(ts) and ts[s + 1].key in _SUBJECT_OF):
            return True
    return False


def _prefix_of_two(short: str, chat: Chat, nick: dict[str, frozenset[str]]) -> bool:
    """Whether the chat uses two names of one word that ``short`` begins and that part at once
    after it without being one name (each other's nickname or pet form, one a longer spelling of
    the other): "nik" of nikhil and of nikita, not "mel" of melanie and melany."""
    longer = [n for n in chat.mentions if " " not in n and n != short and n.startswith(short)
              and n[len(short):] not in _SUFFIXES]

    def one(x: str, y: str) -> bool:
        bx, by = _diminutive_base(x), _diminutive_base(y)
        return x in nick.get(y, ()) or x[len(short)] == y[len(short)] or y.startswith(bx) or x.startswith(by)

    return any(not one(x, y) for i, x in enumerate(longer) for y in longer[i + 1:])



#: The most names compared with each other for one shared beginning of a word or one shared word (pairs grow
#: with its square).
_LARGEST_BLOCK = 1000


def _capped(groups: Iterable[set[str]]) -> Iterable[set[str]]:
    return (group for group in groups if len(group) <= _LARGEST_BLOCK)


def _blocks(names: list[str]) -> Iterable[tuple[list[str], list[str]]]:
    """The groups of names :func:`comparable_pairs` compares within, each as its names of one word and its names
    of more: by the first three letters of each word (drawn out or not: "feeeenooo" beside "feno"), numbers
    aside, the names of more words compared with each other only where they share a whole word (every rule for
    two of them reads a word they share: "dr k" and "dr kowalczyk", "linda" and "linda park"); a group larger
    than :data:`_LARGEST_BLOCK` split by the whole word, and a whole word that many names share left out."""
    by_head: dict[str, set[str]] = defaultdict(set)
    by_word: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for word in name.split():
            if not word.isdigit():
                for head in {word[:3], unstretched(word)[:3]}:
                    by_head[head].add(name)
                if " " in name:
                    by_word[unstretched(word)].add(name)
    for head, group in by_head.items():
        if len(group) > _LARGEST_BLOCK:
            split: dict[str, set[str]] = defaultdict(set)
            for name in group:
                for word in name.split():
                    if head in (word[:3], unstretched(word)[:3]):
                        split[word].add(name)
            groups: Iterable[set[str]] = _capped(split.values())
        else:
            groups = [group]
        for alike in groups:
            yield sorted(n for n in alike if " " not in n), sorted(n for n in alike if " " in n)
    for alike in _capped(by_word.values()):
        yield [], sorted(alike)


def comparable_pairs(names: list[str], nick: dict[str, frozenset[str]], pair: _Pairing,
                     acronyms: Collection[str] = ()) -> list[tuple[str, str]]:
    """The pairs of names any rule could join, not every pair of a store's names: those with a word that begins with
    the same three letters, drawn-out letters aside (every rule that reads letters needs that much: a short form or
    a pet form keeps three letters at least, a spelling the same four, a surname, a title or more of the name a
    whole word), two names of several words only where they share one (:func:`_blocks`); an acronym, or a word of
    three or four letters with no vowel, and every name with a word of its first letter (initials, "dbn" of durban);
    a name and its nicknames, and a title's name and the names its word is a nickname of, when a word of each begins
    alike ("mr mike" and "michael": the pairs compared when every pair sharing a first letter was). Compared by
    first letters alone, 2,000 names of a store made 2.9 million pairs (34 CPU-s); 60,000, too many to finish. A
    number is no word of a name here, and where more than :data:`_LARGEST_BLOCK` names begin a word alike, only
    those sharing the whole word are compared, and none of a word that many share ("Person 1" to "Person 50000" of
    an imported log)."""
    by_letter: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for word in name.split():
            by_letter[word[0]].add(name)
    found: set[tuple[str, str]] = set()
    for singles, several in _blocks(names):
        found |= {pair(x, y) for i, x in enumerate(singles) for y in singles[i + 1:]}
        found |= {pair(x, y) for x in singles for y in several}
        if not singles:  # names of several words, sharing one
            found |= {pair(x, y) for i, x in enumerate(several) for y in several[i + 1:]}
    for short in names:
        if short in acronyms or (" " not in short and 3 <= len(short) <= 4 and not re.search(r"[aeiou]", short)):
            found |= {pair(short, y) for y in by_letter[short[0]] if y != short}
    known = set(names)
    found |= {pair(x, y) for x in names for y in nick.get(x, ()) if y in known and x != y}
    # "mr mike" and "michael" (a title and a nickname of the name): as when every pair sharing a first letter was
    # compared, and only then ("uncle rob" and "bob" never were: Rob and Bob are as often two people)
    found |= {pair(x, y) for x in names if " " in x for word in x.split()[1:] for y in nick.get(word, ())
              if y in known and x != y and {w[0] for w in x.split()} & {w[0] for w in y.split()}}
    return sorted(found)


def _by_name(found: list[tuple[str, int, int]]) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """A message's mentions (each name's together, as gathered) grouped by name in the order
    found: a pair of names is then walked spot by spot without passing every spot of the same
    name (one message naming someone ten thousand times took seconds, quadratic in its mentions),
    in the order the whole walk had."""
    grouped: dict[str, list[tuple[str, int, int]]] = {}
    for spot in found:
        grouped.setdefault(spot[0], []).append(spot)
    return list(grouped.items())


#: More names than this in one message: its usage says nothing of who is who (the most in a
#: labelled chat here is under 20).
_MOST_NAMES = 200


def evidence_from_usage(chat: Chat, evidence: dict[tuple[str, str], Evidence], pair: _Pairing) -> None:
    """Evidence from how names are used: corrections, naming, the same relation word, a speaker's
    short name used by the other speaker."""
    messages = chat.messages
    in_message: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for key, spots in chat.mentions.items():
        for m, start, stop in spots:
            in_message[m].append((key, start, stop))
    for m, found in in_message.items():
        if len(found) > _MOST_NAMES:
            continue  # a message of thousands of names is no one talking: its pairs of spots were quadratic
        text = messages[m].text.lower()
        calls = re.search(r"\bcall(?:s|ed)?\s+(?:him|her)\b", text) is not None
        groups = _by_name(found)
        partners: dict[str, list[tuple[str, int, int]]] = {}  # a name's: the spots of the names it has evidence with
        for a, sa, ea in found:
            if a not in partners:  # once a name, not once a spot: thousands of names in a message were quadratic
                partners[a] = [spot for name, spots in groups if a < name and pair(a, name) in evidence
                               for spot in spots]
            for b, sb, eb in partners[a]:
                both = pair(a, b)
                first, second = ((a, sa, ea), (b, sb, eb)) if sa < sb else ((b, sb, eb), (a, sa, ea))
                if first[2] == second[1] and chat.tokens[m][first[2] - 1].end in (".", ","):
                    evidence[both].add(0.4, f"“{first[0]}” corrected to “{second[0]}” at once", [messages[m].id])
                elif calls and first[2] <= second[1]:
                    evidence[both].add(0.3, "both given as one person's name in one message", [messages[m].id])
        for quoted in re.finditer(r"\b([a-z][a-z ]{1,40}?)\s+(?:is|was)\s+called\s+([a-z]+)", text):
            x, y = name_key(quoted.group(1)), name_key(quoted.group(2))
            for name in chat.mentions:
                if x.endswith(name) and " " in name and y in chat.mentions:
                    evidence[pair(name, y)].add(0.7, f"“{quoted.group(0)}”", [messages[m].id])
    relation_of: dict[str, set[str]] = defaultdict(set)
    for ts in chat.tokens:
        for j, t in enumerate(ts[1:], 1):
            if ts[j - 1].key in RELATION_WORDS and not ts[j - 1].end and t.key in chat.mentions:
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
            if users and speaker not in users and short != speaker and speaker.startswith(short[:2]) and not (
                    len(short) > len(speaker) and _someones(chat, short)):
                # (not a longer name said as someone's: "his college girlfriend priyanka", said by Dev, is no name of
                # Priya's: a new user's)
                ev.add(0.3, f"{short} is used for {chat.speakers[speaker]} only by {_who(chat, users)}")


def _who(chat: Chat, users: Iterable[str | None]) -> str:
    """Who used a name, for a reason: "the other speaker" of two; of a group's, their names ("Mam and Podge")."""
    if len(chat.speakers) <= 2:
        return "the other speaker"
    names = sorted(chat.speakers.get(user, user) for user in users if user)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: Words before a name that make it someone else's relative: "his girlfriend priyanka", "their son".
_WHOSE = frozenset("his her their its".split())


def _someones(chat: Chat, name: str) -> bool:
    """Whether ``name`` is said somewhere right after a relation word that "his", "her" or "their" owns ("his college
    girlfriend priyanka"): someone's relative, not a participant."""
    for m, start, _ in chat.mentions.get(name, []):
        before = [t.key for t in chat.tokens[m][max(0, start - 3):start]]
        if before and before[-1] in RELATION_WORDS and any(w in _WHOSE for w in before[:-1]):
            return True  # (not "sister nalini mistry!!", a title said to her: b9)
    return False


def evidence_corrected(chat: Chat, evidence: dict[tuple[str, str], Evidence], pair: _Pairing) -> None:
    """A name put right by the one who wrote it, opening their next message: "zee says mieka ..."
    then "mieke sorry", "eefa" then "i mean aoife", "ELLIE" then "sorry eilidh". The name put
    right is the one of the message before spelt most like the new one, a place only as a place."""
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
        if new.key not in names_in[m] or (plain_english(new.key) and new.key not in chat.sure):
            continue  # "the power couple 💪" then "sorry wrong chat lol": a word, no name put right (a new user's)
        before = sorted(names_in[m - 1] - {new.key}, key=lambda x: (_edits(x, new.key), x))
        if not before or (len(before) > 1 and _edits(before[0], new.key) > len(new.key) // 2) or \
                is_place(before[0]) != is_place(new.key):
            continue  # "… like ukraine", then "tahmena sorry I did not answer": no place is put right as a person
        evidence[pair(before[0], new.key)].add(0.6, f"“{before[0]}” put right as “{new.key}”",
                                               [chat.messages[m - 1].id, chat.messages[m].id])


#: Words before a place, not before a name one calls someone by: "neither is in Chile." addresses no Chileshe (a
#: known place only: "what u up to Femi?" calls Olufemi Femi, a reviewer's).
_PLACE_WORDS = frozenset("in to from at".split())


def evidence_addressed(chat: Chat, evidence: dict[tuple[str, str], Evidence], pair: _Pairing) -> None:
    """A short form of a speaker's name that only the other speaker uses, to address them ("oh
    ol.", "han i wouldn't miss it"); its end too, of three letters or more ("oh Nês. I'm sorry", to Inês: a new
    user's)."""
    for speaker in chat.speakers:
        first = speaker.split()[0]
        for short, spots in chat.mentions.items():
            if " " in short or short == speaker or len(short) < 2 or not (
                    speaker.startswith(short) or _clipped(short, speaker, chat) or (
                        len(short) >= 3 and first.endswith(short) and first != short)):
                continue
            users = {chat.speaker(m) for m, _, _ in spots}
            if not users or speaker in users:
                continue
            called = [m for m, s, _ in spots if s == 0 or (chat.tokens[m][s].end in CLOSING and (
                          chat.tokens[m][s - 1].end or chat.tokens[m][s - 1].key not in _PLACE_WORDS
                          or not is_place(short)) and not _gone_to(chat.tokens[m], s))
                      or chat.tokens[m][s - 1].key in ("oh", "hey", "hi", "hello", "dear")]
            if called:
                callers = {chat.speaker(m) for m in called}
                calls = "calls" if len(callers) == 1 else "call"
                said = f"{_who(chat, callers)} {calls} {chat.speakers[speaker]} {short}"
                evidence[pair(short, speaker)].add(0.6, said, [chat.messages[m].id for m in called[:3]])


def _gone_to(ts: list[_Token], s: int) -> bool:
    """Whether the word at ``s`` is where one goes or stays: "before i go to aus!!" (a new user's: Australia, not
    Aunty), "im off to aus!!" (a reviewer's; not "reach out to Jen!", "visiting Jen!!": a second's)."""
    return s >= 2 and ts[s - 1].key in ("to", "in") and not ts[s - 2].end and not ts[s - 1].end \
        and ts[s - 2].key in _GOING


#: Verbs of going or staying somewhere, before "to" or "in" and a place: "go to aus", "moving to bris", "off to aus",
#: "stay in aus".
_GOING = frozenset("go goes going gone went move moves moving moved fly flies flying flew back head heading headed "
                   "travel travelling traveling drive driving trip land landed arrive arrived come comes coming came "
                   "off stay staying stayed live living lived".split())


#: Words that may follow a speaker's own name after "i'm": "i'm sami here", "im sami btw".
_AFTER_OWN_NAME = frozenset("here btw lol haha from by".split())


def self_named(ts: list[_Token], start: int, stop: int) -> bool:
    """Whether the name at ``ts[start:stop]`` is its writer's own: "i'm sami.", "i am sami btw",
    "sami here!" opening a message; not "i'm sami's" nor "i'm sami's friend"."""
    if ts[stop - 1].whole != ts[stop - 1].key:
        return False  # a possessive: someone of that name's
    after = ts[stop].key if stop < len(ts) and not ts[stop - 1].end else None
    if start == 0:
        return after == "here" and ts[stop].end in _STATED
    before = ts[start - 1]
    opened = before.whole in ("i'm", "im") or (
        before.whole == "am" and start >= 2 and ts[start - 2].whole == "i" and not ts[start - 2].end)
    return opened and not before.end and (ts[stop - 1].end in _STATED or after in _AFTER_OWN_NAME)


#: What may close a name given as one's own: not a question ("dan here?" asks for Dan).
_STATED = CLOSING - {"?"}


def own_form(name: str, speaker: str, nick: dict[str, frozenset[str]]) -> bool:
    """Whether ``name`` could be a form of the speaker's own name: its start ("sami" of samira, "mo"
    of mohammed) or a nickname of it ("bob" of robert), never only a name with the same first letter
    ("i'm frank." by Fran, "i'm maria" in a costume by Maya)."""
    return speaker.startswith(name) or name in nick.get(speaker, ()) or speaker in nick.get(name, ())


def _speaker_named_apart(ts: list[_Token], speaker: str) -> bool:
    """Whether a message names its writer as someone else would ("i'm amy, ana's flatmate", by Ana):
    someone else is writing for them."""
    return any(t.key == speaker and not t.quoted for t in ts)


def evidence_self_named(chat: Chat, evidence: dict[tuple[str, str], Evidence], pair: _Pairing,
                        nick: dict[str, frozenset[str]]) -> None:
    """A speaker who gives a name as their own ("haha no. i'm sami. very different", by Samira): that
    name is theirs, when it could be a form of it (:func:`own_form`) and the message does not name them
    as someone else would ("hi i'm amy, ana's flatmate")."""
    for key, spots in chat.mentions.items():
        for m, s, e in spots:
            me = chat.speaker(m)
            if s < 0 or not me or key == me or chat.tokens[m][s].quoted or not self_named(chat.tokens[m], s, e):
                continue
            if own_form(key, me, nick) and not _speaker_named_apart(chat.tokens[m], me):
                evidence[pair(key, me)].add(0.7, f"{chat.speakers[me]} gives {key} as their own name",
                                            [chat.messages[m].id])




def evidence_called(chat: Chat, evidence: dict[tuple[str, str], Evidence], pair: _Pairing,
                    ambiguous: set[str]) -> None:
    """A name someone "calls him" or "calls her" ("vignesh ... everyone calls him vicky", "ruaridh"
    then "everyone calls him rory"): the one name of a person, with the same first letter, said
    before it in the message (not the caller, just before "calls"), else after it, else in the
    message before."""
    in_message: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for key, spots in chat.mentions.items():
        for m, s, e in spots:
            if s >= 0:
                in_message[m].append((key, s, e))

    def names_in(m: int, lo: int, hi: int) -> set[str]:
        ts, spots = chat.tokens[m], in_message.get(m, ())
        return {key for key, s, e in spots
                if lo <= s and e <= hi and not (s and ts[s - 1].key in PLACE_PREPOSITIONS)
                and not (e < len(ts) and ts[e].key in SAYING)  # "gwen says if she calls him": the caller
                and not any(s2 <= s and e <= e2 and e2 - s2 > e - s for _, s2, e2 in spots)}  # nor a word of a
        # longer name: "Sri Meenakshi Flower Traders. Muthupandi is the owner, we all call him Muthu anna"

    words = {t.key for ts in chat.tokens for t in ts}  # "meetings" beside "meeting": a plural, no name
    for m, ts in enumerate(chat.tokens):
        for j in range(len(ts) - 2):
            if ts[j].key not in CALLING or ts[j].end or ts[j + 1].key not in ("him", "her") or ts[j + 1].end:
                continue
            called = [k for k, s, e in in_message.get(m, ()) if s == j + 2]
            if not called:
                continue
            x = max(called, key=len)
            stop = j + 2 + len(x.split())
            if x in ambiguous or x in chat.speakers:
                continue

            def fits(name: str, x: str = x) -> bool:
                answered = any(s == 0 and chat.tokens[k][0].end in CLOSING for k, s, _ in chat.mentions[name])
                return name != x and name[0] == x[0] and (name in chat.sure or answered) \
                    and name not in ambiguous and name not in chat.speakers \
                    and not (name.endswith("s") and name[:-1] in words) and x not in name.split() \
                    and name not in x.split()

            for found in (names_in(m, 0, max(j - 3, 0)), names_in(m, stop, len(ts)),
                          names_in(m - 1, 0, len(chat.tokens[m - 1])) if m else set()):
                whom = {n for n in found if fits(n)}
                if len(whom) == 1:
                    name = whom.pop()
                    evidence[pair(name, x)].add(0.6, f"{name} is called {x}",
                                                [chat.messages[k].id for k in (m - 1, m) if k >= 0])
                if whom:
                    break


#: When to call, after "call me": "call me later", "call me tomorrow".
_WHEN = frozenset("later tomorrow tonight soon sometime anytime asap whenever once twice".split())
#: What a speaker says after a name they are called that makes it no name of theirs: "keeps calling me abeba by
#: mistake", "called me emma instead of emily" (another's name).
_MISTAKEN = frozenset("mistake accident accidentally instead wrong wrongly mixes mixed mix confuses confused".split())
#: A verb right after the name: the name opens a clause of news, not a name of the speaker's ("mum called me
#: jonas is in hospital", "dad called me tomas got the job").
_CLAUSE_VERBS = frozenset("is was are were has had got gets will would can could did does said says".split())
#: Who may say "call me X" to the speaker's face: not a sentence opening with "call" ("call me ishmael", "call me
#: al", "she goes call me gaby": someone's words, a book's, a song's).
_CALLERS = frozenset("don't dont do can could to you u they people everyone everybody all friends".split())


def called_me(chat: Chat) -> dict[tuple[str, str], list[int]]:
    """The names speakers say they are called, with the messages saying so: "they're calling me "lucy"", "he calls
    me dato like every georgian", "don't call me Horváth" (by Losaline, Davit, Bence): (speaker, name) -> messages.
    Only a word the chat takes for a name elsewhere (not "call me tmrw", "called me twice"), of a speaker the chat
    names in its text, never a form of the other speaker's name nor one the message puts right ("stop calling
    me kate!! im KAREN"); not a name in someone else's words ("she says call me gaby", "he's all 'call me Dave'",
    "call me ishmael"), one called by mistake ("keeps calling me abeba by mistake"), one that opens a clause ("mum
    called me jonas is in hospital"), nor a word one calls anyone ("calls me mate") or a time to call ("call me
    later"). Linear in the chat's mentions (a message of thousands of "call me X" too)."""
    nick = nickname_table()[0]
    found: dict[tuple[str, str], list[int]] = defaultdict(list)
    starts: dict[int, dict[int, str]] = defaultdict(dict)  # message -> start -> the longest name there
    own: dict[int, set[str]] = defaultdict(set)  # message -> the names its writer gives as their own ("im KAREN")
    for key, spots in chat.mentions.items():
        for m, s, e in spots:
            if s >= 0 and len(key) > len(starts[m].get(s, "")):
                starts[m][s] = key
            if s >= 0 and self_named(chat.tokens[m], s, e):
                own[m].add(key)
    for m, names in starts.items():
        me, ts = chat.speaker(m), chat.tokens[m]
        if not me or not any(s >= 0 for _, s, _ in chat.mentions.get(me, ())):
            continue  # a speaker the chat never names in its text: no name of theirs to join it to
        others = [other for other in chat.speakers if other != me]
        for s, name in names.items():
            if name == me or name in chat.speakers or s < 2 or not (name in chat.sure or name in chat.named) \
                    or name in ADDRESS_WORDS or name in _WHEN or name in FUNCTION:
                continue
            call, word, stop = ts[s - 2], ts[s - 1], s + len(name.split())
            if word.key != "me" or call.key not in CALLING or call.end or word.end.strip(QUOTES) or call.quoted:
                continue  # not "guess who called me. pavlych." (a quote may open: 'calling me "lucy"')
            if call.key == "call" and (s < 3 or ts[s - 3].key not in _CALLERS or ts[s - 3].end):
                continue  # "call me X" said by someone: a book's first line, a song, a new boss
            if ts[stop - 1].quoted and not ts[stop - 1].end and stop < len(ts) and ts[stop].quoted:
                continue  # the first word of a longer nickname: "calls me "le touriste""
            if ts[stop - 1].whole != ts[stop - 1].key or (
                    not ts[stop - 1].end and stop < len(ts) and ts[stop].key in _CLAUSE_VERBS):
                continue  # someone of that name's ("called me jonas's ex"), or news of them
            if own[m] - {name}:
                continue  # "stop calling me kate!! im KAREN": the name put right
            if any(own_form(name, other, nick) and not own_form(name, me, nick) for other in others):
                continue  # "mum called me jon lol" by Emily, to Jonathan: his name, not hers
            before = [t.key for t in ts[max(s - 5, 0):s - 2]]
            after = [t.key for t in ts[stop:stop + 4]]
            if any(w in SAYING for w in before) or any(w in _MISTAKEN for w in after):
                continue
            found[(me, name)].append(m)
    return found


def evidence_called_me(chat: Chat, called: dict[tuple[str, str], list[int]],
                       evidence: dict[tuple[str, str], Evidence], pair: _Pairing, ambiguous: set[str]) -> None:
    """A name a speaker says they are called (``called``, :func:`called_me`'s) is theirs."""
    for (me, name), messages in called.items():
        if name not in ambiguous:
            evidence[pair(name, me)].add(0.7, f"{chat.speakers[me]} says they are called {name}",
                                         [chat.messages[m].id for m in messages])


def ambiguous_names(chat: Chat) -> set[str]:
    """Names the chat says stand for two: "two toms", "the other tom", "different sams", "which
    tom", "my sam" beside "your sam", "sam from work", and a name slipped for another person and
    corrected."""
    found: set[str] = set()
    possessed: dict[str, set[str]] = defaultdict(set)
    for ts in chat.tokens:
        for j, t in enumerate(ts):
            prev = ts[j - 1].key if j else ""
            nxt = ts[j + 1].key if j + 1 < len(ts) else ""
            singulars = {t.key[:-1]} if t.key.endswith("s") else set()
            if re.search(r"(?:s|sh|ch|x|z)es$", t.key):
                singulars.add(t.key[:-2])  # "two jesses", not "the two jones boys" (jon) or "hughes" (hugh)
            if prev in ("two", "different", "both", "three", "many"):
                found |= singulars & chat.mentions.keys()  # "two toms", "two jesses"
            if t.key in chat.mentions and prev in ("other", "another") and j >= 1:
                found.add(t.key)
            # "which dave?": asking which one means the name stands for more than one
            if t.key in chat.mentions and prev == "which" and not ts[j - 1].end:
                found.add(t.key)
            if t.key in chat.mentions and j and not ts[j - 1].end and (
                    prev in ("my", "your", "our") or (ts[j - 1].whole != prev and prev in chat.mentions)):
                possessed[t.key].add(ts[j - 1].whole)  # "our shay", "max's sophie": there is another
            if t.key in chat.mentions and nxt == "from" and j + 2 < len(ts) and \
                    ts[j + 2].key in ("work", "school", "uni", "college", "church", "the"):
                found.add(t.key)
    found |= {name for name, owners in possessed.items() if owners and any(
        spot for spot in chat.mentions[name] if not _qualified(chat, spot))}
    # a first name before two surnames stands for two people: "david fenwick" and "david hollis"
    surnames: dict[str, set[str]] = defaultdict(set)
    for key in chat.mentions:
        words = key.split()
        if len(words) == 2 and words[0] in chat.mentions and words[0] not in TITLES and len(words[1]) >= 3:
            surnames[words[0]].add(words[1])
    found |= {first for first, lasts in surnames.items()
              if any(not (x.startswith(y) or y.startswith(x)) for x in lasts for y in lasts)}
    # a slip corrected: X in one message, the same speaker's (or the other's) next message opens with Y
    for m in range(1, len(chat.tokens)):
        ts = chat.tokens[m]
        if not ts or ts[0].key not in chat.mentions:
            continue
        y = ts[0].key
        if len(chat.mentions[y]) < 2:
            continue
        before = {t.key for t in chat.tokens[m - 1]} & chat.mentions.keys()  # (not a set of every name per message)
        for x in before:
            if x != y and (_edits(x, y) <= 1 or x in nickname_table()[0].get(y, ())) and len(chat.mentions[x]) >= 3:
                later = [s for s in chat.mentions[x] if abs(s[0] - m) > 1]
                if later and (ts[0].end in (".", "$") or ts[0].text.isupper()):
                    found.add(x)
    return found


def _qualified(chat: Chat, spot: tuple[int, int, int]) -> bool:
    """Whether a mention is qualified by whose it is ("my sam", "max's sophie")."""
    m, start, _ = spot
    if start < 1:
        return False
    prev = chat.tokens[m][start - 1]
    return not prev.end and (prev.key in ("my", "your", "our") or (
        prev.whole != prev.key and prev.key in chat.mentions))


def _set_apart(ts: list[_Token], stops: list[int], ends: dict[int, list[int]], longest: int,
               sa: int, ea: int, sb: int, eb: int) -> bool:
    """Whether two spots of two names in one message set them apart: apart from each other, in
    one sentence, neither a correction of the other nor two words of one full name (``ends``:
    where each full name of the message stops, by where it starts; none is longer than ``longest``)."""
    lo, hi = min(sa, sb), max(ea, eb)
    if hi - lo <= longest and any(e >= hi for s in range(hi - longest, lo + 1) for e in ends.get(s, ())):
        return False  # two words of one full name ("michael" and "brennan" of "michael brennan")
    if not (ea <= sb or eb <= sa):
        return False
    first_end = min(ea, eb) - 1
    if ts[first_end].end in (".", ",") and abs(sa - sb) <= 2:
        return False  # "melany. melanie": a correction, not two people
    # two sentences may name one thing twice: "... to london. tfl have me ..."
    return stops[max(sa, sb)] <= stops[first_end]


def _touched(stops: list[int], start: int, stop: int) -> range:
    """The sentences a spot's tokens ``start:stop`` touch (``stops``: how many sentences end before
    each token)."""
    return range(stops[start], stops[stop - 1] + 1)


def _by_sentence(spots: list[tuple[str, int, int]], stops: list[int]) -> dict[int, list[tuple[int, int]]]:
    """A name's spots in one message by each sentence they touch."""
    found: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for _, s, e in spots:
        for k in _touched(stops, s, e):
            found[k].append((s, e))
    return found


def evidence_against(chat: Chat, called: Collection[tuple[str, str]] = ()) -> set[tuple[str, str]]:
    """Pairs the chat sets apart: two names set against each other in one message, two relation
    words for one person, a speaker naming someone else (not by a name ``called`` gives as theirs:
    :func:`called_me`'s (speaker, name) pairs)."""
    apart: set[tuple[str, str]] = set()

    def ordered(x: str, y: str) -> tuple[str, str]:
        return (x, y) if (len(x), x) <= (len(y), y) else (y, x)

    def add(x: str, y: str) -> None:
        apart.add(ordered(x, y))

    in_message: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for key, spots in chat.mentions.items():
        for m, start, stop in spots:
            if start >= 0:
                in_message[m].append((key, start, stop))
    for m, found in in_message.items():
        text = chat.messages[m].text.lower()
        if re.search(r"\bcall(?:s|ed|ing)?\s+(?:him|her|me)\b|\bcalled\b|\bname", text):
            continue
        ts = chat.tokens[m]
        stops = list(accumulate((t.end in (".", "!", "?") for t in ts), initial=0))  # sentence ends before each token
        groups = _by_name(found)
        ends: dict[int, list[int]] = defaultdict(list)  # where each full name starts: where it stops
        for _, s, e in found:
            if e - s > 1:
                ends[s].append(e)
        longest = max((e - s for _, s, e in found if e - s > 1), default=0)
        # Only two spots in one sentence set names apart (_set_apart): each name's spots by the
        # sentences they touch, so a spot is tried against those of its own sentence only (tried
        # against every spot, "NYC. New York. " 12,000 times took 96 s).
        by_sentence = {name: _by_sentence(spots, stops) for name, spots in groups}

        # Name by name, not spot by spot: a pair set apart once is not walked again, nor a pair
        # whose names share a word (a message of thousands of names took minutes, cubic in them).
        for a, spots_a in groups:
            for b, _ in groups:
                if not a < b or a in b.split() or b in a.split():
                    continue
                if ordered(a, b) in apart:
                    continue
                near = by_sentence[b]
                if any(_set_apart(ts, stops, ends, longest, sa, ea, sb, eb) for _, sa, ea in spots_a
                       for k in _touched(stops, sa, ea) for sb, eb in near.get(k, ())):
                    add(a, b)
    relations: dict[str, set[tuple[str, str]]] = defaultdict(set)  # name -> (relation, whose)
    for m, ts in enumerate(chat.tokens):
        me = chat.speaker(m)
        for j, t in enumerate(ts):
            if t.key not in chat.mentions or t.end == "$":
                continue  # a name closing a message may be the one spoken to: "she's your mum han"
            for k in (j - 1, j - 2):
                if k >= 1 and ts[k].key in RELATION_WORDS and ts[k - 1].key in ("my", "your"):
                    whose = me if ts[k - 1].key == "my" else ",".join(chat.others(m))
                    if whose:
                        relations[t.key].add((RELATION_WORDS[ts[k].key], whose))
                    break
            if j + 2 < len(ts) and t.end in ("", ",") and ts[j + 1].key in ("my", "your") \
                    and ts[j + 2].key in RELATION_WORDS:
                whose = me if ts[j + 1].key == "my" else ",".join(chat.others(m))
                if whose:
                    relations[t.key].add((RELATION_WORDS[ts[j + 2].key], whose))
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
    nick = nickname_table()[0]
    theirs = set(called)  # a name a speaker says they are called, said by them later, is theirs
    for speaker in chat.speakers:
        for key, spots in chat.mentions.items():
            own = own_form(key, speaker, nick)
            if key != speaker and (speaker, key) not in theirs and any(chat.speaker(m) == speaker for m, s, e in spots
                                      if s >= 0 and not chat.tokens[m][s].quoted  # not in someone's quoted words
                                      and not (own and self_named(chat.tokens[m], s, e))):  # nor "i'm sami", hers
                add(speaker, key)
    return apart
