"""LLMExtractor against a real chat-completions server on 127.0.0.1, started by the tests.

The server speaks /v1/chat/completions over HTTP and plays scripted replies: answers, HTTP
errors with and without Retry-After, answers slower than the client's timeout, malformed JSON,
and refusals of a response format, so retries, backoff, format fallback, concurrency and the
per-message fallback all run over real sockets.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphmem._openai_api import retry_after
from graphmem.errors import GraphmemError, InvalidInput
from graphmem.extract_llm import EndpointUnreachable, ExtractionFailed, LLMExtractor
from graphmem.extract_rules import ExtractedFact, Extractor, RuleExtractor

#: Checked in the default engine's pass only: the model client's retries, timeouts and fallbacks: above the engine.
pytestmark = pytest.mark.one_engine

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
MESSAGE = "I moved to Berlin in May 2024.  I work at Acme now.\nI love jazz."

GOOD = {"facts": [
    {"op": "assert", "subject": "alice", "predicate": "lives_in", "object": "Berlin",
     "valid_from": "2024-05-01T00:00:00", "valid_to": None,
     "quote": "I moved to Berlin in May 2024."},
    {"op": "assert", "subject": "alice", "predicate": "works_at", "object": "Acme",
     "valid_from": None, "valid_to": None, "quote": "I work at Acme now."},
]}
FABRICATED = {"facts": [
    *GOOD["facts"],
    {"op": "assert", "subject": "alice", "predicate": "likes", "object": "opera",
     "valid_from": None, "valid_to": None, "quote": "I adore opera."},
]}


def completion(content: str) -> dict:
    """A chat-completions response body whose answer is ``content``."""
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
    }


class Reply:
    """One scripted reply: status, body (dict as JSON, str as is), headers, delay before it."""

    def __init__(self, status=200, body=None, headers=None, delay=0.0):
        self.status, self.body, self.headers, self.delay = status, body, headers or {}, delay


class ChatServer:
    """A threaded chat-completions server on 127.0.0.1 that plays scripted replies.

    ``refuse``: response-format types answered with HTTP 400 naming the format, as servers
    without structured output do. With no reply left it answers ``default`` (a Reply, or HTTP
    500). Every request is recorded with its arrival time; ``peak`` is the most requests it had
    in flight at once.
    """

    def __init__(self):
        self.replies: list[Reply] = []
        self.default: Reply | None = None
        self.refuse: set[str] = set()
        self.requests: list[dict] = []
        self.in_flight = self.peak = 0
        lock = threading.Lock()
        chat = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                with lock:
                    chat.requests.append({"path": self.path, "headers": dict(self.headers),
                                          "body": body, "at": time.monotonic()})
                    chat.in_flight += 1
                    chat.peak = max(chat.peak, chat.in_flight)
                    kind = (body.get("response_format") or {}).get("type")
                    if kind in chat.refuse:
                        reply = Reply(400, {"error": {"message": f"response_format {kind} is "
                                                                 "not supported by this server"}})
                    elif chat.replies:
                        reply = chat.replies.pop(0)
                    else:
                        reply = chat.default or Reply(500, "no reply left")
                answered = False
                try:
                    time.sleep(reply.delay)
                    data = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                    data = data.encode()
                    with lock:  # done before the client can read it and send its next request
                        chat.in_flight -= 1
                        answered = True
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)
                finally:
                    if not answered:
                        with lock:
                            chat.in_flight -= 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def answer(self, *contents: str | dict, delay: float = 0.0) -> ChatServer:
        """Queue chat answers: dicts are sent as JSON text, strings as they are."""
        for content in contents:
            text = content if isinstance(content, str) else json.dumps(content)
            self.replies.append(Reply(200, completion(text), delay=delay))
        return self

    def fail(self, status: int, body="server trouble", headers=None, times: int = 1) -> ChatServer:
        """Queue ``times`` HTTP errors."""
        self.replies.extend(Reply(status, body, headers) for _ in range(times))
        return self


@pytest.fixture
def server():
    chat = ChatServer()
    chat.thread.start()
    yield chat
    chat.server.shutdown()
    chat.server.server_close()
    chat.thread.join()


@pytest.fixture
def extractor(server):
    return LLMExtractor(server.url, "test-model", retries=2, timeout=5, backoff=0.01)


def extract(extractor, text=MESSAGE):
    return extractor.extract(text, reference_time=NOW, speaker="alice")


def test_good_answer_gives_facts(server, extractor):
    server.answer(GOOD)
    facts = extract(extractor)
    assert all(isinstance(fact, ExtractedFact) for fact in facts)
    assert [(f.subject, f.predicate, f.object) for f in facts] == [
        ("alice", "lives_in", "Berlin"), ("alice", "works_at", "Acme")]
    assert facts[0].valid_from == datetime(2024, 5, 1, tzinfo=UTC)  # naive read as UTC
    assert facts[0].valid_to is None and facts[1].valid_from is None
    assert len(server.requests) == 1


def test_implements_the_extractor_protocol():
    extractor = LLMExtractor("http://127.0.0.1:1/v1", "m")
    assert isinstance(extractor, Extractor) and extractor.name == "llm"


@pytest.mark.parametrize("text, expected", [
    ("2024-05-01T10:00:00+02:00", datetime(2024, 5, 1, 8, 0, tzinfo=UTC)),
    ("2024-05-01T10:00:00Z", datetime(2024, 5, 1, 10, 0, tzinfo=UTC)),
    ("2024-05-01", datetime(2024, 5, 1, tzinfo=UTC)),
])
def test_times_are_read_as_utc(server, extractor, text, expected):
    fact = {**GOOD["facts"][0], "valid_from": text}
    server.answer({"facts": [fact]})
    assert extract(extractor)[0].valid_from == expected


def test_invalid_json_is_retried_with_the_error(server, extractor):
    server.answer('{"facts": [', GOOD)
    facts = extract(extractor)
    assert len(facts) == 2
    assert len(server.requests) == 2
    followup = server.requests[1]["body"]["messages"]
    assert followup[-2] == {"role": "assistant", "content": '{"facts": ['}
    assert followup[-1]["role"] == "user"
    assert "invalid JSON" in followup[-1]["content"]


def test_schema_error_is_retried_with_the_error(server, extractor):
    server.answer({"facts": [{"subject": "alice", "predicate": "likes"}]}, GOOD)
    assert len(extract(extractor)) == 2
    assert "facts.0.quote" in server.requests[1]["body"]["messages"][-1]["content"]


def test_unreadable_time_is_retried(server, extractor):
    fact = {**GOOD["facts"][0], "valid_from": "last May"}
    server.answer({"facts": [fact]}, GOOD)
    assert len(extract(extractor)) == 2
    assert "valid_from 'last May'" in server.requests[1]["body"]["messages"][-1]["content"]


def test_always_invalid_fails_after_retries(server, extractor):
    server.answer("not json", "still not json", '{"facts": "nope"}', GOOD)
    with pytest.raises(ExtractionFailed, match="3 attempts") as info:
        extract(extractor)
    assert len(server.requests) == 3
    assert "\n" not in str(info.value)
    assert "schema" in str(info.value)
    assert isinstance(info.value, GraphmemError)


def test_no_retries(server):
    server.answer("not json", GOOD)
    with pytest.raises(ExtractionFailed, match="1 attempts"):
        extract(LLMExtractor(server.url, "test-model", retries=0))
    assert len(server.requests) == 1


def test_fabricated_quote_is_rejected(server, extractor):
    server.answer(FABRICATED)
    report = extractor.extract_with_report(MESSAGE, reference_time=NOW, speaker="alice")
    assert [f.predicate for f in report.facts] == ["lives_in", "works_at"]
    assert [(r.fact.object, r.reason) for r in report.rejected] == [
        ("opera", "quote is not in the message")]


def test_extract_drops_rejected_facts(server, extractor):
    server.answer(FABRICATED)
    assert [f.predicate for f in extract(extractor)] == ["lives_in", "works_at"]


@pytest.mark.parametrize("quote, accepted", [
    ("I moved to Berlin in May 2024. I work at Acme now.", True),  # double space in message
    ("I work at Acme now. I love jazz.", True),  # newline in message
    ("  I love jazz. ", True),
    ("jazz", True),
    ("i love jazz.", False),  # case matters
    ("", False),
    ("   ", False),
])
def test_quote_matching_ignores_only_whitespace(server, extractor, quote, accepted):
    fact = {**GOOD["facts"][1], "quote": quote}
    server.answer({"facts": [fact]})
    report = extractor.extract_with_report(MESSAGE, reference_time=NOW, speaker="alice")
    assert (len(report.facts), len(report.rejected)) == ((1, 0) if accepted else (0, 1))


def test_request_carries_model_key_and_schema(server):
    server.answer(GOOD)
    extract(LLMExtractor(server.url + "/", "test-model", api_key="sk-test"))
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-test"
    body = request["body"]
    assert body["model"] == "test-model"
    system, user = body["messages"]
    assert system["role"] == "system" and "alice" in system["content"]
    assert "2026-03-10T12:00:00Z" in system["content"] and "lives_in" in system["content"]
    assert MESSAGE in user["content"]
    response_format = body["response_format"]
    assert response_format["type"] == "json_schema"
    schema = response_format["json_schema"]["schema"]
    assert schema["required"] == ["facts"] and schema["additionalProperties"] is False
    fact_schema = schema["$defs"]["ExtractedFact"]
    assert set(fact_schema["required"]) == set(ExtractedFact.model_fields) - {"sure", "doubt"}  # never asked of a model
    assert fact_schema["additionalProperties"] is False
    assert "default" not in json.dumps(schema)


def test_no_authorization_without_key(server, extractor):
    server.answer(GOOD)
    extract(extractor)
    assert "Authorization" not in server.requests[0]["headers"]


def test_server_errors_are_retried_then_one_clear_line(server, extractor):
    server.fail(500, "model overloaded\ntry later", times=4)
    with pytest.raises(ExtractionFailed, match="failed 4 times; last: HTTP 500") as info:
        extract(extractor)
    assert "model overloaded try later" in str(info.value)
    assert "\n" not in str(info.value)
    assert len(server.requests) == 4


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_retryable_status_then_success(server, extractor, status):
    server.fail(status, times=2).answer(GOOD)
    assert len(extract(extractor)) == 2
    assert len(server.requests) == 3


def test_retry_after_is_honoured(server, extractor):
    server.fail(429, {"error": "rate limited"}, headers={"Retry-After": "1"}).answer(GOOD)
    assert len(extract(extractor)) == 2
    first, second = server.requests
    assert second["at"] - first["at"] >= 0.95  # it waited what the server asked, not its backoff


def test_retry_after_is_capped_by_max_wait(server):
    slept = []
    extractor = LLMExtractor(server.url, "test-model", backoff=0.01, max_wait=0.05,
                             sleep=lambda seconds: (slept.append(seconds), time.sleep(seconds)))
    server.fail(503, headers={"Retry-After": "3600"}).answer(GOOD)
    assert len(extract(extractor)) == 2
    assert slept == [0.05]


@pytest.mark.parametrize(("header", "seconds"), [
    ("7", 7.0), ("0", 0.0), ("-3", 0.0), ("soon", None), (None, None),
    ("Tue, 10 Mar 2026 12:00:30 GMT", 30.0),
])
def test_retry_after_header_forms(header, seconds):
    assert retry_after(header, now=NOW) == seconds


def test_a_slow_answer_times_out_and_is_retried(server):
    # a timeout a loaded machine still answers within, and a first answer far slower than it
    extractor = LLMExtractor(server.url, "test-model", timeout=1.5, backoff=0.01)
    server.answer(GOOD, delay=4.0).answer(GOOD)
    assert len(extract(extractor)) == 2
    assert len(server.requests) == 2


def test_always_slow_fails_with_the_timeout_named(server):
    extractor = LLMExtractor(server.url, "test-model", timeout=0.2, attempts=2, backoff=0.01)
    server.default = server.answer(GOOD, delay=0.6).replies.pop()
    with pytest.raises(ExtractionFailed, match=r"failed 2 times; last: no answer within 0.2 s"):
        extract(extractor)


def test_client_errors_are_not_retried(server, extractor):
    server.fail(401, {"error": "invalid api key"})
    with pytest.raises(ExtractionFailed, match="HTTP 401.*invalid api key"):
        extract(extractor)
    assert len(server.requests) == 1


def test_malformed_answer_json_is_sent_back(server, extractor):
    server.answer('{"facts": [{"op": "assert", "subject": "alice",', GOOD)
    assert len(extract(extractor)) == 2
    assert "invalid JSON" in server.requests[1]["body"]["messages"][-1]["content"]


def test_refused_json_schema_falls_back_to_json_object(server, extractor):
    server.refuse = {"json_schema"}
    server.answer(GOOD, GOOD)
    assert len(extract(extractor)) == 2
    kinds = [r["body"].get("response_format", {}).get("type") for r in server.requests]
    assert kinds == ["json_schema", "json_object"]
    assert extractor.client.response_format == "json_object"
    extract(extractor)  # remembered: no second refusal
    assert server.requests[-1]["body"]["response_format"] == {"type": "json_object"}


def test_refused_response_format_falls_back_to_plain(server, extractor):
    server.refuse = {"json_schema", "json_object"}
    server.answer("Here you go: " + json.dumps(GOOD))
    assert len(extract(extractor)) == 2
    assert "response_format" not in server.requests[-1]["body"]
    assert extractor.client.response_format == "plain"


def test_non_chat_answer_is_an_error(server, extractor):
    server.replies.append(Reply(200, "<html>proxy page</html>"))
    with pytest.raises(ExtractionFailed, match="chat-completions.*proxy page"):
        extract(extractor)


def test_fallback_supplies_facts_with_a_note(server):
    extractor = LLMExtractor(server.url, "test-model", attempts=2, backoff=0.01,
                             fallback=RuleExtractor())
    server.fail(500, times=2)
    result = extractor.extract_result("I live in Oslo.", reference_time=NOW, speaker="alice")
    assert [(f.subject, f.predicate, f.object) for f in result.facts] == [
        ("alice", "lives_in", "Oslo")]
    assert "failed 2 times" in result.note and "HTTP 500" in result.note
    assert "rules extractor" in result.note


def test_fallback_does_not_hide_a_wrong_address():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    extractor = LLMExtractor(f"http://127.0.0.1:{port}/v1", "m", fallback=RuleExtractor())
    with pytest.raises(EndpointUnreachable, match="cannot reach"):
        extract(extractor)


def test_extract_many_keeps_order_and_bounds_concurrency(server):
    extractor = LLMExtractor(server.url, "test-model", concurrency=3, backoff=0.01)
    texts = [f"I live in City{n}." for n in range(8)]
    for _n in range(8):
        server.answer({"facts": []}, delay=0.15)
    server.default = None
    results = extractor.extract_many([(t, NOW, "alice") for t in texts])
    assert len(results) == 8 and all(r.facts == [] and r.note is None for r in results)
    assert len(server.requests) == 8
    assert 1 < server.peak <= 3
    sent = [r["body"]["messages"][-1]["content"].rsplit("\n", 1)[1] for r in server.requests]
    assert sorted(sent) == sorted(texts)


def test_extract_many_falls_back_per_message(server):
    extractor = LLMExtractor(server.url, "test-model", concurrency=1, attempts=1, backoff=0.01,
                             fallback=RuleExtractor())
    server.answer({"facts": []}).fail(503).answer({"facts": []})
    results = extractor.extract_many([("Hello.", NOW, "u"), ("I work at Acme.", NOW, "u"),
                                      ("Bye.", NOW, "u")])
    assert [r.note is not None for r in results] == [False, True, False]
    assert [(f.predicate, f.object) for f in results[1].facts] == [("works_at", "Acme")]


def test_extract_many_without_fallback_names_the_message(server):
    extractor = LLMExtractor(server.url, "test-model", concurrency=1, attempts=1)
    server.answer({"facts": []}).fail(500)
    with pytest.raises(ExtractionFailed, match="message 2: "):
        extractor.extract_many([("a", NOW, "u"), ("b", NOW, "u")])


def test_the_prompt_carries_resolved_time_phrases(server, extractor):
    server.answer({"facts": []})
    extractor.extract("I went to Rome last week.", reference_time=NOW)
    user = server.requests[0]["body"]["messages"][-1]["content"]
    assert "'last week' = [2026-03-02T00:00:00Z, 2026-03-09T00:00:00Z)" in user


def test_connection_refused_is_an_error():
    with socket.socket() as sock:  # a port that was free a moment ago and is now closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(EndpointUnreachable, match="cannot reach LLM endpoint"):
        extract(LLMExtractor(f"http://127.0.0.1:{port}/v1", "test-model", timeout=5))


def test_from_env(monkeypatch, server):
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", server.url)
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "env-model")
    monkeypatch.setenv("GRAPHMEM_LLM_API_KEY", "sk-env")
    extractor = LLMExtractor.from_env()
    assert (extractor.base_url, extractor.model, extractor.api_key) == (
        server.url, "env-model", "sk-env")
    server.answer(GOOD)
    assert len(extract(extractor)) == 2
    assert server.requests[0]["headers"]["Authorization"] == "Bearer sk-env"


def test_from_env_key_is_optional(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "m")
    monkeypatch.delenv("GRAPHMEM_LLM_API_KEY", raising=False)
    assert LLMExtractor.from_env().api_key is None


@pytest.mark.parametrize("unset, named", [
    (["GRAPHMEM_LLM_BASE_URL"], "GRAPHMEM_LLM_BASE_URL not set"),
    (["GRAPHMEM_LLM_MODEL"], "GRAPHMEM_LLM_MODEL not set"),
    (["GRAPHMEM_LLM_BASE_URL", "GRAPHMEM_LLM_MODEL"], "BASE_URL and GRAPHMEM_LLM_MODEL not set"),
])
def test_from_env_missing(monkeypatch, unset, named):
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "m")
    for name in unset:
        monkeypatch.delenv(name)
    with pytest.raises(InvalidInput, match=named):
        LLMExtractor.from_env()


@pytest.mark.parametrize("base_url, model, options", [
    ("file:///etc", "m", {}), ("localhost:8000", "m", {}), ("http://127.0.0.1:1", "", {}),
    ("http://h/v1", "m", {"concurrency": 0}), ("http://h/v1", "m", {"attempts": 0}),
    ("http://h/v1", "m", {"timeout": 0}), ("http://h/v1", "m", {"retries": -1}),
])
def test_bad_settings(base_url, model, options):
    with pytest.raises(InvalidInput):
        LLMExtractor(base_url, model, **options)


def test_from_env_timeout_and_concurrency(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "m")
    monkeypatch.setenv("GRAPHMEM_LLM_TIMEOUT", "2.5")
    monkeypatch.setenv("GRAPHMEM_LLM_CONCURRENCY", "7")
    extractor = LLMExtractor.from_env()
    assert (extractor.timeout, extractor.concurrency) == (2.5, 7)
    monkeypatch.setenv("GRAPHMEM_LLM_CONCURRENCY", "many")
    with pytest.raises(InvalidInput, match="GRAPHMEM_LLM_CONCURRENCY='many' is not a number"):
        LLMExtractor.from_env()


def test_ingest_goes_on_with_a_note_when_the_model_fails(server, tmp_path, monkeypatch):
    """One message whose answers all fail is read by the rules extractor; the summary says so."""
    from click.testing import CliRunner

    from graphmem.cli import main

    chat = tmp_path / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(m) for m in [
        {"role": "user", "content": "I live in Oslo.", "chat_time": "2025-01-10"},
        {"role": "user", "content": "I work at Acme.", "chat_time": "2025-01-11"},
    ]) + "\n")
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", server.url)
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "test-model")
    monkeypatch.setenv("GRAPHMEM_LLM_CONCURRENCY", "1")
    oslo = {"facts": [{"op": "assert", "subject": "user", "predicate": "lives_in",
                       "object": "Oslo", "valid_from": None, "valid_to": None,
                       "quote": "I live in Oslo."}]}
    server.answer(oslo)
    server.fail(500, times=3).answer("not json", "still not json", "nor this")  # message 2
    store = str(tmp_path / "store")
    result = CliRunner().invoke(main, ["--store", store, "ingest", str(chat), "--extractor", "llm",
                                       "--approve"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "facts: 2 proposed, 2 approved, 0 pending" in result.stdout
    printed = " ".join(result.stdout.split())
    assert "note: " + str(chat) + ":2: model 'test-model' gave no usable answer" in printed
    assert printed.count("note:") == 1 and "facts from the rules extractor instead" in printed
    beliefs = CliRunner().invoke(main, ["--store", store, "beliefs", "--json"]).stdout
    assert {(b["predicate"], b["object"]) for b in json.loads(beliefs)} == {
        ("lives_in", "Oslo"), ("works_at", "Acme")}


def test_eval_extract_scores_the_llm_extractor(server, tmp_path, monkeypatch):
    """`graphmem eval extract --extractor llm` sends every message to the endpoint."""
    from click.testing import CliRunner

    from graphmem.cli import main

    labelled = tmp_path / "set.jsonl"
    rows = [{"id": f"m{n}", "text": f"I live in Town{n}.", "chat_time": "2025-01-10T00:00:00Z",
             "speaker": "user", "facts": [{"op": "assert", "subject": "user",
                                           "predicate": "lives_in", "object": f"Town{n}",
                                           "valid_from": None, "valid_to": None}]}
            for n in range(3)]
    labelled.write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", server.url)
    monkeypatch.setenv("GRAPHMEM_LLM_MODEL", "test-model")
    town1 = {"facts": [{"op": "assert", "subject": "user", "predicate": "lives_in",
                        "object": "Town1", "valid_from": None, "valid_to": None,
                        "quote": "I live in Town1."}]}
    server.default = Reply(200, completion(json.dumps({"facts": []})))
    server.answer({"facts": []}, town1)  # messages go one at a time, in order
    monkeypatch.setenv("GRAPHMEM_LLM_CONCURRENCY", "1")
    result = CliRunner().invoke(main, ["eval", "extract", str(labelled), "--extractor", "llm",
                                       "--json"])
    assert result.exit_code == 0, result.output
    [score] = json.loads(result.stdout)
    assert score["extractor"] == "llm" and len(server.requests) == 3
    assert score["strict"]["overall"] == {"right": 1, "wrong": 0, "missed": 2,
                                          "precision": 1.0, "recall": 0.3333}
