"""What an ingest reports: the episodes it recorded, the facts it proposed, held and dropped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

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
    replayed: bool = False
    first: datetime | None = None  # earliest reference time
    last: datetime | None = None  # latest reference time
    recorded: list[Recorded] = []
    held: list[Dropped] = []  # the gate refused them at approval: they wait for review
    dropped: list[Dropped] = []  # unusable or refused with review skipped: not proposed
    notes: list[str] = []  # "FILE:LINE: ..." from the extractor (say, a fallback it used)


@dataclass
class Tally:
    """A summary being added up, message by message."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("episodes", "proposed", "approved", "pending"), 0))
    lists: dict[str, list] = field(default_factory=lambda: {"recorded": [], "held": [], "dropped": []})
    first: datetime | None = None
    last: datetime | None = None

    def record(self, recorded: Recorded, states: list[str], reference: datetime,
               dropped: list[Dropped], held: list[Dropped]) -> None:
        """Count one message recorded with proposals in ``states``, the facts it dropped and
        those the gate held back for review."""
        self.counts["episodes"] += 1
        self.counts["proposed"] += len(states)
        self.counts["approved"] += states.count("approved")
        self.counts["pending"] += states.count("pending")
        self.lists["recorded"].append(recorded)
        self.lists["dropped"].extend(dropped)
        self.lists["held"].extend(held)
        self._seen(reference)

    def _seen(self, moment: datetime | None) -> None:
        if moment is not None:
            self.first = moment if self.first is None else min(self.first, moment)
            self.last = moment if self.last is None else max(self.last, moment)

    def summary(self, **more) -> IngestSummary:
        return IngestSummary(**self.counts, **self.lists, first=self.first, last=self.last, **more)
