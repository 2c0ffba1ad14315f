"""`graphmem render`: draw the store as a self-contained HTML page."""

from __future__ import annotations

import click

from .. import output
from . import main, open_store

KINDS = ("snapshot", "evolution", "timeline")


def _refuse_misused_options(kind: str, entity: str | None, as_of: str | None, valid_at: str | None) -> None:
    """Say which argument does not fit the picture asked for, before anything is read or written."""
    if kind == "timeline" and not entity:
        raise click.UsageError("timeline needs an ENTITY, e.g. `graphmem render timeline Ivan -o ivan.html`")
    if kind != "timeline" and entity:
        raise click.UsageError(f"{kind} draws the whole store and takes no ENTITY (got {entity!r})")
    if kind == "evolution" and (as_of or valid_at):
        raise click.UsageError("evolution steps through every write; --as-of and --valid-at do not apply")
    if kind == "timeline" and valid_at:
        raise click.UsageError("a timeline spans all valid time; --valid-at does not apply (use --as-of)")


@main.command()
@click.argument("kind", metavar="KIND", type=click.Choice(KINDS))
@click.argument("entity", required=False)
@click.option("--as-of", help="Transaction time: draw what was believed then (default now).")
@click.option("--valid-at", help="Snapshot only: valid time, or 'all' (default: the --as-of time).")
@click.option("-o", "--output", "file", required=True, type=click.Path(dir_okay=False),
              help="The HTML file to write (its folder is created if missing).")
@click.pass_context
def render(ctx, kind, entity, as_of, valid_at, file):
    """Draw KIND as one HTML file that opens offline: snapshot, evolution, or timeline ENTITY.

    \b
    snapshot          the graph as believed --as-of, valid at --valid-at (or 'all')
    evolution         a slider over every write that changed belief
    timeline ENTITY   ENTITY's facts laid out on valid time, as believed --as-of
    """
    _refuse_misused_options(kind, entity, as_of, valid_at)
    import visualize  # a sibling package in the same wheel; loaded only when drawing

    store = open_store(ctx)
    if kind == "snapshot":
        path = visualize.render_snapshot(store, file, as_of=as_of, valid_at=valid_at)
        what = f"snapshot as of {as_of or 'now'}, valid at {valid_at or as_of or 'now'}"
    elif kind == "evolution":
        path = visualize.render_evolution(store, file)
        what = "how belief evolved, write by write"
    else:
        path = visualize.render_timeline(store, entity, file, as_of=as_of)
        what = f"timeline of {store.entity(entity).name} as of {as_of or 'now'}"
    output.plain(f"wrote {path} ({what})")
