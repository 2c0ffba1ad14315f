"""Long two-person conversations as an evaluation: does search find the evidence, and are the facts right?

A conversation ``NAME`` is three JSON Lines files side by side (``tests/data/conversations/README.md``
describes them): ``NAME.jsonl`` (the messages, in the shape ``graphmem ingest`` reads),
``NAME.questions.jsonl`` (questions with the ids of their evidence messages) and
``NAME.facts.jsonl`` (every message with the facts it states). The aliases set
(``tests/data/aliases/README.md``) has the same layout (its other files are not read here, and it
has no facts file), with categories of its own and a question's ``as_of`` where the answer depends
on it. :func:`evaluate` replays each conversation into a new store (``ingest --replay --approve``,
the rules extractor), asks every question as of its ``as_of`` or else the conversation's last
message, and counts a question *found* when any evidence
message is among the episodes cited by the first ``k`` answers. In the same run, the peer: Okapi
BM25 (``bm25s``, k1 1.2, b 0.75, English stop words) over the raw message texts of that
conversation alone, top ``k``. Extraction is scored on every user message against
``NAME.facts.jsonl``, objects compared as the set's guide says
(:func:`graphmem.evaluation.score_extraction` with ``objects="similar"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from ..core.json_lines import records
from ..errors import InvalidInput

__all__ = ["CATEGORIES", "Conversation", "Outcome", "Question", "Report", "evaluate", "find"]

#: The categories of questions, in the order reports give them: those of the conversations set,
#: then those of the aliases set (``tests/data/aliases``, "who is who").
CATEGORIES = ("single-hop", "multi-hop", "temporal", "open-domain",
              "who-is-who", "relation", "before-after", "alias-over-time")


@dataclass(frozen=True)
class Question:
    """One labelled question: its text, who asks it, and the message ids that answer it."""

    id: str
    question: str
    category: str
    evidence: tuple[str, ...]
    speaker: str | None = None
    as_of: str | None = None  # when the question is asked (default: just after the last message)


@dataclass(frozen=True)
class Conversation:
    """The files of one conversation, and the part of the set it belongs to (its folder's name)."""

    name: str
    part: str
    messages: Path
    questions: Path
    facts: Path | None


def find(paths: Iterable[str | Path]) -> list[Conversation]:
    """The conversations in ``paths``: each a conversation's ``NAME.jsonl`` or a folder of them."""
    found = []
    for path in map(Path, paths):
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            if file.name.count(".") != 1:
                continue  # NAME.questions.jsonl, NAME.facts.jsonl: read with their conversation
            questions = file.with_name(f"{file.stem}.questions.jsonl")
            if not questions.exists():
                raise InvalidInput(f"{file}: no questions beside it ({questions.name})")
            facts = file.with_name(f"{file.stem}.facts.jsonl")
            found.append(Conversation(file.stem, file.resolve().parent.name, file, questions,
                                      facts if facts.exists() else None))
    if not found:
        raise InvalidInput("no conversations found in " + ", ".join(map(str, paths)))
    return found


def read_questions(path: Path) -> list[Question]:
    """A conversation's questions; a bad line raises InvalidInput naming FILE:LINE."""
    found = []
    for where, data in records(path, InvalidInput):
        try:
            question = Question(str(data["id"]), str(data["question"]), str(data["category"]),
                                tuple(map(str, data["evidence"])), data.get("speaker"), data.get("as_of"))
        except (KeyError, TypeError) as exc:
            raise InvalidInput(f"{where}: a question needs id, question, category and evidence ({exc})") from None
        if question.category not in CATEGORIES:
            raise InvalidInput(f"{where}: category must be one of {', '.join(CATEGORIES)}")
        found.append(question)
    return found


@dataclass
class Outcome:
    """One question's result: whether graphmem and the peer found its evidence in their first k."""

    conversation: str
    part: str
    id: str
    category: str
    graphmem: bool
    bm25: bool
    answers: list[str] = field(default_factory=list)  # the message ids graphmem's answers cite, in order


@dataclass
class Report:
    """Every question's outcome, and the extraction scores, per part of the set."""

    k: int
    engine: str
    outcomes: list[Outcome] = field(default_factory=list)
    extraction: dict[str, Any] = field(default_factory=dict)  # part -> ExtractionScore.as_json()
    messages: dict[str, int] = field(default_factory=dict)  # part -> messages

    def recall(self, part: str | None = None, category: str | None = None) -> dict[str, Any]:
        """Evidence recall@k of graphmem and the peer over the questions of a part and category."""
        chosen = [o for o in self.outcomes if (part is None or o.part == part)
                  and (category is None or o.category == category)]
        n = len(chosen)
        return {"questions": n, "graphmem": sum(o.graphmem for o in chosen) / n if n else 0.0,
                "bm25": sum(o.bm25 for o in chosen) / n if n else 0.0}

    @property
    def parts(self) -> list[str]:
        return sorted({o.part for o in self.outcomes})

    @property
    def categories(self) -> list[str]:
        """The categories the questions asked belong to, in the order of :data:`CATEGORIES`."""
        asked = {o.category for o in self.outcomes}
        return [c for c in CATEGORIES if c in asked]

    def as_json(self) -> dict[str, Any]:
        """The figures per part and category, and every question's outcome."""
        return {
            "k": self.k, "engine": self.engine,
            "parts": {part: {"messages": self.messages.get(part, 0), "recall": self.recall(part),
                             "by_category": {c: self.recall(part, c) for c in self.categories},
                             "extraction": self.extraction.get(part)} for part in self.parts},
            "questions": [vars(o) for o in self.outcomes],
        }


Progress = Callable[[str, int, int], None]


def evaluate(conversations: Sequence[Conversation], *, k: int = 5, engine: str | None = None,
             progress: Progress | None = None) -> Report:
    """Replay, ask and score every conversation (see the module's docstring)."""
    from ..evaluation import scratch_store
    from ..ingest import ingest, read_messages

    report = Report(k=k, engine=engine or "default")
    facts_by_part: dict[str, list[Conversation]] = {}
    for number, conversation in enumerate(conversations, 1):
        questions = read_questions(conversation.questions)
        with scratch_store(engine) as store:
            report.engine = store.engine
            messages = read_messages(conversation.messages, tz=store.tz)
            summary = ingest(store, messages, replay=True, approve=True)
            episode_of = {r.message: r.episode for r in summary.recorded if r.message is not None}
            message_of = {episode: message for message, episode in episode_of.items()}
            known = set(episode_of)
            asked_at = max(m.chat_time for m in messages) + timedelta(minutes=1)
            peer = _Peer([m.content for m in messages], [m.id for m in messages])
            for question in questions:
                if unknown := [e for e in question.evidence if e not in known]:
                    raise InvalidInput(f"{conversation.questions}: {question.id} cites unknown messages {unknown}")
                answers = store.search(question.question, as_of=question.as_of or asked_at, limit=k,
                                       speaker=question.speaker)
                cited = [message_of[e] for a in answers for e in a.episodes if e in message_of]
                evidence = set(question.evidence)
                report.outcomes.append(Outcome(
                    conversation.name, conversation.part, question.id, question.category,
                    graphmem=bool(evidence & set(cited)), bm25=bool(evidence & set(peer.top(question.question, k))),
                    answers=cited))
            report.messages[conversation.part] = report.messages.get(conversation.part, 0) + len(messages)
            if conversation.facts is not None:
                facts_by_part.setdefault(conversation.part, []).append(conversation)
        if progress:
            progress("conversations", number, len(conversations))
    for part, labelled in facts_by_part.items():
        report.extraction[part] = _score(labelled)
    return report


def _score(conversations: list[Conversation]) -> Any:
    """The rules extractor on every user message of the conversations, each with its context."""
    from ..evaluation import read_conversation_set, score_extraction
    from ..ingest import make_extractor

    cases = read_conversation_set(*(c.messages for c in conversations))
    return score_extraction(cases, make_extractor("rules"), objects="similar").as_json()


class _Peer:
    """Okapi BM25 over raw message texts (``bm25s``): the simplest thing a user could do instead."""

    def __init__(self, texts: list[str], ids: list[str | None]):
        try:
            import bm25s  # type: ignore[import-untyped]
        except ImportError:
            raise InvalidInput("the BM25 peer needs bm25s: pip install 'graphmem[eval]'") from None
        self.bm25s = bm25s
        self.ids = ids
        self.model = bm25s.BM25(k1=1.2, b=0.75)
        self.model.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)

    def top(self, question: str, k: int) -> list[str]:
        tokens = self.bm25s.tokenize([question], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        found, _ = self.model.retrieve(tokens, k=min(k, len(self.ids)), show_progress=False)
        return [i for i in (self.ids[j] for j in found[0]) if i is not None]
