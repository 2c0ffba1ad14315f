"""The worked examples of docs/semantics.md, through the API."""

from datetime import datetime

import pytest

from graphmem.core.times import UTC
from graphmem.errors import Conflict, InvalidInput
from tests.conftest import objects


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def late_move(store):
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", recorded_at="2026-01-10")
    store.add("Ivan", "lives_in", "Berlin", valid_from="2026-10-15", recorded_at="2026-11-01")
    return store


def where(store, as_of, valid_at):
    return objects(store.beliefs(as_of=as_of, valid_at=valid_at), "Ivan", "lives_in")


def test_late_move_as_of_answers(late_move, clock):
    clock.set("2026-11-05")
    assert where(late_move, "2026-10-20", "2026-10-20") == ["Prague"]
    assert where(late_move, None, "2026-10-20") == ["Berlin"]
    assert where(late_move, None, "2026-10-10") == ["Prague"]


def test_late_move_history(late_move, clock):
    clock.set("2026-11-05")
    history = late_move.history("Ivan", "lives_in")
    assert [(v.object, v.status) for v in history] == [
        ("Berlin", "current"), ("Prague", "ended"), ("Prague", "superseded"),
    ]
    berlin, prague_ended, prague_old = history
    assert berlin.valid_from == t("2026-10-15") and berlin.valid_to is None
    assert (prague_ended.valid_from, prague_ended.valid_to) == (t("2020-01-01"), t("2026-10-15"))
    assert prague_ended.recorded_at == t("2026-11-01")
    assert prague_old.valid_to is None and prague_old.recorded_at == t("2026-01-10")
    assert prague_old.superseded_at == t("2026-11-01")
    assert set(prague_old.superseded_by) == {berlin.id, prague_ended.id}
    assert prague_old.id in berlin.supersedes and prague_old.id in prague_ended.supersedes


def test_late_move_segment(late_move, clock):
    decision = late_move.segment("Ivan", "lives_in", "Munich", valid_from="2026-10-01",
                                 valid_to="2026-10-15", recorded_at="2026-11-20")
    assert decision.op == "SEGMENT"
    clock.set("2026-11-25")
    assert where(late_move, "2026-11-10", "2026-10-05") == ["Prague"]
    assert where(late_move, None, "2026-10-05") == ["Munich"]
    assert where(late_move, None, "2026-10-20") == ["Berlin"]
    assert where(late_move, None, "2026-09-30") == ["Prague"]
    berlin = [v for v in late_move.history("Ivan", "lives_in") if v.object == "Berlin"]
    assert len(berlin) == 1 and berlin[0].status == "current"
    assert late_move.check() == []


def test_ending_versus_correcting(store, clock):
    store.add("Acme", "status", "warm", valid_from="2026-03-01", recorded_at="2026-03-01")
    update = store.add("Acme", "status", "cold", valid_from="2026-04-20", recorded_at="2026-05-01")
    assert update.op == "UPDATE"
    cold = next(v for v in store.beliefs(as_of="2026-05-02", valid_at="2026-05-02") if v.object == "cold")
    correction = store.correct(cold.id, "lost", reason="typing mistake for lost", recorded_at="2026-06-01")
    assert correction.op == "CORRECT" and cold.id in correction.closed
    clock.set("2026-06-10")
    assert objects(store.beliefs(as_of="2026-05-15")) == ["cold"]
    assert objects(store.beliefs()) == ["lost"]
    lost = store.beliefs()[0]
    assert lost.valid_from == t("2026-04-20")
    history = store.history("Acme", "status")
    warm = [v for v in history if v.object == "warm" and v.status == "ended"]
    assert len(warm) == 1 and warm[0].valid_to == t("2026-04-20")
    (retracted,) = [v for v in history if v.object == "cold"]
    assert retracted.status == "retracted" and retracted.reason == "typing mistake for lost"
    assert retracted.superseded_by == [lost.id]
    # As of before the correction, cold is reported current: the past answer never changes.
    assert [v.status for v in store.beliefs(as_of="2026-05-15")] == ["current"]


def test_chat_time(store, clock):
    messages = [
        ("2025-01-10", "I live in Beijing.", ("add", "lives_in", "Beijing", None, None)),
        ("2025-03-08", "I travelled to Xi'an last October.",
         ("add", "traveled_to", "Xi'an", "2024-10-01", "2024-11-01")),
        ("2025-06-01", "I moved to Shanghai.", ("add", "lives_in", "Shanghai", None, None)),
        ("2025-09-12", "I like apples.", ("add", "likes", "apples", None, None)),
        ("2025-09-25", "I don't like apples anymore.", ("end", "likes", "apples", None, None)),
        ("2026-05-08", "I travelled to Hangzhou last week.",
         ("add", "traveled_to", "Hangzhou", "2026-04-27", "2026-05-04")),
    ]
    clock.set("2026-11-30")  # imported long after the chat: reference times still rule
    for chat_time, text, (op, predicate, obj, start, end) in messages:
        episode = store.add_episode(text, kind="chat", actor="Lin", reference_time=chat_time)
        if op == "add":
            store.add("Lin", predicate, obj, valid_from=start, valid_to=end, episode=episode.id)
        else:
            store.end("Lin", predicate, obj, episode=episode.id)
    assert objects(store.beliefs(), "Lin", "lives_in") == ["Shanghai"]
    assert objects(store.beliefs(valid_at="2025-03-01"), "Lin", "lives_in") == ["Beijing"]
    assert objects(store.beliefs(), "Lin", "likes") == []
    apples = [v for v in store.history("Lin", "likes") if v.status == "ended"]
    assert len(apples) == 1 and apples[0].valid_to == t("2025-09-25")
    assert apples[0].valid_from == t("2025-09-12")
    trips = sorted((v for v in store.beliefs(valid_at="all") if v.predicate == "traveled_to"),
                   key=lambda v: v.valid_from, reverse=True)
    assert [v.object for v in trips] == ["Hangzhou", "Xi'an"]
    assert len({v.id for v in trips}) == 2
    # Every version cites the message it came from, and the message lists its versions.
    shanghai = store.beliefs()[0]
    (episode,) = store.episodes_of(shanghai.id)
    assert episode.text == "I moved to Shanghai." and episode.kind == "chat"
    assert shanghai.id in [v.id for v in store.versions_of(episode.id)]


def test_the_demo_store_exports_exactly_the_log_it_always_has(design, tmp_path):
    """The log of the worked examples, as exported before the store was restructured: any change in
    what the store writes (ids, times, links, fields) shows here first. (Changed once since, on purpose:
    "lost", the correction of the typo "cold", cites the sentence "cold" was read from, ep8, beside the
    correction's own, ep10.)"""
    import json
    from pathlib import Path

    design.export(tmp_path / "demo.jsonl")

    def records(path):
        lines = [json.loads(line) for line in Path(path).read_text().splitlines()]
        return [{k: v for k, v in line.items() if k != "engine"} for line in lines]

    assert records(tmp_path / "demo.jsonl") == records(Path(__file__).parent / "data" / "demo_export.jsonl")


def test_correcting_when_a_fact_held(store, clock):
    """"I got the job at Northcoders" was read as starting on the day it was said; "no wait, I start on the 14th"
    moves its start in one write: as of before the correction the store believed the 24th, as of after the 14th,
    and the wrong version is retracted with the reason, pointing at the right one. The job before keeps the end
    the first write gave it (a correction of one version is not a correction of another)."""
    store.add("Sam", "works_at", "Halden", valid_from="2020-01-01", recorded_at="2026-08-01")
    store.add("Sam", "works_at", "Northcoders", valid_from="2026-08-24", recorded_at="2026-08-24")
    wrong = next(v for v in store.beliefs(valid_at="all") if v.object == "Northcoders")
    fixed = store.correct(wrong.id, reason="starts on the 14th", valid_from="2026-09-14", recorded_at="2026-09-01")
    assert fixed.op == "CORRECT" and fixed.closed == [wrong.id]
    clock.set("2026-09-02")
    assert objects(store.beliefs(as_of="2026-08-30", valid_at="2026-09-01")) == ["Northcoders"]
    assert objects(store.beliefs(valid_at="2026-09-01")) == []
    right = store.beliefs(valid_at="2026-09-20")[0]
    assert (right.object, right.valid_from, right.valid_to) == ("Northcoders", t("2026-09-14"), None)
    retracted = store.version(wrong.id)
    assert retracted.reason == "starts on the 14th" and retracted.superseded_by == [right.id]
    trip = store.add("Sam", "traveled_to", "Lisbon", valid_from="2026-05-16", valid_to="2026-05-18")
    longer = store.correct(trip.created[0], reason="till the 20th", valid_to="2026-05-21")
    assert [(store.version(v).valid_from, store.version(v).valid_to) for v in longer.created] == [
        (t("2026-05-16"), t("2026-05-21"))]
    with pytest.raises(InvalidInput, match="an event's period has an end"):
        store.correct(longer.created[0], reason="it ran on", valid_to="open")
    again = store.correct(right.id, "Northcoders Ltd", reason="its full name, and it never ended", valid_to="open")
    assert [(store.version(v).object, store.version(v).valid_to) for v in again.created] == [("Northcoders Ltd", None)]
    with pytest.raises(InvalidInput, match="same period"):
        store.correct(again.created[0], reason="nothing", valid_from="2026-09-14")
    assert store.check() == []


def test_a_correction_keeps_the_sources_of_what_it_corrects(store):
    """"got a job at Monzo" read as starting the day it was said, then moved to April by hand: the sentences the
    belief was read from still support the corrected version, with the correction's own episode after them (a new
    user's trial: the corrected version cited nothing, so `episodes --about` lost the chat)."""
    said = store.add_episode("got a job at Monzo!!", kind="chat", reference_time="2025-03-12")
    again = store.add_episode("monzo starts in april btw", kind="chat", reference_time="2025-03-14")
    first = store.add("Tasha", "works_at", "Monzo", valid_from="2025-03-12", episode=said.id)
    store.add("Tasha", "works_at", "Monzo", valid_from="2025-03-12", episode=again.id)
    fixed = store.correct(first.created[0], reason="started 1 april", valid_from="2025-04-01")
    assert store.version(fixed.created[0]).episodes == [said.id, again.id]
    named = store.correct(fixed.created[0], "Monzo Bank", reason="its name", quote="it's Monzo Bank, officially")
    assert store.version(named.created[0]).episodes == [said.id, again.id, named.episode]
    assert store.check() == []


def test_a_correction_of_when_keeps_an_events_length_and_an_open_end_stops_at_the_next_value(store):
    """"No wait, we met on Tuesday" moves the meeting, a day long, to Tuesday (not Tuesday to Thursday); an open end
    given to a job stops where the next job begins, as an add's does, so nothing the store knows is erased; an alias
    corrected keeps the alias rules."""
    met = store.add("u", "met", "Sophie", valid_from="2026-06-11")
    moved = store.version(store.correct(met.created[0], reason="tuesday", valid_from="2026-06-09").created[0])
    assert (moved.valid_from, moved.valid_to) == (t("2026-06-09"), t("2026-06-10"))
    acme = store.add("u", "works_at", "Acme", valid_from="2026-01-01", valid_to="2026-03-01")
    store.add("u", "works_at", "Beta", valid_from="2026-03-01")
    with pytest.raises(InvalidInput, match="same period"):  # open, it would end where it ends
        store.correct(acme.created[0], reason="never ended?", valid_to="open")
    earlier = store.correct(acme.created[0], reason="began in June", valid_from="2025-06-01", valid_to="open")
    assert [(store.version(v).valid_from, store.version(v).valid_to) for v in earlier.created] == [
        (t("2025-06-01"), t("2026-03-01"))]
    assert objects(store.beliefs(valid_at="2026-04-01")) == ["Beta"]
    alias = store.alias("Robert", "Bob")
    with pytest.raises(Conflict, match="not an alias"):
        store.correct(alias.created[0], "Robert", reason="a slip")
    assert store.check() == []
