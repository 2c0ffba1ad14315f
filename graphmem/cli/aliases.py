"""Who is who: ``graphmem alias add|end|list``, the names believed to be one entity.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import click

from . import json_option, main, moment, open_store, output, source_options, utc_option, writes
from .layout import Column

__all__: list[str] = []


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
    return open_store(ctx).alias(name, other, valid_from=valid_from, episode=episode, quote=quote,
                                 recorded_at=recorded_at)


@alias.command("end")
@click.argument("name")
@click.argument("other")
@click.option("--at", "at", help="From when NAME no longer names OTHER (default: the episode's time, or now).")
@source_options
@writes
@click.pass_context
def alias_end(ctx, name, other, at, episode, quote, recorded_at):
    """NAME stopped naming OTHER --at a time (to undo a wrong alias instead: graphmem retract VERSION)."""
    return open_store(ctx).end(name, "alias_of", other, at=at, episode=episode, quote=quote,
                               recorded_at=recorded_at)


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
    title = f"aliases as of {moment(as_of)}"
    if not groups:
        output.say(f"{title}: none")
        return
    rows = [[g.name, ", ".join(e.name for e in g.entities[1:]),
             ", ".join(f"{v.id} {v.subject} → {v.object}" for v in g.versions)] for g in groups]
    output.print_table([Column("entity", least=8), Column("also called", "wrap", least=10),
                        Column("alias facts", "wrap", least=12)], rows, title)
