"""`graphmem render`, `graphmem explore` and `graphmem kind`: look at the store.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

from pathlib import Path

import click

from . import counted, json_option, main, moment, moments, open_store, output

__all__ = []

KINDS = ("snapshot", "evolution", "timeline")


def _refuse_misused_options(kind: str, entity: str | None, as_of: str | None, valid_at: str | None,
                            focus: str | None, since: str | None, until: str | None,
                            depth_given: bool, predicates: tuple) -> None:
    """Say which argument does not fit the picture asked for, before anything is read or written."""
    if kind == "timeline" and not entity:
        raise click.UsageError("timeline needs an ENTITY, e.g. `graphmem render timeline Ivan -o ivan.html`")
    if kind != "timeline" and entity:
        raise click.UsageError(f"{kind} takes no ENTITY (got {entity!r}); to draw one entity's "
                               f"surroundings use --focus {entity}")
    if kind == "evolution" and (as_of or valid_at):
        raise click.UsageError("evolution steps through the writes; --as-of and --valid-at do not apply "
                               "(use --since and --until)")
    if kind != "evolution" and (since or until):
        raise click.UsageError("--since and --until choose the writes of an evolution page")
    if kind == "timeline" and (valid_at or focus or depth_given or predicates):
        raise click.UsageError("a timeline spans all valid time of its ENTITY; only --as-of applies")
    if depth_given and not focus:
        raise click.UsageError("--depth needs --focus ENTITY")


#: Names of files that are not web pages, which a page written under them would only pass for.
_NOT_PAGES = frozenset((".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".pdf", ".json", ".csv", ".txt"))


def _refuse_other_file_kinds(file: str) -> None:
    """A page is HTML: "-o graph.png" would be an HTML file named as a picture (a new user's find)."""
    suffix = Path(file).suffix.lower()
    if suffix in _NOT_PAGES:
        raise click.UsageError(f"render writes an HTML page, not a {suffix[1:]} file; name it .html "
                               f"(e.g. -o {Path(file).with_suffix('.html').name}), then open it in a browser")


@main.command()
@click.argument("kind", metavar="KIND", type=click.Choice(KINDS))
@click.argument("entity", required=False)
@click.option("--as-of", help="Transaction time: draw what was believed then (default now).")
@click.option("--valid-at", help="Snapshot only: valid time, or 'all' (default: the --as-of time).")
@click.option("--focus", help="Draw only the neighbourhood of this entity (snapshot, evolution).")
@click.option("--depth", type=click.IntRange(0, 6), default=None,
              help="Hops from --focus (default 1).")
@click.option("--predicate", "predicates", multiple=True,
              help="Keep only facts of this predicate (repeatable).")
@click.option("--since", help="Evolution only: the writes after this time (the page starts from what was "
                               "believed then).")
@click.option("--until", help="Evolution only: the writes up to this time.")
@click.option("-o", "--output", "file", required=True, type=click.Path(dir_okay=False),
              help="The HTML file to write (its folder is created if missing).")
@click.pass_context
def render(ctx, kind, entity, as_of, valid_at, focus, depth, predicates, since, until, file):
    """Draw KIND as one HTML file that opens offline: snapshot, evolution, or timeline ENTITY.

    \b
    snapshot          the graph as believed --as-of, valid at --valid-at (or 'all')
    evolution         a slider over the writes that changed belief (--since/--until)
    timeline ENTITY   ENTITY's facts laid out on valid time, opened as believed --as-of
    --focus ENTITY [--depth N] draws one entity's neighbourhood, e.g.
      graphmem render snapshot --focus Ivan --depth 2 -o ivan.html
    """
    _refuse_misused_options(kind, entity, as_of, valid_at, focus, since, until, depth is not None,
                            predicates)
    _refuse_other_file_kinds(file)
    import visualize  # a sibling package in the same wheel; loaded only when drawing

    store = open_store(ctx)
    depth = 1 if depth is None else depth
    chosen = list(predicates) or None
    around = f" around {store.entity(focus).name} within {counted(depth, 'hop')}" if focus else ""
    if kind == "snapshot":
        path = visualize.render_snapshot(store, file, as_of=as_of, valid_at=valid_at, focus=focus,
                                         depth=depth, predicates=chosen)
        what = f"snapshot{around} {moments(as_of, valid_at, store)}"
    elif kind == "evolution":
        if focus and depth < 1:
            raise click.UsageError("an evolution page's --depth is at least 1")
        path = visualize.render_evolution(store, file, focus=focus, depth=depth, since=since,
                                          until=until, predicates=chosen)
        what = f"how belief evolved{around}, write by write"
    else:
        path = visualize.render_timeline(store, entity, file, as_of=as_of)
        what = f"timeline of {store.entity(entity).name} as of {moment(as_of, store)}"
    output.plain(f"wrote {path} ({what})")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (only this machine by default).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; just print the address.")
@click.option("--no-token", is_flag=True,
              help="Do not require the random token of this launch (anyone who can reach the port can read).")
@click.option("--timeout", type=click.FloatRange(0, 86400, min_open=True), default=15, show_default=True,
              help="Seconds an API request may take before it is given up (HTTP 503).")
@click.pass_context
def explore(ctx, host, port, no_browser, no_token, timeout):
    """Serve a local, read-only web app to explore the store, until Ctrl-C.

    Search entities, walk from one to the next, move the as-of and valid-at controls, open a
    fact's versions and source sentences, see an entity's timeline and what changed between
    two dates. The JSON API it uses is described in docs/explorer.md.

    The address printed carries a random token made for this launch (as Jupyter's does):
    requests without it, from another site, or addressed to another host name get no data.
    """
    import signal

    # Ctrl-C (SIGINT) stops it, also when it was started where SIGINT is ignored (a background
    # job of a script), and so does SIGTERM: both end the wait below as a KeyboardInterrupt does.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    store = open_store(ctx, hold="explore")
    explorer = store.explore(port=port, host=host, open_browser=not no_browser, token=not no_token,
                             timeout=timeout)
    output.plain(f"graphmem explorer at {explorer.url} (read-only; Ctrl-C stops it)")
    explorer.wait()


@main.command()
@click.argument("entity")
@click.argument("kind", required=False)
@json_option
@click.pass_context
def kind(ctx, entity, kind, as_json):
    """Show ENTITY's kind, or set it to KIND (person, place, organisation, ...; 'auto' infers it).

    Without a kind set, views infer one from the predicates of the entity's facts (the object
    of lives_in is a place, of works_at an organisation, the subject of likes a person).
    """
    store = open_store(ctx)
    if kind is not None:
        store.set_kind(entity, kind)
    found = store.entity(entity)
    shown = store.kind(found.id)
    if as_json:
        output.dump_json([{"id": found.id, "name": found.name, "kind": shown}])
    else:
        output.plain(f"{found.name}: {shown}")
        if kind is not None and kind != "auto" and shown != kind.strip().lower():  # the group's kind, set on another
            group = store.names_of(found.id)  # name of it (a reviewer's)
            others = [e.name for e in group if e.id != found.id]
            output.say(f"note: {found.name} is shown as {shown}, the kind of the entity it is one of (also "
                       f"{', '.join(others)}); set it on {group[0].name}, its first name, to change it")
