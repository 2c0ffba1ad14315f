"""`graphmem eval aliases`: how well ``alias suggest`` finds the names that are one entity.

A labelled chat ``NAME`` is ``NAME.jsonl`` (the messages, in the shape ``graphmem ingest``
reads), ``NAME.entities.jsonl`` (every entity with the ``names`` the chat uses for it) and
``NAME.pairs.jsonl`` (pairs of names labelled ``same`` or not); ``tests/data/aliases/README.md``
describes them. Each chat is ingested into a new store the way a user would (``ingest --replay
--approve``, the default offline extractor) and :meth:`graphmem.Store.alias_suggestions` is
asked. Names compare case-insensitively.

- **recall**: the labelled ``same: true`` pairs suggested, over all of them;
- **precision**, strictly: a suggested pair is right when both names are among one entity's
  ``names`` and neither name is used for two entities; any other suggestion (a pair labelled
  different, names of two entities, a name no entity has) is wrong.

Beside it, in the same run, the simplest peer: every pair of the same candidate names (the
words and phrases the rules consider, :func:`graphmem.core.alias_evidence.candidates`) whose
Jaro-Winkler similarity (``rapidfuzz``, lower case) is at least :data:`PEER_THRESHOLD`, scored
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core.json_lines import records
from .errors import InvalidInput

__all__ = ["PEER_THRESHOLD", "LabelledChat", "Report", "Score", "evaluate", "find", "score_pairs"]

#: The peer's Jaro-Winkler threshold: two names at least this similar are suggested as one.
PEER_THRESHOLD = 0.9


@dataclass(frozen=True)
class LabelledChat:
    """The files of one labelled chat, and the part of the set it belongs to (its folder's name)."""

    name: str
    part: str
    messages: Path
    entities: Path
    pairs: Path


def find(paths: Iterable[str | Path]) -> list[LabelledChat]:
    """The labelled chats in ``paths``: each a chat's ``NAME.jsonl`` or a folder of them."""
    found = []
    for path in map(Path, paths):
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            if file.name.count(".") != 1:
                continue  # NAME.entities.jsonl, NAME.pairs.jsonl, ...: read with their chat
            entities, pairs = (file.with_name(f"{file.stem}.{kind}.jsonl") for kind in ("entities", "pairs"))
            for needed in (entities, pairs):
                if not needed.exists():
                    raise InvalidInput(f"{file}: no {needed.name} beside it")
            found.append(LabelledChat(file.stem, file.resolve().parent.name, file, entities, pairs))
    if not found:
        raise InvalidInput("no labelled chats found in " + ", ".join(map(str, paths)))
    return found


@dataclass
class Score:
    """Suggestions scored against one set of labels: how many, how many right, and the labelled
    pairs found."""

    suggested: int = 0
    right: int = 0
    same: int = 0
    found: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.suggested if self.suggested else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.same if self.same else 0.0

    def __iadd__(self, other: Score) -> Score:
        self.suggested += other.suggested
        self.right += other.right
        self.same += other.same
        self.found += other.found
        return self

    def as_json(self) -> dict[str, Any]:
        return {"suggested": self.suggested, "right": self.right, "precision": round(self.precision, 4),
                "same": self.same, "found": self.found, "recall": round(self.recall, 4)}


def _owners(path: Path) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    for where, data in records(path, InvalidInput):
        try:
            entity, names = str(data["entity"]), [str(n) for n in data["names"]]
        except (KeyError, TypeError):
            raise InvalidInput(f"{where}: an entity needs entity and names") from None
        for name in names:
            owners.setdefault(name.lower(), set()).add(entity)
    return owners


def _same_pairs(path: Path) -> set[frozenset[str]]:
    same = set()
    for where, data in records(path, InvalidInput):
        try:
            a, b, label = str(data["a"]).lower(), str(data["b"]).lower(), data["same"]
        except KeyError:
            raise InvalidInput(f"{where}: a pair needs a, b and same") from None
        if not isinstance(label, bool):
            raise InvalidInput(f"{where}: same is true or false")
        if label:
            same.add(frozenset((a, b)))
    return same


def score_pairs(suggested: Iterable[tuple[str, str]], owners: dict[str, set[str]],
                same: set[frozenset[str]]) -> Score:
    """Score suggested pairs of names: strict precision against the entities' names, recall of
    the ``same`` pairs (see the module's docstring)."""
    score = Score(same=len(same))
    seen: set[frozenset[str]] = set()
    for a, b in suggested:
        pair = frozenset((a.lower(), b.lower()))
        if len(pair) < 2 or pair in seen:
            continue
        seen.add(pair)
        x, y = sorted(pair)
        score.suggested += 1
        score.right += len(owners.get(x, ())) == 1 and owners.get(x) == owners.get(y)
    score.found = len(same & seen)
    return score


@dataclass
class Report:
    """graphmem's and the peer's scores per chat, for parts (folders) and overall."""

    engine: str
    chats: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> {part, graphmem, peer}

    @property
    def parts(self) -> list[str]:
        return list(dict.fromkeys(c["part"] for c in self.chats.values()))

    def total(self, who: str, part: str | None = None) -> Score:
        total = Score()
        for chat in self.chats.values():
            if part is None or chat["part"] == part:
                total += chat[who]
        return total

    def as_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine, "peer": f"Jaro-Winkler >= {PEER_THRESHOLD} (rapidfuzz)",
            "parts": {part: {who: self.total(who, part).as_json() for who in ("graphmem", "peer")}
                      for part in self.parts},
            "overall": {who: self.total(who).as_json() for who in ("graphmem", "peer")},
            "chats": {name: {"part": c["part"], "graphmem": c["graphmem"].as_json(), "peer": c["peer"].as_json()}
                      for name, c in self.chats.items()},
        }


Progress = Callable[[str, int, int], None]


def evaluate(chats: Sequence[LabelledChat], *, engine: str | None = None, progress: Progress | None = None) -> Report:
    """Ingest, suggest and score every chat (see the module's docstring)."""
    from .core.alias_evidence import Message, candidates
    from .evaluation import scratch_store
    from .ingest import ingest, read_messages

    peer = _peer()
    report = Report(engine=engine or "default")
    for number, chat in enumerate(chats, 1):
        owners, same = _owners(chat.entities), _same_pairs(chat.pairs)
        with scratch_store(engine) as store:
            report.engine = store.engine
            ingest(store, read_messages(chat.messages, tz=store.tz), replay=True, approve=True)
            suggested = [(s.a, s.b) for s in store.alias_suggestions()]
            names = candidates([Message(e.id, e.actor, e.text) for e in store.episodes()],
                               [e.name for e in store.entities()])
        report.chats[chat.name] = {"part": chat.part, "graphmem": score_pairs(suggested, owners, same),
                                   "peer": score_pairs(peer(names), owners, same)}
        if progress:
            progress("chats", number, len(chats))
    return report


def _peer() -> Callable[[list[str]], list[tuple[str, str]]]:
    try:
        from rapidfuzz.distance import JaroWinkler
    except ImportError:
        raise InvalidInput("the string-similarity peer needs rapidfuzz: pip install 'graphmem[eval]'") from None

    def pairs(names: list[str]) -> list[tuple[str, str]]:
        lowered = [n.lower() for n in names]
        return [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))
                if lowered[i] != lowered[j] and JaroWinkler.similarity(lowered[i], lowered[j]) >= PEER_THRESHOLD]

    return pairs
