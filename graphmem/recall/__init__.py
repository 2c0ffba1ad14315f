"""Recall: ranked answers to natural questions over what a store believes, as of any moment.

``Store.search(text, as_of=...)`` is the way in; it returns answers of two kinds, ranked together:
:class:`Hit` (a fact) and :class:`MessageHit` (a message, with its speaker, chat time, the times
its phrases name and the turns around it). An
:class:`Embedder` (``Store(..., embedder=...)``, or :func:`embedder_from_env`) adds semantic
ranking; :mod:`graphmem.recall.evaluate` measures answers to labelled questions.

The rest of this package is internal, plain functions and data: words and stems (:mod:`.text`),
synonyms that point at predicates (:mod:`.synonyms`), an in-memory inverted index over every
version and episode (:mod:`.index`), the message index kept in a file beside the store
(:mod:`._messages`), fusing facts and messages (:mod:`._answers`), reading a question
(:mod:`.query`), ranking (:mod:`.rank`), the results (:mod:`.models`), and the seam that keeps
the index in step with a store's writes (:mod:`.live`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_names

if TYPE_CHECKING:
    from ._embed import Embedder, EmbeddingFailed, embedder_from_env
    from ._live import believed_then
    from ._models import (
        NOTHING_SAID,
        NOTHING_SAID_BY,
        Answer,
        Embedded,
        Hit,
        Matched,
        MessageHit,
        Resolved,
        SaidTime,
        SynonymUsed,
        TimeFilter,
        Turn,
    )
    from ._plan import FIRST_PERSON

__all__ = ["FIRST_PERSON", "NOTHING_SAID", "NOTHING_SAID_BY", "Answer", "Embedded", "Embedder", "EmbeddingFailed",
           "Hit", "Matched", "MessageHit", "Resolved", "SaidTime", "SynonymUsed", "TimeFilter", "Turn",
           "believed_then", "embedder_from_env"]

#: Names imported on first use, and the module each comes from: opening a store (every command)
#: needs at most the embedder, and the result models (pydantic) only when searching.
_LAZY = {
    **dict.fromkeys(("Embedder", "EmbeddingFailed", "embedder_from_env"), "_embed"),
    "FIRST_PERSON": "_plan",  # the words that name whoever asks
    "believed_then": "_live",  # the moment a question asks what was believed at
    **dict.fromkeys(("NOTHING_SAID", "NOTHING_SAID_BY", "Answer", "Embedded", "Hit", "Matched", "MessageHit",
                     "Resolved", "SaidTime", "SynonymUsed", "TimeFilter", "Turn"), "_models"),
}


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
