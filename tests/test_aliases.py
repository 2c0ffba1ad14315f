"""Who is who: aliases are facts with their own history, and every read treats one entity's names as one."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import Conflict, InvalidInput, Store
from graphmem.cli import main
from graphmem.core.aliases import ALIAS, alias_groups
from graphmem.mcp.tools import Tools
from tests.conftest import ENGINE, Clock
from tests.test_purge import files_holding


def told(versions) -> list[tuple[str, str, str]]:
    """Versions as (stated subject, predicate, stated object), sorted."""
    return sorted((v.subject, v.predicate, v.object) for v in versions)


def two_names(store: Store) -> None:
    """Melanie's home and Mel's job, said apart; then "Mel is Melanie" (Mar 1), retracted (Apr 1)."""
    store.add("Melanie", "lives_in", "Paris", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Mel", "works_at", "Acme", valid_from="2024-02-01", recorded_at="2024-02-02")
    store.add("Maya", "knows", "Mel", valid_from="2024-02-01", recorded_at="2024-02-03")
    store.alias("Mel", "Melanie", quote="mel is short for melanie", recorded_at="2024-03-01")


def test_an_alias_joins_the_names_from_when_it_was_believed_until_it_is_retracted(store):
    two_names(store)
    before, during = "2024-02-15", "2024-03-15"
    assert told(store.timeline("Mel", as_of=before)) == [("Maya", "knows", "Mel"), ("Mel", "works_at", "Acme")]
    assert told(store.timeline("Mel", as_of=during)) == [
        ("Maya", "knows", "Mel"), ("Mel", "alias_of", "Melanie"), ("Mel", "works_at", "Acme"),
        ("Melanie", "lives_in", "Paris")]
    assert told(store.beliefs(as_of=during, valid_at="all", about="Melanie")) == told(
        store.timeline("Melanie", as_of=during))
    assert [e.name for e in store.names_of("Mel", as_of=during)] == ["Melanie", "Mel"]  # seen first leads
    assert [e.name for e in store.names_of("Mel", as_of=before)] == ["Mel"]
    assert [v.object for v in store.history("Mel", "lives_in")] == ["Paris"]

    [alias] = [v for v in store.timeline("Mel") if v.predicate == ALIAS]
    store.retract(alias.id, reason="another Mel", recorded_at="2024-04-01")
    assert told(store.timeline("Mel")) == [("Maya", "knows", "Mel"), ("Mel", "works_at", "Acme")]
    assert store.history("Mel", "lives_in") == []
    assert store.aliases() == []
    # the past does not change: as of March the two were one, and the alias is still there
    assert [e.name for e in store.names_of("Mel", as_of=during)] == ["Melanie", "Mel"]
    [group] = store.aliases(as_of=during)
    assert (group.name, [e.name for e in group.entities], [v.id for v in group.versions]) == (
        "Melanie", ["Melanie", "Mel"], [alias.id])


def test_why_answers_under_the_names_believed_at_each_of_its_two_times(store):
    """A second trial's find: `why Nads works_at` said "nothing" where Nadia, Nads's other name, worked. Each of
    the two answers reads the names believed at its own time: before the alias Mel's job only, after it
    Melanie's home too; retracted, the later answer is Mel's alone again."""
    two_names(store)
    answer = store.why("Mel", "lives_in", valid_at="2024-02-15", as_of="2024-02-15", vs="2024-03-15")
    assert ([v.object for v in answer.before], [v.object for v in answer.after]) == ([], ["Paris"])
    [alias_write] = answer.decisions  # the write that changed the answer: the alias, not a lives_in
    assert [v.predicate for v in store.versions() if v.id in alias_write.created] == [ALIAS]
    assert [v.object for v in store.why("Melanie", "works_at", valid_at="2024-03-15", as_of="2024-03-15",
                                        vs="2024-03-16").after] == ["Acme"]
    [alias] = [v for v in store.timeline("Mel") if v.predicate == ALIAS]
    store.retract(alias.id, reason="another Mel", recorded_at="2024-04-01")
    answer = store.why("Mel", "lives_in", valid_at="2024-03-15", as_of="2024-03-15", vs="2024-04-15")
    assert ([v.object for v in answer.before], answer.after) == (["Paris"], [])


def test_why_reads_the_names_valid_at_its_valid_time(store):
    """A reviewer's: an alias ended in the world (valid until 2025) still joined the names after its end."""
    store.add("Nadia", "lives_in", "Oslo", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Nads", "lives_in", "Bergen", valid_from="2024-01-01", recorded_at="2024-01-03")
    store.alias("Nads", "Nadia", valid_from="2023-01-01", valid_to="2025-01-01", recorded_at="2024-02-01")
    late = store.why("Nads", "lives_in", valid_at="2026-01-01", as_of="2024-03-01", vs="2024-03-02")
    assert [v.object for v in late.after] == [v.object for v in store.beliefs(
        as_of="2024-03-02", valid_at="2026-01-01", about="Nads") if v.predicate == "lives_in"] == ["Bergen"]
    early = store.why("Nads", "lives_in", valid_at="2024-06-01", as_of="2024-03-01", vs="2024-03-02")
    assert [(v.subject, v.object) for v in early.after] == [("Nadia", "Oslo"), ("Nads", "Bergen")]


def test_cypher_and_named_queries_see_one_node_with_every_name(store):
    two_names(store)
    nodes = store.cypher("MATCH (e:Entity) RETURN e.id AS id, e.names AS names ORDER BY id", as_of="2024-03-15")
    assert {"id": "melanie", "names": ["Melanie", "Mel"]} in nodes
    assert all(n["id"] != "mel" for n in nodes)
    said = store.cypher("MATCH (e:Entity {name: 'Melanie'})-[f:Fact]->(o:Entity) WHERE f.predicate <> 'alias_of' "
                        "RETURN f.subject_name AS said, f.predicate AS p, o.name AS o ORDER BY p", as_of="2024-03-15")
    assert [(r["said"], r["p"], r["o"]) for r in said] == [
        ("Melanie", "lives_in", "Paris"), ("Mel", "works_at", "Acme")]
    knows = store.cypher("MATCH (:Entity {name: 'Maya'})-[f:Fact]->(o:Entity) RETURN o.id AS o, f.object_name AS said",
                         as_of="2024-03-15")
    assert [(r["o"], r["said"]) for r in knows] == [("melanie", "Mel")]
    # before the alias: two nodes
    apart = store.cypher("MATCH (e:Entity) RETURN e.id AS id", as_of="2024-02-15")
    assert {r["id"] for r in apart} >= {"mel", "melanie"}
    rows = store.query("timeline", {"entity": "Mel"}, as_of="2024-03-15")
    assert sorted((r["subject"], r["predicate"]) for r in rows) == [
        ("Maya", "knows"), ("Mel", "alias_of"), ("Mel", "works_at"), ("Melanie", "lives_in")]


def test_aliases_are_transitive_and_ending_one_splits_the_names_from_then_on(store):
    store.add("Mel", "works_at", "Acme", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Melanie", "lives_in", "Paris", valid_from="2024-01-01", recorded_at="2024-01-03")
    store.alias("Melanie", "Mel", recorded_at="2024-02-01")
    store.alias("Mel Ortiz", "Melanie", recorded_at="2024-02-02")
    assert [e.name for e in store.names_of("Mel Ortiz")] == ["Mel", "Melanie", "Mel Ortiz"]
    store.end("Mel Ortiz", ALIAS, "Melanie", at="2024-06-01", recorded_at="2024-06-02")
    assert [e.name for e in store.names_of("Mel Ortiz", valid_at="2024-05-01")] == ["Mel", "Melanie", "Mel Ortiz"]
    assert [e.name for e in store.names_of("Mel Ortiz", valid_at="2024-07-01")] == ["Mel Ortiz"]
    assert told(store.beliefs(valid_at="2024-07-01", about="Mel")) == [
        ("Mel", "works_at", "Acme"), ("Melanie", "alias_of", "Mel"), ("Melanie", "lives_in", "Paris")]


@pytest.mark.parametrize(("other", "why"), [
    ("Mel", "not an alias of itself"),
    ("Paris", "is a person and Paris a place"),
    ("Maya", "Mel sister_of Maya is believed, so they are two"),
    ("1987", "1987 is a value, not a name"),
])
def test_an_alias_that_cannot_hold_is_refused_with_why_and_nothing_is_written(store, other, why):
    store.add("Mel", "lives_in", "Paris", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Mel", "sister_of", "Maya", valid_from="2024-01-01", recorded_at="2024-01-03")
    decisions = store.decisions()
    with pytest.raises(Conflict, match=why):
        store.alias("Mel", other, quote="they are one", recorded_at="2024-02-01")
    assert store.decisions() == decisions and store.episodes() == []


def test_ending_one_alias_of_a_name_leaves_its_others(store):
    """A twenty-seventh new user's: "Mrs H" alias of Mrs Hargreaves, then of Meena Patel by a slip; ending the second
    ended both (the end, finding the first way round closed, looked under the names' other names and found the right
    alias there)."""
    store.add("Mrs Hargreaves", "phone", "01422 360118", recorded_at="2026-01-01")
    store.add("Meena Patel", "phone", "07700 900707", recorded_at="2026-01-02")
    store.alias("Mrs H", "Mrs Hargreaves", recorded_at="2026-01-03")
    store.alias("Mrs H", "Meena Patel", recorded_at="2026-01-04")
    [ended] = store.end_alias("Mrs H", "Meena Patel", at="2026-01-05", recorded_at="2026-01-05")
    assert [v.object for v in store.history("Mrs H", ALIAS) if v.status == "current"] == ["Mrs Hargreaves"]
    assert [e.name for e in store.names_of("Mrs H", valid_at="2026-01-06")] == ["Mrs Hargreaves", "Mrs H"]
    [again] = store.end_alias("Mrs Hargreaves", "Mrs H", at="2026-01-07", recorded_at="2026-01-07")  # either way
    assert again.closed and [v.object for v in store.history("Mrs H", ALIAS) if v.status == "current"] == []
    # a second reviewer's: two names one only through a third are told so, not that nothing was valid then
    store.alias("Maggie", "Mrs Hargreaves", recorded_at="2026-01-08")
    store.alias("Hargreaves", "Mrs Hargreaves", recorded_at="2026-01-09")
    with pytest.raises(Conflict, match="no alias fact joins Hargreaves and Maggie themselves"):
        store.end_alias("Hargreaves", "Maggie", recorded_at="2026-01-10")


def test_a_retracted_fact_says_nothing_of_what_an_entity_is(store):
    """A twenty-sixth new user's diary: "Visited Nana Jean." was read as a trip; retracted, it still made her a
    place, and "Jean is Nana Jean" was refused as a person and a place. A mistake taken back does not vote."""
    store.add("Jean", "likes", "gardening", valid_from="2026-01-01", recorded_at="2026-01-02")
    store.add("Robyn", "traveled_to", "Nana Jean", valid_from="2026-07-22", recorded_at="2026-07-22")
    [trip] = store.history("Robyn", "traveled_to")
    assert store.kind("Nana Jean") == "place"
    with pytest.raises(Conflict, match="is a person and Nana Jean a place"):
        store.alias("Jean", "Nana Jean", quote="Nana Jean is Jean", recorded_at="2026-07-23")
    store.retract(trip.id, reason="Nana Jean is my gran, not a place", recorded_at="2026-07-24")
    assert store.kind("Nana Jean") != "place"
    store.alias("Jean", "Nana Jean", quote="Nana Jean is Jean", recorded_at="2026-07-25")
    assert [e.name for e in store.names_of("Nana Jean")] == ["Jean", "Nana Jean"]
    # a reviewer's: a fact ended, then its ended version retracted, takes back the version it closed too
    store.add("Robyn", "lives_in", "Grandad Ted", valid_from="2026-08-01", recorded_at="2026-08-02")
    store.end("Robyn", "lives_in", "Grandad Ted", at="2026-08-10", recorded_at="2026-08-11")
    [ended] = [v for v in store.history("Robyn", "lives_in") if v.status == "ended"]
    store.retract(ended.id, reason="Grandad Ted is no place", recorded_at="2026-08-12")
    assert store.kind("Grandad Ted") != "place"


def test_a_name_a_person_is_called_can_become_their_alias(store):
    """"Owen is_called Oz" names Owen: it does not keep the two apart, so the alias `alias suggest` proposes from it
    can be approved (a new user's trial: it was refused as "so they are two"), and reads by the nickname find what
    was said under it."""
    store.add("Owen", "is_called", "Oz", recorded_at="2024-01-01")
    store.add("Oz", "lives_in", "Leeds", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.alias("Oz", "Owen", recorded_at="2024-01-03")
    assert told(store.history("Owen", "lives_in")) == [("Oz", "lives_in", "Leeds")]
    assert store.check() == []


def test_a_link_through_the_groups_refuses_the_join_too(store):
    store.add("Anna", "sister_of", "Mel", recorded_at="2024-01-01")
    store.alias("Annie", "Anna", recorded_at="2024-01-02")
    store.alias("Melly", "Mel", recorded_at="2024-01-03")
    with pytest.raises(Conflict, match="Anna sister_of Mel"):
        store.alias("Annie", "Melly", recorded_at="2024-01-04")


def test_clashing_one_facts_under_two_names_are_shown_and_reported_not_closed(store):
    store.add("Melanie", "lives_in", "Paris", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Mel", "lives_in", "Berlin", valid_from="2024-02-01", recorded_at="2024-02-02")
    store.alias("Mel", "Melanie", recorded_at="2024-03-01")
    assert told(v for v in store.beliefs(about="Mel") if v.predicate == "lives_in") == [
        ("Mel", "lives_in", "Berlin"), ("Melanie", "lives_in", "Paris")]
    [(a, b)] = store.alias_clashes()
    assert {a.object, b.object} == {"Paris", "Berlin"}
    assert store.check() == []  # for review: no invariant is broken, nothing was closed


def test_an_end_named_by_another_name_ends_what_holds_under_the_name_stated(store):
    """A new user's trial: after `alias add fiesta "ford fiesta"`, `end Sam owns fiesta` said nothing was valid.
    An end finds what holds under other names of its subject and object, as every read treats them as one; not
    where two names hold it (which is not said), nor through an alias no longer believed."""
    store.add("Melanie", "lives_in", "Paris", valid_from="2025-01-01", recorded_at="2025-01-02")
    store.add("Sam", "owns", "ford fiesta", valid_from="2025-02-08", recorded_at="2025-02-09")
    store.alias("fiesta", "ford fiesta", recorded_at="2025-02-10")
    store.alias("Mel", "Melanie", recorded_at="2025-02-11")
    store.end("Sam", "owns", "fiesta", at="2025-07-19", recorded_at="2025-07-20")
    store.end("Mel", "lives_in", "Paris", at="2025-07-01", recorded_at="2025-07-20T12:00")
    assert [(v.subject, v.object, v.valid_to.date().isoformat()) for v in store.history("Sam", "owns")
            if v.superseded_at is None] == [("Sam", "ford fiesta", "2025-07-19")]
    assert [(v.subject, v.valid_to.date().isoformat()) for v in store.history("Melanie", "lives_in")
            if v.superseded_at is None] == [("Melanie", "2025-07-01")]

    store.add("Katie", "works_at", "Acme", valid_from="2025-03-01", recorded_at="2025-07-21")
    store.add("Kathryn", "works_at", "Beta", valid_from="2025-03-01", recorded_at="2025-07-22")
    store.alias("Kat", "Katie", recorded_at="2025-07-23")
    store.alias("Kathryn", "Katie", recorded_at="2025-07-24")
    with pytest.raises(Conflict, match="under their other names more than one holds .*Katie works_at Acme; "
                                         "Kathryn works_at Beta"):  # which, the words do not say
        store.end("Kat", "works_at", at="2025-08-01", recorded_at="2025-08-02")
    store.add("Jo", "owns", "van", valid_from="2025-01-01", recorded_at="2025-08-03")
    [alias] = store.alias("camper", "van", recorded_at="2025-08-04").created
    store.retract(alias, reason="another van", recorded_at="2025-08-05")
    with pytest.raises(Conflict, match="nothing to end"):
        store.end("Jo", "owns", "camper", at="2025-08-01", recorded_at="2025-08-06")


def test_search_finds_what_was_said_under_another_name(store):
    store.add("Melanie", "works_at", "Acme", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Mel", "lives_in", "Berlin", valid_from="2024-01-01", recorded_at="2024-01-03")
    assert store.search("where does Mel work", limit=3, messages=False)[0].version.object == "Berlin"  # two people
    store.alias("Mel", "Melanie", recorded_at="2024-03-01")
    hits = store.search("where does Mel work", limit=3, messages=False)
    assert hits[0].version.object == "Acme"
    early = store.search("where does Mel work", as_of="2024-02-01", limit=3, messages=False)
    assert early[0].version.object == "Berlin"


def test_purging_a_person_reaches_every_alias(tmp_path):
    clock = Clock("2024-05-01")
    with Store(tmp_path / "s", engine=ENGINE, clock=clock) as store:
        store.add("Zorblax Quennell", "lives_in", "Paris", valid_from="2024-01-01", recorded_at="2024-01-02")
        store.add("Zorbie", "works_at", "Acme", valid_from="2024-01-01", recorded_at="2024-01-03")
        store.alias("Zorbie", "Zorblax Quennell", recorded_at="2024-02-01")
        store.add("Ann", "likes", "tea", recorded_at="2024-02-02")
        store.purge("entity", "Zorbie", recorded_at="2024-03-01")
        assert {e.name for e in store.entities()} == {"Ann", "tea"}
        assert store.check() == []
    assert files_holding(tmp_path / "s", "Zorblax") == [] and files_holding(tmp_path / "s", "Zorbie") == []


def test_export_and_import_keep_aliases_as_ordinary_versions(tmp_path, store):
    two_names(store)
    store.export(tmp_path / "log.jsonl")
    versions = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()
                if json.loads(line)["type"] == "version"]
    assert any(v["predicate"] == ALIAS for v in versions)
    with Store(":memory:", engine=ENGINE) as other:
        other.import_log(tmp_path / "log.jsonl")
        assert other.aliases() == store.aliases()
        assert told(other.timeline("Mel")) == told(store.timeline("Mel"))


def test_one_who_writes_messages_is_a_person_to_the_alias_rules(store):
    """A new user's flatmate Hannah, a speaker of 51 messages with no fact of her own, was joined to "Chapel
    Allerton", a place: who writes messages is a person, and a person is no place."""
    store.remember("hiya", actor="Hannah", reference_time="2026-02-01")
    store.add("Chioma", "lives_in", "Chapel Allerton")
    with pytest.raises(Conflict, match="Hannah is a person and Chapel Allerton a place"):
        store.alias("Hannah", "Chapel Allerton")
    assert store.alias("Hannah", "Hannah Flat").op == "ADD"  # a person's other name, as ever


def test_an_unnamed_relatives_stand_in_seen_first_heads_no_group(tmp_path):
    """A new user's: `timeline Chioma` was "timeline of Em's sister (also Chioma)", and `alias list` headed the group
    "Em's sister": the stand-in was the group's entity seen first. The first real name heads it, as in the explorer."""
    path = str(tmp_path / "s")

    def ok(*args: str) -> str:
        result = CliRunner().invoke(main, ["--store", path, *args])
        assert result.exit_code == 0, result.output
        return result.output

    ok("init")
    ok("add", "Em's sister", "sister_of", "Em", "--recorded-at", "2024-02-01")
    ok("add", "Chioma", "lives_in", "Leeds", "--recorded-at", "2024-02-02")
    ok("alias", "add", "Em's sister", "Chioma", "--recorded-at", "2024-02-03")
    assert "timeline of Chioma (also Em's sister)" in ok("timeline", "Chioma")
    assert "timeline of Chioma (also Em's sister)" in ok("timeline", "Em's sister")
    assert "Chioma  Em's sister" in ok("alias", "list")


def test_the_command_line_adds_lists_and_ends_aliases(tmp_path):
    path = str(tmp_path / "s")
    run = CliRunner().invoke

    def ok(*args: str) -> str:
        result = run(main, ["--store", path, *args])
        assert result.exit_code == 0, result.output
        return result.output

    ok("init")
    ok("add", "Melanie", "lives_in", "Paris", "--recorded-at", "2024-01-02")
    ok("add", "Mel", "lives_in", "Berlin", "--recorded-at", "2024-01-03")
    assert "ADD" in ok("alias", "add", "Mel", "Melanie", "--quote", "mel is short for melanie",
                       "--recorded-at", "2024-02-01")
    again = ok("alias", "add", "Mel", "Melanie", "--recorded-at", "2024-02-02")  # a new user's: a bare NOOP
    assert again.startswith("NOOP") and "nothing changed: Mel and Melanie are already believed to name one" in again
    listed = json.loads(ok("alias", "list", "--json"))
    assert [[e["name"] for e in g["entities"]] for g in listed] == [["Melanie", "Mel"]]
    assert "Melanie  Mel" in ok("alias", "list")
    assert "timeline of Melanie (also Mel)" in ok("timeline", "Mel")
    # a third new user's: asked as of before the alias, a later name answered "nothing" with no word why
    early = run(main, ["--store", path, "timeline", "Mel", "--as-of", "2024-01-15"])
    assert "'Mel' was not yet known to be Melanie" in early.output
    assert "not yet known" not in run(main, ["--store", path, "timeline", "Mel"]).output
    checked = run(main, ["--store", path, "check"])
    assert checked.exit_code == 0 and "aliases disagree" in checked.stderr
    refused = run(main, ["--store", path, "alias", "add", "Mel", "Paris"])
    assert refused.exit_code != 0 and refused.stderr.count("\n") == 1 and "a place" in refused.stderr
    ok("alias", "end", "Melanie", "Mel", "--at", "2024-03-01", "--recorded-at", "2024-03-02")  # either way round
    assert json.loads(ok("alias", "list", "--json", "--valid-at", "2024-04-01")) == []
    assert json.loads(ok("alias", "list", "--json", "--valid-at", "2024-02-15")) != []
    assert "Mel → Melanie (until 2024-03-01)" in ok("alias", "list")  # ended: said so
    assert "aliases as of now, valid at 2024-04-01: none" in ok("alias", "list", "--valid-at", "2024-04-01")
    neither = run(main, ["--store", path, "alias", "end", "Melanie", "Mel", "--at", "2024-05-01"])
    assert neither.exit_code == 1 and "nothing to end" in neither.stderr


def test_the_mcp_tools_add_end_and_list_aliases(store, clock):
    tools = Tools(store)
    store.add("Melanie", "lives_in", "Paris", recorded_at="2024-01-02")
    tools.call("alias", {"name": "Mel", "other": "Melanie"}, "assistant")
    [group] = tools.call("aliases", {}, "assistant").groups
    assert [e.name for e in group.entities] == ["Melanie", "Mel"]
    assert [v.object for v in tools.call("beliefs", {"subject": "Mel"}, "assistant").versions] == ["Melanie", "Paris"]
    clock.advance(days=1)
    tools.call("alias", {"name": "Mel", "other": "Melanie", "end": True}, "assistant")
    # an ended alias is still believed (it is history) but joins the names no longer
    [ended] = tools.call("aliases", {}, "assistant").groups[0].versions
    assert ended.valid_to is not None
    assert [e.name for e in store.names_of("Mel", valid_at="now")] == ["Mel"]


# -- a property: reads agree with the groups an independent union of the believed aliases makes --

NAMES = ["ann", "annie", "anna", "bob", "rob"]
STEPS = st.lists(st.one_of(
    st.tuples(st.just("fact"), st.sampled_from(NAMES), st.sampled_from(["likes", "lives_in"]),
              st.sampled_from(["tea", "oslo", "rome"])),
    st.tuples(st.just("alias"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("retract"), st.integers(0, 5)),
), min_size=1, max_size=12)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_every_read_groups_names_as_the_aliases_believed_at_its_moment(steps):
    clock = Clock("2024-01-01")
    with Store(":memory:", engine=ENGINE, clock=clock) as store:
        moments, answers = [], []
        for step in steps:
            clock.advance(days=1)
            try:
                if step[0] == "fact":
                    store.add(step[1], step[2], step[3])
                elif step[0] == "alias":
                    store.alias(step[1], step[2])
                else:
                    aliases = [v for v in store.beliefs(valid_at="all") if v.predicate == ALIAS]
                    if aliases:
                        store.retract(aliases[step[1] % len(aliases)].id, reason="wrong")
            except Conflict:
                continue
            moment = clock.time
            believed = store.beliefs(as_of=moment, valid_at="all")
            groups = alias_groups([(v.subject_id, v.object_id) for v in believed if v.predicate == ALIAS], {})
            for name in {v.subject_id for v in believed}:
                expected = sorted(v.id for v in believed if {v.subject_id, v.object_id} & set(groups.of(name)))
                got = sorted(v.id for v in store.timeline(name, as_of=moment))
                assert got == expected, (name, steps)
                assert sorted(e.id for e in store.names_of(name, as_of=moment)) == sorted(groups.of(name))
                moments.append((name, moment))
                answers.append(got)
        clock.advance(days=1)
        for (name, moment), answer in zip(moments, answers):  # later writes never change an earlier answer
            assert sorted(v.id for v in store.timeline(name, as_of=moment)) == answer


def test_the_explorer_focuses_every_name_of_an_entity(store):
    from graphmem.explorer import api

    two_names(store)
    answer = api.graph(store, {"focus": ["Melanie"], "depth": ["1"]})
    assert answer["aliases"] == ["Mel"]
    assert {n["name"]: n["distance"] for n in answer["nodes"]} == {
        "Melanie": 0, "Mel": 0, "Paris": 1, "Acme": 1, "Maya": 1}
    early = api.graph(store, {"focus": ["Melanie"], "depth": ["1"], "as_of": ["2024-02-15"]})
    assert early["aliases"] == [] and {n["name"] for n in early["nodes"]} == {"Melanie", "Paris"}


def test_aliases_earlier_in_one_write_join_transitively_before_the_refusal(store):
    store.add("Ann", "sister_of", "Cy", recorded_at="2024-01-01")
    decisions = store.decisions()
    with pytest.raises(Conflict, match="Ann sister_of Cy"):  # Annie2 is Annie is Ann, Cy's sister
        store.add_many([("Annie", ALIAS, "Ann"), ("Annie2", ALIAS, "Annie"), ("Annie2", ALIAS, "Cy")],
                       recorded_at="2024-01-02")
    assert store.decisions() == decisions


def test_a_group_lists_the_alias_facts_that_join_it_at_the_moment_asked(store):
    store.add("Melanie", "lives_in", "Paris", recorded_at="2024-01-02")
    joined = store.alias("Mel", "Melanie", valid_from="2024-06-01", recorded_at="2024-03-01")
    [group] = store.aliases(valid_at="2024-04-01")  # an alias joins the names from before it was said
    assert [v.id for v in group.versions] == joined.created


def test_a_wrong_alias_corrected_is_checked_as_if_it_were_gone(store):
    """"Mel alias_of Maya" was wrong: Mel is Melanie, Maya's sister. The correction is checked against the groups
    without the wrong alias (with it, Maya's sister would have been one with Maya, and the correction refused); a
    correction to a name the rules refuse still is."""
    store.add("Melanie", "sister_of", "Maya")
    store.alias("Mel", "Maya")
    wrong = next(v for v in store.beliefs() if v.predicate == ALIAS)
    store.correct(wrong.id, "Melanie", reason="Mel is Melanie, not Maya")
    assert told(store.beliefs()) == [("Mel", ALIAS, "Melanie"), ("Melanie", "sister_of", "Maya")]
    store.add("Mel", "knows", "Maya")
    right = next(v for v in store.beliefs() if v.predicate == ALIAS)
    with pytest.raises(Conflict, match="Mel knows Maya is believed"):
        store.correct(right.id, "Maya", reason="back again")


def test_an_alias_said_both_ways_round_is_ended_both_ways_in_one_write(store):
    """A reviewer's: with "Mel alias_of Melanie" and "Melanie alias_of Mel" both believed, ending it ended one and
    left the names joined."""
    store.alias("Mel", "Melanie", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.alias("Melanie", "Mel", valid_from="2024-01-01", recorded_at="2024-01-03")
    ended = store.end_alias("Mel", "Melanie", at="2025-01-01", recorded_at="2025-01-02")
    assert len(ended) == 2 and len({d.at for d in ended}) == 2 and len(store.decisions()) == 4
    assert store.aliases(valid_at="2025-06-01") == []
    with pytest.raises(Conflict, match="valid from"):  # the way it was said knows why
        store.end_alias("Melanie", "Mel", at="2023-01-01")
    assert store.check() == []


def test_a_proposal_naming_nothing_visible_is_refused_and_alias_suggest_stays_well(store):
    """A reviewer's: an alias proposal whose object had no visible character was queued; rejected, it broke
    every later `alias suggest` (rejected pairs are left out by their names' keys)."""
    store.add("Melanie", "lives_in", "Paris", quote="Melanie lives in Paris")
    store.add("Mel", "works_at", "Acme", quote="Mel works at Acme")
    with pytest.raises(InvalidInput, match="no visible character"):
        store.propose("Mel", "alias_of", "\u200b", source="chat")
    assert [(s.a, s.b) for s in store.alias_suggestions()] == [("Mel", "Melanie")]


def test_search_reads_events_and_relations_under_every_name_and_puts_alias_facts_last(store):
    """A third new user's: "where did lenny live before she moved to manchester" knew no such move (it was said of
    Lena), "who is coco's boyfriend" resolved nothing (said of Chloe), and alias facts came first for questions
    about other things ("when did len and tommy break up" -> `lenny alias_of Lena`)."""
    store.add("Lena", "lives_in", "Leeds", valid_from="2023-01-01", recorded_at="2024-01-01")
    store.add("marc", "boyfriend_of", "Chloe", valid_from="2025-11-01", recorded_at="2025-11-03")
    store.add("Lena", "lives_in", "Manchester", valid_from="2025-12-12", recorded_at="2025-12-13")
    store.add("Lena", "dating", "tommy", valid_from="2024-06-01", valid_to="2025-10-19", recorded_at="2025-12-14")
    store.alias("lenny", "Lena", recorded_at="2026-01-01")
    store.alias("coco", "Chloe", recorded_at="2026-01-02")
    before = store.search("where did lenny live before she moved to manchester", limit=3, messages=False)
    assert [(h.version.object, [r.statement for r in h.matched.resolved]) for h in before][:1] == [
        ("Leeds", ["Lena lives_in Manchester"])]
    assert "Manchester" not in [h.version.object for h in before]  # the window is known: Manchester is after it
    who = store.search("who is coco's boyfriend", limit=3)
    assert (who[0].version.subject, who[0].version.predicate) == ("marc", "boyfriend_of")
    broke_up = store.search("when did lenny and tommy break up", limit=3, messages=False)
    kinds = [h.version.predicate for h in broke_up]  # an alias fact after every other (read deeper than asked, the
    assert kinds[0] == "dating" and kinds[kinds.index(ALIAS) if ALIAS in kinds else len(kinds):] == [ALIAS] * (
        kinds.count(ALIAS))  # three first answers may hold none)
    called = store.search("what do they call lena", limit=3, messages=False)
    assert called[0].version.predicate == ALIAS


def test_a_relation_asked_of_a_time_is_the_one_valid_then(store):
    """A third new user's: "who was lena's boyfriend in october 2025" resolved to the boyfriend she has now."""
    store.add("tommy", "boyfriend_of", "Lena", valid_from="2024-06-01", valid_to="2025-10-19", recorded_at="2025-01-01")
    store.add("dev", "boyfriend_of", "Lena", valid_from="2026-01-10", recorded_at="2026-01-11")
    then = store.search("who was lena's boyfriend in october 2025", limit=2, messages=False)
    assert [r.statement for r in then[0].matched.resolved] == ["tommy boyfriend_of Lena"]
    now = store.search("who is lena's boyfriend", limit=2, messages=False)
    assert [r.statement for r in now[0].matched.resolved] == ["dev boyfriend_of Lena"]


def test_the_episodes_about_a_name_are_those_of_every_name_it_goes_by_now(store):
    """A new user's find: `episodes --about Melanie` left out the message that told of Mel's job."""
    store.add("Melanie", "lives_in", "Paris", quote="melanie lives in paris", recorded_at="2024-01-02")
    store.add("Mel", "works_at", "Acme", quote="mel works at acme", recorded_at="2024-02-02")
    said = lambda name: sorted(e.text for e in store.episodes(about=name))  # noqa: E731
    assert said("Melanie") == ["melanie lives in paris"]
    store.alias("Mel", "Melanie", quote="mel is short for melanie", recorded_at="2024-03-01")
    every = ["mel is short for melanie", "mel works at acme", "melanie lives in paris"]
    assert said("Melanie") == said("Mel") == every
    [alias] = [v for v in store.timeline("Mel") if v.predicate == ALIAS]
    store.retract(alias.id, reason="another Mel", recorded_at="2024-04-01")
    # apart again; the retracted alias is still a version of each, as in `versions`
    assert said("Melanie") == ["mel is short for melanie", "melanie lives in paris"]
    assert said("Mel") == ["mel is short for melanie", "mel works at acme"]


def test_the_episodes_by_a_speaker_are_those_by_every_name_they_go_by_now(store):
    """A new user's family chat: `episodes --by Baba` found nothing after `alias add Baba "Joseph Kamau"`, whose
    messages are Baba's."""
    store.add_episode("The wedding was beautiful", kind="chat", actor="Joseph Kamau", recorded_at="2024-01-02")
    store.add_episode("photos!!", kind="chat", actor="Wanjiru", recorded_at="2024-01-03")
    assert store.episodes(by="Baba") == []
    store.alias("Baba", "Joseph Kamau", recorded_at="2024-02-01")
    assert [e.text for e in store.episodes(by="Baba")] == ["The wedding was beautiful"]
    assert [e.text for e in store.episodes(by="joseph  KAMAU")] == ["The wedding was beautiful"]


def test_another_name_of_an_entity_reached_is_no_hop_further(store):
    """A new user's find: Tom's picture two hops deep left out where Melanie works, told of her as Melanie
    while Tom dates "mel": the alias edge counted as a hop."""
    store.add("Tom", "dating", "mel", valid_from="2024-01-01", recorded_at="2024-01-02")
    store.add("Melanie", "works_at", "Leeds General Infirmary", valid_from="2024-01-01", recorded_at="2024-01-03")
    store.add("Leeds General Infirmary", "located_in", "Leeds", valid_from="2024-01-01", recorded_at="2024-01-04")
    before = store.neighbourhood("Tom", depth=2)
    assert {e.name for e in before.entities} == {"Tom", "mel"}
    store.alias("mel", "Melanie", recorded_at="2024-02-01")
    seen = store.neighbourhood("Tom", depth=2)
    far = {e.name: seen.distance[e.id] for e in seen.entities}
    assert far == {"Tom": 0, "mel": 1, "Melanie": 1, "Leeds General Infirmary": 2}
    assert {(v.subject, v.predicate, v.object) for v in seen.versions} == {
        ("Tom", "dating", "mel"), ("mel", "alias_of", "Melanie"), ("Melanie", "works_at", "Leeds General Infirmary")}
    then = store.neighbourhood("Tom", depth=2, as_of="2024-01-20")  # the past does not change
    assert {e.name for e in then.entities} == {"Tom", "mel"}
    narrowed = store.neighbourhood("Tom", depth=2, predicates=["dating", "works_at"])  # no aliases asked for
    assert {e.name for e in narrowed.entities} == {"Tom", "mel"}
    # a reviewer's: the evolution page of the same focus and depth drew a different neighbourhood
    from visualize._focus import ever_neighbourhood

    assert {(v.subject, v.predicate, v.object) for v in ever_neighbourhood(store, "Tom", 2)} == {
        ("Tom", "dating", "mel"), ("mel", "alias_of", "Melanie"), ("Melanie", "works_at", "Leeds General Infirmary")}
    # and with a limit, other names of one reached come after the entities reached by a fact
    store.add("Tom", "sister_of", "Zoe", recorded_at="2024-02-02")
    for n, other in enumerate(("Mel-a", "Mel-b")):
        store.alias(other, "mel", recorded_at=f"2024-02-0{n + 4}")
    few = store.neighbourhood("Tom", depth=1, limit=4)
    assert [e.name for e in few.entities][:3] == ["Tom", "mel", "Zoe"] and few.truncated
    assert few.entities[3].name in ("Melanie", "Mel-a", "Mel-b")


def three_names(store: Store) -> None:
    """Sam's brother under three names (a new user's trial): Tom works at the BBC, "Sam's brother" lives in Leeds and is
    Sam's brother, "tommy" is only ever another name; then Priya, one fact, made last."""
    store.add("Sam", "lives_in", "London", valid_from="2020-01-01", recorded_at="2024-06-01")  # (again: a NOOP)
    store.add("Sam", "likes", "climbing", recorded_at="2024-06-02")
    store.add("Tom", "works_at", "BBC", recorded_at="2024-06-03")
    store.add("Sam's brother", "lives_in", "Leeds", recorded_at="2024-06-05")
    store.add("Sam's brother", "brother_of", "Sam", recorded_at="2024-06-06")
    store.alias("tommy", "Tom", recorded_at="2024-06-07")
    store.alias("Sam's brother", "Tom", recorded_at="2024-06-08")
    store.add("Priya", "likes", "jazz", recorded_at="2024-06-09")


def test_a_neighbourhood_groups_the_names_of_each_entity_whatever_the_focus(store):
    """A new user's trial: focused on Sam, the explorer drew Tom, tommy and "Sam's brother" as three nodes; focused on
    tommy as one node named "tommy", grey, though Tom is a person. Each entity shown that goes by other names is now
    grouped under its group's leading name (seen first: Tom), with the kind all its names' facts say."""
    store.add("Sam", "lives_in", "London", valid_from="2020-01-01", recorded_at="2024-05-01")
    assert store.neighbourhood("Sam").groups == {}  # no alias yet: nothing read for them
    three_names(store)
    assert store.kind("tommy") == store.kind("Tom") == "person"  # a name's kind is its group's (thirty-first session:
    # a new user's "graphmem kind Nandini" said entity where Nandu, the same person, was a person)
    names = {"tom", "tommy", "sam's brother"}
    for focus in ("Sam", "tommy", "Sam's brother", "Tom"):
        seen = store.neighbourhood(focus, depth=2)
        assert set(seen.groups) == names, focus
        assert {(lead.id, lead.name, lead.kind) for lead in seen.groups.values()} == {("tom", "Tom", "person")}
        assert {e.id: e.kind for e in seen.entities if e.id in names} == dict.fromkeys(names, "person")
        assert "sam" not in seen.groups and "leeds" not in seen.groups
    # the leading name out of view still names the group: Sam and his brother only, no alias walked
    few = store.neighbourhood("Sam", depth=1, predicates=["brother_of"])
    assert [e.name for e in few.entities] == ["Sam", "Sam's brother"]
    assert {k: (v.name, v.kind) for k, v in few.groups.items()} == {"sam's brother": ("Tom", "person")}
    # an alias names the entity from before it was said: valid before the aliases, still one group
    then = store.neighbourhood("Sam", depth=1, valid_at="2024-06-06T12:00")
    assert {k: v.name for k, v in then.groups.items()} == {"sam's brother": "Tom"}
    # and before they were believed, none
    assert store.neighbourhood("Sam", depth=2, as_of="2024-06-06T12:00").groups == {}
    # a kind set by hand on one name is the group's
    store.set_kind("tommy", "musician")
    assert {e.kind for e in store.neighbourhood("Sam", depth=2).entities if e.id in names} == {"musician"}


def test_most_believed_counts_what_is_believed_of_each_entity_without_its_aliases(store):
    """Where the explorer opens with no focus: whom the most facts believed are about, as their subject (a new user's
    trial opened on the last entity made, Priya, with one fact)."""
    assert store.most_believed() == []
    three_names(store)
    store.add("Sam", "works_at", "Acme", recorded_at="2024-06-10")
    for day, visitor in enumerate(("Ann", "Bo", "Cy", "Di"), 11):  # a city many visit is not whom the memory is about
        store.add(visitor, "visited", "Leeds", recorded_at=f"2024-06-{day}")
    ranked = [(e.name, n) for e, n in store.most_believed(3)]
    assert ranked == [("Sam", 3), ("Sam's brother", 2), ("Ann", 1)]  # alias facts are not counted
    assert [(e.name, n) for e, n in store.most_believed(1, as_of="2024-06-04")] == [("Sam", 2)]
    job = next(v for v in store.timeline("Sam") if v.predicate == "works_at")
    store.retract(job.id, reason="wrong", recorded_at="2024-06-20")
    assert store.most_believed(1)[0][1] == 2  # what is no longer believed is not counted
    with pytest.raises(InvalidInput):
        store.most_believed(0)


def test_whose_relative_someone_is_is_no_alias(store):
    """A new user's: `alias add mum "Jess's mother"` was accepted, and "where does mum live" asked by Bex then answered
    with Jess's mother's town. "My sister", "your mum" mean another person to each speaker, and a relation word alone
    is no name of an unnamed relative's stand-in: refused, with what to record instead. A reviewer's: a name that is
    also a relation word ("Mom" of Sreymom, "Son" of Son Heung-min, "The Boss") and a chat's description of one
    person ("the baby") are names, and stay accepted."""
    store.add("Jess's mother", "mother_of", "Jess")
    for word, other, relation, predicate in (("mum", "Jess's mother", "mother", "a mother_of"),
                                             ("Mum.", "Jess's mother", "mother", "a mother_of"),
                                             ("my sister", "Tilly", "sister", "a sister_of"),
                                             ("your mother in law", "Rosa", "in-law", "an in_law_of")):
        with pytest.raises(Conflict, match=rf"is a word for a relation \({relation}\).*\({predicate} fact\)"):
            store.add(word, "alias_of", other)
    assert not [v for v in store.beliefs() if v.predicate == "alias_of"]
    for name, other in (("Mom", "Sreymom"), ("Son", "Son Heung-min"), ("The Boss", "Bruce Springsteen"),
                        ("Nana Akua", "Akua")):
        store.add(name, "alias_of", other)
    store.add("Nour Mila", "daughter_of", "Vesna")
    store.add("the baby", "alias_of", "Nour Mila")  # a chat's description of one baby, a daughter: a name there
    assert len([v for v in store.beliefs() if v.predicate == "alias_of"]) == 5
    # a second reviewer's: every name of each side counts ("Mum" of Ann, another name of the stand-in), and so does
    # what someone is believed to be ("Mum" of Ann, Ann mother_of Jess); "the hubby" and "Jess' mother" too
    store.add("Ann", "alias_of", "Jess's mother")
    store.add("Rose", "mother_of", "Kim")
    for word, other in (("Mum", "Ann"), ("Mom", "Rose"), ("the hubby", "Maya's husband"), ("mum", "Jess' mother"),
                        ("ｍｕｍ", "Ann")):  # a third reviewer's: a compatibility form folds as a name's key does
        with pytest.raises(Conflict, match="is a word for a relation"):
            store.add(word, "alias_of", other)
    # and what someone's child says of them, or a wider or narrower word ("Dad" of one known only as a parent)
    store.add("Jess", "daughter_of", "Bob")
    store.add("Tim", "parent_of", "Kim")
    for word, other in (("Dad", "Bob"), ("Dad", "Tim"), ("Parent", "Rose")):
        with pytest.raises(Conflict, match="is a word for a relation"):
            store.add(word, "alias_of", other)


def test_a_chat_s_writer_named_by_a_relation_word_is_that_person(store):
    """A twenty-ninth new user's family group chat: its writer "Mum" (her phone's contact for her mother, 84 messages)
    could not be joined to "Teuila's mother", whom "my mum" had made: a name that signs messages is that person's."""
    store.add("Teuila's mother", "mother_of", "Teuila")
    with pytest.raises(Conflict, match="is a word for a relation"):
        store.alias("Mum", "Teuila's mother")  # no one writes as Mum yet: whose mum is asked of each speaker
    store.add_episode("Funeral will be in Falelatai on 14 April", kind="chat", actor="Mum")
    store.alias("Mum", "Teuila's mother")
    assert {e.name for e in store.names_of("Mum")} == {"Mum", "Teuila's mother"}
    with pytest.raises(Conflict, match="is a word for a relation"):
        store.alias("my mum", "Teuila's mother")  # a word said is still no name
    # a reviewer's: one writer named Dad is one person, not every father; nor is "My Mum", a contact, one
    store.add_episode("dinner at 7", kind="chat", actor="Dad")
    store.add("Maya's father", "father_of", "Maya")
    store.add("Sam's father", "father_of", "Sam")
    store.alias("Dad", "Maya's father")
    with pytest.raises(Conflict, match="is a word for a relation"):
        store.alias("Dad", "Sam's father")
    store.add_episode("call me", kind="chat", actor="my mum")
    with pytest.raises(Conflict, match="is a word for a relation"):
        store.alias("my mum", "Teuila's mother")
    # a message signed in the same write as the alias counts as one stored before it (CI's: an ingest's log must not
    # depend on how many messages share a transaction)
    store.add("Lagi's mother", "mother_of", "Lagi")
    with store._write() as txn:
        txn.add_episode("malo", "chat", "Mom", None)
        txn.refuse_alias(txn.ensure_entity("Mom"), txn.ensure_entity("Lagi's mother"))  # raises if refused


def test_ending_an_alias_before_the_start_it_was_added_with_says_how_to_give_its_span(store):
    """A new user's: `alias add Bex "Rebecca Hall"` (its start: now) then `alias end ... --at 2025-09-20` (a name
    dropped at a wedding) said only "no believed version is valid at 2025-09-20"; the start of an alias is read by
    nothing else, so the error names the correction that gives it its real span, which then ends it."""
    store.add("Bex", "lives_in", "Leeds", recorded_at="2026-01-01")
    added = store.alias("Bex", "Rebecca Hall", recorded_at="2026-02-01")
    with pytest.raises(Conflict, match=rf"nothing to end at 2025-09-20T00:00:00Z: {added.created[0]} \(Bex alias_of "
                                       rf"Rebecca Hall\) is valid from 2026-02-01.*graphmem correct "
                                       rf"{added.created[0]} --from START --to 2025-09-20"):
        store.end_alias("Rebecca Hall", "Bex", at="2025-09-20")
    store.correct(added.created[0], reason="her name until the wedding", valid_from="1995-01-01",
                  valid_to="2025-09-20")
    assert [e.name for e in store.names_of("Bex", valid_at="2025-01-01")] == ["Bex", "Rebecca Hall"]
    assert [e.name for e in store.names_of("Bex", valid_at="2025-10-01")] == ["Bex"]


def test_alias_list_and_kind_give_each_name_its_groups_kind(store):
    """"graphmem kind Nandini" said entity where Nandu, the same person, was a person, and `alias list --json` gave
    every name "entity" (a new user's)."""
    store.add("Nandu", "works_at", "Infosys")
    store.add("Nandini", "likes", "tea")
    store.alias("Nandu", "Nandini")
    assert store.kind("Nandini") == store.kind("Nandu") == "person"
    [group] = store.aliases()
    assert {e.name: e.kind for e in group.entities} == {"Nandu": "person", "Nandini": "person"}


def test_ending_an_alias_already_ended_says_when_it_ended(store):
    """"nothing to end: no believed version is valid at …" said nothing of the alias having ended (a new user's)."""
    store.add("Bunty", "likes", "tea")
    store.add("Dev", "likes", "chai")
    store.alias("Bunty", "Dev", valid_from="2026-01-01")
    store.end_alias("Bunty", "Dev", at="2026-04-09")
    with pytest.raises(Conflict, match=r"already ended at 2026-04-09"):
        store.end_alias("Bunty", "Dev", at="2026-05-01")
