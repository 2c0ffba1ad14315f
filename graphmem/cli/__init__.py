"""The graphmem command line: parse, call one Store method, print.

Commands live in modules by area (core, ...); each registers itself on ``main``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path

import click

from .. import output
from ..errors import GraphmemError
from ..models import Decision
from ..recall.embed import embedder_from_env
from ..store import Store
from ..timeutil import iso

DEFAULT_STORE = "graphmem-store"


class Cli(click.Group):
    """A group that reports every error as one line on stderr with a non-zero exit."""

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except GraphmemError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        except (click.ClickException, click.Abort, click.exceptions.Exit):
            raise
        except Exception as exc:
            if os.environ.get("GRAPHMEM_DEBUG"):
                raise
            click.echo(f"error: unexpected {type(exc).__name__}: {exc} (GRAPHMEM_DEBUG=1 shows the traceback)",
                       err=True)
            sys.exit(1)


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", "store_dir", envvar="GRAPHMEM_STORE", default=DEFAULT_STORE,
              show_default=True, type=click.Path(file_okay=False),
              help="Store directory (or set GRAPHMEM_STORE).")
@click.option("--engine", type=click.Choice(Store.ENGINES), envvar="GRAPHMEM_ENGINE",
              help="Embedded engine (default kuzu; or set GRAPHMEM_ENGINE).")
@click.version_option(package_name="graphmem")
@click.pass_context
def main(ctx: click.Context, store_dir: str, engine: str | None) -> None:
    """graphmem: a memory that keeps its own history.

    Facts carry when they were true (valid time) and when they were believed
    (transaction time); nothing is overwritten. Times accept ISO 8601
    (2026-10-15, 2026-10-15T09:30:00Z) or 'now'.
    """
    ctx.obj = {"dir": Path(store_dir), "engine": engine}


def open_store(ctx: click.Context, *, create: bool = False) -> Store:
    """Open the store named by --store; refuse a missing one unless ``create``."""
    directory: Path = ctx.obj["dir"]
    if not create and not Store.exists(directory):
        raise GraphmemError(f"no graphmem store at {directory}; create one with `graphmem init`")
    store = Store(directory, engine=ctx.obj["engine"], embedder=embedder_from_env())
    ctx.call_on_close(store.close)
    return store


def json_option(func: Callable) -> Callable:
    """Add --json to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(func)


def recorded_at_option(func: Callable) -> Callable:
    """Add --recorded-at to a write command."""
    return click.option("--recorded-at", help="Explicit transaction time (must be after the latest write).")(func)


def source_options(func: Callable) -> Callable:
    """Add --episode / --quote to a write command."""
    func = click.option("--quote", help="Record a manual episode holding this text and link it.")(func)
    return click.option("--episode", help="Id of the episode that supports this write.")(func)


def print_decision(decision: Decision, as_json: bool) -> None:
    """Report what a write did."""
    if as_json:
        output.dump_json([decision])
        return
    parts = [f"{decision.op} {decision.id} at {iso(decision.at)}"]
    if decision.created:
        parts.append(f"created {', '.join(decision.created)}")
    if decision.closed:
        parts.append(f"closed {', '.join(decision.closed)}")
    if decision.episode:
        parts.append(f"episode {decision.episode}")
    output.plain("; ".join(parts))


def note_unsettled(store: Store, *moments: str | None) -> None:
    """Say when an as-of time given is after the store's latest write: that answer is not final,
    since a later write (a replay with its own times, --recorded-at) may still land before it."""
    latest = store.latest_write()
    given = [store.time(m) for m in moments if m is not None and m.strip().lower() != "now"]
    if latest is not None and any(t > latest for t in given):
        output.plain(f"note: as of a time after the latest write ({iso(latest)}), this answer can still "
                     "change: a later write may be recorded before that time")


def writes(func: Callable) -> Callable:
    """Mark a write command: --json and --recorded-at, and print its decision(s)."""
    @json_option
    @recorded_at_option
    @wraps(func)
    def command(*args, as_json: bool, **kwargs):
        result = func(*args, **kwargs)
        for decision in result if isinstance(result, list) else [result]:
            print_decision(decision, as_json)
    return command



# Each module registers its commands on `main`.
from . import backup, core, evaluate, ingest, mcp, query, recall, render, spark  # noqa: E402,F401
