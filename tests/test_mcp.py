"""The MCP server: the real `graphmem mcp` process driven by the official MCP client over stdio.

Each server test spawns `python -m graphmem --store DIR mcp` on the engine under test and talks to
it with `mcp.client.stdio.stdio_client` and `ClientSession`. The tools themselves are also run
in-process over the `store` fixture where no protocol is involved (review configuration).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Store
from graphmem.cli import main
from graphmem.errors import Conflict, InvalidInput, NotFound
from graphmem.mcp.tools import TOOL_KIND, TOOLS, Tools
from tests.conftest import ENGINE

HAVE_SDK = importlib.util.find_spec("mcp") is not None
needs_sdk = pytest.mark.skipif(not HAVE_SDK, reason="the mcp extra is not installed")
CLIENT = "graphmem-tests"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "mcp.md"
WRITES = {"remember", "add", "alias", "end", "retract", "correct", "approve", "reject", "declare"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@asynccontextmanager
async def connect(store_dir: Path, errlog_path: Path):
    """A client session with a freshly spawned `graphmem --store STORE_DIR mcp` server."""
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.stdio import stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmem", "--store", str(store_dir), "mcp"],
        env={"GRAPHMEM_ENGINE": ENGINE, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    with open(errlog_path, "w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(
                    name=CLIENT, version="1.0")) as session:
                await session.initialize()
                yield Client(session)


class Client:
    """Calls a tool and hands back its structured result, or its error text."""

    def __init__(self, session):
        self.session = session

    async def __call__(self, tool: str, **arguments) -> dict:
        result = await self.session.call_tool(tool, arguments)
        assert not result.is_error, result.content[0].text
        return result.structured_content

    async def error(self, tool: str, **arguments) -> str:
        result = await self.session.call_tool(tool, arguments)
        assert result.is_error, f"{tool} {arguments} should have failed: {result.structured_content}"
        return result.content[0].text


@pytest.fixture
def server(tmp_path):
    """Open a server session on a fresh store: ``async with server() as call: ...``."""
    return lambda: connect(tmp_path / "store", tmp_path / "server.log")


# -- the tools and their schemas --------------------------------------------------------------


@needs_sdk
@pytest.mark.anyio
@pytest.mark.one_engine  # the tools' schemas: the protocol, above the engine
async def test_lists_every_tool_with_precise_schemas(server):
    async with server() as call:
        tools = {t.name: t for t in (await call.session.list_tools()).tools}
    assert set(tools) == set(TOOLS)
    assert {"remember", "add", "end", "retract", "correct", "recall", "beliefs", "history", "why",
            "proposals", "approve", "reject"} <= set(tools)
    assert not any("purge" in name for name in tools)
    for name, tool in tools.items():
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False, name
        assert tool.description and tool.output_schema, name
        assert tool.annotations.read_only_hint is (name not in WRITES), name
    add = tools["add"].input_schema
    assert add["required"] == ["subject", "predicate", "object"]
    assert add["properties"]["predicate"]["pattern"] == "^[a-z][a-z0-9_]{0,63}$"
    assert add["properties"]["subject"]["type"] == "string"
    (time_schema,) = [s for s in add["properties"]["valid_from"]["anyOf"] if s.get("type") == "string"]
    assert "ISO 8601" in time_schema["description"] and "2 weeks ago" in time_schema["description"]
    assert tools["remember"].input_schema["required"] == ["text"]
    assert tools["remember"].input_schema["properties"]["approve"]["type"] == "boolean"
    assert tools["why"].input_schema["required"] == ["subject", "predicate", "valid_at", "as_of"]
    assert tools["approve"].input_schema["properties"]["proposal_ids"]["minItems"] == 1
    assert tools["proposals"].input_schema["properties"]["state"]["enum"] == [
        "pending", "approved", "rejected", "all"]
    assert tools["recall"].input_schema["properties"]["limit"] == {
        "default": 20, "description": "At most this many answers", "maximum": 200, "minimum": 1,
        "title": "Limit", "type": "integer"}


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.one_engine  # the tools' answers, above the engine (the Store calls they make run on both)
@needs_sdk
@pytest.mark.anyio
async def test_an_assistants_reply_is_remembered_as_its_own_and_states_nothing(server):
    """A new user's bot summarised wrongly ("Valentina studies at the Universidad de Chile") and remember wrote it as
    the user's belief: with role 'assistant' the reply is kept, found by search as the assistant's, and no fact is
    read from it."""
    async with server() as call:
        said = await call("remember", text="Noted: Valentina studies at the Universidad de Chile.", role="assistant",
                          speaker="Espiga bot", said_at="2026-03-01T10:00:00Z", approve=True)
        assert (said["episode"]["actor"], said["proposals"]) == ("assistant", [])
        hits = (await call("recall", query="where does Valentina study"))["hits"]
        assert [(h["kind"], h["role"], h["text"]) for h in hits] == [
            ("message", "assistant", "Noted: Valentina studies at the Universidad de Chile.")]
        assert (await call("remember", text="Valentina studies at the Universidad de Chile.",
                           said_at="2026-03-01T10:01:00Z"))["proposals"]  # the user's words are read as before
        with pytest.raises(Exception, match="role"):
            await call("remember", text="hi", role="system")


@pytest.mark.one_engine  # the tools' answers, above the engine (the Store calls they make run on both)
@needs_sdk
@pytest.mark.anyio
async def test_remember_approve_recall(server):
    async with server() as call:
        remembered = await call("remember", text="I moved to Oslo.", said_at="2026-03-01T10:00:00Z")
        episode, proposals = remembered["episode"], remembered["proposals"]
        assert (episode["kind"], episode["actor"], episode["text"]) == (TOOL_KIND, "user", "I moved to Oslo.")
        assert episode["reference_time"] == "2026-03-01T10:00:00Z"
        assert [(p["subject"], p["predicate"], p["object"], p["state"], p["source"]) for p in proposals] == [
            ("user", "lives_in", "Oslo", "pending", TOOL_KIND)]
        assert proposals[0]["episode"] == episode["id"]
        assert (await call("proposals"))["proposals"] == proposals
        pending = (await call("recall", query="Oslo"))["hits"]  # pending is not believed, but it was said:
        assert [(h["kind"], h["episode"], h["text"], h["speaker"]) for h in pending] == [
            ("message", episode["id"], "I moved to Oslo.", "user")]
        assert (await call("recall", query="Oslo", messages=False))["hits"] == []

        approved = await call("approve", proposal_ids=[proposals[0]["id"]])
        assert [d["op"] for d in approved["decisions"]] == ["ADD"]
        assert (approved["episode"]["kind"], approved["episode"]["actor"]) == (TOOL_KIND, CLIENT)
        assert approved["decisions"][0]["id"] in approved["episode"]["text"]

        hits = [h for h in (await call("recall", query="where do I live"))["hits"] if h["kind"] == "fact"]
        found = [hit["version"] for hit in hits]
        assert [(v["subject"], v["predicate"], v["object"], v["status"]) for v in found] == [
            ("user", "lives_in", "Oslo", "current")]
        assert hits[0]["matched"]["anchor"] == "user"  # "I" is the speaker, "user" by default
        assert hits[0]["matched"]["sentence"] == "I moved to Oslo."
        assert hits[0]["score"] > 0
        assert found[0]["valid_from"] == "2026-03-01T10:00:00Z"  # the message's time
        assert found[0]["episodes"] == [episode["id"]]
        assert (await call("proposals"))["proposals"] == []

        tea = (await call("remember", text="I like tea.", speaker="Lin"))["proposals"]
        rejected = await call("reject", proposal_ids=[tea[0]["id"]], reason="said in jest")
        assert [d["op"] for d in rejected["decisions"]] == ["REJECT"]
        assert [(p["state"], p["reason"]) for p in (await call("proposals", state="rejected"))["proposals"]] == [
            ("rejected", f"said in jest (via {CLIENT})")]
        ended = await call("end", subject="user", predicate="lives_in", at="2026-09-01")
        assert ended["decision"]["op"] == "END" and ended["versions"][0]["valid_to"] == "2026-09-01T00:00:00Z"
        assert ended["versions"][0]["episodes"] == [episode["id"], ended["episode"]["id"]]
        await call("add", subject="Rhys", predicate="brother_of", object="Owen")
        kinds = {p["name"]: p["kind"] for p in (await call("predicates"))["predicates"]}
        assert kinds["lives_in"] == "one" and kinds["traveled_to"] == "event"
        assert kinds["brother_of"] == "many"  # a predicate facts use, as `graphmem predicates` lists it
        # a new user's: no tool declared a kind, and a one-valued address used first could not be declared after
        declared = {p["name"]: p["kind"] for p in (await call("declare", predicate="located_at", kind="one"))[
            "predicates"]}
        assert declared["located_at"] == "one"
        await call("add", subject="La Espiga", predicate="located_at", object="Almirante Montt 245",
                   valid_from="2026-02-02")
        await call("add", subject="La Espiga", predicate="located_at", object="Urriola 180", valid_from="2026-06-01")
        now = await call("beliefs", about="La Espiga")
        assert [v["object"] for v in now["versions"]] == ["Urriola 180"]
        with pytest.raises(Exception, match="cannot change"):
            await call("declare", predicate="brother_of", kind="one")


@pytest.mark.one_engine  # the tools' answers, above the engine (the Store calls they make run on both)
@needs_sdk
@pytest.mark.anyio
async def test_as_of_answers_differ_before_and_after_a_correction(server):
    async with server() as call:
        added = await call("add", subject="Ivan", predicate="lives_in", object="Prague",
                           valid_from="2020-01-01", valid_to="2030-01-01")
        version = added["versions"][0]
        assert (added["decision"]["op"], version["object"]) == ("ADD", "Prague")
        assert (version["valid_from"], version["valid_to"]) == ("2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z")
        call_episode = added["episode"]
        assert (call_episode["kind"], call_episode["actor"]) == (TOOL_KIND, CLIENT)
        assert call_episode["text"].startswith('add {"subject": "Ivan"')
        assert version["episodes"] == [call_episode["id"]] == [added["decision"]["episode"]]
        before = added["decision"]["at"]

        corrected = await call("correct", version_id=version["id"], object="Berlin", reason="misheard")
        assert corrected["decision"]["op"] == "CORRECT"
        assert corrected["decision"]["episode"] == corrected["episode"]["id"]
        assert corrected["episode"]["actor"] == CLIENT

        then = await call("beliefs", as_of=before, valid_at="2025-06-01")
        now = await call("beliefs", valid_at="2025-06-01", subject="Ivan")
        assert [v["object"] for v in then["versions"]] == ["Prague"]
        assert [v["object"] for v in now["versions"]] == ["Berlin"]
        assert then["as_of"] == before and then["valid_at"] == "2025-06-01T00:00:00Z"

        why = await call("why", subject="Ivan", predicate="lives_in", valid_at="2025-06-01", as_of=before)
        assert [v["object"] for v in why["before"]] == ["Prague"]
        assert [v["object"] for v in why["after"]] == ["Berlin"]
        assert [d["op"] for d in why["decisions"]] == ["CORRECT"]
        history = await call("history", subject="Ivan", predicate="lives_in")
        assert [(v["object"], v["status"]) for v in history["versions"]] == [
            ("Berlin", "current"), ("Prague", "retracted")]
        assert {e["id"] for e in history["episodes"]} == {call_episode["id"], corrected["episode"]["id"]}

        retracted = await call("retract", version_id=history["versions"][0]["id"], reason="not sure")
        assert (retracted["decision"]["op"], retracted["decision"]["reason"]) == ("RETRACT", "not sure")
        assert retracted["decision"]["episode"] == retracted["episode"]["id"]
        assert (retracted["episode"]["actor"], retracted["episode"]["text"]) == (
            CLIENT, f'retract {{"version_id": "{history["versions"][0]["id"]}", "reason": "not sure"}}')
        assert (await call("beliefs", valid_at="all"))["versions"] == []


@pytest.mark.one_engine  # the tools' answers, above the engine (the Store calls they make run on both)
@needs_sdk
@pytest.mark.anyio
async def test_a_correction_can_change_when_a_fact_held(server):
    async with server() as call:
        added = await call("add", subject="Ivan", predicate="traveled_to", object="Oslo",
                           valid_from="2026-05-16", valid_to="2026-05-18")
        fixed = await call("correct", version_id=added["versions"][0]["id"], valid_to="2026-05-21",
                           reason="stayed till the 20th")
        assert [(v["object"], v["valid_from"], v["valid_to"]) for v in fixed["versions"]] == [
            ("Oslo", "2026-05-16T00:00:00Z", "2026-05-21T00:00:00Z")]
        home = await call("add", subject="Ivan", predicate="lives_in", object="Oslo", valid_from="2026-01-01",
                          valid_to="2026-06-01")
        opened = await call("correct", version_id=home["versions"][0]["id"], valid_to="open", reason="never left")
        assert [v["valid_to"] for v in opened["versions"]] == [None]


# -- bad arguments ----------------------------------------------------------------------------

BAD_CALLS = [
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "valid_from": "2026-13-01"},
     r"valid_from: cannot read '2026-13-01' as a time"),
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "valid_from": 20260101},
     r"valid_from: expected a time as ISO 8601 text"),
    ("add", {"subject": "Ivan", "predicate": "lives_in"}, r"object: required"),
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "colour": "red"},
     r"colour: unknown argument"),
    ("add", {"subject": "Ivan", "predicate": "Lives In", "object": "Oslo"}, r"predicate: String should match"),
    ("add", {"subject": "  ", "predicate": "lives_in", "object": "Oslo"}, r"subject: String should match"),
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "valid_from": "2026-05-01",
             "valid_to": "2026-04-01"}, r"valid_to .* is not after valid_from"),
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "valid_from": "9999-06-01"},
     r"out of range"),
    ("end", {"subject": "Ivan", "predicate": "likes", "object": "apples"}, r"nothing to end"),
    ("end", {"subject": "Ivan", "predicate": "lives_in", "at": "2019-01-01"}, r"nothing to end"),
    ("correct", {"version_id": "v999", "object": "Oslo", "reason": "typo"}, r"no version 'v999'"),
    ("correct", {"version_id": "v1", "object": "Prague", "reason": "typo"}, r"same value"),
    ("correct", {"version_id": "v1", "object": "Oslo"}, r"reason: required"),
    ("correct", {"version_id": "v1", "reason": "typo"}, r"give the right object, or valid_from/valid_to"),
    ("correct", {"version_id": "v1", "valid_to": "forever", "reason": "typo"}, r"valid_to: cannot read 'forever'"),
    ("correct", {"version_id": "v1", "valid_from": "all", "reason": "typo"}, r"valid_from: cannot read 'all'"),
    ("add", {"subject": "Ivan", "predicate": "lives_in", "object": "Oslo", "valid_from": "all"},
     r"valid_from: cannot read 'all'"),
    ("retract", {"version_id": "v999", "reason": "typo"}, r"no version 'v999'"),
    ("approve", {"proposal_ids": ["p99"]}, r"no proposal 'p99'"),
    ("approve", {"proposal_ids": []}, r"proposal_ids: List should have at least 1 item"),
    ("reject", {"proposal_ids": ["p99"], "reason": "no"}, r"no proposal 'p99'"),
    ("beliefs", {"as_of": "the day my cat was born"}, r"as_of: cannot read 'the day my cat was born'"),
    ("why", {"subject": "Ivan", "predicate": "lives_in", "valid_at": "2025-01-01"}, r"as_of: required"),
    ("purge", {"target": "entity", "target_id": "ivan"}, r"unknown tool 'purge'"),
    # an integrator's: a message said in 2031 ended today's facts from then on, quietly
    ("remember", {"text": "I moved to Goa.", "said_at": "2031-01-01T00:00:00Z", "approve": True},
     r"said_at 2031-01-01T00:00:00Z is more than a day past the wall clock"),
    ("remember", {"text": "\u200b"}, r"an episode needs some text \(a visible character\)"),
    # as the command line: a typo of a speaker would make "I" mean nobody (a new user's: it answered silently)
    ("recall", {"query": "where do I live", "speaker": "Ivann"}, r"unknown speaker 'Ivann': no entity has that name"),
]


@pytest.mark.one_engine  # the tools' answers, above the engine (the Store calls they make run on both)
@needs_sdk
@pytest.mark.anyio
async def test_bad_arguments_give_error_results_and_write_nothing(server, tmp_path):
    async with server() as call:
        await call("add", subject="Ivan", predicate="lives_in", object="Prague", valid_from="2020-01-01")
        state = [(await call("beliefs", valid_at="all"))["versions"], await call("episodes"),
                 await call("proposals", state="all")]
        for tool, arguments, message in BAD_CALLS:
            text = await call.error(tool, **arguments)
            assert text.startswith("error: ") and re.search(message, text), (tool, arguments, text)
        assert [(await call("beliefs", valid_at="all"))["versions"], await call("episodes"),
                await call("proposals", state="all")] == state
    with Store(tmp_path / "store", engine=ENGINE) as store:
        (added,) = store.decisions()  # one write, its episode included
        assert added.op == "ADD" and [e.id for e in store.episodes()] == [added.episode]


# -- in-process: review configuration, the missing extra, the docs ---------------------------


def test_a_remember_retried_records_nothing_new(store):
    """An integrator's: a remember call retried after a timeout recorded the message twice (two episodes, two
    pending proposals). With its said_at given, the same text, speaker and time answer as the first call did."""
    tools = Tools(store)
    said = {"text": "I live in Pune.", "said_at": "2026-03-01T09:00:00Z", "speaker": "Priya"}
    first, again = tools.call("remember", said, CLIENT), tools.call("remember", said, CLIENT)
    assert again == first and [e.id for e in store.episodes()] == [first.episode.id]
    assert [p.id for p in store.proposals()] == [p.id for p in first.proposals]
    later = tools.call("remember", {**said, "said_at": "2026-03-02T09:00:00Z"}, CLIENT)  # said again, later: new
    other = tools.call("remember", {**said, "speaker": "Rahul"}, CLIENT)  # said by someone else: new
    assert len({first.episode.id, later.episode.id, other.episode.id}) == 3
    unsaid = {"text": "I like tea."}  # no said_at: each call is its own moment
    assert tools.call("remember", unsaid, CLIENT).episode.id != tools.call("remember", unsaid, CLIENT).episode.id


def test_recall_for_a_speaker_in_a_store_that_has_heard_nothing_answers_nothing(store):
    """A reviewer's: an assistant that passes its user's name may ask before it remembers anything; a store that
    has heard no one refuses no speaker (once it has, a name it never heard is refused, as a typo)."""
    tools = Tools(store)
    assert tools.call("recall", {"query": "where do I live", "speaker": "Alex"}, CLIENT).hits == []
    tools.call("remember", {"text": "I moved to Oslo.", "speaker": "Alex"}, CLIENT)
    assert [h.kind for h in tools.call("recall", {"query": "Oslo", "speaker": "Alex"}, CLIENT).hits] == ["message"]
    with pytest.raises(InvalidInput, match="unknown speaker 'Alexx'"):
        tools.call("recall", {"query": "Oslo", "speaker": "Alexx"}, CLIENT)
    # a third reviewer's: the engine's lower() and Python's differ on some letters; the name as given is found
    for name in ("ΟΔΥΣΣΕΥΣ", "İlker"):
        tools.call("remember", {"text": "hello there", "speaker": name}, CLIENT)
        assert tools.call("recall", {"query": "hello", "speaker": name}, CLIENT).hits


def test_remembered_facts_skip_review_when_the_store_says_so(store):
    tools = Tools(store)
    pending = tools.call("remember", {"text": "I work at Acme."}, CLIENT)
    assert [p.state for p in pending.proposals] == ["pending"]
    store.set_review_skips(["manual", TOOL_KIND])
    written = tools.call("remember", {"text": "I moved to Oslo."}, CLIENT)
    assert [p.state for p in written.proposals] == ["approved"]
    assert [v.object for v in store.beliefs()] == ["Oslo"]
    asked = tools.call("remember", {"text": "I like tea.", "approve": True, "speaker": "Lin"}, "other")
    assert [(p.subject, p.state) for p in asked.proposals] == [("Lin", "approved")]
    assert asked.episode.actor == "Lin"  # who said it (a developer's: the client's name hid Dana's words from Marco's)
    heard = tools.call("recall", {"query": "tea", "speaker": "Lin"}, "other")  # the fact first, citing her words
    assert [store.episode(e).actor for h in heard.hits for e in h.episodes] == ["Lin"]


def test_a_refused_end_on_approval_stays_pending(store):
    tools = Tools(store)
    result = tools.call("remember", {"text": "I don't like apples anymore.", "approve": True}, CLIENT)
    assert [p.state for p in result.proposals] == ["pending"]
    assert "nothing to end" in result.held[0].reason
    assert store.episodes()[0].text == "I don't like apples anymore."


def test_a_refused_write_records_no_episode(store):
    tools = Tools(store)
    warm = tools.call("add", {"subject": "Ivan", "predicate": "status", "object": "warm",
                              "valid_from": "2026-03-01"}, CLIENT).versions[0].id
    written = store.decisions(), store.episodes(), store.entities()
    refused = [
        ("end", {"subject": "Ivan", "predicate": "status", "at": "2026-03-01"}, Conflict,
         "ending it there leaves nothing"),
        ("end", {"subject": "Olga", "predicate": "status"}, Conflict, "nothing to end"),
        ("add", {"subject": "Ivan", "predicate": "status", "object": "cold", "valid_from": "2026-05-01",
                 "valid_to": "2026-04-01"}, InvalidInput, "not after valid_from"),
        ("correct", {"version_id": warm, "object": "warm", "reason": "typo"}, InvalidInput, "same value"),
        ("retract", {"version_id": "v99", "reason": "typo"}, NotFound, "no version"),
        ("add", {"subject": "Ivan", "predicate": "status", "object": "cold", "at": "now"}, InvalidInput,
         "unknown argument"),
    ]
    for tool, arguments, error, message in refused:
        with pytest.raises(error, match=message):
            tools.call(tool, arguments, CLIENT)
    assert (store.decisions(), store.episodes(), store.entities()) == written


def test_mcp_without_the_sdk_says_how_to_install_it(tmp_path, monkeypatch):
    from graphmem.core.extras import install_hint

    monkeypatch.setitem(sys.modules, "mcp", None)  # importing it now fails as if it were missing
    monkeypatch.delitem(sys.modules, "graphmem.mcp.server", raising=False)
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), "--engine", ENGINE, "mcp"])
    assert result.exit_code == 1
    assert result.output == "error: `graphmem mcp` needs the MCP SDK, not installed here (no module named 'mcp'): " \
                            f"{install_hint('mcp')}\n"
    assert not (tmp_path / "store").exists()


def test_every_tool_is_documented():
    text = DOCS.read_text()
    for name in TOOLS:
        assert f"| `{name}` |" in text, f"docs/mcp.md does not describe the {name} tool"
    assert '"args": ["--store", ' in text and '"mcp"]' in text


@needs_sdk
@pytest.mark.one_engine  # the protocol's errors, above the engine
def test_lines_that_are_not_json_rpc_get_a_json_rpc_error_not_silence(tmp_path):
    """A client that sent something unreadable learns so at once (-32700 for text that is not
    JSON, -32600 for JSON that is not a request, with its id when it has one) and the server
    goes on answering."""
    import json
    import subprocess

    assert CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "init"]).exit_code == 0
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": CLIENT, "version": "1"}}}
    lines = ["not json {", json.dumps({"jsonrpc": "2.0", "id": 7, "method": 5}), "", "[1, 2]",
             json.dumps({"jsonrpc": "1.0", "id": "x", "method": "ping"}), json.dumps(initialize)]
    server = subprocess.Popen([sys.executable, "-m", "graphmem", "--store", str(tmp_path / "s"), "mcp"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "GRAPHMEM_ENGINE": ENGINE, "PYTHONPATH": os.pathsep.join(sys.path)})
    out, _ = server.communicate("\n".join(lines) + "\n", timeout=120)
    answers = [json.loads(line) for line in out.splitlines()]  # the blank line asks nothing
    assert [(a.get("id"), a.get("error", {}).get("code")) for a in answers] == [
        (None, -32700), (7, -32600), (None, -32600), ("x", -32600), (1, None)]
    assert answers[-1]["result"]["serverInfo"]["name"] == "graphmem"


@needs_sdk
@pytest.mark.one_engine  # the command's option, above the engine
def test_mcp_makes_a_new_store_in_the_zone_given_and_refuses_another(tmp_path):
    """A developer's: `graphmem mcp` made its store in UTC with no way to say otherwise, so "yesterday", said at
    9 pm in New York, was read as that same day."""
    import subprocess

    def mcp(*options: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "graphmem", "--store", str(tmp_path / "s"), "mcp", *options],
                              input="", capture_output=True, text=True, timeout=120,
                              env={**os.environ, "GRAPHMEM_ENGINE": ENGINE, "PYTHONPATH": os.pathsep.join(sys.path)})

    assert mcp("--timezone", "America/New_York").returncode == 0
    with Store(tmp_path / "s", engine=ENGINE) as store:
        assert store.tz_name == "America/New_York"
        said = Tools(store).call("remember", {"text": "Jordan and I broke up yesterday", "approve": True,
                                              "said_at": "2026-11-05T21:00:00-05:00"}, CLIENT)
        assert {(p.valid_from or p.valid_to).date().isoformat() for p in said.proposals} == {"2026-11-04"}
    refused = mcp("--timezone", "Europe/Berlin")
    assert refused.returncode == 1 and "America/New_York" in refused.stderr


def test_beliefs_as_of_before_the_first_write_say_why_they_are_empty(store):
    """A developer's: an assistant asking what the memory held before anything was written got `[]` and no word of
    why, where the command line explains it; the tool's answer now carries the same note."""
    tools = Tools(store)
    tools.call("remember", {"text": "I moved to Oslo.", "approve": True, "said_at": "2026-03-01T10:00:00Z"}, CLIENT)
    early = tools.call("beliefs", {"as_of": "2020-01-01T00:00:00Z"}, CLIENT)
    assert early.versions == [] and "first write was at" in early.note and "valid_at" in early.note
    assert tools.call("beliefs", {}, CLIENT).note is None
    assert tools.call("beliefs", {"as_of": "2020-01-01T00:00:00Z", "valid_at": "2026-03-02T00:00:00Z"},
                      CLIENT).note is not None  # still nothing recorded by then


def test_beliefs_as_of_before_the_first_fact_was_approved_say_why_they_are_empty(store, clock):
    """A new user's trial, through the tools: a message said and recorded in March, its fact approved in June, is
    believed from June on; asked as of April, the answer is empty and now says why, as the command line does."""
    tools = Tools(store)
    clock.set("2026-03-01T10:00:00")
    tools.call("remember", {"text": "I moved to Oslo.", "said_at": "2026-03-01T10:00:00Z"}, CLIENT)  # waits
    clock.set("2026-06-01T00:00:00")
    tools.call("approve", {"proposal_ids": ["p1"]}, CLIENT)
    assert store.first_fact() == (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 3, 1, 10, 0, 0, 1, tzinfo=UTC))
    early = tools.call("beliefs", {"as_of": "2026-04-01T00:00:00Z"}, CLIENT)
    assert early.versions == [] and early.note.startswith(
        "nothing was believed by then: this memory's first fact was recorded at 2026-06-01T00:00:00Z, when it was "
        "approved from review") and "valid_at alone" in early.note
    assert "first write was at" in tools.call("beliefs", {"as_of": "2026-02-01T00:00:00Z"}, CLIENT).note
    assert tools.call("beliefs", {"as_of": "2026-04-01T00:00:00Z", "valid_at": "2026-05-01T00:00:00Z"},
                      CLIENT).note is not None  # nothing believed by then, whenever asked about
    assert tools.call("beliefs", {"valid_at": "2026-04-01T00:00:00Z"}, CLIENT).note is None  # as of now: Oslo


def test_a_write_may_cite_the_message_it_comes_from(store):
    """A new user's (thirtieth session): an assistant's `correct` after "Sorry, I meant Tuesday." cited the call's
    JSON, not the sentence; `add`, `end`, `correct` and `retract` take the remembered message's `episode` and cite
    it. An episode that does not exist is refused, and nothing is written."""
    tools = Tools(store)
    said = tools.call("remember", {"text": "We have a dog called Biscuit.", "speaker": "Alex"}, CLIENT).episode
    added = tools.call("add", {"subject": "Alex", "predicate": "has_pet", "object": "Biscuit",
                               "episode": said.id}, CLIENT)
    assert added.episode.id == said.id and added.versions[0].episodes == [said.id]
    fixed = tools.call("correct", {"version_id": added.versions[0].id, "object": "beagle",
                                   "reason": "Biscuit is the name", "episode": said.id}, CLIENT)
    assert fixed.episode.id == said.id
    before = len(store.episodes())
    with pytest.raises(NotFound, match="no episode 'ep999'"):
        tools.call("add", {"subject": "Alex", "predicate": "likes", "object": "tea", "episode": "ep999"}, CLIENT)
    assert len(store.episodes()) == before
    plain = tools.call("add", {"subject": "Alex", "predicate": "likes", "object": "tea"}, CLIENT)
    assert plain.episode.kind == TOOL_KIND and plain.episode.text.startswith("add {")  # the call, as before


def test_beliefs_about_someone_include_the_facts_they_are_the_object_of(store):
    """A new user's (thirtieth session): `beliefs` with `subject: user` left out `Ana sister_of user` (a relative is
    the subject of a relation); `about` gives an entity's facts either way round, as `graphmem beliefs --about` does."""
    tools = Tools(store)
    tools.call("add", {"subject": "user", "predicate": "lives_in", "object": "Leeds"}, CLIENT)
    tools.call("add", {"subject": "Ana", "predicate": "sister_of", "object": "user"}, CLIENT)
    about = tools.call("beliefs", {"about": "user"}, CLIENT)
    assert sorted((v.subject, v.predicate, v.object) for v in about.versions) == [
        ("Ana", "sister_of", "user"), ("user", "lives_in", "Leeds")]
    assert [v.predicate for v in tools.call("beliefs", {"subject": "user"}, CLIENT).versions] == ["lives_in"]
    assert tools.call("beliefs", {"about": "nobody"}, CLIENT).versions == []


def test_beliefs_about_a_name_known_as_another_only_later_say_so(store, clock):
    """As of a moment before "Nandu" was known to be Nandini, MCP answered nothing and no note, where the command
    line says why (a new user's)."""
    tools = Tools(store)
    clock.set("2026-03-01")
    tools.call("add", {"subject": "Nandu", "predicate": "works_at", "object": "Infosys"}, CLIENT)
    clock.set("2026-05-01")
    tools.call("add", {"subject": "Nandini", "predicate": "lives_in", "object": "Pune"}, CLIENT)
    clock.set("2026-06-01")
    tools.call("alias", {"name": "Nandu", "other": "Nandini"}, CLIENT)
    clock.set("2026-07-01")
    then = tools.call("beliefs", {"about": "Nandini", "as_of": "2026-05-15"}, CLIENT)
    assert [v.object for v in then.versions] == ["Pune"] and "not yet known to be Nandu" in then.note
    assert tools.call("beliefs", {"about": "Nandini"}, CLIENT).note is None


def test_an_error_names_the_tool_that_does_what_its_command_line_would():
    """An MCP error told the assistant to run `graphmem correct v39 --from START …` (a new user's)."""
    from graphmem.mcp.tools import for_tools

    said = for_tools('nothing to end: give it its real span instead: graphmem correct v39 --from START --to '
                     '2026-01-01T00:00:00Z --reason "..."')
    assert "graphmem" not in said and '"version_id": "v39"' in said and "the correct tool" in said
    assert for_tools("no proposal 'p9'; see `graphmem review list`") == "no proposal 'p9'; see the proposals tool"
