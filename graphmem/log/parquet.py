"""The log as a directory of Parquet files: export and import at the speed of columns.

A Parquet log holds what a JSON Lines log holds (:mod:`graphmem.log.jsonl`), one file per record
type, in columns any engine reads (Spark, DuckDB, pandas, ...):

- ``graphmem.json``: the header: format, layout, the exporting engine, the store's zone, its
  settings and counters (``meta``), and each file's row count;
- ``entities``, ``episodes``, ``decisions``, ``versions``, ``proposals``, ``tombstones``,
  ``links`` and ``predicates`` ``.parquet``: one row per record, one column per field of the
  record (:mod:`graphmem.models`), typed from its column in :mod:`graphmem.core.tables`; times are
  UTC timestamps (microseconds) and an open end is null.

An import reads whole columns: each is checked with Arrow compute (types, missing values, ids,
names, ranges; a bad value is reported as ``DIR/FILE.parquet:row N: ...``, rows counted from
1), the log's invariants are checked over the columns (:mod:`graphmem.core.columnar_invariants`), and the
columns are copied into the engine in one transaction, as a JSON Lines import is
(:func:`graphmem.log.jsonl._load`): all of it lands or none of it does.

Internal: use ``Store.export(DIR, format="parquet")`` and ``Store.import_log(DIR)``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..core.columnar_invariants import IdIndex, violations
from ..core.json_lines import MAX_LINE, SMALL_LOG, loads, open_regular
from ..core.tables import TABLES, Column, Table, by_name
from ..core.times import MAX_TIME, MIN_TIME, OPEN_END, iso
from ..engine import Engine
from ..errors import ImportFailed, InvalidInput
from ..models import DEFAULT_PREDICATES
from . import jsonl as logio

__all__ = ["FILES", "FORMAT", "HEADER", "LAYOUT", "engine_tables", "export_parquet", "import_parquet", "is_parquet_log",
           "read_header",
           "read_log",
           "schema_of"]

HEADER = "graphmem.json"
LAYOUT = "parquet"
#: The log format a Parquet log holds (the JSON Lines log's, in columns).
FORMAT = logio.FORMAT
#: The file of each record type, in the order they are written and read.
FILES = {
    "predicate": "predicates", "entity": "entities", "episode": "episodes", "decision": "decisions",
    "version": "versions", "proposal": "proposals", "tombstone": "tombstones", "link": "links",
}
TIME = pa.timestamp("us", tz="UTC")
_ENGINE_TIME = pa.timestamp("us")
_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "+00:00", "Z", "utc"})
Progress = Callable[[int], None]


# -- the files' schemas, derived from the tables and the models ---------------------------------


def _table_of(kind: str) -> Table:
    """The engine table that holds a record type's fields (the first that names it)."""
    if kind == "predicate":
        return by_name("Predicate")
    return next(t for t in TABLES if t.record == kind)


def _fields(kind: str) -> list[tuple[str, pa.DataType, bool]]:
    """(name, Arrow type, may be null) of each column of a record type's file."""
    table = _table_of(kind)
    columns = {c.source: c for c in table.whole_columns}
    if kind == "predicate":
        return [(c.name, c.arrow, False) for c in table.columns]
    found: list[tuple[str, pa.DataType, bool]] = []
    for name, info in logio.MODELS[kind].model_fields.items():
        if name == "status":  # seen from a time, not stored
            continue
        column = columns.get(name)
        if column is None:  # a version's subject and object names, read from its ends
            if info.annotation is not str:
                raise TypeError(f"{kind}.{name} has no column in {table.name}")
            found.append((name, pa.string(), False))
            continue
        kind_of_type = TIME if column.type == "TIMESTAMP" else column.arrow
        found.append((name, kind_of_type, _optional(info.annotation)))
    return found


def _optional(annotation: object) -> bool:
    return get_origin(annotation) in (Union, UnionType) and type(None) in get_args(annotation)


def schema_of(kind: str) -> pa.Schema:
    """The Arrow schema of a record type's Parquet file."""
    return pa.schema([pa.field(name, kind_of, nullable) for name, kind_of, nullable in _fields(kind)])


SCHEMAS = {kind: schema_of(kind) for kind in FILES}


# -- reading a store's tables as the log's columns ---------------------------------------------


def store_tables(engine: Engine) -> dict[str, pa.Table]:
    """Every record of the store, by record type, as tables of the files' schemas (hold the lock)."""
    entities = _file_table("entity", engine.arrow("rows/Entity"))
    found = {"predicate": _predicates(engine), "entity": entities}
    for kind in ("episode", "decision", "version", "proposal", "tombstone", "link"):
        rows = engine.arrow(f"rows/{_table_of(kind).name}")
        if kind == "version":
            rows = _with_names(rows, entities)
        found[kind] = _file_table(kind, rows)
    return {kind: found[kind] for kind in FILES}


def _predicates(engine: Engine) -> pa.Table:
    rows = sorted(engine.run("store/predicate_all"))
    return pa.table({"name": [r[0] for r in rows], "kind": [r[1] for r in rows]}, schema=SCHEMAS["predicate"])


def _with_names(facts: pa.Table, entities: pa.Table) -> pa.Table:
    """Facts (``from``, ``to``, ...) with their ends' names as ``subject`` and ``object``."""
    names, ids = entities.column("name"), entities.column("id")
    facts = facts.append_column("subject", pc.take(names, pc.index_in(facts.column("from"), ids)))
    facts = facts.append_column("object", pc.take(names, pc.index_in(facts.column("to"), ids)))
    return facts.rename_columns([{"from": "subject_id", "to": "object_id"}.get(n, n) for n in facts.column_names])


def _file_table(kind: str, rows: pa.Table) -> pa.Table:
    """Engine rows (naive UTC times, open ends as the sentinel) as a file's table, in id order."""
    schema = SCHEMAS[kind]
    columns = {c.source: c for c in _table_of(kind).whole_columns}
    if not rows.num_rows:
        return schema.empty_table()
    arrays = []
    for field in schema:
        values = rows.column(field.name if field.name in rows.column_names else columns[field.name].name)
        if field.type == TIME:
            values = values.cast(_ENGINE_TIME)
            if columns[field.name].open_end:
                values = pc.if_else(pc.greater_equal(values, pa.scalar(OPEN_END, _ENGINE_TIME)),
                                    pa.scalar(None, _ENGINE_TIME), values)
            values = values.cast(TIME)
        arrays.append(values.cast(field.type))
    table = pa.Table.from_arrays(arrays, schema=schema)
    return table.take(_order(kind, table))


def _order(kind: str, table: pa.Table) -> pa.Array:
    """Rows in the order of a JSON Lines export: by id number (ids, then by time for links)."""
    if kind == "link":
        return pc.sort_indices(table, [("at", "ascending"), ("version", "ascending"), ("episode", "ascending")])
    prefix = logio.ID_PREFIX.get(kind)
    if prefix is None:
        return pc.sort_indices(table, [(table.column_names[0], "ascending")])
    number = pc.cast(pc.utf8_slice_codeunits(table.column("id"), len(prefix)), pa.int64())
    return pc.sort_indices(pa.table({"n": number}), [("n", "ascending")])


# -- export ------------------------------------------------------------------------------------


def export_parquet(engine: Engine, engine_name: str, zone: str, directory: Path,
                   progress: Progress | None = None) -> int:
    """Write every record of the store into a new directory of Parquet files; return how many.

    The files are written into a temporary directory beside ``directory`` and moved into place
    at the end: a failed export leaves nothing behind. ``directory`` must not exist, or be empty.
    """
    directory = Path(directory)
    if directory.is_symlink():
        raise InvalidInput(f"{directory} is a link; export into a new directory")
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise InvalidInput(f"{directory} exists and is not an empty directory; export into a new one")
    with engine.lock:  # one consistent state: no other thread writes while it is read
        meta = {k: v for k, v in engine.run("store/meta_all") if not logio._layout(k)}
        tables = store_tables(engine)
    work = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent if directory.parent.exists()
                                 else None))
    try:
        for kind, stem in FILES.items():
            pq.write_table(tables[kind], work / f"{stem}.parquet", compression="zstd",
                           use_dictionary=_repeating(tables[kind]))
            if progress:
                progress(tables[kind].num_rows)
        header = {"type": "graphmem", "format": logio.FORMAT, "layout": LAYOUT, "engine": engine_name,
                  "timezone": zone, "meta": dict(sorted(meta.items())),
                  "rows": {stem: tables[kind].num_rows for kind, stem in FILES.items()}}
        (work / HEADER).write_text(json.dumps(header, indent=1) + "\n", encoding="utf-8")
        if directory.exists():
            directory.rmdir()
        os.replace(work, directory)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return sum(t.num_rows for t in tables.values())


#: Rows of a column sampled to decide how it is written.
_SAMPLE = 1 << 16


def _repeating(table: pa.Table) -> list[str]:
    """The text columns (by Parquet path) whose values repeat, at most half of a sample of them
    distinct: written dictionary-encoded. The others (ids, lists of ids) are written plain: a
    dictionary of values that all differ saves nothing, and an import reads a plain column
    several times faster (:func:`_may_expand`)."""
    found = []
    sample = table.slice(0, _SAMPLE)
    for field in table.schema:
        values, path = sample.column(field.name), field.name
        if pa.types.is_list(field.type):
            values, path = pc.list_flatten(values), f"{field.name}.list.element"
        present = len(values) - values.null_count
        if pa.types.is_string(values.type) and present and pc.count_distinct(values).as_py() * 2 <= present:
            found.append(path)
    return found


# -- reading and checking a Parquet log ---------------------------------------------------------


def is_parquet_log(path: Path) -> bool:
    """True when ``path`` is a directory (what a Parquet log is); a file is read as JSON Lines."""
    return Path(path).is_dir()


def read_log(directory: Path, large: bool = False) -> tuple[dict[str, Any], dict[str, pa.Table]]:
    """The header and the checked tables (by record type) of a Parquet log; ImportFailed names
    the file, and the row when one is at fault. Files that decode to more than
    :data:`graphmem.core.json_lines.SMALL_LOG` bytes are read only if ``large``."""
    directory = Path(directory)
    header = read_header(directory)
    paths = {kind: directory / f"{stem}.parquet" for kind, stem in FILES.items()}
    on_disk = sum(path.stat().st_size for path in paths.values() if path.is_file())
    budget = _Budget(max(DECODED_FLOOR, DECODED_RATIO * on_disk), on_disk)
    if not large and budget.total > SMALL_LOG:
        budget.total, budget.small = SMALL_LOG, True
    tables = {}
    for kind, stem in FILES.items():
        path = paths[kind]
        expected = header["rows"].get(stem)
        read = _read(path, kind, expected, budget)
        table = _conformed(path, kind, read)
        if expected != table.num_rows:
            raise ImportFailed(f"{path} holds {table.num_rows} rows, but the header says {expected} "
                               "(a file cut short or from another export?)")
        _check_rows(path, kind, table, _valid_dictionaries(read))
        tables[kind] = table
    return header, tables


def read_header(directory: Path) -> dict[str, Any]:
    path = directory / HEADER
    if not path.exists() and not path.is_symlink():
        raise ImportFailed(f"{directory} is not a graphmem Parquet log ({HEADER} is missing)")
    try:
        with open_regular(path) as handle:  # never a device or a FIFO
            text = handle.read(MAX_LINE + 1)
        if len(text) > MAX_LINE:
            raise ImportFailed(f"{path}: not a graphmem header (longer than {MAX_LINE:,} bytes)")
        header = loads(text.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ImportFailed(f"{path}: not a graphmem header ({str(exc).splitlines()[0]})") from exc
    if not isinstance(header, dict) or header.get("type") != "graphmem":
        raise ImportFailed(f"{path}: not a graphmem header (a JSON object with \"type\": \"graphmem\" is expected)")
    if header.get("format") != logio.FORMAT or header.get("layout") != LAYOUT:
        raise ImportFailed(f"{path}: a graphmem log of format {header.get('format')!r}, layout "
                           f"{header.get('layout')!r}, which this version cannot read as Parquet (it reads "
                           f"format {logio.FORMAT}, layout {LAYOUT!r})")
    meta, rows = header.get("meta"), header.get("rows")
    if not isinstance(header.get("timezone"), str):
        raise ImportFailed(f"{path}: the header names no time zone")
    if not isinstance(meta, dict) or not isinstance(rows, dict):
        raise ImportFailed(f"{path}: the header needs 'meta' (settings) and 'rows' (row counts) objects")
    for key, value in meta.items():
        try:
            logio.check_meta({"key": key, "value": value})
        except ValueError as exc:
            raise ImportFailed(f"{path}: {exc}") from exc
    return header


#: What a Parquet log's files may decode to together, in bytes: this many times their size on
#: disk (an export decodes to 3 to 8 times), and at least DECODED_FLOOR. Checked from each file's
#: metadata before a row is read, then while its rows are read (text kept dictionary-encoded
#: until its decoded size is known), so small files that expand to gigabytes are refused early,
#: one by one or together.
DECODED_RATIO = 32
DECODED_FLOOR = 64 << 20


class _Budget:
    """What the files of one Parquet log may still decode to."""

    def __init__(self, total: int, on_disk: int) -> None:
        self.total, self.on_disk, self.used, self.small = total, on_disk, 0, False
#: Rows read at a time.
BATCH = 256 * 1024


def _read(path: Path, kind: str, expected: object, budget: _Budget) -> pa.Table:
    """The file's columns that a record type's file has (the rest is never read), within budget:
    its row count (from its own metadata) must be the header's, and what it decodes to at most
    :data:`DECODED_RATIO` times its size; ImportFailed otherwise, before the rows are read."""
    if not path.exists() and not path.is_symlink():
        raise ImportFailed(f"{path} is missing")
    with open_regular(path) as handle:
        try:
            return _read_within_budget(path, kind, handle, expected, budget)
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise ImportFailed(f"{path}: not a readable Parquet file ({str(exc).splitlines()[0]})") from exc


def _read_within_budget(path: Path, kind: str, handle: Any, expected: object, budget: _Budget) -> pa.Table:
    metadata = pq.ParquetFile(handle).metadata
    rows = metadata.num_rows
    if rows != expected:
        raise ImportFailed(f"{path} holds {rows} rows, but the header says {expected} "
                           "(a file cut short or from another export?)")
    wanted = {f.name for f in SCHEMAS[kind]}
    leaves = [metadata.schema.column(j) for j in range(metadata.num_columns)]
    read = [c for c in leaves if c.path.split(".")[0] in wanted]
    stored = sum(metadata.row_group(g).column(j).total_uncompressed_size
                 for g in range(metadata.num_row_groups) for j in range(metadata.num_columns)
                 if leaves[j].path.split(".")[0] in wanted)
    _within(path, budget, stored + rows * 8 * len(read))  # at least an offset or a value a row
    text = {f.name for f in SCHEMAS[kind] if pa.types.is_string(f.type) or pa.types.is_list(f.type)}
    texts = [c.path for j, c in enumerate(leaves) if c.physical_type == "BYTE_ARRAY"
             and c.path.split(".")[0] in text and _may_expand(metadata, j)]
    reader = pq.ParquetFile(handle, read_dictionary=texts)
    columns = [name for name in reader.schema_arrow.names if name in wanted]
    batches, decoded = [], 0
    for batch in reader.iter_batches(batch_size=BATCH, columns=columns):
        decoded += sum(_decoded_size(column) for column in batch.columns)
        _within(path, budget, decoded)
        batches.append(batch)
    budget.used += decoded
    if not batches:
        return pa.schema([reader.schema_arrow.field(name) for name in columns]).empty_table()
    return pa.Table.from_batches(batches)


#: Encodings whose values are stored one after another, as they decode (and the levels' own).
_PLAIN = frozenset({"PLAIN", "RLE", "BIT_PACKED"})


def _may_expand(metadata: pq.FileMetaData, column: int) -> bool:
    """True when a text column may decode to more than it stores: a dictionary page (one value
    cited by many rows) or another encoding than plain in some row group. Such a column is read
    dictionary-encoded, its size measured before it is decoded; a plain one decodes to what its
    metadata says it stores (checked before it is read), and reading it plain is several times
    faster than hashing every value into a dictionary."""
    chunks = (metadata.row_group(g).column(column) for g in range(metadata.num_row_groups))
    return any(chunk.has_dictionary_page or not set(chunk.encodings) <= _PLAIN for chunk in chunks)


def _within(path: Path, budget: _Budget, decoded: int) -> None:
    if budget.used + decoded > budget.total and budget.small:
        raise ImportFailed(f"{path.parent} decodes to more than {budget.used + decoded:,} bytes, over the "
                           f"{SMALL_LOG:,} an import reads unless asked (held in memory while checked); import "
                           "it with --large (import_log(..., large=True)) if you trust it")
    if budget.used + decoded > budget.total:
        raise ImportFailed(f"{path} decodes to more than {decoded:,} bytes; with the files before it, over "
                           f"the {budget.total:,} an import reads from {budget.on_disk:,} bytes on disk "
                           f"({DECODED_RATIO} times their size, at least {DECODED_FLOOR:,}); not a graphmem export")


def _decoded_size(values: pa.Array) -> int:
    """The bytes ``values`` take once its dictionary-encoded text is decoded (not decoding it)."""
    if pa.types.is_dictionary(values.type):
        lengths = pc.binary_length(values.dictionary)
        text = pc.sum(pc.take(lengths, values.indices)).as_py() or 0
        return int(text) + 4 * len(values)
    if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
        return 8 * len(values) + _decoded_size(values.flatten())
    return int(values.nbytes)


def _conformed(path: Path, kind: str, table: pa.Table) -> pa.Table:
    """The file's table with exactly its expected columns and types (compatible encodings cast;
    other columns dropped), or ImportFailed naming the column."""
    arrays = []
    for field in SCHEMAS[kind]:
        if field.name not in table.column_names:
            raise ImportFailed(f"{path}: column {field.name!r} is missing")
        values = table.column(field.name)
        if not _castable(values.type, field.type):
            raise ImportFailed(f"{path}: column {field.name!r} is {values.type}, not {field.type}")
        try:
            arrays.append(values.cast(field.type) if values.type != field.type else values)
        except pa.ArrowInvalid as exc:
            raise ImportFailed(f"{path}: column {field.name!r}: {str(exc).splitlines()[0]}") from exc
    try:
        return pa.Table.from_arrays(arrays, schema=pa.schema([f.with_nullable(True) for f in SCHEMAS[kind]]))
    except pa.ArrowInvalid as exc:
        raise ImportFailed(f"{path}: {str(exc).splitlines()[0]}") from exc


def _castable(found: pa.DataType, wanted: pa.DataType) -> bool:
    """Types read as another without changing a value: string encodings, integer widths, time
    units of UTC timestamps."""
    if found == wanted:
        return True
    if pa.types.is_dictionary(found):
        return _castable(found.value_type, wanted)
    if pa.types.is_string(wanted):
        return pa.types.is_string(found) or pa.types.is_large_string(found)
    if pa.types.is_integer(wanted):
        return pa.types.is_integer(found)
    if pa.types.is_timestamp(wanted):
        return pa.types.is_timestamp(found) and found.tz in _UTC_NAMES
    if pa.types.is_list(wanted):
        return (pa.types.is_list(found) or pa.types.is_large_list(found)) and _castable(found.value_type,
                                                                                        wanted.value_type)
    return False


def _valid_dictionaries(table: pa.Table) -> frozenset[str]:
    """The columns read dictionary-encoded whose values are all UTF-8 text: checked once per
    distinct value (and each index in bounds), not once per row after they are decoded."""
    found = set()
    for name in table.column_names:
        values = table.column(name)
        if pa.types.is_dictionary(values.type) and pa.types.is_string(values.type.value_type):
            try:
                values.validate(full=True)
            except pa.ArrowInvalid:
                continue  # decoded and checked row by row, to name the row
            found.add(name)
    return frozenset(found)


def _check_rows(path: Path, kind: str, table: pa.Table, valid: frozenset[str] = frozenset()) -> None:
    """What the models and ``logio._check_record`` refuse in a JSON record, column by column;
    the first bad row is named. The text of the columns in ``valid`` is known to be UTF-8."""
    # problem(row) says what is wrong; ``...``: the lambdas bind the loop's variables as defaults
    def refuse(mask: pa.ChunkedArray | pa.Array, problem: Callable[..., str]) -> None:
        mask = pc.fill_null(mask, True)
        if pc.any(mask).as_py():
            row = pc.index(mask, True).as_py()
            raise ImportFailed(f"{path}:row {row + 1}: {problem(row)}")

    nullable = {f.name: f.nullable for f in SCHEMAS[kind]}
    for name in table.column_names:
        values = table.column(name)
        if name not in valid:
            _valid_text(path, kind, name, values)
        if not nullable[name]:
            refuse(pc.is_null(values), lambda row, name=name: f"{kind} {name} is missing")
        if pa.types.is_list(values.type) and values.num_chunks and len(pc.list_flatten(values)):
            items = pc.list_flatten(values)
            parents = pc.list_parent_indices(values)
            if pc.any(pc.is_null(items)).as_py():
                row = parents[pc.index(pc.is_null(items), True).as_py()].as_py()
                raise ImportFailed(f"{path}:row {row + 1}: {kind} {name} holds a missing item")
        if values.type == TIME:
            low, high = pa.scalar(MIN_TIME, TIME), pa.scalar(MAX_TIME, TIME)
            out = pc.fill_null(pc.or_(pc.less(values, low), pc.greater_equal(values, high)), False)
            refuse(out, lambda row, values=values, name=name: f"{kind} {name}: time "
                   f"{_shown(values[row])} is out of range (years 1 to 9998)")
        if pa.types.is_integer(values.type):
            refuse(pc.fill_null(pc.less(values, 0), False),
                   lambda row, values=values, name=name: f"{kind} {name}: {values[row].as_py()} is out of range")
        allowed = _choices(kind, name)
        if allowed:
            refuse(pc.fill_null(pc.invert(pc.is_in(values, pa.array(allowed))), False),
                   lambda row, values=values, name=name, allowed=allowed: f"{kind} {name} "
                   f"{values[row].as_py()!r} is not one of {', '.join(allowed)}")
    pattern = logio.ID_PATTERN.get(kind)
    if pattern is not None:
        ids = table.column("id")
        refuse(pc.invert(pc.match_substring_regex(ids, f"^{pattern.pattern}$")),
               lambda row: f"{kind} id {ids[row].as_py()!r} is not of the form {logio.ID_PREFIX[kind]}<number>")
    if kind == "entity":
        refuse(pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(table.column("id"))), 0),
               lambda row: "entity id is empty")
    if kind in ("version", "proposal", "predicate"):
        names = table.column("name" if kind == "predicate" else "predicate")
        refuse(pc.invert(pc.match_substring_regex(names, "^[a-z][a-z0-9_]{0,63}$")),
               lambda row: f"{kind} {'name' if kind == 'predicate' else 'predicate'} "
               f"{names[row].as_py()!r} is not a valid name")
    if kind == "predicate":
        refuse(pc.invert(pc.is_in(table.column("kind"), pa.array(["one", "many", "event"]))),
               lambda row: f"predicate kind {table.column('kind')[row].as_py()!r} is not one, many or event")


def _choices(kind: str, name: str) -> tuple[str, ...]:
    """The values a Literal field of a record type allows (empty for any other field)."""
    if kind == "predicate":
        return ()
    annotation = logio.MODELS[kind].model_fields[name].annotation if name in logio.MODELS[kind].model_fields else None
    return get_args(annotation) if get_origin(annotation) is Literal else ()


def _valid_text(path: Path, kind: str, name: str, values: pa.ChunkedArray) -> None:
    """Refuse text that is not UTF-8 (a Parquet reader does not check it), naming the row."""
    if not (pa.types.is_string(values.type) or pa.types.is_list(values.type)):
        return
    try:
        values.validate(full=True)
        return
    except pa.ArrowInvalid:
        pass
    offset = 0
    for chunk in values.chunks:  # the error path only: find the row
        for index in range(len(chunk)):
            try:
                chunk.slice(index, 1).validate(full=True)
            except pa.ArrowInvalid as exc:
                raise ImportFailed(f"{path}:row {offset + index + 1}: {kind} {name} is not UTF-8 text") from exc
        offset += len(chunk)


def _shown(value: pa.Scalar) -> str:
    try:
        return iso(value.as_py())
    except (ValueError, OverflowError):
        return f"{value.cast(pa.int64()).as_py()} µs from 1970"


# -- import ---------------------------------------------------------------------------------------


def import_parquet(engine: Engine, store_directory: Path | None, source: Path, *, zone: str,
                   progress: Progress | None = None, allow_future: bool = False, large: bool = False) -> int:
    """Restore a Parquet log into the store held by ``engine``, all or nothing; return the records.

    ``zone`` is the store's time zone, ``store_directory`` where it lives (None in memory: the
    crash marker of :func:`graphmem.log.jsonl._load` goes there). A log whose latest write is more
    than a day past the wall clock is refused unless ``allow_future``.
    """
    source = Path(source)
    with _import_pool():
        return _import(engine, store_directory, source, zone=zone, progress=progress, allow_future=allow_future,
                       large=large)


#: The environment variable with which a user picks Arrow's memory pool (then left as chosen).
_POOL_ENV = "ARROW_DEFAULT_MEMORY_POOL"


@contextmanager
def _import_pool() -> Iterator[None]:
    """Arrow's allocations during an import come from the system allocator (malloc), not
    Arrow's default (mimalloc), which returns freed memory to the system within milliseconds:
    the import's checks allocate and free hundreds of megabytes over and over, and each time the
    pages came back the kernel zeroed them again (a 1M-version import: read_log 0.8-1.6 CPU-s,
    the invariants 1.2-1.3; with malloc 0.6-0.8 and 0.9-1.0; BENCHMARKS.md, "Import speed").
    Arrays keep the pool that made them, so the switch back is safe; a pool picked with
    ``ARROW_DEFAULT_MEMORY_POOL`` is left alone."""
    before = pa.default_memory_pool()
    if os.environ.get(_POOL_ENV) or before.backend_name == "system":
        yield
        return
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)


def _import(engine: Engine, store_directory: Path | None, source: Path, *, zone: str, progress: Progress | None,
            allow_future: bool, large: bool) -> int:
    header, tables = read_log(source, large)
    declared = dict(zip(tables["predicate"].column("name").to_pylist(), tables["predicate"].column("kind").to_pylist()))
    with engine.lock:  # no other thread writes between the checks and the two transactions
        own = store_tables(engine)
        current = dict(engine.run("store/meta_all"))
        indexes = _refuse_conflicts(source, header, zone, current, tables, own)
        own_declared = dict(engine.run("store/predicate_all"))
        _refuse_unsound(source, tables, own, {**DEFAULT_PREDICATES, **own_declared, **declared}, indexes)
        for name, kind in declared.items():
            logio._refuse_redeclaring(engine, own_declared, name, kind)
        settings = logio._merged_meta(header["meta"], current, _highest_ids(tables), _latest(tables))
        logio.refuse_future(settings, allow_future)
        logio._load(engine, store_directory, declared, settings, engine_tables(tables), progress)
    return sum(t.num_rows for t in tables.values())


def _highest_ids(tables: dict[str, pa.Table]) -> dict[str, int]:
    found = {}
    for kind, prefix in logio.ID_PREFIX.items():
        ids = tables[kind].column("id")
        numbers = pc.cast(pc.utf8_slice_codeunits(ids, len(prefix)), pa.int64())
        found[prefix] = pc.max(numbers).as_py() or 0
    return found


def _latest(tables: dict[str, pa.Table]) -> datetime | None:
    return pc.max(tables["decision"].column("at")).as_py()


def _refuse_conflicts(source: Path, header: dict[str, Any], zone: str, current: dict[str, str],
                      tables: dict[str, pa.Table], own: dict[str, pa.Table]) -> dict[str, IdIndex]:
    """What ``logio._refuse_conflicts`` refuses in a JSON Lines log, over columns. Returns the
    index of each kind's ids it made (of the log's records: kinds with ids only), for the
    invariants."""
    if header["timezone"] != zone:
        raise ImportFailed(f"the log reads naive times in {header['timezone']}, this store in {zone}")
    latest = current.get("last_write")
    first = pc.min(tables["decision"].column("at")).as_py()
    if latest and first is not None and first <= logio.parse_time(latest):
        raise ImportFailed(f"the log's first write ({iso(first)}) is not after this store's latest write "
                           f"({latest}); import into a new store")
    indexes = {}
    for kind, stem in FILES.items():
        if kind == "predicate":
            continue
        ids, taken = _ids(kind, tables[kind]), _ids(kind, own[kind])
        index = IdIndex(ids)
        if kind != "link":
            indexes[kind] = index
        clash = index.repeated()
        if len(taken):
            clash |= IdIndex(taken).of(ids)[0] >= 0
        if clash.any():
            row = int(clash.argmax())
            raise ImportFailed(f"{source / (stem + '.parquet')}:row {row + 1}: {kind} id {ids[row].as_py()!r} "
                               "is already taken; import into a new store")
    entities = pa.chunked_array([*tables["entity"].column("id").chunks, *own["entity"].column("id").chunks],
                                pa.string())
    versions = tables["version"]
    ends = pc.is_in(pa.chunked_array([*versions.column("subject_id").chunks, *versions.column("object_id").chunks],
                                     pa.string()), entities).to_numpy(zero_copy_only=False)
    stray = ~(ends[:versions.num_rows] & ends[versions.num_rows:])
    if stray.any():
        row = int(stray.argmax())
        raise ImportFailed(f"{source / 'versions.parquet'}:row {row + 1}: version {versions.column('id')[row]} "
                           "links an entity that the log does not hold")
    return indexes


def _ids(kind: str, table: pa.Table) -> pa.ChunkedArray:
    if kind == "link":
        return pc.binary_join_element_wise(table.column("version"), table.column("episode"), "/")
    return table.column("id")


def _refuse_unsound(source: Path, tables: dict[str, pa.Table], own: dict[str, pa.Table],
                    predicates: dict[str, str], indexes: dict[str, IdIndex] | None = None) -> None:
    """Refuse a log whose records, with the store's own, break an invariant `check` verifies,
    naming the file and row of the first record at fault. ``indexes``: of the log's ids by kind
    (:func:`_refuse_conflicts`), used for the kinds the store holds none of."""
    combined = {kind: pa.concat_tables([own[kind], tables[kind].cast(own[kind].schema)]) if own[kind].num_rows
                else tables[kind] for kind in FILES}
    reused = {kind: index for kind, index in (indexes or {}).items() if not own[kind].num_rows}
    problems = violations(combined, predicates, reused)
    if not problems:
        return
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    where = ""
    if first.record:
        kind, _, key = first.record.partition(" ")
        if kind in FILES:
            path = source / f"{FILES[kind]}.parquet"
            column = "name" if kind == "predicate" else "id"
            values = _ids(kind, tables[kind]) if kind != "predicate" else tables[kind].column(column)
            index = pc.index(values, key).as_py()
            where = f"{path}:row {index + 1}: " if index >= 0 else ""
    raise ImportFailed(f"{where}the log is not sound: {first.rule}: {first.detail}{more}; nothing was written")


def engine_tables(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """The log's tables as the engine's, in load order: naive UTC times, open ends as the sentinel."""
    found = {}
    for table in TABLES:
        if not table.record:
            continue
        source = tables[table.record]
        found[table.name] = pa.Table.from_arrays([_engine_column(c, source, table.record) for c in table.every_column],
                                                 schema=table.arrow_schema())
    return found


def _engine_column(column: Column, source: pa.Table, kind: str) -> pa.ChunkedArray:
    if column.source not in source.column_names:  # a link's key: version/episode
        return _ids(kind, source)
    values = source.column(column.source)
    if column.type == "TIMESTAMP":
        values = values.cast(_ENGINE_TIME)
        if column.open_end:
            values = pc.fill_null(values, pa.scalar(OPEN_END, _ENGINE_TIME))
    return values
