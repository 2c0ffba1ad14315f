"""Export the whole log as JSON Lines, and import it back exactly, into either engine."""

from __future__ import annotations

import json
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
from .timeutil import iso, parse_time, to_engine

if TYPE_CHECKING:
    from .store import Store

FORMAT = 1
MODELS = {
    "entity": Entity, "episode": Episode, "decision": Decision, "version": Version,
    "proposal": Proposal, "tombstone": Tombstone,
}
Progress = Callable[[int], None]


def export_log(store: Store, path: Path, progress: Progress | None = None) -> int:
    """Write every record of the store to ``path`` as JSON Lines; return how many."""
    db = store._db
    meta = dict(db.run("store/meta_all"))
    declared = dict(db.run("store/predicate_all"))
    lines = [json.dumps({"type": "graphmem", "format": FORMAT, "engine": store.engine,
                         "timezone": meta.get("timezone", "UTC")})]
    lines += [json.dumps({"type": "meta", "key": k, "value": v}) for k, v in sorted(meta.items())]
    lines += [json.dumps({"type": "predicate", "name": k, "kind": v}) for k, v in declared.items()]
    groups = [
        ("entity", store.entities()),
        ("episode", store.episodes()),
        ("decision", store.decisions()),
        ("version", sorted((records.version(r) for r in db.run("store/fact_all")),
                           key=lambda v: int(v.id[1:]))),
        ("proposal", store.proposals(None)),
        ("tombstone", store.tombstones()),
    ]
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


def read_log(path: Path) -> tuple[dict, dict[str, list]]:
    """Parse and validate an exported log; raise ImportFailed naming the first bad line."""
    header: dict = {}
    found: dict[str, list] = {kind: [] for kind in (*MODELS, "meta", "predicate")}
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise ImportFailed(f"cannot read {path}: {exc.strerror}") from exc
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                kind = data.pop("type")
            except (json.JSONDecodeError, KeyError, AttributeError, TypeError) as exc:
                raise ImportFailed(f"{path}:{number}: not a graphmem log record ({exc})") from exc
            if kind == "graphmem":
                header = data
            elif kind in ("meta", "predicate"):
                found[kind].append(data)
            elif kind in MODELS:
                try:
                    found[kind].append(MODELS[kind].model_validate(data))
                except ValidationError as exc:
                    problem = exc.errors()[0]
                    where = ".".join(str(p) for p in problem["loc"])
                    raise ImportFailed(f"{path}:{number}: {kind} {where}: {problem['msg']}") from exc
            else:
                raise ImportFailed(f"{path}:{number}: unknown record type {kind!r}")
    if header.get("format") != FORMAT:
        raise ImportFailed(f"{path} is not a graphmem log (format {FORMAT} header missing)")
    return header, found


def import_log(store: Store, path: Path, progress: Progress | None = None) -> int:
    """Restore an exported log into ``store`` in one transaction; return the records imported."""
    header, found = read_log(path)
    meta = {m["key"]: m["value"] for m in found["meta"]}
    _refuse_conflicts(store, header, meta, found)
    db = store._db
    with store._db.transaction():
        for predicate in found["predicate"]:
            store.declare(predicate["name"], predicate["kind"])
        for table, rows in _tables(found).items():
            if rows.num_rows:
                db.run_text(f"COPY {table} FROM $rows", {"rows": rows})
            if progress:
                progress(rows.num_rows)
        current = dict(db.run("store/meta_all"))
        for key, value in meta.items():
            if key.startswith("seq:"):
                value = str(max(int(value), int(current.get(key, "0"))))
            if key != "timezone":
                db.run("store/meta_set", {"key": key, "value": value})
    return sum(len(items) for items in found.values())


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
