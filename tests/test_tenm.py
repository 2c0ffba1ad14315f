"""The 10M benchmark's Parquet log is the harness's log, and its script runs end to end (tiny scale;
no time is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from benchmarks.parquet import generated_log, generated_parquet
from benchmarks.tenm import generated_parquet_direct
from graphmem.log.parquet import FILES
from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("scale", ["tiny", "3000"])
def test_the_direct_parquet_log_is_what_a_store_exports(tmp_path, scale):
    """The generator's log written straight into Parquet equals the harness's path (JSON Lines
    log, imported into a store, exported as Parquet), file by file, row for row, with its header."""
    direct, _ = generated_parquet_direct(scale, 1, tmp_path)
    exported = generated_parquet(generated_log(scale, 1, tmp_path), ENGINE)
    for stem in FILES.values():
        assert pq.read_table(direct / f"{stem}.parquet").equals(pq.read_table(exported / f"{stem}.parquet")), stem
    ours, theirs = (json.loads((d / "graphmem.json").read_text()) for d in (direct, exported))
    assert {k: v for k, v in ours.items() if k != "engine"} == {k: v for k, v in theirs.items() if k != "engine"}


def test_the_script_imports_and_measures(tmp_path):
    out = tmp_path / "tenm.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.tenm", "run", "--scale", "tiny", "--engine", ENGINE,
         "--data", str(tmp_path / "data"), "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(out.read_text())
    m = results["measure"]
    assert results["import"]["cpu"] > 0 and results["import"]["peak_rss_mb"] > 0
    assert m["beliefs"]["rows"] == m["beliefs_arrow"]["rows"] > 0
    assert len(m["history"]["calls"]) == len(m["timeline"]["calls"]) == 5
    assert m["add_many"]["asserts"] > 0 and m["add_many"]["closed"] > 0
    assert results["disk_after_close"] > 0 and "| close |" in done.stdout
    assert not list((tmp_path / "data").glob("tenm-*"))  # the store was deleted
