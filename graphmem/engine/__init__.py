"""The one seam to the embedded graph engine (kuzu or its fork ladybug).

Everything that touches the engine's Python API lives here: choosing and
importing exactly one engine per process, keeping exactly one Database per
path per process, running named queries with complete parameter dicts, and
explicit transactions. Nothing above this module imports kuzu or ladybug.

Internal: a Store holds its engine; ask the Store.
"""

from __future__ import annotations

import importlib
import importlib.util  # noqa: F401  (kuzu 0.11 uses importlib.util without importing it)
import json
import os
import re
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import EngineError, InvalidInput, StoreLocked
from .statements import HINTED, QUERIES, WRITING, may_write, parameters_of

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["DATABASE_FILE", "ENGINES", "Engine", "MARKER_FILE", "acquire", "choose_engine", "is_open_here",
           "load_engine", "owner_pid", "release"]

ENGINES = ("kuzu", "ladybug")
DEFAULT_ENGINE = "kuzu"
DATABASE_FILE = "graph.db"
MARKER_FILE = "graphmem.json"
OWNER_FILE = "owner.pid"
#: The marker's ``format``: 2 says the store's files are in this release's layout (the Fact edge
#: and its FactBody), so opening it reads no catalog to find out; a store marked 1 may be older,
#: and its catalog is read (and, when current, its marker rewritten) as it is opened.
FORMAT = 2

#: The engine's own objects (kuzu and ladybug ship no type information): a database, a prepared
#: statement, a query's result.
Database = Any
Prepared = Any
Result = Any


def choose_engine(explicit: str | None = None, directory: Path | None = None) -> str:
    """The engine to use: explicit choice, then GRAPHMEM_ENGINE, then the store's own, then kuzu."""
    name = explicit or os.environ.get("GRAPHMEM_ENGINE") or _marked_engine(directory)
    name = (name or _loaded_engine() or DEFAULT_ENGINE).strip().lower()
    if name not in ENGINES:
        raise EngineError(f"unknown engine {name!r}; choose one of: {', '.join(ENGINES)}")
    return name


def _loaded_engine() -> str | None:
    return next((name for name in ENGINES if name in sys.modules), None)


def _marked_engine(directory: Path | None) -> str | None:
    return _marker(directory).get("engine")


def _marker(directory: Path | None) -> dict[str, Any]:
    """The store's marker file (empty where there is none)."""
    if directory is None or not (directory / MARKER_FILE).exists():
        return {}
    return json.loads((directory / MARKER_FILE).read_text())


def load_engine(name: str) -> ModuleType:
    """Import the engine module; refuse a second, different engine in this process."""
    other = next((o for o in ENGINES if o != name and o in sys.modules), None)
    if other:
        raise EngineError(
            f"{other} is already loaded in this process and {name} cannot share it; "
            f"use a separate process for {name}"
        )
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if getattr(exc, "name", None) not in (name, None):  # the engine is there; something it imports failed
            shadow = f" (is a file of yours named {exc.name.split('.')[0]}.py in the way?)" if exc.name else ""
            raise EngineError(f"the {name} engine could not be imported: {exc}{shadow}") from exc
        from ..core.extras import install_hint  # from the folder graphmem was installed from, where it was (a new
        # user's: the explorer's hint named the folder, this one the registry)
        hint = install_hint("ladybug") if name == "ladybug" else "pip install kuzu"
        raise EngineError(f"the {name} engine is not installed; {hint}") from exc


class Engine:
    """One engine Database and its Connection, shared by every Store on the same path."""

    def __init__(self, name: str, directory: Path | None):
        self.name = name
        self.directory = directory
        self.lock = threading.RLock()
        self.users = 0
        module = load_engine(name)
        #: The marker's format as the store was opened (a new store is made in this release's layout).
        self.format = FORMAT
        if directory is None:
            self.database = module.Database(":memory:", **_buffer_pool())
        else:
            with directory_held(directory) as held:
                if not held:
                    raise StoreLocked(f"store {directory} is being made, opened or closed by another "
                                      f"process{_holder(directory / OWNER_FILE)}; try again in a moment")
                marker = _marker(directory)
                self._check_marker(marker.get("engine"))
                existed = (directory / DATABASE_FILE).exists()
                self.database = _open_database(module, directory)
                (directory / OWNER_FILE).write_text(str(os.getpid()))
                if marker:
                    self.format = int(marker.get("format", 1))
                else:  # files without a marker say nothing of their layout: asked, as a store marked 1 is
                    self.format = 1 if existed else FORMAT
                    (directory / MARKER_FILE).write_text(json.dumps({"engine": name, "format": self.format}))
                    stores_made_here.add(directory.resolve())
        self.connection = module.Connection(self.database)
        self.in_transaction = False
        #: Commits since the last checkpoint, and how many are let pass before one (see :func:`checkpoint_every`).
        self._committed, self.checkpoint_every = 0, checkpoint_every()
        self._copied = False  # a COPY ran in the open transaction: it must not be rolled back
        # kuzu runs prepared statements ~3x faster; ladybug deprecates them and runs them slower.
        self._prepared: dict[str, Prepared] | None = {} if name == "kuzu" else None
        #: Whether a list of keys (``UNWIND $ids AS i MATCH (n:T {id: i})``) is answered with one
        #: index lookup per key: ladybug does (~0.04 ms a key at 1M rows); kuzu 0.11 scans every
        #: row of the table instead (~0.3 s at 1M), so there a few keys are better asked one by one.
        self.keys_by_index = name != "kuzu"
        #: Whether named queries run with their join hints (``{{hint ...}}``, see
        #: :data:`~graphmem.engine.statements.HINTED`): told to start from the entity found by key,
        #: kuzu 0.11 reads its edges and their other ends ~15% faster, and the edges into a person
        #: ~12x faster (it walked every edge); ladybug plans those statements better itself and
        #: runs the hinted ones 2-4x slower (BENCHMARKS.md, "History and the explorer").
        self.follows_hints = name == "kuzu"
        #: Threads a bulk load's COPYs run on (None: the engine's own choice, every core). kuzu's
        #: node-table COPYs cost 20-30 % more CPU on two threads than on one (a 1M-version import:
        #: Decision 1.34 -> 1.07-1.10 CPU-s, FactBody 2.14-2.24 -> 1.49-1.52) and ran no faster on
        #: this shared 2-core machine; ladybug spreads them over its threads at little cost
        #: (BENCHMARKS.md, "The Parquet log", "Import speed").
        self.copy_threads: int | None = 1 if name == "kuzu" else None
        self.generation = 0  # how many times the files were reopened (rewritten by compaction or restore)
        #: Counts what may have changed the store: every statement that may write (outside a
        #: transaction), every transaction ended (committed or not) and every reopen. What a
        #: reader keeps of the store (see ``graphmem.read.body_cache``) is good while it stays the
        #: same: no other process writes while this one holds the files.
        self.changes = 0

    def _check_marker(self, marked: str | None) -> None:
        if marked and marked != self.name:
            raise EngineError(
                f"store {self.directory} was made with {marked} and cannot be opened with {self.name}; "
                f"open it with {marked}, or export it and import the file into a new {self.name} store"
            )

    def mark_current(self) -> None:
        """Say in the store's marker that its files are in this release's layout (see
        :data:`FORMAT`); the caller has read the catalog and found them so."""
        if self.format >= FORMAT:
            return
        if self.directory is not None:  # whole or not at all: other processes read it to choose an engine
            marker, partial = self.directory / MARKER_FILE, self.directory / f".{MARKER_FILE}.{os.getpid()}"
            partial.write_text(json.dumps({**_marker(self.directory), "format": FORMAT}))
            os.replace(partial, marker)
        self.format = FORMAT

    def run(self, name: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        """Run the named query from queries/ with a complete parameter dict; return its rows."""
        params = _checked(name, params)
        with self.lock:
            query: str | Prepared = self.text_of(name)
            if self._prepared is not None:
                query = self._prepared.get(name)
                if query is None:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", DeprecationWarning)
                        query = self._prepared[name] = self.connection.prepare(self.text_of(name))
            if name in WRITING:
                self.changes += 1
            return self._execute(query, params)

    def text_of(self, name: str) -> str:
        """The text this engine runs for the named query (with its join hints where it follows them)."""
        return HINTED.get(name, QUERIES[name]) if self.follows_hints else QUERIES[name]

    def run_text(self, text: str, params: dict[str, Any]) -> list[list[Any]]:
        """Run query text (not from queries/) with parameters."""
        with self.lock:
            self._may_write(text)
            return self._execute(text, params)

    def arrow(self, name: str, params: dict[str, Any] | None = None) -> pa.Table:
        """Run the named query and return its whole answer as one Arrow table."""
        return self.arrow_text(self.text_of(name), _checked(name, params))

    def arrow_text(self, text: str, params: dict[str, Any] | None = None) -> pa.Table:
        """Run query text (not from queries/) and return its whole answer as one Arrow table."""
        with self.lock:
            self._may_write(text)
            bound = {key: _bind(value) for key, value in (params or {}).items()}
            return self.connection.execute(text, bound).get_as_arrow()

    def _may_write(self, text: str) -> None:
        if may_write(text):
            self.changes += 1

    def _execute(self, query: str | Prepared, params: dict[str, Any]) -> list[list[Any]]:
        if self.in_transaction and isinstance(query, str) and query.lstrip()[:4].upper() == "COPY":
            self._copied = True
        return _rows(self.connection.execute(query, {key: _bind(value) for key, value in params.items()}))

    def run_with_columns(self, text: str, params: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
        """Run one statement of query text; return its column names and rows."""
        with self.lock:
            self._may_write(text)
            result = self.connection.execute(text, {key: _bind(value) for key, value in params.items()})
            if isinstance(result, list):
                raise EngineError("internal: one statement expected")
            return result.get_column_names(), _rows(result)

    def interrupt(self) -> None:
        """Stop the query running on the connection now (it raises), from any thread; a caller
        that holds ``lock`` knows the query is its own."""
        self.connection.interrupt()

    @contextmanager
    def transaction(self) -> Iterator[Engine]:
        """Hold the engine for one atomic write: all of it commits or none of it does."""
        with self.lock:
            if self.in_transaction:
                raise EngineError("nested write: a write is already under way on this store")
            self.connection.execute("BEGIN TRANSACTION")
            self.in_transaction, self._copied = True, False
            try:
                yield self
            except BaseException:
                self._abort()
                raise
            else:
                self.connection.execute("COMMIT")
                self._committed += 1
                if self._committed >= self.checkpoint_every and self.directory is not None:
                    self._committed = 0  # the pages of many small writes are held until a checkpoint: fold them in
                    self.connection.execute("CHECKPOINT")
            finally:
                self.in_transaction = False
                self.changes += 1

    @contextmanager
    def bulk_load(self) -> Iterator[Engine]:
        """Hold the engine for a bulk load (COPY statements): its threads set as
        :attr:`copy_threads` says, and set back afterwards."""
        with self.lock:
            if self.copy_threads is None:
                yield self
                return
            before = self._execute("CALL current_setting('threads') RETURN *", {})[0][0]
            self._execute(f"CALL threads={int(self.copy_threads)}", {})
            generation = self.generation
            try:
                yield self
            finally:
                if self.generation == generation:  # a reopened connection has its own default
                    self._execute(f"CALL threads={int(before)}", {})

    def _abort(self) -> None:
        """Undo the open transaction.

        After a COPY, ROLLBACK looks clean but the copied rows come back when the database is
        reopened (both engines); closing the database instead discards the transaction, as a
        kill would. A failed statement has already rolled the transaction back.
        """
        if self._copied and self.directory is not None:
            self.reopen()
            return
        try:
            self.connection.execute("ROLLBACK")
        except RuntimeError as exc:
            if "no active transaction" not in str(exc).lower():
                raise

    def reopen(self, while_closed: Callable[[], None] | None = None) -> None:
        """Close the database and open it again (on disk only), discarding an open transaction.

        ``while_closed`` runs while no Database holds the files (e.g. to swap in a rewritten
        file); every Store sharing this Engine keeps working afterwards.
        """
        if self.directory is None:
            raise EngineError("an in-memory store cannot be reopened")
        module = load_engine(self.name)
        with self.lock, directory_held(self.directory):  # (no other process opens it between: a reviewer's)
            self.connection.close()
            self.database.close()
            try:
                if while_closed is not None:
                    while_closed()
            finally:
                self.database = _open_database(module, self.directory)
                self.connection = module.Connection(self.database)
                self._prepared = {} if self._prepared is not None else None
                self.in_transaction = self._copied = False
                self.generation += 1
                self.changes += 1

    def table_names(self) -> set[str]:
        """The names of the tables the database holds (from the engine's catalog)."""
        with self.lock:
            return {row[0] for row in self._execute("CALL show_tables() RETURN name", {})}

    def log_bytes(self) -> int:
        """The size of the write-ahead log: what the next open replays unless a checkpoint folds it in."""
        if self.directory is None:
            return 0
        try:
            return (self.directory / (DATABASE_FILE + ".wal")).stat().st_size
        except FileNotFoundError:
            return 0

    def close(self, *, keep_log: bool = False) -> None:
        """Release the database (the last Store on this path closes it).

        Closing checkpoints: the write-ahead log is folded into the database file. With
        ``keep_log``, a log of at most :data:`LOG_KEPT_AT_CLOSE` is left for the next open to
        replay instead (a checkpoint at close costs about half a second at 50k versions; replaying
        a small log costs milliseconds). Committed writes are in the log either way, so a kill at
        any moment keeps them.
        """
        # a query or write another thread has under way (a holder's client, a tool call) ends first, within reason:
        # closing under it crashed kuzu or left its transaction to a closed connection
        waited = self.lock.acquire(timeout=CLOSE_WAIT)
        try:
            if keep_log and self.directory is not None and not self.in_transaction \
                    and self.log_bytes() <= LOG_KEPT_AT_CLOSE:
                self.connection.execute("CALL force_checkpoint_on_close=false")
            if self.directory is None:
                self.connection.close()
                self.database.close()
            else:
                with directory_held(self.directory):  # (its checkpoint: no other process opens it meanwhile)
                    self.connection.close()
                    self.database.close()
                    (self.directory / OWNER_FILE).unlink(missing_ok=True)
        finally:
            if waited:
                self.lock.release()


def _checked(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """The parameters of a named query, refused unless they are exactly the ones it uses."""
    params = params or {}
    if parameters_of(name) != params.keys():
        raise EngineError(
            f"query {name}: parameters mismatch: expected {sorted(parameters_of(name))}, got {sorted(params)}"
        )
    return params


def _rows(result: Result) -> list[list[Any]]:
    rows = []
    while result.has_next():
        rows.append(result.get_next())
    return rows


def _bind(value: object) -> object:
    if isinstance(value, datetime) and value.tzinfo is not None:
        raise EngineError("internal: aware datetime reached the engine; convert with to_engine()")
    return value


_LOCK_MESSAGE = re.compile(r"Could not set lock|Lock is held", re.IGNORECASE)


#: Database settings per engine. Both checkpoint whenever the write-ahead log passes 16 MB,
#: and a checkpoint rewrites the edge data a write touched, at a cost that grows with the store:
#: batches of 10,000 asserts took 9, 17, 24, 32 and 43 s in a row on kuzu at 100k versions, and
#: 12-17 s each on ladybug at 1M, most of it the checkpoint in COMMIT. With 256 MB: 1.9-3.5 s
#: (kuzu, 100k) and 3.8-4.1 s (ladybug, 1M) each, plus one checkpoint of ~10 s when the log
#: fills or the store closes (BENCHMARKS.md).
CHECKPOINT_THRESHOLD = 256 * 2**20
SETTINGS = {name: {"checkpoint_threshold": CHECKPOINT_THRESHOLD} for name in ("kuzu", "ladybug")}

#: The write-ahead log a Store may leave behind when it closes (see :meth:`Engine.close`). Every
#: open replays what is left: at 50k versions on a 2-core machine a 165 KB log added 75 ms to a
#: kuzu open and a 206 KB log 90 ms to a ladybug one (~0.45 ms per KB), while a checkpoint at
#: close took 0.4-0.8 s on either, whether it folded in 2 KB or 165 KB. A CLI write leaves
#: about 2 KB (benchmarks.cli), so with 64 KB kept one write in about 30 pays a checkpoint and
#: every open, read or write, replays at most ~30 ms (at 256 KB it was ~115 ms, most of what
#: kept the everyday commands over their target).
#: A crash replays what is left plus what the crashed process wrote (at most
#: :data:`CHECKPOINT_THRESHOLD`).
LOG_KEPT_AT_CLOSE = 64 * 2**10

#: ``GRAPHMEM_BUFFER_POOL_MB`` sets the engine's page cache in megabytes; the test suite sets a
#: small one. Without it the cache may grow to :func:`default_buffer_pool_mb`: a quarter of the
#: machine's memory. (The engines' own default, 80% of it, suits a database server, and the
#: engine sets up ~2 MB of bookkeeping per GB allowed before it reads a page: on a 24 GB machine
#: 38 MB of resident memory and ~25 ms for every store opened. BENCHMARKS.md, "Ingest".)
BUFFER_POOL_ENV = "GRAPHMEM_BUFFER_POOL_MB"
#: The least default page cache, for machines whose memory cannot be read or is small.
LEAST_BUFFER_POOL_MB = 256


def checkpoint_every() -> int:
    """How many commits a store open for a long time lets pass before a checkpoint folds their pages in: each small
    write keeps ~0.1-0.2 MB of pages in the engine's page cache until one (a seventh new user's: 4,000 single adds
    grew a process by 0.2 MB each and, with a 256 MB page cache, failed after ~2,000 with the engine's "buffer pool
    is full"); two per megabyte of the cache keeps them to about a quarter of it. The log's own limit
    (:data:`CHECKPOINT_THRESHOLD`) still applies to large writes."""
    pool = _buffer_pool().get("buffer_pool_size")
    return max(64, 2 * pool // 2**20) if pool else 1024


def default_buffer_pool_mb() -> int | None:
    """A quarter of the machine's physical memory in megabytes (at least 256), or None where it
    cannot be read (the engine's own default then applies)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
    return max(LEAST_BUFFER_POOL_MB, total // 4 // 2**20) if total > 0 else None


def _buffer_pool() -> dict:
    value = os.environ.get(BUFFER_POOL_ENV, "").strip()
    if not value:
        default = default_buffer_pool_mb()
        return {} if default is None else {"buffer_pool_size": default * 2**20}
    if not value.isdigit() or int(value) < 16:
        raise EngineError(f"{BUFFER_POOL_ENV} is a number of megabytes, at least 16 (got {value!r})")
    return {"buffer_pool_size": int(value) * 2**20}


#: The store directories whose marker this process wrote: the stores it made (another process may make the store a
#: command meant to make, and a command that fails removes only what it made).
stores_made_here: set[Path] = set()


#: How long a process waits for another's making, opening or closing of a store (see :func:`directory_held`) before it
#: says the store is in use; a close waits as long, then closes all the same.
DIRECTORY_WAIT = 5.0


@contextmanager
def directory_held(directory: Path, wait: float | None = None) -> Iterator[bool]:
    """Hold the store directory's own lock (``flock`` on the directory, which must exist) while a process makes the
    store, opens its database or closes it: no other process then opens a store half made, or a database another is
    closing (its checkpoint's shadow file: "Cannot open file graph.db.shadow", seen by a new user's three ingests into
    one new store at once). Says whether it is held: another process's hold is waited for up to ``wait`` seconds
    (:data:`DIRECTORY_WAIT` by default; one stopped inside it, by Ctrl-Z or a debugger, must not hang every other
    command: a reviewer's); where there is no ``flock`` (Windows, a file system without locks) it is held by no one,
    and True. The kernel releases it when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield True
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        deadline = time.monotonic() + (DIRECTORY_WAIT if wait is None else wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    held = False
                    break
                time.sleep(0.02)
            except OSError:  # no locks here (ENOSYS, ENOLCK: NFS without lockd, Lustre without -o flock)
                held = True
                break
        yield held
    finally:
        os.close(fd)  # releases the lock


def made_directory(directory: Path) -> None:
    """Make a store's directory (and the folders above it), readable by its user alone, or say why it cannot be."""
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)  # the user's alone (an attacker's: other
        # users read messages.sqlite's raw text from a store made 755)
    except (FileExistsError, NotADirectoryError):
        raise InvalidInput(f"store {directory} cannot be made: the path or a folder above it is a file") from None
    except OSError as exc:  # "/proc/nope", a folder without write permission (a new user's: a bare traceback)
        raise InvalidInput(f"store {directory} cannot be made: {exc.strerror or exc}") from None


def _open_database(module: ModuleType, directory: Path) -> Database:
    try:
        return module.Database(str(directory / DATABASE_FILE), **SETTINGS.get(module.__name__, {}),
                               **_buffer_pool())
    except RuntimeError as exc:
        if not _LOCK_MESSAGE.search(str(exc)):
            raise EngineError(f"cannot open store {directory}: {exc}") from exc
        holder = _holder(directory / OWNER_FILE)
        raise StoreLocked(
            f"store {directory} is in use by another process{holder}; "
            "close that process or use another --store"
        ) from exc


def _holder(owner: Path) -> str:
    """The holder as " (process N)" when the owner file names a live process, else "" (stale)."""
    pid = owner_pid(owner.parent)
    return "" if pid is None else f" (process {pid})"


def owner_pid(directory: Path) -> int | None:
    """The live process that has the store in ``directory`` open, as its owner file says, or None
    (none, or a stale file a killed process left)."""
    try:
        pid = int((directory / OWNER_FILE).read_text().strip())
        if pid <= 0:
            return None  # 0 or less names a group of processes, not one: a file no store wrote
        os.kill(pid, 0)
    except PermissionError:
        return pid  # alive, under another user
    except (OSError, ValueError, OverflowError):
        return None
    return pid


_open_engines: dict[str, Engine] = {}
_registry_lock = threading.Lock()
_opening: dict[str, threading.Lock] = {}  # a path's: held while a thread opens it


def is_open_here(directory: Path) -> bool:
    """True when this process has the store in ``directory`` open."""
    with _registry_lock:
        return str(directory.resolve()) in _open_engines


def acquire(name: str, directory: Path | None) -> Engine:
    """The Engine for ``directory`` (a new one for in-memory), shared within this process."""
    if directory is None:
        alone = Engine(name, None)
        alone.users = 1
        return alone
    key = str(directory.resolve())
    with _registry_lock:
        opening = _opening.setdefault(key, threading.Lock())
    with opening:  # one thread opens a path at a time; another path is opened meanwhile (a reviewer's: the directory's
        with _registry_lock:  # lock, waited for under the registry's, held up every store of the process)
            engine = _open_engines.get(key)
            if engine is not None:
                if engine.name != name:
                    raise EngineError(f"store {directory} is already open here with {engine.name}")
                engine.users += 1
                return engine
        made_directory(directory)
        engine = Engine(name, directory)
        with _registry_lock:
            _open_engines[key] = engine
            engine.users += 1
        return engine


#: How long closing a database waits for another thread's query or write under way, in seconds.
CLOSE_WAIT = 5.0


def release(engine: Engine, *, keep_log: bool = False) -> None:
    """Give back an Engine from :func:`acquire`; the last user closes it (``keep_log``: see
    :meth:`Engine.close`; a database whose file is about to be moved or copied is checkpointed)."""
    with _registry_lock:
        engine.users -= 1
        if engine.users > 0:
            return
        if engine.directory is not None:
            _open_engines.pop(str(engine.directory.resolve()), None)
    engine.close(keep_log=keep_log)
