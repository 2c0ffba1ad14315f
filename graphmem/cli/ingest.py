"""Ingest commands: conversations, another assistant's memories, and reading time phrases."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC

import click

from .. import output
from ..ingest import (
    EXTRACTORS,
    IngestSummary,
    import_memories,
    ingest,
    make_extractor,
    read_memories,
    read_messages,
    reference_time,
)
from ..store import Store
from ..timeutil import iso, zone
from ..when import TimeSpan, find_times
from . import json_option, main, open_store


def extractor_option(func: Callable) -> Callable:
    """Add --extractor (rules or llm) to a command."""
    return click.option(
        "--extractor", "extractor_name", type=click.Choice(EXTRACTORS), default="rules",
        envvar="GRAPHMEM_EXTRACTOR", show_default=True,
        help="rules: offline patterns; llm: an OpenAI-compatible endpoint set by "
             "GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_API_KEY.")(func)


def day_first_option(func: Callable) -> Callable:
    """Add --day-first to a command."""
    return click.option("--day-first", is_flag=True,
                        help="Read numeric dates like 05/08/2023 as day/month (default month/day).")(func)


@contextmanager
def progress_bar() -> Iterator[Callable[[str, int, int], None]]:
    """A transient progress bar on stderr (shown only on a terminal), as a progress callback."""
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(*Progress.get_default_columns(), transient=True,
                   disable=not sys.stderr.isatty(), console=Console(stderr=True))
    with bar:
        task = bar.add_task("reading", total=None)

        def advance(phase: str, done: int, total: int) -> None:
            bar.update(task, description=phase, completed=done, total=total)

        yield advance


def print_summary(summary: IngestSummary, as_json: bool, what: str) -> None:
    """Report what an ingest recorded: episodes, facts proposed, approved and pending."""
    if as_json:
        output.dump_json([summary])
        return
    span = ""
    if summary.first is not None:
        span = f", said {iso(summary.first)}"
        span += f" to {iso(summary.last)}" if summary.last != summary.first else ""
    replayed = " at their own times" if summary.replayed else ""
    output.plain(f"recorded {summary.episodes} episodes from {what}{replayed}{span}")
    if summary.already:
        output.plain(f"skipped {summary.already} messages recorded by an earlier run")
    output.plain(f"facts: {summary.proposed} proposed, {summary.approved} approved, "
                 f"{summary.pending} pending")
    for label, items in (("waits for review", summary.held), ("not proposed", summary.dropped)):
        for item in items:
            fact = item.fact
            output.plain(f"  {item.where}: {label}: {fact.op} {fact.subject} {fact.predicate} "
                         f"{fact.object or ''} ({item.reason})")
    for note in summary.notes:
        output.plain(f"  note: {note}")
    if summary.pending:
        output.plain("review them with `graphmem review list`, then `graphmem review approve`")


def _open_after_reading(ctx: click.Context, prepare: Callable):
    """Open the store and ``prepare(tz)`` the input; a new store is created only after that.

    The input is read in the store's zone (UTC for a new store), and a bad file or setting
    leaves no new, empty store behind.
    """
    if Store.exists(ctx.obj["dir"]):
        store = open_store(ctx)
        return store, prepare(store.tz)
    data = prepare(UTC)
    return open_store(ctx, create=True), data


@main.command("ingest")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--replay", is_flag=True,
              help="Record each message at its chat time (its transaction time), so the "
                   "conversation can be time-travelled; needs times after the latest write.")
@click.option("--approve", is_flag=True,
              help="Write proposed facts through the gate now instead of queueing them for review.")
@click.option("--user", help="Who 'I' is in user messages that name no actor "
                             "(default: the file's user_id, else 'user').")
@extractor_option
@day_first_option
@json_option
@click.pass_context
def ingest_(ctx, file, replay, approve, user, extractor_name, day_first, as_json):
    """Record a conversation: each message an episode, its facts proposed.

    FILE is JSON Lines of {"role", "content", "chat_time", "id"?, "actor"?} or a JSON
    object {"user_id": ..., "messages": [...]}. Chat times: ISO 8601, '2025-09-12 08:00:00'
    or '1:56 pm on 8 May, 2023'. The whole file is checked before anything is written.
    """
    def prepare(tz):
        return (read_messages(file, day_first=day_first, tz=tz, user=user),
                make_extractor(extractor_name, day_first=day_first, tz=tz))

    store, (messages, extractor) = _open_after_reading(ctx, prepare)
    with progress_bar() as progress:
        summary = ingest(store, messages, extractor, replay=replay, approve=approve,
                         progress=progress)
    print_summary(summary, as_json, file)


@main.command("import-memories")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--approve", is_flag=True,
              help="Write proposed facts through the gate now instead of queueing them for review.")
@click.option("--reference", help="When the memories were true, for relative phrases and as "
                                  "their episodes' time (default now).")
@click.option("--speaker", default="user", show_default=True,
              help="Whom the memories are about ('User ...', 'I ...').")
@extractor_option
@day_first_option
@json_option
@click.pass_context
def import_memories_(ctx, file, approve, reference, speaker, extractor_name, day_first, as_json):
    """Import another assistant's memories: each remembered line an episode of kind import.

    FILE holds one remembered line per line (list markers are dropped) or a JSON list of strings.
    """
    def prepare(tz):
        return (read_memories(file),
                reference_time(reference, day_first=day_first, tz=tz) if reference else None,
                make_extractor(extractor_name, day_first=day_first, tz=tz))

    store, (memories, at, extractor) = _open_after_reading(ctx, prepare)
    with progress_bar() as progress:
        summary = import_memories(store, memories, extractor, approve=approve, reference=at,
                                  speaker=speaker, progress=progress)
    print_summary(summary, as_json, file)


@main.command("when")
@click.argument("text")
@click.option("--reference", default="now", show_default=True,
              help="When TEXT was said: ISO 8601 or a chat time like '1:56 pm on 8 May, 2023'.")
@click.option("--timezone", default="UTC", show_default=True,
              help="Zone for calendar days and for naive times.")
@day_first_option
@json_option
def when(text, reference, timezone, day_first, as_json):
    """Find the time expressions in TEXT and the period each names, read at --reference."""
    tz = zone(timezone)
    spans = find_times(text, reference_time(reference, day_first=day_first, tz=tz), day_first=day_first, tz=tz)
    if as_json:
        output.dump_json(span.as_json() for span in spans)
        return
    if not spans:
        output.plain("no time expressions found")
    rows = [(span.text, f"{iso(span.start)} → {iso(span.end) or 'open'}", span.granularity)
            if isinstance(span, TimeSpan) else (span.text, span.problem, "not used") for span in spans]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    for text_, period, granularity in rows:
        output.plain(f"{text_:{widths[0]}}  {period:{widths[1]}}  {granularity}")
