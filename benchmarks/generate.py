"""A deterministic generator of bitemporal histories, exact to the write gate's semantics.

It simulates a store's life in memory: a stream of writes (asserts that add and
update, late-arriving facts, segments, ends, corrections, retractions, episodes)
at strictly increasing transaction times. Each write is planned by the gate's own
pure planners (:mod:`graphmem.core.gate`) and carried out the way
:class:`graphmem.write.transaction.Transaction` does, so the resulting log is the one a store
would hold after the same writes made one at a time; ``tests/test_benchmarks.py``
replays the writes through a real store and checks exactly that.

The log is written in the JSON Lines format of ``graphmem export``, so
``Store.import_log`` loads it and every peer reads the same file.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from graphmem.core.entity_kinds import kind_from_name
from graphmem.core.gate import Held, Plan, plan_assert, plan_correct, plan_end, plan_segment
from graphmem.core.names import entity_key
from graphmem.core.temporal import Period, held_order
from graphmem.core.times import TICK, UTC, iso
from graphmem.errors import GraphmemError
from graphmem.models import DEFAULT_PREDICATES

#: Target number of fact versions per named scale.
SCALES = {"tiny": 400, "10k": 10_000, "100k": 100_000, "1m": 1_000_000, "10m": 10_000_000}
START = datetime(2020, 1, 1, tzinfo=UTC)
PREDICATES = {
    "lives_in": "one", "works_at": "one", "status": "one",
    "likes": "many", "knows": "many",
    "traveled_to": "event", "met": "event",
}
STATUSES = ("active", "idle", "away", "busy", "retired", "new")
# Cumulative weights of the kinds of write the stream is made of.
MIX = (
    ("update", 34), ("late", 5), ("segment", 4), ("correct", 3), ("retract", 2),
    ("many", 22), ("end", 6), ("event", 17), ("episode", 7),
)
assert all(PREDICATES[p] == DEFAULT_PREDICATES[p] for p in PREDICATES)


def scale_versions(scale: str) -> int:
    """The number of versions a scale names ('100k', '1m', or a plain number)."""
    name = scale.lower()
    if name in SCALES:
        return SCALES[name]
    if name.isdigit():
        return int(name)
    raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)} or a number")


@dataclass
class Record:
    """One fact version, mutable while the history is being made."""

    id: str
    subject: str
    predicate: str
    object: str
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    created_by: str
    episodes: list[str]
    supersedes: list[str]
    superseded_at: datetime | None = None
    superseded_by: list[str] = field(default_factory=list)
    closed_by: str | None = None
    reason: str | None = None


@dataclass
class History:
    """A generated log: its records, the writes that made it, and the state they left."""

    seed: int
    entities: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (name, kind)
    episodes: dict[str, dict] = field(default_factory=dict)
    decisions: list[dict] = field(default_factory=list)
    versions: dict[str, Record] = field(default_factory=dict)
    writes: list[tuple] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)  # episodes linked to versions after their write
    believed: dict[tuple[str, str], list[Held]] = field(default_factory=dict)
    seq: dict[str, int] = field(default_factory=lambda: {"d": 0, "v": 0, "ep": 0})
    last_write: datetime | None = None

    # -- carrying out one write (mirrors graphmem.write.transaction.Transaction) -------------------------

    def next_id(self, prefix: str) -> str:
        self.seq[prefix] += 1
        return f"{prefix}{self.seq[prefix]}"

    def ensure_entity(self, name: str) -> str:
        key = entity_key(name)
        if key not in self.entities:
            self.entities[key] = (name, kind_from_name(name))
        return key

    def carry_out(self, plan: Plan, subject: str, predicate: str, at: datetime, *,
                  episode: str | None = None, reason: str | None = None,
                  retracted: tuple[str, ...] = ()) -> dict:
        """Apply a gate plan at transaction time ``at``; return its decision."""
        decision = self.next_id("d")
        created = [(self.next_id("v"), new) for new in plan.create]
        key = (subject, predicate)
        held = self.believed.setdefault(key, [])
        closing = set(plan.close)
        for closed_id in plan.close:
            record = self.versions[closed_id]
            record.superseded_at = at
            record.superseded_by = [vid for vid, new in created if closed_id in new.supersedes]
            record.closed_by = decision
            record.reason = reason if closed_id in retracted else None
        held[:] = [h for h in held if h.id not in closing]
        for version_id in plan.link:
            record = self.versions[version_id]
            record.episodes.append(episode)
            self.links.append({"version": version_id, "episode": episode, "at": at})
            held[:] = [h._replace(episodes=h.episodes + (episode,)) if h.id == version_id else h
                       for h in held]
        for version_id, new in created:
            self.versions[version_id] = Record(
                version_id, subject, predicate, new.object, new.period.start, new.period.end, at,
                decision, list(new.episodes), list(new.supersedes),
            )
            held.append(Held(version_id, new.object, new.period, tuple(new.episodes)))
        return self._log(plan.op, decision, at, [vid for vid, _ in created], list(plan.close),
                         episode=episode, reason=reason)

    def _log(self, op, decision_id, at, created=(), closed=(), episode=None, reason=None) -> dict:
        record = {"id": decision_id, "op": op, "at": at, "created": list(created),
                  "closed": list(closed), "episode": episode, "reason": reason, "proposal": None}
        self.decisions.append(record)
        self.last_write = at
        return record

    # -- the public writes, as Store would do them ----------------------------------------------

    def add(self, subject: str, predicate: str, obj: str, valid_from: datetime | None,
            valid_to: datetime | None, at: datetime, episode: str | None = None) -> dict:
        start = valid_from or (self.episodes[episode]["reference_time"] if episode else at)
        subject_id, object_id = self.ensure_entity(subject), self.ensure_entity(obj)
        plan = plan_assert(PREDICATES[predicate], self._held(subject_id, predicate), object_id,
                           start, valid_to, episode)  # the store's zone is UTC here, as the gate's default
        decision = self.carry_out(plan, subject_id, predicate, at, episode=episode)
        self.writes.append(("add", subject, predicate, obj, valid_from, valid_to, episode, at))
        return decision

    def segment(self, subject, predicate, obj, valid_from, valid_to, at) -> dict:
        subject_id, object_id = self.ensure_entity(subject), self.ensure_entity(obj)
        plan = plan_segment(PREDICATES[predicate], self._held(subject_id, predicate), object_id,
                            valid_from, valid_to)
        decision = self.carry_out(plan, subject_id, predicate, at)
        self.writes.append(("segment", subject, predicate, obj, valid_from, valid_to, at))
        return decision

    def end(self, subject, predicate, obj, moment, at) -> dict:
        subject_id, object_id = entity_key(subject), entity_key(obj)
        plan = plan_end(PREDICATES[predicate], self._held(subject_id, predicate), object_id, moment)
        decision = self.carry_out(plan, subject_id, predicate, at)
        self.writes.append(("end", subject, predicate, obj, moment, at))
        return decision

    def retract(self, version_id: str, reason: str, at: datetime) -> dict:
        wrong = self.versions[version_id]
        plan = Plan("RETRACT", close=(version_id,))
        decision = self.carry_out(plan, wrong.subject, wrong.predicate, at, reason=reason,
                                  retracted=(version_id,))
        self.writes.append(("retract", version_id, reason, at))
        return decision

    def correct(self, version_id: str, obj: str, reason: str, at: datetime) -> dict:
        wrong = self.versions[version_id]
        object_id = self.ensure_entity(obj)
        held = Held(wrong.id, wrong.object, Period(wrong.valid_from, wrong.valid_to),
                    tuple(wrong.episodes))
        plan = plan_correct(PREDICATES[wrong.predicate], self._held(wrong.subject, wrong.predicate),
                            held, object_id)
        decision = self.carry_out(plan, wrong.subject, wrong.predicate, at, reason=reason,
                                  retracted=(version_id,))
        self.writes.append(("correct", version_id, obj, reason, at))
        return decision

    def add_episode(self, text: str, reference_time: datetime, at: datetime) -> str:
        episode_id = self.next_id("ep")
        self.episodes[episode_id] = {"id": episode_id, "kind": "chat", "text": text, "actor": None,
                                     "reference_time": reference_time, "received_at": at}
        self._log("EPISODE", self.next_id("d"), at, episode=episode_id)
        self.writes.append(("episode", text, reference_time, at))
        return episode_id

    def _held(self, subject_id: str, predicate: str) -> list[Held]:
        return held_order(self.believed.get((subject_id, predicate), ()))

    # -- output ------------------------------------------------------------------------------------

    def meta(self) -> dict[str, str]:
        found = {"timezone": "UTC", **{f"seq:{k}": str(v) for k, v in self.seq.items() if v}}
        if self.last_write is not None:
            found["last_write"] = iso(self.last_write)
        return found

    def version_rows(self):
        """Every version as an export record (dict in the exported field order)."""
        for record in self.versions.values():
            yield {
                "id": record.id, "subject": self.entities[record.subject][0],
                "predicate": record.predicate, "object": self.entities[record.object][0],
                "valid_from": iso(record.valid_from), "valid_to": iso(record.valid_to),
                "recorded_at": iso(record.recorded_at), "superseded_at": iso(record.superseded_at),
                "episodes": record.episodes, "subject_id": record.subject,
                "object_id": record.object, "supersedes": record.supersedes,
                "superseded_by": record.superseded_by, "created_by": record.created_by,
                "closed_by": record.closed_by, "reason": record.reason,
            }


def _names(count: int, label: str) -> list[str]:
    return [f"{label} {i}" for i in range(count)]


class Generator:
    """Makes a History of about ``versions`` fact versions from ``seed``, write by write."""

    def __init__(self, versions: int, seed: int = 1):
        self.target = versions
        self.rnd = random.Random(seed)
        self.history = History(seed=seed)
        people = max(8, versions // 20)
        self.people = _names(people, "Person")
        self.objects = {
            "lives_in": _names(max(4, people // 25), "City"),
            "works_at": _names(max(4, people // 10), "Company"),
            "status": list(STATUSES),
            "likes": _names(max(6, people // 15), "Thing"),
            "knows": self.people,
            "traveled_to": None,  # filled below: the cities
            "met": self.people,
        }
        self.objects["traveled_to"] = self.objects["lives_in"]
        self.at = START
        self.pending_episode: str | None = None
        total = sum(w for _, w in MIX)
        self.mix = [(name, w / total) for name, w in MIX]

    # -- choices -----------------------------------------------------------------------------

    def person(self) -> str:
        # Skewed: a few people change often, so "most changed keys" has a real top.
        return self.people[int(len(self.people) * self.rnd.random() ** 2)]

    def kind_of_write(self) -> str:
        x = self.rnd.random()
        for name, weight in self.mix:
            x -= weight
            if x < 0:
                return name
        return self.mix[-1][0]

    def tick(self) -> datetime:
        """The next write's transaction time: seconds to minutes after the last."""
        self.at += timedelta(seconds=self.rnd.randint(1, 600), microseconds=self.rnd.randint(0, 999))
        return self.at

    def past(self, days: int) -> datetime:
        """A valid time up to ``days`` before now, on a whole second."""
        moment = self.at - timedelta(seconds=self.rnd.randint(0, days * 86400))
        return moment.replace(microsecond=0)

    def believed_version(self, predicates) -> Record | None:
        for _ in range(8):
            key = (entity_key(self.person()), self.rnd.choice(predicates))
            held = self.history.believed.get(key)
            if held:
                return self.history.versions[self.rnd.choice(held).id]
        return None

    # -- the stream ---------------------------------------------------------------------------------

    def run(self) -> History:
        history = self.history
        while len(history.versions) < self.target:
            try:
                self.step(self.kind_of_write())
            except GraphmemError:
                continue  # the gate refused this write (e.g. nothing to end): the store would too
        return history

    def step(self, kind: str) -> None:
        h, rnd = self.history, self.rnd
        if kind == "episode":
            at = self.tick()
            self.pending_episode = h.add_episode(f"message {h.seq['ep'] + 1}", self.past(20), at)
            return
        if self.pending_episode is not None:
            episode, self.pending_episode = self.pending_episode, None
            subject, predicate = self.person(), rnd.choice(("lives_in", "works_at", "likes"))
            h.add(subject, predicate, rnd.choice(self.objects[predicate]), None, None, self.tick(), episode)
            return
        if kind == "update":
            predicate = rnd.choice(("lives_in", "works_at", "status"))
            at = self.tick()
            h.add(self.person(), predicate, rnd.choice(self.objects[predicate]), self.past(30), None, at)
        elif kind == "late":
            predicate = rnd.choice(("lives_in", "works_at"))
            at = self.tick()
            h.add(self.person(), predicate, rnd.choice(self.objects[predicate]), self.past(1500), None, at)
        elif kind == "segment":
            predicate = rnd.choice(("lives_in", "works_at", "status"))
            at = self.tick()
            start = self.past(900)
            end = start + timedelta(days=rnd.randint(1, 60))
            if end >= at:
                return
            h.segment(self.person(), predicate, rnd.choice(self.objects[predicate]), start, end, at)
        elif kind == "many":
            predicate = rnd.choice(("likes", "knows"))
            at = self.tick()
            end = None if rnd.random() < 0.8 else at + timedelta(days=rnd.randint(1, 400))
            h.add(self.person(), predicate, rnd.choice(self.objects[predicate]), self.past(60), end, at)
        elif kind == "event":
            predicate = rnd.choice(("traveled_to", "met"))
            at = self.tick()
            h.add(self.person(), predicate, rnd.choice(self.objects[predicate]), self.past(400), None, at)
        elif kind == "end":
            record = self.believed_version(("likes", "knows", "lives_in", "works_at"))
            if record is None or (record.valid_to is not None):
                return
            at = self.tick()
            moment = self.past(10)
            if moment <= record.valid_from:
                return
            h.end(h.entities[record.subject][0], record.predicate, h.entities[record.object][0], moment, at)
        elif kind in ("correct", "retract"):
            record = self.believed_version(tuple(PREDICATES))
            if record is None:
                return
            at = self.tick()
            if kind == "retract":
                h.retract(record.id, "entered by mistake", at)
            else:
                choices = self.objects[record.predicate]
                h.correct(record.id, rnd.choice(choices), "typing mistake", at)


def generate(versions: int, seed: int = 1) -> History:
    """A deterministic history of about ``versions`` fact versions."""
    return Generator(versions, seed).run()


def write_log(history: History, path: Path) -> int:
    """Write the history as a graphmem export log (JSON Lines); return the number of lines."""
    lines = 0
    tmp = path.with_name(path.name + ".partial")
    with tmp.open("w", encoding="utf-8") as out:
        def put(record: dict) -> None:
            nonlocal lines
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            lines += 1

        put({"type": "graphmem", "format": 2, "engine": "generated", "timezone": "UTC"})
        for key, value in sorted(history.meta().items()):
            put({"type": "meta", "key": key, "value": value})
        for entity_id in sorted(history.entities):
            name, kind = history.entities[entity_id]
            put({"type": "entity", "id": entity_id, "name": name, "kind": kind})
        for ep in sorted(history.episodes.values(), key=lambda e: (e["reference_time"], e["id"])):
            put({"type": "episode", **ep, "reference_time": iso(ep["reference_time"]),
                 "received_at": iso(ep["received_at"])})
        for d in history.decisions:
            put({"type": "decision", **d, "at": iso(d["at"])})
        for row in history.version_rows():
            put({"type": "version", **row})
        for link in history.links:
            put({"type": "link", **link, "at": iso(link["at"])})
    tmp.replace(path)
    return lines


def ticks(start: datetime, count: int) -> list[datetime]:
    """``count`` transaction times one tick apart from ``start``: what a batch of writes takes."""
    return [start + TICK * i for i in range(count)]


def resume(records: dict[str, list[dict]]) -> History:
    """A History in the state a loaded log leaves, ready to plan further writes."""
    from benchmarks.model import from_micros, micros

    history = History(seed=0)
    meta = {m["key"]: m["value"] for m in records.get("meta", [])}
    for key in history.seq:
        history.seq[key] = int(meta.get(f"seq:{key}", "0"))
    history.last_write = from_micros(micros(meta["last_write"])) if "last_write" in meta else None
    history.entities = {e["id"]: (e["name"], e["kind"]) for e in records.get("entity", [])}
    for v in records.get("version", []):
        if v["superseded_at"] is not None:
            continue
        record = Record(
            v["id"], v["subject_id"], v["predicate"], v["object_id"],
            from_micros(micros(v["valid_from"])), from_micros(micros(v["valid_to"])),
            from_micros(micros(v["recorded_at"])), v["created_by"], list(v["episodes"]),
            list(v["supersedes"]),
        )
        history.versions[record.id] = record
        history.believed.setdefault((record.subject, record.predicate), []).append(
            Held(record.id, record.object, Period(record.valid_from, record.valid_to),
                 tuple(record.episodes)))
    return history
