"""The one client graphmem has for OpenAI-compatible HTTP endpoints (chat completions, embeddings).

On the standard library alone. It retries what is worth retrying (HTTP 408, 409, 425, 429, 5xx,
timeouts, dropped connections) with exponential backoff, waiting what a ``Retry-After`` header
asks when there is one (capped), and turns every failure into one line naming the endpoint, in
the error type its caller chose. A refused connection is not retried: nothing listens there.

Internal: the LLM extractor's chat client and the recall's embedder post through it.
"""

from __future__ import annotations

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .core.names import clipped
from .errors import GraphmemError

__all__ = ["Endpoint", "one_line", "retry_after"]

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def one_line(text: str, limit: int = 200) -> str:
    """Text folded to one line of at most ``limit`` characters (an excerpt of an answer)."""
    return clipped(" ".join(text.split()), limit)


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


class Endpoint:
    """POST JSON to ``url`` (one endpoint of an OpenAI-compatible API) with retries.

    ``name`` says what the endpoint is in messages ("LLM endpoint"); ``failed`` is the error raised
    for a failure, ``unreachable`` (default ``failed``) for a refused connection.
    """

    def __init__(self, url: str, api_key: str | None = None, *, name: str, failed: type[GraphmemError],
                 unreachable: type[GraphmemError] | None = None, timeout: float = 60, attempts: int = 4,
                 backoff: float = 1.0, max_wait: float = 60, sleep: Callable[[float], None] = time.sleep):
        self.url, self.api_key, self.name = url, api_key or None, name
        self.failed, self.unreachable = failed, unreachable or failed
        self.timeout, self.attempts, self.backoff = timeout, attempts, backoff
        self.max_wait, self.sleep = max_wait, sleep

    def post(self, body: dict[str, Any],
             refused: Callable[[int, str], BaseException | None] = lambda code, text: None) -> bytes:
        """The answer's bytes. ``refused(status, text)`` may name an error to raise at once for an
        HTTP error answer (a request the server will never accept as sent)."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = json.dumps(body).encode()
        problem = ""
        for attempt in range(self.attempts):
            wait = None
            request = urllib.request.Request(self.url, data, headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    answer: bytes = response.read()
                    return answer
            except urllib.error.HTTPError as exc:
                text = one_line(exc.read().decode("utf-8", "replace"))
                stop = refused(exc.code, text)
                if stop is not None:
                    raise stop from None
                problem = f"HTTP {exc.code}: {text or exc.reason}"
                if exc.code not in RETRY_STATUS:
                    raise self.failed(f"{self.name} {self.url} answered {problem}") from None
                wait = retry_after(exc.headers.get("Retry-After"))
            except TimeoutError as exc:
                problem = f"no answer within {self.timeout:g} s ({exc or 'timed out'})"
            except urllib.error.URLError as exc:
                reason = exc.reason
                if isinstance(reason, (TimeoutError, socket.timeout)):
                    problem = f"no answer within {self.timeout:g} s"
                elif isinstance(reason, ConnectionRefusedError):
                    raise self.unreachable(
                        f"cannot reach {self.name} {self.url}: {reason}; check the base URL and "
                        "that the server is running") from None
                else:
                    problem = f"connection failed ({reason})"
            except (ConnectionError, OSError) as exc:
                problem = f"connection failed ({exc})"
            if attempt + 1 < self.attempts:
                if wait is None:
                    wait = self.backoff * 2 ** attempt * (0.5 + random.random() / 2)
                self.sleep(min(wait, self.max_wait))
        raise self.failed(f"{self.name} {self.url} failed {self.attempts} times; last: {problem}")
