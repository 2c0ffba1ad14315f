"""The suite's own scheduling: each group of modules conftest names in ONE_WORKER runs whole on one worker.

pytest-xdist's xdist_group mark stopped doing this with pytest 9.2 (it suffixes node ids, which
pytest no longer lets it), and nothing failed: the Spark questions just started a JVM per worker.
So the scheduler conftest supplies is checked here, on a small suite of its own under pytest-xdist.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LONG_FIRST, ONE_WORKER

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parent.parent

RECORD = '''
import os, pathlib, time
import pytest

@pytest.mark.parametrize("n", range(8))
def test_where(n):
    time.sleep(0.05)  # long enough that every worker is handed something
    with open(pathlib.Path(__file__).parent.parent / "where.txt", "a") as out:
        out.write(f"{pathlib.Path(__file__).name} {os.environ['PYTEST_XDIST_WORKER']}\\n")
'''


@pytest.mark.slow  # a pytest run of its own (~20 s on two cores): run with -m slow after changing the scheduling
def test_a_one_worker_group_runs_whole_on_one_worker(tmp_path):
    alone = Path(ONE_WORKER[0][0]).name
    together = [Path(m).name for m in next(group for group in ONE_WORKER if len(group) > 1)]
    (tmp_path / "tests").mkdir()
    for grouped in (alone, *together):
        (tmp_path / "tests" / grouped).write_text(RECORD)
    (tmp_path / "tests" / "test_spread.py").write_text(RECORD)
    (tmp_path / "conftest.py").write_text(
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('suite_conftest', {str(ROOT / 'tests' / 'conftest.py')!r})\n"
        "suite = importlib.util.module_from_spec(spec); spec.loader.exec_module(suite)\n"
        "pytest_xdist_make_scheduler = suite.pytest_xdist_make_scheduler\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "3", "--dist", "loadgroup",
         "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path / "tests")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    seen: dict[str, set[str]] = {}
    for line in (tmp_path / "where.txt").read_text().splitlines():
        module, worker = line.split()
        seen.setdefault(module, set()).add(worker)
    assert len(seen[alone]) == 1, seen
    assert len(set().union(*(seen[m] for m in together))) == 1, seen  # a group's modules: one worker
    assert len(seen["test_spread.py"]) > 1, seen  # the rest still spreads over the workers


def test_every_test_started_first_exists():
    """A renamed long test would silently go back to its place in the alphabet."""
    for nodeid in LONG_FIRST:
        module, name = nodeid.split("::")
        assert f"\ndef {name}(" in (ROOT / module).read_text(encoding="utf-8"), nodeid
