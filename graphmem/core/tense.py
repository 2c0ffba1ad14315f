"""Words that put an English clause in the future, shared by the extractor and the time grammar.

Internal: :mod:`graphmem.extract` (a planned fact is not a fact) and :mod:`graphmem.when` (a
future clause does not make its phrases past) read the same list.
"""

from __future__ import annotations

__all__ = ["FUTURE_AUXILIARY", "WE_RE_TYPED"]

#: The auxiliaries of a future clause ('ll, will, shall, gonna, going to, about to), as regex text
#: for case-insensitive use; each reader adds what else marks the future for its purpose.
FUTURE_AUXILIARY = r"['’]ll\b|\b(?:will|shall|gonna|going\s+to|about\s+to)\b"

#: "were" where a clause opens on it before a form in -ing, no subject said: "we're" typed ("were moving to glasgow
#: in august", "omg were getting married") as often as a past with its subject left out ("were living in leeds
#: till 2021"); nothing tells which. As regex text for case-insensitive use, matched at the clause's start (an -ing
#: noun aside: "were wedding photos taken").
WE_RE_TYPED = (r"\W*(?:(?:omg|ok|okay|oh|ah|aw+|wow|yes|yeah|yea|yep|yay|lol|ha(?:ha)+|hey|hi|so|well|btw|tbh|also|"
               r"and|but|anyway|anyways|actually|update|news|guess\s+what)\W+)*"
               r"were\s+(?!(?:wedding|morning|evening|building|meeting|ceiling|clothing|thing|something|nothing|"
               r"anything|everything|sibling|darling|ring|string|king|wing|spring|swing|pudding|dumpling|lightning|"
               r"housing)\b)(?=[a-z]+ing\b)")
