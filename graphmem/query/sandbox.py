"""Running read-only queries where a crash, a hang or a runaway cannot reach the caller.

A user's Cypher (and a named query) runs in a worker process that holds in-memory copies of
the graphs it is asked about (*projections*, sent as Arrow tables). Whatever the query does to
that process — a segfault on arithmetic past the engine's range, an abort on an aggregate shape,
a path search that never ends, an ``UNWIND`` that eats memory — the caller gets one line of error
and a fresh worker next time. The store is never in that process, and the caller's own locks
are not held while a query runs, so its other threads keep reading and writing.

Limits: a time limit per query (the engine's own query timeout, then a kill a little later if
the engine does not stop) and a memory limit (the worker's resident size is watched while a
query runs; the worker is killed when it passes it, and its engine's buffer pool is capped).
Both cover the answer too: the worker reads the engine's rows under the same deadline and
refuses an answer larger than ``MAX_ANSWER_MB`` as sent (as Python values in the caller it takes
five to six times that, so about 300 MB at most),
and has the answer by the deadline or an error. A worker dies with its caller (it watches
the caller's pid), so a query without a time limit never outlives the program that asked it.

Workers are shared by every store of one engine in this process: a projection is known by an id
unique to this process, and dropped from the workers when its store drops it (a purge, a write,
closing the store). At most ``MAX_WORKERS`` run at once; idle ones are kept for the next query.

Internal: :meth:`graphmem.Store.cypher` and ``Store.query`` run their queries here.
"""

from __future__ import annotations

import atexit
import io
import itertools
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..core.tables import properties
from ..core.times import UTC, from_engine
from ..errors import InvalidInput, QueryFailed

if TYPE_CHECKING:  # multiprocessing (~7 ms to import) only when a worker starts: a store's commands need none
    from multiprocessing.connection import Connection

    import pyarrow as pa

    from ..engine.memory import MemoryGraph

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "MAX_ANSWER_MB", "Projection", "forget", "sandbox_for"]

#: The engine's word for a query whose intermediate results outgrew its page cache: a memory
#: limit met (QueryFailed), not a query the user wrote wrong.
_OUT_OF_PAGES = re.compile(r"buffer pool is full|Unable to allocate memory", re.IGNORECASE)

#: Seconds a query may run (``--timeout``; the ``timeout`` parameter of the API).
DEFAULT_TIMEOUT = 30.0
#: Megabytes a worker may hold while it answers (``memory_mb`` on the API).
DEFAULT_MEMORY_MB = 4096
#: Megabytes an answer may take on its way to the caller (pickled); a larger one is refused.
MAX_ANSWER_MB = 48
#: The longest time limit a query may be given, in seconds (about 11 days; none means no limit).
MAX_TIMEOUT = 1_000_000
#: Workers that may run queries at once, per engine.
MAX_WORKERS = 4
#: Projections a worker keeps (least recently used dropped first).
KEPT = 4
#: How long after its time limit a worker that did not stop is killed.
GRACE = 3.0
_POLL = 0.05
#: Rows the worker packs at a time (the answer's size is counted as it grows).
_CHUNK = 1000
_INT64 = (-2**63, 2**63 - 1)
_ids = itertools.count(1)


@dataclass
class Projection:
    """A graph to run queries over: its tables (in load order) and the DDL that makes them.

    ``node_keys``: the tables whose nodes have an ``id`` property a relationship's ends are
    named by in the answer (``_src``/``_dst``).
    """

    ddl: tuple[str, ...]
    tables: dict[str, pa.Table]
    node_keys: tuple[str, ...] = ("Entity", "Episode")
    id: str = field(default_factory=lambda: f"p{os.getpid()}-{next(_ids)}")


# -- the parent's side ----------------------------------------------------------------------------------


class _Worker:
    """One worker process and the two pipes to it."""

    def __init__(self, engine: str, memory_mb: int):
        parent_read, child_write = os.pipe()
        child_read, parent_write = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([_package_root(), *sys.path])}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "graphmem.query.sandbox", engine, str(child_read), str(child_write),
             str(memory_mb), str(os.getpid())],
            pass_fds=(child_read, child_write), env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        os.close(child_read)
        os.close(child_write)
        from multiprocessing.connection import Connection

        self.incoming = Connection(parent_read, writable=False)
        self.outgoing = Connection(parent_write, readable=False)
        self.memory_mb = memory_mb
        self.loaded: set[str] = set()

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive():
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        for end in (self.incoming, self.outgoing):
            end.close()

    def send(self, message: dict[str, Any]) -> None:
        """Send the worker a message; QueryFailed when it is gone (killed, or crashed on the last one)."""
        try:
            self.outgoing.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:  # a broken pipe: nobody reads it any more
            self.gone()

    def receive(self, deadline: float | None, memory_mb: int) -> dict[str, Any]:
        """The worker's answer; raises QueryFailed when it dies, passes the deadline or the memory limit."""
        while True:
            if self.incoming.poll(_POLL):
                try:
                    answer = pickle.loads(self.incoming.recv_bytes())
                except (EOFError, OSError):
                    break
                if "chunks" in answer:  # rows packed apart in the worker: its answer's size was counted
                    answer["rows"] = [row for chunk in answer.pop("chunks") for row in pickle.loads(chunk)]
                return answer
            if not self.alive():
                break
            if _resident_mb(self.process.pid) > memory_mb:
                self.kill()
                raise QueryFailed(f"the query was stopped: it used more than {memory_mb} MB of memory; "
                                  "narrow it (LIMIT, fewer hops) or give it more memory")
            if deadline is not None and time.monotonic() > deadline:
                self.kill()
                raise QueryFailed("the query was stopped: it ran past its time limit and did not stop; "
                                  "narrow it or give it more time (--timeout)")
        self.gone()

    def gone(self) -> NoReturn:
        """The worker died under a query: end what is left of it and say so."""
        self.kill()
        raise QueryFailed("the query crashed the database engine; it ran apart from the store, which is "
                          "unharmed; change the query (it may use a shape or value the engine cannot handle)")


def _physical_mb() -> int:
    """This machine's memory in MB (the largest memory limit a query may be given)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (OSError, ValueError):
        return 2**20


def _check_values(value: Any, name: str = "") -> None:
    """Refuse a parameter value the engines cannot take (an integer past 64 bits, text that is not
    Unicode: a lone surrogate from bytes that were not UTF-8), naming it, before a worker sees it."""
    if isinstance(value, dict):
        for key, item in value.items():
            _check_values(item, name or str(key))
    elif isinstance(value, list | tuple):
        for item in value:
            _check_values(item, name)
    elif isinstance(value, int) and not isinstance(value, bool) and not _INT64[0] <= value <= _INT64[1]:
        raise InvalidInput(f"parameter {name!r} is out of range: integers must fit in 64 bits "
                           f"({_INT64[0]} to {_INT64[1]})")
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput(f"parameter {name!r} is not valid text (it holds bytes that are not UTF-8)") from None


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[2])


def _resident_mb(pid: int) -> float:
    """The resident memory of a process, in MB (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


class Sandbox:
    """Worker processes of one engine that run read-only queries over projections."""

    def __init__(self, engine: str):
        self.engine = engine
        self._idle: list[_Worker] = []
        self._busy = 0
        self._every: set[_Worker] = set()
        self._forgotten: set[str] = set()  # projections no store wants, still in some busy worker
        self._lock = threading.Condition()

    def run(self, projection: Projection, text: str, params: dict[str, Any], *, timeout: float | None = DEFAULT_TIMEOUT,
            memory_mb: int = DEFAULT_MEMORY_MB) -> tuple[list[str], list[list]]:
        """Run ``text`` with ``params`` over ``projection``; return its columns and rows (normalised).

        Raises InvalidInput when the engine refuses the query, QueryFailed when it had to be
        stopped (time, memory) or crashed.
        """
        if timeout is not None and not (isinstance(timeout, int | float) and 0 < timeout <= MAX_TIMEOUT):
            raise InvalidInput(f"the time limit must be a positive, finite number of seconds up to {MAX_TIMEOUT:,} (or "
                               f"none for no limit), not {timeout!r}")
        most = max(_physical_mb(), DEFAULT_MEMORY_MB)  # the default holds on a small machine too
        if isinstance(memory_mb, bool) or not isinstance(memory_mb, int) or not 0 < memory_mb <= most:
            raise InvalidInput(f"the memory limit must be a whole number of MB from 1 to {most} (about this "
                               f"machine's memory), not {memory_mb!r}")
        _check_values(params)
        worker = self._take(memory_mb)
        healthy = False
        try:
            answer = self._ask(worker, projection, text, params, timeout, memory_mb)
            healthy = True
        finally:
            self._give_back(worker, healthy)
        if answer.get("timeout"):
            raise QueryFailed(f"the query was stopped after {timeout:g} s, its time limit; narrow it "
                              "(LIMIT, fewer hops) or give it more time (--timeout)")
        if answer.get("too_large"):
            raise QueryFailed(f"the query's answer was refused: it passed {MAX_ANSWER_MB} MB; narrow it "
                              "(LIMIT, fewer or smaller columns, an aggregate)")
        if "error" in answer and _OUT_OF_PAGES.search(answer["error"]):
            raise QueryFailed("the query was stopped: it needed more memory than the engine's page cache "
                              "holds; narrow it (LIMIT, fewer hops)")
        if "error" in answer:
            raise InvalidInput(f"the query failed: {answer['error']}")
        return answer["columns"], answer["rows"]

    def _ask(self, worker: _Worker, projection: Projection, text: str, params: dict[str, Any],
             timeout: float | None, memory_mb: int) -> dict[str, Any]:
        query = {"op": "query", "id": projection.id, "text": text, "params": params,
                 "timeout_ms": None if timeout is None else min(max(1, int(timeout * 1000)), _INT64[1]),
                 "answer_bytes": MAX_ANSWER_MB * 2**20}
        for _ in range(2):
            if projection.id not in worker.loaded:
                worker.send({"op": "load", "id": projection.id, "ddl": projection.ddl,
                             "tables": {name: _ipc(rows) for name, rows in projection.tables.items()},
                             "node_keys": projection.node_keys})
                answer = worker.receive(None, memory_mb)
                if "error" in answer:
                    raise QueryFailed(f"the graph could not be loaded for the query: {answer['error']}")
                with self._lock:  # read by forget() from other threads
                    worker.loaded = {*answer["kept"]}
            worker.send(query)
            deadline = None if timeout is None else time.monotonic() + timeout + GRACE
            answer = worker.receive(deadline, memory_mb)
            if not answer.get("missing"):
                return answer
            with self._lock:
                worker.loaded.discard(projection.id)  # the worker dropped it meanwhile: load it again
        raise QueryFailed("internal: the worker keeps losing the graph it was given")

    def _take(self, memory_mb: int) -> _Worker:
        with self._lock:
            while True:
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive() and worker.memory_mb == memory_mb:
                        self._busy += 1
                        return worker
                    self._every.discard(worker)
                    threading.Thread(target=worker.kill, daemon=True).start()
                if self._busy < MAX_WORKERS:
                    self._busy += 1
                    break
                self._lock.wait()
        try:
            worker = _Worker(self.engine, memory_mb)
        except BaseException:
            with self._lock:
                self._busy -= 1
                self._lock.notify()
            raise
        with self._lock:
            self._every.add(worker)
        return worker

    def _give_back(self, worker: _Worker, healthy: bool) -> None:
        with self._lock:
            self._busy -= 1
            if healthy and worker.alive() and len(self._idle) < MAX_WORKERS:
                self._drop(worker, worker.loaded & self._forgotten)
                self._idle.append(worker)
            else:
                self._every.discard(worker)
                worker.kill()
            self._settle()
            self._lock.notify()

    def forget(self, projection_id: str) -> None:
        """Drop a projection from the workers (its store no longer wants it: a write, a purge, a close).

        Idle workers drop it now; a busy one when its query is answered.
        """
        with self._lock:
            self._forgotten.add(projection_id)
            for worker in self._idle:
                self._drop(worker, {projection_id} & worker.loaded)
            self._settle()

    def _drop(self, worker: _Worker, ids: set[str]) -> None:
        for projection_id in sorted(ids):
            try:
                worker.send({"op": "drop", "id": projection_id})
            except OSError:
                return
            worker.loaded.discard(projection_id)

    def _settle(self) -> None:
        """Stop remembering forgotten projections that no worker holds any more."""
        held = set().union(*(w.loaded for w in self._every)) if self._every else set()
        self._forgotten &= held

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            workers, self._idle = list(self._every), []
            self._every.clear()
        for worker in workers:
            worker.kill()


_sandboxes: dict[str, Sandbox] = {}
_sandboxes_lock = threading.Lock()


def sandbox_for(engine: str) -> Sandbox:
    """This process's sandbox for ``engine`` (made on first use, closed when the process exits)."""
    with _sandboxes_lock:
        if engine not in _sandboxes:
            _sandboxes[engine] = Sandbox(engine)
        return _sandboxes[engine]


def forget(projection_id: str) -> None:
    """Drop a projection from every worker of this process."""
    with _sandboxes_lock:
        sandboxes = list(_sandboxes.values())
    for sandbox in sandboxes:
        sandbox.forget(projection_id)


@atexit.register
def _close_all() -> None:
    for sandbox in list(_sandboxes.values()):
        sandbox.close()


def _ipc(table: pa.Table) -> bytes:
    import pyarrow as pa

    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue()


# -- values as the user sees them -------------------------------------------------------------------

_INTERNAL = {"_id", "_label", "_src", "_dst", "_nodes", "_rels"}


def _internal(value: dict[str, Any]) -> dict[str, Any]:
    """The engine's internal keys of a node/rel/path dict, lower-cased (ladybug upper-cases them)."""
    return {k.lower(): v for k, v in value.items() if k.lower() in _INTERNAL}


def _is_internal_id(value: object) -> bool:
    return isinstance(value, dict) and set(value) == {"offset", "table"}


def normalise(value: Any, node_key: Callable[[dict[str, Any]], str | None] | None = None) -> Any:
    """An engine value as graphmem returns it: identical on both engines, times aware UTC.

    Nodes and rels lose the engine's internal ids (meaningless outside one database) and keep
    ``_label``; a rel's endpoints become ``_src``/``_dst`` ids when ``node_key`` can name them;
    properties a node does not have (an unlabelled variable's other tables) are dropped.
    """
    if isinstance(value, datetime):
        return from_engine(value) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, list):
        return [normalise(v, node_key) for v in value]
    if isinstance(value, dict):
        inner = _internal(value)
        if "_nodes" in inner and "_rels" in inner:
            return {"_nodes": normalise(inner["_nodes"], node_key),
                    "_rels": normalise(inner["_rels"], node_key)}
        if "_label" in inner and _is_internal_id(inner.get("_id")):
            found = {"_label": inner["_label"]}
            if "_src" in inner:
                for end in ("_src", "_dst"):
                    key = node_key(inner[end]) if node_key else None
                    if key is not None:
                        found[end] = key
            props = {k: normalise(v, node_key) for k, v in value.items() if k.lower() not in _INTERNAL}
            own = _PROPERTIES.get(inner["_label"])
            if own is not None:
                props = {k: v for k, v in props.items() if k in own}
            return {**found, **props}
        return {k: normalise(v, node_key) for k, v in value.items()}
    return value


#: Each table's property names (what an unlabelled variable's node or rel of that table keeps).
_PROPERTIES = properties()


# -- the worker's side -------------------------------------------------------------------------------------


def serve(engine: str, incoming: Connection, outgoing: Connection, memory_mb: int) -> None:
    """Answer the parent's messages until it closes the pipe."""

    graphs: OrderedDict[str, MemoryGraph] = OrderedDict()

    def reply(message: dict[str, Any]) -> None:
        outgoing.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    while True:
        try:
            message = pickle.loads(incoming.recv_bytes())
        except (EOFError, OSError):
            return
        op = message["op"]
        if op == "drop":
            graphs.pop(message["id"], None)
        elif op == "load":
            try:
                graphs[message["id"]] = _load(engine, message, memory_mb)
            except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
                reply({"error": _first_line(exc)})
                continue
            while len(graphs) > KEPT:
                graphs.popitem(last=False)
            reply({"kept": list(graphs)})
        elif op == "query":
            graph = graphs.get(message["id"])
            if graph is None:
                reply({"missing": True})
                continue
            graphs.move_to_end(message["id"])
            reply(_query(graph, message))


def _load(engine: str, message: dict[str, Any], memory_mb: int) -> MemoryGraph:
    import pyarrow as pa

    from ..engine.memory import MemoryGraph

    tables = {name: pa.ipc.open_stream(data).read_all() for name, data in message["tables"].items()}
    return MemoryGraph(engine, message["ddl"], tables, message["node_keys"], memory_mb)


def _query(graph: MemoryGraph, message: dict[str, Any]) -> dict[str, Any]:
    """Run a query; its rows packed in chunks, read under the query's deadline and refused once
    they pass ``answer_bytes`` (the caller must not wait past its limit or hold a huge answer)."""
    from ..engine.memory import QueryTimedOut

    timeout_ms = message["timeout_ms"]
    deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
    chunks: list[bytes] = []
    size = 0
    try:
        columns, found = graph.run(message["text"], message["params"], timeout_ms)
        rows: list[list] = []
        while True:
            row = next(found, None)
            if row is not None:
                rows.append([normalise(x, graph.key_of) for x in row])
            if rows and (len(rows) == _CHUNK or row is None):
                chunks.append(pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))
                size += len(chunks[-1])
                rows = []
                if size > message["answer_bytes"]:
                    return {"too_large": True}
            if deadline is not None and time.monotonic() > deadline:
                return {"timeout": True}
            if row is None:
                break
    except QueryTimedOut:
        return {"timeout": True}
    except (RuntimeError, ValueError) as exc:
        return {"error": _first_line(exc)}
    return {"columns": columns, "chunks": chunks}


def _die_with(parent: int) -> None:
    """End this worker when the process that started it is gone (it is then adopted by another),
    even in the middle of a query with no time limit: checked from a thread, since the engines let
    other threads run while they work."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


if __name__ == "__main__":
    from multiprocessing.connection import Connection

    engine_name, read_fd, write_fd, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    _die_with(int(sys.argv[5]))
    serve(engine_name, Connection(read_fd, writable=False), Connection(write_fd, readable=False), memory)
