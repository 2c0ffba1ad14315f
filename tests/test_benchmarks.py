"""The benchmark harness at a tiny scale, as a correctness test (no timing is asserted).

- the generator's log is the one a real store writes for the same calls;
- every system's answer to every workload query equals the pure-Python model's;
- ``Store.add_many`` writes what one ``Store.add`` per fact would.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta

import pytest

from benchmarks.generate import generate, write_log
from benchmarks.runner import ENGINE_SYSTEMS, SYSTEMS, prepare, work
from graphmem import InvalidPeriod, Store
from graphmem.core.times import TICK, UTC
from graphmem.models import Assertion
from graphmem.write import transaction
from tests.conftest import ENGINE


def replay(store: Store, writes) -> None:
    """Make the generator's writes through the public API, one call each."""
    for op, *args in writes:
        if op == "episode":
            text, reference, at = args
            store.add_episode(text, kind="chat", reference_time=reference, recorded_at=at)
        elif op == "add":
            s, p, o, start, end, episode, at = args
            store.add(s, p, o, valid_from=start, valid_to=end, episode=episode, recorded_at=at)
        elif op == "segment":
            s, p, o, start, end, at = args
            store.segment(s, p, o, valid_from=start, valid_to=end, recorded_at=at)
        elif op == "end":
            s, p, o, moment, at = args
            store.end(s, p, o, at=moment, recorded_at=at)
        elif op == "retract":
            version, reason, at = args
            store.retract(version, reason=reason, recorded_at=at)
        elif op == "correct":
            version, obj, reason, at = args
            store.correct(version, obj, reason=reason, recorded_at=at)


def records(path) -> dict[tuple, dict]:
    found = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record["type"] != "graphmem":
            found[(record["type"], record.get("id") or record.get("key") or record.get("name"))] = record
    return found


def contents(path) -> tuple[Counter, Counter]:
    """The log without version ids: versions by content, decisions by what they touched."""
    log = records(path)
    versions = {k[1]: v for k, v in log.items() if k[0] == "version"}

    def content(vid):
        v = versions[vid]
        return (v["subject_id"], v["predicate"], v["object_id"], v["valid_from"], v["valid_to"],
                v["recorded_at"], v["superseded_at"], v["reason"], tuple(v["episodes"]))

    decisions = Counter(
        (d["op"], d["at"], tuple(sorted(map(content, d["created"]))), tuple(sorted(map(content, d["closed"]))))
        for k, d in log.items() if k[0] == "decision"
    )
    return Counter(map(content, versions)), decisions


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_log_is_what_the_store_writes(tmp_path, seed):
    history = generate(300, seed)
    write_log(history, tmp_path / "generated.jsonl")
    with Store(":memory:", engine=ENGINE) as store:
        replay(store, history.writes)
        store.export(tmp_path / "store.jsonl")
    assert contents(tmp_path / "generated.jsonl") == contents(tmp_path / "store.jsonl")


def test_generated_log_matches_exactly(tmp_path):
    history = generate(300, 3)
    write_log(history, tmp_path / "generated.jsonl")
    with Store(":memory:", engine=ENGINE) as store:
        replay(store, history.writes)
        store.export(tmp_path / "store.jsonl")
    assert records(tmp_path / "generated.jsonl") == records(tmp_path / "store.jsonl")


def test_generator_is_deterministic(tmp_path):
    write_log(generate(200, 5), tmp_path / "a.jsonl")
    write_log(generate(200, 5), tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


@pytest.mark.parametrize("system", [pytest.param(s, marks=[] if s in ENGINE_SYSTEMS else pytest.mark.engine_free)
                                    for s in SYSTEMS])  # the peers run on no graphmem engine
def test_every_answer_equals_the_model(tmp_path, system):
    if system == "duckdb":
        pytest.importorskip("duckdb", reason="DuckDB is a peer of the benchmarks (the bench extra)")
    data = prepare("tiny", 1, tmp_path / "data")
    workdir = tmp_path / "work"
    workdir.mkdir()
    engine = ENGINE if system in ("graphmem", "raw") else None
    result = work(system, engine, data, repeat=1, load_repeat=1, workdir=workdir)
    assert {"T1", "T2", "K1", "K2", "K3", "R1", "R2"} <= set(result["checked"])
    if system != "raw":
        assert "W1" in result["checked"]


@pytest.mark.engine_free  # SQLite's figures rendered: no graphmem engine
def test_report_renders(tmp_path):
    from benchmarks.report import END, START, write_report

    data = prepare("tiny", 1, tmp_path / "data")
    (tmp_path / "work").mkdir()
    result = work("sqlite", None, data, repeat=1, load_repeat=1, workdir=tmp_path / "work")
    results = {"scale": "tiny", "seed": 1, "data": json.loads((data / "info.json").read_text()),
               "machine": {"processor": "cpu", "cpus": 2, "memory_gb": 1, "platform": "x", "python": "3",
                           "kuzu": "k", "ladybug": "l", "sqlite": "s", "duckdb": "d", "pyarrow": "p",
                           "load_average": [0, 0, 0]},
               "command": "python -m benchmarks run --scale tiny", "started": "now", "repeat": 1,
               "load_repeat": 1, "queries": {"T1": "beliefs"}, "systems": [result], "seconds": 1}
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "tiny.json").write_text(json.dumps(results))
    out = tmp_path / "BENCHMARKS.md"
    out.write_text(f"# Kept\n\n{START}\nold\n{END}\n\nkept too\n")
    write_report(tmp_path / "results", out)
    text = out.read_text()
    assert "# Kept" in text and "kept too" in text and "old" not in text
    assert "| **T1** beliefs | " in text


# -- Store.add_many -----------------------------------------------------------------------------------

BASE = datetime(2026, 1, 1, tzinfo=UTC)
FACTS = [
    ("Ivan", "lives_in", "Prague", "2020-01-01", None),
    ("Ivan", "lives_in", "Berlin", "2026-10-15", None),
    ("Ivan", "likes", "Tea", None, None),
    ("Ann", "lives_in", "Rome", "2021-01-01", "2022-01-01"),
    ("Ivan", "lives_in", "Munich", "2026-10-01", "2026-10-15"),
    ("Ivan", "likes", "Tea", "2025-01-01", None),
    ("Bob", "traveled_to", "Xi'an", "2024-10-01", None),
    ("Ivan", "lives_in", "Berlin", "2026-11-01", None),
    ("Ivan", "lives_in", "Oslo", "2018-06-01", None),
    ("Ann", "status", "active", None, None),
    ("ann", "status", "idle", "2025-06-01", None),
    ("Bob", "traveled_to", "Xi'an", "2024-10-01", None),
]


def seeded() -> Store:
    store = Store(":memory:", engine=ENGINE)
    store.add("Ivan", "lives_in", "Oslo", valid_from="2019-01-01", recorded_at=BASE)
    store.add("Ivan", "likes", "Tea", valid_from="2019-01-01", valid_to="2024-06-01",
              recorded_at=BASE + timedelta(hours=1))
    episode = store.add_episode("Ivan: I live in Oslo", reference_time="2019-01-01",
                                recorded_at=BASE + timedelta(hours=2))
    return store, episode.id


@pytest.fixture
def lookups(monkeypatch):
    """The bulk statements a batch runs, to see how it reads and closes its keys."""
    loaded: list[str] = []
    load = transaction._load
    monkeypatch.setattr(transaction, "_load", lambda engine, query, *args, **kw: (
        loaded.append(query), load(engine, query, *args, **kw))[1])
    yield loaded


def test_batch_writes_what_one_call_each_writes(tmp_path, lookups):
    at = BASE + timedelta(days=1)
    batched, episode = seeded()
    one_by_one, _ = seeded()
    facts = FACTS + [("Ivan", "lives_in", "Oslo", None, None, episode)]
    decisions = batched.add_many([Assertion(*f) for f in facts], recorded_at=at)
    singles = [one_by_one.add(f[0], f[1], f[2], valid_from=f[3], valid_to=f[4],
                              episode=f[5] if len(f) > 5 else None, recorded_at=at + TICK * i)
               for i, f in enumerate(facts)]
    assert [(d.op, d.at) for d in decisions] == [(d.op, d.at) for d in singles]
    batched.export(tmp_path / "batch.jsonl")
    one_by_one.export(tmp_path / "single.jsonl")
    assert records(tmp_path / "batch.jsonl") == records(tmp_path / "single.jsonl")
    assert decisions == singles
    assert batched.check() == []
    assert {"store/batch_bodies", "store/batch_close_bodies"} <= set(lookups)  # the keys read and closed
    batched.close()
    one_by_one.close()


def test_batch_is_atomic(lookups):
    store, _ = seeded()
    before = store.versions()
    with pytest.raises(InvalidPeriod):
        store.add_many([("Ivan", "lives_in", "Paris", "2026-02-01", None),
                        ("Ivan", "lives_in", "Rome", "2026-03-01", "2026-02-01")])
    assert store.versions() == before
    assert len(store.decisions()) == 3
    store.close()


def test_batch_default_times_are_each_asserts_own():
    store, _ = seeded()
    decisions = store.add_many([("Zoe", "likes", "Jazz"), ("Zoe", "likes", "Rock")],
                               recorded_at=BASE + timedelta(days=2))
    assert decisions[1].at == decisions[0].at + TICK
    versions = {v.object: v for v in store.versions("Zoe")}
    assert versions["Jazz"].valid_from == decisions[0].at
    assert versions["Rock"].valid_from == decisions[1].at
    store.close()


@pytest.mark.slow
def test_harness_at_10k_on_this_engine(tmp_path, request):
    """The whole command at 10k versions (minutes): every system checked, then timed."""
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("runs only with -m slow")
    from benchmarks.runner import run

    systems = ("graphmem", "raw", "sqlite") + (("duckdb",) if _has("duckdb") else ())
    results = run("10k", [ENGINE], repeat=1, load_repeat=1, systems=systems, data_root=tmp_path / "data",
                  out=tmp_path / "results.json", log=lambda _: None)
    assert {s["system"] for s in results["systems"]} == set(systems)
    assert all("T1" in s["checked"] for s in results["systems"])


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


# -- whole-graph reads (Arrow columns) against every version filtered in Python ---------------------------


def test_beliefs_and_snapshot_equal_every_version_filtered(tmp_path):
    from graphmem.core.as_known import believed as believed_at
    from graphmem.core.temporal import Period
    from graphmem.read.questions import Unseen, as_believed_at

    history = generate(400, 4)
    write_log(history, tmp_path / "log.jsonl")
    times = [d["at"] for d in history.decisions]
    records = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines() if line.strip()]

    def when(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    def unseen(t):  # the links not yet made at t, read from the log itself (a NOOP links an episode later)
        return Unseen(frozenset(r["id"] for r in records if r["type"] == "episode" and when(r["received_at"]) > t),
                      frozenset((r["version"], r["episode"]) for r in records if r["type"] == "link"
                                and when(r["at"]) > t))
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(tmp_path / "log.jsonl")
        every = store.versions()
        cases = [(times[-1], None), (times[len(times) // 2], times[len(times) // 4]),
                 (times[len(times) // 3], "all"), (times[-1], times[0])]
        for as_of, valid_at in cases:
            t = store.time(as_of)
            v = None if valid_at == "all" else store.time(valid_at or as_of)
            want = sorted(
                (as_believed_at(x, t, v, unseen(t)) for x in every if believed_at(x.recorded_at, x.superseded_at, t)
                 and (v is None or Period(x.valid_from, x.valid_to).contains(v))),
                key=lambda x: (x.subject, x.predicate, x.valid_from, x.object, x.id))
            got = store.beliefs(as_of, valid_at)
            assert got and got == want
            assert [x.model_dump() for x in got] == [x.model_dump() for x in want]
        graph = store.snapshot(times[-1])
        want = store.beliefs(times[-1])
        assert sorted(graph.edges(keys=True)) == sorted((x.subject_id, x.object_id, x.id) for x in want)
        for x in want:
            assert graph.edges[x.subject_id, x.object_id, x.id] == x.model_dump()
        kinds = {e.id: (e.name, e.kind) for e in store.entities()}
        assert {n: (d["name"], d["kind"]) for n, d in graph.nodes(data=True)} == {
            n: kinds[n] for x in want for n in (x.subject_id, x.object_id)}


@pytest.mark.engine_free
def test_first_reads_scores_as_the_evaluation_does():
    """benchmarks/first_reads.py, run on today's code, counts what `graphmem eval` counts."""
    from benchmarks import first_reads
    from graphmem.evaluation import read_conversation_set, score_extraction
    from graphmem.extract import RuleExtractor

    chats = first_reads.labelled_chats()
    assert "d5" in chats and not any("heldout" in str(path) for path in chats.values())
    rows = first_reads.score(first_reads.read_with(first_reads.ROOT, [chats["d5"]]), chats, "today")
    score = score_extraction(read_conversation_set(chats["d5"]), RuleExtractor(), objects="similar")
    proposed, written = score.loose["overall"], score.written["loose"]
    assert (sum(r["right"] for r in rows), len(rows)) == (proposed.right, proposed.right + proposed.wrong)
    assert (sum(r["right_written"] for r in rows if r["written"]), sum(r["written"] for r in rows)) == (
        written.right, written.right + written.wrong)
    assert "all" in first_reads.table(rows)


@pytest.mark.engine_free
def test_first_reads_of_alias_suggest_are_told_by_kind():
    from benchmarks import first_reads

    assert first_reads.reason_kind(["one entity through mel, mels"]) == "joined only through others"
    assert first_reads.reason_kind(["mel is a short form of melanie"]) == "a short form"
    assert first_reads.reason_kind(["tessa brooks is tessa with more of the name"]) == "more of the name"
    assert first_reads.reason_kind(["melany corrected to melanie at once"]) == "corrected"
    chats = first_reads.paired_chats()
    assert "a1" in chats and not any("heldout" in str(path) for path in chats.values())
    rows = first_reads.score_pairs([{"chat": "a1", "a": "x-nobody", "b": "y-nobody", "score": 0.6,
                                     "reasons": ["x-nobody is a nickname of y-nobody"]}], "today")
    assert [(r["kind"], r["right"]) for r in rows] == [("a nickname", False)]
    assert "0 of    1 0.00" in first_reads.pair_table(rows)
