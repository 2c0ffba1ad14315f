"""The invariants `check` verifies, over a whole log held as Arrow tables (a columnar import).

:func:`graphmem.core.invariants.check` walks a list of models, one Python object per record: fine for a
store's own `check`, the floor of a bulk import at a million versions. Here every rule but one
is a column operation (joins, ``is_in``, comparisons) over the tables of a Parquet log, with the
same rules and messages; ``tests/test_arrowcheck.py`` holds the two to the same verdicts on
random logs. The one rule that is a sweep (no two believed versions of a ``one`` predicate
overlap) runs :func:`graphmem.core.invariants.overlaps` itself, over plain tuples of integer
microseconds, and only for the keys that hold more than one version.

Tables are in the log's file shape (:mod:`graphmem.log.parquet`): one column per record field,
times as UTC timestamps, open ends null.

Internal: used by the Parquet import (:mod:`graphmem.log.parquet`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.compute as pc

from ..models import Violation
from .invariants import entity_violations, label_problem, overlaps, violation
from .names import CONTROL, PREDICATE_NAME
from .times import MAX_TIME, MIN_TIME, iso

__all__ = ["violations"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAME = "^" + PREDICATE_NAME.pattern.strip("^$") + "$"


class _Held(NamedTuple):
    """What the overlap sweep reads of a version, times as integer microseconds."""

    id: str
    subject_id: str
    predicate: str
    valid_from: int
    valid_to: int | None
    recorded_at: int
    superseded_at: int | None


def violations(tables: dict[str, pa.Table], predicates: dict[str, str]) -> list[Violation]:
    """Every broken invariant of the log in ``tables`` (by record kind), as ``check`` reports them."""
    found: list[Violation] = []
    versions, decisions = tables["version"], tables["decision"]
    episodes, tombstones = tables["episode"], tables["tombstone"]
    version_ids = versions.column("id")
    purged = pc.list_flatten(tombstones.column("versions"))
    known_versions = _joined(version_ids, purged)
    episode_ids = episodes.column("id")
    purged_episodes = pc.list_flatten(tombstones.column("episodes"))
    known_episodes = _joined(episode_ids, purged_episodes)

    def flag(message: str, rows: pa.Table, **computed: Callable[[dict[str, Any]], Any]) -> None:
        """A violation per row, its fields the row's (and ``computed`` from it)."""
        for row in rows.to_pylist():
            found.append(violation(message, **{**row, **{k: f(row) for k, f in computed.items()}}))

    # -- the write log: strictly increasing, in range
    ordered = decisions.select(["id", "at"]).sort_by([("at", "ascending")])
    if ordered.num_rows > 1:
        earlier, later = ordered.slice(0, ordered.num_rows - 1), ordered.slice(1)
        bad = pc.invert(pc.less(earlier.column("at"), later.column("at")))
        pairs = pa.table({"id": later.column("id"), "at": later.column("at"), "before": earlier.column("id")})
        flag("write-order", pairs.filter(bad), at=lambda r: iso(r["at"]))
    flag("write-range", decisions.filter(_out_of_range(decisions.column("at"))), at=lambda r: iso(r["at"]))

    # -- versions
    flag("version-predicate", versions.filter(_bad_name(versions.column("predicate"))))
    times = [versions.column(c) for c in ("valid_from", "valid_to", "recorded_at", "superseded_at")]
    out = _any(*(_out_of_range(t) for t in times))
    flag("version-range", versions.filter(out))
    empty = pc.fill_null(pc.less_equal(versions.column("valid_to"), versions.column("valid_from")), False)
    flag("valid-period", versions.filter(empty))
    early = pc.fill_null(pc.less_equal(versions.column("superseded_at"), versions.column("recorded_at")), False)
    flag("transaction-period", versions.filter(early))
    found += _write_log(versions, decisions)
    half = pc.not_equal(pc.is_null(versions.column("superseded_at")), pc.is_null(versions.column("closed_by")))
    flag("half-closed", versions.filter(half))
    found += _supersede_links(versions, known_versions)
    cited = _pairs(versions, "episodes")
    flag("version-episode", cited.filter(pc.invert(pc.is_in(cited.column("other"), episode_ids))))

    flag("episode-range", episodes.filter(_any(_out_of_range(episodes.column("reference_time")),
                                               _out_of_range(episodes.column("received_at")))))
    flag("episode-kind", episodes.filter(pc.fill_null(pc.match_substring_regex(episodes.column("kind"),
                                                                               CONTROL.pattern), False)),
         problem=lambda r: label_problem(r["kind"], "its kind"))

    # -- the writes' own references
    lost = pc.and_(pc.is_valid(decisions.column("episode")),
                   pc.invert(pc.is_in(decisions.column("episode"), known_episodes)))
    flag("write-episode", decisions.filter(lost))
    named = pa.concat_tables([_pairs(decisions, "created"), _pairs(decisions, "closed")])
    flag("write-version", named.filter(pc.invert(pc.is_in(named.column("other"), known_versions))))

    found += _links(tables["link"], versions, decisions, purged)

    proposals = tables["proposal"]
    lost = pc.and_(pc.is_valid(proposals.column("episode")),
                   pc.invert(pc.is_in(proposals.column("episode"), known_episodes)))
    flag("proposal-episode", proposals.filter(lost))
    flag("proposal-predicate", proposals.filter(_bad_name(proposals.column("predicate"))))
    found += [violation("declared-predicate", name=name) for name in predicates if not PREDICATE_NAME.match(name)]
    entities = tables["entity"]
    believed = versions.filter(pc.is_null(versions.column("superseded_at")))
    ends = {*versions.column("subject_id").to_pylist(), *versions.column("object_id").to_pylist()}
    holding = {*believed.column("subject_id").to_pylist(), *believed.column("object_id").to_pylist()}
    named = list(zip(*(entities.column(c).to_pylist() for c in ("id", "name", "kind"))))
    found += entity_violations(named, ends, holding)
    found += _one_value(versions, predicates)
    return found


def _joined(*arrays: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray:
    """Text arrays (chunked or not) as one chunked array, for ``is_in``."""
    chunks = [c for a in arrays for c in (a.chunks if isinstance(a, pa.ChunkedArray) else [a])]
    return pa.chunked_array(chunks, pa.string())


def _any(*masks: pa.ChunkedArray) -> pa.ChunkedArray:
    result = masks[0]
    for mask in masks[1:]:
        result = pc.or_(result, mask)
    return result


def _out_of_range(times: pa.ChunkedArray) -> pa.ChunkedArray:
    """True where a time (null: open) lies outside years 1 to 9998."""
    low, high = pa.scalar(MIN_TIME, times.type), pa.scalar(MAX_TIME, times.type)
    return pc.fill_null(pc.or_(pc.less(times, low), pc.greater_equal(times, high)), False)


def _bad_name(names: pa.ChunkedArray) -> pa.ChunkedArray:
    return pc.invert(pc.fill_null(pc.match_substring_regex(names, _NAME), False))


def _pairs(table: pa.Table, column: str) -> pa.Table:
    """(id, other) for each item of a list column: one row per item, in the table's order."""
    lists = table.column(column)
    parents = pc.list_parent_indices(lists)
    return pa.table({"id": pc.take(table.column("id"), parents), "other": pc.list_flatten(lists)})


def _write_log(versions: pa.Table, decisions: pa.Table) -> list[Violation]:
    """Each version was recorded (and closed) by the write it names, at that write's time, and
    that write lists it."""
    found = []
    at = decisions.select(["id", "at"]).rename_columns(["write", "write_at"])
    for field, listed, time, wrong_write, unlisted in (
            ("created_by", "created", "recorded_at", "not-recorded-by", "created-unlisted"),
            ("closed_by", "closed", "superseded_at", "not-closed-by", "closed-unlisted")):
        named = versions.select(["id", field, time]).rename_columns(["id", "write", "time"])
        if field == "closed_by":
            named = named.filter(pc.is_valid(named.column("write")))
        joined = named.join(at, "write", join_type="left outer")
        wrong = pc.fill_null(pc.not_equal(joined.column("write_at"), joined.column("time")), True)
        found += [violation(wrong_write, **r) for r in joined.filter(wrong).sort_by("id").to_pylist()]
        lists = _marked(_pairs(decisions, listed).rename_columns(["write", "id"]), "listed")
        checked = joined.filter(pc.invert(wrong)).join(lists, ["write", "id"], join_type="left outer")
        found += [violation(unlisted, **r)
                  for r in checked.filter(pc.is_null(checked.column("listed"))).sort_by("id").to_pylist()]
    return found


def _marked(table: pa.Table, name: str) -> pa.Table:
    """``table`` with a column ``name`` of True: after a left join, null marks a row it lacked."""
    return table.append_column(name, pa.chunked_array([pa.repeat(pa.scalar(True), table.num_rows)], pa.bool_()))


def _supersede_links(versions: pa.Table, known: pa.ChunkedArray) -> list[Violation]:
    """No version supersedes itself; every link resolves; every link is mirrored both ways."""
    found = []
    back, forth = _pairs(versions, "supersedes"), _pairs(versions, "superseded_by")
    both = pa.concat_tables([back, forth])
    found += [violation("supersedes-itself", **r)
              for r in both.filter(pc.equal(both.column("id"), both.column("other"))).to_pylist()]
    found += [violation("supersede-missing", **r)
              for r in both.filter(pc.invert(pc.is_in(both.column("other"), known))).to_pylist()]
    ids = versions.column("id")
    for pairs, mirror, says in ((forth, back, "replaced-unsaid"), (back, forth, "replacing-unsaid")):
        present = pairs.filter(pc.is_in(pairs.column("other"), ids))
        # (v, o) needs (o, v) in the mirror list
        mirrored = _marked(mirror.rename_columns(["other", "id"]), "seen")
        joined = present.join(mirrored, ["id", "other"], join_type="left outer")
        found += [violation(says, **r) for r in joined.filter(pc.is_null(joined.column("seen"))).to_pylist()]
    return found


def _links(links: pa.Table, versions: pa.Table, decisions: pa.Table, purged: pa.Array) -> list[Violation]:
    """Every later link names a version (or a purged one) that cites the episode, made by a later
    write citing that episode (or merging the entity it was about)."""
    found: list[Violation] = []
    if not links.num_rows:
        return found
    keyed = links.append_column("row", pa.chunked_array([pa.array(range(links.num_rows), pa.int64())]))
    held = versions.select(["id", "recorded_at"]).rename_columns(["version", "recorded_at"])
    joined = keyed.join(held, "version", join_type="left outer")
    exists = pc.is_valid(joined.column("recorded_at"))
    gone = joined.filter(pc.and_(pc.invert(exists), pc.invert(pc.is_in(joined.column("version"), purged))))
    found += [violation("link-version", **r) for r in gone.sort_by("row").to_pylist()]
    present = joined.filter(exists)
    cited = _pairs(versions, "episodes").rename_columns(["version", "episode"])
    cited = _marked(cited, "cited")
    writes = decisions.select(["at", "episode", "op"]).rename_columns(["at", "write_episode", "op"])
    checked = present.join(cited, ["version", "episode"], join_type="left outer").join(writes, "at",
                                                                                       join_type="left outer")
    for r in checked.sort_by("row").to_pylist():
        if not r["cited"]:
            found.append(violation("link-uncited", **r))
        citing = r["write_episode"] == r["episode"] or r["op"] == "MERGE"
        if r["at"] <= r["recorded_at"] or r["op"] is None or not citing:
            found.append(violation("link-write", **{**r, "at": iso(r["at"])}))
    return found


#: Keys holding at most this many versions are checked pair by pair in Arrow (k² pairs each);
#: the few larger ones by the sweep of `check` (k log k), in Python.
PAIRWISE = 64


def _one_value(versions: pa.Table, predicates: dict[str, str]) -> list[Violation]:
    """No two versions of a ``one`` predicate believed at the same time overlap in valid time."""
    ones = [name for name, kind in predicates.items() if kind == "one"]
    if not ones or not versions.num_rows:
        return []
    columns = ["id", "subject_id", "predicate", "valid_from", "valid_to", "recorded_at", "superseded_at"]
    found = versions.select(columns).filter(pc.is_in(versions.column("predicate"), pa.array(ones, pa.string())))
    counts = found.group_by(["subject_id", "predicate"]).aggregate([("id", "count")])
    counts = counts.filter(pc.greater(counts.column("id_count"), 1))
    few = counts.filter(pc.less_equal(counts.column("id_count"), PAIRWISE)).drop_columns(["id_count"])
    many = counts.filter(pc.greater(counts.column("id_count"), PAIRWISE)).drop_columns(["id_count"])
    problems = _pairwise(found.join(few, ["subject_id", "predicate"], join_type="inner"))
    swept = found.join(many, ["subject_id", "predicate"], join_type="inner")
    if swept.num_rows:
        micros = [_micros(swept.column(c)) for c in columns[3:]]
        rows = map(_Held._make, zip(*(swept.column(c).to_pylist() for c in columns[:3]), *micros))
        problems += overlaps(list(rows), predicates, when=_shown)
    return problems


def _pairwise(found: pa.Table) -> list[Violation]:
    """The pairs of versions of one key believed at the same time whose valid periods overlap
    (periods half-open, open ends unbounded; a version never believed overlaps nothing), each
    reported once, as the sweep reports it."""
    if not found.num_rows:
        return []
    times = {c: found.column(c).cast(pa.int64())
             for c in ("valid_from", "valid_to", "recorded_at", "superseded_at")}
    never = pa.scalar(2**63 - 1, pa.int64())
    side = pa.table({"subject_id": found.column("subject_id"), "predicate": found.column("predicate"),
                     "id": found.column("id"), "vf": times["valid_from"], "vt": pc.fill_null(times["valid_to"], never),
                     "rec": times["recorded_at"], "sup": pc.fill_null(times["superseded_at"], never)})
    pairs = side.join(side, ["subject_id", "predicate"], join_type="inner", left_suffix="_a", right_suffix="_b")
    believed = [pc.less(pairs.column(f"rec_{x}"), pairs.column(f"sup_{x}")) for x in "ab"]  # ever: its own rule
    clash = pc.and_(
        pc.and_(pc.and_(pc.less(pairs.column("id_a"), pairs.column("id_b")), pc.and_(*believed)),
                pc.and_(pc.less(pairs.column("rec_a"), pairs.column("sup_b")),
                        pc.less(pairs.column("rec_b"), pairs.column("sup_a")))),
        pc.and_(pc.less(pairs.column("vf_a"), pairs.column("vt_b")),
                pc.less(pairs.column("vf_b"), pairs.column("vt_a"))))
    found = []
    for r in pairs.filter(clash).sort_by([("id_b", "ascending"), ("id_a", "ascending")]).to_pylist():
        found.append(violation("one-value", subject=r["subject_id"], predicate=r["predicate"], a=r["id_a"],
                               b=r["id_b"], at=_shown(max(r["rec_a"], r["rec_b"]))))
    return found


def _micros(times: pa.ChunkedArray) -> list:
    return times.cast(pa.int64()).to_pylist()


def _shown(micros: int) -> str:
    return str(_EPOCH + timedelta(microseconds=micros))
