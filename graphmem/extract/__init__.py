"""Extractors: turn a chat message into proposed facts.

``rules`` (:class:`RuleExtractor`) works offline from verb phrases and word lists; ``llm``
(:class:`LLMExtractor`) asks any OpenAI-compatible chat endpoint. Both follow :class:`Extractor`.
"""

from ._facts import Context, ExtractedFact, Extractor, FactOp, MessageResult, Turn, takes_context
from ._lexicon import EVENTS
from ._llm import EndpointUnreachable, ExtractionFailed, ExtractionReport, LLMExtractor, RejectedFact
from ._rules import RuleExtractor
from ._sentences import split_sentences

__all__ = ["EVENTS", "Context", "EndpointUnreachable", "ExtractedFact", "ExtractionFailed", "ExtractionReport",
           "Extractor", "FactOp", "LLMExtractor", "MessageResult", "RejectedFact", "RuleExtractor", "Turn",
           "split_sentences", "takes_context"]
