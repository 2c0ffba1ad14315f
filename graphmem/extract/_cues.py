"""Small word cues the rules extractor reads around a verb: where a clause's time phrase
belongs, when "I'm in Lisbon" is a trip, when leaving a place is a move, who "Isa too." is.

Kept apart from :mod:`graphmem.extract._rules` so that module stays a readable size.

Internal: part of the rules extractor (:class:`graphmem.extract.RuleExtractor`).
"""

from __future__ import annotations

import re

from ._lexicon import NOT_NAMES, is_place, looks_organisational
from ._objects import PRONOUNS

__all__ = ["AT_HOME", "DIED", "GONE_FOR_GOOD", "JUST_BACK", "LEFT_FOR_GOOD", "NEW_CLAUSE", "PLACE_ENDS", "SHARED",
           "TOO", "is_person"]


#: Words that say a pet died: "died", "passed away", "passed" where the sentence ends or a time or a manner follows
#: ("passed last night", "passed in her sleep", "passed peacefully"), "was put down"; not a way of speaking ("died
#: laughing", "died of cuteness", "died inside", "died her hair"), nor "passed out", "passed a kidney stone", "passed on
#: the treats".
DIED = (r"(?:died(?!\s+(?:laughing|of\s+(?:laughter|embarrassment|cuteness|boredom|shame)|inside|(?:his|her|its|my|"
        r"their)\s+(?:hair|fur|beard|clothes|shirt|roots))\b)"
        r"|passed\s+away"
        r"|passed(?=\s*(?:$|[.!,;…]"
        r"|(?:on|this)\b(?!\s+(?:the|a|an|my|it|that|this)\b)"
        r"|(?:last|yesterday|today|tonight|overnight|earlier|recently|peacefully|suddenly|quietly)\b"
        r"|in\s+(?:his|her|its|their)\s+sleep\b|the\s+other\s+day\b|a\s+(?:few|couple)\b|\d+\s+\w+\s+ago\b"
        r"|at\s+the\s+vet))"
        r"|was\s+put\s+down|had\s+to\s+be\s+put\s+down)")

#: "just got back from the nativity": the event was today.
JUST_BACK = re.compile(r"\bjust\s+(?:got\s+)?(?:back|home)\s+from", re.IGNORECASE)
#: A comma and a new subject: a time phrase after it is that clause's ("she's a nurse, we met last week").
NEW_CLAUSE = re.compile(r",\s*(i|we|he|she|they|you|u)\b(?!\s*(?:and|,))", re.IGNORECASE)
#: After "I'm in Lisbon": the place is all that is said ("I'm in Paris mode" is no trip).
PLACE_ENDS = re.compile(r"\s*(?:$|[.!,;:)?]|(?:for|with|and|lol|haha|atm|rn|right\s+now|this|today|tonight|at\s+the\s+"
                        r"moment|finally|x+)\b|[^\w\s])", re.IGNORECASE)
#: Words that make "I'm in Leeds" home, not a trip.
AT_HOME = re.compile(r"\b(?:now|still|currently|based|living|settled|home|back|for\s+good|these\s+days)\b",
                     re.IGNORECASE)
#: "Isa too.", "and Tom as well!": the one named did what the sentence before says the speaker did.
TOO = re.compile(r"\W*(?:and\s+|oh\s+and\s+)?(?P<name>(?-i:[A-Z])[\w'’-]+)\s+(?:too|as\s+well|also)\W*", re.IGNORECASE)
#: What another can share: doing, joining, going, owning; not whom one dates or what one likes.
SHARED = frozenset(("member_of", "does", "attended", "traveled_to", "has_pet", "owns", "works_at", "studies_at",
                    "lives_in"))


def is_person(name: str) -> bool:
    """Whether a capitalised word may be someone ("Isa"), not a place, an organisation or "Me"."""
    return name.lower() not in NOT_NAMES and name.lower() not in PRONOUNS and not is_place(name) \
        and not looks_organisational(name)


#: After "left Paris": it was a move ("for good", "for Leeds").
LEFT_FOR_GOOD = re.compile(r"\bfor\s+(?:good|(?-i:[A-Z]))", re.IGNORECASE)
#: After "lost our dog": nothing more than a name, "to cancer", a time to come ("we lost our cat Rex in May").
GONE_FOR_GOOD = re.compile(r"\s*(?:(?-i:[A-Z])[\w'’-]*)?[\s.,!;:)]*(?:to\s+[\w\s]+)?[\s.,!]*(?:lol|haha|x+)?[\s.!]*"
                           r"(?:in|on|at|back\s+in)?\s*", re.IGNORECASE)
