"""The review queue inside a write: facts proposed, approved through the gate, or rejected.

A proposal waits as *pending* until it is approved (then written through the gate, at approval
time, in the approving write) or rejected (kept, with the reason). Sources configured to skip
review are approved in the write that proposes them.

Internal: use :meth:`graphmem.Store.propose`, ``approve`` and ``reject``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import Literal, Protocol

from ..core.names import check_predicate, entity_key, refuse_lone_surrogate
from ..core.times import UTC
from ..errors import InvalidInput
from ..models import Decision, Proposal
from .transaction import Transaction

__all__ = ["ProposedFact", "approve", "approves", "aware", "queue", "reject"]


class ProposedFact(Protocol):
    """A fact to propose: an extractor's :class:`graphmem.extract.ExtractedFact`, a Proposal."""

    @property
    def op(self) -> Literal["assert", "end"]: ...
    @property
    def subject(self) -> str: ...
    @property
    def predicate(self) -> str: ...
    @property
    def object(self) -> str | None: ...
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_to(self) -> datetime | None: ...
    @property
    def quote(self) -> str | None: ...


#: What a proposed fact has (see :class:`ProposedFact`): a dict was read as one and failed with a bare AttributeError
#: (a developer's).
_FIELDS = ("op", "subject", "predicate", "object", "valid_from", "valid_to", "quote")


def approves(fact: ProposedFact, *, approve: bool, skip: bool) -> bool:
    """Whether ``fact`` is approved in the write that proposes it: always when its source skips
    review (``skip``); with ``approve``, unless its extractor marked it unsure (``sure`` False:
    it waits for review however the message was approved)."""
    return skip or (approve and getattr(fact, "sure", True))


def queue(txn: Transaction, fact: ProposedFact, episode: str | None, source: str, approve_now: bool,
          kind_of: Callable[[str], str], tz: tzinfo = UTC) -> Proposal:
    """Queue one proposed fact (anything with ``op, subject, predicate, object, valid_from,
    valid_to, quote``, and perhaps a ``doubt``: why its extractor was unsure, kept as the pending
    proposal's reason) in this write, approving it at once when ``approve_now``; a naive time is
    read in ``tz``, the store's zone."""
    if missing := [name for name in _FIELDS if not hasattr(fact, name)]:
        raise InvalidInput(f"a proposed fact is an object with {', '.join(_FIELDS)} (an ExtractedFact of "
                           f"graphmem.extract, say), not a {type(fact).__name__} without {', '.join(missing)}")
    check_predicate(fact.predicate)
    if fact.op not in ("assert", "end"):
        raise InvalidInput(f"a proposal's op is 'assert' or 'end', not {fact.op!r}")
    if fact.op == "assert" and not fact.object:
        raise InvalidInput("a proposed assertion needs an object")
    entity_key(fact.subject)
    if fact.object:
        entity_key(fact.object)  # a name with something visible, as the gate will ask on approval
    refuse_lone_surrogate(source, "a proposal's source")
    refuse_lone_surrogate(fact.quote, "a proposal's quote")
    refuse_lone_surrogate(getattr(fact, "doubt", None), "a proposal's doubt")
    proposal_id = txn.next_id("p")
    doubt = getattr(fact, "doubt", None)  # kept in the log too: why it waited outlives its decision
    logged = txn.log("PROPOSE", proposal=proposal_id, episode=episode, reason=doubt)
    proposal = Proposal(
        id=proposal_id, op=fact.op, subject=fact.subject, predicate=fact.predicate,
        object=fact.object, valid_from=aware(fact.valid_from, tz), valid_to=aware(fact.valid_to, tz),
        episode=episode, quote=fact.quote, source=source, proposed_at=logged.at,
        reason=None if approve_now else doubt,  # why its extractor left it for review
    )
    txn.queue(proposal)
    if approve_now:
        decision = approve(txn, proposal, kind_of(proposal.predicate))
        proposal = proposal.model_copy(update={"state": "approved", "decided_at": decision.at,
                                               "decision": decision.id})
    return proposal


def approve(txn: Transaction, p: Proposal, kind: str) -> Decision:
    """Write a pending proposal through the gate now (its predicate is of ``kind``)."""
    source = txn.episode(p.episode) if p.episode else None
    if p.op == "end":  # an end proposal's moment is when the fact stopped: its valid_to
        decision = txn.end_fact(kind, p.subject, p.predicate, p.object, p.valid_to or p.valid_from, source,
                                proposal=p.id)
    elif p.object is not None:  # an assertion always names its object (checked when it was queued)
        decision = txn.assert_fact(kind, p.subject, p.predicate, p.object, p.valid_from, p.valid_to, source,
                                   proposal=p.id)
    else:
        raise InvalidInput(f"proposal {p.id} asserts nothing: it names no object")
    txn.decide(p.id, "approved", None, decision.id)
    return decision


def reject(txn: Transaction, p: Proposal, reason: str) -> Decision:
    """Reject a pending proposal, keeping it with the reason."""
    decision = txn.log("REJECT", proposal=p.id, reason=reason)
    txn.decide(p.id, "rejected", reason, decision.id)
    return decision


def aware(value: datetime | None, tz: tzinfo = UTC) -> datetime | None:
    """A proposed time as aware UTC (naive read in ``tz``): how a proposal stores its period."""
    if value is None:
        return None
    if value.tzinfo:
        return value
    try:
        return value.replace(tzinfo=tz).astimezone(UTC)
    except OverflowError:  # datetime.max in a zone behind UTC: past the last time there is; read as UTC (a reviewer's)
        return value.replace(tzinfo=UTC)
