"""What the statements of a gate batch cost on their own, and what their alternatives cost.

    python -m benchmarks.gate_statements --store BASE [--keys 1000] [--repeat 3]

Opens ``BASE`` (an imported store; every write here is rolled back, so it is left as it was),
takes the believed ``lives_in`` versions of ``--keys`` subjects spread over the Entity table (what
a batch of that many superseding asserts closes), and times, in CPU seconds of the process,
each variant below in a transaction of its own that is then rolled back: the batch's own
statements (``store/believed_at_places``, ``store/close_at_places``, ``store/batch_bodies``) and
the other ways of asking the same (the close without its ``SET``, with the list searched once, the
bodies by a list of keys or one key at a time). The engine is GRAPHMEM_ENGINE's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import datetime
from pathlib import Path
from typing import Any

#: The variants: name -> (statement text or a named query, what it needs).
VARIANTS: dict[str, str] = {
    "believed at places (the batch's read)": "store/believed_at_places",
    "close at places (the batch's close)": "store/close_at_places",
    "close: the same edges read, no SET": """MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open AND list_contains($ids, f.id)
RETURN f.id""",
    "close: each edge's place in the list found once": """MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open
WITH f, list_position($ids, f.id) AS i WHERE i > 0
SET f.superseded_at = list_extract($ats, i)
RETURN f.id""",
    "close: the predicates tested before the list": """MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open AND f.predicate IN $predicates
  AND list_contains($ids, f.id)
SET f.superseded_at = list_extract($ats, list_position($ids, f.id))
RETURN f.id""",
    "close: the predicates first, the list searched once": """MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open AND f.predicate IN $predicates
WITH f, list_position($ids, f.id) AS i WHERE i > 0
SET f.superseded_at = list_extract($ats, i)
RETURN f.id""",
    "bodies: LOAD FROM a table of ids (the batch's)": "store/batch_bodies",
    "bodies: UNWIND a list of ids": "UNWIND $ids AS i MATCH (b:FactBody {id: i}) RETURN b.id, b.episodes",
    "bodies: id IN a list": "MATCH (b:FactBody) WHERE b.id IN $ids RETURN b.id, b.episodes",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    import pyarrow as pa

    from graphmem import Store
    from graphmem.core.times import OPEN_END
    from graphmem.engine.statements import QUERIES

    store = Store(args.store, allow_future=True)
    engine = store._db
    try:
        places = [p for p, in engine.run_text("MATCH (e:Entity) RETURN offset(id(e)) AS p ORDER BY p", {})]
        step = max(1, len(places) // args.keys)
        places = places[::step][: args.keys]
        edges = engine.run_text("MATCH (s:Entity)-[f:Fact]->(o:Entity) WHERE offset(id(s)) IN $places AND "
                                "f.superseded_at = $open AND f.predicate = 'lives_in' RETURN f.id",
                                {"places": places, "open": OPEN_END})
        ids = [i for i, in edges]
        at = store.latest_write()
        params: dict[str, Any] = {"places": places, "open": OPEN_END, "ids": ids, "ats": [at] * len(ids),
                                  "predicates": ["lives_in"], "since": datetime(1, 1, 1),
                                  "rows": pa.table({"version": pa.array(ids, pa.string())})}
        print(f"{store.engine}: {len(places)} subjects, {len(ids)} believed lives_in versions; CPU seconds, "
              f"median (min-max) of {args.repeat}, each rolled back")
        for name, query in VARIANTS.items():
            text = QUERIES.get(query, query)
            wanted = {k: v for k, v in params.items() if f"${k}" in text}
            seconds = []
            for _ in range(args.repeat):
                engine.connection.execute("BEGIN TRANSACTION")
                cpu = time.process_time()
                rows = engine.connection.execute(text, wanted).get_all()
                seconds.append(time.process_time() - cpu)
                engine.connection.execute("ROLLBACK")
            print(f"  {name:<48} {statistics.median(seconds):.3f} ({min(seconds):.3f}-{max(seconds):.3f})"
                  f"  {len(rows)} rows")
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
