"""Semantic ranking: text embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint.

Configured like the LLM extractor: ``GRAPHMEM_EMBED_BASE_URL`` (e.g. ``http://localhost:8000/v1``),
``GRAPHMEM_EMBED_MODEL`` and optionally ``GRAPHMEM_EMBED_API_KEY``. Only the standard library
speaks HTTP; nothing is downloaded. A fact is embedded as its statement in words ("Ivan lives in
Berlin"), an episode as its text; a question's vector is compared with both by cosine similarity,
and that ranking is fused with the keyword ranking by reciprocal rank fusion.

Comparing a question with every stored vector needs numpy (``pip install 'graphmem[embed]'``).

Internal: import :class:`Embedder` and friends from :mod:`graphmem.recall`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import GraphmemError, InvalidInput

__all__ = ["Embedder", "EmbeddingFailed", "embedder_from_env", "fact_text", "fuse"]

#: Reciprocal rank fusion's constant: a result at rank r adds 1 / (RRF_K + r).
RRF_K = 60
BATCH = 64
MAX_TEXT = 8000  # characters sent per text; longer texts are cut


class EmbeddingFailed(GraphmemError):
    """The embeddings endpoint could not be reached or gave no usable answer."""


class Embedder:
    """Embed texts with the model ``model`` served at ``base_url`` (an OpenAI-compatible API)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *, timeout: float = 30,
                 batch: int = BATCH, attempts: int = 4):
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise InvalidInput(f"embeddings base URL {base_url!r} must start with http:// or https://")
        if not model:
            raise InvalidInput("no embeddings model name given; pass the name the endpoint serves")
        if batch < 1:
            raise InvalidInput(f"batch must be 1 or more, got {batch}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key or None
        self.timeout = timeout
        self.batch = batch
        self.attempts = attempts

    def __repr__(self) -> str:
        return f"Embedder({self.base_url!r}, {self.model!r})"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order (sent in batches)."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch):
            vectors.extend(self._request([t[:MAX_TEXT] or " " for t in texts[start:start + self.batch]]))
        return vectors

    def _request(self, texts: list[str]) -> list[list[float]]:
        from .._openai_api import Endpoint  # here: a store that never embeds never loads the HTTP client

        endpoint = Endpoint(f"{self.base_url}/embeddings", self.api_key, name="the embeddings endpoint",
                            failed=EmbeddingFailed, timeout=self.timeout, attempts=self.attempts)
        raw = endpoint.post({"model": self.model, "input": texts})
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise EmbeddingFailed(f"the embeddings endpoint {self.base_url} did not answer JSON") from exc
        return _vectors(data, len(texts), self.base_url)


def _vectors(data: Any, count: int, where: str) -> list[list[float]]:
    try:
        items = sorted(data["data"], key=lambda item: item["index"])
        vectors = [[float(x) for x in item["embedding"]] for item in items]
    except (KeyError, TypeError, ValueError) as exc:
        raise EmbeddingFailed(f"the embeddings endpoint {where} answered without data[].embedding") from exc
    if len(vectors) != count or not vectors or any(len(v) != len(vectors[0]) or not v for v in vectors):
        raise EmbeddingFailed(f"the embeddings endpoint {where} answered {len(vectors)} vectors for {count} texts")
    return vectors


def embedder_from_env(**options: Any) -> Embedder | None:
    """The embedder GRAPHMEM_EMBED_BASE_URL / _MODEL / _API_KEY configure, or None when no URL is set."""
    base_url = os.environ.get("GRAPHMEM_EMBED_BASE_URL", "").strip()
    if not base_url:
        return None
    model = os.environ.get("GRAPHMEM_EMBED_MODEL", "").strip()
    if not model:
        raise InvalidInput("GRAPHMEM_EMBED_BASE_URL is set but GRAPHMEM_EMBED_MODEL is not; set it to the "
                           "name of the embeddings model the endpoint serves")
    return Embedder(base_url, model, os.environ.get("GRAPHMEM_EMBED_API_KEY", "").strip() or None, **options)


def fact_text(subject: str, predicate: str, obj: str) -> str:
    """A fact as words to embed: ``Ivan lives in Berlin``."""
    return f"{subject} {predicate.replace('_', ' ')} {obj}"


def fuse(rankings: Iterable[Sequence[tuple[int, float]]]) -> dict[int, float]:
    """Reciprocal rank fusion of rankings given as (item, score), best first: each item gets the sum
    over the rankings of 1 / (RRF_K + its rank), where items with equal scores share a rank."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        rank, previous = 0, None
        for position, (item, value) in enumerate(ranking, 1):
            if value != previous:
                rank, previous = position, value
            fused[item] = fused.get(item, 0.0) + 1.0 / (RRF_K + rank)
    return fused
