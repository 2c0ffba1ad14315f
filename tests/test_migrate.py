"""`graphmem migrate`: a store written by the release before the Fact layout change is refused
when opened, converted after a backup, and answers exactly what it held, on both engines; a kill
at any moment of the conversion leaves the old store or the converted one."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import InvalidInput, MigrationNeeded, Store
from graphmem.engine import FORMAT, MARKER_FILE
from graphmem.read import questions
from graphmem.write.migrations import LATEST
from tests.conftest import ENGINE

DATA = Path(__file__).parent / "data" / "stores"
EXPORTED = DATA / "kuzu-release-0.2.jsonl"


def old_store(path: Path) -> Path:
    """A store of the release before, on the engine under test: its tables (kept as Parquet with
    their DDL, engine-neutral) loaded into a new database of that layout."""
    import pyarrow.parquet as pq

    from graphmem.engine import acquire, release

    tables = DATA / "release-0.2-tables"
    path.mkdir(parents=True)
    (path / MARKER_FILE).write_text(json.dumps({"engine": ENGINE, "format": 1}))
    db = acquire(ENGINE, path)
    try:
        for statement in (tables / "schema.cypher").read_text().split(";"):
            statement = "\n".join(line for line in statement.splitlines() if not line.startswith("//")).strip()
            if statement:
                db.run_text(statement, {})
        with db.transaction():
            for name in (tables / "tables.txt").read_text().split():
                rows = pq.read_table(tables / f"{name}.parquet")
                if rows.num_rows:
                    db.run_text(f"COPY {name} FROM $rows", {"rows": rows})
    finally:
        release(db)
    return path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_old_store_is_refused_then_migrated_and_answers_alike(tmp_path):
    store_dir = old_store(tmp_path / "store")
    before = sorted(p.name for p in store_dir.iterdir())
    with pytest.raises(MigrationNeeded, match="graphmem --store .* migrate"):
        Store(store_dir, engine=ENGINE, hold=False)
    assert sorted(p.name for p in store_dir.iterdir()) == before  # refusing wrote nothing
    assert json.loads((store_dir / MARKER_FILE).read_text())["format"] == 1  # not even the marker

    phases = []
    info = Store.migrate(store_dir, engine=ENGINE, backup_to=tmp_path / "backup",
                         progress=lambda phase, done, total: phases.append(phase))
    assert info is not None and Path(info.path) == tmp_path / "backup"
    assert phases[0] == "backing up" and "swapping the files" in phases
    assert info.tables["Fact"] == 20  # the backup is the old store, as it was

    with Store(store_dir, engine=ENGINE, hold=False) as store:
        assert store.check() == []
        assert store._meta()["schema"] == str(LATEST)
        store.export(tmp_path / "again.jsonl")
        # it writes on the new layout as any store does
        store.add("Mina", "lives_in", "Tromsø", recorded_at="2026-11-22")
        assert "Tromsø" in {v.object for v in store.beliefs(about="Mina")}
        assert store.check() == []
    assert json.loads((store_dir / MARKER_FILE).read_text())["format"] == FORMAT  # converted: marked so
    exported = records(tmp_path / "again.jsonl")
    expected = records(EXPORTED)
    for record in (*exported, *expected):
        record.pop("engine", None)  # the header names the engine the export came from
    assert exported == expected
    assert Store.migrate(store_dir, engine=ENGINE) is None  # nothing left to do: nothing written


def test_a_store_marked_in_this_layout_is_opened_without_reading_its_catalog(tmp_path, monkeypatch):
    """The marker's format says the layout: a store marked by the release before this one is asked
    its catalog once, then marked; a marked one is not asked again (a query saved on every open)."""
    store_dir = tmp_path / "store"
    with Store(store_dir, engine=ENGINE, hold=False) as store:
        store.add("Ivan", "lives_in", "Prague")
    marker = store_dir / MARKER_FILE
    assert json.loads(marker.read_text()) == {"engine": ENGINE, "format": FORMAT}  # a new store is marked
    marker.write_text(json.dumps({"engine": ENGINE, "format": 1, "demo": True}))  # as the release before marked it
    asked: list[str] = []
    held_columns = questions._held_columns
    monkeypatch.setattr(questions, "_held_columns", lambda db, table: asked.append(table) or held_columns(db, table))
    with Store(store_dir, engine=ENGINE, hold=False) as store:
        assert [v.object for v in store.history("Ivan", "lives_in")] == ["Prague"]
    assert asked == ["Fact"]
    assert json.loads(marker.read_text()) == {"engine": ENGINE, "format": FORMAT, "demo": True}  # the rest kept
    asked.clear()
    with Store(store_dir, engine=ENGINE, hold=False) as store:
        store.add("Ivan", "lives_in", "Berlin")
    assert asked == []
    assert sorted(p.name for p in store_dir.iterdir() if p.name.startswith(".")) == []  # no partial marker left


def test_an_old_store_without_its_marker_is_refused_too(tmp_path):
    """Files with no marker say nothing of their layout: they are asked, not trusted."""
    store_dir = old_store(tmp_path / "store")
    (store_dir / MARKER_FILE).unlink()
    with pytest.raises(MigrationNeeded):
        Store(store_dir, engine=ENGINE, hold=False)
    assert json.loads((store_dir / MARKER_FILE).read_text())["format"] == 1


def test_the_backup_restores_the_old_store(tmp_path):
    store_dir = old_store(tmp_path / "store")
    info = Store.migrate(store_dir, engine=ENGINE)
    assert info is not None and Path(info.path).parent == tmp_path
    assert Path(info.path).name.startswith("store.before-migrate-")
    restored = tmp_path / "restored"
    Store.restore_new(restored, info.path)
    with pytest.raises(MigrationNeeded):  # the backup is the old layout, still readable by a migrate
        Store(restored, engine=ENGINE, hold=False)
    Store.migrate(restored, engine=ENGINE, backup_to=tmp_path / "second")
    with Store(restored, engine=ENGINE, hold=False) as store:
        assert len(store.versions()) == 20
        with pytest.raises(InvalidInput, match="older graphmem"):  # not into an open store of this layout
            store.restore(info.path)
        assert len(store.versions()) == 20 and store.check() == []


def test_the_kuzu_store_made_by_the_release_before(tmp_path):
    if ENGINE != "kuzu":
        pytest.skip("the stored directory is kuzu's (ladybug's file format changes between its releases)")
    shutil.copytree(DATA / "kuzu-release-0.2", tmp_path / "store")
    assert Store.migrate(tmp_path / "store", engine="kuzu", backup_to=tmp_path / "backup") is not None
    with Store(tmp_path / "store", engine="kuzu", hold=False) as store:
        assert store.check() == []
        store.export(tmp_path / "again.jsonl")
    assert records(tmp_path / "again.jsonl") == records(EXPORTED)


def test_the_command_line_says_to_migrate_and_migrates(tmp_path):
    store_dir = old_store(tmp_path / "store")
    env = {**os.environ, "GRAPHMEM_ENGINE": ENGINE}
    run = [sys.executable, "-m", "graphmem", "--store", str(store_dir)]
    refused = subprocess.run([*run, "beliefs"], capture_output=True, text=True, env=env)
    assert refused.returncode == 1 and refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1 and "migrate" in refused.stderr
    done = subprocess.run([*run, "migrate", "--backup", str(tmp_path / "b"), "--json"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"migrated": True, "backup": str(tmp_path / "b")}]
    again = subprocess.run([*run, "migrate"], capture_output=True, text=True, env=env)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    shown = subprocess.run([*run, "beliefs", "--json"], capture_output=True, text=True, env=env)
    assert shown.returncode == 0 and json.loads(shown.stdout)


KILLER = """
import os, signal, sys
from graphmem import Store
at = sys.argv[2]
def progress(phase, done, total):
    if phase == at:
        os.kill(os.getpid(), signal.SIGKILL)
Store.migrate(sys.argv[1], backup_to=sys.argv[3], progress=progress)
"""


@pytest.mark.parametrize("phase", ["backing up", "reading the store", "converting", "writing the new files",
                                   "swapping the files", "done"])
def test_a_kill_at_any_phase_leaves_the_old_store_or_the_new_one(tmp_path, phase):
    store_dir = old_store(tmp_path / "store")
    env = {**os.environ, "GRAPHMEM_ENGINE": ENGINE}
    killed = subprocess.run([sys.executable, "-c", KILLER, str(store_dir), phase, str(tmp_path / f"b-{phase}")],
                            env=env, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    try:
        Store(store_dir, engine=ENGINE, hold=False).close()
        migrated = True
    except MigrationNeeded:
        migrated = False
    assert migrated == (phase == "done")
    if not migrated:  # the old store is whole: migrating again converts it
        assert Store.migrate(store_dir, engine=ENGINE, backup_to=tmp_path / "again") is not None
    with Store(store_dir, engine=ENGINE, hold=False) as store:
        assert store.check() == []
        store.export(tmp_path / "again.jsonl")
    exported, expected = records(tmp_path / "again.jsonl"), records(EXPORTED)
    for record in (*exported, *expected):
        record.pop("engine", None)
    assert exported == expected
