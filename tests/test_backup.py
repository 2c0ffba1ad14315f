"""Backups: a consistent copy of one moment of the log, restored losslessly, refused when damaged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner

from graphmem import InvalidInput, Store
from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.log.backup import MANIFEST, read_backup, restore_into
from tests.conftest import ENGINE


def rich_store(store: Store) -> None:
    """Every kind of record: versions with both periods, provenance, pending, rejected, retracted, purged."""
    from graphmem.scenario import ScenarioClock, load, play

    play(store, load("design"), ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC)))
    store.declare("mentors", "one")
    store.set_review_skips(["manual", "import"])
    store.propose("Lin", "likes", "pears", source="chat", quote="maybe pears")
    store.propose("Lin", "likes", "plums", source="chat", quote="plums?")
    (plums,) = [p for p in store.proposals() if p.object == "plums"]
    store.reject([plums.id], reason="a question, not a fact")
    wrong = store.add("Lin", "mentors", "Kim", valid_from="2025-02-01", valid_to="2025-03-01",
                      quote="Lin mentored Kim in February. \u202eשלום\u202c \x00")
    store.retract(wrong.created[0], reason="it was Kim who mentored Lin")
    secret = store.add_episode("forget me")
    store.purge("episode", secret.id)


def but_counters(log: list[str]) -> list[str]:
    """A log without its id counters, which a restore in place carries on from the store it replaces."""
    return [r for r in log if not r.startswith('{"type": "meta", "key": "seq:')]


def log_of(store: Store, path) -> list[str]:
    """The store's export, one record per line, header dropped (it names the engine)."""
    store.export(path)
    return path.read_text(encoding="utf-8").splitlines()[1:]


def test_round_trip_is_lossless(tmp_path):
    with Store(tmp_path / "store", engine=ENGINE, timezone="Europe/Berlin") as store:
        rich_store(store)
        original = log_of(store, tmp_path / "original.jsonl")
        info = store.backup(tmp_path / "backup")
    assert info.engine == ENGINE and info.tables["Fact"] == sum('"type": "version"' in r for r in original)
    kinds = {json.loads(r)["type"] for r in original}
    assert {"entity", "episode", "decision", "version", "proposal", "tombstone", "predicate", "meta"} <= kinds
    records = [json.loads(r) for r in original]
    assert any(r["type"] == "proposal" and r["state"] == "pending" for r in records)
    assert any(r["type"] == "version" and r["reason"] == "it was Kim who mentored Lin" for r in records)

    restored = tmp_path / "restored"
    restore_into(restored, tmp_path / "backup")
    with Store(restored) as copy:
        assert log_of(copy, tmp_path / "restored.jsonl") == original
        assert copy.tz_name == "Europe/Berlin" and copy.check() == []
        assert copy.review_skips() == ["manual", "import"] and copy.kind_of("mentors") == "one"
        (retracted,) = [v for v in copy.versions("Lin") if v.predicate == "mentors"]
        assert retracted.status == "retracted" and "\x00" in copy.episodes_of(retracted.id)[0].text

    # restore over a store that has moved on: it is rewound to the backup exactly, but for the id counters, which go
    # on from the highest it gave
    with Store(tmp_path / "store") as store:
        store.add("Lin", "likes", "figs")
        other = Store(tmp_path / "store")  # a second Store on the path in this process
        try:
            store.restore(tmp_path / "backup")
            again = log_of(other, tmp_path / "again.jsonl")
            assert but_counters(again) == but_counters(original) and len(again) == len(original)
            assert '{"type": "meta", "key": "seq:d", "value": "' in "".join(again)
            other.add("Lin", "likes", "dates")  # and both go on working
            assert "dates" in [v.object for v in store.beliefs()]
        finally:
            other.close()


def test_backup_of_an_in_memory_store(tmp_path, store):
    rich_store(store)
    original = log_of(store, tmp_path / "original.jsonl")
    store.backup(tmp_path / "backup")
    restore_into(tmp_path / "restored", tmp_path / "backup")
    with Store(tmp_path / "restored") as copy:
        assert log_of(copy, tmp_path / "restored.jsonl") == original


def test_backup_is_one_moment_while_threads_read_and_write(tmp_path):
    """Taken mid-run, the backup equals the store as of its own latest write, nothing torn."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with Store(tmp_path / "store", engine=ENGINE) as store:
        stop = threading.Event()
        errors: list[BaseException] = []
        tick = iter(range(1, 10**6))
        lock = threading.Lock()

        def writer(n: int) -> None:
            try:
                while not stop.is_set():
                    with lock:  # explicit transaction times, strictly increasing across threads
                        at = start + timedelta(minutes=next(tick))
                        store.add(f"w{n}", "lives_in", f"city{at.minute}", recorded_at=at)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        def reader() -> None:
            try:
                while not stop.is_set():
                    store.beliefs(valid_at="all")
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        threads += [threading.Thread(target=reader) for _ in range(2)]
        for t in threads:
            t.start()
        try:
            while len(store.decisions()) < 10:
                time.sleep(0.01)
            info = store.backup(tmp_path / "backup")
            while len(store.decisions()) < info.tables["Decision"] + 20:
                time.sleep(0.01)
        finally:
            stop.set()
            for t in threads:
                t.join()
        assert errors == []
        at = info.latest_write
        expected_decisions = [d for d in store.decisions() if d.at <= at]
        expected = store.beliefs(as_of=at, valid_at="all")
        assert len(store.decisions()) > len(expected_decisions)  # writes went on after the backup
    restore_into(tmp_path / "restored", tmp_path / "backup")
    with Store(tmp_path / "restored") as copy:
        assert copy.decisions() == expected_decisions
        assert copy.beliefs(as_of=at, valid_at="all") == expected
        assert copy.check() == []


def test_damaged_or_foreign_backups_are_refused(tmp_path):
    with Store(tmp_path / "store", engine=ENGINE) as store:
        store.add("a", "likes", "b")
        store.backup(tmp_path / "backup")
        with pytest.raises(InvalidInput, match="not an empty directory"):
            store.backup(tmp_path / "backup")
        with pytest.raises(InvalidInput, match="not a graphmem backup"):
            store.restore(tmp_path / "store")
        manifest = json.loads((tmp_path / "backup" / MANIFEST).read_text())
        other = "ladybug" if ENGINE == "kuzu" else "kuzu"
        (tmp_path / "foreign").mkdir()
        for f in (tmp_path / "backup").iterdir():
            (tmp_path / "foreign" / f.name).write_bytes(f.read_bytes())
        (tmp_path / "foreign" / MANIFEST).write_text(json.dumps({**manifest, "engine": other}))
        with pytest.raises(InvalidInput, match="export and import"):
            store.restore(tmp_path / "foreign")
        database = tmp_path / "backup" / "graph.db"
        data = bytearray(database.read_bytes())
        data[len(data) // 2] ^= 0xFF
        database.write_bytes(bytes(data))
        with pytest.raises(InvalidInput, match="damaged"):
            store.restore(tmp_path / "backup")
        assert [v.object for v in store.beliefs()] == ["b"] and store.check() == []
    with pytest.raises(InvalidInput, match="damaged"):
        read_backup(tmp_path / "backup")
    assert not (tmp_path / "store" / ".compact").exists()


def test_restore_keeps_the_store_zone(tmp_path):
    with Store(tmp_path / "berlin", engine=ENGINE, timezone="Europe/Berlin") as store:
        store.add("a", "likes", "b")
        store.backup(tmp_path / "backup")
    with Store(tmp_path / "utc", engine=ENGINE) as store:
        store.add("x", "likes", "y")
        with pytest.raises(InvalidInput, match="Europe/Berlin"):
            store.restore(tmp_path / "backup")
        assert [v.object for v in store.beliefs()] == ["y"]


def test_a_restore_in_place_never_gives_an_id_again(tmp_path):
    """A developer's: after a restore in place, the next write got the ids of writes the restore dropped ("v2" had
    been "a likes c", which an assistant may still hold); ids now go on from the highest the store gave."""
    with Store(tmp_path / "s", engine=ENGINE) as store:
        store.add("a", "likes", "b")
        store.backup(tmp_path / "backup")
        dropped = store.add("a", "likes", "c")
        store.restore(tmp_path / "backup")
        again = store.add("a", "likes", "d")
        assert set(again.created).isdisjoint(dropped.created) and again.id != dropped.id
        assert {v.object for v in store.beliefs()} == {"b", "d"} and store.check() == []


def gm_runner(tmp_path):
    runner = CliRunner()

    def gm(*args, store="store", ok=True):
        result = runner.invoke(main, ["--store", str(tmp_path / store), "--engine", ENGINE, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return gm


def test_backup_and_restore_through_the_cli(tmp_path):
    gm = gm_runner(tmp_path)
    gm("init")
    gm("add", "Ivan", "lives_in", "Prague", "--from", "2020-01-01", "--quote", "Ivan lives in Prague.")
    gm("export", str(tmp_path / "before.jsonl"))
    out = gm("backup", str(tmp_path / "bk")).stdout
    assert out.startswith("backed up to") and "1 Fact" in out
    gm("add", "Ivan", "lives_in", "Berlin")
    refused = gm("restore", str(tmp_path / "bk"), ok=False)
    assert refused.exit_code == 1 and "--yes" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert gm("restore", str(tmp_path / "bk"), "--yes").stdout.startswith("restored from")
    gm("export", str(tmp_path / "after.jsonl"))
    before, after = ((tmp_path / f"{n}.jsonl").read_text().splitlines() for n in ("before", "after"))
    assert but_counters(before) == but_counters(after) and before != after  # the counters go on
    gm("restore", str(tmp_path / "bk"), store="new")
    assert json.loads(gm("beliefs", "--json", store="new").stdout)[0]["object"] == "Prague"
    info = json.loads(gm("backup", str(tmp_path / "bk2"), "--json").stdout)[0]
    assert info["engine"] == ENGINE and info["tables"]["Episode"] == 1
    for args in (["backup", str(tmp_path / "bk")], ["restore", str(tmp_path / "nothing")],
                 ["restore", str(tmp_path / "store"), "--yes"]):
        bad = gm(*args, ok=False)
        assert bad.exit_code != 0 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_backup_from_another_process_goes_through_the_holder(tmp_path):
    gm = gm_runner(tmp_path)
    gm("init")
    code = textwrap.dedent(f"""
        import sys, time
        from graphmem import Store
        with Store({str(tmp_path / 'store')!r}):
            print("holding", flush=True)
            sys.stdin.readline()
        """)
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "GRAPHMEM_ENGINE": ENGINE})
    try:
        assert holder.stdout.readline().strip() == "holding"
        assert gm("backup", str(tmp_path / "bk")).stdout.startswith("backed up")  # the path is ours
        with Store(tmp_path / "store", engine=ENGINE) as client:
            assert type(client).__name__ == "RemoteStore" and client.holder["pid"] == holder.pid
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=60)
    assert (tmp_path / "bk" / "graphmem.json").exists()
    assert gm("backup", str(tmp_path / "bk2")).stdout.startswith("backed up")
