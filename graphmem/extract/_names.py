"""Given names as chat writes them in lower case ("how's danny?", "lucas moved again").

A lower-case word is taken for a name only where the words use it as one, and only when it is a
given name of the ``nicknames`` data (English names and their pet forms) that is not also an
everyday English word ("will", "may", "frank", "rose").

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

from functools import cache

from ._lexicon import NOT_NAMES, RELATIONS, is_place

__all__ = ["CASELESS", "LOWER", "MARKS", "UPPER", "is_given_name", "is_known_name", "is_name_written"]

_LATIN = [chr(point) for point in range(0xC0, 0x250)]
#: Greek, Cyrillic and Armenian, whose letters have case as Latin's do ("Наташа", "Άννα", "Ґанна", "Անի").
_CASED = [chr(point) for point in (*range(0x370, 0x530), *range(0x531, 0x588))]
#: Upper- and lower-case letters for a regular expression's class, the Latin alphabets' beyond ASCII
#: included, and the cased scripts': names are written with them ("Ólöf", "Øyvind", "matías and i", "Наташа").
UPPER = "A-Z" + "".join(c for c in _LATIN + _CASED if c.isupper())
LOWER = "a-z" + "".join(c for c in _LATIN + _CASED if c.islower())
#: The letters of scripts with no case, which may open a name where the words say one follows ("my friend ليلى",
#: "my sister 美玲"; not alone, where nothing tells a name from a word: "哈哈 moved to Leeds"): Hebrew, Arabic,
#: Devanagari, Thai (its vowels written first too), Georgian, Ethiopic, kana (half-width too), CJK and Hangul.
CASELESS = ("\u05d0-\u05ea\u0620-\u064a\u0671-\u06d3\u0904-\u0939\u0958-\u0961\u0e01-\u0e2e\u0e40-\u0e44"
            "\u10d0-\u10fa\u1200-\u135a\u3041-\u3096\u30a1-\u30fa\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3"
            "\uff66-\uff9d")
#: Marks that go on a letter inside a word, which ``\w`` leaves out ("प्रिया", "ลิซ่า", a Latin accent typed apart).
MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u064b-\u065f\u0900-\u0903\u093a-\u094f\u0951-\u0957"
         "\u0962\u0963\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\uff9e\uff9f")

#: Names of the ``nicknames`` data that a dictionary of English also lists as lower-case words
#: (the names in that data that are also in a common English word list, taken once).
_ALSO_WORDS = frozenset("""
abbey ado aline ally angel ant app art ash august barney basil bat beck bell belle berry bias biddy
bill billy birdie bob bobby brad brandy cage cal cam candy carol char charity charm chat chick chuck
cleat clement cliff con corny court crate crystal curt daisy day deb deliverance dell derrick dicey
dick dickie dicky dilly dolly don dot dotty drew dunk duty dyer earnest eddy eve experience faith
falcon fall fanny fate felicity fie field flick flora ford frank gabby garret gay gee gene ginger
glen glory gory governor green gum ham hank harry heather herb hob honey honor hop hub ivy jack
jasper jay jimmy jock john josh joy junior ken kill king kit laurel lea lee left levy lib life lily
link little lorry margarita maria mark martin mat matt max may meg melody mercy mickey middy midge
mike minty mock moss myrtle nanny nap nappy natty newt newton nib nick noel norm obedience ode olive
one paddy pat pate patience patsy patty peg penny peter philander phoebe pink pip pleasant pokey
pres prissy providence prudence randy ray raze relief rich rick rob rod roger rose rosemary rube
rusty sally salmon sandy savanna savannah see serene sherry silence sis sly smith sol sonny squat
sue sully tabby teeny temperance terry than tick tiff tine tom tony valentine van vest vet victor
viola waldo wash wen west will win wood woody zed
""".split())
#: Chat words and short forms the dictionary leaves out: "my nan", "a mac", "jan" (January), "the telly".
_CHAT_WORDS = frozenset("nan mac jan ola hap haps telly dutch lolly dal aga".split())


@cache
def _every_name() -> frozenset[str]:
    """Every name of the ``nicknames`` data, words of English among them."""
    from ..core.alias_evidence import nickname_table  # here: the data is read when a name is first asked

    _, known = nickname_table()
    return frozenset(known)


@cache
def _given_names() -> frozenset[str]:
    return frozenset(name for name in _every_name() if name.isalpha() and len(name) > 2
                     and name not in _ALSO_WORDS | _CHAT_WORDS and name not in NOT_NAMES
                     and name not in RELATIONS and not is_place(name))


def is_given_name(word: str) -> bool:
    """Whether a lower-case ``word`` is a known given name that is no everyday English word."""
    return word.islower() and word in _given_names()


def is_known_name(word: str) -> bool:
    """Whether ``word`` (any case) is a name of the ``nicknames`` data, English words among them
    ("clement", "will")."""
    return word.lower() in _every_name()


def is_name_written(word: str) -> bool:
    """Whether ``word`` is written as a given name: a capitalised name of the ``nicknames`` data
    ("Tom", "Will", even where the word is also an English one), or :func:`is_given_name`."""
    return is_given_name(word) or (word[:1].isupper() and word.lower() in _every_name())
