"""An entity's facts on a valid-time axis: one bar per version, believed ones above the rest.

Drawn as inline SVG generated here (no timeline library): believed versions at ``as_of`` sit
on top of each predicate's group, the versions no longer believed beneath them, newest
first, so reading down a group walks back through transaction time.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.models import Entity, Episode, Version
from graphmem.temporal import believed_at, status_at

from .axis import axis_range, ticks
from .details import believed_text, fact_text, version_details
from .page import render
from .palette import CLOSED_STATUSES, palette_css, period, status_legend, when

WIDTH, LABEL_WIDTH, RIGHT_PAD = 1100, 250, 24
TOP, ROW, BAR, GAP = 34, 24, 16, 10
CHAR_WIDTH, MIN_BAR = 6.4, 4


def _outgoing(entity: Entity, version: Version) -> bool:
    return version.subject_id == entity.id or (not version.subject_id
                                                and version.subject == entity.name)


def _pack(versions: list[Version]) -> list[list[Version]]:
    """Versions in as few rows as possible with no two overlapping in one row."""
    rows: list[list[Version]] = []
    for version in sorted(versions, key=lambda v: (v.valid_from, v.id)):
        for row in rows:
            last = row[-1]
            if last.valid_to is not None and last.valid_to <= version.valid_from:
                row.append(version)
                break
        else:
            rows.append([version])
    return rows


class _Layout:
    """Turns versions into rows, bars and ticks in SVG coordinates."""

    def __init__(self, low: datetime, high: datetime):
        self.low, self.high = low, high
        self.plot = WIDTH - LABEL_WIDTH - RIGHT_PAD
        self.y = TOP
        self.rows: list[dict] = []
        self.bars: list[dict] = []

    def x(self, moment: datetime) -> float:
        share = (moment - self.low) / (self.high - self.low)
        return round(LABEL_WIDTH + share * self.plot, 1)

    def line(self, kind: str, label: str, band: bool = False) -> float:
        self.rows.append({"kind": kind, "label": label, "y": self.y, "band": band})
        self.y += ROW
        return self.y - ROW

    def row_of_bars(self, versions: list[Version], y: float, as_of: datetime,
                    incoming: bool) -> None:
        """Draw one row of non-overlapping bars, placing each label where it fits."""
        spans = []
        for version in versions:
            left = self.x(version.valid_from)
            right = WIDTH - RIGHT_PAD if version.valid_to is None else self.x(version.valid_to)
            spans.append((left, max(left + MIN_BAR, right)))
        for index, version in enumerate(versions):
            left, right = spans[index]
            before = spans[index - 1][1] if index else LABEL_WIDTH
            after = spans[index + 1][0] if index + 1 < len(spans) else WIDTH
            other = version.subject if incoming else version.object
            text, x, anchor, inside = _place(other, left, right, before, after,
                                             arrow=10 if version.valid_to is None else 0)
            status = status_at(version, as_of)
            self.bars.append({
                "id": version.id, "x": left, "y": y + (ROW - BAR) / 2,
                "w": round(right - left, 1), "h": BAR, "open": version.valid_to is None,
                "status": status, "closed": status in CLOSED_STATUSES,
                "label": text, "label_x": x, "anchor": anchor, "inside": inside,
                "tip": f"{fact_text(version)}\nvalid {period(version.valid_from, version.valid_to)}"
                       f"\nbelieved {believed_text(version)}\n{status}",
            })


def _fit(label: str, room: float) -> str:
    """The label cut to fit ``room`` pixels (empty when not even one letter fits)."""
    chars = int(room / CHAR_WIDTH)
    if chars >= len(label):
        return label
    return label[: chars - 1] + "…" if chars >= 2 else ""


def _place(label: str, left: float, right: float, before: float, after: float, arrow: float):
    """Where a bar's label goes: inside, else right of it, else left of it, else cut short."""
    need = (len(label) + 1) * CHAR_WIDTH
    if right - left >= need:
        return label, left + 5, "start", True
    if after - right - arrow >= need:
        return label, right + arrow + 3, "start", False
    if left - before >= need:
        return label, left - 4, "end", False
    room = max((right - left, "in"), (after - right - arrow, "right"), (left - before, "left"))
    text = _fit(label, room[0] - CHAR_WIDTH)
    if room[1] == "in":
        return text, left + 5, "start", True
    if room[1] == "right":
        return text, right + arrow + 3, "start", False
    return text, left - 4, "end", False


def _layout(entity: Entity, versions: list[Version], as_of: datetime) -> _Layout:
    moments = [as_of] + [v.valid_from for v in versions] + [
        v.valid_to for v in versions if v.valid_to is not None]
    layout = _Layout(*axis_range(moments))
    groups: dict[tuple[bool, str], list[Version]] = {}
    for version in versions:
        groups.setdefault((not _outgoing(entity, version), version.predicate), []).append(version)
    for (incoming, predicate), members in sorted(groups.items()):
        layout.y += GAP
        layout.line("group", f"← {predicate} (as object)" if incoming else predicate)
        believed = [v for v in members if believed_at(v.recorded_at, v.superseded_at, as_of)]
        closed = [v for v in members if not believed_at(v.recorded_at, v.superseded_at, as_of)]
        for index, row in enumerate(_pack(believed)):
            y = layout.line("row", "believed" if index == 0 else "", band=True)
            layout.row_of_bars(row, y, as_of, incoming)
        if closed:
            layout.line("subhead", "no longer believed, newest first")
        for version in sorted(closed, key=lambda v: (v.superseded_at, v.recorded_at),
                              reverse=True):
            y = layout.line("row", f"{when(version.recorded_at)} → {when(version.superseded_at)}")
            layout.row_of_bars([version], y, as_of, incoming)
    return layout


def timeline_html(
    entity: Entity,
    versions: list[Version],
    episodes: dict[str, Episode],
    *,
    as_of: datetime,
    title: str | None = None,
) -> str:
    """A page laying out an entity's fact versions on valid time, as the store saw them at as_of.

    ``versions`` is every version that ever touched the entity; those recorded after
    ``as_of`` are left out (not yet known then).
    """
    known = [v for v in versions if v.recorded_at <= as_of]
    later = len(versions) - len(known)
    subtitle = f"as believed at {when(as_of)} · valid time runs left to right · {len(known)} versions"
    if later:
        subtitle += f" ({later} recorded later, not shown)"
    layout = _layout(entity, known, as_of) if known else None
    return render(
        "timeline.html",
        title=title or f"Timeline of {entity.name}",
        subtitle=subtitle,
        data={"facts": {v.id: version_details(v, episodes, status_at(v, as_of)) for v in known}},
        scripts=["timeline.js"],
        css=palette_css([]),
        layout=layout,
        axis=[{"x": layout.x(tick), "label": label}
              for tick, label in ticks(layout.low, layout.high)] if layout else [],
        now={"x": layout.x(as_of), "label": f"as of {when(as_of)}"} if layout else None,
        width=WIDTH,
        height=(layout.y + 34) if layout else 0,
        label_width=LABEL_WIDTH,
        statuses=status_legend(bar["status"] for bar in layout.bars) if layout else [],
    )
