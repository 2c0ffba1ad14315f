"""The store's questions over Parquet logs on Apache Spark: beliefs, history, timeline, diff.

One store is one memory; many stores, or a log too large for one machine, are exported
(``graphmem export --format parquet DIR``) and asked here, with Spark SQL, across as many
exports as given. Every function takes a SparkSession and the exports' paths (local
directories, or any URL Spark reads: ``hdfs://``, ``s3a://``...) and returns a DataFrame whose
rows carry the fields of the store's own ``--json`` answer, plus ``store``: the path, as given,
of the export the row came from. Answers equal the store's own (the same as-of semantics: a
closing after T is not yet there, nor a link made after T).

>>> from graphmem import spark as gs                                   # doctest: +SKIP
>>> session = gs.session()                                              # doctest: +SKIP
>>> gs.beliefs(session, ["exports/ana", "exports/ben"], as_of="2026-03-01").show()  # doctest: +SKIP

Needs ``pip install "graphmem[spark]"`` and Java 17; pyspark is imported only when a function
runs, and this package never imports the embedded engines.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.extras import needs_extra
from ..core.times import TimeLike
from ..errors import GraphmemError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: Exports to ask: one path or URL, or many (each names the ``store`` of its rows).
Paths = str | Sequence[str]

__all__ = ["Paths", "SparkUnavailable", "beliefs", "diff", "history", "records", "session", "timeline"]


class SparkUnavailable(GraphmemError):
    """Spark cannot run here: the spark extra is not installed, or Java is missing."""


def pyspark() -> Any:
    """The pyspark module, or SparkUnavailable saying how to get it."""
    with needs_extra("spark", "Spark questions", SparkUnavailable):
        import pyspark as module
        from pyspark.sql import functions  # noqa: F401
    return module


def java_missing() -> str | None:
    """Why Spark cannot start a local JVM here, or None when Java is found."""
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return None
    if shutil.which("java"):
        return None
    return "Spark needs Java 17 and none was found (install openjdk-17-jre-headless, or set JAVA_HOME)"


def session(master: str | None = None, conf: dict[str, str] | None = None, app: str = "graphmem") -> SparkSession:
    """A SparkSession for the questions: ``local[*]`` unless ``master`` names another (any master
    URL: ``spark://host:7077``, ``yarn``, ``k8s://...``), times in UTC, ``conf`` added."""
    pyspark()
    if (master is None or master.startswith("local")) and (why := java_missing()):
        raise SparkUnavailable(why)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app).master(master or "local[*]")
    for key, value in {"spark.sql.session.timeZone": "UTC", "spark.ui.showConsoleProgress": "false",
                       **(conf or {})}.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def beliefs(spark: SparkSession, paths: Paths, as_of: TimeLike | None = None,
            valid_at: TimeLike | None = None) -> DataFrame:
    """What each store believed at ``as_of`` (default: its now), valid at ``valid_at`` (default
    ``as_of``; "all": any valid time), ordered as `graphmem beliefs` orders them."""
    from ._questions import beliefs as ask

    return ask(spark, paths, as_of, valid_at)


def history(spark: SparkSession, paths: Paths, subject: str, predicate: str) -> DataFrame:
    """Every version of (subject, predicate) ever written, newest first, status as seen from each
    store's now, with ``supersedes``, ``superseded_by``, ``reason`` and ``provenance``."""
    from ._questions import history as ask

    return ask(spark, paths, subject, predicate)


def timeline(spark: SparkSession, paths: Paths, entity: str, as_of: TimeLike | None = None) -> DataFrame:
    """An entity's facts as believed at ``as_of`` (default: each store's now), in valid-time order."""
    from ._questions import timeline as ask

    return ask(spark, paths, entity, as_of)


def diff(spark: SparkSession, paths: Paths, t1: TimeLike, t2: TimeLike) -> DataFrame:
    """What started and stopped being believed after ``t1`` up to ``t2``, and why, per store."""
    from ._questions import diff as ask

    return ask(spark, paths, t1, t2)


def records(frame: DataFrame) -> list[dict[str, Any]]:
    """A question's DataFrame as the JSON objects `graphmem spark ... --json` prints: times as ISO
    8601 UTC text, open ends null; a diff row without a version has no version fields."""
    from ._questions import records as convert

    return convert(frame)
