"""FactBody: each version's body, keyed by its id and naming its subject, behind every lookup of a
version by id.

Every way a version is written or removed keeps the bodies equal to the stored edges (``check``
compares them), and a store made before the index existed is given its bodies by `graphmem migrate`.
"""

from __future__ import annotations

import pytest

from graphmem import MigrationNeeded, NotFound, Store
from tests.conftest import ENGINE


def _indexed(store: Store) -> set[tuple[str, str]]:
    return {(vid, subject) for vid, subject in store._db.run("store/fact_body_keys")}


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


def test_check_reports_an_edge_without_its_body_and_a_body_without_its_edge(store_dir):
    """A store made before the index existed is in an older layout: `graphmem migrate` gives every
    version its body (tests/test_migrate.py). Damage to a current store is what `check` reports."""
    with Store(store_dir, engine=ENGINE) as store:
        made = store.add("Ana", "lives_in", "Lisbon", recorded_at="2024-01-01")
        other = store.add("Ben", "lives_in", "Oslo", recorded_at="2024-02-01")
        assert store.check() == []
        with store._db.transaction():
            store._db.run_text("MATCH (k:FactBody {id: $id}) DELETE k", {"id": made.created[0]})
            store._db.run_text("MATCH ()-[f:Fact]->() WHERE f.id = $id DELETE f", {"id": other.created[0]})
        store._shared.forget()
        details = sorted(p.detail for p in store.check() if p.rule == "version-index")
        assert details == [f"a body names {other.created[0]} (subject 'ben'), which is not stored",
                           f"{made.created[0]} (subject 'ana') has no body"]


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
    with pytest.raises(MigrationNeeded):  # written in the layout before FactBody
        Store(tmp_path / "store", engine="kuzu")
    Store.migrate(tmp_path / "store", engine="kuzu", backup_to=tmp_path / "backup")
    with Store(tmp_path / "store", engine="kuzu") as store:
        assert store.check() == []
        assert store._meta()["schema"] == str(LATEST)
        store.export(tmp_path / "again.jsonl")

    def records(path):
        return [json.loads(line) for line in Path(path).read_text().splitlines()]

    assert records(tmp_path / "again.jsonl") == records(data / "kuzu-release-0.1.jsonl")


@pytest.mark.parametrize("by_index", [False, True])
@pytest.mark.parametrize("one_by_one, scan_per_lookup", [(64, 1000), (0, 1000), (0, 0), (1000, 0)])
def test_bodies_read_by_key_are_the_bodies_joined_to_their_edges(store, monkeypatch, by_index, one_by_one,
                                                                 scan_per_lookup):
    """Each way of reading a few versions' bodies (one UNWIND of keys, one lookup per key, one
    scan: see questions.bodies) answers what the whole-store read joins to each edge."""
    from graphmem.read import questions
    from graphmem.read.body_cache import cache_of

    store.add("Ana", "lives_in", "Lisbon", valid_from="2020-01-01", recorded_at="2024-01-01")
    store.add("Ana", "lives_in", "Porto", valid_from="2022-01-01", recorded_at="2024-02-01", quote="I moved")
    store.add_many([(f"P{i}", "knows", "Ana", None, None) for i in range(70)])
    store.retract(store.history("P3", "knows")[0].id, reason="never met")
    joined = {v.id: {name: getattr(v, name) for name in ("episodes", "supersedes", "superseded_by",
                                                          "created_by", "closed_by", "reason")}
              for v in questions.every_version(store._db)}
    ids = sorted(joined)
    assert len(ids) > 70  # more than ONE_BY_ONE, and every body column holds something somewhere
    assert all(any(body[name] for body in joined.values()) for name in joined[ids[0]])
    monkeypatch.setattr(store._db, "keys_by_index", by_index)
    monkeypatch.setattr(questions, "ONE_BY_ONE", one_by_one)
    monkeypatch.setattr(questions, "SCAN_PER_LOOKUP", scan_per_lookup)
    for asked in (ids, ids[:1], ids[5:9] + ids[5:6], []):
        cache_of(store._db).found.clear()  # read from the engine each time (see test_body_cache.py)
        found = questions.bodies(store._db, asked)
        assert set(found) == set(asked)
        for vid, body in found.items():
            read = {**body, "created_by": body["created_by"] or "", "episodes": body["episodes"] or [],
                    "supersedes": body["supersedes"] or [], "superseded_by": body["superseded_by"] or []}
            assert read == joined[vid], vid
    assert [v.model_dump() for v in store.timeline("Ana")] == [  # and so do the reads built on them
        v.model_dump() for v in sorted(
            (questions.as_believed_at(v, store.now()) for v in store.versions("Ana")
             if v.recorded_at <= store.now() and (v.superseded_at is None or store.now() < v.superseded_at)),
            key=lambda v: (v.valid_from, v.predicate, v.id))]
