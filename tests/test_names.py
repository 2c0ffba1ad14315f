"""One visible name is one entity: NFKC, case and spacing set aside; invisible names refused."""

from __future__ import annotations

import unicodedata

import pytest

from graphmem import InvalidInput, Store
from graphmem.core.gate import plan_assert
from graphmem.core.names import entity_key, redact
from tests.conftest import ENGINE, Clock
from tests.test_purge import files_holding

COMPOSED = unicodedata.normalize("NFC", "José")
DECOMPOSED = unicodedata.normalize("NFD", "José")


@pytest.mark.parametrize(("a", "b"), [
    (COMPOSED, DECOMPOSED), ("Ｉｖａｎ", "ivan"), ("Ivan  Petrov", " ivan petrov "), ("Ivan\u200b", "IVAN"),
    ("Straße", "STRASSE"), ("ﬁsh", "fish"),
])
def test_names_that_look_alike_are_one_entity(store, a, b):
    store.add(a, "likes", "tea")
    store.add(b, "likes", "coffee")
    assert len([e for e in store.entities() if e.name not in ("tea", "coffee")]) == 1
    assert sorted(v.object for v in store.beliefs()) == ["coffee", "tea"]
    assert store.entity(a) == store.entity(b)


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u200b\u200d\ufeff", "\u3164", "\x00", "\u0301"])
def test_a_name_with_nothing_visible_is_refused(store, name):
    with pytest.raises(InvalidInput, match="no visible character"):
        store.add(name, "likes", "tea")
    with pytest.raises(InvalidInput):
        store.add("Ana", "likes", name)
    assert store.decisions() == []


def old_style(store: Store, name: str, predicate: str, obj: str, at: str) -> None:
    """Write a fact as a release before normalised names did: the id is the name trimmed and case-folded."""
    key = " ".join(name.split()).casefold()
    with store._write(at) as txn:
        if not txn._entity_exists(key):
            txn.create_entity(key, name, "entity")
        object_id = txn.ensure_entity(obj)
        plan = plan_assert(store.kind_of(predicate), txn.believed(key, predicate), object_id, txn.at, None)
        txn.carry_out(plan, key, predicate)


def test_an_older_store_is_rekeyed_and_its_twins_merged_as_a_recorded_write(store_dir):
    with Store(store_dir, engine=ENGINE, clock=Clock("2026-06-01")) as store:
        store.add(COMPOSED, "lives_in", "Lisbon", recorded_at="2026-01-01")
        old_style(store, DECOMPOSED, "likes", "Porto wine", "2026-01-02")
        old_style(store, DECOMPOSED, "lives_in", "Porto", "2026-01-03")
        old_style(store, "Ｉｖａｎ", "knows", COMPOSED, "2026-01-04")
        store._db.run("store/meta_set", {"key": "schema", "value": "1"})  # made by the release before
        assert len(store.entities()) == 6
        before = {t: store.beliefs(as_of=t, valid_at="all") for t in ("2026-01-02T12:00Z", "2026-01-05")}
    with Store(store_dir, engine=ENGINE, clock=Clock("2026-06-01")) as store:
        assert store.check() == []
        for at, answer in before.items():  # the past is unchanged: ids move, names and facts do not
            again = store.beliefs(as_of=at, valid_at="all")
            assert [(v.id, v.subject, v.object, v.valid_from) for v in again] == \
                   [(v.id, v.subject, v.object, v.valid_from) for v in answer]
        merges = [d for d in store.decisions() if d.op == "MERGE"]
        assert merges and all("merged" in d.reason for d in merges)
        assert (merges[-1].at - merges[0].at).total_seconds() < 0.001  # one write, a decision a tick apart
        jose = store.entity(DECOMPOSED)
        assert jose == store.entity(COMPOSED) and jose.id == entity_key(COMPOSED)
        now = {(v.subject_id, v.predicate, v.object) for v in store.beliefs()}
        assert {(jose.id, "likes", "Porto wine"), (jose.id, "lives_in", "Porto")} <= now
        assert (jose.id, "lives_in", "Lisbon") not in now  # Porto, said later, took over
        assert ("ivan", "knows", COMPOSED) in {(v.subject_id, v.predicate, v.object) for v in store.beliefs()}
        assert store.entity("Ivan").name == "Ｉｖａｎ"
        assert [c.change for c in store.diff("2026-05-31", "2026-06-02")] and all(
            c.change == "merged" for c in store.diff("2026-05-31", "2026-06-02"))
        # purging the name purges every entity that carries it, and its text leaves the files
        store.purge("entity", "JOSÉ")
        assert [e for e in store.entities() if entity_key(e.name) == jose.id] == []
        assert store.check() == []
    for form in (COMPOSED, DECOMPOSED):
        assert files_holding(store_dir, form) == []
    with Store(store_dir, engine=ENGINE) as store:  # migrated once
        assert [d.op for d in store.decisions()].count("MERGE") == len(merges)


@pytest.mark.engine_free
@pytest.mark.parametrize("text, redacted", [
    ("Ivan Petrov said hi", "[purged] said hi"),
    ("ivan\n  PETROV!", "[purged]!"),  # case and spacing set aside, as names are compared
    ("Ｉｖａｎ Ｐｅｔｒｏｖ wrote", "[purged] wrote"),  # full-width letters (NFKC)
    ("I saw Iv\u200ban Petrov's cat", "I saw [purged]'s cat"),  # a zero-width space inside
    ("Ivan Petrova and Ivan Petrovich are others", "Ivan Petrova and Ivan Petrovich are others"),  # whole words only
    ("Ivan and Petrov apart", "Ivan and Petrov apart"),
    ("xIvan Petrov, Ivan Petrov_2", "xIvan Petrov, Ivan Petrov_2"),
    ("José met JOSE\u0301 twice", "[purged] met [purged] twice"),  # composed here, decomposed there
])
def test_redact_replaces_the_name_as_whole_words_compared_as_names_are(text, redacted):
    keys = {entity_key("Ivan  Petrov"), entity_key("JOSE\u0301")}
    assert redact(text, keys) == redacted
