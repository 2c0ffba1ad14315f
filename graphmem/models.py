"""The store's data as plain pydantic models: no database calls in here."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field, field_serializer
from pydantic_core import SchemaSerializer

from .core.names import PredicateKind
from .core.times import TimeLike, iso

__all__ = ["DEFAULT_PREDICATES", "AliasGroup", "AliasSuggestion", "Assertion", "Change", "ChangeKind", "Decision",
           "Entity", "Episode", "Link", "Model", "Neighbourhood", "Op", "PredicateKind", "Proposal", "Said", "Status",
           "Tombstone", "Version", "Violation", "WhyAnswer"]

#: A version's status seen from a transaction time and a valid time (proposals: pending, rejected).
Status = Literal["pending", "rejected", "current", "upcoming", "ended", "superseded", "retracted"]
#: What one write did (a :class:`Decision`'s ``op``).
Op = Literal[
    "ADD", "UPDATE", "END", "RETRACT", "CORRECT", "SEGMENT", "MERGE", "NOOP",
    "EPISODE", "PROPOSE", "REJECT", "PURGE",
]

#: Predicates every store knows without a declaration; an undeclared predicate is ``many``.
DEFAULT_PREDICATES: dict[str, PredicateKind] = {
    "lives_in": "one",
    "works_at": "one",
    "status": "one",
    "studies_at": "one",
    "married_to": "one",
    "dating": "one",
    "is_called": "one",
    "likes": "many",
    "knows": "many",
    "dislikes": "many",
    "traveled_to": "event",
    "visited": "event",
    "met": "event",
    "graduated_from": "event",
    "has_pet": "many",
    "owns": "many",
    "does": "many",
    "member_of": "many",
    "attended": "event",
}


class Assertion(NamedTuple):
    """One fact to assert, as the arguments of :meth:`graphmem.Store.add` (for ``add_many``)."""

    subject: str
    predicate: str
    object: str
    valid_from: TimeLike | None = None
    valid_to: TimeLike | None = None
    episode: str | None = None


class Model(BaseModel):
    """Base: immutable values with times written as ISO 8601 UTC.

    Validators and serializers are built on first use (a command that prints a few records never
    pays for the rest). Before a model is dumped, the models it holds are built too: pydantic 2.13
    serialises a nested model with that model's own serializer, which must exist by then.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    def model_dump(self, **options: Any) -> dict[str, Any]:
        _built(type(self))
        return super().model_dump(**options)

    def model_dump_json(self, **options: Any) -> str:
        _built(type(self))
        return super().model_dump_json(**options)

    @field_serializer("*", when_used="json")
    def _times(self, value: object) -> object:
        if isinstance(value, datetime):
            return iso(value)
        return value


_BUILT: set[type[BaseModel]] = set()


def _built(model: type[BaseModel]) -> None:
    """Build the serializer of ``model`` and of every model its fields hold, once per class."""
    waiting: list[Any] = [model]
    while waiting:
        found = waiting.pop()
        if not (isinstance(found, type) and issubclass(found, BaseModel)):
            waiting.extend(get_args(found))  # list[Version], Version | None, ...
        elif found not in _BUILT:
            _BUILT.add(found)
            if not isinstance(found.__dict__.get("__pydantic_serializer__"), SchemaSerializer):
                found.model_rebuild(force=True)
            waiting.extend(field.annotation for field in found.model_fields.values())


class Entity(Model):
    """A node: a person, place, thing or literal value."""

    id: str
    name: str
    kind: str = "entity"


class Episode(Model):
    """One piece of source material, kept with its exact text."""

    id: str
    kind: str
    text: str
    actor: str | None = None
    reference_time: datetime
    received_at: datetime


class Said(Model):
    """Source text recorded as a new episode in the same write as the facts it supports."""

    text: str
    kind: str = "manual"
    actor: str | None = None
    reference_time: datetime | None = None


class Version(Model):
    """One stored fact version: subject -[predicate]-> object with two periods."""

    id: str
    subject: str
    predicate: str
    object: str
    valid_from: datetime
    valid_to: datetime | None = None
    recorded_at: datetime
    superseded_at: datetime | None = None
    status: Status | None = None
    episodes: list[str] = Field(default_factory=list)
    subject_id: str = ""
    object_id: str = ""
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(default_factory=list)
    created_by: str = ""
    closed_by: str | None = None
    reason: str | None = None


class Link(Model):
    """A supporting episode linked to a version after the version was written, and when."""

    version: str
    episode: str
    at: datetime

    @property
    def id(self) -> str:
        """The link's key: one episode is linked to one version at most once."""
        return f"{self.version}/{self.episode}"


class Decision(Model):
    """What one write did: its operation and the versions it created and closed."""

    id: str
    op: Op
    at: datetime
    created: list[str] = Field(default_factory=list)
    closed: list[str] = Field(default_factory=list)
    episode: str | None = None
    reason: str | None = None
    proposal: str | None = None


class Proposal(Model):
    """A fact proposed by an extractor, waiting in the review queue."""

    id: str
    op: Literal["assert", "end"] = "assert"
    subject: str
    predicate: str
    object: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    episode: str | None = None
    quote: str | None = None
    source: str = "manual"
    proposed_at: datetime
    state: Literal["pending", "approved", "rejected"] = "pending"
    decided_at: datetime | None = None
    reason: str | None = None
    decision: str | None = None


class AliasSuggestion(Model):
    """Two names that may be one entity, for review: ``alias suggest`` lists them, nothing is merged."""

    a: str
    b: str
    #: The entity each name is stored as, where one is (None: a name only the messages use).
    a_entity: str | None = None
    b_entity: str | None = None
    #: How strong the evidence is, from 0.4 (asked for: a longer form of a name or a surname alone) or 0.5 (worth
    #: a look, the default) to 1.
    score: float
    #: Why, in short sentences a reviewer can check.
    reasons: list[str] = Field(default_factory=list)
    #: The episodes that show it.
    episodes: list[str] = Field(default_factory=list)


class Tombstone(Model):
    """The content-free record that something was purged."""

    id: str
    target: Literal["entity", "episode", "version"]
    at: datetime
    versions: list[str] = Field(default_factory=list)
    episodes: list[str] = Field(default_factory=list)
    entities: int = 0
    proposals: int = 0


#: Why a version started or stopped being believed (a :class:`Change`'s ``change``).
ChangeKind = Literal["added", "updated", "ended", "retracted", "corrected", "segmented", "merged", "purged",
                     "linked"]


#: The change a write of each kind makes to what is believed (a :class:`Change`'s ``change``).
CHANGE_OF_OP: dict[str, ChangeKind] = {
    "ADD": "added", "UPDATE": "updated", "END": "ended", "RETRACT": "retracted",
    "CORRECT": "corrected", "SEGMENT": "segmented", "MERGE": "merged",
}


class Change(Model):
    """One row of a diff: a version that started or stopped being believed, and why."""

    change: ChangeKind
    believed: Literal["started", "stopped", "removed"]
    at: datetime
    decision: str
    version: Version | None = None
    reason: str | None = None


class WhyAnswer(Model):
    """Why the answer for (subject, predicate) at a valid time differs between two as-of times."""

    subject: str
    predicate: str
    valid_at: datetime
    as_of: datetime
    vs: datetime
    before: list[Version]
    after: list[Version]
    decisions: list[Decision]
    episodes: list[Episode]


class Violation(Model):
    """An invariant that `check` found broken."""

    rule: str
    detail: str
    record: str | None = None  # the record at fault: "version v3", "decision d7", ...


class AliasGroup(Model):
    """Names believed at one moment to be one entity: the ``alias_of`` facts that join them."""

    id: str  # the group's id: its entity seen first
    name: str  # that entity's name
    entities: list[Entity]  # every entity of the group, that one first
    versions: list[Version]  # the alias facts believed then that join them


class Neighbourhood(Model):
    """A focused view: the entities within ``depth`` hops of ``focus`` and the facts between them,
    as believed at ``as_of`` and valid at ``valid_at`` (None: at any time)."""

    focus: Entity
    depth: int
    as_of: datetime
    valid_at: datetime | None
    entities: list[Entity]
    versions: list[Version]
    distance: dict[str, int]
    truncated: bool = False
    #: Each entity shown that goes by other names then (its aliases) → its group's leading entity (the name seen
    #: first), with the kind the group is shown with: one node per group, named and coloured by it, whatever the focus.
    groups: dict[str, Entity] = {}
    #: Each group's leading entity's id → every name the group goes by then, the lead's first: those shown and those
    #: out of view alike ("Dev's girlfriend" is Sana and Sanaya too, though only it is within the hops asked).
    names: dict[str, list[str]] = {}
