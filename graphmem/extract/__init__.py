"""Extractors: turn a chat message into proposed facts.

``rules`` (:class:`RuleExtractor`) works offline from verb phrases and word lists; ``llm``
(:class:`LLMExtractor`) asks any OpenAI-compatible chat endpoint. Both follow :class:`Extractor`.
The extractors are imported when first asked for: a search reads :data:`EVENTS` without compiling the
rules' patterns (about 0.6 s a command).
"""

from typing import TYPE_CHECKING

from ..core.lazy import lazy_names
from ._facts import Context, ExtractedFact, Extractor, FactOp, MessageResult, Turn, takes_context
from ._lexicon import EVENTS
from ._sentences import split_sentences

if TYPE_CHECKING:
    from ._llm import EndpointUnreachable, ExtractionFailed, ExtractionReport, LLMExtractor, RejectedFact
    from ._rules import RuleExtractor

__all__ = ["EVENTS", "Context", "EndpointUnreachable", "ExtractedFact", "ExtractionFailed", "ExtractionReport",
           "Extractor", "FactOp", "LLMExtractor", "MessageResult", "RejectedFact", "RuleExtractor", "Turn",
           "split_sentences", "takes_context"]

_LAZY = {
    "RuleExtractor": "_rules",
    **dict.fromkeys(("EndpointUnreachable", "ExtractionFailed", "ExtractionReport", "LLMExtractor", "RejectedFact"),
                    "_llm"),
}

__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
