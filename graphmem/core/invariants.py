"""Invariant checks over the whole log, as a pure function of its contents.

Internal: run the checks with :meth:`graphmem.Store.check`.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from operator import itemgetter
from typing import Any

from ..models import Decision, Entity, Episode, Link, Proposal, Tombstone, Version, Violation
from .entity_kinds import stored_kind_problem
from .names import PREDICATE_NAME, check_label, display_name, entity_key, entity_problem
from .temporal import Period
from .times import in_range, iso

__all__ = ["check", "check_index", "entity_violations", "label_problem", "overlaps"]


def check(
    versions: Sequence[Version],
    decisions: Sequence[Decision],
    episodes: Sequence[Episode],
    tombstones: Sequence[Tombstone],
    predicates: Mapping[str, str],
    links: Sequence[Link] = (),
    proposals: Sequence[Proposal] = (),
    entities: Sequence[Entity] = (),
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
        if problem := label_problem(e.kind, "its kind"):
            flag("episode-kind", f"episode {e.id}: {problem}", f"episode {e.id}")

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

    ends = {end for v in versions for end in (v.subject_id, v.object_id)}
    holding = {end for v in versions if v.superseded_at is None for end in (v.subject_id, v.object_id)}
    found.extend(entity_violations([(e.id, e.name, e.kind) for e in entities], ends, holding))
    found.extend(overlaps(versions, predicates))
    return found


def entity_violations(entities: Sequence[tuple[str, str, str]], ends: Collection[str],
                      holding: Collection[str]) -> list[Violation]:
    """Each entity (id, name, kind) as a write stores it: the name one a write takes, the id that
    name's key (one visible name is one entity), the kind a valid one. A twin an older release
    keyed apart and a migration merged stays as it was: its name's key is another entity's id, it
    took part in versions (``ends``: the ids at either end of any version) and holds no believed
    one (``holding``: the ends of believed versions)."""
    ids = {entity_id for entity_id, _, _ in entities}
    found = []
    for entity_id, name, kind in entities:
        where = f"entity {entity_id}"
        if entity_id in ends and entity_id not in holding and _merged_twin(entity_id, name, ids):
            pass
        elif problem := entity_problem(entity_id, name):
            found.append(Violation(rule="entity-name", detail=f"entity {entity_id!r}: {problem}", record=where))
        if problem := stored_kind_problem(kind):
            found.append(Violation(rule="entity-kind", detail=f"entity {entity_id!r}: {problem}", record=where))
    return found


def _merged_twin(entity_id: str, name: str, ids: Collection[str]) -> bool:
    try:
        key = entity_key(name)
    except ValueError:
        return False
    return key != entity_id and key in ids and display_name(name) == name


def label_problem(value: str, what: str) -> str | None:
    """What :func:`graphmem.core.names.check_label` refuses in a stored label, or None."""
    try:
        check_label(value, what)
    except ValueError as exc:
        return str(exc)
    return None


def overlaps(versions: Sequence[Any], predicates: Mapping[str, str],
             when: Callable[[Any], str] = str) -> list[Violation]:
    """No two versions of a 'one' predicate believed at the same time overlap in valid time.

    ``versions`` are anything with a Version's id, subject_id, predicate and four times (all of
    one comparable type: datetimes, or integer microseconds with ``when`` to show one).

    A sweep over transaction time per (subject, predicate): the versions believed at each moment
    are kept ordered by valid start, and each newcomer is compared with its two neighbours
    (among pairwise disjoint periods, only a neighbour can overlap it): O(k log k), not O(k²).
    A version closed when or before it was recorded was never believed: it overlaps nothing (the
    transaction-period rule reports it).
    """
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for v in versions:
        never_believed = v.superseded_at is not None and v.superseded_at <= v.recorded_at  # its own rule
        if predicates.get(v.predicate, "many") == "one" and not never_believed:
            groups[(v.subject_id, v.predicate)].append(v)
    found = []
    for (subject, predicate), group in groups.items():
        if len(group) < 2:
            continue
        events = [(v.recorded_at, 1, v.id, v) for v in group]
        events += [(v.superseded_at, 0, v.id, v) for v in group if v.superseded_at is not None]
        events.sort(key=_EVENT_ORDER)
        keys: list[tuple] = []  # (valid_from, id) of the versions believed, sorted
        held: list = []  # those versions, in the same order
        for moment, starts, vid, v in events:
            key = (v.valid_from, vid)
            index = bisect.bisect_left(keys, key)
            if not starts:
                if index < len(keys) and keys[index][1] == vid:
                    del keys[index], held[index]
                continue
            for other in held[max(index - 1, 0):index + 1]:
                if (other.valid_to is None or v.valid_from < other.valid_to) and (
                        v.valid_to is None or other.valid_from < v.valid_to):
                    a, b = sorted((v, other), key=lambda x: x.id)
                    found.append(Violation(
                        rule="one-value", record=f"version {b.id}",
                        detail=f"{subject} {predicate}: {a.id} and {b.id} overlap, both believed at {when(moment)}",
                    ))
            keys.insert(index, key)
            held.insert(index, v)
    return found


_EVENT_ORDER = itemgetter(0, 1, 2)


def check_index(versions: list[Version], keys: list[tuple[str, str]]) -> list[Violation]:
    """VersionKey (version id -> subject id, for lookups by id) against the versions stored."""
    want = {(v.id, v.subject_id) for v in versions}
    have = set(keys)
    found = [Violation(rule="version-index", detail=f"{vid} (subject {subject!r}) is not indexed")
             for vid, subject in sorted(want - have)]
    found += [Violation(rule="version-index", detail=f"the index names {vid} (subject {subject!r}), "
                        "which is not stored") for vid, subject in sorted(have - want)]
    return found
