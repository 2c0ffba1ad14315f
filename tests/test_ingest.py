"""Ingesting conversations and another assistant's memories, through the CLI and the library."""

from __future__ import annotations

import json
import re
import threading
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Store
from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.engine import MARKER_FILE
from graphmem.errors import ImportFailed, InvalidTime, TimeWentBackwards
from graphmem.extract_rules import ExtractedFact, RuleExtractor
from graphmem.ingest import (
    first_person,
    import_memories,
    ingest,
    read_memories,
    read_messages,
    record_message,
)
from tests.conftest import ENGINE

DATA = Path(__file__).parent / "data" / "ingest"
DESIGN_JSONL = DATA / "design_chat.jsonl"
DESIGN_JSON = DATA / "design_chat.json"


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def z(text: str) -> str:
    """A date or time as the CLI's JSON writes it."""
    return (text if "T" in text else text + "T00:00:00") + "Z"


@pytest.fixture
def store_path(tmp_path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def gm(store_path):
    """Run graphmem on a fresh store directory: gm(*args, ok=True) -> result."""
    runner = CliRunner()

    def run(*args, ok=True):
        result = runner.invoke(main, ["--store", str(store_path), "--engine", ENGINE, *args],
                               catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code == 1, result.output
        return result

    return run


def js(result):
    return json.loads(result.stdout)


def values(rows, predicate=None):
    return [r["object"] for r in rows if predicate is None or r["predicate"] == predicate]


def write(tmp_path: Path, name: str, lines: list) -> Path:
    """A JSON Lines file of ``lines`` (dicts are dumped, strings kept as they are)."""
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                            for line in lines), encoding="utf-8")
    return path


def msg(content, chat_time, role="user", **extra) -> dict:
    return {"role": role, "content": content, "chat_time": chat_time, **extra}


def test_the_summary_lists_at_most_twenty_held_facts_one_by_one(gm, tmp_path):
    """A new user's find: a 39,000-message ingest printed 600 "waits for review" lines."""
    from graphmem.cli.ingest import SHOWN

    path = write(tmp_path, "chat.jsonl", [msg(f"I don't like apples number {n} anymore.", f"2025-09-{n + 1:02d}")
                                          for n in range(SHOWN + 5)])
    shown = gm("ingest", str(path), "--replay", "--approve").stdout
    assert shown.count(": waits for review: end") == SHOWN
    assert "  … and 5 more waiting for review (`graphmem review list` shows them all)" in shown
    assert len(js(gm("review", "list", "--json"))) == SHOWN + 5


def test_an_ingest_that_makes_the_store_says_so(gm, tmp_path, store_path):
    """A new user's find: a mistyped --store made a whole new store and said nothing of it."""
    path = write(tmp_path, "chat.jsonl", [msg("I live in Paris.", "2025-09-26")])
    first = gm("ingest", str(path)).stdout.splitlines()
    assert first[0] == f"made a new store at {store_path} (there was none)"
    assert not any("new store" in line for line in gm("ingest", str(path)).stdout.splitlines())
    assert js(gm("ingest", str(path), "--json"))[0]["already"] == 1  # JSON stays the summary alone


# --- the chat-time example of docs/semantics.md, end to end --------------------------------------------------


def test_design_chat_time_example_replayed_and_approved(gm):
    summary = js(gm("ingest", str(DESIGN_JSONL), "--replay", "--approve", "--json"))[0]
    assert (summary["episodes"], summary["proposed"], summary["approved"], summary["pending"]) == (
        7, 6, 6, 0)
    assert summary["replayed"] and not summary["held"] and not summary["dropped"]
    assert summary["first"] == "2025-01-10T00:00:00Z" and summary["last"] == "2026-05-08T10:00:00Z"

    assert values(js(gm("beliefs", "--json")), "lives_in") == ["Shanghai"]
    assert values(js(gm("beliefs", "--valid-at", "2025-03-01", "--json")), "lives_in") == ["Beijing"]
    assert values(js(gm("beliefs", "--json")), "likes") == []

    likes = js(gm("history", "user", "likes", "--json"))
    (ended,) = [v for v in likes if v["status"] == "ended"]
    assert ended["object"] == "apples"
    assert (ended["valid_from"], ended["valid_to"]) == (z("2025-09-12T13:56:00"), z("2025-09-25"))
    assert [(p["kind"], p["text"]) for p in ended["provenance"]] == [
        ("chat", "I like apples."), ("chat", "I don't like apples anymore.")]

    every = js(gm("beliefs", "--valid-at", "all", "--json"))
    trips = sorted((v for v in every if v["predicate"] == "traveled_to"),
                   key=lambda v: v["valid_from"], reverse=True)
    assert [(v["object"], v["valid_from"], v["valid_to"]) for v in trips] == [
        ("Hangzhou", z("2026-04-27"), z("2026-05-04")),
        ("Xi'an", z("2024-10-01"), z("2024-11-01")),
    ]

    # Replayed at chat time: the conversation can be time-travelled.
    assert values(js(gm("beliefs", "--as-of", "2025-07-01", "--json")), "lives_in") == ["Shanghai"]
    assert values(js(gm("beliefs", "--as-of", "2025-05-01", "--json")), "lives_in") == ["Beijing"]
    assert values(js(gm("beliefs", "--as-of", "2025-09-20", "--json")), "likes") == ["apples"]
    assert values(js(gm("beliefs", "--as-of", "2025-01-09", "--valid-at", "all", "--json"))) == []
    assert js(gm("check", "--json")) == []


def test_replayed_store_links_versions_and_episodes(gm, store_path):
    gm("ingest", str(DESIGN_JSONL), "--replay", "--approve")
    with Store(store_path) as store:
        episodes = store.episodes()
        assert [e.kind for e in episodes] == ["chat"] * 7
        by_text = {e.text: e for e in episodes}
        said = by_text["I travelled to Hangzhou last week."]
        assert said.reference_time == said.received_at == t("2026-05-08T10:00")
        assert by_text["Noted: you live in Beijing."].actor == "assistant"
        assert store.versions_of(by_text["Noted: you live in Beijing."].id) == []
        (shanghai,) = [v for v in store.beliefs() if v.predicate == "lives_in"]
        assert [e.text for e in store.episodes_of(shanghai.id)] == ["I moved to Shanghai."]
        assert shanghai.id in [v.id for v in store.versions_of(store.episodes_of(shanghai.id)[0].id)]
        # Xi'an (said 2025-03-08, listed after the apples) was replayed in chat-time order.
        xian = by_text["I travelled to Xi'an last October."]
        assert xian.reference_time == t("2025-03-08T01:30")
        assert [e.id for e in episodes] == sorted((e.id for e in episodes), key=lambda i: int(i[2:]))
        assert [e.received_at for e in episodes] == sorted(e.received_at for e in episodes)


def test_without_approve_facts_wait_for_review(gm, tmp_path):
    summary = js(gm("ingest", str(DESIGN_JSONL), "--json"))[0]
    assert (summary["proposed"], summary["approved"], summary["pending"]) == (6, 0, 6)
    assert js(gm("beliefs", "--valid-at", "all", "--json")) == []
    waiting = js(gm("review", "list", "--json"))
    assert [(p["op"], p["predicate"], p["object"], p["quote"]) for p in waiting] == [
        ("assert", "lives_in", "Beijing", "I live in Beijing."),
        ("assert", "traveled_to", "Xi'an", "I travelled to Xi'an last October."),
        ("assert", "lives_in", "Shanghai", "I moved to Shanghai."),
        ("assert", "likes", "apples", "I like apples."),
        ("end", "likes", "apples", "I don't like apples anymore."),
        ("assert", "traveled_to", "Hangzhou", "I travelled to Hangzhou last week."),
    ]
    assert all(p["state"] == "pending" and p["source"] == "chat" and p["episode"] for p in waiting)
    text = gm("review", "list").stdout
    assert "“I moved to Shanghai.”" in text

    gm("review", "approve", "--all")
    assert js(gm("review", "list", "--json")) == []
    assert values(js(gm("beliefs", "--json")), "lives_in") == ["Shanghai"]
    assert values(js(gm("beliefs", "--valid-at", "2025-03-01", "--json")), "lives_in") == ["Beijing"]
    likes = js(gm("history", "user", "likes", "--json"))
    assert [(v["status"], v["valid_to"]) for v in likes][0] == ("ended", z("2025-09-25"))
    text = gm("ingest", str(DESIGN_JSONL)).stdout  # the same messages again: nothing new
    assert "recorded 0 episodes" in text and "skipped 7 messages" in text and "0 pending" in text
    later = tmp_path / "later.jsonl"
    later.write_text(json.dumps({"role": "user", "content": "I live in Lisbon.",
                                 "chat_time": "2026-06-01T09:00:00Z"}) + "\n")
    text = gm("ingest", str(later)).stdout
    assert "1 pending" in text and "graphmem review list" in text


def test_cli_says_how_many_facts_wait_because_the_extractor_was_unsure(gm, tmp_path):
    path = write(tmp_path, "two.jsonl", [
        msg("I love jazz. I have a bike. I moved to Leeds.", "2025-01-10", actor="Maya"),
        msg("nice", "2025-01-10T00:01:00Z", actor="Sam")])
    out = gm("ingest", str(path), "--approve").output
    assert "3 proposed, 1 approved, 2 pending (2 the extractor was unsure of: they wait for review)" in out
    assert js(gm("ingest", str(path), "--approve", "--json"))[0]["unsure"] == 0  # nothing new the second time


def test_json_object_shape(gm):
    summary = js(gm("ingest", str(DESIGN_JSON), "--replay", "--approve", "--json"))[0]
    assert (summary["episodes"], summary["approved"]) == (7, 6)
    assert values(js(gm("beliefs", "--json")), "lives_in") == ["Shanghai"]
    assert {r["subject"] for r in js(gm("beliefs", "--valid-at", "all", "--json"))} == {"Lin"}
    episodes = js(gm("episodes", "--json"))
    assert {e["actor"] for e in episodes} == {"Lin", "assistant"}
    # Each message's line in the file is kept for reference.
    lines = {r["where"].rsplit(":", 1)[1] for r in summary["recorded"]}
    assert lines == {"4", "5", "6", "7", "8", "9", "14"}


def test_user_option_names_the_speaker(gm, tmp_path):
    path = write(tmp_path, "chat.jsonl", [
        msg("I live in Paris.", "2025-01-01"),
        msg("I work at Acme.", "2025-01-02", actor="Ana"),
    ])
    gm("ingest", str(path), "--approve", "--user", "Marc")
    facts = js(gm("beliefs", "--valid-at", "all", "--json"))
    assert sorted((r["subject"], r["object"]) for r in facts) == [("Ana", "Acme"), ("Marc", "Paris")]


# --- chat times and reading files ----------------------------------------------------------------


@pytest.mark.parametrize(("chat_time", "expected"), [
    ("2025-09-12T08:00:00Z", "2025-09-12T08:00"),
    ("2025-09-12T10:00:00+02:00", "2025-09-12T08:00"),
    ("2025-09-12 08:00:00", "2025-09-12T08:00"),
    ("2025-09-12", "2025-09-12T00:00"),
    ("1:56 pm on 8 May, 2023", "2023-05-08T13:56"),
    ("May 8, 2023 7:05 PM", "2023-05-08T19:05"),
])
def test_chat_time_formats(tmp_path, chat_time, expected):
    (message,) = read_messages(write(tmp_path, "one.jsonl", [msg("Hi.", chat_time)]))
    assert message.chat_time == t(expected)


def test_chat_times_in_the_store_zone_and_day_first(tmp_path):
    path = write(tmp_path, "one.jsonl", [msg("Hi.", "05/08/2023 10:00")])
    assert read_messages(path)[0].chat_time == t("2023-05-08T10:00")
    assert read_messages(path, day_first=True)[0].chat_time == t("2023-08-05T10:00")
    assert read_messages(path, tz="Asia/Shanghai")[0].chat_time == t("2023-05-08T02:00")


@pytest.mark.parametrize("document", [False, True])
def test_a_file_whose_dates_would_be_read_wrongly_is_refused(tmp_path, document):
    """A file read month first that says "25/03/2024" would read its "03/04/2024" as 4 March without a word: it is
    refused, naming both lines and the way out; one that writes dates both ways is refused either way. A reviewer's:
    a date anywhere in the chat time counts ("Mon 25/03/2024 10:30", "03-04-2024"), and a file whose dates only one
    order makes (a lone "25/03/2024") is read right, so it is kept."""
    def chat(*times: str) -> Path:
        rows = [msg("Hi.", time) for time in times]
        if document:
            path = tmp_path / "chat.json"
            path.write_text(json.dumps(rows, indent=1))
            return path
        return write(tmp_path, "chat.jsonl", rows)

    path = chat("03/04/2024 10:00", "Mon 25/03/2024 11:00")
    with pytest.raises(ImportFailed, match=r"chat\.jsonl?: .*:\d+ \('Mon 25/03/2024 11:00'\) has the day first, "
                                           r"so .*:\d+ \('03/04/2024 10:00'\) would be read month first \(pass "
                                           r"--day-first"):
        read_messages(path)
    assert [m.chat_time for m in read_messages(path, day_first=True)] == [t("2024-04-03T10:00"), t("2024-03-25T11:00")]
    path = chat("03-04-2024", "03/25/2024")  # month first, as read by default
    with pytest.raises(ImportFailed, match=r"has the month first, so .* would be read day first"):
        read_messages(path, day_first=True)
    assert read_messages(path)[0].chat_time == t("2024-03-04T00:00")
    for late in ("25/03/2024", "25.03.2024"):
        path = chat("03/25/2024", "2024-04-01T09:00:00Z", late)
        for day_first in (False, True):
            with pytest.raises(ImportFailed, match=rf"chat times write dates both ways: .*\('{re.escape(late)}'\) has "
                                                   r"the day first, .*\('03/25/2024'\) the month first"):
                read_messages(path, day_first=day_first)
    dotted = chat("05.02.2024", "25.03.2024")  # dots put the day first, whatever the order asked for
    assert [m.chat_time.date().isoformat() for m in read_messages(dotted)] == ["2024-02-05", "2024-03-25"]
    with pytest.raises(ImportFailed, match="both ways"):  # unless the file's own numbers say otherwise (a reviewer's)
        read_messages(chat("03.25.2024 10:00", "03.04.2024 11:00"))
    alone = chat("25/03/2024 10:00", "26/03/2024 10:00")  # no date either order reads: nothing read wrongly
    assert [m.chat_time.day for m in read_messages(alone)] == [25, 26]


def test_message_fields(tmp_path):
    path = write(tmp_path, "chat.jsonl", [
        msg("I live in Paris.", "2025-01-01", id=7, actor=" Ana "),
        msg("Okay.", "2025-01-01", role="Assistant"),
    ])
    first, second = read_messages(path)
    assert (first.id, first.actor, first.speaker, first.episode_actor) == ("7", "Ana", "Ana", "Ana")
    assert (second.role, second.speaker, second.episode_actor) == ("assistant", "user", "assistant")
    assert first.where == f"{path}:1"


@pytest.mark.parametrize(("line", "problem"), [
    ('{"role": "user", "content": "x", "chat_time": "2025-01-01"', "not valid JSON"),
    ('["user", "x", "2025-01-01"]', "expected a JSON object"),
    ('{"content": "x", "chat_time": "2025-01-01"}', "'role' is missing"),
    ('{"role": "user", "chat_time": "2025-01-01"}', "'content' is missing"),
    ('{"role": "user", "content": "  ", "chat_time": "2025-01-01"}', "'content' must be non-empty"),
    ('{"role": "user", "content": ["x"], "chat_time": "2025-01-01"}', "'content' must be non-empty"),
    ('{"role": "user", "content": "\\u200b", "chat_time": "2025-01-01"}', "'content' must be non-empty"),
    ('{"role": "user", "content": "x"}', "'chat_time' is missing"),
    ('{"role": "user", "content": "x", "chat_time": 1700000000}', "'chat_time' must be text"),
    ('{"role": "user", "content": "x", "chat_time": "yesterday"}', "cannot read 'yesterday'"),
    ('{"role": "user", "content": "x", "chat_time": "8 May"}', "missing"),
    ('{"role": "user", "content": "x", "chat_time": "2025-01-01", "id": "a"}', "already used"),
])
def test_a_bad_line_is_named(tmp_path, line, problem):
    path = write(tmp_path, "chat.jsonl", [
        msg("I live in Paris.", "2025-01-01", id="a"), "", line, msg("Fine.", "2025-01-02")])
    with pytest.raises(ImportFailed, match=problem) as info:
        read_messages(path)
    assert str(info.value).startswith(f"{path}:3: ")
    assert "\n" not in str(info.value)


def test_a_bad_message_in_the_json_shape_is_named_by_line(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"user_id": "Lin", "messages": [
        msg("I live in Paris.", "2025-01-01"), {"role": "user", "content": "x"}]}, indent=2))
    with pytest.raises(ImportFailed, match=rf"^{path}:9: 'chat_time' is missing"):
        read_messages(path)
    path.write_text('{\n  "user_id": "Lin",\n  "messages": [\n    {"role": "user",,}\n  ]\n}\n')
    with pytest.raises(ImportFailed, match=rf"^{path}:4: not valid JSON"):
        read_messages(path)
    path.write_text('{"user_id": "Lin", "messages": {"role": "user"}}')
    with pytest.raises(ImportFailed, match="'messages' must be a list"):
        read_messages(path)


@pytest.mark.parametrize("text", ["", "\n\n", '{"user_id": "Lin", "messages": []}', "[]"])
def test_no_messages_is_an_error(tmp_path, text):
    path = tmp_path / "empty.jsonl"
    path.write_text(text)
    with pytest.raises(ImportFailed, match="no messages"):
        read_messages(path)


def test_a_json_list_of_messages(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([msg("Hi.", "2025-01-01"), msg("Bye.", "2025-01-02")], indent=1))
    assert [m.content for m in read_messages(path)] == ["Hi.", "Bye."]
    assert [m.where.rsplit(":", 1)[1] for m in read_messages(path)] == ["2", "7"]


def test_malformed_line_writes_nothing(gm, store_path, tmp_path):
    gm("init")
    gm("add", "Lin", "likes", "tea", "--recorded-at", "2020-01-01")
    before = store_path / "before.jsonl"
    gm("export", str(before))
    result = gm("ingest", str(DATA / "bad_line.jsonl"), "--approve", ok=False)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ") and "bad_line.jsonl:3: not valid JSON" in result.stderr
    after = store_path / "after.jsonl"
    gm("export", str(after))
    assert after.read_text() == before.read_text()


def test_malformed_file_creates_no_store(gm, store_path):
    gm("ingest", str(DATA / "bad_line.jsonl"), ok=False)
    assert not (store_path / MARKER_FILE).exists()


# --- replay ---------------------------------------------------------------------------------------


def test_replay_refuses_times_before_the_latest_write(gm, store_path):
    gm("init")
    gm("add", "Lin", "likes", "tea", "--recorded-at", "2025-05-01")
    result = gm("ingest", str(DESIGN_JSONL), "--replay", ok=False)
    assert result.stderr.count("\n") == 1
    assert "design_chat.jsonl:1" in result.stderr and "transaction time only moves forward" in result.stderr
    with Store(store_path) as store:
        assert len(store.episodes()) == 0 and store.proposals(None) == []
    gm("ingest", str(DESIGN_JSONL))  # without --replay it is recorded now
    assert len(js(gm("episodes", "--json"))) == 7


def test_replay_refuses_a_chat_time_past_the_wall_clock_before_writing_anything(gm, store_path, tmp_path):
    """A message said in 2035 (a typo for 2025) cannot be replayed: its transaction time would be more than a day
    past the wall clock. The whole file is refused, naming the line, before the store is even made (a new user's
    trial: the messages before it were recorded, then the write failed with no line); --allow-future takes it."""
    path = write(tmp_path, "chat.jsonl", [msg("I live in Paris.", "2025-01-01T10:00:00Z"),
                                          msg("I live in York.", "2035-02-01T10:00:00Z")])
    result = gm("ingest", str(path), "--replay", ok=False)
    assert result.stderr.count("\n") == 1 and "chat.jsonl:2" in result.stderr
    assert "nothing was recorded" in result.stderr
    assert not (store_path / MARKER_FILE).exists()
    gm("ingest", str(path), "--replay", "--allow-future")
    assert len(js(gm("episodes", "--json"))) == 2


def test_replay_records_messages_sharing_a_chat_time_apart(store, tmp_path):
    path = write(tmp_path, "chat.jsonl", [
        msg("I live in Paris.", "2025-01-01T10:00:00Z"),
        msg("Nice.", "2025-01-01T10:00:00Z", role="assistant"),
        msg("I like tea.", "2025-01-01T10:00:00Z"),
    ])
    summary = ingest(store, read_messages(path), replay=True, approve=True)
    assert (summary.episodes, summary.approved) == (3, 2)
    episodes = store.episodes()
    assert [e.text for e in episodes] == ["I live in Paris.", "Nice.", "I like tea."]
    assert {e.reference_time for e in episodes} == {t("2025-01-01T10:00")}
    received = [e.received_at for e in episodes]
    assert received == sorted(set(received)) and received[0] == t("2025-01-01T10:00")
    assert received[-1] - received[0] < (t("2025-01-01T10:00:01") - t("2025-01-01T10:00"))


def test_replay_is_refused_by_the_library_too(store, clock):
    store.add("Lin", "likes", "tea")  # at the clock's 2026-01-01
    with pytest.raises(TimeWentBackwards):
        ingest(store, read_messages(DESIGN_JSONL), replay=True)
    assert store.episodes() == []


def test_without_replay_writes_are_now_and_reference_times_are_chat_times(store, clock):
    clock.set("2026-11-30")
    ingest(store, read_messages(DESIGN_JSONL), approve=True)
    hangzhou = next(v for v in store.beliefs(valid_at="all") if v.object == "Hangzhou")
    assert (hangzhou.valid_from, hangzhou.valid_to) == (t("2026-04-27"), t("2026-05-04"))
    assert hangzhou.recorded_at >= t("2026-11-30")
    assert store.beliefs(as_of="2026-11-29", valid_at="all") == []


# --- extraction and the gate -----------------------------------------------------------------------


def test_only_user_messages_yield_facts(store):
    messages = read_messages(DESIGN_JSONL)
    moved = [m.model_copy(update={"role": "assistant"}) for m in messages]
    summary = ingest(store, moved, approve=True)
    assert (summary.episodes, summary.proposed) == (7, 0)
    assert {e.actor for e in store.episodes()} == {"assistant"}


def test_an_ending_with_nothing_to_end_waits_for_review(store, tmp_path):
    path = write(tmp_path, "chat.jsonl", [
        msg("I don't like apples anymore.", "2025-09-25"),
        msg("I live in Paris.", "2025-09-26"),
    ])
    summary = ingest(store, read_messages(path), approve=True)
    assert (summary.proposed, summary.approved, summary.pending) == (2, 1, 1)
    (held,) = summary.held
    assert held.where.endswith(":1") and held.fact.op == "end" and "nothing to end" in held.reason
    (pending,) = store.proposals()
    assert (pending.op, pending.object, pending.quote) == ("end", "apples", "I don't like apples anymore.")
    assert [v.object for v in store.beliefs()] == ["Paris"]


def test_a_stated_end_time_is_where_the_fact_ends(store, tmp_path):
    path = write(tmp_path, "chat.jsonl", [
        msg("I work at Acme.", "2025-01-10"),
        msg("I stopped working at Acme last month.", "2025-06-15"),
    ])
    ingest(store, read_messages(path), replay=True, approve=True)
    (ended,) = [v for v in store.beliefs(valid_at="all") if v.predicate == "works_at"]
    assert (ended.valid_from, ended.valid_to) == (t("2025-01-10"), t("2025-05-01"))


def test_sources_that_skip_review_are_written_at_once(store, tmp_path):
    store.set_review_skips(["manual", "chat"])
    path = write(tmp_path, "chat.jsonl", [
        msg("I don't like tea anymore.", "2025-01-01"),
        msg("I live in Paris.", "2025-01-02"),
    ])
    summary = ingest(store, read_messages(path))
    assert (summary.episodes, summary.proposed, summary.approved, summary.pending) == (2, 1, 1, 0)
    (dropped,) = summary.dropped
    assert dropped.fact.object == "tea" and "nothing to end" in dropped.reason
    (paris,) = store.beliefs()
    assert paris.object == "Paris" and paris.valid_from == t("2025-01-02")
    assert [e.text for e in store.episodes_of(paris.id)] == ["I live in Paris."]


@pytest.mark.parametrize("skip", [False, True])
def test_one_message_is_kept_when_the_gate_refuses_one_of_its_facts(store, skip):
    said, text = t("2025-09-25"), "I don't like apples anymore. I live in Paris."
    if skip:
        store.set_review_skips(["manual", "chat"])
    facts = RuleExtractor().extract(text, reference_time=said)
    summary = record_message(store, text, facts, reference_time=said, approve=not skip)
    assert (summary.episodes, summary.approved, summary.pending) == (1, 1, 0 if skip else 1)
    (refused,) = summary.dropped if skip else summary.held
    assert refused.fact.op == "end" and "nothing to end" in refused.reason
    (paris,) = store.beliefs()
    assert paris.valid_from == said and [e.text for e in store.episodes_of(paris.id)] == [text]
    assert [(p.op, p.state) for p in store.proposals(None)] == (
        [("assert", "approved")] if skip else [("end", "pending"), ("assert", "approved")])


class FixedExtractor:
    """An extractor that returns the facts it was given, whatever the message."""

    name = "fixed"

    def __init__(self, facts):
        self.facts = facts

    def extract(self, text, *, reference_time, speaker="user"):
        return self.facts


def test_unusable_facts_are_dropped_with_the_reason(store, tmp_path):
    facts = [
        ExtractedFact(subject="user", predicate="Lives In", object="Paris", quote="x"),
        ExtractedFact(subject="user", predicate="likes", object=None, quote="x"),
        ExtractedFact(subject=" ", predicate="likes", object="tea", quote="x"),
        ExtractedFact(subject="user", predicate="likes", object="tea", valid_to=t("2020-01-01"),
                      quote="x"),
        ExtractedFact(subject="user", predicate="likes", object="coffee", quote="x"),
    ]
    path = write(tmp_path, "chat.jsonl", [msg("x", "2025-01-01")])
    summary = ingest(store, read_messages(path), FixedExtractor(facts), approve=True)
    assert summary.approved == 1 and [v.object for v in store.beliefs()] == ["coffee"]
    reasons = [d.reason for d in summary.dropped]
    assert "not a valid name" in reasons[0] and "needs an object" in reasons[1]
    assert "cannot be empty" in reasons[2] and "valid period is empty" in reasons[3]


def test_an_extractor_failure_writes_nothing(store, tmp_path):
    class Failing:
        name = "failing"

        def extract(self, text, *, reference_time, speaker="user"):
            if "Paris" in text:
                from graphmem.extract_llm import ExtractionFailed
                raise ExtractionFailed("model unreachable")
            return []

    path = write(tmp_path, "chat.jsonl", [msg("Hello.", "2025-01-01"), msg("I live in Paris.", "2025-01-02")])
    with pytest.raises(ImportFailed, match=r"chat.jsonl:2: model unreachable; nothing was written"):
        ingest(store, read_messages(path), Failing())
    assert store.episodes() == []


def test_progress_is_reported(store):
    seen = []
    ingest(store, read_messages(DESIGN_JSONL), progress=lambda *step: seen.append(step))
    assert seen[0] == ("extracting", 1, 7) and seen[6] == ("extracting", 7, 7)
    assert seen[7] == ("writing", 1, 7) and seen[-1] == ("writing", 7, 7)


# --- the LLM extractor against a stub endpoint -----------------------------------------------------

STUB_FACTS = {
    "I live in Beijing.": [("assert", "lives_in", "Beijing", None, None)],
    "I moved to Shanghai.": [("assert", "lives_in", "Shanghai", None, None)],
    "I like apples.": [("assert", "likes", "apples", None, None)],
    "I don't like apples anymore.": [("end", "likes", "apples", None, None)],
    "I travelled to Xi'an last October.": [
        ("assert", "traveled_to", "Xi'an", "2024-10-01T00:00:00Z", "2024-11-01T00:00:00Z")],
    "I travelled to Hangzhou last week.": [
        ("assert", "traveled_to", "Hangzhou", "2026-04-27T00:00:00Z", "2026-05-04T00:00:00Z"),
        ("assert", "likes", "opera", None, None)],  # its quote is made up: rejected
}


@pytest.fixture
def llm(monkeypatch):
    """A chat-completions stub that answers from STUB_FACTS and counts its calls."""
    calls = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = body["messages"][-1]["content"].split("Message:\n", 1)[1]
            calls.append(text)
            facts = [{"op": op, "subject": "user", "predicate": p, "object": o, "valid_from": f,
                      "valid_to": to, "quote": "I adore opera." if o == "opera" else text}
                     for op, p, o, f, to in STUB_FACTS.get(text, [])]
            answer = {"choices": [{"message": {"role": "assistant",
                                               "content": json.dumps({"facts": facts})}}]}
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "stub")
    yield calls
    server.shutdown()
    server.server_close()
    thread.join()


def test_llm_extractor_end_to_end(gm, llm):
    summary = js(gm("ingest", str(DESIGN_JSONL), "--replay", "--approve", "--extractor", "llm",
                    "--json"))[0]
    assert (summary["episodes"], summary["approved"]) == (7, 6)
    assert len(llm) == 6  # user messages only
    assert values(js(gm("beliefs", "--json")), "lives_in") == ["Shanghai"]
    assert values(js(gm("beliefs", "--as-of", "2025-05-01", "--json")), "lives_in") == ["Beijing"]
    every = js(gm("beliefs", "--valid-at", "all", "--json"))
    assert "opera" not in values(every)
    assert sorted(values(every, "traveled_to")) == ["Hangzhou", "Xi'an"]


def test_llm_extractor_unreachable_writes_nothing(gm, monkeypatch, store_path):
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "stub")
    result = gm("ingest", str(DESIGN_JSONL), "--extractor", "llm", ok=False)
    assert "design_chat.jsonl:1:" in result.stderr and "cannot reach" in result.stderr
    assert not store_path.exists()  # the store the ingest began is gone again


def test_llm_extractor_needs_its_environment(gm, monkeypatch, store_path):
    monkeypatch.delenv("GRAPHMEM_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("GRAPHMEM_LLM_MODEL", raising=False)
    result = gm("ingest", str(DESIGN_JSONL), "--extractor", "llm", ok=False)
    assert "GRAPHMEM_LLM_BASE_URL" in result.stderr and result.stderr.count("\n") == 1
    assert not (store_path / MARKER_FILE).exists()
    monkeypatch.setenv("GRAPHMEM_EXTRACTOR", "llm")
    assert "GRAPHMEM_LLM_MODEL" in gm("import-memories", str(DATA / "memories.txt"), ok=False).stderr


# --- another assistant's memories ------------------------------------------------------------------


def test_a_memory_that_shows_nothing_is_a_blank_line(tmp_path):
    """A reviewer's: a zero-width line among memories was written after the ones before it, then refused."""
    path = tmp_path / "memories.txt"
    path.write_text("I live in Rome.\n\u200b\nI like tea.\n")
    assert read_memories(path) == ["I live in Rome.", "I like tea."]


def test_read_memories_both_shapes():
    assert read_memories(DATA / "memories.txt") == [
        "Moved to Berlin last year.", "Works at Acme Corp.", "Likes jazz and hiking.",
        "Has a dog named Rex.", "User is vegetarian."]
    assert read_memories(DATA / "memories.json") == [
        "User's name is Lin.", "Lin works at Acme Corp.", "Travelled to Xi'an last October."]


@pytest.mark.parametrize(("text", "problem"), [
    ('[\n  "Likes jazz.",\n  42\n]', ":3: expected a remembered line as text, got int"),
    ('[\n  "Likes jazz.",\n  "x"\n', None),  # no closing bracket: read as lines
    ('[\n  "Likes jazz.",,\n]', ":2: not a valid JSON list"),
    ("\n \n", "no memories found"),
    ("\u200b\n\u200b\u200b\n", "no memories found"),  # a reviewer's: zero-width lines alone show nothing
])
def test_read_memories_errors(tmp_path, text, problem):
    path = tmp_path / "memories.txt"
    path.write_text(text)
    if problem is None:
        assert read_memories(path)[0] == "["
        return
    with pytest.raises(ImportFailed, match=problem):
        read_memories(path)


def test_import_memories_lines(gm):
    summary = js(gm("import-memories", str(DATA / "memories.txt"), "--reference", "2025-06-01",
                    "--json"))[0]
    assert (summary["episodes"], summary["proposed"], summary["pending"]) == (5, 5, 5)
    episodes = js(gm("episodes", "--json"))
    assert {e["kind"] for e in episodes} == {"import"}
    assert {e["reference_time"] for e in episodes} == {z("2025-06-01")}
    waiting = js(gm("review", "list", "--json"))
    assert [(p["predicate"], p["object"], p["source"], p["quote"]) for p in waiting] == [
        ("lives_in", "Berlin", "import", "Moved to Berlin last year."),
        ("works_at", "Acme Corp", "import", "Works at Acme Corp."),
        ("likes", "jazz", "import", "Likes jazz and hiking."),
        ("likes", "hiking", "import", "Likes jazz and hiking."),
        ("has_pet", "dog", "import", "Has a dog named Rex."),
    ]
    gm("review", "approve", "--all")
    berlin = js(gm("history", "user", "lives_in", "--json"))[0]
    assert berlin["valid_from"] == z("2024-01-01")  # "last year" read at the reference time
    assert berlin["provenance"][0]["kind"] == "import"


def test_import_memories_json_list_approved(gm):
    summary = js(gm("import-memories", str(DATA / "memories.json"), "--approve", "--speaker", "Lin",
                    "--reference", "2025-03-08", "--json"))[0]
    # "User's name is Lin." of Lin tells nothing new: the speaker is Lin (by "user" it would be kept)
    assert (summary["episodes"], summary["approved"], summary["pending"]) == (3, 2, 0)
    facts = js(gm("beliefs", "--valid-at", "all", "--json"))
    assert sorted((r["subject"], r["predicate"], r["object"], r["valid_from"]) for r in facts) == [
        ("Lin", "traveled_to", "Xi'an", z("2024-10-01")),
        ("Lin", "works_at", "Acme Corp", z("2025-03-08")),
    ]
    text = gm("import-memories", str(DATA / "memories.json"), "--speaker", "Lin").stdout
    assert "recorded 3 episodes" in text


def test_import_memories_reference_defaults_to_now(store, clock):
    clock.set("2026-03-15")
    import_memories(store, ["Moved to Berlin last year."], approve=True)
    (berlin,) = store.beliefs()
    assert berlin.valid_from == t("2025-01-01")
    (episode,) = store.episodes()
    assert episode.reference_time == t("2026-03-15") and episode.kind == "import"


def test_import_memories_bad_reference(gm):
    result = gm("import-memories", str(DATA / "memories.json"), "--reference", "soon", ok=False)
    assert "cannot read 'soon'" in result.stderr


@pytest.mark.parametrize(("memory", "said"), [
    ("User lives in Berlin.", "I live in Berlin."),
    ("The user no longer lives in Paris.", "I no longer live in Paris."),
    ("Lives in Berlin.", "I live in Berlin."),
    ("Recently moved to Shanghai.", "I recently moved to Shanghai."),
    ("User doesn’t like apples anymore.", "I don't like apples anymore."),
    ("User's name is Lin.", "My name is Lin."),
    ("Lin works at Acme.", "I work at Acme."),
    ("User prefers dark mode.", "I prefer dark mode."),
    ("User studies at MIT.", "I study at MIT."),
    ("Is vegetarian.", "I am vegetarian."),
    ("Has a dog named Rex.", "I have a dog named Rex."),
    ("I live in Rome.", "I live in Rome."),
    ("Apples are great.", "Apples are great."),
    ("Ted likes jazz.", "Ted likes jazz."),
])
def test_first_person(memory, said):
    assert first_person(memory, ["Lin"]) == said


# --- the commands ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["ingest", "import-memories", "when"])
def test_commands_have_help(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_ingest_into_an_existing_store_keeps_its_zone(gm, tmp_path):
    gm("init", "--timezone", "Asia/Shanghai")
    path = write(tmp_path, "chat.jsonl", [msg("I live in Beijing.", "2025-01-10 09:00:00")])
    gm("ingest", str(path), "--approve")
    (episode,) = js(gm("episodes", "--json"))
    assert episode["reference_time"] == "2025-01-10T01:00:00Z"


def test_missing_file_is_a_usage_error(gm, tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "ingest", str(tmp_path / "none")])
    assert result.exit_code == 2 and "does not exist" in result.output



def test_running_a_chat_file_again_records_only_new_messages(tmp_path):
    from graphmem.ingest import ingest, read_messages

    lines = [
        {"role": "user", "content": "I live in Lisbon.", "chat_time": "2025-01-01T10:00:00Z"},
        {"role": "assistant", "content": "Noted.", "chat_time": "2025-01-01T10:00:05Z"},
        {"role": "user", "content": "I live in Lisbon.", "chat_time": "2025-02-01T10:00:00Z"},
    ]
    file = tmp_path / "chat.jsonl"
    file.write_text("\n".join(json.dumps(line) for line in lines[:2]) + "\n")
    with Store(tmp_path / "store", engine=ENGINE) as store:
        first = ingest(store, read_messages(file), approve=True)
        assert (first.episodes, first.already) == (2, 0)
        again = ingest(store, read_messages(file), approve=True)
        assert (again.episodes, again.already, again.proposed) == (0, 2, 0)
        file.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        more = ingest(store, read_messages(file), approve=True)  # the same words, said later: new
        assert (more.episodes, more.already) == (1, 2)
        assert [e.text for e in store.episodes()] == ["I live in Lisbon.", "Noted.", "I live in Lisbon."]
        assert store.check() == []


def test_cli_ingest_says_what_it_skipped(gm, tmp_path):
    file = tmp_path / "chat.jsonl"
    file.write_text(json.dumps({"role": "user", "content": "I live in Oslo.",
                                "chat_time": "2025-01-01T10:00:00Z"}) + "\n")
    gm("ingest", str(file), "--approve")
    result = gm("ingest", str(file), "--approve")
    assert "recorded 0 episodes" in result.output
    assert "skipped 1 messages recorded by an earlier run" in result.output


def test_a_fact_dated_outside_the_supported_years_is_reported_not_written(gm, tmp_path):
    file = write(tmp_path, "far.jsonl", [msg("I moved to Oslo 2030 years ago.", "2026-05-01"),
                                         msg("I work at Acme.", "2026-05-02")])
    summary = js(gm("ingest", str(file), "--approve", "--json"))[0]
    assert summary["approved"] == 1
    (note,) = summary["notes"]
    assert "far.jsonl:1" in note and "'2030 years ago'" in note
    assert values(js(gm("beliefs", "--json"))) == ["Acme"]


def test_a_user_named_with_spaces_around_is_that_user_and_a_run_again_records_nothing_twice(tmp_path):
    """A reviewer's: with an episode's actor kept without spaces around it, `ingest --user "Sam "` run twice recorded
    the user's messages twice (the run compared "Sam " with the stored "Sam")."""
    path = write(tmp_path, "chat.jsonl", [msg("I moved to Leeds.", "2025-01-01T10:00:00Z")])
    with Store(tmp_path / "store", engine=ENGINE) as store:
        for _ in range(2):
            ingest(store, read_messages(path, user="Sam "), replay=True)
        assert [(e.actor, e.text) for e in store.episodes()] == [("Sam", "I moved to Leeds.")]


def test_a_message_said_years_ahead_is_refused_replayed_or_not(tmp_path):
    """An integrator's: without --replay, "I moved to Goa." said in 2031 (a year typed wrong) was approved and ended
    today's home in 2031, quietly; MCP's remember refused it. Replayed or not, the file is refused, naming the line,
    before anything is recorded, unless the store allows a future time."""
    path = write(tmp_path, "chat.jsonl", [msg("I live in Pune.", "2026-01-01T10:00:00Z"),
                                          msg("I moved to Goa.", "2031-01-01T10:00:00Z")])
    with Store(tmp_path / "store", engine=ENGINE) as store:
        for replay in (False, True):
            with pytest.raises(InvalidTime, match=rf"chat\.jsonl:2: cannot {'replay' if replay else 'record'} a "
                                                  r"message at 2031-01-01T10:00:00Z: it is more than a day past"):
                ingest(store, read_messages(path), replay=replay, approve=True)
        assert store.episodes() == []
    with Store(tmp_path / "future", engine=ENGINE, allow_future=True) as store:
        ingest(store, read_messages(path), approve=True)
        assert [v.object for v in store.beliefs(valid_at="all")] == ["Pune", "Goa"]


@pytest.mark.engine_free
def test_an_ingest_summary_prints_in_one_line():
    """A new user's (thirtieth session): `print(summary)` listed all 150 messages recorded."""
    from graphmem.ingest import IngestSummary
    from graphmem.ingest._summary import Recorded

    summary = IngestSummary(episodes=148, proposed=19, approved=16, pending=3, unsure=2,
                            recorded=[Recorded(where=f"chat.jsonl:{n}", episode=f"ep{n}", proposals=[])
                                      for n in range(148)])
    assert str(summary) == "148 episodes recorded; 19 facts proposed: 16 approved, 3 pending, 2 of them unsure"
    assert "recorded=<148 items>" in repr(summary) and "chat.jsonl" not in repr(summary)
    assert len(summary.recorded) == 148  # the data is all there
    assert str(IngestSummary(episodes=1, proposed=1, approved=1)) == \
        "1 episode recorded; 1 fact proposed: 1 approved, 0 pending"  # a reviewer's "1 episodes"


def test_memories_imported_again_as_said_then_are_not_recorded_twice(store):
    """A twenty-eighth new user's: the same memories file, imported twice with the same --reference, recorded every
    line and its proposals twice (an interrupted import run again, too). A line held already, said at the same
    moment, is skipped; a new line is recorded."""
    from graphmem.ingest import import_memories

    first = import_memories(store, ["Moved to Berlin last year.", "Works at Acme Corp."], reference="2025-06-01")
    again = import_memories(store, ["Moved to Berlin last year.", "Works at Acme Corp.", "Likes jazz."],
                            reference="2025-06-01")
    assert (first.episodes, again.episodes, again.already) == (2, 1, 2)
    assert len([e for e in store.episodes() if e.kind == "import"]) == 3
    assert len(store.proposals()) == 3
