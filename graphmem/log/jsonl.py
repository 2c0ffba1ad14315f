"""Export the whole log as JSON Lines, and import it back exactly, into either engine.

Internal: use ``Store.export`` and ``Store.import_log``.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, get_args

from pydantic import BaseModel, ValidationError

from ..core import json_lines
from ..core.collector import collector_paused
from ..core.invariants import check
from ..core.json_lines import LONE_SURROGATE, lines, open_regular, private_beside
from ..core.names import PREDICATE_KINDS, PREDICATE_NAME, refuse_predicate_kind_change
from ..core.tables import ENDS, TABLES, by_name
from ..core.temporal import version_number
from ..core.times import in_range, iso, parse_time, too_far_ahead
from ..engine import Engine
from ..errors import ImportFailed, InvalidInput, InvalidPredicate
from ..models import DEFAULT_PREDICATES, Decision, Entity, Episode, Link, Proposal, Tombstone, Version
from ..read import questions
from ..write.migrations import SCHEMA_KEY

if TYPE_CHECKING:
    import pyarrow as pa

#: The log format written; 2 added ``link`` records (when an episode was linked to an existing
#: version). A format-1 log is read as well: its later links count from the episode's receipt.
__all__ = ["FORMAT", "ID_PATTERN", "ID_PREFIX", "MODELS", "check_meta", "export_log", "finish_import", "import_log",
           "read_log"]

FORMAT = 2
FORMATS = (1, 2)
MODELS: dict[str, type[BaseModel]] = {
    "entity": Entity, "episode": Episode, "decision": Decision, "version": Version,
    "proposal": Proposal, "tombstone": Tombstone, "link": Link,
}
ID_PREFIX = {"episode": "ep", "decision": "d", "version": "v", "proposal": "p", "tombstone": "t"}
ID_PATTERN = {kind: re.compile(rf"{prefix}[1-9][0-9]{{0,17}}") for kind, prefix in ID_PREFIX.items()}
SEQ_VALUE = re.compile(r"[0-9]{1,18}")
Progress = Callable[[int], None]
BadLine = Callable[[str], None]


def export_log(engine: Engine, path: Path, progress: Progress | None = None) -> int:
    """Write every record of the store behind ``engine`` to ``path`` as JSON Lines; return how many
    (declared predicates and the log's records; neither the header nor the settings lines, so the
    number an import of the file reports, and the one a Parquet export of the store reports)."""
    if path.is_dir():
        raise InvalidInput(f"{path} is a directory; name a file to write the log to "
                           "(a Parquet export writes a directory)")
    if path.is_symlink() or (path.exists() and not path.is_file()):  # the log replaces what is at path
        raise InvalidInput(f"{path} is not a regular file (a link, a device or a FIFO); name a new file, "
                           "or a regular one to replace")
    with engine.lock:  # one consistent state: no other thread writes while it is read
        stored = _stored(engine)
    meta = {k: v for k, v in stored.settings.items() if not _layout(k)}
    declared = stored.declared
    groups = [(kind, stored.records[kind]) for kind in MODELS]
    lines = [json.dumps({"type": "graphmem", "format": FORMAT, "engine": engine.name,
                         "timezone": meta.get("timezone", "UTC")})]
    lines += [json.dumps({"type": "meta", "key": k, "value": v}) for k, v in sorted(meta.items())]
    lines += [json.dumps({"type": "predicate", "name": k, "kind": v}) for k, v in declared.items()]
    tmp = None
    try:
        tmp, out = private_beside(path)
        with out:
            for line in lines:
                out.write(line + "\n")
            for kind, items in groups:
                for item in items:
                    data = item.model_dump(mode="json", exclude={"status"} if kind == "version" else None)
                    out.write(json.dumps({"type": kind, **data}, ensure_ascii=False) + "\n")
                    if progress:
                        progress(1)
        tmp.replace(path)
    except OSError as exc:
        _remove(tmp)
        raise InvalidInput(f"cannot write the log to {path}: {exc.strerror or exc}") from exc
    except BaseException:
        _remove(tmp)
        raise
    return len(declared) + sum(len(items) for _, items in groups)


def _remove(path: Path | None) -> None:
    """Remove a file that may never have been made (or whose folder is not one)."""
    if path is None:
        return
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _layout(key: str) -> bool:
    """Settings that say how one store's files are laid out (migrations applied, indexes), not
    what its log holds: never exported, never imported."""
    return key == SCHEMA_KEY or key.startswith("index:")


class _Stored(NamedTuple):
    """What a store holds: its settings, declared predicates and every record by kind."""

    settings: dict[str, str]
    declared: dict[str, str]
    records: dict[str, list[Any]]

    @property
    def latest_write(self) -> datetime | None:
        value = self.settings.get("last_write")
        return parse_time(value) if value else None


def _stored(engine: Engine) -> _Stored:
    """Everything the store behind ``engine`` holds, in export order (hold the engine's lock)."""
    return _Stored(questions.settings(engine), questions.declared(engine), {
        "entity": questions.entities(engine),
        "episode": questions.episodes(engine),
        "decision": questions.decisions(engine),
        "version": sorted(questions.every_version(engine), key=lambda v: version_number(v.id)),
        "proposal": questions.proposals(engine),
        "tombstone": questions.tombstones(engine),
        "link": questions.links(engine),
    })


def read_log(path: Path, on_bad_line: BadLine | None = None,
             large: bool = False) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Parse and validate an exported log; raise ImportFailed naming the first bad line.

    With ``on_bad_line``, a bad record line is skipped and its problem ("FILE:LINE: what")
    passed to it instead; the header must still be sound. A log over
    :data:`graphmem.core.json_lines.SMALL_LOG` bytes is read only if ``large``.
    """
    header: dict[str, Any] = {}
    found: dict[str, list[Any]] = {kind: [] for kind in (*MODELS, "meta", "predicate")}
    with open_regular(path) as handle:
        refuse_large(path, os.fstat(handle.fileno()).st_size, large)
        for number, raw in lines(handle, path):
            if not raw.strip():
                continue
            if not header and _kind_of_line(raw) != "graphmem":  # the header comes first: stop at once
                raise ImportFailed(f"{path}:{number}: not a graphmem log (its first line is not the graphmem header)")
            try:
                kind, record = _record(raw)
            except ValueError as exc:
                if on_bad_line is None or _kind_of_line(raw) == "graphmem":
                    raise ImportFailed(f"{path}:{number}: {exc}") from exc
                on_bad_line(f"{path}:{number}: {exc}")
                continue
            if kind == "graphmem":
                assert isinstance(record, dict)  # _record returns the header as read
                header = record
            else:
                found[kind].append(record)
    if header.get("format") not in FORMATS:
        if header.get("format") is not None:
            raise ImportFailed(f"{path} is a graphmem log of format {header.get('format')!r}, which this "
                               f"version cannot read (it reads formats {', '.join(map(str, FORMATS))})")
        raise ImportFailed(f"{path} is not a graphmem log (its graphmem header is missing)")
    return header, found


def _loads(text: bytes | str) -> Any:
    """A log line's JSON; ValueError (never RecursionError) for arrays or objects nested too deeply."""
    try:
        return json_lines.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # nested too deeply, a number of more digits than Python reads
        raise ValueError(f"not a graphmem log record ({exc})") from None


#: A JSON escape of half a UTF-16 pair ("\\ud800"): two together are one character, one alone is none.
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a text anywhere in ``value`` (a decoded JSON value) holds a lone surrogate."""
    if isinstance(value, str):
        return LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def _kind_of_line(raw: bytes) -> str | None:
    """The record type a raw log line claims, if it can be read at all."""
    try:
        data = _loads(raw)
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) else None


def _record(raw: bytes) -> tuple[str, dict[str, Any] | BaseModel]:
    """One log line as (type, validated record); ValueError says what is wrong with it."""
    try:
        data = _loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a graphmem log record (invalid JSON: {exc.msg}, column {exc.colno})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("not a graphmem log record (a JSON object with a 'type' is expected)")
    if _ESCAPED_SURROGATE.search(raw) and _has_lone_surrogate(data):
        raise ValueError("not a graphmem log record (a text holds half a character, a lone surrogate such as "
                         "\\ud800: no store can keep it)")  # the engine refused it mid-import (an attacker's)
    kind = data.pop("type")
    if kind == "graphmem":
        return kind, data
    if kind == "meta":
        check_meta(data)
        return kind, data
    if kind == "predicate":
        check_predicate_record(data)
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


def check_meta(data: dict[str, Any]) -> None:
    """Refuse a setting (``{"key", "value"}``) the store cannot take; ValueError says why."""
    if set(data) != {"key", "value"} or not all(isinstance(v, str) for v in data.values()):
        raise ValueError("meta needs a text 'key' and a text 'value'")
    if data["key"].startswith("seq:") and not SEQ_VALUE.fullmatch(data["value"]):
        raise ValueError(f"meta {data['key']} must be a number, not {data['value']!r}")
    if data["key"] == "last_write":
        parse_time(data["value"])  # InvalidTime is a ValueError


def check_predicate_record(data: dict[str, Any]) -> None:
    """Refuse a predicate declaration (``{"name", "kind"}``) that is not valid; ValueError says why."""
    if not isinstance(data.get("name"), str) or not PREDICATE_NAME.match(data["name"]):
        raise ValueError(f"predicate name {data.get('name')!r} is not a valid name")
    if data.get("kind") not in PREDICATE_KINDS:
        raise ValueError(f"predicate kind {data.get('kind')!r} is not one, many or event")


def _range_checked_fields(model: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """(name, is a time) of each field of ``model`` that holds a time or an integer, in order.

    Only these can be out of the store's range; finding them once per model, rather than
    looking at every field of every record, keeps `_check_record` cheap on a large log.
    """
    found: list[tuple[str, bool]] = []
    for name, field in model.model_fields.items():
        types = (field.annotation, *get_args(field.annotation))  # X | None: (X | None, X, None)
        if datetime in types:
            found.append((name, True))
        elif int in types:
            found.append((name, False))
    return tuple(found)


RANGE_CHECKED = {kind: _range_checked_fields(model) for kind, model in MODELS.items()}


def _check_record(kind: str, record: Any) -> None:
    """Refuse what the models accept but the store cannot hold (``record``: a model of ``kind``)."""
    if kind == "entity" and not record.id.strip():
        raise ValueError("entity id is empty")
    if kind in ("version", "proposal") and not PREDICATE_NAME.match(record.predicate):
        raise ValueError(f"{kind} predicate {record.predicate!r} is not a valid name")
    pattern = ID_PATTERN.get(kind)
    if pattern and not pattern.fullmatch(record.id):
        raise ValueError(f"{kind} id {record.id!r} is not of the form {ID_PREFIX[kind]}<number>")
    for name, is_time in RANGE_CHECKED[kind]:
        value = getattr(record, name)
        if value is None:
            continue
        if is_time:
            if value.tzinfo is None:
                raise ValueError(f"{kind} {name}: time {value.isoformat()} has no zone "
                                 "(logs carry UTC times ending in Z)")
            if not in_range(value):
                raise ValueError(f"{kind} {name}: time {iso(value)} is out of range "
                                 "(years 1 to 9998)")
        elif not 0 <= value < 2**63:
            raise ValueError(f"{kind} {name}: {value} is out of range")


def refuse_large(path: Path, size: int, large: bool) -> None:
    """ImportFailed for a log of ``size`` bytes over :data:`graphmem.core.json_lines.SMALL_LOG`,
    unless ``large``: a log is held whole while it is checked, so its size is memory."""
    if size > json_lines.SMALL_LOG and not large:
        raise ImportFailed(f"{path} is {size:,} bytes, over the {json_lines.SMALL_LOG:,} an import reads "
                           "unless asked (it is held in memory while checked, about ten times its size); "
                           "import it with --large (import_log(..., large=True)) if you trust it")


def import_log(engine: Engine, path: Path, zone: str, progress: Progress | None = None,
               on_bad_line: BadLine | None = None, *, allow_future: bool = False, large: bool = False) -> int:
    """Restore an exported log into the store behind ``engine`` (which reads naive times in
    ``zone``) in one transaction; return the records imported.

    With ``on_bad_line``, unreadable lines are skipped (each reported to it) and the rest is
    imported only if it still forms a sound log; otherwise nothing is written. A log whose latest
    write is more than a day past the wall clock is refused unless ``allow_future``.
    """
    with collector_paused():
        header, found = read_log(path, on_bad_line, large)
        meta = {m["key"]: m["value"] for m in found["meta"]}
        with engine.lock:  # what the log is checked against is what it is loaded into
            stored = _stored(engine)
            _refuse_conflicts(stored, zone, header, meta, found)
            _refuse_unsound(stored, path, found)
            declared = {p["name"]: p["kind"] for p in found["predicate"]}
            for name, kind in declared.items():
                _refuse_redeclaring(engine, stored.declared, name, kind)
            settings = _merged_meta(meta, stored.settings, _highest_ids(found), _latest(found))
            refuse_future(settings, allow_future)
            _load(engine, engine.directory, declared, settings, _tables(found), progress)
    return sum(len(items) for kind, items in found.items() if kind != "meta")  # as export_log counts


def _load(engine: Engine, directory: Path | None, declared: dict[str, str], settings: dict[str, str],
          tables: dict[str, pa.Table], progress: Progress | None = None) -> None:
    """Write checked records (Arrow tables by engine table, in load order) and the settings they
    bring: the records in one transaction, then the settings (hold ``engine.lock``).

    kuzu can keep the other writes of a transaction holding a COPY and lose the copied rows
    when a kill lands in its COMMIT (seen here: an "empty" store whose counters had moved on).
    So the COPYs commit alone, the settings (declared predicates, counters, latest write) commit
    after them, and a marker written first in the store's ``directory`` lets the next open finish
    the settings (:func:`finish_import`) if a crash falls between the two.
    """
    marker = _mark_pending(directory, declared, settings, _probes(tables))
    try:
        with engine.bulk_load(), engine.transaction():
            for table, rows in tables.items():  # nothing may fail after a COPY (see engine.py)
                if rows.num_rows:
                    engine.run_text(f"COPY {table} FROM $rows", {"rows": _in_copy_order(table, rows, tables)})
                if progress:
                    progress(rows.num_rows)
    except BaseException:  # undone: nothing for the next open to finish
        if marker is not None:
            marker.unlink()
        raise
    _apply_settings(engine, declared, settings)
    if marker is not None:
        marker.unlink()


IMPORT_PENDING = "import.pending"


def _in_copy_order(name: str, rows: pa.Table, tables: dict[str, pa.Table]) -> pa.Table:
    """A relationship table's rows in the order of their source nodes' places, for its COPY
    (other tables' rows as they are).

    The engines build a relationship table's adjacency (CSR) per source node; rows that arrive
    grouped by source, in the order the nodes were stored, cost kuzu ~0.5 CPU-s less for the 1M
    edges of a 1M-version import. A source's place is its row in the nodes copied in the same load
    (``tables[ENDS]``, stored after the nodes already there, in order); a source already stored
    goes first. The stored rows are the same either way: only their order on disk differs.
    """
    table = by_name(name)
    nodes = tables.get(ENDS)
    if table.ends is None or rows.num_rows < 2 or nodes is None or not nodes.num_rows:
        return rows
    import numpy as np
    import pyarrow.compute as pc

    places = pc.fill_null(pc.index_in(rows.column(table.ends[0].name), nodes.column("id")), -1)
    order = np.argsort(places.to_numpy(), kind="stable")
    return rows.take(order)


def _refuse_redeclaring(engine: Engine, declared: dict[str, str], name: str, kind: str) -> None:
    """What ``Store.declare`` refuses, checked before anything of the import is written
    (``declared``: the predicates the store declares now)."""
    current = {**DEFAULT_PREDICATES, **declared}.get(name, "many")
    try:
        refuse_predicate_kind_change(name, current, kind, questions.predicate_in_use(engine, name))
    except InvalidPredicate as exc:
        raise ImportFailed(f"the log declares {name} as {kind!r}, but {exc}; nothing was written") from exc


def _probes(tables: dict[str, pa.Table]) -> list[tuple[str, str]]:
    """(table, id) of the first record of the first and the last table copied: whether the
    records landed is read from these after a crash."""
    filled = [(name, rows.column("id")[0].as_py()) for name, rows in tables.items()
              if rows.num_rows and "id" in rows.column_names and name != "Fact"]
    return [filled[0], filled[-1]] if filled else []


def _mark_pending(directory: Path | None, declared: dict[str, str], settings: dict[str, str],
                  probes: list[tuple[str, str]]) -> Path | None:
    """Write (durably) what the import's second transaction will write, before the first."""
    if directory is None or not probes:
        return None
    marker = directory / IMPORT_PENDING
    with marker.open("w", encoding="utf-8") as out:
        json.dump({"declared": declared, "settings": settings, "probes": probes}, out)
        out.flush()
        os.fsync(out.fileno())
    return marker


def _apply_settings(engine: Engine, declared: dict[str, str], settings: dict[str, str]) -> None:
    """The import's second transaction (safe to run again)."""
    with engine.transaction():
        for name, kind in declared.items():
            engine.run("store/predicate_set", {"name": name, "kind": kind})
        for key, value in sorted(settings.items()):
            engine.run("store/meta_set", {"key": key, "value": value})


def finish_import(engine: Engine) -> None:
    """Finish an import a crash interrupted between its two transactions (called on open)."""
    marker = None if engine.directory is None else engine.directory / IMPORT_PENDING
    if marker is None or not marker.exists():
        return
    pending = json.loads(marker.read_text(encoding="utf-8"))
    landed = [bool(engine.run_text(f"MATCH (n:{table} {{id: $id}}) RETURN n.id", {"id": record_id}))
              for table, record_id in pending["probes"]]
    if all(landed):
        _apply_settings(engine, pending["declared"], pending["settings"])
    elif any(landed):  # never seen: the records' COPYs commit together or not at all
        warnings.warn(f"store {engine.directory}: an import interrupted by a crash left part of its records; "
                      "restore a backup, or export the store and check it", RuntimeWarning, stacklevel=3)
        return
    marker.unlink()


def _merged_meta(meta: dict[str, str], current: dict[str, str], highest: dict[str, int],
                 latest: datetime | None) -> dict[str, str]:
    """The log's settings, with counters and the latest write never behind either side's records.

    ``highest`` is the highest id number of the log's records by id prefix, ``latest`` the time
    of its latest write (None without writes).
    """
    merged = {key: value for key, value in meta.items() if key != "timezone" and not _layout(key)}
    for prefix in ID_PREFIX.values():
        key = f"seq:{prefix}"
        top = max(highest.get(prefix, 0), int(meta.get(key, "0")), int(current.get(key, "0")))
        if top:
            merged[key] = str(top)
    times = [latest] if latest is not None else []
    times += [parse_time(v) for v in (meta.get("last_write"), current.get("last_write")) if v]
    if times:
        merged["last_write"] = iso(max(times))
    return merged


def refuse_future(settings: dict[str, str], allow_future: bool) -> None:
    """Refuse settings whose latest write is more than a day past the wall clock (the store could
    take no write before it again), unless ``allow_future``."""
    latest = settings.get("last_write")
    now = None if allow_future or not latest else too_far_ahead(parse_time(latest))
    if now is not None:
        raise ImportFailed(f"the log's latest write ({latest}) is more than a day past the wall clock "
                           f"({iso(now)}); the store could take no write before it again; allow a future "
                           "transaction time explicitly (--allow-future, allow_future=True) if it is meant")


def _highest_ids(found: dict[str, list[Any]]) -> dict[str, int]:
    """The highest id number of the records of each kind, by id prefix."""
    return {prefix: max((int(item.id[len(prefix):]) for item in found[kind]), default=0)
            for kind, prefix in ID_PREFIX.items()}


def _latest(found: dict[str, list[Any]]) -> datetime | None:
    """The time of the log's latest write (None without writes)."""
    return max((d.at for d in found["decision"]), default=None)


def _refuse_unsound(stored: _Stored, path: Path, found: dict[str, list[Any]]) -> None:
    """Refuse a log whose records, with the store's own, break an invariant `check` verifies;
    the refusal names the file and line of the first record at fault."""
    both = {kind: [*stored.records[kind], *found[kind]] for kind in MODELS}
    decisions = sorted(both["decision"], key=lambda d: d.at)
    predicates = {**DEFAULT_PREDICATES, **stored.declared, **{p["name"]: p["kind"] for p in found["predicate"]}}
    problems = check(both["version"], decisions, both["episode"], both["tombstone"], predicates, both["link"],
                     both["proposal"], both["entity"])
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        line = _line_of_record(path, first.record) if first.record else None
        where = f"{path}:{line}: " if line else ""
        raise ImportFailed(f"{where}the log is not sound: {first.rule}: {first.detail}{more}; "
                           "nothing was written")


def _line_of_record(path: Path, record: str) -> int | None:
    """The line of ``path`` holding ``record`` ("version v3"), found again on the error path only."""
    kind, _, key = record.partition(" ")
    field = "name" if kind == "predicate" else "id"
    first = key.partition("/")[0]  # a link's key is version/episode
    quick = {json.dumps(first, ensure_ascii=ascii)[1:-1].encode() for ascii in (False, True)}
    with open_regular(path) as handle:
        for number, raw in lines(handle, path):
            if not any(q in raw for q in quick):  # a quick filter: the key as an export writes it
                continue
            try:
                data = _loads(raw)
            except ValueError:
                continue
            if not isinstance(data, dict) or data.get("type") != kind:
                continue
            own = f"{data.get('version')}/{data.get('episode')}" if kind == "link" else data.get(field)
            if own == key:
                return number
    return None


def _refuse_conflicts(stored: _Stored, zone: str, header: dict[str, Any], meta: dict[str, str],
                      found: dict[str, list[Any]]) -> None:
    if header.get("timezone", "UTC") != zone:
        raise ImportFailed(f"the log reads naive times in {header.get('timezone', 'UTC')}, this store in {zone}")
    latest = stored.latest_write
    if latest is not None and found["decision"]:
        first = min(d.at for d in found["decision"])
        if first <= latest:
            raise ImportFailed(
                f"the log's first write ({iso(first)}) is not after this store's latest write "
                f"({iso(latest)}); import into a new store"
            )
    existing = {kind: {item.id for item in items} for kind, items in stored.records.items()}
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


def _tables(found: dict[str, list[Any]]) -> dict[str, pa.Table]:
    """Arrow tables of the records, one per engine table that holds them, in load order."""
    return {table.name: table.arrow(found[table.record]) for table in TABLES if table.record}
