"""The neighbourhood of one entity: what a focused view shows, reached through edges.

Relationship properties have no index in either engine, so a focused view never scans every
edge: it starts at the focused entity (a primary-key lookup), takes its believed edges, and
walks out hop by hop from the entities it found. The pieces here receive the engine; they
never write.

Internal: use :meth:`graphmem.Store.neighbourhood`.
"""

from __future__ import annotations

from datetime import datetime

from ..core import records
from ..core.aliases import ALIAS, AliasGroups
from ..core.entity_kinds import effective_kinds
from ..core.times import MIN_TIME, OPEN_END, to_engine
from ..engine import Engine
from ..models import Entity, Neighbourhood, Version
from .aliases import groups_among
from .questions import as_believed_at, belief_order, consistent, entity, unseen_at, with_bodies

__all__ = ["MAX_DEPTH", "neighbourhood"]

#: The deepest walk a focused view may ask for (each hop can multiply what is read).
MAX_DEPTH = 6


def _believed_edges(engine: Engine, ids: list[str], as_of: datetime, valid_at: datetime | None,
                    predicates: list[str] | None) -> list[tuple[Version, str, str]]:
    """Versions believed at ``as_of`` (valid at ``valid_at``; None: any time) touching ``ids``,
    each with the stored kinds of its subject and object."""
    low, high = (MIN_TIME, None) if valid_at is None else (valid_at, valid_at)
    params = {
        "ids": ids, "as_of": to_engine(as_of),
        "valid_lo": to_engine(low), "valid_hi": to_engine(high) if high else OPEN_END,
        "any_predicate": not predicates, "predicates": list(predicates or [""]),
    }
    edges = engine.run("store/neighbourhood_out", params) + engine.run("store/neighbourhood_in", params)
    rows = with_bodies(engine, edges)
    return [(records.version(row[:6]), row[6], row[7]) for row in rows]


@consistent
def neighbourhood(engine: Engine, focus: Entity, depth: int, as_of: datetime,
                  valid_at: datetime | None, predicates: list[str] | None = None,
                  limit: int | None = None, also: tuple[Entity, ...] = (), aliases: bool = False) -> Neighbourhood:
    """The entities within ``depth`` hops of ``focus`` over the facts believed at ``as_of`` and
    valid at ``valid_at`` (None: at any time), and those facts.

    The facts are the believed edges of every entity nearer than ``depth`` hops, so every
    entity shown is at most ``depth`` hops away. With ``limit``, at most that many entities
    are kept, nearest first (ties by id), with only the facts between them; ``truncated``
    says whether any were left out. The entities ``also`` (the focus's other names: its aliases)
    stand where the focus stands, at no hops; so does another name of any entity reached (an ``alias_of``
    edge is no hop), unless ``predicates`` leaves aliases out. With ``aliases`` (the store ever held one), the
    entities kept that go by other names then are grouped (``groups``), each with its group's leading entity, and
    every name of a group takes the group's kind.
    """
    distance = {e.id: 0 for e in (focus, *also)}
    stored = {e.id: e.kind for e in (focus, *also)}
    names = {e.id: e.name for e in (focus, *also)}
    found: dict[str, Version] = {}

    def step(nodes: list[str], hop: int, wanted: list[str] | None) -> list[str]:
        """The entities first reached at ``hop`` through the believed edges (of ``wanted``) of ``nodes``."""
        reached = []
        for version, subject_kind, object_kind in _believed_edges(engine, nodes, as_of, valid_at, wanted):
            found[version.id] = version
            for node, name, kind in ((version.subject_id, version.subject, subject_kind),
                                     (version.object_id, version.object, object_kind)):
                if node not in distance:
                    distance[node] = hop
                    stored[node], names[node] = kind, name
                    reached.append(node)
        return reached

    frontier = sorted(distance)
    other_names: set[str] = set()  # entities reached only as another name of one reached
    for hop in range(1, depth + 1):
        if not frontier:
            break
        reached = named = step(frontier, hop, predicates)
        while named and (predicates is None or ALIAS in predicates):
            named = step(sorted(named), hop, [ALIAS])  # another name of an entity reached stands where it stands
            reached = reached + named
            other_names.update(named)
        frontier = sorted(reached)
    # the focus first, then by distance; at each distance, other names after the entities reached by a fact (a
    # reviewer's: with a limit, three names of Tom's girlfriend crowded out his sister)
    order = sorted(distance, key=lambda node: (node != focus.id, distance[node], node in other_names, node))
    kept = set(order[:limit] if limit else order)
    truncated = len(kept) < len(order)
    unseen = unseen_at(engine, as_of)
    versions = sorted(
        (as_believed_at(v, as_of, valid_at, unseen) for v in found.values()
         if v.subject_id in kept and v.object_id in kept),
        key=belief_order,
    )
    grouped = groups_among(engine, kept, as_of, valid_at) if aliases else AliasGroups()
    same = {node: grouped.lead(node) for node in kept if node in grouped.leader}
    members = {lead: grouped.members.get(lead, (lead,)) for lead in sorted(set(same.values()))}
    outside = {m: e for m in sorted({m for group in members.values() for m in group} - kept)  # names out of view,
               if (e := entity(engine, m)) is not None}  # each read once
    leads = {lead: outside[lead] for lead in members if lead not in kept and lead in outside}  # a lead out of view
    every = {lead: [names[m] if m in kept else outside[m].name if m in outside else m for m in group]
             for lead, group in members.items()}
    kinds = effective_kinds(versions, {node: stored[node] for node in kept}
                            | {lead: e.kind for lead, e in leads.items()}, same)
    entities = [Entity(id=node, name=names[node], kind=kinds[node]) for node in order if node in kept]
    shown = {e.id: e for e in entities}
    shown |= {lead: e.model_copy(update={"kind": kinds[lead]}) for lead, e in leads.items()}
    return Neighbourhood(
        focus=entities[0], depth=depth, as_of=as_of, valid_at=valid_at, entities=entities,
        versions=versions, distance={node: distance[node] for node in kept}, truncated=truncated,
        groups={node: shown[lead] for node, lead in same.items()}, names=every,
    )

