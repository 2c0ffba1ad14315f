"""What the store knew at T: the one rule every as-of answer applies, written once, rendered for
each place that applies it.

A version is **believed** at T when it was recorded by T and not closed by T::

    recorded_at <= T < superseded_at        (an open superseded_at: never closed)

Seen **as of** T, a version shows what the store held then: a closing recorded after T is not yet
known, so the fields a closing sets (:data:`CLOSING`) read as if the version were still open.
(The third part of the rule, the supporting episodes linked after T, is kept by
:class:`graphmem.read.questions.Unseen`: it needs the link rows, not the version alone.)

The renderings: :func:`believed` over Python values (models, recall's integers),
:func:`cypher` for the engine's queries (the store's ``.cypher`` files say ``{{believed f $as_of}}``
and :mod:`graphmem.engine.statements` writes this in), :func:`arrow_closing_as_known` over the
Arrow tables reads and projections are built from (the engine has filtered them by then),
:func:`spark_believed` and :func:`spark_closing_as_known` over Spark columns. ``tests/test_as_known.py`` evaluates every
rendering on the same periods and holds them to one answer.

Internal: the rule the reads, the projections, Spark and the queries apply.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from .times import OPEN_END

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import Column

__all__ = ["CLOSING", "believed", "arrow_closing_as_known", "closing_known", "cypher",
           "spark_believed", "spark_closing_as_known"]

#: The fields a closing sets on a version, each with its value while the closing is not yet known.
CLOSING: dict[str, Any] = {"superseded_at": None, "superseded_by": [], "closed_by": None, "reason": None}

_T = TypeVar("_T", datetime, int)


def believed(recorded_at: _T, superseded_at: _T | None, at: _T) -> bool:
    """True when a version with this transaction period was believed at ``at`` (None: open).

    >>> believed(3, 5, 3), believed(3, 5, 5), believed(3, None, 9), believed(3, 5, 2)
    (True, False, True, False)
    """
    return recorded_at <= at and (superseded_at is None or at < superseded_at)


def closing_known(superseded_at: _T | None, at: _T) -> bool:
    """True when the version's closing (if any) was already recorded at ``at``."""
    return superseded_at is None or superseded_at <= at


def cypher(alias: str, at: str) -> str:
    """The rule as a Cypher condition on the Fact edge ``alias`` at the parameter ``at`` (the
    engine stores an open end as the far future, never null)."""
    return f"{alias}.recorded_at <= {at} AND {alias}.superseded_at > {at}"


def _engine_at(at: datetime) -> pa.Scalar:
    import pyarrow as pa

    from .times import to_engine

    return pa.scalar(to_engine(at), pa.timestamp("us"))


def arrow_closing_as_known(table: pa.Table, at: datetime) -> dict[str, pa.ChunkedArray]:
    """The columns of :data:`CLOSING` as known at ``at``: where the closing was recorded later,
    the open values (``superseded_at`` the engine's open end), typed as the table's columns."""
    import pyarrow as pa
    import pyarrow.compute as pc

    later = pc.fill_null(pc.greater(table.column("superseded_at"), _engine_at(at)), False)
    unknown = {**CLOSING, "superseded_at": OPEN_END}
    return {name: pc.if_else(later, pa.scalar(value, table.schema.field(name).type), table.column(name))
            for name, value in unknown.items()}


def spark_believed(at: str = "as_of") -> Column:
    """The rule over the Spark columns of a Parquet export (open ends null), at the column ``at``."""
    from pyspark.sql import functions as F

    open_then = F.col("superseded_at").isNull() | (F.col("superseded_at") > F.col(at))
    return (F.col("recorded_at") <= F.col(at)) & open_then


def spark_closing_as_known(at: str = "as_of") -> dict[str, Column]:
    """The columns of :data:`CLOSING` as known at the column ``at`` (open values where the closing
    was recorded later)."""
    from pyspark.sql import functions as F

    later = F.col("superseded_at").isNotNull() & (F.col("superseded_at") > F.col(at))
    types = {"superseded_at": "timestamp", "superseded_by": "array<string>", "closed_by": "string", "reason": "string"}
    unknown = {name: (F.array() if isinstance(value, list) else F.lit(value)).cast(types[name])
               for name, value in CLOSING.items()}
    return {name: F.when(later, value).otherwise(F.col(name)) for name, value in unknown.items()}
