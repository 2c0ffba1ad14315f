"""Words as recall compares them: folded, stemmed, without stop words.

A word is a run of letters and digits, read after Unicode NFKC normalisation and case folding
(``Ｉｖａｎ`` is ``ivan``, ``Xi'an`` is ``xi`` and ``an``), a Latin, Greek or Cyrillic one without its accents
(``Zoë`` is ``zoe``, ``Łódź`` is ``lodz``). A combining mark ends a word, as the message index's full-text
tokenizer (SQLite FTS5's ``unicode61``) reads it: "प्रिया" is the words "प", "र", "य" on both sides. Words are
compared by their English Snowball stem (``travelled``, ``traveled`` and ``travel`` meet), an irregular
form by its base's (``sold`` and ``sell``, ``went`` and ``go``: :func:`term`), and stop words (articles,
pronouns, auxiliaries, prepositions, question words) carry no weight. Synonym phrases and a question's verbs
are compared by the Snowball stem alone (:func:`stem`).

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

import gzip
import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import snowballstemmer

from ..core.names import without_accents

__all__ = ["SAYING", "Token", "found_by", "is_stop", "name_terms", "predicate_words", "stem", "term", "terms", "tokens"]

#: Words of saying and asking: "what did I say about pottery" asks of pottery, not of a fact whose sentence has "said".
SAYING = frozenset({"say", "said", "says", "tell", "told", "tells", "mention", "mentioned", "mentions", "talk",
                    "talked", "talking", "ask", "asked", "chat", "chatted", "message", "messages", "text",
                    "texted", "remember", "recall", "know"})

_WORD = re.compile(r"[^\W_]+")
_STEMMER = snowballstemmer.stemmer("english")

#: Words that say nothing about which fact is meant.
STOP_WORDS = frozenset("""
a about above after again against all am an and any are aren as at be because been before being
below between both but by can could did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in
into is isn it its itself just ll me more most my myself no nor not now of off on once only or other
our ours ourselves out over own re s same she should so some such t than that the their theirs them
themselves then there these they this those through to too under until up very was wasn we were
weren what when where which while who whom whose why will with won would y you your yours yourself
yourselves ve d m o ain let lets tell please anything something someone anyone
""".split())


class Token(NamedTuple):
    """One word of a text: its folded form and where it stands in the original text."""

    word: str
    start: int
    end: int


def fold(text: str) -> str:
    """NFKC-normalised and case-folded text."""
    return unicodedata.normalize("NFKC", text).casefold()


#: Runs of the scripts written without spaces between words (Chinese characters, Japanese kana): each is read as
#: its overlapping pairs of characters, as a search engine's CJK analysers read them ("我住在上海" holds "上海").
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def tokens(text: str) -> list[Token]:
    """The words of ``text``, folded, with their positions in ``text`` itself; a run of Chinese characters or kana as
    its pairs of characters (:data:`_UNSPACED`)."""
    found = []
    for match in _WORD.finditer(text):
        for word in _WORD.findall(fold(match.group())):  # folding may split a run (rarely)
            if word.isascii():
                found.append(Token(word, match.start(), match.end()))
                continue
            at = 0
            for run in _UNSPACED.finditer(word):  # "上海abc": the pairs, and the rest as a word
                if run.start() > at:
                    found.append(Token(_plain(word[at:run.start()]), match.start(), match.end()))
                chars = run.group()
                found.extend(Token(chars[n:n + 2], match.start(), match.end())
                             for n in range(max(len(chars) - 1, 1)))
                at = run.end()
            if at < len(word):
                found.append(Token(_plain(word[at:]), match.start(), match.end()))
    return found


@lru_cache(maxsize=65536)
def _plain(word: str) -> str:
    """A folded word without the accents of its Latin, Greek or Cyrillic letters ("zoë" is "zoe", "łódź" "lodz", "đà"
    "da"), as people type names either way, and as purge compares names (:func:`without_accents`)."""
    return "".join(_WORD.findall(without_accents(word))) or word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of a folded word (digits and non-Latin words come back unchanged): what synonym phrases
    and a question's verbs are compared by."""
    return _STEMMER.stemWord(word)


@lru_cache(maxsize=65536)
def term(word: str) -> str:
    """The stem a folded word is found by: :func:`stem`, or the stem of its base for an irregular form the stemmer
    cannot take back to it ("sold" is found by "sell", "went" by "go", "wives" by "wife"), and a family word as a
    child says it by the word ("mummy" by "mum": :data:`_FAMILIAR`)."""
    return stem(_FAMILIAR.get(word) or _irregular(word) or word)


def found_by(stemmed: str) -> str:
    """What a Snowball stem (a synonym's, say) is found by in texts: the stem of its base where it is an irregular
    form the stemmer leaves as it is ("went" -> "go", "children" -> "child"), else itself (stemming a stem again
    is no-op only mostly: "cours" would become "cour")."""
    base = _irregular(stemmed)
    return stem(base) if base else stemmed


#: A family word as a child says it, found by the word itself: "when did mum visit" finds "mummy lands saturday" (a
#: new user's; the stemmer keeps "mummi").
_FAMILIAR = {"mummy": "mum", "mommy": "mom", "mammy": "mam", "daddy": "dad", "granny": "gran", "grandpappy": "grandpa"}


def _irregular(word: str) -> str | None:
    """The one base of an irregular verb form or plural, where the word is nothing else: not a stop word ("is",
    "been"), nor a name ("drew", "rose"), nor a word of its own as well ("left", "thought", "saw"), nor a form the
    stemmer already takes back to its base."""
    if is_stop(word) or word in _names():
        return None
    base = _bases().get(word)
    return None if base is None or stem(base) == stem(word) else base


@lru_cache(maxsize=1)
def _bases() -> dict[str, str]:
    """Each English word that LemmInflect's lemma table (MIT) reads one way only, as a form of one other verb or
    noun: "sold" -> "sell", "wives" -> "wife" (its words that are their own lemma too, "left" -> "leave" and "left",
    are left out). The table (80,676 readings, ~0.1 s) is read from the package's files rather than through its
    import, which loads numpy and its models and, where spaCy is installed, imports spaCy to hook into it."""
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("graphmem's search needs the lemminflect package: pip install lemminflect")
    resources = Path(spec.submodule_search_locations[0]) / "resources"
    readings: dict[str, list[tuple[str, str]]] = {}
    with gzip.open(resources / "lemma_lu.csv.gz", "rt", encoding="utf-8") as lines:
        for line in lines:  # "sold,verb,sell", "saw,verb,see/saw"
            word, kind, bases = line.rstrip("\n").split(",")
            readings.setdefault(word, []).append((kind, bases.lower()))  # asked in lower case: "ph" is "ph", not "pH"
    own = {line.split(",")[0] for line in (resources / "lemma_overrides.csv").read_text(encoding="utf-8").splitlines()
           if line.strip() and not line.startswith("#")}  # each its own lemma ("her,NOUN,her")
    return {word: found[0][1] for word, found in readings.items()
            if len(found) == 1 and found[0][0] in ("verb", "noun") and "/" not in found[0][1]
            and found[0][1] != word and word not in own}


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    """The given names and nicknames of the ``nicknames`` data, lower case."""
    from ..core.alias_evidence import nickname_table

    return frozenset(nickname_table()[1])


def is_stop(word: str) -> bool:
    """True for a folded word that carries no weight."""
    return word in STOP_WORDS


def terms(text: str) -> list[str]:
    """The stems of the words of ``text`` that carry weight, in order (repeats kept)."""
    return [term(t.word) for t in tokens(text) if not is_stop(t.word)]


@lru_cache(maxsize=131072)
def name_terms(name: str) -> tuple[str, ...]:
    """:func:`terms` of a name, remembered: the same names come back with every fact about them."""
    return tuple(terms(name))


@lru_cache(maxsize=4096)
def predicate_words(predicate: str) -> tuple[str, ...]:
    """The stems a predicate's name contributes: ``lives_in`` gives ``live``."""
    return tuple(terms(predicate.replace("_", " ")))
