"""The Parquet log: round trips equal the JSON Lines round trip; a bad directory is refused whole,
naming the file and the row; a kill during the import leaves nothing or everything."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from graphmem import ImportFailed, InvalidInput, Store
from graphmem.cli import main
from graphmem.log.parquet import FILES, HEADER, schema_of
from tests.conftest import ENGINE, Clock


def full_store(clock: Clock) -> Store:
    """A store holding every record type: declared predicates, proposals (pending, rejected),
    a retraction, a later link, a purge."""
    store = Store(":memory:", engine=ENGINE, clock=clock)
    store.declare("mood", "one")
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", quote="Ivan lives in Prague.")
    clock.advance(days=1)
    store.add("Ivan", "lives_in", "Berlin", valid_from="2025-01-01")
    clock.advance(days=1)
    store.propose("Ivan", "likes", "tea", source="chat", quote="tea?")
    clock.advance(days=1)
    rejected = store.propose("Ivan", "likes", "coffee", source="chat", quote="coffee?")
    clock.advance(days=1)
    store.reject([rejected.id], reason="he said tea")
    clock.advance(days=1)
    wrong = store.add("Ivan", "mood", "sad")
    clock.advance(days=1)
    store.retract(wrong.created[0], reason="he was fine")
    clock.advance(days=1)
    store.add("Ivan", "lives_in", "Berlin", valid_from="2025-01-01", quote="Still in Berlin, yes.")  # a link
    clock.advance(days=1)
    gone = store.add_episode("forget this")
    clock.advance(days=1)
    store.purge("episode", gone.id)
    clock.advance(days=1)
    store.add("José", "traveled_to", "Ｌｉｍａ", valid_from="2025-03-01", quote="Hola \x00 'ñ' 😀")
    return store


def json_lines(store: Store, path: Path) -> list[dict]:
    store.export(path)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


@pytest.fixture
def exported(tmp_path, clock) -> tuple[Path, list[dict]]:
    """A Parquet export of the full store, and the store's own JSON Lines export."""
    with full_store(clock) as store:
        store.export(tmp_path / "log", format="parquet")
        return tmp_path / "log", json_lines(store, tmp_path / "source.jsonl")


def test_a_parquet_round_trip_equals_the_json_lines_round_trip(tmp_path, exported):
    directory, source = exported
    assert sorted(p.name for p in directory.iterdir()) == sorted([HEADER, *(f"{s}.parquet" for s in FILES.values())])
    with Store(":memory:", engine=ENGINE) as store:
        assert store.import_log(directory) == sum(1 for r in source if r["type"] not in ("meta",))
        assert store.check() == []
        via_parquet = json_lines(store, tmp_path / "via-parquet.jsonl")
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(tmp_path / "source.jsonl")
        via_json = json_lines(store, tmp_path / "via-json.jsonl")
    assert via_parquet == via_json == source


def test_the_files_hold_the_record_fields_with_utc_times_and_null_open_ends(exported):
    directory, source = exported
    versions = pq.read_table(directory / "versions.parquet")
    assert versions.schema == schema_of("version")
    assert versions.schema.field("valid_from").type == pa.timestamp("us", tz="UTC")
    open_ends = [r for r in source if r["type"] == "version" and r["valid_to"] is None]
    assert pc.sum(pc.is_null(versions.column("valid_to"))).as_py() == len(open_ends) > 0
    header = json.loads((directory / HEADER).read_text())
    assert header["format"] == 2 and header["layout"] == "parquet" and header["timezone"] == "UTC"
    assert header["rows"]["versions"] == versions.num_rows and header["meta"]["seq:v"]
    assert versions.column("id").to_pylist() == [r["id"] for r in source if r["type"] == "version"]


def test_a_generated_history_round_trips_exactly(tmp_path):
    from benchmarks.generate import generate, write_log

    write_log(generate(400, seed=3), tmp_path / "gen.jsonl")
    with Store(tmp_path / "a", engine=ENGINE) as store:
        store.import_log(tmp_path / "gen.jsonl")
        store.export(tmp_path / "gen", format="parquet")
        before = json_lines(store, tmp_path / "a.jsonl")
    with Store(tmp_path / "b", engine=ENGINE) as store:
        store.import_log(tmp_path / "gen")
        assert store.check() == []
        assert json_lines(store, tmp_path / "b.jsonl") == before


def test_an_export_refuses_a_directory_in_use_and_leaves_nothing_half_written(tmp_path, clock):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with full_store(clock) as store:
        with pytest.raises(InvalidInput, match="not an empty directory"):
            store.export(tmp_path / "busy", format="parquet")
        (tmp_path / "empty").mkdir()
        store.export(tmp_path / "empty", format="parquet")
        with pytest.raises(InvalidInput, match="jsonl or parquet"):
            store.export(tmp_path / "x", format="csv")
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["busy", "empty"]


# -- refusals ----------------------------------------------------------------------------------------


def rewrite(directory: Path, stem: str, change) -> None:
    """Replace a file's table by ``change(table)`` (the header's row count kept in step)."""
    path = directory / f"{stem}.parquet"
    table = change(pq.read_table(path))
    pq.write_table(table, path)
    header = json.loads((directory / HEADER).read_text())
    header["rows"][stem] = table.num_rows
    (directory / HEADER).write_text(json.dumps(header))


def set_value(column: str, row: int, value, type_=None):
    def change(table: pa.Table) -> pa.Table:
        values = table.column(column).to_pylist()
        values[row] = value
        index = table.column_names.index(column)
        return table.set_column(index, column, pa.array(values, type_ or table.schema.field(column).type))
    return change


def truncate(directory: Path) -> None:
    path = directory / "versions.parquet"
    path.write_bytes(path.read_bytes()[:-40])


def retype(directory: Path) -> None:
    rewrite(directory, "versions", lambda t: t.set_column(
        t.column_names.index("valid_from"), "valid_from", pc.cast(t.column("valid_from"), pa.string())))


def naive_times(directory: Path) -> None:
    rewrite(directory, "episodes", lambda t: t.set_column(
        t.column_names.index("received_at"), "received_at", t.column("received_at").cast(pa.timestamp("us"))))


def not_utf8(directory: Path) -> None:
    def change(table):
        texts = pa.array([b"fine", b"\xff\xfe broken"] + [b"x"] * (table.num_rows - 2), pa.binary())
        return table.set_column(table.column_names.index("text"), "text", texts.view(pa.string()))
    rewrite(directory, "episodes", change)


def row_count(directory: Path) -> None:
    rewrite(directory, "decisions", lambda t: t.slice(0, t.num_rows - 1))
    header = json.loads((directory / HEADER).read_text())
    header["rows"]["decisions"] += 1
    (directory / HEADER).write_text(json.dumps(header))


TIME = pa.timestamp("us", tz="UTC")
BAD = {
    "missing file": (lambda d: (d / "decisions.parquet").unlink(), "decisions.parquet is missing"),
    "missing header": (lambda d: (d / HEADER).unlink(), "graphmem.json is missing"),
    "header not json": (lambda d: (d / HEADER).write_text("{oops"), "graphmem.json: not a graphmem header"),
    "other format": (lambda d: (d / HEADER).write_text(json.dumps({"type": "graphmem", "format": 9})),
                     "format 9"),
    "truncated": (truncate, "versions.parquet: not a readable Parquet file"),
    "wrong type": (retype, "versions.parquet: column 'valid_from' is string"),
    "no zone": (naive_times, "episodes.parquet: column 'received_at' is timestamp[us]"),
    "dropped column": (lambda d: rewrite(d, "versions", lambda t: t.drop_columns(["recorded_at"])),
                       "versions.parquet: column 'recorded_at' is missing"),
    "rows cut": (row_count, "decisions.parquet holds"),
    "bad id": (lambda d: rewrite(d, "versions", set_value("id", 1, "v1; DROP")),
               "versions.parquet:row 2: version id 'v1; DROP' is not of the form v<number>"),
    "null required": (lambda d: rewrite(d, "versions", set_value("recorded_at", 2, None)),
                      "versions.parquet:row 3: version recorded_at is missing"),
    "far future": (lambda d: rewrite(d, "episodes", set_value("reference_time", 0, datetime(9999, 6, 1, tzinfo=UTC))),
                   "episodes.parquet:row 1: episode reference_time: time 9999-06-01T00:00:00Z is out of range"),
    "far past": (lambda d: rewrite(d, "decisions", set_value("at", 0, datetime(1, 1, 1, tzinfo=UTC))),
                 "decisions.parquet:row 1: decision at: time 0001-01-01T00:00:00Z is out of range"),
    "unknown op": (lambda d: rewrite(d, "decisions", set_value("op", 0, "DETONATE")),
                   "decisions.parquet:row 1: decision op 'DETONATE' is not one of"),
    "bad predicate": (lambda d: rewrite(d, "versions", set_value("predicate", 0, "lives in")),
                      "versions.parquet:row 1: version predicate 'lives in' is not a valid name"),
    "bad declaration": (lambda d: rewrite(d, "predicates", set_value("kind", 0, "sometimes")),
                        "predicates.parquet:row 1: predicate kind 'sometimes'"),
    "null item": (lambda d: rewrite(d, "versions", set_value("episodes", 0, [None])),
                  "versions.parquet:row 1: version episodes holds a missing item"),
    "negative count": (lambda d: rewrite(d, "tombstones", set_value("entities", 0, -1)),
                       "tombstones.parquet:row 1: tombstone entities: -1 is out of range"),
    "not utf8": (not_utf8, "episodes.parquet:row 2: episode text is not UTF-8"),
    "duplicate id": (lambda d: rewrite(d, "entities", lambda t: pa.concat_tables([t, t.slice(0, 1)])),
                     "is already taken"),
    "unsound": (lambda d: rewrite(d, "versions", set_value("episodes", 0, ["ep999"])),
                "versions.parquet:row 1: the log is not sound: episode-link: v1 cites episode ep999"),
    "stray entity": (lambda d: rewrite(d, "versions", set_value("object_id", 0, "nobody")),
                     "versions.parquet:row 1: version v1 links an entity that the log does not hold"),
    # Prague (v2) ends when Berlin (v3) begins, 2025-01-01: a microsecond earlier, or no end, overlaps
    "overlap by a microsecond": (lambda d: rewrite(d, "versions", set_value(
        "valid_from", 2, datetime(2024, 12, 31, 23, 59, 59, 999999, tzinfo=UTC))),
        "versions.parquet:row 3: the log is not sound: one-value: ivan lives_in: v2 and v3 overlap, both believed "
        "at 2026-01-02 00:00:00+00:00; nothing was written"),
    "overlap, open": (lambda d: rewrite(d, "versions", set_value("valid_to", 1, None)),
                      "versions.parquet:row 3: the log is not sound: one-value: ivan lives_in: v2 and v3 overlap"),
    "two faults, the first named": (lambda d: (rewrite(d, "versions", set_value("valid_to", 1, None)),
                                               rewrite(d, "versions", set_value("episodes", 3, ["ep999"]))),
                                    "versions.parquet:row 4: the log is not sound: episode-link: v4 cites episode "
                                    "ep999, which does not exist (and 1 more)"),
}


@pytest.mark.parametrize("damage", sorted(BAD))
def test_a_bad_directory_is_refused_in_one_line_and_nothing_is_written(tmp_path, exported, damage):
    directory, _ = exported
    spoil, message = BAD[damage]
    spoil(directory)
    with Store(tmp_path / "target", engine=ENGINE) as store:
        with pytest.raises(ImportFailed) as caught:
            store.import_log(directory)
        text = str(caught.value)
        assert message in text and "\n" not in text, text
        assert store.latest_write() is None and store.entities() == [] and store.versions() == []
        assert not (tmp_path / "target" / "import.pending").exists()


def test_ids_are_written_plain_and_repeated_text_dictionary_encoded(exported):
    """A column of ids gains nothing from a dictionary and is read several times faster without
    one; a column whose values repeat (at most half of them distinct) is dictionary-encoded."""
    directory, _ = exported
    metadata = pq.ParquetFile(directory / "versions.parquet").metadata
    encoded = {metadata.schema.column(j).path: metadata.row_group(0).column(j).has_dictionary_page
               for j in range(metadata.num_columns)}
    assert not encoded["id"] and not encoded["superseded_by.list.element"]  # v2, v3
    assert encoded["subject_id"] and encoded["supersedes.list.element"]  # ivan (4), josé; v1, v1


@pytest.mark.parametrize("dictionary", [True, False])
def test_a_log_written_with_other_encodings_imports_the_same(tmp_path, exported, dictionary):
    """Every text column dictionary-encoded (as exports before 2026-12 and most writers do), or
    none: the same records."""
    directory, source = exported
    for stem in FILES.values():
        path = directory / f"{stem}.parquet"
        pq.write_table(pq.read_table(path), path, use_dictionary=dictionary)
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(directory)
        assert json_lines(store, tmp_path / "again.jsonl") == source


def test_an_import_into_a_store_that_holds_the_same_records_is_refused(tmp_path, exported):
    directory, _ = exported
    with Store(tmp_path / "target", engine=ENGINE) as store:
        store.import_log(directory)
        before = store.decisions()
        with pytest.raises(ImportFailed, match="is not after this store's latest write"):
            store.import_log(directory)
        assert store.decisions() == before and store.check() == []


def test_an_import_whose_ids_are_taken_is_refused_naming_the_row(tmp_path, exported):
    directory, source = exported
    with Store(tmp_path / "target", engine=ENGINE) as store:
        store.add("Early", "likes", "scones", recorded_at="2000-01-01")
        with pytest.raises(ImportFailed, match=r"decisions.parquet:row 1: decision id 'd1' is already taken"):
            store.import_log(directory)
        assert len(store.versions()) == 1 and store.check() == []


def test_the_cli_exports_and_imports_a_directory(tmp_path, exported):
    directory, source = exported
    runner = CliRunner()

    def gm(*args, store="store"):
        return runner.invoke(main, ["--store", str(tmp_path / store), "--engine", ENGINE, *args])

    result = gm("import", str(directory))
    assert result.exit_code == 0, result.output
    assert "imported" in result.stdout
    result = gm("export", "--format", "parquet", str(tmp_path / "again"))
    assert result.exit_code == 0, result.output
    again = gm("import", str(tmp_path / "again"), store="copy")
    assert again.exit_code == 0, again.output
    beliefs = [gm("beliefs", "--valid-at", "all", "--json", store=s).stdout for s in ("store", "copy")]
    assert beliefs[0] == beliefs[1] and json.loads(beliefs[0])
    (tmp_path / "again" / "versions.parquet").write_bytes(b"PAR1 nonsense")
    bad = gm("import", str(tmp_path / "again"), store="third")
    assert bad.exit_code == 1 and bad.stderr.count("\n") == 1 and "versions.parquet" in bad.stderr
    skip = gm("import", str(directory), "--skip-bad", store="fourth")
    assert skip.exit_code == 1 and "JSON Lines" in skip.stderr
    busy = gm("export", "--format", "parquet", str(directory))
    assert busy.exit_code == 1 and "not an empty directory" in busy.stderr


def test_a_kill_during_a_parquet_import_leaves_nothing_or_everything(tmp_path):
    from tests.test_crash import big_log, kill_during
    from tests.test_crash import exported as exported_lines

    log = big_log(tmp_path / "big.jsonl", 1500)
    with Store(tmp_path / "source", engine=ENGINE) as store:
        store.import_log(log)
        store.export(tmp_path / "big", format="parquet")
    full = exported_lines(tmp_path / "source", tmp_path / "full.jsonl")
    for n, hook in enumerate(["copy", "settings", None]):
        directory = tmp_path / f"store{n}"
        Store(directory, engine=ENGINE).close()
        empty = exported_lines(directory, tmp_path / "empty.jsonl")
        what = kill_during({"store": directory, "do": "import", "log": tmp_path / "big", "hook": hook},
                           delay=None if hook else 0.8)
        after = exported_lines(directory, tmp_path / f"after{n}.jsonl")
        assert after in (empty, full), f"{hook or 'a kill at 0.8 s'} ({what}): a partial import survived"
        if hook == "copy":
            assert after == empty
        if hook == "settings":
            assert after == full  # opening the store finished the import
    shutil.rmtree(tmp_path / "store0")
    with Store(tmp_path / "store0", engine=ENGINE) as store:  # and it can simply be run again
        store.import_log(tmp_path / "big")
    assert exported_lines(tmp_path / "store0", tmp_path / "again.jsonl") == full


def test_a_relationship_table_is_copied_grouped_by_source_in_the_order_nodes_were_copied():
    from graphmem.log.jsonl import _in_copy_order

    nodes = pa.table({"id": ["b", "a", "c"], "name": ["B", "A", "C"], "kind": ["x", "x", "x"]})
    facts = pa.table({"from": ["c", "a", "old", "b", "a", "c"], "to": ["a", "b", "c", "a", "c", "b"],
                      "id": ["v1", "v2", "v3", "v4", "v5", "v6"]})
    ordered = _in_copy_order("Fact", facts, {"Entity": nodes, "Fact": facts})
    # a source already stored ("old") first, then b, a, c as the nodes were copied; ties as given
    assert ordered.column("id").to_pylist() == ["v3", "v4", "v2", "v5", "v1", "v6"]
    assert ordered.sort_by("id").equals(facts)
    assert _in_copy_order("Entity", nodes, {"Entity": nodes}) is nodes
    assert _in_copy_order("Fact", facts, {"Fact": facts}) is facts  # no nodes copied: as given


def test_a_bulk_load_sets_the_engines_threads_back_afterwards():
    with Store(":memory:", engine=ENGINE) as store:
        engine = store._db
        threads = "CALL current_setting('threads') RETURN *"
        before = engine.run_text(threads, {})
        with engine.bulk_load():
            during = engine.run_text(threads, {})
        assert engine.run_text(threads, {}) == before
        if engine.copy_threads is not None:
            assert during == [[str(engine.copy_threads)]]


def test_an_unsound_log_checked_beside_the_copies_is_undone_and_the_store_takes_a_sound_one(tmp_path, exported):
    directory, source = exported
    good = tmp_path / "good"
    shutil.copytree(directory, good)
    never_ending = pa.nulls(len(source), pa.timestamp("us", tz="UTC"))  # a fault only the invariants see
    rewrite(directory, "versions", lambda t: t.set_column(
        t.schema.get_field_index("valid_to"), "valid_to", never_ending.slice(0, t.num_rows)))
    for target in (tmp_path / "target", ":memory:"):
        with Store(target, engine=ENGINE) as store:
            with pytest.raises(ImportFailed, match="the log is not sound: one-value"):
                store.import_log(directory)
            assert store.versions() == [] and store.latest_write() is None
            assert store.import_log(good) == sum(1 for r in source if r["type"] != "meta")
            assert store.check() == []


def test_an_import_allocates_from_the_system_pool_and_puts_arrows_default_back(tmp_path, exported, monkeypatch):
    from graphmem.log import parquet

    directory, source = exported
    seen = []
    read_log = parquet.read_log
    monkeypatch.setattr(parquet, "read_log", lambda *a: seen.append(pa.default_memory_pool().backend_name)
                        or read_log(*a))
    before = pa.default_memory_pool().backend_name
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)
    with Store(":memory:", engine=ENGINE) as store:
        bad = tmp_path / "bad"
        shutil.copytree(directory, bad)
        (bad / "links.parquet").unlink()
        with pytest.raises(ImportFailed, match="links.parquet is missing"):
            store.import_log(bad)
        assert pa.default_memory_pool().backend_name == before  # put back after a refusal too
        assert store.import_log(directory) == sum(1 for r in source if r["type"] != "meta")
        assert store.check() == []
    assert seen == ["system", "system"] and pa.default_memory_pool().backend_name == before
    monkeypatch.setenv("ARROW_DEFAULT_MEMORY_POOL", before)  # a pool the user picked is left alone
    with Store(":memory:", engine=ENGINE) as store:
        store.import_log(directory)
    assert seen[-1] == before
