"""The questions on Spark answer what the store answers, on random histories.

One SparkSession serves the module (starting a JVM is the slow part); the histories are small.
Skipped, with the reason, where pyspark or Java is missing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import ImportFailed, NotFound, Store
from graphmem.cli import main, output
from graphmem.spark import SparkUnavailable, java_missing
from tests.conftest import ENGINE, Clock

# Spark reads the export, never the engine; the export itself is checked on both engines in
# test_parquetlog.py. So these run in one pass (engine_free: the kuzu pass), on one worker
# (conftest's ONE_WORKER), so one JVM starts.
pytestmark = pytest.mark.engine_free
try:
    import pyspark  # noqa: F401
except ImportError:  # pragma: no cover - the test extra installs it
    pytestmark = [pytestmark, pytest.mark.skip(reason='pyspark is not installed (pip install "graphmem[spark]")')]
else:
    if java_missing():
        pytestmark = [pytestmark, pytest.mark.skip(reason=java_missing())]


@pytest.fixture(scope="module")
def spark():
    from graphmem import spark as gs

    session = gs.session("local[2]", {
        "spark.sql.shuffle.partitions": "1", "spark.default.parallelism": "1",
        "spark.sql.adaptive.enabled": "false", "spark.ui.enabled": "false", "spark.sql.codegen.wholeStage": "false",
        # Expressions interpreted, not compiled: on these tiny tables compiling each plan's code costs
        # more than running it (about a quarter of the module's CPU). The plans and answers are the same.
        "spark.sql.codegen.factoryMode": "NO_CODEGEN",
        "spark.driver.extraJavaOptions": "-XX:+UseSerialGC -XX:TieredStopAtLevel=1",
    })
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """Two random histories (the benchmark's generator, two seeds) and a store holding every record
    type (a later link, a retraction, a purge), each in a store of the engine under test and
    exported as Parquet."""
    from benchmarks.generate import generate, write_log
    from tests.test_parquetlog import full_store

    base = tmp_path_factory.mktemp("spark")
    opened = []
    for n, (versions, seed) in enumerate([(260, 11), (140, 12)]):
        write_log(generate(versions, seed), base / f"gen{n}.jsonl")
        store = Store(base / f"store{n}", engine=ENGINE)
        store.import_log(base / f"gen{n}.jsonl")
        opened.append(store)
    opened.append(full_store(Clock()))
    paths = []
    for n, store in enumerate(opened):
        store.export(base / f"export{n}", format="parquet")
        paths.append(str(base / f"export{n}"))
    yield list(zip(paths, opened))
    for store in opened:
        store.close()


def expected(pairs, answer) -> list[dict]:
    """Each store's own answer, its records tagged with the export, stores in the order given."""
    return [{"store": path, **record} for path, store in pairs for record in answer(store)]


def moments(store: Store) -> list:
    """Transaction times through the history: between writes, where closings and links come later."""
    writes = store.decisions()
    return [writes[len(writes) * k // 5].at + timedelta(microseconds=1) for k in (1, 3)]


def test_beliefs_equal_the_store_s_own_across_stores(spark, stores):
    from graphmem import spark as gs

    paths = [p for p, _ in stores]
    for k, valid_at in ((0, None), (1, "all")):
        at = {path: moments(store)[k] for path, store in stores}
        as_of = at[paths[0]].isoformat()  # every store asked at once, at a time inside the first's history
        got = gs.records(gs.beliefs(spark, paths, as_of=as_of, valid_at=valid_at))
        want = expected(stores, lambda s, a=as_of, v=valid_at: [
            output.version_record(x) for x in s.beliefs(as_of=a, valid_at=v)])
        assert got == want and got
    got = gs.records(gs.beliefs(spark, paths[2:], valid_at="2026-01-03"))  # as of now, a past valid time
    assert got == expected(stores[2:], lambda s: [output.version_record(v)
                                                  for v in s.beliefs(valid_at="2026-01-03")])


def test_as_of_answers_hide_later_closings_and_later_links(spark, stores):
    from graphmem import spark as gs

    path, store = stores[2]
    link = store.links()[0]
    before = link.at - timedelta(microseconds=1)
    got = gs.records(gs.timeline(spark, [path], "Ivan", as_of=before.isoformat()))
    want = [{"store": path, **output.version_record(v)} for v in store.timeline("Ivan", as_of=before)]
    assert got == want
    cited = {r["id"]: r["episodes"] for r in got}
    assert link.episode not in cited[link.version]  # linked later: not there yet
    now = {r["id"]: r for r in gs.records(gs.timeline(spark, [path], "Ivan"))}
    assert link.episode in now[link.version]["episodes"]
    retraction = next(d for d in store.decisions() if d.op == "RETRACT")
    before = retraction.at - timedelta(microseconds=1)
    got = gs.records(gs.timeline(spark, [path], "Ivan", as_of=before.isoformat()))
    assert got == [{"store": path, **output.version_record(v)} for v in store.timeline("Ivan", as_of=before)]
    wrong = next(r for r in got if r["id"] == retraction.closed[0])
    assert wrong["superseded_at"] is None and wrong["status"] == "current"  # retracted later: not yet


def test_history_equals_the_store_s_own(spark, stores):
    from graphmem import spark as gs

    for path, store in stores:
        every = store.versions()
        busiest = max(every, key=lambda v: sum(1 for w in every if (w.subject_id, w.predicate) ==
                                               (v.subject_id, v.predicate)))
        history = store.history(busiest.subject, busiest.predicate)
        episodes = {e.id: e for e in store.episodes()}
        want = [{"store": path, **output.version_record(v, output.HISTORY_EXTRA),
                 "provenance": output.source_records(v, episodes)} for v in history]
        assert gs.records(gs.history(spark, [path], busiest.subject, busiest.predicate)) == want


def test_timeline_and_diff_equal_the_store_s_own(spark, stores):
    from graphmem import spark as gs

    path, store = stores[0]
    person = max(store.entities(), key=lambda e: len(store.versions(e.id)))
    at = moments(store)[1]
    assert gs.records(gs.timeline(spark, [path], person.name, as_of=at.isoformat())) == [
        {"store": path, **output.version_record(v)} for v in store.timeline(person.name, as_of=at)]
    for path, store in stores:
        t1, t2 = moments(store)
        got = gs.records(gs.diff(spark, [path], t1.isoformat(), t2.isoformat()))
        assert got == [{"store": path, **output.change_record(c)} for c in store.diff(t1, t2)] and got
    path, store = stores[2]  # a purge and a retraction among the changes
    got = gs.records(gs.diff(spark, [path], "2025-12-31", "2027-01-01"))
    assert got == [{"store": path, **output.change_record(c)} for c in store.diff("2025-12-31", "2027-01-01")]
    assert {"purged", "retracted"} <= {r["change"] for r in got}


def test_the_cli_prints_the_store_s_json_with_the_store(spark, stores):
    path, store = stores[2]
    result = CliRunner().invoke(main, ["spark", "beliefs", path, "--valid-at", "all", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"store": path, **output.version_record(v)}
                                         for v in store.beliefs(valid_at="all")]
    table = CliRunner().invoke(main, ["spark", "history", "Ivan", "lives_in", path])
    assert table.exit_code == 0 and "Berlin" in table.stdout
    missing = CliRunner().invoke(main, ["spark", "beliefs", str(Path(path).parent / "nowhere")])
    assert missing.exit_code == 1 and "is not a graphmem Parquet log" in missing.stderr
    assert missing.stderr.count("\n") == 1
    assert spark.sparkContext._jsc is not None  # the CLI left the running session alone


def test_bad_questions_are_one_clear_error(spark, stores):
    from graphmem import spark as gs

    path, _ = stores[2]
    with pytest.raises(NotFound, match="no entity named 'Nobody'"):
        gs.timeline(spark, [path], "Nobody")
    with pytest.raises(ImportFailed, match="is not a graphmem Parquet log"):
        gs.beliefs(spark, [path + "-missing"])
    with pytest.raises(Exception, match="lives in"):
        gs.history(spark, [path], "Ivan", "lives in")


def test_without_pyspark_or_java_the_error_says_what_to_install(monkeypatch):
    from graphmem import spark as gs

    monkeypatch.setitem(sys.modules, "pyspark", None)
    from graphmem.core.extras import install_hint

    with pytest.raises(SparkUnavailable, match=re.escape(install_hint("spark"))):
        gs.session()
    monkeypatch.delitem(sys.modules, "pyspark")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert "Java 17" in java_missing()


def test_the_spark_package_imports_neither_engine_nor_pyspark_until_asked():
    code = ("import sys, graphmem.spark, graphmem.spark._questions, graphmem.cli.spark; "
            "print([m for m in ('kuzu', 'ladybug', 'pyspark') if m in sys.modules])")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_a_pattern_asks_every_export_it_matches(spark, stores):
    from graphmem import spark as gs

    pattern = str(Path(stores[0][0]).parent / "export[12]")
    got = gs.records(gs.beliefs(spark, [pattern], valid_at="all"))
    assert {r["store"].rsplit("/", 1)[1] for r in got} == {"export1", "export2"}
    assert [{**r, "store": r["store"].rsplit("/", 1)[1]} for r in got] == [
        {"store": Path(path).name, **output.version_record(v)} for path, store in stores[1:]
        for v in store.beliefs(valid_at="all")]
    with pytest.raises(ImportFailed, match="no export matches"):
        gs.beliefs(spark, [str(Path(stores[0][0]).parent / "nothing*")])


def test_the_as_known_rule_on_spark_columns_agrees_with_the_spec(spark):
    """graphmem.core.as_known rendered as Spark columns answers as the Python rendering does, on
    every small period around every moment (tests/test_as_known.py holds Arrow and Cypher to it)."""
    from datetime import datetime

    from graphmem.core import as_known

    base = datetime(2026, 1, 1)
    spans = [(a, None if b is None else a + b) for a in range(3) for b in (None, 1, 2)]
    moments = range(-1, 6)
    rows = [(f"v{n}", base + timedelta(days=a), None if b is None else base + timedelta(days=b), ["x"] if b else [],
             "d" if b else None, "why" if b else None, base + timedelta(days=at), at)
            for n, (a, b) in enumerate(spans) for at in moments]
    frame = spark.createDataFrame(rows, "id string, recorded_at timestamp, superseded_at timestamp, "
                                        "superseded_by array<string>, closed_by string, reason string, "
                                        "as_of timestamp, at int")
    seen = frame.withColumns({"believed": as_known.spark_believed(), **{
        f"known_{name}": column for name, column in as_known.spark_closing_as_known().items()}}).collect()
    assert len(seen) == len(spans) * len(moments)
    for row in seen:
        a, b = spans[int(row["id"][1:])]
        assert row["believed"] == as_known.believed(a, b, row["at"]), row
        known = as_known.closing_known(b, row["at"])
        assert row["known_closed_by"] == (row["closed_by"] if known else None)
        assert row["known_superseded_by"] == (row["superseded_by"] if known else [])
        assert (row["known_superseded_at"] is None) == (not known or b is None)
