"""What the store knew at T is one rule (graphmem.core.as_known), rendered for Python, the engine's
Cypher, Arrow and Spark: every rendering gives the same answer on the same periods (which versions
were believed: Python and Cypher; which closings were known: Python and Arrow).

(The Spark rendering is held to the same answers in test_spark.py, where the JVM already runs.)
"""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.core import as_known
from graphmem.core.times import OPEN_END, to_engine
from graphmem.engine.statements import QUERIES, expand, queries_dir
from tests.conftest import ENGINE

BASE = datetime(2026, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def periods() -> st.SearchStrategy[list[tuple[int, int | None]]]:
    """Transaction periods in days: recorded, and superseded (None: still open) after it."""
    one = st.tuples(st.integers(0, 9), st.one_of(st.none(), st.integers(1, 6))).map(
        lambda p: (p[0], None if p[1] is None else p[0] + p[1]))
    return st.lists(one, min_size=1, max_size=12)


def rows(spans: list[tuple[int, int | None]]) -> list[dict]:
    """Fact rows as the engine holds them: naive UTC times, an open end as OPEN_END; closed ones
    carry what a closing sets."""
    return [{"id": f"v{n}", "recorded_at": to_engine(BASE + a * DAY),
             "superseded_at": OPEN_END if b is None else to_engine(BASE + b * DAY),
             "superseded_by": [] if b is None else [f"v{n}x"], "closed_by": None if b is None else f"d{n}",
             "reason": None if b is None else "why"} for n, (a, b) in enumerate(spans)]


def by_python(spans: list[tuple[int, int | None]], at: int) -> set[str]:
    return {f"v{n}" for n, (a, b) in enumerate(spans) if as_known.believed(a, b, at)}


@pytest.fixture(scope="module")
def connection():
    engine = importlib.import_module(ENGINE)
    database = engine.Database(":memory:")
    yield engine.Connection(database)
    database.close()


def by_cypher(connection, spans: list[tuple[int, int | None]], at: int) -> set[str]:
    query = (f"UNWIND $rows AS f WITH f WHERE {as_known.cypher('f', '$at')} RETURN f.id")
    result = connection.execute(query, {"rows": rows(spans), "at": to_engine(BASE + at * DAY)})
    found = set()
    while result.has_next():
        found.add(result.get_next()[0])
    return found


@settings(max_examples=30, deadline=None)
@given(spans=periods(), at=st.integers(-1, 17))
def test_python_and_the_engine_agree_on_what_was_believed(connection, spans, at):
    assert by_cypher(connection, spans, at) == by_python(spans, at)


@settings(max_examples=30, deadline=None)
@given(spans=periods(), at=st.integers(-1, 17))
def test_a_closing_recorded_later_is_not_yet_known_in_python_and_arrow(spans, at):
    table = pa.Table.from_pylist(rows(spans))
    known = as_known.arrow_closing_as_known(table, BASE + at * DAY)
    for n, (_, b) in enumerate(spans):
        stored = rows(spans)[n]
        closing_known = as_known.closing_known(b, at)
        for name, open_value in as_known.CLOSING.items():
            shown = known[name][n].as_py()
            expected = stored[name] if closing_known else (OPEN_END if name == "superseded_at" else open_value)
            assert shown == expected, (name, n, at)


# -- the engine's queries: the rule written in, never spelled out ---------------------------------

RULE = re.compile(r"(\w+)\.recorded_at <= (\$\w+) AND \1\.superseded_at > \2")


def test_the_stores_queries_say_the_rule_by_name():
    """The store's own queries use {{believed f $at}}; none spells the rule out, so none can drift."""
    root = queries_dir()
    for path in [*(root / "store").glob("*.cypher"), *(root / "recall").glob("*.cypher")]:
        assert not RULE.search(path.read_text()), f"{path.name} spells the as-known rule out: use {{{{believed ...}}}}"
    assert "{{believed f $as_of}}" in (root / "store" / "beliefs_at.cypher").read_text()
    assert as_known.cypher("f", "$as_of") in QUERIES["store/beliefs_at"]


def test_the_named_queries_users_read_spell_the_rule_exactly_as_the_spec_renders_it():
    """The documented queries at the top of queries/ are examples people read, so they spell the rule
    out; each spelling is the rendering itself."""
    found = 0
    for path in Path(queries_dir()).glob("*.cypher"):
        for line in path.read_text().splitlines():
            if "recorded_at <=" in line and "superseded_at" in line:
                match = RULE.search(line)
                assert match and match.group(0) == as_known.cypher(match.group(1), match.group(2)), (path.name, line)
                found += 1
    assert found >= 3


def test_every_fact_column_is_returned_by_name_from_the_declaration():
    from graphmem.core.tables import by_name

    fact = by_name("Fact")
    expanded = expand("RETURN {{fact_columns f b}}")  # from the edge f, or its body b for the columns kept apart
    assert expanded == "RETURN " + ", ".join(f"{'b' if c.name in fact.apart else 'f'}.{c.name} AS `{c.name}`"
                                             for c in fact.columns)
    assert set(fact.apart) == {"episodes", "supersedes", "superseded_by", "created_by", "closed_by", "reason"}
    assert expand("RETURN {{body_columns b}}") == "RETURN " + ", ".join(f"b.{name}" for name in fact.apart)
    assert expand("RETURN {{edge_columns f}}") == "RETURN " + ", ".join(f"f.{c.name}" for c in fact.stored)
    with pytest.raises(ValueError, match="unknown query macro"):
        expand("{{believed f}}")


def test_a_join_hint_is_written_in_only_for_the_engines_that_follow_hints():
    from graphmem.engine.statements import HINTED, QUERIES

    text = "MATCH (s)-[f]->(o) WHERE f.id = $id {{hint (s JOIN f) JOIN o}} RETURN f.id"
    assert expand(text) == "MATCH (s)-[f]->(o) WHERE f.id = $id  RETURN f.id"
    assert expand(text, hints=True) == "MATCH (s)-[f]->(o) WHERE f.id = $id HINT (s JOIN f) JOIN o RETURN f.id"
    assert {"store/history", "store/entity_facts_believed"} <= HINTED.keys()
    for name, hinted in HINTED.items():  # the same statement but for its hints
        assert "HINT" in hinted and "HINT" not in QUERIES[name], name
        assert [line for line in hinted.splitlines() if not line.startswith("HINT ")] == QUERIES[name].splitlines()


def test_a_beliefs_statement_leaves_the_closing_kept_in_the_body_unread():
    """A version believed at T was not closed by T: the beliefs statements leave unread the columns a
    closing sets that the body keeps (the reader fills them in as open), and read every other column."""
    from graphmem.core.tables import by_name
    from graphmem.engine.statements import UNREAD_WHEN_BELIEVED

    fact = by_name("Fact")
    unread = {"superseded_by", "closed_by", "reason"}
    assert set(UNREAD_WHEN_BELIEVED) == set(as_known.CLOSING) & set(fact.apart) == unread
    for name in ("store/beliefs_at", "store/beliefs_all_valid"):
        returned = set(re.findall(r"AS `(\w+)`", QUERIES[name]))
        assert returned == {c.name for c in fact.columns} - set(UNREAD_WHEN_BELIEVED), name


def test_a_belief_closed_later_reads_open_with_its_closing_unread(store):
    """As of a moment before its closing, a version shows no closing; the closing is there later."""
    store.add("Ivan", "lives_in", "Berlin", valid_from="2020-01-01", recorded_at="2026-01-01")
    replaced = store.add("Ivan", "lives_in", "Paris", valid_from="2023-01-01", recorded_at="2026-02-01")
    before = {v.object: v for v in store.beliefs(as_of="2026-01-15", valid_at="all")}["Berlin"]
    assert (before.superseded_at, before.superseded_by, before.closed_by, before.reason) == (None, [], None, None)
    arrow = store.beliefs_arrow(as_of="2026-01-15", valid_at="all").to_pylist()
    assert [(r["superseded_by"], r["closed_by"], r["reason"]) for r in arrow] == [([], None, None)]
    closed = [v for v in store.history("Ivan", "lives_in") if v.object == "Berlin" and v.superseded_at]
    assert closed and closed[0].superseded_by and closed[0].closed_by == replaced.id
