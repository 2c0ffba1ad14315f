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

__all__ = ["MESSAGES", "check", "check_index", "entity_violations", "label_problem", "overlaps", "violation"]



#: Every broken invariant's message, by what broke: (rule, detail, record), each a template filled
#: from the record's fields. The check over models and the columnar one give the same text.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "write-order": ("transaction-time", "write {id} at {at} is not after {before}", "decision {id}"),
    "write-range": ("time-range", "write {id} is at {at}, outside years 1 to 9998", "decision {id}"),
    "write-episode": ("episode-link", "write {id} cites episode {episode}, which does not exist", "decision {id}"),
    "write-version": ("write-log", "write {id} names version {other}, which does not exist", "decision {id}"),
    "version-predicate": ("predicate-name", "{id} has the predicate {predicate!r}, which is not a valid name",
                          "version {id}"),
    "version-range": ("time-range", "{id} has a time outside years 1 to 9998", "version {id}"),
    "valid-period": ("valid-period", "{id} has an empty valid period", "version {id}"),
    "transaction-period": ("transaction-period", "{id} is superseded no later than it was recorded", "version {id}"),
    "not-recorded-by": ("write-log", "{id} was not recorded by the write {write!r} it names", "version {id}"),
    "not-closed-by": ("write-log", "{id} was not closed by the write {write!r} it names", "version {id}"),
    "created-unlisted": ("write-log", "{id} names {write} as the write that created it, but {write} does not "
                         "list it", "version {id}"),
    "closed-unlisted": ("write-log", "{id} names {write} as the write that closed it, but {write} does not "
                        "list it", "version {id}"),
    "half-closed": ("write-log", "{id} has a closing time without a closing write, or the reverse", "version {id}"),
    "supersedes-itself": ("supersede-link", "{id} supersedes itself", "version {id}"),
    "supersede-missing": ("supersede-link", "{id} links to {other}, which does not exist", "version {id}"),
    "replaced-unsaid": ("supersede-link", "{id} says {other} replaced it, but {other} does not say so",
                        "version {id}"),
    "replacing-unsaid": ("supersede-link", "{id} says it replaced {other}, but {other} does not say so",
                         "version {id}"),
    "version-episode": ("episode-link", "{id} cites episode {other}, which does not exist", "version {id}"),
    "episode-range": ("time-range", "episode {id} has a time outside years 1 to 9998", "episode {id}"),
    "episode-kind": ("episode-kind", "episode {id}: {problem}", "episode {id}"),
    "link-version": ("episode-link", "a link names version {version}, which does not exist",
                     "link {version}/{episode}"),
    "link-uncited": ("episode-link", "a link says {episode} supports {version}, but the version does not cite it",
                     "link {version}/{episode}"),
    "link-write": ("episode-link", "the link of {episode} to {version} at {at} is not a later write citing that "
                   "episode (or merging the entity it was about)", "link {version}/{episode}"),
    "proposal-episode": ("episode-link", "proposal {id} cites episode {episode}, which does not exist",
                         "proposal {id}"),
    "proposal-predicate": ("predicate-name", "proposal {id} has the predicate {predicate!r}, which is not a valid "
                           "name", "proposal {id}"),
    "declared-predicate": ("predicate-name", "the predicate {name!r} is declared but is not a valid name",
                           "predicate {name}"),
    "entity-name": ("entity-name", "entity {id!r}: {problem}", "entity {id}"),
    "entity-kind": ("entity-kind", "entity {id!r}: {problem}", "entity {id}"),
    "one-value": ("one-value", "{subject} {predicate}: {a} and {b} overlap, both believed at {at}", "version {b}"),
}


def violation(message: str, **fields: Any) -> Violation:
    """The violation :data:`MESSAGES` names, filled from ``fields``."""
    rule, detail, record = MESSAGES[message]
    return Violation(rule=rule, detail=detail.format(**fields), record=record.format(**fields))


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
    writes_at: dict[Any, list[Decision]] = {}
    for d in decisions:
        writes_at.setdefault(d.at, []).append(d)

    def flag(message: str, **fields: Any) -> None:
        found.append(violation(message, **fields))

    for earlier, later in zip(decisions, decisions[1:]):
        if not earlier.at < later.at:
            flag("write-order", id=later.id, at=iso(later.at), before=earlier.id)
    for d in decisions:
        if not in_range(d.at):
            flag("write-range", id=d.id, at=iso(d.at))

    for v in versions:
        if not PREDICATE_NAME.match(v.predicate):
            flag("version-predicate", id=v.id, predicate=v.predicate)
        times = (v.valid_from, v.valid_to, v.recorded_at, v.superseded_at)
        if not all(t is None or in_range(t) for t in times):
            flag("version-range", id=v.id)
        if Period(v.valid_from, v.valid_to).is_empty():
            flag("valid-period", id=v.id)
        if v.superseded_at is not None and v.superseded_at <= v.recorded_at:
            flag("transaction-period", id=v.id)
        created = by_decision.get(v.created_by)
        if created is None or created.at != v.recorded_at:
            flag("not-recorded-by", id=v.id, write=v.created_by)
        elif v.id not in created.created:
            flag("created-unlisted", id=v.id, write=created.id)
        if v.closed_by is not None:
            closed = by_decision.get(v.closed_by)
            if closed is None or closed.at != v.superseded_at:
                flag("not-closed-by", id=v.id, write=v.closed_by)
            elif v.id not in closed.closed:
                flag("closed-unlisted", id=v.id, write=closed.id)
        if (v.superseded_at is None) != (v.closed_by is None):
            flag("half-closed", id=v.id)
        if v.id in v.supersedes or v.id in v.superseded_by:
            flag("supersedes-itself", id=v.id)
        for other in v.supersedes + v.superseded_by:
            if other not in by_id and other not in purged:
                flag("supersede-missing", id=v.id, other=other)
        for other in v.superseded_by:
            if other in by_id and v.id not in by_id[other].supersedes:
                flag("replaced-unsaid", id=v.id, other=other)
        for other in v.supersedes:
            if other in by_id and v.id not in by_id[other].superseded_by:
                flag("replacing-unsaid", id=v.id, other=other)
        for episode in v.episodes:
            if episode not in episode_ids:
                flag("version-episode", id=v.id, other=episode)

    for e in episodes:
        if not (in_range(e.reference_time) and in_range(e.received_at)):
            flag("episode-range", id=e.id)
        if problem := label_problem(e.kind, "its kind"):
            flag("episode-kind", id=e.id, problem=problem)

    for d in decisions:
        if d.episode and d.episode not in episode_ids and d.episode not in purged_episodes:
            flag("write-episode", id=d.id, episode=d.episode)
        for vid in d.created + d.closed:
            if vid not in by_id and vid not in purged:
                flag("write-version", id=d.id, other=vid)

    for link in links:
        version = by_id.get(link.version)
        if version is None:
            if link.version not in purged:
                flag("link-version", version=link.version, episode=link.episode)
            continue
        if link.episode not in version.episodes:
            flag("link-uncited", version=link.version, episode=link.episode)
        linking = writes_at.get(link.at, ())  # two writes at one time break another rule: any may link
        if link.at <= version.recorded_at or not any(w.episode == link.episode or w.op == "MERGE" for w in linking):
            flag("link-write", version=link.version, episode=link.episode, at=iso(link.at))

    for p in proposals:
        if p.episode and p.episode not in episode_ids and p.episode not in purged_episodes:
            flag("proposal-episode", id=p.id, episode=p.episode)
        if not PREDICATE_NAME.match(p.predicate):
            flag("proposal-predicate", id=p.id, predicate=p.predicate)

    for name in predicates:
        if not PREDICATE_NAME.match(name):
            flag("declared-predicate", name=name)

    ends = {end for v in versions for end in (v.subject_id, v.object_id)}
    holding = {end for v in versions if v.superseded_at is None for end in (v.subject_id, v.object_id)}
    found.extend(entity_violations([(e.id, e.name, e.kind) for e in entities], ends, holding))
    found.extend(overlaps(versions, predicates))
    return found


def entity_violations(entities: Sequence[tuple[str, str, str]], ends: Collection[str],
                      holding: Collection[str], ids: Collection[str] | None = None) -> list[Violation]:
    """Each entity (id, name, kind) as a write stores it: the name one a write takes, the id that
    name's key (one visible name is one entity), the kind a valid one. A twin an older release
    keyed apart and a migration merged stays as it was: its name's key is another entity's id, it
    took part in versions (``ends``: the ids at either end of any version) and holds no believed
    one (``holding``: the ends of believed versions). ``ids`` are every entity's (by default those
    of ``entities``: more when only some are checked)."""
    if ids is None:
        ids = {entity_id for entity_id, _, _ in entities}
    found = []
    for entity_id, name, kind in entities:
        if entity_id in ends and entity_id not in holding and _merged_twin(entity_id, name, ids):
            pass
        elif problem := entity_problem(entity_id, name):
            found.append(violation("entity-name", id=entity_id, problem=problem))
        if problem := stored_kind_problem(kind):
            found.append(violation("entity-kind", id=entity_id, problem=problem))
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
                    found.append(violation("one-value", subject=subject, predicate=predicate, a=a.id, b=b.id,
                                           at=when(moment)))
            keys.insert(index, key)
            held.insert(index, v)
    return found


_EVENT_ORDER = itemgetter(0, 1, 2)


def check_index(edges: list[tuple[str, str]], bodies: list[tuple[str, str]]) -> list[Violation]:
    """Each version's edge (id, subject id) against its body in FactBody (id, subject id): one
    each, naming the same subject (a body is how a version is found by id)."""
    want, have = set(edges), set(bodies)
    found = [Violation(rule="version-index", detail=f"{vid} (subject {subject!r}) has no body")
             for vid, subject in sorted(want - have)]
    found += [Violation(rule="version-index", detail=f"a body names {vid} (subject {subject!r}), "
                        "which is not stored") for vid, subject in sorted(have - want)]
    return found
