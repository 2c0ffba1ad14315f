"""The command line as a person meets it: tables that fit the terminal, times in the store's zone,
relative times in every time option, a bare ``graphmem``, usage errors, ISO times in messages."""

from __future__ import annotations

import ast
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.cli.layout import text_width
from graphmem.when import read_time
from tests.conftest import ENGINE

#: Checked in the default engine's pass only: how tables fit a terminal: rendering, above the engine.
pytestmark = pytest.mark.one_engine

ROOT = Path(__file__).resolve().parent.parent
LONG = "Maximiliana Konstantinopoulou-Featherstonehaugh"
QUOTE = ("Maximiliana told me, at some length and with a great many digressions about her cats and "
         "the weather, that she had moved to a small town on the far side of the mountains.")


def runner_for(store: Path):
    runner = CliRunner()

    def run(*args, ok=True, columns=None, env=None):
        extra = {**({"COLUMNS": str(columns)} if columns else {}), **(env or {})}
        result = runner.invoke(main, ["--store", str(store), "--engine", ENGINE, *args], env=extra,
                               catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result
    return run


@pytest.fixture(scope="module")
def wordy(tmp_path_factory):
    """A store with long names and long sentences, a history, an ending, a retraction and pending
    proposals (made once for the module; the tests only read it)."""
    gm = runner_for(tmp_path_factory.mktemp("wordy") / "store")
    gm("init", "--timezone", "Asia/Tokyo")
    gm("add", LONG, "lives_in", "Saint-Rémy-de-Provence-sur-la-Montagne-Noire", "--from", "2019-03-01",
       "--recorded-at", "2026-01-10", "--quote", QUOTE)
    gm("add", LONG, "lives_in", "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
       "--from", "2026-10-15T09:30", "--recorded-at", "2026-11-01", "--quote", QUOTE + " Again.")
    gm("add", LONG, "works_at", "The International Society of Extremely Long Organisation Names",
       "--recorded-at", "2026-11-02")
    gm("end", LONG, "works_at", "--at", "2026-11-03", "--recorded-at", "2026-11-04")
    gm("add", LONG, "likes", "tea", "--recorded-at", "2026-11-05")
    retracted = json.loads(gm("add", LONG, "likes", "coffee", "--recorded-at", "2026-11-06", "--json").stdout)
    gm("retract", retracted[0]["created"][0], "--reason", "she said so, and at some length: " + QUOTE,
       "--recorded-at", "2026-11-07")
    chat = tmp_path_factory.mktemp("chat") / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "I moved to Kyoto. " + QUOTE,
                                "chat_time": "2026-11-08T10:00:00Z"}) + "\n")
    gm("ingest", str(chat), "--user", LONG)
    return gm


TABLES = [
    ("history", LONG, "lives_in"), ("timeline", LONG), ("beliefs", "--valid-at", "all"),
    ("diff", "2026-01-01", "2026-12-01"), ("review", "list"), ("search", "where does Maximiliana live"),
    ("episodes",), ("show", "v1"), ("cypher", "MATCH (e:Entity) RETURN e.name AS name, e.id AS id"),
]


@pytest.mark.parametrize("columns", [80, 40, 200])
def test_tables_fit_the_terminal_and_keep_ids_whole(wordy, columns):
    ids = {v["id"] for v in json.loads(wordy("beliefs", "--valid-at", "all", "--as-of", "2026-11-06",
                                             "--json").stdout)}
    ids |= {v["id"] for v in json.loads(wordy("beliefs", "--valid-at", "all", "--json").stdout)}
    proposals = {p["id"] for p in json.loads(wordy("review", "list", "--json").stdout)}
    assert proposals and len(ids) >= 5
    for args in TABLES:
        text = wordy(*args, columns=columns).stdout
        wide = [line for line in text.splitlines() if text_width(line) > columns]
        assert not wide, (args, wide)
        tokens = set(re.findall(r"[\w-]+", text))
        if args[0] in ("history", "timeline", "beliefs", "show"):
            shown = ids & tokens
            assert shown, (args, text)  # ids appear, each whole: no "v1…" or a split "v1" / "2"
            assert not re.search(r"\bv\d*…", text), text
        if args[0] == "review":
            assert proposals <= tokens, text


def test_essential_columns_come_first_at_80_columns(wordy):
    lines = wordy("history", LONG, "lives_in", columns=80).stdout.splitlines()
    header = next(line for line in lines if line.startswith("id"))
    assert header.split()[:4] == ["id", "object", "valid", "status"]
    text = "\n".join(lines)
    assert "…" in text or "Llanfair" in text  # the long object is wrapped or cut, not squeezed to nothing
    assert "current" in text and "superseded" in text and "ended" in text


def test_the_review_queue_shows_each_proposed_fact_whole_at_80_columns(wordy):
    """A new user's trial: at 80 columns the fact being approved was cut ("assert Owen attende…") while an
    empty valid column kept its width; it wraps now."""
    [proposal] = json.loads(wordy("review", "list", "--json").stdout)
    tokens = set(re.findall(r"[\w-]+", wordy("review", "list", columns=80).stdout))
    for word in (proposal["subject"], proposal["predicate"], proposal["object"]):
        assert set(re.findall(r"[\w-]+", word)) <= tokens, word


def test_times_are_shown_in_the_stores_zone_and_utc_on_request(wordy):
    history = wordy("history", LONG, "lives_in").stdout
    assert "(times in Asia/Tokyo)" in history and "2026-10-15 09:30" in history
    utc = wordy("--utc", "history", LONG, "lives_in").stdout
    assert "(times in UTC)" in utc and "2026-10-15 00:30" in utc
    assert wordy("history", LONG, "lives_in", "--utc").stdout == utc  # after the command too
    for args in (["history", LONG, "lives_in"], ["--utc", "history", LONG, "lives_in"]):
        rows = json.loads(wordy(*args, "--json").stdout)  # JSON: UTC ISO, whatever is shown
        assert "2026-10-15T00:30:00Z" in {r["valid_from"] for r in rows}


def test_a_write_reports_its_time_in_iso_in_the_zone_or_utc(tmp_path):
    gm = runner_for(tmp_path / "s")
    gm("init", "--timezone", "Europe/Berlin")
    out = gm("add", "Ivan", "lives_in", "Prague", "--recorded-at", "2026-01-10").stdout
    assert out.startswith("ADD d1 at 2026-01-10T00:00:00+01:00;"), out
    out = gm("--utc", "add", "Ivan", "likes", "tea", "--recorded-at", "2026-01-11T12:00").stdout
    assert out.startswith("ADD d2 at 2026-01-11T11:00:00Z;"), out
    data = json.loads(gm("add", "Ivan", "likes", "jam", "--recorded-at", "2026-01-12", "--json").stdout)
    assert data[0]["at"] == "2026-01-11T23:00:00Z"
    why = gm("why", "Ivan", "lives_in", "--valid-at", "2026-01-10", "--as-of", "2026-01-09").stdout
    assert "2026-01-09T00:00:00+01:00" in why and "datetime" not in why


# -- relative times, every option family --------------------------------------------------------


def day(phrase: str) -> str:
    """The UTC day a phrase names now (the resolver of every option)."""
    return read_time(phrase, UTC, lambda: datetime.now(UTC)).date().isoformat()


@pytest.fixture
def recent(tmp_path):
    gm = runner_for(tmp_path / "s")
    gm("init")
    gm("add", "Ivan", "lives_in", "Prague", "--from", "3 weeks ago", "--recorded-at", "2 weeks ago")
    gm("add", "Ivan", "lives_in", "Berlin", "--from", "last tuesday", "--recorded-at", "yesterday")
    return gm


def test_relative_times_in_write_options(recent):
    rows = json.loads(recent("history", "Ivan", "lives_in", "--json").stdout)
    berlin = next(r for r in rows if r["object"] == "Berlin")
    assert berlin["valid_from"][:10] == day("last tuesday")
    assert berlin["recorded_at"][:10] == day("yesterday")
    prague = next(r for r in rows if r["object"] == "Prague" and r["status"] == "superseded")
    assert prague["recorded_at"][:10] == day("2 weeks ago")
    ended = json.loads(recent("end", "Ivan", "lives_in", "--at", "today", "--json").stdout)
    assert ended[0]["op"] == "END"
    seg = json.loads(recent("segment", "Ivan", "lives_in", "Munich", "--from", "16 days ago",
                            "--to", "15 days ago", "--json").stdout)
    assert seg[0]["op"] == "SEGMENT"


@pytest.mark.parametrize("args", [
    ["beliefs", "--as-of", "{p}"], ["beliefs", "--valid-at", "{p}"], ["timeline", "Ivan", "--as-of", "{p}"],
    ["diff", "{p}", "now"], ["why", "Ivan", "lives_in", "--valid-at", "{p}", "--as-of", "{p}", "--vs", "yesterday"],
    ["search", "Ivan", "--as-of", "{p}", "--after", "{p}", "--before", "now"],
    ["cypher", "MATCH (e:Entity) RETURN count(e) AS n", "--as-of", "{p}", "--valid-at", "{p}"],
    ["cypher", "RETURN $t1 AS t", "--param", "t1={p}"],
])
def test_relative_times_in_read_options_answer_as_the_same_iso_time(recent, args):
    phrase = "10 days ago"
    iso = read_time(phrase, UTC, lambda: datetime.now(UTC)).replace(second=0, microsecond=0)
    given = [a.replace("{p}", phrase) for a in args]
    same = [a.replace("{p}", iso.isoformat().replace("+00:00", "Z")) for a in args]
    relative, absolute = recent(*given, "--json").stdout, recent(*same, "--json").stdout
    if args[0] == "cypher" and "$t1" in args[1]:
        assert json.loads(relative)[0]["t"][:10] == iso.date().isoformat()
    else:  # nothing was written within the minute: the phrase and its ISO time answer alike
        assert relative == absolute


def test_relative_times_in_render_and_import_memories(recent, tmp_path):
    page = tmp_path / "p.html"
    recent("render", "evolution", "--since", "3 weeks ago", "--until", "today", "-o", str(page))
    assert page.exists()
    recent("render", "snapshot", "--as-of", "yesterday", "-o", str(page))
    memories = tmp_path / "m.txt"
    memories.write_text("User lives in Kyoto.\n")
    out = json.loads(recent("import-memories", str(memories), "--reference", "yesterday", "--json").stdout)
    assert out[0]["first"][:10] == day("yesterday")


@pytest.mark.parametrize("args", [
    ["beliefs", "--as-of", "soonish"], ["add", "Ivan", "likes", "tea", "--from", "soonish"],
    ["end", "Ivan", "lives_in", "--at", "soonish"], ["diff", "soonish", "now"],
    ["search", "Ivan", "--after", "soonish"], ["cypher", "RETURN 1 AS x", "--as-of", "soonish"],
])
def test_an_unreadable_time_is_a_one_line_error(recent, args):
    result = recent(*args, ok=False)
    assert result.exit_code != 0
    assert result.stderr.count("\n") == 1 and "soonish" in result.stderr, result.stderr
    assert "Traceback" not in result.output


# -- first contact --------------------------------------------------------------------------------


def test_bare_graphmem_prints_an_overview_and_exits_0(tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "nowhere")])
    assert result.exit_code == 0
    assert "graphmem init" in result.stdout and "not created yet" in result.stdout
    assert result.stderr == ""
    assert all(len(line) <= 80 for line in result.stdout.splitlines() if "nowhere" not in line)
    assert not (tmp_path / "nowhere").exists()


def test_a_missing_argument_shows_the_usage_line_with_the_error(tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "add", "Ivan"], prog_name="graphmem")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "Missing argument 'PREDICATE'" in lines[0] and "usage: graphmem add [OPTIONS] SUBJECT PREDICATE OBJECT" \
        in lines[0]


TIME_NAMES = re.compile(r"(^|_)(at|from|to|time|start|end|first|last|latest|since|until|as_of|vs|when)$")


def _datetime_in_fstrings(path: Path) -> list[str]:
    """f-string fields that print a time-like attribute or name as is (str or repr of a datetime)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FormattedValue) or node.format_spec is not None:
            continue
        value = node.value
        if node.conversion == ord("r") and isinstance(value, (ast.Name, ast.Attribute)) and \
                TIME_NAMES.search(getattr(value, "attr", getattr(value, "id", ""))):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: repr of a time")
        if isinstance(value, ast.Call) and getattr(value.func, "attr", "") == "isoformat":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .isoformat() (+00:00, not Z): use iso()")
            continue
        name = value.attr if isinstance(value, ast.Attribute) else value.id if isinstance(value, ast.Name) else ""
        if TIME_NAMES.search(name) and name not in {"t1", "t2"}:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {{{name}}}")
    return found


def test_no_message_prints_a_datetime_unformatted():
    """Times in messages go through output.when / iso: never str() or repr() of a datetime. (Names
    that hold the user's own text, such as a --from value, are allowed by name below.)"""
    allowed = {"graphmem/cli/render.py": {"as_of", "valid_at"}, "graphmem/cli/demo.py": {"as_of", "valid_at"}}
    found = []
    for path in [*(ROOT / "graphmem" / "cli").glob("*.py"), ROOT / "graphmem" / "errors.py",
                 ROOT / "graphmem" / "write" / "transaction.py", ROOT / "graphmem" / "_store.py",
                 ROOT / "graphmem" / "core" / "gate.py"]:
        names = allowed.get(str(path.relative_to(ROOT)), set())
        found += [f for f in _datetime_in_fstrings(path) if f.rsplit("{", 1)[1].rstrip("}") not in names]
    assert found == [], found


# -- the demo's diff and named queries at 80 columns ---------------------------------------------


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The store `graphmem demo` builds (times of day, an update, a correction with its reason, a
    segment), as a new user first meets it; the tests only read it."""
    directory = tmp_path_factory.mktemp("demo") / "demo"
    result = CliRunner().invoke(main, ["--engine", ENGINE, "demo", "--dir", str(directory)])
    assert result.exit_code == 0, result.output
    return runner_for(directory)


def _fits(text: str, columns: int) -> None:
    wide = [line for line in text.splitlines() if text_width(line) > columns]
    assert not wide, wide


def _broken_times(text: str) -> list[str]:
    """Date- or clock-like tokens that are not a whole date or clock: a time split across lines."""
    return [t for t in re.findall(r"(?<![\w:-])\d+[:-][\d:-]*", text)
            if not re.fullmatch(r"\d{4}-\d\d-\d\d|\d\d:\d\d(:\d\d)?", t)]


def test_the_diff_at_80_columns_shows_each_fact_whole_and_drops_the_reason_first(demo):
    for since in ("2026-01-01", "2026-10-31"):
        text = demo("diff", since, "now", columns=80).stdout
        _fits(text, 80)
        facts = {f"{c['subject']} {c['predicate']} {c['object']}"
                 for c in json.loads(demo("diff", since, "now", "--json").stdout)}
        assert "Ivan lives_in Berlin" in facts
        for fact in facts:  # the object shows: `Ivan lives_…` hid Berlin, Munich and Prague
            assert fact in text, (fact, text)
        header = next(line for line in text.splitlines() if line.startswith("at "))
        assert header.split()[:5] == ["at", "change", "believed", "id", "fact"], header  # not `believ…`
        assert "reason" not in header and "(valid, reason left out to fit 80 columns" in text
    wide = demo("diff", "2026-01-01", "now", columns=160).stdout
    assert "typing mistake for lost" in wide and "…" not in wide


@pytest.mark.parametrize("columns", [80, 40, 120])
def test_named_query_times_are_never_split_inside_a_date_or_a_clock(demo, columns):
    for args in (["snapshot", "--valid-at", "all"], ["fact_history", "--param", "subject=Ivan", "--param",
                 "predicate=lives_in"], ["changes", "--param", "t1=2026-01-01", "--param", "t2=now"],
                 ["episode_facts", "--param", "episode=ep6"]):
        text = demo("query", *args, columns=columns).stdout
        _fits(text, columns)
        assert not _broken_times(text), (args, _broken_times(text), text)
        for row in json.loads(demo("query", *args, "--json").stdout):
            for name in ("valid_from", "recorded_at", "at"):
                if row.get(name):  # each time whole on one line, its date and its clock
                    assert row[name][:10] in text.split(), (name, row[name], text)


def test_fact_history_stays_a_table_at_80_columns_with_its_sources_beneath(demo):
    text = demo("query", "fact_history", "--param", "subject=Ivan", "--param", "predicate=lives_in",
                columns=80).stdout
    _fits(text, 80)
    lines = text.splitlines()
    assert lines[1].split() == ["id", "object", "valid_from", "valid_to", "recorded_at", "superseded_at", "status"]
    assert not any(re.match(r"id\s+v\d", line) for line in lines)  # not one record per row
    assert "    sources: [\"chat: From October 1 to 14 I was in Munich, not Prague.\"]" in lines
    assert '    superseded_by: ["v15", "v16"]' in lines
    snapshot = demo("query", "snapshot", "--valid-at", "all", columns=80).stdout.splitlines()
    assert snapshot[1].split()[:4] == ["id", "subject", "predicate", "object"]
    changes = demo("query", "changes", "--param", "t1=2026-01-01", "--param", "t2=now", columns=120).stdout
    assert changes.splitlines()[1].split()[:3] == ["at", "op", "decision"]  # a table, with its reasons beneath
    assert "    reason: typing mistake for lost" in changes.splitlines()


@pytest.mark.parametrize("columns", [80, 40])
def test_query_list_fits_the_terminal(demo, columns):
    text = demo("query", "--list", columns=columns).stdout
    _fits(text, columns)
    assert "graphmem episodes`)" in text and "fact_history" in text
    wide = demo("query", "--list", columns=200).stdout.splitlines()  # a wide terminal: a line per query
    assert wide[0].startswith("changes        What started and stopped being believed after t1 up to t2, write by")
    assert wide[1] == "                 --param t1=… (time): the earlier transaction time (excluded)"


# -- no raw control character reaches the terminal -------------------------------------------------

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
HOSTILE = "evil \x1b]0;pwned\x07 \x1b]52;c;QUJD\x07 \x9b2J \r over"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A store holding text with terminal escape sequences (title, clipboard, C1 CSI, CR)."""
    store = tmp_path_factory.mktemp("hostile") / "store"
    gm = runner_for(store)
    gm("init")
    gm("add", "Ivan", "said", "something", "--quote", HOSTILE, "--recorded-at", "2026-01-10")
    return store, gm


@pytest.mark.parametrize("fmt", [[], ["--csv"], ["--json"]])
def test_query_output_never_writes_a_raw_control_character(hostile, fmt):
    _, gm = hostile
    out = gm("cypher", "MATCH (e:Episode) RETURN e.text AS text, [e.text] AS texts", *fmt).stdout
    assert not RAW_CONTROL.findall(out)
    assert "pwned" in out
    if fmt == ["--json"]:
        rows = json.loads(out)
        assert rows[0]["text"] == HOSTILE and rows[0]["texts"] == [HOSTILE]  # escaped, not lost
    else:
        assert "\\x1b]0;pwned\\x07" in out and "\\x9b2J" in out and "\\x0d over" in out


def test_show_and_export_to_stdout_escape_control_characters(hostile):
    _, gm = hostile
    for args in (["episodes"], ["episodes", "--json"], ["beliefs", "--json"], ["search", "something"]):
        assert not RAW_CONTROL.findall(gm(*args).stdout), args


def test_error_messages_never_echo_a_raw_control_character(hostile, tmp_path):
    store, gm = hostile
    for args in (["no-such-\x1b[2J-command"], ["history", "Ivan\x1b]0;x\x07", "said\x9b"],
                 ["beliefs", "--as-of", "\x1b[2Jyesterday"], ["cypher", "RETURN \x1b[31m"]):
        result = gm(*args, ok=False)
        assert result.exit_code != 0, args
        assert result.stderr.startswith("error: ") and not RAW_CONTROL.findall(result.stderr), (args, result.stderr)
        assert "\\x1b" in result.stderr or "\\x9b" in result.stderr, (args, result.stderr)


def test_import_errors_never_print_values_from_the_log_raw(tmp_path):
    log = tmp_path / "hostile.jsonl"
    log.write_text(json.dumps({"type": "graphmem", "format": 2, "engine": "kuzu", "timezone": "UTC"}) + "\n"
                   + json.dumps({"type": "\x1b]0;pwned\x07", "id": "\x9b2J"}) + "\n")
    result = runner_for(tmp_path / "store")("import", str(log), ok=False)
    assert result.exit_code != 0 and result.stderr.startswith("error: ")
    assert not RAW_CONTROL.findall(result.stderr) and "pwned" in result.stderr


def test_cypher_json_never_prints_nan_or_infinity(hostile):
    _, gm = hostile
    out = gm("cypher", "RETURN 1.0/0.0 AS up, -1.0/0.0 AS down, 0.0/0.0 AS nan, 1.5 AS plain", "--json").stdout

    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")
    assert json.loads(out, parse_constant=refuse) == [
        {"up": "Infinity", "down": "-Infinity", "nan": "NaN", "plain": 1.5}]


def test_the_cli_refuses_a_transaction_time_far_ahead_unless_allow_future(tmp_path):
    gm = runner_for(tmp_path / "store")
    gm("init")
    result = gm("add", "Ann", "likes", "tea", "--recorded-at", "9998-12-31", ok=False)
    assert result.exit_code == 1 and "more than a day past the wall clock" in result.stderr
    assert "--allow-future" in result.stderr and result.stderr.count("\n") == 1
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "I moved to Kyoto.", "chat_time": "9000-01-01"}) + "\n")
    result = gm("ingest", str(chat), "--replay", ok=False)
    assert result.exit_code == 1 and "past the wall clock" in result.stderr
    assert gm("episodes").stdout == "no episodes\n"
    gm("ingest", str(chat), "--replay", "--allow-future")
    gm("add", "Ann", "likes", "tea", "--recorded-at", "9001-01-01", "--allow-future")
    log = tmp_path / "log.jsonl"
    gm("export", str(log))
    again = runner_for(tmp_path / "again")
    result = again("import", str(log), ok=False)
    assert result.exit_code == 1 and "past the wall clock" in result.stderr
    again("import", str(log), "--allow-future")
