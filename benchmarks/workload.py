"""The workload, after the TPC-BiH taxonomy, its parameters, and the model's answers.

T  timeslice   T1 beliefs as of T valid at V; T2 the current graph as a networkx snapshot
K  key audit   K1 history of one (subject, predicate); K2 the versions one version replaced;
               K3 the top-N most changed keys
R  range       R1 what changed between two transaction times; R2 believed facts per month
W  writes      W1 batches of asserts that supersede, through the gate; W1s the same one at a
               time (graphmem only); W2 bulk import of the exported log

Parameters are drawn deterministically from the log, so every system and every run
asks the same questions; the model's answers are the expected ones.
"""

from __future__ import annotations

import bisect
import random
from collections import defaultdict
from datetime import timedelta

from .generate import PREDICATES, resume
from .model import MICRO, Model, canon_versions, digest, from_micros, micros, newest_first

QUERIES = {
    "T1": "beliefs as of T, valid at V",
    "T2": "snapshot of the current graph into networkx",
    "K1": "history of one (subject, predicate)",
    "K2": "the versions one version replaced",
    "K3": "top 10 most changed keys",
    "R1": "what changed between two transaction times",
    "R2": "believed facts at each month start",
    "W1": "gate writes: batches of asserts that supersede",
    "W1ck": "the checkpoint after the batches (what their commits left in the write-ahead log)",
    "W1all": "gate writes sustained: every batch of W1 plus that checkpoint (per assert)",
    "W1s": "gate writes: the same asserts one call each",
    "W2": "bulk import of the exported log",
}
INF = float("inf")
HISTORY_KEYS = 200
PRECEDING_IDS = 50
TOP = 10


def month_starts(first: int, last: int) -> list[int]:
    """The start of every month after ``first`` up to ``last`` (µs)."""
    start = from_micros(first)
    year, month = start.year, start.month
    found = []
    while True:
        month += 1
        if month > 12:
            year, month = year + 1, 1
        moment = micros(start.replace(year=year, month=month, day=1, hour=0, minute=0, second=0,
                                      microsecond=0))
        if moment > last:
            return found
        found.append(moment)


def make_params(records: dict, seed: int = 7, batch_sizes=(1000, 10000), batches: int = 4,
                single: int = 100) -> dict:
    """Every query's parameters, drawn from the log."""
    rnd = random.Random(seed)
    decisions = records["decision"]
    times = [micros(d["at"]) for d in decisions]
    first, last = times[0], times[-1]
    keys = defaultdict(int)
    for v in records["version"]:
        keys[(v["subject_id"], v["predicate"])] += 1
    busy = sorted(k for k, n in keys.items() if n >= 2) or sorted(keys)
    replacing = sorted((v["id"] for v in records["version"] if v["supersedes"]),
                       key=lambda i: int(i[1:]))
    window = max(20, len(decisions) // 500)
    start = len(decisions) * 3 // 5
    names = {e["id"]: e["name"] for e in records["entity"]}
    history_keys = rnd.sample(busy, min(HISTORY_KEYS, len(busy)))
    return {
        "T1": {"as_of": times[len(times) * 3 // 4], "valid_at": times[len(times) // 2]},
        "T2": {"as_of": last, "valid_at": last},
        "K1": {"keys": [[names[s], s, p] for s, p in history_keys]},
        # a version by id is a scan of every edge (no index on edge properties): fewer at scale
        "K2": {"ids": rnd.sample(replacing, min(PRECEDING_IDS if len(decisions) < 400_000 else 10,
                                                len(replacing)))},
        "K3": {"limit": TOP},
        "R1": {"after": times[start], "until": times[min(start + window, len(times) - 1)]},
        "R2": {"months": month_starts(first, last) if last - first > 180 * 86400 * 10**6
               else [first + (last - first) * i // 12 for i in range(1, 13)]},
        "W1": {"batches": write_batches(records, rnd, batch_sizes, batches, last)},
        "W1s": {"asserts": write_batches(records, rnd, (single,), 1, last + 10**12)[0]},
    }


def write_batches(records: dict, rnd: random.Random, sizes, count: int, after: int) -> list[dict]:
    """Batches of asserts that supersede: new values for believed ``one`` keys, valid from the past."""
    ones = sorted({(v["subject_id"], v["predicate"]) for v in records["version"]
                   if v["superseded_at"] is None and PREDICATES[v["predicate"]] == "one"})
    objects = defaultdict(set)
    for v in records["version"]:
        objects[v["predicate"]].add(v["object"])
    pools = {p: sorted(o) for p, o in objects.items()}
    names = {e["id"]: e["name"] for e in records["entity"]}
    found = []
    hour = 3_600_000_000
    at = after
    for size in sizes:
        for _ in range(count + 1):  # the first batch of each size is the untimed check
            at += hour
            found.append({"size": size, "at": at, "asserts": [
                [names[s], p, rnd.choice(pools[p]), at - rnd.randint(1, 90 * 24) * hour, None]
                for s, p in (rnd.choice(ones) for _ in range(size))
            ]})
    return found


def expected(records: dict, params: dict) -> dict:
    """The model's answer to every query, as (count, digest) per query and per write batch."""
    model = Model(records)
    by_key = defaultdict(list)
    for v in model.versions:
        by_key[(v[1], v[2])].append(v)
    out = {
        "T1": fingerprint(model.beliefs(params["T1"]["as_of"], params["T1"]["valid_at"])),
        "T2": fingerprint(model.snapshot(params["T2"]["as_of"], params["T2"]["valid_at"]), edges=True),
        "K1": fingerprint([newest_first(by_key[(s, p)]) for _, s, p in params["K1"]["keys"]]),
        "K2": fingerprint([model.preceding(i) for i in params["K2"]["ids"]]),
        "K3": fingerprint(model.most_changed(params["K3"]["limit"])),
        "R1": fingerprint(model.diff(params["R1"]["after"], params["R1"]["until"])),
        "R2": fingerprint(per_month(model.versions, params["R2"]["months"])),
    }
    history = resume(records)
    out["W1"] = [fingerprint(plan_batch(history, batch)) for batch in params["W1"]["batches"]]
    single = plan_batch(history, params["W1s"]["asserts"])
    out["W1s"] = fingerprint(single)
    out["W1s_shape"] = fingerprint(decision_shapes(single))
    return out


def fingerprint(answer, edges: bool = False) -> dict:
    """What is compared: the size of an answer and its digest."""
    size = len(answer[1]) if edges else len(answer)
    return {"count": size, "digest": digest(answer)}


def per_month(versions, months: list[int]) -> list[tuple]:
    """Believed-and-valid counts at each moment by a sweep: a version counts on [max start, min end)."""
    spans = [(max(v[6], v[4]), min(x for x in (v[7], v[5], INF) if x is not None)) for v in versions]
    spans = [(lo, hi) for lo, hi in spans if lo < hi]
    starts = sorted(lo for lo, _ in spans)
    ends = sorted(hi for _, hi in spans)
    return [(m, bisect.bisect_right(starts, m) - bisect.bisect_right(ends, m)) for m in months]


def plan_batch(history, batch) -> list[tuple]:
    """Carry out a batch of asserts on the in-memory history; return its decisions canonically."""
    at = from_micros(batch["at"])
    decisions = []
    for i, (subject, predicate, obj, valid_from, valid_to) in enumerate(batch["asserts"]):
        d = history.add(subject, predicate, obj, from_micros(valid_from), from_micros(valid_to),
                        at + MICRO * i)
        decisions.append(decision_tuple(d["op"], micros(d["at"]), d["created"], d["closed"]))
    return decisions


def decision_tuple(op: str, at: int, created, closed) -> tuple:
    """A decision canonically: its op, time and the ids it created and closed (sorted)."""
    return (op, at, tuple(sorted(created)), tuple(sorted(closed)))


def decision_shapes(decisions: list[tuple]) -> list[tuple]:
    """Decisions without version ids: what one-at-a-time writes must match whatever the
    engine's row order (which picks which new piece gets which id)."""
    return [(op, at, len(created), len(closed)) for op, at, created, closed in decisions]


def batch_timestamps(batch) -> list:
    """The asserts of a batch with their times as aware datetimes, for the systems."""
    return [(s, p, o, from_micros(vf), from_micros(vt)) for s, p, o, vf, vt in batch["asserts"]]


__all__ = ["QUERIES", "batch_timestamps", "canon_versions", "expected", "make_params", "timedelta"]
