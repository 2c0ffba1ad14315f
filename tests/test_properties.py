"""Property tests: random write sequences against the reference model; the past never changes."""

from __future__ import annotations

import os
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem import Conflict, GraphmemError, InvalidInput, Said, Store, Version
from graphmem.core.times import UTC
from tests.conftest import ENGINE
from tests.reference_model import Model, Refused, store_state

BASE = datetime(2020, 1, 1, tzinfo=UTC)
KINDS = {"lives_in": "one", "likes": "many", "visited": "event"}
SUBJECTS = st.sampled_from(["ann", "bob"])
PREDICATES = st.sampled_from(sorted(KINDS))
OBJECTS = st.sampled_from(["x", "y", "z"])
DAYS = st.integers(min_value=0, max_value=12)
MAYBE_DAYS = st.none() | DAYS
#: Where an add's support comes from: none, a quote recorded with it, or the latest episode said before.
SOURCES = st.sampled_from([None, "quote", "earlier"])

ops = st.one_of(
    st.tuples(st.just("add"), SUBJECTS, PREDICATES, OBJECTS, MAYBE_DAYS, MAYBE_DAYS, SOURCES),
    st.tuples(st.just("say")),
    st.tuples(st.just("end"), SUBJECTS, PREDICATES, st.none() | OBJECTS, DAYS),
    st.tuples(st.just("segment"), SUBJECTS, PREDICATES, OBJECTS, DAYS, DAYS),
    st.tuples(st.just("retract"), st.integers(0, 20)),
    st.tuples(st.just("correct"), st.integers(0, 20), OBJECTS),
    st.tuples(st.just("redate"), st.integers(0, 20), DAYS, MAYBE_DAYS),  # "no wait, it began on the 3rd"
)


def day(n):
    return None if n is None else BASE + timedelta(days=n)


def tx(i):
    """Transaction time of write i: a year after the valid times, 1 hour apart."""
    return BASE + timedelta(days=400, hours=i)


def resolve(store: Store, op, at):
    """Turn a retract/correct op's index into the version it names (None: nothing believed)."""
    if op[0] not in ("retract", "correct", "redate"):
        return op
    believed = sorted(store.beliefs(as_of=at, valid_at="all"), key=lambda v: int(v.id[1:]))
    if not believed:
        return None
    return (op[0], believed[op[1] % len(believed)], *op[2:])


def on_model(model: Model, op, at) -> None:
    name = op[0]
    if name == "say":
        return
    if name in ("retract", "correct", "redate"):
        v = op[1]
        args = (v.subject, v.predicate, v.object, v.valid_from, v.valid_to)
        if name == "redate":
            model.redate(*args, day(op[2]), day(op[3]))
        else:
            model.retract(*args) if name == "retract" else model.correct(*args, op[2])
    elif name == "add":
        model.add(*op[1:4], day(op[4]) or at, day(op[5]))  # a quote changes provenance, not the state
    elif name == "end":
        model.end(*op[1:4], day(op[4]))
    else:
        model.segment(*op[1:4], day(op[4]), day(op[5]))


def on_store(store: Store, op, at):
    name = op[0]
    if name == "retract":
        return store.retract(op[1].id, reason="wrong", recorded_at=at)
    if name == "correct":
        return store.correct(op[1].id, op[2], reason="typo", recorded_at=at)
    if name == "redate":
        return store.correct(op[1].id, reason="another period", valid_from=day(op[2]), valid_to=day(op[3]),
                             recorded_at=at)
    if name == "say":
        return store.add_episode(f"said at {at}", kind="chat", recorded_at=at)
    if name == "add":  # with a source, a NOOP links its episode to what is believed, at this write
        quote = Said(text=f"said at {at}", reference_time=day(op[4]) or at) if op[6] == "quote" else None
        said = [e.id for e in store.episodes() if e.kind == "chat"]
        episode = said[-1] if op[6] == "earlier" and said else None
        start = day(op[4]) or (at if episode else None)  # not the earlier episode's own time
        return store.add(*op[1:4], valid_from=start, valid_to=day(op[5]), quote=quote, episode=episode,
                         recorded_at=at)
    if name == "end":
        return store.end(*op[1:4], at=day(op[4]), recorded_at=at)
    return store.segment(*op[1:4], valid_from=day(op[4]), valid_to=day(op[5]), recorded_at=at)


def snapshot(store, as_of):
    """The whole as-of answer, supporting episodes included (a later link is a later write)."""
    return sorted(v.model_dump_json() for v in store.beliefs(as_of=as_of, valid_at="all"))


#: 32 random sequences in the default engine's pass, 14 in the second's (the suite's time is counted:
#: 80 and 40 took 86 s and 37 s of a six-minute budget, 40 and 20 took 21 and 14 CPU-s; what differs between
#: the engines is their plans, which every sequence exercises; raise them locally after changing the store:
#: GRAPHMEM_EXAMPLES=200).
@settings(max_examples=int(os.environ.get("GRAPHMEM_EXAMPLES", 32 if ENGINE == "kuzu" else 14)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ops, min_size=1, max_size=14))
@example([  # an open version's start moved before a value known between: it held from then on (found by CI's draw)
    ("add", "ann", "lives_in", "x", None, None, None), ("segment", "ann", "lives_in", "x", 1, 2),
    ("redate", 0, 0, None),
])
@example([  # an episode said, then cited by a NOOP: linked only from that later write on
    ("add", "ann", "likes", "x", 1, None, None), ("say",), ("add", "ann", "likes", "x", 2, 5, "earlier"),
])
@example([  # an end told again, named or not, is a NOOP; an event's is refused (a reviewer's)
    ("add", "ann", "likes", "x", 1, 5, None), ("end", "ann", "likes", "x", 5), ("add", "ann", "lives_in", "y", 1, 5,
    None), ("end", "ann", "lives_in", None, 5), ("add", "ann", "visited", "z", 1, 2, None), ("end", "ann", "visited",
    "z", 2),
])
def test_store_matches_model_and_past_never_changes(sequence):
    model = Model(KINDS)
    with Store(":memory:", engine=ENGINE) as store:
        for name, kind in KINDS.items():
            store.declare(name, kind)
        seen = {}
        written = []  # the moments of the writes made
        for i, op in enumerate(sequence):
            at = tx(i)
            op = resolve(store, op, at - timedelta(minutes=1))
            if op is None:
                continue
            model_before = model.state()
            try:
                on_model(model, op, at)
            except Refused:
                before = snapshot(store, at + timedelta(minutes=1))  # (the model has not touched the store)
                try:
                    on_store(store, op, at)
                except GraphmemError:
                    pass
                else:
                    raise AssertionError(f"the model refuses {op} but the store wrote it")
                assert snapshot(store, at + timedelta(minutes=1)) == before
                continue
            try:
                decision = on_store(store, op, at)
            except (Conflict, InvalidInput) as exc:
                raise AssertionError(f"store refused {op} but the model accepted it: {exc}") from exc
            if op[0] in ("add", "segment"):
                unchanged = model.state() == model_before
                assert (decision.op == "NOOP") == unchanged, (op, decision.op)
                assert not unchanged or (decision.created, decision.closed) == ([], [])
            believed = store.beliefs(as_of=at, valid_at="all")
            assert store_state(believed, KINDS) == model.state(), op
            seen[at] = sorted(v.model_dump_json() for v in believed)  # snapshot(store, at), asked once
            written.append(at)
            seen[at + timedelta(minutes=30)] = snapshot(store, at + timedelta(minutes=30))
        # the Arrow answer at each write's moment, and at the last moment between two writes (the
        # others between writes answer as the write before them: compared as models above)
        arrow_at = set(written) | {max((m for m in seen if m not in written), default=None)}
        for as_of, answer in seen.items():
            assert snapshot(store, as_of) == answer, f"the answer as of {as_of} changed"
            if as_of not in arrow_at:
                continue
            for valid_at in ("all", None, as_of - timedelta(days=40)):  # the Arrow answer is the same answer
                table = store.beliefs_arrow(as_of=as_of, valid_at=valid_at)
                assert [Version(**row) for row in table.to_pylist()] == store.beliefs(as_of=as_of, valid_at=valid_at)
        assert store.check() == []
        assert_round_trip(store, seen)


def assert_round_trip(store: Store, seen: dict) -> None:
    """A store that `check` passes exports, and its export imports into a new store that answers alike."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        store.export(log)
        with Store(":memory:", engine=ENGINE) as copy:
            copy.import_log(log)
            assert copy.check() == []
            for as_of, answer in seen.items():
                assert snapshot(copy, as_of) == answer
