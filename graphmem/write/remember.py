"""Many messages remembered in one write: each its episode and proposals, stored together.

Each message is a write of its own in the log (as one ``Store.remember``), all of them in one
engine transaction: what the gate reads for them is fetched at once, what they write is stored
in bulk. A message whose facts the gate refuses as a whole is recorded all the same, fact by fact.

Internal: use :meth:`graphmem.Store.remember_many`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime, tzinfo
from typing import Generic, NamedTuple, TypeVar

from ..core.times import TICK, UTC
from ..errors import Conflict, InvalidInput, TimeWentBackwards
from ..models import Episode, PredicateKind, Proposal, Said
from . import review
from .transaction import Transaction

__all__ = ["Remembered", "first_write_time", "record"]

F = TypeVar("F", bound=review.ProposedFact)
#: One message: what was said, its reference time (aware, or None), the facts drawn from it.
Message = tuple[Said, datetime | None, list[F]]


class Remembered(NamedTuple, Generic[F]):
    """One message recorded by :meth:`Store.remember_many`: its episode, its proposals, and the
    facts the gate refused, each with why."""

    episode: Episode
    proposals: list[Proposal]
    refused: list[tuple[F, str]]


def next_write_time(reference: datetime | None, latest: datetime, *, replay: bool,
                    clock: Callable[[], datetime]) -> datetime:
    """The time of a write after ``latest``: now, or with ``replay`` the message's reference time
    (a tick after ``latest`` when that is not later)."""
    if not replay or reference is None:
        return max(clock(), latest + TICK)
    return reference if reference > latest else latest + TICK


def first_write_time(reference: datetime | None, latest: datetime | None, *, replay: bool,
                     clock: Callable[[], datetime]) -> datetime | None:
    """The time of the first message's write after the store's ``latest`` (None: the store's first
    write, made now unless replayed)."""
    if latest is None:
        return reference if replay else None
    return next_write_time(reference, latest, replay=replay, clock=clock)


def record(txn: Transaction, items: list[Message[F]], *, approve: bool, replay: bool, skips: Collection[str],
           kind_of: Callable[[str], PredicateKind], clock: Callable[[], datetime],
           bulk: bool, tz: tzinfo = UTC, source: str | None = None, keep_refused: bool = False) -> list[Remembered[F]]:
    """Record ``items`` in ``txn``, a write each (the first at the transaction's own time); a fact's naive time is read
    in ``tz``, the store's zone. The facts' source is ``source``, or each message's kind. With ``keep_refused``, a
    fact the gate refuses from a source that skips review stays pending too, not left out (one ``Store.remember``,
    whose answer lists a proposal for every fact)."""

    def begin(reference: datetime | None) -> None:  # the next write, after the first
        if txn.decisions:
            txn.begin(next_write_time(reference, txn.at, replay=replay, clock=clock))

    if bulk and (approve or any((source or said.kind) in skips for said, _, _ in items)):  # (each message's source)
        planned = [(f, f.valid_from, f.valid_to, reference) for _, reference, fs in items for f in fs]
        txn.prefetch((n for f, *_ in planned for n in (f.subject, f.object) if n),
                     ((f.subject, f.predicate, _earliest(times, tz)) for f, *times in planned))
    recorded: list[Remembered[F]] = []
    for said, reference, facts in items:
        src = source or said.kind
        skip = src in skips
        try:
            with txn.attempt():
                begin(reference)
                episode = txn.add_episode(said.text, said.kind, said.actor, reference)
                txn.log("EPISODE", episode=episode.id)
                proposals = [review.queue(txn, f, episode.id, src, review.approves(f, approve=approve, skip=skip),
                                          kind_of, tz) for f in facts]
            recorded.append(Remembered(episode, proposals, []))
        except TimeWentBackwards:
            raise
        except (Conflict, InvalidInput):
            if not (approve or skip):
                raise
            recorded.append(_one_by_one(txn, said, reference, facts, begin, kind_of, skip=skip and not keep_refused,
                                        tz=tz, source=src, approve_all=skip))
    return recorded


def _one_by_one(txn: Transaction, said: Said, reference: datetime | None, facts: list[F],
                begin: Callable[[datetime | None], None], kind_of: Callable[[str], PredicateKind], *,
                skip: bool, tz: tzinfo = UTC, source: str | None = None, approve_all: bool = False) -> Remembered[F]:
    """A message the gate refused as a whole: its episode (with its facts proposed, unless its
    source skips review) in one write, then each fact approved (or, skipping review, proposed) in a
    write of its own; the refused ones stay pending (are not proposed). ``approve_all``: each proposed fact is
    approved, its extractor's doubt aside (its source skips review)."""
    begin(reference)
    episode = txn.add_episode(said.text, said.kind, said.actor, reference)
    txn.log("EPISODE", episode=episode.id)
    source = source or said.kind
    proposals = [] if skip else [review.queue(txn, f, episode.id, source, False, kind_of, tz) for f in facts]
    refused = []
    for n, fact in enumerate(facts):
        try:
            with txn.attempt():
                begin(reference)
                if skip:
                    proposals.append(review.queue(txn, fact, episode.id, source, True, kind_of, tz))
                elif review.approves(fact, approve=True, skip=approve_all):
                    decision = review.approve(txn, proposals[n], kind_of(proposals[n].predicate))
                    proposals[n] = proposals[n].model_copy(update={
                        "state": "approved", "decided_at": decision.at, "decision": decision.id})
        except TimeWentBackwards:
            raise
        except (Conflict, InvalidInput) as exc:
            refused.append((fact, str(exc)))
            if not skip:
                why = f"the gate refused it: {exc}"
                txn.waits_because(proposals[n].id, why)
                proposals[n] = proposals[n].model_copy(update={"reason": why})
    return Remembered(episode, proposals, refused)


def _earliest(times: Iterable[datetime | None], tz: tzinfo) -> datetime | None:
    """The earliest of some times, None when none is given (read as a proposal reads them)."""
    found = [t for t in (review.aware(time, tz) for time in times) if t is not None]
    return min(found) if found else None
