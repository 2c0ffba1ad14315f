"""`graphmem eval`: score an extractor or the time-phrase resolver on labelled sets."""

from __future__ import annotations

import click

from .. import output
from ..evaluation import read_extraction_set, read_when_set, score_extraction, score_when
from . import json_option, main


@main.group("eval")
def eval_() -> None:
    """Score extraction and time phrases against labelled JSON Lines sets."""


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
