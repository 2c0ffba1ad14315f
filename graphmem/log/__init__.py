"""The whole log in and out of a store: JSON Lines, Parquet, and whole copies of its files.

:mod:`.jsonl` and :mod:`.parquet` export the log and import it back exactly, into either
engine; :mod:`.backup` copies, restores and compacts the engine's files.

Internal: use ``Store.export``, ``Store.import_log``, ``Store.backup`` and ``Store.restore``.
"""

__all__: list[str] = []
