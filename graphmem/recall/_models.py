"""What a search returns: ranked facts, each with its score and what of the question it matched.

Internal: import the results from :mod:`graphmem.recall`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from ..models import Model, Version

__all__ = ["Answer", "Embedded", "Hit", "Matched", "MessageHit", "Resolved", "SaidTime", "SynonymUsed", "TimeFilter",
           "Turn"]


class SynonymUsed(Model):
    """A phrase of the question that named the fact's predicate."""

    phrase: str
    predicate: str


#: How a time window's text ends when nothing was said in it, and the messages answering were said before it.
NOTHING_SAID = "(nothing said during it matched)"
#: How it ends when nothing said in it or before its end matched either, and the messages answering were said at
#: any time ("what did we plan for christmas", asked of plans made in October for this Christmas: "did" made it
#: last Christmas, before the chat began; a new user's).
NOTHING_SAID_BY = "(nothing said during it or before its end matched)"


class TimeFilter(Model):
    """The valid-time filter a time phrase of the question set: ``[valid_from, valid_to)``, open ends null."""

    text: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None


class Resolved(Model):
    """What a phrase of the question was resolved to, through a fact believed at the question's moment.

    ``relation``: "my sister" means ``entity`` (by ``fact``, e.g. ``Anna sister_of Maya``).
    ``event``: "before he moved to Lisbon" names ``fact`` (with ``entity``, the object named),
    whose valid start, or end for "left", is ``at``, the edge of the window. ``fact`` null: no
    such fact was known, and nothing was assumed."""

    kind: Literal["relation", "event"]
    phrase: str
    entity: str | None = None
    fact: str | None = None  # the version id
    statement: str | None = None  # "Anna sister_of Maya"
    at: datetime | None = None


class Matched(Model):
    """Why a fact was returned."""

    words: list[str] = Field(default_factory=list)  # the question's words the fact or its sentence holds
    anchor: str | None = None  # the entity the question named that the fact is about
    via: str | None = None  # for a fact about a neighbour (or a relation) of the named entity: that entity
    synonyms: list[SynonymUsed] = Field(default_factory=list)
    time: TimeFilter | None = None
    episode: str | None = None  # the source sentence that matched best
    sentence: str | None = None
    semantic: float | None = None  # cosine similarity, when semantic ranking took part
    resolved: list[Resolved] = Field(default_factory=list)  # the relation phrases (that led to this fact's
    # people) and event phrases of the question, and the facts they were resolved through


class Hit(Model):
    """One ranked fact: the version as believed at the question's moment, its score, and why."""

    version: Version
    score: float
    matched: Matched
    kind: Literal["fact"] = "fact"

    @property
    def episodes(self) -> list[str]:
        """The episodes the fact cites (as believed at the question's moment)."""
        return list(self.version.episodes)


class SaidTime(Model):
    """A time phrase of a message and the period ``[valid_from, valid_to)`` it names, read against
    the message's chat time ("yesterday", said on 8 May 2023: 7 May 2023)."""

    text: str
    valid_from: datetime
    valid_to: datetime | None = None


class Turn(Model):
    """A message said just before or after a message answer."""

    episode: str
    speaker: str | None
    said_at: datetime
    text: str


class MessageHit(Model):
    """One ranked message: what was said, by whom and when, the turns around it, its score and why.

    ``role`` is ``assistant`` for what an assistant said (ingest records its role as the actor),
    else ``user``. ``times`` are the periods its time phrases name."""

    episode: str
    episode_kind: str
    speaker: str | None
    role: Literal["user", "assistant"]
    said_at: datetime
    received_at: datetime
    text: str
    times: list[SaidTime] = Field(default_factory=list)
    before: list[Turn] = Field(default_factory=list)
    after: list[Turn] = Field(default_factory=list)
    score: float
    words: list[str] = Field(default_factory=list)  # the question's words the message holds
    time: TimeFilter | None = None  # the window the question's time phrase set
    resolved: list[Resolved] = Field(default_factory=list)  # the question's relation and event phrases, resolved
    kind: Literal["message"] = "message"

    @property
    def episodes(self) -> list[str]:
        """The episode it is: a message answer cites itself."""
        return [self.episode]


#: One answer of a search: a fact or a message.
Answer = Hit | MessageHit


class Embedded(Model):
    """What ``graphmem embed`` did: the vectors it made, with which model."""

    model: str
    versions: int
    episodes: int
