"""Belief over transaction time: one stop per write that changed what the store believes.

The page stores deltas, not pictures: every version it may show once (its two periods), the
versions believed at the start, and for each write the versions it created and closed. The
page builds the view at any stop from those, so its size grows with the writes shown, not
with the writes times the graph.

Internal: import :func:`evolution_html` from :mod:`visualize`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from graphmem.models import Decision, Entity, Episode, Version
from graphmem.pages.palette import STATUS_COLOURS, epoch_ms, kind_legend, palette_css, period, status_legend, when

from ._details import compact_details, episode_card, fact_text
from ._graph import graph_data
from ._page import render

__all__ = ["evolution_html"]

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


def _headline(op: str, created: list[Version], closed: list[Version], reason: str | None) -> str:
    """The fact a write is about: a created value that is new, else what it closed."""
    if op == "PURGE":
        return f"PURGE: {reason or 'content deleted'}"
    closed_objects = {(v.subject, v.predicate, v.object) for v in closed}
    fresh = [v for v in created if (v.subject, v.predicate, v.object) not in closed_objects]
    shown = fresh or created or closed
    if not shown:
        return op
    main = shown[0]
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


def stops(versions: list[Version], decisions: list[Decision]) -> list[_Stop]:
    """Writes that changed belief; with no decisions at all, one stop per distinct write time."""
    found = [_Stop(d.id, d.op, d.at, d.created, d.closed, d.episode, d.reason)
             for d in decisions if d.created or d.closed or d.op == "PURGE"]
    if found or decisions:
        return sorted(found, key=lambda stop: stop.at)
    times = sorted({v.recorded_at for v in versions}
                   | {v.superseded_at for v in versions if v.superseded_at is not None})
    return [_Stop(f"t{index}", "WRITE", at, [v.id for v in versions if v.recorded_at == at],
                  [v.id for v in versions if v.superseded_at == at])
            for index, at in enumerate(times, 1)]


def _step(stop: _Stop, by_id: dict[str, Version]) -> dict[str, Any]:
    created = [by_id[i] for i in stop.created if i in by_id]
    closed = [by_id[i] for i in stop.closed if i in by_id]
    return {
        "id": stop.id, "at": epoch_ms(stop.at), "when": when(stop.at), "op": stop.op,
        "meaning": OP_MEANING.get(stop.op, ""),
        "headline": _headline(stop.op, created, closed, stop.reason),
        "created": list(stop.created), "closed": list(stop.closed),
        "reason": stop.reason, "episode": stop.episode,
    }


def evolution_data(versions: list[Version], decisions: list[Decision], entities: dict[str, Entity],
                   episodes: dict[str, Episode], start: Sequence[str] = ()) -> dict[str, Any]:
    """What the page needs, as deltas: every version once, the start, each write's changes.

    ``versions`` are every version a stop may show; ``start`` the ids believed before the first
    stop (empty when the page starts before the first write).
    """
    by_id = {v.id: v for v in versions}
    steps = [_step(stop, by_id) for stop in stops(versions, decisions)]
    graph = graph_data(versions, entities, status_of=lambda v: "current", merge=False)
    graph["tips"] = {}
    for edge in graph["edges"]:  # the page colours and labels each edge at each stop
        for key in ("color", "font", "dashes", "width", "versions"):
            edge.pop(key, None)
    cited = {e for v in versions for e in v.episodes} | {s["episode"] for s in steps if s["episode"]}
    return {
        "graph": graph,
        "times": {v.id: [epoch_ms(v.valid_from), epoch_ms(v.valid_to), epoch_ms(v.recorded_at),
                         epoch_ms(v.superseded_at), bool(v.reason)] for v in versions},
        "facts": {v.id: compact_details(v) for v in versions},
        "episodes": {e: episode_card(episodes[e]) for e in sorted(cited) if e in episodes},
        "steps": steps,
        "start": sorted(i for i in start if i in by_id),
        "colours": {name: c for name, (c, _) in STATUS_COLOURS.items()},
    }


def evolution_html(
    versions: list[Version],
    decisions: list[Decision],
    entities: dict[str, Entity],
    episodes: dict[str, Episode],
    *,
    title: str = "How belief evolved",
    start: Sequence[str] = (),
    subtitle: str = "",
) -> str:
    """A page with a slider over transaction time, one stop per write that changed belief.

    At each stop T the graph shows the versions believed at T (``recorded_at <= T <
    superseded_at``), coloured by their status at T, plus the versions that write closed
    (superseded or retracted, dashed); the versions the write changed are highlighted and
    brought into view, the rest dimmed; a caption names what changed.
    """
    data = evolution_data(versions, decisions, entities, episodes, start)
    steps = data["steps"]
    return render(
        "evolution.html",
        title=title,
        data=data,
        scripts=["graph.js", "evolution.js"],
        graph=True,
        css=palette_css(data["graph"]["kinds"]),
        steps=steps,
        first=steps[0]["when"] if steps else "",
        last=steps[-1]["when"] if steps else "",
        subtitle=subtitle,
        statuses=status_legend(["current", "upcoming", "ended", "superseded", "retracted"]),
        kinds=kind_legend(data["graph"]["kinds"]),
    )
