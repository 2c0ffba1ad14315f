"""Belief over transaction time: one stop per write that changed what the store believes."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from graphmem.models import Decision, Entity, Episode, Version
from graphmem.temporal import believed_at, status_at

from .details import fact_text, version_details
from .graph import graph_data
from .page import render
from .palette import STATUS_COLOURS, kind_legend, palette_css, period, status_legend, when

OP_MEANING = {
    "ADD": "a new fact",
    "UPDATE": "a new value supersedes the old one",
    "END": "the world changed: a fact ended",
    "RETRACT": "withdrawn as never true",
    "CORRECT": "a wrong value retracted and the right one asserted",
    "SEGMENT": "a statement about a past period cuts history",
    "NOOP": "already believed; support linked",
    "PURGE": "deleted for privacy",
    "WRITE": "belief changed",
}


def _change(sign: str, version: Version | None, version_id: str, at: datetime) -> dict:
    if version is None:
        return {"sign": sign, "text": f"version {version_id} (no longer in the store)",
                "status": "unknown"}
    return {"sign": sign, "text": f"{fact_text(version)} · valid "
            f"{period(version.valid_from, version.valid_to)}", "status": status_at(version, at)}


def _headline(op: str, created: list[Version], closed: list[Version], reason: str | None) -> str:
    """The fact a write is about: a created value that is new, else what it closed."""
    if op == "PURGE":
        return f"PURGE: {reason or 'content deleted'}"
    closed_objects = {(v.subject, v.predicate, v.object) for v in closed}
    fresh = [v for v in created if (v.subject, v.predicate, v.object) not in closed_objects]
    main = (fresh or created or closed or [None])[0]
    if main is None:
        return op
    return f"{op}: {fact_text(main)} ({period(main.valid_from, main.valid_to)})"


class _Stop(NamedTuple):
    """One stop on the slider: a write, or (without a write log) a moment versions changed."""

    id: str
    op: str
    at: datetime
    created: list[str]
    closed: list[str]
    episode: str | None = None
    reason: str | None = None


def _stops(versions: list[Version], decisions: list[Decision]) -> list[_Stop]:
    """Writes that changed belief; with no decisions at all, one stop per distinct write time."""
    stops = [_Stop(d.id, d.op, d.at, d.created, d.closed, d.episode, d.reason)
             for d in decisions if d.created or d.closed or d.op == "PURGE"]
    if stops or decisions:
        return sorted(stops, key=lambda stop: stop.at)
    times = sorted({v.recorded_at for v in versions}
                   | {v.superseded_at for v in versions if v.superseded_at is not None})
    return [_Stop(f"t{index}", "WRITE", at, [v.id for v in versions if v.recorded_at == at],
                  [v.id for v in versions if v.superseded_at == at])
            for index, at in enumerate(times, 1)]


def _step(decision: _Stop, by_id: dict[str, Version], episodes: dict[str, Episode]) -> dict:
    at = decision.at
    created = [by_id[i] for i in decision.created if i in by_id]
    closed = [by_id[i] for i in decision.closed if i in by_id]
    shown = {v.id: [v.id, status_at(v, at), v.id in decision.created]
             for v in by_id.values() if believed_at(v.recorded_at, v.superseded_at, at)}
    for version in closed:
        shown.setdefault(version.id, [version.id, status_at(version, at), True])
    changes = [_change("−", by_id.get(i), i, at) for i in decision.closed]
    changes += [_change("+", by_id.get(i), i, at) for i in decision.created]
    episode = episodes.get(decision.episode or "")
    return {
        "id": decision.id,
        "when": when(at),
        "op": decision.op,
        "meaning": OP_MEANING.get(decision.op, ""),
        "headline": _headline(decision.op, created, closed, decision.reason),
        "changes": changes,
        "reason": decision.reason,
        "quote": episode.text if episode else None,
        "edges": sorted(shown.values()),
    }


def evolution_html(
    versions: list[Version],
    decisions: list[Decision],
    entities: dict[str, Entity],
    episodes: dict[str, Episode],
    *,
    title: str = "How belief evolved",
) -> str:
    """A page with a slider over transaction time, one stop per write that changed belief.

    At each stop T the graph shows the versions believed at T (``recorded_at <= T <
    superseded_at``), coloured by their status at T, plus the versions that write closed
    (superseded or retracted, dashed); a caption names what changed.
    """
    by_id = {v.id: v for v in versions}
    steps = [_step(d, by_id, episodes) for d in _stops(versions, decisions)]
    graph = graph_data(versions, entities, status_of=lambda v: "current")
    facts = {v.id: version_details(v, episodes) for v in versions}
    statuses = {edge[1] for step in steps for edge in step["edges"]}
    return render(
        "evolution.html",
        title=title,
        data={"graph": graph, "facts": facts, "steps": steps,
              "colours": {name: c for name, (c, _) in STATUS_COLOURS.items()}},
        scripts=["graph.js", "evolution.js"],
        graph=True,
        css=palette_css(graph["kinds"]),
        steps=steps,
        statuses=status_legend(statuses),
        kinds=kind_legend(graph["kinds"]),
    )
