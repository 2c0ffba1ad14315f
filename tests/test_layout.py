"""graphmem.cli.layout: tables that fit a width, whatever the text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.cli.layout import Column, clean, cut, table, text_width, wrap

pytestmark = pytest.mark.engine_free

WORDS = st.text(alphabet=st.sampled_from("abcdefghij  é漢字-→…\n"), max_size=60)
COLUMNS = [Column("id", "keep"), Column("what", "wrap", least=8), Column("valid", "parts"),
           Column("status", "cut", least=6), Column("believed", "parts", optional=True)]


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.from_regex(r"v[0-9]{1,5}", fullmatch=True), WORDS,
                               st.tuples(WORDS, WORDS), WORDS, st.tuples(WORDS, WORDS)), max_size=5),
       width=st.integers(min_value=12, max_value=220), header=st.booleans())
def test_every_line_fits_and_ids_stay_whole(rows, width, header):
    laid = table(COLUMNS, [list(r) for r in rows], width, header=header)
    assert all(text_width(line) <= width for line in laid.lines), laid.lines
    text = "\n".join(laid.lines)
    for row in rows:
        assert row[0] in text.split() or f"id  {row[0]}" in text or any(
            line.split()[:1] == [row[0]] for line in laid.lines)


def test_optional_columns_go_first_then_rows_become_records():
    rows = [["v1", "Ivan lives_in Prague", ("2020-01-01", "→ open"), "current", ("2026-01-10", "→ open")]]
    wide = table(COLUMNS, rows, 120)
    assert wide.left_out == [] and wide.lines[0].split() == ["id", "what", "valid", "status", "believed"]
    narrow = table(COLUMNS, rows, 40)
    assert narrow.left_out == ["believed"] and "believed" not in narrow.lines[0]
    records = table(COLUMNS, rows, 24)
    assert records.left_out == [] and records.lines[1].split() == ["id", "v1"]  # every column, a line each
    assert any(line.startswith("believed") for line in records.lines)


def test_cut_and_wrap_mark_what_they_drop():
    assert cut("Konstantinopoulou", 8) == "Konstan…" and cut("short", 8) == "short"
    assert cut("漢字漢字漢字", 5) == "漢字…" and text_width(cut("漢字漢字漢字", 5)) <= 5
    assert wrap("one two three four five", 9) == ["one two", "three", "four five"]
    assert wrap("one two three four five six seven", 9, most_lines=2)[-1].endswith("…")
    assert clean("a\x1b[31mred") == "a\\x1b[31mred"


@settings(max_examples=300, deadline=None)
@given(text=WORDS, width=st.integers(min_value=1, max_value=40), fit=st.sampled_from(["wrap", "cut", "keep"]),
       most_lines=st.sampled_from([None, 1, 2]))
def test_a_cell_that_fits_on_one_line_is_laid_out_as_wrapping_or_cutting_would(text, width, fit, most_lines):
    """Cells that fit take a short way; it must give what the long way gives."""
    from graphmem.cli.layout import _cell_lines

    column = Column("c", fit, most_lines=most_lines)
    slow = wrap(text, width, most_lines) if fit == "wrap" else [cut(line, width) for line in text.split("\n")]
    assert _cell_lines(text, column, width) == slow


# -- essential text first, times whole, long text beneath ---------------------------------------------

DIFF = [Column("at", "keep"), Column("change", "keep"), Column("believed", "keep"), Column("id", "keep"),
        Column("fact", least=12), Column("valid", "parts", optional=True),
        Column("reason", "wrap", least=10, optional=True)]
DIFF_ROWS = [["2026-11-01 09:00:00", "updated", "started", "v13", "Ivan lives_in Prague",
              ("2020-01-01", "→ 2026-10-15"), ""],
             ["2026-11-01 09:00:00", "updated", "started", "v14", "Ivan lives_in Berlin", ("2026-10-15", "→ open"), ""],
             ["2026-06-01 09:00:00", "corrected", "stopped", "v10", "Acme lead status cold",
              ("2026-04-20", "→ open"), "typing mistake for lost"]]


def test_an_optional_column_goes_before_an_essential_column_is_cut_or_a_header_shortened():
    """`graphmem diff` at 80 columns once showed `Ivan lives_…` under a `believ…` header while
    keeping the optional reason: the essential text and headers come first."""
    for rows, left_out in ((DIFF_ROWS, ["valid", "reason"]), (DIFF_ROWS[:2], ["reason"])):
        laid = table(DIFF, rows, 80)
        text = "\n".join(laid.lines)
        assert all(text_width(line) <= 80 for line in laid.lines), laid.lines
        assert "Ivan lives_in Prague" in text and "Ivan lives_in Berlin" in text and "…" not in text, text
        assert laid.lines[0].split()[:5] == ["at", "change", "believed", "id", "fact"]  # headers whole
        assert laid.left_out == left_out  # optional: the reason goes first, the period too if the fact needs it
    wide = table(DIFF, DIFF_ROWS, 120)
    assert wide.left_out == [] and "typing mistake for lost" in "\n".join(wide.lines)


def test_an_essential_text_too_long_for_any_width_leaves_no_room_to_optional_columns():
    long = [[*DIFF_ROWS[1][:4], "Maximiliana Konstantinopoulou-Featherstonehaugh lives_in Llanfairpwllgwyngyll",
             *DIFF_ROWS[1][5:]]]
    laid = table(DIFF, long, 80)
    assert laid.left_out == ["valid", "reason"]  # what room there is goes to the fact
    assert laid.lines[2].endswith("Maximiliana Konstantinopoulou-Feat…") and text_width(laid.lines[2]) == 80


def test_parts_share_a_line_as_far_as_they_fit_and_are_never_broken():
    from graphmem.cli.layout import _cell_lines

    column = Column("t", "parts")
    assert _cell_lines(("2026-04-20", "10:00"), column, 16) == ["2026-04-20 10:00"]
    assert _cell_lines(("2026-04-20", "10:00"), column, 10) == ["2026-04-20", "10:00"]
    assert _cell_lines(("Acme lead", "status", "warm"), column, 16) == ["Acme lead status", "warm"]
    times = [Column("id", "keep"), Column("name", "wrap", least=4), Column("from", "parts"), Column("to", "parts"),
             Column("recorded_at", "parts")]
    rows = [["v9", "Acme lead", ("2026-03-01",), ("2026-04-20", "09:00"), ("2026-05-01", "09:00:00")]] * 3
    for width in (34, 40, 48, 60):
        laid = table(times, rows, width)
        assert all(text_width(line) <= width for line in laid.lines), laid.lines
        broken = [t for line in laid.lines for t in re.findall(r"[\w:-]*\d[\w:-]*", line)
                  if not re.fullmatch(r"\d{4}-\d\d-\d\d|\d\d:\d\d(:\d\d)?|v9", t)]
        assert not broken, laid.lines


def test_a_beneath_column_moves_under_its_row_when_the_table_cannot_hold_it():
    columns = [Column("id", "keep"), Column("object", "keep"), Column("status", "keep"),
               Column("sources", "wrap", least=20, beneath=True)]
    rows = [["v16", "Munich", "ended", '["chat: From October 1 to 14 I was in Munich, not Prague."]'],
            ["v14", "Berlin", "current", ""]]
    wide = table(columns, rows, 120)
    assert wide.lines[0].split() == ["id", "object", "status", "sources"] and len(wide.lines) == 4
    narrow = table(columns, rows, 40)
    assert narrow.lines[0].split() == ["id", "object", "status"] and narrow.left_out == []
    assert narrow.lines[2].split() == ["v16", "Munich", "ended"]
    assert narrow.lines[3] == '    sources: ["chat: From October 1 to'  # wrapped beneath, indented
    assert not any("sources:" in line for line in narrow.lines[5:])  # an empty value prints nothing
    assert all(text_width(line) <= 40 for line in narrow.lines)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(WORDS, st.tuples(WORDS, WORDS, WORDS), WORDS, WORDS), max_size=4),
       width=st.integers(min_value=12, max_value=160))
def test_every_line_fits_with_parts_and_beneath_columns(rows, width):
    columns = [Column("what", "cut", least=8), Column("when", "parts"), Column("note", "wrap", least=6, optional=True),
               Column("long", "wrap", least=20, beneath=True)]
    laid = table(columns, [list(r) for r in rows], width)
    assert all(text_width(line) <= width for line in laid.lines), laid.lines
