"""The offline rules extractor (kept importable here; it lives in :mod:`graphmem.extract`)."""

from .extract.facts import ExtractedFact, Extractor, MessageResult
from .extract.rules import RuleExtractor
from .extract.sentences import split_sentences

__all__ = ["ExtractedFact", "Extractor", "MessageResult", "RuleExtractor", "split_sentences"]
