"""The invariants `check` verifies, over a whole log held as Arrow tables (a columnar import).

:func:`graphmem.core.invariants.check` walks a list of models, one Python object per record: fine
for a store's own `check`, the floor of a bulk import at a million versions. Here every rule is
array work over the tables of a Parquet log, with the same rules and messages: each reference is
resolved to the row it names (:class:`IdIndex`: ids read as numbers, not hashed as text), a
membership is a scatter or a sort of row numbers (numpy), and only the rows found at fault become
Python values and messages, in the order the rules are listed. ``tests/test_arrowcheck.py``
holds the two to the same verdicts on random logs.

The one rule that is a sweep (no two believed versions of a ``one`` predicate overlap) is decided
per key by arrays first: at each moment one of a key's versions was recorded, the versions then
believed, in order of valid start, must not overlap their neighbours (:func:`_clashing_keys`).
Only the keys that fail (none in a sound log) or are too busy to check that way go through the
pairwise join or the sweep of ``check`` (:func:`graphmem.core.invariants.overlaps`).

Tables are in the log's file shape (:mod:`graphmem.log.parquet`): one column per record field,
times as UTC timestamps, open ends null. Ids are unique in each table: the import refuses a
repeated id before it checks the invariants.

Internal: used by the Parquet import (:mod:`graphmem.log.parquet`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..models import Violation
from .entity_kinds import stored_kind_problem
from .invariants import entity_violations, label_problem, overlaps, violation
from .names import CONTROL, MAX_NAME, PREDICATE_NAME
from .times import MAX_TIME, MIN_TIME, iso

__all__ = ["IdIndex", "violations"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAME = "^" + PREDICATE_NAME.pattern.strip("^$") + "$"
#: An open end (a null time) as integer microseconds: after every time.
_NEVER = np.iinfo(np.int64).max
#: Entity names the fast path of the entity rule reads: printable ASCII words, single-spaced.
#: Such a name is stored as it is and keyed by its lower case (:func:`graphmem.core.names.entity_key`).
_PLAIN_NAME = "^[!-~]+( [!-~]+)*$"
#: The digits an id holds at most (``<prefix>`` and a number, as the store writes them).
_DIGITS = 18


class _Held(NamedTuple):
    """What the overlap sweep reads of a version, times as integer microseconds."""

    id: str
    subject_id: str
    predicate: str
    valid_from: int
    valid_to: int | None
    recorded_at: int
    superseded_at: int | None


def violations(tables: dict[str, pa.Table], predicates: dict[str, str],
               indexes: dict[str, IdIndex] | None = None) -> list[Violation]:
    """Every broken invariant of the log in ``tables`` (by record kind), as ``check`` reports them.

    ``indexes`` may hold an :class:`IdIndex` already made of the ids of a kind's table (the
    import's id checks make them): used instead of making it again."""
    indexes = indexes or {}

    def index(kind: str) -> IdIndex:
        return indexes[kind] if kind in indexes else IdIndex(tables[kind].column("id"))

    found: list[Violation] = []
    versions, decisions = tables["version"], tables["decision"]
    episodes, tombstones = tables["episode"], tables["tombstone"]
    purged = pc.list_flatten(tombstones.column("versions"))
    episode_ids = episodes.column("id")
    purged_episodes = pc.list_flatten(tombstones.column("episodes"))
    known_episodes = _joined(episode_ids, purged_episodes)
    # every reference to a version, a write or an episode, as the row it names (-1: none)
    held = index("version")
    created, closed = (_Lists(decisions.column(c), held) for c in ("created", "closed"))
    back, forth = (_Lists(versions.column(c), held) for c in ("supersedes", "superseded_by"))
    cited = _Lists(versions.column("episodes"), index("episode"))
    created_by, closed_by = index("decision").of(versions.column("created_by"), versions.column("closed_by"))

    def flag(message: str, rows: pa.Table, **computed: Callable[[dict[str, Any]], Any]) -> None:
        """A violation per row, its fields the row's (and ``computed`` from it)."""
        for row in rows.to_pylist():
            found.append(violation(message, **{**row, **{k: f(row) for k, f in computed.items()}}))

    # -- the write log: strictly increasing, in range
    found += _write_order(decisions)
    flag("write-range", _where(decisions, _out_of_range(decisions.column("at"))), at=lambda r: iso(r["at"]))

    # -- versions
    flag("version-predicate", _where(versions, _bad_names(versions.column("predicate"))))
    times = [versions.column(c) for c in ("valid_from", "valid_to", "recorded_at", "superseded_at")]
    flag("version-range", _where(versions, _any(*(_out_of_range(t) for t in times))))
    empty = pc.fill_null(pc.less_equal(versions.column("valid_to"), versions.column("valid_from")), False)
    flag("valid-period", _where(versions, empty))
    early = pc.fill_null(pc.less_equal(versions.column("superseded_at"), versions.column("recorded_at")), False)
    flag("transaction-period", _where(versions, early))
    found += _write_log(versions, decisions, created_by, created, closed_by, closed)
    half = pc.not_equal(pc.is_null(versions.column("superseded_at")), pc.is_null(versions.column("closed_by")))
    flag("half-closed", _where(versions, half))
    found += _supersede_links(versions, back, forth, purged)
    flag("version-episode", cited.pairs(versions.column("id"), cited.rows < 0))

    flag("episode-range", _where(episodes, _any(_out_of_range(episodes.column("reference_time")),
                                                _out_of_range(episodes.column("received_at")))))
    kinds = episodes.column("kind")
    flag("episode-kind", _where(episodes, _matching(kinds, lambda kind: CONTROL.search(kind) is not None)),
         problem=lambda r: label_problem(r["kind"], "its kind"))

    # -- the writes' own references
    lost = pc.and_(pc.is_valid(decisions.column("episode")),
                   pc.invert(pc.is_in(decisions.column("episode"), known_episodes)))
    flag("write-episode", _where(decisions, lost))
    for lists in (created, closed):
        flag("write-version", lists.pairs(decisions.column("id"), _unknown(lists, purged)))

    found += _links(tables["link"], versions, decisions, purged)

    proposals = tables["proposal"]
    lost = pc.and_(pc.is_valid(proposals.column("episode")),
                   pc.invert(pc.is_in(proposals.column("episode"), known_episodes)))
    flag("proposal-episode", _where(proposals, lost))
    flag("proposal-predicate", _where(proposals, _bad_names(proposals.column("predicate"))))
    found += [violation("declared-predicate", name=name) for name in predicates if not PREDICATE_NAME.match(name)]
    found += _entities(tables["entity"], versions)
    found += _one_value(versions, predicates)
    return found


# -- columns as arrays ------------------------------------------------------------------------------


def _joined(*arrays: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray:
    """Text arrays (chunked or not) as one chunked array, for ``is_in``."""
    chunks = [c for a in arrays for c in (a.chunks if isinstance(a, pa.ChunkedArray) else [a])]
    return pa.chunked_array(chunks, pa.string())


class IdIndex:
    """The row each reference names in a column of ids, -1 where it names none (or is null).

    Ids of the form ``<prefix><number>`` (as a store writes them, and as the import has checked
    them) are read as their numbers, and a reference's number is looked up in an array: hashing
    a million ids as text costs ten times more. Other ids are hashed (``index_in``).
    """

    def __init__(self, ids: pa.ChunkedArray) -> None:
        self.ids = ids
        first = ids[0].as_py() if len(ids) else None
        self.prefix = first.rstrip("0123456789") if isinstance(first, str) else ""
        numbers = self._numbers(ids) if self.prefix else np.zeros(1, np.int64)
        self.numbered = bool(numbers.all())
        if self.numbered:
            self.highest = int(numbers.max())
            self.numbers = numbers
            if self.highest <= 8 * len(numbers) + 1024:  # numbers from 1, a few gaps: an array by number
                self.by_number = np.full(self.highest + 2, -1, np.int64)
                self.by_number[numbers] = np.arange(len(numbers))
            else:
                self.order = np.argsort(numbers)
                self.sorted = numbers[self.order]

    def _numbers(self, values: pa.ChunkedArray | pa.Array) -> np.ndarray:
        """Each value's number: ``prefix`` and the decimal digits of a positive number, no more
        (0, which no id has, where a value is not of that form)."""
        digits = pc.utf8_slice_codeunits(values, len(self.prefix))
        # decimal digits are ASCII: counted in bytes (cheaper than in characters)
        numbered = pc.fill_null(pc.and_(pc.and_(pc.starts_with(values, self.prefix), pc.ascii_is_decimal(digits)),
                                        pc.and_(pc.invert(pc.starts_with(digits, "0")),
                                                pc.less_equal(pc.binary_length(digits), _DIGITS))), False)
        if not pc.all(numbered).as_py():  # (true of every id a store writes: no other value to put in)
            digits = pc.if_else(numbered, digits, "0")
        return pc.cast(digits, pa.int64()).to_numpy()

    def repeated(self) -> np.ndarray:
        """True for each id that occurs more than once."""
        if not self.numbered:
            counts = pc.value_counts(self.ids)
            twice = counts.filter(pc.greater(counts.field("counts"), 1)).field("values")
            return _mask(pc.is_in(self.ids, twice))
        if hasattr(self, "by_number"):
            return np.bincount(self.numbers)[self.numbers] > 1
        same = self.sorted[1:] == self.sorted[:-1]
        found = np.zeros(len(self.numbers), bool)
        found[self.order[1:][same]] = found[self.order[:-1][same]] = True
        return found

    def of(self, *references: pa.ChunkedArray | pa.Array) -> list[np.ndarray]:
        """The rows named by each argument's values (one array per argument)."""
        if not self.numbered:  # the ids hashed once for all of them
            joined = pc.index_in(_joined(*references), value_set=_joined(self.ids))
            rows = pc.fill_null(joined, -1).to_numpy().astype(np.int64)
            return np.split(rows, np.cumsum([len(r) for r in references])[:-1])
        return [self._rows(self._numbers(r)) for r in references]

    def _rows(self, numbers: np.ndarray) -> np.ndarray:
        if hasattr(self, "by_number"):  # its last entry, past the highest id, is -1
            return self.by_number[np.minimum(numbers, self.highest + 1)]
        at = np.minimum(np.searchsorted(self.sorted, numbers), len(self.sorted) - 1)
        return np.where(self.sorted[at] == numbers, self.order[at], -1)


def _micros(times: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """A time column as integer microseconds (an open end: :data:`_NEVER`), and where it is null."""
    values = times.cast(pa.int64())
    return pc.fill_null(values, _NEVER).to_numpy(), pc.is_null(values).to_numpy(zero_copy_only=False)


def _mask(values: pa.ChunkedArray | pa.Array | np.ndarray) -> np.ndarray:
    if isinstance(values, np.ndarray):
        return values
    return pc.fill_null(values, False).to_numpy(zero_copy_only=False)


def _where(table: pa.Table, mask: pa.ChunkedArray | pa.Array | np.ndarray) -> pa.Table:
    """The rows of ``table`` where ``mask`` holds (null: not), in order."""
    rows = np.flatnonzero(_mask(mask))
    return table.take(pa.array(rows, pa.int64())) if len(rows) else table.slice(0, 0)


def _any(*masks: pa.ChunkedArray) -> pa.ChunkedArray:
    result = masks[0]
    for mask in masks[1:]:
        result = pc.or_(result, mask)
    return result


def _out_of_range(times: pa.ChunkedArray) -> pa.ChunkedArray:
    """True where a time (null: open) lies outside years 1 to 9998."""
    low, high = pa.scalar(MIN_TIME, times.type), pa.scalar(MAX_TIME, times.type)
    return pc.fill_null(pc.or_(pc.less(times, low), pc.greater_equal(times, high)), False)


def _matching(values: pa.ChunkedArray, test: Callable[[str], bool]) -> np.ndarray:
    """True where a text value passes ``test`` (null: not), which runs once per distinct value."""
    distinct = pc.unique(values).drop_null()
    hits = [value for value in distinct.to_pylist() if test(value)]
    if not hits:
        return np.zeros(len(values), bool)
    return _mask(pc.is_in(values, pa.array(hits, pa.string())))


def _bad_names(names: pa.ChunkedArray) -> np.ndarray:
    """True where a predicate name is not valid (null included)."""
    distinct = pc.unique(names).drop_null()
    bad = pc.filter(distinct, pc.invert(pc.match_substring_regex(distinct, _NAME)))
    return _mask(pc.or_(pc.is_null(names), pc.is_in(names, bad)))


class _Lists:
    """A list column's items, each with the row that holds it (``parents``) and the row it names
    in the table of ``index`` (``rows``, -1: none)."""

    def __init__(self, lists: pa.ChunkedArray, index: IdIndex) -> None:
        self.items = pc.list_flatten(lists)
        self.parents = pc.list_parent_indices(lists).to_numpy().astype(np.int64)
        (self.rows,) = index.of(self.items)

    def pairs(self, ids: pa.ChunkedArray, mask: np.ndarray) -> pa.Table:
        """(id, other) for each item where ``mask`` holds: the id of the row holding it, the item."""
        at = np.flatnonzero(mask)
        if not len(at):
            return pa.table({"id": pa.array([], pa.string()), "other": pa.array([], pa.string())})
        return pa.table({"id": pc.take(ids, pa.array(self.parents[at])),
                         "other": pc.take(self.items, pa.array(at, pa.int64()))})


def _unknown(lists: _Lists, purged: pa.ChunkedArray) -> np.ndarray:
    """True for each item that names no version (held or purged)."""
    missing = lists.rows < 0
    if missing.any() and len(purged):
        missing &= ~_mask(pc.is_in(lists.items, purged))
    return missing


# -- the rules ----------------------------------------------------------------------------------------


def _write_order(decisions: pa.Table) -> list[Violation]:
    """Each write after the one before it, in order of time."""
    at, nulls = _micros(decisions.column("at"))
    if len(at) < 2 or (not nulls.any() and (at[1:] > at[:-1]).all()):  # as written: strictly increasing
        return []
    ordered = decisions.select(["id", "at"]).sort_by([("at", "ascending")])
    earlier, later = ordered.slice(0, ordered.num_rows - 1), ordered.slice(1)
    bad = pc.invert(pc.less(earlier.column("at"), later.column("at")))
    pairs = pa.table({"id": later.column("id"), "at": later.column("at"), "before": earlier.column("id")})
    return [violation("write-order", **{**r, "at": iso(r["at"])}) for r in pairs.filter(bad).to_pylist()]


def _write_log(versions: pa.Table, decisions: pa.Table, created_by: np.ndarray, created: _Lists,
               closed_by: np.ndarray, closed: _Lists) -> list[Violation]:
    """Each version was recorded (and closed) by the write it names, at that write's time, and
    that write lists it."""
    found = []
    at, at_null = _micros(decisions.column("at"))
    for field, writes, lists, time, wrong_write, unlisted in (
            ("created_by", created_by, created, "recorded_at", "not-recorded-by", "created-unlisted"),
            ("closed_by", closed_by, closed, "superseded_at", "not-closed-by", "closed-unlisted")):
        # a version names the write that created it (a missing name names none); a closing write if closed
        named = _mask(pc.is_valid(versions.column(field))) if field == "closed_by" else np.ones(len(writes), bool)
        moment, moment_null = _micros(versions.column(time))
        write_at, write_at_null = np.r_[at, 0][writes], np.r_[at_null, True][writes]  # -1: the last, none
        wrong = named & (write_at_null | moment_null | (write_at != moment))
        checked = named & ~wrong
        found += [violation(wrong_write, **r) for r in _named(versions, field, wrong)]
        found += [violation(unlisted, **r) for r in _named(versions, field, checked & ~_listed(writes, lists))]
    return found


def _listed(writes: np.ndarray, lists: _Lists) -> np.ndarray:
    """True for each version that the list of the write in ``writes`` names (by row)."""
    held = lists.rows >= 0
    rows, parents = lists.rows[held], lists.parents[held]
    owner = np.full(len(writes), -1, np.int64)
    owner[rows] = parents  # a version named by several writes keeps the last: the others below
    found = owner == writes
    several = np.bincount(rows, minlength=len(writes)) > 1
    doubt = np.flatnonzero(several & ~found)
    if len(doubt):
        named = {(int(r), int(p)) for r, p in zip(rows, parents) if several[r]}
        found[doubt] = [(int(v), int(writes[v])) in named for v in doubt]
    return found


def _named(versions: pa.Table, field: str, mask: np.ndarray) -> list[dict[str, Any]]:
    """(id, write) of the versions where ``mask`` holds, by id."""
    rows = _where(versions.select(["id", field]), mask)
    return rows.rename_columns(["id", "write"]).sort_by("id").to_pylist()


def _supersede_links(versions: pa.Table, back: _Lists, forth: _Lists, purged: pa.ChunkedArray) -> list[Violation]:
    """No version supersedes itself; every link resolves; every link is mirrored both ways."""
    found = []
    ids = versions.column("id")
    for message, test in (("supersedes-itself", lambda lists: lists.rows == lists.parents),
                          ("supersede-missing", lambda lists: _unknown(lists, purged))):
        for lists in (back, forth):
            found += [violation(message, **r) for r in lists.pairs(ids, test(lists)).to_pylist()]
    # (v, o) in one list needs (o, v) in the other, where o is held: as numbers o * size + v
    size = max(len(ids), 1)
    needs = {id(lists): lists.rows * size + lists.parents for lists in (back, forth)}
    holds = {id(lists): (lists.parents * size + lists.rows)[lists.rows >= 0] for lists in (back, forth)}
    if np.array_equal(_distinct(needs[id(forth)][forth.rows >= 0]), _distinct(holds[id(back)])):
        return found  # each list is the other read backwards
    for lists, mirror, says in ((forth, back, "replaced-unsaid"), (back, forth, "replacing-unsaid")):
        unsaid = (lists.rows >= 0) & ~np.isin(needs[id(lists)], holds[id(mirror)])
        found += [violation(says, **r) for r in lists.pairs(ids, unsaid).to_pylist()]
    return found


def _links(links: pa.Table, versions: pa.Table, decisions: pa.Table, purged: pa.Array) -> list[Violation]:
    """Every later link names a version (or a purged one) that cites the episode, made by a later
    write citing that episode (or merging the entity it was about)."""
    found: list[Violation] = []
    if not links.num_rows:
        return found
    # only the versions and writes a link names can meet one in the joins below
    versions = versions.filter(pc.is_in(versions.column("id"), links.column("version")))
    decisions = decisions.filter(pc.is_in(decisions.column("at"), links.column("at")))
    keyed = links.append_column("row", pa.chunked_array([pa.array(range(links.num_rows), pa.int64())]))
    held = versions.select(["id", "recorded_at"]).rename_columns(["version", "recorded_at"])
    joined = keyed.join(held, "version", join_type="left outer")
    exists = pc.is_valid(joined.column("recorded_at"))
    gone = joined.filter(pc.and_(pc.invert(exists), pc.invert(pc.is_in(joined.column("version"), purged))))
    found += [violation("link-version", **r) for r in gone.sort_by("row").to_pylist()]
    present = joined.filter(exists)
    cited = pa.table({"version": pc.take(versions.column("id"), pc.list_parent_indices(versions.column("episodes"))),
                      "episode": pc.list_flatten(versions.column("episodes"))})
    cited = _marked(cited, "cited")
    writes = decisions.select(["at", "episode", "op"]).rename_columns(["at", "write_episode", "op"])
    checked = present.join(cited, ["version", "episode"], join_type="left outer").join(writes, "at",
                                                                                       join_type="left outer")
    rows: dict[int, list[dict]] = {}  # a link meets every write made at its time (two writes at one
    for r in checked.sort_by("row").to_pylist():  # time break another rule: any of them may link)
        rows.setdefault(r["row"], []).append(r)
    for same in rows.values():
        r = same[0]
        if not r["cited"]:
            found.append(violation("link-uncited", **r))
        citing = any(w["op"] is not None and (w["write_episode"] == w["episode"] or w["op"] == "MERGE")
                     for w in same)
        if r["at"] <= r["recorded_at"] or not citing:
            found.append(violation("link-write", **{**r, "at": iso(r["at"])}))
    return found


def _marked(table: pa.Table, name: str) -> pa.Table:
    """``table`` with a column ``name`` of True: after a left join, null marks a row it lacked."""
    return table.append_column(name, pa.chunked_array([pa.repeat(pa.scalar(True), table.num_rows)], pa.bool_()))


def _entities(entities: pa.Table, versions: pa.Table) -> list[Violation]:
    """The entity rules of ``check``, read in Python only for the entities that need it: a plain
    name (:data:`_PLAIN_NAME`, within :data:`graphmem.core.names.MAX_NAME`) under the id that is
    its lower case, with a valid kind, breaks no rule."""
    ids, names = entities.column("id"), entities.column("name")
    plain = pc.and_(pc.match_substring_regex(names, _PLAIN_NAME),
                    pc.less_equal(pc.binary_length(names), MAX_NAME))
    sound = _mask(pc.and_(plain, pc.equal(ids, pc.ascii_lower(names)))) & \
        ~_matching(entities.column("kind"), lambda kind: stored_kind_problem(kind) is not None)
    rest = entities.filter(pa.array(~sound))
    if not rest.num_rows:
        return []
    asked = rest.column("id")
    believed = pc.is_null(versions.column("superseded_at"))
    ends: set[str] = set()
    holding: set[str] = set()
    for column in ("subject_id", "object_id"):
        end = versions.column(column)
        among = pc.is_in(end, asked)
        ends.update(pc.filter(end, among).to_pylist())
        holding.update(pc.filter(end, pc.and_(among, believed)).to_pylist())
    named = list(zip(*(rest.column(c).to_pylist() for c in ("id", "name", "kind"))))
    return entity_violations(named, ends, holding, ids=set(ids.to_pylist()))


# -- one value at a time ------------------------------------------------------------------------------

#: Keys holding at most this many versions are checked pair by pair in Arrow (k² pairs each);
#: the larger ones by the sweep of `check` (k log k), in Python. Either only for the keys
#: :func:`_clashing_keys` could not clear.
PAIRWISE = 64
#: A key whose snapshots (:func:`_clashing_keys`) would hold more than this many rows per version
#: is not snapshot: it goes to the pairwise check or the sweep.
SNAPSHOT_ROWS = 16


def _one_value(versions: pa.Table, predicates: dict[str, str]) -> list[Violation]:
    """No two versions of a ``one`` predicate believed at the same time overlap in valid time."""
    ones = [name for name, kind in predicates.items() if kind == "one"]
    if not ones or not versions.num_rows:
        return []
    columns = ["id", "subject_id", "predicate", "valid_from", "valid_to", "recorded_at", "superseded_at"]
    one = pc.and_(pc.is_in(versions.column("predicate"), pa.array(ones, pa.string())),
                  pc.is_valid(versions.column("subject_id")))
    found = versions.select(columns).filter(one)
    if found.num_rows < 2:
        return []
    keys = _key_numbers(found)
    clashing = _clashing_keys(found, keys)
    if not len(clashing):
        return []
    kept = np.isin(keys, clashing)
    found, keys = found.filter(pa.array(kept)), keys[kept]
    order = np.argsort(keys, kind="stable")
    starts = np.flatnonzero(np.r_[True, keys[order][1:] != keys[order][:-1]])
    versions_of_key = np.empty(len(keys), np.int64)
    versions_of_key[order] = np.repeat(np.diff(np.r_[starts, len(keys)]), np.diff(np.r_[starts, len(keys)]))
    problems = _pairwise(found.filter(pa.array((versions_of_key > 1) & (versions_of_key <= PAIRWISE))))
    swept = found.filter(pa.array(versions_of_key > PAIRWISE))
    if swept.num_rows:
        micros = [_integers(swept.column(c)) for c in columns[3:]]
        rows = map(_Held._make, zip(*(swept.column(c).to_pylist() for c in columns[:3]), *micros))
        problems += overlaps(list(rows), predicates, when=_shown)
    return problems


def _key_numbers(found: pa.Table) -> np.ndarray:
    """A number per (subject, predicate): equal for the versions of one key, distinct otherwise."""
    subjects = pc.dictionary_encode(found.column("subject_id")).combine_chunks()
    kinds = pc.dictionary_encode(found.column("predicate")).combine_chunks()
    subject, kind = (pc.fill_null(d.indices, -1).to_numpy().astype(np.int64) for d in (subjects, kinds))
    return (subject + 1) * (len(kinds.dictionary) + 1) + kind + 1


def _clashing_keys(found: pa.Table, keys: np.ndarray) -> np.ndarray:
    """The keys (of ``keys``, one per version) that may hold two overlapping believed versions:
    every key that does, and those too busy to be cleared here.

    Two versions clash when both are believed at the later one's recording and their valid
    periods overlap. So a key is sound when, at each moment one of its versions was recorded,
    the versions believed then (recorded at or before it, closed after it) overlap nowhere: sorted
    by valid start, none starts before the one before it ends (for non-empty periods, any overlap
    shows between neighbours). Each version is one row of the snapshot of every moment of its key
    it was believed at; keys with an empty or inverted valid period (its own rule) or a missing
    time are not cleared, nor keys whose snapshots would exceed :data:`SNAPSHOT_ROWS` rows per
    version.
    """
    valid_from, start_null = _micros(found.column("valid_from"))
    valid_to, _ = _micros(found.column("valid_to"))
    recorded, recorded_null = _micros(found.column("recorded_at"))
    superseded, _ = _micros(found.column("superseded_at"))
    believed = recorded < superseded  # a version closed when it was recorded never was: its own rule
    doubtful = keys[start_null | recorded_null | (believed & (valid_to <= valid_from))]
    order = np.flatnonzero(believed)
    order = order[np.lexsort((recorded[order], keys[order]))]
    key, start, end, since, until = (a[order] for a in (keys, valid_from, valid_to, recorded, superseded))
    if len(order) < 2:
        return doubtful
    # the moments: each key's distinct recording times, numbered in (key, time) order
    first_of_key = np.r_[True, key[1:] != key[:-1]]
    new_moment = first_of_key | np.r_[True, since[1:] != since[:-1]]
    moment = np.cumsum(new_moment) - 1
    key_number = np.cumsum(first_of_key) - 1
    # (key, time) as one ordered integer, a time by its place among the moments' times
    times, ranks = _ranked(since[new_moment])
    place = key_number << 32
    moments = place[new_moment] | ranks
    open_end = until == _NEVER  # believed still: after every moment (no search)
    closing = np.full(len(until), len(times), np.int64)
    closing[~open_end] = np.searchsorted(times, until[~open_end])
    closes = place | closing  # a moment is before a closing iff its place is
    believed_at = np.searchsorted(moments, closes, side="left") - moment  # moments each version is believed at
    key_starts = np.flatnonzero(first_of_key)
    versions_of_key = np.diff(np.r_[key_starts, len(key)])
    rows_of_key = np.add.reduceat(believed_at, key_starts)
    busy = rows_of_key > SNAPSHOT_ROWS * versions_of_key
    taken = np.repeat((versions_of_key > 1) & ~busy, versions_of_key)
    doubtful = np.concatenate([doubtful, key[key_starts[busy]]])
    # the snapshots: (moment, valid start) sorted; a row overlapping the next of its moment clashes
    chosen = np.flatnonzero(taken)
    count = believed_at[chosen]
    version = np.repeat(chosen, count)
    first = np.cumsum(count) - count
    at_moment = np.arange(len(version)) - np.repeat(first - moment[chosen], count)
    by_start = np.empty(len(start), np.int64)
    by_start[np.argsort(start)] = np.arange(len(start))
    ordered = np.argsort((at_moment << 32) | by_start[version])
    version, at_moment = version[ordered], at_moment[ordered]
    clash = (at_moment[1:] == at_moment[:-1]) & (start[version[1:]] < end[version[:-1]])
    return _distinct(np.concatenate([doubtful, key[version[:-1][clash]]]))


def _ranked(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values, sorted, and each value's place among them (one sort; a search per
    value in unsorted order cost twice as much)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]] if len(ordered) else np.zeros(0, bool)
    ranks = np.empty(len(values), np.int64)
    ranks[order] = np.cumsum(new) - 1
    return ordered[new], ranks


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (numpy's own ``unique`` hashes, slower here)."""
    values = np.sort(values)
    return values[np.r_[True, values[1:] != values[:-1]]] if len(values) else values


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


def _integers(times: pa.ChunkedArray) -> list:
    return times.cast(pa.int64()).to_pylist()


def _shown(micros: int) -> str:
    return str(_EPOCH + timedelta(microseconds=micros))
