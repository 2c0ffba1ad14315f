"""Reading the stored log: beliefs, history, timeline, diff, why, neighbourhoods, audits.

Each function receives an engine and plain values, fetches through the store's named queries and
decides statuses with :mod:`graphmem.core.temporal`; nothing here writes.

Internal: ask these questions through :class:`graphmem.Store`.
"""

__all__: list[str] = []
