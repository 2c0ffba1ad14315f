"""What an ingest reports: the episodes it recorded, the facts it proposed, held and dropped.

Internal: import what it offers from :mod:`graphmem.ingest`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..extract_rules import ExtractedFact
from ..models import Model

__all__ = ["Dropped", "IngestSummary", "Progress", "Recorded", "Tally"]

#: Called as ``progress(phase, done, total)`` while a file is extracted ("extracting") and
#: written ("writing").
Progress = Callable[[str, int, int], None]


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
    unsure: int = 0  # of the pending: facts the extractor was unsure of, held for review even when approving
    replayed: bool = False
    first: datetime | None = None  # earliest reference time
    last: datetime | None = None  # latest reference time
    recorded: list[Recorded] = []
    held: list[Dropped] = []  # the gate refused them at approval: they wait for review
    dropped: list[Dropped] = []  # unusable or refused with review skipped: not proposed
    notes: list[str] = []  # "FILE:LINE: ..." from the extractor (say, a fallback it used)

    def __str__(self) -> str:
        """One line: the counts (``print(summary)`` listed every message recorded; a new user's)."""
        already = f" ({self.already} held already)" if self.already else ""
        unsure = f", {self.unsure} of them unsure" if self.unsure else ""
        rest = "".join(f", {len(items)} {name}" for name, items in (("held by the gate", self.held),
                                                                   ("dropped", self.dropped), ("notes", self.notes))
                       if items)
        episodes = f"{self.episodes} episode{'' if self.episodes == 1 else 's'}"
        facts = f"{self.proposed} fact{'' if self.proposed == 1 else 's'}"
        return f"{episodes} recorded{already}; {facts} proposed: {self.approved} approved, {self.pending} pending" \
               f"{unsure}{rest}"

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        """The fields, each list longer than three as its length ("recorded=<148 items>"): a notebook shows it."""
        for name, value in super().__repr_args__():
            yield name, _Items(len(value)) if isinstance(value, list) and len(value) > 3 else value


class _Items:
    """How :class:`IngestSummary`'s repr shows a long list."""

    def __init__(self, count: int):
        self.count = count

    def __repr__(self) -> str:
        return f"<{self.count} items>"


@dataclass
class Tally:
    """A summary being added up, message by message."""

    episodes: int = 0
    proposed: int = 0
    approved: int = 0
    pending: int = 0
    unsure: int = 0
    recorded: list[Recorded] = field(default_factory=list)
    held: list[Dropped] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    first: datetime | None = None
    last: datetime | None = None

    def record(self, recorded: Recorded, states: list[str], reference: datetime,
               dropped: list[Dropped], held: list[Dropped], unsure: int = 0) -> None:
        """Count one message recorded with proposals in ``states``, the facts it dropped, those
        the gate held back for review, and how many were held as unsure (``unsure``)."""
        self.episodes += 1
        self.proposed += len(states)
        self.approved += states.count("approved")
        self.pending += states.count("pending")
        self.unsure += unsure
        self.recorded.append(recorded)
        self.dropped.extend(dropped)
        self.held.extend(held)
        self._seen(reference)

    def _seen(self, moment: datetime | None) -> None:
        if moment is not None:
            self.first = moment if self.first is None else min(self.first, moment)
            self.last = moment if self.last is None else max(self.last, moment)

    def summary(self, *, replayed: bool, already: int = 0, notes: Sequence[str] = ()) -> IngestSummary:
        return IngestSummary(episodes=self.episodes, already=already, proposed=self.proposed,
                             approved=self.approved, pending=self.pending, unsure=self.unsure,
                             replayed=replayed, first=self.first,
                             last=self.last, recorded=self.recorded, held=self.held, dropped=self.dropped,
                             notes=list(notes))
