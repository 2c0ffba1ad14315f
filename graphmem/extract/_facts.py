"""What every extractor returns: facts with the exact sentence each came from.

Internal: import these from :mod:`graphmem.extract`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from ..models import Model

__all__ = ["ExtractedFact", "Extractor", "FactOp", "MessageResult"]

#: What an extracted fact says: it is or became true, or it stopped being true.
FactOp = Literal["assert", "end"]


class ExtractedFact(Model):
    """One fact an extractor found, with the exact sentence it came from.

    ``op`` is ``assert`` (is or became true) or ``end`` (stopped being true at ``valid_to``;
    None: at the message's time). An assertion without ``valid_from`` holds from the message's
    time; an event (a trip, a meeting) carries the period of its time phrase.
    """

    op: FactOp = "assert"
    subject: str
    predicate: str
    object: str | None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    quote: str


class MessageResult(Model):
    """The facts drawn from one message, and a note when they did not come the usual way
    (say, the rules extractor stood in for a failing model)."""

    facts: list[ExtractedFact]
    note: str | None = None


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns a message into proposed facts."""

    name: str

    def extract(
        self, text: str, *, reference_time: datetime, speaker: str = "user"
    ) -> list[ExtractedFact]:
        """The facts stated in ``text``, with times resolved against ``reference_time``."""
        ...
