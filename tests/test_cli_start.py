"""Starting the command line: what it imports, the constants it keeps of its own, the counts its
export and import report, and progress bars only on a terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import graphmem._launch
import graphmem.cli
import graphmem.cli.ingest
import graphmem.cli.query
import graphmem.engine
import graphmem.ingest
import graphmem.query.sandbox
from graphmem.cli import main
from tests.conftest import ENGINE

#: Checked in the default engine's pass only: what the commands import at start-up.
pytestmark = pytest.mark.one_engine

ROOT = Path(__file__).resolve().parent.parent


def test_the_clis_own_copies_of_constants_equal_the_originals():
    """The CLI keeps these to avoid importing the engine, the sandbox and the extractors at start."""
    assert graphmem.cli.ENGINES == graphmem.engine.ENGINES
    assert graphmem.cli.MARKER_FILE == graphmem.engine.MARKER_FILE == graphmem._launch.MARKER_FILE
    assert graphmem.cli.DEFAULT_STORE == graphmem._launch.DEFAULT_STORE
    assert graphmem.cli.query.DEFAULT_TIMEOUT == graphmem.query.sandbox.DEFAULT_TIMEOUT
    assert graphmem.cli.query.DEFAULT_MEMORY_MB == graphmem.query.sandbox.DEFAULT_MEMORY_MB
    assert graphmem.cli.ingest.EXTRACTORS == tuple(graphmem.ingest.EXTRACTORS)


HEAVY = ("graphmem._store", "graphmem.models", "graphmem.engine", "graphmem.extract", "pydantic", "pyarrow",
         "networkx", "rich", "kuzu", "ladybug", "numpy")


@pytest.mark.parametrize("args", [["--help"], ["add", "--help"], ["history", "--help"], []])
def test_help_and_the_overview_import_nothing_heavy(args, tmp_path):
    script = ("import sys\nfrom graphmem.cli import main\n"
              "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              f"print('LOADED', sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script, "--store", str(tmp_path / "s"), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "LOADED []", done.stdout[-300:]


#: What a store command (history, add, end...) does not need: the search index, its stemmers and its models,
#: the time-phrase grammar (ISO times are read without it), networkx (snapshots only), the
#: Cypher sandbox's multiprocessing, pydantic's validators (records read from the store and
#: a write's own decisions are made without validation; building one validator loads pydantic's
#: plugin loader and costs 20-30 ms), and numpy and pyarrow (core dependencies since the Fact
#: layout change, for Arrow answers, exports and migrations only).
SEARCH_AND_PHRASES = ("graphmem.recall._live", "graphmem.recall._text", "graphmem.recall._models", "snowballstemmer",
                      "graphmem.when._grammar", "networkx", "multiprocessing", "pydantic.plugin._loader",
                      "numpy", "pyarrow")


def test_store_commands_import_neither_search_nor_the_phrase_grammar(tmp_path):
    script = ("import sys\nfrom graphmem.cli import main\n"
              "for args in (['init'], ['add', 'Ana', 'lives_in', 'Oslo', '--from', '2024-01-01'],\n"
              "             ['history', 'Ana', 'lives_in'],\n"
              "             ['end', 'Ana', 'lives_in', '--at', '2025-01-01T10:00:00Z'],\n"
              "             ['timeline', 'Ana']):\n"
              "    try:\n        main([*sys.argv[1:], *args])\n    except SystemExit as exc:\n"
              "        assert not exc.code, (args, exc.code)\n"
              f"print('LOADED', sorted(m for m in {SEARCH_AND_PHRASES!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script, "--store", str(tmp_path / "s"), "--engine", ENGINE],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "LOADED []", done.stdout[-300:]
    # and a phrase still reads: the grammar comes in when it is needed
    phrase = subprocess.run([sys.executable, "-m", "graphmem", "--store", str(tmp_path / "s"), "--engine", ENGINE,
                             "beliefs", "--as-of", "yesterday", "--json"], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert phrase.returncode == 0, phrase.stderr[-2000:]


def test_a_search_imports_no_extractor(tmp_path):
    """A new user's store of 52,000 messages: every search took 3 s, 0.6 of them compiling the rules extractor's
    patterns, imported for the list of events the question words are read against (graphmem.extract.EVENTS)."""
    script = ("import sys\nfrom graphmem.cli import main\n"
              "for args in (['init'], ['add', 'Ana', 'attended', 'wedding', '--from', '2024-01-01'],\n"
              "             ['search', 'whens the wedding']):\n"
              "    try:\n        main([*sys.argv[1:], *args])\n    except SystemExit as exc:\n"
              "        assert not exc.code, (args, exc.code)\n"
              "print('LOADED', sorted(m for m in ('graphmem.extract._rules', 'graphmem.extract._llm') "
              "if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script, "--store", str(tmp_path / "s"), "--engine", ENGINE],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Ana attended wedding" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "LOADED []", done.stdout[-300:]


def test_a_client_of_a_holder_imports_neither_the_store_nor_the_command_line(tmp_path):
    """A command a holder answers loads graphmem's errors and the socket's framing, nothing more:
    no engine, pyarrow, pydantic or models, not even click (benchmarks/cli.py times it)."""
    store = tmp_path / "s"
    cmd = [sys.executable, "-m", "graphmem", "--store", str(store), "--engine", ENGINE]
    subprocess.run([*cmd, "init"], check=True, capture_output=True, cwd=ROOT, timeout=120)
    holder = subprocess.Popen([*cmd, "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline().startswith(b"serving"), holder.stderr
        client = (*HEAVY, "graphmem.cli", "click", "graphmem.recall")
        script = ("import sys\nfrom graphmem._launch import main\nsys.argv[0] = 'graphmem'\n"
                  "for args in (['add', 'Ana', 'lives_in', 'Oslo'], ['history', 'Ana', 'lives_in'],\n"
                  "             ['timeline', 'Ana'], ['search', 'where does Ana live']):\n"
                  "    sys.argv[1:] = [*ARGS, *args]\n"
                  "    try:\n        main()\n"
                  "    except SystemExit as exc:\n        assert not exc.code, (args, exc.code)\n"
                  f"print('LOADED', sorted(m for m in {client!r} if m in sys.modules))\n")
        script = script.replace("ARGS", repr(["--store", str(store), "--engine", ENGINE]))
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Oslo" in done.stdout  # answered by the holder
        assert done.stdout.strip().splitlines()[-1] == "LOADED []", done.stdout[-300:]
    finally:
        holder.terminate()
        holder.communicate(timeout=60)


def gm(store: Path, *args: str, ok: bool = True):
    result = CliRunner().invoke(main, ["--store", str(store), "--engine", ENGINE, *args], catch_exceptions=False)
    if ok:
        assert result.exit_code == 0, result.output
    return result


def test_export_and_import_report_the_same_count(tmp_path):
    source = tmp_path / "a"
    gm(source, "init")
    gm(source, "add", "Ivan", "lives_in", "Prague", "--recorded-at", "2026-01-10", "--quote", "Ivan lives in Prague.")
    gm(source, "add", "Ivan", "lives_in", "Berlin", "--from", "2026-10-15", "--recorded-at", "2026-11-01")
    gm(source, "synonym", "add", "day job", "works_at")
    log = tmp_path / "log.jsonl"
    exported = gm(source, "export", str(log)).stdout
    imported = gm(tmp_path / "b", "import", str(log)).stdout
    count = int(exported.split()[1])
    assert exported.startswith(f"exported {count} records")
    assert imported.startswith(f"imported {count} records"), (exported, imported)
    lines = log.read_text(encoding="utf-8").splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "graphmem" and count == len(kinds) - 1 - kinds.count("meta")  # not the header, nor settings


def _run_on_a_terminal(cmd: list[str]) -> tuple[int, str]:
    """Run ``cmd`` with stderr on a pseudo-terminal (stdout a pipe); its exit code and stderr."""
    master, slave = pty.openpty()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, cwd=ROOT,
                             env={**os.environ, "TERM": "xterm", "COLUMNS": "100"})
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif child.poll() is not None:
            break
    child.communicate(timeout=120)
    os.close(master)
    return child.returncode, seen.decode("utf-8", "replace")


@pytest.fixture
def exported_log(tmp_path) -> Path:
    source = tmp_path / "a"
    gm(source, "init")
    for n in range(30):
        gm(source, "add", "Ivan", "likes", f"thing {n}", "--quote", f"Ivan likes thing {n}.")
    log = tmp_path / "log.jsonl"
    gm(source, "export", str(log))
    return log


def test_long_work_shows_a_progress_bar_on_a_terminal(tmp_path, exported_log):
    cmd = [sys.executable, "-m", "graphmem", "--store", str(tmp_path / "b"), "--engine", ENGINE]
    code, stderr = _run_on_a_terminal([*cmd, "import", str(exported_log)])
    assert code == 0, stderr
    assert "importing" in stderr, stderr  # the bar's label, drawn on the terminal and then cleared
    code, stderr = _run_on_a_terminal([*cmd, "export", str(tmp_path / "again.jsonl")])
    assert code == 0 and "exporting" in stderr, stderr


def test_long_work_is_silent_when_stderr_is_not_a_terminal(tmp_path, exported_log):
    cmd = [sys.executable, "-m", "graphmem", "--store", str(tmp_path / "b"), "--engine", ENGINE]
    done = subprocess.run([*cmd, "import", str(exported_log)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("imported ")
    done = subprocess.run([*cmd, "export", str(tmp_path / "again.jsonl")], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
