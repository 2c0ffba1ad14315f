"""graphmem itself, through its public API (plus graphmem.read.audit)."""

from __future__ import annotations

from pathlib import Path

from graphmem import Store

from .model import believed, canon_diff, canon_graph, canon_versions, from_micros, micros, newest_first
from .workload import batch_timestamps, decision_tuple


def _version(v) -> tuple:
    return (v.id, v.subject_id, v.predicate, v.object_id, micros(v.valid_from), micros(v.valid_to),
            micros(v.recorded_at), micros(v.superseded_at))


class GraphmemPeer:
    """graphmem.Store on one engine, stored on disk."""

    name = "graphmem"

    def __init__(self, engine: str, workdir: Path):
        self.engine = engine
        self.workdir = workdir
        self.store: Store | None = None
        self.loads = 0

    def load(self, log: Path) -> None:
        """W2: a fresh store, then ``import_log`` of the whole exported log."""
        self.close()
        self.loads += 1
        self.store = Store(self.workdir / f"store{self.loads}", engine=self.engine, allow_future=True)
        self.store.import_log(log, large=True)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    # -- queries: each returns what graphmem's API returns -------------------------------------

    def T1(self, p):
        return self.store.beliefs(as_of=from_micros(p["as_of"]), valid_at=from_micros(p["valid_at"]))

    def T2(self, p):
        return self.store.snapshot(as_of=from_micros(p["as_of"]), valid_at=from_micros(p["valid_at"]))

    def K1(self, p):
        return [self.store.history(name, predicate) for name, _, predicate in p["keys"]]

    def K2(self, p):
        return [[self.store.version(i) for i in self.store.version(vid).supersedes] for vid in p["ids"]]

    def K3(self, p):
        return self.store.most_changed(p["limit"])

    def R1(self, p):
        return self.store.diff(from_micros(p["after"]), from_micros(p["until"]))

    def R2(self, p):
        return self.store.believed_counts([from_micros(m) for m in p["months"]])

    def W1(self, batch):
        return self.store.add_many(batch_timestamps(batch), recorded_at=from_micros(batch["at"]))

    def checkpoint(self):
        self.store.checkpoint()

    def W1s(self, batch):
        at = from_micros(batch["at"])
        tick = from_micros(1) - from_micros(0)
        return [
            self.store.add(s, p, o, valid_from=vf, valid_to=vt, recorded_at=at + tick * i)
            for i, (s, p, o, vf, vt) in enumerate(batch_timestamps(batch))
        ]

    # -- canonical forms (not timed) -----------------------------------------------------------

    @staticmethod
    def canon(query: str, answer):
        if query == "T1":
            return canon_versions(believed(_version(v)) for v in answer)
        if query == "T2":
            edges = [believed(_version_from_edge(data)) for _, _, data in answer.edges(data=True)]
            return canon_graph(answer.nodes, edges)
        if query == "K1":
            return [newest_first(_version(v) for v in h) for h in answer]
        if query == "K2":
            return [canon_versions(_version(v) for v in found) for found in answer]
        if query == "K3":
            return [(s, p, int(n)) for s, p, n in answer]
        if query == "R1":
            return canon_diff((c.decision, c.change, c.believed, c.version.id) for c in answer if c.version)
        if query == "R2":
            return [(micros(at), n) for at, n in answer]
        if query in ("W1", "W1s"):
            return [decision_tuple(d.op, micros(d.at), d.created, d.closed) for d in answer]
        raise KeyError(query)


def _version_from_edge(data: dict) -> tuple:
    return (data["id"], data["subject_id"], data["predicate"], data["object_id"],
            micros(data["valid_from"]), micros(data["valid_to"]), micros(data["recorded_at"]),
            micros(data["superseded_at"]))
