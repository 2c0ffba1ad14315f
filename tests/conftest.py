"""Shared fixtures: every test runs on the engine named by GRAPHMEM_ENGINE (kuzu by default)."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import pytest

from graphmem import Store
from graphmem.timeutil import UTC

ENGINE = os.environ.get("GRAPHMEM_ENGINE", "kuzu")


def pytest_collection_modifyitems(config, items):
    """Tests marked slow (long benchmarks, repeated crash runs) run only when asked: -m slow."""
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


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
