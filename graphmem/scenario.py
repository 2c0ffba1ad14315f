"""Bundled scenarios: a sequence of dated episodes and the writes they support."""

from __future__ import annotations

import json
from datetime import datetime
from importlib import resources
from typing import Any

from ._store import Store
from .errors import NotFound
from .models import Decision, Version

__all__ = ["ScenarioClock", "load", "play"]


def load(name: str = "design") -> dict[str, Any]:
    """A bundled scenario by name (graphmem/scenarios/NAME.json)."""
    return json.loads(resources.files("graphmem.scenarios").joinpath(f"{name}.json").read_text())


class ScenarioClock:
    """A clock that reads the time of the step being played."""

    def __init__(self, start: datetime) -> None:
        self.time = start

    def __call__(self) -> datetime:
        return self.time


def play(store: Store, scenario: dict[str, Any], clock: ScenarioClock) -> list[Decision]:
    """Play every step: record its episode at the step's time, then its writes."""
    for name, kind in scenario.get("predicates", {}).items():
        store.declare(name, kind)
    decisions = []
    for step in scenario["steps"]:
        clock.time = store.time(step["at"])
        episode = None
        if "say" in step:
            say = step["say"]
            episode = store.add_episode(say["text"], kind=say.get("kind", "manual"), actor=say.get("actor"),
                                        reference_time=step["at"]).id
        for write in step.get("then", []):
            decisions.append(_write(store, write, episode))
    return decisions


def _write(store: Store, write: dict[str, Any], episode: str | None) -> Decision:
    if "add" in write:
        s, p, o = write["add"]
        return store.add(s, p, o, valid_from=write.get("from"), valid_to=write.get("to"), episode=episode)
    if "end" in write:
        return store.end(*write["end"], at=write.get("at"), episode=episode)
    if "segment" in write:
        s, p, o = write["segment"]
        return store.segment(s, p, o, valid_from=write["from"], valid_to=write["to"], episode=episode)
    if "correct" in write:
        wrong = _believed(store, write["correct"], "correct")
        return store.correct(wrong.id, write["object"], reason=write["reason"], episode=episode)
    if "retract" in write:
        wrong = _believed(store, write["retract"], "retract")
        return store.retract(wrong.id, reason=write["reason"], episode=episode)
    raise ValueError(f"scenario: unknown write {sorted(write)}")


def _believed(store: Store, fact: list[str], what: str) -> Version:
    """The believed version (any valid time) of a (subject, predicate, object) a step names."""
    s, p, o = fact
    found = next((v for v in store.beliefs(valid_at="all") if (v.subject, v.predicate, v.object) == (s, p, o)), None)
    if found is None:
        raise NotFound(f"scenario: nothing believed to {what} for {s} {p} {o}")
    return found
