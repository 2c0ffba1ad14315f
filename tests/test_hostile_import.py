"""Hostile import files and names (issue 26, items 3 and 4).

A file that is not a regular file is never read nor waited on; every file is read within
budgets checked while it is read (a JSON Lines line's length, its nesting, a Parquet file's row
count from its own metadata and what it decodes to), so an import's peak memory stays far below
1 GB whatever the file holds, measured in a child process (the engines reserve address space, so
resident memory is what counts). And an import refuses what a write refuses, so one visible
name stays one entity: `check` reports a store that breaks it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from graphmem import ImportFailed, InvalidInput, Store
from graphmem.log.parquet import FILES, HEADER
from tests.conftest import ENGINE, Clock
from tests.test_bad_input import small_log

#: A hostile file must be refused long before the import holds this much (resident, at its peak).
FAR_BELOW_1GB = 400 << 20


#: The child: the command line, reporting its own peak resident memory (VmHWM, which starts
#: afresh at exec: a forked child's getrusage would count the pages of the test process too).
CHILD = """
import atexit, os, sys
def report():
    with open(os.environ["GRAPHMEM_TEST_HWM"], "w") as out:
        out.write(next(line for line in open("/proc/self/status") if line.startswith("VmHWM:")))
atexit.register(report)
from graphmem.cli import main
main(prog_name="graphmem")
"""


def import_in_child(tmp_path: Path, source: Path, *options: str) -> tuple[int, str, int]:
    """(exit status, stderr, peak resident bytes) of `graphmem import SOURCE` in a child process,
    killed if it is still running after two minutes (a hang, never a time limit on the import)."""
    store, peak = tmp_path / "store", tmp_path / "peak"
    env = {**os.environ, "GRAPHMEM_TEST_HWM": str(peak),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")])}
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-c", CHILD, "--store", str(store), "--engine", ENGINE,
                                  "import", *options, str(source)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=err, env=env)
        watchdog = threading.Timer(120, child.kill)
        watchdog.start()
        try:
            code = child.wait()
        finally:
            watchdog.cancel()
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    assert peak.exists(), f"the child died (status {code}): {stderr}"
    return code, stderr, int(peak.read_text().split()[1]) * 1024


def refused_in_child(tmp_path: Path, source: Path, message: str, *options: str) -> None:
    code, stderr, peak = import_in_child(tmp_path, source, *options)
    lines = stderr.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], (code, stderr)
    assert peak < FAR_BELOW_1GB, f"peak resident memory {peak:,} bytes"
    assert not (tmp_path / "store").exists() or "Traceback" not in stderr


def parquet_log(tmp_path: Path) -> Path:
    """A small sound Parquet log (every record type) as exported."""
    directory = tmp_path / "log"
    lines = small_log(tmp_path / "small.jsonl")
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(tmp_path / "small.jsonl")
        assert len(lines) > 5
        store.export(directory, format="parquet")
    return directory


def set_rows(directory: Path, stem: str, rows: int) -> None:
    header = json.loads((directory / HEADER).read_text(encoding="utf-8"))
    header["rows"][stem] = rows
    (directory / HEADER).write_text(json.dumps(header), encoding="utf-8")


# -- not a regular file: refused at once, never read nor waited on ------------------------------

def jsonl_dev_zero(tmp_path: Path) -> Path:
    return Path("/dev/zero")


def jsonl_link_to_dev_zero(tmp_path: Path) -> Path:
    (tmp_path / "log.jsonl").symlink_to("/dev/zero")
    return tmp_path / "log.jsonl"


def jsonl_fifo(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "log.jsonl")
    return tmp_path / "log.jsonl"


def header_fifo(tmp_path: Path) -> Path:
    directory = parquet_log(tmp_path)
    (directory / HEADER).unlink()
    os.mkfifo(directory / HEADER)
    return directory


def header_link_to_dev_zero(tmp_path: Path) -> Path:
    directory = parquet_log(tmp_path)
    (directory / HEADER).unlink()
    (directory / HEADER).symlink_to("/dev/zero")
    return directory


def versions_link_to_dev_zero(tmp_path: Path) -> Path:
    directory = parquet_log(tmp_path)
    (directory / "versions.parquet").unlink()
    (directory / "versions.parquet").symlink_to("/dev/zero")
    return directory


@pytest.mark.parametrize("make, message", [
    (jsonl_dev_zero, "/dev/zero is a device, not a regular file"),
    (jsonl_link_to_dev_zero, "log.jsonl is a device, not a regular file"),
    (header_link_to_dev_zero, "graphmem.json is a device, not a regular file"),
])
def test_a_device_is_refused_at_once(tmp_path, make, message):
    """`import /dev/zero`, a link to it, and a Parquet log whose header is a link to it: refused
    before a byte is read (the child's peak memory far below 1 GB)."""
    refused_in_child(tmp_path, make(tmp_path), message)


@pytest.mark.parametrize("make, message", [
    (jsonl_fifo, "log.jsonl is a FIFO (named pipe), not a regular file"),
    (header_fifo, "graphmem.json is a FIFO (named pipe), not a regular file"),
    (versions_link_to_dev_zero, "versions.parquet is a device, not a regular file"),
])
def test_a_file_that_is_not_regular_is_refused_and_never_waited_on(tmp_path, store, make, message):
    source = make(tmp_path)
    fifo = next((p for p in (source, source / HEADER) if p.is_fifo()), None)
    with silent_writer(fifo), pytest.raises(ImportFailed, match=re.escape(message)):
        store.import_log(source)
    assert store.latest_write() is None


@contextmanager
def silent_writer(fifo: Path | None) -> Iterator[None]:
    """A writer on ``fifo`` that sends nothing: a reader that waited for one would read an empty
    file, not hang (so the test fails rather than hangs where a FIFO is waited on)."""
    if fifo is None:
        yield
        return
    writer = threading.Thread(target=lambda: os.close(os.open(fifo, os.O_WRONLY)), daemon=True)
    writer.start()
    try:
        yield
    finally:
        while writer.is_alive():  # a writer still waiting for a reader: give it one
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
            writer.join(0.05)


def test_a_directory_where_a_parquet_file_belongs_is_refused(tmp_path):
    directory = parquet_log(tmp_path)
    (directory / "entities.parquet").unlink()
    (directory / "entities.parquet").mkdir()
    with Store(":memory:", engine=ENGINE) as store, pytest.raises(ImportFailed, match="entities.parquet is a "
                                                                  "directory, not a regular file"):
        store.import_log(directory)


# -- budgets checked while reading ----------------------------------------------------------------

def test_a_line_without_end_is_refused_after_the_longest_line(tmp_path):
    """A sparse 4 GB file of zeros after the header (no disk used): refused by its size at once,
    and, with --large (the user vouching for a large log), at its second line once the longest
    line is read past; never held whole."""
    path = tmp_path / "log.jsonl"
    header = small_log(tmp_path / "small.jsonl")[0]
    with path.open("wb") as out:
        out.write(header.encode() + b"\n")
        out.truncate(4 << 30)
    refused_in_child(tmp_path, path, "log.jsonl is 4,294,967,296 bytes, over the 100,663,296 an import reads")
    refused_in_child(tmp_path, path, "log.jsonl:2: a line longer than 16,777,216 bytes", "--large")


def test_deep_nesting_is_one_clear_error(tmp_path, store):
    lines = small_log(tmp_path / "small.jsonl")
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([lines[0], "[" * 100_000, *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"log.jsonl:2: not a graphmem log record \(JSON nested too deeply\)"):
        store.import_log(path)
    directory = parquet_log(tmp_path)
    (directory / HEADER).write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"graphmem.json: not a graphmem header \(.*nested too deeply\)"):
        store.import_log(directory)
    assert store.latest_write() is None


def test_the_header_comes_first(tmp_path, store):
    """A file whose first line is not the header is refused there, not after reading the rest."""
    lines = small_log(tmp_path / "small.jsonl")
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([*lines[1:], lines[0]]) + "\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="log.jsonl:1: not a graphmem log"):
        store.import_log(path)


def test_a_parquet_row_count_is_read_from_the_metadata_before_the_rows(tmp_path, store, monkeypatch):
    """A header saying 0 rows over a file holding 300,000 is refused from the file's metadata: no
    batch of its rows is read."""
    directory = parquet_log(tmp_path)
    path = directory / "versions.parquet"
    few = pq.read_table(path)
    many = few.take(pa.array([i % few.num_rows for i in range(300_000)]))
    pq.write_table(many, path, compression="zstd")
    set_rows(directory, "versions", 0)
    read = []
    original = pq.ParquetFile.iter_batches

    def reading(self, *args, **kwargs):
        read.append(self.metadata.num_rows)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", reading)
    with pytest.raises(ImportFailed, match=r"versions.parquet holds 300000 rows, but the header says 0"):
        store.import_log(directory)
    assert read and 300_000 not in read, read  # the files before it were read, not it
    assert store.latest_write() is None


def test_a_parquet_file_that_decodes_to_gigabytes_is_refused_while_it_is_read(tmp_path):
    """6,000 episodes citing one 512 KB text (dictionary-encoded: a small file, 3 GB once
    decoded) are refused before the text is decoded; the child's peak memory stays far below 1 GB."""
    directory = parquet_log(tmp_path)
    path = directory / "episodes.parquet"
    one = pq.read_table(path).slice(0, 1).to_pylist()[0]
    count = 6000
    text = pa.DictionaryArray.from_arrays(pa.array([0] * count, pa.int32()), pa.array(["x" * (512 << 10)]))
    columns = {name: pa.array([value] * count) for name, value in one.items() if name != "text"}
    columns["id"] = pa.array([f"ep{i + 100}" for i in range(count)])
    table = pa.table({**columns, "text": text})
    pq.write_table(table, path, compression="zstd")
    assert path.stat().st_size < (4 << 20)
    set_rows(directory, "episodes", count)
    refused_in_child(tmp_path, directory, "episodes.parquet decodes to more than")



def test_parquet_files_each_within_a_budget_are_refused_together(tmp_path):
    """Three files, each decoding to 40 MB (under the whole log's 64 MB floor alone), are refused
    together: the budget is the log's, not each file's (the attacker's re-run imported 34 KB of
    files decoding to 380 MB with a budget per file)."""
    from graphmem.log.parquet import DECODED_FLOOR

    directory = parquet_log(tmp_path)
    big = "x" * (40 << 20)
    assert 40 << 20 < DECODED_FLOOR < 3 * (40 << 20)
    for stem, column in (("episodes", "text"), ("decisions", "reason"), ("versions", "reason")):
        path = directory / f"{stem}.parquet"
        table = pq.read_table(path)
        values = table.column(column).to_pylist()
        values[0] = big
        table = table.set_column(table.schema.get_field_index(column), column, pa.array(values, pa.string()))
        pq.write_table(table, path, compression="zstd")
    assert sum(p.stat().st_size for p in directory.glob("*.parquet")) < (1 << 20)
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match=r"with the files before it, over the 67,108,864"):
            store.import_log(directory)
        assert store.latest_write() is None

# -- one visible name is one entity; what a write refuses, an import refuses ---------------------

def entity(entity_id: str, name: str, kind: str = "entity") -> dict:
    return {"type": "entity", "id": entity_id, "name": name, "kind": kind}


def episode(kind: str) -> dict:
    return {"type": "episode", "id": "ep90", "kind": kind, "text": "hi", "actor": None,
            "reference_time": "2026-01-01T00:00:00Z", "received_at": "2026-01-01T00:00:00Z"}


HOSTILE = {
    "an id that is not its name's": (entity("boris", "Ivan"), "entity-name"),
    "an id in another case": (entity("IVAN", "Ivan"), "has the id 'ivan', not 'IVAN'"),
    "a name over 1,000 characters": (entity("x" * 1001, "x" * 1001), "limited to 1000 characters"),
    "a name with NUL": (entity("ab", "a\x00b"), "not as a write stores it"),
    "a name with ESC": (entity("\x1b[2jx", "\x1b[2Jx"), "cannot hold control characters"),
    "an invisible name": (entity("\u200b", "\u200b"), "empty or invisible"),
    "markup as a kind": (entity("boris", "Boris", "<script>"), "entity-kind"),
    "an episode kind with ESC": (episode("chat\x1b]0;owned\x07"), "episode-kind"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_an_import_refuses_what_a_write_refuses(tmp_path, store, name):
    record, message = HOSTILE[name]
    lines = small_log(tmp_path / "small.jsonl")
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([*lines, json.dumps(record)]) + "\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="not sound") as caught:
        store.import_log(path)
    assert message in str(caught.value) and f"log.jsonl:{len(lines) + 1}:" in str(caught.value), caught.value
    assert store.latest_write() is None and store.entities() == []


@pytest.mark.parametrize("name", HOSTILE)
def test_a_parquet_import_refuses_what_a_write_refuses(tmp_path, store, name):
    record, message = HOSTILE[name]
    directory = parquet_log(tmp_path)
    kind = record.pop("type")
    path = directory / f"{FILES[kind]}.parquet"
    table = pq.read_table(path)
    added = pa.Table.from_pylist([record], schema=table.schema) if kind == "entity" else pa.Table.from_pylist(
        [{**record, "reference_time": table.column("reference_time")[0].as_py(),
          "received_at": table.column("received_at")[0].as_py()}], schema=table.schema)
    pq.write_table(pa.concat_tables([table, added]), path)
    set_rows(directory, FILES[kind], table.num_rows + 1)
    with pytest.raises(ImportFailed, match="not sound") as caught:
        store.import_log(directory)
    assert message in str(caught.value) and f"row {table.num_rows + 1}:" in str(caught.value), caught.value
    assert store.latest_write() is None and store.entities() == []


def test_check_reports_a_store_whose_names_break_the_rules(clock):
    with Store(":memory:", engine=ENGINE, clock=clock) as store:
        store.add("Ivan", "likes", "tea")
        store.add_episode("hello", kind="chat")
        assert store.check() == []
        store._db.run_text("MATCH (e:Entity {id: 'ivan'}) SET e.name = $x", {"x": "Boris"})
        store._db.run_text("MATCH (e:Entity {id: 'tea'}) SET e.kind = $x", {"x": "<script>"})
        store._db.run_text("MATCH (e:Episode) SET e.kind = $x", {"x": "chat\x1b[2J"})
        found = {(v.rule, v.record) for v in store.check()}
        assert found == {("entity-name", "entity ivan"), ("entity-kind", "entity tea"), ("episode-kind", "episode ep1")}


def test_a_write_refuses_control_characters_in_names_and_episode_kinds(store):
    for name in ("\x1b[31mIvan", "Iv\x7fan", "Ivan\x9b"):
        with pytest.raises(InvalidInput, match="control characters"):
            store.add(name, "likes", "tea")
    with pytest.raises(InvalidInput, match="an episode's kind cannot hold control characters"):
        store.add_episode("hello", kind="chat\x1b]0;owned\x07")
    assert store.latest_write() is None


def test_sound_names_still_export_and_import(tmp_path):
    """A sound store still exports and imports (JSON Lines and Parquet), on this engine."""
    clock = Clock("2026-01-01")
    with Store(":memory:", engine=ENGINE, clock=clock) as store:
        store.add("Jos\u00e9 \u05d0", "likes", "Ｔｅａ")
        store.add_episode("hi", kind="chat")
        store.set_kind("Ｔｅａ", "thing")
        store.export(tmp_path / "log.jsonl")
        store.export(tmp_path / "pq", format="parquet")
        for source in (tmp_path / "log.jsonl", tmp_path / "pq"):
            with Store(":memory:", engine=ENGINE) as again:
                again.import_log(source)
                assert again.check() == [] and again.entities() == store.entities()


@pytest.mark.engine_free
def test_a_backup_manifest_that_is_a_fifo_is_refused_and_never_waited_on(tmp_path):
    from graphmem.log.backup import MANIFEST, read_backup

    os.mkfifo(tmp_path / MANIFEST)
    with silent_writer(tmp_path / MANIFEST), pytest.raises(InvalidInput, match="backup.json is a FIFO"):
        read_backup(tmp_path)


@pytest.mark.engine_free
@pytest.mark.parametrize("reader", ["messages", "memories", "questions", "labels"])
def test_every_json_lines_reader_refuses_a_device_and_a_fifo(tmp_path, reader):
    """Ingest's chats and memories, the recall questions and the labelled sets are read through the
    one JSON Lines reader the log's import uses: a device or a FIFO is refused, never read."""
    import os

    from graphmem import ImportFailed, InvalidInput
    from graphmem.evaluation import read_extraction_set
    from graphmem.ingest import read_memories, read_messages
    from graphmem.recall.evaluate import load_questions

    read = {"messages": read_messages, "memories": read_memories, "questions": load_questions,
            "labels": read_extraction_set}[reader]
    fifo = tmp_path / "chat.jsonl"
    os.mkfifo(fifo)
    for path, what in ((Path("/dev/zero"), "a device"), (fifo, "a FIFO")):
        with pytest.raises((ImportFailed, InvalidInput), match=f"is {what}.*not a regular file"):
            read(path)


def test_an_export_never_replaces_a_link_or_a_device(tmp_path):
    """An export is written beside its path and moved into place: pointed at a link (or a device such
    as /dev/stdout, itself a link), it would replace the link. It refuses instead, leaving it."""
    from graphmem import InvalidInput, Store

    target = tmp_path / "real.jsonl"
    target.write_text("keep\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "dirlink").symlink_to(folder)
    with Store(":memory:", engine=ENGINE) as store:
        store.add("Ivan", "likes", "tea")
        for path in (link, Path("/dev/null")):
            with pytest.raises(InvalidInput, match="not a regular file"):
                store.export(path)
        with pytest.raises(InvalidInput, match="is a link"):
            store.export(tmp_path / "dirlink", format="parquet")
    assert link.is_symlink() and target.read_text() == "keep\n" and Path("/dev/null").is_char_device()


@pytest.mark.parametrize("log_format", ["jsonl", "parquet"])
def test_a_large_log_is_imported_only_when_asked(tmp_path, monkeypatch, log_format):
    """A log is held in memory while checked (about ten times its size), so past SMALL_LOG (96 MiB;
    here made small) one is read only with large=True / --large: a file of any size an import is
    handed stays near 1 GB unless the user vouches for it."""
    from click.testing import CliRunner

    from graphmem.cli import main
    from graphmem.core import json_lines

    with Store(":memory:", engine=ENGINE) as store:
        store.add("Ivan", "lives_in", "Prague")
        log = tmp_path / ("log.jsonl" if log_format == "jsonl" else "log")
        store.export(log, format=log_format)
    monkeypatch.setattr(json_lines, "SMALL_LOG", 200)
    monkeypatch.setattr("graphmem.log.parquet.SMALL_LOG", 200)
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match="over the 200 an import reads unless asked.*--large"):
            store.import_log(log)
        assert store.latest_write() is None
        assert store.import_log(log, large=True) > 0
    refused = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "import", str(log)])
    assert refused.exit_code == 1 and "--large" in refused.output and not (tmp_path / "s").exists()
    taken = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "import", "--large",
                                      str(log)])
    assert taken.exit_code == 0, taken.output
