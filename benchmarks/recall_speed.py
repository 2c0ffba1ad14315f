"""How fast search answers on a large store, next to ``Store.timeline`` for one entity.

Loads the benchmark log of a scale (the one ``python -m benchmarks run`` makes, cached the same
way) into a store on disk, then times, for a fixed sample of people: ``Store.timeline(person)``
and ``Store.search`` with questions about them ("where does Person 12 live", ...), each warm
(run once untimed, then the median of ``--repeat`` runs). Also timed: the first search (building
the index from the whole store), and a write followed by a search (the index following it).

    python -m benchmarks.recall_speed --scale 100k --engine kuzu [--out FILE]

One engine per process (kuzu and ladybug cannot share one); run it once for each.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.runner import DEFAULT_DATA, prepare

QUESTIONS = ("where does {p} live", "who does {p} work for", "what does {p} like",
             "where did {p} travel in 2021", "who does {p} know")


def _median_ms(fn, repeat: int) -> float:
    fn()  # warm
    walls = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - started)
    return statistics.median(walls) * 1000


def run(scale: str, engine: str, repeat: int, people: int, data_root: Path, seed: int = 1) -> dict:
    from graphmem import Store

    data = prepare(scale, seed, data_root)
    info = json.loads((data / "info.json").read_text())
    with tempfile.TemporaryDirectory() as work:
        store = Store(Path(work) / "store", engine=engine)
        try:
            started = time.perf_counter()
            store.import_log(data / "log.jsonl", large=True)
            loaded = time.perf_counter() - started
            names = sorted(e.name for e in store.entities() if e.name.startswith("Person "))
            sample = random.Random(seed).sample(names, min(people, len(names)))

            started = time.perf_counter()
            store.search(f"where does {sample[0]} live")
            first = time.perf_counter() - started

            timeline = [_median_ms(lambda p=p: store.timeline(p), repeat) for p in sample]
            searches = {q: [_median_ms(lambda p=p, q=q: store.search(q.format(p=p)), repeat) for p in sample]
                        for q in QUESTIONS}
            every = [x for values in searches.values() for x in values]
            sizes = [len(store.timeline(p)) for p in sample]

            half = max(1, len(sample) // 2)
            writes = []
            for i, person in enumerate(sample[:half]):
                def write_then_search(person=person, i=i):
                    store.add(person, "likes", f"Benchmark thing {i}")
                    store.search(f"what does {person} like")
                started = time.perf_counter()
                write_then_search()
                writes.append((time.perf_counter() - started) * 1000)
            plain_writes = []
            for i, person in enumerate(sample[half:2 * half] or sample[:half]):
                started = time.perf_counter()
                store.add(person, "likes", f"Benchmark plain {i}")
                plain_writes.append((time.perf_counter() - started) * 1000)
            builds = store._recall.builds
        finally:
            store.close()
    timeline_ms, search_ms = statistics.median(timeline), statistics.median(every)
    return {
        "scale": scale, "engine": engine, "versions": info["versions"], "episodes": info["episodes"],
        "entities": info["entities"], "people": len(sample), "repeat": repeat,
        "facts_per_person_timeline": statistics.median(sizes),
        "load_seconds": round(loaded, 2), "first_search_seconds": round(first, 2),
        "timeline_ms": round(timeline_ms, 3),
        "search_ms": round(search_ms, 3),
        "search_p90_ms": round(sorted(every)[int(0.9 * (len(every) - 1))], 3),
        "search_ms_by_question": {q: round(statistics.median(v), 3) for q, v in searches.items()},
        "ratio": round(search_ms / timeline_ms, 2),
        "write_then_search_ms": round(statistics.median(writes), 2),
        "write_alone_ms": round(statistics.median(plain_writes), 2),
        "index_builds": builds,
        "machine": {"python": platform.python_version(), "cpus": _cpus(), "platform": platform.platform()},
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="100k")
    parser.add_argument("--engine", default="kuzu", choices=("kuzu", "ladybug"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--people", type=int, default=30)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    result = run(args.scale, args.engine, args.repeat, args.people, args.data)
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    print(f"{args.scale} {args.engine}: search {result['search_ms']:.2f} ms (p90 {result['search_p90_ms']:.2f}) vs "
          f"timeline {result['timeline_ms']:.2f} ms: {result['ratio']:.2f}x; first search "
          f"{result['first_search_seconds']:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
