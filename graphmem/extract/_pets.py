"""Pets known by name across one conversation: "our cat Miso", "tibby is a tech cat now", then
"Tibby died on Tuesday" ends ``has_pet cat``.

People name their pets once and then say only the name, and either of the two may name it
first ("tibby is a tech cat now", says the grandson of his gran's cat). The memory holds, per
pair of participants, the names said beside a pet's kind, and whose it is when "my"/"our" said
so; a later "NAME died" (passed away, was put down) ends that kind for the one who says it,
unless the pet is known to be the other's.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._cues import DIED
from ._lexicon import NOT_NAMES, PETS
from ._objects import PRONOUNS

__all__ = ["PetMemory"]

_PET = "|".join(sorted(PETS, key=len, reverse=True))
#: "our cat Miso", "my dog called Rex", "our old lurcher, Dave".
_OWNED_NAMED = re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PET}),?\s+(?:called\s+|named\s+)?"
                          rf"(?P<name>[A-Z][a-z'’-]+)\b", re.IGNORECASE)
#: "tibby is a tech cat now", "Miso's our cat": a name said to be one's pet.
_IS_A = re.compile(rf"(?:^|[.!?]\s+)(?P<name>[A-Za-z][a-z'’-]+)(?:\s+is|['’]s)\s+(?:a|an|our|my)\s+"
                   rf"(?:[\w-]+\s+){{0,2}}?(?P<kind>{_PET})\b"
                   r"(?!\s+(?:person|people|lover|owner|walker|sitter|mum|mom|dad|food|bed|toy|hair))", re.IGNORECASE)
#: "Tibby died on Tuesday", "Miso passed away", "we lost Pippa on Wednesday".
_DIED = re.compile(r"(?:^|[.!?,]\s+)(?P<name>[A-Za-z][a-z'’-]+)\s+" + DIED +
                   r"|\b(?:we|i)\s+(?:lost|said\s+goodbye\s+to)\s+(?P<lost>[A-Z][a-z'’-]+)\b", re.IGNORECASE)


@dataclass
class PetMemory:
    """Pets by name (case-folded): their kind and, when said, their owner; per pair of participants."""

    names: dict[frozenset[str], dict[str, tuple[str, str | None]]] = field(default_factory=dict)

    def learn(self, speaker: str, other: str | None, text: str) -> None:
        """Note the pets ``text`` names ("our cat Miso": the speaker's; "tibby is a cat": someone's)."""
        known = self.names.setdefault(frozenset((speaker, other or "")), {})
        for pattern, owner in ((_OWNED_NAMED, speaker), (_IS_A, None)):
            for m in pattern.finditer(text):
                name = m["name"].lower().rstrip("'’")
                if name not in NOT_NAMES and name not in PRONOUNS and name not in PETS:
                    if owner is not None or name not in known:
                        known[name] = (m["kind"].lower(), owner)

    def died(self, speaker: str, other: str | None, sentence: str) -> tuple[str, int] | None:
        """The kind of the speaker's pet that ``sentence`` says died, and where its name ends."""
        m = _DIED.search(sentence)
        if m is None:
            return None
        name = (m["name"] or m["lost"]).lower()
        kind, owner = self.names.get(frozenset((speaker, other or "")), {}).get(name, (None, None))
        return (kind, m.end()) if kind and owner in (None, speaker) else None
