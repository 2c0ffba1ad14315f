"""The Parquet benchmark runs end to end at a tiny scale (a correctness test: no time is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent


def test_the_parquet_benchmark_checks_its_round_trip_and_reports_every_system(tmp_path):
    out = tmp_path / "parquet.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.parquet", "--scale", "300", "--engine", ENGINE, "--repeat", "1",
         "--data", str(tmp_path / "data"), "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(out.read_text())
    (engine,) = results["engines"]
    assert engine["engine"] == ENGINE and 300 <= engine["versions"] < 310  # the generator stops at a write
    for key in ("import", "export", "copy_floor", "checks", "duckdb_read", "duckdb_write"):
        assert engine[key]["median"] > 0 and engine[key]["rate"] > 0
    assert f"| {ENGINE} |" in done.stdout and "import / floor" in done.stdout
