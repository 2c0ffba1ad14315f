"""The MCP tools without the protocol: what each one does (their models are in :mod:`.schemas`).

Each tool takes one pydantic input model, whose JSON schema is the tool's input schema, calls the
:class:`~graphmem.Store`, and returns one result model, whose schema is its output schema.

Every write records an episode of kind ``tool`` whose actor is the calling client's name and
whose text is the call (tool name and arguments as JSON). ``add``, ``end``, ``correct`` and
``retract`` record it in the same atomic write as the change it supports, so a refused call
writes nothing, not even its episode. ``approve`` and ``reject`` take no source in the Store,
so theirs is recorded just after the write succeeds, naming the decisions it made; ``reject``
also names the client in its reason. ``remember`` records the message itself as the episode
(see :func:`graphmem.ingest.record_message`), its actor the speaker (``assistant`` for an assistant's reply, from which
no fact is read), and the extracted facts wait for review unless asked otherwise or the store lets the ``tool`` source
skip review. ``declare`` writes a predicate's kind and records no episode, as ``graphmem predicate`` does not.

Purge is not offered: hard deletion stays with the command line.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from pydantic import ValidationError

from .._store import Store
from ..core.json_shapes import cited_ids
from ..core.times import TimeLike, iso, too_far_ahead
from ..errors import InvalidInput, NotFound
from ..extract import Extractor, RuleExtractor
from ..ingest import record_message
from ..models import Decision, Episode, Model, Said, WhyAnswer
from ._schemas import (
    AddInput,
    Aliases,
    AliasesInput,
    AliasInput,
    ApproveInput,
    BeliefsInput,
    CorrectInput,
    DeclareInput,
    EndInput,
    Episodes,
    EpisodesInput,
    Facts,
    History,
    HistoryInput,
    PredicateInfo,
    Predicates,
    PredicatesInput,
    Proposals,
    ProposalsInput,
    Recalled,
    RecallInput,
    RejectInput,
    Remembered,
    RememberInput,
    RetractInput,
    Reviewed,
    ToolInput,
    WhyInput,
    Written,
)

__all__ = ["TOOL_KIND", "TOOLS", "ToolSpec", "Tools"]

#: The episode kind (and review source) of everything written through these tools.
TOOL_KIND = "tool"

# -- the tools --------------------------------------------------------------------------------


#: The command lines an error may suggest, as the MCP tools that do the same (an MCP error told an assistant to run
#: `graphmem correct v39 --from START …`: a new user's).
_AS_TOOLS = [
    (re.compile(r"graphmem correct (v\d+) --from START --to (\S+) --reason \"\.\.\.\""),
     r'the correct tool ({"version_id": "\1", "valid_from": START, "valid_to": "\2", "reason": "..."})'),
    (re.compile(r"`graphmem review list`"), "the proposals tool"),
    (re.compile(r"`graphmem episodes`"), "the episodes tool"),
    (re.compile(r"`graphmem history SUBJECT PREDICATE`"), "the history tool"),
]


def for_tools(message: str) -> str:
    """An error's text as an MCP client reads it: a command line it suggests named as the tool that does the same."""
    for pattern, tool in _AS_TOOLS:
        message = pattern.sub(tool, message)
    return message


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, description, argument and result models, and whether it writes."""

    name: str
    description: str
    input: type[ToolInput]
    output: type[Model]
    run: Callable[[Tools, Any, str], Model]
    writes: bool


#: Every tool, by name, in the order they are offered.
TOOLS: dict[str, ToolSpec] = {}


_Method = TypeVar("_Method", bound=Callable[..., Model])


def _tool(input_model: type[ToolInput], output_model: type[Model], *,
          writes: bool = False) -> Callable[[_Method], _Method]:
    """Register a method of :class:`Tools` as the tool of its name, described by its docstring."""
    def register(method: _Method) -> _Method:
        description = inspect.getdoc(method)
        if not description:
            raise TypeError(f"the tool {method.__name__} needs a docstring: it is the tool's description")
        TOOLS[method.__name__] = ToolSpec(method.__name__, description, input_model,
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
        ('last week') are read against said_at. With role 'assistant' it is the assistant's own reply:
        recorded, found by search as the assistant's, and no fact is read from it.
        """
        said_at = self._time(args.said_at) or self.store.now()
        if (now := too_far_ahead(said_at)) is not None and not getattr(self.store, "allow_future", False):
            # an integrator's: a year typed wrong ("2031") quietly ended today's facts from then on
            raise InvalidInput(f"said_at {iso(said_at)} is more than a day past the wall clock ({iso(now)}): a "
                               "message is said by now; give the time it was said")
        # the message's actor is who said it, as `ingest` records each message, so "what did Dana say" finds it; an
        # assistant's reply is the assistant's, as ingest records one, and states nothing of the user (a new user's:
        # the bot's wrong summary "Valentina studies at the Universidad de Chile" was written as a belief)
        actor = args.speaker.strip() if args.role == "user" else "assistant"
        if args.said_at is not None and (again := self._remembered(args.text, actor, said_at)):
            return again  # a retry (its answer lost on the way): the message is held already, as ingest skips one
        facts = self.extractor.extract(args.text, reference_time=said_at, speaker=args.speaker) \
            if args.role == "user" else []
        summary = record_message(self.store, args.text, facts, kind=TOOL_KIND, actor=actor,
                                 reference_time=said_at, approve=args.approve)
        (recorded,) = summary.recorded
        by_id = {p.id: p for p in self.store.proposals(None)}
        return Remembered(episode=self.store.episode(recorded.episode),
                          proposals=[by_id[p] for p in recorded.proposals],
                          held=summary.held, dropped=summary.dropped)

    def _remembered(self, text: str, speaker: str, said_at: datetime) -> Remembered | None:
        """The answer of a remember call that recorded this very message (text, speaker and time), if one did."""
        for episode in self.store.episodes_said(text, TOOL_KIND):
            if episode.actor == speaker and episode.reference_time == said_at:
                return Remembered(episode=episode, proposals=[p for p in self.store.proposals(None)
                                                              if p.episode == episode.id])
        return None

    @_tool(AddInput, Written, writes=True)
    def add(self, args: AddInput, client: str) -> Written:
        """Assert a fact: subject predicate object, true from valid_from (default now) until valid_to.

        A one-valued predicate (lives_in, works_at, status) replaces the value it overlaps;
        many-valued ones (likes) coexist; events (traveled_to) are each their own fact.
        """
        return self._written(self.store.add(
            args.subject, args.predicate, args.object, valid_from=self._time(args.valid_from),
            valid_to=self._time(args.valid_to), **_source("add", args, client)))

    @_tool(EndInput, Written, writes=True)
    def end(self, args: EndInput, client: str) -> Written:
        """The world changed: the fact stopped being true at a time (default now).

        Use this when something ended ('I don't like apples anymore'); use correct or retract
        when it was never true.
        """
        return self._written(self.store.end(args.subject, args.predicate, args.object,
                                            at=self._time(args.at), **_source("end", args, client)))

    @_tool(AliasInput, Written, writes=True)
    def alias(self, args: AliasInput, client: str) -> Written:
        """Say that two names are one entity ('Mel' is 'Melanie'), or with end that one stopped naming it.

        Every question then treats the names as one (as believed at its moment), and each fact keeps
        the name it was stated under. Refused, with why, for a person and a place, or two entities a
        fact keeps apart (one is the other's sister).
        """
        said = _said("alias", args, client)
        if args.end:
            return self._written(self.store.end_alias(args.name, args.other, at=self._time(args.at), quote=said)[-1])
        return self._written(self.store.alias(args.name, args.other, valid_from=self._time(args.at), quote=said))

    @_tool(AliasesInput, Aliases)
    def aliases(self, args: AliasesInput, client: str) -> Aliases:
        """List the names the memory held to be one entity at as_of (default now), with the alias facts."""
        as_of = self.store.moments(args.as_of)[0]
        return Aliases(as_of=as_of, groups=self.store.aliases(as_of=as_of))

    @_tool(CorrectInput, Written, writes=True)
    def correct(self, args: CorrectInput, client: str) -> Written:
        """A version was wrong: withdraw it and state the right value for the same valid period, or, with
        valid_from/valid_to, the value (default its own) for when it really held ("no wait, it was Tuesday")."""
        return self._written(self.store.correct(  # (the store reads the times, and "open", as every caller's)
            args.version_id, args.object, reason=args.reason, valid_from=args.valid_from, valid_to=args.valid_to,
            **_source("correct", args, client)))

    @_tool(RetractInput, Written, writes=True)
    def retract(self, args: RetractInput, client: str) -> Written:
        """A version was never true: withdraw it with a reason (it stays in the history)."""
        return self._written(self.store.retract(args.version_id, reason=args.reason,
                                                **_source("retract", args, client)))

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
        """Answer a question from memory, as it stood at as_of (default now): facts and messages, best first.

        Facts about the entities the query names come first among facts, ranked by how well they
        and their source sentences match; messages received by as_of are ranked by their words,
        speaker and the turn before them, with the times their phrases name. Each hit says its
        kind, what matched and the episodes it cites.
        """
        as_of, valid_at = self._moments(args.as_of, args.valid_at)
        hits = self.store.search(args.query, as_of=None if args.as_of is None else as_of,  # as the command line asks
                                 valid_at=valid_at or "all", after=self._time(args.after),
                                 before=self._time(args.before), limit=args.limit, speaker=args.speaker,
                                 messages=args.messages)
        return Recalled(as_of=as_of, valid_at=valid_at, hits=hits)

    @_tool(BeliefsInput, Facts)
    def beliefs(self, args: BeliefsInput, client: str) -> Facts:
        """What the memory held at as_of (default now) about the world at valid_at (default as_of)."""
        as_of, valid_at = self._moments(args.as_of, args.valid_at)
        try:  # "about": its facts either way round (a new user's: subject user left out "Ana sister_of user")
            found = self.store.beliefs(as_of=as_of, valid_at=valid_at or "all", about=args.about)
        except NotFound:
            found = []
        if args.subject is not None:
            try:  # the subject under every name it goes by then (its aliases)
                subjects = {e.id for e in self.store.names_of(args.subject, as_of=as_of)}
            except NotFound:
                subjects = set()
            found = [v for v in found if v.subject_id in subjects]
        if args.predicate is not None:
            found = [v for v in found if v.predicate == args.predicate]
        note, ask = None, ("as_of asks what the memory knew at a time; to ask what was true then, ask with valid_at "
                           "alone (as_of left out)")
        if not found and (first := self.store.first_write()) is not None and as_of < first:
            note = f"nothing was recorded by then: this memory's first write was at {iso(first)}. {ask}"
        elif not found and (fact := self.store.first_fact()) is not None and as_of < fact[0]:
            approved = (", when it was approved from review: by then it was proposed and waiting (a fact is believed "
                        "from its approval on, not from its message's time)") if fact[1] and fact[1] <= as_of else ""
            note = (f"nothing was believed by then: this memory's first fact was recorded at {iso(fact[0])}"
                    f"{approved}. {ask}")
        if note is None and args.about is not None and args.as_of is not None:
            note = self._names_later(args.about, as_of)
        return Facts(as_of=as_of, valid_at=valid_at, versions=found, note=note)

    def _names_later(self, name: str, as_of: datetime) -> str | None:
        """Why an answer as of a past moment about ``name`` leaves out facts said under its other names: they were
        known to be it only later (an alias believed later), as the command line says (a new user's: MCP said
        nothing, so an assistant heard "nothing known")."""
        try:
            then = {e.id for e in self.store.names_of(name, as_of=as_of)}
            later = [e.name for e in self.store.names_of(name) if e.id not in then]
        except NotFound:
            return None
        return (f"as of {iso(as_of)} {name!r} was not yet known to be {', '.join(later)} (an alias believed later); "
                "ask as of now, or by that name") if later else None

    @_tool(HistoryInput, History)
    def history(self, args: HistoryInput, client: str) -> History:
        """Every version of subject + predicate ever written, newest first, with status and sources."""
        versions = self.store.history(args.subject, args.predicate)
        ids = cited_ids(versions)
        return History(versions=versions, episodes=self.store.episodes(ids) if ids else [])

    @_tool(WhyInput, WhyAnswer)
    def why(self, args: WhyInput, client: str) -> WhyAnswer:
        """Why the answer for subject + predicate at valid_at differs between as_of and vs.

        Gives both answers and the writes and episodes in between.
        """
        return self.store.why(args.subject, args.predicate, valid_at=self.store.time(args.valid_at),
                              as_of=self.store.time(args.as_of), vs=self._time(args.vs))

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
        """List the known predicates and those facts use, with their kinds (one, many or event); others count as
        many."""
        known = sorted(self.store.predicates(in_use=True).items())
        return Predicates(predicates=[PredicateInfo(name=n, kind=k) for n, k in known])

    @_tool(DeclareInput, Predicates, writes=True)
    def declare(self, args: DeclareInput, client: str) -> Predicates:
        """Declare a predicate's kind before facts use it (as `graphmem predicate NAME --kind`): one, many or event.
        Undeclared predicates count as many, so a one-valued predicate (an address) declared late is refused: two
        values then already hold at once. Answers the known predicates, as predicates does."""
        self.store.declare(args.predicate, args.kind)
        return self.predicates(PredicatesInput(), client)

    # -- helpers --------------------------------------------------------------------------

    def _time(self, value: TimeLike | None) -> datetime | None:
        return None if value is None else self.store.time(value)

    def _moments(self, as_of: TimeLike | None, valid_at: TimeLike | None) -> tuple[datetime, datetime | None]:
        """The as-of time (default now) and valid time (default as_of; None for 'all'): the store's rule."""
        return self.store.moments(as_of, valid_at)

    def _reviewed(self, tool: str, args: ToolInput, client: str, decisions: list[Decision]) -> Episode:
        """Record an approval or rejection, made without a source, as an episode naming its decisions."""
        said = _said(tool, args, client)
        return self.store.add_episode(f"{said.text} -> {', '.join(d.id for d in decisions)}",
                                      kind=said.kind, actor=said.actor)

    def _written(self, decision: Decision) -> Written:
        assert decision.episode is not None  # every write here records its call (quote=...)
        return Written(decision=decision, episode=self.store.episode(decision.episode),
                       versions=[self.store.version(v) for v in decision.created])


def _source(tool: str, args: AddInput | EndInput | CorrectInput | RetractInput, client: str) -> dict[str, Any]:
    """What a write cites: the message the call names (``episode``: "which sentence made you think so" answers
    with what the person said, not the call; a new user's), else the call itself (:func:`_said`)."""
    return {"episode": args.episode} if args.episode else {"quote": _said(tool, args, client)}


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
