"""Query commands: Cypher as of a date, and named queries.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

import csv
import sys
from typing import TYPE_CHECKING

import click

from . import json_option, main, moments, note_unsettled, open_store, output, utc_option
from .layout import Column, text_width
from .output import json_text, jsonable
from .params import cypher_params, named_params

if TYPE_CHECKING:
    from .._store import Rows

#: graphmem.query.sandbox.DEFAULT_TIMEOUT and DEFAULT_MEMORY_MB (a test keeps them equal): the sandbox
#: imports pyarrow, which a command's --help should not wait for.
__all__ = []

DEFAULT_TIMEOUT = 30.0
DEFAULT_MEMORY_MB = 4096

AS_OF_HELP = "Transaction time: the graph as believed then (default now)."
VALID_AT_HELP = "Valid time, or 'all' for every valid time (default: the --as-of time)."
PARAM_HELP = "A query parameter NAME=VALUE (repeatable); see the command's help for types."


def _cell(value) -> str | tuple[str, ...]:
    """A value as one table cell: a time as its shortened date and clock (table parts), nested
    values as compact JSON, null and an empty list as empty."""
    if value is None or (isinstance(value, list) and not value):
        return ""
    if hasattr(value, "tzinfo") and hasattr(value, "hour"):
        return output.short_parts(value)
    if isinstance(value, (dict, list)):
        return json_text(jsonable(value), None)
    return str(value)


#: Text wider than this is long (a sentence, a list of sources): its column may go beneath the rows.
LONG_TEXT = 20
#: A single word up to this wide (an id, a status, a short name) is never narrowed.
SHORT_WORD = 16


def _column(name: str, values: list, cells: list[str | tuple[str, ...]]) -> Column:
    """How a result column gives up width, judged from what it holds: a time is parts (its date and
    clock, never broken); single short words (ids, statuses, names, numbers) stay whole; other text
    wraps, at its longest word where it can; long text and lists go beneath each row when the table
    cannot hold them as a column. A column with nothing in it is the first left out."""
    if not any(cells):
        return Column(name, "keep", optional=True)
    if any(isinstance(c, tuple) for c in cells):
        return Column(name, "parts")
    texts = [c for c in cells if isinstance(c, str)]
    widest = max(text_width(line) for text in texts for line in text.split("\n"))
    if widest <= SHORT_WORD and not any(ch.isspace() for text in texts for ch in text):
        return Column(name, "keep")
    if widest > LONG_TEXT or any(isinstance(v, (list, dict)) for v in values):
        return Column(name, "wrap", least=min(widest, 20), beneath=True)
    return Column(name, "wrap", least=min(max((text_width(w) for t in texts for w in t.split()), default=4), 12))


def _csv_cell(value) -> str:
    """A value as one CSV cell: times in full ISO 8601, nested values as JSON, null as empty."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json_text(jsonable(value), None)
    return jsonable(value)


def print_rows(rows: Rows, fmt: str, title: str) -> None:
    """Print query rows as a table, JSON (a list of objects) or CSV (header first)."""
    if fmt == "json":
        sys.stdout.write(json_text(jsonable(list(rows))) + "\n")
    elif fmt == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(rows.columns)
        for row in rows:
            writer.writerow([_csv_cell(row[c]) for c in rows.columns])
    elif not rows:
        output.say(f"{title}: no rows")
    else:
        cells = [[_cell(row[c]) for c in rows.columns] for row in rows]
        columns = [_column(c, [row[c] for row in rows], [r[n] for r in cells]) for n, c in enumerate(rows.columns)]
        output.print_table(columns, cells, f"{title} (times in {output.zone_name()})")


def limit_options(func):
    """Add --timeout and --memory: the limits a query runs under, in its own process."""
    func = click.option("--memory", type=int, default=DEFAULT_MEMORY_MB, show_default=True, metavar="MB",
                        help="Stop the query when its process holds more memory than this.")(func)
    return click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
                        help="Stop the query after this long.")(func)


def _format(as_json: bool, as_csv: bool) -> str:
    if as_json and as_csv:
        raise click.UsageError("choose --json or --csv, not both")
    return "json" if as_json else "csv" if as_csv else "table"


@main.command("cypher")
@click.argument("query")
@click.option("--param", "params", multiple=True, metavar="NAME[:TYPE]=VALUE", help=PARAM_HELP)
@click.option("--as-of", help=AS_OF_HELP)
@click.option("--valid-at", help=VALID_AT_HELP)
@limit_options
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (header row first).")
@utc_option
@click.pass_context
def cypher_command(ctx, query, params, as_of, valid_at, timeout, memory, as_json, as_csv):
    """Run a read-only Cypher QUERY over the graph as believed at --as-of and valid at --valid-at.

    The query sees only the facts believed then (no temporal conditions to write): nodes
    (:Entity {id, name, kind}) and (:Episode {id, kind, text, ...}), facts
    -[:Fact {id, predicate, valid_from, valid_to, recorded_at, episodes, ...}]-> between
    entities; open ends are null. Anything that writes or reaches outside the store is refused.
    Values go in as parameters: --param city=Berlin for $city; names ending in _at, _of, _from,
    _to (and t1, t2) are read as times; NAME:TYPE=VALUE sets a type (text, int, float, time,
    entity). $as_of and $valid_at are bound to the two moments when the query uses them.

    The query runs in a separate process, stopped past --timeout seconds or --memory MB.

    \b
    Example:
      graphmem cypher "MATCH (p:Entity)-[w:Fact {predicate: 'works_at'}]->(c:Entity)
        RETURN p.name, c.name" --as-of 2026-03-15
    """
    fmt = _format(as_json, as_csv)
    store = open_store(ctx)
    rows = store.cypher(query, cypher_params(store, params), as_of=as_of, valid_at=valid_at,
                        timeout=timeout, memory_mb=memory)
    print_rows(rows, fmt, moments(as_of, valid_at, store))
    if fmt == "table":
        note_unsettled(store, as_of)


@main.command("query")
@click.argument("name", required=False)
@click.option("--list", "show_list", is_flag=True, help="List the named queries and their parameters.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help=PARAM_HELP)
@click.option("--as-of", help=AS_OF_HELP)
@click.option("--valid-at", help=VALID_AT_HELP)
@limit_options
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (header row first).")
@utc_option
@click.pass_context
def query_command(ctx, name, show_list, params, as_of, valid_at, timeout, memory, as_json, as_csv):
    """Run the named query NAME (from queries/), or list them with --list.

    \b
    Examples:
      graphmem query --list
      graphmem query fact_history --param subject=Ivan --param predicate=lives_in
      graphmem query connected --param entity=Ivan --valid-at 2026-10-05
    """
    fmt = _format(as_json, as_csv)
    if show_list or name is None:
        _print_list(as_json)
        return
    store = open_store(ctx)
    rows = store.query(name, named_params(params), as_of=as_of, valid_at=valid_at, timeout=timeout,
                       memory_mb=memory)
    print_rows(rows, fmt, f"{name} ({moments(as_of, valid_at, store)})")
    if fmt == "table":
        note_unsettled(store, as_of)


def _print_list(as_json: bool) -> None:
    from .._store import Store

    known = Store.named_queries()
    if as_json:
        output.dump_json({
            "name": q.name, "description": q.description, "uses": q.automatic,
            "params": [{"name": p.name, "type": p.type, "default": p.default, "meaning": p.meaning}
                       for p in q.params],
        } for q in known)
        return
    wide = output.width() >= 56  # else each name on its own line, what it does indented beneath
    for q in known:
        if wide:
            output.say(q.description, label=q.name, indent=15)
        else:
            output.plain(q.name)
            output.say(q.description, indent=2)
        for p in q.params:
            default = f", default {p.default}" if p.default is not None else ""
            output.say(f"--param {p.name}=… ({p.type}{default}): {p.meaning}", indent=17 if wide else 4, hang=2)
