"""Drawing facts from messages: the extractors, memories said in the first person, and which
facts can be proposed at all.

Internal: import what it offers from :mod:`graphmem.ingest`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, tzinfo

from ..core.names import check_predicate, entity_key
from ..core.times import UTC, iso
from ..errors import GraphmemError, ImportFailed, InvalidInput
from ..extract import Context, ExtractionFailed, MessageResult, takes_context
from ..extract_rules import ExtractedFact, Extractor, RuleExtractor, split_sentences
from ._files import Message

__all__ = ["EXTRACTORS", "draw", "first_person", "make_extractor", "memory_facts", "normalised", "problem"]

#: The extractors :func:`make_extractor` knows by name.
EXTRACTORS = ("rules", "llm")
#: Messages handed at once to an extractor that takes many (the LLM's keeps several requests in
#: flight); their facts are kept, the messages themselves are not.
CHUNK = 256


def make_extractor(name: str = "rules", *, day_first: bool = False, tz: tzinfo | str = UTC) -> Extractor:
    """The extractor called ``name``: 'rules' (offline, default) or 'llm' (configured by environment)."""
    if name == "rules":
        return RuleExtractor(day_first=day_first, tz=tz)
    if name == "llm":
        from ..extract_llm import LLMExtractor

        return LLMExtractor.from_env(fallback=RuleExtractor(day_first=day_first, tz=tz))
    raise InvalidInput(f"unknown extractor {name!r}; choose one of: {', '.join(EXTRACTORS)}")


def draw(extractor: Extractor,
         messages: Iterable[tuple[Message, Context]]) -> Iterator[tuple[list[ExtractedFact], str | None]]:
    """The facts of each user message in turn, and a note when they did not come the usual way.

    Each message comes with its context (the other participant, the turn before), passed to an
    extractor that accepts it. An extractor with ``extract_many`` is given :data:`CHUNK`
    messages at a time. A failure is ImportFailed naming the message.
    """
    many = getattr(extractor, "extract_many", None)
    if many is not None and takes_context(many, "context"):
        many = _with_context(many)
    elif many is not None:
        many = _without_context(many)
    one_with_context = many is None and takes_context(extractor.extract, "other", "previous")
    chunk: list[tuple[Message, Context]] = []
    for message, context in messages:
        if many is None:
            extra = {"other": context[0], "previous": context[1]} if one_with_context else {}
            try:
                yield extractor.extract(message.content, reference_time=message.chat_time,
                                        speaker=message.speaker, **extra), None
            except GraphmemError as exc:
                raise ImportFailed(f"{message.where}: {exc}; nothing was written") from exc
            continue
        chunk.append((message, context))
        if len(chunk) == CHUNK:
            yield from _many(many, chunk)
            chunk = []
    if many is not None and chunk:
        yield from _many(many, chunk)


_Many = Callable[[list[tuple[Message, Context]]], list[MessageResult]]


def _with_context(many: Callable[..., list[MessageResult]]) -> _Many:
    return lambda items: many([(m.content, m.chat_time, m.speaker) for m, _ in items],
                              context=[context for _, context in items])


def _without_context(many: Callable[..., list[MessageResult]]) -> _Many:
    return lambda items: many([(m.content, m.chat_time, m.speaker) for m, _ in items])


def _many(many: _Many, items: list[tuple[Message, Context]]) -> Iterator[tuple[list[ExtractedFact], str | None]]:
    messages = [m for m, _ in items]
    try:
        results = many(items)
    except GraphmemError as exc:
        if isinstance(exc, ExtractionFailed) and exc.index is not None:  # it names the message
            where = f"{messages[exc.index].where}: {exc.reason}"
        else:
            where = str(exc)
        raise ImportFailed(f"{where}; nothing was written") from exc
    for result in results:
        yield result.facts, result.note


def normalised(fact: ExtractedFact) -> ExtractedFact:
    """An ``end`` fact with its moment in ``valid_from``, where the store reads it.

    Extractors give the moment something stopped as ``valid_to``; the store's approval ends at
    the proposal's ``valid_from`` (the episode's time when none).
    """
    if fact.op == "end" and fact.valid_to is not None:
        return fact.model_copy(update={"valid_from": fact.valid_to, "valid_to": None})
    return fact


def problem(fact: ExtractedFact, reference: datetime) -> str | None:
    """Why a fact cannot be proposed, or None when it can."""
    try:
        check_predicate(fact.predicate)
        entity_key(fact.subject)
        if fact.object is not None:
            entity_key(fact.object)
    except InvalidInput as exc:
        return str(exc)
    if fact.op == "assert" and not fact.object:
        return "an assertion needs an object"
    start = fact.valid_from or reference
    if fact.valid_to is not None and fact.valid_to <= start:
        return (f"its valid period is empty ({iso(start)} to {iso(fact.valid_to)}; "
                "without a start it begins at the message's time)")
    return None


# --- first person, for memories written about the user ------------------------------------------

_IRREGULAR = {
    "is": "am", "isn't": "am not", "has": "have", "hasn't": "haven't", "does": "do",
    "doesn't": "don't", "goes": "go", "studies": "study", "was": "was", "wasn't": "wasn't",
}
_REGULAR = frozenset(
    "live work like love enjoy hate dislike prefer travel own visit plan want need use speak play "
    "attend teach run write read cook drive eat drink adore detest move stay follow watch".split())
_PAST = frozenset("went left quit got took flew drove began became met used".split())
_ADVERBS = ("no longer|also|now|still|currently|recently|just|never|often|usually|previously|once|"
            "finally|already|really|actually|originally|mostly|sometimes|always")


def _verb(word: str, *, sure: bool) -> str | None:
    """The first-person form of a verb said of someone else ("lives" -> "live"), else None.

    ``sure``: a subject came first, so any "-s" word there is a verb ("prefers").
    """
    lower = word.lower().replace("’", "'")
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower in _PAST or (lower.endswith("ed") and len(lower) > 4):
        return lower
    for suffix in ("s", "es"):
        if lower.endswith(suffix) and lower[:-len(suffix)] in _REGULAR:
            return lower[:-len(suffix)]
    if sure and re.fullmatch(r"[a-z]{2,}[^s']s", lower):
        return lower[:-1]
    return None


def first_person(sentence: str, names: Sequence[str] = ()) -> str:
    """Say a remembered sentence in the first person, for an extractor of first-person facts.

    "User lives in Berlin." / "Lives in Berlin." -> "I live in Berlin."; "User's name is Lin."
    -> "My name is Lin." A sentence it does not recognise is returned unchanged.
    """
    subjects = sorted({"user", "the user", *(n.lower() for n in names if n)}, key=len, reverse=True)
    lead = "|".join(re.escape(s) for s in subjects)
    if possessive := re.match(rf"(?:{lead})['’]s\s+", sentence, re.IGNORECASE):
        return "My " + sentence[possessive.end():]
    m = re.match(rf"(?P<subject>(?:{lead})\s+)?(?P<adverbs>(?:(?:{_ADVERBS})\s+)*)(?P<verb>[\w'’]+)",
                 sentence, re.IGNORECASE)
    if m is None or not (verb := _verb(m["verb"], sure=bool(m["subject"]))):
        return sentence
    return "I " + m["adverbs"].lower() + verb + sentence[m.end():]


def memory_facts(extractor: Extractor, text: str, reference: datetime, speaker: str) -> list[ExtractedFact]:
    """Facts from a remembered line, each quoting the line's own (original) sentence."""
    originals = split_sentences(text)
    rewritten = [first_person(s, [speaker]) for s in originals]
    facts = extractor.extract(" ".join(rewritten), reference_time=reference, speaker=speaker)
    out = []
    for fact in facts:
        quote = next((o for o, r in zip(originals, rewritten) if fact.quote.strip() in r), text)
        out.append(fact.model_copy(update={"quote": quote}))
    return out
