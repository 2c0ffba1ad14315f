"""The floor: the same questions hand-written against the raw engine, no graphmem layer.

Same schema as graphmem (its schema files), same data; the answers come back as
the engine's own Python values (naive UTC datetimes, the open-end sentinel).
"""

from __future__ import annotations

import importlib
import importlib.util  # noqa: F401  (kuzu 0.11 needs it imported)
import warnings
from pathlib import Path

import networkx as nx
import pyarrow as pa

from graphmem.engine.statements import QUERIES

from .model import believed, canon_diff, canon_graph, canon_versions, from_micros, micros, newest_first, read_log

OPEN_END = "9999-12-31T00:00:00"
VERSION_COLUMNS = (
    "s.id AS subject_id, s.name AS subject, f.predicate AS predicate, o.id AS object_id, "
    "o.name AS object, f.id AS id, f.valid_from AS valid_from, f.valid_to AS valid_to, "
    "f.recorded_at AS recorded_at, f.superseded_at AS superseded_at, b.episodes AS episodes, "
    "b.supersedes AS supersedes, b.superseded_by AS superseded_by, b.created_by AS created_by, "
    "b.closed_by AS closed_by, b.reason AS reason"
)
# graphmem's layout: the edge carries the periods, its FactBody (keyed by version id) the rest.
BODY = "MATCH (b:FactBody {id: f.id})"
BELIEFS = f"""
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.recorded_at <= $as_of AND f.superseded_at > $as_of AND f.valid_from <= $valid_at AND f.valid_to > $valid_at
{BODY}
RETURN {VERSION_COLUMNS}, s.kind AS subject_kind, o.kind AS object_kind
"""
# Anchored on the subject's key; sorted in Python.
HISTORY = f"""
MATCH (s:Entity {{id: $subject}})-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate
{BODY}
RETURN {VERSION_COLUMNS}
"""
# A version by id through the schema's FactBody, keyed by version id (relationship properties have no index).
SUBJECT_OF = "MATCH (k:FactBody {id: $id}) RETURN k.subject"
BY_ID = f"""
MATCH (s:Entity {{id: $subject}})-[f:Fact]->(o:Entity)
WHERE f.id = $id
{BODY}
RETURN {VERSION_COLUMNS}
"""
BY_IDS = f"""
UNWIND $ids AS i
MATCH (b:FactBody {{id: i}})
MATCH (s:Entity {{id: b.subject}})-[f:Fact]->(o:Entity)
WHERE f.id = i
RETURN {VERSION_COLUMNS}
"""
MOST_CHANGED = """
MATCH (s:Entity)-[f:Fact]->()
RETURN s.id, f.predicate, count(*) AS n ORDER BY n DESC, s.id, f.predicate LIMIT $limit
"""
DECISIONS = """
MATCH (d:Decision) WHERE d.at > $after AND d.at <= $until
RETURN d.id, d.op, d.created, d.closed ORDER BY d.at
"""
COUNT_AT = """
MATCH ()-[f:Fact]->()
WHERE f.recorded_at <= $at AND f.superseded_at > $at AND f.valid_from <= $at AND f.valid_to > $at
RETURN count(*)
"""
CHANGE_OF_OP = {"ADD": "added", "UPDATE": "updated", "END": "ended", "RETRACT": "retracted",
                "CORRECT": "corrected", "SEGMENT": "segmented"}


def naive(value: int):
    return from_micros(value).replace(tzinfo=None)


class RawPeer:
    """Hand-written Cypher on one engine module, one database on disk."""

    name = "raw"

    def __init__(self, engine: str, workdir: Path):
        self.module = importlib.import_module(engine)
        self.workdir = workdir
        self.loads = 0
        self.db = self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.db.close()
            self.db = self.conn = None

    def prepared(self, query: str):
        """kuzu runs prepared statements faster (graphmem prepares too); ladybug runs text faster."""
        if self.module.__name__ != "kuzu":
            return query
        if query not in self.statements:
            with warnings.catch_warnings():  # kuzu 0.11 marks prepare deprecated; it is still faster
                warnings.simplefilter("ignore", DeprecationWarning)
                self.statements[query] = self.conn.prepare(query)
        return self.statements[query]

    def rows(self, query: str, params: dict) -> list[list]:
        result = self.conn.execute(self.prepared(query), params)
        found = []
        while result.has_next():
            found.append(result.get_next())
        return found

    def table(self, query: str, params: dict) -> pa.Table:
        return self.conn.execute(self.prepared(query), params).get_as_arrow()

    def load(self, log: Path) -> None:
        """W2 floor: parse the log with json, build Arrow tables, COPY each."""
        self.close()
        self.loads += 1
        self.db = self.module.Database(str(self.workdir / f"raw{self.loads}.db"))
        self.conn = self.module.Connection(self.db)
        self.statements = {}
        for name in sorted(n for n in QUERIES if n.startswith("schema/")):
            self.conn.execute(QUERIES[name])
        records = read_log(log)
        for table, rows in arrow_tables(records).items():
            if rows.num_rows:
                self.conn.execute(f"COPY {table} FROM $rows", {"rows": rows})

    def T1(self, p):
        return self.table(BELIEFS, {"as_of": naive(p["as_of"]), "valid_at": naive(p["valid_at"])}).to_pylist()

    def T2(self, p):
        rows = self.T1(p)
        graph = nx.MultiDiGraph()
        for r in rows:
            graph.add_node(r["subject_id"], name=r["subject"], kind=r["subject_kind"])
            graph.add_node(r["object_id"], name=r["object"], kind=r["object_kind"])
        graph.add_edges_from((r["subject_id"], r["object_id"], r["id"], r) for r in rows)
        return graph

    def K1(self, p):
        return [sorted(self.rows(HISTORY, {"subject": s, "predicate": pr}), key=_newest, reverse=True)
                for _, s, pr in p["keys"]]

    def K2(self, p):
        return [[self.by_id(v) for v in self.by_id(vid)[11]] for vid in p["ids"]]

    def by_id(self, vid: str) -> list:
        """One version by id: its subject from FactBody, then that subject's edges."""
        ((subject,),) = self.rows(SUBJECT_OF, {"id": vid})
        (row,) = self.rows(BY_ID, {"subject": subject, "id": vid})
        return row

    def K3(self, p):
        return self.rows(MOST_CHANGED, {"limit": p["limit"]})

    def R1(self, p):
        writes = self.rows(DECISIONS, {"after": naive(p["after"]), "until": naive(p["until"])})
        ids = sorted({vid for _, _, created, closed in writes for vid in created + closed})
        by_id = {r[5]: r for r in self.rows(BY_IDS, {"ids": ids})} if ids else {}
        changes = []
        for decision, op, created, closed in writes:
            if op not in CHANGE_OF_OP:
                continue
            changes += [(decision, CHANGE_OF_OP[op], "stopped", by_id[v]) for v in closed if v in by_id]
            changes += [(decision, CHANGE_OF_OP[op], "started", by_id[v]) for v in created if v in by_id]
        return changes

    def R2(self, p):
        return [(m, self.rows(COUNT_AT, {"at": naive(m)})[0][0]) for m in p["months"]]

    @staticmethod
    def canon(query: str, answer):
        if query == "T1":
            return canon_versions(believed(_dict_version(r)) for r in answer)
        if query == "T2":
            return canon_graph(answer.nodes, [believed(_dict_version(d)) for _, _, d in answer.edges(data=True)])
        if query == "K1":
            return [newest_first(_row_version(r) for r in h) for h in answer]
        if query == "K2":
            return [canon_versions(_row_version(r) for r in found) for found in answer]
        if query == "K3":
            return [(s, p, int(n)) for s, p, n in answer]
        if query == "R1":
            return canon_diff((d, c, b, row[5]) for d, c, b, row in answer)
        if query == "R2":
            return [(m, int(n)) for m, n in answer]
        raise KeyError(query)


def _newest(row: list) -> tuple:
    return (row[8], row[6], row[5])


def _dict_version(r: dict) -> tuple:
    return (r["id"], r["subject_id"], r["predicate"], r["object_id"], micros(r["valid_from"]),
            micros(r["valid_to"]), micros(r["recorded_at"]), micros(r["superseded_at"]))


def _row_version(r: list) -> tuple:
    return (r[5], r[0], r[2], r[3], micros(r[6]), micros(r[7]), micros(r[8]), micros(r[9]))


# -- the log as Arrow tables in graphmem's column order --------------------------------------------

_S, _L = pa.string(), pa.list_(pa.string())
_T = pa.timestamp("us")


def _times(values: list, open_end: bool = True) -> pa.Array:
    text = pa.array([v if v is not None else (OPEN_END if open_end else None) for v in values], _S)
    stamps = pa.compute.cast(pa.compute.replace_substring(text, "Z", ""), _T)
    return stamps


def _col(rows: list[dict], name: str) -> list:
    return [r[name] for r in rows]


def arrow_tables(records: dict[str, list[dict]]) -> dict[str, pa.Table]:
    """Entity, Episode, Decision, Fact and FactBody tables from the parsed log."""
    import pyarrow.compute  # noqa: F401

    e, ep, d, v = (records.get(k, []) for k in ("entity", "episode", "decision", "version"))
    return {
        "Entity": pa.table({n: pa.array(_col(e, n), _S) for n in ("id", "name", "kind")}),
        "Episode": pa.table({
            **{n: pa.array(_col(ep, n), _S) for n in ("id", "kind", "text", "actor")},
            "reference_time": _times(_col(ep, "reference_time")),
            "received_at": _times(_col(ep, "received_at")),
        }),
        "Decision": pa.table({
            "id": pa.array(_col(d, "id"), _S), "op": pa.array(_col(d, "op"), _S),
            "at": _times(_col(d, "at")), "created": pa.array(_col(d, "created"), _L),
            "closed": pa.array(_col(d, "closed"), _L),
            **{n: pa.array(_col(d, n), _S) for n in ("episode", "reason", "proposal")},
        }),
        "Fact": pa.table({
            "from": pa.array(_col(v, "subject_id"), _S), "to": pa.array(_col(v, "object_id"), _S),
            "id": pa.array(_col(v, "id"), _S), "predicate": pa.array(_col(v, "predicate"), _S),
            **{n: _times(_col(v, n)) for n in ("valid_from", "valid_to", "recorded_at", "superseded_at")},
        }),
        "FactBody": pa.table({
            "id": pa.array(_col(v, "id"), _S), "subject": pa.array(_col(v, "subject_id"), _S),
            **{n: pa.array(_col(v, n), _L) for n in ("episodes", "supersedes", "superseded_by")},
            **{n: pa.array(_col(v, n), _S) for n in ("created_by", "closed_by", "reason")},
        }),
    }
