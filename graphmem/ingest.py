"""Ingest conversations and another assistant's memories as episodes with proposed facts.

Reading is all or nothing: a whole file is parsed and checked, and every message's facts are
extracted, before the first write; a problem names the file and line, and nothing is written.
Writing goes message by message in chat-time order, so that "I like apples" is proposed
before "I don't like apples anymore": one atomic write records a message's episode with its
proposals, approved in that same write when asked for (see :func:`record_message`).

Each message's episode has the message's chat time as its reference time: relative phrases
("last week") resolve against when the message was said, never against the import. With
``replay``, each write's transaction time is the chat time too, so a past conversation can be
replayed and then queried as of any moment of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import Conflict, GraphmemError, ImportFailed, InvalidInput, TimeWentBackwards
from .extract_rules import ExtractedFact, Extractor, RuleExtractor, split_sentences
from .models import Episode, Model, Proposal
from .names import check_predicate, entity_key
from .timeutil import TICK, UTC, iso, parse_time
from .when import parse_chat_time

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "Dropped", "IngestSummary", "Message", "Recorded", "first_person", "import_memories",
    "ingest", "make_extractor", "read_memories", "read_messages", "record_message",
    "reference_time",
]

#: Called as ``progress(phase, done, total)`` while a file is extracted ("extracting") and
#: written ("writing").
Progress = Callable[[str, int, int], None]

EXTRACTORS = ("rules", "llm")


class Message(Model):
    """One chat message read from a file, with where it was found."""

    where: str  # "FILE:LINE", for messages about it
    role: str
    content: str
    chat_time: datetime
    id: str | None = None
    actor: str | None = None
    user: str | None = None  # the conversation's user (its user_id), when the file names one

    @property
    def speaker(self) -> str:
        """Whom a user message's first person means: its actor, else the user, else 'user'."""
        return self.actor or self.user or "user"

    @property
    def episode_actor(self) -> str:
        """Who produced the message: the speaker for user messages, else the actor or role."""
        return self.speaker if self.role == "user" else self.actor or self.role


class Recorded(Model):
    """One episode written: where its text came from and the proposals it made."""

    where: str
    message: str | None = None  # the message's own id, when the file gave one
    episode: str
    proposals: list[str]


class Dropped(Model):
    """A fact that was not written as given, and why."""

    where: str
    fact: ExtractedFact
    reason: str


class IngestSummary(Model):
    """What an ingest did: episodes recorded, facts proposed, approved and left pending."""

    episodes: int = 0
    already: int = 0  # chat messages the store held already (an earlier run): not recorded again
    proposed: int = 0
    approved: int = 0
    pending: int = 0
    replayed: bool = False
    first: datetime | None = None  # earliest reference time
    last: datetime | None = None  # latest reference time
    recorded: list[Recorded] = []
    held: list[Dropped] = []  # the gate refused them at approval: they wait for review
    dropped: list[Dropped] = []  # unusable or refused with review skipped: not proposed
    notes: list[str] = []  # "FILE:LINE: ..." from the extractor (say, a fallback it used)


# --- reading files ---------------------------------------------------------------------------

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ImportFailed(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _skip(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()


def _array_items(text: str, pos: int) -> list[tuple[int, Any]]:
    """The items of the (valid) JSON array at ``text[pos]``, each with its offset."""
    items = []
    pos = _skip(text, pos + 1)
    while text[pos] != "]":
        value, end = _DECODER.raw_decode(text, pos)
        items.append((pos, value))
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return items


def _member_offset(text: str, key: str) -> int | None:
    """Where the value of ``key`` starts in the (valid) top-level JSON object of ``text``."""
    found = None
    pos = _skip(text, _skip(text, 0) + 1)
    while text[pos] != "}":
        name, end = _DECODER.raw_decode(text, pos)
        pos = _skip(text, _skip(text, end) + 1)  # past the colon
        if name == key:
            found = pos  # like json.loads, the last duplicate wins
        _, end = _DECODER.raw_decode(text, pos)
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return found


def _whole_json(text: str, path: Path) -> Any:
    """The file as one JSON document, or None when it is JSON Lines (or empty)."""
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            json.loads(first)
            return None  # one value per line: JSON Lines, checked line by line
        except json.JSONDecodeError:
            if exc.msg == "Extra data":
                return None
        raise ImportFailed(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}, column {exc.colno})") from exc


def _text_field(record: dict, key: str, where: str, *, required: bool) -> str | None:
    value = record.get(key)
    if value is None and not required:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and key == "id":
        return str(value)
    if not isinstance(value, str) or not value.strip():
        problem = "is missing" if value is None else "must be non-empty text"
        raise ImportFailed(f"{where}: {key!r} {problem}")
    return value


def _message(record: Any, where: str, *, day_first: bool, tz, user: str | None) -> Message:
    if not isinstance(record, dict):
        raise ImportFailed(f"{where}: expected a JSON object with role, content and chat_time, "
                           f"got {type(record).__name__}")
    role = _text_field(record, "role", where, required=True).strip().lower()
    content = _text_field(record, "content", where, required=True)
    raw_time = record.get("chat_time")
    if not isinstance(raw_time, str):
        problem = "is missing" if raw_time is None else "must be text such as 2025-09-12T08:00:00Z"
        raise ImportFailed(f"{where}: 'chat_time' {problem}")
    try:
        chat_time = parse_chat_time(raw_time, day_first=day_first, tz=tz)
    except InvalidInput as exc:
        raise ImportFailed(f"{where}: {exc}") from exc
    actor = _text_field(record, "actor", where, required=False)
    return Message(where=where, role=role, content=content, chat_time=chat_time,
                   id=_text_field(record, "id", where, required=False),
                   actor=actor.strip() if actor else None, user=user)


def read_messages(path: str | Path, *, day_first: bool = False, tz=UTC,
                  user: str | None = None) -> list[Message]:
    """Parse and check a file of chat messages; raise ImportFailed naming the first bad line.

    The file is JSON Lines (one ``{"role", "content", "chat_time", "id"?, "actor"?}`` per line),
    a JSON list of such objects, or ``{"user_id": ..., "messages": [...]}``. Chat times are
    ISO 8601 or full dates like '1:56 pm on 8 May, 2023' (naive ones read in ``tz``). ``user``
    names the speaker of user messages that give no actor (default: the file's user_id).
    """
    path = Path(path)
    text = _read_text(path)
    whole = _whole_json(text, path)
    read = {"day_first": day_first, "tz": tz}
    if isinstance(whole, dict) and "messages" in whole:
        owner = whole.get("user_id")
        if owner is not None and (not isinstance(owner, str | int) or not str(owner).strip()):
            raise ImportFailed(f"{path}:1: 'user_id' must be non-empty text")
        offset = _member_offset(text, "messages")
        if not isinstance(whole["messages"], list):
            raise ImportFailed(f"{path}:{_line_of(text, offset)}: 'messages' must be a list")
        items = [(_line_of(text, at), item) for at, item in _array_items(text, offset)]
        user = user or (str(owner).strip() if owner is not None else None)
    elif isinstance(whole, list):
        items = [(_line_of(text, at), item) for at, item in _array_items(text, _skip(text, 0))]
    else:
        items = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ImportFailed(
                    f"{path}:{number}: not valid JSON ({exc.msg}, column {exc.colno})") from exc
    messages = [_message(item, f"{path}:{number}", user=user, **read) for number, item in items]
    if not messages:
        raise ImportFailed(f"{path}: no messages found; expected JSON Lines of "
                           '{"role", "content", "chat_time"} or {"user_id", "messages": [...]}')
    seen: dict[str, str] = {}
    for message in messages:
        if message.id is not None:
            if message.id in seen:
                raise ImportFailed(f"{message.where}: message id {message.id!r} is already used "
                                   f"at {seen[message.id]}")
            seen[message.id] = message.where
    return messages


_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d{1,3}[.)])\s+")


def read_memories(path: str | Path) -> list[str]:
    """Read remembered lines as an assistant displays them: one per line, or a JSON list of strings.

    Blank lines are skipped and list markers ("- ", "• ", "3. ") removed.
    """
    path = Path(path)
    text = _read_text(path)
    stripped = text.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportFailed(f"{path}:{exc.lineno}: not a valid JSON list ({exc.msg}, "
                               f"column {exc.colno})") from exc
        raw = []
        for at, item in _array_items(text, _skip(text, 0)):
            if not isinstance(item, str):
                raise ImportFailed(f"{path}:{_line_of(text, at)}: expected a remembered line as "
                                   f"text, got {type(item).__name__}")
            raw.append(item)
    else:
        raw = text.splitlines()
    memories = [line for line in (_BULLET.sub("", item, count=1).strip() for item in raw) if line]
    if not memories:
        raise ImportFailed(f"{path}: no memories found; give one remembered line per line, "
                           "or a JSON list of strings")
    return memories


# --- times and extractors ----------------------------------------------------------------------

def reference_time(text: str, *, day_first: bool = False, tz=UTC) -> datetime:
    """Read a reference time given by a user: 'now', ISO 8601 or a chat time like '8 May 2023'."""
    if isinstance(text, str) and text.strip().lower() == "now":
        return datetime.now(UTC)
    return parse_chat_time(text, day_first=day_first, tz=tz)


def make_extractor(name: str = "rules", *, day_first: bool = False, tz=UTC) -> Extractor:
    """The extractor called ``name``: 'rules' (offline, default) or 'llm' (configured by environment)."""
    if name == "rules":
        return RuleExtractor(day_first=day_first, tz=tz)
    if name == "llm":
        from .extract_llm import LLMExtractor

        return LLMExtractor.from_env(fallback=RuleExtractor(day_first=day_first, tz=tz))
    raise InvalidInput(f"unknown extractor {name!r}; choose one of: {', '.join(EXTRACTORS)}")


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
    verb = m and _verb(m["verb"], sure=bool(m["subject"]))
    if not verb:
        return sentence
    return "I " + m["adverbs"].lower() + verb + sentence[m.end():]


def _extract_memory(extractor: Extractor, text: str, reference: datetime,
                    speaker: str) -> list[ExtractedFact]:
    """Facts from a remembered line, each quoting the line's own (original) sentence."""
    originals = split_sentences(text)
    rewritten = [first_person(s, [speaker]) for s in originals]
    facts = extractor.extract(" ".join(rewritten), reference_time=reference, speaker=speaker)
    out = []
    for fact in facts:
        quote = next((o for o, r in zip(originals, rewritten) if fact.quote.strip() in r), text)
        out.append(fact.model_copy(update={"quote": quote}))
    return out


# --- writing ---------------------------------------------------------------------------------------

def _normalised(fact: ExtractedFact) -> ExtractedFact:
    """An ``end`` fact with its moment in ``valid_from``, where the store reads it.

    Extractors give the moment something stopped as ``valid_to``; the store's approval ends at
    the proposal's ``valid_from`` (the episode's time when none).
    """
    if fact.op == "end" and fact.valid_to is not None:
        return fact.model_copy(update={"valid_from": fact.valid_to, "valid_to": None})
    return fact


def _problem(fact: ExtractedFact, reference: datetime) -> str | None:
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


def record_message(store: Store, text: str, facts: Sequence[ExtractedFact], *, kind: str = "chat",
                   actor: str | None = None, reference_time=None, approve: bool = False,
                   replay: bool = False, where: str = "the message",
                   message_id: str | None = None) -> IngestSummary:
    """Record one message as an episode with the facts drawn from it proposed; say what was done.

    One atomic write records the episode and its proposals, approved in that same write when
    ``approve`` is set or ``kind`` skips review. Should the gate refuse one of them ("nothing to
    end"), the message is recorded all the same and each fact written on its own: a refused one
    stays pending (``held``), or is dropped when its source skips review. A fact that cannot be
    proposed at all is dropped, with why. ``reference_time`` (default now) is when it was said;
    with ``replay`` it is the write's transaction time too (or just after the latest write, when
    that is not earlier). ``where`` and ``message_id`` name the message in the summary.
    """
    reference = store.now() if reference_time is None else store.time(reference_time)
    usable, dropped = [], []
    for fact in map(_normalised, facts):
        if problem := _problem(fact, reference):
            dropped.append(Dropped(where=where, fact=fact, reason=problem))
        else:
            usable.append(fact)

    def at():  # with replay, the reference time, or just after the latest write when times tie
        if not replay:
            return None
        latest = store.latest_write()
        return reference if latest is None or reference > latest else latest + TICK

    write = {"kind": kind, "actor": actor, "reference_time": reference}
    skip = kind in store.review_skips()
    held = []
    try:
        episode, proposals = store.remember(text, usable, **write, approve=approve, recorded_at=at())
    except TimeWentBackwards:
        raise
    except _REFUSED:
        if not (approve or skip):
            raise
        episode, proposals, refused = _fact_by_fact(store, text, usable, write, at, skip=skip,
                                                    where=where)
        (dropped if skip else held).extend(refused)
    return IngestSummary(
        episodes=1, proposed=len(proposals), approved=sum(p.state == "approved" for p in proposals),
        pending=sum(p.state == "pending" for p in proposals), replayed=replay, first=reference,
        last=reference, held=held, dropped=dropped,
        recorded=[Recorded(where=where, message=message_id, episode=episode.id,
                           proposals=[p.id for p in proposals])])


_REFUSED = (Conflict, InvalidInput)


def _fact_by_fact(store: Store, text: str, facts: list[ExtractedFact], write: dict,
                  at: Callable[[], datetime | None], *, skip: bool,
                  where: str) -> tuple[Episode, list[Proposal], list[Dropped]]:
    """Record the message, then write its facts one at a time; also return those refused.

    When the source skips review, each fact is proposed (and so approved) in a write of its
    own, and a refused one is not proposed; otherwise the facts are proposed with the message
    and approved one by one, and a refused one stays pending.
    """
    if skip:
        episode, proposals = store.remember(text, (), **write, recorded_at=at())
    else:
        episode, proposals = store.remember(text, facts, **write, recorded_at=at())
    refused = []
    for n, fact in enumerate(facts):
        try:
            if skip:
                proposals.append(store.propose(
                    fact.subject, fact.predicate, fact.object, op=fact.op,
                    valid_from=fact.valid_from, valid_to=fact.valid_to, episode=episode.id,
                    quote=fact.quote, source=write["kind"], recorded_at=at()))
            else:
                store.approve([proposals[n].id], recorded_at=at())
                proposals[n] = proposals[n].model_copy(update={"state": "approved"})
        except TimeWentBackwards:
            raise
        except _REFUSED as exc:
            refused.append(Dropped(where=where, fact=fact, reason=str(exc)))
    return episode, proposals, refused


@dataclass
class _Planned:
    """A message read, with the facts drawn from it, waiting to be written."""

    where: str
    message: str | None
    text: str
    actor: str | None
    reference: datetime
    facts: list[ExtractedFact]


def _write_all(store: Store, planned: list[_Planned], *, kind: str, approve: bool, replay: bool,
               progress: Progress | None, resumed: frozenset[str] = frozenset()) -> IngestSummary:
    """Record each planned message in turn; the summaries of all of them added up.

    ``resumed`` holds the episodes an earlier run of the same file recorded: when the store's
    latest write is one of theirs, a replay goes on from it (messages that share its chat time
    are recorded just after it), as the run a crash cut short would have.
    """
    if replay and planned:
        latest, first = store.latest_write(), planned[0]
        if latest is not None and first.reference <= latest and not _latest_write_cites(store, resumed):
            raise TimeWentBackwards(
                f"{first.where}: cannot replay a message at {iso(first.reference)}: the store's "
                f"latest write is {iso(latest)} and transaction time only moves forward; replay "
                "into a new store, or ingest without --replay")
    parts = []
    for done, item in enumerate(planned, 1):
        parts.append(record_message(
            store, item.text, item.facts, kind=kind, actor=item.actor, reference_time=item.reference,
            approve=approve, replay=replay, where=item.where, message_id=item.message))
        if progress:
            progress("writing", done, len(planned))
    counts = {name: sum(getattr(p, name) for p in parts)
              for name in ("episodes", "proposed", "approved", "pending")}
    lists = {name: [x for p in parts for x in getattr(p, name)]
             for name in ("recorded", "held", "dropped")}
    return IngestSummary(**counts, **lists, replayed=replay,
                         first=min((p.first for p in parts), default=None),
                         last=max((p.last for p in parts), default=None))


def _latest_write_cites(store: Store, episodes: frozenset[str]) -> bool:
    """True when the store's latest write records or cites one of ``episodes``."""
    latest = store.latest_write()
    if latest is None or not episodes:
        return False
    return any(d.episode in episodes for d in store.decisions(after=latest - TICK))


def ingest(store: Store, messages: Sequence[Message], extractor: Extractor | None = None, *,
           replay: bool = False, approve: bool = False,
           progress: Progress | None = None) -> IngestSummary:
    """Record each message as a chat episode and propose the facts its user states.

    Messages are taken in chat-time order (stable). Facts come from user messages only; every
    message becomes an episode, except one the store already holds (same speaker, chat time and
    text: recorded by an earlier run), so running a file again records only what is new. Every
    message's facts are extracted before the first write, so an extractor failure writes nothing.
    ``replay`` records each message at its chat time (chat times must be after the store's latest
    write); ``approve`` writes proposed facts through the gate at once instead of leaving them for
    review.
    """
    extractor = extractor or RuleExtractor(tz=store.tz)
    ordered = sorted(messages, key=lambda m: m.chat_time)
    held: dict[tuple, list[str]] = {}  # each message the store holds: the episodes recording it
    for e in store.episodes():
        if e.kind == "chat":
            held.setdefault((e.actor, e.reference_time, e.text), []).append(e.id)
    fresh, resumed = [], set()
    for message in ordered:
        same = held.get((message.episode_actor, message.chat_time, message.content))
        if same:  # recorded by an earlier run (e.g. one a crash cut short); once per copy held
            resumed.add(same.pop())
        else:
            fresh.append(message)
    planned, notes = [], []
    batch = _extract_batch(extractor, [m for m in fresh if m.role == "user"])
    for done, message in enumerate(fresh, 1):
        facts = []
        if message.role == "user" and batch is not None:
            facts, note = batch[id(message)]
            if note:
                notes.append(f"{message.where}: {note}")
        elif message.role == "user":
            try:
                facts = extractor.extract(message.content, reference_time=message.chat_time,
                                          speaker=message.speaker)
            except GraphmemError as exc:
                raise ImportFailed(f"{message.where}: {exc}; nothing was written") from exc
        planned.append(_Planned(message.where, message.id, message.content, message.episode_actor,
                                message.chat_time, facts))
        if progress:
            progress("extracting", done, len(fresh))
    summary = _write_all(store, planned, kind="chat", approve=approve, replay=replay,
                         progress=progress, resumed=frozenset(resumed))
    return summary.model_copy(update={"already": len(resumed), "notes": notes})


def _extract_batch(extractor: Extractor, messages: list[Message]) -> dict | None:
    """Facts and notes of many messages at once, for an extractor with ``extract_many`` (the
    LLM's, which keeps several requests in flight); None for one without."""
    many = getattr(extractor, "extract_many", None)
    if many is None or not messages:
        return None
    try:
        results = many([(m.content, m.chat_time, m.speaker) for m in messages])
    except GraphmemError as exc:
        index = getattr(exc, "index", None)
        where = f"{messages[index].where}: {exc.reason}" if index is not None else str(exc)
        raise ImportFailed(f"{where}; nothing was written") from exc
    return {id(m): (r.facts, r.note) for m, r in zip(messages, results)}


def import_memories(store: Store, memories: Sequence[str], extractor: Extractor | None = None, *,
                    approve: bool = False, reference=None, speaker: str = "user",
                    progress: Progress | None = None) -> IngestSummary:
    """Record remembered lines as episodes of kind 'import' and propose the facts they state.

    Memories carry no time of their own: each is read as said at ``reference`` (default now),
    where relative phrases resolve and the facts' validity starts by default. Lines written
    about the user ("User lives in Berlin", "Lives in Berlin") are read as ``speaker``'s own.
    """
    if not speaker or not speaker.strip():
        raise InvalidInput("the speaker must be a non-empty name, e.g. 'user'")
    extractor = extractor or RuleExtractor(tz=store.tz)
    at = store.now() if reference is None else parse_time(reference, store.tz)
    planned = []
    for done, text in enumerate(memories, 1):
        where = f"memory {done}"
        try:
            facts = _extract_memory(extractor, text, at, speaker.strip())
        except GraphmemError as exc:
            raise ImportFailed(f"{where}: {exc}; nothing was written") from exc
        planned.append(_Planned(where, None, text, None, at, facts))
        if progress:
            progress("extracting", done, len(memories))
    return _write_all(store, planned, kind="import", approve=approve, replay=False,
                      progress=progress)
