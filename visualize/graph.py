"""Versions as a vis-network graph: entities as nodes sized by degree, versions as edges."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict

from pyvis.network import Network

from graphmem.models import Entity, Version

from .details import entity_details
from .palette import CLOSED_STATUSES, kind_colour, status_colour

LABEL_LIMIT = 40


def endpoint_ids(version: Version) -> tuple[str, str]:
    """Node ids of a version's subject and object (display names when ids are missing)."""
    return (version.subject_id or f"name:{version.subject}",
            version.object_id or f"name:{version.object}")


def short(text: str, limit: int = LABEL_LIMIT) -> str:
    """Text cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def edge_style(status: str | None) -> dict:
    """The vis-network colour, dash and width of an edge with this status."""
    colour = status_colour(status)
    return {
        "color": {"color": colour, "highlight": colour, "hover": colour},
        "dashes": status in CLOSED_STATUSES,
        "width": 2,
        "font": {"color": colour},
    }


def _entities_of(versions: list[Version], entities: dict[str, Entity]) -> dict[str, Entity]:
    """Every entity the versions touch, keyed by node id; unknown ids fall back to the name."""
    found: dict[str, Entity] = {}
    for version in versions:
        for node_id, name in zip(endpoint_ids(version), (version.subject, version.object),
                                 strict=True):
            if node_id not in found:
                found[node_id] = entities.get(node_id) or Entity(id=node_id, name=name)
    return found


def _curves(versions: list[Version]) -> dict[str, dict]:
    """Separate curves for versions that share a pair of endpoints, so none hides another."""
    by_pair: dict[frozenset, list[str]] = defaultdict(list)
    for version in versions:
        by_pair[frozenset(endpoint_ids(version))].append(version.id)
    curves = {}
    for ids in by_pair.values():
        if len(ids) < 2:
            continue
        for index, version_id in enumerate(ids):
            curves[version_id] = {
                "enabled": True,
                "type": "curvedCW" if index % 2 == 0 else "curvedCCW",
                "roundness": 0.15 + 0.15 * (index // 2),
            }
    return curves


def graph_data(versions: list[Version], entities: dict[str, Entity],
               status_of=lambda version: version.status) -> dict:
    """Nodes, edges, options and per-item details for vis-network, built through pyvis."""
    net = Network(directed=True)
    net.force_atlas_2based(gravity=-60, spring_length=140, overlap=0.4)
    nodes = _entities_of(versions, entities)
    degree = Counter(node for version in versions for node in endpoint_ids(version))
    for node_id, entity in nodes.items():
        colour = kind_colour(entity.kind)
        net.add_node(
            node_id,
            label=short(entity.name),
            color={"background": colour, "border": "#37474f",
                   "highlight": {"background": colour, "border": "#000000"}},
            size=round(10 + 7 * math.sqrt(degree[node_id]), 1),
        )
    curves = _curves(versions)
    for version in versions:
        source, target = endpoint_ids(version)
        style = edge_style(status_of(version))
        if version.id in curves:
            style["smooth"] = curves[version.id]
        net.add_edge(source, target, id=version.id, label=short(version.predicate), **style)
    options = json.loads(net.options.to_json())
    # vis-network's initial layout and long stabilisation cost seconds on big graphs
    large = len(nodes) > 150
    options["physics"]["stabilization"].update({"iterations": 150 if large else 400, "fit": True})
    options["layout"] = {"improvedLayout": not large}
    options["edges"] = {"smooth": {"enabled": True, "type": "dynamic"},
                        "font": {"size": 12, "strokeWidth": 3, "align": "middle"},
                        "arrows": {"to": {"enabled": True, "scaleFactor": 0.7}}}
    options["nodes"] = {"shape": "dot", "borderWidth": 1,
                        "font": {"size": 14, "face": "system-ui, sans-serif"}}
    options["interaction"].update({"hover": True, "tooltipDelay": 150})
    return {
        "nodes": net.nodes,
        "edges": net.edges,
        "options": options,
        "node_details": {node_id: entity_details(entity, degree[node_id])
                         for node_id, entity in nodes.items()},
        "kinds": sorted({entity.kind for entity in nodes.values()}),
    }
