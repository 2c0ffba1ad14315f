"""Store.snapshot fills networkx's dicts itself; the graph is the one networkx builds from the beliefs."""

from __future__ import annotations

import gc

import networkx as nx
import pytest

from graphmem import Store
from graphmem.read import questions
from tests.conftest import ENGINE


def networkx_build(store: Store, as_of: str | None, valid_at: str | None) -> nx.MultiDiGraph:
    """The snapshot built through networkx's public API from ``Store.beliefs`` (the same order):
    the nodes as the edges first name them (subject, then object), each edge keyed by its id with
    every field of its version."""
    versions = store.beliefs(as_of, valid_at)
    kinds = {e.id: e.kind for e in store.entities()}
    graph = nx.MultiDiGraph()
    names = {e: n for v in versions for e, n in ((v.subject_id, v.subject), (v.object_id, v.object))}
    order = dict.fromkeys(e for v in versions for e in (v.subject_id, v.object_id))
    graph.add_nodes_from((e, {"name": names[e], "kind": kinds[e]}) for e in order)
    graph.add_edges_from((v.subject_id, v.object_id, v.id, dict(v)) for v in versions)
    return graph


def assert_same(built: nx.MultiDiGraph, expected: nx.MultiDiGraph) -> None:
    """Equal as networkx shows them (in order too), and made of the same parts."""
    assert type(built) is nx.MultiDiGraph
    assert list(built.nodes(data=True)) == list(expected.nodes(data=True))
    assert list(built.edges(keys=True, data=True)) == list(expected.edges(keys=True, data=True))
    assert list(built.in_edges(keys=True, data=True)) == list(expected.in_edges(keys=True, data=True))
    for node in expected:
        assert list(built.successors(node)) == list(expected.successors(node))
        assert list(built.predecessors(node)) == list(expected.predecessors(node))
    assert built.graph == expected.graph == {}
    assert nx.utils.graphs_equal(built, expected)
    for u, v, key in built.edges(keys=True):
        assert built.succ[u][v][key] is built.pred[v][u][key]  # one attribute dict per edge
        assert list(built.succ[u][v]) == list(built.pred[v][u])
        built.edges[u, v, key]["seen"] = True  # what one end changes, the other sees
        assert built.pred[v][u][key]["seen"]
        del built.edges[u, v, key]["seen"]


@pytest.fixture
def told(store, clock):
    """Several versions: a move (closing Prague), a segment and a later stay in the same city (two
    edges, one pair, one predicate), two predicates and the reverse between one pair, a self loop, a
    correction, a retraction, an end, an entity first named as an object (after other subjects, as
    the rows are ordered), and an episode linked after the time asked about."""
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", quote="Ivan lives in Prague.")
    store.segment("Ivan", "lives_in", "Berlin", valid_from="2017-01-01", valid_to="2018-06-01")
    store.add("Ivan", "knows", "Maya", valid_from="2019-01-01")
    store.add("Ivan", "likes", "Maya", valid_from="2019-05-01")
    store.add("Maya", "knows", "Ivan", valid_from="2019-01-01")
    store.add("Ana", "knows", "Zoe", valid_from="2019-01-01")  # Zoe comes before Ivan, as networkx sees them
    store.add("Ivan", "likes", "Ivan", valid_from="2021-01-01")
    wrong = store.add("Maya", "works_at", "Acme", valid_from="2022-01-01")
    gone = store.add("Maya", "likes", "tea", valid_from="2022-01-01")
    store.set_kind("Maya", "person")
    clock.set("2026-02-01")
    store.add("Ivan", "lives_in", "Berlin", valid_from="2026-01-15")
    store.correct(wrong.created[0], "Globex", reason="misheard")
    store.retract(gone.created[0], reason="never said")
    store.end("Ivan", "likes", "Maya", at="2026-01-20")
    again = store.add_episode("Ivan still knows Maya.", kind="chat")
    clock.set("2026-03-01")
    assert store.add("Ivan", "knows", "Maya", valid_from="2019-01-01", episode=again.id).op == "NOOP"
    clock.set("2026-04-01")
    return store


MOMENTS = [(None, None), (None, "all"), (None, "2018-01-01"), ("2026-01-10", None), ("2026-01-10", "all"),
           ("2026-02-15", "all"), ("2026-02-15", "2026-01-18"), ("2025-01-01", "all")]


@pytest.mark.parametrize(("as_of", "valid_at"), MOMENTS)
def test_the_snapshot_is_the_graph_networkx_builds_from_the_beliefs(told, as_of, valid_at):
    assert_same(told.snapshot(as_of, valid_at), networkx_build(told, as_of, valid_at))


def test_the_story_has_what_the_comparison_is_for(told):
    """Multi-edges of one pair (one predicate and two), a self loop, closings and links not yet known."""
    graph = told.snapshot("2026-02-15", "all")
    assert graph.number_of_edges("ivan", "berlin") == 2
    assert {d["predicate"] for d in graph["ivan"]["maya"].values()} == {"knows", "likes"}
    assert graph.number_of_edges("ivan", "ivan") == 1
    before_the_move = told.snapshot("2026-01-10", "all")
    assert [d["superseded_at"] for d in before_the_move["ivan"]["prague"].values()] == [None]  # closed later
    assert told.version(next(iter(before_the_move["ivan"]["prague"]))).superseded_at is not None
    statuses = {d["status"] for _, _, d in graph.edges(data=True)}
    assert {"current", "ended"} <= statuses
    knows = [d for _, _, d in graph.edges(data=True) if d["predicate"] == "knows" and d["subject"] == "Ivan"]
    assert [len(d["episodes"]) for d in knows] == [0]  # the episode was linked on 2026-03-01
    assert [len(d["episodes"]) for _, _, d in told.snapshot(None, "all").edges(data=True)
            if d["predicate"] == "knows" and d["subject"] == "Ivan"] == [1]


def test_an_empty_store_and_an_empty_moment_give_an_empty_graph(store, told):
    with Store(":memory:", engine=ENGINE) as empty:
        assert_same(empty.snapshot(), nx.MultiDiGraph())
        assert_same(empty.snapshot(valid_at="all"), networkx_build(empty, None, "all"))
    assert_same(told.snapshot("2025-01-01", "all"), nx.MultiDiGraph())


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_it_was(told, monkeypatch, enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        told.snapshot()
        assert gc.isenabled() == enabled

        def broken(*args):
            raise RuntimeError("broken mid-build")

        monkeypatch.setattr(questions, "_fill", broken)
        with pytest.raises(RuntimeError, match="mid-build"):
            told.snapshot()
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_beliefs_come_in_the_order_of_their_texts_however_the_names_compare(store):
    """The answer is sorted by each end's name through its rank among the entities' names: the
    same order as sorting the texts themselves, byte by byte (upper case before lower, accents
    after ASCII, a prefix before its longer name); where the names are equal the predicate, the
    valid start, the other end and the id decide, in that order. The snapshot's edges keep it,
    grouped by subject as networkx groups them."""
    names = ["anna", "Émile", "Zoë", "Zoe", "a", "ab", "a b", "ß", "名前", "Ｚ", "Bo"]
    for i, subject in enumerate(names):
        for j, obj in enumerate(reversed(names)):
            if (i + j) % 3 == 0:
                predicate = ["knows", "likes", "lives_in"][(j // 3) % 3]
                store.add(subject, predicate, obj, valid_from=f"20{10 + (i + j) % 7}-01-01")
    store.add("anna", "knows", "Bo", valid_from="2009-01-01")  # one subject, predicate and object twice
    store.add("anna", "knows", "Bo", valid_from="2001-01-01", valid_to="2002-01-01")
    believed = store.beliefs(valid_at="all")
    assert len(believed) > 30
    expected = sorted(believed, key=lambda v: (v.subject.encode(), v.predicate, v.valid_from, v.object.encode(), v.id))
    assert [v.id for v in believed] == [v.id for v in expected]
    assert store.beliefs_arrow(valid_at="all").column("id").to_pylist() == [v.id for v in expected]
    nodes = list(dict.fromkeys(e for v in expected for e in (v.subject_id, v.object_id)))
    assert [key for _, _, key in store.snapshot(valid_at="all").edges(keys=True)] == [
        v.id for v in sorted(expected, key=lambda v: nodes.index(v.subject_id))]


def test_the_row_dicts_are_made_for_any_number_of_fields_and_only_of_identifiers():
    """A reviewer's: with one field the generated loop kept each value in a 1-tuple."""
    assert questions._dicts_of(("a",))([1, 2]) == [{"a": 1}, {"a": 2}]
    assert questions._dicts_of(("a", "b"))([1, 2], ["x", "y"]) == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]
    for bad in ((), ("a b",), ("x', 1: '",)):
        with pytest.raises(ValueError):
            questions._dicts_of(bad)
