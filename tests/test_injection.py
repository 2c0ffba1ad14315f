"""Injection: no user string ever becomes query text.

Cypher payloads go through every field of every command (API and CLI); each is stored and read
back literally (entity names only lose NUL and extra spaces, as every name does), or refused
with one clear line; the store stays whole. The Cypher-as-of path stays read-only.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from graphmem import GraphmemError, InvalidPredicate, NotFound, Store, UnsafeQuery
from graphmem.cli import main
from graphmem.errors import InvalidTime
from graphmem.log.backup import table_counts
from tests.conftest import ENGINE

#: Checked in the default engine's pass only: payloads through every CLI field: what reaches the terminal and
#: the files, above the engine.
pytestmark = pytest.mark.one_engine

PAYLOADS = [
    "'}) DETACH DELETE n //",
    "\"}) MATCH (n) DETACH DELETE n RETURN 1 //",
    "$x",
    "$id }) RETURN * //",
    "`Fact`",
    "x` RETURN 1 //",
    "\"; DROP TABLE Fact; //",
    "'; CALL show_tables() RETURN *; //",
    "}]->(o) CREATE (:Entity {id: 'pwned', name: 'pwned', kind: 'x'}) //",
    "' UNION MATCH (n) SET n.name = 'pwned' RETURN n //",
    "COPY Fact TO '/tmp/graphmem-pwned.csv'",
    "LOAD FROM '/etc/passwd' RETURN *",
    "a\x00b\x00'}) DELETE e //",
    "'}) DETACH DELETE n // \u05e9\u05dc\u05d5\u05dd",  # right to left; a bidi control is refused in a name
    "\\'}) DETACH DELETE n //",
    "x" * 950 + "'}) DETACH DELETE n //",  # long, yet within the 1000 characters of a name
]


def name(text: str) -> str:
    """How the store spells an entity named ``text`` (NUL dropped, spaces collapsed)."""
    return re.sub(r"\s+", " ", text.replace("\x00", "")).strip()


def intact(store: Store, tables: dict[str, int]) -> None:
    """Every table still there, nothing named 'pwned', the log sound."""
    counts = table_counts(store._db)
    assert set(counts) == set(tables)
    assert "pwned" not in {e.name for e in store.entities()}
    assert store.check() == []


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_payloads_through_every_api_field(store, clock, payload):
    tables = table_counts(store._db)
    other = payload[::-1] + "!"
    writes = 0

    def wrote(result=None):
        nonlocal writes
        writes += 1
        clock.advance(hours=1)
        return result

    added = wrote(store.add(payload, "likes", other, quote=payload))
    kind = payload.replace("\x00", "")  # an episode's kind holds no control character (NUL included)
    ep = wrote(store.add_episode(payload, kind=kind, actor=payload, reference_time="2025-06-01"))
    assert store.episode(ep.id) == ep and (ep.text, ep.kind, ep.actor) == (payload, kind, payload)
    wrote(store.remember(payload, kind=kind, actor=payload, source=payload))
    proposal = wrote(store.propose(payload, "likes", payload, quote=payload, source=payload))
    assert store.proposals()[-1] == proposal and proposal.subject == payload and proposal.quote == payload
    wrote(store.reject([proposal.id], reason=payload))
    assert store.proposals(None)[-1].reason == payload
    wrote(store.add(payload, "lives_in", other, valid_from="2020-01-01", episode=ep.id))
    wrote(store.segment(payload, "lives_in", payload, valid_from="2021-01-01", valid_to="2021-02-01", quote=payload))
    wrote(store.end(payload, "lives_in", other, at="2024-01-01", quote=payload))
    corrected = wrote(store.correct(added.created[0], payload, reason=payload, quote=payload))
    wrote(store.retract(corrected.created[0], reason=payload))
    assert store.version(corrected.created[0]).reason == payload
    assert store.version(added.created[0]).reason == payload
    if "," not in payload:
        store.set_review_skips([payload])
        assert store.review_skips() == [payload.strip()]

    entity = store.entity(payload)
    assert entity.name == name(payload) and store.entity(other).name == name(other)
    assert name(payload) in {v.subject for v in store.history(payload, "lives_in")}
    assert store.timeline(payload) and store.episodes(about=payload)
    assert {v.object for v in store.versions(payload)} >= {name(payload), name(other)}
    assert [e.text for e in store.episodes()].count(payload) >= 3
    store.why(payload, "lives_in", valid_at="2021-01-15", as_of="2026-01-01")

    for call, error in [
        (lambda: store.version(payload), NotFound), (lambda: store.episode(payload), NotFound),
        (lambda: store.retract(payload, reason="x"), NotFound), (lambda: store.approve([payload]), NotFound),
        (lambda: store.purge("version", payload), NotFound), (lambda: store.purge("episode", payload), NotFound),
        (lambda: store.add("a", payload, "b"), InvalidPredicate), (lambda: store.declare(payload, "one"),
                                                                   InvalidPredicate),
        (lambda: store.add("a", "likes", "b", valid_from=payload), InvalidTime),
        (lambda: store.beliefs(as_of=payload), InvalidTime),
        (lambda: store.add("a", "likes", "b", episode=payload), NotFound),
    ]:
        with pytest.raises(error):
            call()
    assert len(store.decisions()) == writes  # one decision per call, nothing from the refused ones
    intact(store, tables)

    # the Cypher-as-of path: the payload is a value, bound as a parameter, and found literally
    rows = store.cypher("MATCH (e:Entity) WHERE e.name = $x RETURN e.id AS id", {"x": name(payload)},
                  valid_at="all")
    assert [r["id"] for r in rows] == [entity.id]
    with pytest.raises(GraphmemError):
        store.cypher(payload)
    tomb = store.purge("entity", payload)
    assert tomb.entities == 2  # the payload, and the other name that only its facts referred to
    intact(store, tables)


WRITE_QUERIES = [
    "MATCH (n) DETACH DELETE n",
    "MATCH (e:Entity) SET e.name = 'pwned' RETURN e",
    "CREATE (:Entity {id: 'pwned', name: 'pwned', kind: 'x'})",
    "MERGE (e:Entity {id: 'pwned'}) RETURN e",
    "MATCH (e:Entity) RETURN e.name UNION CREATE (x:Entity {id: 'pwned'}) RETURN 'x'",
    "COPY Entity TO '/tmp/graphmem-pwned.csv'",
    "LOAD FROM '/etc/passwd' RETURN *",
    "ATTACH '/tmp/other' AS other (dbtype kuzu)",
    "INSTALL httpfs",
    "LOAD EXTENSION fts",
    "CALL checkpoint_threshold=1",
    "CHECKPOINT",
    "BEGIN TRANSACTION",
    "DROP TABLE Fact",
    "ALTER TABLE Entity ADD pwned STRING",
    "MATCH (e:Entity) RETURN e; MATCH (n) DETACH DELETE n",
    "EXPORT DATABASE '/tmp/graphmem-pwned'",
]


def test_the_cypher_as_of_path_stays_read_only(store):
    store.add("Ivan", "lives_in", "Prague")
    tables = table_counts(store._db)
    before = (store.versions(), store.entities(), store.decisions())
    for query in WRITE_QUERIES:
        with pytest.raises((UnsafeQuery, GraphmemError)):
            store.cypher(query)
        assert (store.versions(), store.entities(), store.decisions()) == before, query
    intact(store, tables)


# -- every field of every CLI command ------------------------------------------------------------

# Each command with its user fields as {0}, {1}, ...; the fields take payloads in rotation.
CLI_WRITES = [
    ["add", "{0}", "likes", "{1}", "--quote", "{2}"],
    ["add", "{0}", "lives_in", "{1}", "--from", "2020-01-01", "--episode", "EPISODE"],
    ["segment", "{0}", "lives_in", "{2}", "--from", "2021-01-01", "--to", "2021-02-01", "--quote", "{3}"],
    ["end", "{0}", "lives_in", "{1}", "--at", "2024-01-01", "--quote", "{2}"],
    ["correct", "VERSION", "{3}", "--reason", "{2}", "--quote", "{1}"],
    ["retract", "CORRECTED", "--reason", "{0}"],
    ["review", "reject", "PROPOSAL", "--reason", "{1}"],
]
CLI_READS = [
    ["beliefs", "--json"], ["history", "{0}", "lives_in", "--json"], ["timeline", "{0}", "--json"],
    ["episodes", "--about", "{0}", "--json"], ["why", "{0}", "lives_in", "--valid-at", "2021-01-15",
                                               "--as-of", "2026-01-01", "--json"],
    ["search", "{1}", "--json"], ["cypher", "MATCH (e:Entity) WHERE e.name = $x RETURN e.id", "--param", "x={0}"],
]
CLI_REFUSED = [
    (["show", "{0}"], "no version"), (["retract", "{0}", "--reason", "x"], "no version"),
    (["review", "approve", "{0}"], "no proposal"), (["purge", "version", "{0}", "--yes"], "no version"),
    (["add", "a", "{0}", "b"], "not a valid name"), (["predicate", "{0}", "--kind", "one"], "not a valid name"),
    (["add", "a", "likes", "b", "--from", "{0}"], "as a time"), (["beliefs", "--as-of", "{0}"], "as a time"),
    (["add", "a", "likes", "b", "--episode", "{0}"], "no episode"), (["cypher", "{0}"], ""),
    (["timeline", "nobody {0}"], "no entity named"),
]


def test_payloads_through_every_field_of_every_cli_command(tmp_path):
    """Every payload reaches some field of every command (fields take payloads in rotation)."""
    cli_payloads(tmp_path, offsets=range(0, len(PAYLOADS), 4))


@pytest.mark.slow
def test_every_payload_through_every_field_of_every_cli_command(tmp_path):
    cli_payloads(tmp_path, offsets=range(len(PAYLOADS)))


def cli_payloads(tmp_path, offsets) -> None:
    runner = CliRunner()
    directory = str(tmp_path / "store")
    ring = PAYLOADS

    def gm(*args, ok=True):
        result = runner.invoke(main, ["--store", directory, "--engine", ENGINE, *args])
        if ok:
            assert result.exit_code == 0, (args, result.output)
        return result

    def fill(args, offset, ids):
        payload = lambda m: ring[(offset + int(m[1])) % len(ring)]  # noqa: E731
        return [ids.get(arg) or re.sub(r"\{(\d)\}", payload, arg) for arg in args]

    gm("init")
    episode = json.loads(gm("episodes", "--json").stdout or "[]")
    assert episode == []
    with Store(directory, engine=ENGINE) as store:
        ep = store.add_episode(ring[0], kind=ring[1], actor=ring[2])
        p = store.propose(ring[0], "likes", ring[1], quote=ring[2], source="chat")
        tables = table_counts(store._db)
        writes = len(store.decisions())
    ids = {"EPISODE": ep.id, "PROPOSAL": p.id}
    for offset in offsets:
        for command in CLI_WRITES:
            args = fill(command, offset, ids)
            if command[0] == "correct":
                believed = json.loads(gm("beliefs", "--valid-at", "all", "--json").stdout)
                args[1] = next(r["id"] for r in believed if r["predicate"] == "likes"
                               and r["object"].casefold() != name(args[2]).casefold())
            out = gm(*args, "--json").stdout
            writes += len(json.loads(out))
            if command[0] == "correct":
                ids["CORRECTED"] = json.loads(out)[0]["created"][0]
            if command[:2] == ["review", "reject"]:
                with Store(directory, engine=ENGINE) as store:
                    ids["PROPOSAL"] = store.propose(ring[offset], "likes", "x", source="chat").id
                    writes += 1
        for command in CLI_READS:
            gm(*fill(command, offset, ids))
        for command, message in CLI_REFUSED:
            result = gm(*fill(command, offset, ids), ok=False)
            (line,) = result.stderr.strip().splitlines() or [""]
            assert result.exit_code != 0 and line.startswith("error: ") and message in line, (command, line)

    with Store(directory, engine=ENGINE) as store:
        assert len(store.decisions()) == writes
        texts = {e.text for e in store.episodes()}
        names = {e.name for e in store.entities()}
        for payload in {ring[(o + k) % len(ring)] for o in offsets for k in range(4)}:
            assert payload in texts or name(payload) in names  # a quote kept exactly, or a name
        reasons = {v.reason for v in store.versions() if v.reason}
        assert reasons <= set(ring) and reasons
        intact(store, tables)
