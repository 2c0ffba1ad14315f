"""The offline rules extractor, kept importable here for older code; :mod:`graphmem.extract` is its home."""

from .extract.facts import ExtractedFact, Extractor, MessageResult
from .extract.rules import RuleExtractor
from .extract.sentences import split_sentences

__all__ = ["ExtractedFact", "Extractor", "MessageResult", "RuleExtractor", "split_sentences"]
