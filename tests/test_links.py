"""A link is a write with its own time: an answer as of T lists only the links made by T."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem import Store
from tests.conftest import ENGINE


def noop_with_a_new_episode(store, clock):
    """Prague from 2020 said on 2026-01-01; said again in an episode received 2026-02-01 and
    linked (a NOOP) on 2026-03-01."""
    first = store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", quote="Ivan lives in Prague.")
    clock.set("2026-02-01")
    again = store.add_episode("Ivan still lives in Prague.", kind="chat")
    clock.set("2026-03-01")
    decision = store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", episode=again.id)
    assert decision.op == "NOOP"
    return first.created[0], first.episode, again.id


def test_a_later_link_is_hidden_from_every_earlier_answer(store, clock):
    vid, said, again = noop_with_a_new_episode(store, clock)
    between = "2026-02-15"  # the episode was received, but not yet linked
    assert [v.episodes for v in store.beliefs(as_of=between)] == [[said]]
    assert [v.episodes for v in store.beliefs(as_of=between, valid_at="all")] == [[said]]
    assert [v.episodes for v in store.timeline("Ivan", as_of=between)] == [[said]]
    graph = store.snapshot(as_of=between)
    assert [data["episodes"] for _, _, data in graph.edges(data=True)] == [[said]]
    (change,) = store.diff("2025-12-31", between)
    assert change.version.episodes == [said]
    why = store.why("Ivan", "lives_in", valid_at="2025-06-01", as_of=between, vs=between)
    assert [v.episodes for v in why.before] == [[said]]
    rows = store.cypher("MATCH ()-[f:Fact]->() RETURN f.episodes AS e", as_of=between)
    assert [r["e"] for r in rows] == [[said]]
    assert [h.version.episodes for h in store.search("Ivan Prague", as_of=between, messages=False)] == [[said]]
    # now, and as of the link, both are there
    for as_of in (None, "2026-03-01"):
        assert [v.episodes for v in store.beliefs(as_of=as_of)] == [[said, again]]
    (hit,) = store.search("Ivan Prague", messages=False)
    assert hit.version.id == vid and hit.version.episodes == [said, again]
    assert store.version(vid).episodes == [said, again]
    (link,) = store.links()
    assert (link.version, link.episode, link.at.isoformat()) == (vid, again, "2026-03-01T00:00:00+00:00")
    assert store.check() == []


def test_a_batch_link_and_an_approval_link_are_timed_too(store, clock):
    vid, said, _ = noop_with_a_new_episode(store, clock)
    clock.set("2026-04-01")
    third = store.add_episode("Prague, still.", kind="chat")
    clock.set("2026-05-01")
    (decision,) = store.add_many([("Ivan", "lives_in", "Prague", "2020-01-01", None, third.id)])
    assert decision.op == "NOOP"
    clock.set("2026-06-01")
    episode, (proposal,) = store.remember("Ivan lives in Prague, you know.", [_fact("Prague")],
                                          actor="Ana")
    clock.set("2026-07-01")
    (approved,) = store.approve([proposal.id])
    assert approved.op == "NOOP"
    seen = {t: store.beliefs(as_of=t)[0].episodes for t in ("2026-04-15", "2026-05-15", "2026-06-15", "2026-07-15")}
    assert [len(seen[t]) for t in sorted(seen)] == [2, 3, 3, 4]
    assert [(link.episode, link.at.month) for link in store.links()] == [
        (seen["2026-04-15"][1], 3), (third.id, 5), (episode.id, 7)]
    assert store.check() == []


def _fact(obj):
    from graphmem.extract_rules import ExtractedFact

    return ExtractedFact(subject="Ivan", predicate="lives_in", object=obj, quote="Ivan lives in Prague",
                         valid_from=None)


def test_links_travel_through_export_and_import(store, clock, tmp_path):
    noop_with_a_new_episode(store, clock)
    log = tmp_path / "log.jsonl"
    store.export(log)
    assert json.loads(log.read_text().splitlines()[0])["format"] == 2
    with Store(":memory:", engine=ENGINE) as copy:
        copy.import_log(log)
        assert copy.links() == store.links()
        assert [v.episodes for v in copy.beliefs(as_of="2026-02-15")] == [v.episodes for v in
                                                                           store.beliefs(as_of="2026-02-15")]
        assert copy.check() == []


def test_a_store_without_link_times_counts_links_from_the_episodes_receipt(store, clock, tmp_path):
    vid, said, again = noop_with_a_new_episode(store, clock)
    log = tmp_path / "old.jsonl"
    store.export(log)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    lines = [line for line in lines if line["type"] != "link"]
    lines[0]["format"] = 1  # as a release before link times wrote it
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with Store(":memory:", engine=ENGINE) as old:
        old.import_log(log)
        assert old.links() == []
        assert [v.episodes for v in old.beliefs(as_of="2026-01-15")] == [[said]]  # before its receipt
        assert [v.episodes for v in old.beliefs(as_of="2026-02-15")] == [[said, again]]  # from its receipt
        assert old.check() == []


def test_a_link_naming_a_version_that_does_not_cite_the_episode_is_refused_with_its_line(store, clock, tmp_path):
    noop_with_a_new_episode(store, clock)
    log = tmp_path / "log.jsonl"
    store.export(log)
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "link")
    record = json.loads(lines[at])
    record["episode"] = "ep1"  # cited from the start: no later link
    lines[at] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    with Store(":memory:", engine=ENGINE) as copy:
        try:
            copy.import_log(log)
        except Exception as exc:  # noqa: BLE001
            assert f"{log}:{at + 1}:" in str(exc) and "link" in str(exc), exc
        else:
            raise AssertionError("the unsound link was imported")
        assert copy.versions() == []


@pytest.mark.engine_free
@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(st.sampled_from("abcde"), max_size=4), max_size=8),
       hidden=st.sets(st.sampled_from("abcde")), later=st.sets(st.tuples(st.integers(0, 7), st.sampled_from("abcde"))),
       start=st.integers(0, 3), split=st.integers(0, 8), chunked=st.booleans())
def test_the_links_hidden_over_whole_columns_are_those_hidden_row_by_row(rows, hidden, later, start, split, chunked):
    """questions._visible (Arrow, whole columns; sliced and chunked as the engine may hand them)
    keeps exactly the episodes Unseen.visible keeps for each row."""
    import pyarrow as pa

    from graphmem.read.questions import Unseen, _visible

    ids = [f"v{i}" for i in range(len(rows))]
    unseen = Unseen(frozenset(hidden), frozenset((f"v{i}", e) for i, e in later))
    lists = pa.array([["x"]] * start + rows, pa.list_(pa.string()))[start:]  # a slice: offsets not from 0
    if chunked:
        lists = pa.chunked_array([lists[:split], lists[split:]], lists.type)
    got = _visible(pa.chunked_array([pa.array(ids, pa.string())]), lists, unseen)
    assert got.to_pylist() == [unseen.visible(i, r) for i, r in zip(ids, rows)]
