"""Recall: ranked answers to natural questions over what a store believes, as of any moment.

``Store.search(text, as_of=...)`` is the way in; it returns :class:`Hit` rows. An
:class:`Embedder` (``Store(..., embedder=...)``, or :func:`embedder_from_env`) adds semantic
ranking; :mod:`graphmem.recall.evaluate` measures answers to labelled questions.

The rest of this package is internal, plain functions and data: words and stems (:mod:`.text`),
synonyms that point at predicates (:mod:`.synonyms`), an in-memory inverted index over every
version and episode (:mod:`.index`), reading a question (:mod:`.query`), ranking (:mod:`.rank`),
the results (:mod:`.models`), and the seam that keeps the index in step with a store's writes
(:mod:`.live`).
"""

from __future__ import annotations

from ._embed import Embedder, EmbeddingFailed, embedder_from_env
from ._models import Embedded, Hit, Matched, SynonymUsed, TimeFilter

__all__ = ["Embedded", "Embedder", "EmbeddingFailed", "Hit", "Matched", "SynonymUsed", "TimeFilter",
           "embedder_from_env"]
