"""Ingest commands: conversations, another assistant's memories, and reading time phrases.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import re
import shlex
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

import click

from ..core.names import clipped
from ..core.times import same_zone, zone
from ..errors import GraphmemError, ImportFailed
from . import MARKER_FILE, allow_future_option, counted, json_option, main, open_store, output, utc_option
from .layout import Column, table

if TYPE_CHECKING:
    from ..ingest import IngestSummary

__all__ = ["day_first_option", "extractor_option", "progress_bar"]

EXTRACTORS = ("rules", "llm")  # graphmem.ingest.EXTRACTORS (a test keeps them equal)


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
    """A transient progress bar on stderr (shown only on a terminal), as a progress callback
    ``(phase, done, total)``."""
    with output.progress("reading") as bar:
        yield lambda phase, done, total: bar.update(done, total, phase)


def read_reference(text: str, *, day_first: bool, tz: tzinfo, now: Callable[[], datetime]) -> datetime:
    """A --reference time: a chat time ('1:56 pm on 8 May, 2023', ISO 8601), 'now', or a phrase
    such as 'yesterday' or '2 weeks ago' read against ``now()`` in ``tz`` (the time grammar of
    every other option)."""
    from ..errors import InvalidTime
    from ..ingest import reference_time
    from ..when import read_time

    try:
        return reference_time(text, day_first=day_first, tz=tz)
    except InvalidTime as chat_problem:
        if "missing" in str(chat_problem):  # a date without its year (or month, or day): not guessed
            raise
        try:
            return read_time(text, tz, now)
        except InvalidTime:
            raise chat_problem from None


#: How many facts of each kind (waiting for review, not proposed) an ingest's summary lists one by one.
SHOWN = 20


def print_summary(summary: IngestSummary, as_json: bool, what: str) -> None:
    """Report what an ingest recorded: episodes, facts proposed, approved and pending (and, first, that the store
    is new: a mistyped --store makes one as readily as a new name)."""
    if as_json:
        output.dump_json([summary])
        return
    context = click.get_current_context()
    if "created" in context.obj:
        output.plain(f"made a new store at {context.obj['dir']} (there was none)")
    span = ""
    if summary.first is not None:
        span = f", said {output.when(summary.first)}"
        span += f" to {output.when(summary.last)}" if summary.last != summary.first else ""
    replayed = " at their own times" if summary.replayed else ""
    output.plain(f"recorded {counted(summary.episodes, 'episode')} from {what}{replayed}{span}")
    if summary.already:
        output.plain(f"skipped {summary.already} messages recorded by an earlier run")
    unsure = f" ({summary.unsure} the extractor was unsure of: they wait for review)" if summary.unsure else ""
    output.plain(f"facts: {summary.proposed} proposed, {summary.approved} approved, "
                 f"{summary.pending} pending{unsure}")
    for label, items, more in (("waits for review", summary.held, "waiting for review (`graphmem review list` "
                                                                   "shows them all)"),
                               ("not proposed", summary.dropped, "not proposed (--json lists them all)")):
        for item in items[:SHOWN]:
            fact = item.fact
            output.plain(f"  {item.where}: {label}: {fact.op} {fact.subject} {fact.predicate} "
                         f"{fact.object or ''} ({item.reason})")
        if len(items) > SHOWN:
            output.plain(f"  … and {len(items) - SHOWN} more {more}")
    for note in summary.notes:
        output.plain(f"  note: {note}")
    if summary.pending:
        output.plain("review them with `graphmem review list` (it says why each waits), then `graphmem review approve`")
        if summary.replayed and summary.pending > summary.unsure + len(summary.held):  # no --approve: all wait
            output.plain("(approved later, a fact is believed from its approval on, not from its message's chat "
                         "time; `ingest --replay --approve` writes the sure ones at their chat times)")


def _clock_note(offset: timedelta) -> str:
    """What a new store in UTC should say of an export made on a clock ``offset`` from it (Telegram's "date")."""
    sign, minutes = ("+" if offset >= timedelta(0) else "-"), abs(int(offset.total_seconds())) // 60
    return (f"the chat was exported on a clock at UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}, and this new store "
            "reads and shows times in UTC (a day said, 'today', is UTC's); to keep the chat's own days, ingest into a "
            "new store with --timezone ZONE (Asia/Seoul, Europe/Berlin, …)")


def _open_after_reading(ctx: click.Context, prepare: Callable, timezone: str | None = None):
    """Open the store and ``prepare(tz)`` the input; a new store is created only after that, reading naive times
    in ``timezone`` (an existing store keeps its own zone: one given that differs is refused).

    The input is read in the store's zone (UTC for a new store), and a bad file or setting
    leaves no new, empty store behind.
    """
    if (ctx.obj["dir"] / MARKER_FILE).exists():
        store = open_store(ctx)
        if timezone is not None and not same_zone(zone(timezone), store.tz):
            raise GraphmemError(f"this store reads times in {store.tz_name}; --timezone sets a new store's zone "
                                f"(leave it out, or ingest into a new store)")
        return store, prepare(store.tz)
    data = prepare(UTC if timezone is None else zone(timezone))
    return open_store(ctx, create=True, timezone=timezone), data


def timezone_option(func: Callable) -> Callable:
    """Add --timezone: the zone a new store reads naive chat times in."""
    return click.option("--timezone", "--tz", metavar="ZONE",
                        help="For a new store: the zone its naive times (chat times without an offset) are read "
                             "in, e.g. Europe/London (default UTC; an existing store keeps its own).")(func)


@main.command("ingest")
@click.argument("file", type=click.Path(exists=True))  # (a folder is refused naming the chat files in it)
@click.option("--replay", is_flag=True,
              help="Record each message at its chat time (its transaction time), so the "
                   "conversation can be time-travelled; needs times after the latest write.")
@click.option("--approve", is_flag=True,
              help="Write proposed facts through the gate now instead of queueing them for review.")
@click.option("--user", help="Who 'I' is in user messages that name no actor (default: the file's user_id, else "
                             "'user'); of an SMS backup, who sent its texts sent (needed when it has any).")
@click.option("--participants", metavar="A,B",
              help="The two people of a two-person chat, whom 'you' means in each other's messages "
                   "(default: the file's participants field, else the two actors of its user messages); of an SMS "
                   "backup, you and the contact whose conversation is read.")
@extractor_option
@day_first_option
@timezone_option
@allow_future_option
@json_option
@utc_option
@click.pass_context
def ingest_(ctx, file, replay, approve, user, participants, extractor_name, day_first, timezone, as_json):
    """Record a conversation: each message an episode, its facts proposed.

    FILE is JSON Lines of {"role", "content", "chat_time", "id"?, "actor"?}, a JSON
    object {"user_id": ..., "participants"?: [A, B], "messages": [...]}, or a chat as
    WhatsApp's "Export chat" gives it (the .txt, Android or iOS), LINE's (the .txt),
    Telegram Desktop's (result.json), Messenger's (message_1.json) or Android's texts as SMS
    Backup & Restore saves them (sms-....xml; one conversation), as it is. Chat times: ISO
    8601, '2025-09-12 08:00:00' or '1:56 pm on 8 May, 2023'. The whole file is checked before
    anything is written.
    """
    from ..ingest import ingest, make_extractor, read_messages

    def prepare(tz):
        return (read_messages(file, day_first=day_first, tz=tz, user=user, participants=participants),
                make_extractor(extractor_name, day_first=day_first, tz=tz))

    written = [0, 0]  # of the messages new to the store: written so far, and in all

    with _stopped_as_by_ctrl_c():
        try:  # (the file is read first, to check it whole: stopped then, nothing was written)
            store, (messages, extractor) = _open_after_reading(ctx, prepare, timezone)
            # a store this command made reading UTC, or one made so by another (`graphmem mcp`, `init`) and never
            # written to (a new user's WhatsApp export, an hour off all summer in a store the assistant had made)
            new_in_utc = timezone is None and store.tz_name == "UTC" and (
                "created" in ctx.obj or store.first_write() is None)
            with progress_bar() as bar:
                def progress(phase: str, done: int, total: int) -> None:
                    if phase == "writing":
                        written[:] = done, total
                    bar(phase, done, total)

                summary = ingest(store, messages, extractor, replay=replay, approve=approve, progress=progress)
            if user and user.strip():
                summary.notes.append(_user_note(messages, user.strip()))
            if participants and (note := _participants_note(messages)):
                summary.notes.append(note)
            if extractor_name in (None, "rules") and summary.episodes >= 20 and summary.proposed * 50 < \
                    summary.episodes and (share := _english_share(messages)) < 0.5:
                summary.notes.append(f"about {share:.0%} of the words of these messages are English, the only language "
                                     "the rules extractor reads: few facts can be found; the llm extractor reads "
                                     "others (--extractor llm, docs/ingest.md)")
            count, where = getattr(messages, "nameless_among_named", (0, None))
            if count and not (user and user.strip()):
                summary.notes.append(f"{count} user message{'s' if count > 1 else ''} (the first {where}) "
                                     f"name{'' if count > 1 else 's'} no speaker, while the others do: read as said by "
                                     "'user', someone of their own; give each an \"actor\" (or --user NAME for them)")
            for whose, nick in getattr(messages, "nicknames", ()):  # a new user's Messenger export: "Tomás Ferreira
                # set your nickname to Bia." said who Bia is, and was kept as a message
                summary.notes.append(f"the app says {whose!r} goes by {nick!r} (a nickname set in Messenger); to have "
                                     f"every read treat them as one, graphmem alias add {shlex.quote(nick)} "
                                     f"{shlex.quote(whose)}")
            if not day_first and (seen := getattr(messages, "either_way", None)):
                summary.notes.append(f"every numeric date of the chat times reads either way, e.g. {seen}: they were "
                                     "read month first; if the day comes first (03/04 is 3 April), ingest into a new "
                                     "store with --day-first")  # a new user's Chilean log, read as 4 March
            if messages.clock and new_in_utc:
                summary.notes.append(_clock_note(messages.clock))
            if messages.zoneless and new_in_utc:
                summary.notes.append("the chat's clock says no zone: this new store read it as UTC; if the phone was "
                                     "elsewhere, ingest into a new store with --timezone ZONE (America/Denver, "
                                     "Europe/Dublin, …)")
        except ImportFailed as exc:
            if not written[0]:
                raise
            raise ImportFailed(f"{exc} (stopped after writing {written[0]} of the {written[1]} messages new to the "
                               "store: each write is whole, and they are kept)") from None
        except KeyboardInterrupt:
            if written[0] and written[0] == written[1]:  # stopped once all was written, before the summary
                raise GraphmemError(f"interrupted after writing all {written[1]} messages new to the store (they are "
                                    "kept; the same command again writes nothing new)") from None
            done = (f"after writing {written[0]} of the {written[1]} messages new to the store (each write is "
                    "whole: they are kept)") if written[0] else "before writing anything"
            raise GraphmemError(f"interrupted {done}; run the same command again to write the rest (messages "
                                "recorded are skipped)") from None
    _summarise(summary, as_json, file)


def _summarise(summary: IngestSummary, as_json: bool, what: str) -> None:
    """The summary, or, stopped while it is printed (Ctrl-C), a line saying the work had finished and is kept (a new
    user's "error: aborted" after "recorded 443 episodes" said nothing of what was kept)."""
    try:
        print_summary(summary, as_json, what)
    except KeyboardInterrupt:
        raise GraphmemError(f"interrupted after the work was done: the {counted(summary.episodes, 'episode')} "
                            "recorded are kept") from None


def _user_note(messages, user: str) -> str:
    """What --user did: whom "I" is in the file's messages, and how a question asks as that person (a new user's
    family chat: every message named its speaker, and "where do I work" was asked as no one)."""
    shown = repr(clipped(user, 40))
    if messages.as_user:
        return (f"to ask as {clipped(user, 40)} (\"where do I work\"), give search --speaker {shlex.quote(user)} "
                "or set GRAPHMEM_SPEAKER")
    some = messages.some_speakers()
    if not some:
        return f"--user {shown} speaks no message: the file has no user messages; it changed nothing"
    speakers = _listed(some)
    near = messages.speaker_like(user)
    mean = f"; did you mean {clipped(near, 40)!r}?" if near else ""
    return f"--user {shown} speaks no message of the file (its speakers: {speakers}); it changed nothing{mean}"


def _english_share(messages, most: int = 400) -> float:
    """The share of the words of a file's first ``most`` user messages that are English (a new user's chat with her
    mother, mostly in Tagalog: 386 messages, no fact, no word why)."""
    from ..core.alias_evidence import plain_english

    words = english = 0
    for n, message in enumerate(m for m in messages if m.role == "user"):
        if n >= most:
            break
        text = message.content.lower()
        words += len(_UNSPACED.findall(text))  # each character of a script written without spaces a word of its own
        for word in re.findall(r"[^\W\d_]{2,}", _UNSPACED.sub(" ", text)):
            words += 1
            english += word in _TEXTING or plain_english(word)
    return english / words if words else 1.0


#: Letters of scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese).
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
#: English as texted, which no dictionary lists (a reviewer's: "lol ok", "idk tbh" counted as another language).
_TEXTING = frozenset("""lol lmao lmfao omg idk tbh ngl imo imho btw brb ttyl wyd hbu ikr smh fyi asap pls plz thx ty np
ur u r y ya yah yeh yep yup nah nope ok okay kk k haha hahaha hehe gonna wanna gotta dunno kinda sorta cuz coz bc
xx xo xoxo hmm mm ugh aww omw rn tmrw tmr 2moro gn gm luv bday""".split())


def _listed(speakers: list[str]) -> str:
    """Speakers as a note names them: quoted, clipped, the first three."""
    return ", ".join(repr(clipped(name, 40)) for name in speakers[:3]) + (", …" if len(speakers) > 3 else "")


def _participants_note(messages) -> str | None:
    """What --participants did where a name it gives speaks no message of a file whose every speaker is known: "you"
    in the other's messages meant no one (a new user's Telegram chat: "--participants Gaya,Ma" for "Gaya Reyes" and
    "Mama"); None where both speak."""
    speakers = messages.some_speakers()
    if len(speakers) >= 4 or messages.participants is None:
        return None  # (more speakers than are kept to be named: a group's)
    silent = [name for name in messages.participants if name not in speakers]
    if not silent:
        return None
    named = " and ".join(repr(clipped(name, 40)) for name in silent)
    meant = [messages.speaker_like(name) or name for name in messages.participants]
    mean = f"; did you mean --participants {shlex.quote(','.join(meant))}?" if meant != list(messages.participants) \
        and all(name in speakers for name in meant) else ""
    return (f"--participants names {named}, who {'speaks' if len(silent) == 1 else 'speak'} no message of the file "
            f"(its speakers: {_listed(speakers)}): \"you\" in a message was read as "
            f"no one there{mean}")


@contextmanager
def _stopped_as_by_ctrl_c() -> Iterator[None]:
    """SIGTERM (a service manager, `kill`) stops the work as Ctrl-C does, between whole writes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@main.command("import-memories")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--approve", is_flag=True,
              help="Write proposed facts through the gate now instead of queueing them for review.")
@click.option("--reference", help="When the memories were true, for relative phrases and as "
                                  "their episodes' time: a date, a chat time or a phrase like "
                                  "'last week' (default now).")
@click.option("--speaker", default="user", show_default=True,
              help="Whom the memories are about ('User ...', 'I ...').")
@extractor_option
@day_first_option
@json_option
@utc_option
@click.pass_context
def import_memories_(ctx, file, approve, reference, speaker, extractor_name, day_first, as_json):
    """Import another assistant's memories: each remembered line an episode of kind import.

    FILE holds one remembered line per line (list markers are dropped) or a JSON list of strings.
    """
    from ..ingest import import_memories, make_extractor, read_memories

    def prepare(tz):
        def now() -> datetime:  # a new store's clock; an open one's below
            return datetime.now(UTC)

        if (ctx.obj["dir"] / MARKER_FILE).exists():
            now = open_store(ctx).now
        return (read_memories(file),
                read_reference(reference, day_first=day_first, tz=tz, now=now) if reference else None,
                make_extractor(extractor_name, day_first=day_first, tz=tz))

    store, (memories, at, extractor) = _open_after_reading(ctx, prepare)
    with progress_bar() as progress:
        summary = import_memories(store, memories, extractor, approve=approve, reference=at,
                                  speaker=speaker, progress=progress)
    _summarise(summary, as_json, file)


@main.command("when")
@click.argument("text")
@click.option("--reference", default="now", show_default=True,
              help="When TEXT was said: ISO 8601, a chat time like '1:56 pm on 8 May, 2023', "
                   "or a phrase like 'yesterday'.")
@click.option("--timezone", "--tz", help="Zone for calendar days and for naive times (and the times shown); "
                                "default: the store's zone, or UTC where there is no store.")
@day_first_option
@json_option
@utc_option
@click.pass_context
def when(ctx, text, reference, timezone, day_first, as_json):
    """Find the time expressions in TEXT and the period each names, read at --reference."""
    from .._store import Store
    from ..core.times import zone
    from ..when import TimeSpan, find_times

    if timezone is None:
        timezone = open_store(ctx).tz_name if Store.exists(ctx.obj["dir"]) else "UTC"
    tz = zone(timezone)
    spans = find_times(text, read_reference(reference, day_first=day_first, tz=tz, now=lambda: datetime.now(UTC)),
                       day_first=day_first, tz=tz)
    if as_json:
        output.dump_json(span.as_json() for span in spans)
        return
    if not spans:
        output.plain("no time expressions found")
        return
    if not (ctx.obj or {}).get("utc"):
        output.use_zone(tz, timezone)
    rows = [[span.text, f"{output.when(span.start)} → {output.when(span.end) or 'open'}", span.granularity]
            if isinstance(span, TimeSpan) else [span.text, span.problem, "not used"] for span in spans]
    laid = table([Column("text", "wrap", least=12), Column("period", "keep"), Column("granularity", "keep")],
                 rows, output.width(), header=False)  # one phrase a line
    for line in laid.lines:
        output.plain(line)
