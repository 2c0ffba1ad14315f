"""Writing messages as episodes with their proposals: one message alone, or a conversation many
messages to a transaction, and what each run reports.

Internal: import what it offers from :mod:`graphmem.ingest`.
"""

from __future__ import annotations

import shlex
import signal
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.stopping import stop_here
from ..core.times import TICK, TimeLike, iso, parse_time, too_far_ahead
from ..errors import GraphmemError, ImportFailed, InvalidInput, InvalidTime, TimeWentBackwards
from ..extract import Context, Turn
from ..extract_rules import ExtractedFact, Extractor, RuleExtractor
from ..models import Said
from . import _messenger as messenger
from ._drawing import draw, memory_facts, normalised, problem
from ._files import Message, MessageFile
from ._summary import Dropped, IngestSummary, Progress, Recorded, Tally
from ._telegram import FORWARDED

if TYPE_CHECKING:
    from .._store import Store

__all__ = ["BATCH", "import_memories", "ingest", "record_message"]

#: The most messages written in one transaction (after the first, written alone). A kill loses at
#: most one transaction's messages, each whole, and running the file again writes them. Fewer
#: commits also hold less memory: the engines keep what each commit wrote in memory until a
#: checkpoint, and a commit of a few messages costs nearly as much as one of thousands
#: (BENCHMARKS.md: batches of 64 peaked at 429 MB for 10,000 messages on kuzu, 2,048 at ~290 MB).
BATCH = 2048


def _usable(facts: Sequence[ExtractedFact], reference: datetime,
            where: str) -> tuple[list[ExtractedFact], list[Dropped]]:
    """The facts that can be proposed, and those dropped with why."""
    usable, dropped = [], []
    for fact in map(normalised, facts):
        if reason := problem(fact, reference):
            dropped.append(Dropped(where=where, fact=fact, reason=reason))
        else:
            usable.append(fact)
    return usable, dropped


def record_message(store: Store, text: str, facts: Sequence[ExtractedFact], *, kind: str = "chat",
                   actor: str | None = None, reference_time: TimeLike | None = None, approve: bool = False,
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
    tally = Tally()
    _write_group(store, [Planned(where, message_id, text, actor, reference, list(facts))], tally,
                 kind=kind, approve=approve, replay=replay)
    return tally.summary(replayed=replay)


@dataclass
class Planned:
    """A message read, with the facts drawn from it, waiting to be written."""

    where: str
    message: str | None
    text: str
    actor: str | None
    reference: datetime
    facts: list[ExtractedFact]


def write_all(store: Store, planned: Iterable[Planned], total: int, *, kind: str, approve: bool,
              replay: bool, progress: Progress | None, batch: int = BATCH) -> Tally:
    """Record each planned message in turn, as :func:`record_message` would, many of them to a
    transaction (:meth:`graphmem.Store.remember_many`); the summaries of all of them added up.

    The first message is written alone (the store takes the conversation's first write before
    a large one is planned, and progress shows at once), then up to ``batch`` at a time.
    ``progress`` is told of each transaction before a Ctrl-C or SIGTERM that came while it was
    written is taken (:func:`_signals_held`): what it was last told is what is stored. Run by a
    holder for a client that has gone, it stops at the same places (:func:`graphmem.core.stopping.stop_here`).
    """
    if batch < 1:
        raise InvalidInput("a batch holds at least one message")
    tally, size, done = Tally(), 1, 0
    group: list[Planned] = []

    def write() -> None:
        nonlocal done
        with _signals_held():
            _write_group(store, group, tally, kind=kind, approve=approve, replay=replay)
            done += len(group)
            if progress:
                progress("writing", done, total)
        stop_here()

    for item in planned:
        stop_here()
        group.append(item)
        if len(group) == size:
            write()
            group, size = [], batch
    if group:
        write()
    return tally


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and SIGTERM while the block runs, then take them as they came.

    Python runs a signal's handler between bytecodes, so a Ctrl-C that came while the engine
    committed a transaction was taken the moment the commit returned: the KeyboardInterrupt left
    a stored transaction untold, and the ingest said it had written 2,048 messages fewer than it
    had (a new user's: "interrupted after writing 12289", and the run again skipped 14338). Held,
    a signal is taken once the transaction is stored and told, or, had the block failed, undone:
    between transactions. Only the main thread, where Python runs handlers, holds them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    held = {s: handler for s in (signal.SIGINT, signal.SIGTERM)
            if (handler := signal.getsignal(s)) is not None}  # (None: set outside Python, left alone)

    def put_back(signals: list[signal.Signals]) -> None:  # each one, even should a signal be taken between two
        if signals:
            try:
                signal.signal(signals[0], held[signals[0]])
            finally:
                put_back(signals[1:])

    try:
        for s in held:
            signal.signal(s, lambda number, _: came.append(number))
        yield
    finally:
        put_back(list(held))
        for number in dict.fromkeys(came):
            signal.raise_signal(number)  # now, to the handler it had (Ctrl-C's raises KeyboardInterrupt)


def _write_group(store: Store, group: list[Planned], tally: Tally, *, kind: str, approve: bool,
                 replay: bool) -> None:
    """Record a group of messages in one transaction (:meth:`graphmem.Store.remember_many`)."""
    prepared = [(item, *_usable(item.facts, item.reference, item.where)) for item in group]
    skip = kind in store.review_skips()
    written = store.remember_many(
        [(Said.model_construct(text=i.text, kind=kind, actor=i.actor, reference_time=i.reference), usable)
         for i, usable, _ in prepared], approve=approve, replay=replay)
    for (item, usable, dropped), (episode, proposals, refused) in zip(prepared, written):
        recorded = Recorded(where=item.where, message=item.message, episode=episode.id,
                            proposals=[p.id for p in proposals])
        held = [Dropped(where=item.where, fact=fact, reason=reason) for fact, reason in refused]
        unsure = 0 if skip or not approve else sum(not fact.sure for fact in usable)  # each left pending
        tally.record(recorded, [p.state for p in proposals], item.reference,
                     dropped + held if skip else dropped, [] if skip else held, unsure)


def _in_chat_time_order(messages: Sequence[Message]) -> Callable[[], Iterator[Message]]:
    """A way to go through the messages by chat time, as often as needed: a file's are read from
    it again each time; others are sorted once (stable)."""
    if isinstance(messages, MessageFile):
        return messages.in_chat_time_order
    ordered = sorted(messages, key=lambda m: m.chat_time)
    return lambda: iter(ordered)


def ingest(store: Store, messages: Sequence[Message], extractor: Extractor | None = None, *,
           replay: bool = False, approve: bool = False, progress: Progress | None = None,
           batch: int = BATCH, participants: Sequence[str] | None = None) -> IngestSummary:
    """Record each message as a chat episode and propose the facts its user states.

    Messages are taken in chat-time order (stable). Facts come from user messages only; every
    message becomes an episode, except one the store already holds (same speaker, chat time and
    text: recorded by an earlier run), so running a file again records only what is new. Every
    message's facts are drawn before the first write, so an extractor failure writes nothing;
    the messages of a :class:`MessageFile` are read from the file again to be written, and only
    their facts are held meanwhile. ``replay`` records each message at its chat time (chat times
    must be after the store's latest write); ``approve`` writes proposed facts through the gate at
    once instead of leaving them for review. Each message is a write of its own in the log, and up
    to ``batch`` of them are stored in one transaction: a kill leaves whole messages.

    The extractor is told, with each message, the other participant (``participants``: the two
    people of a two-person chat, default those the :class:`MessageFile` found) and the message
    before it, when it accepts them (:class:`graphmem.extract.Extractor`).
    """
    extractor = extractor or RuleExtractor(tz=store.tz)
    pair = tuple(participants) if participants is not None else getattr(messages, "participants", None)
    others = {pair[0]: pair[1], pair[1]: pair[0]} if pair and len(pair) == 2 else {}
    ordered = _in_chat_time_order(messages)
    total = len(messages)
    held: dict[tuple, list[str]] = {}  # each message the store holds: the episodes recording it
    for e in store.episodes():
        if e.kind == "chat":
            held.setdefault((e.actor, e.reference_time, e.text), []).append(e.id)
    said_then = {(actor, at) for actor, at, _ in held}  # who said something when: a message new there was edited
    said_by: dict[tuple, set[str]] = {}  # who said each held message's words at its time, for a contact renamed
    for actor, at, text in held:
        said_by.setdefault((at, text), set()).add(actor)
    speakers: set[str] | None = None  # who speaks in this file: a name any of them uses is no contact renamed (a
    # reviewer's: Carol's "Happy new year everyone!!" sent in the same minute as Alice's, Alice speaking later in the
    # file); the file is read for it once more, and only when a message is held under another name
    renamed: Counter[tuple[str, str]] = Counter()  # (held as, here as): messages held under another name
    minutes = getattr(messages, "zoneless", False)  # a phone's export, to the minute: many a message in one
    edited: list[str] = []
    fresh, resumed, facts, notes = bytearray(total), set(), {}, []
    waiting: deque[tuple[int, str]] = deque()  # user messages handed to the extractor, in order
    first: Message | None = None
    last: Message | None = None  # the latest message new to the store (chat times are in order)
    roles: Counter[str] = Counter()  # of the messages new to the store

    def held_under_another_name(message: Message) -> list[str] | None:
        """The copies held of a user message said in the same words at the same time under one name no one of this
        file uses: a contact renamed (a new user's: "Otieno" exported later as "Brian Otieno", 498 messages recorded
        again and a person of their own)."""
        nonlocal speakers
        if message.role != "user" or len(message.content) < _RENAMED_LEAST or not (
                then := said_by.get((message.chat_time, message.content), set()) - {message.episode_actor}):
            return None
        if speakers is None:
            speakers = {m.episode_actor for m in ordered()}
        if len(then := then - speakers) != 1:
            return None
        (was,) = then
        if same := held.get((was, message.chat_time, message.content)):
            renamed[(was, message.episode_actor)] += 1
        return same

    def users() -> Iterator[tuple[Message, Context]]:
        nonlocal first, last
        before: Turn | None = None
        for n, message in enumerate(ordered()):
            same = held.get((message.episode_actor, message.chat_time, message.content)) or (
                held.get((message.episode_actor, message.chat_time, FORWARDED.sub("", message.content, count=1)))
                if message.role == "forwarded" else None) or (  # recorded before its text said it was forwarded
                held.get((message.actor, message.chat_time, message.content))
                if message.role == "assistant" and message.actor else None)  # recorded before under its own name
            same = same or held_under_another_name(message)
            new = not same
            if same:  # recorded by an earlier run (e.g. one a crash cut short); once per copy held
                resumed.add(same.pop())
            else:
                fresh[n] = 1
                last = message
                if first is None:
                    first = message
                if (message.episode_actor, message.chat_time) in said_then and not minutes and (
                        message.chat_time.second or message.chat_time.microsecond):
                    edited.append(message.where)  # (or two of one speaker in one second; not a file's clock that
                    # keeps days or minutes: many a message there)
            if progress:
                progress("extracting", n + 1, total)
            stop_here()
            if new:
                roles[message.role] += 1
            if new and message.role == "user":  # (not one recorded before: its facts were read then)
                waiting.append((n, message.where))
                yield message, (others.get(message.speaker), before)
            before = Turn(speaker=message.episode_actor, text=message.content)

    for found, note in draw(extractor, users()):
        n, where = waiting.popleft()
        if found:
            facts[n] = found
        if note:
            notes.append(f"{where}: {note}")
    if replay and first is not None:
        _refuse_going_back(store, first, frozenset(resumed))
    if last is not None:
        _refuse_the_future(store, last, replay)
    if edited:
        which = f"this message and {len(edited) - 1} more" if len(edited) > 1 else "a message"
        notes.append(f"{edited[0]}: {which} said when the store holds another of the same speaker's, in other words: "
                     "edited since it was recorded? The new words are recorded beside the old (the store keeps both)")
    for (was, now), count in renamed.most_common():
        are = "messages by {} are" if count > 1 else "message by {} is"
        notes.append(f"{count} {are.format(repr(now))} held already "
                     f"as said by {was!r} (the same words at the same times): not recorded again; if they are one "
                     f"person, graphmem alias add {shlex.quote(now)} {shlex.quote(was)}")
    if roles and not roles["user"]:
        seen = ", ".join(f"{role!r} ({count})" for role, count in roles.most_common(3))
        notes.append(f"no message has role 'user' (roles: {seen}): facts are read from a user's messages only; in a "
                     "chat between people every message is role 'user', with the person who speaks in 'actor'")

    def planned() -> Iterator[Planned]:
        for n, message in enumerate(ordered()):
            if fresh[n]:
                yield Planned(message.where, message.id, message.content, message.episode_actor,
                              message.chat_time, facts.pop(n, []))

    tally = write_all(store, planned(), sum(fresh), kind="chat", approve=approve, replay=replay,
                      progress=progress, batch=batch)
    return tally.summary(already=len(resumed), notes=notes, replayed=replay)


#: How long a message must be to be taken as one held under another name (shorter ones, "Amen", "😂", two people
#: may send in the same minute).
_RENAMED_LEAST = 12


def _refuse_going_back(store: Store, first: Message, resumed: frozenset[str]) -> None:
    """Refuse to replay a message said before the store's latest write, unless that write is one
    of an earlier run of the same file (a replay a crash cut short goes on from it)."""
    latest = store.latest_write()
    if latest is None or first.chat_time > latest or _latest_write_cites(store, resumed):
        return
    raise TimeWentBackwards(
        f"{first.where}: cannot replay a message at {iso(first.chat_time)}: the store's "
        f"latest write is {iso(latest)} (a review, an alias or another command since counts) and transaction time "
        "only moves forward; replay into a new store, or ingest without --replay (the new messages are then recorded "
        f"as learned now; the facts they tell keep the times they say){_messenger_order(first.where)}")


def _messenger_order(where: str) -> str:
    """What to say of a Messenger file replayed after a newer one: its files are numbered newest first, so
    message_2.json comes before message_1.json (a new user's, who replayed them in the order their names sort)."""
    path = Path(where.rsplit(":", 1)[0])
    number = messenger.PART.fullmatch(path.name)
    if number is None or not (path.parent / f"message_{int(number[1]) - 1}.json").exists():
        return ""
    return (f"; Messenger numbers a long chat's files newest first: replay the highest number first, "
            f"{path.name} before message_{int(number[1]) - 1}.json")


def _refuse_the_future(store: Store, last: Message, replay: bool) -> None:
    """Refuse, before anything is written, a message said more than a day past the wall clock, unless the store
    allows it: replayed, its transaction time would leave the store unable to take a write before it; not replayed,
    its facts would hold from then on and end what holds now (an integrator's: a year typed wrong, "2031", quietly
    ended today's home), as MCP's remember refuses such a said_at."""
    now = None if store.allow_future else too_far_ahead(last.chat_time)
    if now is not None:
        raise InvalidTime(
            f"{last.where}: cannot {'replay' if replay else 'record'} a message at {iso(last.chat_time)}: it is more "
            f"than a day past the wall clock ({iso(now)}); a message is said by now; nothing was recorded; fix its "
            "chat time, or allow a future time explicitly (--allow-future)")


def _latest_write_cites(store: Store, episodes: frozenset[str]) -> bool:
    """True when the store's latest write records or cites one of ``episodes``."""
    latest = store.latest_write()
    if latest is None or not episodes:
        return False
    return any(d.episode in episodes for d in store.decisions(after=latest - TICK))


def import_memories(store: Store, memories: Sequence[str], extractor: Extractor | None = None, *,
                    approve: bool = False, reference: TimeLike | None = None, speaker: str = "user",
                    progress: Progress | None = None) -> IngestSummary:
    """Record remembered lines as episodes of kind 'import' and propose the facts they state.

    Memories carry no time of their own: each is read as said at ``reference`` (default now),
    where relative phrases resolve and the facts' validity starts by default. Lines written
    about the user ("User lives in Berlin", "Lives in Berlin") are read as ``speaker``'s own. A line the store
    holds already, imported as said at the same ``reference``, is not recorded again (a run again records only what
    is new; without ``reference``, each run is said now, and new).
    """
    if not speaker or not speaker.strip():
        raise InvalidInput("the speaker must be a non-empty name, e.g. 'user'")
    extractor = extractor or RuleExtractor(tz=store.tz)
    at = store.now() if reference is None else parse_time(reference, store.tz)
    held = {e.text for e in store.episodes() if e.kind == "import" and e.reference_time == at}
    planned, already = [], 0
    for done, text in enumerate(memories, 1):
        if text in held:  # imported before, as said at the same moment: a run again (a new user's, every memory and
            already += 1  # its proposals written twice) writes only what is new
            continue
        where = f"memory {done}"
        try:
            facts = memory_facts(extractor, text, at, speaker.strip())
        except GraphmemError as exc:
            raise ImportFailed(f"{where}: {exc}; nothing was written") from exc
        planned.append(Planned(where, None, text, None, at, facts))
        if progress:
            progress("extracting", done, len(memories))
        stop_here()
    tally = write_all(store, planned, len(planned), kind="import", approve=approve, replay=False,
                      progress=progress)
    return tally.summary(replayed=False, already=already)
