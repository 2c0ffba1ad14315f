"""Concurrency: one clear line for a second process; threads sharing one Store are safe."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner

from graphmem import GraphmemError, Store, StoreLocked
from graphmem.cli import main
from graphmem.core.times import UTC
from tests.conftest import ENGINE


class TickingClock:
    """A store clock that moves one second on every call, from any thread."""

    def __init__(self):
        self._ticks = itertools.count(1)
        self._start = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self._start + timedelta(seconds=next(self._ticks))


def hold(directory, *, graphmem: bool = True) -> subprocess.Popen:
    """A child process holding the store (through graphmem, or the bare engine) until told to stop."""
    opener = f"Store({str(directory)!r})" if graphmem else \
        f"importlib.import_module({ENGINE!r}).Database({str(directory / 'graph.db')!r})"
    code = textwrap.dedent(f"""
        import importlib, importlib.util, sys
        from graphmem import Store
        held = {opener}
        print("holding", flush=True)
        sys.stdin.readline()
        """)
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "GRAPHMEM_ENGINE": ENGINE})
    assert child.stdout.readline().strip() == "holding", child.stderr.read()
    return child


def release(child: subprocess.Popen) -> None:
    child.stdin.write("\n")
    child.stdin.close()
    child.wait(timeout=60)


COMMANDS = [
    ["beliefs"], ["add", "a", "likes", "b"], ["history", "a", "likes"], ["export", "{tmp}/log.jsonl"],
    ["check"], ["import", "{tmp}/log.jsonl"], ["purge", "entity", "a", "--yes"], ["backup", "{tmp}/bk"],
    ["review", "list"], ["episodes"],
]


def test_every_command_of_a_second_process_is_served_by_the_holder(tmp_path):
    directory = tmp_path / "store"
    runner = CliRunner()
    assert runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, "init"]).exit_code == 0
    with Store(directory, engine=ENGINE) as store:
        store.add("a", "likes", "c")
        store.export(tmp_path / "log.jsonl")
    child = hold(directory)
    try:
        for command in COMMANDS:
            args = [a.format(tmp=tmp_path) for a in command]
            result = runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, *args])
            if command[0] == "import":  # into a store that has a log: refused, as it would be holding it
                assert result.exit_code == 1 and "in use" not in result.output, result.output
                continue
            assert result.exit_code == 0, (command, result.output)
        with Store(directory, engine=ENGINE) as client:
            assert client.holder["pid"] == child.pid and client.check() == []
            assert "a" not in {v.subject for v in client.beliefs()}  # purged, through the holder
    finally:
        release(child)
    assert (tmp_path / "bk" / "graphmem.json").exists()  # the backup is where the client said
    with Store(directory, engine=ENGINE) as store:  # and once the holder has gone, the store opens
        assert store.check() == [] and store.tombstones()


def test_a_holder_that_is_not_graphmem_is_not_misnamed(tmp_path):
    """A stale owner file (its process gone) does not name a process in the message."""
    directory = tmp_path / "store"
    Store(directory, engine=ENGINE).close()
    (directory / "owner.pid").write_text("999999999")
    child = hold(directory, graphmem=False)
    try:
        with pytest.raises(StoreLocked) as caught:
            Store(directory, engine=ENGINE, wait=0)  # (no waiting: tests/test_holding.py times the wait)
        assert "in use by another process;" in str(caught.value) and "999999999" not in str(caught.value)
    finally:
        release(child)


def test_threads_sharing_a_store_see_a_past_that_never_changes():
    """Many threads mix writes and reads; every as-of answer given during the run is given again after."""
    rng = random.Random(7)
    people = [f"p{i}" for i in range(6)]
    places = ["Prague", "Berlin", "Oslo", "Rome", "Lima"]
    errors: list[BaseException] = []
    refused: list[GraphmemError] = []
    answers: list[tuple] = []
    with Store(":memory:", engine=ENGINE, clock=TickingClock()) as store:
        store.declare("mood", "one")

        def writer(seed: int) -> None:
            local = random.Random(seed)
            try:
                for _ in range(30):
                    who, where = local.choice(people), local.choice(places)
                    action = local.random()
                    try:
                        if action < 0.45:
                            store.add(who, "lives_in", where, valid_from=f"20{local.randint(10, 25)}-01-01")
                        elif action < 0.6:
                            store.segment(who, "lives_in", where, valid_from="2012-03-01", valid_to="2012-04-01")
                        elif action < 0.7:
                            store.end(who, "lives_in", at="2024-06-01")
                        elif action < 0.8:
                            episode = store.add_episode(f"{who} likes {where}")
                            store.add(who, "likes", where, episode=episode.id)
                        elif action < 0.9:
                            believed = store.beliefs(valid_at="all")
                            if believed:
                                store.retract(local.choice(believed).id, reason="wrong")
                        else:
                            store.add(who, "mood", local.choice(["fine", "tired"]))
                    except GraphmemError as exc:  # e.g. retracting what another thread just closed
                        refused.append(exc)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        def reader(seed: int) -> None:
            local = random.Random(seed)
            try:
                while store.latest_write() is None:  # the readers read while the writers write
                    time.sleep(0.001)
                for _ in range(25):
                    at = store.latest_write()
                    valid = local.choice([None, "all", "2012-03-15", "2020-06-01"])
                    answers.append(("beliefs", at, valid, store.beliefs(as_of=at, valid_at=valid)))
                    who = local.choice(people)
                    try:
                        answers.append(("timeline", at, who, store.timeline(who, as_of=at)))
                    except GraphmemError:
                        pass  # not there yet
                    earlier = at - timedelta(seconds=local.randint(1, 30))
                    answers.append(("diff", at, earlier, store.diff(earlier, at)))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(rng.random(),)) for _ in range(4)]
        threads += [threading.Thread(target=reader, args=(rng.random(),)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [], errors
        assert all(type(e).__name__ in ("Conflict", "NotFound") for e in refused), refused
        assert len(store.decisions()) > 80 and len(answers) > 150
        assert store.check() == []
        decisions = store.decisions()
        assert [d.at for d in decisions] == sorted({d.at for d in decisions})
        for kind, at, arg, answer in answers:  # every field, the episodes linked included
            if kind == "beliefs":
                assert store.beliefs(as_of=at, valid_at=arg) == answer, (kind, at, arg)
            elif kind == "timeline":
                assert store.timeline(arg, as_of=at) == answer, (kind, at, arg)
            else:
                assert store.diff(arg, at) == answer, (kind, at, arg)


@pytest.mark.parametrize("question", ["timeline", "beliefs", "diff", "why", "neighbourhood"])
def test_a_write_cannot_land_inside_a_read(store, clock, monkeypatch, question):
    """A read of several statements is one moment: another thread's write (here, a later link of
    an episode to the believed version) waits until the read is done, instead of showing up in an
    answer about a time before it."""
    from graphmem.read import questions

    store.add("Ann", "likes", "tea", valid_from="2020-01-01", quote="Ann likes tea.")
    clock.advance(days=1)
    later = store.add_episode("Still likes tea.", kind="chat")
    as_of = store.latest_write()
    asks = {
        "timeline": lambda: store.timeline("Ann", as_of=as_of),
        "beliefs": lambda: store.beliefs(as_of=as_of, valid_at="all"),
        "diff": lambda: store.diff("2025-12-31", as_of),
        "why": lambda: store.why("Ann", "likes", valid_at="2021-01-01", as_of="2025-12-31", vs=as_of),
        "neighbourhood": lambda: store.neighbourhood("Ann", as_of=as_of).versions,
    }
    unseen_at, writer = questions.unseen_at, []

    def write_meanwhile(engine, at):
        found = unseen_at(engine, at)
        if not writer:  # once: cite the later episode, linking it to the believed version now
            clock.advance(days=1)
            writer.append(threading.Thread(target=store.add, args=("Ann", "likes", "tea"),
                                           kwargs={"episode": later.id}))
            writer[0].start()
            writer[0].join(timeout=0.5)  # done by now, unless the read holds the store
        return found

    monkeypatch.setattr(questions, "unseen_at", write_meanwhile)
    monkeypatch.setattr("graphmem.read.neighbourhood.unseen_at", write_meanwhile)
    answer = asks[question]()
    writer[0].join()
    monkeypatch.undo()
    assert store.decisions()[-1].op == "NOOP" and later.id in store.versions("Ann")[0].episodes
    assert answer == asks[question](), "an answer about the past changed"


def test_a_past_diff_never_changes(store, clock):
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01")
    clock.advance(days=1)
    before = store.diff("2000-01-01", clock())
    clock.advance(days=1)
    store.add("Ivan", "lives_in", "Berlin", valid_from="2026-01-01")
    assert store.diff("2000-01-01", before[0].at) == before


def test_readers_keep_working_while_a_thread_purges(tmp_path):
    """A purge rewrites the store's files; readers on other threads wait, then go on."""
    with Store(tmp_path / "store", engine=ENGINE) as store:
        for i in range(5):
            episode = store.add_episode(f"secret {i}")
            store.add(f"p{i}", "likes", f"thing{i}", episode=episode.id)
        stop = threading.Event()
        errors: list[BaseException] = []
        seen: list[int] = []

        def reader() -> None:
            try:
                while not stop.is_set():
                    seen.append(len(store.beliefs()))
                    store.episodes()
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for t in threads:
            t.start()
        try:
            for i in range(3):
                store.purge("entity", f"thing{i}")
        finally:
            stop.set()
            for t in threads:
                t.join()
        assert errors == [] and seen
        assert len(store.beliefs()) == 2 and store.check() == []
