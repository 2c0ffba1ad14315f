"""The write gate's decisions, without a database."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from graphmem.core.gate import Held, plan_assert, plan_correct, plan_end, plan_segment
from graphmem.core.temporal import Period
from graphmem.core.times import UTC
from graphmem.errors import Conflict, InvalidInput, InvalidPeriod

pytestmark = pytest.mark.engine_free

BASE = datetime(2026, 1, 1, tzinfo=UTC)


def d(n):
    return None if n is None else BASE + timedelta(days=n)


def held(vid, obj, a, b=None, episodes=()):
    return Held(vid, obj, Period(d(a), d(b)), tuple(episodes))


def created(plan):
    return [(v.object, v.period.start, v.period.end, v.supersedes) for v in plan.create]


def test_add_to_nothing():
    plan = plan_assert("one", [], "prague", d(0), None, "ep1")
    assert plan.op == "ADD" and plan.close == ()
    assert created(plan) == [("prague", d(0), None, ())]
    assert plan.create[0].episodes == ("ep1",)


def test_one_update_cuts_old_value_and_keeps_its_provenance():
    plan = plan_assert("one", [held("v1", "prague", 0, episodes=["ep1"])], "berlin", d(10), None, "ep2")
    assert plan.op == "UPDATE" and plan.close == ("v1",)
    assert created(plan) == [("prague", d(0), d(10), ("v1",)), ("berlin", d(10), None, ("v1",))]
    assert plan.create[0].episodes == ("ep1",)
    assert plan.create[1].episodes == ("ep2",)


def test_late_open_fact_stops_at_the_next_known_change():
    believed = [held("v1", "prague", 0, 10), held("v2", "berlin", 10)]
    plan = plan_assert("one", believed, "munich", d(5), None)
    assert created(plan) == [("prague", d(0), d(5), ("v1",)), ("munich", d(5), d(10), ("v1",))]
    assert plan.close == ("v1",)


@pytest.mark.parametrize("kind", ["one", "many"])
def test_a_late_open_fact_never_reopens_a_value_whose_end_is_known(kind):
    """A bike owned from day 0 and sold on day 10; "listing my bike" of day 8, approved late and open-ended, is
    the ownership already believed (a new user's review reopened the sold bike); told from before its start, it
    reaches back and still stops at the sale; told from the sale on, or after, it is the value held again."""
    believed = [held("v1", "bike", 0, 10, episodes=["ep1"])]
    plan = plan_assert(kind, believed, "bike", d(8), None, "ep2")
    assert plan.op == "NOOP" and plan.link == ("v1",)
    plan = plan_assert(kind, believed, "bike", d(-5), None, "ep2")
    assert created(plan) == [("bike", d(-5), d(10), ("v1",))]
    assert created(plan_assert(kind, believed, "bike", d(12), None))[-1][:3] == ("bike", d(12), None)
    # the first known end after the start: of two periods of the same value, the first one's
    two = [held("v1", "bike", 0, 10), held("v2", "bike", 20, 30)]
    assert plan_assert(kind, two, "bike", d(5), None).op == "NOOP"
    assert created(plan_assert(kind, two, "bike", d(15), None)) == [("bike", d(15), d(30), ("v2",))]
    # another value's end is no end of this one
    assert created(plan_assert(kind, [held("v1", "car", 0, 10)], "bike", d(5), None))[-1][:3] == ("bike", d(5), None)


def test_one_segment_splits_into_three():
    plan = plan_segment("one", [held("v1", "prague", 0)], "munich", d(5), d(7))
    assert plan.op == "SEGMENT"
    assert created(plan) == [
        ("prague", d(0), d(5), ("v1",)), ("prague", d(7), None, ("v1",)), ("munich", d(5), d(7), ("v1",)),
    ]


def test_segment_needs_a_one_predicate():
    with pytest.raises(InvalidInput):
        plan_segment("many", [], "x", d(0), d(1))


@pytest.mark.parametrize("kind", ["one", "many"])
def test_same_statement_is_a_noop_that_links_the_episode(kind):
    plan = plan_assert(kind, [held("v1", "apples", 0, episodes=["ep1"])], "apples", d(3), d(5), "ep2")
    assert plan.op == "NOOP" and plan.create == () and plan.close == ()
    assert plan.link == ("v1",)


def test_noop_without_new_episode_links_nothing():
    plan = plan_assert("many", [held("v1", "apples", 0, episodes=["ep1"])], "apples", d(3), None, "ep1")
    assert plan.op == "NOOP" and plan.link == ()


def test_many_merges_overlapping_same_value():
    plan = plan_assert("many", [held("v1", "apples", 0, 5, ["ep1"])], "apples", d(3), d(9), "ep2")
    assert plan.op == "UPDATE" and plan.close == ("v1",)
    assert created(plan) == [("apples", d(0), d(9), ("v1",))]
    assert plan.create[0].episodes == ("ep1", "ep2")


def test_many_values_coexist():
    plan = plan_assert("many", [held("v1", "apples", 0)], "pears", d(3), None)
    assert plan.op == "ADD" and plan.close == ()


def test_events_never_merge():
    plan = plan_assert("event", [held("v1", "paris", 0, 1)], "paris", d(0), d(2))
    assert plan.op == "ADD" and plan.close == ()
    same = plan_assert("event", [held("v1", "paris", 0, 1)], "paris", d(0), None)
    assert same.op == "NOOP"  # the same occurrence told again


def test_event_without_end_lasts_one_day():
    plan = plan_assert("event", [], "paris", d(0), None)
    assert plan.create[0].period == Period(d(0), d(1))


@pytest.mark.parametrize(("zone", "start", "end"), [
    # a met-up at 10:00 in Berlin on the day clocks go forward lasts 14 hours of that 23-hour day
    ("Europe/Berlin", "2026-03-29T08:00:00+00:00", "2026-03-29T22:00:00+00:00"),
    # and on the day they go back, until midnight of a 25-hour day
    ("Europe/Berlin", "2026-10-25T08:00:00+00:00", "2026-10-25T23:00:00+00:00"),
    # late evening in New York is the next day in UTC; the event still ends at New York's midnight
    ("America/New_York", "2026-07-04T02:30:00+00:00", "2026-07-04T04:00:00+00:00"),
    ("UTC", "2026-07-04T23:59:59+00:00", "2026-07-05T00:00:00+00:00"),
])
def test_event_without_end_lasts_until_the_end_of_its_local_day(zone, start, end):
    plan = plan_assert("event", [], "paris", datetime.fromisoformat(start), None, tz=ZoneInfo(zone))
    assert plan.create[0].period == Period(datetime.fromisoformat(start), datetime.fromisoformat(end))


def test_reversed_period_is_refused():
    with pytest.raises(InvalidPeriod):
        plan_assert("one", [], "x", d(5), d(5))


def test_end_writes_back_with_valid_to():
    plan = plan_end("many", [held("v1", "apples", 0, episodes=["ep1"])], "apples", d(4), "ep2")
    assert plan.op == "END" and plan.close == ("v1",)
    assert created(plan) == [("apples", d(0), d(4), ("v1",))]
    assert plan.create[0].episodes == ("ep1", "ep2")


@pytest.mark.parametrize("believed, obj, at", [
    ([], None, 3),                                                   # nothing believed
    ([held("v1", "apples", 0, 2)], "apples", 3),                     # already over
    ([held("v1", "apples", 0)], "pears", 3),                         # other value
    ([held("v1", "apples", 3)], "apples", 3),                        # would leave nothing
    ([held("v1", "apples", 0), held("v2", "pears", 0)], None, 3),    # ambiguous
])
def test_end_refusals(believed, obj, at):
    with pytest.raises(Conflict):
        plan_end("many", believed, obj, d(at))


def test_an_end_told_again_is_a_noop_linking_its_episode():
    """A new user's: "my last day at the library" approved after the job's end was corrected to that day."""
    plan = plan_end("one", [held("v1", "library", 0, 4, episodes=["ep1"])], "library", d(4), "ep2")
    assert plan.op == "NOOP" and plan.link == ("v1",) and not plan.create and not plan.close
    assert plan_end("one", [held("v1", "library", 0, 4, episodes=["ep1"])], None, d(4), "ep1").link == ()
    with pytest.raises(Conflict, match="nothing to end"):
        plan_end("one", [held("v1", "library", 0, 4)], "library", d(5), "ep2")  # another end is still refused
    # a reviewer's: no value named where two ended there, or an event's, is refused as before
    with pytest.raises(Conflict, match="nothing to end"):
        plan_end("many", [held("v1", "tea", 0, 4), held("v2", "coffee", 1, 4)], None, d(4), "ep2")
    with pytest.raises(Conflict, match="nothing to end"):
        plan_end("event", [held("v1", "wedding", 3, 4)], "wedding", d(4), "ep2")


def test_correct_retracts_and_asserts_the_same_period():
    wrong = held("v2", "cold", 10)
    plan = plan_correct("one", [held("v1", "warm", 0, 10), wrong], wrong, "lost")
    assert plan.op == "CORRECT" and plan.close == ("v2",)
    assert created(plan) == [("lost", d(10), None, ("v2",))]


def test_correct_to_the_same_value_is_refused():
    wrong = held("v1", "cold", 0)
    with pytest.raises(InvalidInput):
        plan_correct("one", [wrong], wrong, "cold")


def test_correct_can_give_the_same_value_another_period():
    """"No wait, it started on the 14th": the same value over the period it really held, the version retracted."""
    wrong = held("v2", "northcoders", 10)
    plan = plan_correct("one", [held("v1", "halden", 0, 10), wrong], wrong, "northcoders", period=Period(d(14), None))
    assert plan.op == "CORRECT" and plan.close == ("v2",)
    assert created(plan) == [("northcoders", d(14), None, ("v2",))]
    trip = held("v3", "lisbon", 16, 18)
    assert created(plan_correct("event", [trip], trip, "lisbon", period=Period(d(16), d(21)))) == [
        ("lisbon", d(16), d(21), ("v3",))]
    with pytest.raises(InvalidInput, match="same period"):
        plan_correct("one", [wrong], wrong, "northcoders", period=Period(d(10), None))
    with pytest.raises(InvalidPeriod):
        plan_correct("one", [wrong], wrong, "northcoders", period=Period(d(14), d(12)))
