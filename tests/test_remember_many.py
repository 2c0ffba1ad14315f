"""Many messages to one transaction: ``Store.remember_many`` writes the log one ``remember`` per
message writes (a refused message fact by fact), and a write reads only the versions it can touch."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphmem._store
import graphmem.engine
from graphmem import Conflict, InvalidInput, Said, Store
from graphmem.core.times import TICK, UTC
from graphmem.extract_rules import ExtractedFact
from graphmem.write import review
from tests.conftest import ENGINE

BASE = datetime(2024, 1, 1, tzinfo=UTC)


def fact(op, subject, predicate, obj=None, start=None, end=None) -> ExtractedFact:
    return ExtractedFact(op=op, subject=subject, predicate=predicate, object=obj, valid_from=start,
                         valid_to=end, quote=f"{op} {subject} {predicate} {obj}")


def exported(store: Store, path: Path) -> list[dict]:
    store.export(path)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def one_at_a_time(store: Store, said: Said, facts: list, *, approve: bool, replay: bool) -> None:
    """One ``remember`` a message, through the public API (at the message's time with ``replay``): when the gate
    refuses a fact, it records the message alone, then each fact in a write of its own (a refused one stays
    pending, or is not proposed when its source skips review)."""
    latest = store.latest_write()
    at = None if not replay else said.reference_time if latest is None or said.reference_time > latest \
        else latest + TICK
    store.remember(said.text, facts, kind=said.kind, actor=said.actor, reference_time=said.reference_time,
                   approve=approve, recorded_at=at)


KIND = {"lives_in": "one", "likes": "many", "traveled_to": "event"}
FACTS = st.builds(
    lambda op, s, p, o, start, length: fact(
        op, s, p, o if op == "assert" or p != "lives_in" else None,
        None if start is None else BASE + timedelta(days=start),
        None if length is None or start is None else BASE + timedelta(days=start + length)),
    st.sampled_from(["assert", "assert", "end"]), st.sampled_from(["Ana", "Ben"]), st.sampled_from(sorted(KIND)),
    st.sampled_from(["x", "y", "z"]), st.none() | st.integers(0, 30), st.none() | st.integers(1, 5))
MESSAGES = st.lists(st.tuples(st.integers(0, 2), st.lists(FACTS, max_size=3)), min_size=1, max_size=12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(messages=MESSAGES, mode=st.sampled_from(["approve", "skip", "review"]), split=st.integers(1, 5),
       way=st.sampled_from(["row by row", "bulk"]))
def test_many_messages_to_a_transaction_write_the_log_of_one_write_each(tmp_path, messages, mode, split, way):
    """Refused ends ("nothing to end") and refused approvals are undone inside the transaction:
    the log is byte for byte the one of one ``remember`` per message, ids and times included (and why a
    refused proposal waits), whether
    the write reads and stores row by row or in bulk (its keys read and closed from its subjects'
    places in the Entity table)."""
    with pytest.MonkeyPatch.context() as patch:
        if way != "row by row":  # in bulk from the first message, not the 16th
            patch.setattr(graphmem._store, "_BULK", 1)
        many_messages_write_the_log_of_one_write_each(tmp_path, messages, mode, split)


def many_messages_write_the_log_of_one_write_each(tmp_path, messages, mode, split):
    said, day = [], 0
    for n, (step, facts) in enumerate(messages):
        day += step  # steps of 0: messages sharing a chat time, written a tick apart
        said.append((Said(text=f"message {n}", kind="chat", actor="Ana",
                          reference_time=BASE + timedelta(days=day)), facts))
    approve = mode == "approve"
    with Store(":memory:", engine=ENGINE) as batched, Store(":memory:", engine=ENGINE) as single:
        for store in (batched, single):
            if mode == "skip":
                store.set_review_skips(["manual", "chat"])
        for start in range(0, len(said), split):
            batched.remember_many(said[start:start + split], approve=approve, replay=True)
        for s, facts in said:
            one_at_a_time(single, s, facts, approve=approve, replay=True)
        written = exported(batched, tmp_path / "batched.jsonl")
        held = [r for r in written if r["type"] == "proposal" and (r["reason"] or "").startswith("the gate refused")]
        assert all(record["state"] == "pending" for record in held)
        if mode != "skip":
            assert written == exported(single, tmp_path / "single.jsonl")
        else:  # from a source that skips review, one remember keeps a refused fact pending, where many leave it out
            # (their answer says so, ``refused``): what each believes and was told is the same
            def told(store: Store) -> tuple[list, list]:
                return ([(v.subject, v.predicate, v.object, v.valid_from, v.valid_to)
                         for v in store.beliefs(valid_at="all")],
                        [(e.text, e.reference_time) for e in store.episodes()])
            assert told(batched) == told(single)
        assert batched.check() == []


def test_a_refused_message_is_written_fact_by_fact_in_the_same_transaction(store, clock):
    said = [
        (Said(text="I live in Oslo.", kind="chat", reference_time="2025-01-01"),
         [fact("assert", "Ana", "lives_in", "Oslo")]),
        (Said(text="I don't like tea anymore. I like jam.", kind="chat", reference_time="2025-01-02"),
         [fact("end", "Ana", "likes", "tea"), fact("assert", "Ana", "likes", "jam")]),
        (Said(text="I moved to Rome.", kind="chat", reference_time="2025-01-03"),
         [fact("assert", "Ana", "lives_in", "Rome")]),
    ]
    found = store.remember_many(said, approve=True, replay=True)
    assert [len(r.refused) for r in found] == [0, 1, 0]
    (refused, reason), = found[1].refused
    assert refused.op == "end" and "nothing to end" in reason
    assert [p.state for p in found[1].proposals] == ["pending", "approved"]
    assert found[1].proposals[0].reason.startswith("the gate refused it: nothing to end")  # as stored
    assert store.proposals()[0].reason == found[1].proposals[0].reason
    ops = [(d.op, d.at.date().isoformat()) for d in store.decisions()]
    assert [op for op, _ in ops] == ["EPISODE", "PROPOSE", "ADD",  # message 1, one write
                                     "EPISODE", "PROPOSE", "PROPOSE",  # message 2, then its facts:
                                     "ADD",  # jam approved in a write of its own; tea stays pending
                                     "EPISODE", "PROPOSE", "UPDATE"]
    times = [d.at for d in store.decisions()]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert [v.object for v in store.beliefs(valid_at="2025-01-05")] == ["jam", "Rome"]
    assert [p.state for p in store.proposals(None)] == ["approved", "pending", "approved", "approved"]
    assert store.check() == []


def test_remember_many_is_all_or_nothing(store):
    store.add("Ana", "likes", "tea", recorded_at="2025-01-01")
    before = store.decisions()
    with pytest.raises(InvalidInput, match="needs some text"):
        store.remember_many([(Said(text="I like jam.", kind="chat"), [fact("assert", "Ana", "likes", "jam")]),
                             (Said(text="  ", kind="chat"), [])], approve=True)
    assert store.decisions() == before and store.episodes() == [] and store.proposals(None) == []


def test_remember_many_without_replay_writes_each_message_a_tick_or_more_apart(store, clock):
    clock.set("2026-03-01")
    found = store.remember_many([(Said(text=f"m{n}", kind="chat", reference_time="2020-01-01"), [])
                                 for n in range(3)])
    times = [r.episode.received_at for r in found]
    assert times == [clock.time, clock.time + TICK, clock.time + 2 * TICK]  # a write each, a tick apart
    assert all(r.episode.reference_time == datetime(2020, 1, 1, tzinfo=UTC) for r in found)
    assert store.remember_many([]) == []


def test_an_undone_attempt_leaves_the_write_as_it_was(store):
    """A refused part of a write takes back everything it planned (rows, ids, times, what the write
    holds of a key), and the write goes on as if it had not been tried."""
    store.add("Ana", "lives_in", "Oslo", valid_from="2020-01-01", recorded_at="2025-01-01")
    with store._write("2025-02-01") as txn:
        before = (dict(txn.meta), txn.at, list(txn.believed("ana", "lives_in")))
        with pytest.raises(Conflict), txn.attempt():
            txn.ensure_entity("Rome")
            txn.assert_fact("one", "Ana", "lives_in", "Rome", datetime(2021, 1, 1, tzinfo=UTC), None,
                            txn.source(None, Said(text="moved", kind="chat")))
            raise Conflict("refused after planning")
        assert (dict(txn.meta), txn.at, list(txn.believed("ana", "lives_in"))) == before
        assert txn.writes.rows == {"Entity": [], "Episode": [], "Decision": []}
        assert not txn.writes.versions and not txn.writes.closes and txn.find_entity("Rome") is None
        txn.assert_fact("one", "Ana", "lives_in", "Paris", datetime(2022, 1, 1, tzinfo=UTC), None, None)
    assert [(v.object, v.status) for v in store.history("Ana", "lives_in")] == [
        ("Paris", "current"), ("Oslo", "ended"), ("Oslo", "superseded")]
    assert [d.id for d in store.decisions()] == ["d1", "d2"] and store.check() == []


def test_an_undone_approval_leaves_its_proposal_pending(store):
    with store._write("2025-02-01") as txn:
        episode = txn.add_episode("I like jam.", "chat", None, None)
        proposal = review.queue(txn, fact("assert", "Ana", "likes", "jam"), episode.id, "chat", False, store.kind_of)
        with pytest.raises(Conflict), txn.attempt():
            review.approve(txn, proposal, store.kind_of("likes"))
            raise Conflict("refused after the approval was planned")
        assert [row["state"] for row in txn.writes.rows["Proposal"]] == ["pending"]
    assert [p.state for p in store.proposals(None)] == ["pending"] and store.beliefs() == []
    assert store.check() == []


# -- what a write reads ---------------------------------------------------------------------------


def count_believed_rows(monkeypatch) -> list[int]:
    """Count the believed versions the engine returns to the write gate."""
    fetched = [0]
    run = graphmem.engine.Engine.run

    def counting(self, name, params=None):
        rows = run(self, name, params)
        if name == "store/fact_believed":
            fetched[0] += len(rows)
        return rows

    monkeypatch.setattr(graphmem.engine.Engine, "run", counting)
    return fetched


def test_a_write_to_a_key_with_a_long_past_reads_only_what_it_can_touch(store, monkeypatch):
    moves = [("Ana", "lives_in", f"City {n}", BASE + timedelta(days=n)) for n in range(300)]
    store.add_many(moves, recorded_at="2025-01-01")  # 299 ended values and the current one
    fetched = count_believed_rows(monkeypatch)
    store.add("Ana", "lives_in", "Oslo", valid_from=BASE + timedelta(days=400))
    assert fetched[0] == 1  # the current value, not the 299 before it
    store.add("Ana", "lives_in", "Rome", valid_from=BASE + timedelta(days=100, hours=12))  # a late fact
    assert fetched[0] == 1 + 201  # what ends after day 100.5: City 100 to City 299, and Oslo
    assert [v.object for v in store.beliefs(valid_at=BASE + timedelta(days=100, hours=13))] == ["Rome"]
    assert [v.object for v in store.beliefs(valid_at=BASE + timedelta(days=101, hours=1))] == ["City 101"]
    assert store.check() == []


def test_believed_reads_an_earlier_bound_without_reading_twice(store):
    for n in range(6):
        store.add("Ana", "likes", f"t{n}", valid_from=BASE + timedelta(days=n),
                  valid_to=BASE + timedelta(days=n + 1), recorded_at=BASE + timedelta(days=100 + n))
    every = store.history("Ana", "likes")
    with store._write() as txn:
        late = txn.believed("ana", "likes", BASE + timedelta(days=4))
        assert [h.object for h in late] == ["t3", "t4", "t5"]  # those ending on or after day 4
        earlier = txn.believed("ana", "likes", BASE + timedelta(days=1))
        assert [h.object for h in earlier] == ["t0", "t1", "t2", "t3", "t4", "t5"]
        assert [h.object for h in txn.believed("ana", "likes")] == [v.object for v in reversed(every)]
        assert len({h.id for h in txn._held[("ana", "likes")]}) == 6  # each read once


def test_an_episode_s_actor_is_read_without_spaces_around_it(store):
    """An integrator's: `Store.remember(..., actor="Priya ")` kept the space (search then said `speaker='Priya '`),
    where ingest and MCP strip it; and a text of zero-width spaces alone was recorded, where "" and "   " are not."""
    episode, _ = store.remember("I live in Pune.", [], actor=" Priya ")
    assert episode.actor == "Priya"
    with pytest.raises(InvalidInput, match="needs some text"):
        store.remember("\u200b\u200b", [], actor="Priya")
