"""Which versions a focused evolution page shows: an entity's surroundings over all time.

Internal: used by :func:`visualize.render_evolution`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.core.aliases import ALIAS
from graphmem.errors import InvalidInput
from graphmem.models import Version

if TYPE_CHECKING:
    from graphmem import Store

__all__ = ["ever_neighbourhood"]


def ever_neighbourhood(store: Store, focus: str, depth: int) -> list[Version]:
    """Every version ever written (any transaction or valid time, retracted ones included) of
    the entities fewer than ``depth`` hops from ``focus`` over those same versions.

    So every entity the page draws is at most ``depth`` hops away at some moment, another name of one (an alias
    ever written) no hop further. Read through
    :meth:`graphmem.Store.versions`, one entity at a time (its edges, never a scan of all).
    """
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise InvalidInput("an evolution page's depth is a whole number of hops, at least 1")
    start = store.entity(focus).id
    seen = {start}
    found: dict[str, Version] = {}
    read: dict[str, list[Version]] = {}  # each entity's versions, read once

    def versions(entity_id: str) -> list[Version]:
        if entity_id not in read:
            read[entity_id] = store.versions(entity_id)
        return read[entity_id]

    def other_names(nodes: list[str]) -> list[str]:
        """The entities an alias ever written joins to ``nodes`` (and to those), not seen yet; the alias versions
        are kept. Another name is no hop, as in a snapshot's neighbourhood (a reviewer's: the two pages of one
        focus and depth drew different entities)."""
        more, todo = [], list(nodes)
        while todo:
            for version in versions(todo.pop()):
                if version.predicate == ALIAS:
                    found[version.id] = version
                    for node in (version.subject_id, version.object_id):
                        if node not in seen:
                            seen.add(node)
                            more.append(node)
                            todo.append(node)
        return more

    frontier = [start, *other_names([start])]
    for _ in range(depth):
        reached: list[str] = []
        for entity_id in frontier:
            for version in versions(entity_id):
                found[version.id] = version
                for node in (version.subject_id, version.object_id):
                    if node not in seen:
                        seen.add(node)
                        reached.append(node)
        frontier = sorted(reached + other_names(reached))
    return sorted(found.values(), key=lambda v: int(v.id[1:]) if v.id[1:].isdigit() else 0)
