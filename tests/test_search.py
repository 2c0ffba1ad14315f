"""Search: facts matching text as of T, the most recent occurrence first, the same on both engines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import InvalidInput, Store
from graphmem.cli import main
from graphmem.scenario import ScenarioClock, load, play
from graphmem.search import words
from graphmem.timeutil import UTC
from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent


def t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)




def found(hits):
    return [(v.subject, v.predicate, v.object) for v in hits]


# -- what matches ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Lives_in Berlin!", ["lives", "in", "berlin"]),
    ("Xi'an", ["xi", "an"]),
    ("MÜNCHEN straße", ["münchen", "strasse"]),
    ("ﬁne café 2026-04-27", ["fine", "café", "2026", "04", "27"]),
    ("  ...  ", []),
])
def test_words(text, expected):
    assert words(text) == expected


def test_travelled_lists_the_latest_trip_first(design):
    assert found(design.search("travelled")) == [
        ("Lin", "traveled_to", "Hangzhou"), ("Lin", "traveled_to", "Xi'an"),
    ]


def test_every_word_must_match_somewhere_in_the_fact(design):
    assert found(design.search("ivan berlin")) == [("Ivan", "lives_in", "Berlin")]
    assert found(design.search("IVAN lives")) == [
        ("Ivan", "lives_in", "Berlin"), ("Ivan", "lives_in", "Munich"), ("Ivan", "lives_in", "Prague"),
    ]
    assert design.search("ivan apples") == []
    # Words of the supporting episode count: 'since 2020' was said about Prague.
    assert found(design.search("since 2020")) == [("Ivan", "lives_in", "Prague")]
    assert found(design.search("xi'an")) == [("Lin", "traveled_to", "Xi'an")]


def test_current_states_before_ended_ones_most_recent_first(design):
    hits = design.search("lin")
    assert [(v.object, v.status) for v in hits] == [
        ("Shanghai", "current"),
        ("Hangzhou", "ended"),   # happened 2026-04-27
        ("apples", "ended"),     # ended 2025-09-25
        ("Beijing", "ended"),    # ended 2025-06-01
        ("Xi'an", "ended"),      # happened 2024-10-01
    ]


def test_as_of_and_valid_at(design):
    assert found(design.search("Ivan", as_of="2026-10-20")) == [("Ivan", "lives_in", "Prague")]
    assert found(design.search("Ivan", valid_at="2026-10-05")) == [("Ivan", "lives_in", "Munich")]
    assert found(design.search("acme", as_of="2026-05-15")) == [
        ("Acme lead", "status", "cold"), ("Acme lead", "status", "warm"),
    ]
    assert [v.status for v in design.search("Ivan", valid_at="2026-10-05")] == ["current"]


def test_after_and_before_filter_on_valid_time(design):
    assert found(design.search("travelled", after="2025-01-01")) == [("Lin", "traveled_to", "Hangzhou")]
    assert found(design.search("travelled", before="2025-01-01")) == [("Lin", "traveled_to", "Xi'an")]
    assert design.search("travelled", after="2024-11-01", before="2026-04-27") == []
    with pytest.raises(InvalidInput, match="later"):
        design.search("travelled", after="2026-01-01", before="2025-01-01")


def test_nothing_to_search_for(design):
    with pytest.raises(InvalidInput, match="at least one word"):
        design.search(" ?! ")


def test_index_and_scan_agree_on_the_design(design):
    for text in ("lin", "travelled", "ivan lives", "2026", "prague", "acme lead", "i"):
        for valid_at in ("all", None, "2026-10-05"):
            with_index = design.search(text, valid_at=valid_at)
            assert with_index == design.search(text, valid_at=valid_at, use_index=False)


NAME = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(
    lambda s: s.strip() != "")
SAYING = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=60).filter(
    lambda s: s.strip() != "")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(NAME, NAME, SAYING), min_size=1, max_size=5), st.data())
def test_index_and_scan_agree_on_any_text(facts, data):
    with Store(":memory:", engine=ENGINE) as store:
        for i, (subject, obj, saying) in enumerate(facts):
            try:
                store.add(subject, "knows", obj, quote=saying, recorded_at=f"2026-01-{i + 1:02d}")
            except InvalidInput:
                continue
        vocabulary = sorted({w for s, o, q in facts for w in words(f"{s} {o} {q}")}) or ["x"]
        terms = data.draw(st.lists(st.sampled_from(vocabulary) | NAME, min_size=1, max_size=3))
        text = " ".join(terms)
        if not words(text):
            return
        hits = store.search(text)
        assert hits == store.search(text, use_index=False)
        for v in hits:
            said = " ".join(e.text for e in store.episodes(v.episodes))
            assert set(words(text)) <= set(words(f"{v.subject} {v.predicate} {v.object} {said}"))


# -- the CLI ---------------------------------------------------------------------------------------------


def test_cli_search_json(tmp_path):
    directory = tmp_path / "store"
    clock = ScenarioClock(t("2025-01-01"))
    with Store(directory, engine=ENGINE, clock=clock) as store:
        play(store, load("design"), clock)
    runner = CliRunner()
    result = runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, "search", "travelled", "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)
    assert [h["object"] for h in hits] == ["Hangzhou", "Xi'an"]
    assert hits[0]["sources"] == [{"id": "ep9", "kind": "chat", "text": "I travelled to Hangzhou last week."}]
    table = runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, "search", "Hangzhou"])
    assert table.exit_code == 0 and "Hangzhou" in table.output
    empty = runner.invoke(main, ["--store", str(directory), "--engine", ENGINE, "search", "?"])
    assert empty.exit_code == 1 and empty.output.startswith("error: search needs")


# -- both engines give the same answers --------------------------------------------------------------------

AGREEMENT = textwrap.dedent("""
    import json, sys
    from datetime import datetime, timezone
    from graphmem import Store
    from graphmem.output import jsonable
    from graphmem.scenario import ScenarioClock, load, play

    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=timezone.utc))
    store = Store(":memory:", clock=clock)
    play(store, load("design"), clock)
    store.add("Lin", "knows", "Ivan", valid_from="2025-02-01", quote="Lin met Ivan in München, straße 5",
              recorded_at="2026-11-25")
    store.add("Ivan", "knows", "Lin", recorded_at="2026-11-26")
    clock.time = datetime(2026, 11, 30, tzinfo=timezone.utc)
    out = {"engine": store.engine, "search": {}, "named": {}, "cypher": {}}
    for text in ["travelled", "lin", "ivan lives", "2020", "MÜNCHEN", "strasse 5", "acme lost", "nothing"]:
        for as_of in [None, "2026-05-15"]:
            hits = store.search(text, as_of=as_of)
            out["search"][f"{text}|{as_of}"] = [v.model_dump(mode="json") for v in hits]
    params = {"timeline": {"entity": "Ivan"}, "fact_history": {"subject": "Ivan", "predicate": "knows"},
              "changes": {"t1": "2026-01-01", "t2": "2026-11-30"}, "episode_facts": {"episode": "ep12"},
              "connected": {"entity": "Ivan"}}
    for name in [q.name for q in Store.named_queries()]:
        for as_of, valid_at in [(None, None), ("2026-11-10", "2026-10-05"), (None, "all")]:
            try:
                rows = jsonable(list(store.query(name, params.get(name, {}), as_of, valid_at)))
            except Exception as exc:
                rows = type(exc).__name__
            out["named"][f"{name}|{as_of}|{valid_at}"] = rows
    queries = [
        "MATCH (a:Entity)-[f:Fact]->(b:Entity) RETURN a, f, b ORDER BY f.id",
        "MATCH p = (a:Entity {name: 'Lin'})-[:Fact*1..2]-(b:Entity) RETURN p ORDER BY b.id, length(p)",
        "MATCH (a)-[f]->(b) RETURN f.predicate AS p, count(*) AS n, min(f.valid_from) AS first ORDER BY p",
        "MATCH (e:Episode) RETURN e ORDER BY e.id",
    ]
    for query in queries:
        for as_of, valid_at in [(None, None), ("2026-11-10", "2026-10-05"), ("2026-05-15", "all")]:
            out["cypher"][f"{query}|{as_of}|{valid_at}"] = jsonable(list(store.cypher(query, None, as_of, valid_at)))
    json.dump(out, sys.stdout, sort_keys=True)
""")


def answers(engine: str) -> dict:
    env = {**os.environ, "GRAPHMEM_ENGINE": engine}
    result = subprocess.run([sys.executable, "-c", AGREEMENT], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.skipif(ENGINE != "kuzu", reason="compares both engines in subprocesses; runs once, in the kuzu pass")
def test_engines_agree_on_search_named_queries_and_cypher():
    kuzu, ladybug = answers("kuzu"), answers("ladybug")
    assert (kuzu.pop("engine"), ladybug.pop("engine")) == ("kuzu", "ladybug")
    assert kuzu["search"]["travelled|None"] and kuzu["search"]["MÜNCHEN|None"]
    for part in ("search", "named"):
        for key in kuzu[part]:
            assert kuzu[part][key] == ladybug[part][key], (part, key)
    for key in kuzu["cypher"]:  # rows that tie under ORDER BY may come in either order
        assert sorted(map(json.dumps, kuzu["cypher"][key])) == sorted(map(json.dumps, ladybug["cypher"][key])), key
