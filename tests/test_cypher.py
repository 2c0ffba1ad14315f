"""Cypher as of a date: the user's own read-only query over the graph as believed at T, valid at V."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta

import networkx as nx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphmemError, InvalidInput, Store, UnsafeQuery
from graphmem.cli import main
from graphmem.core.as_known import believed as believed_at
from graphmem.core.temporal import Period
from graphmem.core.times import UTC
from graphmem.engine import Engine
from graphmem.query import cypher as cypher_module
from graphmem.query.sandbox import Sandbox, sandbox_for
from tests.conftest import ENGINE

COLLEAGUES_IN = """
MATCH (person:Entity)-[:Fact {predicate: 'works_at'}]->(org:Entity)
      <-[:Fact {predicate: 'works_at'}]-(colleague:Entity)
      -[:Fact {predicate: 'lives_in'}]->(:Entity {name: $city})
WHERE person.id <> colleague.id
RETURN DISTINCT person.name AS person, colleague.name AS colleague, org.name AS org
ORDER BY person, colleague
"""


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def build_team(store: Store) -> None:
    """Who works where and lives where, learned from January to April 2026 (docs/query.md)."""
    store.add("Ann", "works_at", "Acme", valid_from="2025-01-01", recorded_at="2026-01-05")
    store.add("Bob", "works_at", "Acme", valid_from="2025-06-01", recorded_at="2026-01-05T00:01")
    store.add("Bob", "lives_in", "Berlin", valid_from="2024-01-01", recorded_at="2026-01-06")
    store.add("Cleo", "works_at", "Globex", valid_from="2025-02-01", recorded_at="2026-02-01")
    store.add("Dan", "works_at", "Globex", valid_from="2025-03-01", recorded_at="2026-02-02")
    store.add("Cleo", "lives_in", "Munich", valid_from="2023-05-01", recorded_at="2026-02-03")
    store.add("Cleo", "lives_in", "Berlin", valid_from="2026-01-15", recorded_at="2026-04-02")
    bob_berlin = next(v for v in store.beliefs() if (v.subject, v.object) == ("Bob", "Berlin"))
    store.correct(bob_berlin.id, "Hamburg", reason="misheard: Hamburg", recorded_at="2026-04-10")


@pytest.fixture
def team(store, clock):
    build_team(store)
    clock.set("2026-05-01")
    return store


def pairs(rows):
    return [(r["person"], r["colleague"], r["org"]) for r in rows]


# -- the multi-hop as-of question --------------------------------------------------------------


def test_who_worked_with_someone_in_berlin_as_believed_in_march(team):
    march = team.cypher(COLLEAGUES_IN, {"city": "Berlin"}, as_of="2026-03-15")
    assert pairs(march) == [("Ann", "Bob", "Acme")]
    # What we believe now about mid-March: Bob lived in Hamburg; Cleo had moved to Berlin.
    now = team.cypher(COLLEAGUES_IN, {"city": "Berlin"}, valid_at="2026-03-15")
    assert pairs(now) == [("Dan", "Cleo", "Globex")]
    assert march.columns == ["person", "colleague", "org"]


def test_as_of_answer_never_changes_after_later_writes(team, clock):
    before = team.cypher(COLLEAGUES_IN, {"city": "Berlin"}, as_of="2026-03-15", valid_at="all")
    team.add("Ann", "lives_in", "Berlin", valid_from="2020-01-01", recorded_at="2026-05-02")
    team.end("Bob", "works_at", "Acme", at="2026-01-01", recorded_at="2026-05-03")
    after = team.cypher(COLLEAGUES_IN, {"city": "Berlin"}, as_of="2026-03-15", valid_at="all")
    assert list(after) == list(before)


def test_variable_length_paths_see_only_the_snapshot(team):
    query = ("MATCH (a:Entity {name: 'Ann'})-[:Fact*1..3]-(b:Entity) "
             "RETURN DISTINCT b.name AS name ORDER BY name")
    march = [r["name"] for r in team.cypher(query, as_of="2026-03-15", valid_at="all")]
    now = [r["name"] for r in team.cypher(query, valid_at="all")]
    assert march == ["Acme", "Ann", "Berlin", "Bob"]
    assert now == ["Acme", "Ann", "Bob", "Hamburg"]


def test_aggregation(team):
    query = ("MATCH (p:Entity)-[f:Fact]->(o:Entity) RETURN f.predicate AS predicate, count(*) AS n "
             "ORDER BY predicate")
    rows = team.cypher(query, valid_at="all")
    assert [(r["predicate"], r["n"]) for r in rows] == [("lives_in", 3), ("works_at", 4)]


# -- values ---------------------------------------------------------------------------------------


def test_values_are_normalised_alike_on_both_engines(team):
    rows = team.cypher("MATCH p = (a:Entity {name: 'Bob'})-[f:Fact]->(b:Entity) "
                        "RETURN a, f, p, f.valid_from AS since, f.valid_to AS until "
                        "ORDER BY f.predicate", as_of="2026-03-15")
    lives, works = rows
    assert lives["a"] == {"_label": "Entity", "id": "bob", "name": "Bob", "kind": "entity"}
    fact = lives["f"]
    assert fact["_label"] == "Fact" and (fact["_src"], fact["_dst"]) == ("bob", "berlin")
    assert fact["valid_from"] == t("2024-01-01") and fact["valid_to"] is None
    # As believed in March: its transaction period was still open, though it was corrected since.
    assert fact["superseded_at"] is None and fact["superseded_by"] == [] and fact["reason"] is None
    assert not any(key.lower() in ("_id", "_src_id") for key in fact)
    assert lives["p"]["_nodes"][1]["name"] == "Berlin" and lives["p"]["_rels"] == [fact]
    assert lives["since"] == t("2024-01-01") and lives["since"].tzinfo is not None
    assert lives["until"] is None and works["f"]["predicate"] == "works_at"


def test_unlabelled_nodes_keep_only_their_own_properties(store):
    store.add("Ann", "likes", "tea", quote="Ann likes tea.", recorded_at="2026-01-02")
    rows = store.cypher("MATCH (n) RETURN n ORDER BY n.id")
    labels = Counter(r["n"]["_label"] for r in rows)
    assert labels == {"Entity": 2, "Episode": 1}
    episode = next(r["n"] for r in rows if r["n"]["_label"] == "Episode")
    assert set(episode) == {"_label", "id", "kind", "text", "actor", "reference_time", "received_at"}
    entity = next(r["n"] for r in rows if r["n"]["_label"] == "Entity")
    assert set(entity) == {"_label", "id", "name", "kind"}


def test_open_ends_are_null_inside_the_query(team):
    rows = team.cypher("MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.valid_to IS NULL "
                        "RETURN a.name AS who, b.name AS what ORDER BY who, what")
    assert [(r["who"], r["what"]) for r in rows] == [
        ("Ann", "Acme"), ("Bob", "Acme"), ("Bob", "Hamburg"), ("Cleo", "Berlin"), ("Cleo", "Globex"),
        ("Dan", "Globex"),
    ]


def test_episodes_are_those_received_by_as_of(store):
    store.add("Ann", "likes", "tea", quote="Ann likes tea.", recorded_at="2026-01-02")
    store.add("Ann", "likes", "tea", quote="Ann really likes tea.", recorded_at="2026-01-03")
    query = "MATCH ()-[f:Fact]->() RETURN f.episodes AS episodes"
    assert [r["episodes"] for r in store.cypher(query, as_of="2026-01-02T12:00")] == [["ep1"]]
    assert [r["episodes"] for r in store.cypher(query)] == [["ep1", "ep2"]]
    texts = "MATCH (e:Episode) RETURN e.text AS text ORDER BY text"
    assert [r["text"] for r in store.cypher(texts, as_of="2026-01-02T12:00")] == ["Ann likes tea."]


def test_nothing_believed_gives_empty_graph(store):
    assert list(store.cypher("MATCH (n) RETURN n")) == []
    store.add("Ann", "likes", "tea", recorded_at="2026-01-02")
    assert list(store.cypher("MATCH (n) RETURN count(n) AS n", as_of="2026-01-01")) == [{"n": 0}]


# -- parameters -------------------------------------------------------------------------------------


def test_values_go_in_only_as_parameters(store):
    store.add("O'Brien \"the\" {x}", "lives_in", "Cork", recorded_at="2026-01-02")
    rows = store.cypher("MATCH (a:Entity {name: $name})-[f:Fact]->(b) RETURN b.name AS city",
                  {"name": "O'Brien \"the\" {x}"})
    assert [r["city"] for r in rows] == ["Cork"]


def test_missing_and_unused_parameters_are_refused(store):
    with pytest.raises(InvalidInput, match=r"\$city"):
        store.cypher("MATCH (a:Entity {name: $city}) RETURN a")
    with pytest.raises(InvalidInput, match="not used"):
        store.cypher("MATCH (a:Entity) RETURN a", {"city": "x"})
    # A '$' inside a string is text, not a parameter.
    assert list(store.cypher("RETURN '$city' AS x")) == [{"x": "$city"}]


def test_as_of_and_valid_at_parameters_are_bound(team):
    rows = team.cypher("RETURN $as_of AS t, $valid_at AS v", as_of="2026-03-15", valid_at="2026-01-01")
    assert list(rows) == [{"t": t("2026-03-15"), "v": t("2026-01-01")}]


def test_time_parameters_bind_in_utc(clock):
    with Store(":memory:", engine=ENGINE, clock=clock, timezone="Europe/Berlin") as store:
        store.add("Ann", "visited", "Rome", valid_from="2026-01-01T12:00", recorded_at="2026-01-02")
        query = "MATCH ()-[f:Fact]->() WHERE f.valid_from = $at RETURN f.id AS id"
        assert len(store.cypher(query, {"at": datetime(2026, 1, 1, 11, tzinfo=UTC)}, valid_at="all")) == 1
        # A naive time is read in the store's zone, like every other time.
        assert len(store.cypher(query, {"at": datetime(2026, 1, 1, 12)}, valid_at="all")) == 1


# -- read-only and safe ------------------------------------------------------------------------------

REFUSED = [
    "CREATE (:Entity {id: 'x', name: 'x', kind: 'entity'})",
    "MATCH (n:Entity) SET n.name = 'x'",
    "MATCH (n:Entity) DETACH DELETE n",
    "MERGE (n:Entity {id: 'x'})",
    "MATCH (n:Entity) REMOVE n.name",
    "DROP TABLE Fact",
    "ALTER TABLE Entity ADD age INT64",
    "COPY Entity FROM '/tmp/entities.csv'",
    "COPY (MATCH (n:Entity) RETURN n.name) TO '/tmp/out.csv'",
    "LOAD FROM '/etc/passwd' RETURN *",
    "LOAD EXTENSION json",
    "INSTALL json",
    "ATTACH '/tmp/other' AS o (dbtype kuzu)",
    "EXPORT DATABASE '/tmp/dump'",
    "IMPORT DATABASE '/tmp/dump'",
    "BEGIN TRANSACTION",
    "CHECKPOINT",
    "CALL clear_warnings()",
    "MATCH (n) RETURN n; MATCH (m) DELETE m",
    "MATCH (n) RETURN n UNION ALL CREATE (m:Entity {id: 'u'})",
    "RETURN nextval('s')",
]


@pytest.mark.parametrize("query", REFUSED)
def test_unsafe_queries_never_reach_the_engine(team, monkeypatch, query):
    calls = []
    original = Engine.run_text
    monkeypatch.setattr(Engine, "run_text", lambda self, *a, **k: calls.append(a) or original(self, *a, **k))
    monkeypatch.setattr(Sandbox, "run", lambda *a, **k: calls.append(a))
    with pytest.raises(UnsafeQuery, match="^refused: "):
        team.cypher(query, as_of="2026-03-15")
    assert calls == []


def test_a_refused_query_leaves_the_store_unchanged(team):
    before = [v.model_dump() for v in team.versions()]
    with pytest.raises(UnsafeQuery):
        team.cypher("MATCH (n:Entity) DETACH DELETE n")
    assert [v.model_dump() for v in team.versions()] == before


def test_a_query_cannot_change_the_projection_either(team):
    # Even the projection is never written: the guard runs before every query.
    with pytest.raises(UnsafeQuery):
        team.cypher("MATCH (n:Entity) SET n.name = 'x' RETURN n")
    names = [r["n"] for r in team.cypher("MATCH (e:Entity) RETURN e.name AS n ORDER BY n")]
    assert "x" not in names


# -- the projection cache ----------------------------------------------------------------------------


def snapshot_of(store, as_of, valid_at):
    """The store's cached snapshot at a moment, as its queries get it."""
    with store._db.lock:
        return cypher_module.snapshot_at(store._shared.snapshots, store._db, as_of, valid_at, store.latest_write())


def test_snapshots_are_shared_and_dropped_after_a_write(team, clock):
    first = snapshot_of(team, t("2026-03-15"), t("2026-03-15"))
    assert snapshot_of(team, t("2026-03-16"), t("2026-03-16")) is first  # same beliefs
    team.cypher("MATCH (n) RETURN count(n) AS n", as_of="2026-03-15")  # a worker loads its projection
    projection = first.projection()
    workers = sandbox_for(team.engine)._every
    assert any(projection.id in w.loaded for w in workers)
    team.add("Eve", "works_at", "Acme", recorded_at="2026-05-02")
    second = snapshot_of(team, t("2026-03-15"), t("2026-03-15"))
    assert second is not first and first._projection is None
    assert not any(projection.id in w.loaded for w in workers)  # no worker keeps a copy
    team._shared.snapshots.clear()
    assert snapshot_of(team, t("2026-03-15"), t("2026-03-15")) is not second


def test_a_moment_asked_again_reads_nothing(team, monkeypatch):
    calls = []
    fetch = cypher_module._fetch
    monkeypatch.setattr(cypher_module, "_fetch", lambda *a: calls.append(a[1:3]) or fetch(*a))
    for _ in range(3):
        team.cypher("MATCH (n) RETURN count(n) AS n", as_of="2026-03-15")
    # Any time after the latest write believes the same: one fetch serves them all.
    for as_of in ("2026-06-01", "2027-01-01", None):
        team.cypher("MATCH (n) RETURN count(n) AS n", as_of=as_of, valid_at="all")
    assert len(calls) == 2


def test_a_purged_fact_is_gone_from_the_next_answer(team):
    query = "MATCH (a:Entity {name: 'Dan'})-[f:Fact]->(b) RETURN b.name AS b"
    assert [r["b"] for r in team.cypher(query, as_of="2026-03-15")] == ["Globex"]
    team.purge("entity", "Dan")
    assert list(team.cypher(query, as_of="2026-03-15")) == []


# -- the CLI ------------------------------------------------------------------------------------------


@pytest.fixture
def team_dir(tmp_path, clock):
    directory = tmp_path / "team"
    with Store(directory, engine=ENGINE, clock=clock) as store:
        build_team(store)
    return directory


def run(directory, *args):
    return CliRunner().invoke(main, ["--store", str(directory), "--engine", ENGINE, *args])


def test_cli_cypher_json_csv_and_table(team_dir):
    args = ["cypher", COLLEAGUES_IN, "--param", "city=Berlin", "--as-of", "2026-03-15"]
    result = run(team_dir, *args, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"person": "Ann", "colleague": "Bob", "org": "Acme"}]
    result = run(team_dir, *args, "--csv")
    assert result.output.splitlines() == ["person,colleague,org", "Ann,Bob,Acme"]
    result = run(team_dir, *args)
    assert result.exit_code == 0 and "Ann" in result.output and "Bob" in result.output


def test_cli_cypher_times_and_typed_parameters(team_dir):
    query = ("MATCH (a:Entity)-[f:Fact]->(b:Entity) WHERE f.valid_from >= $since_at "
             "RETURN a.name AS a, f.valid_from AS since ORDER BY since LIMIT $n")
    result = run(team_dir, "cypher", query, "--param", "since_at=2025-03-01", "--param", "n:int=1",
                 "--valid-at", "all", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"a": "Dan", "since": "2025-03-01T00:00:00Z"}]


def test_cli_refuses_unsafe_queries_with_one_line(team_dir):
    result = run(team_dir, "cypher", "MATCH (n) DETACH DELETE n")
    assert result.exit_code == 1
    assert result.output.startswith("error: refused: ") and len(result.output.splitlines()) == 1
    assert "Traceback" not in result.output


def test_cli_bad_parameter_is_one_line(team_dir):
    result = run(team_dir, "cypher", "RETURN $x AS x", "--param", "x")
    assert result.exit_code == 1 and result.output.startswith("error: --param takes NAME=VALUE")


# -- the property: the query over the projection equals the query over the snapshot ------------------

BASE = datetime(2026, 1, 1, tzinfo=UTC)
KINDS = {"lives_in": "one", "knows": "many", "met": "event"}
NAMES = ["ann", "bob", "cat", "dan"]
DAYS = st.integers(0, 20)

write = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(NAMES), st.sampled_from(sorted(KINDS)),
              st.sampled_from(NAMES), DAYS, st.none() | st.integers(1, 10)),
    st.tuples(st.just("end"), st.sampled_from(NAMES), st.sampled_from(sorted(KINDS)), DAYS),
    st.tuples(st.just("retract"), st.integers(0, 30)),
)

TEMPLATES = {
    "edges": "MATCH (a:Entity)-[f:Fact]->(b:Entity) RETURN a.id AS a, f.id AS f, f.predicate AS p, b.id AS b",
    "two_hops": ("MATCH (a:Entity)-[f:Fact]->(b:Entity)-[g:Fact]->(c:Entity) "
                 "RETURN a.id AS a, f.id AS f, b.id AS b, g.id AS g, c.id AS c"),
    "reach": "MATCH (a:Entity {id: $start})-[:Fact*1..3]->(b:Entity) RETURN DISTINCT b.id AS b",
    "walks": "MATCH (a:Entity {id: $start})-[:Fact*1..3]->(b:Entity) RETURN count(*) AS n",
    "per_predicate": ("MATCH (a:Entity)-[f:Fact]->(b:Entity) RETURN f.predicate AS p, count(*) AS n, "
                      "min(f.valid_from) AS first"),
    "nodes": "MATCH (e:Entity) RETURN e.id AS e",
    "open": "MATCH ()-[f:Fact]->() WHERE f.valid_to IS NULL RETURN f.id AS f",
}


def reference_graph(store: Store, as_of: datetime, valid_at: datetime | None) -> nx.MultiDiGraph:
    """The snapshot computed independently: every version ever written, filtered in Python."""
    graph = nx.MultiDiGraph()
    for v in store.versions():
        if not believed_at(v.recorded_at, v.superseded_at, as_of):
            continue
        if valid_at is not None and not Period(v.valid_from, v.valid_to).contains(valid_at):
            continue
        graph.add_edge(v.subject_id, v.object_id, key=v.id, **v.model_dump())
    return graph


def walks(graph: nx.MultiDiGraph, start: str, most: int) -> tuple[set[str], int]:
    """The nodes reachable in 1..most steps, and the number of such walks."""
    ends, count, frontier = set(), 0, Counter({start: 1})
    for _ in range(most):
        step = Counter()
        for node, n in frontier.items():
            if node in graph:
                for _, target, _ in graph.out_edges(node, keys=True):
                    step[target] += n
        ends |= set(step)
        count += sum(step.values())
        frontier = step
    return ends, count


def expected(name: str, graph: nx.MultiDiGraph, start: str):
    edges = list(graph.edges(keys=True, data=True))
    if name == "edges":
        return Counter((a, k, d["predicate"], b) for a, b, k, d in edges)
    if name == "two_hops":
        return Counter((a, f, b, g, c) for a, b, f, _ in edges for _, c, g in graph.out_edges(b, keys=True))
    if name == "reach":
        return Counter((b,) for b in walks(graph, start, 3)[0])
    if name == "walks":
        return Counter([(walks(graph, start, 3)[1],)])
    if name == "per_predicate":
        groups = {}
        for _, _, _, d in edges:
            n, first = groups.get(d["predicate"], (0, d["valid_from"]))
            groups[d["predicate"]] = (n + 1, min(first, d["valid_from"]))
        return Counter((p, n, first) for p, (n, first) in groups.items())
    if name == "nodes":
        return Counter((n,) for n in graph.nodes)
    return Counter((k,) for _, _, k, d in edges if d["valid_to"] is None)


def apply(store: Store, op, at: datetime) -> None:
    try:
        if op[0] == "add":
            _, s, p, o, start, length = op
            store.add(s, p, o, valid_from=BASE + timedelta(days=start),
                      valid_to=None if length is None else BASE + timedelta(days=start + length),
                      recorded_at=at)
        elif op[0] == "end":
            store.end(op[1], op[2], at=BASE + timedelta(days=op[3]), recorded_at=at)
        else:
            believed = sorted(store.beliefs(as_of=at, valid_at="all"), key=lambda v: int(v.id[1:]))
            if believed:
                store.retract(believed[op[1] % len(believed)].id, reason="wrong", recorded_at=at)
    except GraphmemError:
        pass


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(write, min_size=1, max_size=10), st.integers(0, 11), st.none() | DAYS, st.sampled_from(NAMES))
def test_cypher_equals_the_query_over_the_snapshot(ops, moment, valid_day, start):
    with Store(":memory:", engine=ENGINE) as store:
        for name, kind in KINDS.items():
            store.declare(name, kind)
        for i, op in enumerate(ops):
            apply(store, op, BASE + timedelta(days=40, hours=i + 1))
        as_of = BASE + timedelta(days=40, hours=moment, minutes=30)
        valid_at = None if valid_day is None else BASE + timedelta(days=valid_day)
        graph = reference_graph(store, as_of, valid_at)
        snapshot = store.snapshot(as_of, "all" if valid_at is None else valid_at)
        assert set(snapshot.edges(keys=True)) == set(graph.edges(keys=True))
        for name, query in TEMPLATES.items():
            params = {"start": start} if "$start" in query else {}
            rows = store.cypher(query, params, as_of=as_of, valid_at="all" if valid_at is None else valid_at)
            got = Counter(tuple(row.values()) for row in rows)
            assert got == expected(name, graph, start), name


def test_store_methods_delegate(team):
    if not all(hasattr(Store, name) for name in ("cypher", "query", "search")):
        pytest.skip("Store.cypher/query/search are not in store.py yet (the lead pastes them)")
    assert team.cypher(COLLEAGUES_IN, {"city": "Berlin"}, as_of="2026-03-15") == [
        {"person": "Ann", "colleague": "Bob", "org": "Acme"}]
    assert [r["object"] for r in team.query("fact_history", {"subject": "Bob", "predicate": "lives_in"})] == [
        "Hamburg", "Berlin"]
    assert [h.version.object for h in team.search("where does bob live", limit=1, messages=False)] == ["Hamburg"]


def test_a_query_that_would_crash_the_engine_is_refused_or_runs(store):
    from graphmem.errors import UnsafeQuery

    store.add("Ana", "likes", "tea")
    store.add("Ana", "likes", "jazz")
    query = "MATCH (a)-[f]->(b) RETURN a.name AS who, count(DISTINCT b.name) AS n, collect(f.id) AS ids"
    if store.engine == "kuzu":  # kuzu 0.11.3 aborts the process on it: the guard must stop it
        with pytest.raises(UnsafeQuery):
            store.cypher(query)
    else:
        (row,) = store.cypher(query)
        assert row["who"] == "Ana" and row["n"] == 2 and len(row["ids"]) == 2
    assert store.cypher("MATCH (a)-[f]->(b) RETURN count(*) AS n") == [{"n": 2}]
