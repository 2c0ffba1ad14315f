"""Score extractors and the time-phrase resolver against labelled sets (JSON Lines).

Two formats, read by :func:`read_extraction_set` and :func:`read_when_set`:

- extraction: ``{"id", "text", "chat_time", "speaker", "facts": [{"op", "subject", "predicate",
  "object", "valid_from", "valid_to"}]}``, every fact the message states and nothing else;
- time phrases: ``{"id", "text", "reference", "phrase", "start", "end", "granularity"}``.

A labelled conversation (``NAME.jsonl`` messages with ``actor``, beside ``NAME.facts.jsonl``:
``{"id", "facts": [...]}`` for every message) is read by :func:`read_conversation_set` into the
same cases, each with its context: the other participant and the turn before.

Extraction is scored twice: a *loose* match compares (op, subject, predicate, object), a
*strict* match adds the valid period. Subjects and objects compare case-insensitively with
spaces collapsed; with ``objects="similar"`` (the rule for natural conversations) objects also
match when they are equal after dropping articles and possessives and comparing word stems, or
when one's stems are a part of the other's ("retriever" and "golden retriever"). A time phrase
is right when the resolver finds an expression overlapping the labelled phrase whose period
equals the labelled one; its granularity is scored apart.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .core.json_lines import records
from .core.times import UTC, iso, parse_time
from .errors import InvalidInput
from .extract import ExtractedFact, Extractor, FactOp, Turn, takes_context
from .when import Granularity, resolve_times

if TYPE_CHECKING:
    from ._store import Store

__all__ = [
    "CaseErrors", "ExtractionCase", "ExtractionScore", "GoldFact", "ObjectMatch", "Resolver", "Tally", "WhenCase",
    "WhenResult", "WhenScore", "fact_key", "facts_match", "read_conversation_set", "read_extraction_set",
    "read_when_set", "resolve_with_graphmem", "score_extraction", "score_when",
]

@contextmanager
def scratch_store(engine: str | None, prefix: str = "graphmem-eval-") -> Iterator[Store]:
    """A new store in a temporary directory, removed on exit, to replay a labelled chat into and
    score it (``graphmem eval conversations|aliases|relations``). It takes transaction times after
    today: the replay's are the chat's times, and a set may be dated ahead (one written today
    about next year)."""
    from ._store import Store

    with tempfile.TemporaryDirectory(prefix=prefix) as work, \
            Store(Path(work) / "store", engine=engine, allow_future=True) as store:
        yield store


#: The relations an extraction set labels.
Relation = Literal["lives_in", "works_at", "studies_at", "married_to", "dating", "likes", "dislikes",
                   "traveled_to", "met", "graduated_from", "is_called", "has_pet", "owns", "does",
                   "member_of", "attended"]
#: How objects compare: ``exact`` (case and spaces aside) or ``similar`` (articles, possessives
#: and word endings aside, or one a part of the other).
ObjectMatch = Literal["exact", "similar"]
GRANULARITIES: tuple[Granularity, ...] = get_args(Granularity)
PREDICATES: tuple[Relation, ...] = get_args(Relation)


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _utc(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("must be ISO 8601 text or null")
    return parse_time(value)


class GoldFact(_Record):
    """One labelled fact."""

    op: FactOp
    subject: str
    predicate: Relation
    object: str | None
    valid_from: datetime | None
    valid_to: datetime | None

    _times = field_validator("valid_from", "valid_to", mode="before")(_utc)


class ExtractionCase(_Record):
    """One labelled message of an extraction set, with the context an extractor may be given:
    ``other`` (the other participant, "you") and ``previous`` (the turn before)."""

    id: str
    text: str
    chat_time: datetime
    speaker: str
    facts: list[GoldFact]
    other: str | None = None
    previous: Turn | None = None
    where: str = ""

    _time = field_validator("chat_time", mode="before")(_utc)


class WhenCase(_Record):
    """One labelled time phrase of a time-phrase set."""

    id: str
    text: str
    reference: datetime
    phrase: str
    start: datetime
    end: datetime | None
    granularity: Granularity
    where: str = ""

    _times = field_validator("reference", "start", "end", mode="before")(_utc)


_Case = TypeVar("_Case", "ExtractionCase", "WhenCase")


def _read(paths: Iterable[str | Path], model: type[_Case], check: Callable[[_Case], str | None]) -> list[_Case]:
    cases: list[_Case] = []
    seen: dict[str, str] = {}
    for path in map(Path, paths):
        for where, data in records(path, InvalidInput):
            try:
                case = model.model_validate({**data, "where": where})
            except (ValidationError, TypeError) as exc:
                raise InvalidInput(f"{where}: {_first_problem(exc)}") from None
            if problem := check(case):
                raise InvalidInput(f"{where}: {problem}")
            if case.id in seen:
                raise InvalidInput(f"{where}: id {case.id!r} already used at {seen[case.id]}")
            seen[case.id] = where
            cases.append(case)
    if not cases:
        raise InvalidInput("no labelled lines found in " + ", ".join(map(str, paths)))
    return cases


def _first_problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "line"
        return f"{field}: {error['msg']}"
    return str(exc)


def read_extraction_set(*paths: str | Path) -> list[ExtractionCase]:
    """Read and check extraction sets; a bad line raises InvalidInput naming FILE:LINE."""
    return _read(paths, ExtractionCase, lambda case: None)


def read_conversation_set(*paths: str | Path) -> list[ExtractionCase]:
    """Labelled conversations: each ``NAME.jsonl`` (messages with ``id``, ``actor``, ``role``,
    ``content``, ``chat_time``) beside its ``NAME.facts.jsonl`` (``{"id", "facts"}`` per message).

    Every user message becomes a case whose speaker is its actor, with the other participant
    (the other actor of the conversation's user messages, when there are exactly two) and the
    message before it. A bad line raises InvalidInput naming FILE:LINE.
    """
    cases: list[ExtractionCase] = []
    for path in map(Path, paths):
        messages = [(where, data) for where, data in records(path, InvalidInput)]
        labels_path = path.with_name(path.name.removesuffix(".jsonl") + ".facts.jsonl")
        labels: dict[str, tuple[str, Any]] = {}
        for where, data in records(labels_path, InvalidInput):
            if not isinstance(data, dict) or not isinstance(data.get("id"), str):
                raise InvalidInput(f"{where}: expected {{\"id\", \"facts\"}}")
            labels[data["id"]] = (where, data.get("facts", []))
        actors = sorted({d.get("actor") for _, d in messages
                         if d.get("role", "user") == "user" and isinstance(d.get("actor"), str)})
        before: Turn | None = None
        for where, data in messages:
            if not isinstance(data, dict):
                raise InvalidInput(f"{where}: expected a JSON object")
            speaker, text = data.get("actor") or data.get("role", "user"), data.get("content", "")
            if data.get("role", "user") == "user" and data.get("id") in labels:
                at, facts = labels[data["id"]]
                other = next((a for a in actors if a != speaker), None) if len(actors) == 2 else None
                try:
                    cases.append(ExtractionCase.model_validate({
                        "id": data["id"], "text": text, "chat_time": data.get("chat_time"),
                        "speaker": speaker, "facts": facts, "other": other, "previous": before,
                        "where": at}))
                except (ValidationError, TypeError) as exc:
                    raise InvalidInput(f"{at}: {_first_problem(exc)}") from None
            before = Turn(speaker=str(speaker), text=str(text))
    if not cases:
        raise InvalidInput("no labelled messages found in " + ", ".join(map(str, paths)))
    return cases


def _check_when(case: WhenCase) -> str | None:
    if case.phrase not in case.text:
        return f"phrase {case.phrase!r} is not in the text"
    if case.end is not None and case.end <= case.start:
        return "end must be after start"
    return None


def read_when_set(*paths: str | Path) -> list[WhenCase]:
    """Read and check time-phrase sets; a bad line raises InvalidInput naming FILE:LINE."""
    return _read(paths, WhenCase, _check_when)


# --- extraction ------------------------------------------------------------------------------

def _name(text: str | None) -> str | None:
    return None if text is None else " ".join(text.casefold().split())


def fact_key(fact: GoldFact | ExtractedFact, *, strict: bool) -> tuple[Any, ...]:
    """What two facts must share to match: loosely (op, subject, predicate, object), strictly
    also their valid period."""
    key = (fact.op, _name(fact.subject), fact.predicate, _name(fact.object))
    return key + (fact.valid_from, fact.valid_to) if strict else key


_DROPPED_WORDS = frozenset("a an the my your his her our their its".split())


def _stem(word: str) -> str:
    """A word without its common English endings ("retrievers" -> "retriev", "painting" -> "paint")."""
    for suffix in ("'s", "’s", "s'", "’"):
        word = word.removesuffix(suffix)
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]  # "paintings" -> "painting", then its own ending
    for suffix in ("ie", "ing", "er", "e", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[:-len(suffix)]
    return word


def _stems(text: str) -> frozenset[str]:
    words = [w.strip(".,!?;:\"'()") for w in text.casefold().replace("’", "'").split()]
    return frozenset(_stem(w) for w in words if w and w not in _DROPPED_WORDS)


def _similar(found: str | None, labelled: str | None) -> bool:
    if found is None or labelled is None:
        return found is labelled
    a, b = _stems(found), _stems(labelled)
    return bool(a and b) and (a <= b or b <= a)


def facts_match(found: GoldFact | ExtractedFact, labelled: GoldFact | ExtractedFact, *, strict: bool,
                objects: ObjectMatch = "exact") -> bool:
    """Whether two facts of one message match (see the module's summary for the rule)."""
    if objects == "exact":
        return fact_key(found, strict=strict) == fact_key(labelled, strict=strict)
    same = (found.op, _name(found.subject), found.predicate) == (
        labelled.op, _name(labelled.subject), labelled.predicate) and _similar(found.object, labelled.object)
    return same and (not strict or (found.valid_from, found.valid_to) == (labelled.valid_from, labelled.valid_to))


class Tally(_Record):
    """Counts for one relation (or all): right, found but wrong, labelled but missed."""

    right: int = 0
    wrong: int = 0
    missed: int = 0

    @property
    def precision(self) -> float:
        found = self.right + self.wrong
        return self.right / found if found else 1.0

    @property
    def recall(self) -> float:
        labelled = self.right + self.missed
        return self.right / labelled if labelled else 1.0

    def as_json(self) -> dict[str, Any]:
        """Counts with precision and recall rounded to four places."""
        return {"right": self.right, "wrong": self.wrong, "missed": self.missed,
                "precision": round(self.precision, 4), "recall": round(self.recall, 4)}


class CaseErrors(_Record):
    """A message where the extractor and the labels disagree."""

    id: str
    where: str
    text: str
    wrong: list[dict[str, Any]]
    missed: list[dict[str, Any]]


class ExtractionScore(_Record):
    """Loose and strict tallies, per relation and overall, and the messages that disagree.

    ``written``: the overall tallies (``loose``, ``strict``) of the facts alone that an approved
    ingest writes, those the extractor is sure of; the rest wait for review. ``written["again"]`` is
    ``loose`` with the facts the chat's labels hold from an earlier message set aside (neither right nor
    wrong): told again, such a fact links one more message to what is already believed and writes nothing
    new (the gate's no-op), while the labels record it once, where it was first told."""

    extractor: str
    cases: int
    loose: dict[str, Tally]
    strict: dict[str, Tally]
    errors: list[CaseErrors]
    notes: list[str] = []
    written: dict[str, Tally] = {}

    def as_json(self) -> dict[str, Any]:
        """The score as plain JSON: per relation and ``overall``, loose and strict."""
        return {
            "extractor": self.extractor, "cases": self.cases,
            "loose": {name: tally.as_json() for name, tally in self.loose.items()},
            "strict": {name: tally.as_json() for name, tally in self.strict.items()},
            "written": {name: tally.as_json() for name, tally in self.written.items()},
            "errors": [error.model_dump() for error in self.errors], "notes": self.notes,
        }


def _fact_json(fact: GoldFact | ExtractedFact) -> dict[str, Any]:
    return {"op": fact.op, "subject": fact.subject, "predicate": fact.predicate,
            "object": fact.object, "valid_from": iso(fact.valid_from),
            "valid_to": iso(fact.valid_to)}


def _compare(gold: Sequence[GoldFact], found: Sequence[ExtractedFact], strict: bool,
             objects: ObjectMatch = "exact") -> tuple[list[ExtractedFact], list[ExtractedFact], list[GoldFact]]:
    """(matched, wrong, missed) facts of one message, matching each fact at most once."""
    if objects == "similar":
        unmatched = list(gold)
        hits: list[ExtractedFact] = []
        misses: list[ExtractedFact] = []
        for fact in found:
            hit = next((g for g in unmatched if facts_match(fact, g, strict=strict, objects=objects)), None)
            if hit is None:
                misses.append(fact)
            else:
                unmatched.remove(hit)
                hits.append(fact)
        return hits, misses, unmatched
    waiting = Counter(fact_key(fact, strict=strict) for fact in gold)
    matched: list[ExtractedFact] = []
    wrong: list[ExtractedFact] = []
    for fact in found:
        key = fact_key(fact, strict=strict)
        if waiting[key] > 0:
            waiting[key] -= 1
            matched.append(fact)
        else:
            wrong.append(fact)
    missed: list[GoldFact] = []
    left = Counter(waiting)
    for labelled in gold:
        key = fact_key(labelled, strict=strict)
        if left[key] > 0:
            left[key] -= 1
            missed.append(labelled)
    return matched, wrong, missed


def _add(tallies: dict[str, Counter[str]], matched: Sequence[ExtractedFact], wrong: Sequence[ExtractedFact],
         missed: Sequence[GoldFact]) -> None:
    for kind, facts in (("right", matched), ("wrong", wrong), ("missed", missed)):
        for fact in facts:
            tallies[fact.predicate][kind] += 1
            tallies["overall"][kind] += 1


def _freeze(tallies: dict[str, Counter[str]]) -> dict[str, Tally]:
    names = sorted(name for name in tallies if name != "overall") + ["overall"]
    return {name: Tally(**tallies[name]) for name in names}


def extract_all(extractor: Extractor,
                cases: Sequence[ExtractionCase]) -> tuple[list[list[ExtractedFact]], list[str]]:
    """Every case's facts, through ``extract_many`` when the extractor has it; plus its notes.

    A case's context (other participant, turn before) is given to an extractor that accepts it."""
    many = getattr(extractor, "extract_many", None)
    if many is not None:
        messages = [(case.text, case.chat_time, case.speaker) for case in cases]
        if takes_context(many, "context"):
            results = many(messages, context=[(case.other, case.previous) for case in cases])
        else:
            results = many(messages)
        return [result.facts for result in results], [
            f"{case.id}: {result.note}" for case, result in zip(cases, results) if result.note]
    if takes_context(extractor.extract, "other", "previous"):
        return [extractor.extract(case.text, reference_time=case.chat_time, speaker=case.speaker,  # type: ignore[call-arg]
                                  other=case.other, previous=case.previous) for case in cases], []
    return [extractor.extract(case.text, reference_time=case.chat_time, speaker=case.speaker)
            for case in cases], []


def score_extraction(cases: Sequence[ExtractionCase], extractor: Extractor, *,
                     objects: ObjectMatch = "exact") -> ExtractionScore:
    """Run ``extractor`` on every case and tally what it got right, wrong and missed.

    ``objects="similar"`` is the rule for natural conversations (:func:`facts_match`). Facts of
    predicates no set labels (the relations of who is who, ``sister_of``, ``alias_of``) are left
    out of the tally and counted in a note: the labels say nothing of them."""
    found_all, notes = extract_all(extractor, cases)
    unlabelled: Counter[str] = Counter(f.predicate for found in found_all for f in found
                                       if f.predicate not in PREDICATES)
    found_all = [[f for f in found if f.predicate in PREDICATES] for found in found_all]
    if unlabelled:
        notes = [*notes, "not scored (predicates the set does not label): " + ", ".join(
            f"{count} {predicate}" for predicate, count in sorted(unlabelled.items()))]
    loose: dict[str, Counter[str]] = {"overall": Counter()}
    strict: dict[str, Counter[str]] = {"overall": Counter()}
    for tallies in (loose, strict):
        for predicate in PREDICATES:
            tallies.setdefault(predicate, Counter())
    errors: list[CaseErrors] = []
    written: dict[str, Counter[str]] = {"loose": Counter(), "strict": Counter()}
    again: Counter[str] = Counter()
    told: dict[str, list[GoldFact]] = {}  # per chat, the facts its labels hold so far
    for case, found in zip(cases, found_all):
        _add(loose, *_compare(case.facts, found, strict=False, objects=objects))
        matched, wrong, missed = _compare(case.facts, found, strict=True, objects=objects)
        _add(strict, matched, wrong, missed)
        sure = [f for f in found if f.sure]
        for mode in written:
            right, wrong_sure, missed_sure = _compare(case.facts, sure, strict=mode == "strict", objects=objects)
            written[mode].update(right=len(right), wrong=len(wrong_sure), missed=len(missed_sure))
            if mode == "loose":
                before = told.setdefault(case.where.rsplit(":", 1)[0] or case.id.rsplit("-", 1)[0], [])
                new = [f for f in wrong_sure if not any(facts_match(f, g, strict=False, objects=objects)
                                                        for g in before)]
                again.update(right=len(right), wrong=len(new), missed=len(missed_sure))
                before.extend(case.facts)
        if wrong or missed:
            errors.append(CaseErrors(id=case.id, where=case.where, text=case.text,
                                     wrong=[_fact_json(f) for f in wrong],
                                     missed=[_fact_json(f) for f in missed]))
    return ExtractionScore(extractor=extractor.name, cases=len(cases), loose=_freeze(loose),
                           strict=_freeze(strict), errors=errors, notes=notes,
                           written={**{mode: Tally(**counts) for mode, counts in written.items()},
                                    "again": Tally(**again)})


# --- time phrases ----------------------------------------------------------------------------

class WhenResult(_Record):
    """What a resolver said about one labelled phrase."""

    id: str
    where: str
    text: str
    phrase: str
    granularity: str
    expected: tuple[str | None, str | None]
    got: tuple[str | None, str | None] | None
    got_granularity: str | None
    right: bool
    granularity_right: bool


class WhenScore(_Record):
    """Accuracy of a resolver overall and per labelled granularity, with every result."""

    resolver: str
    results: list[WhenResult]

    def accuracy(self, granularity: str | None = None) -> tuple[int, int]:
        """(right, total) over the phrases of ``granularity`` (all phrases when None)."""
        chosen = [r for r in self.results if granularity in (None, r.granularity)]
        return sum(r.right for r in chosen), len(chosen)

    def granularity_agreement(self) -> tuple[int, int]:
        """(same, total): phrases whose granularity the resolver named as labelled."""
        return sum(r.granularity_right for r in self.results), len(self.results)

    def as_json(self) -> dict[str, Any]:
        """Accuracy overall and per granularity, and the phrases resolved wrongly."""
        def share(right_total: tuple[int, int]) -> dict[str, Any]:
            right, total = right_total
            return {"right": right, "total": total,
                    "accuracy": round(right / total, 4) if total else None}

        kinds = [g for g in GRANULARITIES if any(r.granularity == g for r in self.results)]
        return {
            "resolver": self.resolver,
            "overall": share(self.accuracy()),
            "granularity_agreement": share(self.granularity_agreement()),
            "per_granularity": {g: share(self.accuracy(g)) for g in kinds},
            "wrong": [r.model_dump() for r in self.results if not r.right],
        }


#: A resolver answers for one case: (start, end, granularity or None), or None for nothing found.
Resolver = Callable[[WhenCase], tuple[datetime, datetime | None, str | None] | None]


def resolve_with_graphmem(case: WhenCase, *,
                          tz: tzinfo | str = UTC) -> tuple[datetime, datetime | None, str | None] | None:
    """graphmem's answer for a case: the expression in the text that overlaps the phrase."""
    begin = case.text.find(case.phrase)
    finish = begin + len(case.phrase)
    best, overlap = None, 0
    cursor = 0
    for span in resolve_times(case.text, case.reference, tz=tz):
        at = case.text.find(span.text, cursor)
        if at < 0:
            continue
        cursor = at + len(span.text)
        shared = min(finish, cursor) - max(begin, at)
        if shared > overlap:
            best, overlap = span, shared
    return None if best is None else (best.start, best.end, best.granularity)


def score_when(cases: Sequence[WhenCase], resolver: Resolver = resolve_with_graphmem,
               name: str = "graphmem") -> WhenScore:
    """Resolve every case and compare periods (and granularities) with the labels."""
    results: list[WhenResult] = []
    for case in cases:
        answer = resolver(case)
        got = None if answer is None else (iso(answer[0]), iso(answer[1]))
        expected = (iso(case.start), iso(case.end))
        got_granularity = None if answer is None else answer[2]
        results.append(WhenResult(
            id=case.id, where=case.where, text=case.text, phrase=case.phrase,
            granularity=case.granularity, expected=expected, got=got,
            got_granularity=got_granularity, right=got == expected,
            granularity_right=got_granularity == case.granularity))
    return WhenScore(resolver=name, results=results)
