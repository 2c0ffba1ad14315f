"""Scoring extractors and the time resolver on labelled sets; the development sets' targets."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import InvalidInput
from graphmem.evaluation import (
    Tally,
    read_extraction_set,
    read_when_set,
    score_extraction,
    score_when,
)
from graphmem.extract_rules import ExtractedFact, RuleExtractor

pytestmark = pytest.mark.engine_free

DATA = Path(__file__).resolve().parent / "data"
EXTRACTION_SETS = sorted((DATA / "extraction").glob("*.jsonl"))
WHEN_SETS = sorted((DATA / "when").glob("*.jsonl"))


def line(**fields) -> str:
    return json.dumps(fields)


def case(text, facts, chat_time="2025-06-10T09:00:00Z", id_="c1"):
    return line(id=id_, text=text, chat_time=chat_time, speaker="user", facts=facts)


def fact(op, subject, predicate, obj, valid_from=None, valid_to=None):
    return {"op": op, "subject": subject, "predicate": predicate, "object": obj,
            "valid_from": valid_from, "valid_to": valid_to}


class Fixed:
    """An extractor that answers from a table: the facts it is given for each text."""

    name = "fixed"

    def __init__(self, answers):
        self.answers = answers

    def extract(self, text, *, reference_time, speaker="user"):
        return [ExtractedFact(quote=text, **f) for f in self.answers.get(text, [])]


# --- the development sets hold their targets --------------------------------------------------

def test_the_extraction_development_set_meets_its_targets():
    score = score_extraction(read_extraction_set(DATA / "extraction" / "dev.jsonl"),
                             RuleExtractor())
    assert score.cases >= 220
    for match in (score.strict, score.loose):
        overall = match["overall"]
        assert overall.precision >= 0.95 and overall.recall >= 0.85, overall


def test_the_time_development_set_meets_its_target():
    cases = read_when_set(DATA / "when" / "dev.jsonl")
    right, total = score_when(cases).accuracy()
    assert total >= 140 and right / total >= 0.90


@pytest.mark.parametrize("path", EXTRACTION_SETS, ids=lambda p: p.name)
def test_every_extraction_set_is_well_formed_and_scores(path):
    score = score_extraction(read_extraction_set(path), RuleExtractor())
    assert score.strict["overall"].right <= score.loose["overall"].right


@pytest.mark.parametrize("path", WHEN_SETS, ids=lambda p: p.name)
def test_every_time_set_is_well_formed_and_scores(path):
    cases = read_when_set(path)
    assert all(c.phrase in c.text for c in cases)
    assert score_when(cases).accuracy()[1] == len(cases)


# --- scoring ----------------------------------------------------------------------------------

def test_loose_and_strict_matches(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join([
        case("I moved to Lisbon in March.",
             [fact("assert", "user", "lives_in", "Lisbon", "2025-03-01T00:00:00Z")], id_="a"),
        case("I love jazz and opera.",
             [fact("assert", "user", "likes", "jazz"), fact("assert", "user", "likes", "opera")],
             id_="b"),
        case("Should I quit?", [], id_="c"),
    ]) + "\n")
    answers = {
        # right object, wrong start: loose right, strict wrong
        "I moved to Lisbon in March.": [dict(subject="USER", predicate="lives_in",
                                             object="lisbon ", valid_from=datetime(2025, 4, 1,
                                                                                   tzinfo=UTC))],
        "I love jazz and opera.": [dict(subject="user", predicate="likes", object="Jazz")],
        "Should I quit?": [dict(op="end", subject="user", predicate="works_at", object=None)],
    }
    score = score_extraction(read_extraction_set(path), Fixed(answers))
    assert score.loose["lives_in"] == Tally(right=1)
    assert score.strict["lives_in"] == Tally(wrong=1, missed=1)
    assert score.loose["likes"] == Tally(right=1, missed=1)
    assert score.loose["works_at"] == Tally(wrong=1)
    overall = score.loose["overall"]
    assert (overall.right, overall.wrong, overall.missed) == (2, 1, 1)
    assert overall.precision == pytest.approx(2 / 3) and overall.recall == pytest.approx(2 / 3)
    assert [e.id for e in score.errors] == ["a", "b", "c"]
    assert Tally().precision == 1.0 and Tally().recall == 1.0


def test_a_fact_matches_once(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text(case("I like tea.", [fact("assert", "user", "likes", "tea")]) + "\n")
    twice = {"I like tea.": [dict(subject="user", predicate="likes", object="tea")] * 2}
    score = score_extraction(read_extraction_set(path), Fixed(twice))
    assert score.strict["likes"] == Tally(right=1, wrong=1)


def test_time_scoring_finds_the_phrase_and_compares_periods(tmp_path):
    path = tmp_path / "when.jsonl"
    rows = [
        dict(id="t1", text="I went there last week.", reference="2025-06-11T18:00:00Z",
             phrase="last week", start="2025-06-02T00:00:00Z", end="2025-06-09T00:00:00Z",
             granularity="week"),
        dict(id="t2", text="I went there last week.", reference="2025-06-11T18:00:00Z",
             phrase="last week", start="2025-06-03T00:00:00Z", end="2025-06-09T00:00:00Z",
             granularity="day"),
        dict(id="t3", text="Nothing here.", reference="2025-06-11T18:00:00Z",
             phrase="here", start="2025-06-03T00:00:00Z", end=None, granularity="day"),
    ]
    path.write_text("\n".join(map(json.dumps, rows)) + "\n")
    score = score_when(read_when_set(path))
    assert [r.right for r in score.results] == [True, False, False]
    assert score.accuracy() == (1, 3) and score.accuracy("week") == (1, 1)
    assert score.granularity_agreement() == (1, 3)
    assert score.results[2].got is None


@pytest.mark.parametrize(("content", "problem"), [
    ("not json", "bad.jsonl:1: not JSON"),
    (line(id="x", text="t", chat_time="2025-01-01", speaker="u", facts=[
        fact("assert", "u", "owes", "car")]), "facts.0.predicate"),
    (line(id="x", text="t", chat_time="soon", speaker="u", facts=[]), "chat_time"),
    (line(id="x", text="t", speaker="u", facts=[]), "chat_time: Field required"),
    (line(id="x", text="t", chat_time="2025-01-01", speaker="u", facts=[], extra=1), "extra"),
    (case("a", [], id_="x") + "\n" + case("b", [], id_="x"), "id 'x' already used"),
    ("", "no labelled lines"),
])
def test_bad_extraction_lines_are_named(tmp_path, content, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text(content + "\n")
    with pytest.raises(InvalidInput, match=problem) as info:
        read_extraction_set(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("row", "problem"), [
    (dict(phrase="nope"), "phrase 'nope' is not in the text"),
    (dict(end="2025-06-01T00:00:00Z"), "end must be after start"),
    (dict(granularity="fortnight"), "granularity"),
])
def test_bad_time_lines_are_named(tmp_path, row, problem):
    base = dict(id="t1", text="I went last week.", reference="2025-06-11T18:00:00Z",
                phrase="last week", start="2025-06-02T00:00:00Z", end="2025-06-09T00:00:00Z",
                granularity="week")
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(base | row) + "\n")
    with pytest.raises(InvalidInput, match=f"bad.jsonl:1: .*{problem}"):
        read_when_set(path)


# --- the commands -----------------------------------------------------------------------------

def run(*args, code=0):
    result = CliRunner().invoke(main, ["eval", *args])
    assert result.exit_code == code, result.output
    return result


def test_eval_extract_prints_one_line_per_relation():
    out = run("extract", str(DATA / "extraction" / "dev.jsonl")).stdout.splitlines()
    assert out[0].startswith("rules extractor on ") and "strict P" in out[1]
    rows = {row.split()[0]: row.split()[1:] for row in out[2:] if row and not row.startswith(
        "note")}
    assert {"lives_in", "works_at", "likes", "traveled_to", "overall"} <= set(rows)
    assert all(len(cells) == 6 for cells in rows.values())


def test_eval_extract_json_and_errors(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text(case("I live in Oslo. I might move to Rome.",
                         [fact("assert", "user", "lives_in", "Oslo"),
                          fact("assert", "user", "lives_in", "Rome")]) + "\n")
    [score] = json.loads(run("extract", str(path), "--json").stdout)
    assert score["strict"]["overall"] == {"right": 1, "wrong": 0, "missed": 1,
                                          "precision": 1.0, "recall": 0.5}
    assert score["errors"][0]["missed"][0]["object"] == "Rome"
    shown = run("extract", str(path), "--errors").stdout
    assert "missed assert user lives_in Rome" in shown


def test_eval_when_prints_accuracy_per_granularity():
    out = run("when", str(DATA / "when" / "dev.jsonl")).stdout.splitlines()
    assert out[0].split() == ["granularity", "right", "total", "accuracy"]
    assert any(row.startswith("season") for row in out)
    assert any(row.startswith("overall") for row in out)
    [score] = json.loads(run("when", str(DATA / "when" / "dev.jsonl"), "--json").stdout)
    assert score["overall"]["total"] >= 140 and "weekend" in score["per_granularity"]


def test_eval_takes_several_files(tmp_path):
    dev = DATA / "when" / "dev.jsonl"
    [one] = json.loads(run("when", str(dev), "--json").stdout)
    assert "already used" in run("when", str(dev), str(dev), code=1).stderr  # ids stay unique
    copy = tmp_path / "copy.jsonl"
    copy.write_text("".join(json.dumps(json.loads(x) | {"id": "c" + json.loads(x)["id"]}) + "\n"
                            for x in dev.read_text().splitlines()))
    [both] = json.loads(run("when", str(dev), str(copy), "--json").stdout)
    assert both["overall"]["total"] == 2 * one["overall"]["total"]


def test_eval_bad_file_is_one_line_and_exit_1(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("{oops\n")
    result = run("when", str(path), code=1)
    assert result.stderr.startswith("error: ") and "bad.jsonl:1: not JSON" in result.stderr
    assert result.stderr.count("\n") == 1
