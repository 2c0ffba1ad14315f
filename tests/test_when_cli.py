"""`graphmem when`: the time expressions in a sentence, each resolved against a reference time."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.ingest import reference_time

pytestmark = pytest.mark.engine_free

#: A Friday.
REFERENCE = "2026-05-08T10:00:00Z"


def when(*args, code=0):
    result = CliRunner().invoke(main, ["when", *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def spans(*args):
    return json.loads(when(*args, "--json").stdout)


@pytest.mark.parametrize(("phrase", "start", "end", "granularity"), [
    ("last week", "2026-04-27", "2026-05-04", "week"),
    ("this week", "2026-05-04", "2026-05-11", "week"),
    ("yesterday", "2026-05-07", "2026-05-08", "day"),
    ("tomorrow", "2026-05-09", "2026-05-10", "day"),
    ("3 days ago", "2026-05-05", "2026-05-06", "day"),
    ("two years ago", "2024-01-01", "2025-01-01", "year"),
    ("last October", "2025-10-01", "2025-11-01", "month"),
    ("in March", "2026-03-01", "2026-04-01", "month"),
    ("next Sunday", "2026-05-10", "2026-05-11", "day"),
    ("this weekend", "2026-05-09", "2026-05-11", "weekend"),
    ("from October 1 to 14", "2025-10-01", "2025-10-15", "range"),
    ("since 2019", "2019-01-01", None, "year"),
    ("1:56 pm on 8 May, 2023", "2023-05-08T13:56", "2023-05-08T13:57", "instant"),
    ("the Sunday before 25 May 2023", "2023-05-21", "2023-05-22", "day"),
    ("2025-09-12", "2025-09-12", "2025-09-13", "day"),
])
def test_each_phrase_resolves_to_its_period(phrase, start, end, granularity):
    def z(text):
        return None if text is None else (text if "T" in text else text + "T00:00") + ":00Z"

    (span,) = spans(f"I said it {phrase}.", "--reference", REFERENCE)
    text = phrase.removeprefix("in ")  # "in" only licenses a bare month name; it is not part of it
    assert span == {"text": text, "from": z(start), "to": z(end), "granularity": granularity}


def test_several_expressions_in_order_of_appearance():
    found = spans("I moved to Berlin last October and travelled to Hangzhou last week.",
                  "--reference", REFERENCE)
    assert [(s["text"], s["from"]) for s in found] == [
        ("last October", "2025-10-01T00:00:00Z"), ("last week", "2026-04-27T00:00:00Z")]


def test_relative_phrases_follow_the_reference():
    assert spans("last October", "--reference", "2025-03-08")[0]["from"] == "2024-10-01T00:00:00Z"
    assert spans("last October", "--reference", "2025-12-01")[0]["from"] == "2025-10-01T00:00:00Z"


def test_reference_in_chat_time_formats():
    for reference in ("2023-05-08 13:56:00", "1:56 pm on 8 May, 2023", "2023-05-08T13:56:00Z"):
        assert spans("yesterday", "--reference", reference)[0]["from"] == "2023-05-07T00:00:00Z"


def test_day_first_and_timezone():
    assert spans("05/08/2023", "--reference", REFERENCE)[0]["from"] == "2023-05-08T00:00:00Z"
    assert spans("05/08/2023", "--reference", REFERENCE, "--day-first")[0]["from"] == "2023-08-05T00:00:00Z"
    local = spans("yesterday", "--reference", "2023-05-08 13:56", "--timezone", "Asia/Shanghai")[0]
    assert (local["from"], local["to"]) == ("2023-05-06T16:00:00Z", "2023-05-07T16:00:00Z")


def test_no_expression_is_an_empty_list():
    assert spans("May I ask you something?", "--reference", REFERENCE) == []
    assert when("May I ask you something?", "--reference", REFERENCE).stdout == "no time expressions found\n"


def test_plain_output_lists_text_period_and_granularity():
    lines = when("since 2019, and last week", "--reference", REFERENCE).stdout.splitlines()
    assert lines == [
        "since 2019  2019-01-01T00:00:00Z → open                  year",
        "last week   2026-04-27T00:00:00Z → 2026-05-04T00:00:00Z  week",
    ]


def test_reference_defaults_to_now():
    (span,) = spans("today")
    assert span["from"] == datetime.now(UTC).strftime("%Y-%m-%dT00:00:00Z")


@pytest.mark.parametrize(("args", "problem"), [
    (["--reference", "soon"], "cannot read 'soon'"),
    (["--reference", "8 May"], "missing"),
    (["--reference", REFERENCE, "--timezone", "Mars/Base"], "unknown time zone"),
])
def test_bad_input_is_one_line_and_exit_1(args, problem):
    result = when("last week", *args, code=1)
    assert problem in result.stderr and result.stderr.count("\n") == 1 and result.stdout == ""


def test_reference_time_function():
    assert reference_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert reference_time("2023-05-08 13:56", tz="Asia/Shanghai") == datetime(2023, 5, 8, 5, 56, tzinfo=UTC)
    assert abs((reference_time("now") - datetime.now(UTC)).total_seconds()) < 60


def test_a_phrase_outside_the_supported_years_is_reported():
    assert spans("I moved to Oslo 2030 years ago.", "--reference", REFERENCE) == [{
        "text": "2030 years ago", "from": None, "to": None, "granularity": None,
        "problem": "outside the supported years (1 to 9998)"}]
    assert "outside the supported years" in when("Oslo, 2030 years ago", "--reference", REFERENCE).stdout
