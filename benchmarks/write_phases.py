"""Where a batch write's time goes: each W1 batch of a scale, its phases timed.

    python -m benchmarks.write_phases --scale 1m --store /tmp/w1-store [--data DIR]

Imports the scale's log into ``--store`` the first time (kept, so later runs skip it), then
runs every W1 batch after the store's latest write through ``Store.add_many`` and prints, per
batch: the total, fetching what the gate reads (``prefetch``), storing the write set in bulk
(``apply``), and the rest (planning in Python and the COMMIT). Then what checkpoints cost: one
after the batches, one after a single ``Store.add``, and ``close``. The engine is
GRAPHMEM_ENGINE's.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from graphmem import Store
from graphmem.write import transaction as writes

from .model import from_micros
from .runner import DEFAULT_DATA, prepare
from .workload import batch_timestamps


def timing(spent: dict[str, float], name, method):
    """``method`` wrapped to add its wall time to ``spent[name or its query's name]``."""

    def timed(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        finally:
            spent[name or args[0]] += time.perf_counter() - started

    return timed


def checkpoint(store: Store, when: str) -> None:
    started = time.perf_counter()
    store._db.run_text("CHECKPOINT", {})
    print(f"checkpoint {when}: {time.perf_counter() - started:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="100k")
    parser.add_argument("--store", type=Path, required=True, help="kept between runs")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    data = prepare(args.scale, 1, args.data)
    params = json.loads((data / "params.json").read_text())
    fresh = not args.store.exists()
    store = Store(args.store, allow_future=True)
    if fresh:
        started = time.perf_counter()
        store.import_log(data / "log.jsonl", large=True)
        print(f"imported in {time.perf_counter() - started:.1f} s")
    spent: dict[str, float] = defaultdict(float)
    writes.Transaction.prefetch = timing(spent, "prefetch", writes.Transaction.prefetch)
    writes.WriteSet.apply = timing(spent, "apply", writes.WriteSet.apply)
    latest = store.latest_write()
    for batch in params["W1"]["batches"]:
        at = from_micros(batch["at"])
        if latest is not None and at <= latest:
            continue
        spent.clear()
        started = time.perf_counter()
        store.add_many(batch_timestamps(batch), recorded_at=at)
        total = time.perf_counter() - started
        rest = total - spent["prefetch"] - spent["apply"]
        parts = ", ".join(f"{name.removeprefix('store/')} {seconds:.2f}" for name, seconds in spent.items())
        print(f"{batch['size']:>6} asserts: {total:.2f} s ({parts}; planning and COMMIT {rest:.2f})")
    checkpoint(store, "after the batches")
    store.add("Write Phases", "status", "measured")
    checkpoint(store, "after one Store.add")
    started = time.perf_counter()
    store.close()
    print(f"close: {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
