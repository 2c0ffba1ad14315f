"""Versions as a vis-network graph: entities as nodes, versions (or merged groups) as edges.

Readable at 50+ entities: node sizes are capped, parallel versions of one predicate between
the same two entities are merged into one edge labelled with a count, every edge's tooltip
gives its predicate and valid period, and the layout is deterministic (a fixed seed; the page
then fits the view to the bulk of the nodes, pulling in any flung far away).

Internal: draw pages with the functions :mod:`visualize` exports.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from pyvis.network import Network

from graphmem.core.aliases import ALIAS
from graphmem.core.relations import shown_name
from graphmem.models import Entity, Version
from graphmem.pages.palette import CLOSED_STATUSES, kind_colour, period, status_colour

from ._details import entity_details, fact_text

__all__ = ["graph_data"]

LABEL_LIMIT = 40
#: The same seed on every load: the same data always gets the same picture.
SEED = 7
MIN_SIZE, MAX_SIZE = 10, 34


#: Each entity's node where names are drawn as one: an alias's id -> its group's first entity's id.
Same = dict[str, str]


def endpoint_ids(version: Version, same: Same | None = None) -> tuple[str, str]:
    """Node ids of a version's subject and object (display names when ids are missing); with ``same``,
    the node of each name's group."""
    ends = (version.subject_id or f"name:{version.subject}", version.object_id or f"name:{version.object}")
    return ends if not same else (same.get(ends[0], ends[0]), same.get(ends[1], ends[1]))


def short(text: str, limit: int = LABEL_LIMIT) -> str:
    """Text cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def node_size(degree: int) -> float:
    """A node's radius: grows with its degree, capped so hubs do not cover their neighbours."""
    return round(min(MAX_SIZE, MIN_SIZE + 5 * math.sqrt(degree)), 1)


def edge_style(status: str | None) -> dict[str, Any]:
    """The vis-network colour, dash and width of an edge with this status."""
    colour = status_colour(status)
    return {
        "color": {"color": colour, "highlight": colour, "hover": colour},
        "dashes": status in CLOSED_STATUSES,
        "width": 2,
        "font": {"color": colour},
    }


def _entities_of(versions: list[Version], entities: dict[str, Entity], same: Same | None = None) -> dict[str, Entity]:
    """Every entity the versions touch, keyed by node id; unknown ids fall back to the name."""
    found: dict[str, Entity] = {}
    for version in versions:
        for node_id, name in zip(endpoint_ids(version, same), (version.subject, version.object),
                                 strict=True):
            if node_id not in found:
                found[node_id] = entities.get(node_id) or Entity(id=node_id, name=name)
    return found


#: The status a page draws a version with (its own, or one the page decides).
StatusOf = Callable[[Version], str | None]


def merge_parallel(versions: list[Version], status_of: StatusOf, same: Same | None = None) -> list[list[Version]]:
    """Versions grouped into edges: one group per (subject, predicate, object, status)."""
    groups: dict[tuple[str, str, str, str | None], list[Version]] = {}
    for version in versions:
        key = (*endpoint_ids(version, same), version.predicate, status_of(version))
        groups.setdefault(key, []).append(version)
    return list(groups.values())


def _curves(groups: list[list[Version]], same: Same | None = None) -> dict[str, dict[str, Any]]:
    """Separate curves for edges that share a pair of endpoints, so none hides another."""
    by_pair: dict[frozenset[str], list[str]] = defaultdict(list)
    for group in groups:
        by_pair[frozenset(endpoint_ids(group[0], same))].append(group[0].id)
    curves = {}
    for ids in by_pair.values():
        if len(ids) < 2:
            continue
        for index, edge_id in enumerate(ids):
            curves[edge_id] = {
                "enabled": True,
                "type": "curvedCW" if index % 2 == 0 else "curvedCCW",
                "roundness": 0.15 + 0.15 * (index // 2),
            }
    return curves


def edge_tip(group: list[Version], status: str | None) -> dict[str, Any]:
    """What hovering an edge shows: its predicate and each version's valid period."""
    first = group[0]
    heading = fact_text(first) + (f" (×{len(group)})" if len(group) > 1 else "")
    rows = [["status", status or "unknown"]]
    rows += [["valid", period(v.valid_from, v.valid_to)] for v in group[:12]]
    if len(group) > 12:
        rows.append(["…", f"{len(group) - 12} more"])
    return {"heading": heading, "status": status, "rows": rows, "sources": []}


def layout_options(node_count: int, edge_count: int = 0) -> dict[str, Any]:
    """vis-network options: a seeded force layout, cheaper for big graphs."""
    net = Network(directed=True)
    net.force_atlas_2based(gravity=-60, spring_length=120, overlap=0.4)
    options = json.loads(net.options.to_json())
    large = node_count > 150 or edge_count > 600
    options["physics"]["forceAtlas2Based"].update({"centralGravity": 0.015, "avoidOverlap": 0.4})
    options["physics"]["stabilization"].update({"iterations": 150 if large else 400, "fit": False,
                                                "updateInterval": 50})
    options["layout"] = {"randomSeed": SEED, "improvedLayout": not large}
    options["edges"] = {"smooth": {"enabled": True, "type": "dynamic"},
                        "font": {"size": 11, "strokeWidth": 3, "align": "middle"},
                        "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
                        "selectionWidth": 2}
    options["nodes"] = {"shape": "dot", "borderWidth": 1,
                        "font": {"size": 14, "face": "system-ui, sans-serif", "strokeWidth": 3,
                                 "strokeColor": "#ffffff"}}
    options["interaction"].update({"hover": True, "tooltipDelay": 150})
    return options


def node_data(node_id: str, entity: Entity, degree: int, focus: str | None = None) -> dict[str, Any]:
    """One vis-network node: label, kind colour, capped size; the focus drawn with a ring."""
    colour = kind_colour(entity.kind)
    colours = {"background": colour, "border": "#37474f",
               "highlight": {"background": colour, "border": "#000000"},
               "hover": {"background": colour, "border": "#000000"}}
    node = {
        "id": node_id, "label": short(entity.name), "kind": entity.kind, "degree": degree,
        "color": colours, "size": node_size(degree), "shape": "dot",
    }
    if node_id == focus:
        node.update(borderWidth=4, color={**colours, "border": "#0d47a1"}, focus=True)
    return node


def _named_all(entities: dict[str, Entity], same: Same) -> dict[str, Entity]:
    """Each group's first entity, named with every name of its group: "Nadia (also Nads)", shown by a name before an
    unnamed relative's stand-in ("Anjali (also Priya's sister)", as the explorer shows it; a new user's)."""
    names: dict[str, list[str]] = defaultdict(list)
    for member, first in same.items():
        if member != first and member in entities:
            names[first].append(entities[member].name)
    named = {}
    for first, others in names.items():
        if first in entities:
            every = [entities[first].name, *others]
            shown = shown_name(every)
            also = [name for name in every if name != shown]
            named[first] = entities[first].model_copy(update={"name": f"{shown} (also {', '.join(also)})"})
    return named


def graph_data(versions: list[Version], entities: dict[str, Entity],
               status_of: StatusOf = lambda version: version.status, *, merge: bool = True,
               focus: str | None = None, same: Same | None = None) -> dict[str, Any]:
    """Nodes, edges, options and per-item details for vis-network.

    With ``merge``, parallel versions (same endpoints, predicate and status) become one edge
    whose id is the first version's and whose ``versions`` lists them all. With ``same``, the
    names of one entity are one node (labelled with every name), and the alias facts joining
    them no edge (they stay in the page's table of facts).
    """
    if same:
        versions = [v for v in versions if v.predicate != ALIAS or len(set(endpoint_ids(v, same))) > 1]
        entities = {**entities, **_named_all(entities, same)}
    nodes = _entities_of(versions, entities, same)
    groups = merge_parallel(versions, status_of, same) if merge else [[v] for v in versions]
    degree = Counter(node for group in groups for node in endpoint_ids(group[0], same))
    curves = _curves(groups, same)
    edges = []
    for group in groups:
        first = group[0]
        source, target = endpoint_ids(first, same)
        status = status_of(first)
        edge = {"id": first.id, "from": source, "to": target,
                "label": short(first.predicate) + (f" ×{len(group)}" if len(group) > 1 else ""),
                "versions": [v.id for v in group], **edge_style(status)}
        if first.id in curves:
            edge["smooth"] = curves[first.id]
        edges.append(edge)
    return {
        "nodes": [node_data(node_id, entity, degree[node_id], focus)
                  for node_id, entity in nodes.items()],
        "edges": edges,
        "tips": {group[0].id: edge_tip(group, status_of(group[0])) for group in groups},
        "options": layout_options(len(nodes), len(edges)),
        "node_details": {node_id: entity_details(entity, degree[node_id])
                         for node_id, entity in nodes.items()},
        "kinds": sorted({entity.kind for entity in nodes.values()}),
    }
