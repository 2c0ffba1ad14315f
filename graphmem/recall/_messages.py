"""What was said, searchable: a full-text index of every episode, kept in a file beside the store.

The store's episodes (chat messages, tool output, notes, documents) are mirrored into SQLite
(``messages.sqlite`` in the store's directory; in memory for a store in memory): each episode's
text, speaker, chat time and receipt time, its words as recall compares them (stems, see
:mod:`graphmem.recall._text`, with the speaker's name in front), and the periods its time phrases
resolve to against its chat time ("yesterday", said on 8 May 2023, is 7 May 2023). An FTS5 table
over the words finds candidates; they are scored here with Okapi BM25 (k1 1.2, b 0.75) over the
statistics of the episodes received by the question's moment, so an answer as of T never changes
after T.

The file is derived data: it records the state of the store it mirrors (latest write, episode and
tombstone counters) in the same SQLite transaction as the rows, and is brought up to date before
every search. New episodes are appended; a purge (the tombstone counter moved) or anything it
cannot follow (a restore, a file from another store) is reconciled against the store's episodes:
rows the store no longer holds are deleted and rewritten texts indexed again, with SQLite's
``secure_delete`` on and the FTS index rebuilt from the rows, so a purged text stays in no page of
the file. A message is also found, at lower weight, by the words of the two turns before it (a reply by
what it answers, and the news that question was about).
A kill at any moment leaves the file at its last committed state, which the next search follows.

Internal: search with :meth:`graphmem.Store.search`.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ..core import records
from ..core.call_records import is_call_record
from ..core.times import MIN_TIME, OPEN_END, UTC, to_engine
from ..engine import Engine
from ..models import Episode
from ..when import resolve_times
from ._file import FILE
from ._index import INF, micros, moment
from ._text import name_terms, terms

__all__ = ["FILE", "Found", "MessageIndex", "Said", "asks"]

K1, B = 1.2, 0.75
#: How many candidates FTS5 proposes (by its own BM25 over the whole file) for exact scoring.
CANDIDATES = 400
#: How many postings the words that propose candidates may have in all (FTS5 ranks every row
#: they match): the rarest words propose, the commoner ones only score.
COMMON = 20_000
#: A word held by more than one message in SHARE proposes no candidates (it still scores them),
#: once there are at least SMALL messages (in a small store every word proposes).
SHARE = 4
SMALL = 1_000
#: A message and the one before it are turns of one exchange when said at most this far apart.
TURN_GAP = 6 * 3_600_000_000
#: How much the words of the turn before count, beside a message's own.
CONTEXT_WEIGHT = 0.5
#: How many turns before a message its context holds: the other speaker's question and the news it asks about
#: ("i quit the running club" - "why??" - "5am is killing me"). On the 62 dev conversations, evidence recall@5
#: 0.646 with one turn at 0.3, 0.664 with two at 0.3, 0.678 with two at 0.5, 0.673 at 0.7, 0.670 with three at
#: 0.4 (the aliases set's questions 0.823 either way): docs/recall.md.
CONTEXT_TURNS = 2
#: What a message that ends by asking ("how was the flight though?", "and the peugeot? 😅") scores of what its
#: words would give it: a question is seldom what answers one. On the 62 dev conversations, 1.5 % of the evidence
#: messages end with "?", 11 % of all messages, and 9.6 % of the first five answers did; evidence recall@5 0.691
#: at 1, 0.706 at 0.7, 0.711 at 0.5, 0.713 at 0.3 (the aliases set's dev questions 0.827, 0.834, 0.836).
QUESTION_WEIGHT = 0.5
#: Up to this many new episodes are fetched one by one by key at a sync; more, by a scan.
FEW = 32
_VERSION = "7"  # 2: two turns of context; 3: whether it asks; 4: irregular forms by their base; 5: accents folded;
# 6: Chinese characters and kana in pairs; 7: "mummy", "daddy" by "mum", "dad"
# (a file of another version is made again)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS message (
    n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, actor TEXT, said INTEGER NOT NULL,
    received INTEGER NOT NULL, length INTEGER NOT NULL, seen INTEGER NOT NULL, total INTEGER NOT NULL,
    terms TEXT NOT NULL, context TEXT NOT NULL, text TEXT NOT NULL, asks INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS message_received ON message(received);
CREATE INDEX IF NOT EXISTS message_said ON message(said);
CREATE TABLE IF NOT EXISTS said_time (
    n INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, phrase TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS said_time_n ON said_time(n);
DROP INDEX IF EXISTS said_time_start;
CREATE INDEX IF NOT EXISTS said_time_span ON said_time(start, end, n);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(
    terms, context, content='message', content_rowid='n', tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS vocabulary USING fts5vocab(words, 'row');
"""
_COLUMNS = "n, id, kind, actor, said, received, text"
#: Actors that are roles, not people of the conversation.
_NOT_PEOPLE = frozenset({"assistant", "user", "system", "tool"})


@dataclass(frozen=True)
class Said:
    """A time phrase of a message and the period it resolves to against the message's chat time."""

    phrase: str
    start: datetime
    end: datetime | None


@dataclass(frozen=True)
class Found:
    """One message as the index keeps it, with its score for a question."""

    n: int
    id: str
    kind: str
    actor: str | None
    said: datetime
    received: datetime
    text: str
    score: float = 0.0
    words: tuple[str, ...] = ()
    times: tuple[Said, ...] = ()


def _state(meta: Mapping[str, str]) -> dict[str, str]:
    return {"version": _VERSION, "last_write": meta.get("last_write") or "", "ep": meta.get("seq:ep") or "0",
            "t": meta.get("seq:t") or "0"}


def document(actor: str | None, text: str) -> list[str]:
    """The words a message is found by: its speaker's name, then its text."""
    return [*(name_terms(actor) if actor else ()), *terms(text)]


class MessageIndex:
    """The message index of one store (``directory`` None: in memory)."""

    def __init__(self, directory: Path | None):
        self.path = None if directory is None else directory / FILE
        self.db = self._open()
        # Each word's count of messages holding it, for the file in the state (and newest row)
        # it was read in: FTS5 counts a word by reading all its postings (~12 ms for a word
        # every one of 500k messages holds), and the common words are the ones asked again.
        self._counts: dict[str, int] = {}
        self._windows: dict[tuple[tuple[int, int], int], list[int] | None] = {}
        self._counted: tuple[object, ...] | None = None

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:" if self.path is None else str(self.path), check_same_thread=False,
                             isolation_level=None)
        db.execute("PRAGMA secure_delete = ON")  # a deleted row's bytes are overwritten, not left in free pages
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = db.execute("SELECT value FROM state WHERE key = 'version'").fetchone() if "state" in tables else None
        columns = {row[1] for row in db.execute("PRAGMA table_info(message)")}
        if (version is not None and version[0] != _VERSION) or (columns and "asks" not in columns):
            # made by another version: its tables are made again, then filled at the next sync
            db.executescript("BEGIN; DROP TABLE IF EXISTS vocabulary; DROP TABLE IF EXISTS words; "
                             "DROP TABLE IF EXISTS said_time; DROP TABLE IF EXISTS message; "
                             "DROP TABLE IF EXISTS state; COMMIT;")
        db.executescript(_SCHEMA)
        return db

    def close(self) -> None:
        self.db.close()

    def _known(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM state"))

    # -- kept in step with the store ------------------------------------------------------------------

    def sync(self, engine: Engine, meta: Mapping[str, str], tz: tzinfo) -> None:
        """Bring the file up to date with the store whose settings are ``meta`` (hold the engine's lock)."""
        wanted, known = _state(meta), self._known()
        if wanted == known:
            return
        moved_back = (known.get("version") != _VERSION or known.get("t", "0") != wanted["t"]
                      or known.get("last_write", "") > wanted["last_write"]
                      or int(known.get("ep", "0")) > int(wanted["ep"]))
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if moved_back or not self._continues(engine):
                self._reconcile(engine, tz)
            else:
                self._append(engine, tz, int(known.get("ep", "0")), int(wanted["ep"]))
            self.db.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)", wanted.items())
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _last(self) -> tuple[int, str, int] | None:
        """The last message indexed: its row number, episode id and receipt time."""
        row = self.db.execute("SELECT n, id, received FROM message ORDER BY n DESC LIMIT 1").fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def _continues(self, engine: Engine) -> bool:
        """True when the last message indexed is still the store's, unchanged (the file is this store's)."""
        last = self._last()
        if last is None:
            return True
        rows = engine.run("store/episode_get_one", {"id": last[1]})
        return bool(rows) and micros(records.episode(rows[0]).received_at) == last[2]

    def _append(self, engine: Engine, tz: tzinfo, since: int = 0, until: int = 0) -> None:
        """Index the episodes the store received since the file's last sync: the few new ids
        (``since`` < number <= ``until``) by key when they all exist and none is older than the
        last indexed; else every episode received since the last indexed one (a scan of the
        store's episodes, ~50 ms at 500k, also after a write that recorded no episode)."""
        last = self._last()
        if last is not None and until - since <= FEW:
            rows = []
            for number in range(since + 1, until + 1):
                found = engine.run("store/episode_get_one", {"id": f"ep{number}"})
                if not found:
                    break
                rows.append(_episode(records.episode(found[0])))
            else:
                rows.sort(key=lambda r: (r[5], _recorded(r[0])))
                if all(r[5] >= last[2] for r in rows):
                    marks = ",".join("?" * len(rows))
                    held = {i for (i,) in self.db.execute(f"SELECT id FROM message WHERE id IN ({marks})",
                                                         [r[0] for r in rows])} if rows else set()
                    self._insert([r for r in rows if r[0] not in held], tz)
                    return
        table = engine.arrow("recall/messages_since", {"at": to_engine(moment(last[2]) if last else MIN_TIME)})
        known = {row[0] for row in self.db.execute("SELECT id FROM message WHERE received >= ?", (last[2],))} \
            if last else set()
        self._insert(_rows(table, skip=known), tz)

    def _insert(self, rows: Iterable[tuple[str, str, str | None, str, int, int]], tz: tzinfo) -> None:
        last = self.db.execute("SELECT n, seen, total FROM message ORDER BY n DESC LIMIT 1").fetchone()
        n, seen, total = last if last else (0, 0, 0)
        previous = [] if last is None else self._turns_before(last[0] + 1)
        messages: list[tuple[object, ...]] = []
        times: list[tuple[int, int, int, str]] = []
        for episode_id, kind, actor, text, said, received in rows:
            words = document(actor, text)
            context = _context(previous, kind, said)
            n, seen, total = n + 1, seen + 1, total + len(words)
            messages.append((n, episode_id, kind, actor, said, received, len(words), seen, total, " ".join(words),
                             context, text, asks(text)))
            times.extend((n, *span) for span in _times(text, said, tz))
            previous = [*previous, (kind, said, _own(actor, words))][-CONTEXT_TURNS:]
        self.db.executemany("INSERT INTO message VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", messages)
        self.db.executemany("INSERT INTO words(rowid, terms, context) VALUES (?, ?, ?)",
                            [(m[0], m[9], m[10]) for m in messages])
        self.db.executemany("INSERT INTO said_time VALUES (?, ?, ?, ?)", times)

    def _reconcile(self, engine: Engine, tz: tzinfo) -> None:
        """Make the file hold exactly the store's episodes: drop what the store no longer holds,
        index again what it rewrote, add what is new; start over when the order differs. The FTS
        index is then rebuilt from the rows, so no page keeps a word of a removed text."""
        table = engine.arrow("recall/messages_since", {"at": to_engine(MIN_TIME)})
        store = {row[0]: row for row in _rows(table)}
        held = {r[0]: (r[1], r[2], r[3]) for r in self.db.execute("SELECT id, n, actor, text FROM message")}
        new = [row for episode_id, row in store.items() if episode_id not in held]
        (newest,) = self.db.execute("SELECT max(received) FROM message").fetchone()
        if newest is not None and any(row[5] < newest for row in new):
            self._clear()  # something older than what is indexed: not a log this file followed
            self._insert(store.values(), tz)
            return
        gone = [n for episode_id, (n, _, _) in held.items() if episode_id not in store]
        changed = [(n, store[e]) for e, (n, actor, text) in held.items()
                   if e in store and (store[e][2], store[e][3]) != (actor, text)]
        if gone or changed:
            for n in gone:
                self.db.execute("DELETE FROM message WHERE n = ?", (n,))
                self.db.execute("DELETE FROM said_time WHERE n = ?", (n,))
            for n, (_, _, actor, text, said, _) in changed:
                words = document(actor, text)
                self.db.execute("UPDATE message SET actor = ?, text = ?, terms = ?, length = ?, asks = ? WHERE n = ?",
                                (actor, text, " ".join(words), len(words), asks(text), n))
                self.db.execute("DELETE FROM said_time WHERE n = ?", (n,))
                self.db.executemany("INSERT INTO said_time VALUES (?, ?, ?, ?)",
                                    [(n, *span) for span in _times(text, said, tz)])
            self._recount(min([*gone, *(n for n, _ in changed)]))
            self.db.execute("INSERT INTO words(words) VALUES ('rebuild')")
        self._insert(new, tz)

    def _recount(self, start: int = 0) -> None:
        """The running counts and context of each row from row ``start`` on again, from the rows
        as they are (the rows before it are not changed by what changed from it)."""
        before = self.db.execute("SELECT seen, total FROM message WHERE n < ? ORDER BY n DESC LIMIT 1",
                                 (start,)).fetchone()
        seen, total = before if before else (0, 0)
        previous = self._turns_before(start)
        updates = []
        for n, kind, actor, said, length, terms_text in self.db.execute(
                "SELECT n, kind, actor, said, length, terms FROM message WHERE n >= ? ORDER BY n", (start,)).fetchall():
            seen, total = seen + 1, total + length
            updates.append((seen, total, _context(previous, kind, said), n))
            previous = [*previous, (kind, said, _own(actor, terms_text.split()))][-CONTEXT_TURNS:]
        self.db.executemany("UPDATE message SET seen = ?, total = ?, context = ? WHERE n = ?", updates)

    def _turns_before(self, start: int) -> list[tuple[str, int, list[str]]]:
        """The last :data:`CONTEXT_TURNS` rows before row ``start`` as (kind, chat time, own words), the latest last."""
        rows = self.db.execute("SELECT kind, said, actor, terms FROM message WHERE n < ? ORDER BY n DESC LIMIT ?",
                               (start, CONTEXT_TURNS)).fetchall()
        return [(kind, said, _own(actor, terms_text.split())) for kind, said, actor, terms_text in reversed(rows)]

    def _clear(self) -> None:
        for table in ("message", "said_time", "state"):
            self.db.execute(f"DELETE FROM {table}")
        self.db.execute("INSERT INTO words(words) VALUES ('rebuild')")

    # -- reading --------------------------------------------------------------------------------------

    def search(self, words: Sequence[tuple[str, float]], t: int, *, window: tuple[int, int] | None = None,
               limit: int = 10, scoring: Sequence[tuple[str, float]] = (), own_first: bool = False) -> list[Found]:
        """The messages received by ``t`` that best match the weighted stems ``words``, best first;
        with a ``window`` (microseconds, half open), only those said in it or whose time phrases
        reach into it. The stems ``scoring`` count in the score of a message ``words`` found, and
        find none themselves (nor are they among its ``words``). ``own_first``: a message holding more
        of the words in its own text comes first, whatever the turns before it hold (words looked for,
        not a question)."""
        self._windows = {}
        cut = self.db.execute("SELECT n, seen, total FROM message WHERE received <= ? ORDER BY received DESC, n DESC "
                              "LIMIT 1", (t,)).fetchone()
        weights: dict[str, float] = {}
        for stem, weight in words:
            if _bare(stem):
                weights[stem] = max(weight, weights.get(stem, 0.0))
        if cut is None or not weights:
            return []
        extra = {stem: weight for stem, weight in scoring if _bare(stem) and stem not in weights}
        last_n, count, total = cut
        frequency = self._frequencies([*weights, *extra], last_n)
        weights = {stem: weight for stem, weight in weights.items() if frequency.get(stem)}
        extra = {stem: weight for stem, weight in extra.items() if frequency.get(stem)}
        if not weights:
            return []
        # Candidates come from the rarest words (up to COMMON postings in all): a word held by a
        # large share of the messages is scored in every candidate, but does not propose them.
        # A word held by more than a quarter of them only scores: a message holding no other
        # word of the question is no answer (unless every word of the question is that common,
        # or the store holds fewer than SMALL messages).
        usual = [stem for stem in weights if count < SMALL or frequency[stem] * SHARE <= count] or list(weights)
        chosen: list[str] = []
        postings = 0
        for stem in sorted(usual, key=lambda s: frequency[s]):
            if chosen and postings + frequency[stem] > COMMON:
                break
            chosen.append(stem)
            postings += frequency[stem]
        inside = self._inside(window, postings)
        if inside is not None and not inside:
            return []  # nothing was said in the window, nor names a time in it
        candidates = self._candidates(chosen, last_n, window, inside)
        if extra and len(candidates) >= CANDIDATES:
            # so many messages hold the rarest words ("sanne" in each of hers) that FTS5's own ranking, blind to the
            # synonyms, chose the candidates: those holding a synonym too are proposed as well
            seen = set(candidates)
            candidates += [n for n in self._candidates(chosen, last_n, window, inside, also=list(extra))
                           if n not in seen]
        score = _Scorer(weights, frequency, count, total / count * (1 + CONTEXT_WEIGHT * CONTEXT_TURNS), extra)
        scored = sorted(self._scored(candidates, score), key=lambda item: (-item[0], -item[1]))
        left = [stem for stem in usual if stem not in chosen]
        if left:
            # A message holding none of the chosen words scores at most this: when the limit-th
            # answer beats it, no such message can enter the answers. Otherwise the left words
            # propose too: alone when every message holding a chosen word was scored, else with them.
            # (the synonyms left out of it: a message they alone would lift in is not looked for)
            bound = sum(weights[s] * _idf(count, frequency[s]) * (K1 + 1) for s in left)
            if len(scored) < limit or scored[limit - 1][0] <= bound:
                complete = len(candidates) < CANDIDATES
                more = self._candidates(left if complete else usual, last_n, window,
                                        self._inside(window, sum(frequency[s] for s in usual)))
                if complete:
                    seen = set(candidates)
                    scored += self._scored([n for n in more if n not in seen], score)
                else:
                    scored = self._scored(more, score)
        scored.sort(key=(lambda item: (-len(item[2]), -item[0], -item[1])) if own_first else
                    (lambda item: (-item[0], -item[1])))
        best = scored[:limit]
        found = {f.n: f for f in self.rows([n for _, n, _ in best])}
        return [replace(found[n], score=round(value, 4), words=matched) for value, n, matched in best]

    def _scored(self, candidates: list[int], score: _Scorer) -> list[tuple[float, int, tuple[str, ...]]]:
        """(score, row, words of the question it holds) of each candidate that scores."""
        if not candidates:
            return []
        marks = ",".join("?" * len(candidates))
        rows = self.db.execute(f"SELECT n, terms, context, asks, kind, CASE WHEN kind = 'tool' THEN text ELSE "
                               f"substr(text, 1, 64) END FROM message WHERE n IN ({marks})", candidates).fetchall()
        # (a message's first 64 characters are enough to tell one of words from "❤️❤️": no whole text read)
        scored = []
        for n, own, context, asking, kind, text in rows:
            if kind == "tool" and is_call_record(text):
                continue  # an assistant's own call, recorded as its write's source: no message of anyone's
            if not _WORDED.search(text):
                continue  # "❤️❤️", "😂😂😂": words of none but the turns around it (a new user's family chat: a heart
                # came second for "how much were the school fees")
            found = score(n, own, context)
            if found is not None:
                scored.append((found[0] * QUESTION_WEIGHT, *found[1:]) if asking else found)
        return scored

    def _inside(self, window: tuple[int, int] | None, postings: int) -> list[int] | None:
        """The rows said in ``window`` or whose phrases reach into it, when it holds few
        messages (at most a quarter of ``postings``); None without a window or for a wider one."""
        if window is None:
            return None
        key = (window, postings // 4)
        if key in self._windows:
            return self._windows[key]
        (said,) = self.db.execute("SELECT count(*) FROM (SELECT 1 FROM message WHERE said >= ? AND said < ? "
                                  "LIMIT ?)", (window[0], window[1], postings // 4 + 1)).fetchone()
        rows = None if said > postings // 4 else [n for (n,) in self.db.execute(
            "SELECT n FROM message WHERE said >= ?1 AND said < ?2 UNION SELECT n FROM said_time "
            "WHERE start < ?2 AND end > ?1", (window[0], window[1]))]
        self._windows[key] = rows  # the same search may ask again (emptied at each search)
        return rows

    def _candidates(self, stems: list[str], last_n: int, window: tuple[int, int] | None,
                    inside: list[int] | None, also: list[str] | None = None) -> list[int]:
        """Up to CANDIDATES rows up to ``last_n`` holding any of ``stems``, best first by FTS5's
        own BM25; with a ``window``, only rows said in it or whose time phrases reach into it.
        The rows of a window holding few messages (``inside``) are proposed to FTS5 (one lookup
        each); a wider window is checked on each row the words match (``rowid IN`` a large set
        makes FTS5 run the whole match once per row)."""
        query = _any(stems)
        if also:  # holding one of ``also`` as well
            query = f"({query}) AND ({_any(also)})"
        sql = "SELECT rowid FROM words WHERE words MATCH ? AND rowid <= ?"
        params: list[object] = [query, last_n]
        if inside is not None:
            sql += " AND rowid IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(inside))
        elif window is not None:
            sql += (" AND (EXISTS (SELECT 1 FROM message WHERE n = words.rowid AND said >= ? AND said < ?) "
                    "OR EXISTS (SELECT 1 FROM said_time WHERE said_time.n = words.rowid AND start < ? AND end > ?))")
            params += [window[0], window[1], window[1], window[0]]
        return [n for (n,) in self.db.execute(sql + " ORDER BY rank LIMIT ?", [*params, CANDIDATES])]

    def _frequencies(self, stems: list[str], last_n: int) -> dict[str, int]:
        """How many messages up to row ``last_n`` hold each stem."""
        (newest,) = self.db.execute("SELECT max(n) FROM message").fetchone()
        if newest - last_n < last_n:  # nearer the end: all of them less those after the row
            every = self._latest(stems, newest)
            if newest == last_n:
                return every
            return {stem: every[stem] - self.db.execute(
                "SELECT count(*) FROM words WHERE words MATCH ? AND rowid > ?", (f'"{stem}"', last_n)).fetchone()[0]
                for stem in stems}
        return {stem: self.db.execute("SELECT count(*) FROM words WHERE words MATCH ? AND rowid <= ?",
                                      (f'"{stem}"', last_n)).fetchone()[0] for stem in stems}

    def _latest(self, stems: list[str], newest: int) -> dict[str, int]:
        """How many messages of the file hold each stem (the vocabulary's counts, kept while the
        file's state and newest row stay the same: any change of the file moves its state)."""
        state = (newest, *self.db.execute("SELECT key, value FROM state ORDER BY key").fetchall())
        if state != self._counted:
            self._counts, self._counted = {}, state
        wanted = [stem for stem in stems if stem not in self._counts]
        if wanted:
            marks = ",".join("?" * len(wanted))
            found = dict(self.db.execute(f"SELECT term, doc FROM vocabulary WHERE term IN ({marks})", wanted))
            self._counts.update({stem: found.get(stem, 0) for stem in wanted})
        return {stem: self._counts[stem] for stem in stems}

    def rows(self, numbers: Sequence[int]) -> list[Found]:
        """Messages by row number, with their time phrases."""
        if not numbers:
            return []
        marks = ",".join("?" * len(numbers))
        times: dict[int, list[Said]] = {}
        for n, start, end, phrase in self.db.execute(
                f"SELECT n, start, end, phrase FROM said_time WHERE n IN ({marks}) ORDER BY n, rowid", numbers):
            times.setdefault(n, []).append(Said(phrase, _moment(start), moment(end)))
        return [Found(n, episode_id, kind, actor, _moment(said), _moment(received), text, times=tuple(times.get(n, ())))
                for n, episode_id, kind, actor, said, received, text
                in self.db.execute(f"SELECT {_COLUMNS} FROM message WHERE n IN ({marks})", numbers)]

    def around(self, found: Found, t: int, turns: int = 1) -> tuple[list[Found], list[Found]]:
        """The messages said just before and just after ``found`` (received by ``t``, of its kind,
        within six hours of it): the turns around it. Messages said at the same time (a phone's export
        keeps the minute alone) are in the order they were recorded (a new user's: the turn after came
        first)."""
        said, gap = micros(found.said), TURN_GAP
        before = [r[0] for r in self.db.execute(
            "SELECT n FROM message WHERE (said < ? OR said = ? AND n < ?) AND said >= ? AND received <= ? AND kind = ? "
            "ORDER BY said DESC, n DESC LIMIT ?", (said, said, found.n, said - gap, t, found.kind, turns))]
        after = [r[0] for r in self.db.execute(
            "SELECT n FROM message WHERE (said > ? OR said = ? AND n > ?) AND said <= ? AND received <= ? AND kind = ? "
            "ORDER BY said, n LIMIT ?", (said, said, found.n, said + gap, t, found.kind, turns))]
        rows = {f.n: f for f in self.rows(before + after)}
        return [rows[n] for n in reversed(before)], [rows[n] for n in after]

    def last_said(self, t: int) -> int | None:
        """When the last message received by ``t`` was said (chat time, µs), or None with none."""
        row = self.db.execute("SELECT said FROM message WHERE received <= ? ORDER BY said DESC LIMIT 1",
                              (t,)).fetchone()
        return None if row is None else int(row[0])

    def speakers(self, t: int, recent: int = 200) -> list[str]:
        """Who said the last ``recent`` messages received by ``t``, most recent first (assistants
        left out): the participants of the conversation going on then."""
        found = [actor for (actor,) in self.db.execute(
            "SELECT actor FROM message WHERE received <= ? AND actor IS NOT NULL ORDER BY received DESC, n DESC "
            "LIMIT ?", (t, recent))]
        return [a for a in dict.fromkeys(found) if a.casefold() not in _NOT_PEOPLE]

    def own_words(self) -> dict[str, tuple[str, list[str]]]:
        """Each message's text and its own words (``terms(text)``, without the speaker's name), by episode id."""
        return {episode_id: (text, _own(actor, words.split()))
                for episode_id, actor, text, words in self.db.execute("SELECT id, actor, text, terms FROM message")}


def _own(actor: str | None, words: list[str]) -> list[str]:
    """A message's words (:func:`document`) without its speaker's name."""
    return words[len(name_terms(actor)) if actor else 0:]


def asks(text: str) -> bool:
    """True for a text that ends by asking: a "?" (or "？", "؟", "❓") among the characters after its last letter
    or digit ("and the peugeot? 😅"). Read from the end, once, when the message is indexed (a pattern anchored at
    the end was quadratic in a long run of "?" before a last letter)."""
    end = len(text)
    while end and not (text[end - 1].isalnum() or text[end - 1] == "_"):
        end -= 1
    return not _QUESTION_MARKS.isdisjoint(text[end:])


#: "?" and its forms: full-width, Arabic, the emoji.
_QUESTION_MARKS = frozenset("?？؟❓❔⁇⁈⁉")


def _context(previous: list[tuple[str, int, list[str]]], kind: str, said: int) -> str:
    """The words of the turns before (each its kind, chat time and words, the latest last), back to the first
    of another kind or said more than six hours before the next: a reply is found by what it answers."""
    kept: list[list[str]] = []
    later = said
    for turn_kind, turn_said, words in reversed(previous):
        if turn_kind != kind or not 0 <= later - turn_said <= TURN_GAP:  # not a turn said after it (imported late)
            break
        kept.append(words)
        later = turn_said
    return " ".join(word for words in reversed(kept) for word in words)


def _times(text: str, said: int, tz: tzinfo) -> list[tuple[int, int, str]]:
    """(start, end, phrase) of each time phrase of a message, read against its chat time."""
    return [(micros(span.start), micros(span.end), span.text)
            for span in resolve_times(text, _moment(said), tz=tz)]


#: A letter or a digit: what a message needs of its own to be an answer.
_WORDED = re.compile(r"[^\W_]")


class _Scorer:
    """Okapi BM25 of one message for a question's weighted stems, over given statistics."""

    def __init__(self, weights: dict[str, float], frequency: dict[str, int], count: int, average: float,
                 extra: dict[str, float] | None = None):
        self.asked = set(weights)  # the stems an answer says it holds; ``extra`` only scores
        self.weights, self.average = {**weights, **(extra or {})}, average
        self.idf = {stem: _idf(count, frequency.get(stem, 0)) for stem in self.weights}

    def __call__(self, n: int, own_text: str, context_text: str) -> tuple[float, int, tuple[str, ...]] | None:
        own, context = own_text.split(), context_text.split()
        held, around = Counter(own), Counter(context)
        length = len(own) + CONTEXT_WEIGHT * len(context)
        score, matched, extra = 0.0, [], 0.0
        for stem, weight in self.weights.items():
            tf = held.get(stem, 0) + CONTEXT_WEIGHT * around.get(stem, 0)
            if not tf:
                continue
            value = weight * self.idf[stem] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / self.average))
            if stem not in self.asked:
                extra += value
                continue
            score += value
            if stem in held:
                matched.append(stem)
        if matched:  # the synonyms count where the message's own words hold a word of the question
            score += extra
        return (score, n, tuple(matched)) if score > 0 else None


def _idf(count: int, df: int) -> float:
    return math.log(1 + (count - df + 0.5) / (df + 0.5))


def _any(stems: Sequence[str]) -> str:
    """An FTS5 query for the rows holding any of ``stems`` (each quoted: :func:`_bare` ones only)."""
    return " OR ".join(f'"{stem}"' for stem in stems)


def _bare(stem: str) -> bool:
    """True for a stem FTS5 can look up as one quoted token (no quote characters in it)."""
    return bool(stem) and '"' not in stem


def _moment(value: int) -> datetime:
    return moment(value) or datetime.max.replace(tzinfo=UTC)


def _episode(episode: Episode) -> tuple[str, str, str | None, str, int, int]:
    """(id, kind, actor, text, said, received) of an episode, times in microseconds."""
    return (episode.id, episode.kind, episode.actor, episode.text, micros(episode.reference_time),
            micros(episode.received_at))


def _rows(table: pa.Table, skip: Collection[str] = frozenset()) -> Iterable[tuple[str, str, str | None, str, int, int]]:
    """(id, kind, actor, text, said, received) of an Arrow table of episodes, times in microseconds, in the order
    they were received; those received at the same time in the order they were recorded (their ids' numbers: a
    phone's export keeps the minute alone, and an engine gives ties in no set order)."""
    columns = [table.column(name).to_pylist() for name in ("id", "kind", "actor", "text")]
    said = column_micros(table.column("said"))
    received = column_micros(table.column("received"))
    for i in sorted(range(len(received)), key=lambda i: (received[i], _recorded(columns[0][i]))):
        if (episode_id := columns[0][i]) not in skip:
            yield episode_id, columns[1][i], columns[2][i], columns[3][i], said[i], received[i]


def _recorded(episode_id: str) -> int:
    """Where an episode's id puts it among those recorded ("ep12": 12; an id of another shape last)."""
    return int(episode_id[2:]) if episode_id.startswith("ep") and episode_id[2:].isdigit() else INF


_OPEN = pa.scalar(OPEN_END, pa.timestamp("us"))


def column_micros(column: pa.ChunkedArray) -> list[int]:
    """Naive engine times (UTC) as microseconds since the epoch; the open-end sentinel as INF."""
    values = pc.cast(column.cast(pa.timestamp("us")), pa.int64()).to_pylist()
    open_end = _OPEN.value
    return [INF if v is None or v >= open_end else v for v in values]
