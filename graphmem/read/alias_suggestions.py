"""Which names may be one entity: ``alias suggest`` over what a store holds.

Reads the store's episodes (their text and speaker) and entity names, asks the pure rules of
:mod:`graphmem.core.alias_evidence` for pairs, and answers them as
:class:`~graphmem.models.AliasSuggestion`, each name with the entity it is stored as where one
is. A pair already one entity (an ``alias_of`` fact believed now) or already waiting in the review
queue as an ``alias_of`` proposal is left out.

Internal: ask through :meth:`graphmem.Store.alias_suggestions`.
"""

from __future__ import annotations

from datetime import datetime

from ..core.alias_evidence import Message, suggest
from ..core.aliases import ALIAS, SETTLED_KINDS
from ..core.names import entity_key
from ..engine import Engine
from ..errors import InvalidInput
from ..models import AliasSuggestion, Entity
from . import questions

__all__ = ["alias_suggestions"]


def alias_suggestions(engine: Engine, now: datetime, *, min_score: float = 0.5,
                      limit: int | None = None) -> list[AliasSuggestion]:
    """The pairs of names worth a review, strongest first (at most ``limit``)."""
    entities = questions.entities(engine)
    messages = [Message(e.id, e.actor, e.text) for e in questions.episodes(engine)]
    ids = {e.id for e in entities}
    joined = {frozenset((v.subject, v.object)) for v in questions.beliefs(engine, now, None)
              if v.predicate == ALIAS and v.object is not None}
    queued = {frozenset((entity_key(p.subject), entity_key(p.object or ""))) for p in questions.proposals(engine)
              if p.predicate == ALIAS and p.state == "pending" and p.object}
    found = []
    for pair in suggest(messages, [e.name for e in entities if _named(e)], threshold=min_score):
        a, b = _stored(pair.a, ids), _stored(pair.b, ids)
        keys = frozenset((a or _key(pair.a), b or _key(pair.b)))
        if keys in joined or keys in queued:
            continue
        found.append(AliasSuggestion(a=pair.a, b=pair.b, a_entity=a, b_entity=b, score=pair.score,
                                     reasons=list(pair.reasons), episodes=list(pair.episodes)))
        if limit is not None and len(found) >= limit:
            break
    return found


def _named(entity: Entity) -> bool:
    """An entity whose name is a name: a person, place or organisation, or written with a capital
    ("Hannah"); not a thing an extractor kept ("house")."""
    return entity.kind in SETTLED_KINDS or any(c.isupper() for c in entity.name)


def _key(name: str) -> str:
    try:
        return entity_key(name)
    except InvalidInput:
        return name


def _stored(name: str, ids: set[str]) -> str | None:
    key = _key(name)
    return key if key in ids else None
