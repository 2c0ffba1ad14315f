"""Adding a Fact column touches the places docs/architecture.md names, and nothing else.

A copy of the package gets exactly the edits "Adding a column" lists (one ``Column`` in the Fact
table's declaration, one field on ``Version``); then a store made by the copy writes the new
field (its default) and, once the stored value is changed underneath, every read (beliefs,
history, a snapshot, a version, search, Cypher as of a date) and both export formats carry it
back, on the engine under test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")

#: The two edits "Adding a column" asks for, as (file, text found, text put in its place).
EDITS = [
    ("graphmem/core/tables.py", '_time("superseded_at", open_end=True), *FACT_BODY),\n          record="version"',
     '_time("superseded_at", open_end=True), *FACT_BODY, Column("mood")),\n          record="version"'),
    ("graphmem/models.py", "    closed_by: str | None = None\n    reason: str | None = None\n\n\nclass Link",
     '    closed_by: str | None = None\n    reason: str | None = None\n    mood: str = "calm"\n\n\nclass Link'),
]

SCRIPT = r"""
import json, sys
from pathlib import Path
import pyarrow.parquet as pq
from graphmem import Store

where = Path(sys.argv[1])
with Store(where / "store", engine=sys.argv[2]) as store:
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01")
    store.add("Ivan", "lives_in", "Berlin", valid_from="2026-01-01")
    written = [v.mood for v in store.history("Ivan", "lives_in")]
    with store._db.lock:  # a value no default gives, so a read that ignores the column shows "calm"
        store._db.run_text("MATCH ()-[f:Fact]->() SET f.mood = 'glad'", {})
    store._shared.snapshots.clear()
    store.export(where / "log.jsonl")
    store.export(where / "log.parquet", format="parquet")
    found = {
        "written": written,
        "beliefs": [v.mood for v in store.beliefs(valid_at="all")],
        "history": [v.mood for v in store.history("Ivan", "lives_in")],
        "snapshot": sorted(d["mood"] for _, _, d in store.snapshot(valid_at="all").edges(data=True)),
        "cypher": [r["m"] for r in store.cypher("MATCH ()-[f:Fact]->() RETURN f.mood AS m", valid_at="all")],
        "version": store.version(store.beliefs(valid_at="all")[0].id).mood,
        "search": [h.version.mood for h in store.search("Ivan lives", valid_at="all")],
    }
lines = [json.loads(line) for line in (where / "log.jsonl").read_text().splitlines()]
found["jsonl"] = [r["mood"] for r in lines if r.get("type") == "version"]
found["parquet"] = pq.read_table(where / "log.parquet" / "versions.parquet").column("mood").to_pylist()
with Store(where / "again", engine=sys.argv[2]) as again:
    again.import_log(where / "log.jsonl")
    found["imported"] = [v.mood for v in again.beliefs(valid_at="all")]
print(json.dumps(found))
"""


def test_the_guide_names_the_places_a_column_touches():
    for place in ("`core/tables.py`", "`models.py`", "`write/migrations.py`"):
        assert place in DOC


def test_a_new_fact_column_is_written_and_read_everywhere_from_its_declaration(tmp_path):
    copy = tmp_path / "copy"
    for part in ("graphmem", "queries", "visualize"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name, old, new in EDITS:
        path = copy / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{name} no longer reads as the test expects: update EDITS"
        path.write_text(text.replace(old, new), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), ENGINE], env=env, capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found == {
        "written": ["calm"] * 3,  # the model's default, stored by the write
        "beliefs": ["glad"] * 2, "history": ["glad"] * 3, "snapshot": ["glad"] * 2, "cypher": ["glad"] * 2,
        "version": "glad", "search": ["glad"] * 2, "jsonl": ["glad"] * 3, "parquet": ["glad"] * 3,
        "imported": ["glad"] * 2,
    }
