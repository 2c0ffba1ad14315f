"""The search graphmem had before ranked recall, kept to compare recall on the same questions.

Until ranked recall replaced it, ``graphmem search`` returned the facts whose words (subject,
predicate split at underscores, object, and the text of the supporting episodes; runs of letters
and digits after NFKC and case folding) included *every* word of the query, as believed at the
as-of time over every valid time, current facts first, then upcoming, then ended, the most recent
occurrence first. This module is that behaviour over the public Store API, so its numbers can be
measured again on any question file:

    python -m benchmarks.recall_baseline tests/data/recall/dev.jsonl [--k 5] [--scenario life]
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from datetime import datetime

from graphmem import Store
from graphmem.core.times import UTC
from graphmem.recall.evaluate import Question, evaluate, load_questions
from graphmem.scenario import ScenarioClock, load, play

_WORD = re.compile(r"[^\W_]+")
_GROUP = {"current": 0, "upcoming": 1, "ended": 2}


def words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def all_words_search(store: Store, text: str, as_of=None) -> list:
    """Today's search: facts holding every word of ``text``, as believed at ``as_of``."""
    terms = set(words(text))
    if not terms:
        return []
    texts = {e.id: e.text for e in store.episodes()}
    kinds = store.predicates()
    found = []
    for v in store.beliefs(as_of=as_of, valid_at="all"):
        parts = [v.subject, v.predicate, v.object, *(texts[e] for e in v.episodes if e in texts)]
        if terms <= {w for part in parts for w in words(part)}:
            found.append(v)

    def rank(v):
        group = _GROUP.get(v.status or "", 3)
        when = v.valid_from
        if group == 2 and kinds.get(v.predicate) != "event" and v.valid_to is not None:
            when = v.valid_to
        return (group, -when.timestamp(), -v.valid_from.timestamp(), v.subject, v.predicate, v.object, v.id)

    return sorted(found, key=rank)


def scenario_store(name: str = "life") -> Store:
    """An in-memory store holding a bundled scenario, its clock left at the last step."""
    clock = ScenarioClock(datetime(2000, 1, 1, tzinfo=UTC))
    store = Store(":memory:", clock=clock)
    play(store, load(name), clock)
    return store


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--scenario", default="life")
    args = parser.parse_args(argv)
    questions = [q for f in args.files for q in load_questions(f)]
    with scenario_store(args.scenario) as store:
        def answer(q: Question):
            return [(v.subject, v.predicate, v.object) for v in all_words_search(store, q.question, q.as_of)]

        report = evaluate(questions, answer, args.k)
    print(f"all-words search: {len(questions)} questions, recall@{args.k} {report.recall:.3f}, "
          f"MRR {report.mrr:.3f}, {report.answered} with an answer in the top {args.k}")


if __name__ == "__main__":
    main()
