"""Streaming a chat file and writing it many messages to a transaction: what is held, what is read
again, and that the log does not depend on how the messages were grouped."""

from __future__ import annotations

import json
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.conversations import conversation, write
from graphmem import Store
from graphmem.errors import ImportFailed
from graphmem.extract_rules import RuleExtractor
from graphmem.ingest import MessageFile, ingest, read_messages
from tests.conftest import ENGINE


def msg(content, chat_time, role="user", **extra) -> dict:
    return {"role": role, "content": content, "chat_time": chat_time, **extra}


@pytest.fixture(scope="module")
def talk(tmp_path_factory) -> Path:
    """A generated conversation: several users, ties in chat times, late sessions, refusals."""
    return write(tmp_path_factory.mktemp("talk") / "talk.jsonl", conversation(300, users=4, seed=3))


def exported(store: Store, path: Path) -> list[dict]:
    store.export(path)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


# --- reading -----------------------------------------------------------------------------------------


def test_a_file_is_checked_whole_and_read_again_when_used(talk):
    found = read_messages(talk)
    assert isinstance(found, MessageFile) and len(found) == 300
    lines = [json.loads(line) for line in talk.read_text(encoding="utf-8").splitlines()]
    assert [(m.content, m.role, m.id) for m in found] == [(r["content"], r["role"], r["id"]) for r in lines]
    assert found[0].where == f"{talk}:1" and found[-1].where == f"{talk}:300"
    assert [m.id for m in found[10:13]] == [r["id"] for r in lines[10:13]]
    ordered = list(found.in_chat_time_order())
    assert [m.id for m in ordered] == [m.id for m in sorted(found, key=lambda m: m.chat_time)]  # stable
    assert [m.id for m in ordered] != [m.id for m in found]  # some sessions were written late


def test_reading_holds_where_messages_are_not_the_messages(tmp_path):
    path = write(tmp_path / "long.jsonl", conversation(5_000, seed=4))  # the ratios below hold from 2,000 on
    tracemalloc.start()
    try:
        found = read_messages(path)
        kept, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        every = list(found)
        held = tracemalloc.get_traced_memory()[0] - kept
    finally:
        tracemalloc.stop()
    assert len(every) == 5_000
    assert kept * 20 < held and peak * 5 < held  # a list of the messages holds far more


@pytest.mark.parametrize("shape", ["list", "object", "object, user_id last", "twice"])
def test_one_json_document_over_many_lines(tmp_path, shape):
    messages = [msg("I live in Paris.", "2025-01-01"), msg("Nice.", "2025-01-01", role="assistant"),
                msg("I like tea.", "2025-01-02")]
    document = {"list": messages, "object": {"user_id": "Lin", "messages": messages},
                "object, user_id last": {"messages": messages, "user_id": "Lin"}}.get(shape)
    path = tmp_path / "chat.json"
    if shape == "twice":  # like json.loads, the last "messages" wins
        path.write_text('{"messages": [{"role": "user"}],\n "user_id": "Lin",\n "messages": '
                        + json.dumps(messages, indent=2) + "}")
    else:
        path.write_text(json.dumps(document, indent=2))
    found = read_messages(path)
    assert [m.content for m in found] == [m["content"] for m in messages]
    text = path.read_text()
    assert [int(m.where.rsplit(":", 1)[1]) for m in found] == [  # the line where each one starts
        text[:text.rindex("{", 0, text.rindex(m["content"]))].count("\n") + 1 for m in messages]
    assert {m.speaker for m in found} == ({"user"} if shape == "list" else {"Lin"})


@pytest.mark.parametrize(("text", "problem"), [
    ('[\n  {"role": "user", "content": "x", "chat_time": "2025-01-01"},\n  {"role": "user",}\n]', ":3: not valid JSON"),
    ('[\n  {"role": "user", "content": "x", "chat_time": "2025-01-01"}\n  {"role": "user"}\n]', ":3: not valid JSON"),
    ('{"user_id": "Lin",\n "messages": [\n  {"role": "user", "content": "x"}\n ]\n}', ":3: 'chat_time' is missing"),
    ('[\n  {"role": "user", "content": "x", "chat_time": "2025-01-01"}\n]\n]', "not valid JSON"),
])
def test_a_broken_document_names_its_line(tmp_path, text, problem):
    path = tmp_path / "chat.json"
    path.write_text(text)
    with pytest.raises(ImportFailed, match=problem):
        read_messages(path)


def test_line_endings_and_a_byte_order_mark(tmp_path):
    lines = [json.dumps(msg(f"I like tea {n}.", f"2025-01-0{n + 1}")) for n in range(3)]
    for ending in ("\r\n", "\r"):
        path = tmp_path / "chat.jsonl"
        path.write_bytes(b"\xef\xbb\xbf" + ending.join(lines).encode() + b"\n")
        assert [(m.content, m.where.rsplit(":", 1)[1]) for m in read_messages(path)] == [
            ("I like tea 0.", "1"), ("I like tea 1.", "2"), ("I like tea 2.", "3")]
    path.write_text(json.dumps(msg("I said \u2028 this.", "2025-01-01")) + "\n")
    assert [m.content for m in read_messages(path)] == ["I said \u2028 this."]


def test_a_file_changed_after_it_was_checked_writes_nothing(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps(msg("I live in Paris.", "2025-01-01")) + "\n")
    found = read_messages(path)
    path.write_text(json.dumps(msg("I live in Rome, now.", "2025-01-01")) + "\n")
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match="changed after it was checked"):
            ingest(store, found, approve=True)
        assert store.episodes() == [] and store.latest_write() is None
    path.unlink()
    with pytest.raises(ImportFailed, match="cannot read"):
        list(found)


# --- writing -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["approve", "skip", "review"])
def test_the_log_does_not_depend_on_how_many_messages_share_a_transaction(tmp_path, talk, mode):
    logs, summaries = [], []
    for batch in (1, 7, 10_000):
        with Store(":memory:", engine=ENGINE) as store:
            if mode == "skip":
                store.set_review_skips(["manual", "chat"])
            summary = ingest(store, read_messages(talk), replay=True, approve=mode == "approve", batch=batch)
            logs.append(exported(store, tmp_path / f"{batch}.jsonl"))
            summaries.append(summary)
            assert store.check() == []
    assert logs[0] == logs[1] == logs[2]
    assert summaries[0] == summaries[1] == summaries[2]
    summary = summaries[0]
    assert summary.episodes == 300 and summary.proposed > 50
    if mode == "approve":
        # what the gate refused at approval, and what the extractor was unsure of ("we broke up" with
        # no one known), wait for review
        assert summary.held and summary.approved == summary.proposed - len(summary.held) - summary.unsure
    if mode == "skip":
        assert summary.dropped and summary.pending == 0


def test_progress_counts_each_transaction(talk):
    seen = []
    with Store(":memory:", engine=ENGINE) as store:
        ingest(store, read_messages(talk), approve=True, batch=100, progress=lambda *step: seen.append(step))
    assert [s for s in seen if s[0] == "extracting"] == [("extracting", n, 300) for n in range(1, 301)]
    assert [s for s in seen if s[0] == "writing"] == [("writing", n, 300) for n in (1, 101, 201, 300)]


def test_a_batch_size_below_one_is_refused(talk):
    with Store(":memory:", engine=ENGINE) as store, pytest.raises(Exception, match="at least one message"):
        ingest(store, read_messages(talk), batch=0)


def test_every_fact_is_drawn_before_the_first_write(tmp_path):
    class FailingLate:
        name = "failing late"

        def extract(self, text, *, reference_time, speaker="user"):
            if text == "I like the last one.":
                from graphmem.extract_llm import ExtractionFailed
                raise ExtractionFailed("model unreachable")
            return RuleExtractor().extract(text, reference_time=reference_time, speaker=speaker)

    lines = [msg(f"I like tea {n}.", f"2025-01-{n + 1:02d}") for n in range(20)]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in [*lines, msg("I like the last one.", "2025-02-01")]))
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match=r"chat.jsonl:21: model unreachable; nothing was written"):
            ingest(store, read_messages(path), FailingLate(), approve=True, batch=3)
        assert store.episodes() == [] and store.latest_write() is None


class FailingInBatch:
    """An extractor taking messages many at a time (as the LLM's does) that fails on one."""

    name = "failing in batch"

    def __init__(self, failure):
        self.failure = failure

    def extract(self, text, *, reference_time, speaker="user"):
        raise AssertionError("a batch extractor is given its messages many at a time")

    def extract_many(self, messages):
        raise self.failure


def test_a_batch_failure_names_the_message_it_was_about(tmp_path):
    from graphmem.extract_llm import ExtractionFailed

    failure = ExtractionFailed("message 2: model unreachable")
    failure.index, failure.reason = 1, "model unreachable"
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(msg(f"I like tea {n}.", f"2025-01-0{n + 1}")) for n in range(3)))
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match=r"^[^ ]*chat.jsonl:2: model unreachable; nothing was written$"):
            ingest(store, read_messages(path), FailingInBatch(failure), approve=True)
        with pytest.raises(ImportFailed, match=r"^endpoint gone; nothing was written$"):
            ingest(store, read_messages(path), FailingInBatch(ExtractionFailed("endpoint gone")), approve=True)
        assert store.episodes() == []


def test_the_generated_conversation_is_like_a_real_one(talk):
    """What the benchmark feeds ingest: several users, facts in most of what they say about
    themselves, ties in chat times, messages written out of order, endings of what was never said."""
    found = read_messages(talk)
    users = [m for m in found if m.role == "user"]
    assert len({m.speaker for m in users}) == 4
    extractor = RuleExtractor()
    facts = [extractor.extract(m.content, reference_time=m.chat_time, speaker=m.speaker) for m in users]
    assert sum(bool(f) for f in facts) > 0.6 * len(users)
    assert Counter(f.predicate for fs in facts for f in fs).keys() >= {
        "lives_in", "works_at", "likes", "traveled_to", "met"}
    assert any(f.op == "end" for fs in facts for f in fs)
    assert len({m.chat_time for m in found}) < 0.8 * len(found)
    with Store(":memory:", engine=ENGINE) as store:
        assert ingest(store, found, approve=True).held  # some endings find nothing to end
