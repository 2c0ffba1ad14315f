"""The Fact edge's physical design, before and after, on one store of the release before.

    python -m benchmarks.physical --old-store DIR --work DIR --out result.json [--release-before]

Run it twice in the same session on the same machine, once with this release's code and once
with the release before's (a git worktree of it on PYTHONPATH, with ``--release-before``), each
on a copy of the same store made by the release before (``Store.import_log`` of the 1M log, on
the engine named by GRAPHMEM_ENGINE). This release first converts its copy (``Store.migrate``,
timed); then both answer the same questions, in CPU seconds (every thread of the process) and
wall seconds: what was believed as of T and valid at V (the 1M workload's T1) read whole, as
models and (this release) as Arrow; the snapshot of T2 into networkx; 200 histories; three gate
batches of 1,000 asserts that supersede believed values; and closing the store after them (the
checkpoint). ``--skip-writes`` leaves the last two out (the release before's kuzu checkpoint
runs for more than ten minutes at 1M: see benchmarks/fact_layout.py for that reproduction);
``--skip-whole-reads`` leaves out the beliefs and the snapshot; ``--current`` times a store
already of this release's layout (``graphmem import`` of the 1M log) without converting it.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path


def timed(results: dict, name: str, work):
    cpu, wall = time.process_time(), time.perf_counter()
    value = work()
    results.setdefault(name, []).append({"cpu": round(time.process_time() - cpu, 3),
                                         "wall": round(time.perf_counter() - wall, 3)})
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-store", required=True, type=Path)
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--params", type=Path, default=Path("/tmp/graphmem-bench/1m-seed1/params.json"))
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--release-before", action="store_true")
    parser.add_argument("--skip-writes", action="store_true")
    parser.add_argument("--current", action="store_true",
                        help="the store is already of this release's layout: time it without converting it")
    parser.add_argument("--skip-whole-reads", action="store_true",
                        help="leave out the beliefs and the snapshot (to re-time only histories and writes)")
    args = parser.parse_args()

    from graphmem import Store

    store_dir = args.work / "store"
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    shutil.copytree(args.old_store, store_dir, ignore=shutil.ignore_patterns("*.sock"))  # a holder's, if left
    results: dict = {"code": "release before" if args.release_before else "this release"}
    if not args.release_before and not args.current:
        timed(results, "migrate", lambda: Store.migrate(store_dir, backup_to=args.work / "backup"))
    params = json.loads(args.params.read_text())

    def moment(micros: int) -> datetime:
        return datetime.fromtimestamp(micros / 1e6, UTC)

    store = Store(store_dir, hold=False, allow_future=True)
    results["engine"] = store.engine
    as_of, valid_at = moment(params["T1"]["as_of"]), moment(params["T1"]["valid_at"])
    for _ in range(0 if args.skip_whole_reads else 3):
        found = timed(results, "beliefs", lambda: store.beliefs(as_of=as_of, valid_at=valid_at))
        results["beliefs_rows"] = len(found)
        del found
        if not args.release_before:
            table = timed(results, "beliefs_arrow", lambda: store.beliefs_arrow(as_of=as_of, valid_at=valid_at))
            results["beliefs_arrow_rows"] = table.num_rows
    snap_at, snap_valid = moment(params["T2"]["as_of"]), moment(params["T2"]["valid_at"])
    for _ in range(0 if args.skip_whole_reads else 2):
        graph = timed(results, "snapshot", lambda: store.snapshot(as_of=snap_at, valid_at=snap_valid))
        results["snapshot_edges"] = graph.number_of_edges()
        del graph
    keys = params["K1"]["keys"][:200]  # (display name, id, predicate)
    timed(results, "history_200", lambda: [store.history(name, predicate) for name, _, predicate in keys])
    if not args.skip_writes:
        people = sorted({v.subject for v in store.beliefs(valid_at="all") if v.predicate == "lives_in"})
        rng = random.Random(1)
        for batch in range(3):
            chosen = rng.sample(people, 1000)
            rows = [(p, "lives_in", f"Newtown {batch}-{i}", None, None) for i, p in enumerate(chosen)]
            timed(results, "gate_1000", lambda rows=rows: store.add_many(rows))
        timed(results, "close_after_writes", store.close)
    else:
        store.close()
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
