"""A CLI write killed with SIGKILL at any moment: the write is in the store whole, or not at all.

A CLI process does not checkpoint when it closes a store whose write-ahead log is small (the
next open replays the log instead), so these tests kill ``graphmem add`` while it runs, right
after it has printed its decision (while it is closing), and a later reader while it replays a
kept log; then they reopen the store and check it. They also hold the log a crash replays to a
bound: a close folds a log larger than ``LOG_KEPT_AT_CLOSE`` into the database file.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import graphmem.engine
from graphmem import Store
from graphmem.cli import main
from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent


def cli(store: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "graphmem", "--store", str(store), "--engine", ENGINE, *args]


def run(store: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(cli(store, *args), capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def state(store: Path) -> tuple[list[tuple], list[str]]:
    """The believed facts (subject, predicate, object) and the episodes' texts, read by a fresh
    process (this one may hold the other engine), and the store's check."""
    script = (
        "import json, sys\n"
        "from graphmem import Store\n"
        "with Store(sys.argv[1]) as s:\n"
        "    facts = sorted((v.subject, v.predicate, v.object) for v in s.beliefs(valid_at='all'))\n"
        "    texts = sorted(e.text for e in s.episodes())\n"
        "    bad = [f'{v.rule}: {v.detail}' for v in s.check()]\n"
        "print(json.dumps([facts, texts, bad]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(store)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "GRAPHMEM_ENGINE": ENGINE}, timeout=120)
    assert done.returncode == 0, done.stderr
    facts, texts, bad = json.loads(done.stdout)
    assert bad == [], bad
    return [tuple(f) for f in facts], texts


@pytest.fixture
def seeded(tmp_path) -> Path:
    """A store made by the command line (in this process: the tests' own commands run in children)."""
    store = tmp_path / "store"
    runner = CliRunner()
    for args in (["init"], ["add", "Ivan", "lives_in", "Prague", "--from", "2020-01-01", "--quote",
                            "Ivan lives in Prague."]):
        result = runner.invoke(main, ["--store", str(store), "--engine", ENGINE, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return store


def whole_or_absent(store: Path, before: tuple, quote: str, fact: tuple) -> tuple:
    """Check the store after a killed write of ``fact`` quoting ``quote``; return its state."""
    facts, texts = state(store)
    landed = fact in facts
    assert landed == (quote in texts), (facts, texts)  # the episode and the fact, together or neither
    if landed:
        assert len(texts) == len(before[1]) + 1
    else:
        assert (facts, texts) == before
    return facts, texts


def test_a_cli_write_killed_at_random_moments_lands_whole_or_not_at_all(seeded):
    rng = random.Random(15)
    before = state(seeded)
    for n in range(4):
        quote = f"Ivan moved to City{n}."
        child = subprocess.Popen(cli(seeded, "add", "Ivan", "lives_in", f"City{n}", "--quote", quote),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        time.sleep(rng.uniform(0.2, 2.0))
        child.send_signal(signal.SIGKILL)
        child.communicate()
        before = whole_or_absent(seeded, before, quote, ("Ivan", "lives_in", f"City{n}"))
    run(seeded, "check")


def test_a_cli_write_killed_as_soon_as_it_reports_is_kept(seeded):
    """The decision is printed after the COMMIT: a kill while the process closes the store (not
    checkpointing, or checkpointing a large log) loses nothing."""
    for n in range(3):
        quote = f"Ivan moved to Town{n}."
        child = subprocess.Popen(cli(seeded, "add", "Ivan", "lives_in", f"Town{n}", "--quote", quote),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        line = child.stdout.readline().decode()
        child.send_signal(signal.SIGKILL)
        child.communicate()
        assert line.startswith("UPDATE"), line
        facts, texts = state(seeded)
        assert ("Ivan", "lives_in", f"Town{n}") in facts and quote in texts


def test_a_reader_killed_while_it_replays_a_kept_log_loses_nothing(seeded):
    run(seeded, "add", "Ivan", "likes", "tea", "--quote", "Ivan likes tea.")
    assert (seeded / "graph.db.wal").exists()  # the writes above were left in the log, not checkpointed
    for delay in (0.05, 0.3, 0.8):
        child = subprocess.Popen(cli(seeded, "history", "Ivan", "likes"), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, cwd=ROOT)
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.communicate()
    facts, texts = state(seeded)
    assert ("Ivan", "likes", "tea") in facts and "Ivan likes tea." in texts


def test_the_log_left_at_close_stays_bounded(tmp_path, monkeypatch):
    """Each CLI write leaves its bit of log; once the log passes the bound, a close folds it in."""
    bound = 24 * 2**10
    monkeypatch.setattr(graphmem.engine, "LOG_KEPT_AT_CLOSE", bound)
    store = tmp_path / "store"
    runner = CliRunner()

    def gm(*args):
        result = runner.invoke(main, ["--store", str(store), "--engine", ENGINE, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    wal = store / "graph.db.wal"
    gm("init")
    sizes, grown = [], 0
    for n in range(40):
        before = wal.stat().st_size if wal.exists() else 0
        gm("add", "Ivan", "likes", f"thing{n}", "--quote", f"Ivan likes thing{n}.")
        size = wal.stat().st_size if wal.exists() else 0
        grown = max(grown, size - before)
        sizes.append(size)
    assert max(sizes) <= bound + grown, sizes  # never more than the bound and one command's writes
    assert any(later < earlier for earlier, later in zip(sizes, sizes[1:])), sizes  # a close checkpointed
    assert any(size > 0 for size in sizes), sizes  # and the others kept the log (no checkpoint per call)
    with Store(store, engine=ENGINE) as s:
        assert len(s.beliefs(valid_at="all")) == 40
        assert s.check() == []


def test_a_store_open_for_many_small_writes_folds_them_in_every_so_many(tmp_path, monkeypatch):
    """A seventh new user's: 4,000 single adds to one open Store grew the process ~0.2 MB a write and, with a 256 MB
    page cache, failed after ~2,000 with the engine's "buffer pool is full": its pages waited for a checkpoint that
    came only with a 256 MB log. A store now checkpoints after so many commits (two per megabyte of its cache)."""
    monkeypatch.setenv(graphmem.engine.BUFFER_POOL_ENV, "64")
    assert graphmem.engine.checkpoint_every() == 128
    with Store(tmp_path / "store", engine=ENGINE, hold=False) as store:
        wal = tmp_path / "store" / "graph.db.wal"
        sizes = []
        for n in range(300):
            store.add(f"P{n % 50}", "lives_in", f"City{n % 7}", valid_from="2020-01-01")
            sizes.append(wal.stat().st_size if wal.exists() else 0)
        assert sum(1 for a, b in zip(sizes, sizes[1:]) if b < a) >= 2, sizes[::25]  # folded in at 128 and 256
        assert store.check() == [] and len(store.history("P0", "lives_in")) >= 1


# -- an ingest stopped by Ctrl-C or SIGTERM ----------------------------------------------------------


_STOPPED_AT = """
import signal, sys
import graphmem.engine as engine
import graphmem.ingest._writing as writing
from graphmem.cli import main
at, sent = sys.argv[1], getattr(signal, sys.argv[2])
write_all, write_group, plan, load = writing.write_all, writing._write_group, writing.Planned, engine.load_engine
groups, planned, armed = [], [], []

def stop():  # as a person's Ctrl-C, or a service manager's stop, arrives: to this thread, now (not to an
    signal.raise_signal(sent)  # engine's thread, which under load could run Python's handler late)

def planning(*args):  # a message read to be written: the 26th is read after three transactions, before the fourth
    planned.append(1)
    if at == "between" and len(planned) == 26:
        stop()
    return plan(*args)

def write_one_group(*args, **kwargs):
    groups.append(1)
    armed[:] = [at] if len(groups) == 4 else []  # the fourth transaction: "writing" or "committing" it
    return write_group(*args, **kwargs)

class Connection:  # the engine's connection, told where the fourth transaction is
    def __init__(self, database):
        self.connection = load(engine_name).Connection(database)
    def __getattr__(self, name):
        return getattr(self.connection, name)
    def execute(self, query, *args, **kwargs):
        if armed == ["writing"] and query != "BEGIN TRANSACTION":  # its first statement
            armed.clear()
            stop()
        if armed == ["committing"] and query == "COMMIT":  # the signal comes while the engine commits: Python takes
            armed.clear()  # it as the commit returns (its result, unused, not kept)
            self.connection.execute(query)
            return stop()
        return self.connection.execute(query, *args, **kwargs)

class Module:
    def __init__(self, module):
        self.module, self.Connection = module, Connection
    def __getattr__(self, name):
        return getattr(self.module, name)

def loading(name):
    global engine_name
    engine_name = name
    return Module(load(name))

summary = writing.Tally.summary

def summing_up(*args, **kwargs):  # every message written, the summary not yet printed
    if at == "after":
        stop()
    return summary(*args, **kwargs)

engine.load_engine, writing.Planned, writing._write_group = loading, planning, write_one_group
writing.Tally.summary = summing_up
writing.write_all = lambda *args, **kwargs: write_all(*args, **{**kwargs, "batch": 10})
main(sys.argv[3:], prog_name="graphmem")
"""


@pytest.mark.parametrize(("at", "sent", "written"), [
    ("between", "SIGINT", 21), ("writing", "SIGINT", 31), ("committing", "SIGINT", 31),
    ("committing", "SIGTERM", 31), ("after", "SIGINT", 60)])
def test_an_ingest_stopped_midway_says_what_it_wrote_and_the_same_command_writes_the_rest(tmp_path, at, sent,
                                                                                          written):
    """A new user's find: Ctrl-C printed a bare "error: aborted", and SIGTERM left no word at all. Then another's: a
    Ctrl-C that came while a transaction was committed said one transaction (2,048 messages) fewer than the store
    held and the run again skipped. A signal that comes while a transaction is written or committed is taken once it
    is stored and counted; one between transactions at once: either way, what is said is what a run again skips (and
    one that comes once all is written, before the summary, says so, not that there is a rest to write)."""
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps({"id": f"m{n}", "role": "user", "content": f"I like tea number {n}.",
                                        "chat_time": f"2025-01-01T{n // 60:02d}:{n % 60:02d}:00Z"}) + "\n"
                            for n in range(60)))
    store = tmp_path / "store"
    args = ["--store", str(store), "--engine", ENGINE, "ingest", str(chat), "--replay", "--approve"]
    stopped = subprocess.run([sys.executable, "-c", _STOPPED_AT, at, sent, *args], capture_output=True,
                             text=True, cwd=ROOT, timeout=300)
    assert stopped.returncode == 1, stopped.stderr
    _, texts = state(store)  # the first message alone, then 10 at a time: three transactions, and the fourth or not
    assert len(texts) == written
    assert stopped.stderr.splitlines() == [
        f"error: interrupted after writing {written} of the 60 messages new to the store (each write is whole: they "
        "are kept); run the same command again to write the rest (messages recorded are skipped)" if written < 60 else
        "error: interrupted after writing all 60 messages new to the store (they are kept; the same command again "
        "writes nothing new)"]
    again = run(store, "ingest", str(chat), "--replay", "--approve")
    assert f"skipped {written} messages recorded by an earlier run" in again.stdout
    facts, texts = state(store)
    assert len(texts) == 60 and len(facts) == 60


_STOPPED_READING = """
import os, signal, sys
import graphmem.ingest as ingest
from graphmem.cli import main
read, sent = ingest.read_messages, sys.argv[1]
def reading(*args, **kwargs):
    os.kill(os.getpid(), getattr(signal, sent))  # stopped while the file is still being read, before any write
    return read(*args, **kwargs)
ingest.read_messages = reading
main(sys.argv[2:], prog_name="graphmem")
"""


def _signals_as_a_terminal_gives_them() -> None:
    """In the child, before it runs: SIGINT and SIGTERM unblocked and at their default, as a shell starts a command,
    whatever the test's worker process inherited or left (once, under a load of 11, the self-sent SIGINT was never
    seen and the ingest ran to its end)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.mark.parametrize("sent", ["SIGINT", "SIGTERM"])
def test_an_ingest_stopped_while_reading_its_file_says_so_and_leaves_no_store(tmp_path, sent):
    """A reviewer's: stopped while the file was still read (4 s for 300,000 messages), an ingest said "error:
    aborted", or, by SIGTERM, nothing."""
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "I like tea.", "chat_time": "2025-01-01"}) + "\n")
    store = tmp_path / "store"
    args = ["--store", str(store), "--engine", ENGINE, "ingest", str(chat)]
    stopped = subprocess.run([sys.executable, "-c", _STOPPED_READING, sent, *args], capture_output=True, text=True,
                             cwd=ROOT, timeout=300, preexec_fn=_signals_as_a_terminal_gives_them)
    assert stopped.returncode == 1, stopped.stderr
    assert stopped.stderr.splitlines() == [
        "error: interrupted before writing anything; run the same command again to write the rest (messages "
        "recorded are skipped)"]
    assert not store.exists()
