"""`graphmem eval`: how well graphmem does on labelled sets: extraction, time phrases, recall.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import json_option, main, open_store, output

if TYPE_CHECKING:
    from ..recall.evaluate import Report


__all__ = []

@main.group("eval")
def eval_() -> None:
    """Score extraction, time phrases and recall against labelled JSON Lines sets."""


def _parts(items, parts) -> str:
    """Which of ``items`` (each with a ``part`` and a ``name``) make each part: "dev: a1, a2; heldout: b1"."""
    return "; ".join(part + ": " + ", ".join(i.name for i in items if i.part == part) for part in parts)


def _pct(value: float) -> str:
    return f"{value:6.3f}"


@eval_.command("extract")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--extractor", "extractor_name", type=click.Choice(("rules", "llm")), default="rules",
              show_default=True, envvar="GRAPHMEM_EXTRACTOR",
              help="rules: offline patterns; llm: the endpoint set by GRAPHMEM_LLM_BASE_URL and "
                   "GRAPHMEM_LLM_MODEL.")
@click.option("--errors", "show_errors", is_flag=True,
              help="Also list each message where the extractor and the labels disagree.")
@json_option
def eval_extract(files, extractor_name, show_errors, as_json):
    """Precision and recall of an extractor on labelled messages, per relation and overall.

    FILES are JSON Lines of {"id", "text", "chat_time", "speaker", "facts": [...]}. A loose
    match compares (op, subject, predicate, object); a strict match adds the valid period.
    """
    from ..evaluation import read_extraction_set, score_extraction
    from ..ingest import make_extractor

    cases = read_extraction_set(*files)
    score = score_extraction(cases, make_extractor(extractor_name))
    if as_json:
        output.dump_json([score.as_json()])
        return
    output.plain(f"{score.extractor} extractor on {score.cases} messages")
    output.plain(f"{'relation':<15} {'labelled':>8} {'found':>6}   {'loose P':>7} {'loose R':>7}"
                 f"   {'strict P':>8} {'strict R':>8}")
    for name, loose in score.loose.items():
        strict = score.strict[name]
        labelled, found = loose.right + loose.missed, loose.right + loose.wrong
        if not (labelled or found):
            continue
        output.plain(f"{name:<15} {labelled:>8} {found:>6}   {_pct(loose.precision):>7} "
                     f"{_pct(loose.recall):>7}   {_pct(strict.precision):>8} "
                     f"{_pct(strict.recall):>8}")
    for note in score.notes:
        output.plain(f"note: {note}")
    if show_errors:
        for error in score.errors:
            output.plain(f"{error.where} {error.id}: {error.text}")
            for label, facts in (("wrong", error.wrong), ("missed", error.missed)):
                for fact in facts:
                    output.plain(f"    {label:<6} {fact['op']} {fact['subject']} {fact['predicate']}"
                                 f" {fact['object']} [{fact['valid_from']}, {fact['valid_to']})")


@eval_.command("when")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--errors", "show_errors", is_flag=True, help="Also list each phrase resolved wrongly.")
@json_option
def eval_when(files, show_errors, as_json):
    """Accuracy of the time-phrase resolver on labelled phrases, overall and per granularity.

    FILES are JSON Lines of {"id", "text", "reference", "phrase", "start", "end",
    "granularity"}. A phrase is right when the period found for it is the labelled one.
    """
    from ..evaluation import read_when_set, score_when

    score = score_when(read_when_set(*files))
    if as_json:
        output.dump_json([score.as_json()])
        return
    right, total = score.accuracy()
    same, _ = score.granularity_agreement()
    output.plain(f"{'granularity':<12} {'right':>5} {'total':>5} {'accuracy':>8}")
    kinds = dict.fromkeys(r.granularity for r in score.results)
    for kind in sorted(kinds, key=lambda g: [r.granularity for r in score.results].index(g)):
        r, t = score.accuracy(kind)
        output.plain(f"{kind:<12} {r:>5} {t:>5} {_pct(r / t):>8}")
    output.plain(f"{'overall':<12} {right:>5} {total:>5} {_pct(right / total):>8}")
    output.plain(f"granularity named as labelled: {same} of {total}")
    if show_errors:
        for result in score.results:
            if not result.right:
                output.plain(f"{result.where} {result.id}: {result.phrase!r} in {result.text!r}: "
                             f"expected {result.expected}, got {result.got}")


@eval_.command("recall")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many results count (recall@k).")
@click.option("--scenario", help="Ask a bundled scenario (e.g. life) replayed into an in-memory store, "
                                 "instead of --store.")
@click.option("--speaker", help="Who asks the questions that name no speaker ('I', 'my'); "
                                "default: the scenario's owner.")
@click.option("--misses", is_flag=True, help="Also list the questions whose answers were not all in the top k.")
@click.option("--keyword-only", is_flag=True, help="Rank by words alone, even with an embeddings endpoint set.")
@json_option
@click.pass_context
def eval_recall(ctx, files, k, scenario, speaker, misses, keyword_only, as_json):
    """Ask the questions in FILE... (JSON Lines) and report recall@k and MRR.

    Each line is {"id", "question", "as_of" (or null), "speaker" (optional), "answers": [{"subject",
    "predicate", "object"}, ...]}; an answer matches a returned fact with the same three fields.
    recall@k is the share of a question's answers in its first k results (of as many as fit in k),
    averaged; MRR the mean of 1/rank of the first answer within the first max(k, 10) results.

    \b
    Example:
      graphmem eval recall tests/data/recall/dev.jsonl --scenario life
    """
    from .._store import Store
    from ..recall import embedder_from_env
    from ..recall.evaluate import Report, evaluate, load_questions, searcher
    from ..scenario import ScenarioClock, load, play

    questions = [q for path in files for q in load_questions(path)]
    if scenario:
        plan = load(scenario)
        speaker = speaker or plan.get("owner")
        click.echo(f"replaying scenario {scenario} ({len(plan['steps'])} messages) into an in-memory store…", err=True)
        clock = ScenarioClock(datetime(1970, 1, 1, tzinfo=UTC))
        store = Store(":memory:", engine=ctx.obj["engine"], clock=clock,
                      embedder=None if keyword_only else embedder_from_env())
        ctx.call_on_close(store.close)
        play(store, plan, clock)
    else:
        store = open_store(ctx)
    search = partial(store.search, semantic=not keyword_only)
    report = evaluate(questions, searcher(search, k, speaker), k)
    if as_json:
        sys.stdout.write(_json(report, files, scenario, store.engine, bool(store.embedder and not keyword_only)))
        return
    where = f"scenario {scenario}" if scenario else str(ctx.obj["dir"])
    how = "keywords and meaning" if store.embedder and not keyword_only else "keywords"
    output.plain(f"recall of {len(questions)} questions from {', '.join(files)} on {where} ({store.engine}, {how})")
    if len(files) > 1:
        for path in files:
            part = Report(k, [r for r in report.results if r.question.source == _name(path)])
            output.plain(f"  {path}: {len(part.results)} questions, recall@{k} {part.recall:.3f}, "
                         f"MRR {part.mrr:.3f}")
    output.plain(f"recall@{k}  {report.recall:.3f}\nMRR       {report.mrr:.3f}\n"
                 f"answered  {report.answered}/{len(questions)} (an answer in the top {k})")
    if misses:
        for r in report.results:
            if r.recall < 1:
                got = "; ".join(" ".join(t) for t in r.returned[:k]) or "nothing"
                output.plain(f"- {r.question.id} {r.question.question!r}: recall {r.recall:.2f}, "
                             f"first answer at {r.first_rank or '-'}; top {k}: {got}")


def _name(path: str) -> str:
    return Path(path).name


def _json(report: Report, files, scenario: str | None, engine: str, semantic: bool) -> str:
    data = {"files": list(files), "scenario": scenario, "engine": engine, "semantic": semantic, **report.as_json()}
    return output.json_text(data) + "\n"


@eval_.command("conversations")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many answers count (evidence recall@k).")
@click.option("--misses", is_flag=True, help="Also list the questions graphmem's first k answers missed.")
@json_option
@click.pass_context
def eval_conversations(ctx, paths, k, misses, as_json):
    """Replay long conversations, ask their questions, and report evidence recall@k beside BM25,
    with extraction precision and recall, per part of the set (each folder is a part).

    A conversation NAME is NAME.jsonl (messages), NAME.questions.jsonl ({"id", "question",
    "category", "evidence": [message ids], "speaker", optionally "as_of"}) and, optionally,
    NAME.facts.jsonl (every message's facts); PATHS are such files or folders of them (the
    aliases set's folders too). Each conversation is replayed into a new store (--replay
    --approve, the rules extractor) and every question asked as of its as_of, else its last
    message; a question is found when any evidence message is cited by the first k answers. The
    peer, in the same run: Okapi BM25 (bm25s) over the raw messages of that conversation.

    \b
    Example:
      graphmem eval conversations tests/data/conversations/dev tests/data/conversations/heldout
    """
    from ..recall.conversations import evaluate, find
    from .ingest import progress_bar

    conversations = find(paths)
    with progress_bar() as progress:
        report = evaluate(conversations, k=k, engine=ctx.obj["engine"], progress=progress)
    if as_json:
        output.dump_json([report.as_json()])
        return
    names = _parts(conversations, report.parts)
    output.plain(f"{len(conversations)} conversations ({names}), {report.engine}, evidence recall@{k}, "
                 "graphmem / BM25 over the raw messages")
    output.plain(f"{'part':<10} {'messages':>8} {'questions':>9}   {'all':>11}   "
                 + "   ".join(f"{c:>11}" for c in report.categories))

    def pair(part: str, category: str | None = None) -> str:
        found = report.recall(part, category)
        return f"{found['graphmem']:.2f} / {found['bm25']:.2f}" if found["questions"] else "-"

    for part in report.parts:
        output.plain(f"{part:<10} {report.messages.get(part, 0):>8} {report.recall(part)['questions']:>9}   "
                     f"{pair(part):>11}   " + "   ".join(f"{pair(part, c):>11}" for c in report.categories))
    if report.extraction:
        output.plain("extraction (rules extractor, every message): all it proposes, and what --approve writes "
                     "(the rest waits for review)")
        output.plain(f"{'part':<10} {'labelled':>8} {'found':>6} {'right':>6}   {'precision':>9} {'recall':>7}"
                     f"   {'strict P':>8} {'strict R':>8}   {'written':>7} {'P':>6} {'R':>6}   {'P*':>6}")
        for part, score in sorted(report.extraction.items()):
            loose, strict, written = score["loose"]["overall"], score["strict"]["overall"], score["written"]["loose"]
            again = score["written"].get("again", written)
            output.plain(f"{part:<10} {loose['right'] + loose['missed']:>8} {loose['right'] + loose['wrong']:>6} "
                         f"{loose['right']:>6}   {loose['precision']:>9.3f} {loose['recall']:>7.3f}"
                         f"   {strict['precision']:>8.3f} {strict['recall']:>8.3f}"
                         f"   {written['right'] + written['wrong']:>7} {written['precision']:>6.3f} "
                         f"{written['recall']:>6.3f}   {again['precision']:>6.3f}")
        output.plain("P*: what --approve writes, a fact the labels hold from an earlier message of its chat set aside "
                     "(told again, it links evidence to a belief and writes nothing new)")
    if misses:
        for o in report.outcomes:
            if not o.graphmem:
                cited = ", ".join(o.answers) or "nothing"
                output.plain(f"- {o.part}/{o.id} ({o.category}): first {k} answers cite {cited}")


@eval_.command("relations")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--wrong", "show_wrong", is_flag=True, help="Also list the relation facts no label matches.")
@json_option
@click.pass_context
def eval_relations(ctx, paths, show_wrong, as_json):
    """Precision and recall of the relations learnt from chat ("my sister Anna", "your mum"), per
    path: a folder of labelled chats, or one chat.

    A chat NAME is NAME.jsonl (messages), NAME.relations.jsonl (PERSON is RELATION of OF) and
    NAME.entities.jsonl (each entity's names), as in tests/data/aliases; PATHS are such files or
    folders of them. Each chat is ingested
    into a new store (--replay --approve, the rules extractor) and the WORD_of facts believed at
    the end are matched against the labels (docs/aliases.md, "Relations from chat").

    \b
    Example:
      graphmem eval relations tests/data/aliases/dev
    """
    from ..evaluation_relations import evaluate_relations
    from .ingest import progress_bar

    with progress_bar() as progress:
        scores = evaluate_relations(paths, engine=ctx.obj["engine"], progress=progress)
    if as_json:
        output.dump_json([score.as_json() for score in scores])
        return
    output.plain(f"relations from chat, {scores[0].engine}: facts believed at the end of each chat against its labels")
    width = max(len("path"), *(len(score.directory) for score in scores))
    output.plain(f"{'path':<{width}} {'chats':>5} {'messages':>8} {'facts':>5} {'right':>5} {'unnamed':>7} "
                 f"{'precision':>9}   {'labelled':>8} {'found':>5} {'recall':>6}")
    for score in scores:
        output.plain(f"{score.directory:<{width}} {len(score.chats):>5} {score.total('messages'):>8} "
                     f"{score.total('facts'):>5} {score.total('right'):>5} {score.total('unnamed'):>7} "
                     f"{score.precision:>9.3f}   {score.total('labelled'):>8} {score.total('found'):>5} "
                     f"{score.recall:>6.3f}")
    if show_wrong:
        for score in scores:
            for chat in score.chats:
                for fact in chat.wrong:
                    output.plain(f"- {score.directory} {chat.name}: {fact}")


@eval_.command("aliases")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@json_option
@click.pass_context
def eval_aliases(ctx, paths, as_json):
    """Ingest labelled chats, run `alias suggest`, and report its precision and recall beside a
    string-similarity peer, per part of the set (each folder is a part) and overall.

    A chat NAME is NAME.jsonl (messages), NAME.entities.jsonl ({"entity", "names": [...]}) and
    NAME.pairs.jsonl ({"a", "b", "same"}); PATHS are such files or folders of them. Each chat is
    ingested into a new store (--replay --approve, the default extractor). Recall: the pairs
    labelled same that are suggested. Precision, strictly: a suggested pair is right when both
    names are one entity's and neither names two entities. The peer, in the same run: every pair
    of the candidate names with Jaro-Winkler similarity of at least 0.9 (rapidfuzz).

    \b
    Example:
      graphmem eval aliases tests/data/aliases/dev
    """
    from ..evaluation_aliases import evaluate, find
    from .ingest import progress_bar

    chats = find(paths)
    with progress_bar() as progress:
        report = evaluate(chats, engine=ctx.obj["engine"], progress=progress)
    if as_json:
        output.dump_json([report.as_json()])
        return
    names = _parts(chats, report.parts)
    output.plain(f"{len(chats)} chats ({names}), {report.engine}; alias suggest / the peer "
                 "(Jaro-Winkler >= 0.9 over the same candidate names)")
    output.plain(f"{'part':<10} {'suggested':>11} {'right':>11} {'precision':>13} {'same':>5} {'found':>11} "
                 f"{'recall':>13}")
    for part in [*report.parts, None]:
        ours, peer = report.total("graphmem", part), report.total("peer", part)
        output.plain(f"{part or 'overall':<10} {ours.suggested:>5} / {peer.suggested:<3} {ours.right:>5} / "
                     f"{peer.right:<3} {ours.precision:>6.3f} / {peer.precision:<5.3f} {ours.same:>5} "
                     f"{ours.found:>5} / {peer.found:<3} {ours.recall:>6.3f} / {peer.recall:<5.3f}")
