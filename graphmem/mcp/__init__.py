"""graphmem as an MCP server: a store's memory offered to an assistant as tools.

:mod:`graphmem.mcp.tools` holds the tools (what each does; their argument and result models are
in :mod:`graphmem.mcp._schemas`) and needs nothing beyond graphmem; :mod:`graphmem.mcp.server`
serves them over stdio with the official MCP SDK (the ``mcp`` extra: ``pip install
'graphmem[mcp]'``). Run it with ``graphmem mcp``.

Internal: the package itself exports nothing; import from :mod:`graphmem.mcp.server` and
:mod:`graphmem.mcp.tools`.
"""

__all__: list[str] = []
