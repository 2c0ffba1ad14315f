"""LLMExtractor against a local server that replays recorded chat-completions answers."""

from __future__ import annotations

import json
import socket
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphmem.errors import GraphmemError, InvalidInput
from graphmem.extract_llm import ExtractionFailed, LLMExtractor
from graphmem.extract_rules import ExtractedFact, Extractor

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


class Replay:
    """A chat-completions server on 127.0.0.1 that answers from a list and records requests."""

    def __init__(self):
        self.replies: list[tuple[int, object]] = []
        self.requests: list[dict] = []
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                replay.requests.append({
                    "path": self.path,
                    "headers": dict(self.headers),
                    "body": json.loads(self.rfile.read(length)),
                })
                status, body = replay.replies.pop(0) if replay.replies else (500, "no reply left")
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def answer(self, *contents: str | dict) -> Replay:
        """Queue chat answers: dicts are sent as JSON text, strings as they are."""
        for content in contents:
            text = content if isinstance(content, str) else json.dumps(content)
            self.replies.append((200, completion(text)))
        return self


@pytest.fixture
def server():
    replay = Replay()
    replay.thread.start()
    yield replay
    replay.server.shutdown()
    replay.server.server_close()
    replay.thread.join()


@pytest.fixture
def extractor(server):
    return LLMExtractor(server.url, "test-model", retries=2, timeout=5)


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
    assert set(fact_schema["required"]) == set(ExtractedFact.model_fields)
    assert fact_schema["additionalProperties"] is False
    assert "default" not in json.dumps(schema)


def test_no_authorization_without_key(server, extractor):
    server.answer(GOOD)
    extract(extractor)
    assert "Authorization" not in server.requests[0]["headers"]


def test_http_error_is_one_clear_line(server, extractor):
    server.replies.append((500, "model overloaded\ntry later"))
    with pytest.raises(ExtractionFailed, match="HTTP 500") as info:
        extract(extractor)
    assert "model overloaded try later" in str(info.value)
    assert "\n" not in str(info.value)
    assert len(server.requests) == 1


def test_http_401_names_status(server, extractor):
    server.replies.append((401, {"error": "invalid api key"}))
    with pytest.raises(ExtractionFailed, match="HTTP 401.*invalid api key"):
        extract(extractor)


def test_non_chat_answer_is_an_error(server, extractor):
    server.replies.append((200, "<html>proxy page</html>"))
    with pytest.raises(ExtractionFailed, match="chat-completions.*proxy page"):
        extract(extractor)


def test_connection_refused_is_an_error():
    with socket.socket() as sock:  # a port that was free a moment ago and is now closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ExtractionFailed, match="cannot reach LLM endpoint"):
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


@pytest.mark.parametrize("base_url, model", [("file:///etc", "m"), ("localhost:8000", "m"),
                                             ("http://127.0.0.1:1", "")])
def test_bad_settings(base_url, model):
    with pytest.raises(InvalidInput):
        LLMExtractor(base_url, model)
