"""Fact extraction by a language model behind any OpenAI-compatible chat-completions endpoint.

The model is asked for JSON matching a schema (:class:`~graphmem.extract._chat_api.ChatClient`
steps down to ``json_object`` or plain text where a server refuses the schema, and retries
429, 5xx and timeouts with backoff). Output that is not valid JSON or does not fit the schema is
sent back with the problem described, a few times. A fact whose quote is not a verbatim part of
the message is rejected rather than trusted. When the model still fails for a message, its facts
come from a fallback extractor (the offline rules, by default) with a note saying which message
and why, so one bad answer does not stop an ingest. :meth:`LLMExtractor.extract_many` works on
many messages with a bounded number of requests in flight.

Internal: import these from :mod:`graphmem.extract`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..core.names import clipped
from ..core.times import iso, parse_time
from ..errors import InvalidInput, InvalidTime
from ..when import resolve_times
from ._chat_api import ChatClient, EndpointUnreachable, ExtractionFailed
from ._facts import Context, ExtractedFact, Extractor, MessageResult, Turn, takes_context

__all__ = ["EndpointUnreachable", "ExtractionFailed", "ExtractionReport", "LLMExtractor", "RejectedFact"]

SYSTEM_PROMPT = """\
You extract personal facts from one chat message and answer with JSON only, matching the schema.

Each fact is subject -[predicate]-> object:
- subject and object are short names as written ("{speaker}", "Berlin", "Acme Corp", "jazz"),
  without a leading "the".
- predicate is one of: lives_in, works_at, studies_at, married_to, dating, likes, dislikes,
  traveled_to (trips and visits), met (meeting a named person), graduated_from, is_called,
  has_pet (object: the animal as said, "cat"), owns (a possession worth remembering, "car"),
  does (a hobby or regular activity as its noun or -ing form: "running", "guitar"), member_of
  (club, team, choir, church, gym), attended (an event: "Jess's wedding", "Coldplay concert").
- The message is written by "{speaker}": first person (I, me, my, we, our) means "{speaker}".
  Facts about a named other person ("my sister Ana lives in Rome") have that person as subject.
{context}
- op is "assert" for something that is or became true, "end" for something that stopped being
  true ("I left Acme", "I don't like jazz anymore", "I used to live in Oslo", "we broke up").
  A move from A to B ends A and asserts B. An "end" may leave object null when the message does
  not name it ("I quit my job").
- Times are ISO 8601 with a "Z" (UTC) or null. An assert without a time phrase has null
  valid_from (it holds from the message time); with one, valid_from is the start of the period
  the phrase names. An end has null valid_from and valid_to = when it stopped (null: now).
  A trip, a meeting or a graduation has valid_from and valid_to = the period of its time phrase.
  Resolve relative times against the message time {now}; resolved phrases are listed with it.
- Say nothing for hedged, hypothetical, questioned or negated statements ("I might move",
  "should I quit?", "I don't live in Paris"), nor for plans, wishes, compliments and reactions
  ("love your dress!"), nor filler ("sounds like a plan"). Objects are short noun phrases, never
  a clause or a pronoun: resolve "it"/"that" from the previous message, or say nothing.
- quote: the exact sentence of the message the fact comes from, copied character for character.
If there is nothing to extract, answer {{"facts": []}}."""


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


def _hints(text: str, now: datetime) -> str:
    """The time phrases of ``text`` as graphmem reads them, for the model to reuse."""
    spans = resolve_times(text, now)
    return "; ".join(f"{s.text!r} = [{iso(s.start)}, {iso(s.end) or 'open'})" for s in spans)


class LLMExtractor:
    """Extract facts with a chat model at ``base_url`` (e.g. ``http://localhost:8000/v1``).

    ``retries``: how often an unusable answer is sent back to the model; ``attempts``: how often
    one request is tried on 429, 5xx or a timeout; ``concurrency``: requests in flight in
    :meth:`extract_many`; ``fallback``: the extractor used, with a note, for a message the model
    fails on (None: raise :class:`ExtractionFailed` instead).
    """

    name = "llm"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 retries: int = 2, timeout: float = 60, attempts: int = 4, backoff: float = 1.0,
                 max_wait: float = 60, concurrency: int = 4,
                 fallback: Extractor | None = None, sleep: Callable[[float], None] | None = None) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise InvalidInput(f"LLM base URL {base_url!r} must start with http:// or https://")
        if not model:
            raise InvalidInput("no LLM model name given; pass the name the endpoint serves")
        if retries < 0:
            raise InvalidInput(f"retries must be 0 or more, got {retries}")
        if attempts < 1 or concurrency < 1:
            raise InvalidInput("attempts and concurrency must be at least 1")
        if timeout <= 0:
            raise InvalidInput(f"timeout must be more than 0 seconds, got {timeout}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key or None
        self.retries = retries
        self.timeout = timeout
        self.concurrency = concurrency
        self.fallback = fallback
        options = {"sleep": sleep} if sleep else {}
        self.client = ChatClient(self.base_url, model, self.api_key, timeout=timeout,
                                 attempts=attempts, backoff=backoff, max_wait=max_wait, **options)

    @classmethod
    def from_env(cls, **options: Any) -> LLMExtractor:
        """Build from GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL, GRAPHMEM_LLM_API_KEY and,
        optionally, GRAPHMEM_LLM_TIMEOUT (seconds) and GRAPHMEM_LLM_CONCURRENCY."""
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
        for name, key, kind in (("GRAPHMEM_LLM_TIMEOUT", "timeout", float),
                                ("GRAPHMEM_LLM_CONCURRENCY", "concurrency", int)):
            if raw := os.environ.get(name, "").strip():
                try:
                    options.setdefault(key, kind(raw))
                except ValueError:
                    raise InvalidInput(f"{name}={raw!r} is not a number") from None
        api_key = os.environ.get("GRAPHMEM_LLM_API_KEY", "").strip() or None
        return cls(base_url, model, api_key, **options)

    def __repr__(self) -> str:
        return f"LLMExtractor({self.base_url!r}, {self.model!r})"

    def extract(self, text: str, *, reference_time: datetime, speaker: str = "user",
                other: str | None = None, previous: Turn | None = None) -> list[ExtractedFact]:
        """Return the facts stated in ``text``; unverifiable ones are dropped.

        ``other`` (whom "you" means) and ``previous`` (the turn before) go into the prompt.
        When the model fails and a fallback is set, the fallback's facts are returned.
        """
        return self.extract_result(text, reference_time=reference_time, speaker=speaker, other=other,
                                   previous=previous).facts

    def extract_result(self, text: str, *, reference_time: datetime, speaker: str = "user",
                       other: str | None = None, previous: Turn | None = None) -> MessageResult:
        """The facts of one message, with a note when the fallback had to supply them."""
        try:
            report = self.extract_with_report(text, reference_time=reference_time,
                                              speaker=speaker, other=other, previous=previous)
        except ExtractionFailed as exc:
            if self.fallback is None or isinstance(exc, EndpointUnreachable):
                raise  # a wrong URL or a stopped server is for the user to fix, not to skip
            context = {"other": other, "previous": previous} if takes_context(
                self.fallback.extract, "other", "previous") else {}
            facts = self.fallback.extract(text, reference_time=reference_time, speaker=speaker, **context)
            return MessageResult(facts=facts, note=f"{exc}; facts from the {self.fallback.name} "
                                 "extractor instead")
        note = None
        if report.rejected:
            note = "; ".join(f"dropped {r.fact.predicate} {r.fact.object!r}: {r.reason}"
                             for r in report.rejected)
        return MessageResult(facts=report.facts, note=note)

    def extract_many(self, messages: Sequence[tuple[str, datetime, str]], *,
                     context: Sequence[Context] | None = None) -> list[MessageResult]:
        """Each message's result, in order, with at most ``concurrency`` requests in flight.

        ``messages`` are ``(text, reference_time, speaker)``; ``context``, one ``(other,
        previous)`` per message. Without a fallback, the first failure raises
        :class:`ExtractionFailed` naming the message's position.
        """
        contexts = list(context) if context is not None else [(None, None)] * len(messages)

        def one(item: tuple[int, tuple[str, datetime, str]]) -> MessageResult:
            n, (text, reference, speaker) = item
            other, previous = contexts[n]
            try:
                return self.extract_result(text, reference_time=reference, speaker=speaker, other=other,
                                           previous=previous)
            except ExtractionFailed as exc:
                failed = type(exc)(f"message {n + 1}: {exc}")
                failed.index, failed.reason = n, str(exc)  # which message, for the caller to name
                raise failed from exc

        if not messages:
            return []
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(messages))) as pool:
            return list(pool.map(one, enumerate(messages)))

    def extract_with_report(self, text: str, *, reference_time: datetime, speaker: str = "user",
                            other: str | None = None, previous: Turn | None = None) -> ExtractionReport:
        """Return the accepted facts of ``text`` together with the rejected ones and why."""
        now = parse_time(reference_time)
        about = (f'- This is a chat between "{speaker}" and "{other}": "you" means "{other}". Facts about '
                 f'"{other}" only when the message states them plainly.\n') if other else ""
        system = SYSTEM_PROMPT.format(speaker=speaker, now=f"{iso(now)} ({now:%A})", context=about.rstrip("\n"))
        hints = _hints(text, now)
        before = f"Previous message, by {previous.speaker}:\n{previous.text}\n" if previous else ""
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Message time: {iso(now)}\n"
             + (f"Time phrases: {hints}\n" if hints else "") + before + f"Message:\n{text}"},
        ]
        problem = ""
        for _attempt in range(self.retries + 1):
            content = self.client.complete(messages, RESPONSE_SCHEMA)
            try:
                result = _parse(content)
            except ValueError as exc:
                problem = str(exc)
                messages = messages + [
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
    elif not text.startswith("{") and "{" in text and text.rstrip().endswith("}"):
        text = text[text.index("{"):]  # a plain answer with words before its JSON
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
    return clipped(_normalise(text), limit)
