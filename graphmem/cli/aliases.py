"""`graphmem alias`: who is who. `alias suggest` lists names that may be one entity, for review.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import click

from . import counted, json_option, main, open_store, output
from .layout import Column

__all__: list[str] = []

#: The source the review queue shows for suggested aliases.
SOURCE = "alias-suggest"


@main.group("alias")
def alias() -> None:
    """Who is who: names that are one entity (alias_of facts)."""


@alias.command("suggest")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Show at most this many pairs.")
@click.option("--min-score", type=click.FloatRange(min=0.5, max=1.0), default=0.5, show_default=True,
              help="Leave out pairs whose evidence scores lower (0.5: worth a look, 1: strong).")
@click.option("--propose", is_flag=True,
              help="Put each pair in the review queue as an alias_of proposal (graphmem review list); "
                   "nothing is believed until approved.")
@json_option
@click.pass_context
def alias_suggest(ctx, limit, min_score, propose, as_json):
    """List pairs of names that may be one entity, with why, for review; nothing is merged.

    The evidence is what the store's messages and names show: a nickname or short form of a
    name (Mel, Melanie; Peggy, Margaret), a name with and without a surname or a title (Dan,
    Dan Whitaker; Sue, Auntie Sue), an acronym (TfL, Transport for London), a slip corrected at
    once, both names given to one person, the same relation word before both. Names the chat
    sets apart (two Toms, "dan your boss or danny your brother") are left out. docs/aliases.md
    says more.

    \b
    Examples:
      graphmem alias suggest
      graphmem alias suggest --propose && graphmem review list
    """
    store = open_store(ctx)
    found = store.alias_suggestions(min_score=min_score, limit=limit)
    proposed = []
    if propose:
        for s in found:
            quote = "; ".join(s.reasons)
            proposed.append(store.propose(s.a, "alias_of", s.b, episode=s.episodes[0] if s.episodes else None,
                                          quote=quote, source=SOURCE))
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
