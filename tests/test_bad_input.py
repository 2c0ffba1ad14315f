"""Bad input, through the API and the CLI: one clear error, and nothing written.

Also what is *not* bad: right-to-left text, NUL characters and huge texts are stored literally.
A hypothesis fuzz runs over `import` and `ingest` at a small size.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphmemError, ImportFailed, InvalidInput, InvalidPredicate, NotFound, Store
from graphmem.cli import main
from graphmem.core.times import UTC
from tests.conftest import ENGINE, Clock

FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def snapshot(store: Store) -> tuple:
    """Everything a write could change."""
    return (store.versions(), store.decisions(), store.entities(), store.episodes(), store.proposals(None),
            store.tombstones(), store.latest_write(), store.predicates())


@pytest.fixture
def filled(store):
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", recorded_at="2026-01-10",
              quote="Ivan lives in Prague.")
    store.add("Ivan", "likes", "tea", valid_from="2021-01-01", recorded_at="2026-01-11")
    store.propose("Ivan", "likes", "coffee", source="chat", quote="maybe coffee", recorded_at="2026-01-12")
    return store


# -- through the API ---------------------------------------------------------------------------

BAD_TIMES = ["294247-01-10", "294247-01-10T00:00:00Z", "0000-01-01", "-0001-01-01", "9999-12-31",
             "9999-06-01T00:00:00Z", "2026-13-01", "2026-02-30", "yesterday-ish", "", "  ", "2026-01-01T25:00",
             datetime(9999, 12, 31), date(1, 1, 1), 20260101, "2026-01-01T00:00:00+25:00"]

WRITES = {
    "add from": lambda s, t: s.add("Ivan", "lives_in", "Rome", valid_from=t),
    "add to": lambda s, t: s.add("Ivan", "lives_in", "Rome", valid_to=t),
    "add recorded": lambda s, t: s.add("Ivan", "lives_in", "Rome", recorded_at=t),
    "segment": lambda s, t: s.segment("Ivan", "lives_in", "Rome", valid_from="2021-01-01", valid_to=t),
    "end": lambda s, t: s.end("Ivan", "lives_in", at=t),
    "episode": lambda s, t: s.add_episode("hello", reference_time=t),
    "remember": lambda s, t: s.remember("hello", reference_time=t),
    "propose": lambda s, t: s.propose("Ivan", "likes", "x", valid_from=t),
    "retract": lambda s, t: s.retract("v2", reason="x", recorded_at=t),
    "purge": lambda s, t: s.purge("version", "v2", recorded_at=t),
}
READS = {
    "beliefs as of": lambda s, t: s.beliefs(as_of=t),
    "beliefs valid at": lambda s, t: s.beliefs(valid_at=t),
    "timeline": lambda s, t: s.timeline("Ivan", as_of=t),
    "diff": lambda s, t: s.diff("2020-01-01", t),
    "why": lambda s, t: s.why("Ivan", "lives_in", valid_at=t, as_of="2026-01-10"),
}


@pytest.mark.parametrize("name", WRITES)
def test_times_out_of_range_never_reach_the_engine(filled, name):
    before = snapshot(filled)
    for bad in BAD_TIMES:
        with pytest.raises(InvalidInput):
            WRITES[name](filled, bad)
    assert snapshot(filled) == before


@pytest.mark.parametrize("name", READS)
def test_reads_refuse_times_out_of_range(filled, name):
    for bad in BAD_TIMES:
        with pytest.raises(InvalidInput):
            READS[name](filled, bad)


@pytest.mark.parametrize("call, error", [
    (lambda s: s.retract("v404", reason="x"), NotFound),
    (lambda s: s.correct("v404", "x", reason="x"), NotFound),
    (lambda s: s.purge("version", "v404"), NotFound),
    (lambda s: s.purge("episode", "ep404"), NotFound),
    (lambda s: s.purge("entity", "Nobody"), NotFound),
    (lambda s: s.purge("table", "Fact"), InvalidInput),
    (lambda s: s.add("Ivan", "likes", "x", episode="ep404"), NotFound),
    (lambda s: s.propose("Ivan", "likes", "x", episode="ep404"), NotFound),
    (lambda s: s.approve(["p404"]), NotFound),
    (lambda s: s.reject(["p404"], reason="x"), NotFound),
    (lambda s: s.approve(["p1", "p404"]), NotFound),
    (lambda s: s.add("Ivan", "likes", "x", episode="ep1", quote="both"), InvalidInput),
    (lambda s: s.add("Ivan", "lives_in", "Rome", valid_from="2026-03-01", valid_to="2026-02-01"), InvalidInput),
    (lambda s: s.add("Ivan", "lives_in", "Rome", valid_from="2026-03-01", valid_to="2026-03-01"), InvalidInput),
    (lambda s: s.segment("Ivan", "lives_in", "Rome", valid_from="2026-03-01", valid_to="2026-03-01"), InvalidInput),
    (lambda s: s.segment("Ivan", "lives_in", "Rome", valid_from="2026-04-01", valid_to="2026-03-01"), InvalidInput),
    (lambda s: s.end("Nobody", "lives_in"), GraphmemError),
    (lambda s: s.end("Ivan", "lives_in", at="2019-01-01"), GraphmemError),
    (lambda s: s.end("Ivan", "likes", "coffee"), GraphmemError),
    (lambda s: s.correct("v1", "Rome", reason="x", episode="ep404"), NotFound),
    (lambda s: s.retract("v2", reason="   "), InvalidInput),
    (lambda s: s.add("Ivan", "lives in", "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", "lives_in'", "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", 'say "hi"', "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", "Lives_In", "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", "vit_à", "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", "x" * 65, "Rome"), InvalidPredicate),
    (lambda s: s.add("Ivan", "", "Rome"), InvalidPredicate),
    (lambda s: s.declare("likes", "sometimes"), InvalidPredicate),
    (lambda s: s.add("\x00 \t", "likes", "x"), InvalidInput),
    (lambda s: s.add("Ivan", "likes", "n" * 1001), InvalidInput),
    (lambda s: s.add("Ivan", "likes", 42), InvalidInput),
    (lambda s: s.add_episode("   "), InvalidInput),
    (lambda s: s.history("Nobody", "likes"), NotFound),
    (lambda s: s.timeline("Nobody"), NotFound),
    (lambda s: s.version("v404"), NotFound),
    (lambda s: s.episode("ep404"), NotFound),
    (lambda s: s.episodes_of("v404"), NotFound),
    (lambda s: s.versions_of("ep404"), NotFound),
])
def test_bad_calls_raise_one_clear_error_and_write_nothing(filled, call, error):
    before = snapshot(filled)
    with pytest.raises(error) as caught:
        call(filled)
    assert str(caught.value) and "\n" not in str(caught.value)
    assert snapshot(filled) == before


def test_mixed_naive_and_aware_times_are_read_consistently(clock):
    """A naive time is read in the store's zone, an aware one keeps its offset; they compare fine."""
    with Store(":memory:", engine=ENGINE, timezone="Europe/Berlin", clock=clock) as store:
        naive, aware = datetime(2026, 1, 1), datetime(2025, 12, 31, 23, 30, tzinfo=UTC)
        decision = store.add("a", "lives_in", "b", valid_from=naive, valid_to=aware)  # 23:00Z to 23:30Z
        (v,) = store.versions()
        assert (v.valid_from, v.valid_to) == (datetime(2025, 12, 31, 23, tzinfo=UTC), aware)
        with pytest.raises(InvalidInput, match="after"):
            store.add("a", "lives_in", "c", valid_from=datetime(2026, 1, 1, 0, 30),
                      valid_to=datetime(2025, 12, 31, 22, 15, tzinfo=timezone(timedelta(hours=-1))))
        with pytest.raises(InvalidInput):
            store.add("a", "lives_in", "c", valid_from="2026-01-01T00:00:00", valid_to="2025-12-31T23:00:00Z")
        assert store.decisions() == [store.decisions()[0]] and decision.op == "ADD"
        assert store.beliefs(as_of=datetime(2027, 1, 1), valid_at="2025-12-31T23:10:00Z")[0].object == "b"


def test_unicode_nul_and_huge_texts_are_stored_literally(store):
    rtl = "\u202eאני גר בתל אביב\u202c — مرحبا \u200f"
    text = "a\x00b " + rtl + " " + "z" * (2 << 20)
    episode = store.add_episode(text, actor="\u05d0\x00", kind="chat")
    again = store.episode(episode.id)
    assert again.text == text and again.actor == "\u05d0\x00"
    place = "אני גר בתל אביב — مرحبا"  # names hold no bidi control (refused: tests/test_names.py)
    store.add("\u05d3\u05d5\u05d3", "lives_in", place, episode=episode.id)
    (v,) = store.versions()
    assert v.subject == "\u05d3\u05d5\u05d3" and v.object == place
    store.retract(v.id, reason="\x00" + rtl * 1000)
    assert store.version(v.id).reason == "\x00" + rtl * 1000
    store.add("nul\x00name", "likes", "x")  # NUL is dropped from names (they are ids), not from texts
    assert store.entity("nulname").name == "nulname"
    assert store.check() == []


# -- through the CLI ---------------------------------------------------------------------------


@pytest.fixture
def gm(tmp_path):
    runner = CliRunner()
    directory = str(tmp_path / "store")

    def run(*args, ok=True):
        result = runner.invoke(main, ["--store", directory, "--engine", ENGINE, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    run("init")
    run("add", "Ivan", "lives_in", "Prague", "--from", "2020-01-01", "--recorded-at", "2026-01-10",
        "--quote", "Ivan lives in Prague.")
    return run


def one_line_error(result, message: str = "") -> str:
    """The single 'error: ...' line a failed command printed (never a traceback)."""
    assert result.exit_code != 0, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output
    assert "Traceback" not in result.output
    return lines[0]


def failing_cleanly(gm, tmp_path, *commands: tuple[list[str], str]) -> None:
    """Each command fails with one line holding its message; together they change nothing."""
    gm("export", str(tmp_path / "before.jsonl"))
    for args, message in commands:
        one_line_error(gm(*args, ok=False), message)
    gm("export", str(tmp_path / "after.jsonl"))
    assert (tmp_path / "before.jsonl").read_text() == (tmp_path / "after.jsonl").read_text()


TIME_OPTIONS = [
    ["add", "Ivan", "lives_in", "Rome", "--from", "{t}"],
    ["add", "Ivan", "lives_in", "Rome", "--to", "{t}"],
    ["add", "Ivan", "lives_in", "Rome", "--recorded-at", "{t}"],
    ["segment", "Ivan", "lives_in", "Rome", "--from", "2021-01-01", "--to", "{t}"],
    ["end", "Ivan", "lives_in", "--at", "{t}"],
    ["retract", "v1", "--reason", "x", "--recorded-at", "{t}"],
    ["beliefs", "--as-of", "{t}"],
    ["beliefs", "--valid-at", "{t}"],
    ["timeline", "Ivan", "--as-of", "{t}"],
    ["diff", "2020-01-01", "{t}"],
    ["why", "Ivan", "lives_in", "--valid-at", "{t}", "--as-of", "2026-01-10"],
    ["purge", "version", "v1", "--yes", "--recorded-at", "{t}"],
]


def test_cli_times_out_of_range(gm, tmp_path):
    failing_cleanly(gm, tmp_path, *[([a.format(t=bad) for a in command], "")
                                    for command in TIME_OPTIONS
                                    for bad in ("294247-01-10", "0000-01-01", "9999-12-31")])


def test_cli_bad_input_is_one_line(gm, tmp_path):
    failing_cleanly(gm, tmp_path, *[
        (["add", "Ivan", "lives in", "Rome"], "not a valid name"),
        (["add", "Ivan", "lives_in\"", "Rome"], "not a valid name"),
        (["add", "Ivan", "it's", "Rome"], "not a valid name"),
        (["predicate", "has spaces", "--kind", "one"], "not a valid name"),
        (["add", "Ivan", "likes", "n" * 1001], "limited to 1000"),
        (["show", "v404"], "no version 'v404'"),
        (["episodes", "--about", "Nobody"], "no entity named 'Nobody'"),
        (["review", "reject", "p404", "--reason", "x"], "no proposal 'p404'"),
        (["correct", "v404", "x", "--reason", "x"], "no version 'v404'"),
        (["purge", "episode", "ep404", "--yes"], "no episode 'ep404'"),
        (["purge", "entity", "Nobody", "--yes"], "no entity named 'Nobody'"),
        (["segment", "Ivan", "lives_in", "Rome", "--from", "2026-02-01", "--to", "2026-01-01"], ""),
    ])


def test_cli_stores_unicode_literally(gm):
    rtl, place = "\u202eשלום עולם\u202c مرحبا", "שלום עולם مرحبا"  # a name holds no bidi control
    gm("add", "Dana", "lives_in", place, "--quote", rtl + " \u200f" + "x" * 100_000)
    (row,) = [r for r in json.loads(gm("beliefs", "--json").stdout) if r["subject"] == "Dana"]
    assert row["object"] == place
    history = json.loads(gm("history", "Dana", "lives_in", "--json").stdout)
    assert history[0]["provenance"][0]["text"] == rtl + " \u200f" + "x" * 100_000


# -- import: malformed logs -------------------------------------------------------------------


def small_log(path: Path) -> list[str]:
    """A small sound log (every record type) as exported, one line per record."""
    clock = Clock("2026-01-01")
    with Store(":memory:", engine=ENGINE, clock=clock) as store:
        store.declare("mood", "one")
        store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", quote="Prague!")
        clock.advance(days=1)
        store.add("Ivan", "lives_in", "Berlin", valid_from="2025-01-01")
        clock.advance(days=1)
        store.propose("Ivan", "likes", "tea", source="chat", quote="tea?")
        clock.advance(days=1)
        wrong = store.add("Ivan", "mood", "sad")
        clock.advance(days=1)
        store.retract(wrong.created[0], reason="he was fine")
        clock.advance(days=1)
        gone = store.add_episode("forget this")
        clock.advance(days=1)
        store.purge("episode", gone.id)
        store.export(path)
    return path.read_text(encoding="utf-8").splitlines()


def importing(lines: list[str], tmp_path: Path, skip: bool = False) -> tuple[Store, list[str]]:
    path = tmp_path / "log.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass") + b"\n")
    store = Store(":memory:", engine=ENGINE)
    skipped: list[str] = []
    try:
        store.import_log(path, on_bad_line=skipped.append if skip else None)
    except BaseException:
        store.close()
        raise
    return store, skipped


@pytest.mark.parametrize("line, message", [
    ("{not json", "log.jsonl:4: not a graphmem log record (invalid JSON"),
    ('["a list"]', "log.jsonl:4: not a graphmem log record"),
    ('{"type": "entity", "id": "x"}', "log.jsonl:4: entity name: Field required"),
    ('{"type": "spaceship"}', "log.jsonl:4: unknown record type 'spaceship'"),
    ('{"type": "meta", "key": "seq:v", "value": "many"}', "log.jsonl:4: meta seq:v must be a number"),
    ('{"type": "predicate", "name": "lives in", "kind": "one"}', "log.jsonl:4: predicate name 'lives in'"),
    ('{"type": "predicate", "name": "x", "kind": "sometimes"}', "log.jsonl:4: predicate kind"),
    ('{"type": "episode", "id": "ep9", "kind": "chat", "text": "hi", "reference_time": "2026-01-01T00:00:00", '
     '"received_at": "2026-01-01T00:00:00Z"}', "has no zone"),
    ('{"type": "episode", "id": "ep9", "kind": "chat", "text": "hi", "reference_time": "0001-01-01T00:00:00Z", '
     '"received_at": "2026-01-01T00:00:00Z"}', "out of range"),
    ('{"type": "episode", "id": "ep9", "kind": "chat", "text": "hi", "reference_time": "294247-01-01T00:00:00Z", '
     '"received_at": "2026-01-01T00:00:00Z"}', "log.jsonl:4: episode reference_time"),
    ('{"type": "episode", "id": "x9", "kind": "chat", "text": "hi", "reference_time": "2026-01-01T00:00:00Z", '
     '"received_at": "2026-01-01T00:00:00Z"}', "not of the form ep<number>"),
    ('{"type": "tombstone", "id": "t9", "target": "entity", "at": "2026-01-01T00:00:00Z", "entities": '
     '99999999999999999999999}', "out of range"),
])
def test_a_bad_line_names_its_number_and_nothing_is_imported(tmp_path, line, message):
    lines = small_log(tmp_path / "good.jsonl")
    lines.insert(3, line)
    with pytest.raises(ImportFailed, match=None) as caught:
        importing(lines, tmp_path)
    assert message in str(caught.value), caught.value


def test_bytes_that_are_not_utf8_name_their_line(tmp_path):
    lines = small_log(tmp_path / "good.jsonl")
    path = tmp_path / "log.jsonl"
    path.write_bytes(("\n".join(lines[:5]) + "\n").encode() + b'{"type": "entity", "id": "\xff"}\n')
    with Store(":memory:", engine=ENGINE) as store:
        with pytest.raises(ImportFailed, match="log.jsonl:6: not UTF-8"):
            store.import_log(path)
        assert store.latest_write() is None


@pytest.mark.parametrize("drop", ["decision", "entity", "episode"])
def test_a_log_that_is_not_sound_is_refused_whole(tmp_path, drop):
    lines = [line for line in small_log(tmp_path / "good.jsonl")]
    first = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == drop)
    del lines[first]
    with pytest.raises(ImportFailed):
        importing(lines, tmp_path)


def test_skip_bad_imports_the_rest_and_reports_what_it_skipped(tmp_path):
    lines = small_log(tmp_path / "good.jsonl")
    garbage = ["{half a record", '{"type": "entity"}']
    store, skipped = importing(lines[:4] + garbage + lines[4:], tmp_path, skip=True)
    with store:
        assert [s.split(": ", 1)[0] for s in skipped] == [f"{tmp_path / 'log.jsonl'}:5",
                                                           f"{tmp_path / 'log.jsonl'}:6"]
        assert store.check() == [] and len(store.decisions()) == sum(
            json.loads(x)["type"] == "decision" for x in lines)
    # skipping a line others depend on leaves an unsound log: refused, nothing written
    (version,) = [i for i, line in enumerate(lines) if '"id": "v1"' in line]
    broken = lines[:version] + ['{"type": "version", ' + lines[version][len('{"type": "version", '):-5]] + \
        lines[version + 1:]
    with pytest.raises(ImportFailed, match="not sound"):
        importing(broken, tmp_path, skip=True)


def test_cli_import_of_bad_files(gm, tmp_path):
    lines = small_log(tmp_path / "good.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:4] + ["{oops"] + lines[4:]) + "\n")
    failing_cleanly(gm, tmp_path, (["import", str(bad)], "bad.jsonl:5: not a graphmem log record (invalid JSON"))
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "fresh"), "--engine", ENGINE, "import", str(bad),
                                       "--skip-bad"])
    assert result.exit_code == 0, result.output
    assert "skipped 1 bad line:" in result.stdout and "bad.jsonl:5: not a graphmem log record" in result.stdout


# -- ingest: malformed chats ---------------------------------------------------------------------


@pytest.mark.parametrize("content, message", [
    ('{"role": "user", "content": "hi", "chat_time": "2025-01-01"}\n{"role": "user"', "chat.jsonl:2"),
    ('{"role": "user", "content": "hi", "chat_time": "294247-01-10"}\n', "chat.jsonl:1"),
    ('{"role": "user", "content": "hi", "chat_time": "9999-12-31"}\n', "chat.jsonl:1"),
    ('{"role": "user", "content": "hi"}\n', "'chat_time' is missing"),
    ('{"role": "user", "content": "", "chat_time": "2025-01-01"}\n', "'content'"),
    ('{"role": 5, "content": "hi", "chat_time": "2025-01-01"}\n', "'role'"),
    ("[1, 2]", "expected a JSON object"),
    ("", "no messages found"),
])
def test_cli_ingest_of_bad_files_writes_nothing(gm, tmp_path, content, message):
    path = tmp_path / "chat.jsonl"
    path.write_text(content)
    failing_cleanly(gm, tmp_path, (["ingest", str(path)], message))
    fresh = CliRunner().invoke(main, ["--store", str(tmp_path / "fresh"), "--engine", ENGINE, "ingest", str(path)])
    assert fresh.exit_code == 1 and not (tmp_path / "fresh").exists()


def test_ingest_with_mixed_naive_and_aware_chat_times(tmp_path, store):
    from graphmem.ingest import ingest, read_messages

    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in [
        {"role": "user", "content": "I live in Oslo.", "chat_time": "2025-03-01T10:00:00+02:00"},
        {"role": "user", "content": "I moved to Rome.", "chat_time": "2025-03-01 09:30:00"},
        {"role": "user", "content": "I like figs.", "chat_time": "1:56 pm on 8 May, 2023"},
    ]))
    summary = ingest(store, read_messages(path), approve=True)
    assert summary.episodes == 3
    order = [e.text for e in store.episodes()]
    assert order == ["I like figs.", "I live in Oslo.", "I moved to Rome."]  # 08:00Z, then 09:30Z
    assert store.check() == []


# -- fuzz ------------------------------------------------------------------------------------------

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True),
    st.text(max_size=20), st.lists(st.text(max_size=4), max_size=3),
    st.sampled_from(["294247-01-10T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T00:00:00Z",
                     "2026-01-01T00:00:00", "2026-01-01T00:00:00+05:00", "v1", "v99", "d1", "ep1", "p1", "t1",
                     "ivan", "\x00", "'}) DETACH DELETE n //", "$x", "one", "many", "event"]),
)
EDITS = st.lists(st.one_of(
    st.tuples(st.just("drop"), st.integers(0, 40)),
    st.tuples(st.just("dup"), st.integers(0, 40)),
    st.tuples(st.just("cut"), st.integers(0, 40), st.integers(0, 200)),
    st.tuples(st.just("text"), st.integers(0, 40), st.text(max_size=30)),
    st.tuples(st.just("set"), st.integers(0, 40), st.text(max_size=12), VALUES),
    st.tuples(st.just("field"), st.integers(0, 40), st.integers(0, 20), VALUES),
), min_size=1, max_size=4)


def edited(lines: list[str], edits) -> list[str]:
    lines = list(lines)
    for edit in edits:
        i = edit[1] % len(lines) if lines else 0
        if not lines:
            break
        if edit[0] == "drop":
            del lines[i]
        elif edit[0] == "dup":
            lines.insert(i, lines[i])
        elif edit[0] == "cut":
            lines[i] = lines[i][:edit[2]]
        elif edit[0] == "text":
            lines[i] = edit[2]
        else:
            try:
                record = json.loads(lines[i])
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            key = edit[2] if edit[0] == "set" else sorted(record)[edit[2] % len(record)]
            record[key] = edit[3]
            lines[i] = json.dumps(record, ensure_ascii=False)
    return lines


@pytest.fixture(scope="module")
def sound_log(tmp_path_factory) -> list[str]:
    return small_log(tmp_path_factory.mktemp("fuzz") / "log.jsonl")


@FUZZ
@given(edits=EDITS, skip=st.booleans())
def test_fuzz_import_is_all_or_nothing(tmp_path, sound_log, edits, skip):
    lines = edited(sound_log, edits)
    try:
        store, _ = importing(lines, tmp_path, skip=skip)
    except GraphmemError as exc:
        assert str(exc) and "\n" not in str(exc)
        return  # importing() builds a fresh store per call: a refusal leaves nothing anywhere
    with store:
        assert store.check() == []
        store.add("someone", "likes", "something")  # and the store goes on working
        assert store.check() == []


MESSAGES = st.lists(st.one_of(
    st.fixed_dictionaries({
        "role": st.sampled_from(["user", "assistant", "User ", "system"]),
        "content": st.one_of(st.sampled_from(["I live in Oslo.", "I moved to Rome.", "I like figs.",
                                              "I don't like figs anymore.", "I travelled to Lima last week.",
                                              "I live in '}) DETACH DELETE n //.", "I like $x.",
                                              "I live in \u202eתל אביב.", "I like \x00."]),
                             st.text(min_size=1, max_size=40)),
        "chat_time": st.one_of(
            st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2030, 1, 1)).map(str),
            st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2030, 1, 1),
                         timezones=st.just(UTC)).map(lambda d: d.isoformat()),
            st.sampled_from(["294247-01-10", "0000-01-01", "1:56 pm on 8 May, 2023", "8 May", "yesterday", ""])),
    }, optional={"id": st.text(max_size=5), "actor": st.text(max_size=8)}),
    st.text(max_size=30),
), min_size=0, max_size=6)


@FUZZ
@given(messages=MESSAGES, approve=st.booleans())
def test_fuzz_ingest_is_all_or_nothing(tmp_path, messages, approve):
    from graphmem.ingest import ingest, read_messages

    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(m if isinstance(m, str) else json.dumps(m) for m in messages),
                    encoding="utf-8", errors="surrogatepass")
    with Store(":memory:", engine=ENGINE) as store:
        try:
            summary = ingest(store, read_messages(path), approve=approve)
        except GraphmemError as exc:
            assert str(exc)
            assert store.latest_write() is None  # refused before the first write
            return
        given_ = [m for m in messages if isinstance(m, dict)]  # blank lines are skipped
        assert summary.episodes == len(store.episodes()) == len(given_)
        assert sorted(e.text for e in store.episodes()) == sorted(m["content"] for m in given_)
        assert store.check() == []


def test_a_store_path_that_is_a_file_is_refused_as_bad_input(tmp_path):
    (tmp_path / "afile").write_text("not a store")
    for path in (tmp_path / "afile", tmp_path / "afile" / "sub"):
        with pytest.raises(InvalidInput, match="is a file"):
            Store(path, engine=ENGINE)
    assert (tmp_path / "afile").read_text() == "not a store"


def test_a_huge_message_found_by_search_is_shown_cut_short(tmp_path):
    store_dir = tmp_path / "store"
    with Store(store_dir, engine=ENGINE) as store:
        store.remember("I moved to Oslo. " + "snow " * 20_000, actor="Tom")
    shown = CliRunner().invoke(main, ["--store", str(store_dir), "--engine", ENGINE, "search", "oslo"])
    assert shown.exit_code == 0, shown.output
    assert "Oslo" in shown.output and len(shown.output.splitlines()) < 60 and "…" in shown.output


def test_the_review_queue_refuses_a_state_it_has_none_of(store):
    """proposals("APPROVED") or proposals("bogus") answered [] as if the queue were empty; "all" is None's word (the
    MCP tool's), and the states are named in the error."""
    store.propose("Ann", "lives_in", "Oslo")
    assert len(store.proposals("all")) == len(store.proposals(None)) == 1
    for state in ("APPROVED", "bogus", ""):
        with pytest.raises(InvalidInput, match="give one of pending, approved, rejected, all"):
            store.proposals(state)
