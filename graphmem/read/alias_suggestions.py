"""Which names may be one entity: ``alias suggest`` over what a store holds.

Reads the store's episodes (their text and speaker) and entity names, asks the pure rules of
:mod:`graphmem.core.alias_evidence` for pairs, and answers them as
:class:`~graphmem.models.AliasSuggestion`, each name with the entity it is stored as where one
is. A pair already one entity (an ``alias_of`` fact believed now) or already waiting in the review
queue as an ``alias_of`` proposal is left out, and so is a pair a believed fact keeps apart (Rosa
``boss_of`` Dan), two entities of two settled kinds (a place and an organisation: the gate would refuse
them as one) and the stand-in of an unnamed relative ("Rosa's girlfriend": not a name).

Internal: ask through :meth:`graphmem.Store.alias_suggestions`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from ..core.alias_evidence import Message, suggest
from ..core.aliases import ALIAS, NAMING, SETTLED_KINDS, alias_groups
from ..core.call_records import is_call_record
from ..core.entity_kinds import effective_kinds
from ..core.names import entity_key
from ..core.relations import relation_of
from ..engine import Engine
from ..errors import InvalidInput
from ..models import AliasSuggestion, Entity
from . import questions

__all__ = ["alias_suggestions"]


def alias_suggestions(engine: Engine, now: datetime, *, min_score: float = 0.5,
                      limit: int | None = None) -> list[AliasSuggestion]:
    """The pairs of names worth a review, strongest first (at most ``limit``)."""
    entities = questions.entities(engine)
    messages = [Message(e.id, e.actor, e.text) for e in questions.episodes(engine)
                if not is_call_record(e.text)]  # an MCP call's record is no chat (a new user's: it was cited)
    ids = {e.id for e in entities}
    believed = questions.beliefs(engine, now, None)
    joined = {frozenset((v.subject_id, v.object_id)) for v in believed if v.predicate == ALIAS}
    apart = {frozenset((v.subject_id, v.object_id)) for v in believed
             if v.predicate != ALIAS and v.predicate not in NAMING}
    unnamed = {v.subject_id for v in believed if relation_of(v.predicate) and _placeholder(v.subject, v.object)}
    # of two settled kinds (a place and an organisation: "leeds", "Leeds Central Library"), never one: the gate refuses,
    # comparing every name of each (a reviewer's: "Leeds Central Library" another name of "LCL", an employer)
    kinds = {e: k for e, k in effective_kinds(believed, {e.id: e.kind for e in entities}).items() if k in SETTLED_KINDS}
    groups = alias_groups([(a, b) for a, b in (sorted(pair) for pair in joined if len(pair) == 2)], {})
    queued = {keys for p in questions.proposals(engine)  # asked, or answered no
              if p.predicate == ALIAS and p.state in ("pending", "rejected") and p.object
              and (keys := _keys(p.subject, p.object)) is not None}
    found = []
    names = [e.name for e in entities if _named(e) and e.id not in unnamed]
    stored_name = {e.id: e.name for e in entities}
    for pair in suggest(messages, names, threshold=min_score):
        a, b = _stored(pair.a, ids), _stored(pair.b, ids)
        keys = frozenset((a or _key(pair.a), b or _key(pair.b)))
        if keys in joined or keys in queued or keys in apart:  # a believed fact between them: two
            continue
        if a and b and len({kinds[e] for e in groups.of(a) + groups.of(b) if e in kinds}) > 1:
            continue
        # a name the store holds is shown as it is stored ("Globex Corporation", not the chat's "globex corporation")
        shown = {x.casefold(): stored_name[k] for x, k in ((pair.a, a), (pair.b, b)) if k}
        found.append(AliasSuggestion(a=shown.get(pair.a.casefold(), pair.a), b=shown.get(pair.b.casefold(), pair.b),
                                     a_entity=a, b_entity=b, score=pair.score,
                                     reasons=_with_names(pair.reasons, shown), episodes=list(pair.episodes)))
        if limit is not None and len(found) >= limit:
            break
    return found


def _with_names(reasons: Iterable[str], shown: dict[str, str]) -> list[str]:
    """The reasons with the names they spell in lower case written as the store holds them."""
    if not shown:
        return list(reasons)
    words = re.compile("|".join(rf"(?<!\w){re.escape(k)}(?!\w)" for k in sorted(shown, key=len, reverse=True)))
    return [words.sub(lambda m: shown[m.group()], reason) for reason in reasons]


def _named(entity: Entity) -> bool:
    """An entity whose name is a name: a person, place or organisation, or written with a capital
    ("Hannah"); not a thing an extractor kept ("house")."""
    return entity.kind in SETTLED_KINDS or any(c.isupper() for c in entity.name)


def _keys(a: str, b: str) -> frozenset[str] | None:
    """The two names' keys, or None where one is no name at all (a proposal queued with an invisible object)."""
    try:
        return frozenset((entity_key(a), entity_key(b)))
    except InvalidInput:
        return None


def _placeholder(name: str, owner: str) -> bool:
    """Whether ``name`` stands for an unnamed relative of ``owner`` ("Maya's mother"): a
    description the relation extractor keeps until a name is learnt, not a name."""
    return name.casefold().startswith(owner.casefold() + "'s ")


def _key(name: str) -> str:
    try:
        return entity_key(name)
    except InvalidInput:
        return name


def _stored(name: str, ids: set[str]) -> str | None:
    key = _key(name)
    return key if key in ids else None
