"""Backup commands: backup, restore, compact.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..errors import GraphmemError, StoreLocked
from . import json_option, main, open_store, output

if TYPE_CHECKING:
    from .._store import BackupInfo


__all__ = []

def _open(ctx: click.Context, what: str):
    """Open the store, saying how to do ``what`` when another process holds it."""
    try:
        return open_store(ctx)
    except StoreLocked as exc:
        raise StoreLocked(f"{exc}; to {what} while it runs, call it from that process "
                          "(Store.backup / Store.restore)") from exc


def _report(verb: str, info: BackupInfo, where, as_json: bool) -> None:
    if as_json:
        output.dump_json([info])
        return
    rows = ", ".join(f"{n} {name}" for name, n in sorted(info.tables.items()) if n)
    output.plain(f"{verb} {where} ({info.engine}, latest write {output.when(info.latest_write) or 'none'}): "
                 f"{rows or 'empty'}")


@main.command("backup")
@click.argument("dest", type=click.Path(file_okay=False))
@json_option
@click.pass_context
def backup_(ctx, dest, as_json):
    """Copy the store into DEST, a new directory: one consistent moment of its log.

    Restore it with `graphmem restore DEST`. The copy is of the engine's own file, so it
    restores into the same engine; to move between engines use export and import.
    """
    store = _open(ctx, "back it up")
    with output.progress("backing up"):
        info = store.backup(dest)
    _report("backed up to", info, dest, as_json)


@main.command("restore")
@click.argument("src", type=click.Path(exists=True, file_okay=False))
@click.option("--yes", is_flag=True, help="Confirm: the store's current content is replaced.")
@json_option
@click.pass_context
def restore_(ctx, src, yes, as_json):
    """Restore the backup in SRC into the store (a new one, or, with --yes, replacing it).

    The backup is checked (checksum, engine, contents) before anything changes.
    """
    from .._store import Store

    directory = ctx.obj["dir"]
    if not Store.exists(directory):
        info = Store.restore_new(directory, src)
        open_store(ctx)  # its times are shown in its zone, as after a restore into a store
    else:
        store = _open(ctx, "restore it")
        if store.latest_write() is not None and not yes:
            raise GraphmemError(f"restore replaces everything in {directory} with the backup; "
                                "add --yes to confirm")
        info = store.restore(src)
    _report("restored from", info, src, as_json)


@main.command("compact")
@click.pass_context
def compact_(ctx):
    """Rewrite the store's files, dropping the bytes of deleted rows (purge does this itself)."""
    store = _open(ctx, "compact it")
    with output.progress("rewriting the store's files"):
        store.compact()
    output.plain(f"compacted {ctx.obj['dir']}")


@main.command("migrate")
@click.option("--backup", "backup_to", type=click.Path(file_okay=False),
              help="Where to put the backup taken first (a new directory; default: beside the store).")
@json_option
@click.pass_context
def migrate_(ctx, backup_to, as_json):
    """Convert a store written by an older graphmem into this release's layout.

    The store is backed up first (restore the backup with an older release, or with
    `graphmem restore` and then migrate again); the conversion swaps the new files in at
    the end, so an interruption leaves the old store as it was. Close every program using
    the store first.
    """
    from .._store import Store
    from .ingest import progress_bar

    directory = ctx.obj["dir"]
    with progress_bar() as progress:
        info = Store.migrate(directory, engine=ctx.obj["engine"], backup_to=backup_to, progress=progress)
    if as_json:
        output.dump_json([{"migrated": info is not None, "backup": None if info is None else info.path}])
    elif info is None:
        output.plain(f"{directory} is already in this release's layout; nothing to do")
    else:
        output.plain(f"migrated {directory}; the store as it was is backed up in {info.path}")
