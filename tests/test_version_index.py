"""VersionKey: the version-id -> subject index behind every lookup of a version by id.

Every way a version is written or removed keeps it equal to the stored versions (``check``
compares them), and a store made before the index existed is indexed when it is opened.
"""

from __future__ import annotations

import pytest

from graphmem import NotFound, Store
from tests.conftest import ENGINE


def _indexed(store: Store) -> set[tuple[str, str]]:
    return {(vid, subject) for vid, subject in store._db.run("store/version_key_all")}


def _stored(store: Store) -> set[tuple[str, str]]:
    return {(v.id, v.subject_id) for v in store.versions()}


def _sound(store: Store) -> None:
    assert _indexed(store) == _stored(store)
    assert store.check() == []


def test_every_write_path_indexes_what_it_creates(store_dir, tmp_path):
    with Store(store_dir, engine=ENGINE) as store:
        first = store.add("Ana", "lives_in", "Lisbon", valid_from="2020-01-01", recorded_at="2024-01-01")
        moved = store.add("Ana", "lives_in", "Porto", valid_from="2022-01-01", recorded_at="2024-02-01")
        store.correct(moved.created[0], "Braga", reason="misheard", recorded_at="2024-03-01")
        store.add_many([("Ben", "works_at", "Acme", None, None), ("Ana", "likes", "tea", None, None)])
        _sound(store)
        assert {v.id for v in store.versions()} >= set(first.created)
        for version in store.versions():  # each one is found by id, with its own fields
            assert store.version(version.id).model_dump(exclude={"status"}) == \
                version.model_dump(exclude={"status"})
        store.export(tmp_path / "log.jsonl")
    with Store(tmp_path / "imported", engine=ENGINE) as copy:
        copy.import_log(tmp_path / "log.jsonl")
        _sound(copy)
        assert copy.version(first.created[0]).object == "Lisbon"


def test_purge_removes_the_entries_of_what_it_removes(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        kept = store.add("Ana", "lives_in", "Lisbon", recorded_at="2024-01-01")
        gone = store.add("Ben", "lives_in", "Oslo", recorded_at="2024-02-01")
        store.purge("entity", "Ben", recorded_at="2024-03-01")
        _sound(store)
        with pytest.raises(NotFound):
            store.version(gone.created[0])
        assert store.version(kept.created[0]).object == "Lisbon"


def test_a_store_made_before_the_index_is_indexed_when_opened(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        made = store.add("Ana", "lives_in", "Lisbon", recorded_at="2024-01-01")
        store.add("Ana", "lives_in", "Porto", recorded_at="2024-02-01")
        with store._db.transaction():  # what an older store looks like: no entries, no marker
            store._db.run_text("MATCH (k:VersionKey) DELETE k", {})
            store._db.run_text("MATCH (m:Meta) WHERE m.key IN ['index:version_key', 'schema'] DELETE m", {})
        store._shared.forget()
        assert _indexed(store) == set()
        problems = store.check()
        assert len(problems) == len(store.versions()) >= 2
        assert {p.rule for p in problems} == {"version-index"}
        with pytest.raises(NotFound):
            store.version(made.created[0])
    with Store(store_dir, engine=ENGINE) as store:
        _sound(store)
        assert store.version(made.created[0]).object == "Lisbon"


def test_a_store_made_by_this_release_opens_and_answers_alike(tmp_path):
    """A kuzu store directory made by release 0.1 (tests/data/stores): later releases must open it,
    migrating it if they need to, and answer exactly what it held."""
    import json
    import shutil
    from pathlib import Path

    from graphmem.write.migrations import LATEST

    if ENGINE != "kuzu":
        pytest.skip("the stored directory is kuzu's (ladybug's file format changes between its releases)")
    data = Path(__file__).parent / "data" / "stores"
    shutil.copytree(data / "kuzu-release-0.1", tmp_path / "store")
    with Store(tmp_path / "store", engine="kuzu") as store:
        assert store.check() == []
        assert store._meta()["schema"] == str(LATEST)
        store.export(tmp_path / "again.jsonl")

    def records(path):
        return [json.loads(line) for line in Path(path).read_text().splitlines()]

    assert records(tmp_path / "again.jsonl") == records(data / "kuzu-release-0.1.jsonl")
