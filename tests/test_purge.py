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

        def short_by_one(engine):  # the rewritten file counted one entity short
            counts = real(engine)
            return {**counts, "Entity": counts["Entity"] - 1}

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


NAME = "Vrenna Kolb"  # an entity purged by name: two words, neither a word of the store's schema
ONLY_HERS = ("Quillfort", "Glimmerberries")  # objects that nothing but her facts refer to


def files_mentioning(paths: list[Path], text: str) -> list[str]:
    """The files among ``paths`` (directories searched whole) whose bytes hold ``text`` in any ASCII case."""
    needles = [text.lower().encode("utf-8"), text.lower().encode("utf-16-le")]
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*"))) if f.is_file()]
    return [str(f) for f in files if any(n in f.read_bytes().lower() for n in needles)]


def her_life(store: Store) -> dict:
    """A store where her name reaches every kind of recorded text, also through other people's writes."""
    store.add(NAME, "works_at", "Quillfort Labs", quote=f"{NAME} works at Quillfort Labs.", recorded_at="2026-01-01")
    store.add(NAME, "likes", "Glimmerberries", recorded_at="2026-01-02")
    store.add("Anna", "knows", NAME, recorded_at="2026-01-03")
    moved = store.add("Anna", "lives_in", "Prague", quote="Anna moved to Prague with VRENNA\n kolb last year.",
                      recorded_at="2026-01-04")  # mentions her, in another case and spacing; supports Anna's fact
    hello = store.add_episode("hello from me", actor=NAME, recorded_at="2026-01-05")
    store.add("Anna", "likes", "tea", episode=hello.id, recorded_at="2026-01-06")
    wrong = store.add("Anna", "likes", "coffee", recorded_at="2026-01-07")
    store.retract(wrong.created[0], reason=f"that was {NAME}'s order", recorded_at="2026-01-08")
    wide = store.add_episode("Ｖｒｅｎｎａ Ｋｏｌｂ wrote this", recorded_at="2026-01-09")  # full-width: the same name
    store.propose("Anna", "likes", "walks", quote=f"Anna walks with {NAME}", source="chat", recorded_at="2026-01-10")
    doubt = store.propose("Anna", "visited", "Berlin", source="chat", recorded_at="2026-01-11")
    store.reject([doubt.id], reason=f"{NAME} went, not Anna", recorded_at="2026-01-12")
    return {"moved": moved.created[0], "hello": hello.id, "wide": wide.id, "wrong": wrong.created[0]}


def answers(store: Store) -> str:
    """Every answer the store gives about what it holds, as one text."""
    from graphmem.explorer.api import answer, handlers

    dump = [store.entities(), store.versions(), store.episodes(), store.decisions(), store.proposals(None),
            store.tombstones(), store.links(), store.history("Anna", "likes"), store.timeline("Anna"),
            store.diff("2025-01-01", "now"), store.find_entities("Vrenna"), store.find_entities("Quillfort")]
    dump += [store.beliefs(as_of=t, valid_at="all") for t in store.write_times()]
    dump += [store.search(q, limit=None) for q in (NAME, "Anna", *ONLY_HERS)]
    dump += [store.cypher(q, valid_at="all") for q in (
        "MATCH (e:Entity) RETURN e.name", "MATCH (a)-[f:Fact]->(b) RETURN a.name, b.name, f.reason, f.episodes")]
    api = handlers()
    dump += [answer(api["/api/graph"], store, {"focus": ["Anna"], "depth": ["3"]}),
             answer(api["/api/timeline"], store, {"entity": ["Anna"]}),
             answer(api["/api/changes"], store, {"since": ["2025-01-01"], "until": ["2026-12-31"]}),
             answer(api["/api/search"], store, {"q": [NAME]}), answer(api["/api/entities"], store, {"q": ["Vrenna"]})]
    dump += [answer(api["/api/episode"], store, {"id": [e.id]}) for e in store.episodes()]
    return json.dumps(dump, default=lambda o: o.model_dump(mode="json") if hasattr(o, "model_dump") else str(o))


def test_a_purged_name_is_in_no_file_no_export_and_no_answer(store_dir, tmp_path):
    from graphmem.core.names import PREDICATE_KINDS as KINDS
    from graphmem.core.tables import properties

    with Store(store_dir, engine=ENGINE) as store:
        ids = her_life(store)
        store.checkpoint()
        # a name that is also a word of the schema would be found in any store's files: hers is none
        schema = {w.lower() for table, columns in properties().items() for w in (table, *columns)}
        assert not {w.lower() for w in NAME.split()} & (schema | set(store.predicates()) | set(KINDS))
        store.export(tmp_path / "before.jsonl")
        # the probes work: before the purge, the name is in the files, the export and the answers
        assert files_mentioning([store_dir], NAME) and files_mentioning([tmp_path / "before.jsonl"], NAME)
        assert NAME.lower() in answers(store).lower()
        tomb = store.purge("entity", "vrenna  KOLB", recorded_at="2026-02-01")

        assert store.check() == []
        assert tomb.entities == 3  # she, and her employer and the berries, which nothing else refers to
        assert sorted(e.name for e in store.entities()) == ["Anna", "Prague", "coffee", "tea"]
        # episodes that supported her facts are gone; the others keep their words, without her name
        texts = {e.id: (e.text, e.actor) for e in store.episodes()}
        assert texts[store.version(ids["moved"]).episodes[0]] == ("Anna moved to Prague with [purged] last year.", None)
        assert texts[ids["hello"]] == ("hello from me", "[purged]") and texts[ids["wide"]][0] == "[purged] wrote this"
        assert len(texts) == 3 and store.version(ids["wrong"]).reason == "that was [purged]'s order"
        assert [p.quote for p in store.proposals()] == ["Anna walks with [purged]"]
        assert store.proposals("rejected")[0].reason == "[purged] went, not Anna"
        assert store.decisions()[-1].reason == ("purged entity: 3 versions, 1 episodes, 2 entities left with no "
                                                "facts, the name taken out of 8 texts")  # counts, no names
        answered = answers(store).lower()
        assert "vrenna" not in answered  # nor did the tombstone or the PURGE write name her

        store.export(tmp_path / "after.jsonl")
        store.export(tmp_path / "after-parquet", format="parquet")
        exported = [tmp_path / "after.jsonl", tmp_path / "after-parquet"]
        for word in (NAME, *ONLY_HERS):
            assert files_mentioning([store_dir, *exported], word) == [], word
            assert word.lower() not in answered, word
        import pyarrow.parquet as pq  # compressed columns: read what the Parquet files hold, too
        held = json.dumps([pq.read_table(f).to_pylist() for f in sorted(exported[1].glob("*.parquet"))], default=str)
        assert all(word.lower() not in held.lower() for word in (NAME, *ONLY_HERS))
    for word in (NAME, *ONLY_HERS):
        assert files_mentioning([store_dir], word) == [], word
    shown = [cli(store_dir, *args) for args in (
        ["beliefs", "--valid-at", "all"], ["episodes"], ["history", "Anna", "likes"], ["timeline", "Anna"],
        ["search", NAME], ["search", "Anna"], ["diff", "2025-01-01", "now"], ["review", "list"],
        ["cypher", "MATCH (e:Entity) RETURN e.name", "--valid-at", "all"])]
    assert all(word.lower() not in "\n".join(shown).lower() for word in (NAME, *ONLY_HERS))


def cli(directory: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--store", str(directory), "--engine", ENGINE, *args, "--json"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_purging_a_version_takes_its_quote_and_the_object_left_with_no_facts(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        store.add("Ivan", "knows", "Anna", quote="Ivan knows Anna.")
        secret = store.add("Ivan", "lives_in", f"{SECRET} 12", quote=f"I live at {SECRET} 12, {SAID}.")
        store.add("Anna", "lives_in", "Prague", quote="Anna lives in Prague.")
        shared = store.add_episode(f"Both: Ivan lives at {SAID}, Anna in Prague.")
        store.add("Anna", "lives_in", "Prague", episode=shared.id)
        store.add("Ivan", "lives_in", f"{SECRET} 12", episode=shared.id)  # cited by Anna's fact too: it stays
        tomb = store.purge("version", secret.created[0])
        assert tomb.entities == 1 and len(tomb.episodes) == 1  # the object, and the quote that was only its own
        assert sorted(e.name for e in store.entities()) == ["Anna", "Ivan", "Prague"]
        assert sorted(e.text for e in store.episodes()) == ["Anna lives in Prague.", f"Both: Ivan lives at {SAID}, "
                                                             "Anna in Prague.", "Ivan knows Anna."]
        assert store.check() == []
    assert files_holding(store_dir, SECRET) == []


def test_whole_store_reads_name_each_end_right_around_a_purged_entity():
    """Whole-store reads name a fact's ends by their place in the Entity table; a purge in a store
    in memory leaves a gap there, and every end after it is still named as its own."""
    with Store(":memory:", engine=ENGINE) as store:
        for name in ("Ann", "Bob", "Cy", "Eve"):
            store.add(name, "lives_in", f"{name}ville", valid_from="2020-01-01")
        store.purge("entity", "bob")
        store.add("Zed", "lives_in", "Zville", valid_from="2020-01-01")
        ends = [(v.subject, v.subject_id, v.object, v.object_id) for v in store.beliefs()]
        assert ends == [(n, n.lower(), f"{n}ville", f"{n.lower()}ville") for n in ("Ann", "Cy", "Eve")] + \
            [("Zed", "zed", "Zville", "zville")]
        assert store.beliefs_arrow().column("object").to_pylist() == ["Annville", "Cyville", "Eveville", "Zville"]
        graph = store.snapshot()
        assert sorted((graph.nodes[u]["name"], graph.nodes[v]["name"]) for u, v in graph.edges()) == \
            [("Ann", "Annville"), ("Cy", "Cyville"), ("Eve", "Eveville"), ("Zed", "Zville")]
