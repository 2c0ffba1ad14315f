"""Words that put an English clause in the future, shared by the extractor and the time grammar.

Internal: :mod:`graphmem.extract` (a planned fact is not a fact) and :mod:`graphmem.when` (a
future clause does not make its phrases past) read the same list.
"""

from __future__ import annotations

__all__ = ["FUTURE_AUXILIARY", "WE_RE_TYPED"]

#: The auxiliaries of a future clause ('ll, will, shall, gonna, going to, about to), as regex text
#: for case-insensitive use; each reader adds what else marks the future for its purpose.
FUTURE_AUXILIARY = r"['’]ll\b|\b(?:will|shall|gonna|going\s+to|about\s+to)\b"

#: "were" typed for "we're" where a clause opens on it before a form in -ing, no subject said ("were moving to
#: glasgow in august", "omg were getting married"): a present progressive, plans, not the past; as regex text
#: for case-insensitive use, matched at the clause's start.
WE_RE_TYPED = (r"\W*(?:(?:omg|ok|okay|oh|yes|yeah|yep|yay|so|well|btw|also|and|but|update|news|guess\s+what)\W+)*"
               r"were\s+(?=[a-z]+ing\b)")
