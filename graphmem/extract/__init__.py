"""Extractors: turn a chat message into proposed facts.

``rules`` (:class:`RuleExtractor`) works offline from verb phrases and word lists; ``llm``
(:class:`LLMExtractor`) asks any OpenAI-compatible chat endpoint. Both follow :class:`Extractor`.
"""

from .facts import ExtractedFact, Extractor, FactOp, MessageResult
from .llm import EndpointUnreachable, ExtractionFailed, ExtractionReport, LLMExtractor, RejectedFact
from .rules import RuleExtractor
from .sentences import split_sentences

__all__ = ["EndpointUnreachable", "ExtractedFact", "ExtractionFailed", "ExtractionReport", "Extractor", "FactOp",
           "LLMExtractor", "MessageResult", "RejectedFact", "RuleExtractor", "split_sentences"]
