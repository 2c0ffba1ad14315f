"""The Parquet log's import and export, timed beside the engine's bare COPY and DuckDB.

    python -m benchmarks.parquet --scale 1m --engine both [--repeat 3] [--data DIR] [--out FILE]

For each engine, in its own process (kuzu and ladybug cannot share one): the generated log
(the same JSON Lines log ``python -m benchmarks run`` loads, made here if missing) is imported
once, untimed, into a store; then, each ``--repeat`` times:

- **export**: ``Store.export(DIR, format="parquet")`` into a new directory;
- **import**: ``Store.import_log(DIR)`` of that export into a new store on disk (every column
  checked, the log's invariants checked, one transaction, the settings after);
- **copy floor**: the same export's files read and converted to the engine's tables, then only
  the COPYs, in one transaction, into a new store: what the import cannot go below;
- **duckdb**: DuckDB (in the same process, on disk) creating one table per file from the same
  Parquet files (``CREATE TABLE AS SELECT * FROM read_parquet``), and writing them back out with
  ``COPY ... TO (FORMAT parquet)``: a columnar peer doing the same amount of work on the files.

Every imported store is compared with the source store (counts of every record type, and
``check``) before its time is kept. Results go to ``--out`` (JSON) and a table is printed.
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


def _timed(fn):
    started, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - started, time.process_time() - cpu


def _summary(runs: list[tuple[float, float]], versions: int) -> dict:
    walls = [w for w, _ in runs]
    median = statistics.median(walls)
    return {"median": median, "min": min(walls), "max": max(walls), "runs": len(walls),
            "cpu_median": statistics.median(c for _, c in runs), "rate": versions / median}


def work(engine: str, log: Path, workdir: Path, repeat: int, keep: Path | None) -> dict:
    """One engine's runs (this process imports exactly that engine)."""
    from graphmem import Store
    from graphmem.parquetlog import engine_tables, read_log

    source = Store(workdir / "source", engine=engine)
    source.import_log(log)
    versions = len(source.versions())
    counts = _counts(source)
    results: dict = {"engine": engine, "versions": versions, "records": sum(counts.values())}
    exports, imports, floors = [], [], []
    export_dir = None
    for n in range(repeat):
        export_dir = workdir / f"export{n}"
        _, wall, cpu = _timed(lambda d=export_dir: source.export(d, format="parquet"))
        exports.append((wall, cpu))
    source.close()
    results["parquet_bytes"] = sum(f.stat().st_size for f in export_dir.iterdir())
    for n in range(repeat):
        with Store(workdir / f"import{n}", engine=engine) as target:
            _, wall, cpu = _timed(lambda t=target: t.import_log(export_dir))
            if _counts(target) != counts or target.check():
                raise AssertionError(f"{engine}: the imported store differs from the source")
            imports.append((wall, cpu))
        shutil.rmtree(workdir / f"import{n}")
    for n in range(repeat):
        with Store(workdir / f"floor{n}", engine=engine) as target:
            def copy(t=target):
                tables = engine_tables(read_log(export_dir)[1])
                with t._db.transaction():
                    for name, rows in tables.items():
                        if rows.num_rows:
                            t._db.run_text(f"COPY {name} FROM $rows", {"rows": rows})
            _, wall, cpu = _timed(copy)
            floors.append((wall, cpu))
        shutil.rmtree(workdir / f"floor{n}")
    results["export"] = _summary(exports, versions)
    results["import"] = _summary(imports, versions)
    results["copy_floor"] = _summary(floors, versions)
    results.update(_duckdb(export_dir, workdir, repeat, versions))
    if keep is not None and not keep.exists():
        shutil.copytree(export_dir, keep)
    return results


def _duckdb(export_dir: Path, workdir: Path, repeat: int, versions: int) -> dict:
    import duckdb

    from graphmem.parquetlog import FILES

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


def _counts(store) -> dict:
    return {"entities": len(store.entities()), "episodes": len(store.episodes()),
            "decisions": len(store.decisions()), "versions": len(store.versions()),
            "proposals": len(store.proposals(None)), "tombstones": len(store.tombstones()),
            "links": len(store.links())}


def table(results: dict) -> str:
    """The results as a markdown table with ratios against DuckDB and the COPY floor."""
    lines = ["| engine | export | import | COPY floor | DuckDB reads the files | DuckDB writes them | "
             "import / floor | import / DuckDB | export / DuckDB |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results["engines"]:
        def cell(key, r=r):
            x = r[key]
            return f"{x['median']:.2f} s ({x['min']:.2f}–{x['max']:.2f})<br>{x['rate']:,.0f} versions/s"
        lines.append(f"| {r['engine']} | {cell('export')} | {cell('import')} | {cell('copy_floor')} | "
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
    parser.add_argument("--keep", type=Path, default=None, help="keep one Parquet export here (for Spark)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    log = generated_log(args.scale, args.seed, args.data)
    if args.worker:
        workdir = Path(tempfile.mkdtemp(prefix=f"parquet-{args.worker}-", dir=args.data))
        try:
            result = work(args.worker, log, workdir, args.repeat, args.keep)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        print(json.dumps(result))
        return 0
    started = time.perf_counter()
    results = {"scale": args.scale, "seed": args.seed, "machine": machine(), "log_bytes": log.stat().st_size,
               "command": "python -m benchmarks.parquet " + " ".join(argv if argv is not None else sys.argv[1:]),
               "engines": []}
    for engine in (["kuzu", "ladybug"] if args.engine == "both" else [args.engine]):
        cmd = [sys.executable, "-m", "benchmarks.parquet", "--worker", engine, "--scale", args.scale,
               "--seed", str(args.seed), "--repeat", str(args.repeat), "--data", str(args.data)]
        if args.keep:
            cmd += ["--keep", str(args.keep)]
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
