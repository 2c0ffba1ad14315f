"""A throwaway in-memory graph of the store's engine: what the sandbox's worker queries.

The worker (:mod:`graphmem.query.sandbox`) receives a projection's DDL and Arrow tables, loads
them here, and runs a user's read-only query over them; this module is the only place in that
process that opens the engine's database, so the engine's Python API stays behind the seam.

Internal: the sandbox's worker process uses it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["MemoryGraph", "QueryTimedOut"]


class QueryTimedOut(Exception):
    """The engine interrupted a query at its time limit."""


class MemoryGraph:
    """An in-memory database of one engine loaded with a projection's tables, keyed node ids kept."""

    def __init__(self, engine: str, ddl: list[str], tables: dict[str, Any], node_keys: list[str],
                 memory_mb: int) -> None:
        from . import load_engine  # looked up when used, as every engine load is

        module = load_engine(engine)
        self.database = module.Database(":memory:", buffer_pool_size=max(64, memory_mb // 2) * 2**20)
        self.connection = module.Connection(self.database)
        for statement in ddl:
            self.connection.execute(statement)
        for name, rows in tables.items():
            if rows.num_rows:
                self.connection.execute(f"COPY {name} FROM $rows", {"rows": rows})
        #: Each node's key (its ``id`` property) by the engine's internal id (table, offset).
        self.keys: dict[tuple[Any, Any], str] = {}
        for label in node_keys:
            result = self.connection.execute(f"MATCH (n:{label}) RETURN id(n), n.id")
            while result.has_next():
                node, key = result.get_next()
                self.keys[(node["table"], node["offset"])] = key

    def key_of(self, node: dict[str, Any]) -> str | None:
        """The key of a node value the engine returned, or None for one not loaded here."""
        return self.keys.get((node.get("table"), node.get("offset")))

    def run(self, text: str, params: dict[str, Any],
            timeout_ms: int | None) -> tuple[list[str], Iterator[list[Any]]]:
        """The column names of one statement and its rows, read as they are iterated;
        :class:`QueryTimedOut` at the time limit (from either), the engine's RuntimeError for
        anything else it refuses, ValueError for several statements."""
        if timeout_ms is not None:
            self.connection.set_query_timeout(timeout_ms)
        try:
            result = self.connection.execute(text, params)
        except RuntimeError as exc:
            if _interrupted(exc):
                raise QueryTimedOut(str(exc)) from exc
            raise
        if isinstance(result, list):
            raise ValueError("one statement expected")

        def rows() -> Iterator[list[Any]]:
            try:
                while result.has_next():
                    yield result.get_next()
            except RuntimeError as exc:
                if _interrupted(exc):
                    raise QueryTimedOut(str(exc)) from exc
                raise

        return result.get_column_names(), rows()


def _interrupted(exc: RuntimeError) -> bool:
    text = str(exc).lower()
    return "interrupt" in text or "timeout" in text
