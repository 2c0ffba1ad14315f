"""A small client for OpenAI-compatible chat-completions endpoints (OpenAI, Ollama, vLLM,
llama.cpp's server), on the standard library alone.

It posts through :class:`graphmem._openai_api.Endpoint` (retries with backoff, ``Retry-After``,
one-line errors), and asks for structured output the strongest way the server accepts:
``json_schema``, else ``json_object``, else plain text, remembering what worked.

Internal: used by :class:`graphmem.extract.LLMExtractor`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from .._openai_api import Endpoint, one_line, retry_after
from ..errors import GraphmemError

__all__ = ["ChatClient", "EndpointUnreachable", "ExtractionFailed", "retry_after"]

#: Structured-output requests, strongest first.
FORMATS = ("json_schema", "json_object", "plain")
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


class ChatClient:
    """POST chat completions to ``base_url`` (e.g. ``http://localhost:8000/v1``)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 timeout: float = 60, attempts: int = 4, backoff: float = 1.0,
                 max_wait: float = 60, sleep: Callable[[float], None] = time.sleep):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.endpoint = Endpoint(self.url, api_key, name="LLM endpoint", failed=ExtractionFailed,
                                 unreachable=EndpointUnreachable, timeout=timeout, attempts=attempts,
                                 backoff=backoff, max_wait=max_wait, sleep=sleep)
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

    def _body(self, messages: list[dict[str, Any]], mode: str, schema: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0}
        if mode == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "extraction", "strict": True, "schema": schema}}
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    def _post(self, messages: list[dict[str, Any]], mode: str, schema: dict[str, Any]) -> str:
        def refused(code: int, text: str) -> _Refused | None:  # the format asked for, not the request
            format_words = code in (400, 422) and any(word in text.lower() for word in _FORMAT_WORDS)
            return _Refused(f"HTTP {code}: {text}") if format_words and mode != "plain" else None

        return self._content(self.endpoint.post(self._body(messages, mode, schema), refused))

    def _content(self, raw: bytes) -> str:
        try:
            content = json.loads(raw)["choices"][0]["message"]["content"]
        except (ValueError, LookupError, TypeError) as exc:
            excerpt = one_line(raw.decode("utf-8", "replace"))
            raise ExtractionFailed(
                f"LLM endpoint {self.url} did not answer like a chat-completions API: {excerpt}"
            ) from exc
        if not isinstance(content, str):
            raise ExtractionFailed(f"model {self.model!r} returned no text (refused or empty)")
        return content
