"""The store's tables, each declared once: columns, types, and which model field each holds.

Everything else about a table is derived from its declaration here: the DDL that creates it,
the statements that insert one row or many (``insert/NAME``, ``insert_rows/NAME``), the Arrow
schema of its rows (for bulk loads, imports and query projections), the conversion of records
to Arrow columns and of stored rows back to model fields. Adding a column is one line here, one
field on the model it holds, and a numbered migration (see :mod:`graphmem.write.migrations`) for the
stores made before it.

Internal: the store's schema.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .times import OPEN_END, UTC

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["Column", "TABLES", "Table", "arrow_schema", "by_name", "properties", "queries"]

#: The node table a relationship table's ends are in.
ENDS = "Entity"


@cache
def _arrow_type(name: str) -> pa.DataType:
    """The Arrow type of a column type. (pyarrow is imported here, when a table's rows first go
    to or come from Arrow: a command that reads or writes a row at a time never loads it.)"""
    import pyarrow as pa

    return {
        "STRING": pa.string(),
        "STRING[]": pa.list_(pa.string()),
        "TIMESTAMP": pa.timestamp("us"),
        "INT64": pa.int64(),
        "FLOAT[]": pa.list_(pa.float32()),
    }[name]


def arrow_schema(columns: Iterable[tuple[str, str]]) -> pa.Schema:
    """The Arrow schema of rows with these ``(name, column type)`` columns."""
    import pyarrow as pa

    return pa.schema([(name, _arrow_type(type_)) for name, type_ in columns])


@dataclass(frozen=True)
class Column:
    """One column: its name in the engine, its type, and the model field it holds."""

    name: str
    type: str = "STRING"
    field: str | None = None  # the record's field (default: the column's own name)
    open_end: bool = False  # a TIMESTAMP whose None is stored as the far-future sentinel

    @property
    def source(self) -> str:
        return self.field or self.name

    @property
    def arrow(self) -> pa.DataType:
        return _arrow_type(self.type)

    def to_arrow(self, values: Iterable[Any]) -> pa.Array:
        """Record values (aware times, None for open ends) as this column's Arrow array."""
        import pyarrow as pa
        import pyarrow.compute as pc

        values = list(values)
        if self.type == "TIMESTAMP":  # Arrow converts aware values to UTC itself
            array = pa.array(values, pa.timestamp("us", tz="UTC")).cast(self.arrow)
            return pc.fill_null(array, pa.scalar(OPEN_END, self.arrow)) if self.open_end else array
        return pa.array(values, self.arrow)

    def to_field(self, value: Any) -> Any:
        """A stored value as the record's field holds it (times aware UTC, open ends None)."""
        if self.type == "TIMESTAMP":
            if value is None or (self.open_end and value >= OPEN_END):
                return None
            return value.replace(tzinfo=UTC)
        if self.type == "STRING[]":
            return list(value or [])
        if self.type == "INT64":
            return value or 0
        return value


@dataclass(frozen=True)
class Table:
    """A node table (keyed by its first column) or, with ``ends``, a relationship table.

    ``columns`` are what a row holds, as users and records see it. A relationship may keep some
    of them ``apart``, in a node table of their own keyed by the row's id (``body``): the edge
    then carries only the rest, which the engine scans and filters, and the body is read by key
    for the rows an answer keeps (see the Fact table below).
    """

    name: str
    about: str
    columns: tuple[Column, ...]
    record: str | None = None  # the export record type whose fields fill it
    ends: tuple[Column, Column] | None = None  # a relationship's FROM and TO (node ids)
    apart: tuple[str, ...] = ()  # columns stored in ``body``, not on the edge
    body: str | None = None  # the node table holding the columns kept apart
    options: str = ""  # the DDL's WITH (...) options: how the engine stores the table

    @cached_property
    def stored(self) -> tuple[Column, ...]:
        """The columns the table itself stores (all but those kept apart)."""
        return tuple(c for c in self.columns if c.name not in self.apart)

    def ddl(self, *, whole: bool = False) -> str:
        """The statement that creates the table (when it does not exist yet); ``whole``: with
        every column and no storage options (the tables a query projection shows users)."""
        columns = self.columns if whole else self.stored
        if self.ends is None:
            first, *rest = columns
            body = [f"{first.name} {first.type} PRIMARY KEY", *(f"{c.name} {c.type}" for c in rest)]
            return f"CREATE NODE TABLE IF NOT EXISTS {self.name}({', '.join(body)})"
        body = [f"FROM {ENDS} TO {ENDS}", *(f"{c.name} {c.type}" for c in columns)]
        options = f" WITH ({self.options})" if self.options and not whole else ""
        return f"CREATE REL TABLE IF NOT EXISTS {self.name}({', '.join(body)}){options}"

    @cached_property
    def every_column(self) -> tuple[Column, ...]:
        """The columns a row of the table has in a bulk load: a relationship's ends first."""
        return (*(self.ends or ()), *self.stored)

    @cached_property
    def whole_columns(self) -> tuple[Column, ...]:
        """Every column of a row as records hold it, those kept apart included: ends first."""
        return (*(self.ends or ()), *self.columns)

    def arrow_schema(self, *, whole: bool = False) -> pa.Schema:
        return arrow_schema((c.name, c.type) for c in (self.whole_columns if whole else self.every_column))

    def arrow(self, records: list[Any], *, open_as_null: bool = False, whole: bool = False) -> pa.Table:
        """Records (models, or anything with the fields) as an Arrow table of this table's rows
        (``whole``: every column, those kept apart included).

        Open ends are stored as the far-future sentinel, or left null with ``open_as_null`` (a
        query projection, where ``f.valid_to IS NULL`` means open).
        """
        columns = self.whole_columns if whole else self.every_column
        if records:  # one attrgetter call per record and a transpose, not a getattr per value
            values = list(zip(*map(attrgetter(*(c.source for c in columns)), records)))
        else:
            values = [() for _ in columns]
        arrays = {}
        for column, found in zip(columns, values):
            if open_as_null and column.open_end:
                column = Column(column.name, column.type, column.field)
            arrays[column.name] = column.to_arrow(found)
        import pyarrow as pa

        return pa.table(arrays, schema=self.arrow_schema(whole=whole))

    def rows(self, rows: list[dict[str, Any]]) -> pa.Table:
        """Rows of engine values (column → value) as an Arrow table of this table's schema."""
        import pyarrow as pa

        return pa.Table.from_pylist(rows, schema=self.arrow_schema())

    def fields(self, properties: dict[str, Any]) -> dict[str, Any]:
        """A stored row's properties as the record's fields."""
        return {c.source: c.to_field(properties.get(c.name)) for c in self.columns}

    def select_rows(self) -> str:
        """The statement that reads every row of the table, one column per column (ends first,
        those kept apart included), in the shape ``arrow_schema(whole=True)`` describes: what a
        columnar export reads."""
        if self.ends is None:
            return f"MATCH (n:{self.name}) RETURN " + ", ".join(f"n.{c.name} AS `{c.name}`" for c in self.columns)
        first, second = self.ends
        return (f"MATCH (s:{ENDS})-[f:{self.name}]->(o:{ENDS}) {self.join_body('f', 'b')}"
                f"RETURN s.id AS `{first.name}`, o.id AS `{second.name}`, {self.values('f', 'b')}")

    def join_body(self, edge: str, body: str) -> str:
        """The clause that finds an edge's body by its key (nothing for a table kept whole)."""
        return f"MATCH ({body}:{self.body} {{id: {edge}.id}}) " if self.body else ""

    def values(self, edge: str, body: str, *, unread: Collection[str] = ()) -> str:
        """Every column of a row, each under its own name, read from the edge or its body; the
        columns ``unread`` left out (the caller knows their values without reading them)."""
        return ", ".join(f"{body if c.name in self.apart else edge}.{c.name} AS `{c.name}`"
                         for c in self.columns if c.name not in unread)

    def insert_one(self) -> str:
        assignments = ", ".join(f"{c.name}: ${c.name}" for c in self.stored)
        if self.ends is None:
            return f"CREATE (:{self.name} {{{assignments}}})"
        return (f"MATCH (s:{ENDS} {{id: $from}}) MATCH (o:{ENDS} {{id: $to}}) "
                f"CREATE (s)-[:{self.name} {{{assignments}}}]->(o)")

    def insert_rows(self) -> str:
        assignments = ", ".join(f"{c.name}: `{c.name}`" for c in self.stored)
        if self.ends is None:
            return f"LOAD FROM $rows CREATE (:{self.name} {{{assignments}}}) RETURN count(*)"
        return (f"LOAD FROM $rows MATCH (s:{ENDS} {{id: `from`}}) "
                f"MATCH (o:{ENDS} {{id: `to`}}) "
                f"CREATE (s)-[:{self.name} {{{assignments}}}]->(o) RETURN count(*)")


def _text(*names: str) -> tuple[Column, ...]:
    return tuple(Column(name) for name in names)


def _time(name: str, *, open_end: bool = False) -> Column:
    return Column(name, "TIMESTAMP", open_end=open_end)


def _list(name: str) -> Column:
    return Column(name, "STRING[]")


#: The columns of a fact version kept apart from its edge (see FactBody): lists and texts, which
#: cost an edge table the most to load and rewrite, and which no answer filters on.
FACT_BODY = (_list("episodes"), _list("supersedes"), _list("superseded_by"),
             *_text("created_by", "closed_by", "reason"))

#: Every table of a store, in load order (a relationship's ends before it).
TABLES: tuple[Table, ...] = (
    Table("Meta", "Store settings and counters: time zone, latest write time, id sequences.",
          _text("key", "value")),
    Table("Predicate", "Declared predicates and their kind (one, many, event).", _text("name", "kind")),
    Table("Entity", "Entities: people, places, things and literal values.", _text("id", "name", "kind"),
          record="entity"),
    Table("Episode", "Episodes: immutable source material with its exact text.",
          (*_text("id", "kind", "text", "actor"), _time("reference_time"), _time("received_at")),
          record="episode"),
    Table("Decision", "The write log: one row per write, with what it created and closed.",
          (*_text("id", "op"), _time("at"), _list("created"), _list("closed"), *_text("episode", "reason", "proposal")),
          record="decision"),
    Table("Proposal", "The review queue: facts proposed by extractors, pending, approved or rejected.",
          (*_text("id", "op", "subject", "predicate", "object"), _time("valid_from"), _time("valid_to"),
           *_text("episode", "quote", "source"), _time("proposed_at"), Column("state"), _time("decided_at"),
           *_text("reason", "decision")),
          record="proposal"),
    Table("Tombstone", "Content-free records of purges.",
          (*_text("id", "target"), _time("at"), _list("versions"), _list("episodes"),
           Column("entities", "INT64"), Column("proposals", "INT64")),
          record="tombstone"),
    Table("Fact", "Fact versions: subject -> object edges with valid and transaction periods "
                  "(open ends stored as 9999-12-31). The edge carries what answers filter on; a version's "
                  "sources, lineage, writers and reason are kept apart, in FactBody.",
          (*_text("id", "predicate"), _time("valid_from"), _time("valid_to", open_end=True), _time("recorded_at"),
           _time("superseded_at", open_end=True), *FACT_BODY),
          record="version", ends=(Column("from", field="subject_id"), Column("to", field="object_id")),
          apart=tuple(c.name for c in FACT_BODY), body="FactBody"),
    Table("FactBody", "Each fact version's columns kept off its edge, keyed by the version's id, with its "
                      "subject (so a version is found by id through its subject's edges, not a scan of every edge).",
          (Column("id"), Column("subject", field="subject_id"), *FACT_BODY), record="version"),
    Table("Link", "When each supporting episode was linked to a version after the version was written "
                  "(a NOOP citing a new episode): an answer as of T lists only the links made by T.",
          (*_text("id", "version", "episode"), _time("at")), record="link"),
    Table("Embedding", "Embedding vectors of versions and episodes, by their id, with the model that made "
                       "them: derived data for semantic search, not exported with the log (`graphmem embed` "
                       "makes what is missing).",
          (*_text("id", "model"), Column("vector", "FLOAT[]"))),
)
_BY_NAME = {table.name: table for table in TABLES}


def by_name(name: str) -> Table:
    """A table by its engine name."""
    return _BY_NAME[name]


def properties() -> dict[str, frozenset[str]]:
    """Each table's property names (what a node or relationship of it carries)."""
    return {t.name: frozenset(c.name for c in t.columns) for t in TABLES}


def queries() -> dict[str, str]:
    """The statements derived from the tables: ``schema/NAME``, ``insert/NAME``, ``insert_rows/NAME``,
    ``rows/NAME``."""
    found = {}
    for table in TABLES:
        found[f"schema/{table.name}"] = table.ddl()
        found[f"insert/{table.name}"] = table.insert_one()
        found[f"insert_rows/{table.name}"] = table.insert_rows()
        found[f"rows/{table.name}"] = table.select_rows()
    return found
