"""graphmem: a bitemporal knowledge-graph memory on an embedded Kùzu-family graph database.

:class:`Store` is the way in. Everything a Store method takes or returns, every error it raises
and the accepted time forms (:data:`TimeLike`) are importable from here.
"""

from .backup import BackupInfo
from .cypher import Rows
from .errors import (
    Conflict,
    EngineError,
    GraphmemError,
    ImportFailed,
    InvalidInput,
    InvalidPeriod,
    InvalidPredicate,
    InvalidTime,
    NotFound,
    QueryFailed,
    StoreLocked,
    TimeWentBackwards,
    UnsafeQuery,
)
from .models import (
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
from .named import NamedQuery
from .recall import Embedded, Hit
from .store import Remembered, Store
from .timeutil import TimeLike

#: The installed release.
__version__ = "0.1.0"

__all__ = [
    "Assertion", "BackupInfo", "Change", "Conflict", "Decision", "Embedded", "EngineError", "Entity", "Episode",
    "GraphmemError", "Hit", "ImportFailed", "InvalidInput", "InvalidPeriod", "InvalidPredicate", "InvalidTime",
    "Link", "NamedQuery", "Neighbourhood", "NotFound", "Proposal", "QueryFailed", "Remembered", "Rows", "Said", "Store",
    "StoreLocked", "TimeLike", "TimeWentBackwards", "Tombstone", "UnsafeQuery", "Version", "Violation", "WhyAnswer",
    "__version__",
]
