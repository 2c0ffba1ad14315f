"""Semantic ranking against a real local embeddings server started by the test (tests/embedding_server.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem import InvalidInput, Store
from graphmem.cli import main
from graphmem.recall._embed import Embedder, EmbeddingFailed, embedder_from_env, fuse

from .conftest import ENGINE
from .embedding_server import EmbeddingServer


@pytest.fixture
def server():
    with EmbeddingServer() as running:
        yield running


def vector_rows(store: Store) -> dict[str, str]:
    """The stored vectors (id -> model): read from the engine, as nothing else shows them."""
    return dict(store._db.run_text("MATCH (e:Embedding) RETURN e.id, e.model", {}))


def test_writes_embed_their_facts_and_sentences_after_they_commit(server, clock):
    with Store(":memory:", engine=ENGINE, clock=clock, embedder=Embedder(server.url, "toy-embed")) as store:
        decision = store.add("Tom", "likes", "craft beer", quote="Tom's new obsession is craft beer.")
        assert vector_rows(store) == {decision.created[0]: "toy-embed", decision.episode: "toy-embed"}
        assert "Tom likes craft beer" in server.texts and "Tom's new obsession is craft beer." in server.texts
        assert store.embed().model_dump() == {"model": "toy-embed", "versions": 0, "episodes": 0}


def test_a_failed_embedding_keeps_the_write_and_embed_fills_the_gap(server, clock):
    embedder = Embedder(server.url, "toy-embed", attempts=1)  # one try: the retries' backoff is tested elsewhere
    with Store(":memory:", engine=ENGINE, clock=clock, embedder=embedder) as store:
        server.fail = True
        with pytest.warns(RuntimeWarning, match="the write is kept"):
            decision = store.add("Tom", "likes", "craft beer", quote="Tom loves craft beer.")
        assert [v.object for v in store.beliefs()] == ["craft beer"] and vector_rows(store) == {}
        with pytest.warns(RuntimeWarning, match="keywords alone"):
            assert store.search("what does Tom like", messages=False)[0].matched.semantic is None
        server.fail = False
        assert store.embed().model_dump() == {"model": "toy-embed", "versions": 1, "episodes": 1}
        assert set(vector_rows(store)) == {decision.created[0], decision.episode}


def test_meaning_brings_up_what_no_word_matches(server, clock):
    with Store(":memory:", engine=ENGINE, clock=clock, embedder=Embedder(server.url, "toy-embed")) as store:
        for fact in [("Tom", "likes", "craft beer"), ("Tom", "works_at", "BBC"), ("Tom", "lives_in", "Leeds"),
                     ("Tom", "likes", "running"), ("Ana", "likes", "wine")]:
            store.add(*fact)
        keyword = store.search("what does Tom drink", semantic=False, messages=False)
        assert keyword[0].version.object != "craft beer" and keyword[0].matched.semantic is None
        hits = store.search("what does Tom drink", messages=False)
        assert hits[0].version.object == "craft beer" and hits[0].matched.semantic > 0.5
        assert hits[0].matched.anchor == "Tom"  # matched by its anchor too
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        as_of_start = store.search("what does Tom drink", as_of="2025-12-31", messages=False)
        assert as_of_start == []  # nothing was believed yet, whatever its vector


def test_a_purge_removes_the_vectors(server, tmp_path, clock):
    with Store(tmp_path / "s", engine=ENGINE, clock=clock, embedder=Embedder(server.url, "toy-embed")) as store:
        kept = store.add("Ana", "likes", "wine", quote="Ana likes wine.")
        gone = store.add("Tom", "likes", "craft beer", quote="Tom likes craft beer.")
        told = store.add("Ana", "knows", "Eve", quote="Ana met Tom at the bar.")
        clock.advance(days=1)
        store.purge("entity", "Tom")
        assert store.episode(told.episode).text == "Ana met [purged] at the bar."  # its vector held the name
        assert set(vector_rows(store)) == {kept.created[0], kept.episode, told.created[0]}
        assert gone.created[0] not in vector_rows(store)
        assert all(h.version.subject != "Tom" for h in store.search("who drinks beer", messages=False))


def test_vectors_of_another_model_are_not_used_and_embed_replaces_them(server, clock):
    with Store(":memory:", engine=ENGINE, clock=clock, embedder=Embedder(server.url, "toy-embed")) as store:
        store.add("Ana", "likes", "wine", quote="Ana likes wine.")
        store.embedder = Embedder(server.url, "toy-embed-2")
        assert store.embed().model_dump() == {"model": "toy-embed-2", "versions": 1, "episodes": 1}
        assert set(vector_rows(store).values()) == {"toy-embed-2"}
        assert store.search("what does Ana drink", messages=False)[0].matched.semantic is not None


def test_without_an_endpoint_keywords_alone_answer(clock):
    with Store(":memory:", engine=ENGINE, clock=clock) as store:
        store.add("Ana", "likes", "wine")
        assert store.search("Ana", messages=False)[0].matched.semantic is None
        with pytest.raises(InvalidInput, match="GRAPHMEM_EMBED_BASE_URL"):
            store.embed()


def test_the_client_reports_a_bad_endpoint_in_one_line(server):
    with pytest.raises(EmbeddingFailed, match="cannot reach"):
        Embedder("http://127.0.0.1:9/v1", "m", timeout=2).embed(["x"])
    with pytest.raises(EmbeddingFailed, match="404"):
        Embedder(server.url.replace("/v1", "/nope"), "m").embed(["x"])
    with pytest.raises(InvalidInput, match="http"):
        Embedder("ftp://x", "m")
    fused = fuse([[(1, 0.9), (2, 0.5), (3, 0.5)], [(3, 0.8), (4, 0.7)]])  # 2 and 3 tie: they share rank 2
    assert fused == pytest.approx({1: 1 / 61, 2: 1 / 62, 3: 1 / 62 + 1 / 61, 4: 1 / 62})


def test_configured_from_the_environment(monkeypatch, server):
    monkeypatch.delenv("GRAPHMEM_EMBED_BASE_URL", raising=False)
    assert embedder_from_env() is None
    monkeypatch.setenv("GRAPHMEM_EMBED_BASE_URL", server.url)
    with pytest.raises(InvalidInput, match="GRAPHMEM_EMBED_MODEL"):
        embedder_from_env()
    monkeypatch.setenv("GRAPHMEM_EMBED_MODEL", "toy-embed")
    monkeypatch.setenv("GRAPHMEM_EMBED_API_KEY", "sk-test")
    found = embedder_from_env()
    assert (found.base_url, found.model, found.api_key) == (server.url, "toy-embed", "sk-test")


def test_cli_embed_and_search(server, tmp_path, monkeypatch):
    runner = CliRunner()
    base = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    assert runner.invoke(main, [*base, "init"]).exit_code == 0
    assert runner.invoke(main, [*base, "add", "Tom", "likes", "craft beer", "--quote", "Tom loves craft beer."]
                         ).exit_code == 0
    refused = runner.invoke(main, [*base, "embed"])
    assert refused.exit_code == 1 and refused.output.startswith("error: no embeddings endpoint")
    env = {"GRAPHMEM_EMBED_BASE_URL": server.url, "GRAPHMEM_EMBED_MODEL": "toy-embed"}
    done = runner.invoke(main, [*base, "embed", "--json"], env=env)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output) == [{"model": "toy-embed", "versions": 1, "episodes": 1}]
    found = runner.invoke(main, [*base, "search", "what does Tom drink", "--json", "--facts-only"], env=env)
    assert json.loads(found.output)[0]["matched"]["semantic"] > 0
    plain = runner.invoke(main, [*base, "search", "what does Tom drink", "--json", "--keyword-only", "--facts-only"],
                          env=env)
    assert json.loads(plain.output)[0]["matched"]["semantic"] is None
