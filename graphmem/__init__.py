"""graphmem: a bitemporal knowledge-graph memory on an embedded Kùzu-family graph database.

:class:`Store` is the way in. Everything a Store method takes or returns, every error it raises
and the accepted time forms (:data:`TimeLike`) are importable from here. They are imported on
first use, so a program that needs only part of graphmem (the command line's ``--help``, say)
does not pay for the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core.lazy import lazy_names
from .errors import (
    Conflict,
    EngineError,
    GraphmemError,
    ImportFailed,
    InvalidInput,
    InvalidPeriod,
    InvalidPredicate,
    InvalidTime,
    LookAlikeName,
    MigrationNeeded,
    MissingExtra,
    NotFound,
    QueryFailed,
    StoreLocked,
    TimeWentBackwards,
    UnsafeQuery,
)

if TYPE_CHECKING:
    from ._store import Remembered, Store
    from .core.times import TimeLike
    from .log.backup import BackupInfo
    from .models import (
        AliasGroup,
        Assertion,
        Change,
        Decision,
        Entity,
        Episode,
        Link,
        Neighbourhood,
        Proposal,
        Said,
        Tombstone,
        Version,
        Violation,
        WhyAnswer,
    )
    from .query.cypher import Rows
    from .query.named_queries import NamedQuery
    from .recall import Answer, Embedded, Hit, MessageHit

#: The installed release.
__version__ = "0.1.0"

__all__ = [
    "AliasGroup", "Answer", "Assertion", "BackupInfo", "Change", "Conflict", "Decision", "Embedded", "EngineError",
    "Entity", "Episode", "GraphmemError", "Hit", "ImportFailed", "InvalidInput", "InvalidPeriod", "InvalidPredicate",
    "InvalidTime", "Link", "LookAlikeName", "MessageHit", "MigrationNeeded", "MissingExtra", "NamedQuery",
    "Neighbourhood",
    "NotFound", "Proposal", "QueryFailed", "Remembered", "Rows", "Said", "Store", "StoreLocked", "TimeLike",
    "TimeWentBackwards", "Tombstone", "UnsafeQuery", "Version", "Violation", "WhyAnswer", "__version__",
]

#: Names imported on first use, and the module each comes from.
_LAZY = {
    "BackupInfo": "log.backup", "Rows": "query.cypher", "NamedQuery": "query.named_queries", "Embedded": "recall",
    "Hit": "recall", "MessageHit": "recall", "Answer": "recall",
    "Remembered": "_store", "Store": "_store", "TimeLike": "core.times",
    **dict.fromkeys(("AliasGroup", "Assertion", "Change", "Decision", "Entity", "Episode", "Link", "Neighbourhood",
                     "Proposal", "Said", "Tombstone", "Version", "Violation", "WhyAnswer"), "models"),
}


__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
