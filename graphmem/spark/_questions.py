"""The questions as Spark DataFrame plans over Parquet logs (see :mod:`graphmem.spark`).

The rules are the store's (:mod:`graphmem.core.temporal`, :mod:`graphmem.read.questions`), written as column
expressions: a version is believed at T when ``recorded_at <= T < superseded_at``; its status is
seen from T (and V); as of T, a closing made after T is not there (``superseded_at``,
``superseded_by``, ``closed_by`` and ``reason`` hidden) and neither is a supporting episode
linked after T (received after T, or linked by a later write). Times a user gives are read in
each store's own zone, as the store reads them; the default "now" of a store is the later of the
clock and its latest write.

Internal: ask through the functions of :mod:`graphmem.spark`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..core.as_known import spark_believed, spark_closing_as_known
from ..core.json_shapes import CHANGE_FIELDS, VERSION_FIELDS
from ..core.json_shapes import HISTORY_EXTRA as SHOWN_HISTORY_EXTRA
from ..core.names import check_predicate, entity_key
from ..core.times import ALL, TimeLike, iso, parse_time, zone
from ..errors import ImportFailed, InvalidInput, NotFound
from ..log.parquet import FORMAT, HEADER, LAYOUT
from ..models import CHANGE_OF_OP

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from . import Paths

__all__ = ["beliefs", "diff", "history", "records", "timeline"]

HISTORY_EXTRA = (*SHOWN_HISTORY_EXTRA, "provenance")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass
class Logs:
    """The exports asked about: their paths as given, Spark's URIs for them, their headers."""

    spark: SparkSession
    paths: list[str]
    uris: list[str]
    headers: list[dict[str, Any]]

    def read(self, stem: str) -> DataFrame:
        """One record type of every export as one DataFrame, with ``_store`` (the export's index)."""
        from pyspark.sql import functions as F

        frame = self.spark.read.schema(_spark_schema(stem)).parquet(*(f"{uri}/{stem}.parquet" for uri in self.uris))
        index = F.create_map(*(x for i, uri in enumerate(self.uris) for x in (F.lit(uri), F.lit(i))))
        folder = F.regexp_replace(F.regexp_extract(F.input_file_name(), r"^(.*)/[^/]*$", 1), "^file:/+", "file:///")
        return frame.withColumn("_store", F.element_at(index, folder))

    def now(self, index: int) -> datetime:
        """A store's now: the clock, or its latest write if that is later."""
        latest = self.headers[index]["meta"].get("last_write")
        now = datetime.now(UTC)
        return max(now, parse_time(latest)) if latest else now

    def time(self, index: int, value: TimeLike) -> datetime:
        """A user's time read in a store's zone, as that store reads it."""
        return parse_time(value, zone(self.headers[index]["timezone"]))

    def moments(self, **columns: Callable[[int], datetime | None]) -> DataFrame:
        """A small DataFrame of per-store times: ``_store`` and one timestamp column per keyword,
        each a function of the store's index (None: null)."""
        from pyspark.sql.types import IntegerType, StructField, StructType, TimestampType

        schema = StructType([StructField("_store", IntegerType(), False),
                             *(StructField(name, TimestampType(), True) for name in columns)])
        rows = [(i, *(fn(i) for fn in columns.values())) for i in range(len(self.paths))]
        return self.spark.createDataFrame(rows, schema)


def _spark_schema(stem: str) -> StructType:
    """A record file's columns as Spark types, from the export's own declaration (given to the
    reader, Spark does not open every file's footer to infer them before each question)."""
    from pyspark.sql.types import ArrayType, LongType, StringType, StructField, StructType, TimestampType

    from ..log.parquet import FILES, schema_of

    kind = next(kind for kind, file in FILES.items() if file == stem)
    types = {"string": StringType(), "int64": LongType(), "timestamp[us, tz=UTC]": TimestampType(),
             "list<item: string>": ArrayType(StringType())}
    return StructType([StructField(f.name, types[str(f.type)], f.nullable) for f in schema_of(kind)])


def open_logs(spark: SparkSession, paths: Paths) -> Logs:
    """Check the exports (each a graphmem Parquet log of this format) and read their headers."""
    paths = [str(p).rstrip("/") or "/" for p in ([paths] if isinstance(paths, str) else paths)]
    if not paths:
        raise InvalidInput("name at least one Parquet export (a directory made by `graphmem export --format parquet`)")
    jvm, conf = spark._jvm, spark._jsc.hadoopConfiguration()
    assert jvm is not None  # a classic (JVM) session always has one; pyspark asserts the same
    given, uris = [], []
    for path in paths:
        hadoop = jvm.org.apache.hadoop.fs.Path(path)
        fs = hadoop.getFileSystem(conf)
        if any(c in path for c in "*?[{"):  # a pattern (hdfs:///exports/*): every export it matches
            matched = sorted(_local(status.getPath().toUri().toString()) for status in (fs.globStatus(hadoop) or []))
            if not matched:
                raise ImportFailed(f"no export matches {path}")
            found = [(jvm.org.apache.hadoop.fs.Path(m).toString(), m) for m in matched]
        else:
            found = [(path, _local(fs.makeQualified(hadoop).toUri().toString()))]
        for shown, uri in found:
            if not fs.exists(jvm.org.apache.hadoop.fs.Path(f"{uri}/{HEADER}")):
                raise ImportFailed(f"{shown} is not a graphmem Parquet log ({HEADER} is missing)")
            given.append(shown)
            uris.append(uri)
    paths = given
    if len(set(uris)) != len(uris):
        raise InvalidInput("an export is named twice")
    from pyspark.sql import functions as F

    texts = spark.read.text([f"{uri}/{HEADER}" for uri in uris], wholetext=True)
    read = {_local(row[0].rsplit("/", 1)[0]): row[1] for row in
            texts.select(F.input_file_name(), "value").collect()}
    headers = [_header(path, read.get(uri)) for path, uri in zip(paths, uris)]
    return Logs(spark, paths, uris, headers)


def _local(uri: str) -> str:
    """A URI as Spark names the files it reads (``file:///x``, where Hadoop may say ``file:/x``)."""
    return re.sub(r"^file:/+", "file:///", uri)


def _header(path: str, text: str | None) -> dict[str, Any]:
    try:
        header = json.loads(text or "")
    except ValueError as exc:
        raise ImportFailed(f"{path}/{HEADER}: not a graphmem header") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("layout") != LAYOUT:
        raise ImportFailed(f"{path}/{HEADER}: not a graphmem Parquet log of format {FORMAT}")
    if not isinstance(header.get("timezone"), str) or not isinstance(header.get("meta"), dict):
        raise ImportFailed(f"{path}/{HEADER}: the header names no time zone or settings")
    zone(header["timezone"])
    return header


# -- the rules, as column expressions -----------------------------------------------------------


def _status(as_of: str = "as_of", valid_at: str = "valid_at") -> Column:
    """:func:`graphmem.core.temporal.status` of a version seen from the columns ``as_of`` and
    ``valid_at`` (null: ``as_of``)."""
    from pyspark.sql import functions as F

    at = F.coalesce(F.col(valid_at), F.col(as_of))
    closed = F.col("superseded_at").isNotNull() & (F.col("superseded_at") <= F.col(as_of))
    retracted = F.col("reason").isNotNull() & (F.col("reason") != "")
    return (F.when(closed, F.when(retracted, "retracted").otherwise("superseded"))
            .when(at < F.col("valid_from"), "upcoming")
            .when(F.col("valid_to").isNotNull() & (F.col("valid_to") <= at), "ended")
            .otherwise("current"))


def _as_believed(logs: Logs, versions: DataFrame, as_of: str = "as_of") -> DataFrame:
    """Versions as the store held them at the column ``as_of``: status seen from then (and the
    column ``valid_at``), a later closing hidden, and only the episodes linked by then."""
    # one projection (each withColumn is analysed anew), every column computed from the stored ones
    seen = versions.withColumns({"status": _status(as_of), **spark_closing_as_known(as_of)})
    return _visible_episodes(logs, seen, as_of)


def _visible_episodes(logs: Logs, versions: DataFrame, as_of: str) -> DataFrame:
    """Each version's ``episodes`` without those linked after ``as_of`` (received later, or linked
    by a later write), in their order."""
    from pyspark.sql import functions as F

    once = versions.select("_store", "id", as_of, "episodes").dropDuplicates(["_store", "id", as_of])  # diff: twice
    cited = once.select("_store", "id", as_of, F.posexplode("episodes").alias("pos", "episode"))
    received = logs.read("episodes").select("_store", F.col("id").alias("episode"), "received_at")
    linked = logs.read("links").select("_store", F.col("version").alias("id"), "episode", F.col("at").alias("link_at"))
    kept = (cited.join(received, ["_store", "episode"], "left").join(linked, ["_store", "id", "episode"], "left")
            .where((F.col("received_at").isNull() | (F.col("received_at") <= F.col(as_of)))
                   & (F.col("link_at").isNull() | (F.col("link_at") <= F.col(as_of)))))
    lists = kept.groupBy("_store", "id", as_of).agg(
        F.array_sort(F.collect_list(F.struct("pos", "episode"))).alias("kept"))
    lists = lists.select("_store", "id", as_of, F.transform("kept", lambda x: x["episode"]).alias("visible"))
    return (versions.join(lists, ["_store", "id", as_of], "left")
            .withColumn("episodes", F.coalesce("visible", F.array().cast("array<string>"))).drop("visible"))


def _entity(logs: Logs, name: str) -> DataFrame:
    """(``_store``, ``entity``) of each store holding an entity by that name or id (as
    ``Store.entity`` finds it: its key first); NotFound if none does."""
    from pyspark.sql import functions as F

    candidates = list(dict.fromkeys((entity_key(name), name)))
    rows = (logs.read("entities").where(F.col("id").isin(candidates)).select("_store", "id").collect())
    chosen: dict[int, str] = {}
    for store, found in sorted(rows, key=lambda r: (r[0], candidates.index(r[1]))):
        chosen.setdefault(store, found)
    if not chosen:
        raise NotFound(f"no entity named {name!r}")
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    schema = StructType([StructField("_store", IntegerType(), False), StructField("entity", StringType(), False)])
    return logs.spark.createDataFrame(sorted(chosen.items()), schema)


def _named(logs: Logs, frame: DataFrame) -> DataFrame:
    """The frame with ``store``: the path, as given, of the export each row came from."""
    from pyspark.sql import functions as F

    paths = F.array(*(F.lit(p) for p in logs.paths))
    return frame.withColumn("store", F.element_at(paths, F.col("_store") + 1))


# -- the questions ------------------------------------------------------------------------------------


def beliefs(spark: SparkSession, paths: Paths, as_of: TimeLike | None = None,
            valid_at: TimeLike | None = None) -> DataFrame:
    from pyspark.sql import functions as F

    logs = open_logs(spark, paths)
    every = isinstance(valid_at, str) and valid_at.strip().lower() == ALL

    def when(i: int) -> datetime:
        return logs.now(i) if as_of is None else logs.time(i, as_of)

    def valid(i: int) -> datetime | None:
        return None if every else when(i) if valid_at is None else logs.time(i, valid_at)

    versions = logs.read("versions").join(F.broadcast(logs.moments(as_of=when, valid_at=valid)), "_store")
    inside = F.col("valid_at").isNull() | ((F.col("valid_from") <= F.col("valid_at")) & (
        F.col("valid_to").isNull() | (F.col("valid_to") > F.col("valid_at"))))
    found = _as_believed(logs, versions.where(spark_believed() & inside))
    order = ("_store", "subject", "predicate", "valid_from", "object", "id")
    return _named(logs, found).orderBy(*order).select("store", *VERSION_FIELDS)


def history(spark: SparkSession, paths: Paths, subject: str, predicate: str) -> DataFrame:
    from pyspark.sql import functions as F

    check_predicate(predicate)
    logs = open_logs(spark, paths)
    who = _entity(logs, subject).withColumnRenamed("entity", "subject_id")
    versions = (logs.read("versions").where(F.col("predicate") == predicate).join(F.broadcast(who),
                                                                                   ["_store", "subject_id"]))
    versions = versions.join(F.broadcast(logs.moments(as_of=logs.now, valid_at=lambda i: None)), "_store")
    found = versions.withColumn("status", _status())
    cited = found.select("_store", "id", F.posexplode("episodes").alias("pos", "episode"))
    sources = logs.read("episodes").select("_store", F.col("id").alias("episode"), "kind", "text")
    provenance = (cited.join(sources, ["_store", "episode"]).groupBy("_store", "id")
                  .agg(F.array_sort(F.collect_list(F.struct("pos", "episode", "kind", "text"))).alias("p"))
                  .select("_store", "id", F.transform("p", lambda x: F.struct(
                      x["episode"].alias("id"), x["kind"].alias("kind"), x["text"].alias("text"))).alias("provenance")))
    none = F.array().cast("array<struct<id:string,kind:string,text:string>>")
    found = found.join(provenance, ["_store", "id"], "left").withColumn("provenance", F.coalesce("provenance", none))
    found = _named(logs, found).orderBy("_store", F.desc("recorded_at"), F.desc("valid_from"), F.desc("id"))
    return found.select("store", *VERSION_FIELDS, *HISTORY_EXTRA)


def timeline(spark: SparkSession, paths: Paths, entity: str, as_of: TimeLike | None = None) -> DataFrame:
    from pyspark.sql import functions as F

    logs = open_logs(spark, paths)
    who = _entity(logs, entity)
    moments = logs.moments(as_of=lambda i: logs.now(i) if as_of is None else logs.time(i, as_of),
                           valid_at=lambda i: None)
    versions = logs.read("versions").join(F.broadcast(who), "_store").where(
        (F.col("subject_id") == F.col("entity")) | (F.col("object_id") == F.col("entity")))
    versions = versions.join(F.broadcast(moments), "_store").where(spark_believed())
    found = _named(logs, _as_believed(logs, versions)).orderBy("_store", "valid_from", "predicate", "id")
    return found.select("store", *VERSION_FIELDS)


def diff(spark: SparkSession, paths: Paths, t1: TimeLike, t2: TimeLike) -> DataFrame:
    from pyspark.sql import functions as F

    logs = open_logs(spark, paths)
    moments = logs.moments(after=lambda i: logs.time(i, t1), as_of=lambda i: logs.time(i, t2), valid_at=lambda i: None)
    writes = logs.read("decisions").join(F.broadcast(moments), "_store").where(
        (F.col("at") > F.col("after")) & (F.col("at") <= F.col("as_of")))
    writes = writes.select("_store", "as_of", "valid_at", "at", F.col("id").alias("decision"), "op",
                           F.col("reason").alias("why"), "created", "closed")
    ops = F.create_map(*(F.lit(x) for pair in CHANGE_OF_OP.items() for x in pair))
    named = []
    for phase, believed, column in ((0, "stopped", "closed"), (1, "started", "created")):
        named.append(writes.where(F.col("op").isin(list(CHANGE_OF_OP))).select(
            "_store", "as_of", "valid_at", "at", "decision", "why", F.element_at(ops, F.col("op")).alias("change"),
            F.lit(believed).alias("believed"), F.lit(phase).alias("phase"),
            F.posexplode(column).alias("pos", "id")))
    moved = named[0].unionByName(named[1])
    versions = logs.read("versions")
    changed = moved.join(versions, ["_store", "id"])  # a purged version is gone: skipped, as the store does
    changed = _as_believed(logs, changed).drop("reason").withColumnRenamed("why", "reason")
    purged = writes.where(F.col("op") == "PURGE").select(
        "_store", "at", "decision", F.col("why").alias("reason"), F.lit("purged").alias("change"),
        F.lit("removed").alias("believed"), F.lit(0).alias("phase"), F.lit(0).alias("pos"))
    columns = ("_store", *CHANGE_FIELDS, "phase", "pos", *VERSION_FIELDS)
    found = changed.select(*columns).unionByName(purged, allowMissingColumns=True)
    found = _named(logs, found).orderBy("_store", "at", "phase", "pos")
    return found.select("store", *CHANGE_FIELDS, *VERSION_FIELDS)


# -- rows as JSON objects ------------------------------------------------------------------------------


def records(frame: DataFrame) -> list[dict[str, Any]]:
    from pyspark.sql import functions as F
    from pyspark.sql.types import TimestampType

    times = [f.name for f in frame.schema.fields if isinstance(f.dataType, TimestampType)]
    exact = frame.select(*(F.unix_micros(F.col(c)).alias(c) if c in times else F.col(c) for c in frame.columns))
    found = []
    for row in exact.collect():
        data = row.asDict(recursive=True)
        for name in times:
            value = data[name]
            data[name] = None if value is None else iso(_EPOCH + timedelta(microseconds=value))
        if "change" in data and data.get("id") is None:  # a purge: no version
            data = {k: v for k, v in data.items() if k not in VERSION_FIELDS}
        found.append(data)
    return found
