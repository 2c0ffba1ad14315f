"""Every CLI command through click's runner, including bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.core.extras import install_hint
from tests.conftest import ENGINE


@pytest.fixture
def gm(tmp_path):
    """Run graphmem against a fresh store directory; returns a function (args) -> result."""
    runner = CliRunner()
    store = str(tmp_path / "store")

    def run(*args, ok=True):
        result = runner.invoke(main, ["--store", store, "--engine", ENGINE, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    run("init")
    return run


def as_json(result):
    return json.loads(result.stdout)


@pytest.fixture
def late_move(gm):
    gm("add", "Ivan", "lives_in", "Prague", "--from", "2020-01-01", "--recorded-at", "2026-01-10",
       "--quote", "Ivan lives in Prague.")
    gm("add", "Ivan", "lives_in", "Berlin", "--from", "2026-10-15", "--recorded-at", "2026-11-01")
    return gm


def test_late_move_through_the_cli(late_move):
    gm = late_move
    then = as_json(gm("beliefs", "--as-of", "2026-10-20", "--json"))
    assert [r["object"] for r in then] == ["Prague"]
    assert set(then[0]) >= {"id", "subject", "predicate", "object", "valid_from", "valid_to",
                            "recorded_at", "superseded_at", "status", "episodes"}
    assert then[0]["valid_from"] == "2020-01-01T00:00:00Z" and then[0]["valid_to"] is None
    assert [r["object"] for r in as_json(gm("beliefs", "--valid-at", "2026-10-20", "--json"))] == ["Berlin"]
    assert [r["object"] for r in as_json(gm("beliefs", "--valid-at", "2026-10-10", "--json"))] == ["Prague"]
    history = as_json(gm("history", "Ivan", "lives_in", "--json"))
    assert [(r["object"], r["status"]) for r in history] == [
        ("Berlin", "current"), ("Prague", "ended"), ("Prague", "superseded")]
    assert history[2]["provenance"] == [{"id": "ep1", "kind": "manual", "text": "Ivan lives in Prague."}]
    assert history[2]["superseded_by"]
    seg = gm("segment", "Ivan", "lives_in", "Munich", "--from", "2026-10-01", "--to", "2026-10-15",
             "--recorded-at", "2026-11-20")
    assert seg.stdout.startswith("SEGMENT")
    assert [r["object"] for r in as_json(
        gm("beliefs", "--as-of", "2026-11-10", "--valid-at", "2026-10-05", "--json"))] == ["Prague"]
    assert [r["object"] for r in as_json(gm("beliefs", "--valid-at", "2026-10-05", "--json"))] == ["Munich"]
    assert "ok" in gm("check").stdout


def test_beliefs_about_one_entity_as_subject_or_object(late_move):
    gm = late_move
    gm("add", "Anna", "knows", "Ivan", "--from", "2025-01-01", "--recorded-at", "2026-11-02")
    gm("add", "Anna", "works_at", "Acme", "--from", "2025-01-01", "--recorded-at", "2026-11-03")
    every = as_json(gm("beliefs", "--valid-at", "all", "--json"))
    about = as_json(gm("beliefs", "--valid-at", "all", "--about", "  IVAN ", "--json"))  # named as the store keys names
    assert about == [r for r in every if "Ivan" in (r["subject"], r["object"])]
    assert [(r["subject"], r["object"]) for r in about] == [("Anna", "Ivan"), ("Ivan", "Prague"), ("Ivan", "Berlin")]
    assert [r["object"] for r in as_json(gm("beliefs", "--about", "Acme", "--json"))] == ["Acme"]
    table = gm("beliefs", "--valid-at", "all", "--about", "ivan").stdout
    assert table.startswith("beliefs about Ivan as of now, valid at all")
    assert "Prague" in table and "Acme" not in table
    unknown = gm("beliefs", "--about", "Nobody", ok=False)
    assert unknown.exit_code == 1 and unknown.output == "error: no entity named 'Nobody'\n"
    unnamed = gm("episodes", "--about", "Kieran Smith", ok=False)  # a new user's: named in chat, in no fact
    assert unnamed.exit_code == 1 and unnamed.output == ("error: no entity named 'Kieran Smith'; no fact is about it: "
                                                         "`graphmem search 'Kieran Smith'` looks for messages that "
                                                         "name it\n")
    assert "graphmem search Kieran" in gm("timeline", "Kieran", ok=False).output
    typed = gm("timeline", "Ivna", ok=False)  # a new user's: a typo of a name got no hint, one of a predicate did
    assert typed.output == "error: no entity named 'Ivna'; did you mean 'Ivan'?\n"
    gm("add", "Rebecca Hall", "works_at", "Acme", "--recorded-at", "2026-11-04")
    first = gm("timeline", "rebecca", ok=False)  # another new user's: a first name alone got no hint
    assert first.output == "error: no entity named 'rebecca'; did you mean 'Rebecca Hall'?\n"
    for day, name in enumerate(("Rebecca Smith", "Rebecca Brown", "Rebecca Jones", "Rebeca"), 5):  # a reviewer's
        gm("add", name, "works_at", "Acme", "--recorded-at", f"2026-11-{day:02d}")  # (say how many are left)
    many = gm("timeline", "rebecca", ok=False).output
    assert many == ("error: no entity named 'rebecca'; did you mean 'Rebeca' or 'Rebecca Brown' or 'Rebecca Hall' "
                    "(and 2 more)?\n")
    # a sixth new user's: "Zoe" beside "Zoë" got no hint, and `add Zoe …` made a second person without a word
    gm("add", "Zoë", "works_at", "Jagiellonian", "--recorded-at", "2026-11-10")
    assert gm("timeline", "zoe", ok=False).output == "error: no entity named 'zoe'; did you mean 'Zoë'?\n"
    added = gm("add", "Zoe", "lives_in", "Kraków", "--recorded-at", "2026-11-11").output
    assert "note: 'Zoe' is a new entity beside 'Zoë', the same letters with other accents; if they are one: " \
           "graphmem alias add Zoe 'Zoë'" in added
    assert "note" not in gm("add", "Zoe", "likes", "tea", "--recorded-at", "2026-11-12").output  # told once


def test_tables_are_readable(late_move):
    out = late_move("history", "Ivan", "lives_in").stdout
    assert "Berlin" in out and "superseded" in out and "Ivan lives in Prague." in out
    assert "Prague" in late_move("beliefs", "--as-of", "2026-10-20").stdout
    assert "Berlin" in late_move("timeline", "Ivan").stdout


def test_ending_versus_correcting_through_the_cli(gm):
    gm("add", "Acme", "status", "warm", "--from", "2026-03-01", "--recorded-at", "2026-03-01")
    update = as_json(gm("add", "Acme", "status", "cold", "--from", "2026-04-20", "--recorded-at", "2026-05-01",
                        "--json"))
    assert update[0]["op"] == "UPDATE"
    cold = next(r for r in as_json(gm("beliefs", "--json")) if r["object"] == "cold")
    corrected = as_json(gm("correct", cold["id"], "lost", "--reason", "typo for lost", "--recorded-at",
                           "2026-06-01", "--json"))[0]
    assert corrected["op"] == "CORRECT" and cold["id"] in corrected["closed"]
    assert [r["object"] for r in as_json(gm("beliefs", "--as-of", "2026-05-15", "--json"))] == ["cold"]
    assert [r["object"] for r in as_json(gm("beliefs", "--json"))] == ["lost"]
    history = as_json(gm("history", "Acme", "status", "--json"))
    (retracted,) = [r for r in history if r["object"] == "cold"]
    assert retracted["status"] == "retracted" and retracted["reason"] == "typo for lost"
    warm_ended = [r for r in history if r["object"] == "warm" and r["status"] == "ended"]
    assert warm_ended[0]["valid_to"] == "2026-04-20T00:00:00Z"


def test_end_retract_and_why(gm):
    gm("add", "Lin", "likes", "apples", "--from", "2025-09-12", "--recorded-at", "2025-09-12")
    ended = gm("end", "Lin", "likes", "apples", "--at", "2025-09-25", "--recorded-at", "2025-09-25",
               "--quote", "I don't like apples anymore.")
    assert ended.stdout.startswith("END")
    assert as_json(gm("beliefs", "--json")) == []
    again = gm("end", "Lin", "likes", "apples", "--at", "2025-09-25", "--recorded-at", "2025-09-26",
               "--quote", "no more apples for me")  # told again: nothing changes, and it says so (a reviewer's)
    assert again.stdout.startswith("NOOP") and "nothing changed: Lin likes apples already ends then" in again.stdout
    history = as_json(gm("history", "Lin", "likes", "--json"))
    assert history[0]["status"] == "ended" and history[0]["valid_to"] == "2025-09-25T00:00:00Z"
    why = as_json(gm("why", "Lin", "likes", "--valid-at", "2025-10-01", "--as-of", "2025-09-20",
                     "--vs", "2025-09-30", "--json"))[0]
    assert [v["object"] for v in why["before"]] == ["apples"] and why["after"] == []
    assert [d["op"] for d in why["decisions"]] == ["END"]
    assert why["episodes"][0]["text"] == "I don't like apples anymore."
    text = gm("why", "Lin", "likes", "--valid-at", "2025-10-01", "--as-of", "2025-09-20", "--vs", "2025-09-30")
    assert "apples" in text.stdout and "END" in text.stdout
    version = history[0]["id"]
    assert gm("retract", version, "--reason", "never liked them", "--recorded-at", "2025-10-01",
              "--quote", "Lin: I never liked apples, that was my sister").stdout.startswith("RETRACT")
    assert as_json(gm("history", "Lin", "likes", "--json"))[0]["status"] == "retracted"
    why = as_json(gm("why", "Lin", "likes", "--valid-at", "2025-09-20", "--as-of", "2025-09-30", "--vs", "2025-10-02",
                     "--json"))[0]  # the retraction cites what was said (a new user's: README listed --quote)
    assert [d["op"] for d in why["decisions"]] == ["RETRACT"]
    assert as_json(gm("why", "Lin", "likes", "--valid-at", "2025-09-01", "--as-of", "2025-09-30", "--vs",
                      "2025-10-02", "--json"))[0]["decisions"] == []  # nothing of September 1st changed (a new user's)
    assert "Lin: I never liked apples, that was my sister" in [e["text"] for e in why["episodes"]]


def test_diff_and_timeline(late_move):
    changes = as_json(late_move("diff", "2026-10-01", "2026-11-02", "--json"))
    assert {(c["change"], c["believed"], c["object"]) for c in changes} == {
        ("updated", "stopped", "Prague"), ("updated", "started", "Prague"), ("updated", "started", "Berlin")}
    assert "updated" in late_move("diff", "2026-10-01", "2026-11-02").stdout
    assert late_move("diff", "2020-01-01", "2020-02-01").stdout.startswith("no change")
    old = as_json(late_move("timeline", "Ivan", "--as-of", "2026-10-01", "--json"))
    assert [(r["object"], r["valid_to"]) for r in old] == [("Prague", None)]
    now = as_json(late_move("timeline", "Ivan", "--json"))
    assert [r["object"] for r in now] == ["Prague", "Berlin"]
    assert [r["subject"] for r in as_json(late_move("timeline", "Berlin", "--json"))] == ["Ivan"]


def test_episodes_and_show(late_move):
    episodes = as_json(late_move("episodes", "--json"))
    assert [(e["id"], e["kind"], e["text"]) for e in episodes] == [("ep1", "manual", "Ivan lives in Prague.")]
    assert as_json(late_move("episodes", "--about", "Ivan", "--json"))[0]["id"] == "ep1"
    assert as_json(late_move("episodes", "--about", "Berlin", "--json")) == []
    assert "Ivan lives in Prague." in late_move("episodes").stdout
    shown = as_json(late_move("show", "v1", "--json"))[0]
    assert shown["provenance"][0]["text"] == "Ivan lives in Prague."
    episode = as_json(late_move("episode", "ep1", "--json"))[0]
    assert episode["text"] == "Ivan lives in Prague."
    assert sorted(v["id"] for v in episode["versions"]) == ["v1", "v2"]
    assert "v2" in late_move("episode", "ep1").stdout


def test_predicates(gm):
    assert gm("predicate", "mentors", "--kind", "one").stdout.strip() == "mentors is one"
    kinds = {r["name"]: r["kind"] for r in as_json(gm("predicates", "--json"))}
    assert kinds["mentors"] == "one" and kinds["lives_in"] == "one" and kinds["traveled_to"] == "event"
    assert "mentors" in gm("predicates").stdout


def test_review_queue(gm, tmp_path):
    from graphmem import Store

    gm("review", "skip", "manual")
    with Store(tmp_path / "store", engine=ENGINE) as store:
        episode, proposals = store.remember("I moved to Oslo.", [
            type("F", (), dict(op="assert", subject="Kim", predicate="lives_in", object="Oslo",
                               valid_from=None, valid_to=None, quote="I moved to Oslo."))(),
            type("F", (), dict(op="assert", subject="Kim", predicate="likes", object="fjords",
                               valid_from=None, valid_to=None, quote="I moved to Oslo."))(),
        ], kind="chat", actor="Kim", reference_time="2026-02-01")
    listed = as_json(gm("review", "list", "--json"))
    assert [p["object"] for p in listed] == ["Oslo", "fjords"]
    assert "I moved to Oslo." in gm("review", "list").stdout
    approved = as_json(gm("review", "approve", listed[0]["id"], "--json"))
    assert approved[0]["op"] == "ADD" and approved[0]["proposal"] == listed[0]["id"]
    oslo = as_json(gm("beliefs", "--json"))
    assert [(r["object"], r["valid_from"], r["episodes"]) for r in oslo] == [
        ("Oslo", "2026-02-01T00:00:00Z", [episode.id])]
    rejected = gm("review", "reject", "--all", "--reason", "not a preference")
    assert rejected.stdout.startswith("REJECT")
    assert as_json(gm("review", "list", "--json")) == []
    states = {p["object"]: (p["state"], p["reason"]) for p in as_json(gm("review", "list", "--all", "--json"))}
    assert states == {"Oslo": ("approved", None), "fjords": ("rejected", "not a preference")}
    assert "sources that skip review: manual" in gm("review", "skip").stdout


def test_export_import_round_trip(late_move, tmp_path):
    log = tmp_path / "log.jsonl"
    first = late_move("export", str(log))
    assert "exported" in first.stdout and "replaced" not in first.output
    assert f"note: {log} existed; it was replaced" in late_move("export", str(log)).output  # a seventh new user's
    runner = CliRunner()
    other = str(tmp_path / "copy")
    result = runner.invoke(main, ["--store", other, "--engine", ENGINE, "import", str(log)])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.jsonl"
    runner.invoke(main, ["--store", other, "--engine", ENGINE, "export", str(again)])
    assert log.read_text().replace(f'"engine": "{ENGINE}"', "") == again.read_text().replace(
        f'"engine": "{ENGINE}"', "")


def test_purge(late_move):
    refused = late_move("purge", "episode", "ep1", ok=False)
    assert refused.exit_code == 1 and "--yes" in refused.stderr
    out = late_move("purge", "episode", "ep1", "--yes").stdout
    assert out.startswith("PURGE")
    assert as_json(late_move("episodes", "--json")) == []
    assert "ok" in late_move("check").stdout


def test_purge_names_the_entities_with_the_same_words_it_leaves(gm):
    """Purging "José Álvarez" leaves "Jose Alvarez" and "Álvarez José", other entities: the command says so (a
    privacy purge that silently kept a person's other spellings); a purge with none says nothing."""
    for name, obj in (("José Álvarez", "Madrid"), ("Jose Alvarez", "Acme"), ("Álvarez José", "tea"),
                      ("José Alvarado", "Lima")):
        gm("add", name, "likes", obj)
    out = " ".join(gm("purge", "entity", "José Álvarez", "--yes").stdout.split())
    assert "kept 2 other entities" in out and "'Jose Alvarez', 'Álvarez José'" in out and "Alvarado" not in out
    assert "kept" not in gm("purge", "entity", "José Alvarado", "--yes").stdout
    # through an alias: Mel purged with Melanie, whose other spelling "Mélanie" stays (a reviewer's)
    for name, obj in (("Melanie", "Paris"), ("Mélanie", "Lyon"), ("Mel", "tea")):
        gm("add", name, "likes", obj)
    gm("alias", "add", "Mel", "Melanie")
    out = " ".join(gm("purge", "entity", "Mel", "--yes").stdout.split())
    assert "kept 1 other entity" in out and "'Mélanie'" in out


def test_demo(tmp_path):
    result = CliRunner().invoke(main, ["--engine", ENGINE, "demo", "--dir", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "Berlin" in result.stdout and "check: ok" in result.stdout and str(tmp_path / "demo") in result.stdout


@pytest.mark.parametrize("args, message", [
    (["retract", "v99", "--reason", "x"], "no version 'v99'"),
    (["correct", "v99", "x", "--reason", "x"], "no version 'v99'"),
    (["add", "Ivan", "lives_in", "Rome", "--from", "2026-05-01", "--to", "2026-04-01"], "not after valid_from"),
    (["add", "Ivan", "lives_in", "Rome", "--from", "yesterday-ish"], "cannot read 'yesterday-ish' as a time"),
    (["add", "Ivan", "lives_in", "Rome", "--recorded-at", "2026-01-01"], "not after the latest write"),
    (["add", "Ivan", "lives in", "Rome"], "not a valid name"),
    (["add", "Ivan", "lives_in", "Rome", "--from", "294247-01-10"], "cannot read"),
    (["add", "Ivan", "lives_in", "Rome", "--from", "9999-12-31"], "out of range"),
    (["add", "  ", "lives_in", "Rome"], "cannot be empty"),
    (["predicate", "often", "--kind", "sometimes"], "Invalid value for '--kind'"),
    (["predicate", "lives_in", "--kind", "many"], "cannot change"),
    (["end", "Ivan", "lives_in", "--at", "2019-01-01"], "nothing to end"),
    (["end", "Nobody", "lives_in", "--at", "2019-01-01"], "nothing to end"),
    (["retract", "v1", "--reason", " "], "a reason is required"),
    (["history", "Nobody", "lives_in"], "no entity named 'Nobody'"),
    (["segment", "Ivan", "likes", "x", "--from", "2026-01-01", "--to", "2026-02-01"], "segment cuts"),
    (["review", "approve", "p9"], "no proposal 'p9'"),
    (["purge", "version", "v99", "--yes"], "no version 'v99'"),
    (["import", "/nonexistent.jsonl"], "does not exist"),
    (["add", "Ivan", "lives_in", "Rome", "--episode", "ep99"], "no episode 'ep99'"),
])
def test_bad_input_is_one_line_and_changes_nothing(late_move, tmp_path, args, message):
    log_before = tmp_path / "before.jsonl"
    late_move("export", str(log_before))
    result = late_move(*args, ok=False)
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    log_after = tmp_path / "after.jsonl"
    late_move("export", str(log_after))
    assert log_before.read_text() == log_after.read_text()


def test_missing_store_is_reported(tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "none"), "beliefs"])
    # the command to run names the store given (a new user's: `graphmem init` alone made ./graphmem-store)
    assert result.exit_code == 1 and f"--store {tmp_path / 'none'} init`" in result.stderr
    other = CliRunner().invoke(main, ["--engine", "ladybug", "--store", str(tmp_path / "none"), "beliefs"])
    assert f"`graphmem --engine ladybug --store {tmp_path / 'none'} init`" in other.stderr  # a reviewer's: as asked
    assert not (tmp_path / "none").exists()


def test_bad_import_file_writes_nothing(late_move, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "graphmem", "format": 1}\n{"type": "entity", "id": "x"}\n')
    result = late_move("import", str(bad), ok=False)
    assert result.exit_code == 1 and "bad.jsonl:2" in result.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "graphmem", "format": 1}\n{not json\n')
    result = late_move("import", str(broken), ok=False)
    assert "broken.jsonl:2" in result.stderr
    assert [r["object"] for r in json.loads(late_move("beliefs", "--valid-at", "all", "--json").stdout)] == [
        "Prague", "Berlin"]


def test_an_answer_after_the_latest_write_says_it_can_change(late_move):
    note = "this answer can still change"
    for args in (["beliefs", "--as-of", "2027-01-01"], ["timeline", "Ivan", "--as-of", "2030-01-01"],
                 ["diff", "2026-01-01", "2027-01-01"], ["search", "Berlin", "--as-of", "2027-01-01"],
                 ["cypher", "MATCH (n:Entity) RETURN count(n) AS n", "--as-of", "2027-01-01"]):
        assert note in late_move(*args).stdout, args
        assert note not in late_move(*args, "--json").stdout  # data stays data
    for args in (["beliefs", "--as-of", "2026-10-20"], ["beliefs"], ["timeline", "Ivan"]):
        assert note not in late_move(*args).stdout, args


@pytest.mark.parametrize(("command", "missing", "cached", "said"), [
    (["mcp"], "anyio", "graphmem.mcp.server", "`graphmem mcp` needs the MCP SDK"),  # one the SDK needs
    (["spark", "beliefs", "exports"], "pyspark", None, "`graphmem spark` needs pyspark"),
    (["explore", "--no-browser", "--port", "0"], "uvicorn", "graphmem.explorer.app",
     "the explorer needs Starlette and uvicorn"),
])
def test_a_command_without_its_extra_names_the_extra_to_install(gm, monkeypatch, command, missing, cached, said):
    """A module of the extra (or one it imports) missing is one line naming the extra, exit 1."""
    import sys

    for name in [m for m in sys.modules if m == cached or m.partition(".")[0] in ("pyspark", missing)]:
        monkeypatch.delitem(sys.modules, name)  # imported again, below
    monkeypatch.setitem(sys.modules, missing, None)  # importing it now fails as if it were not installed
    result = gm(*command, ok=False)
    assert result.exit_code == 1
    named = "pyspark.sql" if missing == "pyspark" else missing  # the module asked for first
    assert result.output == (f"error: {said}, not installed here (no module named {named!r}): "
                             f"{install_hint(command[0])}\n")


def test_the_install_hint_names_the_folder_graphmem_was_installed_from(monkeypatch):
    """A new user installed a clone (`pip install ./repo`, as the README says): "pip install graphmem[explore]" asked
    an index for a project it does not hold; the hint names the folder, and the name only where there is none."""
    from importlib import metadata

    from graphmem.core import extras

    class Installed:
        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            if isinstance(self.text, Exception):
                raise self.text
            return self.text if name == "direct_url.json" else None

    by_name = 'pip install "graphmem[explore]"'
    for text, hint in [('{"url": "file:///tmp/my%20repo", "dir_info": {}}', "pip install '/tmp/my repo[explore]'"),
                       ('{"url": "file:///tmp/repo", "dir_info": {"editable": true}}',
                        "pip install -e '/tmp/repo[explore]'"),
                       ('{"url": "file:///tmp/a%22b%24c", "dir_info": {}}', "pip install '/tmp/a\"b$c[explore]'"),
                       ('{"url": "https://example.org/graphmem.whl", "archive_info": {}}', by_name),
                       ('{"url": "file://host/share/repo", "dir_info": {}}', by_name),
                       ('{"url": 5}', by_name), ('{"url": "file:///x"}', by_name),
                       (None, by_name), ("not json", by_name), (PermissionError("no"), by_name)]:
        monkeypatch.setattr(metadata, "distribution", lambda name, text=text: Installed(text))
        assert extras.install_hint("explore") == hint, text


def test_a_missing_module_of_graphmem_itself_is_not_blamed_on_an_extra():
    from graphmem.core.extras import needs_extra

    with pytest.raises(ModuleNotFoundError, match="graphmem.nothing"), needs_extra("mcp", "this"):
        import graphmem.nothing  # noqa: F401


def test_an_engine_that_fails_to_import_is_not_called_missing(monkeypatch):
    """A new user's script named concurrent.py shadowed the standard library's package: the engine failed to import
    and the error said "the kuzu engine is not installed; pip install kuzu", which it was."""
    import importlib

    from graphmem.engine import load_engine
    from graphmem.errors import EngineError

    def broken(name, *args):
        raise ImportError("No module named 'concurrent.futures'; 'concurrent' is not a package",
                          name="concurrent.futures")

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(EngineError, match=r"could not be imported: .*named concurrent\.py in the way"):
        load_engine(ENGINE)

    def missing(name, *args):
        raise ImportError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(EngineError, match="is not installed"):
        load_engine(ENGINE)


def test_setting_a_kind_the_group_overrides_says_so(gm):
    """A reviewer's: `kind Nandu organisation` printed "Nandu: person" with no word of why (its group's kind, set on
    Nandini first, wins)."""
    gm("add", "Nandini", "likes", "tea")
    gm("add", "Nandu", "works_at", "Infosys")
    gm("alias", "add", "Nandu", "Nandini")
    gm("kind", "Nandini", "person")
    out = " ".join(gm("kind", "Nandu", "organisation").stdout.split())
    assert out.startswith("Nandu: person") and "set it on Nandini, its first name" in out
    assert "note" not in gm("kind", "Nandini", "person").stdout


def test_a_speaker_no_fact_is_about_is_told_of_their_messages_and_episodes_say_who(gm, tmp_path):
    """A new user's: `beliefs --about Nacho`, who wrote half the chat, said only "no entity named 'Nacho'"; and
    `graphmem episodes` showed no one's name."""
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps({"role": "user", "actor": who, "content": text, "chat_time": at}) + "\n"
                            for who, text, at in [("Nacho", "how was the dinner", "2026-02-02T20:14:00Z"),
                                                  ("Carmen", "good! she made cordero", "2026-02-02T20:16:00Z")]))
    gm("ingest", str(chat))
    said = gm("beliefs", "--about", "nacho", ok=False)
    assert said.output == ("error: no entity named 'nacho'; no fact is about nacho yet, though nacho wrote messages: "
                           "`graphmem search nacho` finds them and those that name them\n")
    table = gm("episodes").stdout
    assert table.splitlines()[1].split()[:4] == ["id", "kind", "said", "by"] and "Carmen" in table


def test_tz_is_timezone_typed_short(tmp_path):
    """A seventeenth new user's `ingest chat.txt --tz America/Denver` was offered "--utc"; `--tz` is `--timezone`."""
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    run = CliRunner().invoke(main, [*store, "init", "--tz", "America/Denver"])
    assert run.exit_code == 0 and "America/Denver" in run.output, run.output
    run = CliRunner().invoke(main, ["when", "tomorrow 9am", "--tz", "Asia/Tokyo", "--reference", "2026-12-07T10:00Z"])
    assert "2026-12-08T09:00:00+09:00" in run.output, run.output


def test_search_says_did_you_mean_of_a_name_no_one_has(tmp_path):
    """A seventeenth new user's "where does Pryia work" fell back to the words in silence (`timeline Pryia` offered
    Priya); a capitalised word no entity is called, that no answer holds, and that a known name is spelt like, is
    offered that name."""
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    assert CliRunner().invoke(main, [*store, "init"]).exit_code == 0
    for fact in (["Priya", "works_at", "MedVet"], ["Marcus", "lives_in", "Denver"]):
        assert CliRunner().invoke(main, [*store, "add", *fact]).exit_code == 0
    said = CliRunner().invoke(main, [*store, "search", "where does Pryia work"]).output
    assert "note: the store knows nothing called 'Pryia'; did you mean 'Priya'?" in said, said
    said = CliRunner().invoke(main, [*store, "search", "who lives in Denvr"]).output
    assert "note: the store knows nothing called 'Denvr'; did you mean 'Denver'?" in said, said
    for asked in ("where does Priya work", "where does Marcus live", "Where is Denver", "what about Zanzibar"):
        assert "did you mean" not in CliRunner().invoke(main, [*store, "search", asked]).output, asked
    # a twenty-second new user's: a name typed without its accent, or the first name of the one an answer is about
    assert CliRunner().invoke(main, [*store, "add", "Tomás Ferreira", "works_at", "Hansa"]).exit_code == 0
    for asked in ("where does Tomas work", "where does Tomás work"):
        assert "did you mean" not in CliRunner().invoke(main, [*store, "search", asked]).output, asked
