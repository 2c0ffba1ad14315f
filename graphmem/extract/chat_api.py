"""A small client for OpenAI-compatible chat-completions endpoints (OpenAI, Ollama, vLLM,
llama.cpp's server), on the standard library alone.

It retries what is worth retrying (HTTP 429, 5xx, timeouts, dropped connections) with
exponential backoff, waiting what a ``Retry-After`` header asks when there is one; and it asks
for structured output the strongest way the server accepts: ``json_schema``, else
``json_object``, else plain text, remembering what worked.

Internal: used by :class:`graphmem.extract.LLMExtractor`.
"""

from __future__ import annotations

import email.utils
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..errors import GraphmemError

__all__ = ["ChatClient", "EndpointUnreachable", "ExtractionFailed"]

#: Structured-output requests, strongest first.
FORMATS = ("json_schema", "json_object", "plain")
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "structured",
                 "grammar", "not supported", "unsupported")


class ExtractionFailed(GraphmemError):
    """The language model could not be reached or gave no usable answer."""

    #: Raised for a batch (``extract_many``): which message failed (from 0), and why.
    index: int | None = None
    reason: str | None = None


class EndpointUnreachable(ExtractionFailed):
    """Nothing listens at the endpoint: a setting to fix, not a message to skip."""


class _Refused(Exception):
    """The server refused the requested response format."""


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class ChatClient:
    """POST chat completions to ``base_url`` (e.g. ``http://localhost:8000/v1``)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 timeout: float = 60, attempts: int = 4, backoff: float = 1.0,
                 max_wait: float = 60, sleep: Callable[[float], None] = time.sleep):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key or None
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        self.max_wait = max_wait
        self.sleep = sleep
        self._format = 0  # index into FORMATS: the strongest one the server has not refused
        self._lock = threading.Lock()

    @property
    def response_format(self) -> str:
        """The structured-output mode in use: json_schema, json_object or plain."""
        return FORMATS[self._format]

    def complete(self, messages: list[dict[str, Any]], schema: dict[str, Any]) -> str:
        """The answer's text; refusals of a response format step down to the next one."""
        while True:
            level = self._format
            try:
                return self._post(messages, FORMATS[level], schema)
            except _Refused as exc:
                with self._lock:
                    if self._format == level:
                        if level + 1 >= len(FORMATS):
                            raise ExtractionFailed(
                                f"LLM endpoint {self.url} refused even a plain request: {exc}"
                            ) from None
                        self._format = level + 1

    def _body(self, messages: list[dict[str, Any]], mode: str, schema: dict[str, Any]) -> bytes:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0}
        if mode == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "extraction", "strict": True, "schema": schema}}
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        return json.dumps(body).encode()

    def _post(self, messages: list[dict[str, Any]], mode: str, schema: dict[str, Any]) -> str:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = self._body(messages, mode, schema)
        problem = ""
        for attempt in range(self.attempts):
            wait = None
            request = urllib.request.Request(self.url, data, headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return self._content(response.read())
            except urllib.error.HTTPError as exc:
                text = _one_line(exc.read().decode("utf-8", "replace"))
                if exc.code in (400, 422) and mode != "plain" and any(
                        word in text.lower() for word in _FORMAT_WORDS):
                    raise _Refused(f"HTTP {exc.code}: {text}") from None
                problem = f"HTTP {exc.code}: {text or exc.reason}"
                if exc.code not in _RETRY_STATUS:
                    raise ExtractionFailed(f"LLM endpoint {self.url} answered {problem}") from None
                wait = retry_after(exc.headers.get("Retry-After"))
            except TimeoutError as exc:
                problem = f"no answer within {self.timeout:g} s ({exc or 'timed out'})"
            except urllib.error.URLError as exc:
                reason = exc.reason
                if isinstance(reason, (TimeoutError, socket.timeout)):
                    problem = f"no answer within {self.timeout:g} s"
                elif isinstance(reason, ConnectionRefusedError):
                    raise EndpointUnreachable(
                        f"cannot reach LLM endpoint {self.url}: {reason}; check the base URL and "
                        "that the server is running") from None
                else:
                    problem = f"connection failed ({reason})"
            except (ConnectionError, OSError) as exc:
                problem = f"connection failed ({exc})"
            if attempt + 1 < self.attempts:
                if wait is None:
                    wait = self.backoff * 2 ** attempt * (0.5 + random.random() / 2)
                self.sleep(min(wait, self.max_wait))
        raise ExtractionFailed(f"LLM endpoint {self.url} failed {self.attempts} times; "
                               f"last: {problem}")

    def _content(self, raw: bytes) -> str:
        try:
            content = json.loads(raw)["choices"][0]["message"]["content"]
        except (ValueError, LookupError, TypeError) as exc:
            excerpt = _one_line(raw.decode("utf-8", "replace"))
            raise ExtractionFailed(
                f"LLM endpoint {self.url} did not answer like a chat-completions API: {excerpt}"
            ) from exc
        if not isinstance(content, str):
            raise ExtractionFailed(f"model {self.model!r} returned no text (refused or empty)")
        return content
