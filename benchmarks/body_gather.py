"""Can a belief's body be gathered by its place instead of joined by key? (issue 29, as-of reads)

T1's read (versions believed at T and valid at V, 164,833 of 1M) joins every believed edge to its
FactBody row by key. This measures, on a COPY of a 1M store, the read's two halves apart, and the
ways an engine could fetch the bodies of the answer's rows by their place in the FactBody table
(their offset, stored on the edge as ``body_at`` by this script: ``--add``):

    cp -r STORE /tmp/copy && GRAPHMEM_ENGINE=kuzu python -m benchmarks.body_gather /tmp/copy --add \\
        --params /tmp/graphmem-bench/1m-seed1/params.json [--sizes 1000,10000,164833] [--ways internal_id]
    GRAPHMEM_ENGINE=kuzu python -m benchmarks.body_gather /tmp/copy --history

``--history`` instead times what a history's first read pays on kuzu: the bodies of 4, 8 and 16
versions, by one key lookup each (as ``read.questions.bodies`` does), by all the keys in one
``MATCH`` of single-key patterns, and by ``store/fact_bodies`` (``UNWIND`` the keys).

Never run it on a store you keep: ``--add`` alters the Fact table.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_EDGES = ("MATCH (s:Entity)-[f:Fact]->(o:Entity) WHERE {{believed f $as_of}} AND f.valid_from <= $valid_at "
          "AND f.valid_to > $valid_at RETURN offset(id(s)) AS subject_at, offset(id(o)) AS object_at, f.id AS id, "
          "f.predicate AS predicate, f.valid_from AS valid_from, f.valid_to AS valid_to, "
          "f.recorded_at AS recorded_at, f.superseded_at AS superseded_at")
_BODIES = "b.id AS id, {{body_columns b}}"
_WAYS = {
    "IN": "MATCH (b:FactBody) WHERE offset(id(b)) IN $places RETURN " + _BODIES,
    "UNWIND": "UNWIND $places AS p MATCH (b:FactBody) WHERE offset(id(b)) = p RETURN p, " + _BODIES,
    "LOAD FROM": "LOAD FROM $rows MATCH (b:FactBody) WHERE offset(id(b)) = p RETURN p, " + _BODIES,
    # the place made the body's internal id: the engines join on it with a mask of the places
    "internal_id": "LOAD FROM $rows WITH p, internal_id(TABLE, p) AS i MATCH (b:FactBody) WHERE id(b) = i "
                   "RETURN p, " + _BODIES,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--params", type=Path, default=Path("/tmp/graphmem-bench/1m-seed1/params.json"))
    parser.add_argument("--add", action="store_true", help="store each edge's body place as Fact.body_at first")
    parser.add_argument("--sizes", default="1000,10000,164833")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--history", action="store_true", help="time a history's bodies instead")
    parser.add_argument("--ways", default=",".join(_WAYS), help="which ways to gather by place (comma-separated)")
    args = parser.parse_args()

    import pyarrow as pa

    from graphmem.core.times import to_engine
    from graphmem.engine import acquire, choose_engine, release
    from graphmem.engine.statements import expand

    name = choose_engine(None, args.store)
    engine = acquire(name, args.store)
    if args.history:
        _history_bodies(engine, name)
        release(engine)
        return
    params = json.loads(args.params.read_text())["T1"]
    moments = {key: to_engine(datetime.fromtimestamp(params[key] / 1e6, UTC)) for key in ("as_of", "valid_at")}

    def timed(label: str, read: Callable[[], Any]) -> None:
        for _ in range(args.repeat):
            gc.collect()
            cpu, wall = time.process_time(), time.perf_counter()
            rows = read()
            print(f"{name} {label:34s} cpu {time.process_time() - cpu:7.3f} wall {time.perf_counter() - wall:7.3f}"
                  f" rows {rows}", flush=True)

    if args.add and "body_at" not in {row[1] for row in engine.run_text("CALL table_info('Fact') RETURN *", {})}:
        cpu, wall = time.process_time(), time.perf_counter()
        engine.run_text("ALTER TABLE Fact ADD body_at INT64", {})
        engine.run_text("MATCH ()-[f:Fact]->() MATCH (b:FactBody {id: f.id}) SET f.body_at = offset(id(b))", {})
        print(f"{name} body_at added: cpu {time.process_time() - cpu:.1f} wall {time.perf_counter() - wall:.1f}")
    timed("T1 as read now (edges + join)", lambda: engine.arrow("store/beliefs_at", moments).num_rows)
    timed("T1's edges alone", lambda: engine.arrow_text(expand(_EDGES), moments).num_rows)
    timed("every body, scanned", lambda: engine.arrow_text(
        expand("MATCH (b:FactBody) RETURN offset(id(b)) AS at, " + _BODIES), {}).num_rows)
    random.seed(1)
    for size in map(int, args.sizes.split(",")):
        places = sorted(random.sample(range(engine.run("store/fact_body_count")[0][0]), size))
        rows = pa.table({"p": pa.array(places, pa.int64())})
        for way in args.ways.split(","):
            text = _WAYS[way]
            given = {"rows": rows} if "$rows" in text else {"places": places}
            if "TABLE" in text:  # the FactBody table's number, written in (the parser takes no parameter there)
                text = text.replace("TABLE", str(next(row[0] for row in engine.run_text(
                    "CALL show_tables() RETURN *", {}) if row[1] == "FactBody")))
            timed(f"{size} bodies by place, {way}", lambda text=text, given=given: engine.arrow_text(
                expand(text), given).num_rows)
    release(engine)


def _history_bodies(engine: Any, name: str) -> None:
    """Milliseconds per history of N bodies, three ways, over 59 random histories each."""
    from graphmem.engine.statements import expand

    ids = [row[0] for row in engine.run_text("MATCH (b:FactBody) RETURN b.id LIMIT 200000", {})]
    columns = [column.split(".")[1] for column in expand("{{body_columns b}}").split(", ")]
    random.seed(2)

    def one_each(keys: list[str]) -> Any:
        return [engine.run("store/fact_body", {"id": key}) for key in keys]

    def one_match(keys: list[str]) -> Any:
        text = ("MATCH " + ", ".join(f"(b{i}:FactBody {{id: $k{i}}})" for i in range(len(keys))) + " RETURN "
                + ", ".join(f"b{i}.{column}" for i in range(len(keys)) for column in columns))
        return engine.run_text(text, {f"k{i}": key for i, key in enumerate(keys)})

    def unwind(keys: list[str]) -> Any:
        return engine.run("store/fact_bodies", {"ids": keys})

    for size in (4, 8, 16):
        for label, read in (("one key each", one_each), ("one MATCH", one_match), ("UNWIND", unwind)):
            samples = [random.sample(ids, size) for _ in range(60)]
            read(samples[0])
            cpu, wall = time.process_time(), time.perf_counter()
            for keys in samples[1:]:
                read(keys)
            print(f"{name} {size:2d} bodies, {label:12s} cpu {1000 * (time.process_time() - cpu) / 59:7.2f} ms"
                  f" wall {1000 * (time.perf_counter() - wall) / 59:7.2f} ms", flush=True)


if __name__ == "__main__":
    main()
