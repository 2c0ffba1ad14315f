"""`graphmem spark`: the store's questions over Parquet exports, on Apache Spark.

Internal: commands registered on :data:`graphmem.cli.main`.
"""

from __future__ import annotations

from contextlib import contextmanager

import click

from ..core.extras import needs_extra
from ..errors import InvalidInput
from . import main, output

__all__ = []

_PATHS = click.argument("paths", metavar="PATH...", nargs=-1, required=True)


def _spark_options(func):
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(func)
    func = click.option("--conf", "conf", multiple=True, metavar="KEY=VALUE",
                        help="A Spark setting (repeatable), e.g. spark.driver.memory=8g.")(func)
    return click.option("--master", help="Spark master URL (default local[*]: every core of this machine).")(func)


@contextmanager
def _session(master, conf):
    with needs_extra("spark", "`graphmem spark`"):
        from pyspark.sql import SparkSession
    from ..spark import session

    settings = {}
    for item in conf:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInput(f"--conf takes KEY=VALUE, not {item!r}")
        settings[key.strip()] = value
    ours = SparkSession.getActiveSession() is None  # one already running here (a notebook) is left running
    spark = session(master, settings)
    if ours:
        spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        if ours:
            spark.stop()


def _show(frame, as_json: bool, title: str) -> None:
    from ..spark import records

    rows = records(frame)
    if as_json:
        output.dump_json(rows)
        return
    if not rows:
        output.plain(f"{title}: nothing")
        return
    from .layout import Column

    changes = "change" in rows[0]
    columns = [Column("store", "cut", least=8), *([Column("change", "keep"), Column("at", "parts")] if changes else []),
               Column("id", "keep"), Column("subject", least=8), Column("predicate", least=8),
               Column("object", least=8), Column("valid", "parts"), Column("status", "wrap", least=8),
               Column("believed", "parts", optional=True)]
    table = []
    for r in rows:
        valid = output.period_parts(_t(r.get("valid_from")), _t(r.get("valid_to"))) if r.get("valid_from") else ("", "")
        believed = output.period_parts(_t(r.get("recorded_at")), _t(r.get("superseded_at"))) \
            if r.get("recorded_at") else ("", "")
        cells = [r.get("store") or ""]
        if changes:  # a diff row: what changed, when, and whether the version came or went
            cells += [r.get("change") or "", (output.short(_t(r.get("at"))), "")]
            believed = (str(r.get("believed") or ""), "")
        table.append([*cells, r.get("id") or "", r.get("subject") or "", r.get("predicate") or "",
                      r.get("object") or "", valid, r.get("status") or "", believed])
    output.print_table(columns, table, f"{title} (times in {output.zone_name()})")


def _t(text):
    from ..core.times import parse_time

    return None if text is None else parse_time(text)


@main.group()
def spark():
    """Ask many stores at once: the questions over Parquet exports, with Spark SQL.

    Each PATH is a directory made by `graphmem export --format parquet` (or any URL Spark
    reads). Every row names the export it came from (`store`). Needs
    `pip install "graphmem[spark]"` and Java 17.
    """


@spark.command("beliefs")
@_PATHS
@click.option("--as-of", help="Transaction time (default: each store's now).")
@click.option("--valid-at", help="Valid time, or 'all' (default: the --as-of time).")
@_spark_options
def spark_beliefs(paths, as_of, valid_at, master, conf, as_json):
    """The facts each store believed at --as-of, valid at --valid-at."""
    from ..spark import beliefs

    with _session(master, conf) as session:
        _show(beliefs(session, list(paths), as_of, valid_at), as_json,
              f"beliefs as of {as_of or 'now'}, valid at {valid_at or as_of or 'now'}")


@spark.command("history")
@click.argument("subject")
@click.argument("predicate")
@_PATHS
@_spark_options
def spark_history(subject, predicate, paths, master, conf, as_json):
    """Every version of SUBJECT PREDICATE ever written in each store, newest first."""
    from ..spark import history

    with _session(master, conf) as session:
        _show(history(session, list(paths), subject, predicate), as_json, f"history of {subject} {predicate}")


@spark.command("timeline")
@click.argument("entity")
@_PATHS
@click.option("--as-of", help="Transaction time (default: each store's now).")
@_spark_options
def spark_timeline(entity, paths, as_of, master, conf, as_json):
    """ENTITY's facts on valid time in each store, as believed at --as-of."""
    from ..spark import timeline

    with _session(master, conf) as session:
        _show(timeline(session, list(paths), entity, as_of), as_json, f"timeline of {entity} as of {as_of or 'now'}")


@spark.command("diff")
@click.argument("t1")
@click.argument("t2")
@_PATHS
@_spark_options
def spark_diff(t1, t2, paths, master, conf, as_json):
    """What started and stopped being believed after T1 up to T2 in each store, and why."""
    from ..spark import diff

    with _session(master, conf) as session:
        _show(diff(session, list(paths), t1, t2), as_json, f"changes after {t1} up to {t2}")
