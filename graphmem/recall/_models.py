"""What a search returns: ranked facts, each with its score and what of the question it matched.

Internal: import the results from :mod:`graphmem.recall`.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from ..models import Model, Version

__all__ = ["Embedded", "Hit", "Matched", "SynonymUsed", "TimeFilter"]


class SynonymUsed(Model):
    """A phrase of the question that named the fact's predicate."""

    phrase: str
    predicate: str


class TimeFilter(Model):
    """The valid-time filter a time phrase of the question set: ``[valid_from, valid_to)``, open ends null."""

    text: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None


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


class Hit(Model):
    """One ranked fact: the version as believed at the question's moment, its score, and why."""

    version: Version
    score: float
    matched: Matched


class Embedded(Model):
    """What ``graphmem embed`` did: the vectors it made, with which model."""

    model: str
    versions: int
    episodes: int
