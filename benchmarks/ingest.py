"""Ingest throughput and memory, next to another version of graphmem in the same run.

Two measurements, each in a fresh process per (version, engine), one after another:

- ``conversation``: ``graphmem ingest FILE --approve`` (the rules extractor) on a generated
  conversation (``benchmarks/conversations.py``) into a new store, as a user runs it: the whole
  command's wall time (start-up, reading, extraction, writing, closing) and its peak resident
  memory (the child's ``ru_maxrss``). ``--replay`` adds a run with ``--replay``.
- ``batches``: the same ingest through the library (``graphmem.ingest.ingest``) with each of
  several numbers of messages per transaction, this version only: time and peak memory.
- ``key``: the cost of one write to a key with many past values: a store where one ``one`` key
  (``lives_in``) has N past values, then single ``Store.add`` calls giving it new ones. It
  reports the time per write and how many believed versions the write gate fetched from the
  engine for it (rows returned by the queries that read them).

``--baseline DIR`` names a source tree of another graphmem (e.g. ``git archive COMMIT | tar -x
-C DIR``) run the same way, for a ratio. Results print as a table and go to ``--out`` as JSON.

    python -m benchmarks.ingest conversation --messages 10000 --engine both --baseline /tmp/gm-base
    python -m benchmarks.ingest batches --messages 10000 --sizes 64,512,2048,10000 --engine both
    python -m benchmarks.ingest key --values 1000 --engine both --baseline /tmp/gm-base
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _env(tree: Path, engine: str) -> dict:
    """The environment of a child that imports graphmem from ``tree`` (run from elsewhere, so the
    current directory's graphmem is not the one imported)."""
    return {**os.environ, "PYTHONPATH": str(tree), "GRAPHMEM_ENGINE": engine}


def _child(cmd: list[str], env: dict, stdout) -> tuple[float, float, int]:
    """Run ``cmd``; its wall time (s), peak resident memory (MB) and exit status."""
    started = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {child.stderr.read().decode()[-2000:]}")
    return took, usage.ru_maxrss / 1024, child.returncode


def conversation_run(tree: Path, engine: str, file: Path, work: Path, replay: bool) -> dict:
    """One ``graphmem ingest`` of ``file`` into a new store, with the graphmem of ``tree``."""
    store = Path(tempfile.mkdtemp(dir=work))
    summary = work / "summary.json"
    cmd = [sys.executable, "-m", "graphmem", "--store", str(store / "s"), "--engine", engine,
           "ingest", str(file), "--approve", "--json", *(["--replay"] if replay else [])]
    with summary.open("w") as out:
        took, peak, _ = _child(cmd, _env(tree, engine), out)
    (found,) = json.loads(summary.read_text())
    return {"seconds": round(took, 2), "peak_mb": round(peak, 1),
            "messages_per_second": round(found["episodes"] / took, 1),
            "episodes": found["episodes"], "approved": found["approved"], "held": len(found["held"]),
            "dropped": len(found["dropped"])}


BATCH_WORKER = r"""
import json, resource, sys, time
from graphmem import Store
from graphmem.ingest import ingest, read_messages

file, path, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
started = time.perf_counter()
with Store(path) as store:
    summary = ingest(store, read_messages(file), approve=True, batch=batch)
took = time.perf_counter() - started
print(json.dumps({"seconds": round(took, 2), "messages_per_second": round(summary.episodes / took, 1),
                  "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))
"""


def batch_run(engine: str, file: Path, size: int, work: Path) -> dict:
    """One library ingest of ``file`` with ``size`` messages per transaction (this version)."""
    store = Path(tempfile.mkdtemp(dir=work)) / "s"
    out = subprocess.run([sys.executable, "-c", BATCH_WORKER, str(file), str(store), str(size)],
                         env=_env(ROOT, engine), capture_output=True, text=True, check=False, cwd=work)
    if out.returncode != 0:
        raise SystemExit(f"batch worker failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


KEY_WORKER = r"""
import json, sys, time
from datetime import datetime, timedelta, timezone
import graphmem.engine
from graphmem import Store

values, writes, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
store = Store(path)
day = datetime(2000, 1, 1, tzinfo=timezone.utc)
cities = [f"City {n}" for n in range(values + writes + 1)]
# N past values of one key, then its current one: written in bulk where this version can
add_many = getattr(store, "add_many", None)
facts = [("Ana", "lives_in", cities[n], day + timedelta(days=n)) for n in range(values + 1)]
if add_many:
    add_many(facts, recorded_at="2020-01-01")
else:
    from graphmem.batch import assert_many
    assert_many(store, facts, recorded_at="2020-01-01")
assert len(store.history("Ana", "lives_in")) == 2 * values + 1
fetched = [0]
run, run_text = graphmem.engine.Engine.run, graphmem.engine.Engine.run_text

def counting(self, name, params=None):
    rows = run(self, name, params)
    if name in ("store/fact_believed", "store/believed_at_places"):
        fetched[0] += len(rows)
    return rows

graphmem.engine.Engine.run = counting
times = []
for n in range(writes):
    started = time.perf_counter()
    store.add("Ana", "lives_in", cities[values + 1 + n], valid_from=day + timedelta(days=values + 1 + n))
    times.append(time.perf_counter() - started)
store.close()
print(json.dumps({"times": times, "fetched": fetched[0]}))
"""


def key_run(tree: Path, engine: str, values: int, writes: int, work: Path) -> dict:
    """Writes to a key with ``values`` past values, with the graphmem of ``tree``."""
    store = Path(tempfile.mkdtemp(dir=work)) / "s"
    out = subprocess.run([sys.executable, "-c", KEY_WORKER, str(values), str(writes), str(store)],
                         env=_env(tree, engine), capture_output=True, text=True, check=False, cwd=work)
    if out.returncode != 0:
        raise SystemExit(f"key worker failed: {out.stderr[-2000:]}")
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return {"median_ms": round(statistics.median(found["times"]) * 1000, 2),
            "rows_fetched_per_write": found["fetched"] / writes}


def _versions(args) -> list[tuple[str, Path]]:
    versions = [("this", ROOT)]
    if args.baseline:
        versions.append(("baseline", Path(args.baseline).resolve()))
    return versions


def _engines(name: str) -> list[str]:
    return ["kuzu", "ladybug"] if name == "both" else [name]


def _median(runs: list[dict]) -> dict:
    """The run of median time (its own memory and counts), with every run's time and peak."""
    ordered = sorted(runs, key=lambda r: r["seconds"])
    found = dict(ordered[len(ordered) // 2])
    if len(runs) > 1:
        found["runs"] = [{"seconds": r["seconds"], "peak_mb": r["peak_mb"]} for r in runs]
    return found


def conversation(args) -> dict:
    from benchmarks.conversations import conversation as make
    from benchmarks.conversations import write

    work = Path(tempfile.mkdtemp(prefix="graphmem-ingest-"))
    file = write(work / "chat.jsonl", make(args.messages, args.users, args.seed))
    results = []
    for engine in _engines(args.engine):
        for replay in ([False, True] if args.replay else [False]):
            row = {"engine": engine, "replay": replay}
            for label, tree in _versions(args):
                runs = [conversation_run(tree, engine, file, work, replay)
                        for _ in range(args.repeat if label == "this" else 1)]
                for found in runs:
                    print(engine, "replay" if replay else "", label, found, file=sys.stderr, flush=True)
                row[label] = _median(runs)
            if "baseline" in row:
                row["speedup"] = round(row["baseline"]["seconds"] / row["this"]["seconds"], 2)
                row["memory_ratio"] = round(row["this"]["peak_mb"] / row["baseline"]["peak_mb"], 2)
            results.append(row)
    return {"what": "conversation", "messages": args.messages, "users": args.users, "seed": args.seed,
            "results": results}


def batches(args) -> dict:
    from benchmarks.conversations import conversation as make
    from benchmarks.conversations import write

    work = Path(tempfile.mkdtemp(prefix="graphmem-batches-"))
    file = write(work / "chat.jsonl", make(args.messages, args.users, args.seed))
    results = []
    for engine in _engines(args.engine):
        for size in (int(n) for n in args.sizes.split(",")):
            row = {"engine": engine, "batch": size, **batch_run(engine, file, size, work)}
            print(row, file=sys.stderr, flush=True)
            results.append(row)
    return {"what": "batches", "messages": args.messages, "users": args.users, "seed": args.seed,
            "results": results}


def key(args) -> dict:
    work = Path(tempfile.mkdtemp(prefix="graphmem-key-"))
    results = []
    for engine in _engines(args.engine):
        row = {"engine": engine}
        for label, tree in _versions(args):
            row[label] = key_run(tree, engine, args.values, args.writes, work)
            print(engine, label, row[label], file=sys.stderr, flush=True)
        if "baseline" in row:
            row["speedup"] = round(row["baseline"]["median_ms"] / row["this"]["median_ms"], 2)
        results.append(row)
    return {"what": "key", "values": args.values, "writes": args.writes, "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    talk = commands.add_parser("conversation", help="graphmem ingest --approve of a generated conversation")
    talk.add_argument("--replay", action="store_true", help="also measure --replay")
    talk.add_argument("--repeat", type=int, default=1, help="runs of this version (the median is kept)")
    sizes = commands.add_parser("batches", help="library ingest with several transaction sizes")
    sizes.add_argument("--sizes", default="64,512,2048,10000", help="messages per transaction")
    past = commands.add_parser("key", help="writes to a key with many past values")
    past.add_argument("--values", type=int, default=1000)
    past.add_argument("--writes", type=int, default=30)
    for command in (talk, sizes):
        command.add_argument("--messages", type=int, default=10_000)
        command.add_argument("--users", type=int, default=8)
        command.add_argument("--seed", type=int, default=16)
    for command in (talk, sizes, past):
        command.add_argument("--engine", choices=["kuzu", "ladybug", "both"], default="kuzu")
        command.add_argument("--out", type=Path, help="write the results here as JSON")
    for command in (talk, past):
        command.add_argument("--baseline", help="a source tree of another graphmem, for a ratio")
    args = parser.parse_args()
    found = {"conversation": conversation, "batches": batches, "key": key}[args.command](args)
    text = json.dumps(found, indent=2)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
