"""Physical layouts for a bitemporal fact store on kuzu 0.11 / ladybug 0.22.

Standalone (imports neither graphmem nor anything but numpy/pyarrow and the engine), so it
doubles as a minimal reproduction for the engine's authors.

    python benchmarks/fact_layout.py --engines kuzu,ladybug --layouts A,B,C-both,C-fwd,D,E,F \
        --versions 1000000 --repeats 2

The driver never imports an engine: it generates the synthetic data once (cached as Parquet
under --workdir) and runs every (engine, layout) in its own subprocess (kuzu and ladybug cannot
share a process). Per repeat, one `load+read` worker loads a fresh on-disk store and measures
the reads; a second `write` worker reopens it and measures the close-and-create transaction,
CHECKPOINT and close, under a hard timeout (--write-timeout, default 300 s). Layout order is
reversed on odd repeats. Every step records wall and CPU (process_time covers all threads of
the worker). Results: one JSON per (engine, layout, versions) in --out.

Layouts (Entity(id PK, name, kind) everywhere; VersionKey keyed by version id):
  A       today's: wide Fact rel (all 13 properties), VersionKey(id, subject); both directions
  B       A with the rel stored forward only (WITH (storage_direction='fwd'))
  C-both  narrow Fact(id, predicate, 4 times); payload + subject on VersionKey; both directions
  C-fwd   C, forward only
  D       C-fwd with INT64 microsecond times
  E       C-fwd with the mutable closing columns (superseded_at, superseded_by, closed_by) on
          VersionKey: the Fact rel is immutable, a close never updates it
  F       reified: every fact column on the VersionKey node (incl. subject/object ids);
          property-less rels S(Entity->VersionKey) and O(VersionKey->Entity), forward only
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

N_ENTITIES = 60_000
PREDICATES = [
    "works_at",
    "lives_in",
    "knows",
    "owns",
    "likes",
    "manages",
    "member_of",
    "located_in",
    "part_of",
    "reports_to",
]
KINDS = ["person", "org", "place", "thing", "event"]
T0 = dt.datetime(2021, 1, 1)
SPAN_US = 4 * 365 * 86_400 * 1_000_000
OPEN = dt.datetime(9999, 12, 31)
EPOCH = dt.datetime(1970, 1, 1)
OPEN_US = int((OPEN - EPOCH).total_seconds()) * 1_000_000
T0_US = int((T0 - EPOCH).total_seconds()) * 1_000_000
T_ASOF = T0 + dt.timedelta(microseconds=int(SPAN_US * 0.75))
V_ASOF = T0 + dt.timedelta(microseconds=int(SPAN_US * 0.50))
N_WRITE = 3_000
N_GATE = 1_000

LAYOUTS = ["A", "B", "C-both", "C-fwd", "D", "E", "F"]
PAYLOAD = ["episodes", "supersedes", "superseded_by", "created_by", "closed_by", "reason"]
TIMES = ["valid_from", "valid_to", "recorded_at", "superseded_at"]


# ----------------------------------------------------------------------------- data
def generate(n: int, workdir: Path) -> Path:
    d = workdir / f"data_{n}"
    if (d / "done").exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261202)
    eids = np.array([f"e{i}" for i in range(N_ENTITIES)], dtype=object)
    ent = pa.table(
        {
            "id": pa.array(eids, pa.string()),
            "name": pa.array([f"name {i}" for i in range(N_ENTITIES)], pa.string()),
            "kind": pa.array(np.array(KINDS, dtype=object)[rng.integers(0, len(KINDS), N_ENTITIES)], pa.string()),
        }
    )
    # subjects skewed (Zipf-like, s=0.7: the top few entities have thousands of versions)
    w = 1.0 / np.arange(1, N_ENTITIES + 1) ** 0.7
    w /= w.sum()
    perm = rng.permutation(N_ENTITIES)
    subj = perm[rng.choice(N_ENTITIES, size=n, p=w)]
    obj = rng.integers(0, N_ENTITIES, n)
    pred = np.array(PREDICATES, dtype=object)[rng.integers(0, len(PREDICATES), n)]
    rec = T0_US + np.sort(rng.integers(0, SPAN_US, n))  # versions in recording order
    vfrom = rec - rng.integers(0, 365 * 86_400 * 1_000_000, n)
    vclosed = rng.random(n) < 0.2
    vto = np.where(vclosed, vfrom + rng.integers(86_400 * 10**6, 2 * 365 * 86_400 * 10**6, n), OPEN_US)
    closed = rng.random(n) < 0.30
    sup_at = np.where(closed, rec + ((T0_US + SPAN_US - rec) * rng.random(n)).astype(np.int64), OPEN_US)
    ids = np.array([f"v{i}" for i in range(1, n + 1)], dtype=object)
    sup_by = [[f"v{rng.integers(1, n + 1)}"] if c else [] for c in closed]
    has_ep = rng.random(n) < 0.9
    ep_n = rng.integers(0, 200_000, n)
    episodes = [[f"ep{e}"] if h else [] for h, e in zip(has_ep, ep_n)]
    has_sup = rng.random(n) < 0.3
    supersedes = [[f"v{rng.integers(1, n + 1)}"] if h else [] for h in has_sup]
    dec = rng.integers(0, 100_000, n)
    created_by = pa.array([f"d{x}" for x in dec], pa.string())
    dec2 = rng.integers(0, 100_000, n)
    closed_by = pa.array([f"d{x}" if c else None for x, c in zip(dec2, closed)], pa.string())
    has_reason = rng.random(n) < 0.05
    reason = pa.array(["corrected by user" if h else None for h in has_reason], pa.string())
    ts = pa.timestamp("us")
    facts = pa.table(
        {
            "subject": pa.array(eids[subj], pa.string()),
            "object": pa.array(eids[obj], pa.string()),
            "id": pa.array(ids, pa.string()),
            "predicate": pa.array(pred, pa.string()),
            "valid_from": pa.array(vfrom, ts),
            "valid_to": pa.array(vto, ts),
            "recorded_at": pa.array(rec, ts),
            "superseded_at": pa.array(sup_at, ts),
            "episodes": pa.array(episodes, pa.list_(pa.string())),
            "supersedes": pa.array(supersedes, pa.list_(pa.string())),
            "superseded_by": pa.array(sup_by, pa.list_(pa.string())),
            "created_by": created_by,
            "closed_by": closed_by,
            "reason": reason,
        }
    )
    pq.write_table(ent, d / "entities.parquet")
    pq.write_table(facts, d / "facts.parquet")
    # workload inputs, fixed for every layout
    gate_subj = rng.choice(N_ENTITIES, N_GATE, replace=False)
    gate = pa.table(
        {
            "subject": pa.array(eids[gate_subj], pa.string()),
            "wanted": pa.array(
                np.array(PREDICATES, dtype=object)[rng.integers(0, len(PREDICATES), N_GATE)], pa.string()
            ),
        }
    )
    pq.write_table(gate, d / "gate.parquet")
    open_idx = np.flatnonzero(~closed)
    to_close = np.sort(rng.choice(open_idx, N_WRITE, replace=False))
    pq.write_table(pa.table({"idx": pa.array(to_close, pa.int64())}), d / "close.parquet")
    (d / "done").write_text("ok")
    return d


# ----------------------------------------------------------------------------- layouts
def spec(layout: str) -> dict:
    s = {
        "name": layout,
        "fwd": layout in ("B", "C-fwd", "D", "E", "F"),
        "int_times": layout == "D",
        "reified": layout == "F",
    }
    if layout in ("A", "B"):
        s["edge"] = ["id", "predicate"] + TIMES + PAYLOAD
        s["node"] = ["subject"]
    elif layout in ("C-both", "C-fwd", "D"):
        s["edge"] = ["id", "predicate"] + TIMES
        s["node"] = ["subject"] + PAYLOAD
    elif layout == "E":
        s["edge"] = ["id", "predicate", "valid_from", "valid_to", "recorded_at"]
        s["node"] = ["subject", "superseded_at"] + PAYLOAD
    elif layout == "F":
        s["edge"] = []
        s["node"] = ["subject", "object", "predicate"] + TIMES + PAYLOAD
    else:
        raise SystemExit(f"unknown layout {layout}")
    return s


def coltype(col: str, int_times: bool) -> str:
    if col in TIMES:
        return "INT64" if int_times else "TIMESTAMP"
    if col in ("episodes", "supersedes", "superseded_by"):
        return "STRING[]"
    return "STRING"


def ddl(s: dict) -> list[str]:
    it = s["int_times"]
    with_ = " WITH (storage_direction='fwd')" if s["fwd"] else ""
    out = [
        "CREATE NODE TABLE Entity(id STRING PRIMARY KEY, name STRING, kind STRING)",
        "CREATE NODE TABLE VersionKey(id STRING PRIMARY KEY, "
        + ", ".join(f"{c} {coltype(c, it)}" for c in s["node"])
        + ")",
    ]
    if s["reified"]:
        out.append(f"CREATE REL TABLE S(FROM Entity TO VersionKey){with_}")
        out.append(f"CREATE REL TABLE O(FROM VersionKey TO Entity){with_}")
    else:
        out.append(
            "CREATE REL TABLE Fact(FROM Entity TO Entity, "
            + ", ".join(f"{c} {coltype(c, it)}" for c in s["edge"])
            + ")"
            + with_
        )
    return out


def tval(x: dt.datetime, s: dict):
    return int((x - EPOCH).total_seconds() * 1_000_000) if s["int_times"] else x


def to_int_times(t: pa.Table) -> pa.Table:
    for c in TIMES:
        if c in t.column_names:
            t = t.set_column(t.column_names.index(c), c, t[c].cast(pa.int64()))
    return t


def where_of(s: dict) -> tuple[str, str]:
    """(who holds recorded_at/valid_*, who holds superseded_at)"""
    if s["reified"]:
        return "k", "k"
    if s["name"] == "E":
        return "f", "k"
    return "f", "f"


def edge_cols(s):
    return [f"f.{c}" for c in s["edge"]]


def node_payload(s):
    return [f"k.{c}" for c in s["node"] if c != "subject"]


# ----------------------------------------------------------------------------- worker helpers
class Clock:
    """Times steps; after each step (and on note()) rewrites a progress file, so a run killed at
    the timeout still tells which step it was in."""

    def __init__(self, progress: Path | None = None):
        self.res = {}
        self.progress = progress

    def note(self, key, value):
        self.res[key] = value
        self.flush()

    def flush(self):
        if self.progress:
            self.progress.write_text(json.dumps(self.res))

    def run(self, key, fn, *a, **kw):
        self.note("in_progress", {"step": key, "since_wall": time.time()})
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn(*a, **kw)
        self.res[key] = {"wall_s": round(time.perf_counter() - w0, 4), "cpu_s": round(time.process_time() - c0, 4)}
        self.res.pop("in_progress", None)
        self.flush()
        return out


def open_db(eng, path, args):
    kw = {}
    if args.buffer_pool_mb:
        kw["buffer_pool_size"] = args.buffer_pool_mb * 1024 * 1024
    if args.threads:
        kw["max_num_threads"] = args.threads
    db = eng.Database(str(path), **kw)
    return db, eng.Connection(db)


def arrow(res):
    return res.get_as_arrow(1_000_000)


def worker_load_read(args):
    eng = __import__(args.engine)
    s = spec(args.layout)
    d = Path(args.data)
    ent = pq.read_table(d / "entities.parquet")
    facts = pq.read_table(d / "facts.parquet")
    if s["int_times"]:
        facts = to_int_times(facts)
    path = Path(args.db)
    remove_db(path)
    ck = Clock(Path(str(args.db) + ".progress.json"))
    out = {
        "engine": args.engine,
        "engine_version": eng.__version__,
        "layout": s["name"],
        "versions": facts.num_rows,
        "ddl": ddl(s),
        "repeat": args.repeat,
        "errors": [],
    }
    db, conn = ck.run("open_new", open_db, eng, path, args)
    for q in ddl(s):
        conn.execute(q)
    # 1. load
    ck.run("copy_entity", conn.execute, "COPY Entity FROM $t", {"t": ent})
    vk = facts.select(["id"] + [c for c in s["node"]])
    ck.run("copy_versionkey", conn.execute, "COPY VersionKey FROM $t", {"t": vk})
    del vk
    if s["reified"]:
        ck.run("copy_S", conn.execute, "COPY S FROM $t", {"t": pa.table({"from": facts["subject"], "to": facts["id"]})})
        ck.run("copy_O", conn.execute, "COPY O FROM $t", {"t": pa.table({"from": facts["id"], "to": facts["object"]})})
    else:
        ft = facts.select(["subject", "object"] + s["edge"]).rename_columns(["from", "to"] + s["edge"])
        ck.run("copy_fact", conn.execute, "COPY Fact FROM $t", {"t": ft})
        del ft
    ck.run("load_checkpoint", conn.execute, "CHECKPOINT")

    def close():
        conn.close()
        db.close()

    ck.run("load_close", close)
    out["db_bytes_after_load"] = dir_bytes(path)
    del facts

    # 2. reads, on a reopened store
    db, conn = ck.run("reopen", open_db, eng, path, args)
    conn.set_query_timeout(args.query_timeout * 1000)
    T, V = tval(T_ASOF, s), tval(V_ASOF, s)
    p = {"t": T, "v": V}
    tv, ts = where_of(s)
    flt = f"{tv}.recorded_at <= $t AND {ts}.superseded_at > $t AND {tv}.valid_from <= $v AND {tv}.valid_to > $v"
    ent_ret = "s.id AS s_id, s.name AS s_name, s.kind AS s_kind, o.id AS o_id, o.name AS o_name, o.kind AS o_kind"
    queries = {}
    if s["reified"]:
        queries["asof_count"] = f"MATCH (k:VersionKey) WHERE {flt} RETURN count(*)"
        queries["asof_count_path"] = (
            f"MATCH (s:Entity)-[:S]->(k:VersionKey)-[:O]->(o:Entity) WHERE {flt} RETURN count(*)"
        )
        kcols = ", ".join(f"k.{c}" for c in ["id"] + s["node"] if c not in ("subject", "object"))
        queries["asof_full_path"] = (
            f"MATCH (s:Entity)-[:S]->(k:VersionKey)-[:O]->(o:Entity) WHERE {flt} RETURN {ent_ret}, {kcols}"
        )
        # (a PK join `MATCH (k) WHERE .. WITH k MATCH (s:Entity {id: k.subject}), (o:Entity {id: k.object})`
        # fills the buffer pool already at 20k versions on kuzu: not measured)
    else:
        base = "MATCH (s:Entity)-[f:Fact]->(o:Entity)"
        if s["name"] == "E":
            pre = f"{tv}.recorded_at <= $t AND {tv}.valid_from <= $v AND {tv}.valid_to > $v"
            queries["asof_count"] = (
                f"{base} WHERE {pre} WITH f MATCH (k:VersionKey {{id: f.id}}) "
                f"WHERE k.superseded_at > $t RETURN count(*)"
            )
        else:
            queries["asof_count"] = f"{base} WHERE {flt} RETURN count(*)"
        if s["name"] in ("A", "B"):
            queries["asof_full"] = f"{base} WHERE {flt} RETURN {ent_ret}, {', '.join(edge_cols(s))}"
        else:
            if s["name"] == "E":
                queries["asof_full_joined"] = (
                    f"{base} WHERE {pre} WITH s, f, o MATCH (k:VersionKey {{id: f.id}}) "
                    f"WHERE k.superseded_at > $t RETURN {ent_ret}, {', '.join(edge_cols(s))}, {', '.join(node_payload(s))}"
                )
            else:
                queries["asof_full_joined"] = (
                    f"{base} WHERE {flt} WITH s, f, o MATCH (k:VersionKey {{id: f.id}}) "
                    f"RETURN {ent_ret}, {', '.join(edge_cols(s))}, {', '.join(node_payload(s))}"
                )
    reads = {}
    for rep in range(args.read_repeats):
        for name, q in queries.items():
            r = run_q(ck, f"{name}#{rep}", conn, q, p, out)
            if r is not None:
                reads.setdefault(name, []).append(dict(ck.res[f"{name}#{rep}"], rows=r))
        # two-phase (payload from the node table read once as Arrow, index join in Arrow)
        if s["name"] not in ("A", "B"):
            try:
                r = two_phase(ck, f"asof_two_phase#{rep}", conn, s, p, flt, ent_ret)
                reads.setdefault("asof_two_phase", []).append(
                    dict(ck.res[f"asof_two_phase#{rep}"], rows=r["rows"], parts=r["parts"])
                )
            except Exception as e:  # noqa: BLE001
                out["errors"].append(f"asof_two_phase: {e}")
    out["reads"] = reads

    # single-entity reads, forward and backward (a backward read on a fwd-only rel)
    gate = pq.read_table(d / "gate.parquet")
    xs = gate["subject"].to_pylist()[:50]
    one = {}
    if s["reified"]:
        one["fwd_one"] = "MATCH (s:Entity {id: $x})-[:S]->(k:VersionKey)-[:O]->(o:Entity) RETURN count(*)"
        one["bwd_one"] = "MATCH (s:Entity)-[:S]->(k:VersionKey)-[:O]->(o:Entity {id: $x}) RETURN count(*)"
    else:
        one["fwd_one"] = "MATCH (s:Entity {id: $x})-[f:Fact]->(o:Entity) RETURN count(*)"
        one["bwd_one"] = "MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $x}) RETURN count(*)"
    for name, q in one.items():
        try:
            w0, c0 = time.perf_counter(), time.process_time()
            tot = 0
            for x in xs:
                tot += conn.execute(q, {"x": x}).get_next()[0]
            out.setdefault("one_entity", {})[name] = {
                "per_query_ms_wall": round((time.perf_counter() - w0) / len(xs) * 1000, 3),
                "per_query_ms_cpu": round((time.process_time() - c0) / len(xs) * 1000, 3),
                "queries": len(xs),
                "rows": tot,
            }
        except Exception as e:  # noqa: BLE001
            out["errors"].append(f"{name}: {e}")

    # 3. gate batch lookup
    out["gate"] = gate_bench(ck, conn, s, gate, out)
    conn.close()
    db.close()
    out["timings"] = ck.res
    return out


def run_q(ck, key, conn, q, p, out):
    try:

        def go():
            r = conn.execute(q, p)
            if "count(*)" in q and "RETURN count(*)" in q:
                return r.get_next()[0]
            return arrow(r).num_rows

        return ck.run(key, go)
    except Exception as e:  # noqa: BLE001
        out["errors"].append(f"{key}: {str(e)[:300]}")
        return None


def two_phase(ck, key, conn, s, p, flt, ent_ret):
    parts = {}

    def go():
        w0, c0 = time.perf_counter(), time.process_time()
        if s["reified"]:
            q = (
                f"MATCH (k:VersionKey) WHERE {flt} RETURN k.id AS id, k.subject AS subject, k.object AS object, "
                + ", ".join(f"k.{c} AS {c}" for c in s["node"] if c not in ("subject", "object"))
            )
            t = arrow(conn.execute(q, p))
            parts["query_s"] = round(time.perf_counter() - w0, 4)
            w1 = time.perf_counter()
            e = arrow(conn.execute("MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.kind AS kind", {}))
            parts["read_entities_s"] = round(time.perf_counter() - w1, 4)
            w2 = time.perf_counter()
            si = pc.index_in(t["subject"], value_set=e["id"])
            oi = pc.index_in(t["object"], value_set=e["id"])
            se, oe = e.take(si), e.take(oi)
            t = (
                t.append_column("s_name", se["name"])
                .append_column("s_kind", se["kind"])
                .append_column("o_name", oe["name"])
                .append_column("o_kind", oe["kind"])
            )
            parts["arrow_join_s"] = round(time.perf_counter() - w2, 4)
            return t.num_rows
        base = "MATCH (s:Entity)-[f:Fact]->(o:Entity)"
        if s["name"] == "E":
            tv = "f"
            pre = f"{tv}.recorded_at <= $t AND {tv}.valid_from <= $v AND {tv}.valid_to > $v"
            q = f"{base} WHERE {pre} RETURN {ent_ret}, " + ", ".join(f"f.{c} AS {c}" for c in s["edge"])
        else:
            q = f"{base} WHERE {flt} RETURN {ent_ret}, " + ", ".join(f"f.{c} AS {c}" for c in s["edge"])
        t = arrow(conn.execute(q, p))
        parts["query_s"] = round(time.perf_counter() - w0, 4)
        parts["query_rows"] = t.num_rows
        w1 = time.perf_counter()
        cols = [c for c in s["node"] if c != "subject"]
        k = arrow(
            conn.execute("MATCH (k:VersionKey) RETURN k.id AS id, " + ", ".join(f"k.{c} AS {c}" for c in cols), {})
        )
        parts["read_versionkey_s"] = round(time.perf_counter() - w1, 4)
        w2 = time.perf_counter()
        idx = pc.index_in(t["id"], value_set=k["id"])
        kk = k.take(idx)
        for c in cols:
            t = t.append_column("k_" + c, kk[c])
        if s["name"] == "E":
            t = t.filter(pc.greater(t["k_superseded_at"], pa.scalar(p["t"], t["k_superseded_at"].type)))
        parts["arrow_join_s"] = round(time.perf_counter() - w2, 4)
        parts["cpu_total_s"] = round(time.process_time() - c0, 4)
        return t.num_rows

    rows = ck.run(key, go)
    return {"rows": rows, "parts": parts}


def gate_bench(ck, conn, s, gate, out):
    openv = tval(OPEN, s)
    if s["reified"]:
        body = (
            "MATCH (s:Entity {id: SUBJ})-[:S]->(k:VersionKey) WHERE k.superseded_at = $open AND k.predicate = WANTED "
            "MATCH (k)-[:O]->(o:Entity) RETURN s.id, k.id, k.predicate, o.id, o.name, o.kind, k.valid_from, k.valid_to, k.recorded_at"
        )
        hinted = None
    else:
        sa = "k.superseded_at" if s["name"] == "E" else "f.superseded_at"
        kjoin = " MATCH (k:VersionKey {id: f.id})" if s["name"] == "E" else ""
        ret = "RETURN s.id, f.id, f.predicate, o.id, o.name, o.kind, f.valid_from, f.valid_to, f.recorded_at"
        if s["name"] == "E":
            body = (
                f"MATCH (s:Entity {{id: SUBJ}}) MATCH (s)-[f:Fact]->(o:Entity) WHERE f.predicate = WANTED WITH s, f, o"
                f"{kjoin} WHERE {sa} = $open {ret}"
            )
        else:
            body = f"MATCH (s:Entity {{id: SUBJ}}) MATCH (s)-[f:Fact]->(o:Entity) WHERE {sa} = $open AND f.predicate = WANTED {ret}"
        hinted = (
            None
            if s["name"] == "E"
            else (
                f"MATCH (s:Entity {{id: SUBJ}})-[f:Fact]->(o:Entity) WHERE {sa} = $open AND f.predicate = WANTED "
                f"HINT (s JOIN f) JOIN o {ret}"
            )
        )
    variants = {
        "load_from": ("LOAD FROM $rows " + body.replace("SUBJ", "subject").replace("WANTED", "wanted"), "rows"),
        "unwind": ("UNWIND $list AS r " + body.replace("SUBJ", "r.subject").replace("WANTED", "r.wanted"), "list"),
    }
    if hinted:
        variants["load_from_hint"] = (
            "LOAD FROM $rows " + hinted.replace("SUBJ", "subject").replace("WANTED", "wanted"),
            "rows",
        )
        variants["unwind_hint"] = (
            "UNWIND $list AS r " + hinted.replace("SUBJ", "r.subject").replace("WANTED", "r.wanted"),
            "list",
        )
    res = {}
    for batch in (10, 100, 1000):
        g = gate.slice(0, batch)
        lst = g.to_pylist()
        for name, (q, kind) in variants.items():
            key = f"gate_{name}_{batch}"
            prm = {"open": openv, ("rows" if kind == "rows" else "list"): (g if kind == "rows" else lst)}
            try:
                rows = ck.run(key, lambda: arrow(conn.execute(q, prm)).num_rows)
                res[key] = dict(ck.res[key], rows=rows)
            except Exception as e:  # noqa: BLE001
                out["errors"].append(f"{key}: {str(e)[:300]}")
        # one prepared query per subject
        key = f"gate_per_subject_{batch}"
        q1 = body.replace("SUBJ", "$s").replace("WANTED", "$w")
        try:
            cap = min(batch, 100)  # kuzu spends ~0.1 s CPU per query here at 1M: extrapolate past 100

            def per():
                ps = conn.prepare(q1)
                n = 0
                for r in lst[:cap]:
                    n += arrow(conn.execute(ps, {"s": r["subject"], "w": r["wanted"], "open": openv})).num_rows
                return n

            rows = ck.run(key, per)
            res[key] = dict(ck.res[key], rows=rows, queries_run=cap)
            if cap < batch:  # extrapolated to the whole batch
                res[key].update(
                    wall_s=round(res[key]["wall_s"] * batch / cap, 4),
                    cpu_s=round(res[key]["cpu_s"] * batch / cap, 4),
                    extrapolated_from=cap,
                )
        except Exception as e:  # noqa: BLE001
            out["errors"].append(f"{key}: {str(e)[:300]}")
    res["query_text"] = {k: v[0] for k, v in variants.items()}
    res["query_text"]["per_subject"] = body.replace("SUBJ", "$s").replace("WANTED", "$w")
    return res


def worker_write(args):
    eng = __import__(args.engine)
    s = spec(args.layout)
    d = Path(args.data)
    facts = pq.read_table(d / "facts.parquet", columns=["subject", "object", "id"])
    n = facts.num_rows
    idx = pq.read_table(d / "close.parquet")["idx"].to_numpy()
    close_rows = facts.take(pa.array(idx)).to_pylist()
    rng = np.random.default_rng(7)
    new_rows = [
        {
            "id": f"v{n + i + 1}",
            "subject": f"e{rng.integers(0, N_ENTITIES)}",
            "object": f"e{rng.integers(0, N_ENTITIES)}",
            "predicate": PREDICATES[i % len(PREDICATES)],
        }
        for i in range(N_WRITE)
    ]
    now = T0 + dt.timedelta(microseconds=SPAN_US + 1000)
    nowv, openv = tval(now, s), tval(OPEN, s)
    ck = Clock(Path(str(args.db) + ".progress.json"))
    out = {"engine": args.engine, "layout": s["name"], "versions": n, "repeat": args.repeat, "errors": []}
    path = Path(args.db)
    db, conn = ck.run("open", open_db, eng, path, args)
    if s["reified"] or s["name"] == "E":
        q_close = "MATCH (k:VersionKey {id: $id}) SET k.superseded_at = $now, k.superseded_by = [$by], k.closed_by = $d"
    elif "superseded_by" in s["edge"]:
        q_close = (
            "MATCH (s:Entity {id: $s})-[f:Fact]->(o:Entity) WHERE f.id = $id "
            "SET f.superseded_at = $now, f.superseded_by = [$by], f.closed_by = $d"
        )
    else:  # C/D: the time on the edge, the rest on the node
        q_close = (
            "MATCH (s:Entity {id: $s})-[f:Fact]->(o:Entity), (k:VersionKey {id: $id}) WHERE f.id = $id "
            "SET f.superseded_at = $now, k.superseded_by = [$by], k.closed_by = $d"
        )
    node_vals = {
        "subject": "$s",
        "object": "$o",
        "predicate": "$p",
        "valid_from": "$now",
        "valid_to": "$open",
        "recorded_at": "$now",
        "superseded_at": "$open",
        "episodes": "[$ep]",
        "supersedes": "[$old]",
        "superseded_by": "CAST([], 'STRING[]')",
        "created_by": "$d",
        "closed_by": "CAST(NULL, 'STRING')",
        "reason": "CAST(NULL, 'STRING')",
    }
    q_node = "CREATE (:VersionKey {id: $id, " + ", ".join(f"{c}: {node_vals[c]}" for c in s["node"]) + "})"
    if s["reified"]:
        q_edge = (
            "MATCH (s:Entity {id: $s}), (k:VersionKey {id: $id}), (o:Entity {id: $o}) "
            "CREATE (s)-[:S]->(k), (k)-[:O]->(o)"
        )
    else:
        q_edge = (
            "MATCH (s:Entity {id: $s}), (o:Entity {id: $o}) CREATE (s)-[:Fact {id: $id, "
            + ", ".join(f"{c}: {node_vals[c]}" for c in s["edge"] if c != "id")
            + "}]->(o)"
        )
    out["queries"] = {"close": q_close, "create_node": q_node, "create_edge": q_edge}

    def params(q, base):
        return {k: v for k, v in base.items() if re.search(rf"\${k}\b", q)}

    def tx():
        t0, c0 = time.perf_counter(), time.process_time()
        conn.execute("BEGIN TRANSACTION")
        pc_, pn, pe = conn.prepare(q_close), conn.prepare(q_node), conn.prepare(q_edge)
        for i, (c, nw) in enumerate(zip(close_rows, new_rows)):
            conn.execute(
                pc_, params(q_close, {"s": c["subject"], "id": c["id"], "now": nowv, "by": nw["id"], "d": f"dw{i}"})
            )
            base = {
                "id": nw["id"],
                "s": nw["subject"],
                "o": nw["object"],
                "p": nw["predicate"],
                "now": nowv,
                "open": openv,
                "ep": f"epw{i}",
                "old": c["id"],
                "d": f"dw{i}",
            }
            conn.execute(pn, params(q_node, base))
            conn.execute(pe, params(q_edge, base))
            if i % 500 == 499:
                ck.note(
                    "tx_progress",
                    {
                        "rows": i + 1,
                        "wall_s": round(time.perf_counter() - t0, 3),
                        "cpu_s": round(time.process_time() - c0, 3),
                    },
                )
        ck.run("commit", conn.execute, "COMMIT")

    ck.run("transaction_total", tx)
    ck.run("checkpoint", conn.execute, "CHECKPOINT")

    def close():
        conn.close()
        db.close()

    ck.run("close", close)
    # verify
    db, conn = open_db(eng, path, args)
    if s["reified"] or s["name"] == "E":
        chk = "MATCH (k:VersionKey) WHERE k.superseded_at = $now RETURN count(*)"
    else:
        chk = "MATCH ()-[f:Fact]->() WHERE f.superseded_at = $now RETURN count(*)"
    out["verify_closed"] = conn.execute(chk, {"now": nowv}).get_next()[0]
    out["verify_versions"] = conn.execute("MATCH (k:VersionKey) RETURN count(*)", {}).get_next()[0]
    conn.close()
    db.close()
    out["db_bytes_after_write"] = dir_bytes(path)
    out["timings"] = ck.res
    return out


def remove_db(path: Path):
    """The database and its sidecars: a stale `<db>.wal` left by a killed writer makes kuzu 0.11.3
    fail to create a fresh database at that path (`IndexError: unordered_map::at`)."""
    for p in [path] + [q for q in path.parent.glob(path.name + ".*") if not q.name.endswith(".progress.json")]:
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists():
            p.unlink()


def dir_bytes(p: Path) -> int:
    if p.is_file():
        tot = p.stat().st_size
        for extra in p.parent.glob(p.name + ".*"):
            tot += extra.stat().st_size
        return tot
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file())


# ----------------------------------------------------------------------------- driver
def spawn(argv, timeout):
    w0 = time.perf_counter()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(
        [sys.executable, __file__] + argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        so, se = proc.communicate(timeout=timeout)
        to = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        so, se = proc.communicate()
        to = True
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    info = {
        "wall_s": round(time.perf_counter() - w0, 3),
        "cpu_s": round((ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime), 3),
        "rc": proc.returncode,
        "timed_out": to,
    }
    res = None
    prog = Path(argv[argv.index("--db") + 1] + ".progress.json")
    if prog.exists():
        try:
            info["progress"] = json.loads(prog.read_text())
            ip = info["progress"].get("in_progress")
            if ip:
                ip["elapsed_wall_s"] = round(time.time() - ip["since_wall"], 3)
        except ValueError:
            pass
        prog.unlink()
    for line in so.splitlines():
        if line.startswith("RESULT "):
            res = json.loads(line[7:])
    if res is None:
        info["stderr_tail"] = se[-2000:]
    return res, info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engines", "--engine", default="kuzu,ladybug")
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--versions", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--write-repeats", type=int, default=1, help="repeats that also run the write phase")
    ap.add_argument("--read-repeats", type=int, default=2, help="as-of query repetitions inside one worker")
    ap.add_argument("--write-timeout", type=int, default=300)
    ap.add_argument("--load-timeout", type=int, default=900)
    ap.add_argument("--query-timeout", type=int, default=120, help="per query, seconds")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--buffer-pool-mb", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--workdir", default="/tmp/fact_layout")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "fact_layout"))
    ap.add_argument("--worker", choices=["load_read", "write"])
    ap.add_argument("--layout")
    ap.add_argument("--data")
    ap.add_argument("--db")
    ap.add_argument("--repeat", type=int, default=0)
    args = ap.parse_args()
    args.engine = args.engines

    if args.worker:
        fn = worker_load_read if args.worker == "load_read" else worker_write
        print("RESULT " + json.dumps(fn(args), default=str), flush=True)
        return

    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    w0 = time.perf_counter()
    data = generate(args.versions, work)
    print(f"data ready in {time.perf_counter() - w0:.1f}s: {data}", flush=True)
    engines = args.engines.split(",")
    layouts = args.layouts.split(",")
    common = [
        "--data",
        str(data),
        "--query-timeout",
        str(args.query_timeout),
        "--buffer-pool-mb",
        str(args.buffer_pool_mb),
        "--threads",
        str(args.threads),
    ]
    results = {}
    for rep in range(args.repeats):
        order = layouts if rep % 2 == 0 else layouts[::-1]
        for layout in order:
            for eng in engines if rep % 2 == 0 else engines[::-1]:
                db = work / f"db_{eng}_{layout}_{args.versions}"
                base = ["--engine", eng, "--layout", layout, "--db", str(db), "--repeat", str(rep)] + common
                r, info = spawn(["--worker", "load_read"] + base, args.load_timeout)
                rec = results.setdefault(
                    (eng, layout),
                    {"engine": eng, "layout": layout, "versions": args.versions, "runs": [], "writes": []},
                )
                rec["runs"].append({"result": r, "process": info})
                print(
                    f"[rep {rep}] {eng} {layout} load+read: {info['wall_s']}s wall {info['cpu_s']}s cpu"
                    + ("" if r else f" FAILED {info.get('stderr_tail', '')[-500:]}"),
                    flush=True,
                )
                if r and not args.no_write and rep < args.write_repeats:
                    w, winfo = spawn(["--worker", "write"] + base, args.write_timeout)
                    rec["writes"].append({"result": w, "process": winfo})
                    print(
                        f"[rep {rep}] {eng} {layout} write: {winfo['wall_s']}s wall {winfo['cpu_s']}s cpu"
                        + (" TIMEOUT" if winfo["timed_out"] else "")
                        + ("" if w or winfo["timed_out"] else f" FAILED {winfo.get('stderr_tail', '')[-500:]}"),
                        flush=True,
                    )
                remove_db(db)
                (out_dir / f"{eng}_{layout}_{args.versions}.json").write_text(json.dumps(rec, indent=1, default=str))
    summarize(out_dir)


def med(xs):
    xs = [x for x in xs if x is not None]
    return float(np.median(xs)) if xs else None


def summarize(out_dir: Path):
    rows = []
    for f in sorted(out_dir.glob("*.json")):
        if f.name.startswith("summary") or "_run" in f.name:
            continue
        rec = json.loads(f.read_text())
        runs = [r["result"] for r in rec["runs"] if r["result"]]
        if not runs:
            continue
        T = lambda k, m="cpu_s": med([r["timings"].get(k, {}).get(m) for r in runs])  # noqa: E731

        def read(name, m="cpu_s"):
            return med([x[m] for r in runs for x in r["reads"].get(name, [])])

        def rows_of(name):
            v = [x["rows"] for r in runs for x in r["reads"].get(name, [])]
            return v[0] if v else None

        full = next((n for n in ("asof_full", "asof_full_joined", "asof_full_path") if rows_of(n) is not None), None)
        load = sum(T(k) or 0 for k in ("copy_entity", "copy_versionkey", "copy_fact", "copy_S", "copy_O"))
        loadw = sum(T(k, "wall_s") or 0 for k in ("copy_entity", "copy_versionkey", "copy_fact", "copy_S", "copy_O"))
        g = lambda k, m="cpu_s": med([r["gate"].get(k, {}).get(m) for r in runs])  # noqa: E731
        row = {
            "engine": rec["engine"],
            "layout": rec["layout"],
            "versions": rec["versions"],
            "load_cpu": load,
            "load_wall": loadw,
            "load_close_wall": T("load_checkpoint", "wall_s") + T("load_close", "wall_s"),
            "db_mb": round(runs[0].get("db_bytes_after_load", 0) / 2**20, 1),
            "count_cpu": read("asof_count"),
            "count_wall": read("asof_count", "wall_s"),
            "full_cpu": read(full) if full else None,
            "full_wall": read(full, "wall_s") if full else None,
            "full_rows": rows_of(full) if full else None,
            "full_query": full,
            "two_phase_cpu": read("asof_two_phase"),
            "two_phase_wall": read("asof_two_phase", "wall_s"),
            "two_phase_rows": rows_of("asof_two_phase"),
            "gate_load_from_1000": g("gate_load_from_1000"),
            "gate_hint_1000": g("gate_load_from_hint_1000"),
            "gate_unwind_1000": g("gate_unwind_1000"),
            "gate_per_subject_1000": g("gate_per_subject_1000"),
            "gate_load_from_10": g("gate_load_from_10"),
            "gate_load_from_100": g("gate_load_from_100"),
            "fwd_one_ms": med([r.get("one_entity", {}).get("fwd_one", {}).get("per_query_ms_wall") for r in runs]),
            "bwd_one_ms": med([r.get("one_entity", {}).get("bwd_one", {}).get("per_query_ms_wall") for r in runs]),
            "errors": sorted({e[:160] for r in runs for e in r.get("errors", [])}),
        }
        ws = rec.get("writes", [])
        if ws:
            w = ws[0]
            if w["process"]["timed_out"]:
                pg = w["process"].get("progress", {})
                t = pg
                ip = pg.get("in_progress", {})
                row.update(
                    write_tx_wall=t.get("transaction_total", {}).get("wall_s", "> 5 min"),
                    commit_wall=t.get("commit", {}).get("wall_s"),
                    checkpoint_wall=t.get("checkpoint", {}).get(
                        "wall_s", "> 5 min" if ip.get("step") == "checkpoint" else None
                    ),
                    close_wall=t.get("close", {}).get("wall_s", "> 5 min" if ip.get("step") == "close" else None),
                )
                row["write_note"] = (
                    f"killed after {w['process']['wall_s']} s in step {ip.get('step')} "
                    f"({ip.get('elapsed_wall_s')} s in it); tx progress {pg.get('tx_progress')}"
                )
            elif w["result"]:
                t = w["result"]["timings"]
                row.update(
                    write_tx_wall=t["transaction_total"]["wall_s"],
                    commit_wall=t["commit"]["wall_s"],
                    checkpoint_wall=t["checkpoint"]["wall_s"],
                    checkpoint_cpu=t["checkpoint"]["cpu_s"],
                    close_wall=t["close"]["wall_s"],
                    write_verify=w["result"]["verify_closed"],
                )
            else:
                row["write_note"] = "failed: " + w["process"].get("stderr_tail", "")[-300:]
        rows.append(row)
    (out_dir / "summary.json").write_text(json.dumps(rows, indent=1))
    print_table(rows)


def print_table(rows):
    def f(x, nd=2):
        if x is None:
            return "-"
        if isinstance(x, str):
            return x
        return f"{x:.{nd}f}"

    hdr = (
        "eng",
        "layout",
        "N",
        "load",
        "ckpt+close",
        "MB",
        "count",
        "full",
        "rows",
        "2-phase",
        "gate1000",
        "gate_hint",
        "unwind",
        "per-subj",
        "fwd1ms",
        "bwd1ms",
        "wr_tx",
        "ckpt",
        "close",
    )
    print(" | ".join(hdr))
    for r in sorted(rows, key=lambda r: (r["engine"], r["versions"], r["layout"])):
        a = next(
            (x for x in rows if x["engine"] == r["engine"] and x["versions"] == r["versions"] and x["layout"] == "A"),
            None,
        )

        def rat(k):
            v = r.get(k)
            if (
                v is None
                or a is None
                or not isinstance(v, (int, float))
                or not isinstance(a.get(k), (int, float))
                or not a.get(k)
            ):
                return f(v)
            return f"{v:.2f} ({v / a[k]:.2f}x)" if r["layout"] != "A" else f(v)

        print(
            " | ".join(
                [
                    r["engine"],
                    r["layout"],
                    str(r["versions"]),
                    rat("load_cpu"),
                    f(r["load_close_wall"]),
                    f(r["db_mb"], 0),
                    rat("count_cpu"),
                    rat("full_cpu"),
                    str(r["full_rows"]),
                    rat("two_phase_cpu"),
                    rat("gate_load_from_1000"),
                    rat("gate_hint_1000"),
                    rat("gate_unwind_1000"),
                    rat("gate_per_subject_1000"),
                    f(r["fwd_one_ms"]),
                    f(r["bwd_one_ms"]),
                    f(r.get("write_tx_wall")),
                    rat("checkpoint_wall"),
                    f(r.get("close_wall")),
                ]
            )
        )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--summarize":
        summarize(Path(sys.argv[2]))
    else:
        main()
