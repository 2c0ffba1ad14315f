"""The statement shapes a history, a timeline and a focused view could read with, raw Cypher.

    python benchmarks/history_reads.py --store DIR --engine kuzu [--rounds 5] [--out result.json]

Opens the store's database read-only with the engine alone (no graphmem import: the shapes are
what the engine does), and times, interleaved, CPU seconds per pass, median of ``--rounds``:
the 200 K1 histories' edges returned as a relationship or as columns, with and without the
join hint ``(s JOIN f) JOIN o``; their bodies (FactBody) one key lookup each, by columns read,
as a cross product of key lookups and as ``UNION ALL`` of them (sixteen keys a statement); a
timeline's edges (both directions, ``UNION`` or ``UNION ALL``, hinted or not) for 20 people; the
edges into one person (``neighbourhood_in``) with and without ``(o JOIN f) JOIN s``. Every
shape's answer size is printed beside it (the shapes of one question answer the same rows).
kuzu runs prepared statements (as graphmem does); ladybug runs the text.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
import warnings
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

BODY = "b.episodes, b.supersedes, b.superseded_by, b.created_by, b.closed_by, b.reason"
EDGE = "f.id, f.predicate, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at"
HISTORY = "MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity) WHERE f.predicate = $predicate "
BELIEVED = "f.recorded_at <= $as_of AND f.superseded_at > $as_of"
NEAR = (f"WITH s, f, o WHERE {BELIEVED} AND f.valid_from <= $valid_hi AND f.valid_to > $valid_lo "
        "AND ($any_predicate OR f.predicate IN $predicates) RETURN s.id, s.name, o.id, o.name, f, s.kind, o.kind")


def _timeline(returned: str, hinted: bool, union: str) -> str:
    out, into = ("HINT (s JOIN f) JOIN o ", "HINT (o JOIN f) JOIN s ") if hinted else ("", "")
    return (f"MATCH (s:Entity {{id: $id}})-[f:Fact]->(o:Entity) WHERE {BELIEVED} {out}"
            f"RETURN s.id, s.name, o.id, o.name, {returned} {union} "
            f"MATCH (s:Entity)-[f:Fact]->(o:Entity {{id: $id}}) WHERE {BELIEVED} {into}"
            f"RETURN s.id, s.name, o.id, o.name, {returned}")


def _keys_at_once(n: int, cross: bool) -> str:
    if cross:
        matches = " ".join(f"MATCH (b{i}:FactBody {{id: $i{i}}})" for i in range(n))
        return matches + " RETURN " + ", ".join(BODY.replace("b.", f"b{i}.") for i in range(n))
    return " UNION ALL ".join(f"MATCH (b:FactBody {{id: $i{i}}}) RETURN b.id, {BODY}" for i in range(n))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--engine", choices=("kuzu", "ladybug"), required=True)
    parser.add_argument("--params", type=Path, default=Path("/tmp/graphmem-bench/1m-seed1/params.json"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    engine = importlib.import_module(args.engine)
    database = engine.Database(str(args.store / "graph.db"), read_only=True)
    connection = engine.Connection(database)
    prepared: dict[str, Any] = {}

    def rows(text: str, params: dict[str, Any]) -> list[list[Any]]:
        if args.engine == "kuzu" and text not in prepared:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                prepared[text] = connection.prepare(text)
        result = connection.execute(prepared.get(text, text), params)
        found = []
        while result.has_next():
            found.append(result.get_next())
        return found

    keys = json.loads(args.params.read_text())["K1"]["keys"][:200]  # (display name, id, predicate)
    people = list(dict.fromkeys(key for _, key, _ in keys))[:20]
    as_of = datetime.fromisoformat(dict(rows("MATCH (m:Meta) RETURN m.key, m.value", {}))["last_write"][:-1])
    ids = [row[0] for _, subject, predicate in keys
           for row in rows(HISTORY + "RETURN f.id", {"subject": subject, "predicate": predicate})]

    def histories(returned: str, hint: str = "") -> Callable[[], int]:
        text = HISTORY + hint + f"RETURN s.id, s.name, o.id, o.name, {returned}"
        return lambda: sum(len(rows(text, {"subject": s, "predicate": p})) for _, s, p in keys)

    def one_by_one(returned: str) -> Callable[[], int]:
        text = f"MATCH (b:FactBody {{id: $id}}) RETURN {returned}"
        return lambda: sum(len(rows(text, {"id": i})) for i in ids)

    def sixteen_at_once(cross: bool) -> Callable[[], int]:
        def run() -> int:
            for start in range(0, len(ids), 16):
                chunk = ids[start:start + 16]
                rows(_keys_at_once(len(chunk), cross), {f"i{i}": key for i, key in enumerate(chunk)})
            return len(ids)
        return run

    def timelines(text: str) -> Callable[[], int]:
        return lambda: sum(len(rows(text, {"id": p, "as_of": as_of})) for p in people)

    def edges_in(hint: str) -> Callable[[], int]:
        text = f"MATCH (s:Entity)-[f:Fact]->(o:Entity) WHERE o.id IN $ids {hint}" + NEAR
        return lambda: sum(len(rows(text, {"ids": [p], "as_of": as_of, "valid_lo": as_of, "valid_hi": as_of,
                                             "any_predicate": True, "predicates": [""]})) for p in people)

    shapes: dict[str, Callable[[], int]] = {
        "history edges, f": histories("f"),
        "history edges, f hinted": histories("f", "HINT (s JOIN f) JOIN o "),
        "history edges, columns": histories(EDGE),
        "history edges, columns hinted": histories(EDGE, "HINT (s JOIN f) JOIN o "),
        "bodies, one lookup each": one_by_one(BODY),
        "bodies, one lookup each, b.id only": one_by_one("b.id"),
        "bodies, one lookup each, three lists": one_by_one("b.episodes, b.supersedes, b.superseded_by"),
        "bodies, cross product of 16 lookups": sixteen_at_once(True),
        "bodies, UNION ALL of 16 lookups": sixteen_at_once(False),
        "20 timelines, f UNION": timelines(_timeline("f", False, "UNION")),
        "20 timelines, columns UNION": timelines(_timeline(EDGE, False, "UNION")),
        "20 timelines, columns UNION ALL": timelines(_timeline(EDGE, False, "UNION ALL")),
        "20 timelines, columns UNION ALL hinted": timelines(_timeline(EDGE, True, "UNION ALL")),
        "20 edges into a person": edges_in(""),
        "20 edges into a person, hinted": edges_in("HINT (o JOIN f) JOIN s "),
    }
    sizes = {name: shape() for name, shape in shapes.items()}  # and the first reads' costs out of the way
    cpu: dict[str, list[float]] = {name: [] for name in shapes}
    for _ in range(args.rounds):
        for name, shape in shapes.items():
            started = time.process_time()
            shape()
            cpu[name].append(time.process_time() - started)
    result = {"engine": args.engine, "store": str(args.store), "rounds": args.rounds, "bodies": len(ids),
              "shapes": {name: {"rows": sizes[name], "cpu_median": round(statistics.median(v), 4),
                                "cpu_min": round(min(v), 4), "cpu_max": round(max(v), 4)} for name, v in cpu.items()}}
    for name, found in result["shapes"].items():
        print(f"{args.engine:8s} {name:42s} rows {found['rows']:6d}  CPU {found['cpu_median']:.4f} "
              f"({found['cpu_min']:.4f}-{found['cpu_max']:.4f})")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
