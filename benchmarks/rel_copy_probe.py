"""What a relationship COPY costs by the columns it carries: raw engine, graphmem's 1M Fact rows.

    python -m benchmarks.rel_copy_probe ENGINE VARIANT[,VARIANT...] --export DIR

One engine per process (kuzu or ladybug). The Fact rows of a Parquet export (as the import
hands them to the engine) are COPYed into a new database holding only the entities, into a
relationship table declared with plain DDL per variant: ``ends`` (no property), ``ends_sorted``
(rows by source), ``ends_id`` (the version id, STRING), ``ends_id_sorted``, ``ends_id_pred`` (the
predicate, STRING, instead), ``ends_int`` (the id's number as INT64), ``ends_times`` (the four
TIMESTAMPs), ``full`` (today's edge), ``node`` (the same columns as a node table). One JSON line
per variant: CPU seconds of the COPY and of its COMMIT.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import tempfile
import time
from pathlib import Path

FULL = ("id STRING, predicate STRING, valid_from TIMESTAMP, valid_to TIMESTAMP, recorded_at TIMESTAMP, "
        "superseded_at TIMESTAMP")
TIMES = ["valid_from", "valid_to", "recorded_at", "superseded_at"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rel_copy_probe", description=__doc__.splitlines()[0])
    parser.add_argument("engine", choices=("kuzu", "ladybug"))
    parser.add_argument("variants")
    parser.add_argument("--export", type=Path, required=True)
    args = parser.parse_args(argv)
    import pyarrow as pa
    import pyarrow.compute as pc

    from graphmem.log.parquet import engine_tables, read_log

    tables = engine_tables(read_log(args.export, True)[1])
    facts = tables["Fact"].combine_chunks()
    by_source = facts.take(pc.sort_indices(facts, [("from", "ascending")]))
    module = importlib.import_module(args.engine)
    shapes = {
        "ends": ("", facts.select(["from", "to"])),
        "ends_sorted": ("", by_source.select(["from", "to"])),
        "ends_id": (", id STRING", facts.select(["from", "to", "id"])),
        "ends_id_sorted": (", id STRING", by_source.select(["from", "to", "id"])),
        "ends_id_pred": (", predicate STRING", facts.select(["from", "to", "predicate"])),
        "ends_int": (", id INT64", facts.select(["from", "to"]).append_column(
            "id", pc.cast(pc.utf8_slice_codeunits(facts.column("id"), 1), pa.int64()))),
        "ends_times": (", " + ", ".join(f"{t} TIMESTAMP" for t in TIMES), facts.select(["from", "to", *TIMES])),
        "full": (", " + FULL, facts.select(["from", "to", "id", "predicate", *TIMES])),
    }
    for variant in args.variants.split(","):
        work = Path(tempfile.mkdtemp(prefix="relcopy-"))
        try:
            database = module.Database(str(work / "db"))
            connection = module.Connection(database)
            connection.execute("CREATE NODE TABLE Entity(id STRING PRIMARY KEY, name STRING, kind STRING)")
            connection.execute("COPY Entity FROM $rows", {"rows": tables["Entity"]})
            if variant == "node":
                connection.execute(f"CREATE NODE TABLE R(n SERIAL PRIMARY KEY, f STRING, t STRING, {FULL})")
                rows = facts.select(["from", "to", "id", "predicate", *TIMES]).rename_columns(
                    ["f", "t", "id", "predicate", *TIMES])
            else:
                columns, rows = shapes[variant]
                connection.execute(f"CREATE REL TABLE R(FROM Entity TO Entity{columns})")
            connection.execute("BEGIN TRANSACTION")
            cpu = time.process_time()
            connection.execute("COPY R FROM $rows", {"rows": rows})
            copied = time.process_time()
            connection.execute("COMMIT")
            print(json.dumps({"engine": args.engine, "variant": variant, "copy_cpu": round(copied - cpu, 2),
                              "commit_cpu": round(time.process_time() - copied, 2)}), flush=True)
            connection.close()
            database.close()
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
