"""The LLM extractor (kept importable here; it lives in :mod:`graphmem.extract.llm`)."""

from .extract.llm import *  # noqa: F403
from .extract.llm import __all__  # noqa: F401
