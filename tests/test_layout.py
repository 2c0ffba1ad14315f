"""graphmem.layout: tables that fit a width, whatever the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.layout import Column, clean, cut, table, text_width, wrap

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
    from graphmem.layout import _cell_lines

    column = Column("c", fit, most_lines=most_lines)
    slow = wrap(text, width, most_lines) if fit == "wrap" else [cut(line, width) for line in text.split("\n")]
    assert _cell_lines(text, column, width) == slow
