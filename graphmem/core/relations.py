"""Who is whose what: the relation words, the predicates that store them, and how they turn around.

A relation is a fact about two people that reads **PERSON is WORD of OF**: ``Mel -[sister_of]->
Maya`` is "Mel is Maya's sister"; ``Carmen -[mother_of]-> Maya`` is "Carmen is Maya's mother"
(the parent is always the subject of ``mother_of`` / ``father_of`` / ``parent_of``, the child of
``son_of`` / ``daughter_of`` / ``child_of``). The store keeps the direction it was told; reads
that ask "who is Maya's X" also look the other way round, where the word turned around is
certain (Maya ``cousin_of`` Luke makes Luke Maya's cousin; Maya ``sister_of`` Mel says Mel is
Maya's sibling, not whether a sister or a brother).

The words are a fixed vocabulary (:data:`RELATIONS`), each with a predicate ``WORD_of``; a wider
word covers the narrower ones when asked ("sibling" finds sisters and brothers). Pure data and
functions: no database in sight.

Internal: the extractors, the gate and the reads use it; users see the predicates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["EVERYDAY", "RELATIONS", "RELATION_PREDICATES", "covers", "inverse", "is_stand_in", "predicate_of",
           "relation_of", "relative_word", "shown_name"]

#: The relation words, in the order they are listed to users.
RELATIONS: tuple[str, ...] = (
    "mother", "father", "parent", "sister", "brother", "sibling",
    "husband", "wife", "partner", "boyfriend", "girlfriend", "ex",
    "son", "daughter", "child", "grandmother", "grandfather", "grandchild",
    "aunt", "uncle", "cousin", "niece", "nephew", "in_law",
    "friend", "coworker", "boss", "roommate", "neighbour",
)

#: Each word's predicate.
RELATION_PREDICATES: dict[str, str] = {word: f"{word}_of" for word in RELATIONS}
_WORD_OF = {predicate: word for word, predicate in RELATION_PREDICATES.items()}

#: What OF is to PERSON when PERSON is WORD of OF, where that is certain without knowing OF's sex
#: (None: it is not: a grandchild's grandparent, an aunt's niece or nephew, a boss's report).
_INVERSE: dict[str, str | None] = {
    "mother": "child", "father": "child", "parent": "child",
    "son": "parent", "daughter": "parent", "child": "parent",
    "sister": "sibling", "brother": "sibling", "sibling": "sibling",
    "husband": "partner", "wife": "partner", "partner": "partner",
    "boyfriend": "partner", "girlfriend": "partner", "ex": "ex",
    "grandmother": "grandchild", "grandfather": "grandchild", "grandchild": None,
    "aunt": None, "uncle": None, "niece": None, "nephew": None,
    "cousin": "cousin", "in_law": "in_law", "friend": "friend", "coworker": "coworker",
    "boss": None, "roommate": "roommate", "neighbour": "neighbour",
}

#: The narrower words a wider word covers when asked.
_COVERS: dict[str, frozenset[str]] = {
    "parent": frozenset({"mother", "father"}),
    "child": frozenset({"son", "daughter"}),
    "sibling": frozenset({"sister", "brother"}),
    "partner": frozenset({"husband", "wife", "boyfriend", "girlfriend"}),
}


#: The everyday words and phrases for each relation word, folded ("mum", "hubby", "flatmate", "mother in law").
EVERYDAY: dict[str, tuple[str, ...]] = {
    "mother": ("mother", "mothers", "mom", "moms", "mum", "mums", "mama", "mommy", "mummy", "momma", "mam", "amma",
               "ammi"),
    "father": ("father", "fathers", "dad", "dads", "daddy", "papa", "pops"),
    "parent": ("parent", "parents", "folks"),
    "sister": ("sister", "sisters", "sis"),
    "brother": ("brother", "brothers", "bro"),
    "sibling": ("sibling", "siblings"),
    "husband": ("husband", "hubby"),
    "wife": ("wife",),
    "partner": ("partner", "spouse", "other half"),
    "boyfriend": ("boyfriend", "bf"),
    "girlfriend": ("girlfriend", "gf"),
    "ex": ("ex", "ex boyfriend", "ex girlfriend", "ex husband", "ex wife", "ex partner"),
    "son": ("son", "sons"),
    "daughter": ("daughter", "daughters"),
    "child": ("child", "children", "kid", "kids", "baby", "babies"),
    "grandmother": ("grandmother", "grandma", "granny", "gran", "nana", "nan", "grandmum", "grandmom", "nani", "dadi"),
    "grandfather": ("grandfather", "grandpa", "granddad", "grandad", "gramps"),
    "grandchild": ("grandchild", "grandchildren", "grandkid", "grandkids", "grandson", "granddaughter"),
    "aunt": ("aunt", "aunts", "auntie", "aunty", "masi", "mausi"),
    "uncle": ("uncle", "uncles", "chacha"),
    "cousin": ("cousin", "cousins"),
    "niece": ("niece", "nieces"),
    "nephew": ("nephew", "nephews"),
    "in_law": ("in law", "in laws", "inlaws", *(f"{w} in law" for w in (
        "mother", "father", "sister", "brother", "son", "daughter", "mothers", "fathers", "sisters", "brothers",
        "sons", "daughters", "parents"))),
    "friend": ("friend", "friends", "best friend", "bestie", "mate", "pal"),
    "coworker": ("coworker", "coworkers", "co worker", "colleague", "colleagues"),
    "boss": ("boss", "manager"),
    "roommate": ("roommate", "roommates", "flatmate", "flatmates", "housemate", "housemates"),
    "neighbour": ("neighbour", "neighbours", "neighbor", "neighbors"),
}
#: Everyday relation words that are as often a name or a nickname, said alone ("Baby", "Nana", "Bro", "Mama Rose"):
#: only "my baby", "your nana" are whose relative someone is.
_NAMES_TOO = frozenset("baby babies bro sis mate pal nan nana gran mama papa pops folks nani dadi chacha".split())
#: Words before a relation word that make it someone's: "my sister", "your mum".
_OWNERS = frozenset("my your our his her their".split())
_WORDS_OF: dict[tuple[str, ...], str] = {tuple(phrase.split()): word for word, phrases in EVERYDAY.items()
                                        for phrase in phrases}


def _words(name: str) -> tuple[str, ...]:
    # compatibility forms folded as entity names are ("ｍｕｍ" is "mum")
    return tuple(re.sub(r"[^\w' ]+", " ", unicodedata.normalize("NFKC", name).casefold().replace("’", "'")).split())


def relative_word(name: str, other: str = "", held: Iterable[str] = ()) -> str | None:
    """The relation word a name stands for when it is only whose relative someone is, else None: "my sister",
    "your mum" (another person to each speaker), or a relation word alone, or after "the" ("mum", "the hubby"),
    given as a name of someone who is that relative of someone: the stand-in of an unnamed one, ``other`` ("Jess's
    mother", "Jess' mother"), or one whose relation facts ``held`` are of that word, or of one covering it or
    covered by it ("Dad" of one believed someone's parent, "Parent" of one believed a mother).
    Not "Anna", "the baby" of Nour Mila (a chat's description of one person), "Mom" of "Sreymom" nor "Son" of
    "Son Heung-min"."""
    words = _words(name)
    if len(words) >= 2 and words[0] in _OWNERS:
        return _WORDS_OF.get(words[1:])
    alone = words[1:] if len(words) >= 2 and words[0] == "the" else words
    word = _WORDS_OF.get(alone)
    if word is None or " ".join(alone) in _NAMES_TOO:
        return None
    if _stand_in_word(other) == word:
        return word
    return word if any(covers(word, h) or covers(h, word) for h in held) else None


def _stand_in_word(name: str) -> str | None:
    """The relation word of an unnamed relative's stand-in ("Sam's brother": brother, "Jess' mother": mother), else
    None."""
    stand_in = re.fullmatch(r"\S.*'s? (\w+(?: \w+)*)", " ".join(_words(name)))
    return None if stand_in is None else _WORDS_OF.get(tuple(stand_in[1].split()))


def is_stand_in(name: str) -> bool:
    """Whether ``name`` is an unnamed relative's stand-in, whose relative someone is: "Sam's brother", "Jess' mother"
    (a name to show only when the person has no other)."""
    return _stand_in_word(name) is not None


def shown_name(names: list[str]) -> str:
    """The name a group of one entity's names is shown by: the first that is no unnamed relative's stand-in ("Tom"
    of "Sam's brother", "Tom"), else the first."""
    return next((name for name in names if not is_stand_in(name)), names[0])


def predicate_of(word: str) -> str:
    """The predicate that stores ``word`` (``sister`` -> ``sister_of``); KeyError for a word
    outside the vocabulary."""
    return RELATION_PREDICATES[word]


def relation_of(predicate: str) -> str | None:
    """The word a predicate stores, or None for a predicate that is not a relation."""
    return _WORD_OF.get(predicate)


def inverse(word: str) -> str | None:
    """What OF is to PERSON when PERSON is ``word`` of OF, or None where it depends on who OF is."""
    return _INVERSE[word]


def covers(asked: str, word: str) -> bool:
    """Whether a question asking for ``asked`` is answered by a relation stored as ``word``."""
    return asked == word or word in _COVERS.get(asked, frozenset())
