"""The bundled life scenario: written by its script, replayable on both engines, a sound log."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from .conftest import copy_of

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "life_scenario.py"


def _script():
    spec = importlib.util.spec_from_file_location("life_scenario", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bundled_file_is_what_the_script_writes():
    bundled = (ROOT / "graphmem" / "scenarios" / "life.json").read_text(encoding="utf-8")
    assert bundled == _script().render(), "run `python scripts/life_scenario.py` after editing the story"


@pytest.fixture(scope="module")
def life(life_template, tmp_path_factory):
    """The scenario replayed (once per test process, shared with the recall tests), in a copy."""
    with copy_of(life_template, tmp_path_factory.mktemp("life")) as store:
        yield store, life_template.decisions


def test_it_replays_into_a_sound_store(life):
    store, decisions = life
    assert store.check() == []
    ops = Counter(d.op for d in decisions)
    assert len(decisions) >= 400
    assert {"ADD", "UPDATE", "END", "CORRECT", "RETRACT", "SEGMENT"} <= set(ops)
    versions = store.versions()
    assert 450 <= len(versions) <= 600
    people = {v.subject for v in versions}
    assert 38 <= len(people) <= 50


def test_every_write_keeps_its_sentence(life):
    store, _ = life
    episodes = {e.id: e for e in store.episodes()}
    for version in store.versions():
        assert version.episodes, f"{version.id} has no source sentence"
        for episode_id in version.episodes:
            assert episodes[episode_id].kind == "chat"


def test_five_years_of_changes_as_believed_then_and_now(life):
    store, _ = life
    assert [v.object for v in store.history("Maya", "lives_in") if v.status == "current"] == ["Hamburg"]
    assert [v.object for v in store.beliefs(as_of="2022-10-10") if (v.subject, v.predicate) == ("Priya", "works_at")] \
        == ["Zalando"]
    assert [v.object for v in store.beliefs() if (v.subject, v.predicate) == ("Priya", "works_at")] == ["N26"]
    assert [v.object for v in store.beliefs(valid_at="2023-04-01")
            if (v.subject, v.predicate) == ("Raj", "lives_in")] == ["Singapore"]
    retracted = [v for v in store.history("Nina", "dating") if v.status == "retracted"]
    assert [v.object for v in retracted] == ["Leo"]
