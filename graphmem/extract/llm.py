"""Fact extraction by a language model behind any OpenAI-compatible chat-completions endpoint.

Only the standard library speaks HTTP, so no vendor SDK is needed. The model is asked for JSON
matching a schema; output that is not valid JSON or does not fit the schema is sent back with
the problem described, a few times, before :class:`ExtractionFailed` is raised. A fact whose
quote is not a verbatim part of the message is rejected rather than trusted.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import GraphmemError, InvalidInput, InvalidTime
from .facts import ExtractedFact
from ..timeutil import iso, parse_time

__all__ = ["ExtractionFailed", "ExtractionReport", "LLMExtractor", "RejectedFact"]

SYSTEM_PROMPT = """\
You extract personal facts from one chat message and answer with JSON only, matching the schema.

Each fact is subject -[predicate]-> object:
- subject and object are short names ("{speaker}", "Berlin", "Acme Corp", "jazz").
- predicate is snake_case; prefer lives_in, works_at, studies_at, married_to, is_called, status,
  likes, dislikes, knows, traveled_to, visited, met, graduated_from.
- The message is written by "{speaker}": first person (I, me, my, we) means "{speaker}".
- op is "assert" for something that is or became true, "end" for something that stopped being
  true ("I left Acme", "I no longer live in Paris"); an "end" may leave object null when the
  message does not say which one ended.
- valid_from / valid_to: when the fact started / stopped being true, as ISO 8601 with a "Z"
  (UTC), or null when the message does not say. Resolve relative times ("last May",
  "yesterday", "two years ago") against the message time {now}.
- quote: the exact sentence of the message the fact comes from, copied character for character.
Extract only what the message states about people; no guesses, no general knowledge.
If there is nothing to extract, answer {{"facts": []}}."""


class ExtractionFailed(GraphmemError):
    """The language model could not be reached or gave no usable answer."""


class ExtractionResult(BaseModel):
    """What the model must answer: the facts it found."""

    model_config = ConfigDict(extra="forbid")

    facts: list[ExtractedFact]


class RejectedFact(BaseModel):
    """A fact the model proposed that was not accepted, and why."""

    model_config = ConfigDict(frozen=True)

    fact: ExtractedFact
    reason: str


class ExtractionReport(BaseModel):
    """The facts accepted from one message and those rejected."""

    model_config = ConfigDict(frozen=True)

    facts: list[ExtractedFact]
    rejected: list[RejectedFact]


class LLMExtractor:
    """Extract facts with a chat model at ``base_url`` (e.g. ``http://localhost:8000/v1``)."""

    name = "llm"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 retries: int = 2, timeout: float = 60):
        if not base_url.startswith(("http://", "https://")):
            raise InvalidInput(f"LLM base URL {base_url!r} must start with http:// or https://")
        if not model:
            raise InvalidInput("no LLM model name given; pass the name the endpoint serves")
        if retries < 0:
            raise InvalidInput(f"retries must be 0 or more, got {retries}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key or None
        self.retries = retries
        self.timeout = timeout

    @classmethod
    def from_env(cls, **options) -> LLMExtractor:
        """Build from GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_API_KEY."""
        base_url = os.environ.get("GRAPHMEM_LLM_BASE_URL", "").strip()
        model = os.environ.get("GRAPHMEM_LLM_MODEL", "").strip()
        missing = [name for name, value in
                   (("GRAPHMEM_LLM_BASE_URL", base_url), ("GRAPHMEM_LLM_MODEL", model))
                   if not value]
        if missing:
            raise InvalidInput(
                f"{' and '.join(missing)} not set; set GRAPHMEM_LLM_BASE_URL to an "
                "OpenAI-compatible endpoint (e.g. http://localhost:8000/v1) and "
                "GRAPHMEM_LLM_MODEL to its model name"
            )
        api_key = os.environ.get("GRAPHMEM_LLM_API_KEY", "").strip() or None
        return cls(base_url, model, api_key, **options)

    def __repr__(self) -> str:
        return f"LLMExtractor({self.base_url!r}, {self.model!r})"

    def extract(self, text: str, *, reference_time: datetime,
                speaker: str = "user") -> list[ExtractedFact]:
        """Return the facts stated in ``text``; unverifiable ones are dropped."""
        return self.extract_with_report(text, reference_time=reference_time, speaker=speaker).facts

    def extract_with_report(self, text: str, *, reference_time: datetime,
                            speaker: str = "user") -> ExtractionReport:
        """Return the accepted facts of ``text`` together with the rejected ones and why."""
        now = parse_time(reference_time)
        system = SYSTEM_PROMPT.format(speaker=speaker, now=f"{iso(now)} ({now:%A})")
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Message time: {iso(now)}\nMessage:\n{text}"},
        ]
        problem = ""
        for _attempt in range(self.retries + 1):
            content = self._complete(messages)
            try:
                result = _parse(content)
            except ValueError as exc:
                problem = str(exc)
                messages += [
                    {"role": "assistant", "content": content},
                    {"role": "user", "content": f"Your answer was not usable: {problem}. "
                     "Answer again with JSON only, matching the schema."},
                ]
                continue
            return _check_quotes(result.facts, text)
        raise ExtractionFailed(
            f"model {self.model!r} gave no usable answer in {self.retries + 1} attempts; "
            f"last problem: {_one_line(problem, 300)}"
        )

    def _complete(self, messages: list[dict]) -> str:
        """POST one chat completion and return the answer's text."""
        url = f"{self.base_url}/chat/completions"
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "extraction", "strict": True, "schema": RESPONSE_SCHEMA,
            }},
        }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            excerpt = _one_line(exc.read().decode("utf-8", "replace"), 200)
            raise ExtractionFailed(
                f"LLM endpoint {url} answered HTTP {exc.code}: {excerpt or exc.reason}"
            ) from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ExtractionFailed(
                f"cannot reach LLM endpoint {url}: {reason}; check the base URL and that the "
                "server is running"
            ) from exc
        try:
            content = json.loads(raw)["choices"][0]["message"]["content"]
        except (ValueError, LookupError, TypeError) as exc:
            excerpt = _one_line(raw.decode("utf-8", "replace"), 200)
            raise ExtractionFailed(
                f"LLM endpoint {url} did not answer like a chat-completions API: {excerpt}"
            ) from exc
        if not isinstance(content, str):
            raise ExtractionFailed(f"model {self.model!r} returned no text (refused or empty)")
        return content


def _strict_schema(schema: Any) -> Any:
    """The pydantic schema in the strict form structured outputs need: all keys required."""
    if isinstance(schema, list):
        return [_strict_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: _strict_schema(value) for key, value in schema.items() if key != "default"}
    if "properties" in schema:
        result["required"] = list(schema["properties"])
        result["additionalProperties"] = False
    return result


RESPONSE_SCHEMA = _strict_schema(ExtractionResult.model_json_schema())


def _parse(content: str) -> ExtractionResult:
    """Read the model's answer; a ValueError says what is wrong with it, for the model."""
    text = content.strip()
    if text.startswith("```"):  # some servers ignore response_format and fence the JSON
        text = text.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("facts"), list):
        for fact in data["facts"]:
            if isinstance(fact, dict):
                for key in ("valid_from", "valid_to"):
                    if isinstance(fact.get(key), str):
                        try:
                            fact[key] = parse_time(fact[key])  # naive means UTC
                        except InvalidTime as exc:
                            raise ValueError(f"{key} {fact[key]!r}: {exc}") from None
    try:
        return ExtractionResult.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, error['loc'])) or 'answer'}: {error['msg']}"
            for error in exc.errors()[:5]
        )
        raise ValueError(f"does not match the schema ({problems})") from None


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _check_quotes(facts: list[ExtractedFact], text: str) -> ExtractionReport:
    """Keep the facts whose quote appears verbatim in ``text`` (whitespace aside)."""
    message = _normalise(text)
    accepted, rejected = [], []
    for fact in facts:
        quote = _normalise(fact.quote)
        if not quote:
            rejected.append(RejectedFact(fact=fact, reason="empty quote"))
        elif quote not in message:
            rejected.append(RejectedFact(fact=fact, reason="quote is not in the message"))
        else:
            accepted.append(fact)
    return ExtractionReport(facts=accepted, rejected=rejected)


def _one_line(text: str, limit: int) -> str:
    text = _normalise(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
