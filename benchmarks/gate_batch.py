"""Where a gate batch's CPU goes: W1's batches of 1,000 asserts, each phase in CPU seconds.

    python -m benchmarks.gate_batch --store BASE --work DIR [--data /tmp/graphmem-bench/1m-seed1] [--out FILE]
        [--by-statement]

Copies ``BASE`` (a store of the data's log, imported and left unwritten) to ``DIR``, then runs
W1's batches of ``--size`` asserts (default 1,000; the 1M workload has four) after the store's
latest write through ``Store.add_many``, each a write of its own. Per batch, CPU seconds of the
process (every thread) and wall seconds, split by what the engine was asked: the entity lookups,
the believed-version lookups (with their bodies), the closes, the inserts, the COMMIT, other
statements (the settings), and the rest (the gate planning in Python, the write set built). The
engine is GRAPHMEM_ENGINE's; the graphmem imported is the one on the path, so the same command
measures another commit (its code on PYTHONPATH, this file copied into its benchmarks/, run
from its directory) on a copy of the same store. ``--by-key always|never`` forces how the batch
reads and closes its keys on a commit that chose between the two (``transaction.KEY_WORTH``,
before the batch read them from its subjects' places in the Entity table).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .model import from_micros
from .runner import DEFAULT_DATA
from .workload import batch_timestamps

#: The phase a statement's time belongs to, by the first of these fragments its name holds.
PHASES = (("entit", "entities"), ("believed", "believed"), ("bod", "believed"), ("close", "closes"),
          ("insert", "inserts"), ("episodes", "closes"))


def phase_of(name: str) -> str:
    return next((phase for fragment, phase in PHASES if fragment in name), "other")


class Clock:
    """CPU and wall seconds added up per phase."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def timed(self, phase: str, work: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return work()
        finally:
            self.cpu[phase] += time.process_time() - cpu
            self.wall[phase] += time.perf_counter() - wall
            self.calls[phase] += 1


class TimedConnection:
    """The engine's connection, with the COMMIT timed (everything else passed through)."""

    def __init__(self, connection: Any, clock: Clock):
        self._connection, self._clock = connection, clock

    def execute(self, query: Any, *args: Any) -> Any:
        if isinstance(query, str) and query.strip().upper() == "COMMIT":
            return self._clock.timed("commit", lambda: self._connection.execute(query, *args))
        return self._connection.execute(query, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def instrument(clock: Clock, phase: Callable[[str], str] = phase_of) -> None:
    """Time every named query and every text query run by the engine seam, by ``phase`` of its name."""
    from graphmem.engine import Engine
    from graphmem.engine.statements import QUERIES

    names = {text: name for name, text in QUERIES.items()}
    run, run_text = Engine.run, Engine.run_text

    def timed_run(self: Engine, name: str, params: dict | None = None) -> list:
        return clock.timed(phase(name), lambda: run(self, name, params))

    def timed_text(self: Engine, text: str, params: dict) -> list:
        name = names.get(text, "insert" if text.lstrip().startswith(("LOAD FROM", "UNWIND")) else "other")
        return clock.timed(phase(name), lambda: run_text(self, text, params))

    Engine.run, Engine.run_text = timed_run, timed_text  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="the imported store, copied, never written")
    parser.add_argument("--work", type=Path, required=True, help="where the copy is written (replaced)")
    parser.add_argument("--size", type=int, default=1000, help="W1's batches of this size")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA / "1m-seed1",
                        help="a generated scale (its params.json; see benchmarks.runner.prepare)")
    parser.add_argument("--by-key", choices=("auto", "always", "never"), default="auto",
                        help="how the batch reads its keys, on a commit with KEY_WORTH: as it chooses, or forced")
    parser.add_argument("--by-statement", action="store_true",
                        help="time each named statement on its own instead of adding them up by phase")
    parser.add_argument("--label", default="")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    params = json.loads((args.data / "params.json").read_text())

    import graphmem
    from graphmem import Store
    from graphmem.write import transaction

    if args.by_key != "auto":  # one key at a time always (worth 0), or never
        if not hasattr(transaction, "KEY_WORTH"):
            parser.error("--by-key: this graphmem reads and closes a batch's keys one way only")
        for engine_name in ("kuzu", "ladybug"):
            transaction.KEY_WORTH[engine_name] = 0 if args.by_key == "always" else 10**12

    shutil.rmtree(args.work, ignore_errors=True)
    shutil.copytree(args.store, args.work, ignore=shutil.ignore_patterns("*.sock", "owner.pid"))  # a holder's, if left
    clock = Clock()
    store = Store(args.work, allow_future=True)
    store._db.connection = TimedConnection(store._db.connection, clock)  # type: ignore[assignment]
    instrument(clock, (lambda name: name) if args.by_statement else phase_of)
    latest = store.latest_write()
    batches = []
    for batch in params["W1"]["batches"]:
        at = from_micros(batch["at"])
        if batch["size"] != args.size or (latest is not None and at <= latest):
            continue
        rows = batch_timestamps(batch)
        clock.cpu.clear(), clock.wall.clear(), clock.calls.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        decisions = store.add_many(rows, recorded_at=at)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        phases = {phase: round(seconds, 4) for phase, seconds in sorted(clock.cpu.items())}
        phases["planning"] = round(cpu - sum(clock.cpu.values()), 4)
        ops: dict[str, int] = defaultdict(int)
        for decision in decisions:
            ops[decision.op] += 1
        batches.append({"asserts": len(rows), "cpu": round(cpu, 4), "wall": round(wall, 4),
                        "per_cpu_s": round(len(rows) / cpu), "cpu_phases": phases,
                        "calls": dict(clock.calls), "ops": dict(ops)})
        print(f"{len(rows)} asserts: {cpu:.3f} CPU-s ({len(rows) / cpu:,.0f}/CPU-s), {wall:.3f} s wall; "
              + ", ".join(f"{k} {v:.3f}" for k, v in phases.items()), flush=True)
    engine = store.engine
    store.close()
    shutil.rmtree(args.work, ignore_errors=True)
    result = {"engine": engine, "data": str(args.data), "size": args.size, "label": args.label, "by_key": args.by_key,
              "graphmem": str(Path(graphmem.__file__).parent.parent), "batches": batches}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("a") as out:
            out.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
