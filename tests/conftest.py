"""Shared fixtures: every test runs on the engine named by GRAPHMEM_ENGINE (kuzu by default)."""

from __future__ import annotations

import gc
import os
import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import NamedTuple

# A small page cache for every database the tests open, here and in the processes they start
# (the CLI, crash runs, sandboxes inherit it). The engines' default, ~80% of the machine's
# memory, costs about 0.1 s (kuzu and ladybug alike; 0.2-0.3 s on a busy machine) to set up for
# each database, most of a small test's time; 256 MB costs a third of that. 64 MB is too small:
# ladybug runs out of pages loading the benchmarks' tiny data set.
os.environ.setdefault("GRAPHMEM_BUFFER_POOL_MB", "256")
# Tables are laid out for COLUMNS when it is set. pytest-xdist sets it (to 80) in its workers,
# and a terminal may export it: the tests that care about a width set their own, the others see
# what a pipe sees, however the suite is run.
os.environ.pop("COLUMNS", None)
# Compiled modules are kept (in __pycache__, which git ignores) even where PYTHONDONTWRITEBYTECODE
# is set: otherwise each worker of each pass rewrites every test module's asserts again (about
# half of a worker's 7 s collection), and each of the hundreds of processes the tests start (a
# command line, a crash run, a query's worker) compiles the graphmem modules it imports anew.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest  # noqa: E402

from graphmem import Store  # noqa: E402
from graphmem.core.times import UTC  # noqa: E402

ENGINE = os.environ.get("GRAPHMEM_ENGINE", "kuzu")

# No wall-clock limit on a property test's examples: the machines running the suite are shared
# and slow down without warning (hypothesis's default 200 ms deadline failed a pure test at load 18).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("graphmem", deadline=None)
_hypothesis_settings.load_profile("graphmem")


# Groups of modules whose tests all run on one worker, the groups first, in this order (the
# longest first, so they start while the other workers take the single tests): their tests
# share costly module or session fixtures, which every worker given one of their tests would
# build again.
ONE_WORKER = (
    ("tests/test_spark.py",),  # a JVM
    ("tests/test_explorer.py",),  # explorers serving stores, one of a few thousand versions; a browser
    ("tests/test_life_scenario.py", "tests/test_recall_eval.py"),  # the life scenario's replay
    ("tests/test_cli_terminal.py",),  # three stores, made by the command line
    ("tests/test_conversations_eval.py",),  # the evaluation of the dev conversations
    ("tests/test_notebook.py",),  # the notebook, executed in a kernel
    ("tests/test_visualize_browser.py",),  # a browser and the pages it draws
    ("tests/test_render_cli.py",),  # a store and a browser
    ("tests/test_visualize_cdp.py",),  # a browser
)
_GROUP = {module: n for n, group in enumerate(ONE_WORKER) for module in group}
#: The longest single tests (10-60 s each on a loaded CI machine), started right after the groups:
#: begun late, any of them would be the last test running while the other workers wait.
LONG_FIRST = (
    "tests/test_properties.py::test_store_matches_model_and_past_never_changes",
    "tests/test_alias_suggest.py::test_the_dev_chats_keep_their_precision_and_recall",
    "tests/test_remember_many.py::test_many_messages_to_a_transaction_write_the_log_of_one_write_each",
    "tests/test_parquetlog.py::test_a_kill_during_a_parquet_import_leaves_nothing_or_everything",
    "tests/test_cli_crash.py::test_a_cli_write_killed_at_random_moments_lands_whole_or_not_at_all",
    "tests/test_injection.py::test_payloads_through_every_field_of_every_cli_command",
    "tests/test_aliases.py::test_every_read_groups_names_as_the_aliases_believed_at_its_moment",
    "tests/test_arrowcheck.py::test_damaged_logs_get_the_same_verdict_both_ways",
)


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist: tests go one at a time to whichever worker is free, but each group of
    ONE_WORKER goes whole to one worker, the groups first in their order. (pytest-xdist's own
    xdist_group mark does the same by suffixing node ids, which pytest 9.2 no longer lets it do.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False  # the order given below, not the largest group first

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            group = _GROUP.get(_module(nodeid))
            return nodeid if group is None else f"one worker: {ONE_WORKER[group][0]}"

    return Scheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """The groups of ONE_WORKER go first, in their order, then the tests of LONG_FIRST, so they
    start early rather than at the end while the other workers wait. Tests marked one_engine run
    in the default engine's pass only. Tests marked slow (long benchmarks, repeated crash runs)
    run only when asked: -m slow."""
    def order(item) -> int:
        if _module(item.nodeid) in _GROUP:
            return _GROUP[_module(item.nodeid)]
        return len(ONE_WORKER) + (item.nodeid.split("[")[0] not in LONG_FIRST)

    items.sort(key=order)  # stable
    if ENGINE != "kuzu":  # what is checked above the engine is checked once, in the default engine's pass
        once = pytest.mark.skip(reason="one_engine: checked in the default engine's pass")
        for item in items:
            if "one_engine" in item.keywords:
                item.add_marker(once)
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


#: How many tests run between two moves of what has lived so far out of the collector's sight.
FREEZE_EVERY = 50
_finished = 0


def pytest_collection_finish(session):
    """What collection built (every module, test item and parameter) lives to the end of the run:
    set it aside from the cyclic collector (``gc.freeze``), so a full collection, and the benchmark
    runner's ``gc.collect()`` before each timing, scans only what tests made since."""
    gc.collect()
    gc.freeze()


def pytest_runtest_logfinish(nodeid, location):
    """Every FREEZE_EVERY tests, collect what the tests left behind, then set the survivors aside the
    same way: a worker's heap grows through a run, and without this each full collection late in
    the run rescans all of it."""
    global _finished
    _finished += 1
    if _finished % FREEZE_EVERY == 0:
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True)
def _engine_free_tests_open_no_store(request, monkeypatch):
    """A test marked engine_free (it checks code no engine runs: the time grammar, the extractor,
    layout, the Spark questions over an export...) runs in the kuzu pass only, so it must not open
    a store on the engine under test: here, opening one fails it. (Module fixtures made before the
    test, such as an export to question, may.)"""
    if request.node.get_closest_marker("engine_free") is None:
        return

    def refuse(name: str):
        raise AssertionError(f"a test marked engine_free opened a {name} store; unmark it, so it runs on both engines")

    monkeypatch.setattr("graphmem.engine.load_engine", refuse)


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self, start: str = "2026-01-01"):
        self.time = datetime.fromisoformat(start).replace(tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.time

    def set(self, value: str) -> None:
        self.time = datetime.fromisoformat(value).replace(tzinfo=UTC)

    def advance(self, **delta) -> None:
        self.time += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock):
    """A fresh in-memory store on the engine under test, with a hand-moved clock."""
    with Store(":memory:", engine=ENGINE, clock=clock) as fresh:
        yield fresh


@pytest.fixture
def store_dir(tmp_path):
    """A directory for an on-disk store."""
    return tmp_path / "store"


def objects(versions, subject=None, predicate=None) -> list[str]:
    """The objects of versions, filtered by subject and predicate."""
    return [
        v.object for v in versions
        if (subject is None or v.subject == subject) and (predicate is None or v.predicate == predicate)
    ]


@pytest.fixture(scope="module")
def design():
    """The worked examples of docs/semantics.md, replayed; the clock then stands at 2026-11-30."""
    from graphmem.scenario import ScenarioClock, load, play

    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC))
    with Store(":memory:", engine=ENGINE, clock=clock) as replayed:
        play(replayed, load("design"), clock)
        clock.time = datetime(2026, 11, 30, tzinfo=UTC)
        yield replayed


class Replayed(NamedTuple):
    """A scenario replayed once into a store on disk, to be copied (see :func:`copy_of`)."""

    path: Path
    clock_time: datetime  # where the scenario's clock stood when the replay ended
    decisions: list  # what the replay's fact writes returned
    scenario: dict


@pytest.fixture(scope="session")
def life_template(tmp_path_factory) -> Replayed:
    """The bundled life scenario (~500 versions) replayed once per test process: a replay takes
    seconds, a copy of its directory opens in milliseconds. Tests use :func:`copy_of`, never this."""
    from graphmem.scenario import ScenarioClock, load, play

    scenario = load("life")
    path = tmp_path_factory.mktemp("life-template") / "store"
    clock = ScenarioClock(datetime(2021, 1, 1, tzinfo=UTC))
    with Store(path, engine=ENGINE, clock=clock) as store:
        decisions = play(store, scenario, clock)
    return Replayed(path, clock.time, decisions, scenario)


def copy_of(template: Replayed, folder: Path) -> Store:
    """A store of its own holding what ``template`` holds, its clock where the replay left it."""
    from graphmem.scenario import ScenarioClock

    target = folder / "store"
    shutil.copytree(template.path, target)
    return Store(target, engine=ENGINE, clock=ScenarioClock(template.clock_time))
