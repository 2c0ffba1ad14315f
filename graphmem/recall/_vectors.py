"""Embedding vectors: kept in the store's Embedding table, compared in memory.

A version's vector embeds its statement ("Ivan lives in Berlin"), an episode's its text; both are
keyed by their id, with the model that made them (vectors of another model are ignored, and
``graphmem embed`` replaces them). Vectors are derived data: they are written after the write
they belong to has committed, never exported with the log, and removed with what a purge removes.

Internal: make vectors with :meth:`graphmem.Store.embed`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core import records
from ..engine import Engine
from ..errors import InvalidInput
from ..models import Decision
from ..read import questions
from ._embed import Embedder, fact_text

if TYPE_CHECKING:
    import numpy as np

    Matrix = np.ndarray[Any, np.dtype[np.float32]]

__all__ = ["VectorSet", "embed_ids", "missing", "written"]

_CHUNK = 1000


def numpy() -> ModuleType:
    """numpy, or a clear error naming the extra that installs it."""
    try:
        import numpy as np
    except ModuleNotFoundError:  # pragma: no cover - numpy is in the test extra
        raise InvalidInput("semantic search needs numpy; pip install 'graphmem[embed]'") from None
    return np


class VectorSet:
    """The unit vectors of one model, by id, as one matrix."""

    def __init__(self, model: str):
        self.model = model
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self._matrix: Matrix | None = None
        self._pending: list[tuple[str, Sequence[float]]] = []

    @classmethod
    def load(cls, engine: Engine, model: str) -> VectorSet:
        found = cls(model)
        table = engine.arrow("recall/embedding_of_model", {"model": model})
        found.add(table.column("id").to_pylist(), table.column("vector").to_pylist())
        return found

    def add(self, ids: Iterable[str], vectors: Iterable[Sequence[float]]) -> None:
        self._pending.extend(zip(ids, vectors))

    def _settle(self) -> Matrix | None:
        np = numpy()
        if not self._pending:
            return self._matrix
        rows: list[Matrix] = []
        for vector_id, vector in self._pending:
            values = np.asarray(vector, dtype=np.float32)
            if self._matrix is not None and values.shape[0] != self._matrix.shape[1]:
                continue  # another dimension: not comparable (a model served differently)
            if rows and values.shape[0] != rows[0].shape[0]:
                continue
            norm = float(np.linalg.norm(values))
            if vector_id in self.row:  # replaced: the old row stays, unreachable
                del self.row[vector_id]
            self.row[vector_id] = len(self.ids)
            self.ids.append(vector_id)
            rows.append(values / norm if norm else values)
        self._pending.clear()
        if rows:
            block = np.vstack(rows)
            self._matrix = block if self._matrix is None else np.vstack([self._matrix, block])
        return self._matrix

    def similarities(self, query: Sequence[float]) -> dict[str, float]:
        """Cosine similarity of ``query`` with every vector, by id."""
        np = numpy()
        matrix = self._settle()
        if matrix is None:
            return {}
        values = np.asarray(query, dtype=np.float32)
        if values.shape[0] != matrix.shape[1]:
            raise InvalidInput(f"the question's vector has {values.shape[0]} dimensions, the stored ones "
                               f"{matrix.shape[1]}; run `graphmem embed` after changing the model")
        norm = float(np.linalg.norm(values))
        scores = matrix @ (values / norm if norm else values)
        return {vector_id: float(scores[row]) for vector_id, row in self.row.items()}

    def __len__(self) -> int:
        return len(self.row) + len(self._pending)


def missing(engine: Engine, model: str) -> tuple[list[str], list[str]]:
    """The versions and episodes with no vector made by ``model`` (ids, oldest first)."""
    have = {row[0] for row in engine.run("recall/embedding_ids", {"model": model})}
    versions = [i for i in engine.arrow("recall/facts_all").column("id").to_pylist() if i not in have]
    episodes = [i for i in engine.arrow("recall/episodes_all").column("id").to_pylist() if i not in have]
    key = _number
    return sorted(versions, key=key), sorted(episodes, key=key)


def embed_ids(engine: Engine, embedder: Embedder, versions: Sequence[str], episodes: Sequence[str],
              progress: Callable[[int, int], None] | None = None) -> tuple[list[str], list[list[float]]]:
    """Embed these versions and episodes and store their vectors; return what was stored.

    Texts are read and vectors written under the engine's lock, one chunk at a time; the
    endpoint is called without holding it, so reads and writes go on meanwhile.
    """
    done_ids: list[str] = []
    done_vectors: list[list[float]] = []
    total = len(versions) + len(episodes)
    for kind, ids in (("versions", list(versions)), ("episodes", list(episodes))):
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start:start + _CHUNK]
            with engine.lock:
                if kind == "versions":
                    rows = engine.run("store/fact_by_ids", {"ids": chunk})
                    texts = {v.id: fact_text(v.subject, v.predicate, v.object) for v in map(records.version, rows)}
                else:
                    texts = {e.id: e.text for e in questions.episodes(engine, chunk)}
            keys = [i for i in chunk if i in texts]  # gone since (purged): nothing to embed
            vectors = embedder.embed([texts[i] for i in keys]) if keys else []
            with engine.lock, engine.transaction():
                engine.run("recall/embedding_set", {
                    "rows": [{"id": i, "vector": v} for i, v in zip(keys, vectors)], "model": embedder.model})
            done_ids.extend(keys)
            done_vectors.extend(vectors)
            if progress is not None:
                progress(len(done_ids), total)
    return done_ids, done_vectors


def written(engine: Engine, model: str, decisions: Sequence[Decision]) -> tuple[list[str], list[str]]:
    """What a committed write added that ``model`` has no vectors for: its versions and episodes."""
    versions = sorted({v for d in decisions for v in d.created}, key=_number)
    episodes = sorted({d.episode for d in decisions if d.episode})
    have = {row[0] for row in engine.run("recall/embedding_have", {"ids": episodes, "model": model})}
    return versions, [e for e in episodes if e not in have]


def _number(identifier: str) -> int:
    digits = identifier.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits.isdigit() else 0
