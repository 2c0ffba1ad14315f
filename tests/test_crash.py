"""Crash safety: a process SIGKILLed in the middle of a large write leaves all of it or none of it.

Each test runs the write in a child process that prints ``ready`` just before it, kills it
(after a random delay, or at a hook placed at the worst moment: every statement run, the COMMIT
not yet), reopens the store here and compares it with the states before and after the write.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from graphmem import Store
from graphmem.core.times import UTC, iso
from graphmem.log.backup import PENDING, WORK
from tests.conftest import ENGINE

CHILD = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path

    import graphmem.log.backup
    import graphmem.write.transaction
    from graphmem import Store

    job = json.loads(sys.argv[1])
    hook = job.get("hook")

    def stall(label):
        print(label, flush=True)
        time.sleep(120)  # the parent kills us here

    if hook == "commit":  # every statement of the write has run; the COMMIT has not
        finish, calls = graphmem.write.transaction.Transaction.finish, []

        def finishing(self, **options):
            finish(self, **options)
            calls.append(1)
            if len(calls) == job.get("nth", 1):
                stall("hooked")

        graphmem.write.transaction.Transaction.finish = finishing
    if hook == "settings":  # an import's records are committed; its settings are not yet written
        import graphmem.log.jsonl

        def applying(store, declared, settings):
            stall("hooked")

        graphmem.log.jsonl._apply_settings = applying
    if hook == "swap":  # the purge is committed; the rewritten file is not yet in place
        replace = graphmem.log.backup._replace_database

        def replacing(new, directory):
            stall("hooked")

        graphmem.log.backup._replace_database = replacing

    store = Store(job["store"], allow_future=True)  # a supersede at a time of the test's choosing
    print("ready", flush=True)
    if job["do"] == "import":
        seen = []

        def progress(n):
            seen.append(n)
            if hook == "copy" and len(seen) == 2:  # two tables copied, the others not yet
                stall("hooked")

        store.import_log(job["log"], progress=progress)
    elif job["do"] == "supersede":
        store.add("S", "status", "final", valid_from="2000-01-01", valid_to="2100-01-01",
                  recorded_at=job["at"])
    elif job["do"] == "ingest":
        from graphmem.ingest import ingest, read_messages

        ingest(store, read_messages(job["file"]), replay=True, approve=True,
               **({"batch": job["batch"]} if "batch" in job else {}))
    elif job["do"] == "purge":
        store.purge("entity", job["target"], recorded_at=job["at"])
    store.close()
    print("done", flush=True)
""")


def kill_during(job: dict, *, delay: float | None = None) -> str:
    """Run ``job`` in a child; SIGKILL it at its hook (or ``delay`` s after ready). What happened?"""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps({k: str(v) if isinstance(v, Path) else v
                                                  for k, v in job.items()})],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "GRAPHMEM_ENGINE": ENGINE},
    )
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        if delay is None:
            line = child.stdout.readline().strip()
            assert line == "hooked", (line, child.stderr.read())
        else:
            time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        rest = child.stdout.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    if child.returncode == -signal.SIGKILL and "done" not in rest:
        return "killed"
    assert child.returncode in (0, -signal.SIGKILL), child.stderr.read()
    return "finished"


def exported(directory: Path, tmp: Path) -> list[dict]:
    """The store's export without its header; opening it must work and `check` be clean.

    Id lists are sorted: the order of a write's closed versions follows the engine's
    (parallel, so unordered) scan, and is not part of what the write means.
    """
    with Store(directory, engine=ENGINE) as store:
        assert store.check() == []
        store.export(tmp)
    records = [json.loads(line) for line in tmp.read_text(encoding="utf-8").splitlines()[1:]]
    return [{k: sorted(v) if isinstance(v, list) else v for k, v in r.items()} for r in records]


def delays(seed: int, count: int, longest: float) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0, longest) for _ in range(count)]


# -- an import (one transaction of several COPYs) ------------------------------------------------


def big_log(path: Path, count: int) -> Path:
    """A sound log of ``count`` facts, each with its episode, as `export` writes it."""
    start, t0 = datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
    people = sorted({f"person{i % 50}" for i in range(count)})
    lines = [{"type": "graphmem", "format": 1, "engine": ENGINE, "timezone": "UTC"},
             *({"type": "entity", "id": p, "name": p.title(), "kind": "entity"} for p in people),
             *({"type": "entity", "id": f"thing{i}", "name": f"Thing{i}", "kind": "entity"}
               for i in range(count))]
    for i in range(1, count + 1):
        at = iso(t0 + timedelta(seconds=i))
        lines.append({"type": "episode", "id": f"ep{i}", "kind": "chat", "text": f"note {i}: " + "lorem " * 30,
                      "actor": "me", "reference_time": iso(start + timedelta(minutes=i)), "received_at": at})
        lines.append({"type": "decision", "id": f"d{i}", "op": "ADD", "at": at, "created": [f"v{i}"],
                      "closed": [], "episode": f"ep{i}"})
        lines.append({"type": "version", "id": f"v{i}", "subject": f"Person{i % 50}", "predicate": "likes",
                      "object": f"Thing{i - 1}", "subject_id": f"person{i % 50}", "object_id": f"thing{i - 1}",
                      "valid_from": iso(start + timedelta(minutes=i)), "recorded_at": at,
                      "episodes": [f"ep{i}"], "created_by": f"d{i}"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with Store(":memory:", engine=ENGINE) as store:  # in the form export gives it
        store.import_log(path)
        assert store.check() == []
        store.export(path)
    return path


@pytest.fixture(scope="module")
def import_log_file(tmp_path_factory) -> Path:
    return big_log(tmp_path_factory.mktemp("crash") / "big.jsonl", 2000)


def test_import_killed_midway_leaves_nothing_or_everything(tmp_path, import_log_file):
    full = [json.loads(line) for line in import_log_file.read_text(encoding="utf-8").splitlines()[1:]]
    outcomes = []
    for n, delay in enumerate([None, *delays(1, 1, 1.5)]):
        directory = tmp_path / f"store{n}"
        Store(directory, engine=ENGINE).close()
        empty = exported(directory, tmp_path / "empty.jsonl")
        hook = "copy" if delay is None else None
        what = kill_during({"store": directory, "do": "import", "log": import_log_file, "hook": hook},
                           delay=delay)
        after = exported(directory, tmp_path / f"after{n}.jsonl")
        assert after in (empty, full), f"run {n} ({what}): a partial import survived"
        if hook:
            assert what == "killed" and after == empty
        outcomes.append(after == full)
    # whatever happened, the interrupted import can simply be run again
    directory = tmp_path / "store0"
    with Store(directory, engine=ENGINE) as store:
        store.import_log(import_log_file)
    assert exported(directory, tmp_path / "again.jsonl") == full


def test_an_import_killed_between_its_records_and_its_settings_is_finished_on_open(tmp_path, import_log_file):
    """The records commit alone (kuzu can keep a COPY transaction's other writes and lose the
    rows when killed in COMMIT); the settings follow, and the next open finishes them."""
    from graphmem.log.jsonl import IMPORT_PENDING

    full = [json.loads(line) for line in import_log_file.read_text(encoding="utf-8").splitlines()[1:]]
    directory = tmp_path / "store"
    with Store(directory, engine=ENGINE) as store:
        store.declare("mentors", "one")
    what = kill_during({"store": directory, "do": "import", "log": import_log_file, "hook": "settings"})
    assert what == "killed" and (directory / IMPORT_PENDING).exists()
    after = exported(directory, tmp_path / "after.jsonl")  # opening finishes the import
    assert not (directory / IMPORT_PENDING).exists()
    assert [r for r in after if r["type"] != "predicate"] == full


def test_a_pending_import_whose_records_never_landed_changes_nothing(tmp_path):
    from graphmem.log.jsonl import IMPORT_PENDING

    directory = tmp_path / "store"
    with Store(directory, engine=ENGINE) as store:
        store.add("Ana", "lives_in", "Lisbon", recorded_at="2024-01-01")
        before = store._meta()
    (directory / IMPORT_PENDING).write_text(json.dumps({
        "declared": {"mentors": "one"}, "settings": {"last_write": "2030-01-01T00:00:00Z", "seq:v": "900"},
        "probes": [["Entity", "nobody"], ["Decision", "d900"]]}))
    with Store(directory, engine=ENGINE) as store:
        assert store._meta() == before and store.kind_of("mentors") == "many"
        assert store.check() == []
    assert not (directory / IMPORT_PENDING).exists()


def test_an_import_interrupted_in_process_after_a_copy_leaves_nothing(tmp_path, import_log_file):
    """Ctrl-C between two COPYs: the write is undone without ROLLBACK, which would resurrect it."""
    directory = tmp_path / "store"
    with Store(directory, engine=ENGINE) as store:
        store.declare("mentors", "one")

        def interrupt(n):
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            store.import_log(import_log_file, progress=interrupt)
        assert store.entities() == [] and store.decisions() == [] and store.kind_of("mentors") == "one"
        from graphmem.log.jsonl import IMPORT_PENDING

        assert not (directory / IMPORT_PENDING).exists()
    with Store(directory, engine=ENGINE) as store:  # the COPY'd rows did not come back on reopen
        assert store.entities() == [] and store.decisions() == [] and store.check() == []
        store.import_log(import_log_file)
        assert store.check() == []
    imported = [r for r in exported(directory, tmp_path / "log.jsonl") if r["type"] != "predicate"]
    assert imported == [json.loads(line) for line in import_log_file.read_text().splitlines()[1:]]


# -- a supersede closing thousands of versions in one transaction --------------------------------


def segments_log(path: Path, count: int) -> Path:
    """One subject's `status` (a one predicate) in ``count`` consecutive one-day segments."""
    day0, t0 = datetime(2000, 1, 1, tzinfo=UTC), datetime(2021, 1, 1, tzinfo=UTC)
    lines = [
        {"type": "graphmem", "format": 1, "engine": ENGINE, "timezone": "UTC"},
        {"type": "entity", "id": "s", "name": "S", "kind": "entity"},
        *({"type": "entity", "id": f"o{k}", "name": f"O{k}", "kind": "entity"} for k in range(7)),
    ]
    for i in range(1, count + 1):
        lines.append({"type": "decision", "id": f"d{i}", "op": "ADD", "at": iso(t0 + timedelta(seconds=i)),
                      "created": [f"v{i}"], "closed": []})
        lines.append({"type": "version", "id": f"v{i}", "subject": "S", "predicate": "status",
                      "object": f"O{i % 7}", "subject_id": "s", "object_id": f"o{i % 7}",
                      "valid_from": iso(day0 + timedelta(days=i)),
                      "valid_to": iso(day0 + timedelta(days=i + 1)),
                      "recorded_at": iso(t0 + timedelta(seconds=i)), "created_by": f"d{i}"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def supersede_runs(tmp_path: Path, count: int, kills: int, seed: int) -> list[str]:
    base = tmp_path / "base"
    with Store(base, engine=ENGINE) as store:
        store.import_log(segments_log(tmp_path / "segments.jsonl", count))
    before = exported(base, tmp_path / "before.jsonl")
    at = "2030-01-01T00:00:00Z"
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    with Store(reference, engine=ENGINE, allow_future=True) as store:  # ``at`` is past the wall clock
        started = time.perf_counter()
        decision = store.add("S", "status", "final", valid_from="2000-01-01", valid_to="2100-01-01",
                             recorded_at=at)
        took = time.perf_counter() - started
        assert len(decision.closed) == count
    after = exported(reference, tmp_path / "after.jsonl")
    outcomes = []
    for n, delay in enumerate([None, *delays(seed, kills, took * 1.3)]):
        directory = tmp_path / f"run{n}"
        shutil.copytree(base, directory)
        hook = "commit" if delay is None else None
        what = kill_during({"store": directory, "do": "supersede", "at": at, "hook": hook}, delay=delay)
        found = exported(directory, tmp_path / f"run{n}.jsonl")
        assert found in (before, after), f"run {n} ({what}, delay {delay}): a partial supersede survived"
        if hook:
            assert what == "killed" and found == before
        outcomes.append("after" if found == after else "before")
    return outcomes


def test_a_supersede_of_many_versions_killed_midway(tmp_path):
    supersede_runs(tmp_path, count=500, kills=1, seed=2)


@pytest.mark.slow
def test_a_supersede_of_thousands_of_versions_killed_many_times(tmp_path):
    outcomes = supersede_runs(tmp_path, count=2000, kills=5, seed=3)
    assert "before" in outcomes


# -- an ingest: one write per message, many messages to a transaction ----------------------------


def held(store: Store, at: datetime) -> list[tuple]:
    """What was believed at ``at``: each version's statement, periods and status."""
    return [(v.id, v.subject, v.predicate, v.object, v.valid_from, v.valid_to, v.recorded_at, v.status)
            for v in store.beliefs(as_of=at, valid_at="all")]


def chat(path: Path, count: int, *, tied: bool = False) -> Path:
    """A conversation of ``count`` exchanges; ``tied``: at minute resolution, each user message and
    its reply share one chat time (and every third exchange the one before's)."""
    cities = ["Beijing", "Shanghai", "Hangzhou", "Xi'an", "Chengdu", "Wuhan"]
    start = datetime(2025, 1, 1, tzinfo=UTC)
    lines = []
    for i in range(count):
        said = [f"I live in {cities[i % 6]}.", f"I like {cities[(i + 1) % 6]} tea.",
                f"I don't like {cities[(i + 3) % 6]} tea anymore.", f"I travelled to {cities[i % 6]} last week."]
        day = start + timedelta(days=i - 1 if tied and i % 3 == 2 else i)
        lines.append({"id": f"m{i}", "role": "user", "content": said[i % 4], "chat_time": iso(day)})
        lines.append({"id": f"a{i}", "role": "assistant", "content": "Noted.",
                      "chat_time": iso(day if tied else day + timedelta(minutes=1))})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def commits(messages: int, batch: int) -> int:
    """How many transactions an ingest of ``messages`` commits: the first message alone, then
    ``batch`` at a time (a message whose facts the gate refuses is written in its batch)."""
    return 1 + -(-(messages - 1) // batch)


@pytest.mark.parametrize("batch", [1, 7])  # a transaction per message; seven messages to one
def test_an_ingest_killed_midway_keeps_whole_messages(tmp_path, batch):
    from graphmem.ingest import ingest, read_messages

    file = chat(tmp_path / "chat.jsonl", 30)
    reference = tmp_path / "reference"
    with Store(reference, engine=ENGINE) as store:
        ingest(store, read_messages(file), replay=True, approve=True)
        decisions = store.decisions()
        episodes = store.episodes()
        assert len(episodes) == 60 and any(d.op == "UPDATE" for d in decisions)
        assert any(p.state == "pending" for p in store.proposals())  # the gate refused some facts
    rng = random.Random(4)
    last = commits(60, batch) - 1  # (the kill hooks the COMMIT of that transaction)
    for n, (nth, delay) in enumerate([(rng.randint(min(5, last), last), None), (None, rng.uniform(0.2, 1.5))]):
        directory = tmp_path / f"run{n}"
        Store(directory, engine=ENGINE).close()
        kill_during({"store": directory, "do": "ingest", "file": file, "hook": "commit" if nth else None,
                     "nth": nth, "batch": batch}, delay=delay)
        with Store(directory, engine=ENGINE) as store:
            assert store.check() == []
            got = store.decisions()
            assert got == decisions[:len(got)], f"run {n}: not a prefix of the whole ingest"
            if nth:
                assert len(store.episodes()) < 60
            if got:
                at = got[-1].at
                assert store.episodes() == [e for e in episodes if e.received_at <= at]
                with Store(reference, engine=ENGINE) as whole:  # (episodes linked later show in both)
                    assert held(store, at) == held(whole, at)
        with Store(directory, engine=ENGINE) as store:  # running the file again finishes the job
            before = len(store.episodes())
            summary = ingest(store, read_messages(file), replay=True, approve=True)
            assert summary.already == before and summary.episodes == 60 - before
            assert [(e.actor, e.reference_time, e.text) for e in store.episodes()] == \
                [(e.actor, e.reference_time, e.text) for e in episodes]
            assert store.check() == []


@pytest.mark.parametrize(("batch", "kills"), [
    (1, (2, 7, 8, 15)),  # after a user message, after its reply, mid-group, ...
    (5, (1, 2, 3, 5)),  # transactions of 1, 5, 5, ... messages: boundaries inside groups of ties
])
def test_a_replay_of_messages_sharing_chat_times_killed_anywhere_is_finished_by_a_rerun(tmp_path, batch, kills):
    from graphmem.ingest import ingest, read_messages

    file = chat(tmp_path / "chat.jsonl", 12, tied=True)
    reference = tmp_path / "reference"
    with Store(reference, engine=ENGINE) as store:
        ingest(store, read_messages(file), replay=True, approve=True)
        whole = (store.decisions(), store.episodes(), held(store, store.latest_write()))
    assert len({e.reference_time for e in whole[1]}) < len(whole[1])  # ties, written a tick apart
    assert kills[-1] < commits(24, batch)
    for nth in kills:
        directory = tmp_path / f"run{nth}"
        Store(directory, engine=ENGINE).close()
        assert kill_during({"store": directory, "do": "ingest", "file": file, "hook": "commit",
                            "nth": nth, "batch": batch}) == "killed"
        with Store(directory, engine=ENGINE) as store:
            summary = ingest(store, read_messages(file), replay=True, approve=True)
            assert summary.already + summary.episodes == 24
            assert (store.decisions(), store.episodes(), held(store, store.latest_write())) == whole
            assert store.check() == []


# -- a purge and the rewrite of the store's files --------------------------------------------------


def test_a_purge_killed_before_its_rewrite_is_finished_on_open(tmp_path):
    secret = "Qz9PrivateLane"
    base = tmp_path / "base"
    with Store(base, engine=ENGINE) as store:
        said = store.add_episode(f"I live at {secret}.", recorded_at="2026-01-01")
        store.add("Ivan", "lives_in", secret, episode=said.id, recorded_at="2026-01-02")
        store.add("Ivan", "knows", "Anna", recorded_at="2026-01-03")
    rng = random.Random(5)
    for n, delay in enumerate([None, rng.uniform(0.0, 0.6)]):
        directory = tmp_path / f"run{n}"
        shutil.copytree(base, directory)
        kill_during({"store": directory, "do": "purge", "target": secret, "at": "2026-02-01",
                     "hook": "swap" if delay is None else None}, delay=delay)
        with Store(directory, engine=ENGINE) as store:  # finishes an interrupted rewrite
            assert store.check() == []
            purged = bool(store.tombstones())
            assert purged == (secret not in [e.name for e in store.entities()])
            if delay is None:
                assert purged
        assert not (directory / PENDING).exists() and not (directory / WORK).exists()
        holding = [p.name for p in directory.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
        assert holding == ([] if purged else holding)
        if purged:
            assert holding == [], f"run {n}: the purged text survived in {holding}"
