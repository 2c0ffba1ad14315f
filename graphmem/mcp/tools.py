"""The MCP tools without the protocol: their input and result models, and what each one does.

Each tool takes one pydantic input model, whose JSON schema is the tool's input schema, calls the
:class:`~graphmem.Store`, and returns one result model, whose schema is its output schema.

Every write records an episode of kind ``tool`` whose actor is the calling client's name and
whose text is the call (tool name and arguments as JSON). ``add``, ``end``, ``correct`` and
``retract`` record it in the same atomic write as the change it supports, so a refused call
writes nothing, not even its episode. ``approve`` and ``reject`` take no source in the Store,
so theirs is recorded just after the write succeeds, naming the decisions it made; ``reject``
also names the client in its reason. ``remember`` records the message itself as the episode
(see :func:`graphmem.ingest.record_message`), and the extracted facts wait for review unless
asked otherwise or the store lets the ``tool`` source skip review.

Purge is not offered: hard deletion stays with the command line.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema

from ..errors import InvalidInput, InvalidTime, NotFound
from ..extract_rules import Extractor, RuleExtractor
from ..ingest import Dropped, record_message
from ..models import Decision, Episode, Model, PredicateKind, Proposal, Said, Version, WhyAnswer
from ..names import PREDICATE_NAME
from ..recall.models import Hit
from ..store import Store
from ..timeutil import UTC
from ..when import read_time

__all__ = ["TOOL_KIND", "TOOLS", "ToolInput", "ToolSpec", "Tools"]

#: The episode kind (and review source) of everything written through these tools.
TOOL_KIND = "tool"

# -- argument types ----------------------------------------------------------------------------

_TIME_HINT = ("ISO 8601 text, e.g. 2026-10-15 or 2026-10-15T09:30:00Z (a bare date is the start of that day; a "
              "time without an offset is read in the store's time zone), or a phrase like 'yesterday' or '2 weeks ago'")


def _text_time(value: Any) -> Any:
    """A time argument, checked with the store's own grammar (``graphmem.when.read_time``) and kept
    as given: the store reads it again in its own zone. Never a number."""
    if isinstance(value, str) and value.strip().lower() == "all":
        return "all"
    if not isinstance(value, (str, date)):
        raise ValueError(f"expected a time as {_TIME_HINT}, got {type(value).__name__}")
    try:
        read_time(value, UTC, lambda: datetime.now(UTC))
    except InvalidTime as exc:
        raise ValueError(str(exc)) from None
    return value


#: A time, read by the store with the one grammar every front end shares (``Store.time``).
Time = Annotated[str | date, BeforeValidator(_text_time),
                 WithJsonSchema({"type": "string", "minLength": 1, "description": _TIME_HINT})]
#: A time, or "all" (every valid time).
TimeOrAll = Annotated[str | date, BeforeValidator(_text_time),
                      WithJsonSchema({"type": "string", "minLength": 1, "description": _TIME_HINT + ", or all"})]
Name = Annotated[str, Field(min_length=1, max_length=1000, pattern=r"\S")]
Predicate = Annotated[str, Field(pattern=PREDICATE_NAME.pattern, description=(
    "Relation name in lowercase words joined by underscores, e.g. lives_in, works_at, likes, "
    "traveled_to (see the predicates tool for the known ones and their kinds)"))]
Identifier = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^\S+$")]
Reason = Annotated[str, Field(min_length=1, max_length=2000, pattern=r"\S")]


class ToolInput(BaseModel):
    """Base of the tools' arguments: unknown arguments are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class RememberInput(ToolInput):
    text: str = Field(min_length=1, max_length=20000, pattern=r"\S", description=(
        "The message exactly as said, e.g. 'I moved to Oslo last week.'"))
    said_at: Time | None = Field(None, description=(
        "When the message was said; phrases like 'last week' are read against it. Default: now"))
    speaker: Name = Field("user", description="Who 'I' is in the message")
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


class EndInput(ToolInput):
    subject: Name = Field(description="The entity the fact is about")
    predicate: Predicate
    object: Name | None = Field(None, description=(
        "Which value ended; needed when several hold at once (e.g. likes)"))
    at: Time | None = Field(None, description="When it stopped being true. Default: now")


class RetractInput(ToolInput):
    version_id: Identifier = Field(description="The version that was never true, e.g. v12")
    reason: Reason = Field(description="Why it was wrong")


class CorrectInput(ToolInput):
    version_id: Identifier = Field(description="The wrong version, e.g. v12")
    object: Name = Field(description="The right value, for the same valid period")
    reason: Reason = Field(description="What was wrong")


class RecallInput(ToolInput):
    query: str = Field(min_length=1, max_length=1000, pattern=r"\w", description=(
        "A question or words, e.g. 'where does Ivan live' or 'Priya job 2021': any word may match, "
        "synonyms point at predicates, named entities come first, a time phrase filters valid time"))
    as_of: Time | None = Field(None, description="Answer as the memory stood then. Default: now")
    valid_at: TimeOrAll = Field("all", description=(
        "Only facts true at this time, or 'all' for every time. Default: all"))
    after: Time | None = Field(None, description="Only facts still true after this time")
    before: Time | None = Field(None, description="Only facts that began before this time")
    limit: int = Field(20, ge=1, le=200, description="At most this many facts")
    speaker: Name = Field("user", description="Who 'I', 'me', 'my' are in the query")


class BeliefsInput(ToolInput):
    as_of: Time | None = Field(None, description="What the memory held then. Default: now")
    valid_at: TimeOrAll | None = Field(None, description=(
        "Facts true at this time, or 'all' for every time. Default: the as_of time"))
    subject: Name | None = Field(None, description="Only facts about this entity")
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


class Recalled(Model):
    """The facts that best answer a query, best first, each with its score and what matched."""

    as_of: datetime
    valid_at: datetime | None
    hits: list[Hit]


class History(Model):
    """Every version of (subject, predicate) ever written, newest first, and their episodes."""

    versions: list[Version]
    episodes: list[Episode]


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


# -- the tools --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, description, argument and result models, and whether it writes."""

    name: str
    description: str
    input: type[ToolInput]
    output: type[Model]
    run: Callable[[Tools, Any, str], Model]
    writes: bool


TOOLS: dict[str, ToolSpec] = {}


def _tool(input_model: type[ToolInput], output_model: type[Model], *, writes: bool = False):
    """Register a method of :class:`Tools` as the tool of its name, described by its docstring."""
    def register(method):
        TOOLS[method.__name__] = ToolSpec(method.__name__, inspect.getdoc(method), input_model,
                                          output_model, method, writes)
        return method
    return register


class Tools:
    """The tools over one open store; ``call`` checks the arguments and runs one."""

    def __init__(self, store: Store, extractor: Extractor | None = None):
        self.store = store
        self.extractor = extractor or RuleExtractor(tz=store.tz)

    def call(self, name: str, arguments: dict[str, Any], client: str) -> Model:
        """Run the tool ``name`` for ``client``; bad arguments raise InvalidInput, naming each."""
        spec = TOOLS.get(name)
        if spec is None:
            raise InvalidInput(f"unknown tool {name!r}; the tools are: {', '.join(TOOLS)}")
        try:
            args = spec.input.model_validate(arguments)
        except ValidationError as exc:
            raise InvalidInput(f"invalid arguments for {name}: {argument_errors(exc)}") from None
        return spec.run(self, args, client)

    # -- writes ---------------------------------------------------------------------------

    @_tool(RememberInput, Remembered, writes=True)
    def remember(self, args: RememberInput, client: str) -> Remembered:
        """Remember a message: record it as an episode and propose the facts it states.

        The facts wait for review (see proposals, approve, reject) unless approve is true or the
        store lets tool sources skip review (`graphmem review skip tool`). Times in the message
        ('last week') are read against said_at.
        """
        said_at = self._time(args.said_at) or self.store.now()
        facts = self.extractor.extract(args.text, reference_time=said_at, speaker=args.speaker)
        summary = record_message(self.store, args.text, facts, kind=TOOL_KIND, actor=client,
                                 reference_time=said_at, approve=args.approve)
        (recorded,) = summary.recorded
        by_id = {p.id: p for p in self.store.proposals(None)}
        return Remembered(episode=self.store.episode(recorded.episode),
                          proposals=[by_id[p] for p in recorded.proposals],
                          held=summary.held, dropped=summary.dropped)

    @_tool(AddInput, Written, writes=True)
    def add(self, args: AddInput, client: str) -> Written:
        """Assert a fact: subject predicate object, true from valid_from (default now) until valid_to.

        A one-valued predicate (lives_in, works_at, status) replaces the value it overlaps;
        many-valued ones (likes) coexist; events (traveled_to) are each their own fact.
        """
        return self._written(self.store.add(
            args.subject, args.predicate, args.object, valid_from=self._time(args.valid_from),
            valid_to=self._time(args.valid_to), quote=_said("add", args, client)))

    @_tool(EndInput, Written, writes=True)
    def end(self, args: EndInput, client: str) -> Written:
        """The world changed: the fact stopped being true at a time (default now).

        Use this when something ended ('I don't like apples anymore'); use correct or retract
        when it was never true.
        """
        return self._written(self.store.end(args.subject, args.predicate, args.object,
                                            at=self._time(args.at), quote=_said("end", args, client)))

    @_tool(CorrectInput, Written, writes=True)
    def correct(self, args: CorrectInput, client: str) -> Written:
        """A version was wrong: withdraw it and state the right value for the same valid period."""
        return self._written(self.store.correct(args.version_id, args.object, reason=args.reason,
                                                quote=_said("correct", args, client)))

    @_tool(RetractInput, Written, writes=True)
    def retract(self, args: RetractInput, client: str) -> Written:
        """A version was never true: withdraw it with a reason (it stays in the history)."""
        return self._written(self.store.retract(args.version_id, reason=args.reason,
                                                quote=_said("retract", args, client)))

    @_tool(ApproveInput, Reviewed, writes=True)
    def approve(self, args: ApproveInput, client: str) -> Reviewed:
        """Approve pending proposals: each is written into memory now, all or none."""
        decisions = self.store.approve(args.proposal_ids)
        return Reviewed(decisions=decisions, episode=self._reviewed("approve", args, client, decisions))

    @_tool(RejectInput, Reviewed, writes=True)
    def reject(self, args: RejectInput, client: str) -> Reviewed:
        """Reject pending proposals with a reason; they are kept, never believed."""
        decisions = self.store.reject(args.proposal_ids, reason=f"{args.reason.strip()} (via {client})")
        return Reviewed(decisions=decisions, episode=self._reviewed("reject", args, client, decisions))

    # -- queries --------------------------------------------------------------------------

    @_tool(RecallInput, Recalled)
    def recall(self, args: RecallInput, client: str) -> Recalled:
        """Answer a question from memory, as it stood at as_of (default now): the best facts first.

        Facts about the entities the query names come first (then their neighbours'), ranked by
        how well they and their source sentences match; each hit says what matched.
        """
        as_of, valid_at = self._moments(args.as_of, args.valid_at)
        hits = self.store.search(args.query, as_of=as_of, valid_at=valid_at or "all", after=self._time(args.after),
                                 before=self._time(args.before), limit=args.limit, speaker=args.speaker)
        return Recalled(as_of=as_of, valid_at=valid_at, hits=hits)

    @_tool(BeliefsInput, Facts)
    def beliefs(self, args: BeliefsInput, client: str) -> Facts:
        """What the memory held at as_of (default now) about the world at valid_at (default as_of)."""
        as_of, valid_at = self._moments(args.as_of, args.valid_at)
        found = self.store.beliefs(as_of=as_of, valid_at=valid_at or "all")
        if args.subject is not None:
            try:
                subject = self.store.entity(args.subject).id
            except NotFound:
                subject = None
            found = [v for v in found if v.subject_id == subject]
        if args.predicate is not None:
            found = [v for v in found if v.predicate == args.predicate]
        return Facts(as_of=as_of, valid_at=valid_at, versions=found)

    @_tool(HistoryInput, History)
    def history(self, args: HistoryInput, client: str) -> History:
        """Every version of subject + predicate ever written, newest first, with status and sources."""
        versions = self.store.history(args.subject, args.predicate)
        ids = sorted({e for v in versions for e in v.episodes})
        return History(versions=versions, episodes=self.store.episodes(ids) if ids else [])

    @_tool(WhyInput, WhyAnswer)
    def why(self, args: WhyInput, client: str) -> WhyAnswer:
        """Why the answer for subject + predicate at valid_at differs between as_of and vs.

        Gives both answers and the writes and episodes in between.
        """
        return self.store.why(args.subject, args.predicate, valid_at=self._time(args.valid_at),
                              as_of=self._time(args.as_of), vs=self._time(args.vs))

    @_tool(ProposalsInput, Proposals)
    def proposals(self, args: ProposalsInput, client: str) -> Proposals:
        """List the review queue: facts proposed from remembered messages (pending by default)."""
        return Proposals(proposals=self.store.proposals(None if args.state == "all" else args.state))

    @_tool(EpisodesInput, Episodes)
    def episodes(self, args: EpisodesInput, client: str) -> Episodes:
        """Show source material (messages and tool calls) by id, or those behind facts about an entity."""
        return Episodes(episodes=self.store.episodes(args.ids, about=args.about))

    @_tool(PredicatesInput, Predicates)
    def predicates(self, args: PredicatesInput, client: str) -> Predicates:
        """List the known predicates and their kinds (one, many or event); others count as many."""
        known = sorted(self.store.predicates().items())
        return Predicates(predicates=[PredicateInfo(name=n, kind=k) for n, k in known])

    # -- helpers --------------------------------------------------------------------------

    def _time(self, value) -> datetime | None:
        return None if value is None else self.store.time(value)

    def _moments(self, as_of, valid_at) -> tuple[datetime, datetime | None]:
        """The as-of time (default now) and valid time (default as_of; None for 'all'): the store's rule."""
        return self.store.moments(as_of, valid_at)

    def _reviewed(self, tool: str, args: ToolInput, client: str, decisions: list[Decision]) -> Episode:
        """Record an approval or rejection, made without a source, as an episode naming its decisions."""
        said = _said(tool, args, client)
        return self.store.add_episode(f"{said.text} -> {', '.join(d.id for d in decisions)}",
                                      kind=said.kind, actor=said.actor)

    def _written(self, decision: Decision) -> Written:
        return Written(decision=decision, episode=self.store.episode(decision.episode),
                       versions=[self.store.version(v) for v in decision.created])


def _said(tool: str, args: ToolInput, client: str) -> Said:
    """A call as the source of its write: an episode of kind tool by ``client``, said at the write."""
    arguments = json.dumps(args.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
    return Said(text=f"{tool} {arguments}", kind=TOOL_KIND, actor=client)


def argument_errors(exc: ValidationError) -> str:
    """A pydantic validation error as one line: each bad argument and what is wrong with it."""
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown argument"
        elif error["type"] == "missing":
            message = "required"
        parts.append(f"{where}: {message}")
    return "; ".join(parts)
