"""The offline rules extractor, kept importable here for older code; :mod:`graphmem.extract` is its home."""

from .extract import ExtractedFact, Extractor, MessageResult, RuleExtractor, split_sentences

__all__ = ["ExtractedFact", "Extractor", "MessageResult", "RuleExtractor", "split_sentences"]
