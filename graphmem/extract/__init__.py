"""Extractors: turn a chat message into proposed facts.

``rules`` (:class:`RuleExtractor`) works offline from verb phrases and word lists; ``llm``
(:class:`LLMExtractor`) asks any OpenAI-compatible chat endpoint. Both follow :class:`Extractor`.
"""

from ._facts import ExtractedFact, Extractor, FactOp, MessageResult
from ._llm import EndpointUnreachable, ExtractionFailed, ExtractionReport, LLMExtractor, RejectedFact
from ._rules import RuleExtractor
from ._sentences import split_sentences

__all__ = ["EndpointUnreachable", "ExtractedFact", "ExtractionFailed", "ExtractionReport", "Extractor", "FactOp",
           "LLMExtractor", "MessageResult", "RejectedFact", "RuleExtractor", "split_sentences"]
