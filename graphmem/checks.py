"""Invariant checks over the whole log, as a pure function of its contents."""

from __future__ import annotations

from collections import defaultdict

from .models import Decision, Episode, Tombstone, Version, Violation
from .temporal import Period, believed_at


def check(
    versions: list[Version],
    decisions: list[Decision],
    episodes: list[Episode],
    tombstones: list[Tombstone],
    predicates: dict[str, str],
) -> list[Violation]:
    """Every broken invariant of the stored log (an empty list when sound)."""
    found: list[Violation] = []
    by_id = {v.id: v for v in versions}
    purged = {vid for t in tombstones for vid in t.versions}
    purged_episodes = {eid for t in tombstones for eid in t.episodes}
    episode_ids = {e.id for e in episodes}
    decision_at = {d.id: d.at for d in decisions}

    def flag(rule: str, detail: str) -> None:
        found.append(Violation(rule=rule, detail=detail))

    for earlier, later in zip(decisions, decisions[1:]):
        if not earlier.at < later.at:
            flag("transaction-time", f"write {later.id} at {later.at} is not after {earlier.id}")

    for v in versions:
        if Period(v.valid_from, v.valid_to).is_empty():
            flag("valid-period", f"{v.id} has an empty valid period")
        if v.superseded_at is not None and v.superseded_at <= v.recorded_at:
            flag("transaction-period", f"{v.id} is superseded no later than it was recorded")
        if decision_at.get(v.created_by) != v.recorded_at:
            flag("write-log", f"{v.id} was not recorded by the write {v.created_by!r} it names")
        if v.closed_by is not None and decision_at.get(v.closed_by) != v.superseded_at:
            flag("write-log", f"{v.id} was not closed by the write {v.closed_by!r} it names")
        if (v.superseded_at is None) != (v.closed_by is None):
            flag("write-log", f"{v.id} has a closing time without a closing write, or the reverse")
        for other in v.supersedes + v.superseded_by:
            if other not in by_id and other not in purged:
                flag("supersede-link", f"{v.id} links to {other}, which does not exist")
        for other in v.superseded_by:
            if other in by_id and v.id not in by_id[other].supersedes:
                flag("supersede-link", f"{v.id} says {other} replaced it, but {other} does not say so")
        for episode in v.episodes:
            if episode not in episode_ids:
                flag("episode-link", f"{v.id} cites episode {episode}, which does not exist")

    for d in decisions:
        if d.episode and d.episode not in episode_ids and d.episode not in purged_episodes:
            flag("episode-link", f"write {d.id} cites episode {d.episode}, which does not exist")
        for vid in d.created + d.closed:
            if vid not in by_id and vid not in purged:
                flag("write-log", f"write {d.id} names version {vid}, which does not exist")

    found.extend(_overlaps(versions, predicates))
    return found


def _overlaps(versions: list[Version], predicates: dict[str, str]) -> list[Violation]:
    """No two versions of a 'one' predicate believed at the same time overlap in valid time."""
    groups: dict[tuple[str, str], list[Version]] = defaultdict(list)
    for v in versions:
        if predicates.get(v.predicate, "many") == "one":
            groups[(v.subject_id, v.predicate)].append(v)
    found = []
    for (subject, predicate), group in groups.items():
        for moment in sorted({v.recorded_at for v in group}):
            held = sorted(
                (v for v in group if believed_at(v.recorded_at, v.superseded_at, moment)),
                key=lambda v: v.valid_from,
            )
            for a, b in zip(held, held[1:]):
                if Period(a.valid_from, a.valid_to).overlaps(Period(b.valid_from, b.valid_to)):
                    found.append(Violation(
                        rule="one-value",
                        detail=f"{subject} {predicate}: {a.id} and {b.id} overlap, both believed at {moment}",
                    ))
    return found
