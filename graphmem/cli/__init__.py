"""The graphmem command line: parse, call one Store method, print.

Commands live in modules by area (core, query, ingest, ...); each registers itself on ``main``.
A command imports what it needs when it runs: starting ``graphmem`` loads click and these
modules, not the store, the engine or the extractors (``--help`` is a bare Python start plus a
few milliseconds; see BENCHMARKS.md).

Internal: the command line is used through the `graphmem` command.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import warnings
from collections.abc import Callable, Sequence
from datetime import UTC
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..errors import GraphmemError, LookAlikeName
from . import output

if TYPE_CHECKING:
    from .._store import Store
    from ..models import Decision

__all__ = ["MARKER_FILE", "allow_future_option", "json_option", "main", "moment", "moments", "note_after",
    "note_recorded_later", "note_unsettled", "open_store",
    "recorded_at_option", "show_times_of", "source_options", "utc_option", "writes"]

DEFAULT_STORE = "graphmem-store"
ENGINES = ("kuzu", "ladybug")  # graphmem.engine.ENGINES (a test keeps them equal)
MARKER_FILE = "graphmem.json"  # graphmem.engine.MARKER_FILE

OVERVIEW = """\
graphmem: a memory that keeps its own history. Facts carry when they were true
(valid time) and when they were believed (transaction time); nothing is
overwritten.

{store}

  start    init [--timezone ZONE]         demo
  write    add S P O [--from T] [--to T]  end S P [O] [--at T]
           correct VERSION [O] --reason R retract VERSION --reason R
  ask      beliefs [--as-of T]            history S P       timeline ENTITY
           diff T1 T2    why S P ...      search TEXT       cypher QUERY
  sources  ingest FILE   episodes         review list
  keep     export FILE   import FILE      backup DIR        check

Times: ISO 8601 (2026-10-15, 2026-10-15T09:30:00+02:00), 'now', or phrases
such as 'yesterday', 'last tuesday', '2 weeks ago'. Every command has --help;
all of them: graphmem --help. What every write and question means:
docs/semantics.md.
"""


class Cli(click.Group):
    """A group that reports every error as one line on stderr with a non-zero exit."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             **extra: Any) -> NoReturn:  # click's overloads key on standalone_mode, which this always decides
        extra.pop("standalone_mode", None)
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = output.Visible(sys.stdout), output.Visible(sys.stderr)
        try:
            self._main(args, prog_name, **extra)
        finally:
            sys.stdout, sys.stderr = streams

    def _main(self, args: Sequence[str] | None, prog_name: str | None, **extra: Any) -> NoReturn:
        """Run the command line; every write goes through :class:`graphmem.cli.output.Visible`."""
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.UsageError as exc:  # the usage line with the error, on one line
            ctx = exc.ctx or self._context_of(list(sys.argv[1:] if args is None else args))
            usage = ctx.get_usage().replace("Usage: ", "", 1).strip() if ctx else ""
            if isinstance(exc, click.exceptions.NoArgsIsHelpError) and ctx and isinstance(ctx.command, click.Group):
                message = f"name a command: {', '.join(ctx.command.list_commands(ctx))}"
            else:
                message = " ".join(exc.format_message().split())  # click's lists of choices span lines
            _error(message + (f" (usage: {usage})" if usage else ""))
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            _error(exc.format_message())
            sys.exit(exc.exit_code)
        except click.Abort:
            _error("aborted")
            sys.exit(1)
        try:
            sys.stdout.flush()  # here, not at exit: a reader that went away is not an error
        except BrokenPipeError:
            _reader_gone()
        sys.exit(code if isinstance(code, int) else 0)

    def _context_of(self, args: list[str]) -> click.Context | None:
        """The command an argument list names, as a bare context (for its usage line): click
        reports some option errors (a missing value) without one."""
        command: click.Command = self
        names = ["graphmem"]
        valued = {o for p in self.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
        given = iter(args)
        for arg in given:
            if arg in valued:  # the group's own options that take a value (--store DIR)
                next(given, None)
            elif not arg.startswith("-") and isinstance(command, click.Group) and arg in command.commands:
                command = command.commands[arg]
                names.append(arg)
            elif not arg.startswith("-"):
                break
        return click.Context(command, info_name=" ".join(names)) if command is not self else None

    def invoke(self, ctx):
        try:
            try:
                return super().invoke(ctx)
            except BaseException as exc:
                if not _succeeded(exc) and not isinstance(exc, BrokenPipeError):  # (the reader went away: the
                    _discard_created(ctx)  # command's work is done, only its last words were not read)
                raise
        except GraphmemError as exc:
            _error(output.in_zone(str(exc)))
            sys.exit(1)
        except (click.ClickException, click.Abort, click.exceptions.Exit):
            raise
        except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
            _reader_gone()
        except OSError as exc:  # a path that cannot be made, read or written: say which, on one line
            if os.environ.get("GRAPHMEM_DEBUG"):
                raise
            where = f" {exc.filename}" if exc.filename else ""
            _error(f"cannot use{where}: {exc.strerror or exc}")
            sys.exit(1)
        except Exception as exc:
            if os.environ.get("GRAPHMEM_DEBUG"):
                raise
            _error(f"unexpected {type(exc).__name__}: {exc} (GRAPHMEM_DEBUG=1 shows the traceback)")
            sys.exit(1)


def _error(message: str) -> None:
    """Say what went wrong, on one line of stderr (control characters shown visibly, whatever the
    stream: an argument or a value read from a file is echoed, never obeyed)."""
    sys.stderr.write(f"error: {output.visible(message)}\n")
    sys.stderr.flush()


def _succeeded(exc: BaseException) -> bool:
    """An exception that ends a command successfully (an exit with status 0)."""
    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code == 0
    return isinstance(exc, SystemExit) and exc.code in (0, None)


_python_showwarning = warnings.showwarning


def _show_warning(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    """A warning graphmem gives a write (a look-alike name) as one line on stderr, as an error is."""
    if issubclass(category, LookAlikeName):
        click.echo(f"warning: {message}", err=True)
    else:
        _python_showwarning(message, category, *args, **kwargs)


def _reader_gone() -> NoReturn:
    """Exit as a program stopped by SIGPIPE would (status 141, nothing said), with stdout
    pointed at /dev/null so that Python's own flush at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(141)


def _discard_created(ctx: click.Context) -> None:
    """A command that failed leaves no store it began and wrote nothing to: remove what it created (the directory,
    or what it put in a directory that was empty). A store the command had written to is kept, as an existing store
    is: each write in it is whole ("ingest" stopped by Ctrl-C keeps the messages written; running the file again
    writes the rest)."""
    created = (ctx.obj or {}).pop("created", None)
    if created is None:
        return
    import shutil

    from .._store import ours_alone

    directory, existed = created
    if not directory.exists() or _written(ctx, directory):
        return
    with ours_alone(directory) as ours:
        if not ours:
            return  # made by another process while this command waited for it, or opened by one since: theirs
        if not existed:
            shutil.rmtree(directory, ignore_errors=True)
            return
        for child in directory.iterdir():
            shutil.rmtree(child, ignore_errors=True) if child.is_dir() else child.unlink(missing_ok=True)


def _written(ctx: click.Context, directory: Path) -> bool:
    """Whether the store a failing command created holds a write: one its handle committed, or one read again from
    its files once that handle is closed (an interrupted write closes it; a close that fails, its connection gone
    already, does not stop the reading); False where that cannot be read."""
    from .._store import Store

    store = ctx.obj.get("created_store")
    if store is None:
        return False
    try:
        store.close()
    except Exception:
        pass  # (the connection an interrupt closed: what the files hold is read below)
    if store.wrote:
        return True
    try:
        with Store(directory, engine=ctx.obj["engine"], hold=False, wait=0) as again:
            return again.first_write() is not None
    except Exception:
        return False


def note_creating(ctx: click.Context) -> None:
    """Before a command creates the store named by --store: remember that it did not exist (or
    was an empty directory), so a failure removes what the command made (``_discard_created``)."""
    directory: Path = ctx.obj["dir"]
    if directory.is_dir() and any(directory.iterdir()):
        return
    ctx.obj["created"] = (directory, directory.is_dir())


def _set_utc(ctx: click.Context, _param, value: bool) -> None:
    if value:
        ctx.ensure_object(dict)["utc"] = True


def utc_option(func: Callable) -> Callable:
    """Add --utc to a command that shows times (the same as ``graphmem --utc COMMAND``)."""
    return click.option("--utc", is_flag=True, expose_value=False, callback=_set_utc, is_eager=True,
                        help="Show times in UTC instead of the store's zone.")(func)


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.option("--store", "store_dir", envvar="GRAPHMEM_STORE", default=DEFAULT_STORE,
              show_default=True, type=click.Path(file_okay=False),
              help="Store directory (or set GRAPHMEM_STORE).")
@click.option("--engine", type=click.Choice(ENGINES), envvar="GRAPHMEM_ENGINE",
              help="Embedded engine (default kuzu; or set GRAPHMEM_ENGINE).")
@click.option("--utc", is_flag=True, help="Show times in UTC instead of the store's zone (JSON is always UTC).")
@click.version_option(package_name="graphmem")
@click.pass_context
def main(ctx: click.Context, store_dir: str, engine: str | None, utc: bool) -> None:
    """graphmem: a memory that keeps its own history.

    Facts carry when they were true (valid time) and when they were believed
    (transaction time); nothing is overwritten. Times accept ISO 8601
    (2026-10-15, 2026-10-15T09:30:00Z), 'now', or phrases such as 'yesterday',
    'last tuesday' and '2 weeks ago' (read against now in the store's zone).
    Tables and errors show times in the store's zone (--utc: in UTC).
    """
    ctx.obj = {"dir": Path(store_dir), "engine": engine, "utc": utc}
    warnings.showwarning = _show_warning
    if ctx.invoked_subcommand is None:
        directory = Path(store_dir)
        state = "" if (directory / MARKER_FILE).exists() else "\n(not created yet: graphmem init creates it)"
        sys.stdout.write(OVERVIEW.format(store=f"store: {directory}{state}"))


def open_store(ctx: click.Context, *, create: bool = False, timezone: str | None = None,
               hold: bool | str = False, wait: float | None = None) -> Store:
    """Open the store named by --store; refuse a missing one unless ``create`` (a new store reads
    naive times in ``timezone``; a failing command removes it again). Times are shown in the
    store's zone from then on (in UTC with --utc). A one-off command uses a holder's store, or
    opens it for its own short life (waiting a few seconds for another one-off command);
    ``hold`` (the kind: serve, mcp, explore) serves it to other processes while this one runs; ``wait``: how long
    to wait for a one-off command that has it (default the Store's)."""
    from .._store import Store, made_meanwhile
    from ..recall import embedder_from_env  # its stdlib-only module: the search models load when searching

    directory: Path = ctx.obj["dir"]
    if not Store.exists(directory):
        if not create:
            engine = f" --engine {ctx.obj['engine']}" if ctx.obj.get("engine") else ""  # the one asked for
            raise GraphmemError(f"no graphmem store at {directory}; create one with "
                                f"`graphmem{engine} --store {shlex.quote(str(directory))} init`")
        if directory.is_dir() and any(directory.iterdir()) and not made_meanwhile(directory):
            raise GraphmemError(f"{directory} holds files but no graphmem store; give a new or empty directory "
                                f"(a store's files would be written among them)")
        note_creating(ctx)
    store = Store(directory, engine=ctx.obj["engine"], embedder=embedder_from_env(), timezone=timezone,
                  allow_future=bool(ctx.obj.get("allow_future")), hold=hold, wait=wait)
    if "created" in ctx.obj:
        if store.made_here:
            ctx.obj["created_store"] = store  # a failure removes it only if nothing was written to it
        else:
            del ctx.obj["created"]  # another process made it meanwhile: not this command's to remove
    ctx.call_on_close(lambda: _closed_whole(store))
    show_times_of(ctx, store)
    return store


def _closed_whole(store: Store) -> None:
    """Close ``store`` at the command's end, a first Ctrl-C held off until it is closed (the command's work is done,
    and a close cut short left its connection half closed: a new user's Ctrl-C just after an ingest's summary); a
    second one stops it at once (a long checkpoint: the store stays whole, its log replayed when next opened)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        store.close()
        return

    def held(*_: object) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.stderr.write("closing the store; Ctrl-C again stops now (it stays whole: its log is replayed when next "
                         "opened)\n")

    before = signal.signal(signal.SIGINT, held)
    try:
        store.close()
    finally:
        signal.signal(signal.SIGINT, before)


def show_times_of(ctx: click.Context, store: Store) -> None:
    """Show times in ``store``'s zone, or in UTC when --utc was given."""
    if ctx.obj.get("utc"):
        output.use_zone(UTC, "UTC")
    else:
        output.use_zone(store.tz, store.tz_name)


def json_option(func: Callable) -> Callable:
    """Add --json to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(func)


def _set_allow_future(ctx: click.Context, _param, value: bool) -> None:
    if value:
        ctx.ensure_object(dict)["allow_future"] = True


def allow_future_option(func: Callable) -> Callable:
    """Add --allow-future to a command that may write a transaction time of its caller's choosing."""
    return click.option("--allow-future", is_flag=True, expose_value=False, callback=_set_allow_future,
                        help="Accept a transaction time more than a day past the wall clock (refused "
                             "otherwise: the store could take no earlier write again).")(func)


def recorded_at_option(func: Callable) -> Callable:
    """Add --recorded-at (and --allow-future) to a write command."""
    func = allow_future_option(func)
    return click.option("--recorded-at", help="Explicit transaction time (must be after the latest write, "
                        "and at most a day past the wall clock unless --allow-future).")(func)


def source_options(func: Callable) -> Callable:
    """Add --episode / --quote to a write command."""
    func = click.option("--quote", help="Record a manual episode holding this text and link it.")(func)
    return click.option("--episode", help="Id of the episode that supports this write.")(func)


def print_decision(decision: Decision, as_json: bool) -> None:
    """Report what a write did."""
    if as_json:
        output.dump_json([decision])
        return
    parts = [f"{decision.op} {decision.id} at {output.when(decision.at)}"]
    if decision.proposal:  # an approval or a rejection: which proposal it decided
        parts.append(f"proposal {decision.proposal}")
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
        output.say(f"note: as of a time after the latest write ({output.when(latest)}), this answer can still "
                     "change: a later write may be recorded before that time")


def note_names_later(store: Store, entity: str, as_of: str | None) -> None:
    """Say when a name asked as of a past time is one the entity went by only later ("why clo works_at --as-of
    March", the alias clo = Chloe written in May): as of then it was a name of its own, with its own facts."""
    if as_of is None or as_of.strip().lower() == "now":
        return
    then = {e.id for e in store.names_of(entity, as_of=as_of)}
    later = [e.name for e in store.names_of(entity) if e.id not in then]
    if later:
        output.say(f"note: as of {output.when(store.time(as_of))} {entity!r} was not yet known to be "
                   f"{', '.join(later)} (an alias believed later); ask as of now, or by that name")


def note_recorded_later(store: Store, as_of: str | None, found: Sequence[object]) -> None:
    """Say why an answer as of a past time is empty where the store's first write came later: a chat ingested
    without --replay is recorded when it is ingested, not at its messages' times, so "as of April" asks what the
    store knew in April, which was nothing. So too where its first fact came later: a chat replayed without
    --approve and approved from review in December is believed from December on (a new user's trial)."""
    if found or as_of is None or as_of.strip().lower() == "now":
        return
    first, at = store.first_write(), store.time(as_of)
    if first is None:
        return
    ask = "--as-of asks what the store knew at a time; to ask what was true then, use --valid-at with --as-of now"
    if at < first:
        output.say(f"note: nothing was recorded by then; this store's first write was at {output.when(first)}. {ask} "
                   "(a chat ingested without --replay is recorded when it is ingested)")
        return
    fact = store.first_fact()
    if fact is None or at >= fact[0]:
        return
    recorded, proposed = fact
    approved = (", when it was approved from review: by then it was proposed and waiting (a fact is believed from "
                "its approval on, not from its message's time)") if proposed and proposed <= at else ""
    output.say(f"note: nothing was believed by then; this store's first fact was recorded at {output.when(recorded)}"
               f"{approved}. {ask}")


def writes(func: Callable) -> Callable:
    """Mark a write command: --json and --recorded-at, and print its decision(s)."""
    @json_option
    @recorded_at_option
    @utc_option
    @wraps(func)
    def command(*args, as_json: bool, **kwargs):
        result = func(*args, **kwargs)
        for decision in result if isinstance(result, list) else [result]:
            print_decision(decision, as_json)
        for note in click.get_current_context().meta.pop(_NOTES, []):
            note = output.in_zone(note)  # a time the store names in UTC, as the store's zone shows it (a new user's)
            if as_json:
                click.echo(note, err=True)  # the JSON on stdout stays whole; what a script must see is on stderr
            else:
                output.say(note)
    return command


#: Where a write command leaves a note to print after its decision (:func:`writes`).
_NOTES = "graphmem.notes"


def note_after(text: str) -> None:
    """Have the write command running print ``text`` after its decision (on stderr with --json)."""
    click.get_current_context().meta.setdefault(_NOTES, []).append(text)


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one: "1 record", "2 records"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def moment(value: str | None, store: Store | None = None) -> str:
    """An --as-of / --valid-at value as a title says it: 'now' when not given, and a phrase with the time it was
    read as ("March 3rd (2026-03-03)", "2 weeks ago (2026-11-21 10:04)"): a phrase's year or day is the store's
    guess, shown so it can be checked."""
    if value is None or store is None or value.strip().lower() in ("now", "all") or _WRITTEN_OUT.match(value):
        return value or "now"
    return f"{value} ({output.short(store.time(value))})"


#: A time written out in numbers ("2026-03-03", "2026-03-03T09:00:00Z"): shown as given.
_WRITTEN_OUT = re.compile(r"\s*[+-]?\d{4,}-\d")


def moments(as_of: str | None, valid_at: str | None, store: Store | None = None) -> str:
    """The two times a question was asked at, as a title says them: "as of X, valid at Y" (:func:`moment`)."""
    return f"as of {moment(as_of, store)}, valid at {moment(valid_at or as_of, store)}"


# Each module registers its commands on `main`.
from . import aliases, backup, evaluate, everyday, ingest, mcp, query, recall, render, serving, spark  # noqa: E402,F401
