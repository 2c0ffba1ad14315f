"""Whole copies of a store's files: backup, restore, and compaction.

A **backup** is a directory holding a checkpointed copy of the engine's database file, the
store marker and ``backup.json`` (what it holds and a checksum). It is taken by the process
that holds the store, under the engine lock, so it is one consistent moment of the log even
while that process's other threads read and write.

**Compaction** rewrites the store into a fresh database file: every table is read out as
Arrow and bulk-loaded into a new database beside the old one, the row counts are compared,
and the new file replaces the old one while the store is held. The engines keep deleted
rows' bytes in their data file (seen on both kuzu 0.11 and ladybug 0.22, even after
CHECKPOINT), so a purge is only real once the store has been compacted:
:meth:`graphmem.Store.purge` compacts after every purge. A marker file (``compact.pending``)
is written before the purge and removed after the swap, so a crash in between is finished
when the store is next opened. The cost is a full rewrite of the store (measured: about 1 s
for 60,000 records; it grows with the store's size).

Internal: use :meth:`graphmem.Store.backup`, ``restore`` and ``compact``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.times import UTC, parse_time
from ..engine import DATABASE_FILE, MARKER_FILE, Engine, acquire, release
from ..errors import Conflict, EngineError, GraphmemError, InvalidInput
from ..models import Model
from ..read import questions

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["BackupInfo", "backup", "compact", "compacting", "finish_pending", "load_tables", "read_tables", "restore",
           "restore_into", "rewrite"]

MANIFEST = "backup.json"
PENDING = "compact.pending"
WORK = ".compact"  # scratch directory inside the store while it is rewritten
FORMAT = 1
_LABEL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class BackupInfo(Model):
    """What a backup holds: where, which engine, when, how many rows of each table, its checksum."""

    path: str
    engine: str
    created_at: datetime
    latest_write: datetime | None = None
    tables: dict[str, int]
    bytes: int
    sha256: str


# -- reading the engine's tables ------------------------------------------------------------------


def _label(name: str) -> str:
    """A table or property name from the engine's catalog, checked before it is spliced."""
    if not isinstance(name, str) or not _LABEL.match(name):
        raise EngineError(f"unexpected name {name!r} in the store's catalog")
    return name


def _tables(engine: Engine) -> dict[str, str]:
    """Every table of the database and its kind (NODE or REL), from the engine's catalog."""
    return {_label(row[1]): row[2] for row in engine.run_text("CALL show_tables() RETURN *", {})}


def table_counts(engine: Engine) -> dict[str, int]:
    """Rows in every table of the database (from the engine's catalog, not graphmem's schema)."""
    counts = {}
    with engine.lock:
        for name, kind in _tables(engine).items():
            pattern = f"MATCH (n:{name}) RETURN count(n)" if kind == "NODE" else \
                f"MATCH ()-[r:{name}]->() RETURN count(r)"
            counts[name] = engine.run_text(pattern, {})[0][0]
    return counts


def _fresh(name: str, directory: Path) -> Engine:
    """A new, empty database with graphmem's schema (no settings: they are copied)."""
    from ..engine.statements import QUERIES

    engine = acquire(name, directory)
    try:
        for query in sorted(q for q in QUERIES if q.startswith("schema/")):
            engine.run(query)
    except BaseException:
        release(engine)
        raise
    return engine


def read_tables(source: Engine) -> dict[str, pa.Table]:
    """Every row of every table of ``source``, as Arrow, by the engine's catalog (not graphmem's
    schema: a store written by an older release is read as it is). A relationship table's rows
    start with ``from`` and ``to``, the keys of its ends."""
    found = {}
    with source.lock:
        kinds = _tables(source)
        for name, kind in sorted(kinds.items(), key=lambda item: item[1] != "NODE"):  # nodes first
            columns = [_label(row[1]) for row in source.run_text(f"CALL table_info('{name}') RETURN *", {})]
            values = ", ".join(f"r.{c} AS `{c}`" for c in columns)
            if kind == "NODE":
                query = f"MATCH (r:{name}) RETURN {values}"
            else:
                ((_, _, key_from, key_to),) = [row[:4] for row in
                                               source.run_text(f"CALL show_connection('{name}') RETURN *", {})]
                query = (f"MATCH (a)-[r:{name}]->(b) RETURN a.{_label(key_from)} AS `from`, "
                         f"b.{_label(key_to)} AS `to`, {values}")
            found[name] = source.arrow_text(query)
    return found


def load_tables(target: Engine, rows: dict[str, pa.Table]) -> None:
    """COPY each table's rows into the same, empty table of ``target``, in one transaction
    (node tables first, in the order given), and check every table then holds what was given."""
    with target.transaction():
        for name, table in rows.items():
            if table.num_rows:
                target.run_text(f"COPY {name} FROM $rows", {"rows": table})
    expected = {name: table.num_rows for name, table in rows.items()}
    written = table_counts(target)
    if any(written.get(name, 0) != n for name, n in expected.items()) or \
            any(n for name, n in written.items() if name not in expected):
        raise EngineError(f"the copy would change the store's rows ({expected} -> {written})")


def copy_tables(source: Engine, target: Engine) -> None:
    """Copy every row of every table of ``source`` into the same, empty tables of ``target``.

    Each table goes out as Arrow and in with one COPY, in one transaction; the row counts of
    every table are compared afterwards.
    """
    load_tables(target, read_tables(source))


def _on_disk(engine: Engine) -> Path:
    if engine.directory is None:
        raise InvalidInput("an in-memory store has no files; use an on-disk store")
    return engine.directory


def _checkpointed(engine: Engine) -> None:
    """Flush the write-ahead log into the database file (hold the lock; no write may be open)."""
    if engine.in_transaction:
        raise Conflict("a write is under way on this store; try again when it has finished")
    engine.run_text("CHECKPOINT", {})


def _fsync(path: Path) -> None:
    flags = os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _publish(partial: Path, dest: Path) -> None:
    """Make a fully written ``partial`` directory durable, then move it to ``dest`` (empty or absent)."""
    for path in partial.iterdir():
        _fsync(path)
    _fsync(partial)
    if dest.exists():
        dest.rmdir()
    partial.rename(dest)
    _fsync(dest.parent)


def _engine_files(directory: Path) -> list[Path]:
    """The engine's files besides the database file itself (its write-ahead log, ...)."""
    return sorted(p for p in directory.glob(DATABASE_FILE + ".*") if p.is_file())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# -- compaction ---------------------------------------------------------------------------------


def compact(engine: Engine) -> None:
    """Rewrite the store into a fresh database file, leaving no deleted bytes behind.

    Holds the store for the whole rewrite; other threads wait. Safe to interrupt: until the
    new file replaces the old one in a single rename, the old one is untouched.
    """
    directory = _on_disk(engine)
    work = directory / WORK
    with engine.lock:
        _checkpointed(engine)
        shutil.rmtree(work, ignore_errors=True)
        try:
            fresh = _fresh(engine.name, work)
            try:
                copy_tables(engine, fresh)
            finally:
                release(fresh)
            engine.reopen(while_closed=lambda: _replace_database(work / DATABASE_FILE, directory))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        (directory / PENDING).unlink(missing_ok=True)


#: A long job's report to a progress bar: ``(phase, done, total)``.
Progress = Callable[[str, int, int], None]


def rewrite(engine: Engine, convert: Callable[[dict[str, pa.Table]], dict[str, pa.Table]],
            progress: Progress | None = None) -> None:
    """Rewrite the store into a fresh database file of the current layout (a migration that
    changes how the log is held): every table is read out as the engine's catalog has it,
    ``convert``ed into the current tables' rows, and loaded with one COPY per table into a new
    database beside the old one, which replaces the old one in a single rename.

    Safe under kill -9 at any moment: until the rename, the old file is untouched and the
    half-made one is discarded at the next open; after it, the new file is whole.
    """
    directory = _on_disk(engine)
    work = directory / WORK
    report = progress or (lambda phase, done, total: None)
    with engine.lock:
        _checkpointed(engine)
        shutil.rmtree(work, ignore_errors=True)
        try:
            report("reading the store", 0, 4)
            old = read_tables(engine)
            report("converting", 1, 4)
            rows = convert(old)
            del old
            report("writing the new files", 2, 4)
            fresh = _fresh(engine.name, work)
            try:
                load_tables(fresh, rows)
            finally:
                release(fresh)
            report("swapping the files", 3, 4)
            engine.reopen(while_closed=lambda: _replace_database(work / DATABASE_FILE, directory))
            report("done", 4, 4)
        finally:
            shutil.rmtree(work, ignore_errors=True)


def _replace_database(new: Path, directory: Path) -> None:
    """Move a closed database file into the store (the old one closed too), atomically."""
    if leftovers := _engine_files(new.parent):
        raise EngineError(f"the rewritten database left {leftovers[0].name} behind; the store is left as it was")
    if leftovers := _engine_files(directory):
        raise EngineError(f"the store's {leftovers[0].name} survived closing; the store is left as it was")
    _fsync(new)
    os.replace(new, directory / DATABASE_FILE)
    _fsync(directory)


@contextmanager
def compacting(engine: Engine) -> Iterator[None]:
    """Around a write that deletes content: mark the store, and compact it once the write is in.

    The marker is written first, so a crash before the compaction finishes leaves it for
    :func:`finish_pending` at the next open. If the write fails, the marker is removed again
    (unless an earlier one was still pending).
    """
    if engine.directory is None:
        yield
        return
    marker = engine.directory / PENDING
    earlier = marker.exists()
    marker.write_text(json.dumps({"since": datetime.now(UTC).isoformat()}))
    _fsync(engine.directory)
    try:
        yield
    except BaseException:
        if not earlier:
            marker.unlink(missing_ok=True)
        raise
    try:
        compact(engine)
    except GraphmemError as exc:
        raise EngineError(
            f"the purge is written, but rewriting the store's files failed ({exc}); the removed text "
            "may remain in the database file until `graphmem compact` succeeds"
        ) from exc


def finish_pending(engine: Engine) -> None:
    """Finish a compaction a crash interrupted (called when a store is opened)."""
    if engine.directory is None:
        return
    with engine.lock:  # another thread of this process may be rewriting the store right now
        shutil.rmtree(engine.directory / WORK, ignore_errors=True)  # half a rewrite or restore, never needed
        if not (engine.directory / PENDING).exists():
            return
        try:
            compact(engine)
        except GraphmemError as exc:  # the store still opens; the marker stays for the next try
            warnings.warn(f"store {engine.directory}: an interrupted purge could not be finished ({exc}); "
                          "run `graphmem compact`", RuntimeWarning, stacklevel=3)


# -- backup and restore -------------------------------------------------------------------------


def backup(engine: Engine, dest: str | Path) -> BackupInfo:
    """Copy the store behind ``engine`` into ``dest`` (a new directory) as one consistent moment of its log.

    Readers and writers in this process wait while the file is copied.
    """
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise InvalidInput(f"{dest} already exists and is not an empty directory; back up into a new one")
    partial = dest.with_name(dest.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    home = engine.directory
    try:
        with engine.lock:
            if engine.in_transaction:
                raise Conflict("a write is under way on this store; try again when it has finished")
            if home is not None and (home / PENDING).exists():
                compact(engine)  # an interrupted purge: its text must not reach the backup
            tables = table_counts(engine)
            latest = _latest_write(engine)
            if home is None:  # nothing on disk to copy: copy the tables into a new database
                copy = _fresh(engine.name, partial)
                try:
                    copy_tables(engine, copy)
                finally:
                    release(copy)
            else:
                _checkpointed(engine)
                partial.mkdir(parents=True, mode=0o700)  # the user's alone, as the store
                for source in [home / DATABASE_FILE, *_engine_files(home)]:
                    shutil.copyfile(source, partial / source.name)
                shutil.copyfile(home / MARKER_FILE, partial / MARKER_FILE)
        database = partial / DATABASE_FILE
        info = BackupInfo(path=str(dest), engine=engine.name, created_at=datetime.now(UTC),
                          latest_write=latest, tables=tables, bytes=database.stat().st_size,
                          sha256=_sha256(database))
        (partial / MANIFEST).write_text(info.model_dump_json(indent=2, exclude={"path"}) + "\n")
        _publish(partial, dest)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return info


def read_backup(src: str | Path) -> BackupInfo:
    """The manifest of a backup directory, checked against its database file."""
    from ..core.json_lines import loads, open_regular

    src = Path(src)
    if not (src / MANIFEST).exists() and not (src / MANIFEST).is_symlink():
        raise InvalidInput(f"{src} is not a graphmem backup (no {MANIFEST}); make one with `graphmem backup`")
    try:
        with open_regular(src / MANIFEST) as handle:  # never a device or a FIFO; a manifest is small
            text = handle.read(1 << 20)
        data = loads(text.decode("utf-8"))
        info = BackupInfo.model_validate({**data, "path": str(src)})
    except (ValueError, OSError, GraphmemError) as exc:
        raise InvalidInput(f"{src}/{MANIFEST} cannot be read: {exc}") from exc
    database = src / DATABASE_FILE
    if not database.is_file() or _sha256(database) != info.sha256:
        raise InvalidInput(f"backup {src} is damaged or was changed after it was made "
                           f"({DATABASE_FILE} does not match its checksum); nothing was restored")
    return info


def _latest_write(engine: Engine) -> datetime | None:
    value = questions.settings(engine).get("last_write")
    return parse_time(value) if value else None


def _unpacked(src: Path, info: BackupInfo, work: Path, tz_name: str | None) -> None:
    """Copy a backup into ``work`` and open it there once: it must open, on its engine, whole
    (and, restored into an open store, in this release's layout: ``tz_name`` is that store's)."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, mode=0o700)  # the user's alone, as a store is
    for source in [src / DATABASE_FILE, *_engine_files(src), src / MARKER_FILE]:
        shutil.copyfile(source, work / source.name)
    copy = acquire(info.engine, work)
    try:
        zone = questions.settings(copy).get("timezone", "UTC")
        if tz_name is not None and zone != tz_name:
            raise InvalidInput(f"the backup reads naive times in {zone}, this store in {tz_name}; "
                               "restore it into a new store")
        counts = table_counts(copy)
        if any(counts.get(name, 0) != info.tables.get(name, 0) for name in {*counts, *info.tables}):
            raise InvalidInput(f"backup {src} does not hold what its manifest says; nothing was restored")
        if tz_name is not None and not questions.layout_is_current(copy):
            raise InvalidInput(f"backup {src} was made by an older graphmem, in a layout this release does not "
                               "read; restore it into a new store (`graphmem --store NEW restore SRC`) and run "
                               "`graphmem --store NEW migrate` there; nothing was restored")
    finally:
        release(copy)


def restore(engine: Engine, src: str | Path, tz_name: str) -> BackupInfo:
    """Replace everything in the store behind ``engine`` (reading naive times in ``tz_name``) with
    the backup in ``src`` (checked before anything changes).

    The store is held throughout; other Stores on the same path in this process see the
    restored content afterwards.
    """
    src = Path(src)
    directory = _on_disk(engine)
    info = read_backup(src)
    if info.engine != engine.name:
        raise InvalidInput(f"backup {src} was made with {info.engine} and this store uses {engine.name}; "
                           "move between engines with export and import")
    work = directory / WORK
    with engine.lock:
        if engine.in_transaction:
            raise Conflict("a write is under way on this store; try again when it has finished")
        counted = _id_counters(engine)
        try:
            _unpacked(src, info, work, tz_name)
            engine.reopen(while_closed=lambda: _replace_database(work / DATABASE_FILE, directory))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        (directory / PENDING).unlink(missing_ok=True)  # the old file, purged bytes and all, is gone
        # ids go on from the highest either store gave: one the replaced store gave (and a client may still hold,
        # "v166") never names another version of the restored one
        restored = _id_counters(engine)
        for key, number in sorted(counted.items()):
            if number > restored.get(key, 0):
                engine.run("store/meta_set", {"key": key, "value": str(number)})
    return info


def _id_counters(engine: Engine) -> dict[str, int]:
    """The store's id counters: the last number each sequence gave ("seq:v" -> 166)."""
    return {key: int(value) for key, value in engine.run("store/meta_all") if key.startswith("seq:")}


def restore_into(directory: str | Path, src: str | Path) -> BackupInfo:
    """Create a new store at ``directory`` from the backup in ``src``."""
    directory, src = Path(directory), Path(src)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise InvalidInput(f"{directory} already exists; restore into an existing store with "
                           "`graphmem restore SRC --yes`, or name a new directory")
    info = read_backup(src)
    partial = directory.with_name(directory.name + ".partial")
    try:
        _unpacked(src, info, partial, None)
        _publish(partial, directory)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return info.model_copy(update={"path": str(src)})
