"""Which names may be one entity: candidate pairs and the evidence for each, from what was said.

``alias suggest`` proposes, it never merges: each pair comes with the reasons a reviewer can
check. The rules are pure functions over messages (text, speaker, id) and the store's entity
names; what counts as evidence:

- **which words are names**: words used where names go (the subject of "says", after "how's"
  or "hey", beside "and", after a title or relation word), never a word the chat puts after
  "the" or "my" a third of the time ("my life", "the court"); where a writer capitalises names,
  a word they write in lower case is not one and a word they capitalise is; accents folded; a
  plain English word ("book", "news": often in English, never capitalised in the chat, no name the
  data knows) is no form of a name by its letters, unless it is a speaker's pet name ("sunny"), and
  nor is a month the chat says as one ("in june": no nickname of "junior");
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
  short form of a speaker's name used only by the other speaker ("han", "ol", "caz"), a speaker
  giving a form of their own name as theirs ("i'm sami.", "mo here!"), a name
  someone "calls him" joined to the one name of its initial said around it ("vignesh ...
  everyone calls him vicky"), a person described and named in one message ("the walking man.
  his name is hemi"), a name clipped with -s or -z ("debs", "lows").

Precision comes first, so evidence *against* a pair removes it:

- names set against each other in one message ("dan your boss or danny your brother", "kat
  with no h ... kath with an h");
- a name said to be some other relation of the same person ("my boss dan", "my brother
  danny"), and a speaker naming someone else (Hannah writing "sue" is not talking about
  herself, unless she gives it as hers: "i'm sami." by Samira; "your mum susan" is not the person
  addressed);
- a name the chat says stands for two ("two toms", "the other tom", "different sams", "which
  dave", "sam from work", "my sam", "our shay", "max's sophie" beside a bare "sophie"), and a name slipped for
  another person and corrected ("tell bob hi" / "ROB. tell ROB hi") that is also used
  elsewhere: such a name is no one's alias.

Pairs are then joined greedily, strongest first, into groups that no evidence against splits;
a pair with evidence of its own is suggested when its group keeps it (one joined only through
others is not: accepting the pairs it goes through makes it one).

Where: :mod:`graphmem.core._alias_chat` reads the chat and decides which words are names;
:mod:`graphmem.core._alias_rules` weighs the evidence for and against a pair; this module joins
the pairs into groups and answers ``suggest`` and ``candidates``.

Internal: :mod:`graphmem.read.alias_suggestions` gathers the store's messages and names for it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import count

from ._alias_chat import (
    ADDRESS_WORDS,
    AFTER_TITLES,
    CONNECTORS,
    TITLES,
    TITLES_TOO,
    Chat,
    Message,
    english_counts,
    nickname_table,
    plain_english,
    read_chat,
)
from ._alias_chat import FUNCTION as COMMON_WORDS
from ._alias_named import evidence_described
from ._alias_rules import (
    Evidence,
    _edits,
    ambiguous_names,
    called_me,
    comparable_pairs,
    evidence_addressed,
    evidence_against,
    evidence_called,
    evidence_called_me,
    evidence_corrected,
    evidence_from_names,
    evidence_from_usage,
    evidence_self_named,
)

__all__ = ["ADDRESS_WORDS", "COMMON_WORDS", "TITLE_WORDS", "Message", "Pair", "candidates", "english_counts",
           "nickname_table", "plain_english", "suggest"]

#: Words that make a word beside them someone's name, and are none themselves: "aunty" of "aunty Tina", "mrs",
#: "tante", "san" ("kenji san").
TITLE_WORDS = TITLES | TITLES_TOO | AFTER_TITLES


@dataclass(frozen=True)
class Pair:
    """Two names that may be one entity, the strength of the evidence, why, and where it shows."""

    a: str
    b: str
    score: float
    reasons: tuple[str, ...]
    episodes: tuple[str, ...]


def candidates(messages: Sequence[Message], known: Iterable[str] = ()) -> list[str]:
    """Every name the rules consider: the words and phrases of the ``messages`` used as names,
    and the store's entity names ``known``, as the chat writes them."""
    chat = read_chat(messages, list(known))
    return sorted({_shown(chat, key) for key in chat.mentions}, key=str.lower)


def suggest(messages: Sequence[Message], known: Iterable[str] = (), *, threshold: float = 0.5) -> list[Pair]:
    """The pairs of names the ``messages`` (and the store's entity names, ``known``) give evidence
    for, strongest first (see the module's docstring)."""
    known = list(known)
    chat = read_chat(messages, known)
    nick, _ = nickname_table()
    names = sorted(chat.mentions)
    ambiguous = ambiguous_names(chat)
    called = called_me(chat)
    against = evidence_against(chat, called)
    evidence: dict[tuple[str, str], Evidence] = defaultdict(Evidence)

    def pair(x: str, y: str) -> tuple[str, str]:
        return (x, y) if (len(x), x) <= (len(y), y) else (y, x)

    def where(key: str) -> list[str]:
        return chat.in_order({messages[m].id for m, _, _ in chat.mentions.get(key, [])})

    # a plain English word is no form of a name by its letters ("boo" of "book"), but for a speaker's ("sunny")
    plain = chat.plain_words
    months = chat.months - set(chat.speakers)  # a month said as one is no name by its letters ("june" of "junior")
    for a, b in comparable_pairs(names, nick, pair, chat.acronyms):
        if (a in plain or b in plain) and a not in chat.speakers and b not in chat.speakers \
                and not _pet_of_plain(a, b, plain):
            continue
        if a in months or b in months:
            continue
        found = evidence_from_names(a, b, nick, chat)
        if found is None and len(a) == len(b):
            found = evidence_from_names(b, a, nick, chat)
        if found:
            evidence[(a, b)].add(found[0], found[1], where(a)[:2] + where(b)[:2])
    _initials_of_one(evidence)
    evidence_from_usage(chat, evidence, pair)
    evidence_corrected(chat, evidence, pair)
    evidence_addressed(chat, evidence, pair)
    evidence_called(chat, evidence, pair, ambiguous)
    evidence_called_me(chat, called, evidence, pair, ambiguous)
    evidence_self_named(chat, evidence, pair, nick)

    def described(x: str, y: str, weight: float, reason: str, episodes: list[str]) -> None:
        evidence[pair(x, y)].add(weight, reason, episodes)

    evidence_described(chat, described)
    for a, b in list(evidence):
        if (a, b) in against or a in ambiguous or b in ambiguous or (a in TITLES_TOO and b.startswith(a + " ")):
            del evidence[(a, b)]  # (the last: "oom" said alone and "oom gerrit": a title, and someone with it)
    return _grouped(chat, evidence, against, ambiguous, threshold)


def _initials_of_one(evidence: dict[tuple[str, str], Evidence]) -> None:
    """Initials that two names of the chat share ("tru" of "teuila reyes" and of "tito rodel") are evidence for
    neither: their letters alone were all that joined them. Where the letters spell one name whole and the other
    with a letter more ("smc": "shirak medical center", "suren manukyan" and a c), the whole one keeps them; two
    spellings of one name ("jp": "jean-pierre", "Jean Piere") are not two names."""
    spelt: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for (a, b), ev in evidence.items():
        if ev.reasons[0].startswith(f"{a} is the initials of "):
            spelt[a].append((a, b))
    for letters, pairs in spelt.items():
        whole = [(a, b) for a, b in pairs if letters in _initials(b)]
        kept = whole if len(whole) < len(pairs) and whole else pairs
        spellings = [b.replace("-", " ") for _, b in kept]
        if any(_edits(spellings[0], other) > 2 for other in spellings[1:]):
            kept = []  # "jpm": "jean paul martin" and "jean pierre moreau" are two, not one spelt two ways
        for key in pairs:
            if key not in kept:
                del evidence[key]


def _initials(name: str) -> tuple[str, str]:
    """A name's initials, of every word and of every word but the connectors ("of", "the")."""
    words = name.replace("-", " ").split()
    return "".join(w[0] for w in words), "".join(w[0] for w in words if w not in CONNECTORS)


#: Endings that make a pet form of a name.
_PET_ENDINGS = frozenset({"ie", "y", "ey", "sy", "sie", "o"})


def _pet_of_plain(a: str, b: str, plain: set[str]) -> bool:
    """A pet form made of a plain word that is a name too: "dawnie" of "dawn", "gracey" of "grace" (a reviewer's
    find), where the pet form is no plain word itself ("party" of "part" is)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return short in plain and long not in plain and long[len(short):] in _PET_ENDINGS and long.startswith(short)


def _grouped(chat: Chat, evidence: dict[tuple[str, str], Evidence], against: set[tuple[str, str]],
             ambiguous: set[str], threshold: float) -> list[Pair]:
    """Join the pairs strongest first into groups nothing sets apart; every pair with evidence of its own
    that its group keeps."""
    group: dict[str, int] = {}
    members: dict[int, set[str]] = {}
    against_of: dict[str, set[str]] = defaultdict(set)
    for x, y in against:
        against_of[x].add(y)
        against_of[y].add(x)

    def apart(xs: set[str], ys: set[str]) -> bool:
        small, large = (xs, ys) if len(xs) <= len(ys) else (ys, xs)
        return any(not against_of[x].isdisjoint(large) for x in small if x in against_of)

    ranked = sorted(((ev.score + _closeness(a, b), a, b) for (a, b), ev in evidence.items() if ev.score >= threshold),
                    reverse=True)
    ids = count()
    for _, a, b in ranked:  # the smaller group joins the larger (a copy of both per join was quadratic)
        ga, gb = group.get(a), group.get(b)
        if ga is not None and ga == gb:
            continue
        xs = members[ga] if ga is not None else {a}
        ys = members[gb] if gb is not None else {b}
        if apart(xs, ys):
            continue
        if len(xs) < len(ys):
            (ga, xs), (gb, ys) = (gb, ys), (ga, xs)
        if ga is None:  # two names of no group yet
            ga = next(ids)
            members[ga] = xs
            group.update(dict.fromkeys(xs, ga))
        xs |= ys
        group.update(dict.fromkeys(ys, ga))
        if gb is not None:
            del members[gb]
    found: list[Pair] = []
    for (a, b), ev in evidence.items():  # a pair joined only through others is not suggested: accepting the pairs
        # it goes through makes it one (same-as is transitive)
        if ev.score >= threshold and a in group and group.get(b) == group[a]:
            found.append(Pair(_shown(chat, a), _shown(chat, b), round(min(ev.score, 1.0), 2), tuple(ev.reasons),
                              tuple(chat.in_order(ev.episodes))))
    for name, surfaces in chat.surface.items():
        distinct = list({s.lower(): s for s in surfaces}.values())
        if len(distinct) < 2 or name not in chat.mentions or name in ambiguous:
            continue
        spots = tuple(chat.in_order({chat.messages[m].id for m, _, _ in chat.mentions[name]})[:4])
        for i, x in enumerate(distinct):
            for y in distinct[i + 1:]:
                if not _accents_tell_apart(name, x, y):
                    found.append(Pair(x, y, 0.9, (f"{x} and {y} are one name spelt two ways",), spots))
    found.sort(key=lambda p: (-p.score, p.a.lower(), p.b.lower()))
    return found


def _accents_tell_apart(key: str, x: str, y: str) -> bool:
    """Whether two spellings of one unaccented ``key`` are two words, not one typed with and without its accents: each
    with accents of its own where they differ ("Vovó", grandmother, and "Vovô", grandfather; not "Fikrət müəllim" and
    "Fikret müəllim"), a word of two or three letters ("bà" and "ba", "día" and "dia", "Léa" and "Lea": there the
    accent is most of the word)."""
    differ = [(u, v) for u, v in zip(x.lower().split(), y.lower().split()) if u != v]
    return any(not (u.isascii() or v.isascii()) for u, v in differ) or len(key) <= 3


def _closeness(a: str, b: str) -> float:
    """A tie-break between pairs of equal evidence: how much of the longer name the shorter
    spells (kath and kathleen before kat and kathleen)."""
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return 0.1 * common / max(len(a), len(b))


def _shown(chat: Chat, key: str) -> str:
    """A name as the chat writes it: a speaker's as given, else the most common spelling not
    shouted in capitals (its key when only the store has it)."""
    if key in chat.speakers:
        return chat.speakers[key]
    surface = chat.surface.get(key)
    if not surface:
        return key
    quiet = [(n, s) for s, n in surface.items() if not (s.isupper() and len(s) > 1)]
    return max(quiet)[1] if quiet else surface.most_common(1)[0][0]
