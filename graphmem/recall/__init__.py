"""Recall: ranked answers to natural questions over what a store believes, as of any moment.

``Store.search(text, as_of=...)`` is the way in; this package holds the pieces it uses, as plain
functions and data: words and stems (:mod:`.text`), synonyms that point at predicates
(:mod:`.synonyms`), an in-memory inverted index over every version and episode (:mod:`.index`),
reading a question (:mod:`.query`), ranking (:mod:`.rank`), the results (:mod:`.models`), the
measures of a labelled question set (:mod:`.evaluate`), and the seam that keeps the index in step
with a store's writes (:mod:`.live`).
"""

from __future__ import annotations

from .models import Hit, Matched, SynonymUsed, TimeFilter

__all__ = ["Hit", "Matched", "SynonymUsed", "TimeFilter"]
