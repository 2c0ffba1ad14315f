"""History and the explorer's reads of one person, on a store of either layout (issue 29's target).

    GRAPHMEM_ENGINE=kuzu python -m benchmarks.opened --store DIR --out result.json [--people 20]
    python -m benchmarks.opened --summarize RUN.json... --out summary.json   # the table, from runs

Opens the store read as it is (no copy, nothing written) with whichever graphmem is on the
path, so one store made by the release before can be timed with that release's code and, once
converted, with this one's. Times in CPU seconds (every thread of the process) and wall seconds:
``Store.history`` of the 1M workload's 200 K1 keys, and for ``--people`` of their subjects what
the explorer asks when a person is opened (``graphmem/explorer/api.py``): ``/api/graph``
(the neighbourhood, depth 1), ``/api/timeline``, ``/api/changes`` about the first ``--changes`` over the 90
days before the latest write (a whole-store diff, filtered), and ``/api/version`` of each of the
first edges shown (up to 10, what a click on an edge asks). ``--repeats`` rounds, each a fresh
pass over the same keys; every answer's size is kept, so runs of the two layouts can be
checked to have answered the same. ``--first`` times the histories once before anything else
(``history_200_first``): the first reads of a process, which no earlier read has warmed.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from datetime import timedelta
from pathlib import Path


def summarize(runs: list[Path], out: Path) -> None:
    """Every run's rounds by engine and label (``--label``), CPU min and max per question, and
    a Markdown table of them; the answers' sizes must agree across a question's runs."""
    grouped: dict = {}
    for path in runs:
        run = json.loads(path.read_text())
        into = grouped.setdefault(run["engine"], {}).setdefault(run["label"], {"runs": [], "cpu": {}, "sizes": {}})
        into["runs"].append(path.name)
        for name, rounds in run["runs"].items():
            into["cpu"].setdefault(name, []).extend(r["cpu"] for r in rounds)
            into["sizes"].setdefault(name, set()).add(run["sizes"][name])
    lines = []
    for engine, labels in grouped.items():
        for name in next(iter(labels.values()))["cpu"]:
            sizes = set().union(*(found["sizes"][name] for found in labels.values()))
            assert len(sizes) == 1, f"{engine} {name}: the runs answered differently ({sizes})"
            cells = [f"{min(v):.2f}–{max(v):.2f}" for v in (found["cpu"][name] for found in labels.values())]
            lines.append(f"| {engine} | {name} | " + " | ".join(cells) + " |")
    header = "| engine | question | " + " | ".join(next(iter(grouped.values()))) + " |"
    table = "\n".join([header, "|" + "---|" * (header.count("|") - 1), *lines])
    for labels in grouped.values():
        for found in labels.values():
            found["sizes"] = {name: sorted(sizes) for name, sizes in found["sizes"].items()}
    out.write_text(json.dumps({"table": table, "engines": grouped}, indent=1) + "\n")
    print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summarize", nargs="+", type=Path, help="runs to put in one table")
    parser.add_argument("--store", type=Path)
    parser.add_argument("--params", type=Path, default=Path("/tmp/graphmem-bench/1m-seed1/params.json"))
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--changes", type=int, default=5, help="how many of the people /api/changes is asked about")
    parser.add_argument("--label", default="")
    parser.add_argument("--first", action="store_true",
                        help="time the 200 histories once more, first of all (history_200_first)")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize, args.out)
        return
    if args.store is None:
        parser.error("--store is required")

    from graphmem import Store
    from graphmem.explorer import api

    store = Store(args.store, hold=False, allow_future=True)
    keys = json.loads(args.params.read_text())["K1"]["keys"][:200]  # (display name, id, predicate)
    people = list(dict.fromkeys(key for _, key, _ in keys))[:args.people]
    latest = store.latest_write()
    assert latest is not None
    as_of = latest.isoformat()
    since = (latest - timedelta(days=90)).isoformat()
    results: dict = {"label": args.label, "engine": store.engine, "store": str(args.store),
                     "people": len(people), "histories": len(keys), "runs": {}, "sizes": {}}

    def timed(name: str, work) -> None:
        cpu, wall = time.process_time(), time.perf_counter()
        sizes = work()
        results["runs"].setdefault(name, []).append({"cpu": round(time.process_time() - cpu, 4),
                                                     "wall": round(time.perf_counter() - wall, 4)})
        results["sizes"][name] = sizes

    def histories() -> int:
        return sum(len(store.history(name, predicate)) for name, _, predicate in keys)

    def endpoint(handler, make) -> int:
        return sum(len(json.dumps(handler(store, make(p)), default=str)) for p in people)

    def edge_ids() -> dict[str, list[str]]:
        return {p: [e["id"] for e in api.graph(store, {"focus": [p], "depth": ["1"], "as_of": [as_of]})["edges"]][:10]
                for p in people}

    if args.first:  # before anything else has read the store in this process: nothing kept from other reads
        timed("history_200_first", histories)
    shown = edge_ids()
    for _ in range(args.repeats):
        timed("history_200", histories)
        timed("api_graph", lambda: endpoint(api.graph, lambda p: {"focus": [p], "depth": ["1"], "as_of": [as_of]}))
        timed("api_timeline", lambda: endpoint(api.timeline, lambda p: {"entity": [p], "as_of": [as_of]}))
        timed("api_changes", lambda: sum(len(json.dumps(api.changes(store, {"since": [since], "until": [as_of],
                                                                             "focus": [p]}), default=str))
                                         for p in people[:args.changes]))
        timed("api_version", lambda: sum(len(json.dumps(api.version(store, {"id": [i]}), default=str))
                                         for p in people for i in shown[p]))
    results["versions_clicked"] = sum(len(v) for v in shown.values())
    store.close()
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps({k: [r["cpu"] for r in v] for k, v in results["runs"].items()}))


if __name__ == "__main__":
    main()
