"""Search: the facts whose words match, as believed at T, the most recent occurrence first.

What matches is decided by one Python predicate on both engines: a fact matches when every word
of the search text is one of the fact's words: its subject's, its predicate's (``lives_in`` gives
``lives`` and ``in``), its object's, or those of the episodes that support it. Words are runs of
letters and digits, compared after Unicode NFKC folding and case folding; ``Xi'an`` is the two
words ``xi`` and ``an``.

Where the engine has a full-text index (kuzu bundles one), it finds the candidates: each snapshot
gets an index whose documents are the facts' words, already folded by the predicate's own
tokenizer and spelled in letters a-p (two per UTF-8 byte), so that the index's lower-casing,
punctuation stripping, stemming (turned off) and stop words (an empty list) cannot change them.
An index lookup is then an exact word lookup, and the candidates are exactly the predicate's
matches; the predicate still confirms each one. Where there is no index (ladybug offline),
the predicate scans the snapshot. Both give the same facts, ranked the same way.

The index lives in an in-memory database beside the snapshot, never in the store: in kuzu
0.11.3, after a write to an indexed table is rolled back, rows later loaded with COPY inside a
transaction (as an import does) are silently missing from the index, and a later update crashed
the process; an index in the store would also keep purged text in its files.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime

import pyarrow as pa

from .cypher import Snapshot
from .engine import Engine, acquire, release
from .errors import InvalidInput
from .models import Version
from .reads import with_status

__all__ = ["search", "words"]

_WORD = re.compile(r"[^\W_]+")
_GROUP = {"current": 0, "upcoming": 1, "ended": 2}
_FTS = "fts"
_DOCS = "search_docs"


def words(text: str) -> list[str]:
    """The words of ``text`` as search compares them: folded runs of letters and digits."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _spelled(word: str) -> str:
    """A word in letters a-p only (two per UTF-8 byte), which the index keeps exactly."""
    return "".join(chr(97 + (b >> 4)) + chr(97 + (b & 15)) for b in word.encode())


def _documents(snapshot: Snapshot) -> dict[str, frozenset[str]]:
    """Each fact's words (subject, predicate, object, supporting episodes), built once per snapshot."""
    docs = snapshot.extras.get(_DOCS)
    if docs is None:
        texts = {e.id: e.text for e in snapshot.episodes}
        docs = {}
        for v in snapshot.versions:
            parts = [v.subject, v.predicate, v.object, *(texts[e] for e in v.episodes if e in texts)]
            docs[v.id] = frozenset(w for part in parts for w in words(part))
        snapshot.extras[_DOCS] = docs
    return docs


@dataclass
class _Index:
    """A full-text index over one snapshot's fact documents, in its own in-memory database."""

    engine: Engine
    size: int

    def close(self) -> None:
        release(self.engine)

    def lookup(self, terms: list[str]) -> set[str]:
        rows = self.engine.run_text(
            "CALL QUERY_FTS_INDEX('Doc', 'doc_words', $q, conjunctive := true, top := $top) "
            "RETURN node.id",
            {"q": " ".join(_spelled(t) for t in terms), "top": max(self.size, 1)},
        )
        return {row[0] for row in rows}


_has_index: dict[str, bool] = {}


def _index(snapshot: Snapshot, engine_name: str) -> _Index | None:
    """The snapshot's full-text index, built on first use; None where the engine has none."""
    if not _has_index.get(engine_name, True):
        return None
    found = snapshot.extras.get(_FTS)
    if found is None:
        found = _build_index(_documents(snapshot), engine_name)
        if found is None:
            return None
        snapshot.extras[_FTS] = found
    return found


def _build_index(docs: dict[str, frozenset[str]], engine_name: str) -> _Index | None:
    engine = acquire(engine_name, None)
    try:
        engine.run_text("CREATE NODE TABLE Doc(id STRING PRIMARY KEY, words STRING)", {})
        engine.run_text("CREATE NODE TABLE NoStopWords(word STRING PRIMARY KEY)", {})
        if docs:
            spelled = [" ".join(sorted(_spelled(w) for w in d)) for d in docs.values()]
            table = pa.table({"id": pa.array(list(docs), pa.string()), "words": pa.array(spelled, pa.string())})
            engine.run_text("COPY Doc FROM $rows", {"rows": table})
        try:
            engine.run_text(
                "CALL CREATE_FTS_INDEX('Doc', 'doc_words', ['words'], stemmer := 'none', "
                "stopwords := 'NoStopWords')", {},
            )
        except RuntimeError:  # no fts extension in this engine (ladybug offline)
            _has_index[engine_name] = False
            release(engine)
            return None
    except BaseException:
        release(engine)
        raise
    _has_index[engine_name] = True
    return _Index(engine, len(docs))


def _overlaps(v: Version, after: datetime | None, before: datetime | None) -> bool:
    if after is not None and v.valid_to is not None and v.valid_to <= after:
        return False
    return before is None or v.valid_from < before


def _rank(v: Version, kinds: dict[str, str]) -> tuple:
    """Current before upcoming before ended; then the latest occurrence first.

    An event's occurrence is when it happened (its start); a state's is its start while it
    holds, its end once it has ended.
    """
    group = _GROUP.get(v.status or "", 3)
    when = v.valid_from
    if group == 2 and kinds.get(v.predicate) != "event" and v.valid_to is not None:
        when = v.valid_to
    return (group, -when.timestamp(), -v.valid_from.timestamp(), v.subject, v.predicate, v.object, v.id)


def search(snapshot: Snapshot, engine: str, kinds: dict[str, str], text: str, after: datetime | None = None,
           before: datetime | None = None, *, use_index: bool = True) -> list[Version]:
    """The facts of ``snapshot`` (believed at its moment) matching ``text``.

    Every word of ``text`` must be a word of the fact's subject, predicate, object or supporting
    episodes. ``after``/``before`` keep facts whose valid period reaches past ``after`` and starts
    before ``before``. Ranked current first, then upcoming, then ended; within each, the most
    recent occurrence first (events by when they happened; ``kinds`` say which predicates are
    events). ``use_index=False`` skips the full-text index (the results are the same; tests
    compare the two). Hold the store's lock: a write would drop the snapshot's index.
    """
    terms = list(dict.fromkeys(words(text or "")))
    if not terms:
        raise InvalidInput("search needs at least one word (letters or digits), e.g. graphmem search Berlin")
    if after is not None and before is not None and before <= after:
        raise InvalidInput("--before must be later than --after")
    t, v = snapshot.as_of, snapshot.valid_at
    docs = _documents(snapshot)
    index = _index(snapshot, engine) if use_index else None
    candidates = index.lookup(terms) if index is not None else docs.keys()
    found = [
        with_status(version, t, v)
        for version in snapshot.versions
        if version.id in candidates and all(term in docs[version.id] for term in terms)
        and _overlaps(version, after, before)
    ]
    return sorted(found, key=lambda version: _rank(version, kinds))
