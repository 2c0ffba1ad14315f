"""Errors graphmem raises: each says what was wrong and what to do."""

__all__ = ["Conflict", "EngineError", "GraphmemError", "ImportFailed", "InvalidInput", "InvalidPeriod",
           "InvalidPredicate", "InvalidTime", "LookAlikeName", "MigrationNeeded", "MissingExtra", "NotFound",
           "QueryFailed", "StoreLocked", "TimeWentBackwards", "UnsafeQuery"]


class GraphmemError(Exception):
    """Base class for every error graphmem raises on purpose."""


class InvalidInput(GraphmemError, ValueError):
    """A value given by the user cannot be used (bad date, empty name, impossible period)."""


class InvalidTime(InvalidInput):
    """A time could not be parsed or lies outside the supported range."""


class InvalidPeriod(InvalidInput):
    """A valid period is empty or reversed."""


class InvalidPredicate(InvalidInput):
    """A predicate name or kind is not acceptable."""


class NotFound(GraphmemError, LookupError):
    """An id (version, episode, entity, proposal) names nothing in the store."""


class Conflict(GraphmemError):
    """The write contradicts the store's state (already closed, nothing to end, ...)."""


class TimeWentBackwards(Conflict):
    """An explicit transaction time is not after the store's latest write."""


class StoreLocked(GraphmemError):
    """Another process holds the store directory."""


class MigrationNeeded(GraphmemError):
    """The store was written by an older release in a layout this one does not read: run
    ``graphmem migrate`` (:meth:`graphmem.Store.migrate`), which backs it up first."""


class EngineError(GraphmemError):
    """The embedded database engine is missing, mismatched or failed."""


class MissingExtra(GraphmemError, ImportError):
    """An optional part was used without the extra that installs it; the message names the
    extra and the command (``pip install "graphmem[mcp]"``)."""


class UnsafeQuery(GraphmemError):
    """A user's Cypher query tries to write or reach outside the store."""


class ImportFailed(GraphmemError):
    """An exported log could not be imported; nothing was written."""


class QueryFailed(GraphmemError):
    """A read-only query had to be stopped (time or memory limit) or crashed the engine that ran it.

    The query ran in a separate process: the store and the caller are unharmed.
    """


class LookAlikeName(UserWarning):
    """A warning, not an error: a write created an entity whose name looks like another entity's
    (Unicode's confusables, UTS #39), such as "Ivаn" with a Cyrillic а beside "Ivan". They are two
    entities; the write is kept."""
