"""Scoring the relations learnt from chat ("my sister Anna", "your mum") against labelled chats.

A chat ``NAME`` of a directory in the shape of ``tests/data/aliases`` is ``NAME.jsonl`` (the
messages), ``NAME.relations.jsonl`` (labelled relations, read **PERSON is RELATION of OF**, each
in both directions) and ``NAME.entities.jsonl`` (each entity's names). The messages are ingested
into a fresh temporary store as ``graphmem ingest NAME.jsonl --replay --approve`` would (the rules
extractor, the two participants learnt from the file), and the relation facts (the ``WORD_of``
predicates of :mod:`graphmem.core.relations`) believed at the end, over every valid time, are
scored:

- **precision**: the share of those facts (one per subject, predicate and object, names joined
  by the ``alias_of`` facts believed) that match a labelled line: the same word, or a wider one
  that covers it (``child_of`` for a labelled son), and the same two people. Names are compared
  case-insensitively, directly or through an entity's names in ``NAME.entities.jsonl`` (Mel for
  Melanie). A relative the store keeps unnamed (``Maya's sister sister_of Maya``) is right when
  a line gives OF someone of that word; these are counted apart as ``unnamed``.
- **recall**: the share of labelled relations (a line and its inverse counted once) that a fact
  matches with both names, the unnamed ones as labelled ("Rosa's mother").

Internal: ``graphmem eval relations`` prints it; the tests call :func:`evaluate_relations`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core.aliases import ALIAS, alias_groups
from .core.json_lines import records
from .core.relations import covers, relation_of
from .errors import InvalidInput

__all__ = ["ChatScore", "RelationsScore", "evaluate_relations", "find_chats", "score_chat"]


@dataclass(frozen=True)
class _Line:
    person: str
    relation: str
    of: str
    pair: tuple[frozenset[str], str]  # the line and its inverse: the two people, the message


@dataclass(frozen=True)
class _Fact:
    subject: frozenset[str]  # the names of the subject's alias group, lowercase
    word: str
    object: frozenset[str]
    shown: str  # "Anna sister_of Maya"
    unnamed: bool  # the subject is an unnamed relative of the object ("Maya's sister")


@dataclass
class ChatScore:
    """One chat's relation facts and how many of them, and of the labels, matched."""

    name: str
    messages: int
    engine: str
    facts: list[str] = field(default_factory=list)
    right: list[str] = field(default_factory=list)
    unnamed: list[str] = field(default_factory=list)  # right through an unnamed relative
    wrong: list[str] = field(default_factory=list)
    labelled: int = 0
    found: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"chat": self.name, "messages": self.messages, "facts": len(self.facts), "right": len(self.right),
                "unnamed": len(self.unnamed), "labelled": self.labelled, "found": self.found}


@dataclass
class RelationsScore:
    """The chats of one directory, scored together."""

    directory: str
    engine: str
    chats: list[ChatScore]

    def total(self, what: str) -> int:
        value = 0
        for chat in self.chats:
            got = getattr(chat, what)
            value += len(got) if isinstance(got, list) else got
        return value

    @property
    def precision(self) -> float:
        facts = self.total("facts")
        return self.total("right") / facts if facts else 0.0

    @property
    def recall(self) -> float:
        labelled = self.total("labelled")
        return self.total("found") / labelled if labelled else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"directory": self.directory, "engine": self.engine, "messages": self.total("messages"),
                "facts": self.total("facts"), "right": self.total("right"), "unnamed": self.total("unnamed"),
                "precision": round(self.precision, 4), "labelled": self.total("labelled"),
                "found": self.total("found"), "recall": round(self.recall, 4),
                "chats": [chat.as_json() for chat in self.chats]}


def find_chats(path: str | Path) -> list[Path]:
    """The chats at ``path``: a folder's ``NAME.jsonl`` files that have a ``NAME.relations.jsonl``
    beside them, or one such file."""
    given = Path(path)
    if given.is_file():
        if "." in given.name.removesuffix(".jsonl") or not given.name.endswith(".jsonl"):
            raise InvalidInput(f"{given} is no chat: name a NAME.jsonl, or a folder of them")
        if not _beside(given, "relations").exists():
            raise InvalidInput(f"{given}: no {_beside(given, 'relations').name} beside it")
        return [given]
    if not given.is_dir():
        raise InvalidInput(f"{given} is neither a chat nor a folder of chats")
    chats = sorted(p for p in given.glob("*.jsonl") if "." not in p.name.removesuffix(".jsonl")
                   and _beside(p, "relations").exists())
    if not chats:
        raise InvalidInput(f"no chat with relation labels (NAME.jsonl beside NAME.relations.jsonl) in {given}")
    return chats


def _beside(chat: Path, what: str) -> Path:
    return chat.with_name(f"{chat.name.removesuffix('.jsonl')}.{what}.jsonl")


def _labels(chat: Path) -> tuple[list[_Line], list[set[str]]]:
    lines: list[_Line] = []
    for where, data in records(_beside(chat, "relations"), InvalidInput):
        try:
            person, relation, of = str(data["person"]), str(data["relation"]), str(data["of"])
            message = str(data.get("message", ""))
        except (KeyError, TypeError):
            raise InvalidInput(f"{where}: expected {{\"person\", \"relation\", \"of\", \"message\"}}") from None
        lines.append(_Line(person.lower(), relation, of.lower(), (frozenset({person.lower(), of.lower()}), message)))
    entities: list[set[str]] = []
    entities_path = _beside(chat, "entities")
    if entities_path.exists():
        for _, data in records(entities_path, InvalidInput):
            if isinstance(data, dict):
                names = {str(n).lower() for n in data.get("names", [])}
                if data.get("canonical"):
                    names.add(str(data["canonical"]).lower())
                entities.append(names)
    return lines, entities


def _same(names: frozenset[str], label: str, entities: Sequence[set[str]]) -> bool:
    """Whether a stored entity known by ``names`` is the labelled ``label``."""
    return label in names or any(label in entity and names & entity for entity in entities)


def _facts(store: Any) -> list[_Fact]:
    versions = store.beliefs(valid_at="all")
    named = {v.subject_id: v.subject for v in versions} | {v.object_id: v.object for v in versions}
    groups = alias_groups(((v.subject_id, v.object_id) for v in versions if v.predicate == ALIAS), {})

    def names(entity: str) -> frozenset[str]:
        return frozenset(named.get(e, e).lower() for e in groups.of(entity))

    found: dict[tuple[str, str, str], _Fact] = {}
    for v in versions:
        word = relation_of(v.predicate)
        if word is None:
            continue
        key = (groups.lead(v.subject_id), word, groups.lead(v.object_id))
        if key not in found:
            unnamed = v.subject.lower().startswith(v.object.lower() + "'s ") and len(names(v.subject_id)) == 1
            found[key] = _Fact(names(v.subject_id), word, names(v.object_id),
                               f"{v.subject} {v.predicate} {v.object}", unnamed)
    return list(found.values())


def score_chat(chat: Path, *, engine: str | None = None) -> ChatScore:
    """Ingest one chat into a new store and score its relation facts (see the module)."""
    from .evaluation import scratch_store
    from .ingest import ingest, read_messages

    lines, entities = _labels(chat)
    with scratch_store(engine, prefix="graphmem-relations-") as store:
        messages = read_messages(chat, tz=store.tz)
        ingest(store, messages, replay=True, approve=True)
        facts = _facts(store)
        score = ChatScore(chat.name.removesuffix(".jsonl"), len(messages), store.engine)
    found: set[tuple[frozenset[str], str]] = set()
    for fact in facts:
        score.facts.append(fact.shown)
        named = [line for line in lines if covers(fact.word, line.relation)
                 and _same(fact.subject, line.person, entities) and _same(fact.object, line.of, entities)]
        found.update(line.pair for line in named)
        if named:
            score.right.append(fact.shown)
        elif fact.unnamed and any(covers(fact.word, line.relation) and _same(fact.object, line.of, entities)
                                  for line in lines):
            score.right.append(fact.shown)
            score.unnamed.append(fact.shown)
        else:
            score.wrong.append(fact.shown)
    score.labelled = len({line.pair for line in lines})
    score.found = len(found)
    return score


def evaluate_relations(paths: Iterable[str | Path], *, engine: str | None = None,
                       progress: Callable[[str, int, int], None] | None = None) -> list[RelationsScore]:
    """Each path's chats scored (:func:`score_chat`), one :class:`RelationsScore` per path (a
    folder of chats, or one chat's ``NAME.jsonl``)."""
    folders = [(str(d), find_chats(d)) for d in paths]
    total, done = sum(len(chats) for _, chats in folders), 0
    scores = []
    for directory, chats in folders:
        scored = []
        for chat in chats:
            scored.append(score_chat(chat, engine=engine))
            done += 1
            if progress:
                progress("chats", done, total)
        scores.append(RelationsScore(directory, scored[0].engine if scored else engine or "default", scored))
    return scores
