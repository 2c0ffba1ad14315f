"""graphmem: a bitemporal knowledge-graph memory on an embedded Kùzu-family graph database."""

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
    Change,
    Decision,
    Entity,
    Episode,
    Neighbourhood,
    Proposal,
    Said,
    Tombstone,
    Version,
    WhyAnswer,
)
from .store import Store
from .timeutil import TimeLike

#: The installed release.
__version__ = "0.1.0"

__all__ = [
    "Change", "Conflict", "Decision", "EngineError", "Entity", "Episode", "GraphmemError",
    "ImportFailed", "InvalidInput", "InvalidPeriod", "InvalidPredicate", "InvalidTime",
    "Neighbourhood", "NotFound", "Proposal", "QueryFailed", "Said", "Store", "StoreLocked", "TimeLike",
    "TimeWentBackwards", "Tombstone", "UnsafeQuery", "Version", "WhyAnswer", "__version__",
]
