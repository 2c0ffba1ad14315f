"""Look-alike names: entity names that are shown alike but key two entities.

One visible name is one entity as far as Unicode normalisation goes (:mod:`graphmem.core.names`), but
letters of other scripts can look like Latin ones: "Ivаn" with a Cyrillic а, "ΙVAN" with a Greek
Iota. Such a name is legitimate (a Russian or Greek name is not an attack), so it is not refused;
it is told. Two names *look alike* when their skeletons are equal, the skeleton of Unicode's
UTS #39 (Unicode Security Mechanisms, section 4): the text decomposed (NFD), each character
replaced by its prototype from Unicode's ``confusables.txt`` (shipped in ``graphmem/data`` with
its license), decomposed again. Each entity is compared through two skeletons: its id's (NFKC,
case folded) and its name's as shown, so "ΙVAN" meets "Ivan" (ι and i) and "AI" meets "Al" (I and l).

:class:`Skeletons` is the index a store keeps of its entities' skeletons, so a write compares a new
name with the names in the store by dictionary lookups, not by reading them all.

Internal: used by :class:`graphmem.Store` (the warning on a write, ``look_alikes``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from ..models import Entity

__all__ = ["Skeletons", "differing", "look_alike_groups", "look_alike_text", "look_alike_warning", "skeleton",
           "skeletons"]

_DATA = Path(__file__).resolve().parent / "data" / "confusables.txt"
#: A mapping line of confusables.txt: source code point ; prototype code points ; type.
_LINE = re.compile(r"^([0-9A-F]+) ;\t([0-9A-F ]+) ;", re.MULTILINE)


@cache
def _prototypes() -> dict[int, str]:
    """Each confusable character's prototype (code point -> text), read once from confusables.txt."""
    return {int(source, 16): "".join(chr(int(point, 16)) for point in target.split())
            for source, target in _LINE.findall(_DATA.read_text(encoding="utf-8-sig"))}


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character by its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_prototypes()))


def skeletons(entity_id: str, name: str) -> frozenset[str]:
    """What an entity (id and name as shown) looks like: its id's skeleton and its name's (after
    NFKC, without invisible format characters, as its id is made)."""
    if not name.isascii():  # (ASCII has no format characters and is its own NFKC)
        name = "".join(ch for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch) != "Cf")
    return frozenset((skeleton(entity_id), skeleton(name)))


def differing(name: str, other: str) -> list[str]:
    """The characters of ``name`` that ``other`` lacks in any case, named
    (``U+0430 CYRILLIC SMALL LETTER A``)."""
    theirs = set(unicodedata.normalize("NFD", other.casefold()))
    found = dict.fromkeys(ch for ch in unicodedata.normalize("NFD", name)
                          if not ch.isspace() and not set(unicodedata.normalize("NFD", ch.casefold())) <= theirs)
    return [f"U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED CHARACTER')}" for ch in found]


def look_alike_warning(name: str, others: list[Entity]) -> str:
    """What a write is told when it created an entity named ``name`` that looks like ``others``."""
    named = differing(name, others[0].name)
    has = f" (it has {', '.join(named[:3])}{', ...' if len(named) > 3 else ''})" if named else ""
    shown = " and ".join(repr(o.name) for o in others)
    return (f"the new entity {name!r}{has} looks like the entity {shown} but is another one; "
            f"to mean {'that one' if len(others) == 1 else 'one of those'}, write its name as it is written")


def look_alike_text(group: list[Entity]) -> str:
    """A group of look-alike entities on one line: each name (quoted and escaped), with the
    characters it has that the first lacks."""
    first = group[0].name
    return ", ".join(repr(e.name) + (f" ({', '.join(named)})" if (named := differing(e.name, first)) else "")
                     for e in group)


class Skeletons:
    """The skeletons of a store's entities: skeleton -> the ids of the entities that have it."""

    def __init__(self, entities: Iterable[tuple[str, str]] = ()):
        self.ids: dict[str, set[str]] = {}
        for entity_id, name in entities:
            self.add(entity_id, name)

    def add(self, entity_id: str, name: str) -> set[str]:
        """Index an entity; return the ids of the other entities it looks like."""
        alike: set[str] = set()
        for shape in skeletons(entity_id, name):
            held = self.ids.setdefault(shape, set())
            alike |= held
            held.add(entity_id)
        alike.discard(entity_id)
        return alike


def look_alike_groups(entities: Iterable[Entity]) -> list[list[Entity]]:
    """The groups of two or more entities whose names look alike (share a skeleton), each sorted
    by id, in id order of their first member."""
    by_id = {e.id: e for e in entities}
    index = Skeletons()
    parent: dict[str, str] = {}

    def root(entity_id: str) -> str:
        while parent.get(entity_id, entity_id) != entity_id:
            entity_id = parent[entity_id]
        return entity_id

    for entity_id in sorted(by_id):
        for other in index.add(entity_id, by_id[entity_id].name):
            parent[root(other)] = root(entity_id)
    groups: dict[str, list[Entity]] = {}
    for entity_id in sorted(by_id):
        groups.setdefault(root(entity_id), []).append(by_id[entity_id])
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: g[0].id)
