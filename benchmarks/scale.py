"""Beliefs as of a date over a large log: graphmem and DuckDB at 1M, local Spark at 1M and more.

    python -m benchmarks.scale --export DIR [--copies 10] [--repeat 3] [--out FILE]

``DIR`` is a Parquet export (e.g. the 1M one ``python -m benchmarks.parquet --scale 1m`` keeps
beside the generated log). The question: what was believed as of T (75% into the history),
valid at V (50%), with every field of the answer (status, visible episodes). Each system runs in
its own process, one after another:

- **graphmem** (kuzu, ladybug): the export imported into a store (untimed), then
  ``Store.beliefs(as_of=T, valid_at=V)``;
- **duckdb**: the same question in SQL over the export's files (as-of filter, status, the
  episodes linked by T), fetched as Arrow;
- **spark**: ``graphmem.spark.beliefs`` on local Spark (``local[*]``) over the export, and over
  ``--copies`` copies of it asked at once (as that many stores: ``--copies`` times the versions),
  run to the end (Spark's ``noop`` sink: every row computed, nothing kept).

Every system's answer has the same number of rows (Spark's over the copies: that many times);
the run stops otherwise.
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

from .runner import machine


def moments(export: Path) -> tuple[str, str]:
    """T (75% into the writes) and V (50%), as ISO text."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    at = pc.sort_indices(pq.read_table(export / "decisions.parquet", columns=["at"]), [("at", "ascending")])
    times = pq.read_table(export / "decisions.parquet", columns=["at"]).column("at").take(at)
    pick = lambda q: times[int(len(times) * q)].as_py().isoformat()  # noqa: E731
    return pick(0.75), pick(0.5)


def _median(fn, repeat: int) -> tuple[float, object]:
    walls, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        walls.append(time.perf_counter() - started)
    return statistics.median(walls), {"runs": walls, "result": result}


def graphmem_run(engine: str, export: Path, repeat: int) -> dict:
    from graphmem import Store

    as_of, valid_at = moments(export)
    work = Path(tempfile.mkdtemp(prefix=f"scale-{engine}-"))
    try:
        with Store(work / "store", engine=engine) as store:
            started = time.perf_counter()
            store.import_log(export, large=True)
            loaded = time.perf_counter() - started
            median, info = _median(lambda: len(store.beliefs(as_of=as_of, valid_at=valid_at)), repeat)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"system": f"graphmem ({engine})", "median": median, "runs": info["runs"], "rows": info["result"],
            "load_seconds": loaded}


DUCKDB = """
WITH params AS (SELECT TIMESTAMPTZ '{as_of}' AS t, TIMESTAMPTZ '{valid_at}' AS v),
believed AS (
  SELECT x.*, CASE WHEN x.valid_from > p.v THEN 'upcoming'
                   WHEN x.valid_to IS NOT NULL AND x.valid_to <= p.v THEN 'ended' ELSE 'current' END AS status
  FROM read_parquet('{d}/versions.parquet') x, params p
  WHERE x.recorded_at <= p.t AND (x.superseded_at IS NULL OR x.superseded_at > p.t)
    AND x.valid_from <= p.v AND (x.valid_to IS NULL OR x.valid_to > p.v)),
cited AS (
  SELECT b.id, u.episode, u.pos FROM believed b,
    LATERAL (SELECT unnest(b.episodes) AS episode, generate_subscripts(b.episodes, 1) AS pos) u),
seen AS (
  SELECT c.id, list(c.episode ORDER BY c.pos) AS episodes FROM cited c, params p
  WHERE c.episode NOT IN (SELECT id FROM read_parquet('{d}/episodes.parquet') WHERE received_at > p.t)
    AND NOT EXISTS (SELECT 1 FROM read_parquet('{d}/links.parquet') l
                    WHERE l.version = c.id AND l.episode = c.episode AND l.at > p.t)
  GROUP BY c.id)
SELECT b.id, b.subject, b.predicate, b.object, b.valid_from, b.valid_to, b.recorded_at,
       NULL::TIMESTAMPTZ AS superseded_at, b.status, coalesce(s.episodes, []::VARCHAR[]) AS episodes
FROM believed b LEFT JOIN seen s USING (id)
ORDER BY b.subject, b.predicate, b.valid_from, b.object, b.id
"""


def duckdb_run(export: Path, repeat: int) -> dict:
    import duckdb

    as_of, valid_at = moments(export)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    query = DUCKDB.format(as_of=as_of, valid_at=valid_at, d=export)
    median, info = _median(lambda: con.sql(query).to_arrow_table().num_rows, repeat)
    return {"system": "duckdb", "median": median, "runs": info["runs"], "rows": info["result"]}


def spark_run(export: Path, copies: int, repeat: int, memory: str) -> list[dict]:
    from graphmem import spark as gs

    as_of, valid_at = moments(export)
    started = time.perf_counter()
    session = gs.session(None, {"spark.driver.memory": memory})
    session.sparkContext.setLogLevel("ERROR")
    up = time.perf_counter() - started
    work = Path(tempfile.mkdtemp(prefix="scale-spark-"))
    found = []
    try:
        paths = []
        for n in range(copies):
            shutil.copytree(export, work / f"store{n:02d}")
            paths.append(str(work / f"store{n:02d}"))
        for label, asked in (("1 export", paths[:1]), (f"{copies} exports", paths)):
            frame = lambda a=asked: gs.beliefs(session, a, as_of=as_of, valid_at=valid_at)  # noqa: E731
            rows = frame().count()
            median, info = _median(lambda f=frame: f().write.format("noop").mode("overwrite").save(), repeat)
            found.append({"system": f"spark local[*] ({label})", "median": median, "runs": info["runs"],
                          "rows": rows, "session_seconds": up, "exports": len(asked)})
    finally:
        session.stop()
        shutil.rmtree(work, ignore_errors=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory", default="8g", help="Spark driver memory")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        if args.worker == "duckdb":
            result = [duckdb_run(args.export, args.repeat)]
        elif args.worker == "spark":
            result = spark_run(args.export, args.copies, args.repeat, args.memory)
        else:
            result = [graphmem_run(args.worker, args.export, args.repeat)]
        print(json.dumps(result))
        return 0
    started = time.perf_counter()
    header = json.loads((args.export / "graphmem.json").read_text())
    results = {"command": "python -m benchmarks.scale " + " ".join(argv if argv is not None else sys.argv[1:]),
               "machine": machine(), "versions": header["rows"]["versions"], "moments": moments(args.export),
               "systems": []}
    for worker in ("kuzu", "ladybug", "duckdb", "spark"):
        cmd = [sys.executable, "-m", "benchmarks.scale", "--worker", worker, "--export", str(args.export),
               "--copies", str(args.copies), "--repeat", str(args.repeat), "--memory", args.memory]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True,
                              env={**os.environ, "GRAPHMEM_ENGINE": worker if worker in ("kuzu", "ladybug")
                                   else os.environ.get("GRAPHMEM_ENGINE", "kuzu")},
                              cwd=Path(__file__).resolve().parent.parent)
        results["systems"] += json.loads(done.stdout.strip().splitlines()[-1])
    rows = {s["system"]: s["rows"] for s in results["systems"]}
    one = rows["duckdb"]
    for s in results["systems"]:
        if s["rows"] != one * s.get("exports", 1):
            raise AssertionError(f"{s['system']} answered {s['rows']} rows, DuckDB {one}")
    results["seconds"] = time.perf_counter() - started
    out = args.out or Path(__file__).resolve().parent / "results" / "scale-beliefs.json"
    out.write_text(json.dumps(results, indent=1))
    base = {s["system"]: s["median"] for s in results["systems"]}
    print("| system | versions | beliefs as of T, valid at V | vs graphmem (kuzu) | vs graphmem (ladybug) "
          "| vs duckdb |")
    print("|---|---|---|---|---|---|")
    for s in results["systems"]:
        n = results["versions"] * s.get("exports", 1)
        print(f"| {s['system']} | {n:,} | {s['median']:.2f} s ({s['rows']:,} rows) | "
              f"{s['median'] / base['graphmem (kuzu)']:.2f}× | {s['median'] / base['graphmem (ladybug)']:.2f}× | "
              f"{s['median'] / base['duckdb']:.2f}× |")
    print(f"results: {out} ({results['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
