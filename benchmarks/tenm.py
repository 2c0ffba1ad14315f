"""A 10M-version store on one machine: the generated log as Parquet, imported and asked as a user would.

    python -m benchmarks.tenm make --scale 10m [--data DIR]          # the log, once (Parquet)
    python -m benchmarks.tenm run --scale 10m --engine ladybug [--data DIR] [--out FILE] [--keep]

**make** runs the benchmark's generator (:mod:`benchmarks.generate`, the same writes, seed and
gate as ``python -m benchmarks run``) and writes its log straight into a Parquet log in the
layout ``graphmem export --format parquet`` writes (the shipped schemas, row order and
encodings of :mod:`graphmem.log.parquet`), kept as ``DIR/SCALE-seedN/parquet-direct``. The
harness's own path, a JSON Lines log imported into a store and exported, holds the parsed log in
memory (5-6 GB at 1M: too much at 10M on 24 GB); here the generator keeps only what the log needs
(decisions as tuples, no replay list, one string per entity id) and the files are built column
by column. ``tests/test_tenm.py`` checks the files equal the harness's export at a small scale.

**run** then, each step a fresh process:

- **import**: ``graphmem --store STORE --engine E import --large --allow-future LOG`` (the CLI);
  wall, CPU (user + system) and peak RSS of that process, versions per second;
- **measure**: in one process, as a user would, each step's wall, CPU and peak RSS (the peak
  reset before each step through ``/proc/self/clear_refs``): opening the store; ``Store.beliefs``
  and ``Store.beliefs_arrow`` as of T (75% into the history's writes) valid at V (50%), the
  harness's T1; ``Store.history`` (``lives_in``) and ``Store.timeline`` of a few subjects (the
  busiest person and a seeded sample); one ``Store.add_many`` of 1,000 asserts that supersede
  (new ``lives_in`` values for people who hold one); ``Store.close`` after it (its checkpoint);
- the store's size on disk after the import and after the close.

Results go to ``--out`` (JSON, with the machine and the load average at each step) and a table
is printed. The store is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import inspect
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .generate import Generator, History, scale_versions
from .runner import DEFAULT_DATA, _code_stamp, machine

ROOT = Path(__file__).resolve().parent.parent
SUBJECTS = 5  # histories and timelines asked
BATCH = 1000  # asserts in the add_many batch


# -- the generated log, kept small --------------------------------------------------------------


class _Discard(list):
    """A list that keeps nothing: the generator's replay list (``History.writes``), unused here."""

    def append(self, item) -> None:
        pass


class SlimHistory(History):
    """A History that keeps only what its log needs: each decision a tuple, no replay list, one
    string per entity id. What it decides is the History's own (the same gate, the same code)."""

    def __init__(self, seed: int):
        super().__init__(seed=seed)
        self.writes = _Discard()
        self._ids: dict[str, str] = {}

    def ensure_entity(self, name: str) -> str:
        key = super().ensure_entity(name)
        return self._ids.setdefault(key, key)

    def _log(self, op, decision_id, at, created=(), closed=(), episode=None, reason=None):
        self.decisions.append((decision_id, op, at, tuple(created), tuple(closed), episode, reason))
        self.last_write = at


def generate_slim(versions: int, seed: int = 1) -> History:
    """The history ``benchmarks.generate.generate(versions, seed)`` makes, in a SlimHistory."""
    generator = Generator(versions, seed)
    generator.history = SlimHistory(seed)
    enabled = gc.isenabled()
    gc.disable()  # no cycles are made; a collector rescanning millions of records costs minutes
    try:
        return generator.run()
    finally:
        if enabled:
            gc.enable()


def write_parquet(history: History, directory: Path) -> dict[str, int]:
    """Write a SlimHistory's log as a Parquet log (what ``graphmem export --format parquet`` of a
    store holding it writes); empties the history as it goes. Returns the rows of each file."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from graphmem.log.parquet import FILES, FORMAT, HEADER, LAYOUT, SCHEMAS, TIME, _order, _repeating

    directory = Path(directory)
    work = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    rows: dict[str, int] = {}

    def put(kind: str, columns: dict) -> None:
        schema = SCHEMAS[kind]
        table = pa.Table.from_arrays([columns.pop(f.name) if f.name in columns else pa.nulls(0, f.type)
                                      for f in schema], schema=schema)
        order = _order(kind, table)
        if table.num_rows and not pc.all(pc.equal(order, pa.array(range(table.num_rows), order.type))).as_py():
            table = table.take(order)
        pq.write_table(table, work / f"{FILES[kind]}.parquet", compression="zstd",
                       use_dictionary=_repeating(table))
        rows[FILES[kind]] = table.num_rows

    def column(values, kind) -> pa.Array:
        return pa.array(values, kind)

    text, texts = pa.string(), pa.list_(pa.string())
    try:
        put("predicate", {"name": column([], text), "kind": column([], text)})
        ids = sorted(history.entities)
        names = {i: history.entities[i][0] for i in ids}
        put("entity", {"id": column(ids, text), "name": column([names[i] for i in ids], text),
                       "kind": column([history.entities[i][1] for i in ids], text)})
        del ids
        episodes = list(history.episodes.values())
        put("episode", {"id": column([e["id"] for e in episodes], text),
                        "kind": column([e["kind"] for e in episodes], text),
                        "text": column([e["text"] for e in episodes], text),
                        "actor": column([e["actor"] for e in episodes], text),
                        "reference_time": column([e["reference_time"] for e in episodes], TIME),
                        "received_at": column([e["received_at"] for e in episodes], TIME)})
        del episodes
        decisions = history.decisions
        names_of_fields = ("id", "op", "at", "created", "closed", "episode", "reason")
        types = (text, text, TIME, texts, texts, text, text)
        columns = {name: column([d[n] for d in decisions], kind)
                   for n, (name, kind) in enumerate(zip(names_of_fields, types))}
        columns["proposal"] = pa.nulls(len(decisions), text)
        history.decisions = []
        del decisions
        put("decision", columns)
        versions = list(history.versions.values())
        history.versions = {}
        history.believed = {}
        fields = {
            "id": (lambda r: r.id, text), "subject": (lambda r: names[r.subject], text),
            "predicate": (lambda r: r.predicate, text), "object": (lambda r: names[r.object], text),
            "valid_from": (lambda r: r.valid_from, TIME), "valid_to": (lambda r: r.valid_to, TIME),
            "recorded_at": (lambda r: r.recorded_at, TIME), "superseded_at": (lambda r: r.superseded_at, TIME),
            "episodes": (lambda r: r.episodes, texts), "subject_id": (lambda r: r.subject, text),
            "object_id": (lambda r: r.object, text), "supersedes": (lambda r: r.supersedes, texts),
            "superseded_by": (lambda r: r.superseded_by, texts), "created_by": (lambda r: r.created_by, text),
            "closed_by": (lambda r: r.closed_by, text), "reason": (lambda r: r.reason, text),
        }
        columns = {name: column([get(r) for r in versions], kind) for name, (get, kind) in fields.items()}
        del versions
        put("version", columns)
        put("proposal", {})
        put("tombstone", {})
        links = history.links
        put("link", {"version": column([x["version"] for x in links], text),
                     "episode": column([x["episode"] for x in links], text),
                     "at": column([x["at"] for x in links], TIME)})
        header = {"type": "graphmem", "format": FORMAT, "layout": LAYOUT, "engine": "generated",
                  "timezone": "UTC", "meta": dict(sorted(history.meta().items())),
                  "rows": {stem: rows[stem] for stem in FILES.values()}}
        (work / HEADER).write_text(json.dumps(header, indent=1) + "\n", encoding="utf-8")
        shutil.rmtree(directory, ignore_errors=True)
        os.replace(work, directory)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return rows


def _log_stamp() -> str:
    """A fingerprint of the code that makes the log (the generator and the writer here)."""
    code = "".join(inspect.getsource(f) for f in (_Discard, SlimHistory, generate_slim, write_parquet))
    return hashlib.sha256(f"{_code_stamp(('generate',))}{code}".encode()).hexdigest()[:16]


def generated_parquet_direct(scale: str, seed: int, data_root: Path) -> tuple[Path, dict]:
    """The scale's generated log as a Parquet log, made once (kept with what making it took)."""
    data = data_root / f"{scale}-seed{seed}"
    export, info_path = data / "parquet-direct", data / "parquet-direct.json"
    stamp = _log_stamp()
    if export.exists() and info_path.exists():
        info = json.loads(info_path.read_text())
        if info.get("stamp") == stamp:
            return export, info
    data.mkdir(parents=True, exist_ok=True)
    started, cpu = time.perf_counter(), time.process_time()
    history = generate_slim(scale_versions(scale), seed)
    generated, generated_cpu = time.perf_counter() - started, time.process_time() - cpu
    rss_generated = _maxrss_mb()
    rows = write_parquet(history, export)
    del history
    info = {"stamp": stamp, "scale": scale, "seed": seed, "rows": rows,
            "generate": {"wall": generated, "cpu": generated_cpu, "peak_rss_mb": rss_generated},
            "write": {"wall": time.perf_counter() - started - generated,
                      "cpu": time.process_time() - cpu - generated_cpu},
            "peak_rss_mb": _maxrss_mb(), "bytes": _size(export), "load_end": os.getloadavg()}
    info_path.write_text(json.dumps(info, indent=1))
    return export, info


# -- measuring ------------------------------------------------------------------------------------


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM (Linux)
        return True
    except OSError:
        return False


def _peak_mb(field: str = "VmHWM") -> float | None:
    """The process's peak RSS since the last reset (or, with ``VmRSS``, its RSS now), in MB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _step(results: dict, name: str, fn, **extra):
    """Run one step; record its wall, CPU (every thread of the process) and peak RSS (what the
    process already held included: ``rss_before_mb``)."""
    load = os.getloadavg()
    gc.collect()
    resettable, before = _reset_peak(), _peak_mb("VmRSS")
    started, cpu = time.perf_counter(), time.process_time()
    value = fn()
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    results[name] = {"wall": wall, "cpu": used, "peak_rss_mb": _peak_mb() if resettable else None,
                     "rss_before_mb": before, "load": load, **extra}
    return value


def measure(store_dir: Path, engine: str, export: Path, seed: int = 7) -> dict:
    """The questions and the write, in this process (which imports exactly one engine)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from graphmem import Store
    from graphmem.models import Assertion

    at = pq.read_table(export / "decisions.parquet", columns=["at"]).column("at")
    times = at.to_pylist() if len(at) < 1000 else None
    count = len(at)
    as_of = (times[count * 3 // 4] if times else at[count * 3 // 4].as_py())
    valid_at = (times[count // 2] if times else at[count // 2].as_py())
    del at, times
    entities = pq.read_table(export / "entities.parquet", columns=["name"]).column("name")
    people = sorted(n for n in pc.filter(entities, pc.starts_with(entities, "Person ")).to_pylist())
    cities = [n for n in pc.filter(entities, pc.starts_with(entities, "City ")).to_pylist()]
    del entities
    # who holds a lives_in now (a believed version, valid to the end): a new value supersedes it
    held = pq.read_table(export / "versions.parquet", columns=["subject", "predicate", "valid_to", "superseded_at"])
    held = held.filter(pc.and_(pc.equal(held.column("predicate"), "lives_in"),
                               pc.and_(pc.is_null(held.column("superseded_at")), pc.is_null(held.column("valid_to")))))
    candidates = sorted(set(held.column("subject").to_pylist()))
    del held
    rnd = random.Random(seed)
    subjects = ["Person 0", *rnd.sample([p for p in people if p != "Person 0"], SUBJECTS - 1)]
    results: dict = {"engine": engine, "as_of": as_of.isoformat(), "valid_at": valid_at.isoformat(),
                     "subjects": subjects}

    store = _step(results, "open", lambda: Store(store_dir, engine=engine, allow_future=True))
    results["now"] = store.now().isoformat()
    rows = _step(results, "beliefs", lambda: len(store.beliefs(as_of, valid_at)))
    results["beliefs"]["rows"] = rows
    rows = _step(results, "beliefs_arrow", lambda: store.beliefs_arrow(as_of, valid_at).num_rows)
    results["beliefs_arrow"]["rows"] = rows
    for name, ask in (("history", lambda s: store.history(s, "lives_in")), ("timeline", lambda s: store.timeline(s))):
        calls = []
        for subject in subjects:
            found = _step(results, name, lambda s=subject, a=ask: len(a(s)))
            calls.append({"subject": subject, **results.pop(name), "rows": found})
        results[name] = {"calls": calls, "wall_median": sorted(c["wall"] for c in calls)[len(calls) // 2],
                         "peak_rss_mb": max((c["peak_rss_mb"] or 0) for c in calls)}
    asserts, seen = [], set()
    while len(asserts) < min(BATCH, len(candidates)):
        person = rnd.choice(candidates)
        if person in seen:
            continue
        seen.add(person)
        asserts.append(Assertion(person, "lives_in", rnd.choice(cities)))
    decisions = _step(results, "add_many", lambda: store.add_many(asserts), asserts=len(asserts))
    ops: dict[str, int] = {}
    for d in decisions:
        ops[d.op] = ops.get(d.op, 0) + 1
    results["add_many"].update(ops=ops, closed=sum(len(d.closed) for d in decisions),
                               rate=len(asserts) / results["add_many"]["wall"])
    results["wal_bytes_before_close"] = sum(f.stat().st_size for f in Path(store_dir).rglob("*.wal"))
    _step(results, "close", store.close)
    results["process_peak_rss_mb"] = _maxrss_mb()
    return results


def _timed_child(cmd: list[str], env: dict | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    """Run a command and wait for it with wait4: its own CPU and peak RSS."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, **(env or {})})
    out_path, err_path = proc.stdout, proc.stderr
    # drain the pipes in threads so a chatty child cannot block, then reap it with wait4
    import threading

    chunks: dict[str, bytes] = {}

    def drain(name, pipe):
        chunks[name] = pipe.read()
    threads = [threading.Thread(target=drain, args=(n, p)) for n, p in (("out", out_path), ("err", err_path))]
    for t in threads:
        t.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    for t in threads:
        t.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    done = subprocess.CompletedProcess(cmd, proc.returncode, chunks.get("out", b"").decode(),
                                       chunks.get("err", b"").decode())
    return done, {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "cpu_user": usage.ru_utime,
                  "cpu_system": usage.ru_stime, "peak_rss_mb": usage.ru_maxrss / 1024}


def run(args) -> dict:
    started = time.perf_counter()
    export, made = generated_parquet_direct(args.scale, args.seed, args.data)
    header = json.loads((export / "graphmem.json").read_text())
    versions = header["rows"]["versions"]
    store = args.store or Path(tempfile.mkdtemp(prefix=f"tenm-{args.engine}-", dir=args.data)) / "store"
    results = {"scale": args.scale, "seed": args.seed, "engine": args.engine, "machine": machine(),
               "command": "python -m benchmarks.tenm " + " ".join(args.argv),
               "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "load_start": os.getloadavg(),
               "log": {"path": str(export), "rows": header["rows"], "meta": header["meta"],
                       "parquet_bytes": _size(export), "made": made}, "versions": versions}
    try:
        if not args.skip_import:
            cmd = [sys.executable, "-m", "graphmem", "--store", str(store), "--engine", args.engine,
                   "import", "--large", "--allow-future", str(export)]
            results["import"] = {"command": " ".join(["graphmem", *cmd[3:]]), "load": os.getloadavg()}
            done, usage = _timed_child(cmd)
            if done.returncode:
                raise SystemExit(f"the import failed ({done.returncode}): {done.stderr[-3000:]}")
            results["import"].update(usage, rate=versions / usage["wall"], rate_cpu=versions / usage["cpu"],
                                     output=done.stdout.strip().splitlines()[-1:])
            results["disk_after_import"] = _size(store)
        cmd = [sys.executable, "-m", "benchmarks.tenm", "measure", "--store", str(store), "--engine", args.engine,
               "--export", str(export)]
        done, usage = _timed_child(cmd)
        if done.returncode:
            raise SystemExit(f"measuring failed ({done.returncode}): {done.stderr[-3000:]}")
        results["measure"] = json.loads(done.stdout.strip().splitlines()[-1])
        results["measure"]["process"] = usage
        results["disk_after_close"] = _size(store)
    finally:
        if not args.keep and args.store is None:
            shutil.rmtree(store.parent, ignore_errors=True)
    results["seconds"] = time.perf_counter() - started
    results["load_end"] = os.getloadavg()
    return results


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def table(results: dict) -> str:
    m = results["measure"]
    lines = [f"{results['versions']:,} versions on {results['engine']}", "",
             "| step | wall | CPU | peak RSS | load (1 min) | |", "|---|---|---|---|---|---|"]
    if "import" in results:
        i = results["import"]
        lines.append(f"| import (`graphmem import`) | {_fmt(i['wall'])} | {_fmt(i['cpu'])} | "
                     f"{i['peak_rss_mb']:,.0f} MB | {i['load'][0]:.1f} | {i['rate']:,.0f} versions/s |")
    for name in ("open", "beliefs", "beliefs_arrow", "history", "timeline", "add_many", "close"):
        s = m[name]
        if "calls" in s:
            calls = s["calls"]
            walls = ", ".join(_fmt(c["wall"]) for c in calls)
            lines.append(f"| {name} ×{len(calls)} | {walls} | {_fmt(sum(c['cpu'] for c in calls))} in all | "
                         f"{s['peak_rss_mb']:,.0f} MB | {calls[0]['load'][0]:.1f} | "
                         f"rows {', '.join(str(c['rows']) for c in calls)} |")
            continue
        note = f"{s['rows']:,} rows" if "rows" in s else f"{s['rate']:,.0f} asserts/s" if "rate" in s else ""
        peak = f"{s['peak_rss_mb']:,.0f} MB" if s["peak_rss_mb"] is not None else "—"
        lines.append(f"| {name} | {_fmt(s['wall'])} | {_fmt(s['cpu'])} | {peak} | {s['load'][0]:.1f} | {note} |")
    lines.append("")
    lines.append(f"disk: {results.get('disk_after_import', 0) / 1e9:.2f} GB after the import, "
                 f"{results['disk_after_close'] / 1e9:.2f} GB after the close; "
                 f"Parquet log {results['log']['parquet_bytes'] / 1e9:.2f} GB")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tenm", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("make", help="generate the scale's log as Parquet (once)")
    go = sub.add_parser("run", help="import the log with the CLI and measure the store")
    for p in (make, go):
        p.add_argument("--scale", default="10m")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    go.add_argument("--engine", default="ladybug", choices=("kuzu", "ladybug"))
    go.add_argument("--out", type=Path, default=None)
    go.add_argument("--store", type=Path, default=None, help="the store to make (default: a new one under --data)")
    go.add_argument("--skip-import", action="store_true", help="measure the store already at --store")
    go.add_argument("--keep", action="store_true", help="keep the store made under --data")
    inner = sub.add_parser("measure", help=argparse.SUPPRESS)
    inner.add_argument("--store", type=Path, required=True)
    inner.add_argument("--engine", required=True)
    inner.add_argument("--export", type=Path, required=True)
    args = parser.parse_args(argv)
    args.argv = argv
    if args.command == "make":
        export, info = generated_parquet_direct(args.scale, args.seed, args.data)
        print(json.dumps({"export": str(export), **info}, indent=1))
        return 0
    if args.command == "measure":
        print(json.dumps(measure(args.store, args.engine, args.export)))
        return 0
    args.data.mkdir(parents=True, exist_ok=True)
    results = run(args)
    out = args.out or ROOT / "benchmarks" / "results" / f"tenm-{args.scale}-{args.engine}.json"
    out.write_text(json.dumps(results, indent=1, default=str))
    print(table(results))
    print(f"results: {out} ({results['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
