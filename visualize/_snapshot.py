"""The graph as believed at one transaction time and valid at one valid time.

Internal: import :func:`snapshot_html` from :mod:`visualize`.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.models import Entity, Episode, Version
from graphmem.pages.palette import kind_legend, palette_css, period, status_legend

from ._details import as_of_text, believed_text, fact_text, source_rows, version_details
from ._graph import graph_data
from ._page import render

__all__ = ["snapshot_html"]


def snapshot_html(
    versions: list[Version],
    entities: dict[str, Entity],
    episodes: dict[str, Episode],
    *,
    title: str,
    as_of: datetime | None = None,
    valid_at: datetime | str | None = None,
    focus: Entity | None = None,
    depth: int | None = None,
    note: str = "",
    same: dict[str, str] | None = None,
) -> str:
    """A self-contained page drawing these versions as a graph.

    Nodes are entities sized by degree (capped) and coloured by kind; edges are versions
    labelled by predicate and coloured by their ``status``, parallel versions of one predicate
    merged with a count. ``as_of`` and ``valid_at``, when given, are named under the title;
    ``focus`` and ``depth`` say the page is one entity's neighbourhood (drawn ringed). ``same``: the
    entities drawn as one node (an alias's id -> its group's first entity's id).
    """
    focus_id = None if focus is None else (same or {}).get(focus.id, focus.id)  # an alias's node is its group's
    graph = graph_data(versions, entities, focus=focus_id, same=same)
    facts = {v.id: version_details(v, episodes) for v in versions}
    rows = [
        {
            "id": v.id,
            "subject": v.subject,
            "predicate": v.predicate,
            "object": v.object,
            "valid": period(v.valid_from, v.valid_to),
            "believed": believed_text(v),
            "status": v.status or "unknown",
            "source": "; ".join(row["text"] for row in source_rows(v, episodes)),
            "fact": fact_text(v),
        }
        for v in sorted(versions, key=lambda v: (v.subject, v.predicate, v.valid_from))
    ]
    subtitle = as_of_text(as_of, valid_at)
    if focus is not None:
        hops = f"{depth} hop{'s' if depth != 1 else ''}"
        subtitle = f"around {focus.name}, within {hops}" + (f", {subtitle}" if subtitle else "")
    if note:
        subtitle += f" · {note}"
    return render(
        "snapshot.html",
        title=title,
        subtitle=subtitle,
        data={"graph": graph, "facts": facts},
        scripts=["graph.js", "snapshot.js"],
        graph=True,
        css=palette_css(graph["kinds"]),
        rows=rows,
        statuses=status_legend(v.status for v in versions),
        kinds=kind_legend(graph["kinds"]),
        counts={"entities": len(graph["nodes"]), "facts": len(versions)},
    )
