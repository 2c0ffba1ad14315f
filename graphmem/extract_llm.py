"""The LLM extractor, kept importable here for older code; :mod:`graphmem.extract` is its home."""

from .extract import EndpointUnreachable, ExtractionFailed, ExtractionReport, LLMExtractor, RejectedFact

__all__ = ["EndpointUnreachable", "ExtractionFailed", "ExtractionReport", "LLMExtractor", "RejectedFact"]
