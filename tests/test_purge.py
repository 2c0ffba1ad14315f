"""Purge is real: the removed text is in no file of the store, a tombstone remains, the log stays sound."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import NotFound, Store
from graphmem.cli import main
from graphmem.log.backup import PENDING, WORK
from tests.conftest import ENGINE, Clock

SECRET = "Zq7SecretElmStreet"  # an entity's name, said in an episode
SAID = "Wk4OnlyInTheEpisode"  # words only the episode (and a quote from it) holds


def files_holding(directory: Path, text: str) -> list[str]:
    """The files under ``directory`` whose bytes contain ``text`` (UTF-8 or UTF-16)."""
    needles = [text.encode("utf-8"), text.encode("utf-16-le")]
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*")
                  if p.is_file() and any(n in p.read_bytes() for n in needles))


def private_life(store: Store) -> dict:
    """A store where the secret reaches every kind of record: episode, entity, proposal, reason."""
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", recorded_at="2026-01-10")
    said = store.add_episode(f"My address is {SECRET} 12, {SAID}.", actor="Ivan", reference_time="2026-02-01",
                             recorded_at="2026-02-01")
    moved = store.add("Ivan", "lives_in", f"{SECRET} 12", episode=said.id, recorded_at="2026-02-02")
    store.add("Ivan", "knows", "Anna", valid_from="2021-01-01", recorded_at="2026-02-03")
    store.propose(f"{SECRET} 12", "status", "private", episode=said.id, quote=f"{SECRET} 12, {SAID}",
                  source="chat", recorded_at="2026-02-04")
    doubt = store.propose("Ivan", "likes", "walks", episode=said.id, quote=SAID, source="chat",
                          recorded_at="2026-02-04T12:00:00Z")
    store.reject([doubt.id], reason=f"he walks only to {SECRET}", recorded_at="2026-02-04T13:00:00Z")
    wrong = store.add("Anna", "likes", f"{SECRET} 12", episode=said.id, recorded_at="2026-02-05")
    store.retract(wrong.created[0], reason=f"she never liked {SECRET}", recorded_at="2026-02-06")
    (secret,) = [v for v in store.versions() if v.id in moved.created and SECRET in v.object]
    return {"episode": said.id, "version": secret.id}


@pytest.mark.parametrize("target", ["entity", "episode"])
def test_purged_text_is_in_no_file_of_the_store(store_dir, target):
    secret = SECRET if target == "entity" else SAID
    with Store(store_dir, engine=ENGINE) as store:
        ids = private_life(store)
        store._db.run_text("CHECKPOINT", {})
        assert files_holding(store_dir, secret)  # the probe works: the text is on disk before
        before = store.beliefs(as_of="2026-02-03T12:00:00Z", valid_at="all")
        assert any(SECRET in v.object for v in before)
        query = "MATCH (s:Entity)-[f:Fact]->(o:Entity) RETURN o.name AS name"
        then = dict(as_of="2026-02-03T12:00:00Z", valid_at="all")
        assert f"{SECRET} 12" in [r["name"] for r in store.cypher(query, **then)]
        tomb = store.purge(target, f"{SECRET} 12" if target == "entity" else ids["episode"],
                           recorded_at="2026-03-01")
        assert files_holding(store_dir, secret) == []  # while open: the engine's files hold none of it
        assert store.check() == []
        assert secret not in json.dumps(tomb.model_dump(mode="json"))
        assert tomb.episodes == [ids["episode"]]
        if target == "entity":
            assert ids["version"] in tomb.versions and tomb.entities == 1 and tomb.proposals == 2
            # the one documented exception to "the past never changes": the past answer lost it
            after = store.beliefs(as_of="2026-02-03T12:00:00Z", valid_at="all")
            assert [v.object for v in after] == [v.object for v in before if SECRET not in v.object]
            assert all(SECRET not in (d.reason or "") for d in store.decisions())
            assert f"{SECRET} 12" not in [r["name"] for r in store.cypher(query, **then)]
        else:
            assert store.episodes() == [] and store.version(ids["version"]).episodes == []
            assert tomb.proposals == 2 and store.proposals(None) == []
        assert [d.op for d in store.decisions()][-1] == "PURGE"
        rejected = [d for d in store.decisions() if d.op == "REJECT"]
        assert [(d.reason, d.proposal) for d in rejected] == [(None, None)]  # forgotten with the proposal
        store.export(store_dir.parent / "after.jsonl")
        assert files_holding(store_dir.parent, secret) == []  # nor in the export
        assert store.diff("2026-02-28", "2026-03-02")[-1].change == "purged"
        # the store goes on working after its file was swapped
        store.add("Ivan", "likes", "tea", recorded_at="2026-03-02")
    assert files_holding(store_dir, secret) == []
    assert not (store_dir / PENDING).exists() and not (store_dir / WORK).exists()
    with Store(store_dir, engine=ENGINE) as again:
        assert again.check() == []
        assert "tea" in [v.object for v in again.beliefs()]


def test_purge_of_text_never_checkpointed(store_dir):
    """Text still only in the write-ahead log when it is purged is gone too."""
    with Store(store_dir, engine=ENGINE) as store:
        episode = store.add_episode(f"{SECRET} only in the WAL")
        store.purge("episode", episode.id)
        assert files_holding(store_dir, SECRET) == []
    assert files_holding(store_dir, SECRET) == []


def test_other_stores_on_the_path_keep_working(store_dir):
    first = Store(store_dir, engine=ENGINE)
    second = Store(store_dir, engine=ENGINE)
    try:
        episode = first.add_episode(SECRET)
        second.add("a", "likes", "b", episode=episode.id)
        first.purge("episode", episode.id)
        assert second.episodes() == [] and [v.object for v in second.beliefs()] == ["b"]
        second.add("a", "likes", "c")
        assert sorted(v.object for v in first.beliefs()) == ["b", "c"]
    finally:
        first.close()
        second.close()
    assert files_holding(store_dir, SECRET) == []


def test_a_failed_purge_writes_nothing_and_leaves_no_marker(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        store.add("a", "likes", "b")
        before = store.decisions()
        with pytest.raises(NotFound):
            store.purge("entity", "nobody")
        assert store.decisions() == before and store.tombstones() == []
    assert not (store_dir / PENDING).exists()


def test_an_interrupted_rewrite_is_finished_when_the_store_is_opened(store_dir):
    """The purge committed, then the process died before the file was rewritten."""
    clock = Clock()
    with Store(store_dir, engine=ENGINE, clock=clock) as store:
        episode = store.add_episode(SECRET)
        store.add("a", "likes", "b")
        store._db.run_text("CHECKPOINT", {})
        with store._db.transaction() as engine:  # the purge's own write, without compacting
            from graphmem.write.purge import purge
            from graphmem.write.transaction import Transaction

            meta = {k: v for k, v in engine.run("store/meta_all")}
            clock.advance(days=1)
            txn = Transaction(engine, meta, clock())
            purge(txn, "episode", episode.id)
            txn.finish()
        (store_dir / PENDING).write_text("{}")
        (store_dir / WORK).mkdir()
        (store_dir / WORK / "junk").write_text("half a rewrite")
        store._db.run_text("CHECKPOINT", {})
        expected = store.decisions()
    assert files_holding(store_dir, SECRET)  # still in the old file: the rewrite never happened
    with Store(store_dir, engine=ENGINE) as store:
        assert store.decisions() == expected and store.check() == []
    assert files_holding(store_dir, SECRET) == []
    assert not (store_dir / PENDING).exists() and not (store_dir / WORK).exists()


def test_compact_refuses_to_lose_rows(store_dir, monkeypatch):
    """If the rewrite would not hold every row, the store is left exactly as it was."""
    import graphmem.log.backup as backup

    with Store(store_dir, engine=ENGINE) as store:
        store.add("a", "likes", "b")
        real = backup.table_counts
        calls = []

        def short_by_one(engine):
            counts = real(engine)
            calls.append(counts)
            if len(calls) == 2:
                counts = {**counts, "Entity": counts["Entity"] - 1}
            return counts

        monkeypatch.setattr(backup, "table_counts", short_by_one)
        with pytest.raises(Exception, match="would change the store's rows"):
            store.compact()
        monkeypatch.undo()
        assert [v.object for v in store.beliefs()] == ["b"] and store.check() == []
    assert not (store_dir / WORK).exists()


def test_the_marker_survives_a_failed_rewrite_and_opening_still_works(store_dir, monkeypatch):
    import graphmem.log.backup as backup

    with Store(store_dir, engine=ENGINE) as store:
        store.add("a", "likes", "b")
    (store_dir / PENDING).write_text("{}")

    def fail(*args):
        raise backup.EngineError("disk full")

    monkeypatch.setattr(backup, "_replace_database", fail)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with Store(store_dir, engine=ENGINE) as store:
            assert [v.object for v in store.beliefs()] == ["b"]
    assert any("graphmem compact" in str(w.message) for w in caught)
    assert (store_dir / PENDING).exists()
    monkeypatch.undo()
    with Store(store_dir, engine=ENGINE) as store:
        assert [v.object for v in store.beliefs()] == ["b"]
    assert not (store_dir / PENDING).exists()


def test_purge_through_the_cli(tmp_path):
    runner = CliRunner()
    directory = tmp_path / "store"

    def gm(*args):
        result = runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    gm("init")
    gm("add", "Ivan", "lives_in", f"{SECRET} 12", "--quote", f"I live at {SECRET} 12.")
    gm("add", "Ivan", "knows", "Anna")
    assert gm("purge", "entity", f"{SECRET} 12", "--yes").startswith("PURGE")
    assert files_holding(directory, SECRET) == []
    assert "ok" in gm("check")
    assert SECRET not in gm("export", str(tmp_path / "log.jsonl")) + (tmp_path / "log.jsonl").read_text()
    assert "compacted" in gm("compact")
