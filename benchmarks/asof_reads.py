"""The 1M workload's whole-store reads, timed in one process: T1's beliefs as models and as Arrow,
and T2's snapshot into networkx, three runs each (CPU seconds of every thread, and wall).

Run it with one code version's checkout on PYTHONPATH and then another's, alternated, on the same
store (a store of the 1M log: ``graphmem --store STORE import
/tmp/graphmem-bench/1m-seed1/log.jsonl --large --allow-future``); run it from outside the
repository so PYTHONPATH decides which graphmem is imported::

    cd /tmp && GRAPHMEM_ENGINE=kuzu PYTHONPATH=CODE python REPO/benchmarks/asof_reads.py STORE [QUESTION...]

The questions' moments come from the log's ``params.json`` (``--params``).
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from datetime import UTC, datetime
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    reads = ["beliefs", "arrow", "snapshot"]
    parser.add_argument("questions", nargs="*", metavar="QUESTION", help=f"which reads, of {reads} (default: all)")
    parser.add_argument("--params", type=Path, default=Path("/tmp/graphmem-bench/1m-seed1/params.json"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if unknown := set(args.questions) - set(reads):  # (argparse's choices refuse an empty list on 3.11)
        parser.error(f"no such read: {sorted(unknown)}; choose from {reads}")

    from graphmem import Store

    params = json.loads(args.params.read_text())

    def moment(micros: int) -> datetime:
        return datetime.fromtimestamp(micros / 1e6, UTC)

    store = Store(args.store, allow_future=True, hold=False)
    t1 = moment(params["T1"]["as_of"]), moment(params["T1"]["valid_at"])
    t2 = moment(params["T2"]["as_of"]), moment(params["T2"]["valid_at"])
    asked = {
        "beliefs": lambda: len(store.beliefs(*t1)),
        "arrow": lambda: store.beliefs_arrow(*t1).num_rows,
        "snapshot": lambda: store.snapshot(*t2).number_of_edges(),
    }
    for question in args.questions or reads:
        for _ in range(args.repeat):
            cpu, wall = time.process_time(), time.perf_counter()
            rows = asked[question]()
            print(store.engine, question, rows,
                  f"cpu {time.process_time() - cpu:.2f} wall {time.perf_counter() - wall:.2f}", flush=True)
            gc.collect()
    store.close()


if __name__ == "__main__":
    main()
