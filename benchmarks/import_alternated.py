"""A Parquet import timed under two versions of the code, alternated, on the same files.

    python -m benchmarks.import_alternated --export DIR --tree before=/path/a --tree after=/path/b \
        [--engine both] [--rounds 2] [--work DIR] [--out FILE.jsonl]

Each round imports ``DIR`` (a Parquet export) once per tree and engine, in that order, each in a
new process started in the tree, whose ``PYTHONPATH`` is the tree (so each runs its own
``graphmem``, which the run checks):
``Store(NEW, allow_future=True).import_log(DIR, large=True)``, timed in wall seconds and CPU
seconds of the process (every thread), then the close, timed the same way. The store is
deleted afterwards. One JSON line per run goes to ``--out`` and to standard output, with the
load average when it started (the machine may be shared: CPU seconds are the steadier reading).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: The child's program: one import, timed, into a new store.
CHILD = """
import json, sys, time
from pathlib import Path
export, store = Path(sys.argv[1]), Path(sys.argv[2])
import pyarrow, pyarrow.parquet  # loaded before the clock starts, as in a long-lived process
from graphmem import Store
s = Store(store, allow_future=True)
wall, cpu = time.perf_counter(), time.process_time()
records = s.import_log(export, large=True)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
close_wall, close_cpu = time.perf_counter(), time.process_time()
s.close()
close_wall, close_cpu = time.perf_counter() - close_wall, time.process_time() - close_cpu
import graphmem
print(json.dumps({"records": records, "wall": wall, "cpu": cpu, "close_wall": close_wall, "close_cpu": close_cpu,
                  "graphmem": graphmem.__file__}))
"""


def run_one(tree: Path, engine: str, export: Path, work: Path) -> dict:
    store = Path(tempfile.mkdtemp(prefix=f"imp-{engine}-", dir=work)) / "store"
    try:
        load = os.getloadavg()[0]
        # run from the tree: `python -c` puts its working directory first on sys.path, so run from
        # a checkout it would import that checkout's graphmem whatever PYTHONPATH says
        done = subprocess.run([sys.executable, "-c", CHILD, str(export), str(store)], check=True,
                              capture_output=True, text=True, cwd=tree,
                              env={**os.environ, "PYTHONPATH": str(tree), "GRAPHMEM_ENGINE": engine})
        result = json.loads(done.stdout.strip().splitlines()[-1])
        if not Path(result["graphmem"]).resolve().is_relative_to(tree):
            raise SystemExit(f"the run for {tree} imported {result['graphmem']}")
        return {**result, "load": round(load, 2)}
    finally:
        shutil.rmtree(store.parent, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.import_alternated",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH of a source tree")
    parser.add_argument("--engine", default="both", choices=("kuzu", "ladybug", "both"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    trees = [(name, Path(path).resolve()) for name, _, path in (t.partition("=") for t in args.tree)]
    versions = json.loads((args.export / "graphmem.json").read_text())["rows"]["versions"]
    engines = ["kuzu", "ladybug"] if args.engine == "both" else [args.engine]
    runs = []
    for round_ in range(args.rounds):
        for engine in engines:
            for name, tree in trees:
                result = {"round": round_ + 1, "engine": engine, "tree": name, "path": str(tree),
                          "versions": versions, **run_one(tree, engine, args.export, args.work)}
                runs.append(result)
                line = json.dumps(result)
                print(line, flush=True)
                if args.out:
                    with args.out.open("a") as out:
                        out.write(line + "\n")
    print("| engine | code | import wall (s) | import CPU (s) | versions/s wall | versions per CPU-s | close wall |")
    print("|---|---|---|---|---|---|---|")
    for engine in engines:
        for name, _ in trees:
            mine = [r for r in runs if r["engine"] == engine and r["tree"] == name]
            walls, cpus = [r["wall"] for r in mine], [r["cpu"] for r in mine]
            print(f"| {engine} | {name} | {statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f}) | "
                  f"{statistics.median(cpus):.2f} ({min(cpus):.2f}-{max(cpus):.2f}) | "
                  f"{versions / statistics.median(walls):,.0f} | {versions / statistics.median(cpus):,.0f} | "
                  f"{statistics.median(r['close_wall'] for r in mine):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
