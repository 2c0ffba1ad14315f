"""Labelled questions and the measures of a ranked answer: recall@k and the reciprocal rank.

A question file is JSON Lines, one question per line::

    {"id": "q001", "question": "where does Ivan live now", "as_of": null,
     "answers": [{"subject": "Ivan", "predicate": "lives_in", "object": "Berlin"}]}

``as_of`` (optional, a time or null for now) is the moment the question is asked from: what
the store believed then. ``speaker`` (optional) is who asks: "I", "me", "my" mean that entity.
An answer matches a returned fact with the same subject, predicate and object (names as the
store displays them, compared case-insensitively). Plain functions over plain values: nothing
here opens a store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.json_lines import records
from ..errors import InvalidInput
from . import Answer, Hit

__all__ = ["Question", "QuestionResult", "Report", "Triple", "evaluate", "load_questions", "score", "searcher"]

#: How deep the reciprocal rank looks (at least k).
RR_DEPTH = 10

#: A fact as (subject, predicate, object), names as the store displays them.
Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Question:
    """One labelled question: its text, the moment it is asked from, and the facts that answer it."""

    id: str
    question: str
    answers: tuple[Triple, ...]
    as_of: str | None = None
    speaker: str | None = None
    source: str = ""


@dataclass
class QuestionResult:
    """How one question was answered: where its answers ranked."""

    question: Question
    returned: list[Triple]
    recall: float
    reciprocal_rank: float
    first_rank: int | None
    found: list[Triple] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The result as plain JSON: the question, its measures, and the facts returned."""
        return {
            "id": self.question.id, "file": self.question.source, "question": self.question.question,
            "as_of": self.question.as_of,
            "recall": round(self.recall, 4), "reciprocal_rank": round(self.reciprocal_rank, 4),
            "first_rank": self.first_rank,
            "answers": [list(a) for a in self.question.answers], "found": [list(a) for a in self.found],
            "returned": [list(t) for t in self.returned],
        }


@dataclass
class Report:
    """The measures over a set of questions."""

    k: int
    results: list[QuestionResult]

    @property
    def recall(self) -> float:
        """Mean recall@k over the questions."""
        return sum(r.recall for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def mrr(self) -> float:
        """Mean reciprocal rank over the questions."""
        return sum(r.reciprocal_rank for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def answered(self) -> int:
        """Questions with at least one answer in the top k."""
        return sum(1 for r in self.results if r.first_rank is not None and r.first_rank <= self.k)

    def as_json(self) -> dict[str, Any]:
        """The measures and every question's result as plain JSON."""
        return {
            "questions": len(self.results), "k": self.k, f"recall@{self.k}": round(self.recall, 4),
            "mrr": round(self.mrr, 4), "answered": self.answered,
            "results": [r.as_json() for r in self.results],
        }


def _key(triple: Sequence[str]) -> Triple:
    s, p, o = triple
    return (s.casefold(), p, o.casefold())


def score(question: Question, returned: Sequence[Triple], k: int) -> QuestionResult:
    """Recall@k (answers in the first k, over as many as fit in k) and the reciprocal rank
    of the first answer within the first max(k, 10) results (0 when none)."""
    wanted = {_key(a) for a in question.answers}
    top = {_key(t) for t in returned[:k]}
    found = [a for a in question.answers if _key(a) in top]
    recall = len({_key(a) for a in found}) / min(len(wanted), k)
    first = next((rank for rank, t in enumerate(returned[:max(k, RR_DEPTH)], 1) if _key(t) in wanted), None)
    return QuestionResult(question, list(returned), recall, 1 / first if first else 0.0, first, found)


def searcher(search: Callable[..., Sequence[Answer]], k: int,
             speaker: str | None = None) -> Callable[[Question], list[Triple]]:
    """An ``answer`` for :func:`evaluate` from a search like :meth:`graphmem.Store.search`: each
    question asked as of its ``as_of``, by its speaker (or ``speaker``), for facts alone (these
    questions are answered by facts; messages are measured by :mod:`graphmem.recall.conversations`)."""
    def answer(question: Question) -> list[Triple]:
        hits = search(question.question, as_of=question.as_of, speaker=question.speaker or speaker,
                      limit=max(k, RR_DEPTH), messages=False)
        return [(h.version.subject, h.version.predicate, h.version.object) for h in hits if isinstance(h, Hit)]
    return answer


def evaluate(questions: Iterable[Question], answer: Callable[[Question], list[Triple]], k: int = 5) -> Report:
    """Ask every question through ``answer`` (ranked triples) and measure the answers."""
    if k < 1:
        raise InvalidInput(f"k must be 1 or more, got {k}")
    return Report(k, [score(q, answer(q), k) for q in questions])


def load_questions(path: str | Path) -> list[Question]:
    """The questions of a JSON Lines file; a bad line is one error naming FILE:LINE."""
    path = Path(path)
    found, seen = [], set()
    for where, data in records(path, InvalidInput):
        try:
            question = _question(data, path.name)
        except (ValueError, TypeError, KeyError) as exc:
            raise InvalidInput(f"{where}: {_problem(exc)}") from exc
        if question.id in seen:
            raise InvalidInput(f"{where}: question id {question.id!r} is used twice")
        seen.add(question.id)
        found.append(question)
    if not found:
        raise InvalidInput(f"{path}: no questions")
    return found


def _problem(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON ({exc.msg}, column {exc.colno})"
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


def _question(data: Any, source: str) -> Question:
    if not isinstance(data, dict):
        raise ValueError("a question is a JSON object")
    for name in ("id", "question"):
        if not isinstance(data[name], str) or not data[name].strip():
            raise ValueError(f"{name!r} must be non-empty text")
    as_of, speaker = data.get("as_of"), data.get("speaker")
    if as_of is not None and not isinstance(as_of, str):
        raise ValueError("'as_of' must be a time as text, or null")
    if speaker is not None and (not isinstance(speaker, str) or not speaker.strip()):
        raise ValueError("'speaker' must be a name, or null")
    answers = data["answers"]
    if not isinstance(answers, list) or not answers:
        raise ValueError("'answers' must be a non-empty list")
    triples = []
    for answer in answers:
        if not isinstance(answer, dict) or not all(
                isinstance(answer.get(f), str) and answer[f] for f in ("subject", "predicate", "object")):
            raise ValueError("each answer needs text 'subject', 'predicate' and 'object'")
        triples.append((answer["subject"], answer["predicate"], answer["object"]))
    return Question(data["id"], data["question"], tuple(triples), as_of, speaker, source)
