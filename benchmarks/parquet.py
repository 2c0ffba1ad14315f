"""The Parquet log's import and export, timed beside the engine's bare COPY and DuckDB.

    python -m benchmarks.parquet --scale 1m --engine both [--repeat 3] [--data DIR] [--out FILE]

The generated log of the scale (the JSON Lines log ``python -m benchmarks run`` loads, made if
missing) is imported once into a store and exported as Parquet (kept beside the log, made once;
or ``--export DIR``). Then for each engine, in its own process (kuzu and ladybug cannot share
one), each ``--repeat`` times:

- **import**: ``Store.import_log(DIR, large=True)`` of that export into a new store on disk (every column
  checked, the log's invariants checked, one transaction, the settings after);
- **export**: ``Store.export(DIR, format="parquet")`` of the first imported store into a new
  directory; the first export must equal the one imported, file by file, row for row;
- **copy floor**: the same files read and converted to the engine's tables, then only the COPYs,
  in one transaction, into a new store: what the import cannot go below;
- **checks**: the import's own reading and checking alone, no engine: every file read and every
  column checked, the ids and entities checked against an empty store, every invariant of
  ``check`` over the columns (what the import adds to the floor's COPYs);
- **duckdb**: DuckDB (in the same process, on disk) creating one table per file from the same
  Parquet files (``CREATE TABLE AS SELECT * FROM read_parquet``), and writing them back out with
  ``COPY ... TO (FORMAT parquet)``: a columnar peer doing the same amount of work on the files.

Results go to ``--out`` (JSON) and a table is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .generate import generate, scale_versions, write_log
from .runner import DEFAULT_DATA, _code_stamp, machine


def generated_log(scale: str, seed: int, data_root: Path) -> Path:
    """The JSON Lines log of a scale and seed, where ``python -m benchmarks run`` keeps it."""
    data = data_root / f"{scale}-seed{seed}"
    log, stamp = data / "log.jsonl", _code_stamp(("generate",))
    if not log.exists() or not (data / "log.stamp").exists() or (data / "log.stamp").read_text() != stamp:
        data.mkdir(parents=True, exist_ok=True)
        write_log(generate(scale_versions(scale), seed), log)
        (data / "log.stamp").write_text(stamp)
    return log


def generated_parquet(log: Path, engine: str) -> Path:
    """The generated log as a Parquet export (made once, through a JSON Lines import, and kept
    beside the log)."""
    from graphmem import Store
    from graphmem.log import parquet as parquet_module

    export = log.parent / "parquet"
    writer = hashlib.sha256(Path(parquet_module.__file__).read_bytes()).hexdigest()[:16]
    stamp = f"{(log.parent / 'log.stamp').read_text()}:{writer}"  # made again when the export's code changes
    if export.exists() and (log.parent / "parquet.stamp").exists() and \
            (log.parent / "parquet.stamp").read_text() == stamp:
        return export
    shutil.rmtree(export, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="source-", dir=log.parent))
    try:
        with Store(work / "store", engine=engine, allow_future=True) as store:
            store.import_log(log, large=True)
            store.export(export, format="parquet")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (log.parent / "parquet.stamp").write_text(stamp)
    return export


def _timed(fn):
    started, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - started, time.process_time() - cpu


def _summary(runs: list[tuple[float, float]], versions: int) -> dict:
    walls = [w for w, _ in runs]
    median = statistics.median(walls)
    return {"median": median, "min": min(walls), "max": max(walls), "runs": len(walls),
            "cpu_median": statistics.median(c for _, c in runs), "rate": versions / median}


def work(engine: str, export: Path, workdir: Path, repeat: int) -> dict:
    """One engine's runs (this process imports exactly that engine)."""
    import pyarrow.parquet as pq

    from graphmem import Store
    from graphmem.log.jsonl import _in_copy_order
    from graphmem.log.parquet import FILES, engine_tables, read_log

    header = json.loads((export / "graphmem.json").read_text())
    versions = header["rows"]["versions"]
    results: dict = {"engine": engine, "versions": versions, "records": sum(header["rows"].values()),
                     "parquet_bytes": sum(f.stat().st_size for f in export.iterdir())}
    imports, exports, floors, checks = [], [], [], []
    source = None
    for n in range(repeat):
        target = Store(workdir / f"import{n}", engine=engine, allow_future=True)
        _, wall, cpu = _timed(lambda t=target: t.import_log(export, large=True))
        imports.append((wall, cpu))
        if source is None:
            source = target
        else:
            target.close()
            shutil.rmtree(workdir / f"import{n}")
    for n in range(repeat):
        out = workdir / f"export{n}"
        _, wall, cpu = _timed(lambda d=out: source.export(d, format="parquet"))
        exports.append((wall, cpu))
        if n == 0:  # what was imported is what was exported: every file's table, row for row
            for stem in FILES.values():
                if not pq.read_table(out / f"{stem}.parquet").equals(pq.read_table(export / f"{stem}.parquet")):
                    raise AssertionError(f"{engine}: {stem} differs after an import and an export")
        shutil.rmtree(out)
    source.close()
    for n in range(repeat):
        with Store(workdir / f"floor{n}", engine=engine, allow_future=True) as target:
            def copy(t=target):
                tables = engine_tables(read_log(export, large=True)[1])
                with t._db.bulk_load(), t._db.transaction():
                    for name, rows in tables.items():
                        if rows.num_rows:
                            t._db.run_text(f"COPY {name} FROM $rows", {"rows": _in_copy_order(name, rows, tables)})
            _, wall, cpu = _timed(copy)
            floors.append((wall, cpu))
        shutil.rmtree(workdir / f"floor{n}")
    results["export"] = _summary(exports, versions)
    results["import"] = _summary(imports, versions)
    results["copy_floor"] = _summary(floors, versions)
    for _ in range(repeat):
        _, wall, cpu = _timed(lambda: _checks(export))
        checks.append((wall, cpu))
    results["checks"] = _summary(checks, versions)
    results.update(_duckdb(export, workdir, repeat, versions))
    return results


def _checks(export: Path) -> None:
    """What the import reads and checks before its COPYs, into an empty store."""
    from graphmem.log.parquet import FILES, SCHEMAS, _refuse_conflicts, _refuse_unsound, read_log
    from graphmem.models import DEFAULT_PREDICATES

    header, tables = read_log(export, large=True)
    empty = {kind: SCHEMAS[kind].empty_table() for kind in FILES}
    _refuse_conflicts(export, header, header["timezone"], {}, tables, empty)
    declared = dict(zip(tables["predicate"].column("name").to_pylist(), tables["predicate"].column("kind").to_pylist()))
    _refuse_unsound(export, tables, empty, {**DEFAULT_PREDICATES, **declared})


def _duckdb(export_dir: Path, workdir: Path, repeat: int, versions: int) -> dict:
    import duckdb

    from graphmem.log.parquet import FILES

    reads, writes = [], []
    for n in range(repeat):
        path = workdir / f"duck{n}.db"
        con = duckdb.connect(str(path))

        def load(con=con):
            for stem in FILES.values():
                con.execute(f"CREATE TABLE {stem} AS SELECT * FROM read_parquet('{export_dir / stem}.parquet')")
            con.execute("CHECKPOINT")
        _, wall, cpu = _timed(load)
        reads.append((wall, cpu))
        out = workdir / f"duckout{n}"
        out.mkdir()

        def dump(con=con, out=out):
            for stem in FILES.values():
                con.execute(f"COPY {stem} TO '{out / stem}.parquet' (FORMAT parquet, COMPRESSION zstd)")
        _, wall, cpu = _timed(dump)
        writes.append((wall, cpu))
        con.close()
        path.unlink()
        shutil.rmtree(out)
    return {"duckdb_read": _summary(reads, versions), "duckdb_write": _summary(writes, versions)}


def table(results: dict) -> str:
    """The results as a markdown table with ratios against DuckDB and the COPY floor."""
    lines = ["| engine | export | import | COPY floor | checks (no engine) | DuckDB reads the files | "
             "DuckDB writes them | import / floor | import / DuckDB | export / DuckDB |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["engines"]:
        def cell(key, r=r):
            x = r[key]
            return f"{x['median']:.2f} s ({x['min']:.2f}–{x['max']:.2f})<br>{x['rate']:,.0f} versions/s"
        lines.append(f"| {r['engine']} | {cell('export')} | {cell('import')} | {cell('copy_floor')} | "
                     f"{r['checks']['median']:.2f} s, CPU {r['checks']['cpu_median']:.2f} s | "
                     f"{cell('duckdb_read')} | {cell('duckdb_write')} | "
                     f"{r['import']['median'] / r['copy_floor']['median']:.2f}× | "
                     f"{r['import']['median'] / r['duckdb_read']['median']:.2f}× | "
                     f"{r['export']['median'] / r['duckdb_write']['median']:.2f}× |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parquet", description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="100k")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", default="both", choices=("kuzu", "ladybug", "both"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--export", type=Path, default=None,
                        help="a Parquet export to start from (default: the generated log's, made once)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        workdir = Path(tempfile.mkdtemp(prefix=f"parquet-{args.worker}-", dir=args.data))
        try:
            result = work(args.worker, args.export, workdir, args.repeat)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        print(json.dumps(result))
        return 0
    started = time.perf_counter()
    log = generated_log(args.scale, args.seed, args.data)
    export = args.export or generated_parquet(log, "ladybug" if args.engine == "ladybug" else "kuzu")
    results = {"scale": args.scale, "seed": args.seed, "machine": machine(), "log_bytes": log.stat().st_size,
               "export": str(export),
               "command": "python -m benchmarks.parquet " + " ".join(argv if argv is not None else sys.argv[1:]),
               "engines": []}
    for engine in (["kuzu", "ladybug"] if args.engine == "both" else [args.engine]):
        cmd = [sys.executable, "-m", "benchmarks.parquet", "--worker", engine, "--scale", args.scale,
               "--seed", str(args.seed), "--repeat", str(args.repeat), "--data", str(args.data),
               "--export", str(export)]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True,
                              env={**os.environ, "GRAPHMEM_ENGINE": engine},
                              cwd=Path(__file__).resolve().parent.parent)
        results["engines"].append(json.loads(done.stdout.strip().splitlines()[-1]))
    results["seconds"] = time.perf_counter() - started
    out = args.out or Path(__file__).resolve().parent / "results" / f"parquet-{args.scale}.json"
    out.write_text(json.dumps(results, indent=1))
    print(table(results))
    print(f"results: {out} ({results['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
