"""Named queries: documented Cypher in queries/NAME.cypher, run by name with parameters."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from click.testing import CliRunner

from graphmem import EngineError, InvalidInput, NotFound, Store
from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.engine.statements import queries_dir
from graphmem.query.guard import ensure_read_only
from graphmem.query.named_queries import AUTOMATIC, TYPES, named_queries
from graphmem.scenario import ScenarioClock, load, play
from tests.conftest import ENGINE

REQUIRED = {"snapshot", "timeline", "fact_history", "changes", "episode_facts", "most_changed", "connected"}
EXAMPLES = {
    "snapshot": {},
    "timeline": {"entity": "Ivan"},
    "fact_history": {"subject": "Ivan", "predicate": "lives_in"},
    "changes": {"t1": "2026-10-31", "t2": "2026-11-30"},
    "episode_facts": {"episode": "ep11"},
    "most_changed": {"limit": "2"},
    "connected": {"entity": "Lin"},
}


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)




# -- the files themselves ----------------------------------------------------------------------------


def test_the_required_queries_exist_documented_and_read_only():
    known = named_queries()
    assert REQUIRED <= set(known)
    for query in known.values():
        assert query.description and query.description[0].isupper()
        assert all(p.type in TYPES and p.meaning for p in query.params)
        assert ensure_read_only(query.text)
        assert set(EXAMPLES.get(query.name, {})) <= {p.name for p in query.params}


def test_only_top_level_files_are_named_queries():
    top = {p.stem for p in queries_dir().glob("*.cypher")}
    assert set(named_queries()) == top
    assert not any(name.startswith(("store/", "schema/")) for name in named_queries())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_query_runs_on_the_design_scenario(design, name):
    rows = design.query(name, EXAMPLES[name])
    assert rows and all(set(row) == set(rows.columns) for row in rows)
    for row in rows:
        for value in row.values():
            assert not (isinstance(value, datetime) and (value.tzinfo is None or value.year == 9999))


# -- what they answer ----------------------------------------------------------------------------------


def test_snapshot_matches_beliefs(design):
    for as_of, valid_at in ((None, None), ("2026-10-20", None), ("2026-11-10", "2026-10-05"), (None, "all")):
        rows = design.query("snapshot", as_of=as_of, valid_at=valid_at)
        beliefs = design.beliefs(as_of=as_of, valid_at=valid_at)
        assert sorted(r["id"] for r in rows) == sorted(v.id for v in beliefs)
        assert {r["id"]: r["status"] for r in rows} == {v.id: v.status for v in beliefs}


def test_fact_history_matches_history(design):
    rows = design.query("fact_history", {"subject": "ivan", "predicate": "lives_in"})
    history = design.history("Ivan", "lives_in")
    assert [(r["id"], r["status"], r["superseded_at"]) for r in rows] == [
        (v.id, v.status, v.superseded_at) for v in history
    ]
    assert rows[0]["sources"] == ["chat: From October 1 to 14 I was in Munich, not Prague."]


def test_fact_history_as_of_shows_what_was_known_then(design):
    rows = design.query("fact_history", {"subject": "Acme lead", "predicate": "status"},
                     as_of="2026-05-15")
    assert [(r["object"], r["status"]) for r in rows] == [
        ("cold", "current"), ("warm", "ended"), ("warm", "superseded"),
    ]
    # The retraction of 'cold' came on 2026-06-01: as of May it is open, with no reason yet.
    assert rows[0]["superseded_at"] is None and rows[0]["reason"] is None
    later = design.query("fact_history", {"subject": "Acme lead", "predicate": "status"})
    cold = next(r for r in later if r["object"] == "cold")
    assert cold["status"] == "retracted" and cold["reason"] == "typing mistake for lost"


def test_fact_history_without_sources(store):
    store.add("Bob", "lives_in", "Berlin", recorded_at="2026-01-02")
    rows = store.query("fact_history", {"subject": "Bob", "predicate": "lives_in"})
    assert [(r["object"], r["sources"]) for r in rows] == [("Berlin", [])]


def test_timeline_matches_timeline(design):
    for as_of in (None, "2026-11-10"):
        rows = design.query("timeline", {"entity": "Ivan"}, as_of=as_of)
        assert [r["id"] for r in rows] == [v.id for v in design.timeline("Ivan", as_of=as_of)]


def test_changes_match_diff(design):
    rows = design.query("changes", {"t1": "2026-10-31", "t2": "2026-11-30"})
    diff = design.diff("2026-10-31", "2026-11-30")
    assert [(r["believed"], r["id"]) for r in rows] == [(c.believed, c.version.id) for c in diff]


def test_episode_facts_match_versions_of(design):
    rows = design.query("episode_facts", {"episode": "ep6"})
    assert sorted(r["id"] for r in rows) == sorted(v.id for v in design.versions_of("ep6"))
    assert {r["episode_text"] for r in rows} == {"Ivan has lived in Prague since 2020."}
    assert list(design.query("episode_facts", {"episode": "ep6"}, as_of="2026-01-01")) == []


def test_most_changed(design):
    rows = design.query("most_changed")
    assert [(r["subject"], r["predicate"], r["versions"]) for r in rows[:2]] == [
        ("Ivan", "lives_in", 5), ("Acme lead", "status", 4),
    ]
    assert rows[0]["last_written"] == t("2026-11-20T09:00:00.000001") and rows[0]["values"] == 3
    assert len(design.query("most_changed", {"limit": "1"})) == 1


def test_connected_at_a_date(design):
    rows = design.query("connected", {"entity": "Ivan"}, valid_at="2026-10-05")
    assert [(r["other"], r["direction"]) for r in rows] == [("Munich", "out")]
    rows = design.query("connected", {"entity": "Ivan"}, as_of="2026-11-10", valid_at="2026-10-05")
    assert [r["other"] for r in rows] == ["Prague"]
    rows = design.query("connected", {"entity": "Prague"}, valid_at="all")
    assert {(r["other"], r["direction"]) for r in rows} == {("Ivan", "in")}


# -- parameters -----------------------------------------------------------------------------------------


def test_parameter_errors(design):
    with pytest.raises(InvalidInput, match="needs --param entity"):
        design.query("timeline")
    with pytest.raises(InvalidInput, match="takes no parameter 'who'"):
        design.query("timeline", {"entity": "Ivan", "who": "x"})
    with pytest.raises(NotFound, match="no entity"):
        design.query("timeline", {"entity": "Nobody"})
    with pytest.raises(InvalidInput, match="whole number"):
        design.query("most_changed", {"limit": "many"})
    with pytest.raises(InvalidInput, match="cannot read"):
        design.query("changes", {"t1": "yesterday-ish", "t2": "now"})
    with pytest.raises(NotFound, match="known: changes"):
        design.query("nope")


def test_names_accept_dashes(design):
    assert design.query("most-changed") == design.query("most_changed")


def test_automatic_parameters_are_not_declared():
    for query in named_queries().values():
        assert not AUTOMATIC & {p.name for p in query.params}


def test_engine_failure_is_an_engine_error(design, monkeypatch):
    from graphmem.query import named_queries as named

    broken = named.find("snapshot").__class__("snapshot", "x", (), "MATCH (n:Nope) RETURN n")
    monkeypatch.setattr(named, "find", lambda name: broken)
    with pytest.raises(EngineError, match="the query failed"):
        design.query("snapshot")


# -- the CLI -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def design_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("design") / "store"
    clock = ScenarioClock(t("2025-01-01"))
    with Store(directory, engine=ENGINE, clock=clock) as store:
        play(store, load("design"), clock)
    return directory


def run(directory, *args):
    return CliRunner().invoke(main, ["--store", str(directory), "--engine", ENGINE, *args])


def test_cli_list(design_dir):
    result = run(design_dir, "query", "--list")
    assert result.exit_code == 0
    for name in REQUIRED:
        assert name in result.output
    assert "--param entity=" in result.output
    listed = json.loads(run(design_dir, "query", "--list", "--json").output)
    assert {q["name"] for q in listed} >= REQUIRED


def test_cli_runs_a_named_query(design_dir):
    result = run(design_dir, "query", "fact-history", "--param", "subject=Ivan", "--param",
                 "predicate=lives_in", "--as-of", "2026-11-10", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [(r["object"], r["status"]) for r in rows] == [
        ("Berlin", "current"), ("Prague", "ended"), ("Prague", "superseded"),
    ]
    assert rows[0]["valid_to"] is None and rows[0]["valid_from"] == "2026-10-15T00:00:00Z"
    table = run(design_dir, "query", "timeline", "--param", "entity=Ivan")
    assert table.exit_code == 0 and "Berlin" in table.output


def test_cli_errors_are_one_line(design_dir):
    result = run(design_dir, "query", "timeline")
    assert result.exit_code == 1 and result.output.startswith("error: timeline needs --param entity")
    result = run(design_dir, "query", "timeline", "--param", "entity:entity=Ivan")
    assert result.exit_code == 1 and "declare their parameters' types" in result.output
