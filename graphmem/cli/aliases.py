"""Who is who: ``graphmem alias add|end|list|suggest``: the names believed to be one entity, and
those that may be, for review.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import click

from ..core.relations import shown_name
from . import counted, json_option, main, moment, note_after, open_store, output, source_options, utc_option, writes
from .layout import Column

__all__: list[str] = []

#: The source the review queue shows for suggested aliases.
SOURCE = "alias-suggest"


@main.group()
def alias() -> None:
    """Names of one entity: "Mel" is "Melanie", "NYC" is "New York" (facts with their own history).

    An alias is the fact NAME alias_of OTHER: asserted, ended and retracted like any fact, so a
    question as of a date uses the aliases believed then. Every read (beliefs --about, history,
    timeline, search, cypher, query) treats the names of one entity as one and shows which name
    each fact was stated under. See docs/aliases.md.
    """


@alias.command("add")
@click.argument("name")
@click.argument("other")
@click.option("--from", "valid_from", help="Valid from (default: the episode's time, or now; an alias "
                                               "joins the names before it too, until it is ended).")
@source_options
@writes
@click.pass_context
def alias_add(ctx, name, other, valid_from, episode, quote, recorded_at):
    """Say that NAME and OTHER name one entity (refused, with why, for a person and a place, or
    two entities a believed fact keeps apart, such as one being the other's sister)."""
    decision = open_store(ctx).alias(name, other, valid_from=valid_from, episode=episode, quote=quote,
                                     recorded_at=recorded_at)
    if decision.op == "NOOP":  # (as `add` says why nothing changed)
        note_after(f"nothing changed: {name} and {other} are already believed to name one entity from then on "
                   "(`graphmem alias list` shows the aliases and their periods)")
    return decision


@alias.command("end")
@click.argument("name")
@click.argument("other")
@click.option("--at", "at", help="From when NAME no longer names OTHER (default: the episode's time, or now).")
@source_options
@writes
@click.pass_context
def alias_end(ctx, name, other, at, episode, quote, recorded_at):
    """NAME stopped naming OTHER --at a time, whichever way round the alias was added (to undo a wrong
    alias instead: graphmem retract VERSION)."""
    return open_store(ctx).end_alias(name, other, at=at, episode=episode, quote=quote, recorded_at=recorded_at)


@alias.command("list")
@click.option("--as-of", help="Transaction time: the aliases believed then (default now).")
@click.option("--valid-at", help="Valid time, or 'all' (the default: every alias believed --as-of).")
@json_option
@utc_option
@click.pass_context
def alias_list(ctx, as_of, valid_at, as_json):
    """The names believed to be one entity at --as-of, one group per entity, with the alias facts."""
    store = open_store(ctx)
    groups = store.aliases(as_of=as_of, valid_at=valid_at or "all")
    if as_json:
        output.dump_json(groups)
        return
    title = f"aliases as of {moment(as_of, store)}" + (f", valid at {moment(valid_at, store)}" if valid_at else "")
    if not groups:
        output.say(f"{title}: none")
        return
    names = [[e.name for e in g.entities] for g in groups]
    shown = [shown_name(n) for n in names]  # "Chioma", not "Em's sister" (an unnamed relative's stand-in, seen first)
    rows = [[lead, ", ".join(n for n in group if n != lead),
             ", ".join(f"{v.id} {v.subject} → {v.object}" + ("" if v.valid_to is None else
                                                             f" (until {output.short(v.valid_to)})")
                       for v in g.versions)] for g, group, lead in zip(groups, names, shown, strict=True)]
    output.print_table([Column("entity", least=8), Column("also called", "wrap", least=10),
                        Column("alias facts", "wrap", least=12)], rows, title)


@alias.command("suggest")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Show at most this many pairs.")
@click.option("--min-score", type=click.FloatRange(min=0.4, max=1.0), default=0.5, show_default=True,
              help="Leave out pairs whose evidence scores lower (0.5: worth a look, 1: strong; 0.4 adds a longer "
                   "form of a name or a surname with nothing else for it).")
@click.option("--propose", is_flag=True,
              help="Put each pair in the review queue as an alias_of proposal (graphmem review list); "
                   "nothing is believed until approved.")
@json_option
@click.pass_context
def alias_suggest(ctx, limit, min_score, propose, as_json):
    """List pairs of names that may be one entity, with why, for review; nothing is merged.

    The evidence is what the store's messages and names show: a nickname or short form of a
    name (Mel, Melanie; Peggy, Margaret), a name with a title (Sue, Auntie Sue), with and without
    a surname (Dan, Dan Whitaker: only beside other evidence, or with --min-score 0.4), an
    acronym (TfL, Transport for London), a slip corrected at once, both names given to one
    person, the same relation word before both. Names the chat sets apart (two Toms, "dan your
    boss or danny your brother") are left out. docs/aliases.md says more.

    \b
    Examples:
      graphmem alias suggest
      graphmem alias suggest --propose && graphmem review list
    """
    store = open_store(ctx)
    with output.progress("reading every message and name"):  # seconds on a large store (14 s at 1M versions)
        found = store.alias_suggestions(min_score=min_score, limit=limit)
    proposed = []
    if propose:
        for s in found:
            # the sentence is one where the names are used, as for any proposal; the reasons are the
            # rules', shown above and by alias suggest, never passed off as someone's words
            first = s.episodes[0] if s.episodes else None
            proposed.append(store.propose(s.a, "alias_of", s.b, episode=first,
                                          quote=store.episode(first).text if first else None, source=SOURCE))
    if as_json:
        output.dump_json(proposed if propose else found)
        return
    if not found:
        output.plain("no names that look like one entity")
        return
    columns = [Column("name", "keep"), Column("name", "keep"), Column("score", "keep"),
               Column("why", "wrap", least=20, most_lines=4), Column("episodes", "cut", least=8, optional=True)]
    output.print_table(columns, [[s.a, s.b, f"{s.score:.2f}", "; ".join(s.reasons), ", ".join(s.episodes)]
                                 for s in found])
    if propose:
        output.say(f"{counted(len(proposed), 'proposal')} queued for review: graphmem review list")
