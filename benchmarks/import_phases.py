"""Where a Parquet import's time goes: each phase of one import, in CPU and wall seconds.

    GRAPHMEM_ENGINE=kuzu python -m benchmarks.import_phases --export DIR [--work DIR]

Imports ``DIR`` (a Parquet export) into a new store on disk, as ``Store.import_log(DIR,
large=True)`` does, with each phase timed on its way through: reading and checking the files
(``read_log``), the store's own records (``store_tables``), the id and entity conflicts, every
invariant of ``check`` over the columns (``_refuse_unsound``), the engine's tables
(``engine_tables``), each ``COPY``, each ``BEGIN`` and ``COMMIT``, the settings; then the close.
CPU seconds are the process's (every thread). One JSON object on standard output.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any


def _timed(found: list[tuple[str, float, float]], label: Any, fn: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            name = label(args) if callable(label) else label
            if name:
                found.append((name, time.process_time() - cpu, time.perf_counter() - wall))
    return run


class _Statements:
    """A connection whose BEGIN and COMMIT statements are timed (everything else passes through)."""

    def __init__(self, connection: Any, found: list) -> None:
        self._connection = connection
        self.execute = _timed(found, lambda a: a[0] if a[0] in ("BEGIN TRANSACTION", "COMMIT") else None,
                              connection.execute)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.import_phases", description=__doc__.splitlines()[0])
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args(argv)
    import pyarrow.parquet  # noqa: F401  (loaded before the clock starts)

    from graphmem import Store
    from graphmem.engine import Engine
    from graphmem.log import jsonl, parquet

    found: list[tuple[str, float, float]] = []
    for name in ("read_log", "store_tables", "_refuse_conflicts", "_refuse_unsound", "engine_tables"):
        setattr(parquet, name, _timed(found, name, getattr(parquet, name)))
    jsonl._apply_settings = _timed(found, "settings", jsonl._apply_settings)
    Engine.run_text = _timed(found, lambda a: "COPY " + a[1].split()[1] if a[1].startswith("COPY") else None,
                             Engine.run_text)
    work = Path(tempfile.mkdtemp(prefix="phases-", dir=args.work))
    try:
        store = Store(work / "store", allow_future=True)
        engine = store._db
        engine.connection = _Statements(engine.connection, found)
        cpu, wall = time.process_time(), time.perf_counter()
        records = store.import_log(args.export, large=True)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        close_cpu, close_wall = time.process_time(), time.perf_counter()
        engine.connection = engine.connection._connection
        store.close()
        close_cpu, close_wall = time.process_time() - close_cpu, time.perf_counter() - close_wall
        name = engine.name
    finally:
        shutil.rmtree(work, ignore_errors=True)
    phases = [{"phase": p, "cpu": round(c, 3), "wall": round(w, 3)} for p, c, w in found]
    copies = sum(p["cpu"] for p in phases if p["phase"].startswith("COPY"))
    print(json.dumps({"engine": name, "records": records, "cpu": round(cpu, 3), "wall": round(wall, 3),
                      "copy_cpu": round(copies, 3), "close_cpu": round(close_cpu, 3),
                      "close_wall": round(close_wall, 3), "phases": phases}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
