"""Recall commands: search with ranked answers, and the synonyms that point words at predicates.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

import click

from . import json_option, main, moment, note_unsettled, open_store, output, utc_option
from .everyday import provenance
from .ingest import progress_bar
from .layout import Column

if TYPE_CHECKING:
    from ..recall import Answer, MessageHit, Resolved, TimeFilter

__all__ = []

AS_OF_HELP = "Transaction time: what was believed then (default now)."


def _resolved(resolved: Sequence[Resolved], time: TimeFilter | None) -> list[str]:
    """What the question's relation and event phrases were resolved to, and the time phrase's
    window when no event set it."""
    parts = []
    for r in resolved:
        if r.kind == "relation":
            parts.append(f"“{r.phrase}” = {r.entity} ({r.statement}, {r.fact})")
        elif r.fact is None:
            parts.append(f"“{r.phrase}”: no such fact known")
        else:
            edge = output.short(r.at) if r.at is not None else "?"
            parts.append(f"time: “{r.phrase}” = {r.phrase.split()[0].casefold()} {edge} ({r.statement}, {r.fact})")
    if time and not any(r.kind == "event" and r.fact for r in resolved):
        parts.append(f"time: {time.text}")
    return parts


def _why(hit: Answer) -> str:
    if hit.kind == "message":
        parts = ["words: " + ", ".join(hit.words)] if hit.words else []
        parts.extend(_resolved(hit.resolved, hit.time))
        return "; ".join(parts)
    m = hit.matched
    parts = []
    if m.anchor:
        parts.append(f"about {m.anchor}" + (f" → {m.via}" if m.via else ""))
    if m.synonyms:
        parts.append(", ".join(f"“{s.phrase}” → {s.predicate}" for s in m.synonyms))
    if m.words:
        parts.append("words: " + ", ".join(m.words))
    parts.extend(_resolved(m.resolved, m.time))
    if m.semantic is not None:
        parts.append(f"meaning {m.semantic:.2f}")
    return "; ".join(parts)


def _said(message: MessageHit) -> tuple[str, ...]:
    """When a message was said, and the times its phrases name: ``2023-05-08 14:02``, ``yesterday = 2023-05-07``."""
    named = [f"{t.text} = {output.short(t.valid_from)}" + ("" if t.valid_to is None or
             t.valid_to - t.valid_from <= timedelta(days=1) else f" → {output.short(t.valid_to)}")
             for t in message.times]
    return (*output.short_parts(message.said_at), *named)


def _turns(message: MessageHit) -> str:
    turns = [*(f"before, {t.speaker or '?'}: “{t.text}”" for t in message.before),
             *(f"after, {t.speaker or '?'}: “{t.text}”" for t in message.after)]
    return " · ".join(turns)


def hits_table(hits: Sequence[Answer], title: str) -> None:
    """Print answers as a table, essential columns first (rank, id, the fact or the message, its
    status), then when (a fact's valid period; when a message was said and the times it names),
    score (only when every answer is of one kind, facts and messages scoring on different scales,
    and the answers are in the order of their scores: the rank is their place in the fused
    ranking), the source sentence or the turns around a message, and why it matched (left out in a
    narrow terminal)."""
    if not hits:
        output.say(f"{title}: nothing")
        return
    columns = [Column("#", "keep"), Column("id", "keep"), Column("answer", "wrap", least=14, most_lines=8),
               Column("status", "keep"), Column("when", "parts", optional=True),
               Column("score", "keep", optional=True),
               Column("source", "wrap", least=16, most_lines=3, optional=True),
               Column("why", "wrap", least=12, most_lines=3, optional=True)]
    # a fact's score and a message's are on different scales: their place in the fused ranking is the rank;
    # and where other signals ordered them (a name asked for, a time from the words), a score that
    # contradicts the order would mislead: the column is shown only when the order is the scores'
    scored = len({hit.kind for hit in hits}) == 1 and all(x.score >= y.score for x, y in zip(hits, hits[1:]))
    if not scored:
        columns = [c for c in columns if c.name != "score"]
    rows = []
    for rank, hit in enumerate(hits, 1):
        score = [f"{hit.score:.2f}"] if scored else []
        if hit.kind == "message":
            rows.append([str(rank), hit.episode, f"{hit.speaker or f'({hit.episode_kind})'}: “{hit.text}”",
                         "assistant said" if hit.role == "assistant" else "said", _said(hit),
                         *score, _turns(hit), _why(hit)])
            continue
        v = hit.version
        sentence = f"{hit.matched.episode}: “{hit.matched.sentence}”" if hit.matched.sentence else ""
        rows.append([str(rank), v.id, f"{v.subject} {v.predicate} {v.object}", v.status or "",
                     output.period_parts(v.valid_from, v.valid_to), *score, sentence, _why(hit)])
    output.print_table(columns, rows, f"{title} (times in {output.zone_name()})")


@main.command("search")
@click.argument("text")
@click.option("--as-of", help=AS_OF_HELP)
@click.option("--valid-at", default="all", show_default=True, help="Only facts valid at this time, or 'all'.")
@click.option("--after", help="Only facts still valid after this time.")
@click.option("--before", help="Only facts valid before this time.")
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True, help="At most this many answers.")
@click.option("--speaker", envvar="GRAPHMEM_SPEAKER",
              help="Who is asking: 'I', 'me', 'my' mean this entity (or set GRAPHMEM_SPEAKER).")
@click.option("--keyword-only", is_flag=True, help="Rank by words alone, even with an embeddings endpoint set.")
@click.option("--facts-only", is_flag=True, help="Answer with facts alone, no messages.")
@json_option
@utc_option
@click.pass_context
def search_command(ctx, text, as_of, valid_at, after, before, limit, speaker, keyword_only, facts_only, as_json):
    """The facts and messages that best answer TEXT, as believed at --as-of, best first.

    Facts: any word may match (compared by stem); synonyms point at predicates ("job",
    "employer" → works_at; see `graphmem synonym list`); entities the question names bring
    their facts forward; a time phrase ("in 2023", "before she moved") keeps facts valid then.
    Messages (every episode received by --as-of): ranked by their words, their speaker's name
    and the turn before them; a time phrase keeps those said then or naming a time then. A
    question asking "when" puts first the answers whose time comes from words. With an
    embeddings endpoint (GRAPHMEM_EMBED_BASE_URL, GRAPHMEM_EMBED_MODEL), meaning counts too.
    --json rows say their kind ("fact" or "message") and the episodes they cite.

    \b
    Examples:
      graphmem search "where does Ivan live"
      graphmem search "who did Priya work for in 2021" --json
      graphmem search "where did I live before I moved" --speaker Maya
    """
    store = open_store(ctx)
    hits = store.search(text, as_of=as_of, valid_at=valid_at, after=after, before=before, limit=limit,
                        speaker=speaker, semantic=not keyword_only, messages=not facts_only)
    nobody = speaker is None and _asks_as_someone(text)
    if as_json:
        episodes = provenance(store, [h.version for h in hits if h.kind == "fact"])
        output.dump_json(output.answer_record(h, episodes) for h in hits)
        if nobody:  # the JSON on stdout stays whole; a script must see it too (a new user's: a sister's job, no word)
            click.echo(f"note: {_NOBODY}", err=True)
        return
    valid = "" if valid_at == "all" else f", valid at {moment(valid_at, store)}"
    from ..recall import believed_then

    then = believed_then(text, store.now(), store.tz) if as_of is None else None  # "what did you believe … in August"
    shown = moment(as_of, store) if then is None else f"{output.short(then)}, as the question asks"
    hits_table(hits, f"search {text!r} (as of {shown}{valid})")
    note_unsettled(store, as_of)
    note_nothing_said_then(hits, store)
    note_misspelt(store, text, hits)
    if nobody:
        output.say(f"note: {_NOBODY}")


#: Said when a question asks as "I" and no one is asking.
_NOBODY = ('"I" is no one here (no --speaker, no GRAPHMEM_SPEAKER): the answers are anyone\'s; to ask as someone, give '
           "--speaker NAME")


def _asks_as_someone(text: str) -> bool:
    """Whether a question says "I", "my", "we"… of whoever asks (a new user's "where do I live", asked as no one and
    answered with her brother's home, no word why); not "World War I", "the mine", "where does Mine work"."""
    from ..recall import FIRST_PERSON

    words = re.findall(r"[^\W\d_]+", text)
    for n, word in enumerate(words):
        before = words[n - 1].lower() if n else ""
        if word.lower() not in FIRST_PERSON or before in ("the", "a", "war", "world", "part", "chapter"):
            continue
        if word == "I" or word.islower() or n == 0:
            return True
    return False


#: A word written with a capital after a question's first: a name the question may mean ("where does Pryia work").
_CAPITALISED = re.compile(r"(?<=\s)[A-Z][^\W\d_]{2,}(?:['’]s)?")


def note_misspelt(store, text: str, hits: Sequence[Answer]) -> None:
    """Say "did you mean" of a name the question writes with a capital that no entity or speaker has, no answer holds
    and a known name is spelt like (a new user's "where does Pryia work" quietly fell back to the words; `timeline
    Pryia` offered Priya)."""
    from ..core.names import unaccented

    shown = unaccented(" ".join(f"{h.speaker or ''} {h.text}" if h.kind == "message" else
                                f"{h.version.subject} {h.version.object or ''}" for h in hits).casefold())
    for word in dict.fromkeys(re.sub(r"['’]s$", "", w) for w in _CAPITALISED.findall(text)):
        if unaccented(word.casefold()) in shown or store.knows_speaker(word):
            continue  # (a name an answer holds, its speaker's too, accents aside: "Tomas" of Tomás Ferreira, "Beatriz"
            # who said it; a new user's)
        near = store.near_names(word)
        if near:
            output.say(f"note: the store knows nothing called {word!r}; did you mean "
                       f"{' or '.join(repr(name) for name in near[:3])}?")


def note_nothing_said_then(hits: Sequence[Answer], store=None) -> None:
    """Say when the question's time phrase held no message shown ("what did I say in march", asked in December of a
    chat of the year before: March is this year's, and nobody wrote then; a new user's): the messages shown were
    said at other times, found by a time they name or said before it."""
    from ..recall import NOTHING_SAID, NOTHING_SAID_BY  # here: the results' models are loaded by searching

    said = [h for h in hits if h.kind == "message" and h.time is not None]
    window = said[0].time if said else None
    if window is None:
        return
    if window.text.endswith(NOTHING_SAID_BY):
        phrase = window.text.removeprefix("said at any time, ").removesuffix(f" {NOTHING_SAID_BY}")
        output.say(f"note: nothing said during {phrase!r} or before it matched; the messages shown were said at any "
                   "time (the phrase is read as what is talked of, not when)")
        return
    start, end = window.valid_from, window.valid_to
    before = window.text.endswith(NOTHING_SAID)  # nothing said in the window: those shown were said before its end

    def then(moment) -> bool:
        return (start is None or moment >= start) and (end is None or moment < end)
    if not before and any(then(h.said_at) for h in said):
        return
    cited = sorted({e for h in hits if h.kind == "fact" for e in h.version.episodes})
    if store is not None and cited and any(then(e.reference_time) for e in store.episodes(cited)):
        return  # a fact shown was told then (a new user's "where did I work in May": the job's start, said in May)
    phrase = window.text.removeprefix("said before the end of ").removesuffix(f" {NOTHING_SAID}")
    span = output.period(None, end) if before else output.period(start, end)
    output.say(f"note: no message shown was said during {phrase!r} ({span}); to ask of another year, name it "
               "(\"in march 2025\"), or search --as-of a date in that year")


@main.group("synonym")
def synonym_group():
    """Words that point at predicates in searches ("employer" → works_at).

    Built-in synonyms cover the usual predicates; a store adds its own (a setting kept in the
    store and exported with the log, not a log write).
    """


@synonym_group.command("add")
@click.argument("words")
@click.argument("predicate")
@click.pass_context
def synonym_add(ctx, words, predicate):
    """Let WORDS (one or more, quoted) name PREDICATE in this store's searches."""
    open_store(ctx).add_synonym(words, predicate)
    output.plain(f"“{words}” → {predicate}")


@synonym_group.command("remove")
@click.argument("words")
@click.argument("predicate", required=False)
@click.pass_context
def synonym_remove(ctx, words, predicate):
    """Forget a synonym this store added (for PREDICATE only, when given)."""
    open_store(ctx).remove_synonym(words, predicate)
    output.plain(f"removed “{words}”" + (f" → {predicate}" if predicate else ""))


@synonym_group.command("list")
@click.option("--own", is_flag=True, help="Only the synonyms this store added.")
@json_option
@click.pass_context
def synonym_list(ctx, own, as_json):
    """List the synonyms searches use: phrase → predicates."""
    store = open_store(ctx)
    found = store.own_synonyms() if own else store.synonyms()
    if as_json:
        output.dump_json({"words": phrase, "predicates": predicates} for phrase, predicates in sorted(found.items()))
        return
    if not found:
        output.plain("no synonyms of this store's own; add one with `graphmem synonym add WORDS PREDICATE`")
    for phrase, predicates in sorted(found.items()):
        output.plain(f"{phrase:24} {', '.join(predicates)}")


@main.command("embed")
@json_option
@click.pass_context
def embed_command(ctx, as_json):
    """Make the vectors semantic search needs, for every fact and episode that has none yet.

    Needs an OpenAI-compatible embeddings endpoint: GRAPHMEM_EMBED_BASE_URL (e.g.
    http://localhost:8000/v1), GRAPHMEM_EMBED_MODEL and, if it wants one, GRAPHMEM_EMBED_API_KEY.
    Writes embed what they add as they go; this fills the gaps (after an import, a failed call,
    or a change of model).
    """
    store = open_store(ctx)
    with progress_bar() as advance:
        done = store.embed(lambda n, total: advance("embedding", n, total))
    if as_json:
        output.dump_json([done])
    else:
        output.plain(f"embedded {done.versions} facts and {done.episodes} episodes with {done.model}")
