"""The fact bodies read lately are kept per engine (read/body_cache.py) until the store may have
changed: answers read through the cache are the answers read without it, after every kind of write."""

from __future__ import annotations

import pytest

from graphmem import Store
from graphmem.read import questions
from graphmem.read.body_cache import BodyCache, cache_of
from tests.conftest import ENGINE

BODY_READS = {"store/fact_body", "store/fact_bodies"}


@pytest.fixture
def reads(store, monkeypatch):
    """The names of the statements the store's engine runs, as they run."""
    ran: list[str] = []
    run = store._db.run

    def counted(name, params=None):
        ran.append(name)
        return run(name, params)

    monkeypatch.setattr(store._db, "run", counted)
    return ran


def _answers(store: Store) -> list:
    return [[v.model_dump() for v in store.history("Ana", "lives_in")],
            [v.model_dump() for v in store.timeline("Ana")],
            [v.model_dump() for v in store.timeline("Lisbon")]]


def _uncached(store: Store) -> list:
    cache_of(store._db).found.clear()
    return _answers(store)


def _ana(store: Store) -> None:
    store.add("Ana", "lives_in", "Lisbon", valid_from="2020-01-01", recorded_at="2024-01-01", quote="I live in Lisbon")
    store.add("Ana", "lives_in", "Porto", valid_from="2022-01-01", recorded_at="2024-02-01")
    store.add("Ben", "knows", "Ana", recorded_at="2024-02-02")


def test_bodies_read_again_are_not_read_from_the_engine(store, reads):
    _ana(store)
    first = _answers(store)
    assert BODY_READS & set(reads)
    reads.clear()
    assert _answers(store) == first
    assert not BODY_READS & set(reads), reads


@pytest.mark.parametrize("write", ["supersede", "retract", "correct", "link", "purge_episode", "purge_version"])
def test_after_any_write_the_answers_are_those_read_without_the_cache(store, write):
    _ana(store)
    _answers(store)  # every body kept
    porto = store.history("Ana", "lives_in")[0]
    if write == "supersede":
        store.add("Ana", "lives_in", "Braga", valid_from="2023-01-01", recorded_at="2024-03-01")
    elif write == "retract":
        store.retract(porto.id, reason="misheard", recorded_at="2024-03-01")
    elif write == "correct":
        store.correct(porto.id, "Faro", reason="misheard", recorded_at="2024-03-01")
    elif write == "link":  # the same fact again, from a new episode: linked to the version, nothing created
        store.add("Ana", "lives_in", "Porto", valid_from="2022-01-01", recorded_at="2024-03-01", quote="Porto, yes")
    elif write == "purge_episode":
        store.purge("episode", store.history("Ana", "lives_in")[-1].episodes[0])
    else:
        store.purge("version", porto.id)
    through_cache = _answers(store)
    assert through_cache == _uncached(store)
    assert through_cache != [[], [], []]


def test_reads_inside_a_write_neither_use_nor_fill_the_cache(store, reads):
    _ana(store)
    ids = [v.id for v in store.history("Ana", "lives_in")]
    cache = cache_of(store._db)
    assert set(ids) <= cache.found.keys()
    with store._db.transaction():
        reads.clear()
        assert set(questions.bodies(store._db, ids)) == set(ids)
        assert BODY_READS & set(reads)  # read from the engine, which sees the write's own changes
    assert not cache.usable(store._db) or not cache.found  # the write ended: what was kept is forgotten


def test_what_may_write_moves_the_engine_s_changes_and_reads_do_not(store):
    engine = store._db
    before = engine.changes
    engine.run("store/meta_all")
    engine.run_text("MATCH (e:Entity) RETURN count(*)", {})
    assert engine.changes == before
    engine.run("store/meta_set", {"key": "probe", "value": "1"})
    assert engine.changes == before + 1
    engine.run_text("MATCH (m:Meta {key: 'probe'}) SET m.value = '2'", {})
    assert engine.changes == before + 2
    with engine.transaction():
        pass
    assert engine.changes == before + 3


def test_the_cache_keeps_at_most_its_size_and_gives_out_copies():
    cache = BodyCache(kept=2)
    cache.put({"v1": {"episodes": ["e1"]}, "v2": {"episodes": []}, "v3": {"episodes": ["e3"]}})
    found, missing = cache.get(["v1", "v2", "v3"])
    assert missing == ["v1"] and set(found) == {"v2", "v3"}
    found["v3"]["episodes"].append("mine")
    assert cache.get(["v3"])[0]["v3"] == {"episodes": ["e3"]}


def test_stores_on_one_path_share_the_engine_and_its_cache(store_dir):
    with Store(store_dir, engine=ENGINE) as one, Store(store_dir, engine=ENGINE) as other:
        _ana(one)
        before = [v.model_dump() for v in other.history("Ana", "lives_in")]
        one.add("Ana", "lives_in", "Braga", valid_from="2023-01-01", recorded_at="2024-03-01")
        after = [v.model_dump() for v in other.history("Ana", "lives_in")]
        assert cache_of(one._db) is cache_of(other._db)
        assert after != before
        assert after == _uncached(other)[0]
