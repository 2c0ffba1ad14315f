"""Invariant checks over the whole log, as a pure function of its contents."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Mapping

from .models import Decision, Episode, Link, Proposal, Tombstone, Version, Violation
from .names import PREDICATE_NAME
from .temporal import Period
from .timeutil import in_range, iso


def check(
    versions: list[Version],
    decisions: list[Decision],
    episodes: list[Episode],
    tombstones: list[Tombstone],
    predicates: Mapping[str, str],
    links: list[Link] = (),
    proposals: list[Proposal] = (),
) -> list[Violation]:
    """Every broken invariant of the stored log (an empty list when sound).

    Each violation names the record at fault (``record``: its type and id), so an import can
    point at the line that holds it.
    """
    found: list[Violation] = []
    by_id = {v.id: v for v in versions}
    purged = {vid for t in tombstones for vid in t.versions}
    purged_episodes = {eid for t in tombstones for eid in t.episodes}
    episode_ids = {e.id for e in episodes}
    by_decision = {d.id: d for d in decisions}
    write_at = {d.at: d for d in decisions}

    def flag(rule: str, detail: str, record: str | None = None) -> None:
        found.append(Violation(rule=rule, detail=detail, record=record))

    for earlier, later in zip(decisions, decisions[1:]):
        if not earlier.at < later.at:
            flag("transaction-time", f"write {later.id} at {iso(later.at)} is not after {earlier.id}",
                 f"decision {later.id}")
    for d in decisions:
        if not in_range(d.at):
            flag("time-range", f"write {d.id} is at {iso(d.at)}, outside years 1 to 9998", f"decision {d.id}")

    for v in versions:
        where = f"version {v.id}"
        if not PREDICATE_NAME.match(v.predicate):
            flag("predicate-name", f"{v.id} has the predicate {v.predicate!r}, which is not a valid name", where)
        times = (v.valid_from, v.valid_to, v.recorded_at, v.superseded_at)
        if not all(t is None or in_range(t) for t in times):
            flag("time-range", f"{v.id} has a time outside years 1 to 9998", where)
        if Period(v.valid_from, v.valid_to).is_empty():
            flag("valid-period", f"{v.id} has an empty valid period", where)
        if v.superseded_at is not None and v.superseded_at <= v.recorded_at:
            flag("transaction-period", f"{v.id} is superseded no later than it was recorded", where)
        created = by_decision.get(v.created_by)
        if created is None or created.at != v.recorded_at:
            flag("write-log", f"{v.id} was not recorded by the write {v.created_by!r} it names", where)
        elif v.id not in created.created:
            flag("write-log", f"{v.id} names {created.id} as the write that created it, but "
                 f"{created.id} does not list it", where)
        if v.closed_by is not None:
            closed = by_decision.get(v.closed_by)
            if closed is None or closed.at != v.superseded_at:
                flag("write-log", f"{v.id} was not closed by the write {v.closed_by!r} it names", where)
            elif v.id not in closed.closed:
                flag("write-log", f"{v.id} names {closed.id} as the write that closed it, but "
                     f"{closed.id} does not list it", where)
        if (v.superseded_at is None) != (v.closed_by is None):
            flag("write-log", f"{v.id} has a closing time without a closing write, or the reverse", where)
        if v.id in v.supersedes or v.id in v.superseded_by:
            flag("supersede-link", f"{v.id} supersedes itself", where)
        for other in v.supersedes + v.superseded_by:
            if other not in by_id and other not in purged:
                flag("supersede-link", f"{v.id} links to {other}, which does not exist", where)
        for other in v.superseded_by:
            if other in by_id and v.id not in by_id[other].supersedes:
                flag("supersede-link", f"{v.id} says {other} replaced it, but {other} does not say so", where)
        for other in v.supersedes:
            if other in by_id and v.id not in by_id[other].superseded_by:
                flag("supersede-link", f"{v.id} says it replaced {other}, but {other} does not say so", where)
        for episode in v.episodes:
            if episode not in episode_ids:
                flag("episode-link", f"{v.id} cites episode {episode}, which does not exist", where)

    for e in episodes:
        if not (in_range(e.reference_time) and in_range(e.received_at)):
            flag("time-range", f"episode {e.id} has a time outside years 1 to 9998", f"episode {e.id}")

    for d in decisions:
        if d.episode and d.episode not in episode_ids and d.episode not in purged_episodes:
            flag("episode-link", f"write {d.id} cites episode {d.episode}, which does not exist",
                 f"decision {d.id}")
        for vid in d.created + d.closed:
            if vid not in by_id and vid not in purged:
                flag("write-log", f"write {d.id} names version {vid}, which does not exist", f"decision {d.id}")

    for link in links:
        where = f"link {link.id}"
        version = by_id.get(link.version)
        if version is None:
            if link.version not in purged:
                flag("episode-link", f"a link names version {link.version}, which does not exist", where)
            continue
        if link.episode not in version.episodes:
            flag("episode-link", f"a link says {link.episode} supports {link.version}, but the version "
                 "does not cite it", where)
        linking = write_at.get(link.at)
        if link.at <= version.recorded_at or linking is None or (
                linking.episode != link.episode and linking.op != "MERGE"):
            flag("episode-link", f"the link of {link.episode} to {link.version} at {iso(link.at)} is not "
                 "a later write citing that episode (or merging the entity it was about)", where)

    for p in proposals:
        if p.episode and p.episode not in episode_ids and p.episode not in purged_episodes:
            flag("episode-link", f"proposal {p.id} cites episode {p.episode}, which does not exist",
                 f"proposal {p.id}")
        if not PREDICATE_NAME.match(p.predicate):
            flag("predicate-name", f"proposal {p.id} has the predicate {p.predicate!r}, which is not a "
                 "valid name", f"proposal {p.id}")

    for name in predicates:
        if not PREDICATE_NAME.match(name):
            flag("predicate-name", f"the predicate {name!r} is declared but is not a valid name", f"predicate {name}")

    found.extend(_overlaps(versions, predicates))
    return found


def _overlaps(versions: list[Version], predicates: Mapping[str, str]) -> list[Violation]:
    """No two versions of a 'one' predicate believed at the same time overlap in valid time.

    A sweep over transaction time per (subject, predicate): the versions believed at each moment
    are kept ordered by valid start, and each newcomer is compared with its two neighbours
    (among pairwise disjoint periods, only a neighbour can overlap it): O(k log k), not O(k²).
    """
    groups: dict[tuple[str, str], list[Version]] = defaultdict(list)
    for v in versions:
        if predicates.get(v.predicate, "many") == "one":
            groups[(v.subject_id, v.predicate)].append(v)
    found = []
    for (subject, predicate), group in groups.items():
        events = sorted(
            [(v.recorded_at, 1, v) for v in group]
            + [(v.superseded_at, 0, v) for v in group if v.superseded_at is not None],
            key=lambda e: (e[0], e[1], e[2].id),
        )
        held: list[tuple] = []  # (valid_from, id, version), sorted
        for moment, starts, v in events:
            key = (v.valid_from, v.id)
            if not starts:
                index = bisect.bisect_left(held, key, key=lambda h: h[:2])
                if index < len(held) and held[index][1] == v.id:
                    held.pop(index)
                continue
            index = bisect.bisect_left(held, key, key=lambda h: h[:2])
            for neighbour in held[max(index - 1, 0):index + 1]:
                other = neighbour[2]
                if Period(v.valid_from, v.valid_to).overlaps(Period(other.valid_from, other.valid_to)):
                    a, b = sorted((v, other), key=lambda x: x.id)
                    found.append(Violation(
                        rule="one-value", record=f"version {b.id}",
                        detail=f"{subject} {predicate}: {a.id} and {b.id} overlap, both believed at {moment}",
                    ))
            held.insert(index, (v.valid_from, v.id, v))
    return found


def check_index(versions: list[Version], keys: list[tuple[str, str]]) -> list[Violation]:
    """VersionKey (version id -> subject id, for lookups by id) against the versions stored."""
    want = {(v.id, v.subject_id) for v in versions}
    have = set(keys)
    found = [Violation(rule="version-index", detail=f"{vid} (subject {subject!r}) is not indexed")
             for vid, subject in sorted(want - have)]
    found += [Violation(rule="version-index", detail=f"the index names {vid} (subject {subject!r}), "
                        "which is not stored") for vid, subject in sorted(have - want)]
    return found
