"""Users' queries: Cypher as of a date and named queries, run in a sandboxed worker process.

:mod:`.guard` decides a query is read-only before the engine sees it; :mod:`.projection` builds
the graphs queries run over (the graph believed at T, or the log as it stood at T) and keeps the
recent ones; :mod:`.sandbox` runs a query over them in a worker a crash cannot escape;
:mod:`.cypher` and :mod:`.named_queries` are the two ways in.

Internal: run queries with :meth:`graphmem.Store.cypher` and :meth:`graphmem.Store.query`.
"""

__all__: list[str] = []
