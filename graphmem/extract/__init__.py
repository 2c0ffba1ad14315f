"""Extractors: turn a chat message into proposed facts.

``rules`` (:class:`RuleExtractor`) works offline from verb phrases and word lists; ``llm``
(:class:`graphmem.extract.llm.LLMExtractor`) asks any OpenAI-compatible chat endpoint. Both
follow :class:`Extractor`.
"""

from .facts import ExtractedFact, Extractor, MessageResult
from .rules import RuleExtractor
from .sentences import split_sentences

__all__ = ["ExtractedFact", "Extractor", "MessageResult", "RuleExtractor", "split_sentences"]
