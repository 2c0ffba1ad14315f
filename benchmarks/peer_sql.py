"""Relational peers: the usual hand-rolled bitemporal table, in SQLite (indexed) and DuckDB.

One row per version with four time columns (integer µs; open ends stored as a far
future sentinel, as graphmem does), an entity table and a decision log. Writes use
graphmem's pure gate planners (through the generator's in-memory carrier), so the
peers differ from graphmem only in how they store and fetch.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import networkx as nx

from .generate import History, Record, resume
from .model import (
    OPEN_MICROS,
    believed,
    canon_diff,
    canon_graph,
    canon_versions,
    from_micros,
    micros,
    newest_first,
    read_log,
)
from .workload import decision_tuple

COLUMNS = ("id", "subject", "predicate", "object", "valid_from", "valid_to", "recorded_at",
           "superseded_at", "episodes", "supersedes", "superseded_by", "created_by", "closed_by", "reason")
SCHEMA = """
CREATE TABLE entities (id TEXT PRIMARY KEY, name TEXT, kind TEXT);
CREATE TABLE versions (id TEXT PRIMARY KEY, subject TEXT, predicate TEXT, object TEXT,
  valid_from BIGINT, valid_to BIGINT, recorded_at BIGINT, superseded_at BIGINT,
  episodes TEXT, supersedes TEXT, superseded_by TEXT, created_by TEXT, closed_by TEXT, reason TEXT);
CREATE TABLE decisions (id TEXT PRIMARY KEY, written_at BIGINT, op TEXT, created TEXT, closed TEXT,
  episode TEXT, reason TEXT, proposal TEXT);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
"""
SQLITE_INDEXES = """
CREATE INDEX versions_key ON versions (subject, predicate);
CREATE INDEX versions_recorded ON versions (recorded_at);
CREATE INDEX versions_superseded ON versions (superseded_at);
CREATE INDEX decisions_at ON decisions (written_at);
"""
SELECT = ("SELECT v.id, v.subject, v.predicate, v.object, v.valid_from, v.valid_to, v.recorded_at, "
          "v.superseded_at, v.episodes, v.supersedes, v.superseded_by, v.created_by, v.closed_by, "
          "v.reason, s.name, o.name{extra} FROM versions v JOIN entities s ON s.id = v.subject "
          "JOIN entities o ON o.id = v.object")
ASOF = " WHERE v.recorded_at <= ? AND v.superseded_at > ? AND v.valid_from <= ? AND v.valid_to > ?"
CHANGE_OF_OP = {"ADD": "added", "UPDATE": "updated", "END": "ended", "RETRACT": "retracted",
                "CORRECT": "corrected", "SEGMENT": "segmented"}


def _t(value) -> int:
    found = micros(value)
    return OPEN_MICROS if found is None else found


def version_rows(records: list[dict]):
    for v in records:
        yield (v["id"], v["subject_id"], v["predicate"], v["object_id"], _t(v["valid_from"]),
               _t(v["valid_to"]), _t(v["recorded_at"]), _t(v["superseded_at"]),
               json.dumps(v["episodes"]), json.dumps(v["supersedes"]), json.dumps(v["superseded_by"]),
               v["created_by"], v["closed_by"], v["reason"])


def decision_rows(records: list[dict]):
    for d in records:
        yield (d["id"], _t(d["at"]), d["op"], json.dumps(d["created"]), json.dumps(d["closed"]),
               d["episode"], d["reason"], d["proposal"])


class SqlPeer:
    """Shared queries; subclasses open the database and bulk-insert."""

    name = "sql"
    param = "?"

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.loads = 0
        self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def q(self, sql: str, params=()) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    # -- queries --------------------------------------------------------------------------------

    def T1(self, p):
        t, v = p["as_of"], p["valid_at"]
        return self.q(SELECT.format(extra="") + ASOF, (t, t, v, v))

    def T2(self, p):
        t, v = p["as_of"], p["valid_at"]
        rows = self.q(SELECT.format(extra=", s.kind, o.kind") + ASOF, (t, t, v, v))
        graph = nx.MultiDiGraph()
        for r in rows:
            graph.add_node(r[1], name=r[14], kind=r[16])
            graph.add_node(r[3], name=r[15], kind=r[17])
        graph.add_edges_from((r[1], r[3], r[0], dict(zip(COLUMNS, r))) for r in rows)
        return graph

    def K1(self, p):
        sql = (SELECT.format(extra="") + " WHERE v.subject = ? AND v.predicate = ?"
               " ORDER BY v.recorded_at DESC, v.valid_from DESC, v.id DESC")
        return [self.q(sql, (s, pr)) for _, s, pr in p["keys"]]

    def K2(self, p):
        found = []
        for vid in p["ids"]:
            (previous,) = self.q("SELECT supersedes FROM versions WHERE id = ?", (vid,))[0]
            ids = json.loads(previous)
            marks = ",".join("?" * len(ids))
            found.append(self.q(SELECT.format(extra="") + f" WHERE v.id IN ({marks})", ids) if ids else [])
        return found

    def K3(self, p):
        return self.q("SELECT subject, predicate, count(*) AS n FROM versions GROUP BY subject, predicate"
                      " ORDER BY n DESC, subject, predicate LIMIT ?", (p["limit"],))

    def R1(self, p):
        writes = self.q("SELECT id, op, created, closed FROM decisions WHERE written_at > ? AND written_at <= ?"
                        " ORDER BY written_at",
                        (p["after"], p["until"]))
        writes = [(d, op, json.loads(c), json.loads(x)) for d, op, c, x in writes]
        ids = sorted({v for _, _, created, closed in writes for v in created + closed})
        by_id = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            by_id.update((r[0], r) for r in self.q(SELECT.format(extra="") + f" WHERE v.id IN ({marks})", chunk))
        changes = []
        for decision, op, created, closed in writes:
            if op in CHANGE_OF_OP:
                changes += [(decision, CHANGE_OF_OP[op], "stopped", by_id[v]) for v in closed if v in by_id]
                changes += [(decision, CHANGE_OF_OP[op], "started", by_id[v]) for v in created if v in by_id]
        return changes

    def R2(self, p):
        sql = ("SELECT count(*) FROM versions WHERE recorded_at <= ? AND superseded_at > ?"
               " AND valid_from <= ? AND valid_to > ?")
        return [(m, self.q(sql, (m, m, m, m))[0][0]) for m in p["months"]]

    # -- W1: the gate over SQL --------------------------------------------------------------------

    def checkpoint(self):
        self.conn.execute(self.CHECKPOINT)

    def W1(self, batch):
        history = self._history_for(batch)
        before = len(history.decisions)
        at = batch["at"]
        for i, (s, p, o, vf, vt) in enumerate(batch["asserts"]):
            history.add(s, p, o, from_micros(vf), from_micros(vt), from_micros(at + i))
        made = history.decisions[before:]
        closed = {vid for d in made for vid in d["closed"]}
        created = {vid for d in made for vid in d["created"]}
        self._store(history, made, closed - created, created)
        return made

    def _history_for(self, batch) -> History:
        names = sorted({s for s, *_ in batch["asserts"]} | {o for _, _, o, _, _ in batch["asserts"]})
        keys = sorted({k.casefold() for k in names})
        marks = ",".join("?" * len(keys))
        history = History(seed=0)
        meta = dict(self.q("SELECT key, value FROM meta"))
        for key in history.seq:
            history.seq[key] = int(meta.get(f"seq:{key}", "0"))
        history.entities = {i: (n, k) for i, n, k in
                            self.q(f"SELECT id, name, kind FROM entities WHERE id IN ({marks})", keys)}
        self.known_entities = set(history.entities)
        rows = self.q("SELECT id, subject, predicate, object, valid_from, valid_to, recorded_at, created_by,"
                      f" episodes, supersedes FROM versions WHERE superseded_at = ? AND subject IN ({marks})",
                      [OPEN_MICROS, *keys])
        from graphmem.core.gate import Held
        from graphmem.core.temporal import Period

        for vid, s, p, o, vf, vt, rec, by, eps, sup in rows:
            record = Record(vid, s, p, o, from_micros(vf), from_micros(None if vt == OPEN_MICROS else vt),
                            from_micros(rec), by, json.loads(eps), json.loads(sup))
            history.versions[vid] = record
            history.believed.setdefault((s, p), []).append(
                Held(vid, o, Period(record.valid_from, record.valid_to), tuple(record.episodes)))
        return history

    def _store(self, history: History, made, closed, created) -> None:
        versions = history.versions
        closes = [(_t(versions[v].superseded_at), json.dumps(versions[v].superseded_by), versions[v].closed_by,
                   versions[v].reason, v) for v in sorted(closed)]
        inserts = [(r.id, r.subject, r.predicate, r.object, _t(r.valid_from), _t(r.valid_to),
                    _t(r.recorded_at), _t(r.superseded_at), json.dumps(r.episodes), json.dumps(r.supersedes),
                    json.dumps(r.superseded_by), r.created_by, r.closed_by, r.reason)
                   for r in (versions[v] for v in sorted(created, key=lambda i: int(i[1:])))]
        decisions = [(d["id"], _t(d["at"]), d["op"], json.dumps(d["created"]), json.dumps(d["closed"]),
                      d["episode"], d["reason"], d["proposal"]) for d in made]
        entities = [(i, n, k) for i, (n, k) in history.entities.items() if i not in self.known_entities]
        meta = [(f"seq:{k}", str(v)) for k, v in history.seq.items()]
        self.write(closes, inserts, decisions, entities, meta)

    @staticmethod
    def canon(query: str, answer):
        def version(r):
            return (r[0], r[1], r[2], r[3], micros(r[4]), micros(r[5]), micros(r[6]), micros(r[7]))

        if query == "T1":
            return canon_versions(believed(version(r)) for r in answer)
        if query == "T2":
            edges = [believed(version([d[c] for c in COLUMNS])) for _, _, d in answer.edges(data=True)]
            return canon_graph(answer.nodes, edges)
        if query == "K1":
            return [newest_first(version(r) for r in h) for h in answer]
        if query == "K2":
            return [canon_versions(version(r) for r in found) for found in answer]
        if query == "K3":
            return [(s, p, int(n)) for s, p, n in answer]
        if query == "R1":
            return canon_diff((d, c, b, row[0]) for d, c, b, row in answer)
        if query == "R2":
            return [(m, int(n)) for m, n in answer]
        if query == "W1":
            return [decision_tuple(d["op"], micros(d["at"]), d["created"], d["closed"]) for d in answer]
        raise KeyError(query)


class SqlitePeer(SqlPeer):
    """SQLite on disk with the usual indexes (key, both transaction-time columns, decision time)."""

    name = "sqlite"
    CHECKPOINT = "PRAGMA wal_checkpoint(TRUNCATE)"

    def load(self, log: Path) -> None:
        self.close()
        self.loads += 1
        self.conn = sqlite3.connect(self.workdir / f"sqlite{self.loads}.db", isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)
        records = read_log(log)
        self.conn.execute("BEGIN")
        self.conn.executemany("INSERT INTO entities VALUES (?, ?, ?)",
                              ((e["id"], e["name"], e["kind"]) for e in records.get("entity", [])))
        self.conn.executemany("INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              version_rows(records.get("version", [])))
        self.conn.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                              decision_rows(records.get("decision", [])))
        self.conn.executemany("INSERT INTO meta VALUES (?, ?)",
                              ((m["key"], m["value"]) for m in records.get("meta", [])))
        self.conn.execute("COMMIT")
        self.conn.executescript(SQLITE_INDEXES)
        self.conn.execute("ANALYZE")

    def write(self, closes, inserts, decisions, entities, meta) -> None:
        self.conn.execute("BEGIN")
        self.conn.executemany("UPDATE versions SET superseded_at = ?, superseded_by = ?, closed_by = ?,"
                              " reason = ? WHERE id = ?", closes)
        self.conn.executemany("INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", inserts)
        self.conn.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", decisions)
        self.conn.executemany("INSERT INTO entities VALUES (?, ?, ?)", entities)
        self.conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta)
        self.conn.execute("COMMIT")


class DuckdbPeer(SqlPeer):
    """DuckDB on disk, loaded from Arrow tables; no secondary indexes (zone maps only)."""

    name = "duckdb"
    CHECKPOINT = "CHECKPOINT"

    def load(self, log: Path) -> None:
        import duckdb

        self.close()
        self.loads += 1
        self.conn = duckdb.connect(str(self.workdir / f"duck{self.loads}.db"))
        self.conn.execute(SCHEMA)
        records = read_log(log)
        tables = {
            "entities": [(e["id"], e["name"], e["kind"]) for e in records.get("entity", [])],
            "versions": list(version_rows(records.get("version", []))),
            "decisions": list(decision_rows(records.get("decision", []))),
            "meta": [(m["key"], m["value"]) for m in records.get("meta", [])],
        }
        for name, rows in tables.items():
            self._insert(name, rows)

    def _insert(self, name: str, rows: list[tuple]) -> None:
        import pyarrow as pa

        if not rows:
            return
        columns = [c[0] for c in self.conn.execute(f"DESCRIBE {name}").fetchall()]
        data = pa.table({c: [r[i] for r in rows] for i, c in enumerate(columns)})  # noqa: F841
        self.conn.execute(f"INSERT INTO {name} SELECT * FROM data")

    def write(self, closes, inserts, decisions, entities, meta) -> None:
        import pyarrow as pa

        self.conn.execute("BEGIN TRANSACTION")
        if closes:
            updates = pa.table({  # noqa: F841
                "superseded_at": [c[0] for c in closes], "superseded_by": [c[1] for c in closes],
                "closed_by": [c[2] for c in closes], "reason": pa.array([c[3] for c in closes], pa.string()),
                "id": [c[4] for c in closes],
            })
            self.conn.execute("UPDATE versions SET superseded_at = u.superseded_at, superseded_by = "
                              "u.superseded_by, closed_by = u.closed_by, reason = u.reason "
                              "FROM updates u WHERE versions.id = u.id")
        for name, rows in (("versions", inserts), ("decisions", decisions), ("entities", entities)):
            self._insert(name, rows)
        self.conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta)
        self.conn.execute("COMMIT")


__all__ = ["DuckdbPeer", "SqlitePeer", "resume"]
