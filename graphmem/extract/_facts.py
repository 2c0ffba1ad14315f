"""What every extractor returns: facts with the exact sentence each came from.

Internal: import these from :mod:`graphmem.extract`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic.json_schema import SkipJsonSchema

from ..models import Model

__all__ = ["Context", "ExtractedFact", "Extractor", "FactOp", "MessageResult", "Turn", "takes_context"]

#: What an extracted fact says: it is or became true, or it stopped being true.
FactOp = Literal["assert", "end"]


class ExtractedFact(Model):
    """One fact an extractor found, with the exact sentence it came from.

    ``op`` is ``assert`` (is or became true) or ``end`` (stopped being true at ``valid_to``;
    None: at the message's time). An assertion without ``valid_from`` holds from the message's
    time; an event (a trip, a meeting) carries the period of its time phrase. ``sure`` False: the
    extractor reads facts of this kind too unreliably to write them unseen, so approving a whole
    message (``--approve``) leaves this one for review (:func:`graphmem.write.review.approves`), with
    ``doubt`` saying why.
    """

    op: FactOp = "assert"
    subject: str
    predicate: str
    object: str | None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    quote: str
    sure: SkipJsonSchema[bool] = True  # set by the extractor, never asked of a model (not in the schema)
    #: Why it is not sure, in words a reviewer can check (the pending proposal's reason).
    doubt: SkipJsonSchema[str | None] = None


class MessageResult(Model):
    """The facts drawn from one message, and a note when they did not come the usual way
    (say, the rules extractor stood in for a failing model)."""

    facts: list[ExtractedFact]
    note: str | None = None


class Turn(Model):
    """A message of the chat as an extractor sees it: who said it and what."""

    speaker: str
    text: str


#: What an extractor may be told about a message besides its text: ``(other, previous)``, the
#: other participant of a two-person chat (whom "you" means) and the turn said just before.
Context = tuple[str | None, Turn | None]


@runtime_checkable
class Extractor(Protocol):
    """Anything that turns a message into proposed facts.

    ``extract`` may also accept the keywords ``other`` (the other participant's name: "you")
    and ``previous`` (the :class:`Turn` before, for "yes", "it", "that"); callers pass them
    only to an extractor that accepts them (:func:`takes_context`), so one written before
    they existed still works. ``extract_many``, when there is one, may accept ``context``: one
    :data:`Context` per message.
    """

    name: str

    def extract(
        self, text: str, *, reference_time: datetime, speaker: str = "user"
    ) -> list[ExtractedFact]:
        """The facts stated in ``text``, with times resolved against ``reference_time``."""
        ...


def takes_context(method: Callable[..., Any] | None, *keywords: str) -> bool:
    """Whether ``method`` accepts every one of ``keywords`` (by name, or through ``**kwargs``)."""
    if method is None:
        return False
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return False
    names = {p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    return any(p.kind is p.VAR_KEYWORD for p in parameters) or set(keywords) <= names
