"""The everyday commands: set up, write, query, review, export/import, check, demo.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import difflib
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.aliases import ALIAS
from ..core.names import PREDICATE_KINDS, clipped, entity_key, unaccented
from ..core.relations import relation_of, shown_name
from ..core.times import iso
from ..errors import Conflict, GraphmemError, NotFound
from . import (
    allow_future_option,
    counted,
    json_option,
    main,
    moment,
    moments,
    note_after,
    note_names_later,
    note_recorded_later,
    note_unsettled,
    open_store,
    output,
    recorded_at_option,
    source_options,
    utc_option,
    writes,
)
from .layout import Column

if TYPE_CHECKING:
    from .._store import Store
    from ..models import Decision

# -- setup ---------------------------------------------------------------------------


__all__ = ["provenance"]

@main.command()
@click.option("--timezone", "--tz", help="Zone in which naive times and bare dates are read (default UTC; a store "
                                "keeps the zone it was made with).")
@click.pass_context
def init(ctx, timezone):
    """Create the store (if it does not exist yet)."""
    store = open_store(ctx, create=True, timezone=timezone)
    output.plain(f"store ready at {ctx.obj['dir']} (engine {store.engine}, times read in {store.tz_name})")


@main.command()
@click.argument("name")
@click.option("--kind", type=click.Choice(PREDICATE_KINDS), required=True,
              help="one: one value at a time; many: several at once; event: each occurrence apart.")
@click.pass_context
def predicate(ctx, name, kind):
    """Declare a predicate's kind (not a log write)."""
    open_store(ctx).declare(name, kind)
    output.plain(f"{name} is {kind}")


@main.command()
@json_option
@click.pass_context
def predicates(ctx, as_json):
    """List the predicates known (the defaults and those declared) and those facts use, with their kinds."""
    store = open_store(ctx)
    known = store.predicates(in_use=True)
    if as_json:
        output.dump_json([{"name": n, "kind": k} for n, k in sorted(known.items())])
    else:
        for name, kind in sorted(known.items()):
            output.plain(f"{name:20} {kind}")


# -- writes --------------------------------------------------------------------------


@main.command()
@click.argument("subject")
@click.argument("predicate")
@click.argument("obj", metavar="OBJECT")
@click.option("--from", "valid_from", help="Valid from (default: the episode's time, or now).")
@click.option("--to", "valid_to", help="Valid until (exclusive; default open).")
@source_options
@writes
@click.pass_context
def add(ctx, subject, predicate, obj, valid_from, valid_to, episode, quote, recorded_at):
    """Assert SUBJECT PREDICATE OBJECT."""
    store = open_store(ctx)
    close = _new_predicate_near_known(store, predicate)
    new = close is None and relation_of(predicate) is None and predicate != ALIAS and predicate not in \
        store.predicates() and predicate not in store.predicates(in_use=True)  # (a relation, "brother_of", holds side
    # by side by nature)
    twins = [(name, twin) for name in (subject, obj) if (twin := _spelled_otherwise(store, name))]
    decision = store.add(subject, predicate, obj, valid_from=valid_from, valid_to=valid_to, episode=episode,
                         quote=quote, recorded_at=recorded_at)
    for name, twin in twins:  # "Zoe" beside "Zoë": a new user's, two people written apart without a word
        note_after(f"note: {name!r} is a new entity beside {twin!r}, the same letters with other accents; if they "
                   f"are one: graphmem alias add {shlex.quote(name)} {shlex.quote(twin)}")
    if decision.op == "NOOP":
        _why_nothing_changed(store, subject, predicate, obj, decision.at if valid_from is None else
                             store.time(valid_from))
    elif decision.created and store.kind_of(predicate) == "one":
        _held_under_another_name(store, subject, predicate, obj, store.version(decision.created[-1]))
    if close:  # "wroks_at": a new user's typo, accepted as a new predicate without a word
        note_after(f"note: no fact used the predicate {predicate!r} before; did you mean {close!r}? (to undo: "
                   f"graphmem retract {decision.created[0] if decision.created else 'VERSION'} --reason typo)")
    elif new:  # a new user's `lives_at`, two homes at once, found too late to declare it `one`
        note_after(f"note: {predicate!r} is a new predicate, taken as 'many' (its values hold side by side); its kind "
                   f"cannot change now: for one value at a time, declare a predicate before its first fact "
                   f"(graphmem predicate NAME --kind one)")
    return decision


def _held_under_another_name(store, subject: str, predicate: str, obj: str, written) -> None:
    """After a value of a ``one`` predicate is written under one name of an entity (the version ``written``), say what
    another of its names holds at the same valid time (a new user's move, written under "Mrs H", left Mrs
    Hargreaves's old home current without a word: a clash is shown, never settled, and `check` lists it). One read of
    the history under every name (a reviewer's: a read per name cost two minutes at 200 aliases)."""
    name = entity_key(subject)
    held = [v for v in store.history(subject, predicate) if v.status in ("current", "upcoming", "ended")
            and entity_key(v.subject) != name and v.object is not None and entity_key(v.object) != entity_key(obj)
            and (written.valid_to is None or v.valid_from < written.valid_to)
            and (v.valid_to is None or written.valid_from < v.valid_to)]  # (at the same valid time)
    same = {entity_key(e.name) for e in store.names_of(obj)} if held else set()  # the value under another name
    for v in held:
        if entity_key(v.object) not in same:
            note_after(f"note: {v.subject}, another name of {subject}, holds {predicate} {v.object} too ({v.id}); "
                       f"both are believed until one ends: graphmem end {shlex.quote(v.subject)} {predicate} "
                       f"{shlex.quote(v.object)} --at {iso(max(v.valid_from, written.valid_from))}")


def _spelled_otherwise(store, name: str) -> str | None:
    """The name of a known entity that ``name``, no entity yet, spells with other accents ("Zoe" of "Zoë")."""
    if len(unaccented(name)) < 2:
        return None
    found = {e.name for e in store.spelled_like(name, whole=True, limit=50) if e.id != entity_key(name)}
    if not found:
        return None
    try:
        store.entity(name)
        return None  # known already: said so before, or joined as the user chose
    except NotFound:
        return min(found)


def _new_predicate_near_known(store, predicate: str) -> str | None:
    """The known predicate ``predicate`` may be a typo of, when no fact uses it yet: "wroks_at" -> "works_at"
    (the predicates facts use are read, in one scan of the edges, only for one the defaults and declarations lack)."""
    if predicate in store.predicates():
        return None
    known = store.predicates(in_use=True)
    close = None if predicate in known else difflib.get_close_matches(predicate, list(known), 1, cutoff=0.8)
    return close[0] if close else None


def _why_nothing_changed(store, subject: str, predicate: str, obj: str, start) -> None:
    """After an assert that changed nothing, name the believed version that already holds it where the period given
    begins (``start``), and how to change when it held (``correct``)."""
    held = [v for v in store.beliefs(valid_at="all", about=subject) if v.predicate == predicate and
            v.object is not None and entity_key(v.object) == entity_key(obj) and v.valid_from <= start and (
                v.valid_to is None or start < v.valid_to)]
    if held:
        v = held[0]
        note_after(f"nothing changed: {v.subject} {v.predicate} {v.object} is already believed ({v.id}, valid "
                   f"{output.period(v.valid_from, v.valid_to)}), which covers what was given. To change when it "
                   f"held: graphmem correct {v.id} --from ... --to ... --reason ...")


@main.command()
@click.argument("subject")
@click.argument("predicate")
@click.argument("obj", metavar="[OBJECT]", required=False)
@click.option("--at", "at", help="When it stopped being true (default: the episode's time, or now).")
@source_options
@writes
@click.pass_context
def end(ctx, subject, predicate, obj, at, episode, quote, recorded_at):
    """The world changed: SUBJECT PREDICATE [OBJECT] stopped holding --at a time."""
    store = open_store(ctx)
    try:
        decision = store.end(subject, predicate, obj, at=at, episode=episode, quote=quote, recorded_at=recorded_at)
    except Conflict as exc:
        if close := _new_predicate_near_known(store, predicate):
            raise Conflict(f"{exc}; no fact uses the predicate {predicate!r}: did you mean {close!r}?") from exc
        raise
    if decision.op == "NOOP":  # (as `add` says why nothing changed: a reviewer's)
        note_after(f"nothing changed: {subject} {predicate}{' ' + obj if obj else ''} already ends then (graphmem "
                   f"history {shlex.quote(subject)} {predicate} shows it); to end it at another time: graphmem "
                   "correct VERSION --to ... --reason ...")
    return decision


@main.command()
@click.argument("version_id")
@click.option("--reason", required=True, help="Why it was never true.")
@source_options
@writes
@click.pass_context
def retract(ctx, version_id, reason, episode, quote, recorded_at):
    """We were wrong: withdraw a version as never true (it stays in the log)."""
    return open_store(ctx).retract(version_id, reason=reason, episode=episode, quote=quote, recorded_at=recorded_at)


@main.command()
@click.argument("version_id")
@click.argument("obj", metavar="[OBJECT]", required=False)
@click.option("--reason", required=True, help="What was wrong.")
@click.option("--from", "valid_from", help="When it really began (default: the version's start).")
@click.option("--to", "valid_to", help="When it really ended, or 'open' (default: the version's end).")
@source_options
@writes
@click.pass_context
def correct(ctx, version_id, obj, reason, valid_from, valid_to, episode, quote, recorded_at):
    """Retract a version and assert OBJECT for the same period, in one write; with --from/--to, for the
    period they give (OBJECT: default the version's own value): "no wait, it was Tuesday"."""
    if obj is None and valid_from is None and valid_to is None:
        raise click.UsageError("give the right OBJECT, or --from/--to for when it held")
    store = open_store(ctx)
    decision = store.correct(version_id, obj, reason=reason, valid_from=valid_from, valid_to=valid_to,
                             episode=episode, quote=quote, recorded_at=recorded_at)
    if valid_from is not None:
        _gap_note(store, store.version(version_id), store.time(valid_from))
    return decision


def _gap_note(store, corrected, start) -> None:
    """Say where a start corrected later leaves a time no value of a one-valued fact holds: the value before it was
    closed at the old start by the write that added the corrected one, and stays so (a new user's: "the move was
    delayed" left June with no address, without a word)."""
    old = corrected.valid_from
    if start <= old or store.kind_of(corrected.predicate) != "one":
        return
    believed = [v for v in store.history(corrected.subject, corrected.predicate) if v.status in ("current", "ended")]
    before = next((v for v in believed if v.valid_to == old), None)
    if before is None or any(v.valid_from <= old and (v.valid_to is None or v.valid_to > old) for v in believed):
        return  # no value before it that the first write closed there, or one holds there still
    note_after(f"note: nothing is believed of {corrected.subject} {corrected.predicate} from {iso(old)} to "
               f"{iso(start)} now: correcting a start does not reopen what the first write closed; if "
               f"{before.object!r} held until then, `graphmem correct {before.id} --to {iso(start)} --reason "
               f"\"it held until then\"`")


@main.command()
@click.argument("subject")
@click.argument("predicate")
@click.argument("obj", metavar="OBJECT")
@click.option("--from", "valid_from", required=True, help="Start of the period.")
@click.option("--to", "valid_to", required=True, help="End of the period (exclusive).")
@source_options
@writes
@click.pass_context
def segment(ctx, subject, predicate, obj, valid_from, valid_to, episode, quote, recorded_at):
    """State OBJECT for a past period, cutting the history around it."""
    return open_store(ctx).segment(subject, predicate, obj, valid_from=valid_from, valid_to=valid_to,
                                   episode=episode, quote=quote, recorded_at=recorded_at)


@main.command()
@click.argument("target", type=click.Choice(["entity", "episode", "version"]))
@click.argument("target_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Confirm: the content is deleted for good.")
@recorded_at_option
@click.pass_context
def purge(ctx, target, target_id, yes, recorded_at):
    """Hard-delete an entity, episode or version (privacy); a tombstone remains."""
    if not yes:
        raise GraphmemError("purge deletes for good; add --yes to confirm")
    store = open_store(ctx)
    names = [e.name for e in store.names_of(target_id)] if target == "entity" else []  # every name it goes by
    with output.progress("purging and rewriting the store's files"):
        tomb = store.purge(target, target_id, recorded_at=recorded_at)
    output.plain(f"PURGE {tomb.id}: {target} removed with {counted(len(tomb.versions), 'version')}, "
                 f"{counted(len(tomb.episodes), 'episode')}, {counted(tomb.proposals, 'proposal')}")
    alike = list({e.id: e for name in names for e in store.same_words(name)}.values())
    if alike:  # "Jose Alvarez" after "José Álvarez", "Mélanie" after Mel purged with Melanie: others
        kept = ", ".join(repr(e.name) for e in alike[:5]) + (f" and {len(alike) - 5} more" if len(alike) > 5 else "")
        output.say(f"note: kept {len(alike)} other {'entity' if len(alike) == 1 else 'entities'} with the same "
                   f"words in other accents, case or order: {kept}; purge each too if it is the same person")


# -- queries --------------------------------------------------------------------------


@main.command()
@click.option("--as-of", help="Transaction time: what was believed then (default now).")
@click.option("--valid-at", help="Valid time, or 'all' (default: the --as-of time).")
@click.option("--about", metavar="ENTITY", help="Only the facts with ENTITY as subject or object.")
@json_option
@utc_option
@click.pass_context
def beliefs(ctx, as_of, valid_at, about, as_json):
    """The facts believed at --as-of and valid at --valid-at (with --about, an entity's only)."""
    store = open_store(ctx)
    with _messages_hint(about, store, speakers_only=True):
        found = store.beliefs(as_of=as_of, valid_at=valid_at, about=about)
    if as_json:
        output.dump_json(output.version_record(v) for v in found)
    else:
        whose = "" if about is None else f" about {store.entity(about).name}"
        output.versions_table(found, f"beliefs{whose} {moments(as_of, valid_at, store)}")
        if about is not None:
            note_names_later(store, about, as_of)
        note_unsettled(store, as_of)
        note_recorded_later(store, as_of, found)


HISTORY_EXTRA = output.HISTORY_EXTRA


def provenance(store: Store, versions) -> dict:
    """The episodes cited by some versions, by id."""
    ids = output.cited_ids(versions)
    return {e.id: e for e in store.episodes(ids)} if ids else {}


source_records = output.source_records


@main.command()
@click.argument("subject")
@click.argument("predicate")
@json_option
@utc_option
@click.pass_context
def history(ctx, subject, predicate, as_json):
    """Every version of SUBJECT PREDICATE ever written, newest first, with its sources."""
    store = open_store(ctx)
    found = store.history(subject, predicate)
    episodes = provenance(store, found)
    if as_json:
        output.dump_json({
            **output.version_record(v, HISTORY_EXTRA), "provenance": source_records(v, episodes),
        } for v in found)
    else:
        names = list(dict.fromkeys(v.subject for v in found)) or [subject]
        title = f"history of {' / '.join(names)} {predicate}, newest first"  # several: its aliases
        output.versions_table(found, title, episodes, about=len(names) > 1)
    if not found and predicate not in (known := store.predicates()):
        note = None
        if meant := store.synonyms().get(predicate):
            note = (f"note: no fact uses the predicate {predicate!r}; search reads {predicate!r} as "
                    f"{' or '.join(meant)}: try `graphmem history {subject} {meant[-1]}`")
        elif close := sorted(p for p in known if p.startswith(f"{predicate}_")) or difflib.get_close_matches(
                predicate, list(known), 1):  # "lives": lives_in before likes (a new user's)
            note = (f"note: no fact uses the predicate {predicate!r}; did you mean "
                    f"`graphmem history {subject} {close[0]}`?")  # "livesin", a new user's typo
        if note and as_json:
            click.echo(note, err=True)  # "worksat --json" answered [] and no word why (a new user's)
        elif note:
            output.say(note)


@main.command()
@click.argument("entity")
@click.option("--as-of", help="Transaction time (default now).")
@json_option
@utc_option
@click.pass_context
def timeline(ctx, entity, as_of, as_json):
    """ENTITY's facts laid out on valid time, as believed at --as-of."""
    store = open_store(ctx)
    with _messages_hint(entity, store):
        found = store.timeline(entity, as_of=as_of)
    if as_json:
        output.dump_json(output.version_record(v) for v in found)
    else:
        names = [e.name for e in store.names_of(entity, as_of=as_of)]
        lead = shown_name(names)  # the first that is no unnamed relative's stand-in ("Chioma", not "Em's sister")
        also = [n for n in names if n != lead]
        output.versions_table(found, f"timeline of {lead}" + (f" (also {', '.join(also)})" if also else "") +
                              f" as of {moment(as_of, store)}")
        note_names_later(store, entity, as_of)
        note_unsettled(store, as_of)
        note_recorded_later(store, as_of, found)


@main.command()
@click.argument("t1")
@click.argument("t2")
@json_option
@utc_option
@click.pass_context
def diff(ctx, t1, t2, as_json):
    """What started and stopped being believed after T1 up to T2, and why."""
    store = open_store(ctx)
    changes = store.diff(t1, t2)
    if as_json:
        output.dump_json(output.change_record(c) for c in changes)
        return
    if not changes:
        output.say(f"no change in belief between {t1} and {t2}")
    else:
        columns = [Column("at", "keep"), Column("change", "keep"), Column("believed", "keep"), Column("id", "keep"),
                   Column("fact", least=12), Column("valid", "parts", optional=True),
                   Column("reason", "wrap", least=10, optional=True)]
        rows = [[output.short(c.at), c.change, c.believed, c.version.id if c.version else "",
                 f"{c.version.subject} {c.version.predicate} {c.version.object}" if c.version else "",
                 output.period_parts(c.version.valid_from, c.version.valid_to) if c.version else "",
                 c.reason or ""] for c in changes]
        output.print_table(columns, rows, f"changes in belief after {t1} up to {t2} "
                                          f"(times in {output.zone_name()})")
    note_unsettled(store, t2)


@main.command()
@click.argument("subject")
@click.argument("predicate")
@click.option("--valid-at", required=True, help="The valid time asked about.")
@click.option("--as-of", required=True, help="The earlier transaction time.")
@click.option("--vs", help="The later transaction time (default now).")
@json_option
@utc_option
@click.pass_context
def why(ctx, subject, predicate, valid_at, as_of, vs, as_json):
    """Why the answer for SUBJECT PREDICATE at --valid-at differs between --as-of and --vs."""
    store = open_store(ctx)
    answer = store.why(subject, predicate, valid_at=valid_at, as_of=as_of, vs=vs)
    if as_json:
        output.dump_json([answer])
        return
    for label, when, found in (("as of", answer.as_of, answer.before), ("as of", answer.vs, answer.after)):
        values = ", ".join(f"{v.object} ({v.id}" + (f", said of {v.subject}" if v.subject != answer.subject else "")
                           + ")" for v in found) or "nothing"
        output.plain(f"{label} {output.when(when)}: {subject} {predicate} = {values}")
    for d in answer.decisions:
        output.plain(f"  {output.when(d.at)} {d.op} {d.id}: created {', '.join(d.created) or '-'}, "
                     f"closed {', '.join(d.closed) or '-'}" + (f" ({d.reason})" if d.reason else ""))
    for e in answer.episodes:
        output.plain(f"  {e.id} [{e.kind}] {output.when(e.reference_time)}: “{e.text}”")
    note_names_later(store, subject, as_of)
    note_unsettled(store, as_of, vs)


@main.command()
@click.option("--about", help="Only episodes supporting facts about this entity.")
@click.option("--by", metavar="SPEAKER", help="Only episodes said by this speaker (their messages).")
@json_option
@utc_option
@click.pass_context
def episodes(ctx, about, by, as_json):
    """List episodes: id, kind, reference time, who said it and text (`graphmem episode ID` shows one whole)."""
    store = open_store(ctx)
    with _messages_hint(about, store, by=by is None):
        found = store.episodes(about=about, by=by)
    if as_json:
        output.dump_json(found)
        return
    which = (f" about {about}" if about else "") + (f" by {by}" if by else "")
    if not found:
        output.say("no episodes" + which)
        return
    columns = [Column("id", "keep"), Column("kind", "keep"), Column("said", "keep"), Column("by", "cut", least=4),
               Column("text", "wrap", least=20, most_lines=3)]
    output.print_table(columns, [[e.id, e.kind, output.short(e.reference_time), e.actor or "", e.text]
                                 for e in found],
                       f"episodes{which} (times in {output.zone_name()})")


@contextmanager
def _messages_hint(name: str | None, store: Store | None = None, *, speakers_only: bool = False,
                   by: bool = False) -> Iterator[None]:
    """An unknown entity's error, with where the messages naming it are found: a name said in chat that no fact is
    about yet ("episodes --about Kieran", Kieran named in many messages) is no entity, but search finds it; one who
    wrote messages is told so ("beliefs --about Nacho", who wrote half a chat: a new user's)."""
    try:
        yield
    except NotFound as error:
        if name is None or "did you mean" in str(error):
            raise
        if store is not None and store.knows_speaker(name):
            hint = f"`graphmem episodes --by {shlex.quote(name)}` lists them" if by else \
                f"`graphmem search {shlex.quote(name)}` finds them and those that name them"
            raise NotFound(f"{error}; no fact is about {name} yet, though {name} wrote messages: {hint}") from None
        if speakers_only:
            raise
        raise NotFound(f"{error}; no fact is about it: `graphmem search {shlex.quote(name)}` looks for messages "
                       "that name it") from None


@main.command()
@click.argument("episode_id")
@json_option
@utc_option
@click.pass_context
def episode(ctx, episode_id, as_json):
    """One episode with the versions it supports."""
    store = open_store(ctx)
    found, versions = store.episode(episode_id), store.versions_of(episode_id)
    if as_json:
        output.dump_json([output.episode_record(found, versions)])
        return
    output.plain(f"{found.id} {found.kind} by {found.actor or 'unknown'} at {output.when(found.reference_time)}: "
                 f"“{found.text}”")
    output.versions_table(versions, f"versions supported by {found.id}")


@main.command()
@click.argument("version_id")
@json_option
@utc_option
@click.pass_context
def show(ctx, version_id, as_json):
    """One version with its episodes."""
    store = open_store(ctx)
    version = store.version(version_id)
    if as_json:
        output.dump_json([output.shown_record(version, store.episodes_of(version_id))])
    else:
        output.versions_table([version], f"version {version_id}", provenance(store, [version]))


# -- review --------------------------------------------------------------------------


@main.group()
def review():
    """The review queue: proposed facts waiting for approval."""


@review.command("list")
@click.option("--all", "show_all", is_flag=True, help="Include approved and rejected proposals.")
@json_option
@click.pass_context
def review_list(ctx, show_all, as_json):
    """List pending proposals with their source sentence and, where one is known, why each waits (the
    extractor's doubt, or the gate's refusal when it was approved with its message)."""
    store = open_store(ctx)
    found = store.proposals(None if show_all else "pending")
    if as_json:
        output.dump_json(found)
        return
    if not found:
        output.plain("no proposals waiting")
        return
    columns = [Column("id", "keep"), Column("state", "keep"), Column("proposed", "wrap", least=16),
               Column("valid", "parts"), Column("sentence", "wrap", least=16, most_lines=6)]
    why = any(p.reason for p in found)  # why one waits, or was rejected: a column when any says
    if why:
        columns.append(Column("why", "wrap", least=16, most_lines=4, beneath=True))
    output.print_table(columns, [[p.id, p.state, f"{p.op} {p.subject} {p.predicate} {p.object or ''}".strip(),
                                  _proposed_period(p),
                                  _sentence(store, p), *([p.reason or ""] if why else [])]
                                 for p in found])


def _proposed_period(proposal) -> tuple[str, str] | str:
    """When a proposal says its fact held: an assert's period, an end's moment ("ends 2026-10-02": it showed as
    "2026-10-02 → open", the period of what it ends left unsaid, a new user's)."""
    if proposal.valid_from is None and proposal.valid_to is None:
        return ""
    if proposal.op == "end":
        return ("ends", output.short(proposal.valid_to or proposal.valid_from))
    return output.period_parts(proposal.valid_from, proposal.valid_to)


#: How long after a message the next one still answers it, for the turn shown before a proposal's sentence.
_SITTING = timedelta(hours=6)


def _sentence(store, p) -> str:
    """A proposal's sentence, and the turn before it where the object was named there and not in the sentence
    ("how was the party?" - "messy. kat made me do karaoke": attended party)."""
    if not p.quote:
        return ""
    said = f"“{p.quote}”"
    words = [w for w in re.findall(r"\w{3,}", (p.object or "").casefold())]
    if not words or any(w in p.quote.casefold() for w in words) or not (
            p.episode and (m := re.fullmatch(r"ep(\d+)", p.episode)) and int(m[1]) > 1):
        return said
    try:
        before, this = store.episode(f"ep{int(m[1]) - 1}"), store.episode(p.episode)
    except NotFound:
        return said
    if before.kind != "chat" or not any(w in before.text.casefold() for w in words) or (
            this.reference_time - before.reference_time > _SITTING):
        return said  # (a new user's: a letter said two days before was shown as the turn before)
    return f"{said} (after {before.actor + ': ' if before.actor else ''}“{clipped(before.text, 100)}”)"


@review.command("approve")
@click.argument("ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Approve every pending proposal.")
@writes
@click.pass_context
def review_approve(ctx, ids, every, recorded_at):
    """Approve proposals: each is written through the gate now. Named by id, they are approved all or
    none; with --all, every one the gate takes is, and those it refuses stay pending, each listed with why."""
    store = open_store(ctx)
    ids = [p.id for p in store.proposals()] if every else list(ids)
    if not ids:
        raise GraphmemError("name the proposals to approve, or use --all")
    if not every:
        decisions = store.approve(ids, recorded_at=recorded_at)
        _note_believed_from_now(store, decisions)
        return decisions
    decisions, refused = store.approve_what_holds(ids, recorded_at=recorded_at)
    for proposal, why in refused:
        what = " ".join(part for part in (proposal.op, proposal.subject, proposal.predicate, proposal.object) if part)
        note_after(f"still pending: {proposal.id} ({what}): {why}")
    if refused:
        note_after(f"{counted(len(decisions), 'proposal')} approved, {len(refused)} still pending: reject them, or "
                   "fix what they clash with and approve them by id")
    _note_believed_from_now(store, decisions)
    return decisions


def _note_believed_from_now(store: Store, decisions: list[Decision]) -> None:
    """Say, once, that facts approved from messages said before are believed from their approval on (a new user's
    trial: a chat replayed, then approved, and `beliefs --as-of` a day of it said nothing)."""
    ids = sorted({d.episode for d in decisions if d.episode})
    said = min((e.reference_time for e in store.episodes(ids)), default=None) if ids else None
    if said is not None and said < decisions[0].at:
        note_after(f"note: these facts are believed from this approval on (its transaction time); when each held "
                   f"(its valid time) comes from its message, said from {output.when(said)}: `beliefs --valid-at` a "
                   "day then shows them, `--as-of` it does not")


@review.command("reject")
@click.argument("ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Reject every pending proposal.")
@click.option("--reason", required=True, help="Why they are rejected.")
@writes
@click.pass_context
def review_reject(ctx, ids, every, reason, recorded_at):
    """Reject proposals, keeping them with the reason."""
    store = open_store(ctx)
    ids = [p.id for p in store.proposals()] if every else list(ids)
    if not ids:
        raise GraphmemError("name the proposals to reject, or use --all")
    return store.reject(ids, reason=reason, recorded_at=recorded_at)


@review.command("skip")
@click.argument("sources", nargs=-1)
@json_option
@click.pass_context
def review_skip(ctx, sources, as_json):
    """Show or set which sources skip review (default: manual). SOURCES replace the whole list: name every
    source that should skip it ("graphmem review skip manual chat"); "none" for none."""
    store = open_store(ctx)
    before = store.review_skips()
    said = [s.strip().lower() for s in sources]
    if "none" in said and len(said) > 1:
        raise GraphmemError("'none' means no source skips review: give it alone, or name the sources")
    if sources:
        store.set_review_skips([] if said == ["none"] else list(sources))
    if as_json:
        output.dump_json(store.review_skips())
        return
    now = store.review_skips()
    output.plain("sources that skip review: " + (", ".join(now) or "none") +
                 (f" (was: {', '.join(before) or 'none'})" if sources and now != before else ""))
    if sources and (unseen := [s for s in now if s not in _SOURCES and s not in _sources_seen(store)]):
        output.say(f"note: no proposal or episode of this store has the source {', '.join(map(repr, unseen))} "
                   f"yet (sources are episode kinds: {', '.join(sorted(_SOURCES))}, …)")


#: Sources every store may see: the episode kinds graphmem itself records, and alias suggestions.
_SOURCES = frozenset({"manual", "chat", "import", "tool", "alias-suggest"})


def _sources_seen(store) -> set[str]:
    """The sources the store's proposals and episodes were recorded with."""
    return {p.source for p in store.proposals(None)} | {e.kind for e in store.episodes()}


# -- log -----------------------------------------------------------------------------


@main.command("export")
@click.argument("file", metavar="FILE|DIR", type=click.Path())
@click.option("--format", "log_format", type=click.Choice(["jsonl", "parquet"]), default="jsonl", show_default=True,
              help="jsonl: one JSON Lines file; parquet: a new directory of Parquet files, one per record type.")
@click.pass_context
def export_(ctx, file, log_format):
    """Write the whole log (every version, episode and write) as JSON Lines or Parquet.

    A JSON Lines FILE that exists is replaced (said on stderr); a Parquet DIR must be new or empty."""
    store = open_store(ctx)
    replaced = log_format == "jsonl" and Path(file).is_file()
    with output.progress("exporting") as bar:
        count = store.export(file, progress=bar.advance, format=log_format)
    output.plain(f"exported {counted(count, 'record')} to {file}")
    if replaced:  # a seventh new user's: an earlier export was overwritten without a word
        output.say(f"note: {file} existed; it was replaced")


@main.command("import")
@click.argument("file", metavar="FILE|DIR", type=click.Path(exists=True))
@click.option("--skip-bad", is_flag=True,
              help="Skip unreadable lines (each is reported) if the rest is still a sound log (JSON Lines only).")
@click.option("--large", is_flag=True,
              help="Import a log over 96 MiB (held in memory while checked, about ten times its size).")
@allow_future_option
@click.pass_context
def import_(ctx, file, skip_bad, large):
    """Restore an exported log into the store, all or nothing (a directory is read as Parquet)."""
    from .._store import Store

    # a new store reads naive times as the log does (an existing one must already agree)
    zone = None if Store.exists(ctx.obj["dir"]) else Store.log_zone(file)
    store = open_store(ctx, create=True, timezone=zone)
    skipped: list[str] = []
    with output.progress("importing") as bar:
        count = store.import_log(file, progress=bar.advance, on_bad_line=skipped.append if skip_bad else None,
                                 large=large)
    output.plain(f"imported {counted(count, 'record')} into {ctx.obj['dir']} ({store.engine})")
    if skipped:
        output.plain(f"skipped {counted(len(skipped), 'bad line')}:")
    for problem in skipped:
        output.plain(f"  {problem}")


@main.command()
@json_option
@click.pass_context
def check(ctx, as_json):
    """Verify the store's invariants; exit 1 if any is broken.

    Names that look alike but are other entities ("Ivan", and "Ivаn" with a Cyrillic а), and
    two names of one entity (aliases) holding different values of a one-at-a-time predicate at
    once, are warned of on stderr for review; they break no invariant."""
    from ..core.lookalike import look_alike_text

    store = open_store(ctx)
    with output.progress("checking"):
        violations = store.check()
        look_alikes = store.look_alikes()
    for group in look_alikes:  # not broken: other entities, shown alike (docs/semantics.md)
        click.echo(f"warning: look-alike names, each another entity: {look_alike_text(group)}", err=True)
    for a, b in store.alias_clashes():  # not broken either: two names of one entity disagree, for review
        click.echo(f"warning: aliases disagree: {a.id} {a.subject} {a.predicate} {a.object} and "
                   f"{b.id} {b.subject} {b.predicate} {b.object} hold at once, and {a.subject} is "
                   f"{b.subject}; end, correct or retract one (or the alias)", err=True)
    if as_json:
        output.dump_json(violations)
    elif not violations:
        output.plain("ok: no invariant is broken")
    for v in [] if as_json else violations:
        output.plain(f"{v.rule}: {v.detail}")
    if violations:
        sys.exit(1)


@main.command()
@click.option("--dir", "directory", default="graphmem-demo", show_default=True,
              type=click.Path(file_okay=False), help="Where to build the demo store (rebuilt each run).")
@click.pass_context
def demo(ctx, directory):
    """Build a store from the bundled scenario and show what it can answer."""
    from .demo import run_demo

    run_demo(Path(directory), engine=ctx.obj["engine"])


