"""graphmem: a bitemporal knowledge-graph memory on an embedded Kùzu-family graph database.

``from graphmem import Store`` is the way in. The store and its models are imported on first
use, so a program (the command line's ``--help``, say) that needs only part of graphmem does
not pay for the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
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

__version__ = "0.1.0"

__all__ = [
    "Change", "Conflict", "Decision", "EngineError", "Entity", "Episode", "GraphmemError",
    "ImportFailed", "InvalidInput", "InvalidPeriod", "InvalidPredicate", "InvalidTime",
    "Neighbourhood", "NotFound", "Proposal", "QueryFailed", "Said", "Store", "StoreLocked", "TimeWentBackwards",
    "Tombstone",
    "UnsafeQuery", "Version", "WhyAnswer", "__version__",
]

#: Names imported on first use, and the module each comes from.
_LAZY = {
    "Store": "store",
    **dict.fromkeys(("Change", "Decision", "Entity", "Episode", "Neighbourhood", "Proposal", "Said", "Tombstone",
                     "Version", "WhyAnswer"), "models"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
