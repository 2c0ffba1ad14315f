"""The MCP tools' arguments and results: pydantic models whose JSON schemas the tools publish.

Arguments refuse what they do not know (``extra="forbid"``); times are text the store reads with
its one grammar (ISO 8601, or a phrase such as "yesterday"), checked here so a bad one names its
argument.

Internal: the tools publish these schemas; see :mod:`graphmem.mcp.tools`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from ..core.names import PREDICATE_NAME
from ..core.times import UTC
from ..errors import InvalidTime
from ..ingest import Dropped
from ..models import AliasGroup, Decision, Episode, Model, PredicateKind, Proposal, Version
from ..recall import Hit, MessageHit
from ..when import read_time

__all__ = ["AddInput", "AliasInput", "Aliases", "AliasesInput", "ApproveInput", "BeliefsInput", "CorrectInput",
           "EndInput", "Episodes",
           "EpisodesInput", "Facts", "History", "HistoryInput", "PredicateInfo", "Predicates", "PredicatesInput",
           "Proposals", "ProposalsInput", "RecallInput", "Recalled", "RejectInput", "RememberInput", "Remembered",
           "RetractInput", "Reviewed", "ToolInput", "WhyInput", "Written"]

# -- argument types ----------------------------------------------------------------------------

_TIME_HINT = ("ISO 8601 text, e.g. 2026-10-15 or 2026-10-15T09:30:00Z (a bare date is the start of that day; a "
              "time without an offset is read in the store's time zone), or a phrase like 'yesterday' or '2 weeks ago'")


def _text_time(value: Any) -> Any:
    """A time argument, checked with the store's own grammar (``graphmem.when.read_time``) and kept
    as given: the store reads it again in its own zone. Never a number, nor a word only some take ("all")."""
    if not isinstance(value, (str, date)):
        raise ValueError(f"expected a time as {_TIME_HINT}, got {type(value).__name__}")
    try:
        read_time(value, UTC, lambda: datetime.now(UTC))
    except InvalidTime as exc:
        raise ValueError(str(exc)) from None
    return value


def _or_word(word: str) -> Callable[[Any], Any]:
    """A time argument that may also be ``word`` ("all": every valid time; "open": no end)."""
    return lambda value: word if isinstance(value, str) and value.strip().lower() == word else _text_time(value)


#: A time, read by the store with the one grammar every front end shares (``Store.time``).
Time = Annotated[str | date, BeforeValidator(_text_time),
                 WithJsonSchema({"type": "string", "minLength": 1, "description": _TIME_HINT})]
#: A time, or "all" (every valid time).
TimeOrAll = Annotated[str | date, BeforeValidator(_or_word("all")),
                      WithJsonSchema({"type": "string", "minLength": 1, "description": _TIME_HINT + ", or all"})]
#: A time, or "open" (no end).
TimeOrOpen = Annotated[str | date, BeforeValidator(_or_word("open")),
                       WithJsonSchema({"type": "string", "minLength": 1, "description": _TIME_HINT + ", or open"})]
Name = Annotated[str, Field(min_length=1, max_length=1000, pattern=r"\S")]
Predicate = Annotated[str, Field(pattern=PREDICATE_NAME.pattern, description=(
    "Relation name in lowercase words joined by underscores, e.g. lives_in, works_at, likes, "
    "traveled_to (see the predicates tool for the known ones and their kinds)"))]
Identifier = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^\S+$")]
Reason = Annotated[str, Field(min_length=1, max_length=2000, pattern=r"\S")]
#: The message a write comes from, which it cites instead of the call (add, end, correct, retract).
Cited = Annotated[Identifier | None, Field(description=(
    "The message this write comes from, by its episode id (as remember returned it, e.g. ep45): the write cites it "
    "instead of this call"))]


class ToolInput(BaseModel):
    """Base of the tools' arguments: unknown arguments are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class RememberInput(ToolInput):
    text: str = Field(min_length=1, max_length=100_000, pattern=r"\S", description=(
        "The message exactly as said, e.g. 'I moved to Oslo last week.' (at most 100,000 characters)"))
    said_at: Time | None = Field(None, description=(
        "When the message was said; phrases like 'last week' are read against it. Default: now. Given, a call "
        "repeated with the same text, speaker and said_at (a retry) records nothing new and answers as the first"))
    speaker: Name = Field("user", description="Who 'I' is in the message")
    role: Literal["user", "assistant"] = Field("user", description=(
        "Who said it: 'user' (a person; its facts are proposed) or 'assistant' (the assistant's own reply: kept as "
        "an episode that search finds, marked as the assistant's, and no fact is read from it)"))
    approve: bool = Field(False, description=(
        "Write the extracted facts now instead of leaving them pending for review"))


class AddInput(ToolInput):
    subject: Name = Field(description="The entity the fact is about, by name, e.g. Ivan")
    predicate: Predicate
    object: Name = Field(description="The value or entity, by name, e.g. Berlin")
    valid_from: Time | None = Field(None, description=(
        "When it became true in the world. Default: now (the time of this call)"))
    valid_to: Time | None = Field(None, description=(
        "When it stopped being true (exclusive). Default: until further notice"))
    episode: Cited = None


class EndInput(ToolInput):
    subject: Name = Field(description="The entity the fact is about")
    predicate: Predicate
    object: Name | None = Field(None, description=(
        "Which value ended; needed when several hold at once (e.g. likes)"))
    at: Time | None = Field(None, description="When it stopped being true. Default: now")
    episode: Cited = None


class AliasInput(ToolInput):
    name: Name = Field(description="A name, e.g. Mel")
    other: Name = Field(description="Another name of the same entity, e.g. Melanie")
    end: bool = Field(False, description=(
        "True: name stopped naming other at `at` (to undo a wrong alias, retract its version instead)"))
    at: Time | None = Field(None, description="When the alias starts (or, with end, stops). Default: now")


class AliasesInput(ToolInput):
    as_of: Time | None = Field(None, description="The aliases the memory held then. Default: now")


class RetractInput(ToolInput):
    version_id: Identifier = Field(description="The version that was never true, e.g. v12")
    reason: Reason = Field(description="Why it was wrong")
    episode: Cited = None


class CorrectInput(ToolInput):
    version_id: Identifier = Field(description="The wrong version, e.g. v12")
    object: Name | None = Field(None, description=(
        "The right value, for the same valid period. Default: the version's own (to change only when it held)"))
    valid_from: Time | None = Field(None, description=(
        "When it really became true, where that was wrong. Default: the version's start"))
    valid_to: TimeOrOpen | None = Field(None, description=(
        "When it really stopped being true (exclusive), or 'open'. Default: the version's end"))
    reason: Reason = Field(description="What was wrong")
    episode: Cited = None

    @model_validator(mode="after")
    def _something_to_correct(self) -> CorrectInput:
        if self.object is None and self.valid_from is None and self.valid_to is None:
            raise ValueError("give the right object, or valid_from/valid_to for when it held")
        return self


class RecallInput(ToolInput):
    query: str = Field(min_length=1, max_length=1000, pattern=r"\w", description=(
        "A question or words, e.g. 'where does Ivan live' or 'Priya job 2021': any word may match, "
        "synonyms point at predicates, named entities come first, a time phrase filters valid time"))
    as_of: Time | None = Field(None, description="Answer as the memory stood then. Default: now")
    valid_at: TimeOrAll = Field("all", description=(
        "Only facts true at this time, or 'all' for every time. Default: all"))
    after: Time | None = Field(None, description="Only facts still true after this time")
    before: Time | None = Field(None, description="Only facts that began before this time")
    limit: int = Field(20, ge=1, le=200, description="At most this many answers")
    speaker: Name = Field("user", description="Who 'I', 'me', 'my' are in the query")
    messages: bool = Field(True, description=(
        "Also answer with messages said (who said what, when, with the turns around it), ranked with the facts"))


class BeliefsInput(ToolInput):
    as_of: Time | None = Field(None, description="What the memory held then. Default: now")
    valid_at: TimeOrAll | None = Field(None, description=(
        "Facts true at this time, or 'all' for every time. Default: the as_of time"))
    subject: Name | None = Field(None, description="Only facts about this entity")
    about: Name | None = Field(None, description=(
        "Only facts this entity is in, as subject or as object (its family, its employer's staff): everything "
        "about the user is about: user"))
    predicate: Predicate | None = None


class HistoryInput(ToolInput):
    subject: Name = Field(description="The entity, by name")
    predicate: Predicate


class WhyInput(ToolInput):
    subject: Name = Field(description="The entity, by name")
    predicate: Predicate
    valid_at: Time = Field(description="The time in the world the question is about")
    as_of: Time = Field(description="The earlier moment of the memory to compare")
    vs: Time | None = Field(None, description="The later moment of the memory. Default: now")


class ProposalsInput(ToolInput):
    state: Literal["pending", "approved", "rejected", "all"] = Field(
        "pending", description="Which proposals to list")


class ApproveInput(ToolInput):
    proposal_ids: list[Identifier] = Field(min_length=1, max_length=500, description=(
        "Pending proposals to write, e.g. ['p3', 'p4']"))


class RejectInput(ToolInput):
    proposal_ids: list[Identifier] = Field(min_length=1, max_length=500, description=(
        "Pending proposals to reject, e.g. ['p3']"))
    reason: Reason = Field(description="Why they are wrong")


class EpisodesInput(ToolInput):
    ids: list[Identifier] | None = Field(None, max_length=500, description=(
        "Episodes by id, e.g. ['ep4']"))
    about: Name | None = Field(None, description="Only episodes behind facts about this entity")


class PredicatesInput(ToolInput):
    pass


class DeclareInput(ToolInput):
    predicate: Predicate
    kind: PredicateKind = Field(description=(
        "one (a single value at a time: lives_in), many (several at once: likes) or event (each its own: "
        "traveled_to); refused once facts use the predicate under another kind"))


# -- results ----------------------------------------------------------------------------------


class Written(Model):
    """What a write did, the episode recording the call, and the versions it created."""

    decision: Decision
    episode: Episode
    versions: list[Version]


class Remembered(Model):
    """The message's episode and the facts proposed from it (pending, or approved)."""

    episode: Episode
    proposals: list[Proposal]
    held: list[Dropped] = Field(default_factory=list, description=(
        "Facts the store refused to write when approving them; they stay pending"))
    dropped: list[Dropped] = Field(default_factory=list, description=(
        "Facts found in the message that could not be proposed, with why"))


class Reviewed(Model):
    """The decisions of an approval or rejection, and the episode recording the call."""

    decisions: list[Decision]
    episode: Episode


class Facts(Model):
    """Fact versions as the memory held them at ``as_of``, valid at ``valid_at`` (null: any time)."""

    as_of: datetime
    valid_at: datetime | None
    versions: list[Version]
    #: Why an answer is empty when it is one the store could not have had: as of a time before its first write.
    note: str | None = None


class Recalled(Model):
    """The facts and messages that best answer a query, best first, each with its score and what
    matched; ``kind`` says which ("fact" or "message"), and each names the episodes it cites."""

    as_of: datetime
    valid_at: datetime | None
    hits: list[Annotated[Hit | MessageHit, Field(discriminator="kind")]]


class History(Model):
    """Every version of (subject, predicate) ever written, newest first, and their episodes."""

    versions: list[Version]
    episodes: list[Episode]


class Aliases(Model):
    """The names believed one entity at ``as_of``: one group per entity that has aliases."""

    as_of: datetime
    groups: list[AliasGroup]


class Proposals(Model):
    """Facts in the review queue."""

    proposals: list[Proposal]


class Episodes(Model):
    """Source material: messages and calls, with their exact text."""

    episodes: list[Episode]


class PredicateInfo(Model):
    """A known predicate and its kind."""

    name: str
    kind: PredicateKind


class Predicates(Model):
    """Known predicates: one (a single value at a time), many (several at once), event."""

    predicates: list[PredicateInfo]
