"""Export the whole log as JSON Lines, and import it back exactly, into either engine."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
from pydantic import ValidationError

from . import records
from .errors import ImportFailed
from .models import Decision, Entity, Episode, Proposal, Tombstone, Version
from .store import PREDICATE_NAME
from .timeutil import MAX_TIME, MIN_TIME, iso, parse_time, to_engine

if TYPE_CHECKING:
    from .store import Store

FORMAT = 1
MODELS = {
    "entity": Entity, "episode": Episode, "decision": Decision, "version": Version,
    "proposal": Proposal, "tombstone": Tombstone,
}
ID_PREFIX = {"episode": "ep", "decision": "d", "version": "v", "proposal": "p", "tombstone": "t"}
Progress = Callable[[int], None]
BadLine = Callable[[str], None]


def export_log(store: Store, path: Path, progress: Progress | None = None) -> int:
    """Write every record of the store to ``path`` as JSON Lines; return how many."""
    with store._db.lock:  # one consistent state: no other thread writes while it is read
        meta, declared, groups = _records_of(store)
    lines = [json.dumps({"type": "graphmem", "format": FORMAT, "engine": store.engine,
                         "timezone": meta.get("timezone", "UTC")})]
    lines += [json.dumps({"type": "meta", "key": k, "value": v}) for k, v in sorted(meta.items())]
    lines += [json.dumps({"type": "predicate", "name": k, "kind": v}) for k, v in declared.items()]
    tmp = path.with_name(path.name + ".partial")
    with tmp.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(line + "\n")
        for kind, items in groups:
            for item in items:
                data = item.model_dump(mode="json", exclude={"status"} if kind == "version" else None)
                out.write(json.dumps({"type": kind, **data}, ensure_ascii=False) + "\n")
                if progress:
                    progress(1)
    tmp.replace(path)
    return len(lines) + sum(len(items) for _, items in groups)


def _records_of(store: Store) -> tuple[dict[str, str], dict[str, str], list[tuple[str, list]]]:
    """The store's settings, declared predicates, and every record by kind (hold the lock)."""
    db = store._db
    meta = dict(db.run("store/meta_all"))
    declared = dict(db.run("store/predicate_all"))
    return meta, declared, [
        ("entity", store.entities()),
        ("episode", store.episodes()),
        ("decision", store.decisions()),
        ("version", sorted((records.version(r) for r in db.run("store/fact_all")),
                           key=lambda v: int(v.id[1:]))),
        ("proposal", store.proposals(None)),
        ("tombstone", store.tombstones()),
    ]


def read_log(path: Path, on_bad_line: BadLine | None = None) -> tuple[dict, dict[str, list]]:
    """Parse and validate an exported log; raise ImportFailed naming the first bad line.

    With ``on_bad_line``, a bad record line is skipped and its problem ("FILE:LINE: what")
    passed to it instead; the header must still be sound.
    """
    header: dict = {}
    found: dict[str, list] = {kind: [] for kind in (*MODELS, "meta", "predicate")}
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from exc
    with handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                kind, record = _record(raw)
            except ValueError as exc:
                if on_bad_line is None or _kind_of_line(raw) == "graphmem":
                    raise ImportFailed(f"{path}:{number}: {exc}") from exc
                on_bad_line(f"{path}:{number}: {exc}")
                continue
            if kind == "graphmem":
                header = record
            else:
                found[kind].append(record)
    if header.get("format") != FORMAT:
        raise ImportFailed(f"{path} is not a graphmem log (format {FORMAT} header missing)")
    return header, found


def _kind_of_line(raw: bytes) -> str | None:
    """The record type a raw log line claims, if it can be read at all."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) else None


def _record(raw: bytes) -> tuple[str, object]:
    """One log line as (type, validated record); ValueError says what is wrong with it."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a graphmem log record (invalid JSON: {exc.msg}, column {exc.colno})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("not a graphmem log record (a JSON object with a 'type' is expected)")
    kind = data.pop("type")
    if kind == "graphmem":
        return kind, data
    if kind == "meta":
        if set(data) != {"key", "value"} or not all(isinstance(v, str) for v in data.values()):
            raise ValueError("meta needs a text 'key' and a text 'value'")
        if data["key"].startswith("seq:") and not re.fullmatch(r"[0-9]{1,18}", data["value"]):
            raise ValueError(f"meta {data['key']} must be a number, not {data['value']!r}")
        if data["key"] == "last_write":
            parse_time(data["value"])  # InvalidTime is a ValueError
        return kind, data
    if kind == "predicate":
        if not isinstance(data.get("name"), str) or not PREDICATE_NAME.match(data["name"]):
            raise ValueError(f"predicate name {data.get('name')!r} is not a valid name")
        if data.get("kind") not in ("one", "many", "event"):
            raise ValueError(f"predicate kind {data.get('kind')!r} is not one, many or event")
        return kind, data
    if kind not in MODELS:
        raise ValueError(f"unknown record type {kind!r}")
    try:
        record = MODELS[kind].model_validate(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        raise ValueError(f"{kind} {where}: {problem['msg']}") from exc
    _check_record(kind, record)
    return kind, record


def _check_record(kind: str, record) -> None:
    """Refuse what the models accept but the store cannot hold."""
    prefix = ID_PREFIX.get(kind)
    if kind == "entity" and not record.id.strip():
        raise ValueError("entity id is empty")
    if prefix and not re.fullmatch(rf"{prefix}[1-9][0-9]{{0,17}}", record.id):
        raise ValueError(f"{kind} id {record.id!r} is not of the form {prefix}<number>")
    for name, value in record:
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError(f"{kind} {name}: time {value.isoformat()} has no zone "
                                 "(logs carry UTC times ending in Z)")
            if not MIN_TIME <= value < MAX_TIME:
                raise ValueError(f"{kind} {name}: time {iso(value)} is out of range "
                                 "(years 1 to 9998)")
        elif isinstance(value, int) and not 0 <= value < 2**63:
            raise ValueError(f"{kind} {name}: {value} is out of range")


def import_log(store: Store, path: Path, progress: Progress | None = None,
               on_bad_line: BadLine | None = None) -> int:
    """Restore an exported log into ``store`` in one transaction; return the records imported.

    With ``on_bad_line``, unreadable lines are skipped (each reported to it) and the rest is
    imported only if it still forms a sound log; otherwise nothing is written.
    """
    header, found = read_log(path, on_bad_line)
    meta = {m["key"]: m["value"] for m in found["meta"]}
    _refuse_conflicts(store, header, meta, found)
    _refuse_unsound(store, found)
    _load(store, meta, {p["name"]: p["kind"] for p in found["predicate"]}, found, progress)
    return sum(len(items) for items in found.values())


def _load(store: Store, meta: dict[str, str], declared: dict[str, str], found: dict[str, list],
         progress: Progress | None = None) -> None:
    """Write checked records into ``store`` in one transaction, the bulk COPYs last."""
    tables = _tables(found)
    db = store._db
    with db.transaction():
        for name, kind in declared.items():
            store.declare(name, kind)
        current = dict(db.run("store/meta_all"))
        for key, value in sorted(_merged_meta(meta, current, found).items()):
            db.run("store/meta_set", {"key": key, "value": value})
        for table, rows in tables.items():  # nothing may fail after a COPY (see engine.py)
            if rows.num_rows:
                db.run_text(f"COPY {table} FROM $rows", {"rows": rows})
            if progress:
                progress(rows.num_rows)


def _merged_meta(meta: dict[str, str], current: dict[str, str], found: dict[str, list]) -> dict[str, str]:
    """The log's settings, with counters and the latest write never behind either side's records."""
    merged = {key: value for key, value in meta.items() if key != "timezone"}
    for kind, prefix in ID_PREFIX.items():
        numbers = [int(item.id[len(prefix):]) for item in found[kind]]
        key = f"seq:{prefix}"
        highest = max([*numbers, int(meta.get(key, "0")), int(current.get(key, "0"))])
        if highest:
            merged[key] = str(highest)
    times = [d.at for d in found["decision"]]
    times += [parse_time(v) for v in (meta.get("last_write"), current.get("last_write")) if v]
    if times:
        merged["last_write"] = iso(max(times))
    return merged


def _refuse_unsound(store: Store, found: dict[str, list]) -> None:
    """Refuse a log whose records, with the store's own, break an invariant `check` verifies."""
    from .checks import check

    decisions = sorted([*store.decisions(), *found["decision"]], key=lambda d: d.at)
    predicates = {**store.predicates(), **{p["name"]: p["kind"] for p in found["predicate"]}}
    problems = check(
        [*store.versions(), *found["version"]], decisions, [*store.episodes(), *found["episode"]],
        [*store.tombstones(), *found["tombstone"]], predicates,
    )
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ImportFailed(f"the log is not sound: {first.rule}: {first.detail}{more}; nothing was written")


def _refuse_conflicts(store: Store, header: dict, meta: dict, found: dict[str, list]) -> None:
    zone = header.get("timezone", "UTC")
    if zone != store.tz_name:
        raise ImportFailed(f"the log reads naive times in {zone}, this store in {store.tz_name}")
    latest = store.latest_write()
    if latest is not None and found["decision"]:
        first = min(d.at for d in found["decision"])
        if first <= latest:
            raise ImportFailed(
                f"the log's first write ({iso(first)}) is not after this store's latest write "
                f"({iso(latest)}); import into a new store"
            )
    existing = {
        "entity": {e.id for e in store.entities()},
        "episode": {e.id for e in store.episodes()},
        "decision": {d.id for d in store.decisions()},
        "version": {v.id for v in store.versions()},
        "proposal": {p.id for p in store.proposals(None)},
        "tombstone": {t.id for t in store.tombstones()},
    }
    entity_ids = existing["entity"] | {e.id for e in found["entity"]}
    for kind, items in found.items():
        if kind not in MODELS:
            continue
        counts = Counter(item.id for item in items)
        clash = (counts.keys() & existing[kind]) or {i for i, n in counts.items() if n > 1}
        if clash:
            raise ImportFailed(f"{kind} id {sorted(clash)[0]!r} is already taken; import into a new store")
    for v in found["version"]:
        if v.subject_id not in entity_ids or v.object_id not in entity_ids:
            raise ImportFailed(f"version {v.id} links an entity that the log does not hold")
    if "last_write" in meta:
        parse_time(meta["last_write"])


def _times(values: list[datetime | None], open_as_none: bool = False) -> pa.Array:
    if open_as_none:
        converted = [None if v is None else to_engine(v) for v in values]
    else:
        converted = [to_engine(v) for v in values]
    return pa.array(converted, pa.timestamp("us"))


def _strings(values) -> pa.Array:
    return pa.array(list(values), pa.string())


def _lists(values) -> pa.Array:
    return pa.array([list(v) for v in values], pa.list_(pa.string()))


def _tables(found: dict[str, list]) -> dict[str, pa.Table]:
    """Arrow tables in each engine table's column order, ready for COPY."""
    e, ep, d, v, p, t = (found[k] for k in ("entity", "episode", "decision", "version",
                                            "proposal", "tombstone"))
    col = lambda items, name: [getattr(i, name) for i in items]  # noqa: E731
    return {
        "Entity": pa.table({n: _strings(col(e, n)) for n in ("id", "name", "kind")}),
        "Episode": pa.table({
            **{n: _strings(col(ep, n)) for n in ("id", "kind", "text", "actor")},
            "reference_time": _times(col(ep, "reference_time")),
            "received_at": _times(col(ep, "received_at")),
        }),
        "Decision": pa.table({
            "id": _strings(col(d, "id")), "op": _strings(col(d, "op")), "at": _times(col(d, "at")),
            "created": _lists(col(d, "created")), "closed": _lists(col(d, "closed")),
            **{n: _strings(col(d, n)) for n in ("episode", "reason", "proposal")},
        }),
        "Proposal": pa.table({
            **{n: _strings(col(p, n)) for n in ("id", "op", "subject", "predicate", "object")},
            "valid_from": _times(col(p, "valid_from"), True),
            "valid_to": _times(col(p, "valid_to"), True),
            **{n: _strings(col(p, n)) for n in ("episode", "quote", "source")},
            "proposed_at": _times(col(p, "proposed_at")),
            "state": _strings(col(p, "state")),
            "decided_at": _times(col(p, "decided_at"), True),
            "reason": _strings(col(p, "reason")), "decision": _strings(col(p, "decision")),
        }),
        "Tombstone": pa.table({
            "id": _strings(col(t, "id")), "target": _strings(col(t, "target")),
            "at": _times(col(t, "at")), "versions": _lists(col(t, "versions")),
            "episodes": _lists(col(t, "episodes")),
            "entities": pa.array(col(t, "entities"), pa.int64()),
            "proposals": pa.array(col(t, "proposals"), pa.int64()),
        }),
        "Fact": pa.table({
            "from": _strings(col(v, "subject_id")), "to": _strings(col(v, "object_id")),
            "id": _strings(col(v, "id")), "predicate": _strings(col(v, "predicate")),
            "valid_from": _times(col(v, "valid_from")), "valid_to": _times(col(v, "valid_to")),
            "recorded_at": _times(col(v, "recorded_at")),
            "superseded_at": _times(col(v, "superseded_at")),
            "episodes": _lists(col(v, "episodes")), "supersedes": _lists(col(v, "supersedes")),
            "superseded_by": _lists(col(v, "superseded_by")),
            "created_by": _strings(col(v, "created_by")), "closed_by": _strings(col(v, "closed_by")),
            "reason": _strings(col(v, "reason")),
        }),
    }
