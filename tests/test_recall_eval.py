"""Recall measured on labelled questions over the life scenario, and the eval command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import InvalidInput
from graphmem.recall.evaluate import Question, evaluate, load_questions, score, searcher

from .conftest import ENGINE, copy_of

#: Checked in the default engine's pass only: the ranking of labelled questions (tests/test_search.py has the
#: engines agree on answers).
pytestmark = pytest.mark.one_engine

DATA = Path(__file__).resolve().parent / "data" / "recall"
DEV = DATA / "dev.jsonl"
#: Keyword-only recall@5 on the dev questions must not fall below this (it was 0.963 when set).
RECALL_FLOOR = 0.9
MRR_FLOOR = 0.8


@pytest.fixture(scope="module")
def life(life_template, tmp_path_factory):
    with copy_of(life_template, tmp_path_factory.mktemp("life")) as store:
        yield store, life_template.scenario["owner"]


def test_keyword_recall_on_the_dev_questions_does_not_regress(life):
    store, owner = life
    questions = load_questions(DEV)
    assert len(questions) >= 110
    report = evaluate(questions, searcher(store.search, 5, owner), 5)
    assert report.recall >= RECALL_FLOOR, [r.question.question for r in report.results if r.recall < 1]
    assert report.mrr >= MRR_FLOOR


@pytest.mark.parametrize("path", sorted(DATA.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_labelled_answer_is_a_fact_believed_when_asked(life, path):
    store, _ = life
    seen: dict = {}
    for question in load_questions(path):
        if question.as_of not in seen:
            seen[question.as_of] = {(v.subject.casefold(), v.predicate, v.object.casefold())
                                    for v in store.beliefs(as_of=question.as_of, valid_at="all")}
        believed = seen[question.as_of]
        for s, p, o in question.answers:
            assert (s.casefold(), p, o.casefold()) in believed, (path.name, question.id, (s, p, o))


def test_measures():
    q = Question("q1", "where did Lin travel", (("Lin", "traveled_to", "Bali"), ("Lin", "traveled_to", "Hangzhou")))
    r = score(q, [("Lin", "lives_in", "Singapore"), ("lin", "traveled_to", "bali"), ("Lin", "likes", "diving")], 2)
    assert (r.recall, r.reciprocal_rank, r.first_rank) == (0.5, 0.5, 2)
    assert score(q, [], 5).recall == 0 and score(q, [], 5).reciprocal_rank == 0
    many = Question("q2", "x", tuple(("A", "likes", str(i)) for i in range(8)))
    assert score(many, [("A", "likes", str(i)) for i in range(5)], 5).recall == 1.0  # as many as fit in k
    late = score(q, [("x", "y", "z")] * 9 + [("Lin", "traveled_to", "Bali")], 5)
    assert (late.recall, late.first_rank, late.reciprocal_rank) == (0, 10, 0.1)  # ranks count to 10


@pytest.mark.parametrize(("line", "problem"), [
    ("not json", "invalid JSON"),
    ('{"id": "q1", "question": "x"}', "missing field 'answers'"),
    ('{"id": "q1", "question": "x", "answers": []}', "non-empty list"),
    ('{"id": "q1", "question": "x", "answers": [{"subject": "A", "predicate": "p"}]}', "'object'"),
    ('{"id": "", "question": "x", "answers": [{"subject": "A", "predicate": "p", "object": "B"}]}', "'id'"),
    ('{"id": "q1", "question": "x", "as_of": 5, "answers": [{"subject": "A", "predicate": "p", "object": "B"}]}',
     "as_of"),
])
def test_a_bad_question_file_names_its_line(tmp_path, line, problem):
    path = tmp_path / "q.jsonl"
    good = '{"id": "q0", "question": "x", "answers": [{"subject": "A", "predicate": "p", "object": "B"}]}'
    path.write_text(f"{good}\n\n{line}\n")
    with pytest.raises(InvalidInput, match=f"q.jsonl:3: .*{problem}"):
        load_questions(path)
    path.write_text(f"{good}\n{good}\n")
    with pytest.raises(InvalidInput, match="used twice"):
        load_questions(path)
    with pytest.raises(InvalidInput, match="cannot read"):
        load_questions(tmp_path / "missing.jsonl")


def test_cli_eval_recall(tmp_path, life_template):
    runner = CliRunner()
    small = tmp_path / "small.jsonl"
    small.write_text("\n".join(DEV.read_text().splitlines()[:12]) + "\n")
    result = runner.invoke(main, ["--engine", ENGINE, "eval", "recall", str(small), "--scenario", "life", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert (report["questions"], report["k"], report["scenario"], report["engine"]) == (12, 5, "life", ENGINE)
    assert report["recall@5"] >= 0.9 and 0 < report["mrr"] <= 1
    assert report["results"][0]["id"] == "d001" and report["results"][0]["first_rank"] == 1
    copy_of(life_template, tmp_path).close()  # the scenario replayed into a store on disk, asked with --store
    text = runner.invoke(main, ["--store", str(tmp_path / "store"), "eval", "recall", str(small), "--k", "3",
                                "--speaker", life_template.scenario["owner"], "--misses"])
    assert text.exit_code == 0 and "recall@3" in text.output and "MRR" in text.output
    assert f"on {tmp_path / 'store'} ({ENGINE}, keywords" in text.output.replace("\n", " ")
    missing = runner.invoke(main, ["--engine", ENGINE, "eval", "recall", str(tmp_path / "nope.jsonl"),
                                   "--scenario", "life"])
    assert missing.exit_code == 1 and missing.output.startswith("error: cannot read")
    no_store = runner.invoke(main, ["--store", str(tmp_path / "none"), "eval", "recall", str(small)])
    assert no_store.exit_code == 1 and "no graphmem store" in no_store.output
