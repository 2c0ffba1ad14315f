"""The Store as a whole: opening, locking, engines, time zones, atomicity, export/import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime

import pytest
from pydantic import ValidationError

import graphmem
from graphmem import EngineError, InvalidInput, InvalidTime, NotFound, Store, TimeWentBackwards
from graphmem.core.times import UTC
from tests.conftest import ENGINE

OTHER_ENGINE = "ladybug" if ENGINE == "kuzu" else "kuzu"


def run_python(code: str, engine: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GRAPHMEM_ENGINE": engine}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=120)


def test_public_api_is_explicit():
    assert sorted(graphmem.__all__) == sorted(set(graphmem.__all__))
    for name in graphmem.__all__:
        assert hasattr(graphmem, name), name


def test_schema_is_created_once_and_data_survives_reopening(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01")
    with Store(store_dir, engine=ENGINE) as store:
        assert [v.object for v in store.beliefs()] == ["Prague"]
        assert store.engine == ENGINE


def test_the_engine_settings_are_applied_on_every_open(store_dir):
    from graphmem.engine import SETTINGS

    want = SETTINGS[ENGINE]["checkpoint_threshold"]
    with Store(store_dir, engine=ENGINE) as store:
        store.add("Ana", "lives_in", "Lisbon")
        for _ in range(2):  # the first open, then a reopen (as compaction and restore do)
            ((value,),) = store._db.run_text("CALL current_setting('checkpoint_threshold') RETURN *", {})
            assert int(value) == want
            store._db.reopen()
        assert [v.object for v in store.beliefs()] == ["Lisbon"]


def test_meta_is_cached_and_a_write_refreshes_it(store_dir):
    with Store(store_dir, engine=ENGINE) as store:
        first = store.add("Ana", "lives_in", "Lisbon", recorded_at="2024-01-01")
        assert store.latest_write() == first.at
        assert store._shared.settings is not None  # read once, kept
        with Store(store_dir, engine=ENGINE) as other:  # another Store on the same path shares it
            assert other._shared is store._shared
            second = other.add("Ana", "lives_in", "Porto", recorded_at="2024-02-01")
            assert other.latest_write() == second.at > first.at
        assert store.latest_write() == second.at  # the other's write refreshed what both read
        store.set_review_skips(["manual", "chat"])
        assert store.review_skips() == ["manual", "chat"]


def test_one_database_per_path_per_process(store_dir):
    first = Store(store_dir, engine=ENGINE)
    second = Store(store_dir, engine=ENGINE)
    try:
        assert first._db is second._db
        first.add("a", "likes", "b")
        second.add("a", "likes", "c")
        assert sorted(v.object for v in first.beliefs()) == ["b", "c"]
    finally:
        first.close()
        second.close()
    with Store(store_dir, engine=ENGINE) as again:
        assert len(again.beliefs()) == 2


def test_a_second_process_is_a_client_of_the_holder(store_dir):
    with Store(store_dir, engine=ENGINE) as held:
        held.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01")
        result = run_python(f"""
            from graphmem import Store, InvalidInput
            store = Store({str(store_dir)!r})
            print(type(store).__name__, store.holder["pid"], store.engine, store.tz_name)
            print([(v.subject, v.object, type(v).__name__) for v in store.beliefs()])
            store.add("Ivan", "lives_in", "Berlin", valid_from="2025-01-01")
            print(type(store.snapshot()).__name__, store.snapshot().number_of_edges())
            try:
                store.add("Ivan", "lives_in", " ")
            except InvalidInput as exc:
                print("REFUSED", exc)
            store.close()
            """, ENGINE)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0] == f"RemoteStore {os.getpid()} {ENGINE} UTC"
        assert lines[1] == "[('Ivan', 'Prague', 'Version')]"
        assert lines[2] == "MultiDiGraph 1"
        assert lines[3].startswith("REFUSED an entity name cannot be empty")
        assert [v.object for v in held.beliefs()] == ["Berlin"]  # the client's write, here


def test_the_other_engine_is_refused_in_this_process():
    with pytest.raises(EngineError, match="cannot share"):
        Store(":memory:", engine=OTHER_ENGINE)


def test_a_store_remembers_its_engine(store_dir):
    Store(store_dir, engine=ENGINE).close()
    result = run_python(f"""
        from graphmem import Store, EngineError
        try:
            Store({str(store_dir)!r}, engine={OTHER_ENGINE!r})
        except EngineError as exc:
            print("REFUSED", exc)
        """, OTHER_ENGINE)
    assert "REFUSED" in result.stdout and "export it and import" in result.stdout, result.stderr


def test_times_are_normalised_to_utc(store):
    store.add("a", "lives_in", "b", valid_from="2026-03-01T12:00:00+02:00", recorded_at="2026-03-01T12:00:00+02:00")
    (v,) = store.beliefs(valid_at="all")
    assert v.valid_from == datetime(2026, 3, 1, 10, tzinfo=UTC)
    assert v.recorded_at == datetime(2026, 3, 1, 10, tzinfo=UTC)
    assert v.valid_from.tzinfo is not None


def test_naive_times_read_in_the_store_zone(clock):
    with Store(":memory:", engine=ENGINE, timezone="Europe/Berlin", clock=clock) as store:
        store.add("a", "lives_in", "b", valid_from="2026-07-01")
        (v,) = store.beliefs(valid_at="all")
        assert v.valid_from == datetime(2026, 6, 30, 22, tzinfo=UTC)
    with pytest.raises(InvalidInput):
        Store(":memory:", engine=ENGINE, timezone="Mars/Olympus")


def test_a_remembered_facts_naive_times_are_read_in_the_store_zone(clock):
    """A new user's: ExtractedFact(valid_from="2026-05-11") given to remember on a Santiago store was stored as 00:00Z,
    where add read the same date in the store's zone (04:00Z); both read it in the zone now, one message or many."""
    from graphmem import Said
    from graphmem.extract import ExtractedFact

    fact = ExtractedFact(subject="Inés", predicate="lives_in", object="Viña", valid_from="2026-05-11",
                         valid_to=datetime(2026, 6, 1), quote="…")
    with Store(":memory:", engine=ENGINE, timezone="America/Santiago", clock=clock) as store:
        _, (proposal,) = store.remember("I moved to Viña", [fact], reference_time="2026-05-12")
        assert (proposal.valid_from, proposal.valid_to) == (datetime(2026, 5, 11, 4, tzinfo=UTC),
                                                            datetime(2026, 6, 1, 4, tzinfo=UTC))
        said = Said(text="I moved to Viña", reference_time=datetime(2026, 5, 13, tzinfo=UTC))
        ((_, (many,), _),) = store.remember_many([(said, [fact])])
        assert many.valid_from == datetime(2026, 5, 11, 4, tzinfo=UTC)
        aware = fact.model_copy(update={"valid_from": datetime(2026, 5, 11, tzinfo=UTC)})
        _, (kept,) = store.remember("I moved to Viña", [aware], reference_time="2026-05-14")
        assert kept.valid_from == datetime(2026, 5, 11, tzinfo=UTC)  # a time with its zone stays that time
        forever = fact.model_copy(update={"valid_to": datetime.max})  # past the last time there is in Santiago
        _, (last,) = store.remember("I moved to Viña", [forever], reference_time="2026-05-15")
        assert last.valid_to == datetime.max.replace(tzinfo=UTC)  # (a reviewer's: an OverflowError)


def test_transaction_time_only_moves_forward(store, clock):
    store.add("a", "likes", "b", recorded_at="2026-02-01")
    with pytest.raises(TimeWentBackwards):
        store.add("a", "likes", "c", recorded_at="2026-02-01")
    clock.set("2026-01-15")  # the clock is behind the latest write: the store moves past it
    decision = store.add("a", "likes", "d")
    assert decision.at > datetime(2026, 2, 1, tzinfo=UTC)
    assert [d.at for d in store.decisions()] == sorted(d.at for d in store.decisions())


def test_declaring_predicates_does_not_move_the_clock(store):
    store.declare("mentors", "one")
    assert store.latest_write() is None
    assert store.kind_of("mentors") == "one" and store.kind_of("undeclared") == "many"


def test_a_failed_write_leaves_nothing(store):
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", recorded_at="2026-01-10")
    before = (store.versions(), store.decisions(), store.entities(), store.latest_write())
    with pytest.raises(NotFound):
        store.add("Ivan", "lives_in", "Rome", episode="ep404", recorded_at="2026-02-01")
    with pytest.raises(InvalidInput):
        store.add("Ivan", "lives_in", "Rome", valid_from="2026-03-01", valid_to="2026-02-01")
    assert (store.versions(), store.decisions(), store.entities(), store.latest_write()) == before


def test_noop_links_the_episode_as_further_support(store):
    first = store.add_episode("Ivan lives in Prague.", reference_time="2020-01-01")
    store.add("Ivan", "lives_in", "Prague", episode=first.id)
    second = store.add_episode("Yes, Prague.", reference_time="2021-01-01")
    decision = store.add("Ivan", "lives_in", "Prague", episode=second.id)
    assert decision.op == "NOOP" and decision.created == [] and decision.closed == []
    (v,) = store.beliefs()
    assert v.episodes == [first.id, second.id]
    assert [e.id for e in store.episodes_of(v.id)] == [first.id, second.id]
    assert [x.id for x in store.versions_of(second.id)] == [v.id]


def test_snapshot_is_a_multidigraph(store):
    store.add("Ivan", "knows", "Anna", valid_from="2020-01-01")
    store.add("Ivan", "knows", "Anna", valid_from="2019-01-01", valid_to="2019-06-01")
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01")
    graph = store.snapshot(valid_at="all")
    assert graph.number_of_edges("ivan", "anna") == 2
    edge = next(iter(graph["ivan"]["prague"].values()))
    assert edge["predicate"] == "lives_in" and edge["status"] == "current" and edge["object"] == "Prague"
    assert graph.nodes["ivan"]["name"] == "Ivan" and graph.nodes["prague"]["kind"] == "entity"


def test_literal_objects(store):
    store.add("Acme", "status", "warm")
    store.add("Acme", "employees", "42")
    store.add("Acme", "founded", "2019-05-01")
    kinds = {e.name: e.kind for e in store.entities()}
    assert kinds["42"] == "literal" and kinds["2019-05-01"] == "literal" and kinds["Acme"] == "entity"


def test_purge_removes_content_and_leaves_a_tombstone(store):
    episode = store.add_episode("Ivan's secret address is 12 Elm St.")
    store.add("Ivan", "lives_in", "12 Elm St", episode=episode.id)
    store.add("Ivan", "knows", "Anna")
    tomb = store.purge("entity", "12 Elm St")
    assert tomb.target == "entity" and tomb.entities == 1 and tomb.episodes == [episode.id]
    assert "Elm" not in json.dumps([t.model_dump(mode="json") for t in store.tombstones()])
    assert [v.object for v in store.versions()] == ["Anna"]
    assert store.episodes() == []
    assert store.check() == []
    assert store.diff("2000-01-01", "now")[-1].change == "purged"


def test_check_finds_a_broken_invariant(store):
    store.add("a", "lives_in", "b", valid_from="2020-01-01")
    # Break the log behind the store's back: a second believed version overlapping the first.
    store._db.run_text(
        "MATCH (s:Entity {id: 'a'}), (o:Entity {id: 'b'}) CREATE (s)-[:Fact {id: 'v99', predicate: 'lives_in', "
        "valid_from: timestamp('2021-01-01'), valid_to: timestamp('9999-12-31'), "
        "recorded_at: timestamp('2026-01-01'), superseded_at: timestamp('9999-12-31')}]->(o) "
        "CREATE (:FactBody {id: 'v99', subject: 'a', episodes: ['ep7'], supersedes: ['v42'], superseded_by: [], "
        "created_by: 'd1', closed_by: NULL, reason: NULL})", {})
    rules = {v.rule for v in store.check()}
    assert {"one-value", "supersede-link", "episode-link"} <= rules


def test_export_import_moves_between_engines(tmp_path, store_dir):
    from graphmem.scenario import ScenarioClock, load, play

    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC))
    with Store(store_dir, engine=ENGINE, clock=clock) as store:
        play(store, load("design"), clock)
        store.propose("Lin", "likes", "pears", source="chat", quote="maybe pears")
        store.export(tmp_path / "log.jsonl")
    result = run_python(f"""
        from graphmem import Store
        with Store({str(tmp_path / 'other')!r}) as store:
            store.import_log({str(tmp_path / 'log.jsonl')!r})
            assert store.engine == {OTHER_ENGINE!r}
            assert store.check() == []
            store.export({str(tmp_path / 'back.jsonl')!r})
        """, OTHER_ENGINE)
    assert result.returncode == 0, result.stderr
    original = (tmp_path / "log.jsonl").read_text().splitlines()
    back = (tmp_path / "back.jsonl").read_text().splitlines()
    assert original[1:] == back[1:]  # the header names the engine; every record is identical
    kinds = {json.loads(line)["type"] for line in original}
    assert {"entity", "episode", "decision", "version", "proposal"} <= kinds


def test_import_refuses_to_go_back_in_time(tmp_path, store):
    store.add("a", "likes", "b", recorded_at="2026-01-10")
    store.export(tmp_path / "log.jsonl")
    with Store(":memory:", engine=ENGINE) as other:
        other.add("x", "likes", "y", recorded_at="2026-05-01")
        with pytest.raises(graphmem.ImportFailed, match="not after this store's latest write"):
            other.import_log(tmp_path / "log.jsonl")
        assert [v.object for v in other.versions()] == ["y"]


def test_remember_and_approve_in_one_write_links_the_new_episode(store):
    from graphmem.extract_rules import ExtractedFact

    store.add_episode("An earlier message.", kind="chat", reference_time="2025-01-01")
    store.add_episode("Another earlier message.", kind="chat", reference_time="2025-02-01")
    fact = ExtractedFact(subject="Lin", predicate="lives_in", object="Shanghai", quote="I moved to Shanghai.")
    episode, (proposal,) = store.remember("I moved to Shanghai.", [fact], actor="Lin",
                                          reference_time="2025-06-01", approve=True)
    assert proposal.state == "approved"
    (version,) = store.beliefs()
    assert version.episodes == [episode.id]
    assert version.valid_from == datetime(2025, 6, 1, tzinfo=UTC)


def test_a_message_whose_approved_fact_the_gate_refuses_is_kept(store):
    """A twenty-fourth new user's: ``remember(..., approve=True)`` as docs/api.md shows it raised ``Conflict`` on "last
    day at Brightwave done" (its job already ended) and lost the message. Now the message is kept, as
    ``remember_many`` and ingest keep one, and the refused end waits with the gate's reason; the facts the gate takes
    are written."""
    from graphmem.extract_rules import ExtractedFact

    store.remember("I work at Brightwave", [ExtractedFact(subject="Rory", predicate="works_at", object="Brightwave",
                                                          quote="I work at Brightwave")],
                   actor="Rory", reference_time="2026-11-01", approve=True)
    store.end("Rory", "works_at", "Brightwave", at="2026-11-10")
    episode, (refused, taken) = store.remember(
        "last day at Brightwave done, and I live in Sheffield now",
        [ExtractedFact(op="end", subject="Rory", predicate="works_at", object="Brightwave", valid_to="2026-11-20",
                       quote="last day at Brightwave done"),
         ExtractedFact(subject="Rory", predicate="lives_in", object="Sheffield", quote="I live in Sheffield now")],
        actor="Rory", reference_time="2026-11-20", approve=True)
    assert [e.id for e in store.episodes()][-1] == episode.id
    assert refused.state == "pending" and "nothing to end" in (refused.reason or "")
    assert taken.state == "approved"
    assert [v.object for v in store.beliefs(valid_at="all", about="Rory") if v.predicate == "lives_in"] == ["Sheffield"]
    assert [p.id for p in store.proposals()] == [refused.id]


def test_a_fact_the_gate_refuses_from_a_source_that_skips_review_waits_too(store):
    """A reviewer's: from a source that skips review, a refused fact was left out, and the answer held fewer proposals
    than facts; it waits now, its reason said. A fact that cannot be proposed at all refuses the message."""
    from graphmem.extract_rules import ExtractedFact

    store.set_review_skips(["bot"])
    facts = [ExtractedFact(subject="Ana", predicate="lives_in", object="Rome", quote="x"),
             ExtractedFact(op="end", subject="Ana", predicate="works_at", object="Acme", quote="y")]
    _, (taken, refused) = store.remember("m", facts, source="bot")
    assert taken.state == "approved" and refused.state == "pending" and "nothing to end" in refused.reason
    with pytest.raises(InvalidInput):
        store.remember("m2", [ExtractedFact(subject="Ana", predicate="bad pred!", object="x", quote="z")],
                       source="bot")
    with pytest.raises(InvalidInput, match="surrogate"):
        store.remember("m3", facts[:1], kind="ch\ud800at")
    assert len(store.episodes()) == 1


def test_an_episodes_text_that_is_no_text_is_refused_as_bad_input(store):
    """A twenty-fourth new user's: ``None`` gave pydantic's error through ingest's ``record_message``, and a lone
    surrogate the engine's own ("Unable to cast Python instance")."""
    from graphmem.ingest import record_message

    for text in (None, 5, "bad \ud800 text"):
        with pytest.raises(InvalidInput):
            store.remember(text, actor="Rory")
        with pytest.raises(InvalidInput):
            record_message(store, text, [])
    with pytest.raises(InvalidInput, match="surrogate"):
        store.remember("fine", actor="Ro\udc00ry")
    assert store.episodes() == []


def test_an_end_proposal_ends_at_its_valid_to(store):
    from graphmem.extract_rules import ExtractedFact

    store.add("Lin", "likes", "apples", valid_from="2025-09-12")
    fact = ExtractedFact(op="end", subject="Lin", predicate="likes", object="apples", valid_to=datetime(
        2025, 9, 25, tzinfo=UTC), quote="I stopped liking apples.")
    store.remember("I stopped liking apples.", [fact], reference_time="2025-09-30", approve=True)
    (ended,) = [v for v in store.history("Lin", "likes") if v.status == "ended"]
    assert ended.valid_to == datetime(2025, 9, 25, tzinfo=UTC)


def test_a_write_can_record_its_source_with_kind_and_actor(store):
    from graphmem import Said

    decision = store.add("Ivan", "lives_in", "Oslo", quote=Said(
        text='add(Ivan, lives_in, Oslo)', kind="tool", actor="claude", reference_time="2026-01-05"))
    (episode,) = store.episodes()
    assert (episode.kind, episode.actor, decision.episode) == ("tool", "claude", episode.id)
    assert store.beliefs(valid_at="all")[0].valid_from == datetime(2026, 1, 5, tzinfo=UTC)
    retraction = store.retract(decision.created[0], reason="wrong", quote=Said(text="retract", kind="tool"))
    assert retraction.episode and store.episode(retraction.episode).text == "retract"
    assert len(store.decisions()) == 2  # each call is one write, its episode included


def test_add_many_writes_the_same_log_as_one_add_each(clock):
    facts = [("Ivan", "lives_in", "Prague", "2020-01-01"), ("Ivan", "lives_in", "Berlin", "2026-10-15"),
             ("Ivan", "likes", "tea"), ("Anna", "knows", "Ivan", "2021-01-01", "2022-01-01")]
    with Store(":memory:", engine=ENGINE, clock=clock) as batch, Store(":memory:", engine=ENGINE) as single:
        decisions = batch.add_many(facts, recorded_at="2026-11-01")
        for i, fact in enumerate(facts):
            s, p, o, *period = fact
            single.add(s, p, o, valid_from=period[0] if period else None,
                       valid_to=period[1] if len(period) > 1 else None,
                       recorded_at=decisions[i].at)
        assert [d.op for d in decisions] == ["ADD", "UPDATE", "ADD", "ADD"]

        def shape(store):
            return sorted(v.model_dump_json(include={"subject", "predicate", "object", "valid_from", "valid_to",
                                                     "recorded_at", "superseded_at", "status"})
                          for v in store.versions())

        assert shape(batch) == shape(single)
        assert batch.check() == []


def test_a_supporting_episode_linked_later_is_not_seen_from_before_it(store_dir):
    """Saying a believed fact again links the new episode (a NOOP): answers as of an earlier
    time do not show an episode the store had not received then (docs/semantics.md, invariant 1)."""
    with Store(store_dir, engine=ENGINE) as store:
        first = store.add("Ana", "lives_in", "Lisbon", valid_from="2020-01-01", recorded_at="2024-01-01",
                          quote="I live in Lisbon.")
        again = store.add("Ana", "lives_in", "Lisbon", valid_from="2020-01-01", recorded_at="2024-06-01",
                          quote="Still in Lisbon.")
        assert again.op == "NOOP"
        said_first = first.episode
        assert len(store.version(first.created[0]).episodes) == 2  # as the store holds it now
        then, now = "2024-03-01", "2024-07-01"
        assert [v.episodes for v in store.beliefs(as_of=then)] == [[said_first]]
        assert [len(v.episodes) for v in store.beliefs(as_of=now)] == [2]
        assert [v.episodes for v in store.timeline("Ana", as_of=then)] == [[said_first]]
        graph = store.snapshot(as_of=then)
        assert [data["episodes"] for _, _, data in graph.edges(data=True)] == [[said_first]]
        (change,) = store.diff("2023-12-31", then)
        assert change.version.episodes == [said_first]
        answer = store.why("Ana", "lives_in", valid_at="2021-01-01", as_of=then, vs=now)
        assert [v.episodes for v in answer.before] == [[said_first]]
        assert [len(v.episodes) for v in answer.after] == [2]
        (row,) = store.cypher("MATCH ()-[f:Fact]->() RETURN f.episodes AS episodes", as_of=then)
        assert row["episodes"] == [said_first]


def test_every_time_reads_one_grammar_relative_phrases_included(store, clock):
    clock.set("2026-05-08T10:00:00")  # a Friday
    assert store.time("yesterday").isoformat() == "2026-05-07T00:00:00+00:00"
    assert store.time("2 weeks ago").isoformat() == "2026-04-20T00:00:00+00:00"
    assert store.time("now") == store.now()
    store.add("Ivan", "lives_in", "Prague", valid_from="last tuesday")
    assert store.beliefs()[0].valid_from.isoformat() == "2026-05-05T00:00:00+00:00"
    with pytest.raises(InvalidTime, match="cannot read 'whenever' as a time"):
        store.time("whenever")
    with pytest.raises(InvalidTime, match="out of range"):
        store.time("9999-06-01")


def test_the_page_cache_defaults_to_a_quarter_of_the_machine_s_memory(tmp_path, monkeypatch):
    """Not the engines' 80%: their bookkeeping for a cache that large costs ~2 MB per GB allowed
    before a page is read. GRAPHMEM_BUFFER_POOL_MB still sets it."""
    from graphmem.engine import BUFFER_POOL_ENV, default_buffer_pool_mb

    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert default_buffer_pool_mb() == max(256, memory // 4 // 2**20)
    monkeypatch.delenv(BUFFER_POOL_ENV, raising=False)
    with Store(tmp_path / "default", engine=ENGINE) as store:
        assert store._db.database.buffer_pool_size == default_buffer_pool_mb() * 2**20
    monkeypatch.setenv(BUFFER_POOL_ENV, "96")
    with Store(tmp_path / "set", engine=ENGINE) as store:
        assert store._db.database.buffer_pool_size == 96 * 2**20
    monkeypatch.setenv(BUFFER_POOL_ENV, "lots")
    with pytest.raises(EngineError, match="GRAPHMEM_BUFFER_POOL_MB is a number of megabytes"):
        Store(tmp_path / "bad", engine=ENGINE)


# -- clock traps: no transaction time far past the wall clock unless asked for -----------------------

FAR = "9000-01-01T00:00:00Z"


def test_a_transaction_time_far_past_the_wall_clock_is_refused_unless_allowed(store):
    from datetime import timedelta

    from graphmem import Said

    soon = datetime.now(UTC) + timedelta(hours=12)  # within a day: a clock a little ahead is fine
    store.add("Ann", "likes", "tea", recorded_at=soon)
    for write in (lambda: store.add("Ann", "likes", "jam", recorded_at=FAR),
                  lambda: store.add_episode("hi", recorded_at=FAR),
                  lambda: store.remember_many([(Said(text="later", reference_time=FAR), [])], replay=True)):
        with pytest.raises(InvalidTime, match="more than a day past the wall clock.*allow_future=True"):
            write()
    assert store.latest_write() == soon and store.check() == []  # nothing written, the clock unmoved
    # not replayed either (an integrator's: a message said in a year typed wrong ended today's facts from then on)
    for write in (lambda: store.remember_many([(Said(text="said far ahead", reference_time=FAR), [])]),
                  lambda: store.remember("said far ahead", reference_time=FAR)):
        with pytest.raises(InvalidTime, match="a message said at 9000-01-01.*more than a day past the wall clock"):
            write()
    store.allow_future = True
    store.remember_many([(Said(text="said far ahead, allowed", reference_time=FAR), [])])
    store.add("Ann", "likes", "jam", recorded_at=FAR)
    assert store.latest_write() == datetime(9000, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_an_import_whose_latest_write_is_far_ahead_is_refused_unless_allowed(store, tmp_path, fmt):
    store.allow_future = True
    store.add("Ann", "likes", "tea", recorded_at=FAR)
    log = tmp_path / ("log.jsonl" if fmt == "jsonl" else "log")
    store.export(log, format=fmt)
    with Store(":memory:", engine=ENGINE) as copy:
        with pytest.raises(graphmem.ImportFailed, match=r"latest write \(9000-01-01.*past the wall clock"):
            copy.import_log(log)
        assert copy.decisions() == [] and copy.latest_write() is None
    with Store(":memory:", engine=ENGINE, allow_future=True) as copy:
        copy.import_log(log)
        assert copy.latest_write() == datetime(9000, 1, 1, tzinfo=UTC)


@pytest.mark.engine_free
def test_models_made_without_validation_share_one_fields_set_safely():
    """records.construct gives every model of a kind one set of field names: a copy with an update
    adds to a set of its own, and the models compare, dump and copy as validated ones do."""
    from graphmem.core import records
    from graphmem.models import Version

    at = datetime(2024, 1, 1, tzinfo=UTC)
    values = {"id": "v1", "subject": "e1", "predicate": "likes", "object": "e2", "valid_from": at,
              "valid_to": None, "recorded_at": at, "superseded_at": None, "status": None, "episodes": ["ep1"]}
    values.update({name: records.default_of(Version, name) for name in Version.model_fields if name not in values})
    one, two = records.construct_version(dict(values)), records.construct_version(dict(values))
    assert one == two == Version(**values)
    assert one.model_dump() == Version(**values).model_dump()
    copied = one.model_copy(update={"object": "e3"})
    assert copied.object == "e3" and one.object == "e2"
    assert one.model_fields_set == two.model_fields_set == set(Version.model_fields)
    with pytest.raises(ValidationError):
        one.object = "e4"  # frozen: nothing can add to the shared set


def test_a_batch_of_facts_about_new_subjects_reads_nothing_of_them_one_by_one(tmp_path, monkeypatch):
    """Found timing a test: `add_many` of 520 facts whose subjects were all new read each key's believed versions with a
    query of its own (1.5 s of 2.6, each finding nothing); a subject the write makes has nothing believed."""
    from graphmem.write.transaction import Transaction

    fetched = []
    real = Transaction._fetch
    monkeypatch.setattr(Transaction, "_fetch", lambda self, *a: fetched.append(a) or real(self, *a))
    with Store(tmp_path / "s", engine=ENGINE) as store:
        store.add("Ana", "likes", "tea")
        fetched.clear()
        store.add_many([(f"Jo{n}", "likes", "tea") for n in range(30)] + [("Jo1", "lives_in", "Leeds"),
                                                                          ("Jo1", "lives_in", "York")])
        assert fetched == []
        assert [(v.subject, v.object) for v in store.beliefs(about="Jo1")] == [("Jo1", "tea"), ("Jo1", "York")]
        assert sorted(v.object for v in store.history("Jo1", "lives_in")) == ["Leeds", "Leeds", "York"]  # (closed)


def test_an_end_of_a_name_spelt_wrong_says_which_name_was_meant(store):
    """A twenty-seventh new user's: `end "Tom Bradlee" lives_at` said only that the store holds no Tom Bradlee (reads
    offer the name meant; a write did not). Nothing is written."""
    store.add("Tom Bradley", "lives_at", "14 Elm Road", recorded_at="2026-01-01")
    decisions = store.decisions()
    with pytest.raises(graphmem.Conflict, match=r"holds no Tom Bradlee lives_at; did you mean 'Tom Bradley'\?"):
        store.end("Tom Bradlee", "lives_at", recorded_at="2026-01-02")
    with pytest.raises(graphmem.Conflict, match=r"did you mean '14 Elm Road'\?"):
        store.end("Tom Bradley", "lives_at", "14 Elm Rd", recorded_at="2026-01-02")
    assert store.decisions() == decisions


@pytest.mark.parametrize("predicate", ["owns", "lives_in"])
def test_a_late_open_statement_does_not_undo_a_known_end(store, predicate):
    """A new user's review approved "listing my bike on facebook marketplace" (the 20th) after "sold the bike!"
    (the 21st): the bike was owned again, open-ended. Told from before the end, it is what is believed already."""
    store.add("Chioma", predicate, "bike", valid_from="2026-04-18", recorded_at="2026-04-18")
    store.end("Chioma", predicate, "bike", at="2026-06-21", recorded_at="2026-06-21")
    decision = store.add("Chioma", predicate, "bike", valid_from="2026-06-20", recorded_at="2026-06-22")
    assert decision.op == "NOOP"
    (version,) = [v for v in store.history("Chioma", predicate) if v.superseded_at is None]
    assert (version.valid_from.date().isoformat(), version.valid_to.date().isoformat()) == ("2026-04-18", "2026-06-21")
    assert store.add("Chioma", predicate, "bike", valid_from="2026-07-01", recorded_at="2026-07-01").op == "ADD"


def test_a_zone_no_one_has_makes_no_store(tmp_path):
    """A developer's: Store(p, timezone="NZ/Dunedin") raised, and left a store in UTC that then refused the right
    zone."""
    with pytest.raises(InvalidTime, match="NZ/Dunedin"):
        Store(tmp_path / "s", timezone="NZ/Dunedin")
    assert not (tmp_path / "s").exists()
    with Store(tmp_path / "s", timezone="Pacific/Auckland") as store:
        assert store.tz_name == "Pacific/Auckland"


def test_facts_given_as_dicts_are_refused_in_one_line_and_nothing_is_written(store):
    """A developer's: remember() with facts as dicts failed with a bare AttributeError."""
    with pytest.raises(InvalidInput, match="a proposed fact is an object with op, subject, predicate"):
        store.remember("I live in Leeds", [{"op": "assert", "subject": "Ana", "predicate": "lives_in",
                                            "object": "Leeds"}], approve=True)
    assert store.first_write() is None
