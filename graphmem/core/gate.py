"""The write gate's decisions, as pure functions over the versions currently believed.

Each planner takes the believed versions of one (subject, predicate) and returns a
:class:`Plan`: which versions to close, which to write (each naming what it
supersedes), and which to link the episode to. The store only carries plans out.

Internal: the store carries these plans out; write through :class:`graphmem.Store`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo
from typing import NamedTuple

from ..errors import Conflict, InvalidInput, InvalidPeriod
from ..models import Op
from .temporal import Period, end_of_day, subtract, union
from .times import iso

__all__ = ["Held", "Plan", "plan_assert", "plan_correct", "plan_end", "plan_restate", "plan_segment"]


class Held(NamedTuple):
    """A believed version as the gate sees it."""

    id: str
    object: str
    period: Period
    episodes: tuple[str, ...] = ()


class NewVersion(NamedTuple):
    """A version the plan writes."""

    object: str
    period: Period
    episodes: tuple[str, ...]
    supersedes: tuple[str, ...] = ()


class Plan(NamedTuple):
    """What one write does: its decision, what it closes, writes and links."""

    op: Op
    close: tuple[str, ...] = ()
    create: tuple[NewVersion, ...] = ()
    link: tuple[str, ...] = ()


def checked_period(valid_from: datetime, valid_to: datetime | None) -> Period:
    """The period ``[valid_from, valid_to)``, refused when it holds no moment."""
    period = Period(valid_from, valid_to)
    if valid_to is not None and period.is_empty():
        raise InvalidPeriod(
            f"valid_to {iso(valid_to)} is not after valid_from {iso(valid_from)}"
        )
    return period


def _episodes(*groups: Iterable[str | None]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for group in groups:
        for episode in group:
            if episode:
                seen.setdefault(episode, None)
    return tuple(seen)


def plan_assert(
    kind: str,
    believed: list[Held],
    obj: str,
    valid_from: datetime,
    valid_to: datetime | None,
    episode: str | None = None,
    tz: tzinfo = UTC,
) -> Plan:
    """Plan asserting ``obj`` over ``[valid_from, valid_to)`` for a predicate of ``kind``.

    An event given no end lasts until the end of its local calendar day in zone ``tz``.
    """
    if kind == "event":
        end = valid_to or end_of_day(valid_from, tz)
        return _plan_event(believed, obj, checked_period(valid_from, end), episode)
    if kind not in ("one", "many"):
        raise InvalidInput(f"unknown predicate kind {kind!r}")
    until = _open_end(kind, believed, obj, valid_from) if valid_to is None else valid_to
    plan = _plan_many if kind == "many" else _plan_one
    return plan(believed, obj, checked_period(valid_from, until), episode)


def _open_end(kind: str, believed: list[Held], obj: str, start: datetime) -> datetime | None:
    """Where a value asserted with no end stops: at the first change the store knows of after ``start`` (an open end
    never erases a change already known): the end of a believed period of the same value ("sold the bike on the
    21st", then, approved late, "listing my bike" of the 20th: not owned again), and for a ``one`` predicate the
    start of any later value; else nowhere."""
    ends = [h.period.end for h in believed if h.object == obj and h.period.end is not None and h.period.end > start]
    later = _until_next(believed, start) if kind == "one" else None
    known = ends + ([later] if later is not None else [])
    return min(known) if known else None


def _until_next(believed: list[Held], start: datetime) -> datetime | None:
    """Where an open-ended value of a ``one`` predicate stops: at the next value the store knows of after ``start``
    (an open end never erases a change already known), else nowhere."""
    later = [h.period.start for h in believed if h.period.start > start]
    return min(later) if later else None


def _noop(held: Held, episode: str | None) -> Plan:
    return Plan("NOOP", link=(held.id,) if episode and episode not in held.episodes else ())


def _plan_event(believed: list[Held], obj: str, period: Period, episode: str | None) -> Plan:
    for held in believed:
        if held.object == obj and held.period == period:
            return _noop(held, episode)
    return Plan("ADD", create=(NewVersion(obj, period, _episodes([episode])),))


def _plan_many(believed: list[Held], obj: str, period: Period, episode: str | None) -> Plan:
    same = [h for h in believed if h.object == obj and h.period.overlaps(period)]
    for held in same:
        if held.period.covers(period):
            return _noop(held, episode)
    merged = period
    for held in same:
        merged = union(merged, held.period)
    version = NewVersion(
        obj, merged, _episodes(*(h.episodes for h in same), [episode]), tuple(h.id for h in same)
    )
    return Plan("UPDATE" if same else "ADD", close=version.supersedes, create=(version,))


def _touches(a: Period, b: Period) -> bool:
    return a.overlaps(b) or a.end == b.start or b.end == a.start


def _plan_one(believed: list[Held], obj: str, period: Period, episode: str | None) -> Plan:
    for held in believed:
        if held.object == obj and held.period.covers(period):
            return _noop(held, episode)
    same = [h for h in believed if h.object == obj and _touches(h.period, period)]
    other = [h for h in believed if h.object != obj and h.period.overlaps(period)]
    merged = period
    for held in same:
        merged = union(merged, held.period)
    pieces = tuple(
        NewVersion(held.object, piece, held.episodes, (held.id,))
        for held in other
        for piece in subtract(held.period, period)
    )
    version = NewVersion(
        obj,
        merged,
        _episodes(*(h.episodes for h in same), [episode]),
        tuple(h.id for h in same + other),
    )
    closed = version.supersedes
    return Plan("UPDATE" if closed else "ADD", close=closed, create=pieces + (version,))


def plan_segment(
    kind: str,
    believed: list[Held],
    obj: str,
    valid_from: datetime,
    valid_to: datetime,
    episode: str | None = None,
) -> Plan:
    """Plan a statement about a closed past period that cuts the history of a ``one`` predicate."""
    if kind != "one":
        raise InvalidInput(
            f"segment cuts the history of a 'one' predicate, and this one is {kind!r}; "
            "use add with --from and --to instead"
        )
    if valid_to is None:
        raise InvalidPeriod("a segment needs both ends of its period")
    plan = _plan_one(believed, obj, checked_period(valid_from, valid_to), episode)
    return plan._replace(op="SEGMENT") if plan.op != "NOOP" else plan


def plan_end(
    kind: str,
    believed: list[Held],
    obj: str | None,
    at: datetime,
    episode: str | None = None,
) -> Plan:
    """Plan ending the believed version(s) valid at ``at``: each is written back with ``valid_to=at``. An end told
    again (one value, named or not, already ends at ``at``; no event's) is a ``NOOP``, linking ``episode`` as a
    further support."""
    targets = [h for h in believed if (obj is None or h.object == obj) and h.period.contains(at)]
    if not targets:
        kept = [h for h in believed if obj is None or h.object == obj]
        ended = [h for h in kept if h.period.end == at]  # told again: the same end, a further support (one value:
        if kind != "event" and ended and len({h.object for h in ended}) == 1:  # "end Maya attended" names none)
            return Plan("NOOP", link=tuple(h.id for h in ended if episode and episode not in h.episodes))
        told = "; ".join(f"{h.id} ({h.object}) is valid from {iso(h.period.start)}"
                         + (f" to {iso(h.period.end)}" if h.period.end is not None else "") for h in kept[:3])
        raise Conflict(f"nothing to end: no believed version is valid at {iso(at)}" + (f" ({told})" if told else ""))
    if obj is None and len({h.object for h in targets}) > 1:
        names = ", ".join(sorted({h.object for h in targets}))
        raise Conflict(f"several values hold at {iso(at)} ({names}); name the one to end")
    for held in targets:
        if held.period.start == at:
            raise Conflict(
                f"version {held.id} starts at {iso(at)}; ending it there leaves nothing — "
                "retract it instead if it was never true"
            )
    created = tuple(
        NewVersion(h.object, Period(h.period.start, at), _episodes(h.episodes, [episode]), (h.id,))
        for h in targets
    )
    return Plan("END", close=tuple(h.id for h in targets), create=created)


def plan_restate(kind: str, believed: list[Held], moved: Held, obj: str, tz: tzinfo = UTC) -> Plan:
    """Plan restating ``moved`` as ``obj`` (two entities found to be one, merged): it is closed,
    and its statement asserted again, over its period and with its support, as a new write would.

    ``believed`` are the believed versions of the (subject, predicate) the statement now has.
    When that is believed already, the plan only closes ``moved`` and names the version that
    holds it in ``link`` (the caller links ``moved``'s episodes to it).
    """
    rest = [h for h in believed if h.id != moved.id]
    plan = plan_assert(kind, rest, obj, moved.period.start, moved.period.end, None, tz)
    if plan.op == "NOOP":
        holding = [h.id for h in rest if h.object == obj and (
            h.period == moved.period if kind == "event" else h.period.covers(moved.period))]
        return Plan("MERGE", close=(moved.id,), link=tuple(holding[:1]))
    created = tuple(
        v._replace(episodes=_episodes(v.episodes, moved.episodes), supersedes=v.supersedes + (moved.id,))
        if v.object == obj else v
        for v in plan.create
    )
    return Plan("MERGE", close=(moved.id,) + plan.close, create=created)


def plan_correct(
    kind: str,
    believed: list[Held],
    wrong: Held,
    obj: str,
    episode: str | None = None,
    period: Period | None = None,
) -> Plan:
    """Plan retracting ``wrong`` and asserting ``obj`` over exactly its valid period, or over ``period`` where
    the mistake was when it held ("no wait, it was Tuesday": the same value, another period). What is written
    cites the episodes ``wrong`` cited, then ``episode``: a correction fixes how the sources were read, it does
    not lose them."""
    period = wrong.period if period is None else checked_period(*period)
    if kind == "event" and period.end is None:
        raise InvalidInput("an event's period has an end: give when it ended (an event added with no end lasts to "
                           "the end of its day)")
    rest = [h for h in believed if h.id != wrong.id]
    if kind == "one" and period.end is None and wrong.period.end is not None:
        # opened now ("it never ended"): as an add's open end, up to the next change known; a version open already
        # keeps its own end wherever its start is moved ("it began on the 1st": from then on, what else was
        # believed between is what it replaces)
        period = Period(period.start, _until_next(rest, period.start))
    if obj == wrong.object and period == wrong.period:
        raise InvalidInput(f"the correction gives the same value {obj!r} for the same period; retract it, or give "
                           f"another value or period")
    if kind == "event":
        plan = _plan_event(rest, obj, period, episode)
    elif kind == "many":
        plan = _plan_many(rest, obj, period, episode)
    else:
        plan = _plan_one(rest, obj, period, episode)
    created = tuple(
        v._replace(supersedes=v.supersedes + (wrong.id,), episodes=tuple(dict.fromkeys(wrong.episodes + v.episodes)))
        if v.object == obj else v
        for v in plan.create
    )
    if plan.op == "NOOP":
        # The right value is already believed there: the correction is the retraction alone.
        return Plan("CORRECT", close=(wrong.id,), link=plan.link)
    return Plan("CORRECT", close=(wrong.id,) + plan.close, create=created)
